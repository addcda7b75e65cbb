//! Past one machine: two `tegami run` processes, each running one of two shards, on one
//! PostgreSQL database, against the fake Discord routing each server's events to its shard
//! (`(guild_id >> 22) % 2`, DMs to shard 0). Games are played in a server of each shard, the
//! Discord way; games already past their deadline (and one near it, per server) are left in the
//! database for the correspondence sweep, which both processes run every second. Each process
//! has its own token, so the fake tells their REST calls apart.
//!
//! What must hold: each server's events reach only its shard's process and are answered by it;
//! every notice (a mention in a channel or thread, or a direct message) is delivered exactly
//! once across both processes; each overdue game ends on time exactly once; both stop with
//! status 0 on SIGTERM.
//!
//! Needs a PostgreSQL server: `TEGAMI_TEST_DATABASE_URL` (e.g.
//! `postgres://tegami@127.0.0.1:55432/postgres`; `.ci/postgres` starts one). Each run creates a
//! database of its own there and drops it at the end. Without the variable the test says it is
//! skipped; with `CI=true` it fails instead.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tegami::engine::notation::fen;
use tegami::engine::{Position, VariantId};
use tegami::store::{
    ClockStore, GameResult, GameStatus, GameStore, NewGame, PgStore, TimeControl, UserStore,
};

use super::{answer, button, content, is_ephemeral, message_of, write_config, Bot, STEP};
use crate::fake_discord::{
    opt_int, opt_str, opt_user, FakeDiscord, FakeUser, Recorded, CHANNEL_ID, GUILD_ID,
};

/// The PostgreSQL server of the tests.
pub(super) const PG_URL_ENV: &str = "TEGAMI_TEST_DATABASE_URL";

/// The longest the whole test may take before it fails instead of hanging.
const LIMIT: Duration = Duration::from_secs(150);

/// How long to watch, once every notice is marked sent, for one delivered a second time: the
/// outbox loop looks every 2 s and the sweep runs every second.
const QUIET: Duration = Duration::from_secs(3);

/// A server on shard 0 of 2 (the default server, [`GUILD_ID`], is on shard 1).
const GUILD_A: u64 = GUILD_ID + (1 << 22);
/// Its text channel.
const CHANNEL_A: u64 = 1_000_000_000_000_000_031;
/// The server on shard 1 of 2, and its channel.
const GUILD_B: u64 = GUILD_ID;
const CHANNEL_B: u64 = CHANNEL_ID;

/// Each process's token (Discord gives both shards the same one; here they differ so that the
/// fake's record says which process made each call).
const TOKENS: [&str; 2] = ["shard0.token.not-real", "shard1.token.not-real"];

fn auth(shard: usize) -> Option<String> {
    Some(format!("Bot {}", TOKENS[shard]))
}

/// Which process made a call, for messages.
fn process_of(c: &Recorded) -> &'static str {
    if c.auth == auth(0) {
        "shard-0 process"
    } else if c.auth == auth(1) {
        "shard-1 process"
    } else {
        "an unknown caller"
    }
}

/// A line on the test process's standard error, past the harness's capture.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// Runs `f` on a plain thread: the synchronous `postgres` client starts a runtime of its own,
/// which it may not do on one of the test's runtime threads.
pub(super) fn off_runtime<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::spawn(f)
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// A database of its own on the test server, dropped (with its connections) when this is.
struct TestDatabase {
    server: String,
    name: String,
    /// A `postgres://` URL of it, as the bot's `DATABASE_URL` wants.
    url: String,
    /// The test's own handle on it (used and dropped off the runtime).
    store: Option<Arc<PgStore>>,
}

