//! Two simple opponents to measure the search against: a random mover and a one-ply greedy
//! player. Both are deterministic for a seed.

use crate::engine::{Game, Move};

use super::eval::{evaluate, LAZY_MARGIN};
use super::{mix, move_key, pvs::INF};

/// A legal move chosen uniformly from the seed (`None` when the game is over).
pub fn random_move(game: &Game, seed: u64) -> Option<Move> {
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let r = mix(seed ^ game.position().hash());
    Some(moves[(r % moves.len() as u64) as usize])
}

/// The legal move with the best evaluation one ply ahead, no search: a move that wins the
/// game at once first, a move that loses it at once last; ties broken by the seed.
pub fn greedy_move(game: &Game, seed: u64) -> Option<Move> {
    let side = game.position().side_to_move();
    let key = game.position().hash();
    let mut best: Option<(i64, Move)> = None;
    for m in game.legal_moves() {
        let mut g = game.clone();
        if g.play(m).is_err() {
            continue;
        }
        let score = match g.outcome() {
            Some(o) => super::outcome_score(o, side, 0),
            // From the opponent's view after the move: negate.
            None => -evaluate(g.position(), -INF + LAZY_MARGIN, INF - LAZY_MARGIN),
        };
        let tie = (mix(seed ^ key ^ move_key(m)) & 0xff) as i64;
        let s = score as i64 * 256 + tie;
        if best.is_none_or(|(b, _)| s > b) {
            best = Some((s, m));
        }
    }
    best.map(|(_, m)| m)
}
