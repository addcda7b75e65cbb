//! The computer player's figures: nodes per second per game, and a strength table from
//! self-play matches.
//!
//! `cargo bench --bench search` runs the quick mode: the speed, and matches of 4 games per
//! pairing. `TEGAMI_BENCH_FULL=1 cargo bench --bench search` plays 20 games per pairing (or
//! `TEGAMI_BENCH_GAMES=N`; 0 measures the speed only). `TEGAMI_TUNE=1` instead plays the
//! piece-value tuning matches described in `src/engine/search/eval.rs`.
//! `TEGAMI_BENCH_ONLY=shogi,palace` limits the games.
//!
//! The analysis run times `/analysis` of a 300-ply game per variant (seeded random moves that
//! never end the game) on the service's default budget (`default_analysis_budget`): the node
//! share of each position, the positions reached and the time, which must stay under 30 s.
//!
//! In the matches level 5 thinks on a node budget (`L5_NODES`, about a tenth of a second on
//! this machine) instead of its one second a move, so that a full table takes minutes, not
//! hours, and is the same on every run. Each pairing alternates colours; the lower levels'
//! noise and the random and greedy players are seeded by the game number. A game still going
//! after `MAX_PLIES` plies is scored a draw.
//!
//! Every bench asserts what it measures: every move played is legal (`Game::play` refuses the
//! others), and the speed run's searches return a legal move.
//!
//! **Tactics.** `cargo bench --bench search -- tactics FILE [--nodes N] [--search NAME=VALUE]...`
//! searches each position of a suite on one thread, to a node budget (default 1,000,000, about
//! level 5's second), and counts the positions where the search plays the suite's move
//! (`found`) and those where it does not play the move to avoid (`avoided`), with the nodes
//! the search needed before its choice settled on the suite's move (summed over the found
//! positions, a budget's worth for the others). Searches to a node budget are reproducible,
//! so two runs differ only by what changed. `benches/tactics/judkins.jsonl` holds positions
//! of level 5's Judkins Shogi games against Fairy-Stockfish (one JSON object a line:
//! `variant`, `moves` from the start, `best` and `avoid` as move codes, Fairy-Stockfish's
//! scores of the two, and `kept`): the moves that cost it its lost games (`best` is
//! Fairy-Stockfish's move, `avoid` level 5's), and positions where it found the only good
//! move (`kept`: `best` is its move, `avoid` Fairy-Stockfish's second). A suite of mistakes
//! alone would favour any change of the search, which moves it off the moves it played there;
//! the kept positions weigh against that. `benches/tactics/make.py` makes a suite from
//! `versus` logs; its doc says how.

use std::time::{Duration, Instant};

use tegami::engine::search::{self, players, Limits, Searcher};
use tegami::engine::{Color, Game, Outcome, PieceKind, Position, VariantId};

/// Level 5's node budget in the matches.
const L5_NODES: u64 = 150_000;
/// A game longer than this is a draw.
const MAX_PLIES: usize = 300;
/// Nodes per position in the speed run.
const SPEED_NODES: u64 = 1_500_000;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Player {
    Random,
    Greedy,
    Level(u8),
    /// Level 5 on the match budget.
    Full,
    /// The tuning candidate: fixed nodes, light noise, piece values changed.
    Tuned {
        kind: PieceKind,
        percent: i32,
    },
    /// The tuning reference: the same with the documented values.
    Reference,
}

impl Player {
    fn name(self) -> String {
        match self {
            Player::Random => "random".into(),
            Player::Greedy => "greedy".into(),
            Player::Level(n) => format!("L{n}"),
            Player::Full => "L5".into(),
            Player::Tuned { kind, percent } => format!("{} x{percent}%", kind.name()),
            Player::Reference => "table".into(),
        }
    }
}

fn tuning_limits(seed: u64) -> Limits {
    Limits {
        level: Some(3),
        depth: Some(64),
        nodes: Some(20_000),
        seed,
        ..Limits::default()
    }
}

fn choose(p: Player, g: &Game, seed: u64) -> Option<tegami::engine::Move> {
    match p {
        Player::Random => players::random_move(g, seed),
        Player::Greedy => players::greedy_move(g, seed),
        Player::Level(n) => search::think(g, &Limits::level(n, seed), 16).best,
        Player::Full => {
            let limits = Limits {
                level: Some(5),
                nodes: Some(L5_NODES),
                seed,
                ..Limits::default()
            };
            search::think(g, &limits, 16).best
        }
        Player::Reference => search::think(g, &tuning_limits(seed), 16).best,
        Player::Tuned { kind, percent } => {
            let id = g.variant().id();
            let mut s = Searcher::new(16).with_values(id, move |k| {
                let v = search::eval::value_in(id, k);
                if k == kind {
                    v * percent / 100
                } else {
                    v
                }
            });
            s.think(g, &tuning_limits(seed), |_| {}).best
        }
    }
}

