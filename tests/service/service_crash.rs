//! Crash safety: a child process plays moves through the command core on a real SQLite file and
//! is killed with SIGKILL at random moments, several rounds over the same file. After each kill
//! the database is reopened: `PRAGMA integrity_check` says `ok`, every move the child reported
//! as committed (it prints a line once the core's reply came back) is in the log, every game it
//! reported finished is finished, and every game's log replays to its cached position.
//!
//! The child is this test binary run again with `TEGAMI_CRASH_CHILD=<db path>`: the test
//! `crash_child` does nothing without that variable.

use crate::service_common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command as Process, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use service_common::*;
use tegami::engine::notation::code;
use tegami::service::{Service, SystemClock};
use tegami::store::{GameStatus, GameStore, SqliteStore};

const CHILD_ENV: &str = "TEGAMI_CRASH_CHILD";
const SEED_ENV: &str = "TEGAMI_CRASH_SEED";
/// A game is resigned once this long, so that new games (challenges, acceptances, endings) are
/// written too.
const GAME_PLIES: u32 = 50;
/// The child stops by itself after this long, should nobody kill it.
const CHILD_LIMIT: Duration = Duration::from_secs(20);

/// The child: plays until killed. Prints `GAME <id>` when a game began, `MOVE <game> <ply>
/// <code>` when a move was committed, `OVER <game>` when a game was resigned.
#[test]
fn crash_child() {
    let Ok(path) = std::env::var(CHILD_ENV) else {
        return;
    };
    let seed: u64 = std::env::var(SEED_ENV)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let store = Arc::new(SqliteStore::open(&path).expect("open the database"));
    let service = Service::new(store.clone(), Arc::new(SystemClock), config());
    let send = |u: &str, line: &str| {
        let r = service.handle(&request(u, line));
        assert!(!r.error, "@{u} {line}: {}", r.text);
        r
    };
    let out = std::io::stdout();
    let say = |line: String| {
        let mut o = out.lock();
        writeln!(o, "{line}").unwrap();
        o.flush().unwrap();
    };
    let variants = ["shogi", "judkins", "cannon", "palace", "shanghai"];
    let mut rng = Rng::new(seed);
    let began = Instant::now();
    while began.elapsed() < CHILD_LIMIT {
        let active = store
            .games_of("alice", GameStatus::Active, None, 10)
            .unwrap();
        let game = match active.first() {
            Some(g) => g.id,
            None => {
                let v = variants[rng.below(variants.len())];
                // A new opponent for each game: one player may challenge the same opponent
                // only ten times a day.
                let bob = format!("bob{}", rng.below(1_000_000));
                let r = send("alice", &format!("challenge @{bob} {v} black"));
                let c = number_after(&r.text, "Challenge #").unwrap();
                let r = send(&bob, &format!("accept {c}"));
                let g = number_after(&r.text, "Game #").unwrap();
                say(format!("GAME {g}"));
                g
            }
        };
        let row = store.game(game).unwrap().unwrap();
        let g = replay(store.as_ref(), game);
        if row.ply >= GAME_PLIES || g.legal_moves().is_empty() {
            send(&row.players[1], &format!("resign {game}"));
            say(format!("OVER {game}"));
            continue;
        }
        let m = mate_seeking(&g, &mut rng);
        let c = code::write(g.variant(), m);
        let who = player(&row, g.position().side_to_move()).to_string();
        let r = send(&who, &format!("move {game} {c}"));
        say(format!("MOVE {game} {} {c}", row.ply + 1));
        if r.text.contains(" wins by ") || r.text.contains("Draw by") {
            say(format!("OVER {game}"));
        }
    }
}

/// What the children reported.
#[derive(Default)]
struct Reported {
    games: Vec<i64>,
    /// (game, ply) → code.
    moves: BTreeMap<(i64, u32), String>,
    over: Vec<i64>,
}

impl Reported {
    fn read(&mut self, line: &str) {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["GAME", g] => self.games.push(g.parse().unwrap()),
            ["MOVE", g, p, c] => {
                let key = (g.parse().unwrap(), p.parse().unwrap());
                assert!(
                    self.moves.insert(key, c.to_string()).is_none(),
                    "reported twice: {line}"
                );
            }
            ["OVER", g] => self.over.push(g.parse().unwrap()),
            _ => {} // the test harness's own lines
        }
    }

    fn check(&self, store: &SqliteStore) {
        assert_eq!(store.integrity_check().unwrap(), "ok");
        let mut games: Vec<i64> = self.games.clone();
        games.extend(self.moves.keys().map(|k| k.0));
        games.sort();
        games.dedup();
        for &g in &games {
            let row = store
                .game(g)
                .unwrap()
                .unwrap_or_else(|| panic!("game {g} was reported, not stored"));
            let moves = store.moves(g).unwrap();
            for ((_, ply), code) in self.moves.range((g, 0)..=(g, u32::MAX)) {
                let stored = moves
                    .get(*ply as usize - 1)
                    .unwrap_or_else(|| panic!("game {g}: reported move {ply} {code} is lost"));
                assert_eq!(stored.ply, *ply);
                assert_eq!(&stored.code, code, "game {g} ply {ply}");
            }
            replay(store, g);
            if self.over.contains(&g) {
                assert_eq!(
                    row.status,
                    GameStatus::Finished,
                    "game {g} was reported over"
                );
            }
        }
    }
}

#[test]
fn killed_child_leaves_every_reported_move_and_a_sound_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("crash.db");
    let exe = std::env::current_exe().unwrap();
    let mut rng = Rng::new(2026);
    let mut reported = Reported::default();
    let mut killed = 0;
    let rounds = 8;
    for round in 0..rounds {
        let mut child = Process::new(&exe)
            .args([
                "--exact",
                "service_crash::crash_child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, &path)
            .env(SEED_ENV, (round + 1).to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the child");
        let stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut lines = Vec::new();
            let mut r = BufReader::new(stdout);
            let mut line = String::new();
            // Only whole lines: a line cut by the kill is not a report.
            while r.read_line(&mut line).unwrap_or(0) > 0 {
                if line.ends_with('\n') {
                    lines.push(line.trim_end().to_string());
                }
                line.clear();
            }
            lines
        });
        // Let it play a while, then kill it at a random moment.
        std::thread::sleep(Duration::from_millis(40 + rng.below(360) as u64));
        let running = child.try_wait().unwrap().is_none();
        child.kill().unwrap();
        let status = child.wait().unwrap();
        let lines = reader.join().unwrap();
        if running {
            killed += 1;
        } else {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).ok();
            panic!("round {round}: the child ended by itself ({status}): {lines:?} {err}");
        }
        for l in &lines {
            reported.read(l);
        }
        // Reopen and check after every kill.
        let store = SqliteStore::open(&path).expect("reopen after the kill");
        reported.check(&store);
    }
    assert_eq!(killed, rounds);
    assert!(
        reported.moves.len() >= 20,
        "the children reported only {} moves",
        reported.moves.len()
    );
    // A last look with a fresh store: the same, and nothing more than a replayable log.
    let store = SqliteStore::open(&path).unwrap();
    reported.check(&store);
    eprintln!(
        "{rounds} kills, {} games, {} moves reported",
        reported.games.len(),
        reported.moves.len()
    );
}
