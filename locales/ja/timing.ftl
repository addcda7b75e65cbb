# 持ち時間（src/service/timing.rs）: 一手ごと、加算（フィッシャー）、秒読み。
timing-unknown-clock = 「{ $clock }」という持ち時間の方式はありません。per-move（一手ごと）、increment（加算）、byoyomi（秒読み）から選んでください
timing-option-not-here = `{ $option }` は { $clock } 方式では使えません。increment と cap は `clock:increment`、period は `clock:byoyomi` 用です
timing-out-of-range = `{ $option }` は { $min }〜{ $max } 日の範囲で指定してください（{ $value } は範囲外です）
timing-span-d = { $d }日
timing-span-dh = { $d }日{ $h }時間
timing-span-h = { $h }時間
timing-span-hm = { $h }時間{ $m }分
timing-span-m = { $m }分
timing-per-move = 持ち時間は一手{ $days }日
timing-increment = 持ち時間{ $days }日、一手ごとに{ $increment }日加算（上限{ $cap }日）
timing-byoyomi = 持ち時間{ $days }日、使い切ったら秒読み一手{ $period }日
timing-show-per-move = 一手{ $span }
timing-show-byoyomi = { $main }＋秒読み{ $period }
timing-show-in-byoyomi = 秒読み 残り{ $left }
timing-clocks = 残り時間: { $times }（{ $control }）。
timing-clock-of = { $name } { $time }
