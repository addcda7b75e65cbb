//! What every store backend must do, checked through the store's traits (and once through the
//! command core): rows written and read back, a game's version guarding its changes, a rating or a
//! vacation deadline written only from the row the core read (`Stale` otherwise, with nothing
//! written), a batch of endings leaving alone the games that moved on, the outbox and who may
//! deliver a notice, two handles (two processes) racing to end the same games and to deliver
//! the same notices, the sweep in two threads and in two operating-system processes at once,
//! the command core on top. Each test
//! runs against every backend `backends()` opens: SQLite in a temporary folder, and PostgreSQL
//! when `TEGAMI_TEST_DATABASE_URL` names a server (a fresh database per test, dropped after);
//! without it the PostgreSQL runs say they were skipped.

use std::sync::Arc;

use tegami::service::{parse_command, Config, ManualClock, Place, Request, Service, User};
use tegami::store::{
    BatchEnd, DeadlineShift, Ending, Finish, GameResult, GameStatus, GameStore, MoveRow,
    NewChallenge, NewGame, NewNotice, OutboxRow, PgStore, RatingRow, RatingUpdate, ServerRow,
    SqliteStore, Store, StoreError, TimeControl, Turn, VacationAllowance, OUTBOX_LEASE,
};

/// 2026-01-01T00:00:00Z.
/// The next turn of a per-move game of 3 days, `to_move` to play by `deadline`.
fn per_move_turn(to_move: &str, deadline: i64) -> Turn<'_> {
    Turn {
        to_move,
        deadline,
        span: 3 * DAY,
        banks: [0, 0],
    }
}

/// Plays a move in `g` by the player to move; the other one is to move next (3 days).
fn play(store: &dyn Store, g: &tegami::store::GameRow, code: &str) -> tegami::store::GameRow {
    let mover = g.to_move.clone().expect("someone to move");
    let next = if mover == g.players[0] {
        g.players[1].clone()
    } else {
        g.players[0].clone()
    };
    let mv = MoveRow {
        ply: g.ply + 1,
        code: code.into(),
        notation: code.into(),
        position: format!("position after {}", g.ply + 1),
        user: mover,
        played_at: T0 + 60 + i64::from(g.ply),
    };
    store
        .append_move(
            g.id,
            g.version,
            &mv,
            &per_move_turn(&next, T0 + 3 * DAY),
            None,
            &[],
        )
        .expect("a move")
}

const T0: i64 = 1_767_225_600;
const DAY: i64 = 86_400;
const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// The vacation allowance of January 2026 (14 days), as the core gives it.
const MONTH: VacationAllowance = VacationAllowance {
    since: T0,
    max: 14 * DAY,
};

/// The PostgreSQL server of the tests, if one is given.
const PG_URL_ENV: &str = "TEGAMI_TEST_DATABASE_URL";

/// A fresh, empty store of one backend; what it needs is cleaned up when it is dropped.
struct Backend {
    name: &'static str,
    store: Option<Arc<dyn Store>>,
    /// Opens another handle on the same database (another process, as far as it knows).
    reopen: Box<dyn Fn() -> Arc<dyn Store>>,
    _dir: Option<tempfile::TempDir>,
    /// Where another process finds the database: `sqlite:PATH` or `postgres:URL`.
    locator: String,
    /// PostgreSQL: the server's URL and the test's database, dropped at the end.
    database: Option<(String, String)>,
}

impl Backend {
    fn store(&self) -> &dyn Store {
        self.store.as_deref().expect("the store is open")
    }

    fn shared(&self) -> Arc<dyn Store> {
        self.store.clone().expect("the store is open")
    }
}

impl Drop for Backend {
    fn drop(&mut self) {
        // The store's connections first, then its database.
        self.store = None;
        if let Some((url, db)) = &self.database {
            let dropped = postgres::Client::connect(url, postgres::NoTls).and_then(|mut c| {
                c.batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"))
            });
            if let Err(e) = dropped {
                say(&format!("test database {db} left behind: {e:?}"));
            }
        }
    }
}

/// A line on the test process's standard error, past the test harness's capture (a skip must
/// be seen even when every test passes).
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// A new database on the test server, and the URL of it.
fn pg_database(url: &str) -> (String, String) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let db = format!(
        "tegami_test_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    );
    let mut c = postgres::Client::connect(url, postgres::NoTls)
        .unwrap_or_else(|e| panic!("{PG_URL_ENV}={url}: cannot connect: {e}"));
    c.batch_execute(&format!("CREATE DATABASE {db}"))
        .expect("create the test database");
    let mut config: postgres::Config = url.parse().expect("a PostgreSQL URL");
    config.dbname(&db);
    // Back to a URL the store opens: the same server, the new database.
    let host = match config.get_hosts().first() {
        Some(postgres::config::Host::Tcp(h)) => h.clone(),
        Some(postgres::config::Host::Unix(p)) => p.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().unwrap_or("postgres");
    let db_url = format!("host={host} port={port} user={user} dbname={db}");
    (db_url, db)
}

/// A fresh, empty store of each backend.
fn backends() -> Vec<Backend> {
    let dir = tempfile::tempdir().expect("temporary folder");
    let path = dir.path().join("tegami.db");
    let sqlite = SqliteStore::open(&path).expect("open SQLite");
    let locator = format!("sqlite:{}", path.display());
    let mut out = vec![Backend {
        name: "sqlite",
        store: Some(Arc::new(sqlite)),
        reopen: Box::new(move || Arc::new(SqliteStore::open(&path).expect("reopen SQLite"))),
        _dir: Some(dir),
        locator,
        database: None,
    }];
    match std::env::var(PG_URL_ENV) {
        Ok(url) if !url.is_empty() => {
            let (db_url, db) = pg_database(&url);
            let pg = PgStore::open(&db_url).expect("open PostgreSQL");
            let locator = format!("postgres:{db_url}");
            out.push(Backend {
                name: "postgres",
                store: Some(Arc::new(pg)),
                reopen: Box::new(move || {
                    Arc::new(PgStore::open(&db_url).expect("reopen PostgreSQL"))
                }),
                _dir: None,
                locator,
                database: Some((url, db)),
            });
        }
        // In CI the server is part of the run: its absence is a failure, not a skip.
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("CI=true but {PG_URL_ENV} is not set: .ci/run starts PostgreSQL for these tests")
        }
        _ => {
            static ONCE: std::sync::Once = std::sync::Once::new();
            ONCE.call_once(|| {
                say(&format!(
                    "PostgreSQL store tests SKIPPED: {PG_URL_ENV} is not set (SQLite only)"
                ))
            });
        }
    }
    out
}

/// Opens another handle on the database a `Backend::locator` names.
fn open_locator(locator: &str) -> Arc<dyn Store> {
    match locator.split_once(':') {
        Some(("sqlite", path)) => Arc::new(SqliteStore::open(path).expect("open SQLite")),
        Some(("postgres", url)) => Arc::new(PgStore::open(url).expect("open PostgreSQL")),
        _ => panic!("not a store locator: {locator}"),
    }
}

/// A rated game between `a` and `b` (a to move, deadline three days on).
fn new_game(store: &dyn Store, a: &str, b: &str) -> tegami::store::GameRow {
    new_game_due(store, a, b, T0 + 3 * DAY)
}

/// A rated game between `a` and `b`, `a` to move by `deadline`.
fn new_game_due(store: &dyn Store, a: &str, b: &str, deadline: i64) -> tegami::store::GameRow {
    for u in [a, b] {
        store.touch_user(u, u, T0).expect("user");
    }
    store
        .start_game(
            &NewGame {
                variant: "shogi".into(),
                setup: None,
                start_position: START.into(),
                players: [a.into(), b.into()],
                guild: None,
                channel: Some("chan".into()),
                rated: true,
                control: TimeControl::per_move(3),
                deadline: Some(deadline),
                banks: [0, 0],
                turn_span: i64::from(3) * 86_400,
                to_move: a.into(),
                computer_level: None,
            },
            &[],
            T0,
        )
        .expect("start a game")
}

fn resignation() -> Ending {
    Ending {
        result: GameResult::First,
        reason: "resignation".into(),
    }
}

/// `user`'s new rating after `games` games, all won.
fn won(user: &str, games: u32) -> RatingRow {
    RatingRow {
        games,
        wins: games,
        rating: 1500.0 + games as f64,
        ..tegami::service::ratings::starting(user, "shogi", "")
    }
}

fn finish<'a>(ending: &'a Ending, updates: Vec<RatingUpdate>) -> Finish<'a> {
    Finish {
        ending,
        notices: &[],
        ratings: updates,
    }
}

