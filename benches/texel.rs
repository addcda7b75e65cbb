//! Texel tuning of the evaluation on self-play games: the method behind the tuned values and
//! weights in `src/engine/search/eval.rs`.
//!
//! ```text
//! cargo bench --bench texel -- --variant shogi [--games 400] [--nodes 3000] [--threads N]
//!     [--passes 100] [--verify 40] [--verify-nodes 20000] [--verify-ms MS] [--first-opening 0]
//! ```
//!
//! **Skipped without a game.** Without `--variant` it prints one line saying it is skipped and
//! exits at once: a plain `cargo bench` stays quick.
//!
//! **The method** (Peter Österlund's, from his engine Texel):
//!
//! 1. **Games.** `--games` self-play games of the game (default 400), both sides at
//!    `--nodes` nodes a move (default 3000) with the evaluation in force. Game i opens with 8
//!    seeded random legal moves, so that the games differ; a game still going after 300 plies
//!    is a draw. The games are shared out over `--threads` threads (default: every core); each
//!    game is reproducible from its number.
//! 2. **Positions.** Every quiet position (`search::is_quiet`: not in check, no capture that
//!    wins by exchange) from ply 10 on, labelled with the game's result from the side to
//!    move's view: 1 for a win, ½ for a draw, 0 for a loss.
//! 3. **Error.** For parameters p, E(p) is the mean over the positions of
//!    (result − σ(eval_p))², with σ(x) = 1 / (1 + 10^(−K·x/400)). K is fitted first (0.01 to
//!    4 by hundredths), on the parameters in force, and then held.
//! 4. **Search.** Coordinate descent: each parameter in turn (the value of every kind but the
//!    king, then the weights of `eval::Weights` the game uses) is moved one step up, or else
//!    one step down, when that lowers E; passes repeat until one changes nothing or after
//!    `--passes` (default 100). Steps: 10 for a value, 1 for a weight, 2 for the hand percent.
//!    Values stay within half and twice the documented ones.
//! 5. **Check.** `--verify N` (default 40; 0 skips it) plays N games of the tuned evaluation
//!    against the one in force at `--verify-nodes` a move (default 20,000), colours
//!    alternating (`--verify-ms MS`: MS milliseconds a move on one thread each instead, so
//!    that a change that costs time pays for it as in play), game pairs from the same random
//!    opening (pair i from opening `--first-opening` + i, so that a second run can play
//!    other openings than the first).
//!    Tuned values go into the code only if they score above 50%.
//!
//! `--compare "NAME=VALUE,..."` skips the games and the tuning: it plays the check (step 5)
//! of the parameters in force with the named ones changed (the names are those the tuning
//! prints, e.g. `king attack`, `silver`), to try a term by hand. `shape=0` takes the shape
//! tables away (see `benches/distil.rs`). `search.NAME=VALUE` changes a setting of the search
//! instead (`search::SearchParams`: `search.rfp_depth=0` plays without reverse futility
//! pruning), so that a search technique is tried the same way.
//!
//! It prints the error before and after, the parameters that changed, a Rust snippet of the
//! tuned ones, and the check's score.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use tegami::engine::search::eval::{EvalParams, Evaluator, Weights};
use tegami::engine::search::{is_quiet, Limits, SearchParams, Searcher};
use tegami::engine::{Color, Game, Outcome, Position, VariantId};

/// A game still going after this many plies is a draw.
const MAX_PLIES: usize = 300;
/// Random opening moves.
const OPENING_PLIES: u64 = 8;
/// Positions before this ply are not used.
const FIRST_PLY: usize = 10;

struct Config {
    variant: VariantId,
    games: usize,
    nodes: u64,
    threads: usize,
    passes: usize,
    verify: usize,
    verify_nodes: u64,
    /// `--verify-ms`: the check games on a clock of this many milliseconds a move (one thread
    /// each) instead of `verify_nodes` (0: nodes).
    verify_ms: u64,
    /// The opening of the first pair of check games.
    first_opening: u64,
    /// `--compare`: parameters changed by hand (name, value), checked without tuning.
    compare: Vec<(String, i32)>,
}

