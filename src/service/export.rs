//! Game exports for other software: SFEN with moves (every game), KIF and CSA (Shogi), and a
//! Fairy-Stockfish / pychess FEN (Shogi and Judkins Shogi).

use crate::engine::notation::{code, fen};
use crate::engine::{Color, Game, Move, Piece, PieceKind, Position, Square, VariantId};

/// The export of a game in `format`, or why it cannot be made.
pub fn export(game: &Game, format: &str, names: &[String; 2]) -> Result<String, String> {
    let v = game.variant();
    match format {
        "sfen" | "usi" => Ok(sfen(game)),
        "kif" if v.id() == VariantId::Shogi => Ok(kif(game, names)),
        "csa" if v.id() == VariantId::Shogi => Ok(csa(game, names)),
        "fen" if matches!(v.id(), VariantId::Shogi | VariantId::Judkins) => {
            Ok(fsf_fen(game.position()))
        }
        "kif" | "csa" => Err(format!("{format} export is for Shogi only; use sfen")),
        "fen" => {
            Err("fen export is for Shogi and Judkins Shogi (Fairy-Stockfish); use sfen".into())
        }
        other => Err(format!(
            "unknown export format '{other}': sfen, kif, csa or fen"
        )),
    }
}

/// `position sfen <start> moves <codes>`, as USI engines read it.
pub fn sfen(game: &Game) -> String {
    let v = game.variant();
    let mut s = format!("position sfen {}", fen::write(game.start()));
    if !game.moves().is_empty() {
        s.push_str(" moves");
        for &m in game.moves() {
            s.push(' ');
            s.push_str(&code::write(v, m));
        }
    }
    s
}

/// A Fairy-Stockfish FEN: board with `[hands]`, side `w` for the first player (FSF's "white" is
/// sente), halfmove clock 0, full move number.
pub fn fsf_fen(pos: &Position) -> String {
    let s = fen::write(pos);
    let mut parts = s.split(' ');
    let board = parts.next().unwrap_or_default();
    let _side = parts.next();
    let hands = parts.next().unwrap_or("-");
    let side = if pos.side_to_move() == Color::Black {
        "w"
    } else {
        "b"
    };
    format!(
        "{board}[{}] {side} 0 {}",
        if hands == "-" { "-" } else { hands },
        pos.ply() / 2 + 1
    )
}

const KIF_DIGITS: [&str; 10] = ["", "１", "２", "３", "４", "５", "６", "７", "８", "９"];
const KIF_RANKS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

fn kif_piece(k: PieceKind) -> &'static str {
    use PieceKind::*;
    match k {
        Pawn => "歩",
        Lance => "香",
        Knight => "桂",
        Silver => "銀",
        Gold => "金",
        Bishop => "角",
        Rook => "飛",
        King => "玉",
        Tokin => "と",
        PromotedLance => "成香",
        PromotedKnight => "成桂",
        PromotedSilver => "成銀",
        Horse => "馬",
        Dragon => "龍",
        _ => "？",
    }
}

fn file_rank(sq: Square) -> (usize, usize) {
    (9 - sq.col() as usize, sq.row() as usize + 1)
}

/// KIF, the Japanese record format (Shogi).
pub fn kif(game: &Game, names: &[String; 2]) -> String {
    let mut out = String::from("# KIF exported by Tegami\n");
    let start = game.start();
    if fen::write(start) == start.variant().spec.start {
        out.push_str("手合割：平手\n");
    } else {
        out.push_str(&format!("# 開始局面 SFEN: {}\n", fen::write(start)));
    }
    out.push_str(&format!("先手：{}\n後手：{}\n", names[0], names[1]));
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = start.clone();
    let mut last_to: Option<Square> = None;
    for (i, &m) in game.moves().iter().enumerate() {
        let text = match m {
            Move::Drop { kind, to } => {
                let (f, r) = file_rank(to);
                format!("{}{}{}打", KIF_DIGITS[f], KIF_RANKS[r], kif_piece(kind))
            }
            Move::Board { from, to, promote } => {
                let piece = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                let (f, r) = file_rank(to);
                let (ff, fr) = file_rank(from);
                let dest = if last_to == Some(to) {
                    "同　".to_string()
                } else {
                    format!("{}{}", KIF_DIGITS[f], KIF_RANKS[r])
                };
                format!(
                    "{dest}{}{}({ff}{fr})",
                    kif_piece(piece),
                    if promote { "成" } else { "" }
                )
            }
            _ => code::write(pos.variant(), m),
        };
        out.push_str(&format!("{:>4} {}\n", i + 1, text));
        last_to = Some(m.to());
        pos.make(m);
    }
    if let Some(o) = game.outcome() {
        let n = game.moves().len() + 1;
        let word = match o.reason() {
            crate::engine::Reason::Checkmate => "詰み",
            crate::engine::Reason::Resignation => "投了",
            crate::engine::Reason::Repetition => "千日手",
            _ => "中断",
        };
        out.push_str(&format!("{n:>4} {word}\n"));
    }
    out
}

fn csa_piece(k: PieceKind) -> &'static str {
    use PieceKind::*;
    match k {
        Pawn => "FU",
        Lance => "KY",
        Knight => "KE",
        Silver => "GI",
        Gold => "KI",
        Bishop => "KA",
        Rook => "HI",
        King => "OU",
        Tokin => "TO",
        PromotedLance => "NY",
        PromotedKnight => "NK",
        PromotedSilver => "NG",
        Horse => "UM",
        Dragon => "RY",
        _ => "??",
    }
}

