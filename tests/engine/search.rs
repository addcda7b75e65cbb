//! The computer player: it finds mates in every game, never plays an illegal move, keeps the
//! games' rules (pawn-drop mate, perpetual check, Shanghai's threefold refusal, entering king),
//! is reproducible for a seed; the `bestmove` and `analyse` subcommands; the evaluation chart.

use std::process::Command;

use proptest::prelude::*;
use tegami::engine::notation::{code, fen};
use tegami::engine::search::{self, players, Limits, PlyEval, Score, SearchParams, Searcher};
use tegami::engine::{Color, Game, IllegalMove, Move, Outcome, Reason, Variant, VariantId};

fn game(id: VariantId, position: &str) -> Game {
    let v = Variant::get(id);
    let p = fen::parse(v, position).unwrap_or_else(|e| panic!("{id} {position}: {e}"));
    Game::new(p)
}

fn play_codes(mut g: Game, moves: &str) -> Game {
    for m in moves.split_whitespace() {
        let mv = code::parse(g.position(), m).unwrap_or_else(|| panic!("move {m}"));
        g.play(mv).unwrap_or_else(|e| panic!("move {m}: {e:?}"));
    }
    g
}

fn mv(g: &Game, text: &str) -> Move {
    code::parse(g.position(), text).unwrap_or_else(|| panic!("move {text}"))
}

fn code_of(g: &Game, m: Move) -> String {
    code::write(g.variant(), m)
}

/// Whether `m` checkmates at once.
fn mates(g: &Game, m: Move) -> bool {
    let mover = g.position().side_to_move();
    let mut g = g.clone();
    g.play(m).is_ok()
        && g.outcome()
            == Some(Outcome::Win {
                winner: mover,
                reason: Reason::Checkmate,
            })
}

fn mate_in_one_exists(g: &Game) -> bool {
    g.legal_moves().into_iter().any(|m| mates(g, m))
}

/// Positions built from the rules: (game, position string, moves to mate).
const MATES: &[(VariantId, &str, i32)] = &[
    // Gold drop on the king's head, guarded by the pawn.
    (VariantId::Shogi, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1),
    // Two golds against a bare king in the corner: G*2c, then G*2b.
    (VariantId::Shogi, "8k/9/9/9/9/9/9/9/K8 b GG 1", 2),
    (VariantId::Judkins, "k5/6/P5/6/6/5K b G 1", 1),
    (VariantId::Judkins, "5k/6/6/6/6/K5 b GG 1", 2),
    // The pawn steps sideways onto the file and becomes the gold cannon's screen: a check
    // nothing can block, the king hemmed in by its own lances.
    (VariantId::Cannon, "3lkl3/3l1l3/9/9/3P5/9/9/4U4/K8 b - 1", 1),
    (VariantId::Cannon, "8k/9/9/9/9/9/9/9/K8 b GG 1", 2),
    (VariantId::Palace, "8k/9/7S1/9/9/9/9/9/K8 b S 1 - -", 1),
    // Silvers cannot be dropped in the enemy palace, but the corner is outside it.
    (VariantId::Palace, "8k/9/9/9/9/9/9/9/K8 b SS 1 - -", 2),
    // Rook to the back rank; the other rook holds rank 8, the flying king holds f9. Blue's
    // spare pawn means no stalemate instead.
    (VariantId::Shanghai, "4k4/R8/9/z8/9/9/9/9/1R3K3 b - 1", 1),
    (VariantId::Shanghai, "4k4/9/9/z8/9/9/9/9/RR3K3 b - 1", 2),
];

fn check_mates(id: VariantId) {
    let mut seen = 0;
    for &(v, position, n) in MATES.iter().filter(|m| m.0 == id) {
        seen += 1;
        let g = game(v, position);
        let r = search::think(&g, &Limits::depth(2 * n as u32 + 1), 4);
        let best = r.best.expect("a move");
        assert_eq!(r.score, Score::Mate(n), "{v} {position}: {r:?}");
        if n == 1 {
            assert!(mates(&g, best), "{v} {position}: {}", code_of(&g, best));
            continue;
        }
        // No shorter mate, and the chosen move mates next move against every reply.
        assert!(!mate_in_one_exists(&g), "{v} {position} has a mate in 1");
        let g1 = play_codes(g.clone(), &code_of(&g, best));
        assert!(!g1.is_over());
        for reply in g1.legal_moves() {
            let mut g2 = g1.clone();
            g2.play(reply).expect("legal");
            assert!(
                mate_in_one_exists(&g2),
                "{v} {position}: {} {} escapes",
                code_of(&g, best),
                code_of(&g1, reply)
            );
            // And the search finds that mate.
            let r2 = search::think(&g2, &Limits::depth(3), 4);
            assert!(mates(&g2, r2.best.expect("a move")));
        }
    }
    assert_eq!(seen, 2, "{id}: a mate in 1 and a mate in 2");
}

