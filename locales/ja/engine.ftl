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
