//! The move picker (issue 50), walked whole: for positions with the most legal moves of each of
//! the five games, every option of every step is followed to its end, and the moves reachable
//! this way are exactly the engine's legal moves, each within 5 interactions after Move, on
//! steps that fit Discord (25 options a menu, 4 menus and a row of buttons a message, labels
//! within Discord's lengths), and with component ids that survive the round trip.

use std::collections::{BTreeSet, HashSet};

use tegami::engine::notation::{code, fen, written_all, Notation};
use tegami::engine::{Color, Game, Move, PieceKind, Position, Variant, VariantId};
use tegami::i18n::Lang;
use tegami::service::picker::{
    leaves, step, PickAct, PickAction, PickId, Step, StepInput, BUTTONS_MAX, LABEL_MAX, MENUS_MAX,
    MENU_MAX,
};

/// What a walk found.
#[derive(Debug, Default)]
struct Walk {
    reached: BTreeSet<String>,
    /// The most options one step offered (all its menus and finishing buttons).
    most_options: usize,
    /// The most interactions after Move a move needed (the Play click included).
    most_clicks: usize,
    steps: usize,
}

/// A small deterministic generator for the random games (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn walk(pos: &Position, lang: Lang, notation: Notation) -> Walk {
    let legal = pos.legal_moves();
    let written: Vec<(Move, String)> = legal
        .iter()
        .copied()
        .zip(written_all(pos, &legal, notation, None))
        .collect();
    let side = pos.side_to_move();
    let v = pos.variant();
    let mut out = Walk::default();
    let mut todo: Vec<(Vec<String>, u32, usize)> = vec![(Vec::new(), 0, 0)];
    let mut seen: HashSet<(Vec<String>, u32)> = HashSet::new();
    while let Some((path, page, clicks)) = todo.pop() {
        if !seen.insert((path.clone(), page)) {
            continue;
        }
        let input = StepInput {
            game: 12,
            ply: pos.ply(),
            pos,
            side,
            legal: &legal,
            written: &written,
            lang,
            notation,
            path: &path,
            page,
        };
        let Step {
            picker,
            marks,
            text,
        } = step(&input).unwrap_or_else(|| panic!("no step at {path:?} in {}", fen::write(pos)));
        out.steps += 1;
        assert!(!text.is_empty());
        // Discord's limits.
        assert!(
            picker.menus.len() <= MENUS_MAX,
            "{} menus",
            picker.menus.len()
        );
        assert!(picker.choices.len() <= BUTTONS_MAX);
        assert!(picker.nav.len() <= BUTTONS_MAX);
        let mut tokens = HashSet::new();
        let mut options = picker.choices.len();
        // Menus of one step are told apart by their names (a long list: by its squares).
        let names: HashSet<&str> = picker
            .menus
            .iter()
            .map(|m| m.placeholder.as_str())
            .collect();
        assert_eq!(names.len(), picker.menus.len(), "{:?}", names);
        for (n, menu) in picker.menus.iter().enumerate() {
            assert!(!menu.options.is_empty() && menu.options.len() <= MENU_MAX);
            assert!(menu.placeholder.chars().count() <= 150);
            options += menu.options.len();
            let id = PickId {
                game: 12,
                ply: pos.ply(),
                opened: 1_790_000_000_000,
                act: PickAct::Menu {
                    n: n as u8,
                    path: menu.path.clone(),
                },
            };
            let encoded = id.encode();
            assert!(encoded.len() <= 100, "{encoded}");
            assert_eq!(PickId::decode(&encoded), Some(id));
            for o in &menu.options {
                assert!(o.label.chars().count() <= 100 && !o.label.is_empty());
                assert!(o
                    .description
                    .as_ref()
                    .is_none_or(|d| d.chars().count() <= 100));
                assert!(o.token.len() <= 100);
                assert!(tokens.insert(o.token.clone()), "token {} twice", o.token);
                let mut next = menu.path.clone();
                next.push(o.token.clone());
                todo.push((next, 0, clicks + 1));
            }
        }
        out.most_options = out.most_options.max(options);
        for b in picker.choices.iter().chain(&picker.nav) {
            assert!(b.label.chars().count() <= LABEL_MAX && !b.label.is_empty());
            let id = PickId {
                game: 12,
                ply: pos.ply(),
                opened: 1_790_000_000_000,
                act: PickAct::from(&b.action),
            };
            let encoded = id.encode();
            assert!(encoded.len() <= 100, "{encoded}");
            assert_eq!(PickId::decode(&encoded), Some(id));
            match &b.action {
                // Forward: a finishing choice or another page of the same step.
                PickAction::Go { path: p, page: pg }
                    if p.len() > path.len() || (*p == path && *pg != page) =>
                {
                    todo.push((p.clone(), *pg, clicks + 1));
                }
                PickAction::Go { path: p, .. } => {
                    assert!(p.len() < path.len(), "Back goes back");
                }
                PickAction::Play { code } => {
                    // The button names the move as written, and ends with its code.
                    assert!(b.label.ends_with(&format!("({code})")), "{}", b.label);
                    out.most_clicks = out.most_clicks.max(clicks + 1);
                    assert!(out.reached.insert(code.clone()), "{code} reached twice");
                    // The confirmation marks the move's squares.
                    assert!(!marks.marked.is_empty());
                }
                PickAction::Cancel => {}
                PickAction::Fresh => panic!("a fresh picker on a live position"),
            }
        }
        // Where a piece is picked, its squares are marked, and only them.
        if path.len() == 1 {
            let from = v.parse_square(&path[0]);
            let mut want: Vec<_> = legal
                .iter()
                .filter(|m| match (m, from) {
                    (Move::Drop { .. }, None) => code::write(v, **m).starts_with(&path[0]),
                    (_, Some(f)) => m.from() == Some(f),
                    _ => false,
                })
                .map(|m| match m {
                    Move::Lion { via, .. } => *via,
                    m => m.to(),
                })
                .collect();
            want.sort();
            want.dedup();
            let mut got = marks.targets.clone();
            got.sort();
            assert_eq!(got, want, "marks of {}", path[0]);
            assert_eq!(marks.selected, from);
        }
    }
    let legal_codes: BTreeSet<String> = legal.iter().map(|&m| code::write(v, m)).collect();
    assert_eq!(
        out.reached,
        legal_codes,
        "the picker reaches the legal moves of {}",
        fen::write(pos)
    );
    assert!(out.most_clicks <= 5, "{} clicks", out.most_clicks);
    out
}

