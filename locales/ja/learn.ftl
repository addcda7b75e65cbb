# ルールのページ（`rules 対局種`）と、指せなかった手のあとのヒント（src/service/learn.rs）。

learn-title = **{ $name }の遊び方**　対局者は{ $first }と{ $second }の二人。{ $first }から指します。
learn-goal-head = **勝ち負け**
learn-goal-shogi = 相手の玉を詰ませば勝ち（どう逃げても取られる状態）。玉は取られず、自分の玉に王手がかかったままの手は指せません。投了・時間切れでも終わります。同じ局面が四回現れると千日手で引き分け（王手をかけ続けた側の負け）。入玉して宣言（27点法、`declare`）で勝てることもあり、両方の玉が敵陣に入れば合意で持将棋（24点必要）。
learn-goal-judkins = 相手の玉を詰ませば勝ち。指す手がない側の負け。同じ局面四回で千日手の引き分け（王手をかけ続けた側の負け）。投了・時間切れでも終わり、両方の玉が敵陣に入れば合意で持将棋（12点必要）。
learn-goal-cannon = 相手の玉を詰ませば勝ち。砲は駒を飛び越えて王手をかけるので、間に駒を打っても防げません。指す手がない側の負け。同じ局面四回で千日手の引き分け（王手をかけ続けた側の負け）。両方の玉が敵陣に入れば合意で持将棋（38点必要）。
learn-goal-palace = 相手の玉を詰ませるか、自分の玉を正しい手で敵の宮殿に入れれば（入玉）その場で勝ち。王手されずに指す手がなければ引き分け、同じ局面四回も引き分け。玉同士は間に駒のない筋で向かい合えません。
learn-goal-shanghai = 相手の帥（宮殿の中の玉）を詰ませば勝ち。指す手がない側の負けで、同じ局面を三回目に作る手は指せません。玉同士は間に駒のない筋で向かい合えません。
learn-board-head = **盤**（一枚目の画像）
learn-board-side = 手番の側から描きます。自分の手番なら自分の駒が下です（設定の `board` で片方を下に固定できます）。画像の印:
learn-zone-promotion = { $side }の成れる敵陣: { $from }段目から{ $to }段目
learn-zone-shogi-promotion = { $side }の将棋駒が成れる区域: { $from }段目から{ $to }段目
learn-zone-palace-palace = { $side }の宮殿（明るいマスが通路。敵の宮殿に入れば勝ち）
learn-zone-palace-shanghai = { $side }の宮殿（帥と仕は出られません）
learn-zone-river = 河（5段目。相は渡れません）
learn-pieces-head = **駒**（二枚目の画像: それぞれの動き。詳しくは `rules { $id } 駒`）
learn-pieces = { $pieces }。
learn-captures-head = **取った駒**
learn-captures-shogi = 取った駒は持ち駒になり（成りは元に戻る）、あとで空いているマスに打てます（`P*5e`、`55角打`）。ただし二歩、打ち歩詰め、動けない場所への打ちは禁止。
learn-captures-judkins = { learn-captures-shogi }
learn-captures-cannon = { learn-captures-shogi }砲はどの空きマスにも打てます。
learn-captures-palace = 取られて消える駒（卒・香車・桂馬・角行・飛車・銀将・后・獅子）と、持ち駒になって元の駒として打たれる駒があります: 兵は卒、砲は香車、騎は桂馬、象は角行、龍は飛車、金は銀将として打ちます（`P*5e`）。盤上の卒は五枚まで。
learn-captures-shanghai = 取った将棋駒は持ち駒になり、将棋と同じように打てます（`F*e5`）。西洋と中国の駒は取られたら消えます。
learn-special-head = **特別な手**
learn-special-shogi = 成り: 敵陣（奥の三段）に入る・中で動く・出る手で成れます（`+`、成らないなら `=`）。行き所のない歩・香・桂は必ず成ります。打つ手は上のとおり。
learn-special-judkins = 成りは奥の二段（`+`、成らないなら `=`）。打つ手は上のとおり。
learn-special-cannon = 砲は跳びます: 金砲と銅砲は一枚以上の駒を越えて筋に沿って、銀砲と鉄砲は隣の一枚を越えて。成りは奥の三段（`+`、`=`）。打つ手は上のとおり。
learn-special-palace = 入城（キャスリング）: 動いていない香車と。玉の動きとして書きます（`K-7i`、`5i7i`）。兵は成った状態で始まり（`+P`）、一マス前（初期位置からは二マス）、斜め前で取り、アンパッサンがあり、最奥で后になります。后は獅子（`Ln`）に成れ、獅子は二回動けます: `Ln5ex5d-5c`。香車・桂馬・角行・飛車は敵陣で必ず成ります。
learn-special-shanghai = 西洋のポーンは最奥でクイーン・ルーク・ビショップ・ナイトのどれかになります（`c9=Q`）。将棋駒は自分の区域で成れます（`+`、成らないなら `=`）。それぞれの軍は自分の動きのままです。
learn-writing-head = **手の書き方**
learn-handicaps = 挑戦するときに `handicap={ $names }` で駒落ちにできます（上手＝後手の駒を落とし、後手から指します）。
learn-writing-shogi = 日本式: `７六歩`、`76歩`、`同歩`、`55角打`。ほかに英語式（`P-7f`、`S*5e`）や符号（`7g7f`）も使えます。
learn-writing-judkins = { learn-writing-shogi }
learn-writing-cannon = 将棋と同じ（`７六歩`、`P-7f`、`7g7f`）。砲は `GC`、`SC`、`CC`、`IC`: `SC-5e`。
learn-writing-palace = 将棋と同じ（`７六兵`、`+P-7f`、`7g7f`）。獅子は `Ln`、入城は玉の手（`K-7i`）。
learn-writing-shanghai = チェス式: 紅から見て左からの筋の文字と手前からの段の数字。`Nf3`、`Ze4`、`e2e4`。西洋のポーンはマスだけ（`e4`）、打つ手は `F*e5`。文字: 西洋 `Q R B N`（ポーンは文字なし）、中国 `K A E C Z`、将棋 `L H S D T F`。
learn-first-head = **今指せる三つの手**
learn-first = { $moves }
learn-which-piece = 「{ $piece }」はこの対局種の複数の駒を指します: { $choices }。どれですか？
learn-hint-no-castling = { $game }に入城（キャスリング）はありません。
learn-hint-castling-not-now = 入城は、動いていない香車の方へ玉を二マス動かす手として書きます（`K-7i`、`5i7i`）。今は入城できません。
learn-hint-castling = 入城は玉の手として書きます: { $moves }。
learn-hint-shogi-squares = { $game }のマスは筋の数字（右から1-{ $files }）と段の文字（上から a-{ $last }）で書きます: { $typed } はここでは { $square } です。例: { $moves }。
learn-hint-palace-pawns = 宮殿将棋の歩は成った状態の「兵」（`+P`）で始まります。「卒」（`P`）は打つことでしか現れません。例: { $moves }。
learn-hint-moves-to = { $square } へ動ける駒は{ $pieces }です: { $moves }。
learn-hint-some-moves = 今指せる手の例: { $moves }。
learn-challenge-became = 対局 #{ $id } はありません。挑戦 #{ $id } は対局 #{ $game } になりました: `move { $game } …` と書いてください
learn-challenge-waiting = #{ $id } はまだ受けられていない挑戦で、対局ではありません
learn-game-made = （挑戦 #{ $challenge } は対局 #{ $id } になりました。指し手は `move { $id } …`。）
learn-board-turns = 画像は手番の側から描かれるので、自分の手番では自分の駒が下に見えます（盤の向きは設定で固定できます）。
learn-bad-board = 「{ $value }」は盤の向きではありません: black、white（上海宮殿チェスでは red、blue）、default から選んでください
learn-settings-board-turn = 盤: 手番の側から描きます（自分の手番では自分の駒が下）。
learn-settings-board-black = 盤: 先手（紅）をいつも下に描きます。
learn-settings-board-white = 盤: 後手（藍）をいつも下に描きます。
