//! Followers and the daily list (issue 23), through the command core and the console: following
//! a game of the server (and the refusals: another server's game, a game in direct messages,
//! one's own game, a game that is over, a word that is no way of being told — each changing
//! nothing), a follower pinged at each move and at the end once (by the command, by the sweep
//! after a loss on time, by another process), the daily list in its order (the player's move by
//! deadline, then the opponents', then the challenges to them) with the time left, the digest
//! at the player's hour in their zone once a local day, a digest follower's news, and times
//! shown in each reader's zone.

use crate::service_common;

use std::sync::Arc;

use service_common::*;
use tegami::console::{Console, ConsoleClock};
use tegami::service::{FollowChange, Notice, Service, Via};
use tegami::store::{FollowStore, GameStore, SqliteStore, UserStore};

const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

/// The notices of a reply to `user`.
fn to<'a>(r: &'a tegami::service::Reply, user: &str) -> Vec<&'a Notice> {
    r.notify.iter().filter(|n| n.user == user).collect()
}

/// The sweep's notices at `t` (delivered: marked sent).
fn sweep(env: &Env, t: i64) -> tegami::service::Sweep {
    env.clock.set(t);
    let s = env.service.sweep(t).expect("sweep");
    let ids: Vec<i64> = s.notices.iter().map(|(id, _)| *id).collect();
    env.service.mark_sent(&ids).expect("mark sent");
    s
}

/// The digests (direct messages starting a daily list) of the outbox to `user`, by id.
fn digests_to(env: &Env, user: &str) -> Vec<String> {
    env.outbox()
        .into_iter()
        .filter(|o| o.user == user && o.via == "dm")
        .map(|o| o.text)
        .collect()
}

#[test]
fn anyone_in_the_server_follows_its_games_and_mistakes_change_nothing() {
    let env = Env::new();
    let g = env.start_game("alice", "bob", "shogi");
    for u in ["carol", "dave"] {
        env.ok(u, "games");
    }
    let r = env.ok("carol", &format!("follow {g}"));
    assert_eq!(
        r.text,
        format!(
            "You follow #{g} alice vs bob (Shogi): its moves reach you in its thread (added to \
             your threads, no ping). `unfollow {g}` stops."
        )
    );
    assert_eq!(r.follow, Some(FollowChange::Followed(g)));
    assert!(r.notify.is_empty(), "following pings nobody");
    // Twice is fine, and says so; another way of being told changes it.
    let r = env.ok("carol", &format!("follow {g}"));
    assert!(r.text.starts_with("You already follow #"), "{}", r.text);
    let r = env.ok("carol", &format!("follow {g} digest"));
    assert!(
        r.text.contains("now reach you in your daily digest"),
        "{}",
        r.text
    );
    assert_eq!(r.follow, None);
    // A follower's list.
    let r = env.ok("carol", "follow");
    assert_eq!(
        r.text,
        format!(
            "Games you follow:\n#{g} alice vs bob (Shogi) — in your daily digest; alice to move"
        )
    );
    assert!(env
        .ok("dave", "follow")
        .text
        .starts_with("You follow no game here."));

    // Refusals, each changing nothing.
    let elsewhere = env.start_game_in(&in_guild("other"), "erin", "fay", "shogi");
    let private = {
        let r = env.ok_in(&dm(), "erin", "challenge @fay shogi black");
        let c = number_after(&r.text, "Challenge #").expect("a challenge");
        let r = env.ok_in(&dm(), "fay", &format!("accept {c}"));
        r.game.expect("a game").id
    };
    let over = env.start_game("erin", "fay", "judkins");
    env.ok("fay", &format!("resign {over}"));
    let before = env.snapshot();
    let refusals = [
        (
            format!("follow {elsewhere}"),
            format!("there is no game #{elsewhere} in this server"),
        ),
        (
            format!("follow {private}"),
            format!("there is no game #{private} in this server"),
        ),
        (
            "follow 999".to_string(),
            "there is no game #999 in this server".to_string(),
        ),
        (format!("follow {over}"), format!("game #{over} is over")),
        (
            format!("unfollow {elsewhere}"),
            format!("you do not follow game #{elsewhere}"),
        ),
    ];
    for (line, says) in &refusals {
        let m = env.refused("dave", line);
        assert!(m.starts_with(says.as_str()), "{line}: {m}");
    }
    let m = env.refused("bob", &format!("follow {g}"));
    assert_eq!(
        m,
        format!("you play in game #{g}: its moves reach you already")
    );
    let m = env.refused_in(&dm(), "dave", &format!("follow {g}"));
    assert!(m.starts_with("follow a game from its server"), "{m}");
    env.snapshot().assert_same(&before, "refused follows");

    // Unfollowing; a thread follower is taken out of the thread they were added to.
    env.ok("dave", &format!("follow {g}"));
    env.service.set_thread(g, "7001").expect("a thread");
    let joins = env.service.thread_joins(None).expect("joins");
    assert_eq!(joins.len(), 1);
    assert_eq!(
        (
            joins[0].game,
            joins[0].user.as_str(),
            joins[0].thread.as_str()
        ),
        (g, "dave", "7001")
    );
    env.service.thread_joined(&joins[0]).expect("joined");
    assert!(env.service.thread_joins(Some(g)).expect("joins").is_empty());
    let r = env.ok("dave", &format!("unfollow {g}"));
    assert_eq!(r.text, format!("You no longer follow game #{g}."));
    assert_eq!(
        r.follow,
        Some(FollowChange::Unfollowed {
            game: g,
            thread: "7001".into()
        })
    );
    let r = env.ok("carol", &format!("unfollow {g}"));
    assert_eq!(r.follow, None, "a digest follower was in no thread");
    assert!(env
        .refused("carol", &format!("unfollow {g}"))
        .starts_with("you do not follow"));
}

