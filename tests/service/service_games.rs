//! Full games through the command core on a real SQLite file: every variant played to a
//! decisive end on the board by a seeded mate-seeking player, resignation, draw by agreement,
//! takeback, repetition (Shogi and Palace Shogi fourfold, Shanghai's forbidden third), impasse
//! by agreement, a handicap game and a Shanghai `setup=smith` game. Each scenario then drops the
//! service, reopens the database file with a fresh `SqliteStore` and finds everything there.
//!
//! Then what the Discord adapter relies on: every notice a command returns is a row of the
//! outbox until marked sent; a move at the deadline ends the game on time; reads write nothing
//! (and a renamed user is renamed); move suggestions are the legal moves of the right game.

use crate::service_common;

use service_common::*;
use tegami::engine::notation::{code, fen, human, input};
use tegami::engine::{
    handicap_position, impasse, setup_position, Color, Game, Move, Outcome, Position, Reason,
    Variant, VariantId,
};
use tegami::service::{
    Clock, Command, Place, Reply, Request, Service, Suggestion, User, UserRef, Via,
};
use tegami::store::{
    ChallengeStatus, ChallengeStore, GameResult, GameStatus, GameStore, RatingStore, SqliteStore,
    UserStore,
};

use std::sync::Arc;

/// What a scenario left in the database, checked after reopening it.
#[derive(Debug)]
struct Expect {
    game: i64,
    variant: &'static str,
    setup: Option<String>,
    start: String,
    players: [&'static str; 2],
    status: GameStatus,
    /// Result and reason once finished.
    ending: Option<(GameResult, String)>,
    /// Whether the end is on the board (the engine finds the same outcome from the log).
    on_board: bool,
    codes: Vec<String>,
    /// The challenge the game came from, if it came from one through the core.
    challenge: Option<i64>,
}

impl Expect {
    /// The current state of a game of `env` as the expectation (the test checks separately
    /// that it is what it should be).
    fn of(env: &Env, game: i64, players: [&'static str; 2], challenge: Option<i64>) -> Expect {
        let row = env.game(game);
        let codes = env
            .store
            .moves(game)
            .unwrap()
            .into_iter()
            .map(|m| m.code)
            .collect();
        let ending = row
            .result
            .map(|r| (r, row.reason.clone().expect("a reason")));
        let on_board = env.replay(game).outcome().is_some();
        Expect {
            game,
            variant: VariantId::parse(&row.variant).unwrap().as_str(),
            setup: row.setup.clone(),
            start: row.start_position.clone(),
            players,
            status: row.status,
            ending,
            on_board,
            codes,
            challenge,
        }
    }
}

/// Challenges through the core (the first player challenges, playing the first side) and
/// accepts; returns the game and challenge ids.
fn start(env: &Env, first: &str, second: &str, args: &str) -> (i64, i64) {
    let r = env.ok(first, &format!("challenge @{second} {args} black"));
    let challenge = number_after(&r.text, "Challenge #").unwrap();
    assert!(r
        .buttons
        .iter()
        .any(|b| b.command == format!("accept {challenge}")));
    let c = env.store.challenge(challenge).unwrap().unwrap();
    assert_eq!(c.status, ChallengeStatus::Open);
    assert_eq!(c.challenged.as_deref(), Some(second));
    let r = env.ok(second, &format!("accept {challenge}"));
    let game = number_after(&r.text, "Game #").unwrap();
    assert!(r.text.contains("begins"), "{}", r.text);
    let c = env.store.challenge(challenge).unwrap().unwrap();
    assert_eq!(c.status, ChallengeStatus::Accepted);
    assert_eq!(c.game_id, Some(game));
    let row = env.game(game);
    assert_eq!(row.players, [first.to_string(), second.to_string()]);
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.ply, 0);
    (game, challenge)
}

/// The user to move in a game.
fn mover(env: &Env, game: i64, g: &Game) -> String {
    player(&env.game(game), g.position().side_to_move()).to_string()
}

/// Plays `moves` through the core; the last one must end the game with `outcome`, none before.
fn play_to_the_end(env: &Env, game: i64, g: &mut Game, moves: &[Move], outcome: Outcome) {
    let names = env.game(game).players;
    for (i, &m) in moves.iter().enumerate() {
        let who = mover(env, game, g);
        let r = env.play(game, &who, g, m);
        let row = env.game(game);
        assert_eq!(row.ply as usize, g.moves().len());
        assert_eq!(row.position, fen::write(g.position()));
        if i + 1 < moves.len() {
            assert_eq!(row.status, GameStatus::Active, "ply {}: {}", i + 1, r.text);
            assert!(!r.text.contains(" wins by "), "ply {}: {}", i + 1, r.text);
            assert!(
                !r.buttons.is_empty(),
                "a move of a game going on has buttons"
            );
        } else {
            assert_eq!(g.outcome(), Some(outcome));
            let (result, reason) = result_of(outcome);
            let said = reason.replace('-', " ");
            match outcome {
                Outcome::Win { winner, .. } => {
                    let name = &names[winner.index()];
                    assert!(
                        r.text.contains(&format!("{name} ("))
                            && r.text.contains(&format!("wins by {said}.")),
                        "the last reply should say the game is over: {}",
                        r.text
                    );
                }
                Outcome::Draw { .. } => {
                    assert!(r.text.contains(&format!("Draw by {said}.")), "{}", r.text)
                }
            }
            assert!(
                r.buttons.is_empty(),
                "no game buttons once over: {:?}",
                r.buttons
            );
            assert_eq!(row.status, GameStatus::Finished);
            assert_eq!(row.result, Some(result));
            assert_eq!(row.reason.as_deref(), Some(reason));
            assert!(row.finished_at.is_some());
            assert_eq!(row.deadline, None);
        }
    }
}

/// A decisive game of the mate-seeking player from a game's start, played through the core.
fn decisive(env: &Env, game: i64, want: impl Fn(Outcome) -> bool) -> Outcome {
    let mut g = env.replay(game);
    let (_, moves, outcome) = decisive_game_where(&g, 700, want);
    play_to_the_end(env, game, &mut g, &moves, outcome);
    // Nothing more can be played.
    let c = code::write(g.variant(), g.moves()[0]);
    let who = mover(env, game, &g);
    let before = env.snapshot();
    let msg = env.refused(&who, &format!("move {game} {c}"));
    assert!(msg.contains("is over"), "{msg}");
    before.assert_same(&env.snapshot(), "a move after the end");
    outcome
}

fn on_board(o: Outcome) -> bool {
    matches!(o, Outcome::Win { reason, .. } if matches!(reason, Reason::Checkmate | Reason::EnteringKing | Reason::Stalemate))
}

// ---------------------------------------------------------------- scenarios

fn scenario_decisive_games(env: &Env) -> Vec<Expect> {
    let mut out = Vec::new();
    let pairs = [
        (VariantId::Shogi, "alice", "bob"),
        (VariantId::Judkins, "bob", "carol"),
        (VariantId::Cannon, "carol", "alice"),
        (VariantId::Palace, "alice", "carol"),
        (VariantId::Shanghai, "bob", "alice"),
    ];
    for (v, first, second) in pairs {
        let (game, challenge) = start(env, first, second, v.as_str());
        let o = decisive(env, game, on_board);
        assert!(on_board(o), "{v:?}: {o:?}");
        out.push(Expect::of(env, game, [first, second], Some(challenge)));
    }
    // The other decisive ends on the board: Palace Shogi's entering king, a stalemate (a loss
    // in Judkins Shogi).
    let (game, challenge) = start(env, "carol", "bob", "palace");
    let o = decisive(env, game, |o| o.reason() == Reason::EnteringKing);
    assert_eq!(o.reason(), Reason::EnteringKing);
    out.push(Expect::of(env, game, ["carol", "bob"], Some(challenge)));
    let (game, challenge) = start(env, "alice", "bob", "judkins");
    let o = decisive(env, game, |o| o.reason() == Reason::Stalemate);
    assert_eq!(o.reason(), Reason::Stalemate);
    out.push(Expect::of(env, game, ["alice", "bob"], Some(challenge)));
    out
}

fn scenario_resignation(env: &Env) -> Vec<Expect> {
    let (game, challenge) = start(env, "alice", "bob", "cannon days=5");
    assert_eq!(env.game(game).control.days, 5);
    let mut g = env.replay(game);
    let mut rng = Rng::new(7);
    for _ in 0..6 {
        let m = mate_seeking(&g, &mut rng);
        let who = mover(env, game, &g);
        env.play(game, &who, &mut g, m);
    }
    // Bob resigns when it is not even his turn.
    assert_eq!(mover(env, game, &g), "alice");
    let r = env.ok("bob", &format!("resign {game}"));
    assert!(r.text.contains("bob resigns"), "{}", r.text);
    assert!(
        r.text.contains("alice (") && r.text.contains("wins by resignation"),
        "{}",
        r.text
    );
    assert!(
        r.notify.iter().any(|n| n.user == "alice"),
        "the winner is told"
    );
    let row = env.game(game);
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result, Some(GameResult::First));
    assert_eq!(row.reason.as_deref(), Some("resignation"));
    assert_eq!(row.ply, 6);
    // Resigning again, or moving, is refused.
    let msg = env.refused("alice", &format!("resign {game}"));
    assert!(msg.contains("is over"), "{msg}");
    vec![Expect::of(env, game, ["alice", "bob"], Some(challenge))]
}

fn scenario_draw_by_agreement(env: &Env) -> Vec<Expect> {
    let mut out = Vec::new();
    // Offer, then accept, in Judkins Shogi.
    let (game, challenge) = start(env, "alice", "bob", "judkins");
    let mut g = env.replay(game);
    let mut rng = Rng::new(11);
    for _ in 0..3 {
        let m = mate_seeking(&g, &mut rng);
        let who = mover(env, game, &g);
        env.play(game, &who, &mut g, m);
    }
    let r = env.ok("alice", &format!("draw {game} offer"));
    assert!(r.text.contains("offers a draw"), "{}", r.text);
    assert!(r
        .buttons
        .iter()
        .any(|b| b.command == format!("draw {game} accept")));
    let offer = env
        .store
        .offer(game, tegami::store::OfferKind::Draw)
        .unwrap()
        .expect("the offer is stored");
    assert_eq!(offer.from_user, "alice");
    assert_eq!(offer.ply, 3);
    let r = env.ok("bob", &format!("draw {game} accept"));
    assert!(r.text.contains("Draw by agreement."), "{}", r.text);
    let row = env.game(game);
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result, Some(GameResult::Draw));
    assert_eq!(row.reason.as_deref(), Some("agreement"));
    assert_eq!(
        env.store
            .offer(game, tegami::store::OfferKind::Draw)
            .unwrap(),
        None,
        "the offer is gone with the end"
    );
    out.push(Expect::of(env, game, ["alice", "bob"], Some(challenge)));

    // `draw` without a word offers, and the other's `draw` accepts (Palace Shogi).
    let (game, challenge) = start(env, "carol", "bob", "palace");
    let r = env.ok("bob", &format!("draw {game}"));
    assert!(r.text.contains("offers a draw"), "{}", r.text);
    let r = env.ok("carol", &format!("draw {game}"));
    assert!(r.text.contains("Draw by agreement."), "{}", r.text);
    assert_eq!(env.game(game).result, Some(GameResult::Draw));
    out.push(Expect::of(env, game, ["carol", "bob"], Some(challenge)));
    out
}