/// Plays one game; returns `a`'s points (1, 0.5 or 0) and the number of plies.
fn play(id: VariantId, a: Player, b: Player, a_first: bool, seed: u64) -> (f64, usize) {
    let mut g = Game::new(Position::start(id));
    let a_side = if a_first { Color::Black } else { Color::White };
    for ply in 0..MAX_PLIES {
        if g.is_over() {
            break;
        }
        let who = if g.position().side_to_move() == a_side {
            a
        } else {
            b
        };
        let s = seed.wrapping_mul(1_000_003).wrapping_add(ply as u64);
        let m = choose(who, &g, s).expect("a move while the game goes on");
        g.play(m).expect("the players only play legal moves");
    }
    let points = match g.outcome() {
        Some(Outcome::Win { winner, .. }) if winner == a_side => 1.0,
        Some(Outcome::Win { .. }) => 0.0,
        _ => 0.5,
    };
    (points, g.moves().len())
}

struct MatchResult {
    wins: u32,
    draws: u32,
    losses: u32,
    plies: usize,
}

impl MatchResult {
    fn score(&self) -> f64 {
        let n = (self.wins + self.draws + self.losses) as f64;
        (self.wins as f64 + self.draws as f64 / 2.0) / n.max(1.0)
    }

    fn cell(&self) -> String {
        format!(
            "{:>5.1}% (+{} ={} -{})",
            self.score() * 100.0,
            self.wins,
            self.draws,
            self.losses
        )
    }
}

/// A match of `games` games, two at a time (colours alternate).
fn run_match(id: VariantId, a: Player, b: Player, games: u32) -> MatchResult {
    let results: Vec<(f64, usize)> = std::thread::scope(|scope| {
        let chunks: Vec<Vec<u32>> = vec![
            (0..games).filter(|i| i % 2 == 0).collect(),
            (0..games).filter(|i| i % 2 == 1).collect(),
        ];
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .into_iter()
                        .map(|i| play(id, a, b, i % 2 == 0, i as u64 + 1))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a match thread"))
            .collect()
    });
    let mut r = MatchResult {
        wins: 0,
        draws: 0,
        losses: 0,
        plies: 0,
    };
    for (p, plies) in results {
        r.plies += plies;
        if p == 1.0 {
            r.wins += 1;
        } else if p == 0.0 {
            r.losses += 1;
        } else {
            r.draws += 1;
        }
    }
    r
}

fn games_selected() -> Vec<VariantId> {
    match std::env::var("TEGAMI_BENCH_ONLY") {
        Ok(list) if !list.is_empty() => list.split(',').filter_map(VariantId::parse).collect(),
        _ => VariantId::ALL.to_vec(),
    }
}

/// Positions for the speed run: the start, and two positions of a level-2 game with itself
/// (seeded: the same every run), a third and two thirds of the way through it (some games end
/// in a few dozen plies).
fn speed_positions(id: VariantId) -> Vec<Game> {
    let mut seen = vec![Game::new(Position::start(id))];
    let mut g = Game::new(Position::start(id));
    for ply in 0..60u64 {
        let Some(m) = search::think(&g, &Limits::level(2, ply), 4).best else {
            break;
        };
        g.play(m).expect("legal");
        if !g.is_over() {
            seen.push(g.clone());
        }
    }
    let n = seen.len();
    vec![
        seen[0].clone(),
        seen[n / 3].clone(),
        seen[2 * n / 3].clone(),
    ]
}

fn speed() {
    println!("Nodes per second (one thread, {SPEED_NODES} nodes from each of 3 positions, 16 MiB table):");
    println!(
        "{:<10} {:>12} {:>10} {:>12}",
        "game", "nodes", "seconds", "nps"
    );
    for id in games_selected() {
        let positions = speed_positions(id);
        let (mut nodes, mut time) = (0u64, Duration::ZERO);
        for g in &positions {
            let t0 = Instant::now();
            let r = Searcher::new(16).think(g, &Limits::nodes(SPEED_NODES), |_| {});
            time += t0.elapsed();
            nodes += r.nodes;
            let best = r.best.expect("a move");
            assert!(g.legal_moves().contains(&best));
        }
        println!(
            "{:<10} {:>12} {:>10.2} {:>12.0}",
            id.as_str(),
            nodes,
            time.as_secs_f64(),
            nodes as f64 / time.as_secs_f64()
        );
    }
    println!();
}

