//! Leagues on Discord (issue 22): `/league` and its sub-commands through the real bot and the
//! fake Discord. A 4-player round robin and a 6-player 3-round Swiss are played to the end by
//! scripted players (resignations, a draw, a game lost on time through the running bot's sweep,
//! a withdrawal); the standings and tie-breaks are checked against values worked out here, and
//! the standings picture is decoded (and kept for a look: `TEGAMI_PICTURES_OUT`).

use std::collections::HashMap;

use serde_json::json;

use super::*;
use crate::fake_discord::{opt_bool, opt_sub};

/// A `/league SUB` command with its options, answered.
async fn league(fake: &FakeDiscord, user: &FakeUser, sub: &str, options: Vec<Value>) -> Recorded {
    slash(
        fake,
        CHANNEL_ID,
        user,
        "league",
        json!([opt_sub(sub, options)]),
        &[],
    )
    .await
}

/// A pairing read off a round's post: `1. alice – bob: game #5`.
#[derive(Clone, Debug)]
struct Board {
    first: String,
    second: String,
    game: i64,
}

/// The games of a round's post (byes left out).
fn boards(post: &str) -> Vec<Board> {
    post.lines()
        .filter(|l| l.contains(": game #"))
        .map(|l| {
            let (names, game) = l.split_once(": game #").expect("a pairing line");
            let names = names.split_once(". ").map_or(names, |(_, n)| n);
            let (first, second) = names.split_once(" – ").expect("two names");
            Board {
                first: first.trim().to_string(),
                second: second.trim().to_string(),
                game: number_after(&format!("#{game}"), "#"),
            }
        })
        .collect()
}

/// Waits for the league's post saying round `round` begins, in `thread`.
async fn round_post(fake: &FakeDiscord, thread: u64, round: u32) -> String {
    let needle = format!("round {round} begins");
    let r = fake
        .wait_for(&format!("round {round}'s post"), STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.path == format!("/api/v10/channels/{thread}/messages")
                && c.content().is_some_and(|t| t.contains(&needle))
        })
        .await;
    content(&r)
}

/// `user` resigns game `game` (confirming).
async fn resign(fake: &FakeDiscord, user: &FakeUser, game: i64) {
    let ask = slash(
        fake,
        CHANNEL_ID,
        user,
        "resign",
        json!([opt_int("game", game)]),
        &[],
    )
    .await;
    let over = click(fake, user, &ask, "Confirm resignation").await;
    assert!(content(&over).contains("resigns"), "{}", content(&over));
}

/// `user` plays `mv` in `game`.
async fn play(fake: &FakeDiscord, user: &FakeUser, game: i64, mv: &str) {
    let r = slash(
        fake,
        CHANNEL_ID,
        user,
        "move",
        json!([opt_int("game", game), opt_str("move", mv)]),
        &[],
    )
    .await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
}

/// The bot's database, opened beside the running bot.
fn database(dir: &Path) -> rusqlite::Connection {
    let conn = rusqlite::Connection::open(dir.join("tegami.db")).expect("the database");
    conn.busy_timeout(Duration::from_secs(10))
        .expect("busy timeout");
    conn
}

/// Makes `game`'s deadline pass (as if its player had let the days go by): the running bot's
/// sweep ends it on time.
fn let_time_run_out(dir: &Path, game: i64) {
    let n = database(dir)
        .execute(
            "UPDATE games SET deadline = unixepoch() - 60 WHERE id = ?1",
            [game],
        )
        .expect("a deadline in the past");
    assert_eq!(n, 1);
}

/// The player to move first (Black) in a game: the first of its pairing.
fn to_move(dir: &Path, game: i64) -> String {
    database(dir)
        .query_row("SELECT to_move FROM games WHERE id = ?1", [game], |r| {
            r.get::<_, String>(0)
        })
        .expect("the game")
}

