//! Piece-move diagrams for the rules help: one piece (and any others the picture needs, such
//! as a cannon's screens) on an empty board, with the squares it reaches marked.

use image::RgbImage;

use crate::engine::{Color, Piece, Square, Variant};
use crate::render::layout::Layout;
use crate::render::{
    board, encode_png, pieces, raster, theme, BoardStyle, PieceStyle, RenderError,
};

/// A piece-move diagram: one piece (and optionally others, such as a cannon's screens) on an
/// empty board, the squares it can reach marked. The engine decides the squares.
#[derive(Clone, Debug)]
pub struct Diagram<'a> {
    pub variant: &'static Variant,
    pub piece: Piece,
    pub at: Square,
    /// Squares the piece can reach: a dot on an empty square, corner marks on an occupied one.
    pub targets: &'a [Square],
    /// Other pieces on the board.
    pub others: &'a [(Square, Piece)],
    pub style: PieceStyle,
    /// The side at the bottom (by default the piece's owner).
    pub viewer: Color,
    pub square_px: Option<u32>,
    pub board_style: Option<BoardStyle>,
}

impl<'a> Diagram<'a> {
    pub fn new(
        variant: &'static Variant,
        piece: Piece,
        at: Square,
        targets: &'a [Square],
    ) -> Diagram<'a> {
        Diagram {
            variant,
            piece,
            at,
            targets,
            others: &[],
            style: PieceStyle::Kanji,
            viewer: piece.color,
            square_px: None,
            board_style: None,
        }
    }

    /// The diagram's layout (no player strips).
    pub fn layout(&self) -> Layout {
        Layout::new(self.variant, self.viewer, self.square_px, false)
    }
}

/// Draws a piece-move diagram.
pub fn render_diagram_image(d: &Diagram) -> RgbImage {
    let v = d.variant;
    let l = d.layout();
    let style = d
        .board_style
        .unwrap_or_else(|| BoardStyle::for_variant(v.id()));
    let bg = board::background(v, style, &l, d.style == PieceStyle::Kanji);
    let mut img = bg.base.clone();
    board::mark_square(&mut img, &bg, l.square_rect(d.at), theme::HIGHLIGHT);
    let sq = l.square_size();
    let pieces = d.others.iter().copied().chain([(d.at, d.piece)]);
    let occupied: Vec<Square> = pieces.clone().map(|(s, _)| s).collect();
    for (s, p) in pieces {
        let r = l.square_rect(s);
        let sprite = pieces::sprite(v, p, p.color == l.viewer(), d.style, sq);
        raster::blit(&mut img, &sprite, r.x, r.y);
    }
    let f = sq as f32;
    for &t in d.targets {
        let r = l.square_rect(t);
        let (cx, cy) = r.center();
        if occupied.contains(&t) {
            let (x0, y0) = (r.x as f32 + 1.0, r.y as f32 + 1.0);
            let (x1, y1) = (x0 + f - 1.0, y0 + f - 1.0);
            let k = f * 0.24;
            for (px, py, dx, dy) in [
                (x0, y0, 1.0, 1.0),
                (x1, y0, -1.0, 1.0),
                (x0, y1, 1.0, -1.0),
                (x1, y1, -1.0, -1.0),
            ] {
                let tri = [(px, py), (px + dx * k, py), (px, py + dy * k)];
                raster::fill_convex(&mut img, &tri, theme::TARGET);
            }
        } else {
            raster::fill_circle(&mut img, (cx + 0.5, cy + 0.5), f * 0.15, theme::TARGET);
        }
    }
    img
}

/// Draws a piece-move diagram as PNG bytes.
pub fn render_diagram(d: &Diagram) -> Result<Vec<u8>, RenderError> {
    encode_png(&render_diagram_image(d))
}
