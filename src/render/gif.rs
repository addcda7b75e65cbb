//! Animated GIF replays: one frame per position from the start to the end, each with its move
//! highlighted. The encoder is written here rather than taken from `image`, because `image`
//! writes every frame whole and quantises each one on its own: here one global palette is
//! built from the game's first and last frames (plus the mark colours), and each frame stores
//! only the rectangle that changed, with unchanged pixels transparent. A 100-move game is then
//! about a megabyte and is encoded in well under a second.

use std::collections::HashMap;

use image::RgbImage;

use crate::engine::notation;
use crate::engine::{Game, Move, Outcome, Position, Variant};
use crate::render::strip::capitalised;
use crate::render::{render_image, theme, RenderError, RenderOptions};

/// How a replay is drawn and timed.
#[derive(Clone, Debug)]
pub struct GifOptions {
    /// Viewer, style, names and size, as for a single image (`last_move` and `marked` are set
    /// per frame).
    pub board: RenderOptions,
    /// How long each position is shown, in milliseconds.
    pub frame_ms: u32,
    /// How long the start position is shown.
    pub first_frame_ms: u32,
    /// How long the final position is shown before the replay loops.
    pub last_frame_ms: u32,
    /// Write each move (`12. P-7f`) and, at the end, the result in the frames.
    pub captions: bool,
}

impl Default for GifOptions {
    fn default() -> GifOptions {
        GifOptions {
            board: RenderOptions::default(),
            frame_ms: 1000,
            first_frame_ms: 1500,
            last_frame_ms: 4000,
            captions: true,
        }
    }
}

/// A replay of a game, from its start position to its current one (with its result, if over).
pub fn render_gif(game: &Game, opts: &GifOptions) -> Result<Vec<u8>, RenderError> {
    replay(game.start(), game.moves(), game.outcome(), opts)
}

/// A replay of `moves` played from `start`. The moves must be legal (as a `Game`'s are): they are
/// played without checking.
pub fn render_gif_moves(
    start: &Position,
    moves: &[Move],
    opts: &GifOptions,
) -> Result<Vec<u8>, RenderError> {
    replay(start, moves, None, opts)
}

/// `Black wins by checkmate`, `draw by repetition`.
pub fn describe_outcome(v: &Variant, o: Outcome) -> String {
    match o {
        Outcome::Win { winner, reason } => format!(
            "{} wins by {}",
            capitalised(v.side_name(winner)),
            reason.as_str().replace('-', " ")
        ),
        Outcome::Draw { reason } => format!("draw by {}", reason.as_str().replace('-', " ")),
    }
}

fn replay(
    start: &Position,
    moves: &[Move],
    outcome: Option<Outcome>,
    opts: &GifOptions,
) -> Result<Vec<u8>, RenderError> {
    // The caption of each frame: the move that led to it, and the result on the last one.
    let mut captions: Vec<Option<String>> = vec![None; moves.len() + 1];
    if opts.captions {
        let mut p = start.clone();
        for (i, &m) in moves.iter().enumerate() {
            captions[i + 1] = Some(format!("{}. {}", p.ply() + 1, notation::human(&p, m)));
            p.make(m);
        }
        if let Some(o) = outcome {
            let text = describe_outcome(start.variant(), o);
            let last = &mut captions[moves.len()];
            *last = Some(match last.take() {
                Some(mv) => format!("{mv} · {text}"),
                None => text,
            });
        }
    }
    let frame = |pos: &Position, ply: usize| {
        let o = RenderOptions {
            last_move: ply.checked_sub(1).map(|i| moves[i]),
            marked: Vec::new(),
            caption: captions[ply].clone(),
            show_turn: opts.board.show_turn && !(ply == moves.len() && outcome.is_some()),
            ..opts.board.clone()
        };
        render_image(pos, &o)
    };
    let mut pos = start.clone();
    let first = frame(&pos, 0);
    let (w, h) = first.dimensions();
    if w > u16::MAX as u32 || h > u16::MAX as u32 {
        return Err(RenderError::TooLarge(w, h));
    }
    let last = {
        let mut p = start.clone();
        for &m in moves {
            p.make(m);
        }
        frame(&p, moves.len())
    };
    let mut palette = Palette::build(&[&first, &last]);
    let mut enc = Encoder::new(w as u16, h as u16, &palette);
    let delay = |ms: u32| (ms / 10).min(u16::MAX as u32) as u16;
    let mut prev = palette.index_image(&first);
    let first_delay = if moves.is_empty() {
        opts.last_frame_ms
    } else {
        opts.first_frame_ms
    };
    enc.frame(&prev, None, delay(first_delay));
    for (i, &m) in moves.iter().enumerate() {
        pos.make(m);
        let img = if i + 1 == moves.len() {
            last.clone()
        } else {
            frame(&pos, i + 1)
        };
        let cur = palette.index_image(&img);
        let ms = if i + 1 == moves.len() {
            opts.last_frame_ms
        } else {
            opts.frame_ms
        };
        enc.frame(&cur, Some(&prev), delay(ms));
        prev = cur;
    }
    Ok(enc.finish())
}

