//! Board images: what a player relies on, checked in the decoded PNG (and GIF). Every variant
//! the engine has is drawn in both piece styles and from both sides, in a position reached by
//! play with pieces in hand, a promoted piece, a check and a last move.
//!
//! Set `TEGAMI_RENDER_SAMPLES=DIR` to also write the images to DIR for a look.

use image::{AnimationDecoder, RgbImage};

use tegami::engine::notation::fen;
use tegami::engine::{Color, Game, Move, Piece, PieceKind, Position, Square, Variant, VariantId};
use tegami::render::{
    self, hand_of, king_square, layout, render_diagram, render_gif, render_png, theme, BoardStyle,
    Diagram, GifOptions, Layout, PieceStyle, Rect, RenderOptions,
};

fn decode(png: &[u8]) -> RgbImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("a valid PNG")
        .to_rgb8()
}

fn save(name: &str, bytes: &[u8]) {
    if let Some(dir) = std::env::var_os("TEGAMI_RENDER_SAMPLES") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

fn pixel(img: &RgbImage, (x, y): (u32, u32)) -> [u8; 3] {
    img.get_pixel(x, y).0
}

fn count(img: &RgbImage, r: Rect, pred: impl Fn([u8; 3]) -> bool) -> usize {
    let mut n = 0;
    for y in r.y.max(0)..(r.y + r.h as i32) {
        for x in r.x.max(0)..(r.x + r.w as i32) {
            if pred(img.get_pixel(x as u32, y as u32).0) {
                n += 1;
            }
        }
    }
    n
}

/// How many pixels of `r` differ between two images.
fn differing(a: &RgbImage, b: &RgbImage, r: Rect) -> usize {
    let mut n = 0;
    for y in r.y..r.y + r.h as i32 {
        for x in r.x..r.x + r.w as i32 {
            if a.get_pixel(x as u32, y as u32) != b.get_pixel(x as u32, y as u32) {
                n += 1;
            }
        }
    }
    n
}

fn near(a: [u8; 3], b: [u8; 3], tol: i32) -> bool {
    (0..3).all(|i| (a[i] as i32 - b[i] as i32).abs() <= tol)
}

/// A small deterministic generator for playouts.
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

fn has_promoted(pos: &Position) -> bool {
    pos.pieces().any(|(_, p)| p.kind.is_promoted())
}

fn hand_total(pos: &Position, c: Color) -> u32 {
    hand_of(pos, c).iter().map(|&(_, n)| n as u32).sum()
}

/// A game of the variant played by a seeded random playout (captures and promotions
/// preferred) until the side to move is in check right after a move, with pieces in hand and a
/// promoted piece on the board (a position that starts with promoted pieces counts too).
fn scenario(id: VariantId) -> Game {
    for seed in 1..200u64 {
        let mut rng = Lcg(seed);
        let mut g = Game::new(Position::start(id));
        for _ in 0..300 {
            let legal = g.legal_moves();
            if legal.is_empty() {
                break;
            }
            let pos = g.position();
            let good: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| m.promotes() || pos.piece_at(m.to()).is_some())
                .collect();
            let m = if !good.is_empty() && rng.below(3) > 0 {
                good[rng.below(good.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            g.play(m).unwrap();
            let p = g.position();
            if p.in_check()
                && has_promoted(p)
                && hand_total(p, Color::Black) + hand_total(p, Color::White) >= 3
            {
                return g;
            }
        }
    }
    panic!("no scenario found for {id}");
}

fn names() -> [Option<String>; 2] {
    [Some("alice".into()), Some("Bob Éxample".into())]
}

#[test]
fn every_variant_in_both_styles_from_both_sides() {
    for &id in VariantId::ALL {
        let g = scenario(id);
        let pos = g.position();
        let v = pos.variant();
        let last = *g.moves().last().unwrap();
        for style in [PieceStyle::Kanji, PieceStyle::International] {
            for viewer in Color::ALL {
                let opts = RenderOptions {
                    last_move: Some(last),
                    viewer,
                    style,
                    names: names(),
                    ..RenderOptions::default()
                };
                let png = render_png(pos, &opts).unwrap();
                save(
                    &format!("{id}-{}-{}.png", style.as_str(), v.side_name(viewer)),
                    &png,
                );
                let img = decode(&png);
                let l = layout(v, &opts);
                let what = format!("{id} {style:?} viewer {viewer:?}");

                // Size: as laid out, 600-900 px on the long side.
                assert_eq!(img.dimensions(), (l.width(), l.height()), "{what}");
                let long = l.width().max(l.height());
                assert!((600..=900).contains(&long), "{what}: long side {long}");

                // The last move's squares.
                for sq in render::move_squares(last) {
                    assert_eq!(pixel(&img, l.mark_point(sq)), theme::HIGHLIGHT, "{what}");
                }

                // The king in check.
                let c = pos.side_to_move();
                let k = king_square(pos, c).unwrap();
                assert_eq!(pixel(&img, l.mark_point(k)), theme::CHECK, "{what}");
                // The mover's strip says so.
                let chip = count(&img, l.name_rect(c).unwrap(), |p| p == theme::CHECK_CHIP);
                assert!(chip > 50, "{what}: check chip");
                let other = count(&img, l.name_rect(!c).unwrap(), |p| {
                    p == theme::CHECK_CHIP || p == theme::TURN_CHIP
                });
                assert_eq!(other, 0, "{what}: no chip for the side not to move");

                // Hands: each kind drawn, counts from two on in a badge with a number in it.
                for side in Color::ALL {
                    let hand = hand_of(pos, side);
                    let slots = l.hand_slots(side, &hand);
                    assert_eq!(slots.len(), hand.len());
                    let strip = l.hand_rect(side).unwrap();
                    for s in &slots {
                        assert!(strip.contains(s.piece.x, s.piece.y), "{what}");
                        let inked = count(&img, s.piece, |p| near(p, theme::WEDGE_FILL, 6));
                        assert!(inked > 100, "{what}: {:?} in hand not drawn", s.kind);
                        match s.badge {
                            Some(b) => {
                                assert!(s.count >= 2);
                                assert!(count(&img, b, |p| p == theme::BADGE) > 20, "{what}");
                                assert!(
                                    count(&img, b, |p| near(p, theme::BADGE_TEXT, 60)) > 3,
                                    "{what}"
                                );
                            }
                            None => assert_eq!(s.count, 1),
                        }
                    }
                }
            }
        }
    }
}

fn wedge_pixels(img: &RgbImage, r: Rect) -> usize {
    count(img, r, |p| near(p, theme::WEDGE_FILL, 6))
}

#[test]
fn the_viewers_king_is_at_the_bottom_pointing_up() {
    for &id in VariantId::ALL {
        let pos = Position::start(id);
        let v = pos.variant();
        for viewer in Color::ALL {
            let opts = RenderOptions {
                viewer,
                ..RenderOptions::default()
            };
            let img = decode(&render_png(&pos, &opts).unwrap());
            let l = layout(v, &opts);
            let mine = l.square_rect(king_square(&pos, viewer).unwrap());
            let theirs = l.square_rect(king_square(&pos, !viewer).unwrap());
            let mid = l.height() as i32 / 2;
            assert!(
                mine.y > mid && theirs.y + (theirs.h as i32) < mid,
                "{id} {viewer:?}"
            );
            // A shogi king's wedge is narrow at its point: more of it in the bottom quarter of
            // the square than in the top quarter when it points up the image.
            let q = mine.h / 4;
            let top = |r: Rect| Rect::new(r.x, r.y, r.w, q);
            let bottom = |r: Rect| Rect::new(r.x, r.y + (r.h - q) as i32, r.w, q);
            if render::look(id, PieceKind::King) == render::Look::Wedge
                && v.has_kind(PieceKind::King)
            {
                assert!(wedge_pixels(&img, bottom(mine)) > wedge_pixels(&img, top(mine)));
                assert!(wedge_pixels(&img, top(theirs)) > wedge_pixels(&img, bottom(theirs)));
            }
        }
    }
}

#[test]
fn the_board_and_its_coordinates_turn_with_the_viewer() {
    let v = Variant::get(VariantId::Shogi);
    let black = Layout::new(v, Color::Black, None, true);
    let white = Layout::new(v, Color::White, None, true);
    let corner = Square::new(0, 0); // 9a
    assert_eq!(black.square_rect(corner).x, black.board_rect().x);
    assert_eq!(black.square_rect(corner).y, black.board_rect().y);
    let r = white.square_rect(corner);
    let b = white.board_rect();
    assert_eq!(r.x + r.w as i32, b.x + b.w as i32);
    assert_eq!(r.y + r.h as i32, b.y + b.h as i32);
    for &sq in v.squares() {
        let (x, y) = white.square_rect(sq).center();
        assert_eq!(white.square_at(x as i32, y as i32), Some(sq));
    }
    // The coordinate bands are drawn differently (9..1 against 1..9 along the top).
    let pos = Position::start(VariantId::Shogi);
    let a = render::render_image(&pos, &RenderOptions::default());
    let opts = RenderOptions {
        viewer: Color::White,
        ..RenderOptions::default()
    };
    let w = render::render_image(&pos, &opts);
    let band = Rect::new(
        b.x,
        b.y - black.coord_band() as i32,
        b.w,
        black.coord_band(),
    );
    assert!(differing(&a, &w, band) > 50);
}

#[test]
fn international_letters_differ_from_kanji() {
    let pos = Position::start(VariantId::Shogi);
    let v = pos.variant();
    let k = render::render_image(&pos, &RenderOptions::default());
    let opts = RenderOptions {
        style: PieceStyle::International,
        ..RenderOptions::default()
    };
    let i = render::render_image(&pos, &opts);
    let l = layout(v, &opts);
    for &sq in v.squares() {
        let r = l.square_rect(sq);
        let changed = differing(&k, &i, r) > 20;
        assert_eq!(changed, pos.piece_at(sq).is_some(), "{}", v.square_name(sq));
    }
    assert_eq!(
        render::label(
            v,
            Piece::new(PieceKind::Dragon, Color::Black),
            PieceStyle::International
        ),
        "+R"
    );
    assert_eq!(
        render::label(
            v,
            Piece::new(PieceKind::King, Color::White),
            PieceStyle::Kanji
        ),
        "王"
    );
}

#[test]
fn palace_and_shanghai_boards_on_a_nine_by_nine_position() {
    let pos = Position::start(VariantId::Shogi);
    let v = pos.variant();
    let named = |n: &str| v.parse_square(n).unwrap();
    for viewer in Color::ALL {
        let opts = RenderOptions {
            viewer,
            board_style: Some(BoardStyle::Checkered),
            ..RenderOptions::default()
        };
        let png = render_png(&pos, &opts).unwrap();
        save(&format!("checkered-{}.png", v.side_name(viewer)), &png);
        let img = decode(&png);
        let l = layout(v, &opts);
        // Corridors: Black's (6g 4g 5h 6i 4i) and White's in their own colours.
        for n in ["6g", "4g", "5h", "6i", "4i"] {
            assert_eq!(
                pixel(&img, l.mark_point(named(n))),
                theme::CORRIDOR_FIRST,
                "{n}"
            );
        }
        for n in ["6a", "4a", "5b", "6c", "4c"] {
            assert_eq!(
                pixel(&img, l.mark_point(named(n))),
                theme::CORRIDOR_SECOND,
                "{n}"
            );
        }
        assert_eq!(pixel(&img, l.mark_point(named("5d"))), theme::LIGHT_SQUARE);
        assert_eq!(pixel(&img, l.mark_point(named("5e"))), theme::DARK_SQUARE);
        assert_eq!(pixel(&img, l.mark_point(named("5g"))), theme::DARK_SQUARE);
        // Black's palace is at the bottom for Black, at the top for White.
        let y = l.square_rect(named("5h")).y;
        assert_eq!(y > l.height() as i32 / 2, viewer == Color::Black);

        let opts = RenderOptions {
            board_style: Some(BoardStyle::PalacesAndRiver),
            ..opts
        };
        let png = render_png(&pos, &opts).unwrap();
        save(&format!("river-{}.png", v.side_name(viewer)), &png);
        let img = decode(&png);
        for col in 0..9 {
            let sq = Square::new(col, 4);
            assert_eq!(pixel(&img, l.mark_point(sq)), theme::RIVER);
            let (cx, cy) = l.square_rect(sq).center();
            assert_eq!(pixel(&img, (cx as u32, cy as u32)), theme::RIVER);
        }
        assert_eq!(pixel(&img, l.mark_point(named("5h"))), theme::PALACE_FIRST);
        assert_eq!(pixel(&img, l.mark_point(named("5b"))), theme::PALACE_SECOND);
        assert_eq!(pixel(&img, l.mark_point(named("5d"))), theme::WOOD);
    }
}

#[test]
fn a_replay_has_one_frame_per_position() {
    let g = scenario(VariantId::Shogi);
    let moves = &g.moves()[..g.moves().len().min(12)];
    let mut short = Game::new(g.start().clone());
    for &m in moves {
        short.play(m).unwrap();
    }
    let opts = GifOptions {
        board: RenderOptions {
            names: names(),
            ..RenderOptions::default()
        },
        ..GifOptions::default()
    };
    let gif = render_gif(&short, &opts).unwrap();
    save("replay-shogi.gif", &gif);
    let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(&gif)).unwrap();
    let frames = decoder.into_frames().collect_frames().unwrap();
    assert_eq!(frames.len(), moves.len() + 1);
    let l = layout(short.variant(), &opts.board);
    for (i, f) in frames.iter().enumerate() {
        let buf = f.buffer();
        assert_eq!(buf.dimensions(), (l.width(), l.height()));
        let rgb = |p: (u32, u32)| {
            let q = buf.get_pixel(p.0, p.1).0;
            [q[0], q[1], q[2]]
        };
        if i > 0 {
            for sq in render::move_squares(moves[i - 1]) {
                assert_eq!(rgb(l.mark_point(sq)), theme::HIGHLIGHT, "frame {i}");
            }
        }
        // Frames match the still image of the same position (up to the palette) at the marks.
        let pos = short.position_at(i);
        let still = render::render_image(
            &pos,
            &RenderOptions {
                last_move: i.checked_sub(1).map(|j| moves[j]),
                ..opts.board.clone()
            },
        );
        for &sq in pos.variant().squares() {
            let p = l.mark_point(sq);
            assert!(near(rgb(p), still.get_pixel(p.0, p.1).0, 12), "frame {i}");
        }
    }
    assert_eq!(frames[0].delay().numer_denom_ms().0, opts.first_frame_ms);
}

#[test]
fn a_diagram_marks_the_squares_a_piece_reaches() {
    let v = Variant::get(VariantId::Shogi);
    let at = v.parse_square("5e").unwrap();
    let rook = Piece::new(PieceKind::Rook, Color::Black);
    let screen = v.parse_square("5c").unwrap();
    let targets: Vec<Square> = v
        .squares()
        .iter()
        .copied()
        .filter(|&s| (s.col() == at.col()) != (s.row() == at.row()))
        .filter(|&s| s.row() >= 2 || s.col() != at.col())
        .collect();
    let others = [(screen, Piece::new(PieceKind::Pawn, Color::White))];
    let d = Diagram {
        others: &others,
        ..Diagram::new(v, rook, at, &targets)
    };
    let png = render_diagram(&d).unwrap();
    save("diagram-rook.png", &png);
    let img = decode(&png);
    let l = d.layout();
    assert_eq!(img.dimensions(), (l.width(), l.height()));
    assert_eq!(pixel(&img, l.mark_point(at)), theme::HIGHLIGHT);
    for &t in &targets {
        let (cx, cy) = l.square_rect(t).center();
        if t == screen {
            let r = l.square_rect(t);
            assert_eq!(
                pixel(&img, ((r.x + 3) as u32, (r.y + 3) as u32)),
                theme::TARGET
            );
        } else {
            assert_eq!(pixel(&img, (cx as u32, cy as u32)), theme::TARGET);
        }
    }
    let off = v.parse_square("4d").unwrap();
    let (cx, cy) = l.square_rect(off).center();
    assert_eq!(pixel(&img, (cx as u32, cy as u32)), theme::WOOD);
}

#[test]
fn a_full_cannon_shogi_hand_fits_its_strip() {
    let v = Variant::get(VariantId::Cannon);
    let pos = fen::parse(v, "4k4/9/9/9/9/9/9/9/4K4 b 2R2B2U2A2C2I4G4S4N4L9P 1")
        .expect("a valid position");
    let opts = RenderOptions::default();
    let png = render_png(&pos, &opts).unwrap();
    save("cannon-full-hand.png", &png);
    let img = decode(&png);
    let l = layout(v, &opts);
    let slots = l.hand_slots(Color::Black, &hand_of(&pos, Color::Black));
    assert_eq!(slots.len(), 11);
    let strip = l.hand_rect(Color::Black).unwrap();
    for w in slots.windows(2) {
        assert!(
            w[0].piece.x + (w[0].piece.w as i32) <= w[1].piece.x,
            "pieces overlap"
        );
    }
    let last = slots.last().unwrap();
    let badge = last.badge.unwrap();
    assert!(
        badge.x + badge.w as i32 <= strip.x + strip.w as i32,
        "badge outside the strip"
    );
    for s in &slots {
        assert!(count(&img, s.badge.unwrap(), |p| p == theme::BADGE) > 20);
    }
}

#[test]
fn each_family_is_recognisable() {
    let pos = Position::start(VariantId::Shanghai);
    let v = pos.variant();
    let opts = RenderOptions::default();
    let img = render::render_image(&pos, &opts);
    save("shanghai-start.png", &render_png(&pos, &opts).unwrap());
    let l = layout(v, &opts);
    let at = |n: &str| l.square_rect(v.parse_square(n).unwrap());
    let has = |r: Rect, c: [u8; 3]| count(&img, r, |p| p == c);
    // Chinese kings: discs in their side's colour.
    assert!(has(at("e1"), theme::DISC_FILL) > 400 && has(at("e1"), theme::RED) > 100);
    assert!(has(at("e9"), theme::DISC_FILL) > 400 && has(at("e9"), theme::BLUE) > 100);
    // The visiting queen and the knights are Western figures: filled, no disc, no wedge.
    for (n, side) in [("e2", theme::RED), ("c2", theme::RED), ("e8", theme::BLUE)] {
        assert!(has(at(n), side) > 150, "{n}");
        assert_eq!(
            has(at(n), theme::DISC_FILL) + has(at(n), theme::WEDGE_FILL),
            0,
            "{n}"
        );
    }
    // Shogi pieces: wedges edged in the side's colour.
    for (n, side) in [("a1", theme::RED), ("i9", theme::BLUE), ("h1", theme::RED)] {
        assert!(has(at(n), theme::WEDGE_FILL) > 400, "{n}");
        assert!(has(at(n), side) > 60, "{n}");
    }

    // Palace Shogi: the queen is a wedge; the lion is written in gold, promoted pieces in red.
    let v = Variant::get(VariantId::Palace);
    let pos = fen::parse(
        v,
        "lns+sk+ssnl/1r2q2b1/+p+p+p+p+p+p+p+p+p/9/9/9/+P+P+P+P+P+P+P+P+P/1B2+Q2R1/LNS+SK+SSNL b - 1 9i1i9a1a -",
    )
    .expect("a valid position");
    let img = render::render_image(&pos, &opts);
    save("palace-lion.png", &render_png(&pos, &opts).unwrap());
    let l = layout(v, &opts);
    let at = |n: &str| l.square_rect(v.parse_square(n).unwrap());
    let has = |r: Rect, c: [u8; 3]| count(&img, r, |p| p == c);
    assert!(has(at("5b"), theme::WEDGE_FILL) > 400, "queen");
    assert!(has(at("5h"), theme::GOLD) > 30, "lion");
    assert_eq!(has(at("5h"), theme::PROMOTED), 0);
    assert!(
        has(at("5g"), theme::PROMOTED) > 30,
        "pawn (a promoted footsoldier)"
    );
    assert_eq!(has(at("9i"), theme::PROMOTED), 0, "lance");
}

#[test]
fn a_lion_move_highlights_its_path() {
    let v = Variant::get(VariantId::Palace);
    let sq = |n: &str| v.parse_square(n).unwrap();
    let double = Move::Lion {
        from: sq("5e"),
        via: sq("5d"),
        to: sq("5c"),
    };
    assert_eq!(
        render::move_squares(double),
        vec![sq("5e"), sq("5d"), sq("5c")]
    );
    let feeding = Move::Lion {
        from: sq("5e"),
        via: sq("5d"),
        to: sq("5e"),
    };
    assert_eq!(render::move_squares(feeding), vec![sq("5e"), sq("5d")]);
    let drop = Move::Drop {
        kind: PieceKind::Pawn,
        to: sq("5e"),
    };
    assert_eq!(render::move_squares(drop), vec![sq("5e")]);
}

#[test]
fn rules_diagrams_of_the_lion_and_the_queen() {
    let v = Variant::get(VariantId::Palace);
    let sq = |n: &str| v.parse_square(n).unwrap();
    // The lion: every square within two king steps.
    let at = sq("5e");
    let lion_targets: Vec<Square> = v
        .squares()
        .iter()
        .copied()
        .filter(|&s| {
            let (dx, dy) = (
                (s.col() as i32 - at.col() as i32).abs(),
                (s.row() as i32 - at.row() as i32).abs(),
            );
            s != at && dx <= 2 && dy <= 2
        })
        .collect();
    // The queen beside her palace: a slide into it stops on the first palace square.
    let queen_at = sq("7h");
    let queen_targets: Vec<Square> = ["6h", "8h", "9h", "7g", "7f", "7e", "7d", "7c", "7b", "7a"]
        .iter()
        .chain(&[
            "7i", "6g", "8g", "9f", "6i", "8i", "5f", "4e", "3d", "2c", "1b",
        ])
        .map(|n| sq(n))
        .collect();
    for (name, kind, at, targets) in [
        ("lion", PieceKind::Lion, at, lion_targets),
        ("queen", PieceKind::Queen, queen_at, queen_targets),
    ] {
        let d = Diagram::new(v, Piece::new(kind, Color::Black), at, &targets);
        let png = render_diagram(&d).unwrap();
        save(&format!("diagram-palace-{name}.png"), &png);
        let img = decode(&png);
        let l = d.layout();
        for &t in &targets {
            let (cx, cy) = l.square_rect(t).center();
            assert_eq!(pixel(&img, (cx as u32, cy as u32)), theme::TARGET, "{name}");
        }
        assert_eq!(pixel(&img, l.mark_point(at)), theme::HIGHLIGHT);
    }
}

#[test]
fn long_names_and_captions_stay_in_their_strip() {
    let pos = Position::start(VariantId::Shogi);
    let v = pos.variant();
    let long = "An extremely long display name that goes on and on and on and on".to_string();
    let opts = RenderOptions {
        names: [Some(long.clone()), Some(format!("名前 {long}"))],
        caption: Some(format!("123. {long}")),
        ..RenderOptions::default()
    };
    let img = render::render_image(&pos, &opts);
    save("long-names.png", &render_png(&pos, &opts).unwrap());
    let l = layout(v, &opts);
    // The "to move" chip is still there, whole, and nothing is drawn past the strip's padding.
    let r = l.name_rect(Color::Black).unwrap();
    assert!(count(&img, r, |p| p == theme::TURN_CHIP) > 200);
    let edge = Rect::new(r.x + r.w as i32 - 4, r.y, 4, r.h);
    assert_eq!(count(&img, edge, |p| p == theme::TEXT), 0);
}

/// Names in every script players write them in, as the issue lists them.
const SCRIPTS: &[(&str, &str)] = &[
    ("Latin", "Zoë Łukasiewicz"),
    ("Vietnamese", "Nguyễn Thị Ánh"),
    ("Greek", "Ελένη Παπαδοπούλου"),
    ("Cyrillic", "Дмитрий Шостакович"),
    ("kana", "さくら ハナコ"),
    ("JIS level 1 kanji", "羽生善治"),
    ("JIS level 2 kanji", "弌丐僉僊辧劬"),
    ("simplified hanzi", "张伟 刘洋"),
    ("traditional hanzi", "黃大仙 吳國華"),
    ("Hangul", "김민준 똠 쀍"),
];

fn named(first: &str, second: &str) -> RenderOptions {
    RenderOptions {
        names: [Some(first.to_string()), Some(second.to_string())],
        ..RenderOptions::default()
    }
}

#[test]
fn names_in_every_script_are_drawn_from_a_font() {
    let pos = Position::start(VariantId::Shogi);
    let v = pos.variant();
    for (script, name) in SCRIPTS {
        // Every character has a font (the sign for missing characters is not used).
        for (c, font) in render::text_fonts(name) {
            assert!(font.is_some(), "{script}: {c:?} of {name:?} has no font");
            assert_ne!(c, render::MISSING_SIGN, "{script}: {name:?}");
        }
        // And the picture shows glyphs: the name's strip differs from the same strip with each
        // character replaced by the missing sign, and from the strip with no name.
        let signs: String = name
            .chars()
            .map(|c| if c == ' ' { ' ' } else { render::MISSING_SIGN })
            .collect();
        let img = render::render_image(&pos, &named(name, "x"));
        let with_signs = render::render_image(&pos, &named(&signs, "x"));
        let unnamed = render::render_image(&pos, &RenderOptions::default());
        let r = layout(v, &RenderOptions::default())
            .name_rect(Color::Black)
            .unwrap();
        assert!(differing(&img, &with_signs, r) > 150, "{script}: {name:?}");
        assert!(differing(&img, &unnamed, r) > 150, "{script}: {name:?}");
        save(
            &format!("name-{}.png", script.replace(' ', "-")),
            &render_png(&pos, &named(name, "x")).unwrap(),
        );
    }
}

#[test]
fn emoji_and_unknown_scripts_show_the_neutral_sign_never_a_question_mark() {
    for (name, shown) in [
        ("Ann 🌸", "Ann ◇"),
        ("👨\u{200D}👩\u{200D}👧 family", "◇ family"),
        ("👍🏽 ok", "◇ ok"),
        ("🇯🇵 Taro", "◇ Taro"),
        ("שלום", "◇"),
    ] {
        let drawn: String = render::text_fonts(name)
            .into_iter()
            .map(|(c, _)| c)
            .collect();
        assert_eq!(drawn, shown, "{name:?}");
        assert!(!drawn.contains('?'));
    }
}

#[test]
fn a_long_name_in_any_script_is_shortened_with_an_ellipsis_and_stays_in_its_strip() {
    for id in [VariantId::Shogi, VariantId::Judkins, VariantId::Shanghai] {
        let pos = Position::start(id);
        let v = pos.variant();
        for (script, name) in SCRIPTS {
            let long = format!("{name} {name} {name} {name} {name}");
            let opts = named(&long, &long);
            let shown = render::shown_name(v, &opts, Color::Black).unwrap();
            assert!(shown.ends_with('…'), "{script}: {shown:?}");
            let kept = shown.trim_end_matches('…');
            assert!(
                !kept.is_empty() && long.starts_with(kept),
                "{script}: {shown:?}"
            );
            // A short name is shown whole.
            let short = name.split(' ').next().unwrap();
            assert_eq!(
                render::shown_name(v, &named(short, short), Color::Black).as_deref(),
                Some(short)
            );

            let img = render::render_image(&pos, &opts);
            let l = layout(v, &opts);
            let r = l.name_rect(Color::Black).unwrap();
            // The "to move" chip is whole, and no name ink reaches past the left 60% (the label
            // "· Black" ends there).
            assert!(count(&img, r, |p| p == theme::TURN_CHIP) > 200, "{script}");
            let right = Rect::new(
                r.x + (r.w as f32 * 0.6) as i32 + 2,
                r.y,
                r.w * 2 / 5 - 2,
                r.h,
            );
            let chipless = count(&img, right, |p| near(p, theme::TEXT, 40));
            assert_eq!(
                chipless, 0,
                "{script}: name ink in the right part of the strip"
            );
            save(
                &format!(
                    "long-name-{}-{}.png",
                    v.id().as_str(),
                    script.replace(' ', "-")
                ),
                &render_png(&pos, &opts).unwrap(),
            );
        }
    }
}

#[test]
fn the_analysis_chart_writes_names_in_any_script() {
    use tegami::engine::search::PlyEval;
    use tegami::render::chart::{eval_chart_image, ChartOptions};
    let evals: Vec<PlyEval> = (0..20)
        .map(|i| PlyEval {
            points: (i as f64 - 10.0) / 2.0,
            mate: None,
        })
        .collect();
    let chart = |first: &str| {
        eval_chart_image(
            &evals,
            &ChartOptions {
                first: first.to_string(),
                second: "김민준".to_string(),
                ..ChartOptions::default()
            },
        )
        .expect("a chart")
    };
    let named = chart("藤井聡太");
    let signs = chart("◇◇◇◇");
    let whole = Rect::new(0, 0, named.width(), named.height());
    assert!(
        differing(&named, &signs, whole) > 100,
        "the kanji are drawn, not missing signs"
    );
    assert!(render::text_fonts("김민준 better")
        .iter()
        .all(|(_, f)| f.is_some()));
}

#[test]
fn replays_write_names_in_any_script_too() {
    let mut g = Game::new(Position::start(VariantId::Judkins));
    let m = g.legal_moves()[0];
    g.play(m).unwrap();
    let first_frame = |first: &str, second: &str| {
        let opts = GifOptions {
            board: RenderOptions {
                names: [Some(first.into()), Some(second.into())],
                ..RenderOptions::default()
            },
            ..GifOptions::default()
        };
        let gif = render_gif(&g, &opts).unwrap();
        let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(&gif)).unwrap();
        let frames = decoder.into_frames().collect_frames().unwrap();
        let f = frames[0].buffer();
        let rgb = RgbImage::from_fn(f.width(), f.height(), |x, y| {
            let p = f.get_pixel(x, y).0;
            image::Rgb([p[0], p[1], p[2]])
        });
        (rgb, layout(g.variant(), &opts.board))
    };
    let (named, l) = first_frame("さくら", "김민준");
    let (signs, _) = first_frame("◇◇◇", "◇◇◇");
    for c in Color::ALL {
        let r = l.name_rect(c).unwrap();
        assert!(
            differing(&named, &signs, r) > 100,
            "{c:?}'s name is drawn in the replay"
        );
    }
}

/// A game of `plies` seeded random legal moves that never ends it (a move that would end the
/// game is passed over for another).
fn long_game(id: VariantId, plies: usize, seed: u64) -> Game {
    let mut g = Game::new(Position::start(id));
    let mut state = seed;
    for _ in 0..plies {
        let mut moves = g.legal_moves();
        assert!(!moves.is_empty(), "{id:?}: no move left");
        // A seeded shuffle (xorshift).
        for i in (1..moves.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            moves.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let next = moves
            .into_iter()
            .find_map(|m| {
                let mut h = g.clone();
                (h.play(m).is_ok() && h.outcome().is_none()).then_some(h)
            })
            .expect("a move that does not end the game");
        g = next;
    }
    g
}

/// The frames of a GIF, read one by one (never all decoded at once): their count, and the
/// logical screen size.
fn gif_frames(data: &[u8]) -> (usize, (u16, u16)) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut d = opts.read_info(std::io::Cursor::new(data)).expect("a GIF");
    let size = (d.width(), d.height());
    let mut n = 0;
    while let Some(f) = d.read_next_frame().expect("a valid frame") {
        assert!(f.left + f.width <= size.0 && f.top + f.height <= size.1);
        n += 1;
    }
    (n, size)
}

#[test]
fn a_long_game_replay_fits_the_upload_limit() {
    use tegami::render::{render_gif_within, MAX_FRAMES};
    use tegami::service::MAX_ATTACHMENT;
    for (id, plies) in [
        (VariantId::Shogi, 320),
        (VariantId::Shanghai, 320),
        (VariantId::Palace, 600),
    ] {
        let t0 = std::time::Instant::now();
        let g = long_game(id, plies, 0x7e9a_0001 + plies as u64);
        let made = t0.elapsed();
        let opts = GifOptions {
            board: RenderOptions {
                names: names(),
                ..RenderOptions::default()
            },
            ..GifOptions::default()
        };
        let t0 = std::time::Instant::now();
        let fitted = render_gif_within(&g, &opts, MAX_ATTACHMENT)
            .unwrap()
            .expect("a replay that fits");
        let took = t0.elapsed();
        save(&format!("replay-long-{}.gif", id.as_str()), &fitted.data);
        eprintln!(
            "{id:?}: {plies} plies (made in {:.1} s): {} bytes ({:.2} MiB), {} of {} positions, squares {} px, {} colours, {} retries, {:.2} s",
            made.as_secs_f64(),
            fitted.data.len(),
            fitted.data.len() as f64 / (1024.0 * 1024.0),
            fitted.frames,
            fitted.positions,
            fitted.square_px,
            fitted.colors,
            fitted.retries,
            took.as_secs_f64()
        );
        assert!(fitted.data.len() <= MAX_ATTACHMENT);
        assert_eq!(fitted.positions, plies + 1);
        assert_eq!(fitted.frames, (plies + 1).min(MAX_FRAMES));
        let (frames, _) = gif_frames(&fitted.data);
        assert_eq!(frames, fitted.frames);
    }
}

#[test]
fn a_replay_too_big_is_made_smaller_or_refused() {
    use tegami::render::render_gif_within;
    let g = long_game(VariantId::Shanghai, 120, 42);
    let opts = GifOptions::default();
    let full = render_gif(&g, &opts).unwrap();
    // Half the full size: fewer positions, the last one kept.
    let limit = full.len() / 2;
    let fitted = render_gif_within(&g, &opts, limit)
        .unwrap()
        .expect("a smaller replay");
    assert!(
        fitted.data.len() <= limit,
        "{} > {limit}",
        fitted.data.len()
    );
    assert!(
        fitted.frames < 121 && fitted.frames >= 2,
        "{}",
        fitted.frames
    );
    assert!(fitted.retries >= 1);
    let (frames, size) = gif_frames(&fitted.data);
    assert_eq!(frames, fitted.frames);
    // The last frame is the last position: the final frame of both files is the same picture.
    let last = |data: &[u8]| {
        let d = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(data)).unwrap();
        d.into_frames().last().unwrap().unwrap().into_buffer()
    };
    let (a, b) = (last(&full), last(&fitted.data));
    assert_eq!(a.dimensions(), (size.0 as u32, size.1 as u32));
    assert_eq!(a, b, "the replay ends on the game's last position");
    // Far too small for any replay: refused, never a file over the limit.
    assert!(render_gif_within(&g, &opts, 20_000).unwrap().is_none());
}