/// Each technique of the search (`SearchParams`) can be switched off, or made eager, and the
/// search still finds every mate of `MATES`: at its distance with the settings in force and
/// with every technique off, none of them pruning a forced line away. The eager settings
/// start the singular test, the reduction of unknown nodes and ProbCut at depth 2, so that
/// these small searches run them, and prune to depth 6; pruning that hard may take a longer
/// way to the mate (in Cannon Shogi's two golds, a mate in 3 instead of 2), but still finds
/// one within a move, and the mates in one exactly. The selective settings (Fairy-Stockfish's
/// way: checks extended only from depth 7, reduced like other moves, evasions reduced, cut
/// nodes reduced two plies more, two captures a node in the quiescence search, move-count
/// pruning to depth 7) are held to the same.
#[test]
fn the_mates_are_found_with_each_search_technique_off_or_eager() {
    let mut off = SearchParams::default();
    for name in SearchParams::NAMES {
        assert!(off.set(name, 0), "{name}");
    }
    assert!(!off.set("no such setting", 1));
    let mut eager = SearchParams::default();
    for (name, v) in [
        ("singular", 2),
        ("iir_depth", 2),
        ("rfp_depth", 6),
        ("see_quiet_depth", 6),
        ("probcut", 2),
    ] {
        assert!(eager.set(name, v), "{name}");
    }
    let mut selective = SearchParams::default();
    for (name, v) in [
        ("check_ext_depth", 7),
        ("lmr_evasion", 1),
        ("lmr_checks", 1),
        ("lmr_cut", 2),
        ("qs_moves", 2),
        ("lmp_depth", 7),
        ("lmp_base", 3),
        ("lmp_mul", 1),
    ] {
        assert!(selective.set(name, v), "{name}");
    }
    for params in [SearchParams::default(), off, eager, selective] {
        for &(v, position, n) in MATES {
            let g = game(v, position);
            let r = Searcher::new(4).with_search_params(params).think(
                &g,
                &Limits::depth(2 * n as u32 + 3),
                |_| {},
            );
            if (params == eager || params == selective) && n > 1 {
                assert!(
                    matches!(r.score, Score::Mate(k) if k >= n && k <= n + 1),
                    "{v} {position} {params:?}: {r:?}"
                );
                continue;
            }
            assert_eq!(r.score, Score::Mate(n), "{v} {position} {params:?}: {r:?}");
            if n == 1 {
                assert!(
                    mates(&g, r.best.expect("a move")),
                    "{v} {position} {params:?}"
                );
            }
        }
    }
}

#[test]
fn shogi_mates_in_one_and_two_are_found() {
    check_mates(VariantId::Shogi);
}

#[test]
fn judkins_mates_in_one_and_two_are_found() {
    check_mates(VariantId::Judkins);
}

#[test]
fn cannon_mates_in_one_and_two_are_found() {
    check_mates(VariantId::Cannon);
}

#[test]
fn palace_mates_in_one_and_two_are_found() {
    check_mates(VariantId::Palace);
}

#[test]
fn shanghai_mates_in_one_and_two_are_found() {
    check_mates(VariantId::Shanghai);
}

