//! Teaching pictures for the rules pages: a position with a game's zones (promotion zones,
//! palaces, the river) outlined in colours and named in a legend under the board, and a sheet
//! of piece-move diagrams, each with its piece's name. The caller (the core) decides which
//! squares form a zone and what it is called; this module only draws.

use image::{Rgb, RgbImage};

use crate::engine::{Piece, Position, Square};
use crate::render::raster;
use crate::render::{layout, render_diagram_image, render_image, text, theme, Diagram};
use crate::render::{Rect, RenderOptions};

/// A zone to outline: its squares and its name in the legend.
#[derive(Clone, Debug)]
pub struct ZoneMark {
    pub squares: Vec<Square>,
    pub label: String,
}

/// The outline colours, in the order zones are given (distinct from the board's own colours).
pub const ZONE_COLORS: [theme::Rgb3; 5] = [
    [0xd9, 0x3f, 0x0b], // orange: the first player's zone
    [0x5b, 0x2c, 0x9f], // violet: the second player's
    [0x0f, 0x7c, 0x6b], // teal
    [0xc2, 0x18, 0x7a], // magenta
    [0x1f, 0x4f, 0xc2], // blue
];

/// Draws `pos` as [`render_image`] does, each zone outlined inside its border (zones that
/// overlap are drawn a little further in, one inside the other), and under the image a legend:
/// a swatch of each zone's colour and its name.
pub fn render_zones(pos: &Position, opts: &RenderOptions, zones: &[ZoneMark]) -> RgbImage {
    let board = render_image(pos, opts);
    let l = layout(pos.variant(), opts);
    let sq = l.square_size() as i32;
    let px = (sq as f32 * 0.36).clamp(13.0, 20.0);
    let row = (px * 1.6).round() as u32;
    let pad = 8u32;
    let (w, h) = board.dimensions();
    let mut img = RgbImage::from_pixel(
        w,
        h + pad * 2 + row * zones.len() as u32,
        Rgb(theme::BACKGROUND),
    );
    image::imageops::replace(&mut img, &board, 0, 0);
    for (i, z) in zones.iter().enumerate() {
        let color = ZONE_COLORS[i % ZONE_COLORS.len()];
        let inset = 2 + 4 * i as i32;
        let cells: Vec<Rect> = z.squares.iter().map(|&s| l.square_rect(s)).collect();
        let inside = |x: i32, y: i32| cells.iter().any(|r| r.x == x && r.y == y);
        let t = 3;
        for r in &cells {
            let (x0, y0, x1, y1) = (r.x, r.y, r.x + sq, r.y + sq);
            // Each side of the square that is the zone's border, drawn `inset` pixels inside.
            if !inside(r.x, r.y - sq) {
                bar(&mut img, x0, y0 + inset, sq, t, color);
            }
            if !inside(r.x, r.y + sq) {
                bar(&mut img, x0, y1 - inset - t, sq, t, color);
            }
            if !inside(r.x - sq, r.y) {
                bar(&mut img, x0 + inset, y0, t, sq, color);
            }
            if !inside(r.x + sq, r.y) {
                bar(&mut img, x1 - inset - t, y0, t, sq, color);
            }
        }
        let y = (h + pad + row * i as u32) as i32;
        let sw = (row as f32 * 0.7) as u32;
        let x = l.board_rect().x;
        raster::fill_rect(&mut img, Rect::new(x, y, sw, sw), color);
        let baseline = y as f32 + sw as f32 * 0.85;
        // A long name is drawn smaller, to fit the width of the picture.
        let room = w as f32 - (x + sw as i32 + 8) as f32 - 6.0;
        let px = text::fit(text::ui(), px, &z.label, room, row as f32);
        text::draw(
            &mut img,
            text::ui(),
            px,
            ((x + sw as i32 + 8) as f32, baseline),
            &z.label,
            theme::TEXT,
        );
    }
    img
}

/// A filled rectangle `w` × `h` at `(x, y)`, clipped to the image.
fn bar(img: &mut RgbImage, x: i32, y: i32, w: i32, h: i32, color: theme::Rgb3) {
    if w > 0 && h > 0 {
        raster::fill_rect(img, Rect::new(x, y, w as u32, h as u32), color);
    }
}

/// One cell of a pieces sheet: a piece at a square, the squares it reaches, others on the
/// board (a cannon's screens), and the caption under it (its name and letter).
pub struct SheetCell<'a> {
    pub diagram: Diagram<'a>,
    pub caption: String,
}

/// The pieces of a game on one sheet: each piece's move diagram, small, with its caption under
/// it, `columns` to a row.
pub fn render_sheet(cells: &[SheetCell], columns: usize) -> RgbImage {
    let columns = columns.max(1);
    let images: Vec<RgbImage> = cells
        .iter()
        .map(|c| render_diagram_image(&c.diagram))
        .collect();
    let (cw, ch) = images
        .iter()
        .fold((1, 1), |(w, h), i| (w.max(i.width()), h.max(i.height())));
    let px = 15.0;
    let caption = 24u32;
    let rows = images.len().div_ceil(columns) as u32;
    let (gap, cols) = (6u32, columns.min(images.len().max(1)) as u32);
    let mut img = RgbImage::from_pixel(
        cols * (cw + gap) + gap,
        rows * (ch + caption + gap) + gap,
        Rgb(theme::BACKGROUND),
    );
    for (i, (pic, cell)) in images.iter().zip(cells).enumerate() {
        let (cx, cy) = ((i % columns) as u32, (i / columns) as u32);
        let x = gap + cx * (cw + gap);
        let y = gap + cy * (ch + caption + gap);
        image::imageops::replace(&mut img, pic, i64::from(x), i64::from(y));
        let label = text::ellipsize(text::ui(), px, &cell.caption, cw as f32);
        text::draw_centered(
            &mut img,
            text::ui(),
            px,
            (
                x as f32 + cw as f32 / 2.0,
                (y + ch) as f32 + caption as f32 / 2.0,
            ),
            &label,
            theme::TEXT,
        );
    }
    img
}

/// A piece's diagram cell with the engine's squares (as `rules GAME PIECE` draws it).
pub fn sheet_cell<'a>(
    v: &'static crate::engine::Variant,
    piece: Piece,
    at: Square,
    targets: &'a [Square],
    others: &'a [(Square, Piece)],
    style: crate::render::PieceStyle,
    caption: String,
) -> SheetCell<'a> {
    let mut d = Diagram::new(v, piece, at, targets);
    d.others = others;
    d.style = style;
    d.square_px = Some(26);
    SheetCell {
        diagram: d,
        caption,
    }
}
