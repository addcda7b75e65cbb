//! Swiss pairing: one round at a time, as a maximum-weight, maximum-cardinality matching on the
//! active players (crate `mwmatching`, Edmonds' blossom algorithm). Pure computation; imports
//! nothing of the store, Discord, i18n or engine.
//!
//! Absolute rules (never broken; when they cannot all be met, [`pair`] answers
//! [`PairingError::NoPairing`] and the league ends early): no two players meet twice; nobody
//! gets the same colour three games in a row; each player's colour difference (Firsts − Seconds
//! over games played on the board) stays within ±2; with an odd number of active players one of
//! them gets a bye, and only one who has not had one. A pair that would break a rule is simply
//! not an edge of the graph, and a matching that leaves anyone out is no pairing.
//!
//! Preferences, in lexicographic order, as edge costs (the weights and the proof that their
//! order holds for 1000 players and 50 rounds are in `swiss/weights.rs`):
//! 1. the fewest score points crossing score groups: the sum over the pairs of the score
//!    difference, in half points; the bye counts as a game against the lowest active score, so
//!    that giving it to a leader is not a way to avoid floating;
//! 2. the bye to the lowest score, then to the lowest-ranked (highest `rank`) player without one;
//! 3. colour wishes met: a pair costs 0 if both players can have the colour they want, 1 if a
//!    mild wish (alternation) must give way, 2 if a strong one (levelling one colour too many)
//!    must; absolute wishes are rules;
//! 4. placement: within a score group of `g` players ordered by rank, a pair at distance `d`
//!    costs `|d − g/2|` (top half against bottom half: 1 meets `g/2 + 1`); a pair across groups
//!    costs the higher player's distance from the bottom of their group plus the lower player's
//!    distance from the top of theirs (the lowest of a group floats down to meet the highest of
//!    the next).
//!
//! The bye is chosen first (criteria 1 and 2, on a graph with a phantom opponent), then the
//! others are paired (criteria 1, 3, 4). Colours are then given pair by pair (the stronger
//! wish wins; on a tie the higher-ranked player gets the colour opposite to their last; in the
//! first round rank 0 has First on board 1 and the colours alternate down the boards). Boards
//! are ordered by the higher score of the pair, then by the better rank in it; the bye last.

mod colours;
mod weights;

pub use colours::{colour_difference, colour_preference, may_play, ColourPreference, Strength};
pub use weights::{ByeScale, Scale, WEIGHT_LIMIT};

use super::{Outcome, Pairing, Played, Side};
use colours::Colours;
use mwmatching::{Edges, Matching, SENTINEL};

/// A player as the pairing of the next round sees them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entrant {
    /// Score so far, in half points (win 2, draw 1, loss 0, bye 2, forfeit win 2).
    pub score2: u32,
    /// Rank for pairing: 0 = strongest (the service orders by rating, then join time).
    pub rank: usize,
    /// Opponents met (indices into the same slice), forfeits included, byes not.
    pub opponents: Vec<usize>,
    /// Colours of games actually played, oldest first (forfeits not played on the board are
    /// left out by the caller).
    pub colours: Vec<Side>,
    pub had_bye: bool,
    /// Withdrawn / removed players are not paired (they stay in the slice so indices hold).
    pub active: bool,
}

/// Why a round cannot be paired.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PairingError {
    /// No pairing meets the absolute rules.
    #[error("no pairing of this round meets the rules (no repeat, colours, one bye each)")]
    NoPairing,
}

/// The entrants of the next Swiss round, from the games so far: Swiss scores (a bye scores 2
/// when its outcome is [`Outcome::Bye`]), opponents of every pairing (annulled and pending ones
/// too: they were paired), colours of games decided on the board or still going, in round order
/// (forfeits left out), byes. `ranks[i]` (default `i`) and `active[i]` (default true) come from
/// the caller; pairings naming players outside `0..players` are ignored.
pub fn entrants(
    players: usize,
    ranks: &[usize],
    active: &[bool],
    games: &[Played],
) -> Vec<Entrant> {
    let mut out: Vec<Entrant> = (0..players)
        .map(|i| Entrant {
            rank: ranks.get(i).copied().unwrap_or(i),
            active: active.get(i).copied().unwrap_or(true),
            ..Entrant::default()
        })
        .collect();
    let mut ordered: Vec<&Played> = games.iter().collect();
    ordered.sort_by_key(|g| g.round);
    for g in ordered {
        let a = g.pairing.first;
        if a >= players {
            continue;
        }
        let Some(b) = g.pairing.second else {
            out[a].had_bye = true;
            if g.outcome == Outcome::Bye {
                out[a].score2 += 2;
            }
            continue;
        };
        if b >= players || b == a {
            continue;
        }
        out[a].opponents.push(b);
        out[b].opponents.push(a);
        if let Some((pa, pb)) = g.outcome.points2() {
            out[a].score2 += pa;
            out[b].score2 += pb;
        }
        if g.outcome.played_on_board() || g.outcome == Outcome::Pending {
            out[a].colours.push(Side::First);
            out[b].colours.push(Side::Second);
        }
    }
    out
}

