//! A Japanese player's views: help, rules, lists, boards, legal moves, records, exports,
//! analyses and replays come back in Japanese (kana or kanji in every reply, and no English
//! word but names, codes, the words a player types and file formats), while an English player
//! in the same game still reads today's English.

use crate::service_common;

use service_common::*;

/// Words a Japanese reply may show in Latin letters: the players' names, the commands and
/// option words a player types, games' ids, handicap names, file formats, units and the bot.
const ALLOWED: &[&str] = &[
    "hanako",
    "taro",
    "tegami",
    "discord",
    "sfen",
    "kif",
    "csa",
    "fen",
    "usi",
    "utc",
    "mib",
    // commands
    "challenge",
    // the clock options of `challenge` (`clock=per-move|increment|byoyomi`, `cap=N`, …)
    "clock",
    "per",
    "increment",
    "byoyomi",
    // settings board=default|black|white (`default`: the side to move)
    "default",
    "cap",
    "period",
    "accept",
    "decline",
    "cancel",
    "move",
    "board",
    "moves",
    "pick",
    "resign",
    "declare",
    "draw",
    "takeback",
    "impasse",
    "games",
    "history",
    "game",
    "record",
    "export",
    "rules",
    "settings",
    "moretime",
    "vacation",
    "stats",
    "leaderboard",
    "server",
    "help",
    "analysis",
    "replay",
    // option words and placeholders
    "user",
    "open",
    "variant",
    "black",
    "white",
    "red",
    "blue",
    "random",
    "days",
    "handicap",
    "name",
    "setup",
    "rated",
    "casual",
    "level",
    "game_id",
    "challenge_id",
    "square",
    "offer",
    "request",
    "propose",
    "ply",
    "piece",
    "style",
    "kanji",
    "international",
    "notify",
    "mention",
    "digest",
    "remind",
    "hours",
    "language",
    "notation",
    "western",
    "japanese",
    "end",
    "channel",
    "command",
    "fairy",
    "stockfish",
    // games' ids and handicap names
    "shogi",
    "judkins",
    "cannon",
    "palace",
    "shanghai",
    "lance",
    "bishop",
    "rook",
    "two",
    "four",
    "six",
    // The league command and the words typed with it.
    // Following games, the digest's hour and the time zone (issue 23), typed as words.
    "follow",
    "unfollow",
    "thread",
    "ping",
    "digest_hour",
    "hour",
    "timezone",
    "none",
    // The conditional command and its sub-commands.
    "conditional",
    "add",
    "clear",
    "league",
    "create",
    "join",
    "leave",
    "start",
    "pairings",
    "kick",
    "list",
    "show",
    "round",
    "robin",
    "double",
    "swiss",
    "all",
    "rounds",
    "format",
    "name",
];

/// The English words of `text` outside code spans (`...`): runs of three or more Latin
/// letters, not part of a move code or square (no digit in the token), not allowed above.
fn english_words(text: &str) -> Vec<String> {
    // The words of the command table, written as typed.
    let typed = typed_words();
    let mut outside = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 0 {
            outside.push_str(part);
            outside.push(' ');
        }
    }
    outside
        .split(|c: char| {
            !(c.is_ascii_alphanumeric() || matches!(c, '_' | '*' | '+' | '=' | '-' | '\''))
        })
        .filter(|t| !t.is_empty() && !t.chars().any(|c| c.is_ascii_digit()))
        .flat_map(|t| t.split(['-', '\'', '*', '+', '=']))
        .filter(|w| w.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 3)
        .filter(|w| !ALLOWED.contains(&w.to_ascii_lowercase().as_str()))
        .filter(|w| !typed.contains(*w))
        .map(str::to_string)
        .collect()
}

fn has_japanese(text: &str) -> bool {
    text.chars()
        .any(|c| ('\u{3040}'..='\u{30FF}').contains(&c) || ('\u{4E00}'..='\u{9FFF}').contains(&c))
}

#[track_caller]
fn assert_japanese(what: &str, text: &str) {
    assert!(has_japanese(text), "{what}: no Japanese in\n{text}");
    let english = english_words(text);
    assert!(
        english.is_empty(),
        "{what}: English words {english:?} in\n{text}"
    );
}

