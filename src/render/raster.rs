//! Low-level drawing on `imageproc`. Knows nothing of games.
//!
//! Every shape is drawn by imageproc's fills (`draw_polygon_mut`, `draw_filled_circle_mut`,
//! `draw_filled_rect_mut`) into a coverage mask [`SS`] times larger than the picture, and the
//! mask is averaged down with `image`'s box-filter `thumbnail`: that is the anti-aliasing.
//! imageproc's own anti-aliased polygon takes whole-pixel corners (the wedges' small hand pieces
//! would come out lopsided), and it has no anti-aliased circles or wide lines; at 4× the corners
//! land on quarter pixels and a wide line is a polygon per segment with discs at the joints.
//! Text is drawn by imageproc's `draw_text_mut` into the same kind of mask (see `text.rs`), and
//! outlines grow a mask with imageproc's `grayscale_dilate`. A mask is blended onto the picture
//! with imageproc's `pixelops::interpolate` (RGB) or `image`'s `Blend` (RGBA sprites).
//!
//! Hand-written, because neither crate has it:
//! - [`blit`] and [`blit_region`]: an RGBA sprite over the RGB board. `image::imageops::overlay`
//!   needs both images in one pixel type, and turning the board into RGBA and back costs more
//!   than the whole picture; this is an integer blend that skips the sprite's empty pixels.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use image::imageops;
use image::{GrayImage, Luma, Pixel, Rgb, RgbImage, Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_filled_rect_mut, draw_polygon_mut};
use imageproc::pixelops::interpolate;
use imageproc::point::Point;

use crate::render::layout::Rect;
use crate::render::theme::Rgb3;

/// The supersampling factor of coverage masks.
const SS: u32 = 4;

/// Something to paint on: the RGB board image, or an RGBA sprite.
pub trait Canvas {
    fn size(&self) -> (u32, u32);
    /// Paints `color` over the pixel with opacity `a` (0..=1); pixels outside are ignored.
    fn paint(&mut self, x: i32, y: i32, color: Rgb3, a: f32);
}

impl Canvas for RgbImage {
    fn size(&self) -> (u32, u32) {
        self.dimensions()
    }

    #[inline]
    fn paint(&mut self, x: i32, y: i32, color: Rgb3, a: f32) {
        let (w, h) = self.dimensions();
        if a <= 0.0 || x < 0 || y < 0 || x as u32 >= w || y as u32 >= h {
            return;
        }
        let p = self.get_pixel_mut(x as u32, y as u32);
        *p = if a >= 1.0 {
            Rgb(color)
        } else {
            interpolate(Rgb(color), *p, a)
        };
    }
}

/// Sprites round each paint's opacity to eighths: at these sizes the edges look the same, and
/// the fewer distinct edge colours make the PNG a fifth smaller.
impl Canvas for RgbaImage {
    fn size(&self) -> (u32, u32) {
        self.dimensions()
    }

    #[inline]
    fn paint(&mut self, x: i32, y: i32, color: Rgb3, a: f32) {
        let (w, h) = self.dimensions();
        if a <= 0.0 || x < 0 || y < 0 || x as u32 >= w || y as u32 >= h {
            return;
        }
        let a = (a.min(1.0) * 8.0).round() / 8.0;
        if a <= 0.0 {
            return;
        }
        let [r, g, b] = color;
        self.get_pixel_mut(x as u32, y as u32)
            .blend(&Rgba([r, g, b, (a * 255.0).round() as u8]));
    }
}

/// A coverage mask at picture resolution: `mask`'s pixel (0, 0) is the picture's `origin`.
pub struct Coverage {
    pub origin: (i32, i32),
    pub mask: GrayImage,
}

impl Coverage {
    /// Paints `color` through the mask at opacity `opacity`.
    pub fn paint(&self, c: &mut impl Canvas, color: Rgb3, opacity: f32) {
        let (ox, oy) = self.origin;
        for (x, y, p) in self.mask.enumerate_pixels() {
            if p.0[0] > 0 {
                c.paint(
                    ox + x as i32,
                    oy + y as i32,
                    color,
                    p.0[0] as f32 / 255.0 * opacity,
                );
            }
        }
    }
}

/// Where a shape's mask is drawn: a box of whole pixels, `SS` times larger.
struct Supersampled {
    x0: i32,
    y0: i32,
    w: u32,
    h: u32,
    big: GrayImage,
}

