//! The evaluation chart of an analysed game: the evaluation after every move from the first
//! player's view (above the middle line: the first player is better), clamped to
//! ±[`CLAMP_POINTS`], mates drawn as dots on the edge, the move numbers along the bottom.
//!
//! Drawn with `plotters` onto an RGB buffer and encoded as PNG with `image`; the text uses the
//! project's own font (`assets/fonts/`, through plotters' `ab_glyph` support), never a system
//! font.

use std::io::Cursor;
use std::sync::OnceLock;

use image::codecs::png::PngEncoder;
use image::{ImageEncoder, RgbImage};
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use crate::engine::search::{PlyEval, CLAMP_POINTS};
use crate::i18n::Lang;
use crate::t;

/// The font the chart's text is drawn in (registered with plotters once).
static FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSerifCJKjp-Bold-subset.otf");
/// The family name the chart asks plotters for.
const FAMILY: &str = "tegami-chart";

/// Default chart size in pixels.
pub const CHART_SIZE: (u32, u32) = (800, 400);

/// Why a chart could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    #[error("cannot draw the chart: {0}")]
    Draw(String),
    #[error("cannot encode the chart: {0}")]
    Encode(#[from] image::ImageError),
}

/// What the chart is labelled with.
#[derive(Clone, Debug)]
pub struct ChartOptions {
    pub size: (u32, u32),
    /// The title above the chart.
    pub title: String,
    /// Names of the first and second player (written at the top and bottom edge).
    pub first: String,
    pub second: String,
    /// The language of the chart's own words (the axes, "better"). A Japanese chart writes
    /// its title and axes through the renderer's font chain (the chart font has no kana), the
    /// vertical axis's word stacked as Japanese is written.
    pub lang: Lang,
}

impl Default for ChartOptions {
    fn default() -> ChartOptions {
        ChartOptions {
            size: CHART_SIZE,
            title: "Evaluation".into(),
            first: "Black".into(),
            second: "White".into(),
            lang: Lang::En,
        }
    }
}

fn font_ready() -> Result<(), ChartError> {
    static READY: OnceLock<bool> = OnceLock::new();
    let ok = *READY.get_or_init(|| register_font(FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok {
        Ok(())
    } else {
        Err(ChartError::Draw("the embedded font does not load".into()))
    }
}

fn err(e: impl std::fmt::Display) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// Draws the chart of `evals` (one per position: `evals[i]` after `i` moves) as an image.
/// Position `i` stands at `x = i / 2`, so the axis counts moves in pairs as move numbers do: at
/// `x = k` both players have made `k` moves.
pub fn eval_chart_image(evals: &[PlyEval], opts: &ChartOptions) -> Result<RgbImage, ChartError> {
    font_ready()?;
    let (w, h) = opts.size;
    let mut buf = vec![255u8; w as usize * h as usize * 3];
    let mut labels: Vec<(String, (i32, i32))> = Vec::new();
    // English goes through plotters (its font has the Latin letters); other languages are
    // drawn afterwards through the renderer's font chain.
    let plain = opts.lang == Lang::En;
    let (x_desc, y_desc) = (
        t!(opts.lang, "render-chart-move"),
        t!(opts.lang, "render-chart-points"),
    );
    let none = String::new();
    let (title, xd, yd) = if plain {
        (&opts.title, &x_desc, &y_desc)
    } else {
        (&none, &none, &none)
    };
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let last = (evals.len().max(2) - 1) as f64 / 2.0;
        let x_end = last.max(1.0);
        let lim = CLAMP_POINTS;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FAMILY, 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d(0f64..x_end, -lim..lim)
            .map_err(err)?;
        // The first player's half, lightly tinted, under the grid.
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(0.0, 0.0), (x_end, lim)],
                RGBColor(250, 246, 236).filled(),
            )))
            .map_err(err)?;
        chart
            .configure_mesh()
            .light_line_style(RGBColor(235, 235, 235))
            .bold_line_style(RGBColor(205, 205, 205))
            .x_desc(xd)
            .y_desc(yd)
            .label_style((FAMILY, 13))
            .axis_desc_style((FAMILY, 14))
            .x_label_formatter(&|x| {
                // Whole numbers only: at x = k, move k of both players has been played.
                if (x - x.round()).abs() < 1e-9 {
                    format!("{}", x.round() as i64)
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| format!("{y:+.0}"))
            .draw()
            .map_err(err)?;
        // The middle line.
        chart
            .draw_series(LineSeries::new(
                [(0.0, 0.0), (x_end, 0.0)],
                RGBColor(120, 120, 120).stroke_width(1),
            ))
            .map_err(err)?;
        let points: Vec<(f64, f64)> = evals
            .iter()
            .enumerate()
            .map(|(i, e)| (i as f64 / 2.0, e.points.clamp(-lim, lim)))
            .collect();
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                RGBColor(40, 70, 140).stroke_width(2),
            ))
            .map_err(err)?;
        // Mates: a dot on the edge.
        chart
            .draw_series(evals.iter().enumerate().filter_map(|(i, e)| {
                e.mate.map(|_| {
                    let y = if e.points >= 0.0 { lim } else { -lim };
                    Circle::new((i as f64 / 2.0, y), 4, RGBColor(190, 40, 40).filled())
                })
            }))
            .map_err(err)?;
        // The players' names are drawn after plotters, through the renderer's font chain
        // (plotters takes one font, and names come in every script): here, where they go.
        for (name, y) in [(&opts.first, lim * 0.97), (&opts.second, -lim * 0.80)] {
            labels.push((
                t!(opts.lang, "render-chart-better", name = name.as_str()),
                chart.backend_coord(&(x_end * 0.01, y)),
            ));
        }
        root.present().map_err(err)?;
    }
    let mut img = RgbImage::from_raw(w, h, buf).ok_or_else(|| err("buffer size"))?;
    let fonts = super::text::ui();
    for (text, (x, y)) in labels {
        let px = 14.0;
        let text = super::text::ellipsize(fonts, px, &text, w as f32 * 0.6);
        super::text::draw(
            &mut img,
            fonts,
            px,
            (x as f32, y as f32 + px),
            &text,
            [90, 90, 90],
        );
    }
    if !plain {
        let ink = [40, 40, 40];
        let px = 20.0;
        let title = super::text::ellipsize(fonts, px, &opts.title, w as f32 * 0.9);
        super::text::draw_centered(&mut img, fonts, px, (w as f32 / 2.0, 22.0), &title, ink);
        let px = 14.0;
        super::text::draw_centered(
            &mut img,
            fonts,
            px,
            (w as f32 / 2.0, h as f32 - 10.0),
            &x_desc,
            ink,
        );
        // Stacked, one character a line, as a vertical Japanese label.
        let chars: Vec<char> = y_desc.chars().collect();
        let top = h as f32 / 2.0 - chars.len() as f32 * px * 1.1 / 2.0;
        for (i, c) in chars.iter().enumerate() {
            let cy = top + (i as f32 + 0.5) * px * 1.1;
            super::text::draw_centered(&mut img, fonts, px, (10.0, cy), &c.to_string(), ink);
        }
    }
    Ok(img)
}

/// [`eval_chart_image`] encoded as PNG.
pub fn eval_chart_png(evals: &[PlyEval], opts: &ChartOptions) -> Result<Vec<u8>, ChartError> {
    let img = eval_chart_image(evals, opts)?;
    let mut out = Cursor::new(Vec::new());
    PngEncoder::new(&mut out).write_image(
        img.as_raw(),
        img.width(),
        img.height(),
        image::ExtendedColorType::Rgb8,
    )?;
    Ok(out.into_inner())
}
