//! Shogi's entering-king declaration (nyūgyoku sengen, the 27-point rule as lishogi and computer
//! shogi play it): on their turn a player may declare, and wins when
//! 1. their king stands in the promotion zone,
//! 2. at least ten of their other pieces stand in the zone,
//! 3. they are not in check,
//! 4. their points reach 28 (Black) or 27 (White): rook and bishop 5, promoted or not, every
//!    other piece but the king 1, counting the pieces in the zone and in hand.
//!
//! A declaration that falls short is refused (never lost), with the condition that failed.
//! Only Shogi has it: Judkins, Cannon and Palace Shogi keep their own rules. The thresholds are
//! the same in handicap games (as lishogi counts them).

use crate::engine::outcome::{Outcome, Reason};
use crate::engine::{Color, PieceKind, Position, VariantId};

/// Pieces in the zone a declaration needs, the king not counted.
pub const PIECES_NEEDED: u32 = 10;

/// Why a declaration is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is already over.
    GameOver,
    /// The game has no declaration rule.
    NotThisGame,
    /// The declaring king is outside the promotion zone.
    KingOutside,
    /// The declaring side is in check.
    InCheck,
    /// Fewer than ten other pieces in the zone.
    TooFewPieces { found: u32 },
    /// Points below the threshold.
    TooFewPoints { found: u32, needed: u32 },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Refusal::GameOver => write!(f, "the game is already over"),
            Refusal::NotThisGame => write!(
                f,
                "only Shogi has the entering-king declaration (in this game, use impasse)"
            ),
            Refusal::KingOutside => write!(
                f,
                "your king is not in the promotion zone (it must stand there to declare)"
            ),
            Refusal::InCheck => write!(f, "you are in check: a king in check cannot declare"),
            Refusal::TooFewPieces { found } => write!(
                f,
                "only {found} of your pieces besides the king are in the promotion zone ({PIECES_NEEDED} needed)"
            ),
            Refusal::TooFewPoints { found, needed } => write!(
                f,
                "you have {found} points ({needed} needed: rook and bishop 5, other pieces 1, in the zone and in hand)"
            ),
        }
    }
}

/// Points a side needs to win by declaration.
pub fn points_needed(c: Color) -> u32 {
    match c {
        Color::Black => 28,
        Color::White => 27,
    }
}

fn value(k: PieceKind) -> u32 {
    use PieceKind::*;
    match k {
        King => 0,
        Rook | Bishop | Dragon | Horse => 5,
        _ => 1,
    }
}

/// The pieces (king excluded) and points of side `c` in its promotion zone and in hand.
pub fn count(pos: &Position, c: Color) -> (u32, u32) {
    let v = pos.variant();
    let mut pieces = 0;
    let mut points = 0;
    for (sq, p) in pos.pieces() {
        if p.color == c && p.kind != PieceKind::King && v.in_zone(c, sq) {
            pieces += 1;
            points += value(p.kind);
        }
    }
    for &k in v.spec.pieces.hand_order {
        points += pos.hand(c, k) as u32 * value(k);
    }
    (pieces, points)
}

/// The result of the side to move declaring now, or why the declaration is refused.
pub fn declare(pos: &Position) -> Result<Outcome, Refusal> {
    let v = pos.variant();
    if v.id() != VariantId::Shogi {
        return Err(Refusal::NotThisGame);
    }
    let c = pos.side_to_move();
    if !pos.king(c).is_some_and(|k| v.in_zone(c, k)) {
        return Err(Refusal::KingOutside);
    }
    if pos.in_check() {
        return Err(Refusal::InCheck);
    }
    let (pieces, points) = count(pos, c);
    if pieces < PIECES_NEEDED {
        return Err(Refusal::TooFewPieces { found: pieces });
    }
    let needed = points_needed(c);
    if points < needed {
        return Err(Refusal::TooFewPoints {
            found: points,
            needed,
        });
    }
    Ok(Outcome::Win {
        winner: c,
        reason: Reason::Declaration,
    })
}