/// A game of Shogi between taro (Black, English) and hanako (White, Japanese), four moves in.
fn setting() -> (Env, i64) {
    let env = Env::new();
    let id = env.start_game("taro", "hanako", "shogi");
    env.ok("hanako", "settings language=ja");
    for (who, m) in [
        ("taro", "7g7f"),
        ("hanako", "3c3d"),
        ("taro", "8h2b+"),
        ("hanako", "3a2b"),
    ] {
        env.ok(who, &format!("move {id} {m}"));
    }
    (env, id)
}

#[test]
fn help_and_rules_are_japanese() {
    let (env, _) = setting();
    assert_japanese("help", &env.ok("hanako", "help").text);
    assert_japanese("help move", &env.ok("hanako", "help move").text);
    assert_japanese("help zz", &env.send("hanako", "help zz").text);
    for id in ["shogi", "judkins", "cannon", "palace", "shanghai"] {
        let text = env.ok("hanako", &format!("rules {id}")).text;
        assert_japanese(&format!("rules {id}"), &text);
    }
    let lion = env.ok("hanako", "rules palace lion").text;
    assert_japanese("rules palace lion", &lion);
    assert!(lion.contains("獅子"), "{lion}");
    // A piece named in Japanese is found too.
    assert!(env.ok("hanako", "rules shogi 銀").text.contains("銀将"));
    assert_japanese("bad piece", &env.send("hanako", "rules shogi 獅子").text);
    assert_japanese("bad game", &env.send("hanako", "rules 象棋").text);
    // English is as before.
    let en = env.ok("taro", "rules palace lion").text;
    assert!(
        en.starts_with("Lion (Ln) in Palace Shogi: up to two king steps"),
        "{en}"
    );
}

#[test]
fn lists_boards_moves_and_records_are_japanese() {
    let (env, id) = setting();
    let games = env.ok("hanako", "games").text;
    assert_japanese("games", &games);
    assert!(games.contains("将棋"), "{games}");
    assert_japanese("board", &env.ok("hanako", &format!("board {id}")).text);
    let game = env.ok("hanako", &format!("game {id} 2"));
    assert_japanese("game 2", &game.text);
    for b in &game.buttons {
        assert_japanese("button", &b.label);
    }
    assert_japanese("moves", &env.ok("hanako", &format!("moves {id}")).text);
    assert_japanese(
        "moves 7f",
        &env.ok("hanako", &format!("moves {id} 7i")).text,
    );
    assert_japanese(
        "bad square",
        &env.send("hanako", &format!("moves {id} z9")).text,
    );
    assert_japanese(
        "bad ply",
        &env.send("hanako", &format!("game {id} 99")).text,
    );
    let record = env.ok("hanako", &format!("record {id}")).text;
    assert_japanese("record", &record);
    assert!(record.contains("後手"), "{record}");
    // The English player reads English.
    let en = env.ok("taro", &format!("board {id}")).text;
    assert!(
        en.starts_with(&format!(
            "Game #{id} — Shogi: taro (black) vs hanako (white), move 5."
        )),
        "{en}"
    );
}

#[test]
fn exports_analyses_and_replays_are_japanese() {
    let (env, id) = setting();
    let kif = env.ok("hanako", &format!("export {id} kif")).text;
    assert!(kif.contains("手合割：平手"), "{kif}");
    let palace = env.start_game("taro", "hanako", "palace");
    assert_japanese(
        "export refusal",
        &env.send("hanako", &format!("export {palace} kif")).text,
    );
    assert_japanese(
        "analysis refusal",
        &env.send("hanako", &format!("analysis {id}")).text,
    );
    env.ok("taro", &format!("resign {id}"));
    let a = env.ok("hanako", &format!("analysis {id}")).text;
    assert_japanese("analysis", &a);
    // The same analysis, kept, is English for the English player.
    let en = env.ok("taro", &format!("analysis {id}")).text;
    assert!(
        en.starts_with(&format!("Game #{id}: the evaluation after every move")),
        "{en}"
    );
    let r = env.ok("hanako", &format!("replay {id}"));
    assert_japanese("replay", &r.text);
    assert_japanese("history", &env.ok("hanako", "history").text);
}
