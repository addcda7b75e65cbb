//! Move codes: the machine form of a move (`7g7f`, `2c2b+`, `P*5e`; the Palace Shogi lion's
//! `5e5d5c`; castling as the king's `5i7i`), one per move, ASCII, no spaces. Drops use the
//! position-string letter of the unpromoted piece, upper case.

use crate::engine::piece::PieceKind;
use crate::engine::{Move, Position, Variant};

/// The code of a move.
pub fn write(v: &Variant, m: Move) -> String {
    let sq = |s| v.square_name(s);
    match m {
        Move::Board { from, to, promote } => {
            format!("{}{}{}", sq(from), sq(to), if promote { "+" } else { "" })
        }
        Move::Drop { kind, to } => {
            let letter = v.letter(kind).map_or("?", |l| l.code);
            format!("{}*{}", letter, sq(to))
        }
        Move::Lion { from, via, to } => format!("{}{}{}", sq(from), sq(via), sq(to)),
        Move::Castle { from, to } | Move::EnPassant { from, to } => {
            format!("{}{}", sq(from), sq(to))
        }
        Move::PromoteTo { from, to, kind } => {
            let letter = v.letter(kind).map_or("?", |l| l.code);
            format!("{}{}{}", sq(from), sq(to), letter.to_ascii_lowercase())
        }
    }
}

/// Reads a move code. This only reads the text: whether the move can be played is the position's
/// business (`Position::check_move`), which also needs the position to tell a castling or an
/// en-passant capture from a plain move. Numeric ranks (`7776`) are read too.
pub fn parse(pos: &Position, s: &str) -> Option<Move> {
    let v = pos.variant();
    let s = s.trim();
    if let Some((letter, sq)) = s.split_once('*') {
        if letter.starts_with('+') {
            return None;
        }
        let kind = v.kind_by_code(&letter.to_ascii_uppercase())?;
        let to = v.parse_square(sq)?;
        return Some(Move::Drop { kind, to });
    }
    let (body, promote) = match s.strip_suffix('+') {
        Some(b) => (b, true),
        None => (s, false),
    };
    if !body.is_ascii() {
        return None;
    }
    match body.len() {
        4 => {
            let from = v.parse_square(&body[..2])?;
            let to = v.parse_square(&body[2..])?;
            let piece = pos.piece_at(from).map(|p| p.kind);
            if !promote && v.spec.rights_fields {
                let sideways_two = from.row() == to.row() && from.col().abs_diff(to.col()) == 2;
                if piece == Some(PieceKind::King) && sideways_two {
                    return Some(Move::Castle { from, to });
                }
                let diagonal =
                    from.col().abs_diff(to.col()) == 1 && from.row().abs_diff(to.row()) == 1;
                if piece == Some(PieceKind::PalacePawn) && diagonal && pos.en_passant() == Some(to)
                {
                    return Some(Move::EnPassant { from, to });
                }
            }
            Some(Move::Board { from, to, promote })
        }
        5 if !promote && body.as_bytes()[4].is_ascii_alphabetic() => {
            let from = v.parse_square(&body[..2])?;
            let to = v.parse_square(&body[2..4])?;
            let kind = v.kind_by_code(&body[4..].to_ascii_uppercase())?;
            Some(Move::PromoteTo { from, to, kind })
        }
        6 if !promote && v.has_kind(PieceKind::Lion) => {
            let from = v.parse_square(&body[..2])?;
            let via = v.parse_square(&body[2..4])?;
            let to = v.parse_square(&body[4..])?;
            Some(Move::Lion { from, via, to })
        }
        _ => None,
    }
}
