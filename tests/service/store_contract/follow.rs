//! Followers and daily digests (`FollowStore`, issue 23) on every backend: followers read back
//! as stored (following twice is one row; changing how one is told starts afresh from the game
//! as it is), the `ping` followers due after a move and after the end and told once (also by two
//! handles at once), the `thread` followers due for a new thread, and digests found by their
//! planned time (or by the older rule when none is planned) and recorded once.

use super::*;
use tegami::store::{FollowRow, ThreadJoin, Told};

/// Says on standard error that a follower test ran on a backend (the figures of a run).
fn ran(test: &str, backend: &str) {
    say(&format!("follow store test {test}: ran on {backend}"));
}

/// A notice to `user` with id `id`.
fn notice(id: i64, user: &str, text: &str) -> NewNotice {
    NewNotice {
        id,
        game: None,
        user: user.into(),
        via: "mention".into(),
        channel: Some("chan".into()),
        text: text.into(),
        ply: None,
        league: None,
    }
}

#[test]
fn followers_are_read_back_as_stored_and_stored_once() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        let other = new_game(store, "carol", "dan");
        store.touch_user("eve", "eve", T0).unwrap();
        let (row, new) = store.follow(g.id, "eve", "thread", T0 + 1).unwrap();
        assert!(new, "{name}");
        assert_eq!(
            row,
            FollowRow {
                game: g.id,
                user: "eve".into(),
                notify: "thread".into(),
                seen_ply: 0,
                seen_over: false,
                joined_thread: None,
                created_at: T0 + 1,
            },
            "{name}"
        );
        // Twice: one row, as it was.
        let (again, new) = store.follow(g.id, "eve", "thread", T0 + 2).unwrap();
        assert!(!new, "{name}");
        assert_eq!(again, row, "{name}");
        store.follow(other.id, "eve", "digest", T0 + 3).unwrap();
        store.follow(g.id, "carol", "ping", T0 + 4).unwrap();
        let games: Vec<i64> = store
            .follows_of("eve")
            .unwrap()
            .iter()
            .map(|f| f.game)
            .collect();
        assert_eq!(games, vec![g.id, other.id], "{name}");
        let users: Vec<String> = store
            .followers_of(g.id)
            .unwrap()
            .into_iter()
            .map(|f| f.user)
            .collect();
        assert_eq!(
            users,
            vec!["carol".to_string(), "eve".to_string()],
            "{name}"
        );
        // Another way of being told: from the game as it is now, added to its thread afresh.
        let g = play(store, &g, "7g7f");
        store.set_thread(g.id, "thread-1").unwrap();
        store.thread_joined(g.id, "eve", "thread-1").unwrap();
        let (changed, new) = store.follow(g.id, "eve", "ping", T0 + 5).unwrap();
        assert!(!new, "{name}");
        assert_eq!(
            (
                changed.notify.as_str(),
                changed.seen_ply,
                changed.joined_thread
            ),
            ("ping", 1, None),
            "{name}"
        );
        assert_eq!(changed.created_at, T0 + 1, "{name}: followed since");
        // Unfollowing gives the row back once.
        let gone = store.unfollow(g.id, "eve").unwrap().expect("a follower");
        assert_eq!(gone.notify, "ping", "{name}");
        assert_eq!(store.unfollow(g.id, "eve").unwrap(), None, "{name}");
        assert_eq!(store.follows_of("eve").unwrap().len(), 1, "{name}");
        // Refused, nothing written: an unknown game or user, another way of being told.
        assert!(
            matches!(
                store.follow(9_999, "eve", "thread", T0),
                Err(StoreError::NotFound)
            ),
            "{name}"
        );
        assert!(
            matches!(
                store.follow(g.id, "nobody", "thread", T0),
                Err(StoreError::NotFound)
            ),
            "{name}"
        );
        assert!(
            matches!(
                store.follow(g.id, "eve", "shout", T0),
                Err(StoreError::Invalid(_))
            ),
            "{name}"
        );
        assert_eq!(store.follows_of("eve").unwrap().len(), 1, "{name}");
        assert!(store.follows_of("nobody").unwrap().is_empty(), "{name}");
        ran("followers_are_read_back_as_stored_and_stored_once", name);
    }
}

