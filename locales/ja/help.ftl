# ヘルプとルール（src/service/views.rs）: コマンド一覧、将棋の種類の説明、駒の動き。

help-head = コマンド一覧（対局や挑戦がひとつだけなら番号は省略できます）:
help-no-command = 「{ $topic }」というコマンドはありません。help で一覧を表示します
help-challenge = challenge @相手|open 種類 [black|white|random] [days=N] [clock=per-move|increment|byoyomi] [increment=N] [cap=N] [period=N] [handicap=名前] [setup=名前] [rated|casual] — 対局を申し込む（種類: shogi 将棋、judkins ジャドキンス将棋、cannon 大砲将棋、palace 宮殿将棋、shanghai 上海宮殿チェス）
help-accept = accept [挑戦番号] — 挑戦を受ける
help-decline = decline [挑戦番号] — 挑戦を断る
help-cancel = cancel [挑戦番号] — 自分の挑戦を取り消す
help-move = move [対局番号] 指し手 — 指す: ７六歩、76歩、同歩、7g7f、P-7f、S*5e など
help-board = board [対局番号] — 盤面を表示する（手番の側から描くので、自分の手番では自分の駒が下。settings board= で片方を下に固定）
help-moves = moves [対局番号] [マス] — 合法手の一覧（そのマスの駒の手だけも可）
help-pick = pick [対局番号] [選択 …] — 指し手ピッカー（Discordでは「指す」ボタン）：動かせる駒、その行き先（盤面に印）、最後に指す。各選択肢に次のコマンドを表示
help-resign = resign [対局番号] — 投了する
help-declare = declare [対局番号] — 将棋: 自分の手番に入玉宣言をする（27点法: 玉と他の駒10枚以上が敵陣にあり、王手がかかっていないこと。先手28点、後手27点以上。敵陣と持駒の飛車・角は5点、その他は1点）
help-draw = draw [対局番号] [offer|accept|decline] — 引き分けを申し出る、または返答する
help-takeback = takeback [対局番号] [request|accept|decline] — 待ったを申し出る、または返答する
help-impasse = impasse [対局番号] [propose|accept|decline] — 双方の玉が敵陣に入ったあと、合意による持将棋（shogi、judkins、cannon）
help-games = games [@プレイヤー] — 毎日の一覧: 自分の手番の対局（期限の近い順、残り時間つき）、相手の手番の対局、挑戦の順。プレイヤーを指定するとその人の対局
help-history = history [@ユーザー] — 終局した対局
help-game = game 対局番号 [手数] — 対局の任意の手数の盤面
help-record = record 対局番号 — 棋譜
help-export = export 対局番号 [sfen|kif|csa|fen] — 他のソフト向けの棋譜（kif、csa: 将棋。fen: 将棋、ジャドキンス将棋）
help-rules = rules 種類 [駒] — 遊び方（勝ち負け、盤と区域、駒、取った駒、特別な手、最初の手）、または駒ひとつの動き
help-settings = settings [style=kanji|international] [notify=mention|dm|digest] [remind=時間数] [language=en|ja] [notation=western|japanese|usi] [digest_hour=0-23] [timezone=タイムゾーン] [board=default|black|white] — 個人設定（board: 画像の下側、default は手番の側。digest: 一手ごとの通知の代わりに一日一通のまとめ。remind: 期限の何時間前に知らせるか。既定は24、0 で知らせない。リマインドは持ち時間の半分が過ぎるまで待ちます。language: 言語。notation: 棋譜の表記。digest_hour: 毎日のまとめの時刻、未設定なら前回から一日後。timezone: その時刻と表示する時刻のタイムゾーン、`Asia/Tokyo` のようなタイムゾーン名、既定は UTC）
help-moretime = moretime [対局番号] — 相手の持ち時間を一日延ばす
help-vacation = vacation [日数|end] — 期限を止める（月に14日まで）、または早めに戻る
help-stats = stats [@ユーザー] — このサーバーでのレーティングと成績
help-leaderboard = leaderboard 種類 — このサーバーでのレーティング上位
help-server = server [days=N] [rated|casual] [channel=チャンネル] [language=en|ja] — サーバーの既定値（管理者のみ）
help-league = league create name=名前 game=種類 format=round-robin|double-round-robin|swiss [rounds=回戦数] [days=日数] [clock=…] [start=all|rounds] · league join|leave|start|cancel|show|pairings|kick league=番号 · league list — サーバーのリーグ戦（総当たり、スイス式）
help-conditional = conditional add [対局] "指し手" （相手の手番に「相手がXなら自分はY…」）、conditional list [対局]、conditional clear [対局] — 予約手（あなたにだけ表示）
help-follow = follow 対局番号 [thread|digest|ping] — このサーバーの対局をフォロー: 対局スレッドで（既定）、毎日のまとめで、または一手ごとのメンションで。follow だけでフォロー中の一覧
help-unfollow = unfollow 対局番号 — 対局のフォローをやめる
help-help = help [コマンド] — この一覧

