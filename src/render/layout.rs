//! Where everything goes in a board image: the board turned to the viewer, the coordinate bands
//! around it, and one strip per player (name, whose turn, pieces in hand) above and below it,
//! the viewer's below. Public so that callers and tests can find a square's pixels.

use crate::engine::{Color, PieceKind, Square, Variant};

/// A rectangle of pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: u32,
    pub h: u32,
}

impl Rect {
    pub const fn new(x: i32, y: i32, w: u32, h: u32) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.w as i32 && y < self.y + self.h as i32
    }

    /// The centre, in pixel coordinates.
    pub fn center(&self) -> (f32, f32) {
        (
            self.x as f32 + self.w as f32 / 2.0,
            self.y as f32 + self.h as f32 / 2.0,
        )
    }

    /// The rectangle shrunk by `d` pixels on every side.
    pub fn inset(&self, d: i32) -> Rect {
        Rect {
            x: self.x + d,
            y: self.y + d,
            w: (self.w as i32 - 2 * d).max(0) as u32,
            h: (self.h as i32 - 2 * d).max(0) as u32,
        }
    }
}

/// A kind in a hand, where it is drawn and where its count badge is (shown from two on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandSlot {
    pub kind: PieceKind,
    pub count: u8,
    pub piece: Rect,
    pub badge: Option<Rect>,
}

/// The geometry of one image.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    files: u8,
    ranks: u8,
    viewer: Color,
    sq: u32,
    pad: u32,
    coord: u32,
    width: u32,
    height: u32,
    board: Rect,
    /// Per color: (name row, hand row).
    strips: Option<[(Rect, Rect); 2]>,
}

/// The default square size in pixels for a board of this many files/ranks: 64 for 9x9, larger
/// for smaller boards, so every image is about 600-900 px on its long side.
pub fn default_square(files: u8, ranks: u8) -> u32 {
    let n = files.max(ranks).max(1) as u32;
    (576 / n).clamp(40, 88)
}

