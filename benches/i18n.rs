//! What speaking a language costs (issue 21): the time to put a message into words in English and
//! in Japanese (a plain one, one with arguments and a plural, one with a nested message), and to
//! write every legal move of a middle-game position in each notation. Prints the figures.
//!
//! `cargo bench --bench i18n` (add `-- --quick` for a short run, as CI does).

use std::hint::black_box;
use std::time::Instant;

use tegami::engine::notation::{written_all, Notation};
use tegami::engine::{Game, Position, VariantId};
use tegami::i18n::{Lang, Msg};
use tegami::{msg, t};

/// Nanoseconds per call of `f`, over `n` calls (after a warm-up).
fn per_call(n: usize, mut f: impl FnMut() -> String) -> f64 {
    for _ in 0..n / 10 {
        black_box(f());
    }
    let t = Instant::now();
    for _ in 0..n {
        black_box(f());
    }
    t.elapsed().as_nanos() as f64 / n as f64
}

/// A game of `plies` pseudo-random legal moves, still going (the first seed that gives one).
fn middle_game(id: VariantId, plies: usize) -> Game {
    for seed in 1u64.. {
        let mut g = Game::new(Position::start(id));
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15 ^ seed;
        while g.moves().len() < plies && !g.is_over() {
            let legal = g.legal_moves();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if g.play(legal[(x % legal.len() as u64) as usize]).is_err() {
                break;
            }
        }
        if !g.is_over() && g.moves().len() == plies {
            return g;
        }
    }
    unreachable!("some seed gives a game that goes on")
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let n = if quick { 2_000 } else { 200_000 };
    println!("message rendering, ns per message ({n} each):");
    for lang in Lang::ALL {
        let plain = per_call(n, || t!(lang, "err-not-found"));
        let args = per_call(n, || t!(lang, "settings-remind-hours", hours = 12));
        let nested: Msg = msg!("cmd-usage", usage = Msg::new("usage-move"));
        let nested = per_call(n, || nested.render(lang));
        println!(
            "  {:5}  plain {plain:7.0}  with arguments {args:7.0}  nested {nested:7.0}",
            lang.tag()
        );
    }
    let reps = if quick { 5 } else { 500 };
    println!("every legal move written, µs per position ({reps} each):");
    for id in VariantId::ALL {
        let g = middle_game(*id, 40);
        let pos = g.position().clone();
        let legal = pos.legal_moves();
        let last = g.moves().last().map(|m| m.to());
        let mut line = format!("  {:9} {:4} moves", id.to_string(), legal.len());
        for notation in Notation::ALL {
            let t = Instant::now();
            for _ in 0..reps {
                black_box(written_all(&pos, &legal, notation, last));
            }
            let us = t.elapsed().as_secs_f64() * 1e6 / reps as f64;
            line.push_str(&format!("  {} {us:8.1}", notation.as_str()));
        }
        println!("{line}");
    }
}
