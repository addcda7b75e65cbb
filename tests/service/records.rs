//! Game records for shogi software: KIF and CSA exports of Shogi games that ended every way
//! (resignation on and off turn, checkmate, time, repetition, perpetual check, impasse won and
//! drawn, declaration by either side, agreed draw) and of every handicap, made through the
//! command core on a real SQLite file, checked here line by line and written (with what each
//! must read back as) to `$TEGAMI_RECORDS_OUT` when it is set: `.ci/check-records` then reads
//! them back with real parsers (cshogi and python-shogi) and checks the start position, the
//! moves and the result. Also: the entering-king declaration as a command, and the
//! Fairy-Stockfish FEN's hands.

use crate::service_common;

use service_common::*;
use tegami::engine::notation::{code, fen};
use tegami::engine::{handicap_position, Position, Variant, VariantId};
use tegami::store::{ChallengeStore, GameStatus, NewGame, TimeControl};

/// A record and what it must read back as.
struct Expect {
    name: String,
    start: String,
    moves: Vec<String>,
    /// `black`, `white` or `draw`.
    result: &'static str,
    /// The CSA closing line (`%TORYO`).
    csa_end: &'static str,
    kif: String,
    csa: String,
}

/// The KIF and CSA exports of game `id`, with what they must say.
fn exports(env: &Env, id: i64, name: &str, result: &'static str, csa_end: &'static str) -> Expect {
    let row = env.game(id);
    assert_eq!(row.status, GameStatus::Finished, "{name}: the game is over");
    let game = env.replay(id);
    let kif = env.ok("alice", &format!("export {id} kif")).text;
    let csa = env.ok("alice", &format!("export {id} csa")).text;
    let e = Expect {
        name: name.to_string(),
        start: row.start_position.clone(),
        moves: game
            .moves()
            .iter()
            .map(|&m| code::write(game.variant(), m))
            .collect(),
        result,
        csa_end,
        kif,
        csa,
    };
    assert!(
        e.csa.lines().any(|l| l == csa_end),
        "{name}: {csa_end} missing in\n{}",
        e.csa
    );
    write_out(&e);
    e
}

/// Writes a record and its expectations under `$TEGAMI_RECORDS_OUT`, if set.
fn write_out(e: &Expect) {
    let Some(dir) = std::env::var_os("TEGAMI_RECORDS_OUT") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("create the records folder");
    std::fs::write(dir.join(format!("{}.kif", e.name)), &e.kif).expect("write the KIF");
    std::fs::write(dir.join(format!("{}.csa", e.name)), &e.csa).expect("write the CSA");
    let line = format!(
        "{}\t{}\t{}\t{}\t{}\n",
        e.name,
        e.start,
        e.moves.join(" "),
        e.result,
        e.csa_end
    );
    std::fs::write(dir.join(format!("{}.expect", e.name)), line).expect("write the expectation");
}

/// A Shogi game between alice (Black) and bob (White) from `start`, stored as the service
/// stores an accepted challenge (a position no challenge can ask for: the store takes any).
fn game_from(env: &Env, start: &str) -> i64 {
    let r = env.ok("alice", "challenge @bob shogi black");
    let challenge = number_after(&r.text, "Challenge #").expect("challenge number");
    let pos = fen::parse(Variant::get(VariantId::Shogi), start).expect("a valid start");
    let first = if pos.side_to_move() == tegami::engine::Color::Black {
        "alice"
    } else {
        "bob"
    };
    let row = env
        .store
        .accept_challenge(
            challenge,
            &NewGame {
                variant: "shogi".into(),
                setup: None,
                start_position: fen::write(&pos),
                players: ["alice".into(), "bob".into()],
                guild: server().guild,
                channel: server().channel,
                rated: false,
                control: TimeControl::per_move(3),
                deadline: Some(T0 + 3 * 86_400),
                banks: [0, 0],
                turn_span: i64::from(3) * 86_400,
                to_move: first.into(),
                computer_level: None,
            },
            &[],
            T0,
        )
        .expect("store the game");
    row.id
}

/// Plays `list` in game `id`, each move by the player to move.
fn moves(env: &Env, id: i64, list: &str) {
    for m in list.split_whitespace() {
        let to_move = env.game(id).to_move.expect("an active game");
        env.ok(&to_move, &format!("move {id} {m}"));
    }
}

