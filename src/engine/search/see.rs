//! Static exchange evaluation: what a capture wins once every piece that can recapture on the
//! square has done so, least valuable first, each side free to stop when going on would lose.
//! The search orders captures by it (losing ones after the quiet moves) and the quiescence
//! search skips losing captures.
//!
//! Values are the evaluation's capture gains (`EvalTables::gain`: a held piece counts on the
//! board and in hand). Promotions on the way are not counted, and the attackers are
//! `Position::attackers_to`'s (an estimate in the games with blockable leaps, cannon jumps or
//! palace hooks): the result orders and prunes, it never decides legality.

use crate::engine::bitboard::bb;
use crate::engine::{Move, Piece, Position};

use super::eval::EvalTables;

/// Longest exchange followed.
const MAX_SWAPS: usize = 40;

/// The exchange value of a move `m` for the side to move, in centipawns: for a capture what it
/// wins, for a quiet move or a drop what the piece loses where it lands (0 if nothing).
/// Other moves (lion, castling, en passant) score 0.
pub(crate) fn see(pos: &Position, e: &EvalTables, m: Move) -> i32 {
    let all = pos.occ[0] | pos.occ[1];
    let (to, mover, mut occ) = match m {
        Move::Board { from, to, .. } | Move::PromoteTo { from, to, .. } if from != to => {
            (to, pos.board[from.index()], all & !bb(from))
        }
        Move::Drop { kind, to } => (to, Piece::new(kind, pos.side).code(), all),
        _ => return 0,
    };
    let victim = pos.board[to.index()];
    let mut swap = [0i32; MAX_SWAPS];
    swap[0] = e.gain[victim as usize];
    let mut on_square = e.gain[mover as usize];
    let mut side = !pos.side;
    let mut d = 0;
    while d + 1 < MAX_SWAPS {
        let attackers = pos.attackers_to(to, side, occ);
        if attackers == 0 {
            break;
        }
        // The least valuable attacker.
        let Some((code, sq)) = e.see_order[side.index()].iter().find_map(|&c| {
            let here = attackers & pos.bb[c as usize];
            (here != 0).then(|| (c, here.trailing_zeros()))
        }) else {
            break;
        };
        let sq = 1u128 << sq;
        if e.board[code as usize] == 0 && pos.attackers_to(to, !side, occ & !sq) != 0 {
            // A king cannot capture onto a defended square.
            break;
        }
        d += 1;
        swap[d] = on_square - swap[d - 1];
        if swap[d].max(-swap[d - 1]) < 0 {
            break;
        }
        on_square = e.gain[code as usize];
        occ &= !sq;
        side = !side;
    }
    while d > 0 {
        swap[d - 1] = -(-swap[d - 1]).max(swap[d]);
        d -= 1;
    }
    swap[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::fen;
    use crate::engine::VariantId;

    fn see_of(position: &str, m: &str) -> i32 {
        let v = VariantId::Shogi.variant();
        let pos = fen::parse(v, position).expect("a position");
        let m = crate::engine::notation::code::parse(&pos, m).expect("a move");
        see(&pos, &EvalTables::get(VariantId::Shogi), m)
    }

    /// A quiet move or a drop scores what its piece loses where it lands: all of it when the
    /// square is attacked and not defended, the difference when a defender takes back.
    #[test]
    fn quiet_moves_and_drops_score_what_the_piece_loses() {
        let e = EvalTables::get(VariantId::Shogi);
        let gain = |kind, color| e.gain[crate::engine::Piece::new(kind, color).code() as usize];
        use crate::engine::{Color::*, PieceKind::*};
        // A gold dropped in front of a pawn, undefended: lost.
        assert_eq!(
            see_of("4k4/9/9/4p4/9/9/9/9/K8 b G 1", "G*5e"),
            -gain(Gold, Black)
        );
        // The same drop with a rook behind it: the pawn takes the gold, the rook the pawn.
        assert_eq!(
            see_of("4k4/9/9/4p4/9/9/9/9/K3R4 b G 1", "G*5e"),
            gain(Pawn, White) - gain(Gold, Black)
        );
        // A silver stepping in front of the pawn, undefended: lost; out of its reach: safe.
        assert_eq!(
            see_of("4k4/9/9/4p4/9/4S4/9/9/K8 b - 1", "5f5e"),
            -gain(Silver, Black)
        );
        assert_eq!(see_of("4k4/9/9/4p4/9/4S4/9/9/K8 b - 1", "5f4e"), 0);
    }

    #[test]
    fn exchanges_count_recaptures_and_x_rays() {
        let e = EvalTables::get(VariantId::Shogi);
        let pawn = e.gain[crate::engine::Piece::new(
            crate::engine::PieceKind::Pawn,
            crate::engine::Color::White,
        )
        .code() as usize];
        let rook = e.gain[crate::engine::Piece::new(
            crate::engine::PieceKind::Rook,
            crate::engine::Color::Black,
        )
        .code() as usize];
        // An undefended pawn: the rook wins it.
        assert_eq!(see_of("4k4/9/9/9/4p4/9/9/9/4R3K b - 1", "5i5e"), pawn);
        // Defended by a gold: the rook is lost for a pawn.
        assert_eq!(
            see_of("4k4/9/9/4g4/4p4/9/9/9/4R3K b - 1", "5i5e"),
            pawn - rook
        );
        // A second rook behind the first (seen through it once it has gone) takes the gold
        // back, which still loses: a pawn and a gold for a rook.
        let gold = e.gain[crate::engine::Piece::new(
            crate::engine::PieceKind::Gold,
            crate::engine::Color::White,
        )
        .code() as usize];
        assert_eq!(
            see_of("4k4/9/9/4g4/4p4/9/9/4R4/4R3K b - 1", "5h5e"),
            pawn - rook + gold
        );
        // A pawn takes a pawn defended by a gold: even at worst.
        assert_eq!(
            see_of("4k4/9/4g4/4p4/4P4/9/9/9/8K b - 1", "5e5d"),
            pawn - e.gain[crate::engine::Piece::new(
                crate::engine::PieceKind::Pawn,
                crate::engine::Color::Black
            )
            .code() as usize]
        );
    }
}
