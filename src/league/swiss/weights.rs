//! The integer edge weights of the Swiss matching, and why their lexicographic order holds.
//! Pure arithmetic; imports nothing of the store, Discord, i18n or engine.
//!
//! `mwmatching` takes `i32` weights and computes `2 * weight` and sums of dual variables of the
//! same size internally, so every weight here stays below [`WEIGHT_LIMIT`] = 2^29: half of the
//! 2^30 that would already be safe, as margin for the dual variables of the maximum-cardinality
//! mode (which may go negative).
//!
//! ## The pairing stage (every round)
//!
//! Each allowed edge has three costs: `c1` the score difference of the pair in half points,
//! `c3` the colour cost (0..=2) and `c4` the placement cost, capped at `K`. Its cost is
//! `U1·c1 + U3·c3 + c4` and its weight `max_cost + 1 - cost` (so 1 ≤ weight ≤ max_cost + 1).
//! With `P` pairs:
//!
//! - `U3 = P·K + 1`, more than any sum of `c4` over a matching (each ≤ K);
//! - `R = 2·P·U3 + P·K` bounds any sum of `U3·c3 + c4`;
//! - `U1 = R/2 + 1`. The sum of `|s_a - s_b|` over a perfect matching has the parity of the sum
//!   of all scores (|x − y| ≡ x + y mod 2), so two perfect matchings whose `c1` sums differ
//!   differ by at least 2, and `2·U1 > R`. (When `c1` has to be clamped, the parity argument
//!   is lost and `U1 = R + 1`.)
//!
//! The matching is of maximum cardinality first, so when a perfect matching exists every
//! candidate has exactly `P` edges and maximising the weight sum `P·(max_cost + 1) − Σcost`
//! minimises `Σcost`. If `Σc1(M) < Σc1(M')` then `Σcost(M') − Σcost(M) ≥ 2·U1 − R > 0`; if
//! the `c1` sums are equal and `Σc3(M) < Σc3(M')`, the difference is at least `U3 − P·K > 0`;
//! otherwise `Σc4` decides. That is exactly the lexicographic order (1), (3), (4).
//!
//! The bound: `max_cost = D·U1 + 2·U3 + K` with `D` the largest score difference. With up to
//! 1000 players (P ≤ 500) and 50 rounds (D ≤ 100 half points), `K = 21` gives U3 = 10 501,
//! R = 10 511 500, U1 = 5 255 751 and max_cost = 525 596 123 < 2^29 = 536 870 912. So the
//! placement cost is exact up to 21 and capped beyond (ranks more than 21 places from the ideal
//! opponent cost the same); for 200 players and 9 rounds the cap is far above any real `c4`
//! and nothing is capped. [`Scale::new`] picks the largest `K` (up to the largest `c4` present)
//! that fits, and only for absurd inputs (scores far beyond 50 rounds) clamps `c1` as well.
//!
//! ## The bye stage (odd rounds only)
//!
//! The bye is settled first, by a matching on the active players plus a phantom vertex joined
//! to every player who may take the bye. Its costs: `c1` as above (the bye edge counts the
//! receiver's score above the lowest active score: a bye is a game against the bottom), and
//! `c2` the place of the receiver in the bye order (lowest score first, then lowest-ranked
//! first), `0..E` for `E` eligible players. Cost `E·c1 + c2`: exactly one bye edge is in any
//! perfect matching, so the `c2` sums of two matchings differ by less than `E`, and (1) comes
//! before (2). The receiver of that optimum is the receiver of the lexicographic optimum of
//! (1), (2), (3), (4) (the `c2` values are distinct); the pairing stage then pairs the others,
//! reaching the same optimum of (1) since the bye matching attains it. With 1000 players and
//! 50 rounds the largest weight is about 101 000.

use super::colours::MAX_COLOUR_COST;

/// Every edge weight is below this.
pub const WEIGHT_LIMIT: u64 = 1 << 29;

/// The units of the pairing stage for one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    /// P: pairs in a perfect matching.
    pub pairs: u64,
    /// D: the largest score difference used (c1 is clamped to it).
    pub score_cap: u64,
    /// Whether c1 is unclamped, so that the parity argument holds.
    pub exact_scores: bool,
    /// K: the largest placement cost used (c4 is clamped to it).
    pub placement_cap: u64,
    /// U3: the weight of one unit of colour cost.
    pub colour_unit: u64,
    /// U1: the weight of one half point of score difference.
    pub score_unit: u64,
    /// The largest edge cost; weights are `max_cost + 1 - cost`.
    pub max_cost: u64,
}

