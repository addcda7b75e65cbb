//! `tegami run` at its edges, the real binary each time. What stops it before it connects (no
//! token, an unknown field or a value of the wrong type in the config, a database it cannot
//! write, a REST base that is not HTTP): one line on stderr, exit status 2, never the token.
//! Against the fake Discord: the example config as shipped (REST and gateway on the fake only,
//! no ERROR in its log, SIGTERM ending it with status 0), the Message Content intent following
//! the config, the token absent even from a trace log, and the per-user rate limit.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use super::{answer, content, is_ephemeral, write_config, Bot, STEP};
use crate::fake_discord::{FakeDiscord, FakeUser, Recorded, APP_ID, CHANNEL_ID, GUILD_ID};
use std::ffi::OsStr;

/// A token distinctive enough that finding it anywhere in the output is a leak.
const TOKEN: &str = "MTIz.secret-token-Gx7.do-not-print-9Qz";

/// A REST base where nothing listens: a run that got further than it should reaches nothing.
const NOWHERE: &str = "http://127.0.0.1:9";

/// The longest any test here may take.
const LIMIT: Duration = Duration::from_secs(150);

/// The Message Content intent.
const MESSAGE_CONTENT: u64 = 1 << 15;
/// The other privileged intents: server members and presences.
const GUILD_MEMBERS: u64 = 1 << 1;
const GUILD_PRESENCES: u64 = 1 << 8;

async fn bounded<F: std::future::Future<Output = ()>>(body: F) {
    tokio::time::timeout(LIMIT, body)
        .await
        .expect("the test did not finish within its time limit");
}

fn example_path() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/config.example.toml"))
}

/// `config.example.toml` as shipped.
fn example() -> String {
    std::fs::read_to_string(example_path()).expect("config.example.toml at the top level")
}

/// The example config with `from` replaced by `to` (which must be there), written to
/// `dir/name`; returns its path and the 1-based line where `to` begins.
fn example_with(dir: &Path, name: &str, from: &str, to: &str) -> (PathBuf, usize) {
    let text = example();
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("the example config has {from:?}"));
    let line = text[..at].matches('\n').count() + 1;
    let path = write(dir, name, &text.replacen(from, to, 1));
    (path, line)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write config");
    path
}

/// `tegami run`, started in `dir`, with no token, no log filter and no REST base from the
/// environment of the test run (a run that starts anyway goes to [`NOWHERE`]).
pub(super) fn tegami(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tegami"));
    c.arg("run")
        .current_dir(dir)
        .env_remove("DISCORD_TOKEN")
        .env_remove("RUST_LOG")
        .env("TEGAMI_DISCORD_API", NOWHERE)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null());
    c
}

/// Runs the command to its end (at most [`STEP`]) and returns what it printed.
pub(super) fn run_to_end(cmd: &mut Command) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tegami run");
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = r.read_to_end(&mut v);
            v
        })
    };
    let out = read(Box::new(child.stdout.take().expect("stdout")));
    let err = read(Box::new(child.stderr.take().expect("stderr")));
    let deadline = Instant::now() + STEP;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait for tegami run") {
            break s;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            let err = err.join().unwrap_or_default();
            panic!(
                "tegami run did not stop within {STEP:?}; stderr:\n{}",
                String::from_utf8_lossy(&err)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

/// Checks that the run was refused the operator's way: exit status 2, nothing on stdout, one
/// line on stderr (no panic, no backtrace) that contains each of `says`, and never the token.
/// Returns the line.
pub(super) fn refused(out: &Output, says: &[&str]) -> String {
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(2),
        "exit status 2; stderr:\n{stderr}"
    );
    assert!(stdout.is_empty(), "nothing on stdout: {stdout:?}");
    assert!(
        !stderr.contains(TOKEN) && !stdout.contains(TOKEN),
        "the token is never printed: {stderr}"
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "no panic: {stderr}"
    );
    let line = stderr.strip_suffix('\n').unwrap_or(&stderr);
    assert!(
        !line.is_empty() && !line.contains('\n'),
        "one line on stderr: {stderr:?}"
    );
    assert!(line.starts_with("tegami: "), "{line}");
    for s in says {
        assert!(line.contains(s), "the message says {s:?}: {line}");
    }
    line.to_string()
}

