# 表示: 盤面、一覧、棋譜、設定（src/service/views.rs）。

## 設定

settings-show = 現在の設定: 駒の表記 style={ $style }（kanji または international）、通知 notify={ $notify }（mention、dm、digest）、リマインド remind={ $remind }、言語 language={ $language }、棋譜表記 notation={ $notation }、まとめの時刻 digest_hour={ $digest }、タイムゾーン timezone={ $timezone }。変更は `settings style=kanji notify=dm remind=12 language=ja notation=japanese digest_hour=8 timezone=Asia/Tokyo` のように。
settings-saved = 保存しました: 駒の表記 style={ $style }、通知 notify={ $notify }、リマインド remind={ $remind }、言語 language={ $language }、棋譜表記 notation={ $notation }、まとめの時刻 digest_hour={ $digest }、タイムゾーン timezone={ $timezone }。
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

## 盤面、合法手、一覧、棋譜、再生、ルール

views-bad-style = 「{ $style }」という駒の表記はありません: kanji か international を選んでください
views-status = 対局 #{ $id } — { $variant }: { $black }（{ $black_side }）対 { $white }（{ $white_side }）、{ $number }手目。
views-status-over = { $head }終局: { $result }。
views-status-over-plain = { $head }終局しました。
views-status-to-move = { $head }{ $name }さんの手番です{ $check }{ $deadline }。
views-in-check = （王手）
views-deadline = 、期限 { $time }
views-bad-square = 「{ $square }」は{ $variant }の升目ではありません
views-whose = { $name }（{ $side }）
views-moves-none-from = 対局 #{ $id }: { $square } から指せる手はありません。
views-moves-none = 対局 #{ $id }: 指せる手はありません（終局しています）。
views-moves-from = 対局 #{ $id }: { $whose }の { $square } からの合法手 { $count } 通り: { $moves }
views-moves-all = 対局 #{ $id }: { $whose }の合法手 { $count } 通り: { $moves }
views-you-challenged = { $name }に挑戦中
views-your-open-challenge = 誰でも受けられる挑戦
views-challenge-from = { $name }から
views-challenge-line = 挑戦 #{ $id }（{ $variant }、{ $whom }）
views-featured = ★ 注目局: 対局 #{ $id } { $first } 対 { $second }（{ $variant }）、{ $ply }手目。
views-no-games-me = 進行中の対局はありません。
views-no-games-other = { $name }さんのここでの進行中の対局はありません。
views-your-move = あなたの手番{ $deadline }
views-their-move = { $name }さんの手番{ $deadline }
views-game-line = #{ $id } { $variant } 対 { $opponent }さん — { $turn }
views-games-head-me = あなたの対局（手番のものから）:
views-games-head-other = { $name }さんの対局（手番のものから）:
views-history-none = { $name }さんの終局した対局はまだありません。
views-history-head = { $name }さんの終局した対局（新しい順）:
views-result-won = 勝ち
views-result-lost = 負け
views-result-draw = 引き分け
views-history-line = #{ $id } { $variant } 対 { $opponent }さん — { $reason }で{ $outcome }、{ $moves }手、{ $time }
views-ply-range = 対局 #{ $id } は{ $moves }手です: 0 から { $moves } までの手数を指定してください
views-after = { $moves }手中{ $ply }手目の局面。
views-after-last = { $moves }手中{ $ply }手目の局面。最終手: { $last }。
views-button-back = ◀ 戻る
views-button-next = 次へ ▶
views-no-moves-yet = まだ指し手はありません。
views-replay-too-long = この対局は長すぎて、Discord に送れる大きさ（8 MiB まで）の再生画像を作れません。`record { $id }` で指し手を、`game { $id } N` で N 手目の局面を見られます。
views-replay = { $moves }手の再生です。
views-replay-sampled = 長い対局のため、{ $positions }局面のうち{ $frames }局面を等間隔に（最後の局面を含めて）表示します。
views-unknown-game = 「{ $name }」という将棋はありません: { $known } から選んでください
views-not-a-piece = 「{ $piece }」は{ $variant }の駒ではありません: `rules { $id }` で一覧を見られます
