//! The attack test: whether a square is attacked, whether a king is in check.

use crate::engine::bitboard::{bb, pop, Bitboard, OPPOSITE};
use crate::engine::color::Color;
use crate::engine::moves::Move;
use crate::engine::palace::{queen_reaches, special_attack};
use crate::engine::piece::Piece;
use crate::engine::piece::{code_color, is_piece};
use crate::engine::position::{Position, NO_SQUARE};
use crate::engine::square::{Square, DIRS8};

impl Position {
    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.is_in_check(self.side)
    }

    /// Whether `c`'s king is attacked.
    pub fn is_in_check(&self, c: Color) -> bool {
        let k = self.kings[c.index()];
        k != NO_SQUARE && self.attacked(k, !c)
    }

    /// Whether a piece of `by` could capture on `sq` on its next move (pins ignored).
    ///
    /// Steps and leaps are looked up backward (`step_from`: the squares from which each kind
    /// reaches `sq`, ANDed with where that kind stands); lines are walked by rays from `sq` to
    /// the first piece (a slider), the second (a hopping cannon) or any beyond the first (a
    /// ranging cannon); the rest square by square.
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked_in(sq, by, self.occ[0] | self.occ[1])
    }

    /// `attacked` with the squares of `occ` as the occupied ones, for a king move tested
    /// without making it: `occ` is the board without the king (a piece it would capture on
    /// `sq` attacks nothing there). Not for Palace Shogi, whose palace hooks read the board.
    #[inline]
    pub(crate) fn attacked_in(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let t = &self.v.t;
        let b = &self.board;
        let byi = by.index();
        let s0 = sq.index() as isize;
        let target = sq.bit() as usize;
        // Most squares have no piece of `by` a step or leap away: one test then.
        if t.step_near[byi][target] & self.occ[byi] != 0 {
            for &code in &t.step_codes[byi] {
                if t.step_from[code as usize][target] & self.bb[code as usize] != 0 {
                    return true;
                }
            }
        }
        let ours = |c: u8| is_piece(c) && code_color(c) == byi;
        for &(off, code) in &t.lame_attacks[byi] {
            let a = s0 - off as isize;
            if b[a as usize] == code
                && occ & bb(Square((a + off as isize / 2) as u8)) == 0
                && t.allowed[code as usize][sq.index()]
            {
                return true;
            }
        }
        let ranges = t.range_dirs[byi];
        let hops = t.hop_dirs[byi];
        let mut lines = t.slide_dirs[byi] | ranges | hops;
        while lines != 0 {
            // An attacker moving along `d` stands on the ray from `sq` the other way.
            let d = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let back = OPPOSITE[d];
            if t.rays.ray[back][target] & self.occ[byi] == 0 {
                // No piece of `by` on the line at all.
                continue;
            }
            let Some(s) = t.rays.first(back, sq, occ) else {
                continue;
            };
            let c = b[s.index()];
            if ours(c)
                && (t.slide_attack[c as usize] >> d) & 1 != 0
                && (!t.queen_walls[c as usize]
                    || queen_reaches(self, s.index(), sq.index(), DIRS8[d] as isize, byi))
            {
                return true;
            }
            if (hops >> d) & 1 != 0 && !t.hop_excluded[c as usize] {
                // A hopping cannon just beyond the screen attacks `sq`.
                if let Some(h) = t.rays.first(back, s, occ) {
                    let c = b[h.index()];
                    if ours(c) && (t.hop_attack[c as usize] >> d) & 1 != 0 {
                        return true;
                    }
                }
            }
            if (ranges >> d) & 1 != 0 {
                // A ranging cannon anywhere beyond the first piece (the screen) attacks `sq`.
                let mut beyond = t.rays.ray[back][s.bit() as usize] & self.occ[byi];
                while beyond != 0 {
                    let c = b[pop(&mut beyond).index()];
                    if (t.range_attack[c as usize] >> d) & 1 != 0 {
                        return true;
                    }
                }
            }
        }
        if t.flying_king {
            // Kings facing each other on a file with nothing between: the flying king.
            let ks = self.kings[byi];
            if ks != NO_SQUARE
                && ks.col() == sq.col()
                && ks != sq
                && t.rays.between(sq, ks) & occ == 0
            {
                return true;
            }
        }
        if t.palace.is_some() && special_attack(self, sq, by) {
            return true;
        }
        let mut jumps = t.jump_dirs[byi];
        while jumps != 0 {
            let d = jumps.trailing_zeros() as usize;
            jumps &= jumps - 1;
            let step = DIRS8[d] as isize;
            let mid = Square((s0 - step) as u8);
            if is_piece(b[mid.index()]) && occ & bb(mid) != 0 {
                let c = b[(s0 - 2 * step) as usize];
                if ours(c) && (t.jump_attack[c as usize] >> d) & 1 != 0 {
                    return true;
                }
            }
        }
        false
    }
}

