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
usage-challenge = challenge @相手|open 将棋の種類 [black|white|red|blue|random] [days=日数] [clock=per-move|increment|byoyomi] [increment=日数] [cap=日数] [period=日数] [handicap=駒落ち] [setup=初期配置] [rated|casual] [level=1-5（コンピューター相手）]
usage-challenge-id = { $name } [挑戦番号]
usage-move = move [対局番号] 指し手   （例: move ７六歩、move 12 76歩）
usage-board = board [対局番号] [手数] [kanji|international]
usage-moves = moves [対局番号] [マス]
usage-resign = resign [対局番号]
usage-declare = declare [対局番号]
usage-offer = { $name } [対局番号] [offer|accept|decline]
usage-games = games [@プレイヤー]
usage-history = history [@プレイヤー]
usage-game = game 対局番号 [手数]
usage-analysis = analysis 対局番号
usage-record = record 対局番号
usage-replay = replay 対局番号
usage-export = export 対局番号 [sfen|kif|csa|fen]
usage-rules = rules 将棋の種類 [駒]
usage-settings = settings [style=kanji|international] [notify=mention|dm|digest] [remind=時間] [language=en|ja] [notation=western|japanese|usi] [digest_hour=0-23] [timezone=タイムゾーン]
usage-moretime = moretime [対局番号]
usage-vacation = vacation [日数|end]
usage-stats = stats [@プレイヤー]
usage-leaderboard = leaderboard 将棋の種類
usage-server = server [days=日数] [rated|casual] [channel=チャンネル] [language=en|ja] [leagues=on|off] [feature=対局|none]

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
usage-league = league create|join|leave|start|cancel|list|show|pairings|kick [league=番号] …
usage-league-id = league join|leave|start|cancel|show|pairings|kick league=番号
usage-league-create = league create name=名前 game=種類 format=round-robin|double-round-robin|swiss [rounds=回戦数] [days=日数] [rated|casual] [start=all|rounds] [round_days=日数] [max_players=人数] [rating_min=下限] [rating_max=上限]
usage-league-kick = league kick league=番号 user=@相手
usage-conditional = conditional add [対局] "指し手" · conditional list [対局] · conditional clear [対局]
cmd-league-number = { $key }={ $value }: 数字を指定してください
cmd-out-of-range = `{ $option }`: { $value } は範囲外です（{ $min }から{ $max }までで指定してください）
cmd-too-small = `{ $option }`: { $value } は小さすぎます（{ $min }以上で指定してください）
cmd-too-long = `{ $option }` は{ $length }文字あります。{ $max }文字までです