impl TestDatabase {
    fn create(server: &str) -> TestDatabase {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "tegami_test_{}_s{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        );
        let url = database_url(server, &name);
        let (server_c, name_c, url_c) = (server.to_owned(), name.clone(), url.clone());
        let store = off_runtime(move || {
            let mut c = postgres::Client::connect(&server_c, postgres::NoTls)
                .unwrap_or_else(|e| panic!("{PG_URL_ENV}={server_c}: cannot connect: {e}"));
            c.batch_execute(&format!("CREATE DATABASE {name_c}"))
                .expect("create the test database");
            PgStore::open(&url_c).unwrap_or_else(|e| panic!("open {url_c}: {e}"))
        });
        TestDatabase {
            server: server.to_owned(),
            name,
            url,
            store: Some(Arc::new(store)),
        }
    }

    /// Runs `f` with the test's store handle, off the runtime.
    async fn with<T: Send + 'static>(&self, f: impl FnOnce(&PgStore) -> T + Send + 'static) -> T {
        let store = self.store.clone().expect("the store is open");
        tokio::task::spawn_blocking(move || f(&store))
            .await
            .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let (store, server, name) = (self.store.take(), self.server.clone(), self.name.clone());
        let dropped = std::thread::spawn(move || {
            drop(store);
            postgres::Client::connect(&server, postgres::NoTls).and_then(|mut c| {
                c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            })
        })
        .join();
        match dropped {
            Ok(Ok(())) => {}
            Ok(Err(e)) => say(&format!("test database {} left behind: {e}", self.name)),
            Err(_) => say(&format!("test database {} left behind", self.name)),
        }
    }
}

