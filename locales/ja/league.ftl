# サーバーのリーグ戦（src/service/league.rs）: 作成、参加、退出、開始、中止、一覧、表示、組み合わせ、除名。
# リーグの告知と通知。

league-no-server = リーグ戦はサーバーで行います。サーバーのチャンネルで送ってください。
league-unknown = このサーバーにリーグ #{ $id } はありません（`league list` で一覧を表示します）。
league-bad-name = リーグ名は1～60文字です。
league-bad-format = 「{ $format }」という方式はありません: round-robin、double-round-robin、swiss のどれかです。
league-swiss-rounds = スイス式には回戦数（rounds=N）が必要です。
league-bad-rounds = スイス式の回戦数は1～{ $max }です。
league-bad-start = start=「{ $start }」: all（全局を一度に）か rounds（一回戦ずつ）です。
league-bad-max-players = この方式のリーグの参加者は2～{ $max }人です。
league-bad-rating-range = レーティングの下限（{ $min }）が上限（{ $max }）より上です。
league-format-round-robin = 総当たり
league-format-double-round-robin = 二回総当たり
league-format-swiss = スイス式
league-format-rounds = { $format }{ $rounds }回戦
league-rated = レーティング対局
league-casual = 非レーティング対局
league-created = リーグ #{ $id }「{ $name }」を作りました: { $game }、{ $kind }、持ち時間は一手{ $days }日、{ $rated }。参加は `league join league={ $id }`、開始は主催者が `league start league={ $id }` で行います。
league-list-none = このサーバーにはまだリーグがありません。`league create name=名前 game=shogi format=swiss rounds=3` で作れます。
league-list-head = このサーバーのリーグ:
league-list-line = #{ $id }「{ $name }」— { $game }、{ $format }、{ $players }人、{ $status }
league-status-open = 参加受付中
league-status-running = { $rounds }回戦中の第{ $round }回戦
league-status-finished = 終了
league-status-cancelled = 中止
league-not-open = リーグ #{ $id } は参加を締め切りました。
league-no-computer = コンピューターはリーグ戦に参加しません。
league-rating-out = ここでのあなたのレーティング（{ $rating }）はこのリーグの範囲（{ $min }～{ $max }）の外です。
league-already-in = すでにリーグ #{ $id } に参加しています。
league-full = リーグ #{ $id } は満員です。
league-joined = { $who }さんがリーグ #{ $id }「{ $name }」に参加しました（現在{ $count }人）。
league-not-organiser = それができるのはリーグ #{ $id } の主催者（作成者またはサーバーの管理者）だけです。
league-not-in = { $who }さんはリーグ #{ $id } に参加していません。
league-left = { $who }さんがリーグ #{ $id }「{ $name }」から抜けました。
league-withdrawn-forfeit = { $who }さんがリーグ #{ $id }「{ $name }」を棄権しました。残りの対局は不戦敗です。
league-withdrawn-annulled = { $who }さんがリーグ #{ $id }「{ $name }」を棄権しました。対局数の半分に満たないため、すべての対局を無効とします。
league-too-few = リーグ #{ $id } を始めるには{ $least }人以上が必要です。
league-rounds-too-many = { $rounds }回戦には{ $players }人より多い参加者が必要です（同じ相手とは二度当たりません）。
league-cannot-pair = リーグ #{ $id } の組み合わせが作れません。
league-started = リーグ #{ $id }「{ $name }」が{ $players }人で始まりました。
league-cancelled = リーグ #{ $id }「{ $name }」は中止になりました。進行中の対局は通常の対局として続きます。
league-over = リーグ #{ $id } は終わっています。
league-show-head = リーグ #{ $id }「{ $name }」: { $game }、{ $format }、持ち時間は一手{ $days }日、{ $rated }。{ $status }。主催者: { $organiser }。
league-no-players = 参加者はまだいません。
league-standings-head = 順位:
league-standings-line = { $place }位 { $name } — { $points }点（{ $played }局: { $wins }勝{ $losses }敗{ $draws }分）{ $tiebreaks }{ $left }
league-tiebreaks = 　{ $list }
league-player-left = （棄権）
league-tb-sb = SB
league-tb-buchholz = ブッフホルツ
league-tb-buchholz-cut-1 = ブッフホルツ（最低1除外）
league-tb-head-to-head = 直接対決
league-no-round = リーグ #{ $id } に第{ $round }回戦はありません。
league-pairings-head = リーグ #{ $id } 第{ $round }回戦:
league-pairing-line = { $board }. { $first } – { $second }: 対局 { $game }{ $result }
league-pairing-bye = { $board }. { $name }: 不戦勝（相手なし）
league-game-later = （後日）
league-in-round = （第{ $round }回戦）
league-result-pending = （対局中）
league-result-forfeit = { $score }（不戦）
league-result-annulled = 無効
league-result-bye = 不戦勝（相手なし）
league-round-begins = リーグ #{ $id }「{ $name }」第{ $round }回戦が始まります。
league-notice-game = リーグ「{ $league }」第{ $round }回戦: { $opponent }さんとの対局 #{ $game } が始まります。あなたは{ $side }です。
league-adjudicated = リーグ「{ $name }」: 第{ $round }回戦の期限が来ました。終わっていない対局は判定で引き分けとします。
league-result = リーグ「{ $name }」第{ $round }回戦: 対局 #{ $game }、{ $first } – { $second }: { $result }。
league-leader = 首位: { $name }（{ $points }点）。
league-finished = リーグ #{ $id }「{ $name }」が終わりました。優勝: { $winner }！