#[test]
fn pawn_drop_mate_is_never_played() {
    // P*5b would mate: the gold guards the pawn and the king's own lances wall it in.
    let g = game(VariantId::Shogi, "3lkl3/9/4G4/9/9/9/9/9/4K4 b P 1");
    let drop = mv(&g, "P*5b");
    // The drop would indeed leave White in check with no move.
    let mut p = g.position().clone();
    p.make(drop);
    assert!(p.in_check() && p.legal_moves().is_empty());
    assert!(!g.legal_moves().contains(&drop));
    assert!(matches!(
        g.check_move(drop),
        Err(IllegalMove::PawnDropMate { .. })
    ));
    for level in search::LEVELS {
        let limits = Limits {
            level: Some(level),
            nodes: Some(20_000),
            ..Limits::default()
        };
        let r = search::think(&g, &limits, 4);
        let best = r.best.expect("a move");
        assert_ne!(best, drop, "level {level}");
        assert!(g.legal_moves().contains(&best));
    }
}

/// Black's rook checks from 1d and 2d while White's king steps between 1a and 2a: after these
/// moves, 2d1d would make the position after Black's first check for the fourth time, every
/// Black move since having been a check. White has a big hand: Black is lost otherwise, so a
/// search that took a repetition for a draw would play it.
const PERPETUAL: &str = "3d1d 1a2a 1d2d 2a1a 2d1d 1a2a 1d2d 2a1a 2d1d 1a2a 1d2d 2a1a";

#[test]
fn perpetual_check_that_loses_is_avoided() {
    let start = game(VariantId::Shogi, "8k/9/9/6R2/9/9/9/9/K8 b rbggssnn 1");
    let g = play_codes(start, PERPETUAL);
    let repeat = mv(&g, "2d1d");
    let mut after = g.clone();
    after.play(repeat).expect("legal");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: Reason::PerpetualCheck
        })
    );
    for level in search::LEVELS {
        let limits = Limits {
            level: Some(level),
            nodes: Some(20_000),
            seed: 7,
            ..Limits::default()
        };
        let best = search::think(&g, &limits, 4).best.expect("a move");
        assert_ne!(
            best, repeat,
            "level {level} plays the losing perpetual check"
        );
    }
}

#[test]
fn fourfold_repetition_is_a_draw_worth_taking_in_palace_shogi() {
    // The same checks in Palace Shogi, where the fourth occurrence is a draw even after
    // perpetual check: the lost side takes it.
    let start = game(VariantId::Palace, "8k/9/9/6R2/9/9/9/9/K8 b rbssnn 1 - -");
    let g = play_codes(start, PERPETUAL);
    let repeat = mv(&g, "2d1d");
    let mut after = g.clone();
    after.play(repeat).expect("legal");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
    let r = search::think(&g, &Limits::nodes(50_000), 4);
    assert_eq!(r.best, Some(repeat), "{r:?}");
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn shanghai_third_repetition_is_never_chosen() {
    // Rook a1-a2-a1, king e9-e8-e9: e8e9 would make the start position a third time.
    let start = game(VariantId::Shanghai, "4k4/9/9/9/9/9/9/9/R2K5 b - 1");
    let g = play_codes(start, "a1a2 e9e8 a2a1 e8e9 a1a2 e9e8 a2a1");
    let back = mv(&g, "e8e9");
    assert_eq!(g.check_move(back), Err(IllegalMove::ThirdRepetition));
    assert!(!g.legal_moves().contains(&back));
    for level in search::LEVELS {
        let limits = Limits {
            level: Some(level),
            nodes: Some(10_000),
            ..Limits::default()
        };
        let best = search::think(&g, &limits, 4).best.expect("a move");
        assert_ne!(best, back);
        assert!(g.check_move(best).is_ok());
    }
}

#[test]
fn entering_the_enemy_palace_wins_at_once() {
    // Black's king on 5d steps into White's palace (files 4-6, ranks a-c).
    let g = game(VariantId::Palace, "k8/9/9/4K4/9/9/9/9/9 b - 1 - -");
    let r = search::think(&g, &Limits::depth(2), 4);
    assert_eq!(r.score, Score::Mate(1));
    let mut after = g.clone();
    after.play(r.best.expect("a move")).expect("legal");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::EnteringKing
        })
    );
}

