//! The league tables (`LeagueStore`, issue 22) on every backend: a league read back as created,
//! players joining and leaving, a round started once with its games and notices (however many
//! handles try at once), pairings settled without the board, leagues ended, and a round whose
//! games cannot all be made leaving nothing behind. Each change is guarded by the league's
//! version: a stale one writes nothing.

use super::*;
use tegami::store::{
    Decision, Joined, LeaguePlayerRow, LeagueRow, LeagueStatus, NewLeague, NewPairing, PairingRow,
    RoundStart, Settle, TimeControl,
};

const GUILD: &str = "guild-1";
const HOME: &str = "league-channel";

/// Says on standard error that a league test ran on a backend (the figures of a run).
fn ran(test: &str, backend: &str) {
    say(&format!("league store test {test}: ran on {backend}"));
}

/// A Swiss league of `GUILD` with every optional field set.
fn swiss(name: &str, max_players: Option<u32>) -> NewLeague {
    NewLeague {
        guild: GUILD.into(),
        channel: Some(HOME.into()),
        name: name.into(),
        variant: "shogi".into(),
        control: TimeControl::per_move(3),
        format: "swiss".into(),
        rounds: Some(5),
        rated: true,
        schedule: "rounds".into(),
        round_days: Some(7),
        max_players,
        rating_min: Some(1200),
        rating_max: Some(2000),
        creator: "organiser".into(),
    }
}

/// A round robin of `guild` with every optional field left out.
fn round_robin(guild: &str, name: &str) -> NewLeague {
    NewLeague {
        guild: guild.into(),
        channel: None,
        name: name.into(),
        variant: "xiangqi".into(),
        control: TimeControl::per_move(5),
        format: "round-robin".into(),
        rounds: None,
        rated: false,
        schedule: "all".into(),
        round_days: None,
        max_players: None,
        rating_min: None,
        rating_max: None,
        creator: "someone".into(),
    }
}

/// A notice to `user` about no game (yet).
fn notice(id: i64, user: &str, text: &str) -> NewNotice {
    NewNotice {
        id,
        game: None,
        user: user.into(),
        via: "mention".into(),
        channel: Some(HOME.into()),
        text: text.into(),
        ply: None,
        league: None,
    }
}

/// The game of a league pairing: `a` (first, to move) against `b`.
fn league_game(a: &str, b: &str) -> NewGame {
    NewGame {
        variant: "shogi".into(),
        setup: None,
        start_position: START.into(),
        players: [a.into(), b.into()],
        guild: Some(GUILD.into()),
        channel: Some(HOME.into()),
        rated: true,
        control: TimeControl::per_move(3),
        deadline: Some(T0 + 3 * DAY),
        banks: [0, 0],
        turn_span: i64::from(3) * 86_400,
        to_move: a.into(),
        computer_level: None,
    }
}

/// A pairing with its game now (a notice to each player, `{game}` its number), or without one
/// (`second` `None`: a bye; else a later round's).
fn pairing(round: u32, board: u32, first: &str, second: Option<&str>, play: bool) -> NewPairing {
    let game = second.filter(|_| play).map(|s| league_game(first, s));
    let notices = match second.filter(|_| play) {
        Some(s) => vec![
            notice(
                notice_id(round, board, 1),
                first,
                &format!("round {round}: game #{{game}} against {s}"),
            ),
            notice(
                notice_id(round, board, 2),
                s,
                &format!("round {round}: game #{{game}} against {first}"),
            ),
        ],
        None => Vec::new(),
    };
    NewPairing {
        round,
        board,
        first: first.into(),
        second: second.map(Into::into),
        game,
        notices,
    }
}

/// The id of a pairing's notice (`which`: 1 the first player's, 2 the second's).
fn notice_id(round: u32, board: u32, which: u32) -> i64 {
    i64::from(10_000 + round * 100 + board * 10 + which)
}

/// Creates users (the games' players must exist).
fn users(store: &dyn Store, names: &[&str]) {
    for u in names {
        store.touch_user(u, u, T0).expect("a user");
    }
}

/// A league created in `GUILD` with `players` joined (one a second from `T0 + 1`), as read.
fn league_of(store: &dyn Store, l: &NewLeague, players: &[&str]) -> LeagueRow {
    users(store, players);
    let row = store.create_league(l, &[], T0).expect("a league");
    for (i, p) in players.iter().enumerate() {
        let joined = store
            .join_league(row.id, p, &[], T0 + 1 + i as i64)
            .expect("joins");
        assert_eq!(joined, Joined::Joined, "{p}");
    }
    store.league(row.id).unwrap().expect("the league")
}

/// Round 1 of a league of four, both boards played now, and the league's post naming both
/// games (notice ids from `ids`).
fn round_one(l: &LeagueRow, p: [&str; 4], ids: i64) -> RoundStart {
    let mut pairings = vec![
        pairing(1, 1, p[0], Some(p[3]), true),
        pairing(1, 2, p[1], Some(p[2]), true),
    ];
    for (i, n) in pairings
        .iter_mut()
        .flat_map(|p| p.notices.iter_mut())
        .enumerate()
    {
        n.id = ids + 1 + i as i64;
    }
    RoundStart {
        league: l.id,
        version: l.version,
        round: 1,
        rounds: None,
        seeds: p
            .iter()
            .enumerate()
            .map(|(i, u)| (u.to_string(), i as u32))
            .collect(),
        pairings,
        notices: vec![notice(
            ids,
            "organiser",
            "round 1: #{game@1.1} and #{game@1.2}",
        )],
    }
}

/// One number from the backend's database, past the store (`SELECT COUNT(*) …`).
fn scalar(b: &Backend, sql: &str) -> i64 {
    match b.locator.split_once(':') {
        Some(("sqlite", path)) => {
            let c = rusqlite::Connection::open(path).expect("open SQLite");
            c.busy_timeout(std::time::Duration::from_secs(10))
                .expect("busy timeout");
            c.query_row(sql, [], |r| r.get(0)).expect(sql)
        }
        Some(("postgres", url)) => {
            let mut c = postgres::Client::connect(url, postgres::NoTls).expect("connect");
            c.query_one(sql, &[]).expect(sql).get(0)
        }
        _ => panic!("not a store locator: {}", b.locator),
    }
}

/// How many games the database holds, every league's and every other.
fn games_count(b: &Backend) -> i64 {
    scalar(b, "SELECT COUNT(*) FROM games")
}

/// The outbox's unsent notices, by id.
fn outbox(store: &dyn Store) -> Vec<OutboxRow> {
    let mut rows = store.unsent(10_000).expect("the outbox");
    rows.sort_by_key(|o| o.id);
    rows
}

