# Challenges, moves, resignation, declarations and offers (src/service/play.rs).

## Challenges

play-handicap-and-setup = a game has either a handicap or a setup, not both
play-no-handicaps = { $game } has no handicaps
play-unknown-handicap = unknown handicap '{ $handicap }' for { $game }: choose one of { $choices }
play-no-setups = { $game } has no named setups
play-unknown-setup = unknown setup '{ $setup }' for { $game }: choose one of { $choices }
play-unknown-game = unknown game '{ $game }': choose one of { $choices }
play-level-computer = `level` is for games against { $name }: challenge it to use it
play-level-no-computer = `level` is for games against the computer
play-challenge-yourself = you cannot challenge yourself: challenge a friend, or make an open challenge
play-handicap-casual = handicap games are casual: drop `rated` or the handicap
play-notice-challenge = { $name } challenges you to { $game } (challenge #{ $challenge }): `accept { $challenge }` or `decline { $challenge }`
play-anyone = anyone
play-challenge-side = {" "}playing { $side }
play-challenge-handicap = , handicap { $handicap } (White moves first)
play-challenge-setup = , setup { $setup }
play-rated = rated
play-casual = casual
play-challenge = Challenge #{ $id }: { $name } challenges { $whom } to { $game }{ $side }{ $extra }, { $clock }, { $kind }. It stays open for { $open } days: `accept { $id }` to play.
play-button-accept = Accept
play-button-decline = Decline
play-too-many-challenges = you have { $count } open challenges, the most one player may have: withdraw one with `cancel { $first }` (yours: { $ids }), or wait for an answer
play-too-many-to-one = you already have { $count } open challenges to { $name } ({ $ids }): wait for an answer, or withdraw one with `cancel { $first }`
play-daily-cap = you have challenged { $name } { $count } times in the last 24 hours, the most allowed: you may challenge them again from { $time }
play-no-picture = {"\u000A"}(The board picture could not be drawn; the change stands.)
play-no-challenge = there is no challenge #{ $id }
play-challenge-expired = it expired
play-challenge-accepted = it was accepted
play-challenge-declined = it was declined
play-challenge-cancelled = it was cancelled
play-challenge-closed = challenge #{ $id } is no longer open ({ $state })
play-no-open-challenge = you have no open challenge
play-nobody-challenged = nobody has challenged you (open challenges need their number: `accept 12`)
play-several-challenges = you have several open challenges ({ $ids }): say which, e.g. `accept { $first }`
play-challenge-own = challenge #{ $id } is your own: `cancel { $id }` to withdraw it
play-challenge-not-yours = challenge #{ $id } is addressed to { $name }, not to you
play-notice-accepted = { $name } accepted your challenge: game #{ $game } begins
play-notice-your-move = your move in game #{ $game }
play-challenge-taken = challenge #{ $id } was just accepted by someone else
play-game-begins = Game #{ $id } begins: { $first } ({ $first_side }) vs { $second } ({ $second_side }), { $clock }. { $mover } to move.
play-challenge-not-addressed = challenge #{ $id } is not addressed to you: just leave it
play-notice-declined = { $name } declined your challenge #{ $id }
play-declined = { $name } declined challenge #{ $id }.
play-not-yours-to-cancel = challenge #{ $id } is not yours to cancel
play-cancelled = Challenge #{ $id } cancelled.

## Moves

play-game-over = game #{ $id } is over
play-not-your-turn = it is not your turn in game #{ $id }: { $name } is to move
play-button-stale = the position changed since that button was shown: look at the board again
# A refusal already put into the reader's words (the engine's, src/i18n/refusal.rs).
play-said = { $text }
# A move's number where the language counts plies (Japanese); English counts in pairs.
play-ply = move { $ply }
play-plays = Game #{ $id }: { $name } plays { $number } { $move }.
play-check = {" "}Check!
play-to-move = {" "}{ $name } ({ $side }) to move.
play-to-move-by = {" "}{ $name } ({ $side }) to move, by { $time }.
play-notice-over = game #{ $id } is over: { $outcome }
play-notice-moved = your move in game #{ $id } ({ $name } played { $move })
play-outcome = { $result }.
play-player-side = { $name } ({ $side })
play-notice-time-ran-out = game #{ $id } is over: { $name }'s time ran out at { $time }. { $outcome }
play-time-ran-out = game #{ $id }: your time ran out at { $time }; the game is lost on time
play-their-time-ran-out = game #{ $id }: { $name }'s time ran out at { $time }; the game is lost on time. { $outcome }

## Declaration and resignation

play-declare-not-your-turn = it is not your turn in game #{ $id }: you may declare only on your turn
play-declare-refused = game #{ $id }: declaration refused: { $why }
play-notice-declared = { $name } declared the entering king in game #{ $id }: you lose
play-declares = Game #{ $id }: { $name } declares the entering king ({ $pieces } pieces in the zone, { $points } points). { $outcome }
play-notice-resigned = { $name } resigned game #{ $id }: you win
play-resigns = Game #{ $id }: { $name } resigns. { $outcome }

## Offers: draws, takebacks, impasse

play-what-draw = a draw
play-what-takeback = a takeback
play-what-impasse = impasse (jishogi)
play-verb-draw = offers a draw
play-verb-takeback = asks to take back their last move
play-verb-impasse = proposes impasse (jishogi)
play-already-offered = you already offered { $what } in game #{ $id }; waiting for { $name }
play-notice-offer = { $name } { $verb } in game #{ $id }
play-offered = Game #{ $id }: { $name } { $verb }{ $detail }. { $opponent }: `{ $word } { $id } accept` or `{ $word } { $id } decline`.
play-detail-takeback = {" "}({ $count ->
        [one] { $count } move
       *[other] { $count } moves
    })
play-detail-impasse = {" "}(points: { $black } { $black_points }, { $white } { $white_points }; { $needed } needed)
play-no-offer-to-decline = there is no offer of { $what } from your opponent in game #{ $id } to decline
play-notice-offer-declined = { $name } declined { $what } in game #{ $id }
play-offer-declined = Game #{ $id }: { $name } declines { $what }.
play-no-offer-to-accept = there is no offer of { $what } from your opponent in game #{ $id } (a move since cancels an offer)
play-no-takeback = you have no move to take back yet
play-no-impasse-rule = { $game } has no impasse rule
play-impasse-side-to-move = impasse may be proposed only by the side to move
play-impasse-kings = impasse needs both kings in their promotion zones
play-no-impasse-here = this game has no impasse rule
play-notice-offer-accepted = { $name } accepted: game #{ $id } is over. { $outcome }
play-accepts = Game #{ $id }: { $name } accepts. { $outcome }
play-notice-takeback-accepted = { $name } accepted your takeback in game #{ $id }
play-takeback-accepted = Game #{ $id }: { $name } accepts the takeback; { $count ->
        [one] { $count } move is
       *[other] { $count } moves are
    } taken back. { $mover } to move.

