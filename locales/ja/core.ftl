# コアの言葉（src/service/mod.rs, command.rs, delivery.rs, names.rs, suggest.rs）。

lang-name = 日本語
game-number = #{ $id }

err-changed = 返答の間に対局が進みました（指し手か別の返答が先に届きました）。盤面を確認してください
err-not-found = その対局または挑戦はありません
err-internal = 申し訳ありません、こちら側で問題が起きました。何も変更されていません。もう一度お試しください。

## コマンド行の読み取り（src/service/command.rs）

cmd-unknown = 「{ $word }」というコマンドはありません。一覧は help で表示されます
cmd-empty = コマンドが空です。一覧は help で表示されます
cmd-usage = 使い方: { $usage }
cmd-not-a-player = 「{ $word }」はプレイヤーではありません。相手をメンション（@名前）するか、誰でも受けられる挑戦なら open と書いてください。使い方: { $usage }
cmd-days-number = days={ $value }: 一手の日数は数字で指定してください
cmd-level-number = level={ $value }: コンピューターのレベルは 1 から 5 の数字です
cmd-remind-hours = remind={ $value }: 期限の何時間前に知らせるかを 0 から { $max } で指定してください（0 は知らせない）。例: `settings remind=12`

## コマンドが指す対局の選び方（src/service/mod.rs）

core-days-allowed = 一手の日数は { $days } のどれかにしてください
core-no-game = 対局 #{ $id } はありません
core-no-game-in-server = このサーバーで進行中の対局はありません。まず誰かに挑戦してください（help で一覧が出ます）
core-no-game-in-progress = 進行中の対局はありません。まず誰かに挑戦してください（help で一覧が出ます）
core-several-games = 進行中の対局が{ $count }局あります（{ $ids }）。どの対局か指定してください。例: `move { $first } ７六歩`
core-not-your-game = あなたは対局 #{ $id } の対局者ではありません
core-own-games-only = ダイレクトメッセージでは自分の対局一覧しか見られません。サーバーで尋ねてください
core-own-history-only = ダイレクトメッセージでは自分の対局履歴しか見られません。サーバーで尋ねてください
core-own-stats-only = ダイレクトメッセージでは自分の成績しか見られません。サーバーで尋ねてください
core-own-only = ダイレクトメッセージでは自分の{ $what }しか見られません。サーバーで尋ねてください

## 配信と名前（src/service/delivery.rs, names.rs）

core-undelivered = ⚠ 今週、あなたへの通知{ $count }件を届けられませんでした{ $about }。Tegami は対局のスレッドやチャンネルに投稿できず、ダイレクトメッセージも送れませんでした。ボットからのダイレクトメッセージを許可するか、サーバーの管理者に `server channel` の設定を頼んでください。
core-undelivered-about = （対局 { $games }）
core-thread-title = 対局 #{ $id }: { $first } 対 { $second }（{ $variant }）
core-thread-game = 対局
cmd-league-number = { $key }={ $value }: 数字を指定してください
cmd-out-of-range = `{ $option }`: { $value } は範囲外です（{ $min }から{ $max }までで指定してください）
cmd-too-small = `{ $option }`: { $value } は小さすぎます（{ $min }以上で指定してください）
cmd-too-long = `{ $option }` は{ $length }文字あります。{ $max }文字までです
