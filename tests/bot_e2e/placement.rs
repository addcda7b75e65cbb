//! Where a message goes, and what the bot does when Discord refuses it (issue 49, points 10,
//! 11 and 14), end to end against the fake Discord answering Discord's own error codes: a
//! server game never moves to a DM, a missing right costs only what needs it (the picture,
//! the thread, the reply reference), and an answer that is the sender's alone never shows in
//! the channel when asked by prefix.

use serde_json::json;

use super::hardening::{
    bounded, game_with_thread, has_png, play, posted_in, started, tells, RETRIED,
};
use super::*;
use crate::fake_discord::opt_sub;

fn user(n: u64, name: &str) -> FakeUser {
    FakeUser::new(2_000_000_000_000_049_000 + n, name)
}

/// The stored game's channel and thread.
fn stored_home(dir: &Path, game: i64) -> (Option<String>, Option<String>) {
    let conn = rusqlite::Connection::open_with_flags(
        dir.join("tegami.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open the bot's database");
    conn.query_row(
        "SELECT channel, thread FROM games WHERE id = ?1",
        [game],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .expect("the game is stored")
}

/// Whether a call made a thread.
fn made_thread(c: &Recorded) -> bool {
    c.ok() && c.method == "POST" && c.path.ends_with("/threads")
}

/// Whether a call is a message with a reply reference.
fn is_reply(c: &Recorded) -> bool {
    c.json
        .as_ref()
        .is_some_and(|j| !j["message_reference"].is_null())
}

/// Point 10: Alice's `/move` from her DMs, when the game's thread and channel are closed to the
/// bot, is not announced in her DM (where Bob would never see his ping), the game stays in its
/// server, and Bob is told by a direct message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_sent_from_dms_never_moves_a_server_game_and_the_opponent_gets_a_dm() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob) = (user(1, "alice"), user(2, "bob"));
        for u in [&alice, &bob] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "from-dm", &[]).await;
        let thread = game_with_thread(&fake, CHANNEL_ID, &alice, &bob).await;
        let alice_dm = fake.open_dm(&alice);

        fake.forbid_channel(thread, 50001);
        fake.forbid_channel(CHANNEL_ID, 50001);
        let before = fake.call_count();
        play(&fake, alice_dm, &alice, "P-7f").await;
        let dm = fake
            .wait_for_since(before, "Bob told by a direct message", RETRIED, |c| {
                fake.dm_channel_of(bob.id).is_some_and(|d| posted_in(c, d))
            })
            .await;
        assert!(tells(&fake, &dm, &bob), "{}", dm.summary());
        assert!(
            fake.calls_since(before)
                .iter()
                .all(|c| !posted_in(c, alice_dm)),
            "nothing is posted in Alice's DM: {}",
            fake.dump_calls(before)
        );
        let (channel, _) = stored_home(dir.path(), 1);
        assert_ne!(
            channel.as_deref(),
            Some(alice_dm.to_string().as_str()),
            "the game did not move to Alice's DM"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}

/// Point 11: without Attach Files in the channel (and so its threads), a move's announcement
/// goes to the game's thread as text, saying the picture could not be attached, and still
/// pings the opponent; the game keeps its thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_attach_files_the_announcement_goes_as_text_in_its_thread() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob) = (user(11, "alice"), user(12, "bob"));
        for u in [&alice, &bob] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "no-files", &[]).await;
        let thread = game_with_thread(&fake, CHANNEL_ID, &alice, &bob).await;

        fake.refuse_files(CHANNEL_ID);
        let before = fake.call_count();
        play(&fake, CHANNEL_ID, &alice, "P-7f").await;
        let announced = fake
            .wait_for_since(before, "the move announced in the thread", STEP, |c| {
                posted_in(c, thread) && content(c).contains("P-7f")
            })
            .await;
        assert!(!has_png(&announced), "{}", announced.summary());
        assert!(
            content(&announced).contains("not attached"),
            "the text says the picture is missing: {}",
            content(&announced)
        );
        assert!(
            pinged(&announced).contains(&bob.id),
            "{}",
            announced.summary()
        );
        assert!(
            !fake.calls_since(before).iter().any(made_thread),
            "no new thread: {}",
            fake.dump_calls(before)
        );
        assert_eq!(
            stored_home(dir.path(), 1).1,
            Some(thread.to_string()),
            "the game keeps its thread"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}

