//! The rules engine: squares, pieces, positions, legal moves, outcomes and notation for every
//! game Tegami plays. No I/O, no async, nothing of the bot: it is tested on its own.
//!
//! Vocabulary types are re-exported flat (`engine::Square`, `engine::Position`); text formats
//! live in `engine::notation`.
//!
//! # Floors
//!
//! The files import in one direction, bottom to top (the test `layers` below checks it):
//!
//! 1. squares and bitboards: `color`, `square`, `bitboard`;
//! 2. pieces and moves: `piece` (the catalogue and each kind's movement atoms), `moves`,
//!    `zobrist`;
//! 3. the variant tables: `geometry` (palaces), `variant` (a game as data, and the lookup
//!    tables built from it), `variants/` (one file per game, and the registry);
//! 4. positions: `position` (board, hands, making and unmaking moves);
//! 5. move generation: `palace` (Palace Shogi's hooks), `attacks`, `movegen` (with perft);
//! 6. games and outcomes: `outcome`, `illegal` (why a move is refused), `declaration`,
//!    `impasse`, `game`;
//! 7. notation; 8. search.
//!
//! A game is data (`variants/shogi.rs` and the others) plus a closed set of hooks chosen by
//! `VariantId` where data cannot say it (`variant.rs`'s `build`, `palace.rs`).
//!
//! # Why move generation is fast
//!
//! A position keeps a padded mailbox (a byte per cell, for "what is on this square") and
//! bitboards: one `u128` per side and per piece code (`bitboard.rs`). Everything the move
//! generator and the attack test use is computed once per variant from the same atoms the
//! games declare (`Variant::build`):
//!
//! - **Steps and leaps** (and the conditional steps of the Xiangqi pawn and the footsoldier,
//!   and confinement to palaces) become per-square tables of target sets; a piece's moves are
//!   a table lookup ANDed with the empty or enemy squares.
//! - **Slides** use the classical ray method (first blocker by a bit scan), which needs no
//!   8x8 board; **cannons** use the same rays past their screen.
//! - **The attack test** looks steps up backward (`step_from`: from which squares each code
//!   reaches a square, ANDed with where it stands) and walks lines by rays.
//! - **Legality by pins and checkers** in the games without cannons (Shogi, Judkins): the pinned
//!   pieces and the checkers are found once per position from the king's rays, so a move of any
//!   piece but the king is legal or not by two set tests, with no trial move. The games with
//!   cannons (a move can also make a new screen) and Palace Shogi's special moves keep the
//!   general test (trial move, attack test), but only for a move that leaves or reaches a
//!   **square of danger** (`LegalCtx::danger`, found once per position): the squares between
//!   the king and an enemy cannon with at most two pieces between them (a move adds or takes
//!   away one at most, and a cannon needs one screen); on a line where only enemy sliders
//!   attack, just our piece that stands alone before the first of them; our piece alone
//!   between the two kings (the flying king); Palace Shogi's palace centre when an enemy
//!   dragon or cannon stands across it. Any other move cannot expose the king. King moves are
//!   tested without being made: the attacks on the target with the king lifted from the
//!   occupancy (not in Palace Shogi, whose hooks read the board).
//! - **Check detection in the search** uses the same squares seen from the enemy king with the
//!   mover's pieces (`Position::exposure`): a move gives a discovered check only from or to one
//!   of them, and a direct one only if its piece steps to the king from its target or attacks
//!   along a line through the king (`Position::may_give_check`).
//! - **Promotions** are pushed a set at a time: every target in the zone with promotion, every
//!   target not dead without.
//! - **The generator walks the pieces code by code** (`Tables::side_codes`), not square by
//!   square: what depends only on the code (whether it only steps, `Tables::steps_only`, and
//!   how its promotions are pushed, `Tables::push_mode`) is read once for all its pieces, and
//!   a stepping piece's targets are two table lookups.
mod attacks;
mod bitboard;
mod color;
pub mod declaration;
mod game;
mod geometry;
mod illegal;
pub mod impasse;
mod movegen;
mod moves;
pub mod notation;
mod outcome;
mod palace;
mod piece;
mod position;
pub mod search;
mod square;
mod variant;
pub mod variants;
mod zobrist;

