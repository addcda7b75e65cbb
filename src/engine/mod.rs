//! The rules engine: squares, pieces, positions, legal moves, outcomes and notation for every
//! game Tegami plays. No I/O, no async, nothing of the bot: it is tested on its own.
//!
//! Vocabulary types are re-exported flat (`engine::Square`, `engine::Position`); text formats
//! live in `engine::notation`.

mod color;
mod game;
mod illegal;
pub mod impasse;
mod movegen;
mod moves;
pub mod notation;
mod palace;
mod piece;
mod position;
mod square;
mod variant;
pub mod variants;
mod zobrist;

pub use color::Color;
pub use game::{Game, Outcome, Reason};
pub use illegal::IllegalMove;
pub use movegen::perft;
pub use moves::Move;
pub use piece::{Atom, Family, Mode, Piece, PieceKind};
pub use position::{Position, Undo};
pub use square::Square;
pub use variant::{
    BoardShape, DropRules, EndRules, Handicap, ImpasseRule, Letter, PieceSet, PromotionRules,
    Region, RepetitionRule, Setup, SquareNames, StalemateRule, Variant, VariantId, VariantSpec,
};

/// The start position of a named setup of a variant (`smith` in Shanghai Palace Chess).
pub fn setup_position(id: VariantId, name: &str) -> Option<Position> {
    let v = Variant::get(id);
    let setup = v
        .spec
        .setups
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))?;
    notation::fen::parse(v, setup.position).ok()
}

/// Builds the start position of a variant with a handicap applied (White to move).
pub fn handicap_position(id: VariantId, name: &str) -> Option<Position> {
    let v = Variant::get(id);
    let h = v.handicap(name)?;
    let mut p = Position::start(id);
    for sq in h.remove {
        let s = v.parse_square(sq)?;
        p.take(s);
    }
    p.set_side(Color::White);
    Some(p)
}