#[test]
fn a_ping_follower_is_told_of_each_move_and_of_the_end_once() {
    let env = Env::new();
    let g = env.start_game("alice", "bob", "shogi");
    let other = env.start_game("alice", "erin", "shogi days=1");
    for u in ["carol", "dave", "fay"] {
        env.ok(u, "games");
    }
    env.ok("carol", &format!("follow {g} ping"));
    env.ok("dave", &format!("follow {g}"));
    env.ok("fay", &format!("follow {g} digest"));
    env.ok("carol", &format!("follow {other} notify=ping"));

    env.clock.set(T0 + HOUR);
    let r = env.ok("alice", &format!("move {g} 7g7f"));
    let told = to(&r, "carol");
    assert_eq!(told.len(), 1, "{:?}", r.notify);
    assert_eq!((told[0].via, told[0].game), (Via::Mention, Some(g)));
    assert_eq!(
        told[0].text,
        format!(
            "#{g} alice vs bob (Shogi): 1. P-7f. bob (white) to move, by 2026-01-04 01:00 UTC."
        )
    );
    for u in ["dave", "fay"] {
        assert!(to(&r, u).is_empty(), "{u} is not pinged: {:?}", r.notify);
    }
    env.service
        .mark_sent(&r.notify.iter().filter_map(|n| n.id).collect::<Vec<_>>())
        .expect("delivered");
    // Nothing more for the sweep: told once.
    let s = sweep(&env, T0 + 2 * HOUR);
    assert!(
        s.notices.iter().all(|(_, n)| n.user != "carol"),
        "{:?}",
        s.notices
    );

    // The end, by a resignation.
    let r = env.ok("bob", &format!("resign {g}"));
    let told = to(&r, "carol");
    assert_eq!(told.len(), 1, "{:?}", r.notify);
    assert_eq!(
        told[0].text,
        format!("#{g} alice vs bob (Shogi): alice (black) wins by resignation.")
    );

    // A loss on time, found by the sweep: told by the sweep.
    let s = sweep(&env, T0 + 2 * DAY);
    assert_eq!(s.timeouts, vec![other]);
    let told: Vec<&Notice> = s
        .notices
        .iter()
        .map(|(_, n)| n)
        .filter(|n| n.user == "carol")
        .collect();
    assert_eq!(told.len(), 1, "{:?}", s.notices);
    assert_eq!(
        told[0].text,
        format!("#{other} alice vs erin (Shogi): erin (white) wins by timeout.")
    );
    assert!(sweep(&env, T0 + 3 * DAY)
        .notices
        .iter()
        .all(|(_, n)| n.user != "carol"));
}