pub use color::Color;
pub use game::Game;
pub use illegal::IllegalMove;
pub use movegen::perft;
pub use moves::Move;
pub use outcome::{Outcome, Reason};
pub use piece::{Atom, Family, Mode, Piece, PieceKind};
pub use position::{Position, Undo};
pub use square::Square;
pub use variant::{
    BoardShape, DropRules, EndRules, Handicap, ImpasseRule, Letter, PieceSet, PromotionRules,
    Region, RepetitionRule, Setup, SquareNames, StalemateRule, Variant, VariantId, VariantSpec,
};

/// The start position of a named setup of a variant (`smith` in Shanghai Palace Chess).
pub fn setup_position(id: VariantId, name: &str) -> Option<Position> {
    let v = Variant::get(id);
    let setup = v
        .spec
        .setups
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(name))?;
    notation::fen::parse(v, setup.position).ok()
}

/// Builds the start position of a variant with a handicap applied (White to move).
pub fn handicap_position(id: VariantId, name: &str) -> Option<Position> {
    let v = Variant::get(id);
    let h = v.handicap(name)?;
    let mut p = Position::start(id);
    for sq in h.remove {
        let s = v.parse_square(sq)?;
        p.take(s);
    }
    p.set_side(Color::White);
    Some(p)
}

