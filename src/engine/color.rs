//! The two sides of a game. Shogi calls them Black (moves first) and White; Shanghai Palace Chess
//! calls the same two sides Red and Blue. The engine only knows "first" and "second": the variant
//! gives the names.

use std::ops::Not;

/// A side. `Black` always moves first in the standard start position (Red in Shanghai Palace Chess).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> Color {
        if i & 1 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}