#[test]
fn a_winning_declaration_is_pointed_out() {
    // Black's king and ten pieces in the zone, 28 points: Black may declare and win.
    let g = game(VariantId::Shogi, "+R+B7/PPPPKPPPP/9/9/9/9/9/9/4k4 b R5P 1");
    let r = search::think(&g, &Limits::depth(2), 4);
    assert!(r.declare);
    assert!(g.legal_moves().contains(&r.best.expect("a move")));
    // One pawn fewer in hand: 27 points, not enough for Black.
    let g = game(VariantId::Shogi, "+R+B7/PPPPKPPPP/9/9/9/9/9/9/4k4 b R4P 1");
    assert!(!search::think(&g, &Limits::depth(2), 4).declare);
}

#[test]
fn a_finished_game_has_no_best_move() {
    let g = play_codes(
        game(VariantId::Shogi, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
        "G*5b",
    );
    assert!(g.is_over());
    let r = search::think(&g, &Limits::level(3, 0), 4);
    assert_eq!(r.best, None);
}

#[test]
fn the_same_seed_gives_the_same_move() {
    for &id in VariantId::ALL {
        let g = play_codes(Game::new(tegami::engine::Position::start(id)), "");
        for level in 1..=4 {
            let a = search::think(&g, &Limits::level(level, 42), 4);
            let b = Searcher::new(4).think(&g, &Limits::level(level, 42), |_| {});
            assert_eq!(a, b, "{id} level {level}");
        }
        // Level 5 under a node limit is reproducible too.
        let limits = Limits {
            level: Some(5),
            nodes: Some(30_000),
            ..Limits::default()
        };
        let a = search::think(&g, &limits, 4);
        let b = search::think(&g, &limits, 4);
        assert_eq!(a, b, "{id} level 5 with a node limit");
    }
}

#[test]
fn a_raised_stop_flag_ends_the_search_within_a_few_thousand_nodes() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let g = Game::new(tegami::engine::Position::start(VariantId::Palace));
    let limits = Limits {
        nodes: Some(5_000_000),
        stop: Some(Arc::new(AtomicBool::new(true))),
        ..Limits::default()
    };
    let mut depths = Vec::new();
    let r = Searcher::new(4).think(&g, &limits, |info| depths.push(info.depth));
    assert!(g.legal_moves().contains(&r.best.expect("a move")));
    // The flag is read every 1,024 nodes once the first iteration is done.
    assert!(r.nodes < 5_000, "{} nodes", r.nodes);
    assert!(r.depth >= 1);
    assert_eq!(depths[0], 1);
}

#[test]
fn the_beginner_level_varies_with_the_seed() {
    let g = Game::new(tegami::engine::Position::start(VariantId::Shogi));
    let mut moves: Vec<Move> = (0..12)
        .filter_map(|seed| search::think(&g, &Limits::level(1, seed), 4).best)
        .collect();
    moves.sort();
    moves.dedup();
    assert!(moves.len() >= 3, "{moves:?}");
}

#[test]
fn stronger_levels_beat_the_random_mover() {
    // A short match as a sanity check (the bench plays the long ones): level 3 against the
    // random mover in Judkins Shogi, 4 games, colours alternating.
    let mut points = 0.0;
    for game_no in 0..4u64 {
        let mut g = Game::new(tegami::engine::Position::start(VariantId::Judkins));
        let engine_side = if game_no % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        for ply in 0..200u64 {
            if g.is_over() {
                break;
            }
            let m = if g.position().side_to_move() == engine_side {
                search::think(&g, &Limits::level(3, game_no), 4).best
            } else {
                players::random_move(&g, game_no * 1000 + ply)
            };
            g.play(m.expect("a move")).expect("legal");
        }
        points += match g.outcome() {
            Some(Outcome::Win { winner, .. }) if winner == engine_side => 1.0,
            Some(Outcome::Draw { .. }) | None => 0.5,
            _ => 0.0,
        };
    }
    assert!(points >= 3.5, "level 3 scored {points}/4 against random");
}

#[test]
fn analysis_names_the_blunder() {
    // Black throws the bishop away on move 4 (Bx3d, taken by the silver).
    let g = play_codes(
        Game::new(tegami::engine::Position::start(VariantId::Shogi)),
        "7g7f 3c3d 8h2b+ 3a2b B*4e 2b3c 4e3d 3c3d",
    );
    let a = search::analyse(&g, 5_000);
    assert_eq!(a.evals.len(), 9);
    assert!(a
        .evals
        .iter()
        .all(|e| e.points.abs() <= search::CLAMP_POINTS));
    let swings = a.biggest_swings(3);
    assert_eq!(swings[0].ply, 6, "{swings:?}");
    assert!(swings[0].loss > 5.0);
    assert!(swings[0].better.is_some());
    assert!(swings.windows(2).all(|w| w[0].loss >= w[1].loss));
}