/// The squares a piece standing on `at` could move to, with `others` on the board (pseudo-legal:
/// no king safety), for piece diagrams. Kings are not required.
pub fn reach(
    v: &'static Variant,
    piece: Piece,
    at: Square,
    others: &[(Square, Piece)],
) -> Vec<Square> {
    let mut p = Position::empty(v);
    p.put(at, piece.code());
    for &(s, o) in others {
        if s != at && v.contains(s) && p.piece_at(s).is_none() {
            p.put(s, o.code());
        }
    }
    p.set_side(piece.color);
    let mut out: Vec<Square> = p
        .piece_moves(at)
        .into_iter()
        .map(|m| m.to())
        .filter(|&s| s != at)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A board to show how a kind moves: its square and the pieces around it (screens for cannons;
/// the Palace Shogi queen next to her palace).
pub fn diagram_setup(v: &'static Variant, kind: PieceKind) -> (Square, Vec<(Square, Piece)>) {
    let (files, ranks) = (v.files(), v.ranks());
    let centre = Square::new(files / 2, ranks / 2);
    let black = |k| Piece::new(k, Color::Black);
    let white = |k| Piece::new(k, Color::White);
    let screen = if v.has_kind(PieceKind::Pawn) {
        PieceKind::Pawn
    } else {
        PieceKind::King
    };
    match kind {
        PieceKind::Queen if v.id() == VariantId::Palace => (Square::new(4, 5), Vec::new()),
        PieceKind::GoldCannon
        | PieceKind::SilverCannon
        | PieceKind::PromotedGoldCannon
        | PieceKind::PromotedSilverCannon
        | PieceKind::PalaceCannon
        | PieceKind::XiangqiCannon => {
            let c = centre;
            let (col, row) = (c.col(), c.row());
            (
                c,
                vec![
                    (Square::new(col, row - 1), black(screen)),
                    (Square::new(col, row - 3), white(screen)),
                    (Square::new(col + 2, row), white(screen)),
                    (Square::new(col + 3, row), white(screen)),
                    (Square::new(col - 1, row), white(screen)),
                ],
            )
        }
        PieceKind::CopperCannon
        | PieceKind::IronCannon
        | PieceKind::PromotedCopperCannon
        | PieceKind::PromotedIronCannon => {
            let (col, row) = (centre.col(), centre.row());
            (
                centre,
                vec![
                    (Square::new(col + 1, row - 1), black(screen)),
                    (Square::new(col + 3, row - 3), white(screen)),
                    (Square::new(col - 1, row + 1), white(screen)),
                ],
            )
        }
        PieceKind::XiangqiKing | PieceKind::Guard => (Square::new(4, 7), Vec::new()),
        PieceKind::XiangqiElephant => (
            Square::new(2, 8),
            vec![(Square::new(3, 7), black(PieceKind::WesternPawn))],
        ),
        _ => (centre, Vec::new()),
    }
}

#[cfg(test)]
mod layers {
    //! The engine's files import in one direction, floor by floor (see the module docs): a file
    //! may name only modules of lower floors, or earlier ones of its own floor. A folder module
    //! (`variants/`, `notation/`, `search/`) counts as one. Test code is not checked.

    use std::path::Path;

    /// The floors, bottom first, each with its modules in import order.
    const FLOORS: &[(&str, &[&str])] = &[
        ("squares and bitboards", &["color", "square", "bitboard"]),
        ("pieces and moves", &["piece", "moves", "zobrist"]),
        ("the variant tables", &["geometry", "variant", "variants"]),
        ("positions", &["position"]),
        ("move generation", &["palace", "attacks", "movegen"]),
        (
            "games and outcomes",
            &["outcome", "illegal", "declaration", "impasse", "game"],
        ),
        ("notation", &["notation"]),
        ("search", &["search"]),
        ("the engine's front (mod.rs)", &["mod"]),
    ];

    /// The module a name re-exported by `engine` comes from.
    fn module_of(name: &str) -> &str {
        match name {
            "Color" => "color",
            "Game" => "game",
            "Outcome" | "Reason" => "outcome",
            "IllegalMove" => "illegal",
            "perft" => "movegen",
            "Move" => "moves",
            "Atom" | "Family" | "Mode" | "Piece" | "PieceKind" => "piece",
            "Position" | "Undo" => "position",
            "Square" => "square",
            "BoardShape" | "DropRules" | "EndRules" | "Handicap" | "ImpasseRule" | "Letter"
            | "PieceSet" | "PromotionRules" | "Region" | "RepetitionRule" | "Setup"
            | "SquareNames" | "StalemateRule" | "Variant" | "VariantId" | "VariantSpec" => {
                "variant"
            }
            "setup_position" | "handicap_position" | "reach" | "diagram_setup" => "mod",
            other => other,
        }
    }

    fn rank(module: &str) -> Option<usize> {
        FLOORS
            .iter()
            .flat_map(|(_, mods)| mods.iter())
            .position(|&m| m == module)
    }

    /// The first path segments named after `crate::engine::` in a source text.
    fn engine_names(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let key = "crate::engine::";
        let mut rest = text;
        while let Some(i) = rest.find(key) {
            rest = &rest[i + key.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let mut depth = 1;
                let mut end = 0;
                for (j, ch) in group.char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        end = j;
                        break;
                    }
                }
                let inner = &group[..end];
                let mut depth = 0;
                let mut start = 0;
                for (j, ch) in inner.char_indices().chain([(inner.len(), ',')]) {
                    match ch {
                        '{' => depth += 1,
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            let item = inner[start..j].trim();
                            let first = item.split("::").next().unwrap_or("").trim();
                            if !first.is_empty() {
                                out.push(first.to_string());
                            }
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
            } else {
                let ident: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                out.push(ident);
            }
        }
        out
    }

    #[test]
    fn the_engine_imports_floor_by_floor() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
        let mut files = Vec::new();
        let mut dirs = vec![root.clone()];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("src/engine is readable") {
                let p = e.expect("a directory entry").path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    files.push(p);
                }
            }
        }
        let mut problems = Vec::new();
        let mut checked = 0;
        for f in &files {
            let rel = f.strip_prefix(&root).expect("under src/engine");
            let module = rel
                .iter()
                .next()
                .and_then(|s| s.to_str())
                .map(|s| s.trim_end_matches(".rs"))
                .expect("a file name");
            let own = rank(module).unwrap_or_else(|| panic!("{module} is on no floor"));
            let text = std::fs::read_to_string(f).expect("a readable source file");
            let code = text.split("#[cfg(test)]").next().unwrap_or("");
            for name in engine_names(code) {
                let dep = module_of(&name);
                if dep == module {
                    continue;
                }
                let r = rank(dep).unwrap_or_else(|| panic!("{dep} (from {rel:?}) is on no floor"));
                checked += 1;
                if r > own {
                    problems.push(format!("{} imports {dep} (via {name})", rel.display()));
                }
            }
        }
        assert!(
            checked > 50,
            "only {checked} imports were found: the parser is broken"
        );
        assert!(
            problems.is_empty(),
            "upward imports:\n{}",
            problems.join("\n")
        );
    }

    #[test]
    fn the_import_parser_reads_groups_and_paths() {
        let names = engine_names(
            "use crate::engine::{piece::{A, B}, Color};\nlet x = crate::engine::palace::f();",
        );
        assert_eq!(names, ["piece", "Color", "palace"]);
        assert_eq!(rank("color"), Some(0));
        assert!(rank("movegen") > rank("position"));
    }
}
