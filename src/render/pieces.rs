//! How pieces look. Shogi pieces are wedges pointing at the opponent (their size by rank, as in
//! a real set), with kanji or, in the international style, the variant's Latin letters;
//! promoted pieces are written in red, the Palace Shogi lion in gold. Xiangqi pieces are discs
//! with their character in the side's colour; Western pieces are chess figures filled with the
//! side's colour. Each piece is drawn once per size into a sprite and cached.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use image::{imageops, Rgba, RgbaImage};

use crate::engine::{Color, Family, Piece, PieceKind, Variant, VariantId};
use crate::render::raster::{self, Canvas};
use crate::render::theme::{self, Rgb3};
use crate::render::{text, PieceStyle};

/// How a piece is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Look {
    /// A shogi wedge pointing at the opponent.
    Wedge,
    /// A Xiangqi disc.
    Disc,
    /// A Western chess figure.
    Figure,
}

/// The look of a kind in a game: by its family, except that Shanghai Palace Chess draws its
/// visiting queen and its knight as Western figures (the same kinds are wedges in Palace Shogi).
pub fn look(id: VariantId, kind: PieceKind) -> Look {
    match kind.family() {
        Family::Xiangqi => Look::Disc,
        Family::Western => Look::Figure,
        Family::Shogi
            if id == VariantId::Shanghai
                && matches!(kind, PieceKind::Queen | PieceKind::ChessKnight) =>
        {
            Look::Figure
        }
        Family::Shogi => Look::Wedge,
    }
}

/// The two sides' colours where the game has coloured sides (Shanghai: Red and Blue).
pub fn side_colors(id: VariantId) -> Option<[Rgb3; 2]> {
    match id {
        VariantId::Shanghai => Some([theme::RED, theme::BLUE]),
        VariantId::Shogi | VariantId::Judkins | VariantId::Cannon | VariantId::Palace => None,
    }
}

/// What is written on a piece. In kanji: the catalogue's characters, except that the second
/// player's king is 王 (the first player's 玉), the second side's Xiangqi pieces carry their
/// traditional characters (將 士 象 砲 卒), and the 成 before a promoted cannon is left out (red
/// ink says it). In the international style: the variant's human letter (`P`, `+R`, `GC`).
pub fn label(v: &Variant, p: Piece, style: PieceStyle) -> String {
    use PieceKind::*;
    if style == PieceStyle::International {
        return match v.letter(p.kind) {
            Some(l) => l.human.to_string(),
            None => p.kind.name()[..1].to_ascii_uppercase(),
        };
    }
    let second = p.color == Color::White;
    let s = match p.kind {
        King if second => "王",
        XiangqiKing if second => "將",
        Guard if second => "士",
        XiangqiElephant if second => "象",
        XiangqiCannon if second => "砲",
        XiangqiPawn if second => "卒",
        k => k.kanji(),
    };
    let s = if s.chars().count() > 1 {
        s.strip_prefix('成').unwrap_or(s)
    } else {
        s
    };
    s.to_string()
}

/// The ink of a piece's characters (wedges): gold for the lion, red for a promoted piece.
pub fn ink(kind: PieceKind) -> Rgb3 {
    if kind == PieceKind::Lion {
        theme::GOLD
    } else if kind.is_promoted() {
        theme::PROMOTED
    } else {
        theme::INK
    }
}

/// Size of a wedge relative to the king's, by rank as in a real set.
fn wedge_scale(kind: PieceKind) -> f32 {
    use PieceKind::*;
    match kind {
        King => 1.0,
        Gold | Silver | PromotedSilver => 0.93,
        Knight | Lance | PromotedKnight | PromotedLance | ChessKnight | PalaceCannon => 0.9,
        Pawn | SidePawn | Tokin | Footsoldier | PalacePawn => 0.86,
        _ => 0.96,
    }
}

/// Everything that decides a piece's picture.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Face {
    pub look: Look,
    pub kind: PieceKind,
    pub color: Color,
    /// What is written on a wedge or a disc.
    pub label: String,
    pub style: PieceStyle,
    /// The ink of a wedge's characters.
    pub ink: Rgb3,
    /// The side's colour where sides have colours (a wedge's edge, a disc, a figure's fill).
    pub side: Option<Rgb3>,
}

