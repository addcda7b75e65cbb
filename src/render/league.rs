//! The league pictures: a league's standings and a round robin's crosstable, drawn as PNG tables
//! in the board pictures' look (their background, colours, font chain and margins).
//!
//! Both are one table under a title and a subtitle: a header row on a dark band, then one row
//! per player on alternating shades, closed by a rule. Every word comes translated from the
//! caller. Numbers are right-aligned; names are left-aligned, drawn through the same font chain
//! as the names on the boards (any script; characters no font has become the missing sign) and
//! shortened with an ellipsis to their column.
//!
//! - Standings: place, name, points, games played, then one column per tie-break. The leader's
//!   row (place `1`, or `=1` when shared) is tinted gold with a gold mark at its left end; a
//!   withdrawn player's row is written in grey, the name struck through.
//! - Crosstable: rows numbered 1..n with the names, columns numbered 1..n (not named, so the
//!   table stays narrow) with ruled result cells, the diagonal filled dark, the points at the
//!   right.
//!
//! A picture is as wide as its columns, title and subtitle want, held between [`MIN_WIDTH`] and
//! [`MAX_WIDTH`] by widening or narrowing the name column. A crosstable too wide for that
//! stacks a double round robin's two results in their cell and draws its results smaller (a
//! 30-player table fits), and past that lets the picture grow rather than cut the grid. A
//! forfeit loss's minus sign, which the fonts lack, is drawn as an en dash. A picture is as
//! tall as its rows. [`TableLayout`] tells where the header, the rows and the cells are, for
//! callers and tests.
//!
//! This file checks the input and chooses the columns and their widths; `table.rs` places and
//! draws them. Knows nothing of the league's rules (`crate::league` computes what is written
//! here).

mod table;

use std::collections::BTreeSet;

use image::RgbImage;

use crate::render::png_bytes;

pub use table::TableLayout;
use table::{
    draw, place, top_width, widest, Align, Column, Look, Row, Table, HEADER_PX, MARGIN, PAD, ROW_H,
    TEXT_PX,
};

/// One row of a standings table.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingsRow {
    /// The place shown ("1", "2", "=3"…; "–" for a withdrawn player).
    pub place: String,
    pub name: String,
    /// Points as shown ("2½").
    pub points: String,
    /// Games played, as shown.
    pub played: String,
    /// The tie-break values, one per column of `StandingsTable::tiebreaks`, as shown.
    pub tiebreaks: Vec<String>,
    /// Withdrawn (drawn greyed, struck or marked).
    pub withdrawn: bool,
}

/// A league's standings, as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingsTable {
    /// "Spring league — Shogi" (any script).
    pub title: String,
    /// "Round 3 of 5" / "Final standings" …
    pub subtitle: String,
    /// Header words: place, player, points, played.
    pub place_header: String,
    pub name_header: String,
    pub points_header: String,
    pub played_header: String,
    /// Tie-break column headers ("SB", "Buchholz", "Bh-1", "H2H").
    pub tiebreaks: Vec<String>,
    pub rows: Vec<StandingsRow>,
}

/// A round robin's crosstable: `cells[i][j]` is what player i scored against player j
/// ("1", "½", "0", "+" a forfeit win, "−" a forfeit loss, "" not played yet; in a double round
/// robin two results such as "1 ½"); the diagonal is ignored (drawn as a filled cell).
#[derive(Clone, Debug, PartialEq)]
pub struct Crosstable {
    pub title: String,
    pub subtitle: String,
    pub name_header: String,
    pub points_header: String,
    pub names: Vec<String>,
    pub points: Vec<String>,
    pub cells: Vec<Vec<String>>,
}

/// Why a league picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error("could not encode the picture: {0}")]
    Encode(#[from] image::ImageError),
    #[error("{got} rows are more than the {max} a picture shows")]
    TooManyRows { got: usize, max: usize },
    /// `row` counts from 0.
    #[error("standings row {row} has {got} tie-breaks for {want} tie-break columns")]
    Tiebreaks { row: usize, got: usize, want: usize },
    #[error("the crosstable has {names} names, {points} point totals and {rows} rows of results")]
    CrosstableLengths {
        names: usize,
        points: usize,
        rows: usize,
    },
    /// `row` counts from 0.
    #[error("crosstable row {row} has {got} results for {want} players")]
    CrosstableRow { row: usize, got: usize, want: usize },
    #[error("the columns need {needed} pixels, more than the {max} a picture may be wide")]
    TooWide { needed: u32, max: u32 },
}

