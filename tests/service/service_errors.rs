//! Bad input gets a clear reply and changes nothing: unknown and malformed commands, bad moves
//! of many kinds, unknown game ids, someone else's game, moving out of turn, challenges that
//! cannot be accepted, stale buttons and offers, bad challenge options; a game or challenge of
//! another server (or, in direct messages, of other players) is not there; a third user acts on
//! no game. After each refusal the whole database (users, games, moves, challenges, offers) is
//! compared with a snapshot taken before it.

use crate::service_common;

use std::sync::Arc;

use service_common::*;
use tegami::console::{Console, ConsoleClock};
use tegami::service::{parse_command, Clock, Command, CommandError, Place, Service, UserRef};
use tegami::store::{ChallengeStatus, ChallengeStore, GameStatus, OfferKind, UserStore};

/// Refused with a message containing every one of `fragments`, and nothing changed.
fn refused(env: &Env, user: &str, line: &str, fragments: &[&str]) -> String {
    let before = env.snapshot();
    let msg = env.refused(user, line);
    for f in fragments {
        assert!(
            msg.contains(f),
            "@{user} {line}: the refusal should say {f:?}: {msg}"
        );
    }
    before.assert_same(&env.snapshot(), &format!("@{user} {line}"));
    msg
}

/// `refused` for a command built by hand.
fn refused_cmd(env: &Env, user: &str, cmd: Command, fragments: &[&str]) -> String {
    let shown = format!("{cmd:?}");
    let before = env.snapshot();
    let msg = env.refused_cmd(user, cmd);
    for f in fragments {
        assert!(
            msg.contains(f),
            "@{user} {shown}: the refusal should say {f:?}: {msg}"
        );
    }
    before.assert_same(&env.snapshot(), &format!("@{user} {shown}"));
    msg
}

/// An environment where alice, bob, carol and dave are known users.
fn env() -> Env {
    let env = Env::new();
    for u in ["alice", "bob", "carol", "dave"] {
        env.ok(u, "games");
    }
    env
}

/// A Shogi game, alice (Black) against bob, with `moves` played.
fn shogi(env: &Env, moves: &[&str]) -> i64 {
    let game = env.start_game("alice", "bob", "shogi");
    for (i, m) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        env.ok(who, &format!("move {game} {m}"));
    }
    game
}

#[test]
fn unknown_and_malformed_commands_are_explained() {
    let cases: &[(&str, &str)] = &[
        ("dance", "unknown command 'dance'"),
        ("", "empty command"),
        ("challenge", "usage: challenge"),
        ("challenge bob shogi", "'bob' is not a player"),
        ("challenge @bob", "usage: challenge"),
        ("challenge @bob shogi purple", "usage: challenge"),
        (
            "challenge @bob shogi days=abc",
            "days=abc: the days per move must be a number",
        ),
        ("challenge @bob shogi speed=3", "usage: challenge"),
        ("accept x", "usage: accept"),
        ("accept 1 2", "usage: accept"),
        ("move", "usage: move"),
        ("board 1 2 3", "usage: board"),
        ("board 1 x", "usage: board"),
        ("moves 1 5e 5f", "usage: moves"),
        ("resign now", "usage: resign"),
        ("draw 3 maybe", "usage: draw"),
        ("takeback 3 please", "usage: takeback"),
        ("impasse 3 1 2", "usage: impasse"),
        ("history a b", "usage: history"),
        ("game", "usage: game"),
        ("game abc", "usage: game"),
        ("game 1 x", "usage: game"),
        ("record", "usage: record"),
        ("export x", "usage: export"),
        ("rules", "usage: rules"),
        ("settings loud", "usage: settings"),
    ];
    for (line, fragment) in cases {
        let e = parse_command(line).expect_err(line);
        let msg = e.to_string();
        assert!(
            msg.contains(fragment),
            "{line:?}: {msg:?} should say {fragment:?}"
        );
        if *line == "dance" {
            assert!(matches!(e, CommandError::Unknown(_)));
            assert!(msg.contains("help"), "{msg}");
        }
    }

    // Through the console over the same database: a clear line, nothing stored.
    let env = env();
    let game = shogi(&env, &["7g7f"]);
    let clock = Arc::new(ConsoleClock::new());
    // The console's clock reads the game's time (else the deadline would be long past).
    clock.set(env.clock.now());
    let service = Service::new(env.store.clone(), clock.clone(), config());
    let mut console = Console::new(service, clock, env.dir.path().join("images"));
    let before = env.snapshot();
    for (line, fragment) in [
        ("@alice dance", "✗ unknown command 'dance'"),
        ("@alice challenge bob shogi", "✗ 'bob' is not a player"),
        ("@bob move", "✗ usage: move"),
        ("alice games", "✗ start the line with the user who speaks"),
        ("@alice", "✗ @alice says nothing"),
        ("@bob move 1 hello", "✗ 'hello'"),
        ("@alice move 3c3d", "✗ it is not your turn"),
        ("tick yesterday", "✗ 'yesterday' is not an RFC 3339 time"),
    ] {
        let out = console.line(line);
        assert!(
            out.starts_with(fragment),
            "{line:?}: {out:?} should start with {fragment:?}"
        );
    }
    before.assert_same(&env.snapshot(), "bad console lines");
    assert_eq!(env.game(game).ply, 1);
}

