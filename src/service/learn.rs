//! Learning a game inside Tegami: the rules page of each game (`rules GAME`: its goal and
//! endings, the start position with its zones marked and named, its pieces with their
//! diagrams, what happens to captured pieces, its special moves and how to write them, and
//! three moves that are legal at the start), and the hints that follow a refused move (how
//! squares are written, castling's form, the piece that can go where one was asked for),
//! every example in them a move that is legal where it is printed.
//!
//! Pieces are named by [`words::piece_name`], the one name of each piece.

use crate::engine::notation::input::MoveInputError;
use crate::engine::notation::{example_texts, written_all, Notation};
use crate::engine::{Color, Move, PieceKind, Position, Square, SquareNames, Variant, VariantId};
use crate::i18n::{refusal, words, Lang};
use crate::render::{self, PieceStyle, RenderOptions, ZoneMark};
use crate::t;

/// How many moves the rules page shows as the first moves one can play.
pub const FIRST_MOVES: usize = 3;

/// The key of a message about a game: `learn-<prefix>-<game id>`.
fn key(prefix: &str, id: VariantId) -> String {
    format!("learn-{prefix}-{}", id.as_str())
}

fn tr(lang: Lang, id: &str) -> String {
    crate::i18n::tr(lang, id, None)
}

/// The rules page of a game in `lang`, its example moves in `notation`: goal and endings, the
/// zones of the picture, the pieces (their diagrams are the sheet), captures, special moves,
/// how moves are written and three first moves; then the table of letters ([`super::views`]'s
/// `describe`).
pub fn lesson(lang: Lang, v: &Variant, notation: Notation) -> String {
    let id = v.id();
    let start = Position::start(id);
    let mut out = t!(
        lang,
        "learn-title",
        name = words::variant(lang, id),
        first = words::side(lang, v, Color::Black),
        second = words::side(lang, v, Color::White)
    );
    let section = |out: &mut String, head: String, body: String| {
        out.push_str("\n\n");
        out.push_str(&head);
        out.push('\n');
        out.push_str(&body);
    };
    section(
        &mut out,
        tr(lang, "learn-goal-head"),
        tr(lang, &key("goal", id)),
    );
    let zones = zones(lang, v)
        .iter()
        .map(|z| format!("- {}", z.label))
        .collect::<Vec<_>>()
        .join("\n");
    section(
        &mut out,
        tr(lang, "learn-board-head"),
        format!("{}\n{zones}", tr(lang, "learn-board-side")),
    );
    let names: Vec<String> = v
        .spec
        .pieces
        .letters
        .iter()
        .map(|l| format!("{} `{}`", words::piece_name(lang, v, l.kind), l.human))
        .collect();
    section(
        &mut out,
        t!(lang, "learn-pieces-head", id = id.as_str()),
        t!(
            lang,
            "learn-pieces",
            pieces = names.join(&t!(lang, "list-separator")),
            id = id.as_str()
        ),
    );
    section(
        &mut out,
        tr(lang, "learn-captures-head"),
        tr(lang, &key("captures", id)),
    );
    // Odds: the handicaps a challenge may name (Shogi's), with the special moves.
    let mut special = tr(lang, &key("special", id));
    if !v.spec.handicaps.is_empty() {
        let names: Vec<&str> = v.spec.handicaps.iter().map(|h| h.name).collect();
        special.push(' ');
        special.push_str(&t!(lang, "learn-handicaps", names = names.join("|")));
    }
    section(&mut out, tr(lang, "learn-special-head"), special);
    section(
        &mut out,
        tr(lang, "learn-writing-head"),
        tr(lang, &key("writing", id)),
    );
    let first = first_moves(&start, notation);
    section(
        &mut out,
        tr(lang, "learn-first-head"),
        t!(
            lang,
            "learn-first",
            moves = first
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(&t!(lang, "list-separator"))
        ),
    );
    out
}

/// The moves the rules page shows as legal at the start, as a player of `notation` types
/// them.
pub fn first_moves(start: &Position, notation: Notation) -> Vec<String> {
    example_texts(start, notation, None, FIRST_MOVES)
}

