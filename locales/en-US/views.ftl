# Views: boards, lists, records, settings (src/service/views.rs).

## Settings

settings-show = Your settings: style={ $style } (kanji or international), notify={ $notify } (mention, dm or digest), remind={ $remind }, language={ $language }, notation={ $notation }, digest_hour={ $digest }, timezone={ $timezone }. Change with `settings style=international notify=dm remind=12 language=ja notation=japanese digest_hour=8 timezone=Asia/Tokyo`.
settings-saved = Saved: style={ $style }, notify={ $notify }, remind={ $remind }, language={ $language }, notation={ $notation }, digest_hour={ $digest }, timezone={ $timezone }.
settings-remind-off = 0 (no reminders)
settings-remind-hours = { $hours } (reminded { $hours ->
        [one] { $hours } hour
       *[other] { $hours } hours
    } before a deadline, at the earliest halfway through the turn's time)
settings-language-chosen = { $lang }
settings-language-client = { $lang } (your Discord language)
settings-notation-chosen = { $notation }
settings-notation-default = { $notation } (your language's)
settings-bad-style = style '{ $value }' is not kanji or international
settings-bad-notify = notify '{ $value }' is not mention, dm or digest
settings-bad-remind = remind={ $value }: a reminder comes 0 to { $max } hours (two weeks) before a deadline (0: never)
settings-bad-language = language '{ $value }' is not en or ja (or default)
settings-bad-notation = notation '{ $value }' is not western, japanese or usi (or default)

## Boards, moves, lists, records, replays, rules

views-bad-style = unknown style '{ $style }': choose kanji or international
views-status = Game #{ $id } — { $variant }: { $black } ({ $black_side }) vs { $white } ({ $white_side }), move { $number }.
views-status-over = { $head } Over: { $result }.
views-status-over-plain = { $head } Over.
views-status-to-move = { $head } { $name } to move{ $check }{ $deadline }.
views-in-check = { " " }(in check)
views-deadline = , by { $time }
views-bad-square = '{ $square }' is not a square of { $variant }
views-whose = { $name } ({ $side })
views-moves-none-from = Game #{ $id }: no legal move from { $square }.
views-moves-none = Game #{ $id }: no legal move (the game is over).
views-moves-from = Game #{ $id }: { $count ->
        [one] 1 legal move
       *[other] { $count } legal moves
    } from { $square } for { $whose }: { $moves }
views-moves-all = Game #{ $id }: { $count ->
        [one] 1 legal move
       *[other] { $count } legal moves
    } for { $whose }: { $moves }
views-you-challenged = you challenged { $name }
views-your-open-challenge = your open challenge
views-challenge-from = from { $name }
views-challenge-line = Challenge #{ $id } ({ $variant }, { $whom })
views-featured = ★ Featured here: game #{ $id }, { $first } vs { $second } ({ $variant }), { $ply ->
    [one] 1 move
   *[other] { $ply } moves
} played.
views-no-games-me = You have no game in progress.
views-no-games-other = { $name } has no game in progress here.
views-your-move = your move{ $deadline }
views-their-move = { $name }'s move{ $deadline }
views-game-line = #{ $id } { $variant } vs { $opponent } — { $turn }
views-games-head-me = Your games (your move first):
views-games-head-other = Games of { $name } (their move first):
views-history-none = { $name } has no finished game yet.
views-history-head = Finished games of { $name } (newest first):
views-result-won = won
views-result-lost = lost
views-result-draw = draw
views-history-line = #{ $id } { $variant } vs { $opponent } — { $outcome } by { $reason }, { $moves ->
        [one] 1 move
       *[other] { $moves } moves
    }, { $time }
views-ply-range = game #{ $id } has { $moves ->
        [one] 1 move
       *[other] { $moves } moves
    }: choose a ply from 0 to { $moves }
views-after = After { $ply } of { $moves ->
        [one] 1 move
       *[other] { $moves } moves
    }.
views-after-last = After { $ply } of { $moves ->
        [one] 1 move
       *[other] { $moves } moves
    }. Last move: { $last }.
views-button-back = ◀ Back
views-button-next = Next ▶
views-no-moves-yet = No moves yet.
views-replay-too-long = This game is too long for a replay that Discord accepts (8 MiB at most): `record { $id }` gives its moves, and `game { $id } N` shows the position after N moves.
views-replay = Replay of { $moves ->
        [one] 1 move
       *[other] { $moves } moves
    }.
views-replay-sampled = { " " }It is long: the replay shows { $frames } of its { $positions } positions, evenly spread, the last one among them.
views-unknown-game = unknown game '{ $name }': choose one of { $known }
views-not-a-piece = '{ $piece }' is not a piece of { $variant }: `rules { $id }` lists them
