//! Move codes: the machine form of a move (`7g7f`, `2c2b+`, `P*5e`), one per move, ASCII, no
//! spaces. Drops use the position-string letter of the unpromoted piece, upper case.

use crate::engine::{Move, Position, Variant};

/// The code of a move.
pub fn write(v: &Variant, m: Move) -> String {
    match m {
        Move::Board { from, to, promote } => {
            let mut s = v.square_name(from);
            s.push_str(&v.square_name(to));
            if promote {
                s.push('+');
            }
            s
        }
        Move::Drop { kind, to } => {
            let letter = v.letter(kind).map_or("?", |l| l.code);
            format!("{}*{}", letter, v.square_name(to))
        }
    }
}

/// Reads a move code. This only reads the text: whether the move can be played is the position's
/// business (`Position::check_move`). Numeric ranks (`7776`) are read too.
pub fn parse(pos: &Position, s: &str) -> Option<Move> {
    let v = pos.variant();
    let s = s.trim();
    if let Some((letter, sq)) = s.split_once('*') {
        let kind = v.kind_by_code(&letter.to_ascii_uppercase())?;
        if letter.starts_with('+') {
            return None;
        }
        let to = v.parse_square(sq)?;
        return Some(Move::Drop { kind, to });
    }
    let (body, promote) = match s.strip_suffix('+') {
        Some(b) => (b, true),
        None => (s, false),
    };
    if body.len() != 4 || !body.is_ascii() {
        return None;
    }
    let from = v.parse_square(&body[..2])?;
    let to = v.parse_square(&body[2..])?;
    Some(Move::Board { from, to, promote })
}