#[test]
fn a_ping_left_untold_by_a_crash_is_told_by_the_sweep_of_another_process_once() {
    let env = Env::new();
    let g = env.start_game("alice", "bob", "shogi");
    env.ok("carol", "games");
    env.ok("carol", &format!("follow {g} ping"));
    // A move stored without its follower step (the process stopped right after the commit).
    let store = env.store.clone();
    let row = env.game(g);
    let mut game = env.replay(g);
    let m = tegami::engine::notation::input::parse_move(game.position(), "7g7f").expect("a move");
    game.play(m).expect("legal");
    store
        .append_move(
            g,
            row.version,
            &tegami::store::MoveRow {
                ply: 1,
                code: "7g7f".into(),
                notation: "P-7f".into(),
                position: tegami::engine::notation::fen::write(game.position()),
                user: "alice".into(),
                played_at: T0 + 60,
            },
            &tegami::store::Turn {
                to_move: "bob",
                deadline: T0 + 3 * DAY,
                span: 3 * DAY,
                banks: [0, 0],
            },
            None,
            &[],
        )
        .expect("the move");
    // Two processes sweep: Carol is told once.
    let other = Service::new(
        Arc::new(SqliteStore::open(&env.path).expect("reopen")),
        env.clock.clone(),
        config(),
    );
    let a = env.service.sweep(T0 + 120).expect("sweep");
    let b = other.sweep(T0 + 120).expect("sweep");
    let texts: Vec<String> = env
        .outbox()
        .into_iter()
        .filter(|o| o.user == "carol")
        .map(|o| o.text)
        .collect();
    assert_eq!(
        texts,
        vec![format!(
            "#{g} alice vs bob (Shogi): 1. P-7f. bob (white) to move, by 2026-01-04 00:00 UTC."
        )],
        "{a:?} {b:?}"
    );
}

/// Alice's games: `b` (her move, 3 days), `a` (her move, 1 day: sooner), `c` (bob's move);
/// a challenge to her from dave, one of hers to erin. The clock an hour after they began.
fn daily_scene(env: &Env) -> (i64, i64, i64, i64) {
    let b = env.start_game("alice", "bob", "shogi days=3");
    let a = env.start_game("alice", "carol", "judkins days=1");
    let c = env.start_game("bob", "alice", "shogi days=2");
    env.ok("erin", "games");
    let r = env.ok("dave", "challenge @alice cannon");
    let challenge = number_after(&r.text, "Challenge #").expect("a challenge");
    env.ok("alice", "challenge @erin palace");
    env.clock.set(T0 + HOUR);
    (a, b, c, challenge)
}

#[test]
fn the_daily_list_is_the_players_move_by_deadline_then_the_opponents_then_challenges() {
    let env = Env::new();
    let (a, b, c, ch) = daily_scene(&env);
    let text = env.ok("alice", "games").text;
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "Your games (your move first):",
            &format!("#{a} Judkins Shogi vs carol — your move, 23h left (by 2026-01-02 00:00 UTC)"),
            &format!("#{b} Shogi vs bob — your move, 2d 23h left (by 2026-01-04 00:00 UTC)"),
            &format!("#{c} Shogi vs bob — bob's move, 1d 23h left (by 2026-01-03 00:00 UTC)"),
        ],
        "{text}"
    );
    assert!(
        lines[4..]
            .iter()
            .any(|l| l.contains(&format!("Challenge #{ch}"))),
        "{text}"
    );
    // Someone else's games, for anyone in the server: their move first, and how to follow.
    let text = env.ok("erin", "games @alice").text;
    assert!(
        text.starts_with("Games of alice (their move first):"),
        "{text}"
    );
    assert!(text.contains(&format!(
        "#{a} Judkins Shogi vs carol — alice's move, 23h left"
    )));
    assert!(
        !text.contains("Challenge #"),
        "challenges are their own business: {text}"
    );
    assert!(text.contains("`follow "), "how to follow: {text}");

    // The digest (Alice on a daily digest): the same order, the challenges to her last.
    env.ok("alice", "settings notify=digest");
    let s = sweep(&env, T0 + 2 * HOUR);
    assert_eq!(s.digests, vec!["alice".to_string()]);
    let d = digests_to(&env, "alice");
    assert_eq!(d.len(), 1);
    assert_eq!(
        d[0],
        format!(
            "your turn in 2 games: #{a}, #{b}\n\
             Your move:\n\
             • #{a} Judkins Shogi vs carol — your move, 22h left (by 2026-01-02 00:00 UTC)\n\
             • #{b} Shogi vs bob — your move, 2d 22h left (by 2026-01-04 00:00 UTC)\n\
             Your opponents' move:\n\
             • #{c} Shogi vs bob — bob's move, 1d 22h left (by 2026-01-03 00:00 UTC)\n\
             Challenges to you:\n\
             • challenge #{ch} (Cannon Shogi) from dave: `accept {ch}` or `decline {ch}`"
        )
    );
    // In her zone, once she chose one.
    env.ok("alice", "settings timezone=Asia/Tokyo");
    let text = env.ok("alice", "games").text;
    assert!(
        text.contains(&format!(
            "#{a} Judkins Shogi vs carol — your move, 22h left (by 2026-01-02 09:00 JST)"
        )),
        "{text}"
    );
}