fn scenario_takeback(env: &Env) -> Vec<Expect> {
    let (game, challenge) = start(env, "alice", "bob", "shogi");
    for (who, mv) in [("alice", "7g7f"), ("bob", "3c3d"), ("alice", "2g2f")] {
        env.ok(who, &format!("move {game} {mv}"));
    }
    let after_two = env.store.moves(game).unwrap()[1].position.clone();
    let version = env.game(game).version;

    // Alice takes back her last move (one ply).
    let r = env.ok("alice", &format!("takeback {game} request"));
    assert!(
        r.text.contains("take back") && r.text.contains("(1 move)"),
        "{}",
        r.text
    );
    let r = env.ok("bob", &format!("takeback {game} accept"));
    assert!(r.text.contains("1 move is taken back"), "{}", r.text);
    assert!(r.text.contains("alice to move"), "{}", r.text);
    let row = env.game(game);
    assert_eq!(row.ply, 2);
    assert_eq!(row.position, after_two);
    assert!(row.version > version);
    let codes: Vec<String> = env
        .store
        .moves(game)
        .unwrap()
        .into_iter()
        .map(|m| m.code)
        .collect();
    assert_eq!(codes, ["7g7f", "3c3d"]);
    env.replay(game);

    // The same ply is played again, with another move.
    let r = env.ok("alice", &format!("move {game} 6g6f"));
    assert!(r.text.contains("2. P-6f"), "{}", r.text);
    let moves = env.store.moves(game).unwrap();
    assert_eq!(moves.len(), 3);
    assert_eq!(moves[2].ply, 3);
    assert_eq!(moves[2].code, "6g6f");

    // Bob, to move, takes back his own last move: two plies (alice's reply and his move).
    let r = env.ok("bob", &format!("takeback {game}"));
    assert!(r.text.contains("(2 moves)"), "{}", r.text);
    let r = env.ok("alice", &format!("takeback {game}"));
    assert!(r.text.contains("2 moves are taken back"), "{}", r.text);
    assert!(r.text.contains("bob to move"), "{}", r.text);
    let row = env.game(game);
    assert_eq!(row.ply, 1);
    assert_eq!(env.store.moves(game).unwrap().len(), 1);
    env.ok("bob", &format!("move {game} 8c8d"));
    env.ok("alice", &format!("move {game} 2g2f"));
    let codes: Vec<String> = env
        .store
        .moves(game)
        .unwrap()
        .into_iter()
        .map(|m| m.code)
        .collect();
    assert_eq!(codes, ["7g7f", "8c8d", "2g2f"]);
    env.replay(game);

    // The log is append-only: the taken-back moves are kept, marked.
    let snap = env.snapshot();
    let rows: Vec<_> = snap
        .rows("moves")
        .iter()
        .filter(|r| r[1] == rusqlite::types::Value::Integer(game))
        .collect();
    assert_eq!(rows.len(), 6, "every move ever played is in the table");
    let marked = rows
        .iter()
        .filter(|r| r[8] == rusqlite::types::Value::Integer(1))
        .count();
    assert_eq!(marked, 3, "the three taken-back moves are marked");
    vec![Expect::of(env, game, ["alice", "bob"], Some(challenge))]
}

/// Shuffles `codes` (four plies that come back to the start) `times` times through the core.
fn shuffle(env: &Env, game: i64, codes: &[&str; 4], plies: usize) -> Vec<tegami::service::Reply> {
    let row = env.game(game);
    let mut replies = Vec::new();
    for i in 0..plies {
        let who = &row.players[i % 2];
        replies.push(env.ok(who, &format!("move {game} {}", codes[i % 4])));
    }
    replies
}

fn scenario_repetition(env: &Env) -> Vec<Expect> {
    let mut out = Vec::new();
    // Shogi: both rooks back and forth; the fourth occurrence of the start position is a draw
    // (sennichite, no checks).
    let (game, challenge) = start(env, "alice", "bob", "shogi");
    let replies = shuffle(env, game, &["2h3h", "8b7b", "3h2h", "7b8b"], 12);
    for r in &replies[..11] {
        assert!(!r.text.contains("Draw"), "{}", r.text);
    }
    assert!(
        replies[11].text.contains("Draw by repetition."),
        "{}",
        replies[11].text
    );
    let row = env.game(game);
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result, Some(GameResult::Draw));
    assert_eq!(row.reason.as_deref(), Some("repetition"));
    assert_eq!(
        env.replay(game).outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
    out.push(Expect::of(env, game, ["alice", "bob"], Some(challenge)));

    // Palace Shogi: fourfold repetition is a draw too.
    let (game, challenge) = start(env, "bob", "carol", "palace");
    let replies = shuffle(env, game, &["2h3h", "8b7b", "3h2h", "7b8b"], 12);
    assert!(
        replies[11].text.contains("Draw by repetition."),
        "{}",
        replies[11].text
    );
    let row = env.game(game);
    assert_eq!(row.result, Some(GameResult::Draw));
    assert_eq!(row.reason.as_deref(), Some("repetition"));
    out.push(Expect::of(env, game, ["bob", "carol"], Some(challenge)));

    // Shanghai Palace Chess: the move that would make a position for the third time is refused,
    // and nothing is stored.
    let (game, challenge) = start(env, "carol", "alice", "shanghai");
    let codes = ["c2b4", "c8b6", "b4c2", "b6c8"];
    shuffle(env, game, &codes, 7);
    let before = env.snapshot();
    let msg = env.refused("alice", &format!("move {game} b6c8"));
    assert!(
        msg.contains("third time"),
        "the refusal should say why: {msg}"
    );
    // The same in algebraic notation.
    let msg = env.refused("alice", &format!("move {game} Nc8"));
    assert!(msg.contains("third time"), "{msg}");
    before.assert_same(&env.snapshot(), "a refused third repetition");
    let row = env.game(game);
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.ply, 7);
    // Another move is fine.
    env.ok("alice", &format!("move {game} a7a6"));
    out.push(Expect::of(env, game, ["carol", "alice"], Some(challenge)));
    out
}

/// A Shogi game from a composed position (set in the database before the first move, as a test
/// fixture: the core only starts games from the standard, handicap and named setups): both kings
/// one step from their zones, Black holding almost everything. The kings step in through the core,
/// then impasse is proposed and accepted: Black has 44 points, White 10 (24 needed): Black wins.
fn scenario_impasse(env: &Env) -> Vec<Expect> {
    let mut out = Vec::new();
    // Before both kings are in their zones, impasse is refused (an ordinary game).
    let (game, challenge) = start(env, "alice", "bob", "shogi");
    let before = env.snapshot();
    let msg = env.refused("alice", &format!("impasse {game} propose"));
    assert!(msg.contains("both kings"), "{msg}");
    before.assert_same(&env.snapshot(), "an impasse proposed too early");
    env.ok("alice", &format!("move {game} 7g7f"));
    out.push(Expect::of(env, game, ["alice", "bob"], Some(challenge)));

    // The fixture: a new game through the core, its start position replaced before any move
    // (Black to move in both, so the player to move stays alice).
    let (game, challenge) = start(env, "alice", "bob", "shogi");
    let v = Variant::get(VariantId::Shogi);
    let pos = fen::write(&fen::parse(v, "9/9/9/4K4/9/4k4/9/9/9 b RB4G4S4N4L18Prb 1").unwrap());
    let conn = rusqlite::Connection::open(&env.path).unwrap();
    let n = conn
        .execute(
            "UPDATE games SET start_position = ?1, position = ?1 WHERE id = ?2 AND ply = 0",
            rusqlite::params![pos, game],
        )
        .unwrap();
    assert_eq!(n, 1);
    drop(conn);
    let msg = env.refused("alice", &format!("impasse {game} propose"));
    assert!(msg.contains("both kings"), "{msg}");
    env.ok("alice", &format!("move {game} 5d5c"));
    let msg = env.refused("bob", &format!("impasse {game} propose"));
    assert!(msg.contains("both kings"), "{msg}");
    env.ok("bob", &format!("move {game} 5f5g"));
    let g = env.replay(game);
    assert!(impasse::eligible(g.position()));
    // Only the side to move may propose.
    let msg = env.refused("bob", &format!("impasse {game} propose"));
    assert!(msg.contains("side to move"), "{msg}");
    let r = env.ok("alice", &format!("impasse {game} propose"));
    assert!(r.text.contains("proposes impasse"), "{}", r.text);
    assert!(
        r.text.contains("44") && r.text.contains("10") && r.text.contains("24 needed"),
        "{}",
        r.text
    );
    let expected = impasse::result(g.position()).unwrap();
    assert_eq!(
        expected,
        Outcome::Win {
            winner: Color::Black,
            reason: Reason::Impasse
        }
    );
    let r = env.ok("bob", &format!("impasse {game} accept"));
    assert!(
        r.text.contains("alice (") && r.text.contains("wins by impasse"),
        "{}",
        r.text
    );
    let row = env.game(game);
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result, Some(GameResult::First));
    assert_eq!(row.reason.as_deref(), Some("impasse"));
    out.push(Expect::of(env, game, ["alice", "bob"], Some(challenge)));
    out
}

