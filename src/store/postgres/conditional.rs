//! Conditional moves in PostgreSQL (see `store::conditional`). Two processes may rewrite the
//! same lines at once (each found the game to look at): the old lines are taken `FOR UPDATE`
//! in id order, so the second waits for the first to commit and then finds them gone, and its
//! new lines, stored by the first meanwhile, meet the UNIQUE constraint and are left as they
//! are (`ON CONFLICT DO NOTHING` waits for the transaction that stored an equal line).

use ::postgres::Row;

use super::{all, count, PgStore, Sql};
use crate::store::conditional::*;
use crate::store::{Result, StoreError};

fn conditional_row(r: &Row) -> Result<ConditionalRow> {
    let moves: String = r.try_get(5)?;
    Ok(ConditionalRow {
        id: r.try_get(0)?,
        game: r.try_get(1)?,
        user: r.try_get(2)?,
        ply: count(r, 3)?,
        position: r.try_get(4)?,
        moves: split_moves(&moves),
        created_at: r.try_get(6)?,
    })
}

/// Stores a line unless an equal one is stored (`moves` as `joined_moves` made them); the line
/// as stored. `NotFound` if the game does not exist.
fn insert(
    c: &mut impl Sql,
    line: &NewConditional,
    moves: &str,
    now: i64,
) -> Result<ConditionalRow> {
    if c.query_opt("SELECT 1 FROM games WHERE id = $1", &[&line.game])?
        .is_none()
    {
        return Err(StoreError::NotFound);
    }
    let ply = i64::from(line.ply);
    c.execute(
        "INSERT INTO conditionals (game_id, user_id, ply, position, moves, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (game_id, user_id, ply, moves) DO NOTHING",
        &[&line.game, &line.user, &ply, &line.position, &moves, &now],
    )?;
    // A new statement: it sees the equal line another transaction committed meanwhile.
    conditional_row(&c.query_one(
        &format!(
            "SELECT {CONDITIONAL_COLUMNS} FROM conditionals
             WHERE game_id = $1 AND user_id = $2 AND ply = $3 AND moves = $4"
        ),
        &[&line.game, &line.user, &ply, &moves],
    )?)
}

impl ConditionalStore for PgStore {
    fn add_conditional(&self, c: &NewConditional, now: i64) -> Result<ConditionalRow> {
        let moves = joined_moves(c)?;
        self.write(|tx| insert(tx, c, &moves, now))
    }

    fn conditionals(&self, game: i64) -> Result<Vec<ConditionalRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {CONDITIONAL_COLUMNS} FROM conditionals WHERE game_id = $1 ORDER BY id"
            ),
            &[&game],
            conditional_row,
        )
    }

    fn clear_conditionals(&self, game: i64, user: &str) -> Result<usize> {
        let n = self.client()?.execute(
            "DELETE FROM conditionals WHERE game_id = $1 AND user_id = $2",
            &[&game, &user],
        )?;
        Ok(n as usize)
    }

    fn rewrite_conditionals(&self, old: &[i64], new: &[NewConditional], now: i64) -> Result<()> {
        // Every new line checked before anything is written.
        let moves = new.iter().map(joined_moves).collect::<Result<Vec<_>>>()?;
        self.write(|tx| {
            if !old.is_empty() {
                tx.execute(
                    "DELETE FROM conditionals WHERE id IN (
                        SELECT id FROM conditionals WHERE id = ANY($1) ORDER BY id FOR UPDATE)",
                    &[&old],
                )?;
            }
            for (c, moves) in new.iter().zip(&moves) {
                insert(tx, c, moves, now)?;
            }
            Ok(())
        })
    }

    fn conditional_games(&self, limit: usize) -> Result<Vec<i64>> {
        let rows = self.client()?.query(
            "SELECT DISTINCT c.game_id FROM conditionals c JOIN games g ON g.id = c.game_id
             WHERE c.ply < g.ply
                OR (c.ply = g.ply AND g.to_move = c.user_id)
                OR g.status <> 'active'
             ORDER BY c.game_id LIMIT $1",
            &[&i64::try_from(limit).unwrap_or(i64::MAX)],
        )?;
        rows.iter()
            .map(|r| Ok(r.try_get(0)?))
            .collect::<Result<Vec<i64>>>()
    }
}
