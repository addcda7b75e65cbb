//! The conditional moves (`ConditionalStore`, issue 23) on every backend: lines read back as
//! stored and stored once, a player's lines cleared, lines rewritten in one transaction (and
//! by two handles at once, each new line ending up stored once), and the games whose lines
//! are to be looked at.

use super::*;
use tegami::store::{ConditionalRow, NewConditional};

/// The most lines a player keeps from one position (the core's `MAX_LINES`).
const LINES: usize = 20;

/// Says on standard error that a conditional-move test ran on a backend (the figures of a run).
fn ran(test: &str, backend: &str) {
    say(&format!("conditional store test {test}: ran on {backend}"));
}

/// A line of `user` in `game` from `ply`.
fn line(game: i64, user: &str, ply: u32, moves: &[&str]) -> NewConditional {
    NewConditional {
        game,
        user: user.into(),
        ply,
        position: format!("position after {ply}"),
        moves: moves.iter().map(|m| m.to_string()).collect(),
    }
}

/// Whether `err` is `Invalid`.
fn invalid(err: &StoreError) -> bool {
    matches!(err, StoreError::Invalid(_))
}

#[test]
fn lines_are_read_back_as_stored_and_stored_once() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        let other = new_game(store, "carol", "dan");
        // Bob's line first: oldest first is by id, not by user or ply.
        let bob = store
            .add_conditional(&line(g.id, "bob", 1, &["3c3d"]), LINES, T0 + 1)
            .expect("bob's line");
        let alice = store
            .add_conditional(
                &line(g.id, "alice", 0, &["7g7f", "3c3d", "2g2f"]),
                LINES,
                T0 + 2,
            )
            .expect("alice's line");
        let carol = store
            .add_conditional(&line(other.id, "carol", 0, &["2g2f"]), LINES, T0 + 3)
            .expect("carol's line");
        assert_eq!(
            alice,
            ConditionalRow {
                id: alice.id,
                game: g.id,
                user: "alice".into(),
                ply: 0,
                position: "position after 0".into(),
                moves: vec!["7g7f".into(), "3c3d".into(), "2g2f".into()],
                created_at: T0 + 2,
            },
            "{name}"
        );
        assert_eq!(
            (bob.game, bob.user.as_str(), bob.ply, bob.moves.clone()),
            (g.id, "bob", 1, vec!["3c3d".to_string()]),
            "{name}"
        );
        assert!(bob.id < alice.id, "{name}: ids in the order stored");
        assert_eq!(
            store.conditionals(g.id).unwrap(),
            vec![bob.clone(), alice.clone()],
            "{name}"
        );
        assert_eq!(store.conditionals(other.id).unwrap(), vec![carol], "{name}");
        assert_eq!(store.conditionals(999_999).unwrap(), vec![], "{name}");

        // An equal line (game, user, ply, moves) again: the stored one, even from another
        // position and at another time.
        let again = NewConditional {
            position: "another position".into(),
            ..line(g.id, "alice", 0, &["7g7f", "3c3d", "2g2f"])
        };
        assert_eq!(
            store.add_conditional(&again, LINES, T0 + 9).unwrap(),
            alice,
            "{name}"
        );
        assert_eq!(store.conditionals(g.id).unwrap().len(), 2, "{name}");
        // The same moves from another ply, or by another player, are other lines.
        let later = store
            .add_conditional(
                &line(g.id, "alice", 2, &["7g7f", "3c3d", "2g2f"]),
                LINES,
                T0 + 4,
            )
            .expect("a later line");
        let by_bob = store
            .add_conditional(
                &line(g.id, "bob", 0, &["7g7f", "3c3d", "2g2f"]),
                LINES,
                T0 + 5,
            )
            .expect("bob's same moves");
        assert!(later.id != alice.id && by_bob.id != alice.id, "{name}");
        let stored = vec![bob, alice, later, by_bob];
        assert_eq!(store.conditionals(g.id).unwrap(), stored, "{name}");

        // Refused, nothing stored: no moves, a code with whitespace, an empty code.
        for moves in [
            &[][..],
            &["7g 7f"][..],
            &["7g7f", "3c\t3d"][..],
            &["7g7f", ""][..],
        ] {
            let err = store
                .add_conditional(&line(g.id, "alice", 4, moves), LINES, T0 + 6)
                .expect_err("an invalid line");
            assert!(invalid(&err), "{name}: {moves:?}: {err:?}");
        }
        // A game that does not exist.
        let err = store
            .add_conditional(&line(999_999, "alice", 0, &["7g7f"]), LINES, T0 + 7)
            .expect_err("no such game");
        assert!(matches!(err, StoreError::NotFound), "{name}: {err:?}");
        assert_eq!(store.conditionals(g.id).unwrap(), stored, "{name}");
        assert_eq!(store.conditionals(999_999).unwrap(), vec![], "{name}");
        ran("lines_are_read_back_as_stored_and_stored_once", name);
    }
}

