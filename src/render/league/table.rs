//! A league picture's table: where its title, header row, rows and columns go given the
//! columns' widths, and the drawing (the top band, the header band with its top corners
//! rounded, the rows' shades and marks, the words, the crosstable's rules and diagonal, the
//! closing rule). What goes in the columns and how wide they are is `league.rs`'s.

use std::borrow::Cow;

use image::{Rgb, RgbImage};

use crate::render::layout::Rect;
use crate::render::theme::{self, Rgb3};
use crate::render::{raster, text};

use super::NAME_COLUMN;

/// Around the table (the board pictures' padding at their default square size, a little more).
pub(super) const MARGIN: u32 = 16;
const TITLE_H: u32 = 36;
const SUBTITLE_H: u32 = 24;
/// Between the subtitle and the header row.
const GAP: u32 = 10;
pub(super) const HEADER_H: u32 = 30;
pub(super) const ROW_H: u32 = 30;
/// The rule under the last row.
pub(super) const RULE_H: u32 = 2;

const TITLE_PX: f32 = 24.0;
const SUBTITLE_PX: f32 = 16.0;
pub(super) const HEADER_PX: f32 = 14.0;
pub(super) const TEXT_PX: f32 = 16.0;

/// Inside a cell, on each side of its words.
pub(super) const PAD: f32 = 8.0;

/// The width of the leader's mark.
const MARK_W: u32 = 4;

/// Where the parts of a league picture are, in pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableLayout {
    pub width: u32,
    pub height: u32,
    /// The header row (the dark band with the column words).
    pub header: Rect,
    /// The players' rows, top to bottom.
    pub rows: Vec<Rect>,
    /// Each column's left edge and width, left to right. Standings: place, name, points,
    /// played, then the tie-breaks. Crosstable: number, name, one column per player, points.
    pub columns: Vec<(i32, u32)>,
}

impl TableLayout {
    /// The cell of row `row` (from 0) in column `column`.
    pub fn cell(&self, row: usize, column: usize) -> Option<Rect> {
        let r = self.rows.get(row)?;
        let &(x, w) = self.columns.get(column)?;
        Some(Rect::new(x, r.y, w, r.h))
    }

    /// The header's cell of column `column`.
    pub fn header_cell(&self, column: usize) -> Option<Rect> {
        let &(x, w) = self.columns.get(column)?;
        Some(Rect::new(x, self.header.y, w, self.header.h))
    }

    /// The picture's top band: the title, the subtitle (when there is one) and the gap before
    /// the header.
    pub fn top(&self) -> Rect {
        Rect::new(0, 0, self.width, self.header.y as u32)
    }
}

/// Where a column's words go in their cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Align {
    Left,
    Right,
    Center,
}

/// A column being drawn.
pub(super) struct Column {
    pub(super) header: String,
    pub(super) align: Align,
    /// The size of its words in the body (the header's are [`HEADER_PX`] or smaller).
    pub(super) px: f32,
    /// The room left and right of its words.
    pub(super) pad: f32,
    /// Written in [`theme::TEXT_DIM`] (a crosstable's row numbers).
    pub(super) dim: bool,
    /// A result cell of a crosstable: ruled on both sides.
    pub(super) ruled: bool,
    /// Its words one above the other (a double round robin's two results in a large table).
    pub(super) stacked: bool,
}

impl Column {
    pub(super) fn new(header: &str, align: Align, px: f32) -> Column {
        Column {
            header: header.to_string(),
            align,
            px,
            pad: PAD,
            dim: false,
            ruled: false,
            stacked: false,
        }
    }

    pub(super) fn header_px(&self) -> f32 {
        HEADER_PX.min(self.px)
    }
}

/// How a row is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Look {
    Plain,
    Leader,
    Withdrawn,
}

/// A row being drawn: one text per column.
pub(super) struct Row {
    pub(super) cells: Vec<String>,
    pub(super) look: Look,
    /// The column filled dark (a crosstable's diagonal).
    pub(super) filled: Option<usize>,
}

