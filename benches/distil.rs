//! Learning the evaluation's shape tables from Fairy-Stockfish's searches: the method behind
//! the tables in `src/engine/search/shape/`.
//!
//! ```text
//! cargo bench --bench distil -- generate --fsf PATH --variant shogi --out FILE
//!     [--games 1000] [--first 0] [--nodes 5000] [--threads N]
//! cargo bench --bench distil -- fit --variant shogi --data FILE [--data FILE]...
//!     [--epochs 800] [--l2 3e-11] [--ratio 0.6] [--out src/engine/search/shape/shogi.rs]
//! ```
//!
//! **Skipped without a command.** Without `generate` or `fit` it prints one line saying it is
//! skipped and exits at once: a plain `cargo bench` stays quick.
//!
//! **`generate`** has Fairy-Stockfish play itself, `--games` games (default 1000) shared out
//! over `--threads` threads (default: every core), one Fairy-Stockfish process per thread;
//! their numbers start at `--first` (default 0), so that a second run adds other games.
//! Game i opens with 2 + (i mod 7) random legal moves (seeded by i, so a game is reproducible), then
//! Fairy-Stockfish plays both sides at `--nodes` nodes a move (default 5000: depth 8 or so in
//! Shogi). Tegami's `Game` applies every move and decides every end; a game still going after
//! 300 plies stops there. Each position Fairy-Stockfish searched is written to `--out` as one
//! line, as the games end: the position string, a tab, and the score it gave for the side to
//! move in centipawns (positions with a mate score are left out).
//!
//! **`fit`** reads those lines and learns the shape tables (`eval::Shape`: piece-square
//! values, each piece's place relative to both kings, the worth of the n-th piece of a kind
//! in hand) on top of the evaluation in force without them:
//!
//! 1. **Positions.** The quiet ones (`search::is_quiet`) from ply 10 on with a score below
//!    1500 in Fairy-Stockfish's units; one in ten (by a hash of the position) is held out to
//!    measure the fit.
//! 2. **Error.** For tables w, E(w) is the mean over the positions of
//!    (σ(score) − σ(eval_w))², σ(x) = 1 / (1 + e^(−x/600)) (the logistic scale of computer
//!    Shogi; Fairy-Stockfish's scores divided by `--ratio`, see `fit`), plus `--l2`·Σw²
//!    (default 3·10⁻¹¹) so that entries the data hardly sees stay near zero. The evaluation is linear in the tables (each position's features
//!    are counted once), so the rest of it is computed once.
//! 3. **Search.** Adam (step 1 centipawn, full batches) for `--epochs` epochs (default 800).
//! 4. **Output.** The error on the held-out positions before and after, and the tables as a
//!    Rust file (`--out`, default the game's file under `src/engine/search/shape/`).
//!
//! Shogi's tables in force came from `generate --nodes 5000 --games 450` (played when
//! openings had i mod 7 random moves, so that run is not repeated exactly) and
//! `generate --nodes 600 --games 7450` (about 1.4 hours on two cores in all), then `fit` with
//! the defaults on both files. Judkins Shogi's came from `generate --variant judkins
//! --nodes 3000 --games 4000 --first 16000` and the same with `--first 20000` (about 17
//! minutes each on one core), then `fit --variant judkins` with the defaults on both files;
//! its layout adds the king-danger grid (`eval`'s `Layout`).
//!
//! Whether the tables are taken is decided by play, not by the error: `cargo bench --bench
//! texel -- --compare` (self-play) and `cargo bench --bench versus` (against Fairy-Stockfish);
//! the evaluation's module doc has the results.

#[path = "common/fsf.rs"]
mod fsf;
#[path = "common/opening.rs"]
mod opening;