#[test]
fn clearing_removes_one_players_lines_in_one_game() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        let other = new_game(store, "alice", "bob");
        let add = |game: i64, user: &str, ply: u32, m: &str| {
            store
                .add_conditional(&line(game, user, ply, &[m]), LINES, T0)
                .expect("a line")
        };
        add(g.id, "alice", 0, "7g7f");
        let bobs = add(g.id, "bob", 1, "3c3d");
        add(g.id, "alice", 2, "2g2f");
        let elsewhere = add(other.id, "alice", 0, "7g7f");

        assert_eq!(
            store.clear_conditionals(g.id, "alice").unwrap(),
            2,
            "{name}"
        );
        assert_eq!(store.conditionals(g.id).unwrap(), vec![bobs], "{name}");
        assert_eq!(
            store.conditionals(other.id).unwrap(),
            vec![elsewhere.clone()],
            "{name}"
        );
        assert_eq!(
            store.clear_conditionals(g.id, "alice").unwrap(),
            0,
            "{name}"
        );
        assert_eq!(store.clear_conditionals(g.id, "bob").unwrap(), 1, "{name}");
        assert_eq!(store.conditionals(g.id).unwrap(), vec![], "{name}");
        assert_eq!(
            store.clear_conditionals(999_999, "bob").unwrap(),
            0,
            "{name}"
        );
        assert_eq!(
            store.conditionals(other.id).unwrap(),
            vec![elsewhere],
            "{name}"
        );
        ran("clearing_removes_one_players_lines_in_one_game", name);
    }
}

