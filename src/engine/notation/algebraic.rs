//! Algebraic notation for Shanghai Palace Chess, in the Western style: the piece's letter
//! (position-string letters: Western `Q R B N`, Chinese `K A E C Z`, Shogi `L H S D T F`,
//! promoted Shogi pieces `+F +L +H +S +D +T`), `x` for a capture, the target square: `Nf4`,
//! `Cxe7`, `Fh5+` (a Shogi piece promoting; `=` when it could and did not). A Western pawn is
//! written without letter (`e4`, `dxe5`) and its promotion with `=`: `c9=Q`. Drops: `S*e5`.
//! When two pieces of one kind can reach the square, the start square is given in full, with
//! `-` or `x`: `Ne2-f4`, `Rb2xb7`. The two knights, bishops, rooks and pawns of the three
//! families are told apart by their letters: `N`/`H`, `B`/`D`, `R`/`T`, `P`/`Z`/`F`.

use crate::engine::{Move, PieceKind, Position};

/// Writes a move, which must be legal in `pos`, in algebraic notation.
pub fn write(pos: &Position, m: Move) -> String {
    write_in(pos, m, &super::Legal::new(pos, &pos.legal_moves()))
}

/// `write`, with the legal moves of `pos` already indexed.
pub(crate) fn write_in(pos: &Position, m: Move, legal: &super::Legal) -> String {
    let v = pos.variant();
    let sq = |s| v.square_name(s);
    let letter = |k: PieceKind| v.letter(k).map_or("?", |l| l.human);
    let Some(from) = m.from() else {
        if let Move::Drop { kind, to } = m {
            return format!("{}*{}", letter(kind), sq(to));
        }
        return crate::engine::notation::code::write(v, m);
    };
    let Some(p) = pos.piece_at(from) else {
        return crate::engine::notation::code::write(v, m);
    };
    let to = m.to();
    let capture = pos.piece_at(to).is_some();
    let x = if capture { "x" } else { "" };
    if p.kind == PieceKind::WesternPawn {
        let file = &sq(from)[..1];
        let mut s = if capture {
            format!("{file}x{}", sq(to))
        } else {
            sq(to)
        };
        if let Move::PromoteTo { kind, .. } = m {
            s.push('=');
            s.push_str(letter(kind));
        }
        return s;
    }
    let ambiguous = legal.ambiguous(from, to, p.kind);
    let mut s = letter(p.kind).to_string();
    if ambiguous {
        s.push_str(&sq(from));
        s.push_str(if capture { "x" } else { "-" });
    } else {
        s.push_str(x);
    }
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