/// A Japanese picture: the strip's side labels and "to move" chip in Japanese, and in the
/// kanji style the ranks in kanji numerals (written to `/tmp` to be looked at); the English
/// one of the same position is unchanged by the language field's default.
#[test]
fn japanese_strip_and_kanji_ranks() {
    use tegami::i18n::Lang;
    let pos = Position::start(VariantId::Shogi);
    let ja = RenderOptions {
        names: [Some("taro".into()), Some("花子".into())],
        lang: Lang::Ja,
        ..RenderOptions::default()
    };
    let en = RenderOptions {
        lang: Lang::En,
        ..ja.clone()
    };
    let ja_png = tegami::render::render_png(&pos, &ja).unwrap();
    let en_png = tegami::render::render_png(&pos, &en).unwrap();
    assert_ne!(ja_png, en_png, "the language changes the strip");
    assert_eq!(
        en_png,
        tegami::render::render_png(
            &pos,
            &RenderOptions {
                names: ja.names.clone(),
                ..RenderOptions::default()
            }
        )
        .unwrap(),
        "English is the default"
    );
    std::fs::write(std::env::temp_dir().join("tegami-ja-shogi.png"), &ja_png).unwrap();
    let judkins = Position::start(VariantId::Judkins);
    let png = tegami::render::render_png(&judkins, &ja).unwrap();
    std::fs::write(std::env::temp_dir().join("tegami-ja-judkins.png"), &png).unwrap();
}