fn kif_has(e: &Expect, lines: &[&str]) {
    for l in lines {
        assert!(
            e.kif.lines().any(|k| k == *l),
            "{}: line {l:?} missing in\n{}",
            e.name,
            e.kif
        );
    }
}

#[test]
fn resignation_is_written_as_toryo_and_the_closing_line_names_the_winner() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    moves(&env, id, "7g7f 3c3d 2g2f");
    env.ok("bob", &format!("resign {id}"));
    let e = exports(&env, id, "resign", "black", "%TORYO");
    kif_has(
        &e,
        &[
            "手合割：平手",
            "先手：alice",
            "後手：bob",
            "   3 ２六歩(27)",
            "   4 投了",
            "まで3手で先手の勝ち",
        ],
    );
}

#[test]
fn a_resignation_on_the_opponents_turn_still_names_the_winner() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    moves(&env, id, "7g7f 3c3d 2g2f");
    // alice resigns while bob is to move: KIF's 投了 and CSA's %TORYO would be bob's.
    env.ok("alice", &format!("resign {id}"));
    let e = exports(&env, id, "resign-off-turn", "white", "%+ILLEGAL_ACTION");
    kif_has(&e, &["まで3手で後手の勝ち"]);
    assert!(!e.kif.contains("投了"), "{}", e.kif);
    assert!(!e.csa.contains("%TORYO"), "{}", e.csa);
}

#[test]
fn loss_on_time_is_kiregake_and_time_up() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi days=1");
    moves(&env, id, "7g7f");
    env.clock.advance(3 * 86_400);
    let msg = env.refused("bob", &format!("move {id} 3c3d"));
    assert!(msg.contains("lost on time"), "{msg}");
    let e = exports(&env, id, "timeout", "black", "%TIME_UP");
    kif_has(&e, &["   2 切れ負け", "まで1手で先手の勝ち"]);
}

#[test]
fn checkmate_is_tsumi_and_a_start_position_is_a_board_diagram() {
    let env = Env::new();
    let id = game_from(&env, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    moves(&env, id, "G*5b");
    let e = exports(&env, id, "checkmate", "black", "%TSUMI");
    kif_has(
        &e,
        &[
            "後手の持駒：なし",
            "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一",
            "先手の持駒：金",
            "   1 ５二金打",
            "   2 詰み",
            "まで1手で先手の勝ち",
        ],
    );
    assert!(!e.kif.contains("手合割"), "{}", e.kif);
}

#[test]
fn repetition_is_sennichite() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    moves(&env, id, &"2h3h 8b7b 3h2h 7b8b ".repeat(3));
    let e = exports(&env, id, "repetition", "draw", "%SENNICHITE");
    kif_has(&e, &["  13 千日手", "まで12手で千日手"]);
}

#[test]
fn perpetual_check_names_the_checker_as_the_loser() {
    let env = Env::new();
    // Black's rook checks on every move; White's king steps between 1a and 2a.
    let id = game_from(&env, "8k/9/9/9/9/9/9/9/K6R1 b - 1");
    moves(&env, id, &"2i1i 1a2a 1i2i 2a1a ".repeat(3));
    let e = exports(&env, id, "perpetual-check", "white", "%+ILLEGAL_ACTION");
    // Black is to move and loses: KIF's 反則負け is the side to move's.
    kif_has(&e, &["  13 反則負け", "まで12手で後手の反則勝ち"]);
}

const IMPASSE_DRAW: &str = "4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L9Prb2g2s2n2l9p 1";
const IMPASSE_WIN: &str = "4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L9Prb 1";

#[test]
fn impasse_is_jishogi_drawn_or_won_on_points() {
    let env = Env::new();
    let id = game_from(&env, IMPASSE_DRAW);
    env.ok("alice", &format!("impasse {id} offer"));
    env.ok("bob", &format!("impasse {id} accept"));
    let e = exports(&env, id, "impasse-draw", "draw", "%JISHOGI");
    kif_has(&e, &["   1 持将棋", "まで0手で持将棋"]);

    let id = game_from(&env, IMPASSE_WIN);
    env.ok("alice", &format!("impasse {id} offer"));
    env.ok("bob", &format!("impasse {id} accept"));
    let e = exports(&env, id, "impasse-win", "black", "%JISHOGI");
    kif_has(&e, &["   1 持将棋", "まで0手で先手の勝ち"]);
}

