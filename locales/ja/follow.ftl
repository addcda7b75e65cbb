# フォローと毎日の一覧（src/service/follow.rs）: 対局のフォロー、指定した時刻の毎日のまとめ、残り時間。

## 対局のフォロー

follow-game = #{ $id } { $first } 対 { $second }（{ $variant }）
follow-how-thread = 対局スレッドで（スレッド一覧に加わります。通知はしません）
follow-how-digest = 毎日のまとめで
follow-how-ping = 一手ごとのメンションで
follow-started = { $game }をフォローしました。指し手は{ $how }届きます。`unfollow { $id }` でやめられます。
follow-changed = { $game }をフォロー中です。これからは指し手が{ $how }届きます。
follow-already = { $game }はすでにフォローしています。指し手は{ $how }届きます。
follow-stopped = 対局 #{ $id } のフォローをやめました。
follow-bad-notify = notify「{ $value }」は thread、digest、ping のどれでもありません
follow-in-server = 対局のフォローはそのサーバーでどうぞ（`follow 12`）
follow-not-here = このサーバーに対局 #{ $id } はありません
follow-own-game = 対局 #{ $id } はあなたの対局です: 指し手はすでに届きます
follow-over = 対局 #{ $id } は終わっています: 棋譜は `record { $id }` で
follow-not-following = 対局 #{ $id } はフォローしていません（`follow` でフォロー中の対局を一覧できます）
follow-list-head = フォロー中の対局:
follow-list-line = { $game } — { $how }、{ $state }{ $link }
follow-list-to-move = { $name }の手番
follow-list-over = 終局
follow-list-none = このサーバーでフォロー中の対局はありません。`follow 12` で対局 #12 をフォローできます。`games @プレイヤー` でその人の対局を一覧できます。
follow-hint = `follow { $id }` でこの対局を対局スレッドでフォローできます（`follow { $id } digest` なら毎日のまとめで）。

## 一手ごとのメンション

follow-ping-moves = { $game }: { $moves }。{ $state }
follow-ping-takeback = { $game }: 待ったで手が戻り、{ $ply }手目までになりました。{ $state }
follow-ping-state = { $game }: { $state }
follow-to-move-by = { $name }（{ $side }）の手番、期限 { $time }。
follow-to-move = { $name }（{ $side }）の手番。
follow-over-plain = 終局。

## 毎日の一覧とまとめ

follow-deadline = 、{ $left }（期限 { $time }）
follow-left = 残り{ $span }
follow-overdue = 期限切れ
follow-digest-none-waiting = あなたの手番の対局はありません。
follow-digest-your-move = あなたの手番:
follow-digest-their-move = 相手の手番:
follow-digest-challenges = あなたへの挑戦:
follow-digest-followed = フォロー中の対局:
follow-digest-challenge = 挑戦 #{ $id }（{ $variant }、{ $name }さんから）: `accept { $id }` か `decline { $id }`
follow-digest-moves = { $game }: 前回のまとめから{ $count }手: { $moves }。{ $state }
follow-digest-state = { $game }: { $state }

## 設定: まとめの時刻とタイムゾーン

follow-digest-hour = { $hour }（あなたのタイムゾーンで{ $clock }）
follow-digest-hour-none = なし（前回のまとめから一日後）
settings-bad-digest-hour = digest_hour={ $value }: まとめの時刻は 0 から 23 です（`settings digest_hour=8`。`none` で前回のまとめから一日後）
settings-bad-timezone = timezone「{ $value }」というタイムゾーンはありません: `Asia/Tokyo`、`Europe/Paris`、`America/New_York` のようなタイムゾーン名で書いてください（既定は UTC）
cmd-digest-hour = digest_hour={ $value }: 0 から 23 の時刻を指定してください。例: `settings digest_hour=8`（`none` で前回のまとめから一日後）