// League pictures: the standings and the crosstable.

use tegami::render::league::{
    self, Crosstable, PictureError, StandingsRow, StandingsTable, TableLayout,
    MAX_CROSSTABLE_PLAYERS, MAX_STANDINGS_ROWS, NAME_COLUMN,
};

/// Writes a league picture to `/tmp/league-pictures/` (and `TEGAMI_RENDER_SAMPLES`) for a look.
fn save_league(name: &str, png: &[u8]) {
    let dir = std::env::temp_dir().join("league-pictures");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), png).unwrap();
    save(name, png);
}

fn standing(place: &str, name: &str, points: &str, played: &str, tb: &[&str]) -> StandingsRow {
    StandingsRow {
        place: place.into(),
        name: name.into(),
        points: points.into(),
        played: played.into(),
        tiebreaks: tb.iter().map(|s| s.to_string()).collect(),
        withdrawn: false,
    }
}

/// A 6-player Swiss after four rounds: Japanese and Latin names, the fifth player withdrawn.
fn swiss() -> StandingsTable {
    let mut rows = vec![
        standing("1", "藤井聡太", "3½", "4", &["10½", "8¾"]),
        standing("2", "Alice Łukasiewicz", "3", "4", &["11", "7½"]),
        standing("=3", "さくら", "2", "4", &["9", "4"]),
        standing("=3", "Дмитрий", "2", "4", &["9", "4"]),
        standing("–", "Bob Withdrawn", "1", "2", &["6½", "1"]),
        standing("5", "김민준 🌸", "½", "4", &["8", "¼"]),
    ];
    rows[4].withdrawn = true;
    StandingsTable {
        title: "Spring league — Shogi".into(),
        subtitle: "Round 4 of 5".into(),
        place_header: "#".into(),
        name_header: "Player".into(),
        points_header: "Points".into(),
        played_header: "Games".into(),
        tiebreaks: vec!["Buchholz".into(), "SB".into()],
        rows,
    }
}