/// A game of `plies` seeded random legal moves, none of which ends it.
fn long_game(id: VariantId, plies: usize, seed: u64) -> Game {
    let mut g = Game::new(Position::start(id));
    for ply in 0..plies as u64 {
        let mut moves = g.legal_moves();
        assert!(!moves.is_empty());
        let k = (seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15)) as usize % moves.len();
        moves.rotate_left(k);
        g = moves
            .into_iter()
            .find_map(|m| {
                let mut h = g.clone();
                (h.play(m).is_ok() && h.outcome().is_none()).then_some(h)
            })
            .expect("a move that does not end the game");
    }
    g
}

fn analysis() {
    let budget = tegami::service::default_analysis_budget();
    println!(
        "Analysis of a 300-ply game (default budget: {} nodes in all, {}-{} a position, {} s at most):",
        budget.total_nodes,
        budget.min_per_position,
        budget.max_per_position,
        budget.time.as_secs()
    );
    println!(
        "{:<10} {:>10} {:>10} {:>10} {:>6}",
        "game", "nodes/pos", "positions", "seconds", "cut"
    );
    for id in games_selected() {
        let g = long_game(id, 300, 0x5eed);
        let t0 = Instant::now();
        let a = search::analyse_within(&g, &budget);
        let took = t0.elapsed();
        assert!(took < Duration::from_secs(30), "{id}: {took:?}");
        assert_eq!(a.evals.len() == 301, !a.cut);
        println!(
            "{:<10} {:>10} {:>10} {:>10.2} {:>6}",
            id.as_str(),
            a.nodes_per_position,
            a.evals.len(),
            took.as_secs_f64(),
            if a.cut { "yes" } else { "no" }
        );
    }
    println!();
}

fn strength(games: u32) {
    let pairings = [
        (Player::Full, Player::Random),
        (Player::Full, Player::Greedy),
        (Player::Full, Player::Level(3)),
        (Player::Level(3), Player::Level(1)),
    ];
    println!(
        "Strength: {games} games per pairing, score of the first named (level 5 at {L5_NODES} nodes a move; a game past {MAX_PLIES} plies is a draw):"
    );
    let head: Vec<String> = pairings
        .iter()
        .map(|(a, b)| format!("{} vs {}", a.name(), b.name()))
        .collect();
    println!(
        "{:<10} {}",
        "game",
        head.iter().map(|h| format!("{h:<22}")).collect::<String>()
    );
    for id in games_selected() {
        let t0 = Instant::now();
        let mut cells = Vec::new();
        let mut plies = 0;
        for &(a, b) in &pairings {
            let r = run_match(id, a, b, games);
            plies += r.plies;
            cells.push(format!("{:<22}", r.cell()));
        }
        println!(
            "{:<10} {}  ({:.0} s, {:.0} plies a game)",
            id.as_str(),
            cells.concat(),
            t0.elapsed().as_secs_f64(),
            plies as f64 / (games as f64 * pairings.len() as f64)
        );
    }
    println!();
}

/// The tuning matches: each changed value against the table, from the first player's view.
fn tune(games: u32) {
    let trials: &[(VariantId, PieceKind)] = &[
        (VariantId::Palace, PieceKind::Lion),
        (VariantId::Palace, PieceKind::Queen),
        (VariantId::Cannon, PieceKind::GoldCannon),
        (VariantId::Cannon, PieceKind::SilverCannon),
        (VariantId::Shanghai, PieceKind::Queen),
        (VariantId::Shanghai, PieceKind::XiangqiCannon),
        (VariantId::Shanghai, PieceKind::ChessKnight),
    ];
    println!("Tuning: {games} games each, score of the changed value against the table:");
    let only = games_selected();
    for &(id, kind) in trials.iter().filter(|t| only.contains(&t.0)) {
        for percent in [75, 125] {
            let r = run_match(
                id,
                Player::Tuned { kind, percent },
                Player::Reference,
                games,
            );
            println!(
                "{:<10} {:<22} {}",
                id.as_str(),
                Player::Tuned { kind, percent }.name(),
                r.cell()
            );
        }
    }
}

/// One position of a tactics suite.
struct Tactic {
    game: Game,
    best: tegami::engine::Move,
    avoid: tegami::engine::Move,
    /// A position where level 5 played `best` (the only good move), not one of its mistakes.
    kept: bool,
}

