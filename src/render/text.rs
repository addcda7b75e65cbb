//! Fonts and text. Three subset fonts are embedded (see `assets/fonts/`, with their licences,
//! sizes and the script that made them) and parsed once:
//!
//! - DejaVu Sans Bold, cut to the alphabets (Latin with Vietnamese, Greek, Cyrillic, Armenian,
//!   Georgian), punctuation, symbols and the Western chess figures;
//! - Noto Sans CJK JP Bold, cut to the East Asian characters of names: kana, the JIS level 1
//!   and 2 kanji, the GB 2312 simplified and Big5 level 1 traditional hanzi, all Hangul
//!   syllables;
//! - Noto Serif CJK JP Bold, cut to the characters on pieces, the coordinates and the
//!   international style's letters.
//!
//! Text is drawn through a [`Fonts`] chain: each character comes from the first font of the
//! chain that has it. Characters no font has are drawn as [`MISSING`] (one for a whole emoji
//! sequence or flag), and marks that only modify another character (variation selectors,
//! joiners, skin tones) are dropped, so a name never shows `?` or empty boxes.
//!
//! Glyphs are rasterised by imageproc's `draw_text_mut` into a coverage mask (one run of
//! characters per font), which `raster` paints onto the picture.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{GrayImage, Luma};
use imageproc::drawing::draw_text_mut;
use imageproc::morphology::{grayscale_dilate, Mask};

use crate::render::raster::{Canvas, Coverage};
use crate::render::theme::Rgb3;

static SANS_FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold-subset.ttf");
static CJK_FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSansCJKjp-Bold-names.otf");
static PIECE_FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSerifCJKjp-Bold-subset.otf");
const SANS: &str = "DejaVuSans-Bold-subset.ttf";
const CJK: &str = "NotoSansCJKjp-Bold-names.otf";
const PIECES: &str = "NotoSerifCJKjp-Bold-subset.otf";

/// What stands for a character no font has (an emoji, a script outside the subsets).
pub const MISSING: char = '◇';

/// A fallback chain of fonts, each with the scale that matches its letters to the first's.
pub struct Fonts {
    faces: Vec<(&'static FontRef<'static>, f32, &'static str)>,
}

fn parse(
    bytes: &'static [u8],
    cell: &'static OnceLock<FontRef<'static>>,
) -> &'static FontRef<'static> {
    cell.get_or_init(|| FontRef::try_from_slice(bytes).expect("embedded font parses"))
}

fn sans_face() -> &'static FontRef<'static> {
    static F: OnceLock<FontRef<'static>> = OnceLock::new();
    parse(SANS_FONT, &F)
}

fn cjk_face() -> &'static FontRef<'static> {
    static F: OnceLock<FontRef<'static>> = OnceLock::new();
    parse(CJK_FONT, &F)
}

fn piece_face() -> &'static FontRef<'static> {
    static F: OnceLock<FontRef<'static>> = OnceLock::new();
    parse(PIECE_FONT, &F)
}

/// Names, captions, counts and every other line of text: DejaVu Sans, then Noto Sans CJK.
pub fn ui() -> &'static Fonts {
    static F: OnceLock<Fonts> = OnceLock::new();
    F.get_or_init(|| Fonts {
        // Kanji and Hangul at the same pixel size look smaller than DejaVu's wide Latin
        // letters: a tenth more evens them out.
        faces: vec![
            (sans_face(), 1.0, SANS),
            (cjk_face(), 1.1, CJK),
            (piece_face(), 1.0, PIECES),
        ],
    })
}

/// The characters on pieces and the board's coordinates: the serif font first.
pub fn pieces() -> &'static Fonts {
    static F: OnceLock<Fonts> = OnceLock::new();
    F.get_or_init(|| Fonts {
        faces: vec![
            (piece_face(), 1.0, PIECES),
            (cjk_face(), 1.0, CJK),
            (sans_face(), 1.0, SANS),
        ],
    })
}

/// The chess figures (U+2654..U+265F).
pub fn figures() -> &'static Fonts {
    static F: OnceLock<Fonts> = OnceLock::new();
    F.get_or_init(|| Fonts {
        faces: vec![(sans_face(), 1.0, SANS)],
    })
}

