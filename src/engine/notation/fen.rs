//! Position strings: `<board> <side> <hands> <move number>`, ranks from the top, upper case for
//! the first player, `+` before a promoted piece, digits for runs of empty squares, side `b` or
//! `w`, hands `-` or counts and letters (`2Pb`), move number = ply + 1. Standard Shogi positions
//! are exactly USI SFEN.
//!
//! Parsing checks the text and then the position (one king a side, no piece where it could never
//! move, no two pawns on a file, the side not to move not in check); every error says what is
//! wrong and where.

use thiserror::Error;

use crate::engine::geometry::{castle_color, CASTLE_SQUARES};
use crate::engine::piece::{Piece, PieceKind};
use crate::engine::{Color, Position, Square, Variant, VariantId};

/// Why a position string was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("a position string of this game has {expected} fields (board, side, hands, move number{}), this one has {found}", if *expected == 6 { ", castling, en passant" } else { "" })]
    FieldCount { expected: usize, found: usize },
    #[error("the board has {found} ranks separated by '/', {expected} expected")]
    RankCount { found: usize, expected: usize },
    #[error("rank {rank} (from the top) covers {found} squares, {expected} expected")]
    RankWidth {
        rank: usize,
        found: usize,
        expected: usize,
    },
    #[error("rank {rank} (from the top): '{letter}' is not a piece of this game")]
    UnknownPiece { rank: usize, letter: String },
    #[error("rank {rank} (from the top): '+' must be followed by a piece letter")]
    DanglingPlus { rank: usize },
    #[error("the side to move must be 'b' or 'w', not '{0}'")]
    Side(String),
    #[error("the hands field '{field}' is not valid: {why}")]
    Hands { field: String, why: String },
    #[error("the move number must be a whole number from 1 to 1000000000, not '{0}'")]
    MoveNumber(String),
    #[error("{side} has {count} kings; there must be exactly one")]
    KingCount { side: &'static str, count: usize },
    #[error("a {piece} on {square} could never move again")]
    DeadPiece { piece: &'static str, square: String },
    #[error("{side} has two unpromoted pawns on file {file}")]
    TwoPawns { side: &'static str, file: String },
    #[error("{side} is not to move but is in check")]
    SideNotToMoveInCheck { side: &'static str },
    #[error(
        "a {piece} may not stand on {square}: it never leaves its palace or its side of the river"
    )]
    Confined { piece: &'static str, square: String },
    #[error("the castling field '{field}' is not valid: {why}")]
    Castling { field: String, why: String },
    #[error("the en-passant field '{field}' is not valid: {why}")]
    EnPassant { field: String, why: String },
}

/// The largest move number a position string may give (far beyond any real game).
pub const MAX_MOVE_NUMBER: u32 = 1_000_000_000;

/// Writes the position string of a position.
impl Position {
    /// The start position of a variant (its position string, parsed).
    pub fn start(id: VariantId) -> Position {
        let v = Variant::get(id);
        parse(v, v.spec.start).expect("every variant's start position string is valid")
    }
}

/// A position shows as its position string.
impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", write(self))
    }
}

pub fn write(pos: &Position) -> String {
    let v = pos.variant();
    let mut s = String::with_capacity(96);
    for row in 0..v.ranks() {
        if row > 0 {
            s.push('/');
        }
        let mut run = 0;
        for col in 0..v.files() {
            match pos.piece_at(Square::new(col, row)) {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    s.push_str(&piece_letter(v, p));
                }
            }
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
    }
    s.push(' ');
    s.push(match pos.side_to_move() {
        Color::Black => 'b',
        Color::White => 'w',
    });
    s.push(' ');
    let mut hands = String::new();
    for c in Color::ALL {
        for &k in v.spec.pieces.hand_order {
            let n = pos.hand(c, k);
            if n == 0 {
                continue;
            }
            if n > 1 {
                hands.push_str(&n.to_string());
            }
            hands.push_str(&piece_letter(v, Piece::new(k, c)));
        }
    }
    if hands.is_empty() {
        hands.push('-');
    }
    s.push_str(&hands);
    s.push(' ');
    s.push_str(&pos.move_number().to_string());
    if v.spec.rights_fields {
        s.push(' ');
        let rights = pos.castling_rights();
        if rights == 0 {
            s.push('-');
        }
        for (bit, &sq) in CASTLE_SQUARES.iter().enumerate() {
            if rights & (1 << bit) != 0 {
                s.push_str(&v.square_name(sq));
            }
        }
        s.push(' ');
        match pos.en_passant() {
            Some(sq) => s.push_str(&v.square_name(sq)),
            None => s.push('-'),
        }
    }
    s
}

/// The letter of a piece in position strings (`P`, `+r`).
pub fn piece_letter(v: &Variant, p: Piece) -> String {
    let code = v.letter(p.kind).map_or("?", |l| l.code);
    match p.color {
        Color::Black => code.to_string(),
        Color::White => code.to_ascii_lowercase(),
    }
}

