//! Text forms of positions and moves: position strings (`fen`), move codes (`code`), human
//! notation (`hodges`) and the forgiving parser of what players type (`input`).

pub mod code;
pub mod fen;
pub mod hodges;
pub mod input;
