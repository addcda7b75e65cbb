//! The move picker on Discord (issue 50): a whole game of each of the five games played only
//! by pointing (the board's Move button, the picker's select menus, its promotion buttons and
//! its Play button), then what must not work: a picker older than the position, Move pressed
//! by someone who is not to move, a picker touched after it expired.

use serde_json::{json, Value};
use tegami::engine::notation::{code, input::parse_move};
use tegami::engine::{Game, Position, VariantId};
use tegami::service::picker::{leaves, PickAct, PickId};

use super::*;
use crate::fake_discord::opt_int;

/// Short games found by the engine (seeded random play that takes a mate when it sees one):
/// each ends in checkmate. The Shogi game promotes (5e2b+, a choice) and drops (B*4a, G*6c);
/// Palace Shogi's promotes too (8h2b+); Judkins' rook promotes as it mates (1f1b+).
const GAMES: [(&str, VariantId, &str); 5] = [
    ("judkins", VariantId::Judkins, "3f2d 2a3b 1f1b+"),
    ("cannon", VariantId::Cannon, "6h9h 3c3d 9h5h"),
    (
        "shanghai",
        VariantId::Shanghai,
        "c2b4 e7e6 b4c6 c8d6 c6e7 h7h6 e7g8",
    ),
    (
        "palace",
        VariantId::Palace,
        "4i4h 9c9d 7g7e 3c3e 8h2b+ 2a3c 2b2c 7a6b 2c3c",
    ),
    (
        "shogi",
        VariantId::Shogi,
        "4i5h 9c9d 7i6h 4a5b 1g1f 3c3d 7g7f 8b7b 8h5e 3a3b 5e2b+ 6c6d B*4a 5c5d 2b3c 5b4b 3g3f 1c1d 3c4b 5a6b G*6c",
    ),
];

/// The test's config: a player here points at moves faster than any person (5 clicks a move,
/// many moves a second), so the per-user limit is raised.
fn picker_config(dir: &std::path::Path) -> std::path::PathBuf {
    let path = write_config(dir);
    let text = std::fs::read_to_string(&path).expect("config");
    let raised = text.replace("commands_per_10s = 8", "commands_per_10s = 1000");
    assert_ne!(raised, text, "the example config has commands_per_10s");
    std::fs::write(&path, raised).expect("config");
    path
}

/// The components of `kind` (2: button, 3: string select) of a message.
fn components(message: &Value, kind: u64) -> Vec<Value> {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["type"] == kind)
        .collect()
}

fn button_labelled(message: &Value, label: &str) -> Option<String> {
    components(message, 2)
        .into_iter()
        .find(|b| b["label"] == label)
        .and_then(|b| b["custom_id"].as_str().map(str::to_string))
}

/// Waits for the bot's in-place update (type 7) of the message a click was on, or its
/// private refusal (type 4), and returns the message as it is now.
async fn updated(fake: &FakeDiscord, iid: u64, token: &str) -> (Recorded, Value) {
    let callback = format!("/api/v10/interactions/{iid}/{token}/callback");
    let r = fake
        .wait_for(&format!("the picker's update {iid}"), STEP, |c| {
            c.method == "POST"
                && c.path == callback
                && c.json
                    .as_ref()
                    .is_some_and(|j| j["type"] == 7 || j["type"] == 4)
        })
        .await;
    assert!(r.ok(), "{}", r.summary());
    let m = r.message().cloned().expect("the message");
    (r, m)
}

/// Presses Move on `board` and returns the picker (a private message), or the refusal.
async fn press_move(fake: &FakeDiscord, user: &FakeUser, board: &Value) -> Recorded {
    let id = button_labelled(board, "Move").expect("a Move button on the board");
    let (iid, token, event) = fake.button_click(user, &id, board);
    fake.dispatch("INTERACTION_CREATE", event).await;
    answer(fake, iid, &token).await
}