#[test]
fn ping_followers_are_due_after_a_move_and_the_end_and_told_once() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        let quiet = new_game(store, "carol", "dan");
        for u in ["eve", "fay"] {
            store.touch_user(u, u, T0).unwrap();
        }
        store.follow(g.id, "eve", "ping", T0).unwrap();
        store.follow(g.id, "fay", "digest", T0).unwrap();
        store.follow(quiet.id, "eve", "ping", T0).unwrap();
        assert!(store.pings_due(None, 10).unwrap().is_empty(), "{name}");
        let g = play(store, &g, "7g7f");
        let g = play(store, &g, "3c3d");
        // Eve (ping) is due in the game that moved; Fay (digest) never.
        let due = store.pings_due(None, 10).unwrap();
        assert_eq!(due.len(), 1, "{name}");
        assert_eq!(
            (due[0].game, due[0].user.as_str(), due[0].seen_ply),
            (g.id, "eve", 0),
            "{name}"
        );
        assert_eq!(
            store.pings_due(Some(quiet.id), 10).unwrap(),
            vec![],
            "{name}"
        );
        assert_eq!(store.pings_due(Some(g.id), 10).unwrap(), due, "{name}");
        // Told from what she was told before only; the notice goes with it.
        assert!(
            !store
                .mark_seen(
                    g.id,
                    "eve",
                    (1, false),
                    (2, false),
                    Some(&notice(31, "eve", "x")),
                    T0
                )
                .unwrap(),
            "{name}: an old read"
        );
        assert!(
            store
                .mark_seen(
                    g.id,
                    "eve",
                    (0, false),
                    (2, false),
                    Some(&notice(32, "eve", "2 moves")),
                    T0
                )
                .unwrap(),
            "{name}"
        );
        assert!(
            !store
                .mark_seen(
                    g.id,
                    "eve",
                    (0, false),
                    (2, false),
                    Some(&notice(33, "eve", "again")),
                    T0
                )
                .unwrap(),
            "{name}: told once"
        );
        let ids: Vec<i64> = store.unsent(10).unwrap().iter().map(|o| o.id).collect();
        assert_eq!(ids, vec![32], "{name}");
        assert!(store.pings_due(None, 10).unwrap().is_empty(), "{name}");
        // The end, without a move: due again.
        let ending = resignation();
        let f = Finish {
            ending: &ending,
            notices: &[],
            ratings: vec![],
        };
        store.finish_game(g.id, g.version, &f, T0 + 10).unwrap();
        let due = store.pings_due(None, 10).unwrap();
        assert_eq!(
            due.iter().map(|f| (f.game, f.seen_ply)).collect::<Vec<_>>(),
            vec![(g.id, 2)],
            "{name}"
        );
        assert!(store
            .mark_seen(g.id, "eve", (2, false), (2, true), None, T0 + 11)
            .unwrap());
        assert!(store.pings_due(None, 10).unwrap().is_empty(), "{name}");
        // A follower no longer on ping is not told.
        store.follow(quiet.id, "eve", "thread", T0).unwrap();
        let quiet = play(store, &quiet, "7g7f");
        assert!(store.pings_due(None, 10).unwrap().is_empty(), "{name}");
        assert!(!store
            .mark_seen(quiet.id, "eve", (0, false), (1, false), None, T0)
            .unwrap());
        ran(
            "ping_followers_are_due_after_a_move_and_the_end_and_told_once",
            name,
        );
    }
}

#[test]
fn two_handles_telling_a_follower_at_once_tell_them_once() {
    for b in backends() {
        let (name, store) = (b.name, b.shared());
        let other = (b.reopen)();
        let g = new_game(&*store, "alice", "bob");
        store.touch_user("eve", "eve", T0).unwrap();
        store.follow(g.id, "eve", "ping", T0).unwrap();
        let g = play(&*store, &g, "7g7f");
        let told: Vec<bool> = std::thread::scope(|s| {
            let hs: Vec<_> = [(store.clone(), 41), (other.clone(), 42)]
                .into_iter()
                .map(|(h, id)| {
                    s.spawn(move || {
                        h.mark_seen(
                            g.id,
                            "eve",
                            (0, false),
                            (1, false),
                            Some(&notice(id, "eve", "1 move")),
                            T0,
                        )
                        .expect("mark seen")
                    })
                })
                .collect();
            hs.into_iter()
                .map(|h| h.join().expect("a thread"))
                .collect()
        });
        assert_eq!(told.iter().filter(|t| **t).count(), 1, "{name}: {told:?}");
        assert_eq!(store.unsent(10).unwrap().len(), 1, "{name}");
        ran(
            "two_handles_telling_a_follower_at_once_tell_them_once",
            name,
        );
    }
}