fn scenario_handicap(env: &Env) -> Vec<Expect> {
    let (game, challenge) = start(env, "alice", "bob", "shogi handicap=rook");
    let row = env.game(game);
    let expected = handicap_position(VariantId::Shogi, "rook").unwrap();
    assert_eq!(row.start_position, fen::write(&expected));
    assert_eq!(row.setup.as_deref(), Some("rook"));
    assert!(!row.rated, "handicap games are casual");
    // White (bob, the handicap giver) moves first.
    assert_eq!(start_of(&row).side_to_move(), Color::White);
    let before = env.snapshot();
    let msg = env.refused("alice", &format!("move {game} 7g7f"));
    assert!(msg.contains("not your turn"), "{msg}");
    before.assert_same(&env.snapshot(), "Black moving first in a handicap game");
    let r = env.ok("bob", &format!("move {game} 3c3d"));
    assert!(r.text.contains("1… P-3d"), "{}", r.text);
    let r = env.ok("alice", &format!("move {game} 7g7f"));
    assert!(r.text.contains("2. P-7f"), "{}", r.text);
    // A takeback in a game White began: bob, to move, takes back his move and alice's reply.
    let r = env.ok("bob", &format!("takeback {game} request"));
    assert!(r.text.contains("(2 moves)"), "{}", r.text);
    let r = env.ok("alice", &format!("takeback {game} accept"));
    assert!(
        r.text.contains("2 moves are taken back") && r.text.contains("bob to move"),
        "{}",
        r.text
    );
    let row = env.game(game);
    assert_eq!(row.ply, 0);
    assert_eq!(row.position, row.start_position);
    env.replay(game);
    env.ok("bob", &format!("move {game} 3c3d"));
    env.ok("alice", &format!("move {game} 7g7f"));
    let record = env.ok("alice", &format!("record {game}"));
    assert!(record.text.contains("1… P-3d"), "{}", record.text);
    assert!(record.text.contains("2. P-7f"), "{}", record.text);
    // And then to a decisive end.
    let mut g = env.replay(game);
    let (_, moves, outcome) = decisive_game_where(&g, 700, on_board);
    play_to_the_end(env, game, &mut g, &moves, outcome);
    vec![Expect::of(env, game, ["alice", "bob"], Some(challenge))]
}

fn scenario_smith(env: &Env) -> Vec<Expect> {
    let (game, challenge) = start(env, "carol", "bob", "shanghai setup=smith");
    let row = env.game(game);
    let smith = setup_position(VariantId::Shanghai, "smith").unwrap();
    assert_eq!(row.start_position, fen::write(&smith));
    assert_ne!(
        row.start_position,
        fen::write(&Position::start(VariantId::Shanghai))
    );
    assert_eq!(row.setup.as_deref(), Some("smith"));
    let o = decisive(env, game, on_board);
    assert!(on_board(o));
    vec![Expect::of(env, game, ["carol", "bob"], Some(challenge))]
}

// ---------------------------------------------------------------- after reopening

/// Drops the service and store, reopens the database file, and finds everything there.
fn reopen_and_check(env: Env, expects: &[Expect]) {
    // The scenario's own expectations were taken from the store: check them against the
    // engine first.
    for e in expects {
        let g = env.replay(e.game);
        if e.on_board {
            let (r, reason) = result_of(g.outcome().unwrap());
            assert_eq!(e.ending, Some((r, reason.to_string())), "game {}", e.game);
        }
    }
    let before = env.snapshot();
    let Env {
        dir,
        path,
        store,
        clock,
        service,
    } = env;
    drop(service);
    drop(store);

    let store = Arc::new(SqliteStore::open(&path).expect("reopen the database"));
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let after = Snapshot::of(&path);
    before.assert_same(&after, "reopening");
    for e in expects {
        let row = store.game(e.game).unwrap().expect("the game is there");
        assert_eq!(row.variant, e.variant, "game {}", e.game);
        assert_eq!(row.setup, e.setup, "game {}", e.game);
        assert_eq!(row.start_position, e.start, "game {}", e.game);
        assert_eq!(row.players, e.players.map(String::from), "game {}", e.game);
        assert_eq!(row.status, e.status, "game {}", e.game);
        assert_eq!(
            row.result.zip(row.reason.clone()),
            e.ending,
            "game {}",
            e.game
        );
        let codes: Vec<String> = store
            .moves(e.game)
            .unwrap()
            .into_iter()
            .map(|m| m.code)
            .collect();
        assert_eq!(codes, e.codes, "game {}: the move list", e.game);
        let g = replay(store.as_ref(), e.game);
        if e.on_board {
            let (r, reason) = result_of(g.outcome().expect("the log ends the game"));
            assert_eq!(row.result, Some(r), "game {}", e.game);
            assert_eq!(row.reason.as_deref(), Some(reason), "game {}", e.game);
        } else {
            assert_eq!(g.outcome(), None, "game {}: ended off the board", e.game);
        }
        if let Some(c) = e.challenge {
            let c = store.challenge(c).unwrap().expect("the challenge is there");
            assert_eq!(c.status, ChallengeStatus::Accepted);
            assert_eq!(c.game_id, Some(e.game));
        }
    }

    // The core over the reopened store sees the same.
    let service = Service::new(store.clone(), clock.clone(), config());
    let env = Env {
        dir,
        path,
        store,
        clock,
        service,
    };
    for e in expects {
        let sfen = env
            .ok(e.players[0], &format!("export {} sfen", e.game))
            .text;
        let mut want = format!("position sfen {}", e.start);
        if !e.codes.is_empty() {
            want.push_str(" moves ");
            want.push_str(&e.codes.join(" "));
        }
        assert_eq!(sfen, want, "game {}", e.game);
        let listed = format!("#{} ", e.game);
        for p in e.players {
            let (cmd, other) = match e.status {
                GameStatus::Finished => ("history", "games"),
                GameStatus::Active => ("games", "history"),
            };
            let text = env.ok(p, cmd).text;
            assert!(
                text.contains(&listed),
                "@{p} {cmd} should list game {}: {text}",
                e.game
            );
            let text = env.ok(p, other).text;
            assert!(
                !text.contains(&listed),
                "@{p} {other} should not list game {}: {text}",
                e.game
            );
        }
        let shown = env.ok(e.players[1], &format!("game {} 0", e.game)).text;
        assert!(
            shown.contains(&if e.codes.len() == 1 {
                "After 0 of 1 move.".to_string()
            } else {
                format!("After 0 of {} moves", e.codes.len())
            }),
            "{shown}"
        );
    }
}

fn run(scenario: fn(&Env) -> Vec<Expect>) {
    let env = Env::new();
    let expects = scenario(&env);
    assert!(!expects.is_empty());
    reopen_and_check(env, &expects);
}

#[test]
fn every_variant_plays_to_a_decisive_end_on_the_board() {
    run(scenario_decisive_games);
}

#[test]
fn resignation_ends_the_game() {
    run(scenario_resignation);
}

#[test]
fn draw_by_agreement() {
    run(scenario_draw_by_agreement);
}

#[test]
fn takeback_goes_back_and_the_ply_is_played_again() {
    run(scenario_takeback);
}

#[test]
fn repetition_draws_or_is_refused() {
    run(scenario_repetition);
}

#[test]
fn impasse_by_agreement_once_both_kings_are_in_their_zones() {
    run(scenario_impasse);
}

#[test]
fn handicap_game_white_moves_first() {
    run(scenario_handicap);
}

#[test]
fn shanghai_smith_setup_game() {
    run(scenario_smith);
}

/// All scenarios on one database file, reopened once at the end.
#[test]
fn everything_is_there_after_reopening_one_file() {
    let env = Env::new();
    let mut expects = Vec::new();
    for s in [
        scenario_decisive_games,
        scenario_resignation,
        scenario_draw_by_agreement,
        scenario_takeback,
        scenario_repetition,
        scenario_impasse,
        scenario_handicap,
        scenario_smith,
    ] {
        expects.extend(s(&env));
        env.clock.advance(3_600);
    }
    let ids: std::collections::BTreeSet<i64> = expects.iter().map(|e| e.game).collect();
    assert_eq!(
        ids.len(),
        expects.len(),
        "every scenario made its own games"
    );
    reopen_and_check(env, &expects);
}

/// Offering a draw the opponent already offered is agreeing to it (explicit `offer` too).
#[test]
fn a_counter_offer_of_a_draw_is_an_agreement() {
    let env = Env::new();
    let id = env.start_game("alice", "bob", "shogi black");
    env.ok("alice", &format!("draw {id} offer"));
    let r = env.ok("bob", &format!("draw {id} offer"));
    assert!(r.text.contains("Draw by agreement"), "{}", r.text);
    let row = env.game(id);
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result, Some(GameResult::Draw));
    assert_eq!(row.reason.as_deref(), Some("agreement"));
}

/// Checks the notices of a reply: each has an outbox id greater than every id before it
/// (`last`), is that outbox row exactly (unsent, made now, about `game`), is among
/// `Service::unsent`, and has no placeholder left. Returns their ids.
fn check_notices(env: &Env, r: &Reply, game: Option<i64>, last: &mut i64) -> Vec<i64> {
    let rows = env.outbox();
    let unsent = env.service.unsent(100).expect("unsent");
    let mut ids = Vec::new();
    for n in &r.notify {
        let id =
            n.id.unwrap_or_else(|| panic!("{}: a notice without an id: {n:?}", r.text));
        assert!(
            id > *last,
            "notice ids grow in the order they are made: {id} after {last}"
        );
        *last = id;
        let row = rows
            .iter()
            .find(|o| o.id == id)
            .unwrap_or_else(|| panic!("notice {id} is not in the outbox: {n:?}"));
        assert_eq!(row.user, n.user);
        assert_eq!(row.via, n.via.as_str());
        assert_eq!(row.channel, n.channel);
        assert_eq!(row.text, n.text, "the stored text is the one returned");
        assert_eq!(row.game, n.game);
        assert_eq!(n.game, game, "{}: the game of the notice", n.text);
        assert_eq!(row.sent_at, None, "notice {id} is unsent");
        assert_eq!(row.created_at, env.clock.now());
        for t in [&n.text, &row.text] {
            assert!(
                !t.contains("{game}") && !t.contains("{challenge}") && !t.contains('{'),
                "a placeholder is left: {t}"
            );
        }
        assert!(
            unsent.contains(n),
            "notice {id} is not among the unsent: {n:?} / {unsent:?}"
        );
        ids.push(id);
    }
    ids
}

/// Marks `ids` sent and checks they are no longer unsent (and that the others still are).
fn deliver(env: &Env, ids: &[i64]) {
    let others: Vec<i64> = env
        .outbox()
        .iter()
        .filter(|o| o.sent_at.is_none() && !ids.contains(&o.id))
        .map(|o| o.id)
        .collect();
    env.service.mark_sent(ids).expect("mark sent");
    let unsent: Vec<i64> = env
        .service
        .unsent(100)
        .expect("unsent")
        .iter()
        .map(|n| n.id.expect("an outbox id"))
        .collect();
    assert_eq!(unsent, others, "after mark_sent({ids:?})");
    for o in env.outbox() {
        if ids.contains(&o.id) {
            assert_eq!(o.sent_at, Some(env.clock.now()), "notice {} sent now", o.id);
        }
    }
}

