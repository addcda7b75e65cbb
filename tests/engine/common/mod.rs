//! Helpers shared by the rules tests: build position strings from a list of pieces, list legal
//! moves as sorted move codes, play moves through `Game`.
//!
//! Expected move sets in the tests are written out by hand from the rules texts; these helpers
//! only build positions and turn the engine's answers into comparable text.

#![allow(dead_code)]

use tegami::engine::notation::{code, fen};
use tegami::engine::{Game, IllegalMove, Move, Position, Square, Variant, VariantId};

/// Board size (files, ranks) of a variant.
pub fn dims(id: VariantId) -> (u8, u8) {
    match id {
        VariantId::Judkins => (6, 6),
        _ => (9, 9),
    }
}

/// A position string built from `(square, letter)` pairs (`("5e", "+R")`, `("1a", "k")`), the
/// side to move (`"b"` or `"w"`) and the hands field (`"-"`, `"2Pg"`). Move number 1.
///
/// Written without the engine, so that a mistake in the engine's square naming cannot hide.
pub fn sfen(id: VariantId, pieces: &[(&str, &str)], side: &str, hands: &str) -> String {
    let (files, ranks) = dims(id);
    let mut grid: Vec<Vec<Option<String>>> = vec![vec![None; files as usize]; ranks as usize];
    for &(sq, letter) in pieces {
        let b = sq.as_bytes();
        assert_eq!(b.len(), 2, "square name {sq}");
        let file = b[0] - b'0';
        let rank = b[1] - b'a';
        assert!(
            (1..=files).contains(&file) && rank < ranks,
            "{sq} is not on the board"
        );
        let col = (files - file) as usize;
        let cell = &mut grid[rank as usize][col];
        assert!(cell.is_none(), "two pieces on {sq}");
        *cell = Some(letter.to_string());
    }
    let mut rows = Vec::new();
    for row in grid {
        let mut s = String::new();
        let mut run = 0;
        for cell in row {
            match cell {
                None => run += 1,
                Some(l) => {
                    if run > 0 {
                        s.push_str(&run.to_string());
                        run = 0;
                    }
                    s.push_str(&l);
                }
            }
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
        rows.push(s);
    }
    format!("{} {} {} 1", rows.join("/"), side, hands)
}

/// Parses a position string of a variant, panicking with the reason if it is refused.
pub fn pos(id: VariantId, sfen: &str) -> Position {
    fen::parse(Variant::get(id), sfen).unwrap_or_else(|e| panic!("position {sfen:?} refused: {e}"))
}

/// A position from pieces, side and hands (see `sfen`).
pub fn setup(id: VariantId, pieces: &[(&str, &str)], side: &str, hands: &str) -> Position {
    pos(id, &sfen(id, pieces, side, hands))
}

/// A square by name.
pub fn sq(id: VariantId, name: &str) -> Square {
    Variant::get(id)
        .parse_square(name)
        .unwrap_or_else(|| panic!("{name} is not a square of {id}"))
}

/// Move codes of some moves, sorted bytewise.
pub fn codes(p: &Position, moves: &[Move]) -> Vec<String> {
    let v = p.variant();
    let mut out: Vec<String> = moves.iter().map(|&m| code::write(v, m)).collect();
    out.sort();
    out
}

/// Every legal move of a position, as sorted move codes.
pub fn legal_codes(p: &Position) -> Vec<String> {
    codes(p, &p.legal_moves())
}

/// Every legal move of the position string, as sorted move codes.
pub fn legal(id: VariantId, sfen: &str) -> Vec<String> {
    legal_codes(&pos(id, sfen))
}

/// The legal board moves starting from `from`, as sorted move codes.
pub fn legal_from(p: &Position, from: &str) -> Vec<String> {
    let from = sq(p.variant().id(), from);
    let moves: Vec<Move> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == Some(from))
        .collect();
    codes(p, &moves)
}

/// The legal drops of the piece with this (upper case) letter, as sorted move codes.
pub fn legal_drops(p: &Position, letter: &str) -> Vec<String> {
    let prefix = format!("{letter}*");
    legal_codes(p)
        .into_iter()
        .filter(|c| c.starts_with(&prefix))
        .collect()
}

/// Sorted owned strings, for comparing with the helpers above.
pub fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Asserts that a list of codes is exactly the expected set (order does not matter), showing
/// what is missing and what is extra when not.
#[track_caller]
pub fn assert_codes(actual: &[String], expected: &[&str]) {
    let want = sorted(expected);
    let mut got = actual.to_vec();
    got.sort();
    let missing: Vec<&String> = want.iter().filter(|c| !got.contains(c)).collect();
    let extra: Vec<&String> = got.iter().filter(|c| !want.contains(c)).collect();
    assert!(
        missing.is_empty() && extra.is_empty() && got.len() == want.len(),
        "move sets differ\n  missing: {missing:?}\n  extra:   {extra:?}\n  got:     {got:?}"
    );
}

/// Reads a move code, panicking if it is not one.
pub fn mv(p: &Position, text: &str) -> Move {
    code::parse(p, text).unwrap_or_else(|| panic!("{text:?} is not a move code"))
}

/// What `check_move` says about a move code in a position.
pub fn check(p: &Position, text: &str) -> Result<(), IllegalMove> {
    p.check_move(mv(p, text))
}

/// Plays space-separated move codes in a game, panicking on the first illegal one.
#[track_caller]
pub fn play(game: &mut Game, moves: &str) {
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = mv(game.position(), text);
        if let Err(e) = game.play(m) {
            panic!("move {i} ({text}) refused: {e:?}");
        }
    }
}

/// A game from a position string (or the start position for `"start"`) after some moves.
#[track_caller]
pub fn game_after(id: VariantId, sfen: &str, moves: &str) -> Game {
    let start = if sfen == "start" {
        Position::start(id)
    } else {
        pos(id, sfen)
    };
    let mut g = Game::new(start);
    play(&mut g, moves);
    g
}

/// Every square name of a variant's board, `9a`..`1i` (or `6a`..`1f`).
pub fn all_squares(id: VariantId) -> Vec<String> {
    let (files, ranks) = dims(id);
    let mut out = Vec::new();
    for r in 0..ranks {
        for f in (1..=files).rev() {
            out.push(format!("{}{}", f, (b'a' + r) as char));
        }
    }
    out
}

/// Drop codes of a letter on every square for which `keep(file, rank_letter)` holds and that is
/// not in `occupied`.
pub fn drop_codes(
    id: VariantId,
    letter: &str,
    occupied: &[&str],
    keep: impl Fn(u8, char) -> bool,
) -> Vec<String> {
    let mut out: Vec<String> = all_squares(id)
        .into_iter()
        .filter(|s| !occupied.contains(&s.as_str()))
        .filter(|s| {
            let b = s.as_bytes();
            keep(b[0] - b'0', b[1] as char)
        })
        .map(|s| format!("{letter}*{s}"))
        .collect();
    out.sort();
    out
}