#[test]
fn thread_followers_are_due_for_each_new_thread_of_an_active_game() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        for u in ["eve", "fay"] {
            store.touch_user(u, u, T0).unwrap();
        }
        store.follow(g.id, "eve", "thread", T0).unwrap();
        store.follow(g.id, "fay", "ping", T0).unwrap();
        // No thread yet: nothing to join.
        assert!(
            store.thread_joins_due(None, 10).unwrap().is_empty(),
            "{name}"
        );
        store.set_thread(g.id, "111").unwrap();
        let due = store.thread_joins_due(None, 10).unwrap();
        let eve = ThreadJoin {
            game: g.id,
            user: "eve".into(),
            thread: "111".into(),
        };
        assert_eq!(due, vec![eve.clone()], "{name}");
        assert_eq!(
            store.thread_joins_due(Some(g.id + 1), 10).unwrap(),
            vec![],
            "{name}"
        );
        store.thread_joined(g.id, "eve", "111").unwrap();
        assert!(
            store.thread_joins_due(Some(g.id), 10).unwrap().is_empty(),
            "{name}"
        );
        // The thread lost, the game in a new one: due again.
        store.set_home(g.id, Some("chan"), Some("222")).unwrap();
        assert_eq!(
            store.thread_joins_due(None, 10).unwrap(),
            vec![ThreadJoin {
                thread: "222".into(),
                ..eve
            }],
            "{name}"
        );
        // A finished game's thread is closed: nobody is added.
        let ending = resignation();
        let f = Finish {
            ending: &ending,
            notices: &[],
            ratings: vec![],
        };
        store.finish_game(g.id, g.version, &f, T0 + 10).unwrap();
        assert!(
            store.thread_joins_due(None, 10).unwrap().is_empty(),
            "{name}"
        );
        ran(
            "thread_followers_are_due_for_each_new_thread_of_an_active_game",
            name,
        );
    }
}

#[test]
fn digests_are_found_by_their_planned_time_and_recorded_once() {
    for b in backends() {
        let (name, store) = (b.name, b.shared());
        for u in ["ann", "ben", "cat", "dot"] {
            store.touch_user(u, u, T0).unwrap();
        }
        // Ann: an hour and a zone, her digest planned at T0 + 5 h.
        store
            .set_digest("ann", Some(8), Some("Asia/Tokyo"), Some(T0 + 5 * 3600))
            .unwrap();
        let ann = store.user("ann").unwrap().expect("ann");
        assert_eq!(
            (ann.digest_hour, ann.timezone.as_deref(), ann.next_digest_at),
            (Some(8), Some("Asia/Tokyo"), Some(T0 + 5 * 3600)),
            "{name}"
        );
        // Ben: on a digest with none planned (the older rule: one a day).
        store.set_user_settings("ben", "kanji", "digest").unwrap();
        // Cat: on a digest too, but had one an hour ago.
        store.set_user_settings("cat", "kanji", "digest").unwrap();
        store
            .record_daily(
                "cat",
                None,
                None,
                Some((&notice(51, "cat", "d"), &[])),
                T0 + 4 * 3600,
            )
            .unwrap();
        let due = |t: i64| -> Vec<String> {
            store
                .digests_at(t, t - DAY, 10)
                .unwrap()
                .into_iter()
                .map(|u| u.id)
                .collect()
        };
        assert_eq!(due(T0 + 5 * 3600 - 1), vec!["ben".to_string()], "{name}");
        assert_eq!(
            due(T0 + 5 * 3600),
            vec!["ben".to_string(), "ann".to_string()],
            "{name}: the longest due first"
        );
        // Recorded once: the plan read is the guard.
        let d = notice(52, "ann", "your digest");
        assert!(!store
            .record_daily(
                "ann",
                Some(T0),
                Some(T0 + DAY),
                Some((&d, &[])),
                T0 + 5 * 3600
            )
            .unwrap());
        assert!(store
            .record_daily(
                "ann",
                Some(T0 + 5 * 3600),
                Some(T0 + 29 * 3600),
                Some((&d, &[])),
                T0 + 5 * 3600
            )
            .unwrap());
        assert!(!store
            .record_daily(
                "ann",
                Some(T0 + 5 * 3600),
                Some(T0 + 29 * 3600),
                Some((&notice(53, "ann", "again"), &[])),
                T0 + 5 * 3600
            )
            .unwrap());
        let ann = store.user("ann").unwrap().expect("ann");
        assert_eq!(
            (ann.last_digest_at, ann.next_digest_at),
            (Some(T0 + 5 * 3600), Some(T0 + 29 * 3600)),
            "{name}"
        );
        // Nothing to say: the next is planned, the last digest stays.
        assert!(store
            .record_daily("ben", None, Some(T0 + 6 * 3600), None, T0 + 5 * 3600)
            .unwrap());
        let ben = store.user("ben").unwrap().expect("ben");
        assert_eq!(
            (ben.last_digest_at, ben.next_digest_at),
            (None, Some(T0 + 6 * 3600)),
            "{name}"
        );
        let ids: Vec<i64> = store.unsent(10).unwrap().iter().map(|o| o.id).collect();
        assert_eq!(ids, vec![51, 52], "{name}");
        assert!(due(T0 + 5 * 3600).is_empty(), "{name}");
        // Cat's older-rule digest is due a day after her last one (Ben's planned one too).
        assert_eq!(
            due(T0 + 28 * 3600),
            vec!["cat".to_string(), "ben".to_string()],
            "{name}"
        );
        // Two handles sending Ann's next digest at once: once.
        let other = (b.reopen)();
        let sent: Vec<bool> = std::thread::scope(|s| {
            let hs: Vec<_> = [(store.clone(), 54), (other.clone(), 55)]
                .into_iter()
                .map(|(h, id)| {
                    s.spawn(move || {
                        h.record_daily(
                            "ann",
                            Some(T0 + 29 * 3600),
                            Some(T0 + 53 * 3600),
                            Some((&notice(id, "ann", "day two"), &[])),
                            T0 + 29 * 3600,
                        )
                        .expect("record")
                    })
                })
                .collect();
            hs.into_iter()
                .map(|h| h.join().expect("a thread"))
                .collect()
        });
        assert_eq!(sent.iter().filter(|s| **s).count(), 1, "{name}: {sent:?}");
        assert_eq!(store.unsent(10).unwrap().len(), 3, "{name}");
        // No digest any more: none planned, not due.
        store.set_digest("ann", None, None, None).unwrap();
        assert!(!due(T0 + 60 * DAY).contains(&"ann".to_string()), "{name}");
        // Refused: an unknown user, an hour past 23.
        assert!(matches!(
            store.set_digest("nobody", Some(8), None, None),
            Err(StoreError::NotFound)
        ));
        assert!(matches!(
            store.set_digest("dot", Some(24), None, None),
            Err(StoreError::Invalid(_))
        ));
        assert_eq!(store.user("dot").unwrap().expect("dot").digest_hour, None);
        ran(
            "digests_are_found_by_their_planned_time_and_recorded_once",
            name,
        );
    }
}