#[test]
fn every_notice_of_a_command_is_kept_in_the_outbox_until_sent() {
    let env = Env::new();
    let mut last = 0;
    let mut all = Vec::new();

    // A challenge: its notice names the challenge made in the same transaction.
    let r = env.ok("alice", "challenge @bob shogi black");
    let c = number_after(&r.text, "Challenge #").unwrap();
    assert_eq!(r.notify.len(), 1, "{:?}", r.notify);
    assert_eq!(r.notify[0].user, "bob");
    assert_eq!(
        r.notify[0].text,
        format!("alice challenges you to Shogi (challenge #{c}): `accept {c}` or `decline {c}`")
    );
    let challenge_ids = check_notices(&env, &r, None, &mut last);
    env.clock.advance(60);

    // Accepted: the notice names the game made in the same transaction.
    let r = env.ok("bob", &format!("accept {c}"));
    let game = number_after(&r.text, "Game #").unwrap();
    assert_eq!(r.notify.len(), 1);
    assert_eq!(r.notify[0].user, "alice");
    assert_eq!(
        r.notify[0].text,
        format!("bob accepted your challenge: game #{game} begins")
    );
    let accept_ids = check_notices(&env, &r, Some(game), &mut last);
    // Both wait, oldest first.
    let unsent: Vec<i64> = env
        .service
        .unsent(100)
        .unwrap()
        .iter()
        .map(|n| n.id.unwrap())
        .collect();
    assert_eq!(unsent, [challenge_ids.clone(), accept_ids.clone()].concat());
    deliver(&env, &challenge_ids);
    deliver(&env, &accept_ids);
    all.extend(challenge_ids);
    all.extend(accept_ids);

    let mut step = |user: &str, line: &str, to: &str, says: &str| {
        env.clock.advance(60);
        let r = env.ok(user, line);
        assert_eq!(r.notify.len(), 1, "{line}: {:?}", r.notify);
        assert_eq!(r.notify[0].user, to, "{line}");
        assert!(
            r.notify[0].text.contains(says),
            "{line}: {:?} should say {says:?}",
            r.notify[0].text
        );
        let ids = check_notices(&env, &r, Some(game), &mut last);
        deliver(&env, &ids);
        all.extend(ids);
    };
    step(
        "alice",
        &format!("move {game} 7g7f"),
        "bob",
        &format!("your move in game #{game} (alice played P-7f)"),
    );
    step(
        "bob",
        &format!("move {game} 3c3d"),
        "alice",
        &format!("your move in game #{game}"),
    );
    step(
        "alice",
        &format!("draw {game} offer"),
        "bob",
        &format!("alice offers a draw in game #{game}"),
    );
    step(
        "bob",
        &format!("draw {game} decline"),
        "alice",
        &format!("bob declined a draw in game #{game}"),
    );
    step(
        "alice",
        &format!("takeback {game} request"),
        "bob",
        &format!("alice asks to take back their last move in game #{game}"),
    );
    step(
        "bob",
        &format!("takeback {game} accept"),
        "alice",
        &format!("bob accepted your takeback in game #{game}"),
    );
    step(
        "alice",
        &format!("move {game} 2g2f"),
        "bob",
        &format!("your move in game #{game}"),
    );
    step(
        "alice",
        &format!("moretime {game}"),
        "bob",
        &format!("alice gave you one more day in game #{game}"),
    );
    step(
        "bob",
        &format!("resign {game}"),
        "alice",
        &format!("bob resigned game #{game}: you win"),
    );

    // Every outbox row is a notice returned, all delivered.
    let rows = env.outbox();
    assert_eq!(rows.iter().map(|o| o.id).collect::<Vec<_>>(), all);
    assert!(rows.iter().all(|o| o.sent_at.is_some()));
    assert!(env.service.unsent(100).unwrap().is_empty());
    // Marking again changes nothing.
    let before = env.snapshot();
    env.clock.advance(60);
    env.service.mark_sent(&all).unwrap();
    before.assert_same(&env.snapshot(), "marking sent twice");
}

#[test]
fn notices_follow_the_settings_and_decline_and_agreement_are_kept_too() {
    let env = Env::new();
    let mut last = 0;
    env.ok("bob", "settings notify=dm");
    env.ok("carol", "settings notify=digest");
    let r = env.ok("alice", "challenge @bob judkins black");
    assert_eq!(r.notify.len(), 1);
    assert_eq!(r.notify[0].via, Via::Dm);
    let ids = check_notices(&env, &r, None, &mut last);
    let c = number_after(&r.text, "Challenge #").unwrap();
    let r = env.ok("bob", &format!("decline {c}"));
    assert_eq!(
        r.notify[0].text,
        format!("bob declined your challenge #{c}")
    );
    assert_eq!(r.notify[0].via, Via::Mention);
    let ids2 = check_notices(&env, &r, None, &mut last);
    // Undelivered notices stay, in order, until marked.
    let unsent: Vec<i64> = env
        .service
        .unsent(100)
        .unwrap()
        .iter()
        .map(|n| n.id.unwrap())
        .collect();
    assert_eq!(unsent, [ids.clone(), ids2.clone()].concat());
    assert_eq!(env.service.unsent(1).unwrap().len(), 1);
    deliver(&env, &ids2);
    deliver(&env, &ids);

    // A digest user gets no notice: none returned, none stored.
    let game = env.start_game("alice", "carol", "shogi");
    let before = env.outbox().len();
    let r = env.ok("alice", &format!("move {game} 7g7f"));
    assert!(r.notify.is_empty(), "{:?}", r.notify);
    assert_eq!(env.outbox().len(), before);
    // A draw by agreement tells the one who offered.
    env.ok("alice", &format!("draw {game} offer"));
    let r = env.ok("carol", &format!("draw {game} accept"));
    assert_eq!(r.notify.len(), 1);
    assert_eq!(r.notify[0].user, "alice");
    assert!(
        r.notify[0].text.contains("Draw by agreement"),
        "{}",
        r.notify[0].text
    );
    let ids = check_notices(&env, &r, Some(game), &mut last);
    deliver(&env, &ids);
}

#[test]
fn a_move_at_the_deadline_is_refused_ends_the_game_on_time_and_tells_both() {
    let env = Env::new();
    let game = env.start_game("alice", "bob", "shogi days=1");
    env.ok("alice", &format!("move {game} 7g7f"));
    let deadline = env.game(game).deadline.expect("a deadline");
    assert_eq!(deadline, env.clock.now() + 86_400);
    let all: Vec<i64> = env.outbox().iter().map(|o| o.id).collect();
    env.service.mark_sent(&all).unwrap();
    let before = env.outbox();

    env.clock.set(deadline);
    // The refusal names the ended game (the adapter closes its thread) and carries the
    // stored notices to both players (the adapter delivers them before closing it).
    let before_reply = env.snapshot();
    let r = env.send("bob", &format!("move {game} 3c3d"));
    assert!(r.error, "{}", r.text);
    assert!(
        r.game.as_ref().is_some_and(|g| g.id == game && g.over),
        "{:?}",
        r.game
    );
    let mut told: Vec<&str> = r.notify.iter().map(|n| n.user.as_str()).collect();
    told.sort();
    assert_eq!(told, ["alice", "bob"]);
    assert!(r
        .notify
        .iter()
        .all(|n| n.id.is_some() && n.game == Some(game)));
    // Sent again, the move is refused as the game is over: nothing more changes.
    let after_first = env.snapshot();
    assert!(
        after_first != before_reply,
        "the first refusal ended the game"
    );
    let msg = env.refused("bob", &format!("move {game} 3c3d"));
    assert!(msg.contains("is over"), "{msg}");
    after_first.assert_same(&env.snapshot(), "a second late move");
    let msg = r.text;
    assert!(msg.contains("your time ran out"), "{msg}");
    assert!(msg.contains("lost on time"), "{msg}");
    let row = env.game(game);
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result, Some(GameResult::First));
    assert_eq!(row.reason.as_deref(), Some("timeout"));
    assert_eq!(row.ply, 1, "the late move was not played");
    assert_eq!(row.to_move, None);
    assert_eq!(row.deadline, None);
    env.replay(game);

    // Two notices, one to each player, about the game, waiting for delivery.
    let after = env.outbox();
    assert_eq!(after[..before.len()], before[..]);
    let new = &after[before.len()..];
    let mut users: Vec<&str> = new.iter().map(|o| o.user.as_str()).collect();
    users.sort();
    assert_eq!(users, ["alice", "bob"]);
    for o in new {
        assert_eq!(o.game, Some(game));
        assert_eq!(o.sent_at, None);
        assert_eq!(o.created_at, deadline);
        assert!(
            o.text
                .contains(&format!("game #{game} is over: bob's time ran out")),
            "{}",
            o.text
        );
        assert!(
            o.text.contains("alice (black) wins by timeout"),
            "{}",
            o.text
        );
        assert!(!o.text.contains('{'), "{}", o.text);
    }
    let unsent: Vec<i64> = env
        .service
        .unsent(100)
        .unwrap()
        .iter()
        .map(|n| n.id.unwrap())
        .collect();
    assert_eq!(unsent, new.iter().map(|o| o.id).collect::<Vec<_>>());
    // It is over: a second try says so and adds nothing.
    let snap = env.snapshot();
    let msg = env.refused("bob", &format!("move {game} 3c3d"));
    assert!(msg.contains("is over"), "{msg}");
    snap.assert_same(&env.snapshot(), "a move in a game lost on time");
    // And the sweep finds nothing left to end.
    let sweep = env.service.sweep(env.clock.now()).unwrap();
    assert!(sweep.timeouts.is_empty(), "{sweep:?}");
}

#[test]
fn a_move_just_before_the_deadline_is_played() {
    let env = Env::new();
    let game = env.start_game("alice", "bob", "shogi days=1");
    let deadline = env.game(game).deadline.unwrap();
    env.clock.set(deadline - 1);
    env.ok("alice", &format!("move {game} 7g7f"));
    let row = env.game(game);
    assert_eq!(row.status, GameStatus::Active);
    assert_eq!(row.deadline, Some(deadline - 1 + 86_400));
}

