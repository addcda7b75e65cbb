//! The forgiving reader of what players type. Accepted, case-insensitively where it is
//! unambiguous:
//!
//! - move codes: `7g7f`, `2c2b+`, `P*5e` (and numeric ranks: `7776`);
//! - Hodges notation: `P-7f`, `p-7f`, `Px7f`, `N-7c=`, `+R-2b`, `G6i-5h`, `S*5e`, `GC-5d`;
//! - the numeric-rank form pychess players use: `P-76`, `P*55`;
//! - a bare piece and square when only one move fits: `P7f`, `R2b+`;
//! - in Shanghai Palace Chess, algebraic notation: `Nf4`, `Ne2-f4`, `Cxe7`, `e4`, `dxe5`,
//!   `c9=Q` (or `c9Q`), `S*e5`, `Fh5+`; piece letters are upper case there (lower-case `a`..`i`
//!   are files), except letters that are no file (`nf4` is read as `Nf4`).
//!
//! - in the four shogi games, Japanese notation (`japanese`): `７六歩`, `76歩`, `▲７六歩`,
//!   `7六歩`, `同歩` (with the previous move's square: `parse_move_after`), `55角打`, `22角成`,
//!   `22角不成`, `58金右`, `58金寄`.
//!
//! The answer is the one legal move meant, or why none is: what was understood and the rule
//! that forbids it, or the moves to choose between.

use thiserror::Error;

use crate::engine::notation::{code, human, japanese};
use crate::engine::variant::SquareNames;
use crate::engine::{IllegalMove, Move, PieceKind, Position, Square};

/// Why an input is not a move that can be played now.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveInputError {
    #[error("no move given")]
    Empty,
    #[error("'{input}' is not a move I can read: write it like {hint}")]
    Unreadable { input: String, hint: String },
    #[error("'{name}' is not a piece of this game")]
    UnknownPiece { name: String },
    #[error("{square} is not a square of {game} ({range})")]
    NoSuchSquare {
        square: String,
        game: &'static str,
        range: String,
    },
    #[error("{understood}: {why}")]
    Illegal {
        understood: String,
        why: String,
        reason: Option<IllegalMove>,
    },
    #[error("{understood} could be several moves: {}", options.join(", "))]
    Ambiguous {
        understood: String,
        options: Vec<String>,
    },
    #[error("{understood}: promote or not? Write {} (promote) or {} (do not)", options[0], options[1])]
    PromotionChoice {
        understood: String,
        options: [String; 2],
    },
    #[error("{understood}: which piece does the pawn become? Write one of {}", options.join(", "))]
    PieceChoice {
        understood: String,
        options: Vec<String>,
    },
    /// A Japanese move that fits several legal moves: `written` is what was understood
    /// (`５八金`), `candidates` the written forms of the moves it fits (`▲５八金右`, `▲５八金左`).
    #[error("{written}: {}?", distinctions(written, candidates).join(" or "))]
    AmbiguousJapanese {
        written: String,
        candidates: Vec<String>,
    },
    /// A Japanese move whose marks (右, 上, the start square…) fit none of the pieces that can
    /// go there: `candidates` are the written forms of the moves there are.
    #[error("{written}: no such move here; the moves there are {}", candidates.join(", "))]
    NoneFits {
        written: String,
        candidates: Vec<String>,
    },
    /// `同` (the square of the previous move) with no previous move.
    #[error("同 means the square of the previous move, and there is none")]
    NoPreviousMove,
    /// A Japanese move marked ▲ when White is to move, or △ when Black is.
    #[error("'{written}': it is the other side's turn")]
    WrongSide { written: String },
}

/// What tells the candidates of an ambiguous Japanese move apart: each candidate without its
/// side mark and without the part already written (`右`, `左`; `成`, `不成`), or whole when it
/// does not begin with it.
pub fn distinctions(written: &str, candidates: &[String]) -> Vec<String> {
    candidates
        .iter()
        .map(|c| {
            let bare = c.trim_start_matches(['▲', '△']);
            match bare.strip_prefix(written) {
                Some(rest) if !rest.is_empty() => rest.to_string(),
                _ => bare.to_string(),
            }
        })
        .collect()
}

/// What the reader made of the text.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pattern {
    pub(crate) kind: Option<PieceKind>,
    pub(crate) from: Option<Square>,
    /// The captured square of a lion double move (three squares given).
    pub(crate) via: Option<Square>,
    pub(crate) to: Option<Square>,
    pub(crate) drop: Option<bool>,
    pub(crate) promote: Option<bool>,
    /// The file a Western pawn captures from (`dxe5`).
    pub(crate) from_file: Option<u8>,
    /// The piece a Western pawn becomes (`c9=Q`).
    pub(crate) choice: Option<PieceKind>,
}

