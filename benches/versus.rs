//! Tegami's computer player at level 5 against Fairy-Stockfish: a match per game (Shogi,
//! Judkins Shogi) and a table of Tegami's score, to see how strong level 5 is against a known
//! engine.
//!
//! ```text
//! cargo bench --bench versus -- --fsf /path/to/fairy-stockfish [--variant shogi|judkins]
//!     [--games 20] [--movetime-ms 1000] [--fsf-movetime-ms MS] [--threads N] [--nodes N]
//!     [--max-plies 400] [--opening-plies 0]
//!     [--moves] [--fsf-option NAME=VALUE]... [--search NAME=VALUE]...
//! ```
//!
//! **Skipped without an engine.** Without `--fsf` (or the environment variable `TEGAMI_FSF`
//! naming the binary) it prints one line saying it is skipped and exits at once, whatever
//! else it is given: a plain `cargo bench` (which passes `--bench`) stays quick. A name filter
//! that does not select it (`cargo bench -- perft`) skips it too.
//!
//! **What is played.** `--games` games per variant (default 20; both variants unless
//! `--variant` names one), colours alternating: in game i (from 0) Tegami is Black when i is
//! even. Games are played one after another, never two at once, so neither side loses time to
//! the other. With `--opening-plies N` (default 0: every game from the start position) the
//! games open with N seeded random legal moves, the same for both games of a pair (games 2k
//! and 2k + 1, colours swapped, opening k), and each pair has another: without them the two
//! engines replay a few lines game after game, so that twenty games count far fewer
//! independent results than twenty. (Purely random moves can decide a game by themselves on
//! Judkins Shogi's small board: in a first match with two, the same colour won both games of
//! 9 pairs in 10; the book's docs/src/developing/engine.md has it.) Tegami plays in-process through the library
//! (`Searcher`, one per game so that its transposition table persists from move to move, as
//! in the bot) at level 5 with
//! `--movetime-ms` a move (default 1000 ms: level 5's own second, all of which it uses), or
//! with `--nodes N` a move
//! instead of a time (quick, reproducible smoke runs). Fairy-Stockfish is driven over USI
//! (`go movetime`, the same time unless `--fsf-movetime-ms` gives it less: time odds, to
//! measure how far apart the two are when level 5 loses every game). Both engines think on `--threads` threads (default 1; Tegami's level 5
//! otherwise takes every core, by Lazy SMP), and Fairy-Stockfish has its
//! default 16 MiB hash (Tegami's table is 16 MiB too). `--fsf-option NAME=VALUE` passes any
//! other option (an `EvalFile` NNUE network, say: without one Fairy-Stockfish plays Shogi and
//! Judkins Shogi with its classical evaluation), and `--fsf-option Threads=N` gives it a
//! thread count of its own (level 5 as shipped, on every core, against Fairy-Stockfish's
//! default of one: `--threads 2 --fsf-option Threads=1` on two cores); the table's time
//! control names both counts and every option. `--search NAME=VALUE` changes one of
//! Tegami's search settings (`SearchParams`, e.g. `--search lmp_depth=5`), to try a change
//! against Fairy-Stockfish rather than in self-play; the table's time control names them.
//!
//! **Rules and results.** Tegami's own `Game` applies every move and decides every end (mate,
//! repetition and perpetual check, the entering-king declaration): a move of Fairy-Stockfish
//! that Tegami cannot read or refuses ends the game as an error naming the move and the
//! position, counted apart from the score (the program then exits with status 1; 2 when the
//! engine cannot be started or stops answering). A game still going after `--max-plies` plies
//! (default 400) is adjudicated a draw, and says so; Judkins Shogi's impasse by agreement is
//! never proposed by either side, so such a game runs to that cap.
//! `bestmove resign` is Fairy-Stockfish's resignation, `bestmove win` its declaration (checked
//! by Tegami's rules). One line is printed per game as it ends (`--moves` adds its move
//! codes), then a Markdown table: games, Tegami's wins, draws and losses, its score (wins plus
//! half the draws) and the time control.
//!
//! **Checks of the link.** The move codes of both variants are USI's on both sides (`7g7f`,
//! `P*5e`, `8h2b+`; Judkins Shogi's files 1 to 6 from the right, ranks a to f from the top),
//! so no conversion is needed, and this is checked on every Fairy-Stockfish move: before it
//! thinks, its position (`d`, the SFEN) must be Tegami's, and its legal moves (`go perft 1`)
//! are compared with Tegami's; a difference in the moves is printed as a warning. (One
//! difference is expected and left out: Fairy-Stockfish's move generator lists a pawn drop
//! that gives mate, which only its search refuses, scoring it as a loss; were it played, Tegami
//! would refuse it, and the game would end as an error.)

