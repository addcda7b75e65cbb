//! Text forms of positions and moves: position strings (`fen`), move codes (`code`), human
//! notation (`hodges`, `algebraic`, and `japanese`: the JSA's `▲７六歩`) and the forgiving parser of what players type (`input`).

pub mod algebraic;
pub mod code;
pub mod fen;
pub mod hodges;
pub mod input;
pub mod japanese;

use std::collections::{HashMap, HashSet};

use crate::engine::variant::SquareNames;
use crate::engine::{Color, Move, Outcome, PieceKind, Position, Square};

/// How moves are written for a player: Western (Hodges for the shogi games, algebraic for
/// Shanghai Palace Chess), Japanese (the Japan Shogi Association's notation: `▲７六歩`, `△同　歩`;
/// Shanghai Palace Chess, which has no Japanese notation, keeps its algebraic), or the move
/// codes (USI).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    #[default]
    Western,
    Japanese,
    Usi,
}

impl Notation {
    pub const ALL: [Notation; 3] = [Notation::Western, Notation::Japanese, Notation::Usi];

    /// The setting's word: `western`, `japanese`, `usi`.
    pub fn as_str(self) -> &'static str {
        match self {
            Notation::Western => "western",
            Notation::Japanese => "japanese",
            Notation::Usi => "usi",
        }
    }

    /// From the setting's word (also `hodges`, `jsa`, `code`, `codes`).
    pub fn parse(s: &str) -> Option<Notation> {
        match s.trim().to_ascii_lowercase().as_str() {
            "western" | "hodges" | "english" => Some(Notation::Western),
            "japanese" | "jsa" | "kanji" => Some(Notation::Japanese),
            "usi" | "code" | "codes" => Some(Notation::Usi),
            _ => None,
        }
    }
}

/// A move, legal in `pos`, in `notation`. `last` is the square the previous move of the game
/// went to (Japanese notation writes a move there as `同　`). Shanghai Palace Chess has no
/// Japanese notation: `Notation::Japanese` gives its algebraic form there.
pub fn written(pos: &Position, m: Move, notation: Notation, last: Option<Square>) -> String {
    match notation {
        Notation::Usi => code::write(pos.variant(), m),
        Notation::Western => human(pos, m),
        // Shanghai Palace Chess has no Japanese notation: the writer gives its algebraic form.
        Notation::Japanese => japanese::write(pos, m, last),
    }
}

/// Every move of `legal` (the legal moves of `pos`) in `notation`, in the same order.
pub fn written_all(
    pos: &Position,
    legal: &[Move],
    notation: Notation,
    last: Option<Square>,
) -> Vec<String> {
    match notation {
        Notation::Usi => legal
            .iter()
            .map(|&m| code::write(pos.variant(), m))
            .collect(),
        Notation::Western => human_all(pos, legal),
        Notation::Japanese => {
            let index = Legal::new(pos, legal);
            legal
                .iter()
                .map(|&m| japanese::write_in(pos, m, &index, last))
                .collect()
        }
    }
}

/// The number of the move of index `ply` (0 for the first move) of a game whose first move is
/// `first`'s, as every record, caption and message writes it: moves are counted in pairs as if
/// the first player (Black, Red) moved first, `12.` before the first player's move and `12…`
/// before the second's (so a handicap game, White first, begins with `1…`).
pub fn move_number(ply: usize, first: Color) -> String {
    let k = ply + usize::from(first == Color::White);
    let dots = if k.is_multiple_of(2) { "." } else { "…" };
    format!("{}{dots}", k / 2 + 1)
}

/// A result in words, as every record, caption and message writes it: `<winner> wins by
/// perpetual check` (the winner as `name` writes that side) or `draw by repetition`.
pub fn result_words(o: Outcome, name: impl Fn(Color) -> String) -> String {
    match o {
        Outcome::Win { winner, reason } => {
            format!("{} wins by {}", name(winner), reason.words())
        }
        Outcome::Draw { reason } => format!("draw by {}", reason.words()),
    }
}

/// A move, legal in `pos`, in the game's human notation: Hodges for the shogi games,
/// algebraic for Shanghai Palace Chess.
pub fn human(pos: &Position, m: Move) -> String {
    if let Move::Drop { .. } = m {
        // A drop names no start square: no need for the other moves.
        return human_in(pos, m, &Legal::default());
    }
    human_in(pos, m, &Legal::new(pos, &pos.legal_moves()))
}

/// Every move of `legal` (the legal moves of `pos`) in human notation, in the same order:
/// the legal moves are indexed once, so this is linear in their number (writing each with
/// `human` would generate them again for every move).
pub fn human_all(pos: &Position, legal: &[Move]) -> Vec<String> {
    let index = Legal::new(pos, legal);
    legal.iter().map(|&m| human_in(pos, m, &index)).collect()
}

fn human_in(pos: &Position, m: Move, legal: &Legal) -> String {
    match pos.variant().spec.squares {
        SquareNames::Shogi => hodges::write_in(pos, m, legal),
        SquareNames::Western => algebraic::write_in(pos, m, legal),
    }
}

