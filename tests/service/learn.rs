//! Learning a game inside Tegami (issue 51): for each game, a newcomer's console session
//! replayed (start a game, ask the rules, try the notations a chess player would, read the
//! hint and type its example as it is printed); and, over random positions of the five games,
//! every example a hint prints is a legal move where it is printed.

use crate::service_common;

use std::sync::Arc;

use service_common::{config, Rng};
use tegami::console::{Console, ConsoleClock};
use tegami::engine::notation::input::{parse_move_after, MoveInputError};
use tegami::engine::notation::{example_texts, Notation};
use tegami::engine::{Game, Position, Square, Variant, VariantId};
use tegami::i18n::Lang;
use tegami::service::learn::{first_moves, hint, lesson, refusal_with_hint};
use tegami::service::{piece_name, Service};
use tegami::store::SqliteStore;

struct Newcomer {
    console: Console,
    _dir: tempfile::TempDir,
    out: std::path::PathBuf,
}

impl Newcomer {
    fn new() -> Newcomer {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let store = Arc::new(SqliteStore::open(dir.path().join("l.db")).expect("open"));
        let clock = Arc::new(ConsoleClock::new());
        // With pictures: the rules page has two.
        let service = Service::new(
            store,
            clock.clone(),
            tegami::service::Config {
                images: true,
                ..config()
            },
        );
        let out = dir.path().join("out");
        Newcomer {
            console: Console::new(service, clock, &out),
            _dir: dir,
            out,
        }
    }

    fn say(&mut self, line: &str) -> String {
        self.console.line(line)
    }
}

/// The spans between backticks of a text.
fn quoted(text: &str) -> Vec<String> {
    text.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_string())
        .collect()
}

/// One newcomer in one game: challenges, asks the rules (checked for what a rules page must
/// say, and for its two pictures), types each of `wrong` (each refused, with a hint for those
/// in `hinted`), then types the example of the last hint as it is printed: it is played.
fn newcomer(game: &str, wrong: &[&str], hinted: &[&str], expect: &[(&str, &str)]) {
    let id = VariantId::parse(game).expect("a game");
    let v = Variant::get(id);
    let mut n = Newcomer::new();
    let out = n.say(&format!("@alice challenge @bob {game} black"));
    assert!(out.contains("Challenge #1"), "{out}");
    let out = n.say("@bob accept");
    assert!(out.contains("Game #1 begins"), "{out}");
    let rules = n.say(&format!("@alice rules {game}"));
    for head in [
        "how to play",
        "Goal and endings",
        "The board",
        "The pieces",
        "Captured pieces",
        "Special moves",
        "Writing moves",
        "Three moves you can play now",
    ] {
        assert!(rules.contains(head), "{game}: no {head:?} in\n{rules}");
    }
    // Every piece by its one name; the three first moves are legal at the start.
    for l in v.spec.pieces.letters {
        let name = piece_name(Lang::En, v, l.kind);
        assert!(rules.contains(&name), "{game}: {name} missing in\n{rules}");
    }
    let start = Position::start(id);
    let first = first_moves(&start, Notation::Western);
    assert_eq!(first.len(), 3, "{game}");
    for m in &first {
        assert!(rules.contains(&format!("`{m}`")), "{m} in\n{rules}");
        assert!(parse_move_after(&start, m, None).is_ok(), "{game}: {m}");
    }
    // The two pictures were written.
    let pictures: Vec<_> = std::fs::read_dir(&n.out)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    let named = |part: &str| pictures.iter().any(|p| p.to_string_lossy().contains(part));
    assert!(
        named("board") && named("pieces"),
        "{game}: pictures {pictures:?}"
    );
    let mut last_hint = None;
    for w in wrong {
        let out = n.say(&format!("@alice move {w}"));
        assert!(out.starts_with("✗ "), "{game} {w}: {out}");
        let examples = quoted(&out);
        if hinted.contains(w) {
            assert!(!examples.is_empty(), "{game} {w}: no example in {out}");
            // The hint's examples come last (`+P` before them names a piece).
            last_hint = examples.last().cloned();
        }
        for (typed, words) in expect {
            if typed == w {
                assert!(out.contains(words), "{game} {w}: no {words:?} in {out}");
            }
        }
    }
    let example = last_hint.expect("a hint with an example");
    let out = n.say(&format!("@alice move {example}"));
    assert!(
        out.contains("Game #1: alice plays"),
        "{game}: the example {example} was not played: {out}"
    );
}

#[test]
fn a_newcomer_learns_shogi() {
    newcomer(
        "shogi",
        &["e4", "O-O", "Nf3", "P-7e"],
        &["e4", "Nf3"],
        &[
            ("e4", "a file number"),
            ("e4", "e4 is 5f here"),
            ("O-O", "there is no castling in Shogi"),
        ],
    );
}

#[test]
fn a_newcomer_learns_judkins_shogi() {
    newcomer(
        "judkins",
        &["e4", "O-O", "7g7f"],
        &["e4"],
        &[("e4", "a-f, from the top"), ("7g7f", "not a square")],
    );
}

