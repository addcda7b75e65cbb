//! A position: board, hands, side to move and move number, with making and unmaking moves. The
//! attack test is in `attacks.rs`, move generation in `movegen.rs`, the start position and the
//! `Debug` form (the position string) in `notation/fen.rs`; the position knows nothing of
//! history (that is `Game`'s).

use crate::engine::color::Color;
use crate::engine::moves::{castle_lance, Move};
use crate::engine::piece::{code_color, is_piece, Piece, PieceKind, CODES, EMPTY, NUM_KINDS};
use crate::engine::square::{Square, CELLS};
use crate::engine::variant::{Variant, NOT_HELD};
use crate::engine::zobrist;

/// "No square" (a wall cell), used for a missing king.
pub(crate) const NO_SQUARE: Square = Square(0);

/// A position of one game.
#[derive(Clone)]
pub struct Position {
    pub(crate) v: &'static Variant,
    pub(crate) board: [u8; CELLS],
    pub(crate) hands: [[u8; NUM_KINDS]; 2],
    pub(crate) side: Color,
    pub(crate) ply: u32,
    pub(crate) kings: [Square; 2],
    pub(crate) occ: [u128; 2],
    /// The squares of each piece code (see `bitboard.rs`).
    pub(crate) bb: [u128; CODES],
    pub(crate) hash: u64,
    /// Number of pieces of each code on the board.
    pub(crate) counts: [u8; CODES],
    /// Palace Shogi castling rights: one bit per lance square (see `palace.rs`).
    pub(crate) castling: u8,
    /// Palace Shogi en-passant target square, or `NO_SQUARE`.
    pub(crate) ep: Square,
}

/// What `make` returns so that `unmake` can restore the position.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    /// The second capture of a lion double move.
    captured2: u8,
    moved: u8,
    hash: u64,
    castling: u8,
    ep: Square,
}

impl Undo {
    /// The code of the piece that moved (before any promotion), or `EMPTY` for a drop.
    #[inline]
    pub(crate) fn moved(&self) -> u8 {
        self.moved
    }

    /// The code of the piece captured (the first, for a lion's double capture), or `EMPTY`.
    #[inline]
    pub(crate) fn captured(&self) -> u8 {
        self.captured
    }
}

impl PartialEq for Position {
    fn eq(&self, o: &Position) -> bool {
        self.v.id() == o.v.id()
            && self.board == o.board
            && self.hands == o.hands
            && self.side == o.side
            && self.ply == o.ply
            && self.castling == o.castling
            && self.ep == o.ep
    }
}
impl Eq for Position {}

impl Position {
    /// An empty board of a variant, first player to move, move number 1.
    pub fn empty(v: &'static Variant) -> Position {
        Position {
            v,
            board: v.t.empty_board,
            hands: [[0; NUM_KINDS]; 2],
            side: Color::Black,
            ply: 0,
            kings: [NO_SQUARE; 2],
            occ: [0; 2],
            bb: [0; CODES],
            hash: 0,
            counts: [0; CODES],
            castling: 0,
            ep: NO_SQUARE,
        }
    }

    pub fn variant(&self) -> &'static Variant {
        self.v
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies played since move number 1.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The move number field of the position string (ply + 1).
    pub fn move_number(&self) -> u32 {
        self.ply + 1
    }

    /// A hash of board, hands and side to move (equal positions have equal hashes).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// How many pieces of a kind `c` holds in hand.
    pub fn hand(&self, c: Color, k: PieceKind) -> u8 {
        self.hands[c.index()][k.index()]
    }

    /// The square of `c`'s king.
    pub fn king(&self, c: Color) -> Option<Square> {
        let k = self.kings[c.index()];
        (k != NO_SQUARE).then_some(k)
    }