/// The notices as queued at `now`: `game` and `text` as the store should have made them.
fn queued(notices: Vec<NewNotice>, now: i64) -> Vec<OutboxRow> {
    let mut rows: Vec<OutboxRow> = notices
        .into_iter()
        .map(|n| OutboxRow {
            id: n.id,
            notice: n,
            created_at: now,
        })
        .collect();
    rows.sort_by_key(|o| o.id);
    rows
}

/// A league is read back with every field as created (and its notices' `{league}` filled);
/// `leagues_in` lists only that server's, newest first; `set_league_thread` records the thread.
#[test]
fn a_league_is_read_back_as_created() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let created = store
            .create_league(
                &swiss("Spring", Some(8)),
                &[notice(1, "organiser", "league #{league} is open")],
                T0,
            )
            .expect("a league");
        let expected = LeagueRow {
            id: created.id,
            guild: GUILD.into(),
            channel: Some(HOME.into()),
            thread: None,
            name: "Spring".into(),
            variant: "shogi".into(),
            control: TimeControl::per_move(3),
            format: "swiss".into(),
            rounds: Some(5),
            rated: true,
            schedule: "rounds".into(),
            round_days: Some(7),
            max_players: Some(8),
            rating_min: Some(1200),
            rating_max: Some(2000),
            creator: "organiser".into(),
            status: LeagueStatus::Open,
            round: 0,
            round_started_at: None,
            created_at: T0,
            started_at: None,
            finished_at: None,
            version: 0,
        };
        assert_eq!(created, expected, "{name}");
        assert_eq!(store.league(created.id).unwrap(), Some(expected), "{name}");
        let text = format!("league #{} is open", created.id);
        assert_eq!(
            outbox(store),
            queued(
                vec![NewNotice {
                    text,
                    ..notice(1, "organiser", "")
                }],
                T0
            ),
            "{name}: the creation's notice, {{league}} filled"
        );
        // Every optional field left out, and a league of another server.
        let bare = store
            .create_league(&round_robin(GUILD, "Summer"), &[], T0 + 1)
            .expect("a league");
        assert_eq!(
            bare,
            LeagueRow {
                id: bare.id,
                guild: GUILD.into(),
                channel: None,
                thread: None,
                name: "Summer".into(),
                variant: "xiangqi".into(),
                control: TimeControl::per_move(5),
                format: "round-robin".into(),
                rounds: None,
                rated: false,
                schedule: "all".into(),
                round_days: None,
                max_players: None,
                rating_min: None,
                rating_max: None,
                creator: "someone".into(),
                status: LeagueStatus::Open,
                round: 0,
                round_started_at: None,
                created_at: T0 + 1,
                started_at: None,
                finished_at: None,
                version: 0,
            },
            "{name}"
        );
        let elsewhere = store
            .create_league(&round_robin("guild-2", "Elsewhere"), &[], T0 + 2)
            .expect("a league");
        assert_ne!(elsewhere.id, bare.id, "{name}");
        let ids = |rows: Vec<LeagueRow>| rows.into_iter().map(|l| l.id).collect::<Vec<_>>();
        assert_eq!(
            ids(store.leagues_in(GUILD, 10).unwrap()),
            [bare.id, created.id],
            "{name}: that server's only, newest first"
        );
        assert_eq!(
            ids(store.leagues_in(GUILD, 1).unwrap()),
            [bare.id],
            "{name}: up to the limit"
        );
        assert_eq!(
            store.leagues_in("guild-2", 10).unwrap(),
            vec![elsewhere],
            "{name}"
        );
        assert!(
            store.leagues_in("guild-3", 10).unwrap().is_empty(),
            "{name}"
        );
        assert_eq!(store.league(created.id + 1_000).unwrap(), None, "{name}");
        // The thread, recorded, replaced and forgotten (gone: `None`); nothing else changes.
        for thread in ["thread-1", "thread-2"] {
            store
                .set_league_thread(created.id, Some(thread))
                .expect("a thread");
            let now = store.league(created.id).unwrap().expect("the league");
            assert_eq!(now.thread.as_deref(), Some(thread), "{name}");
            assert_eq!(
                LeagueRow {
                    thread: None,
                    version: created.version,
                    ..now.clone()
                },
                created,
                "{name}: only the thread changed"
            );
            assert!(now.version >= created.version, "{name}");
        }
        store
            .set_league_thread(created.id, None)
            .expect("no thread");
        assert_eq!(
            store
                .league(created.id)
                .unwrap()
                .expect("the league")
                .thread,
            None,
            "{name}"
        );
        assert_eq!(
            store.league(bare.id).unwrap().expect("the other").thread,
            None,
            "{name}: the other league keeps none"
        );
        ran("a_league_is_read_back_as_created", name);
    }
}

