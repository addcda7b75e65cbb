//! Limits kept by the write (issue 49), on every backend: the monthly vacation allowance and
//! "already on vacation", the challenge caps (open in all, open to one opponent, a day's to one
//! opponent), the cap of games against the computer, and the number of conditional lines and
//! their conflicts. Each test steps two handles (two processes) on one database through the
//! interleaving a race produces: both read the state before either writes (as two commands sent
//! together do), then they write in turn. The second write is refused with `Limit`, saying what
//! the core needs to word the refusal, and nothing beyond the limit is stored.
//!
//! On PostgreSQL a last test holds the user's row from a third connection while both handles'
//! vacations start, so that both transactions are under way at once; they then go through one
//! after the other, and the second is refused.

use super::*;
use tegami::store::{ChallengeCaps, ChallengeStatus, Limit, NewConditional};

/// Says on standard error that a limit test ran on a backend.
fn ran(test: &str, backend: &str) {
    say(&format!("limit store test {test}: ran on {backend}"));
}

/// The second handle of a backend: another process on the same database.
fn second(b: &Backend) -> Arc<dyn Store> {
    open_locator(&b.locator)
}

/// `user`'s vacation starting at `now` for `days`, as a core computes it from what the handle
/// reads: the deadlines of the games waiting for them move on by its length.
fn vacation_from_read(
    store: &dyn Store,
    user: &str,
    now: i64,
    days: i64,
) -> (i64, Vec<DeadlineShift>) {
    let end = now + days * DAY;
    let shifts = store
        .waiting_for(user)
        .unwrap()
        .into_iter()
        .map(|g| DeadlineShift {
            game: g.id,
            version: g.version,
            deadline: g.deadline.expect("a deadline") + (end - now),
        })
        .collect();
    (end, shifts)
}

#[test]
fn two_vacations_asked_at_once_start_one() {
    for b in backends() {
        let (name, a) = (b.name, b.shared());
        let other = second(&b);
        let g = new_game(a.as_ref(), "alice", "bob");
        let now = T0 + 60;
        // Both read: alice is on no vacation and used none of the month.
        for s in [a.as_ref(), other.as_ref()] {
            assert_eq!(s.user("alice").unwrap().unwrap().vacation_until, None);
            assert_eq!(s.vacation_used("alice", MONTH.since).unwrap(), 0);
        }
        let (end_a, shifts_a) = vacation_from_read(a.as_ref(), "alice", now, 14);
        let (end_b, shifts_b) = vacation_from_read(other.as_ref(), "alice", now, 14);
        a.start_vacation("alice", now, end_a, &MONTH, &shifts_a)
            .expect("the first vacation");
        let err = other
            .start_vacation("alice", now, end_b, &MONTH, &shifts_b)
            .expect_err("the second vacation");
        assert!(
            matches!(err, StoreError::Limit(Limit::OnVacation { until }) if until == end_a),
            "{name}: {err:?}"
        );
        // One vacation: 14 days used, the deadline moved once.
        assert_eq!(
            a.vacation_used("alice", MONTH.since).unwrap(),
            14 * DAY,
            "{name}"
        );
        let moved = a.game(g.id).unwrap().expect("the game");
        assert_eq!(
            moved.deadline,
            Some(g.deadline.unwrap() + 14 * DAY),
            "{name}"
        );
        assert_eq!(moved.version, g.version + 1, "{name}");
        ran("two_vacations_asked_at_once_start_one", name);
    }
}

#[test]
fn a_vacation_past_the_months_allowance_is_refused_where_it_is_written() {
    for b in backends() {
        let (name, a) = (b.name, b.shared());
        let other = second(&b);
        a.touch_user("carol", "carol", T0).expect("carol");
        // Both read at the start of the month: 14 days left.
        for s in [a.as_ref(), other.as_ref()] {
            assert_eq!(s.vacation_used("carol", MONTH.since).unwrap(), 0);
        }
        // The first takes 10 days and they pass; the second, computed from its read, asks 10
        // more once the first is over: past the allowance (4 days are left).
        a.start_vacation("carol", T0 + 60, T0 + 60 + 10 * DAY, &MONTH, &[])
            .expect("10 days");
        let later = T0 + 11 * DAY;
        let err = other
            .start_vacation("carol", later, later + 10 * DAY, &MONTH, &[])
            .expect_err("past the allowance");
        assert!(
            matches!(err, StoreError::Limit(Limit::VacationDays { used }) if used == 10 * DAY),
            "{name}: {err:?}"
        );
        assert_eq!(
            a.vacation_used("carol", MONTH.since).unwrap(),
            10 * DAY,
            "{name}"
        );
        let carol = a.user("carol").unwrap().expect("carol");
        assert_eq!(carol.vacation_until, Some(T0 + 60 + 10 * DAY), "{name}");
        // What is left is taken.
        other
            .start_vacation("carol", later, later + 4 * DAY, &MONTH, &[])
            .expect("the 4 days left");
        assert_eq!(
            a.vacation_used("carol", MONTH.since).unwrap(),
            14 * DAY,
            "{name}"
        );
        ran(
            "a_vacation_past_the_months_allowance_is_refused_where_it_is_written",
            name,
        );
    }
}

