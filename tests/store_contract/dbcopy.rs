//! The database tools (issue 24), through the real binary on real files and a real server:
//! - a database filled by a console session of every variant (with the correspondence sweep,
//!   a league, offers, conditional moves, followers, a vacation) and the server rows only
//!   Discord writes, copied SQLite → PostgreSQL → SQLite: the two SQLite files are equal table
//!   by table, `sqlite_sequence` included;
//! - the refusals, which change nothing: a non-empty target, a source in use by a bot (the
//!   SQLite lock file; a PostgreSQL connection named as the bot's), one database as both ends,
//!   a missing source;
//! - `db backup` while another process writes, and `db check` on a sound and a damaged file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::*;
use tegami::store::{ChallengeStore, UserStore};

/// The session of `tests/data/fill-every-table.txt`.
const FILL: &str = include_str!("../data/fill-every-table.txt");

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
    c.pragma_update(None, "user_version", 15)
        .expect("an older schema");
    drop(c);
    let (status, out, _) = tegami(&["db", "check", "--db", bk_text]);
    assert_eq!(status, Some(1), "{out}");
    assert!(out.contains("PLY DOES NOT MATCH THE MOVES in #1"), "{out}");
    assert!(
        out.contains("migrations: 15 of 16 applied; PENDING: 0016_followers.sql"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("problems found"), "{out}");
    let (status, _, err) = tegami(&["db", "check", "--db", "nowhere.db"]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("no database at nowhere.db"), "{err}");
}