#[test]
fn bad_moves_are_refused_with_the_reason() {
    let env = env();
    let game = shogi(&env, &["7g7f", "3c3d"]);
    let g = |m: &str| format!("move {game} {m}");
    // Alice (Black) is to move.
    refused(&env, "alice", &g("hello"), &["'hello'"]);
    refused(
        &env,
        "alice",
        &g("7g7f7e7d"),
        &["'7g7f7e7d' is not a move I can read"],
    );
    refused(&env, "alice", &g("5e5d"), &["there is no piece on 5e"]);
    refused(
        &env,
        "alice",
        &g("3d3e"),
        &["the piece on 3d is your opponent's"],
    );
    refused(&env, "alice", &g("2g2e"), &["cannot move to 2e"]);
    refused(&env, "alice", &g("1i1g"), &["your own piece stands on 1g"]);
    refused(&env, "alice", &g("2g2f+"), &["promotes only"]);
    refused(&env, "alice", &g("P*5e"), &["you have no pawn in hand"]);
    refused(&env, "alice", &g("0a0b"), &["0a is not a square of Shogi"]);
    refused(&env, "alice", &g("7j7k"), &["7j is not a square of Shogi"]);
    refused(&env, "alice", &g("K-9a"), &["king"]);
    refused(&env, "alice", &g("G-5h"), &["could be several moves"]);
    // The bishop exchange promotes or not: a choice the player must make.
    refused(&env, "alice", &g("Bx2b"), &["promote or not"]);

    // Self-check: bob's gold on 4b is pinned by the horse on 3c.
    let pinned = shogi(&env, &["7g7f", "4a4b", "8h3c+"]);
    refused(
        &env,
        "bob",
        &format!("move {pinned} 4b4a"),
        &["would leave your king in check"],
    );
    // In check, a move that does not answer it.
    let check = shogi(&env, &["7g7f", "3c3d", "8h2b+", "3a2b", "B*4b"]);
    refused(
        &env,
        "bob",
        &format!("move {check} 9c9d"),
        &["your king is in check"],
    );
    // A drop of a piece not in hand (Black holds nothing after dropping the bishop).
    env.ok("bob", &format!("move {check} 5a5b"));
    refused(
        &env,
        "alice",
        &format!("move {check} B*5e"),
        &["you have no bishop in hand"],
    );
    // Shanghai Palace Chess: a king blocked by its own piece, and confined to its palace.
    let sh = env.start_game("carol", "dave", "shanghai");
    refused(
        &env,
        "carol",
        &format!("move {sh} e1e2"),
        &["your own piece stands on e2"],
    );
    refused(
        &env,
        "carol",
        &format!("move {sh} e1e5"),
        &["never leaves its palace"],
    );
    // Judkins Shogi has no square 7g.
    let jk = env.start_game("carol", "dave", "judkins");
    refused(
        &env,
        "carol",
        &format!("move {jk} 7g7f"),
        &["7g is not a square of Judkins Shogi (files 1-6, ranks a-f)"],
    );
    for id in [game, pinned, check, sh, jk] {
        env.replay(id);
    }
}

#[test]
fn unknown_game_ids_are_refused() {
    let env = env();
    shogi(&env, &["7g7f"]);
    for line in [
        "move 999 7g7f",
        "resign 999",
        "draw 999 offer",
        "draw 999 accept",
        "takeback 999 request",
        "impasse 999 propose",
        "board 999",
        "moves 999",
        "game 999",
        "game 999 3",
        "record 999",
        "export 999 sfen",
    ] {
        refused(&env, "alice", line, &["there is no game #999"]);
    }
    for line in ["accept 999", "decline 999", "cancel 999"] {
        refused(&env, "bob", line, &["there is no challenge #999"]);
    }
}

#[test]
fn someone_elses_game_is_refused() {
    let env = env();
    let game = shogi(&env, &["7g7f", "3c3d"]);
    env.ok("alice", &format!("draw {game} offer"));
    for line in [
        format!("move {game} 2g2f"),
        format!("move {game} 8c8d"),
        format!("resign {game}"),
        format!("draw {game} offer"),
        format!("draw {game} accept"),
        format!("draw {game} decline"),
        format!("takeback {game} request"),
        format!("takeback {game} accept"),
        format!("impasse {game} propose"),
    ] {
        refused(
            &env,
            "carol",
            &line,
            &[&format!("you do not play in game #{game}")],
        );
    }
    // Looking is allowed.
    env.ok("carol", &format!("board {game}"));
    env.ok("carol", &format!("record {game}"));
    let row = env.game(game);
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.ply, 2);
    assert!(env.store.offer(game, OfferKind::Draw).unwrap().is_some());
}

#[test]
fn moving_out_of_turn_is_refused() {
    let env = env();
    let game = shogi(&env, &["7g7f"]);
    refused(
        &env,
        "alice",
        &format!("move {game} 2g2f"),
        &["not your turn", "bob is to move"],
    );
    env.ok("bob", &format!("move {game} 3c3d"));
    refused(
        &env,
        "bob",
        &format!("move {game} 8c8d"),
        &["not your turn", "alice is to move"],
    );
    // Without a game id too (the only game of each).
    refused(&env, "bob", "move 8c8d", &["not your turn"]);
    // Nobody moves in a finished game.
    env.ok("bob", &format!("resign {game}"));
    refused(&env, "alice", &format!("move {game} 2g2f"), &["is over"]);
    refused(&env, "bob", &format!("move {game} 8c8d"), &["is over"]);
    refused(&env, "alice", &format!("draw {game} offer"), &["is over"]);
    refused(&env, "alice", &format!("resign {game}"), &["is over"]);
    refused(
        &env,
        "bob",
        &format!("takeback {game} request"),
        &["is over"],
    );
}