/// A game of alice (Black) and bob with a few moves, a finished one, carol and dave known.
fn reading_env() -> (Env, i64, i64) {
    let env = Env::new();
    for u in ["carol", "dave"] {
        env.ok(u, "games");
    }
    let game = env.start_game("alice", "bob", "shogi");
    for (who, m) in [
        ("alice", "7g7f"),
        ("bob", "3c3d"),
        ("alice", "2g2f"),
        ("bob", "8c8d"),
    ] {
        env.ok(who, &format!("move {game} {m}"));
    }
    let done = env.start_game("bob", "alice", "palace");
    env.ok("alice", &format!("resign {done}"));
    (env, game, done)
}

/// Commands that only look (and move suggestions) commit nothing and take no write lock.
#[test]
fn reads_do_not_write() {
    let (env, game, done) = reading_env();
    let watch = env.watch();
    // Reads take no write lock: with another connection holding it, they still answer.
    let lock = WriteLock::take(&env.path);
    let lines = [
        "board".to_string(),
        format!("board {game}"),
        format!("board {game} 2"),
        format!("board {game} 2 international"),
        format!("board {done}"),
        "games".to_string(),
        "games @bob".to_string(),
        "games @carol".to_string(),
        format!("moves {game}"),
        format!("moves {game} 8h"),
        "history".to_string(),
        "history @alice".to_string(),
        format!("record {game}"),
        format!("record {done}"),
        format!("game {game} 3"),
        format!("export {game} kif"),
        format!("export {game} csa"),
        format!("replay {game}"),
        "stats".to_string(),
        "stats @bob".to_string(),
        "leaderboard shogi".to_string(),
        "rules palace".to_string(),
        "settings".to_string(),
        "help".to_string(),
    ];
    for who in ["alice", "bob", "carol"] {
        for line in &lines {
            if who == "carol" && line == "board" {
                continue; // carol has no game
            }
            env.ok(who, line);
            watch.assert_unchanged(&env.path, &format!("@{who} {line}"));
        }
    }
    // Names resolved by the transport, unchanged, are no write either.
    env.try_cmd(
        "carol",
        Command::Games {
            user: Some(UserRef::named("bob", "bob")),
        },
    )
    .unwrap();
    // Reads in direct messages and another server.
    for line in [
        "games",
        "history",
        &format!("record {done}"),
        &format!("board {game}"),
    ] {
        env.ok_in(&dm(), "alice", line);
    }
    for line in ["games", "history", "stats"] {
        env.ok_in(&in_guild("elsewhere"), "alice", line);
    }
    // Refusals of reads write nothing either.
    for line in [format!("board {game}"), format!("record {done}")] {
        env.refused_in(&in_guild("elsewhere"), "alice", &line);
        env.refused_in(&dm(), "carol", &line);
    }
    // Suggestions, asked again and again (the first fills the cache, the others read it).
    for typed in ["", "B", "P-", "8h", "x"] {
        for who in ["alice", "bob", "carol"] {
            env.service
                .suggest_moves(&user(who), &server(), None, typed, 25);
        }
    }
    assert!(!env
        .service
        .suggest_moves(&user("alice"), &server(), None, "", 25)
        .is_empty());
    watch.assert_unchanged(&env.path, "reads");
    assert!(!watch.committed());
    drop(lock);

    // The watch does see a write.
    env.ok("alice", "settings style=international");
    assert!(watch.committed(), "data_version missed a commit");
}

#[test]
fn a_user_whose_name_changed_is_renamed_when_they_act() {
    let (env, game, _) = reading_env();
    let alice = |name: &str, line: &str| Request {
        user: User::new("alice", name),
        place: server(),
        command: tegami::service::parse_command(line).unwrap(),
    };
    let watch = env.watch();
    let r = env
        .service
        .handle(&alice("Alice Liddell", &format!("board {game}")));
    assert!(!r.error, "{}", r.text);
    assert!(watch.committed(), "the new name was stored");
    assert_eq!(
        env.store.user("alice").unwrap().unwrap().name,
        "Alice Liddell"
    );
    // Replies to others name her so from now on.
    let r = env.ok("bob", &format!("board {game}"));
    assert!(
        r.text.contains("Alice Liddell (black) vs bob (white)"),
        "{}",
        r.text
    );
    // Her settings are kept.
    env.service
        .handle(&alice("Alice Liddell", "settings notify=dm"));
    let watch = env.watch();
    env.service.handle(&alice("Alice Liddell", "games"));
    watch.assert_unchanged(&env.path, "the same new name again");
    env.service.handle(&alice("A.", "games"));
    let u = env.store.user("alice").unwrap().unwrap();
    assert_eq!(u.name, "A.");
    assert_eq!(u.notify, "dm");

    // A user a command names, with the name the transport resolved.
    let watch = env.watch();
    env.try_cmd(
        "carol",
        Command::Games {
            user: Some(UserRef::named("bob", "Bob Dylan")),
        },
    )
    .unwrap();
    assert!(watch.committed());
    assert_eq!(env.store.user("bob").unwrap().unwrap().name, "Bob Dylan");
    // Known by id only: not renamed.
    env.try_cmd(
        "carol",
        Command::Games {
            user: Some(UserRef::id_only("bob")),
        },
    )
    .unwrap();
    assert_eq!(env.store.user("bob").unwrap().unwrap().name, "Bob Dylan");
}

