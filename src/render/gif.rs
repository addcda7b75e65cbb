//! Animated GIF replays: one frame per position from the start to the end, each with its move
//! highlighted. The encoder is written here rather than taken from `image`, because `image`
//! writes every frame whole and quantises each one on its own: here one global palette is
//! built from the game's first and last frames (plus the mark colours), and each frame stores
//! only the rectangle that changed, with unchanged pixels transparent. A 100-move game is then
//! about a megabyte and is encoded in well under a second.
//!
//! [`render_gif_within`] keeps a replay under a size (Discord's upload limit): a long game
//! shows a sample of its positions (evenly spread, the first and the last always among them),
//! and when the file is still too big it is made again with fewer positions, a smaller
//! palette and smaller squares, each step sized from the file just made.

use std::collections::HashMap;

use image::RgbImage;

use crate::engine::notation;
use crate::engine::notation::Notation;
use crate::engine::{Game, Move, Outcome, Position, Variant};
use crate::i18n::{words, Lang};
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
    /// How the captions write the moves (the result is in `board.lang`).
    pub notation: Notation,
}

impl Default for GifOptions {
    fn default() -> GifOptions {
        GifOptions {
            board: RenderOptions::default(),
            frame_ms: 1000,
            first_frame_ms: 1500,
            last_frame_ms: 4000,
            captions: true,
            notation: Notation::Western,
        }
    }
}

/// A replay of a game, from its start position to its current one (with its result, if over).
pub fn render_gif(game: &Game, opts: &GifOptions) -> Result<Vec<u8>, RenderError> {
    let all: Vec<usize> = (0..=game.moves().len()).collect();
    replay(
        game.start(),
        game.moves(),
        game.outcome(),
        opts,
        &all,
        MAX_COLORS,
    )
}

/// A replay made to fit a size ([`render_gif_within`]), and how it was made to.
#[derive(Clone, Debug)]
pub struct FittedGif {
    pub data: Vec<u8>,
    /// Positions shown (the start and the last one always among them).
    pub frames: usize,
    /// Positions of the game (its moves and one).
    pub positions: usize,
    /// Side of a square in pixels.
    pub square_px: u32,
    /// Colours of the palette.
    pub colors: usize,
    /// Files made before this one fitted (0: the first fitted).
    pub retries: usize,
}

impl FittedGif {
    /// Whether every position of the game is shown.
    pub fn every_position(&self) -> bool {
        self.frames == self.positions
    }
}

/// Positions a replay shows at most: a longer game shows an even sample of them.
pub const MAX_FRAMES: usize = 320;
/// The fewest positions a shortened replay shows.
const MIN_FRAMES: usize = 40;
/// The fewest colours a replay is reduced to.
const MIN_COLORS: usize = 32;
/// The smallest square a replay is reduced to, in pixels.
const MIN_SQUARE: u32 = 28;
/// Files made at most before giving up.
const ATTEMPTS: usize = 6;
/// Colours of a full palette (index 255 is transparency).
const MAX_COLORS: usize = 255;

/// A replay of a game no bigger than `max_bytes`: every position for a game of up to
/// [`MAX_FRAMES`] positions, else an even sample of that many; made again smaller (fewer
/// positions, fewer colours, smaller squares, in that order, each sized from the file just
/// made) while it is too big. `None` when even the smallest replay does not fit.
pub fn render_gif_within(
    game: &Game,
    opts: &GifOptions,
    max_bytes: usize,
) -> Result<Option<FittedGif>, RenderError> {
    let positions = game.moves().len() + 1;
    let v = game.variant();
    let default_sq = opts
        .board
        .square_px
        .unwrap_or_else(|| crate::render::default_square(v.files(), v.ranks()));
    let mut frames = positions.min(MAX_FRAMES);
    let mut colors = MAX_COLORS;
    let mut square = default_sq;
    for retries in 0..ATTEMPTS {
        let shown = sample(positions, frames);
        let o = GifOptions {
            board: RenderOptions {
                square_px: Some(square),
                ..opts.board.clone()
            },
            ..opts.clone()
        };
        let data = replay(
            game.start(),
            game.moves(),
            game.outcome(),
            &o,
            &shown,
            colors,
        )?;
        if data.len() <= max_bytes {
            return Ok(Some(FittedGif {
                data,
                frames: shown.len(),
                positions,
                square_px: square,
                colors,
                retries,
            }));
        }
        // Aim a tenth under the limit, from what this file weighed per position.
        let ratio = max_bytes as f64 * 0.9 / data.len() as f64;
        if frames > MIN_FRAMES {
            frames = ((frames as f64 * ratio) as usize).clamp(MIN_FRAMES, frames - 1);
        } else if colors > MIN_COLORS {
            colors = MIN_COLORS;
        } else if square > MIN_SQUARE {
            // The area goes with the square of the side.
            square = ((square as f64 * ratio.sqrt()) as u32).clamp(MIN_SQUARE, square - 1);
        } else {
            break;
        }
    }
    Ok(None)
}