#[test]
fn which_game_must_be_said_when_it_is_not_clear() {
    let env = env();
    refused(&env, "dave", "move 7g7f", &["no game in progress"]);
    refused(&env, "dave", "resign", &["no game in progress"]);
    let a = env.start_game("alice", "bob", "shogi");
    let b = env.start_game("alice", "carol", "shogi");
    refused(
        &env,
        "alice",
        "move 7g7f",
        &["2 games in progress", &format!("#{a}"), &format!("#{b}")],
    );
    // Once only one game has alice to move, it is the one.
    env.ok("alice", &format!("move {a} 7g7f"));
    env.ok("alice", "move 7g7f");
    assert_eq!(env.game(b).ply, 1);
}

#[test]
fn challenges_that_cannot_be_accepted() {
    let env = env();
    let r = env.ok("alice", "challenge @bob judkins");
    let c = number_after(&r.text, "Challenge #").unwrap();
    refused(
        &env,
        "alice",
        &format!("accept {c}"),
        &["your own", &format!("cancel {c}")],
    );
    refused(&env, "alice", &format!("decline {c}"), &["your own"]);
    refused(
        &env,
        "carol",
        &format!("accept {c}"),
        &["addressed to bob, not to you"],
    );
    refused(
        &env,
        "carol",
        &format!("decline {c}"),
        &["not addressed to you"],
    );
    refused(
        &env,
        "bob",
        &format!("cancel {c}"),
        &["not yours to cancel"],
    );
    refused(&env, "carol", "accept", &["nobody has challenged you"]);
    env.ok("bob", &format!("accept {c}"));
    assert_eq!(
        env.store.challenge(c).unwrap().unwrap().status,
        ChallengeStatus::Accepted
    );
    refused(
        &env,
        "bob",
        &format!("accept {c}"),
        &["no longer open", "accepted"],
    );
    refused(&env, "carol", &format!("accept {c}"), &["no longer open"]);
    refused(&env, "alice", &format!("cancel {c}"), &["no longer open"]);
    refused(&env, "bob", "accept", &["nobody has challenged you"]);

    // An open challenge: anyone but its author accepts it, once.
    let r = env.ok("alice", "challenge open palace");
    let open = number_after(&r.text, "Challenge #").unwrap();
    refused(&env, "alice", &format!("accept {open}"), &["your own"]);
    env.ok("dave", &format!("accept {open}"));
    refused(
        &env,
        "carol",
        &format!("accept {open}"),
        &["no longer open"],
    );

    // Declined and cancelled challenges stay so.
    let d = number_after(
        &env.ok("carol", "challenge @dave cannon").text,
        "Challenge #",
    )
    .unwrap();
    env.ok("dave", &format!("decline {d}"));
    refused(
        &env,
        "dave",
        &format!("accept {d}"),
        &["no longer open", "declined"],
    );
    let x = number_after(
        &env.ok("carol", "challenge @dave cannon").text,
        "Challenge #",
    )
    .unwrap();
    env.ok("carol", &format!("cancel {x}"));
    refused(
        &env,
        "dave",
        &format!("accept {x}"),
        &["no longer open", "cancelled"],
    );

    // An expired challenge.
    let e = number_after(&env.ok("carol", "challenge @bob shogi").text, "Challenge #").unwrap();
    env.clock.advance(8 * 86_400);
    refused(
        &env,
        "bob",
        &format!("accept {e}"),
        &["no longer open", "expired"],
    );
}

#[test]
fn bad_challenges_are_refused() {
    let env = env();
    let cases: &[(&str, &[&str])] = &[
        ("challenge @alice shogi", &["cannot challenge yourself"]),
        (
            "challenge @zed chess",
            &["unknown game 'chess'", "shogi", "shanghai"],
        ),
        (
            "challenge @zed shogi handicap=queen",
            &["unknown handicap 'queen'", "rook"],
        ),
        ("challenge @zed palace handicap=rook", &["has no handicaps"]),
        ("challenge @zed shogi setup=smith", &["has no named setups"]),
        (
            "challenge @zed shanghai setup=jones",
            &["unknown setup 'jones'", "smith"],
        ),
        (
            "challenge @zed shogi handicap=rook setup=smith",
            &["either a handicap or a setup"],
        ),
        (
            "challenge @zed shogi days=4",
            &["days per move must be one of", "14"],
        ),
        (
            "challenge @zed shogi days=0",
            &["days per move must be one of"],
        ),
        (
            "challenge @zed shogi days=100",
            &["days per move must be one of"],
        ),
        (
            "challenge @zed shogi handicap=rook rated",
            &["handicap games are casual"],
        ),
    ];
    for (line, fragments) in cases {
        refused(&env, "alice", line, fragments);
    }
    // The would-be opponent was not even recorded.
    assert!(env.store.user("zed").unwrap().is_none());
}

