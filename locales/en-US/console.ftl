# The console's own words (src/console.rs): `tegami console`, several users from one terminal.

console-banner =
    Tegami console: play offline as several users. Type lines like
      @alice challenge @bob shogi
      @bob accept
      @alice move 7g7f
    `help` lists the commands, `quit` ends the session.
console-computer-games-failed = cannot read the computer's games: { $error }
console-says-nothing = @{ $user } says nothing: write a command after the name, e.g. @{ $user } games
console-help-extra =
    {"  "}tick [TIME] — (console) set the clock to an RFC 3339 time, e.g. tick 2026-12-01T12:00:00Z
      quit — end the session
    Write every command after the user who speaks: @alice games
console-no-user = start the line with the user who speaks, e.g. `@alice challenge @bob shogi` (help lists the commands)
console-computer-failed = the computer could not move in game #{ $id }: { $error }
console-computer-panicked = the computer's search failed in game #{ $id } ({ $error }): the game is kept, and its move is tried again before the next line
console-computer-given-up = the computer's search failed in game #{ $id } { $count } times in a row ({ $error }): the game is kept, and its move is tried again at the next `tick`
console-bad-time = '{ $time }' is not an RFC 3339 time such as 2026-12-01T12:00:00Z
console-clock = The console's clock reads { $time }.
console-sweep = { " " }Sweep: { $timeouts } lost on time, { $reminders } reminded, { $expired ->
        [one] 1 challenge expired
       *[other] { $expired } challenges expired
    }, { $digests ->
        [one] 1 digest
       *[other] { $digests } digests
    }.
console-mark-failed = could not mark the notifications sent: { $error }
console-sweep-failed = the sweep failed: { $error }
console-via-mention = mention
console-via-dm = direct message
console-via-post = announcement
console-image = image
console-file = file
console-not-saved = { $what } not saved: { $error }
console-buttons = buttons: { $buttons }
console-league-home = league #{ $id }
console-game-home = game #{ $id }