## 将棋の種類の説明（rules 種類）

rules-head = { $name }（{ $files }×{ $ranks }）、識別子 '{ $id }'。{ $first }から指します。
rules-pieces = 駒（局面文字列の記号 / 西洋式表記の記号）:
rules-zone = 成れる区域: 敵陣{ $depth }段。
rules-moves =
    指し手: ７六歩、76歩、同　歩、５五角打、２二角成、２二角不成、５八金右 のような日本式の表記、
    7g7f、7c7b+（成り）、P*5e（打つ）のような符号、または P-7f、Px7f、S-4b+ / S-4b=（成る・成らない）、
    G6i-5h（二枚の駒が行けるときは元の升目）、S*5e（打つ）のような西洋式の表記で入力できます。
rules-handicaps = 駒落ち（上手の駒を除き、上手から指します）:
rules-impasse = 双方の玉が敵陣に入ったあと、合意による持将棋: { $points }点が必要です。
rules-handicap-lance = 香落ち（上手の左の香車）
rules-handicap-bishop = 角落ち（上手の角行）
rules-handicap-rook = 飛車落ち（上手の飛車）
rules-handicap-rook-lance = 飛香落ち（上手の飛車と左の香車）
rules-handicap-two = 二枚落ち（上手の飛車と角行）
rules-handicap-four = 四枚落ち（上手の飛車、角行、両方の香車）
rules-handicap-six = 六枚落ち（上手の飛車、角行、両方の香車と桂馬）

## 駒の動き（rules 種類 駒）

