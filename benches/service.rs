//! The command core's speed with a real SQLite file: plays random games of every variant through
//! `Service::handle` (challenge, accept, then moves until the game ends or 120 plies) and prints
//! moves per second and the p50 / p99 latency of a move, with board pictures off and on.
//!
//! `cargo bench --bench service` (add `-- --games N` to change the number of games, default 40).
//! Targets (issue 6): p99 ≤ 10 ms and ≥ 1,000 moves/s with pictures off, on one core.

use std::sync::Arc;
use std::time::Instant;

use tegami::engine::notation::code;
use tegami::engine::{Game, VariantId};
use tegami::service::{parse_command, Config, Place, Request, Service, SystemClock, User};
use tegami::store::SqliteStore;

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
        },
        command: parse_command(line).expect("bench commands are well formed"),
    }
}

fn run(images: bool, games: usize) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("bench.db");
    let store = Arc::new(SqliteStore::open(&db).expect("open store"));
    let service = Service::new(
        store,
        Arc::new(SystemClock),
        Config {
            images,
            ..Config::default()
        },
    );
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut latencies = Vec::new();
    let t0 = Instant::now();
    for i in 0..games {
        let variant = VariantId::ALL[i % VariantId::ALL.len()];
        let (a, b) = (format!("a{i}"), format!("b{i}"));
        let r = service.handle(&req(&a, &format!("challenge @{b} {variant} black")));
        assert!(!r.error, "{}", r.text);
        let r = service.handle(&req(&b, "accept"));
        assert!(!r.error, "{}", r.text);
        let id = (i + 1) as i64;
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
    let total = t0.elapsed().as_secs_f64();
    latencies.sort_by(|x, y| x.total_cmp(y));
    let pct = |p: f64| latencies[((latencies.len() as f64 - 1.0) * p) as usize];
    println!(
        "pictures {:>3}: {} games, {} moves in {:.2} s: {:.0} moves/s; move latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        if images { "on" } else { "off" },
        games,
        latencies.len(),
        total,
        latencies.len() as f64 / total,
        pct(0.5),
        pct(0.99),
        latencies.last().copied().unwrap_or(0.0)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--test" || a == "--list") {
        // `cargo test --benches` runs bench binaries with --test: a quick smoke run.
        run(false, 2);
        return;
    }
    let games = args
        .iter()
        .position(|a| a == "--games")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(40);
    run(false, games);
    run(true, games / 4 + 1);
}