impl Position {
    /// Whether the side to move's pseudo-legal move `m` may give check (false only when it
    /// surely does not), in games without palace hooks or blockable leaps: by discovery, when
    /// it leaves or reaches a square of `discovery` (`exposure` of the enemy king with the side
    /// to move moving, found once per position), or directly, when the piece it leaves on `to`
    /// steps or leaps to the king from there, or attacks along lines and stands on one of the
    /// king's. Lion moves, castling and en passant always may.
    #[inline]
    pub(crate) fn may_give_check(&self, m: Move, discovery: Bitboard) -> bool {
        let t = &self.v.t;
        let king = self.kings[(!self.side).index()];
        if king == NO_SQUARE {
            return false;
        }
        let (from, to, code) = match m {
            Move::Board { from, to, promote } => {
                let code = self.board[from.index()];
                let code = if promote {
                    t.promote[code as usize]
                } else if t.transform[code as usize] != 0
                    && t.far_row[self.side.index()][to.index()] == 0
                {
                    t.transform[code as usize]
                } else {
                    code
                };
                (bb(from), to, code)
            }
            Move::Drop { kind, to } => (0, to, Piece::new(kind, self.side).code()),
            Move::PromoteTo { from, to, kind } => {
                (bb(from), to, Piece::new(kind, self.side).code())
            }
            Move::Lion { .. } | Move::Castle { .. } | Move::EnPassant { .. } => return true,
        };
        let (c, k) = (code as usize, king.bit() as usize);
        (from | bb(to)) & discovery != 0
            || t.step_from[c][k] & bb(to) != 0
            || (t.line_piece[c] && t.king_lines[k] & bb(to) != 0)
    }
}

impl Position {
    /// The pieces of `by` that attack `sq` when only the squares of `occ` are occupied (pieces
    /// outside `occ` are taken as already gone): for the exchange evaluation, which lifts
    /// attackers one by one and so sees the pieces behind them.
    ///
    /// Steps and leaps, slides and cannons (hopping and ranging) are found; the rare attacks
    /// that need the whole board (blockable leaps, cannon jumps, the flying king and the palace
    /// hooks) are left out, and a walled queen counts as a free one, so that the exchange
    /// evaluation is an estimate in those games (it only orders and prunes the search).
    ///
    /// Only the pieces of `by` on squares from which one of its codes could step or leap here
    /// are asked whether their own code does, and only the lines holding one of its line
    /// pieces are walked: the exchange evaluation calls this once or twice per move it judges.
    pub(crate) fn attackers_to(&self, sq: Square, by: Color, occ: Bitboard) -> Bitboard {
        let t = &self.v.t;
        let b = &self.board;
        let byi = by.index();
        let target = sq.bit() as usize;
        let mine = self.occ[byi] & occ;
        let mut found = 0;
        // Steps and leaps: only the pieces standing where one of the side's codes could step
        // or leap from are asked, each whether its own code does.
        let mut near = t.step_near[byi][target] & mine;
        while near != 0 {
            let f = near.trailing_zeros();
            near &= near - 1;
            let code = b[Square::from_bit(f).index()] as usize;
            found |= t.step_from[code][target] & (1u128 << f);
        }
        // Lines: only the directions with one of the side's line pieces on them are walked.
        let mut liners = 0;
        for &code in &t.line_codes[byi] {
            liners |= self.bb[code as usize];
        }
        liners &= mine;
        if liners == 0 {
            return found;
        }
        let ranges = t.range_dirs[byi];
        let hops = t.hop_dirs[byi];
        let mut lines = t.slide_dirs[byi] | ranges | hops;
        while lines != 0 {
            let d = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let back = OPPOSITE[d];
            if t.rays.ray[back][target] & liners == 0 {
                continue;
            }
            let Some(s) = t.rays.first(back, sq, occ) else {
                continue;
            };
            let c = b[s.index()];
            if mine & bb(s) != 0 && (t.slide_attack[c as usize] >> d) & 1 != 0 {
                found |= bb(s);
            }
            if (hops >> d) & 1 != 0 {
                if let Some(h) = t.rays.first(back, s, occ) {
                    let c = b[h.index()];
                    if mine & bb(h) != 0 && (t.hop_attack[c as usize] >> d) & 1 != 0 {
                        found |= bb(h);
                    }
                }
            }
            if (ranges >> d) & 1 != 0 {
                let mut beyond = t.rays.ray[back][s.bit() as usize] & mine;
                while beyond != 0 {
                    let h = pop(&mut beyond);
                    if (t.range_attack[b[h.index()] as usize] >> d) & 1 != 0 {
                        found |= bb(h);
                    }
                }
            }
        }
        found & mine
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Position, VariantId};

    /// Along seeded random games (biased toward checks and captures) of the games with the
    /// check filter: no move that `may_give_check` rules out gives check, and the filter rules
    /// out most of the moves that do not.
    #[test]
    fn check_filter_never_misses_a_check() {
        for id in [VariantId::Shogi, VariantId::Judkins, VariantId::Cannon] {
            let (mut quiet, mut ruled_out) = (0u32, 0u32);
            for seed in 0..30u64 {
                let mut pos = Position::start(id);
                let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                let mut next = |n: usize| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    (rng >> 11) as usize % n
                };
                for _ply in 0..150 {
                    let us = pos.side.index();
                    let them = us ^ 1;
                    let discovery = pos.exposure(pos.kings[them], us, us);
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let mut checks = Vec::new();
                    for &m in &legal {
                        let may = pos.may_give_check(m, discovery);
                        let u = pos.make(m);
                        let check = pos.in_check();
                        pos.unmake(m, u);
                        assert!(may || !check, "{id:?} {pos:?} {m:?}");
                        if check {
                            checks.push(m);
                        } else {
                            quiet += 1;
                            ruled_out += u32::from(!may);
                        }
                    }
                    let captures: Vec<_> =
                        legal.iter().copied().filter(|&m| pos.captures(m)).collect();
                    let m = match next(4) {
                        0 if !checks.is_empty() => checks[next(checks.len())],
                        1 if !captures.is_empty() => captures[next(captures.len())],
                        _ => legal[next(legal.len())],
                    };
                    pos.make(m);
                }
            }
            assert!(
                ruled_out * 10 > quiet * 7,
                "{id:?}: only {ruled_out} of {quiet} non-checking moves ruled out"
            );
        }
    }
}
