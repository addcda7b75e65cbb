//! Text forms of positions and moves: position strings (`fen`), move codes (`code`), human
//! notation (`hodges`) and the forgiving parser of what players type (`input`).

pub mod algebraic;
pub mod code;
pub mod fen;
pub mod hodges;
pub mod input;

use crate::engine::variant::SquareNames;
use crate::engine::{Move, Position};

/// A move, legal in `pos`, in the game's human notation: Hodges for the shogi games,
/// algebraic for Shanghai Palace Chess.
pub fn human(pos: &Position, m: Move) -> String {
    match pos.variant().spec.squares {
        SquareNames::Shogi => hodges::write(pos, m),
        SquareNames::Western => algebraic::write(pos, m),
    }
}
