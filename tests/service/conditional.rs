//! Conditional moves (issue 23) through the command core, on a real SQLite file: lines in all
//! five games, branches, refusals (an illegal move of a line, a conflicting answer, a line on
//! one's own turn), a line dropped by an unexpected move, a takeback after a conditional answer,
//! a stop before an ending the player did not foresee, and a crash between a move and its
//! answer (the move stored, the process gone: the sweep plays the answer, once), both written
//! into the store by hand and as a child process killed with SIGKILL at that very point
//! (`TEGAMI_FAULT_CONDITIONAL_PAUSE`).

use crate::service_common;

use service_common::{Env, T0};
use tegami::engine::notation::{code, human};
use tegami::engine::{Game, Position, VariantId};
use tegami::store::{ConditionalStore, GameStore, MoveRow};

/// The codes of the first legal move of `game` after `moves` (codes), and the game after it.
fn first_legal(game: &Game) -> String {
    let m = game.legal_moves()[0];
    code::write(game.variant(), m)
}

/// Plays `codes` on a fresh game of `v`.
fn after(v: VariantId, codes: &[String]) -> Game {
    let mut g = Game::new(Position::start(v));
    for c in codes {
        let m = code::parse(g.position(), c).expect("a legal code");
        g.play(m).expect("legal");
    }
    g
}

fn ply(env: &Env, game: i64) -> u32 {
    env.game(game).ply
}

#[test]
fn a_line_answers_the_expected_moves_and_stops_at_its_end() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    env.ok("alice", &format!("move {id} 7g7f"));
    // Written in Western notation, then USI codes: any notation the player writes.
    let r = env.ok(
        "alice",
        &format!("conditional add {id} \"P-3d P-2f 8c8d 2f2e\""),
    );
    assert!(r.text.contains("Conditional line saved"), "{}", r.text);
    assert!(r.text.contains("P-3d P-2f P-8d P-2e"), "{}", r.text);
    let list = env.ok("alice", &format!("conditional list {id}"));
    assert!(
        list.text.contains("1. P-3d P-2f P-8d P-2e"),
        "{}",
        list.text
    );
    // Bob cannot see Alice's lines: his list is his own.
    let theirs = env.send("bob", &format!("conditional list {id}"));
    assert!(
        theirs.text.contains("no conditional lines"),
        "{}",
        theirs.text
    );

    // Bob plays the expected move: Alice's answer is played at once, announced as such.
    let r = env.ok("bob", &format!("move {id} 3c3d"));
    assert_eq!(ply(&env, id), 3, "the answer was played");
    let post = r
        .notify
        .iter()
        .find(|n| n.text.contains("(a conditional move)"))
        .unwrap_or_else(|| panic!("the answer's announcement in {:?}", r.notify));
    assert_eq!(post.game, Some(id));
    assert!(post.text.contains("alice plays 2. P-2f"), "{}", post.text);
    assert_eq!(env.replay(id).moves().len(), 3);
    // The line moved on: its rest waits for Bob.
    let list = env.ok("alice", &format!("conditional list {id}"));
    assert!(list.text.contains("1. P-8d P-2e"), "{}", list.text);
    env.ok("bob", &format!("move {id} 8c8d"));
    assert_eq!(ply(&env, id), 5);
    // Used up.
    assert!(env.store.conditionals(id).expect("lines").is_empty());
    let list = env.ok("alice", &format!("conditional list {id}"));
    assert!(list.text.contains("no conditional lines"), "{}", list.text);
}