#[test]
fn a_rewrite_is_one_transaction() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let g = new_game(store, "alice", "bob");
        let a1 = store
            .add_conditional(
                &line(g.id, "alice", 0, &["7g7f", "3c3d", "2g2f"]),
                LINES,
                T0,
            )
            .expect("a line");
        let a2 = store
            .add_conditional(&line(g.id, "alice", 0, &["2g2f"]), LINES, T0)
            .expect("a line");
        let b1 = store
            .add_conditional(&line(g.id, "bob", 1, &["3c3d"]), LINES, T0)
            .expect("a line");

        // a1 played out to its third move: it goes, its rest comes in; a2 again is not stored
        // twice; an id that is gone is no error.
        store
            .rewrite_conditionals(
                &[a1.id, 999_999],
                &[
                    line(g.id, "alice", 2, &["2g2f"]),
                    line(g.id, "alice", 0, &["2g2f"]),
                ],
                T0 + 5,
            )
            .expect("a rewrite");
        let rows = store.conditionals(g.id).unwrap();
        assert_eq!(rows.len(), 3, "{name}: {rows:?}");
        assert_eq!(rows[..2], [a2.clone(), b1.clone()], "{name}");
        let rest = rows[2].clone();
        assert_eq!(
            rest,
            ConditionalRow {
                id: rest.id,
                game: g.id,
                user: "alice".into(),
                ply: 2,
                position: "position after 2".into(),
                moves: vec!["2g2f".into()],
                created_at: T0 + 5,
            },
            "{name}"
        );
        assert!(rest.id > b1.id, "{name}");
        // Old ids all gone, nothing new: nothing changes.
        store
            .rewrite_conditionals(&[a1.id], &[], T0 + 6)
            .expect("an empty rewrite");
        assert_eq!(store.conditionals(g.id).unwrap(), rows, "{name}");

        // A new line that is invalid: nothing written, the old lines stay.
        let err = store
            .rewrite_conditionals(
                &[a2.id, b1.id],
                &[line(g.id, "bob", 3, &["8c8d"]), line(g.id, "bob", 3, &[])],
                T0 + 7,
            )
            .expect_err("an invalid line");
        assert!(invalid(&err), "{name}: {err:?}");
        assert_eq!(store.conditionals(g.id).unwrap(), rows, "{name}");
        // A new line of a game that does not exist, found after the old lines were deleted in
        // the transaction: it is undone, the old lines stay and the valid new line is not stored.
        let err = store
            .rewrite_conditionals(
                &[a2.id, b1.id],
                &[
                    line(g.id, "bob", 3, &["8c8d"]),
                    line(999_999, "bob", 3, &["8c8d"]),
                ],
                T0 + 8,
            )
            .expect_err("no such game");
        assert!(matches!(err, StoreError::NotFound), "{name}: {err:?}");
        assert_eq!(store.conditionals(g.id).unwrap(), rows, "{name}");

        // Ids are never given again, even once every line is gone: a rewrite made from an old
        // read deletes nothing newer.
        let old: Vec<i64> = rows.iter().map(|c| c.id).collect();
        store
            .rewrite_conditionals(&old, &[], T0 + 9)
            .expect("every line deleted");
        assert_eq!(store.conditionals(g.id).unwrap(), vec![], "{name}");
        let newer = store
            .add_conditional(&line(g.id, "bob", 1, &["3c3d"]), LINES, T0 + 10)
            .expect("a newer line");
        assert!(
            newer.id > rest.id && !old.contains(&newer.id) && newer.id != a1.id,
            "{name}: id {} given again",
            newer.id
        );
        store
            .rewrite_conditionals(&old, &[], T0 + 11)
            .expect("a stale rewrite");
        assert_eq!(store.conditionals(g.id).unwrap(), vec![newer], "{name}");
        ran("a_rewrite_is_one_transaction", name);
    }
}

/// Two handles on one database (two processes) rewrite the same lines into the same new ones
/// at the same moment, and store the same line: each new line is stored once, the old ones
/// are gone, both adds get the one row.
#[test]
fn two_handles_rewriting_the_same_lines_store_each_new_line_once() {
    const ROUNDS: u32 = 10;
    for b in backends() {
        let name = b.name;
        let handles = [b.shared(), open_locator(&b.locator)];
        let g = new_game(b.store(), "alice", "bob");
        let barrier = std::sync::Barrier::new(2);
        for r in 0..ROUNDS {
            let old: Vec<i64> = [("alice", "7g7f"), ("bob", "3c3d")]
                .into_iter()
                .map(|(user, m)| {
                    b.store()
                        .add_conditional(&line(g.id, user, 2 * r, &[m, "2g2f"]), LINES, T0)
                        .expect("an old line")
                        .id
                })
                .collect();
            let new = [
                line(g.id, "alice", 2 * r + 1, &["3c3d", "2g2f"]),
                line(g.id, "bob", 2 * r + 1, &["2g2f"]),
            ];
            let extra = line(g.id, "carol", r, &["5g5f"]);
            let added: Vec<ConditionalRow> = std::thread::scope(|s| {
                let runs: Vec<_> = handles
                    .iter()
                    .enumerate()
                    .map(|(h, store)| {
                        let (old, new, extra, barrier) = (&old, &new, &extra, &barrier);
                        s.spawn(move || {
                            barrier.wait();
                            store
                                .rewrite_conditionals(old, new, T0 + 1)
                                .unwrap_or_else(|e| panic!("{name}: handle {h}: rewrite: {e}"));
                            barrier.wait();
                            store
                                .add_conditional(extra, LINES, T0 + 2)
                                .unwrap_or_else(|e| panic!("{name}: handle {h}: add: {e}"))
                        })
                    })
                    .collect();
                runs.into_iter()
                    .map(|r| r.join().expect("a racing handle"))
                    .collect()
            });
            assert_eq!(
                added[0], added[1],
                "{name}: round {r}: one row for both adds"
            );
            let rows = b.store().conditionals(g.id).unwrap();
            for id in &old {
                assert!(
                    rows.iter().all(|c| c.id != *id),
                    "{name}: round {r}: old line {id} gone"
                );
            }
            for n in new.iter().chain([&extra]) {
                let stored = rows
                    .iter()
                    .filter(|c| c.user == n.user && c.ply == n.ply && c.moves == n.moves)
                    .count();
                assert_eq!(stored, 1, "{name}: round {r}: {n:?} stored once");
            }
            assert_eq!(
                rows.len() as u32,
                3 * (r + 1),
                "{name}: round {r}: {rows:?}"
            );
        }
        ran(
            "two_handles_rewriting_the_same_lines_store_each_new_line_once",
            name,
        );
    }
}