#[test]
fn an_agreed_draw_is_written_as_a_draw() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    moves(&env, id, "7g7f 3c3d");
    env.ok("alice", &format!("draw {id} offer"));
    env.ok("bob", &format!("draw {id} accept"));
    let e = exports(&env, id, "agreed-draw", "draw", "%HIKIWAKE");
    kif_has(&e, &["*引き分け（合意）", "   3 持将棋", "まで2手で持将棋"]);
}

// Black: dragon, horse and eight pawns in the zone (10 pieces, 18 points), rook and five pawns
// in hand: 28 points.
const BLACK_DECLARES: &str = "+R+B7/PPPPKPPPP/9/9/9/9/9/9/4k4 b R5P 1";
// White's mirror with one pawn fewer in hand: 27 points, enough for White.
const WHITE_DECLARES: &str = "4K4/9/9/9/9/9/9/ppppkpppp/7+b+r w r4p 1";

#[test]
fn the_declaration_wins_for_either_side_and_is_written_nyugyoku_and_kachi() {
    let env = Env::new();
    let id = game_from(&env, BLACK_DECLARES);
    let r = env.ok("alice", &format!("declare {id}"));
    assert!(
        r.text
            .contains("alice declares the entering king (10 pieces in the zone, 28 points)"),
        "{}",
        r.text
    );
    assert!(r.text.contains("wins by declaration"), "{}", r.text);
    let row = env.game(id);
    assert_eq!(row.reason.as_deref(), Some("declaration"));
    assert_eq!(row.result, Some(tegami::store::GameResult::First));
    let e = exports(&env, id, "declaration-black", "black", "%KACHI");
    kif_has(&e, &["   1 入玉勝ち", "まで0手で先手の入玉勝ち"]);

    let id = game_from(&env, WHITE_DECLARES);
    env.ok("bob", &format!("declare {id}"));
    assert_eq!(env.game(id).result, Some(tegami::store::GameResult::Second));
    let e = exports(&env, id, "declaration-white", "white", "%KACHI");
    kif_has(&e, &["   1 入玉勝ち", "まで0手で後手の入玉勝ち"]);
    // The history and record show the reason in words.
    let h = env.ok("bob", "history").text;
    assert!(h.contains("won by declaration"), "{h}");
}

#[test]
fn a_refused_declaration_says_why_and_changes_nothing() {
    let env = Env::new();
    // One pawn fewer in hand: 27 points, one short for Black.
    let id = game_from(&env, "+R+B7/PPPPKPPPP/9/9/9/9/9/9/4k4 b R4P 1");
    env.ok("carol", "help");
    let before = env.snapshot();
    let msg = env.refused("alice", &format!("declare {id}"));
    assert!(
        msg.contains("declaration refused") && msg.contains("27 points (28 needed"),
        "{msg}"
    );
    // Not on the opponent's turn either.
    let msg = env.refused("bob", &format!("declare {id}"));
    assert!(msg.contains("not your turn"), "{msg}");
    // Nor by someone who does not play.
    env.refused("carol", &format!("declare {id}"));
    before.assert_same(&env.snapshot(), "refused declarations");

    // At the start, the king is far from the zone.
    let id = env.start_game("alice", "bob", "shogi");
    let msg = env.refused("alice", &format!("declare {id}"));
    assert!(msg.contains("not in the promotion zone"), "{msg}");
    // Other games keep their rules.
    let id = env.start_game("alice", "bob", "judkins");
    let msg = env.refused("alice", &format!("declare {id}"));
    assert!(msg.contains("only Shogi"), "{msg}");
}