#[path = "common/fsf.rs"]
mod fsf;
#[path = "common/opening.rs"]
mod opening;

use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use tegami::engine::notation::fen;
use tegami::engine::search::{Limits, SearchParams, Searcher, DEFAULT_TT_MB};
use tegami::engine::{Color, Game, Outcome, Position, Reason, VariantId};

use fsf::{from_fsf, fsf_variant, to_fsf, Fsf};
use opening::random_opening;

/// The environment variable that can name the Fairy-Stockfish binary instead of `--fsf`.
const FSF_ENV: &str = "TEGAMI_FSF";

const USAGE: &str = "usage: cargo bench --bench versus -- --fsf /path/to/fairy-stockfish \
[--variant shogi|judkins] [--games 20] [--movetime-ms 1000] [--fsf-movetime-ms MS] \
[--threads N] [--nodes N] [--max-plies 400] [--opening-plies 0] [--moves] \
[--fsf-option NAME=VALUE]... [--search NAME=VALUE]...";

/// The run's settings.
struct Config {
    fsf: String,
    variants: Vec<VariantId>,
    games: u32,
    movetime_ms: u64,
    /// Fairy-Stockfish's time a move, when not `movetime_ms` (time odds).
    fsf_movetime_ms: Option<u64>,
    threads: u32,
    nodes: Option<u64>,
    max_plies: usize,
    /// Random legal moves each game opens with (0: the start position).
    opening_plies: u64,
    show_moves: bool,
    fsf_options: Vec<(String, String)>,
    /// Tegami's search settings changed from its own (`--search NAME=VALUE`).
    search: Vec<(String, i32)>,
}

