//! The engine's refusals in each language: why a move is illegal ([`IllegalMove`]), why a typed
//! move cannot be read or played ([`MoveInputError`]), why a declaration is refused
//! ([`Refusal`]); and the words they use (squares, pieces, sides, handicaps).
//!
//! The engine keeps its English sentences (the command line prints them); players read these.
//! The English texts are the engine's own, word for word (the tests below hold them to it); the
//! Japanese ones say it as a player would (二歩, 打ち歩詰め, 王手放置, 行き所のない駒). Messages in
//! `locales/*/engine.ftl`.

use crate::engine::declaration::{Refusal, PIECES_NEEDED};
use crate::engine::notation::input::{distinctions, MoveInputError};
use crate::engine::notation::{human_all, written_all, Notation};
use crate::engine::{Color, IllegalMove, PieceKind, Position, Region, Square, Variant};
use crate::engine::{SquareNames, VariantId};
use crate::t;

use super::{words, Lang};

/// Full-width digits, as Japanese notation writes files.
const WIDE: [char; 10] = ['０', '１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Kanji numerals, as Japanese notation writes ranks.
const KANJI: [&str; 10] = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

fn wide(n: u32) -> String {
    n.to_string()
        .chars()
        .map(|c| c.to_digit(10).map_or(c, |d| WIDE[d as usize]))
        .collect()
}

fn kanji(n: u32) -> String {
    match n {
        0..=9 => KANJI[n as usize].to_string(),
        10 => "十".to_string(),
        11..=19 => format!("十{}", KANJI[(n - 10) as usize]),
        _ => n.to_string(),
    }
}

/// A square as a player of `lang` writes it: `7f` (`７六` in Japanese, for the shogi games;
/// Shanghai Palace Chess keeps its `e4`).
pub fn square(lang: Lang, v: &Variant, sq: Square) -> String {
    match (lang, v.spec.squares) {
        (Lang::Ja, SquareNames::Shogi) => {
            let file = v.files() as u32 - sq.col() as u32;
            let rank = sq.row() as u32 + 1;
            format!("{}{}", wide(file), kanji(rank))
        }
        _ => v.square_name(sq),
    }
}

/// A square's file: `7` (`７` in Japanese).
fn file(lang: Lang, v: &Variant, sq: Square) -> String {
    match (lang, v.spec.squares) {
        (Lang::Ja, SquareNames::Shogi) => wide(v.files() as u32 - sq.col() as u32),
        _ => {
            let n = v.square_name(sq);
            n[..n.len() - 1].to_string()
        }
    }
}

/// A piece's name in a game: [`words::piece_name`], the one name of each piece.
pub fn piece(lang: Lang, v: &Variant, kind: PieceKind) -> String {
    words::piece_name(lang, v, kind)
}

/// A piece's name for several of them: `pawns` (Japanese has no plural).
fn pieces(lang: Lang, v: &Variant, kind: PieceKind) -> String {
    match lang {
        Lang::En => format!("{}s", v.piece_name(kind)),
        Lang::Ja => words::piece_name(lang, v, kind),
    }
}

/// A side as texts name it after a player: `black` (the game's own word) in English, `先手` in
/// Japanese.
pub fn side(lang: Lang, v: &Variant, c: Color) -> String {
    match lang {
        Lang::En => v.side_name(c).to_string(),
        Lang::Ja => words::side(lang, v, c),
    }
}

/// A handicap's name: the word typed in commands (`rook`) in English, `飛車落ち` in Japanese.
pub fn handicap(lang: Lang, name: &str) -> String {
    let key = match name {
        "lance" => "handicap-lance",
        "bishop" => "handicap-bishop",
        "rook" => "handicap-rook",
        "rook-lance" => "handicap-rook-lance",
        "two" => "handicap-two",
        "four" => "handicap-four",
        "six" => "handicap-six",
        _ => return name.to_string(),
    };
    match lang {
        Lang::En => name.to_string(),
        Lang::Ja => t!(lang, key),
    }
}

/// A game's name as a message, put into words in its reader's language: `Shogi`, `将棋`.
pub fn variant_msg(id: VariantId) -> super::Msg {
    super::Msg::new(match id {
        VariantId::Shogi => "variant-shogi",
        VariantId::Judkins => "variant-judkins",
        VariantId::Cannon => "variant-cannon",
        VariantId::Palace => "variant-palace",
        VariantId::Shanghai => "variant-shanghai",
    })
}

/// Why a move is illegal, in `lang` (in English, `IllegalMove::message`).
pub fn illegal(lang: Lang, e: &IllegalMove, v: &Variant) -> String {
    let sq = |s: Square| square(lang, v, s);
    let p = |k: PieceKind| piece(lang, v, k);
    let mandatory = |k: PieceKind| v.spec.promotion.mandatory.contains(&k);
    match *e {
        IllegalMove::GameOver => t!(lang, "illegal-game-over"),
        IllegalMove::OffBoard => t!(lang, "illegal-off-board"),
        IllegalMove::NoPiece { from } => t!(lang, "illegal-no-piece", square = sq(from)),
        IllegalMove::NotYourPiece { from } => {
            t!(lang, "illegal-not-your-piece", square = sq(from))
        }
        IllegalMove::OwnPiece { to } => t!(lang, "illegal-own-piece", square = sq(to)),
        IllegalMove::CannotReach { kind, from, to } => t!(
            lang,
            "illegal-cannot-reach",
            piece = p(kind),
            from = sq(from),
            to = sq(to)
        ),
        IllegalMove::CannotPromote { kind } => {
            t!(lang, "illegal-cannot-promote", piece = p(kind))
        }
        IllegalMove::NotInZone { kind } if mandatory(kind) => {
            t!(lang, "illegal-not-in-zone-mandatory", piece = p(kind))
        }
        IllegalMove::NotInZone { kind } => t!(lang, "illegal-not-in-zone", piece = p(kind)),
        IllegalMove::MustPromote { kind, to } if mandatory(kind) => t!(
            lang,
            "illegal-must-promote-mandatory",
            piece = p(kind),
            square = sq(to)
        ),
        IllegalMove::MustPromote { kind, to } => t!(
            lang,
            "illegal-must-promote",
            piece = p(kind),
            square = sq(to)
        ),
        IllegalMove::NotInHand { kind } => t!(lang, "illegal-not-in-hand", piece = p(kind)),
        IllegalMove::DropOnOccupied { to } => {
            t!(lang, "illegal-drop-on-occupied", square = sq(to))
        }
        IllegalMove::DeadDrop { kind, to } => {
            t!(lang, "illegal-dead-drop", piece = p(kind), square = sq(to))
        }
        IllegalMove::DropOutsideZone { kind, to } => {
            // The zone's type is the engine's own (not exported): read by its debug form,
            // `Nearest(3)` or `NotEnemyPalace`.
            let zone = v
                .spec
                .drops
                .zones
                .iter()
                .find(|(k, _)| *k == kind)
                .map(|(_, z)| format!("{z:?}"));
            let nearest = zone
                .as_deref()
                .and_then(|z| z.strip_prefix("Nearest("))
                .and_then(|z| z.strip_suffix(')'))
                .and_then(|n| n.parse::<i64>().ok());
            match (zone.as_deref(), nearest) {
                (_, Some(n)) => t!(
                    lang,
                    "illegal-drop-nearest",
                    piece = p(kind),
                    ranks = n,
                    square = sq(to)
                ),
                (Some(_), None) => t!(
                    lang,
                    "illegal-drop-enemy-palace",
                    piece = p(kind),
                    square = sq(to)
                ),
                (None, _) => t!(
                    lang,
                    "illegal-drop-outside",
                    piece = p(kind),
                    square = sq(to)
                ),
            }
        }
        IllegalMove::TwoPawns { kind, to } => {
            let n = v.spec.drops.pawn_file_ranks;
            if n >= v.ranks() {
                t!(
                    lang,
                    "illegal-two-pawns",
                    piece = p(kind),
                    pieces = pieces(lang, v, kind),
                    file = file(lang, v, to)
                )
            } else {
                t!(
                    lang,
                    "illegal-two-pawns-near",
                    piece = p(kind),
                    file = file(lang, v, to),
                    ranks = n as i64
                )
            }
        }
        IllegalMove::TooManyPawns { kind, max } => t!(
            lang,
            "illegal-too-many-pawns",
            pieces = pieces(lang, v, kind),
            max = max as i64
        ),
        IllegalMove::PawnDropMate { kind } => {
            t!(lang, "illegal-pawn-drop-mate", piece = p(kind))
        }
        IllegalMove::InCheck => t!(lang, "illegal-in-check"),
        IllegalMove::SelfCheck => t!(lang, "illegal-self-check"),
        IllegalMove::QueenInPalace => t!(lang, "illegal-queen-in-palace"),
        IllegalMove::QueenWall => t!(lang, "illegal-queen-wall"),
        IllegalMove::LionTakesLion => t!(lang, "illegal-lion-takes-lion"),
        IllegalMove::LionCannotStare => t!(lang, "illegal-lion-cannot-stare"),
        IllegalMove::LionFirstStepMustCapture => t!(lang, "illegal-lion-first-step"),
        IllegalMove::SecondLion => t!(lang, "illegal-second-lion"),
        IllegalMove::CannonScreen => t!(lang, "illegal-cannon-screen"),
        IllegalMove::CannonTarget => t!(lang, "illegal-cannon-target"),
        IllegalMove::NoCastlingRight { lance } => {
            t!(lang, "illegal-no-castling-right", square = sq(lance))
        }
        IllegalMove::CastlingBlocked => t!(lang, "illegal-castling-blocked"),
        IllegalMove::CastlingInCheck => t!(lang, "illegal-castling-in-check"),
        IllegalMove::ThirdRepetition => t!(lang, "illegal-third-repetition"),
        IllegalMove::Confined { kind, to } => {
            let palace = v
                .spec
                .confinement
                .iter()
                .find(|(k, _)| *k == kind)
                .is_some_and(|(_, r)| matches!(r, Region::OwnPalace));
            let id = if palace {
                "illegal-confined-palace"
            } else {
                "illegal-confined-river"
            };
            t!(lang, id, piece = p(kind), square = sq(to))
        }
        IllegalMove::PromotionChoice { kind } => {
            let choices = v
                .spec
                .promotion
                .choices
                .iter()
                .find(|(k, _)| *k == kind)
                .map(|(_, c)| {
                    c.iter()
                        .map(|&k| p(k))
                        .collect::<Vec<_>>()
                        .join(&t!(lang, "list-separator"))
                })
                .unwrap_or_default();
            t!(
                lang,
                "illegal-promotion-choice",
                piece = p(kind),
                choices = choices
            )
        }
        IllegalMove::CastlingThroughCheck { square } => {
            t!(lang, "illegal-castling-through-check", square = sq(square))
        }
    }
}

/// Why a declaration of the entering king is refused, in `lang`.
pub fn declaration(lang: Lang, r: &Refusal) -> String {
    match *r {
        Refusal::GameOver => t!(lang, "declare-game-over"),
        Refusal::NotThisGame => t!(lang, "declare-not-this-game"),
        Refusal::KingOutside => t!(lang, "declare-king-outside"),
        Refusal::InCheck => t!(lang, "declare-in-check"),
        Refusal::TooFewPieces { found } => t!(
            lang,
            "declare-too-few-pieces",
            found = found as i64,
            needed = PIECES_NEEDED as i64
        ),
        Refusal::TooFewPoints { found, needed } => t!(
            lang,
            "declare-too-few-points",
            found = found as i64,
            needed = needed as i64
        ),
    }
}

/// Examples of how to write a move of `v`, for a refusal in `lang`.
fn hint(lang: Lang, v: &Variant) -> String {
    match v.spec.squares {
        SquareNames::Shogi => t!(lang, "input-hint-shogi"),
        SquareNames::Western => t!(lang, "input-hint-western"),
    }
}

/// The legal moves of `pos` written in `notation`, for the moves the engine wrote in Western
/// notation in `forms` (the candidates of an ambiguous input), in the same order.
fn rewritten(
    pos: &Position,
    forms: &[String],
    notation: Notation,
    last: Option<Square>,
) -> Vec<String> {
    if notation == Notation::Western {
        return forms.to_vec();
    }
    let legal = pos.legal_moves();
    let western = human_all(pos, &legal);
    let mine = written_all(pos, &legal, notation, last);
    forms
        .iter()
        .map(|f| {
            western
                .iter()
                .position(|w| w == f)
                .map_or_else(|| f.clone(), |i| mine[i].clone())
        })
        .collect()
}

/// Why `typed`, read in `pos`, is not a move that can be played now, in `lang`; the moves it
/// offers instead in `notation` (`last`: where the previous move went, for `同`). In English,
/// the engine's own sentence.
pub fn input(
    lang: Lang,
    e: &MoveInputError,
    pos: &Position,
    typed: &str,
    notation: Notation,
    last: Option<Square>,
) -> String {
    let v = pos.variant();
    let sep = t!(lang, "list-separator");
    // What the player meant: the engine's description in English; what they typed, quoted, in
    // Japanese (the engine describes it in English words).
    let what = |understood: &str| match lang {
        Lang::En => understood.to_string(),
        Lang::Ja => t!(lang, "input-typed", text = typed.trim()),
    };
    match e {
        MoveInputError::Empty => t!(lang, "input-empty"),
        MoveInputError::Unreadable { input, hint: h } => t!(
            lang,
            "input-unreadable",
            input = input.as_str(),
            hint = match lang {
                Lang::En => h.to_string(),
                // Moves legal here, in the reader's notation; the forms when there is none.
                Lang::Ja => {
                    let ex = crate::engine::notation::example_texts(pos, notation, last, 3);
                    if ex.is_empty() {
                        hint(lang, v)
                    } else {
                        ex.join(&sep)
                    }
                }
            }
        ),
        MoveInputError::UnknownPiece { name } => {
            t!(lang, "input-unknown-piece", name = name.as_str())
        }
        MoveInputError::NoSuchSquare {
            square,
            game,
            range,
        } => {
            let (game, range) = match lang {
                Lang::En => (game.to_string(), range.clone()),
                Lang::Ja => (
                    words::variant(lang, v.id()),
                    match v.spec.squares {
                        SquareNames::Shogi => t!(
                            lang,
                            "input-range-shogi",
                            files = v.files() as i64,
                            ranks = v.ranks() as i64
                        ),
                        SquareNames::Western => range.clone(),
                    },
                ),
            };
            t!(
                lang,
                "input-no-such-square",
                square = square.as_str(),
                game = game,
                range = range
            )
        }
        MoveInputError::Illegal {
            understood,
            why,
            reason,
        } => {
            let why = match lang {
                Lang::En => why.clone(),
                Lang::Ja => illegal_why(lang, v, why, reason.as_ref(), typed),
            };
            t!(
                lang,
                "input-illegal",
                understood = what(understood),
                why = why
            )
        }
        MoveInputError::Ambiguous {
            understood,
            options,
        } => t!(
            lang,
            "input-ambiguous",
            understood = what(understood),
            options = rewritten(pos, options, notation, last).join(&sep)
        ),
        MoveInputError::PromotionChoice {
            understood,
            options,
        } => {
            let [yes, no] = match lang {
                // The forms to type, as the engine wrote them (`+`, `=`).
                Lang::En => options.clone(),
                Lang::Ja => {
                    let r = rewritten(pos, options, notation, last);
                    [r[0].clone(), r[1].clone()]
                }
            };
            t!(
                lang,
                "input-promotion-choice",
                understood = what(understood),
                promote = yes,
                stay = no
            )
        }
        MoveInputError::PieceChoice {
            understood,
            options,
        } => t!(
            lang,
            "input-piece-choice",
            understood = what(understood),
            options = rewritten(pos, options, notation, last).join(&sep)
        ),
        MoveInputError::AmbiguousJapanese {
            written,
            candidates,
        } => t!(
            lang,
            "input-ambiguous-japanese",
            written = written.as_str(),
            options = {
                // 成 before 不成, as a player asks it; the rest in the engine's order.
                let mut marks = distinctions(written, candidates);
                marks.sort_by_key(|d| d.starts_with('不'));
                marks.join(&t!(lang, "input-or"))
            }
        ),
        MoveInputError::NoneFits {
            written,
            candidates,
        } => t!(
            lang,
            "input-none-fits",
            written = written.as_str(),
            candidates = candidates.join(&sep)
        ),
        MoveInputError::NoPreviousMove => t!(lang, "input-no-previous"),
        MoveInputError::WrongSide { written } => {
            t!(lang, "input-wrong-side", written = written.as_str())
        }
    }
}

/// The reason of an illegal input in Japanese: from the rule it breaks when the engine named
/// one; else from the engine's English sentence, whose few forms are known.
fn illegal_why(
    lang: Lang,
    v: &Variant,
    why: &str,
    reason: Option<&IllegalMove>,
    typed: &str,
) -> String {
    match reason {
        // Several pieces of a kind, none of which reaches the square.
        Some(IllegalMove::CannotReach { kind, to, .. }) if why.starts_with("none of your") => t!(
            lang,
            "input-none-can-reach",
            pieces = pieces(lang, v, *kind),
            square = square(lang, v, *to)
        ),
        Some(r) => illegal(lang, r, v),
        None => {
            if why.starts_with("a dropped piece never promotes") {
                return t!(lang, "input-drop-promotes");
            }
            let named = |rest: &str| {
                PieceKind::ALL
                    .iter()
                    .copied()
                    .filter(|&k| v.has_kind(k))
                    .find(|&k| v.piece_name(k) == rest)
            };
            if let Some(rest) = why.strip_prefix("you have no ") {
                if let Some(name) = rest.strip_suffix(" on the board or in hand") {
                    if let Some(k) = named(name) {
                        return t!(lang, "input-no-piece-anywhere", piece = piece(lang, v, k));
                    }
                }
                if let Some(name) = rest.strip_suffix(" on the board") {
                    if let Some(k) = named(name) {
                        return t!(lang, "input-no-piece-on-board", piece = piece(lang, v, k));
                    }
                }
            }
            t!(lang, "input-not-a-move", text = typed.trim())
        }
    }
}

/// The handicaps a game offers, as a player of `lang` names them (for a refusal's list).
pub fn handicaps(lang: Lang, id: VariantId) -> Vec<String> {
    Variant::get(id)
        .spec
        .handicaps
        .iter()
        .map(|h| match lang {
            Lang::En => h.name.to_string(),
            Lang::Ja => format!("{}（{}）", h.name, handicap(lang, h.name)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::input::parse_move;

    fn sq(v: &Variant, s: &str) -> Square {
        v.parse_square(s).expect("a square")
    }

    #[test]
    fn english_refusals_are_the_engine_s_own() {
        for id in VariantId::ALL {
            let v = Variant::get(*id);
            let a = sq(
                v,
                if v.spec.squares == SquareNames::Shogi {
                    "5e"
                } else {
                    "e5"
                },
            );
            let b = sq(
                v,
                if v.spec.squares == SquareNames::Shogi {
                    "3c"
                } else {
                    "c3"
                },
            );
            let mut cases = vec![
                IllegalMove::GameOver,
                IllegalMove::OffBoard,
                IllegalMove::NoPiece { from: a },
                IllegalMove::NotYourPiece { from: a },
                IllegalMove::OwnPiece { to: b },
                IllegalMove::InCheck,
                IllegalMove::SelfCheck,
                IllegalMove::QueenInPalace,
                IllegalMove::QueenWall,
                IllegalMove::LionTakesLion,
                IllegalMove::LionCannotStare,
                IllegalMove::LionFirstStepMustCapture,
                IllegalMove::SecondLion,
                IllegalMove::CannonScreen,
                IllegalMove::CannonTarget,
                IllegalMove::NoCastlingRight { lance: a },
                IllegalMove::CastlingBlocked,
                IllegalMove::CastlingInCheck,
                IllegalMove::CastlingThroughCheck { square: b },
                IllegalMove::ThirdRepetition,
                IllegalMove::DropOnOccupied { to: b },
            ];
            for &kind in PieceKind::ALL {
                cases.extend([
                    IllegalMove::CannotReach {
                        kind,
                        from: a,
                        to: b,
                    },
                    IllegalMove::CannotPromote { kind },
                    IllegalMove::NotInZone { kind },
                    IllegalMove::MustPromote { kind, to: b },
                    IllegalMove::NotInHand { kind },
                    IllegalMove::DeadDrop { kind, to: b },
                    IllegalMove::DropOutsideZone { kind, to: b },
                    IllegalMove::TwoPawns { kind, to: b },
                    IllegalMove::TooManyPawns { kind, max: 5 },
                    IllegalMove::PawnDropMate { kind },
                    IllegalMove::Confined { kind, to: b },
                    IllegalMove::PromotionChoice { kind },
                ]);
            }
            for e in cases {
                assert_eq!(illegal(Lang::En, &e, v), e.message(v), "{id:?} {e:?}");
                let ja = illegal(Lang::Ja, &e, v);
                assert!(!ja.starts_with("illegal-"), "{e:?}: {ja}");
            }
        }
        for r in [
            Refusal::GameOver,
            Refusal::NotThisGame,
            Refusal::KingOutside,
            Refusal::InCheck,
            Refusal::TooFewPieces { found: 3 },
            Refusal::TooFewPoints {
                found: 20,
                needed: 28,
            },
        ] {
            assert_eq!(declaration(Lang::En, &r), r.to_string());
        }
    }

    #[test]
    fn typed_moves_are_refused_in_english_as_the_engine_says() {
        for id in VariantId::ALL {
            let pos = Position::start(*id);
            for typed in [
                "", "zz9", "Q-5e", "P-5e", "P*5e", "P-7f+", "S-5h", "7g7f+", "R-2c", "S", "x",
                "e4", "Qd4", "e2e5", "P-0z", "B-7f", "G-5h", "N-7e",
            ] {
                if let Err(e) = parse_move(&pos, typed) {
                    assert_eq!(
                        input(Lang::En, &e, &pos, typed, Notation::Western, None),
                        e.to_string(),
                        "{id:?} {typed}"
                    );
                    let ja = input(Lang::Ja, &e, &pos, typed, Notation::Japanese, None);
                    assert!(!ja.starts_with("input-"), "{typed}: {ja}");
                }
            }
        }
    }

    #[test]
    fn japanese_squares_are_wide_files_and_kanji_ranks() {
        let v = Variant::get(VariantId::Shogi);
        assert_eq!(square(Lang::Ja, v, sq(v, "7f")), "７六");
        assert_eq!(square(Lang::En, v, sq(v, "7f")), "7f");
        let j = Variant::get(VariantId::Judkins);
        assert_eq!(square(Lang::Ja, j, sq(j, "6a")), "６一");
        let e = IllegalMove::TwoPawns {
            kind: PieceKind::Pawn,
            to: sq(v, "7f"),
        };
        assert!(illegal(Lang::Ja, &e, v).contains("二歩"));
        assert_eq!(handicap(Lang::Ja, "rook-lance"), "飛香落ち");
    }
}
