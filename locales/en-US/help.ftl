# Help and rules: the words help is written with around the command table
# (src/service/catalog.rs: usage lines, options and descriptions come from it and commands.ftl),
# and how each piece moves (src/service/views.rs). The English texts of the pieces' moves are the
# engine's own (`engine::variants::describe_piece`, which the command line prints); a test holds
# them equal.

help-head = Commands (a game or challenge id can be left out when you have only one):
help-no-command = no command '{ $topic }': type help for the list
help-foot =
    help COMMAND tells every option of a command: help settings, help league.
    Pictures are drawn for the player to move (your pieces at the bottom on your turn); settings board= keeps one side at the bottom.
help-head-slash = Commands (/help topic:COMMAND for all its options; a game's number may be left out when you play one):
help-foot-slash = Prefix commands (!move 7g7f) take the same options in order. Pictures show the player to move at the bottom; /settings board keeps one side there.
help-required = {" "}(required)
help-choices = ; choices:{" "}
help-separator = ,{" "}

## Placeholders of the usage lines (the command table, src/service/catalog.rs)

meta-game-id = GAME_ID
meta-challenge-id = CHALLENGE_ID
meta-user = @USER
meta-opponent = @USER|open
meta-variant = VARIANT
meta-move = MOVE
meta-square = SQUARE
meta-ply = PLY
meta-piece = PIECE
meta-n = N
meta-days = DAYS
meta-hours = HOURS
meta-hour = 0-23
meta-zone = ZONE
meta-name = NAME
meta-channel = CHANNEL
meta-choice = CHOICE …
meta-moves = "MOVES"
meta-command = COMMAND
meta-league = N
meta-level = 1-5
meta-handicap = NAME
meta-setup = NAME
meta-feature = GAME_ID|none

## The commands that are typed only (the console; Discord has buttons and /board for them)

cmd-pick = pick
    .description = The move picker (the Move button on Discord): the pieces that can move, then where one goes, then Play.
cmd-pick-game = game
    .description = The game's number
cmd-pick-choice = choice
    .description = The choices made so far; each option the picker shows gives the command that takes it
cmd-game = game
    .description = The board of a game at any move.
cmd-game-game = game
    .description = The game's number
cmd-game-ply = ply
    .description = Show the position after this many moves (plies)

## More to say about a command than its options (help COMMAND)

help-note-challenge = open instead of a user: anyone may accept. Challenge Tegami itself (@Tegami) to play the computer, with level=.
help-note-move = Write the move in your notation (settings notation=); moves lists the legal ones, pick lets you point at them.
help-note-board = Drawn for the player to move: your pieces at the bottom on your turn; settings board= keeps one side there.
help-note-declare = Shogi: declare the entering king on your turn (27-point rule: king and 10 other pieces in the zone, not in check, 28 points for black, 27 for white; rook and bishop 5, others 1, in the zone and in hand).
help-note-impasse = Jishogi by agreement, once both kings are in their zones (shogi, judkins, cannon).
help-note-games = Your move first (soonest deadline first, with the time left), then your opponents', then challenges.
help-note-export = kif, csa: shogi; fen: shogi, judkins.
help-note-rules = The goal, the board and its zones, the pieces, captures, special moves and first moves; with a piece, how it moves.
help-note-settings = digest: one daily message instead of a ping per move. A reminder waits at least half the time of the turn; 24 hours unless you choose, 0 for never. The digest comes a day after the last one unless you choose its hour; timezone is an IANA name such as Asia/Tokyo, UTC unless you choose.
help-note-vacation = Up to 14 days a month; vacation alone says how many are left.
help-note-server = Changes: server managers only.
help-note-conditional = On your opponent's turn: "if you play X, I play Y …"; seen by you only.
help-note-follow = follow alone lists what you follow.
help-note-slash-challenge = Choose Tegami itself as the opponent to play the computer, with level.
help-note-slash-move = Write the move in your notation (/settings notation), completed as you type; without a move, /move opens the picker: point at a piece, then at where it goes.
help-note-slash-board = Drawn for the player to move: your pieces at the bottom on your turn; /settings board keeps one side there.
help-note-slash-vacation = Up to 14 days a month; /vacation alone says how many are left.
help-note-slash-follow = /follow alone lists what you follow.

## How one piece moves (`rules VARIANT PIECE`)

rules-piece = { $name } ({ $letter }) in { $variant }: { $moves }{ $extra }
rules-shanghai-shogi-piece = { " " }Promotion zone: ranks 5 to 9 (yours). Captured, it goes to the capturer's hand.
rules-move-king-palace = one step in any direction. Kings may not face each other on an open file. A legal king move into the enemy palace wins at once (entering king). Castling: with an unmoved lance and nothing between, the king goes two squares toward it and the lance to the square the king passed; not out of, across or into check.
rules-move-king = one step in any direction.
rules-move-gold = one step orthogonally or diagonally forward (six squares), like a gold general.
rules-move-silver = one step diagonally or straight forward (five squares).
rules-move-knight-palace = the horse: jumps two squares forward and one to the side (the shogi knight); promotes to the knight on a move ending in the zone.
rules-move-knight = jumps two squares forward and one to the side, over anything; must promote on the last two ranks.
rules-move-lance-palace = any number of empty squares straight forward; promotes to the cannon on a move ending in the zone.
rules-move-lance = any number of empty squares straight forward; must promote on the last rank.
rules-move-bishop = any number of empty squares diagonally.
rules-move-rook = any number of empty squares orthogonally.
rules-move-horse = as a bishop, plus one step orthogonally.
rules-move-dragon = as a rook, plus one step diagonally.
rules-move-pawn = one step forward; must promote on the last rank. Not dropped on a file with another of your unpromoted pawns, nor to give mate directly.
rules-move-side-pawn = one step forward or sideways; must promote on the last rank. Drop rules as the shogi pawn.
rules-move-gold-cannon = along its orthogonal lines, but only after jumping at least one piece (any number, kings too); lands or captures on any square past the first piece jumped.
rules-move-copper-cannon = along its diagonal lines, but only after jumping at least one piece (any number, kings too); lands or captures on any square past the first piece jumped.
rules-move-silver-cannon = only by jumping an occupied orthogonally adjacent square to the square just beyond, moving or capturing there.
rules-move-iron-cannon = only by jumping an occupied diagonally adjacent square to the square just beyond, moving or capturing there.
rules-move-promoted-cannon = as before promotion, plus one step in any direction.
rules-move-footsoldier = one step forward; on its four farthest ranks also one step sideways (only sideways on the last rank); in the enemy palace also diagonally forward from corridor to corridor. Dropped only on your four nearest ranks, never giving mate; at most five on the board.
rules-move-palace-pawn = as a chess pawn: one step forward (two from its start rank), captures one step diagonally forward, en passant; becomes a queen on the last rank.
rules-move-palace-cannon = as a rook without capturing; captures by hopping exactly one piece (never a cannon, never capturing a cannon). In the enemy palace it also slides along the corridors and captures corner to corner over the centre.
rules-move-chess-knight = as the chess knight: two squares one way and one the other, jumping.
rules-move-elephant = as a bishop, plus one step orthogonally, plus a jump two squares diagonally (the alfil).
rules-move-palace-dragon = as a rook, plus one step diagonally; in the enemy palace it also slides along the corridors.
rules-move-queen-palace = inside her own palace only one step diagonally (also to step out); outside, any number of squares in any direction, but a slide into her own palace stops on its first square. May promote to the lion in the zone while her side has none.
rules-move-queen = any number of empty squares in any direction (the Western queen).
rules-move-lion = up to two king steps in one turn: jumps to any square within two, may capture on the first step and go on (capturing again, or back home: stationary feeding), or stare (pass) next to an empty square. Never captures a lion.
rules-move-xiangqi-king = one step orthogonally, never leaving its palace; the two kings may not face each other on an open file.
rules-move-guard = one step diagonally, never leaving its palace.
rules-move-xiangqi-elephant = exactly two squares diagonally, unless the square between is occupied; never beyond its own rank 5.
rules-move-xiangqi-cannon = as a rook without capturing; captures by hopping exactly one piece of either side.
rules-move-xiangqi-pawn = one step forward; from its own rank 5 on also one step sideways; never back.
rules-move-western-rook = any number of empty squares orthogonally (the Western rook).
rules-move-western-bishop = any number of empty squares diagonally (the Western bishop).
rules-move-western-pawn = one step forward, captures one step diagonally forward; no double step; on the last rank it must become a Western queen, rook, bishop or knight.
