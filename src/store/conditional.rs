//! The rows of conditional moves (issue 23): "if you play X, I play Y" lines a player leaves in
//! a game, and what the store does with them. As everywhere in the store, rows and not rules:
//! the core checks a line against the game and plays it (or drops it); the store keeps the lines
//! as given, each change one transaction, a line stored once however many processes store it
//! (a UNIQUE constraint on game, user, ply and moves, and `ON CONFLICT DO NOTHING`).

use super::{Result, StoreError};

/// A line of conditional moves a player left in a game: the moves to come from the game's
/// position after `ply` moves, alternately the opponent's and the player's, starting with
/// whoever moves at ply + 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConditionalRow {
    pub id: i64,
    pub game: i64,
    pub user: String,
    /// The game's ply the line starts from: `moves[0]` is move number `ply + 1`.
    pub ply: u32,
    /// The position string after `ply` moves when the line was made (so a line that a takeback
    /// left behind is recognised).
    pub position: String,
    /// Move codes, in order (never empty).
    pub moves: Vec<String>,
    pub created_at: i64,
}

/// A line to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewConditional {
    pub game: i64,
    pub user: String,
    pub ply: u32,
    pub position: String,
    pub moves: Vec<String>,
}

pub trait ConditionalStore: Send + Sync {
    /// Stores a line. `Invalid` if `moves` is empty or a code contains whitespace; `NotFound` if
    /// the game does not exist. A line equal to one stored (same game, user, ply and moves) is
    /// not stored twice: the stored one is returned. Checked against the player's other lines
    /// from the same ply and position in this transaction (after locking the game's row, so
    /// two lines added at once are checked one after the other): `Limit(ConditionalConflict)`
    /// if one answers a move of this line differently (lines part at the opponent's moves
    /// only), `Limit(ConditionalLines)` if there are `max` already; nothing written then.
    fn add_conditional(&self, c: &NewConditional, max: usize, now: i64) -> Result<ConditionalRow>;
    /// The lines of a game, every player's, oldest first (by id).
    fn conditionals(&self, game: i64) -> Result<Vec<ConditionalRow>>;
    /// Deletes a user's lines in a game; how many there were.
    fn clear_conditionals(&self, game: i64, user: &str) -> Result<usize>;
    /// In one transaction: deletes the lines `old` (by id; ids already gone are no error) and
    /// stores `new` (a new line equal to a stored one is not stored twice). Two processes
    /// rewriting the same lines at once end with each new line stored once.
    fn rewrite_conditionals(&self, old: &[i64], new: &[NewConditional], now: i64) -> Result<()>;
    /// Active games with lines to look at, at most `limit`, by game id: a line behind the game
    /// (its ply below the game's ply: moves were played since), or a line of the player to move
    /// starting at the game's ply. Lines of games that are over are deleted by this call's
    /// caller through `rewrite_conditionals`; they are listed too (any status) when behind.
    fn conditional_games(&self, limit: usize) -> Result<Vec<i64>>;
}

/// The moves of a line as stored: its codes joined by single spaces. `Invalid` if there are
/// none, or a code is empty or contains whitespace (it would not read back as it was).
pub(super) fn joined_moves(c: &NewConditional) -> Result<String> {
    if c.moves.is_empty() {
        return Err(StoreError::Invalid(format!(
            "game {}: a conditional line without moves",
            c.game
        )));
    }
    if let Some(bad) = c
        .moves
        .iter()
        .find(|m| m.is_empty() || m.chars().any(char::is_whitespace))
    {
        return Err(StoreError::Invalid(format!(
            "game {}: move code {bad:?} in a conditional line",
            c.game
        )));
    }
    Ok(c.moves.join(" "))
}

/// The codes of a line's stored moves.
pub(super) fn split_moves(moves: &str) -> Vec<String> {
    moves.split(' ').map(str::to_string).collect()
}
