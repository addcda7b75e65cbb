//! Long work on Discord (issue 49, point 15): `/analysis` and `/replay` wait for a place of the
//! bot's long work on its runtime, told their place; a player's third is refused at once; one
//! still waiting when its interaction's token expires is dropped unanswered, and nobody else
//! waits meanwhile. The places are held by the test switch `TEGAMI_FAULT_LONG_PAUSED=1` (no
//! place is ever handed out), and the token's life is shortened by `TEGAMI_FAULT_TOKEN_LIFE_MS`:
//! every step is decided by the test, not by timing.

use std::sync::Arc;

use tegami::service::{parse_command, Config, Place, Request, Service, SystemClock, User};
use tegami::store::{Durability, SqliteStore};

use super::*;
use crate::fake_discord::GUILD_ID;

const LIMIT: Duration = Duration::from_secs(120);

/// A finished Shogi game of `a` against `b` in the bot's database, made through the core
/// before the bot starts; its notices marked delivered.
fn finished_game(db: &Path, a: &FakeUser, b: &FakeUser) -> i64 {
    let store = SqliteStore::open_with(db, Durability::Normal).expect("store");
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
    let run = |who: &FakeUser, line: &str| {
        let reply = service.handle(&Request {
            user: User::new(who.id.to_string(), who.name.clone()),
            place: place.clone(),
            command: parse_command(line).expect("a command"),
        });
        assert!(!reply.error, "{line}: {}", reply.text);
        reply
    };
    run(a, &format!("challenge <@{}> shogi black", b.id));
    let id = run(b, "accept").game.expect("the game begins").id;
    for (i, m) in ["7g7f", "3c3d", "2g2f", "8c8d"].iter().enumerate() {
        run(if i % 2 == 0 { a } else { b }, &format!("move {id} {m}"));
    }
    run(a, &format!("resign {id}"));
    rusqlite::Connection::open(db)
        .and_then(|c| {
            c.execute(
                "UPDATE outbox SET sent_at = created_at WHERE sent_at IS NULL",
                [],
            )
        })
        .expect("mark the notices sent");
    id
}

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
        let g1 = finished_game(&db, &alice, &bob);
        let g2 = finished_game(&db, &alice, &bob);
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
