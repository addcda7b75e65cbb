//! The bot's start and stop (issue 49, points 12 and 18), end to end against the fake Discord.
//!
//! - Discord answers the command registration (`PUT /applications/{app}/commands`) with 500
//!   twice: the bot tries again, `/healthz` is 503 and says why until Discord takes the list,
//!   then 200. Answered 500 for good, the bot gives up with exit status 1 once its patience
//!   (shortened by `TEGAMI_FAULT_PATIENCE_SECS`) is spent.
//! - A clean stop while a command is in flight (the fake holds its answer to the command's
//!   defer, so the drain cannot end before the test lets it): `/healthz` says "stopping", and
//!   a bare move and a prefix command sent meanwhile are answered "restarting", not met with
//!   silence; the command in flight is finished and the bot exits with status 0.

use std::time::{Duration, Instant};

use serde_json::json;

use super::metrics::{config_with, free_port, poll};
use super::{answer, content, Bot, STEP};
use crate::fake_discord::{opt_str, opt_user, FakeDiscord, FakeUser, Recorded, APP_ID, CHANNEL_ID};

/// The longest any test here may take.
const LIMIT: Duration = Duration::from_secs(150);

async fn bounded<F: std::future::Future<Output = ()>>(body: F) {
    tokio::time::timeout(LIMIT, body)
        .await
        .expect("the test did not finish within its time limit");
}

fn user(n: u64, name: &str) -> FakeUser {
    FakeUser::new(2_000_000_000_000_049_000 + n, name)
}

/// The bot with the example config, `/healthz` on a free port, and `env`.
fn start(fake: &FakeDiscord, dir: &std::path::Path, env: &[(&str, &str)]) -> (Bot, u16) {
    let port = free_port();
    let config = config_with(dir, &format!("metrics_addr = \"127.0.0.1:{port}\""));
    let db = dir.join("tegami.db");
    let bot = Bot::start_with(
        fake,
        dir,
        &config,
        "lifecycle",
        &["--db".as_ref(), db.as_os_str()],
        env,
    );
    (bot, port)
}

