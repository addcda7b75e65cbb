# The core's own words (src/service/mod.rs, command.rs, delivery.rs, names.rs, suggest.rs).

lang-name = English
game-number = #{ $id }

err-changed = the game changed while you were answering (a move or another answer came first): look at the board again
err-not-found = no such game or challenge
err-internal = Sorry, something went wrong on our side; nothing was changed. Please try again.

## Reading command lines (src/service/command.rs)

cmd-unknown = unknown command '{ $word }': type help for the list
cmd-empty = empty command: type help for the list
cmd-usage = usage: { $usage }
cmd-not-a-player = '{ $word }' is not a player: mention them (@name), or write 'open' for anyone; usage: { $usage }
cmd-days-number = days={ $value }: the days per move must be a number
cmd-level-number = level={ $value }: the computer's level is a number from 1 to 5
cmd-remind-hours = remind={ $value }: give the hours before a deadline to be reminded, 0 to { $max } (0: never), e.g. `settings remind=12`

## Choosing the game a command means (src/service/mod.rs)

core-days-allowed = days per move must be one of { $days }
core-no-game = there is no game #{ $id }
core-no-game-in-server = you have no game in progress in this server: challenge someone first (type help)
core-no-game-in-progress = you have no game in progress: challenge someone first (type help)
core-several-games = you have { $count } games in progress ({ $ids }): say which, e.g. `move { $first } 7g7f`
core-not-your-game = you do not play in game #{ $id }
core-own-games-only = in direct messages you see your own games only: ask in a server
core-own-history-only = in direct messages you see your own history only: ask in a server
core-own-stats-only = in direct messages you see your own stats only: ask in a server
core-own-only = in direct messages you see your own { $what } only: ask in a server

## Delivery and names (src/service/delivery.rs, names.rs)

core-undelivered = ⚠ { $count ->
        [one] { $count } notice
       *[other] { $count } notices
    } to you could not be delivered this week{ $about }: Tegami could not post in the game's thread or channel nor send you a direct message. Open your direct messages to the bot, or ask a server manager to set `server channel`.
core-undelivered-about = {" "}(about game { $games })
core-thread-title = Game #{ $id }: { $first } vs { $second } ({ $variant })
core-thread-game = game
cmd-league-number = { $key }={ $value }: a number is needed
cmd-out-of-range = `{ $option }`: { $value } is out of range (choose { $min } to { $max })
cmd-too-small = `{ $option }`: { $value } is too small (the least is { $min })
cmd-too-long = `{ $option }` is { $length } characters long: { $max } at most