/// A challenge of `from` to `to` (`None`: open to anyone), expiring in a week.
fn challenge(from: &str, to: Option<&str>) -> NewChallenge {
    NewChallenge {
        challenger: from.into(),
        challenged: to.map(Into::into),
        variant: "shogi".into(),
        color: "random".into(),
        control: TimeControl::per_move(3),
        handicap: None,
        setup: None,
        rated: false,
        guild: None,
        channel: None,
        expires_at: T0 + 7 * DAY,
    }
}

/// The caps of the core, with the day counted back from `now`.
fn caps(open: usize, open_to_one: usize, daily_to_one: usize, now: i64) -> ChallengeCaps {
    ChallengeCaps {
        open,
        open_to_one,
        daily_to_one,
        day_since: now - DAY + 1,
    }
}

/// The ids of `from`'s open challenges, as the store has them.
fn open_of(store: &dyn Store, from: &str, now: i64) -> Vec<i64> {
    store
        .open_challenges(from, now)
        .unwrap()
        .into_iter()
        .filter(|c| c.challenger == from)
        .map(|c| c.id)
        .collect()
}

#[test]
fn challenges_sent_at_once_stay_within_each_cap() {
    for b in backends() {
        let (name, a) = (b.name, b.shared());
        let other = second(&b);
        for u in ["alice", "bob", "carol", "dave"] {
            a.touch_user(u, u, T0).expect("a user");
        }
        let now = T0 + 100;
        // Open to one opponent (cap 3): two open to bob; both handles read two, and each
        // sends a third.
        let cap = caps(10, 3, 10, now);
        let mut to_bob = Vec::new();
        for i in 0..2 {
            to_bob.push(
                a.create_challenge_within(&challenge("alice", Some("bob")), &cap, &[], now + i)
                    .expect("within the caps")
                    .id,
            );
        }
        assert_eq!(open_of(a.as_ref(), "alice", now), to_bob, "{name}");
        assert_eq!(open_of(other.as_ref(), "alice", now), to_bob, "{name}");
        to_bob.push(
            a.create_challenge_within(&challenge("alice", Some("bob")), &cap, &[], now + 5)
                .expect("the third")
                .id,
        );
        let err = other
            .create_challenge_within(&challenge("alice", Some("bob")), &cap, &[], now + 5)
            .expect_err("a fourth to bob");
        assert!(
            matches!(&err, StoreError::Limit(Limit::OpenToOne { open }) if *open == to_bob),
            "{name}: {err:?}"
        );
        assert_eq!(open_of(a.as_ref(), "alice", now), to_bob, "{name}");

        // Open in all (cap 4 here): alice has 3; both read 3; one more each, to carol.
        let cap = caps(4, 3, 10, now);
        let fourth = a
            .create_challenge_within(&challenge("alice", Some("carol")), &cap, &[], now + 6)
            .expect("the fourth")
            .id;
        let err = other
            .create_challenge_within(&challenge("alice", None), &cap, &[], now + 6)
            .expect_err("a fifth");
        let mut all = to_bob.clone();
        all.push(fourth);
        assert!(
            matches!(&err, StoreError::Limit(Limit::OpenChallenges { open }) if *open == all),
            "{name}: {err:?}"
        );
        assert_eq!(open_of(a.as_ref(), "alice", now), all, "{name}");

        // A day's challenges to one opponent (cap 2), cancelled ones counted: dave challenged
        // once and cancelled; both read one; one more each.
        let cap = caps(10, 3, 2, now + 10);
        let first = a
            .create_challenge_within(&challenge("bob", Some("dave")), &cap, &[], now + 7)
            .expect("the first");
        a.close_challenge(first.id, ChallengeStatus::Cancelled, &[], now + 8)
            .expect("cancelled");
        for s in [a.as_ref(), other.as_ref()] {
            assert_eq!(
                s.challenge_times("bob", "dave", cap.day_since).unwrap(),
                vec![now + 7]
            );
        }
        a.create_challenge_within(&challenge("bob", Some("dave")), &cap, &[], now + 10)
            .expect("the second of the day");
        let err = other
            .create_challenge_within(&challenge("bob", Some("dave")), &cap, &[], now + 10)
            .expect_err("a third of the day");
        assert!(
            matches!(&err, StoreError::Limit(Limit::DailyToOne { times })
                if *times == vec![now + 7, now + 10]),
            "{name}: {err:?}"
        );
        assert_eq!(
            a.challenge_times("bob", "dave", cap.day_since).unwrap(),
            vec![now + 7, now + 10],
            "{name}: nothing beyond the cap"
        );
        ran("challenges_sent_at_once_stay_within_each_cap", name);
    }
}