/// A bot with users, ready, its commands registered.
async fn league_bot(names: &[&str]) -> (tempfile::TempDir, FakeDiscord, Bot, Vec<FakeUser>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = write_config(dir.path());
    let fake = FakeDiscord::start().await;
    let users: Vec<FakeUser> = names
        .iter()
        .enumerate()
        .map(|(i, n)| FakeUser::new(2_000_000_000_000_000_400 + i as u64, n))
        .collect();
    for u in &users {
        fake.add_user(u);
    }
    let bot = Bot::start(&fake, dir.path(), &config, 1);
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    (dir, fake, bot, users)
}

/// Creates a league by `by` with `options`, checks its announcement and thread; the league's
/// number and thread.
async fn create(fake: &FakeDiscord, by: &FakeUser, options: Vec<Value>) -> (i64, u64) {
    let before = fake.calls().len();
    let r = league(fake, by, "create", options).await;
    let text = content(&r);
    assert!(!text.starts_with('✗'), "{text}");
    let id = number_after(&text, "League #");
    // Announced in the channel, and a thread made from the announcement.
    let announced = posted(fake, before, CHANNEL_ID, "the league's announcement").await;
    assert!(content(&announced).contains(&format!("League #{id}")));
    fake.wait_for_since(before, "the league's thread", STEP, |c| {
        c.ok() && c.method == "POST" && c.path.ends_with("/threads")
    })
    .await;
    let thread = fake
        .threads()
        .iter()
        .find(|t| {
            t["name"]
                .as_str()
                .is_some_and(|n| n.starts_with(&format!("League #{id}")))
        })
        .and_then(|t| t["id"].as_str().and_then(|s| s.parse().ok()))
        .expect("the league's thread");
    (id, thread)
}

/// Every user joins league `id`.
async fn join_all(fake: &FakeDiscord, users: &[FakeUser], id: i64) {
    for u in users {
        let r = league(fake, u, "join", vec![opt_int("league", id)]).await;
        assert!(content(&r).contains("joins league"), "{}", content(&r));
    }
}