#[test]
fn a_newcomer_learns_cannon_shogi() {
    newcomer(
        "cannon",
        &["O-O", "C-5e", "d4"],
        &["C-5e", "d4"],
        &[("d4", "d4 is 6f here")],
    );
}

#[test]
fn a_newcomer_learns_palace_shogi() {
    newcomer(
        "palace",
        &["O-O", "e4", "P-7f"],
        &["e4", "P-7f"],
        &[
            ("O-O", "Castling is written as the king's move"),
            ("P-7f", "start promoted"),
            ("P-7f", "`+P-7f`"),
        ],
    );
}

#[test]
fn a_newcomer_learns_shanghai_palace_chess() {
    newcomer(
        "shanghai",
        &["7g7f", "P-7f", "O-O", "e4"],
        &["e4"],
        &[
            ("e4", "Chinese soldier"),
            ("e4", "`Ze4`"),
            ("O-O", "no castling"),
        ],
    );
}

#[test]
fn a_japanese_newcomer_in_palace_shogi_learns_its_pawns_are_hei() {
    let v = Variant::get(VariantId::Palace);
    let start = Position::start(VariantId::Palace);
    let e = parse_move_after(&start, "76歩", None).expect_err("歩 is no Palace Shogi pawn");
    let h = hint(Lang::Ja, &start, "76歩", &e, Notation::Japanese, None).expect("a hint about 兵");
    assert!(h.text.contains("兵"), "{}", h.text);
    assert!(!h.examples.is_empty());
    for ex in &h.examples {
        assert!(parse_move_after(&start, ex, None).is_ok(), "{ex}");
        assert!(ex.contains('兵'), "{ex}");
    }
    let page = lesson(Lang::Ja, v, Notation::Japanese);
    assert!(page.contains("遊び方") && page.contains("兵"), "{page}");
}

/// The moves a hint or the engine's "write it like" offers: each must be legal where it is
/// printed.
fn assert_legal_examples(pos: &Position, last: Option<Square>, text: &str, examples: &[String]) {
    for ex in examples {
        assert!(text.contains(ex.as_str()), "{ex} not in {text}");
        assert!(
            parse_move_after(pos, ex, last).is_ok(),
            "{ex} is not legal in {} (printed in: {text})",
            tegami::engine::notation::fen::write(pos)
        );
    }
}

#[test]
fn every_example_a_hint_prints_is_legal_where_it_is_printed() {
    let typed = [
        "e4",
        "O-O",
        "o-o-o",
        "P-7f",
        "+P-7f",
        "76歩",
        "７六歩",
        "Pe4",
        "Ze4",
        "Nf3",
        "7g7f",
        "zz",
        "K-7i",
        "F*e5",
        "S*5e",
        "Q-5e",
        "x",
        "exd5",
        "d4",
        "C-5e",
        "R-2c",
        "同歩",
        "B-3c+",
    ];
    let mut rng = Rng::new(51);
    let mut hints = 0;
    for &id in VariantId::ALL {
        for _game in 0..6 {
            let mut g = Game::new(Position::start(id));
            let plies = rng.below(60);
            for _ in 0..plies {
                let moves = g.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                g.play(m).expect("a legal move");
            }
            let pos = g.position().clone();
            let last = g.moves().last().map(|m| m.to());
            for t in typed {
                let Err(e) = parse_move_after(&pos, t, last) else {
                    continue;
                };
                // The engine's examples in "write it like …".
                if let MoveInputError::Unreadable { hint: h, .. } = &e {
                    if !pos.legal_moves().is_empty() {
                        let ex: Vec<String> = h
                            .replace(" or ", ", ")
                            .split(", ")
                            .map(str::to_string)
                            .collect();
                        assert_legal_examples(&pos, last, h, &ex);
                    }
                }
                for lang in Lang::ALL {
                    for notation in [Notation::Western, Notation::Japanese, Notation::Usi] {
                        let text = refusal_with_hint(lang, &e, &pos, t, notation, last);
                        if let Some(h) = hint(lang, &pos, t, &e, notation, last) {
                            hints += 1;
                            assert!(text.ends_with(&h.text));
                            assert_legal_examples(&pos, last, &h.text, &h.examples);
                            // Every move quoted in a hint is one of its examples.
                            for q in quoted(&h.text) {
                                // A piece letter (`+P`) is no move; a move written with a
                                // square must be legal.
                                let has_square = q.chars().any(|c| c.is_ascii_digit());
                                if has_square && parse_move_after(&pos, &q, last).is_err() {
                                    assert!(!h.examples.contains(&q), "{q} offered but illegal");
                                    // Forms (`K-7i` in "castling is written …") only when
                                    // castling is not possible now.
                                    assert!(
                                        h.examples.is_empty(),
                                        "{t}: {q} quoted but illegal in {}",
                                        h.text
                                    );
                                }
                            }
                        }
                    }
                }
            }
            for notation in [Notation::Western, Notation::Japanese] {
                let ex = example_texts(&pos, notation, last, 3);
                let text = ex.join(", ");
                assert_legal_examples(&pos, last, &text, &ex);
            }
        }
    }
    assert!(hints > 100, "only {hints} hints were printed");
}