#[test]
fn a_rating_is_written_only_if_it_is_still_as_read() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let ending = resignation();
        let update = |read_games| RatingUpdate {
            read_games,
            row: won("alice", read_games + 1),
        };
        let g = new_game(store, "alice", "bob");
        // Computed from a row that is not there: nothing is written, the game goes on.
        let err = store
            .finish_game(g.id, g.version, &finish(&ending, vec![update(3)]), T0 + 1)
            .expect_err("a stale rating");
        assert!(matches!(err, StoreError::Stale), "{name}: {err:?}");
        assert_eq!(store.game(g.id).unwrap(), Some(g.clone()), "{name}");
        assert_eq!(store.rating("alice", "shogi", "").unwrap(), None, "{name}");
        // From the row as it is (none yet): written with the end, exactly as given.
        let done = store
            .finish_game(g.id, g.version, &finish(&ending, vec![update(0)]), T0 + 1)
            .expect("ends");
        assert_eq!(done.status, GameStatus::Finished, "{name}");
        assert_eq!(done.result, Some(GameResult::First), "{name}");
        assert_eq!(
            store.rating("alice", "shogi", "").unwrap(),
            Some(won("alice", 1)),
            "{name}"
        );
        // A second game computed as if alice had no rating: refused, she has one now.
        let g2 = new_game(store, "alice", "bob");
        let err = store
            .finish_game(g2.id, g2.version, &finish(&ending, vec![update(0)]), T0 + 2)
            .expect_err("a stale rating");
        assert!(matches!(err, StoreError::Stale), "{name}: {err:?}");
        assert_eq!(store.game(g2.id).unwrap(), Some(g2.clone()), "{name}");
        // From her row as it is: written.
        store
            .finish_game(g2.id, g2.version, &finish(&ending, vec![update(1)]), T0 + 2)
            .expect("ends");
        assert_eq!(
            store.rating("alice", "shogi", "").unwrap(),
            Some(won("alice", 2)),
            "{name}"
        );
    }
}

#[test]
fn a_game_changed_since_it_was_read_is_a_conflict() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        let mv = MoveRow {
            ply: 1,
            code: "7g7f".into(),
            notation: "P-7f".into(),
            position: START.into(),
            user: "alice".into(),
            played_at: T0 + 5,
        };
        let moved = store
            .append_move(
                g.id,
                g.version,
                &mv,
                &per_move_turn("bob", T0 + 4 * DAY),
                None,
                &[],
            )
            .expect("a move");
        assert_eq!((moved.ply, moved.version), (1, g.version + 1), "{name}");
        assert_eq!(moved.to_move.as_deref(), Some("bob"), "{name}");
        // The same version again: refused, nothing written.
        let err = store
            .append_move(
                g.id,
                g.version,
                &mv,
                &per_move_turn("bob", T0 + 4 * DAY),
                None,
                &[],
            )
            .expect_err("a stale version");
        assert!(matches!(err, StoreError::Conflict), "{name}: {err:?}");
        let ending = resignation();
        let err = store
            .finish_game(g.id, g.version, &finish(&ending, vec![]), T0 + 6)
            .expect_err("a stale version");
        assert!(matches!(err, StoreError::Conflict), "{name}: {err:?}");
        assert_eq!(store.moves(g.id).unwrap().len(), 1, "{name}");
        assert_eq!(store.game(g.id).unwrap(), Some(moved), "{name}");
    }
}

#[test]
fn a_batch_of_endings_leaves_alone_the_games_that_moved_on() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let ending = resignation();
        let (g1, g2, g3) = (
            new_game(store, "ann", "ben"),
            new_game(store, "cat", "dan"),
            new_game(store, "eve", "fay"),
        );
        let batch = vec![
            (g1.id, g1.version, finish(&ending, vec![])),
            // Moved on since it was read.
            (g2.id, g2.version - 1, finish(&ending, vec![])),
            // A rating computed from a row that is not there.
            (
                g3.id,
                g3.version,
                finish(
                    &ending,
                    vec![RatingUpdate {
                        read_games: 7,
                        row: won("eve", 8),
                    }],
                ),
            ),
        ];
        let done = store.finish_games(&batch, T0 + 9).expect("a batch");
        assert_eq!(
            done,
            vec![BatchEnd::Ended, BatchEnd::Moved, BatchEnd::Stale],
            "{name}"
        );
        let status = |id| store.game(id).unwrap().map(|g| g.status);
        assert_eq!(status(g1.id), Some(GameStatus::Finished), "{name}");
        assert_eq!(store.game(g2.id).unwrap(), Some(g2), "{name}");
        assert_eq!(store.game(g3.id).unwrap(), Some(g3), "{name}");
        assert_eq!(store.rating("eve", "shogi", "").unwrap(), None, "{name}");
    }
}

#[test]
fn vacation_deadlines_move_only_in_games_as_read() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        let deadline = g.deadline.expect("a deadline");
        let shift = |version| DeadlineShift {
            game: g.id,
            version,
            deadline: deadline + 2 * DAY,
        };
        // A game that moved on since: nothing of the vacation is written.
        let err = store
            .start_vacation("alice", T0, T0 + 2 * DAY, &MONTH, &[shift(g.version - 1)])
            .expect_err("a stale game");
        assert!(matches!(err, StoreError::Stale), "{name}: {err:?}");
        assert_eq!(store.game(g.id).unwrap(), Some(g.clone()), "{name}");
        let alice = store.user("alice").unwrap().expect("alice");
        assert_eq!(alice.vacation_until, None, "{name}");
        assert_eq!(store.vacation_used("alice", 0).unwrap(), 0, "{name}");
        // As read: the vacation and the new deadline, together.
        store
            .start_vacation("alice", T0, T0 + 2 * DAY, &MONTH, &[shift(g.version)])
            .expect("starts");
        let shifted = store.game(g.id).unwrap().expect("the game");
        assert_eq!(shifted.deadline, Some(deadline + 2 * DAY), "{name}");
        assert_eq!(shifted.version, g.version + 1, "{name}");
        // Ending a vacation that is not the one read: refused, nothing moves back.
        let err = store
            .end_vacation("alice", T0 + DAY, T0 + 3600, &[])
            .expect_err("not that vacation");
        assert!(matches!(err, StoreError::Stale), "{name}: {err:?}");
        let alice = store.user("alice").unwrap().expect("alice");
        assert_eq!(alice.vacation_until, Some(T0 + 2 * DAY), "{name}");
        // The one read: ended, the deadline back by what was left.
        let back = DeadlineShift {
            game: g.id,
            version: shifted.version,
            deadline: deadline + 3600,
        };
        store
            .end_vacation("alice", T0 + 2 * DAY, T0 + 3600, &[back])
            .expect("ends");
        let alice = store.user("alice").unwrap().expect("alice");
        assert_eq!(alice.vacation_until, None, "{name}");
        assert_eq!(store.vacation_used("alice", 0).unwrap(), 3600, "{name}");
        let g = store.game(g.id).unwrap().expect("the game");
        assert_eq!(g.deadline, Some(deadline + 3600), "{name}");
        assert_eq!(store.waiting_for("alice").unwrap(), vec![g], "{name}");
    }
}

#[test]
fn notices_wait_in_the_outbox_until_marked_sent() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        let notice = |id: i64, text: &str| NewNotice {
            id,
            game: None,
            user: "bob".into(),
            via: "mention".into(),
            channel: Some("chan".into()),
            text: text.into(),
            ply: None,
            league: None,
        };
        let ending = resignation();
        // A league's notice names its league (delivered in the league's home).
        let notices = [
            notice(11, "you lose"),
            NewNotice {
                league: Some(7),
                ..notice(12, "game over")
            },
        ];
        let f = Finish {
            ending: &ending,
            notices: &notices,
            ratings: vec![],
        };
        store
            .finish_game(g.id, g.version, &f, T0 + 1)
            .expect("ends");
        let unsent = store.unsent(10).unwrap();
        let ids: Vec<i64> = unsent.iter().map(|o| o.id).collect();
        assert_eq!(ids, vec![11, 12], "{name}");
        assert_eq!(unsent[0].notice.text, "you lose", "{name}");
        assert_eq!(unsent[0].notice.league, None, "{name}");
        assert_eq!(unsent[1].notice.league, Some(7), "{name}");
        // The delivery loop's claim reads the same rows.
        let claimed = store.claim_unsent(10).unwrap();
        let leagues: Vec<Option<i64>> = claimed.iter().map(|o| o.notice.league).collect();
        assert_eq!(leagues, vec![None, Some(7)], "{name}");
        store.mark_sent(&[11], T0 + 2).unwrap();
        let ids: Vec<i64> = store.unsent(10).unwrap().iter().map(|o| o.id).collect();
        assert_eq!(ids, vec![12], "{name}");
        // A notice id must be positive: the whole change is refused.
        let g2 = new_game(store, "alice", "bob");
        let bad = [notice(0, "bad")];
        let f = Finish {
            ending: &ending,
            notices: &bad,
            ratings: vec![],
        };
        assert!(
            store.finish_game(g2.id, g2.version, &f, T0 + 3).is_err(),
            "{name}"
        );
        assert_eq!(store.game(g2.id).unwrap(), Some(g2), "{name}");
    }
}

