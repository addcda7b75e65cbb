//! The transposition table: a fixed-size array of slots keyed by the position's Zobrist hash
//! ([`Position::hash`](crate::engine::Position::hash)), one entry per slot, shared by the
//! threads of a search (Lazy SMP, see `mod.rs`) without locks.
//!
//! A slot is two atomic words: the entry packed into 64 bits (`data`), and the key XOR the
//! data (`check`). A reader accepts a slot only if `check ^ data` gives back its key, so an
//! entry torn by two threads writing at once reads as a miss, never as another position's
//! entry. A slot is replaced by a search of the same or greater depth, or by any search of a
//! newer generation (one generation per `think`).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::memory::{huge_vec, prefetch};
use crate::engine::piece::PieceKind;
use crate::engine::square::Square;
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

/// An entry as read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub mv: Option<Move>,
    pub score: i16,
    pub depth: i8,
    pub bound: Bound,
    generation: u8,
}

/// Generations wrap at this (6 bits).
const GENERATIONS: u8 = 64;

impl Entry {
    /// Bits 0-31 the move (0 for none), 32-47 the score, 48-55 the depth, 56-57 the bound,
    /// 58-63 the generation.
    fn pack(self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.mv.map_or(0, encode))
            | u64::from(self.score as u16) << 32
            | u64::from(self.depth as u8) << 48
            | bound << 56
            | u64::from(self.generation % GENERATIONS) << 58
    }

    fn unpack(d: u64) -> Entry {
        Entry {
            mv: decode(d as u32),
            score: (d >> 32) as u16 as i16,
            depth: (d >> 48) as u8 as i8,
            bound: match (d >> 56) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            generation: (d >> 58) as u8,
        }
    }
}

/// A move in 27 bits: a tag (1-6, so that 0 is no move) and three bytes.
fn encode(m: Move) -> u32 {
    let (tag, a, b, c) = match m {
        Move::Board { from, to, promote } => (1u32, from.0, to.0, promote as u8),
        Move::Drop { kind, to } => (2, kind.index() as u8, to.0, 0),
        Move::Lion { from, via, to } => (3, from.0, via.0, to.0),
        Move::Castle { from, to } => (4, from.0, to.0, 0),
        Move::EnPassant { from, to } => (5, from.0, to.0, 0),
        Move::PromoteTo { from, to, kind } => (6, from.0, to.0, kind.index() as u8),
    };
    tag | u32::from(a) << 3 | u32::from(b) << 11 | u32::from(c) << 19
}

fn decode(x: u32) -> Option<Move> {
    let (a, b, c) = ((x >> 3) as u8, (x >> 11) as u8, (x >> 19) as u8);
    let kind = |i: u8| PieceKind::ALL.get(i as usize).copied();
    Some(match x & 7 {
        1 => Move::Board {
            from: Square(a),
            to: Square(b),
            promote: c != 0,
        },
        2 => Move::Drop {
            kind: kind(a)?,
            to: Square(b),
        },
        3 => Move::Lion {
            from: Square(a),
            via: Square(b),
            to: Square(c),
        },
        4 => Move::Castle {
            from: Square(a),
            to: Square(b),
        },
        5 => Move::EnPassant {
            from: Square(a),
            to: Square(b),
        },
        6 => Move::PromoteTo {
            from: Square(a),
            to: Square(b),
            kind: kind(c)?,
        },
        _ => return None,
    })
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A bounded table of search results.
pub struct Tt {
    slots: Vec<Slot>,
    mask: usize,
    generation: u8,
}

impl Tt {
    /// A table of at most `mb` mebibytes (at least one thousand entries), a power of two.
    pub fn new(mb: usize) -> Tt {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let want = (bytes / std::mem::size_of::<Slot>()).max(1024);
        // The largest power of two that fits.
        let n = 1usize << (usize::BITS - 1 - want.leading_zeros());
        Tt {
            slots: huge_vec(n),
            mask: n - 1,
            generation: 0,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for s in &mut self.slots {
            *s = Slot::default();
        }
        self.generation = 0;
    }

    /// Starts a new search: older entries become replaceable.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    /// Starts bringing `key`'s slot into the cache, so that a probe soon after finds it there
    /// (see [`prefetch`](super::memory::prefetch)).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        prefetch(&self.slots[key as usize & self.mask]);
    }

    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot.data.load(Relaxed);
        let check = slot.check.load(Relaxed);
        // An empty slot (both words 0) matches only the key 0, which has no data either.
        (check ^ data == key && data != 0).then(|| Entry::unpack(data))
    }

    #[inline]
    pub(crate) fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let slot = &self.slots[key as usize & self.mask];
        let old_data = slot.data.load(Relaxed);
        let same = slot.check.load(Relaxed) ^ old_data == key && old_data != 0;
        let old = Entry::unpack(old_data);
        if same || old_data == 0 || old.generation != self.generation || depth >= old.depth as i32 {
            let mv = if mv.is_none() && same { old.mv } else { mv };
            let data = Entry {
                mv,
                score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: depth.clamp(0, i8::MAX as i32) as i8,
                bound,
                generation: self.generation,
            }
            .pack();
            slot.data.store(data, Relaxed);
            slot.check.store(key ^ data, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let moves = [
            Move::Board {
                from: Square(30),
                to: Square(43),
                promote: true,
            },
            Move::Drop {
                kind: PieceKind::ALL[PieceKind::ALL.len() - 1],
                to: Square(100),
            },
            Move::Lion {
                from: Square(50),
                via: Square(51),
                to: Square(50),
            },
            Move::Castle {
                from: Square(150),
                to: Square(152),
            },
            Move::EnPassant {
                from: Square(70),
                to: Square(58),
            },
            Move::PromoteTo {
                from: Square(40),
                to: Square(27),
                kind: PieceKind::ALL[3],
            },
        ];
        let mut tt = Tt::new(1);
        tt.new_search();
        for (i, &m) in moves.iter().enumerate() {
            let key = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1);
            tt.store(key, Some(m), -31_000 + i as i32, 7, Bound::Lower);
            let e = tt.probe(key).expect("stored");
            assert_eq!(e.mv, Some(m));
            assert_eq!(e.score as i32, -31_000 + i as i32);
            assert_eq!((e.depth, e.bound), (7, Bound::Lower));
            // The same slot, another key: a miss.
            assert!(tt.probe(key ^ (1 << 63)).is_none());
        }
        // No move, a deeper entry of another generation replaced by a shallower one.
        tt.store(5, None, 12, 20, Bound::Exact);
        tt.new_search();
        tt.store(5 + tt.len() as u64, None, -3, 1, Bound::Upper);
        assert!(tt.probe(5).is_none());
        let e = tt.probe(5 + tt.len() as u64).expect("replaced");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (None, -3, 1, Bound::Upper)
        );
    }
}
