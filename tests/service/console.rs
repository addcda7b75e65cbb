//! The real binary: `tegami console --db FILE --out DIR` fed a scripted session on stdin (as a
//! newcomer would type it), its printed replies and exit status; then a second console on the
//! same database still finds the finished game.

use crate::service_common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use service_common::*;
use tegami::store::{ChallengeStore, GameResult, GameStatus, GameStore, SqliteStore};

/// Runs `tegami console --db DB --out OUT` with `script` on stdin.
fn console(db: &Path, out: &Path, script: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tegami"))
        .arg("console")
        .arg("--db")
        .arg(db)
        .arg("--out")
        .arg(out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tegami console");
    let mut stdin = child.stdin.take().unwrap();
    // A console that stops early (a bad --db) closes its input: a broken pipe is fine here,
    // the exit status and output tell.
    let written = stdin.write_all(script.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("tegami console runs");
    if out.status.success() {
        written.expect("the whole script was written");
    }
    out
}

/// Checks that `text` contains the fragments in this order; returns the text after the last.
fn in_order<'a>(text: &'a str, fragments: &[&str]) -> &'a str {
    let mut rest = text;
    for f in fragments {
        match rest.find(f) {
            Some(at) => rest = &rest[at + f.len()..],
            None => panic!("expected {f:?} (in this order) in the output:\n{text}"),
        }
    }
    rest
}

const SESSION: &str = "\
# A first game, as the README shows it. Comment lines and blank lines are skipped.

help
tick 2026-12-01T12:00:00Z
@alice challenge @bob shogi black
@bob accept
@alice move 7g7f
@bob move 3c3d
@alice move 7g7e
@alice /move P-2f
@bob dance
@bob !board
@bob moves 8c
@bob resign
@alice games
@alice history
@alice record 1
@alice export 1 kif
@alice export 1 sfen
@alice export 1 fen
quit
@alice games
";

#[test]
fn scripted_session_then_a_second_console_on_the_same_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("console.db");
    let out = dir.path().join("images");
    let o = console(&db, &out, SESSION);
    let stdout = String::from_utf8(o.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "exit status {:?}\n{stdout}\n{stderr}",
        o.status
    );
    let after_three = {
        use tegami::engine::notation::{fen, input};
        use tegami::engine::{Game, Position, VariantId};
        let mut g = Game::new(Position::start(VariantId::Shogi));
        for m in ["7g7f", "3c3d", "2g2f"] {
            let m = input::parse_move(g.position(), m).unwrap();
            g.play(m).unwrap();
        }
        fen::write(g.position())
    };
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Not a terminal: no banner, no prompt.
    assert!(!stdout.contains("> "), "{stdout}");
    let rest = in_order(
        &stdout,
        &[
            // help
            "Commands",
            "challenge @USER|open VARIANT",
            "quit — end the session",
            // tick
            "The console's clock reads 2026-12-01 12:00 UTC.",
            // challenge, accept
            "Challenge #1: alice challenges bob to Shogi",
            "`accept 1`",
            "buttons: [Accept: accept 1] [Decline: decline 1]",
            "→ @bob (mention): alice challenges you",
            "Game #1 begins: alice",
            "bob",
            "alice to move.",
            // moves
            "Game #1: alice plays 1. P-7f.",
            "bob",
            "to move, by 2026-12-04 12:0",
            "→ @bob (mention): your move in game #1",
            "Game #1: bob plays 1… P-3d.",
            // the bad move
            "✗ ",
            "7g",
            "Game #1: alice plays 2. P-2f.",
            "✗ unknown command 'dance'",
            // board
            "Game #1 — Shogi: alice",
            "move 4.",
            "bob to move",
            after_three.as_str(),
            // moves of a square
            "1 legal move from 8c for bob",
            // resign
            "Game #1: bob resigns. alice (",
            "wins by resignation.",
            "→ @alice (mention): bob resigned game #1: you win",
            // games, history
            "You have no game in progress.",
            "Finished games of alice (newest first):",
            "#1 Shogi vs bob — won by resignation, 3 moves, 2026-12-01 12:",
            // record
            "Over: alice wins by resignation.",
            "1. P-7f P-3d",
            "2. P-2f",
            // exports
            "手合割：平手",
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d 2g2f",
            "[-] b 0 ",
        ],
    );
    // Nothing after `quit` was read.
    assert!(
        !rest.contains("no game in progress"),
        "a line after quit was run:\n{stdout}"
    );
    assert_eq!(stdout.matches("You have no game in progress.").count(), 1);
    // Every image the console mentions was written under --out.
    for line in stdout.lines() {
        if let Some(p) = line.trim().strip_prefix("[image: ") {
            let p = p.trim_end_matches(']');
            assert!(
                Path::new(p).starts_with(&out),
                "{p} is not under {}",
                out.display()
            );
            assert!(Path::new(p).is_file(), "{p} was not written");
        }
    }

    // The database holds the game.
    {
        let store = SqliteStore::open(&db).unwrap();
        assert_eq!(store.integrity_check().unwrap(), "ok");
        let row = store.game(1).unwrap().expect("game 1 is stored");
        assert_eq!(row.status, GameStatus::Finished);
        assert_eq!(row.result, Some(GameResult::First));
        assert_eq!(row.reason.as_deref(), Some("resignation"));
        assert_eq!(row.players, ["alice".to_string(), "bob".to_string()]);
        let codes: Vec<String> = store
            .moves(1)
            .unwrap()
            .into_iter()
            .map(|m| m.code)
            .collect();
        assert_eq!(codes, ["7g7f", "3c3d", "2g2f"]);
        replay(&store, 1);
    }

    // A second console on the same database.
    let o = console(
        &db,
        &out,
        "@alice history\n@bob history\n@bob games\n@carol record 1\n@alice challenge @bob palace\n",
    );
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "exit status {:?}\n{stdout}", o.status);
    in_order(
        &stdout,
        &[
            "Finished games of alice (newest first):",
            "#1 Shogi vs bob — won by resignation, 3 moves",
            "Finished games of bob (newest first):",
            "#1 Shogi vs alice — lost by resignation, 3 moves",
            "You have no game in progress.",
            "1. P-7f P-3d",
            "Challenge #2: alice challenges bob to Palace Shogi",
        ],
    );
    let store = SqliteStore::open(&db).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    assert!(store.challenge(2).unwrap().is_some());
}

