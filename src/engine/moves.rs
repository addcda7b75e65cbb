//! The `Move` type: what a player does in one turn.

use crate::engine::piece::PieceKind;
use crate::engine::square::Square;

/// A move. Every move of every game is one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A piece moves (and maybe captures) from one square to another, promoting or not.
    Board {
        from: Square,
        to: Square,
        promote: bool,
    },
    /// A piece from the hand is put on an empty square (always unpromoted).
    Drop { kind: PieceKind, to: Square },
    /// Palace Shogi lion: a first step capturing on `via`, then a second step to `to` (an empty
    /// or enemy square next to `via`, or `from` itself: stationary feeding). A lion's single
    /// steps, jumps and staring (`to == from`) are `Board` moves.
    Lion {
        from: Square,
        via: Square,
        to: Square,
    },
    /// Palace Shogi castling, given by the king's squares; the lance moves too.
    Castle { from: Square, to: Square },
    /// A Palace Shogi pawn capturing en passant.
    EnPassant { from: Square, to: Square },
    /// A Shanghai Western pawn reaching the last rank and becoming the chosen piece.
    PromoteTo {
        from: Square,
        to: Square,
        kind: PieceKind,
    },
}

impl Move {
    /// The square the move ends on.
    pub fn to(self) -> Square {
        match self {
            Move::Board { to, .. }
            | Move::Drop { to, .. }
            | Move::Lion { to, .. }
            | Move::Castle { to, .. }
            | Move::EnPassant { to, .. }
            | Move::PromoteTo { to, .. } => to,
        }
    }

    /// The square the move starts from (none for a drop).
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Board { from, .. }
            | Move::Lion { from, .. }
            | Move::Castle { from, .. }
            | Move::EnPassant { from, .. }
            | Move::PromoteTo { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// The other squares the move changes: the lance's two squares in castling, the captured
    /// pawn's square in an en-passant capture.
    pub fn side_squares(self) -> Vec<Square> {
        match self {
            Move::Castle { from, to } => {
                let (a, b) = castle_lance(from, to);
                vec![a, b]
            }
            Move::EnPassant { from, to } => vec![Square::new(to.col(), from.row())],
            _ => Vec::new(),
        }
    }

    pub fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    pub fn promotes(self) -> bool {
        matches!(
            self,
            Move::Board { promote: true, .. } | Move::PromoteTo { .. }
        )
    }
}

/// The lance's squares for a castling move given by the king's squares (Palace Shogi): the lance
/// on the corner the king moves toward lands on the square the king passed over.
pub(crate) fn castle_lance(king_from: Square, king_to: Square) -> (Square, Square) {
    let row = king_from.row();
    if king_to.col() < king_from.col() {
        (Square::new(0, row), Square::new(king_from.col() - 1, row))
    } else {
        (Square::new(8, row), Square::new(king_from.col() + 1, row))
    }
}