#[test]
fn what_a_digest_told_of_followed_games_is_recorded_with_it_once() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        for u in ["eve", "fay"] {
            store.touch_user(u, u, T0).unwrap();
        }
        store.follow(g.id, "eve", "digest", T0).unwrap();
        store.follow(g.id, "fay", "ping", T0).unwrap();
        store.set_digest("eve", None, None, Some(T0 + DAY)).unwrap();
        let g = play(store, &g, "7g7f");
        let told = [Told {
            game: g.id,
            ply: 1,
            over: false,
        }];
        let seen = || -> Vec<(String, u32)> {
            store
                .followers_of(g.id)
                .unwrap()
                .into_iter()
                .map(|f| (f.user, f.seen_ply))
                .collect()
        };
        // Another plan than the one read: nothing written.
        assert!(
            !store
                .record_daily(
                    "eve",
                    Some(T0),
                    Some(T0 + 2 * DAY),
                    Some((&notice(61, "eve", "x"), &told[..])),
                    T0 + DAY
                )
                .unwrap(),
            "{name}"
        );
        assert_eq!(
            seen(),
            vec![("eve".to_string(), 0), ("fay".to_string(), 0)],
            "{name}"
        );
        assert!(store.unsent(10).unwrap().is_empty(), "{name}");
        // The digest sent: what it told recorded, for the digest follower only.
        assert!(
            store
                .record_daily(
                    "eve",
                    Some(T0 + DAY),
                    Some(T0 + 2 * DAY),
                    Some((&notice(62, "eve", "1 move"), &told[..])),
                    T0 + DAY
                )
                .unwrap(),
            "{name}"
        );
        assert_eq!(
            seen(),
            vec![("eve".to_string(), 1), ("fay".to_string(), 0)],
            "{name}"
        );
        let eve = store.user("eve").unwrap().expect("eve");
        assert_eq!(
            (eve.last_digest_at, eve.next_digest_at),
            (Some(T0 + DAY), Some(T0 + 2 * DAY)),
            "{name}"
        );
        // Told once: the same digest again is refused, nothing queued twice.
        assert!(!store
            .record_daily(
                "eve",
                Some(T0 + DAY),
                Some(T0 + 2 * DAY),
                Some((&notice(63, "eve", "again"), &told[..])),
                T0 + DAY
            )
            .unwrap());
        let ids: Vec<i64> = store.unsent(10).unwrap().iter().map(|o| o.id).collect();
        assert_eq!(ids, vec![62], "{name}");
        ran(
            "what_a_digest_told_of_followed_games_is_recorded_with_it_once",
            name,
        );
    }
}