#[test]
fn every_handicap_has_its_teaiwari_and_the_players_are_shitate_and_uwate() {
    let env = Env::new();
    for (name, teai) in [
        ("lance", "香落ち"),
        ("bishop", "角落ち"),
        ("rook", "飛車落ち"),
        ("rook-lance", "飛香落ち"),
        ("two", "二枚落ち"),
        ("four", "四枚落ち"),
        ("six", "六枚落ち"),
    ] {
        let id = env.start_game("alice", "bob", &format!("shogi handicap={name}"));
        let start = handicap_position(VariantId::Shogi, name).expect("a Shogi handicap");
        assert_eq!(env.game(id).start_position, fen::write(&start));
        // White (上手, bob) moves first.
        moves(&env, id, "3c3d 7g7f");
        env.ok("bob", &format!("resign {id}"));
        let e = exports(&env, id, &format!("handicap-{name}"), "black", "%TORYO");
        kif_has(
            &e,
            &[
                &format!("手合割：{teai}"),
                "下手：alice",
                "上手：bob",
                "   1 ３四歩(33)",
                "   2 ７六歩(77)",
                "   3 投了",
                "まで2手で下手の勝ち",
            ],
        );
        assert!(!e.kif.contains("先手"), "{}", e.kif);
        // CSA: the board without the pieces, White to move.
        let board: Vec<&str> = e.csa.lines().filter(|l| l.starts_with("P")).collect();
        assert_eq!(board.len(), 9, "{}", e.csa);
        assert!(e.csa.lines().any(|l| l == "-"), "{}", e.csa);
    }
}

#[test]
fn an_ongoing_game_has_no_result() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    moves(&env, id, "7g7f");
    let kif = env.ok("alice", &format!("export {id} kif")).text;
    let csa = env.ok("alice", &format!("export {id} csa")).text;
    assert!(!kif.contains("まで"), "{kif}");
    assert!(!csa.contains('%'), "{csa}");
}

/// Reads a Fairy-Stockfish hand as Fairy-Stockfish does: every letter is one piece, a digit
/// is not a count.
fn fsf_hand_counts(fen: &str) -> std::collections::BTreeMap<char, u32> {
    let hand = fen
        .split_once('[')
        .and_then(|(_, r)| r.split_once(']'))
        .map(|(h, _)| h)
        .expect("a bracketed hand");
    let mut counts = std::collections::BTreeMap::new();
    for c in hand.chars().filter(|c| c.is_ascii_alphabetic()) {
        *counts.entry(c).or_insert(0) += 1;
    }
    counts
}

#[test]
fn fairy_stockfish_fen_repeats_letters_for_several_pieces_in_hand() {
    let v = Variant::get(VariantId::Shogi);
    let pos: Position = fen::parse(v, "4k4/9/9/9/9/9/9/9/4K4 b 2R3G2P2b18p 1").expect("valid");
    let out = tegami::service::export::fsf_fen(&pos);
    assert_eq!(
        out,
        "4k4/9/9/9/9/9/9/9/4K4[RRGGGPPbbpppppppppppppppppp] w 0 1"
    );
    let counts = fsf_hand_counts(&out);
    for (letter, n) in [('R', 2), ('G', 3), ('P', 2), ('b', 2), ('p', 18)] {
        assert_eq!(counts.get(&letter), Some(&n), "{letter} in {out}");
    }
    // Through the command core too: one pawn each in hand after a pawn trade, then two.
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    moves(
        &env,
        id,
        "7g7f 3c3d 8h2b+ 3a2b 2g2f 2b3c 2f2e 8c8d 2e2d 2c2d 2h2d P*2c 2d2h 8d8e 7i7h 8e8f 8g8f",
    );
    let fen = env.ok("alice", &format!("export {id} fen")).text;
    let counts = fsf_hand_counts(&fen);
    let game = env.replay(id);
    for c in tegami::engine::Color::ALL {
        for (letter, k) in [
            ('P', tegami::engine::PieceKind::Pawn),
            ('B', tegami::engine::PieceKind::Bishop),
        ] {
            let letter = if c == tegami::engine::Color::Black {
                letter
            } else {
                letter.to_ascii_lowercase()
            };
            let n = game.position().hand(c, k) as u32;
            assert_eq!(
                counts.get(&letter).copied().unwrap_or(0),
                n,
                "{letter} in {fen}"
            );
        }
    }
    assert!(
        fen.contains("PP"),
        "two pawns in hand are written PP: {fen}"
    );
}
