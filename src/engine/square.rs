//! Squares. Every board (9x9 or 6x6) lives inside one 13x13 mailbox with a border of two wall
//! cells on every side, so that steps and jumps of up to two squares never leave the array.
//! A square is stored as its mailbox index; `col` counts from the left as the first player sees
//! the board and `row` from the top (the second player's side). How a square is *named* depends
//! on the variant (`7g` in the shogi games, `e2` in Shanghai Palace Chess): see `Variant`.

use crate::engine::color::Color;

/// Width (and height) of the padded mailbox.
pub const PAD_W: usize = 13;
/// Number of cells in the mailbox.
pub const CELLS: usize = PAD_W * PAD_W;
/// Border width.
pub const BORDER: usize = 2;

/// A square of the board (a cell of the padded mailbox).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub(crate) u8);

impl Square {
    /// The square at column `col` (0 = leftmost as the first player sees the board) and `row`
    /// (0 = top row, the second player's back rank). Both must be below 9.
    #[inline]
    pub const fn new(col: u8, row: u8) -> Square {
        Square(((row as usize + BORDER) * PAD_W + col as usize + BORDER) as u8)
    }

    #[inline]
    pub const fn col(self) -> u8 {
        (self.0 as usize % PAD_W - BORDER) as u8
    }

    #[inline]
    pub const fn row(self) -> u8 {
        (self.0 as usize / PAD_W - BORDER) as u8
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square `delta` mailbox cells away (may be a wall cell).
    #[inline]
    pub(crate) const fn offset(self, delta: i16) -> Square {
        Square((self.0 as i16 + delta) as u8)
    }

    /// Index into an 81-square bit set (`row * 9 + col`), by table: no division.
    #[inline(always)]
    pub const fn bit(self) -> u32 {
        // The table covers every `u8`, so the lookup needs no bounds check.
        BIT_OF[self.0 as usize] as u32
    }

    /// The square of an 81-square bit index (the bits of a `u128` past 80 are no square: they
    /// give cell 0, a wall cell).
    #[inline(always)]
    pub const fn from_bit(bit: u32) -> Square {
        // Masked into the table's 128 entries: no bounds check on the generator's hot path.
        Square(SQUARE_OF[(bit & 127) as usize])
    }
}

/// `Square::bit` of every mailbox cell (0 for wall cells, which have no bit, and for the
/// values of a `u8` past the last cell).
const BIT_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 81 {
        t[Square::new((i % 9) as u8, (i / 9) as u8).0 as usize] = i as u8;
        i += 1;
    }
    t
};

/// The mailbox cell of every bit index (cell 0 past the 81 squares).
const SQUARE_OF: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 81 {
        t[i] = Square::new((i % 9) as u8, (i / 9) as u8).0;
        i += 1;
    }
    t
};

/// A mailbox offset for a relative step `(dx, dy)` seen from the first player, where `dy > 0` is
/// forward (up the board, toward row 0) and `dx > 0` is to the first player's right.
#[inline]
pub const fn delta(dx: i8, dy: i8) -> i16 {
    dx as i16 - dy as i16 * PAD_W as i16
}

/// The step forward (toward the far side) for `c`, as a mailbox offset.
#[inline]
pub(crate) fn forward(c: Color) -> i16 {
    match c {
        Color::Black => delta(0, 1),
        Color::White => -delta(0, 1),
    }
}

/// The eight line directions as mailbox offsets: N, S, E, W, NE, NW, SE, SW ("N" is toward row 0).
pub const DIRS8: [i16; 8] = [
    delta(0, 1),
    delta(0, -1),
    delta(1, 0),
    delta(-1, 0),
    delta(1, 1),
    delta(-1, 1),
    delta(1, -1),
    delta(-1, -1),
];

/// Index of a line direction in `DIRS8`, if `d` is one.
pub fn dir_index(d: i16) -> Option<usize> {
    DIRS8.iter().position(|&x| x == d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_coordinates_round_trip() {
        for row in 0..9 {
            for col in 0..9 {
                let s = Square::new(col, row);
                assert_eq!((s.col(), s.row()), (col, row));
                assert_eq!(Square::from_bit(s.bit()), s);
            }
        }
    }
}
