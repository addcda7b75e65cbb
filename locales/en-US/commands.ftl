# commands
# The slash commands as Discord registers them. Ids: `cmd-COMMAND` (the command's name, with its
# `.description`), `cmd-COMMAND-OPTION` (an option's), `choice-OPTION-VALUE` (a choice's label).
# The English here is what the code registers as the base names and descriptions (a test holds
# them to it); the other languages' files give the localisations Discord shows their clients.

cmd-challenge = challenge
    .description = Challenge someone to a game.
cmd-challenge-opponent = opponent
    .description = Who to play
cmd-challenge-game = game
    .description = Which game (default shogi)
cmd-challenge-color = color
    .description = Your side: black (moves first), white or random; red/blue in Shanghai
cmd-challenge-days = days
    .description = Days per move (1, 2, 3, 5, 7, 10 or 14), or the starting bank of another clock
cmd-challenge-rated = rated
    .description = Rated (Glicko-2) or casual
cmd-challenge-handicap = handicap
    .description = A handicap: lance, bishop, rook, rook-lance, two, four, six
cmd-challenge-setup = setup
    .description = A named setup (Shanghai: original or smith)
cmd-challenge-level = level
    .description = When you challenge Tegami itself: its strength, 1 (beginner) to 5
cmd-challenge-clock = clock
    .description = The clock: per-move (the default), increment or byoyomi
cmd-challenge-increment = increment
    .description = Increment clock: days added to your bank after each move (default 1)
cmd-challenge-cap = cap
    .description = Increment clock: the most days a bank may hold (default 7, or the bank)
cmd-challenge-period = period
    .description = Byoyomi: days for each move once the bank is spent (default 1)

cmd-accept = accept
    .description = Accept a challenge.
cmd-accept-challenge = challenge
    .description = The challenge's number (needed only when you have several)

cmd-decline = decline
    .description = Decline a challenge.
cmd-decline-challenge = challenge
    .description = The challenge's number (needed only when you have several)

cmd-cancel = cancel
    .description = Withdraw your challenge.
cmd-cancel-challenge = challenge
    .description = The challenge's number (needed only when you have several)

cmd-move = move
    .description = Play a move (P-7f, 7g7f, Nf3 ...).
cmd-move-move = move
    .description = Your move, e.g. P-7f or 7g7f (Shanghai: e4, Nf3)
cmd-move-game = game
    .description = The game's number (needed only when you play several)

cmd-moves = moves
    .description = The legal moves in your game (of one piece, with a square).
cmd-moves-square = square
    .description = Only the moves of the piece on this square (e.g. 7g)
cmd-moves-game = game
    .description = The game's number

cmd-board = board
    .description = The board of a game (now, or after a given move).
cmd-board-game = game
    .description = The game's number
cmd-board-ply = ply
    .description = Show the position after this many moves (plies)
cmd-board-style = style
    .description = Pieces as kanji or international letters

cmd-resign = resign
    .description = Resign a game (asks you to confirm).
cmd-resign-game = game
    .description = The game's number

cmd-declare = declare
    .description = Shogi: declare the entering king on your turn (27-point rule)
cmd-declare-game = game
    .description = The game's number

cmd-moretime = moretime
    .description = Give your opponent one more day for their move.
cmd-moretime-game = game
    .description = The game's number

cmd-draw = draw
    .description = Offer, accept or decline a draw.
cmd-draw-action = action
    .description = offer, accept or decline
cmd-draw-game = game
    .description = The game's number

cmd-takeback = takeback
    .description = Ask to take back your last move, or answer.
cmd-takeback-action = action
    .description = offer, accept or decline
cmd-takeback-game = game
    .description = The game's number

cmd-impasse = impasse
    .description = Propose impasse (jishogi) by points, or answer.
cmd-impasse-action = action
    .description = offer, accept or decline
cmd-impasse-game = game
    .description = The game's number

cmd-games = games
    .description = Games in progress and open challenges.
cmd-games-user = user
    .description = Someone else's games

cmd-history = history
    .description = Finished games.
cmd-history-user = user
    .description = Someone else's history

cmd-stats = stats
    .description = Ratings and results.
cmd-stats-user = user
    .description = Someone else's stats

cmd-record = record
    .description = A game's record, move by move.
cmd-record-game = game
    .description = The game's number

cmd-analysis = analysis
    .description = A finished game's evaluation chart.
cmd-analysis-game = game
    .description = The finished game's number

cmd-replay = replay
    .description = A game as an animated picture.
cmd-replay-game = game
    .description = The game's number

cmd-export = export
    .description = A game for other software (SFEN, KIF, CSA, FEN).
cmd-export-game = game
    .description = The game's number
cmd-export-format = format
    .description = sfen (default), kif, csa or fen

cmd-rules = rules
    .description = How to play a game, or how one piece moves.
cmd-rules-game = game
    .description = Which game
cmd-rules-piece = piece
    .description = A piece, by letter or name (S, +R, Ln, lion)

cmd-leaderboard = leaderboard
    .description = The best rated players of a game in this server.
cmd-leaderboard-game = game
    .description = Which game

cmd-settings = settings
    .description = Your settings: pieces, notifications, reminders, language, notation, board side.
cmd-settings-style = style
    .description = Pieces as kanji or international letters
cmd-settings-notify = notify
    .description = How you hear of your turn: mention, dm or digest
cmd-settings-remind = remind
    .description = Hours before a deadline to remind you (0: never)
cmd-settings-language = language
    .description = The bot's language for you: en or ja
cmd-settings-notation = notation
    .description = How moves are written for you: western, japanese or usi
cmd-settings-digest_hour = digest_hour
    .description = The hour of your daily digest, 0 to 23, in your time zone