#[test]
fn the_gauges_count_unsent_notices_and_games_in_play_alike() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        assert_eq!(
            store.gauges().expect("gauges"),
            tegami::store::Gauges::default(),
            "{name}: an empty database"
        );
        let g = new_game(store, "alice", "bob");
        new_game(store, "carol", "dave");
        let notice = |id: i64| NewNotice {
            id,
            game: Some(g.id),
            user: "bob".into(),
            via: "mention".into(),
            channel: Some("chan".into()),
            text: "game over".into(),
            ply: None,
            league: None,
        };
        let ending = resignation();
        let notices = [notice(21), notice(22)];
        let f = Finish {
            ending: &ending,
            notices: &notices,
            ratings: vec![],
        };
        store
            .finish_game(g.id, g.version, &f, T0 + 5)
            .expect("ends");
        let gauges = store.gauges().expect("gauges");
        assert_eq!(
            gauges,
            tegami::store::Gauges {
                unsent: 2,
                oldest_unsent: Some(T0 + 5),
                games_in_play: 1,
            },
            "{name}"
        );
        // Sent and set aside both leave the backlog.
        store.mark_sent(&[21], T0 + 6).expect("sent");
        assert_eq!(store.gauges().expect("gauges").unsent, 1, "{name}");
        store.set_aside(22, "nowhere", T0 + 7).expect("aside");
        let gauges = store.gauges().expect("gauges");
        assert_eq!((gauges.unsent, gauges.oldest_unsent), (0, None), "{name}");
        assert_eq!(gauges.games_in_play, 1, "{name}");
    }
}

/// A move's stored announcement (a `post` not yet sent) is said anew, with another board and
/// viewer (issue 49, point 19: a conditional answer changed what is true after the move); a
/// mention, or a post already sent, is left as it is.
#[test]
fn an_unsent_post_is_rewritten_and_nothing_else_is() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        let notice = |id: i64, via: &str| NewNotice {
            id,
            game: Some(g.id),
            user: "bob".into(),
            via: via.into(),
            channel: Some("chan".into()),
            text: "alice plays; bob to move".into(),
            ply: (via == "post").then_some(1),
            league: None,
        };
        let ending = resignation();
        let notices = [
            notice(31, "post"),
            notice(32, "mention"),
            notice(33, "post"),
        ];
        let f = Finish {
            ending: &ending,
            notices: &notices,
            ratings: vec![],
        };
        store
            .finish_game(g.id, g.version, &f, T0 + 5)
            .expect("ends");
        store.mark_sent(&[33], T0 + 6).expect("sent");
        let said = "alice plays; bob answers at once; alice to move";
        assert!(
            store.rewrite_post(31, "alice", said, 2).expect("rewrite"),
            "{name}"
        );
        assert!(
            !store.rewrite_post(32, "alice", said, 2).expect("rewrite"),
            "{name}: a mention is not a post"
        );
        assert!(
            !store.rewrite_post(33, "alice", said, 2).expect("rewrite"),
            "{name}: a post already sent"
        );
        let rows = store.unsent(10).expect("unsent");
        let row = |id: i64| {
            rows.iter()
                .find(|r| r.id == id)
                .map(|r| r.notice.clone())
                .unwrap_or_else(|| panic!("{name}: notice {id} unsent"))
        };
        let post = row(31);
        assert_eq!(
            (post.user.as_str(), post.text.as_str(), post.ply),
            ("alice", said, Some(2)),
            "{name}"
        );
        assert_eq!(row(32), notice(32, "mention"), "{name}");
        assert!(rows.iter().all(|r| r.id != 33), "{name}");
    }
}