/// Positions from seeded random games of `v`: every position of `games` games of at most
/// `plies` moves.
fn random_positions(id: VariantId, seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut g = Game::new(Position::start(id));
        for _ in 0..plies {
            let legal = g.legal_moves();
            if legal.is_empty() || g.is_over() {
                break;
            }
            // Captures first, half the time: the hands fill up and the armies mix.
            let captures: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.from().is_some() && g.position().piece_at(m.to()).is_some())
                .collect();
            let m = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                legal[rng.below(legal.len())]
            };
            if g.play(m).is_err() {
                break;
            }
            out.push(g.position().clone());
        }
    }
    out
}

fn hand_kinds(pos: &Position, c: Color) -> usize {
    let v: &Variant = pos.variant();
    v.spec
        .pieces
        .hand_order
        .iter()
        .filter(|&&k: &&PieceKind| pos.hand(c, k) > 0)
        .count()
}

/// The position with the most legal moves among `positions` that `keep` accepts.
fn richest(positions: &[Position], keep: impl Fn(&Position) -> bool) -> Option<Position> {
    positions
        .iter()
        .filter(|p| keep(p))
        .max_by_key(|p| p.legal_moves().len())
        .cloned()
}

fn report(name: &str, pos: &Position, w: &Walk) {
    eprintln!(
        "{name}: {} legal moves, {} steps walked, at most {} options a step, at most {} clicks after Move ({})",
        w.reached.len(),
        w.steps,
        w.most_options,
        w.most_clicks,
        fen::write(pos)
    );
}

#[test]
fn every_legal_move_of_a_shogi_middle_game_with_seven_kinds_in_hand_is_reachable_and_nothing_else()
{
    let positions = random_positions(VariantId::Shogi, 7, 60, 160);
    let pos = richest(&positions, |p| hand_kinds(p, p.side_to_move()) == 7)
        .expect("a random game put seven kinds in a hand");
    for (lang, notation) in [
        (Lang::En, Notation::Western),
        (Lang::Ja, Notation::Japanese),
        (Lang::En, Notation::Usi),
    ] {
        let w = walk(&pos, lang, notation);
        report("shogi, seven kinds in hand", &pos, &w);
        assert!(
            w.reached.len() > 100,
            "a rich position: {}",
            w.reached.len()
        );
    }
}

#[test]
fn every_legal_move_of_a_palace_position_with_a_double_capture_and_castling_is_reachable() {
    // Black's lion (+Q) on 5e can take the rook on 5d and then the silver on 5c; the king can
    // castle both ways.
    let v = Variant::get(VariantId::Palace);
    let pos = fen::parse(v, "3+sk4/9/4s4/4r4/4+Q4/9/9/9/L3K3L b - 1 9i1i -").expect("position");
    let legal = pos.legal_moves();
    assert!(legal.iter().any(|m| matches!(m, Move::Lion { via, to, .. }
        if pos.piece_at(*via).is_some() && pos.piece_at(*to).is_some())));
    assert!(legal.iter().any(|m| matches!(m, Move::Castle { .. })));
    for (lang, notation) in [
        (Lang::En, Notation::Western),
        (Lang::Ja, Notation::Japanese),
    ] {
        let w = walk(&pos, lang, notation);
        report("palace, lion and castling", &pos, &w);
    }
    // And the richest positions of random Palace games.
    let positions = random_positions(VariantId::Palace, 11, 40, 160);
    let pos = richest(&positions, |_| true).expect("positions");
    let w = walk(&pos, Lang::En, Notation::Western);
    report("palace, richest random", &pos, &w);
}