/// Point 11: without Send Messages in Threads, the game goes on in its channel, and moves made
/// there do not start a new thread each (threads could still be made, but nothing could be
/// posted in them).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_send_messages_in_threads_the_game_goes_on_in_its_channel_without_new_threads() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob) = (user(21, "alice"), user(22, "bob"));
        for u in [&alice, &bob] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "no-thread-posts", &[]).await;
        let thread = game_with_thread(&fake, CHANNEL_ID, &alice, &bob).await;

        fake.refuse_thread_posts(CHANNEL_ID);
        let before = fake.call_count();
        for (who, other, mv) in [
            (&alice, &bob, "P-7f"),
            (&bob, &alice, "P-3d"),
            (&alice, &bob, "P-2f"),
        ] {
            let start = fake.call_count();
            play(&fake, CHANNEL_ID, who, mv).await;
            let announced = fake
                .wait_for_since(start, "the move announced in the channel", STEP, |c| {
                    posted_in(c, CHANNEL_ID) && content(c).contains(mv)
                })
                .await;
            assert!(
                has_png(&announced),
                "with its board: {}",
                announced.summary()
            );
            assert!(
                pinged(&announced).contains(&other.id),
                "{}",
                announced.summary()
            );
        }
        assert!(
            !fake.calls_since(before).iter().any(made_thread),
            "no new thread per move: {}",
            fake.dump_calls(before)
        );
        assert_eq!(
            stored_home(dir.path(), 1),
            (Some(CHANNEL_ID.to_string()), None),
            "the game lives in its channel, its thread {thread} forgotten"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}

/// Point 11: without Read Message History, a prefix command is answered by a plain message in
/// its channel (a reply would be refused with 160002).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prefix_command_where_replies_are_refused_is_answered_without_a_reply_reference() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let alice = user(31, "alice");
        fake.add_user(&alice);
        let mut bot = started(&fake, dir.path(), "no-replies", &[]).await;

        fake.refuse_replies(CHANNEL_ID);
        let before = fake.call_count();
        fake.dispatch(
            "MESSAGE_CREATE",
            fake.message_create(&alice, CHANNEL_ID, "!help"),
        )
        .await;
        let answered = fake
            .wait_for_since(before, "the answer to !help", STEP, |c| {
                posted_in(c, CHANNEL_ID)
            })
            .await;
        assert!(!is_reply(&answered), "{}", answered.summary());
        assert!(
            fake.calls_since(before)
                .iter()
                .any(|c| c.status == 403 && is_reply(c)),
            "the reply was tried first and refused: {}",
            fake.dump_calls(before)
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}

/// Point 14: `!conditional list` in the game's thread, which the opponent reads, sends Alice's
/// lines to her direct messages; the thread is told only that a DM went. With her DMs closed,
/// the thread is told that, and still sees none of her lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_personal_answer_asked_by_prefix_goes_by_dm_never_to_the_channel() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob) = (user(41, "alice"), user(42, "bob"));
        for u in [&alice, &bob] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "personal", &[]).await;
        let thread = game_with_thread(&fake, CHANNEL_ID, &alice, &bob).await;
        play(&fake, CHANNEL_ID, &alice, "P-7f").await;
        let r = slash(
            &fake,
            CHANNEL_ID,
            &alice,
            "conditional",
            json!([opt_sub("add", vec![opt_str("line", "3c3d 2g2f")])]),
            &[],
        )
        .await;
        assert!(!content(&r).starts_with('✗'), "{}", content(&r));
        let listed = slash(
            &fake,
            CHANNEL_ID,
            &alice,
            "conditional",
            json!([opt_sub("list", vec![])]),
            &[],
        )
        .await;
        assert!(is_ephemeral(&listed));
        let lines = content(&listed);
        assert!(lines.contains("P-2f"), "the list shows the line: {lines}");

        // Asked by prefix in the game's thread.
        let before = fake.call_count();
        fake.dispatch(
            "MESSAGE_CREATE",
            fake.message_create(&alice, thread, "!conditional list"),
        )
        .await;
        let dm = fake
            .wait_for_since(before, "Alice's lines by direct message", STEP, |c| {
                fake.dm_channel_of(alice.id)
                    .is_some_and(|d| posted_in(c, d))
            })
            .await;
        assert_eq!(content(&dm), lines, "the DM is the private answer");
        let said = fake
            .wait_for_since(before, "a word in the thread", STEP, |c| {
                posted_in(c, thread)
            })
            .await;
        assert!(
            content(&said).contains("direct message") && !content(&said).contains("P-2f"),
            "the thread learns only that a DM went: {}",
            content(&said)
        );

        // Her direct messages closed: the thread is told so, still without her lines.
        fake.set_dms_closed(alice.id, true);
        let before = fake.call_count();
        fake.dispatch(
            "MESSAGE_CREATE",
            fake.message_create(&alice, thread, "!conditional list"),
        )
        .await;
        let said = fake
            .wait_for_since(before, "a word in the thread", STEP, |c| {
                posted_in(c, thread)
            })
            .await;
        assert!(
            content(&said).contains("closed") && !content(&said).contains("P-2f"),
            "{}",
            content(&said)
        );
        assert!(
            fake.calls_since(before)
                .iter()
                .filter(|c| c.ok() && c.method == "POST" && c.path.ends_with("/messages"))
                .all(|c| !content(c).contains("P-2f")),
            "the lines are posted nowhere: {}",
            fake.dump_calls(before)
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}

