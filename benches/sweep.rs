//! The correspondence sweep over a large database (issue 7): a real SQLite file filled with
//! 100,000 active games (rows written directly, matching migrations 0001 and 0002), 1,000 of
//! them past their deadline, some within 24 hours of it, a few expired challenges and some users
//! on a daily digest; then one `Service::sweep(now)` is timed, and a second one (nothing left to
//! do). Prints the figures and SQLite's `EXPLAIN QUERY PLAN` of the sweep's queries, to show
//! that they use the partial indexes on `games(deadline)` rather than scanning every game.
//!
//! `cargo bench --bench sweep` runs four cases: the (1,000 due among 100,000, nothing
//! else to do), a mixed one (also 500 reminders, 200 digest users, 100 expired challenges), and
//! both again on /dev/shm, where a commit costs no disk wait. Options (one case only):
//! `--games N`, `--due N`, `--near N`, `--digest N`, `--expired N`, `--users N`, `--under DIR`.
//! Target (issue 7): the sweep over 100,000 games with 1,000 due takes < 1 s.
//!
//! On PostgreSQL (issue 14), when `TEGAMI_BENCH_DATABASE_URL` names a server: the same rows,
//! written by the server itself (`generate_series`), 1,000 due among 100,000 and among
//! 1,000,000 active games, then the mixed case among 1,000,000; each sweep timed, with the
//! server's plan of the due-games query. `-- --postgres` runs only those.
//! Target (issue 14): one sweep over 1,000,000 games with 1,000 due takes < 2 s.

#[path = "common/pg.rs"]
mod pg;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use rusqlite::{params, Connection};
use tegami::engine::notation::fen;
use tegami::engine::{Position, VariantId};
use tegami::service::{Config, ManualClock, Service, Sweep, DAY};
use tegami::store::{ClockStore, FollowStore, PgStore, SqliteStore, Store};

/// What the database holds.
#[derive(Clone, Debug)]
pub struct Params {
    /// Active games.
    pub games: usize,
    /// Of which past their deadline.
    pub due: usize,
    /// Of which within 24 hours of their deadline (not reminded yet).
    pub near: usize,
    /// Players (each game between two of them).
    pub users: usize,
    /// Players on a daily digest.
    pub digest: usize,
    /// Open challenges past their expiry.
    pub expired: usize,
    /// Where the database file goes (a new temporary folder there); `None`: the system's
    /// temporary folder.
    pub under: Option<PathBuf>,
}

impl Params {
    /// Only the figure: 1,000 games due among 100,000, nothing else to do.
    pub fn due_only() -> Params {
        Params {
            near: 0,
            digest: 0,
            expired: 0,
            ..Params::default()
        }
    }
}

impl Default for Params {
    fn default() -> Params {
        Params {
            games: 100_000,
            due: 1_000,
            near: 500,
            users: 20_000,
            digest: 200,
            expired: 100,
            under: None,
        }
    }
}