    /// Every piece on the board with its square, top row first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.v
            .squares()
            .iter()
            .filter_map(|&s| self.piece_at(s).map(|p| (s, p)))
    }

    pub(crate) fn set_side(&mut self, c: Color) {
        if c != self.side {
            self.hash ^= zobrist::SIDE;
            self.side = c;
        }
    }

    pub(crate) fn set_ply(&mut self, ply: u32) {
        self.ply = ply;
    }

    pub(crate) fn set_hand(&mut self, c: Color, k: PieceKind, n: u8) {
        let (ci, ki) = (c.index(), k.index());
        self.hash ^= zobrist::hand(ci, ki, self.hands[ci][ki]) ^ zobrist::hand(ci, ki, n);
        self.hands[ci][ki] = n;
    }

    /// Puts a piece code on an empty square.
    #[inline]
    pub(crate) fn put(&mut self, sq: Square, code: u8) {
        debug_assert_eq!(self.board[sq.index()], EMPTY);
        self.board[sq.index()] = code;
        self.counts[code as usize] += 1;
        let c = code_color(code);
        self.occ[c] |= 1u128 << sq.bit();
        self.bb[code as usize] |= 1u128 << sq.bit();
        self.hash ^= zobrist::BOARD[code as usize][sq.index()];
        if Piece::from_code(code).is_some_and(|p| p.kind.is_royal()) {
            self.kings[c] = sq;
        }
    }

    /// Removes the piece on a square and returns its code.
    #[inline]
    pub(crate) fn take(&mut self, sq: Square) -> u8 {
        let code = self.board[sq.index()];
        debug_assert!(is_piece(code));
        self.board[sq.index()] = EMPTY;
        self.counts[code as usize] -= 1;
        let c = code_color(code);
        self.occ[c] &= !(1u128 << sq.bit());
        self.bb[code as usize] &= !(1u128 << sq.bit());
        self.hash ^= zobrist::BOARD[code as usize][sq.index()];
        code
    }

    #[inline]
    fn hand_add(&mut self, c: usize, k: usize, by: i8) {
        let n = self.hands[c][k];
        let m = (n as i16 + by as i16) as u8;
        self.hash ^= zobrist::hand(c, k, n) ^ zobrist::hand(c, k, m);
        self.hands[c][k] = m;
    }

    /// Takes the piece on `sq` as a capture by `us`: it goes to `us`'s hand if it is held.
    #[inline]
    fn capture(&mut self, sq: Square, us: usize) -> u8 {
        let code = self.take(sq);
        let k = self.v.t.to_hand[((code - 2) >> 1) as usize];
        if k != NOT_HELD {
            self.hand_add(us, k as usize, 1);
        }
        code
    }

    /// Gives back a capture taken by `capture`.
    #[inline]
    fn uncapture(&mut self, sq: Square, code: u8, us: usize) {
        let k = self.v.t.to_hand[((code - 2) >> 1) as usize];
        if k != NOT_HELD {
            self.hand_add(us, k as usize, -1);
        }
        self.put(sq, code);
    }

    pub(crate) fn set_castling(&mut self, mask: u8) {
        self.hash ^= zobrist::CASTLING[self.castling as usize] ^ zobrist::CASTLING[mask as usize];
        self.castling = mask;
    }

    pub(crate) fn set_ep(&mut self, sq: Square) {
        self.hash ^= zobrist::EN_PASSANT[self.ep.index()] ^ zobrist::EN_PASSANT[sq.index()];
        self.ep = sq;
    }

    /// Castling rights as a bit mask (Palace Shogi).
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The en-passant target square (Palace Shogi).
    pub fn en_passant(&self) -> Option<Square> {
        (self.ep != NO_SQUARE).then_some(self.ep)
    }

    /// Plays a move without checking it. The move must be pseudo-legal in this position.
    pub fn make(&mut self, m: Move) -> Undo {
        let us = self.side.index();
        let t = &self.v.t;
        let mut u = Undo {
            captured: EMPTY,
            captured2: EMPTY,
            moved: EMPTY,
            hash: self.hash,
            castling: self.castling,
            ep: self.ep,
        };
        let mut new_ep = NO_SQUARE;
        match m {
            Move::Board { from, to, promote } => {
                if from != to {
                    let mut code = self.take(from);
                    u.moved = code;
                    if is_piece(self.board[to.index()]) {
                        u.captured = self.capture(to, us);
                    }
                    if promote {
                        code = t.promote[code as usize];
                    } else if t.transform[code as usize] != 0 && t.far_row[us][to.index()] == 0 {
                        code = t.transform[code as usize];
                    }
                    self.put(to, code);
                    if t.double_step[u.moved as usize] {
                        new_ep = self.ep_after_double_step(from, to, u.moved);
                    }
                }
                if self.castling != 0 {
                    let keep = t.castling_keep[from.index()] & t.castling_keep[to.index()];
                    self.set_castling(self.castling & keep);
                }
            }
            Move::Drop { kind, to } => {
                self.hand_add(us, kind.index(), -1);
                self.put(to, Piece::new(kind, self.side).code());
                if self.castling != 0 {
                    self.set_castling(self.castling & t.castling_keep[to.index()]);
                }
            }
            Move::Lion { from, via, to } => {
                let code = self.take(from);
                u.moved = code;
                u.captured = self.capture(via, us);
                if to != from && is_piece(self.board[to.index()]) {
                    u.captured2 = self.capture(to, us);
                }
                self.put(to, code);
                if self.castling != 0 {
                    let keep = t.castling_keep[via.index()] & t.castling_keep[to.index()];
                    self.set_castling(self.castling & keep);
                }
            }
            Move::Castle { from, to } => {
                let (lance_from, lance_to) = castle_lance(from, to);
                let k = self.take(from);
                u.moved = k;
                self.put(to, k);
                let l = self.take(lance_from);
                self.put(lance_to, l);
                let keep = t.castling_keep[from.index()];
                self.set_castling(self.castling & keep);
            }
            Move::EnPassant { from, to } => {
                let code = self.take(from);
                u.moved = code;
                u.captured = self.capture(Square::new(to.col(), from.row()), us);
                self.put(to, code);
            }
            Move::PromoteTo { from, to, kind } => {
                u.moved = self.take(from);
                if is_piece(self.board[to.index()]) {
                    u.captured = self.capture(to, us);
                }
                self.put(to, Piece::new(kind, self.side).code());
            }
        }
        if new_ep != self.ep {
            self.set_ep(new_ep);
        }
        self.side = !self.side;
        self.hash ^= zobrist::SIDE;
        self.ply += 1;
        u
    }

    /// Takes back `m`, which must be the last move made, with the `Undo` it returned.
    pub fn unmake(&mut self, m: Move, u: Undo) {
        self.side = !self.side;
        self.ply -= 1;
        let us = self.side.index();
        match m {
            Move::Board { from, to, .. } => {
                if from != to {
                    self.take(to);
                    self.put(from, u.moved);
                    if u.captured != EMPTY {
                        self.uncapture(to, u.captured, us);
                    }
                }
            }
            Move::Drop { kind, to } => {
                self.take(to);
                self.hand_add(us, kind.index(), 1);
            }
            Move::Lion { from, via, to } => {
                self.take(to);
                if u.captured2 != EMPTY {
                    self.uncapture(to, u.captured2, us);
                }
                self.uncapture(via, u.captured, us);
                self.put(from, u.moved);
            }
            Move::Castle { from, to } => {
                let (lance_from, lance_to) = castle_lance(from, to);
                let l = self.take(lance_to);
                self.put(lance_from, l);
                self.take(to);
                self.put(from, u.moved);
            }
            Move::EnPassant { from, to } => {
                self.take(to);
                self.put(from, u.moved);
                self.uncapture(Square::new(to.col(), from.row()), u.captured, us);
            }
            Move::PromoteTo { from, to, .. } => {
                self.take(to);
                self.put(from, u.moved);
                if u.captured != EMPTY {
                    self.uncapture(to, u.captured, us);
                }
            }
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.hash = u.hash;
    }

    /// After a pawn's double step from `from` to `to`: the square it passed over if an enemy pawn
    /// of the same kind stands ready to take it en passant (beside `to`), otherwise none.
    fn ep_after_double_step(&self, from: Square, to: Square, pawn: u8) -> Square {
        let (fr, tr) = (from.row() as i32, to.row() as i32);
        if (fr - tr).abs() != 2 || from.col() != to.col() {
            return NO_SQUARE;
        }
        let enemy_pawn = pawn ^ 1;
        let ready = [-1i16, 1]
            .iter()
            .any(|&dx| self.board[to.offset(dx).index()] == enemy_pawn);
        if ready {
            Square::new(to.col(), ((fr + tr) / 2) as u8)
        } else {
            NO_SQUARE
        }
    }
}
