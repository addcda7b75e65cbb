//! Followers and daily digests (see `store::follow`), for any [`Backend`]. Several processes may
//! do the same work at once on PostgreSQL (each sweep finds the same follower to ping, the same
//! digest due): each guarded change locks its row and re-checks its guard, so the second finds
//! it changed and stores nothing; a digest's row is taken `FOR UPDATE SKIP LOCKED`, as the other
//! claims of the sweep are, so a process finding it held leaves it to the holder. SQLite lets
//! one writer in at a time, so there each guard alone makes its change once.

use super::rows::*;
use super::stores::queue;
use super::{args, Backend, Exec};
use crate::store::follow::*;
use crate::store::{NewNotice, Result, StoreError, UserRow};

fn get_follow(c: &mut dyn Exec, game: i64, user: &str) -> Result<Option<FollowRow>> {
    c.one(
        &format!("SELECT {FOLLOW_COLUMNS} FROM followers WHERE game_id = $1 AND user_id = $2"),
        args![game, user],
        follow_row,
    )
}

impl<B: Backend> FollowStore for B {
    fn follow(&self, game: i64, user: &str, notify: &str, now: i64) -> Result<(FollowRow, bool)> {
        check_notify(notify)?;
        self.write(|c| {
            // The game as it stands (its row locked against a move meanwhile): what a new
            // follower has been told.
            let Some((ply, over)) = c.one(
                "SELECT ply, status <> 'active' FROM games WHERE id = $1 {for share}",
                args![game],
                |r| Ok((r.get::<u32>(0)?, r.get::<bool>(1)?)),
            )?
            else {
                return Err(StoreError::NotFound);
            };
            if c.query("SELECT 1 FROM users WHERE id = $1", args![user])?
                .is_empty()
            {
                return Err(StoreError::NotFound);
            }
            // A follower's row, made at once if there is none (two processes following for
            // the same user: the second waits for the first, then finds its row).
            let inserted = c.execute(
                "INSERT INTO followers (game_id, user_id, notify, seen_ply, seen_over, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (game_id, user_id) DO NOTHING",
                args![game, user, notify, ply, over, now],
            )? == 1;
            if !inserted {
                // Told another way: what they were told is the game as it is now.
                c.execute(
                    "UPDATE followers SET notify = $3, seen_ply = $4, seen_over = $5,
                        joined_thread = NULL
                     WHERE game_id = $1 AND user_id = $2 AND notify <> $3",
                    args![game, user, notify, ply, over],
                )?;
            }
            let row = get_follow(c, game, user)?.ok_or(StoreError::NotFound)?;
            Ok((row, inserted))
        })
    }

    fn unfollow(&self, game: i64, user: &str) -> Result<Option<FollowRow>> {
        self.write(|c| {
            c.one(
                &format!(
                    "DELETE FROM followers WHERE game_id = $1 AND user_id = $2
                     RETURNING {FOLLOW_COLUMNS}"
                ),
                args![game, user],
                follow_row,
            )
        })
    }

