//! Moving a server's bot from SQLite to PostgreSQL (issue 24): a game begun on the SQLite file
//! by the real `tegami run`, the bot stopped, `tegami db copy` into an empty PostgreSQL
//! database, and the bot started on the copy continues the game where it was: the next move is
//! accepted and lands after the copied ones, and the copy's id sequences go on past the copied
//! rows (a new challenge gets the next number, not one already used).
//!
//! Needs PostgreSQL (`TEGAMI_TEST_DATABASE_URL`), as `sharded.rs`; skipped without it outside CI.

use std::process::Command;

use serde_json::json;

use super::sharded::{database_url, off_runtime, pg_server, PG_URL_ENV};
use super::*;

/// Runs `tegami db ARGS`; its exit status and stdout, stderr.
fn db(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tegami"))
        .arg("db")
        .args(args)
        .output()
        .expect("run tegami db");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_started_on_a_postgres_copy_continues_the_game() {
    let Some(server) = pg_server("the_bot_started_on_a_postgres_copy_continues_the_game") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let config = write_config(dir.path());
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_451, "alice");
    let bob = FakeUser::new(2_000_000_000_000_000_452, "bob");
    for u in [&alice, &bob] {
        fake.add_user(u);
    }

    // On SQLite: a challenge (the first), its acceptance, Black's first move.
    let mut bot = Bot::start_ready(&fake, dir.path(), &config).await;
    let game = super::reminders::start_game(&fake, &alice, &bob, 3).await;
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "move",
        json!([opt_int("game", game), opt_str("move", "7g7f")]),
        &[],
    )
    .await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));

    // A running bot's file is refused: a move made after the copy would be lost.
    let file = dir.path().join("tegami.db");
    let file = file.to_str().expect("a UTF-8 path");
    let name = format!("tegami_test_{}_copy", std::process::id());
    let url = database_url(&server, &name);
    {
        let (server, name) = (server.clone(), name.clone());
        off_runtime(move || {
            let mut c = postgres::Client::connect(&server, postgres::NoTls)
                .unwrap_or_else(|e| panic!("{PG_URL_ENV}={server}: {e}"));
            c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .and_then(|()| c.batch_execute(&format!("CREATE DATABASE {name}")))
                .expect("an empty database");
        });
    }
    let (status, _, err) = db(&["copy", "--from", file, "--to", &url]);
    assert_eq!(status, Some(2), "{err}");
    assert!(err.contains("is in use"), "{err}");
    assert_eq!(bot.terminate().code(), Some(0));

    let (status, out, err) = db(&["copy", "--from", file, "--to", &url]);
    assert_eq!(status, Some(0), "{out}{err}");
    assert!(out.contains("the copy equals the source"), "{out}");
    assert!(
        out.contains("every game's moves are equal on both sides (1 game)"),
        "{out}"
    );

    // The bot on the copy: Bob answers, the game goes on at its third ply.
    let before = fake.call_count();
    let mut bot = Bot::start_with(
        &fake,
        dir.path(),
        &config,
        "2",
        &[],
        &[("DATABASE_URL", url.as_str())],
    );
    fake.wait_for_since(before, "command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    let r = slash(
        &fake,
        CHANNEL_ID,
        &bob,
        "move",
        json!([opt_int("game", game), opt_str("move", "3c3d")]),
        &[],
    )
    .await;
    let text = content(&r);
    assert!(!text.starts_with('✗'), "{text}");
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "move",
        json!([opt_int("game", game), opt_str("move", "2g2f")]),
        &[],
    )
    .await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    // A new challenge is numbered after the copied one.
    let challenge = 1;
    let ack = slash(
        &fake,
        CHANNEL_ID,
        &bob,
        "challenge",
        json!([opt_user("opponent", &alice), opt_str("game", "judkins")]),
        &[&alice],
    )
    .await;
    assert_eq!(
        number_after(&content(&ack), "Challenge #"),
        challenge + 1,
        "{}",
        content(&ack)
    );
    assert_eq!(bot.terminate().code(), Some(0));

    let url_c = url.clone();
    let (ply, moves) = off_runtime(move || {
        let mut c = tegami::store::connect_postgres(&url_c, "test").expect("the copy");
        let ply: i64 = c
            .query_one("SELECT ply FROM games WHERE id = $1", &[&game])
            .expect("the game")
            .get(0);
        let moves: Vec<String> = c
            .query(
                "SELECT code FROM moves WHERE game_id = $1 AND NOT taken_back ORDER BY ply",
                &[&game],
            )
            .expect("its moves")
            .iter()
            .map(|r| r.get(0))
            .collect();
        (ply, moves)
    });
    assert_eq!(ply, 3);
    assert_eq!(moves, ["7g7f", "3c3d", "2g2f"]);
    off_runtime(move || {
        if let Ok(mut c) = postgres::Client::connect(&server, postgres::NoTls) {
            let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
        }
    });
}
