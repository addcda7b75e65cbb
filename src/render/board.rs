//! The board under the pieces: its kind of squares (plain, Palace Shogi's checkering with palaces
//! and corridors, Shanghai's palaces and river), grid, coordinates, and the cache of finished
//! backgrounds (one per variant, style and layout; drawn once, copied for every image).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use image::{Rgb, RgbImage, Rgba, RgbaImage};

use crate::engine::{Color, Square, Variant, VariantId};
use crate::render::layout::{Layout, Rect};
use imageproc::drawing::draw_filled_rect_mut;

use crate::render::raster;
use crate::render::text;
use crate::render::theme::{self, Rgb3};

/// How a game's board looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardStyle {
    /// One wood colour with a grid and the four star points: Shogi, Judkins Shogi, Cannon Shogi.
    Plain,
    /// Palace Shogi: checkered (light squares are those of the colour of 5h), with two palaces
    /// (the centre three files of each side's three nearest ranks) whose light squares, the
    /// corridors, are in each owner's colour, and the corridor lines drawn through them.
    Checkered,
    /// Shanghai Palace Chess: wood squares, two palaces (tinted in their owner's colour, with
    /// their diagonals) and the river on the middle rank.
    PalacesAndRiver,
}

impl BoardStyle {
    /// The board of a game.
    pub fn for_variant(id: VariantId) -> BoardStyle {
        match id {
            VariantId::Shogi | VariantId::Judkins | VariantId::Cannon => BoardStyle::Plain,
            VariantId::Palace => BoardStyle::Checkered,
            VariantId::Shanghai => BoardStyle::PalacesAndRiver,
        }
    }

    /// Whose palace a square is in: the centre three files of each side's three nearest ranks
    /// (files 4-6 of ranks g-i and a-c in Palace Shogi, d1-f3 and d7-f9 in Shanghai). None on a
    /// plain board.
    pub fn palace(self, v: &Variant, sq: Square) -> Option<Color> {
        if self == BoardStyle::Plain {
            return None;
        }
        let (files, ranks) = (v.files(), v.ranks());
        let mid = files / 2;
        if sq.col() + 1 < mid || sq.col() > mid + 1 {
            return None;
        }
        if sq.row() + 3 >= ranks {
            Some(Color::Black)
        } else if sq.row() < 3 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Whether a square is light on a checkered board: of the colour of 5h (the centre file,
    /// the first player's second rank).
    pub fn is_light(self, v: &Variant, sq: Square) -> bool {
        let (files, ranks) = (v.files(), v.ranks());
        let reference = (files / 2 + ranks - 2) % 2;
        (sq.col() + sq.row()) % 2 == reference
    }

    /// Whose corridor a square is (a light square of a palace), on a checkered board.
    pub fn corridor(self, v: &Variant, sq: Square) -> Option<Color> {
        if self != BoardStyle::Checkered || !self.is_light(v, sq) {
            return None;
        }
        self.palace(v, sq)
    }

    /// Whether a square is on the river (the middle rank: rank 5 of Shanghai Palace Chess).
    pub fn is_river(self, v: &Variant, sq: Square) -> bool {
        self == BoardStyle::PalacesAndRiver && sq.row() == v.ranks() / 2
    }

    /// The colour of an unmarked square.
    pub fn square_color(self, v: &Variant, sq: Square) -> Rgb3 {
        match self {
            BoardStyle::Plain => theme::WOOD,
            BoardStyle::Checkered => match self.corridor(v, sq) {
                Some(Color::Black) => theme::CORRIDOR_FIRST,
                Some(Color::White) => theme::CORRIDOR_SECOND,
                None if self.is_light(v, sq) => theme::LIGHT_SQUARE,
                None => theme::DARK_SQUARE,
            },
            BoardStyle::PalacesAndRiver => match self.palace(v, sq) {
                Some(Color::Black) => theme::PALACE_FIRST,
                Some(Color::White) => theme::PALACE_SECOND,
                None if self.is_river(v, sq) => theme::RIVER,
                None => theme::WOOD,
            },
        }
    }
}

/// A finished background: `base` has everything; `lines` holds only the lines drawn over the
/// squares, to be drawn again over a square after it is filled with a mark.
pub(crate) struct Background {
    pub base: RgbImage,
    pub lines: RgbaImage,
}

type Key = (VariantId, BoardStyle, Layout, bool);

/// The background for a variant, style and layout, drawn on first use. `kanji` (the kanji
/// piece style) writes the ranks of the shogi games in kanji numerals, as a Japanese board
/// does.
pub(crate) fn background(
    v: &Variant,
    style: BoardStyle,
    layout: &Layout,
    kanji: bool,
) -> Arc<Background> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Arc<Background>>>> = OnceLock::new();
    let key = (v.id(), style, layout.clone(), kanji);
    let cache = CACHE.get_or_init(Default::default);
    if let Some(bg) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return bg.clone();
    }
    let bg = Arc::new(draw_background(v, style, layout, kanji));
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, bg.clone());
    bg
}