#[test]
fn a_digest_comes_at_the_players_hour_in_their_zone_once_a_local_day() {
    let env = Env::new();
    // 2026-01-01T20:00Z is 05:00 on January 2nd in Tokyo.
    let t = T0 + 20 * HOUR;
    env.clock.set(t);
    let g = env.start_game("alice", "kenji", "shogi days=7");
    env.ok("alice", &format!("move {g} 7g7f"));
    // Refused, changing nothing: an unknown zone, an hour past 23.
    let before = env.snapshot();
    let m = env.refused(
        "kenji",
        "settings notify=digest timezone=Mars/Olympus digest_hour=8",
    );
    assert!(
        m.starts_with("timezone 'Mars/Olympus' is no time zone"),
        "{m}"
    );
    let m = env.refused("kenji", "settings digest_hour=24 timezone=Asia/Tokyo");
    assert!(
        m.starts_with("digest_hour=24: the digest's hour is 0 to 23"),
        "{m}"
    );
    env.snapshot().assert_same(&before, "refused settings");

    let r = env.ok(
        "kenji",
        "settings notify=digest digest_hour=8 timezone=asia/tokyo",
    );
    assert!(
        r.text
            .contains("digest_hour=8 (08:00 in your time zone), timezone=Asia/Tokyo"),
        "{}",
        r.text
    );
    // Not before 08:00 in Tokyo (23:00 UTC), then once.
    for at in [t + 60, t + 2 * HOUR, t + 3 * HOUR - 1] {
        assert!(sweep(&env, at).digests.is_empty(), "at {at}: too early");
    }
    assert!(digests_to(&env, "kenji").is_empty());
    let at8 = T0 + 23 * HOUR;
    assert_eq!(sweep(&env, at8).digests, vec!["kenji".to_string()]);
    let d = digests_to(&env, "kenji");
    assert_eq!(d.len(), 1);
    assert!(
        d[0].starts_with(&format!(
            "your turn in 1 game: #{g}\nYour move:\n\
             • #{g} Shogi vs alice — your move, 6d 21h left (by 2026-01-09 05:00 JST)"
        )),
        "{}",
        d[0]
    );
    // Later the same local day, and after a restart: nothing more.
    let restarted = Service::new(
        Arc::new(SqliteStore::open(&env.path).expect("reopen")),
        env.clock.clone(),
        config(),
    );
    for at in [at8 + 1, at8 + 5 * HOUR, at8 + DAY - 1] {
        env.clock.set(at);
        assert!(
            restarted.sweep(at).expect("sweep").digests.is_empty(),
            "at {at}"
        );
        assert!(sweep(&env, at).digests.is_empty(), "at {at}");
    }
    // Choosing another hour after today's digest: still one a local day.
    env.clock.set(at8 + HOUR);
    env.ok("kenji", "settings digest_hour=20");
    assert!(
        sweep(&env, at8 + 12 * HOUR).digests.is_empty(),
        "20:00 today: sent at 08:00"
    );
    env.clock.set(at8 + 13 * HOUR);
    env.ok("kenji", "settings digest_hour=8");
    // The next day's 08:00 in Tokyo: the next digest, by whichever process sweeps first.
    let next = at8 + DAY;
    let (a, b) = (sweep(&env, next), restarted.sweep(next).expect("sweep"));
    assert_eq!(a.digests.len() + b.digests.len(), 1, "{a:?} {b:?}");
    assert_eq!(digests_to(&env, "kenji").len(), 2);

    // Missed hours (the bot down for two days): one digest when it is back, then at 08:00.
    let back = next + 2 * DAY + 5 * HOUR;
    assert_eq!(sweep(&env, back).digests, vec!["kenji".to_string()]);
    assert!(sweep(&env, next + 3 * DAY - 1).digests.is_empty());
    assert_eq!(
        sweep(&env, next + 3 * DAY).digests,
        vec!["kenji".to_string()]
    );
    // A day with nothing to say sends nothing: the move answered.
    env.clock.set(next + 3 * DAY + HOUR);
    env.ok("kenji", &format!("move {g} 3c3d"));
    assert!(sweep(&env, next + 4 * DAY).digests.is_empty());
    assert_eq!(digests_to(&env, "kenji").len(), 4);
    // Back to the default: a day after the last digest.
    env.ok("kenji", "settings digest_hour=none timezone=default");
    let row = env.store.user("kenji").unwrap().expect("kenji");
    assert_eq!((row.digest_hour, row.timezone), (None, None));
}

