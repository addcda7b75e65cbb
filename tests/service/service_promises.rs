//! Promises of the command core that a late clock, a transport or a conditional line must not
//! break (issue 49), through the core over a real SQLite file with a manual clock:
//! - the computer never loses on time: neither its own late move nor a sweep (also one run by
//!   a process that does not know yet who the computer is) ends a game where it is to move;
//! - an offer obeys the clock: past the deadline of the player to move, accepting a draw, a
//!   takeback or an impasse (by either player) ends the game on time instead;
//! - every bounded option is checked by the core, whatever the transport: console syntax just
//!   outside and just inside each bound, and the slash commands' bounds equal the core's;
//! - a move answered at once by a conditional line is announced as what happened.

use crate::service_common;

use std::sync::Arc;

use service_common::*;
use tegami::service::{
    Clock, Command, CoreError, LeagueCommand, Reply, Service, User, Via, BOUNDS, DAY, MAX_LENGTHS,
};
use tegami::store::{
    ChallengeStore, GameResult, GameStatus, LeagueStore, OfferKind, OfferRow, SqliteStore,
};

/// An environment where `tegami` is the computer.
fn with_computer() -> Env {
    let env = Env::new();
    env.service.set_computer(User::new("tegami", "Tegami"));
    env
}

// ---------------------------------------------------------------------------------------------
// The computer never loses on time (issue 49, point 1).

#[test]
fn the_computer_never_loses_on_time_however_late_its_move() {
    let env = with_computer();
    let r = env.ok("alice", "challenge @tegami shogi level=1 days=1 first");
    let game = number_after(&r.text, "Game #").expect("the game starts at once");
    let r = env.ok("alice", &format!("move {game} 7g7f"));
    assert_eq!(r.think, Some(game), "the computer is to move");
    // Its move comes days late (an outage, a panicked search tried again).
    env.clock.advance(3 * DAY);

    // A restarted process sweeps before the transport said who the computer is (Discord's
    // `ready` comes after the first sweep): it cannot tell the computer's turn, and forfeits
    // nothing of a game against the computer.
    let store = Arc::new(SqliteStore::open(&env.path).expect("the same file"));
    let again = Service::new(store, env.clock.clone(), config());
    let s = again.sweep(env.clock.now()).expect("the sweep");
    assert!(s.timeouts.is_empty(), "{:?}", s.timeouts);
    assert!(s.reminders.is_empty(), "nobody reminded: {:?}", s.reminders);
    // Nor does one that knows.
    let s = env.service.sweep(env.clock.now()).expect("the sweep");
    assert!(s.timeouts.is_empty(), "{:?}", s.timeouts);
    assert_eq!(env.game(game).status, GameStatus::Active);

    // The late move is played, not lost on time.
    let r = env
        .service
        .computer_move(game)
        .expect("no error")
        .expect("its move");
    assert!(!r.error, "{}", r.text);
    assert!(r.text.contains("Tegami plays"), "{}", r.text);
    assert!(!r.text.contains("time"), "{}", r.text);
    let row = env.game(game);
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.ply, 2);
    assert_eq!(row.to_move.as_deref(), Some("alice"));
    assert!(row.deadline.is_some_and(|d| d > env.clock.now()));

    // The player's own clock still runs: past her deadline, her move loses.
    env.clock.advance(2 * DAY);
    let e = env.refused("alice", &format!("move {game} 2g2f"));
    assert!(e.contains("your time ran out"), "{e}");
    let row = env.game(game);
    assert_eq!(
        (row.status, row.result, row.reason.as_deref()),
        (
            GameStatus::Finished,
            Some(GameResult::Second),
            Some("timeout")
        )
    );
}

// ---------------------------------------------------------------------------------------------
// Accepting an offer obeys the clock (issue 49, point 2).