/// Whether a call is the command registration.
fn registration(c: &Recorded) -> bool {
    c.method == "PUT" && c.path == format!("/api/v10/applications/{APP_ID}/commands")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_command_registration_is_tried_again_and_the_bot_is_unready_meanwhile() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        fake.fail_times("PUT", &format!("/applications/{APP_ID}/commands"), 500, 2);
        let (mut bot, port) = start(&fake, dir.path(), &[]);
        fake.wait_ready(STEP).await;
        // Connected, but Discord refused the commands: not ready, and it says why.
        let body = poll(port, "/healthz", "unready, saying why", |s, b| {
            s == 503 && b.contains("500")
        })
        .await;
        assert!(body.contains("slash commands are not registered"), "{body}");
        assert!(
            !body.contains("no gateway shard"),
            "the gateway is connected: only the commands are missing: {body}"
        );
        // Tried again until Discord took them: then ready.
        let ok = fake
            .wait_for("the registration taken", STEP, |c| {
                registration(c) && c.ok()
            })
            .await;
        let puts: Vec<Recorded> = fake.calls().into_iter().filter(registration).collect();
        assert_eq!(puts.len(), 3, "two refusals, then the list taken");
        assert!(puts[..2].iter().all(|c| c.injected && c.status == 500));
        assert!(
            ok.json
                .as_ref()
                .and_then(|j| j.as_array())
                .is_some_and(|a| !a.is_empty()),
            "the whole list, the third time"
        );
        let body = poll(port, "/healthz", "ready once registered", |s, _| s == 200).await;
        assert!(body.starts_with("ready"), "{body}");
        assert_eq!(bot.terminate().code(), Some(0));
        let log = bot.log_text();
        assert_eq!(
            log.lines()
                .filter(|l| l.contains("slash commands are not registered")
                    && l.contains("trying again"))
                .count(),
            2,
            "each refusal is logged with what happens next:\n{log}"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_whose_commands_are_never_taken_gives_up_with_status_1() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        fake.fail_times(
            "PUT",
            &format!("/applications/{APP_ID}/commands"),
            500,
            1000,
        );
        let (bot, port) = start(&fake, dir.path(), &[(tegami::discord::FAULT_PATIENCE, "3")]);
        fake.wait_ready(STEP).await;
        poll(port, "/healthz", "unready while refused", |s, b| {
            s == 503 && b.contains("not registered")
        })
        .await;
        let status = tokio::task::spawn_blocking(move || {
            let mut bot = bot;
            let deadline = Instant::now() + STEP;
            loop {
                if let Some(s) = bot.child_status() {
                    return (s, bot);
                }
                assert!(Instant::now() < deadline, "the bot did not give up");
                std::thread::sleep(Duration::from_millis(50));
            }
        })
        .await
        .expect("wait");
        let (status, bot) = status;
        assert_eq!(status.code(), Some(1), "{}", bot.log_text());
        let log = bot.log_text();
        let last = log.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("tegami: the slash commands are not registered")
                && last.contains("gave up after"),
            "the last line says why it stopped:\n{log}"
        );
        assert!(!log.contains("panicked"), "{log}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn during_a_clean_stop_healthz_says_stopping_and_messages_are_answered() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob, carol) = (user(1, "alice"), user(2, "bob"), user(3, "carol"));
        for u in [&alice, &bob, &carol] {
            fake.add_user(u);
        }
        let (bot, port) = start(&fake, dir.path(), &[]);
        fake.wait_ready(STEP).await;
        poll(port, "/healthz", "ready", |s, _| s == 200).await;
        // A game, in its thread; Alice (Black) to move.
        let (id, token, ev) = fake.slash_command_in(
            CHANNEL_ID,
            &alice,
            "challenge",
            json!([
                opt_user("opponent", &bob),
                opt_str("game", "shogi"),
                opt_str("color", "black")
            ]),
            &[&bob],
        );
        fake.dispatch("INTERACTION_CREATE", ev).await;
        answer(&fake, id, &token).await;
        let before = fake.call_count();
        let (id, token, ev) = fake.slash_command_in(CHANNEL_ID, &bob, "accept", json!([]), &[]);
        fake.dispatch("INTERACTION_CREATE", ev).await;
        answer(&fake, id, &token).await;
        let t = fake
            .wait_for_since(before, "the game's thread", STEP, |c| {
                c.ok() && c.method == "POST" && c.path.ends_with("/threads")
            })
            .await;
        let thread: u64 = t.response.as_ref().expect("thread")["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("thread id");

        // Carol's command is in flight: the fake holds its defer until told.
        let hold = fake.hold_next("POST", "/interactions/");
        let (id, token, ev) = fake.slash_command_in(CHANNEL_ID, &carol, "games", json!([]), &[]);
        fake.dispatch("INTERACTION_CREATE", ev).await;
        hold.arrived(STEP).await;
        let stopped = tokio::task::spawn_blocking(move || {
            let mut bot = bot;
            let s = bot.terminate();
            (s, bot)
        });
        let body = poll(port, "/healthz", "stopping", |s, b| {
            s == 503 && b.contains("stopping")
        })
        .await;
        assert!(body.starts_with("stopping"), "{body}");

        // Meanwhile a bare move and a prefix command are answered, and nothing is played.
        let before = fake.call_count();
        let mv = fake.message_create(&alice, thread, "７六歩");
        let mv_id = mv["id"].as_str().expect("id").to_string();
        fake.dispatch("MESSAGE_CREATE", mv).await;
        let r = fake
            .wait_for_since(before, "the bare move answered", STEP, |c| {
                c.method == "POST"
                    && c.path == format!("/api/v10/channels/{thread}/messages")
                    && c.json.as_ref().is_some_and(|j| {
                        j["message_reference"]["message_id"].as_str() == Some(mv_id.as_str())
                    })
            })
            .await;
        assert!(content(&r).contains("restarting"), "{}", content(&r));
        let before = fake.call_count();
        let cmd = fake.message_create(&bob, CHANNEL_ID, "!games");
        let cmd_id = cmd["id"].as_str().expect("id").to_string();
        fake.dispatch("MESSAGE_CREATE", cmd).await;
        let r = fake
            .wait_for_since(before, "the prefix command answered", STEP, |c| {
                c.method == "POST"
                    && c.path == format!("/api/v10/channels/{CHANNEL_ID}/messages")
                    && c.json.as_ref().is_some_and(|j| {
                        j["message_reference"]["message_id"].as_str() == Some(cmd_id.as_str())
                    })
            })
            .await;
        assert!(content(&r).contains("restarting"), "{}", content(&r));

        // The command in flight is finished, then the bot stops cleanly.
        hold.release();
        let done = answer(&fake, id, &token).await;
        assert!(!content(&done).contains("restarting"), "{}", content(&done));
        let (status, bot) = stopped.await.expect("terminate");
        assert_eq!(status.code(), Some(0), "{}", bot.log_text());
        assert!(
            !fake.calls().iter().any(|c| c.method == "POST"
                && c.path == format!("/api/v10/channels/{thread}/messages")
                && content(c).contains("P-7f")),
            "the move sent during the stop was not played"
        );
    })
    .await;
}

