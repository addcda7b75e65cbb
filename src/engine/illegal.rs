//! Why a move cannot be played. `Position::check_move` tests a move against every rule in turn
//! and names the first one it breaks; `message` turns the reason into a sentence for a player.

use crate::engine::movegen::forward;
use crate::engine::piece::{Piece, PieceKind, EMPTY};
use crate::engine::{Move, Position, Square, Variant};

/// The reason a move is illegal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game is over.
    GameOver,
    /// A square of the move is not on this board.
    OffBoard,
    /// There is no piece on the square the move starts from.
    NoPiece { from: Square },
    /// The piece there belongs to the opponent.
    NotYourPiece { from: Square },
    /// One's own piece stands on the target square.
    OwnPiece { to: Square },
    /// The piece does not move that way (or its path is blocked).
    CannotReach {
        kind: PieceKind,
        from: Square,
        to: Square,
    },
    /// This kind of piece does not promote (or is promoted already).
    CannotPromote { kind: PieceKind },
    /// Promotion needs a move into, within or out of the promotion zone.
    NotInZone { kind: PieceKind },
    /// The piece could never move again from there unpromoted.
    MustPromote { kind: PieceKind, to: Square },
    /// No such piece in hand.
    NotInHand { kind: PieceKind },
    /// Drops go to empty squares only.
    DropOnOccupied { to: Square },
    /// A piece may not be dropped where it could never move.
    DeadDrop { kind: PieceKind, to: Square },
    /// Two unpromoted pawns of one side on a file.
    TwoPawns { to: Square },
    /// A pawn drop may not give checkmate.
    PawnDropMate,
    /// The king is in check and the move does not answer it.
    InCheck,
    /// The move would put or leave one's own king in check.
    SelfCheck,
}

impl IllegalMove {
    /// A sentence a player understands.
    pub fn message(&self, v: &Variant) -> String {
        let sq = |s: &Square| v.square_name(*s);
        let file = |s: &Square| {
            let n = v.square_name(*s);
            n[..n.len() - 1].to_string()
        };
        match self {
            IllegalMove::GameOver => "the game is over".into(),
            IllegalMove::OffBoard => "that square is not on the board".into(),
            IllegalMove::NoPiece { from } => format!("there is no piece on {}", sq(from)),
            IllegalMove::NotYourPiece { from } => {
                format!("the piece on {} is your opponent's", sq(from))
            }
            IllegalMove::OwnPiece { to } => format!("your own piece stands on {}", sq(to)),
            IllegalMove::CannotReach { kind, from, to } => format!(
                "your {} on {} cannot move to {}",
                kind.name(),
                sq(from),
                sq(to)
            ),
            IllegalMove::CannotPromote { kind } => format!("a {} does not promote", kind.name()),
            IllegalMove::NotInZone { kind } => format!(
                "a {} promotes only on a move into, within or out of the promotion zone",
                kind.name()
            ),
            IllegalMove::MustPromote { kind, to } => format!(
                "a {} on {} could never move again: it must promote there",
                kind.name(),
                sq(to)
            ),
            IllegalMove::NotInHand { kind } => format!("you have no {} in hand", kind.name()),
            IllegalMove::DropOnOccupied { to } => {
                format!(
                    "{} is occupied: pieces are dropped on empty squares",
                    sq(to)
                )
            }
            IllegalMove::DeadDrop { kind, to } => format!(
                "a {} dropped on {} could never move: it may not be dropped there",
                kind.name(),
                sq(to)
            ),
            IllegalMove::TwoPawns { to } => format!(
                "you already have an unpromoted pawn on file {} (two pawns on a file)",
                file(to)
            ),
            IllegalMove::PawnDropMate => "a pawn drop may not give checkmate".into(),
            IllegalMove::InCheck => {
                "your king is in check, and this move does not get it out of check".into()
            }
            IllegalMove::SelfCheck => "this move would leave your king in check".into(),
        }
    }
}

impl Position {
    /// Checks a move against every rule and says which one it breaks.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        let v = self.variant();
        let us = self.side_to_move();
        match m {
            Move::Board { from, to, promote } => {
                if !v.contains(from) || !v.contains(to) {
                    return Err(IllegalMove::OffBoard);
                }
                let p = self.piece_at(from).ok_or(IllegalMove::NoPiece { from })?;
                if p.color != us {
                    return Err(IllegalMove::NotYourPiece { from });
                }
                if self.piece_at(to).is_some_and(|q| q.color == us) {
                    return Err(IllegalMove::OwnPiece { to });
                }
                let mut reaches = false;
                self.for_each_target(from, p.code(), |t| reaches |= t == to);
                if !reaches {
                    return Err(IllegalMove::CannotReach {
                        kind: p.kind,
                        from,
                        to,
                    });
                }
                let can_promote = v.t.promote[p.code() as usize] != 0;
                if promote {
                    if !can_promote {
                        return Err(IllegalMove::CannotPromote { kind: p.kind });
                    }
                    if !v.in_zone(us, from) && !v.in_zone(us, to) {
                        return Err(IllegalMove::NotInZone { kind: p.kind });
                    }
                } else if v.is_dead_square(p, to) {
                    return Err(IllegalMove::MustPromote { kind: p.kind, to });
                }
            }
            Move::Drop { kind, to } => {
                if !v.contains(to) {
                    return Err(IllegalMove::OffBoard);
                }
                if !v.spec.drops.enabled || self.hand(us, kind) == 0 {
                    return Err(IllegalMove::NotInHand { kind });
                }
                if self.board[to.index()] != EMPTY {
                    return Err(IllegalMove::DropOnOccupied { to });
                }
                if v.is_dead_square(Piece::new(kind, us), to) {
                    return Err(IllegalMove::DeadDrop { kind, to });
                }
                if Some(kind) == v.spec.drops.pawn && self.pawn_files(us) & (1 << to.col()) != 0 {
                    return Err(IllegalMove::TwoPawns { to });
                }
            }
        }
        let mut p = self.clone();
        let ctx = p.legal_ctx();
        if !p.is_legal(m, &ctx) {
            if let Move::Drop { kind, to } = m {
                let gives_pawn_check = Some(kind) == v.spec.drops.pawn
                    && to.offset(forward(us)) == self.kings[(!us).index()];
                if gives_pawn_check {
                    // Refused although our king is safe after it: it is the pawn-drop mate.
                    let mut after = self.clone();
                    after.board[to.index()] = Piece::new(kind, us).code();
                    if !after.is_in_check(us) {
                        return Err(IllegalMove::PawnDropMate);
                    }
                }
            }
            return Err(if self.in_check() {
                IllegalMove::InCheck
            } else {
                IllegalMove::SelfCheck
            });
        }
        Ok(())
    }

    /// Plays a move after checking it.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.check_move(m)?;
        self.make(m);
        Ok(())
    }
}