/// A round robin of `n` players with the first `played` rounds' results in (a deterministic
/// mix of wins, draws, losses and a forfeit).
fn round_robin(n: usize, played: usize) -> Crosstable {
    let names = [
        "羽生善治",
        "Alice",
        "Дмитрий",
        "さくら",
        "Zoë Łukasiewicz",
        "김민준",
        "Bob",
        "王小明",
        "Ελένη",
        "Nguyễn Thị Ánh",
    ];
    let mut cells = vec![vec![String::new(); n]; n];
    let mut points = vec![0u32; n];
    for i in 0..n {
        for j in i + 1..n {
            if (i + j) % n >= played {
                continue;
            }
            let (a, b) = match (i * 7 + j * 3) % 5 {
                0 | 1 => ("1", "0"),
                2 => ("½", "½"),
                3 => ("0", "1"),
                _ => ("+", "−"),
            };
            let score = |s: &str| match s {
                "1" | "+" => 2,
                "½" => 1,
                _ => 0,
            };
            points[i] += score(a);
            points[j] += score(b);
            cells[i][j] = a.into();
            cells[j][i] = b.into();
        }
    }
    let shown = |p: u32| match (p / 2, p % 2) {
        (0, 1) => "½".to_string(),
        (w, 1) => format!("{w}½"),
        (w, _) => w.to_string(),
    };
    Crosstable {
        title: format!("Round robin — {n} players"),
        subtitle: format!("After round {played}"),
        name_header: "Player".into(),
        points_header: "Pts".into(),
        names: (0..n)
            .map(|i| {
                names
                    .get(i)
                    .map_or(format!("Player {}", i + 1), |s| s.to_string())
            })
            .collect(),
        points: points.into_iter().map(shown).collect(),
        cells,
    }
}