cmd-settings-timezone = timezone
    .description = Your time zone, e.g. Asia/Tokyo (UTC by default)

cmd-vacation = vacation
    .description = Pause your deadlines (14 days a month), end a vacation, or see it.
cmd-vacation-days = days
    .description = Days away
cmd-vacation-end = end
    .description = End your vacation now

cmd-server = server
    .description = This server's settings (only managers change them).
cmd-server-days = days
    .description = Default days per move
cmd-server-rated = rated
    .description = Games rated by default
cmd-server-channel = channel
    .description = The channel where challenges' games are played
cmd-server-language = language
    .description = The language of the server's public posts: en or ja
cmd-server-leagues = leagues
    .description = Whether members may create leagues (off: managers only)
cmd-server-feature = feature
    .description = A game shown first in /games here (0: none)

cmd-help = help
    .description = The commands, or help on one.
cmd-help-topic = topic
    .description = A command or topic

choice-game-shogi = shogi
choice-game-judkins = judkins
choice-game-cannon = cannon
choice-game-palace = palace
choice-game-shanghai = shanghai
choice-color-black = black
choice-color-white = white
choice-color-random = random
choice-color-red = red
choice-color-blue = blue
choice-style-kanji = kanji
choice-style-international = international
choice-action-offer = offer
choice-action-accept = accept
choice-action-decline = decline
choice-format-sfen = sfen
choice-format-kif = kif
choice-format-csa = csa
choice-format-fen = fen
choice-notify-mention = mention
choice-notify-dm = dm
choice-notify-digest = digest
choice-notify-thread = thread
choice-notify-ping = ping
choice-language-en = en
choice-language-ja = ja
choice-notation-western = western
choice-notation-japanese = japanese
choice-notation-usi = usi
choice-board-turn = turn
choice-board-black = black
choice-board-white = white

cmd-league = league
    .description = Server leagues: round robins and Swiss tournaments.
cmd-league-create = create
    .description = Create a league (you run it with the server's managers).
cmd-league-create-name = name
    .description = The league's name
cmd-league-create-game = game
    .description = Which game
cmd-league-create-format = format
    .description = round-robin, double-round-robin or swiss
cmd-league-create-days = days
    .description = Days per move (1, 2, 3, 5, 7, 10 or 14), or the starting bank of another clock
cmd-league-create-rounds = rounds
    .description = Swiss: how many rounds
cmd-league-create-rated = rated
    .description = Rated (Glicko-2) or casual
cmd-league-create-start = start
    .description = Round robins: every game at once (all) or round by round (rounds)
cmd-league-create-round_days = round_days
    .description = Days a round may last before its games are adjudicated draws
cmd-league-create-max_players = max_players
    .description = The most players who may join
cmd-league-create-rating_min = rating_min
    .description = Only players rated at least this
cmd-league-create-rating_max = rating_max
    .description = Only players rated at most this
cmd-league-create-clock = clock
    .description = The clock: per-move (the default), increment or byoyomi
cmd-league-create-increment = increment
    .description = Increment clock: days added to your bank after each move (default 1)
cmd-league-create-cap = cap
    .description = Increment clock: the most days a bank may hold (default 7, or the bank)
cmd-league-create-period = period
    .description = Byoyomi: days for each move once the bank is spent (default 1)
cmd-league-join = join
    .description = Join a league that has not started.
cmd-league-join-league = league
    .description = The league's number
cmd-league-leave = leave
    .description = Leave a league (once it started: withdraw, your unplayed games forfeited).
cmd-league-leave-league = league
    .description = The league's number
cmd-league-start = start
    .description = Start a league: its first round's games are made (organisers).
cmd-league-start-league = league
    .description = The league's number
cmd-league-cancel = cancel
    .description = Cancel a league; its games in progress go on (organisers).
cmd-league-cancel-league = league
    .description = The league's number
cmd-league-list = list
    .description = The leagues of this server.
cmd-league-show = show
    .description = A league's players, rounds, games and standings.
cmd-league-show-league = league
    .description = The league's number
cmd-league-pairings = pairings
    .description = A round's pairings and results.
cmd-league-pairings-league = league
    .description = The league's number
cmd-league-pairings-round = round
    .description = The round (default: the current one)
cmd-league-kick = kick
    .description = Remove a player from a league (organisers).
cmd-league-kick-league = league
    .description = The league's number
cmd-league-kick-user = user
    .description = Who to remove

choice-format-round-robin = round-robin
choice-format-double-round-robin = double-round-robin
choice-format-swiss = swiss
choice-start-rounds = rounds
choice-start-all = all
choice-clock-per-move = per-move
choice-clock-increment = increment
choice-clock-byoyomi = byoyomi

cmd-conditional = conditional
    .description = Conditional moves: "if you play X, I play Y", shown to you only.
cmd-conditional-add = add
    .description = Add a line: your opponent's expected move, your answer, and so on.
cmd-conditional-add-line = line
    .description = The moves, e.g. 3c3d 2g2f 8c8d 2f2e (any notation you write)
cmd-conditional-add-game = game
    .description = The game's number (needed only when you play several)
cmd-conditional-list = list
    .description = Your conditional lines in a game.
cmd-conditional-list-game = game
    .description = The game's number
cmd-conditional-clear = clear
    .description = Clear your conditional lines in a game.
cmd-conditional-clear-game = game
    .description = The game's number

cmd-follow = follow
    .description = Follow a game of this server (alone: the games you follow).
cmd-follow-game = game
    .description = The game's number
cmd-follow-notify = notify
    .description = How you are told: thread (default), digest or ping
cmd-unfollow = unfollow
    .description = Stop following a game.
cmd-unfollow-game = game
    .description = The game's number
cmd-settings-board = board
    .description = The side at the bottom of pictures: black, white, or turn (the player to move)
