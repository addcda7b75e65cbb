//! Properties of the rules engine along random games, in every game of `VariantId::ALL` (a new
//! variant is picked up with no change here).
//!
//! Each case plays one random game per variant (a random legal move each ply, up to 150 plies,
//! stopping when the game ends) and checks, at every ply:
//!
//! - every listed legal move passes `check_move`, is accepted by `Game::play`, has a unique move
//!   code that reads back to the same move, and a unique human form (`notation::human`: Hodges
//!   for the shogi games, algebraic for Shanghai Palace Chess) that the forgiving
//!   reader resolves back to the same move;
//! - other syntactically valid moves (random squares, random drops, the promotion flag of a
//!   legal move flipped) are refused by `check_move` exactly when they are not listed, and the
//!   reader refuses their codes;
//! - `make` then `unmake` restores the exact position and hash;
//! - the position string round-trips (write, parse: the same position, the same string) and
//!   the incremental hash equals the hash of the position parsed from it;
//! - pieces are conserved: board plus hands, per unpromoted kind;
//! - the game's end agrees with the position (checkmate means in check with no move);
//!
//! and at the end that replaying the moves from the start gives the same position.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use tegami::engine::notation::{self, code, fen, human, input};
use tegami::engine::{Game, Move, Outcome, PieceKind, Position, Reason, Variant, VariantId};

/// Longest game played.
const MAX_PLIES: usize = 150;
/// Legal moves per ply that also go through `Game::play` and the human notation round trip
/// (every legal move goes through the cheaper checks).
const HEAVY_SAMPLE: usize = 32;
/// Random other moves tried per ply.
const RANDOM_MOVES: usize = 24;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // The inputs are a list of choices and a seed: a failure prints all it takes to replay.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A tiny deterministic generator (xorshift) for the samples inside a case.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Games where every captured piece goes, unpromoted, to the capturer's hand and promotion only
/// turns a piece over, so that board plus hands is conserved per unpromoted kind. Palace Shogi
/// kills some captured pieces and turns pawns into queens, Shanghai Palace Chess removes its
/// Western and Chinese captures and promotes Western pawns to other pieces (rules.md): for them
/// the check is skipped.
fn conserves_pieces(id: VariantId) -> bool {
    !matches!(id.as_str(), "palace" | "shanghai")
}

/// Board plus hands, both sides together, per unpromoted kind.
fn piece_totals(pos: &Position) -> BTreeMap<PieceKind, u32> {
    let v = pos.variant();
    let mut totals = BTreeMap::new();
    for (_, p) in pos.pieces() {
        *totals.entry(v.demote(p.kind)).or_insert(0) += 1;
    }
    for &k in v.spec.pieces.hand_order {
        for c in [tegami::engine::Color::Black, tegami::engine::Color::White] {
            let n = pos.hand(c, k) as u32;
            if n > 0 {
                *totals.entry(k).or_insert(0) += n;
            }
        }
    }
    totals
}

/// A syntactically valid move that may or may not be legal.
fn random_move(v: &Variant, rng: &mut Rng) -> Move {
    let squares = v.squares();
    let sq = |rng: &mut Rng| squares[rng.below(squares.len())];
    let kinds = v.spec.pieces.hand_order;
    if !kinds.is_empty() && rng.below(3) == 0 {
        Move::Drop {
            kind: kinds[rng.below(kinds.len())],
            to: sq(rng),
        }
    } else {
        Move::Board {
            from: sq(rng),
            to: sq(rng),
            promote: rng.below(2) == 0,
        }
    }
}

/// The position string round-trips, and so does the hash.
fn check_position_string(pos: &Position, text: &str) -> Result<(), TestCaseError> {
    let v = pos.variant();
    let parsed = match fen::parse(v, text) {
        Ok(p) => p,
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "{text} does not read back: {e}"
            )))
        }
    };
    prop_assert!(parsed == *pos, "{} reads back as another position", text);
    prop_assert_eq!(fen::write(&parsed), text);
    prop_assert_eq!(
        parsed.hash(),
        pos.hash(),
        "incremental hash differs from the parsed position's in {}",
        text
    );
    Ok(())
}

