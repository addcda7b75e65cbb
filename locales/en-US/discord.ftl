# discord
# What the Discord adapter says itself: refusals of options the core never sees, buttons, the
# sender's pointer to an announcement, notes on files. Ids are used in `src/discord/*.rs`.

discord-sorry = Sorry, something went wrong on our side. Please try again.
discord-restarting = Tegami is restarting; try again in a minute.
discord-slow-down = You are sending commands quickly: please wait a few seconds and try again.
discord-file-too-large = ({ $name } is { $size } MiB, over Discord's { $limit } MiB limit for a file: it is not attached.)
discord-full-text-attached = (the full text is attached)
discord-done = ✓ { $line }
discord-posted-in = ✓ { $line } (posted in <#{ $channel }>)
discord-announce-later =
    ✓ { $line }
    (Discord did not take the announcement just now: Tegami posts it as soon as Discord does.)
discord-announce-failed =
    ✓ { $line }
    (Tegami could not post the announcement in this game's channel: { $error })
discord-thread-title = Game #{ $game }
discord-files-refused = (The picture is not attached: Tegami may not attach files here.)
discord-sent-dm = ✉ I sent you the answer by direct message: it is yours alone.
discord-dm-refused = ✗ This answer is yours alone, and your direct messages are closed to Tegami. Open them, or use the slash command, which answers you privately.
discord-games-channel-unusable = Tegami cannot post in <#{ $channel }>, the games channel set with `/server channel` in your server ({ $why }). Give the bot access to it again, or choose another with `/server channel`.
discord-confirm-resign = Resign game #{ $game }? Your opponent wins; this cannot be undone.
discord-confirm-resign-button = Confirm resignation
discord-game-is-over = game #{ $game } is over
discord-not-understood = '{ $input }' is not understood here ({ $error })
discord-bad-argument = { $error }
discord-type-help = type { $prefix }help
discord-button-unknown = This button is not one of Tegami's (any more).
discord-button-not-yours = This button is someone else's.
discord-button-stale = This button belongs to an older position of game #{ $game } (after move { $ply }; it is now after move { $now }): look at the latest board.
discord-button-game-over = Game #{ $game } is over.

# Refusals of a command's options.
discord-not-one-of = { $what } '{ $value }' is not one of { $choices }
discord-bots-do-not-play = bots do not play: challenge a person, or Tegami itself
discord-bad-level = level { $level }: choose 1 (a beginner) to 5 (the strongest)
discord-red-blue-not-here = { $color } is a side of Shanghai Palace Chess: choose black or white
discord-black-white-not-shanghai = { $color } is not a side of Shanghai Palace Chess: choose red or blue
discord-bad-days = { $days } days per move: choose 1, 2, 3, 5, 7, 10 or 14
discord-write-a-move = write a move, e.g. P-7f or 7g7f
discord-bad-ply = ply { $ply } is not a move number
discord-bad-remind = remind: give the hours before a deadline to be reminded, 0 to { $max }
discord-bad-digest-hour = the digest's hour is 0 to 23, in your time zone
discord-follow-which-game = say which game to follow: `game` with its number
discord-bad-vacation = { $days } days: a vacation is 1 to 14 days
discord-not-text-channel = <#{ $channel }> is not a text channel: games are played in a text channel (their threads are made there)
discord-server-bad-days = days per move: choose 1, 2, 3, 5, 7, 10 or 14
discord-server-use-slash = I cannot tell from a message whether you manage this server: change its settings with the slash command /server
discord-game-channel-unusable = Tegami cannot post in <#{ $channel }>, where game #{ $game } is played in your server ({ $why }). Its games go on elsewhere meanwhile (the games channel set with `/server channel`, else direct messages). Give the bot View Channel, Send Messages, Send Messages in Threads, Create Public Threads and Attach Files there again.