#[test]
fn every_legal_move_of_a_shanghai_position_with_both_armies_mixed_is_reachable() {
    let positions = random_positions(VariantId::Shanghai, 5, 60, 160);
    // Mixed: the side to move has shogi pieces in hand and both armies still on the board.
    let pos =
        richest(&positions, |p| hand_kinds(p, p.side_to_move()) >= 2).expect("a mixed position");
    for (lang, notation) in [
        (Lang::En, Notation::Western),
        (Lang::Ja, Notation::Japanese),
    ] {
        let w = walk(&pos, lang, notation);
        report("shanghai, mixed", &pos, &w);
    }
}

#[test]
fn every_legal_move_of_cannon_and_judkins_positions_is_reachable() {
    for (id, seed) in [(VariantId::Cannon, 3), (VariantId::Judkins, 9)] {
        let positions = random_positions(id, seed, 40, 140);
        let pos = richest(&positions, |_| true).expect("positions");
        let w = walk(&pos, Lang::En, Notation::Western);
        report(id.as_str(), &pos, &w);
        let w = walk(&pos, Lang::Ja, Notation::Japanese);
        report(id.as_str(), &pos, &w);
    }
}

#[test]
fn every_position_of_random_games_of_the_five_games_walks_to_its_legal_moves() {
    // Many ordinary positions too (promotions, drops, checks, lion steps, Shanghai pawns
    // promoting): a walk of each.
    for &id in VariantId::ALL {
        for pos in random_positions(id, 1234, 3, 120).iter().step_by(7) {
            walk(pos, Lang::En, Notation::Western);
        }
    }
}

#[test]
fn paths_are_unique_and_none_begins_another() {
    for &id in VariantId::ALL {
        for pos in random_positions(id, 99, 4, 120).iter().step_by(5) {
            let all = leaves(pos, &pos.legal_moves());
            let paths: Vec<&Vec<String>> = all.iter().map(|l| &l.path).collect();
            for (i, a) in paths.iter().enumerate() {
                for b in &paths[i + 1..] {
                    assert_ne!(a, b);
                    assert!(!b.starts_with(a) && !a.starts_with(b), "{a:?} {b:?}");
                }
            }
        }
    }
}

#[test]
fn forged_or_odd_ids_read_as_nothing() {
    for bad in [
        "",
        "tgk:",
        "tgk:1:2:3",
        "tgk:1:2:3:q:7g",
        "tgk:x:2:3:g0:7g",
        "tgk:1:2:3:p:",
        "tg:1:2:move 7g7f",
        "tgk:1:-5:3:g0:",
    ] {
        assert_eq!(PickId::decode(bad), None, "{bad}");
    }
    let id = PickId::decode("tgk:4:10:1790000000000:p:7g7f").expect("an id");
    assert_eq!(
        id.act,
        PickAct::Play {
            code: "7g7f".into()
        }
    );
}

/// Through the core: `pick` answers the player to move with the step, refuses the others as a
/// move would, and leads from a piece to its squares; `moves SQUARE` still lists them. (The
/// test service draws no pictures: the marked boards are checked in `tests/engine/render.rs`
/// and end to end in `tests/bot_e2e/picker.rs`.)
#[test]
fn the_core_answers_pick_for_the_player_to_move_only() {
    let env = crate::service_common::Env::new();
    let game = env.start_game("alice", "bob", "shogi");
    let r = env.ok("alice", &format!("pick {game}"));
    let p = r.picker.as_ref().expect("a picker");
    assert_eq!(p.ply, 0);
    assert!(r.text.contains("Pick a piece"), "{}", r.text);
    let r = env.ok("alice", &format!("pick {game} 7g"));
    let p = r.picker.as_ref().expect("a picker");
    let squares: Vec<&str> = p.menus[0]
        .options
        .iter()
        .map(|o| o.token.as_str())
        .collect();
    assert_eq!(squares, ["7f"]);
    // Not Bob's turn; Carol does not play.
    let r = env.send("bob", &format!("pick {game}"));
    assert!(r.error && r.text.contains("not your turn"), "{}", r.text);
    let r = env.send("carol", &format!("pick {game}"));
    assert!(r.error && r.text.contains("you do not play"), "{}", r.text);
    // A path no move has (a forged id) leads back to the first step.
    let r = env.ok("alice", &format!("pick {game} 5e"));
    assert!(r.text.contains("Pick a piece"), "{}", r.text);
    // `moves 7g`: the list.
    let r = env.ok("alice", &format!("moves {game} 7g"));
    assert!(r.text.contains("P-7f"), "{}", r.text);
}