/// Reads a move typed by a player and resolves it against the legal moves of `pos`. A
/// Japanese `同` (the previous move's square) needs `parse_move_after`.
pub fn parse_move(pos: &Position, input: &str) -> Result<Move, MoveInputError> {
    parse_move_after(pos, input, None)
}

/// `parse_move`, knowing where the previous move of the game went (`last`), which a Japanese
/// `同歩` names.
pub fn parse_move_after(
    pos: &Position,
    input: &str,
    last: Option<Square>,
) -> Result<Move, MoveInputError> {
    let v = pos.variant();
    let text: String = input
        .trim()
        .trim_end_matches(['!', '?', '#'])
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if text.is_empty() {
        return Err(MoveInputError::Empty);
    }
    if v.spec.squares == SquareNames::Shogi && japanese::looks_japanese(&text) {
        return japanese::read(pos, &text, last);
    }
    if let Some(m) = code::parse(pos, &text) {
        return match pos.check_move(m) {
            Ok(()) => Ok(m),
            Err(reason) => Err(MoveInputError::Illegal {
                understood: describe_code(pos, m),
                why: reason.message(v),
                reason: Some(reason),
            }),
        };
    }
    let pat = read_pattern(pos, &text)?;
    resolve(pos, &pat, &text)
}

fn describe_code(pos: &Position, m: Move) -> String {
    let v = pos.variant();
    match m {
        Move::Board { from, to, promote } => match pos.piece_at(from) {
            Some(p) => format!(
                "{} {}-{}{}",
                v.piece_name(p.kind),
                v.square_name(from),
                v.square_name(to),
                if promote { " promoting" } else { "" }
            ),
            None => format!("{}-{}", v.square_name(from), v.square_name(to)),
        },
        Move::Drop { kind, to } => {
            format!("{} dropped on {}", v.piece_name(kind), v.square_name(to))
        }
        Move::Lion { from, via, to } => format!(
            "lion {} capturing on {} then to {}",
            v.square_name(from),
            v.square_name(via),
            v.square_name(to)
        ),
        Move::Castle { from, to } => {
            format!(
                "castling, king {}-{}",
                v.square_name(from),
                v.square_name(to)
            )
        }
        Move::PromoteTo { from, to, kind } => format!(
            "pawn {}-{} becoming a {}",
            v.square_name(from),
            v.square_name(to),
            v.piece_name(kind)
        ),
        Move::EnPassant { from, to } => format!(
            "pawn {} taking en passant on {}",
            v.square_name(from),
            v.square_name(to)
        ),
    }
}

fn read_pattern(pos: &Position, text: &str) -> Result<Pattern, MoveInputError> {
    if pos.variant().spec.squares == SquareNames::Western {
        return read_algebraic(pos, text);
    }
    let v = pos.variant();
    let unreadable = || MoveInputError::Unreadable {
        input: text.to_string(),
        hint: hint(pos),
    };
    let b = text.as_bytes();
    let mut i = 0;
    let mut pat = Pattern::default();
    // Piece: optional '+', then letters.
    let promoted_prefix = b.first() == Some(&b'+');
    if promoted_prefix {
        i += 1;
    }
    let start = i;
    let mut end = i;
    while end < b.len() && b[end].is_ascii_alphabetic() {
        end += 1;
    }
    if end > start {
        // The longest run of letters that names a piece (`Px7f` is a pawn capturing).
        let prefix = if promoted_prefix { "+" } else { "" };
        let found = (start + 1..=end).rev().find_map(|e| {
            let name = format!("{prefix}{}", &text[start..e]);
            v.kind_by_human(&name)
                .or_else(|| v.kind_by_code(&name))
                .map(|k| (k, e))
        });
        match found {
            Some((kind, e)) => {
                pat.kind = Some(kind);
                i = e;
            }
            None if !text.bytes().any(|c| c.is_ascii_digit()) => return Err(unreadable()),
            None => {
                return Err(MoveInputError::UnknownPiece {
                    name: format!("{prefix}{}", &text[start..end]),
                })
            }
        }
    } else if promoted_prefix {
        return Err(unreadable());
    }
    let mut squares = Vec::new();
    loop {
        if i + 2 <= b.len() && b[i].is_ascii_digit() {
            let token = text.get(i..i + 2).unwrap_or_default();
            if let Some(s) = v.parse_square(token) {
                squares.push(s);
                i += 2;
                continue;
            }
            if b[i + 1].is_ascii_alphanumeric() {
                return Err(no_such_square(pos, token));
            }
        }
        match b.get(i) {
            Some(b'-') | Some(b'x') | Some(b'X') if pat.drop != Some(true) => {
                pat.drop = Some(false);
                i += 1;
            }
            Some(b'*') if pat.drop.is_none() && squares.is_empty() => {
                pat.drop = Some(true);
                i += 1;
            }
            _ => break,
        }
    }
    match b.get(i) {
        Some(b'+') => {
            pat.promote = Some(true);
            i += 1;
        }
        Some(b'=') => {
            pat.promote = Some(false);
            i += 1;
        }
        _ => {}
    }
    if i != b.len() {
        return Err(unreadable());
    }
    match squares.len() {
        1 => pat.to = Some(squares[0]),
        2 => {
            pat.from = Some(squares[0]);
            pat.to = Some(squares[1]);
        }
        3 => {
            pat.from = Some(squares[0]);
            pat.via = Some(squares[1]);
            pat.to = Some(squares[2]);
        }
        _ => return Err(unreadable()),
    }
    if pat.kind.is_none() && pat.from.is_none() {
        return Err(unreadable());
    }
    if pat.drop == Some(true) && (pat.from.is_some() || pat.kind.is_none()) {
        return Err(unreadable());
    }
    if pat.from.is_some() {
        pat.drop = Some(false);
    }
    Ok(pat)
}