/// Checks of one position, its legal moves and a sample of other moves.
fn check_position(game: &Game, rng: &mut Rng) -> Result<(), TestCaseError> {
    let pos = game.position();
    let v = pos.variant();
    let text = fen::write(pos);
    let legal = game.legal_moves();
    if game.is_over() {
        prop_assert!(legal.is_empty(), "moves listed after the end in {}", text);
    } else {
        // The game may refuse more than the position (Shanghai Palace Chess forbids a third
        // occurrence of a position), never less.
        let all = pos.legal_moves();
        for m in &legal {
            prop_assert!(
                all.contains(m),
                "{:?} listed by the game only, in {}",
                m,
                text
            );
        }
        for m in all.iter().filter(|m| !legal.contains(m)) {
            prop_assert!(game.check_move(*m).is_err(), "{:?} in {}", m, text);
        }
    }
    let set: BTreeSet<Move> = legal.iter().copied().collect();
    prop_assert_eq!(set.len(), legal.len(), "a move listed twice in {}", text);

    check_position_string(pos, &text)?;

    // Every legal move: accepted, unique code and human form that read back, make/unmake.
    let mut codes = BTreeSet::new();
    let mut humans = BTreeSet::new();
    let heavy: BTreeSet<usize> = if legal.len() <= HEAVY_SAMPLE {
        (0..legal.len()).collect()
    } else {
        (0..HEAVY_SAMPLE).map(|_| rng.below(legal.len())).collect()
    };
    for (i, &m) in legal.iter().enumerate() {
        prop_assert_eq!(
            pos.check_move(m),
            Ok(()),
            "{:?} listed but refused in {}",
            m,
            text
        );
        let c = code::write(v, m);
        prop_assert_eq!(code::parse(pos, &c), Some(m), "code {} in {}", c, text);
        prop_assert!(
            codes.insert(c.clone()),
            "two moves share the code {} in {}",
            c,
            text
        );

        let mut p = pos.clone();
        let undo = p.make(m);
        prop_assert!(p.side_to_move() != pos.side_to_move());
        p.unmake(m, undo);
        prop_assert!(p == *pos, "make/unmake of {} changed {}", c, text);
        prop_assert_eq!(
            p.hash(),
            pos.hash(),
            "make/unmake of {} changed the hash",
            c
        );
        prop_assert_eq!(fen::write(&p), text.clone());

        if !heavy.contains(&i) {
            continue;
        }
        let h = human(pos, m);
        prop_assert!(
            humans.insert(h.clone()),
            "two moves written {} in {}",
            h,
            text
        );
        match input::parse_move(pos, &h) {
            Ok(back) => prop_assert_eq!(back, m, "{} reads back as another move in {}", h, text),
            Err(e) => {
                return Err(TestCaseError::fail(format!(
                    "{h} (move {c}) does not read back in {text}: {e}"
                )))
            }
        }
        prop_assert_eq!(
            input::parse_move(pos, &c),
            Ok(m),
            "code {} via the reader",
            c
        );
        let mut g = game.clone();
        prop_assert_eq!(g.play(m), Ok(()), "Game::play refused {} in {}", c, text);
        prop_assert_eq!(g.moves().len(), game.moves().len() + 1);
    }

    // Other moves: refused exactly when not listed.
    let mut others: Vec<Move> = (0..RANDOM_MOVES).map(|_| random_move(v, rng)).collect();
    others.extend(legal.iter().filter_map(|&m| match m {
        Move::Board { from, to, promote } => Some(Move::Board {
            from,
            to,
            promote: !promote,
        }),
        _ => None,
    }));
    for m in others {
        let listed = set.contains(&m);
        let verdict = game.check_move(m);
        prop_assert_eq!(
            verdict.is_ok(),
            listed,
            "check_move({:?}) = {:?} but listed = {} in {}",
            m,
            verdict,
            listed,
            text
        );
        if !listed {
            // The reader refuses its code, unless another, legal move has that code (a Palace
            // Shogi en-passant capture is written like the plain diagonal step).
            let c = code::write(v, m);
            let read = input::parse_move(pos, &c);
            if let (Ok(read), false) = (read, game.is_over()) {
                prop_assert!(
                    read != m && set.contains(&read) && code::write(v, read) == c,
                    "the reader accepted the illegal {} in {}",
                    c,
                    text
                );
            }
            let mut g = game.clone();
            prop_assert!(g.play(m).is_err(), "Game::play accepted {:?}", m);
            prop_assert_eq!(g.moves().len(), game.moves().len());
            prop_assert!(g.position() == pos);
        }
    }
    Ok(())
}

