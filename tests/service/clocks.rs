//! Game clocks (issue 23) through the command core, on a real SQLite file: an increment game's
//! banks and deadlines move by move (the cap, a takeback, a vacation, `moretime`, the loss on
//! time), byoyomi's bank then period, reminders at half a turn's time, what `/board` shows,
//! the options refused with a reason, a league's games with the league's clock, and a game
//! stored before clocks existed going on per move.

use crate::service_common;

use service_common::{Env, T0};
use tegami::service::DAY;
use tegami::store::{ClockKind, ClockStore, GameStatus, GameStore, TimeControl};

const HOUR: i64 = 3600;

/// Starts a game of `args` (`shogi clock=increment …`) between alice (first) and bob at T0.
fn start(env: &Env, args: &str) -> i64 {
    env.start_game("alice", "bob", args)
}

#[test]
fn an_increment_game_banks_what_is_left_plus_the_increment_up_to_the_cap() {
    let env = Env::new();
    let id = start(&env, "shogi days=3 clock=increment increment=1 cap=5");
    let g = env.game(id);
    assert_eq!(
        g.control,
        TimeControl {
            kind: ClockKind::Increment,
            days: 3,
            increment: 1,
            cap: 5,
            period: 0
        }
    );
    assert_eq!(g.banks, [3 * DAY, 3 * DAY]);
    assert_eq!(g.deadline, Some(T0 + 3 * DAY));
    assert_eq!(g.turn_span, 3 * DAY);

    // Alice moves after 10 hours: 2d 14h left, + 1 day. Bob's turn has his whole bank.
    env.clock.set(T0 + 10 * HOUR);
    let r = env.ok("alice", &format!("move {id} 7g7f"));
    let g = env.game(id);
    assert_eq!(g.banks[0], 3 * DAY - 10 * HOUR + DAY);
    assert_eq!(g.deadline, Some(T0 + 10 * HOUR + 3 * DAY));
    assert_eq!(g.turn_span, 3 * DAY);
    // The announcement gives Bob's deadline from his bank.
    assert!(r.text.contains("by 2026-01-04 10:00 UTC"), "{}", r.text);

    // Bob answers in one hour: 2d 23h + 1d = 3d 23h; Alice's turn has her 3d 14h.
    env.clock.set(T0 + 11 * HOUR);
    env.ok("bob", &format!("move {id} 3c3d"));
    let g = env.game(id);
    assert_eq!(g.banks, [3 * DAY + 14 * HOUR, 3 * DAY + 23 * HOUR]);
    assert_eq!(g.deadline, Some(T0 + 11 * HOUR + 3 * DAY + 14 * HOUR));
    assert_eq!(g.turn_span, 3 * DAY + 14 * HOUR);

    // Quick moves fill Alice's bank up to the cap, never past it.
    for (i, (a, b)) in [("2g2f", "8c8d"), ("2f2e", "8d8e"), ("6i7h", "4a3b")]
        .into_iter()
        .enumerate()
    {
        env.clock.set(T0 + 12 * HOUR + i as i64 * 60);
        env.ok("alice", &format!("move {id} {a}"));
        env.ok("bob", &format!("move {id} {b}"));
    }
    let g = env.game(id);
    assert_eq!(g.banks[0], 5 * DAY, "capped at 5 days");
    assert_eq!(g.banks[1], 5 * DAY, "capped at 5 days");

    // `/board` shows both clocks and the control.
    let board = env.ok("bob", &format!("board {id}"));
    assert!(
        board
            .text
            .contains("Clocks: alice 5d · bob 5d — 3 days + 1 day per move (at most 5 days)."),
        "{}",
        board.text
    );
}