#[test]
fn stale_buttons_and_cancelled_offers_are_refused() {
    let env = env();
    let game = shogi(&env, &[]);
    // A move button shown at ply 0, pressed after two moves.
    env.ok("alice", &format!("move {game} 7g7f"));
    env.ok("bob", &format!("move {game} 3c3d"));
    refused_cmd(
        &env,
        "alice",
        Command::Move {
            game: Some(game),
            text: "2g2f".into(),
            seen_ply: Some(0),
        },
        &["the position changed"],
    );
    // The same button with the current ply works.
    env.ok("alice", "games");
    let r = env
        .try_cmd(
            "alice",
            Command::Move {
                game: Some(game),
                text: "2g2f".into(),
                seen_ply: Some(2),
            },
        )
        .expect("a fresh button works");
    assert!(!r.error, "{}", r.text);

    // A draw offer cancelled by a move.
    let r = env.ok("bob", &format!("draw {game} offer"));
    let accept = r
        .buttons
        .iter()
        .find(|b| b.label == "Accept")
        .expect("an accept button")
        .command
        .clone();
    env.ok("bob", &format!("move {game} 8c8d"));
    assert_eq!(env.store.offer(game, OfferKind::Draw).unwrap(), None);
    refused(
        &env,
        "alice",
        &accept,
        &["there is no offer", "a move since cancels an offer"],
    );
    // A takeback request cancelled by a move.
    env.ok("alice", &format!("takeback {game} request"));
    env.ok("alice", &format!("move {game} 6g6f"));
    refused(
        &env,
        "bob",
        &format!("takeback {game} accept"),
        &["there is no offer"],
    );
    // Accepting one's own offer, declining what was never offered, offering twice.
    env.ok("bob", &format!("draw {game} offer"));
    refused(
        &env,
        "bob",
        &format!("draw {game} accept"),
        &["there is no offer"],
    );
    refused(
        &env,
        "bob",
        &format!("draw {game} offer"),
        &["already offered"],
    );
    refused(
        &env,
        "alice",
        &format!("takeback {game} decline"),
        &["no offer"],
    );
    let fresh = env.start_game("carol", "dave", "shogi");
    refused(
        &env,
        "carol",
        &format!("takeback {fresh} request"),
        &["no move to take back"],
    );
    let palace = env.start_game("carol", "dave", "palace");
    refused(
        &env,
        "carol",
        &format!("impasse {palace} propose"),
        &["has no impasse rule"],
    );
    refused(
        &env,
        "carol",
        &format!("impasse {fresh} propose"),
        &["both kings"],
    );
    assert_eq!(env.game(game).status, GameStatus::Active);
}

#[test]
fn bad_lookups_are_refused() {
    let env = env();
    let game = shogi(&env, &["7g7f", "3c3d"]);
    let palace = env.start_game("carol", "dave", "palace");
    refused(
        &env,
        "alice",
        &format!("game {game} 3"),
        &["has 2 moves", "0 to 2"],
    );
    refused(
        &env,
        "alice",
        &format!("export {game} pgn"),
        &["unknown export format 'pgn'"],
    );
    refused(
        &env,
        "alice",
        &format!("export {palace} kif"),
        &["for Shogi only"],
    );
    refused(
        &env,
        "alice",
        &format!("export {palace} fen"),
        &["Shogi and Judkins"],
    );
    refused(
        &env,
        "alice",
        &format!("moves {game} z9"),
        &["'z9' is not a square"],
    );
    refused(&env, "alice", "rules chess", &["unknown game 'chess'"]);
    refused(
        &env,
        "alice",
        "rules shogi dragonfly",
        &["is not a piece of Shogi"],
    );
    refused(&env, "alice", "settings style=fancy", &["style 'fancy'"]);
    refused(
        &env,
        "alice",
        "settings notify=pigeon",
        &["notify 'pigeon'"],
    );
    refused(&env, "alice", "help dance", &["no command 'dance'"]);
}

/// Refused from `place` with a message containing every one of `fragments`, and nothing
/// changed.
fn refused_in(env: &Env, place: &Place, user: &str, line: &str, fragments: &[&str]) -> String {
    let before = env.snapshot();
    let msg = env.refused_in(place, user, line);
    for f in fragments {
        assert!(
            msg.contains(f),
            "@{user} {line} in {place:?}: the refusal should say {f:?}: {msg}"
        );
    }
    before.assert_same(&env.snapshot(), &format!("@{user} {line} in {place:?}"));
    msg
}

/// `refused_in` for a command built by hand.
fn refused_cmd_in(
    env: &Env,
    place: &Place,
    user: &str,
    cmd: Command,
    fragments: &[&str],
) -> String {
    let shown = format!("{cmd:?} in {place:?}");
    let before = env.snapshot();
    let msg = env.refused_cmd_in(place, user, cmd);
    for f in fragments {
        assert!(
            msg.contains(f),
            "@{user} {shown}: the refusal should say {f:?}: {msg}"
        );
    }
    before.assert_same(&env.snapshot(), &format!("@{user} {shown}"));
    msg
}

/// The commands that only look at a game, by number.
fn looking_lines(game: i64) -> Vec<String> {
    vec![
        format!("board {game}"),
        format!("board {game} 1"),
        format!("board {game} 1 international"),
        format!("moves {game}"),
        format!("record {game}"),
        format!("export {game}"),
        format!("export {game} kif"),
        format!("game {game}"),
        format!("game {game} 1"),
        format!("replay {game}"),
    ]
}

/// The commands that act on a game, by number (alice, Black, is to move after 7g7f 3c3d).
fn acting_lines(game: i64) -> Vec<String> {
    vec![
        format!("move {game} 2g2f"),
        format!("move {game} 8c8d"),
        format!("resign {game}"),
        format!("draw {game} offer"),
        format!("draw {game} accept"),
        format!("draw {game} decline"),
        format!("takeback {game} request"),
        format!("takeback {game} accept"),
        format!("impasse {game} propose"),
        format!("moretime {game}"),
    ]
}

