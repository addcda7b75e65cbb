# Followers and the daily list (src/service/follow.rs): following games, the daily digest at the
# player's hour, times left.

## Following a game

follow-game = #{ $id } { $first } vs { $second } ({ $variant })
follow-how-thread = in its thread (added to your threads, no ping)
follow-how-digest = in your daily digest
follow-how-ping = by a mention at each move
follow-started = You follow { $game }: its moves reach you { $how }. `unfollow { $id }` stops.
follow-changed = You follow { $game }: its moves now reach you { $how }.
follow-already = You already follow { $game }: its moves reach you { $how }.
follow-stopped = You no longer follow game #{ $id }.
follow-bad-notify = notify '{ $value }' is not thread, digest or ping
follow-in-server = follow a game from its server: `follow 12` there
follow-not-here = there is no game #{ $id } in this server
follow-own-game = you play in game #{ $id }: its moves reach you already
follow-over = game #{ $id } is over: `record { $id }` shows its moves
follow-not-following = you do not follow game #{ $id } (`follow` lists the games you follow)
follow-list-head = Games you follow:
follow-list-line = { $game } — { $how }; { $state }{ $link }
follow-list-to-move = { $name } to move
follow-list-over = over
follow-list-none = You follow no game here. `follow 12` follows game #12; `games @someone` lists a player's games.
follow-hint = `follow { $id }` follows one of these games in its thread (`follow { $id } digest`: in your daily digest).

## A follower's mention at each move

follow-ping-moves = { $game }: { $moves }. { $state }
follow-ping-takeback = { $game }: moves taken back, { $ply } played now. { $state }
follow-ping-state = { $game }: { $state }
follow-to-move-by = { $name } ({ $side }) to move, by { $time }.
follow-to-move = { $name } ({ $side }) to move.
follow-over-plain = Over.

## The daily list and the digest

follow-deadline = , { $left } (by { $time })
follow-left = { $span } left
follow-overdue = overdue
follow-digest-none-waiting = no game waits for your move.
follow-digest-your-move = Your move:
follow-digest-their-move = Your opponents' move:
follow-digest-challenges = Challenges to you:
follow-digest-followed = Games you follow:
follow-digest-challenge = challenge #{ $id } ({ $variant }) from { $name }: `accept { $id }` or `decline { $id }`
follow-digest-moves = { $game }: { $count ->
        [one] { $count } move
       *[other] { $count } moves
    } since your last digest: { $moves }. { $state }
follow-digest-state = { $game }: { $state }

## Settings: the digest's hour and the time zone

follow-digest-hour = { $hour } ({ $clock } in your time zone)
follow-digest-hour-none = none (a day after the last digest)
settings-bad-digest-hour = digest_hour={ $value }: the digest's hour is 0 to 23 (`settings digest_hour=8`; `none`: a day after the last digest)
settings-bad-timezone = timezone '{ $value }' is no time zone: write an IANA name such as Asia/Tokyo, Europe/Paris or America/New_York (UTC is the default)
cmd-digest-hour = digest_hour={ $value }: give an hour from 0 to 23, e.g. `settings digest_hour=8` (`none`: a day after the last digest)