/// The server's games channel, as stored.
fn stored_games_channel(dir: &Path) -> Option<String> {
    let conn = rusqlite::Connection::open_with_flags(
        dir.join("tegami.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open the bot's database");
    conn.query_row(
        "SELECT games_channel FROM servers WHERE guild = ?1",
        [crate::fake_discord::GUILD_ID.to_string()],
        |r| r.get(0),
    )
    .ok()
    .flatten()
}

/// `who` plays `mv` in the channel; `other` is told of it by a direct message.
async fn play_told(fake: &FakeDiscord, who: &FakeUser, other: &FakeUser, mv: &str) {
    let start = fake.call_count();
    play(fake, CHANNEL_ID, who, mv).await;
    let told = fake
        .wait_for_since(
            start,
            "the opponent told by a direct message",
            RETRIED,
            |c| {
                fake.dm_channel_of(other.id)
                    .is_some_and(|d| posted_in(c, d))
                    && content(c).contains(mv)
            },
        )
        .await;
    assert!(tells(fake, &told, other), "{}", told.summary());
}

/// Point 11, the owner's report: the bot loses Send Messages (50013) in a game's channel (and
/// so its thread); two moves later the owner sets a games channel (`/server channel`), which
/// the bot then loses too. The game goes on: every move is played, and each opponent is told by
/// a direct message. The server's owner is told by a direct message of each channel once, not
/// once per move (a channel is reported at most once a day).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_the_bot_lacks_a_right_in_is_reported_to_the_owner_once_and_the_game_goes_on() {
    use crate::fake_discord::{opt_channel, OWNER_USER_ID};
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob) = (user(51, "alice"), user(52, "bob"));
        let owner = FakeUser::new(OWNER_USER_ID, "owner");
        for u in [&alice, &bob, &owner] {
            fake.add_user(u);
        }
        fake.set_member_permissions(owner.id, serenity::all::Permissions::all().bits());
        let games = fake.snowflake();
        fake.add_text_channel(games, "games");
        let mut bot = started(&fake, dir.path(), "owner-report", &[]).await;
        let thread = game_with_thread(&fake, CHANNEL_ID, &alice, &bob).await;
        let before = fake.call_count();
        let moves = [
            (&alice, &bob, "P-7f"),
            (&bob, &alice, "P-3d"),
            (&alice, &bob, "P-2f"),
            (&bob, &alice, "P-8d"),
        ];
        // The bot loses Send Messages in the game's channel (and its thread): two moves.
        fake.forbid_channel(CHANNEL_ID, 50013);
        for (who, other, mv) in &moves[..2] {
            play_told(&fake, who, other, mv).await;
        }
        // The owner sets a games channel, which the bot loses too: two more moves.
        let r = slash(
            &fake,
            CHANNEL_ID,
            &owner,
            "server",
            json!([opt_channel("channel", games)]),
            &[],
        )
        .await;
        assert!(!content(&r).starts_with('✗'), "{}", content(&r));
        assert_eq!(
            stored_games_channel(dir.path()),
            Some(games.to_string()),
            "{}",
            content(&r)
        );
        fake.forbid_channel(games, 50013);
        for (who, other, mv) in &moves[2..] {
            play_told(&fake, who, other, mv).await;
        }
        assert_eq!(
            super::hardening::stored_ply(dir.path(), 1),
            4,
            "every move was played"
        );

        // The owner was told of each channel once, in four moves.
        let owner_dm = fake
            .dm_channel_of(owner.id)
            .unwrap_or_else(|| panic!("the owner got no DM: {}", fake.dump_calls(before)));
        let reports: Vec<String> = fake
            .calls_since(before)
            .iter()
            .filter(|c| posted_in(c, owner_dm))
            .map(content)
            .collect();
        let of = |channel: u64| {
            reports
                .iter()
                .filter(|t| t.contains(&format!("<#{channel}>")))
                .collect::<Vec<_>>()
        };
        let (game_channel, games_channel) = (of(CHANNEL_ID), of(games));
        assert_eq!(
            game_channel.len(),
            1,
            "the game's channel once: {reports:#?}"
        );
        assert!(game_channel[0].contains("game #1"), "{reports:#?}");
        assert_eq!(
            games_channel.len(),
            1,
            "the games channel once: {reports:#?}"
        );
        assert!(games_channel[0].contains("/server channel"), "{reports:#?}");
        assert_eq!(reports.len(), 2, "nothing else: {reports:#?}");
        assert!(
            !fake
                .calls_since(before)
                .iter()
                .any(|c| posted_in(c, thread) || posted_in(c, CHANNEL_ID) || posted_in(c, games)),
            "nothing landed where the bot may not post"
        );
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}
