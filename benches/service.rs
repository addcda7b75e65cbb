//! The command core's speed on a real database: plays random games of every variant through
//! `Service::handle` (challenge, accept, then moves until the game ends or 120 plies) and prints
//! moves per second and the p50 / p99 latency of a move, with board pictures off and on.
//!
//! It runs on a SQLite file, and on PostgreSQL too when `TEGAMI_BENCH_DATABASE_URL` names a
//! server (a fresh database, dropped after): the same games, by one player thread and by four
//! at once (each thread its own games, as several servers' players would be).
//!
//! `cargo bench --bench service` (add `-- --games N` to change the number of games, default 40).
//! Targets (issue 6): p99 ≤ 10 ms and ≥ 1,000 moves/s with pictures off, on one core.

#[path = "common/pg.rs"]
mod pg;

use std::sync::Arc;
use std::time::Instant;

use tegami::engine::notation::code;
use tegami::engine::{Game, VariantId};
use tegami::service::{parse_command, Config, Place, Request, Service, SystemClock, User};
use tegami::store::{PgStore, SqliteStore, Store};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

fn req(user: &str, line: &str) -> Request {
    Request {
        user: User::new(user, user),
        place: Place {
            guild: Some("bench".into()),
            channel: Some("bench".into()),
            admin: false,
            locale: None,
        },
        command: parse_command(line).expect("bench commands are well formed"),
    }
}

/// Plays `games` games (numbered from `first`) and returns each move's latency in ms.
fn play(service: &Service, first: usize, games: usize, seed: u64) -> Vec<f64> {
    let mut rng = Rng(seed);
    let mut latencies = Vec::new();
    for i in first..first + games {
        let variant = VariantId::ALL[i % VariantId::ALL.len()];
        let (a, b) = (format!("a{i}"), format!("b{i}"));
        let r = service.handle(&req(&a, &format!("challenge @{b} {variant} black")));
        assert!(!r.error, "{}", r.text);
        let r = service.handle(&req(&b, "accept"));
        assert!(!r.error, "{}", r.text);
        let id = number_after(&r.text, "Game #").expect("the new game's number");
        let mut game = Game::new(tegami::engine::Position::start(variant));
        for ply in 0..120 {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            let who = if ply % 2 == 0 { &a } else { &b };
            let line = format!("move {id} {}", code::write(game.variant(), m));
            let t = Instant::now();
            let r = service.handle(&req(who, &line));
            latencies.push(t.elapsed().as_secs_f64() * 1000.0);
            assert!(!r.error, "{line}: {}", r.text);
            game.play(m).expect("legal");
        }
    }
    latencies
}

/// The number after `prefix` in `text`.
fn number_after(text: &str, prefix: &str) -> Option<i64> {
    let at = text.find(prefix)? + prefix.len();
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// Plays `games` games on `store` with `threads` player threads and prints the figures.
fn run(backend: &str, store: Arc<dyn Store>, images: bool, games: usize, threads: usize) {
    let service = Service::new(
        store,
        Arc::new(SystemClock),
        Config {
            images,
            ..Config::default()
        },
    );
    let t0 = Instant::now();
    let per = games.div_ceil(threads);
    let mut latencies: Vec<f64> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..threads)
            .map(|k| {
                let service = &service;
                s.spawn(move || play(service, k * per, per, 0x9E37_79B9_7F4A_7C15 + k as u64))
            })
            .collect();
        runs.into_iter()
            .flat_map(|r| r.join().expect("a player thread"))
            .collect()
    });
    let total = t0.elapsed().as_secs_f64();
    latencies.sort_by(|x, y| x.total_cmp(y));
    let pct = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p) as usize];
    println!(
        "{backend:<10} pictures {:>3}, {threads} thread{}: {} games, {} moves in {:.2} s: {:.0} moves/s; move latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        if images { "on" } else { "off" },
        if threads == 1 { " " } else { "s" },
        per * threads,
        latencies.len(),
        total,
        latencies.len() as f64 / total,
        pct(0.5),
        pct(0.99),
        latencies.last().copied().unwrap_or(0.0)
    );
}

/// A fresh SQLite file (kept until the returned folder is dropped).
fn sqlite() -> (tempfile::TempDir, Arc<dyn Store>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SqliteStore::open(dir.path().join("bench.db")).expect("open store");
    (dir, Arc::new(store))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--test" || a == "--list") {
        // `cargo test --benches` runs bench binaries with --test: a quick smoke run.
        let (_dir, store) = sqlite();
        run("sqlite", store, false, 2, 1);
        return;
    }
    let games = args
        .iter()
        .position(|a| a == "--games")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(40);
    for threads in [1, 4] {
        let (_dir, store) = sqlite();
        run("sqlite", store, false, games, threads);
    }
    let (_dir, store) = sqlite();
    run("sqlite", store, true, games / 4 + 1, 1);
    if let Some(db) = pg::BenchDb::create("the command core") {
        println!("({})", db.durability());
        for threads in [1, 4] {
            let store = Arc::new(PgStore::open(&db.url).expect("open PostgreSQL"));
            run("postgres", store, false, games, threads);
        }
        let store = Arc::new(PgStore::open(&db.url).expect("open PostgreSQL"));
        run("postgres", store, true, games / 4 + 1, 1);
    }
}
