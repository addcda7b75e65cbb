# Games against the computer, and game analysis (src/service/computer.rs).

computer-bad-level = level { $level } does not exist: choose 1 (a beginner) to 5 (the strongest)
computer-casual-only = games against { $name } are casual: drop `rated`
computer-too-many = you have { $count } games against { $name } in progress ({ $games }), the most at once: finish or resign one first
computer-game-begins = Game #{ $id } begins: { $black } ({ $black_side }) vs { $white } ({ $white_side }), { $computer } at level { $level }, casual, { $clock } for { $player }. { $first } to move.
computer-no-offers = { $name } does not answer offers: play on, or resign
computer-analysis-active = game #{ $id } is still being played: analysis is for finished games
computer-analysis-empty = game #{ $id } has no moves to analyse
computer-analysis-running = Game #{ $id } is being analysed already; the chart follows when it is ready.
computer-analysis-queued = Your analysis of game #{ $id } is queued: position { $position }. The chart follows when it is ready.
computer-replay-queued = Your replay of game #{ $id } is queued: position { $position }. The animation follows when it is ready.
computer-long-queued = Your request is queued: position { $position }. The answer follows when it is ready.
computer-long-yours = you already have { $count } analyses or replays waiting or running: ask again once they are done
computer-long-full = { $count } analyses and replays are waiting already: try again in a few minutes
computer-chart-title = Game #{ $id }, { $variant }: evaluation
computer-analysis-head = Game #{ $id }: the evaluation after every move, from { $first }'s side (above the middle: { $first } is better).
computer-analysis-cut = { " " }This game is long: the analysis stopped at its time limit, after the first { $analysed } of its { $total } moves; the chart and the swings cover those.
computer-analysis-calm = { " " }No move lost much.
computer-analysis-swings = { " " }The biggest swings:
computer-swing = { $number } { $played } lost { $loss ->
        [one] 1 point
       *[other] { $loss } points
    }
computer-swing-better = { $number } { $played } lost { $loss ->
        [one] 1 point
       *[other] { $loss } points
    }; better was { $number } { $better }
