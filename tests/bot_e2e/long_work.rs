//! Long work on Discord (issue 49, point 15): `/analysis` and `/replay` wait for a place of the
//! bot's long work on its runtime, told their place; a player's third is refused at once; one
//! still waiting when its interaction's token expires is dropped unanswered, and nobody else
//! waits meanwhile. The places are held by the test switch `TEGAMI_FAULT_LONG_PAUSED=1` (no
//! place is ever handed out), and the token's life is shortened by `TEGAMI_FAULT_TOKEN_LIFE_MS`:
//! every step is decided by the test, not by timing.

use super::hardening::Stored;
use super::*;

const LIMIT: Duration = Duration::from_secs(120);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_requests_wait_in_a_bounded_queue_and_expire_unanswered() {
    tokio::time::timeout(LIMIT, async {
        let dir = tempfile::tempdir().expect("temp dir");
        let config = write_config(dir.path());
        let fake = FakeDiscord::start().await;
        let alice = FakeUser::new(2_000_000_000_000_049_001, "alice");
        let bob = FakeUser::new(2_000_000_000_000_049_002, "bob");
        fake.add_user(&alice);
        fake.add_user(&bob);
        let db = dir.path().join("tegami.db");
        // Two finished games, stored before the bot starts, their notices delivered long ago.
        let (g1, g2) = {
            let stored = Stored::open(dir.path());
            let games = (
                stored.game(&alice, &bob, 4, true),
                stored.game(&alice, &bob, 4, true),
            );
            stored.told();
            games
        };
        // Tokens good for 6 s: the queued requests outlive them.
        let bot = Bot::start_with(
            &fake,
            dir.path(),
            &config,
            "1",
            &["--db".as_ref(), db.as_os_str()],
            &[
                ("TEGAMI_FAULT_LONG_PAUSED", "1"),
                ("TEGAMI_FAULT_TOKEN_LIFE_MS", "6000"),
            ],
        );
        fake.wait_ready(STEP).await;
        fake.wait_for("command registration", STEP, |c| {
            c.method == "PUT" && c.path.ends_with("/commands")
        })
        .await;

        // Alice's two requests wait, each told its place in its deferred message.
        let mut waiting = Vec::new();
        for (n, (name, game)) in [("analysis", g1), ("replay", g2)].into_iter().enumerate() {
            let (id, token, ev) =
                fake.slash_command(&alice, name, json!([opt_int("game", game)]), &[]);
            fake.dispatch("INTERACTION_CREATE", ev).await;
            let edit = format!("/api/v10/webhooks/{APP_ID}/{token}/messages/@original");
            let told = fake
                .wait_for(&format!("the {name}'s place"), STEP, |c| {
                    c.method == "PATCH" && c.path == edit
                })
                .await;
            let text = content(&told);
            assert!(
                text.contains(&format!("game #{game} is queued: position {}.", n + 1)),
                "{text}"
            );
            waiting.push((id, token));
        }
        // A third is refused at once, privately, and says why.
        let third = slash(
            &fake,
            CHANNEL_ID,
            &alice,
            "analysis",
            json!([opt_int("game", g2)]),
            &[],
        )
        .await;
        assert_eq!(
            content(&third),
            "✗ you already have 2 analyses or replays waiting or running: ask again once they are done"
        );
        assert!(is_ephemeral(&third));
        // Nobody else waits for them: bob's board comes at once.
        let board = slash(
            &fake,
            CHANNEL_ID,
            &bob,
            "board",
            json!([opt_int("game", g1)]),
            &[],
        )
        .await;
        assert!(content(&board).contains(&format!("#{g1}")), "{}", content(&board));
        // Their tokens expire: both leave the queue, unanswered.
        let deadline = Instant::now() + STEP;
        while bot.log_text().matches("dropped unanswered").count() < 2 {
            assert!(Instant::now() < deadline, "the expired requests were not dropped");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        for (_, token) in &waiting {
            let hook = format!("/api/v10/webhooks/{APP_ID}/{token}");
            assert!(
                !fake
                    .calls()
                    .iter()
                    .any(|c| c.method == "POST" && c.path == hook),
                "an expired request was answered"
            );
        }
        // Their places are free again: alice may ask anew (and waits, told position 1).
        let (_, token, ev) = fake.slash_command(&alice, "analysis", json!([opt_int("game", g1)]), &[]);
        fake.dispatch("INTERACTION_CREATE", ev).await;
        let edit = format!("/api/v10/webhooks/{APP_ID}/{token}/messages/@original");
        let told = fake
            .wait_for("the new request's place", STEP, |c| {
                c.method == "PATCH" && c.path == edit
            })
            .await;
        assert!(content(&told).contains("position 1."), "{}", content(&told));
    })
    .await
    .expect("the test did not finish within its time limit");
}