#[test]
fn a_whole_game_to_checkmate_through_the_console() {
    // The seeded mate-seeking player's Cannon Shogi game (16 plies or so), typed as move codes.
    use tegami::engine::notation::code;
    use tegami::engine::{Position, VariantId};
    let (_, moves, outcome) = decisive_game(&Position::start(VariantId::Cannon), 300);
    let v = tegami::engine::Variant::get(VariantId::Cannon);
    let mut script = String::from("@alice challenge @bob cannon black\n@bob accept\n");
    for (i, &m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        script.push_str(&format!("@{who} move {}\n", code::write(v, m)));
    }
    script.push_str("@alice history\n");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("console.db");
    let o = console(&db, &dir.path().join("out"), &script);
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{stdout}");
    assert!(!stdout.contains('✗'), "a line was refused:\n{stdout}");
    let (result, reason) = result_of(outcome);
    let said = format!("wins by {}.", reason.replace('-', " "));
    assert!(
        stdout.contains(&said),
        "the end is announced ({said}):\n{stdout}"
    );
    let store = SqliteStore::open(&db).unwrap();
    let row = store.game(1).unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result, Some(result));
    assert_eq!(row.reason.as_deref(), Some(reason));
    assert_eq!(row.ply as usize, moves.len());
    replay(&store, 1);
}

#[test]
fn an_empty_session_ends_cleanly_and_a_bad_database_path_fails() {
    let dir = tempfile::tempdir().unwrap();
    let o = console(&dir.path().join("empty.db"), &dir.path().join("out"), "");
    assert!(o.status.success());
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );

    let o = console(
        &dir.path().join("no/such/folder/x.db"),
        &dir.path().join("out"),
        "@alice games\n",
    );
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("cannot open the database"), "{stderr}");
}

