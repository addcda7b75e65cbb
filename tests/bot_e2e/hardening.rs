//! The bot under real use (issue 20), end to end against the fake Discord: a game whose thread
//! was deleted or became forbidden goes on (the announcement in the parent channel, a new
//! thread), a notice falls back to a direct message and is set aside visibly only when every way
//! is closed, an announcement answered with a 500 is delivered later with its board, a challenge
//! sent inside a game's thread gets its own thread from the parent channel, `/server channel`
//! takes text channels only, a refused token stops the bot with a clear line, caps on open
//! challenges and games against the computer, a panicking search recovered, a long game's
//! `/replay` under the upload limit, and other players' commands answered while a level-5 move
//! and a long `/analysis` run.

use std::sync::Arc;

use serde_json::json;
use tegami::engine::notation::code;
use tegami::engine::{Game, Position, Variant, VariantId};
use tegami::service::{parse_command, Config, Place, Request, Service, SystemClock, User};
use tegami::store::{Durability, SqliteStore};

use super::*;
use crate::fake_discord::{FakeUser, BOT_USERNAME, BOT_USER_ID, GUILD_ID};

/// The longest any test here may take.
const LIMIT: Duration = Duration::from_secs(240);

/// How long a notice the outbox retries may take to arrive.
pub(super) const RETRIED: Duration = Duration::from_secs(25);

pub(super) async fn bounded<F: std::future::Future<Output = ()>>(body: F) {
    tokio::time::timeout(LIMIT, body)
        .await
        .expect("the test did not finish within its time limit");
}

fn user(n: u64, name: &str) -> FakeUser {
    FakeUser::new(2_000_000_000_000_020_000 + n, name)
}

/// The bot itself, as the opponent of a game against the computer.
fn tegami_user() -> FakeUser {
    FakeUser::new(BOT_USER_ID, BOT_USERNAME)
}

/// Starts the bot on `dir/tegami.db` with the example config and `env`, and waits until it has
/// registered its commands.
pub(super) async fn started(
    fake: &FakeDiscord,
    dir: &Path,
    name: &str,
    env: &[(&str, &str)],
) -> Bot {
    let config = write_config(dir);
    let db = dir.join("tegami.db");
    let bot = Bot::start_with(
        fake,
        dir,
        &config,
        name,
        &["--db".as_ref(), db.as_os_str()],
        env,
    );
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    bot
}

