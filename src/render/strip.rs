//! The players' strips above and below the board: each side's mark (a black or white wedge, a
//! red or blue disc), name, whose turn it is (and check), the caption of the last move, and the
//! pieces in hand with their counts.

use image::RgbImage;

use crate::engine::{Color, Piece, Position, Variant};
use crate::i18n::words;
use crate::render::layout::{Layout, Rect};
use crate::render::{hand_of, pieces, raster, text, theme, RenderOptions};
use crate::t;

/// `black` → `Black`.
pub fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The share of the row the name and side label of side `c` may take: 60%, or 45% when the row
/// also shows a clock (the clock, and the chip or the caption, take the rest).
fn name_share(opts: &RenderOptions, c: Color) -> f32 {
    if opts.clocks[c.index()].is_some() {
        0.45
    } else {
        0.6
    }
}

/// The name as side `c`'s strip shows it and the side label after it: name and label share the
/// left of the row (`name_share`; the chip or the caption take the right), the name shortened
/// with an ellipsis when it does not fit.
fn fit_name(l: &Layout, v: &Variant, opts: &RenderOptions, c: Color) -> Option<(String, String)> {
    let name = opts.names[c.index()].as_ref()?;
    let name_r = l.name_rect(c)?;
    let font = text::ui();
    let h = name_r.h as f32;
    let px = h * 0.6;
    // Where the name starts: after the side mark (see `draw_strip`).
    let x = name_r.x as f32 + l.coord_band() as f32 / 2.0 + h * 0.62 + h * 0.25;
    let left_end = name_r.x as f32 + name_r.w as f32 * name_share(opts, c);
    let label = format!("· {}", words::side(opts.lang, v, c));
    let (lpx, gap) = (px * 0.8, px * 0.4);
    let room = left_end - x - gap - text::width(font, lpx, &label);
    Some((text::ellipsize(font, px, name, room), label))
}

pub(crate) fn shown_name(
    l: &Layout,
    v: &Variant,
    opts: &RenderOptions,
    c: Color,
) -> Option<String> {
    fit_name(l, v, opts, c).map(|(name, _)| name)
}

