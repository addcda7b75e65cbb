# エンジンの語彙: 将棋の種類、先後、駒、結果（src/i18n/words.rs）、指せない理由。

variant-shogi = 将棋
variant-judkins = ジャドキンス将棋
variant-cannon = 大砲将棋
variant-palace = 宮殿将棋
variant-shanghai = 上海宮殿チェス

side-black = 先手
side-white = 後手
side-red = 紅
side-blue = 藍

reason-checkmate = 詰み
reason-entering-king = 入玉
reason-stalemate = 手詰まり
reason-repetition = 千日手
reason-perpetual-check = 連続王手の千日手
reason-impasse = 持将棋
reason-declaration = 入玉宣言
reason-resignation = 投了
reason-timeout = 時間切れ
reason-agreement = 合意

result-win = { $winner }の勝ち（{ $reason }）
result-draw = 引き分け（{ $reason }）

# 駒の名前。将棋の駒は正式名、大砲将棋・宮殿将棋・上海宮殿チェスの駒は盤に描く漢字から。
piece-pawn = 歩兵
piece-lance = 香車
piece-knight = 桂馬
piece-silver = 銀将
piece-gold = 金将
piece-bishop = 角行
piece-rook = 飛車
piece-king = 玉将
piece-tokin = と金
piece-promoted-lance = 成香
piece-promoted-knight = 成桂
piece-promoted-silver = 成銀
piece-horse = 龍馬
piece-dragon = 龍王
piece-side-pawn = 歩兵
piece-gold-cannon = 金砲
piece-silver-cannon = 銀砲
piece-copper-cannon = 銅砲
piece-iron-cannon = 鉄砲
piece-promoted-gold-cannon = 成金砲
piece-promoted-silver-cannon = 成銀砲
piece-promoted-copper-cannon = 成銅砲
piece-promoted-iron-cannon = 成鉄砲
piece-footsoldier = 卒
piece-palace-pawn = 兵
piece-palace-cannon = 砲
piece-chess-knight = 騎
piece-elephant = 象
piece-palace-dragon = 龍
piece-queen = 后
piece-lion = 獅子
piece-xiangqi-king = 帥
piece-guard = 仕
piece-xiangqi-elephant = 相
piece-xiangqi-cannon = 炮
piece-xiangqi-pawn = 兵
piece-western-rook = 車
piece-western-bishop = 僧正
piece-western-pawn = ポーン

## 駒落ち（src/i18n/refusal.rs）。
handicap-lance = 香落ち
handicap-bishop = 角落ち
handicap-rook = 飛車落ち
handicap-rook-lance = 飛香落ち
handicap-two = 二枚落ち
handicap-four = 四枚落ち
handicap-six = 六枚落ち

# 一覧の区切り。
list-separator = 、