/// Characters that only change the one before them (or join two): dropped when no font has
/// them, rather than drawn as [`MISSING`].
fn is_modifier(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}'   // combining diacritical marks
        | '\u{200B}'..='\u{200F}' // zero-width space, joiners, direction marks
        | '\u{2060}'..='\u{2064}'
        | '\u{20D0}'..='\u{20FF}' // combining marks for symbols (keycap)
        | '\u{FE00}'..='\u{FE0F}' // variation selectors
        | '\u{FEFF}'
        | '\u{1F3FB}'..='\u{1F3FF}' // skin tones
        | '\u{E0000}'..='\u{E007F}' // tags (subdivision flags)
        | '\u{E0100}'..='\u{E01EF}')
        || c.is_control()
}

fn is_regional_indicator(c: char) -> bool {
    ('\u{1F1E6}'..='\u{1F1FF}').contains(&c)
}

/// The text cut into what a reader sees as one character: a character with the modifiers after
/// it, an emoji sequence joined by U+200D, a flag's two regional indicators.
pub fn clusters(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let (mut start, mut prev, mut open_flag) = (0, None::<char>, false);
    for (i, c) in text.char_indices() {
        let joins = i > 0
            && (is_modifier(c) && c != '\u{200B}'
                || prev == Some('\u{200D}')
                || (open_flag && is_regional_indicator(c)));
        open_flag = is_regional_indicator(c) && !(joins && open_flag);
        if !joins && i > 0 {
            out.push(&text[start..i]);
            start = i;
        }
        prev = Some(c);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// A stretch of characters drawn with one font at `px`, `x` pixels after the line's start.
struct Run {
    face: usize,
    px: f32,
    text: String,
    x: f32,
}

/// A line of text split into runs, and its advance width.
struct Line {
    runs: Vec<Run>,
    width: f32,
}

impl Fonts {
    fn face_of(&self, c: char) -> Option<usize> {
        self.faces.iter().position(|(f, ..)| f.glyph_id(c).0 != 0)
    }

    /// The characters to draw and the font of each: one per [`clusters`] item, a character
    /// no font has becoming [`MISSING`]; combining marks a font has stay on their letter.
    fn resolve(&self, text: &str) -> Vec<(usize, char)> {
        let mut out: Vec<(usize, char)> = Vec::with_capacity(text.len());
        for cluster in clusters(text) {
            let mut chars = cluster.chars();
            let Some(base) = chars.next() else { continue };
            match self.face_of(base) {
                Some(i) => {
                    out.push((i, base));
                    for m in chars.filter(|c| ('\u{0300}'..='\u{036F}').contains(c)) {
                        if let Some(j) = self.face_of(m) {
                            out.push((j, m));
                        }
                    }
                }
                None if is_modifier(base) => {}
                // A word in a script the fonts lack is one sign, not one per letter.
                None if out.last().is_some_and(|&(_, c)| c == MISSING) => {}
                None => {
                    if let Some(i) = self.face_of(MISSING) {
                        out.push((i, MISSING));
                    }
                }
            }
        }
        out
    }

    fn shape(&self, px: f32, text: &str) -> Line {
        let mut runs: Vec<Run> = Vec::new();
        let mut x = 0.0;
        for (face, c) in self.resolve(text) {
            let (font, k, _) = self.faces[face];
            let f = font.as_scaled(PxScale::from(px * k));
            match runs.last_mut() {
                Some(r) if r.face == face => r.text.push(c),
                _ => runs.push(Run {
                    face,
                    px: px * k,
                    text: c.to_string(),
                    x,
                }),
            }
            x += f.h_advance(f.glyph_id(c));
        }
        Line { runs, width: x }
    }

    /// Where each run is drawn for a line whose baseline starts at `(x, baseline)`: imageproc
    /// takes whole pixels and the top of the line, the baseline being one ascent below it.
    fn run_origins<'a>(
        &'a self,
        line: &'a Line,
        (x, baseline): (f32, f32),
    ) -> impl Iterator<Item = (&'a Run, i32, i32)> + 'a {
        line.runs.iter().map(move |r| {
            let ascent = self.faces[r.face].0.as_scaled(PxScale::from(r.px)).ascent();
            (
                r,
                (x + r.x).round() as i32,
                (baseline - ascent).round() as i32,
            )
        })
    }

    /// The ink box of a shaped line drawn at `origin`, in whole pixels.
    fn line_ink(&self, line: &Line, origin: (f32, f32)) -> Option<(i32, i32, i32, i32)> {
        let mut b: Option<(i32, i32, i32, i32)> = None;
        for (run, rx, ry) in self.run_origins(line, origin) {
            let (font, ..) = self.faces[run.face];
            let px = run.px;
            let f = font.as_scaled(PxScale::from(px));
            let mut w = 0.0;
            for c in run.text.chars() {
                let id = f.glyph_id(c);
                let g = id.with_scale_and_position(px, ab_glyph::point(w, f.ascent()));
                w += f.h_advance(id);
                if let Some(o) = font.outline_glyph(g) {
                    let r = o.px_bounds();
                    let gb = (
                        rx + r.min.x.round() as i32,
                        ry + r.min.y.round() as i32,
                        rx + r.max.x.round() as i32,
                        ry + r.max.y.round() as i32,
                    );
                    b = Some(match b {
                        None => gb,
                        Some(a) => (a.0.min(gb.0), a.1.min(gb.1), a.2.max(gb.2), a.3.max(gb.3)),
                    });
                }
            }
        }
        b
    }

    /// The line's coverage, with `margin` empty pixels around its ink.
    fn coverage(&self, px: f32, origin: (f32, f32), text: &str, margin: i32) -> Option<Coverage> {
        let line = self.shape(px, text);
        let (x0, y0, x1, y1) = self.line_ink(&line, origin)?;
        let (ox, oy) = (x0 - margin, y0 - margin);
        let (w, h) = ((x1 - ox + margin) as u32, (y1 - oy + margin) as u32);
        let mut mask = GrayImage::new(w.max(1), h.max(1));
        for (run, rx, ry) in self.run_origins(&line, origin) {
            draw_text_mut(
                &mut mask,
                Luma([255]),
                rx - ox,
                ry - oy,
                PxScale::from(run.px),
                self.faces[run.face].0,
                &run.text,
            );
        }
        Some(Coverage {
            origin: (ox, oy),
            mask,
        })
    }
}

/// The advance width of a line of text.
pub fn width(f: &Fonts, px: f32, text: &str) -> f32 {
    f.shape(px, text).width
}

/// The text, shortened with an ellipsis if need be to be at most `max_w` wide. It is cut
/// between characters, never inside an emoji sequence or a flag.
pub fn ellipsize(f: &Fonts, px: f32, text: &str, max_w: f32) -> String {
    if width(f, px, text) <= max_w {
        return text.to_string();
    }
    let mut parts = clusters(text);
    while !parts.is_empty() {
        parts.pop();
        while parts.last().is_some_and(|p| p.trim().is_empty()) {
            parts.pop();
        }
        let s = parts.concat() + "…";
        if width(f, px, &s) <= max_w {
            return s;
        }
    }
    "…".to_string()
}

/// The ink box `(x0, y0, x1, y1)` of a line drawn with its baseline origin at (0, 0).
pub fn ink_bounds(f: &Fonts, px: f32, text: &str) -> Option<(f32, f32, f32, f32)> {
    let line = f.shape(px, text);
    f.line_ink(&line, (0.0, 0.0))
        .map(|(a, b, c, d)| (a as f32, b as f32, c as f32, d as f32))
}

/// Draws a line of text with its baseline starting at `(x, baseline)`; returns its advance width.
pub fn draw(
    c: &mut impl Canvas,
    f: &Fonts,
    px: f32,
    origin: (f32, f32),
    text: &str,
    color: Rgb3,
) -> f32 {
    if let Some(cov) = f.coverage(px, origin, text, 0) {
        cov.paint(c, color, 1.0);
    }
    width(f, px, text)
}

/// Draws text with an outline `width` pixels wide around its shapes (the text's coverage grown
/// by imageproc's grayscale dilation, in the edge colour, then the text itself on top).
#[allow(clippy::too_many_arguments)]
pub fn draw_outlined(
    c: &mut impl Canvas,
    f: &Fonts,
    px: f32,
    origin: (f32, f32),
    text: &str,
    fill: Rgb3,
    edge: Rgb3,
    width: f32,
) {
    let r = width.round().clamp(1.0, 8.0) as u8;
    let Some(cov) = f.coverage(px, origin, text, r as i32 + 1) else {
        return;
    };
    let grown = Coverage {
        origin: cov.origin,
        mask: grayscale_dilate(&cov.mask, &Mask::disk(r)),
    };
    grown.paint(c, edge, 1.0);
    cov.paint(c, fill, 1.0);
}

/// Where to put the baseline origin so that the text's ink box is centred on `(cx, cy)`.
pub fn centered_origin(f: &Fonts, px: f32, (cx, cy): (f32, f32), text: &str) -> Option<(f32, f32)> {
    let (x0, y0, x1, y1) = ink_bounds(f, px, text)?;
    Some((
        (cx - (x0 + x1) / 2.0).round(),
        (cy - (y0 + y1) / 2.0).round(),
    ))
}

/// Draws text with its ink box centred on `(cx, cy)`.
pub fn draw_centered(
    c: &mut impl Canvas,
    f: &Fonts,
    px: f32,
    center: (f32, f32),
    text: &str,
    color: Rgb3,
) {
    if let Some(o) = centered_origin(f, px, center, text) {
        draw(c, f, px, o, text, color);
    }
}

/// The largest size up to `px` at which the text's ink fits in `max_w` × `max_h`.
pub fn fit(f: &Fonts, px: f32, text: &str, max_w: f32, max_h: f32) -> f32 {
    match ink_bounds(f, px, text) {
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

/// How a line of text is drawn: each character drawn and its font's position in the chain
/// (`None` for [`MISSING`]).
pub fn fonts_used(f: &Fonts, text: &str) -> Vec<(char, Option<usize>)> {
    f.resolve(text)
        .into_iter()
        .map(|(i, c)| (c, (c != MISSING).then_some(i)))
        .collect()
}

/// The file name (in `assets/fonts/`) of the font at position `i` of the chain.
pub fn font_file(f: &Fonts, i: usize) -> &'static str {
    f.faces[i].2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_script_of_names_comes_from_its_font_and_nothing_is_missing() {
        // DejaVu Sans (0) for the alphabets, Noto Sans CJK (1) for kana, kanji, hanzi, Hangul.
        for (name, face) in [
            ("Alice Łukasiewicz", 0),
            ("Ærøskøbing Nguyễn", 0),
            ("Ελένη Παπαδοπούλου", 0),
            ("Дмитрий Шостакович", 0),
            ("さくら", 1),
            ("カタカナ", 1),
            ("羽生善治", 1),
            ("藤井聡太", 1),
            ("王小明", 1),
            ("陳大文", 1),
            ("김민준", 1),
            ("한국어", 1),
        ] {
            for (c, font) in fonts_used(ui(), name) {
                let want = if c == ' ' { 0 } else { face };
                assert_eq!(font, Some(want), "{c:?} of {name:?}");
            }
        }
    }

    #[test]
    fn emoji_and_unknown_scripts_become_one_neutral_symbol_each() {
        let used =
            |s: &str| -> String { fonts_used(ui(), s).into_iter().map(|(c, _)| c).collect() };
        assert_eq!(used("Ann 🌸"), "Ann ◇");
        // A family (joined by U+200D), a thumbs up with a skin tone, a flag: one symbol each.
        assert_eq!(used("👨\u{200D}👩\u{200D}👧x"), "◇x");
        assert_eq!(used("👍🏽"), "◇");
        assert_eq!(used("🇯🇵 🇰🇷"), "◇ ◇");
        // A symbol the fonts have is drawn (monochrome), its emoji selector dropped.
        assert_eq!(used("❤\u{FE0F}é★"), "❤é★");
        assert_eq!(
            clusters("e\u{0301}👨\u{200D}👩🇯🇵x"),
            ["e\u{0301}", "👨\u{200D}👩", "🇯🇵", "x"]
        );
        assert_eq!(used("שלום ไทย"), "◇ ◇");
    }

    #[test]
    fn a_long_name_is_shortened_with_an_ellipsis_between_characters() {
        let f = ui();
        let s = ellipsize(f, 20.0, "ジョン・スミス・ウィリアムズ・ジュニア", 120.0);
        assert!(s.ends_with('…'));
        assert!(width(f, 20.0, &s) <= 120.0);
        assert!("ジョン・スミス・ウィリアムズ・ジュニア".starts_with(s.trim_end_matches('…')));
        // An emoji sequence is not left half-joined.
        let s = ellipsize(f, 20.0, "abcdefghij👨\u{200D}👩\u{200D}👧", 110.0);
        assert!(
            s == "abcdefghij👨\u{200D}👩\u{200D}👧" || !s.contains('👨'),
            "{s:?}"
        );
    }
}
