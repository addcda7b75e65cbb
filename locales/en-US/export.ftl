# Exports for other software (src/service/export.rs). The records themselves are file formats
# (SFEN, KIF, CSA, FEN) and are not translated.

export-shogi-only = { $format } export is for Shogi only; use sfen
export-fen-only = fen export is for Shogi and Judkins Shogi (Fairy-Stockfish); use sfen
export-unknown-format = unknown export format '{ $format }': sfen, kif, csa or fen