#[test]
fn without_a_token_it_stops_at_once_with_one_line_and_status_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    assert!(
        !example().lines().any(|l| l.starts_with("token")),
        "the example config has no token"
    );
    let config = example_path();
    let empty = write(d, "empty-token.toml", "token = \"\"\n");
    let cases: Vec<(&str, Command)> = vec![
        ("no config, no DISCORD_TOKEN", tegami(d)),
        ("the example config", {
            let mut c = tegami(d);
            c.arg("--config").arg(&config);
            c
        }),
        ("an empty DISCORD_TOKEN", {
            let mut c = tegami(d);
            c.arg("--config").arg(&config).env("DISCORD_TOKEN", "");
            c
        }),
        ("a blank DISCORD_TOKEN", {
            let mut c = tegami(d);
            c.arg("--config").arg(&config).env("DISCORD_TOKEN", "  ");
            c
        }),
        ("an empty token in the config", {
            let mut c = tegami(d);
            c.arg("--config").arg(&empty);
            c
        }),
    ];
    for (what, mut cmd) in cases {
        let line = refused(&run_to_end(&mut cmd), &["token", "DISCORD_TOKEN"]);
        assert!(line.contains("no bot token"), "{what}: {line}");
    }
    assert!(
        !d.join("tegami.db").exists(),
        "it stopped before opening the database"
    );
}

#[test]
fn an_unknown_or_mistyped_config_field_is_named_with_its_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let cases = [
        ("prefix = \"!\"", "prefx = \"!\"", "prefx"),
        (
            "message_content = false",
            "message_contents = false",
            "message_contents",
        ),
        (
            "sweep_interval_secs = 60",
            "[discord]\nsweep_interval_secs = 60",
            "discord",
        ),
    ];
    for (i, (from, to, field)) in cases.into_iter().enumerate() {
        let (config, line) = example_with(d, &format!("typo-{i}.toml"), from, to);
        let out = run_to_end(
            tegami(d)
                .arg("--config")
                .arg(&config)
                .env("DISCORD_TOKEN", TOKEN),
        );
        let msg = refused(
            &out,
            &[
                &format!("`{field}`"),
                &format!(" line {line}:"),
                &config.display().to_string(),
            ],
        );
        assert!(msg.contains("unknown field"), "{msg}");
    }
    // At the end of a file, too (the last line has no newline).
    let config = write(d, "last.toml", &format!("{}prefx = \"?\"", example()));
    let line = example().matches('\n').count() + 1;
    refused(
        &run_to_end(
            tegami(d)
                .arg("--config")
                .arg(&config)
                .env("DISCORD_TOKEN", TOKEN),
        ),
        &["`prefx`", &format!(" line {line}:")],
    );
    assert!(!d.join("tegami.db").exists(), "no database was made");
}

#[test]
fn a_config_value_of_the_wrong_type_or_broken_toml_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let cases = [
        ("message_content = false", "message_content = \"no\""),
        ("sweep_interval_secs = 60", "sweep_interval_secs = -5"),
        ("sweep_interval_secs = 60", "sweep_interval_secs = \"60\""),
        ("prefix = \"!\"", "prefix = 1"),
        ("database = \"tegami.db\"", "database = 7"),
        (
            "# dev_guild = 123456789012345678",
            "dev_guild = \"my server\"",
        ),
        ("# token = \"...\"", "token = 12345"),
        ("log = \"info,serenity=warn\"", "log = [\"info\"]"),
        // Not TOML at all.
        ("prefix = \"!\"", "prefix = \"!"),
        ("prefix = \"!\"", "prefix ="),
    ];
    for (i, (from, to)) in cases.into_iter().enumerate() {
        let (config, line) = example_with(d, &format!("type-{i}.toml"), from, to);
        let out = run_to_end(
            tegami(d)
                .arg("--config")
                .arg(&config)
                .env("DISCORD_TOKEN", TOKEN),
        );
        refused(
            &out,
            &[&config.display().to_string(), &format!(" line {line}:")],
        );
    }
    // Values of the right type that make no sense.
    for (from, to, says) in [
        (
            "sweep_interval_secs = 60",
            "sweep_interval_secs = 0",
            "sweep_interval_secs",
        ),
        ("prefix = \"!\"", "prefix = \"! go\"", "prefix"),
        ("prefix = \"!\"", "prefix = \"\"", "prefix"),
        ("log = \"info,serenity=warn\"", "log = \"info,[[[\"", "log"),
    ] {
        let (config, _) = example_with(d, "value.toml", from, to);
        refused(
            &run_to_end(
                tegami(d)
                    .arg("--config")
                    .arg(&config)
                    .env("DISCORD_TOKEN", TOKEN),
            ),
            &[says],
        );
    }
    // A config file that is not there.
    let missing = d.join("nope.toml");
    refused(
        &run_to_end(
            tegami(d)
                .arg("--config")
                .arg(&missing)
                .env("DISCORD_TOKEN", TOKEN),
        ),
        &[
            "cannot read the config file",
            &missing.display().to_string(),
        ],
    );
    // A bad RUST_LOG, with a good config.
    refused(
        &run_to_end(
            tegami(d)
                .arg("--config")
                .arg(example_path())
                .env("DISCORD_TOKEN", TOKEN)
                .env("RUST_LOG", "info,[[["),
        ),
        &["RUST_LOG"],
    );
    assert!(!d.join("tegami.db").exists(), "no database was made");
}