/// CSA, the computer shogi format (Shogi).
pub fn csa(game: &Game, names: &[String; 2]) -> String {
    let mut out = format!("V2.2\nN+{}\nN-{}\n", names[0], names[1]);
    let start = game.start();
    for row in 0..9u8 {
        out.push_str(&format!("P{}", row + 1));
        for col in 0..9u8 {
            match start.piece_at(Square::new(col, row)) {
                Some(Piece { kind, color }) => {
                    out.push(if color == Color::Black { '+' } else { '-' });
                    out.push_str(csa_piece(kind));
                }
                None => out.push_str(" * "),
            }
        }
        out.push('\n');
    }
    for (c, sign) in [(Color::Black, '+'), (Color::White, '-')] {
        let mut line = String::new();
        for &k in start.variant().spec.pieces.hand_order {
            for _ in 0..start.hand(c, k) {
                line.push_str(&format!("00{}", csa_piece(k)));
            }
        }
        if !line.is_empty() {
            out.push_str(&format!("P{sign}{line}\n"));
        }
    }
    out.push(if start.side_to_move() == Color::Black {
        '+'
    } else {
        '-'
    });
    out.push('\n');
    let mut pos = start.clone();
    for &m in game.moves() {
        let sign = if pos.side_to_move() == Color::Black {
            '+'
        } else {
            '-'
        };
        let text = match m {
            Move::Drop { kind, to } => {
                let (f, r) = file_rank(to);
                format!("{sign}00{f}{r}{}", csa_piece(kind))
            }
            Move::Board { from, to, promote } => {
                let piece = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                let after = if promote {
                    pos.variant()
                        .spec
                        .promotion
                        .pairs
                        .iter()
                        .find(|(k, _)| *k == piece)
                        .map_or(piece, |(_, p)| *p)
                } else {
                    piece
                };
                let (f, r) = file_rank(to);
                let (ff, fr) = file_rank(from);
                format!("{sign}{ff}{fr}{f}{r}{}", csa_piece(after))
            }
            _ => code::write(pos.variant(), m),
        };
        out.push_str(&text);
        out.push('\n');
        pos.make(m);
    }
    if let Some(o) = game.outcome() {
        out.push_str(match o.reason() {
            crate::engine::Reason::Resignation => "%TORYO\n",
            crate::engine::Reason::Repetition => "%SENNICHITE\n",
            crate::engine::Reason::Checkmate => "%TSUMI\n",
            _ => "%CHUDAN\n",
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::input::parse_move;

    fn game(id: VariantId, moves: &str) -> Game {
        let mut g = Game::new(Position::start(id));
        for t in moves.split_whitespace() {
            let m = parse_move(g.position(), t).unwrap();
            g.play(m).unwrap();
        }
        g
    }

    const NAMES: [String; 2] = [String::new(), String::new()];

    #[test]
    fn sfen_export_lists_the_start_and_every_move_code() {
        let g = game(VariantId::Palace, "5g5f 5c5e");
        assert_eq!(
            sfen(&g),
            "position sfen lns+sk+ssnl/1r2q2b1/+p+p+p+p+p+p+p+p+p/9/9/9/+P+P+P+P+P+P+P+P+P/1B2Q2R1/LNS+SK+SSNL b - 1 9i1i9a1a - moves 5g5f 5c5e"
        );
    }

    #[test]
    fn kif_writes_moves_captures_on_the_same_square_promotions_and_drops() {
        let g = game(VariantId::Shogi, "7g7f 3c3d 8h2b+ 3a2b B*4e");
        let kif = kif(&g, &NAMES);
        assert!(kif.contains("手合割：平手"), "{kif}");
        for line in [
            "   1 ７六歩(77)",
            "   2 ３四歩(33)",
            "   3 ２二角成(88)",
            "   4 同　銀(31)",
            "   5 ４五角打",
        ] {
            assert!(kif.contains(line), "{line} missing in\n{kif}");
        }
    }

    #[test]
    fn csa_writes_the_board_moves_with_the_piece_after_the_move_and_drops() {
        let g = game(VariantId::Shogi, "7g7f 3c3d 8h2b+ 3a2b B*4e");
        let csa = csa(&g, &NAMES);
        assert!(csa.starts_with("V2.2\n"));
        assert!(csa.contains("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"), "{csa}");
        for line in ["+7776FU", "-3334FU", "+8822UM", "-3122GI", "+0045KA"] {
            assert!(csa.lines().any(|l| l == line), "{line} missing in\n{csa}");
        }
    }

    #[test]
    fn fairy_stockfish_fen_has_bracketed_hands_and_white_for_the_first_player() {
        let start = fsf_fen(&Position::start(VariantId::Judkins));
        assert_eq!(start, "rbnsgk/5p/6/6/P5/KGSNBR[-] w 0 1");
        let g = game(VariantId::Shogi, "7g7f 3c3d 8h2b+ 3a2b");
        assert_eq!(
            fsf_fen(g.position()),
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bb] w 0 3"
        );
    }

    #[test]
    fn kif_and_csa_are_for_shogi_only_and_fen_for_shogi_and_judkins() {
        let palace = game(VariantId::Palace, "");
        assert!(export(&palace, "kif", &NAMES).is_err());
        assert!(export(&palace, "csa", &NAMES).is_err());
        assert!(export(&palace, "fen", &NAMES).is_err());
        assert!(export(&palace, "sfen", &NAMES).is_ok());
        assert!(export(&game(VariantId::Judkins, ""), "fen", &NAMES).is_ok());
        assert!(export(&palace, "pgn", &NAMES)
            .unwrap_err()
            .contains("unknown export format"));
    }
}
