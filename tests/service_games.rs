//! Full games through the command core on a real SQLite file: every variant played to a
//! decisive end on the board by a seeded mate-seeking player, resignation, draw by agreement,
//! takeback, repetition (Shogi and Palace Shogi fourfold, Shanghai's forbidden third), impasse
//! by agreement, a handicap game and a Shanghai `setup=smith` game. Each scenario then drops the
//! service, reopens the database file with a fresh `SqliteStore` and finds everything there.

mod service_common;

use service_common::*;
use tegami::engine::notation::{code, fen};
use tegami::engine::{
    handicap_position, impasse, setup_position, Color, Game, Move, Outcome, Position, Reason,
    Variant, VariantId,
};
use tegami::service::Service;
use tegami::store::{ChallengeStatus, GameResult, GameStatus, SqliteStore, Store};

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
    assert_eq!(env.game(game).days_per_move, 5);
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
    assert!(r.text.contains("1... P-3d"), "{}", r.text);
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
    assert!(record.text.contains("1. … P-3d"), "{}", record.text);
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
            shown.contains(&format!("After 0 of {} moves", e.codes.len())),
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