/// The id in a thread-creation answer.
pub(super) fn thread_id(r: &Recorded) -> u64 {
    r.response.as_ref().expect("a thread")["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("thread id")
}

/// The id of the message a call created.
pub(super) fn message_id(r: &Recorded) -> u64 {
    r.message().expect("a message")["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("message id")
}

/// Whether a call is a successful new message in `channel`.
pub(super) fn posted_in(c: &Recorded, channel: u64) -> bool {
    c.ok() && c.method == "POST" && c.path == format!("/api/v10/channels/{channel}/messages")
}

pub(super) fn has_png(c: &Recorded) -> bool {
    c.files
        .iter()
        .any(|f| f.filename.ends_with(".png") && f.bytes.starts_with(b"\x89PNG"))
}

/// `challenger` challenges `opponent` to Shogi in `channel`, playing Black (moving first);
/// `opponent` accepts with `/accept` there. Returns the game's thread, made after the accept.
pub(super) async fn game_with_thread(
    fake: &FakeDiscord,
    channel: u64,
    challenger: &FakeUser,
    opponent: &FakeUser,
) -> u64 {
    let r = slash(
        fake,
        channel,
        challenger,
        "challenge",
        json!([
            opt_user("opponent", opponent),
            opt_str("game", "shogi"),
            opt_str("color", "black")
        ]),
        &[opponent],
    )
    .await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    let before = fake.call_count();
    let r = slash(fake, channel, opponent, "accept", json!([]), &[]).await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    let t = fake
        .wait_for_since(before, "the game's thread", STEP, |c| {
            c.ok() && c.method == "POST" && c.path.ends_with("/threads")
        })
        .await;
    thread_id(&t)
}

/// A move by slash command; checks that it was played (not refused).
pub(super) async fn play(fake: &FakeDiscord, channel: u64, who: &FakeUser, mv: &str) -> Recorded {
    let r = slash(
        fake,
        channel,
        who,
        "move",
        json!([opt_str("move", mv)]),
        &[],
    )
    .await;
    let text = content(&r);
    assert!(
        !text.starts_with('✗') && text.contains(mv),
        "the move {mv} is played: {text}"
    );
    r
}

/// Notices in the outbox not yet delivered (nor set aside).
pub(super) fn pending_notices(dir: &Path) -> i64 {
    let conn = rusqlite::Connection::open_with_flags(
        dir.join("tegami.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open the bot's database");
    conn.query_row(
        "SELECT count(*) FROM outbox WHERE sent_at IS NULL",
        [],
        |r| r.get(0),
    )
    .expect("count the outbox")
}

/// The number of moves a stored game has.
pub(super) fn stored_ply(dir: &Path, game: i64) -> i64 {
    let conn = rusqlite::Connection::open_with_flags(
        dir.join("tegami.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open the bot's database");
    conn.query_row("SELECT ply FROM games WHERE id = ?1", [game], |r| r.get(0))
        .expect("the game is stored")
}

/// Waits until no notice is pending in the outbox.
pub(super) async fn outbox_drained(dir: &Path, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let n = pending_notices(dir);
        if n == 0 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{n} notices still undelivered after {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Whether `user` was told in this call: pinged by a message, or sent a direct message.
pub(super) fn tells(fake: &FakeDiscord, c: &Recorded, user: &FakeUser) -> bool {
    if !c.ok() || c.method != "POST" {
        return false;
    }
    let dm = fake
        .dm_channel_of(user.id)
        .is_some_and(|d| c.path == format!("/api/v10/channels/{d}/messages"));
    let mentioned = c.path.ends_with("/messages")
        && c.json.is_some()
        && pinged(c).contains(&user.id)
        && content(c).contains(&user.mention());
    dm || mentioned
}

/// After a game's thread became unusable (deleted or forbidden) the mover's `/move` from the
/// parent channel is announced there, with the board and a ping of `opponent`, and a new thread
/// is started from that announcement; the reply in the new thread is announced there. Returns
/// the new thread.
async fn rehomed(
    fake: &FakeDiscord,
    mover: &FakeUser,
    opponent: &FakeUser,
    old_thread: u64,
    moves: [&str; 2],
) -> u64 {
    let before = fake.call_count();
    play(fake, CHANNEL_ID, mover, moves[0]).await;
    let announced = fake
        .wait_for_since(
            before,
            "the move announced in the parent channel",
            STEP,
            |c| posted_in(c, CHANNEL_ID) && content(c).contains(moves[0]),
        )
        .await;
    assert!(
        has_png(&announced),
        "with the board: {}",
        announced.summary()
    );
    assert!(
        pinged(&announced).contains(&opponent.id)
            && content(&announced).contains(&opponent.mention()),
        "the opponent is mentioned: {}",
        announced.summary()
    );
    let from = message_id(&announced);
    let new_thread = fake
        .wait_for_since(before, "a new thread from the announcement", STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.path == format!("/api/v10/channels/{CHANNEL_ID}/messages/{from}/threads")
        })
        .await;
    let new_thread = thread_id(&new_thread);
    assert_ne!(new_thread, old_thread);

    // The next move, in the new thread, is announced there.
    let before = fake.call_count();
    play(fake, new_thread, opponent, moves[1]).await;
    let next = fake
        .wait_for_since(before, "the reply announced in the new thread", STEP, |c| {
            posted_in(c, new_thread) && content(c).contains(moves[1])
        })
        .await;
    assert!(has_png(&next), "{}", next.summary());
    assert!(pinged(&next).contains(&mover.id), "{}", next.summary());
    assert!(
        fake.calls_since(before)
            .iter()
            .all(|c| !c.path.contains(&format!("/channels/{old_thread}"))),
        "the game has left its old thread"
    );
    new_thread
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_thread_is_replaced_and_no_notice_is_lost() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob) = (user(1, "alice"), user(2, "bob"));
        for u in [&alice, &bob] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "deleted", &[]).await;
        let thread = game_with_thread(&fake, CHANNEL_ID, &alice, &bob).await;

        // A server manager deletes the game's thread.
        fake.delete_channel(thread);
        let before = fake.call_count();
        rehomed(&fake, &alice, &bob, thread, ["P-7f", "P-3d"]).await;

        // Every notice was delivered somewhere: none waits in the outbox, and Bob was told of
        // Alice's move (mentioned or sent a direct message).
        outbox_drained(dir.path(), RETRIED).await;
        assert!(
            fake.calls_since(before)
                .iter()
                .any(|c| tells(&fake, c, &bob)),
            "Bob was told of Alice's move"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}

/// Point 11 of issue 49: a thread a moderator archived and locked answers 400 with code 50083;
/// the game leaves it for a new thread, as for a deleted one, and no notice is lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_archived_thread_is_replaced_and_no_notice_is_lost() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob) = (user(31, "alice"), user(32, "bob"));
        for u in [&alice, &bob] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "archived", &[]).await;
        let thread = game_with_thread(&fake, CHANNEL_ID, &alice, &bob).await;

        fake.archive_thread(thread);
        let before = fake.call_count();
        rehomed(&fake, &alice, &bob, thread, ["P-7f", "P-3d"]).await;
        assert!(
            fake.calls_since(before)
                .iter()
                .any(|c| c.status == 400 && c.path.contains(&format!("/channels/{thread}/"))),
            "the archived thread was tried and refused"
        );
        outbox_drained(dir.path(), RETRIED).await;
        assert!(
            fake.calls_since(before)
                .iter()
                .any(|c| tells(&fake, c, &bob)),
            "Bob was told of Alice's move"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forbidden_thread_then_channel_falls_back_to_a_new_thread_then_dms_then_set_aside() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob) = (user(11, "alice"), user(12, "bob"));
        for u in [&alice, &bob] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "forbidden", &[]).await;
        let thread = game_with_thread(&fake, CHANNEL_ID, &alice, &bob).await;

        // The bot lost access to the game's thread: the game moves to a new thread.
        fake.forbid_channel(thread, 50001);
        let new_thread = rehomed(&fake, &alice, &bob, thread, ["P-7f", "P-3d"]).await;

        // Then to the new thread and the channel as well: Bob (notify: mention, the default)
        // is told by a direct message.
        fake.forbid_channel(new_thread, 50001);
        fake.forbid_channel(CHANNEL_ID, 50001);
        let before = fake.call_count();
        play(&fake, CHANNEL_ID, &alice, "P-2f").await;
        let dm = fake
            .wait_for_since(before, "Bob told by a direct message", RETRIED, |c| {
                fake.dm_channel_of(bob.id).is_some_and(|d| posted_in(c, d))
            })
            .await;
        let text = content(&dm);
        assert!(
            text.contains("P-2f") || text.to_lowercase().contains("your move"),
            "the direct message is the move's notice: {text}"
        );

        // Alice's direct messages are closed too and the server has no games channel: the
        // notice of Bob's move is set aside, and Alice's /games says so.
        fake.set_dms_closed(alice.id, true);
        play(&fake, CHANNEL_ID, &bob, "P-8d").await;
        let deadline = Instant::now() + RETRIED;
        loop {
            let games = slash(&fake, CHANNEL_ID, &alice, "games", json!([]), &[]).await;
            if content(&games).contains("could not be delivered") {
                assert!(is_ephemeral(&games), "/games is private");
                break;
            }
            assert!(
                Instant::now() < deadline,
                "/games does not say a notice could not be delivered: {}",
                content(&games)
            );
            tokio::time::sleep(Duration::from_millis(2000)).await;
        }
        let log = bot.log_text();
        let alice_id = alice.id.to_string();
        assert!(
            log.lines().any(|l| l.contains("WARN")
                && l.to_lowercase().contains("notice")
                && l.contains(&alice_id)),
            "the log says which notice was set aside and why:\n{log}"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_announcement_refused_with_a_500_is_delivered_later_with_its_board() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob) = (user(21, "alice"), user(22, "bob"));
        for u in [&alice, &bob] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "500", &[]).await;
        let thread = game_with_thread(&fake, CHANNEL_ID, &alice, &bob).await;

        fake.fail_next("POST", &format!("/channels/{thread}/messages"), 500);
        let before = fake.call_count();
        play(&fake, CHANNEL_ID, &alice, "P-7f").await;
        let later = fake
            .wait_for_since(before, "the announcement delivered later", RETRIED, |c| {
                posted_in(c, thread) && content(c).contains("P-7f") && has_png(c)
            })
            .await;
        png_of(&later);
        assert!(
            fake.calls_since(before)
                .iter()
                .any(|c| c.injected && c.status == 500),
            "the 500 was served first"
        );
        assert!(
            pinged(&later).contains(&bob.id),
            "Bob is mentioned: {}",
            later.summary()
        );
        outbox_drained(dir.path(), RETRIED).await;
        // Announced once.
        let announced = fake
            .calls_since(before)
            .iter()
            .filter(|c| posted_in(c, thread) && content(c).contains("P-7f"))
            .count();
        assert_eq!(announced, 1, "the move is announced exactly once");
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_clean();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_sent_inside_a_games_thread_gets_a_thread_of_its_own_from_the_channel() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob, carol) = (user(31, "alice"), user(32, "bob"), user(33, "carol"));
        for u in [&alice, &bob, &carol] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "nested", &[]).await;
        let first = game_with_thread(&fake, CHANNEL_ID, &alice, &bob).await;

        // Bob challenges Carol from inside game 1's thread; Carol accepts there.
        let before = fake.call_count();
        let second = game_with_thread(&fake, first, &bob, &carol).await;
        assert_ne!(second, first, "game 2 does not share game 1's thread");
        let made = fake.channel(second).expect("the new thread");
        assert_eq!(
            made["parent_id"],
            json!(CHANNEL_ID.to_string()),
            "the thread is started from the parent channel: {made}"
        );
        let refused: Vec<String> = fake
            .calls_since(before)
            .iter()
            .filter(|c| c.path.ends_with("/threads") && c.status == 400)
            .map(Recorded::summary)
            .collect();
        assert!(refused.is_empty(), "no thread inside a thread: {refused:?}");

        // Bob, who plays two games, moves in game 2's thread without naming it.
        let before = fake.call_count();
        play(&fake, second, &bob, "P-7f").await;
        let announced = fake
            .wait_for_since(before, "game 2's move announced in its thread", STEP, |c| {
                posted_in(c, second) && content(c).contains("P-7f")
            })
            .await;
        assert!(pinged(&announced).contains(&carol.id));
        assert_eq!(
            (stored_ply(dir.path(), 1), stored_ply(dir.path(), 2)),
            (0, 1),
            "the move in game 2's thread is game 2's"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_clean();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_channel_option_takes_text_channels_only() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let mut bot = started(&fake, dir.path(), "channel-types", &[]).await;
        let option = fake
            .registered_option("server", "channel")
            .expect("/server has a channel option");
        assert_eq!(option["type"], 7, "a channel option: {option}");
        let types: Vec<u64> = option["channel_types"]
            .as_array()
            .unwrap_or_else(|| panic!("the option has channel_types: {option}"))
            .iter()
            .filter_map(serde_json::Value::as_u64)
            .collect();
        assert!(types.contains(&0), "text channels: {types:?}");
        assert!(
            types.iter().all(|t| matches!(t, 0 | 5)),
            "text (and announcement) channels only, no category (4), voice or forum: {types:?}"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_clean();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_stops_the_bot_with_status_2_and_says_so() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        fake.reject_tokens(true);
        let config = write_config(dir.path());
        let db = dir.path().join("tegami.db");
        let mut bot = Bot::start_with(
            &fake,
            dir.path(),
            &config,
            "token",
            &["--db".as_ref(), db.as_os_str()],
            &[],
        );
        let deadline = Instant::now() + STEP;
        let status = loop {
            if let Some(s) = bot.child.try_wait().expect("wait for tegami run") {
                break s;
            }
            assert!(
                Instant::now() < deadline,
                "tegami run did not stop within {STEP:?}:\n{}",
                bot.log_text()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let log = bot.log_text();
        assert_eq!(status.code(), Some(2), "exit status 2:\n{log}");
        assert!(
            log.contains("Discord refused the token (401): check DISCORD_TOKEN"),
            "the operator is told what to fix:\n{log}"
        );
        assert!(
            !log.contains("test.token.not-real"),
            "the token is never printed"
        );
        assert!(
            fake.calls().iter().any(|c| c.status == 401),
            "the fake refused it"
        );
        assert_eq!(fake.identify_count(), 0, "no IDENTIFY with a refused token");
    })
    .await;
}

/// Waits a little over the per-user rate limit's pace (8 commands in 10 s).
async fn pace() {
    tokio::time::sleep(Duration::from_millis(1300)).await;
}

/// Whether any message was posted publicly (not an interaction's own answer) since `before`.
fn public_posts_since(fake: &FakeDiscord, before: usize) -> Vec<String> {
    fake.calls_since(before)
        .iter()
        .filter(|c| c.ok() && c.method == "POST" && c.path.starts_with("/api/v10/channels/"))
        .filter(|c| c.path.ends_with("/messages"))
        .map(Recorded::summary)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_challenges_and_games_against_the_computer_are_capped() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let alice = user(41, "alice");
        let bob = user(42, "bob");
        let tegami = tegami_user();
        fake.add_user(&alice);
        fake.add_user(&bob);
        let mut bot = started(&fake, dir.path(), "caps", &[]).await;

        // Alice's open challenges: ten go out, the eleventh is refused privately.
        for n in 1..=11u64 {
            let opponent = user(100 + n, &format!("player{n}"));
            let before = fake.call_count();
            let r = slash(
                &fake,
                CHANNEL_ID,
                &alice,
                "challenge",
                json!([opt_user("opponent", &opponent), opt_str("game", "shogi")]),
                &[&opponent],
            )
            .await;
            if n <= 10 {
                assert!(
                    !content(&r).starts_with('✗'),
                    "challenge {n} goes out: {}",
                    content(&r)
                );
            } else {
                assert!(content(&r).starts_with('✗'), "{}", content(&r));
                assert_private_refusal(&fake, &r, "✗");
                tokio::time::sleep(Duration::from_millis(500)).await;
                let posts = public_posts_since(&fake, before);
                assert!(posts.is_empty(), "nothing public: {posts:?}");
            }
            pace().await;
        }

        // Bob's games against the computer: five begin, the sixth is refused privately.
        for n in 1..=6 {
            let before = fake.call_count();
            let r = slash(
                &fake,
                CHANNEL_ID,
                &bob,
                "challenge",
                json!([
                    opt_user("opponent", &tegami),
                    opt_str("game", "judkins"),
                    opt_str("color", "black"),
                    opt_int("level", 1)
                ]),
                &[&tegami],
            )
            .await;
            if n <= 5 {
                assert!(
                    content(&r).contains("begins"),
                    "game {n} against the computer begins: {}",
                    content(&r)
                );
            } else {
                assert!(content(&r).starts_with('✗'), "{}", content(&r));
                assert_private_refusal(&fake, &r, "✗");
                tokio::time::sleep(Duration::from_millis(500)).await;
                let posts = public_posts_since(&fake, before);
                assert!(posts.is_empty(), "nothing public: {posts:?}");
            }
            pace().await;
        }
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_clean();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_search_is_caught_and_the_computer_still_moves() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let alice = user(51, "alice");
        let tegami = tegami_user();
        fake.add_user(&alice);
        let mut bot = started(
            &fake,
            dir.path(),
            "panic",
            &[("TEGAMI_FAULT_SEARCH_PANICS", "1")],
        )
        .await;
        let before = fake.call_count();
        let r = slash(
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
        assert!(content(&r).contains("begins"), "{}", content(&r));
        let first = fake
            .wait_for_since(
                before,
                "the computer's first move, after the panic",
                STEP,
                |c| {
                    c.ok()
                        && c.method == "POST"
                        && c.path.ends_with("/messages")
                        && c.content().is_some_and(|t| t.contains("Tegami plays 1."))
                },
            )
            .await;
        assert!(has_png(&first), "{}", first.summary());
        assert!(pinged(&first).contains(&alice.id));
        let log = bot.log_text();
        assert!(
            log.to_lowercase().contains("panic"),
            "the log mentions the panic:\n{log}"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}

// ===== Games stored before the bot starts ===================================================

/// A fixed-seed sequence of `plies` legal Shogi moves (codes such as `7g7f`) that does not end
/// the game.
fn wander(plies: usize, seed: u64) -> Vec<String> {
    let variant = Variant::get(VariantId::Shogi);
    let mut game = Game::new(Position::start(VariantId::Shogi));
    let mut state = seed;
    let mut out = Vec::with_capacity(plies);
    for ply in 0..plies {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let r = state.wrapping_mul(0x2545_f491_4f6c_dd1d);
        let moves = game.legal_moves();
        assert!(!moves.is_empty(), "no legal move at ply {ply}");
        let start = (r % moves.len() as u64) as usize;
        let next = (0..moves.len()).find_map(|k| {
            let m = moves[(start + k) % moves.len()];
            let mut g = game.clone();
            g.play(m).ok()?;
            (!g.is_over() && !g.legal_moves().is_empty()).then_some((m, g))
        });
        let (m, g) = next.unwrap_or_else(|| panic!("every move ends the game at ply {ply}"));
        out.push(code::write(variant, m));
        game = g;
    }
    out
}

/// Writes games into the bot's database through the command core, before the bot starts.
pub(super) struct Stored {
    service: Service,
    place: Place,
    db: PathBuf,
}

impl Stored {
    pub(super) fn open(dir: &Path) -> Stored {
        let db = dir.join("tegami.db");
        let store = SqliteStore::open_with(&db, Durability::Normal).expect("store");
        let service = Service::new(
            Arc::new(store),
            Arc::new(SystemClock),
            Config {
                images: false,
                ..Config::default()
            },
        );
        let place = Place {
            guild: Some(GUILD_ID.to_string()),
            channel: Some(CHANNEL_ID.to_string()),
            admin: false,
            locale: None,
        };
        Stored { service, place, db }
    }

    fn run(&self, who: &FakeUser, line: &str) -> tegami::service::Reply {
        let reply = self.service.handle(&Request {
            user: User::new(who.id.to_string(), who.name.clone()),
            place: self.place.clone(),
            command: parse_command(line).expect("a command"),
        });
        assert!(!reply.error, "{line}: {}", reply.text);
        reply
    }

    /// A Shogi game of `black` against `white` with `plies` moves; resigned by the side to move
    /// when `finish`. Returns its number.
    pub(super) fn game(
        &self,
        black: &FakeUser,
        white: &FakeUser,
        plies: usize,
        finish: bool,
    ) -> i64 {
        self.run(black, &format!("challenge <@{}> shogi black", white.id));
        let started = self.run(white, "accept");
        let id = started.game.as_ref().expect("the game begins").id;
        for (ply, mv) in wander(plies, 0x7e6a_0001 + id as u64).iter().enumerate() {
            let who = if ply % 2 == 0 { black } else { white };
            let r = self.run(who, &format!("move {id} {mv}"));
            assert!(
                r.game.as_ref().is_some_and(|g| !g.over),
                "ply {ply}: the game goes on: {}",
                r.text
            );
        }
        if finish {
            let who = if plies.is_multiple_of(2) {
                black
            } else {
                white
            };
            let r = self.run(who, &format!("resign {id}"));
            assert!(r.game.as_ref().is_some_and(|g| g.over), "{}", r.text);
        }
        id
    }

    /// Marks every notice delivered: the players of stored games were told long ago.
    pub(super) fn told(&self) {
        let conn = rusqlite::Connection::open(&self.db).expect("open the database");
        conn.execute(
            "UPDATE outbox SET sent_at = created_at WHERE sent_at IS NULL",
            [],
        )
        .expect("mark the notices sent");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_replay_of_a_long_game_fits_the_upload_limit() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let (alice, bob) = (user(61, "alice"), user(62, "bob"));
        let game = {
            let stored = Stored::open(dir.path());
            let id = stored.game(&alice, &bob, 320, true);
            stored.told();
            id
        };
        let fake = FakeDiscord::start().await;
        for u in [&alice, &bob] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "replay", &[]).await;
        let limit = fake.upload_limit();
        let (id, token, ev) = fake.slash_command_in(
            CHANNEL_ID,
            &alice,
            "replay",
            json!([opt_int("game", game)]),
            &[],
        );
        fake.dispatch("INTERACTION_CREATE", ev).await;
        let webhook = format!("/api/v10/webhooks/{APP_ID}/{token}");
        let gif = fake
            .wait_for("the replay's GIF", Duration::from_secs(90), |c| {
                (c.path == webhook || c.path.starts_with(&format!("{webhook}/")))
                    && c.files.iter().any(|f| f.filename.ends_with(".gif"))
            })
            .await;
        let f = gif
            .files
            .iter()
            .find(|f| f.filename.ends_with(".gif"))
            .expect("a GIF");
        println!(
            "hardening: replay of a {}-ply game: {} bytes ({:.2} MiB)",
            320,
            f.bytes.len(),
            f.bytes.len() as f64 / (1024.0 * 1024.0)
        );
        assert!(f.bytes.starts_with(b"GIF8"), "a GIF");
        assert!(
            gif.ok(),
            "Discord took the replay ({} bytes, the limit {limit}): {}",
            f.bytes.len(),
            gif.summary()
        );
        assert!(f.bytes.len() <= limit);
        let refused: Vec<String> = fake
            .interaction_responses(id)
            .iter()
            .filter(|c| c.status == 413)
            .map(Recorded::summary)
            .collect();
        assert!(
            refused.is_empty(),
            "nothing over the limit was sent: {refused:?}"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_clean();
    })
    .await;
}

/// The answer to an interaction, if it has come yet.
fn answered(fake: &FakeDiscord, id: u64, token: &str) -> Option<Recorded> {
    let callback = format!("/api/v10/interactions/{id}/{token}/callback");
    let webhook = format!("/api/v10/webhooks/{APP_ID}/{token}");
    fake.calls().into_iter().find(|c| {
        c.method == "POST"
            && (c.path == webhook
                || (c.path == callback
                    && c.json
                        .as_ref()
                        .is_some_and(|j| j["type"] == 4 || j["type"] == 8)))
    })
}

/// Commands sent this close before the analysis' answer may be answered after it.
const GRACE: Duration = Duration::from_secs(1);

/// The `q` quantile of sorted values.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_players_are_answered_while_a_level_5_move_and_a_long_analysis_run() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let (ann, ben) = (user(71, "ann"), user(72, "ben"));
        let (dave, erin) = (user(73, "dave"), user(74, "erin"));
        let carol = user(75, "carol");
        let tegami = tegami_user();
        let (finished, playing) = {
            let stored = Stored::open(dir.path());
            let finished = stored.game(&ann, &ben, 200, true);
            let playing = stored.game(&dave, &erin, 0, false);
            stored.told();
            (finished, playing)
        };
        let fake = FakeDiscord::start().await;
        for u in [&ann, &ben, &dave, &erin, &carol] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "stall", &[]).await;

        // Carol plays the computer at level 5; her first move sets it thinking.
        let r = slash(
            &fake,
            CHANNEL_ID,
            &carol,
            "challenge",
            json!([
                opt_user("opponent", &tegami),
                opt_str("game", "shogi"),
                opt_str("color", "black"),
                opt_int("level", 5)
            ]),
            &[&tegami],
        )
        .await;
        assert!(content(&r).contains("begins"), "{}", content(&r));
        let computer_game = finished.max(playing) + 1;
        let r = slash(
            &fake,
            CHANNEL_ID,
            &carol,
            "move",
            json!([opt_str("move", "7g7f"), opt_int("game", computer_game)]),
            &[],
        )
        .await;
        assert!(!content(&r).starts_with('✗'), "{}", content(&r));

        // Ann asks for the analysis of the 200-ply game.
        let (aid, atoken, ev) = fake.slash_command_in(
            CHANNEL_ID,
            &ann,
            "analysis",
            json!([opt_int("game", finished)]),
            &[],
        );
        fake.dispatch("INTERACTION_CREATE", ev).await;

        // Meanwhile Dave and Erin look at their board and move, one command each per round.
        let mut local = Game::new(Position::start(VariantId::Shogi));
        let variant = Variant::get(VariantId::Shogi);
        let mut sent: Vec<(String, Instant, u64, String)> = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut analysis = None;
        while analysis.is_none() && Instant::now() < deadline {
            let black_to_move = local.moves().len().is_multiple_of(2);
            let (mover, watcher) = if black_to_move {
                (&dave, &erin)
            } else {
                (&erin, &dave)
            };
            let mv = *local.legal_moves().first().expect("a legal move");
            let code = code::write(variant, mv);
            let commands = [
                (
                    watcher,
                    "board",
                    json!([opt_int("game", playing)]),
                ),
                (
                    mover,
                    "move",
                    json!([opt_str("move", &code), opt_int("game", playing)]),
                ),
            ];
            for (who, name, options) in commands {
                let (id, token, ev) = fake.slash_command_in(CHANNEL_ID, who, name, options, &[]);
                let at = Instant::now();
                fake.dispatch("INTERACTION_CREATE", ev).await;
                sent.push((name.to_string(), at, id, token));
            }
            local.play(mv).expect("legal");
            // Each answer before the next round (an answer held up makes the round wait).
            for (name, _, id, token) in sent.iter().rev().take(2) {
                let r = fake
                    .wait_for(
                        &format!("the answer to /{name}"),
                        Duration::from_secs(120),
                        |c| {
                            c.method == "POST"
                                && c.path == format!("/api/v10/webhooks/{APP_ID}/{token}")
                        },
                    )
                    .await;
                assert!(
                    !content(&r).starts_with('✗'),
                    "/{name} ({id}) answered: {}",
                    content(&r)
                );
            }
            analysis = answered(&fake, aid, &atoken);
            tokio::time::sleep(Duration::from_millis(1300)).await;
            if analysis.is_none() {
                analysis = answered(&fake, aid, &atoken);
            }
        }
        let analysis = analysis.expect("the analysis was answered within two minutes");
        assert!(
            !content(&analysis).starts_with('✗'),
            "{}",
            content(&analysis)
        );

        // Every command sent before the analysis' answer was answered before it (but for those
        // sent in its last second, which may fairly finish after it).
        let mut latencies = Vec::new();
        let mut late = Vec::new();
        for (name, at, id, token) in &sent {
            if *at + GRACE >= analysis.at {
                continue;
            }
            let r = answered(&fake, *id, token).expect("answered");
            latencies.push(r.at.duration_since(*at).as_secs_f64() * 1000.0);
            if r.at > analysis.at {
                late.push(format!(
                    "/{name} answered {:.0} ms after the analysis",
                    r.at.duration_since(analysis.at).as_secs_f64() * 1000.0
                ));
            }
        }
        latencies.sort_by(f64::total_cmp);
        println!(
            "hardening: {} /board and /move answers while a level-5 move and a 200-ply analysis ran: p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms",
            latencies.len(),
            quantile(&latencies, 0.5),
            quantile(&latencies, 0.95),
            latencies.last().copied().unwrap_or(0.0)
        );
        assert!(
            !latencies.is_empty(),
            "some commands were sent while the analysis ran"
        );
        assert!(late.is_empty(), "held up behind the analysis: {late:?}");
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}