/// The game's stored number of moves.
fn stored_ply(dir: &std::path::Path, game: i64) -> i64 {
    let conn = rusqlite::Connection::open_with_flags(
        dir.join("tegami.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open the bot's database");
    conn.query_row("SELECT ply FROM games WHERE id = ?1", [game], |r| r.get(0))
        .expect("the game is stored")
}

/// Waits until the bot's log says `what`.
async fn logged(bot: &Bot, what: &str) {
    let deadline = Instant::now() + STEP;
    while !bot.log_text().contains(what) {
        assert!(
            Instant::now() < deadline,
            "the log does not say {what:?}:\n{}",
            bot.log_text()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Point 18, the computer's move during a clean stop: SIGTERM arrives while the computer is
/// still thinking (held by the test switch `TEGAMI_FAULT_COMPUTER_WAITS_FOR`); the stop waits
/// for its move, whose announcement the fake then holds in flight: the bot exits only once
/// Discord took it. After a restart the move is neither played nor announced again, nothing
/// is left in the outbox, and the game goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clean_stop_while_the_computer_thinks_announces_its_move_once() {
    use super::hardening::{outbox_drained, posted_in, started, RETRIED};
    use crate::fake_discord::{opt_int, BOT_USERNAME, BOT_USER_ID};
    use tegami::service::FAULT_COMPUTER_WAITS_FOR;
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let alice = user(61, "alice");
        let tegami = FakeUser::new(BOT_USER_ID, BOT_USERNAME);
        fake.add_user(&alice);
        let go = dir.path().join("computer-go");
        let go_env = go.to_str().expect("a UTF-8 path").to_string();
        let bot = started(
            &fake,
            dir.path(),
            "computer-stop-1",
            &[(FAULT_COMPUTER_WAITS_FOR, go_env.as_str())],
        )
        .await;

        // Alice plays White against the computer: it is to move at once, and thinks.
        let before = fake.call_count();
        let (id, token, ev) = fake.slash_command_in(
            CHANNEL_ID,
            &alice,
            "challenge",
            json!([
                opt_user("opponent", &tegami),
                opt_str("game", "shogi"),
                opt_str("color", "white"),
                opt_int("level", 1)
            ]),
            &[&tegami],
        );
        fake.dispatch("INTERACTION_CREATE", ev).await;
        let ack = answer(&fake, id, &token).await;
        assert!(
            content(&ack).contains("Game #1 begins"),
            "{}",
            content(&ack)
        );
        let t = fake
            .wait_for_since(before, "the game's thread", STEP, |c| {
                c.ok() && c.method == "POST" && c.path.ends_with("/threads")
            })
            .await;
        let thread: u64 = t.response.as_ref().expect("thread")["id"]
            .as_str()
            .and_then(|s| s.parse().ok())
            .expect("thread id");
        logged(&bot, "computer move paused (game 1)").await;

        // The stop begins while the computer thinks.
        let announced = fake.hold_next("POST", &format!("/channels/{thread}/messages"));
        let log = bot.log.clone();
        let mut stopped = tokio::task::spawn_blocking(move || {
            let mut bot = bot;
            let s = bot.terminate();
            (s, bot)
        });
        let deadline = Instant::now() + STEP;
        while !std::fs::read_to_string(&log)
            .unwrap_or_default()
            .contains("stopping: no new commands")
        {
            assert!(Instant::now() < deadline, "the stop did not begin");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(stored_ply(dir.path(), 1), 0, "nothing played yet");

        // Its move is made, and its announcement is in flight: the bot waits for it.
        std::fs::write(&go, b"go").expect("let the computer move");
        announced.arrived(STEP).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            !stopped.is_finished(),
            "the bot did not stop before its announcement was taken"
        );
        assert_eq!(stored_ply(dir.path(), 1), 1, "the move is stored");
        announced.release();
        let (status, bot) = (&mut stopped).await.expect("terminate");
        assert_eq!(status.code(), Some(0), "{}", bot.log_text());
        let first = |c: &Recorded| posted_in(c, thread) && content(c).contains("Tegami plays 1.");
        let calls = fake.calls();
        let posts: Vec<&Recorded> = calls.iter().filter(|c| first(c)).collect();
        assert_eq!(
            posts.len(),
            1,
            "announced once: {}",
            fake.dump_calls(before)
        );
        assert!(
            super::pinged(posts[0]).contains(&alice.id),
            "Alice is pinged: {}",
            posts[0].summary()
        );
        drop(bot);

        // After a restart: nothing repeated, nothing left, and the game goes on.
        let restarted = fake.call_count();
        let mut bot = started(&fake, dir.path(), "computer-stop-2", &[]).await;
        outbox_drained(dir.path(), RETRIED).await;
        let r = super::slash(
            &fake,
            thread,
            &alice,
            "move",
            json!([opt_str("move", "3c3d")]),
            &[],
        )
        .await;
        assert!(!content(&r).starts_with('✗'), "{}", content(&r));
        fake.wait_for_since(restarted, "the computer's next move", STEP, |c| {
            posted_in(c, thread) && content(c).contains("Tegami plays 2.")
        })
        .await;
        assert_eq!(stored_ply(dir.path(), 1), 3);
        outbox_drained(dir.path(), RETRIED).await;
        let calls = fake.calls();
        assert_eq!(
            calls.iter().filter(|c| first(c)).count(),
            1,
            "the first move is not announced again: {}",
            fake.dump_calls(restarted)
        );
        for c in calls.iter().skip(restarted) {
            assert!(
                !(c.ok() && c.method == "POST" && content(c).contains("Tegami plays 1.")),
                "repeated after the restart: {}",
                c.summary()
            );
        }
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}