/// Plays one random game of `id`, checking every position on the way.
fn random_game(id: VariantId, choices: &[u32], seed: u64) -> Result<(), TestCaseError> {
    let start = Position::start(id);
    let totals = piece_totals(&start);
    let mut game = Game::new(start.clone());
    let mut rng = Rng::new(seed ^ (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    for &choice in choices.iter().take(MAX_PLIES) {
        check_position(&game, &mut rng)?;
        let pos = game.position();
        if let Some(o) = game.outcome() {
            prop_assert!(game.legal_moves().is_empty());
            if let Outcome::Win {
                reason: Reason::Checkmate,
                winner,
            } = o
            {
                // (In Shanghai Palace Chess the position may still have moves that the game
                // forbids as a third repetition.)
                prop_assert!(pos.in_check(), "checkmate without check");
                prop_assert!(winner != pos.side_to_move());
            }
            break;
        }
        let legal = game.legal_moves();
        prop_assert!(!legal.is_empty(), "no legal move but no outcome");
        // Half the time a capture when there is one, so hands fill and drops come up.
        let captures: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.from().is_some() && pos.piece_at(m.to()).is_some())
            .collect();
        let m = if choice & 1 == 1 && !captures.is_empty() {
            captures[(choice >> 1) as usize % captures.len()]
        } else {
            legal[(choice >> 1) as usize % legal.len()]
        };
        game.play(m)
            .map_err(|e| TestCaseError::fail(format!("{m:?}: {e:?}")))?;
        if conserves_pieces(id) {
            prop_assert_eq!(
                &piece_totals(game.position()),
                &totals,
                "pieces not conserved after {:?} in {}",
                m,
                fen::write(game.position())
            );
        }
    }
    // Replaying the moves from the start gives the same position.
    let mut replay = start.clone();
    let mut replay_game = Game::new(start);
    for &m in game.moves() {
        replay.make(m);
        prop_assert_eq!(replay_game.play(m), Ok(()));
    }
    prop_assert!(replay == *game.position(), "replay differs");
    prop_assert_eq!(replay.hash(), game.position().hash());
    prop_assert_eq!(fen::write(&replay), fen::write(game.position()));
    prop_assert!(replay_game.position() == game.position());
    prop_assert_eq!(replay_game.outcome(), game.outcome());
    Ok(())
}

proptest! {
    #![proptest_config(config(20))]

    #[test]
    fn random_games_keep_the_invariants(
        choices in prop::collection::vec(any::<u32>(), MAX_PLIES),
        seed in any::<u64>(),
    ) {
        for &id in VariantId::ALL {
            random_game(id, &choices, seed)
                .map_err(|e| TestCaseError::fail(format!("{}: {e}", id.as_str())))?;
        }
    }
}

#[test]
fn palace_lion_pass_cannot_promote() {
    let id = VariantId::parse("palace").expect("Palace Shogi");
    let v = Variant::get(id);
    // Black's lion on 5e, every square around it empty: it may pass (stare), but not promote.
    let pos = fen::parse(v, "7k1/9/9/9/4+Q4/9/9/9/K8 b - 1 - -").unwrap();
    let sq = v.parse_square("5e").unwrap();
    let pass = Move::Board {
        from: sq,
        to: sq,
        promote: false,
    };
    let promoting = Move::Board {
        from: sq,
        to: sq,
        promote: true,
    };
    assert!(pos.legal_moves().contains(&pass));
    assert!(!pos.legal_moves().contains(&promoting));
    assert!(
        pos.check_move(promoting).is_err(),
        "check_move accepts 5e5e+"
    );
    assert!(
        input::parse_move(&pos, "5e5e+").is_err(),
        "the reader accepts 5e5e+"
    );
    let mut g = Game::new(pos);
    assert!(g.play(promoting).is_err(), "Game::play accepts 5e5e+");
}

/// `notation::human_all` writes every legal move as `notation::human` does, in the same order
/// (whatever the order of the list), along seeded random games of every variant from every
/// start it has (the usual one, each handicap, each named setup). The walk prefers captures
/// half of the time, so that hands fill and drops and ambiguous moves come up.
#[test]
fn human_all_writes_each_legal_move_as_human_does() {
    let mut positions = 0usize;
    let mut ambiguous = 0usize;
    for &id in VariantId::ALL {
        let v = Variant::get(id);
        let mut starts = vec![Position::start(id)];
        starts.extend(
            v.spec
                .handicaps
                .iter()
                .map(|h| tegami::engine::handicap_position(id, h.name).expect("handicap")),
        );
        starts.extend(
            v.spec
                .setups
                .iter()
                .map(|s| tegami::engine::setup_position(id, s.name).expect("setup")),
        );
        for (k, start) in starts.iter().enumerate() {
            for seed in 1..=4u64 {
                let mut rng = Rng::new(seed * 7919 + k as u64 * 104_729 + id as u64);
                let mut game = Game::new(start.clone());
                for _ in 0..MAX_PLIES {
                    let pos = game.position();
                    let legal = pos.legal_moves();
                    let each: Vec<String> = legal.iter().map(|&m| human(pos, m)).collect();
                    let all = notation::human_all(pos, &legal);
                    assert_eq!(
                        all,
                        each,
                        "{}: human_all differs from human in {}",
                        id.as_str(),
                        fen::write(pos)
                    );
                    // The order of the list does not matter.
                    let mut reversed = legal.clone();
                    reversed.reverse();
                    let mut back = notation::human_all(pos, &reversed);
                    back.reverse();
                    assert_eq!(back, each, "{}: order matters", id.as_str());
                    positions += 1;
                    // Positions where two pieces of a kind reach one square (the moves must
                    // name their start squares).
                    let kind_at = |m: &Move| m.from().and_then(|f| pos.piece_at(f)).map(|p| p.kind);
                    if legal.iter().any(|m| {
                        legal.iter().any(|o| {
                            o.to() == m.to()
                                && o.from().is_some()
                                && o.from() != m.from()
                                && kind_at(o) == kind_at(m)
                        })
                    }) {
                        ambiguous += 1;
                    }
                    if game.outcome().is_some() || legal.is_empty() {
                        break;
                    }
                    let captures: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|m| m.from().is_some() && pos.piece_at(m.to()).is_some())
                        .collect();
                    let m = if rng.below(2) == 0 && !captures.is_empty() {
                        captures[rng.below(captures.len())]
                    } else {
                        legal[rng.below(legal.len())]
                    };
                    if game.play(m).is_err() {
                        // A move the game forbids (a third repetition): another one.
                        let other = game.legal_moves();
                        if other.is_empty() {
                            break;
                        }
                        game.play(other[rng.below(other.len())])
                            .expect("a legal move");
                    }
                }
            }
        }
    }
    assert!(positions > 3_000, "only {positions} positions walked");
    assert!(
        ambiguous > 100,
        "only {ambiguous} positions with two pieces of a kind reaching one square"
    );
}
