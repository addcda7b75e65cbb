# ヘルプとルール: コマンド表（src/service/catalog.rs）から書くヘルプの言葉と、駒の動き（src/service/views.rs）。

help-head = コマンド一覧（対局や挑戦がひとつだけなら番号は省略できます）:
help-no-command = 「{ $topic }」というコマンドはありません。help で一覧を表示します
help-foot =
    help コマンド名 でそのコマンドのすべてのオプションを表示します（例: help settings、help league）。
    盤面は手番の側から描きます（自分の手番では自分の駒が下）。settings board= で片方を下に固定できます。
help-head-slash = コマンド一覧（/ヘルプ の項目にコマンド名を入れるとすべてのオプションを表示。対局がひとつだけなら番号は省略できます）:
help-foot-slash = プレフィックスのコマンド（!move 7g7f）も同じオプションを同じ順に取ります。盤面は手番の側から描きます（自分の手番では自分の駒が下）。/設定 の盤の向きで片方を下に固定できます。
help-required = （必須）
help-choices = 。選択肢:{" "}
help-separator = 、

## 使い方の行の仮の名前（コマンド表、src/service/catalog.rs）

meta-game-id = 対局番号
meta-challenge-id = 挑戦番号
meta-user = @プレイヤー
meta-opponent = @相手|open
meta-variant = 種類
meta-move = 指し手
meta-square = マス
meta-ply = 手数
meta-piece = 駒
meta-n = 数
meta-days = 日数
meta-hours = 時間数
meta-hour = 0-23
meta-zone = タイムゾーン
meta-name = 名前
meta-channel = チャンネル
meta-choice = 選択 …
meta-moves = "指し手"
meta-command = コマンド
meta-league = 番号
meta-level = 1-5
meta-handicap = 駒落ち
meta-setup = 初期配置
meta-feature = 対局番号|none

## 入力だけのコマンド（コンソール。Discord ではボタンと /盤面）

cmd-pick = pick
    .description = 指し手ピッカー（Discord では「指す」ボタン）: 動かせる駒、その行き先、最後に指す。
cmd-pick-game = game
    .description = 対局の番号
cmd-pick-choice = choice
    .description = ここまでの選択。ピッカーの各選択肢に、それを選ぶコマンドを表示します
cmd-game = game
    .description = 対局の任意の手数の盤面。
cmd-game-game = game
    .description = 対局の番号
cmd-game-ply = ply
    .description = この手数の後の局面を表示

## オプションのほかに言うこと（help コマンド名）

help-note-challenge = ユーザーの代わりに open と書くと、誰でも受けられる挑戦になります。Tegami 自身（@Tegami）に挑戦するとコンピューターと対局します（level= で強さ）。
help-note-move = 自分の表記で書いてください（settings notation=）。moves で合法手の一覧、pick で駒を選んで指せます。
help-note-board = 手番の側から描きます（自分の手番では自分の駒が下）。settings board= で片方を下に固定できます。
help-note-declare = 将棋: 自分の手番に入玉宣言をする（27点法: 玉と他の駒10枚以上が敵陣にあり、王手がかかっていないこと。先手28点、後手27点以上。敵陣と持駒の飛車・角は5点、その他は1点）。
help-note-impasse = 双方の玉が敵陣に入ったあと、合意による持将棋（shogi、judkins、cannon）。
help-note-games = 自分の手番の対局（期限の近い順、残り時間つき）、相手の手番の対局、挑戦の順。
help-note-export = kif、csa: 将棋。fen: 将棋、ジャドキンス将棋。
help-note-rules = 勝ち負け、盤と区域、駒、取った駒、特別な手、最初の手。駒を指定するとその駒の動き。
help-note-settings = digest: 一手ごとの通知の代わりに一日一通のまとめ。リマインドは持ち時間の半分が過ぎるまで待ちます。既定は24時間前、0 で知らせない。まとめは未設定なら前回から一日後。timezone は Asia/Tokyo のようなタイムゾーン名、既定は UTC。
help-note-vacation = 月に14日まで。vacation だけで残りの日数を表示します。
help-note-server = 変更はサーバーの管理者のみ。
help-note-conditional = 相手の手番に「相手がXなら自分はY…」。あなたにだけ表示されます。
help-note-follow = follow だけでフォロー中の一覧。
help-note-slash-challenge = 相手に Tegami 自身を選ぶとコンピューターと対局します（強さは「強さ」で指定）。
help-note-slash-move = 自分の表記で書いてください（/設定 の棋譜表記）。入力中に候補が出ます。指し手なしの /指す でピッカーが開き、駒と行き先を選んで指せます。
help-note-slash-board = 手番の側から描きます（自分の手番では自分の駒が下）。/設定 の盤の向きで片方を下に固定できます。
help-note-slash-vacation = 月に14日まで。/休暇 だけで残りの日数を表示します。
help-note-slash-follow = /フォロー だけでフォロー中の一覧。

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
