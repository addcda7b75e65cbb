//! Conditional moves on Discord (issue 23): `/conditional add` privately, then the opponent's
//! `/move`: the answer is played by the bot as part of that move's handling (posted right after
//! the move's own announcement, with its board, saying it was a conditional move), the move's
//! announcement says the answer and who is to move now (issue 49), nobody is pinged for a turn
//! already over, and the lines are private throughout.

use std::time::Instant;

use serde_json::json;

use super::*;
use crate::fake_discord::opt_sub;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_conditional_answer_is_played_with_the_opponents_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = write_config(dir.path());
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_501, "alice");
    let bob = FakeUser::new(2_000_000_000_000_000_502, "bob");
    for u in [&alice, &bob] {
        fake.add_user(u);
    }
    let _bot = Bot::start(&fake, dir.path(), &config, 1);
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    let conditional = fake
        .registered_commands()
        .into_iter()
        .find(|c| c["name"] == "conditional")
        .expect("/conditional registered");
    let subs: Vec<String> = conditional["options"]
        .as_array()
        .expect("sub-commands")
        .iter()
        .filter_map(|o| o["name"].as_str().map(str::to_string))
        .collect();
    assert_eq!(subs, ["add", "list", "clear"]);

    // A game: Alice (black) opens.
    let game = super::reminders::start_game(&fake, &alice, &bob, 3).await;
    let mv = |user: &FakeUser, m: &str| {
        let (user, m) = (user.clone(), m.to_string());
        let fake = &fake;
        async move {
            slash(
                fake,
                CHANNEL_ID,
                &user,
                "move",
                json!([opt_int("game", game), opt_str("move", &m)]),
                &[],
            )
            .await
        }
    };
    let r = mv(&alice, "7g7f").await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));

    // Alice's line, shown to her only.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "conditional",
        json!([opt_sub(
            "add",
            vec![opt_str("line", "3c3d 2g2f"), opt_int("game", game)]
        )]),
        &[],
    )
    .await;
    assert!(is_ephemeral(&r), "a line is private: {}", r.summary());
    assert!(
        content(&r).contains("Conditional line saved"),
        "{}",
        content(&r)
    );
    // A mistake: an illegal second move, refused privately with its place in the line.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "conditional",
        json!([opt_sub(
            "add",
            vec![opt_str("line", "8c8d 5i5g"), opt_int("game", game)]
        )]),
        &[],
    )
    .await;
    assert_private_refusal(&fake, &r, "Move 2 of the line (5i5g)");

    // Bob plays the expected move: Alice's answer follows at once in the game's thread.
    let before = fake.calls().len();
    let sent = Instant::now();
    let r = mv(&bob, "3c3d").await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    let answer = fake
        .wait_for_since(before, "the conditional answer", STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.path.ends_with("/messages")
                && c.content()
                    .is_some_and(|t| t.contains("(a conditional move)") && t.contains("P-2f"))
        })
        .await;
    eprintln!(
        "conditional answer posted {} ms after Bob's move was sent",
        sent.elapsed().as_millis()
    );
    // Posted after Bob's own announcement, with the board after the answer, pinging Bob.
    let calls = fake.calls_since(before);
    let bobs = calls
        .iter()
        .position(|c| {
            c.ok() && c.method == "POST" && c.content().is_some_and(|t| t.contains("bob plays"))
        })
        .expect("Bob's move announced");
    let alices = calls
        .iter()
        .position(|c| c.content() == answer.content())
        .expect("the answer");
    assert!(bobs < alices, "Bob's move first, then the answer");
    // Bob's announcement says what happened (issue 49): his move, the answer made at once,
    // and that he is to move again; Alice, whose turn is already over, is pinged by nothing.
    let bobs_post = &calls[bobs];
    let said = content(bobs_post);
    assert!(
        said.contains("alice answers at once with a conditional move: 2. P-2f."),
        "{said}"
    );
    assert!(said.contains("bob (white) to move"), "{said}");
    assert!(!said.contains("alice (black) to move"), "{said}");
    assert!(!said.contains(&alice.mention()), "{said}");
    for c in calls.iter().filter(|c| {
        c.ok() && c.method == "POST" && c.path.ends_with("/messages") && c.json.is_some()
    }) {
        assert!(
            !pinged(c).contains(&alice.id) && !content(c).contains(&alice.mention()),
            "Alice pinged for a turn already over: {}",
            c.summary()
        );
    }
    assert!(
        answer
            .files
            .iter()
            .any(|f| f.filename == format!("game-{game}-move-3.png")),
        "{}",
        answer.summary()
    );
    assert!(
        pinged(&answer).contains(&bob.id)
            || calls.iter().any(|c| c
                .content()
                .is_some_and(|t| t.contains(&bob.mention()) && t.contains("P-2f")))
    );
    // The line is used up.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "conditional",
        json!([opt_sub("list", vec![opt_int("game", game)])]),
        &[],
    )
    .await;
    assert!(
        content(&r).contains("no conditional lines"),
        "{}",
        content(&r)
    );
}