/// A game of alice (black, to move) and bob, two moves played, one day a move.
fn two_moves(env: &Env) -> i64 {
    let game = env.start_game("alice", "bob", "shogi days=1");
    env.ok("alice", &format!("move {game} 7g7f"));
    env.ok("bob", &format!("move {game} 3c3d"));
    game
}

#[test]
fn accepting_an_offer_after_the_deadline_loses_on_time() {
    for kind in [OfferKind::Draw, OfferKind::Takeback, OfferKind::Impasse] {
        // Alice is to move. Either she accepts bob's offer once her time ran out, or bob
        // accepts hers: both times she lost on time, and the offer changes nothing.
        for accepter in ["alice", "bob"] {
            let what = format!("{} accepted by {accepter}", kind.as_str());
            let env = Env::new();
            let game = two_moves(&env);
            let row = env.game(game);
            let offerer = if accepter == "alice" { "bob" } else { "alice" };
            // Stored as a command would have stored it while it was allowed (an impasse's
            // conditions are not this position's: the clock decides before them).
            env.store
                .put_offer(
                    game,
                    row.version,
                    &OfferRow {
                        game_id: game,
                        kind,
                        from_user: offerer.into(),
                        ply: row.ply,
                        created_at: env.clock.now(),
                    },
                    &[],
                )
                .expect("the offer");
            let deadline = row.deadline.expect("alice's deadline");
            env.clock.set(deadline + 1);
            let line = format!("{} {game} accept", kind.as_str());
            match env.try_cmd(accepter, request(accepter, &line).command) {
                Err(CoreError::Ended(msg, g, notify)) => {
                    let said = msg.render(tegami::i18n::Lang::En);
                    assert!(said.contains("time ran out"), "{what}: {said}");
                    if accepter == "bob" {
                        assert!(said.contains("alice's time ran out"), "{what}: {said}");
                    }
                    assert!(g.over, "{what}");
                    assert_eq!(notify.len(), 2, "{what}: both players told");
                    assert!(
                        notify
                            .iter()
                            .all(|n| n.text.contains("alice's time ran out")),
                        "{what}: {notify:?}"
                    );
                }
                other => panic!("{what}: not ended on time: {other:?}"),
            }
            let after = env.game(game);
            assert_eq!(after.status, GameStatus::Finished, "{what}");
            assert_eq!(after.result, Some(GameResult::Second), "{what}");
            assert_eq!(after.reason.as_deref(), Some("timeout"), "{what}");
            assert_eq!(after.ply, 2, "{what}: nothing taken back");
        }
    }
}

#[test]
fn an_offer_in_time_is_still_accepted_and_a_late_offer_is_refused() {
    // In time: the draw is agreed.
    let env = Env::new();
    let game = two_moves(&env);
    env.ok("alice", &format!("draw {game} offer"));
    env.clock.advance(DAY - 60);
    let r = env.ok("bob", &format!("draw {game} accept"));
    assert!(r.game.as_ref().is_some_and(|g| g.over), "{}", r.text);
    assert_eq!(env.game(game).result, Some(GameResult::Draw));

    // Offering once the time ran out: lost on time too (bob offers, alice was to move).
    let env = Env::new();
    let game = two_moves(&env);
    env.clock.advance(DAY + 1);
    let e = env.refused("bob", &format!("takeback {game} offer"));
    assert!(e.contains("alice's time ran out"), "{e}");
    let row = env.game(game);
    assert_eq!(
        (row.result, row.reason.as_deref()),
        (Some(GameResult::Second), Some("timeout"))
    );
}

// ---------------------------------------------------------------------------------------------
// Every option is checked by the core (issue 49, point 5).

/// Whether a refusal is one of an option's bounds (the words of `cmd-out-of-range`,
/// `cmd-too-small`, `cmd-too-long` and the few older messages of a range).
fn says_a_bound(text: &str) -> bool {
    [
        "out of range",
        "too small",
        "characters long",
        "is 0 to 23",
        "must be one of",
    ]
    .iter()
    .any(|w| text.contains(w))
}

