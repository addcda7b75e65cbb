//! Impasse (jishogi) by agreement, for the games that have it: when both kings stand in their
//! promotion zones the side to move may propose it; if the other accepts, the points decide.
//! Points count pieces on the board and in hand, kings excluded, promotions ignored: the
//! variant's big pieces are worth five, every other piece one. A side below the threshold loses;
//! both at or above it draw. (Both below, possible only in handicap games, is also a draw: the
//! texts give no winner for it.)

use crate::engine::outcome::{Outcome, Reason};
use crate::engine::{Color, PieceKind, Position};

/// Whether impasse may be proposed: the game has the rule and both kings are in their zones.
pub fn eligible(pos: &Position) -> bool {
    let v = pos.variant();
    v.spec.end.impasse.is_some()
        && Color::ALL
            .into_iter()
            .all(|c| pos.king(c).is_some_and(|k| v.in_zone(c, k)))
}

/// The impasse points of a side.
pub fn points(pos: &Position, c: Color) -> u32 {
    let v = pos.variant();
    let Some(rule) = v.spec.end.impasse else {
        return 0;
    };
    let value = |k: PieceKind| {
        let base = v.demote(k);
        if base.is_royal() {
            0
        } else if rule.big.contains(&base) {
            5
        } else {
            1
        }
    };
    let board: u32 = pos
        .pieces()
        .filter(|(_, p)| p.color == c)
        .map(|(_, p)| value(p.kind))
        .sum();
    let hand: u32 = v
        .spec
        .pieces
        .hand_order
        .iter()
        .map(|&k| pos.hand(c, k) as u32 * value(k))
        .sum();
    board + hand
}

/// The result of an agreed impasse, or `None` if the game has no impasse rule.
pub fn result(pos: &Position) -> Option<Outcome> {
    let rule = pos.variant().spec.end.impasse?;
    let below = |c| points(pos, c) < rule.threshold;
    Some(match (below(Color::Black), below(Color::White)) {
        (true, false) => Outcome::Win {
            winner: Color::White,
            reason: Reason::Impasse,
        },
        (false, true) => Outcome::Win {
            winner: Color::Black,
            reason: Reason::Impasse,
        },
        _ => Outcome::Draw {
            reason: Reason::Impasse,
        },
    })
}