use std::io::{BufRead, BufReader, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use tegami::engine::notation::fen;
use tegami::engine::search::eval::{shape_features, shape_size, EvalParams, Evaluator};
use tegami::engine::search::is_quiet;
use tegami::engine::{Game, Position, VariantId};

use fsf::{from_fsf, fsf_variant, Fsf};
use opening::{mix, random_opening};

const USAGE: &str =
    "usage: cargo bench --bench distil -- generate --fsf PATH --variant V --out FILE \
[--games 1000] [--first 0] [--nodes 5000] [--threads N]\n       cargo bench --bench distil -- fit --variant V \
--data FILE [--data FILE]... [--epochs 800] [--l2 3e-11] [--ratio 0.6] [--out FILE]";

/// A game still going after this many plies stops.
const MAX_PLIES: usize = 300;

struct Args {
    command: String,
    fsf: Option<String>,
    variant: VariantId,
    out: Option<String>,
    data: Vec<String>,
    games: usize,
    /// The number of the first game (so that a second run plays other games).
    first: usize,
    nodes: u64,
    threads: usize,
    epochs: usize,
    l2: f64,
    ratio: f64,
}

fn parse_args() -> Result<Option<Args>> {
    let mut argv = std::env::args().skip(1).filter(|a| a != "--bench");
    let Some(command) = argv.next() else {
        return Ok(None);
    };
    if command != "generate" && command != "fit" {
        return Ok(None);
    }
    let mut a = Args {
        command,
        fsf: None,
        variant: VariantId::Shogi,
        out: None,
        data: Vec::new(),
        games: 1000,
        first: 0,
        nodes: 5000,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        epochs: 800,
        l2: 3e-11,
        ratio: 0.6,
    };
    while let Some(flag) = argv.next() {
        let value = argv
            .next()
            .ok_or_else(|| anyhow!("{flag} needs a value\n{USAGE}"))?;
        let number = |v: &str| -> Result<u64> {
            v.parse()
                .map_err(|_| anyhow!("{flag} {v}: not a number\n{USAGE}"))
        };
        match flag.as_str() {
            "--fsf" => a.fsf = Some(value),
            "--variant" => {
                a.variant = VariantId::parse(&value)
                    .ok_or_else(|| anyhow!("--variant {value}: no such game\n{USAGE}"))?
            }
            "--out" => a.out = Some(value),
            "--data" => a.data.push(value),
            "--games" => a.games = number(&value)? as usize,
            "--first" => a.first = number(&value)? as usize,
            "--nodes" => a.nodes = number(&value)?,
            "--threads" => a.threads = number(&value)?.max(1) as usize,
            "--epochs" => a.epochs = number(&value)? as usize,
            "--ratio" => {
                a.ratio = value
                    .parse()
                    .map_err(|_| anyhow!("--ratio {value}: not a number\n{USAGE}"))?
            }
            "--l2" => {
                a.l2 = value
                    .parse()
                    .map_err(|_| anyhow!("--l2 {value}: not a number\n{USAGE}"))?
            }
            _ => bail!("unknown argument {flag}\n{USAGE}"),
        }
    }
    Ok(Some(a))
}

/// Game `i`'s opening: 2 + `i mod 7` seeded random legal moves (at least two, so that few
/// games repeat: Fairy-Stockfish plays the same position the same way).
fn opening(id: VariantId, i: u64) -> Game {
    random_opening(id, i, 2 + i % 7)
}

/// Plays game `i` with Fairy-Stockfish on both sides: the lines it gives (position, score).
fn self_play(e: &mut Fsf, id: VariantId, i: u64, nodes: u64) -> Result<Vec<String>> {
    e.send("usinewgame")?;
    e.ready()?;
    let mut g = opening(id, i);
    let mut lines = Vec::new();
    while !g.is_over() && g.moves().len() < MAX_PLIES {
        e.position(&g)?;
        let s = e.go_nodes(nodes)?;
        if let Some(cp) = s.score_cp {
            lines.push(format!("{}\t{cp}", fen::write(g.position())));
        }
        let Some(m) = from_fsf(g.position(), &s.best) else {
            break; // resign, win, or a move Tegami cannot read: the game stops here
        };
        if g.play(m).is_err() {
            break;
        }
    }
    Ok(lines)
}

fn generate(a: &Args) -> Result<()> {
    let path = a.fsf.as_deref().context("generate needs --fsf PATH")?;
    let out = a.out.as_deref().context("generate needs --out FILE")?;
    let name = fsf_variant(a.variant).context("a game Fairy-Stockfish plays (shogi, judkins)")?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("cannot open {out}"))?;
    let file = Mutex::new(std::io::BufWriter::new(file));
    let next = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| -> Result<()> {
        let workers: Vec<_> = (0..a.threads)
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    let mut e = Fsf::start(path)?;
                    e.set_option("Threads", "1")?;
                    e.set_variant(name)?;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= a.games {
                            return Ok(());
                        }
                        let game = (a.first + i) as u64;
                        let lines = self_play(&mut e, a.variant, game, a.nodes)?;
                        let n = written.fetch_add(lines.len(), Ordering::Relaxed) + lines.len();
                        let mut f = file.lock().map_err(|_| anyhow!("a writer panicked"))?;
                        for l in &lines {
                            writeln!(f, "{l}")?;
                        }
                        f.flush()?;
                        if (i + 1).is_multiple_of(50) {
                            eprintln!(
                                "game {} of {}: {n} positions in {:.0} s",
                                i + 1,
                                a.games,
                                started.elapsed().as_secs_f64()
                            );
                        }
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().map_err(|_| anyhow!("a worker panicked"))??;
        }
        Ok(())
    })?;
    println!(
        "{} games of {} at {} nodes a move: {} positions in {:.0} s, in {out}",
        a.games,
        a.variant.as_str(),
        a.nodes,
        written.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> Result<()> {
    let Some(a) = parse_args()? else {
        println!("distil: skipped (give `generate` or `fit`; see benches/distil.rs)");
        return Ok(());
    };
    match a.command.as_str() {
        "generate" => generate(&a),
        _ => fit(&a),
    }
}

/// The logistic scale of the error, in centipawns.
const SCALE: f64 = 600.0;
/// Positions before this ply are not used.
const FIRST_PLY: u32 = 10;
/// Positions Fairy-Stockfish scored at or beyond this (in its units) are not used.
const MAX_SCORE: i32 = 1500;

fn sigma(x: f64) -> f64 {
    1.0 / (1.0 + (-x / SCALE).exp())
}

/// Positions with their features, the rest of the evaluation, and the target score.
#[derive(Default)]
struct Set {
    /// Per position: its features are `index[start[i]..start[i + 1]]` with signs `sign[..]`.
    start: Vec<usize>,
    index: Vec<u32>,
    sign: Vec<i8>,
    rest: Vec<f64>,
    /// σ of the score, and the score.
    target: Vec<f64>,
    score: Vec<f64>,
}

impl Set {
    fn len(&self) -> usize {
        self.rest.len()
    }

    fn push(&mut self, features: &[(u32, i8)], rest: i32, target: i32) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        for &(i, s) in features {
            self.index.push(i);
            self.sign.push(s);
        }
        self.start.push(self.index.len());
        self.rest.push(f64::from(rest));
        self.target.push(sigma(f64::from(target)));
        self.score.push(f64::from(target));
    }

    /// Adds another set's positions after these.
    fn append(&mut self, other: Set) {
        if other.len() == 0 {
            return;
        }
        if self.start.is_empty() {
            self.start.push(0);
        }
        let offset = self.index.len();
        self.start
            .extend(other.start[1..].iter().map(|&s| s + offset));
        self.index.extend(other.index);
        self.sign.extend(other.sign);
        self.rest.extend(other.rest);
        self.target.extend(other.target);
        self.score.extend(other.score);
    }

    fn predict(&self, i: usize, w: &[f64]) -> f64 {
        let mut x = self.rest[i];
        for j in self.start[i]..self.start[i + 1] {
            x += w[self.index[j] as usize] * f64::from(self.sign[j]);
        }
        x
    }

    /// The mean squared error at `w`, and its gradient when `grad` is given.
    fn error(&self, w: &[f64], mut grad: Option<&mut [f64]>) -> f64 {
        let n = self.len().max(1) as f64;
        let mut e = 0.0;
        for i in 0..self.len() {
            let p = sigma(self.predict(i, w));
            let d = p - self.target[i];
            e += d * d;
            if let Some(g) = grad.as_deref_mut() {
                let dx = 2.0 * d * p * (1.0 - p) / SCALE / n;
                for j in self.start[i]..self.start[i + 1] {
                    g[self.index[j] as usize] += dx * f64::from(self.sign[j]);
                }
            }
        }
        e / n
    }
}