#[test]
fn every_bounded_option_is_checked_by_the_core_just_outside_and_inside() {
    let env = Env::new();
    env.service.set_computer(User::new("tegami", "Tegami"));
    // Known users, so that a refusal writes nothing at all.
    for u in ["alice", "bob"] {
        env.ok(u, "settings");
    }
    let long = |n: usize| "x".repeat(n);
    let league = |opts: &str| format!("league create name=Cup game=shogi format=swiss {opts}");
    // (outside, what the refusal says, inside)
    let cases: Vec<(String, String, String)> = vec![
        (
            "challenge @tegami shogi level=0 first".into(),
            "`level`: 0 is out of range (choose 1 to 5)".into(),
            "challenge @tegami shogi level=1 first".into(),
        ),
        (
            "challenge @tegami shogi level=6 first".into(),
            "`level`: 6 is out of range (choose 1 to 5)".into(),
            "challenge @tegami shogi level=5 first".into(),
        ),
        (
            "challenge @bob shogi increment=0".into(),
            "`increment`: 0 is out of range (choose 1 to 7)".into(),
            "challenge @bob shogi increment=1".into(),
        ),
        (
            "challenge @bob shogi increment=8".into(),
            "`increment`: 8 is out of range (choose 1 to 7)".into(),
            "challenge @bob shogi increment=7 cap=60".into(),
        ),
        (
            "challenge @bob shogi clock=increment cap=61".into(),
            "`cap`: 61 is out of range (choose 1 to 60)".into(),
            "challenge @bob shogi clock=increment cap=60".into(),
        ),
        (
            "challenge @bob judkins period=0".into(),
            "`period`: 0 is out of range (choose 1 to 14)".into(),
            "challenge @bob judkins period=1".into(),
        ),
        (
            "challenge @bob judkins period=15".into(),
            "`period`: 15 is out of range (choose 1 to 14)".into(),
            "challenge @bob judkins period=14".into(),
        ),
        (
            "challenge @bob shogi days=0".into(),
            "days per move must be one of 1, 2, 3, 5, 7, 10, 14".into(),
            "challenge @bob shogi days=1".into(),
        ),
        (
            "settings remind=337".into(),
            "`remind`: 337 is out of range (choose 0 to 336)".into(),
            "settings remind=336".into(),
        ),
        (
            "settings digest_hour=24".into(),
            "digest_hour=24: the digest's hour is 0 to 23".into(),
            "settings digest_hour=23".into(),
        ),
        (
            format!("settings timezone={}", long(65)),
            "`timezone` is 65 characters long: 64 at most".into(),
            "settings timezone=Asia/Tokyo".into(),
        ),
        (
            "vacation 0".into(),
            "`days`: 0 is out of range (choose 1 to 14)".into(),
            "vacation 1".into(),
        ),
        (
            "vacation 15".into(),
            "`days`: 15 is out of range (choose 1 to 14)".into(),
            "vacation end".into(),
        ),
        (
            "server days=4".into(),
            "days per move must be one of".into(),
            "server days=5".into(),
        ),
        (
            league("rounds=0"),
            "`rounds`: 0 is out of range (choose 1 to 20)".into(),
            league("rounds=1"),
        ),
        (
            league("rounds=21"),
            "`rounds`: 21 is out of range (choose 1 to 20)".into(),
            league("rounds=20"),
        ),
        (
            league("rounds=3 round_days=0"),
            "`round_days`: 0 is out of range (choose 1 to 365)".into(),
            league("rounds=3 round_days=1"),
        ),
        (
            league("rounds=3 round_days=366"),
            "`round_days`: 366 is out of range (choose 1 to 365)".into(),
            league("rounds=3 round_days=365"),
        ),
        (
            league("rounds=3 max_players=1"),
            "`max_players`: 1 is out of range (choose 2 to 256)".into(),
            league("rounds=3 max_players=2"),
        ),
        (
            league("rounds=3 max_players=257"),
            "`max_players`: 257 is out of range (choose 2 to 256)".into(),
            league("rounds=3 max_players=256"),
        ),
        (
            format!(
                "league create name={} game=shogi format=swiss rounds=3",
                long(61)
            ),
            "`name` is 61 characters long: 60 at most".into(),
            format!(
                "league create name={} game=shogi format=swiss rounds=3",
                long(60)
            ),
        ),
        (
            "league pairings league=1 round=0".into(),
            "`round`: 0 is too small (the least is 1)".into(),
            "league pairings league=1 round=1".into(),
        ),
        (
            format!("conditional add 1 {}", long(301)),
            "`line` is 301 characters long: 300 at most".into(),
            format!("conditional add 1 {}", long(300)),
        ),
    ];
    // Outside: refused, saying the option and its range, and nothing is written.
    let watch = env.watch();
    for (outside, says, _) in &cases {
        let text = env.refused("alice", outside);
        assert!(text.contains(says.as_str()), "{outside}: {text}");
    }
    // Options the command line cannot even write, given as a transport could build them.
    for (command, says) in [
        (
            Command::Server {
                days: None,
                rated: None,
                channel: None,
                language: None,
                leagues: None,
                feature: Some(-1),
            },
            "`feature`: -1 is too small (the least is 0)",
        ),
        (
            Command::Follow {
                game: Some(0),
                notify: None,
            },
            "`game`: 0 is too small (the least is 1)",
        ),
        (
            Command::Unfollow { game: -3 },
            "`game`: -3 is too small (the least is 1)",
        ),
        (
            Command::League(LeagueCommand::Pairings {
                league: 1,
                round: Some(0),
            }),
            "`round`: 0 is too small (the least is 1)",
        ),
    ] {
        let text = env.refused_cmd("alice", command.clone());
        assert!(text.contains(says), "{command:?}: {text}");
    }
    watch.assert_unchanged(&env.path, "options out of their bounds");

    // Inside: not refused for the bound (another reason may refuse: no such league, no such
    // game, an unknown zone).
    for (_, _, inside) in &cases {
        let r: Reply = env.send("alice", inside);
        assert!(!(r.error && says_a_bound(&r.text)), "{inside}: {}", r.text);
    }
    // The bug this came from: a league whose rounds last 0 days is never made.
    assert!(env
        .store
        .leagues_in("console", 100)
        .expect("leagues")
        .iter()
        .all(|l| l.round_days != Some(0)));
}

