//! Round-robin schedules: who meets whom in each round, and with which colours, from the FIDE
//! Berger tables. Pure computation; imports nothing of the store, Discord, i18n or engine.
//!
//! The Berger table for `m` players (`m` even; an odd count gets a phantom `m`-th player whose
//! opponent sits out) numbers the players 1..=m. Player `m` is fixed; the others are residues
//! modulo `q = m - 1` (with `q` written for 0). In round `r` (1-based), the pairs are the players
//! whose numbers add up to `r + 1` modulo `q`, and player `m` meets the one player `f` with
//! `2f ≡ r + 1` (mod `q`). Colours: player `m` plays second in odd rounds and first in even ones;
//! in every other pair `(f + k, f - k)`, `f + k` plays first. This reproduces the published
//! tables exactly (for 4 players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1), which the tests check.
//!
//! What the colours guarantee, and what `tests/engine/league.rs` checks for every `n` up to 30:
//! - single round robin, even `n`: every player has `n/2` of one colour and `n/2 - 1` of the
//!   other (difference exactly 1), and never the same colour three games in a row (two in a row
//!   happens: at least `n - 2` players must have such a "break" in any round robin);
//! - single round robin, odd `n`: every player's games alternate strictly (a bye in between
//!   does not break the alternation) and the colours are even;
//! - double round robin: the second leg repeats the first with colours swapped, but the last two
//!   rounds of the first leg are exchanged (FIDE's recommendation; without it, even `n` gives
//!   some players three in a row across the legs). Every player has as many Firsts as Seconds
//!   and never the same colour three games in a row.

use super::Pairing;

/// Every round's pairings, round 1 first (double: the second leg follows as rounds
/// `n`..`2n - 2` for even `n`, `n + 1`..`2n` for odd `n`).
///
/// In each round the game of the fixed Berger player comes first, then the others in table
/// order; with an odd count the player who sits out is last, as a [`Pairing`] with
/// `second: None` (a bye that scores nothing in a round robin). Fewer than two players have no
/// rounds.
pub fn schedule(players: usize, double: bool) -> Vec<Vec<Pairing>> {
    if players < 2 {
        return Vec::new();
    }
    let single = berger(players);
    if !double {
        return single;
    }
    let mut first_leg = single.clone();
    let len = first_leg.len();
    if len >= 2 {
        first_leg.swap(len - 2, len - 1);
    }
    let second_leg = single.into_iter().map(|round| {
        round
            .into_iter()
            .map(|p| match p.second {
                Some(s) => Pairing::game(s, p.first),
                None => p,
            })
            .collect::<Vec<_>>()
    });
    first_leg.into_iter().chain(second_leg).collect()
}

/// The single round robin of the Berger tables, in 0-based player indices.
fn berger(players: usize) -> Vec<Vec<Pairing>> {
    let m = players + players % 2;
    let q = m - 1;
    // The inverse of 2 modulo the odd q, to solve 2f ≡ r + 1.
    let half = q.div_ceil(2);
    // A Berger number (1..=q as residues, m the fixed player) as a 0-based index, or None for
    // the phantom player of an odd count.
    let index = |number: usize| (number <= players).then(|| number - 1);
    let residue = |x: usize| match x % q {
        0 => q,
        r => r,
    };
    (1..m)
        .map(|r| {
            let f = residue((r + 1) * half);
            let mut round = Vec::with_capacity(m / 2);
            let (fixed_first, fixed_second) = if r % 2 == 1 { (f, m) } else { (m, f) };
            let mut bye = None;
            match (index(fixed_first), index(fixed_second)) {
                (Some(a), Some(b)) => round.push(Pairing::game(a, b)),
                (Some(a), None) | (None, Some(a)) => bye = Some(Pairing::bye(a)),
                (None, None) => {}
            }
            for k in 1..m / 2 {
                let first = residue(f + k);
                let second = residue(f + q - k);
                round.push(Pairing::game(first - 1, second - 1));
            }
            round.extend(bye);
            round
        })
        .collect()
}