/// The pairings of the next round, board 1 first, the bye (if any) last. See the module header
/// for the rules and preferences. Opponent indices outside the slice are ignored; a pair counts
/// as met when either player lists the other.
pub fn pair(entrants: &[Entrant]) -> Result<Vec<Pairing>, PairingError> {
    let round = Round::new(entrants);
    let bye = if round.active.len() % 2 == 1 {
        Some(round.choose_bye()?)
    } else {
        None
    };
    let players: Vec<usize> = round
        .active
        .iter()
        .copied()
        .filter(|&i| Some(i) != bye)
        .collect();
    let mut pairs = round.match_players(&players)?;
    // Boards: higher score of the pair first, then the better rank in it.
    pairs.sort_by_key(|&(a, b)| {
        let top = entrants[a].score2.max(entrants[b].score2);
        (std::cmp::Reverse(top), round.pos[a].min(round.pos[b]))
    });
    let mut out: Vec<Pairing> = pairs
        .into_iter()
        .enumerate()
        .map(|(board, (a, b))| {
            let (h, l) = if round.pos[a] < round.pos[b] {
                (a, b)
            } else {
                (b, a)
            };
            match colours::side_of_higher(&round.colours[h], &round.colours[l], board) {
                Side::First => Pairing::game(h, l),
                Side::Second => Pairing::game(l, h),
            }
        })
        .collect();
    out.extend(bye.map(Pairing::bye));
    Ok(out)
}

/// Whether `pairings` is a valid round for `entrants` under the absolute rules: every active
/// player exactly once, nobody inactive or unknown, no repeat, both players allowed their
/// colour, a bye only with an odd number of active players and only to someone without one.
/// The first broken rule, in words, otherwise.
pub fn check_pairing(entrants: &[Entrant], pairings: &[Pairing]) -> Result<(), String> {
    let round = Round::new(entrants);
    let mut seen = vec![false; entrants.len()];
    let mut byes = 0;
    for p in pairings {
        for i in std::iter::once(p.first).chain(p.second) {
            match seen.get_mut(i) {
                None => return Err(format!("player {i} is not in the league")),
                Some(true) => return Err(format!("player {i} is paired twice")),
                Some(s) => *s = true,
            }
            if !entrants[i].active {
                return Err(format!("player {i} is not active"));
            }
        }
        match p.second {
            None => {
                byes += 1;
                if entrants[p.first].had_bye {
                    return Err(format!("player {} has had a bye already", p.first));
                }
            }
            Some(s) => {
                if round.met(p.first, s) {
                    return Err(format!("players {} and {s} have met", p.first));
                }
                if !may_play(&entrants[p.first], Side::First) {
                    return Err(format!("player {} may not play first", p.first));
                }
                if !may_play(&entrants[s], Side::Second) {
                    return Err(format!("player {s} may not play second"));
                }
            }
        }
    }
    if let Some(i) = round.active.iter().find(|&&i| !seen[i]) {
        return Err(format!("player {i} is not paired"));
    }
    if byes != round.active.len() % 2 {
        return Err(format!("{byes} byes for {} players", round.active.len()));
    }
    Ok(())
}

/// What one round's pairing computes once from the entrants.
struct Round<'a> {
    entrants: &'a [Entrant],
    /// Active players, by index.
    active: Vec<usize>,
    /// Place of each active player in rank order (0 = best); unused for the inactive.
    pos: Vec<usize>,
    /// Opponents met, sorted, both directions.
    met: Vec<Vec<usize>>,
    colours: Vec<Colours>,
}

