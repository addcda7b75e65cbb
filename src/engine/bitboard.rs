//! Bitboards: a set of squares as one `u128`, bit `row * 9 + col` (see `Square::bit`). The 9x9
//! boards use 81 bits; Judkins Shogi's 6x6 board uses the same numbering, so all its squares lie
//! in the low 64 bits (its highest is bit 50) and every operation on its sets touches one word.
//!
//! Sliding moves use the classical ray method, which suits any board size: a ray is the set of
//! squares from a square to the board's edge in one direction; the first piece on it is the
//! lowest set bit of `ray & occupied` (directions toward higher bits) or the highest (toward
//! lower bits), and the squares the slider reaches are the ray minus the ray beyond that piece.
//! Cannons use the same rays twice: past the first piece (the screen), the next ray.

use crate::engine::square::{Square, DIRS8};

/// A set of squares.
pub(crate) type Bitboard = u128;

/// The set holding one square.
#[inline(always)]
pub(crate) const fn bb(sq: Square) -> Bitboard {
    1u128 << sq.bit()
}

/// Removes and returns the lowest square of a non-empty set.
#[inline(always)]
pub(crate) fn pop(b: &mut Bitboard) -> Square {
    let bit = b.trailing_zeros();
    *b &= *b - 1;
    Square::from_bit(bit)
}

/// Whether a line direction (an index into `DIRS8`) goes toward higher bit numbers (down or
/// right on the board): then the nearest square on a ray is its lowest bit.
pub(crate) const fn ascending(dir: usize) -> bool {
    DIRS8[dir] > 0
}

/// The opposite of each line direction of `DIRS8` (N-S, E-W, NE-SW, NW-SE).
pub(crate) const OPPOSITE: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];

/// The rays of a board: `ray[dir][bit]`, the squares from `bit` (excluded) to the edge.
#[derive(Clone, Debug)]
pub(crate) struct Rays {
    pub ray: [[Bitboard; 81]; 8],
}

impl Rays {
    /// The rays of the board `on` says squares are on.
    pub fn new(on: impl Fn(Square) -> bool) -> Rays {
        let mut ray = [[0u128; 81]; 8];
        for (d, &step) in DIRS8.iter().enumerate() {
            for row in 0..9u8 {
                for col in 0..9u8 {
                    let from = Square::new(col, row);
                    if !on(from) {
                        continue;
                    }
                    let mut s = from.offset(step);
                    while Self::inside(s) && on(s) {
                        ray[d][from.bit() as usize] |= bb(s);
                        s = s.offset(step);
                    }
                }
            }
        }
        Rays { ray }
    }

    /// Whether a mailbox cell is one of the 9x9 squares (not a wall cell).
    fn inside(s: Square) -> bool {
        let (i, w) = (s.index(), crate::engine::square::PAD_W);
        let (c, r) = (i % w, i / w);
        (2..11).contains(&c) && (2..11).contains(&r)
    }

    /// The nearest occupied square from `from` in direction `dir`, if any.
    #[inline(always)]
    pub fn first(&self, dir: usize, from: Square, occ: Bitboard) -> Option<Square> {
        let hit = self.ray[dir][from.bit() as usize] & occ;
        if hit == 0 {
            None
        } else if ascending(dir) {
            Some(Square::from_bit(hit.trailing_zeros()))
        } else {
            Some(Square::from_bit(127 - hit.leading_zeros()))
        }
    }

    /// The squares a slider on the square of bit `from` reaches in direction `dir`: the empty
    /// ones and the first occupied one.
    #[inline(always)]
    pub fn slide(&self, dir: usize, from: usize, occ: Bitboard) -> Bitboard {
        let ray = self.ray[dir][from];
        let hit = ray & occ;
        if hit == 0 {
            return ray;
        }
        // The blocker's bit, used as is (no round trip through its square).
        let b = if ascending(dir) {
            hit.trailing_zeros()
        } else {
            127 - hit.leading_zeros()
        };
        ray ^ self.ray[dir][b as usize]
    }

    /// The squares strictly between two squares on one line (empty if they are not on one).
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        for d in 0..8 {
            let r = self.ray[d][a.bit() as usize];
            if r & bb(b) != 0 {
                return r & !self.ray[d][b.bit() as usize] & !bb(b);
            }
        }
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_stop_at_the_board_edge_and_slides_at_the_first_piece() {
        let full = Rays::new(|_| true);
        let small = Rays::new(|s| s.col() < 6 && s.row() < 6);
        let e = 2; // east
        let from = Square::new(1, 4);
        assert_eq!(full.ray[e][from.bit() as usize].count_ones(), 7);
        assert_eq!(small.ray[e][from.bit() as usize].count_ones(), 4);
        let occ = bb(Square::new(4, 4)) | bb(Square::new(6, 4));
        let reach = full.slide(e, from.bit() as usize, occ);
        assert_eq!(
            reach,
            bb(Square::new(2, 4)) | bb(Square::new(3, 4)) | bb(Square::new(4, 4))
        );
        // North (toward row 0) is a descending direction: the nearest is the highest bit.
        let n = 0;
        let occ = bb(Square::new(1, 0)) | bb(Square::new(1, 2));
        assert_eq!(full.first(n, from, occ), Some(Square::new(1, 2)));
        assert_eq!(
            full.between(Square::new(0, 0), Square::new(3, 3)),
            bb(Square::new(1, 1)) | bb(Square::new(2, 2))
        );
        assert_eq!(full.between(Square::new(0, 0), Square::new(1, 2)), 0);
        let mut set = bb(Square::new(5, 5)) | bb(Square::new(0, 1));
        assert_eq!(pop(&mut set), Square::new(0, 1));
        assert_eq!(pop(&mut set), Square::new(5, 5));
        assert_eq!(set, 0);
    }
}
