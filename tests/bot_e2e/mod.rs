//! The bot end to end: the real `tegami run` binary, configured from `config.example.toml`,
//! against the fake Discord on loopback. A whole correspondence game is played the Discord way
//! (slash commands, buttons, a prefix command, a bare move in the game's thread), with the
//! mistakes players make, a crash and restart mid-game, a dropped gateway and a failed notice.
//! `sharded`: two processes, one shard each, on one PostgreSQL database. `language`: the bot
//! in Japanese for a Japanese client, its commands registered with their Japanese words.
//! `metrics`: `/metrics` and `/healthz` (through a gateway reset and RESUME), JSON logs.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::fake_discord::{
    opt_focused, opt_int, opt_str, opt_user, FakeDiscord, FakeUser, Recorded, APP_ID, CHANNEL_ID,
};

mod clocks;
mod computer;
mod conditional;
mod dbcopy;
mod follow;
mod hardening;
mod heard;
mod language;
mod league;
mod lifecycle;
mod long_work;
mod metrics;
mod picker;
mod placement;
mod reminders;
mod sharded;
mod startup;

/// How long any one step may take before the test fails.
pub const STEP: Duration = Duration::from_secs(30);

/// A `tegami run` process.
pub struct Bot {
    child: Child,
    pub log: PathBuf,
}

impl Bot {
    /// Starts the real binary with `config`, pointed at the fake through `TEGAMI_DISCORD_API`.
    pub fn start(fake: &FakeDiscord, dir: &Path, config: &Path, n: usize) -> Bot {
        let db = dir.join("tegami.db");
        Bot::start_with(
            fake,
            dir,
            config,
            &n.to_string(),
            &["--db".as_ref(), db.as_os_str()],
            &[],
        )
    }

    /// `Bot::start`, then waits until the bot is connected and has registered its commands.
    pub async fn start_ready(fake: &FakeDiscord, dir: &Path, config: &Path) -> Bot {
        let bot = Bot::start(fake, dir, config, 1);
        fake.wait_ready(STEP).await;
        fake.wait_for("command registration", STEP, |c| {
            c.method == "PUT" && c.path.ends_with("/commands")
        })
        .await;
        bot
    }

    /// Starts `tegami run --config CONFIG ARGS` pointed at the fake, with `env` set over the
    /// defaults (`DISCORD_TOKEN`, the log filter; no `DATABASE_URL` unless given); stderr goes
    /// to `dir/bot-NAME.log`.
    pub fn start_with(
        fake: &FakeDiscord,
        dir: &Path,
        config: &Path,
        name: &str,
        args: &[&OsStr],
        env: &[(&str, &str)],
    ) -> Bot {
        let log = dir.join(format!("bot-{name}.log"));
        let err = std::fs::File::create(&log).expect("log file");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tegami"));
        cmd.arg("run")
            .arg("--config")
            .arg(config)
            .args(args)
            .env_remove("DATABASE_URL")
            .env("DISCORD_TOKEN", "test.token.not-real")
            .env("TEGAMI_DISCORD_API", fake.api_base())
            .env(
                "RUST_LOG",
                "info,tegami=debug,serenity::client::dispatch=debug",
            );
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(err)
            .spawn()
            .expect("start tegami run");
        Bot { child, log }
    }

