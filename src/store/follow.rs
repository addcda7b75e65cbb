//! The rows of followers and of daily digests (issue 23): who follows which game and how they
//! are told of it, what a follower pinged at each move was last told, which thread a follower
//! was added to, and when each player's next digest is due. As everywhere in the store, rows
//! and not rules: the core decides how a follower is told, composes the notices, and computes
//! when a digest is due in the player's zone; the store keeps the rows, each change one
//! transaction guarded by what it was computed from (a follower's last told state, a digest's
//! planned time), so that two processes doing the same work store it once.

use super::{NewNotice, Result, UserRow};

/// A follower of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FollowRow {
    pub game: i64,
    pub user: String,
    /// How they are told: `thread` (a member of the game's thread), `digest` (in their daily
    /// digest) or `ping` (a mention at each move).
    pub notify: String,
    /// What a `ping` or `digest` follower was last told: the game's ply, and whether it was
    /// over. Set to the game's when they follow (or change how they are told).
    pub seen_ply: u32,
    pub seen_over: bool,
    /// The thread a `thread` follower was added to (the game's thread at that time).
    pub joined_thread: Option<String>,
    pub created_at: i64,
}

/// What a digest told a follower of a game: the game's ply then, and whether it was over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Told {
    pub game: i64,
    pub ply: u32,
    pub over: bool,
}

/// A `thread` follower to add to their game's thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadJoin {
    pub game: i64,
    pub user: String,
    pub thread: String,
}

pub trait FollowStore: Send + Sync {
    /// `user` follows `game`, told by `notify` (`thread`, `digest` or `ping`): a new follower,
    /// or one who changes how they are told (what they were told is then the game as it is
    /// now). `true` if they did not follow it before. `NotFound` if the game or the user does
    /// not exist, `Invalid` for another `notify`.
    fn follow(&self, game: i64, user: &str, notify: &str, now: i64) -> Result<(FollowRow, bool)>;
    /// `user` no longer follows `game`: their row as it was, if they followed it.
    fn unfollow(&self, game: i64, user: &str) -> Result<Option<FollowRow>>;
    /// The games `user` follows, by game id.
    fn follows_of(&self, user: &str) -> Result<Vec<FollowRow>>;
    /// The followers of `game`, by user id.
    fn followers_of(&self, game: i64) -> Result<Vec<FollowRow>>;
    /// `ping` followers not yet told of their game as it stands (its ply, or its end, differs
    /// from what they were told), of `game` or (`None`) of any game; at most `limit`, by game
    /// and user.
    fn pings_due(&self, game: Option<i64>, limit: usize) -> Result<Vec<FollowRow>>;
    /// Records that a `ping` follower was told of `game` as `to` (ply, over) and queues
    /// `notice` (if any), in one transaction, if what they were told is still `seen` (and they
    /// still follow by ping): `false` otherwise (another process told them, or they changed).
    fn mark_seen(
        &self,
        game: i64,
        user: &str,
        seen: (u32, bool),
        to: (u32, bool),
        notice: Option<&NewNotice>,
        now: i64,
    ) -> Result<bool>;
    /// `thread` followers of active games that have a thread they were not added to, of `game`
    /// or (`None`) of any game; at most `limit`.
    fn thread_joins_due(&self, game: Option<i64>, limit: usize) -> Result<Vec<ThreadJoin>>;
    /// Records that a `thread` follower was added to `thread` (nothing if they unfollowed).
    fn thread_joined(&self, game: i64, user: &str, thread: &str) -> Result<()>;
    /// Users whose daily digest is due at `now`: its planned time (`next_digest_at`) has come,
    /// or, with none planned, they are on `notify=digest` and had no digest since
    /// `rolling_before` (the rule from before digests had an hour: one a day). At most `limit`,
    /// the longest due first.
    fn digests_at(&self, now: i64, rolling_before: i64, limit: usize) -> Result<Vec<UserRow>>;
    /// Records a user's digest, in one transaction, if their planned digest is still `planned`
    /// (as read with their row): the next is planned at `next` (`None`: none), and with a
    /// `notice` the digest is recorded sent `now` (`last_digest_at`) and queued, and what it
    /// told of the games they follow by digest is recorded (`told`: game, ply, over). `false`
    /// if the plan changed meanwhile (another process sent it, or they changed their
    /// settings): nothing is written.
    fn record_daily(
        &self,
        user: &str,
        planned: Option<i64>,
        next: Option<i64>,
        notice: Option<(&NewNotice, &[Told])>,
        now: i64,
    ) -> Result<bool>;
    /// Sets a user's digest hour and time zone (IANA name), and plans their next digest at
    /// `next` (`None`: none). `NotFound` for an unknown user; `Invalid` for an hour past 23.
    fn set_digest(
        &self,
        user: &str,
        hour: Option<u8>,
        timezone: Option<&str>,
        next: Option<i64>,
    ) -> Result<()>;
}

/// How a follower may be told: the values of `followers.notify`.
pub(super) const FOLLOW_NOTIFY: &[&str] = &["thread", "digest", "ping"];

/// `Invalid` unless `notify` is one of [`FOLLOW_NOTIFY`].
pub(super) fn check_notify(notify: &str) -> Result<()> {
    if FOLLOW_NOTIFY.contains(&notify) {
        Ok(())
    } else {
        Err(super::StoreError::Invalid(format!(
            "a follower told by {notify:?}"
        )))
    }
}

/// `Invalid` for a digest hour past 23.
pub(super) fn check_hour(hour: Option<u8>) -> Result<()> {
    match hour {
        Some(h) if h > 23 => Err(super::StoreError::Invalid(format!("digest hour {h}"))),
        _ => Ok(()),
    }
}
