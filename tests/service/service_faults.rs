//! The test switch `TEGAMI_FAULT_SEARCH_PANICS`: the first searches of the computer panic, and
//! the computer's worker recovers. A binary of its own, as the switch holds for the whole
//! process (set here before any search).

mod service_common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use service_common::*;
use tegami::service::{User, Worker, FAULT_SEARCH_PANICS};

#[test]
fn a_panicking_search_is_caught_and_the_game_queued_again() {
    // Before the first search of the process: the switch is read once.
    std::env::set_var(FAULT_SEARCH_PANICS, "2");
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