/// What suggestions match on: lower case, without `-`, spaces and brackets.
fn key(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '-' | ' ' | '(' | ')'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Every suggestion is a legal move of `pos` written as `human` writes it, that the reader
/// reads back to that move, labelled with its code; no move twice.
fn check_suggestions(pos: &Position, list: &[Suggestion]) -> Vec<Move> {
    let legal = pos.legal_moves();
    let mut moves = Vec::new();
    for s in list {
        let m = input::parse_move(pos, &s.value)
            .unwrap_or_else(|e| panic!("suggestion {:?} does not read: {e}", s.value));
        assert!(legal.contains(&m), "suggestion {:?} is not legal", s.value);
        assert_eq!(human(pos, m), s.value);
        let c = code::write(pos.variant(), m);
        if c == s.value {
            assert_eq!(s.label, s.value);
        } else {
            assert_eq!(s.label, format!("{}  ({c})", s.value));
        }
        assert!(!moves.contains(&m), "{:?} suggested twice", s.value);
        moves.push(m);
    }
    moves
}

/// The legal moves of `pos` whose notation or code matches `typed` (starting with it or
/// containing it), as (human, code).
fn matching(pos: &Position, typed: &str) -> Vec<(String, String)> {
    let want = key(typed);
    pos.legal_moves()
        .into_iter()
        .map(|m| (human(pos, m), code::write(pos.variant(), m)))
        .filter(|(h, c)| key(h).contains(&want) || key(c).contains(&want))
        .collect()
}

#[test]
fn suggestions_are_the_legal_moves_filtered_by_what_was_typed() {
    let env = Env::new();
    env.ok("carol", "games");
    let game = env.start_game("alice", "bob", "shogi");
    let alice = user("alice");
    let here = server();
    let pos = env.replay(game).position().clone();

    let all = env.service.suggest_moves(&alice, &here, None, "", 1000);
    assert_eq!(all.len(), 30, "the 30 moves of the start");
    let moves = check_suggestions(&pos, &all);
    let mut legal = pos.legal_moves();
    legal.sort_by_key(|&m| code::write(pos.variant(), m));
    let mut got = moves.clone();
    got.sort_by_key(|&m| code::write(pos.variant(), m));
    assert_eq!(got, legal, "every legal move, once");
    let values: Vec<&str> = all.iter().map(|s| s.value.as_str()).collect();
    let mut sorted = values.clone();
    sorted.sort();
    assert_eq!(values, sorted, "sorted by notation");

    // At most `limit`, the first ones.
    for limit in [0, 1, 5, 29, 30, 31] {
        let some = env.service.suggest_moves(&alice, &here, None, "", limit);
        assert_eq!(some.len(), limit.min(30));
        assert_eq!(some[..], all[..some.len()]);
    }
    // Filtered by the typed text, in notation or code, any case, moves starting with it first.
    let p7 = env.service.suggest_moves(&alice, &here, None, "P-7", 25);
    assert_eq!(
        p7,
        [Suggestion {
            label: "P-7f  (7g7f)".into(),
            value: "P-7f".into()
        }]
    );
    assert_eq!(
        env.service.suggest_moves(&alice, &here, None, " p-7F ", 25),
        p7
    );
    assert_eq!(
        env.service.suggest_moves(&alice, &here, None, "7g", 25)[0],
        p7[0]
    );
    assert!(env
        .service
        .suggest_moves(&alice, &here, None, "zz", 25)
        .is_empty());
    for typed in [
        "P", "p-", "G", "S-", "7", "h", "6i", "K-", "R-", "L-1h", "+",
    ] {
        for limit in [3, 25, 1000] {
            let list = env.service.suggest_moves(&alice, &here, None, typed, limit);
            check_suggestions(&pos, &list);
            let want = key(typed.trim());
            let expected = matching(&pos, typed);
            assert_eq!(
                list.len(),
                expected.len().min(limit),
                "{typed:?} limit {limit}"
            );
            let starts = |s: &Suggestion| {
                let m = input::parse_move(&pos, &s.value).unwrap();
                key(&s.value).starts_with(&want)
                    || key(&code::write(pos.variant(), m)).starts_with(&want)
            };
            for s in &list {
                let m = input::parse_move(&pos, &s.value).unwrap();
                assert!(
                    key(&s.value).contains(&want)
                        || key(&code::write(pos.variant(), m)).contains(&want),
                    "{typed:?}: {s:?} does not match"
                );
            }
            // Those that start with it come first.
            let first_other = list.iter().position(|s| !starts(s)).unwrap_or(list.len());
            assert!(
                list[first_other..].iter().all(|s| !starts(s)),
                "{typed:?}: {list:?}"
            );
            if typed.starts_with('P') {
                assert!(list.iter().all(|s| s.value.starts_with('P')), "{list:?}");
            }
        }
    }

    // Nothing when it is not the user's turn, or they have no game.
    assert!(env
        .service
        .suggest_moves(&user("bob"), &here, None, "", 25)
        .is_empty());
    assert!(env
        .service
        .suggest_moves(&user("bob"), &here, None, "P", 25)
        .is_empty());
    assert!(env
        .service
        .suggest_moves(&user("carol"), &here, None, "", 25)
        .is_empty());
    assert!(env
        .service
        .suggest_moves(&user("nobody"), &here, None, "", 25)
        .is_empty());

    // After moves the list is the new position's (the cached one was of the old version).
    env.ok("alice", &format!("move {game} 7g7f"));
    assert!(env
        .service
        .suggest_moves(&alice, &here, None, "", 25)
        .is_empty());
    let bobs = env
        .service
        .suggest_moves(&user("bob"), &here, None, "", 1000);
    check_suggestions(env.replay(game).position(), &bobs);
    assert_eq!(bobs.len(), 30);
    env.ok("bob", &format!("move {game} 3c3d"));
    let pos = env.replay(game).position().clone();
    let now = env.service.suggest_moves(&alice, &here, None, "", 1000);
    assert_ne!(now, all);
    check_suggestions(&pos, &now);
    assert_eq!(now.len(), pos.legal_moves().len());
    let bishop = env.service.suggest_moves(&alice, &here, None, "Bx", 25);
    assert!(
        bishop.iter().any(|s| s.value == "Bx2b+") && bishop.iter().any(|s| s.value == "Bx2b="),
        "{bishop:?}"
    );
    // A suggestion is played as it is.
    env.ok("alice", &format!("move {game} {}", bishop[0].value));
    assert_eq!(env.game(game).ply, 3);
    // After a takeback, the position's list again.
    env.ok("alice", &format!("takeback {game} request"));
    env.ok("bob", &format!("takeback {game} accept"));
    assert_eq!(env.game(game).ply, 2);
    assert!(env
        .service
        .suggest_moves(&user("bob"), &here, None, "", 25)
        .is_empty());
    let again = env.service.suggest_moves(&alice, &here, None, "", 1000);
    assert_eq!(again, now);
}

#[test]
fn in_a_games_thread_suggestions_are_of_that_game() {
    let env = Env::new();
    let a = env.start_game("alice", "bob", "shogi");
    let b = env.start_game("alice", "carol", "shanghai");
    assert_eq!(env.game(b).to_move.as_deref(), Some("alice"));
    let alice = user("alice");
    // Two games with alice to move, outside their threads: which one is not clear.
    assert!(env
        .service
        .suggest_moves(&alice, &server(), None, "", 25)
        .is_empty());
    env.service.set_thread(a, "thread-a").unwrap();
    env.service.set_thread(b, "thread-b").unwrap();
    assert_eq!(env.game(a).thread.as_deref(), Some("thread-a"));
    let thread = |t: &str| Place {
        channel: Some(t.into()),
        ..server()
    };
    assert!(env
        .service
        .suggest_moves(&alice, &server(), None, "", 25)
        .is_empty());
    for (game, t) in [(a, "thread-a"), (b, "thread-b")] {
        let pos = env.replay(game).position().clone();
        let list = env
            .service
            .suggest_moves(&alice, &thread(t), None, "", 1000);
        assert_eq!(list.len(), pos.legal_moves().len(), "game {game}");
        check_suggestions(&pos, &list);
    }
    // The two lists are of different games (Shogi's notation is not Shanghai's).
    let sa = env
        .service
        .suggest_moves(&alice, &thread("thread-a"), None, "", 1000);
    let sb = env
        .service
        .suggest_moves(&alice, &thread("thread-b"), None, "", 1000);
    assert!(sa.iter().any(|s| s.value == "P-7f"));
    assert!(!sb.iter().any(|s| s.value == "P-7f"));
    // A move typed in a thread without a number is that thread's game's.
    let last = sb.last().unwrap().value.clone();
    let r = env.ok_in(&thread("thread-b"), "alice", &format!("move {last}"));
    assert_eq!(r.game.as_ref().map(|g| g.id), Some(b), "{}", r.text);
    assert_eq!(env.game(b).ply, 1);
    assert_eq!(env.game(a).ply, 0);
    // In b's thread it is now carol's turn: nothing for alice there, though a waits for her.
    assert!(env
        .service
        .suggest_moves(&alice, &thread("thread-b"), None, "", 25)
        .is_empty());
    let carols = env
        .service
        .suggest_moves(&user("carol"), &thread("thread-b"), None, "", 1000);
    check_suggestions(env.replay(b).position(), &carols);
    assert!(!carols.is_empty());
    // Outside the threads, a is now her only game to move in.
    let pos = env.replay(a).position().clone();
    let list = env.service.suggest_moves(&alice, &server(), None, "", 1000);
    assert_eq!(list.len(), pos.legal_moves().len());
    check_suggestions(&pos, &list);
    // In another server, nothing.
    assert!(env
        .service
        .suggest_moves(&alice, &in_guild("elsewhere"), None, "", 25)
        .is_empty());
    assert!(env
        .service
        .suggest_moves(
            &alice,
            &Place {
                guild: Some("elsewhere".into()),
                channel: Some("thread-a".into()),
                admin: false,
                locale: None,
            },
            None,
            "",
            25
        )
        .is_empty());

    // A game named (the `game` option filled in first): that one, where it may be seen, when
    // it is the user's turn there.
    let pos = env.replay(a).position().clone();
    for place in [thread("thread-b"), server(), dm()] {
        let list = env.service.suggest_moves(&alice, &place, Some(a), "", 1000);
        assert_eq!(list.len(), pos.legal_moves().len(), "{place:?}");
        check_suggestions(&pos, &list);
    }
    let carols_b =
        env.service
            .suggest_moves(&user("carol"), &thread("thread-a"), Some(b), "", 1000);
    assert_eq!(carols_b, carols);
    for (who, place, game) in [
        ("alice", server(), b),
        ("dave", server(), a),
        ("dave", dm(), a),
        ("carol", dm(), a),
        ("alice", in_guild("elsewhere"), a),
        ("alice", server(), 999),
    ] {
        assert!(
            env.service
                .suggest_moves(&user(who), &place, Some(game), "", 25)
                .is_empty(),
            "@{who} game {game} in {place:?}"
        );
    }
    env.ok("alice", &format!("resign {a}"));
    assert!(env
        .service
        .suggest_moves(&alice, &server(), Some(a), "", 25)
        .is_empty());
}

/// Shanghai Palace Chess forbids the move that makes a position for the third time: the game
/// leaves it out of its legal moves, but it still counts for how the others are written (the
/// notation is the position's, as the reader reads it). Here the knight on b5 may not go back
/// to a3 a third time, and the knight on b1 may: its move is still written from b1, so that what
/// is suggested and listed reads back, and is played as it is.
#[test]
fn suggestions_and_lists_stay_readable_when_a_repetition_is_forbidden() {
    let env = Env::new();
    let game = env.start_game("alice", "bob", "shanghai");
    let cycle = ["c8b6", "a3b5", "b6c8", "b5a3"];
    let mut codes = vec!["a3a4", "i7i6", "c2a3"];
    codes.extend(cycle);
    codes.extend(&cycle[..3]);
    for (i, c) in codes.iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        env.ok(who, &format!("move {game} {c}"));
    }
    let g = env.replay(game);
    let pos = g.position().clone();
    let code_of = |c: &str| tegami::engine::notation::code::parse(&pos, c).unwrap();
    // b5a3 is forbidden by the game, b1a3 is not; the position allows both.
    let back = code_of("b5a3");
    let other = code_of("b1a3");
    assert!(pos.legal_moves().contains(&back));
    assert!(
        !g.legal_moves().contains(&back),
        "b5a3 would repeat a third time"
    );
    assert!(g.legal_moves().contains(&other));
    let written = human(&pos, other);
    assert_ne!(written, "Na3", "the position has two knights reaching a3");
    assert!(input::parse_move(&pos, &written).is_ok());

    let list = env
        .service
        .suggest_moves(&user("alice"), &server(), None, "", 1000);
    assert_eq!(list.len(), g.legal_moves().len());
    check_suggestions(&pos, &list);
    let to_a3: Vec<&Suggestion> = list
        .iter()
        .filter(|s| s.label.ends_with("(b1a3)"))
        .collect();
    assert_eq!(to_a3.len(), 1, "{list:?}");
    assert_eq!(to_a3[0].value, written);
    let r = env.ok("alice", &format!("moves {game} b1"));
    assert!(r.text.contains(&written), "{}", r.text);
    // The forbidden move is listed nowhere.
    let forbidden = human(&pos, back);
    assert!(!list.iter().any(|s| s.value == forbidden), "{list:?}");
    let r = env.ok("alice", &format!("moves {game} b5"));
    assert!(!r.text.contains(&forbidden), "{}", r.text);
    let r = env.ok("alice", &format!("move {game} {written}"));
    assert!(r.text.contains(&written), "{}", r.text);
}

// ---------------------------------------------------------------------------------------------
// Games against the computer (issue 13).

/// An environment where `tegami` is the computer.
fn with_computer() -> Env {
    let env = Env::new();
    env.service.set_computer(User::new("tegami", "Tegami"));
    env
}

/// The computer's move in `game`, which must come.
fn computer_moves(env: &Env, game: i64) -> Reply {
    let r = env
        .service
        .computer_move(game)
        .expect("the computer moves")
        .expect("it was the computer's turn");
    assert!(!r.error, "{}", r.text);
    assert!(r.think.is_none(), "the computer does not move twice");
    r
}

#[test]
fn a_whole_game_against_the_computer_in_every_variant() {
    for (i, &id) in VariantId::ALL.iter().enumerate() {
        let env = with_computer();
        let v = Variant::get(id);
        let r = env.ok(
            "alice",
            &format!("challenge @tegami {} level=1 first", id.as_str()),
        );
        let game = number_after(&r.text, "Game #").expect("the game starts at once");
        assert!(
            r.text.contains("level 1") && r.text.contains("casual"),
            "{}",
            r.text
        );
        let row = env.game(game);
        assert_eq!(row.players, ["alice".to_string(), "tegami".to_string()]);
        assert_eq!(row.computer_level, Some(1));
        assert!(!row.rated, "computer games are never rated");
        // No challenge waits for an answer.
        assert!(env.store.open_challenges("alice", T0).unwrap().is_empty());

        let mut rng = Rng::new(7 + i as u64);
        let mut engine = Game::new(start_of(&row));
        let mut replies = vec![r];
        while !engine.is_over() && engine.moves().len() < 160 {
            let m = mate_seeking(&engine, &mut rng);
            let r = env.play(game, "alice", &mut engine, m);
            if engine.is_over() {
                assert_eq!(r.think, None);
                replies.push(r);
                break;
            }
            assert_eq!(
                r.think,
                Some(game),
                "{}: the computer is to move",
                v.spec.name
            );
            replies.push(r);
            let r = computer_moves(&env, game);
            assert!(r.text.contains("Tegami plays"), "{}", r.text);
            // The stored log grew by one legal move: replay it.
            engine = env.replay(game);
            replies.push(r);
        }
        if !engine.is_over() {
            replies.push(env.ok("alice", &format!("resign {game}")));
        }
        let row = env.game(game);
        assert_eq!(row.status, GameStatus::Finished, "{}", v.spec.name);
        assert!(row.result.is_some());
        // Nobody writes to the computer: no notice, no outbox row for it.
        for r in &replies {
            assert!(r.notify.iter().all(|n| n.user == "alice"), "{:?}", r.notify);
        }
        assert!(env.snapshot_outbox_users().iter().all(|u| u != "tegami"));
        // The computer has no rating either.
        assert!(env
            .store
            .ratings_of("tegami", "console")
            .unwrap()
            .is_empty());
        assert!(env.store.ratings_of("alice", "console").unwrap().is_empty());
    }
}

