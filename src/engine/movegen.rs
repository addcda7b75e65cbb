//! Move generation. Pseudo-legal moves come from the piece tables (steps, leaps, slides, cannon
//! jumps and ranges, as sets: see `bitboard.rs` and the engine's module docs) with the promotion
//! options and drop squares the rules allow; `is_legal` then applies what needs the whole
//! position: king safety and pawn-drop mate.
//!
//! Speed matters here (perft is the benchmark). In games without cannons, king safety comes
//! from pins and checkers found once per position (`LegalCtx`); in the others only a move that
//! leaves or reaches a square of danger (a cannon's line through the king, a pinned piece, the
//! piece between the two kings: `LegalCtx::danger`) gets the trial test.
//!
//! In check, only the moves that can answer it are generated at all (`Evasion`, found with
//! the context): in Shogi and Judkins Shogi the king's moves and the moves and drops that
//! reach the checker or a square between it and the king (the king's moves alone against two
//! checkers); in the games with cannons and palaces the moves and drops that reach or leave a
//! square on a line through the king, or reach a piece that steps or leaps to it. A drop that
//! cannot block is then neither made, scored nor tested: most of a position's moves in check.
//!
//! The search takes the moves in stages (`pseudo_stage`: captures, then quiets, each under
//! the evasion mask), and checks a move from its table with `is_pseudo_legal`.

use crate::engine::bitboard::{bb, pop, Bitboard, OPPOSITE};
use crate::engine::color::Color;
use crate::engine::moves::Move;
use crate::engine::palace::entered_king;
use crate::engine::piece::{code_color, is_piece, Mode, Piece, PieceKind, EMPTY, WALL};
use crate::engine::position::{Position, NO_SQUARE};
use crate::engine::square::{forward, Square, DIRS8, PAD_W};
use crate::engine::variant::{DropMate, PushMode, RepetitionRule, Special};

/// What the legality test needs to know of the position, computed once per position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LegalCtx {
    ksq: Square,
    in_check: bool,
    /// Pins and checkers are known (games without cannons: a move can expose its king only
    /// by leaving a line from the king to an enemy slider).
    pins: bool,
    /// The mover's pieces that stand alone between their king and an enemy slider.
    pinned: Bitboard,
    /// The pieces giving check.
    checkers: Bitboard,
    /// With one checker: the squares that answer the check (the checker and, for a slider,
    /// the squares between it and the king).
    answers: Bitboard,
    /// In check: what a move of another piece than the king must touch to possibly answer
    /// it (`Position::evasion_mask`); `Evasion::ALL` otherwise.
    evasion: Evasion,
    /// Games with cannons, not in check: the squares a move must leave or reach to possibly
    /// expose the king (`Position::danger_lines`); a move that does neither is legal. All
    /// squares in check.
    danger: Bitboard,
}

/// The moves (and drops) that can answer a check: those that reach a square of `to` or leave
/// a square of `from` (which holds the king's square, so that the king's moves are all kept).
/// Every other one leaves every attack on the king as it was, so it is not generated in
/// check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Evasion {
    pub to: Bitboard,
    pub from: Bitboard,
}

impl Evasion {
    /// Every move (not in check).
    pub const ALL: Evasion = Evasion { to: !0, from: 0 };
}

#[inline]
fn aligned(a: Square, b: Square) -> bool {
    let (a, b) = (a.index() as i32, b.index() as i32);
    let w = PAD_W as i32;
    let (dc, dr) = (a % w - b % w, a / w - b / w);
    dc == 0 || dr == 0 || dc.abs() == dr.abs()
}

impl Position {
    /// The squares the piece `code` on `from` could move to, as a set: steps and leaps from the
    /// tables, slides by rays, cannons by rays past their screen; the few blockable leaps
    /// (the Xiangqi elephant) and cannon jumps square by square.
    #[inline(always)]
    pub(crate) fn targets(&self, from: Square, code: u8) -> Bitboard {
        self.targets_of::<true, true>(from, code)
    }

    /// The empty squares among `targets`, with the occupied and empty squares given (an
    /// evaluation asks this of several pieces on one square).
    #[inline]
    pub(crate) fn quiet_targets(
        &self,
        from: Square,
        code: u8,
        occ: Bitboard,
        empty: Bitboard,
    ) -> Bitboard {
        let enemy = self.occ[code_color(code) ^ 1];
        self.targets_in::<true, false>(from, from.bit(), code, occ, enemy, empty)
    }

    /// `targets`, restricted to empty squares (`QUIET`), enemy pieces (`CAPTURE`) or both: the
    /// half not asked for is not computed.
    #[inline(always)]
    fn targets_of<const QUIET: bool, const CAPTURE: bool>(
        &self,
        from: Square,
        code: u8,
    ) -> Bitboard {
        let occ = self.occ[0] | self.occ[1];
        let enemy = self.occ[code_color(code) ^ 1];
        let empty = self.v.t.board_mask & !occ;
        self.targets_in::<QUIET, CAPTURE>(from, from.bit(), code, occ, enemy, empty)
    }