#[test]
fn an_increment_game_is_lost_when_the_bank_runs_out_and_not_before() {
    let env = Env::new();
    let id = start(&env, "shogi days=2 clock=increment");
    env.clock.set(T0 + HOUR);
    env.ok("alice", &format!("move {id} 7g7f"));
    // Bob has two days from his turn's start: still in time a minute before.
    let deadline = env.game(id).deadline.expect("a deadline");
    assert_eq!(deadline, T0 + HOUR + 2 * DAY);
    let s = env.service.sweep(deadline - 60).expect("sweep");
    assert!(s.timeouts.is_empty());
    let s = env.service.sweep(deadline).expect("sweep");
    assert_eq!(s.timeouts, vec![id]);
    let g = env.game(id);
    assert_eq!(g.status, GameStatus::Finished);
    assert_eq!(g.reason.as_deref(), Some("timeout"));
}

#[test]
fn byoyomi_spends_the_bank_then_gives_each_move_its_period() {
    let env = Env::new();
    let id = start(&env, "shogi days=2 clock=byoyomi period=1");
    let g = env.game(id);
    assert_eq!(g.banks, [2 * DAY, 2 * DAY]);
    // Bank and period: three days for the first move.
    assert_eq!(g.deadline, Some(T0 + 3 * DAY));
    let board = env.ok("alice", &format!("board {id}"));
    assert!(
        board.text.contains("alice 2d + 1d · bob 2d + 1d"),
        "{}",
        board.text
    );

    // Alice uses her bank and half a day of the period: her bank is spent.
    env.clock.set(T0 + 2 * DAY + 12 * HOUR);
    let board = env.ok("bob", &format!("board {id}"));
    assert!(board.text.contains("alice byoyomi 12h"), "{}", board.text);
    env.ok("alice", &format!("move {id} 7g7f"));
    let g = env.game(id);
    assert_eq!(g.banks[0], 0);
    // Bob answers within his bank: what is left of it is kept, and the period comes again.
    env.clock.set(T0 + 3 * DAY);
    env.ok("bob", &format!("move {id} 3c3d"));
    let g = env.game(id);
    assert_eq!(g.banks[1], 2 * DAY - 12 * HOUR);
    // Alice in byoyomi: one day for each move, from now.
    assert_eq!(g.deadline, Some(T0 + 4 * DAY));
    assert_eq!(g.turn_span, DAY);
    let board = env.ok("alice", &format!("board {id}"));
    assert!(
        board.text.contains("alice byoyomi 1d · bob 1d 12h + 1d"),
        "{}",
        board.text
    );
    // She takes 23 hours: in time, and her next turn has the period again.
    env.clock.set(T0 + 4 * DAY - HOUR);
    env.ok("alice", &format!("move {id} 2g2f"));
    env.clock.set(T0 + 4 * DAY);
    env.ok("bob", &format!("move {id} 8c8d"));
    assert_eq!(env.game(id).deadline, Some(T0 + 5 * DAY));
    // Past the period: lost on time.
    let s = env.service.sweep(T0 + 5 * DAY).expect("sweep");
    assert_eq!(s.timeouts, vec![id]);
}

#[test]
fn a_takeback_gives_no_increment_and_restarts_the_turn_from_the_bank() {
    let env = Env::new();
    let id = start(&env, "shogi days=3 clock=increment increment=1 cap=7");
    env.clock.set(T0 + DAY);
    env.ok("alice", &format!("move {id} 7g7f"));
    assert_eq!(env.game(id).banks[0], 3 * DAY);
    // Bob asks for a takeback 6 hours into his turn; Alice accepts: it is her turn again.
    env.clock.set(T0 + DAY + 6 * HOUR);
    env.ok("bob", &format!("move {id} 3c3d"));
    let before = env.game(id);
    assert_eq!(before.banks[1], 3 * DAY - 6 * HOUR + DAY);
    env.clock.set(T0 + DAY + 7 * HOUR);
    env.ok("bob", &format!("takeback {id} offer"));
    env.ok("alice", &format!("takeback {id} accept"));
    let g = env.game(id);
    assert_eq!(g.ply, 1);
    assert_eq!(g.to_move.as_deref(), Some("bob"));
    // Alice (to move when it was accepted) keeps what was left, without increment; Bob's turn
    // begins with his bank as it stood.
    assert_eq!(
        g.banks[0],
        before.deadline.expect("deadline") - (T0 + DAY + 7 * HOUR)
    );
    assert_eq!(g.deadline, Some(T0 + DAY + 7 * HOUR + g.banks[1]));
}

