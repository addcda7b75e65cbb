//! Clocks on Discord (issue 23): an increment game challenged with `/challenge clock:increment
//! increment:1 cap:5 days:2`, its deadlines set move by move from the players' banks (read from
//! the bot's database), both clocks on `/board`, and the loss on time by the running bot's sweep
//! when a bank runs out.

use serde_json::json;

use super::*;

/// A game's clock as stored: deadline, turn span, both banks.
fn clock_of(conn: &rusqlite::Connection, game: i64) -> (i64, i64, [i64; 2]) {
    conn.query_row(
        "SELECT deadline, turn_span, bank_first, bank_second FROM games WHERE id = ?1",
        [game],
        |r| Ok((r.get(0)?, r.get(1)?, [r.get(2)?, r.get(3)?])),
    )
    .expect("the game's clock")
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64
}

const DAY: i64 = 86_400;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_increment_games_deadlines_follow_the_banks() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = write_config(dir.path());
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_401, "alice");
    let bob = FakeUser::new(2_000_000_000_000_000_402, "bob");
    for u in [&alice, &bob] {
        fake.add_user(u);
    }
    let mut bot = Bot::start(&fake, dir.path(), &config, 1);
    fake.wait_ready(STEP).await;
    let registered = fake
        .wait_for("command registration", STEP, |c| {
            c.method == "PUT" && c.path.ends_with("/commands")
        })
        .await;
    // `/challenge` offers the three clocks as choices, and the numbers of each.
    let commands = registered.json.clone().expect("the commands");
    let challenge = commands
        .as_array()
        .and_then(|a| a.iter().find(|c| c["name"] == "challenge"))
        .expect("/challenge registered");
    let option = |name: &str| {
        challenge["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == name))
            .unwrap_or_else(|| panic!("/challenge has `{name}`"))
            .clone()
    };
    let clock = option("clock");
    let clocks: Vec<&str> = clock["choices"]
        .as_array()
        .map(|c| c.iter().filter_map(|c| c["value"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(clocks, ["per-move", "increment", "byoyomi"]);
    for n in ["increment", "cap", "period"] {
        assert_eq!(option(n)["type"], 4, "`{n}` is an integer of days");
    }

    let ack = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "challenge",
        json!([
            opt_user("opponent", &bob),
            opt_str("game", "shogi"),
            opt_str("color", "black"),
            opt_int("days", 2),
            opt_str("clock", "increment"),
            opt_int("increment", 1),
            opt_int("cap", 5)
        ]),
        &[&bob],
    )
    .await;
    let text = content(&ack);
    assert!(
        text.contains("2 days + 1 day per move (at most 5 days)"),
        "{text}"
    );
    let challenge = number_after(&text, "Challenge #");
    let started = unix_now();
    let ack = slash(
        &fake,
        CHANNEL_ID,
        &bob,
        "accept",
        json!([opt_int("challenge", challenge)]),
        &[],
    )
    .await;
    let game = number_after(&content(&ack), "Game #");

    let conn = rusqlite::Connection::open(dir.path().join("tegami.db")).expect("the database");
    conn.busy_timeout(Duration::from_secs(10))
        .expect("busy timeout");
    // Alice's first turn: her bank of 2 days.
    let (deadline, span, banks) = clock_of(&conn, game);
    assert_eq!((span, banks), (2 * DAY, [2 * DAY, 2 * DAY]));
    assert!((started..=unix_now()).contains(&(deadline - 2 * DAY)));

    // As if Alice had thought for a day and a half hour: her deadline that much closer.
    conn.execute(
        "UPDATE games SET deadline = deadline - 86400 - 1800 WHERE id = ?1",
        [game],
    )
    .expect("a day gone");
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "move",
        json!([opt_int("game", game), opt_str("move", "7g7f")]),
        &[],
    )
    .await;
    let moved_at = unix_now();
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    let (deadline, span, banks) = clock_of(&conn, game);
    // Her bank: the 23h 30m left, and one day more (within the seconds the test took).
    let banked = 2 * DAY - 1800;
    assert!((banked - 5..=banked).contains(&banks[0]), "{banks:?}");
    // Bob's turn: his whole bank of 2 days, from the move.
    assert_eq!((span, banks[1]), (2 * DAY, 2 * DAY));
    assert!((moved_at - 5..=moved_at).contains(&(deadline - 2 * DAY)));

    // `/board` shows both clocks.
    let board = slash(
        &fake,
        CHANNEL_ID,
        &bob,
        "board",
        json!([opt_int("game", game)]),
        &[],
    )
    .await;
    let text = content(&board);
    // (Bob's 2 days, less the second or two the test took.)
    assert!(
        text.contains("Clocks: alice 1d 23h · bob 2d —")
            || text.contains("Clocks: alice 1d 23h · bob 1d 23h —"),
        "{text}"
    );
    assert!(
        text.contains("— 2 days + 1 day per move (at most 5 days)."),
        "{text}"
    );
    png_of(&board);

    // Bob's bank runs out: the running bot's sweep ends the game on time.
    conn.execute(
        "UPDATE games SET deadline = unixepoch() - 1 WHERE id = ?1",
        [game],
    )
    .expect("Bob's time gone");
    let lost = fake
        .wait_for("Bob's loss on time", STEP, |c| {
            c.method == "POST"
                && c.path.ends_with("/messages")
                && c.content()
                    .is_some_and(|t| t.contains(&format!("game #{game}: you lost on time")))
        })
        .await;
    assert!(
        lost.content().is_some_and(|t| t.contains(&bob.mention())),
        "{}",
        lost.summary()
    );
    let status: String = conn
        .query_row("SELECT reason FROM games WHERE id = ?1", [game], |r| {
            r.get(0)
        })
        .expect("the game");
    assert_eq!(status, "timeout");
    assert_eq!(bot.terminate().code(), Some(0));
}