/// Pixels of `r` that are not the colour at its top-left corner (the row's shade).
fn ink_in(img: &RgbImage, r: Rect) -> usize {
    let bg = pixel(img, (r.x as u32 + 1, r.y as u32 + 1));
    count(img, r, |p| p != bg)
}

fn name_cell(l: &TableLayout, row: usize) -> Rect {
    l.cell(row, NAME_COLUMN).unwrap()
}

#[test]
fn standings_show_the_header_the_leader_and_a_withdrawn_player_where_the_layout_says() {
    let t = swiss();
    let png = league::standings_png(&t).unwrap();
    save_league("standings-swiss.png", &png);
    let img = decode(&png);
    let l = league::standings_layout(&t).unwrap();
    assert_eq!(img.dimensions(), (l.width, l.height));
    assert!((league::MIN_WIDTH..=league::MAX_WIDTH).contains(&l.width));
    // The header band, between its words (its left end, past the rounded corner).
    let h = l.header;
    assert_eq!(
        pixel(&img, (h.x as u32 + 2, (h.y + h.h as i32 - 3) as u32)),
        theme::TABLE_HEADER
    );
    assert!(count(&img, h, |p| near(p, theme::TABLE_HEADER_TEXT, 30)) > 100);
    // The leader's row: tinted (its right end, past the numbers' padding) with the gold mark.
    let lead = l.rows[0];
    let right_end = ((lead.x + lead.w as i32 - 2) as u32, lead.y as u32 + 2);
    assert_eq!(pixel(&img, right_end), theme::LEADER_ROW);
    assert_eq!(
        pixel(&img, (lead.x as u32 + 1, lead.center().1 as u32)),
        theme::LEADER_MARK
    );
    // The others alternate: the second row shaded, the third on the background.
    for (row, shade) in [(1, theme::ROW_SHADE), (2, theme::BACKGROUND)] {
        let r = l.rows[row];
        assert_eq!(
            pixel(&img, ((r.x + r.w as i32 - 2) as u32, r.y as u32 + 2)),
            shade
        );
    }
    // The withdrawn player's row is written in grey (every cell, the name struck through); no
    // other row uses that grey.
    for row in 0..t.rows.len() {
        let grey = count(&img, l.rows[row], |p| p == theme::WITHDRAWN);
        if t.rows[row].withdrawn {
            assert!(grey > 150, "{grey}");
            let points = l.cell(row, 2).unwrap();
            assert!(count(&img, points, |p| p == theme::WITHDRAWN) > 5);
            assert_eq!(count(&img, l.rows[row], |p| p == theme::TEXT), 0);
        } else {
            assert_eq!(grey, 0, "row {row}");
            assert!(count(&img, l.rows[row], |p| p == theme::TEXT) > 50);
        }
    }
    // Numbers are right-aligned: the points column's ink hugs its right side.
    let points = l.cell(1, 2).unwrap();
    let (left, right) = (
        Rect::new(points.x, points.y, points.w / 2, points.h),
        Rect::new(
            points.x + points.w as i32 / 2,
            points.y,
            points.w / 2,
            points.h,
        ),
    );
    assert_eq!(ink_in(&img, left), 0);
    assert!(ink_in(&img, right) > 20);
}

