//! A game played in Japanese through the command core: two players who chose Japanese
//! (`settings language=ja`) challenge, accept, move (and are refused an illegal move and a
//! drop of a piece they do not hold), offer a draw, decline it and resign; every reply and
//! notice they get is Japanese. An English player in a game with a Japanese one still reads
//! English, and a move's public announcement follows the server's language.

use crate::service_common;

use service_common::*;
use tegami::service::{parse_command, Command, Place, Reply, Request, User, Via};

/// Words in Latin letters a Japanese text may contain: names, commands and option words the
/// player types, and the bot's name.
const ALLOWED: &[&str] = &[
    "alice", "bob", "carol", "accept", "decline", "cancel", "move", "draw", "offer", "resign",
    "moretime", "vacation", "end", "help", "settings", "Tegami", "UTC", "takeback", "draw",
    "impasse", "accept", "decline", "offer", "open", "rated", "casual",
];

/// Whether `text` reads as Japanese: it has kana or kanji, and no Latin word of two letters or
/// more besides the allowed ones (a move code's letters are single: `7g7f`, `P*5e`).
fn japanese(text: &str) -> bool {
    let has_japanese = text
        .chars()
        .any(|c| matches!(c as u32, 0x3040..=0x30FF | 0x4E00..=0x9FFF));
    let mut word = String::new();
    let mut stray = Vec::new();
    for c in text.chars().chain([' ']) {
        if c.is_ascii_alphabetic() {
            word.push(c);
        } else {
            if word.len() >= 2 && !ALLOWED.contains(&word.as_str()) {
                stray.push(word.clone());
            }
            word.clear();
        }
    }
    assert!(stray.is_empty(), "English words {stray:?} in {text:?}");
    has_japanese
}

fn assert_japanese(text: &str) {
    assert!(japanese(text), "not Japanese: {text:?}");
}

/// Whether `text` reads as English: no kana or kanji.
fn assert_english(text: &str) {
    assert!(
        !text
            .chars()
            .any(|c| matches!(c as u32, 0x3040..=0x30FF | 0x4E00..=0x9FFF)),
        "not English: {text:?}"
    );
}

/// The notices of a reply to `user`.
fn notices_to<'a>(r: &'a Reply, user: &str) -> Vec<&'a str> {
    r.notify
        .iter()
        .filter(|n| n.user == user && n.via != Via::Post)
        .map(|n| n.text.as_str())
        .collect()
}

/// A command sent by a manager of the tests' server.
fn as_manager(env: &Env, user_id: &str, line: &str) -> Reply {
    let command: Command = parse_command(line).expect("parses");
    env.service.handle(&Request {
        user: User::new(user_id, user_id),
        place: Place {
            admin: true,
            ..server()
        },
        command,
    })
}

#[test]
fn two_japanese_players_play_a_whole_game_in_japanese() {
    let env = Env::new();
    env.ok("alice", "settings language=ja");
    env.ok("bob", "settings language=ja");

    // The challenge, its notice, its buttons.
    let r = env.ok("alice", "challenge @bob shogi black");
    assert_japanese(&r.text);
    assert!(r.text.contains("挑戦 #"), "{}", r.text);
    for b in &r.buttons {
        assert_japanese(&b.label);
    }
    let [notice] = notices_to(&r, "bob")[..] else {
        panic!("one notice to bob: {:?}", r.notify)
    };
    assert_japanese(notice);
    assert!(!notice.contains("{challenge}"), "{notice}");
    let challenge = number_after(&r.text, "挑戦 #").expect("challenge number");

    // Accepted: the game begins.
    let r = env.ok("bob", &format!("accept {challenge}"));
    assert_japanese(&r.text);
    assert!(
        r.text.contains("先手") && r.text.contains("後手"),
        "{}",
        r.text
    );
    for b in &r.buttons {
        assert_japanese(&b.label);
    }
    for n in notices_to(&r, "alice") {
        assert_japanese(n);
        assert!(!n.contains("{game}"), "{n}");
    }
    let game = number_after(&r.text, "対局 #").expect("game number");

    // A move: the reply and bob's notice in Japanese.
    let r = env.ok("alice", &format!("move {game} 7g7f"));
    assert_japanese(&r.text);
    assert!(r.text.contains("1手目"), "{}", r.text);
    let [notice] = notices_to(&r, "bob")[..] else {
        panic!("one notice to bob: {:?}", r.notify)
    };
    assert_japanese(notice);
    // Not her turn.
    let refusal = env.refused("alice", &format!("move {game} 2g2f"));
    assert_japanese(&refusal);
    assert!(refusal.contains("手番"), "{refusal}");

    // An illegal move, and a drop of a piece bob does not hold.
    // (the king cannot go two squares, and its own pawn stands there: the first rule broken is
    // the one said)
    let refusal = env.refused("bob", &format!("move {game} 5a5c"));
    assert_japanese(&refusal);
    assert!(
        refusal.contains("動けません") || refusal.contains("自分の駒"),
        "{refusal}"
    );
    let refusal = env.refused("bob", &format!("move {game} P*5e"));
    assert_japanese(&refusal);
    assert!(refusal.contains("持ち駒"), "{refusal}");
    let refusal = env.refused("bob", &format!("move {game} 9z9"));
    assert_japanese(&refusal);

    let r = env.ok("bob", &format!("move {game} 3c3d"));
    assert_japanese(&r.text);

    // A draw offer, declined.
    let r = env.ok("alice", &format!("draw {game} offer"));
    assert_japanese(&r.text);
    for b in &r.buttons {
        assert_japanese(&b.label);
    }
    for n in notices_to(&r, "bob") {
        assert_japanese(n);
    }
    let refusal = env.refused("alice", &format!("draw {game} offer"));
    assert_japanese(&refusal);
    let r = env.ok("bob", &format!("draw {game} decline"));
    assert_japanese(&r.text);
    for n in notices_to(&r, "alice") {
        assert_japanese(n);
    }

    // A takeback asked, and a declaration refused.
    let r = env.ok("alice", &format!("takeback {game}"));
    assert_japanese(&r.text);
    let r = env.ok("bob", &format!("takeback {game} accept"));
    assert_japanese(&r.text);
    let refusal = env.refused("bob", &format!("declare {game}"));
    assert_japanese(&refusal);
    assert!(refusal.contains("入玉宣言"), "{refusal}");

    // Resignation: the winner is told in Japanese.
    let r = env.ok("bob", &format!("resign {game}"));
    assert_japanese(&r.text);
    assert!(r.text.contains("投了"), "{}", r.text);
    let [notice] = notices_to(&r, "alice")[..] else {
        panic!("one notice to alice: {:?}", r.notify)
    };
    assert_japanese(notice);
    let refusal = env.refused("bob", &format!("resign {game}"));
    assert_japanese(&refusal);
}