#[test]
fn a_database_that_cannot_be_written_is_named_and_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    // A regular file used as a folder: no write permission bit matters, not even as root.
    let file = d.join("a-file");
    std::fs::write(&file, "not a folder").expect("write file");
    let under_file = file.join("x.db");
    let under_missing = d.join("missing").join("x.db");
    let a_folder = d.join("a-folder");
    std::fs::create_dir(&a_folder).expect("make folder");
    let missing = d.join("missing").display().to_string();
    let file_name = file.display().to_string();
    for (db, why) in [
        // A folder that is not there, or is a file, is named as what is wrong (not as the lock
        // file's or SQLite's "No such file", "unable to open database file").
        (
            under_file.clone(),
            vec![file_name.as_str(), "is not a folder"],
        ),
        (
            under_missing.clone(),
            vec!["the folder", missing.as_str(), "does not exist"],
        ),
        (a_folder, vec![]),
        (
            PathBuf::from("/proc/nonexistent/x.db"),
            vec!["the folder /proc/nonexistent does not exist"],
        ),
    ] {
        let out = run_to_end(
            tegami(d)
                .arg("--config")
                .arg(example_path())
                .arg("--db")
                .arg(&db)
                .env("DISCORD_TOKEN", TOKEN),
        );
        let line = refused(&out, &["database", &db.display().to_string()]);
        for w in why {
            assert!(line.contains(w), "says {w:?}: {line}");
        }
    }
    // The console and the backup say the same of a missing folder.
    let console = Command::new(env!("CARGO_BIN_EXE_tegami"))
        .arg("console")
        .arg("--db")
        .arg(&under_missing)
        .current_dir(d)
        .stdin(Stdio::null())
        .output()
        .expect("run tegami console");
    let err = String::from_utf8_lossy(&console.stderr);
    assert!(!console.status.success(), "{err}");
    assert!(
        err.contains(&format!("the folder {missing} does not exist")),
        "the console names the missing folder: {err}"
    );
    let db = d.join("real.db");
    drop(tegami::store::SqliteStore::open(&db).expect("make a database"));
    for (from, to, says) in [
        (
            under_missing.clone(),
            d.join("b1.db"),
            format!("the folder {missing} does not exist"),
        ),
        (
            db.clone(),
            d.join("missing").join("b2.db"),
            format!(
                "cannot write the backup {}: the folder {missing} does not exist",
                d.join("missing").join("b2.db").display()
            ),
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tegami"))
            .args(["db", "backup", "--db"])
            .arg(&from)
            .arg("--to")
            .arg(&to)
            .current_dir(d)
            .stdin(Stdio::null())
            .output()
            .expect("run tegami db backup");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "refused: {err}");
        assert!(err.contains(&says), "says {says:?}: {err}");
        assert!(!d.join("missing").exists(), "no folder was made");
    }
    // The store itself (a library user's open) says it too.
    let e = tegami::store::SqliteStore::open(&under_missing)
        .err()
        .expect("refused");
    assert!(e.to_string().contains("does not exist"), "{e}");
    // The config's `database`, when there is no --db.
    let (config, _) = example_with(
        d,
        "db.toml",
        "database = \"tegami.db\"",
        &format!("database = {:?}", under_file.display().to_string()),
    );
    refused(
        &run_to_end(
            tegami(d)
                .arg("--config")
                .arg(&config)
                .env("DISCORD_TOKEN", TOKEN),
        ),
        &["database", &under_file.display().to_string()],
    );
    // A database file that is read-only (only meaningful when permission bits stop us, i.e.
    // not as root): SQLite would open it read-only and fail only at the first write.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = d.join("read-only.db");
        drop(tegami::store::SqliteStore::open(&ro).expect("make a database"));
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).expect("chmod 444");
        if std::fs::OpenOptions::new().append(true).open(&ro).is_err() {
            refused(
                &run_to_end(tegami(d).arg("--db").arg(&ro).env("DISCORD_TOKEN", TOKEN)),
                &["database", &ro.display().to_string()],
            );
        }
    }
}

/// A PostgreSQL database that is not a `postgres://` URL, that nothing listens for, or that the
/// server does not have: refused at once, saying why, and nothing is written (no SQLite file
/// appears instead).
#[test]
fn a_postgresql_database_that_cannot_be_opened_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    // A port nothing listens on: bound, then let go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut cases = vec![
        (
            "mysql://tegami@localhost/tegami".to_string(),
            vec!["must start with postgres://"],
        ),
        (
            format!("postgres://tegami@127.0.0.1:{port}/tegami"),
            vec!["PostgreSQL", "Connection refused"],
        ),
    ];
    // With the tests' server, a database it does not have: the server's own words.
    if let Ok(server) = std::env::var("TEGAMI_TEST_DATABASE_URL") {
        if let Some((base, _)) = server.rsplit_once('/') {
            cases.push((
                format!("{base}/tegami_no_such_database"),
                vec!["PostgreSQL", "does not exist"],
            ));
        }
    }
    for (url, says) in cases {
        let out = run_to_end(
            tegami(d)
                .arg("--config")
                .arg(example_path())
                .env("DISCORD_TOKEN", TOKEN)
                .env("DATABASE_URL", &url),
        );
        refused(&out, &says);
    }
    assert!(
        !d.join("tegami.db").exists(),
        "no SQLite file instead of the PostgreSQL database"
    );
}