impl Env {
    fn snapshot_outbox_users(&self) -> Vec<String> {
        outbox(&self.path).into_iter().map(|e| e.user).collect()
    }
}

#[test]
fn challenging_the_computer_is_checked_and_its_offers_refused() {
    let env = with_computer();
    assert!(env
        .refused("alice", "challenge @tegami shogi level=9")
        .contains("`level`: 9 is out of range (choose 1 to 5)"));
    assert!(env
        .refused("alice", "challenge @tegami shogi level=0")
        .contains("`level`: 0 is out of range"));
    assert!(env
        .refused("alice", "challenge @tegami shogi rated")
        .contains("casual"));
    assert!(env
        .refused("alice", "challenge @bob shogi level=2")
        .contains("Tegami"));
    assert!(env
        .refused("alice", "challenge @tegami chess")
        .contains("unknown game"));
    // Nothing was stored by the refusals.
    assert!(env
        .store
        .games_of("alice", GameStatus::Active, None, 10)
        .unwrap()
        .is_empty());

    // No level: the default.
    let r = env.ok("alice", "challenge @tegami judkins first");
    let game = number_after(&r.text, "Game #").unwrap();
    assert_eq!(
        env.game(game).computer_level,
        Some(tegami::service::DEFAULT_LEVEL)
    );
    for offer in ["draw", "takeback", "impasse"] {
        let msg = env.refused("alice", &format!("{offer} {game}"));
        assert!(msg.contains("does not answer offers"), "{offer}: {msg}");
    }
    // Only the computer moves for the computer.
    let mut engine = env.replay(game);
    let m = engine.legal_moves()[0];
    env.play(game, "alice", &mut engine, m);
    let msg = env.refused(
        "alice",
        &format!(
            "move {game} {}",
            code::write(engine.variant(), engine.legal_moves()[0])
        ),
    );
    assert!(msg.contains("not your turn"), "{msg}");
}

#[test]
fn the_computer_has_no_clock_and_a_restart_resumes_its_move() {
    let env = with_computer();
    // The computer moves first: the game waits for it, with no deadline.
    let r = env.ok("alice", "challenge @tegami shogi level=2 second");
    let game = number_after(&r.text, "Game #").unwrap();
    assert_eq!(r.think, Some(game));
    let row = env.game(game);
    assert_eq!(row.to_move.as_deref(), Some("tegami"));
    assert_eq!(row.deadline, None);
    // Weeks later (the bot was down), the sweep forfeits nothing.
    env.clock.advance(30 * 86_400);
    let s = env.service.sweep(env.clock.now()).unwrap();
    assert!(s.timeouts.is_empty());
    assert_eq!(env.game(game).status, GameStatus::Active);

    // A new process on the same file: the computer's move is found and played.
    let store = Arc::new(SqliteStore::open(&env.path).unwrap());
    let again = Service::new(store, env.clock.clone(), config());
    assert_eq!(
        again.computer_games_due().unwrap(),
        Vec::<i64>::new(),
        "not before it knows who it is"
    );
    again.set_computer(User::new("tegami", "Tegami"));
    assert_eq!(again.computer_games_due().unwrap(), vec![game]);
    let r = again.computer_move(game).unwrap().expect("its move");
    assert!(r.text.contains("Tegami plays 1."), "{}", r.text);
    assert_eq!(r.notify.len(), 1);
    assert_eq!(r.notify[0].user, "alice");
    let row = env.game(game);
    assert_eq!(row.ply, 1);
    assert_eq!(row.to_move.as_deref(), Some("alice"));
    assert!(row.deadline.is_some(), "the player's clock runs");
    // Asked again (a duplicate queue entry), it does nothing.
    assert!(again.computer_move(game).unwrap().is_none());
    assert!(again.computer_games_due().unwrap().is_empty());
}

#[test]
fn the_same_game_gets_the_same_computer_move() {
    let first_move = |level: u8| {
        let env = with_computer();
        let r = env.ok(
            "alice",
            &format!("challenge @tegami palace level={level} second"),
        );
        let game = number_after(&r.text, "Game #").unwrap();
        computer_moves(&env, game);
        env.replay(game).moves()[0]
    };
    for level in 1..=4 {
        assert_eq!(first_move(level), first_move(level), "level {level}");
    }
}

#[test]
fn analysis_of_a_finished_game() {
    let env = with_computer();
    let game = env.start_game("alice", "bob", "shogi");
    let mut engine = env.replay(game);
    for c in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
        let m = tegami::engine::notation::code::parse(engine.position(), c).unwrap();
        env.play(
            game,
            if engine.position().side_to_move() == Color::Black {
                "alice"
            } else {
                "bob"
            },
            &mut engine,
            m,
        );
    }
    let msg = env.refused("alice", &format!("analysis {game}"));
    assert!(msg.contains("still being played"), "{msg}");
    env.ok("bob", &format!("resign {game}"));
    let r = env.ok("carol", &format!("analysis {game}"));
    assert!(
        r.text.contains("biggest swings") || r.text.contains("No move lost much"),
        "{}",
        r.text
    );
    let png = r.image().expect("the chart");
    let img = image::load_from_memory(&png.data).expect("a PNG").to_rgb8();
    assert_eq!(img.dimensions(), (800, 400));
    // Of another server, it is not there.
    let msg = env.refused_cmd_in(&in_guild("elsewhere"), "alice", Command::Analysis { game });
    assert!(msg.contains("no game"), "{msg}");
}

/// A move's public announcement is kept in the outbox with the move (a `post`, with the ply of
/// its board), and a command's notices are held for it: the delivery loop's claim skips them
/// until the command lets go. A notice no way could deliver is set aside: never claimed again,
/// and shown to its player by `games`.
#[test]
fn a_moves_announcement_is_kept_and_held_until_its_command_lets_go() {
    let env = Env::new();
    let game = env.start_game("alice", "bob", "shogi");
    // Whatever the start left is delivered.
    let old: Vec<i64> = env
        .service
        .claim_unsent(100)
        .unwrap()
        .iter()
        .filter_map(|n| n.id)
        .collect();
    env.service.mark_sent(&old).unwrap();

    let r = env
        .service
        .handle(&request("alice", &format!("move {game} 7g7f")));
    assert!(!r.error, "{}", r.text);
    let post = r.post.clone().expect("the move's announcement");
    assert_eq!(post.via, Via::Post);
    assert_eq!(post.game, Some(game));
    assert_eq!(post.ply, Some(1));
    assert_eq!(post.text, r.text, "the announcement is the reply's text");
    let stored = posts(&env.path);
    assert_eq!(stored.len(), 1);
    assert_eq!(Some(stored[0].id), post.id);
    assert_eq!(stored[0].sent_at, None);

    // Held by the command: the loop's claim does not see them.
    let mine: Vec<i64> = r
        .notify
        .iter()
        .chain(&r.post)
        .filter_map(|n| n.id)
        .collect();
    assert_eq!(mine.len(), 2, "bob's notice and the announcement");
    let claimed = env.service.claim_unsent(100).unwrap();
    assert!(
        claimed.iter().all(|n| !mine.contains(&n.id.unwrap())),
        "{claimed:?}"
    );
    // Let go (the command's post failed for a while): now the loop takes them.
    env.service.release_notices(&mine);
    let mut claimed: Vec<i64> = env
        .service
        .claim_unsent(100)
        .unwrap()
        .iter()
        .filter_map(|n| n.id)
        .collect();
    claimed.sort_unstable();
    let mut want = mine.clone();
    want.sort_unstable();
    assert_eq!(claimed, want);

    // Bob's notice cannot be delivered anywhere: set aside, never claimed again.
    let to_bob = r.notify[0].id.unwrap();
    assert!(!env
        .service
        .handle(&request("bob", "games"))
        .text
        .contains("could not be delivered"));
    env.service
        .set_aside(to_bob, "bob", "404 Unknown Channel; 403 DMs closed")
        .unwrap();
    let again: Vec<i64> = env
        .service
        .claim_unsent(100)
        .unwrap()
        .iter()
        .filter_map(|n| n.id)
        .collect();
    assert!(!again.contains(&to_bob));
    let games = env.service.handle(&request("bob", "games")).text;
    assert!(
        games.contains("1 notice to you could not be delivered")
            && games.contains(&format!("#{game}")),
        "{games}"
    );
    // Only to the player concerned.
    assert!(!env
        .service
        .handle(&request("alice", "games"))
        .text
        .contains("could not be delivered"));
}

// ---------------------------------------------------------------------------------------------
// Analyses are bounded (issue 20): one per game at a time, a pool with a queue, a budget.

/// A short finished Shogi game between alice and bob (bob resigned).
fn finished_game(env: &Env) -> i64 {
    let game = env.start_game("alice", "bob", "shogi");
    for (i, m) in ["7g7f", "3c3d", "2g2f", "4c4d"].iter().enumerate() {
        let who = if i % 2 == 0 { "alice" } else { "bob" };
        env.ok(who, &format!("move {game} {m}"));
    }
    env.ok("bob", &format!("resign {game}"));
    game
}

/// What a request running on another thread saw: its progress sentences, then its reply.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
enum Seen {
    Progress(String),
    Reply(Reply),
}

/// Runs `analysis {game}` as `user` on a scoped thread, sending what it sees to `tx`.
fn analyse_on<'s>(
    scope: &'s std::thread::Scope<'s, '_>,
    env: &'s Env,
    user: &'static str,
    game: i64,
    tx: std::sync::mpsc::Sender<Seen>,
) -> std::thread::ScopedJoinHandle<'s, ()> {
    scope.spawn(move || {
        let progress_tx = std::sync::Mutex::new(tx.clone());
        let reply = env
            .service
            .handle_with(&request(user, &format!("analysis {game}")), &|p| {
                let _ = progress_tx
                    .lock()
                    .unwrap()
                    .send(Seen::Progress(p.to_string()));
            });
        let _ = tx.send(Seen::Reply(reply));
    })
}