    /// SIGKILL: a crash.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, then waits for the exit.
    pub fn terminate(&mut self) -> ExitStatus {
        let ok = Command::new("kill")
            .arg("-TERM")
            .arg(self.child.id().to_string())
            .status()
            .expect("kill -TERM");
        assert!(ok.success());
        let deadline = Instant::now() + STEP;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the bot did not stop on SIGTERM");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The exit status, if the process has ended (without waiting for it).
    pub fn child_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `config.example.toml` as shipped, with the Message Content intent on and a quick sweep.
pub fn write_config(dir: &Path) -> PathBuf {
    let example =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config.example.toml"))
            .expect("config.example.toml at the top level");
    let text = example
        .replace("message_content = false", "message_content = true")
        .replace("sweep_interval_secs = 60", "sweep_interval_secs = 1");
    assert_ne!(
        text, example,
        "the example config has the fields this test changes"
    );
    let path = dir.join("config.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

/// The answer the bot gave to an interaction: its follow-up, or an immediate message.
pub async fn answer(fake: &FakeDiscord, id: u64, token: &str) -> Recorded {
    let callback = format!("/api/v10/interactions/{id}/{token}/callback");
    let webhook = format!("/api/v10/webhooks/{APP_ID}/{token}");
    fake.wait_for(&format!("the answer to interaction {id}"), STEP, |c| {
        c.method == "POST"
            && (c.path == webhook
                || (c.path == callback
                    && c.json
                        .as_ref()
                        .is_some_and(|j| j["type"] == 4 || j["type"] == 8)))
    })
    .await
}

/// Sends a slash command and waits for its answer.
pub async fn slash(
    fake: &FakeDiscord,
    channel: u64,
    user: &FakeUser,
    name: &str,
    options: Value,
    resolved: &[&FakeUser],
) -> Recorded {
    let (id, token, event) = fake.slash_command_in(channel, user, name, options, resolved);
    fake.dispatch("INTERACTION_CREATE", event).await;
    answer(fake, id, &token).await
}

/// The message flags of an answer (64: ephemeral).
pub fn flags(r: &Recorded) -> u64 {
    let j = r.json.as_ref().expect("json body");
    j["flags"]
        .as_u64()
        .or_else(|| j["data"]["flags"].as_u64())
        .unwrap_or(0)
}

pub fn is_ephemeral(r: &Recorded) -> bool {
    flags(r) & 64 != 0
}

/// The users an answer may ping, and checks that nobody else can be: no `@everyone`, no roles.
pub fn pinged(r: &Recorded) -> Vec<u64> {
    let j = r.json.as_ref().expect("json body");
    let am = if j.get("allowed_mentions").is_some() {
        &j["allowed_mentions"]
    } else {
        &j["data"]["allowed_mentions"]
    };
    assert!(
        am.is_object(),
        "every message sets allowed_mentions: {}",
        r.summary()
    );
    assert_eq!(am["parse"], json!([]), "nothing is parsed for pings: {am}");
    assert!(
        am["roles"].as_array().is_none_or(|r| r.is_empty()),
        "no roles: {am}"
    );
    am["users"]
        .as_array()
        .map(|u| {
            u.iter()
                .filter_map(|v| v.as_str().and_then(|s| s.parse().ok()).or(v.as_u64()))
                .collect()
        })
        .unwrap_or_default()
}

/// Checks that the answer carries a board picture that decodes, and returns its size.
pub fn png_of(r: &Recorded) -> (u32, u32) {
    let f = r
        .files
        .iter()
        .find(|f| f.filename.ends_with(".png"))
        .unwrap_or_else(|| panic!("no PNG in {}", r.summary()));
    let img = image::load_from_memory_with_format(&f.bytes, image::ImageFormat::Png)
        .expect("the board picture is a PNG");
    (img.width(), img.height())
}

/// The number after `prefix` in `text` (`Challenge #12` → 12); panics when there is none.
pub fn number_after(text: &str, prefix: &str) -> i64 {
    text.split(prefix)
        .nth(1)
        .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a number after {prefix:?} in {text:?}"))
}

pub fn content(r: &Recorded) -> String {
    r.content().unwrap_or_default()
}

/// A button's custom id on a recorded message, by label.
pub fn button(r: &Recorded, label: &str) -> String {
    let msg = r
        .message()
        .cloned()
        .or_else(|| r.json.clone())
        .expect("a message");
    let rows = msg["components"].as_array().cloned().unwrap_or_default();
    for row in rows {
        for b in row["components"].as_array().cloned().unwrap_or_default() {
            if b["label"].as_str() == Some(label) {
                return b["custom_id"].as_str().expect("custom_id").to_string();
            }
        }
    }
    panic!("no button {label:?} in {}: {msg}", r.summary())
}

/// The message object of a recorded answer (for a click on its buttons).
pub fn message_of(r: &Recorded) -> Value {
    r.message().cloned().expect("the call made a message")
}

/// Clicks a button and waits for the answer.
pub async fn click(fake: &FakeDiscord, user: &FakeUser, on: &Recorded, label: &str) -> Recorded {
    let id = button(on, label);
    let (iid, token, event) = fake.button_click(user, &id, &message_of(on));
    fake.dispatch("INTERACTION_CREATE", event).await;
    answer(fake, iid, &token).await
}

/// Whether an interaction was deferred privately (Discord fixes a deferred reply's
/// visibility at the defer: the follow-up that fills it cannot change it).
pub fn deferred_privately(fake: &FakeDiscord, token: &str) -> bool {
    fake.calls().iter().any(|c| {
        c.method == "POST"
            && c.path.contains(token)
            && c.path.ends_with("/callback")
            && c.json.as_ref().is_some_and(|j| {
                j["type"] == 5 && j["data"]["flags"].as_u64().unwrap_or(0) & 64 != 0
            })
    })
}

/// Whether a refusal was shown privately: an ephemeral deferred answer filled with it, or an
/// immediate ephemeral reply.
pub fn assert_private_refusal(fake: &FakeDiscord, r: &Recorded, says: &str) {
    assert!(
        is_ephemeral(r),
        "refusals are ephemeral: {} {:?}",
        r.summary(),
        r.json
    );
    let text = content(r);
    assert!(
        text.to_lowercase().contains(&says.to_lowercase()),
        "refusal says {says:?}: {text}"
    );
    assert!(pinged(r).is_empty(), "a refusal pings nobody");
    if r.path.contains("/webhooks/") {
        let token = r.path.rsplit('/').next().expect("token");
        assert!(
            deferred_privately(fake, token),
            "the refusal fills a private deferred answer"
        );
        assert!(r.ok(), "Discord took the refusal: {}", r.summary());
    }
}

/// The public message the bot posted in `channel` since call `before` (an announcement).
pub async fn posted(fake: &FakeDiscord, before: usize, channel: u64, what: &str) -> Recorded {
    fake.wait_for_since(before, what, STEP, |c| {
        c.ok() && c.method == "POST" && c.path == format!("/api/v10/channels/{channel}/messages")
    })
    .await
}

/// The legal moves after a sequence of moves, for checking autocomplete.
pub fn legal_after(variant: tegami::engine::VariantId, moves: &[&str]) -> tegami::engine::Game {
    let mut g = tegami::engine::Game::new(tegami::engine::Position::start(variant));
    for m in moves {
        let mv = tegami::engine::notation::input::parse_move(g.position(), m).expect("legal move");
        g.play(mv).expect("legal");
    }
    g
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_on_discord_from_challenge_to_resignation_through_a_crash() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = write_config(dir.path());
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_001, "alice").with_display("Alice *A*");
    let bob = FakeUser::new(2_000_000_000_000_000_002, "bob");
    let carol = FakeUser::new(2_000_000_000_000_000_003, "carol");
    for u in [&alice, &bob, &carol] {
        fake.add_user(u);
    }

    let mut bot = Bot::start(&fake, dir.path(), &config, 1);
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    let names: Vec<String> = fake
        .registered_commands()
        .iter()
        .filter_map(|c| c["name"].as_str().map(str::to_string))
        .collect();
    for n in [
        "challenge",
        "accept",
        "move",
        "moves",
        "board",
        "resign",
        "draw",
        "games",
        "history",
        "record",
        "replay",
        "export",
    ] {
        assert!(names.iter().any(|x| x == n), "/{n} registered: {names:?}");
    }

    // Alice challenges Bob: the challenge is announced in the channel and pings Bob, and only
    // Bob; Alice's own answer is private.
    let before = fake.call_count();
    let ack = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "challenge",
        json!([
            opt_user("opponent", &bob),
            opt_str("game", "shogi"),
            opt_str("color", "black"),
            opt_int("days", 3)
        ]),
        &[&bob],
    )
    .await;
    assert!(
        is_ephemeral(&ack) && content(&ack).contains("Challenge #1"),
        "{}",
        content(&ack)
    );
    let ch = posted(&fake, before, CHANNEL_ID, "the challenge announced").await;
    assert!(!is_ephemeral(&ch), "a challenge is public");
    let text = content(&ch);
    assert!(
        text.contains("Challenge #1") && text.contains("bob"),
        "{text}"
    );
    assert!(
        text.contains(&bob.mention()),
        "the challenged is mentioned: {text}"
    );
    assert!(
        text.contains("Alice \\*A\\*"),
        "markdown in names is escaped: {text}"
    );
    assert_eq!(pinged(&ch), vec![bob.id]);

    // Carol may not accept a challenge addressed to Bob; nothing changes.
    let refused = click(&fake, &carol, &ch, "Accept").await;
    assert_private_refusal(&fake, &refused, "not to you");

    // Bob accepts by button: the game begins with a board, pings Alice (Black moves first),
    // and gets its own thread.
    let before = fake.call_count();
    let ack = click(&fake, &bob, &ch, "Accept").await;
    assert!(is_ephemeral(&ack), "the presser's own answer is private");
    let start = posted(&fake, before, CHANNEL_ID, "the game announced").await;
    assert!(!is_ephemeral(&start));
    assert!(
        content(&start).contains("Game #1 begins"),
        "{}",
        content(&start)
    );
    let (w, h) = png_of(&start);
    assert!(
        w >= 400 && h >= 400,
        "a board picture of a sensible size: {w}x{h}"
    );
    assert_eq!(pinged(&start), vec![alice.id]);
    let thread_call = fake
        .wait_for("the game's thread", STEP, |c| {
            c.method == "POST" && c.path.ends_with("/threads")
        })
        .await;
    let thread: u64 = thread_call.response.as_ref().expect("thread")["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("thread id");
    assert_eq!(
        thread_call.json.as_ref().expect("body")["auto_archive_duration"],
        10080
    );

    // Alice moves by slash command in the channel: her private answer says where it went, and
    // the announcement in the thread (a new message, not an edit) pings Bob, with the board.
    let before = fake.call_count();
    let m1 = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "move",
        json!([opt_str("move", "P-7f")]),
        &[],
    )
    .await;
    assert!(content(&m1).contains("P-7f"), "{}", content(&m1));
    assert!(
        content(&m1).contains(&format!("<#{thread}>")),
        "{}",
        content(&m1)
    );
    assert!(is_ephemeral(&m1));
    let announced = posted(&fake, before, thread, "the move announced in the thread").await;
    assert!(content(&announced).contains(&bob.mention()));
    assert_eq!(pinged(&announced), vec![bob.id]);
    png_of(&announced);

    // Bob answers with a prefix command in the thread.
    let before = fake.call_count();
    fake.dispatch(
        "MESSAGE_CREATE",
        fake.message_create(&bob, thread, "!move 3c3d"),
    )
    .await;
    let m2 = fake
        .wait_for_since(before, "the answer to !move", STEP, |c| {
            c.method == "POST" && c.path == format!("/api/v10/channels/{thread}/messages")
        })
        .await;
    assert!(content(&m2).contains("P-3d"), "{}", content(&m2));
    assert_eq!(pinged(&m2), vec![alice.id]);
    png_of(&m2);

    // Alice plays a bare move in the thread; chat is left alone.
    let before = fake.call_count();
    fake.dispatch(
        "MESSAGE_CREATE",
        fake.message_create(&alice, thread, "good luck!"),
    )
    .await;
    fake.dispatch(
        "MESSAGE_CREATE",
        fake.message_create(&alice, thread, "2g2f"),
    )
    .await;
    let m3 = fake
        .wait_for_since(before, "the answer to a bare move", STEP, |c| {
            c.method == "POST" && c.path == format!("/api/v10/channels/{thread}/messages")
        })
        .await;
    assert!(content(&m3).contains("P-2f"), "{}", content(&m3));
    assert_eq!(
        fake.calls_since(before)
            .iter()
            .filter(|c| c.method == "POST" && c.path.ends_with("/messages"))
            .count(),
        1,
        "chat got no answer"
    );

    // Out of turn, and an illegal move: private refusals.
    let r = slash(
        &fake,
        thread,
        &alice,
        "move",
        json!([opt_str("move", "P-2e")]),
        &[],
    )
    .await;
    assert_private_refusal(&fake, &r, "not your turn");
    let r = slash(
        &fake,
        thread,
        &bob,
        "move",
        json!([opt_str("move", "5a5c")]),
        &[],
    )
    .await;
    assert_private_refusal(&fake, &r, "5");

    // Autocomplete offers Bob legal moves only.
    let (id, token, ev) =
        fake.autocomplete_in(thread, &bob, "move", json!([opt_focused("move", 3, "")]));
    fake.dispatch("INTERACTION_CREATE", ev).await;
    let ac = answer(&fake, id, &token).await;
    let choices = ac.json.as_ref().expect("body")["data"]["choices"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        !choices.is_empty() && choices.len() <= 25,
        "{} choices",
        choices.len()
    );
    let game = legal_after(tegami::engine::VariantId::Shogi, &["P-7f", "P-3d", "P-2f"]);
    for c in &choices {
        let v = c["value"].as_str().expect("value");
        let m = tegami::engine::notation::input::parse_move(game.position(), v)
            .unwrap_or_else(|e| panic!("suggestion {v} unreadable: {e}"));
        assert!(game.legal_moves().contains(&m), "suggestion {v} is legal");
    }

    // A stale button: Legal moves from the board before Bob's move.
    let stale = click(&fake, &alice, &start, "Legal moves").await;
    assert_private_refusal(&fake, &stale, "older position");

    // The bot crashes mid-game and comes back: nothing is lost.
    let before_crash = fake.live_number();
    bot.kill();
    let mut bot = Bot::start(&fake, dir.path(), &config, 2);
    fake.wait_connection_after(before_crash, STEP).await;
    let m4 = slash(
        &fake,
        thread,
        &bob,
        "move",
        json!([opt_str("move", "P-8d")]),
        &[],
    )
    .await;
    assert!(content(&m4).contains("P-8d"), "{}", content(&m4));
    let rec = slash(
        &fake,
        thread,
        &carol,
        "record",
        json!([opt_int("game", 1)]),
        &[],
    )
    .await;
    let text = content(&rec);
    for m in ["P-7f", "P-3d", "P-2f", "P-8d"] {
        assert!(
            text.contains(m),
            "the record after the restart has {m}: {text}"
        );
    }

    // The gateway drops: the bot reconnects and goes on.
    let conns = fake.connection_count();
    fake.drop_gateway().await;
    fake.wait_reconnect(STEP).await;
    assert!(fake.connection_count() > conns);

    // A notice answered with a 500 is delivered later by the outbox.
    fake.fail_next("POST", &format!("/api/v10/channels/{thread}/messages"), 500);
    let before = fake.call_count();
    let m5 = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "move",
        json!([opt_str("move", "P-2e")]),
        &[],
    )
    .await;
    assert!(content(&m5).contains("P-2e"));
    let retried = fake
        .wait_for_since(before, "the failed notice delivered again", STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.path == format!("/api/v10/channels/{thread}/messages")
                && c.content().is_some_and(|t| t.contains(&bob.mention()))
        })
        .await;
    assert_eq!(pinged(&retried), vec![bob.id]);
    assert!(
        content(&retried).contains("Alice \\*A\\*"),
        "markdown in names is escaped in notices too: {}",
        content(&retried)
    );
    assert!(
        fake.calls_since(before)
            .iter()
            .any(|c| c.injected && c.status == 500),
        "the 500 was served"
    );

