//! Board geometry some games add to the plain board: Palace Shogi's palaces, their corridors
//! (light squares) and the castling squares. Data only: the rules that use it are the Palace
//! Shogi hooks (`palace.rs`) and the tables built in `variant.rs`.

use crate::engine::color::Color;
use crate::engine::square::{Square, CELLS};

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
    pub(crate) fn enemy_corridor(&self, c: usize, sq: Square) -> bool {
        self.corridor[sq.index()] && self.own[1 - c][sq.index()]
    }
}

impl Default for PalaceGeometry {
    fn default() -> Self {
        PalaceGeometry::new()
    }
}