#[test]
fn a_whole_game_against_the_computer_at_the_console() {
    // The console adapter itself (line in, text out), with the player choosing each move from
    // the stored game: the computer answers every move on the same line's output, until the
    // game ends on the board (or, past 200 plies, the player resigns).
    use std::sync::Arc;
    use tegami::console::{Console, ConsoleClock, COMPUTER};
    use tegami::engine::notation::code;
    use tegami::service::Service;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("console.db");
    let store = Arc::new(SqliteStore::open(&db).unwrap());
    let clock = Arc::new(ConsoleClock::new());
    let service = Service::new(store.clone(), clock.clone(), config());
    let mut console = Console::new(service, clock, dir.path().join("out"));

    let out = console.line("@alice challenge @tegami judkins black level=1");
    assert!(
        out.contains("Game #1 begins") && out.contains("level 1"),
        "{out}"
    );
    let mut rng = Rng::new(11);
    let mut answered = 0;
    loop {
        let game = replay(store.as_ref(), 1);
        if game.is_over() {
            break;
        }
        if game.moves().len() >= 200 {
            let out = console.line("@alice resign");
            assert!(out.contains("resigns"), "{out}");
            break;
        }
        let m = mate_seeking(&game, &mut rng);
        let out = console.line(&format!("@alice move {}", code::write(game.variant(), m)));
        assert!(!out.contains('✗'), "refused: {out}");
        let after = replay(store.as_ref(), 1);
        if !after.is_over() {
            // The computer answered on the same turn of the console.
            let n = after.moves().len();
            assert_eq!(n % 2, 0, "the computer moved after alice: {out}");
            assert!(
                out.contains(&format!("@{COMPUTER}: Game #1: {COMPUTER} plays")),
                "{out}"
            );
            answered += 1;
        }
    }
    assert!(answered > 0);
    let row = store.game(1).unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    assert!(row.result.is_some());
    assert!(!row.rated);
    let out = console.line("@alice history");
    assert!(out.contains("#1"), "{out}");
    let out = console.line("@alice analysis 1");
    assert!(out.contains("evaluation"), "{out}");
}

/// `console`, with the test switches of `vars` set for the process.
fn console_with(db: &Path, out: &Path, script: &str, vars: &[(&str, &str)]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tegami"))
        .arg("console")
        .arg("--db")
        .arg(db)
        .arg("--out")
        .arg(out)
        .envs(vars.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tegami console");
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(script.as_bytes())
        .expect("the whole script was written");
    drop(stdin);
    child.wait_with_output().expect("tegami console runs")
}

#[test]
fn a_panicking_search_is_reported_and_the_console_reads_on() {
    // The bot's worker survives a search that panics; so does the console (issue 49): it says
    // so, keeps the game as it is (the computer's move), plays it before the next line, and
    // reads on.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("console.db");
    let out = dir.path().join("images");
    let script = "\
tick 2020-01-06T00:00:00Z
@alice challenge @tegami shogi level=1 days=1 first
@alice move 7g7f
@alice games
@alice move 2g2f
";
    let o = console_with(
        &db,
        &out,
        script,
        &[(tegami::service::FAULT_SEARCH_PANICS, "1")],
    );
    let stdout = String::from_utf8(o.stdout).unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success(),
        "exit status {:?}\n{stdout}\n{stderr}",
        o.status
    );
    in_order(
        &stdout,
        &[
            "Game #1: alice plays 1. P-7f.",
            "✗ the computer's search failed in game #1",
            "the game is kept, and its move is tried again before the next line",
            // Before `games`: the move, tried again.
            "@tegami: Game #1: tegami plays 1…",
            "#1",
            "Game #1: alice plays 2. P-2f.",
            "@tegami: Game #1: tegami plays 2…",
        ],
    );
    let store = SqliteStore::open(&db).unwrap();
    let row = store.game(1).unwrap().expect("the game");
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.ply, 4);
}

#[test]
fn a_computer_move_made_late_after_a_restart_is_played_not_lost_on_time() {
    // Issue 49's reproduction: a one-day game against the computer, its search panics (the
    // console used to exit there), and a console started much later on the same file (the
    // system's clock: years after the game's `tick`) plays the move it finds due, instead of
    // ending the game "by timeout".
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("console.db");
    let out = dir.path().join("images");
    let script = "\
tick 2020-01-06T00:00:00Z
@alice challenge @tegami shogi level=1 days=1 first
@alice move 7g7f
quit
";
    let o = console_with(
        &db,
        &out,
        script,
        &[(tegami::service::FAULT_SEARCH_PANICS, "1")],
    );
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{stdout}");
    assert!(stdout.contains("search failed in game #1"), "{stdout}");
    let o = console(&db, &out, "@alice games\n");
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{stdout}");
    assert!(
        stdout.contains("@tegami: Game #1: tegami plays 1…"),
        "{stdout}"
    );
    assert!(!stdout.contains("timeout"), "{stdout}");
    let store = SqliteStore::open(&db).unwrap();
    let row = store.game(1).unwrap().expect("the game");
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.ply, 2);
}
