//! Leagues played to the end at the console (the core's `league` commands, the real SQLite file,
//! the correspondence sweep): a 4-player round robin played round by round, and a 6-player
//! 3-round Swiss with a withdrawal and a loss on time. Results are chosen by a rule that does
//! not depend on the pairings (the player earlier in the alphabet wins, one draw), so that the
//! standings can be worked out by hand.

use crate::service_common;

use std::sync::Arc;

use service_common::config;
use tegami::console::{Console, ConsoleClock};
use tegami::service::Service;
use tegami::store::{GameStatus, GameStore, LeagueStatus, LeagueStore, SqliteStore};

struct Session {
    console: Console,
    store: Arc<SqliteStore>,
    transcript: String,
}

impl Session {
    fn new(dir: &std::path::Path) -> Session {
        let store = Arc::new(SqliteStore::open(dir.join("league.db")).expect("open the database"));
        let clock = Arc::new(ConsoleClock::new());
        let service = Service::new(store.clone(), clock.clone(), config());
        let mut s = Session {
            console: Console::new(service, clock, dir.join("out")),
            store,
            transcript: String::new(),
        };
        s.say("tick 2026-12-01T12:00:00Z");
        s
    }

    fn say(&mut self, line: &str) -> String {
        let out = self.console.line(line);
        self.transcript.push_str(&format!("> {line}\n{out}\n"));
        out
    }

    /// A line that must not be refused.
    fn ok(&mut self, line: &str) -> String {
        let out = self.say(line);
        assert!(!out.starts_with('✗'), "{line} refused:\n{out}");
        out
    }

    /// A line that must be refused, with a reply containing `why`.
    fn refused(&mut self, line: &str, why: &str) {
        let out = self.say(line);
        assert!(out.starts_with('✗'), "{line} was not refused:\n{out}");
        assert!(out.contains(why), "{line}: expected {why:?} in:\n{out}");
    }

    /// The active games of league 1's current round: (game, first player, second player).
    fn round_games(&self, league: i64) -> Vec<(i64, String, String)> {
        let l = self
            .store
            .league(league)
            .expect("read")
            .expect("the league");
        self.store
            .pairings(league)
            .expect("pairings")
            .into_iter()
            .filter(|p| p.round == l.round)
            .filter_map(|p| {
                let g = p.game?;
                let row = self.store.game(g).expect("read")?;
                (row.status == GameStatus::Active)
                    .then(|| (g, p.first, p.second.unwrap_or_default()))
            })
            .collect()
    }
}

#[test]
fn a_round_robin_of_four_is_played_to_the_end() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Session::new(dir.path());
    s.ok("@alice league create name=Spring game=shogi days=3 format=round-robin");
    for p in ["alice", "bob", "carol", "dave"] {
        s.ok(&format!("@{p} league join league=1"));
    }
    // (At the console every user manages the server, so anyone may start it.)
    let out = s.ok("@alice league start league=1");
    assert!(out.contains("round 1 begins"), "{out}");
    let mut rounds = 0;
    while s.store.league(1).unwrap().unwrap().status == LeagueStatus::Running {
        rounds += 1;
        assert!(
            rounds <= 3,
            "a round robin of four has three rounds:\n{}",
            s.transcript
        );
        let games = s.round_games(1);
        assert_eq!(games.len(), 2, "two games a round:\n{}", s.transcript);
        for (g, first, second) in games {
            let pair = [first.as_str(), second.as_str()];
            if pair.contains(&"bob") && pair.contains(&"carol") {
                // The one draw.
                s.ok(&format!("@bob draw {g} offer"));
                s.ok(&format!("@carol draw {g} accept"));
            } else {
                // The later name in the alphabet resigns.
                let loser = if first > second { &first } else { &second };
                s.ok(&format!("@{loser} resign {g}"));
            }
        }
    }
    assert_eq!(rounds, 3);
    // By hand: alice 3 (beat everyone); bob and carol 1½ (beat dave, drew each other);
    // dave 0. Sonneborn-Berger: bob and carol each beat dave (0) and drew each other (½ of
    // 1½): equal, so they share second place.
    let out = s.ok("@dave league show league=1");
    // SB: alice beat bob (1½), carol (1½) and dave (0): 3; bob beat dave (0), drew carol (½ of
    // 1½): ¾.
    assert!(
        out.contains("1. alice — 3 (3 played: +3 =0 -0); SB 3"),
        "{out}"
    );
    assert!(
        out.contains("2. bob — 1½ (3 played: +1 =1 -1); SB ¾"),
        "{out}"
    );
    assert!(out.contains("2. carol — 1½ (3 played: +1 =1 -1)"), "{out}");
    assert!(out.contains("4. dave — 0 (3 played: +0 =0 -3)"), "{out}");
    assert!(
        s.transcript.contains("\"Spring\" is over. Winner: alice!"),
        "{}",
        s.transcript
    );
    // Finished: nobody joins or leaves any more.
    s.refused("@erin league join league=1", "not taking players");
}

