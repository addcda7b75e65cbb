# コンピューターとの対局と、対局の解析（src/service/computer.rs）。

computer-bad-level = レベル { $level } はありません: 1（初心者）から 5（最強）までを選んでください
computer-casual-only = { $name }との対局はレーティング対象外です: `rated` を外してください
computer-too-many = { $name }との対局がすでに { $count } 局進行中です（{ $games }）。同時にできるのはここまでです: どれかを終えるか投了してください
computer-game-begins = 対局 #{ $id } 開始: { $black }（{ $black_side }）対 { $white }（{ $white_side }）、{ $computer }はレベル { $level }、レーティング対象外、{ $player }の{ $clock }。{ $first }の手番です。
computer-no-offers = { $name }は申し出に応じません: 指し続けるか、投了してください
computer-analysis-active = 対局 #{ $id } はまだ対局中です: 解析は終局した対局だけです
computer-analysis-empty = 対局 #{ $id } には解析する指し手がありません
computer-analysis-running = 対局 #{ $id } はすでに解析中です。終わりしだいグラフをお送りします。
computer-analysis-queued = 対局 #{ $id } の解析は順番待ちです（{ $position } 番目）。終わりしだいグラフをお送りします。
computer-replay-queued = 対局 #{ $id } のリプレイは順番待ちです（{ $position } 番目）。できしだいお送りします。
computer-long-queued = 順番待ちです（{ $position } 番目）。できしだいお送りします。
computer-long-yours = 解析かリプレイがすでに { $count } 件、順番待ちか処理中です。終わってからもう一度お試しください。
computer-long-full = 解析とリプレイがすでに { $count } 件待っています。数分後にもう一度お試しください。
computer-chart-title = 対局 #{ $id }、{ $variant }: 評価値
computer-analysis-head = 対局 #{ $id }: 一手ごとの評価値（{ $first }から見た値。中央より上なら{ $first }が優勢）。
computer-analysis-cut = 長い対局のため、解析は時間制限で { $total } 手中の最初の { $analysed } 手で止まりました。グラフと悪手はその範囲のものです。
computer-analysis-calm = 大きく損をした手はありません。
computer-analysis-swings = 評価値が大きく動いた手:
computer-swing = { $number } { $played } で { $loss } 点の損
computer-swing-better = { $number } { $played } で { $loss } 点の損。{ $number } { $better } が優りました