impl Scale {
    /// The units for `pairs` pairs, with `max_score_diff` the largest score difference and
    /// `max_placement` the largest placement cost among the edges.
    pub fn new(pairs: usize, max_score_diff: u32, max_placement: u32) -> Scale {
        let p = pairs as u64;
        let d = u64::from(max_score_diff);
        let natural = u64::from(max_placement);
        if let Some(s) = Scale::build(p, d, natural, true) {
            return s;
        }
        // Largest K that fits (fitting is monotone in K).
        if Scale::build(p, d, 0, true).is_some() {
            let (mut lo, mut hi) = (0, natural);
            while lo < hi {
                let mid = lo + (hi - lo).div_ceil(2);
                if Scale::build(p, d, mid, true).is_some() {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            if let Some(s) = Scale::build(p, d, lo, true) {
                return s;
            }
        }
        // Absurd scores: K = 0, and c1 clamped so that D·(2P + 1) + 3 < WEIGHT_LIMIT.
        let clamped = (WEIGHT_LIMIT - 4) / (2 * p + 1);
        Scale::build(p, clamped.min(d), 0, false).unwrap_or(Scale {
            pairs: p,
            score_cap: 0,
            exact_scores: false,
            placement_cap: 0,
            colour_unit: 1,
            score_unit: 0,
            max_cost: 2,
        })
    }

    fn build(p: u64, d: u64, k: u64, exact: bool) -> Option<Scale> {
        let colour_unit = p.checked_mul(k)?.checked_add(1)?;
        let r = p
            .checked_mul(u64::from(MAX_COLOUR_COST))?
            .checked_mul(colour_unit)?
            .checked_add(p.checked_mul(k)?)?;
        let score_unit = if exact { r / 2 + 1 } else { r.checked_add(1)? };
        let max_cost = d
            .checked_mul(score_unit)?
            .checked_add(u64::from(MAX_COLOUR_COST) * colour_unit)?
            .checked_add(k)?;
        (max_cost + 1 < WEIGHT_LIMIT).then_some(Scale {
            pairs: p,
            score_cap: d,
            exact_scores: exact,
            placement_cap: k,
            colour_unit,
            score_unit,
            max_cost,
        })
    }

    /// The weight of an edge with score difference `c1`, colour cost `c3` (≤ 2) and placement
    /// cost `c4`.
    pub fn weight(&self, c1: u32, c3: u32, c4: u32) -> i32 {
        let cost = u64::from(c1).min(self.score_cap) * self.score_unit
            + u64::from(c3.min(MAX_COLOUR_COST)) * self.colour_unit
            + u64::from(c4).min(self.placement_cap);
        // max_cost + 1 < 2^29 and cost ≤ max_cost, so this fits.
        i32::try_from(self.max_cost + 1 - cost).unwrap_or(i32::MAX)
    }

    /// The largest weight [`Scale::weight`] can give.
    pub fn max_weight(&self) -> u64 {
        self.max_cost + 1
    }
}

/// The units of the bye stage: cost `eligible·c1 + c2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByeScale {
    /// E: players who may take the bye, the unit of c1.
    pub eligible: u64,
    /// The largest score difference used (c1 is clamped to it).
    pub score_cap: u64,
}

impl ByeScale {
    pub fn new(eligible: usize, max_score_diff: u32) -> ByeScale {
        let e = (eligible as u64).clamp(1, WEIGHT_LIMIT / 4);
        // D·E + E - 1 + 1 < WEIGHT_LIMIT.
        let fit = (WEIGHT_LIMIT - 1) / e - 1;
        ByeScale {
            eligible: e,
            score_cap: u64::from(max_score_diff).min(fit),
        }
    }

    fn max_cost(&self) -> u64 {
        self.score_cap * self.eligible + self.eligible - 1
    }

    /// The weight of an edge with score difference `c1` and bye order `c2` (0 on games).
    pub fn weight(&self, c1: u32, c2: usize) -> i32 {
        let cost =
            u64::from(c1).min(self.score_cap) * self.eligible + (c2 as u64).min(self.eligible - 1);
        i32::try_from(self.max_cost() + 1 - cost).unwrap_or(i32::MAX)
    }

    /// The largest weight [`ByeScale::weight`] can give.
    pub fn max_weight(&self) -> u64 {
        self.max_cost() + 1
    }
}