#[test]
fn vacation_and_more_time_move_the_bank_with_the_deadline() {
    let env = Env::new();
    let id = start(&env, "shogi days=3 clock=increment increment=1 cap=10");
    // A vacation of 2 days pushes Alice's deadline; moving on its first day, the vacation's
    // time is not taken from her bank.
    env.ok("alice", "vacation 2");
    assert_eq!(env.game(id).deadline, Some(T0 + 5 * DAY));
    env.clock.set(T0 + DAY);
    env.ok("alice", &format!("move {id} 7g7f"));
    assert_eq!(env.game(id).banks[0], 4 * DAY, "3 days untouched + 1");
    env.ok("alice", "vacation end");
    // More time for Bob: a day on his turn, kept in his bank when he moves.
    env.ok("alice", &format!("moretime {id}"));
    let d = env.game(id).deadline.expect("a deadline");
    assert_eq!(d, T0 + DAY + 4 * DAY);
    env.clock.set(T0 + 2 * DAY);
    env.ok("bob", &format!("move {id} 3c3d"));
    assert_eq!(
        env.game(id).banks[1],
        3 * DAY + DAY,
        "4 days left (capped at 10)"
    );
}

#[test]
fn reminders_come_when_half_of_the_turn_has_gone() {
    let env = Env::new();
    let id = start(&env, "shogi days=10 clock=byoyomi period=2");
    // The first turn has 12 days: no reminder before 6 days, whatever the 24-hour lead says.
    let s = env.service.sweep(T0 + 5 * DAY).expect("sweep");
    assert!(s.reminders.is_empty());
    let s = env.service.sweep(T0 + 6 * DAY).expect("sweep");
    assert!(s.reminders.is_empty(), "the lead has not come yet");
    let s = env.service.sweep(T0 + 11 * DAY).expect("sweep");
    assert_eq!(s.reminders, vec![id]);
    // In byoyomi with 2 days a move, the reminder comes at the later of half (1 day) and
    // the 24-hour lead: one day in.
    env.clock.set(T0 + 11 * DAY + HOUR);
    env.ok("alice", &format!("move {id} 7g7f"));
    env.clock.set(T0 + 11 * DAY + 2 * HOUR);
    env.ok("bob", &format!("move {id} 3c3d"));
    let g = env.game(id);
    assert_eq!(g.banks[0], 0);
    assert_eq!(g.turn_span, 2 * DAY);
    let s = env.service.sweep(T0 + 12 * DAY).expect("sweep");
    assert!(s.reminders.is_empty());
    let s = env.service.sweep(T0 + 12 * DAY + 3 * HOUR).expect("sweep");
    assert_eq!(s.reminders, vec![id]);
}

#[test]
fn clock_options_are_refused_with_a_reason_and_nothing_is_stored() {
    let env = Env::new();
    // Alice is known (a first command records her), so that a refusal writes nothing at all.
    env.ok("alice", "settings");
    let watch = env.watch();
    for (line, says) in [
        (
            "challenge @bob shogi clock=hourglass",
            "no clock called \"hourglass\"",
        ),
        (
            "challenge @bob shogi clock=per-move increment=1",
            "`increment` does not go with the per-move clock",
        ),
        (
            "challenge @bob shogi clock=increment period=1",
            "`period` does not go with the increment clock",
        ),
        (
            "challenge @bob shogi increment=9",
            "`increment`: 9 is out of range",
        ),
        (
            "challenge @bob shogi days=5 cap=4",
            "`cap`: 4 is out of range here (choose 5 to 60 days)",
        ),
        (
            "challenge @bob shogi clock=byoyomi days=31",
            "`days`: 31 is out of range",
        ),
        (
            "challenge @bob shogi days=4",
            "days per move must be one of 1, 2, 3, 5, 7, 10, 14",
        ),
    ] {
        let text = env.refused("alice", line);
        assert!(text.contains(says), "{line}: {text}");
    }
    watch.assert_unchanged(&env.path, "refused clocks");
}