fn letter_kind(v: &Variant, s: &str) -> Option<Piece> {
    let kind = v.kind_by_code(s)?;
    let letter = s.trim_start_matches('+');
    let color = if letter.chars().all(|c| c.is_ascii_uppercase()) {
        Color::Black
    } else if letter.chars().all(|c| c.is_ascii_lowercase()) {
        Color::White
    } else {
        return None;
    };
    Some(Piece::new(kind, color))
}

/// Parses a position string of variant `v` into a checked position.
pub fn parse(v: &'static Variant, text: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let expected = if v.spec.rights_fields { 6 } else { 4 };
    if fields.len() != expected {
        return Err(FenError::FieldCount {
            expected,
            found: fields.len(),
        });
    }
    let mut pos = Position::empty(v);
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != v.ranks() as usize {
        return Err(FenError::RankCount {
            found: ranks.len(),
            expected: v.ranks() as usize,
        });
    }
    for (row, rank) in ranks.iter().enumerate() {
        // The whole rank's width first, so that an error gives it.
        let b = rank.as_bytes();
        if b.iter()
            .enumerate()
            .any(|(i, &c)| c == b'+' && !b.get(i + 1).is_some_and(u8::is_ascii_alphabetic))
        {
            return Err(FenError::DanglingPlus { rank: row + 1 });
        }
        if b.contains(&b'0') {
            return Err(FenError::UnknownPiece {
                rank: row + 1,
                letter: "0".into(),
            });
        }
        let width: usize = rank
            .chars()
            .filter(|&c| c != '+')
            .map(|c| c.to_digit(10).map_or(1, |d| d as usize))
            .sum();
        if width != v.files() as usize {
            return Err(FenError::RankWidth {
                rank: row + 1,
                found: width,
                expected: v.files() as usize,
            });
        }
        let mut col = 0usize;
        let mut chars = rank.chars().peekable();
        let width_err = |found| FenError::RankWidth {
            rank: row + 1,
            found,
            expected: v.files() as usize,
        };
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                // Runs of empty squares; two digits in a row would be ambiguous on a 9-wide board.
                col += d as usize;
                if d == 0 {
                    return Err(FenError::UnknownPiece {
                        rank: row + 1,
                        letter: "0".into(),
                    });
                }
                continue;
            }
            let mut letter = String::new();
            if ch == '+' {
                letter.push('+');
                match chars.next() {
                    Some(c) if c.is_ascii_alphabetic() => letter.push(c),
                    _ => return Err(FenError::DanglingPlus { rank: row + 1 }),
                }
            } else {
                letter.push(ch);
            }
            let piece = letter_kind(v, &letter).ok_or(FenError::UnknownPiece {
                rank: row + 1,
                letter: letter.clone(),
            })?;
            if col >= v.files() as usize {
                return Err(width_err(col + 1));
            }
            let sq = Square::new(col as u8, row as u8);
            pos.put(sq, piece.code());
            col += 1;
        }
        if col != v.files() as usize {
            return Err(width_err(col));
        }
    }
    let side = match fields[1] {
        "b" => Color::Black,
        "w" => Color::White,
        other => return Err(FenError::Side(other.to_string())),
    };
    pos.set_side(side);
    parse_hands(v, &mut pos, fields[2])?;
    let n: u32 = fields[3]
        .parse()
        .ok()
        .filter(|&n| (1..=MAX_MOVE_NUMBER).contains(&n))
        .ok_or_else(|| FenError::MoveNumber(fields[3].to_string()))?;
    pos.set_ply(n - 1);
    if v.spec.rights_fields {
        parse_castling(v, &mut pos, fields[4])?;
        parse_en_passant(v, &mut pos, fields[5])?;
    }
    validate(&pos)?;
    Ok(pos)
}

fn parse_castling(v: &Variant, pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let err = |why: String| FenError::Castling {
        field: field.to_string(),
        why,
    };
    if !field.len().is_multiple_of(2) || !field.is_ascii() {
        return Err(err(
            "it lists lance squares such as 9i1i9a1a, or is '-'".into()
        ));
    }
    let mut mask = 0u8;
    for i in (0..field.len()).step_by(2) {
        let name = &field[i..i + 2];
        let sq = v
            .parse_square(name)
            .ok_or_else(|| err(format!("'{name}' is not a square")))?;
        let bit = CASTLE_SQUARES
            .iter()
            .position(|&s| s == sq)
            .ok_or_else(|| {
                err(format!(
                    "{name} is not a lance's start square (9i, 1i, 9a, 1a)"
                ))
            })?;
        if mask & (1 << bit) != 0 {
            return Err(err(format!("{name} is listed twice")));
        }
        let c = castle_color(bit);
        let lance = Piece::new(PieceKind::Lance, c);
        if pos.piece_at(sq) != Some(lance) {
            return Err(err(format!(
                "there is no {} lance on {name}",
                v.side_name(c)
            )));
        }
        let king_home = if c == Color::Black {
            Square::new(4, 8)
        } else {
            Square::new(4, 0)
        };
        if pos.piece_at(king_home) != Some(Piece::new(PieceKind::King, c)) {
            return Err(err(format!(
                "the {} king is not on its start square {}",
                v.side_name(c),
                v.square_name(king_home)
            )));
        }
        mask |= 1 << bit;
    }
    pos.set_castling(mask);
    Ok(())
}

