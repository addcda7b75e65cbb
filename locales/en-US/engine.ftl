# The engine's vocabulary: games, sides, pieces, results (src/i18n/words.rs), and why a move is
# refused.

variant-shogi = Shogi
variant-judkins = Judkins Shogi
variant-cannon = Cannon Shogi
variant-palace = Palace Shogi
variant-shanghai = Shanghai Palace Chess

side-black = Black
side-white = White
side-red = Red
side-blue = Blue

reason-checkmate = checkmate
reason-entering-king = entering king
reason-stalemate = stalemate
reason-repetition = repetition
reason-perpetual-check = perpetual check
reason-impasse = impasse
reason-declaration = declaration
reason-resignation = resignation
reason-timeout = timeout
reason-agreement = agreement

result-win = { $winner } wins by { $reason }
result-draw = draw by { $reason }

# English piece names are the engine's own (PieceKind::name); these keep the ids in both files.
piece-pawn = pawn
piece-lance = lance
piece-knight = knight
piece-silver = silver
piece-gold = gold
piece-bishop = bishop
piece-rook = rook
piece-king = king
piece-tokin = tokin
piece-promoted-lance = promoted lance
piece-promoted-knight = promoted knight
piece-promoted-silver = promoted silver
piece-horse = horse
piece-dragon = dragon
piece-side-pawn = pawn
piece-gold-cannon = gold cannon
piece-silver-cannon = silver cannon
piece-copper-cannon = copper cannon
piece-iron-cannon = iron cannon
piece-promoted-gold-cannon = promoted gold cannon
piece-promoted-silver-cannon = promoted silver cannon
piece-promoted-copper-cannon = promoted copper cannon
piece-promoted-iron-cannon = promoted iron cannon
piece-footsoldier = footsoldier
piece-palace-pawn = pawn
piece-palace-cannon = cannon
piece-chess-knight = knight
piece-elephant = elephant
piece-palace-dragon = dragon
piece-queen = queen
piece-lion = lion
piece-xiangqi-king = king
piece-guard = guard
piece-xiangqi-elephant = elephant
piece-xiangqi-cannon = cannon
piece-xiangqi-pawn = pawn
piece-western-rook = rook
piece-western-bishop = bishop
piece-western-pawn = pawn