/// A table ready to draw.
pub(super) struct Table<'a> {
    pub(super) title: &'a str,
    pub(super) subtitle: &'a str,
    pub(super) columns: Vec<Column>,
    pub(super) rows: Vec<Row>,
    pub(super) layout: TableLayout,
}

/// The widest of some texts at a size.
pub(super) fn widest<'a>(px: f32, texts: impl IntoIterator<Item = &'a str>) -> f32 {
    let f = text::ui();
    texts
        .into_iter()
        .map(|s| text::width(f, px, &drawable(s)))
        .fold(0.0, f32::max)
}

/// How wide the top band wants the picture: the title and subtitle whole, with the margins.
pub(super) fn top_width(title: &str, subtitle: &str) -> u32 {
    let f = text::ui();
    let w = text::width(f, TITLE_PX, title).max(text::width(f, SUBTITLE_PX, subtitle));
    w.ceil() as u32 + 2 * MARGIN
}

/// Places the columns (of these widths) and `rows` rows under the title and subtitle.
pub(super) fn place(title: &str, subtitle: &str, widths: &[u32], rows: usize) -> TableLayout {
    let table_w: u32 = widths.iter().sum();
    let mut y = MARGIN;
    if !title.is_empty() {
        y += TITLE_H;
    }
    if !subtitle.is_empty() {
        y += SUBTITLE_H;
    }
    if !title.is_empty() || !subtitle.is_empty() {
        y += GAP;
    }
    let header = Rect::new(MARGIN as i32, y as i32, table_w, HEADER_H);
    y += HEADER_H;
    let rows: Vec<Rect> = (0..rows as u32)
        .map(|i| Rect::new(MARGIN as i32, (y + i * ROW_H) as i32, table_w, ROW_H))
        .collect();
    y += rows.len() as u32 * ROW_H + RULE_H + MARGIN;
    let mut x = MARGIN as i32;
    let columns = widths
        .iter()
        .map(|&w| {
            let c = (x, w);
            x += w as i32;
            c
        })
        .collect();
    TableLayout {
        width: table_w + 2 * MARGIN,
        height: y,
        header,
        rows,
        columns,
    }
}

/// The baseline that centres a line of `px` text on a band from `top`, `h` high (as the board's
/// name strip places its names).
fn baseline(top: i32, h: u32, px: f32) -> f32 {
    top as f32 + h as f32 / 2.0 + px * 0.36
}

/// The text as drawn: the minus sign of a forfeit loss (U+2212) is not in the fonts' subsets,
/// so it becomes the en dash (U+2013), which is, rather than the missing sign.
pub(super) fn drawable(s: &str) -> Cow<'_, str> {
    const MINUS: char = '\u{2212}';
    let missing = || {
        text::fonts_used(text::ui(), "\u{2212}")
            .first()
            .is_none_or(|&(_, font)| font.is_none())
    };
    if s.contains(MINUS) && missing() {
        Cow::Owned(s.replace(MINUS, "\u{2013}"))
    } else {
        Cow::Borrowed(s)
    }
}

/// Writes `s` in a cell, shortened to fit between its pads; returns where the words start and
/// how wide they are drawn.
fn write(img: &mut RgbImage, r: Rect, s: &str, col: &Column, px: f32, color: Rgb3) -> (f32, f32) {
    let f = text::ui();
    let room = r.w as f32 - 2.0 * col.pad;
    let s = text::ellipsize(f, px, &drawable(s), room);
    let w = text::width(f, px, &s);
    let x = match col.align {
        Align::Left => r.x as f32 + col.pad,
        Align::Right => (r.x + r.w as i32) as f32 - col.pad - w,
        Align::Center => r.x as f32 + (r.w as f32 - w) / 2.0,
    };
    let x = x.round();
    text::draw(img, f, px, (x, baseline(r.y, r.h, px)), &s, color);
    (x, w)
}

