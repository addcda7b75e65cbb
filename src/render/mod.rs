//! The renderer: a position (with the last move, the viewer's side and a piece style) becomes a
//! PNG image of the board; a game becomes an animated GIF; a piece and the squares it reaches
//! become a piece-move diagram; a league's standings and a round robin's crosstable become
//! tables ([`league`]). It uses the engine's types and `assets/fonts/` only, and knows
//! nothing of Discord, the store or the commands.
//!
//! The image, top to bottom: the player at the top (name, whose turn, pieces in hand, drawn
//! pointing down), the board with coordinates in the variant's notation on every side, and the
//! viewer's strip. The last move's squares are filled with [`theme::HIGHLIGHT`], a king in
//! check's square with [`theme::CHECK`]; [`Layout`] tells where every square and hand is, so
//! callers and tests can find them.

mod board;
pub mod chart;
mod diagram;
mod gif;
mod layout;
pub mod league;
mod pieces;
mod raster;
mod strip;
mod text;
pub mod theme;
mod zones;

use std::io::Cursor;

use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ImageEncoder, RgbImage};

use crate::engine::{Color, Move, PieceKind, Position, Square, Variant};
use crate::i18n::Lang;

pub use board::BoardStyle;
pub use diagram::{render_diagram, render_diagram_image, Diagram};
pub use gif::{
    describe_outcome, describe_outcome_in, render_gif, render_gif_moves, render_gif_within,
    FittedGif, GifOptions, MAX_FRAMES,
};
pub use layout::{default_square, HandSlot, Layout, Rect};
pub use pieces::{label, look, Look};
pub use strip::capitalised;
pub use zones::{render_sheet, render_zones, sheet_cell, SheetCell, ZoneMark, ZONE_COLORS};

/// What is written on shogi pieces (and Xiangqi discs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PieceStyle {
    /// The traditional characters.
    #[default]
    Kanji,
    /// The variant's Latin letters (`P`, `+R`, `GC`), for players who don't read kanji.
    International,
}

impl PieceStyle {
    /// Parses `kanji` or `international` (also `intl`, `latin`, `western`).
    pub fn parse(s: &str) -> Option<PieceStyle> {
        match s.trim().to_ascii_lowercase().as_str() {
            "kanji" | "traditional" => Some(PieceStyle::Kanji),
            "international" | "intl" | "latin" | "western" => Some(PieceStyle::International),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PieceStyle::Kanji => "kanji",
            PieceStyle::International => "international",
        }
    }
}

/// What to draw besides the position.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// The move that led to the position: its squares are highlighted (see [`move_squares`]).
    pub last_move: Option<Move>,
    /// More squares to highlight, such as the square a lion passed through.
    pub marked: Vec<Square>,
    /// The piece a player has picked (the move picker, `/moves SQUARE`): its square is drawn
    /// in the selection colour, under the piece.
    pub selected: Option<Square>,
    /// Where a picked piece (or a drop) can go: a dot on an empty square, a ring around a
    /// piece it would capture. Drawn over the pieces, dark with a light rim so that it shows on
    /// every square colour (light, dark, palace, corridor, river).
    pub targets: Vec<Square>,
    /// The side at the bottom: the board, coordinates and hands are turned for it.
    pub viewer: Color,
    pub style: PieceStyle,
    /// Player names, first player first; a side without a name is shown by its side name.
    pub names: [Option<String>; 2],
    /// Show whose turn it is (off for a finished game).
    pub show_turn: bool,
    /// A line about the last move or the result (`24. P-7f`, `Black wins by checkmate`), drawn
    /// at the right of the strip of the side that moved last.
    pub caption: Option<String>,
    /// Side of a square in pixels; `None` for the default (64 on a 9x9 board).
    pub square_px: Option<u32>,
    /// Draw another board than the variant's (for tests and previews).
    pub board_style: Option<BoardStyle>,
    /// The language of the strip's words (side labels, "to move", "no pieces in hand"): the
    /// viewer's for a reply, the server's for a public post. English unless set.
    pub lang: Lang,
    /// Each player's clock as the strip shows it at its right (`2d 4h`), first player first;
    /// `None`: no clock.
    pub clocks: [Option<String>; 2],
    /// The ranks of the shogi games in kanji numerals (`一` … `九`, as Japanese notation writes
    /// them) or in letters (`a` … `i`, as Western notation and the move codes do): the picture
    /// follows the notation its reader types. `None`: by the piece style (kanji with kanji
    /// pieces), for callers that know no notation (the command line).
    pub rank_kanji: Option<bool>,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            last_move: None,
            marked: Vec::new(),
            selected: None,
            targets: Vec::new(),
            viewer: Color::Black,
            style: PieceStyle::Kanji,
            names: [None, None],
            show_turn: true,
            caption: None,
            square_px: None,
            board_style: None,
            lang: Lang::En,
            clocks: [None, None],
            rank_kanji: None,
        }
    }
}

