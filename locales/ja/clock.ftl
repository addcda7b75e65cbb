# 持ち時間: 期限、リマインド、休暇、ダイジェスト、サーバー設定（src/service/clock.rs）。

## サーバー設定

server-show = サーバー設定: 既定の持ち時間は一手{ $days }日、対局は既定で{ $rated }、{ $games }、公開の告知は { $language }、{ $leagues }。
server-saved = 保存しました: 既定の持ち時間は一手{ $days }日、既定で{ $rated }、{ $games }、公開の告知は { $language }、{ $leagues }。
server-leagues-on = メンバーはリーグを作成できます
server-leagues-off = このサーバーではリーグを作成できません
server-featured = { $leagues }、注目局は対局 #{ $id }
server-rated = レーティング対局
server-casual = 非レーティング対局
server-games-here = 対局は挑戦したチャンネルで行います
server-games-channel = 対局はチャンネル { $channel } で行います
server-language-chosen = { $lang }
server-language-discord = { $lang }（サーバーの Discord の言語）
server-not-in-server = サーバー設定はサーバーの中で変更します
server-managers-only = サーバー設定を変更できるのはサーバーの管理者だけです

## 定期処理の通知: 時間切れ、リマインド、期限切れの挑戦、ダイジェスト

clock-lost-on-time = 対局 #{ $id }: 時間切れで負けました
clock-won-on-time = 対局 #{ $id }: { $name }さんが時間切れになりました。あなたの勝ちです
clock-reminder = リマインド: 対局 #{ $id } の指し手の期限は{ $time }です（`moretime` で時間を延ばせるのは相手だけです）
clock-challenge-expired = 挑戦 #{ $id }（{ $game }）は返事がないまま期限切れになりました
clock-digest = { $count }局であなたの手番です: { $ids }

## 時間の延長と休暇

clock-moretime-your-move = あなたの手番です。`moretime` は相手の持ち時間を一日延ばすコマンドです
clock-moretime-too-late = 対局 #{ $id }: 相手の持ち時間はすでに切れています
clock-notice-moretime = { $name }さんが対局 #{ $id } の持ち時間を一日延ばしてくれました
clock-moretime = 対局 #{ $id }: { $name }さんが{ $opponent }さんの持ち時間を一日延ばしました。期限は{ $deadline }です。
clock-not-on-vacation = 休暇中ではありません
clock-welcome-back = おかえりなさい、{ $name }さん。休暇（{ $time }までの予定）は終わり、期限の計算が再開しました。
clock-on-vacation = { $time }まで休暇中です。早めに戻るなら `vacation end`。
clock-vacation-left = 休暇中ではありません。今月の休暇はあと{ $left }日取れます。`vacation 3` で三日間の休暇です。
clock-already-on-vacation = すでに{ $time }まで休暇中です
clock-vacation-limit = 休暇は月に1～14日です。今月の残りは{ $left }日です
clock-vacation-started = { $name }さんは{ $time }まで休暇です。{ $rest }
clock-vacation-no-waiting = 休暇中に相手が指した手の期限は、休暇明けから数えます。
clock-vacation-moved = { $ids } の期限を{ $days }日延ばしました。

## 成績とランキング

clock-stats-active = { $name }: 進行中の対局 { $count }局。
clock-stats-none = ここで終わったレーティング対局はまだありません。
clock-stats-line = { $game }: レーティング { $rating } ± { $deviation }、{ $games }局（{ $wins }勝 { $losses }敗 { $draws }分）
clock-unknown-game = 「{ $game }」という将棋の種類はありません
clock-leaderboard-empty = ここで終わった{ $game }のレーティング対局はまだありません。
clock-leaderboard = { $game }のランキング:
clock-leaderboard-line = { $rank }. { $name } — { $rating } ± { $deviation }（{ $games }局）