pub(super) fn draw(t: &Table) -> RgbImage {
    let l = &t.layout;
    let mut img = RgbImage::from_pixel(l.width, l.height, Rgb(theme::BACKGROUND));
    let f = text::ui();
    let room = (l.width - 2 * MARGIN) as f32;
    let mut y = MARGIN as i32;
    for (s, px, h, color) in [
        (t.title, TITLE_PX, TITLE_H, theme::TEXT),
        (t.subtitle, SUBTITLE_PX, SUBTITLE_H, theme::TEXT_DIM),
    ] {
        if !s.is_empty() {
            let s = text::ellipsize(f, px, s, room);
            text::draw(
                &mut img,
                f,
                px,
                (MARGIN as f32, baseline(y, h, px)),
                &s,
                color,
            );
            y += h as i32;
        }
    }
    // The header band, its top corners rounded.
    let hb = l.header;
    raster::fill_rounded(
        &mut img,
        (hb.x as f32, hb.y as f32, hb.w as f32, hb.h as f32),
        6.0,
        theme::TABLE_HEADER,
    );
    let half = hb.h / 2;
    raster::fill_rect(
        &mut img,
        Rect::new(hb.x, hb.y + half as i32, hb.w, hb.h - half),
        theme::TABLE_HEADER,
    );
    for (i, c) in t.columns.iter().enumerate() {
        if let Some(r) = l.header_cell(i) {
            write(
                &mut img,
                r,
                &c.header,
                c,
                c.header_px(),
                theme::TABLE_HEADER_TEXT,
            );
        }
    }
    for (i, (row, r)) in t.rows.iter().zip(&l.rows).enumerate() {
        let fill = match row.look {
            Look::Leader => theme::LEADER_ROW,
            _ if i % 2 == 1 => theme::ROW_SHADE,
            _ => theme::BACKGROUND,
        };
        raster::fill_rect(&mut img, *r, fill);
        if row.look == Look::Leader {
            raster::fill_rect(
                &mut img,
                Rect::new(r.x, r.y, MARK_W, r.h),
                theme::LEADER_MARK,
            );
        }
    }
    // The result cells' rules, from the header down.
    let bottom = l
        .rows
        .last()
        .map_or(hb.y + hb.h as i32, |r| r.y + r.h as i32);
    for (i, c) in t.columns.iter().enumerate() {
        if c.ruled {
            let (x, w) = l.columns[i];
            for x in [x, x + w as i32] {
                let h = (bottom - hb.y - hb.h as i32).max(0) as u32;
                raster::fill_rect(
                    &mut img,
                    Rect::new(x, hb.y + hb.h as i32, 1, h),
                    theme::CELL_LINE,
                );
            }
        }
    }
    for (i, row) in t.rows.iter().enumerate() {
        for (j, (c, s)) in t.columns.iter().zip(&row.cells).enumerate() {
            let Some(r) = l.cell(i, j) else { continue };
            if row.filled == Some(j) {
                raster::fill_rect(
                    &mut img,
                    Rect::new(r.x + 1, r.y, r.w.saturating_sub(1), r.h),
                    theme::DIAGONAL,
                );
                continue;
            }
            let color = match row.look {
                Look::Withdrawn => theme::WITHDRAWN,
                _ if c.dim => theme::TEXT_DIM,
                _ => theme::TEXT,
            };
            if c.stacked {
                // One line per result, each centred in its share of the row.
                let lines: Vec<&str> = s.split_whitespace().collect();
                let k = lines.len().max(1) as u32;
                for (m, line) in lines.iter().enumerate() {
                    let band = Rect::new(r.x, r.y + (m as u32 * r.h / k) as i32, r.w, r.h / k);
                    write(&mut img, band, line, c, c.px, color);
                }
                continue;
            }
            let (x, w) = write(&mut img, r, s, c, c.px, color);
            if row.look == Look::Withdrawn && j == NAME_COLUMN && w > 0.0 {
                // Struck through at the middle of the lower-case letters.
                let y = (baseline(r.y, r.h, c.px) - c.px * 0.32).round() as i32;
                raster::fill_rect(
                    &mut img,
                    Rect::new(x as i32, y, w.ceil() as u32, 2),
                    theme::WITHDRAWN,
                );
            }
        }
    }
    raster::fill_rect(
        &mut img,
        Rect::new(hb.x, bottom, hb.w, RULE_H),
        theme::TABLE_HEADER,
    );
    img
}