rules-piece = { $variant }の{ $name }（{ $letter }）: { $moves }{ $extra }
rules-shanghai-shogi-piece = 成れる区域は自陣から数えて5段目から9段目。取られると取った側の持駒になります。
rules-move-king-palace = 全方向に一マス。玉同士が間に駒のない筋で向かい合ってはいけません。敵の宮殿に合法に入れば即座に勝ち（入玉）。入城（キャスリング）: 動いていない香車との間に駒がなければ、玉が香車の方へ二マス動き、香車は玉が通った升目へ。王手されているとき、王手される升目を通るとき、王手される升目へは不可。
rules-move-king = 全方向に一マス。
rules-move-gold = 縦横と斜め前に一マス（六方向）。金将と同じ動き。
rules-move-silver = 斜めと真っ直ぐ前に一マス（五方向）。
rules-move-knight-palace = 桂馬: 二マス前の左右へ跳ぶ（将棋の桂馬と同じ）。敵陣で終わる手で騎に成ります。
rules-move-knight = 二マス前の左右へ、間の駒を跳び越えて移動。最後の二段では必ず成ります。
rules-move-lance-palace = 前へ空いている限り何マスでも。敵陣で終わる手で砲に成ります。
rules-move-lance = 前へ空いている限り何マスでも。最後の段では必ず成ります。
rules-move-bishop = 斜めに空いている限り何マスでも。
rules-move-rook = 縦横に空いている限り何マスでも。
rules-move-horse = 角行の動きに加え、縦横に一マス。
rules-move-dragon = 飛車の動きに加え、斜めに一マス。
rules-move-pawn = 前に一マス。最後の段では必ず成ります。二歩（成っていない自分の歩がある筋に打つこと）と打ち歩詰めは禁止。
rules-move-side-pawn = 前か横に一マス。最後の段では必ず成ります。打つときの決まりは将棋の歩と同じ。
rules-move-gold-cannon = 縦横の線上を、少なくとも一枚の駒（何枚でも、玉も含む）を跳び越えてから動きます。最初に跳んだ駒より先のどの升目にも移動・駒取りができます。
rules-move-copper-cannon = 斜めの線上を、少なくとも一枚の駒（何枚でも、玉も含む）を跳び越えてから動きます。最初に跳んだ駒より先のどの升目にも移動・駒取りができます。
rules-move-silver-cannon = 縦横に隣り合う駒を跳び越え、そのすぐ先の升目へ移動・駒取りをするときだけ動けます。
rules-move-iron-cannon = 斜めに隣り合う駒を跳び越え、そのすぐ先の升目へ移動・駒取りをするときだけ動けます。
rules-move-promoted-cannon = 成る前の動きに加え、全方向に一マス。
rules-move-footsoldier = 前に一マス。敵側の四段では横にも一マス（最後の段では横だけ）。敵の宮殿では回廊から回廊へ斜め前にも。打てるのは自陣側の四段だけで、詰ませる打ち方は不可。盤上には五枚まで。
rules-move-palace-pawn = チェスのポーンと同じ: 前に一マス（最初の段からは二マス）、取るときは斜め前に一マス、アンパッサンあり。最後の段で后になります。
rules-move-palace-cannon = 取らないときは飛車と同じ動き。取るときはちょうど一枚の駒を跳び越えます（砲は跳べず、砲は取れません）。敵の宮殿では回廊に沿っても動き、中央を越えて隅から隅へ取れます。
rules-move-chess-knight = チェスのナイトと同じ: 一方へ二マス、もう一方へ一マス、跳び越えて移動。
rules-move-elephant = 角行の動きに加え、縦横に一マス、さらに斜めに二マス跳ぶ（アルフィル）。
rules-move-palace-dragon = 飛車の動きに加え、斜めに一マス。敵の宮殿では回廊に沿っても動きます。
rules-move-queen-palace = 自分の宮殿の中では斜めに一マスだけ（外に出るときも）。外では全方向に何マスでも。ただし自分の宮殿へ滑り込むときは最初の升目で止まります。自分の側に獅子がいなければ、敵陣で獅子に成れます。
rules-move-queen = 全方向に空いている限り何マスでも（チェスのクイーン）。
rules-move-lion = 一手で玉の動きを二回まで: 二マス以内のどの升目へも跳べ、一歩目で取ってさらに進む（もう一度取る、または元の升目へ戻る: 居食い）ことも、空いた升目の隣でじっとする（手を渡す）こともできます。獅子は取れません。
rules-move-xiangqi-king = 縦横に一マス。宮殿から出られません。二つの王は間に駒のない筋で向かい合ってはいけません。
rules-move-guard = 斜めに一マス。宮殿から出られません。
rules-move-xiangqi-elephant = 斜めにちょうど二マス。間の升目に駒があれば動けません。自陣の5段目より先へは行けません。
rules-move-xiangqi-cannon = 取らないときは飛車と同じ動き。取るときは敵味方どちらかの駒をちょうど一枚跳び越えます。
rules-move-xiangqi-pawn = 前に一マス。自陣の5段目より先では横にも一マス。後ろへは戻れません。
rules-move-western-rook = 縦横に空いている限り何マスでも（チェスのルーク）。
rules-move-western-bishop = 斜めに空いている限り何マスでも（チェスのビショップ）。
rules-move-western-pawn = 前に一マス、取るときは斜め前に一マス。二マス進みはなし。最後の段ではチェスのクイーン、ルーク、ビショップ、ナイトのどれかにならなければなりません。
help-analysis = analysis 対局番号 — 終局した対局のコンピューターによる評価のグラフ
help-replay = replay 対局番号 — 対局の動く画像
