# The pictures' words (src/render): the name strip, the evaluation chart.

render-to-move = to move
render-to-move-check = to move · check
render-no-hand = no pieces in hand
render-chart-move = move
render-chart-points = points
render-chart-better = { $name } better