/// The zones of a game's board, named: the promotion zones (Shanghai: of the shogi pieces),
/// the palaces and the river. The first player's first.
pub fn zones(lang: Lang, v: &Variant) -> Vec<ZoneMark> {
    let id = v.id();
    let squares = |f: &dyn Fn(Square) -> bool| -> Vec<Square> {
        v.squares().iter().copied().filter(|&s| f(s)).collect()
    };
    let side = |c| words::side(lang, v, c);
    let board = render::BoardStyle::for_variant(id);
    let mut out = Vec::new();
    let zone_key = if id == VariantId::Shanghai {
        "learn-zone-shogi-promotion"
    } else {
        "learn-zone-promotion"
    };
    let rows = |c: Color| {
        let sq = squares(&|s| v.in_zone(c, s));
        // Ranks from the top (a, 一) in the shogi games, from the bottom (1) in Shanghai.
        let mut by_row: Vec<Square> = sq.clone();
        by_row.sort_by_key(|s| s.row());
        if v.spec.squares == SquareNames::Western {
            by_row.reverse();
        }
        let names: Vec<String> = by_row.iter().map(|&s| rank_of(lang, v, s)).collect();
        let (a, b) = (
            names.first().cloned().unwrap_or_default(),
            names.last().cloned().unwrap_or_default(),
        );
        (sq, a, b)
    };
    for c in Color::ALL {
        let (sq, a, b) = rows(c);
        out.push(ZoneMark {
            squares: sq,
            label: t!(lang, zone_key, side = side(c), from = a, to = b),
        });
    }
    if board != render::BoardStyle::Plain {
        for c in Color::ALL {
            out.push(ZoneMark {
                squares: squares(&|s| board.palace(v, s) == Some(c)),
                label: t!(lang, &key("zone-palace", id), side = side(c)),
            });
        }
    }
    if id == VariantId::Shanghai {
        out.push(ZoneMark {
            squares: squares(&|s| board.is_river(v, s)),
            label: tr(lang, "learn-zone-river"),
        });
    }
    out
}

/// The rank part of a square's name as a reader of `lang` writes it (`g`, `七`, `5`).
fn rank_of(lang: Lang, v: &Variant, s: Square) -> String {
    // Every game's file is one character (`7`, `７`, `e`), the rest is the rank.
    refusal::square(lang, v, s).chars().skip(1).collect()
}

/// The rules page's pictures: the start position with its zones (drawn with the notation's
/// rank labels) and the sheet of the pieces' diagrams, as PNG bytes.
pub fn pictures(
    lang: Lang,
    v: &'static Variant,
    notation: Notation,
    style: PieceStyle,
) -> Result<(Vec<u8>, Vec<u8>), render::RenderError> {
    let start = Position::start(v.id());
    let opts = RenderOptions {
        style,
        lang,
        rank_kanji: Some(notation == Notation::Japanese),
        ..Default::default()
    };
    let board = render::render_zones(&start, &opts, &zones(lang, v));
    let setups: Vec<_> = v
        .spec
        .pieces
        .letters
        .iter()
        .map(|l| {
            let piece = crate::engine::Piece::new(l.kind, Color::Black);
            let (at, others) = crate::engine::diagram_setup(v, l.kind);
            let targets = crate::engine::reach(v, piece, at, &others);
            (l, piece, at, others, targets)
        })
        .collect();
    let cells: Vec<_> = setups
        .iter()
        .map(|(l, piece, at, others, targets)| {
            render::sheet_cell(
                v,
                *piece,
                *at,
                targets,
                others,
                style,
                format!("{} {}", l.human, words::piece_name(lang, v, l.kind)),
            )
        })
        .collect();
    let sheet = render::render_sheet(&cells, 5);
    Ok((render::encode_png(&board)?, render::encode_png(&sheet)?))
}

/// A hint after a refused move: a sentence that teaches, and the moves it offers (each legal
/// in the position it answers, written as the player may type it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    pub text: String,
    pub examples: Vec<String>,
}

