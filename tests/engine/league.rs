//! The pure league module (issue 22), one test target in four files: round-robin schedules
//! against the published FIDE Berger tables and the colour guarantees (here); Swiss pairings
//! worked by hand from the rules (`league/swiss.rs`); properties over thousands of random Swiss
//! tournaments, checked by the rules re-stated in the test, a brute force for small rounds and
//! a feasibility oracle (`league/swiss_properties.rs`); standings with hand-computed tie-breaks,
//! the crosstable and the withdrawal rule (`league/standings.rs`).

use tegami::league::{schedule, Format, Outcome, Pairing, Played, Side};

#[path = "league/standings.rs"]
mod standings;
#[path = "league/swiss.rs"]
mod swiss;
#[path = "league/swiss_properties.rs"]
mod swiss_properties;

fn g(first: usize, second: usize) -> Pairing {
    Pairing::game(first, second)
}

fn bye(p: usize) -> Pairing {
    Pairing::bye(p)
}

fn played(round: u32, pairing: Pairing, outcome: Outcome) -> Played {
    Played {
        round,
        pairing,
        outcome,
    }
}

fn firsts_minus_seconds(c: &[Side]) -> i64 {
    c.iter()
        .map(|s| if *s == Side::First { 1 } else { -1 })
        .sum()
}

/// A small deterministic generator for results and withdrawals.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn formats_read_and_write_their_words() {
    for f in Format::ALL {
        assert_eq!(Format::parse(f.as_str()), Some(f));
    }
    assert_eq!(Format::RoundRobin.as_str(), "round-robin");
    assert_eq!(Format::DoubleRoundRobin.as_str(), "double-round-robin");
    assert_eq!(Format::Swiss.as_str(), "swiss");
    assert_eq!(Format::parse("Swiss"), None);
    assert_eq!(Format::parse(""), None);
}

#[test]
fn four_players_follow_the_berger_table() {
    // FIDE Berger table for 3 or 4 players (1-based, first named plays first):
    // round 1: 1-4 2-3; round 2: 4-3 1-2; round 3: 2-4 3-1. Minus one for indices.
    assert_eq!(
        schedule(4, false),
        vec![
            vec![g(0, 3), g(1, 2)],
            vec![g(3, 2), g(0, 1)],
            vec![g(1, 3), g(2, 0)],
        ]
    );
}

#[test]
fn three_players_sit_out_in_turn() {
    // The 4-player table with player 4 a phantom: whoever meets 4 sits out (listed last).
    // Round 1: 1-4 → 1 sits out, 2-3; round 2: 4-3 → 3 sits out, 1-2; round 3: 2-4 → 2 sits
    // out, 3-1.
    assert_eq!(
        schedule(3, false),
        vec![
            vec![g(1, 2), bye(0)],
            vec![g(0, 1), bye(2)],
            vec![g(2, 0), bye(1)],
        ]
    );
}

#[test]
fn five_players_follow_the_six_player_table() {
    // FIDE Berger table for 5 or 6: 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 /
    // 3-6 4-2 5-1, player 6 a phantom (its opponent sits out).
    assert_eq!(
        schedule(5, false),
        vec![
            vec![g(1, 4), g(2, 3), bye(0)],
            vec![g(4, 2), g(0, 1), bye(3)],
            vec![g(2, 0), g(3, 4), bye(1)],
            vec![g(0, 3), g(1, 2), bye(4)],
            vec![g(3, 1), g(4, 0), bye(2)],
        ]
    );
}

#[test]
fn double_round_robin_swaps_colours_and_the_last_two_rounds_of_the_first_leg() {
    // First leg: the 4-player table with its rounds 2 and 3 exchanged; second leg: the table
    // in its own order with every pair reversed.
    assert_eq!(
        schedule(4, true),
        vec![
            vec![g(0, 3), g(1, 2)],
            vec![g(1, 3), g(2, 0)],
            vec![g(3, 2), g(0, 1)],
            vec![g(3, 0), g(2, 1)],
            vec![g(2, 3), g(1, 0)],
            vec![g(3, 1), g(0, 2)],
        ]
    );
}