#[test]
fn branches_are_kept_and_an_unexpected_move_drops_them() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    env.ok("alice", &format!("move {id} 7g7f"));
    env.ok("alice", &format!("conditional add {id} \"3c3d 2g2f\""));
    // A branch: another move of Bob's, another answer.
    env.ok("alice", &format!("conditional add {id} \"8c8d 2g2f\""));
    // The same move of Bob's answered differently: refused, naming the line to clear.
    let why = env.refused("alice", &format!("conditional add {id} \"3c3d 6g6f\""));
    assert!(
        why.contains("already answers that move differently"),
        "{why}"
    );
    let list = env.ok("alice", &format!("conditional list {id}"));
    assert!(list.text.contains("1. P-3d P-2f") && list.text.contains("2. P-8d P-2f"));
    // Bob plays neither: both lines go, nothing is played for Alice.
    env.ok("bob", &format!("move {id} 4c4d"));
    assert_eq!(ply(&env, id), 2);
    assert!(env.store.conditionals(id).expect("lines").is_empty());
    // The second branch, taken: its answer comes.
    env.ok("alice", &format!("move {id} 2g2f"));
    env.ok("alice", &format!("conditional add {id} \"3c3d 2f2e\""));
    env.ok("alice", &format!("conditional add {id} \"8c8d 6g6f\""));
    env.ok("bob", &format!("move {id} 8c8d"));
    assert_eq!(ply(&env, id), 5);
    let last = env.replay(id);
    assert_eq!(
        code::write(last.variant(), *last.moves().last().expect("moves")),
        "6g6f"
    );
    assert!(env.store.conditionals(id).expect("lines").is_empty());
}

#[test]
fn a_line_is_checked_move_by_move_and_only_on_the_opponents_turn() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    // Alice's own turn.
    let why = env.refused("alice", &format!("conditional add {id} \"7g7f 3c3d\""));
    assert!(why.contains("your move"), "{why}");
    env.ok("alice", &format!("move {id} 7g7f"));
    // The third move is illegal: the refusal names it.
    let why = env.refused(
        "alice",
        &format!("conditional add {id} \"3c3d 2g2f 5a5b+\""),
    );
    assert!(why.starts_with("Move 3 of the line (5a5b+)"), "{why}");
    let why = env.refused("alice", &format!("conditional add {id} \"3c3d P*5e\""));
    assert!(why.starts_with("Move 2 of the line (P*5e)"), "{why}");
    // A spectator has no lines in this game.
    let why = env.refused("carol", &format!("conditional add {id} \"3c3d 2g2f\""));
    assert!(!why.is_empty());
    // Nothing was stored.
    assert!(env.store.conditionals(id).expect("lines").is_empty());
    // A player clears their lines.
    env.ok("alice", &format!("conditional add {id} \"3c3d 2g2f\""));
    let r = env.ok("alice", &format!("conditional clear {id}"));
    assert!(r.text.contains("1 conditional line"), "{}", r.text);
    assert!(env.store.conditionals(id).expect("lines").is_empty());
}

#[test]
fn lines_work_in_every_game() {
    for v in [
        VariantId::Shogi,
        VariantId::Judkins,
        VariantId::Cannon,
        VariantId::Palace,
        VariantId::Shanghai,
    ] {
        let env = Env::new();
        let id = env.start_game("alice", "bob", v.as_str());
        let mut codes = vec![first_legal(&after(v, &[]))];
        env.ok("alice", &format!("move {id} {}", codes[0]));
        // Bob's expected move, Alice's answer, written as the game writes moves.
        let expected = first_legal(&after(v, &codes));
        let g = after(v, &[codes.clone(), vec![expected.clone()]].concat());
        let answer = g.legal_moves()[0];
        let answer_text = human(g.position(), answer);
        let line = {
            let g0 = after(v, &codes);
            let m = code::parse(g0.position(), &expected).expect("legal");
            format!("{} {answer_text}", human(g0.position(), m))
        };
        env.ok("alice", &format!("conditional add {id} \"{line}\""));
        env.ok("bob", &format!("move {id} {expected}"));
        codes.push(expected);
        codes.push(code::write(g.variant(), answer));
        assert_eq!(ply(&env, id), 3, "{v:?}: the answer was played");
        let stored: Vec<String> = env
            .replay(id)
            .moves()
            .iter()
            .map(|&m| code::write(g.variant(), m))
            .collect();
        assert_eq!(stored, codes, "{v:?}");
    }
}

