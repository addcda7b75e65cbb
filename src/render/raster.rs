//! Low-level drawing: anti-aliased shapes computed as per-pixel coverage from distances (exact
//! enough for the few convex shapes, circles and lines the board needs), alpha blending onto RGB
//! images and RGBA sprites, and sprite blitting. Knows nothing of games.

use image::{RgbImage, RgbaImage};

use crate::render::layout::Rect;
use crate::render::theme::Rgb3;

/// Something to paint on: the RGB board image, or an RGBA sprite.
pub trait Canvas {
    fn size(&self) -> (u32, u32);
    /// Paints `color` over the pixel with opacity `a` (0..=1); pixels outside are ignored.
    fn paint(&mut self, x: i32, y: i32, color: Rgb3, a: f32);
}

#[inline]
fn mix(a: u8, b: u8, t: f32) -> u8 {
    (a as f32 + (b as f32 - a as f32) * t + 0.5) as u8
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
        if a >= 1.0 {
            p.0 = color;
        } else {
            for (d, &c) in p.0.iter_mut().zip(&color) {
                *d = mix(*d, c, a);
            }
        }
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
        let p = self.get_pixel_mut(x as u32, y as u32);
        let da = p.0[3] as f32 / 255.0;
        let out = a + da * (1.0 - a);
        if out <= 0.0 {
            return;
        }
        for (d, &c) in p.0[..3].iter_mut().zip(&color) {
            let v = (c as f32 * a + *d as f32 * da * (1.0 - a)) / out;
            *d = (v + 0.5).min(255.0) as u8;
        }
        p.0[3] = (out * 255.0 + 0.5) as u8;
    }
}

/// Fills a rectangle with one colour (no blending).
pub fn fill_rect(img: &mut RgbImage, r: Rect, color: Rgb3) {
    let (w, h) = img.dimensions();
    let x0 = r.x.max(0) as u32;
    let y0 = r.y.max(0) as u32;
    let x1 = ((r.x + r.w as i32).max(0) as u32).min(w);
    let y1 = ((r.y + r.h as i32).max(0) as u32).min(h);
    if x0 >= x1 {
        return;
    }
    let row: Vec<u8> = color.repeat((x1 - x0) as usize);
    let stride = w as usize * 3;
    let buf: &mut [u8] = img;
    for y in y0..y1 {
        let start = y as usize * stride + x0 as usize * 3;
        buf[start..start + row.len()].copy_from_slice(&row);
    }
}

/// Paints with a coverage function over a pixel box: `cov(x, y)` at the pixel's centre.
fn shade(
    c: &mut impl Canvas,
    (x0, y0, x1, y1): (f32, f32, f32, f32),
    color: Rgb3,
    cov: impl Fn(f32, f32) -> f32,
) {
    let (w, h) = c.size();
    let xs = (x0.floor() as i32 - 1).max(0);
    let ys = (y0.floor() as i32 - 1).max(0);
    let xe = (x1.ceil() as i32 + 1).min(w as i32);
    let ye = (y1.ceil() as i32 + 1).min(h as i32);
    for y in ys..ye {
        for x in xs..xe {
            let a = cov(x as f32 + 0.5, y as f32 + 0.5);
            if a > 0.0 {
                c.paint(x, y, color, a.min(1.0));
            }
        }
    }
}

fn bounds(pts: &[(f32, f32)]) -> (f32, f32, f32, f32) {
    pts.iter().fold(
        (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
        |(a, b, c, d), &(x, y)| (a.min(x), b.min(y), c.max(x), d.max(y)),
    )
}

/// Fills a convex polygon (points in either winding order), anti-aliased.
pub fn fill_convex(c: &mut impl Canvas, pts: &[(f32, f32)], color: Rgb3) {
    // Signed area decides which side of each edge is inside.
    let n = pts.len();
    let area: f32 = (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    let sign = if area >= 0.0 { 1.0 } else { -1.0 };
    let edges: Vec<(f32, f32, f32)> = (0..n)
        .map(|i| {
            let (a, b) = (pts[i], pts[(i + 1) % n]);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-6);
            // Inward normal (nx, ny) and offset: distance inside = nx*x + ny*y + k.
            let (nx, ny) = (-dy / len * sign, dx / len * sign);
            (nx, ny, -(nx * a.0 + ny * a.1))
        })
        .collect();
    shade(c, bounds(pts), color, |x, y| {
        let d = edges
            .iter()
            .map(|&(nx, ny, k)| nx * x + ny * y + k)
            .fold(f32::MAX, f32::min);
        (d + 0.5).clamp(0.0, 1.0)
    });
}

fn seg_dist(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let l2 = dx * dx + dy * dy;
    let t = if l2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (qx, qy) = (a.0 + t * dx - p.0, a.1 + t * dy - p.1);
    (qx * qx + qy * qy).sqrt()
}

/// Strokes a polyline (closed: back to the first point) with a line `width` pixels wide.
pub fn stroke(c: &mut impl Canvas, pts: &[(f32, f32)], closed: bool, width: f32, color: Rgb3) {
    let n = pts.len();
    let segs: Vec<((f32, f32), (f32, f32))> = (0..n)
        .filter(|&i| closed || i + 1 < n)
        .map(|i| (pts[i], pts[(i + 1) % n]))
        .collect();
    let (x0, y0, x1, y1) = bounds(pts);
    let hw = width / 2.0;
    shade(c, (x0 - hw, y0 - hw, x1 + hw, y1 + hw), color, |x, y| {
        let d = segs
            .iter()
            .map(|&(a, b)| seg_dist((x, y), a, b))
            .fold(f32::MAX, f32::min);
        (hw + 0.5 - d).clamp(0.0, 1.0)
    });
}

/// A straight line.
pub fn line(c: &mut impl Canvas, a: (f32, f32), b: (f32, f32), width: f32, color: Rgb3) {
    stroke(c, &[a, b], false, width, color);
}

/// A filled disc.
pub fn fill_circle(c: &mut impl Canvas, (cx, cy): (f32, f32), r: f32, color: Rgb3) {
    shade(c, (cx - r, cy - r, cx + r, cy + r), color, |x, y| {
        let d = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
        (r + 0.5 - d).clamp(0.0, 1.0)
    });
}

/// A circle's outline, `width` pixels wide, centred on radius `r`.
pub fn stroke_circle(c: &mut impl Canvas, (cx, cy): (f32, f32), r: f32, width: f32, color: Rgb3) {
    let hw = width / 2.0;
    let o = r + hw;
    shade(c, (cx - o, cy - o, cx + o, cy + o), color, |x, y| {
        let d = ((x - cx).powi(2) + (y - cy).powi(2)).sqrt();
        (hw + 0.5 - (d - r).abs()).clamp(0.0, 1.0)
    });
}

/// A filled rectangle with rounded corners (a "pill" when the radius is half the height).
pub fn fill_rounded(c: &mut impl Canvas, (x, y, w, h): (f32, f32, f32, f32), r: f32, color: Rgb3) {
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let (hx, hy) = (w / 2.0 - r, h / 2.0 - r);
    shade(c, (x, y, x + w, y + h), color, |px, py| {
        let qx = ((px - cx).abs() - hx).max(0.0);
        let qy = ((py - cy).abs() - hy).max(0.0);
        let d = (qx * qx + qy * qy).sqrt() - r;
        (0.5 - d).clamp(0.0, 1.0)
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