#[test]
fn an_api_base_that_is_not_http_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    for bad in [
        "discord.com",
        "ftp://discord.com",
        "ws://127.0.0.1:9",
        "",
        "http://",
        "https:///",
    ] {
        let (config, _) = example_with(
            d,
            "api.toml",
            "# api_base = \"https://discord.com\"",
            &format!("api_base = {bad:?}"),
        );
        let out = run_to_end(
            tegami(d)
                .arg("--config")
                .arg(&config)
                .env_remove("TEGAMI_DISCORD_API")
                .env("DISCORD_TOKEN", TOKEN),
        );
        refused(&out, &["api_base", "http://", "https://"]);
    }
    // From the environment, which wins over a good config: the message names the variable.
    for bad in ["discord.com", "ws://127.0.0.1:9"] {
        let (config, _) = example_with(
            d,
            "api-good.toml",
            "# api_base = \"https://discord.com\"",
            "api_base = \"https://discord.com\"",
        );
        let out = run_to_end(
            tegami(d)
                .arg("--config")
                .arg(&config)
                .env("TEGAMI_DISCORD_API", bad)
                .env("DISCORD_TOKEN", TOKEN),
        );
        refused(&out, &["TEGAMI_DISCORD_API", bad, "http://"]);
    }
    assert!(!d.join("tegami.db").exists(), "no database was made");
}

#[test]
fn the_token_is_never_printed_when_startup_fails() {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let file = d.join("a-file");
    std::fs::write(&file, "not a folder").expect("write file");
    let db = file.join("x.db");
    let t = format!("token = {TOKEN:?}");

    // The token from the environment, and each way of failing after it was read.
    let typo = example_with(d, "typo.toml", "prefix = \"!\"", "prefx = \"!\"").0;
    let api = example_with(
        d,
        "api.toml",
        "# api_base = \"https://discord.com\"",
        "api_base = \"discord.com\"",
    )
    .0;
    for mut cmd in [
        {
            let mut c = tegami(d);
            c.arg("--config").arg(&typo);
            c
        },
        {
            let mut c = tegami(d);
            c.arg("--config").arg(&api).env_remove("TEGAMI_DISCORD_API");
            c
        },
        {
            let mut c = tegami(d);
            c.arg("--config").arg(example_path()).arg("--db").arg(&db);
            c
        },
        {
            let mut c = tegami(d);
            c.arg("--db").arg(&db).env("RUST_LOG", "tegami=trace,[[[");
            c
        },
    ] {
        refused(&run_to_end(cmd.env("DISCORD_TOKEN", TOKEN)), &[]);
    }

    // The token in the config file, with something wrong next to it or in its own line.
    let with_token = |line: &str| example().replacen("# token = \"...\"", line, 1);
    let broken = [
        ("typo", with_token(&format!("{t}\nprefx = \"!\""))),
        ("same-line", with_token(&format!("{t} prefix = \"!\""))),
        ("twice", with_token(&format!("{t}\n{t}"))),
        ("unterminated", with_token(&format!("token = \"{TOKEN}"))),
        ("bare", with_token(&format!("token = {TOKEN}"))),
        (
            "spaces",
            with_token(&format!("token = \"{TOKEN} {TOKEN}\"")),
        ),
        (
            "wrong-type-next",
            with_token(&t).replacen("message_content = false", "message_content = \"maybe\"", 1),
        ),
    ];
    for (name, text) in broken {
        assert!(text.contains(TOKEN), "{name}: the config has the token");
        let config = write(d, &format!("{name}.toml"), &text);
        refused(&run_to_end(tegami(d).arg("--config").arg(&config)), &[]);
    }

    // The token in a good config, the database unwritable.
    let config = example_with(d, "good.toml", "# token = \"...\"", &t).0;
    refused(
        &run_to_end(tegami(d).arg("--config").arg(&config).arg("--db").arg(&db)),
        &[&db.display().to_string()],
    );
}

// ===== Against the fake Discord ===========================================================

