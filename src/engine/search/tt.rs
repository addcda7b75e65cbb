//! The transposition table: a fixed-size array of entries keyed by the position's Zobrist hash
//! ([`Position::hash`](crate::engine::Position::hash)), one entry per slot. A slot is replaced
//! by a search of the same or greater depth, or by any search of a newer generation (one
//! generation per `think`).

use crate::engine::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    key: u64,
    pub mv: Option<Move>,
    pub score: i16,
    pub depth: i8,
    pub bound: Bound,
    generation: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    mv: None,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    generation: 0,
};

/// A bounded table of search results.
pub struct Tt {
    entries: Vec<Entry>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of at most `mb` mebibytes (at least one thousand entries), a power of two.
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<Entry>()).max(1024);
        // The largest power of two that fits.
        let n = 1usize << (usize::BITS - 1 - want.leading_zeros());
        Tt {
            entries: vec![EMPTY; n],
            mask: n - 1,
            generation: 0,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.fill(EMPTY);
        self.generation = 0;
    }

    /// Starts a new search: older entries become replaceable.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let slot = &mut self.entries[key as usize & self.mask];
        if slot.key == key || slot.generation != self.generation || depth >= slot.depth as i32 {
            let mv = if mv.is_none() && slot.key == key {
                slot.mv
            } else {
                mv
            };
            *slot = Entry {
                key,
                mv,
                score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: depth.clamp(0, i8::MAX as i32) as i8,
                bound,
                generation: self.generation,
            };
        }
    }
}