/// What notation needs to know of the other legal moves: whether a move is among them (to
/// write `=` for a promotion declined) and which start squares of a kind reach a square (to
/// name the start square when two pieces could go there). Lion double moves are left out of
/// the second: they always name their squares.
#[derive(Default)]
pub(crate) struct Legal {
    moves: HashSet<Move>,
    reaching: HashMap<(Square, PieceKind), Vec<Square>>,
}

impl Legal {
    fn new(pos: &Position, legal: &[Move]) -> Legal {
        let mut reaching: HashMap<(Square, PieceKind), Vec<Square>> = HashMap::new();
        for &o in legal {
            if matches!(o, Move::Lion { .. }) {
                continue;
            }
            if let Some(f) = o.from() {
                if let Some(q) = pos.piece_at(f) {
                    let froms = reaching.entry((o.to(), q.kind)).or_default();
                    if !froms.contains(&f) {
                        froms.push(f);
                    }
                }
            }
        }
        Legal {
            moves: legal.iter().copied().collect(),
            reaching,
        }
    }

    pub(crate) fn contains(&self, m: &Move) -> bool {
        self.moves.contains(m)
    }

    /// Whether another piece of `kind` than the one on `from` can also go to `to`.
    pub(crate) fn ambiguous(&self, from: Square, to: Square, kind: PieceKind) -> bool {
        self.reaching
            .get(&(to, kind))
            .is_some_and(|froms| froms.iter().any(|&f| f != from))
    }
}

/// Up to `n` moves that are legal in `pos`, as examples for a player (the rules pages' first
/// moves, the hints of refusals): one per kind of piece where it can, the kinds in the order
/// the game lists them from its smallest up (pawns first), each kind's move toward the middle
/// of the board first, and a drop among them when one is legal. Never a move that is not
/// legal where it is printed; empty when there is none (the game is over).
pub fn examples(pos: &Position, n: usize) -> Vec<Move> {
    let v = pos.variant();
    let mut legal = pos.legal_moves();
    legal.sort();
    let mid = i32::from(v.files()) / 2;
    let centre = |m: &Move| (i32::from(m.to().col()) - mid).abs();
    let kind_of = |m: &Move| match m {
        Move::Drop { kind, .. } => Some(*kind),
        _ => m.from().and_then(|f| pos.piece_at(f)).map(|p| p.kind),
    };
    let order: Vec<PieceKind> = v.spec.pieces.letters.iter().rev().map(|l| l.kind).collect();
    let rank = |m: &Move| {
        kind_of(m)
            .and_then(|k| order.iter().position(|&o| o == k))
            .unwrap_or(usize::MAX)
    };
    let drop = legal
        .iter()
        .copied()
        .filter(|m| m.is_drop())
        .min_by_key(|m| (rank(m), centre(m)));
    let mut board: Vec<Move> = legal.iter().copied().filter(|m| !m.is_drop()).collect();
    board.sort_by_key(|m| (rank(m), centre(m), !m.promotes()));
    // A slot is kept for the drop: how pieces come back is worth showing.
    let room = n.saturating_sub(usize::from(drop.is_some() && n > 1));
    let mut picked: Vec<Move> = Vec::new();
    for m in &board {
        if picked.len() < room && !picked.iter().any(|p| kind_of(p) == kind_of(m)) {
            picked.push(*m);
        }
    }
    picked.extend(drop.filter(|_| picked.len() < n));
    // Fewer kinds than `n` can move: more moves of the same kinds.
    for m in &board {
        if picked.len() < n && !picked.contains(m) {
            picked.push(*m);
        }
    }
    picked
}

/// [`examples`], written in `notation` as a player types them (`last`: where the previous
/// move went, for Japanese `同`).
pub fn example_texts(
    pos: &Position,
    notation: Notation,
    last: Option<Square>,
    n: usize,
) -> Vec<String> {
    let moves = examples(pos, n);
    if moves.is_empty() {
        return Vec::new();
    }
    let legal = pos.legal_moves();
    let written = written_all(pos, &legal, notation, last);
    moves
        .iter()
        .filter_map(|m| {
            legal
                .iter()
                .position(|l| l == m)
                .map(|i| written[i].clone())
        })
        .collect()
}

#[cfg(test)]
mod formatter_tests {
    use super::*;
    use crate::engine::Reason;

    #[test]
    fn moves_are_numbered_in_pairs_from_the_first_player() {
        assert_eq!(move_number(0, Color::Black), "1.");
        assert_eq!(move_number(1, Color::Black), "1…");
        assert_eq!(move_number(2, Color::Black), "2.");
        // White first (a handicap game): the first move is the second half of move 1.
        assert_eq!(move_number(0, Color::White), "1…");
        assert_eq!(move_number(1, Color::White), "2.");
    }

    #[test]
    fn results_are_written_in_words() {
        let win = Outcome::Win {
            winner: Color::White,
            reason: Reason::PerpetualCheck,
        };
        assert_eq!(
            result_words(win, |c| format!("{c:?}")),
            "White wins by perpetual check"
        );
        let draw = Outcome::Draw {
            reason: Reason::Repetition,
        };
        assert_eq!(result_words(draw, |_| unreachable!()), "draw by repetition");
    }
}