#[test]
fn standings_grow_with_their_rows() {
    let mut t = swiss();
    let mut heights = Vec::new();
    for n in [0, 1, 6, 20] {
        t.rows = (0..n)
            .map(|i| standing(&(i + 1).to_string(), "Player", "1", "2", &["3", "4"]))
            .collect();
        let img = decode(&league::standings_png(&t).unwrap());
        heights.push(img.height());
    }
    assert!(heights.windows(2).all(|w| w[0] < w[1]), "{heights:?}");
    // By one row's height each.
    assert_eq!((heights[3] - heights[2]) / 14, heights[1] - heights[0]);
}

#[test]
fn japanese_and_latin_names_put_ink_in_their_cells_and_a_long_one_stays_inside() {
    let t = swiss();
    let img = league::standings_image(&t).unwrap();
    let l = league::standings_layout(&t).unwrap();
    for (row, name) in t.rows.iter().enumerate().map(|(i, r)| (i, &r.name)) {
        let ink = ink_in(&img, name_cell(&l, row));
        assert!(ink > 100, "{name}: {ink}");
    }
    // A name drawn from a font differs from the same number of missing signs.
    let mut signs = t.clone();
    signs.rows[0].name = "◇◇◇◇".into();
    let other = league::standings_image(&signs).unwrap();
    assert!(differing(&img, &other, name_cell(&l, 0)) > 100);

    let mut long = swiss();
    let jp = "ジョン・スミス・ウィリアムズ・ジュニア・ジョン・スミス・ウィリアムズ".repeat(3);
    long.rows[1].name =
        "An extremely long display name that goes on and on and on and on".repeat(3);
    long.rows[2].name = jp;
    long.title = "A title much longer than any picture is wide, ".repeat(6);
    let png = league::standings_png(&long).unwrap();
    save_league("standings-long-names.png", &png);
    let img = decode(&png);
    let l = league::standings_layout(&long).unwrap();
    assert_eq!(l.width, league::MAX_WIDTH);
    for row in [1, 2] {
        let r = name_cell(&l, row);
        // Ink reaches the last stretch before the cell's padding (the name was shortened to
        // the column, not to some fixed length) and nothing passes its right edge.
        let last = Rect::new(r.x + r.w as i32 - 40, r.y, 30, r.h);
        assert!(ink_in(&img, last) > 10, "row {row}");
        let edge = Rect::new(r.x + r.w as i32 - 6, r.y, 6, r.h);
        assert_eq!(ink_in(&img, edge), 0, "row {row}");
    }
    // The title stays inside the margin.
    let top = l.top();
    let margin = Rect::new(top.w as i32 - 14, 0, 14, top.h);
    assert_eq!(count(&img, margin, |p| p != theme::BACKGROUND), 0);
}