/// What was measured.
#[derive(Clone, Debug)]
pub struct Figures {
    pub params: Params,
    pub fill_secs: f64,
    pub sweep_secs: f64,
    pub timeouts: usize,
    pub reminders: usize,
    pub expired: usize,
    pub digests: usize,
    pub notices: usize,
    /// The second sweep, with nothing left to do.
    pub idle_secs: f64,
    /// The sweep's reads alone, on the filled database: (what, seconds).
    pub reads: Vec<(&'static str, f64)>,
    /// Seconds per small write transaction on the same file system (WAL, synchronous=FULL,
    /// as the store opens its files).
    pub commit_secs: f64,
    /// `EXPLAIN QUERY PLAN` of the sweep's queries: (what, plan lines).
    pub plans: Vec<(&'static str, Vec<String>)>,
}

impl fmt::Display for Figures {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.params;
        writeln!(
            f,
            "database ({}): {} active games ({} past their deadline, {} within 24 h), {} users ({} on a digest), {} expired challenges; filled in {:.2} s",
            p.under
                .as_ref()
                .map_or("system temporary folder".to_string(), |d| d.display().to_string()),
            p.games,
            p.due,
            p.near,
            p.users,
            p.digest,
            p.expired,
            self.fill_secs
        )?;
        writeln!(
            f,
            "sweep: {:.3} s — {} timeouts, {} reminders, {} expired challenges, {} digests, {} notices queued",
            self.sweep_secs,
            self.timeouts,
            self.reminders,
            self.expired,
            self.digests,
            self.notices
        )?;
        writeln!(f, "second sweep (nothing to do): {:.3} s", self.idle_secs)?;
        for (what, secs) in &self.reads {
            writeln!(f, "read alone, {what}: {:.1} ms", secs * 1000.0)?;
        }
        writeln!(
            f,
            "one write transaction (WAL, synchronous=FULL) on this file system: {:.2} ms",
            self.commit_secs * 1000.0
        )?;
        for (what, lines) in &self.plans {
            writeln!(f, "EXPLAIN QUERY PLAN ({what}):")?;
            for l in lines {
                writeln!(f, "  {l}")?;
            }
        }
        Ok(())
    }
}

/// The columns the store reads of a game and of a challenge (`src/store/sql/rows.rs`).
const GAME_COLUMNS: &str = "id, variant, setup, start_position, first_player, second_player, \
    guild, channel, thread, status, result, reason, rated, days_per_move, deadline, position, \
    ply, version, created_at, updated_at, finished_at, to_move, reminded, clock, increment_days, \
    cap_days, period_days, bank_first, bank_second, turn_span";
const CHALLENGE_COLUMNS: &str = "id, challenger, challenged, variant, color, days_per_move, \
    handicap, setup, rated, guild, channel, status, game_id, created_at, expires_at, clock, \
    increment_days, cap_days, period_days";

/// The sweep's queries, as the store writes them (`src/store/sql/`) and SQLite gets them
/// (`?N` for `$N`, `0` for `{false}`).
fn queries() -> Vec<(&'static str, String)> {
    vec![
        (
            "due games",
            format!(
                "SELECT {GAME_COLUMNS} FROM games
                 WHERE status = 'active' AND deadline <= ?1 ORDER BY deadline, id LIMIT ?2"
            ),
        ),
        (
            "reminders due",
            format!(
                "SELECT {} FROM games g LEFT JOIN users u ON u.id = g.to_move
                 WHERE g.status = 'active' AND g.reminded = 0
                   AND g.deadline - g.turn_span / 2 <= ?1
                   AND coalesce(u.remind_hours, 24) > 0
                   AND g.deadline - coalesce(u.remind_hours, 24) * 3600 <= ?1
                 ORDER BY g.deadline - g.turn_span / 2, g.id LIMIT ?2",
                GAME_COLUMNS
                    .split(", ")
                    .map(|c| format!("g.{c}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        (
            "expired challenges",
            format!(
                "SELECT {CHALLENGE_COLUMNS} FROM challenges
                 WHERE status = 'open' AND expires_at <= ?1 ORDER BY expires_at, id LIMIT ?2"
            ),
        ),
        (
            "digests due (at their hour)",
            "SELECT id FROM users WHERE next_digest_at <= ?1 ORDER BY next_digest_at, id LIMIT ?2"
                .to_string(),
        ),
        (
            "digests due (a day after the last)",
            "SELECT id FROM users
             WHERE next_digest_at IS NULL AND notify = 'digest'
               AND (last_digest_at IS NULL OR last_digest_at <= ?1)
             ORDER BY last_digest_at NULLS FIRST, id LIMIT ?2"
                .to_string(),
        ),
    ]
}

fn plan(conn: &Connection, sql: &str) -> Vec<String> {
    let mut st = conn
        .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
        .expect("explain");
    let n = st.parameter_count();
    let args: Vec<i64> = vec![0; n];
    st.query_map(rusqlite::params_from_iter(args), |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(3)?,
        ))
    })
    .expect("plan")
    .map(|r| {
        let (id, parent, detail) = r.expect("plan row");
        format!("[{id} <- {parent}] {detail}")
    })
    .collect()
}

/// Writes the users, games and challenges straight into the tables.
fn fill(path: &Path, p: &Params, now: i64) {
    let mut conn = Connection::open(path).expect("open for filling");
    let tx = conn.transaction().expect("transaction");
    {
        let mut user = tx
            .prepare("INSERT INTO users (id, name, notify, created_at) VALUES (?1, ?1, ?2, ?3)")
            .unwrap();
        for i in 0..p.users {
            let notify = if i < p.digest { "digest" } else { "mention" };
            user.execute(params![format!("u{i}"), notify, now - 30 * DAY])
                .unwrap();
        }
        let start = fen::write(&Position::start(VariantId::Shogi));
        let mut game = tx
            .prepare(
                "INSERT INTO games (variant, start_position, first_player, second_player, guild,
                    channel, status, rated, days_per_move, deadline, position, ply, to_move,
                    version, created_at, updated_at, reminded, turn_span)
                 VALUES ('shogi', ?1, ?2, ?3, 'bench', 'games', 'active', ?4, 3, ?5, ?1, 0, ?6,
                    0, ?7, ?7, 0, 259200)",
            )
            .unwrap();
        for i in 0..p.games {
            let a = i % p.users;
            let b = (i * 7 + 1 + i / p.users) % p.users;
            let b = if a == b { (b + 1) % p.users } else { b };
            let deadline = if i < p.due {
                now - 1 - (i as i64 % (2 * DAY))
            } else if i < p.due + p.near {
                now + 1 + (i as i64 % (DAY - 1))
            } else {
                now + DAY + 1 + (i as i64 * 37) % (13 * DAY)
            };
            let (first, second) = (format!("u{a}"), format!("u{b}"));
            let to_move = if i % 2 == 0 { &first } else { &second };
            game.execute(params![
                start,
                first,
                second,
                i % 3 == 0,
                deadline,
                to_move,
                now - 3 * DAY
            ])
            .unwrap();
        }
        let mut challenge = tx
            .prepare(
                "INSERT INTO challenges (challenger, challenged, variant, color, days_per_move,
                    rated, status, created_at, expires_at)
                 VALUES (?1, ?2, 'shogi', 'first', 3, 0, 'open', ?3, ?4)",
            )
            .unwrap();
        for i in 0..p.expired + 1_000 {
            let expires = if i < p.expired { now - 1 } else { now + DAY };
            challenge
                .execute(params![
                    format!("u{}", i % p.users),
                    format!("u{}", (i + 1) % p.users),
                    expires - 7 * DAY,
                    expires
                ])
                .unwrap();
        }
    }
    // No ANALYZE: the store never runs it, so the plans are those of a real database.
    tx.commit().expect("commit");
}

