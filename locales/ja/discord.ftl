# discord
# Discord アダプタ自身の言葉: コアに届かないオプションの拒否、ボタン、送信者への案内、ファイルの注記。

discord-sorry = 申し訳ありません、こちら側で問題が起きました。もう一度お試しください。
discord-restarting = Tegami は再起動中です。1分ほどしてからもう一度お試しください。
discord-slow-down = コマンドの送信が続いています。数秒待ってからもう一度お試しください。
discord-file-too-large = （{ $name } は { $size } MiB で、Discord のファイルの上限 { $limit } MiB を超えるため添付していません。）
discord-full-text-attached = （全文はファイルで添付しています）
discord-done = ✓ { $line }
discord-posted-in = ✓ { $line }（<#{ $channel }> に投稿しました）
discord-announce-later =
    ✓ { $line }
    （Discord が今は投稿を受け付けませんでした。受け付けられしだい Tegami が投稿します。）
discord-announce-failed =
    ✓ { $line }
    （この対局のチャンネルに Tegami が投稿できませんでした: { $error }）
discord-thread-title = 対局 #{ $game }
discord-files-refused = （ここではファイルを添付する権限がないため、画像は添付していません。）
discord-sent-dm = ✉ この回答はあなただけのものなので、ダイレクトメッセージで送りました。
discord-dm-refused = ✗ この回答はあなただけのものですが、Tegami からのダイレクトメッセージが受け取れない設定になっています。ダイレクトメッセージを開くか、本人にだけ表示されるスラッシュコマンドを使ってください。
discord-games-channel-unusable = Tegami は、あなたのサーバーで `/server channel` に設定された対局チャンネル <#{ $channel }> に投稿できません（{ $why }）。ボットが再びそのチャンネルを使えるようにするか、`/server channel` で別のチャンネルを選んでください。
discord-confirm-resign = 対局 #{ $game } を投了しますか？ 相手の勝ちとなり、取り消せません。
discord-confirm-resign-button = 投了する
discord-game-is-over = 対局 #{ $game } は終局しています
discord-not-understood = 「{ $input }」はここでは読み取れません（{ $error }）
discord-bad-argument = { $error }
discord-type-help = { $prefix }help でコマンドの一覧を見られます
discord-button-unknown = このボタンは Tegami のものではありません（もう使えません）。
discord-button-not-yours = このボタンは他の人のものです。
discord-button-stale = このボタンは対局 #{ $game } の前の局面（{ $ply } 手目の後）のものです。今は { $now } 手目の後です。最新の盤面を見てください。
discord-button-game-over = 対局 #{ $game } は終局しています。

# コマンドのオプションの拒否。
discord-not-one-of = { $what }「{ $value }」は { $choices } のどれでもありません
discord-bots-do-not-play = ボットとは対局できません。人か、Tegami 自身に挑戦してください
discord-bad-level = 強さ { $level } は選べません: 1（初心者）〜5（最強）から選んでください
discord-red-blue-not-here = { $color } は上海宮殿チェスの手番です。先手か後手を選んでください
discord-black-white-not-shanghai = { $color } は上海宮殿チェスの手番ではありません。紅か藍を選んでください
discord-bad-days = 一手 { $days } 日は選べません: 1、2、3、5、7、10、14 日から選んでください
discord-write-a-move = 指し手を書いてください（例: ７六歩、P-7f、7g7f）
discord-bad-ply = { $ply } は手数ではありません
discord-bad-remind = remind: 期限の何時間前に知らせるかを 0〜{ $max } で指定してください
discord-bad-digest-hour = まとめの時刻は、あなたのタイムゾーンで 0 から 23 です
discord-follow-which-game = フォローする対局を `game` に番号で指定してください
discord-bad-vacation = { $days } 日は選べません: 休暇は 1〜14 日です
discord-not-text-channel = <#{ $channel }> はテキストチャンネルではありません。対局はテキストチャンネルで行います（スレッドはそこに作られます）
discord-server-bad-days = 一手の持ち日数: 1、2、3、5、7、10、14 から選んでください
discord-server-use-slash = メッセージからはサーバーの管理者かどうか分かりません。設定の変更はスラッシュコマンド /server でどうぞ
discord-game-channel-unusable = Tegami は、あなたのサーバーで対局 #{ $game } が行われているチャンネル <#{ $channel }> に投稿できません（{ $why }）。その間、対局はほかの場所（`/server channel` に設定された対局チャンネル、なければダイレクトメッセージ）で続きます。このチャンネルで、ボットに「チャンネルを見る」「メッセージを送信」「スレッドでメッセージを送信」「公開スレッドの作成」「ファイルを添付」の権限を再び与えてください。
