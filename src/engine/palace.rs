//! The Palace Shogi hooks: what the piece tables cannot say. Palaces and corridors, the queen's
//! walls, the lion, the pawn's double step and en passant, corridor moves of footsoldiers,
//! cannons and dragons, castling, and the attacks that come from them.
//!
//! Move generation calls `extra_moves` for kinds marked `Special` in the tables; the attack
//! test (`attacks.rs`) calls `queen_reaches` and `special_attack`; the legality test checks
//! castling's squares. The palaces themselves are data (`geometry.rs`). Nothing else in the
//! engine knows of palaces.

use crate::engine::color::Color;
use crate::engine::geometry::{castle_color, CASTLE_SQUARES};
use crate::engine::moves::Move;
use crate::engine::piece::{code_color, is_piece, Piece, PieceKind, EMPTY, LION, WALL};
use crate::engine::position::{Position, NO_SQUARE};
use crate::engine::square::{delta, forward, Square, DIRS8};

const DIAGONALS: [i16; 4] = [DIRS8[4], DIRS8[5], DIRS8[6], DIRS8[7]];

/// Whether a queen of colour `by` on `q`, moving along `step`, reaches `target` (the first
/// piece in that direction from `target`, so the squares between are empty): inside her own
/// palace only a diagonal step; outside, a slide that may end on, but not pass, a square of
/// her own palace.
pub(crate) fn queen_reaches(
    pos: &Position,
    q: usize,
    target: usize,
    step: isize,
    by: usize,
) -> bool {
    let geo = pos
        .v
        .t
        .palace
        .as_ref()
        .expect("queen walls only in Palace Shogi");
    let own = &geo.own[by];
    if own[q] {
        return (q as isize + step) as usize == target && DIAGONALS.contains(&(step as i16));
    }
    let mut s = q as isize + step;
    while s as usize != target {
        if own[s as usize] {
            return false;
        }
        s += step;
    }
    true
}

/// Attacks the generic tables miss: the corridor moves of footsoldiers, dragons and cannons in
/// the attacker's enemy palace.
pub(crate) fn special_attack(pos: &Position, sq: Square, by: Color) -> bool {
    let t = &pos.v.t;
    let geo = t
        .palace
        .as_ref()
        .expect("palace hooks only in Palace Shogi");
    let byi = by.index();
    if !geo.enemy_corridor(byi, sq) {
        return false;
    }
    let b = &pos.board;
    let fs = Piece::new(PieceKind::Footsoldier, by).code();
    for dx in [-1i8, 1] {
        let d = turn(by, dx, 1);
        let a = sq.offset(-d);
        if b[a.index()] == fs && geo.enemy_corridor(byi, a) {
            return true;
        }
    }
    let centre = geo.centre[1 - byi];
    if sq != centre {
        let opp = Square((2 * centre.index() - sq.index()) as u8);
        let dragon = Piece::new(PieceKind::PalaceDragon, by).code();
        let cannon = Piece::new(PieceKind::PalaceCannon, by).code();
        let mid = b[centre.index()];
        if mid == EMPTY && b[opp.index()] == dragon {
            return true;
        }
        if is_piece(mid) && !t.hop_excluded[mid as usize] && b[opp.index()] == cannon {
            return true;
        }
    }
    false
}

#[inline]
fn turn(c: Color, dx: i8, dy: i8) -> i16 {
    match c {
        Color::Black => delta(dx, dy),
        Color::White => -delta(dx, dy),
    }
}