#[test]
fn a_digest_follower_reads_the_moves_and_the_end_since_their_last_digest() {
    let env = Env::new();
    let g = env.start_game("alice", "bob", "shogi");
    env.ok("carol", "games");
    env.ok("carol", "settings digest_hour=9");
    env.ok("carol", &format!("follow {g} digest"));
    // Carol is on mentions: the digest is hers for the game she follows.
    assert_eq!(
        env.store.user("carol").unwrap().unwrap().next_digest_at,
        Some(T0 + 9 * HOUR)
    );
    assert!(sweep(&env, T0 + 9 * HOUR).digests.is_empty(), "nothing yet");
    env.clock.set(T0 + 10 * HOUR);
    for (who, m) in [("alice", "7g7f"), ("bob", "3c3d")] {
        let r = env.ok(who, &format!("move {g} {m}"));
        assert!(to(&r, "carol").is_empty(), "no ping per move");
    }
    assert!(sweep(&env, T0 + DAY + 9 * HOUR - 1).digests.is_empty());
    assert_eq!(
        sweep(&env, T0 + DAY + 9 * HOUR).digests,
        vec!["carol".to_string()]
    );
    let d = digests_to(&env, "carol");
    assert_eq!(
        d,
        vec![format!(
            "no game waits for your move.\n\
             Games you follow:\n\
             • #{g} alice vs bob (Shogi): 2 moves since your last digest: 1. P-7f 1… P-3d. \
             alice (black) to move, by 2026-01-04 10:00 UTC."
        )]
    );
    // The end is in the next day's digest, once.
    env.clock.set(T0 + DAY + 12 * HOUR);
    env.ok("alice", &format!("resign {g}"));
    assert_eq!(
        sweep(&env, T0 + 2 * DAY + 9 * HOUR).digests,
        vec!["carol".to_string()]
    );
    let d = digests_to(&env, "carol");
    assert_eq!(
        d[1],
        format!(
            "no game waits for your move.\n\
             Games you follow:\n\
             • #{g} alice vs bob (Shogi): bob (white) wins by resignation."
        )
    );
    assert!(sweep(&env, T0 + 3 * DAY + 9 * HOUR).digests.is_empty());
    // Unfollowed, and no other digest: none planned any more.
    env.ok("carol", &format!("unfollow {g}"));
    sweep(&env, T0 + 4 * DAY + 9 * HOUR);
    assert_eq!(
        env.store.user("carol").unwrap().unwrap().next_digest_at,
        None
    );
    let planned: Vec<String> = env
        .store
        .digests_at(T0 + 30 * DAY, T0 + 29 * DAY, 10)
        .unwrap()
        .into_iter()
        .map(|u| u.id)
        .collect();
    assert!(planned.is_empty(), "{planned:?}");
}

#[test]
fn times_shown_to_a_player_are_in_their_zone_and_public_posts_in_utc() {
    let env = Env::new();
    let g = env.start_game("alice", "bob", "shogi");
    env.ok("bob", "settings timezone=Asia/Tokyo");
    // Alice's move: announced publicly in UTC; Bob's notice and views in his zone.
    let r = env.ok("alice", &format!("move {g} 7g7f"));
    assert!(r.text.contains("by 2026-01-04 00:00 UTC"), "{}", r.text);
    let board = env.ok("bob", &format!("board {g}")).text;
    assert!(board.contains("by 2026-01-04 09:00 JST"), "{board}");
    let board = env.ok("alice", &format!("board {g}")).text;
    assert!(board.contains("by 2026-01-04 00:00 UTC"), "{board}");
    // Bob's reminder (24 hours before his deadline), in his zone.
    let s = sweep(&env, T0 + 2 * DAY + 1);
    let bob: Vec<&Notice> = s
        .notices
        .iter()
        .map(|(_, n)| n)
        .filter(|n| n.user == "bob")
        .collect();
    assert_eq!(bob.len(), 1, "{:?}", s.notices);
    assert!(
        bob[0].text.contains("due by 2026-01-04 09:00 JST"),
        "{}",
        bob[0].text
    );
    // His vacation's end too.
    let r = env.ok("bob", "vacation 2");
    assert!(r.text.contains("until 2026-01-05 09:00 JST"), "{}", r.text);
    // The settings show the zone; `UTC` goes back to it.
    assert!(env
        .ok("bob", "settings")
        .text
        .contains("timezone=Asia/Tokyo"));
    env.ok("bob", "settings timezone=UTC");
    let board = env.ok("bob", &format!("board {g}")).text;
    assert!(board.contains(" UTC"), "{board}");
}