/// Joining: once (`AlreadyIn` after), up to `max_players` (`Full`), only while open (`NotOpen`),
/// each join's notices queued only when it joined; leaving while open deletes the player;
/// after the start leaving is refused, and a withdrawal (a settlement) keeps the row with its
/// status and when.
#[test]
fn players_join_and_leave_an_open_league() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        users(store, &["ann", "ben", "cat", "dan", "eve"]);
        let l = store
            .create_league(&swiss("Spring", Some(3)), &[], T0)
            .expect("a league");
        let version = |store: &dyn Store| store.league(l.id).unwrap().expect("league").version;
        let join = |user: &str, id: i64, at: i64| {
            store
                .join_league(l.id, user, &[notice(id, user, "joined")], at)
                .expect("a join")
        };
        assert_eq!(join("ann", 1, T0 + 1), Joined::Joined, "{name}");
        let v1 = version(store);
        assert!(v1 > l.version, "{name}: a join moves the league on");
        assert_eq!(join("ann", 2, T0 + 2), Joined::AlreadyIn, "{name}");
        assert_eq!(version(store), v1, "{name}: nothing changed");
        assert_eq!(join("ben", 3, T0 + 3), Joined::Joined, "{name}");
        assert_eq!(join("cat", 4, T0 + 4), Joined::Joined, "{name}");
        let v3 = version(store);
        assert_eq!(
            join("dan", 5, T0 + 5),
            Joined::Full,
            "{name}: max_players 3"
        );
        assert_eq!(version(store), v3, "{name}: nothing changed");
        assert_eq!(
            ids_of(outbox(store)),
            [1, 3, 4],
            "{name}: only the joins' notices"
        );
        // Leaving while open: the row goes, room again.
        let bye = [notice(6, "ben", "left")];
        assert!(
            store.leave_league(l.id, "ben", &bye, T0 + 6).unwrap(),
            "{name}"
        );
        assert!(version(store) > v3, "{name}: a leave moves the league on");
        let v4 = version(store);
        assert!(
            !store
                .leave_league(l.id, "ben", &[notice(7, "ben", "left")], T0 + 7)
                .unwrap(),
            "{name}: not in it any more"
        );
        assert!(
            !store
                .leave_league(l.id, "zed", &[notice(8, "zed", "left")], T0 + 7)
                .unwrap(),
            "{name}: never in it"
        );
        assert_eq!(version(store), v4, "{name}: nothing changed");
        assert_eq!(join("dan", 9, T0 + 8), Joined::Joined, "{name}: room again");
        assert_eq!(ids_of(outbox(store)), [1, 3, 4, 6, 9], "{name}");
        let player = |user: &str, joined_at: i64| LeaguePlayerRow {
            league: l.id,
            user: user.into(),
            joined_at,
            status: "active".into(),
            left_at: None,
            seed: None,
        };
        assert_eq!(
            store.league_players(l.id).unwrap(),
            vec![
                player("ann", T0 + 1),
                player("cat", T0 + 4),
                player("dan", T0 + 8)
            ],
            "{name}: in the order they joined"
        );
        assert!(
            matches!(
                store.join_league(l.id + 1_000, "ann", &[], T0),
                Err(StoreError::NotFound)
            ),
            "{name}: no such league"
        );
        // Started: nobody joins or leaves any more; the seeds are fixed.
        let l = store.league(l.id).unwrap().expect("league");
        let start = RoundStart {
            league: l.id,
            version: l.version,
            round: 1,
            rounds: None,
            seeds: vec![("cat".into(), 0), ("ann".into(), 1), ("dan".into(), 2)],
            pairings: vec![
                pairing(1, 1, "cat", Some("dan"), true),
                pairing(1, 2, "ann", None, false),
            ],
            notices: vec![],
        };
        store.start_round(&start, T0 + 10).expect("round 1");
        let started = version(store);
        assert_eq!(join("eve", 20, T0 + 11), Joined::NotOpen, "{name}");
        assert!(
            !store
                .leave_league(l.id, "ann", &[notice(21, "ann", "left")], T0 + 11)
                .unwrap(),
            "{name}: leaving a started league is a withdrawal, not a leave"
        );
        assert_eq!(version(store), started, "{name}: nothing changed");
        assert!(
            !ids_of(outbox(store)).iter().any(|id| [20, 21].contains(id)),
            "{name}: no notice of a refused join or leave"
        );
        let seeded = |user: &str, joined_at: i64, seed: u32| LeaguePlayerRow {
            seed: Some(seed),
            ..player(user, joined_at)
        };
        assert_eq!(
            store.league_players(l.id).unwrap(),
            vec![
                seeded("ann", T0 + 1, 1),
                seeded("cat", T0 + 4, 0),
                seeded("dan", T0 + 8, 2)
            ],
            "{name}"
        );
        // A withdrawal after the start: the row stays, with its status and when.
        let settle = Settle {
            league: l.id,
            version: started,
            players: vec![("ann".into(), "withdrawn".into())],
            ..Settle::default()
        };
        store.settle_league(&settle, T0 + 12).expect("a withdrawal");
        let players = store.league_players(l.id).unwrap();
        assert_eq!(
            players,
            vec![
                LeaguePlayerRow {
                    status: "withdrawn".into(),
                    left_at: Some(T0 + 12),
                    ..seeded("ann", T0 + 1, 1)
                },
                seeded("cat", T0 + 4, 0),
                seeded("dan", T0 + 8, 2)
            ],
            "{name}"
        );
        assert!(!players[0].active() && players[1].active(), "{name}");
        ran("players_join_and_leave_an_open_league", name);
    }
}

