//! The database tools (issue 24), through the real binary on real files and a real server:
//! - a database filled by a console session of every variant (with the correspondence sweep,
//!   a league, offers, conditional moves, followers, a vacation) and the server rows only
//!   Discord writes, copied SQLite → PostgreSQL → SQLite: the two SQLite files are equal table
//!   by table, `sqlite_sequence` included;
//! - the refusals, which change nothing: a non-empty target, a source in use by a bot (the
//!   SQLite lock file; a PostgreSQL connection named as the bot's), one database as both ends,
//!   a missing source; each decided before either side is touched (issue 49): a swapped
//!   `--from`/`--to` neither migrates nor locks the live file of an older version (SQLite and
//!   PostgreSQL), schemas that would differ are found before any migration, and a refused
//!   copy leaves no lock file behind;
//! - `db backup` while another process writes, and `db check` on a sound and a damaged file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::*;
use tegami::store::{ChallengeStore, UserStore};

/// The session of `tests/data/fill-every-table.txt`.
const FILL: &str = include_str!("../../data/fill-every-table.txt");

/// Runs `tegami ARGS`: exit status, stdout, stderr.
fn tegami(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tegami"))
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .expect("run tegami");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A SQLite file filled by the console session, plus the rows of a server's settings, names
/// and language (written by the Discord adapter only, here through the store).
fn fill(dir: &Path) -> PathBuf {
    let db = dir.join("a.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tegami"))
        .arg("console")
        .arg("--db")
        .arg(&db)
        .arg("--out")
        .arg(dir.join("images"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the console");
    let script: String = FILL
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(script.as_bytes()).expect("the session");
    }
    let out = child.wait_with_output().expect("the console ends");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        !text.contains('✗'),
        "every line of the session is accepted:\n{text}"
    );
    let store = SqliteStore::open(&db).expect("the filled file");
    let guild = "900000000000000001";
    store
        .set_server(&tegami::store::ServerRow {
            guild: guild.into(),
            default_days: 5,
            rated_default: true,
            games_channel: Some("900000000000000002".into()),
            language: None,
            leagues: true,
            featured: Some(1),
        })
        .expect("a server's settings");
    store
        .touch_member("alice", "alice", guild, Some("Alice-san"), T0)
        .expect("a server name");
    store
        .set_server_locale(guild, "ja")
        .expect("a server's language");
    db
}

/// Every row of every table (`sqlite_sequence` too), sorted, as text.
fn sqlite_rows(db: &Path) -> BTreeMap<String, Vec<String>> {
    let c = rusqlite::Connection::open(db).expect("open");
    let names: Vec<String> = c
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .expect("tables")
        .query_map([], |r| r.get(0))
        .expect("tables")
        .collect::<rusqlite::Result<_>>()
        .expect("tables");
    names
        .into_iter()
        .map(|t| {
            let mut st = c
                .prepare(&format!("SELECT * FROM \"{t}\""))
                .expect("select");
            let n = st.column_count();
            let mut rows: Vec<String> = st
                .query_map([], |r| {
                    (0..n)
                        .map(|i| {
                            r.get::<_, rusqlite::types::Value>(i)
                                .map(|v| format!("{v:?}"))
                        })
                        .collect::<rusqlite::Result<Vec<_>>>()
                        .map(|v| v.join("|"))
                })
                .expect("rows")
                .collect::<rusqlite::Result<_>>()
                .expect("rows");
            rows.sort();
            (t, rows)
        })
        .collect()
}