impl Supersampled {
    /// A mask over the pixels that the box `(x0, y0, x1, y1)` touches (plus one around), cut to
    /// the canvas; `None` when nothing of it is on the canvas.
    fn new(size: (u32, u32), (x0, y0, x1, y1): (f32, f32, f32, f32)) -> Option<Supersampled> {
        let xs = (x0.floor() as i32 - 1).max(0);
        let ys = (y0.floor() as i32 - 1).max(0);
        let xe = (x1.ceil() as i32 + 1).min(size.0 as i32);
        let ye = (y1.ceil() as i32 + 1).min(size.1 as i32);
        if xs >= xe || ys >= ye {
            return None;
        }
        let (w, h) = ((xe - xs) as u32, (ye - ys) as u32);
        Some(Supersampled {
            x0: xs,
            y0: ys,
            w,
            h,
            big: GrayImage::new(w * SS, h * SS),
        })
    }

    /// A picture point in the big mask's pixel coordinates. imageproc fills the pixels whose
    /// integer coordinates lie inside a shape, so a big pixel stands for its centre.
    fn at(&self, (x, y): (f32, f32)) -> Point<i32> {
        let k = SS as f32;
        Point::new(
            ((x - self.x0 as f32) * k - 0.5).round() as i32,
            ((y - self.y0 as f32) * k - 0.5).round() as i32,
        )
    }

    fn polygon(&mut self, pts: &[(f32, f32)], on: bool) {
        let mut poly: Vec<Point<i32>> = pts.iter().map(|&p| self.at(p)).collect();
        poly.dedup();
        while poly.len() > 1 && poly.first() == poly.last() {
            poly.pop();
        }
        if poly.len() >= 3 {
            draw_polygon_mut(&mut self.big, &poly, luma(on));
        }
    }

    fn disc(&mut self, c: (f32, f32), r: f32, on: bool) {
        let p = self.at(c);
        let r = (r * SS as f32).round() as i32;
        if r >= 0 {
            draw_filled_circle_mut(&mut self.big, (p.x, p.y), r, luma(on));
        }
    }

    fn rect(&mut self, (x, y, w, h): (f32, f32, f32, f32)) {
        let a = self.at((x, y));
        let b = self.at((x + w, y + h));
        if b.x > a.x && b.y > a.y {
            let r =
                imageproc::rect::Rect::at(a.x, a.y).of_size((b.x - a.x) as u32, (b.y - a.y) as u32);
            draw_filled_rect_mut(&mut self.big, r, luma(true));
        }
    }

    /// A line `2 * hw` wide through `pts`, with round joints and ends.
    fn polyline(&mut self, pts: &[(f32, f32)], closed: bool, hw: f32) {
        let n = pts.len();
        for i in (0..n).filter(|&i| closed || i + 1 < n) {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt();
            if len > 0.0 {
                let (nx, ny) = (-dy / len * hw, dx / len * hw);
                self.polygon(
                    &[
                        (a.0 + nx, a.1 + ny),
                        (b.0 + nx, b.1 + ny),
                        (b.0 - nx, b.1 - ny),
                        (a.0 - nx, a.1 - ny),
                    ],
                    true,
                );
            }
        }
        for &p in pts {
            self.disc(p, hw, true);
        }
    }

    /// The mask at picture resolution (each pixel the mean of its `SS`×`SS` block).
    fn coverage(self) -> Coverage {
        Coverage {
            origin: (self.x0, self.y0),
            mask: imageops::thumbnail(&self.big, self.w, self.h),
        }
    }
}

fn luma(on: bool) -> Luma<u8> {
    Luma([if on { 255 } else { 0 }])
}

/// A shape's identity for the cache: which function, its numbers (as bits) and the canvas size
/// (shapes are cut to the canvas).
type ShapeKey = (u8, Vec<u32>, (u32, u32));

/// Draws into a supersampled mask over `bounds` and paints `color` through it. Masks are kept:
/// the same shapes (the turn strip, the side marks, the count badges, every piece's outline) come
/// back in every picture, and drawing a large one at 4× costs more than the rest of the picture.
fn shade(
    c: &mut impl Canvas,
    (tag, nums): (u8, &[f32]),
    bounds: (f32, f32, f32, f32),
    color: Rgb3,
    draw: impl FnOnce(&mut Supersampled),
) {
    type Cache = Mutex<HashMap<ShapeKey, Arc<Coverage>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key: ShapeKey = (tag, nums.iter().map(|n| n.to_bits()).collect(), c.size());
    let hit = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&key)
        .cloned();
    let cov = match hit {
        Some(cov) => cov,
        None => {
            let Some(mut s) = Supersampled::new(c.size(), bounds) else {
                return;
            };
            draw(&mut s);
            let cov = Arc::new(s.coverage());
            let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
            // Bounded: shapes depend on the layout only, so this is never reached in practice.
            if cache.len() >= 4096 {
                cache.clear();
            }
            cache.insert(key, cov.clone());
            cov
        }
    };
    cov.paint(c, color, 1.0);
}