#[test]
fn a_swiss_of_six_with_a_withdrawal_and_a_loss_on_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Session::new(dir.path());
    s.refused(
        "@alice league create name=Cup game=judkins format=swiss",
        "rounds",
    );
    s.ok("@alice league create name=Cup game=judkins days=1 format=swiss rounds=3");
    for p in ["alice", "bob", "carol", "dave", "erin", "frank"] {
        s.ok(&format!("@{p} league join 1"));
    }
    s.refused("@alice league join league=1", "already");
    s.ok("@alice league start league=1");
    // Round 1: every game decided by resignation (the later name resigns).
    for (g, first, second) in s.round_games(1) {
        let loser = if first > second { first } else { second };
        s.ok(&format!("@{loser} resign {g}"));
    }
    assert_eq!(
        s.store.league(1).unwrap().unwrap().round,
        2,
        "{}",
        s.transcript
    );
    // Round 2: frank withdraws (his game is lost by forfeit); one game is lost on time (the
    // player to move lets the day pass); the third by resignation.
    s.ok("@frank league leave league=1");
    let games = s.round_games(1);
    assert_eq!(
        games.len(),
        2,
        "frank's game ended by forfeit:\n{}",
        s.transcript
    );
    let (timeout_game, ..) = games[0].clone();
    let (g, first, second) = games[1].clone();
    let loser = if first > second { first } else { second };
    s.ok(&format!("@{loser} resign {g}"));
    s.ok("tick 2026-12-03T12:00:00Z");
    let row = s.store.game(timeout_game).unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.reason.as_deref(), Some("timeout"));
    let l = s.store.league(1).unwrap().unwrap();
    assert_eq!(
        l.round, 3,
        "round 3 paired after the sweep:\n{}",
        s.transcript
    );
    // Frank is not paired again; the five others: two games and a bye.
    let pairings: Vec<_> = s
        .store
        .pairings(1)
        .unwrap()
        .into_iter()
        .filter(|p| p.round == 3)
        .collect();
    assert_eq!(pairings.len(), 3, "{pairings:?}");
    assert!(pairings
        .iter()
        .all(|p| p.first != "frank" && p.second.as_deref() != Some("frank")));
    assert_eq!(pairings.iter().filter(|p| p.second.is_none()).count(), 1);
    for (g, first, second) in s.round_games(1) {
        let loser = if first > second { first } else { second };
        s.ok(&format!("@{loser} resign {g}"));
    }
    assert_eq!(
        s.store.league(1).unwrap().unwrap().status,
        LeagueStatus::Finished,
        "{}",
        s.transcript
    );
    let out = s.ok("@alice league show league=1");
    assert!(out.contains("frank"), "{out}");
    assert!(out.contains("(left)"), "{out}");
    assert!(out.contains("Buchholz"), "{out}");
}