#[test]
fn a_game_of_another_server_is_not_there() {
    let env = env();
    let (a, b) = (in_guild("guild-a"), in_guild("guild-b"));
    let game = env.start_game_in(&a, "alice", "bob", "shogi");
    env.ok_in(&a, "alice", &format!("move {game} 7g7f"));
    env.ok_in(&a, "bob", &format!("move {game} 3c3d"));
    let missing = format!("there is no game #{game}");

    // In its server, anyone looks at it.
    for who in ["alice", "bob", "carol"] {
        for line in looking_lines(game) {
            env.ok_in(&a, who, &line);
        }
        let r = env
            .try_cmd_in(&a, who, Command::Replay { game })
            .expect("a replay in the game's server");
        assert!(!r.error, "{}", r.text);
        assert!(r.attachments.iter().any(|f| f.name.ends_with(".gif")));
    }
    // In another server, nobody sees it, not even its players, and nobody acts on it.
    for who in ["alice", "bob", "carol"] {
        for line in looking_lines(game).into_iter().chain(acting_lines(game)) {
            refused_in(&env, &b, who, &line, &[&missing]);
        }
        refused_cmd_in(&env, &b, who, Command::Replay { game }, &[&missing]);
        refused_cmd_in(
            &env,
            &b,
            who,
            Command::Board {
                game: Some(game),
                ply: Some(2),
                style: Some("kanji".into()),
            },
            &[&missing],
        );
        refused_cmd_in(
            &env,
            &b,
            who,
            Command::Move {
                game: Some(game),
                text: "2g2f".into(),
                seen_ply: Some(2),
            },
            &[&missing],
        );
        let e = env
            .service
            .game_for(&user(who), &b, Some(game))
            .expect_err("game_for in another server");
        assert!(e.to_string().contains(&missing), "{e}");
    }
    // Without a number, the players have no game there.
    for line in ["move 2g2f", "board", "moves", "resign", "draw", "moretime"] {
        refused_in(
            &env,
            &b,
            "alice",
            line,
            &["no game in progress in this server"],
        );
    }
    assert!(env
        .service
        .game_for(&user("alice"), &b, None)
        .unwrap_err()
        .to_string()
        .contains("no game in progress in this server"));
    // Lists of server B leave it out; server A's list it.
    let r = env.ok_in(&b, "alice", "games");
    assert!(!r.text.contains(&format!("#{game}")), "{}", r.text);
    assert!(
        r.text.contains("You have no game in progress"),
        "{}",
        r.text
    );
    let r = env.ok_in(&b, "carol", "games @alice");
    assert!(!r.text.contains(&format!("#{game}")), "{}", r.text);
    assert!(
        r.text.contains("has no game in progress here"),
        "{}",
        r.text
    );
    assert!(env
        .ok_in(&a, "alice", "games")
        .text
        .contains(&format!("#{game} Shogi vs bob")));
    assert!(env
        .ok_in(&a, "carol", "games @bob")
        .text
        .contains(&format!("#{game} Shogi vs alice")));
    assert!(env
        .service
        .suggest_moves(&user("alice"), &b, None, "", 25)
        .is_empty());
    assert!(!env
        .service
        .suggest_moves(&user("alice"), &a, None, "", 25)
        .is_empty());

    // Once over, it is in the history of server A only.
    env.ok_in(&a, "alice", "resign");
    for place in [&a, &dm()] {
        let r = env.ok_in(place, "alice", "history");
        assert!(
            r.text
                .contains(&format!("#{game} Shogi vs bob — lost by resignation")),
            "{}",
            r.text
        );
    }
    assert!(env
        .ok_in(&a, "carol", "history @bob")
        .text
        .contains(&format!("#{game} Shogi vs alice — won")));
    for (who, line) in [
        ("alice", "history"),
        ("bob", "history"),
        ("carol", "history @alice"),
    ] {
        let r = env.ok_in(&b, who, line);
        assert!(!r.text.contains(&format!("#{game}")), "{line}: {}", r.text);
        assert!(
            r.text.contains("has no finished game yet"),
            "{line}: {}",
            r.text
        );
    }
    // Still no game there, even finished.
    for line in looking_lines(game) {
        refused_in(&env, &b, "alice", &line, &[&missing]);
    }
    let row = env.game(game);
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.ply, 2);
}

