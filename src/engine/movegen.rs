//! Move generation. Pseudo-legal moves come from the piece tables (steps, leaps, slides, cannon
//! jumps and ranges) with the promotion options and drop squares the rules allow; `is_legal` then
//! applies what needs the whole position: king safety and pawn-drop mate.
//!
//! Speed matters here (perft is the benchmark): in games without cannons a move can only expose
//! its own king along the line from the king through the square it leaves, so most moves skip the
//! attack test.

use crate::engine::color::Color;
use crate::engine::moves::Move;
use crate::engine::palace::entered_king;
use crate::engine::piece::{code_color, is_piece, Mode, Piece, EMPTY, WALL};
use crate::engine::position::{Position, NO_SQUARE};
use crate::engine::square::{forward, Square, PAD_W};
use crate::engine::variant::{DropMate, RepetitionRule, Special};

/// What the legality test needs to know of the position, computed once per position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LegalCtx {
    ksq: Square,
    in_check: bool,
}

#[inline]
fn aligned(a: Square, b: Square) -> bool {
    let (a, b) = (a.index() as i32, b.index() as i32);
    let w = PAD_W as i32;
    let (dc, dr) = (a % w - b % w, a / w - b / w);
    dc == 0 || dr == 0 || dc.abs() == dr.abs()
}

impl Position {
    /// Calls `f` with every square the piece `code` standing on `from` could move to by its
    /// movement alone (captures included, own pieces excluded; no king safety).
    #[inline(always)]
    pub(crate) fn for_each_target(&self, from: Square, code: u8, f: impl FnMut(Square)) {
        if self.v.t.overlap[code as usize] {
            // Two atoms reach some squares both (the elephant's slide and alfil jump): once each.
            let mut seen = 0u128;
            let mut f = f;
            return self.targets(from, code, |to| {
                let bit = 1u128 << to.bit();
                if seen & bit == 0 {
                    seen |= bit;
                    f(to)
                }
            });
        }
        if self.v.t.confined {
            let allowed = &self.v.t.allowed[code as usize];
            let mut f = f;
            self.targets(from, code, |to| {
                if allowed[to.index()] {
                    f(to)
                }
            })
        } else {
            self.targets(from, code, f)
        }
    }

    #[inline(always)]
    fn targets(&self, from: Square, code: u8, mut f: impl FnMut(Square)) {
        let b = &self.board;
        let us = code_color(code);
        let enemy = |c: u8| is_piece(c) && code_color(c) != us;
        let pm = &self.v.t.moves[code as usize];
        for &(d, mode, far) in &self.v.t.cond_leaps[code as usize] {
            if self.v.t.far_row[us][from.index()] >= far {
                continue;
            }
            let to = from.offset(d);
            let c = b[to.index()];
            if (c == EMPTY && mode != Mode::CaptureOnly) || (enemy(c) && mode != Mode::MoveOnly) {
                f(to);
            }
        }
        for &(d, mode) in &self.v.t.lame_leaps[code as usize] {
            if b[from.offset(d / 2).index()] != EMPTY {
                continue;
            }
            let to = from.offset(d);
            let c = b[to.index()];
            if (c == EMPTY && mode != Mode::CaptureOnly) || (enemy(c) && mode != Mode::MoveOnly) {
                f(to);
            }
        }
        for &(d, mode) in &pm.leaps {
            let to = from.offset(d);
            let c = b[to.index()];
            if c == EMPTY {
                if mode != Mode::CaptureOnly {
                    f(to);
                }
            } else if enemy(c) && mode != Mode::MoveOnly {
                f(to);
            }
        }
        for &(d, mode) in &pm.slides {
            let mut to = from.offset(d);
            loop {
                let c = b[to.index()];
                if c == EMPTY {
                    if mode != Mode::CaptureOnly {
                        f(to);
                    }
                    to = to.offset(d);
                    continue;
                }
                if enemy(c) && mode != Mode::MoveOnly {
                    f(to);
                }
                break;
            }
        }
        for &d in &pm.cannon_jumps {
            let mid = from.offset(d);
            if is_piece(b[mid.index()]) {
                let to = mid.offset(d);
                let c = b[to.index()];
                if c == EMPTY || enemy(c) {
                    f(to);
                }
            }
        }
        for &d in &pm.hops {
            // Over exactly one screen to the first piece beyond it.
            let mut s = from.offset(d);
            while b[s.index()] == EMPTY {
                s = s.offset(d);
            }
            if b[s.index()] == WALL || self.v.t.hop_excluded[b[s.index()] as usize] {
                continue;
            }
            s = s.offset(d);
            while b[s.index()] == EMPTY {
                s = s.offset(d);
            }
            let c = b[s.index()];
            if enemy(c) && !self.v.t.hop_excluded[c as usize] {
                f(s);
            }
        }
        for &d in &pm.cannon_ranges {
            let mut s = from.offset(d);
            let mut passed = false;
            loop {
                let c = b[s.index()];
                if c == WALL {
                    break;
                }
                if passed && (c == EMPTY || enemy(c)) {
                    f(s);
                }
                if is_piece(c) {
                    passed = true;
                }
                s = s.offset(d);
            }
        }
    }