/// Starts `tegami run ARGS` in `dir` against the fake, with [`TOKEN`] and the environment's
/// `RUST_LOG` as given (none: the config's `log`); stderr goes to `dir/NAME.log`, stdout to
/// `dir/NAME.out`.
fn start(
    fake: &FakeDiscord,
    dir: &Path,
    name: &str,
    args: &[&std::ffi::OsStr],
    rust_log: Option<&str>,
) -> Bot {
    let log = dir.join(format!("{name}.log"));
    let err = std::fs::File::create(&log).expect("log file");
    let out = std::fs::File::create(dir.join(format!("{name}.out"))).expect("out file");
    let mut cmd = tegami(dir);
    cmd.args(args)
        .env("DISCORD_TOKEN", TOKEN)
        .env("TEGAMI_DISCORD_API", fake.api_base())
        .stdout(out)
        .stderr(err);
    if let Some(f) = rust_log {
        cmd.env("RUST_LOG", f);
    }
    let child = cmd.spawn().expect("start tegami run");
    Bot { child, log }
}

/// Waits until the bot is connected and has registered its commands (its setup is done).
async fn ready(fake: &FakeDiscord) {
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
}

/// The intents of the bot's (only) IDENTIFY.
fn identified_intents(fake: &FakeDiscord) -> u64 {
    let ids = fake.identify_payloads();
    assert_eq!(ids.len(), 1, "one IDENTIFY: {ids:?}");
    ids[0]["intents"].as_u64().expect("intents")
}

/// SIGTERM: the bot must stop with status 0; returns its log, checked for the token.
fn stop(bot: &mut Bot, dir: &Path, name: &str) -> String {
    assert_eq!(bot.terminate().code(), Some(0), "SIGTERM stops cleanly");
    let log = bot.log_text();
    let out = std::fs::read_to_string(dir.join(format!("{name}.out"))).unwrap_or_default();
    assert!(
        !log.contains(TOKEN) && !out.contains(TOKEN),
        "the token is never printed"
    );
    assert!(!log.contains("panicked"), "no panic:\n{log}");
    log
}

/// The lines of a log at level ERROR (the level may be wrapped in colour codes).
fn error_lines(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.contains("ERROR")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_example_config_talks_only_to_the_configured_api_and_stops_on_sigterm() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        let fake = FakeDiscord::start().await;
        let config = example_path();
        // As an operator would start it: the example config, its relative `database`, its
        // log filter (no RUST_LOG), the token from the environment.
        let mut bot = start(
            &fake,
            d,
            "example",
            &["--config".as_ref(), config.as_os_str()],
            None,
        );
        ready(&fake).await;
        let calls = fake.calls();
        assert!(
            calls
                .iter()
                .any(|c| c.method == "GET" && c.path.starts_with("/api/v10/gateway")),
            "the gateway's address was asked of the fake, not of Discord:\n{}",
            fake.dump_calls(10)
        );
        assert!(
            calls.iter().all(|c| c.path.starts_with("/api/v10/")),
            "every REST call went to the API base: {:?}",
            calls.iter().map(Recorded::summary).collect::<Vec<_>>()
        );
        assert!(fake.connection_count() >= 1 && fake.identify_count() == 1);
        assert!(
            d.join("tegami.db").is_file(),
            "the example's database is made in the current folder"
        );
        let log = stop(&mut bot, d, "example");
        assert!(error_lines(&log).is_empty(), "no ERROR in the log:\n{log}");
        assert!(log.contains("connected to Discord"), "{log}");
        fake.assert_clean();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_token_is_not_logged_even_at_trace_level() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        let fake = FakeDiscord::start().await;
        let config = example_path();
        let db = d.join("tegami.db");
        let mut bot = start(
            &fake,
            d,
            "trace",
            &[
                "--config".as_ref(),
                config.as_os_str(),
                "--db".as_ref(),
                db.as_os_str(),
            ],
            Some("trace"),
        );
        ready(&fake).await;
        let user = FakeUser::new(2_000_000_000_000_000_021, "dora");
        fake.add_user(&user);
        let (id, token, ev) = fake.slash_command_in(CHANNEL_ID, &user, "help", json!([]), &[]);
        fake.dispatch("INTERACTION_CREATE", ev).await;
        answer(&fake, id, &token).await;
        let log = stop(&mut bot, d, "trace");
        assert!(
            log.lines().count() > 100,
            "trace logging was on: {} lines",
            log.lines().count()
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_message_content_intent_is_asked_only_when_the_config_says_so() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        let alice = FakeUser::new(2_000_000_000_000_000_031, "alice");

        // As shipped (`message_content = false`): no privileged intent, and slash commands
        // work without it.
        assert!(example().contains("\nmessage_content = false\n"));
        let fake = FakeDiscord::start().await;
        fake.add_user(&alice);
        let config = example_path();
        let db = d.join("tegami.db");
        let mut bot = start(
            &fake,
            d,
            "off",
            &[
                "--config".as_ref(),
                config.as_os_str(),
                "--db".as_ref(),
                db.as_os_str(),
            ],
            None,
        );
        ready(&fake).await;
        let intents = identified_intents(&fake);
        assert_eq!(
            intents & MESSAGE_CONTENT,
            0,
            "no MESSAGE_CONTENT (intents {intents:#b})"
        );
        assert_eq!(
            intents & (GUILD_MEMBERS | GUILD_PRESENCES),
            0,
            "no privileged intent (intents {intents:#b})"
        );
        for (bit, name) in [
            (1 << 0, "GUILDS"),
            (1 << 9, "GUILD_MESSAGES"),
            (1 << 12, "DIRECT_MESSAGES"),
        ] {
            assert_ne!(intents & bit, 0, "{name} (intents {intents:#b})");
        }
        let (id, token, ev) = fake.slash_command_in(CHANNEL_ID, &alice, "help", json!([]), &[]);
        fake.dispatch("INTERACTION_CREATE", ev).await;
        let help = answer(&fake, id, &token).await;
        assert!(
            content(&help).contains("Commands"),
            "/help answered without the intent: {}",
            content(&help)
        );
        // The whole list in the message itself (written from the command table in Discord's
        // form), not a file: every command and each group's sub-commands.
        for line in [
            "/settings — ",
            "/league create|join|",
            "/help — ",
            "/settings board",
        ] {
            assert!(
                content(&help).contains(line),
                "{line} in {}",
                content(&help)
            );
        }
        let ask = fake.slash_command_in(
            CHANNEL_ID,
            &alice,
            "help",
            json!([{"name": "topic", "type": 3, "value": "settings"}]),
            &[],
        );
        fake.dispatch("INTERACTION_CREATE", ask.2).await;
        let one = answer(&fake, ask.0, &ask.1).await;
        assert!(
            content(&one).contains("/settings [style]") && content(&one).contains("board — "),
            "/help topic:settings: {}",
            content(&one)
        );
        stop(&mut bot, d, "off");
        drop(fake);

        // `message_content = true`: asked for, and a prefix command is read.
        let fake = FakeDiscord::start().await;
        fake.add_user(&alice);
        let config = write_config(d);
        let mut bot = start(
            &fake,
            d,
            "on",
            &[
                "--config".as_ref(),
                config.as_os_str(),
                "--db".as_ref(),
                db.as_os_str(),
            ],
            None,
        );
        ready(&fake).await;
        let intents = identified_intents(&fake);
        assert_ne!(
            intents & MESSAGE_CONTENT,
            0,
            "MESSAGE_CONTENT asked for (intents {intents:#b})"
        );
        assert_eq!(intents & (GUILD_MEMBERS | GUILD_PRESENCES), 0);
        let before = fake.call_count();
        fake.dispatch(
            "MESSAGE_CREATE",
            fake.message_create(&alice, CHANNEL_ID, "!help"),
        )
        .await;
        let r = fake
            .wait_for_since(before, "the answer to !help", STEP, |c| {
                c.method == "POST" && c.path == format!("/api/v10/channels/{CHANNEL_ID}/messages")
            })
            .await;
        assert!(content(&r).contains("Commands"), "{}", content(&r));
        stop(&mut bot, d, "on");
    })
    .await;
}