#[test]
fn a_round_robin_started_whole_names_each_players_own_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut s = Session::new(dir.path());
    s.ok("@alice league create name=All game=cannon format=round-robin start=all");
    for p in ["alice", "bob", "carol", "dave"] {
        s.ok(&format!("@{p} league join league=1"));
    }
    let out = s.ok("@alice league start league=1");
    // Every game of the three rounds exists now, and each notice names the game of its
    // pairing (not another game of the same player, nor another round's board).
    let pairings = s.store.pairings(1).expect("pairings");
    assert_eq!(pairings.len(), 6);
    for p in &pairings {
        let g = p.game.expect("every game made at the start");
        let second = p.second.clone().expect("no byes with four players");
        let line = format!("{}. {} – {}: game #{g}", p.board, p.first, second);
        assert!(out.contains(&line), "{line} not in:\n{out}");
        let notice = format!(
            "→ @{} (mention): League \"All\", round {}: your game #{g} against {second}",
            p.first, p.round
        );
        assert!(out.contains(&notice), "{notice} not in:\n{out}");
    }
    assert!(!out.contains("{game"), "a placeholder left:\n{out}");
    // Said as every round at once, not as the last round beginning.
    assert!(
        out.contains("all 3 rounds begin, every game at once"),
        "{out}"
    );
    assert!(!out.contains("round 3 begins"), "{out}");
}

/// `/server leagues:false` leaves league-making to the server's managers; the setting is shown
/// and kept.
#[test]
fn a_server_can_leave_leagues_to_its_managers() {
    use tegami::service::{Place, Request, User};
    use tegami::store::UserStore;
    let env = service_common::Env::new();
    let create = "league create name=Mine game=shogi format=swiss rounds=3";
    let as_manager = |line: &str| {
        env.service.handle(&Request {
            user: User::new("mod", "mod"),
            place: Place {
                admin: true,
                ..service_common::server()
            },
            command: tegami::service::parse_command(line).expect("a command"),
        })
    };
    // On by default: any member creates one.
    let r = env.ok("alice", create);
    assert!(r.text.contains("League #1"), "{}", r.text);
    // A member may not turn it off.
    assert!(env
        .refused("alice", "server leagues=off")
        .contains("managers"));
    let r = as_manager("server leagues=off");
    assert!(!r.error, "{}", r.text);
    assert!(
        r.text.contains("leagues are not created here"),
        "{}",
        r.text
    );
    let kept = env
        .store
        .server("console")
        .expect("the server's settings")
        .expect("saved");
    assert!(!kept.leagues);
    let why = env.refused("bob", create);
    assert!(why.contains("made by the server's managers"), "{why}");
    assert_eq!(
        env.store.leagues_in("console", 10).expect("leagues").len(),
        1
    );
    // A manager still may; and turned on again, anyone.
    let r = as_manager(create);
    assert!(!r.error && r.text.contains("League #2"), "{}", r.text);
    assert!(!as_manager("server leagues=on").error);
    let r = env.ok("bob", create);
    assert!(r.text.contains("League #3"), "{}", r.text);
}

/// `/server feature game` (managers): the featured game comes first in everyone's `games` in
/// that server while it goes on; a game of another server, or none, is refused; `none` clears.
#[test]
fn a_featured_game_comes_first_in_games() {
    use tegami::service::{Place, Request, User};
    let env = service_common::Env::new();
    let as_manager = |line: &str| {
        env.service.handle(&Request {
            user: User::new("mod", "mod"),
            place: Place {
                admin: true,
                ..service_common::server()
            },
            command: tegami::service::parse_command(line).expect("a command"),
        })
    };
    let id = env.start_game("alice", "bob", "shogi");
    env.ok("alice", &format!("move {id} 7g7f"));
    // Only managers feature a game.
    assert!(env
        .refused("alice", &format!("server feature={id}"))
        .contains("managers"));
    let r = as_manager(&format!("server feature={id}"));
    assert!(
        !r.error && r.text.contains(&format!("game #{id} featured")),
        "{}",
        r.text
    );
    assert!(as_manager("server feature=99").error, "no such game here");
    // Carol, who plays nothing, sees it first.
    let r = env.ok("carol", "games");
    let first = r.text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!(
            "★ Featured here: game #{id}, alice vs bob (Shogi), 1 move played."
        )),
        "{}",
        r.text
    );
    // Over, it is no longer shown; cleared, neither.
    env.ok("bob", &format!("resign {id}"));
    assert!(!env.ok("carol", "games").text.contains("Featured"));
    let r = as_manager("server feature=none");
    assert!(!r.error && !r.text.contains("featured"), "{}", r.text);
}