fn assert_same_files(a: &Path, b: &Path) {
    let (x, y) = (sqlite_rows(a), sqlite_rows(b));
    assert_eq!(
        x.keys().collect::<Vec<_>>(),
        y.keys().collect::<Vec<_>>(),
        "the same tables"
    );
    for (t, rows) in &x {
        assert_eq!(
            rows,
            &y[t],
            "table {t} of {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// The PostgreSQL server, or `None` when the test is skipped (not in CI).
fn pg_server() -> Option<String> {
    match std::env::var(PG_URL_ENV) {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but {PG_URL_ENV} is not set: .ci/run starts PostgreSQL for this test")
        }
        _ => {
            say(&format!(
                "db copy to PostgreSQL SKIPPED: {PG_URL_ENV} is not set"
            ));
            None
        }
    }
}

/// A database of the test server, dropped at the end.
struct PgDatabase {
    server: String,
    name: String,
    url: String,
}

impl PgDatabase {
    fn create(server: &str) -> PgDatabase {
        let (url, name) = pg_database(server);
        PgDatabase {
            server: server.into(),
            name,
            url,
        }
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.server, postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

#[test]
fn a_database_copied_to_postgres_and_back_is_the_same_file() {
    let Some(server) = pg_server() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let a = fill(dir.path());
    let (a_text, b) = (a.to_str().expect("UTF-8"), dir.path().join("b.db"));
    let b_text = b.to_str().expect("UTF-8");
    let pg = PgDatabase::create(&server);
    let rows = sqlite_rows(&a);
    for (t, r) in &rows {
        assert!(!r.is_empty(), "the session filled table {t}");
    }

    let (status, out, err) = tegami(&["db", "copy", "--from", a_text, "--to", &pg.url]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert!(out.contains("the copy equals the source"), "{out}");
    for (t, r) in rows.iter().filter(|(t, _)| *t != "sqlite_sequence") {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(t.as_str()))
            .unwrap_or_else(|| panic!("a line for {t}:\n{out}"));
        let n = r.len().to_string();
        let counts: Vec<&str> = line.split_whitespace().skip(1).take(2).collect();
        assert_eq!(counts, [n.as_str(), n.as_str()], "{line}");
    }
    assert!(
        out.contains("every game's moves are equal on both sides (5 games)"),
        "{out}"
    );

    // Into the file and back: the same rows in every table, the AUTOINCREMENT's counter too.
    let (status, out, err) = tegami(&["db", "copy", "--from", &pg.url, "--to", b_text]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert_same_files(&a, &b);

    // The copy is a database the store works on: a new challenge takes the next number.
    let store = PgStore::open(&pg.url).expect("open the copy");
    let last: i64 = rusqlite::Connection::open(&a)
        .and_then(|c| c.query_row("SELECT max(id) FROM challenges", [], |r| r.get(0)))
        .expect("the last challenge");
    let c = store
        .create_challenge(
            &tegami::store::NewChallenge {
                challenger: "alice".into(),
                challenged: Some("bob".into()),
                variant: "shogi".into(),
                color: "first".into(),
                control: TimeControl::per_move(3),
                handicap: None,
                setup: None,
                rated: false,
                guild: None,
                channel: None,
                expires_at: T0 + 30 * DAY,
            },
            &[],
            T0,
        )
        .expect("a challenge on the copy");
    assert_eq!(c.id, last + 1);

    // Refused, nothing changed: a target with rows; a source a bot is connected to.
    let before = sqlite_rows(&b);
    let (status, _, err) = tegami(&["db", "copy", "--from", a_text, "--to", b_text]);
    assert_eq!(status, Some(2), "{err}");
    assert!(
        err.contains("is not empty (") && err.contains("games has 8"),
        "{err}"
    );
    assert_eq!(sqlite_rows(&b), before);
    let c_db = dir.path().join("c.db");
    let (status, _, err) = tegami(&[
        "db",
        "copy",
        "--from",
        &pg.url,
        "--to",
        c_db.to_str().expect("UTF-8"),
    ]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("is in use"), "{err}");
    assert!(!c_db.exists(), "nothing written");
    drop(store);

    let (status, out, err) = tegami(&["db", "check", "--db", &pg.url]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert!(out.contains("(PostgreSQL)"), "{out}");
    assert!(
        out.contains(&format!(
            "migrations: {n} of {n} applied",
            n = tegami::store::PG_MIGRATIONS.len()
        )),
        "{out}"
    );
}

#[test]
fn a_file_in_use_or_named_twice_is_refused_and_a_file_copy_is_equal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = fill(dir.path());
    let a_text = a.to_str().expect("UTF-8");
    let c = dir.path().join("c.db");
    let c_text = c.to_str().expect("UTF-8");

    let (status, _, err) = tegami(&["db", "copy", "--from", a_text, "--to", a_text]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("the same database"), "{err}");
    let missing = dir.path().join("missing.db");
    let (status, _, err) = tegami(&[
        "db",
        "copy",
        "--from",
        missing.to_str().expect("UTF-8"),
        "--to",
        c_text,
    ]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("no database at"), "{err}");
    assert!(!missing.exists() && !c.exists(), "nothing created");

    // As `tegami run` and `tegami console` do while they run.
    let bot = tegami::ops::hold_shared(&a).expect("the bot's lock");
    let (status, _, err) = tegami(&["db", "copy", "--from", a_text, "--to", c_text]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("is in use: a bot"), "{err}");
    assert!(!c.exists(), "nothing written");
    drop(bot);

    let (status, out, err) = tegami(&["db", "copy", "--from", a_text, "--to", c_text]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert!(out.contains("the copy equals the source"), "{out}");
    assert_same_files(&a, &c);
}

/// A SQLite file as an older Tegami left it: the first `applied` migrations, and a user.
fn older_sqlite(path: &Path, applied: usize) {
    let c = rusqlite::Connection::open(path).expect("create");
    for (_, sql) in &tegami::store::MIGRATIONS[..applied] {
        c.execute_batch(sql).expect("a migration");
    }
    c.pragma_update(None, "user_version", applied as i64)
        .expect("its count");
    c.execute(
        "INSERT INTO users (id, name, created_at) VALUES ('alice', 'alice', 0)",
        [],
    )
    .expect("a user");
}

/// A new empty database of this version.
fn empty_sqlite(path: &Path) {
    drop(SqliteStore::open(path).expect("a new database"));
}

/// The migrations a SQLite file counts (`user_version`), read without writing.
fn sqlite_version(path: &Path) -> i64 {
    let c = rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open read-only");
    c.query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("user_version")
}

/// Every byte of the files, to compare before and after.
fn bytes(paths: &[&Path]) -> Vec<Vec<u8>> {
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("read the file"))
        .collect()
}

#[test]
fn a_refused_copy_migrates_writes_and_leaves_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = |p: &Path| p.to_str().expect("UTF-8").to_string();
    let lock = |p: &Path| tegami::ops::lock_path(p);
    let live = dir.path().join("live.db");
    older_sqlite(&live, 1);
    let fresh = dir.path().join("fresh.db");
    empty_sqlite(&fresh);
    let filled = fill(dir.path());

    // The operator swaps `--from` and `--to`: the live file of an older version is not empty,
    // and is neither migrated nor locked by the refused copy; the new file is not touched.
    let before = bytes(&[&live, &fresh]);
    let (status, _, err) = tegami(&["db", "copy", "--from", &text(&fresh), "--to", &text(&live)]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("is not empty (users has 1)"), "{err}");
    assert_eq!(bytes(&[&live, &fresh]), before, "both files as they were");
    assert_eq!(sqlite_version(&live), 1, "the live file is not migrated");
    assert!(
        !lock(&live).exists() && !lock(&fresh).exists(),
        "no lock file left"
    );

    // An older source is not migrated by a copy refused for its target.
    let before = bytes(&[&live, &filled]);
    let (status, _, err) = tegami(&["db", "copy", "--from", &text(&live), "--to", &text(&filled)]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("is not empty ("), "{err}");
    assert_eq!(bytes(&[&live, &filled]), before);
    assert_eq!(sqlite_version(&live), 1, "the source is not migrated");
    assert!(!lock(&live).exists(), "no lock file left");

    // Schemas that would differ: an empty target with a column of its own.
    let odd = dir.path().join("odd.db");
    empty_sqlite(&odd);
    rusqlite::Connection::open(&odd)
        .and_then(|c| c.execute_batch("ALTER TABLE users ADD COLUMN extra TEXT"))
        .expect("a column of its own");
    let before = bytes(&[&odd, &live]);
    let (status, _, err) = tegami(&["db", "copy", "--from", &text(&live), "--to", &text(&odd)]);
    assert_eq!(status, Some(2), "{err}");
    assert!(
        err.contains("the two schemas differ") && err.contains("users has no column extra"),
        "{err}"
    );
    assert_eq!(bytes(&[&odd, &live]), before, "neither side touched");
    assert_eq!(sqlite_version(&live), 1, "the source is not migrated");
    assert!(
        !lock(&odd).exists() && !lock(&live).exists(),
        "no lock file left"
    );

    // In use: the target is held by a bot; the lock file the copy made on the source goes.
    let used = dir.path().join("used.db");
    empty_sqlite(&used);
    let bot = tegami::ops::hold_shared(&used).expect("the bot's lock");
    let before = bytes(&[&live]);
    let (status, _, err) = tegami(&["db", "copy", "--from", &text(&live), "--to", &text(&used)]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("is in use: a bot"), "{err}");
    assert_eq!(bytes(&[&live]), before);
    assert!(
        !lock(&live).exists(),
        "the source's lock file taken away again"
    );
    drop(bot);

    // Nothing refused: the older source is brought up to date and copied (the report says so).
    let copy = dir.path().join("copy.db");
    let (status, out, err) = tegami(&["db", "copy", "--from", &text(&live), "--to", &text(&copy)]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert!(out.contains("brought up to date first: 1 →"), "{out}");
    assert!(out.contains("the copy equals the source"), "{out}");
}

#[test]
fn a_refused_copy_into_postgres_migrates_nothing_and_a_copy_leaves_no_probe() {
    let Some(server) = pg_server() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let fresh = dir.path().join("fresh.db");
    empty_sqlite(&fresh);
    let fresh_text = fresh.to_str().expect("UTF-8");
    // A database of an older version on the server: its first migration, and a user.
    let live = PgDatabase::create(&server);
    let mut c = postgres::Client::connect(&live.url, postgres::NoTls).expect("connect");
    let (name, first) = tegami::store::PG_MIGRATIONS[0];
    c.batch_execute(
        "CREATE TABLE schema_migrations (
            name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    )
    .expect("the migrations' table");
    c.batch_execute(first).expect("the first migration");
    c.execute("INSERT INTO schema_migrations (name) VALUES ($1)", &[&name])
        .expect("recorded");
    c.execute(
        "INSERT INTO users (id, name, created_at) VALUES ('alice', 'alice', 0)",
        &[],
    )
    .expect("a user");
    let catalogue = |c: &mut postgres::Client| -> (i64, i64, i64) {
        let r = c
            .query_one(
                "SELECT (SELECT count(*) FROM schema_migrations),
                        (SELECT count(*) FROM information_schema.tables
                          WHERE table_schema = current_schema()),
                        (SELECT count(*) FROM information_schema.schemata
                          WHERE schema_name = 'tegami_copy_probe')",
                &[],
            )
            .expect("the catalogue");
        (r.get(0), r.get(1), r.get(2))
    };
    let before = catalogue(&mut c);
    let file = bytes(&[&fresh]);
    let (status, _, err) = tegami(&["db", "copy", "--from", fresh_text, "--to", &live.url]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("is not empty (users has 1)"), "{err}");
    assert_eq!(catalogue(&mut c), before, "not migrated, nothing left");
    assert_eq!(before.0, 1);
    assert_eq!(bytes(&[&fresh]), file);
    assert!(
        !tegami::ops::lock_path(&fresh).exists(),
        "no lock file left"
    );
    drop(c);

    // Into an empty database: its schema is compared as its migrations would make it (in a
    // transaction rolled back), then made for real; nothing of the comparison stays.
    let empty = PgDatabase::create(&server);
    let (status, out, err) = tegami(&["db", "copy", "--from", fresh_text, "--to", &empty.url]);
    assert_eq!(status, Some(0), "{out}{err}");
    let mut c = postgres::Client::connect(&empty.url, postgres::NoTls).expect("connect");
    let (migrations, _, probes) = catalogue(&mut c);
    assert_eq!(migrations as usize, tegami::store::PG_MIGRATIONS.len());
    assert_eq!(probes, 0, "no schema left from the comparison");
}

#[test]
fn a_backup_taken_while_another_process_writes_is_sound_and_check_finds_damage() {
    let dir = tempfile::tempdir().expect("temp dir");
    let a = fill(dir.path());
    let a_text = a.to_str().expect("UTF-8");
    let games_before = sqlite_rows(&a)["games"].clone();

    // Another process writing the whole time: a console renaming a player, line after line.
    let mut writer = Command::new(env!("CARGO_BIN_EXE_tegami"))
        .arg("console")
        .arg("--db")
        .arg(&a)
        .arg("--out")
        .arg(dir.path().join("images"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("a writing console");
    let mut stdin = writer.stdin.take().expect("stdin");
    let feeding = std::thread::spawn(move || {
        use std::io::Write;
        for i in 0..400 {
            let line = format!("@zed{} settings notify=digest\n", i % 50);
            if stdin.write_all(line.as_bytes()).is_err() {
                break;
            }
        }
    });
    let bk = dir.path().join("backup.db");
    let bk_text = bk.to_str().expect("UTF-8");
    let (status, out, err) = tegami(&["db", "backup", "--db", a_text, "--to", bk_text]);
    feeding.join().expect("the writer's lines");
    let _ = writer.wait();
    assert_eq!(status, Some(0), "{out}{err}");
    assert!(out.contains("integrity of the backup: ok"), "{out}");
    assert!(bk.is_file());
    assert!(!dir.path().join("backup.db.partial").exists());
    assert_eq!(sqlite_rows(&bk)["games"], games_before);
    let (status, out, err) = tegami(&["db", "check", "--db", bk_text]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert!(out.contains("integrity: ok"), "{out}");

    // Never over a file; PostgreSQL gets the pg_dump command.
    let (status, _, err) = tegami(&["db", "backup", "--db", a_text, "--to", bk_text]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("never overwrites"), "{err}");
    let (status, _, err) = tegami(&[
        "db",
        "backup",
        "--db",
        "postgres://tegami:secret@db.example/tegami",
        "--to",
        "tegami.dump",
    ]);
    assert_eq!(status, Some(2), "{err}");
    assert!(
        err.contains(
            "pg_dump --format=custom --file=tegami.dump 'postgres://tegami:***@db.example/tegami'"
        ),
        "{err}"
    );

    // Damage: a game's ply off its moves; a migration not applied.
    let c = rusqlite::Connection::open(&bk).expect("open the backup");
    c.execute("UPDATE games SET ply = ply + 5 WHERE id = 1", [])
        .expect("damage");
    c.pragma_update(None, "user_version", 17)
        .expect("an older schema");
    drop(c);
    let (status, out, _) = tegami(&["db", "check", "--db", bk_text]);
    assert_eq!(status, Some(1), "{out}");
    assert!(out.contains("PLY DOES NOT MATCH THE MOVES in #1"), "{out}");
    assert!(
        out.contains("migrations: 17 of 18 applied; PENDING: 0018_board_side.sql"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("problems found"), "{out}");
    let (status, _, err) = tegami(&["db", "check", "--db", "nowhere.db"]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("no database at nowhere.db"), "{err}");
}