    /// `targets_of` with the occupied, enemy and empty squares given (the generator computes
    /// them once for all of a side's pieces).
    #[inline(always)]
    fn targets_in<const QUIET: bool, const CAPTURE: bool>(
        &self,
        from: Square,
        bit: u32,
        code: u8,
        occ: Bitboard,
        enemy: Bitboard,
        empty: Bitboard,
    ) -> Bitboard {
        let t = &self.v.t;
        let c = code as usize;
        let f = bit as usize;
        let mut out = 0;
        // The squares slides along the directions `dirs` (bits over `DIRS8`) reach.
        let slides = |mut dirs: u8| {
            let mut reach = 0;
            while dirs != 0 {
                let d = dirs.trailing_zeros() as usize;
                dirs &= dirs - 1;
                reach |= t.rays.slide(d, f, occ);
            }
            reach
        };
        if QUIET && CAPTURE && t.slide_quiet[c] == t.slide_attack[c] {
            // The usual slider moves and captures along the same lines: one walk for both.
            let reach = slides(t.slide_quiet[c]);
            out |= (t.step_quiet[c][f] | reach) & empty | (t.step_capture[c][f] | reach) & enemy;
        } else {
            if QUIET {
                out |= (t.step_quiet[c][f] | slides(t.slide_quiet[c])) & empty;
            }
            if CAPTURE {
                out |= (t.step_capture[c][f] | slides(t.slide_attack[c])) & enemy;
            }
        }
        let (ranges, hops, jumps) = (t.range_attack[c], t.hop_attack[c], t.jump_attack[c]);
        if ranges | hops | jumps != 0 || !t.lame_leaps[c].is_empty() {
            let mut cannon = self.cannon_targets(from, code, occ, enemy, empty);
            if !QUIET {
                cannon &= enemy;
            }
            if !CAPTURE {
                cannon &= !enemy;
            }
            out |= cannon;
        }
        out & t.allowed_bb[c]
    }

    /// The targets of cannons (ranging, hopping and jumping) and blockable leaps.
    #[inline]
    fn cannon_targets(
        &self,
        from: Square,
        code: u8,
        occ: Bitboard,
        enemy: Bitboard,
        empty: Bitboard,
    ) -> Bitboard {
        let t = &self.v.t;
        let b = &self.board;
        let c = code as usize;
        let mut out = 0;
        let mut ranges = t.range_attack[c];
        while ranges != 0 {
            let d = ranges.trailing_zeros() as usize;
            ranges &= ranges - 1;
            // Past the first piece (the screen), anywhere along the line.
            if let Some(screen) = t.rays.first(d, from, occ) {
                out |= t.rays.ray[d][screen.bit() as usize] & (empty | enemy);
            }
        }
        let mut hops = t.hop_attack[c];
        while hops != 0 {
            let d = hops.trailing_zeros() as usize;
            hops &= hops - 1;
            // Over exactly one screen to the first piece beyond it.
            let Some(screen) = t.rays.first(d, from, occ) else {
                continue;
            };
            if t.hop_excluded[b[screen.index()] as usize] {
                continue;
            }
            if let Some(target) = t.rays.first(d, screen, occ) {
                if enemy & bb(target) != 0 && !t.hop_excluded[b[target.index()] as usize] {
                    out |= bb(target);
                }
            }
        }
        let mut jumps = t.jump_attack[c];
        while jumps != 0 {
            let d = jumps.trailing_zeros() as usize;
            jumps &= jumps - 1;
            let mid = from.offset(DIRS8[d]);
            if is_piece(b[mid.index()]) {
                let to = mid.offset(DIRS8[d]);
                let cell = b[to.index()];
                if cell == EMPTY || (is_piece(cell) && code_color(cell) != code_color(code)) {
                    out |= bb(to);
                }
            }
        }
        for &(d, mode) in &t.lame_leaps[c] {
            if b[from.offset(d / 2).index()] != EMPTY {
                continue;
            }
            let to = from.offset(d);
            let cell = b[to.index()];
            if cell == WALL {
                continue;
            }
            let target = bb(to);
            if (empty & target != 0 && mode != Mode::CaptureOnly)
                || (enemy & target != 0 && mode != Mode::MoveOnly)
            {
                out |= target;
            }
        }
        out
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
        let mut pawns = self.bb[code as usize];
        while pawns != 0 {
            let sq = pop(&mut pawns);
            if ranks - t.far_row[c.index()][sq.index()] <= nearest {
                files |= 1 << sq.col();
            }
        }
        files
    }