## 指せない理由（src/i18n/refusal.rs）。
illegal-game-over = 対局は終了しています
illegal-off-board = そのマスは盤上にありません
illegal-no-piece = { $square }に駒がありません
illegal-not-your-piece = { $square }の駒は相手の駒です
illegal-own-piece = { $square }には自分の駒があります
illegal-cannot-reach = { $from }の{ $piece }は{ $to }へ動けません
illegal-cannot-promote = { $piece }は成れません
illegal-not-in-zone-mandatory = { $piece }が成れるのは敵陣で止まる手だけです
illegal-not-in-zone = { $piece }が成れるのは敵陣に入る手、敵陣の中で動く手、敵陣から出る手だけです
illegal-must-promote-mandatory = 敵陣で止まる{ $piece }は成らなければなりません（{ $square }）
illegal-must-promote = { $square }の{ $piece }は二度と動けなくなります（行き所のない駒）。成らなければなりません
illegal-not-in-hand = 持ち駒に{ $piece }がありません
illegal-drop-on-occupied = { $square }には駒があります。駒は空いているマスにしか打てません
illegal-dead-drop = { $square }に打った{ $piece }は動けなくなるため、そこには打てません（行き所のない駒）
illegal-drop-nearest = { $piece }は自陣の手前{ $ranks }段にしか打てません（{ $square }には打てません）
illegal-drop-enemy-palace = { $piece }は敵の宮殿には打てません（{ $square }）
illegal-drop-outside = { $piece }は{ $square }には打てません
illegal-two-pawns = 二歩です。{ $file }筋にはすでに成っていない{ $piece }があります（同じ筋に{ $pieces }は二枚置けません）
illegal-two-pawns-near = { $file }筋の自陣手前{ $ranks }段にはすでに{ $piece }があります
illegal-too-many-pawns = 盤上の{ $pieces }はすでに上限の{ $max }枚です
illegal-pawn-drop-mate = 打ち歩詰めです。{ $piece }を打って詰ませることはできません
illegal-in-check = 王手放置です。王手がかかっていて、この手では王手を防げません
illegal-self-check = 王手放置になります。この手を指すと自玉に王手がかかったままです
illegal-queen-in-palace = 自分の宮殿の中では、后は斜めに一マスしか動けません
illegal-queen-wall = 后は自分の宮殿を通り抜けられません。宮殿に入る走りは最初のマスで止まります
illegal-lion-takes-lion = 獅子で獅子は取れません
illegal-lion-cannot-stare = 獅子のじっと（パス）は隣に空いたマスがあるときだけできます
illegal-lion-first-step = 獅子の二回動きは一歩目で駒を取らなければなりません
illegal-second-lion = すでに獅子がいます。獅子がいる間、后は成れません
illegal-cannon-screen = 砲は別の砲を飛び越えられません
illegal-cannon-target = 砲で砲は取れません
illegal-no-castling-right = { $square }の香車とはもうキャスリングできません（玉かその香車が動いています）
illegal-castling-blocked = キャスリングするには玉と香車の間のマスがすべて空いていなければなりません
illegal-castling-in-check = 王手がかかっているときはキャスリングできません
illegal-castling-through-check = 玉は利きのあるマスを通って、またはそこへキャスリングできません（{ $square }）
illegal-third-repetition = この手で同一局面が三回目になります。ルールで禁じられています
illegal-confined-palace = { $piece }は宮殿から出られません（{ $square }は宮殿の外です）
illegal-confined-river = { $piece }は川を越えられません（{ $square }は川の向こうです）
illegal-promotion-choice = 最終段に着いた{ $piece }は次のどれかにならなければなりません: { $choices }

## 入玉宣言ができない理由。
declare-game-over = 対局はすでに終了しています
declare-not-this-game = 入玉宣言があるのは将棋だけです（この対局では持将棋の提案を使ってください）
declare-king-outside = 玉が敵陣にいません（宣言には玉が敵陣にいる必要があります）
declare-in-check = 王手がかかっています。王手の状態では宣言できません
declare-too-few-pieces = 敵陣にある玉以外の駒は{ $found }枚です（{ $needed }枚必要です）
declare-too-few-points = 点数は{ $found }点です（{ $needed }点必要です。飛車・角は5点、他の駒は1点、敵陣の駒と持ち駒を数えます）

## 入力された指し手が指せない理由。
input-empty = 指し手がありません
input-unreadable = 「{ $input }」は読み取れない指し手です。{ $hint }のように書いてください
input-hint-shogi = ７六歩、76歩、55角打、同歩、7g7f
input-hint-western = Nf4、Ne2-f4、e2e4、dxe5、c9=Q、S*e5（駒の文字は大文字）
input-unknown-piece = 「{ $name }」はこの将棋の駒ではありません
input-no-such-square = { $square }は{ $game }のマスではありません（{ $range }）
input-range-shogi = 筋は1～{ $files }、段は一～{ $ranks }
input-illegal = { $understood }: { $why }
input-ambiguous = { $understood }に当てはまる手が複数あります: { $options }
input-promotion-choice = { $understood }: 成りますか？ 成るなら{ $promote }、成らないなら{ $stay }と書いてください
input-piece-choice = { $understood }: ポーンを何に成らせますか？ { $options }のどれかを書いてください
input-typed = 「{ $text }」
input-none-can-reach = どの{ $pieces }も{ $square }へは動けません
input-drop-promotes = 打った駒はその手では成れません。打ってから、後の手で成ってください
input-no-piece-anywhere = 盤上にも持ち駒にも{ $piece }がありません
input-no-piece-on-board = 盤上に{ $piece }がありません
input-not-a-move = 「{ $text }」はこの局面で指せる手ではありません
# 読み取れたが決まらない日本式の指し手: written は読み取れた部分（５八金）。
input-ambiguous-japanese = { $written }: { $options }か、書き分けてください
input-or = か
input-none-fits = { $written }という手はありません。そこへ行ける手は{ $candidates }です
input-no-previous = 「同」は直前の手のマスのことですが、まだ一手も指されていません
input-wrong-side = 「{ $written }」: ▲△が手番と合いません