/// Builds the database, runs the sweep twice, reports.
pub fn run(p: &Params) -> Figures {
    let dir = match &p.under {
        Some(d) => tempfile::tempdir_in(d),
        None => tempfile::tempdir(),
    }
    .expect("temporary folder");
    let path = dir.path().join("sweep.db");
    let now: i64 = 1_767_225_600 + 30 * DAY;
    let t = Instant::now();
    drop(SqliteStore::open(&path).expect("create the schema"));
    fill(&path, p, now);
    let fill_secs = t.elapsed().as_secs_f64();

    let store = Arc::new(SqliteStore::open(&path).expect("open the database"));
    let reads = vec![
        (
            "due games (500)",
            timed(|| store.due_games(now, 500).map(|r| r.len())),
        ),
        (
            "reminders due (500)",
            timed(|| store.reminders_due(now, 500).map(|r| r.len())),
        ),
        (
            "expired challenges (500)",
            timed(|| store.expired_challenges(now, 500).map(|r| r.len())),
        ),
        (
            "digests due",
            timed(|| store.digests_at(now, now - DAY, 10_000).map(|r| r.len())),
        ),
    ];
    let commit_secs = commit_cost(dir.path());
    let (s, sweep_secs, idle_secs) = sweep_twice(store, now);

    let conn = Connection::open(&path).expect("open for plans");
    let plans = queries()
        .into_iter()
        .map(|(what, sql)| (what, plan(&conn, &sql)))
        .collect();
    Figures {
        params: p.clone(),
        fill_secs,
        sweep_secs,
        timeouts: s.timeouts.len(),
        reminders: s.reminders.len(),
        expired: s.expired.len(),
        digests: s.digests.len(),
        notices: s.notices.len(),
        idle_secs,
        reads,
        commit_secs,
        plans,
    }
}