/// Reads algebraic notation (Shanghai Palace Chess).
fn read_algebraic(pos: &Position, text: &str) -> Result<Pattern, MoveInputError> {
    let v = pos.variant();
    let unreadable = || MoveInputError::Unreadable {
        input: text.to_string(),
        hint: hint(pos),
    };
    let b = text.as_bytes();
    let is_file = |c: u8| (b'a'..=b'i').contains(&c.to_ascii_lowercase());
    let is_square_at = |i: usize| i + 1 < b.len() && is_file(b[i]) && b[i + 1].is_ascii_digit();
    let mut i = 0;
    let mut pat = Pattern::default();
    // Piece letter: '+' and a letter, an upper-case letter, or a lower-case one that is no file.
    let piece_start = b.first().is_some_and(|&c| {
        c == b'+'
            || c.is_ascii_uppercase() && !is_square_at(0)
            || c.is_ascii_lowercase() && !is_file(c)
    });
    if piece_start {
        let len = if b[0] == b'+' { 2 } else { 1 };
        let name = text.get(..len).ok_or_else(unreadable)?;
        let kind = v.kind_by_code(&name.to_ascii_uppercase()).ok_or_else(|| {
            MoveInputError::UnknownPiece {
                name: name.to_string(),
            }
        })?;
        pat.kind = Some(kind);
        i = len;
    } else if b.len() > 2 && is_file(b[0]) && matches!(b[1], b'x' | b'X') {
        // `dxe5`: a Western pawn capturing from the d-file.
        pat.from_file = Some(b[0].to_ascii_lowercase() - b'a');
        pat.drop = Some(false);
        i = 2;
    }
    let mut squares = Vec::new();
    loop {
        if is_square_at(i) {
            let s = v.parse_square(&text[i..i + 2]).ok_or_else(unreadable)?;
            squares.push(s);
            i += 2;
            continue;
        }
        match b.get(i) {
            Some(b'-') | Some(b'x') | Some(b'X') if pat.drop != Some(true) => {
                pat.drop = Some(false);
                i += 1;
            }
            Some(b'*') if pat.drop.is_none() && squares.is_empty() && pat.kind.is_some() => {
                pat.drop = Some(true);
                i += 1;
            }
            _ => break,
        }
    }
    let rest = &text[i..];
    let choice = rest.strip_prefix('=').unwrap_or(rest);
    if rest == "+" {
        pat.promote = Some(true);
    } else if rest == "=" {
        pat.promote = Some(false);
    } else if !choice.is_empty() {
        let kind = (choice.len() == 1)
            .then(|| v.kind_by_code(&choice.to_ascii_uppercase()))
            .flatten()
            .ok_or_else(unreadable)?;
        pat.choice = Some(kind);
    }
    match squares.len() {
        1 => pat.to = Some(squares[0]),
        2 => {
            pat.from = Some(squares[0]);
            pat.to = Some(squares[1]);
            pat.drop = Some(false);
        }
        _ => return Err(unreadable()),
    }
    if pat.kind.is_none() && pat.from.is_none() {
        // A bare square is a Western pawn's move, as in chess.
        pat.kind = Some(PieceKind::WesternPawn);
        pat.drop = Some(false);
    }
    if pat.drop == Some(true) && pat.from.is_some() {
        return Err(unreadable());
    }
    Ok(pat)
}