/// What to add to the refusal of `typed` (refused with `e` in `pos`) so that it teaches: how
/// squares are written when a chess square is typed in a shogi game, castling's form, the
/// pieces that can go to the square asked for, Palace Shogi's promoted pawns. `None` when the
/// refusal says it all.
pub fn hint(
    lang: Lang,
    pos: &Position,
    typed: &str,
    e: &MoveInputError,
    notation: Notation,
    last: Option<Square>,
) -> Option<Hint> {
    let v = pos.variant();
    let text = typed.trim();
    if pos.legal_moves().is_empty() {
        return None;
    }
    let legal = pos.legal_moves();
    let written = written_all(pos, &legal, notation, last);
    let form = |m: Move| -> String {
        legal
            .iter()
            .position(|&l| l == m)
            .map(|i| written[i].clone())
            .unwrap_or_default()
    };
    let quoted = |ex: &[String]| {
        ex.iter()
            .map(|m| format!("`{m}`"))
            .collect::<Vec<_>>()
            .join(&t!(lang, "list-separator"))
    };
    // Castling, as chess writes it.
    let castling = text.replace('0', "O").to_ascii_uppercase();
    if castling == "O-O" || castling == "O-O-O" {
        if v.id() != VariantId::Palace {
            return Some(Hint {
                text: t!(
                    lang,
                    "learn-hint-no-castling",
                    game = words::variant(lang, v.id())
                ),
                examples: Vec::new(),
            });
        }
        let castles: Vec<String> = legal
            .iter()
            .filter(|m| matches!(m, Move::Castle { .. }))
            .map(|&m| form(m))
            .collect();
        return Some(if castles.is_empty() {
            Hint {
                text: tr(lang, "learn-hint-castling-not-now"),
                examples: Vec::new(),
            }
        } else {
            Hint {
                text: t!(lang, "learn-hint-castling", moves = quoted(&castles)),
                examples: castles,
            }
        });
    }
    // A chess square in a shogi game: `e4`, `Nf3`, `exd5`.
    if v.spec.squares == SquareNames::Shogi {
        if let Some(sq) = chess_square(v, text) {
            let ex = moves_to(sq, &legal, &form);
            let shown = refusal::square(lang, v, sq);
            let examples = if ex.is_empty() {
                example_texts(pos, notation, last, 2)
            } else {
                ex
            };
            return Some(Hint {
                text: t!(
                    lang,
                    "learn-hint-shogi-squares",
                    game = words::variant(lang, v.id()),
                    typed = text,
                    square = shown,
                    files = i64::from(v.files()),
                    last = ((b'a' + v.ranks() - 1) as char).to_string(),
                    moves = quoted(&examples)
                ),
                examples,
            });
        }
    }
    // Palace Shogi's pawns start promoted: `P-7f` means a footsoldier, `76歩` is no piece.
    if v.id() == VariantId::Palace {
        let meant_pawn = match e {
            MoveInputError::Illegal { understood, .. } => understood.starts_with("footsoldier"),
            _ => text.contains('歩'),
        };
        let has_footsoldier = pos
            .pieces()
            .any(|(_, p)| p.color == pos.side_to_move() && p.kind == PieceKind::Footsoldier);
        if meant_pawn && !has_footsoldier {
            let to = target(v, text);
            let pawn_moves: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| {
                    m.from()
                        .and_then(|f| pos.piece_at(f))
                        .is_some_and(|p| p.kind == PieceKind::PalacePawn)
                })
                .collect();
            let mut ex: Vec<String> = pawn_moves
                .iter()
                .filter(|m| Some(m.to()) == to)
                .map(|&m| form(m))
                .collect();
            if ex.is_empty() {
                ex = pawn_moves.iter().take(1).map(|&m| form(m)).collect();
            }
            return Some(Hint {
                text: t!(lang, "learn-hint-palace-pawns", moves = quoted(&ex)),
                examples: ex,
            });
        }
    }
    // The square asked for, and the moves that go there.
    if let Some(to) = target(v, text) {
        if matches!(
            e,
            MoveInputError::Illegal { .. } | MoveInputError::UnknownPiece { .. }
        ) {
            let ex = moves_to(to, &legal, &form);
            let who: Vec<String> = legal
                .iter()
                .filter(|m| m.to() == to)
                .filter_map(|m| match m {
                    Move::Drop { kind, .. } => Some(words::piece_name(lang, v, *kind)),
                    _ => m
                        .from()
                        .and_then(|f| pos.piece_at(f))
                        .map(|p| words::piece_name(lang, v, p.kind)),
                })
                .fold(Vec::new(), |mut acc, n| {
                    if !acc.contains(&n) {
                        acc.push(n);
                    }
                    acc
                });
            if !ex.is_empty() {
                return Some(Hint {
                    text: t!(
                        lang,
                        "learn-hint-moves-to",
                        square = refusal::square(lang, v, to),
                        pieces = who.join(&t!(lang, "list-separator")),
                        moves = quoted(&ex)
                    ),
                    examples: ex,
                });
            }
        }
    }
    // Anything else that could not be read, or a move nothing can make: moves that can be
    // played.
    if matches!(
        e,
        MoveInputError::UnknownPiece { .. }
            | MoveInputError::NoSuchSquare { .. }
            | MoveInputError::Illegal { .. }
    ) {
        let ex = example_texts(pos, notation, last, 3);
        return Some(Hint {
            text: t!(lang, "learn-hint-some-moves", moves = quoted(&ex)),
            examples: ex,
        });
    }
    None
}

