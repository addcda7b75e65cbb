# Game clocks (src/service/timing.rs): per-move, increment, byoyomi.
timing-unknown-clock = there is no clock called "{ $clock }": choose per-move, increment or byoyomi
timing-option-not-here = `{ $option }` does not go with the { $clock } clock: increment and cap are for `clock:increment`, period for `clock:byoyomi`
timing-out-of-range = `{ $option }`: { $value } is out of range here (choose { $min } to { $max } days)
timing-span-d = { $d }d
timing-span-dh = { $d }d { $h }h
timing-span-h = { $h }h
timing-span-hm = { $h }h { $m }m
timing-span-m = { $m }m
timing-per-move = { $days ->
    [one] 1 day
   *[other] { $days } days
} per move
timing-increment = { $days ->
    [one] 1 day
   *[other] { $days } days
} + { $increment ->
    [one] 1 day
   *[other] { $increment } days
} per move (at most { $cap } days)
timing-byoyomi = { $days ->
    [one] 1 day
   *[other] { $days } days
}, then { $period ->
    [one] 1 day
   *[other] { $period } days
} per move (byoyomi)
timing-show-per-move = { $span } per move
timing-show-byoyomi = { $main } + { $period }
timing-show-in-byoyomi = byoyomi { $left }
timing-clocks = Clocks: { $times } — { $control }.
timing-clock-of = { $name } { $time }
