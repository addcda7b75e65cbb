//! Correspondence play (issue 7), through the command core over real SQLite files with a manual
//! clock: losses on time (exactly once, across restarts and a crash in the middle of a sweep),
//! reminders once per move when most of the time is used (24 hours before a deadline or the
//! player's own lead, never before half the time per move, never to the computer), vacations
//! and their monthly allowance, `moretime`,
//! expiring challenges, daily digests, Glicko-2 ratings (checked against Glickman's figures and
//! against the paper's steps 1–8 written out here), `stats`, `leaderboard` and server settings.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use rusqlite::{Connection, OpenFlags};
use tegami::engine::notation::code;
use tegami::engine::{Game, Outcome, Position, Reason, VariantId};
use tegami::service::{
    parse_command, Config, ManualClock, Notice, Place, Reply, Request, Service, Sweep, User, Via,
    DAY,
};
use tegami::store::{
    BatchEnd, ChallengeRow, ChallengeStatus, ChallengeStore, ClockStore, DeadlineShift, Finish,
    GameResult, GameRow, GameStatus, GameStore, MoveRow, NewChallenge, NewGame, NewNotice,
    OfferKind, OfferRow, OutboxRow, RatingRow, RatingStore, ServerName, ServerRow, SqliteStore,
    StoreError, Turn, UserRow, UserStore, OUTBOX_LEASE,
};

/// The sweep benchmark (benches/sweep.rs), run from here by ignored tests.
#[allow(dead_code)] // its `main` is for `cargo bench --bench sweep`
#[path = "../../benches/sweep.rs"]
mod sweep_bench;

/// 2026-01-01T00:00:00Z (a Thursday): the manual clock's start.
const T0: i64 = 1_767_225_600;
const HOUR: i64 = 3_600;

// ---------------------------------------------------------------- helpers

fn config() -> Config {
    Config {
        default_days: 3,
        challenge_days: 7,
        images: false,
        markdown: false,
    }
}

/// Where commands are sent unless a test says otherwise: a channel outside any server (a
/// group or direct message), where a user sees their own games.
fn channel() -> Place {
    Place {
        guild: None,
        channel: Some("chan".into()),
        admin: false,
        locale: None,
    }
}

/// A channel of a server.
fn in_guild(guild: &str, admin: bool) -> Place {
    Place {
        guild: Some(guild.into()),
        channel: Some(format!("{guild}-chan")),
        admin,
        locale: None,
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

/// A notification of the outbox, read with a separate connection.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Out {
    id: i64,
    user: String,
    via: String,
    channel: Option<String>,
    text: String,
    sent: bool,
}

/// A service over a SQLite file in a temporary folder, with a manual clock.
struct Env {
    _dir: tempfile::TempDir,
    path: PathBuf,
    store: Arc<SqliteStore>,
    clock: Arc<ManualClock>,
    service: Service,
    /// Outbox rows of the commands' own notices, delivered with their replies (as a
    /// transport does): the sweep's are what these tests look at.
    delivered: std::cell::RefCell<std::collections::HashSet<i64>>,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().expect("temporary folder");
        let path = dir.path().join("tegami.db");
        let store = Arc::new(SqliteStore::open(&path).expect("open the database"));
        let clock = Arc::new(ManualClock::new(T0));
        let service = Service::new(store.clone(), clock.clone(), config());
        Env {
            _dir: dir,
            path,
            store,
            clock,
            service,
            delivered: Default::default(),
        }
    }

    /// A restart: a new store and a new service on the same file (the clock goes on).
    fn restart(&mut self) {
        let store = Arc::new(SqliteStore::open(&self.path).expect("reopen the database"));
        self.service = Service::new(store.clone(), self.clock.clone(), config());
        self.store = store;
    }

    fn set(&self, t: i64) {
        self.clock.set(t);
    }

    fn send_in(&self, place: &Place, user: &str, line: &str) -> Reply {
        let command = parse_command(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
        let reply = self.service.handle(&Request {
            user: User::new(user, user),
            place: place.clone(),
            command,
        });
        // Delivered with the reply (the announcement too), as a transport does.
        let ids: Vec<i64> = reply
            .notify
            .iter()
            .chain(&reply.post)
            .filter_map(|n| n.id)
            .collect();
        self.service.mark_sent(&ids).expect("mark sent");
        self.delivered.borrow_mut().extend(ids);
        reply
    }

    fn ok_in(&self, place: &Place, user: &str, line: &str) -> Reply {
        let r = self.send_in(place, user, line);
        assert!(!r.error, "@{user} {line}: refused: {}", r.text);
        r
    }

    fn refused_in(&self, place: &Place, user: &str, line: &str) -> String {
        let r = self.send_in(place, user, line);
        assert!(
            r.error,
            "@{user} {line}: accepted, should be refused: {}",
            r.text
        );
        assert!(
            !r.text.contains("went wrong"),
            "@{user} {line}: internal error: {}",
            r.text
        );
        r.text
    }

    fn ok(&self, user: &str, line: &str) -> Reply {
        self.ok_in(&channel(), user, line)
    }

    fn refused(&self, user: &str, line: &str) -> String {
        self.refused_in(&channel(), user, line)
    }

    /// `first` challenges `second` (`args`: e.g. `shogi days=3 rated`) playing the first side,
    /// and `second` accepts; returns the game id.
    fn start_in(&self, place: &Place, first: &str, second: &str, args: &str) -> i64 {
        let r = self.ok_in(place, first, &format!("challenge @{second} {args} black"));
        let c = number_after(&r.text, "Challenge #").expect("challenge number");
        let r = self.ok_in(place, second, &format!("accept {c}"));
        let g = number_after(&r.text, "Game #").expect("game number");
        assert_eq!(
            self.game(g).players,
            [first.to_string(), second.to_string()]
        );
        g
    }

    fn start(&self, first: &str, second: &str, args: &str) -> i64 {
        self.start_in(&channel(), first, second, args)
    }

    fn game(&self, id: i64) -> GameRow {
        self.store
            .game(id)
            .expect("read game")
            .expect("game stored")
    }

    fn deadline(&self, id: i64) -> i64 {
        self.game(id)
            .deadline
            .expect("an active game has a deadline")
    }

    fn sweep(&self, t: i64) -> Sweep {
        self.set(t);
        self.service
            .sweep(t)
            .unwrap_or_else(|e| panic!("sweep at {t}: {e}"))
    }

    /// Sweeps and marks everything delivered.
    fn sweep_and_deliver(&self, t: i64) -> Sweep {
        let s = self.sweep(t);
        let ids: Vec<i64> = s.notices.iter().map(|(id, _)| *id).collect();
        self.service.mark_sent(&ids).expect("mark sent");
        s
    }

    /// The outbox rows of the sweep (the commands' own are left out).
    fn outbox(&self) -> Vec<Out> {
        let mine = self.delivered.borrow();
        outbox(&self.path)
            .into_iter()
            .filter(|o| !mine.contains(&o.id))
            .collect()
    }

    fn rating(&self, user: &str, variant: &str, guild: &str) -> Option<RatingRow> {
        self.store
            .rating(user, variant, guild)
            .expect("read rating")
    }

    /// Plays move codes alternately from the side to move, through the core.
    fn play_codes(&self, game: i64, codes: &[&str]) -> Reply {
        let mut last = Reply::default();
        for c in codes {
            let row = self.game(game);
            let who = row.to_move.clone().expect("game active");
            last = self.ok(&who, &format!("move {game} {c}"));
        }
        last
    }
}

/// The holds on the outbox's notices, as if `OUTBOX_LEASE` had passed on the database's clock
/// (the processes that hold them stopped renewing them).
fn lapse_holds(path: &Path) {
    let c = Connection::open(path).expect("open");
    c.busy_timeout(std::time::Duration::from_secs(10))
        .expect("busy timeout");
    c.execute(
        "UPDATE outbox SET claimed_until = claimed_until - ?1 - 1 WHERE sent_at IS NULL",
        [OUTBOX_LEASE],
    )
    .expect("lapse the holds");
}

fn outbox(path: &Path) -> Vec<Out> {
    let c = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open read-only");
    let mut st = c
        .prepare("SELECT id, user_id, via, channel, text, sent_at FROM outbox ORDER BY id")
        .unwrap();
    st.query_map([], |r| {
        Ok(Out {
            id: r.get(0)?,
            user: r.get(1)?,
            via: r.get(2)?,
            channel: r.get(3)?,
            text: r.get(4)?,
            sent: r.get::<_, Option<i64>>(5)?.is_some(),
        })
    })
    .unwrap()
    .collect::<rusqlite::Result<Vec<_>>>()
    .unwrap()
}

/// A sweep that did nothing (it may still return older unsent notices).
fn assert_idle(s: &Sweep, what: &str) {
    assert!(
        s.timeouts.is_empty() && s.reminders.is_empty() && s.expired.is_empty(),
        "{what}: the sweep did something: {s:?}"
    );
    assert!(s.digests.is_empty(), "{what}: digests {:?}", s.digests);
}

// ---------------------------------------------------------------- losses on time

#[test]
fn a_game_times_out_exactly_once_even_across_a_restart() {
    let mut env = Env::new();
    let g = env.start("alice", "bob", "shogi days=3");
    let d = env.deadline(g);
    assert_eq!(
        d,
        T0 + 3 * DAY,
        "the first mover's deadline is acceptance + days"
    );
    let before = env.game(g);
    assert_eq!(before.to_move.as_deref(), Some("alice"));

    // Before the deadline: nothing (the reminder, 24 h before, is delivered and set aside).
    for t in [T0, T0 + DAY, d - DAY - 1] {
        let s = env.sweep(t);
        assert_idle(&s, "long before the deadline");
        assert!(s.notices.is_empty(), "{:?}", s.notices);
    }
    let s = env.sweep_and_deliver(d - DAY);
    assert_eq!(s.reminders, vec![g]);
    for t in [d - HOUR, d - 1] {
        let s = env.sweep(t);
        assert_idle(&s, "just before the deadline");
        assert!(s.notices.is_empty());
        assert_eq!(env.game(g).status, GameStatus::Active);
    }
    let outbox_before = env.outbox();

    // At the deadline: alice, to move, loses on time; one notice each.
    let s = env.sweep(d);
    assert_eq!(s.timeouts, vec![g]);
    let row = env.game(g);
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(
        row.result,
        Some(GameResult::Second),
        "bob, not to move, wins"
    );
    assert_eq!(row.reason.as_deref(), Some("timeout"));
    assert_eq!(row.finished_at, Some(d));
    assert_eq!((row.deadline, row.to_move.as_deref()), (None, None));
    assert_eq!(row.version, before.version + 1);
    let outbox = env.outbox();
    let new: Vec<&Out> = outbox[outbox_before.len()..].iter().collect();
    assert_eq!(new.len(), 2, "{new:?}");
    let loss = new
        .iter()
        .find(|o| o.user == "alice")
        .expect("notice to alice");
    let win = new.iter().find(|o| o.user == "bob").expect("notice to bob");
    assert_eq!(loss.text, format!("game #{g}: you lost on time"));
    assert_eq!(
        win.text,
        format!("game #{g}: alice ran out of time, you win")
    );
    assert!(new
        .iter()
        .all(|o| o.via == "mention" && o.channel.as_deref() == Some("chan") && !o.sent));
    let returned: Vec<i64> = s.notices.iter().map(|(id, _)| *id).collect();
    assert_eq!(returned, vec![new[0].id, new[1].id]);
    let n: &Notice = &s.notices[0].1;
    assert_eq!((n.via, n.channel.as_deref()), (Via::Mention, Some("chan")));

    // Again: nothing new (the undelivered notices come back, the same ones).
    let again = env.sweep(d + 1);
    assert_idle(&again, "second sweep");
    assert_eq!(again.notices, s.notices);
    assert_eq!(env.outbox(), outbox);
    assert_eq!(env.game(g), row);

    // Delivered, then a restart: still nothing.
    env.service.mark_sent(&returned).unwrap();
    env.restart();
    let after = env.sweep(d + DAY);
    assert_idle(&after, "sweep after a restart");
    assert!(after.notices.is_empty());
    assert_eq!(env.outbox().len(), outbox.len());
    assert_eq!(env.game(g), row);
    // And the game takes no more moves.
    assert!(env
        .refused("alice", &format!("move {g} 7g7f"))
        .contains("over"));
}

#[test]
fn a_move_just_before_the_deadline_prevents_the_timeout() {
    let env = Env::new();
    let g = env.start("alice", "bob", "shogi days=2");
    let d = env.deadline(g);
    env.set(d - 1);
    env.ok("alice", &format!("move {g} 7g7f"));
    let row = env.game(g);
    assert_eq!(row.to_move.as_deref(), Some("bob"));
    assert_eq!(
        row.deadline,
        Some(d - 1 + 2 * DAY),
        "bob's deadline: move + days"
    );
    let s = env.sweep(d);
    assert!(s.timeouts.is_empty());
    assert_eq!(env.game(g).status, GameStatus::Active);
    let s = env.sweep(d + DAY);
    assert!(s.timeouts.is_empty());
    // Bob does not move: he loses at his own deadline, and alice (first player) wins.
    let s = env.sweep(d - 1 + 2 * DAY);
    assert_eq!(s.timeouts, vec![g]);
    let row = env.game(g);
    assert_eq!(row.result, Some(GameResult::First));
    assert_eq!(row.reason.as_deref(), Some("timeout"));
}

/// The deadline is enforced only by the sweep: between the deadline and the next sweep, the
/// player whose time ran out may still move (and escape the loss) or start a vacation (which
/// moves the passed deadline on). Challenges, by contrast, are refused at `accept` as soon as
/// they expire, sweep or not.
#[test]
fn a_move_after_the_deadline_is_too_late_even_before_the_sweep() {
    let env = Env::new();
    let g = env.start("alice", "bob", "shogi days=1");
    let d = env.deadline(g);
    env.set(d + 1);
    let r = env.send_in(&channel(), "alice", &format!("move {g} 7g7f"));
    let row = env.game(g);
    assert!(
        r.error && row.ply == 0,
        "alice's time ran out at {d}, yet her move at {} was accepted: {:?}, game now {:?} with deadline {:?}",
        d + 1,
        r.text,
        row.status,
        row.deadline
    );
}

#[test]
fn a_vacation_after_the_deadline_does_not_revive_a_lost_game() {
    let env = Env::new();
    let g = env.start("alice", "bob", "shogi days=1");
    let d = env.deadline(g);
    env.set(d + 1);
    let v = env.send_in(&channel(), "alice", "vacation 3");
    let s = env.sweep(d + 1);
    assert_eq!(
        s.timeouts,
        vec![g],
        "alice's time ran out at {d}; `vacation 3` at {} answered {:?} and moved the deadline to {:?}",
        d + 1,
        v.text,
        env.game(g).deadline
    );
}

#[test]
fn a_move_at_the_deadline_comes_too_late_once_the_sweep_ran() {
    let env = Env::new();
    let g = env.start("alice", "bob", "shogi days=1");
    let d = env.deadline(g);
    env.sweep(d);
    let msg = env.refused("alice", &format!("move {g} 7g7f"));
    assert!(msg.contains("over"), "{msg}");
}

// ---------------------------------------------------------------- reminders

#[test]
fn reminders_go_out_once_24_hours_before_each_deadline() {
    let mut env = Env::new();
    let g = env.start("alice", "bob", "shogi days=2");
    let d = env.deadline(g);
    let s = env.sweep(d - DAY - 1);
    assert!(s.reminders.is_empty(), "24 h + 1 s before: too early");
    assert!(!env.game(g).reminded);
    let s = env.sweep(d - DAY);
    assert_eq!(s.reminders, vec![g], "exactly 24 h before");
    assert!(env.game(g).reminded);
    let r = reminders(&env);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].user, "alice");
    assert!(r[0].text.contains(&format!("game #{g}")), "{}", r[0].text);
    assert!(r[0].text.contains("2026-01-03 00:00 UTC"), "{}", r[0].text);
    assert_eq!(s.notices.len(), 1);

    // Not twice for the same deadline, not after a restart either.
    for t in [d - DAY + 1, d - HOUR] {
        assert!(env.sweep(t).reminders.is_empty());
    }
    env.restart();
    assert!(env.sweep(d - 2).reminders.is_empty());
    assert_eq!(reminders(&env).len(), 1);

    // Alice moves: bob's deadline is new, and his reminder comes 24 h before it.
    env.set(d - HOUR);
    env.ok("alice", &format!("move {g} 7g7f"));
    let d2 = env.deadline(g);
    assert_eq!(d2, d - HOUR + 2 * DAY);
    assert!(!env.game(g).reminded, "a move resets the reminder");
    assert!(env.sweep(d2 - DAY - 1).reminders.is_empty());
    assert_eq!(env.sweep(d2 - DAY).reminders, vec![g]);
    assert!(env.sweep(d2 - DAY + 60).reminders.is_empty());
    let r = reminders(&env);
    assert_eq!(r.len(), 2);
    assert_eq!(r[1].user, "bob");

    // More time for bob: a new deadline, a new reminder when it comes near (and only then).
    env.set(d2 - DAY + 120);
    env.ok("alice", &format!("moretime {g}"));
    let d3 = env.deadline(g);
    assert_eq!(d3, d2 + DAY);
    assert!(env.sweep(d3 - DAY - 1).reminders.is_empty());
    assert_eq!(env.sweep(d3 - DAY).reminders, vec![g]);
    assert_eq!(reminders(&env).len(), 3);
    assert!(env.sweep(d3 - 1).reminders.is_empty());
}