/// Reads a suite: one JSON object a line (`variant`, `moves`, `best`, `avoid`); blank lines and
/// lines starting with `#` are skipped.
fn read_suite(path: &str) -> Result<Vec<Tactic>, String> {
    use tegami::engine::notation::code;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut suite = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = |e: String| format!("{path}:{}: {e}", i + 1);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| at(e.to_string()))?;
        let field = |k: &str| {
            v[k].as_str()
                .map(str::to_owned)
                .ok_or_else(|| at(format!("no text field `{k}`")))
        };
        let variant = field("variant")?;
        let id = VariantId::parse(&variant).ok_or_else(|| at(format!("no game {variant}")))?;
        let mut game = Game::new(Position::start(id));
        for m in field("moves")?.split_whitespace() {
            let mv = code::parse(game.position(), m)
                .ok_or_else(|| at(format!("{m} is not a move code")))?;
            game.play(mv)
                .map_err(|_| at(format!("{m} is illegal there")))?;
        }
        let legal = |k: &str| -> Result<tegami::engine::Move, String> {
            let m = field(k)?;
            code::parse(game.position(), &m)
                .filter(|mv| game.legal_moves().contains(mv))
                .ok_or_else(|| at(format!("{k} {m} is not a legal move there")))
        };
        let (best, avoid) = (legal("best")?, legal("avoid")?);
        let kept = v["kept"].as_bool().unwrap_or(false);
        suite.push(Tactic {
            game,
            best,
            avoid,
            kept,
        });
    }
    Ok(suite)
}

/// `tactics FILE [--nodes N] [--search NAME=VALUE]...`: see the module's doc.
fn tactics(args: &[String]) -> Result<(), String> {
    use tegami::engine::notation::code;
    use tegami::engine::search::SearchParams;
    let mut file = None;
    let mut nodes = 1_000_000u64;
    let mut settings = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--nodes" => {
                let v = value()?;
                nodes = v
                    .parse()
                    .map_err(|_| format!("--nodes {v}: give a count"))?;
            }
            "--search" => settings.push(value()?.clone()),
            f if !f.starts_with('-') && file.is_none() => file = Some(f.to_owned()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let file = file.ok_or("tactics FILE: give the suite's file")?;
    let suite = read_suite(&file)?;
    println!(
        "Tactics: {} positions of {file}, {nodes} nodes each, one thread{}",
        suite.len(),
        if settings.is_empty() {
            String::new()
        } else {
            format!(", search {}", settings.join(" "))
        }
    );
    // Found and avoided, of the mistakes [0] and of the kept positions [1].
    let (mut found, mut avoided, mut count) = ([0u32; 2], [0u32; 2], [0u32; 2]);
    let (mut to_find, mut spent) = (0u64, 0u64);
    let t0 = Instant::now();
    for (n, t) in suite.iter().enumerate() {
        let mut p = SearchParams::of(t.game.variant().id());
        for s in &settings {
            p.set_from(s)?;
        }
        let mut searcher = Searcher::new(64).with_search_params(p);
        // The nodes searched when the best line last changed to the suite's move.
        let mut settled: Option<u64> = None;
        let r = searcher.think(&t.game, &Limits::nodes(nodes), |info| {
            if info.pv.first() == Some(&t.best) {
                settled.get_or_insert(info.nodes);
            } else {
                settled = None;
            }
        });
        let best = r.best.ok_or("a search found no move")?;
        spent += r.nodes;
        let hit = best == t.best;
        let k = t.kept as usize;
        count[k] += 1;
        found[k] += hit as u32;
        avoided[k] += (best != t.avoid) as u32;
        to_find += if hit {
            settled.unwrap_or(r.nodes)
        } else {
            nodes
        };
        println!(
            "{:>3} {} {} {:<6} depth {:>2}{}",
            n + 1,
            if t.kept { "kept  " } else { "mistake" },
            if hit {
                "found  "
            } else if best != t.avoid {
                "avoided"
            } else {
                "missed "
            },
            code::write(t.game.variant(), best),
            r.depth,
            if hit {
                format!(", settled after {} nodes", settled.unwrap_or(r.nodes))
            } else {
                format!(" (suite: {})", code::write(t.game.variant(), t.best))
            }
        );
    }
    let secs = t0.elapsed().as_secs_f64();
    println!(
        "mistakes: found {}/{}, avoided {}; kept: found {}/{}, avoided {}; all: found {}/{}; \
         nodes to find {to_find}; {spent} nodes in {secs:.1} s ({:.0} a second)",
        found[0],
        count[0],
        avoided[0],
        found[1],
        count[1],
        avoided[1],
        found[0] + found[1],
        suite.len(),
        spent as f64 / secs
    );
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.first().is_some_and(|a| a == "tactics") {
        if let Err(e) = tactics(&args[1..]) {
            eprintln!("tactics: {e}");
            std::process::exit(2);
        }
        return;
    }
    let env_games = std::env::var("TEGAMI_BENCH_GAMES")
        .ok()
        .and_then(|n| n.parse::<u32>().ok());
    if std::env::var("TEGAMI_TUNE").is_ok_and(|v| v == "1") {
        tune(env_games.unwrap_or(20));
        return;
    }
    let full = std::env::var("TEGAMI_BENCH_FULL").is_ok_and(|v| v == "1");
    let games = env_games.unwrap_or(if full { 20 } else { 4 });
    speed();
    analysis();
    if games > 0 {
        strength(games);
    }
}
