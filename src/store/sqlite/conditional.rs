//! Conditional moves in SQLite (see `store::conditional`): one writer at a time, so a rewrite
//! that another process made already finds its old lines gone and its new ones stored.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::SqliteStore;
use crate::store::conditional::*;
use crate::store::{Result, StoreError};

fn conditional_row(r: &Row) -> rusqlite::Result<ConditionalRow> {
    let moves: String = r.get(5)?;
    Ok(ConditionalRow {
        id: r.get(0)?,
        game: r.get(1)?,
        user: r.get(2)?,
        ply: r.get(3)?,
        position: r.get(4)?,
        moves: split_moves(&moves),
        created_at: r.get(6)?,
    })
}

/// Stores a line unless an equal one is stored (`moves` as `joined_moves` made them); the line
/// as stored. `NotFound` if the game does not exist.
fn insert(tx: &Connection, c: &NewConditional, moves: &str, now: i64) -> Result<ConditionalRow> {
    let game: Option<i64> = tx
        .query_row("SELECT id FROM games WHERE id = ?1", [c.game], |r| r.get(0))
        .optional()?;
    if game.is_none() {
        return Err(StoreError::NotFound);
    }
    tx.prepare_cached(
        "INSERT INTO conditionals (game_id, user_id, ply, position, moves, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (game_id, user_id, ply, moves) DO NOTHING",
    )?
    .execute(params![c.game, c.user, c.ply, c.position, moves, now])?;
    Ok(tx
        .prepare_cached(&format!(
            "SELECT {CONDITIONAL_COLUMNS} FROM conditionals
             WHERE game_id = ?1 AND user_id = ?2 AND ply = ?3 AND moves = ?4"
        ))?
        .query_row(params![c.game, c.user, c.ply, moves], conditional_row)?)
}

impl ConditionalStore for SqliteStore {
    fn add_conditional(&self, c: &NewConditional, now: i64) -> Result<ConditionalRow> {
        let moves = joined_moves(c)?;
        self.write(|tx| insert(tx, c, &moves, now))
    }

    fn conditionals(&self, game: i64) -> Result<Vec<ConditionalRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {CONDITIONAL_COLUMNS} FROM conditionals WHERE game_id = ?1 ORDER BY id"
            ))?;
            let rows = st.query_map([game], conditional_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn clear_conditionals(&self, game: i64, user: &str) -> Result<usize> {
        self.write(|tx| {
            Ok(tx.execute(
                "DELETE FROM conditionals WHERE game_id = ?1 AND user_id = ?2",
                params![game, user],
            )?)
        })
    }

    fn rewrite_conditionals(&self, old: &[i64], new: &[NewConditional], now: i64) -> Result<()> {
        // Every new line checked before anything is written.
        let moves = new.iter().map(joined_moves).collect::<Result<Vec<_>>>()?;
        self.write(|tx| {
            let mut st = tx.prepare_cached("DELETE FROM conditionals WHERE id = ?1")?;
            for id in old {
                st.execute([id])?;
            }
            for (c, moves) in new.iter().zip(&moves) {
                insert(tx, c, moves, now)?;
            }
            Ok(())
        })
    }

    fn conditional_games(&self, limit: usize) -> Result<Vec<i64>> {
        self.with(|c| {
            let mut st = c.prepare_cached(
                "SELECT DISTINCT c.game_id FROM conditionals c JOIN games g ON g.id = c.game_id
                 WHERE c.ply < g.ply
                    OR (c.ply = g.ply AND g.to_move = c.user_id)
                    OR g.status <> 'active'
                 ORDER BY c.game_id LIMIT ?1",
            )?;
            let rows = st.query_map([i64::try_from(limit).unwrap_or(i64::MAX)], |r| r.get(0))?;
            Ok(rows.collect::<rusqlite::Result<Vec<i64>>>()?)
        })
    }
}
