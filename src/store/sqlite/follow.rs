//! Followers and daily digests in SQLite (see `store::follow`): one writer at a time, so each
//! guarded change (what a follower was told, a digest's planned time) is made once by its
//! guard alone.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::{qualified, queue, user_row, SqliteStore, USER_COLUMNS};
use crate::store::follow::*;
use crate::store::{NewNotice, Result, StoreError, UserRow};

fn follow_row(r: &Row) -> rusqlite::Result<FollowRow> {
    Ok(FollowRow {
        game: r.get(0)?,
        user: r.get(1)?,
        notify: r.get(2)?,
        seen_ply: r.get(3)?,
        seen_over: r.get(4)?,
        joined_thread: r.get(5)?,
        created_at: r.get(6)?,
    })
}

fn get_follow(c: &Connection, game: i64, user: &str) -> Result<Option<FollowRow>> {
    Ok(c.prepare_cached(&format!(
        "SELECT {FOLLOW_COLUMNS} FROM followers WHERE game_id = ?1 AND user_id = ?2"
    ))?
    .query_row(params![game, user], follow_row)
    .optional()?)
}

/// A limit as SQLite takes it.
fn limit_of(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

impl FollowStore for SqliteStore {
    fn follow(&self, game: i64, user: &str, notify: &str, now: i64) -> Result<(FollowRow, bool)> {
        check_notify(notify)?;
        self.write(|tx| {
            // The game as it stands: what a new follower has been told.
            let state: Option<(u32, bool)> = tx
                .query_row(
                    "SELECT ply, status <> 'active' FROM games WHERE id = ?1",
                    [game],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            let Some((ply, over)) = state else {
                return Err(StoreError::NotFound);
            };
            let known: Option<String> = tx
                .query_row("SELECT id FROM users WHERE id = ?1", [user], |r| r.get(0))
                .optional()?;
            if known.is_none() {
                return Err(StoreError::NotFound);
            }
            let new = match get_follow(tx, game, user)? {
                Some(f) if f.notify == notify => return Ok((f, false)),
                Some(_) => {
                    tx.execute(
                        "UPDATE followers SET notify = ?3, seen_ply = ?4, seen_over = ?5,
                            joined_thread = NULL
                         WHERE game_id = ?1 AND user_id = ?2",
                        params![game, user, notify, ply, over],
                    )?;
                    false
                }
                None => {
                    tx.execute(
                        "INSERT INTO followers (game_id, user_id, notify, seen_ply, seen_over,
                            created_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        params![game, user, notify, ply, over, now],
                    )?;
                    true
                }
            };
            let row = get_follow(tx, game, user)?.ok_or(StoreError::NotFound)?;
            Ok((row, new))
        })
    }

    fn unfollow(&self, game: i64, user: &str) -> Result<Option<FollowRow>> {
        self.write(|tx| {
            let row = get_follow(tx, game, user)?;
            if row.is_some() {
                tx.execute(
                    "DELETE FROM followers WHERE game_id = ?1 AND user_id = ?2",
                    params![game, user],
                )?;
            }
            Ok(row)
        })
    }

    fn follows_of(&self, user: &str) -> Result<Vec<FollowRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {FOLLOW_COLUMNS} FROM followers WHERE user_id = ?1 ORDER BY game_id"
            ))?;
            let rows = st.query_map([user], follow_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn followers_of(&self, game: i64) -> Result<Vec<FollowRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {FOLLOW_COLUMNS} FROM followers WHERE game_id = ?1 ORDER BY user_id"
            ))?;
            let rows = st.query_map([game], follow_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn pings_due(&self, game: Option<i64>, limit: usize) -> Result<Vec<FollowRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {} FROM followers f JOIN games g ON g.id = f.game_id
                 WHERE f.notify = 'ping' AND (?1 IS NULL OR f.game_id = ?1)
                   AND (f.seen_ply <> g.ply OR f.seen_over <> (g.status <> 'active'))
                 ORDER BY f.game_id, f.user_id LIMIT ?2",
                qualified(FOLLOW_COLUMNS, "f")
            ))?;
            let rows = st.query_map(params![game, limit_of(limit)], follow_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn mark_seen(
        &self,
        game: i64,
        user: &str,
        seen: (u32, bool),
        to: (u32, bool),
        notice: Option<&NewNotice>,
        now: i64,
    ) -> Result<bool> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE followers SET seen_ply = ?5, seen_over = ?6
                 WHERE game_id = ?1 AND user_id = ?2 AND notify = 'ping'
                   AND seen_ply = ?3 AND seen_over = ?4",
                params![game, user, seen.0, seen.1, to.0, to.1],
            )?;
            if n == 1 {
                if let Some(notice) = notice {
                    queue(tx, &self.holder, std::slice::from_ref(notice), now)?;
                }
            }
            Ok(n == 1)
        })
    }

    fn thread_joins_due(&self, game: Option<i64>, limit: usize) -> Result<Vec<ThreadJoin>> {
        self.with(|c| {
            let mut st = c.prepare_cached(
                "SELECT f.game_id, f.user_id, g.thread FROM followers f
                 JOIN games g ON g.id = f.game_id
                 WHERE f.notify = 'thread' AND (?1 IS NULL OR f.game_id = ?1)
                   AND g.status = 'active' AND g.thread IS NOT NULL
                   AND (f.joined_thread IS NULL OR f.joined_thread <> g.thread)
                 ORDER BY f.game_id, f.user_id LIMIT ?2",
            )?;
            let rows = st.query_map(params![game, limit_of(limit)], |r| {
                Ok(ThreadJoin {
                    game: r.get(0)?,
                    user: r.get(1)?,
                    thread: r.get(2)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn thread_joined(&self, game: i64, user: &str, thread: &str) -> Result<()> {
        self.write(|tx| {
            tx.execute(
                "UPDATE followers SET joined_thread = ?3
                 WHERE game_id = ?1 AND user_id = ?2 AND notify = 'thread'",
                params![game, user, thread],
            )?;
            Ok(())
        })
    }

    fn digests_at(&self, now: i64, rolling_before: i64, limit: usize) -> Result<Vec<UserRow>> {
        self.with(|c| {
            // Two queries: the planned ones by their index, then the older rule's.
            let mut out = Vec::new();
            let mut st = c.prepare_cached(&format!(
                "SELECT {USER_COLUMNS} FROM users WHERE next_digest_at <= ?1
                 ORDER BY next_digest_at, id LIMIT ?2"
            ))?;
            for r in st.query_map(params![now, limit_of(limit)], user_row)? {
                out.push(r?);
            }
            let mut st = c.prepare_cached(&format!(
                "SELECT {USER_COLUMNS} FROM users
                 WHERE next_digest_at IS NULL AND notify = 'digest'
                   AND (last_digest_at IS NULL OR last_digest_at <= ?1)
                 ORDER BY last_digest_at, id LIMIT ?2"
            ))?;
            for r in st.query_map(params![rolling_before, limit_of(limit)], user_row)? {
                out.push(r?);
            }
            out.sort_by_key(|u| {
                (
                    u.next_digest_at.or(u.last_digest_at).unwrap_or(0),
                    u.id.clone(),
                )
            });
            out.truncate(limit);
            Ok(out)
        })
    }

    fn record_daily(
        &self,
        user: &str,
        planned: Option<i64>,
        next: Option<i64>,
        notice: Option<(&NewNotice, &[Told])>,
        now: i64,
    ) -> Result<bool> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE users SET next_digest_at = ?3,
                    last_digest_at = CASE WHEN ?4 THEN ?5 ELSE last_digest_at END
                 WHERE id = ?1 AND next_digest_at IS ?2",
                params![user, planned, next, notice.is_some(), now],
            )?;
            if n == 1 {
                if let Some((notice, told)) = notice {
                    queue(tx, &self.holder, std::slice::from_ref(notice), now)?;
                    let mut st = tx.prepare_cached(
                        "UPDATE followers SET seen_ply = ?3, seen_over = ?4
                         WHERE game_id = ?1 AND user_id = ?2 AND notify = 'digest'",
                    )?;
                    for t in told {
                        st.execute(params![t.game, user, t.ply, t.over])?;
                    }
                }
            }
            Ok(n == 1)
        })
    }

    fn set_digest(
        &self,
        user: &str,
        hour: Option<u8>,
        timezone: Option<&str>,
        next: Option<i64>,
    ) -> Result<()> {
        check_hour(hour)?;
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE users SET digest_hour = ?2, timezone = ?3, next_digest_at = ?4
                 WHERE id = ?1",
                params![user, hour, timezone, next],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            Ok(())
        })
    }
}