#[test]
fn a_challenge_and_its_game_say_their_clock_and_the_board_shows_it() {
    let env = Env::new();
    let r = env.ok("alice", "challenge @bob shogi days=3 increment=1 black");
    assert!(
        r.text
            .contains("3 days + 1 day per move (at most 7 days), casual"),
        "{}",
        r.text
    );
    let r = env.ok("bob", "accept");
    assert!(
        r.text
            .contains("3 days + 1 day per move (at most 7 days). alice to move."),
        "{}",
        r.text
    );
    let id = r.game.as_ref().expect("a game").id;
    // A per-move game shows its clocks too: the time left, and the other's time per move.
    let pm = env.start_game("carol", "dave", "shogi days=2");
    env.clock.set(T0 + 5 * HOUR);
    let board = env.ok("dave", &format!("board {pm}"));
    assert!(
        board
            .text
            .contains("Clocks: carol 1d 19h · dave 2d per move — 2 days per move."),
        "{}",
        board.text
    );
    // In Japanese.
    env.ok("bob", "settings language=ja");
    let board = env.ok("bob", &format!("board {id}"));
    assert!(
        board.text.contains(
            "残り時間: alice 2日19時間、bob 3日（持ち時間3日、一手ごとに1日加算（上限7日））"
        ),
        "{}",
        board.text
    );
}

#[test]
fn a_leagues_games_have_the_leagues_clock() {
    let env = Env::new();
    let place = service_common::in_guild("g1");
    let r = env.ok_in(
        &place,
        "alice",
        "league create name=Fischer game=shogi format=round-robin days=2 clock=increment increment=1 cap=4",
    );
    assert!(
        r.text.contains("2 days + 1 day per move (at most 4 days)"),
        "{}",
        r.text
    );
    let league = r.league.expect("a league");
    for p in ["alice", "bob"] {
        env.ok_in(&place, p, &format!("league join league={league}"));
    }
    env.ok_in(&place, "alice", &format!("league start league={league}"));
    let games = env
        .store
        .games_of("alice", GameStatus::Active, None, 10)
        .expect("games");
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.control.kind, ClockKind::Increment);
    assert_eq!((g.control.days, g.control.cap), (2, 4));
    assert_eq!(g.banks, [2 * DAY, 2 * DAY]);
    assert_eq!(g.deadline, Some(T0 + 2 * DAY));
    let show = env.ok_in(&place, "bob", &format!("league show league={league}"));
    assert!(
        show.text
            .contains("2 days + 1 day per move (at most 4 days)"),
        "{}",
        show.text
    );
}

#[test]
fn a_per_move_game_as_migration_0015_leaves_an_old_one_goes_on_per_move() {
    // The columns of a game stored before clocks existed, as the migration fills them.
    let env = Env::new();
    let id = start(&env, "shogi days=5");
    let conn = rusqlite::Connection::open(&env.path).expect("open");
    conn.execute(
        "UPDATE games SET clock = 'per-move', increment_days = 0, cap_days = 0,
            period_days = 0, bank_first = 0, bank_second = 0, turn_span = 5 * 86400
         WHERE id = ?1",
        [id],
    )
    .expect("as migrated");
    drop(conn);
    env.clock.set(T0 + DAY);
    env.ok("alice", &format!("move {id} 7g7f"));
    let g = env.game(id);
    assert_eq!(g.control, TimeControl::per_move(5));
    assert_eq!(g.deadline, Some(T0 + 6 * DAY));
    assert_eq!(g.banks, [0, 0]);
    assert_eq!(g.turn_span, 5 * DAY);
    // The reminder rule of per-move games: the later of half the days per move (3.5 days in)
    // and the 24-hour lead (5 days in).
    assert!(env
        .store
        .reminders_due(T0 + 5 * DAY - 1, 10)
        .expect("due")
        .is_empty());
    assert_eq!(
        env.store
            .reminders_due(T0 + 5 * DAY, 10)
            .expect("due")
            .len(),
        1
    );
}