pub(crate) fn no_such_square(pos: &Position, token: &str) -> MoveInputError {
    let v = pos.variant();
    let (f, r) = (v.files(), v.ranks());
    let range = match v.spec.squares {
        SquareNames::Shogi => format!("files 1-{f}, ranks a-{}", (b'a' + r - 1) as char),
        SquareNames::Western => format!("files a-{}, ranks 1-{r}", (b'a' + f - 1) as char),
    };
    MoveInputError::NoSuchSquare {
        square: token.to_string(),
        game: v.spec.name,
        range,
    }
}

/// Examples of Japanese notation, for error messages: moves legal in `pos` (`last`: where the
/// previous move went), or the forms when there is none.
pub fn hint_japanese(pos: &Position, last: Option<Square>) -> String {
    let ex = super::example_texts(pos, super::Notation::Japanese, last, 3);
    if ex.is_empty() {
        return "７六歩, 76歩, 同歩, 55角打, 22角成 or 58金右".to_string();
    }
    or_list(&ex)
}

/// Examples of the notation of a game, for error messages: moves legal in `pos`, the first in
/// the game's human notation, the second as a move code, the third human again; the forms
/// when there is no legal move.
pub fn hint(pos: &Position) -> String {
    let v = pos.variant();
    let moves = super::examples(pos, 3);
    if moves.is_empty() {
        return match v.spec.squares {
            SquareNames::Shogi => "P-7f, 7g7f, S*5e or G6i-5h",
            SquareNames::Western => {
                "Nf4, Ne2-f4, e2e4, dxe5, c9=Q or S*e5 (piece letters in upper case)"
            }
        }
        .to_string();
    }
    let ex: Vec<String> = moves
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            if i == 1 && !m.is_drop() {
                code::write(v, m)
            } else {
                human(pos, m)
            }
        })
        .collect();
    or_list(&ex)
}

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

fn understood(pos: &Position, pat: &Pattern) -> String {
    let v = pos.variant();
    let mut s = match pat.kind {
        Some(k) => v.piece_name(k).to_string(),
        None => "piece".to_string(),
    };
    if let Some(f) = pat.from {
        s.push_str(&format!(" on {}", v.square_name(f)));
    }
    if let Some(x) = pat.via {
        s.push_str(&format!(" capturing on {}", v.square_name(x)));
    }
    if let Some(t) = pat.to {
        if pat.drop == Some(true) {
            s.push_str(&format!(" dropped on {}", v.square_name(t)));
        } else {
            s.push_str(&format!(" to {}", v.square_name(t)));
        }
    }
    if let Some(k) = pat.choice {
        s.push_str(&format!(", becoming a {}", v.piece_name(k)));
    }
    match pat.promote {
        Some(true) => s.push_str(", promoting"),
        Some(false) => s.push_str(", not promoting"),
        None => {}
    }
    s
}

fn matches(pos: &Position, pat: &Pattern, m: Move) -> bool {
    if Some(m.to()) != pat.to {
        return false;
    }
    if let Move::Drop { kind, .. } = m {
        return pat.drop != Some(false) && pat.kind == Some(kind) && pat.promote != Some(true);
    }
    let Some(from) = m.from() else {
        return false;
    };
    let via = match m {
        Move::Lion { via, .. } => Some(via),
        _ => None,
    };
    let choice = match m {
        Move::PromoteTo { kind, .. } => Some(kind),
        _ => None,
    };
    pat.drop != Some(true)
        && pat.via == via
        && pat.choice.is_none_or(|c| choice == Some(c))
        && pat.from_file.is_none_or(|f| from.col() == f)
        && pat.from.is_none_or(|f| f == from)
        && pat
            .kind
            .is_none_or(|k| pos.piece_at(from).is_some_and(|p| p.kind == k))
        && pat.promote.is_none_or(|p| p == m.promotes())
}