#[test]
fn a_one_day_game_is_reminded_halfway_and_a_finished_game_never() {
    let env = Env::new();
    let g = env.start("alice", "bob", "shogi days=1");
    assert!(
        env.sweep(T0).reminders.is_empty(),
        "a deadline 24 h away, but no time used yet"
    );
    assert!(env.sweep(T0 + 12 * HOUR - 1).reminders.is_empty());
    assert_eq!(
        env.sweep(T0 + 12 * HOUR).reminders,
        vec![g],
        "half the time per move gone"
    );
    env.ok("bob", &format!("resign {g}"));
    let s = env.sweep(T0 + 10 * DAY);
    assert_idle(&s, "finished game");
}

/// The reminders of the sweep, as the outbox holds them.
fn reminders(env: &Env) -> Vec<Out> {
    env.outbox()
        .into_iter()
        .filter(|o| o.text.starts_with("reminder"))
        .collect()
}

#[test]
fn a_one_day_game_gets_no_reminder_right_after_a_move_but_one_12_hours_later() {
    let env = Env::new();
    let g = env.start("alice", "bob", "shogi days=1");
    // Alice moves an hour in: Bob has a day, and the sweeps just after say nothing.
    env.set(T0 + HOUR);
    env.ok("alice", &format!("move {g} 7g7f"));
    let d = env.deadline(g);
    assert_eq!(d, T0 + HOUR + DAY);
    for t in [T0 + HOUR, T0 + HOUR + 60, T0 + 2 * HOUR, d - 12 * HOUR - 1] {
        assert!(
            env.sweep(t).reminders.is_empty(),
            "{}s after the move",
            t - T0 - HOUR
        );
    }
    assert!(reminders(&env).is_empty());
    // Twelve hours after the move (half the time per move): Bob is reminded, once.
    let s = env.sweep(d - 12 * HOUR);
    assert_eq!(s.reminders, vec![g]);
    let r = reminders(&env);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].user, "bob");
    for t in [d - 12 * HOUR, d - 12 * HOUR + 60, d - HOUR, d - 1] {
        assert!(env.sweep(t).reminders.is_empty(), "once per move");
    }
    assert_eq!(reminders(&env).len(), 1);
    // Bob moves: Alice's turn, and again no reminder before half her time has gone.
    env.set(d - HOUR);
    env.ok("bob", &format!("move {g} 3c3d"));
    let d2 = env.deadline(g);
    assert!(env.sweep(d - HOUR + 60).reminders.is_empty());
    assert!(env.sweep(d2 - 12 * HOUR - 1).reminders.is_empty());
    assert_eq!(env.sweep(d2 - 12 * HOUR).reminders, vec![g]);
    let r = reminders(&env);
    assert_eq!(r.len(), 2);
    assert_eq!(r[1].user, "alice");
}

#[test]
fn a_three_day_game_is_reminded_24_hours_before_its_deadline_and_not_earlier() {
    let env = Env::new();
    let g = env.start("alice", "bob", "shogi days=3");
    let d = env.deadline(g);
    for t in [T0, T0 + DAY, d - 36 * HOUR, d - DAY - 1] {
        assert!(
            env.sweep(t).reminders.is_empty(),
            "{}h before",
            (d - t) / HOUR
        );
    }
    assert_eq!(env.sweep(d - DAY).reminders, vec![g]);
    assert!(env.sweep(d - DAY + 1).reminders.is_empty());
    assert_eq!(reminders(&env).len(), 1);
}

#[test]
fn a_players_own_lead_moves_the_reminder_but_never_before_half_the_time() {
    let env = Env::new();
    let r = env.ok("alice", "settings remind=12");
    assert!(r.text.contains("remind=12"), "{}", r.text);
    let g = env.start("alice", "bob", "shogi days=3");
    let d = env.deadline(g);
    assert!(env.sweep(d - DAY).reminders.is_empty(), "not at 24 h");
    assert!(env.sweep(d - 12 * HOUR - 1).reminders.is_empty());
    assert_eq!(env.sweep(d - 12 * HOUR).reminders, vec![g], "at 12 h");
    assert_eq!(reminders(&env)[0].user, "alice");

    // Carol wants 60 hours' notice of a 3-day move: she is reminded when half her time (36 h)
    // has gone, not sooner.
    env.set(T0);
    env.ok("carol", "settings remind=60");
    let r = env.ok("carol", "settings");
    assert!(r.text.contains("remind=60"), "{}", r.text);
    let g2 = env.start("carol", "dave", "shogi days=3");
    let d2 = env.deadline(g2);
    assert!(env.sweep(d2 - 60 * HOUR).reminders.is_empty());
    assert!(env.sweep(d2 - 36 * HOUR - 1).reminders.is_empty());
    assert_eq!(env.sweep(d2 - 36 * HOUR).reminders, vec![g2]);
}