/// Issue 49: the round's deadline post of a league is delivered with the sweep that made it.
/// The sweep adjudicates the round (its unfinished games drawn) and posts it in the league's
/// home; that post is handed to the delivery loop at once, among the sweep's notices and
/// claimable right after, not held by the core until its hold lapses (five minutes).
#[test]
fn a_rounds_deadline_post_is_delivered_with_the_sweep() {
    use tegami::service::{parse_command, ManualClock, Request, User, Via};
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Arc::new(SqliteStore::open(dir.path().join("league.db")).expect("open"));
    let t0 = service_common::T0;
    let clock = Arc::new(ManualClock::new(t0));
    let service = Service::new(store.clone(), clock.clone(), config());
    let run = |who: &str, line: &str| {
        let reply = service
            .try_handle(&Request {
                user: User::new(who, who),
                place: service_common::server(),
                command: parse_command(line).expect("a command"),
            })
            .unwrap_or_else(|e| panic!("@{who} {line}: {e:?}"));
        assert!(!reply.error, "@{who} {line}: {}", reply.text);
        // The transport delivers a command's notices and lets them go.
        let ids: Vec<i64> = reply.notify.iter().filter_map(|n| n.id).collect();
        service.mark_sent(&ids).expect("delivered");
    };
    run(
        "alice",
        "league create name=Cup game=shogi days=3 format=swiss rounds=2 round_days=1",
    );
    for p in ["alice", "bob", "carol", "dave"] {
        run(p, "league join 1");
    }
    run("alice", "league start league=1");
    // Everything so far was delivered.
    let before = service.sweep(t0 + 60).expect("a sweep");
    assert!(before.notices.is_empty(), "{:?}", before.notices);
    // The round's day passes with both games unfinished: the sweep adjudicates them.
    let at = t0 + 86_400 + 120;
    clock.set(at);
    let swept = service
        .sweep(at)
        .expect("the sweep at the round's deadline");
    let l = store.league(1).unwrap().expect("league 1");
    let games: Vec<i64> = store
        .pairings(1)
        .unwrap()
        .iter()
        .filter(|p| p.round == 1)
        .filter_map(|p| p.game)
        .collect();
    assert_eq!(games.len(), 2);
    for g in &games {
        let row = store.game(*g).unwrap().expect("a game");
        assert_eq!(row.reason.as_deref(), Some("adjudication"), "game {g}");
    }
    assert_eq!(l.round, 2, "round 2 paired");
    let posts: Vec<&tegami::service::Notice> = swept
        .notices
        .iter()
        .map(|(_, n)| n)
        .filter(|n| n.via == Via::Post && n.league == Some(1))
        .collect();
    let adjudicated = posts
        .iter()
        .find(|n| n.text.contains("reached its deadline"))
        .unwrap_or_else(|| panic!("the round's deadline post, delivered now: {posts:?}"));
    // Claimable by the delivery loop right after (nothing holds it), until marked sent.
    let id = adjudicated.id.expect("an outbox id");
    let claimed = service.claim_unsent(100).expect("a claim");
    assert!(
        claimed.iter().any(|n| n.id == Some(id)),
        "the post is claimable at once: {claimed:?}"
    );
    service.mark_sent(&[id]).expect("delivered");
    assert!(service
        .claim_unsent(100)
        .expect("a claim")
        .iter()
        .all(|n| n.id != Some(id)));
}
