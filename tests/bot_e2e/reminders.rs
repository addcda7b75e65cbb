//! Reminders on Discord (issue 20, point 4): in a 1-day game no reminder follows a move (the
//! player is reminded halfway through their time, not at the next sweep), while a game whose
//! player has used most of their time is reminded, once, by the running bot's sweep.

use serde_json::json;

use super::*;

/// Whether a recorded call is a message of the bot carrying a reminder about `game`.
fn reminder_about(c: &Recorded, game: i64) -> bool {
    c.method == "POST"
        && c.path.ends_with("/messages")
        && c.content()
            .is_some_and(|t| t.contains(&format!("reminder: your move in game #{game} ")))
}

/// A challenge by `a` of `b` in the channel, accepted; the game's number.
pub(super) async fn start_game(fake: &FakeDiscord, a: &FakeUser, b: &FakeUser, days: i64) -> i64 {
    let ack = slash(
        fake,
        CHANNEL_ID,
        a,
        "challenge",
        json!([
            opt_user("opponent", b),
            opt_str("game", "shogi"),
            opt_str("color", "black"),
            opt_int("days", days)
        ]),
        &[b],
    )
    .await;
    let challenge = number_after(&content(&ack), "Challenge #");
    let ack = slash(
        fake,
        CHANNEL_ID,
        b,
        "accept",
        json!([opt_int("challenge", challenge)]),
        &[],
    )
    .await;
    number_after(&content(&ack), "Game #")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_one_day_game_gets_no_reminder_after_a_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The sweep runs every second.
    let config = write_config(dir.path());
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_201, "alice");
    let bob = FakeUser::new(2_000_000_000_000_000_202, "bob");
    let carol = FakeUser::new(2_000_000_000_000_000_203, "carol");
    let dave = FakeUser::new(2_000_000_000_000_000_204, "dave");
    for u in [&alice, &bob, &carol, &dave] {
        fake.add_user(u);
    }
    let mut bot = Bot::start(&fake, dir.path(), &config, 1);
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;

    // A 1-day game: Alice moves at once.
    let quick = start_game(&fake, &alice, &bob, 1).await;
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "move",
        json!([opt_int("game", quick), opt_str("move", "7g7f")]),
        &[],
    )
    .await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));

    // A 3-day game whose player has used most of their time (23 hours left, written into the
    // bot's database as if two days had passed): the running bot's sweep reminds Carol of it.
    let slow = start_game(&fake, &carol, &dave, 3).await;
    let conn = rusqlite::Connection::open(dir.path().join("tegami.db")).expect("the database");
    conn.busy_timeout(Duration::from_secs(10))
        .expect("busy timeout");
    let n = conn
        .execute(
            "UPDATE games SET deadline = unixepoch() + 23 * 3600 WHERE id = ?1",
            [slow],
        )
        .expect("a deadline 23 hours away");
    assert_eq!(n, 1);
    let reminded = fake
        .wait_for("Carol's reminder", STEP, |c| reminder_about(c, slow))
        .await;
    assert!(
        reminded
            .content()
            .is_some_and(|t| t.contains(&carol.mention())),
        "{}",
        reminded.summary()
    );

    // Several more sweeps: nothing about the 1-day game, and Carol's reminder went out once.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let calls = fake.calls();
    let quick_reminders: Vec<String> = calls
        .iter()
        .filter(|c| reminder_about(c, quick))
        .map(Recorded::summary)
        .collect();
    assert!(
        quick_reminders.is_empty(),
        "no reminder right after a move in a 1-day game: {quick_reminders:?}"
    );
    let slow_reminders = calls
        .iter()
        .filter(|c| c.ok() && reminder_about(c, slow))
        .count();
    assert_eq!(slow_reminders, 1, "one reminder per move");
    assert_eq!(bot.terminate().code(), Some(0));
}