impl Config {
    /// Reads the arguments; `None` when there is no engine to play (the bench is skipped).
    fn from_args(args: Vec<String>) -> Result<Option<Config>> {
        if args.iter().any(|a| a == "-h" || a == "--help") {
            println!("{USAGE}");
            return Ok(None);
        }
        let mut fsf = std::env::var(FSF_ENV).ok().filter(|s| !s.is_empty());
        // Nothing else is looked at without an engine: `cargo bench` gives `--bench` and
        // perhaps a filter, meant for the other benches.
        if fsf.is_none() && !args.iter().any(|a| a == "--fsf" || a.starts_with("--fsf=")) {
            println!(
                "versus: skipped (no Fairy-Stockfish binary: give --fsf PATH or set {FSF_ENV})"
            );
            return Ok(None);
        }
        let mut c = Config {
            fsf: String::new(),
            variants: vec![VariantId::Shogi, VariantId::Judkins],
            games: 20,
            movetime_ms: 1000,
            fsf_movetime_ms: None,
            threads: 1,
            nodes: None,
            max_plies: 400,
            opening_plies: 0,
            show_moves: false,
            fsf_options: Vec::new(),
            search: Vec::new(),
        };
        // `--name value` or `--name=value`.
        let mut it = args.into_iter().flat_map(|a| match a.split_once('=') {
            Some((k, v)) if k.starts_with("--") => vec![k.to_string(), v.to_string()],
            _ => vec![a],
        });
        let (mut errors, mut filters) = (Vec::new(), Vec::new());
        while let Some(a) = it.next() {
            let mut value = |name: &str| {
                it.next()
                    .ok_or_else(|| anyhow!("{name} needs a value\n{USAGE}"))
            };
            match a.as_str() {
                // cargo bench's own flag for a bench without libtest.
                "--bench" => {}
                "--fsf" => fsf = Some(value("--fsf")?),
                "--variant" => {
                    let v = value("--variant")?;
                    c.variants = v
                        .split(',')
                        .map(|s| match VariantId::parse(s) {
                            Some(id) if fsf_variant(id).is_some() => Ok(id),
                            _ => Err(anyhow!(
                                "--variant {s}: only shogi and judkins can be played against Fairy-Stockfish"
                            )),
                        })
                        .collect::<Result<_>>()?;
                }
                "--games" => c.games = number(&a, &value(&a)?)?,
                "--movetime-ms" => c.movetime_ms = number(&a, &value(&a)?)?,
                "--fsf-movetime-ms" => c.fsf_movetime_ms = Some(number(&a, &value(&a)?)?),
                "--threads" => c.threads = number(&a, &value(&a)?)?,
                "--nodes" => c.nodes = Some(number(&a, &value(&a)?)?),
                "--max-plies" => c.max_plies = number(&a, &value(&a)?)?,
                "--opening-plies" => c.opening_plies = number(&a, &value(&a)?)?,
                "--moves" => c.show_moves = true,
                "--fsf-option" => {
                    let o = value(&a)?;
                    // `--fsf-option=Name=Value` was split at its first '=' already.
                    let o = if o.contains('=') {
                        o
                    } else {
                        format!("{o}={}", value(&a)?)
                    };
                    let (k, v) = o.split_once('=').expect("an '=' was just checked");
                    c.fsf_options.push((k.to_string(), v.to_string()));
                }
                "--search" => {
                    let o = value(&a)?;
                    let (k, v) = match o.split_once('=') {
                        Some((k, v)) => (k.to_string(), v.to_string()),
                        None => (o, value(&a)?),
                    };
                    if !SearchParams::NAMES.contains(&k.as_str()) {
                        bail!(
                            "--search {k}: no such setting (one of {})",
                            SearchParams::NAMES.join(", ")
                        );
                    }
                    c.search.push((k, number(&a, &v)?));
                }
                // A libtest-style name filter (`cargo bench -- perft` gives it to every bench).
                _ if !a.starts_with('-') => filters.push(a),
                _ => errors.push(a),
            }
        }
        if !filters.is_empty() && !filters.iter().any(|f| "versus".contains(f.as_str())) {
            println!("versus: skipped (not selected by {})", filters.join(" "));
            return Ok(None);
        }
        let fsf = fsf.context("--fsf needs a path")?;
        if !errors.is_empty() {
            bail!("unknown arguments: {}\n{USAGE}", errors.join(" "));
        }
        if c.movetime_ms == 0
            || c.fsf_movetime_ms == Some(0)
            || c.threads == 0
            || c.nodes == Some(0)
            || c.max_plies == 0
        {
            bail!("--movetime-ms, --fsf-movetime-ms, --threads, --nodes and --max-plies must be at least 1");
        }
        c.fsf = fsf;
        Ok(Some(c))
    }

    /// Tegami's limits for a move.
    fn limits(&self, seed: u64) -> Limits {
        match self.nodes {
            Some(n) => Limits {
                level: Some(5),
                nodes: Some(n),
                seed,
                ..Limits::default()
            },
            None => Limits {
                level: Some(5),
                movetime: Some(Duration::from_millis(self.movetime_ms)),
                seed,
                threads: self.threads as usize,
                ..Limits::default()
            },
        }
    }

    /// The time control, as the table gives it.
    fn time_control(&self) -> String {
        let tegami = match self.nodes {
            Some(n) => format!("Tegami L5 {n} nodes/move"),
            None => format!("Tegami L5 {} ms/move", self.movetime_ms),
        };
        let plural = |n: u32| if n == 1 { "" } else { "s" };
        // `--fsf-option Threads=N` (set after `--threads`) gives Fairy-Stockfish its own count.
        let fsf_threads = self
            .fsf_options
            .iter()
            .rev()
            .find(|(k, _)| k.eq_ignore_ascii_case("Threads"))
            .and_then(|(_, v)| v.trim().parse::<u32>().ok())
            .unwrap_or(self.threads);
        let threads = if fsf_threads == self.threads {
            format!("{} thread{} each", self.threads, plural(self.threads))
        } else {
            format!(
                "Tegami {} thread{}, FSF {fsf_threads} thread{}",
                self.threads,
                plural(self.threads),
                plural(fsf_threads)
            )
        };
        let options: String = self
            .fsf_options
            .iter()
            .filter(|(k, _)| !k.eq_ignore_ascii_case("Threads"))
            .map(|(k, v)| format!("; FSF {k}={v}"))
            .collect();
        let openings = match self.opening_plies {
            0 => String::new(),
            n => format!("; openings of {n} random plies"),
        };
        let search: String = self
            .search
            .iter()
            .map(|(k, v)| format!("; search {k}={v}"))
            .collect();
        format!(
            "{tegami}; FSF {} ms/move; {threads}{openings}{search}{options}",
            self.fsf_movetime(),
        )
    }

