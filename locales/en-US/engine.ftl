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

## Handicaps (src/i18n/refusal.rs): in English the word typed in commands.
handicap-lance = lance
handicap-bishop = bishop
handicap-rook = rook
handicap-rook-lance = rook-lance
handicap-two = two
handicap-four = four
handicap-six = six

# Between the items of a list.
list-separator = {", "}

## Why a move is illegal (src/i18n/refusal.rs; the engine's IllegalMove::message, word for word).
illegal-game-over = the game is over
illegal-off-board = that square is not on the board
illegal-no-piece = there is no piece on { $square }
illegal-not-your-piece = the piece on { $square } is your opponent's
illegal-own-piece = your own piece stands on { $square }
illegal-cannot-reach = your { $piece } on { $from } cannot move to { $to }
illegal-cannot-promote = a { $piece } does not promote
illegal-not-in-zone-mandatory = a { $piece } promotes only on a move ending in the promotion zone
illegal-not-in-zone = a { $piece } promotes only on a move into, within or out of the promotion zone
illegal-must-promote-mandatory = a { $piece } must promote on a move ending in the promotion zone ({ $square })
illegal-must-promote = a { $piece } on { $square } could never move again: it must promote there
illegal-not-in-hand = you have no { $piece } in hand
illegal-drop-on-occupied = { $square } is occupied: pieces are dropped on empty squares
illegal-dead-drop = a { $piece } dropped on { $square } could never move: it may not be dropped there
illegal-drop-nearest = a { $piece } may only be dropped on your { $ranks } nearest ranks, not on { $square }
illegal-drop-enemy-palace = a { $piece } may not be dropped in the enemy palace ({ $square })
illegal-drop-outside = a { $piece } may not be dropped on { $square }
illegal-two-pawns = you already have an unpromoted { $piece } on file { $file } (two { $pieces } on a file)
illegal-two-pawns-near = you already have a { $piece } on file { $file } within your { $ranks } nearest ranks
illegal-too-many-pawns = you already have { $max } { $pieces } on the board, the most allowed
illegal-pawn-drop-mate = a { $piece } drop may not give checkmate
illegal-in-check = your king is in check, and this move does not get it out of check
illegal-self-check = this move would leave your king in check
illegal-queen-in-palace = inside her own palace the queen moves only one step diagonally
illegal-queen-wall = the queen cannot slide through her own palace: a slide that enters it stops on its first square
illegal-lion-takes-lion = a lion may not capture a lion
illegal-lion-cannot-stare = a lion may stare (pass) only when a square next to it is empty
illegal-lion-first-step = a lion's double move must capture on its first step
illegal-second-lion = you already have a lion: a queen may not promote while it lives
illegal-cannon-screen = a cannon cannot hop over another cannon
illegal-cannon-target = a cannon cannot capture a cannon
illegal-no-castling-right = you can no longer castle with the lance on { $square } (the king or that lance has moved)
illegal-castling-blocked = castling needs every square between the king and the lance empty
illegal-castling-in-check = you cannot castle out of check
illegal-castling-through-check = the king may not castle across or onto an attacked square ({ $square })
illegal-third-repetition = this move would make the same position for the third time, which the rules forbid
illegal-confined-palace = a { $piece } never leaves its palace ({ $square } is outside)
illegal-confined-river = a { $piece } never crosses the river ({ $square } is beyond it)
illegal-promotion-choice = a { $piece } reaching the last rank must become one of: { $choices }

## Why a declaration of the entering king is refused (src/engine/declaration.rs's Refusal).
declare-game-over = the game is already over
declare-not-this-game = only Shogi has the entering-king declaration (in this game, use impasse)
declare-king-outside = your king is not in the promotion zone (it must stand there to declare)
declare-in-check = you are in check: a king in check cannot declare
declare-too-few-pieces = only { $found } of your pieces besides the king are in the promotion zone ({ $needed } needed)
declare-too-few-points = you have { $found } points ({ $needed } needed: rook and bishop 5, other pieces 1, in the zone and in hand)

## Why a typed move is not one to play (src/engine/notation/input.rs's MoveInputError).
input-empty = no move given
input-unreadable = '{ $input }' is not a move I can read: write it like { $hint }
input-hint-shogi = P-7f, 7g7f, S*5e or G6i-5h
input-hint-western = Nf4, Ne2-f4, e2e4, dxe5, c9=Q or S*e5 (piece letters in upper case)
input-unknown-piece = '{ $name }' is not a piece of this game
input-no-such-square = { $square } is not a square of { $game } ({ $range })
input-range-shogi = files 1-{ $files }, ranks 1-{ $ranks }
input-illegal = { $understood }: { $why }
input-ambiguous = { $understood } could be several moves: { $options }
input-promotion-choice = { $understood }: promote or not? Write { $promote } (promote) or { $stay } (do not)
input-piece-choice = { $understood }: which piece does the pawn become? Write one of { $options }
input-typed = '{ $text }'
input-none-can-reach = none of your { $pieces } can move to { $square }
input-drop-promotes = a dropped piece never promotes on the drop: drop it, and promote on a later move
input-no-piece-anywhere = you have no { $piece } on the board or in hand
input-no-piece-on-board = you have no { $piece } on the board
input-not-a-move = '{ $text }' is not a move in this position
# Japanese moves the reader could not settle: `written` is what was understood (５八金).
input-ambiguous-japanese = { $written }: { $options }?
input-or = {" or "}
input-none-fits = { $written }: no such move here; the moves there are { $candidates }
input-no-previous = 同 means the square of the previous move, and there is none
input-wrong-side = '{ $written }': it is the other side's turn