#[test]
fn a_lead_of_0_turns_reminders_off() {
    let env = Env::new();
    let r = env.ok("alice", "settings remind=0");
    assert!(r.text.contains("remind=0"), "{}", r.text);
    let g = env.start("alice", "bob", "shogi days=1");
    for t in [T0 + 12 * HOUR, T0 + 20 * HOUR, T0 + DAY - 1] {
        assert!(env.sweep(t).reminders.is_empty());
    }
    assert!(reminders(&env).is_empty());
    // The clock still runs.
    assert_eq!(env.sweep(T0 + DAY).timeouts, vec![g]);
    // Bob keeps the default: reminded on his turn of another game.
    env.set(T0 + DAY);
    let g2 = env.start("bob", "alice", "shogi days=1");
    assert_eq!(env.sweep(T0 + DAY + 12 * HOUR).reminders, vec![g2]);
}

#[test]
fn a_reminder_lead_out_of_range_is_refused_and_changes_nothing() {
    let env = Env::new();
    env.ok("alice", "settings remind=5");
    // Not a number of hours: refused as it is read.
    for line in [
        "settings remind=-1",
        "settings remind=soon",
        "settings remind=99999999999",
    ] {
        let e = parse_command(line).expect_err(line).to_string();
        assert!(e.contains("0 to 336"), "{line}: {e}");
    }
    // Too many hours: refused by the core, nothing written.
    for (line, says) in [
        ("settings remind=337", "0 to 336"),
        ("settings style=international remind=400", "0 to 336"),
    ] {
        let r = env.send_in(&channel(), "alice", line);
        assert!(r.error, "{line}: {}", r.text);
        assert!(r.text.contains(says), "{line}: {}", r.text);
        let u = env.store.user("alice").unwrap().expect("alice");
        assert_eq!(u.remind_hours, Some(5), "{line}: nothing changed");
        assert_eq!(u.style, "kanji", "{line}: nothing changed");
    }
    let r = env.ok("alice", "settings remind=336");
    assert!(r.text.contains("remind=336"), "{}", r.text);
    let r = env.ok("alice", "settings");
    assert!(r.text.contains("remind=336"), "{}", r.text);
}

#[test]
fn the_computer_is_never_reminded() {
    let env = Env::new();
    env.service.set_computer(User::new("tegami", "Tegami"));
    let r = env.ok("alice", "challenge @tegami shogi days=1 black");
    let g = number_after(&r.text, "Game #").expect("a game against the computer");
    env.ok("alice", &format!("move {g} 7g7f"));
    let row = env.game(g);
    assert_eq!(row.to_move.as_deref(), Some("tegami"));
    let d = row.deadline.expect("the computer's move has a deadline");
    // Its worker is not running: the computer is to move all along.
    for t in [T0 + 12 * HOUR, d - HOUR, d - 1, d + DAY] {
        let s = env.sweep(t);
        assert!(s.reminders.is_empty() && s.timeouts.is_empty(), "{s:?}");
    }
    assert!(reminders(&env).is_empty());
    assert!(!env.game(g).reminded);
}

// ---------------------------------------------------------------- vacations

#[test]
fn vacation_pauses_and_resumes_deadlines() {
    let env = Env::new();
    // g1: alice to move; g2: carol to move (alice waits); g3: bob to move (alice not in it).
    let g1 = env.start("alice", "bob", "shogi days=3");
    let g2 = env.start("carol", "alice", "shogi days=2");
    let g3 = env.start("bob", "dave", "shogi days=7");
    let (d1, d2, d3) = (env.deadline(g1), env.deadline(g2), env.deadline(g3));
    let v1 = env.game(g1).version;

    let start = T0 + HOUR;
    env.set(start);
    let r = env.ok("alice", "vacation 5");
    assert!(r.text.contains(&format!("#{g1}")), "{}", r.text);
    assert!(!r.text.contains(&format!("#{g2}")), "{}", r.text);
    assert_eq!(
        env.deadline(g1),
        d1 + 5 * DAY,
        "alice's deadline moves by the vacation"
    );
    assert!(env.game(g1).version > v1);
    assert_eq!(env.deadline(g2), d2, "carol's move: unchanged");
    assert_eq!(env.deadline(g3), d3, "another game: unchanged");
    let until = env
        .store
        .user("alice")
        .unwrap()
        .unwrap()
        .vacation_until
        .unwrap();
    assert_eq!(until, start + 5 * DAY);
    assert!(env
        .ok("alice", "vacation")
        .text
        .contains("on vacation until"));
    assert!(env
        .refused("alice", "vacation 2")
        .contains("already on vacation"));

    // Carol moves during the vacation: alice's time counts from the vacation's end.
    env.set(start + DAY);
    env.ok("carol", &format!("move {g2} 7g7f"));
    assert_eq!(env.deadline(g2), until + 2 * DAY);

    // Her original deadline passes: no loss on time.
    let s = env.sweep(d1 + 1);
    assert!(s.timeouts.is_empty(), "{s:?}");
    assert_eq!(env.game(g1).status, GameStatus::Active);

    // Back after 2 days of 5: deadlines come back by the 3 days left.
    let back = start + 2 * DAY;
    env.set(back);
    let left = until - back;
    assert_eq!(left, 3 * DAY);
    env.ok("alice", "vacation end");
    assert_eq!(env.deadline(g1), d1 + 5 * DAY - left);
    assert_eq!(
        env.deadline(g1),
        d1 + 2 * DAY,
        "paused for the 2 days taken"
    );
    assert_eq!(
        env.deadline(g2),
        back + 2 * DAY,
        "the full 2 days from the return"
    );
    assert_eq!(env.deadline(g3), d3);
    assert!(env
        .refused("alice", "vacation end")
        .contains("not on vacation"));
    assert!(env.ok("alice", "vacation").text.contains("not on vacation"));

    // A move by alice's opponent now gives her the plain days.
    env.set(back + HOUR);
    env.ok("alice", &format!("move {g1} 7g7f"));
    env.ok("bob", &format!("move {g1} 3c3d"));
    assert_eq!(env.deadline(g1), back + HOUR + 3 * DAY);

    // Her deadlines now run: she loses g2 on time at the shifted deadline, not before.
    assert!(env.sweep(back + 2 * DAY - 1).timeouts.is_empty());
    assert_eq!(env.sweep(back + 2 * DAY).timeouts, vec![g2]);
}

#[test]
fn a_vacation_that_runs_out_by_itself_leaves_the_deadlines_shifted() {
    let env = Env::new();
    let g = env.start("alice", "bob", "shogi days=3");
    let d = env.deadline(g);
    env.ok("alice", "vacation 2");
    assert_eq!(env.deadline(g), d + 2 * DAY);
    // After its end, the vacation is over without `vacation end`.
    env.set(T0 + 2 * DAY + 1);
    assert!(env.ok("alice", "vacation").text.contains("not on vacation"));
    assert!(env
        .refused("alice", "vacation end")
        .contains("not on vacation"));
    assert_eq!(env.deadline(g), d + 2 * DAY);
    // A move by bob now gives alice the plain days.
    env.ok("alice", &format!("move {g} 7g7f"));
    env.ok("bob", &format!("move {g} 3c3d"));
    assert_eq!(env.deadline(g), T0 + 2 * DAY + 1 + 3 * DAY);
    assert!(env.sweep(d + 2 * DAY).timeouts.is_empty());
}

#[test]
fn a_game_begun_during_a_vacation_gives_the_time_after_it() {
    let env = Env::new();
    env.ok("alice", "vacation 4");
    let until = T0 + 4 * DAY;
    env.set(T0 + DAY);
    // Bob challenges alice, alice (on vacation) plays first.
    let r = env.ok("bob", "challenge @alice shogi days=2 white");
    let c = challenge_id(&r);
    let g = number_after(&env.ok("alice", &format!("accept {c}")).text, "Game #").unwrap();
    assert_eq!(env.game(g).to_move.as_deref(), Some("alice"));
    assert_eq!(env.deadline(g), until + 2 * DAY);
    // Bob, not on vacation, gets the plain days after her move.
    env.set(T0 + DAY + HOUR);
    env.ok("alice", &format!("move {g} 7g7f"));
    assert_eq!(env.deadline(g), T0 + DAY + HOUR + 2 * DAY);
}

#[test]
fn a_vacation_postpones_a_reminder_already_sent() {
    let env = Env::new();
    let g = env.start("alice", "bob", "shogi days=1");
    let d = env.deadline(g);
    assert_eq!(env.sweep(T0 + 12 * HOUR).reminders, vec![g]);
    env.set(T0 + 13 * HOUR);
    env.ok("alice", "vacation 3");
    let row = env.game(g);
    assert_eq!(row.deadline, Some(d + 3 * DAY));
    assert!(!row.reminded, "the new deadline has not been reminded");
    // Halfway through the shifted time per move.
    assert!(env.sweep(d + 3 * DAY - 12 * HOUR - 1).reminders.is_empty());
    assert_eq!(env.sweep(d + 3 * DAY - 12 * HOUR).reminders, vec![g]);
    assert!(env.sweep(d + 3 * DAY - 1).timeouts.is_empty());
    assert_eq!(env.sweep(d + 3 * DAY).timeouts, vec![g]);
}

#[test]
fn vacation_allowance_is_14_days_a_calendar_month() {
    let env = Env::new();
    // January 2026.
    // Beyond a month's allowance, or none: refused by the core's bounds (issue 49).
    for (line, days) in [("vacation 15", 15), ("vacation 0", 0)] {
        let msg = env.refused("alice", line);
        assert!(
            msg.contains(&format!("`days`: {days} is out of range (choose 1 to 14)")),
            "{msg}"
        );
    }
    // 10 days planned, back after 4: 4 used, 10 left.
    env.ok("alice", "vacation 10");
    env.set(T0 + 4 * DAY);
    env.ok("alice", "vacation end");
    assert!(env
        .ok("alice", "vacation")
        .text
        .contains("10 vacation days left"));
    let msg = env.refused("alice", "vacation 11");
    assert!(msg.contains("10 left this month"), "{msg}");
    env.ok("alice", "vacation 10");
    // All 14 used: refused until February.
    env.set(T0 + 14 * DAY + 1);
    assert!(env
        .ok("alice", "vacation")
        .text
        .contains("0 vacation days left"));
    let msg = env.refused("alice", "vacation 1");
    assert!(msg.contains("0 left this month"), "{msg}");
    env.set(T0 + 31 * DAY - 1); // 2026-01-31 23:59:59 UTC
    assert!(env.refused("alice", "vacation 1").contains("0 left"));
    env.set(T0 + 31 * DAY); // 2026-02-01 00:00 UTC: a new allowance
    assert!(env
        .ok("alice", "vacation")
        .text
        .contains("14 vacation days left"));
    let msg = env.refused("alice", "vacation 15");
    assert!(msg.contains("choose 1 to 14"), "{msg}");
    env.ok("alice", "vacation 14");
    // Another user's allowance is their own.
    env.ok("bob", "vacation 14");
}