/// A round starts in one transaction: its pairings and their games, the notices with `{game}`
/// and `{game@R.B}` filled, the league running at that round with a new version, the seeds
/// fixed; a later round robin round stored without games gets them when it starts. Starting
/// from a stale version is a `Conflict` that makes no game and queues no notice.
#[test]
fn a_round_starts_with_its_games_and_notices() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let p = ["ann", "ben", "cat", "dan"];
        let rr = NewLeague {
            schedule: "rounds".into(),
            channel: Some(HOME.into()),
            rated: true,
            variant: "shogi".into(),
            ..round_robin(GUILD, "Round robin")
        };
        let l = league_of(store, &rr, &p);
        let (games_before, outbox_before) = (games_count(&b), outbox(store));
        // Round 1 played now; round 2 stored for later (no games yet); a post for the round.
        let mut start = round_one(&l, p, 100);
        start.rounds = Some(3);
        start
            .pairings
            .push(pairing(2, 1, "dan", Some("cat"), false));
        start
            .pairings
            .push(pairing(2, 2, "ann", Some("ben"), false));
        let at = T0 + DAY;
        let stored = store.start_round(&start, at).expect("round 1");
        assert_eq!(games_count(&b), games_before + 2, "{name}: two games");
        let (g1, g2) = match &stored[..] {
            [PairingRow { game: Some(g1), .. }, PairingRow { game: Some(g2), .. }, PairingRow { game: None, .. }, PairingRow { game: None, .. }] => {
                (*g1, *g2)
            }
            _ => panic!("{name}: round 1's two games, round 2 waiting: {stored:?}"),
        };
        let row = |round, board, first: &str, second: &str, game| PairingRow {
            league: l.id,
            round,
            board,
            first: first.into(),
            second: Some(second.into()),
            game,
            outcome: None,
        };
        let expected = vec![
            row(1, 1, "ann", "dan", Some(g1)),
            row(1, 2, "ben", "cat", Some(g2)),
            row(2, 1, "dan", "cat", None),
            row(2, 2, "ann", "ben", None),
        ];
        assert_eq!(
            stored, expected,
            "{name}: every pairing, by round and board"
        );
        assert_eq!(store.pairings(l.id).unwrap(), expected, "{name}");
        assert_eq!(
            store.pairing_of_game(g2).unwrap(),
            Some(expected[1].clone()),
            "{name}"
        );
        // The games, as given.
        for (g, [a, z]) in [(g1, ["ann", "dan"]), (g2, ["ben", "cat"])] {
            let game = store.game(g).unwrap().expect("the game");
            assert_eq!(game.players, [a.to_string(), z.to_string()], "{name}");
            assert_eq!(game.status, GameStatus::Active, "{name}");
            assert_eq!(game.to_move.as_deref(), Some(a), "{name}");
            assert_eq!(game.guild.as_deref(), Some(GUILD), "{name}");
            assert_eq!(game.channel.as_deref(), Some(HOME), "{name}");
            assert_eq!(game.deadline, Some(T0 + 3 * DAY), "{name}");
            assert!(game.rated, "{name}");
            assert_eq!(game.created_at, at, "{name}");
        }
        // The notices: each pairing's about its game, `{game}` its number; the post with both.
        let about = |id: i64, user: &str, game: i64, text: String| NewNotice {
            id,
            game: Some(game),
            text,
            ..notice(id, user, "")
        };
        let mut want = outbox_before.clone();
        want.extend(queued(
            vec![
                NewNotice {
                    text: format!("round 1: #{g1} and #{g2}"),
                    ..notice(100, "organiser", "")
                },
                about(101, "ann", g1, format!("round 1: game #{g1} against dan")),
                about(102, "dan", g1, format!("round 1: game #{g1} against ann")),
                about(103, "ben", g2, format!("round 1: game #{g2} against cat")),
                about(104, "cat", g2, format!("round 1: game #{g2} against ben")),
            ],
            at,
        ));
        want.sort_by_key(|o| o.id);
        assert_eq!(outbox(store), want, "{name}");
        // The league: running, round 1, its rounds set, a new version; the seeds fixed.
        let running = store.league(l.id).unwrap().expect("the league");
        assert_eq!(
            running,
            LeagueRow {
                status: LeagueStatus::Running,
                round: 1,
                rounds: Some(3),
                round_started_at: Some(at),
                started_at: Some(at),
                version: running.version,
                ..l.clone()
            },
            "{name}"
        );
        assert!(running.version > l.version, "{name}: a new version");
        let seeds: Vec<(String, Option<u32>)> = store
            .league_players(l.id)
            .unwrap()
            .into_iter()
            .map(|p| (p.user, p.seed))
            .collect();
        assert_eq!(
            seeds,
            [("ann", 0), ("ben", 1), ("cat", 2), ("dan", 3)].map(|(u, s)| (u.to_string(), Some(s))),
            "{name}"
        );
        // The same start again, from the version it was computed from: a conflict, and
        // nothing at all is written.
        let mut again = start.clone();
        for (i, n) in again
            .notices
            .iter_mut()
            .chain(again.pairings.iter_mut().flat_map(|p| p.notices.iter_mut()))
            .enumerate()
        {
            n.id = 500 + i as i64;
        }
        let err = store
            .start_round(&again, at + 1)
            .expect_err("a stale version");
        assert!(matches!(err, StoreError::Conflict), "{name}: {err:?}");
        assert_eq!(games_count(&b), games_before + 2, "{name}: no game made");
        assert_eq!(outbox(store), want, "{name}: no notice queued");
        assert_eq!(store.pairings(l.id).unwrap(), expected, "{name}");
        assert_eq!(store.league(l.id).unwrap(), Some(running.clone()), "{name}");
        // Round 2, stored without games, gets them (and its notices) when it starts.
        let round_two = RoundStart {
            league: l.id,
            version: running.version,
            round: 2,
            rounds: None,
            seeds: vec![],
            pairings: vec![
                pairing(2, 1, "dan", Some("cat"), true),
                pairing(2, 2, "ann", Some("ben"), true),
            ],
            notices: vec![notice(
                200,
                "organiser",
                "round 2: #{game@2.1}, #{game@2.2}",
            )],
        };
        let later = at + 7 * DAY;
        let stored = store.start_round(&round_two, later).expect("round 2");
        assert_eq!(games_count(&b), games_before + 4, "{name}: two more games");
        let (g3, g4) = (stored[2].game.expect("2.1"), stored[3].game.expect("2.2"));
        assert!(![g1, g2].contains(&g3) && g3 != g4, "{name}: new games");
        let expected = vec![
            row(1, 1, "ann", "dan", Some(g1)),
            row(1, 2, "ben", "cat", Some(g2)),
            row(2, 1, "dan", "cat", Some(g3)),
            row(2, 2, "ann", "ben", Some(g4)),
        ];
        assert_eq!(stored, expected, "{name}");
        assert_eq!(store.pairings(l.id).unwrap(), expected, "{name}");
        let post = outbox(store)
            .into_iter()
            .find(|o| o.id == 200)
            .expect("the round's post");
        assert_eq!(post.notice.text, format!("round 2: #{g3}, #{g4}"), "{name}");
        let two = store.league(l.id).unwrap().expect("the league");
        assert_eq!(
            (two.round, two.round_started_at, two.started_at, two.rounds),
            (2, Some(later), Some(at), Some(3)),
            "{name}: the first start kept, the rounds kept"
        );
        assert!(two.version > running.version, "{name}");
        // A board that has its game is not given another (from the league's version as it is):
        // refused, nothing written (the game it has would belong to no pairing).
        let mut replay = round_two.clone();
        replay.version = two.version;
        for (i, n) in replay
            .notices
            .iter_mut()
            .chain(
                replay
                    .pairings
                    .iter_mut()
                    .flat_map(|p| p.notices.iter_mut()),
            )
            .enumerate()
        {
            n.id = 700 + i as i64;
        }
        let queued_before = outbox(store);
        let err = store
            .start_round(&replay, later + 1)
            .expect_err("boards that have their games");
        assert!(matches!(err, StoreError::Invalid(_)), "{name}: {err:?}");
        assert_eq!(games_count(&b), games_before + 4, "{name}: no game made");
        assert_eq!(store.pairings(l.id).unwrap(), expected, "{name}");
        assert_eq!(store.league(l.id).unwrap(), Some(two), "{name}");
        assert_eq!(outbox(store), queued_before, "{name}: no notice queued");
        ran("a_round_starts_with_its_games_and_notices", name);
    }
}

