//! What the bot hears (issue 49, points 13, 16 and 17), end to end against the fake Discord.
//!
//! - Managers by what Discord says now: a prefix `!server` is allowed to a member whose
//!   message carries a role with Manage Server or Administrator (the server's roles from its
//!   GUILD_CREATE), and to the owner; refused to others and to a manager whose message no
//!   longer carries the role; and pointed to `/server` while the server's roles are unknown.
//! - Moves typed as players write them, in a game's thread: `７六歩`, `同　銀` (with an
//!   ideographic space), Shanghai's `h3`; chat (`gg`, `nice move`) is left alone, and a move that
//!   is read but illegal is answered with the reason.
//! - `/move`'s autocomplete in the notation the player chose with `/settings notation`.

use std::time::Duration;

use serde_json::{json, Value};

use super::{answer, content, slash, write_config, Bot, STEP};
use crate::fake_discord::{
    opt_focused, opt_str, opt_user, FakeDiscord, FakeUser, Recorded, CHANNEL_ID, OWNER_USER_ID,
};

/// The longest any test here may take.
const LIMIT: Duration = Duration::from_secs(150);

/// Permission bits: Administrator, Manage Server.
const ADMINISTRATOR: u64 = 1 << 3;
const MANAGE_GUILD: u64 = 1 << 5;
/// The server's roles in these tests.
const MODS: u64 = 3_000_000_000_000_000_001;
const ADMINS: u64 = 3_000_000_000_000_000_002;
const PLAIN: u64 = 3_000_000_000_000_000_003;

async fn bounded<F: std::future::Future<Output = ()>>(body: F) {
    tokio::time::timeout(LIMIT, body)
        .await
        .expect("the test did not finish within its time limit");
}

fn user(n: u64, name: &str) -> FakeUser {
    FakeUser::new(2_000_000_000_000_049_100 + n, name)
}

async fn started(fake: &FakeDiscord, dir: &std::path::Path) -> Bot {
    let config = write_config(dir);
    let db = dir.join("tegami.db");
    let bot = Bot::start_with(
        fake,
        dir,
        &config,
        "heard",
        &["--db".as_ref(), db.as_os_str()],
        &[],
    );
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    bot
}

/// Sends `event` (a MESSAGE_CREATE) and waits for the bot's reply to it in its channel.
async fn reply_to(fake: &FakeDiscord, event: Value) -> Recorded {
    let id = event["id"].as_str().expect("message id").to_string();
    let channel = event["channel_id"].as_str().expect("channel").to_string();
    let before = fake.call_count();
    fake.dispatch("MESSAGE_CREATE", event).await;
    fake.wait_for_since(before, "the reply to a message", STEP, |c| {
        c.method == "POST"
            && c.path == format!("/api/v10/channels/{channel}/messages")
            && c.json
                .as_ref()
                .is_some_and(|j| j["message_reference"]["message_id"].as_str() == Some(id.as_str()))
    })
    .await
}