/// The most rows a standings picture draws (the caller passes at most this many).
pub const MAX_STANDINGS_ROWS: usize = 64;
/// The most players a crosstable draws: the project's round-robin cap.
pub const MAX_CROSSTABLE_PLAYERS: usize = 30;
/// The narrowest and widest picture (a crosstable's grid may push past the widest, see the
/// module's header).
pub const MIN_WIDTH: u32 = 480;
pub const MAX_WIDTH: u32 = 1000;
/// The column of the names, in both pictures (after the place or the number).
pub const NAME_COLUMN: usize = 1;

/// A crosstable's results and column numbers, and how small they may be drawn to keep the
/// picture within [`MAX_WIDTH`].
const CELL_PX: f32 = 15.0;
const MIN_CELL_PX: f32 = 11.0;
/// The largest size of two results stacked in one cell.
const STACKED_PX: f32 = 12.0;

/// Inside a crosstable's result cell, on each side of its results.
const CELL_PAD: f32 = 5.0;
/// The widest a number column gets (longer words are shortened), and the narrowest name column.
const MAX_COLUMN: f32 = 150.0;
const MIN_NAME: u32 = 140;
const MIN_CROSSTABLE_NAME: u32 = 120;
/// The widest a crosstable's result may be drawn (at [`CELL_PX`]).
const MAX_RESULT: f32 = 48.0;

/// A number column's width: its header and values whole, up to [`MAX_COLUMN`].
fn number_width<'a>(c: &Column, values: impl IntoIterator<Item = &'a str>) -> u32 {
    let w = widest(c.header_px(), [c.header.as_str()]).max(widest(c.px, values));
    (w.min(MAX_COLUMN) + 2.0 * c.pad).ceil() as u32
}

/// The name column's width given the other columns: what is left of a picture as wide as the
/// table (`natural` names), the title and the subtitle want, held between [`MIN_WIDTH`] and
/// [`MAX_WIDTH`]; never under `min_name`.
fn name_width(others: u32, natural: u32, min_name: u32, top: u32) -> u32 {
    let want = (2 * MARGIN + others + natural.max(min_name)).max(top);
    let width = want.clamp(MIN_WIDTH, MAX_WIDTH);
    width.saturating_sub(2 * MARGIN + others).max(min_name)
}

/// Whether a place is first: `1`, or `=1` shared.
fn is_first(place: &str) -> bool {
    place.trim().trim_start_matches('=').trim() == "1"
}

fn check_standings(t: &StandingsTable) -> Result<(), PictureError> {
    if t.rows.len() > MAX_STANDINGS_ROWS {
        return Err(PictureError::TooManyRows {
            got: t.rows.len(),
            max: MAX_STANDINGS_ROWS,
        });
    }
    let want = t.tiebreaks.len();
    match t.rows.iter().position(|r| r.tiebreaks.len() != want) {
        Some(row) => Err(PictureError::Tiebreaks {
            row,
            got: t.rows[row].tiebreaks.len(),
            want,
        }),
        None => Ok(()),
    }
}

fn standings_table(t: &StandingsTable) -> Result<Table<'_>, PictureError> {
    check_standings(t)?;
    let mut columns = vec![
        Column::new(&t.place_header, Align::Right, TEXT_PX),
        Column::new(&t.name_header, Align::Left, TEXT_PX),
        Column::new(&t.points_header, Align::Right, TEXT_PX),
        Column::new(&t.played_header, Align::Right, TEXT_PX),
    ];
    columns.extend(
        t.tiebreaks
            .iter()
            .map(|h| Column::new(h, Align::Right, TEXT_PX)),
    );
    let rows: Vec<Row> = t
        .rows
        .iter()
        .map(|r| {
            let mut cells = vec![
                r.place.clone(),
                r.name.clone(),
                r.points.clone(),
                r.played.clone(),
            ];
            cells.extend(r.tiebreaks.iter().cloned());
            let look = if r.withdrawn {
                Look::Withdrawn
            } else if is_first(&r.place) {
                Look::Leader
            } else {
                Look::Plain
            };
            Row {
                cells,
                look,
                filled: None,
            }
        })
        .collect();
    let mut widths: Vec<u32> = columns
        .iter()
        .enumerate()
        .map(|(i, c)| number_width(c, rows.iter().map(|r| r.cells[i].as_str())))
        .collect();
    let others: u32 = widths.iter().sum::<u32>() - widths[NAME_COLUMN];
    let needed = 2 * MARGIN + others + MIN_NAME;
    if needed > MAX_WIDTH {
        return Err(PictureError::TooWide {
            needed,
            max: MAX_WIDTH,
        });
    }
    let names = widest(TEXT_PX, t.rows.iter().map(|r| r.name.as_str()))
        .max(widest(HEADER_PX, [t.name_header.as_str()]));
    let natural = (names + 2.0 * PAD).ceil() as u32;
    widths[NAME_COLUMN] = name_width(others, natural, MIN_NAME, top_width(&t.title, &t.subtitle));
    Ok(Table {
        title: &t.title,
        subtitle: &t.subtitle,
        layout: place(&t.title, &t.subtitle, &widths, rows.len()),
        columns,
        rows,
    })
}