    // Bob resigns, with a confirmation only he can press.
    let ask = slash(&fake, thread, &bob, "resign", json!([]), &[]).await;
    assert!(is_ephemeral(&ask), "the confirmation is private");
    let confirm_id = button(&ask, "Confirm resignation");
    let (iid, token, ev) = fake.button_click(&carol, &confirm_id, &message_of(&ask));
    fake.dispatch("INTERACTION_CREATE", ev).await;
    let r = answer(&fake, iid, &token).await;
    assert_private_refusal(&fake, &r, "someone else");
    let (iid, token, ev) = fake.button_click(&bob, &confirm_id, &message_of(&ask));
    fake.dispatch("INTERACTION_CREATE", ev).await;
    let over = answer(&fake, iid, &token).await;
    assert!(content(&over).contains("resigns"), "{}", content(&over));
    fake.wait_for("the thread archived", STEP, |c| {
        c.method == "PATCH"
            && c.path == format!("/api/v10/channels/{thread}")
            && c.json.as_ref().is_some_and(|j| j["archived"] == true)
    })
    .await;

    // Looking back.
    let games = slash(&fake, CHANNEL_ID, &alice, "games", json!([]), &[]).await;
    assert!(
        !content(&games).contains("#1 "),
        "no game in progress: {}",
        content(&games)
    );
    let hist = slash(&fake, CHANNEL_ID, &alice, "history", json!([]), &[]).await;
    assert!(content(&hist).contains("#1"), "{}", content(&hist));
    assert!(
        content(&hist).to_lowercase().contains("resign"),
        "{}",
        content(&hist)
    );