/// Two handles (two processes) start the same round of the same league at the same moment,
/// each from the league as it read it: the round is made once (one set of pairings, games and
/// notices), the other gets `Conflict`. On PostgreSQL, a league another transaction holds is
/// a `Conflict` at once rather than a wait.
#[test]
fn two_handles_starting_the_same_round_start_it_once() {
    const LEAGUES: usize = 12;
    for b in backends() {
        let name = b.name;
        let handles = [b.shared(), open_locator(&b.locator)];
        let mut wins = [0; 2];
        for i in 0..LEAGUES {
            let p = ["ann", "ben", "cat", "dan"];
            let l = league_of(b.store(), &swiss(&format!("League {i}"), None), &p);
            let games_before = games_count(&b);
            let outbox_before = outbox(b.store()).len();
            // Each reads the league on its own handle, then both start round 1 at once.
            let reads: Vec<LeagueRow> = handles
                .iter()
                .map(|h| h.league(l.id).unwrap().expect("the league"))
                .collect();
            assert_eq!(reads[0], reads[1], "{name}");
            let barrier = std::sync::Barrier::new(2);
            let results: Vec<Result<Vec<PairingRow>, StoreError>> = std::thread::scope(|s| {
                let runs: Vec<_> = handles
                    .iter()
                    .zip(&reads)
                    .enumerate()
                    .map(|(h, (store, read))| {
                        let barrier = &barrier;
                        let start = round_one(read, p, (1 + i * 2 + h) as i64 * 1_000);
                        s.spawn(move || {
                            barrier.wait();
                            store.start_round(&start, T0 + DAY)
                        })
                    })
                    .collect();
                runs.into_iter()
                    .map(|r| r.join().expect("a starting handle"))
                    .collect()
            });
            let winner = match (&results[0], &results[1]) {
                (Ok(_), Err(StoreError::Conflict)) => 0,
                (Err(StoreError::Conflict), Ok(_)) => 1,
                other => panic!("{name}: league {i}: one start and one conflict: {other:?}"),
            };
            wins[winner] += 1;
            let stored = results[winner].as_ref().expect("the winner's pairings");
            assert_eq!(stored.len(), 2, "{name}: one round of two boards");
            assert_eq!(
                store_pairings(b.store(), l.id),
                *stored,
                "{name}: exactly the winner's round"
            );
            assert_eq!(
                games_count(&b),
                games_before + 2,
                "{name}: one set of games"
            );
            let ids = ids_of(outbox(b.store()));
            assert_eq!(ids.len(), outbox_before + 5, "{name}: one set of notices");
            let base = (1 + i * 2 + winner) as i64 * 1_000;
            assert!(
                (base..base + 5).all(|id| ids.contains(&id)),
                "{name}: the winner's notices"
            );
            let after = b.store().league(l.id).unwrap().expect("the league");
            assert_eq!((after.round, after.status), (1, LeagueStatus::Running));
            assert!(after.version > l.version, "{name}");
        }
        say(&format!(
            "{name}: two handles starting {LEAGUES} rounds at once: won {} and {}",
            wins[0], wins[1]
        ));
        // PostgreSQL: a league another transaction holds is left to it, not waited for.
        if let Some(url) = b.locator.strip_prefix("postgres:") {
            let store = b.store();
            let p = ["eve", "fay", "gus", "hal"];
            let l = league_of(store, &swiss("Held", None), &p);
            let games_before = games_count(&b);
            let start = round_one(&l, p, 90_000);
            let mut other = postgres::Client::connect(url, postgres::NoTls).expect("connect");
            let mut tx = other.transaction().expect("a transaction");
            tx.query("SELECT id FROM leagues WHERE id = $1 FOR UPDATE", &[&l.id])
                .expect("hold the league");
            let (tell, told) = std::sync::mpsc::channel();
            let held = std::thread::scope(|s| {
                let start = &start;
                s.spawn(move || {
                    let _ = tell.send(store.start_round(start, T0 + DAY));
                });
                let held = told.recv_timeout(std::time::Duration::from_secs(10));
                // Let go in any case (a start that waited then goes through).
                tx.rollback().expect("let go");
                held
            });
            let held = held.expect("a held league is not waited for");
            assert!(
                matches!(held, Err(StoreError::Conflict)),
                "{name}: {held:?}"
            );
            assert_eq!(games_count(&b), games_before, "{name}: no game");
            assert!(store.pairings(l.id).unwrap().is_empty(), "{name}");
            assert_eq!(store.league(l.id).unwrap(), Some(l.clone()), "{name}");
            // Let go: it starts.
            assert_eq!(store.start_round(&start, T0 + DAY).unwrap().len(), 2);
            assert_eq!(games_count(&b), games_before + 2, "{name}");
        }
        ran("two_handles_starting_the_same_round_start_it_once", name);
    }
}

/// Board `board` of round 1 settled as `outcome`, its game (if still active) ending as `end`.
fn decision(board: u32, outcome: &str, end: Ending, whatever_the_game: bool) -> Decision {
    Decision {
        round: 1,
        board,
        outcome: outcome.into(),
        end: Some(end),
        whatever_the_game,
    }
}

fn store_pairings(store: &dyn Store, league: i64) -> Vec<PairingRow> {
    store.pairings(league).expect("the pairings")
}

