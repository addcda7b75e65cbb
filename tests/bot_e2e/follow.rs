//! Followers and the daily list on Discord (issue 23), the real bot against the fake: a
//! follower in the thread is added to the game's thread (a thread member, no message, no
//! ping); a follower by digest and a player on a digest, in two other time zones, get nothing
//! per move and their digests at their own hour (08:00 in Tokyo, 18:00 in New York: both
//! 23:00 UTC in November), not before and once. The bot's clock is set with the test switch
//! `TEGAMI_FAULT_CLOCK`: a first run at 22:00 UTC (the hour not come), then, after a restart,
//! 23:00 UTC.

use serde_json::json;

use super::*;
use tegami::service::FAULT_CLOCK;

/// The bot at `clock` (RFC 3339) on the test's database, ready and registered.
async fn bot_at(fake: &FakeDiscord, dir: &Path, config: &Path, name: &str, clock: &str) -> Bot {
    let db = dir.join("tegami.db");
    let before = fake.call_count();
    let bot = Bot::start_with(
        fake,
        dir,
        config,
        name,
        &["--db".as_ref(), db.as_os_str()],
        &[(FAULT_CLOCK, clock)],
    );
    fake.wait_for_since(before, "command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    bot
}

/// The digests (direct messages listing games) the bot sent `user`.
fn digests_to(fake: &FakeDiscord, user: &FakeUser) -> Vec<Recorded> {
    let Some(dm) = fake.dm_channel_of(user.id) else {
        return Vec::new();
    };
    fake.calls()
        .into_iter()
        .filter(|c| {
            c.ok() && c.method == "POST" && c.path == format!("/api/v10/channels/{dm}/messages")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn followers_join_the_thread_and_digests_come_at_each_players_hour() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = write_config(dir.path());
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_701, "alice");
    let bob = FakeUser::new(2_000_000_000_000_000_702, "bob");
    let carol = FakeUser::new(2_000_000_000_000_000_703, "carol");
    let dave = FakeUser::new(2_000_000_000_000_000_704, "dave");
    for u in [&alice, &bob, &carol, &dave] {
        fake.add_user(u);
    }

    // First run: 22:00 UTC, 07:00 in Tokyo, 17:00 in New York.
    let mut bot = bot_at(&fake, dir.path(), &config, "1", "2026-11-25T22:00:00Z").await;
    let made = fake.call_count();
    let game = super::reminders::start_game(&fake, &alice, &bob, 3).await;
    let created = fake
        .wait_for_since(made, "the game's thread", STEP, |c| {
            c.ok() && c.method == "POST" && c.path.ends_with("/threads")
        })
        .await;
    let thread: u64 = created.response.as_ref().expect("the thread")["id"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .expect("a thread id");

    // Carol follows in the thread: made a member of it, nothing posted, nobody pinged.
    let before = fake.call_count();
    let r = slash(
        &fake,
        CHANNEL_ID,
        &carol,
        "follow",
        json!([opt_int("game", game)]),
        &[],
    )
    .await;
    assert!(is_ephemeral(&r), "following is private: {}", r.summary());
    assert!(
        content(&r).starts_with(&format!("You follow #{game} alice vs bob (Shogi)")),
        "{}",
        content(&r)
    );
    let put = fake
        .wait_for_since(before, "Carol added to the thread", STEP, |c| {
            c.method == "PUT"
                && c.path == format!("/api/v10/channels/{thread}/thread-members/{}", carol.id)
        })
        .await;
    assert_eq!(put.status, 204, "{}", put.summary());
    assert_eq!(fake.thread_members(thread), vec![carol.id]);
    assert!(
        fake.calls_since(before).iter().all(|c| c.method != "POST"
            || c.path.contains("/interactions/")
            || c.path.contains("/webhooks/")),
        "following posts nothing: {}",
        fake.dump_calls(10)
    );
    // A player need not follow; the refusal is private.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &bob,
        "follow",
        json!([opt_int("game", game)]),
        &[],
    )
    .await;
    assert_private_refusal(&fake, &r, "you play in game");

    // Dave follows by digest, at 08:00 in Tokyo (the zone autocompleted).
    let (id, token, ev) = fake.autocomplete_in(
        CHANNEL_ID,
        &dave,
        "settings",
        json!([opt_focused("timezone", 3, "tok")]),
    );
    fake.dispatch("INTERACTION_CREATE", ev).await;
    let ac = answer(&fake, id, &token).await;
    let first = ac.json.as_ref().expect("body")["data"]["choices"][0]["value"].clone();
    assert_eq!(first, json!("Asia/Tokyo"), "{:?}", ac.json);
    let r = slash(
        &fake,
        CHANNEL_ID,
        &dave,
        "follow",
        json!([opt_int("game", game), opt_str("notify", "digest")]),
        &[],
    )
    .await;
    assert!(
        content(&r).contains("in your daily digest"),
        "{}",
        content(&r)
    );
    let r = slash(
        &fake,
        CHANNEL_ID,
        &dave,
        "settings",
        json!([opt_int("digest_hour", 8), opt_str("timezone", "Asia/Tokyo")]),
        &[],
    )
    .await;
    assert!(
        content(&r).contains("digest_hour=8 (08:00 in your time zone), timezone=Asia/Tokyo"),
        "{}",
        content(&r)
    );
    // An unknown zone: refused, privately.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &dave,
        "settings",
        json!([opt_str("timezone", "Mars/Olympus")]),
        &[],
    )
    .await;
    assert_private_refusal(&fake, &r, "is no time zone");
    // Alice on a daily digest at 18:00 in New York.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "settings",
        json!([
            opt_str("notify", "digest"),
            opt_int("digest_hour", 18),
            opt_str("timezone", "America/New_York")
        ]),
        &[],
    )
    .await;
    assert!(
        content(&r).contains("timezone=America/New_York"),
        "{}",
        content(&r)
    );

    // Two moves: nobody hears of them but in the thread.
    for (who, m) in [(&alice, "7g7f"), (&bob, "3c3d")] {
        let r = slash(
            &fake,
            CHANNEL_ID,
            who,
            "move",
            json!([opt_int("game", game), opt_str("move", m)]),
            &[],
        )
        .await;
        assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    }
    // Sweeps before the hour (every second): no digest.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert!(
        digests_to(&fake, &dave).is_empty(),
        "not before 08:00 in Tokyo"
    );
    assert!(
        digests_to(&fake, &alice).is_empty(),
        "not before 18:00 in New York"
    );
    assert_eq!(bot.terminate().code(), Some(0));

    // After a restart, the clock reads 23:00 UTC: 08:00 in Tokyo, 18:00 in New York.
    let mut bot = bot_at(&fake, dir.path(), &config, "2", "2026-11-25T23:00:05Z").await;
    let dave_digest = fake
        .wait_for("Dave's digest", STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.content().is_some_and(|t| t.contains("Games you follow:"))
        })
        .await;
    assert_eq!(digests_to(&fake, &dave).len(), 1, "by direct message");
    let text = content(&dave_digest);
    assert!(
        text.starts_with(&format!(
            "no game waits for your move.\nGames you follow:\n• #{game} alice vs bob (Shogi): \
             2 moves since your last digest: 1. P-7f 1… P-3d. alice (black) to move, by \
             2026-11-29 07:0"
        )),
        "{text}"
    );
    assert!(text.contains(" JST."), "in Dave's zone: {text}");
    assert!(
        text.ends_with(&format!("<#{thread}>")),
        "a link to the thread: {text}"
    );
    assert!(pinged(&dave_digest).is_empty(), "a digest pings nobody");
    let alice_digest = fake
        .wait_for("Alice's digest", STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.content().is_some_and(|t| t.starts_with("your turn in"))
        })
        .await;
    assert_eq!(digests_to(&fake, &alice).len(), 1, "by direct message");
    let text = content(&alice_digest);
    assert!(
        text.starts_with(&format!(
            "your turn in 1 game: #{game}\nYour move:\n• #{game} Shogi vs bob — your move, 2d \
             23h left (by 2026-11-28 17:0"
        )),
        "{text}"
    );
    assert!(
        text.contains(" EST) <#"),
        "in Alice's zone, with the link: {text}"
    );
    // More sweeps: once a local day.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(digests_to(&fake, &dave).len(), 1);
    assert_eq!(digests_to(&fake, &alice).len(), 1);
    // Carol's thread membership was not asked again: she is in it already.
    let puts = fake
        .calls()
        .iter()
        .filter(|c| c.method == "PUT" && c.path.contains("/thread-members/"))
        .count();
    assert_eq!(puts, 1);

    // Carol stops following: taken out of the thread.
    let before = fake.call_count();
    let r = slash(
        &fake,
        CHANNEL_ID,
        &carol,
        "unfollow",
        json!([opt_int("game", game)]),
        &[],
    )
    .await;
    assert_eq!(content(&r), format!("You no longer follow game #{game}."));
    fake.wait_for_since(before, "Carol taken out of the thread", STEP, |c| {
        c.method == "DELETE"
            && c.path == format!("/api/v10/channels/{thread}/thread-members/{}", carol.id)
    })
    .await;
    assert!(fake.thread_members(thread).is_empty());
    fake.assert_no_unknown_routes();
    assert_eq!(bot.terminate().code(), Some(0));
}