    // Every message the bot sent limits its pings; nothing unknown was asked.
    for c in fake.calls() {
        if c.method == "POST"
            && (c.path.ends_with("/messages") || c.path.contains("/webhooks/"))
            && c.json.is_some()
        {
            pinged(&c);
        }
    }
    assert_eq!(bot.terminate().code(), Some(0), "SIGTERM stops cleanly");
    let log = bot.log_text();
    assert!(
        !log.contains("test.token.not-real"),
        "the token is never logged"
    );
    assert!(
        !log.contains("Failed to deserialize"),
        "serenity read every event:\n{log}"
    );
    fake.assert_no_unknown_routes();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notices_go_by_direct_message_as_asked_and_to_the_thread_when_dms_are_closed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = write_config(dir.path());
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_011, "alice");
    let bob = FakeUser::new(2_000_000_000_000_000_012, "bob");
    for u in [&alice, &bob] {
        fake.add_user(u);
    }
    let mut bot = Bot::start(&fake, dir.path(), &config, 1);
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;

    // Bob wants direct messages.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &bob,
        "settings",
        json!([opt_str("notify", "dm")]),
        &[],
    )
    .await;
    assert!(
        is_ephemeral(&r),
        "settings are answered privately: {}",
        content(&r)
    );

    // Alice's challenge: announced in the channel without pinging Bob, who gets a DM.
    let before = fake.call_count();
    slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "challenge",
        json!([
            opt_user("opponent", &bob),
            opt_str("game", "judkins"),
            opt_str("color", "black")
        ]),
        &[&bob],
    )
    .await;
    let ch = posted(&fake, before, CHANNEL_ID, "the challenge announced").await;
    assert!(
        pinged(&ch).is_empty(),
        "Bob asked for direct messages: {}",
        ch.summary()
    );
    let dm = fake
        .wait_for_since(before, "the challenge sent to Bob directly", STEP, |c| {
            c.ok()
                && c.method == "POST"
                && fake
                    .dm_channel_of(bob.id)
                    .is_some_and(|d| c.path == format!("/api/v10/channels/{d}/messages"))
        })
        .await;
    assert!(content(&dm).contains("challenges you"), "{}", content(&dm));
    assert!(pinged(&dm).is_empty(), "a direct message pings nobody");

    // Bob accepts; then closes his direct messages. Alice's move cannot reach him by DM, so
    // he is mentioned in the game's thread instead.
    let before = fake.call_count();
    click(&fake, &bob, &ch, "Accept").await;
    let thread_call = fake
        .wait_for_since(before, "the game's thread", STEP, |c| {
            c.method == "POST" && c.path.ends_with("/threads")
        })
        .await;
    let thread: u64 = thread_call.response.as_ref().expect("thread")["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("thread id");
    fake.set_dms_closed(bob.id, true);
    let before = fake.call_count();
    slash(
        &fake,
        thread,
        &alice,
        "move",
        json!([opt_str("move", "P-6d")]),
        &[],
    )
    .await;
    let fallback = fake
        .wait_for_since(before, "Bob mentioned in the thread instead", STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.path == format!("/api/v10/channels/{thread}/messages")
                && c.content()
                    .is_some_and(|t| t.starts_with(&bob.mention()) && t.contains("your move"))
        })
        .await;
    assert_eq!(pinged(&fallback), vec![bob.id]);
    assert!(
        fake.calls_since(before).iter().any(|c| c.status == 403),
        "the direct message was refused first"
    );
    // Delivered once: the outbox does not send it again.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let again = fake
        .calls_since(before)
        .iter()
        .filter(|c| {
            c.ok()
                && c.content()
                    .is_some_and(|t| t.starts_with(&bob.mention()) && t.contains("your move"))
        })
        .count();
    assert_eq!(again, 1, "the notice is delivered exactly once");
    assert_eq!(bot.terminate().code(), Some(0));
    fake.assert_no_unknown_routes();
}