/// A settlement applies together the players' new statuses, the pairings' outcomes (forfeits
/// either way, annulled, adjudicated draw), the games' endings (unrated, each game's version
/// moved on; a game that ended meanwhile keeps its own result, and its pairing too unless
/// annulled) and its notices; from a stale version it changes nothing.
#[test]
fn a_settlement_applies_outcomes_players_and_endings_together() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let p = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8"];
        let l = league_of(store, &swiss("Autumn", None), &p);
        let start = RoundStart {
            league: l.id,
            version: l.version,
            round: 1,
            rounds: None,
            seeds: vec![],
            pairings: (0..4)
                .map(|i| pairing(1, i as u32 + 1, p[2 * i], Some(p[2 * i + 1]), true))
                .collect(),
            notices: vec![],
        };
        let stored = store.start_round(&start, T0 + DAY).expect("round 1");
        let games: Vec<i64> = stored.iter().map(|p| p.game.expect("a game")).collect();
        // Board 4's game ends on the board before the settlement.
        let g4 = store.game(games[3]).unwrap().expect("game 4");
        store
            .finish_game(
                g4.id,
                g4.version,
                &finish(&resignation(), vec![]),
                T0 + DAY + 5,
            )
            .expect("a resignation");
        let g4 = store.game(games[3]).unwrap().expect("game 4");
        let before = store.league(l.id).unwrap().expect("the league");
        let (players_before, pairings_before) = (
            store.league_players(l.id).unwrap(),
            store.pairings(l.id).unwrap(),
        );
        let games_before: Vec<_> = games
            .iter()
            .map(|g| store.game(*g).unwrap().expect("a game"))
            .collect();
        let outbox_before = outbox(store);
        let ending = |result, reason: &str| Ending {
            result,
            reason: reason.into(),
        };
        let settle = |version| Settle {
            league: l.id,
            version,
            players: vec![
                ("p2".into(), "withdrawn".into()),
                ("p3".into(), "removed".into()),
            ],
            decisions: vec![
                decision(
                    1,
                    "forfeit-first",
                    ending(GameResult::First, "forfeit"),
                    false,
                ),
                decision(
                    2,
                    "forfeit-second",
                    ending(GameResult::Second, "forfeit"),
                    false,
                ),
                decision(3, "annulled", ending(GameResult::Draw, "annulled"), true),
                decision(
                    4,
                    "adjudicated-draw",
                    ending(GameResult::Draw, "adjudication"),
                    false,
                ),
            ],
            notices: vec![
                notice(301, "p2", "you withdrew"),
                notice(302, "organiser", "round 1 settled"),
            ],
        };
        // From a version before the start: refused, nothing changed.
        let err = store
            .settle_league(&settle(l.version), T0 + 2 * DAY)
            .expect_err("a stale version");
        assert!(matches!(err, StoreError::Conflict), "{name}: {err:?}");
        assert_eq!(store.league(l.id).unwrap(), Some(before.clone()), "{name}");
        assert_eq!(
            store.league_players(l.id).unwrap(),
            players_before,
            "{name}"
        );
        assert_eq!(store.pairings(l.id).unwrap(), pairings_before, "{name}");
        for g in &games_before {
            assert_eq!(store.game(g.id).unwrap().as_ref(), Some(g), "{name}");
        }
        assert_eq!(outbox(store), outbox_before, "{name}");
        // As read: all of it.
        let at = T0 + 2 * DAY;
        let settled = store
            .settle_league(&settle(before.version), at)
            .expect("settles");
        assert!(settled.version > before.version, "{name}: a new version");
        assert_eq!(
            settled,
            LeagueRow {
                version: settled.version,
                ..before.clone()
            },
            "{name}: still running, round 1"
        );
        assert_eq!(store.league(l.id).unwrap(), Some(settled.clone()), "{name}");
        let statuses: Vec<(String, String, Option<i64>)> = store
            .league_players(l.id)
            .unwrap()
            .into_iter()
            .map(|p| (p.user, p.status, p.left_at))
            .collect();
        let status = |u: &str, s: &str, at: Option<i64>| (u.to_string(), s.to_string(), at);
        assert_eq!(
            statuses,
            vec![
                status("p1", "active", None),
                status("p2", "withdrawn", Some(at)),
                status("p3", "removed", Some(at)),
                status("p4", "active", None),
                status("p5", "active", None),
                status("p6", "active", None),
                status("p7", "active", None),
                status("p8", "active", None),
            ],
            "{name}"
        );
        let outcomes: Vec<(u32, Option<i64>, Option<String>)> = store
            .pairings(l.id)
            .unwrap()
            .into_iter()
            .map(|p| (p.board, p.game, p.outcome))
            .collect();
        // Board 4's game ended on the board before the adjudication: the pairing keeps the
        // game's own result (no outcome of the league's).
        assert_eq!(
            outcomes,
            [
                Some("forfeit-first"),
                Some("forfeit-second"),
                Some("annulled"),
                None
            ]
            .iter()
            .enumerate()
            .map(|(i, o)| (i as u32 + 1, Some(games[i]), o.map(str::to_string)))
            .collect::<Vec<_>>(),
            "{name}: outcomes, the games kept"
        );
        for (g, result, reason) in [
            (games[0], GameResult::First, "forfeit"),
            (games[1], GameResult::Second, "forfeit"),
            (games[2], GameResult::Draw, "annulled"),
        ] {
            let game = store.game(g).unwrap().expect("a game");
            assert_eq!(game.status, GameStatus::Finished, "{name}: game {g}");
            assert_eq!(game.result, Some(result), "{name}: game {g}");
            assert_eq!(game.reason.as_deref(), Some(reason), "{name}: game {g}");
            assert_eq!(game.finished_at, Some(at), "{name}: game {g}");
            assert_eq!(game.to_move, None, "{name}: game {g}");
            let read = games_before.iter().find(|r| r.id == g).expect("read");
            assert_eq!(game.version, read.version + 1, "{name}: game {g} moved on");
        }
        assert_eq!(
            store.game(games[3]).unwrap(),
            Some(g4),
            "{name}: a game that ended meanwhile keeps its own result"
        );
        for u in ["p1", "p2", "p3", "p4", "p5", "p6"] {
            assert_eq!(
                store.rating(u, "shogi", GUILD).unwrap(),
                None,
                "{name}: settled games are not rated"
            );
        }
        let mut want = outbox_before.clone();
        want.extend(queued(
            vec![
                notice(301, "p2", "you withdrew"),
                notice(302, "organiser", "round 1 settled"),
            ],
            at,
        ));
        want.sort_by_key(|o| o.id);
        assert_eq!(outbox(store), want, "{name}");
        // The version it was settled from is stale now.
        let mut again = settle(before.version);
        again.notices = vec![notice(303, "organiser", "again")];
        let err = store
            .settle_league(&again, at + 1)
            .expect_err("a stale version");
        assert!(matches!(err, StoreError::Conflict), "{name}: {err:?}");
        assert_eq!(store.league(l.id).unwrap(), Some(settled), "{name}");
        assert_eq!(outbox(store), want, "{name}");
        ran(
            "a_settlement_applies_outcomes_players_and_endings_together",
            name,
        );
    }
}

/// Ending a league (finished, cancelled) sets its status and `finished_at`, queues its notices
/// and takes it off `running_leagues`, which lists the running ones only, oldest first; a stale
/// version is a `Conflict`. `pairing_of_game` finds a league game's pairing, none for another.
#[test]
fn leagues_end_and_games_find_their_pairing() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let p = ["ann", "ben", "cat", "dan"];
        let mut running = Vec::new();
        for league in ["First", "Second"] {
            let l = league_of(store, &swiss(league, None), &p);
            store
                .start_round(
                    &round_one(&l, p, 1_000 * (running.len() as i64 + 1)),
                    T0 + DAY,
                )
                .expect("round 1");
            running.push(store.league(l.id).unwrap().expect("the league"));
        }
        let open = league_of(store, &swiss("Open", None), &p);
        assert_eq!(store.running_leagues(10).unwrap(), running, "{name}");
        assert_eq!(
            store.running_leagues(1).unwrap(),
            running[..1].to_vec(),
            "{name}: oldest first, up to the limit"
        );
        // The first finishes.
        let first = &running[0];
        let at = T0 + 30 * DAY;
        let done = store
            .end_league(
                first.id,
                first.version,
                LeagueStatus::Finished,
                &[notice(50, "organiser", "league over")],
                at,
            )
            .expect("ends");
        assert_eq!(
            done,
            LeagueRow {
                status: LeagueStatus::Finished,
                finished_at: Some(at),
                version: done.version,
                ..first.clone()
            },
            "{name}"
        );
        assert!(done.version > first.version, "{name}");
        assert_eq!(
            store.league(first.id).unwrap(),
            Some(done.clone()),
            "{name}"
        );
        assert_eq!(
            store.running_leagues(10).unwrap(),
            running[1..].to_vec(),
            "{name}: a finished league is not running"
        );
        assert!(ids_of(outbox(store)).contains(&50), "{name}: its notice");
        // Again from the version it ended from: a conflict, nothing changes.
        let err = store
            .end_league(
                first.id,
                first.version,
                LeagueStatus::Cancelled,
                &[notice(51, "organiser", "cancelled")],
                at + 1,
            )
            .expect_err("a stale version");
        assert!(matches!(err, StoreError::Conflict), "{name}: {err:?}");
        assert_eq!(store.league(first.id).unwrap(), Some(done), "{name}");
        assert!(!ids_of(outbox(store)).contains(&51), "{name}: no notice");
        // An open league is cancelled; then the running one.
        let cancelled = store
            .end_league(open.id, open.version, LeagueStatus::Cancelled, &[], at + 2)
            .expect("cancels");
        assert_eq!(
            (cancelled.status, cancelled.finished_at, cancelled.round),
            (LeagueStatus::Cancelled, Some(at + 2), 0),
            "{name}"
        );
        assert_eq!(
            store.join_league(open.id, "eve", &[], at + 3).unwrap(),
            Joined::NotOpen,
            "{name}"
        );
        let second = &running[1];
        let cancelled = store
            .end_league(
                second.id,
                second.version,
                LeagueStatus::Cancelled,
                &[],
                at + 4,
            )
            .expect("cancels");
        assert_eq!(cancelled.status, LeagueStatus::Cancelled, "{name}");
        assert_eq!(cancelled.finished_at, Some(at + 4), "{name}");
        assert!(store.running_leagues(10).unwrap().is_empty(), "{name}");
        // A league game's pairing, and none for an ordinary game or no game.
        let pairings = store.pairings(second.id).unwrap();
        for p in &pairings {
            let g = p.game.expect("a game");
            assert_eq!(store.pairing_of_game(g).unwrap(), Some(p.clone()), "{name}");
        }
        let ordinary = new_game(store, "ann", "ben");
        assert_eq!(store.pairing_of_game(ordinary.id).unwrap(), None, "{name}");
        assert_eq!(
            store.pairing_of_game(ordinary.id + 100).unwrap(),
            None,
            "{name}"
        );
        ran("leagues_end_and_games_find_their_pairing", name);
    }
}

