# 画像の文字（src/render）: 対局者の帯、評価値グラフ。

render-to-move = 手番
render-to-move-check = 手番・王手
render-no-hand = 持駒なし
render-chart-move = 手数
render-chart-points = 評価値
render-chart-better = { $name }優勢