/// The start position with its zones, in both languages: each zone's outline colour is in the
/// picture and its name in the page; the pictures are kept under the temporary folder
/// (`tegami-learn-pictures/`) to be looked at.
#[test]
fn zone_pictures_outline_every_zone_in_its_colour() {
    use tegami::render::{PieceStyle, ZONE_COLORS};
    use tegami::service::learn::{pictures, zones};
    let dir = std::env::temp_dir().join("tegami-learn-pictures");
    std::fs::create_dir_all(&dir).expect("a folder for the pictures");
    for &id in VariantId::ALL {
        let v = Variant::get(id);
        for lang in Lang::ALL {
            let notation = match lang {
                Lang::En => Notation::Western,
                Lang::Ja => Notation::Japanese,
            };
            let (board, sheet) =
                pictures(lang, v, notation, PieceStyle::Kanji).expect("the pictures");
            std::fs::write(dir.join(format!("{id}-{}-board.png", lang.code())), &board)
                .expect("write");
            std::fs::write(dir.join(format!("{id}-{}-pieces.png", lang.code())), &sheet)
                .expect("write");
            let img = image::load_from_memory(&board).expect("a PNG").to_rgb8();
            let zs = zones(lang, v);
            assert!(zs.len() >= 2, "{id}");
            let page = lesson(lang, v, notation);
            // Every placeable filled: the pieces' heading names the game (`rules palace …`).
            assert!(!page.contains("{$") && !page.contains("{ $"), "{page}");
            assert!(page.contains(&format!("rules {} ", id.as_str())), "{page}");
            for (i, z) in zs.iter().enumerate() {
                let c = ZONE_COLORS[i % ZONE_COLORS.len()];
                let n = img.pixels().filter(|p| p.0 == c).count();
                // The outline runs round the zone: at least three pixels a square's side.
                assert!(n > z.squares.len() * 3, "{id} {lang:?} {}: {n}", z.label);
                assert!(page.contains(&z.label), "{}", z.label);
            }
            let sheet = image::load_from_memory(&sheet).expect("a PNG");
            assert!(sheet.width() > 300 && sheet.height() > 100);
        }
    }
}

/// A rules page is one Discord message (2,000 characters, with room to spare), in every game,
/// language and notation; and what it teaches is this game's: Shanghai's page never shows the
/// shogi move codes its notation refuses.
#[test]
fn a_rules_page_fits_one_message_and_teaches_only_its_game() {
    for &id in VariantId::ALL {
        let v = Variant::get(id);
        for lang in Lang::ALL {
            for notation in [Notation::Western, Notation::Japanese, Notation::Usi] {
                let page = lesson(lang, v, notation);
                let n = page.chars().count();
                assert!(n <= 1950, "{id:?} {lang:?} {notation:?}: {n} characters");
                if id == VariantId::Shanghai {
                    for shogi in ["7g7f", "P-7f", "P*5e"] {
                        assert!(!page.contains(shogi), "{lang:?} {notation:?}: {shogi}");
                    }
                }
            }
        }
    }
    let shogi = lesson(Lang::En, Variant::get(VariantId::Shogi), Notation::Western);
    assert!(shogi.contains("|rook-lance|"), "{shogi}");
}

/// A conditional line's refused move gets the hint a refused move gets, drawn from the moves
/// legal at that point of the line: its example, typed in the line's place, is taken.
#[test]
fn a_refused_move_of_a_conditional_line_gets_a_hint_legal_at_that_point() {
    let mut n = Newcomer::new();
    n.say("@alice challenge @bob shogi black");
    n.say("@bob accept");
    let out = n.say("@alice move 7g7f");
    assert!(!out.starts_with("✗"), "{out}");
    // Bob's reply, then Alice's `e4`: a chess square in shogi.
    let out = n.say("@alice conditional add \"3c3d e4\"");
    assert!(out.starts_with("✗ Move 2 of the line (e4)"), "{out}");
    let examples: Vec<String> = quoted(&out)
        .into_iter()
        .filter(|q| q != "e4" && !q.contains(' '))
        .collect();
    assert!(!examples.is_empty(), "no example in {out}");
    // Each example is legal for Alice after 7g7f 3c3d: the line with it is taken.
    for ex in &examples {
        let mut fresh = Newcomer::new();
        fresh.say("@alice challenge @bob shogi black");
        fresh.say("@bob accept");
        fresh.say("@alice move 7g7f");
        let took = fresh.say(&format!("@alice conditional add \"3c3d {ex}\""));
        assert!(!took.starts_with("✗"), "{ex} from {out}: {took}");
    }
}