/// A round the store cannot make whole is not made at all: a game the schema refuses (a
/// player who is no user), a board given twice, a notice with an id that is not positive:
/// no pairing, no game, no notice is left behind, the league as it was; the same round made
/// right then starts from the same version.
#[test]
fn a_round_that_cannot_be_made_whole_leaves_nothing_behind() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let p = ["ann", "ben", "cat", "dan"];
        let l = league_of(store, &swiss("Winter", None), &p);
        let players_before = store.league_players(l.id).unwrap();
        let (games_before, outbox_before) = (games_count(&b), outbox(store));
        let unchanged = |what: &str| {
            assert_eq!(games_count(&b), games_before, "{name}: {what}: no game");
            assert!(
                store.pairings(l.id).unwrap().is_empty(),
                "{name}: {what}: no pairing"
            );
            assert_eq!(outbox(store), outbox_before, "{name}: {what}: no notice");
            assert_eq!(
                store.league(l.id).unwrap(),
                Some(l.clone()),
                "{name}: {what}: the league as it was"
            );
            assert_eq!(
                store.league_players(l.id).unwrap(),
                players_before,
                "{name}: {what}: no seeds"
            );
        };
        // The second board's game has a player who is no user (the games' foreign key).
        let mut ghost = round_one(&l, p, 100);
        ghost.pairings[1].game = Some(league_game("ben", "ghost"));
        let err = store
            .start_round(&ghost, T0 + DAY)
            .expect_err("a game the schema refuses");
        assert!(
            !matches!(err, StoreError::Conflict | StoreError::NotFound),
            "{name}: refused for its game, not its version: {err:?}"
        );
        unchanged("a refused game");
        // The first board given twice, each with a game: one of them would be a game of no
        // pairing.
        let mut twice = round_one(&l, p, 200);
        let mut again = pairing(1, 1, "dan", Some("ann"), true);
        for n in &mut again.notices {
            n.id += 1_000;
        }
        twice.pairings.push(again);
        let err = store
            .start_round(&twice, T0 + DAY)
            .expect_err("a board given twice");
        assert!(matches!(err, StoreError::Invalid(_)), "{name}: {err:?}");
        unchanged("a board given twice");
        // A notice the outbox refuses, after the games were made.
        let mut bad = round_one(&l, p, 300);
        bad.notices[0].id = 0;
        let err = store
            .start_round(&bad, T0 + DAY)
            .expect_err("a notice id that is not positive");
        assert!(matches!(err, StoreError::Invalid(_)), "{name}: {err:?}");
        unchanged("a refused notice");
        // Made right, from the same version: it starts.
        let stored = store
            .start_round(&round_one(&l, p, 400), T0 + DAY)
            .expect("round 1");
        assert_eq!(stored.len(), 2, "{name}");
        assert_eq!(games_count(&b), games_before + 2, "{name}");
        assert_eq!(outbox(store).len(), outbox_before.len() + 5, "{name}");
        ran(
            "a_round_that_cannot_be_made_whole_leaves_nothing_behind",
            name,
        );
    }
}

/// The round's adjudication of `board`: a draw, its game (if still active) ending so.
fn adjudicated(board: u32) -> Decision {
    decision(
        board,
        "adjudicated-draw",
        Ending {
            result: GameResult::Draw,
            reason: "adjudication".into(),
        },
        false,
    )
}