/// Why an image could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("could not encode the image: {0}")]
    Encode(#[from] image::ImageError),
    #[error("could not encode the replay: {0}")]
    Gif(String),
    #[error("the image would be too large for a GIF ({0}x{1} pixels)")]
    TooLarge(u32, u32),
}

/// The layout of a board image of `v` with these options: where each square and hand is.
pub fn layout(v: &Variant, opts: &RenderOptions) -> Layout {
    Layout::new(v, opts.viewer, opts.square_px, true)
}

/// The squares a move touches, to highlight: from and to, the drop square, the square a lion
/// captured on before its second step, the lance's squares in castling and the pawn taken en
/// passant.
pub fn move_squares(m: Move) -> Vec<Square> {
    let mut out: Vec<Square> = m.from().into_iter().collect();
    if let Move::Lion { via, .. } = m {
        out.push(via);
    }
    out.push(m.to());
    // Castling moves the lance too; en passant takes a pawn beside the target square.
    out.extend(m.side_squares());
    let mut seen = Vec::with_capacity(out.len());
    out.retain(|s| {
        let new = !seen.contains(s);
        seen.push(*s);
        new
    });
    out
}

/// The marks of a picked piece (`4i`) or kind in hand (`P*`) among `legal`: its square, and
/// where it can go (a lion's first steps, a drop's squares). `None` when `what` is neither a
/// square of the game nor a kind in hand with `*`. A piece with no legal move is marked alone.
pub fn picked_marks(
    pos: &Position,
    legal: &[Move],
    what: &str,
) -> Option<(Option<Square>, Vec<Square>)> {
    let v = pos.variant();
    let what = what.trim();
    let (from, drop) = match what.strip_suffix('*') {
        Some(letter) => {
            let kind = v.spec.pieces.letters.iter().find(|l| {
                l.code.eq_ignore_ascii_case(letter) || l.human.eq_ignore_ascii_case(letter)
            })?;
            (None, Some(kind.kind))
        }
        None => (Some(v.parse_square(what)?), None),
    };
    let mut targets: Vec<Square> = legal
        .iter()
        .filter(|m| match (m, from, drop) {
            (Move::Drop { kind, .. }, None, Some(k)) => *kind == k,
            (_, Some(f), _) => m.from() == Some(f),
            _ => false,
        })
        .map(|m| match m {
            Move::Lion { via, .. } => *via,
            m => m.to(),
        })
        .collect();
    targets.sort();
    targets.dedup();
    Some((from, targets))
}

/// The square of `c`'s king (a shogi or a Xiangqi king).
pub fn king_square(pos: &Position, c: Color) -> Option<Square> {
    pos.king(c).or_else(|| {
        pos.pieces()
            .find(|(_, p)| {
                p.color == c && matches!(p.kind, PieceKind::King | PieceKind::XiangqiKing)
            })
            .map(|(s, _)| s)
    })
}