/// `challenger` (Black, moving first) and `opponent` start a game of `game`; its thread.
async fn game_with_thread(
    fake: &FakeDiscord,
    challenger: &FakeUser,
    opponent: &FakeUser,
    game: &str,
) -> u64 {
    let r = slash(
        fake,
        CHANNEL_ID,
        challenger,
        "challenge",
        json!([
            opt_user("opponent", opponent),
            opt_str("game", game),
            opt_str("color", if game == "shanghai" { "red" } else { "black" })
        ]),
        &[opponent],
    )
    .await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    let before = fake.call_count();
    let r = slash(fake, CHANNEL_ID, opponent, "accept", json!([]), &[]).await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    let t = fake
        .wait_for_since(before, "the game's thread", STEP, |c| {
            c.ok() && c.method == "POST" && c.path.ends_with("/threads")
        })
        .await;
    t.response.as_ref().expect("thread")["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("thread id")
}

/// The messages the bot posted in `channel` since call `before`.
fn posts_since(fake: &FakeDiscord, before: usize, channel: u64) -> Vec<String> {
    fake.calls_since(before)
        .iter()
        .filter(|c| c.method == "POST" && c.path == format!("/api/v10/channels/{channel}/messages"))
        .map(content)
        .collect()
}

/// `who` types `text` in the game's `thread`; waits for the bot's next post there.
async fn typed(fake: &FakeDiscord, thread: u64, who: &FakeUser, text: &str) -> String {
    let before = fake.call_count();
    fake.dispatch("MESSAGE_CREATE", fake.message_create(who, thread, text))
        .await;
    let r = fake
        .wait_for_since(before, &format!("the answer to {text:?}"), STEP, |c| {
            c.method == "POST" && c.path == format!("/api/v10/channels/{thread}/messages")
        })
        .await;
    content(&r)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn managers_are_recognised_by_the_roles_their_message_carries() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob, dave) = (user(1, "alice"), user(2, "bob"), user(4, "dave"));
        let owner = FakeUser::new(OWNER_USER_ID, "owner");
        for u in [&alice, &bob, &dave, &owner] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path()).await;
        let refused = "only the server's managers";

        // The server's roles are not known yet (no GUILD_CREATE): pointed to the slash command.
        let r = reply_to(
            &fake,
            fake.message_create_with_roles(&alice, CHANNEL_ID, "!server 5", &[MODS]),
        )
        .await;
        assert!(content(&r).contains("/server"), "{}", content(&r));
        assert!(!content(&r).contains(refused), "{}", content(&r));

        fake.dispatch(
            "GUILD_CREATE",
            fake.guild_create_with_roles(&[
                (MODS, MANAGE_GUILD),
                (ADMINS, ADMINISTRATOR),
                (PLAIN, 0),
            ]),
        )
        .await;
        // Manage Server by a role, Administrator by another, and the owner without any role.
        for (who, roles, days) in [
            (&alice, vec![PLAIN, MODS], "5"),
            (&dave, vec![ADMINS], "7"),
            (&owner, vec![], "3"),
        ] {
            let r = reply_to(
                &fake,
                fake.message_create_with_roles(who, CHANNEL_ID, &format!("!server {days}"), &roles),
            )
            .await;
            let text = content(&r);
            assert!(
                !text.starts_with('✗') && !text.contains(refused),
                "{} may change the settings: {text}",
                who.name
            );
        }
        // Neither a member without such a role, nor Alice once demoted (her message carries
        // only her remaining role), whatever serenity's member cache kept of her.
        for (who, roles) in [(&bob, vec![PLAIN]), (&alice, vec![PLAIN])] {
            let r = reply_to(
                &fake,
                fake.message_create_with_roles(who, CHANNEL_ID, "!server 10", &roles),
            )
            .await;
            assert!(
                content(&r).contains(refused),
                "{}: {}",
                who.name,
                content(&r)
            );
        }
        // Reading is anyone's.
        let r = reply_to(
            &fake,
            fake.message_create_with_roles(&bob, CHANNEL_ID, "!server", &[]),
        )
        .await;
        assert!(
            content(&r).contains('3'),
            "the owner's change stands: {}",
            content(&r)
        );
        assert_eq!(bot.terminate().code(), Some(0));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_typed_as_players_write_them_are_heard_and_chat_is_not() {
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let (alice, bob, carol, dave) = (
            user(1, "alice"),
            user(2, "bob"),
            user(3, "carol"),
            user(4, "dave"),
        );
        for u in [&alice, &bob, &carol, &dave] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path()).await;
        let thread = game_with_thread(&fake, &alice, &bob, "shogi").await;

        // Alice writes her moves in Japanese: autocomplete shows them so.
        let r = slash(
            &fake,
            CHANNEL_ID,
            &alice,
            "settings",
            json!([opt_str("notation", "japanese")]),
            &[],
        )
        .await;
        assert!(!content(&r).starts_with('✗'), "{}", content(&r));
        let (id, token, ev) =
            fake.autocomplete_in(thread, &alice, "move", json!([opt_focused("move", 3, "")]));
        fake.dispatch("INTERACTION_CREATE", ev).await;
        let ac = answer(&fake, id, &token).await;
        let choices = ac.json.as_ref().expect("body")["data"]["choices"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(!choices.is_empty());
        for c in &choices {
            let label = c["name"].as_str().expect("label");
            assert!(
                !label.is_ascii() && !label.contains("P-"),
                "a suggestion in Japanese notation: {label}"
            );
        }

        // Chat is left alone; moves in Japanese, with or without spaces, are played.
        let before = fake.call_count();
        for chat in ["gg", "nice move", "同じく"] {
            fake.dispatch("MESSAGE_CREATE", fake.message_create(&alice, thread, chat))
                .await;
        }
        let text = typed(&fake, thread, &alice, "７六歩").await;
        assert!(text.contains("７六歩") || text.contains("7f"), "{text}");
        assert_eq!(
            posts_since(&fake, before, thread).len(),
            1,
            "chat got no answer"
        );
        let text = typed(&fake, thread, &bob, "３四歩").await;
        assert!(text.contains("3d") || text.contains("３四歩"), "{text}");
        let text = typed(&fake, thread, &alice, "２二角成").await;
        assert!(text.contains("2b") || text.contains("２二角成"), "{text}");
        let text = typed(&fake, thread, &bob, "同　銀").await;
        assert!(text.contains("2b") || text.contains("同銀"), "{text}");
        // Read, but illegal: answered with the reason, as `/move` would.
        let text = typed(&fake, thread, &alice, "５五飛").await;
        assert!(text.starts_with('✗'), "{text}");

        // Shanghai: `h3` (a file letter that once was taken for a link).
        let thread = game_with_thread(&fake, &carol, &dave, "shanghai").await;
        let text = typed(&fake, thread, &carol, "h3").await;
        assert!(text.contains("h3"), "{text}");
        assert_eq!(bot.terminate().code(), Some(0));
    })
    .await;
}