fn parse_args() -> Result<Option<Config>> {
    let mut c = Config {
        variant: VariantId::Shogi,
        games: 400,
        nodes: 3000,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        passes: 100,
        verify: 40,
        verify_nodes: 20_000,
        verify_ms: 0,
        first_opening: 0,
        compare: Vec::new(),
    };
    let mut variant = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--variant" => {
                let v = value()?;
                variant =
                    Some(VariantId::parse(&v).with_context(|| format!("no game is called {v}"))?);
            }
            "--games" => c.games = value()?.parse().context("--games")?,
            "--nodes" => c.nodes = value()?.parse().context("--nodes")?,
            "--threads" => c.threads = value()?.parse().context("--threads")?,
            "--passes" => c.passes = value()?.parse().context("--passes")?,
            "--verify" => c.verify = value()?.parse().context("--verify")?,
            "--verify-nodes" => c.verify_nodes = value()?.parse().context("--verify-nodes")?,
            "--verify-ms" => c.verify_ms = value()?.parse().context("--verify-ms")?,
            "--first-opening" => {
                c.first_opening = value()?.parse().context("--first-opening")?;
            }
            "--compare" => {
                for pair in value()?.split(',') {
                    let (name, v) = pair
                        .split_once('=')
                        .with_context(|| format!("--compare wants NAME=VALUE, not {pair}"))?;
                    let v = v
                        .trim()
                        .parse()
                        .with_context(|| format!("--compare {pair}"))?;
                    c.compare.push((name.trim().to_string(), v));
                }
            }
            // What cargo passes to every bench.
            "--bench" => {}
            other if other.starts_with("--") => bail!("unknown option {other}"),
            // A name filter: this bench runs only if it is named.
            other => {
                if !"texel".contains(other) {
                    return Ok(None);
                }
            }
        }
    }
    let Some(v) = variant else {
        return Ok(None);
    };
    if c.games == 0 || c.nodes == 0 || c.threads == 0 || c.verify_nodes == 0 {
        bail!("--games, --nodes, --threads and --verify-nodes must be at least 1");
    }
    c.variant = v;
    Ok(Some(c))
}

/// A well-mixed 64-bit value (splitmix64's finaliser).
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seeded random opening of game pair `seed`.
fn opening(id: VariantId, seed: u64) -> Game {
    let mut g = Game::new(Position::start(id));
    for ply in 0..OPENING_PLIES {
        let moves = g.legal_moves();
        if moves.is_empty() || g.outcome().is_some() {
            break;
        }
        let m = moves[mix(seed ^ mix(ply)) as usize % moves.len()];
        g.play(m).expect("a legal move");
    }
    g
}

/// Plays a game from `g` with `black` and `white` (searchers and their node budgets) to its end
/// or `MAX_PLIES`: the winner, if any, and the positions on the way.
fn play_out(mut g: Game, players: &mut [(Searcher, Limits); 2]) -> (Option<Color>, Vec<Position>) {
    let mut positions = Vec::new();
    while g.outcome().is_none() && g.moves().len() < MAX_PLIES {
        positions.push(g.position().clone());
        let side = g.position().side_to_move();
        let (searcher, limits) = &mut players[side.index()];
        let r = searcher.think(&g, limits, |_| {});
        if r.declare {
            return (Some(side), positions);
        }
        let Some(m) = r.best else {
            break;
        };
        g.play(m).expect("the search plays legal moves");
    }
    let winner = match g.outcome() {
        Some(Outcome::Win { winner, .. }) => Some(winner),
        _ => None,
    };
    (winner, positions)
}

/// A quiet position and its game's result from the side to move's view.
struct Sample {
    pos: Position,
    result: f64,
}

fn generate(c: &Config) -> Vec<Sample> {
    let next = AtomicUsize::new(0);
    let samples = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..c.threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= c.games {
                    break;
                }
                let mut players = [
                    (Searcher::new(4), Limits::nodes(c.nodes)),
                    (Searcher::new(4), Limits::nodes(c.nodes)),
                ];
                let (winner, positions) = play_out(opening(c.variant, i as u64), &mut players);
                let mut found: Vec<Sample> = positions
                    .into_iter()
                    .enumerate()
                    .filter(|(ply, p)| *ply >= FIRST_PLY && is_quiet(p))
                    .map(|(_, pos)| {
                        let result = match winner {
                            None => 0.5,
                            Some(w) if w == pos.side_to_move() => 1.0,
                            Some(_) => 0.0,
                        };
                        Sample { pos, result }
                    })
                    .collect();
                if let Ok(mut all) = samples.lock() {
                    all.append(&mut found);
                }
            });
        }
    });
    let samples = samples.into_inner().unwrap_or_default();
    println!(
        "{} games of {} at {} nodes a move: {} quiet positions in {:.0} s",
        c.games,
        c.variant.as_str(),
        c.nodes,
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    samples
}

