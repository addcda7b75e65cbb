//! What pairing a Swiss league costs (issue 22): a 200-player, 9-round Swiss with random
//! results, every round paired by `league::swiss::pair` (bye and matching stages) and checked
//! against the absolute rules. Prints milliseconds per round and in total.
//!
//! `cargo bench --bench league` (add `-- --quick` for a single tournament, as CI does).

use std::time::Instant;

use tegami::league::swiss::{self, Entrant};
use tegami::league::{Outcome, Played};

const PLAYERS: usize = 200;
const ROUNDS: u32 = 9;

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

/// One tournament: the milliseconds each round's pairing took.
fn tournament(seed: u64) -> Vec<f64> {
    let mut rng = Rng(seed | 1);
    let ranks: Vec<usize> = (0..PLAYERS).collect();
    let mut active = vec![true; PLAYERS];
    let mut games: Vec<Played> = Vec::new();
    let mut times = Vec::new();
    for round in 1..=ROUNDS {
        // Now and then a player leaves, so that some rounds are odd and need a bye.
        if rng.below(3) == 0 {
            let i = rng.below(PLAYERS as u64) as usize;
            active[i] = false;
        }
        let entrants: Vec<Entrant> = swiss::entrants(PLAYERS, &ranks, &active, &games);
        let t = Instant::now();
        let pairings = swiss::pair(&entrants).expect("a 200-player Swiss pairs for 9 rounds");
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if let Err(why) = swiss::check_pairing(&entrants, &pairings) {
            panic!("round {round}: invalid pairing: {why}");
        }
        for pairing in pairings {
            let outcome = match (pairing.second, rng.below(5)) {
                (None, _) => Outcome::Bye,
                (Some(_), 0 | 1) => Outcome::FirstWins,
                (Some(_), 2 | 3) => Outcome::SecondWins,
                (Some(_), _) => Outcome::Draw,
            };
            games.push(Played {
                round,
                pairing,
                outcome,
            });
        }
    }
    times
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let tournaments = if quick { 1 } else { 10 };
    println!("Swiss pairing, {PLAYERS} players, {ROUNDS} rounds, {tournaments} tournament(s):");
    let mut per_round = vec![Vec::new(); ROUNDS as usize];
    let mut totals = Vec::new();
    for seed in 0..tournaments {
        let times = tournament(0x9e37_79b9_7f4a_7c15 ^ (seed + 1));
        for (r, t) in times.iter().enumerate() {
            per_round[r].push(*t);
        }
        totals.push(times.iter().sum::<f64>());
    }
    for (r, ts) in per_round.iter().enumerate() {
        let mean = ts.iter().sum::<f64>() / ts.len() as f64;
        let max = ts.iter().cloned().fold(0.0, f64::max);
        println!("  round {:2}  mean {mean:8.2} ms  max {max:8.2} ms", r + 1);
    }
    let all: Vec<f64> = per_round.iter().flatten().cloned().collect();
    let mean = all.iter().sum::<f64>() / all.len() as f64;
    let max = all.iter().cloned().fold(0.0, f64::max);
    let total = totals.iter().sum::<f64>() / totals.len() as f64;
    println!("  per round: mean {mean:.2} ms, max {max:.2} ms; per tournament: {total:.1} ms");
    assert!(
        max < 1000.0,
        "a round took {max:.0} ms, over the one-second target"
    );
}