    /// Fairy-Stockfish's time a move.
    fn fsf_movetime(&self) -> u64 {
        self.fsf_movetime_ms.unwrap_or(self.movetime_ms)
    }
}

fn number<T: std::str::FromStr>(name: &str, s: &str) -> Result<T> {
    s.parse()
        .map_err(|_| anyhow!("{name} {s}: not a number\n{USAGE}"))
}

/// How one game ended, from Tegami's side.
enum End {
    Win,
    Draw,
    Loss,
    /// Something went wrong in the game (a move refused, the positions apart): not scored.
    Error,
}

struct GameReport {
    end: End,
    plies: usize,
    reason: String,
    moves: String,
    warnings: Vec<String>,
}

/// Plays one game from `opening` (Fairy-Stockfish is told its moves); `Err` only when the
/// engine cannot be spoken to.
fn play_game(
    cfg: &Config,
    fsf: &mut Fsf,
    mut g: Game,
    tegami: Color,
    seed: u64,
) -> Result<GameReport> {
    fsf.send("usinewgame")?;
    fsf.ready()?;
    let mut searcher = Searcher::new(DEFAULT_TT_MB);
    if !cfg.search.is_empty() {
        let mut p = SearchParams::of(g.variant().id());
        for (k, v) in &cfg.search {
            p.set(k, *v);
        }
        searcher = searcher.with_search_params(p);
    }
    let limits = cfg.limits(seed);
    let mut warnings = Vec::new();
    let mut error: Option<String> = None;
    let mut resigned: Option<Color> = None;
    while !g.is_over() && g.moves().len() < cfg.max_plies {
        let side = g.position().side_to_move();
        let ply = g.moves().len() + 1;
        if side == tegami {
            let found = searcher.think(&g, &limits, |_| {});
            if found.declare {
                if let Err(r) = g.declare() {
                    error = Some(format!("Tegami declared at ply {ply} and was refused: {r}"));
                    break;
                }
                continue;
            }
            let Some(m) = found.best else {
                error = Some(format!(
                    "Tegami found no move at ply {ply} in {}",
                    fen::write(g.position())
                ));
                break;
            };
            if let Err(e) = g.play(m) {
                error = Some(format!(
                    "Tegami's own move {} at ply {ply} was refused in {}: {}",
                    to_fsf(g.position(), m),
                    fen::write(g.position()),
                    e.message(g.variant())
                ));
                break;
            }
        } else {
            fsf.position(&g)?;
            match fsf.check(&g) {
                Ok(None) => {}
                Ok(Some(w)) => warnings.push(format!("ply {ply}: {w}")),
                Err(e) => {
                    error = Some(format!("ply {ply}: {e:#}"));
                    break;
                }
            }
            let answer = fsf.go(cfg.fsf_movetime())?;
            let here = fen::write(g.position());
            match answer.as_str() {
                "resign" => {
                    resigned = Some(side);
                    g.set_outcome(Outcome::Win {
                        winner: tegami,
                        reason: Reason::Resignation,
                    });
                }
                "win" => {
                    if let Err(r) = g.declare() {
                        error = Some(format!(
                            "Fairy-Stockfish declared (bestmove win) at ply {ply} in {here}, refused: {r}"
                        ));
                        break;
                    }
                }
                text => {
                    let Some(m) = from_fsf(g.position(), text) else {
                        error = Some(format!(
                            "Fairy-Stockfish played {text} at ply {ply} in {here}: not a move code of the game"
                        ));
                        break;
                    };
                    if let Err(e) = g.play(m) {
                        error = Some(format!(
                            "Fairy-Stockfish played {text} at ply {ply} in {here}: illegal for Tegami ({})",
                            e.message(g.variant())
                        ));
                        break;
                    }
                }
            }
        }
    }
    let moves = {
        let mut pos = g.start().clone();
        let codes: Vec<String> = g
            .moves()
            .iter()
            .map(|&m| {
                let c = to_fsf(&pos, m);
                pos.make(m);
                c
            })
            .collect();
        codes.join(" ")
    };
    let plies = g.moves().len();
    let v = g.variant();
    let (end, reason) = match (error, g.outcome()) {
        (Some(e), _) => (End::Error, e),
        (None, Some(Outcome::Win { winner, reason })) => {
            let end = if winner == tegami {
                End::Win
            } else {
                End::Loss
            };
            let why = match resigned {
                Some(_) => "Fairy-Stockfish resigned (bestmove resign)".to_string(),
                None => format!("{} wins by {}", v.side_name(winner), reason.words()),
            };
            (end, why)
        }
        (None, Some(Outcome::Draw { reason })) => {
            (End::Draw, format!("draw by {}", reason.words()))
        }
        (None, None) => (
            End::Draw,
            format!(
                "adjudicated a draw: still going after {} plies",
                cfg.max_plies
            ),
        ),
    };
    Ok(GameReport {
        end,
        plies,
        reason,
        moves,
        warnings,
    })
}

