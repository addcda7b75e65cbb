# Help and rules (src/service/views.rs): the command list, a game's description, how each piece
# moves. The English texts of the rules are the engine's own (`engine::variants::describe`,
# `describe_piece`, which the command line prints); a test holds them equal.

help-head = Commands (a game or challenge id can be left out when you have only one):
help-no-command = no command '{ $topic }': type help for the list
help-challenge = challenge @USER|open VARIANT [black|white|random] [days=N] [clock=per-move|increment|byoyomi] [increment=N] [cap=N] [period=N] [handicap=NAME] [setup=NAME] [rated|casual] — invite someone to a game (variants: shogi, judkins, cannon, palace, shanghai)
help-accept = accept [CHALLENGE_ID] — accept a challenge
help-decline = decline [CHALLENGE_ID] — decline a challenge
help-cancel = cancel [CHALLENGE_ID] — withdraw your challenge
help-move = move [GAME_ID] MOVE — play a move: 7g7f, P-7f, S*5e, Nf4 …
help-board = board [GAME_ID] — show the board (drawn for the player to move: your pieces at the bottom on your turn; settings board= keeps one side there)
help-moves = moves [GAME_ID] [SQUARE] — list the legal moves (of the piece on SQUARE)
help-pick = pick [GAME_ID] [CHOICE …] — the move picker (the Move button on Discord): the pieces that can move, then where one goes (marked on the board), then Play; each option shows the command that takes it
help-resign = resign [GAME_ID] — resign the game
help-declare = declare [GAME_ID] — Shogi: declare the entering king on your turn (27-point rule: king and 10 other pieces in the zone, not in check, 28 points for black, 27 for white; rook and bishop 5, others 1, in the zone and in hand)
help-draw = draw [GAME_ID] [offer|accept|decline] — offer or answer a draw
help-takeback = takeback [GAME_ID] [request|accept|decline] — ask to take back your last move, or answer
help-impasse = impasse [GAME_ID] [propose|accept|decline] — jishogi by agreement, once both kings are in their zones (shogi, judkins, cannon)
help-games = games [@USER] — your daily list: your move first (soonest deadline first, with the time left), then your opponents', then challenges; with a user, their games
help-history = history [@USER] — finished games
help-game = game GAME_ID [PLY] — the board of a game at any move
help-record = record GAME_ID — the move list
help-export = export GAME_ID [sfen|kif|csa|fen] — the game for other software (kif, csa: shogi; fen: shogi, judkins)
help-rules = rules VARIANT [PIECE] — how to play a game (goal, board and zones, pieces, captures, special moves, first moves), or how one piece moves
help-settings = settings [style=kanji|international] [notify=mention|dm|digest] [remind=HOURS] [language=en|ja] [notation=western|japanese|usi] [digest_hour=0-23] [timezone=ZONE] [board=turn|black|white] — your preferences (language: the bot's language for you; notation: how moves are written for you; board: the side at the bottom of pictures; digest: one daily message instead of a ping per move; remind: hours before a deadline to be reminded, 24 unless you choose, 0 for never; a reminder waits at least half the time of the turn; digest_hour: the hour of your daily digest, a day after the last one unless you choose; timezone: an IANA name such as Asia/Tokyo for that hour and the times you are shown, UTC unless you choose)
help-moretime = moretime [GAME_ID] — give your opponent one more day on their move
help-vacation = vacation [DAYS|end] — pause your deadlines (up to 14 days a month), or come back early
help-stats = stats [@USER] — ratings and results on this server
help-leaderboard = leaderboard VARIANT — the best rated players of a game on this server
help-server = server [days=N] [rated|casual] [channel=CHANNEL] [language=en|ja] — server defaults (managers only)
help-league = league create name=NAME game=VARIANT format=round-robin|double-round-robin|swiss [rounds=N] [days=N] [clock=…] [start=all|rounds] · league join|leave|start|cancel|show|pairings|kick league=N · league list — server leagues (round robin and Swiss)
help-conditional = conditional add [GAME] "MOVES" (on your opponent's turn: "if you play X, I play Y …"), conditional list [GAME], conditional clear [GAME] — conditional moves, seen by you only
help-follow = follow GAME_ID [thread|digest|ping] — follow a game of this server: in its thread (the default), in your daily digest, or a mention at each move; follow alone lists what you follow
help-unfollow = unfollow GAME_ID — stop following a game
help-help = help [COMMAND] — this list

## A game's description (`rules VARIANT`)

rules-head = { $name } ({ $files }x{ $ranks }), variant id '{ $id }'. { $first } moves first.
rules-pieces = Pieces (letter in position strings / in human notation):
rules-zone = Promotion zone: the { $depth } farthest ranks.
rules-moves =
    Moves: move codes like 7g7f, 7c7b+ (promoting), P*5e (drop); or Hodges notation like
    P-7f, Px7f, S-4b+ / S-4b= (promote or not), G6i-5h (start square when two pieces could
    go), S*5e (drop). P-76 (numeric rank) is read too.
rules-handicaps = Handicaps (White's pieces removed; White moves first):
rules-impasse = Impasse by agreement once both kings are in their zones: { $points } points needed.
rules-handicap-lance = White's left lance
rules-handicap-bishop = White's bishop
rules-handicap-rook = White's rook
rules-handicap-rook-lance = White's rook and left lance
rules-handicap-two = White's rook and bishop
rules-handicap-four = White's rook, bishop and both lances
rules-handicap-six = White's rook, bishop, both lances and both knights

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
help-analysis = analysis GAME_ID — the computer's evaluation of a finished game, as a chart
help-replay = replay GAME_ID — the game as an animated picture