/// `n` positions of `positions`, evenly spread, the first and the last always among them.
fn sample(positions: usize, n: usize) -> Vec<usize> {
    if n >= positions || positions <= 2 {
        return (0..positions).collect();
    }
    let n = n.max(2);
    let last = positions - 1;
    let mut shown: Vec<usize> = (0..n)
        .map(|i| ((i as u128 * last as u128 + (n as u128 - 1) / 2) / (n as u128 - 1)) as usize)
        .collect();
    shown.dedup();
    shown
}

/// A replay of `moves` played from `start`. The moves must be legal (as a `Game`'s are): they are
/// played without checking.
pub fn render_gif_moves(
    start: &Position,
    moves: &[Move],
    opts: &GifOptions,
) -> Result<Vec<u8>, RenderError> {
    let all: Vec<usize> = (0..=moves.len()).collect();
    replay(start, moves, None, opts, &all, MAX_COLORS)
}

/// `Black wins by checkmate`, `draw by repetition`.
pub fn describe_outcome(v: &Variant, o: Outcome) -> String {
    notation::result_words(o, |c| capitalised(v.side_name(c)))
}

/// [`describe_outcome`] in `lang`: `先手の勝ち（詰み）`.
pub fn describe_outcome_in(lang: Lang, v: &Variant, o: Outcome) -> String {
    match lang {
        Lang::En => describe_outcome(v, o),
        _ => words::result(lang, o, |c| words::side(lang, v, c)),
    }
}

/// The caption of each frame: the move that led to it, numbered as every record numbers moves
/// (`12.`, `12…`), and the result on the last one.
fn captions(
    start: &Position,
    moves: &[Move],
    outcome: Option<Outcome>,
    opts: &GifOptions,
) -> Vec<Option<String>> {
    let mut captions: Vec<Option<String>> = vec![None; moves.len() + 1];
    let mut p = start.clone();
    let first = start.side_to_move();
    let mut last = None;
    for (i, &m) in moves.iter().enumerate() {
        captions[i + 1] = Some(format!(
            "{} {}",
            notation::move_number(i, first),
            notation::written(&p, m, opts.notation, last)
        ));
        last = Some(m.to());
        p.make(m);
    }
    if let Some(o) = outcome {
        let text = describe_outcome_in(opts.board.lang, start.variant(), o);
        let last = &mut captions[moves.len()];
        *last = Some(match last.take() {
            Some(mv) => format!("{mv} · {text}"),
            None => text,
        });
    }
    captions
}