#[test]
fn mismatched_or_oversized_league_tables_are_errors() {
    let mut t = swiss();
    t.rows[3].tiebreaks.pop();
    assert!(matches!(
        league::standings_png(&t),
        Err(PictureError::Tiebreaks {
            row: 3,
            got: 1,
            want: 2
        })
    ));
    let mut t = swiss();
    t.rows = vec![standing("1", "x", "0", "0", &["0", "0"]); MAX_STANDINGS_ROWS + 1];
    assert!(matches!(
        league::standings_png(&t),
        Err(PictureError::TooManyRows { got: 65, .. })
    ));
    // More tie-break columns than any picture holds.
    let mut t = swiss();
    t.tiebreaks = vec!["A very long tie-break name".into(); 8];
    for r in &mut t.rows {
        r.tiebreaks = vec!["1".into(); 8];
    }
    assert!(matches!(
        league::standings_image(&t),
        Err(PictureError::TooWide { .. })
    ));

    let mut c = round_robin(4, 3);
    c.points.pop();
    assert!(matches!(
        league::crosstable_png(&c),
        Err(PictureError::CrosstableLengths { points: 3, .. })
    ));
    let mut c = round_robin(4, 3);
    c.cells[2].push("1".into());
    assert!(matches!(
        league::crosstable_png(&c),
        Err(PictureError::CrosstableRow {
            row: 2,
            got: 5,
            want: 4
        })
    ));
    let mut c = round_robin(4, 3);
    c.cells.pop();
    assert!(league::crosstable_image(&c).is_err());
    assert!(matches!(
        league::crosstable_png(&round_robin(MAX_CROSSTABLE_PLAYERS + 1, 1)),
        Err(PictureError::TooManyRows { got: 31, .. })
    ));
}

#[test]
fn a_crosstable_numbers_its_rows_and_columns_and_fills_the_diagonal() {
    for (n, played) in [(4, 3), (10, 6)] {
        let c = round_robin(n, played);
        let png = league::crosstable_png(&c).unwrap();
        save_league(&format!("crosstable-{n}.png"), &png);
        let img = decode(&png);
        let l = league::crosstable_layout(&c).unwrap();
        assert_eq!(img.dimensions(), (l.width, l.height));
        assert!((league::MIN_WIDTH..=league::MAX_WIDTH).contains(&l.width));
        // Number, name, one column per player, points.
        assert_eq!(l.columns.len(), n + 3);
        for i in 0..n {
            for j in 0..n {
                let r = l.cell(i, NAME_COLUMN + 1 + j).unwrap();
                let (cx, cy) = r.center();
                let mid = pixel(&img, (cx as u32, cy as u32));
                if i == j {
                    assert_eq!(mid, theme::DIAGONAL, "{n}: ({i}, {i})");
                    continue;
                }
                assert_ne!(mid, theme::DIAGONAL);
                // A result is ink in its cell; a game not played yet leaves it empty.
                let inner = r.inset(2);
                let ink = count(&img, inner, |p| near(p, theme::TEXT, 60));
                assert_eq!(ink > 0, !c.cells[i][j].is_empty(), "{n}: ({i}, {j})");
            }
            // The row's number, its name and its points.
            assert!(ink_in(&img, l.cell(i, 0).unwrap()) > 10);
            assert!(ink_in(&img, name_cell(&l, i)) > 50);
            assert!(ink_in(&img, l.cell(i, n + 2).unwrap()) > 10, "{n}: {i}");
            // The column numbers in the header.
            let h = l.header_cell(NAME_COLUMN + 1 + i).unwrap();
            assert!(count(&img, h, |p| near(p, theme::TABLE_HEADER_TEXT, 30)) > 5);
        }
    }
    // A forfeit loss's minus sign is drawn (as a dash), not as the sign for missing characters.
    let mut c = round_robin(4, 3);
    c.cells[1][0] = "\u{2212}".into();
    let minus = league::crosstable_image(&c).unwrap();
    c.cells[1][0] = "\u{2013}".into();
    let dash = league::crosstable_image(&c).unwrap();
    c.cells[1][0] = render::MISSING_SIGN.to_string();
    let missing = league::crosstable_image(&c).unwrap();
    let cell = league::crosstable_layout(&c)
        .unwrap()
        .cell(1, NAME_COLUMN + 1)
        .unwrap();
    assert!(ink_in(&minus, cell) > 5);
    assert_eq!(differing(&minus, &dash, cell), 0);
    assert!(differing(&minus, &missing, cell) > 5);
}

#[test]
fn the_largest_league_tables_render() {
    let c = round_robin(MAX_CROSSTABLE_PLAYERS, 20);
    let png = league::crosstable_png(&c).unwrap();
    save_league("crosstable-30.png", &png);
    let img = decode(&png);
    let l = league::crosstable_layout(&c).unwrap();
    assert_eq!(img.dimensions(), (l.width, l.height));
    assert!(l.width <= league::MAX_WIDTH, "{}", l.width);
    let last = l.cell(29, NAME_COLUMN + 30).unwrap().center();
    assert_eq!(pixel(&img, (last.0 as u32, last.1 as u32)), theme::DIAGONAL);

    // A double round robin writes two results a cell.
    let mut double = c.clone();
    for (i, row) in double.cells.iter_mut().enumerate() {
        for (j, s) in row.iter_mut().enumerate() {
            if i != j {
                *s = format!("{s} ½").trim().to_string();
            }
        }
    }
    let png = league::crosstable_png(&double).unwrap();
    save_league("crosstable-30-double.png", &png);
    let img = decode(&png);
    let l = league::crosstable_layout(&double).unwrap();
    assert_eq!(img.dimensions(), (l.width, l.height));
    assert!(l.width <= league::MAX_WIDTH, "{}", l.width);
    // Stacked to stay narrow: both halves of a cell with two results have ink.
    assert_eq!(double.cells[0][2], "1 ½");
    let r = l.cell(0, NAME_COLUMN + 1 + 2).unwrap().inset(1);
    let (top, bottom) = (
        Rect::new(r.x, r.y, r.w, r.h / 2),
        Rect::new(r.x, r.y + r.h as i32 / 2, r.w, r.h / 2),
    );
    assert!(ink_in(&img, top) > 5 && ink_in(&img, bottom) > 5);
    // A small double round robin writes its two results side by side.
    let mut small = round_robin(4, 3);
    small.cells[0][2] = "1 ½".into();
    let img = league::crosstable_image(&small).unwrap();
    let l = league::crosstable_layout(&small).unwrap();
    let r = l.cell(0, NAME_COLUMN + 1 + 2).unwrap();
    let (left, right) = (
        Rect::new(r.x + 1, r.y, r.w / 2 - 1, r.h),
        Rect::new(r.x + r.w as i32 / 2, r.y, r.w / 2 - 1, r.h),
    );
    assert!(ink_in(&img, left) > 5 && ink_in(&img, right) > 5);

    let mut t = swiss();
    t.rows = (0..MAX_STANDINGS_ROWS)
        .map(|i| {
            let mut r = standing(
                &(i + 1).to_string(),
                &format!("Player {} 名人", i + 1),
                &format!("{}½", 9 - i / 8),
                "9",
                &["40½", "33¼"],
            );
            r.withdrawn = i % 13 == 12;
            r
        })
        .collect();
    let png = league::standings_png(&t).unwrap();
    save_league("standings-64.png", &png);
    let img = decode(&png);
    let l = league::standings_layout(&t).unwrap();
    assert_eq!(l.rows.len(), MAX_STANDINGS_ROWS);
    assert_eq!(img.dimensions(), (l.width, l.height));
    assert!(png.len() < 400 * 1024, "{} bytes", png.len());
}