/// The number after `prefix` in `text` (`Game #12 begins` → 12).
fn number_after(text: &str, prefix: &str) -> Option<i64> {
    let at = text.find(prefix)? + prefix.len();
    let digits: String = text[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// The command core over each backend: challenges, moves, an offer declined, more time, a
/// vacation, a rated resignation, a rated loss on time and an expired challenge by the sweep,
/// the outbox. Every backend ends with the same games and the same ratings.
#[test]
fn the_command_core_plays_alike_on_every_backend() {
    let mut seen: Vec<(&str, Vec<RatingRow>)> = Vec::new();
    for b in backends() {
        let name = b.name;
        let clock = Arc::new(ManualClock::new(T0));
        let config = Config {
            default_days: 3,
            challenge_days: 7,
            images: false,
            markdown: false,
        };
        let service = Service::new(b.shared(), clock.clone(), config);
        let place = Place {
            guild: Some("g1".into()),
            channel: Some("g1-chan".into()),
            admin: false,
            locale: None,
        };
        let ok = |user: &str, line: &str| -> String {
            let command = parse_command(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let reply = service
                .try_handle(&Request {
                    user: User::new(user, user),
                    place: place.clone(),
                    command,
                })
                .unwrap_or_else(|e| panic!("{name}: @{user} {line}: {e:?}"));
            assert!(!reply.error, "{name}: @{user} {line}: {}", reply.text);
            reply.text
        };
        let start = |a: &str, b: &str, args: &str| -> i64 {
            let t = ok(a, &format!("challenge @{b} {args} black"));
            let c = number_after(&t, "Challenge #").expect("a challenge");
            let t = ok(b, &format!("accept {c}"));
            number_after(&t, "Game #").expect("a game")
        };
        let g = start("alice", "bob", "shogi rated days=3");
        ok("alice", &format!("move {g} 7g7f"));
        ok("bob", &format!("move {g} 3c3d"));
        ok("alice", &format!("draw {g} offer"));
        ok("bob", &format!("draw {g} decline"));
        let before = b.store().game(g).unwrap().expect("the game").deadline;
        ok("bob", &format!("moretime {g}"));
        let after = b.store().game(g).unwrap().expect("the game").deadline;
        assert_eq!(after, before.map(|d| d + DAY), "{name}: moretime");
        clock.set(T0 + 3600);
        ok("alice", "vacation 2");
        let on = b.store().game(g).unwrap().expect("the game").deadline;
        assert_eq!(on, after.map(|d| d + 2 * DAY), "{name}: vacation");
        ok("alice", "vacation end");
        let back = b.store().game(g).unwrap().expect("the game").deadline;
        assert_eq!(back, after, "{name}: back from vacation");
        ok("bob", &format!("resign {g}"));
        // A rated game Carol never starts, and a challenge nobody answers.
        let g2 = start("carol", "alice", "shogi rated days=1");
        ok("dan", "challenge @erin shogi");
        let sweep = service.sweep(T0 + 8 * DAY).expect("a sweep");
        assert_eq!(sweep.timeouts, vec![g2], "{name}");
        assert_eq!(sweep.expired.len(), 1, "{name}");
        let ids: Vec<i64> = sweep.notices.iter().map(|(id, _)| *id).collect();
        assert!(!ids.is_empty(), "{name}: the sweep's notices");
        service.mark_sent(&ids).expect("marked sent");
        let again = service.sweep(T0 + 8 * DAY).expect("a second sweep");
        assert!(
            again.timeouts.is_empty() && again.expired.is_empty(),
            "{name}"
        );
        let store = b.store();
        for id in [g, g2] {
            let row = store.game(id).unwrap().expect("the game");
            assert_eq!(row.status, GameStatus::Finished, "{name}: game {id}");
        }
        let ratings: Vec<RatingRow> = ["alice", "bob", "carol"]
            .iter()
            .map(|u| store.rating(u, "shogi", "g1").unwrap().expect("rated"))
            .collect();
        assert_eq!((ratings[0].games, ratings[0].wins), (2, 2), "{name}");
        seen.push((name, ratings));
    }
    for (name, ratings) in &seen[1..] {
        assert_eq!(ratings, &seen[0].1, "{name} rates as {} does", seen[0].0);
    }
}

/// Names per server: a user's global name in `users`, their nickname in a server kept for that
/// server only, changed and forgotten as the transport says, read one at a time and in bulk.
/// What a player chose to read (language, notation), the locale their client last had, and a
/// server's language and locale: kept alike on every backend, and unset again.
#[test]
fn languages_and_locales_are_kept() {
    for b in backends() {
        let (name, s) = (b.name, b.store());
        s.touch_user("u1", "Aki", T0).expect("touch");
        let user = |id: &str| s.user(id).expect("user").expect("known");
        let fresh = user("u1");
        assert_eq!(
            (fresh.language, fresh.notation, fresh.locale),
            (None, None, None),
            "{name}: a new player chose nothing"
        );
        s.set_user_speech("u1", Some("ja"), Some("western"))
            .expect("speech");
        s.set_user_locale("u1", "en-GB").expect("locale");
        let u = user("u1");
        assert_eq!(u.language.as_deref(), Some("ja"), "{name}");
        assert_eq!(u.notation.as_deref(), Some("western"), "{name}");
        assert_eq!(u.locale.as_deref(), Some("en-GB"), "{name}");
        // Back to the defaults; the client's locale stays what it was.
        s.set_user_speech("u1", None, None).expect("speech");
        let u = user("u1");
        assert_eq!((u.language, u.notation), (None, None), "{name}");
        assert_eq!(u.locale.as_deref(), Some("en-GB"), "{name}");
        assert!(
            s.set_user_speech("nobody", Some("ja"), None).is_err(),
            "{name}: an unknown user"
        );
        assert!(s.set_user_locale("nobody", "ja").is_err(), "{name}");

        // A server: its Discord locale, updated; its chosen language.
        assert_eq!(s.server_locale("g1").expect("locale"), None, "{name}");
        s.set_server_locale("g1", "ja").expect("locale");
        s.set_server_locale("g1", "en-US").expect("locale");
        assert_eq!(
            s.server_locale("g1").expect("locale").as_deref(),
            Some("en-US"),
            "{name}"
        );
        let server = ServerRow {
            guild: "g1".into(),
            default_days: 5,
            rated_default: false,
            games_channel: None,
            language: Some("ja".into()),
            leagues: false,
            featured: None,
        };
        s.set_server(&server).expect("set server");
        let kept = s.server("g1").expect("server").expect("known");
        assert_eq!(kept.language.as_deref(), Some("ja"), "{name}");
        assert!(!kept.leagues, "{name}: leagues turned off are kept");
        s.set_server(&ServerRow {
            language: None,
            leagues: true,
            featured: Some(7),
            ..server
        })
        .expect("set server");
        let kept = s.server("g1").expect("server").expect("known");
        assert_eq!(kept.language, None, "{name}");
        assert!(kept.leagues, "{name}");
        assert_eq!(kept.featured, Some(7), "{name}: the featured game is kept");
    }
}

#[test]
fn nicknames_are_kept_per_server() {
    for b in backends() {
        let (name, s) = (b.name, b.store());
        let a = Some("A");
        let u = s
            .touch_member("u1", "Bob_Smith", "A", Some("*Ace*"), T0)
            .expect("touch");
        assert_eq!(u.name, "Bob_Smith", "{name}: the global name is the user's");
        let named = |id: &str, guild: Option<&str>| s.name_in(id, guild).expect("name_in");
        assert_eq!(named("u1", a).as_deref(), Some("*Ace*"), "{name}");
        assert_eq!(
            named("u1", Some("B")).as_deref(),
            Some("Bob_Smith"),
            "{name}"
        );
        assert_eq!(named("u1", None).as_deref(), Some("Bob_Smith"), "{name}");
        assert_eq!(named("nobody", a), None, "{name}: an unknown user");

        // Seen in B without a nickname: A's stays.
        s.touch_member("u1", "Bob_Smith", "B", None, T0 + 1)
            .expect("touch");
        assert_eq!(named("u1", a).as_deref(), Some("*Ace*"), "{name}");
        s.touch_member("u2", "Carol", "A", Some("Cee"), T0)
            .expect("touch");
        s.touch_member("u2", "Carol", "B", Some("Bee"), T0)
            .expect("touch");
        // Every pair asked: with a nickname, without one, an unknown user, another server.
        let pairs: Vec<(String, String)> = [
            ("A", "u1"),
            ("B", "u1"),
            ("A", "u2"),
            ("B", "u2"),
            ("A", "nobody"),
            ("C", "u2"),
        ]
        .iter()
        .map(|(g, u)| (g.to_string(), u.to_string()))
        .collect();
        let mut found: Vec<(String, String, String)> = s
            .server_names(&pairs)
            .expect("server_names")
            .into_iter()
            .map(|n| (n.guild, n.user_id, n.name))
            .collect();
        found.sort();
        let want = |g: &str, u: &str, n: &str| (g.to_string(), u.to_string(), n.to_string());
        assert_eq!(
            found,
            vec![
                want("A", "u1", "*Ace*"),
                want("A", "u2", "Cee"),
                want("B", "u2", "Bee")
            ],
            "{name}"
        );
        assert!(s.server_names(&[]).expect("none").is_empty(), "{name}");

        // Renamed, globally and in A.
        s.touch_member("u1", "Robert", "A", Some("Ace"), T0 + 2)
            .expect("touch");
        assert_eq!(named("u1", a).as_deref(), Some("Ace"), "{name}");
        assert_eq!(named("u1", None).as_deref(), Some("Robert"), "{name}");
        // A global rename keeps the nicknames.
        s.touch_user("u2", "Caroline", T0 + 2).expect("touch");
        assert_eq!(named("u2", a).as_deref(), Some("Cee"), "{name}");
        assert_eq!(named("u2", None).as_deref(), Some("Caroline"), "{name}");
        // The nickname dropped in A: forgotten there.
        let u = s
            .touch_member("u1", "Robert", "A", None, T0 + 3)
            .expect("touch");
        assert_eq!(u.name, "Robert", "{name}");
        assert_eq!(named("u1", a).as_deref(), Some("Robert"), "{name}");
        assert!(
            s.server_names(&[("A".into(), "u1".into())])
                .expect("read")
                .is_empty(),
            "{name}"
        );
        // Touched with the names it has: nothing changes, and the user's settings come back.
        s.set_user_settings("u1", "international", "dm")
            .expect("settings");
        let u = s
            .touch_member("u1", "Robert", "A", None, T0 + 4)
            .expect("touch");
        assert_eq!(
            (u.style.as_str(), u.notify.as_str()),
            ("international", "dm"),
            "{name}"
        );
    }
}

/// The Discord adapter calls the core from the async runtime's blocking threads
/// (`spawn_blocking`); every backend works there (PostgreSQL's synchronous client runs a small
/// runtime of its own, which tokio allows on those threads and not on its workers).
#[test]
fn the_store_answers_from_the_runtimes_blocking_threads() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    for b in backends() {
        let (name, store) = (b.name, b.shared());
        let user = runtime
            .block_on(async move {
                tokio::task::spawn_blocking(move || store.touch_user("alice", "Alice", T0)).await
            })
            .expect("the blocking task ran")
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(user.name, "Alice", "{name}");
        // The bot's last handle on the store may go on a runtime thread at exit: closing it
        // there is fine too (PostgreSQL's client would block on its own runtime there).
        let last = (b.reopen)();
        last.touch_user("bob", "Bob", T0).expect("a call first");
        runtime.block_on(async move { drop(last) });
    }
}

/// Two handles on one database (two processes) end the same games at the same moment, one by
/// one and in batches: each game ends exactly once, its notice queued once.
#[test]
fn two_handles_racing_end_each_game_once() {
    const GAMES: usize = 40;
    for b in backends() {
        let name = b.name;
        let handles = [b.shared(), (b.reopen)()];
        let games: Vec<_> = (0..GAMES)
            .map(|i| new_game(b.store(), &format!("a{i}"), &format!("b{i}")))
            .collect();
        let barrier = std::sync::Barrier::new(2);
        let wins: Vec<Vec<bool>> = std::thread::scope(|s| {
            let runs: Vec<_> = handles
                .iter()
                .enumerate()
                .map(|(h, store)| {
                    let (games, barrier) = (&games, &barrier);
                    s.spawn(move || {
                        let ending = resignation();
                        barrier.wait();
                        games
                            .iter()
                            .enumerate()
                            .map(|(i, g)| {
                                let id = 1_000 + (i * 2 + h) as i64;
                                let notices = [NewNotice {
                                    id,
                                    game: Some(g.id),
                                    user: g.players[1].clone(),
                                    via: "mention".into(),
                                    channel: None,
                                    text: format!("game {} over", g.id),
                                    ply: None,
                                    league: None,
                                }];
                                let f = Finish {
                                    ending: &ending,
                                    notices: &notices,
                                    ratings: vec![],
                                };
                                if i % 2 == 0 {
                                    match store.finish_game(g.id, g.version, &f, T0 + 1) {
                                        Ok(_) => true,
                                        Err(StoreError::Conflict) => false,
                                        Err(e) => panic!("{name}: handle {h}: {e}"),
                                    }
                                } else {
                                    let batch = [(g.id, g.version, f)];
                                    match store.finish_games(&batch, T0 + 1).expect("a batch")[0] {
                                        BatchEnd::Ended => true,
                                        BatchEnd::Moved | BatchEnd::Held => false,
                                        BatchEnd::Stale => panic!("{name}: unrated, never stale"),
                                    }
                                }
                            })
                            .collect()
                    })
                })
                .collect();
            runs.into_iter()
                .map(|r| r.join().expect("a racing handle"))
                .collect()
        });
        for (i, g) in games.iter().enumerate() {
            assert!(
                wins[0][i] ^ wins[1][i],
                "{name}: game {} ended by exactly one",
                g.id
            );
            let row = b.store().game(g.id).unwrap().expect("the game");
            assert_eq!(row.version, g.version + 1, "{name}: game {}", g.id);
        }
        assert_eq!(b.store().unsent(10 * GAMES).unwrap().len(), GAMES, "{name}");
    }
}

fn ids_of(rows: Vec<OutboxRow>) -> Vec<i64> {
    rows.into_iter().map(|o| o.id).collect()
}

/// Runs `sql` on the backend's database past the store (to play the database's clock).
fn raw_execute(b: &Backend, sql: &str) {
    match b.locator.split_once(':') {
        Some(("sqlite", path)) => {
            let c = rusqlite::Connection::open(path).expect("open SQLite");
            c.busy_timeout(std::time::Duration::from_secs(10))
                .expect("busy timeout");
            c.execute_batch(sql).expect(sql);
        }
        Some(("postgres", url)) => {
            let mut c = postgres::Client::connect(url, postgres::NoTls).expect("connect");
            c.batch_execute(sql).expect(sql);
        }
        _ => panic!("not a store locator: {}", b.locator),
    }
}

/// A hold on an unsent notice: its id, its holder, until when.
type Hold = (i64, Option<String>, Option<i64>);

/// The holds on the outbox's unsent notices, by id, and the database's now.
fn holds(b: &Backend) -> (Vec<Hold>, i64) {
    const SQL: &str = "SELECT id, claimed_by, claimed_until FROM outbox
                       WHERE sent_at IS NULL ORDER BY id";
    match b.locator.split_once(':') {
        Some(("sqlite", path)) => {
            let c = rusqlite::Connection::open(path).expect("open SQLite");
            let mut st = c.prepare(SQL).expect("holds");
            let rows = st
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .expect("holds")
                .collect::<rusqlite::Result<Vec<_>>>()
                .expect("holds");
            let now = c
                .query_row("SELECT unixepoch()", [], |r| r.get(0))
                .expect("now");
            (rows, now)
        }
        Some(("postgres", url)) => {
            let mut c = postgres::Client::connect(url, postgres::NoTls).expect("connect");
            let rows = c
                .query(SQL, &[])
                .expect("holds")
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2)))
                .collect();
            let now: i64 = c
                .query_one(
                    "SELECT floor(extract(epoch FROM clock_timestamp()))::bigint",
                    &[],
                )
                .expect("now")
                .get(0);
            (rows, now)
        }
        _ => panic!("not a store locator: {}", b.locator),
    }
}