fn bounds(pts: &[(f32, f32)]) -> (f32, f32, f32, f32) {
    pts.iter().fold(
        (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
        |(a, b, c, d), &(x, y)| (a.min(x), b.min(y), c.max(x), d.max(y)),
    )
}

fn grow((x0, y0, x1, y1): (f32, f32, f32, f32), d: f32) -> (f32, f32, f32, f32) {
    (x0 - d, y0 - d, x1 + d, y1 + d)
}

/// Fills a rectangle with one colour (no blending).
pub fn fill_rect(img: &mut RgbImage, r: Rect, color: Rgb3) {
    if r.w > 0 && r.h > 0 {
        let r = imageproc::rect::Rect::at(r.x, r.y).of_size(r.w, r.h);
        draw_filled_rect_mut(img, r, Rgb(color));
    }
}

/// Fills a convex polygon (points in either winding order), anti-aliased.
pub fn fill_convex(c: &mut impl Canvas, pts: &[(f32, f32)], color: Rgb3) {
    let nums: Vec<f32> = pts.iter().flat_map(|&(x, y)| [x, y]).collect();
    shade(c, (0, &nums), bounds(pts), color, |s| s.polygon(pts, true));
}

/// Strokes a polyline (closed: back to the first point) with a line `width` pixels wide.
pub fn stroke(c: &mut impl Canvas, pts: &[(f32, f32)], closed: bool, width: f32, color: Rgb3) {
    let hw = width / 2.0;
    let mut nums: Vec<f32> = pts.iter().flat_map(|&(x, y)| [x, y]).collect();
    nums.extend([hw, closed as u8 as f32]);
    shade(c, (1, &nums), grow(bounds(pts), hw), color, |s| {
        s.polyline(pts, closed, hw)
    });
}

/// A straight line.
pub fn line(c: &mut impl Canvas, a: (f32, f32), b: (f32, f32), width: f32, color: Rgb3) {
    stroke(c, &[a, b], false, width, color);
}

/// A filled disc.
pub fn fill_circle(c: &mut impl Canvas, (cx, cy): (f32, f32), r: f32, color: Rgb3) {
    shade(
        c,
        (2, &[cx, cy, r]),
        (cx - r, cy - r, cx + r, cy + r),
        color,
        |s| s.disc((cx, cy), r, true),
    );
}

/// A circle's outline, `width` pixels wide, centred on radius `r`.
pub fn stroke_circle(c: &mut impl Canvas, (cx, cy): (f32, f32), r: f32, width: f32, color: Rgb3) {
    let o = r + width / 2.0;
    let nums = [cx, cy, r, width];
    shade(
        c,
        (3, &nums),
        (cx - o, cy - o, cx + o, cy + o),
        color,
        |s| {
            s.disc((cx, cy), o, true);
            s.disc((cx, cy), r - width / 2.0, false);
        },
    );
}

/// A filled rectangle with rounded corners (a "pill" when the radius is half the height).
pub fn fill_rounded(c: &mut impl Canvas, (x, y, w, h): (f32, f32, f32, f32), r: f32, color: Rgb3) {
    let r = r.min(w / 2.0).min(h / 2.0);
    shade(c, (4, &[x, y, w, h, r]), (x, y, x + w, y + h), color, |s| {
        s.rect((x + r, y, w - 2.0 * r, h));
        s.rect((x, y + r, w, h - 2.0 * r));
        for (cx, cy) in [
            (x + r, y + r),
            (x + w - r, y + r),
            (x + r, y + h - r),
            (x + w - r, y + h - r),
        ] {
            s.disc((cx, cy), r, true);
        }
    });
}

/// Blends an RGBA pixel over an RGB one.
#[inline]
fn blend_over(d: &mut [u8; 3], s: [u8; 4]) {
    let a = s[3] as u32;
    for (d, &s) in d.iter_mut().zip(&s[..3]) {
        *d = ((s as u32 * a + *d as u32 * (255 - a) + 127) / 255) as u8;
    }
}

/// Draws a sprite with its top-left corner at `(x, y)`, blending by its alpha.
pub fn blit(dst: &mut RgbImage, src: &RgbaImage, x: i32, y: i32) {
    let (dw, dh) = dst.dimensions();
    let (sw, sh) = src.dimensions();
    for sy in 0..sh {
        let ty = y + sy as i32;
        if ty < 0 || ty as u32 >= dh {
            continue;
        }
        for sx in 0..sw {
            let tx = x + sx as i32;
            if tx < 0 || tx as u32 >= dw {
                continue;
            }
            let s = src.get_pixel(sx, sy).0;
            if s[3] == 0 {
                continue;
            }
            let d = dst.get_pixel_mut(tx as u32, ty as u32);
            if s[3] == 255 {
                d.0 = [s[0], s[1], s[2]];
            } else {
                blend_over(&mut d.0, s);
            }
        }
    }
}

/// Draws the part of `lines` (an overlay as large as `dst`) that lies in `r` over `dst`: used to
/// redraw the board's lines over a square filled with a mark.
pub fn blit_region(dst: &mut RgbImage, lines: &RgbaImage, r: Rect) {
    let (w, h) = dst.dimensions();
    let x0 = r.x.max(0) as u32;
    let y0 = r.y.max(0) as u32;
    let x1 = ((r.x + r.w as i32).max(0) as u32).min(w);
    let y1 = ((r.y + r.h as i32).max(0) as u32).min(h);
    for y in y0..y1 {
        for x in x0..x1 {
            let s = lines.get_pixel(x, y).0;
            if s[3] == 0 {
                continue;
            }
            blend_over(&mut dst.get_pixel_mut(x, y).0, s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ink(img: &RgbImage) -> usize {
        img.pixels().filter(|p| p.0 != [255, 255, 255]).count()
    }

    #[test]
    fn a_disc_covers_about_its_area_with_soft_edges() {
        let mut img = RgbImage::from_pixel(40, 40, Rgb([255, 255, 255]));
        fill_circle(&mut img, (20.0, 20.0), 10.0, [0, 0, 0]);
        let dark: f32 = img.pixels().map(|p| 1.0 - p.0[0] as f32 / 255.0).sum();
        let area = std::f32::consts::PI * 100.0;
        assert!((dark - area).abs() < area * 0.04, "{dark} vs {area}");
        // Anti-aliased: some edge pixels are neither white nor black.
        assert!(img.pixels().any(|p| p.0[0] > 20 && p.0[0] < 235));
        // Centred: the ink is symmetric left to right.
        let col = |x: u32| (0..40).filter(|&y| img.get_pixel(x, y).0[0] < 128).count();
        assert_eq!(col(12), col(27));
    }

    #[test]
    fn a_ring_leaves_its_middle_empty_and_a_wide_line_is_wide() {
        let mut img = RgbImage::from_pixel(40, 40, Rgb([255, 255, 255]));
        stroke_circle(&mut img, (20.0, 20.0), 12.0, 3.0, [0, 0, 0]);
        assert_eq!(img.get_pixel(20, 20).0, [255, 255, 255]);
        assert_eq!(img.get_pixel(20, 8).0, [0, 0, 0]);
        let mut img = RgbImage::from_pixel(40, 40, Rgb([255, 255, 255]));
        line(&mut img, (5.0, 20.0), (35.0, 20.0), 4.0, [0, 0, 0]);
        let dark_rows = (0..40).filter(|&y| img.get_pixel(20, y).0[0] < 128).count();
        assert_eq!(dark_rows, 4);
        assert!(ink(&img) < 40 * 8);
    }

    #[test]
    fn shapes_off_the_canvas_are_ignored() {
        let mut img = RgbImage::from_pixel(10, 10, Rgb([255, 255, 255]));
        fill_convex(
            &mut img,
            &[(-30.0, -30.0), (-20.0, -30.0), (-25.0, -20.0)],
            [0, 0, 0],
        );
        fill_rounded(&mut img, (50.0, 50.0, 10.0, 4.0), 2.0, [0, 0, 0]);
        assert_eq!(ink(&img), 0);
    }

    #[test]
    fn sprites_blend_with_alpha() {
        let mut s = RgbaImage::new(20, 20);
        fill_circle(&mut s, (10.0, 10.0), 6.0, [200, 0, 0]);
        assert_eq!(s.get_pixel(10, 10).0, [200, 0, 0, 255]);
        assert_eq!(s.get_pixel(0, 0).0[3], 0);
        let edge: Vec<u8> = s
            .pixels()
            .map(|p| p.0[3])
            .filter(|&a| a > 0 && a < 255)
            .collect();
        assert!(!edge.is_empty());
        // Opacity in eighths.
        assert!(edge
            .iter()
            .all(|&a| (a as f32 / 255.0 * 8.0 - (a as f32 / 255.0 * 8.0).round()).abs() < 0.05));
    }
}