/// The clocks (issue 23) are drawn at the right of each player's name row, the "to move" chip
/// left of the clock and clear of the name; the board itself is untouched.
#[test]
fn both_clocks_are_drawn_at_the_right_of_the_name_rows() {
    for id in [VariantId::Shogi, VariantId::Judkins] {
        let v = Variant::get(id);
        let pos = Position::start(id);
        let plain = RenderOptions {
            names: [Some("alexandra_the_great".into()), Some("bob".into())],
            ..Default::default()
        };
        let timed = RenderOptions {
            clocks: [Some("23h + 1d".into()), Some("2d + 1d".into())],
            ..plain.clone()
        };
        let png = render_png(&pos, &timed).unwrap();
        save(&format!("clocks-{}.png", id.as_str()), &png);
        let (a, b) = (decode(&render_png(&pos, &plain).unwrap()), decode(&png));
        let l = layout(v, &timed);
        for c in [Color::Black, Color::White] {
            let row = l.name_rect(c).unwrap();
            // The right fifth of the row, where the clock goes, changed.
            let right = Rect::new(row.x + (row.w as i32) * 4 / 5, row.y, row.w / 5, row.h);
            assert!(
                differing(&a, &b, right) > 50,
                "{id:?} {c:?}: no clock drawn"
            );
        }
        // The board's squares are the same.
        let board = l.board_rect();
        assert_eq!(differing(&a, &b, board), 0, "{id:?}: the board changed");
        // The chip of the player to move (Black) sits between the name's share (45% of the row)
        // and the clock: none of its green left of the name's share.
        let row = l.name_rect(Color::Black).unwrap();
        let names = Rect::new(row.x, row.y, row.w * 45 / 100, row.h);
        assert_eq!(
            count(&b, names, |p| p == theme::TURN_CHIP),
            0,
            "{id:?}: the chip runs into the name"
        );
        assert!(
            count(&b, row, |p| p == theme::TURN_CHIP) > 100,
            "{id:?}: a chip"
        );
    }
}

/// The move picker's marks (issue 50): the picked piece's square in the selection colour, a
/// dot in the middle of each empty square it can reach, a ring inside the edge of each square
/// it would take on, nothing elsewhere; on the Palace board's coloured squares (its palace and
/// corridors) as on plain wood, in both piece styles.
#[test]
fn the_pickers_marks_show_a_dot_on_each_empty_target_and_a_ring_on_each_capture() {
    let v = Variant::get(VariantId::Palace);
    let pos =
        tegami::engine::notation::fen::parse(v, "3+sk4/9/4s4/4r4/4+Q4/9/9/9/L3K3L b - 1 9i1i -")
            .expect("position");
    let legal = pos.legal_moves();
    for (what, style) in [("5e", PieceStyle::Kanji), ("5i", PieceStyle::International)] {
        let (selected, targets) =
            tegami::render::picked_marks(&pos, &legal, what).expect("a square");
        assert!(!targets.is_empty());
        let opts = RenderOptions {
            selected,
            targets: targets.clone(),
            style,
            ..Default::default()
        };
        let png = render_png(&pos, &opts).expect("png");
        save(&format!("picker-marks-{what}.png"), &png);
        let img = decode(&png);
        let l = tegami::render::layout(v, &opts);
        let sel = l.square_rect(selected.expect("the piece's square"));
        assert_eq!(
            pixel(&img, ((sel.x + 3) as u32, (sel.y + 3) as u32)),
            theme::SELECTED
        );
        for &t in &targets {
            let r = l.square_rect(t);
            let (cx, cy) = r.center();
            if pos.piece_at(t).is_some() {
                // A ring: the mark colour near the edge, the piece left visible in the middle.
                let ring = count(&img, r, |p| near(p, theme::DOT, 8));
                assert!(ring > (r.w as usize) * 2, "a ring on {t:?}: {ring} pixels");
                assert_ne!(pixel(&img, (cx as u32, cy as u32)), theme::DOT);
            } else {
                assert_eq!(pixel(&img, (cx as u32, cy as u32)), theme::DOT, "{t:?}");
            }
        }
        // A square it cannot reach has no dot.
        for s in v.squares().iter().copied().filter(|s| !targets.contains(s)) {
            let r = l.square_rect(s);
            let (cx, cy) = r.center();
            assert_ne!(pixel(&img, (cx as u32, cy as u32)), theme::DOT, "{s:?}");
        }
    }
    // A kind in hand marks its drop squares; an unknown square is refused.
    let shogi = Variant::get(VariantId::Shogi);
    let pos = tegami::engine::notation::fen::parse(shogi, "4k4/9/9/9/9/9/9/9/4K4 b P 1")
        .expect("position");
    let (sel, drops) =
        tegami::render::picked_marks(&pos, &pos.legal_moves(), "P*").expect("a drop");
    assert_eq!(sel, None);
    assert_eq!(
        drops.len(),
        9 * 8 - 1,
        "every empty square off the last rank"
    );
    assert!(tegami::render::picked_marks(&pos, &pos.legal_moves(), "zz").is_none());
}

/// The rank labels follow the notation the picture is drawn for (kanji numerals for Japanese,
/// letters for Western and move codes), whatever the piece style: only the rank band changes.
#[test]
fn rank_labels_follow_the_notation_in_every_piece_style() {
    let pos = Position::start(VariantId::Shogi);
    let v = pos.variant();
    let draw = |style: PieceStyle, kanji: bool| {
        render::render_image(
            &pos,
            &RenderOptions {
                style,
                rank_kanji: Some(kanji),
                ..RenderOptions::default()
            },
        )
    };
    let l = layout(v, &RenderOptions::default());
    let b = l.board_rect();
    let band = l.coord_band();
    // The bands beside the board (the ranks) and the one above it (the files).
    let sides = [
        Rect::new(b.x - band as i32, b.y, band, b.h),
        Rect::new(b.x + b.w as i32, b.y, band, b.h),
    ];
    let top = Rect::new(b.x, b.y - band as i32, b.w, band);
    for style in [PieceStyle::Kanji, PieceStyle::International] {
        let kanji = draw(style, true);
        let letters = draw(style, false);
        save(&format!("ranks-{style:?}-kanji.png"), &{
            let mut out = Vec::new();
            kanji
                .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
                .expect("png");
            out
        });
        let ranks: usize = sides.iter().map(|&r| differing(&kanji, &letters, r)).sum();
        assert!(
            ranks > 100,
            "{style:?}: {ranks} pixels of the rank labels differ"
        );
        assert_eq!(differing(&kanji, &letters, b), 0, "{style:?}: the squares");
        assert_eq!(differing(&kanji, &letters, top), 0, "{style:?}: the files");
    }
    // The same labels in both piece styles: the rank bands are alike.
    for kanji in [true, false] {
        let a = draw(PieceStyle::Kanji, kanji);
        let i = draw(PieceStyle::International, kanji);
        let ranks: usize = sides.iter().map(|&r| differing(&a, &i, r)).sum();
        assert_eq!(
            ranks, 0,
            "rank_kanji {kanji}: the rank bands of the two styles"
        );
    }
}
