//! A whole game of each of the five games at the console, in Japanese: both players and the
//! console's server chose Japanese, the moves are typed as Japanese players write them (▲７六歩;
//! Shanghai Palace Chess, which has no Japanese notation, in its algebraic), and every line the
//! console prints is checked to hold no English word outside names, move codes, the words a
//! player types (command names, setting values), file formats and the bot's name.

use crate::service_common;

use std::collections::BTreeSet;
use std::sync::Arc;

use service_common::{config, decisive_game};
use tegami::console::{Console, ConsoleClock};
use tegami::engine::notation::{code, written, Notation};
use tegami::engine::{Game, Move, Position, Square, VariantId};
use tegami::service::Service;
use tegami::store::SqliteStore;

/// Words a Japanese reply may still hold: what players type (commands, their options and
/// values), names of file formats, the bot's name, and the players' names.
const ALLOWED: &[&str] = &[
    // Names.
    "alice",
    "bob",
    "tegami",
    "Tegami",
    // Commands and their words, which stay as typed.
    "challenge",
    // The clock options of `challenge` (`clock=per-move|increment|byoyomi`, `cap=N`, …).
    "clock",
    "per",
    "increment",
    "byoyomi",
    "cap",
    "period",
    "accept",
    "decline",
    "cancel",
    "move",
    "moves",
    "pick",
    // The export format's name (Fairy-Stockfish FEN).
    "Fairy",
    "Stockfish",
    "board",
    "resign",
    "declare",
    "draw",
    "takeback",
    "impasse",
    "games",
    "history",
    "game",
    "record",
    "analysis",
    "replay",
    "export",
    "rules",
    "settings",
    "moretime",
    "vacation",
    "stats",
    "leaderboard",
    "server",
    "help",
    "tick",
    "quit",
    "offer",
    "open",
    "end",
    "style",
    "kanji",
    "international",
    "notify",
    "mention",
    "dm",
    "digest",
    "remind",
    "language",
    "notation",
    "western",
    "japanese",
    "usi",
    "en",
    "ja",
    "default",
    "days",
    "rated",
    "casual",
    "handicap",
    "setup",
    "level",
    "black",
    "white",
    "red",
    "blue",
    "random",
    "channel",
    "request",
    "propose",
    // The league command and its words.
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
    "shogi",
    "judkins",
    "cannon",
    "palace",
    "shanghai",
    "smith",
    "original",
    // Handicap names, typed as `handicap=NAME`.
    "lance",
    "bishop",
    "rook",
    "two",
    "four",
    "six",
    // Piece letters of the Western notation and of its examples (`Px7f`, the cannons' `GC`).
    "Px",
    "GC",
    "SC",
    "CC",
    "IC",
    "Ln",
    // Shanghai's algebraic examples.
    "Nf",
    "Ne",
    "dxe",
    // File formats.
    "SFEN",
    "sfen",
    "KIF",
    "kif",
    "CSA",
    "csa",
    "FEN",
    "fen",
    "PNG",
    "png",
    "GIF",
    "gif",
    "Discord",
    "UTC",
    "RFC",
];

/// The English-looking words of `text` that are not allowed: runs of two or more ASCII
/// letters, after taking out paths, `#12`, and the moves of the game (codes and written forms).
fn english_words(text: &str, moves: &BTreeSet<String>) -> Vec<String> {
    // The words written as typed: this list, and the command table's.
    let typed = service_common::typed_words();
    let allowed: BTreeSet<&str> = ALLOWED
        .iter()
        .copied()
        .chain(typed.iter().map(String::as_str))
        .collect();
    let mut bad = vec![];
    // Position strings and codes are quoted in backticks: take them out.
    let text: String = text
        .split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join(" ");
    // The moves of the game, wherever they stand (`aliceさんがNb4と指しました`).
    let mut text = text;
    let mut forms: Vec<&String> = moves.iter().collect();
    forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
    for form in forms {
        text = text.replace(form.as_str(), " ");
    }
    for token in
        text.split(|c: char| c.is_whitespace() || "（）()[]「」、。:：,.;!?`'\"→…・".contains(c))
    {
        if token.contains(std::path::MAIN_SEPARATOR) || moves.contains(token) {
            continue;
        }
        let mut word = String::new();
        for c in token.chars().chain(std::iter::once(' ')) {
            if c.is_ascii_alphabetic() {
                word.push(c);
                continue;
            }
            if word.len() >= 2 && !allowed.contains(word.as_str()) && !moves.contains(&word) {
                bad.push(word.clone());
            }
            word.clear();
        }
    }
    bad
}

/// Whether `text` has Japanese in it (kana or kanji).
fn has_japanese(text: &str) -> bool {
    text.chars()
        .any(|c| ('\u{3040}'..='\u{30ff}').contains(&c) || ('\u{4e00}'..='\u{9fff}').contains(&c))
}

struct Session {
    console: Console,
    moves: BTreeSet<String>,
    transcript: Vec<(String, String)>,
}

impl Session {
    fn new(dir: &std::path::Path) -> Session {
        let store = Arc::new(SqliteStore::open(dir.join("ja.db")).expect("open the database"));
        let clock = Arc::new(ConsoleClock::new());
        let service = Service::new(store, clock.clone(), config());
        Session {
            console: Console::new(service, clock, dir.join("out")),
            moves: BTreeSet::new(),
            transcript: vec![],
        }
    }