/// One sweep at `now` through the command core (its notices then marked sent) and a second with
/// nothing left to do: what the first did, and the seconds each took.
fn sweep_twice(store: Arc<dyn Store>, now: i64) -> (Sweep, f64, f64) {
    let service = Service::new(
        store,
        Arc::new(ManualClock::new(now)),
        Config {
            default_days: 3,
            challenge_days: 7,
            images: false,
            markdown: false,
        },
    );
    let t = Instant::now();
    let s = service.sweep(now).expect("sweep");
    let sweep_secs = t.elapsed().as_secs_f64();
    let ids: Vec<i64> = s.notices.iter().map(|(id, _)| *id).collect();
    service.mark_sent(&ids).expect("mark sent");
    let t = Instant::now();
    let idle = service.sweep(now).expect("second sweep");
    let idle_secs = t.elapsed().as_secs_f64();
    assert!(idle.timeouts.is_empty() && idle.reminders.is_empty() && idle.notices.is_empty());
    (s, sweep_secs, idle_secs)
}

/// Seconds a store read takes.
fn timed<T>(f: impl FnOnce() -> tegami::store::Result<T>) -> f64 {
    let t = Instant::now();
    f().expect("read");
    t.elapsed().as_secs_f64()
}

/// The mean time of a one-row write transaction in a scratch file of `dir`, with the store's
/// settings (WAL, synchronous=FULL).
fn commit_cost(dir: &Path) -> f64 {
    let conn = Connection::open(dir.join("commit.db")).expect("scratch file");
    conn.pragma_update(None, "journal_mode", "WAL").unwrap();
    conn.pragma_update(None, "synchronous", "FULL").unwrap();
    conn.execute_batch("CREATE TABLE t (x INTEGER)").unwrap();
    const N: u32 = 100;
    let t = Instant::now();
    for i in 0..N {
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE; INSERT INTO t VALUES ({i}); COMMIT;"
        ))
        .unwrap();
    }
    t.elapsed().as_secs_f64() / f64::from(N)
}

/// What a sweep on PostgreSQL measured.
struct PgFigures {
    fill_secs: f64,
    sweep_secs: f64,
    idle_secs: f64,
    timeouts: usize,
    reminders: usize,
    expired: usize,
    digests: usize,
    notices: usize,
    due_read_ms: f64,
    plan: Vec<String>,
}