/// Whether the bot deferred this interaction (it ran the command) rather than answering it at
/// once (a refusal before any work).
fn was_deferred(fake: &FakeDiscord, id: u64) -> bool {
    fake.interaction_responses(id)
        .iter()
        .any(|c| c.path.ends_with("/callback") && c.json.as_ref().is_some_and(|j| j["type"] == 5))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ninth_quick_command_is_refused_politely_the_tenth_ignored_and_others_served() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        let fake = FakeDiscord::start().await;
        let alice = FakeUser::new(2_000_000_000_000_000_041, "alice");
        let bob = FakeUser::new(2_000_000_000_000_000_042, "bob");
        fake.add_user(&alice);
        fake.add_user(&bob);
        let config = write_config(d);
        let mut bot = Bot::start(&fake, d, &config, 1);
        ready(&fake).await;

        // Ten /help from Alice, each sent once the bot has begun answering the one before
        // (so the limiter sees them in order), all well within 10 seconds.
        let first = Instant::now();
        let mut sent = Vec::new();
        for i in 1..=10 {
            let (id, token, ev) = fake.slash_command_in(CHANNEL_ID, &alice, "help", json!([]), &[]);
            fake.dispatch("INTERACTION_CREATE", ev).await;
            if i < 10 {
                let callback = format!("/api/v10/interactions/{id}/{token}/callback");
                fake.wait_for(&format!("a first answer to /help #{i}"), STEP, |c| {
                    c.method == "POST" && c.path == callback
                })
                .await;
            }
            sent.push((id, token));
        }
        let took = first.elapsed();
        assert!(
            took < Duration::from_secs(8),
            "ten commands took {took:?}: too slow to test a limit of 8 in 10 seconds"
        );

        for (i, (id, token)) in sent.iter().take(8).enumerate() {
            let a = answer(&fake, *id, token).await;
            let text = content(&a);
            assert!(
                text.contains("Commands") && !text.contains("quickly"),
                "/help #{} served: {text}",
                i + 1
            );
            assert!(was_deferred(&fake, *id), "/help #{} ran", i + 1);
        }

        let (id9, token9) = &sent[8];
        let ninth = answer(&fake, *id9, token9).await;
        assert!(
            is_ephemeral(&ninth),
            "the refusal is private: {}",
            ninth.summary()
        );
        assert!(
            content(&ninth).contains("quickly"),
            "the 9th is told: {}",
            content(&ninth)
        );
        assert!(!was_deferred(&fake, *id9), "the 9th did not run");

        // Bob is not limited by Alice.
        let (idb, tokenb, ev) = fake.slash_command_in(CHANNEL_ID, &bob, "help", json!([]), &[]);
        fake.dispatch("INTERACTION_CREATE", ev).await;
        let b = answer(&fake, idb, &tokenb).await;
        assert!(
            content(&b).contains("Commands") && !content(&b).contains("quickly"),
            "Bob is served: {}",
            content(&b)
        );

        // The 10th: dropped, or refused the same way; never run.
        let (id10, _) = &sent[9];
        tokio::time::sleep(Duration::from_millis(500)).await;
        for r in fake.interaction_responses(*id10) {
            assert!(
                r.json.as_ref().is_some_and(|j| j["type"] == 4)
                    && is_ephemeral(&r)
                    && content(&r).contains("quickly"),
                "the 10th is at most refused: {} {:?}",
                r.summary(),
                r.json
            );
        }
        assert!(!was_deferred(&fake, *id10), "the 10th did not run");

        // Once ten seconds have passed since the refusal, Alice is served again.
        let until = ninth.at + Duration::from_millis(10_300);
        tokio::time::sleep_until(tokio::time::Instant::from_std(until)).await;
        let (id, token, ev) = fake.slash_command_in(CHANNEL_ID, &alice, "help", json!([]), &[]);
        fake.dispatch("INTERACTION_CREATE", ev).await;
        let again = answer(&fake, id, &token).await;
        assert!(
            content(&again).contains("Commands") && !content(&again).contains("quickly"),
            "Alice is served after the window: {}",
            content(&again)
        );

        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_clean();
    })
    .await;
}