    fn follows_of(&self, user: &str) -> Result<Vec<FollowRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {FOLLOW_COLUMNS} FROM followers WHERE user_id = $1 ORDER BY game_id"
                ),
                args![user],
                follow_row,
            )
        })
    }

    fn followers_of(&self, game: i64) -> Result<Vec<FollowRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {FOLLOW_COLUMNS} FROM followers WHERE game_id = $1 ORDER BY user_id"
                ),
                args![game],
                follow_row,
            )
        })
    }

    fn pings_due(&self, game: Option<i64>, limit: usize) -> Result<Vec<FollowRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {} FROM followers f JOIN games g ON g.id = f.game_id
                     WHERE f.notify = 'ping' AND (CAST($1 AS BIGINT) IS NULL OR f.game_id = $1)
                       AND (f.seen_ply <> g.ply OR f.seen_over <> (g.status <> 'active'))
                     ORDER BY f.game_id, f.user_id LIMIT $2",
                    qualified(FOLLOW_COLUMNS, "f")
                ),
                args![game, limit],
                follow_row,
            )
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
        self.write(|c| {
            // On PostgreSQL a second process waits for the first's commit, then finds the
            // guard changed.
            let n = c.execute(
                "UPDATE followers SET seen_ply = $5, seen_over = $6
                 WHERE game_id = $1 AND user_id = $2 AND notify = 'ping'
                   AND seen_ply = $3 AND seen_over = $4",
                args![game, user, seen.0, seen.1, to.0, to.1],
            )?;
            if n == 1 {
                if let Some(notice) = notice {
                    queue(c, self.holder(), std::slice::from_ref(notice), now)?;
                }
            }
            Ok(n == 1)
        })
    }

    fn thread_joins_due(&self, game: Option<i64>, limit: usize) -> Result<Vec<ThreadJoin>> {
        self.read(|c| {
            c.all(
                "SELECT f.game_id, f.user_id, g.thread FROM followers f
                 JOIN games g ON g.id = f.game_id
                 WHERE f.notify = 'thread' AND (CAST($1 AS BIGINT) IS NULL OR f.game_id = $1)
                   AND g.status = 'active' AND g.thread IS NOT NULL
                   AND (f.joined_thread IS NULL OR f.joined_thread <> g.thread)
                 ORDER BY f.game_id, f.user_id LIMIT $2",
                args![game, limit],
                |r| {
                    Ok(ThreadJoin {
                        game: r.get(0)?,
                        user: r.get(1)?,
                        thread: r.get(2)?,
                    })
                },
            )
        })
    }

    fn thread_joined(&self, game: i64, user: &str, thread: &str) -> Result<()> {
        self.single(|c| {
            c.execute(
                "UPDATE followers SET joined_thread = $3
                 WHERE game_id = $1 AND user_id = $2 AND notify = 'thread'",
                args![game, user, thread],
            )?;
            Ok(())
        })
    }

    fn digests_at(&self, now: i64, rolling_before: i64, limit: usize) -> Result<Vec<UserRow>> {
        self.read(|c| {
            // Two queries: the planned ones by their index, then the older rule's.
            let mut out = c.all(
                &format!(
                    "SELECT {USER_COLUMNS} FROM users WHERE next_digest_at <= $1
                     ORDER BY next_digest_at, id LIMIT $2"
                ),
                args![now, limit],
                user_row,
            )?;
            out.extend(c.all(
                &format!(
                    "SELECT {USER_COLUMNS} FROM users
                     WHERE next_digest_at IS NULL AND notify = 'digest'
                       AND (last_digest_at IS NULL OR last_digest_at <= $1)
                     ORDER BY last_digest_at NULLS FIRST, id LIMIT $2"
                ),
                args![rolling_before, limit],
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
        self.write(|c| {
            let n = c.execute(
                "UPDATE users SET next_digest_at = $3,
                    last_digest_at = CASE WHEN $4 THEN $5 ELSE last_digest_at END
                 WHERE id = (SELECT id FROM users
                    WHERE id = $1 AND next_digest_at IS NOT DISTINCT FROM $2
                    {for update skip locked})",
                args![user, planned, next, notice.is_some(), now],
            )?;
            if n == 1 {
                if let Some((notice, told)) = notice {
                    queue(c, self.holder(), std::slice::from_ref(notice), now)?;
                    for t in told {
                        c.execute(
                            "UPDATE followers SET seen_ply = $3, seen_over = $4
                             WHERE game_id = $1 AND user_id = $2 AND notify = 'digest'",
                            args![t.game, user, t.ply, t.over],
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
        self.single(|c| {
            let n = c.execute(
                "UPDATE users SET digest_hour = $2, timezone = $3, next_digest_at = $4
                 WHERE id = $1",
                args![user, hour, timezone, next],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            Ok(())
        })
    }
}