/// The options of a registered slash command (and of its sub-commands, named `league
/// create`), with their JSON.
fn slash_options(prefix: &str, c: &serde_json::Value, out: &mut Vec<(String, serde_json::Value)>) {
    let name = match prefix {
        "" => c["name"].as_str().unwrap_or_default().to_string(),
        p => format!("{p} {}", c["name"].as_str().unwrap_or_default()),
    };
    for o in c["options"].as_array().into_iter().flatten() {
        // Sub-commands (type 1) have options of their own.
        if o["type"] == 1 {
            slash_options(&name, o, out);
        } else {
            out.push((name.clone(), o.clone()));
        }
    }
}

#[test]
fn the_slash_commands_declare_the_bounds_the_core_checks() {
    let mut options = Vec::new();
    for c in tegami::discord::commands::all() {
        if let Some(json) = c.create_as_slash_command() {
            let json = serde_json::to_value(json).expect("json");
            slash_options("", &json, &mut options);
        }
    }
    let mut declared = 0;
    for (command, o) in &options {
        let option = o["name"].as_str().expect("a name");
        // Discord's numbers are JSON numbers (serenity writes them as floats); an integer
        // option without bounds of its own gets the widest (poise fills in the type's range).
        let declared_bound = |v: &serde_json::Value| {
            v.as_f64()
                .filter(|v| v.abs() < 2f64.powi(53) - 1.0)
                .map(|v| v as i64)
        };
        let (min, max) = (
            declared_bound(&o["min_value"]),
            declared_bound(&o["max_value"]),
        );
        if min.is_some() || max.is_some() {
            declared += 1;
            let bound = BOUNDS
                .iter()
                .find(|b| b.commands.contains(&command.as_str()) && b.option == option)
                .unwrap_or_else(|| panic!("/{command} {option}: no bound in the core: {o}"));
            assert_eq!(min, Some(bound.min), "/{command} {option}: the minimum");
            assert_eq!(max, bound.max, "/{command} {option}: the maximum");
        }
        if let Some(max) = o["max_length"].as_u64() {
            let core = MAX_LENGTHS
                .iter()
                .find(|(c, n, _)| c == command && *n == option)
                .unwrap_or_else(|| panic!("/{command} {option}: no length in the core"));
            assert_eq!(core.2 as u64, max, "/{command} {option}: the longest text");
        }
    }
    assert!(
        declared >= 14,
        "{declared} bounded options found: {options:?}"
    );
    // And every bound of the core is the slash command's (the vacation's days excepted: the
    // slash command declares none).
    for b in BOUNDS.iter().filter(|b| b.commands != ["vacation"]) {
        for c in b.commands {
            assert!(
                options
                    .iter()
                    .any(|(command, o)| command == c && o["name"] == b.option),
                "/{c} {} is not a slash option",
                b.option
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A conditional answer is announced as what happened (issue 49, point 19).

#[test]
fn a_move_answered_by_a_conditional_line_says_so_and_pings_nobody_for_a_turn_already_over() {
    let env = Env::new();
    let game = env.start_game("alice", "bob", "shogi");
    env.ok("alice", &format!("move {game} 7g7f"));
    env.ok("alice", &format!("conditional add {game} \"3c3d 2g2f\""));
    let r = env.ok("bob", &format!("move {game} 3c3d"));
    assert_eq!(env.game(game).ply, 3, "the answer was played");

    // Bob's reply: his move, the answer, and that he is to move again.
    let text = &r.text;
    assert!(text.contains("bob plays 1… P-3d."), "{text}");
    assert!(
        text.contains("alice answers at once with a conditional move: 2. P-2f."),
        "{text}"
    );
    assert!(text.contains("bob (white) to move"), "{text}");
    assert!(!text.contains("alice (black) to move"), "{text}");
    let g = r.game.as_ref().expect("the game");
    assert_eq!((g.ply, g.over), (3, false));

    // Nobody tells alice it is her move: her answer was made for her.
    assert!(
        !r.notify
            .iter()
            .any(|n| n.user == "alice" && n.via != Via::Post),
        "{:?}",
        r.notify
    );
    let waiting: Vec<_> = env
        .outbox()
        .into_iter()
        .filter(|n| n.user == "alice" && n.sent_at.is_none() && n.text.contains("P-3d"))
        .collect();
    assert!(
        waiting.is_empty(),
        "alice's stale notice withdrawn: {waiting:?}"
    );
    // Bob is told of the answer (his move now), and the answer is announced as its own post.
    assert!(
        r.notify
            .iter()
            .any(|n| n.user == "bob" && n.via != Via::Post && n.text.contains("P-2f")),
        "{:?}",
        r.notify
    );
    assert!(
        r.notify
            .iter()
            .any(|n| n.via == Via::Post && n.text.contains("(a conditional move)")),
        "{:?}",
        r.notify
    );

    // A move nobody answers is announced as before: the opponent to move, and told.
    let r = env.ok("bob", &format!("move {game} 8c8d"));
    assert!(r.text.contains("alice (black) to move"), "{}", r.text);
    assert!(
        r.notify
            .iter()
            .any(|n| n.user == "alice" && n.via != Via::Post),
        "{:?}",
        r.notify
    );
}