#[test]
fn analysis_of_a_mate_ends_at_the_edge() {
    let g = play_codes(
        game(VariantId::Shogi, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
        "G*5b",
    );
    let a = search::analyse(&g, 2_000);
    assert_eq!(a.evals.len(), 2);
    assert_eq!(a.evals[0].mate, Some(1));
    assert_eq!(a.evals[1].points, search::CLAMP_POINTS);
    assert_eq!(a.evals[1].mate, Some(0));
}

#[test]
fn an_analysis_budget_spreads_its_nodes_and_stops_at_its_time() {
    use std::time::Duration;
    use tegami::engine::search::Budget;
    let b = Budget {
        total_nodes: 1_000_000,
        max_per_position: 20_000,
        min_per_position: 2_000,
        time: Duration::from_secs(60),
    };
    assert_eq!(b.per_position(10), 20_000, "a short game: the ceiling");
    assert_eq!(b.per_position(99), 10_000, "spread over 100 positions");
    assert_eq!(b.per_position(999), 2_000, "a very long game: the floor");
    let g = play_codes(
        Game::new(tegami::engine::Position::start(VariantId::Shogi)),
        "7g7f 3c3d 8h2b+ 3a2b B*4e 2b3c 4e3d 3c3d",
    );
    // Within its time: every position, the same figures as `analyse` on the share.
    let small = Budget {
        total_nodes: 27_000,
        ..b.clone()
    };
    let a = search::analyse_within(&g, &small);
    assert!(!a.cut);
    assert_eq!(a.nodes_per_position, 3_000);
    let same = search::analyse(&g, 3_000);
    assert_eq!(a.evals, same.evals);
    assert_eq!(a.best, same.best);
    // No time: the first position only, marked cut, and nothing after it claimed.
    let cut = search::analyse_within(
        &g,
        &Budget {
            time: Duration::ZERO,
            ..b
        },
    );
    assert!(cut.cut);
    assert_eq!(cut.evals.len(), 1);
    assert!(cut.moves.is_empty());
    assert!(cut.biggest_swings(3).is_empty());
}

#[test]
fn the_chart_is_a_png_of_the_given_size_with_its_line_and_mate_dots() {
    use tegami::render::chart::{eval_chart_png, ChartOptions};
    let evals: Vec<PlyEval> = (0..40)
        .map(|i| PlyEval {
            points: (i as f64 / 3.0).sin() * 8.0,
            mate: None,
        })
        .chain(std::iter::once(PlyEval {
            points: -search::CLAMP_POINTS,
            mate: Some(0),
        }))
        .collect();
    let opts = ChartOptions {
        size: (640, 320),
        ..ChartOptions::default()
    };
    let png = eval_chart_png(&evals, &opts).expect("chart");
    let img = image::load_from_memory(&png).expect("a PNG").to_rgb8();
    assert_eq!(img.dimensions(), (640, 320));
    let count = |rgb: [u8; 3]| img.pixels().filter(|p| p.0 == rgb).count();
    assert!(count([40, 70, 140]) > 300, "the evaluation line");
    assert!(count([190, 40, 40]) > 20, "the mate dot");
}

// --- The command line ------------------------------------------------------------------------

fn tegami(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tegami"))
        .args(args)
        .output()
        .expect("run tegami");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bestmove_prints_info_lines_then_a_legal_move() {
    for &id in VariantId::ALL {
        let moves = match id {
            VariantId::Shanghai => "i3i4",
            VariantId::Judkins => "1f1d",
            _ => "7g7f",
        };
        let (code, out, err) = tegami(&[
            "bestmove",
            "--variant",
            id.as_str(),
            "--moves",
            moves,
            "--nodes",
            "20000",
        ]);
        assert_eq!(code, 0, "{err}");
        let lines: Vec<&str> = out.lines().collect();
        let (last, infos) = lines.split_last().expect("output");
        assert!(!infos.is_empty());
        for (i, l) in infos.iter().enumerate() {
            let w: Vec<&str> = l.split(' ').collect();
            assert_eq!(w[..2], ["info", "depth"], "{l}");
            assert_eq!(w[2], (i + 1).to_string());
            assert_eq!(w[3], "score");
            assert!(w[4] == "cp" || w[4] == "mate", "{l}");
            w[5].parse::<i32>().expect("score");
            assert_eq!(w[6], "nodes");
            w[7].parse::<u64>().expect("nodes");
            assert_eq!(w[8], "nps");
            assert_eq!(w[10], "pv");
            assert!(w.len() > 11);
        }
        let best = last.strip_prefix("bestmove ").expect(last);
        let (_, legal, _) = tegami(&["legal", "--variant", id.as_str(), "--moves", moves]);
        assert!(legal.lines().any(|l| l == best), "{id}: {best}");
        // The pv of the last line starts with the best move.
        assert_eq!(infos.last().unwrap().split(' ').nth(11), Some(best));
    }
}

#[test]
fn bestmove_with_a_seed_repeats_itself() {
    let args = [
        "bestmove",
        "--variant",
        "palace",
        "--level",
        "2",
        "--seed",
        "11",
    ];
    let (_, a, _) = tegami(&args);
    let (_, b, _) = tegami(&args);
    let last = |s: &str| s.lines().last().unwrap_or_default().to_string();
    assert_eq!(last(&a), last(&b));
}

#[test]
fn bestmove_says_none_when_the_game_is_over() {
    let (code, out, _) = tegami(&[
        "bestmove",
        "--variant",
        "shogi",
        "--position",
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        "--moves",
        "G*5b",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out, "bestmove none\n");
}

#[test]
fn bestmove_reports_mate_scores() {
    let (_, out, _) = tegami(&[
        "bestmove",
        "--variant",
        "judkins",
        "--position",
        "5k/6/6/6/6/K5 b GG 1",
        "--depth",
        "5",
    ]);
    let infos: Vec<&str> = out.lines().filter(|l| l.starts_with("info")).collect();
    assert!(infos.last().unwrap().contains(" score mate 2 "), "{out}");
    assert_eq!(out.lines().last(), Some("bestmove G*2c"));
}

#[test]
fn bestmove_refuses_bad_input_in_one_line() {
    for args in [
        &["bestmove", "--variant", "shogi", "--level", "6"][..],
        &["bestmove", "--variant", "shogi", "--depth", "0"],
        &["bestmove", "--variant", "chess"],
        &["bestmove", "--variant", "shogi", "--moves", "7g7f 7g7f"],
        &[
            "bestmove",
            "--variant",
            "shogi",
            "--position",
            "nonsense b - 1",
        ],
        &["bestmove", "--variant", "shogi", "--search", "lmr_cut"],
        &["bestmove", "--variant", "shogi", "--search", "lmr_cut=two"],
        &["bestmove", "--variant", "shogi", "--search", "no_such=1"],
    ] {
        let (code, out, err) = tegami(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("tegami: "), "{err}");
    }
}

/// The tactics suite of `cargo bench --bench search -- tactics` is sound data: every position
/// is reached by legal moves from the start, the game is not over there, and `best` and
/// `avoid` are two different legal moves whose scores (Fairy-Stockfish's) are 200 apart.
#[test]
fn the_tactics_suite_holds_legal_positions_and_moves() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/tactics/judkins.jsonl");
    let text = std::fs::read_to_string(path).expect("the suite");
    let (mut mistakes, mut kept) = (0, 0);
    for (i, line) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let field = |k: &str| {
            v[k].as_str()
                .unwrap_or_else(|| panic!("line {}: {k}", i + 1))
        };
        let id = VariantId::parse(field("variant")).expect("a game");
        let mut g = Game::new(tegami::engine::Position::start(id));
        for m in field("moves").split_whitespace() {
            let mv = code::parse(g.position(), m).expect("a move code");
            g.play(mv)
                .unwrap_or_else(|e| panic!("line {}: {m}: {e:?}", i + 1));
        }
        assert!(!g.is_over(), "line {}", i + 1);
        let legal = g.legal_moves();
        let best = code::parse(g.position(), field("best")).expect("best");
        let avoid = code::parse(g.position(), field("avoid")).expect("avoid");
        assert!(legal.contains(&best) && legal.contains(&avoid) && best != avoid);
        let gap = v["best_score"].as_i64().expect("a score")
            - v["avoid_score"].as_i64().expect("a score");
        assert!(gap >= 200, "line {}: {gap}", i + 1);
        if v["kept"].as_bool() == Some(true) {
            kept += 1;
        } else {
            mistakes += 1;
        }
    }
    assert_eq!((mistakes, kept), (29, 58));
}

/// `--search NAME=VALUE` changes the search: a node-limited search is reproducible, so the
/// same settings give the same lines and other settings other node counts to each depth.
#[test]
fn bestmove_search_settings_change_the_search() {
    let run = |extra: &[&str]| {
        let mut args = vec![
            "bestmove",
            "--variant",
            "judkins",
            "--moves",
            "1f1d 3a3b 2f4d",
            "--nodes",
            "60000",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = tegami(&args);
        assert_eq!(code, 0, "{err}");
        // Everything but the speed, which varies from run to run.
        out.lines()
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                match w.iter().position(|&x| x == "nps") {
                    Some(i) => [&w[..i], &w[i + 2..]].concat().join(" "),
                    None => l.to_string(),
                }
            })
            .collect::<Vec<_>>()
    };
    let plain = run(&[]);
    assert_eq!(run(&["--search", "lmr_cut=0"]), plain, "the default value");
    let changed = run(&["--search", "check_ext_depth=7", "--search", "qs_moves=2"]);
    assert_ne!(changed, plain);
    assert!(changed.last().expect("output").starts_with("bestmove "));
}

