# Correspondence time: deadlines, reminders, vacations, digests, server settings (src/service/clock.rs).

## Server settings

server-show = Server settings: { $days } days per move by default, games { $rated } by default, { $games }, public posts in { $language }.
server-saved = Saved: { $days } days per move by default, { $rated } by default, { $games }, public posts in { $language }.
server-rated = rated
server-casual = casual
server-games-here = games played where they are challenged
server-games-channel = games go to channel { $channel }
server-language-chosen = { $lang }
server-language-discord = { $lang } (the server's Discord language)
server-not-in-server = server settings are made in a server
server-managers-only = only the server's managers change its settings