/// A player's strip: side mark, name, "to move", pieces in hand with counts.
pub(crate) fn draw_strip(
    img: &mut RgbImage,
    pos: &Position,
    l: &Layout,
    opts: &RenderOptions,
    c: Color,
) {
    let (Some(name_r), Some(hand_r)) = (l.name_rect(c), l.hand_rect(c)) else {
        return;
    };
    let v = pos.variant();
    let to_move = opts.show_turn && pos.side_to_move() == c;
    if to_move {
        let top = name_r.y.min(hand_r.y);
        let strip = Rect::new(name_r.x, top, name_r.w, name_r.h + hand_r.h);
        raster::fill_rounded(
            img,
            (
                strip.x as f32,
                strip.y as f32,
                strip.w as f32,
                strip.h as f32,
            ),
            l.square_size() as f32 * 0.12,
            theme::TURN_STRIP,
        );
    }
    let h = name_r.h as f32;
    let font = text::ui();
    let px = h * 0.6;
    let (_, cy) = name_r.center();
    let baseline = cy + px * 0.36;
    // Side mark: a black or white wedge (☗ ☖) in the shogi games, a red or blue disc in Shanghai.
    let mut x = name_r.x as f32 + l.coord_band() as f32 / 2.0;
    let m = h * 0.62;
    match pieces::side_colors(v.id()) {
        Some(cols) => raster::fill_circle(img, (x + m / 2.0, cy), m * 0.4, cols[c.index()]),
        None => {
            let (w, hh) = (m * 0.7, m * 0.86);
            let (l0, t0) = (x + (m - w) / 2.0, cy - hh / 2.0);
            let mut pts = vec![
                (l0 + w / 2.0, t0),
                (l0 + w * 0.9, t0 + hh * 0.22),
                (l0 + w, t0 + hh),
                (l0, t0 + hh),
                (l0 + w * 0.1, t0 + hh * 0.22),
            ];
            if c != l.viewer() {
                for p in &mut pts {
                    p.1 = 2.0 * cy - p.1;
                }
            }
            let fill = if c == Color::Black {
                theme::INK
            } else {
                theme::WEDGE_FILL
            };
            raster::fill_convex(img, &pts, fill);
            raster::stroke(img, &pts, true, 1.2, theme::INK);
        }
    }
    x += m + h * 0.25;
    let side = words::side(opts.lang, v, c);
    let left_end = name_r.x as f32 + name_r.w as f32 * name_share(opts, c);
    match fit_name(l, v, opts, c) {
        Some((name, label)) => {
            let (lpx, gap) = (px * 0.8, px * 0.4);
            x += text::draw(img, font, px, (x, baseline), &name, theme::TEXT);
            text::draw(img, font, lpx, (x + gap, baseline), &label, theme::TEXT_DIM);
        }
        None => {
            text::draw(img, font, px, (x, baseline), &side, theme::TEXT);
        }
    }
    // The clock, at the right end of the row; the chip or the caption come left of it.
    let mut right = (name_r.x + name_r.w as i32) as f32 - l.coord_band() as f32 / 2.0;
    if let Some(clock) = &opts.clocks[c.index()] {
        let kpx = px * 0.78;
        let clock = text::ellipsize(font, kpx, clock, name_r.w as f32 * 0.22);
        let tw = text::width(font, kpx, &clock);
        text::draw(
            img,
            font,
            kpx,
            (right - tw, cy + kpx * 0.34),
            &clock,
            theme::TEXT,
        );
        right -= tw + h * 0.35;
    }
    if to_move {
        let check = pos.is_in_check(c);
        let label = if check {
            t!(opts.lang, "render-to-move-check")
        } else {
            t!(opts.lang, "render-to-move")
        };
        let label = label.as_str();
        let cpx = px * 0.78;
        let tw = text::width(font, cpx, label);
        let (cw, ch) = (tw + h * 0.7, h * 0.72);
        let cx0 = right - cw;
        let chip = if check {
            theme::CHECK_CHIP
        } else {
            theme::TURN_CHIP
        };
        raster::fill_rounded(img, (cx0, cy - ch / 2.0, cw, ch), ch / 2.0, chip);
        text::draw(
            img,
            font,
            cpx,
            (cx0 + h * 0.35, cy + cpx * 0.34),
            label,
            theme::BADGE_TEXT,
        );
    }
    if !to_move && pos.side_to_move() != c {
        if let Some(caption) = &opts.caption {
            let cpx = px * 0.82;
            let caption = text::ellipsize(font, cpx, caption, right - left_end - h * 0.5);
            let tw = text::width(font, cpx, &caption);
            text::draw(
                img,
                font,
                cpx,
                (right - tw, baseline),
                &caption,
                theme::TEXT,
            );
        }
    }
    let hand = hand_of(pos, c);
    if hand.is_empty() && v.spec.drops.enabled {
        let (hx, hy) = (
            hand_r.x as f32 + l.coord_band() as f32 / 2.0,
            hand_r.center().1 + px * 0.3,
        );
        text::draw(
            img,
            font,
            px * 0.8,
            (hx, hy),
            &t!(opts.lang, "render-no-hand"),
            theme::TEXT_DIM,
        );
    }
    for slot in l.hand_slots(c, &hand) {
        let s = pieces::sprite(
            v,
            Piece::new(slot.kind, c),
            c == l.viewer(),
            opts.style,
            slot.piece.w,
        );
        raster::blit(img, &s, slot.piece.x, slot.piece.y);
        if let Some(b) = slot.badge {
            let center = b.center();
            raster::fill_circle(img, center, b.w as f32 / 2.0, theme::BADGE);
            let n = slot.count.to_string();
            let npx = text::fit(
                font,
                b.w as f32 * 0.8,
                &n,
                b.w as f32 * 0.62,
                b.h as f32 * 0.55,
            );
            text::draw_centered(img, font, npx, center, &n, theme::BADGE_TEXT);
        }
    }
}