    /// Files (bit per column) holding an unpromoted pawn of `c` subject to the two-pawn rule
    /// (in Palace Shogi: a footsoldier within `c`'s six nearest ranks).
    pub(crate) fn pawn_files(&self, c: Color) -> u16 {
        let Some(pawn) = self.v.spec.drops.pawn else {
            return 0;
        };
        let t = &self.v.t;
        let code = Piece::new(pawn, c).code();
        let nearest = self.v.spec.drops.pawn_file_ranks;
        let ranks = self.v.ranks();
        let mut files = 0u16;
        let mut bb = self.occ[c.index()];
        while bb != 0 {
            let sq = Square::from_bit(bb.trailing_zeros());
            bb &= bb - 1;
            if self.board[sq.index()] == code && ranks - t.far_row[c.index()][sq.index()] <= nearest
            {
                files |= 1 << sq.col();
            }
        }
        files
    }

    /// Whether `c` has a piece of a kind only one of which is allowed (the lion).
    pub(crate) fn unique_present(&self, c: Color) -> bool {
        self.v
            .spec
            .promotion
            .unique
            .iter()
            .any(|&k| self.counts[Piece::new(k, c).code() as usize] > 0)
    }

    /// Appends every pseudo-legal move to `out`.
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let t = &self.v.t;
        let us = self.side.index();
        let unique_present =
            !self.v.spec.promotion.unique.is_empty() && self.unique_present(self.side);
        let mut bb = self.occ[us];
        while bb != 0 {
            let from = Square::from_bit(bb.trailing_zeros());
            bb &= bb - 1;
            let code = self.board[from.index()];
            let special = t.special[code as usize];
            if special != Special::Replace {
                self.for_each_target(from, code, |to| {
                    t.push_board(out, from, to, code, unique_present)
                });
            }
            if special != Special::None {
                self.extra_moves(from, code, unique_present, out);
            }
        }
        if !self.v.spec.drops.enabled {
            return;
        }
        let empties = t.board_mask & !(self.occ[0] | self.occ[1]);
        if empties == 0 {
            return;
        }
        let drops = &self.v.spec.drops;
        let mut pawn_files: Option<u16> = None;
        for &kind in self.v.spec.pieces.hand_order {
            if self.hands[us][kind.index()] == 0 {
                continue;
            }
            let code = Piece::new(kind, self.side).code();
            let forbidden = &t.drop_forbidden[code as usize];
            let mut e = empties;
            if Some(kind) == drops.pawn {
                if drops
                    .max_pawns
                    .is_some_and(|m| self.counts[code as usize] >= m)
                {
                    continue;
                }
                let files = *pawn_files.get_or_insert_with(|| self.pawn_files(self.side));
                for col in 0..9 {
                    if files & (1 << col) != 0 {
                        e &= !t.file_masks[col];
                    }
                }
            }
            while e != 0 {
                let to = Square::from_bit(e.trailing_zeros());
                e &= e - 1;
                if !forbidden[to.index()] {
                    out.push(Move::Drop { kind, to });
                }
            }
        }
    }

    pub(crate) fn legal_ctx(&self) -> LegalCtx {
        self.legal_ctx_checked(self.in_check())
    }

    /// `legal_ctx` when the caller already knows whether the side to move is in check (the
    /// search does: it saves one attack test per node).
    pub(crate) fn legal_ctx_checked(&self, in_check: bool) -> LegalCtx {
        LegalCtx {
            ksq: self.kings[self.side.index()],
            in_check,
        }
    }

    /// Whether a pseudo-legal move is legal: it does not leave the mover's king attacked, and it
    /// is not a forbidden pawn-drop mate.
    #[inline]
    pub(crate) fn is_legal(&mut self, m: Move, ctx: &LegalCtx) -> bool {
        if ctx.ksq == NO_SQUARE {
            return true;
        }
        let simple = self.v.t.simple;
        match m {
            Move::Board { from, to, promote } => {
                if !ctx.in_check
                    && from != ctx.ksq
                    && !aligned(from, ctx.ksq)
                    && (simple || !aligned(to, ctx.ksq))
                {
                    // Only a line through the king can open (or, with cannons, gain a screen).
                    return true;
                }
                if from == to {
                    // A lion staring: nothing changes.
                    return !ctx.in_check;
                }
                let king = if from == ctx.ksq { to } else { ctx.ksq };
                let code = self.board[from.index()];
                let t = &self.v.t;
                let result = if promote {
                    t.promote[code as usize]
                } else if t.transform[code as usize] != 0
                    && t.far_row[self.side.index()][to.index()] == 0
                {
                    t.transform[code as usize]
                } else {
                    code
                };
                self.safe_after(from, to, king, result)
            }
            Move::Drop { kind, to } => {
                let code = Piece::new(kind, self.side).code();
                let may_expose = !simple && aligned(to, ctx.ksq);
                if (ctx.in_check || may_expose) && !self.safe_after(NO_SQUARE, to, ctx.ksq, code) {
                    return false;
                }
                let drops = &self.v.spec.drops;
                if Some(kind) == drops.pawn {
                    match drops.pawn_mate {
                        DropMate::Allowed => {}
                        DropMate::PawnInFront => {
                            if to.offset(forward(self.side)) == self.kings[(!self.side).index()] {
                                return !self.drop_mates(m);
                            }
                        }
                        DropMate::Any => {
                            // A drop can only check along a line through the enemy king (as a
                            // checker next to it or as a screen).
                            let their_king = self.kings[(!self.side).index()];
                            if their_king != NO_SQUARE && aligned(to, their_king) {
                                return !self.drop_mates(m);
                            }
                        }
                    }
                }
                true
            }
            Move::PromoteTo { from, to, kind } => {
                let king = ctx.ksq;
                let result = Piece::new(kind, self.side).code();
                self.safe_after(from, to, king, result)
            }
            Move::Castle { from, to } => {
                // Not out of check, not across or onto an attacked square.
                let them = !self.side;
                let transit = Square(((from.0 as u16 + to.0 as u16) / 2) as u8);
                !ctx.in_check && !self.attacked(transit, them) && !self.attacked(to, them) && {
                    let u = self.make(m);
                    let safe = !self.is_in_check(!them);
                    self.unmake(m, u);
                    safe
                }
            }
            Move::Lion { .. } | Move::EnPassant { .. } => {
                let us = self.side;
                let u = self.make(m);
                let safe = !self.is_in_check(us);
                self.unmake(m, u);
                safe
            }
        }
    }

    /// Whether `king` is safe once the piece on `from` (or, with `from` = `NO_SQUARE`, a
    /// dropped piece) stands on `to` as `result`. Only the board is touched, and it is restored.
    fn safe_after(&mut self, from: Square, to: Square, king: Square, result: u8) -> bool {
        let us = self.side;
        let captured = self.board[to.index()];
        let moving = if from == NO_SQUARE {
            EMPTY
        } else {
            self.board[from.index()]
        };
        if from != NO_SQUARE {
            self.board[from.index()] = EMPTY;
        }
        self.board[to.index()] = result;
        let safe = !self.attacked(king, !us);
        self.board[to.index()] = captured;
        if from != NO_SQUARE {
            self.board[from.index()] = moving;
        }
        safe
    }

    /// Whether a (legal) drop checks and leaves the opponent without a legal move.
    fn drop_mates(&mut self, m: Move) -> bool {
        let u = self.make(m);
        let mated = self.in_check() && !self.has_legal_move();
        self.unmake(m, u);
        mated
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&mut self) -> bool {
        let mut buf = Vec::with_capacity(128);
        self.pseudo_moves(&mut buf);
        let ctx = self.legal_ctx();
        buf.into_iter().any(|m| self.is_legal(m, &ctx))
    }

    /// Every legal move, in generation order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut p = self.clone();
        let mut buf = Vec::with_capacity(128);
        p.pseudo_moves(&mut buf);
        let ctx = p.legal_ctx();
        buf.retain(|&m| p.is_legal(m, &ctx));
        buf
    }

    /// Number of legal moves.
    pub fn count_legal(&mut self, buf: &mut Vec<Move>) -> u64 {
        buf.clear();
        self.pseudo_moves(buf);
        let ctx = self.legal_ctx();
        let mut n = 0;
        for &m in buf.iter() {
            n += self.is_legal(m, &ctx) as u64;
        }
        n
    }
}