fn check_crosstable(t: &Crosstable) -> Result<usize, PictureError> {
    let n = t.names.len();
    if n > MAX_CROSSTABLE_PLAYERS {
        return Err(PictureError::TooManyRows {
            got: n,
            max: MAX_CROSSTABLE_PLAYERS,
        });
    }
    if t.points.len() != n || t.cells.len() != n {
        return Err(PictureError::CrosstableLengths {
            names: n,
            points: t.points.len(),
            rows: t.cells.len(),
        });
    }
    match t.cells.iter().position(|r| r.len() != n) {
        Some(row) => Err(PictureError::CrosstableRow {
            row,
            got: t.cells[row].len(),
            want: n,
        }),
        None => Ok(n),
    }
}

/// How a crosstable's results are drawn.
struct ResultCells {
    px: f32,
    /// The result columns' width.
    width: u32,
    /// Two results (or more) of a cell one above the other.
    stacked: bool,
}

/// How a crosstable's results are drawn: square cells at [`CELL_PX`] when `n` of them fit
/// within [`MAX_WIDTH`] beside the other columns (`others` wide) and the narrowest name column;
/// else as narrow as the results and column numbers allow, a double round robin's two results
/// stacked, drawn smaller if need be (down to [`MIN_CELL_PX`]).
fn result_cells(t: &Crosstable, n: usize, others: u32) -> ResultCells {
    let numbers: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    let results: BTreeSet<&str> = t
        .cells
        .iter()
        .enumerate()
        .flat_map(|(i, r)| r.iter().enumerate().filter(move |&(j, _)| j != i))
        .map(|(_, s)| s.as_str())
        .collect();
    let parts: BTreeSet<&str> = results.iter().flat_map(|s| s.split_whitespace()).collect();
    let cell = |px: f32, texts: &BTreeSet<&str>| {
        let content = widest(px, texts.iter().copied())
            .min(MAX_RESULT * px / CELL_PX)
            .max(widest(
                HEADER_PX.min(px),
                numbers.iter().map(String::as_str),
            ));
        (content + 2.0 * CELL_PAD).ceil() as u32
    };
    let room = MAX_WIDTH.saturating_sub(2 * MARGIN + others + MIN_CROSSTABLE_NAME);
    let fits = |w: u32| w * n as u32 <= room;
    let square = cell(CELL_PX, &results).max(ROW_H);
    if fits(square) {
        return ResultCells {
            px: CELL_PX,
            width: square,
            stacked: false,
        };
    }
    let stacked = results
        .iter()
        .any(|s| s.split_whitespace().nth(1).is_some());
    let (texts, mut px) = if stacked {
        (&parts, STACKED_PX)
    } else {
        (&results, CELL_PX)
    };
    while px > MIN_CELL_PX && !fits(cell(px, texts)) {
        px -= 0.5;
    }
    ResultCells {
        px,
        width: cell(px, texts),
        stacked,
    }
}