// ---------------------------------------------------------------- more time

#[test]
fn moretime_gives_the_opponent_exactly_one_more_day() {
    let env = Env::new();
    let g = env.start("alice", "bob", "shogi days=3");
    let d = env.deadline(g);
    env.ok("carol", "vacation"); // carol exists but plays no game

    let msg = env.refused("alice", &format!("moretime {g}"));
    assert!(msg.contains("it is your move"), "{msg}");
    assert_eq!(env.deadline(g), d);
    // In direct messages a game is seen by its players only: to carol it is not there.
    let msg = env.refused("carol", &format!("moretime {g}"));
    assert!(msg.contains(&format!("there is no game #{g}")), "{msg}");
    assert!(env
        .refused("carol", "moretime")
        .contains("no game in progress"));
    assert_eq!(env.deadline(g), d);

    env.set(T0 + HOUR);
    let r = env.ok("bob", &format!("moretime {g}"));
    assert_eq!(env.deadline(g), d + DAY);
    assert_eq!(r.notify.len(), 1);
    assert_eq!(r.notify[0].user, "alice");
    assert!(r.text.contains("one more day"), "{}", r.text);
    // Without a game number: bob's only game.
    env.ok("bob", "moretime");
    assert_eq!(env.deadline(g), d + 2 * DAY);

    // After alice moves, bob's deadline is hers to extend, not bob's.
    env.set(T0 + 2 * HOUR);
    env.ok("alice", &format!("move {g} 7g7f"));
    let db = env.deadline(g);
    assert_eq!(db, T0 + 2 * HOUR + 3 * DAY);
    assert!(env
        .refused("bob", &format!("moretime {g}"))
        .contains("your move"));
    env.ok("alice", &format!("moretime {g}"));
    assert_eq!(env.deadline(g), db + DAY);
    // The extension holds: no loss on time at the old deadline.
    assert!(env.sweep(db).timeouts.is_empty());
    assert_eq!(env.sweep(db + DAY).timeouts, vec![g]);
    assert!(env
        .refused("alice", &format!("moretime {g}"))
        .contains("over"));
}

// ---------------------------------------------------------------- challenges

fn challenge_id(r: &Reply) -> i64 {
    number_after(&r.text, "Challenge #").expect("challenge number")
}

#[test]
fn unaccepted_challenges_expire_after_7_days_exactly_once() {
    let mut env = Env::new();
    let c = challenge_id(&env.ok("alice", "challenge @bob shogi"));
    let early = challenge_id(&env.ok("alice", "challenge @carol shogi"));
    let row = env.store.challenge(c).unwrap().unwrap();
    assert_eq!(row.expires_at, T0 + 7 * DAY);

    let s = env.sweep(T0 + 7 * DAY - 1);
    assert!(s.expired.is_empty(), "{s:?}");
    assert_eq!(
        env.store.challenge(c).unwrap().unwrap().status,
        ChallengeStatus::Open
    );
    // Still open one second before: accepting works.
    env.ok("carol", &format!("accept {early}"));

    let s = env.sweep(T0 + 7 * DAY);
    assert_eq!(s.expired, vec![c]);
    assert_eq!(
        env.store.challenge(c).unwrap().unwrap().status,
        ChallengeStatus::Expired
    );
    let out: Vec<Out> = env
        .outbox()
        .into_iter()
        .filter(|o| o.text.contains("expired"))
        .collect();
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].user, "alice");
    assert_eq!(
        out[0].text,
        format!("your challenge #{c} (shogi) expired unanswered")
    );
    assert_eq!(out[0].channel.as_deref(), Some("chan"));

    assert!(env.sweep(T0 + 7 * DAY + 1).expired.is_empty());
    env.restart();
    assert!(env.sweep(T0 + 8 * DAY).expired.is_empty());
    assert_eq!(
        env.outbox()
            .iter()
            .filter(|o| o.text.contains("expired"))
            .count(),
        1
    );

    let msg = env.refused("bob", &format!("accept {c}"));
    assert!(
        msg.contains("no longer open") && msg.contains("expired"),
        "{msg}"
    );
    assert!(env
        .refused("bob", "accept")
        .contains("nobody has challenged you"));
}

#[test]
fn a_challenge_past_its_expiry_cannot_be_accepted_even_before_the_sweep() {
    let env = Env::new();
    let c = challenge_id(&env.ok("alice", "challenge @bob shogi"));
    env.set(T0 + 7 * DAY);
    let msg = env.refused("bob", &format!("accept {c}"));
    assert!(msg.contains("expired"), "{msg}");
    assert!(env
        .store
        .games_of("bob", GameStatus::Active, None, 10)
        .unwrap()
        .is_empty());
    assert_eq!(env.sweep(T0 + 7 * DAY).expired, vec![c]);
}

// ---------------------------------------------------------------- a crash in the middle of a sweep

/// A store that delegates everything to a SQLite store (each of the eight parts of `Store`),
/// except that `finish_game` fails once
/// `allowed` calls succeeded: the process "dies" there (before the commit, or just after it
/// when `commit_then_fail`), and every later `finish_game` fails too.
struct CrashingStore {
    inner: SqliteStore,
    allowed: AtomicUsize,
    commit_then_fail: bool,
    dead: AtomicBool,
}

fn crash() -> StoreError {
    StoreError::Invalid("simulated crash".into())
}