#[test]
fn the_console_follows_and_sets_the_digests_hour() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let store = Arc::new(SqliteStore::open(dir.path().join("c.db")).expect("open"));
    let clock = Arc::new(ConsoleClock::new());
    let service = Service::new(store.clone(), clock.clone(), config());
    let mut console = Console::new(service, clock, dir.path().join("out"));
    let mut say = |line: &str| console.line(line);
    say("tick 2026-12-01T12:00:00Z");
    say("@alice challenge @bob shogi black");
    say("@bob accept");
    let out = say("@carol follow 1 ping");
    assert!(
        out.starts_with(
            "You follow #1 alice vs bob (Shogi): its moves reach you by a mention at each move."
        ),
        "{out}"
    );
    let out = say("@alice move 7g7f");
    assert!(
        out.contains(
            "→ @carol (mention): #1 alice vs bob (Shogi): 1. P-7f. bob (white) to move, \
             by 2026-12-04 12:0"
        ),
        "{out}"
    );
    let out = say("@carol follow 1 shout");
    assert_eq!(out, "✗ notify 'shout' is not thread, digest or ping");
    let out = say("@carol follow");
    assert!(
        out.contains("#1 alice vs bob (Shogi) — by a mention at each move; bob to move"),
        "{out}"
    );
    let out = say("@carol unfollow 1");
    assert_eq!(out, "You no longer follow game #1.");
    let out = say("@carol unfollow 1");
    assert!(out.starts_with("✗ you do not follow game #1"), "{out}");
    let out = say("@bob settings digest_hour=8 timezone=Asia/Tokyo");
    assert!(
        out.contains("digest_hour=8 (08:00 in your time zone), timezone=Asia/Tokyo"),
        "{out}"
    );
    let out = say("@bob settings timezone=Nowhere/Else");
    assert!(
        out.starts_with("✗ timezone 'Nowhere/Else' is no time zone"),
        "{out}"
    );
    let out = say("@bob settings digest_hour=noon");
    assert!(
        out.starts_with("✗ digest_hour=noon: give an hour from 0 to 23"),
        "{out}"
    );
    let out = say("@bob games");
    assert!(
        out.contains("#1 Shogi vs alice — your move, 3d left (by 2026-12-04 21:0"),
        "{out}"
    );
    let out = say("@bob follow 1");
    assert!(out.starts_with("✗ you play in game #1"), "{out}");
    let _ = store.integrity_check();
}

#[test]
fn a_move_in_the_second_a_digest_follower_followed_is_in_their_digest_once() {
    let env = Env::new();
    // 2026-01-01T22:00Z: 07:00 on January 2nd in Tokyo. Everything in that second.
    env.clock.set(T0 + 22 * HOUR);
    let g = env.start_game("alice", "bob", "shogi");
    env.ok("dave", "games");
    env.ok("dave", &format!("follow {g} digest"));
    env.ok("dave", "settings digest_hour=8 timezone=Asia/Tokyo");
    env.ok("alice", &format!("move {g} 7g7f"));
    assert!(sweep(&env, T0 + 23 * HOUR - 1).digests.is_empty());
    assert_eq!(
        sweep(&env, T0 + 23 * HOUR + 5).digests,
        vec!["dave".to_string()]
    );
    let d = digests_to(&env, "dave");
    assert!(
        d[0].contains(&format!(
            "#{g} alice vs bob (Shogi): 1 move since your last digest: 1. P-7f."
        )),
        "{}",
        d[0]
    );
    // Told once: the next day, nothing new, no digest.
    assert!(sweep(&env, T0 + 47 * HOUR).digests.is_empty());
}