/// Fills a square with a flat mark colour and draws the board's lines over it again.
pub(crate) fn mark_square(img: &mut RgbImage, bg: &Background, r: Rect, color: Rgb3) {
    raster::fill_rect(img, r, color);
    raster::blit_region(img, &bg.lines, r.inset(-3));
}

/// Marks a square a picked piece can reach: a dot in the middle of an empty square, a ring
/// inside the edge of a square whose piece would be taken. Both are dark green with a light rim,
/// so that they show on light, dark and coloured squares alike.
pub(crate) fn draw_target(img: &mut RgbImage, r: Rect, capture: bool) {
    let s = r.w.min(r.h) as f32;
    let c = (r.x as f32 + r.w as f32 / 2.0, r.y as f32 + r.h as f32 / 2.0);
    if capture {
        let radius = s * 0.46;
        raster::stroke_circle(img, c, radius, s * 0.11, theme::DOT_RIM);
        raster::stroke_circle(img, c, radius, s * 0.07, theme::DOT);
    } else {
        raster::fill_circle(img, c, s * 0.17, theme::DOT_RIM);
        raster::fill_circle(img, c, s * 0.13, theme::DOT);
    }
}

fn draw_background(v: &Variant, style: BoardStyle, layout: &Layout, kanji: bool) -> Background {
    let (w, h) = (layout.width(), layout.height());
    let mut base = RgbImage::from_pixel(w, h, Rgb(theme::BACKGROUND));
    for &sq in v.squares() {
        raster::fill_rect(&mut base, layout.square_rect(sq), style.square_color(v, sq));
    }
    let mut lines = RgbaImage::from_pixel(w, h, Rgba([0, 0, 0, 0]));
    draw_lines(&mut lines, v, style, layout);
    raster::blit(&mut base, &lines, 0, 0);
    draw_coordinates(&mut base, v, layout, kanji);
    Background { base, lines }
}

/// A one-pixel line from x0 up to (not including) x1.
fn hline(c: &mut RgbaImage, x0: i32, x1: i32, y: i32, color: Rgb3) {
    if x1 > x0 {
        let r = imageproc::rect::Rect::at(x0, y).of_size((x1 - x0) as u32, 1);
        draw_filled_rect_mut(c, r, opaque(color));
    }
}

/// A one-pixel line from y0 up to (not including) y1.
fn vline(c: &mut RgbaImage, x: i32, y0: i32, y1: i32, color: Rgb3) {
    if y1 > y0 {
        let r = imageproc::rect::Rect::at(x, y0).of_size(1, (y1 - y0) as u32);
        draw_filled_rect_mut(c, r, opaque(color));
    }
}

fn opaque([r, g, b]: Rgb3) -> Rgba<u8> {
    Rgba([r, g, b, 255])
}