/// Reads the data files: (position, score) of every usable line.
fn read(a: &Args) -> Result<Vec<(Position, i32)>> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for path in &a.data {
        let f = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
        for line in BufReader::new(f).lines() {
            let line = line?;
            let Some((sfen, score)) = line.split_once('\t') else {
                continue;
            };
            let Ok(score) = score.trim().parse::<i32>() else {
                continue;
            };
            let ply: u32 = sfen
                .split_whitespace()
                .nth(3)
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            if ply < FIRST_PLY || score.abs() >= MAX_SCORE || !seen.insert(sfen.to_string()) {
                continue;
            }
            let Ok(pos) = fen::parse(a.variant.variant(), sfen) else {
                continue;
            };
            out.push((pos, score));
        }
    }
    Ok(out)
}

fn fit(a: &Args) -> Result<()> {
    let started = Instant::now();
    let read_in = read(a)?;
    let mut base = EvalParams::of(a.variant);
    base.shape = Vec::new();
    let size = shape_size(a.variant);
    // Features and the rest of the evaluation, on every core.
    let chunk = read_in.len().div_ceil(a.threads).max(1);
    let parts: Vec<(Set, Set)> = std::thread::scope(|scope| {
        let handles: Vec<_> = read_in
            .chunks(chunk)
            .map(|part| {
                let base = &base;
                scope.spawn(move || {
                    let e = Evaluator::new(base);
                    let (mut train, mut test) = (Set::default(), Set::default());
                    let mut f = Vec::new();
                    for (pos, score) in part {
                        if !is_quiet(pos) {
                            continue;
                        }
                        shape_features(pos, &mut f);
                        let set = if mix(pos.hash()).is_multiple_of(10) {
                            &mut test
                        } else {
                            &mut train
                        };
                        set.push(&f, e.evaluate(pos), *score);
                    }
                    (train, test)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let (mut train, mut test) = (Set::default(), Set::default());
    for (tr, te) in parts {
        train.append(tr);
        test.append(te);
    }
    println!(
        "{} positions read, {} quiet ones: {} to learn from, {} held out; {} entries; {:.0} s",
        read_in.len(),
        train.len() + test.len(),
        train.len(),
        test.len(),
        size,
        started.elapsed().as_secs_f64()
    );
    // Fairy-Stockfish's centipawns are not Tegami's: it writes its scores in units of a chess
    // pawn's endgame value (208 of its internal units), and its Shogi pieces are worth 90
    // (pawn), 400 (lance), 420 (knight), 660 (silver), 720 (gold), 825 (bishop) and 1276
    // (rook) internally. Against Tegami's 100, 300, 350, 500, 550, 800 and 950, the
    // least-squares ratio is 0.596: its scores are divided by `--ratio` (default 0.6).
    let ratio = a.ratio;
    let (mut xy, mut xx) = (0.0, 0.0);
    for i in 0..train.len() {
        if train.rest[i].abs() < 1500.0 {
            xy += train.rest[i] * train.score[i];
            xx += train.rest[i] * train.rest[i];
        }
    }
    println!(
        "scores divided by {ratio}; the least-squares ratio to the evaluation without tables is {:.3}",
        xy / xx.max(1.0)
    );
    for set in [&mut train, &mut test] {
        for i in 0..set.len() {
            set.score[i] /= ratio;
            set.target[i] = sigma(set.score[i]);
        }
    }
    let mut w = vec![0.0f64; size];
    let before = (train.error(&w, None), test.error(&w, None));
    let (mut m, mut v) = (vec![0.0f64; size], vec![0.0f64; size]);
    let (b1, b2, lr) = (0.9f64, 0.999f64, 1.0f64);
    for epoch in 1..=a.epochs {
        let mut g = vec![0.0f64; size];
        let e = train.error(&w, Some(&mut g));
        for i in 0..size {
            let gi = g[i] + 2.0 * a.l2 * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        if epoch % 50 == 0 || epoch == a.epochs {
            println!(
                "epoch {epoch}: error {e:.6} (held out {:.6})",
                test.error(&w, None)
            );
        }
    }
    let after = (train.error(&w, None), test.error(&w, None));
    println!(
        "error {:.6} → {:.6}; held out {:.6} → {:.6}; {:.0} s",
        before.0,
        after.0,
        before.1,
        after.1,
        started.elapsed().as_secs_f64()
    );
    let table: Vec<i16> = w
        .iter()
        .map(|&x| x.round().clamp(-2000.0, 2000.0) as i16)
        .collect();
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| format!("src/engine/search/shape/{}.rs", a.variant.as_str()));
    let mut text = format!(
        "//! The shape tables of {} (see `eval`'s shape term), learned by\n\
         //! `cargo bench --bench distil -- fit` from {} positions scored by Fairy-Stockfish\n\
         //! (error {:.5} → {:.5} on {} positions held out). Written by that command: do not edit.\n\n\
         #[rustfmt::skip]\n\
         pub(crate) static TABLE: [i16; {}] = [\n",
        a.variant.as_str(),
        train.len(),
        before.1,
        after.1,
        test.len(),
        table.len()
    );
    for row in table.chunks(16) {
        let cells: Vec<String> = row.iter().map(|x| x.to_string()).collect();
        text.push_str(&format!("    {},\n", cells.join(", ")));
    }
    text.push_str("];\n");
    std::fs::write(&out, text).with_context(|| format!("cannot write {out}"))?;
    println!("tables written to {out}");
    Ok(())
}
