//! `tegami db copy`'s speed (issue 24): a SQLite file with many finished and running games is
//! copied to PostgreSQL and back, and each copy's rows per second printed (copy and
//! verification apart).
//!
//! The file: one game of each variant played through the console (40 plies each, moves
//! chosen by a fixed seed among the legal ones, with their challenges and notices), then
//! cloned by SQLite itself (a recursive `WITH`) to `--games N` games with their moves, each
//! clone's rows as the console wrote them but for its own id. `--games` defaults to 2,000 (a
//! quick run); the figure is `cargo bench --bench dbcopy -- --games 100000`.
//! Needs `TEGAMI_BENCH_DATABASE_URL` (e.g. `bash .ci/postgres | tail -1`); without it only
//! the SQLite → SQLite copy runs.

#[path = "common/pg.rs"]
mod pg;

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use tegami::engine::notation::code;
use tegami::engine::{Game, Position, VariantId};
use tegami::ops::{copy::copy, Location};

/// Plies of each played game.
const PLIES: usize = 40;

fn main() {
    let mut games = 2_000usize;
    let mut under = std::env::temp_dir();
    let args: Vec<String> = std::env::args().collect();
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--games" => {
                games = args
                    .get(i + 1)
                    .and_then(|v| v.parse().ok())
                    .expect("--games N");
                i += 1;
            }
            "--under" => {
                under = args.get(i + 1).expect("--under DIR").into();
                i += 1;
            }
            _ => {} // cargo's own flags (--bench)
        }
        i += 1;
    }
    let dir = tempfile::tempdir_in(&under).expect("a temporary folder");
    let source = dir.path().join("source.db");
    let started = Instant::now();
    fill(&source, games);
    let size = std::fs::metadata(&source).map(|m| m.len()).unwrap_or(0);
    println!(
        "filled {} with {games} games in {:.1} s ({:.0} MB)",
        source.display(),
        started.elapsed().as_secs_f64(),
        size as f64 / 1e6
    );

    let back = dir.path().join("back.db");
    match pg::BenchDb::create("db copy") {
        Some(db) => {
            println!("{}", db.durability());
            report(
                "SQLite → PostgreSQL",
                &Location::Sqlite(source.clone()),
                &Location::Postgres(db.url.clone()),
            );
            report(
                "PostgreSQL → SQLite",
                &Location::Postgres(db.url.clone()),
                &Location::Sqlite(back),
            );
        }
        None => report(
            "SQLite → SQLite",
            &Location::Sqlite(source.clone()),
            &Location::Sqlite(back),
        ),
    }
}

fn report(what: &str, from: &Location, to: &Location) {
    let r = copy(from, to, false).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(r.verified(), "{what}: {}", r.render());
    let rows = r.rows();
    println!(
        "{what}: {rows} rows ({} games with moves) copied in {:.2} s = {:.0} rows/s; verified in \
         {:.2} s",
        r.games_with_moves(),
        r.copy_seconds,
        rows as f64 / r.copy_seconds,
        r.verify_seconds
    );
}

/// One game of each variant through the console, then clones up to `games` games.
fn fill(db: &Path, games: usize) {
    let mut script = String::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let pairs = [
        ("a1", "b1"),
        ("a2", "b2"),
        ("a3", "b3"),
        ("a4", "b4"),
        ("a5", "b5"),
    ];
    for (k, v) in VariantId::ALL.iter().enumerate() {
        let (a, b) = pairs[k];
        let first = if *v == VariantId::Shanghai {
            "red"
        } else {
            "black"
        };
        script += &format!(
            "@{a} challenge @{b} {} {first} days=14\n@{b} accept\n",
            v.as_str()
        );
        let mut game = Game::new(Position::start(*v));
        let variant = game.variant();
        for ply in 0..PLIES {
            let legal = game.legal_moves();
            if legal.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = legal[(seed % legal.len() as u64) as usize];
            let who = if ply % 2 == 0 { a } else { b };
            script += &format!("@{who} move {} {}\n", k + 1, code::write(variant, m));
            if game.play(m).is_err() || game.outcome().is_some() {
                break;
            }
        }
    }
    let store = tegami::store::SqliteStore::open_with(db, tegami::store::Durability::Normal)
        .expect("the bench file");
    let clock = Arc::new(tegami::console::ConsoleClock::new());
    let service = tegami::service::Service::new(
        Arc::new(store),
        clock.clone(),
        tegami::service::Config::default(),
    );
    let images = db.with_extension("images");
    let mut console = tegami::console::Console::new(service, clock, &images);
    let mut out = Vec::new();
    console
        .run(script.as_bytes(), &mut out, false)
        .expect("the console session");
    drop(console);
    let _ = std::fs::remove_dir_all(&images);

    let c = rusqlite::Connection::open(db).expect("open");
    let columns = |table: &str| -> Vec<String> {
        c.prepare("SELECT name FROM pragma_table_info(?1) WHERE name <> 'id' ORDER BY cid")
            .and_then(|mut st| {
                st.query_map([table], |r| r.get(0))?
                    .collect::<rusqlite::Result<Vec<String>>>()
            })
            .expect("columns")
    };
    let (g, m) = (columns("games").join(", "), columns("moves"));
    let played: i64 = c
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .expect("games");
    let clones = (games as i64 - played).max(0);
    let moves_select: Vec<String> = m
        .iter()
        .map(|col| {
            if col == "game_id" {
                "g.id".to_string()
            } else {
                format!("m.{col}")
            }
        })
        .collect();
    c.execute_batch(&format!(
        "BEGIN;
         WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < {clones})
         INSERT INTO games ({g}) SELECT {g} FROM n JOIN games ON games.id = 1 + n.i % {played};
         INSERT INTO moves ({}) SELECT {} FROM games g JOIN moves m
           ON m.game_id = 1 + (g.id - 1) % {played} WHERE g.id > {played};
         COMMIT;",
        m.join(", "),
        moves_select.join(", ")
    ))
    .expect("the clones");
}