    /// Takes the legal moves of the game's position, in every notation, as words a reply
    /// may hold (`moves` lists them; a reply quotes the move played).
    fn learn(&mut self, game: &Game) {
        let pos = game.position();
        for m in pos.legal_moves() {
            self.moves.insert(code::write(pos.variant(), m));
            for notation in [Notation::Western, Notation::Japanese] {
                self.moves.insert(written(pos, m, notation, last_to(game)));
            }
        }
    }

    /// Sends a line; checks its answer is Japanese, with no English word.
    fn say(&mut self, line: &str) -> String {
        let out = self.console.line(line);
        assert!(has_japanese(&out), "{line}: not Japanese:\n{out}");
        let bad = english_words(&out, &self.moves);
        assert!(bad.is_empty(), "{line}: English words {bad:?} in:\n{out}");
        self.transcript.push((line.to_string(), out.clone()));
        out
    }
}

fn last_to(game: &Game) -> Option<Square> {
    game.moves().last().map(|m| m.to())
}

/// What a player types for `m`: the Japanese form in the shogi games, algebraic in Shanghai.
fn typed(pos: &Position, m: Move, last: Option<Square>) -> String {
    written(pos, m, Notation::Japanese, last)
}

fn whole_game_in_japanese(id: VariantId) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Session::new(dir.path());
    let variant = id.to_string();
    s.say("@alice settings language=ja");
    s.say("@bob settings language=ja");
    s.say("@alice server language=ja");
    s.say("@alice help");
    s.say(&format!("@alice rules {variant}"));
    s.say(&format!("@alice challenge @bob {variant} black"));
    s.say("@bob accept");
    let start = Position::start(id);
    let (_, plan, _) = decisive_game(&start, 200);
    let mut game = Game::new(start);
    // A move out of turn, and nonsense, are refused in Japanese.
    s.say("@bob move 7g7f");
    // The refusal offers moves of the start position (issue 51): they are words it may hold.
    s.learn(&game);
    s.say("@alice move ほげ");
    for (i, &m) in plan.iter().enumerate() {
        let pos = game.position().clone();
        let text = typed(&pos, m, last_to(&game));
        s.learn(&game);
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        let out = s.say(&format!("@{who} move {text}"));
        assert!(!out.starts_with('✗'), "{text} refused:\n{out}");
        game.play(m).expect("legal");
        s.learn(&game);
        if i == 4 {
            s.say("@alice board");
            s.say("@bob moves");
            s.say("@alice games");
        }
    }
    assert!(game.outcome().is_some(), "the planned game ends");
    s.say("@alice history");
    s.say("@bob record 1");
    s.say("@alice export 1 kif");
    s.say("@bob stats");
}

#[test]
fn a_whole_shogi_game_in_japanese() {
    whole_game_in_japanese(VariantId::Shogi);
}

#[test]
fn a_whole_judkins_game_in_japanese() {
    whole_game_in_japanese(VariantId::Judkins);
}

#[test]
fn a_whole_cannon_game_in_japanese() {
    whole_game_in_japanese(VariantId::Cannon);
}

#[test]
fn a_whole_palace_game_in_japanese() {
    whole_game_in_japanese(VariantId::Palace);
}

#[test]
fn a_whole_shanghai_game_in_japanese() {
    whole_game_in_japanese(VariantId::Shanghai);
}

#[test]
fn the_checker_finds_english() {
    let none = BTreeSet::new();
    assert_eq!(
        english_words("▲７六歩 alice の手番です", &none),
        Vec::<String>::new()
    );
    assert_eq!(
        english_words("it is bob's move now", &none),
        vec!["it".to_string(), "is".into(), "now".into()]
    );
}

#[test]
fn a_japanese_move_that_does_not_settle_is_refused_with_why_in_japanese() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Session::new(dir.path());
    s.say("@alice settings language=ja");
    s.say("@bob settings language=ja");
    s.say("@alice challenge @bob shogi black");
    s.say("@bob accept");
    // Both golds reach ５八: the player is asked which, with the marks that tell them apart.
    let out = s.say("@alice move ５八金");
    assert!(out.starts_with('✗'), "{out}");
    assert!(out.contains("５八金: 左か右か"), "{out}");
    // 同 with no move before it.
    let out = s.say("@alice move 同歩");
    assert!(out.contains("まだ一手も指されていません"), "{out}");
    // △ on Black's turn.
    let out = s.say("@alice move △７六歩");
    assert!(out.contains("手番と合いません"), "{out}");
    // Nothing was played: the same move is still Black's to make, and 同 then works for White.
    let out = s.say("@alice move ▲７六歩");
    assert!(!out.starts_with('✗'), "{out}");
    let out = s.say("@bob move ３四歩");
    assert!(!out.starts_with('✗'), "{out}");
    let out = s.say("@alice move 22角成");
    assert!(!out.starts_with('✗'), "{out}");
    let out = s.say("@bob move 同銀");
    assert!(out.contains("△同　銀"), "{out}");
}