impl Position {
    /// The hook's moves for the piece `code` on `from` (see `Special`).
    pub(crate) fn extra_moves(
        &self,
        from: Square,
        code: u8,
        lion_present: bool,
        out: &mut Vec<Move>,
    ) {
        let t = &self.v.t;
        let Some(geo) = t.palace.as_ref() else {
            return;
        };
        let Some(p) = Piece::from_code(code) else {
            return;
        };
        let us = p.color.index();
        let b = &self.board;
        let enemy = |c: u8| is_piece(c) && code_color(c) != us;
        match p.kind {
            PieceKind::Queen => {
                let own = &geo.own[us];
                if own[from.index()] {
                    for d in DIAGONALS {
                        let to = from.offset(d);
                        let c = b[to.index()];
                        if c == EMPTY || enemy(c) {
                            t.push_board(out, from, to, code, lion_present);
                        }
                    }
                } else {
                    for d in DIRS8 {
                        let mut to = from.offset(d);
                        loop {
                            let c = b[to.index()];
                            if c == WALL || (is_piece(c) && !enemy(c)) {
                                break;
                            }
                            t.push_board(out, from, to, code, lion_present);
                            if c != EMPTY || own[to.index()] {
                                break;
                            }
                            to = to.offset(d);
                        }
                    }
                }
            }
            PieceKind::Lion => {
                let enemy_lion = Piece::new(PieceKind::Lion, !p.color).code();
                let takes = |c: u8| enemy(c) && c != enemy_lion;
                for &(dx, dy) in LION {
                    let to = from.offset(delta(dx, dy));
                    let c = b[to.index()];
                    if c == EMPTY || takes(c) {
                        out.push(Move::Board {
                            from,
                            to,
                            promote: false,
                        });
                    }
                }
                let mut can_stare = false;
                for d1 in DIRS8 {
                    let via = from.offset(d1);
                    let c = b[via.index()];
                    can_stare |= c == EMPTY;
                    if !takes(c) {
                        continue;
                    }
                    for d2 in DIRS8 {
                        let to = via.offset(d2);
                        let c2 = b[to.index()];
                        if to == from || c2 == EMPTY || takes(c2) {
                            out.push(Move::Lion { from, via, to });
                        }
                    }
                }
                if can_stare {
                    out.push(Move::Board {
                        from,
                        to: from,
                        promote: false,
                    });
                }
            }
            PieceKind::PalacePawn => {
                let f = forward(p.color);
                if t.far_row[us][from.index()] == 6 {
                    let one = from.offset(f);
                    let two = one.offset(f);
                    if b[one.index()] == EMPTY && b[two.index()] == EMPTY {
                        out.push(Move::Board {
                            from,
                            to: two,
                            promote: false,
                        });
                    }
                }
                if self.ep != NO_SQUARE
                    && (self.ep == from.offset(f + 1) || self.ep == from.offset(f - 1))
                {
                    out.push(Move::EnPassant { from, to: self.ep });
                }
            }
            PieceKind::Footsoldier if geo.enemy_corridor(us, from) => {
                for dx in [-1i8, 1] {
                    let to = from.offset(turn(p.color, dx, 1));
                    let c = b[to.index()];
                    if geo.enemy_corridor(us, to) && (c == EMPTY || enemy(c)) {
                        out.push(Move::Board {
                            from,
                            to,
                            promote: false,
                        });
                    }
                }
            }
            PieceKind::PalaceCannon if geo.enemy_corridor(us, from) => {
                for d in DIAGONALS {
                    let mut to = from.offset(d);
                    while geo.enemy_corridor(us, to) && b[to.index()] == EMPTY {
                        out.push(Move::Board {
                            from,
                            to,
                            promote: false,
                        });
                        to = to.offset(d);
                    }
                }
                let centre = geo.centre[1 - us];
                if from != centre {
                    let opp = Square((2 * centre.index() - from.index()) as u8);
                    let mid = b[centre.index()];
                    let target = b[opp.index()];
                    if is_piece(mid)
                        && !t.hop_excluded[mid as usize]
                        && enemy(target)
                        && !t.hop_excluded[target as usize]
                    {
                        out.push(Move::Board {
                            from,
                            to: opp,
                            promote: false,
                        });
                    }
                }
            }
            PieceKind::PalaceDragon => {
                // Beyond the dragon's own diagonal step: corner to opposite corner over an
                // empty centre.
                let centre = geo.centre[1 - us];
                if geo.enemy_corridor(us, from) && from != centre && b[centre.index()] == EMPTY {
                    let opp = Square((2 * centre.index() - from.index()) as u8);
                    let c = b[opp.index()];
                    if c == EMPTY || enemy(c) {
                        out.push(Move::Board {
                            from,
                            to: opp,
                            promote: false,
                        });
                    }
                }
            }
            PieceKind::King => self.castling_moves(from, p.color, out),
            _ => {}
        }
    }

    /// Castling moves of the king on `from`, when the rights allow and the way is clear. Whether
    /// the king is in check or crosses or lands on an attacked square is the legality test's
    /// (`movegen.rs`), which knows attacks.
    fn castling_moves(&self, from: Square, c: Color, out: &mut Vec<Move>) {
        if self.castling == 0 {
            return;
        }
        for (bit, &lance) in CASTLE_SQUARES.iter().enumerate() {
            if self.castling & (1 << bit) == 0 || castle_color(bit) != c {
                continue;
            }
            let step: i16 = if lance.col() < from.col() { -1 } else { 1 };
            let mut s = from.offset(step);
            let mut clear = true;
            while s != lance {
                clear &= self.board[s.index()] == EMPTY;
                s = s.offset(step);
            }
            if clear {
                out.push(Move::Castle {
                    from,
                    to: from.offset(2 * step),
                });
            }
        }
    }
}

/// The side whose king stands in the enemy palace (Palace Shogi's entering king), if any.
pub(crate) fn entered_king(p: &Position) -> Option<Color> {
    let geo = p.v.t.palace.as_ref()?;
    // The side that just moved first: it is the one that can have entered.
    [!p.side_to_move(), p.side_to_move()]
        .into_iter()
        .find(|&c| p.king(c).is_some_and(|k| geo.own[(!c).index()][k.index()]))
}
