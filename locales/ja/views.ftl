# 表示: 盤面、一覧、棋譜、設定（src/service/views.rs）。

## 設定

settings-show = 現在の設定: 駒の表記 style={ $style }（kanji または international）、通知 notify={ $notify }（mention、dm、digest）、リマインド remind={ $remind }、言語 language={ $language }、棋譜表記 notation={ $notation }。変更は `settings style=kanji notify=dm remind=12 language=ja notation=japanese` のように。
settings-saved = 保存しました: 駒の表記 style={ $style }、通知 notify={ $notify }、リマインド remind={ $remind }、言語 language={ $language }、棋譜表記 notation={ $notation }。
settings-remind-off = 0（知らせない）
settings-remind-hours = { $hours }（期限の{ $hours }時間前に知らせます。ただし早くても持ち時間の半分が過ぎてから）
settings-language-chosen = { $lang }
settings-language-client = { $lang }（Discord の言語）
settings-notation-chosen = { $notation }
settings-notation-default = { $notation }（言語に合わせる）
settings-bad-style = style「{ $value }」は kanji でも international でもありません
settings-bad-notify = notify「{ $value }」は mention、dm、digest のどれでもありません
settings-bad-remind = remind={ $value }: リマインドは期限の 0 から { $max } 時間前（2週間）まで指定できます（0 は知らせない）
settings-bad-language = language「{ $value }」は en でも ja でもありません（default も使えます）
settings-bad-notation = notation「{ $value }」は western、japanese、usi のどれでもありません（default も使えます）