/// The evaluations of every sample under `p`, on `threads` threads.
fn evals(samples: &[Sample], p: &EvalParams, threads: usize) -> Vec<i32> {
    let e = Evaluator::new(p);
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                let e = &e;
                scope.spawn(move || part.iter().map(|s| e.evaluate(&s.pos)).collect::<Vec<_>>())
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

fn sigmoid(k: f64, eval: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval as f64 / 400.0))
}

fn error(samples: &[Sample], evals: &[i32], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .zip(evals)
        .map(|(s, &e)| (s.result - sigmoid(k, e)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The parameters as a vector, with their steps and bounds.
struct Space {
    names: Vec<String>,
    steps: Vec<i32>,
    bounds: Vec<(i32, i32)>,
}

fn space(p: &EvalParams) -> (Space, Vec<i32>) {
    let v = p.id.variant();
    let mut s = Space {
        names: Vec::new(),
        steps: Vec::new(),
        bounds: Vec::new(),
    };
    let mut x = Vec::new();
    for &(k, value) in &p.values {
        s.names.push(k.name().to_string());
        s.steps.push(10);
        s.bounds.push((value / 2, value * 2));
        x.push(value);
    }
    let w = p.weights;
    let mut weight = |name: &str, value: i32, step: i32, hi: i32| {
        s.names.push(name.to_string());
        s.steps.push(step);
        s.bounds.push((0, hi));
        x.push(value);
    };
    weight("tempo", w.tempo, 1, 100);
    weight("mobility", w.mobility, 1, 30);
    weight("shield", w.shield, 1, 100);
    weight("attacker", w.attacker, 1, 100);
    weight("king attack", w.king_attack, 1, 100);
    if v.spec.drops.enabled {
        weight("hand threat", w.hand_threat, 1, 50);
        weight("hand percent", w.hand_percent, 2, 200);
    }
    if v.spec.end.impasse.is_some() {
        weight("impasse point", w.impasse_point, 1, 200);
    }
    (s, x)
}

fn params_of(base: &EvalParams, s: &Space, x: &[i32]) -> EvalParams {
    let mut p = base.clone();
    let n = p.values.len();
    for (i, v) in p.values.iter_mut().enumerate() {
        v.1 = x[i];
    }
    let get = |name: &str, default: i32| {
        s.names[n..]
            .iter()
            .position(|m| m == name)
            .map_or(default, |i| x[n + i])
    };
    let w = base.weights;
    p.weights = Weights {
        tempo: get("tempo", w.tempo),
        mobility: get("mobility", w.mobility),
        shield: get("shield", w.shield),
        attacker: get("attacker", w.attacker),
        hand_threat: get("hand threat", w.hand_threat),
        impasse_point: get("impasse point", w.impasse_point),
        hand_percent: get("hand percent", w.hand_percent),
        king_attack: get("king attack", w.king_attack),
    };
    p
}

fn tune(c: &Config, samples: &[Sample]) -> EvalParams {
    let base = EvalParams::of(c.variant);
    let (s, mut x) = space(&base);
    let e0 = evals(samples, &base, c.threads);
    // K: the scale that fits the evaluation in force best.
    let mut best_k = (f64::MAX, 1.0);
    for i in 1..=400 {
        let k = i as f64 * 0.01;
        let err = error(samples, &e0, k);
        if err < best_k.0 {
            best_k = (err, k);
        }
    }
    let (mut best, k) = best_k;
    println!(
        "K = {k:.2}, error before: {best:.6} ({} parameters)",
        x.len()
    );
    let started = Instant::now();
    for pass in 1..=c.passes {
        let mut changed = 0;
        for i in 0..x.len() {
            for dir in [1, -1] {
                let mut y = x.clone();
                y[i] = (y[i] + dir * s.steps[i]).clamp(s.bounds[i].0, s.bounds[i].1);
                if y[i] == x[i] {
                    continue;
                }
                let err = error(
                    samples,
                    &evals(samples, &params_of(&base, &s, &y), c.threads),
                    k,
                );
                if err < best {
                    best = err;
                    x = y;
                    changed += 1;
                    break;
                }
            }
        }
        println!(
            "pass {pass}: {changed} changes, error {best:.6} ({:.0} s)",
            started.elapsed().as_secs_f64()
        );
        if changed == 0 {
            break;
        }
    }
    let tuned = params_of(&base, &s, &x);
    let (_, x0) = space(&base);
    println!("\n| parameter | in force | tuned |\n| --- | ---: | ---: |");
    for i in 0..x.len() {
        if x[i] != x0[i] {
            println!("| {} | {} | {} |", s.names[i], x0[i], x[i]);
        }
    }
    println!("\nTuned values for eval.rs (`OVERRIDES` and `TUNED_WEIGHTS`):");
    for &(kind, v) in &tuned.values {
        if v != base.value(kind) {
            println!(
                "    (VariantId::{:?}, PieceKind::{kind:?}, {v}),",
                c.variant
            );
        }
    }
    println!("    (VariantId::{:?}, {:?}),", c.variant, tuned.weights);
    tuned
}

/// What each side of a check game thinks for: `--verify-ms` on one thread, or else
/// `--verify-nodes`. On the clock, a change that costs time pays for it, as in play.
fn check_limits(c: &Config) -> Limits {
    if c.verify_ms > 0 {
        Limits {
            movetime: Some(std::time::Duration::from_millis(c.verify_ms)),
            threads: 1,
            ..Limits::default()
        }
    } else {
        Limits::nodes(c.verify_nodes)
    }
}

/// The check games' budget, as the results name it.
fn budget_of(c: &Config) -> String {
    if c.verify_ms > 0 {
        format!("{} ms a move, one thread each", c.verify_ms)
    } else {
        format!("{} nodes a move", c.verify_nodes)
    }
}

/// Plays the tuned evaluation (searching with `search`) against the one in force: its score.
fn verify(c: &Config, tuned: &EvalParams, search: SearchParams) -> f64 {
    let next = AtomicUsize::new(0);
    let points = Mutex::new(0.0f64);
    std::thread::scope(|scope| {
        for _ in 0..c.threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= c.verify {
                    break;
                }
                // Game i: the tuned side is Black when i is even; pairs share an opening.
                let tuned_side = if i.is_multiple_of(2) {
                    Color::Black
                } else {
                    Color::White
                };
                let t = (
                    Searcher::new(16)
                        .with_params(tuned)
                        .with_search_params(search),
                    check_limits(c),
                );
                let o = (Searcher::new(16), check_limits(c));
                let mut players = if tuned_side == Color::Black {
                    [t, o]
                } else {
                    [o, t]
                };
                let (winner, _) = play_out(
                    opening(c.variant, 1_000_000 + c.first_opening + (i / 2) as u64),
                    &mut players,
                );
                let p = match winner {
                    None => 0.5,
                    Some(w) if w == tuned_side => 1.0,
                    Some(_) => 0.0,
                };
                if let Ok(mut all) = points.lock() {
                    *all += p;
                }
            });
        }
    });
    let p = points.into_inner().unwrap_or(0.0);
    p / c.verify.max(1) as f64
}