/// `/league show`: its text and its standings picture (decoded, and kept in
/// `TEGAMI_PICTURES_OUT` when set).
async fn show(fake: &FakeDiscord, user: &FakeUser, id: i64, keep_as: &str) -> (String, u32) {
    let r = league(fake, user, "show", vec![opt_int("league", id)]).await;
    let f = r
        .files
        .iter()
        .find(|f| f.filename.ends_with("-standings.png"))
        .unwrap_or_else(|| panic!("no standings picture in {}", r.summary()));
    let img = image::load_from_memory_with_format(&f.bytes, image::ImageFormat::Png)
        .expect("the standings picture is a PNG");
    assert!(img.width() >= 300 && img.height() >= 100, "{img:?}");
    if let Ok(out) = std::env::var("TEGAMI_PICTURES_OUT") {
        for f in &r.files {
            let _ = std::fs::write(
                Path::new(&out).join(format!("{keep_as}-{}", f.filename)),
                &f.bytes,
            );
        }
    }
    (content(&r), img.height())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_of_four_is_played_to_the_end_on_discord() {
    let (dir, fake, _bot, users) = league_bot(&["alice", "bob", "carol", "dave"]).await;
    let by_name: HashMap<String, &FakeUser> = users.iter().map(|u| (u.name.clone(), u)).collect();
    let (alice, bob) = (&users[0], &users[1]);

    // `/league` is registered with its sub-commands and their options.
    let registered = fake.registered_commands();
    let cmd = registered
        .iter()
        .find(|c| c["name"] == "league")
        .expect("/league registered");
    let subs: Vec<&str> = cmd["options"]
        .as_array()
        .expect("sub-commands")
        .iter()
        .filter(|o| o["type"] == 1)
        .filter_map(|o| o["name"].as_str())
        .collect();
    assert_eq!(
        subs,
        ["create", "join", "leave", "start", "cancel", "list", "show", "pairings", "kick"]
    );

    // A mistake first: a Swiss without its rounds is refused, privately, and nothing is made.
    let r = league(
        &fake,
        alice,
        "create",
        vec![
            opt_str("name", "Spring"),
            opt_str("game", "shogi"),
            opt_str("format", "swiss"),
        ],
    )
    .await;
    assert_private_refusal(&fake, &r, "needs its number of rounds");

    let (id, thread) = create(
        &fake,
        alice,
        vec![
            opt_str("name", "Spring"),
            opt_str("game", "shogi"),
            opt_str("format", "round-robin"),
            opt_int("days", 3),
        ],
    )
    .await;
    join_all(&fake, &users, id).await;
    // Bob is no organiser.
    let r = league(&fake, bob, "start", vec![opt_int("league", id)]).await;
    assert_private_refusal(&fake, &r, "only the organiser");
    let r = league(&fake, alice, "start", vec![opt_int("league", id)]).await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));

    // The results, by pairing: Alice beats everyone, Bob beats Carol, Bob and Dave draw, Dave
    // loses to Carol on time. So Alice 3, Bob 1½, Carol 1, Dave ½; Sonneborn-Berger: Alice
    // 1½ + 1 + ½ = 3, Bob 1 + ½·½ = 1¼, Carol ½, Dave ½·1½ = ¾.
    let winner = |a: &str, b: &str| -> Option<String> {
        let mut p = [a, b];
        p.sort();
        match p {
            ["alice", _] => Some("alice".into()),
            ["bob", "carol"] => Some("bob".into()),
            ["bob", "dave"] => None,
            ["carol", "dave"] => Some("carol".into()),
            other => panic!("no such pairing {other:?}"),
        }
    };
    for round in 1..=3 {
        let post = round_post(&fake, thread, round).await;
        let games = boards(&post);
        assert_eq!(games.len(), 2, "two games a round: {post}");
        for b in &games {
            let (first, second) = (by_name[&b.first], by_name[&b.second]);
            // Both players are pinged in the league's thread.
            for u in [first, second] {
                fake.wait_for(&format!("{} told of game #{}", u.name, b.game), STEP, |c| {
                    c.ok()
                        && c.path == format!("/api/v10/channels/{thread}/messages")
                        && c.content().is_some_and(|t| {
                            t.contains(&u.mention()) && t.contains(&format!("#{}", b.game))
                        })
                })
                .await;
            }
            assert_eq!(to_move(dir.path(), b.game), first.id.to_string());
            match winner(&b.first, &b.second) {
                None => {
                    let offer = slash(
                        &fake,
                        CHANNEL_ID,
                        first,
                        "draw",
                        json!([opt_str("action", "offer"), opt_int("game", b.game)]),
                        &[],
                    )
                    .await;
                    assert!(!content(&offer).starts_with('✗'), "{}", content(&offer));
                    let agreed = slash(
                        &fake,
                        CHANNEL_ID,
                        second,
                        "draw",
                        json!([opt_str("action", "accept"), opt_int("game", b.game)]),
                        &[],
                    )
                    .await;
                    assert!(!content(&agreed).starts_with('✗'), "{}", content(&agreed));
                }
                Some(w) if w == "carol" => {
                    // Dave loses on time: it must be his move when the days run out.
                    if b.first == "carol" {
                        play(&fake, first, b.game, "7g7f").await;
                    }
                    let_time_run_out(dir.path(), b.game);
                }
                Some(w) => {
                    let loser = if w == b.first { second } else { first };
                    resign(&fake, loser, b.game).await;
                }
            }
        }
    }
    // The end, announced in the league's thread with the winner.
    let end = fake
        .wait_for("the league's end", STEP, |c| {
            c.ok()
                && c.path == format!("/api/v10/channels/{thread}/messages")
                && c.content().is_some_and(|t| t.contains("is over. Winner"))
        })
        .await;
    assert!(content(&end).contains("Winner: alice"), "{}", content(&end));
    assert!(
        end.files
            .iter()
            .any(|f| f.filename.ends_with("-standings.png"))
            && end
                .files
                .iter()
                .any(|f| f.filename.ends_with("-crosstable.png")),
        "the end comes with the standings and the crosstable: {}",
        end.summary()
    );

    let (text, _) = show(&fake, bob, id, "round-robin").await;
    for line in [
        "1. alice — 3 (3 played: +3 =0 -0); SB 3",
        "2. bob — 1½ (3 played: +1 =1 -1); SB 1¼",
        "3. carol — 1 (3 played: +1 =0 -2); SB ½",
        "4. dave — ½ (3 played: +0 =1 -2); SB ¾",
    ] {
        assert!(text.contains(line), "{line:?} in {text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_of_six_is_played_to_the_end_on_discord() {
    let names = ["p1", "p2", "p3", "p4", "p5", "p6"];
    let (dir, fake, _bot, users) = league_bot(&names).await;
    let by_name: HashMap<String, &FakeUser> = users.iter().map(|u| (u.name.clone(), u)).collect();
    let rank = |n: &str| names.iter().position(|x| *x == n).expect("a player");
    let (id, thread) = create(
        &fake,
        &users[0],
        vec![
            opt_str("name", "Autumn Swiss"),
            opt_str("game", "judkins"),
            opt_str("format", "swiss"),
            opt_int("rounds", 3),
            opt_bool("rated", true),
        ],
    )
    .await;
    join_all(&fake, &users, id).await;
    let r = league(&fake, &users[0], "start", vec![opt_int("league", id)]).await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));

    // Results: the player who joined first wins; in round 1 one loser runs out of time (the
    // sweep), and in round 2 p6 withdraws (their game that round is lost by forfeit, and they
    // are not paired again). Points and Buchholz are worked out here from the pairings seen.
    let mut points2: HashMap<String, u32> = HashMap::new();
    let mut met: HashMap<String, Vec<String>> = HashMap::new();
    let mut timed_out = false;
    for round in 1..=3u32 {
        let post = round_post(&fake, thread, round).await;
        let games = boards(&post);
        let paired: Vec<String> = games
            .iter()
            .flat_map(|b| [b.first.clone(), b.second.clone()])
            .collect();
        if round == 3 {
            assert!(!paired.contains(&"p6".to_string()), "p6 left: {post}");
            // Five players: one bye, worth a point.
            let bye: Vec<&str> = names
                .iter()
                .copied()
                .filter(|n| *n != "p6" && !paired.contains(&n.to_string()))
                .collect();
            assert_eq!(bye.len(), 1, "{post}");
            *points2.entry(bye[0].to_string()).or_default() += 2;
        } else {
            assert_eq!(paired.len(), 6, "everyone plays: {post}");
        }
        for b in &games {
            let (first, second) = (by_name[&b.first], by_name[&b.second]);
            met.entry(b.first.clone())
                .or_default()
                .push(b.second.clone());
            met.entry(b.second.clone())
                .or_default()
                .push(b.first.clone());
            let (w, l) = if rank(&b.first) < rank(&b.second) {
                (first, second)
            } else {
                (second, first)
            };
            *points2.entry(w.name.clone()).or_default() += 2;
            if round == 2 && l.name == "p6" {
                let r = league(&fake, l, "leave", vec![opt_int("league", id)]).await;
                assert!(content(&r).contains("withdraws"), "{}", content(&r));
            } else if round == 2 && w.name == "p6" {
                panic!("p6 wins nothing: {post}");
            } else if !timed_out && round == 1 {
                // The loser runs out of time: on their move (the winner opens if Black).
                if to_move(dir.path(), b.game) == w.id.to_string() {
                    let g = legal_after(tegami::engine::VariantId::Judkins, &[]);
                    let m = g.legal_moves()[0];
                    let code = tegami::engine::notation::human(g.position(), m);
                    play(&fake, w, b.game, &code).await;
                }
                assert_eq!(to_move(dir.path(), b.game), l.id.to_string());
                timed_out = true;
                let_time_run_out(dir.path(), b.game);
            } else {
                resign(&fake, l, b.game).await;
            }
        }
    }
    let end = fake
        .wait_for("the league's end", STEP, |c| {
            c.ok()
                && c.path == format!("/api/v10/channels/{thread}/messages")
                && c.content().is_some_and(|t| t.contains("is over. Winner"))
        })
        .await;
    assert!(content(&end).contains("Winner: p1"), "{}", content(&end));

    let (text, _) = show(&fake, &users[3], id, "swiss").await;
    let shown = |p: u32| {
        let (n, half) = (p / 2, p % 2 == 1);
        match (n, half) {
            (0, true) => "½".to_string(),
            (n, true) => format!("{n}½"),
            (n, false) => n.to_string(),
        }
    };
    for n in names {
        let p = points2.get(n).copied().unwrap_or(0);
        let buchholz: u32 = met
            .get(n)
            .into_iter()
            .flatten()
            .map(|o| points2.get(o).copied().unwrap_or(0))
            .sum();
        let line = text
            .lines()
            .find(|l| l.contains(&format!(". {n} — ")))
            .unwrap_or_else(|| panic!("{n} in the standings: {text}"));
        assert!(
            line.contains(&format!("— {} (", shown(p))),
            "{n}: {} points in {line:?}",
            shown(p)
        );
        assert!(
            line.contains(&format!("Buchholz {}", shown(buchholz))),
            "{n}: Buchholz {} in {line:?}",
            shown(buchholz)
        );
    }
    // p6 withdrew: listed last, marked.
    let last = text.lines().rfind(|l| l.contains(" — ")).expect("rows");
    assert!(last.contains("p6"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_league_thread_sends_the_league_back_to_its_channel() {
    let (_dir, fake, _bot, users) = league_bot(&["alice", "bob", "carol"]).await;
    let (id, thread) = create(
        &fake,
        &users[0],
        vec![
            opt_str("name", "Winter"),
            opt_str("game", "cannon"),
            opt_str("format", "double-round-robin"),
        ],
    )
    .await;
    join_all(&fake, &users, id).await;
    // A moderator deletes the league's thread before the start.
    fake.delete_channel(thread);
    let before = fake.calls().len();
    let r = league(&fake, &users[0], "start", vec![opt_int("league", id)]).await;
    assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    // The round's post lands in the league's channel, which gets a new thread from it.
    let post = posted(&fake, before, CHANNEL_ID, "the round's post in the channel").await;
    assert!(
        content(&post).contains("round 1 begins"),
        "{}",
        content(&post)
    );
    let renewed = fake
        .wait_for_since(before, "a new league thread", STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.path.ends_with("/threads")
                && c.json.as_ref().is_some_and(|j| {
                    j["name"]
                        .as_str()
                        .is_some_and(|n| n.starts_with("League #"))
                })
        })
        .await;
    assert!(renewed.ok());
    // The two players of the first game, pinged in the gone thread, are told another way
    // (a direct message): nothing is lost.
    let games = boards(&content(&post));
    assert_eq!(games.len(), 1, "{}", content(&post));
    for name in [&games[0].first, &games[0].second] {
        let u = users.iter().find(|u| &u.name == name).expect("a player");
        fake.wait_for_since(before, &format!("{name} told of the game"), STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.path.ends_with("/messages")
                && !c.path.contains(&thread.to_string())
                && c.content()
                    .is_some_and(|t| t.contains(&format!("your game #{}", games[0].game)))
                && (c.content().is_some_and(|t| t.contains(&u.mention()))
                    || fake
                        .dm_channel_of(u.id)
                        .is_some_and(|dm| c.path.contains(&dm.to_string())))
        })
        .await;
    }
}
