//! The test switch `TEGAMI_FAULT_SEARCH_PANICS`: the first searches of the computer panic, and
//! the computer's worker recovers. The switch holds for the whole process, which it shares with
//! the other tests of this binary: the test runs this binary again as a child with the switch set,
//! and the child plays the games.

use crate::service_common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use service_common::*;
use tegami::service::{User, Worker, FAULT_SEARCH_PANICS};

/// Set for the child only: the child plays the games, the parent only reads its verdict.
const CHILD_ENV: &str = "TEGAMI_FAULTS_CHILD";

#[test]
fn a_panicking_search_is_caught_and_the_game_queued_again() {
    // A process of its own, the switch set before its first search: the switch is read once.
    let out = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args([
            "--exact",
            "service_faults::panicking_search_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, "1")
        .env(FAULT_SEARCH_PANICS, "2")
        .output()
        .expect("the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the child failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("1 passed"),
        "the child ran its test:\n{stdout}"
    );
}

/// The child of the test above; does nothing without `TEGAMI_FAULTS_CHILD`.
#[test]
fn panicking_search_child() {
    if std::env::var_os(CHILD_ENV).is_none() {
        return;
    }
    assert_eq!(
        std::env::var(FAULT_SEARCH_PANICS).as_deref(),
        Ok("2"),
        "the parent sets the switch"
    );
    let env = Arc::new(Env::new());
    env.service.set_computer(User::new("tegami", "Tegami"));
    // The computer moves first in both games.
    let mut games = Vec::new();
    for _ in 0..2 {
        let r = env.ok("alice", "challenge @tegami shogi level=1 second");
        games.push(r.think.expect("the computer is to move"));
    }
    let runs = Arc::new(AtomicUsize::new(0));
    let (played_tx, played_rx) = mpsc::channel();
    let played_tx = std::sync::Mutex::new(played_tx);
    let worker = {
        let env = env.clone();
        let runs = runs.clone();
        // One thread: it must survive the panics to play the second game.
        Worker::start(
            1,
            Arc::new(move |game| {
                runs.fetch_add(1, Ordering::SeqCst);
                if let Some(r) = env.service.computer_move(game).expect("no store error") {
                    played_tx.lock().unwrap().send((game, r)).unwrap();
                }
            }),
        )
    };
    assert!(worker.queue(games[0]));
    let (game, reply) = played_rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the move comes after the panics");
    assert_eq!(game, games[0]);
    assert!(!reply.error, "{}", reply.text);
    assert!(reply.text.contains("Tegami plays"), "{}", reply.text);
    assert_eq!(runs.load(Ordering::SeqCst), 3, "two panics, then the move");
    assert_eq!(env.game(games[0]).ply, 1, "the move is stored");
    // The same thread serves on.
    assert!(worker.queue(games[1]));
    let (game, _) = played_rx
        .recv_timeout(Duration::from_secs(60))
        .expect("the thread still serves");
    assert_eq!(game, games[1]);
    assert_eq!(runs.load(Ordering::SeqCst), 4);
    assert_eq!(env.game(games[1]).ply, 1);
}