fn crosstable_table(t: &Crosstable) -> Result<Table<'_>, PictureError> {
    let n = check_crosstable(t)?;
    let mut number = Column::new("", Align::Right, HEADER_PX);
    number.dim = true;
    let name = Column::new(&t.name_header, Align::Left, TEXT_PX);
    let points = Column::new(&t.points_header, Align::Right, TEXT_PX);
    let numbers: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
    let number_w = number_width(&number, numbers.iter().map(String::as_str));
    let points_w = number_width(&points, t.points.iter().map(String::as_str));
    let cells = result_cells(t, n, number_w + points_w);
    let mut columns = vec![number, name];
    columns.extend(numbers.iter().map(|h| Column {
        pad: CELL_PAD,
        ruled: true,
        stacked: cells.stacked,
        ..Column::new(h, Align::Center, cells.px)
    }));
    columns.push(points);
    let rows: Vec<Row> = (0..n)
        .map(|i| {
            let mut cells = vec![numbers[i].clone(), t.names[i].clone()];
            cells.extend(t.cells[i].iter().cloned());
            cells.push(t.points[i].clone());
            Row {
                cells,
                look: Look::Plain,
                filled: Some(NAME_COLUMN + 1 + i),
            }
        })
        .collect();
    let others = number_w + points_w + n as u32 * cells.width;
    let names = widest(TEXT_PX, t.names.iter().map(String::as_str))
        .max(widest(HEADER_PX, [t.name_header.as_str()]));
    let natural = (names + 2.0 * PAD).ceil() as u32;
    let name_w = name_width(
        others,
        natural,
        MIN_CROSSTABLE_NAME,
        top_width(&t.title, &t.subtitle),
    );
    let mut widths = vec![number_w, name_w];
    widths.extend(std::iter::repeat_n(cells.width, n));
    widths.push(points_w);
    Ok(Table {
        title: &t.title,
        subtitle: &t.subtitle,
        layout: place(&t.title, &t.subtitle, &widths, n),
        columns,
        rows,
    })
}

/// Where the parts of a standings picture are.
pub fn standings_layout(t: &StandingsTable) -> Result<TableLayout, PictureError> {
    Ok(standings_table(t)?.layout)
}

/// Draws a league's standings.
pub fn standings_image(t: &StandingsTable) -> Result<RgbImage, PictureError> {
    Ok(draw(&standings_table(t)?))
}

/// [`standings_image`] as PNG bytes (encoded as the board pictures are).
pub fn standings_png(t: &StandingsTable) -> Result<Vec<u8>, PictureError> {
    Ok(png_bytes(&standings_image(t)?)?)
}

/// Where the parts of a crosstable picture are.
pub fn crosstable_layout(t: &Crosstable) -> Result<TableLayout, PictureError> {
    Ok(crosstable_table(t)?.layout)
}

/// Draws a round robin's crosstable.
pub fn crosstable_image(t: &Crosstable) -> Result<RgbImage, PictureError> {
    Ok(draw(&crosstable_table(t)?))
}

/// [`crosstable_image`] as PNG bytes (encoded as the board pictures are).
pub fn crosstable_png(t: &Crosstable) -> Result<Vec<u8>, PictureError> {
    Ok(png_bytes(&crosstable_image(t)?)?)
}

#[cfg(test)]
mod tests {
    use super::table::{drawable, HEADER_H, RULE_H};
    use super::*;
    use crate::render::text;

    fn row(place: &str, name: &str) -> StandingsRow {
        StandingsRow {
            place: place.into(),
            name: name.into(),
            points: "1½".into(),
            played: "3".into(),
            tiebreaks: vec!["4".into()],
            withdrawn: false,
        }
    }

    fn table(rows: Vec<StandingsRow>) -> StandingsTable {
        StandingsTable {
            title: "Spring league".into(),
            subtitle: "Round 3 of 5".into(),
            place_header: "#".into(),
            name_header: "Player".into(),
            points_header: "Points".into(),
            played_header: "Games".into(),
            tiebreaks: vec!["SB".into()],
            rows,
        }
    }

    fn crosstable(n: usize, result: &str) -> Crosstable {
        Crosstable {
            title: "Round robin".into(),
            subtitle: String::new(),
            name_header: "Player".into(),
            points_header: "Pts".into(),
            names: (1..=n).map(|i| format!("Player {i}")).collect(),
            points: vec!["0".into(); n],
            cells: vec![vec![result.to_string(); n]; n],
        }
    }

    /// The columns lie side by side from the left margin to the right one, the header right
    /// above the rows, the rows one under the other down to the rule and the bottom margin.
    fn assert_tiled(l: &TableLayout) {
        let mut x = MARGIN as i32;
        for &(cx, w) in &l.columns {
            assert_eq!(cx, x);
            x += w as i32;
        }
        assert_eq!(x as u32, l.width - MARGIN);
        assert_eq!(
            (l.header.x, l.header.w),
            (MARGIN as i32, l.width - 2 * MARGIN)
        );
        let mut y = l.header.y + l.header.h as i32;
        for r in &l.rows {
            assert_eq!((r.x, r.y, r.w, r.h), (l.header.x, y, l.header.w, ROW_H));
            y += ROW_H as i32;
        }
        assert_eq!(y as u32 + RULE_H + MARGIN, l.height);
    }