#[test]
fn in_direct_messages_a_player_sees_their_own_games_only() {
    let env = env();
    let (a, b) = (in_guild("guild-a"), in_guild("guild-b"));
    let ga = env.start_game_in(&a, "alice", "bob", "shogi");
    let gb = env.start_game_in(&b, "carol", "alice", "judkins");
    env.ok_in(&a, "alice", &format!("move {ga} 7g7f"));
    let dm = dm();

    // Alice plays in both: she sees and lists both from direct messages.
    for game in [ga, gb] {
        for line in looking_lines(game) {
            if game == gb && line.contains("kif") {
                continue; // KIF is for Shogi only
            }
            if game == gb && line.contains(&format!("{game} 1")) {
                continue; // no move yet
            }
            env.ok_in(&dm, "alice", &line);
        }
        assert_eq!(
            env.service
                .game_for(&user("alice"), &dm, Some(game))
                .expect("her game from direct messages")
                .id,
            game
        );
    }
    let r = env.ok_in(&dm, "alice", "games");
    assert!(
        r.text.contains(&format!("#{ga} Shogi vs bob")),
        "{}",
        r.text
    );
    assert!(
        r.text.contains(&format!("#{gb} Judkins Shogi vs carol")),
        "{}",
        r.text
    );
    // And acts on them from there.
    let r = env.ok_in(&dm, "bob", &format!("move {ga} 3c3d"));
    assert!(
        r.text.contains(&format!("Game #{ga}: bob plays")),
        "{}",
        r.text
    );
    assert_eq!(env.game(ga).ply, 2);

    // Dave plays in neither: neither is there for him, in direct messages.
    let missing = |g: i64| format!("there is no game #{g}");
    for game in [ga, gb] {
        for line in looking_lines(game).into_iter().chain(acting_lines(game)) {
            refused_in(&env, &dm, "dave", &line, &[&missing(game)]);
        }
        refused_cmd_in(
            &env,
            &dm,
            "dave",
            Command::Replay { game },
            &[&missing(game)],
        );
    }
    // Carol plays in gb only: ga is not there for her.
    for line in looking_lines(ga).into_iter().chain(acting_lines(ga)) {
        refused_in(&env, &dm, "carol", &line, &[&missing(ga)]);
    }
    env.ok_in(&dm, "carol", &format!("board {gb}"));
    // Without a number, a user in direct messages has their games of every server.
    refused_in(
        &env,
        &dm,
        "dave",
        "board",
        &["you have no game in progress"],
    );
    let r = env.ok_in(&dm, "carol", "board");
    assert!(r.text.contains(&format!("Game #{gb}")), "{}", r.text);

    // Someone else's history is not shown in direct messages; one's own is.
    for (who, line) in [("dave", "history @alice"), ("alice", "history @carol")] {
        refused_in(
            &env,
            &dm,
            who,
            line,
            &["in direct messages you see your own history only"],
        );
    }
    env.ok_in(&dm, "alice", "history @alice");
    env.ok_in(&a, "dave", "history @alice");
    // Nor someone else's games (they may be of servers the asker is not in).
    let msg = refused_in(&env, &dm, "dave", "games @alice", &["your own"]);
    assert!(!msg.contains(&format!("#{ga}")), "{msg}");
    env.ok_in(&dm, "alice", "games @alice");
    // Nor someone else's stats (their games in progress in every server).
    refused_in(&env, &dm, "dave", "stats @alice", &["your own stats"]);
    env.ok_in(&dm, "alice", "stats");
    env.ok_in(&a, "dave", "stats @alice");
}

#[test]
fn a_challenge_of_another_server_is_not_there() {
    let env = env();
    let (a, b) = (in_guild("guild-a"), in_guild("guild-b"));
    let r = env.ok_in(&a, "alice", "challenge @bob shogi");
    let c = number_after(&r.text, "Challenge #").unwrap();
    let missing = format!("there is no challenge #{c}");
    for (who, line) in [
        ("bob", format!("accept {c}")),
        ("bob", format!("decline {c}")),
        ("alice", format!("cancel {c}")),
        ("carol", format!("accept {c}")),
    ] {
        refused_in(&env, &b, who, &line, &[&missing]);
    }
    refused_in(&env, &b, "bob", "accept", &["nobody has challenged you"]);
    refused_in(&env, &b, "bob", "decline", &["nobody has challenged you"]);
    refused_in(&env, &b, "alice", "cancel", &["you have no open challenge"]);
    // Listed in its server only.
    assert!(!env
        .ok_in(&b, "bob", "games")
        .text
        .contains(&format!("Challenge #{c}")));
    assert!(env
        .ok_in(&a, "bob", "games")
        .text
        .contains(&format!("Challenge #{c} (shogi, from alice)")));
    // In direct messages, only the two it names see it.
    refused_in(&env, &dm(), "carol", &format!("accept {c}"), &[&missing]);
    refused_in(&env, &dm(), "carol", &format!("decline {c}"), &[&missing]);
    assert!(env
        .ok_in(&dm(), "bob", "games")
        .text
        .contains(&format!("Challenge #{c}")));
    assert_eq!(
        env.store.challenge(c).unwrap().unwrap().status,
        ChallengeStatus::Open
    );
    // Bob accepts it from direct messages: the game belongs to server A.
    let r = env.ok_in(&dm(), "bob", &format!("accept {c}"));
    let game = number_after(&r.text, "Game #").unwrap();
    assert_eq!(env.game(game).guild.as_deref(), Some("guild-a"));
    refused_in(
        &env,
        &b,
        "alice",
        &format!("board {game}"),
        &["there is no game"],
    );
    env.ok_in(&a, "carol", &format!("board {game}"));

    // An open challenge: taken in its server only.
    let r = env.ok_in(&a, "alice", "challenge open palace");
    let open = number_after(&r.text, "Challenge #").unwrap();
    let missing = format!("there is no challenge #{open}");
    refused_in(&env, &b, "carol", &format!("accept {open}"), &[&missing]);
    refused_in(&env, &dm(), "carol", &format!("accept {open}"), &[&missing]);
    let r = env.ok_in(&a, "carol", &format!("accept {open}"));
    let game = number_after(&r.text, "Game #").unwrap();
    assert_eq!(env.game(game).guild.as_deref(), Some("guild-a"));
}

#[test]
fn a_third_user_changes_nothing_in_a_game() {
    let env = env();
    let game = shogi(&env, &["7g7f", "3c3d"]);
    env.ok("alice", &format!("draw {game} offer"));
    env.ok("alice", &format!("takeback {game} request"));
    let row = env.game(game);
    let mine = format!("you do not play in game #{game}");
    for line in acting_lines(game) {
        refused(&env, "carol", &line, &[&mine]);
    }
    // Buttons pressed by someone else.
    for text in ["2g2f", "8c8d"] {
        refused_cmd(
            &env,
            "carol",
            Command::Move {
                game: Some(game),
                text: text.into(),
                seen_ply: Some(2),
            },
            &[&mine],
        );
    }
    assert!(env
        .service
        .game_for(&user("carol"), &server(), Some(game))
        .unwrap_err()
        .to_string()
        .contains(&mine));
    // In direct messages the game is not even there for them.
    for line in acting_lines(game) {
        refused_in(
            &env,
            &dm(),
            "carol",
            &line,
            &[&format!("there is no game #{game}")],
        );
    }
    // Without a number, carol (who plays nothing) acts on no game of theirs.
    for line in [
        "move 2g2f",
        "resign",
        "draw accept",
        "takeback accept",
        "moretime",
    ] {
        refused(&env, "carol", line, &["no game in progress"]);
    }
    assert_eq!(env.game(game), row);
    assert!(env.store.offer(game, OfferKind::Draw).unwrap().is_some());
    assert!(env
        .store
        .offer(game, OfferKind::Takeback)
        .unwrap()
        .is_some());
    // The players still can.
    env.ok("bob", &format!("takeback {game} accept"));
    assert_eq!(env.game(game).ply, 0);
}