/// The same database as `fill`, written by the server in a few statements.
fn fill_pg(url: &str, p: &Params, now: i64) {
    let mut c = postgres::Client::connect(url, postgres::NoTls).expect("connect for filling");
    let start = fen::write(&Position::start(VariantId::Shogi));
    let (games, due, near, users) = (p.games as i64, p.due as i64, p.near as i64, p.users as i64);
    c.execute(
        "INSERT INTO users (id, name, notify, created_at)
         SELECT 'u' || i, 'u' || i, CASE WHEN i < $1::BIGINT THEN 'digest' ELSE 'mention' END, $2::BIGINT
         FROM generate_series(0, $3::BIGINT - 1) AS i",
        &[&(p.digest as i64), &(now - 30 * DAY), &users],
    )
    .expect("users");
    c.execute(
        "INSERT INTO games (variant, start_position, first_player, second_player, guild,
            channel, status, rated, days_per_move, deadline, position, ply, to_move, version,
            created_at, updated_at, reminded, turn_span)
         SELECT 'shogi', $1, 'u' || a, 'u' || b, 'bench', 'games', 'active', i % 3 = 0, 3,
            CASE WHEN i < $2::BIGINT THEN $5::BIGINT - 1 - (i % (2 * 86400))
                 WHEN i < $2::BIGINT + $3::BIGINT THEN $5::BIGINT + 1 + (i % (86400 - 1))
                 ELSE $5::BIGINT + 86400 + 1 + (i * 37) % (13 * 86400) END,
            $1, 0, 'u' || CASE WHEN i % 2 = 0 THEN a ELSE b END, 0, $6::BIGINT, $6::BIGINT, FALSE,
            259200
         FROM (SELECT i, a, CASE WHEN a = b0 THEN (b0 + 1) % $4::BIGINT ELSE b0 END AS b
               FROM (SELECT i, i % $4::BIGINT AS a, (i * 7 + 1 + i / $4::BIGINT) % $4::BIGINT AS b0
                     FROM generate_series(0::BIGINT, $7::BIGINT - 1) AS i) AS x) AS y",
        &[&start, &due, &near, &users, &now, &(now - 3 * DAY), &games],
    )
    .expect("games");
    c.execute(
        "INSERT INTO challenges (challenger, challenged, variant, color, days_per_move, rated,
            status, created_at, expires_at)
         SELECT 'u' || (i % $3::BIGINT), 'u' || ((i + 1) % $3::BIGINT), 'shogi', 'first', 3, FALSE, 'open',
            e - 7 * 86400, e
         FROM (SELECT i, CASE WHEN i < $1::BIGINT THEN $2::BIGINT - 1 ELSE $2::BIGINT + 86400 END AS e
               FROM generate_series(0::BIGINT, $1::BIGINT + 1000 - 1) AS i) AS x",
        &[&(p.expired as i64), &now, &users],
    )
    .expect("challenges");
    // A live server analyses a table this size on its own (autovacuum) soon after a load.
    c.batch_execute("ANALYZE").expect("analyze");
    // And the load's pages written out, so that the timed sweep does not share the disk with
    // the checkpoint of a million fresh rows (needs a superuser; skipped otherwise).
    if let Err(e) = c.batch_execute("CHECKPOINT") {
        eprintln!("no CHECKPOINT after the load ({e}): the sweep may share the disk with it");
    }
}

/// Builds the database on PostgreSQL, runs the sweep twice, reports.
fn run_pg(db: &pg::BenchDb, p: &Params) -> PgFigures {
    let now: i64 = 1_767_225_600 + 30 * DAY;
    {
        let mut c = postgres::Client::connect(&db.url, postgres::NoTls).expect("connect");
        c.batch_execute(
            "DROP TABLE IF EXISTS users, games, moves, challenges, offers, vacations, outbox,
                ratings, servers, schema_migrations CASCADE",
        )
        .expect("an empty database");
    }
    let t = Instant::now();
    drop(PgStore::open(&db.url).expect("create the schema"));
    fill_pg(&db.url, p, now);
    let fill_secs = t.elapsed().as_secs_f64();
    let store = Arc::new(PgStore::open(&db.url).expect("open the database"));
    let due_read_ms = timed(|| store.due_games(now, 500).map(|r| r.len())) * 1000.0;
    let mut c = postgres::Client::connect(&db.url, postgres::NoTls).expect("connect");
    let plan = c
        .query(
            "EXPLAIN SELECT id FROM games WHERE status = 'active' AND deadline <= $1
             ORDER BY deadline, id LIMIT 500",
            &[&now],
        )
        .expect("explain")
        .iter()
        .map(|r| r.get::<_, String>(0))
        .collect();
    let (s, sweep_secs, idle_secs) = sweep_twice(store, now);
    PgFigures {
        fill_secs,
        sweep_secs,
        idle_secs,
        timeouts: s.timeouts.len(),
        reminders: s.reminders.len(),
        expired: s.expired.len(),
        digests: s.digests.len(),
        notices: s.notices.len(),
        due_read_ms,
        plan,
    }
}