#[test]
fn the_games_with_lines_to_look_at_are_listed() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let add = |game: i64, user: &str, ply: u32, m: &str| {
            store
                .add_conditional(&line(game, user, ply, &[m]), LINES, T0)
                .expect("a line")
        };
        // Alice to move at ply 0; bob's line from ply 0 waits for her move.
        let waiting = new_game(store, "alice", "bob");
        add(waiting.id, "bob", 0, "3c3d");
        // Carol to move at ply 0 and two lines of hers from there: listed once.
        let turn = new_game(store, "carol", "dan");
        add(turn.id, "carol", 0, "7g7f");
        add(turn.id, "carol", 0, "2g2f");
        // Eve's line from ply 0, and eve played: behind (fay to move).
        let behind = new_game(store, "eve", "fay");
        add(behind.id, "eve", 0, "7g7f");
        let behind = play(store, &behind, "7g7f");
        assert_eq!(behind.to_move.as_deref(), Some("fay"), "{name}");
        // A line ahead of its game (left by a takeback), of the player to move: not yet.
        let ahead = new_game(store, "gil", "hal");
        add(ahead.id, "gil", 4, "7g7f");
        // A finished game with a line from its last ply: listed (its lines are to be deleted).
        let over = new_game(store, "ivy", "jon");
        let over_line = add(over.id, "ivy", 0, "7g7f");
        let ended = store
            .finish_game(
                over.id,
                over.version,
                &finish(&resignation(), vec![]),
                T0 + 1,
            )
            .expect("ends");
        assert_eq!(ended.status, GameStatus::Finished, "{name}");
        // A game without lines.
        new_game(store, "kim", "lee");

        let mut want = vec![turn.id, behind.id, over.id];
        want.sort_unstable();
        assert_eq!(store.conditional_games(100).unwrap(), want, "{name}");
        assert_eq!(store.conditional_games(2).unwrap(), want[..2], "{name}");
        assert_eq!(store.conditional_games(1).unwrap(), want[..1], "{name}");
        assert!(store.conditional_games(0).unwrap().is_empty(), "{name}");

        // Alice plays: bob's line is behind now. Carol's lines cleared, the finished game's
        // lines deleted: those games drop out.
        play(store, &waiting, "7g7f");
        store.clear_conditionals(turn.id, "carol").unwrap();
        store
            .rewrite_conditionals(&[over_line.id], &[], T0 + 2)
            .expect("a rewrite");
        let mut want = vec![waiting.id, behind.id];
        want.sort_unstable();
        assert_eq!(store.conditional_games(100).unwrap(), want, "{name}");
        ran("the_games_with_lines_to_look_at_are_listed", name);
    }
}
