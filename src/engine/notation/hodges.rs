//! Hodges notation, as English shogi texts write moves: piece letter (`+` in front when
//! promoted; Cannon Shogi's cannons `GC SC CC IC`; the Palace Shogi lion `Ln`), `-` for a move,
//! `x` for a capture, `*` for a drop, the target square, then `+` when the move promotes or `=`
//! when it could have promoted and did not. When two pieces of one kind can reach the square,
//! the start square follows the letter: `G6i-5h`.
//!
//! Palace Shogi additions: a lion double move names all three squares, `Ln5ex5d-5c` (capture on
//! 5d, then to 5c; `Ln5ex5dx5c` when it captures again, `Ln5ex5d-5e` for stationary feeding);
//! staring is `Ln5e-5e`; castling is written as the king's move, `K-7i`; a pawn that reaches
//! the last rank becomes a queen with no suffix (`+P-5a`).

use crate::engine::{Move, PieceKind, Position, Variant};

/// The human letter of a kind in this game.
pub fn piece_name(v: &Variant, kind: PieceKind) -> &'static str {
    v.letter(kind).map_or("?", |l| l.human)
}

/// Writes a move, which must be legal in `pos`, in Hodges notation.
pub fn write(pos: &Position, m: Move) -> String {
    write_in(pos, m, &super::Legal::new(pos, &pos.legal_moves()))
}

/// `write`, with the legal moves of `pos` already indexed.
pub(crate) fn write_in(pos: &Position, m: Move, legal: &super::Legal) -> String {
    let v = pos.variant();
    let sq = |s| v.square_name(s);
    let Some(from) = m.from() else {
        if let Move::Drop { kind, to } = m {
            return format!("{}*{}", piece_name(v, kind), sq(to));
        }
        return crate::engine::notation::code::write(v, m);
    };
    let Some(p) = pos.piece_at(from) else {
        return crate::engine::notation::code::write(v, m);
    };
    let name = piece_name(v, p.kind);
    let cap = |s| if pos.piece_at(s).is_some() { 'x' } else { '-' };
    match m {
        Move::Lion { via, to, .. } => {
            let second = if to != from && pos.piece_at(to).is_some() {
                'x'
            } else {
                '-'
            };
            return format!("{name}{}x{}{second}{}", sq(from), sq(via), sq(to));
        }
        Move::Board { to, .. } if to == from => return format!("{name}{}-{}", sq(from), sq(to)),
        _ => {}
    }
    let to = m.to();
    let ambiguous = legal.ambiguous(from, to, p.kind);
    let mut s = name.to_string();
    if ambiguous {
        s.push_str(&sq(from));
    }
    s.push(if matches!(m, Move::EnPassant { .. }) {
        'x'
    } else {
        cap(to)
    });
    s.push_str(&sq(to));
    if let Move::Board { promote, .. } = m {
        if promote {
            s.push('+');
        } else if legal.contains(&Move::Board {
            from,
            to,
            promote: true,
        }) {
            s.push('=');
        }
    }
    s
}