impl<'a> Round<'a> {
    fn new(entrants: &'a [Entrant]) -> Round<'a> {
        let n = entrants.len();
        let active: Vec<usize> = (0..n).filter(|&i| entrants[i].active).collect();
        let mut by_rank = active.clone();
        by_rank.sort_by_key(|&i| (entrants[i].rank, i));
        let mut pos = vec![usize::MAX; n];
        for (p, &i) in by_rank.iter().enumerate() {
            pos[i] = p;
        }
        let mut met = vec![Vec::new(); n];
        for (i, e) in entrants.iter().enumerate() {
            for &j in &e.opponents {
                if j < n && j != i {
                    met[i].push(j);
                    met[j].push(i);
                }
            }
        }
        for m in &mut met {
            m.sort_unstable();
            m.dedup();
        }
        let colours = entrants.iter().map(Colours::of).collect();
        Round {
            entrants,
            active,
            pos,
            met,
            colours,
        }
    }

    fn met(&self, a: usize, b: usize) -> bool {
        self.met[a].binary_search(&b).is_ok()
    }

    fn score(&self, i: usize) -> u32 {
        self.entrants[i].score2
    }

    /// The colour cost of a pair that may meet (not met, a colour assignment allowed).
    fn colour_cost(&self, a: usize, b: usize) -> Option<u32> {
        if self.met(a, b) {
            return None;
        }
        colours::pair_cost(&self.colours[a], &self.colours[b])
    }

    /// The bye stage: who sits out, by criteria 1 and 2 (module header and `swiss/weights.rs`).
    fn choose_bye(&self) -> Result<usize, PairingError> {
        let mut eligible: Vec<usize> = self
            .active
            .iter()
            .copied()
            .filter(|&i| !self.entrants[i].had_bye)
            .collect();
        if eligible.is_empty() {
            return Err(PairingError::NoPairing);
        }
        // Bye order: lowest score first, then lowest-ranked first.
        eligible.sort_by_key(|&i| (self.score(i), std::cmp::Reverse(self.pos[i])));
        let bottom = self
            .active
            .iter()
            .map(|&i| self.score(i))
            .min()
            .unwrap_or(0);
        let phantom = self.active.len();
        let mut raw: Vec<(usize, usize, u32, usize)> = Vec::new();
        for (x, &a) in self.active.iter().enumerate() {
            for (y, &b) in self.active.iter().enumerate().skip(x + 1) {
                if self.colour_cost(a, b).is_some() {
                    raw.push((x, y, self.score(a).abs_diff(self.score(b)), 0));
                }
            }
        }
        for (order, &i) in eligible.iter().enumerate() {
            // `active` is sorted by index, and every eligible player is active.
            if let Ok(x) = self.active.binary_search(&i) {
                raw.push((x, phantom, self.score(i) - bottom, order));
            }
        }
        let max_diff = raw.iter().map(|r| r.2).max().unwrap_or(0);
        let scale = ByeScale::new(eligible.len(), max_diff);
        let edges: Edges = raw
            .iter()
            .map(|&(x, y, c1, c2)| (x, y, scale.weight(c1, c2)))
            .collect();
        let mates = perfect_matching(edges, phantom + 1)?;
        mates
            .get(phantom)
            .and_then(|&x| self.active.get(x).copied())
            .ok_or(PairingError::NoPairing)
    }

    /// The pairing stage: a perfect matching of `players` (an even number), by criteria 1, 3, 4.
    fn match_players(&self, players: &[usize]) -> Result<Vec<(usize, usize)>, PairingError> {
        // Score groups among these players: each player's place in their group by rank, and
        // the group's size.
        let mut order: Vec<usize> = (0..players.len()).collect();
        order.sort_by_key(|&x| {
            (
                std::cmp::Reverse(self.score(players[x])),
                self.pos[players[x]],
            )
        });
        let mut place = vec![0usize; players.len()];
        let mut size = vec![0usize; players.len()];
        let mut start = 0;
        while start < order.len() {
            let s = self.score(players[order[start]]);
            let end = order[start..]
                .iter()
                .position(|&x| self.score(players[x]) != s)
                .map_or(order.len(), |k| start + k);
            for (k, &x) in order[start..end].iter().enumerate() {
                place[x] = k;
                size[x] = end - start;
            }
            start = end;
        }
        let placement = |x: usize, y: usize| -> usize {
            let (a, b) = (players[x], players[y]);
            match self.score(a).cmp(&self.score(b)) {
                std::cmp::Ordering::Equal => place[x].abs_diff(place[y]).abs_diff(size[x] / 2),
                std::cmp::Ordering::Greater => size[x] - 1 - place[x] + place[y],
                std::cmp::Ordering::Less => size[y] - 1 - place[y] + place[x],
            }
        };
        let mut raw: Vec<(usize, usize, u32, u32, u32)> = Vec::new();
        for x in 0..players.len() {
            for y in x + 1..players.len() {
                let (a, b) = (players[x], players[y]);
                if let Some(c3) = self.colour_cost(a, b) {
                    let c1 = self.score(a).abs_diff(self.score(b));
                    let c4 = u32::try_from(placement(x, y)).unwrap_or(u32::MAX);
                    raw.push((x, y, c1, c3, c4));
                }
            }
        }
        let max_diff = raw.iter().map(|r| r.2).max().unwrap_or(0);
        let max_placement = raw.iter().map(|r| r.4).max().unwrap_or(0);
        let scale = Scale::new(players.len() / 2, max_diff, max_placement);
        let edges: Edges = raw
            .iter()
            .map(|&(x, y, c1, c3, c4)| (x, y, scale.weight(c1, c3, c4)))
            .collect();
        let mates = perfect_matching(edges, players.len())?;
        Ok((0..players.len())
            .filter(|&x| mates[x] > x)
            .map(|x| (players[x], players[mates[x]]))
            .collect())
    }
}

/// A maximum-weight perfect matching on vertices `0..vertices`: each vertex's mate, or
/// `NoPairing` when the largest matching leaves some vertex out.
fn perfect_matching(edges: Edges, vertices: usize) -> Result<Vec<usize>, PairingError> {
    if vertices == 0 {
        return Ok(Vec::new());
    }
    let mates = Matching::new(edges).max_cardinality().solve();
    if mates.len() != vertices || mates.iter().any(|&m| m == SENTINEL || m >= vertices) {
        return Err(PairingError::NoPairing);
    }
    Ok(mates)
}