/// Issue 49: a finished league game stays finished and keeps its result. Two handles (two
/// processes), stepped by the test: a takeback computed from a read made before the round's
/// adjudication finds the game moved on (the adjudication moved its version), and a finished
/// game is not taken back even at its current version; an adjudication computed from a read
/// made while a game was active leaves alone that game when it ended on the board meanwhile,
/// and its pairing keeps the game's result.
#[test]
fn an_adjudicated_game_is_not_taken_back_nor_a_result_overwritten() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let other = open_locator(&b.locator);
        let p = ["ann", "ben", "cat", "dan"];
        let l = league_of(store, &swiss("Winter", None), &p);
        let stored = store
            .start_round(&round_one(&l, p, 500), T0 + DAY)
            .expect("round 1");
        let games: Vec<i64> = stored.iter().map(|p| p.game.expect("a game")).collect();
        // Board 1: a move; the takeback's command (the other handle) reads the game.
        let g1 = store.game(games[0]).unwrap().expect("game 1");
        let moved = play(store, &g1, "7g7f");
        let read = other.game(games[0]).unwrap().expect("game 1");
        assert_eq!(read, moved, "{name}");
        // The sweep reads the league: both boards undecided at the round's deadline.
        let league = store.league(l.id).unwrap().expect("the league");
        let g2 = store.game(games[1]).unwrap().expect("game 2");
        assert_eq!(g2.status, GameStatus::Active, "{name}");
        // Board 2 ends on the board (the other handle) before the adjudication commits.
        other
            .finish_game(
                g2.id,
                g2.version,
                &finish(&resignation(), vec![]),
                T0 + 2 * DAY,
            )
            .expect("a resignation");
        let g2_done = store.game(games[1]).unwrap().expect("game 2");
        let settle = Settle {
            league: l.id,
            version: league.version,
            decisions: vec![adjudicated(1), adjudicated(2)],
            ..Settle::default()
        };
        store
            .settle_league(&settle, T0 + 3 * DAY)
            .expect("the adjudication");
        let g1_done = store.game(games[0]).unwrap().expect("game 1");
        assert_eq!(
            (g1_done.status, g1_done.result, g1_done.reason.as_deref()),
            (
                GameStatus::Finished,
                Some(GameResult::Draw),
                Some("adjudication")
            ),
            "{name}"
        );
        assert_eq!(
            g1_done.version,
            moved.version + 1,
            "{name}: ending moves the version on"
        );
        // The takeback accepted from the read before: refused, the game stays as adjudicated.
        let back = per_move_turn("ann", T0 + 6 * DAY);
        let err = other
            .take_back(
                read.id,
                read.version,
                0,
                START,
                &back,
                &[],
                T0 + 3 * DAY + 1,
            )
            .expect_err("a stale takeback");
        assert!(matches!(err, StoreError::Conflict), "{name}: {err:?}");
        // At the game's current version too: a finished game is not taken back.
        let err = other
            .take_back(
                g1_done.id,
                g1_done.version,
                0,
                START,
                &back,
                &[],
                T0 + 3 * DAY + 2,
            )
            .expect_err("a finished game");
        assert!(matches!(err, StoreError::Conflict), "{name}: {err:?}");
        assert_eq!(store.game(games[0]).unwrap(), Some(g1_done), "{name}");
        assert_eq!(store.moves(games[0]).unwrap().len(), 1, "{name}");
        // Board 2 keeps the result its players made, and its pairing no league outcome.
        assert_eq!(store.game(games[1]).unwrap(), Some(g2_done), "{name}");
        let outcomes: Vec<Option<String>> = store_pairings(store, l.id)
            .into_iter()
            .map(|p| p.outcome)
            .collect();
        assert_eq!(
            outcomes,
            vec![Some("adjudicated-draw".to_string()), None],
            "{name}"
        );
        ran(
            "an_adjudicated_game_is_not_taken_back_nor_a_result_overwritten",
            name,
        );
    }
}

/// Issue 49: a forfeit decided from a read made while the game was active (a withdrawal)
/// leaves alone a game that ended on the board meanwhile, pairing included; an annulment stands
/// whatever the game did (the game keeps its result). A move computed from a read made before
/// the forfeit finds the game moved on.
#[test]
fn a_forfeit_applies_only_to_a_game_still_in_progress() {
    for b in backends() {
        let (name, store) = (b.name, b.store());
        let other = open_locator(&b.locator);
        let p = ["ann", "ben", "cat", "dan"];
        let l = league_of(store, &swiss("Spring", None), &p);
        let stored = store
            .start_round(&round_one(&l, p, 700), T0 + DAY)
            .expect("round 1");
        let games: Vec<i64> = stored.iter().map(|p| p.game.expect("a game")).collect();
        let league = store.league(l.id).unwrap().expect("the league");
        // Both games read active; then board 1 ends on the board (the other handle), and a
        // move of board 2 is computed (the other handle's read).
        let g1 = other.game(games[0]).unwrap().expect("game 1");
        let g2_read = other.game(games[1]).unwrap().expect("game 2");
        other
            .finish_game(
                g1.id,
                g1.version,
                &finish(&resignation(), vec![]),
                T0 + 2 * DAY,
            )
            .expect("a resignation");
        let g1_done = store.game(games[0]).unwrap().expect("game 1");
        let forfeit = |result| Ending {
            result,
            reason: "forfeit".into(),
        };
        // Dan (board 1, second) withdraws and cat (board 2, second) is removed: both their
        // opponents win by forfeit, as decided from the reads above.
        let settle = Settle {
            league: l.id,
            version: league.version,
            players: vec![
                ("dan".into(), "withdrawn".into()),
                ("cat".into(), "removed".into()),
            ],
            decisions: vec![
                decision(1, "forfeit-first", forfeit(GameResult::First), false),
                decision(2, "forfeit-first", forfeit(GameResult::First), false),
            ],
            ..Settle::default()
        };
        let settled = store
            .settle_league(&settle, T0 + 3 * DAY)
            .expect("the withdrawals");
        assert_eq!(
            store.game(games[0]).unwrap(),
            Some(g1_done.clone()),
            "{name}"
        );
        let g2 = store.game(games[1]).unwrap().expect("game 2");
        assert_eq!(
            (g2.status, g2.result, g2.reason.as_deref(), g2.version),
            (
                GameStatus::Finished,
                Some(GameResult::First),
                Some("forfeit"),
                g2_read.version + 1
            ),
            "{name}"
        );
        let outcomes = |store: &dyn Store| -> Vec<Option<String>> {
            store_pairings(store, l.id)
                .into_iter()
                .map(|p| p.outcome)
                .collect()
        };
        assert_eq!(
            outcomes(store),
            vec![None, Some("forfeit-first".to_string())],
            "{name}: the result made on the board stands"
        );
        // An annulment stands whatever the game did; the game keeps its result.
        let annul = Settle {
            league: l.id,
            version: settled.version,
            decisions: vec![decision(1, "annulled", forfeit(GameResult::First), true)],
            ..Settle::default()
        };
        store
            .settle_league(&annul, T0 + 3 * DAY + 5)
            .expect("the annulment");
        assert_eq!(store.game(games[0]).unwrap(), Some(g1_done), "{name}");
        assert_eq!(
            outcomes(store),
            vec![
                Some("annulled".to_string()),
                Some("forfeit-first".to_string())
            ],
            "{name}"
        );
        // The move computed before the forfeit: refused (the game moved on and is over).
        let mv = MoveRow {
            ply: 1,
            code: "7g7f".into(),
            notation: "P-7f".into(),
            position: START.into(),
            user: g2_read.to_move.clone().expect("to move"),
            played_at: T0 + 3 * DAY + 1,
        };
        let err = other
            .append_move(
                g2_read.id,
                g2_read.version,
                &mv,
                &per_move_turn("cat", T0 + 6 * DAY),
                None,
                &[],
            )
            .expect_err("a stale move");
        assert!(matches!(err, StoreError::Conflict), "{name}: {err:?}");
        assert_eq!(store.game(games[1]).unwrap(), Some(g2), "{name}");
        ran("a_forfeit_applies_only_to_a_game_still_in_progress", name);
    }
}