    /// Pushes the board moves of the piece `code` on `from` to every square of `targets`, with
    /// the promotion options the rules give: whole sets at a time for the usual case (a
    /// promotion that may be taken or not), `Tables::push_board` move by move for the rest.
    #[inline(always)]
    fn push_targets(
        &self,
        out: &mut Vec<Move>,
        from: Square,
        code: u8,
        mut targets: Bitboard,
        unique_present: bool,
    ) {
        let t = &self.v.t;
        let c = code as usize;
        let push = |out: &mut Vec<Move>, mut set: Bitboard, promote: bool| {
            while set != 0 {
                out.push(Move::Board {
                    from,
                    to: pop(&mut set),
                    promote,
                });
            }
        };
        match t.push_mode[c] {
            // Never promotes, so no square is dead for it.
            PushMode::Plain => push(out, targets, false),
            PushMode::PerMove => {
                while targets != 0 {
                    t.push_board(out, from, pop(&mut targets), code, unique_present);
                }
            }
            PushMode::Optional => {
                let zone = t.zone_bb[code_color(code)];
                let promoting = if zone & bb(from) != 0 {
                    targets
                } else {
                    targets & zone
                };
                push(out, promoting, true);
                push(out, targets & !t.dead_bb[c], false);
            }
        }
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
    #[cfg(test)]
    pub(crate) fn pseudo_moves(&self, out: &mut Vec<Move>) {
        self.generate(out, Gen::All, Evasion::ALL);
    }

    /// Appends the pseudo-legal captures (a lion's double move and en passant included) to
    /// `out`: the search's first stage.
    pub(crate) fn pseudo_captures(&self, out: &mut Vec<Move>) {
        self.generate(out, Gen::Captures, Evasion::ALL);
    }

    /// Appends the pseudo-legal moves that capture nothing, drops included: with
    /// `pseudo_captures`, exactly the moves of `pseudo_moves`.
    #[cfg(test)]
    pub(crate) fn pseudo_quiets(&self, out: &mut Vec<Move>) {
        self.generate(out, Gen::Quiets, Evasion::ALL);
    }

    /// What a move of another piece than the king, or a drop, must touch to be legal at all
    /// (see `Evasion`; found by `legal_ctx_checked`). In check in a game settled by pins and
    /// checkers: reach the checker or a square between it and the king, and nothing against
    /// two checkers. In the other games, in check: reach or leave a square on a line through
    /// the king (where every attack along a line, a cannon's screen, a blockable leap's
    /// blocking square and the palace hooks' squares lie), or reach a piece that steps or
    /// leaps to the king. Not in check: anything. Most of a position's moves in check (drops
    /// above all) cannot answer it, and are then not generated, scored or tested.
    #[inline]
    pub(crate) fn evasion_mask(ctx: &LegalCtx) -> Evasion {
        ctx.evasion
    }

    /// The `Evasion` of the side to move in check (its king on `ksq`, `ctx` holding the
    /// checkers in the games settled by pins).
    fn evasion_of(&self, ksq: Square, ctx: &LegalCtx) -> Evasion {
        let t = &self.v.t;
        if ctx.pins {
            if ctx.checkers == 0 {
                // `legal_ctx` looks for checkers without knowing whether there are any.
                return Evasion::ALL;
            }
            let to = if ctx.checkers & (ctx.checkers - 1) != 0 {
                0
            } else {
                ctx.answers
            };
            return Evasion { to, from: bb(ksq) };
        }
        let them = self.side.index() ^ 1;
        let k = ksq.bit() as usize;
        let mut lines = t.king_lines[k];
        if let Some(geo) = &t.palace {
            // The palace hooks attack across a centre (on a line through a king in its
            // palace); the centres are kept whatever the king's square, to be safe.
            lines |= bb(geo.centre[0]) | bb(geo.centre[1]);
        }
        let mut to = lines | (t.step_near[them][k] & self.occ[them]);
        for &(off, code) in &t.lame_attacks[them] {
            let a = ksq.index() as isize - off as isize;
            if self.board.get(a as usize) == Some(&code) {
                to |= bb(Square(a as u8));
            }
        }
        Evasion {
            to,
            from: lines | bb(ksq),
        }
    }

    /// `pseudo_moves` without the moves `evasion_mask` rules out: every move that can be
    /// legal (and `is_legal` still decides).
    pub(crate) fn candidate_moves(&self, out: &mut Vec<Move>, ctx: &LegalCtx) {
        self.masked_moves(out, Self::evasion_mask(ctx));
    }

    /// `pseudo_captures` or `pseudo_quiets` (`captures` says which) without the moves of
    /// other pieces than the king, nor the drops, that `mask` rules out (`evasion_mask`).
    pub(crate) fn pseudo_stage(&self, out: &mut Vec<Move>, captures: bool, mask: Evasion) {
        let gen = if captures { Gen::Captures } else { Gen::Quiets };
        self.generate(out, gen, mask);
    }

    /// Every pseudo-legal move that `mask` allows, captures and quiet moves alike.
    pub(crate) fn masked_moves(&self, out: &mut Vec<Move>, mask: Evasion) {
        self.generate(out, Gen::All, mask);
    }

    /// The moves of `gen` that `mask` allows (moves with a special rule are all kept).
    fn generate(&self, out: &mut Vec<Move>, gen: Gen, mask: Evasion) {
        // Two copies: the usual one keeps the mask's test out of its loops.
        if mask == Evasion::ALL {
            self.generate_in::<false>(out, gen, mask)
        } else {
            self.generate_in::<true>(out, gen, mask)
        }
    }

    /// `generate`, `MASKED` telling whether `mask` leaves out any square.
    #[inline(always)]
    fn generate_in<const MASKED: bool>(&self, out: &mut Vec<Move>, gen: Gen, ev: Evasion) {
        let t = &self.v.t;
        let us = self.side.index();
        let masked = MASKED;
        let unique_present =
            !self.v.spec.promotion.unique.is_empty() && self.unique_present(self.side);
        let occ = self.occ[0] | self.occ[1];
        let enemy = self.occ[us ^ 1];
        let empty = t.board_mask & !occ;
        // Code by code: what depends only on the code is read once for all its pieces.
        for &code in &t.side_codes[us] {
            let c = code as usize;
            let mut pieces = self.bb[c];
            if pieces == 0 {
                continue;
            }
            if t.steps_only[c] {
                // Steppers (pawns, golds, silvers, knights, kings...): straight from the tables.
                let allowed = t.allowed_bb[c];
                let quiet = if gen == Gen::Captures {
                    0
                } else {
                    empty & allowed
                };
                let capture = if gen == Gen::Quiets {
                    0
                } else {
                    enemy & allowed
                };
                while pieces != 0 {
                    let f = pieces.trailing_zeros() as usize;
                    pieces &= pieces - 1;
                    let mut targets = t.step_quiet[c][f] & quiet | t.step_capture[c][f] & capture;
                    if masked && ev.from & (1u128 << f) == 0 {
                        targets &= ev.to;
                    }
                    if targets != 0 {
                        let from = Square::from_bit(f as u32);
                        self.push_targets(out, from, code, targets, unique_present);
                    }
                }
                continue;
            }
            let special = t.special[c];
            while pieces != 0 {
                let f = pieces.trailing_zeros();
                let from = Square::from_bit(f);
                pieces &= pieces - 1;
                if special != Special::Replace {
                    let mut targets = match gen {
                        Gen::All => self.targets_in::<true, true>(from, f, code, occ, enemy, empty),
                        Gen::Captures => {
                            self.targets_in::<false, true>(from, f, code, occ, enemy, empty)
                        }
                        Gen::Quiets => {
                            self.targets_in::<true, false>(from, f, code, occ, enemy, empty)
                        }
                    };
                    if masked && ev.from & (1u128 << f) == 0 {
                        targets &= ev.to;
                    }
                    if targets != 0 {
                        self.push_targets(out, from, code, targets, unique_present);
                    }
                }
                if special != Special::None {
                    let start = out.len();
                    self.extra_moves(from, code, unique_present, out);
                    if gen != Gen::All {
                        let want = gen == Gen::Captures;
                        let mut i = start;
                        while i < out.len() {
                            if self.captures(out[i]) == want {
                                i += 1;
                            } else {
                                out.swap_remove(i);
                            }
                        }
                    }
                }
            }
        }
        if gen != Gen::Captures {
            self.drops(out, ev.to);
        }
    }

    /// Whether a pseudo-legal move captures.
    #[inline]
    pub(crate) fn captures(&self, m: Move) -> bool {
        let them = self.occ[self.side.index() ^ 1];
        match m {
            Move::Lion { .. } | Move::EnPassant { .. } => true,
            Move::Board { from, to, .. } | Move::PromoteTo { from, to, .. } => {
                from != to && them & bb(to) != 0
            }
            Move::Drop { .. } | Move::Castle { .. } => false,
        }
    }

    /// Appends the pseudo-legal drops to squares of `mask`.
    fn drops(&self, out: &mut Vec<Move>, mask: Bitboard) {
        if !self.v.spec.drops.enabled {
            return;
        }
        let t = &self.v.t;
        let us = self.side.index();
        let empties = t.board_mask & !(self.occ[0] | self.occ[1]) & mask;
        if empties == 0 {
            return;
        }
        let mut pawn_files: Option<u16> = None;
        for &kind in self.v.spec.pieces.hand_order {
            if self.hands[us][kind.index()] == 0 {
                continue;
            }
            let mut e = empties & self.drop_squares(kind, &mut pawn_files);
            while e != 0 {
                out.push(Move::Drop {
                    kind,
                    to: pop(&mut e),
                });
            }
        }
    }

    /// The squares where the side to move may drop `kind` if they are empty (the two-pawn rule
    /// and the pawn limit applied; `pawn_files` caches the pawn files).
    #[inline]
    fn drop_squares(&self, kind: PieceKind, pawn_files: &mut Option<u16>) -> Bitboard {
        let t = &self.v.t;
        let drops = &self.v.spec.drops;
        let code = Piece::new(kind, self.side).code();
        let mut e = t.drop_ok[code as usize];
        if Some(kind) == drops.pawn {
            if drops
                .max_pawns
                .is_some_and(|m| self.counts[code as usize] >= m)
            {
                return 0;
            }
            let mut files = *pawn_files.get_or_insert_with(|| self.pawn_files(self.side));
            while files != 0 {
                e &= !t.file_masks[files.trailing_zeros() as usize];
                files &= files - 1;
            }
        }
        e
    }

    /// Whether `m` is one of the pseudo-legal moves of this position (a move from the
    /// transposition table may belong to another position with the same hash, a killer to a
    /// sibling). `scratch` is a buffer for the moving piece's moves.
    #[inline(never)]
    pub(crate) fn is_pseudo_legal(&self, m: Move, scratch: &mut Vec<Move>) -> bool {
        let us = self.side.index();
        match m {
            Move::Drop { kind, to } => {
                self.v.spec.drops.enabled
                    && self.hands[us][kind.index()] > 0
                    && (self.occ[0] | self.occ[1]) & bb(to) == 0
                    && self.v.t.board_mask & bb(to) != 0
                    && self.drop_squares(kind, &mut None) & bb(to) != 0
            }
            _ => {
                let Some(from) = m.from() else {
                    return false;
                };
                if self.occ[us] & bb(from) == 0 {
                    return false;
                }
                let code = self.board[from.index()];
                let t = &self.v.t;
                let special = t.special[code as usize];
                if let Move::Board { to, .. } = m {
                    if special == Special::None {
                        // Only this target's promotion options need pushing.
                        let target = self.targets(from, code) & bb(to);
                        if target == 0 {
                            return false;
                        }
                        scratch.clear();
                        let unique_present = !self.v.spec.promotion.unique.is_empty()
                            && self.unique_present(self.side);
                        self.push_targets(scratch, from, code, target, unique_present);
                        return scratch.contains(&m);
                    }
                }
                scratch.clear();
                self.moves_of(from, scratch);
                scratch.contains(&m)
            }
        }
    }

    pub(crate) fn legal_ctx(&self) -> LegalCtx {
        if self.v.t.simple {
            // The checkers come with the pins: no separate attack test.
            let mut ctx = self.legal_ctx_checked(true);
            ctx.in_check = ctx.checkers != 0;
            return ctx;
        }
        self.legal_ctx_checked(self.in_check())
    }

    /// `legal_ctx` when the caller already knows whether the side to move is in check (the
    /// search does: it saves one attack test per node).
    pub(crate) fn legal_ctx_checked(&self, in_check: bool) -> LegalCtx {
        let ksq = self.kings[self.side.index()];
        let mut ctx = LegalCtx {
            ksq,
            in_check,
            pins: false,
            pinned: 0,
            checkers: 0,
            answers: 0,
            danger: !0,
            evasion: Evasion::ALL,
        };
        let t = &self.v.t;
        if ksq == NO_SQUARE {
            return ctx;
        }
        if !t.simple {
            let them = self.side.index() ^ 1;
            if in_check {
                ctx.evasion = self.evasion_of(ksq, &ctx);
            } else {
                ctx.danger = self.danger_lines(ksq, them);
            }
            return ctx;
        }
        ctx.pins = true;
        let us = self.side.index();
        let occ = self.occ[0] | self.occ[1];
        let mut dirs = t.slide_dirs[us ^ 1];
        while dirs != 0 {
            // A slider moving along `d` toward the king stands the other way from it.
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let back = OPPOSITE[d];
            if t.rays.ray[back][ksq.bit() as usize] & self.occ[us ^ 1] == 0 {
                // No enemy piece on the line: neither a pin nor a check.
                continue;
            }
            let Some(first) = t.rays.first(back, ksq, occ) else {
                continue;
            };
            let slides = |s: Square| {
                let c = self.board[s.index()];
                code_color(c) != us && (t.slide_attack[c as usize] >> d) & 1 != 0
            };
            if self.occ[us] & bb(first) != 0 {
                if let Some(second) = t.rays.first(back, first, occ) {
                    if slides(second) {
                        ctx.pinned |= bb(first);
                    }
                }
            } else if in_check && slides(first) {
                ctx.checkers |= bb(first);
                ctx.answers |= t.rays.between(ksq, first) | bb(first);
            }
        }
        if in_check {
            let target = ksq.bit() as usize;
            for &code in &t.step_codes[us ^ 1] {
                let hit = t.step_from[code as usize][target] & self.bb[code as usize];
                ctx.checkers |= hit;
                ctx.answers |= hit;
            }
            ctx.evasion = self.evasion_of(ksq, &ctx);
        }
        ctx
    }

    /// The squares a move must leave or reach to possibly expose the king on `ksq` to `them`
    /// (see `LegalCtx::danger`), when the king is not in check: `exposure` with the king's own
    /// side moving.
    fn danger_lines(&self, ksq: Square, them: usize) -> Bitboard {
        self.exposure(ksq, them, them ^ 1)
    }

    /// The squares a move of `movers` must leave or reach to possibly open an attack of
    /// `them` on the king on `ksq` (not attacked now). With the king's side moving, the moves
    /// that may expose it (`danger_lines`); with `them` moving, the moves that may give a
    /// discovered check (`may_give_check`). "Our piece" below is a piece of `movers`:
    /// - a line from the king on which an enemy cannon attacks along it: the squares between
    ///   them when at most two pieces stand there (one move cannot bring more down to the one
    ///   screen a cannon needs); the whole line for a jumping cannon;
    /// - a line on which only enemy sliders attack along it: just our piece that stands alone
    ///   between the king and the first of them (a pin, perhaps: walled queens are counted as
    ///   free ones, and the trial move settles it);
    /// - the flying king: our piece alone between the two kings on a file;
    /// - nothing for blockable leaps: the one that attacks, Shanghai's Xiangqi elephant, never
    ///   crosses the river, and the king never leaves its palace, so it never reaches a king;
    /// - Palace Shogi's palace centre, when an enemy dragon or cannon stands across it from the
    ///   king (`palace::special_attack`); the footsoldiers' corridor steps cannot be opened.
    pub(crate) fn exposure(&self, ksq: Square, them: usize, movers: usize) -> Bitboard {
        let t = &self.v.t;
        let b = &self.board;
        let k = ksq.bit() as usize;
        let occ = self.occ[0] | self.occ[1];
        let ours = self.occ[movers];
        let mut danger = 0;
        let mut dirs =
            t.slide_dirs[them] | t.range_dirs[them] | t.hop_dirs[them] | t.jump_dirs[them];
        while dirs != 0 {
            // An attacker moving along `d` stands on the ray from the king the other way.
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let back = OPPOSITE[d];
            let ray = t.rays.ray[back][k];
            let mut on_ray = self.occ[them] & ray;
            let mut slider = false;
            while on_ray != 0 {
                let s = pop(&mut on_ray);
                let c = b[s.index()] as usize;
                if (t.jump_attack[c] >> d) & 1 != 0 {
                    danger |= ray;
                    slider = false;
                    break;
                }
                if ((t.range_attack[c] | t.hop_attack[c]) >> d) & 1 != 0 {
                    // A cannon attacks over one screen at least, and a move adds or takes away
                    // at most one piece between, or replaces one (a screen it may not hop
                    // over by one it may): three or more between cannot come down to one.
                    let between = ray & !t.rays.ray[back][s.bit() as usize] & !bb(s);
                    if (between & occ).count_ones() <= 2 {
                        danger |= between;
                    }
                }
                slider |= (t.slide_attack[c] >> d) & 1 != 0;
            }
            if !slider {
                continue;
            }
            let Some(first) = t.rays.first(back, ksq, occ) else {
                continue;
            };
            if ours & bb(first) == 0 {
                continue;
            }
            if let Some(second) = t.rays.first(back, first, occ) {
                let c = b[second.index()];
                if code_color(c) == them && (t.slide_attack[c as usize] >> d) & 1 != 0 {
                    danger |= bb(first);
                }
            }
        }
        if t.flying_king {
            let theirs = self.kings[them];
            if theirs != NO_SQUARE && theirs.col() == ksq.col() {
                let between = t.rays.between(ksq, theirs) & occ;
                if between != 0 && between & (between - 1) == 0 {
                    danger |= between & ours;
                }
            }
        }
        if let Some(geo) = &t.palace {
            let centre = geo.centre[them ^ 1];
            if geo.enemy_corridor(them, ksq) && centre != ksq {
                let opp = Square((2 * centre.index() - ksq.index()) as u8);
                let dragon = Piece::new(PieceKind::PalaceDragon, Color::ALL[them]).code();
                let cannon = Piece::new(PieceKind::PalaceCannon, Color::ALL[them]).code();
                if b[opp.index()] == dragon || b[opp.index()] == cannon {
                    danger |= bb(centre);
                }
            }
        }
        danger
    }

    /// Legality by pins and checkers (see `LegalCtx::pins`) of a move from `from` (not the
    /// king) to `to`, or of a drop (`from` = `NO_SQUARE`).
    #[inline(always)]
    fn legal_by_pins(&self, from: Square, to: Square, ctx: &LegalCtx) -> bool {
        // Two checkers need a king move; one needs its capture or a block.
        if ctx.checkers != 0
            && (ctx.checkers & (ctx.checkers - 1) != 0 || ctx.answers & bb(to) == 0)
        {
            return false;
        }
        if from == NO_SQUARE || ctx.pinned == 0 || ctx.pinned & bb(from) == 0 {
            return true;
        }
        // A pinned piece stays on the line through its king.
        let rays = &self.v.t.rays.ray;
        let k = ctx.ksq.bit() as usize;
        (0..8).any(|d| rays[d][k] & bb(from) != 0 && rays[d][k] & bb(to) != 0)
    }

    /// Whether a pseudo-legal move is legal: it does not leave the mover's king attacked, and it
    /// is not a forbidden pawn-drop mate. The common case (a board move of another piece than
    /// the king, settled by pins or squares of danger) is inlined; the rest is `legal_slow`.
    #[inline(always)]
    pub(crate) fn is_legal(&mut self, m: Move, ctx: &LegalCtx) -> bool {
        if let Move::Board { from, to, .. } = m {
            if from != ctx.ksq {
                if ctx.pins {
                    return self.legal_by_pins(from, to, ctx);
                }
                if !ctx.in_check && (ctx.danger == 0 || (bb(from) | bb(to)) & ctx.danger == 0) {
                    // No square of danger is touched: the king stays as safe as it is.
                    return true;
                }
            }
        }
        self.legal_slow(m, ctx)
    }

    /// `is_legal` for the moves its inlined part does not settle.
    #[inline(never)]
    fn legal_slow(&mut self, m: Move, ctx: &LegalCtx) -> bool {
        if ctx.ksq == NO_SQUARE {
            return true;
        }
        match m {
            Move::Board { from, to, promote } => {
                if ctx.pins && from != ctx.ksq {
                    return self.legal_by_pins(from, to, ctx);
                }
                if !ctx.in_check && from != ctx.ksq && (bb(from) | bb(to)) & ctx.danger == 0 {
                    // No square of danger is touched: the king stays as safe as it is.
                    return true;
                }
                if from == ctx.ksq && self.v.t.palace.is_none() {
                    // A king move: the attacks on `to` as if the king had left `from`.
                    let occ = (self.occ[0] | self.occ[1]) & !bb(from);
                    return !self.attacked_in(to, !self.side, occ);
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
                if ctx.pins {
                    if !self.legal_by_pins(NO_SQUARE, to, ctx) {
                        return false;
                    }
                } else {
                    let may_expose = ctx.danger & bb(to) != 0;
                    if (ctx.in_check || may_expose)
                        && !self.safe_after(NO_SQUARE, to, ctx.ksq, code)
                    {
                        return false;
                    }
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
            self.lift(from, moving);
        }
        if captured != EMPTY {
            self.lift(to, captured);
        }
        self.place(to, result);
        let safe = !self.attacked(king, !us);
        self.lift(to, result);
        if captured != EMPTY {
            self.place(to, captured);
        }
        if from != NO_SQUARE {
            self.place(from, moving);
        }
        safe
    }

    /// Takes `code` off `sq` for a trial: board and sets only (no hash, counts or king).
    #[inline(always)]
    fn lift(&mut self, sq: Square, code: u8) {
        self.board[sq.index()] = EMPTY;
        self.occ[code_color(code)] &= !bb(sq);
        self.bb[code as usize] &= !bb(sq);
    }

    /// Puts `code` on `sq` for a trial (see `lift`).
    #[inline(always)]
    fn place(&mut self, sq: Square, code: u8) {
        self.board[sq.index()] = code;
        self.occ[code_color(code)] |= bb(sq);
        self.bb[code as usize] |= bb(sq);
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
        let ctx = self.legal_ctx();
        self.candidate_moves(&mut buf, &ctx);
        buf.into_iter().any(|m| self.is_legal(m, &ctx))
    }

    /// Every legal move, in generation order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut p = self.clone();
        let mut buf = Vec::with_capacity(128);
        let ctx = p.legal_ctx();
        p.candidate_moves(&mut buf, &ctx);
        buf.retain(|&m| p.is_legal(m, &ctx));
        buf
    }

    /// Number of legal moves.
    pub fn count_legal(&mut self, buf: &mut Vec<Move>) -> u64 {
        buf.clear();
        let ctx = self.legal_ctx();
        self.candidate_moves(buf, &ctx);
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
    let ctx = pos.legal_ctx();
    pos.candidate_moves(buf, &ctx);
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
        self.moves_of(from, &mut out);
        out
    }

    /// Appends the pseudo-legal moves of the piece on `from` (none if it is not the side to
    /// move's).
    fn moves_of(&self, from: Square, out: &mut Vec<Move>) {
        let code = self.board[from.index()];
        if !is_piece(code) || code_color(code) != self.side.index() {
            return;
        }
        let t = &self.v.t;
        let unique_present =
            !self.v.spec.promotion.unique.is_empty() && self.unique_present(self.side);
        let special = t.special[code as usize];
        if special != Special::Replace {
            self.push_targets(out, from, code, self.targets(from, code), unique_present);
        }
        if special != Special::None {
            self.extra_moves(from, code, unique_present, out);
        }
    }
}

/// Which moves `Position::generate` appends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Gen {
    All,
    Captures,
    Quiets,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, VariantId};

    /// Along seeded random games of every variant: the captures and the quiet moves together
    /// are the pseudo-legal moves, each once; every pseudo-legal move passes
    /// `is_pseudo_legal`, and the moves of the previous position that are not moves here fail
    /// it.
    #[test]
    fn staged_generation_splits_the_moves_and_checks_hash_moves() {
        for &id in VariantId::ALL {
            for seed in 0..6u64 {
                let mut g = Game::new(Position::start(id));
                let mut previous: Vec<Move> = Vec::new();
                let mut scratch = Vec::new();
                for ply in 0..120u64 {
                    let pos = g.position().clone();
                    let mut all = Vec::new();
                    pos.pseudo_moves(&mut all);
                    let mut split = Vec::new();
                    pos.pseudo_captures(&mut split);
                    let captures = split.len();
                    assert!(split.iter().all(|&m| pos.captures(m)), "{id:?} {pos:?}");
                    pos.pseudo_quiets(&mut split);
                    assert!(split[captures..].iter().all(|&m| !pos.captures(m)));
                    all.sort();
                    split.sort();
                    assert_eq!(all, split, "{id:?} {pos:?}");
                    for &m in &all {
                        assert!(pos.is_pseudo_legal(m, &mut scratch), "{id:?} {pos:?} {m:?}");
                    }
                    for &m in previous.iter().filter(|m| all.binary_search(m).is_err()) {
                        assert!(
                            !pos.is_pseudo_legal(m, &mut scratch),
                            "{id:?} {pos:?} {m:?}"
                        );
                    }
                    previous = all;
                    let legal = g.legal_moves();
                    if legal.is_empty() || g.outcome().is_some() {
                        break;
                    }
                    let k = ((seed + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ply << 17)
                        .wrapping_mul(0xBF58_476D_1CE4_E5B9)
                        >> 33;
                    let k = k as usize;
                    if g.play(legal[k % legal.len()]).is_err() {
                        break;
                    }
                }
            }
        }
    }

    /// Along seeded random games of every variant, biased toward captures and checks (so
    /// pins, cannon screens, horse legs and facing kings come up): `is_legal`, with its
    /// shortcuts (pins and checkers, lines of danger), says of every pseudo-legal move what
    /// making it and testing the king says. Pawn drops may also be refused for mating. The
    /// test also proves it met pinned pieces: moves refused when not in check.
    #[test]
    fn legality_shortcuts_agree_with_the_trial_move() {
        let mut narrowed = [0usize; 5];
        for &id in VariantId::ALL {
            let mut pinned_refusals = 0;
            for seed in 0..40u64 {
                let mut pos = Position::start(id);
                let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                let mut next = |n: usize| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    (rng >> 11) as usize % n
                };
                for _ply in 0..160 {
                    let us = pos.side;
                    let ctx = pos.legal_ctx();
                    assert_eq!(ctx.in_check, pos.in_check(), "{id:?} {pos:?}");
                    let mut moves = Vec::new();
                    pos.pseudo_moves(&mut moves);
                    let mut legal = Vec::new();
                    for &m in &moves {
                        if matches!(m, Move::Castle { .. }) {
                            continue;
                        }
                        let fast = pos.is_legal(m, &ctx);
                        let u = pos.make(m);
                        let safe = !pos.is_in_check(us);
                        pos.unmake(m, u);
                        let pawn_drop = matches!(m, Move::Drop { kind, .. }
                            if Some(kind) == pos.v.spec.drops.pawn);
                        if pawn_drop {
                            assert!(!fast || safe, "{id:?} {pos:?} {m:?}");
                        } else {
                            assert_eq!(fast, safe, "{id:?} {pos:?} {m:?}");
                        }
                        if !safe && !ctx.in_check && m.from() != Some(ctx.ksq) {
                            pinned_refusals += 1;
                        }
                        if fast {
                            legal.push(m);
                        }
                    }
                    // In check, the moves generated against it (`candidate_moves`) are
                    // the pseudo-legal ones minus some illegal ones, never a legal one.
                    let mut candidates = Vec::new();
                    pos.candidate_moves(&mut candidates, &ctx);
                    assert!(
                        candidates.iter().all(|m| moves.contains(m)),
                        "{id:?} {pos:?}"
                    );
                    let kept: Vec<Move> = candidates
                        .iter()
                        .copied()
                        .filter(|&m| !matches!(m, Move::Castle { .. }) && pos.is_legal(m, &ctx))
                        .collect();
                    assert_eq!(kept, legal, "{id:?} {pos:?}");
                    if candidates.len() < moves.len() {
                        assert!(ctx.in_check, "{id:?} {pos:?}");
                        narrowed[id as usize] += 1;
                    }
                    if legal.is_empty() {
                        break;
                    }
                    let captures: Vec<Move> =
                        legal.iter().copied().filter(|&m| pos.captures(m)).collect();
                    let checks: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|&m| {
                            let u = pos.make(m);
                            let check = pos.in_check();
                            pos.unmake(m, u);
                            check
                        })
                        .collect();
                    let m = match next(4) {
                        0 | 1 if !captures.is_empty() => captures[next(captures.len())],
                        2 if !checks.is_empty() => checks[next(checks.len())],
                        _ => legal[next(legal.len())],
                    };
                    pos.make(m);
                }
            }
            assert!(
                pinned_refusals > 20,
                "{id:?}: {pinned_refusals} pinned moves met"
            );
        }
        // Every game met checks whose answers left moves out.
        for &id in VariantId::ALL {
            assert!(narrowed[id as usize] > 20, "{id:?}: {narrowed:?}");
        }
    }
}