#[test]
fn each_player_reads_their_own_language_and_the_server_its_own() {
    let env = Env::new();
    env.ok("alice", "settings language=ja");
    env.ok("carol", "settings style=kanji");
    let game = {
        let r = env.ok("carol", "challenge @alice shogi black");
        assert_english(&r.text);
        let [notice] = notices_to(&r, "alice")[..] else {
            panic!("one notice to alice: {:?}", r.notify)
        };
        assert_japanese(notice);
        let challenge = number_after(&r.text, "Challenge #").expect("challenge number");
        let r = env.ok("alice", &format!("accept {challenge}"));
        assert_japanese(&r.text);
        let [notice] = notices_to(&r, "carol")[..] else {
            panic!("one notice to carol: {:?}", r.notify)
        };
        assert_english(notice);
        assert!(
            notice.starts_with("alice accepted your challenge"),
            "{notice}"
        );
        number_after(&r.text, "対局 #").expect("game number")
    };

    // Carol moves in English; Alice is told in Japanese. The server has no language: its
    // announcement is English.
    let r = env.ok("carol", &format!("move {game} 7g7f"));
    assert!(
        r.text
            .starts_with(&format!("Game #{game}: carol plays 1. P-7f.")),
        "{}",
        r.text
    );
    let [notice] = notices_to(&r, "alice")[..] else {
        panic!("one notice to alice: {:?}", r.notify)
    };
    assert_japanese(notice);
    assert_english(&r.post.as_ref().expect("an announcement").text);

    // Alice moves in Japanese; Carol is told in English.
    let r = env.ok("alice", &format!("move {game} 3c3d"));
    assert_japanese(&r.text);
    assert_english(&r.post.as_ref().expect("an announcement").text);
    let [notice] = notices_to(&r, "carol")[..] else {
        panic!("one notice to carol: {:?}", r.notify)
    };
    assert_english(notice);
    assert!(
        notice.starts_with(&format!("your move in game #{game}")),
        "{notice}"
    );

    // The server speaks Japanese from now on: Carol's reply stays English, the post does not.
    let r = as_manager(&env, "carol", "server language=ja");
    assert!(!r.error, "{}", r.text);
    let r = env.ok("carol", &format!("move {game} 2g2f"));
    assert_english(&r.text);
    assert_japanese(&r.post.as_ref().expect("an announcement").text);

    // Time runs out for Alice: the sweep tells each in their language.
    env.clock.advance(4 * 86_400);
    let sweep = env.service.sweep(env.service.now()).expect("sweep");
    assert_eq!(sweep.timeouts, vec![game]);
    let to = |u: &str| -> Vec<String> {
        sweep
            .notices
            .iter()
            .filter(|(_, n)| n.user == u && n.game == Some(game) && n.via != Via::Post)
            .map(|(_, n)| n.text.clone())
            .collect()
    };
    let alice = to("alice");
    assert!(!alice.is_empty());
    for t in &alice {
        assert_japanese(t);
    }
    let carol = to("carol");
    assert!(!carol.is_empty());
    for t in &carol {
        assert_english(t);
    }
}
