# Correspondence time: deadlines, reminders, vacations, digests, server settings (src/service/clock.rs).

## Server settings

server-show = Server settings: { $days } days per move by default, games { $rated } by default, { $games }, public posts in { $language }, { $leagues }.
server-saved = Saved: { $days } days per move by default, { $rated } by default, { $games }, public posts in { $language }, { $leagues }.
server-leagues-on = members may create leagues
server-leagues-off = leagues are not created here
server-featured = { $leagues }, game #{ $id } featured
server-rated = rated
server-casual = casual
server-games-here = games played where they are challenged
server-games-channel = games go to channel { $channel }
server-language-chosen = { $lang }
server-language-discord = { $lang } (the server's Discord language)
server-not-in-server = server settings are made in a server
server-managers-only = only the server's managers change its settings

## The sweep's notices: losses on time, reminders, expired challenges, digests

clock-lost-on-time = game #{ $id }: you lost on time
clock-won-on-time = game #{ $id }: { $name } ran out of time, you win
clock-reminder = reminder: your move in game #{ $id } is due by { $time } (`moretime` is your opponent's to give)
clock-challenge-expired = your challenge #{ $id } ({ $game }) expired unanswered
clock-digest = your turn in { $count ->
        [one] { $count } game
       *[other] { $count } games
    }: { $ids }

## More time and vacations

clock-moretime-your-move = it is your move: `moretime` gives your opponent one more day on theirs
clock-moretime-too-late = game #{ $id }: your opponent's time has already run out
clock-notice-moretime = { $name } gave you one more day in game #{ $id }
clock-moretime = Game #{ $id }: { $name } gives { $opponent } one more day: move by { $deadline }.
clock-not-on-vacation = you are not on vacation
clock-welcome-back = Welcome back, { $name }: your vacation (planned until { $time }) is over and your deadlines run again.
clock-on-vacation = You are on vacation until { $time }. `vacation end` to come back early.
clock-vacation-left = You are not on vacation. This month you have { $left ->
        [one] 1 vacation day
       *[other] { $left } vacation days
    } left: `vacation 3` takes three.
clock-already-on-vacation = you are already on vacation until { $time }
clock-vacation-limit = a vacation is 1 to 14 days a month; you have { $left } left this month
clock-vacation-started = { $name } is on vacation until { $time }. { $rest }
clock-vacation-no-waiting = Moves your opponents make meanwhile give you the time after it.
clock-vacation-moved = Deadlines moved by { $days ->
        [one] 1 day
       *[other] { $days } days
    } in { $ids }.

## Stats and leaderboards

clock-stats-active = { $name }: { $count ->
        [one] { $count } game
       *[other] { $count } games
    } in progress.
clock-stats-none = {" "}No rated game finished yet here.
clock-stats-line = { $game }: rating { $rating } ± { $deviation }, { $games ->
        [one] 1 game
       *[other] { $games } games
    } ({ $wins } won, { $losses } lost, { $draws } drawn)
clock-unknown-game = unknown game '{ $game }'
clock-leaderboard-empty = No rated { $game } game has finished here yet.
clock-leaderboard = { $game } leaderboard:
clock-leaderboard-line = { $rank }. { $name } — { $rating } ± { $deviation } ({ $games ->
        [one] 1 game
       *[other] { $games } games
    })
