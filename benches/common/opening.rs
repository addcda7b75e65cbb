//! Seeded random openings for the benches that play Fairy-Stockfish (`distil`, `versus`):
//! a few random legal moves from the start, the same for the same seed, so that games do not
//! all replay one line (an engine plays the same position the same way).

use tegami::engine::{Game, Position, VariantId};

/// A well-mixed 64-bit value (splitmix64's finaliser).
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The game after `plies` random legal moves from the start, chosen by `seed` (fewer if the
/// game ends first).
pub fn random_opening(id: VariantId, seed: u64, plies: u64) -> Game {
    let mut g = Game::new(Position::start(id));
    for ply in 0..plies {
        let moves = g.legal_moves();
        if moves.is_empty() || g.outcome().is_some() {
            break;
        }
        let m = moves[mix(mix(seed) ^ ply) as usize % moves.len()];
        if g.play(m).is_err() {
            break;
        }
    }
    g
}