#[test]
fn only_the_challenged_user_accepts_a_challenge_addressed_to_them() {
    let env = env();
    let r = env.ok("alice", "challenge @bob cannon black");
    let c = number_after(&r.text, "Challenge #").unwrap();
    let accept = r
        .buttons
        .iter()
        .find(|b| b.label == "Accept")
        .expect("an Accept button")
        .command
        .clone();
    let decline = r
        .buttons
        .iter()
        .find(|b| b.label == "Decline")
        .expect("a Decline button")
        .command
        .clone();
    for who in ["carol", "dave"] {
        refused(&env, who, &accept, &["addressed to bob, not to you"]);
        refused(&env, who, &decline, &["not addressed to you"]);
        refused(&env, who, "accept", &["nobody has challenged you"]);
        refused(&env, who, &format!("cancel {c}"), &["not yours to cancel"]);
    }
    let row = env.store.challenge(c).unwrap().unwrap();
    assert_eq!(row.status, ChallengeStatus::Open);
    assert_eq!(row.game_id, None);
    let r = env.ok("bob", &accept);
    let game = number_after(&r.text, "Game #").unwrap();
    assert_eq!(
        env.game(game).players,
        ["alice".to_string(), "bob".to_string()]
    );
}

#[test]
fn board_replay_and_games_arguments_are_read() {
    let ok = |line: &str| parse_command(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    assert_eq!(
        ok("board 3 12 international"),
        Command::Board {
            game: Some(3),
            ply: Some(12),
            style: Some("international".into())
        }
    );
    assert_eq!(
        ok("!board #3 12 KANJI"),
        Command::Board {
            game: Some(3),
            ply: Some(12),
            style: Some("kanji".into())
        }
    );
    assert_eq!(
        ok("board 3 kanji"),
        Command::Board {
            game: Some(3),
            ply: None,
            style: Some("kanji".into())
        }
    );
    assert_eq!(
        ok("board international"),
        Command::Board {
            game: None,
            ply: None,
            style: Some("international".into())
        }
    );
    assert_eq!(
        ok("board 3 0"),
        Command::Board {
            game: Some(3),
            ply: Some(0),
            style: None
        }
    );
    assert_eq!(
        ok("board"),
        Command::Board {
            game: None,
            ply: None,
            style: None
        }
    );
    assert_eq!(ok("replay 4"), Command::Replay { game: 4 });
    assert_eq!(ok("/replay #4"), Command::Replay { game: 4 });
    assert_eq!(
        ok("games @bob"),
        Command::Games {
            user: Some(UserRef::id_only("bob"))
        }
    );
    assert_eq!(
        ok("games <@!1234>"),
        Command::Games {
            user: Some(UserRef::id_only("1234"))
        }
    );
    assert_eq!(ok("games"), Command::Games { user: None });
    for (line, fragment) in [
        (
            "board 1 2 3",
            "usage: board [GAME_ID] [PLY] [kanji|international]",
        ),
        ("board 1 2 fancy", "usage: board"),
        ("board 1 -2", "usage: board"),
        ("board 1 2 kanji international", "usage: board"),
        ("replay", "usage: replay GAME_ID"),
        ("replay x", "usage: replay GAME_ID"),
        ("replay 0", "usage: replay GAME_ID"),
        ("replay 1 2", "usage: replay GAME_ID"),
        ("games @bob @carol", "usage: games [@USER]"),
    ] {
        match parse_command(line) {
            Err(CommandError::Usage(msg)) => {
                let msg = msg.to_string();
                assert!(
                    msg.contains(fragment),
                    "{line:?}: {msg:?} should say {fragment:?}"
                )
            }
            other => panic!("{line:?}: a usage error expected, got {other:?}"),
        }
    }
}

#[test]
fn board_ply_and_style_are_checked_against_the_game() {
    let env = env();
    let game = shogi(&env, &["7g7f", "3c3d"]);
    let r = env.ok("carol", &format!("board {game} 1 international"));
    assert!(
        r.text.contains("After 1 of 2 moves. Last move: P-7f."),
        "{}",
        r.text
    );
    assert_eq!(r.game.as_ref().map(|g| g.id), Some(game));
    refused(
        &env,
        "carol",
        &format!("board {game} 3"),
        &["has 2 moves", "0 to 2"],
    );
}

// ---------------------------------------------------------------------------------------------
// Caps (issue 20): open challenges, challenges to one opponent, games against the computer.

#[test]
fn open_challenges_are_capped_per_user_and_per_opponent() {
    use tegami::service::{MAX_OPEN_CHALLENGES, MAX_OPEN_TO_ONE};
    let env = env();
    // Three to each of bob, carol and dave, one open to anyone: ten.
    let mut ids = Vec::new();
    for who in ["@bob", "@carol", "@dave"] {
        for _ in 0..MAX_OPEN_TO_ONE {
            let r = env.ok("alice", &format!("challenge {who} shogi"));
            ids.push(number_after(&r.text, "Challenge #").unwrap());
        }
        // A fourth to the same opponent is refused, naming the three and how to cancel.
        let msg = refused(
            &env,
            "alice",
            &format!("challenge {who} palace"),
            &["you already have 3 open challenges to", "cancel"],
        );
        assert!(msg.contains(&format!("#{}", ids[ids.len() - 3])), "{msg}");
    }
    let r = env.ok("alice", "challenge open shogi");
    ids.push(number_after(&r.text, "Challenge #").unwrap());
    assert_eq!(ids.len(), MAX_OPEN_CHALLENGES);
    let msg = refused(
        &env,
        "alice",
        "challenge open shogi",
        &[
            "you have 10 open challenges, the most one player may have",
            &format!("`cancel {}`", ids[0]),
        ],
    );
    assert!(msg.contains(&format!("#{}", ids[9])), "{msg}");
    // Others are not held back by alice's challenges.
    env.ok("bob", "challenge @alice shogi");
    // Withdrawing one makes room.
    env.ok("alice", &format!("cancel {}", ids[9]));
    env.ok("alice", "challenge open shogi");
    // An accepted challenge is no longer open.
    env.ok("bob", &format!("accept {}", ids[0]));
    env.ok("alice", "challenge @bob judkins");
}

#[test]
fn a_cancel_and_challenge_again_loop_stops_after_ten_a_day() {
    use tegami::service::MAX_DAILY_TO_ONE;
    let env = env();
    for _ in 0..MAX_DAILY_TO_ONE {
        let r = env.ok("alice", "challenge @bob shogi");
        let c = number_after(&r.text, "Challenge #").unwrap();
        env.ok("alice", &format!("cancel {c}"));
        env.clock.advance(60);
    }
    let first = T0;
    let msg = refused(
        &env,
        "alice",
        "challenge @bob shogi",
        &[
            "you have challenged bob 10 times in the last 24 hours, the most allowed",
            &format!(
                "you may challenge them again from {}",
                tegami::service::format_time(first + tegami::service::DAY)
            ),
        ],
    );
    assert!(!msg.contains("open challenges"), "{msg}");
    // Others may still be challenged, and bob may challenge alice.
    env.ok("alice", "challenge @carol shogi");
    env.ok("bob", "challenge @alice shogi");
    // A day after the first, one more is allowed.
    env.clock.set(first + tegami::service::DAY);
    env.ok("alice", "challenge @bob shogi");
    refused(
        &env,
        "alice",
        "challenge @bob shogi",
        &["10 times in the last 24 hours"],
    );
}

#[test]
fn games_against_the_computer_are_capped_per_user() {
    use tegami::service::{User, MAX_COMPUTER_GAMES};
    let env = env();
    env.service.set_computer(User::new("tegami", "Tegami"));
    let mut games = Vec::new();
    for _ in 0..MAX_COMPUTER_GAMES {
        let r = env.ok("alice", "challenge @tegami shogi level=1 first");
        games.push(number_after(&r.text, "Game #").unwrap());
    }
    let msg = refused(
        &env,
        "alice",
        "challenge @tegami palace",
        &[
            "you have 5 games against Tegami in progress",
            "the most at once: finish or resign one first",
        ],
    );
    assert!(msg.contains(&format!("#{}", games[0])), "{msg}");
    // Others may play it; a game over makes room.
    env.ok("bob", "challenge @tegami shogi level=1 first");
    env.ok("alice", &format!("resign {}", games[0]));
    env.ok("alice", "challenge @tegami shogi level=1 first");
}

// ---------------------------------------------------------------------------------------------
// A failure after a change was stored never answers "nothing was changed" (issue 20).

#[test]
fn a_move_whose_board_cannot_be_drawn_is_stored_and_announced() {
    let env = env();
    let game = shogi(&env, &[]);
    env.service.set_render_fault(true);
    let before = env.outbox().len();
    // Through `handle`, as the adapters call it.
    let r = env.send("alice", &format!("move {game} 7g7f"));
    assert!(!r.error, "{}", r.text);
    assert!(r.text.contains("alice plays 1. P-7f"), "{}", r.text);
    assert!(r.text.contains("the change stands"), "{}", r.text);
    assert!(!r.text.contains("nothing was changed"), "{}", r.text);
    assert!(r.attachments.is_empty());
    assert_eq!(env.game(game).ply, 1, "the move is stored");
    assert_eq!(r.notify.len(), 1, "bob is told");
    assert_eq!(env.outbox().len(), before + 1);
    // Every other change of a game, too.
    let r = env.send("bob", &format!("resign {game}"));
    assert!(!r.error && r.text.contains("bob resigns"), "{}", r.text);
    assert_eq!(env.game(game).status, GameStatus::Finished);
    let r = env.send("alice", "challenge @bob shogi black");
    let c = number_after(&r.text, "Challenge #").unwrap();
    let r = env.send("bob", &format!("accept {c}"));
    assert!(!r.error && r.text.contains("begins"), "{}", r.text);
    assert!(r.text.contains("the change stands"), "{}", r.text);
    // Off again: the picture comes back (when pictures are on).
    env.service.set_render_fault(false);
    let game = number_after(&r.text, "Game #").unwrap();
    let r = env.send("alice", &format!("move {game} 7g7f"));
    assert!(!r.text.contains("could not be drawn"), "{}", r.text);
}