#[test]
fn tiny_round_robins() {
    assert!(schedule(0, false).is_empty());
    assert!(schedule(1, true).is_empty());
    assert_eq!(schedule(2, false), vec![vec![g(0, 1)]]);
    assert_eq!(schedule(2, true), vec![vec![g(0, 1)], vec![g(1, 0)]]);
}

/// Each player's colours over the games they play, in round order (byes skipped).
fn colour_runs(players: usize, rounds: &[Vec<Pairing>]) -> Vec<Vec<Side>> {
    let mut out = vec![Vec::new(); players];
    for round in rounds {
        for p in round {
            if let Some(s) = p.second {
                out[p.first].push(Side::First);
                out[s].push(Side::Second);
            }
        }
    }
    out
}

fn longest_run(c: &[Side]) -> usize {
    let mut best = 0;
    let mut run = 0;
    for (i, side) in c.iter().enumerate() {
        run = if i > 0 && c[i - 1] == *side {
            run + 1
        } else {
            1
        };
        best = best.max(run);
    }
    best
}

#[test]
fn round_robins_meet_everyone_once_and_keep_the_colour_guarantees() {
    for n in 2..=30usize {
        for double in [false, true] {
            let rounds = schedule(n, double);
            let legs = if double { 2 } else { 1 };
            let per_leg = if n % 2 == 0 { n - 1 } else { n };
            assert_eq!(rounds.len(), legs * per_leg, "n={n} double={double}");
            let mut meetings = vec![vec![Vec::new(); n]; n];
            let mut byes = vec![0; n];
            for (r, round) in rounds.iter().enumerate() {
                let mut seen = vec![false; n];
                for p in round {
                    for i in std::iter::once(p.first).chain(p.second) {
                        assert!(!seen[i], "n={n} round {r}: {i} twice");
                        seen[i] = true;
                    }
                    match p.second {
                        Some(s) => meetings[p.first][s].push(Side::First),
                        None => byes[p.first] += 1,
                    }
                    if let Some(s) = p.second {
                        meetings[s][p.first].push(Side::Second);
                    }
                }
                assert!(seen.iter().all(|&s| s), "n={n} round {r}: someone missing");
                let round_byes = round.iter().filter(|p| p.second.is_none()).count();
                assert_eq!(round_byes, n % 2, "n={n} round {r}");
            }
            for (a, row) in meetings.iter().enumerate() {
                assert_eq!(byes[a], (n % 2) * legs, "n={n}: byes of {a}");
                for (b, m) in row.iter().enumerate() {
                    if a == b {
                        assert!(m.is_empty(), "n={n}: {a} meets themself");
                        continue;
                    }
                    assert_eq!(m.len(), legs, "n={n}: {a} meets {b}");
                    if double {
                        assert_ne!(m[0], m[1], "n={n}: {a}-{b} colours not swapped");
                    }
                }
            }
            for (p, c) in colour_runs(n, &rounds).iter().enumerate() {
                let diff = firsts_minus_seconds(c);
                let run = longest_run(c);
                match (double, n % 2) {
                    // Single, even: n - 1 games, colours one apart, at most two in a row.
                    (false, 0) => {
                        assert_eq!(diff.abs(), 1, "n={n} player {p}");
                        assert!(run <= 2, "n={n} player {p}: run {run}");
                    }
                    // Single, odd: strict alternation, level colours.
                    (false, _) => {
                        assert_eq!(diff, 0, "n={n} player {p}");
                        assert_eq!(run, 1, "n={n} player {p}");
                    }
                    // Double: level colours, never three in a row.
                    (true, _) => {
                        assert_eq!(diff, 0, "n={n} player {p}");
                        assert!(run <= 2, "n={n} player {p}: run {run}");
                    }
                }
            }
        }
    }
}
