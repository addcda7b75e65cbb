//! Followers and daily digests in PostgreSQL (see `store::follow`). Several processes may do
//! the same work at once (each sweep finds the same follower to ping, the same digest due):
//! each guarded change locks its row and re-checks its guard, so the second finds it changed
//! and stores nothing; a digest's row is taken `FOR UPDATE SKIP LOCKED`, as the other digests
//! are, so a process finding it held leaves it to the holder.

use ::postgres::Row;

use super::{all, count, queue, user_row, PgStore, Sql, USER_COLUMNS};
use crate::store::follow::*;
use crate::store::{NewNotice, Result, StoreError, UserRow};

fn follow_row(r: &Row) -> Result<FollowRow> {
    Ok(FollowRow {
        game: r.try_get(0)?,
        user: r.try_get(1)?,
        notify: r.try_get(2)?,
        seen_ply: count(r, 3)?,
        seen_over: r.try_get(4)?,
        joined_thread: r.try_get(5)?,
        created_at: r.try_get(6)?,
    })
}

/// `columns` (`a, b`) of table alias `t` (`t.a, t.b`).
fn of(t: &str, columns: &str) -> String {
    columns
        .split(", ")
        .map(|c| format!("{t}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn get_follow(c: &mut impl Sql, game: i64, user: &str) -> Result<Option<FollowRow>> {
    c.query_opt(
        &format!("SELECT {FOLLOW_COLUMNS} FROM followers WHERE game_id = $1 AND user_id = $2"),
        &[&game, &user],
    )?
    .as_ref()
    .map(follow_row)
    .transpose()
}

/// A limit as PostgreSQL takes it.
fn limit_of(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}

impl FollowStore for PgStore {
    fn follow(&self, game: i64, user: &str, notify: &str, now: i64) -> Result<(FollowRow, bool)> {
        check_notify(notify)?;
        self.write(|tx| {
            // The game as it stands (its row locked against a move meanwhile): what a new
            // follower has been told.
            let Some(g) = tx.query_opt(
                "SELECT ply, status <> 'active' FROM games WHERE id = $1 FOR SHARE",
                &[&game],
            )?
            else {
                return Err(StoreError::NotFound);
            };
            let (ply, over): (i64, bool) = (g.try_get(0)?, g.try_get(1)?);
            if tx
                .query_opt("SELECT 1 FROM users WHERE id = $1", &[&user])?
                .is_none()
            {
                return Err(StoreError::NotFound);
            }
            // A follower's row, made at once if there is none (two processes following for
            // the same user: the second waits for the first, then finds its row).
            let inserted = tx.execute(
                "INSERT INTO followers (game_id, user_id, notify, seen_ply, seen_over, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (game_id, user_id) DO NOTHING",
                &[&game, &user, &notify, &ply, &over, &now],
            )? == 1;
            if !inserted {
                tx.execute(
                    "UPDATE followers SET notify = $3, seen_ply = $4, seen_over = $5,
                        joined_thread = NULL
                     WHERE game_id = $1 AND user_id = $2 AND notify <> $3",
                    &[&game, &user, &notify, &ply, &over],
                )?;
            }
            let row = get_follow(tx, game, user)?.ok_or(StoreError::NotFound)?;
            Ok((row, inserted))
        })
    }

    fn unfollow(&self, game: i64, user: &str) -> Result<Option<FollowRow>> {
        self.write(|tx| {
            tx.query_opt(
                &format!(
                    "DELETE FROM followers WHERE game_id = $1 AND user_id = $2
                     RETURNING {FOLLOW_COLUMNS}"
                ),
                &[&game, &user],
            )?
            .as_ref()
            .map(follow_row)
            .transpose()
        })
    }

    fn follows_of(&self, user: &str) -> Result<Vec<FollowRow>> {
        all(
            &mut *self.client()?,
            &format!("SELECT {FOLLOW_COLUMNS} FROM followers WHERE user_id = $1 ORDER BY game_id"),
            &[&user],
            follow_row,
        )
    }

    fn followers_of(&self, game: i64) -> Result<Vec<FollowRow>> {
        all(
            &mut *self.client()?,
            &format!("SELECT {FOLLOW_COLUMNS} FROM followers WHERE game_id = $1 ORDER BY user_id"),
            &[&game],
            follow_row,
        )
    }

    fn pings_due(&self, game: Option<i64>, limit: usize) -> Result<Vec<FollowRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {} FROM followers f JOIN games g ON g.id = f.game_id
                 WHERE f.notify = 'ping' AND ($1::BIGINT IS NULL OR f.game_id = $1)
                   AND (f.seen_ply <> g.ply OR f.seen_over <> (g.status <> 'active'))
                 ORDER BY f.game_id, f.user_id LIMIT $2",
                of("f", FOLLOW_COLUMNS)
            ),
            &[&game, &limit_of(limit)],
            follow_row,
        )
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
        let (seen_ply, to_ply) = (i64::from(seen.0), i64::from(to.0));
        self.write(|tx| {
            // A second process waits for the first's commit, then finds the guard changed.
            let n = tx.execute(
                "UPDATE followers SET seen_ply = $5, seen_over = $6
                 WHERE game_id = $1 AND user_id = $2 AND notify = 'ping'
                   AND seen_ply = $3 AND seen_over = $4",
                &[&game, &user, &seen_ply, &seen.1, &to_ply, &to.1],
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
        all(
            &mut *self.client()?,
            "SELECT f.game_id, f.user_id, g.thread FROM followers f
             JOIN games g ON g.id = f.game_id
             WHERE f.notify = 'thread' AND ($1::BIGINT IS NULL OR f.game_id = $1)
               AND g.status = 'active' AND g.thread IS NOT NULL
               AND (f.joined_thread IS NULL OR f.joined_thread <> g.thread)
             ORDER BY f.game_id, f.user_id LIMIT $2",
            &[&game, &limit_of(limit)],
            |r| {
                Ok(ThreadJoin {
                    game: r.try_get(0)?,
                    user: r.try_get(1)?,
                    thread: r.try_get(2)?,
                })
            },
        )
    }

    fn thread_joined(&self, game: i64, user: &str, thread: &str) -> Result<()> {
        self.client()?.execute(
            "UPDATE followers SET joined_thread = $3
             WHERE game_id = $1 AND user_id = $2 AND notify = 'thread'",
            &[&game, &user, &thread],
        )?;
        Ok(())
    }

    fn digests_at(&self, now: i64, rolling_before: i64, limit: usize) -> Result<Vec<UserRow>> {
        let mut c = self.client()?;
        // Two queries: the planned ones by their index, then the older rule's.
        let mut out = all(
            &mut *c,
            &format!(
                "SELECT {USER_COLUMNS} FROM users WHERE next_digest_at <= $1
                 ORDER BY next_digest_at, id LIMIT $2"
            ),
            &[&now, &limit_of(limit)],
            user_row,
        )?;
        out.extend(all(
            &mut *c,
            &format!(
                "SELECT {USER_COLUMNS} FROM users
                 WHERE next_digest_at IS NULL AND notify = 'digest'
                   AND (last_digest_at IS NULL OR last_digest_at <= $1)
                 ORDER BY last_digest_at NULLS FIRST, id LIMIT $2"
            ),
            &[&rolling_before, &limit_of(limit)],
            user_row,
        )?);
        out.sort_by_key(|u| {
            (
                u.next_digest_at.or(u.last_digest_at).unwrap_or(0),
                u.id.clone(),
            )
        });
        out.truncate(limit);
        Ok(out)
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
                "UPDATE users SET next_digest_at = $3,
                    last_digest_at = CASE WHEN $4 THEN $5 ELSE last_digest_at END
                 WHERE id = (SELECT id FROM users
                    WHERE id = $1 AND next_digest_at IS NOT DISTINCT FROM $2
                    FOR UPDATE SKIP LOCKED)",
                &[&user, &planned, &next, &notice.is_some(), &now],
            )?;
            if n == 1 {
                if let Some((notice, told)) = notice {
                    queue(tx, &self.holder, std::slice::from_ref(notice), now)?;
                    for t in told {
                        tx.execute(
                            "UPDATE followers SET seen_ply = $3, seen_over = $4
                             WHERE game_id = $1 AND user_id = $2 AND notify = 'digest'",
                            &[&t.game, &user, &i64::from(t.ply), &t.over],
                        )?;
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
        let hour = hour.map(i64::from);
        let n = self.client()?.execute(
            "UPDATE users SET digest_hour = $2, timezone = $3, next_digest_at = $4
             WHERE id = $1",
            &[&user, &hour, &timezone, &next],
        )?;
        if n == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }
}
