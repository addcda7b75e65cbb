# 他のソフト向けの書き出し（src/service/export.rs）。棋譜そのもの（SFEN、KIF、CSA、FEN）は形式なので訳さない。

export-shogi-only = { $format } の書き出しは将棋だけです。sfen を使ってください
export-fen-only = fen の書き出しは将棋とジャドキンス将棋だけです（Fairy-Stockfish 用）。sfen を使ってください
export-unknown-format = 「{ $format }」という書き出し形式はありません: sfen、kif、csa、fen から選んでください