#[test]
fn a_takeback_after_a_conditional_answer_leaves_no_line_behind() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    env.ok("alice", &format!("move {id} 7g7f"));
    env.ok(
        "alice",
        &format!("conditional add {id} \"3c3d 2g2f 8c8d 2f2e\""),
    );
    env.ok("bob", &format!("move {id} 3c3d"));
    assert_eq!(ply(&env, id), 3);
    // Alice wants her (conditional) move back; Bob agrees.
    env.ok("alice", &format!("takeback {id} offer"));
    env.ok("bob", &format!("takeback {id} accept"));
    assert_eq!(ply(&env, id), 2, "the answer is taken back");
    // The line that waited past the answer is gone; nothing is played again by itself.
    assert!(env.store.conditionals(id).expect("lines").is_empty());
    env.ok("alice", &format!("move {id} 6g6f"));
    env.ok("bob", &format!("move {id} 8c8d"));
    assert_eq!(ply(&env, id), 4, "no conditional answer after the takeback");
}

#[test]
fn a_line_stops_before_a_repetition_its_player_did_not_foresee() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    // Alice opens, then the rooks shuffle: the position after her 7g7f comes back every four
    // moves, and its fourth time (her move) is a draw (sennichite).
    let moves = [
        "7g7f", "8b7b", "2h3h", "7b8b", "3h2h", "8b7b", "2h3h", "7b8b", "3h2h", "8b7b", "2h3h",
    ];
    for (i, m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        env.ok(who, &format!("move {id} {m}"));
    }
    env.ok("alice", &format!("conditional add {id} \"7b8b 3h2h\""));
    // Bob plays 7b8b; Alice's 3h2h would bring the position a fourth time: a draw she did not
    // choose. The line stops and she is told.
    let r = env.ok("bob", &format!("move {id} 7b8b"));
    assert_eq!(ply(&env, id), 12, "the answer was not played");
    let told = r
        .notify
        .iter()
        .find(|n| n.user == "alice" && n.text.contains("stopped before"))
        .unwrap_or_else(|| panic!("Alice told in {:?}", r.notify));
    assert!(told.text.contains("It is your move"), "{}", told.text);
    assert!(told.text.contains("end the game"), "{}", told.text);
    assert!(env.store.conditionals(id).expect("lines").is_empty());
    // Played by hand, the move is indeed the draw.
    let r = env.ok("alice", &format!("move {id} 3h2h"));
    assert!(r.game.as_ref().is_some_and(|g| g.over), "{}", r.text);
}

#[test]
fn an_answer_left_by_a_crash_is_played_once_by_the_sweep() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi");
    env.ok("alice", &format!("move {id} 7g7f"));
    env.ok("alice", &format!("conditional add {id} \"3c3d 2g2f\""));
    // Bob's move is stored, and the process dies before the answer: written straight to the
    // store, as the move's own transaction leaves it.
    let row = env.game(id);
    let mut g = env.replay(id);
    let m = code::parse(g.position(), "3c3d").expect("legal");
    let pos = g.position().clone();
    g.play(m).expect("legal");
    env.store
        .append_move(
            id,
            row.version,
            &MoveRow {
                ply: row.ply + 1,
                code: "3c3d".into(),
                notation: human(&pos, m),
                position: tegami::engine::notation::fen::write(g.position()),
                user: "bob".into(),
                played_at: T0 + 60,
            },
            &tegami::store::Turn {
                to_move: "alice",
                deadline: T0 + 3 * 86_400,
                span: 3 * 86_400,
                banks: [0, 0],
            },
            None,
            &[],
        )
        .expect("Bob's move stored");
    assert_eq!(ply(&env, id), 2);
    // The sweep finds the answer due and plays it; a second sweep finds nothing more.
    env.service.sweep(T0 + 120).expect("sweep");
    assert_eq!(ply(&env, id), 3, "the answer was played by the sweep");
    env.service.sweep(T0 + 180).expect("sweep");
    assert_eq!(ply(&env, id), 3, "and only once");
    let last = env.replay(id);
    assert_eq!(
        code::write(last.variant(), *last.moves().last().expect("moves")),
        "2g2f"
    );
}

