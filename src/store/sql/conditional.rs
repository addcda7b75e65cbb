//! Conditional moves (see `store::conditional`), for any [`Backend`]. SQLite lets one writer in
//! at a time, so a rewrite that another process made already finds its old lines gone and its
//! new ones stored. On PostgreSQL two processes may rewrite the same lines at once (each found
//! the game to look at): the old lines are taken `FOR UPDATE` in id order, so the second waits
//! for the first to commit and then finds them gone, and its new lines, stored by the first
//! meanwhile, meet the UNIQUE constraint and are left as they are (`ON CONFLICT DO NOTHING`
//! waits for the transaction that stored an equal line).

use super::rows::*;
use super::{args, Backend, Dialect, Exec, Value};
use crate::store::conditional::*;
use crate::store::{Limit, Result, StoreError};

/// Stores a line unless an equal one is stored (`moves` as `joined_moves` made them); the line
/// as stored. `NotFound` if the game does not exist.
fn insert(
    c: &mut dyn Exec,
    line: &NewConditional,
    moves: &str,
    now: i64,
) -> Result<ConditionalRow> {
    if c.query("SELECT 1 FROM games WHERE id = $1", args![line.game])?
        .is_empty()
    {
        return Err(StoreError::NotFound);
    }
    c.execute(
        "INSERT INTO conditionals (game_id, user_id, ply, position, moves, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (game_id, user_id, ply, moves) DO NOTHING",
        args![line.game, &line.user, line.ply, &line.position, moves, now],
    )?;
    // A new statement: it sees the equal line another transaction committed meanwhile.
    c.one(
        &format!(
            "SELECT {CONDITIONAL_COLUMNS} FROM conditionals
             WHERE game_id = $1 AND user_id = $2 AND ply = $3 AND moves = $4"
        ),
        args![line.game, &line.user, line.ply, moves],
        conditional_row,
    )?
    .ok_or(StoreError::NotFound)
}

/// Where two lines of one player from one position first differ, if at one of the player's
/// own moves (odd places: the moves alternate the opponent's and the player's, the opponent's
/// first): the two would answer the same move differently.
fn answers_apart(a: &[String], b: &[String]) -> Option<usize> {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .filter(|k| k % 2 == 1)
}

impl<B: Backend> ConditionalStore for B {
    fn add_conditional(&self, c: &NewConditional, max: usize, now: i64) -> Result<ConditionalRow> {
        let moves = joined_moves(c)?;
        self.write(|tx| {
            // The game's row first (PostgreSQL): two lines of one game added at once are
            // checked one after the other, each seeing the other's once committed.
            if tx
                .query(
                    "SELECT id FROM games WHERE id = $1 {for update}",
                    args![c.game],
                )?
                .is_empty()
            {
                return Err(StoreError::NotFound);
            }
            let mine = tx.all(
                &format!(
                    "SELECT {CONDITIONAL_COLUMNS} FROM conditionals
                     WHERE game_id = $1 AND user_id = $2 AND ply = $3 AND position = $4
                     ORDER BY id"
                ),
                args![c.game, &c.user, c.ply, &c.position],
                conditional_row,
            )?;
            if let Some(same) = mine.iter().find(|l| l.moves == c.moves) {
                return Ok(same.clone());
            }
            for other in &mine {
                if let Some(k) = answers_apart(&c.moves, &other.moves) {
                    return Err(StoreError::Limit(Limit::ConditionalConflict {
                        line: other.moves[..=k].to_vec(),
                    }));
                }
            }
            if mine.len() >= max {
                return Err(StoreError::Limit(Limit::ConditionalLines {
                    count: mine.len(),
                }));
            }
            insert(tx, c, &moves, now)
        })
    }

    fn conditionals(&self, game: i64) -> Result<Vec<ConditionalRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {CONDITIONAL_COLUMNS} FROM conditionals WHERE game_id = $1 ORDER BY id"
                ),
                args![game],
                conditional_row,
            )
        })
    }

    fn clear_conditionals(&self, game: i64, user: &str) -> Result<usize> {
        self.single(|c| {
            let n = c.execute(
                "DELETE FROM conditionals WHERE game_id = $1 AND user_id = $2",
                args![game, user],
            )?;
            Ok(usize::try_from(n).unwrap_or(usize::MAX))
        })
    }

    fn rewrite_conditionals(&self, old: &[i64], new: &[NewConditional], now: i64) -> Result<()> {
        // Every new line checked before anything is written.
        let moves = new.iter().map(joined_moves).collect::<Result<Vec<_>>>()?;
        self.write(|c| {
            match c.dialect() {
                // One statement, its rows locked in id order (see above).
                Dialect::Postgres if !old.is_empty() => {
                    c.execute(
                        "DELETE FROM conditionals WHERE id IN (
                            SELECT id FROM conditionals WHERE id = ANY($1) ORDER BY id FOR UPDATE)",
                        &[Value::Ints(old.to_vec())],
                    )?;
                }
                Dialect::Postgres => {}
                // No arrays: one cached statement per line, in the write's transaction.
                Dialect::Sqlite => {
                    for id in old {
                        c.execute("DELETE FROM conditionals WHERE id = $1", args![*id])?;
                    }
                }
            }
            for (line, moves) in new.iter().zip(&moves) {
                insert(c, line, moves, now)?;
            }
            Ok(())
        })
    }

    fn conditional_games(&self, limit: usize) -> Result<Vec<i64>> {
        self.read(|c| {
            c.all(
                "SELECT DISTINCT c.game_id FROM conditionals c JOIN games g ON g.id = c.game_id
                 WHERE c.ply < g.ply
                    OR (c.ply = g.ply AND g.to_move = c.user_id)
                    OR g.status <> 'active'
                 ORDER BY c.game_id LIMIT $1",
                args![limit],
                |r| r.get(0),
            )
        })
    }
}