impl GameStore for CrashingStore {
    fn game(&self, id: i64) -> Result<Option<GameRow>, StoreError> {
        self.inner.game(id)
    }
    fn games_of(
        &self,
        user: &str,
        status: GameStatus,
        guild: Option<&str>,
        limit: usize,
    ) -> Result<Vec<GameRow>, StoreError> {
        self.inner.games_of(user, status, guild, limit)
    }
    fn waiting_for(&self, user: &str) -> Result<Vec<GameRow>, StoreError> {
        self.inner.waiting_for(user)
    }
    fn moves(&self, game: i64) -> Result<Vec<MoveRow>, StoreError> {
        self.inner.moves(game)
    }
    fn game_with_moves(&self, id: i64) -> Result<Option<(GameRow, Vec<MoveRow>)>, StoreError> {
        self.inner.game_with_moves(id)
    }
    fn start_game(
        &self,
        game: &NewGame,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow, StoreError> {
        self.inner.start_game(game, notices, now)
    }
    fn start_computer_game(
        &self,
        game: &NewGame,
        player: &str,
        max: usize,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow, StoreError> {
        self.inner
            .start_computer_game(game, player, max, notices, now)
    }
    fn computer_games(&self, computer: &str) -> Result<Vec<GameRow>, StoreError> {
        self.inner.computer_games(computer)
    }
    fn append_move(
        &self,
        game: i64,
        version: i64,
        mv: &MoveRow,
        next: &Turn,
        finish: Option<&Finish>,
        notices: &[NewNotice],
    ) -> Result<GameRow, StoreError> {
        self.inner
            .append_move(game, version, mv, next, finish, notices)
    }
    fn finish_game(
        &self,
        game: i64,
        version: i64,
        finish: &Finish,
        now: i64,
    ) -> Result<GameRow, StoreError> {
        if self.dead.load(Ordering::SeqCst) {
            return Err(crash());
        }
        let ok = self
            .allowed
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        if ok {
            return self.inner.finish_game(game, version, finish, now);
        }
        self.dead.store(true, Ordering::SeqCst);
        if self.commit_then_fail {
            // Committed, but the process dies before the caller hears of it.
            self.inner.finish_game(game, version, finish, now)?;
        }
        Err(crash())
    }
    fn finish_games(
        &self,
        games: &[(i64, i64, Finish)],
        now: i64,
    ) -> Result<Vec<BatchEnd>, StoreError> {
        // One by one, so that the simulated crash can fall between any two games (the real
        // store commits a batch at once, which only makes a crash cut fewer places).
        let mut done = Vec::new();
        for (game, version, finish) in games {
            match self.finish_game(*game, *version, finish, now) {
                Ok(_) => done.push(BatchEnd::Ended),
                Err(StoreError::Conflict) => done.push(BatchEnd::Moved),
                Err(StoreError::Stale) => done.push(BatchEnd::Stale),
                Err(e) => return Err(e),
            }
        }
        Ok(done)
    }
    fn take_back(
        &self,
        game: i64,
        version: i64,
        keep_ply: u32,
        position: &str,
        next: &Turn,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow, StoreError> {
        self.inner
            .take_back(game, version, keep_ply, position, next, notices, now)
    }
    fn set_deadline(
        &self,
        game: i64,
        version: i64,
        deadline: i64,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow, StoreError> {
        self.inner
            .set_deadline(game, version, deadline, notices, now)
    }
    fn set_thread(&self, game: i64, thread: &str) -> Result<(), StoreError> {
        self.inner.set_thread(game, thread)
    }
    fn set_home(
        &self,
        game: i64,
        channel: Option<&str>,
        thread: Option<&str>,
    ) -> Result<(), StoreError> {
        self.inner.set_home(game, channel, thread)
    }
    fn integrity_check(&self) -> Result<String, StoreError> {
        self.inner.integrity_check()
    }
}

impl ChallengeStore for CrashingStore {
    fn create_challenge(
        &self,
        c: &NewChallenge,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<ChallengeRow, StoreError> {
        self.inner.create_challenge(c, notices, now)
    }
    fn create_challenge_within(
        &self,
        c: &NewChallenge,
        caps: &tegami::store::ChallengeCaps,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<ChallengeRow, StoreError> {
        self.inner.create_challenge_within(c, caps, notices, now)
    }
    fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>, StoreError> {
        self.inner.challenge(id)
    }
    fn open_challenges(&self, user: &str, now: i64) -> Result<Vec<ChallengeRow>, StoreError> {
        self.inner.open_challenges(user, now)
    }
    fn accept_challenge(
        &self,
        id: i64,
        game: &NewGame,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow, StoreError> {
        self.inner.accept_challenge(id, game, notices, now)
    }
    fn close_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<(), StoreError> {
        self.inner.close_challenge(id, status, notices, now)
    }
    fn put_offer(
        &self,
        game: i64,
        version: i64,
        offer: &OfferRow,
        notices: &[NewNotice],
    ) -> Result<(), StoreError> {
        self.inner.put_offer(game, version, offer, notices)
    }
    fn offer(&self, game: i64, kind: OfferKind) -> Result<Option<OfferRow>, StoreError> {
        self.inner.offer(game, kind)
    }
    fn remove_offer(
        &self,
        game: i64,
        kind: OfferKind,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<(), StoreError> {
        self.inner.remove_offer(game, kind, notices, now)
    }
    fn challenge_times(
        &self,
        challenger: &str,
        challenged: &str,
        since: i64,
    ) -> Result<Vec<i64>, StoreError> {
        self.inner.challenge_times(challenger, challenged, since)
    }
}

impl UserStore for CrashingStore {
    fn touch_user(&self, id: &str, name: &str, now: i64) -> Result<UserRow, StoreError> {
        self.inner.touch_user(id, name, now)
    }
    fn touch_member(
        &self,
        id: &str,
        name: &str,
        guild: &str,
        nick: Option<&str>,
        now: i64,
    ) -> Result<UserRow, StoreError> {
        self.inner.touch_member(id, name, guild, nick, now)
    }
    fn name_in(&self, id: &str, guild: Option<&str>) -> Result<Option<String>, StoreError> {
        self.inner.name_in(id, guild)
    }
    fn server_names(&self, pairs: &[(String, String)]) -> Result<Vec<ServerName>, StoreError> {
        self.inner.server_names(pairs)
    }
    fn user(&self, id: &str) -> Result<Option<UserRow>, StoreError> {
        self.inner.user(id)
    }
    fn users(&self, ids: &[String]) -> Result<Vec<UserRow>, StoreError> {
        self.inner.users(ids)
    }
    fn set_user_settings(&self, id: &str, style: &str, notify: &str) -> Result<(), StoreError> {
        self.inner.set_user_settings(id, style, notify)
    }
    fn server(&self, guild: &str) -> Result<Option<ServerRow>, StoreError> {
        self.inner.server(guild)
    }
    fn set_server(&self, s: &ServerRow) -> Result<(), StoreError> {
        self.inner.set_server(s)
    }
    fn set_remind_hours(&self, id: &str, hours: Option<u32>) -> Result<(), StoreError> {
        self.inner.set_remind_hours(id, hours)
    }
    fn set_user_speech(
        &self,
        id: &str,
        language: Option<&str>,
        notation: Option<&str>,
    ) -> Result<(), StoreError> {
        self.inner.set_user_speech(id, language, notation)
    }
    fn set_user_board(&self, id: &str, board: Option<&str>) -> Result<(), StoreError> {
        self.inner.set_user_board(id, board)
    }
    fn set_user_locale(&self, id: &str, locale: &str) -> Result<(), StoreError> {
        self.inner.set_user_locale(id, locale)
    }
    fn set_server_locale(&self, guild: &str, locale: &str) -> Result<(), StoreError> {
        self.inner.set_server_locale(guild, locale)
    }
    fn server_locale(&self, guild: &str) -> Result<Option<String>, StoreError> {
        self.inner.server_locale(guild)
    }
}

impl ClockStore for CrashingStore {
    fn due_games(&self, now: i64, limit: usize) -> Result<Vec<GameRow>, StoreError> {
        self.inner.due_games(now, limit)
    }
    fn reminders_due(&self, now: i64, limit: usize) -> Result<Vec<GameRow>, StoreError> {
        self.inner.reminders_due(now, limit)
    }
    fn remind(
        &self,
        game: i64,
        deadline: i64,
        notice: &NewNotice,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.inner.remind(game, deadline, notice, now)
    }
    fn expired_challenges(&self, now: i64, limit: usize) -> Result<Vec<ChallengeRow>, StoreError> {
        self.inner.expired_challenges(now, limit)
    }
    fn expire_challenge(
        &self,
        id: i64,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<bool, StoreError> {
        self.inner.expire_challenge(id, notices, now)
    }
    fn unsent(&self, limit: usize) -> Result<Vec<OutboxRow>, StoreError> {
        self.inner.unsent(limit)
    }
    fn claim_unsent(&self, limit: usize) -> Result<Vec<OutboxRow>, StoreError> {
        self.inner.claim_unsent(limit)
    }
    fn release_claims(&self) -> Result<(), StoreError> {
        self.inner.release_claims()
    }
    fn mark_sent(&self, ids: &[i64], now: i64) -> Result<(), StoreError> {
        self.inner.mark_sent(ids, now)
    }
    fn set_aside(&self, id: i64, reason: &str, now: i64) -> Result<(), StoreError> {
        self.inner.set_aside(id, reason, now)
    }
    fn rewrite_post(&self, id: i64, user: &str, text: &str, ply: u32) -> Result<bool, StoreError> {
        self.inner.rewrite_post(id, user, text, ply)
    }
    fn undelivered(
        &self,
        user: &str,
        since: i64,
        limit: usize,
    ) -> Result<Vec<tegami::store::OutboxRow>, StoreError> {
        self.inner.undelivered(user, since, limit)
    }
    fn start_vacation(
        &self,
        user: &str,
        now: i64,
        end: i64,
        allowance: &tegami::store::VacationAllowance,
        shifts: &[DeadlineShift],
    ) -> Result<(), StoreError> {
        self.inner.start_vacation(user, now, end, allowance, shifts)
    }
    fn end_vacation(
        &self,
        user: &str,
        until: i64,
        now: i64,
        shifts: &[DeadlineShift],
    ) -> Result<(), StoreError> {
        self.inner.end_vacation(user, until, now, shifts)
    }
    fn vacation_used(&self, user: &str, since: i64) -> Result<i64, StoreError> {
        self.inner.vacation_used(user, since)
    }
    fn renew_claims(&self) -> Result<(), StoreError> {
        self.inner.renew_claims()
    }
    fn gauges(&self) -> Result<tegami::store::Gauges, StoreError> {
        self.inner.gauges()
    }
}

impl tegami::store::LeagueStore for CrashingStore {
    fn create_league(
        &self,
        l: &tegami::store::NewLeague,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<tegami::store::LeagueRow, StoreError> {
        self.inner.create_league(l, notices, now)
    }
    fn league(&self, id: i64) -> Result<Option<tegami::store::LeagueRow>, StoreError> {
        self.inner.league(id)
    }
    fn leagues_in(
        &self,
        guild: &str,
        limit: usize,
    ) -> Result<Vec<tegami::store::LeagueRow>, StoreError> {
        self.inner.leagues_in(guild, limit)
    }
    fn running_leagues(&self, limit: usize) -> Result<Vec<tegami::store::LeagueRow>, StoreError> {
        self.inner.running_leagues(limit)
    }
    fn league_players(
        &self,
        league: i64,
    ) -> Result<Vec<tegami::store::LeaguePlayerRow>, StoreError> {
        self.inner.league_players(league)
    }
    fn join_league(
        &self,
        league: i64,
        user: &str,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<tegami::store::Joined, StoreError> {
        self.inner.join_league(league, user, notices, now)
    }
    fn leave_league(
        &self,
        league: i64,
        user: &str,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<bool, StoreError> {
        self.inner.leave_league(league, user, notices, now)
    }
    fn pairings(&self, league: i64) -> Result<Vec<tegami::store::PairingRow>, StoreError> {
        self.inner.pairings(league)
    }
    fn pairing_of_game(&self, game: i64) -> Result<Option<tegami::store::PairingRow>, StoreError> {
        self.inner.pairing_of_game(game)
    }
    fn start_round(
        &self,
        r: &tegami::store::RoundStart,
        now: i64,
    ) -> Result<Vec<tegami::store::PairingRow>, StoreError> {
        self.inner.start_round(r, now)
    }
    fn settle_league(
        &self,
        s: &tegami::store::Settle,
        now: i64,
    ) -> Result<tegami::store::LeagueRow, StoreError> {
        self.inner.settle_league(s, now)
    }
    fn end_league(
        &self,
        league: i64,
        version: i64,
        status: tegami::store::LeagueStatus,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<tegami::store::LeagueRow, StoreError> {
        self.inner.end_league(league, version, status, notices, now)
    }
    fn set_league_thread(&self, league: i64, thread: Option<&str>) -> Result<(), StoreError> {
        self.inner.set_league_thread(league, thread)
    }
}

impl tegami::store::ConditionalStore for CrashingStore {
    fn add_conditional(
        &self,
        c: &tegami::store::NewConditional,
        max: usize,
        now: i64,
    ) -> Result<tegami::store::ConditionalRow, StoreError> {
        self.inner.add_conditional(c, max, now)
    }
    fn conditionals(&self, game: i64) -> Result<Vec<tegami::store::ConditionalRow>, StoreError> {
        self.inner.conditionals(game)
    }
    fn clear_conditionals(&self, game: i64, user: &str) -> Result<usize, StoreError> {
        self.inner.clear_conditionals(game, user)
    }
    fn rewrite_conditionals(
        &self,
        old: &[i64],
        new: &[tegami::store::NewConditional],
        now: i64,
    ) -> Result<(), StoreError> {
        self.inner.rewrite_conditionals(old, new, now)
    }
    fn conditional_games(&self, limit: usize) -> Result<Vec<i64>, StoreError> {
        self.inner.conditional_games(limit)
    }
}

impl tegami::store::FollowStore for CrashingStore {
    fn follow(
        &self,
        game: i64,
        user: &str,
        notify: &str,
        now: i64,
    ) -> Result<(tegami::store::FollowRow, bool), StoreError> {
        self.inner.follow(game, user, notify, now)
    }
    fn unfollow(
        &self,
        game: i64,
        user: &str,
    ) -> Result<Option<tegami::store::FollowRow>, StoreError> {
        self.inner.unfollow(game, user)
    }
    fn follows_of(&self, user: &str) -> Result<Vec<tegami::store::FollowRow>, StoreError> {
        self.inner.follows_of(user)
    }
    fn followers_of(&self, game: i64) -> Result<Vec<tegami::store::FollowRow>, StoreError> {
        self.inner.followers_of(game)
    }
    fn pings_due(
        &self,
        game: Option<i64>,
        limit: usize,
    ) -> Result<Vec<tegami::store::FollowRow>, StoreError> {
        self.inner.pings_due(game, limit)
    }
    fn mark_seen(
        &self,
        game: i64,
        user: &str,
        seen: (u32, bool),
        to: (u32, bool),
        notice: Option<&NewNotice>,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.inner.mark_seen(game, user, seen, to, notice, now)
    }
    fn thread_joins_due(
        &self,
        game: Option<i64>,
        limit: usize,
    ) -> Result<Vec<tegami::store::ThreadJoin>, StoreError> {
        self.inner.thread_joins_due(game, limit)
    }
    fn thread_joined(&self, game: i64, user: &str, thread: &str) -> Result<(), StoreError> {
        self.inner.thread_joined(game, user, thread)
    }
    fn digests_at(
        &self,
        now: i64,
        rolling_before: i64,
        limit: usize,
    ) -> Result<Vec<UserRow>, StoreError> {
        self.inner.digests_at(now, rolling_before, limit)
    }
    fn record_daily(
        &self,
        user: &str,
        planned: Option<i64>,
        next: Option<i64>,
        notice: Option<(&NewNotice, &[tegami::store::Told])>,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.inner.record_daily(user, planned, next, notice, now)
    }
    fn set_digest(
        &self,
        user: &str,
        hour: Option<u8>,
        timezone: Option<&str>,
        next: Option<i64>,
    ) -> Result<(), StoreError> {
        self.inner.set_digest(user, hour, timezone, next)
    }
}

impl RatingStore for CrashingStore {
    fn rating(
        &self,
        user: &str,
        variant: &str,
        guild: &str,
    ) -> Result<Option<RatingRow>, StoreError> {
        self.inner.rating(user, variant, guild)
    }
    fn ratings_of(&self, user: &str, guild: &str) -> Result<Vec<RatingRow>, StoreError> {
        self.inner.ratings_of(user, guild)
    }
    fn leaderboard(
        &self,
        variant: &str,
        guild: &str,
        limit: usize,
    ) -> Result<Vec<RatingRow>, StoreError> {
        self.inner.leaderboard(variant, guild, limit)
    }
}

/// Many overdue games, a sweep that "crashes" after `k` forfeits, a restart, a sweep: every
/// overdue game ends exactly once.
fn crash_mid_sweep(k: usize, commit_then_fail: bool) {
    const N: usize = 40;
    let mut env = Env::new();
    let mut games = Vec::new();
    for i in 0..N {
        let (a, b) = (format!("a{i}"), format!("b{i}"));
        let g = env.start(&a, &b, "shogi days=1");
        if i % 2 == 1 {
            // The second player to move: the first player wins on time.
            env.ok(&a, &format!("move {g} 7g7f"));
        }
        games.push(g);
    }
    // An earlier sweep reminded everyone (halfway through their day); half of those notices
    // were delivered.
    let s = env.sweep(T0 + 12 * HOUR);
    assert_eq!(s.reminders.len(), N);
    let delivered: Vec<i64> = s.notices.iter().step_by(2).map(|(id, _)| *id).collect();
    env.service.mark_sent(&delivered).unwrap();
    let undelivered: Vec<i64> = s
        .notices
        .iter()
        .skip(1)
        .step_by(2)
        .map(|(id, _)| *id)
        .collect();

    let before: BTreeMap<i64, GameRow> = games.iter().map(|&g| (g, env.game(g))).collect();
    let now = T0 + 2 * DAY;

    // The sweep that crashes.
    let crashing = Arc::new(CrashingStore {
        inner: SqliteStore::open(&env.path).unwrap(),
        allowed: AtomicUsize::new(k),
        commit_then_fail,
        dead: AtomicBool::new(false),
    });
    let svc = Service::new(crashing.clone(), env.clock.clone(), config());
    env.set(now);
    let err = svc.sweep(now).expect_err("the sweep crashed");
    assert!(err.to_string().contains("simulated crash"), "{err}");
    drop(svc);
    drop(crashing);
    let finished = games
        .iter()
        .filter(|&&g| env.game(g).status == GameStatus::Finished)
        .count();
    assert_eq!(finished, k + usize::from(commit_then_fail));

    // A restart and a sweep, once the crashed process's hold on the notices it queued has
    // lapsed (a process still running would renew it; see `OUTBOX_LEASE`): holds are reckoned
    // by the database's clock, moved on here by the lease.
    env.restart();
    lapse_holds(&env.path);
    let later = now + OUTBOX_LEASE;
    let s = env.sweep(later);
    assert_eq!(s.timeouts.len(), N - finished, "the rest end now");
    let again = env.sweep(later + 1);
    assert_idle(&again, "after the recovery sweep");

    let outbox = env.outbox();
    for &g in &games {
        let (old, row) = (&before[&g], env.game(g));
        assert_eq!(row.status, GameStatus::Finished, "game {g}");
        assert_eq!(row.reason.as_deref(), Some("timeout"), "game {g}");
        assert_eq!(row.version, old.version + 1, "game {g}: ended once");
        let loser = old.to_move.clone().unwrap();
        let winner = if old.players[0] == loser {
            old.players[1].clone()
        } else {
            old.players[0].clone()
        };
        let expected = if old.players[0] == loser {
            GameResult::Second
        } else {
            GameResult::First
        };
        assert_eq!(row.result, Some(expected), "game {g}");
        let loss = format!("game #{g}: you lost on time");
        let win = format!("game #{g}: {loser} ran out of time, you win");
        let losses: Vec<&Out> = outbox.iter().filter(|o| o.text == loss).collect();
        let wins: Vec<&Out> = outbox.iter().filter(|o| o.text == win).collect();
        assert_eq!(losses.len(), 1, "game {g}: {losses:?}");
        assert_eq!(wins.len(), 1, "game {g}: {wins:?}");
        assert_eq!(losses[0].user, loser);
        assert_eq!(wins[0].user, winner);
    }
    assert_eq!(
        outbox.iter().filter(|o| o.via != "post").count(),
        N + 2 * N,
        "N reminders and two notices per game (besides the moves' announcements)"
    );
    // Everything not delivered comes back: the undelivered reminders and every forfeit notice.
    let mut expected: Vec<i64> = outbox.iter().filter(|o| !o.sent).map(|o| o.id).collect();
    expected.sort_unstable();
    let returned: Vec<i64> = s.notices.iter().map(|(id, _)| *id).collect();
    assert_eq!(returned, expected);
    assert_eq!(returned.len(), undelivered.len() + 2 * N);
    assert!(undelivered.iter().all(|id| returned.contains(id)));
    assert!(delivered.iter().all(|id| !returned.contains(id)));
    assert_eq!(again.notices, s.notices);
    assert_eq!(env.store.integrity_check().unwrap(), "ok");
}

#[test]
fn a_crash_before_a_forfeit_commits_neither_loses_nor_repeats_it() {
    crash_mid_sweep(0, false);
    crash_mid_sweep(13, false);
}

#[test]
fn a_crash_just_after_a_forfeit_commits_neither_loses_nor_repeats_it() {
    crash_mid_sweep(0, true);
    crash_mid_sweep(13, true);
    crash_mid_sweep(39, true);
}

#[test]
fn two_sweeps_racing_end_each_game_once() {
    const N: usize = 60;
    let env = Env::new();
    let games: Vec<i64> = (0..N)
        .map(|i| env.start(&format!("a{i}"), &format!("b{i}"), "shogi days=1"))
        .collect();
    let now = T0 + 2 * DAY;
    env.set(now);
    let results: Vec<Sweep> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..3)
            .map(|_| {
                let path = env.path.clone();
                let clock = env.clock.clone();
                s.spawn(move || {
                    let store = Arc::new(SqliteStore::open(&path).unwrap());
                    Service::new(store, clock, config()).sweep(now).unwrap()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all: Vec<i64> = results.iter().flat_map(|s| s.timeouts.clone()).collect();
    all.sort_unstable();
    assert_eq!(all, games, "each game ended by exactly one sweeper");
    let outbox = env.outbox();
    assert_eq!(
        outbox.iter().filter(|o| o.text.contains("on time")).count(),
        N
    );
    assert_eq!(
        outbox
            .iter()
            .filter(|o| o.text.contains("ran out of time"))
            .count(),
        N
    );
    for &g in &games {
        assert_eq!(env.game(g).version, 1, "game {g}");
    }
}

// ---------------------------------------------------------------- digests

#[test]
fn digest_users_get_one_digest_a_day_and_no_ping_per_move() {
    let mut env = Env::new();
    env.ok("bob", "settings notify=digest");
    let c = env.ok("alice", "challenge @bob shogi days=7 black");
    assert!(
        c.notify.is_empty(),
        "no ping for the challenge: {:?}",
        c.notify
    );
    let g1 = number_after(&env.ok("bob", "accept").text, "Game #").unwrap();
    let g2 = env.start("alice", "bob", "shogi days=7");
    let g3 = env.start("bob", "carol", "shogi days=7"); // bob to move here at once
    for g in [g1, g2] {
        let r = env.ok("alice", &format!("move {g} 7g7f"));
        assert!(
            r.notify.iter().all(|n| n.user != "bob"),
            "no per-move notice to a digest user: {:?}",
            r.notify
        );
    }
    // Carol, a mention user, is notified of bob's move as usual.
    let r = env.ok("bob", &format!("move {g3} 7g7f"));
    assert_eq!(r.notify.len(), 1);
    assert_eq!(
        (r.notify[0].user.as_str(), r.notify[0].via),
        ("carol", Via::Mention)
    );

    let digests = |env: &Env| -> Vec<Out> {
        env.outbox()
            .into_iter()
            .filter(|o| o.text.starts_with("your turn in"))
            .collect()
    };
    let t = T0 + HOUR;
    let s = env.sweep(t);
    assert_eq!(s.digests, vec!["bob".to_string()]);
    let d = digests(&env);
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].user.as_str(), d[0].via.as_str()), ("bob", "dm"));
    assert!(
        d[0].text.starts_with("your turn in 2 games: "),
        "{}",
        d[0].text
    );
    for g in [g1, g2] {
        assert!(d[0].text.contains(&format!("#{g}")), "{}", d[0].text);
    }
    // The daily list: bob's move in g1 and g2, then carol's in g3.
    let head = d[0].text.lines().next().unwrap_or_default();
    assert!(!head.contains(&format!("#{g3}")), "{}", d[0].text);
    let theirs = d[0].text.find("Your opponents' move:").expect("their move");
    assert!(
        d[0].text[theirs..].contains(&format!("#{g3} Shogi vs carol — carol's move")),
        "{}",
        d[0].text
    );

    for t2 in [t + 1, t + HOUR, t + DAY - 1] {
        assert!(env.sweep(t2).digests.is_empty(), "within 24 h");
    }
    env.restart();
    assert!(env.sweep(t + DAY - 1).digests.is_empty());
    assert_eq!(digests(&env).len(), 1);

    // One game answered: the next day's digest lists one.
    env.set(t + 2 * HOUR);
    env.ok("bob", &format!("move {g1} 3c3d"));
    assert_eq!(env.sweep(t + DAY).digests, vec!["bob".to_string()]);
    let d = digests(&env);
    assert_eq!(d.len(), 2);
    // The first line counts the games waiting; the daily list follows it.
    assert_eq!(
        d[1].text.lines().next(),
        Some(format!("your turn in 1 game: #{g2}").as_str()),
        "{}",
        d[1].text
    );
    // Nothing waiting: no digest.
    env.set(t + DAY + HOUR);
    env.ok("bob", &format!("move {g2} 3c3d"));
    assert!(env.sweep(t + 3 * DAY).digests.is_empty());
    assert_eq!(digests(&env).len(), 2);
}

#[test]
fn dm_users_are_reached_by_direct_message() {
    let env = Env::new();
    env.ok("bob", "settings notify=dm");
    let g = env.start("alice", "bob", "shogi days=1");
    let r = env.ok("alice", &format!("move {g} 7g7f"));
    assert_eq!(r.notify.len(), 1);
    assert_eq!(
        (r.notify[0].user.as_str(), r.notify[0].via),
        ("bob", Via::Dm)
    );
    let s = env.sweep(T0 + 2 * DAY);
    assert_eq!(s.timeouts, vec![g]);
    let bob: Vec<&Notice> = s
        .notices
        .iter()
        .map(|(_, n)| n)
        .filter(|n| n.user == "bob")
        .collect();
    assert!(
        !bob.is_empty() && bob.iter().all(|n| n.via == Via::Dm),
        "{bob:?}"
    );
    let alice = s.notices.iter().find(|(_, n)| n.user == "alice").unwrap();
    assert_eq!(alice.1.via, Via::Mention);
}

// ---------------------------------------------------------------- ratings

/// Glicko-2 as in Glickman's "Example of the Glicko-2 system" (glicko2.pdf), steps 1–8, with
/// τ = 0.5 and the convergence tolerance ε = 0.000001.
mod glicko2 {
    use std::f64::consts::PI;

    const SCALE: f64 = 173.7178;
    const TAU: f64 = 0.5;
    const EPSILON: f64 = 0.000_001;

    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Rating {
        pub r: f64,
        pub rd: f64,
        pub sigma: f64,
    }

    /// Step 1: a new player.
    pub const NEW: Rating = Rating {
        r: 1500.0,
        rd: 350.0,
        sigma: 0.06,
    };

    fn g(phi: f64) -> f64 {
        1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
    }

    fn e(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
        1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
    }

    /// A player's rating after a rating period with these games (opponent's rating before the
    /// period, score 1, ½ or 0).
    pub fn update(p: Rating, games: &[(Rating, f64)]) -> Rating {
        // Step 2: the Glicko-2 scale.
        let mu = (p.r - 1500.0) / SCALE;
        let phi = p.rd / SCALE;
        let sigma = p.sigma;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                rd: phi_star * SCALE,
                ..p
            };
        }
        // Steps 3 and 4: the estimated variance v and improvement Δ.
        let mut v_inv = 0.0;
        let mut sum = 0.0;
        for &(o, s) in games {
            let mu_j = (o.r - 1500.0) / SCALE;
            let phi_j = o.rd / SCALE;
            let e_j = e(mu, mu_j, phi_j);
            let g_j = g(phi_j);
            v_inv += g_j * g_j * e_j * (1.0 - e_j);
            sum += g_j * (s - e_j);
        }
        let v = 1.0 / v_inv;
        let delta = v * sum;
        // Step 5: the new volatility (Illinois algorithm).
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        while (big_b - big_a).abs() > EPSILON {
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
        }
        let sigma2 = (big_a / 2.0).exp();
        // Step 6: the pre-period deviation.
        let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
        // Step 7: the new deviation and rating.
        let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu2 = mu + phi2 * phi2 * sum;
        // Step 8: back to the Glicko scale.
        Rating {
            r: SCALE * mu2 + 1500.0,
            rd: SCALE * phi2,
            sigma: sigma2,
        }
    }
}

use glicko2::Rating;

#[test]
fn the_glicko2_formulas_of_the_test_reproduce_the_papers_example() {
    // glicko2.pdf: a 1500 ± 200 player (σ 0.06) beats 1400 ± 30, loses to 1550 ± 100 and to
    // 1700 ± 300: 1464.06 ± 151.52, σ' 0.05999.
    let p = Rating {
        r: 1500.0,
        rd: 200.0,
        sigma: 0.06,
    };
    let o = |r, rd| Rating { r, rd, sigma: 0.06 };
    let q = glicko2::update(
        p,
        &[
            (o(1400.0, 30.0), 1.0),
            (o(1550.0, 100.0), 0.0),
            (o(1700.0, 300.0), 0.0),
        ],
    );
    assert!((q.r - 1464.06).abs() < 0.01, "{q:?}");
    assert!((q.rd - 151.52).abs() < 0.01, "{q:?}");
    assert!((q.sigma - 0.05999).abs() < 0.00001, "{q:?}");
    // And the first game between two new players.
    let w = glicko2::update(glicko2::NEW, &[(glicko2::NEW, 1.0)]);
    let l = glicko2::update(glicko2::NEW, &[(glicko2::NEW, 0.0)]);
    assert!(
        (w.r - 1662.31).abs() < 0.01 && (w.rd - 290.32).abs() < 0.01,
        "{w:?}"
    );
    assert!(
        (l.r - 1337.69).abs() < 0.01 && (l.rd - 290.32).abs() < 0.01,
        "{l:?}"
    );
}

/// The shortest mate the test found for Judkins Shogi: Black's knight, then 2d1b+ mates.
const JUDKINS_MATE: &[&str] = &["3f2d", "2a3b", "2d1b+"];

/// A Shogi game Black wins by checkmate in 23 plies.
const SHOGI_MATE: &[&str] = &[
    "4i3h", "3c3d", "4g4f", "2b7g", "8i7g", "8b2b", "B*7e", "3d3e", "7e5c+", "4a3b", "5i4h",
    "7c7d", "5c6c", "P*6h", "6c7d", "4c4d", "7d8c", "6h6i+", "1i1h", "G*6f", "8c6a", "5a4a",
    "G*5b",
];

#[test]
fn the_mates_used_here_are_checkmates_for_the_engine() {
    for (v, codes) in [
        (VariantId::Judkins, JUDKINS_MATE),
        (VariantId::Shogi, SHOGI_MATE),
    ] {
        let mut g = Game::new(Position::start(v));
        for c in codes {
            let m = code::parse(g.position(), c).unwrap_or_else(|| panic!("{c}"));
            g.play(m).unwrap();
        }
        assert!(
            matches!(
                g.outcome(),
                Some(Outcome::Win {
                    reason: Reason::Checkmate,
                    ..
                })
            ),
            "{v:?}: {:?}",
            g.outcome()
        );
    }
}

fn assert_rating(env: &Env, user: &str, variant: &str, guild: &str, want: Rating, what: &str) {
    let got = env
        .rating(user, variant, guild)
        .unwrap_or_else(|| panic!("{what}: {user} has no {variant} rating in '{guild}'"));
    assert!(
        (got.rating - want.r).abs() < 1e-6
            && (got.deviation - want.rd).abs() < 1e-6
            && (got.volatility - want.sigma).abs() < 1e-9,
        "{what}: {user}: stored {got:?}, the paper's formulas give {want:?}"
    );
}

#[test]
fn a_rated_win_by_resignation_gives_glickmans_figures_in_that_server_only() {
    let env = Env::new();
    let place = in_guild("g1", false);
    let g = env.start_in(&place, "alice", "bob", "shogi rated");
    assert!(env.game(g).rated);
    assert!(env.rating("alice", "shogi", "g1").is_none());
    env.ok_in(&place, "bob", &format!("resign {g}"));
    let a = env.rating("alice", "shogi", "g1").unwrap();
    let b = env.rating("bob", "shogi", "g1").unwrap();
    assert!((a.rating - 1662.31).abs() < 0.01, "{a:?}");
    assert!((a.deviation - 290.32).abs() < 0.01, "{a:?}");
    assert!((b.rating - 1337.69).abs() < 0.01, "{b:?}");
    assert!((b.deviation - 290.32).abs() < 0.01, "{b:?}");
    assert_eq!((a.games, a.wins, a.losses, a.draws), (1, 1, 0, 0));
    assert_eq!((b.games, b.wins, b.losses, b.draws), (1, 0, 1, 0));
    // Nowhere else: not outside the server, not in another game.
    assert!(env.rating("alice", "shogi", "").is_none());
    assert!(env.rating("alice", "shogi", "g2").is_none());
    assert!(env.rating("alice", "judkins", "g1").is_none());
}

#[test]
fn a_rated_checkmate_updates_both_ratings_of_that_variant() {
    let env = Env::new();
    let g = env.start("alice", "bob", "judkins rated");
    let r = env.play_codes(g, JUDKINS_MATE);
    assert!(r.text.contains("checkmate"), "{}", r.text);
    let row = env.game(g);
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.reason.as_deref(), Some("checkmate"));
    assert_eq!(row.result, Some(GameResult::First));
    let w = glicko2::update(glicko2::NEW, &[(glicko2::NEW, 1.0)]);
    let l = glicko2::update(glicko2::NEW, &[(glicko2::NEW, 0.0)]);
    assert_rating(&env, "alice", "judkins", "", w, "checkmate");
    assert_rating(&env, "bob", "judkins", "", l, "checkmate");
    assert!(env.rating("alice", "shogi", "").is_none());
}

#[test]
fn a_rated_loss_on_time_updates_both_ratings() {
    let env = Env::new();
    let place = in_guild("g1", false);
    let g = env.start_in(&place, "alice", "bob", "shogi rated days=1");
    env.ok_in(&place, "alice", &format!("move {g} 7g7f"));
    let s = env.sweep(T0 + 2 * DAY);
    assert_eq!(s.timeouts, vec![g]);
    let w = glicko2::update(glicko2::NEW, &[(glicko2::NEW, 1.0)]);
    let l = glicko2::update(glicko2::NEW, &[(glicko2::NEW, 0.0)]);
    assert_rating(&env, "alice", "shogi", "g1", w, "timeout");
    assert_rating(&env, "bob", "shogi", "g1", l, "timeout");
    // A second sweep does not rate the game again.
    env.sweep(T0 + 3 * DAY);
    assert_eq!(env.rating("alice", "shogi", "g1").unwrap().games, 1);
}

#[test]
fn one_sweep_forfeiting_two_rated_games_of_a_player_rates_them_in_turn() {
    let env = Env::new();
    let place = in_guild("g1", false);
    // Alice moves first in both and never does: one sweep, one batch, two losses on time.
    let g1 = env.start_in(&place, "alice", "bob", "shogi rated days=1");
    env.set(T0 + HOUR);
    let g2 = env.start_in(&place, "alice", "carol", "shogi rated days=1");
    let mut s = env.sweep(T0 + 2 * DAY).timeouts;
    s.sort();
    assert_eq!(s, vec![g1, g2]);
    let a = env.rating("alice", "shogi", "g1").expect("alice rated");
    assert_eq!((a.games, a.wins, a.losses), (2, 0, 2), "{a:?}");
    // The second loss starts from the first's rating (both opponents are new players).
    let once = glicko2::update(glicko2::NEW, &[(glicko2::NEW, 0.0)]);
    let twice = glicko2::update(once, &[(glicko2::NEW, 0.0)]);
    assert_rating(
        &env,
        "alice",
        "shogi",
        "g1",
        twice,
        "two losses in one sweep",
    );
    // Bob beat her first (the earlier deadline), Carol after that loss.
    let w = glicko2::update(glicko2::NEW, &[(glicko2::NEW, 1.0)]);
    assert_rating(&env, "bob", "shogi", "g1", w, "the first win of that sweep");
    let w = glicko2::update(glicko2::NEW, &[(once, 1.0)]);
    assert_rating(
        &env,
        "carol",
        "shogi",
        "g1",
        w,
        "the second win of that sweep",
    );
}

/// How a game of the series ends.
#[derive(Clone, Copy, Debug)]
enum End {
    /// The second player resigns.
    Resign,
    /// The first player does not move in time.
    Timeout,
    /// A draw by agreement.
    Draw,
    /// The first player mates (Shogi, 23 plies).
    Mate,
}

#[test]
fn a_series_of_rated_games_matches_the_papers_formulas() {
    let env = Env::new();
    let place = in_guild("club", false);
    let series: &[(&str, &str, End)] = &[
        ("ann", "ben", End::Resign),
        ("cat", "ann", End::Timeout),
        ("ben", "cat", End::Draw),
        ("dan", "ann", End::Resign),
        ("cat", "dan", End::Mate),
        ("ben", "ann", End::Timeout),
        ("ann", "dan", End::Draw),
        ("ben", "cat", End::Resign),
    ];
    let mut ratings: BTreeMap<&str, Rating> = BTreeMap::new();
    let mut counts: BTreeMap<&str, (u32, u32, u32)> = BTreeMap::new();
    for (i, &(first, second, end)) in series.iter().enumerate() {
        let g = env.start_in(&place, first, second, "shogi rated days=1");
        let score = match end {
            End::Resign => {
                env.ok_in(&place, second, &format!("resign {g}"));
                1.0
            }
            End::Timeout => {
                let d = env.deadline(g);
                assert_eq!(env.sweep(d).timeouts, vec![g]);
                0.0
            }
            End::Draw => {
                env.ok_in(&place, first, &format!("draw {g} offer"));
                env.ok_in(&place, second, &format!("draw {g} accept"));
                0.5
            }
            End::Mate => {
                env.play_codes(g, SHOGI_MATE);
                assert_eq!(env.game(g).reason.as_deref(), Some("checkmate"));
                1.0
            }
        };
        let row = env.game(g);
        assert_eq!(row.status, GameStatus::Finished, "game {i}");
        let (a, b) = (
            ratings.get(first).copied().unwrap_or(glicko2::NEW),
            ratings.get(second).copied().unwrap_or(glicko2::NEW),
        );
        ratings.insert(first, glicko2::update(a, &[(b, score)]));
        ratings.insert(second, glicko2::update(b, &[(a, 1.0 - score)]));
        for (who, s) in [(first, score), (second, 1.0 - score)] {
            let c = counts.entry(who).or_default();
            match s {
                1.0 => c.0 += 1,
                0.0 => c.1 += 1,
                _ => c.2 += 1,
            }
        }
        for (who, want) in &ratings {
            assert_rating(
                &env,
                who,
                "shogi",
                "club",
                *want,
                &format!("after game {i}"),
            );
        }
    }
    for (who, &(w, l, d)) in &counts {
        let r = env.rating(who, "shogi", "club").unwrap();
        assert_eq!(
            (r.wins, r.losses, r.draws, r.games),
            (w, l, d, w + l + d),
            "{who}"
        );
    }

    // `stats` and `leaderboard` show them, in that server.
    let ann = env.rating("ann", "shogi", "club").unwrap();
    let stats = env.ok_in(&place, "ben", "stats @ann").text;
    let line = format!(
        "Shogi: rating {:.0} ± {:.0}, {} games ({} won, {} lost, {} drawn)",
        ann.rating,
        2.0 * ann.deviation,
        ann.games,
        ann.wins,
        ann.losses,
        ann.draws
    );
    assert!(stats.starts_with("ann: 0 games in progress."), "{stats}");
    assert!(stats.contains(&line), "{stats}\nwanted: {line}");
    let own = env.ok_in(&place, "ann", "stats").text;
    assert!(own.contains(&line), "{own}");
    let elsewhere = env.ok("ann", "stats").text;
    assert!(
        elsewhere.contains("No rated game finished yet here"),
        "{elsewhere}"
    );

    let board = env.ok_in(&place, "ann", "leaderboard shogi").text;
    let mut order: Vec<(&str, Rating)> = ratings.iter().map(|(k, v)| (*k, *v)).collect();
    order.sort_by(|x, y| y.1.r.total_cmp(&x.1.r));
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(lines[0], "Shogi leaderboard:", "{board}");
    assert_eq!(lines.len(), 1 + order.len(), "{board}");
    for (i, (who, _)) in order.iter().enumerate() {
        let r = env.rating(who, "shogi", "club").unwrap();
        let want = format!(
            "{}. {who} — {:.0} ± {:.0} ({} games)",
            i + 1,
            r.rating,
            2.0 * r.deviation,
            r.games
        );
        assert_eq!(lines[i + 1], want, "{board}");
    }
    let empty = env.ok("ann", "leaderboard shogi").text;
    assert!(empty.contains("No rated Shogi game"), "{empty}");
    assert!(env
        .refused("ann", "leaderboard chess")
        .contains("unknown game"));
}

#[test]
fn casual_and_handicap_games_leave_ratings_alone() {
    let env = Env::new();
    let place = in_guild("g1", false);
    // Ratings to keep.
    let g = env.start_in(&place, "alice", "bob", "shogi rated");
    env.ok_in(&place, "bob", &format!("resign {g}"));
    let (a0, b0) = (
        env.rating("alice", "shogi", "g1").unwrap(),
        env.rating("bob", "shogi", "g1").unwrap(),
    );

    // A casual game: by default, or said.
    let g = env.start_in(&place, "alice", "bob", "shogi");
    assert!(!env.game(g).rated);
    env.ok_in(&place, "alice", &format!("resign {g}"));
    let g = env.start_in(&place, "alice", "bob", "judkins casual");
    env.play_codes(g, JUDKINS_MATE);
    assert_eq!(env.game(g).reason.as_deref(), Some("checkmate"));
    let g = env.start_in(&place, "alice", "bob", "shogi casual days=1");
    env.sweep(env.deadline(g));
    assert_eq!(env.game(g).reason.as_deref(), Some("timeout"));

    // Handicap games are casual, even where games are rated by default.
    let msg = env.refused_in(&place, "alice", "challenge @bob shogi handicap=lance rated");
    assert!(msg.contains("casual"), "{msg}");
    env.ok_in(&in_guild("g1", true), "admin", "server rated");
    let g = env.start_in(&place, "alice", "bob", "shogi handicap=lance");
    assert!(!env.game(g).rated, "a handicap game is casual");
    let r = env.ok_in(&place, "alice", &format!("resign {g}"));
    assert!(r.text.contains("resigns"), "{}", r.text);

    assert_eq!(env.rating("alice", "shogi", "g1").unwrap(), a0);
    assert_eq!(env.rating("bob", "shogi", "g1").unwrap(), b0);
    assert!(env.rating("alice", "judkins", "g1").is_none());
    assert!(env.rating("alice", "shogi", "").is_none());
}

// ---------------------------------------------------------------- server settings

#[test]
fn server_settings_apply_to_new_challenges_and_only_managers_change_them() {
    let env = Env::new();
    let admin = in_guild("g1", true);
    let member = in_guild("g1", false);

    let msg = env.refused_in(&member, "mallory", "server days=5 rated");
    assert!(msg.contains("only the server's managers"), "{msg}");
    let msg = env.refused_in(&channel(), "alice", "server days=5");
    assert!(msg.contains("in a server"), "{msg}");
    let msg = env.refused_in(&admin, "alice", "server days=4");
    assert!(msg.contains("days per move must be one of"), "{msg}");
    // Nothing was saved.
    let show = env.ok_in(&member, "mallory", "server").text;
    assert!(
        show.contains("3 days per move") && show.contains("casual"),
        "{show}"
    );

    let r = env.ok_in(&admin, "alice", "server days=5 rated channel=games");
    assert!(r.text.contains("5 days"), "{}", r.text);
    let show = env.ok_in(&member, "mallory", "server").text;
    assert!(
        show.contains("5 days per move") && show.contains("rated") && show.contains("games"),
        "{show}"
    );

    // A new challenge in that server: 5 days, rated, in the games channel.
    let r = env.ok_in(&member, "carol", "challenge @dave shogi black");
    assert!(r.text.contains("5 days per move, rated"), "{}", r.text);
    let g = number_after(&env.ok_in(&member, "dave", "accept").text, "Game #").unwrap();
    let row = env.game(g);
    assert_eq!(row.control.days, 5);
    assert!(row.rated);
    assert_eq!(row.channel.as_deref(), Some("games"));
    assert_eq!(row.guild.as_deref(), Some("g1"));
    assert_eq!(row.deadline, Some(T0 + 5 * DAY));
    // The challenge's own words win.
    let g = env.start_in(&member, "carol", "erin", "shogi days=2 casual");
    let row = env.game(g);
    assert_eq!((row.control.days, row.rated), (2, false));
    // Elsewhere, the core's defaults.
    let g = env.start("carol", "frank", "shogi");
    let row = env.game(g);
    assert_eq!((row.control.days, row.rated), (3, false));
    assert_eq!(row.channel.as_deref(), Some("chan"));
    let g = env.start_in(&in_guild("g2", false), "carol", "gina", "shogi");
    assert_eq!(env.game(g).control.days, 3);

    // Changing one setting keeps the others; `channel=none` clears the channel.
    env.ok_in(&admin, "alice", "server casual channel=none");
    let show = env.ok_in(&member, "mallory", "server").text;
    assert!(
        show.contains("5 days per move") && show.contains("casual"),
        "{show}"
    );
    assert!(show.contains("where they are challenged"), "{show}");
}

// ---------------------------------------------------------------- the sweep benchmark

/// `cargo test --test service -- --ignored correspondence::sweep_benchmark --nocapture`: the sweep
/// benchmark of benches/sweep.rs (also `cargo bench --bench sweep` once Cargo.toml lists it) on
/// the case: 100,000 active games, 1,000 of them due, in the system's temporary folder.
/// The sweep ends each game in its own `BEGIN IMMEDIATE` transaction with `synchronous=FULL`, so
/// its time is mostly a thousand waits for the disk: 0.25–0.4 s here with a quiet disk (about
/// 0.2 ms a commit), but nearly 4 s while other jobs load it (about 4 ms a commit).
#[test]
#[ignore = "benchmark: 100,000 games, run on demand"]
fn sweep_benchmark() {
    let f = sweep_bench::run(&sweep_bench::Params::due_only());
    println!("{f}");
    assert_eq!(f.timeouts, 1_000);
    assert!(f.plans[0]
        .1
        .iter()
        .any(|l| l.contains("INDEX games_deadline")));
    assert!(f.sweep_secs < 1.0, "the sweep took {:.3} s", f.sweep_secs);
}

/// Finding the users a digest is due to counts, per digest user, the games waiting for them:
/// with no index on `games.to_move`, each count reads every game.
#[test]
fn digest_lookup_benchmark() {
    let f = sweep_bench::run(&sweep_bench::Params {
        due: 0,
        near: 0,
        expired: 0,
        digest: 200,
        ..sweep_bench::Params::default()
    });
    println!("{f}");
    assert_eq!(f.digests, 200);
    let (_, secs) = f.reads.iter().find(|(w, _)| *w == "digests due").unwrap();
    assert!(*secs < 0.1, "digests_at took {:.3} s", secs);
}