/// The URL of database `name` on the server of `server` (a `postgres://` URL, or `key=value`
/// settings), in the `postgres://` form the bot accepts.
pub(super) fn database_url(server: &str, name: &str) -> String {
    for scheme in ["postgres://", "postgresql://"] {
        if let Some(rest) = server.strip_prefix(scheme) {
            let (rest, query) = match rest.split_once('?') {
                Some((r, q)) => (r, format!("?{q}")),
                None => (rest, String::new()),
            };
            let authority = rest.split('/').next().unwrap_or(rest);
            return format!("{scheme}{authority}/{name}{query}");
        }
    }
    let config: postgres::Config = server
        .parse()
        .unwrap_or_else(|e| panic!("{PG_URL_ENV} is not a PostgreSQL URL: {e}"));
    let host = match config.get_hosts().first() {
        Some(postgres::config::Host::Tcp(h)) => h.clone(),
        _ => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().unwrap_or("postgres");
    format!("postgres://{user}@{host}:{port}/{name}")
}

/// The server's URL, or `None` (said on stderr) when the test is to be skipped.
pub(super) fn pg_server(test: &str) -> Option<String> {
    match std::env::var(PG_URL_ENV) {
        Ok(url) if !url.is_empty() => Some(url),
        // In CI the server is part of the run: its absence is a failure, not a skip.
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but {PG_URL_ENV} is not set: .ci/run starts PostgreSQL for this test")
        }
        _ => {
            say(&format!("{test} SKIPPED: {PG_URL_ENV} is not set"));
            None
        }
    }
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A game left in the database for the sweep: `players[0]` to move by `deadline`.
#[derive(Clone, Debug)]
struct Seeded {
    id: i64,
    players: [FakeUser; 2],
    guild: u64,
    channel: u64,
    /// Past (lost on time) or within the day (a reminder).
    overdue: bool,
}

impl Seeded {
    /// The exact messages its notices make (a mention in the game's channel), and whom.
    fn notices(&self) -> Vec<(u64, Notice)> {
        let [to_move, other] = &self.players;
        if self.overdue {
            vec![
                (
                    to_move.id,
                    Notice::Exact(format!(
                        "{} game #{}: you lost on time",
                        to_move.mention(),
                        self.id
                    )),
                ),
                (
                    other.id,
                    Notice::Exact(format!(
                        "{} game #{}: {} ran out of time, you win",
                        other.mention(),
                        self.id,
                        to_move.name
                    )),
                ),
            ]
        } else {
            vec![(
                to_move.id,
                Notice::Prefix(format!(
                    "{} reminder: your move in game #{} is due by",
                    to_move.mention(),
                    self.id
                )),
            )]
        }
    }
}

/// How a sweep notice's message reads.
#[derive(Clone, Debug)]
enum Notice {
    Exact(String),
    Prefix(String),
}

impl Notice {
    fn matches(&self, text: &str) -> bool {
        match self {
            Notice::Exact(t) => text == t,
            Notice::Prefix(p) => text.starts_with(p.as_str()),
        }
    }

    fn text(&self) -> &str {
        match self {
            Notice::Exact(t) | Notice::Prefix(t) => t,
        }
    }
}

/// Creates the sweep's games (and their players) directly in the database.
async fn seed(db: &TestDatabase, specs: Vec<([FakeUser; 2], u64, u64, bool)>) -> Vec<Seeded> {
    db.with(move |store| {
        let now = unix_now();
        let start = fen::write(&Position::start(VariantId::Shogi));
        let mut out = Vec::new();
        for (players, guild, channel, overdue) in specs {
            for u in &players {
                store
                    .touch_user(&u.id.to_string(), &u.name, now)
                    .expect("touch user");
            }
            let deadline = if overdue { now - 3600 } else { now + 3600 };
            let row = store
                .start_game(
                    &NewGame {
                        variant: "shogi".into(),
                        setup: None,
                        start_position: start.clone(),
                        players: [players[0].id.to_string(), players[1].id.to_string()],
                        guild: Some(guild.to_string()),
                        channel: Some(channel.to_string()),
                        rated: false,
                        control: TimeControl::per_move(1),
                        deadline: Some(deadline),
                        banks: [0, 0],
                        turn_span: i64::from(1) * 86_400,
                        to_move: players[0].id.to_string(),
                        computer_level: None,
                    },
                    &[],
                    now - 86_400,
                )
                .expect("start a game");
            out.push(Seeded {
                id: row.id,
                players,
                guild,
                channel,
                overdue,
            });
        }
        out
    })
    .await
}

/// One message the bot posted in a channel (`POST /channels/{id}/messages`, accepted) that
/// reached a user: a mention it pings, or a message in their DM channel.
#[derive(Clone, Debug)]
struct Delivery {
    user: u64,
    channel: u64,
    text: String,
    by: &'static str,
    dm: bool,
}

/// Every delivery so far, oldest first.
fn deliveries(fake: &FakeDiscord, users: &[&FakeUser]) -> Vec<Delivery> {
    let dms: BTreeMap<u64, u64> = users
        .iter()
        .filter_map(|u| fake.dm_channel_of(u.id).map(|c| (c, u.id)))
        .collect();
    let mut out = Vec::new();
    for c in fake.calls() {
        let Some(channel) = c
            .path
            .strip_prefix("/api/v10/channels/")
            .and_then(|r| r.strip_suffix("/messages"))
            .and_then(|id| id.parse::<u64>().ok())
        else {
            continue;
        };
        if !(c.ok() && c.method == "POST" && c.created.is_some()) {
            continue;
        }
        let text = c.content().unwrap_or_default();
        let pinged: Vec<u64> = c
            .json
            .as_ref()
            .and_then(|j| j["allowed_mentions"]["users"].as_array().cloned())
            .unwrap_or_default()
            .iter()
            .filter_map(|v| v.as_str().and_then(|s| s.parse().ok()).or(v.as_u64()))
            .collect();
        let by = process_of(&c);
        for user in pinged {
            out.push(Delivery {
                user,
                channel,
                text: text.clone(),
                by,
                dm: false,
            });
        }
        if let Some(&user) = dms.get(&channel) {
            out.push(Delivery {
                user,
                channel,
                text,
                by,
                dm: true,
            });
        }
    }
    out
}

fn describe(ds: &[&Delivery]) -> String {
    ds.iter()
        .map(|d| {
            format!(
                "\n    {} {} {:?} (by the {})",
                if d.dm { "DM in" } else { "in channel" },
                d.channel,
                d.text,
                d.by
            )
        })
        .collect()
}

/// Sends an interaction built by the fake to the process of `shard` and waits for its answer;
/// checks that every response to it came from that process.
async fn interact(fake: &FakeDiscord, shard: usize, built: (u64, String, Value)) -> Recorded {
    let (id, token, event) = built;
    fake.dispatch("INTERACTION_CREATE", event).await;
    let r = answer(fake, id, &token).await;
    for c in fake.interaction_responses(id) {
        assert_eq!(
            c.auth,
            auth(shard),
            "interaction {id} is answered by the shard-{shard} process: {}",
            c.summary()
        );
    }
    r
}

/// The public message the bot posted in `channel` since call `before` that satisfies `pred`.
async fn posted_where(
    fake: &FakeDiscord,
    before: usize,
    channel: u64,
    what: &str,
    pred: impl Fn(&str) -> bool,
) -> Recorded {
    fake.wait_for_since(before, what, STEP, |c| {
        c.ok()
            && c.method == "POST"
            && c.path == format!("/api/v10/channels/{channel}/messages")
            && pred(&c.content().unwrap_or_default())
    })
    .await
}

/// The thread the bot started in `channel` since call `before`.
async fn thread_in(fake: &FakeDiscord, before: usize, channel: u64) -> u64 {
    let prefix = format!("/api/v10/channels/{channel}/");
    let call = fake
        .wait_for_since(
            before,
            &format!("a game's thread in {channel}"),
            STEP,
            |c| {
                c.ok()
                    && c.method == "POST"
                    && c.path.starts_with(&prefix)
                    && c.path.ends_with("/threads")
            },
        )
        .await;
    call.response.as_ref().expect("thread")["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("thread id")
}

/// The number after `Game #` in an announcement.
fn game_number(text: &str) -> i64 {
    let at = text.find("Game #").expect("a game number") + "Game #".len();
    text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("a game number")
}

/// The game of server A (shard 0): a challenge, a click on Accept, a move by slash command in
/// the thread, a bare move, a confirmed resignation. Returns the game's number.
async fn play_in_a(fake: &FakeDiscord, alice: &FakeUser, bob: &FakeUser) -> i64 {
    let before = fake.call_count();
    let ack = interact(
        fake,
        0,
        fake.slash_command_in(
            CHANNEL_A,
            alice,
            "challenge",
            json!([
                opt_user("opponent", bob),
                opt_str("game", "shogi"),
                opt_str("color", "black"),
                opt_int("days", 3)
            ]),
            &[bob],
        ),
    )
    .await;
    assert!(is_ephemeral(&ack), "{}", content(&ack));
    let ch = posted_where(fake, before, CHANNEL_A, "the challenge in A", |t| {
        t.contains("Challenge #")
    })
    .await;
    assert_eq!(ch.auth, auth(0), "{}", ch.summary());

    let before = fake.call_count();
    let id = button(&ch, "Accept");
    let ack = interact(fake, 0, fake.button_click(bob, &id, &message_of(&ch))).await;
    assert!(is_ephemeral(&ack));
    let start = posted_where(fake, before, CHANNEL_A, "the game in A begins", |t| {
        t.contains("Game #") && t.contains("begins")
    })
    .await;
    let game = game_number(&content(&start));
    let thread = thread_in(fake, before, CHANNEL_A).await;

    let before = fake.call_count();
    let m1 = interact(
        fake,
        0,
        fake.slash_command_in(thread, alice, "move", json!([opt_str("move", "P-7f")]), &[]),
    )
    .await;
    assert!(content(&m1).contains("P-7f"), "{}", content(&m1));
    posted_where(fake, before, thread, "alice's move in A's thread", |t| {
        t.contains("P-7f")
    })
    .await;

    let before = fake.call_count();
    fake.dispatch("MESSAGE_CREATE", fake.message_create(bob, thread, "3c3d"))
        .await;
    let m2 = posted_where(fake, before, thread, "bob's bare move in A's thread", |t| {
        t.contains("P-3d")
    })
    .await;
    assert_eq!(m2.auth, auth(0), "{}", m2.summary());

    let before = fake.call_count();
    let ask = interact(
        fake,
        0,
        fake.slash_command_in(thread, bob, "resign", json!([]), &[]),
    )
    .await;
    let confirm = button(&ask, "Confirm resignation");
    let over = interact(fake, 0, fake.button_click(bob, &confirm, &message_of(&ask))).await;
    assert!(content(&over).contains("resigns"), "{}", content(&over));
    posted_where(
        fake,
        before,
        thread,
        "bob's resignation in A's thread",
        |t| t.contains("resigns"),
    )
    .await;
    fake.wait_for_since(before, "A's thread archived", STEP, |c| {
        c.method == "PATCH"
            && c.path == format!("/api/v10/channels/{thread}")
            && c.json.as_ref().is_some_and(|j| j["archived"] == true)
    })
    .await;
    game
}

/// The game of server B (shard 1), where Dave wants direct messages: `/settings`, a challenge
/// (Dave told by DM), `/accept`, a prefix move in the thread (Dave told by DM), a slash move;
/// then Dave's `/games` in his DM channel, which Discord sends to shard 0. Returns the game's
/// number.
async fn play_in_b(fake: &FakeDiscord, carol: &FakeUser, dave: &FakeUser) -> i64 {
    let r = interact(
        fake,
        1,
        fake.slash_command_in(
            CHANNEL_B,
            dave,
            "settings",
            json!([opt_str("notify", "dm")]),
            &[],
        ),
    )
    .await;
    assert!(is_ephemeral(&r), "{}", content(&r));

    let before = fake.call_count();
    interact(
        fake,
        1,
        fake.slash_command_in(
            CHANNEL_B,
            carol,
            "challenge",
            json!([
                opt_user("opponent", dave),
                opt_str("game", "judkins"),
                opt_str("color", "black")
            ]),
            &[dave],
        ),
    )
    .await;
    posted_where(fake, before, CHANNEL_B, "the challenge in B", |t| {
        t.contains("Challenge #")
    })
    .await;
    fake.wait_for_since(before, "the challenge sent to Dave directly", STEP, |c| {
        c.ok()
            && c.method == "POST"
            && fake
                .dm_channel_of(dave.id)
                .is_some_and(|d| c.path == format!("/api/v10/channels/{d}/messages"))
    })
    .await;

    let before = fake.call_count();
    interact(
        fake,
        1,
        fake.slash_command_in(CHANNEL_B, dave, "accept", json!([]), &[]),
    )
    .await;
    let start = posted_where(fake, before, CHANNEL_B, "the game in B begins", |t| {
        t.contains("Game #") && t.contains("begins")
    })
    .await;
    assert_eq!(start.auth, auth(1), "{}", start.summary());
    let game = game_number(&content(&start));
    let thread = thread_in(fake, before, CHANNEL_B).await;

    let before = fake.call_count();
    fake.dispatch(
        "MESSAGE_CREATE",
        fake.message_create(carol, thread, "!move 6e6d"),
    )
    .await;
    let m1 = posted_where(
        fake,
        before,
        thread,
        "carol's prefix move in B's thread",
        |_| true,
    )
    .await;
    assert_eq!(m1.auth, auth(1), "{}", m1.summary());
    let dm = fake.dm_channel_of(dave.id).expect("Dave's DM channel");
    posted_where(
        fake,
        before,
        dm,
        "carol's move told to Dave directly",
        |t| t.contains("your move"),
    )
    .await;

    let before = fake.call_count();
    let m2 = interact(
        fake,
        1,
        fake.slash_command_in(thread, dave, "move", json!([opt_str("move", "1b1c")]), &[]),
    )
    .await;
    assert!(!content(&m2).starts_with('✗'), "{}", content(&m2));
    posted_where(fake, before, thread, "dave's move in B's thread", |t| {
        t.contains(&carol.mention())
    })
    .await;

    // A DM has no server: shard 0's process answers, about a game of shard 1's server.
    let games = interact(
        fake,
        0,
        fake.slash_command_in(dm, dave, "games", json!([]), &[]),
    )
    .await;
    assert!(
        content(&games).contains(&format!("#{game}")),
        "Dave's games, asked by DM: {}",
        content(&games)
    );
    game
}

/// A log without its colour codes (`ESC [ ... m`).
fn strip_ansi(log: &str) -> String {
    let mut out = String::with_capacity(log.len());
    let mut chars = log.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Waits until no notice is left unsent in the database.
async fn all_sent(db: &TestDatabase) {
    let deadline = Instant::now() + STEP;
    loop {
        let unsent = db.with(|s| s.unsent(1000).expect("read the outbox")).await;
        if unsent.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "notices still unsent after {STEP:?}: {:?}",
            unsent
                .iter()
                .map(|n| (n.notice.user.clone(), n.notice.text.clone()))
                .collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_one_shard_each_on_postgresql_deliver_every_notice_once() {
    let test = "two_processes_one_shard_each_on_postgresql_deliver_every_notice_once";
    let Some(server) = pg_server(test) else {
        return;
    };
    let began = Instant::now();
    let db = TestDatabase::create(&server);
    let dir = tempfile::tempdir().expect("temp dir");
    tokio::time::timeout(LIMIT, run(&db, dir.path()))
        .await
        .expect("the test did not finish within its time limit");
    say(&format!("{test}: {:.1?}", began.elapsed()));
}

async fn run(db: &TestDatabase, dir: &Path) {
    assert_eq!(FakeDiscord::shard_of_guild(GUILD_A, 2), 0);
    assert_eq!(FakeDiscord::shard_of_guild(GUILD_B, 2), 1);
    let user = |n: u64, name: &str| FakeUser::new(2_000_000_000_000_000_100 + n, name);
    // Playing: Alice and Bob in A, Carol and Dave in B. The sweep's: Erin and Frank in A,
    // Gina and Hank in B.
    let (alice, bob, carol, dave) = (
        user(1, "alice"),
        user(2, "bob"),
        user(3, "carol"),
        user(4, "dave"),
    );
    let (erin, frank, gina, hank) = (
        user(5, "erin"),
        user(6, "frank"),
        user(7, "gina"),
        user(8, "hank"),
    );
    let everyone = [&alice, &bob, &carol, &dave, &erin, &frank, &gina, &hank];

    // Before the bots start: two games past their deadline in each server, and one due within
    // the day (a reminder). Each process sweeps as it starts, then every second.
    let seeded = seed(
        db,
        vec![
            ([erin.clone(), frank.clone()], GUILD_A, CHANNEL_A, true),
            ([frank.clone(), erin.clone()], GUILD_A, CHANNEL_A, true),
            ([frank.clone(), erin.clone()], GUILD_A, CHANNEL_A, false),
            ([gina.clone(), hank.clone()], GUILD_B, CHANNEL_B, true),
            ([hank.clone(), gina.clone()], GUILD_B, CHANNEL_B, true),
            ([hank.clone(), gina.clone()], GUILD_B, CHANNEL_B, false),
        ],
    )
    .await;

    let fake = FakeDiscord::start().await;
    for u in everyone {
        fake.add_user(u);
    }
    fake.add_guild(GUILD_A, "club");
    fake.add_text_channel_in(GUILD_A, CHANNEL_A, "club-games");
    fake.add_guild(GUILD_B, "games");

    let config = write_config(dir);
    let mut bots: Vec<Bot> = (0..2)
        .map(|shard| {
            Bot::start_with(
                &fake,
                dir,
                &config,
                &format!("shard{shard}"),
                &[
                    "--shards".as_ref(),
                    shard.to_string().as_ref(),
                    "--total-shards".as_ref(),
                    "2".as_ref(),
                ],
                &[("DISCORD_TOKEN", TOKENS[shard]), ("DATABASE_URL", &db.url)],
            )
        })
        .collect();
    fake.wait_shard_ready(0, 2, STEP).await;
    fake.wait_shard_ready(1, 2, STEP).await;
    for shard in 0..2 {
        fake.wait_for(
            &format!("command registration by the shard-{shard} process"),
            STEP,
            |c| c.method == "PUT" && c.path.ends_with("/commands") && c.auth == auth(shard),
        )
        .await;
    }

    // The sweep's notices arrive (how many times is checked at the end).
    for s in &seeded {
        for (_, notice) in s.notices() {
            posted_where(&fake, 0, s.channel, notice.text(), |t| notice.matches(t)).await;
        }
    }

    // Both servers' games at once.
    let (game_a, game_b) = tokio::join!(
        play_in_a(&fake, &alice, &bob),
        play_in_b(&fake, &carol, &dave)
    );

    // Every notice marked sent; then a while for any second delivery to show.
    all_sent(db).await;
    tokio::time::sleep(QUIET).await;

    let mut problems: Vec<String> = Vec::new();

    // Each server's events went to its shard's connection only; DMs to shard 0.
    let dispatches = fake.dispatches();
    for d in &dispatches {
        let want = match d.guild_id {
            Some(GUILD_A) => [0, 2],
            Some(GUILD_B) => [1, 2],
            Some(other) => {
                problems.push(format!("a dispatch about an unknown server {other}: {d:?}"));
                continue;
            }
            None if d.event == "READY" => continue,
            None => [0, 2],
        };
        if d.shard != want {
            problems.push(format!(
                "{} about server {:?} went to shard {:?}, not {want:?}",
                d.event, d.guild_id, d.shard
            ));
        }
    }
    for (guild, shard) in [(GUILD_A, [0, 2]), (GUILD_B, [1, 2])] {
        let got: Vec<&str> = dispatches
            .iter()
            .filter(|d| d.guild_id == Some(guild))
            .map(|d| d.event.as_str())
            .collect();
        assert!(
            got.contains(&"GUILD_CREATE")
                && got.contains(&"INTERACTION_CREATE")
                && got.contains(&"MESSAGE_CREATE"),
            "server {guild} (shard {shard:?}) got its events: {got:?}"
        );
    }
    assert!(
        dispatches
            .iter()
            .any(|d| d.guild_id.is_none() && d.event == "INTERACTION_CREATE" && d.shard == [0, 2]),
        "Dave's DM command went to shard 0"
    );
    let identified: Vec<Value> = fake
        .identify_payloads()
        .iter()
        .map(|p| p["shard"].clone())
        .collect();
    if identified.len() != 2 {
        problems.push(format!(
            "each process identified once (no reconnection): {identified:?}"
        ));
    }

    // Every notice delivered exactly once, across both processes.
    let all = deliveries(&fake, &everyone);
    for s in &seeded {
        for (user, notice) in s.notices() {
            let got: Vec<&Delivery> = all
                .iter()
                .filter(|d| d.user == user && notice.matches(&d.text))
                .collect();
            if got.len() != 1 {
                problems.push(format!(
                    "sweep notice of game #{} ({} in server {}) delivered {} times, not once: {:?}{}",
                    s.id,
                    if s.overdue { "lost on time" } else { "reminder" },
                    s.guild,
                    got.len(),
                    notice.text(),
                    describe(&got)
                ));
            }
        }
    }
    // The games played: how many notices each player was meant to get. A: Bob the challenge
    // and Alice's move; Alice the acceptance, Bob's move and his resignation. B: Dave (by DM)
    // the challenge and Carol's move; Carol the acceptance and Dave's move.
    let mut expected: BTreeMap<u64, usize> = BTreeMap::new();
    for (u, n) in [(&alice, 3), (&bob, 2), (&carol, 2), (&dave, 2)] {
        expected.insert(u.id, n);
    }
    for s in &seeded {
        for (user, _) in s.notices() {
            *expected.entry(user).or_default() += 1;
        }
    }
    for u in everyone {
        let got: Vec<&Delivery> = all.iter().filter(|d| d.user == u.id).collect();
        let want = expected.get(&u.id).copied().unwrap_or(0);
        if got.len() != want {
            problems.push(format!(
                "{} got {} notices, not {want}:{}",
                u.name,
                got.len(),
                describe(&got)
            ));
        }
        let mut seen = BTreeMap::new();
        for d in &got {
            *seen.entry((d.channel, d.text.as_str())).or_insert(0) += 1;
        }
        for ((channel, text), n) in seen {
            if n > 1 {
                problems.push(format!(
                    "{} got the same message {n} times in {channel}: {text:?}",
                    u.name
                ));
            }
        }
    }

    // Each overdue game ended on time, once; the reminders' games go on.
    let ids: Vec<i64> = seeded.iter().map(|s| s.id).collect();
    let rows = db
        .with(move |s| {
            ids.iter()
                .map(|id| s.game(*id).expect("read a game").expect("the game"))
                .collect::<Vec<_>>()
        })
        .await;
    let logs: Vec<String> = bots.iter().map(|b| strip_ansi(&b.log_text())).collect();
    for (s, row) in seeded.iter().zip(&rows) {
        if s.overdue {
            assert_eq!(
                (row.status, row.result, row.reason.as_deref()),
                (
                    GameStatus::Finished,
                    Some(GameResult::Second),
                    Some("timeout")
                ),
                "game #{} lost on time by the player to move",
                s.id
            );
            let ended: Vec<usize> = logs
                .iter()
                .enumerate()
                .flat_map(|(i, log)| {
                    log.lines()
                        .filter(|l| {
                            l.contains("lost on time") && l.contains(&format!("game={}", s.id))
                        })
                        .map(move |_| i)
                })
                .collect();
            if ended.len() != 1 {
                problems.push(format!(
                    "game #{} ended on time {} times (by the processes of shards {ended:?})",
                    s.id,
                    ended.len()
                ));
            }
        } else {
            assert_eq!(row.status, GameStatus::Active, "game #{} goes on", s.id);
            assert!(row.reminded, "game #{}: its player was reminded", s.id);
        }
    }
    let played = db
        .with(move |s| {
            (
                s.game(game_a).expect("read").expect("game A"),
                s.game(game_b).expect("read").expect("game B"),
            )
        })
        .await;
    assert_eq!(
        (played.0.status, played.0.reason.as_deref()),
        (GameStatus::Finished, Some("resignation"))
    );
    assert_eq!((played.1.status, played.1.ply), (GameStatus::Active, 2));

    // Both stop cleanly; nothing was refused, unknown or unreadable.
    for (shard, bot) in bots.iter_mut().enumerate() {
        let status = bot.terminate();
        if status.code() != Some(0) {
            problems.push(format!("the shard-{shard} process exited with {status}"));
        }
        let log = bot.log_text();
        for bad in ["panicked", "Failed to deserialize"] {
            if log.contains(bad) {
                problems.push(format!("the shard-{shard} process logged {bad:?}:\n{log}"));
            }
        }
    }
    if let Err(e) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| fake.assert_clean())) {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_else(|| "assert_clean failed".into());
        problems.push(msg);
    }
    assert!(
        problems.is_empty(),
        "{} problem(s) with two shards on one database:\n- {}",
        problems.len(),
        problems.join("\n- ")
    );
}