#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    errors: u32,
}

impl Tally {
    fn score_percent(&self) -> f64 {
        let n = self.wins + self.draws + self.losses;
        if n == 0 {
            return 0.0;
        }
        100.0 * (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
    }
}

fn run(cfg: &Config) -> Result<bool> {
    let mut fsf = Fsf::start(&cfg.fsf)?;
    println!(
        "versus: Tegami level 5 against {} ({}), {} game(s) per variant; {}",
        fsf.name,
        cfg.fsf,
        cfg.games,
        cfg.time_control()
    );
    fsf.set_option("Threads", &cfg.threads.to_string())?;
    for (k, v) in &cfg.fsf_options {
        fsf.set_option(k, v)?;
    }
    fsf.ready()?;
    let mut rows = Vec::new();
    let mut warnings = 0;
    for &id in &cfg.variants {
        let name = fsf_variant(id).context("a variant Fairy-Stockfish plays")?;
        fsf.set_variant(name)?;
        let mut t = Tally::default();
        for i in 0..cfg.games {
            let tegami = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let t0 = Instant::now();
            let opening = random_opening(id, u64::from(i / 2), cfg.opening_plies);
            let r = play_game(cfg, &mut fsf, opening, tegami, u64::from(i) + 1)?;
            let result = match r.end {
                End::Win => {
                    t.wins += 1;
                    "Tegami wins"
                }
                End::Draw => {
                    t.draws += 1;
                    "draw"
                }
                End::Loss => {
                    t.losses += 1;
                    "Tegami loses"
                }
                End::Error => {
                    t.errors += 1;
                    "ERROR"
                }
            };
            println!(
                "{} game {}/{}: Tegami {}: {result}, {} plies, {} ({:.0} s)",
                id.as_str(),
                i + 1,
                cfg.games,
                capitalised(Position::start(id).variant().side_name(tegami)),
                r.plies,
                r.reason,
                t0.elapsed().as_secs_f64()
            );
            for w in &r.warnings {
                println!("  warning: {w}");
            }
            warnings += r.warnings.len();
            if cfg.show_moves {
                println!("  moves: {}", r.moves);
            }
        }
        rows.push((id, t));
    }
    println!();
    println!("| variant | games | Tegami wins | draws | losses | score % | time control |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
    let tc = cfg.time_control();
    let mut errors = 0;
    for (id, t) in &rows {
        println!(
            "| {} | {} | {} | {} | {} | {:.1} | {tc} |",
            id.as_str(),
            t.wins + t.draws + t.losses,
            t.wins,
            t.draws,
            t.losses,
            t.score_percent()
        );
        errors += t.errors;
    }
    if cfg.nodes.is_some() || cfg.movetime_ms != 1000 || !cfg.search.is_empty() {
        println!("\nTegami played level 5 with its limit or search changed: not the bot's level 5 exactly.");
    }
    if warnings > 0 {
        println!("{warnings} warning(s): the legal moves of the two engines differed (see above).");
    }
    if errors > 0 {
        println!("{errors} game(s) ended in an error (see above), not counted in the table.");
    }
    Ok(errors == 0)
}

fn main() {
    let outcome = Config::from_args(std::env::args().skip(1).collect()).and_then(|cfg| match cfg {
        Some(cfg) => run(&cfg),
        None => Ok(true),
    });
    match outcome {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("versus: {e:#}");
            std::process::exit(2);
        }
    }
}

/// `black` → `Black`.
fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