/// A REST API on loopback whose gateway cannot be reached: it hands out a loopback port where
/// nothing listens (so serenity keeps retrying, and never falls back to Discord's own gateway).
/// Returns its base and how many times the gateway's address was asked.
async fn api_with_a_dead_gateway() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let dead = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let gateway = json!({
        "url": format!("ws://127.0.0.1:{dead}"),
        "shards": 1,
        "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
    });
    let asked = Arc::new(AtomicUsize::new(0));
    let count = asked.clone();
    let app = axum::Router::new().fallback(move |uri: axum::http::Uri| {
        let gateway = gateway.clone();
        let count = count.clone();
        async move {
            if uri.path().starts_with("/api/v10/gateway") {
                count.fetch_add(1, Ordering::SeqCst);
                (axum::http::StatusCode::OK, axum::Json(gateway))
            } else {
                (
                    axum::http::StatusCode::NOT_FOUND,
                    axum::Json(json!({"message": "404: Not Found", "code": 0})),
                )
            }
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (base, asked)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_a_bot_that_cannot_reach_the_gateway() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        let (base, asked) = api_with_a_dead_gateway().await;
        let log = d.join("dead.log");
        let db = d.join("tegami.db");
        let child = tegami(d)
            .arg("--config")
            .arg(example_path())
            .arg("--db")
            .arg(&db)
            .env("DISCORD_TOKEN", TOKEN)
            .env("TEGAMI_DISCORD_API", &base)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("log file"))
            .spawn()
            .expect("start tegami run");
        let mut bot = Bot { child, log };
        // It asked for the gateway and failed to open it at least once.
        let deadline = Instant::now() + STEP;
        while !(asked.load(std::sync::atomic::Ordering::SeqCst) > 0
            && bot.log_text().contains("Err starting shard"))
        {
            assert!(
                Instant::now() < deadline,
                "the bot did not try the gateway:\n{}",
                bot.log_text()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let status = tokio::task::spawn_blocking(move || {
            let s = bot.terminate();
            (s, bot)
        })
        .await
        .expect("terminate");
        assert_eq!(status.0.code(), Some(0), "SIGTERM stops it cleanly");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_development_server_gets_the_commands_at_once_and_globally_nothing() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (config, _) = example_with(
            dir.path(),
            "dev.toml",
            "# dev_guild = 123456789012345678",
            &format!("dev_guild = {GUILD_ID}"),
        );
        let mut bot = start(
            &fake,
            dir.path(),
            "dev",
            &[OsStr::new("--config"), config.as_os_str()],
            None,
        );
        ready(&fake).await;
        let puts: Vec<String> = fake
            .calls()
            .iter()
            .filter(|c| c.method == "PUT" && c.path.ends_with("/commands"))
            .map(|c| c.path.clone())
            .collect();
        assert_eq!(
            puts,
            vec![format!(
                "/api/v10/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
            )],
            "registered in the development server only"
        );
        stop(&mut bot, dir.path(), "dev");
    })
    .await;
}

#[test]
fn a_bot_that_cannot_reach_discord_says_so_tries_again_then_gives_up() {
    // Nothing listens at the REST base (no network, say): the bot says so in lines of its own,
    // tries again after pauses growing 1s, 2s, …, and gives up when its patience (shortened by
    // the test switch) is spent. serenity alone would fall back to Discord's real gateway and
    // identify there with the token, and warn every five seconds about a shard it cannot start.
    let dir = tempfile::tempdir().expect("temp dir");
    let out = run_to_end(
        tegami(dir.path())
            .env("DISCORD_TOKEN", TOKEN)
            .env(tegami::discord::FAULT_PATIENCE, "4"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr:\n{stderr}");
    let tries: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("cannot reach Discord at http://127.0.0.1:9: "))
        .collect();
    assert!(
        tries.len() >= 3,
        "each try says why, in a line of its own:\n{stderr}"
    );
    assert!(
        tries[0].contains("trying again in 1s") && tries[1].contains("trying again in 2s"),
        "the pauses grow:\n{stderr}"
    );
    assert!(
        tries[0].to_lowercase().contains("connection refused"),
        "the cause, not its wrappers: {}",
        tries[0]
    );
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("tegami: cannot reach Discord at http://127.0.0.1:9")
            && last.contains("gave up after"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("gateway.discord.gg") && !stderr.contains("Err starting shard"),
        "no connection to Discord, no shard started: {stderr}"
    );
    assert!(!stderr.contains(TOKEN), "the token is never printed");
    // A name that does not resolve (DNS failing) is said the same way.
    let out = run_to_end(
        tegami(dir.path())
            .env("DISCORD_TOKEN", TOKEN)
            .env("TEGAMI_DISCORD_API", "http://tegami-test.invalid")
            .env(tegami::discord::FAULT_PATIENCE, "1"),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr:\n{stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("tegami: cannot reach Discord at http://tegami-test.invalid: "),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_runs_the_shard_range_it_is_given() {
    bounded(async {
        let config = example_path();
        // One shard of two: it identifies as shard 1 of 2, and no other.
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let mut bot = start(
            &fake,
            dir.path(),
            "shard1",
            &[
                "--config".as_ref(),
                config.as_os_str(),
                "--shards".as_ref(),
                "1".as_ref(),
                "--total-shards".as_ref(),
                "2".as_ref(),
            ],
            None,
        );
        ready(&fake).await;
        let shards: Vec<serde_json::Value> = fake
            .identify_payloads()
            .iter()
            .map(|p| p["shard"].clone())
            .collect();
        assert_eq!(shards, vec![serde_json::json!([1, 2])]);
        let log = stop(&mut bot, dir.path(), "shard1");
        assert!(log.contains("running a range of shards"), "{log}");

        // Both ends of the range are included: `0-1` of 4 is shards 0 and 1.
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let mut bot = start(
            &fake,
            dir.path(),
            "shards01",
            &[
                "--config".as_ref(),
                config.as_os_str(),
                "--shards".as_ref(),
                "0-1".as_ref(),
                "--total-shards".as_ref(),
                "4".as_ref(),
            ],
            None,
        );
        let deadline = std::time::Instant::now() + STEP;
        loop {
            let mut shards: Vec<String> = fake
                .identify_payloads()
                .iter()
                .map(|p| p["shard"].to_string())
                .collect();
            shards.sort();
            if shards.len() >= 2 {
                assert_eq!(shards, ["[0,4]", "[1,4]"]);
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "two shards identify: {shards:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        stop(&mut bot, dir.path(), "shards01");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_written_to_a_file_carries_no_colour_codes() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        let fake = FakeDiscord::start().await;
        let config = example_path();
        let db = d.join("tegami.db");
        // Standard error is a file here, as under a service manager or `2> bot.log`.
        let mut bot = start(
            &fake,
            d,
            "colours",
            &[
                "--config".as_ref(),
                config.as_os_str(),
                "--db".as_ref(),
                db.as_os_str(),
            ],
            Some("info,tegami=debug"),
        );
        ready(&fake).await;
        let log = stop(&mut bot, d, "colours");
        assert!(
            log.contains("INFO") && log.contains("connected to Discord"),
            "the bot logged: {log}"
        );
        assert!(
            !log.contains("\x1b["),
            "no ANSI colour codes in a log file: {:?}",
            log.lines()
                .find(|l| l.contains("\x1b["))
                .unwrap_or_default()
        );
    })
    .await;
}
