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