impl Layout {
    /// The layout of a board of `v` seen by `viewer` (at the bottom). `strips` adds the
    /// players' strips (names and hands) above and below the board; a piece-move diagram has
    /// none. `square_px` overrides the square size.
    pub fn new(v: &Variant, viewer: Color, square_px: Option<u32>, strips: bool) -> Layout {
        let (files, ranks) = (v.files(), v.ranks());
        let sq = square_px
            .unwrap_or_else(|| default_square(files, ranks))
            .max(16);
        let s = sq as f32;
        let pad = (s * 0.14).round() as u32;
        let coord = (s * 0.36).round() as u32;
        let name_h = (s * 0.5).round() as u32;
        let hand_h = (s * 0.92).round() as u32;
        let strip_h = if strips { name_h + hand_h } else { 0 };
        let width = 2 * pad + 2 * coord + files as u32 * sq;
        let height = 2 * pad + 2 * coord + ranks as u32 * sq + 2 * strip_h;
        let board = Rect::new(
            (pad + coord) as i32,
            (pad + strip_h + coord) as i32,
            files as u32 * sq,
            ranks as u32 * sq,
        );
        let strips = strips.then(|| {
            let w = width - 2 * pad;
            let x = pad as i32;
            let top_name = Rect::new(x, pad as i32, w, name_h);
            let top_hand = Rect::new(x, (pad + name_h) as i32, w, hand_h);
            let by = board.y + board.h as i32 + coord as i32;
            let bottom_hand = Rect::new(x, by, w, hand_h);
            let bottom_name = Rect::new(x, by + hand_h as i32, w, name_h);
            let mut s = [(top_name, top_hand); 2];
            s[viewer.index()] = (bottom_name, bottom_hand);
            s
        });
        Layout {
            files,
            ranks,
            viewer,
            sq,
            pad,
            coord,
            width,
            height,
            board,
            strips,
        }
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// The side drawn at the bottom.
    pub fn viewer(&self) -> Color {
        self.viewer
    }

    /// Whether the board is turned (the second player at the bottom).
    pub fn flipped(&self) -> bool {
        self.viewer == Color::White
    }

    /// Side of a square in pixels.
    pub fn square_size(&self) -> u32 {
        self.sq
    }

    /// Width of the coordinate bands around the board.
    pub fn coord_band(&self) -> u32 {
        self.coord
    }

    /// Outer padding of the image.
    pub fn padding(&self) -> u32 {
        self.pad
    }

    /// The grid: all squares.
    pub fn board_rect(&self) -> Rect {
        self.board
    }

    /// Column and row on screen (0, 0 = top left) of a square.
    pub fn screen_cell(&self, sq: Square) -> (u8, u8) {
        if self.flipped() {
            (self.files - 1 - sq.col(), self.ranks - 1 - sq.row())
        } else {
            (sq.col(), sq.row())
        }
    }

    /// The square drawn at screen column `x` and row `y`.
    pub fn square_of_cell(&self, x: u8, y: u8) -> Square {
        if self.flipped() {
            Square::new(self.files - 1 - x, self.ranks - 1 - y)
        } else {
            Square::new(x, y)
        }
    }

    /// The pixels of a square. Its left and top pixel lines are grid lines; a flat mark (last
    /// move, check) fills the rest.
    pub fn square_rect(&self, sq: Square) -> Rect {
        let (x, y) = self.screen_cell(sq);
        Rect::new(
            self.board.x + (x as u32 * self.sq) as i32,
            self.board.y + (y as u32 * self.sq) as i32,
            self.sq,
            self.sq,
        )
    }

    /// A pixel of a square's own colour that no piece covers (left edge, halfway down): where
    /// to look for the last-move or check colour.
    pub fn mark_point(&self, sq: Square) -> (u32, u32) {
        let r = self.square_rect(sq);
        ((r.x + 3) as u32, (r.y + r.h as i32 / 2) as u32)
    }

    /// The square under a pixel, if any.
    pub fn square_at(&self, x: i32, y: i32) -> Option<Square> {
        if !self.board.contains(x, y) {
            return None;
        }
        let cx = ((x - self.board.x) as u32 / self.sq) as u8;
        let cy = ((y - self.board.y) as u32 / self.sq) as u8;
        Some(self.square_of_cell(cx, cy))
    }

    /// The row with a player's name and whose turn it is (none in a diagram).
    pub fn name_rect(&self, c: Color) -> Option<Rect> {
        self.strips.map(|s| s[c.index()].0)
    }

    /// The row with a player's pieces in hand (none in a diagram).
    pub fn hand_rect(&self, c: Color) -> Option<Rect> {
        self.strips.map(|s| s[c.index()].1)
    }

    /// Where each kind of a hand is drawn, in the order given. Kinds with a count of zero are
    /// skipped; counts from two on get a badge.
    pub fn hand_slots(&self, c: Color, hand: &[(PieceKind, u8)]) -> Vec<HandSlot> {
        let Some(r) = self.hand_rect(c) else {
            return Vec::new();
        };
        let kinds: Vec<(PieceKind, u8)> = hand.iter().copied().filter(|&(_, n)| n > 0).collect();
        let s = self.sq as f32;
        let hp = (s * 0.8).round() as u32;
        let y = r.y + (r.h as i32 - hp as i32) / 2;
        let x0 = r.x + self.coord as i32 / 2;
        let avail = r.w as i32 - self.coord as i32;
        let pref = hp as i32 + (s * 0.16).round() as i32;
        let adv = match kinds.len() {
            0 | 1 => pref,
            n => pref.min((avail - hp as i32) / (n as i32 - 1)),
        };
        let b = (s * 0.34).round() as u32;
        kinds
            .iter()
            .enumerate()
            .map(|(i, &(kind, count))| {
                let x = x0 + i as i32 * adv;
                let piece = Rect::new(x, y, hp, hp);
                let badge = (count >= 2)
                    .then(|| Rect::new(x + hp as i32 - b as i32 * 2 / 3, y - b as i32 / 5, b, b));
                HandSlot {
                    kind,
                    count,
                    piece,
                    badge,
                }
            })
            .collect()
    }
}
