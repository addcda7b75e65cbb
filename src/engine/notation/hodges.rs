//! Hodges notation, as English shogi texts write moves: piece letter (`+` in front when
//! promoted; Cannon Shogi's cannons `GC SC CC IC`), `-` for a move, `x` for a capture, `*` for a
//! drop, the target square, then `+` when the move promotes or `=` when it could have promoted
//! and did not. When two pieces of one kind can reach the square, the start square follows the
//! letter: `G6i-5h`.

use crate::engine::{Move, Position, Variant};

/// The human letter of a kind in this game.
pub fn piece_name(v: &Variant, kind: crate::engine::PieceKind) -> &'static str {
    v.letter(kind).map_or("?", |l| l.human)
}

/// Writes a move, which must be legal in `pos`, in Hodges notation.
pub fn write(pos: &Position, m: Move) -> String {
    let v = pos.variant();
    match m {
        Move::Drop { kind, to } => format!("{}*{}", piece_name(v, kind), v.square_name(to)),
        Move::Board { from, to, promote } => {
            let Some(p) = pos.piece_at(from) else {
                return crate::engine::notation::code::write(v, m);
            };
            let mut s = piece_name(v, p.kind).to_string();
            let legal = pos.legal_moves();
            let ambiguous = legal.iter().any(|&o| match o {
                Move::Board { from: f, to: t, .. } => {
                    t == to && f != from && pos.piece_at(f).is_some_and(|q| q.kind == p.kind)
                }
                Move::Drop { .. } => false,
            });
            if ambiguous {
                s.push_str(&v.square_name(from));
            }
            s.push(if pos.piece_at(to).is_some() { 'x' } else { '-' });
            s.push_str(&v.square_name(to));
            if promote {
                s.push('+');
            } else if legal.contains(&Move::Board {
                from,
                to,
                promote: true,
            }) {
                s.push('=');
            }
            s
        }
    }
}
