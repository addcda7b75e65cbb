# コンソール自身の言葉（src/console.rs）: `tegami console`、ひとつの端末で複数のユーザー。

console-banner =
    Tegami コンソール: 複数のユーザーとしてオフラインで対局できます。次のように入力します
      @alice challenge @bob shogi
      @bob accept
      @alice move 7g7f
    `help` でコマンド一覧、`quit` で終了します。
console-computer-games-failed = コンピューターの対局を読み込めません: { $error }
console-says-nothing = @{ $user } の後にコマンドがありません: 名前の後にコマンドを書いてください。例: @{ $user } games
console-help-extra =
    {"  "}tick [時刻] — （コンソール）時計を RFC 3339 形式の時刻に合わせる。例: tick 2026-12-01T12:00:00Z
      quit — 終了する
    コマンドは話すユーザーの後に書きます: @alice games
console-no-user = 行の先頭に話すユーザーを書いてください。例: `@alice challenge @bob shogi`（help でコマンド一覧）
console-computer-failed = コンピューターは対局 #{ $id } で指せませんでした: { $error }
console-computer-panicked = 対局 #{ $id } でコンピューターの探索が失敗しました（{ $error }）。対局はそのままで、次の行の前にもう一度指します
console-computer-given-up = 対局 #{ $id } でコンピューターの探索が{ $count }回続けて失敗しました（{ $error }）。対局はそのままで、次の `tick` でもう一度指します
console-bad-time = 「{ $time }」は RFC 3339 形式の時刻ではありません。例: 2026-12-01T12:00:00Z
console-clock = コンソールの時計: { $time }。
console-sweep = 見回り: 時間切れ負け { $timeouts } 件、リマインド { $reminders } 件、期限切れの挑戦 { $expired } 件、まとめ { $digests } 件。
console-mark-failed = 通知を送信済みにできませんでした: { $error }
console-sweep-failed = 見回りに失敗しました: { $error }
console-via-mention = メンション
console-via-dm = ダイレクトメッセージ
console-via-post = 告知
console-image = 画像
console-file = ファイル
console-not-saved = { $what }を保存できませんでした: { $error }
console-buttons = ボタン: { $buttons }
console-league-home = リーグ #{ $id }
console-game-home = 対局 #{ $id }
