//! A game against the computer on Discord: `/challenge opponent:@Tegami level:1` starts the
//! game at once, the bot's moves are announced in the game's thread with the board and a ping
//! of the player, a restart takes up a move that was due, and `/analysis` answers with the
//! chart once the game is over.

use serde_json::json;

use super::*;
use crate::fake_discord::{FakeUser, BOT_USERNAME, BOT_USER_ID};

/// The stored position and whose turn it is, read from the bot's database file.
fn stored(dir: &Path, game: i64) -> (String, Option<String>, u32) {
    let conn = rusqlite::Connection::open_with_flags(
        dir.join("tegami.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open the bot's database");
    conn.query_row(
        "SELECT position, to_move, ply FROM games WHERE id = ?1",
        [game],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .expect("the game is stored")
}

/// A legal move (code) in the stored position of a Judkins game.
fn a_legal_move(dir: &Path, game: i64) -> String {
    use tegami::engine::notation::{code, fen};
    let (position, _, _) = stored(dir, game);
    let v = tegami::engine::Variant::get(tegami::engine::VariantId::Judkins);
    let pos = fen::parse(v, &position).expect("a stored position");
    let g = tegami::engine::Game::new(pos);
    let m = g.legal_moves()[0];
    code::write(v, m)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_computer_on_discord() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = write_config(dir.path());
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_101, "alice");
    let tegami = FakeUser::new(BOT_USER_ID, BOT_USERNAME);
    fake.add_user(&alice);

    let mut bot = Bot::start(&fake, dir.path(), &config, 1);
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;

    // Alice challenges the bot itself, playing second: the game begins at once.
    let before = fake.call_count();
    let ack = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "challenge",
        json!([
            opt_user("opponent", &tegami),
            opt_str("game", "judkins"),
            opt_str("color", "white"),
            opt_int("level", 1)
        ]),
        &[&tegami],
    )
    .await;
    assert!(is_ephemeral(&ack));
    assert!(
        content(&ack).contains("Game #1 begins"),
        "{}",
        content(&ack)
    );
    let start = posted(&fake, before, CHANNEL_ID, "the game announced").await;
    assert!(content(&start).contains("level 1"), "{}", content(&start));
    png_of(&start);
    let thread_call = fake
        .wait_for("the game's thread", STEP, |c| {
            c.method == "POST" && c.path.ends_with("/threads")
        })
        .await;
    let thread: u64 = thread_call.response.as_ref().expect("thread")["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("thread id");

    // The computer moves first: its move is announced in the thread, pinging Alice only.
    let first = fake
        .wait_for_since(before, "the computer's first move", STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.path == format!("/api/v10/channels/{thread}/messages")
                && c.content().is_some_and(|t| t.contains("Tegami plays 1."))
        })
        .await;
    assert_eq!(pinged(&first), vec![alice.id]);
    let (w, h) = png_of(&first);
    assert!(w >= 400 && h >= 400);
    let (_, to_move, ply) = stored(dir.path(), 1);
    assert_eq!((to_move.as_deref(), ply), (Some(&*alice.id.to_string()), 1));

    // Alice answers; the computer answers her, in the thread.
    for n in 1..=2 {
        let mv = a_legal_move(dir.path(), 1);
        let before = fake.call_count();
        let r = slash(
            &fake,
            thread,
            &alice,
            "move",
            json!([opt_str("move", &mv)]),
            &[],
        )
        .await;
        assert!(
            is_ephemeral(&r) && !content(&r).starts_with('✗'),
            "{}",
            content(&r)
        );
        let reply = fake
            .wait_for_since(before, "the computer's answer", STEP, |c| {
                c.ok()
                    && c.method == "POST"
                    && c.path == format!("/api/v10/channels/{thread}/messages")
                    && c.content()
                        .is_some_and(|t| t.contains(&format!("Tegami plays {}.", n + 1)))
            })
            .await;
        assert_eq!(pinged(&reply), vec![alice.id]);
        png_of(&reply);
    }

    // Alice moves and the bot is killed at once: after the restart the computer's move is
    // there (whether it was made before the kill or taken up after it), exactly once.
    let mv = a_legal_move(dir.path(), 1);
    let r = slash(
        &fake,
        thread,
        &alice,
        "move",
        json!([opt_str("move", &mv)]),
        &[],
    )
    .await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    let before_crash = fake.live_number();
    bot.kill();
    let mut bot = Bot::start(&fake, dir.path(), &config, 2);
    fake.wait_connection_after(before_crash, STEP).await;
    let deadline = Instant::now() + STEP;
    loop {
        let (_, to_move, ply) = stored(dir.path(), 1);
        if ply == 7 && to_move.as_deref() == Some(&*alice.id.to_string()) {
            break;
        }
        assert!(ply <= 7, "the computer moved twice");
        assert!(
            Instant::now() < deadline,
            "the computer's move was not resumed (ply {ply})"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Offers are refused, the analysis waits for the end.
    let r = slash(&fake, thread, &alice, "draw", json!([]), &[]).await;
    assert_private_refusal(&fake, &r, "does not answer offers");
    let r = slash(
        &fake,
        thread,
        &alice,
        "analysis",
        json!([opt_int("game", 1)]),
        &[],
    )
    .await;
    assert_private_refusal(&fake, &r, "still being played");

    // Alice resigns; then the analysis comes, privately, with its chart.
    let ask = slash(&fake, thread, &alice, "resign", json!([]), &[]).await;
    let confirm_id = button(&ask, "Confirm resignation");
    let (iid, token, ev) = fake.button_click(&alice, &confirm_id, &message_of(&ask));
    fake.dispatch("INTERACTION_CREATE", ev).await;
    let over = answer(&fake, iid, &token).await;
    assert!(content(&over).contains("resigns"), "{}", content(&over));
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "analysis",
        json!([opt_int("game", 1)]),
        &[],
    )
    .await;
    assert!(is_ephemeral(&r));
    assert!(content(&r).contains("evaluation"), "{}", content(&r));
    assert_eq!(png_of(&r), (800, 400));

    assert_eq!(bot.terminate().code(), Some(0), "SIGTERM stops cleanly");
    fake.assert_no_unknown_routes();
}