fn draw_lines(c: &mut RgbaImage, v: &Variant, style: BoardStyle, layout: &Layout) {
    let b = layout.board_rect();
    let sq = layout.square_size() as i32;
    let (files, ranks) = (v.files() as i32, v.ranks() as i32);
    let (x1, y1) = (b.x + files * sq, b.y + ranks * sq);
    // River banks first, so the grid stays on top of them.
    if style == BoardStyle::PalacesAndRiver {
        let river = (0..v.files())
            .map(|col| Square::new(col, v.ranks() / 2))
            .next()
            .map(|s| layout.square_rect(s).y)
            .unwrap_or(b.y);
        for y in [river - 1, river + 1, river + sq - 1, river + sq + 1] {
            hline(c, b.x, x1, y, theme::RIVER_BANK);
        }
    }
    for i in 0..=files {
        vline(c, b.x + i * sq, b.y, y1 + 1, theme::GRID);
    }
    for i in 0..=ranks {
        hline(c, b.x, x1 + 1, b.y + i * sq, theme::GRID);
    }
    // Frame: two more pixels outside.
    for d in 1..=2 {
        hline(c, b.x - d, x1 + 1 + d, b.y - d, theme::GRID);
        hline(c, b.x - d, x1 + 1 + d, y1 + d, theme::GRID);
        vline(c, b.x - d, b.y - d, y1 + 1 + d, theme::GRID);
        vline(c, x1 + d, b.y - d, y1 + 1 + d, theme::GRID);
    }
    if style == BoardStyle::Plain && files == 9 && ranks == 9 {
        let r = (sq as f32 * 0.065).max(2.0);
        for (i, j) in [(3, 3), (6, 3), (3, 6), (6, 6)] {
            let p = ((b.x + i * sq) as f32 + 0.5, (b.y + j * sq) as f32 + 0.5);
            raster::fill_circle(c, p, r, theme::GRID);
        }
    }
    if style != BoardStyle::Plain {
        for owner in Color::ALL {
            let cells: Vec<Rect> = v
                .squares()
                .iter()
                .filter(|&&s| style.palace(v, s) == Some(owner))
                .map(|&s| layout.square_rect(s))
                .collect();
            let Some(first) = cells.first() else { continue };
            let (px0, py0) = cells
                .iter()
                .fold((first.x, first.y), |(x, y), r| (x.min(r.x), y.min(r.y)));
            let (px1, py1) = cells.iter().fold((first.x, first.y), |(x, y), r| {
                (x.max(r.x + sq), y.max(r.y + sq))
            });
            let (fx0, fy0, fx1, fy1) = (
                px0 as f32 + 0.5,
                py0 as f32 + 0.5,
                px1 as f32 + 0.5,
                py1 as f32 + 0.5,
            );
            let width = (sq as f32 / 28.0).max(1.5);
            raster::line(c, (fx0, fy0), (fx1, fy1), width, theme::PALACE_LINE);
            raster::line(c, (fx1, fy0), (fx0, fy1), width, theme::PALACE_LINE);
            for d in -1..=1 {
                hline(c, px0 - 1, px1 + 2, py0 + d, theme::PALACE_LINE);
                hline(c, px0 - 1, px1 + 2, py1 + d, theme::PALACE_LINE);
                vline(c, px0 + d, py0 - 1, py1 + 2, theme::PALACE_LINE);
                vline(c, px1 + d, py0 - 1, py1 + 2, theme::PALACE_LINE);
            }
        }
    }
}

/// Splits a square name into its file and rank parts (`7g` → `7`, `g`; `e2` → `e`, `2`).
fn split_name(name: &str) -> (&str, &str) {
    let digit = |c: char| c.is_ascii_digit();
    let first = name.chars().next().map(digit).unwrap_or(false);
    let at = name
        .char_indices()
        .find(|&(_, c)| digit(c) != first)
        .map_or(name.len(), |(i, _)| i);
    name.split_at(at)
}