/// Issue 49, point 19, when the mover's announcement is posted late: Discord answers it with a
/// 500, so the delivery loop posts the stored announcement later. That stored text says what
/// the conditional answer made of the move (Bob to move again, with the board after the
/// answer), as the reply would have: not the turn the answer already ended, and Alice is
/// pinged by nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_announcement_of_an_answered_move_says_what_the_answer_made_of_it() {
    use super::hardening::{
        bounded, game_with_thread, has_png, outbox_drained, play, posted_in, started, RETRIED,
    };
    bounded(async {
        let dir = tempfile::tempdir().expect("temp dir");
        let fake = FakeDiscord::start().await;
        let alice = FakeUser::new(2_000_000_000_000_000_511, "alice");
        let bob = FakeUser::new(2_000_000_000_000_000_512, "bob");
        for u in [&alice, &bob] {
            fake.add_user(u);
        }
        let mut bot = started(&fake, dir.path(), "late-answered", &[]).await;
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

        // Bob's move: its announcement (the first post in the thread) is refused with a 500.
        fake.fail_next("POST", &format!("/channels/{thread}/messages"), 500);
        let before = fake.call_count();
        let r = play(&fake, CHANNEL_ID, &bob, "P-3d").await;
        assert!(
            content(&r).contains("Discord did not take"),
            "Bob is told his move is announced later: {}",
            content(&r)
        );
        let late = fake
            .wait_for_since(before, "Bob's move announced late", RETRIED, |c| {
                posted_in(c, thread) && content(c).contains("bob plays")
            })
            .await;
        assert!(
            fake.calls_since(before)
                .iter()
                .any(|c| c.injected && c.status == 500 && content(c).contains("bob plays")),
            "the 500 was served to Bob's announcement first: {}",
            fake.dump_calls(before)
        );
        let said = content(&late);
        assert!(
            said.contains("alice answers at once with a conditional move: 2. P-2f."),
            "the late announcement says the answer: {said}"
        );
        assert!(said.contains("bob (white) to move"), "{said}");
        assert!(!said.contains("alice (black) to move"), "{said}");
        assert!(
            !pinged(&late).contains(&alice.id) && !said.contains(&alice.mention()),
            "Alice is not pinged for a turn already over: {}",
            late.summary()
        );
        assert!(has_png(&late), "with its board: {}", late.summary());
        // A live board posted late carries the game's buttons too, Move first (issue 50).
        assert!(
            button(&late, "Move").contains("pick "),
            "{}",
            late.summary()
        );
        assert!(
            late.files.iter().any(|f| f.filename.contains("move-3")),
            "the board after the answer (move 3): {}",
            late.summary()
        );
        // The answer itself is announced once, and nothing is left in the outbox.
        outbox_drained(dir.path(), RETRIED).await;
        let calls = fake.calls_since(before);
        for what in ["bob plays", "(a conditional move)"] {
            let n = calls
                .iter()
                .filter(|c| posted_in(c, thread) && content(c).contains(what))
                .count();
            assert_eq!(n, 1, "{what:?} posted once: {}", fake.dump_calls(before));
        }
        for c in calls.iter().filter(|c| c.ok() && c.method == "POST") {
            assert!(
                !c.path.ends_with("/messages")
                    || c.json.is_none()
                    || !pinged(c).contains(&alice.id),
                "Alice pinged: {}",
                c.summary()
            );
        }
        assert_eq!(bot.terminate().code(), Some(0));
        fake.assert_no_unknown_routes();
    })
    .await;
}