/// The choices made in a picker message, click by click: `token` chosen in whichever menu
/// offers it, or the button leading to `path` + `token`.
async fn choose(fake: &FakeDiscord, user: &FakeUser, picker: &Value, token: &str) -> Value {
    for menu in components(picker, 3) {
        let has = menu["options"]
            .as_array()
            .is_some_and(|o| o.iter().any(|o| o["value"] == token));
        if has {
            let id = menu["custom_id"].as_str().expect("custom_id");
            let (iid, t, event) = fake.select_menu(user, id, &[token], picker);
            fake.dispatch("INTERACTION_CREATE", event).await;
            return updated(fake, iid, &t).await.1;
        }
    }
    for b in components(picker, 2) {
        let id = b["custom_id"].as_str().unwrap_or_default();
        if let Some(PickId {
            act: PickAct::Go { path, .. },
            ..
        }) = PickId::decode(id)
        {
            if path.last().map(String::as_str) == Some(token) {
                let (iid, t, event) = fake.button_click(user, id, picker);
                fake.dispatch("INTERACTION_CREATE", event).await;
                return updated(fake, iid, &t).await.1;
            }
        }
    }
    panic!("no choice {token:?} in the picker: {picker}")
}

/// Plays `code` by pointing: Move on `board`, every choice of the move's path, then Play.
/// Returns the public announcement of the move (the next board). Checks on the way that the
/// picker is private, shows a picture at each step, and its Play button names the move.
async fn play_by_pointing(
    fake: &FakeDiscord,
    user: &FakeUser,
    board: &Value,
    pos: &Position,
    code: &str,
) -> Recorded {
    let legal = pos.legal_moves();
    let leaf = leaves(pos, &legal)
        .into_iter()
        .find(|l| code::write(pos.variant(), l.mv) == code)
        .unwrap_or_else(|| panic!("{code} is legal"));
    let opened = press_move(fake, user, board).await;
    assert!(
        is_ephemeral(&opened),
        "the picker is private: {}",
        opened.summary()
    );
    png_of(&opened);
    let mut picker = message_of(&opened);
    assert!(
        !components(&picker, 3).is_empty(),
        "a menu of pieces: {picker}"
    );
    for token in &leaf.path {
        picker = choose(fake, user, &picker, token).await;
        assert!(
            picker["attachments"]
                .as_array()
                .is_some_and(|a| a.len() == 1),
            "each step shows its board: {picker}"
        );
    }
    // The last step: Play, labelled with the move as written and its code.
    let play = components(&picker, 2)
        .into_iter()
        .find(|b| {
            matches!(
                b["custom_id"].as_str().and_then(PickId::decode),
                Some(PickId {
                    act: PickAct::Play { .. },
                    ..
                })
            )
        })
        .unwrap_or_else(|| panic!("a Play button: {picker}"));
    let label = play["label"].as_str().unwrap_or_default();
    assert!(
        label.starts_with("Play ") && label.ends_with(&format!("({code})")),
        "{label}"
    );
    let before = fake.call_count();
    let id = play["custom_id"].as_str().expect("custom_id").to_string();
    let (iid, token, event) = fake.button_click(user, &id, &picker);
    fake.dispatch("INTERACTION_CREATE", event).await;
    // Acknowledged in place (type 6), then the picker says what became of the move.
    let callback = format!("/api/v10/interactions/{iid}/{token}/callback");
    fake.wait_for_since(before, "the Play acknowledged", STEP, |c| {
        c.path == callback && c.json.as_ref().is_some_and(|j| j["type"] == 6)
    })
    .await;
    let done = fake
        .wait_for_since(before, "the picker closed with the result", STEP, |c| {
            c.method == "PATCH" && c.path.contains(&token) && c.path.ends_with("/@original")
        })
        .await;
    assert!(done.ok(), "{}", done.summary());
    let closed = done.message().cloned().expect("the picker");
    assert!(components(&closed, 3).is_empty() && components(&closed, 2).is_empty());
    assert!(!content(&done).starts_with('✗'), "{}", content(&done));
    // The move's public announcement, with its board.
    let announced = fake
        .wait_for_since(before, "the move announced", STEP, |c| {
            c.ok()
                && c.method == "POST"
                && c.path.ends_with("/messages")
                && c.content()
                    .is_some_and(|t| t.contains(&format!("{} plays", user.name)))
        })
        .await;
    assert!(!is_ephemeral(&announced));
    png_of(&announced);
    announced
}