/// Every hold on the outbox as if `OUTBOX_LEASE` had passed on the database's clock since it
/// was last taken or renewed (its holder stopped renewing it).
fn lapse_holds(b: &Backend) {
    raw_execute(
        b,
        &format!(
            "UPDATE outbox SET claimed_until = claimed_until - {OUTBOX_LEASE} - 1
             WHERE sent_at IS NULL AND claimed_until IS NOT NULL"
        ),
    );
}

/// A notice is delivered by the handle (the process) that queued it; another takes it only
/// once the first stopped renewing its hold, or let go of it at a clean shutdown.
#[test]
fn a_notice_is_held_by_one_handle_at_a_time() {
    for b in backends() {
        let name = b.name;
        let (mine, other) = (b.shared(), (b.reopen)());
        let g = new_game(&*mine, "alice", "bob");
        let notice = |id: i64| NewNotice {
            id,
            game: Some(g.id),
            user: "bob".into(),
            via: "mention".into(),
            channel: None,
            text: format!("notice {id}"),
            ply: None,
            league: None,
        };
        let ending = resignation();
        let notices = [notice(21), notice(22)];
        let f = Finish {
            ending: &ending,
            notices: &notices,
            ratings: vec![],
        };
        mine.finish_game(g.id, g.version, &f, T0 + 1).expect("ends");
        // Both see them waiting; only the handle that queued them may take them.
        assert_eq!(ids_of(other.unsent(10).unwrap()), [21, 22], "{name}");
        assert!(
            other.claim_unsent(10).unwrap().is_empty(),
            "{name}: another process's fresh notices"
        );
        assert_eq!(ids_of(mine.claim_unsent(10).unwrap()), [21, 22]);
        // Claiming again renews the hold.
        assert_eq!(ids_of(mine.claim_unsent(10).unwrap()), [21, 22], "{name}");
        assert!(
            other.claim_unsent(10).unwrap().is_empty(),
            "{name}: a renewed hold"
        );
        // The first stops renewing (it stopped): once its hold lapses the other takes them,
        // and the first may no longer deliver them.
        lapse_holds(&b);
        assert_eq!(
            ids_of(other.claim_unsent(10).unwrap()),
            [21, 22],
            "{name}: a lapsed hold"
        );
        assert!(mine.claim_unsent(10).unwrap().is_empty(), "{name}");
        other.mark_sent(&[21], T0 + 3).unwrap();
        assert_eq!(ids_of(other.claim_unsent(10).unwrap()), [22], "{name}");
        // A clean shutdown lets go at once.
        other.release_claims().unwrap();
        assert_eq!(
            ids_of(mine.claim_unsent(10).unwrap()),
            [22],
            "{name}: let go"
        );
    }
}

/// Holds are taken by the database's clock, whatever time the caller's clock says: a notice
/// queued with a `now` months in the past (a machine whose clock is wrong, or a manual clock)
/// is held for `OUTBOX_LEASE` from the database's now, and claiming or renewing pushes the hold
/// to the database's now + `OUTBOX_LEASE`.
#[test]
fn holds_are_reckoned_by_the_databases_clock() {
    for b in backends() {
        let name = b.name;
        let (mine, other) = (b.shared(), (b.reopen)());
        let g = new_game(&*mine, "alice", "bob");
        let notices = [NewNotice {
            id: 41,
            game: Some(g.id),
            user: "bob".into(),
            via: "mention".into(),
            channel: None,
            text: "over".into(),
            ply: None,
            league: None,
        }];
        let ending = resignation();
        let f = Finish {
            ending: &ending,
            notices: &notices,
            ratings: vec![],
        };
        // T0 is long past by the database's clock: a hold of T0 + OUTBOX_LEASE would have
        // lapsed already.
        mine.finish_game(g.id, g.version, &f, T0).expect("ends");
        let (rows, now) = holds(&b);
        let until = rows[0].2.expect("held");
        assert!(
            (now + OUTBOX_LEASE - 2..=now + OUTBOX_LEASE).contains(&until),
            "{name}: held until {until}, the database's now is {now}"
        );
        assert!(other.claim_unsent(10).unwrap().is_empty(), "{name}");
        // Nearly lapsed; renewing pushes it a whole lease on.
        raw_execute(
            &b,
            &format!("UPDATE outbox SET claimed_until = claimed_until - {OUTBOX_LEASE} + 2"),
        );
        mine.renew_claims().unwrap();
        let (rows, now) = holds(&b);
        assert!(
            rows[0].2.expect("held") >= now + OUTBOX_LEASE - 2,
            "{name}: renewed: {rows:?} at {now}"
        );
    }
}

/// Renewing keeps another handle off the notices this one holds while it delivers; it claims
/// nothing new; after a release the other takes them.
#[test]
fn a_renewed_hold_keeps_another_handle_off_until_released() {
    for b in backends() {
        let name = b.name;
        let (first, second) = (b.shared(), (b.reopen)());
        let notice = |id: i64, g: i64| NewNotice {
            id,
            game: Some(g),
            user: "bob".into(),
            via: "mention".into(),
            channel: None,
            text: format!("notice {id}"),
            ply: None,
            league: None,
        };
        // Two notices of the first handle.
        let g = new_game(&*first, "alice", "bob");
        let ending = resignation();
        let mine = [notice(31, g.id), notice(32, g.id)];
        let f = Finish {
            ending: &ending,
            notices: &mine,
            ratings: vec![],
        };
        first.finish_game(g.id, g.version, &f, T0).expect("ends");
        // A free notice: queued by a third handle that let go of it.
        let third = (b.reopen)();
        let g2 = new_game(&*third, "carol", "dave");
        let free = [notice(33, g2.id)];
        let f = Finish {
            ending: &ending,
            notices: &free,
            ratings: vec![],
        };
        third.finish_game(g2.id, g2.version, &f, T0).expect("ends");
        third.release_claims().unwrap();
        drop(third);

        assert_eq!(ids_of(first.claim_unsent(2).unwrap()), [31, 32], "{name}");
        // A slow delivery: the first hold would have lapsed, but the first handle renews it.
        lapse_holds(&b);
        first.renew_claims().unwrap();
        let (rows, _) = holds(&b);
        let holder = rows[0].1.clone().expect("held");
        assert_eq!(rows[1].1.as_deref(), Some(holder.as_str()), "{name}");
        assert_eq!(rows[2].1, None, "{name}: renewing claims nothing new");
        assert_eq!(
            ids_of(second.claim_unsent(10).unwrap()),
            [33],
            "{name}: only the free notice"
        );
        first.renew_claims().unwrap();
        assert_eq!(
            ids_of(second.claim_unsent(10).unwrap()),
            [33],
            "{name}: a live hold"
        );
        first.release_claims().unwrap();
        assert_eq!(
            ids_of(second.claim_unsent(10).unwrap()),
            [31, 32, 33],
            "{name}: let go"
        );
    }
}