/// The replay of the positions `shown` (indices of positions, increasing, the first 0 and
/// the last `moves.len()`), with a palette of at most `colors` colours.
fn replay(
    start: &Position,
    moves: &[Move],
    outcome: Option<Outcome>,
    opts: &GifOptions,
    shown: &[usize],
    colors: usize,
) -> Result<Vec<u8>, RenderError> {
    let captions = if opts.captions {
        captions(start, moves, outcome, opts)
    } else {
        vec![None; moves.len() + 1]
    };
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
    let mut palette = Palette::build(&[&first, &last], colors);
    let mut enc = Encoder::new(w as u16, h as u16, &palette)?;
    let delay = |ms: u32| (ms / 10).min(u16::MAX as u32) as u16;
    let mut prev = palette.index_image(&first);
    let first_delay = if moves.is_empty() {
        opts.last_frame_ms
    } else {
        opts.first_frame_ms
    };
    enc.frame(&prev, None, delay(first_delay))?;
    let mut ply = 0;
    for &next in shown.iter().filter(|&&p| p > 0 && p <= moves.len()) {
        while ply < next {
            pos.make(moves[ply]);
            ply += 1;
        }
        let img = if ply == moves.len() {
            last.clone()
        } else {
            frame(&pos, ply)
        };
        let cur = palette.index_image(&img);
        let ms = if ply == moves.len() {
            opts.last_frame_ms
        } else {
            opts.frame_ms
        };
        enc.frame(&cur, Some(&prev), delay(ms))?;
        prev = cur;
    }
    enc.finish()
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
    /// The `max` (at most 255) most frequent colours of the sample images, the theme's flat
    /// colours first.
    fn build(samples: &[&RgbImage], max: usize) -> Palette {
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
            .take(max.clamp(16, MAX_COLORS))
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

/// A GIF89a writer (the `gif` crate): global palette, looping, frames as changed rectangles.
struct Encoder {
    enc: gif::Encoder<Vec<u8>>,
    w: u16,
    h: u16,
}

impl Encoder {
    fn new(w: u16, h: u16, palette: &Palette) -> Result<Encoder, RenderError> {
        let mut flat = Vec::with_capacity(256 * 3);
        for i in 0..256 {
            flat.extend_from_slice(&palette.colors.get(i).copied().unwrap_or([0, 0, 0]));
        }
        let gif_err = |e: gif::EncodingError| RenderError::Gif(e.to_string());
        let mut enc =
            gif::Encoder::new(Vec::with_capacity(1 << 20), w, h, &flat).map_err(gif_err)?;
        enc.set_repeat(gif::Repeat::Infinite).map_err(gif_err)?;
        Ok(Encoder { enc, w, h })
    }

    /// Adds a frame of palette indices (`w * h`), stored as the rectangle that differs from
    /// `prev` (the whole frame when there is none), unchanged pixels transparent.
    fn frame(&mut self, cur: &[u8], prev: Option<&[u8]>, delay: u16) -> Result<(), RenderError> {
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
        let frame = gif::Frame {
            delay,
            dispose: gif::DisposalMethod::Keep,
            transparent: prev.map(|_| TRANSPARENT),
            left: x0 as u16,
            top: y0 as u16,
            width: (x1 - x0) as u16,
            height: (y1 - y0) as u16,
            buffer: std::borrow::Cow::Owned(data),
            ..gif::Frame::default()
        };
        self.enc
            .write_frame(&frame)
            .map_err(|e| RenderError::Gif(e.to_string()))
    }

    fn finish(self) -> Result<Vec<u8>, RenderError> {
        self.enc
            .into_inner()
            .map_err(|e| RenderError::Gif(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::input::parse_move;
    use crate::engine::{Game, VariantId};

    #[test]
    fn captions_number_moves_in_pairs_as_the_record_does_and_end_with_the_result() {
        let mut g = Game::new(Position::start(VariantId::Shogi));
        for t in ["7g7f", "3c3d", "2g2f"] {
            let m = parse_move(g.position(), t).unwrap();
            g.play(m).unwrap();
        }
        let o = Outcome::Win {
            winner: crate::engine::Color::Black,
            reason: crate::engine::Reason::Declaration,
        };
        let c = captions(g.start(), g.moves(), Some(o), &GifOptions::default());
        assert_eq!(c[0], None);
        assert_eq!(c[1].as_deref(), Some("1. P-7f"));
        assert_eq!(c[2].as_deref(), Some("1… P-3d"));
        assert_eq!(c[3].as_deref(), Some("2. P-2f · Black wins by declaration"));
    }
}
