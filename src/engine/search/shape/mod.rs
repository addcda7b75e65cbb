//! The shape tables learned for each game (`eval`'s shape term; `benches/distil.rs` learns
//! them from Fairy-Stockfish's searches and writes the files of this folder).

use crate::engine::VariantId;

mod judkins;
mod shogi;

/// A game's learned shape tables, if it has any.
pub(crate) fn table(id: VariantId) -> Option<&'static [i16]> {
    match id {
        VariantId::Shogi => Some(&shogi::TABLE),
        VariantId::Judkins => Some(&judkins::TABLE),
        _ => None,
    }
}