/// Notices are delivered in the order they were made (`created_at`, then id), not by id alone:
/// ids made before the id scheme of 2024 are larger than those made after it.
#[test]
fn the_outbox_delivers_in_the_order_notices_were_made() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let notice = |id: i64| NewNotice {
            id,
            game: None,
            user: "bob".into(),
            via: "mention".into(),
            channel: None,
            text: format!("notice {id}"),
            ply: None,
            league: None,
        };
        // An old-scheme id (microseconds since 1970, shifted), then a new-scheme one.
        let old: i64 = 1_767_225_600_000_000 << 12;
        for (i, id) in [old, 7, old + 1].into_iter().enumerate() {
            let g = new_game(store, "alice", "bob");
            let ending = resignation();
            let n = [notice(id)];
            let f = Finish {
                ending: &ending,
                notices: &n,
                ratings: vec![],
            };
            store
                .finish_game(g.id, g.version, &f, T0 + i as i64)
                .expect("ends");
        }
        assert_eq!(
            ids_of(store.unsent(10).unwrap()),
            [old, 7, old + 1],
            "{name}"
        );
        assert_eq!(
            ids_of(store.claim_unsent(10).unwrap()),
            [old, 7, old + 1],
            "{name}"
        );
        assert_eq!(ids_of(store.claim_unsent(2).unwrap()), [old, 7], "{name}");
    }
}

/// Two handles deliver free notices at the same moment (claim a few, mark them sent, again):
/// every notice is delivered, by exactly one of them.
#[test]
fn two_handles_claiming_at_once_deliver_each_notice_once() {
    const NOTICES: usize = 300;
    for b in backends() {
        let name = b.name;
        // Queued by a third handle that then stops cleanly: free for the two.
        let queuer = (b.reopen)();
        for chunk in 0..(NOTICES / 30) {
            let g = new_game(&*queuer, &format!("q{chunk}"), &format!("r{chunk}"));
            let notices: Vec<NewNotice> = (0..30)
                .map(|i| NewNotice {
                    id: (5_000 + chunk * 30 + i) as i64,
                    game: Some(g.id),
                    user: g.players[1].clone(),
                    via: "mention".into(),
                    channel: None,
                    text: "over".into(),
                    ply: None,
                    league: None,
                })
                .collect();
            let ending = resignation();
            let f = Finish {
                ending: &ending,
                notices: &notices,
                ratings: vec![],
            };
            queuer.finish_game(g.id, g.version, &f, T0).expect("ends");
        }
        queuer.release_claims().unwrap();
        let handles = [b.shared(), (b.reopen)()];
        let barrier = std::sync::Barrier::new(2);
        let delivered: Vec<Vec<i64>> = std::thread::scope(|s| {
            let runs: Vec<_> = handles
                .iter()
                .map(|store| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        barrier.wait();
                        let mut mine = Vec::new();
                        loop {
                            let got = ids_of(store.claim_unsent(7).expect("claim"));
                            if got.is_empty() {
                                return mine;
                            }
                            store.mark_sent(&got, T0 + 1).expect("mark sent");
                            mine.extend(got);
                        }
                    })
                })
                .collect();
            runs.into_iter()
                .map(|r| r.join().expect("a delivering handle"))
                .collect()
        });
        let mut all: Vec<i64> = delivered.concat();
        all.sort();
        let expected: Vec<i64> = (5_000..5_000 + NOTICES as i64).collect();
        assert_eq!(all, expected, "{name}: each notice delivered exactly once");
        say(&format!(
            "{name}: two handles delivered {} and {} notices",
            delivered[0].len(),
            delivered[1].len()
        ));
    }
}

/// What one sweep did, as a child process reports it.
#[derive(Debug, Default)]
struct Swept {
    timeouts: Vec<i64>,
    reminders: Vec<i64>,
    expired: Vec<i64>,
    digests: Vec<String>,
    notices: Vec<i64>,
}

impl From<tegami::service::Sweep> for Swept {
    fn from(s: tegami::service::Sweep) -> Swept {
        Swept {
            timeouts: s.timeouts,
            reminders: s.reminders,
            expired: s.expired,
            digests: s.digests,
            notices: s.notices.iter().map(|(id, _)| *id).collect(),
        }
    }
}

impl Swept {
    /// One line per list: `timeouts 1 2 3`.
    fn write(&self) -> String {
        let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
        format!(
            "timeouts {}\nreminders {}\nexpired {}\ndigests {}\nnotices {}\n",
            join(&self.timeouts),
            join(&self.reminders),
            join(&self.expired),
            self.digests.join(" "),
            join(&self.notices)
        )
    }

    fn read(text: &str) -> Swept {
        let mut out = Swept::default();
        for line in text.lines() {
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or_default();
            let words: Vec<&str> = words.collect();
            let numbers =
                || -> Vec<i64> { words.iter().map(|w| w.parse().expect("a number")).collect() };
            match key {
                "timeouts" => out.timeouts = numbers(),
                "reminders" => out.reminders = numbers(),
                "expired" => out.expired = numbers(),
                "digests" => out.digests = words.iter().map(|w| w.to_string()).collect(),
                "notices" => out.notices = numbers(),
                other => panic!("a child's report has an unknown line '{other}'"),
            }
        }
        out
    }
}

/// The sweep's work: games past their deadline, games due within the day whose players read a
/// digest, challenges past their expiry.
struct Scene {
    due: Vec<i64>,
    remind: Vec<i64>,
    expired: Vec<i64>,
    digests: Vec<String>,
}

/// When the scene's sweep runs.
const SWEEP_AT: i64 = T0 + 4 * DAY;

fn sweep_scene(store: &dyn Store) -> Scene {
    const DUE: usize = 400;
    const REMIND: usize = 20;
    const EXPIRED: usize = 15;
    let due = (0..DUE)
        .map(|i| new_game(store, &format!("late{i}"), &format!("w{i}")).id)
        .collect();
    let remind = (0..REMIND)
        .map(|i| {
            let g = new_game_due(
                store,
                &format!("slow{i}"),
                &format!("x{i}"),
                SWEEP_AT + DAY / 2,
            );
            store
                .set_user_settings(&format!("slow{i}"), "kanji", "digest")
                .expect("digest");
            g.id
        })
        .collect();
    let expired = (0..EXPIRED)
        .map(|i| {
            store
                .create_challenge(
                    &NewChallenge {
                        challenger: format!("late{i}"),
                        challenged: Some(format!("w{i}")),
                        variant: "shogi".into(),
                        color: "random".into(),
                        control: TimeControl::per_move(3),
                        handicap: None,
                        setup: None,
                        rated: false,
                        guild: None,
                        channel: Some("chan".into()),
                        expires_at: T0 + DAY,
                    },
                    &[],
                    T0,
                )
                .expect("a challenge")
                .id
        })
        .collect();
    Scene {
        due,
        remind,
        expired,
        digests: (0..REMIND).map(|i| format!("slow{i}")).collect(),
    }
}

fn sweep_config() -> Config {
    Config {
        default_days: 3,
        challenge_days: 7,
        images: false,
        markdown: false,
    }
}

/// Everything of the scene was done once, by one of the two sweeps, and each notice was handed
/// to exactly one of them.
fn check_done_once(name: &str, store: &dyn Store, scene: &Scene, sweeps: &[Swept; 2]) {
    let once = |what: &str, lists: [&Vec<i64>; 2], expected: &[i64]| {
        let mut all: Vec<i64> = [&lists[0][..], &lists[1][..]].concat();
        all.sort();
        let mut want = expected.to_vec();
        want.sort();
        assert_eq!(all, want, "{name}: {what}, each by exactly one sweep");
    };
    let [a, b] = sweeps;
    once("losses on time", [&a.timeouts, &b.timeouts], &scene.due);
    once("reminders", [&a.reminders, &b.reminders], &scene.remind);
    once("expiries", [&a.expired, &b.expired], &scene.expired);
    let mut digests: Vec<String> = [&a.digests[..], &b.digests[..]].concat();
    digests.sort();
    let mut want = scene.digests.clone();
    want.sort();
    assert_eq!(digests, want, "{name}: digests, each by exactly one sweep");
    for (i, g) in scene.due.iter().enumerate() {
        let row = store.game(*g).unwrap().expect("the game");
        assert_eq!(row.status, GameStatus::Finished, "{name}: game {g}");
        assert_eq!(row.reason.as_deref(), Some("timeout"), "{name}: game {g}");
        let r = store
            .rating(&format!("late{i}"), "shogi", "")
            .unwrap()
            .expect("rated");
        assert_eq!((r.games, r.losses), (1, 1), "{name}: late{i} rated once");
    }
    // The outbox: every notice queued once, handed to exactly one process.
    let unsent = store.unsent(100_000).unwrap();
    for g in &scene.due {
        let lost = format!("game #{g}: you lost on time");
        let n = unsent.iter().filter(|o| o.notice.text == lost).count();
        assert_eq!(n, 1, "{name}: '{lost}' queued once");
    }
    assert_eq!(
        unsent.len(),
        2 * scene.due.len() + 2 * scene.remind.len() + scene.expired.len(),
        "{name}: two notices a loss on time, a reminder and a digest per slow player, one per expiry"
    );
    let handed: Vec<i64> = [&a.notices[..], &b.notices[..]].concat();
    let mut sorted = handed.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        handed.len(),
        "{name}: a notice handed to both"
    );
    assert_eq!(sorted, ids_of(unsent), "{name}: every notice handed over");
}