/// The PostgreSQL cases.
fn main_pg(mixed: &Params) {
    let Some(db) = pg::BenchDb::create("the sweep") else {
        return;
    };
    println!("== PostgreSQL ({})", db.durability());
    let due = |games: usize| Params {
        games,
        users: 20_000.max(games / 5),
        ..Params::due_only()
    };
    let cases = [
        ("1,000 due among 100,000, nothing else", due(100_000)),
        ("1,000 due among 1,000,000, nothing else", due(1_000_000)),
        (
            "1,000,000, mixed",
            Params {
                games: 1_000_000,
                users: 200_000,
                ..mixed.clone()
            },
        ),
    ];
    for (what, q) in cases {
        let f = run_pg(&db, &q);
        println!("== {what} (PostgreSQL)");
        println!(
            "database: {} active games ({} past their deadline, {} within 24 h), {} users ({} on a digest), {} expired challenges; filled in {:.1} s",
            q.games, q.due, q.near, q.users, q.digest, q.expired, f.fill_secs
        );
        println!(
            "sweep: {:.3} s — {} timeouts, {} reminders, {} expired challenges, {} digests, {} notices queued",
            f.sweep_secs, f.timeouts, f.reminders, f.expired, f.digests, f.notices
        );
        println!("second sweep (nothing to do): {:.3} s", f.idle_secs);
        println!("read alone, due games (500): {:.1} ms", f.due_read_ms);
        println!("EXPLAIN (due games):");
        for l in &f.plan {
            println!("  {l}");
        }
        println!(
            "target (< 2 s for the sweep at 1,000,000): {}\n",
            if f.sweep_secs < 2.0 { "met" } else { "MISSED" }
        );
    }
}

pub fn main() {
    let mut p = Params::default();
    let mut only: Option<bool> = None;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = || -> usize {
            args.get(i + 1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{} needs a number", args[i]))
        };
        match args[i].as_str() {
            "--games" => p.games = value(),
            "--due" => p.due = value(),
            "--near" => p.near = value(),
            "--digest" => p.digest = value(),
            "--expired" => p.expired = value(),
            "--users" => p.users = value(),
            "--under" => {
                p.under = args.get(i + 1).map(PathBuf::from);
                only = Some(true);
            }
            "--postgres" => {
                main_pg(&p);
                return;
            }
            _ => {
                // `--bench` and other flags Cargo passes.
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let mut runs = vec![("as asked", p.clone())];
    if only.is_none() {
        // The issue's own case, and both again on a RAM file system (no fsync cost) to tell
        // the disk's share from the rest.
        let due = Params {
            under: None,
            ..Params::due_only()
        };
        runs.insert(0, ("1,000 due, nothing else", due.clone()));
        let shm = Path::new("/dev/shm");
        if shm.is_dir() {
            for (what, q) in [
                ("1,000 due, nothing else, on /dev/shm", due),
                ("as asked, on /dev/shm", p),
            ] {
                runs.push((
                    what,
                    Params {
                        under: Some(shm.to_path_buf()),
                        ..q
                    },
                ));
            }
        }
    }
    for (what, q) in runs {
        let f = run(&q);
        println!("== {what}");
        print!("{f}");
        println!(
            "target (< 1 s for the sweep): {}\n",
            if f.sweep_secs < 1.0 { "met" } else { "MISSED" }
        );
    }
    if only.is_none() {
        main_pg(&Params::default());
    }
}
