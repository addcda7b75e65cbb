//! The Palace Shogi hooks: what the piece tables cannot say. Palaces and corridors, the queen's
//! walls, the lion, the pawn's double step and en passant, corridor moves of footsoldiers,
//! cannons and dragons, castling, and the attacks that come from them.
//!
//! Move generation calls `extra_moves` for kinds marked `Special` in the tables; the attack
//! test calls `queen_reaches` and `special_attack`. Nothing else in the engine knows of palaces.

use crate::engine::movegen::forward;
use crate::engine::piece::{code_color, is_piece, Piece, PieceKind, EMPTY, LION, WALL};
use crate::engine::position::NO_SQUARE;
use crate::engine::square::{delta, Square, CELLS, DIRS8};
use crate::engine::{Color, Move, Position};

/// Palaces and corridors of a 9x9 board.
#[derive(Clone, Debug)]
pub(crate) struct PalaceGeometry {
    /// `own[c][sq]`: `sq` is in `c`'s own palace.
    pub own: [[bool; CELLS]; 2],
    /// The light squares of both palaces (their corners and centres).
    pub corridor: [bool; CELLS],
    /// The centre of each side's palace.
    pub centre: [Square; 2],
    /// The king's start square of each side.
    pub king_start: [Square; 2],
}

/// The lance squares of the four castling rights, in position-string order (`9i1i9a1a`):
/// bit 0 Black's lance on 9i, bit 1 Black's on 1i, bit 2 White's on 9a, bit 3 White's on 1a.
pub(crate) const CASTLE_SQUARES: [Square; 4] = [
    Square::new(0, 8),
    Square::new(8, 8),
    Square::new(0, 0),
    Square::new(8, 0),
];

/// The side that owns a castling right.
pub(crate) fn castle_color(bit: usize) -> Color {
    if bit < 2 {
        Color::Black
    } else {
        Color::White
    }
}

impl PalaceGeometry {
    pub fn new() -> PalaceGeometry {
        let mut own = [[false; CELLS]; 2];
        let mut corridor = [false; CELLS];
        for col in 3..6u8 {
            for (c, rows) in [(Color::Black, 6..9u8), (Color::White, 0..3u8)] {
                for row in rows {
                    let s = Square::new(col, row);
                    own[c.index()][s.index()] = true;
                    // Light squares: file number + rank index (a = 1) odd, like 5h.
                    let file = 9 - col as u32;
                    let rank = row as u32 + 1;
                    corridor[s.index()] = (file + rank) % 2 == 1;
                }
            }
        }
        PalaceGeometry {
            own,
            corridor,
            centre: [Square::new(4, 7), Square::new(4, 1)],
            king_start: [Square::new(4, 8), Square::new(4, 0)],
        }
    }

    /// For each square, the castling-right bits that survive a move from or to it.
    pub fn castling_keep(&self) -> [u8; CELLS] {
        let mut keep = [0x0Fu8; CELLS];
        keep[self.king_start[0].index()] &= !0b0011;
        keep[self.king_start[1].index()] &= !0b1100;
        for (bit, sq) in CASTLE_SQUARES.iter().enumerate() {
            keep[sq.index()] &= !(1 << bit);
        }
        keep
    }

    /// Whether `sq` is a corridor square of the palace that is `c`'s enemy palace.
    #[inline]
    fn enemy_corridor(&self, c: usize, sq: Square) -> bool {
        self.corridor[sq.index()] && self.own[1 - c][sq.index()]
    }
}

impl Default for PalaceGeometry {
    fn default() -> Self {
        PalaceGeometry::new()
    }
}

/// The lance's squares for a castling move given by the king's squares.
pub(crate) fn castle_lance(king_from: Square, king_to: Square) -> (Square, Square) {
    let row = king_from.row();
    if king_to.col() < king_from.col() {
        (Square::new(0, row), Square::new(king_from.col() - 1, row))
    } else {
        (Square::new(8, row), Square::new(king_from.col() + 1, row))
    }
}

/// After a pawn's double step from `from` to `to`: the square it passed over if an enemy pawn
/// stands ready to take it en passant (beside `to`), otherwise none.
pub(crate) fn ep_after_double_step(pos: &Position, from: Square, to: Square) -> Square {
    let (fr, tr) = (from.row() as i32, to.row() as i32);
    if (fr - tr).abs() != 2 || from.col() != to.col() {
        return NO_SQUARE;
    }
    let mover = pos.side; // not yet switched
    let enemy_pawn = Piece::new(PieceKind::PalacePawn, !mover).code();
    let ready = [-1i16, 1]
        .iter()
        .any(|&dx| pos.board[to.offset(dx).index()] == enemy_pawn);
    if ready {
        Square::new(to.col(), ((fr + tr) / 2) as u8)
    } else {
        NO_SQUARE
    }
}

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
                            self.push_board(out, from, to, code, lion_present);
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
                            self.push_board(out, from, to, code, lion_present);
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

    /// Castling moves of the king on `from`, when the rights allow and the way is clear and
    /// safe (not out of check, not across or onto an attacked square).
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
            if !clear {
                continue;
            }
            let transit = from.offset(step);
            let to = transit.offset(step);
            if self.attacked(from, !c) || self.attacked(transit, !c) || self.attacked(to, !c) {
                continue;
            }
            out.push(Move::Castle { from, to });
        }
    }
}