fn next(rx: &std::sync::mpsc::Receiver<Seen>) -> Seen {
    rx.recv_timeout(std::time::Duration::from_secs(60))
        .expect("the request goes on")
}

#[test]
fn two_requests_of_one_game_share_one_analysis() {
    let env = Env::new();
    let game = finished_game(&env);
    env.service.set_analysis_limit(1);
    // The pool is held full, so the first request waits in the queue (timing-free).
    let held = env.service.analysis_slot(|_| panic!("the pool is free"));
    std::thread::scope(|s| {
        let (tx1, rx1) = std::sync::mpsc::channel();
        let first = analyse_on(s, &env, "carol", game, tx1);
        match next(&rx1) {
            Seen::Progress(p) => assert_eq!(
                p,
                format!("Your analysis of game #{game} is queued: position 1. The chart follows when it is ready.")
            ),
            other => panic!("the first request should be queued: {other:?}"),
        }
        // The second request of the same game joins the first, waiting in no queue.
        let (tx2, rx2) = std::sync::mpsc::channel();
        let second = analyse_on(s, &env, "dave", game, tx2);
        match next(&rx2) {
            Seen::Progress(p) => assert_eq!(
                p,
                format!(
                    "Game #{game} is being analysed already; the chart follows when it is ready."
                )
            ),
            other => panic!("the second request should share the first: {other:?}"),
        }
        assert_eq!(env.service.analysis_load(), (1, 1), "one held, one queued");
        assert_eq!(env.service.analyses_computed(), 0);
        drop(held);
        let (Seen::Reply(a), Seen::Reply(b)) = (next(&rx1), next(&rx2)) else {
            panic!("replies expected");
        };
        first.join().unwrap();
        second.join().unwrap();
        assert!(!a.error, "{}", a.text);
        assert_eq!(a, b, "the same analysis, shared");
        assert!(a.image().is_some(), "the chart");
    });
    assert_eq!(env.service.analyses_computed(), 1, "computed once");
    // Asked again: the kept analysis.
    let again = env.ok("alice", &format!("analysis {game}"));
    assert!(again.image().is_some());
    assert_eq!(env.service.analyses_computed(), 1);
    assert_eq!(env.service.analysis_load(), (0, 0));
}

#[test]
fn analyses_beyond_the_limit_are_queued_and_told_their_place() {
    let env = Env::new();
    let g1 = finished_game(&env);
    let g2 = finished_game(&env);
    env.service.set_analysis_limit(1);
    // The one place is taken (as by a running analysis); `hold` waits in the queue before the
    // requests, and keeps the place when it gets it until told to let go: every step is
    // decided by the test, not by timing.
    let held = env.service.analysis_slot(|_| panic!("the pool is free"));
    std::thread::scope(|s| {
        let (hold_tx, hold_rx) = std::sync::mpsc::channel();
        let (let_go_tx, let_go_rx) = std::sync::mpsc::channel::<()>();
        let service = &env.service;
        let hold = s.spawn(move || {
            let told = std::sync::Mutex::new(hold_tx.clone());
            let slot = service.analysis_slot(|p| told.lock().unwrap().send(p).unwrap());
            hold_tx.send(0).unwrap();
            let_go_rx.recv().unwrap();
            drop(slot);
        });
        assert_eq!(hold_rx.recv().unwrap(), 1, "first in the queue");
        let (tx1, rx1) = std::sync::mpsc::channel();
        let t1 = analyse_on(s, &env, "carol", g1, tx1);
        let Seen::Progress(p) = next(&rx1) else {
            panic!("queued")
        };
        assert_eq!(
            p,
            format!("Your analysis of game #{g1} is queued: position 2. The chart follows when it is ready.")
        );
        let (tx2, rx2) = std::sync::mpsc::channel();
        let t2 = analyse_on(s, &env, "dave", g2, tx2);
        let Seen::Progress(p) = next(&rx2) else {
            panic!("queued")
        };
        assert!(
            p.contains(&format!("game #{g2} is queued: position 3.")),
            "{p}"
        );
        assert_eq!(env.service.analysis_load(), (1, 3));
        // The place is let go: the first in the queue takes it, the requests move up.
        drop(held);
        assert_eq!(hold_rx.recv().unwrap(), 0, "the holder got the place");
        let Seen::Progress(p) = next(&rx1) else {
            panic!("moved up before the reply")
        };
        assert_eq!(
            p,
            format!("Your analysis of game #{g1} is queued: position 1. The chart follows when it is ready.")
        );
        let Seen::Progress(p) = next(&rx2) else {
            panic!("moved up before the reply")
        };
        assert!(
            p.contains(&format!("game #{g2} is queued: position 2.")),
            "{p}"
        );
        assert_eq!(env.service.analysis_load(), (1, 2));
        let_go_tx.send(()).unwrap();
        hold.join().unwrap();
        // Then g1 runs; g2, next, may or may not be told "position 1" (it may start at once).
        let Seen::Reply(r1) = next(&rx1) else {
            panic!("the first reply")
        };
        let r2 = loop {
            match next(&rx2) {
                Seen::Progress(p) => assert!(p.contains("position 1."), "{p}"),
                Seen::Reply(r) => break r,
            }
        };
        t1.join().unwrap();
        t2.join().unwrap();
        for (g, r) in [(g1, r1), (g2, r2)] {
            assert!(!r.error, "{}", r.text);
            assert!(r.text.starts_with(&format!("Game #{g}:")), "{}", r.text);
            assert!(r.image().is_some());
        }
    });
    assert_eq!(env.service.analyses_computed(), 2);
    assert_eq!(env.service.analysis_load(), (0, 0));
}

/// The computer's search, analyses and replays share the places of the long work (the cores
/// but one): with the one place held, the computer's move waits for it (ahead of the players'
/// analyses), and a replay too; each goes on once the place is free (issue 49, point 20).
#[test]
fn the_computer_and_replays_wait_for_a_place_of_the_long_work() {
    let env = with_computer();
    let done = finished_game(&env);
    let r = env.ok("alice", "challenge @tegami shogi level=1 first");
    let game = number_after(&r.text, "Game #").expect("the game starts at once");
    env.ok("alice", &format!("move {game} 7g7f"));
    env.service.set_analysis_limit(1);
    let held = env.service.analysis_slot(|_| panic!("the pool is free"));
    std::thread::scope(|s| {
        let (tx, rx) = std::sync::mpsc::channel();
        let player = analyse_on(s, &env, "carol", done, tx);
        let Seen::Progress(p) = next(&rx) else {
            panic!("the analysis is queued")
        };
        assert!(p.contains("position 1."), "{p}");
        let service = &env.service;
        let computer = s.spawn(move || service.computer_move(game));
        // The computer's move is queued ahead of the analysis (whose place moves back).
        let Seen::Progress(p) = next(&rx) else {
            panic!("moved back")
        };
        assert!(p.contains("position 2."), "{p}");
        assert_eq!(env.service.analysis_load(), (1, 2));
        assert_eq!(env.game(game).ply, 1, "no move while the place is held");
        let replay = s.spawn(move || service.handle(&request("dave", &format!("replay {done}"))));
        while env.service.analysis_load() != (1, 3) {
            std::thread::yield_now();
        }
        drop(held);
        let moved = computer
            .join()
            .unwrap()
            .expect("no error")
            .expect("its move");
        assert!(moved.text.contains("Tegami plays"), "{}", moved.text);
        let Seen::Reply(a) = (loop {
            match next(&rx) {
                Seen::Progress(_) => continue,
                r => break r,
            }
        }) else {
            unreachable!()
        };
        assert!(a.image().is_some(), "{}", a.text);
        let replayed = replay.join().unwrap();
        assert!(!replayed.error, "{}", replayed.text);
        player.join().unwrap();
    });
    assert_eq!(env.game(game).ply, 2);
    assert_eq!(env.service.analysis_load(), (0, 0));
}

/// A player may have two long requests waiting or running; a third is refused at once, in
/// words, and nothing waits for it (issue 49, point 15).
#[test]
fn a_third_long_request_of_one_player_is_refused_at_once() {
    let env = Env::new();
    let g1 = finished_game(&env);
    env.service.set_analysis_limit(1);
    let held = env.service.analysis_slot(|_| panic!("the pool is free"));
    std::thread::scope(|s| {
        let (tx1, rx1) = std::sync::mpsc::channel();
        let a1 = analyse_on(s, &env, "carol", g1, tx1);
        assert!(matches!(next(&rx1), Seen::Progress(_)));
        let service = &env.service;
        let r1 = s.spawn(move || service.handle(&request("carol", &format!("replay {g1}"))));
        while env.service.analysis_load() != (1, 2) {
            std::thread::yield_now();
        }
        let third = env
            .service
            .handle(&request("carol", &format!("replay {g1}")));
        assert!(third.error);
        assert_eq!(
            third.text,
            "you already have 2 analyses or replays waiting or running: ask again once they are done"
        );
        assert_eq!(env.service.analysis_load(), (1, 2), "nothing more waits");
        // Another player is not held to carol's count.
        let r2 = s.spawn(move || service.handle(&request("dave", &format!("replay {g1}"))));
        while env.service.analysis_load() != (1, 3) {
            std::thread::yield_now();
        }
        drop(held);
        a1.join().unwrap();
        assert!(!r1.join().unwrap().error);
        assert!(!r2.join().unwrap().error);
    });
    assert_eq!(env.service.analysis_load(), (0, 0));
}

#[test]
fn the_budget_cuts_a_long_analysis_and_the_reply_says_so() {
    let env = Env::new();
    let game = finished_game(&env);
    // No time at all: only the start position is evaluated.
    env.service
        .set_analysis_budget(tegami::engine::search::Budget {
            time: std::time::Duration::ZERO,
            ..tegami::service::default_analysis_budget()
        });
    let r = env.ok("carol", &format!("analysis {game}"));
    assert!(
        r.text
            .contains("the analysis stopped at its time limit, after the first 0 of its 4 moves"),
        "{}",
        r.text
    );
    assert!(r.image().is_some(), "the chart all the same");
    // The default budget analyses the whole game.
    let other = finished_game(&env);
    env.service
        .set_analysis_budget(tegami::service::default_analysis_budget());
    let r = env.ok("carol", &format!("analysis {other}"));
    assert!(!r.text.contains("time limit"), "{}", r.text);
}