/// The correspondence sweep run by two handles (threads) at the same moment on one database:
/// each overdue game is lost on time once (its two notices queued once, the ratings moved
/// once), each reminder, expired challenge and digest happens once, and the notices each sweep
/// hands over for delivery are disjoint.
#[test]
fn two_handles_sweeping_at_once_do_everything_once() {
    for b in backends() {
        let scene = sweep_scene(b.store());
        let services: Vec<Service> = [b.shared(), (b.reopen)()]
            .into_iter()
            .map(|h| Service::new(h, Arc::new(ManualClock::new(SWEEP_AT)), sweep_config()))
            .collect();
        let barrier = std::sync::Barrier::new(2);
        let sweeps: Vec<Swept> = std::thread::scope(|s| {
            let runs: Vec<_> = services
                .iter()
                .map(|service| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        barrier.wait();
                        Swept::from(service.sweep(SWEEP_AT).expect("a sweep"))
                    })
                })
                .collect();
            runs.into_iter()
                .map(|r| r.join().expect("a sweeping thread"))
                .collect()
        });
        let sweeps: [Swept; 2] = sweeps.try_into().expect("two sweeps");
        check_done_once(b.name, b.store(), &scene, &sweeps);
    }
}

/// The environment variable that makes `sweep_in_a_child_process` a sweeping process.
const CHILD_ENV: &str = "TEGAMI_SWEEP_CHILD";

/// The same in two operating-system processes: this test binary runs itself twice (the ignored
/// test below), each child opens its own store on the database, waits for the start signal (a
/// file appearing), sweeps, and writes what it did.
#[test]
fn two_processes_sweeping_at_once_do_everything_once() {
    for b in backends() {
        let name = b.name;
        let scene = sweep_scene(b.store());
        let dir = tempfile::tempdir().expect("temporary folder");
        let go = dir.path().join("go");
        let children: Vec<_> = (0..2)
            .map(|i| {
                let out = dir.path().join(format!("sweep-{i}.txt"));
                let child =
                    std::process::Command::new(std::env::current_exe().expect("test binary"))
                        .args([
                            "store_contract::sweep_in_a_child_process",
                            "--exact",
                            "--ignored",
                            "--nocapture",
                        ])
                        .env(
                            CHILD_ENV,
                            format!("{}|{}|{}", b.locator, go.display(), out.display()),
                        )
                        .stdout(std::process::Stdio::null())
                        .spawn()
                        .expect("start a sweeping process");
                (child, out)
            })
            .collect();
        std::fs::write(&go, "go").expect("the start signal");
        let sweeps: Vec<Swept> = children
            .into_iter()
            .map(|(mut child, out)| {
                let status = child.wait().expect("a sweeping process");
                assert!(
                    status.success(),
                    "{name}: a sweeping process failed: {status}"
                );
                Swept::read(&std::fs::read_to_string(&out).expect("its report"))
            })
            .collect();
        let sweeps: [Swept; 2] = sweeps.try_into().expect("two sweeps");
        say(&format!(
            "{name}: two processes lost on time {} and {} games",
            sweeps[0].timeouts.len(),
            sweeps[1].timeouts.len()
        ));
        check_done_once(name, b.store(), &scene, &sweeps);
    }
}

/// One of the two processes of `two_processes_sweeping_at_once_do_everything_once` (run by it,
/// never alone): opens the store `TEGAMI_SWEEP_CHILD` names, waits for the start file, sweeps
/// once, and writes what it did.
#[test]
#[ignore = "a child process of two_processes_sweeping_at_once_do_everything_once"]
fn sweep_in_a_child_process() {
    let spec = std::env::var(CHILD_ENV).expect("run by two_processes_sweeping_at_once");
    let parts: Vec<&str> = spec.split('|').collect();
    let [locator, go, out] = parts[..] else {
        panic!("{CHILD_ENV}={spec}: expected LOCATOR|GO|OUT");
    };
    let store = open_locator(locator);
    let service = Service::new(store, Arc::new(ManualClock::new(SWEEP_AT)), sweep_config());
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !std::path::Path::new(go).exists() {
        assert!(std::time::Instant::now() < until, "no start signal");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let swept = Swept::from(service.sweep(SWEEP_AT).expect("a sweep"));
    std::fs::write(out, swept.write()).expect("the report");
}

/// On PostgreSQL a sweep skips a game another transaction holds (a move being played, another
/// process's sweep) instead of waiting for it: `Held`, nothing written; once let go, it ends.
/// (SQLite lets one writer in at a time: nothing is ever held across a call.)
#[test]
fn a_game_another_process_holds_is_skipped_not_waited_for() {
    for b in backends() {
        let Some(url) = b.locator.strip_prefix("postgres:") else {
            continue;
        };
        let store = b.store();
        let (g1, g2) = (new_game(store, "ann", "ben"), new_game(store, "cat", "dan"));
        let mut other = postgres::Client::connect(url, postgres::NoTls).expect("connect");
        let mut tx = other.transaction().expect("a transaction");
        tx.query("SELECT id FROM games WHERE id = $1 FOR UPDATE", &[&g1.id])
            .expect("hold the first game");
        let ending = resignation();
        let batch = vec![
            (g1.id, g1.version, finish(&ending, vec![])),
            (g2.id, g2.version, finish(&ending, vec![])),
        ];
        let done = store.finish_games(&batch, T0 + 1).expect("not blocked");
        assert_eq!(done, vec![BatchEnd::Held, BatchEnd::Ended]);
        assert_eq!(store.game(g1.id).unwrap(), Some(g1.clone()));
        tx.rollback().expect("let go");
        let done = store.finish_games(&batch[..1], T0 + 2).expect("a batch");
        assert_eq!(done, vec![BatchEnd::Ended]);
    }
}

/// A game between `a` and `b` (`a` to move) of `days` per move, due at `deadline`.
fn new_game_of(
    store: &dyn Store,
    a: &str,
    b: &str,
    days: u32,
    deadline: i64,
) -> tegami::store::GameRow {
    for u in [a, b] {
        store.touch_user(u, u, T0).expect("user");
    }
    store
        .start_game(
            &NewGame {
                variant: "shogi".into(),
                setup: None,
                start_position: START.into(),
                players: [a.into(), b.into()],
                guild: None,
                channel: Some("chan".into()),
                rated: false,
                control: TimeControl::per_move(days),
                deadline: Some(deadline),
                banks: [0, 0],
                turn_span: i64::from(days) * 86_400,
                to_move: a.into(),
                computer_level: None,
            },
            &[],
            T0,
        )
        .expect("start a game")
}

/// `reminders_due` applies the reminder rule: the later of "the deadline minus the player's
/// lead" (24 hours unless they chose; 0: never) and "the deadline minus half the time per
/// move", for games not reminded yet; the earliest half time first.
#[test]
fn reminders_are_due_by_the_players_lead_and_half_the_time_per_move() {
    const HOUR: i64 = 3_600;
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let now = T0 + 10 * DAY;
        for (user, lead) in [("r12", Some(12)), ("r60", Some(60)), ("r0", Some(0))] {
            store.touch_user(user, user, T0).expect("user");
            store.set_remind_hours(user, lead).expect("a lead");
            assert_eq!(
                store.user(user).unwrap().expect("user").remind_hours,
                lead,
                "{name}"
            );
        }
        store.touch_user("def", "def", T0).expect("user");
        assert_eq!(store.user("def").unwrap().unwrap().remind_hours, None);
        assert!(matches!(
            store.set_remind_hours("nobody", Some(3)),
            Err(StoreError::NotFound)
        ));
        // (player to move, days per move, deadline, due?)
        let cases = [
            ("def", 3, now + DAY, true),
            ("def", 3, now + DAY + 1, false),
            ("def", 1, now + 12 * HOUR, true),
            ("def", 1, now + 12 * HOUR + 1, false),
            ("r12", 3, now + 12 * HOUR, true),
            ("r12", 3, now + 13 * HOUR, false),
            ("r60", 3, now + 36 * HOUR, true),
            ("r60", 3, now + 37 * HOUR, false),
            ("r0", 3, now + 1, false),
            ("def", 3, now - 5, true),
        ];
        let mut due = Vec::new();
        for (i, (user, days, deadline, is_due)) in cases.iter().enumerate() {
            let g = new_game_of(store, user, &format!("opp{i}"), *days, *deadline);
            if *is_due {
                // In the order of the half time per move.
                due.push((deadline - i64::from(*days) * DAY / 2, g.id));
            }
        }
        // Reminded already, and finished: never due.
        let reminded = new_game_of(store, "def", "x", 3, now + 1);
        let n = NewNotice {
            id: 77,
            game: Some(reminded.id),
            user: "def".into(),
            via: "mention".into(),
            channel: None,
            text: "reminder".into(),
            ply: None,
            league: None,
        };
        assert!(store
            .remind(reminded.id, now + 1, &n, now - 10)
            .expect("remind"));
        let over = new_game_of(store, "def", "y", 3, now + 1);
        let ending = resignation();
        store
            .finish_game(over.id, over.version, &finish(&ending, vec![]), T0)
            .expect("ends");
        due.sort();
        let want: Vec<i64> = due.iter().map(|(_, g)| *g).collect();
        let got: Vec<i64> = store
            .reminders_due(now, 100)
            .unwrap()
            .iter()
            .map(|g| g.id)
            .collect();
        assert_eq!(got, want, "{name}");
        assert_eq!(
            store.reminders_due(now, 2).unwrap().len(),
            2,
            "{name}: limited"
        );
        // Back to the default lead.
        store.set_remind_hours("r12", None).unwrap();
        assert_eq!(store.user("r12").unwrap().unwrap().remind_hours, None);
    }
}