/// Starts a game of `variant` between `a` (first) and `b`; returns its number and its first
/// board (the announcement of the game's start, with its Move button).
async fn start(fake: &FakeDiscord, a: &FakeUser, b: &FakeUser, variant: &str) -> (i64, Value) {
    let ack = slash(
        fake,
        CHANNEL_ID,
        a,
        "challenge",
        json!([
            opt_user("opponent", b),
            opt_str("game", variant),
            opt_str(
                "color",
                if variant == "shanghai" {
                    "red"
                } else {
                    "black"
                }
            ),
        ]),
        &[b],
    )
    .await;
    let challenge = number_after(&content(&ack), "Challenge #");
    let before = fake.call_count();
    let ack = slash(
        fake,
        CHANNEL_ID,
        b,
        "accept",
        json!([opt_int("challenge", challenge)]),
        &[],
    )
    .await;
    let game = number_after(&content(&ack), "Game #");
    let board = fake
        .calls_since(before)
        .into_iter()
        .rev()
        .filter(|c| c.ok() && c.method == "POST")
        .filter_map(|c| c.message().cloned())
        .find(|m| button_labelled(m, "Move").is_some())
        .unwrap_or_else(|| {
            panic!(
                "the game's start with a Move button: {}",
                fake.dump_calls(before)
            )
        });
    (game, board)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_of_each_of_the_five_games_is_played_by_pointing_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = picker_config(dir.path());
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_801, "alice");
    let bob = FakeUser::new(2_000_000_000_000_000_802, "bob");
    for u in [&alice, &bob] {
        fake.add_user(u);
    }
    let _bot = Bot::start_ready(&fake, dir.path(), &config).await;
    // `/move` without a move is allowed: it opens the picker.
    let option = fake
        .registered_option("move", "move")
        .expect("/move's move");
    assert_ne!(option["required"], true, "{option}");

    for (name, id, line) in GAMES {
        let (game, mut board) = start(&fake, &alice, &bob, name).await;
        let mut g = Game::new(Position::start(id));
        let moves: Vec<&str> = line.split_whitespace().collect();
        let mut last = None;
        for (i, code) in moves.iter().enumerate() {
            let user = if i % 2 == 0 { &alice } else { &bob };
            let announced = play_by_pointing(&fake, user, &board, g.position(), code).await;
            let mv = parse_move(g.position(), code).expect("legal");
            g.play(mv).expect("legal");
            board = message_of(&announced);
            last = Some(announced);
        }
        assert!(g.is_over(), "{name}: the line ends the game");
        let end = content(&last.expect("moves"));
        assert!(
            end.contains("checkmate"),
            "{name} game #{game} ends in checkmate: {end}"
        );
        assert!(
            button_labelled(&board, "Move").is_none(),
            "a finished game's board has no Move button"
        );
    }
    fake.assert_no_unknown_routes();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_or_expired_picker_plays_nothing_and_only_the_player_to_move_can_open_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = picker_config(dir.path());
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_811, "alice");
    let bob = FakeUser::new(2_000_000_000_000_000_812, "bob");
    let carol = FakeUser::new(2_000_000_000_000_000_813, "carol");
    for u in [&alice, &bob, &carol] {
        fake.add_user(u);
    }
    // A picker lasts 3 s here instead of 15 minutes (the interaction token's life).
    let db = dir.path().join("tegami.db");
    let _bot = Bot::start_with(
        &fake,
        dir.path(),
        &config,
        "1",
        &["--db".as_ref(), db.as_os_str()],
        &[("TEGAMI_FAULT_TOKEN_LIFE_MS", "3000")],
    );
    fake.wait_ready(STEP).await;
    fake.wait_for("command registration", STEP, |c| {
        c.method == "PUT" && c.path.ends_with("/commands")
    })
    .await;
    let (game, board) = start(&fake, &alice, &bob, "shogi").await;

    // Bob (not to move) and Carol (not playing) press Move: told privately why not.
    let r = press_move(&fake, &bob, &board).await;
    assert_private_refusal(&fake, &r, "not your turn");
    let r = press_move(&fake, &carol, &board).await;
    assert_private_refusal(&fake, &r, "you do not play in game");

    // Alice opens two pickers and goes to the confirmation of P-7f in both ...
    let mut old = Vec::new();
    for _ in 0..2 {
        let opened = press_move(&fake, &alice, &board).await;
        let mut p = message_of(&opened);
        for t in ["7g", "7f"] {
            p = choose(&fake, &alice, &p, t).await;
        }
        old.push(p);
    }
    // ... but plays another move by typing, and Bob answers: the position moved on.
    for (user, mv) in [(&alice, "2g2f"), (&bob, "8c8d")] {
        let r = slash(
            &fake,
            CHANNEL_ID,
            user,
            "move",
            json!([opt_str("move", mv), opt_int("game", game)]),
            &[],
        )
        .await;
        assert!(!content(&r).starts_with('✗'), "{}", content(&r));
    }
    // The first picker's Play (7g7f, still a legal move) plays nothing.
    let play = components(&old[0], 2)
        .into_iter()
        .find(|b| b["label"].as_str().is_some_and(|l| l.starts_with("Play ")))
        .expect("Play");
    let before = fake.call_count();
    let (_, token, event) =
        fake.button_click(&alice, play["custom_id"].as_str().expect("id"), &old[0]);
    fake.dispatch("INTERACTION_CREATE", event).await;
    let done = fake
        .wait_for_since(before, "the stale Play answered", STEP, |c| {
            c.method == "PATCH" && c.path.contains(&token) && c.path.ends_with("/@original")
        })
        .await;
    assert!(content(&done).starts_with('✗'), "{}", content(&done));
    assert!(
        content(&done).contains("position changed"),
        "{}",
        content(&done)
    );
    assert!(
        !fake
            .calls_since(before)
            .iter()
            .any(|c| c.method == "POST" && c.content().is_some_and(|t| t.contains("alice plays"))),
        "nothing played"
    );
    // A step of the second says it is stale and offers a fresh picker, which works.
    let back = components(&old[1], 2)
        .into_iter()
        .find(|b| b["label"] == "Back")
        .expect("Back");
    let (iid, token, event) =
        fake.button_click(&alice, back["custom_id"].as_str().expect("id"), &old[1]);
    fake.dispatch("INTERACTION_CREATE", event).await;
    let (_, stale) = updated(&fake, iid, &token).await;
    let text = stale["content"].as_str().unwrap_or_default();
    assert!(text.contains("has moved on"), "{text}");
    assert!(
        components(&stale, 3).is_empty(),
        "nothing to choose: {stale}"
    );
    let fresh = button_labelled(&stale, "Open a fresh picker").expect("a fresh picker");
    let (iid, token, event) = fake.button_click(&alice, &fresh, &stale);
    fake.dispatch("INTERACTION_CREATE", event).await;
    let (_, fresh) = updated(&fake, iid, &token).await;
    assert!(!components(&fresh, 3).is_empty(), "a picker again: {fresh}");

    // Left open past its life, a picker says it expired, and closes.
    tokio::time::sleep(std::time::Duration::from_millis(3200)).await;
    let menu = components(&fresh, 3)[0].clone();
    let value = menu["options"][0]["value"]
        .as_str()
        .expect("value")
        .to_string();
    let (iid, token, event) = fake.select_menu(
        &alice,
        menu["custom_id"].as_str().expect("id"),
        &[value.as_str()],
        &fresh,
    );
    fake.dispatch("INTERACTION_CREATE", event).await;
    let (_, expired) = updated(&fake, iid, &token).await;
    let text = expired["content"].as_str().unwrap_or_default();
    assert!(text.contains("expired"), "{text}");
    assert!(components(&expired, 3).is_empty() && components(&expired, 2).is_empty());

    // `/move` without a move opens a picker for the player to move.
    let r = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "move",
        json!([opt_int("game", game)]),
        &[],
    )
    .await;
    assert!(is_ephemeral(&r), "{}", r.summary());
    assert!(
        !components(&message_of(&r), 3).is_empty(),
        "a picker: {}",
        r.summary()
    );
    fake.assert_no_unknown_routes();
}