/// The index of "unchanged" in delta frames.
const TRANSPARENT: u8 = 255;

/// A palette of up to 255 colours (index 255 is transparent) and a memo of nearest colours.
struct Palette {
    colors: Vec<[u8; 3]>,
    exact: HashMap<u32, u8>,
}

fn pack(c: [u8; 3]) -> u32 {
    (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32
}

impl Palette {
    /// The most frequent colours of the sample images, the theme's flat colours first.
    fn build(samples: &[&RgbImage]) -> Palette {
        let mut count: HashMap<u32, u64> = HashMap::new();
        for img in samples {
            let mut last = u32::MAX;
            let mut run = 0u64;
            for p in img.pixels() {
                let c = pack(p.0);
                if c == last {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    *count.entry(last).or_default() += run;
                }
                last = c;
                run = 1;
            }
            if run > 0 {
                *count.entry(last).or_default() += run;
            }
        }
        for c in [
            theme::HIGHLIGHT,
            theme::CHECK,
            theme::TURN_STRIP,
            theme::TURN_CHIP,
            theme::CHECK_CHIP,
            theme::BACKGROUND,
            theme::PROMOTED,
            theme::GOLD,
            theme::BADGE,
            theme::BADGE_TEXT,
        ] {
            *count.entry(pack(c)).or_default() += u64::MAX / 4;
        }
        let mut all: Vec<(u32, u64)> = count.into_iter().collect();
        all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let colors: Vec<[u8; 3]> = all
            .iter()
            .take(255)
            .map(|&(c, _)| [(c >> 16) as u8, (c >> 8) as u8, c as u8])
            .collect();
        let exact = colors
            .iter()
            .enumerate()
            .map(|(i, &c)| (pack(c), i as u8))
            .collect();
        Palette { colors, exact }
    }

    fn nearest(&self, c: [u8; 3]) -> u8 {
        let mut best = (u32::MAX, 0u8);
        for (i, p) in self.colors.iter().enumerate() {
            let d = |a: u8, b: u8| (a as i32 - b as i32).pow(2) as u32;
            // Weighted towards green, as the eye is.
            let dist = 2 * d(c[0], p[0]) + 4 * d(c[1], p[1]) + 3 * d(c[2], p[2]);
            if dist < best.0 {
                best = (dist, i as u8);
            }
        }
        best.1
    }

    fn index_image(&mut self, img: &RgbImage) -> Vec<u8> {
        let mut out = Vec::with_capacity((img.width() * img.height()) as usize);
        let mut last = (u32::MAX, 0u8);
        for p in img.pixels() {
            let c = pack(p.0);
            if c != last.0 {
                let i = match self.exact.get(&c) {
                    Some(&i) => i,
                    None => {
                        let i = self.nearest(p.0);
                        self.exact.insert(c, i);
                        i
                    }
                };
                last = (c, i);
            }
            out.push(last.1);
        }
        out
    }
}

/// A GIF89a writer: global palette, looping, frames as changed rectangles.
struct Encoder {
    out: Vec<u8>,
    w: u16,
    h: u16,
}

impl Encoder {
    fn new(w: u16, h: u16, palette: &Palette) -> Encoder {
        let mut out = Vec::with_capacity(1 << 20);
        out.extend_from_slice(b"GIF89a");
        out.extend_from_slice(&w.to_le_bytes());
        out.extend_from_slice(&h.to_le_bytes());
        // Global colour table of 256 entries, 8 bits per primary.
        out.extend_from_slice(&[0xF7, 0, 0]);
        for i in 0..256 {
            out.extend_from_slice(&palette.colors.get(i).copied().unwrap_or([0, 0, 0]));
        }
        // Loop forever.
        out.extend_from_slice(&[0x21, 0xFF, 0x0B]);
        out.extend_from_slice(b"NETSCAPE2.0");
        out.extend_from_slice(&[0x03, 0x01, 0x00, 0x00, 0x00]);
        Encoder { out, w, h }
    }

    /// Adds a frame of palette indices (`w * h`), stored as the rectangle that differs from
    /// `prev` (the whole frame when there is none).
    fn frame(&mut self, cur: &[u8], prev: Option<&[u8]>, delay: u16) {
        let (w, h) = (self.w as usize, self.h as usize);
        let (x0, y0, x1, y1) = match prev {
            None => (0, 0, w, h),
            Some(p) => {
                let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
                for y in 0..h {
                    let row = y * w;
                    let (a, b) = (&cur[row..row + w], &p[row..row + w]);
                    if a == b {
                        continue;
                    }
                    let first = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(0);
                    let last = w
                        - 1
                        - a.iter()
                            .rev()
                            .zip(b.iter().rev())
                            .position(|(x, y)| x != y)
                            .unwrap_or(0);
                    x0 = x0.min(first);
                    x1 = x1.max(last + 1);
                    y0 = y0.min(y);
                    y1 = y + 1;
                }
                if x0 >= x1 {
                    (0, 0, 1, 1)
                } else {
                    (x0, y0, x1, y1)
                }
            }
        };
        let mut data = Vec::with_capacity((x1 - x0) * (y1 - y0));
        for y in y0..y1 {
            for x in x0..x1 {
                let i = y * w + x;
                let same = prev.is_some_and(|p| p[i] == cur[i]);
                data.push(if same { TRANSPARENT } else { cur[i] });
            }
        }
        // Graphic control: keep the previous frame (disposal 1), transparency on delta frames.
        let packed = (1 << 2) | u8::from(prev.is_some());
        self.out.extend_from_slice(&[0x21, 0xF9, 0x04, packed]);
        self.out.extend_from_slice(&delay.to_le_bytes());
        self.out.extend_from_slice(&[TRANSPARENT, 0x00]);
        self.out.push(0x2C);
        for v in [x0, y0, x1 - x0, y1 - y0] {
            self.out.extend_from_slice(&(v as u16).to_le_bytes());
        }
        self.out.push(0x00);
        self.out.push(8);
        let lzw = lzw_encode(&data);
        for chunk in lzw.chunks(255) {
            self.out.push(chunk.len() as u8);
            self.out.extend_from_slice(chunk);
        }
        self.out.push(0x00);
    }

    fn finish(mut self) -> Vec<u8> {
        self.out.push(0x3B);
        self.out
    }
}

/// Packs codes least significant bit first.
struct Bits {
    out: Vec<u8>,
    acc: u32,
    n: u32,
}

impl Bits {
    fn put(&mut self, code: u16, size: u32) {
        self.acc |= (code as u32) << self.n;
        self.n += size;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// GIF's variable-width LZW with 8-bit symbols; the table is cleared when it holds 4096 codes.
fn lzw_encode(data: &[u8]) -> Vec<u8> {
    const CLEAR: u16 = 256;
    const END: u16 = 257;
    const SLOTS: usize = 1 << 13;
    // Open addressing over (prefix << 8 | byte) keys; a generation number clears it for free.
    let mut keys = vec![0u32; SLOTS];
    let mut vals = vec![0u16; SLOTS];
    let mut gens = vec![0u32; SLOTS];
    let mut gen = 1u32;
    let slot = |key: u32| (key.wrapping_mul(0x9E37_79B1) >> 19) as usize;

    let mut bits = Bits {
        out: Vec::with_capacity(data.len() / 2),
        acc: 0,
        n: 0,
    };
    let mut size = 9u32;
    let mut next = END + 1;
    bits.put(CLEAR, size);
    let Some((&first, rest)) = data.split_first() else {
        bits.put(END, size);
        return bits.finish();
    };
    let mut prefix = first as u16;
    for &b in rest {
        let key = (prefix as u32) << 8 | b as u32;
        let mut i = slot(key);
        let found = loop {
            if gens[i] != gen {
                break None;
            }
            if keys[i] == key {
                break Some(vals[i]);
            }
            i = (i + 1) & (SLOTS - 1);
        };
        if let Some(code) = found {
            prefix = code;
            continue;
        }
        bits.put(prefix, size);
        // `i` is the free slot the probe stopped on.
        keys[i] = key;
        vals[i] = next;
        gens[i] = gen;
        if next == 1 << size && size < 12 {
            size += 1;
        }
        next += 1;
        if next == 4096 {
            bits.put(CLEAR, size);
            gen += 1;
            size = 9;
            next = END + 1;
        }
        prefix = b as u16;
    }
    bits.put(prefix, size);
    if next == 1 << size && size < 12 {
        size += 1;
    }
    bits.put(END, size);
    bits.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes GIF LZW (the textbook decoder), to check the encoder on its own.
    fn lzw_decode(bytes: &[u8]) -> Vec<u8> {
        let mut pos = 0usize;
        let mut read = |size: u32| -> u16 {
            let mut v = 0u32;
            for i in 0..size {
                let bit = (bytes[pos / 8] >> (pos % 8)) & 1;
                v |= (bit as u32) << i;
                pos += 1;
            }
            v as u16
        };
        let mut table: Vec<Vec<u8>> = Vec::new();
        let reset = |t: &mut Vec<Vec<u8>>| {
            t.clear();
            t.extend((0..=255u8).map(|b| vec![b]));
            t.push(Vec::new());
            t.push(Vec::new());
        };
        reset(&mut table);
        let mut size = 9;
        let mut out = Vec::new();
        let mut prev: Option<Vec<u8>> = None;
        loop {
            let code = read(size) as usize;
            if code == 256 {
                reset(&mut table);
                size = 9;
                prev = None;
                continue;
            }
            if code == 257 {
                break;
            }
            let entry = if code < table.len() {
                table[code].clone()
            } else {
                let p = prev.clone().unwrap();
                let mut e = p.clone();
                e.push(p[0]);
                e
            };
            if let Some(p) = prev {
                if table.len() < 4096 {
                    let mut e = p;
                    e.push(entry[0]);
                    table.push(e);
                }
            }
            if table.len() == 1 << size && size < 12 {
                size += 1;
            }
            out.extend_from_slice(&entry);
            prev = Some(entry);
        }
        out
    }

    #[test]
    fn lzw_round_trips() {
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 16) as u8
        };
        let cases: Vec<Vec<u8>> = vec![
            vec![],
            vec![7],
            vec![0; 10_000],
            (0..20_000).map(|i| (i % 7) as u8).collect(),
            (0..50_000).map(|_| rnd()).collect(),
            (0..50_000).map(|_| rnd() % 3).collect(),
        ];
        for data in cases {
            assert_eq!(
                lzw_decode(&lzw_encode(&data)),
                data,
                "length {}",
                data.len()
            );
        }
    }
}