/// A game of `player` against the computer, `player` to move.
fn computer_game(player: &str) -> NewGame {
    NewGame {
        variant: "shogi".into(),
        setup: None,
        start_position: START.into(),
        players: [player.into(), "tegami".into()],
        guild: None,
        channel: Some("chan".into()),
        rated: false,
        control: TimeControl::per_move(3),
        deadline: Some(T0 + 3 * DAY),
        banks: [0, 0],
        turn_span: 3 * DAY,
        to_move: player.into(),
        computer_level: Some(3),
    }
}

#[test]
fn games_against_the_computer_started_at_once_stay_within_the_cap() {
    for b in backends() {
        let (name, a) = (b.name, b.shared());
        let other = second(&b);
        for u in ["alice", "tegami"] {
            a.touch_user(u, u, T0).expect("a user");
        }
        // Cap 2: one game in progress (and one over, which does not count).
        let first = a
            .start_computer_game(&computer_game("alice"), "alice", 2, &[], T0)
            .expect("the first");
        let over = a
            .start_computer_game(&computer_game("alice"), "alice", 2, &[], T0)
            .expect("a game");
        a.finish_game(
            over.id,
            over.version,
            &finish(&resignation(), vec![]),
            T0 + 1,
        )
        .expect("resigned");
        let playing = |s: &dyn Store| -> Vec<i64> {
            s.games_of("alice", GameStatus::Active, None, 50)
                .unwrap()
                .into_iter()
                .filter(|g| g.computer_level.is_some())
                .map(|g| g.id)
                .collect()
        };
        // Both read one game in progress; each starts another.
        assert_eq!(playing(a.as_ref()), vec![first.id], "{name}");
        assert_eq!(playing(other.as_ref()), vec![first.id], "{name}");
        let second_game = a
            .start_computer_game(&computer_game("alice"), "alice", 2, &[], T0 + 2)
            .expect("the second");
        let err = other
            .start_computer_game(&computer_game("alice"), "alice", 2, &[], T0 + 2)
            .expect_err("a third");
        assert!(
            matches!(&err, StoreError::Limit(Limit::ComputerGames { games })
                if *games == vec![first.id, second_game.id]),
            "{name}: {err:?}"
        );
        let mut now_playing = playing(a.as_ref());
        now_playing.sort();
        assert_eq!(now_playing, vec![first.id, second_game.id], "{name}");
        ran(
            "games_against_the_computer_started_at_once_stay_within_the_cap",
            name,
        );
    }
}

/// A line of `user` in `game` from the start (`ply` 0).
fn line(game: i64, user: &str, moves: &[&str]) -> NewConditional {
    NewConditional {
        game,
        user: user.into(),
        ply: 0,
        position: START.into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
    }
}