/// The environment variable that makes `open_in_a_child_process` an opening process.
const OPEN_CHILD_ENV: &str = "TEGAMI_OPEN_CHILD";

/// Two processes starting together on an empty PostgreSQL database both come up, and the
/// migrations are applied once: ten times, on a fresh database each time, two children of this
/// test binary open a store at the same moment.
#[test]
fn two_processes_opening_an_empty_database_together_both_come_up() {
    let Some(url) = std::env::var(PG_URL_ENV).ok().filter(|u| !u.is_empty()) else {
        say("two processes opening an empty PostgreSQL database: SKIPPED (no server)");
        return;
    };
    for round in 0..10 {
        let (db_url, db) = pg_database(&url);
        let dir = tempfile::tempdir().expect("temporary folder");
        let go = dir.path().join("go");
        let children: Vec<_> = (0..2)
            .map(|i| {
                let out = dir.path().join(format!("open-{i}.txt"));
                let child =
                    std::process::Command::new(std::env::current_exe().expect("test binary"))
                        .args([
                            "store_contract::open_in_a_child_process",
                            "--exact",
                            "--ignored",
                            "--nocapture",
                        ])
                        .env(
                            OPEN_CHILD_ENV,
                            format!("{db_url}|{}|{}", go.display(), out.display()),
                        )
                        .stdout(std::process::Stdio::null())
                        .spawn()
                        .expect("start an opening process");
                (child, out)
            })
            .collect();
        // Both are waiting for the signal before it is given.
        std::thread::sleep(std::time::Duration::from_millis(300));
        std::fs::write(&go, "go").expect("the start signal");
        let reports: Vec<String> = children
            .into_iter()
            .map(|(mut child, out)| {
                let status = child.wait().expect("an opening process");
                let report = std::fs::read_to_string(&out).unwrap_or_default();
                assert!(
                    status.success() && report == "ok",
                    "round {round}: a process did not come up: {status}: {report}"
                );
                report
            })
            .collect();
        assert_eq!(reports, ["ok", "ok"]);
        let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
        let mut c2 = postgres::Client::connect(&db_url, postgres::NoTls).expect("connect");
        let applied: Vec<(String, i64)> = c2
            .query(
                "SELECT name, count(*) FROM schema_migrations GROUP BY name ORDER BY name",
                &[],
            )
            .expect("the migrations table")
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        let want: Vec<(String, i64)> = tegami::store::PG_MIGRATIONS
            .iter()
            .map(|(n, _)| (n.to_string(), 1))
            .collect();
        assert_eq!(applied, want, "round {round}: each migration applied once");
        drop(c2);
        c.batch_execute(&format!("DROP DATABASE {db} WITH (FORCE)"))
            .expect("drop the test database");
    }
}

/// One of the two processes of `two_processes_opening_an_empty_database_together_both_come_up`
/// (run by it, never alone): waits for the start file, opens the store, writes `ok` or why not.
#[test]
#[ignore = "a child process of two_processes_opening_an_empty_database_together_both_come_up"]
fn open_in_a_child_process() {
    let spec = std::env::var(OPEN_CHILD_ENV).expect("run by two_processes_opening");
    let parts: Vec<&str> = spec.split('|').collect();
    let [url, go, out] = parts[..] else {
        panic!("{OPEN_CHILD_ENV}={spec}: expected URL|GO|OUT");
    };
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !std::path::Path::new(go).exists() {
        assert!(std::time::Instant::now() < until, "no start signal");
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
    let report = match PgStore::open(url) {
        Ok(_) => "ok".to_string(),
        Err(e) => format!("{e}"),
    };
    std::fs::write(out, report).expect("the report");
}

/// `sslmode=require` in the URL encrypts the store's connections (the server says so in
/// `pg_stat_ssl`); without it nothing changes; `verify-full` refuses a certificate the system
/// does not trust (the test server's is self-signed). `.ci/postgres` starts its server with TLS.
#[test]
fn sslmode_require_encrypts_the_connections() {
    for b in backends() {
        let Some(url) = b.locator.strip_prefix("postgres:") else {
            continue;
        };
        let plain = PgStore::open(url).expect("open without TLS");
        assert!(
            !plain.connection_encrypted().unwrap(),
            "no sslmode: not encrypted, as before"
        );
        let tls = match PgStore::open(&format!("{url} sslmode=require")) {
            Ok(s) => s,
            Err(e)
                if e.to_string().contains("does not support TLS")
                    && !std::env::var("CI").is_ok_and(|v| v == "true") =>
            {
                say(&format!(
                    "sslmode=require: SKIPPED, the test server has no TLS ({e}); .ci/postgres starts one with it"
                ));
                return;
            }
            Err(e) => panic!("sslmode=require: {e}"),
        };
        assert!(tls.connection_encrypted().unwrap(), "sslmode=require");
        // The encrypted handle works as any other.
        let g = new_game(&tls, "tess", "lou");
        assert_eq!(plain.game(g.id).unwrap(), Some(g));
        let config: postgres::Config = url.parse().expect("the test database's address");
        let host = match config.get_hosts().first() {
            Some(postgres::config::Host::Tcp(h)) => h.clone(),
            other => panic!("a TCP host: {other:?}"),
        };
        let url_form = format!(
            "postgres://{}@{host}:{}/{}?sslmode=require",
            config.get_user().expect("a user"),
            config.get_ports().first().copied().unwrap_or(5432),
            config.get_dbname().expect("a database")
        );
        let other = PgStore::open(&url_form).expect("sslmode=require in a URL");
        assert!(other.connection_encrypted().unwrap());
        match PgStore::open(&format!("{url} sslmode=verify-full")) {
            Ok(_) => panic!("verify-full took a self-signed certificate"),
            Err(e) => assert!(
                e.to_string().to_lowercase().contains("certificate"),
                "verify-full refuses the certificate: {e}"
            ),
        }
    }
}

/// The league tables (issue 22): `tests/service/store_contract/league.rs`.
#[path = "store_contract/league.rs"]
mod league;

/// The conditional moves (issue 23): `tests/service/store_contract/conditional.rs`.
#[path = "store_contract/conditional.rs"]
mod conditional;

/// The game clocks (issue 23): `tests/service/store_contract/clocks.rs`.
#[path = "store_contract/clocks.rs"]
mod clocks;

/// The followers and daily digests (issue 23): `tests/service/store_contract/follow.rs`.
#[path = "store_contract/follow.rs"]
mod follow;

/// The two backends' schemas compared (issue 49): `tests/service/store_contract/schema.rs`.
#[path = "store_contract/schema.rs"]
mod schema;

/// Limits kept by the write, two handles racing (issue 49): `tests/service/store_contract/limits.rs`.
#[path = "store_contract/limits.rs"]
mod limits;

// The database tools (issue 24): `tegami db copy`, `backup` and `check`.
#[path = "store_contract/dbcopy.rs"]
mod dbcopy;