impl Face {
    pub fn new(v: &Variant, piece: Piece, style: PieceStyle) -> Face {
        Face {
            look: look(v.id(), piece.kind),
            kind: piece.kind,
            color: piece.color,
            label: label(v, piece, style),
            style,
            ink: ink(piece.kind),
            side: side_colors(v.id()).map(|s| s[piece.color.index()]),
        }
    }
}

/// The sprite (size × size, transparent around the piece) of a piece. `up`: it points up the
/// image (the viewer's pieces).
pub(crate) fn sprite(
    v: &Variant,
    piece: Piece,
    up: bool,
    style: PieceStyle,
    size: u32,
) -> Arc<RgbaImage> {
    face_sprite(Face::new(v, piece, style), up, size)
}

pub(crate) fn face_sprite(face: Face, up: bool, size: u32) -> Arc<RgbaImage> {
    type Cache = Mutex<HashMap<(Face, bool, u32), Arc<RgbaImage>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (face, up, size);
    if let Some(s) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return s.clone();
    }
    let img = Arc::new(draw(&key.0, up, size));
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, img.clone());
    img
}

/// Draws a piece into a new sprite.
pub(crate) fn draw(face: &Face, up: bool, size: u32) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(size, size, Rgba([0, 0, 0, 0]));
    match face.look {
        Look::Wedge => draw_wedge(&mut img, face),
        Look::Disc => draw_disc(&mut img, face),
        Look::Figure => draw_figure(&mut img, face),
    }
    // Wedges point at the opponent; discs and figures stay upright.
    if !up && face.look == Look::Wedge {
        imageops::rotate180_in_place(&mut img);
    }
    img
}

/// Paints through another canvas at a fixed opacity (for shadows).
struct Faded<'a, C: Canvas>(&'a mut C, f32);

impl<C: Canvas> Canvas for Faded<'_, C> {
    fn size(&self) -> (u32, u32) {
        self.0.size()
    }
    fn paint(&mut self, x: i32, y: i32, color: Rgb3, a: f32) {
        self.0.paint(x, y, color, a * self.1);
    }
}

/// The wedge's outline: apex, shoulders, base corners.
fn wedge_points(size: f32, scale: f32) -> Vec<(f32, f32)> {
    let h = size * 0.9 * scale;
    let w = size * 0.8 * scale;
    let cx = size / 2.0;
    let bottom = size / 2.0 + h / 2.0;
    let top = bottom - h;
    vec![
        (cx, top),
        (cx + 0.37 * w, top + 0.2 * h),
        (cx + 0.5 * w, bottom),
        (cx - 0.5 * w, bottom),
        (cx - 0.37 * w, top + 0.2 * h),
    ]
}

fn draw_wedge(img: &mut RgbaImage, face: &Face) {
    let size = img.width() as f32;
    let scale = wedge_scale(face.kind);
    let pts = wedge_points(size, scale);
    let d = (size / 40.0).max(1.0);
    let shadow: Vec<(f32, f32)> = pts.iter().map(|&(x, y)| (x + d * 0.6, y + d)).collect();
    raster::fill_convex(&mut Faded(img, 0.35), &shadow, theme::SHADOW);
    raster::fill_convex(img, &pts, theme::WEDGE_FILL);
    // Coloured sides (Shanghai) show in the wedge's edge.
    let (edge, edge_w) = match face.side {
        Some(c) => (c, (size / 22.0).max(1.6)),
        None => (theme::WEDGE_EDGE, (size / 42.0).max(1.1)),
    };
    raster::stroke(img, &pts, true, edge_w, edge);

    let h = size * 0.9 * scale;
    let w = size * 0.8 * scale;
    let top = pts[0].1;
    let bottom = pts[2].1;
    let cx = size / 2.0;
    let (label, color, style) = (&face.label, face.ink, face.style);
    let font = text::pieces();
    let chars: Vec<char> = label.chars().collect();
    if style == PieceStyle::Kanji && chars.len() >= 2 {
        // Two characters stacked, as on real pieces.
        let (y0, y1) = (top + 0.19 * h, bottom - 0.03 * h);
        let cell = (y1 - y0) / 2.0;
        for (i, ch) in chars.iter().take(2).enumerate() {
            let s = ch.to_string();
            let px = text::fit(font, cell * 1.1, &s, w * 0.66, cell * 0.94);
            let cy = y0 + cell * (i as f32 + 0.5);
            text::draw_centered(img, font, px, (cx, cy), &s, color);
        }
    } else {
        let (y0, y1) = (top + 0.24 * h, bottom - 0.06 * h);
        let max_h = if style == PieceStyle::Kanji {
            0.56 * h
        } else {
            0.44 * h
        };
        let px = text::fit(font, h * 0.68, label, w * 0.74, max_h);
        let center = (cx, (y0 + y1) / 2.0);
        if color == theme::GOLD {
            // Gold on a pale wedge needs a dark edge to stand out.
            if let Some(o) = text::centered_origin(font, px, center, label) {
                let edge = (size / 64.0).max(0.8);
                text::draw_outlined(img, font, px, o, label, color, theme::WEDGE_EDGE, edge);
            }
        } else {
            text::draw_centered(img, font, px, center, label, color);
        }
    }
}