#[test]
fn conditional_lines_added_at_once_stay_within_the_limit_and_agree() {
    for b in backends() {
        let (name, a) = (b.name, b.shared());
        let other = second(&b);
        let g = new_game(a.as_ref(), "alice", "bob");
        // Bob's lines (alice moves first). Both handles read none; each adds a line that
        // answers alice's 7g7f differently.
        assert!(a.conditionals(g.id).unwrap().is_empty());
        assert!(other.conditionals(g.id).unwrap().is_empty());
        let mine = a
            .add_conditional(&line(g.id, "bob", &["7g7f", "3c3d"]), 2, T0 + 1)
            .expect("bob's first line");
        let err = other
            .add_conditional(&line(g.id, "bob", &["7g7f", "8c8d"]), 2, T0 + 1)
            .expect_err("a conflicting line");
        assert!(
            matches!(&err, StoreError::Limit(Limit::ConditionalConflict { line })
                if *line == vec!["7g7f".to_string(), "3c3d".to_string()]),
            "{name}: {err:?}"
        );
        assert_eq!(a.conditionals(g.id).unwrap(), vec![mine.clone()], "{name}");
        // Branches at alice's moves are fine; the limit (2) counts them. Both read one line,
        // each adds a branch.
        assert_eq!(other.conditionals(g.id).unwrap().len(), 1, "{name}");
        let branch = a
            .add_conditional(&line(g.id, "bob", &["2g2f", "8c8d"]), 2, T0 + 2)
            .expect("a branch");
        let err = other
            .add_conditional(&line(g.id, "bob", &["5g5f", "8c8d"]), 2, T0 + 2)
            .expect_err("a third line");
        assert!(
            matches!(err, StoreError::Limit(Limit::ConditionalLines { count: 2 })),
            "{name}: {err:?}"
        );
        // A line stored already is no new line: returned, at the limit too.
        assert_eq!(
            other
                .add_conditional(&line(g.id, "bob", &["2g2f", "8c8d"]), 2, T0 + 3)
                .expect("the same line"),
            branch,
            "{name}"
        );
        assert_eq!(a.conditionals(g.id).unwrap(), vec![mine, branch], "{name}");
        ran(
            "conditional_lines_added_at_once_stay_within_the_limit_and_agree",
            name,
        );
    }
}

/// PostgreSQL, both transactions under way at once: a third connection holds alice's row while
/// both handles start a vacation (each in its own thread); the test waits until the database
/// shows both waiting for that lock, then lets go. They go through one after the other: one
/// vacation starts, the other is refused. (Without the row lock both would read no vacation,
/// neither would wait, and both would be stored.)
#[test]
fn two_vacations_under_way_at_once_on_postgresql_start_one() {
    let Some(b) = backends().into_iter().find(|b| b.name == "postgres") else {
        say("two_vacations_under_way_at_once_on_postgresql_start_one SKIPPED: no PostgreSQL");
        return;
    };
    {
        let url = b
            .locator
            .strip_prefix("postgres:")
            .expect("a URL")
            .to_string();
        let a = b.shared();
        let other = second(&b);
        a.touch_user("alice", "alice", T0).expect("alice");
        let mut holder = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
        let mut tx = holder.transaction().expect("a transaction");
        tx.execute("SELECT id FROM users WHERE id = 'alice' FOR UPDATE", &[])
            .expect("hold alice's row");
        let now = T0 + 60;
        let started: Vec<_> = [a.clone(), other.clone()]
            .into_iter()
            .map(|s| {
                std::thread::spawn(move || {
                    s.start_vacation("alice", now, now + 14 * DAY, &MONTH, &[])
                })
            })
            .collect();
        // Until both wait for the row (a state of the database, not a time), at most a minute.
        let mut watch = postgres::Client::connect(&url, postgres::NoTls).expect("connect");
        let mut waiting = 0;
        for _ in 0..600 {
            waiting = watch
                .query_one(
                    "SELECT count(*) FROM pg_stat_activity
                     WHERE datname = current_database() AND wait_event_type = 'Lock'",
                    &[],
                )
                .expect("pg_stat_activity")
                .get::<_, i64>(0);
            if waiting >= 2 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        tx.rollback().expect("let go");
        let results: Vec<_> = started
            .into_iter()
            .map(|t| t.join().expect("a thread"))
            .collect();
        assert_eq!(waiting, 2, "both vacations waited for alice's row");
        let refused: Vec<_> = results.iter().filter(|r| r.is_err()).collect();
        assert_eq!(results.len() - refused.len(), 1, "{results:?}");
        assert!(
            matches!(refused[0], Err(StoreError::Limit(Limit::OnVacation { .. }))),
            "{results:?}"
        );
        assert_eq!(
            a.vacation_used("alice", MONTH.since).unwrap(),
            14 * DAY,
            "one vacation stored"
        );
        ran(
            "two_vacations_under_way_at_once_on_postgresql_start_one",
            b.name,
        );
    }
}