/// Counts the leaf nodes of the legal move tree to `depth` plies (the last ply is counted by
/// generating legal moves, as Fairy-Stockfish does). No history: see `Game::perft` for the
/// version that stops at game-ending repetitions.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
    // The position is the first of its history: the same walk as `Game::perft`.
    perft_hist(pos, &mut vec![pos.hash()], depth, &mut bufs)
}

/// Perft that ends a line at a fourth occurrence (checked only where one is possible).
pub(crate) fn perft_hist(
    pos: &mut Position,
    hist: &mut Vec<u64>,
    depth: u32,
    bufs: &mut [Vec<Move>],
) -> u64 {
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
    let third = pos.v.spec.end.repetition == RepetitionRule::ThirdForbidden && hist.len() >= 8;
    if depth == 1 && !third {
        return pos.count_legal(buf);
    }
    buf.clear();
    pos.pseudo_moves(buf);
    let ctx = pos.legal_ctx();
    let mut n = 0;
    let palace = pos.v.t.palace.is_some();
    for &m in buf.iter() {
        if !pos.is_legal(m, &ctx) {
            continue;
        }
        let u = pos.make(m);
        let h = pos.hash();
        let count = if hist.len() >= 8 {
            hist.iter().filter(|&&x| x == h).count()
        } else {
            0
        };
        if third && count >= 2 {
            pos.unmake(m, u);
            continue;
        }
        if depth == 1 {
            n += 1;
        } else if count < 3 && !(palace && entered_king(pos).is_some()) {
            hist.push(h);
            n += perft_hist(pos, hist, depth - 1, rest);
            hist.pop();
        }
        pos.unmake(m, u);
    }
    n
}

impl Position {
    /// The pseudo-legal moves of the piece on `from` (none if it is not the side to move's).
    pub(crate) fn piece_moves(&self, from: Square) -> Vec<Move> {
        let mut out = Vec::new();
        let code = self.board[from.index()];
        if !is_piece(code) || code_color(code) != self.side.index() {
            return out;
        }
        let t = &self.v.t;
        let unique_present =
            !self.v.spec.promotion.unique.is_empty() && self.unique_present(self.side);
        let special = t.special[code as usize];
        if special != Special::Replace {
            self.for_each_target(from, code, |to| {
                t.push_board(&mut out, from, to, code, unique_present)
            });
        }
        if special != Special::None {
            self.extra_moves(from, code, unique_present, &mut out);
        }
        out
    }
}