fn draw_disc(img: &mut RgbaImage, face: &Face) {
    let size = img.width() as f32;
    let c = (size / 2.0, size / 2.0);
    let r = size * 0.43;
    let side = face.side.unwrap_or(theme::INK);
    let d = (size / 40.0).max(1.0);
    raster::fill_circle(
        &mut Faded(img, 0.35),
        (c.0 + d * 0.6, c.1 + d),
        r,
        theme::SHADOW,
    );
    raster::fill_circle(img, c, r, theme::DISC_FILL);
    raster::stroke_circle(img, c, r - size / 48.0, (size / 24.0).max(1.5), side);
    raster::stroke_circle(img, c, r * 0.8, (size / 64.0).max(1.0), side);
    let font = text::pieces();
    let px = text::fit(font, r * 1.2, &face.label, r * 1.2, r * 1.15);
    text::draw_centered(img, font, px, c, &face.label, side);
}

/// The (solid) chess figure of a kind.
fn figure_char(kind: PieceKind) -> char {
    use PieceKind::*;
    match kind {
        Queen => '♛',
        WesternRook => '♜',
        WesternBishop => '♝',
        ChessKnight => '♞',
        WesternPawn => '♟',
        _ => '♚',
    }
}

fn draw_figure(img: &mut RgbaImage, face: &Face) {
    let size = img.width() as f32;
    let fill = match face.side {
        Some(s) => s,
        None if face.color == Color::Black => theme::INK,
        None => theme::DISC_FILL,
    };
    let font = text::figures();
    // The solid figure in the side's colour over a dark outline grown around it; the solid
    // glyph's inner lines show the outline colour through.
    let solid = figure_char(face.kind).to_string();
    let px = text::fit(font, size, &solid, size * 0.8, size * 0.82);
    let Some((x, y)) = text::centered_origin(font, px, (size / 2.0, size / 2.0), &solid) else {
        return;
    };
    let d = (size / 40.0).max(1.0);
    text::draw(
        &mut Faded(img, 0.3),
        font,
        px,
        (x + d * 0.8, y + d * 1.2),
        &solid,
        theme::SHADOW,
    );
    let edge = (size / 36.0).max(1.2);
    text::draw_outlined(
        img,
        font,
        px,
        (x, y),
        &solid,
        fill,
        theme::FIGURE_EDGE,
        edge,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::VariantId;

    fn count(img: &RgbaImage, c: Rgb3) -> usize {
        img.pixels()
            .filter(|p| p.0[3] == 255 && [p.0[0], p.0[1], p.0[2]] == c)
            .count()
    }

    fn face(look: Look, kind: PieceKind, color: Color, label: &str, side: Option<Rgb3>) -> Face {
        Face {
            look,
            kind,
            color,
            label: label.to_string(),
            style: PieceStyle::Kanji,
            ink: ink(kind),
            side,
        }
    }

    /// Shanghai's three families, as the renderer will draw them once the variant exists:
    /// discs and figures in the side's colour, wedges edged with it.
    fn shanghai_faces() -> Vec<Face> {
        use PieceKind::*;
        let mut out = Vec::new();
        for (color, side, xq) in [
            (Color::Black, theme::RED, ["帥", "仕", "相", "炮", "兵"]),
            (Color::White, theme::BLUE, ["將", "士", "象", "砲", "卒"]),
        ] {
            let kinds = [
                XiangqiKing,
                Guard,
                XiangqiElephant,
                XiangqiCannon,
                XiangqiPawn,
            ];
            for (k, l) in kinds.into_iter().zip(xq) {
                out.push(face(Look::Disc, k, color, l, Some(side)));
            }
            for k in [Queen, WesternRook, WesternBishop, ChessKnight, WesternPawn] {
                out.push(face(Look::Figure, k, color, "", Some(side)));
            }
            for (k, l) in [(Lance, "香"), (Rook, "飛"), (Tokin, "と"), (Horse, "馬")] {
                out.push(face(Look::Wedge, k, color, l, Some(side)));
            }
        }
        out
    }

    #[test]
    fn shanghai_families_are_drawn_in_their_sides_colours() {
        for f in shanghai_faces() {
            let img = draw(&f, true, 64);
            let side = f.side.unwrap();
            match f.look {
                Look::Disc => {
                    assert!(count(&img, theme::DISC_FILL) > 500, "{:?}", f.kind);
                    assert!(count(&img, side) > 150, "{:?} ring and character", f.kind);
                }
                Look::Figure => {
                    assert!(count(&img, side) > 150, "{:?} filled", f.kind);
                    assert!(
                        count(&img, theme::FIGURE_EDGE) > 40,
                        "{:?} outlined",
                        f.kind
                    );
                    assert_eq!(count(&img, theme::DISC_FILL), 0);
                }
                Look::Wedge => {
                    assert!(count(&img, theme::WEDGE_FILL) > 500, "{:?}", f.kind);
                    assert!(count(&img, side) > 60, "{:?} edge", f.kind);
                }
            }
        }
    }

    #[test]
    fn shanghai_draws_its_queen_and_knight_as_figures() {
        // The same kinds are wedges in Palace Shogi.
        for &id in VariantId::ALL {
            let want = if id == VariantId::Shanghai {
                Look::Figure
            } else {
                Look::Wedge
            };
            assert_eq!(look(id, PieceKind::Queen), want);
            assert_eq!(look(id, PieceKind::ChessKnight), want);
            assert_eq!(look(id, PieceKind::XiangqiKing), Look::Disc);
            assert_eq!(look(id, PieceKind::WesternRook), Look::Figure);
            assert_eq!(look(id, PieceKind::Lion), Look::Wedge);
        }
    }

    #[test]
    fn lion_is_gold_and_promoted_pieces_red() {
        assert_eq!(ink(PieceKind::Lion), theme::GOLD);
        assert_eq!(ink(PieceKind::Tokin), theme::PROMOTED);
        assert_eq!(ink(PieceKind::PalacePawn), theme::PROMOTED);
        assert_eq!(ink(PieceKind::Queen), theme::INK);
        let lion = face(Look::Wedge, PieceKind::Lion, Color::Black, "獅", None);
        assert!(count(&draw(&lion, true, 64), theme::GOLD) > 30);
    }

    /// With `TEGAMI_RENDER_SAMPLES=DIR`, writes a sheet of Shanghai's and Palace Shogi's pieces.
    #[test]
    fn sample_sheet() {
        let Some(dir) = std::env::var_os("TEGAMI_RENDER_SAMPLES") else {
            return;
        };
        use PieceKind::*;
        let mut faces = shanghai_faces();
        for (k, l) in [
            (Lion, "獅"),
            (Queen, "后"),
            (PalacePawn, "兵"),
            (Footsoldier, "卒"),
            (PalaceCannon, "砲"),
            (ChessKnight, "騎"),
            (Elephant, "象"),
            (PromotedSilver, "全"),
            (GoldCannon, "金砲"),
        ] {
            faces.push(face(Look::Wedge, k, Color::Black, l, None));
        }
        let size = 64;
        let per_row = 14;
        let rows = faces.len().div_ceil(per_row) as u32;
        let mut sheet = image::RgbImage::from_pixel(
            per_row as u32 * size,
            rows * size,
            image::Rgb(theme::WOOD),
        );
        for (i, f) in faces.iter().enumerate() {
            let s = draw(f, true, size);
            let (x, y) = ((i % per_row) as u32 * size, (i / per_row) as u32 * size);
            crate::render::raster::blit(&mut sheet, &s, x as i32, y as i32);
        }
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        sheet.save(dir.join("pieces-sheet.png")).unwrap();
    }
}
