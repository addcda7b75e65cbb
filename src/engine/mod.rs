//! The rules engine: squares, pieces, positions, legal moves, outcomes and notation for every
//! game Tegami plays. No I/O, no async, nothing of the bot: it is tested on its own.
//!
//! Vocabulary types are re-exported flat (`engine::Square`, `engine::Position`); text formats
//! live in `engine::notation`.

mod color;
pub mod declaration;
mod game;
mod illegal;
pub mod impasse;
mod movegen;
mod moves;
pub mod notation;
mod palace;
mod piece;
mod position;
pub mod search;
mod square;
mod variant;
pub mod variants;
mod zobrist;

pub use color::Color;
pub use game::{Game, Outcome, Reason};
pub use illegal::IllegalMove;
pub use movegen::perft;
pub use moves::Move;
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
