//! Clocks in the store (issue 23), on every backend: a game's, a challenge's and a league's
//! time control read back as written; a move and a takeback write the next turn's deadline,
//! span and both banks; reminders come by the span of the turn, whatever the clock.

use super::*;
use tegami::store::{ChallengeStatus, ClockKind, NewLeague};

fn increment() -> TimeControl {
    TimeControl {
        kind: ClockKind::Increment,
        days: 3,
        increment: 1,
        cap: 7,
        period: 0,
    }
}

fn byoyomi() -> TimeControl {
    TimeControl {
        kind: ClockKind::Byoyomi,
        days: 10,
        increment: 0,
        cap: 0,
        period: 2,
    }
}

/// A game of `control` between alice and bob, alice to move with her bank and the period.
fn clocked_game(store: &dyn Store, control: TimeControl, span: i64) -> tegami::store::GameRow {
    for u in ["alice", "bob"] {
        store.touch_user(u, u, T0).expect("user");
    }
    store
        .start_game(
            &NewGame {
                variant: "shogi".into(),
                setup: None,
                start_position: START.into(),
                players: ["alice".into(), "bob".into()],
                guild: None,
                channel: Some("chan".into()),
                rated: false,
                control,
                deadline: Some(T0 + span),
                banks: [i64::from(control.days) * DAY; 2],
                turn_span: span,
                to_move: "alice".into(),
                computer_level: None,
            },
            &[],
            T0,
        )
        .expect("start a game")
}

#[test]
fn clocks_are_kept_with_games_challenges_and_leagues() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = clocked_game(store, increment(), 3 * DAY);
        let read = store.game(g.id).unwrap().expect("the game");
        assert_eq!(read.control, increment(), "{name}");
        assert_eq!(read.banks, [3 * DAY, 3 * DAY], "{name}");
        assert_eq!(read.turn_span, 3 * DAY, "{name}");

        // A move writes the next turn: Bob to move with his bank, Alice's bank as it is now.
        let mv = MoveRow {
            ply: 1,
            code: "7g7f".into(),
            notation: "P-7f".into(),
            position: START.into(),
            user: "alice".into(),
            played_at: T0 + 60,
        };
        let next = Turn {
            to_move: "bob",
            deadline: T0 + 60 + 3 * DAY,
            span: 3 * DAY,
            banks: [4 * DAY - 60, 3 * DAY],
        };
        let moved = store
            .append_move(g.id, g.version, &mv, &next, None, &[])
            .expect("a move");
        assert_eq!(
            (
                moved.to_move.as_deref(),
                moved.deadline,
                moved.turn_span,
                moved.banks
            ),
            (
                Some("bob"),
                Some(T0 + 60 + 3 * DAY),
                3 * DAY,
                [4 * DAY - 60, 3 * DAY]
            ),
            "{name}"
        );
        // A takeback writes its turn too.
        let back = Turn {
            to_move: "alice",
            deadline: T0 + 120 + 4 * DAY - 60,
            span: 4 * DAY - 60,
            banks: [4 * DAY - 60, 3 * DAY - 60],
        };
        let taken = store
            .take_back(g.id, moved.version, 0, START, &back, &[], T0 + 120)
            .expect("a takeback");
        assert_eq!(
            (
                taken.to_move.as_deref(),
                taken.deadline,
                taken.turn_span,
                taken.banks
            ),
            (Some("alice"), Some(back.deadline), back.span, back.banks),
            "{name}"
        );
        assert_eq!(store.game(g.id).unwrap(), Some(taken), "{name}");

        // A challenge's clock.
        let c = store
            .create_challenge(
                &NewChallenge {
                    challenger: "alice".into(),
                    challenged: Some("bob".into()),
                    variant: "shogi".into(),
                    color: "random".into(),
                    control: byoyomi(),
                    handicap: None,
                    setup: None,
                    rated: false,
                    guild: None,
                    channel: None,
                    expires_at: T0 + 7 * DAY,
                },
                &[],
                T0,
            )
            .expect("a challenge");
        assert_eq!(c.control, byoyomi(), "{name}");
        assert_eq!(c.status, ChallengeStatus::Open, "{name}");
        assert_eq!(
            store.challenge(c.id).unwrap().map(|c| c.control),
            Some(byoyomi()),
            "{name}"
        );

        // A league's.
        let l = store
            .create_league(
                &NewLeague {
                    guild: "g1".into(),
                    channel: None,
                    name: "Fischer".into(),
                    variant: "shogi".into(),
                    control: increment(),
                    format: "swiss".into(),
                    rounds: Some(3),
                    rated: false,
                    schedule: "rounds".into(),
                    round_days: None,
                    max_players: None,
                    rating_min: None,
                    rating_max: None,
                    creator: "alice".into(),
                },
                &[],
                T0,
            )
            .expect("a league");
        assert_eq!(l.control, increment(), "{name}");
        assert_eq!(
            store.league(l.id).unwrap().map(|l| l.control),
            Some(increment()),
            "{name}"
        );
    }
}

#[test]
fn reminders_come_by_the_span_of_the_turn() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        // Twelve days for the first turn of a byoyomi game (10 days and a 2-day period): half
        // is gone 6 days in, but the 24-hour lead comes 11 days in.
        let g = clocked_game(store, byoyomi(), 12 * DAY);
        let due = |t: i64| -> Vec<i64> {
            store
                .reminders_due(t, 10)
                .expect("reminders")
                .into_iter()
                .map(|r| r.id)
                .collect()
        };
        assert!(due(T0 + 11 * DAY - 1).is_empty(), "{name}");
        assert_eq!(due(T0 + 11 * DAY), vec![g.id], "{name}");
        // A lead of 10 days: now half the turn decides, 6 days in.
        store.set_remind_hours("alice", Some(240)).expect("lead");
        assert!(due(T0 + 6 * DAY - 1).is_empty(), "{name}");
        assert_eq!(due(T0 + 6 * DAY), vec![g.id], "{name}");
    }
}
