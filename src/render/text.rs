//! Fonts and text. Two subset fonts are embedded (see `assets/fonts/`, with their licences and the
//! script that made them) and parsed once: Noto Serif CJK JP Bold for the characters on pieces,
//! coordinates, counts and names, and DejaVu Sans Bold for the Western chess figures.
//! A character the subset lacks is drawn as `?`.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont};

use crate::render::raster::Canvas;
use crate::render::theme::Rgb3;

static TEXT_FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSerifCJKjp-Bold-subset.otf");
static FIGURE_FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold-chess.ttf");

/// The font for characters and text.
pub fn text_font() -> &'static FontRef<'static> {
    static F: OnceLock<FontRef<'static>> = OnceLock::new();
    F.get_or_init(|| FontRef::try_from_slice(TEXT_FONT).expect("embedded text font parses"))
}

/// The font with the chess figures (U+2654..U+265F).
pub fn figure_font() -> &'static FontRef<'static> {
    static F: OnceLock<FontRef<'static>> = OnceLock::new();
    F.get_or_init(|| FontRef::try_from_slice(FIGURE_FONT).expect("embedded figure font parses"))
}

fn glyph(font: &FontRef<'static>, c: char) -> GlyphId {
    let id = font.glyph_id(c);
    if id.0 == 0 {
        font.glyph_id('?')
    } else {
        id
    }
}

/// Glyphs of a line of text with their pen positions (origin on the baseline at x = 0).
fn layout(font: &FontRef<'static>, px: f32, text: &str) -> (Vec<ab_glyph::Glyph>, f32) {
    let sf = font.as_scaled(PxScale::from(px));
    let mut x = 0.0;
    let mut prev: Option<GlyphId> = None;
    let mut out = Vec::with_capacity(text.len());
    for ch in text.chars() {
        let id = glyph(font, ch);
        if let Some(p) = prev {
            x += sf.kern(p, id);
        }
        out.push(id.with_scale_and_position(px, ab_glyph::point(x, 0.0)));
        x += sf.h_advance(id);
        prev = Some(id);
    }
    (out, x)
}

/// The advance width of a line of text.
pub fn width(font: &FontRef<'static>, px: f32, text: &str) -> f32 {
    layout(font, px, text).1
}

/// The text, cut with an ellipsis if need be to be at most `max_w` wide.
pub fn ellipsize(font: &FontRef<'static>, px: f32, text: &str, max_w: f32) -> String {
    if width(font, px, text) <= max_w {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let s: String = chars.iter().collect::<String>().trim_end().to_string() + "…";
        if width(font, px, &s) <= max_w {
            return s;
        }
    }
    "…".to_string()
}

/// The ink box `(x0, y0, x1, y1)` of a line drawn with its baseline origin at (0, 0).
pub fn ink_bounds(font: &FontRef<'static>, px: f32, text: &str) -> Option<(f32, f32, f32, f32)> {
    let (glyphs, _) = layout(font, px, text);
    glyphs
        .into_iter()
        .filter_map(|g| font.outline_glyph(g))
        .map(|o| {
            let b = o.px_bounds();
            (b.min.x, b.min.y, b.max.x, b.max.y)
        })
        .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)))
}

/// Draws a line of text with its baseline starting at `(x, baseline)`; returns its advance width.
pub fn draw(
    c: &mut impl Canvas,
    font: &FontRef<'static>,
    px: f32,
    (x, baseline): (f32, f32),
    text: &str,
    color: Rgb3,
) -> f32 {
    let (glyphs, w) = layout(font, px, text);
    for mut g in glyphs {
        g.position.x += x;
        g.position.y += baseline;
        if let Some(o) = font.outline_glyph(g) {
            let b = o.px_bounds();
            let (ox, oy) = (b.min.x as i32, b.min.y as i32);
            o.draw(|gx, gy, a| c.paint(ox + gx as i32, oy + gy as i32, color, a));
        }
    }
    w
}

/// Draws text with an outline `width` pixels wide around its shapes (drawn by stamping the text
/// in the edge colour around a circle, then the text itself on top).
#[allow(clippy::too_many_arguments)]
pub fn draw_outlined(
    c: &mut impl Canvas,
    font: &FontRef<'static>,
    px: f32,
    (x, baseline): (f32, f32),
    text: &str,
    fill: Rgb3,
    edge: Rgb3,
    width: f32,
) {
    let steps = 16;
    for i in 0..steps {
        let a = i as f32 * std::f32::consts::TAU / steps as f32;
        let (dx, dy) = (a.cos() * width, a.sin() * width);
        draw(c, font, px, (x + dx, baseline + dy), text, edge);
    }
    draw(c, font, px, (x, baseline), text, fill);
}

/// Where to put the baseline origin so that the text's ink box is centred on `(cx, cy)`.
pub fn centered_origin(
    font: &FontRef<'static>,
    px: f32,
    (cx, cy): (f32, f32),
    text: &str,
) -> Option<(f32, f32)> {
    let (x0, y0, x1, y1) = ink_bounds(font, px, text)?;
    Some((
        (cx - (x0 + x1) / 2.0).round(),
        (cy - (y0 + y1) / 2.0).round(),
    ))
}

/// Draws text with its ink box centred on `(cx, cy)`.
pub fn draw_centered(
    c: &mut impl Canvas,
    font: &FontRef<'static>,
    px: f32,
    (cx, cy): (f32, f32),
    text: &str,
    color: Rgb3,
) {
    if let Some((x0, y0, x1, y1)) = ink_bounds(font, px, text) {
        let x = cx - (x0 + x1) / 2.0;
        let y = cy - (y0 + y1) / 2.0;
        draw(c, font, px, (x.round(), y.round()), text, color);
    }
}

/// The largest size up to `px` at which the text's ink fits in `max_w` × `max_h`.
pub fn fit(font: &FontRef<'static>, px: f32, text: &str, max_w: f32, max_h: f32) -> f32 {
    match ink_bounds(font, px, text) {
        Some((x0, y0, x1, y1)) => {
            let k = (max_w / (x1 - x0).max(1.0)).min(max_h / (y1 - y0).max(1.0));
            if k < 1.0 {
                px * k
            } else {
                px
            }
        }
        None => px,
    }
}