/// Draws a position. The image is `layout(pos.variant(), opts)` in size.
pub fn render_image(pos: &Position, opts: &RenderOptions) -> RgbImage {
    let v = pos.variant();
    let layout = layout(v, opts);
    let style = opts
        .board_style
        .unwrap_or_else(|| BoardStyle::for_variant(v.id()));
    let kanji = opts.rank_kanji.unwrap_or(opts.style == PieceStyle::Kanji);
    let bg = board::background(v, style, &layout, kanji);
    let mut img = bg.base.clone();
    let marks = opts
        .last_move
        .into_iter()
        .flat_map(move_squares)
        .chain(opts.marked.iter().copied());
    for sq in marks.filter(|&s| v.contains(s)) {
        board::mark_square(&mut img, &bg, layout.square_rect(sq), theme::HIGHLIGHT);
    }
    if let Some(sq) = opts.selected.filter(|&s| v.contains(s)) {
        board::mark_square(&mut img, &bg, layout.square_rect(sq), theme::SELECTED);
    }
    for c in Color::ALL {
        if pos.is_in_check(c) {
            if let Some(k) = king_square(pos, c) {
                board::mark_square(&mut img, &bg, layout.square_rect(k), theme::CHECK);
            }
        }
    }
    let sq_px = layout.square_size();
    for (sq, p) in pos.pieces() {
        let r = layout.square_rect(sq);
        let s = pieces::sprite(v, p, p.color == layout.viewer(), opts.style, sq_px);
        raster::blit(&mut img, &s, r.x, r.y);
    }
    for &sq in opts.targets.iter().filter(|&&s| v.contains(s)) {
        board::draw_target(&mut img, layout.square_rect(sq), pos.piece_at(sq).is_some());
    }
    for c in Color::ALL {
        strip::draw_strip(&mut img, pos, &layout, opts, c);
    }
    img
}

/// Draws a position as PNG bytes.
pub fn render_png(pos: &Position, opts: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    encode_png(&render_image(pos, opts))
}

/// Encodes an image as PNG. Deflate level 1 with adaptive filters: the flat colours compress
/// well (about 55 KB for a 9x9 board) in under 2 ms; higher levels save little and cost more.
pub fn encode_png(img: &RgbImage) -> Result<Vec<u8>, RenderError> {
    Ok(png_bytes(img)?)
}

/// [`encode_png`]'s encoding, for the pictures that have their own error type.
pub(crate) fn png_bytes(img: &RgbImage) -> Result<Vec<u8>, image::ImageError> {
    let mut out = Vec::with_capacity(64 * 1024);
    PngEncoder::new_with_quality(
        Cursor::new(&mut out),
        CompressionType::Level(1),
        FilterType::Adaptive,
    )
    .write_image(
        img.as_raw(),
        img.width(),
        img.height(),
        image::ExtendedColorType::Rgb8,
    )?;
    Ok(out)
}

/// How a line of text (a player's name, a caption) is drawn on the pictures: each character
/// drawn and the font file it comes from, or `None` for the sign that stands for characters no
/// font has ([`MISSING_SIGN`]: emoji, scripts outside the fonts).
pub fn text_fonts(text: &str) -> Vec<(char, Option<&'static str>)> {
    let f = text::ui();
    text::fonts_used(f, text)
        .into_iter()
        .map(|(c, i)| (c, i.map(|i| text::font_file(f, i))))
        .collect()
}

/// What stands for characters no font has.
pub const MISSING_SIGN: char = text::MISSING;

/// The name as the strip of side `c` shows it: shortened with an ellipsis when too long for the
/// room left beside the side's label (`None` when the side has no name).
pub fn shown_name(v: &Variant, opts: &RenderOptions, c: Color) -> Option<String> {
    strip::shown_name(&layout(v, opts), v, opts, c)
}

/// The pieces a side holds, in the variant's hand order.
pub fn hand_of(pos: &Position, c: Color) -> Vec<(PieceKind, u8)> {
    let v = pos.variant();
    if !v.spec.drops.enabled {
        return Vec::new();
    }
    v.spec
        .pieces
        .hand_order
        .iter()
        .map(|&k| (k, pos.hand(c, k)))
        .filter(|&(_, n)| n > 0)
        .collect()
}

#[cfg(test)]
mod move_square_tests {
    use super::*;

    #[test]
    fn castling_and_en_passant_highlight_every_square_they_change() {
        let sq = |c, r| Square::new(c, r);
        // Black castles toward 9i: king 5i-7i, lance 9i-6i.
        let castle = Move::Castle {
            from: sq(4, 8),
            to: sq(2, 8),
        };
        assert_eq!(
            move_squares(castle),
            vec![sq(4, 8), sq(2, 8), sq(0, 8), sq(3, 8)]
        );
        // A pawn on 5e takes en passant on 4d: the pawn taken stood on 4e.
        let ep = Move::EnPassant {
            from: sq(4, 4),
            to: sq(5, 3),
        };
        assert_eq!(move_squares(ep), vec![sq(4, 4), sq(5, 3), sq(5, 4)]);
    }
}