fn main() -> Result<()> {
    let Some(c) = parse_args()? else {
        println!("texel: skipped (give --variant to tune a game's evaluation)");
        return Ok(());
    };
    if !c.compare.is_empty() {
        let base = EvalParams::of(c.variant);
        let (s, mut x) = space(&base);
        let mut without_shape = false;
        let mut search = SearchParams::of(c.variant);
        for (name, v) in &c.compare {
            if name == "shape" && *v == 0 {
                without_shape = true;
                continue;
            }
            if let Some(setting) = name.strip_prefix("search.") {
                if !search.set(setting, *v) {
                    bail!(
                        "no search setting {setting}: the settings are {}",
                        SearchParams::NAMES.join(", ")
                    );
                }
                continue;
            }
            let Some(i) = s.names.iter().position(|n| n == name) else {
                bail!(
                    "no parameter {name}: the names are {} (and shape=0: without the shape tables)",
                    s.names.join(", ")
                );
            };
            x[i] = *v;
        }
        let mut changed = params_of(&base, &s, &x);
        if without_shape {
            changed.shape = Vec::new();
        }
        let games = c.verify.max(2);
        let started = Instant::now();
        let budget = budget_of(&c);
        let score = verify(&Config { verify: games, ..c }, &changed, search);
        println!(
            "Compare: the changed evaluation scored {:.1}% in {} games against the one in force ({budget}, {:.0} s)",
            score * 100.0,
            games,
            started.elapsed().as_secs_f64()
        );
        return Ok(());
    }
    let samples = generate(&c);
    if samples.is_empty() {
        bail!("no quiet positions: play more games");
    }
    let tuned = tune(&c, &samples);
    if c.verify > 0 {
        let started = Instant::now();
        let score = verify(&c, &tuned, SearchParams::of(c.variant));
        println!(
            "\nCheck: the tuned evaluation scored {:.1}% in {} games against the one in force ({}, {:.0} s)",
            score * 100.0,
            c.verify,
            budget_of(&c),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