/// The refusal of `typed` in `pos` ([`refusal::input`]) followed by its [`hint`], if any, on
/// a line of its own.
pub fn refusal_with_hint(
    lang: Lang,
    e: &MoveInputError,
    pos: &Position,
    typed: &str,
    notation: Notation,
    last: Option<Square>,
) -> String {
    let mut text = refusal::input(lang, e, pos, typed, notation, last);
    if let Some(h) = hint(lang, pos, typed, e, notation, last) {
        text.push('\n');
        text.push_str(&h.text);
    }
    text
}

/// The legal moves to `to`, written as `form` writes them (at most four).
fn moves_to(to: Square, legal: &[Move], form: &dyn Fn(Move) -> String) -> Vec<String> {
    let mut out: Vec<String> = legal
        .iter()
        .filter(|m| m.to() == to)
        .map(|&m| form(m))
        .collect();
    out.sort();
    out.dedup();
    out.truncate(4);
    out
}

/// The square a typed move ends on, if its end is a square of the game (`P-7f` → 7f, `Ze4`
/// → e4, `7g7f+` → 7f).
fn target(v: &Variant, text: &str) -> Option<Square> {
    let t = text.trim_end_matches(['+', '=', '!', '?']);
    let chars: Vec<char> = t.chars().collect();
    (2..=3.min(chars.len())).rev().find_map(|n| {
        let tail: String = chars[chars.len() - n..].iter().collect();
        v.parse_square(&tail)
    })
}

/// A square written as chess writes it (`e4`, `Nf3`, `exd5`) in a game whose squares are
/// written the shogi way: the square it means, seen from the first player (files `a` from
/// the left are the shogi files from 9, ranks `1` at the bottom are the letters from the
/// last).
fn chess_square(v: &Variant, text: &str) -> Option<Square> {
    let b = text.as_bytes();
    if b.len() < 2 || b.len() > 5 {
        return None;
    }
    let (f, r) = (b[b.len() - 2], b[b.len() - 1]);
    if !(f.is_ascii_lowercase() && r.is_ascii_digit()) {
        return None;
    }
    // What comes before must be a piece letter or a capture, as chess writes them.
    let head = &text[..text.len() - 2];
    if !head.chars().all(|c| c.is_ascii_alphabetic() || c == 'x') {
        return None;
    }
    let (col, rank) = (f - b'a', r.checked_sub(b'1')?);
    if col >= v.files() || rank >= v.ranks() {
        return None;
    }
    let file = v.files() - col;
    let letter = (b'a' + v.ranks() - 1 - rank) as char;
    v.parse_square(&format!("{file}{letter}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chess_square_is_the_shogi_square_seen_from_black() {
        let v = Variant::get(VariantId::Shogi);
        let sq = |s: &str| v.parse_square(s);
        assert_eq!(chess_square(v, "e4"), sq("5f"));
        assert_eq!(chess_square(v, "a1"), sq("9i"));
        assert_eq!(chess_square(v, "Nf3"), sq("4g"));
        assert_eq!(chess_square(v, "7f"), None);
        assert_eq!(chess_square(v, "P-7f"), None);
        let j = Variant::get(VariantId::Judkins);
        assert_eq!(chess_square(j, "g1"), None);
    }

    #[test]
    fn targets_are_the_end_of_what_was_typed() {
        let v = Variant::get(VariantId::Shogi);
        assert_eq!(target(v, "P-7f"), v.parse_square("7f"));
        assert_eq!(target(v, "7g7f+"), v.parse_square("7f"));
        let s = Variant::get(VariantId::Shanghai);
        assert_eq!(target(s, "Ze4"), s.parse_square("e4"));
    }
}