    #[test]
    fn the_leader_is_place_one_alone_or_shared() {
        for (place, first) in [
            ("1", true),
            ("=1", true),
            (" 1 ", true),
            ("10", false),
            ("=3", false),
            ("–", false),
            ("", false),
        ] {
            assert_eq!(is_first(place), first, "{place:?}");
        }
    }

    #[test]
    fn columns_tile_the_picture_within_its_bounds() {
        let short = table(vec![row("1", "Al")]);
        let l = standings_layout(&short).unwrap();
        assert_tiled(&l);
        assert_eq!(l.width, MIN_WIDTH);
        let long = table(vec![row("1", &"Very long name ".repeat(20))]);
        let l = standings_layout(&long).unwrap();
        assert_tiled(&l);
        assert_eq!(l.width, MAX_WIDTH);
        // Between the bounds, the picture is as wide as the longest name wants.
        let mid = table(vec![row("1", &"Medium name ".repeat(4))]);
        let l = standings_layout(&mid).unwrap();
        let name = text::width(text::ui(), TEXT_PX, &mid.rows[0].name);
        assert_eq!(l.columns[NAME_COLUMN].1, (name + 2.0 * PAD).ceil() as u32);
        assert!(MIN_WIDTH < l.width && l.width < MAX_WIDTH);
        for n in [0, 1, 4, 12, MAX_CROSSTABLE_PLAYERS] {
            let l = crosstable_layout(&crosstable(n, "½")).unwrap();
            assert_tiled(&l);
            assert!(
                (MIN_WIDTH..=MAX_WIDTH).contains(&l.width),
                "{n}: {}",
                l.width
            );
            assert_eq!(l.columns.len(), n + 3);
        }
    }

    #[test]
    fn no_title_and_no_rows_leave_a_header_alone() {
        let mut t = table(Vec::new());
        t.title.clear();
        t.subtitle.clear();
        let l = standings_layout(&t).unwrap();
        assert_eq!(l.header.y, MARGIN as i32);
        assert_eq!(l.top().h, MARGIN);
        let img = standings_image(&t).unwrap();
        assert_eq!(
            img.dimensions(),
            (l.width, MARGIN + HEADER_H + RULE_H + MARGIN)
        );
        assert!(crosstable_image(&crosstable(0, "")).is_ok());
    }

    #[test]
    fn results_are_square_when_they_fit_and_a_large_double_round_robin_is_stacked() {
        let numbers = 4 * MARGIN;
        let small = result_cells(&crosstable(6, "1 ½"), 6, numbers);
        assert!(!small.stacked);
        assert_eq!(small.px, CELL_PX);
        assert!(small.width >= ROW_H);
        let large = result_cells(&crosstable(30, "1 ½"), 30, numbers);
        assert!(large.stacked && large.px <= STACKED_PX);
        let single = result_cells(&crosstable(30, "½"), 30, numbers);
        assert!(!single.stacked && single.px < CELL_PX && single.px >= MIN_CELL_PX);
        assert!(large.width * 30 <= MAX_WIDTH);
    }

    #[test]
    fn the_minus_of_a_forfeit_loss_is_drawn_from_a_font() {
        for s in ["\u{2212}", "1 \u{2212}"] {
            for (c, font) in text::fonts_used(text::ui(), &drawable(s)) {
                assert!(font.is_some() && c != text::MISSING, "{c:?} of {s:?}");
            }
        }
        assert_eq!(drawable("+"), "+");
    }

    #[test]
    fn names_no_font_has_are_drawn_as_the_missing_sign_without_failing() {
        let t = table(vec![
            row("1", "👨\u{200D}👩\u{200D}👧 family"),
            row("2", "שלום"),
            row("3", "\u{200D}\u{FE0F}"),
            row("4", ""),
        ]);
        let img = standings_image(&t).unwrap();
        let l = standings_layout(&t).unwrap();
        let signs = table(vec![
            row("1", "◇ family"),
            row("2", "◇"),
            row("3", ""),
            row("4", ""),
        ]);
        assert_eq!(img, standings_image(&signs).unwrap());
        assert_eq!(l, standings_layout(&signs).unwrap());
    }
}