## Buttons under a board

play-button-moves = Legal moves
play-button-draw = Offer draw
play-button-resign = Resign

## Conditional moves
play-conditional-mark = {" "}(a conditional move)
play-answered = {" "}{ $name } answers at once with a conditional move: { $number } { $move }.
conditional-your-turn = It is your move in game #{ $id }: play it. Conditional lines wait for your opponent's move.
conditional-bad-move = Move { $n } of the line ({ $text }): { $why }
conditional-after-end = Move { $n } of the line ({ $text }) comes after the game is over: the line ends with the move before it.
conditional-conflict = Your line { $line } in game #{ $id } already answers that move differently: clear your lines first (`conditional clear { $id }`).
conditional-too-many = You keep at most { $max } conditional lines in a game.
conditional-too-long = A conditional line has at most { $max } moves.
conditional-saved = Conditional line saved in game #{ $id }: { $line }. { $count ->
    [one] 1 line waits
   *[other] { $count } lines wait
} for your opponent's move (seen by you only).
conditional-none = You have no conditional lines in game #{ $id }.
conditional-list-head = Your conditional lines in game #{ $id }:
conditional-list-line = { $n }. { $line }
conditional-cleared = { $count ->
    [one] 1 conditional line
   *[other] { $count } conditional lines
} of game #{ $id } cleared.
conditional-stopped = Your conditional line in game #{ $id } stopped before { $move }: { $why } It is your move.
conditional-why-illegal = that move is not legal here.
conditional-why-declare = you can declare the entering king instead.
conditional-why-end = it would end the game ({ $outcome }).