fn parse_en_passant(v: &Variant, pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let err = |why: String| FenError::EnPassant {
        field: field.to_string(),
        why,
    };
    let sq = v
        .parse_square(field)
        .ok_or_else(|| err("not a square".into()))?;
    let mover = !pos.side_to_move(); // the side whose pawn just made the double step
                                     // For Black the pawn went from rank g to rank e over rank f; for White from c to e over d.
    let (skipped_row, landed_row) = match mover {
        Color::Black => (5, 4),
        Color::White => (3, 4),
    };
    if sq.row() != skipped_row {
        return Err(err(format!(
            "after a {} double step the square passed over is on rank {}",
            v.side_name(mover),
            (b'a' + skipped_row) as char
        )));
    }
    let landed = Square::new(sq.col(), landed_row);
    if pos.piece_at(landed) != Some(Piece::new(PieceKind::PalacePawn, mover))
        || pos.piece_at(sq).is_some()
    {
        return Err(err(format!(
            "no {} pawn has just passed over it",
            v.side_name(mover)
        )));
    }
    let ready = [-1i16, 1].iter().any(|&dx| {
        pos.piece_at(landed.offset(dx)) == Some(Piece::new(PieceKind::PalacePawn, !mover))
    });
    if !ready {
        return Err(err(
            "no pawn stands ready to take en passant, so the field must be '-'".into(),
        ));
    }
    pos.set_ep(sq);
    Ok(())
}

fn parse_hands(v: &Variant, pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let err = |why: String| FenError::Hands {
        field: field.to_string(),
        why,
    };
    let mut count: Option<u32> = None;
    for ch in field.chars() {
        if let Some(d) = ch.to_digit(10) {
            let c = count.unwrap_or(0) * 10 + d;
            if c > 40 {
                return Err(err("a count above 40".into()));
            }
            count = Some(c);
            continue;
        }
        if ch == '+' {
            return Err(err(
                "pieces in hand are never promoted: write their unpromoted letter (P, not +P)"
                    .into(),
            ));
        }
        let piece = letter_kind(v, &ch.to_string())
            .ok_or_else(|| err(format!("'{ch}' is not a piece of this game")))?;
        if piece.kind.is_royal()
            || v.letter(piece.kind)
                .is_some_and(|l| l.code.starts_with('+'))
        {
            return Err(err(format!(
                "a {} cannot be held in hand",
                piece.kind.name()
            )));
        }
        if !v.spec.drops.enabled || !v.spec.pieces.hand_order.contains(&piece.kind) {
            return Err(err(format!(
                "a {} cannot be held in hand",
                piece.kind.name()
            )));
        }
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(err("a count of 0".into()));
        }
        let total = pos.hand(piece.color, piece.kind) as u32 + n;
        if total > 40 {
            return Err(err("a count above 40".into()));
        }
        pos.set_hand(piece.color, piece.kind, total as u8);
    }
    if count.is_some() {
        return Err(err("a count with no piece after it".into()));
    }
    Ok(())
}

/// Checks what makes a setup a playable position.
pub(crate) fn validate(pos: &Position) -> Result<(), FenError> {
    let v = pos.variant();
    for c in Color::ALL {
        let count = pos
            .pieces()
            .filter(|(_, p)| p.kind.is_royal() && p.color == c)
            .count();
        if count != 1 {
            return Err(FenError::KingCount {
                side: v.side_name(c),
                count,
            });
        }
    }
    for (sq, p) in pos.pieces() {
        if v.t.confined && !v.t.allowed[p.code() as usize][sq.index()] {
            return Err(FenError::Confined {
                piece: p.kind.name(),
                square: v.square_name(sq),
            });
        }
        if v.is_dead_square(p, sq) {
            return Err(FenError::DeadPiece {
                piece: p.kind.name(),
                square: v.square_name(sq),
            });
        }
    }
    // Two pawns on a file cannot arise from moves where pawns only step forward; Cannon Shogi's
    // pawns step sideways, and the texts forbid doubling them only by a drop.
    let forward_only = |k: PieceKind| matches!(k.atoms(), [crate::engine::Atom::Leap(offs, _)] if offs.iter().all(|&(dx, _)| dx == 0));
    if let Some(pawn) = v
        .spec
        .drops
        .pawn
        .filter(|&p| v.spec.drops.pawn_file_ranks >= v.ranks() && forward_only(p))
    {
        for c in Color::ALL {
            let mut seen = 0u16;
            for (sq, p) in pos.pieces() {
                if p.kind == pawn && p.color == c {
                    if seen & (1 << sq.col()) != 0 {
                        let name = v.square_name(sq);
                        return Err(FenError::TwoPawns {
                            side: v.side_name(c),
                            file: name[..name.len() - 1].to_string(),
                        });
                    }
                    seen |= 1 << sq.col();
                }
            }
        }
    }
    let waiting = !pos.side_to_move();
    if pos.is_in_check(waiting) {
        return Err(FenError::SideNotToMoveInCheck {
            side: v.side_name(waiting),
        });
    }
    Ok(())
}