pub(crate) fn resolve(pos: &Position, pat: &Pattern, text: &str) -> Result<Move, MoveInputError> {
    let v = pos.variant();
    let legal = pos.legal_moves();
    let mut cands: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| matches(pos, pat, m))
        .collect();
    cands.sort();
    cands.dedup();
    // A drop is always written with `*`: without it, a board move is meant when there is one.
    if pat.drop.is_none() && cands.iter().any(|m| !m.is_drop()) {
        cands.retain(|m| !m.is_drop());
    }
    match cands.len() {
        1 => return Ok(cands[0]),
        0 => {}
        _ => {
            if cands.iter().all(|m| matches!(m, Move::PromoteTo { .. }))
                && cands
                    .iter()
                    .all(|m| m.from() == cands[0].from() && m.to() == cands[0].to())
            {
                return Err(MoveInputError::PieceChoice {
                    understood: understood(pos, pat),
                    options: cands.iter().map(|&m| human(pos, m)).collect(),
                });
            }
            let promo_pair = cands.len() == 2
                && matches!((cands[0], cands[1]),
                    (Move::Board { from: f1, to: t1, .. }, Move::Board { from: f2, to: t2, .. })
                    if f1 == f2 && t1 == t2);
            if promo_pair {
                let base = match cands[0] {
                    Move::Board { from, to, .. } => Move::Board {
                        from,
                        to,
                        promote: false,
                    },
                    m => m,
                };
                let plain = human(pos, base);
                let stem = plain.trim_end_matches('=').to_string();
                return Err(MoveInputError::PromotionChoice {
                    understood: understood(pos, pat),
                    options: [format!("{stem}+"), format!("{stem}=")],
                });
            }
            return Err(MoveInputError::Ambiguous {
                understood: understood(pos, pat),
                options: cands.iter().map(|&m| human(pos, m)).collect(),
            });
        }
    }
    // Nothing legal fits: find the rule that forbids what was meant.
    let what = understood(pos, pat);
    if pat.drop == Some(true) && pat.promote == Some(true) {
        return Err(MoveInputError::Illegal {
            understood: what,
            why: "a dropped piece never promotes on the drop: drop it, and promote on a later move"
                .into(),
            reason: None,
        });
    }
    let to = pat.to.expect("a pattern always has a target");
    let us = pos.side_to_move();
    let mut tried: Vec<Move> = Vec::new();
    if pat.drop != Some(false) {
        if let Some(k) = pat.kind {
            tried.push(Move::Drop { kind: k, to });
        }
    }
    if pat.drop != Some(true) {
        let froms: Vec<Square> = match pat.from {
            Some(f) => vec![f],
            None => pos
                .pieces()
                .filter(|(s, p)| {
                    p.color == us
                        && Some(p.kind) == pat.kind
                        && pat.from_file.is_none_or(|f| s.col() == f)
                })
                .map(|(s, _)| s)
                .collect(),
        };
        for f in froms {
            tried.push(Move::Board {
                from: f,
                to,
                promote: pat.promote.unwrap_or(false),
            });
        }
    }
    let reasons: Vec<IllegalMove> = tried
        .iter()
        .filter_map(|&m| pos.check_move(m).err())
        .collect();
    // Prefer the most telling reason: one about a piece that can get there; then "none of
    // your pieces can get there"; then the hand.
    let board_tries = tried.iter().filter(|m| !m.is_drop()).count();
    let unreachable = reasons
        .iter()
        .filter(|r| matches!(r, IllegalMove::CannotReach { .. }))
        .count();
    let best = reasons
        .iter()
        .find(|r| {
            !matches!(
                r,
                IllegalMove::CannotReach { .. } | IllegalMove::NotInHand { .. }
            )
        })
        .or_else(|| {
            reasons
                .iter()
                .find(|r| matches!(r, IllegalMove::CannotReach { .. }))
        })
        .or(reasons.first())
        .copied();
    let why = match (&best, pat.kind, pat.from) {
        (Some(IllegalMove::CannotReach { .. }), Some(k), None) if unreachable > 1 => {
            format!(
                "none of your {}s can move to {}",
                v.piece_name(k),
                v.square_name(to)
            )
        }
        (Some(r), _, _) => r.message(v),
        (None, Some(k), None) if board_tries == 0 => {
            if pat.drop == Some(false) {
                format!("you have no {} on the board", v.piece_name(k))
            } else {
                format!("you have no {} on the board or in hand", v.piece_name(k))
            }
        }
        (None, _, _) => format!("'{text}' is not a move in this position"),
    };
    Err(MoveInputError::Illegal {
        understood: what,
        why,
        reason: best,
    })
}
