//! Board image figures (issue 5): median time to render one board as PNG (target ≤ 5 ms), its
//! size at the default size (target ≤ 100 KB), and the animated GIF of a 100-move game (targets
//! ≤ 2 s and ≤ 3 MB). Prints every figure; checks that what it measured decodes.
//!
//! `cargo bench --bench render`

use std::time::{Duration, Instant};

use tegami::engine::{Color, Game, Move, Position, VariantId};
use tegami::render::{render_gif, render_png, GifOptions, PieceStyle, RenderOptions};

/// A deterministic playout generator.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// A game of `plies` moves played at random (captures preferred, so hands fill up), from the
/// first seed whose game lasts that long.
fn game(id: VariantId, plies: usize) -> Game {
    for seed in 1.. {
        let mut rng = Lcg(seed);
        let mut g = Game::new(Position::start(id));
        while g.moves().len() < plies {
            let legal = g.legal_moves();
            if legal.is_empty() {
                break;
            }
            let pos = g.position();
            let captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| pos.piece_at(m.to()).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            g.play(m).expect("a legal move");
        }
        if g.moves().len() == plies {
            return g;
        }
    }
    unreachable!()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "ok"
    } else {
        "OVER TARGET"
    }
}

fn main() {
    println!("one board, PNG at the default size (median of 100 renders; target ≤ 5 ms, ≤ 100 KB)");
    for (&id, plies) in VariantId::ALL.iter().flat_map(|id| [(id, 0), (id, 60)]) {
        let g = game(id, plies);
        let pos = g.position();
        for style in [PieceStyle::Kanji, PieceStyle::International] {
            let opts = RenderOptions {
                last_move: g.moves().last().copied(),
                viewer: Color::Black,
                style,
                names: [Some("alice".into()), Some("bob".into())],
                ..RenderOptions::default()
            };
            // The first render draws and caches the background and the piece sprites.
            let first = Instant::now();
            let png = render_png(pos, &opts).expect("renders");
            let cold = first.elapsed();
            let img = image::load_from_memory(&png).expect("a valid PNG");
            let times: Vec<Duration> = (0..100)
                .map(|_| {
                    let t = Instant::now();
                    std::hint::black_box(render_png(pos, &opts).expect("renders"));
                    t.elapsed()
                })
                .collect();
            let med = median(times);
            println!(
                "  {:8} {:13} {:9} {}x{}  median {:5.2} ms (first {:5.1} ms)  {:6.1} KB  {}",
                id.as_str(),
                style.as_str(),
                if plies == 0 { "start" } else { "60 plies" },
                img.width(),
                img.height(),
                ms(med),
                ms(cold),
                png.len() as f64 / 1024.0,
                verdict(med <= Duration::from_millis(5) && png.len() <= 100 * 1024),
            );
        }
    }

    println!("replay GIF of a 100-move game (target ≤ 2 s, ≤ 3 MB)");
    for &id in VariantId::ALL {
        let g = game(id, 100);
        let opts = GifOptions {
            board: RenderOptions {
                names: [Some("alice".into()), Some("bob".into())],
                ..RenderOptions::default()
            },
            ..GifOptions::default()
        };
        let times: Vec<Duration> = (0..3)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(render_gif(&g, &opts).expect("encodes"));
                t.elapsed()
            })
            .collect();
        let gif = render_gif(&g, &opts).expect("encodes");
        let decoder =
            image::codecs::gif::GifDecoder::new(std::io::Cursor::new(&gif)).expect("a valid GIF");
        let frames = image::AnimationDecoder::into_frames(decoder)
            .collect_frames()
            .expect("frames decode");
        assert_eq!(frames.len(), 101);
        let med = median(times);
        println!(
            "  {:8} {} frames  median {:6.0} ms  {:7.1} KB  {}",
            id.as_str(),
            frames.len(),
            ms(med),
            gif.len() as f64 / 1024.0,
            verdict(med <= Duration::from_secs(2) && gif.len() <= 3 * 1024 * 1024),
        );
    }
}
