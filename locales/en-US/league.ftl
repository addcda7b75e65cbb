# Server leagues (src/service/league.rs): create, join, leave, start, cancel, list, show,
# pairings, kick; the league's posts and notices.

league-no-server = Leagues are played in a server: send this in one.
league-unknown = There is no league #{ $id } in this server (`league list` shows them).
league-bad-name = A league's name is 1 to 60 characters.
league-off-here = Leagues are made by the server's managers here (/server leagues).
league-bad-format = '{ $format }' is not a format: round-robin, double-round-robin or swiss.
league-swiss-rounds = A Swiss league needs its number of rounds (rounds=N).
league-bad-rounds = A Swiss league has 1 to { $max } rounds.
league-bad-start = start='{ $start }': all (every game at once) or rounds (round by round).
league-bad-max-players = A league of this format takes 2 to { $max } players.
league-bad-rating-range = The rating floor ({ $min }) is above the cap ({ $max }).
league-format-round-robin = round robin
league-format-double-round-robin = double round robin
league-format-swiss = Swiss
league-format-rounds = { $format }, { $rounds ->
    [one] 1 round
   *[other] { $rounds } rounds
}
league-rated = rated
league-casual = casual
league-created = League #{ $id } "{ $name }" created: { $game }, { $kind }, { $clock }, { $rated }. Join with `league join league={ $id }`; its organiser starts it with `league start league={ $id }`.
league-list-none = No leagues in this server yet: `league create name=NAME game=shogi format=swiss rounds=3` makes one.
league-list-head = Leagues of this server:
league-list-line = #{ $id } "{ $name }" — { $game }, { $format }, { $players ->
    [one] 1 player
   *[other] { $players } players
}, { $status }
league-status-open = taking players
league-status-running = round { $round } of { $rounds }
league-status-finished = finished
league-status-cancelled = cancelled
league-not-open = League #{ $id } is not taking players any more.
league-no-computer = The computer does not play in leagues.
league-rating-out = Your rating here ({ $rating }) is outside this league's range ({ $min } to { $max }).
league-already-in = You are already in league #{ $id }.
league-full = League #{ $id } is full.
league-joined = { $who } joins league #{ $id } "{ $name }" ({ $count ->
    [one] 1 player
   *[other] { $count } players
} so far).
league-not-organiser = Only the organiser of league #{ $id } (its creator, or a manager of the server) may do that.
league-not-in = { $who } is not playing in league #{ $id }.
league-left = { $who } leaves league #{ $id } "{ $name }".
league-withdrawn-forfeit = { $who } withdraws from league #{ $id } "{ $name }": their unplayed games are lost by forfeit.
league-withdrawn-annulled = { $who } withdraws from league #{ $id } "{ $name }": having played fewer than half of their games, all their games are annulled.
league-too-few = League #{ $id } needs at least { $least } players to start.
league-rounds-too-many = { $rounds } rounds need more than { $players } players (nobody may meet the same opponent twice).
league-cannot-pair = League #{ $id } cannot be paired.
league-started = League #{ $id } "{ $name }" starts with { $players } players.
league-cancelled = League #{ $id } "{ $name }" is cancelled; games in progress go on as ordinary games.
league-over = League #{ $id } is over.
league-show-head = League #{ $id } "{ $name }": { $game }, { $format }, { $clock }, { $rated }; { $status }. Organiser: { $organiser }.
league-no-players = No players yet.
league-standings-head = Standings:
league-standings-line = { $place }. { $name } — { $points } ({ $played } played: +{ $wins } ={ $draws } -{ $losses }){ $tiebreaks }{ $left }
league-tiebreaks = {"; "}{ $list }
league-player-left = {" "}(left)
league-tb-sb = SB
league-tb-buchholz = Buchholz
league-tb-buchholz-cut-1 = Buchholz cut 1
league-tb-head-to-head = head-to-head
league-no-round = League #{ $id } has no round { $round }.
league-pairings-head = League #{ $id }, round { $round }:
league-pairing-line = { $board }. { $first } – { $second }: game { $game }{ $result }
league-pairing-bye = { $board }. { $name }: bye
league-game-later = (later)
league-in-round = (round { $round })
league-result-pending = (in play)
league-result-forfeit = { $score } by forfeit
league-result-annulled = annulled
league-result-bye = bye
league-round-begins = League #{ $id } "{ $name }": round { $round } begins.
league-all-rounds-begin = League #{ $id } "{ $name }": all { $rounds } rounds begin, every game at once.
league-notice-game = League "{ $league }", round { $round }: your game #{ $game } against { $opponent } begins; you play { $side }.
league-adjudicated = League "{ $name }": round { $round } reached its deadline; its unfinished games are adjudicated draws.
league-result = League "{ $name }", round { $round }: game #{ $game }, { $first } – { $second }: { $result }.
league-leader = Leader: { $name } ({ $points }).
league-finished = League #{ $id } "{ $name }" is over. Winner: { $winner }!
league-thread-title = League #{ $id }: { $name }
league-picture-title = League #{ $id }: { $name } ({ $game })
league-picture-round = Round { $round } of { $rounds }
league-picture-final = Final standings
league-picture-cancelled = Cancelled
league-picture-crosstable = Crosstable
league-column-place = #
league-column-player = Player
league-column-points = Points
league-column-played = Games