/// The child of the kill test: over the database named by `TEGAMI_COND_CHILD`, Alice leaves a
/// line and Bob plays its move; with `TEGAMI_FAULT_CONDITIONAL_PAUSE` set the answer waits, and
/// the parent kills this process there. Does nothing without the variable.
#[test]
fn conditional_crash_child() {
    let Ok(path) = std::env::var("TEGAMI_COND_CHILD") else {
        return;
    };
    let store = std::sync::Arc::new(
        tegami::store::SqliteStore::open(std::path::Path::new(&path)).expect("the database"),
    );
    let service = tegami::service::Service::new(
        store,
        std::sync::Arc::new(tegami::service::SystemClock),
        service_common::config(),
    );
    let say = |user: &str, line: &str| {
        let r = service.handle(&service_common::request(user, line));
        assert!(!r.error, "{line}: {}", r.text);
        r
    };
    let r = say("alice", "challenge @bob shogi black");
    let challenge = service_common::number_after(&r.text, "Challenge #").expect("a challenge");
    let r = say("bob", &format!("accept {challenge}"));
    let id = r.game.as_ref().map(|g| g.id).expect("a game");
    say("alice", &format!("move {id} 7g7f"));
    say("alice", &format!("conditional add {id} \"3c3d 2g2f\""));
    // Bob's move is committed, then the answer pauses: the parent kills us there.
    say("bob", &format!("move {id} 3c3d"));
    panic!("the answer was played: the pause did not hold");
}

#[test]
fn a_process_killed_between_a_move_and_its_answer_leaves_the_answer_to_the_sweep() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("tegami.db");
    let mut child = std::process::Command::new(std::env::current_exe().expect("this test"))
        .args([
            "--exact",
            "conditional::conditional_crash_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("TEGAMI_COND_CHILD", &path)
        .env(tegami::service::conditional::FAULT_CONDITIONAL_PAUSE, "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the child");
    let err = child.stderr.take().expect("stderr");
    let mut paused = false;
    for line in std::io::BufReader::new(err).lines() {
        let line = line.expect("a line");
        if line.contains("conditional answer paused") {
            paused = true;
            break;
        }
    }
    assert!(paused, "the child reached the pause");
    // kill -9, between Bob's move and Alice's answer.
    child.kill().expect("SIGKILL");
    let status = child.wait().expect("the child's end");
    assert!(!status.success());

    let store = std::sync::Arc::new(
        tegami::store::SqliteStore::open(&path).expect("the database after the kill"),
    );
    let id = 1;
    let row = store.game(id).expect("read").expect("the game");
    assert_eq!(row.ply, 2, "Bob's move is stored, the answer is not");
    assert_eq!(store.conditionals(id).expect("lines").len(), 1);
    // The bot back: its sweep plays the answer, once.
    let clock = std::sync::Arc::new(tegami::service::ManualClock::new(
        row.deadline.unwrap_or(T0) - 60,
    ));
    let service = tegami::service::Service::new(store.clone(), clock, service_common::config());
    service
        .sweep(row.deadline.unwrap_or(T0) - 60)
        .expect("sweep");
    assert_eq!(store.game(id).expect("read").expect("game").ply, 3);
    service
        .sweep(row.deadline.unwrap_or(T0) - 30)
        .expect("sweep");
    let row = store.game(id).expect("read").expect("game");
    assert_eq!(row.ply, 3, "played once");
    assert!(store.conditionals(id).expect("lines").is_empty());
    let game = service_common::replay(store.as_ref(), id);
    assert_eq!(
        code::write(game.variant(), *game.moves().last().expect("moves")),
        "2g2f"
    );
}