#[test]
fn analyse_writes_the_chart_and_names_the_swings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("eval.png");
    let (code, out, err) = tegami(&[
        "analyse",
        "--variant",
        "shogi",
        "--moves",
        "7g7f 3c3d 8h2b+ 3a2b B*4e 2b3c 4e3d 3c3d",
        "--nodes",
        "5000",
        "--out",
        path.to_str().expect("path"),
    ]);
    assert_eq!(code, 0, "{err}");
    let img = image::open(&path).expect("a PNG");
    assert_eq!((img.width(), img.height()), search_chart_size());
    let lines: Vec<&str> = out.lines().collect();
    assert!(!lines.is_empty() && lines.len() <= 3, "{out}");
    // Move 4 of Black, Bx3d, in Hodges notation, with the move the search preferred.
    assert!(lines[0].starts_with("4. Bx3d lost "), "{out}");
    assert!(lines[0].contains(" points; better was 4. "), "{out}");
    for l in &lines {
        let loss: f64 = l
            .split(" lost ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .expect(l);
        assert!(loss > 0.0);
    }
}

fn search_chart_size() -> (u32, u32) {
    tegami::render::chart::CHART_SIZE
}

#[test]
fn analyse_refuses_an_illegal_move() {
    let (code, _, err) = tegami(&[
        "analyse",
        "--variant",
        "shogi",
        "--moves",
        "7g7f 7g7f",
        "--out",
        "/nonexistent/x.png",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("move 2"), "{err}");
}

// --- Never an illegal move -------------------------------------------------------------------

/// A game of `plies` random moves (fewer if it ends).
fn random_game(id: VariantId, seed: u64, plies: u64) -> Game {
    let mut g = Game::new(tegami::engine::Position::start(id));
    for ply in 0..plies {
        let Some(m) = players::random_move(&g, seed.wrapping_mul(31).wrapping_add(ply)) else {
            break;
        };
        g.play(m).expect("a legal move");
    }
    g
}

/// Whether `m` loses the game at once by rule (perpetual check).
fn loses_at_once(g: &Game, m: Move) -> bool {
    let mover = g.position().side_to_move();
    let mut g = g.clone();
    g.play(m).is_ok() && matches!(g.outcome(), Some(Outcome::Win { winner, .. }) if winner != mover)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_search_only_plays_legal_moves(
        variant in 0..VariantId::ALL.len(),
        seed in any::<u64>(),
        plies in 0u64..80,
        level in 1u8..=5,
    ) {
        let id = VariantId::ALL[variant];
        let g = random_game(id, seed, plies);
        let limits = Limits { level: Some(level), nodes: Some(3_000), seed, ..Limits::default() };
        let r = search::think(&g, &limits, 2);
        let legal = g.legal_moves();
        match r.best {
            None => prop_assert!(legal.is_empty()),
            Some(m) => {
                prop_assert!(legal.contains(&m));
                prop_assert!(g.check_move(m).is_ok());
                if loses_at_once(&g, m) {
                    prop_assert!(legal.iter().all(|&o| loses_at_once(&g, o)));
                }
                prop_assert_eq!(r.pv.first(), Some(&m));
                // The expected line is playable.
                let mut line = g.clone();
                for &p in &r.pv {
                    prop_assert!(line.play(p).is_ok(), "pv {:?}", r.pv);
                }
            }
        }
    }
}

#[test]
fn lazy_smp_helpers_search_with_the_main_thread_and_stop_with_it() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::{Duration, Instant};
    // Only searches on the clock use several threads; node and depth budgets stay on one.
    assert_eq!(Limits::nodes(1_000).thread_count(), 1);
    assert_eq!(Limits::depth(4).thread_count(), 1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(Limits::level(5, 0).thread_count(), cores);
    assert_eq!(Limits::level(4, 0).thread_count(), 1);
    let on_clock = |threads| Limits {
        movetime: Some(Duration::from_millis(300)),
        threads,
        ..Limits::default()
    };
    assert_eq!(on_clock(3).thread_count(), 3);
    for id in [VariantId::Shogi, VariantId::Palace] {
        let g = Game::new(tegami::engine::Position::start(id));
        let mut main_nodes = 0;
        let r = Searcher::new(16).think(&g, &on_clock(2), |info| main_nodes = info.nodes);
        assert!(g.legal_moves().contains(&r.best.expect("a move")), "{id}");
        // The count includes the helper's nodes; the info lines are the main thread's.
        assert!(r.nodes > main_nodes, "{id}: {} vs {main_nodes}", r.nodes);
    }
    // A raised flag stops the helpers too: the search does not wait for its minute.
    let g = Game::new(tegami::engine::Position::start(VariantId::Cannon));
    let t0 = Instant::now();
    let r = Searcher::new(16).think(
        &g,
        &Limits {
            movetime: Some(Duration::from_secs(60)),
            threads: 3,
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..Limits::default()
        },
        |_| {},
    );
    assert!(g.legal_moves().contains(&r.best.expect("a move")));
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
}

#[test]
fn an_analysis_on_every_core_gives_the_figures_of_one_search_after_another() {
    let g = play_codes(
        Game::new(tegami::engine::Position::start(VariantId::Judkins)),
        "1f1d 5a3c 4f5e 3a3b 2f4d 2a2b",
    );
    let a = search::analyse(&g, 4_000);
    assert_eq!(a.evals.len(), 7);
    let mut prefix = Game::new(g.start().clone());
    for i in 0..=6 {
        let r = search::think(&prefix, &Limits::nodes(4_000), search::DEFAULT_TT_MB);
        assert_eq!(a.best[i], r.best, "position {i}");
        let sign = if prefix.position().side_to_move() == tegami::engine::Color::Black {
            1.0
        } else {
            -1.0
        };
        let cp = r.score.clamped_cp((search::CLAMP_POINTS * 100.0) as i32);
        assert_eq!(a.evals[i].points, sign * cp as f64 / 100.0, "position {i}");
        if let Some(&m) = g.moves().get(i) {
            prefix.play(m).expect("a legal move");
        }
    }
}

#[test]
fn a_search_on_the_clock_uses_its_time() {
    use std::time::{Duration, Instant};
    // Level 5's second is all thought: the last iteration runs to the deadline (a slow
    // machine only makes the search take longer, never shorter).
    let g = Game::new(tegami::engine::Position::start(VariantId::Shogi));
    let limits = Limits {
        movetime: Some(Duration::from_millis(400)),
        threads: 1,
        ..Limits::default()
    };
    let t0 = Instant::now();
    let r = Searcher::new(16).think(&g, &limits, |_| {});
    assert!(g.legal_moves().contains(&r.best.expect("a move")));
    assert!(
        t0.elapsed() >= Duration::from_millis(380),
        "{:?}",
        t0.elapsed()
    );
}