/// Kanji numerals, for the ranks of a Japanese board (`a` → `一`).
const KANJI_RANKS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// A rank label as the board shows it: the letter of the square names, or in the kanji style
/// of the shogi games the kanji numeral a Japanese board writes (`一` … `九`; files stay digits).
fn rank_label(v: &Variant, letter: &str, kanji: bool) -> String {
    let shogi = matches!(v.spec.squares, crate::engine::SquareNames::Shogi);
    let index = letter
        .chars()
        .next()
        .filter(|c| c.is_ascii_lowercase())
        .map(|c| (c as u8 - b'a') as usize);
    match index.and_then(|i| KANJI_RANKS.get(i)) {
        Some(k) if kanji && shogi => (*k).to_string(),
        _ => letter.to_string(),
    }
}

fn draw_coordinates(img: &mut RgbImage, v: &Variant, layout: &Layout, kanji: bool) {
    let font = text::pieces();
    let b = layout.board_rect();
    let band = layout.coord_band() as f32;
    let sq = layout.square_size() as f32;
    let px = (band * 0.78).max(10.0);
    let gap = band / 2.0 + 2.0;
    for x in 0..v.files() {
        let name = v.square_name(layout.square_of_cell(x, 0));
        let label = split_name(&name).0;
        let cx = b.x as f32 + (x as f32 + 0.5) * sq;
        for cy in [b.y as f32 - gap, (b.y + b.h as i32) as f32 + gap] {
            text::draw_centered(img, font, px, (cx, cy), label, theme::COORD);
        }
    }
    for y in 0..v.ranks() {
        let name = v.square_name(layout.square_of_cell(0, y));
        let label = rank_label(v, split_name(&name).1, kanji);
        let label = label.as_str();
        let cy = b.y as f32 + (y as f32 + 0.5) * sq;
        for cx in [b.x as f32 - gap, (b.x + b.w as i32) as f32 + gap] {
            text::draw_centered(img, font, px, (cx, cy), label, theme::COORD);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shogi() -> &'static Variant {
        Variant::get(VariantId::Shogi)
    }

    /// A square by its Palace Shogi name (`5h`): file from the right, rank letter from the top.
    fn at(name: &str) -> Square {
        shogi().parse_square(name).unwrap()
    }

    #[test]
    fn plain_board_has_no_palace_corridor_or_river() {
        let v = shogi();
        for &s in v.squares() {
            assert_eq!(BoardStyle::Plain.palace(v, s), None);
            assert_eq!(BoardStyle::Plain.corridor(v, s), None);
            assert!(!BoardStyle::Plain.is_river(v, s));
            assert_eq!(BoardStyle::Plain.square_color(v, s), theme::WOOD);
        }
    }

    #[test]
    fn styles_by_variant() {
        for id in [VariantId::Shogi, VariantId::Judkins, VariantId::Cannon] {
            assert_eq!(BoardStyle::for_variant(id), BoardStyle::Plain);
        }
        assert_eq!(
            BoardStyle::for_variant(VariantId::Palace),
            BoardStyle::Checkered
        );
        assert_eq!(
            BoardStyle::for_variant(VariantId::Shanghai),
            BoardStyle::PalacesAndRiver
        );
    }

    #[test]
    fn the_real_boards_have_the_drawn_geometry() {
        // Palace Shogi names its squares like Shogi; Shanghai like chess (d1-f3, e5).
        let palace = Variant::get(VariantId::Palace);
        let s = BoardStyle::Checkered;
        let sq = |n: &str| palace.parse_square(n).unwrap();
        assert_eq!(s.corridor(palace, sq("5h")), Some(Color::Black));
        assert_eq!(s.corridor(palace, sq("4a")), Some(Color::White));
        assert_eq!(s.palace(palace, sq("5h")), Some(Color::Black));
        let shanghai = Variant::get(VariantId::Shanghai);
        let s = BoardStyle::PalacesAndRiver;
        let sq = |n: &str| shanghai.parse_square(n).unwrap();
        for n in ["d1", "f3", "e2"] {
            assert_eq!(s.palace(shanghai, sq(n)), Some(Color::Black), "{n}");
        }
        for n in ["d7", "f9", "e8"] {
            assert_eq!(s.palace(shanghai, sq(n)), Some(Color::White), "{n}");
        }
        assert!(s.is_river(shanghai, sq("a5")) && s.is_river(shanghai, sq("i5")));
        assert!(!s.is_river(shanghai, sq("e4")) && !s.is_river(shanghai, sq("e6")));
    }

    #[test]
    fn palace_shogi_palaces_are_files_4_to_6_of_the_three_nearest_ranks() {
        let v = shogi();
        let s = BoardStyle::Checkered;
        for &sq in v.squares() {
            let name = v.square_name(sq);
            let file = name[..1].parse::<u8>().unwrap();
            let rank = name.as_bytes()[1];
            let want = match (file, rank) {
                (4..=6, b'g'..=b'i') => Some(Color::Black),
                (4..=6, b'a'..=b'c') => Some(Color::White),
                _ => None,
            };
            assert_eq!(s.palace(v, sq), want, "{name}");
        }
    }

    #[test]
    fn light_squares_have_the_colour_of_5h_and_palace_light_squares_are_corridors() {
        let v = shogi();
        let s = BoardStyle::Checkered;
        assert!(s.is_light(v, at("5h")));
        assert!(!s.is_light(v, at("5i")));
        assert!(!s.is_light(v, at("4h")));
        assert!(!s.is_light(v, at("1i"))); // 1 + 9 is even
        assert!(s.is_light(v, at("1h")));
        // Four corners and the centre of each palace.
        for n in ["6g", "4g", "5h", "6i", "4i"] {
            assert_eq!(s.corridor(v, at(n)), Some(Color::Black), "{n}");
        }
        for n in ["6a", "4a", "5b", "6c", "4c"] {
            assert_eq!(s.corridor(v, at(n)), Some(Color::White), "{n}");
        }
        for n in ["5g", "6h", "4h", "5i", "5a", "5c", "5e", "7g", "3i"] {
            assert_eq!(s.corridor(v, at(n)), None, "{n}");
        }
        let corridors = v.squares().iter().filter(|&&q| s.corridor(v, q).is_some());
        assert_eq!(corridors.count(), 10);
        // The two players' corridors differ from each other and from the other squares.
        let first = s.square_color(v, at("5h"));
        let second = s.square_color(v, at("5b"));
        let light = s.square_color(v, at("5e"));
        let dark = s.square_color(v, at("5d"));
        assert!(first != second && first != light && second != light && light != dark);
    }

    #[test]
    fn shanghai_palaces_and_river() {
        let v = shogi(); // 9x9, the same geometry as Shanghai's board
        let s = BoardStyle::PalacesAndRiver;
        // Shanghai names: d1-f3 is the bottom palace (Red, the first player), d7-f9 the top.
        let western = |name: &str| {
            let col = name.as_bytes()[0] - b'a';
            let rank = name.as_bytes()[1] - b'0';
            Square::new(col, 9 - rank)
        };
        for n in ["d1", "e2", "f3", "d3", "f1"] {
            assert_eq!(s.palace(v, western(n)), Some(Color::Black), "{n}");
        }
        for n in ["d7", "e8", "f9"] {
            assert_eq!(s.palace(v, western(n)), Some(Color::White), "{n}");
        }
        for n in ["c1", "g2", "e4", "e6", "e5"] {
            assert_eq!(s.palace(v, western(n)), None, "{n}");
        }
        let river: Vec<Square> = v
            .squares()
            .iter()
            .copied()
            .filter(|&q| s.is_river(v, q))
            .collect();
        assert_eq!(river.len(), 9);
        assert!(river.iter().all(|q| q.row() == 4)); // rank 5
        assert_eq!(s.square_color(v, western("a5")), theme::RIVER);
        assert_eq!(s.corridor(v, western("e2")), None);
    }

    #[test]
    fn square_names_split_into_file_and_rank() {
        assert_eq!(split_name("7g"), ("7", "g"));
        assert_eq!(split_name("e2"), ("e", "2"));
        assert_eq!(split_name("a10"), ("a", "10"));
    }
}
