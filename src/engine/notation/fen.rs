//! Position strings: `<board> <side> <hands> <move number>`, ranks from the top, upper case for
//! the first player, `+` before a promoted piece, digits for runs of empty squares, side `b` or
//! `w`, hands `-` or counts and letters (`2Pb`), move number = ply + 1. Standard Shogi positions
//! are exactly USI SFEN.
//!
//! Parsing checks the text and then the position (one king a side, no piece where it could never
//! move, no two pawns on a file, the side not to move not in check); every error says what is
//! wrong and where.

use thiserror::Error;

use crate::engine::piece::{Piece, PieceKind};
use crate::engine::{Color, Position, Square, Variant};

/// Why a position string was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("a position string has {expected} fields (board, side, hands, move number), this one has {found}")]
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
    #[error("the move number must be a positive whole number, not '{0}'")]
    MoveNumber(String),
    #[error("{side} has {count} kings; there must be exactly one")]
    KingCount { side: &'static str, count: usize },
    #[error("a {piece} on {square} could never move again")]
    DeadPiece { piece: &'static str, square: String },
    #[error("{side} has two unpromoted pawns on file {file}")]
    TwoPawns { side: &'static str, file: String },
    #[error("{side} is not to move but is in check")]
    SideNotToMoveInCheck { side: &'static str },
}

/// Writes the position string of a position.
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
    if fields.len() != 4 {
        return Err(FenError::FieldCount {
            expected: 4,
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
        .filter(|&n| n >= 1)
        .ok_or_else(|| FenError::MoveNumber(fields[3].to_string()))?;
    pos.set_ply(n - 1);
    validate(&pos)?;
    Ok(pos)
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
        let piece = letter_kind(v, &ch.to_string())
            .ok_or_else(|| err(format!("'{ch}' is not a piece of this game")))?;
        if piece.kind == PieceKind::King
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
            .filter(|(_, p)| p.kind == PieceKind::King && p.color == c)
            .count();
        if count != 1 {
            return Err(FenError::KingCount {
                side: v.side_name(c),
                count,
            });
        }
    }
    for (sq, p) in pos.pieces() {
        if v.is_dead_square(p, sq) {
            return Err(FenError::DeadPiece {
                piece: p.kind.name(),
                square: v.square_name(sq),
            });
        }
    }
    if let Some(pawn) = v.spec.drops.pawn {
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
