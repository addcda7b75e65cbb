//! Followers and the daily list (issue 23).
//!
//! **Following.** Anyone in a server may follow a game of that server (`follow 12`; not their
//! own game, whose every move they are told of already, nor one that is over). How they are
//! told is theirs to choose (`follow 12 digest`):
//! - `thread` (the default): they are made a member of the game's thread, where its
//!   announcements are posted, so the thread shows in their list without a ping. The core keeps
//!   which thread each follower was added to: the transport adds those not yet added (at once,
//!   and again from the sweep if Discord failed), and a game that gets a new thread (its old
//!   one was deleted) gets its followers added again. A game played in its channel (no thread)
//!   is simply read there.
//! - `digest`: the game's moves and its end are in their daily digest, never a ping.
//! - `ping`: a mention in the game's thread at each move and at the end. Each follower's row
//!   says what they were last told (the game's ply, whether it was over); after every command
//!   that changes a game, and in every sweep (for what a crash or another process left), the
//!   followers told of less are told, and their row moved on in the same transaction: once.
//!
//! `follow` alone lists what one follows; `unfollow 12` stops (and takes a thread follower out
//! of the thread they were added to). `games @x` lists what a player is playing, for anyone in
//! the server.
//!
//! **The daily list.** A player's `games` and their daily digest list the games where it is
//! their move, soonest deadline first, with the time left, the opponent and a link to the
//! game's thread (on Discord; the game's number elsewhere); then the games where the opponent
//! is to move; then the open challenges to them. The digest adds the moves and endings of the
//! games they follow by digest since they were last told of them: each follower's row keeps
//! what their last digest told (the game's ply, whether it was over), recorded with it.
//!
//! **When the digest comes.** To players on `notify=digest` and to digest followers. With a
//! `digest_hour` (0-23) it comes at that hour of their zone (`timezone`, UTC by default), at
//! most once a local day: its time is planned ahead (`next_digest_at`), and sending it plans the
//! next, in one guarded transaction, so restarts and several processes send it once. A missed
//! hour (the bot was down) sends it when the bot is back; a day with nothing to say sends
//! nothing. Without an hour, the rule from before: a digest at most once in 24 hours, as soon
//! as there is something to say (looked at again hourly while there is not).

use tracing::{info, warn};

use super::*;
use crate::engine::notation::written;
use crate::i18n::{refusal, words, Lang};
use crate::store::{GameRow, NewNotice, ThreadJoin, Told, UserRow};
use crate::{msg, t};

/// How a follower is told of a game (`follow 12 digest`; stored by its word).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FollowHow {
    /// A member of the game's thread.
    Thread,
    /// In the daily digest.
    Digest,
    /// A mention at each move.
    Ping,
}

impl FollowHow {
    pub const ALL: [FollowHow; 3] = [FollowHow::Thread, FollowHow::Digest, FollowHow::Ping];

    /// Its word: `thread`, `digest`, `ping`.
    pub fn as_str(self) -> &'static str {
        match self {
            FollowHow::Thread => "thread",
            FollowHow::Digest => "digest",
            FollowHow::Ping => "ping",
        }
    }

    /// From its word (any case).
    pub fn parse(s: &str) -> Option<FollowHow> {
        FollowHow::ALL
            .into_iter()
            .find(|h| h.as_str().eq_ignore_ascii_case(s.trim()))
    }

    /// A follower's, as stored (an unknown word is the store's error, not a default).
    fn of(f: &crate::store::FollowRow) -> Result<FollowHow, CoreError> {
        FollowHow::parse(&f.notify).ok_or_else(|| {
            CoreError::Internal(format!(
                "game {}: follower {} told by {:?}",
                f.game, f.user, f.notify
            ))
        })
    }
}

/// The words of [`FollowHow`], as the commands offer them.
pub const FOLLOW_NOTIFY: &[&str] = &["thread", "digest", "ping"];

/// At most this many moves are listed in one notice (the last ones; `…` before them).
const MOVES_SHOWN: usize = 12;

/// The digests and follower pings one sweep looks at, at most.
const BATCH: usize = 1000;

/// How long a digest with nothing to say waits before it is looked at again (the rule
/// without an hour: as soon as there is something to say, within this).
const RECHECK: i64 = 3600;

/// A digest hour in words: `8 (08:00 in your time zone)`, or the default.
pub(crate) fn digest_hour_words(lang: Lang, hour: Option<u8>) -> String {
    match hour {
        Some(h) => t!(
            lang,
            "follow-digest-hour",
            hour = h,
            clock = format!("{h:02}:00")
        ),
        None => t!(lang, "follow-digest-hour-none"),
    }
}

/// The time left before a deadline, in words: `2d 23h left`, `5h 12m left`, `overdue` (the
/// span as the clocks write it, `timing::span_text`). The seconds are counted up to a whole
/// minute, as the deadline beside it is written to the minute: a game moved a few seconds ago
/// with 3 days per move still has `3d left` (by the minute its deadline names), and the last
/// seconds before a deadline are `1m left`, never `0m left`.
pub(crate) fn time_left(lang: Lang, secs: i64) -> String {
    if secs <= 0 {
        return t!(lang, "follow-overdue");
    }
    let minutes_up = (secs + 59) / 60 * 60;
    t!(
        lang,
        "follow-left",
        span = super::timing::span_text(lang, minutes_up)
    )
}

impl Service {
    /// `follow GAME [thread|digest|ping]`.
    pub(crate) fn follow(
        &self,
        user: &User,
        place: &Place,
        game: i64,
        notify: Option<FollowHow>,
    ) -> Result<Reply, CoreError> {
        let lang = user.voice.lang;
        let Some(guild) = place.guild.as_deref() else {
            return user_err(msg!("follow-in-server"));
        };
        let row = match self.store.game(game)? {
            Some(r) if r.guild.as_deref() == Some(guild) => r,
            _ => return user_err(msg!("follow-not-here", id = game)),
        };
        if row.players.iter().any(|p| *p == user.id) {
            return user_err(msg!("follow-own-game", id = game));
        }
        if row.status != GameStatus::Active {
            return user_err(msg!("follow-over", id = game));
        }
        let before = self
            .store
            .follows_of(&user.id)?
            .into_iter()
            .find(|f| f.game == game);
        let old = before.as_ref().map(FollowHow::of).transpose()?;
        let how = notify.or(old).unwrap_or(FollowHow::Thread);
        let (_, new) = self
            .store
            .follow(game, &user.id, how.as_str(), self.now())?;
        // A digest follower's digest is planned if none was.
        if how == FollowHow::Digest {
            if let Some(me) = self.store.user(&user.id)? {
                if me.next_digest_at.is_none() {
                    let next = self.planned_digest(&me, self.now())?;
                    self.store
                        .set_digest(&me.id, me.digest_hour, me.timezone.as_deref(), next)?;
                }
            }
        }
        let words = how_words(lang, how);
        let what = self.game_words(&row, Some(guild), lang);
        let text = match (new, old) {
            (true, _) => t!(lang, "follow-started", game = what, how = words, id = game),
            (false, Some(old)) if old != how => {
                t!(lang, "follow-changed", game = what, how = words, id = game)
            }
            _ => t!(lang, "follow-already", game = what, how = words, id = game),
        };
        info!(game, user = %user.id, notify = how.as_str(), "following");
        Ok(Reply {
            text,
            follow: (how == FollowHow::Thread).then_some(FollowChange::Followed(game)),
            ..Reply::default()
        })
    }

    /// `unfollow GAME`: wherever it is sent (it is the sender's own business).
    pub(crate) fn unfollow(
        &self,
        user: &User,
        _place: &Place,
        game: i64,
    ) -> Result<Reply, CoreError> {
        let lang = user.voice.lang;
        let Some(f) = self.store.unfollow(game, &user.id)? else {
            return user_err(msg!("follow-not-following", id = game));
        };
        let left = match (FollowHow::of(&f)?, f.joined_thread) {
            (FollowHow::Thread, Some(thread)) => Some(FollowChange::Unfollowed { game, thread }),
            _ => None,
        };
        Ok(Reply {
            text: t!(lang, "follow-stopped", id = game),
            follow: left,
            ..Reply::default()
        })
    }

    /// `follow` alone: the games the sender follows (in a server, that server's).
    pub(crate) fn follows(&self, user: &User, place: &Place) -> Result<Reply, CoreError> {
        let lang = user.voice.lang;
        let mut lines = Vec::new();
        for f in self.store.follows_of(&user.id)? {
            let Some(row) = self.store.game(f.game)? else {
                continue;
            };
            if place.guild.is_some() && row.guild != place.guild {
                continue;
            }
            let names = row.guild.as_deref();
            let state = if row.status == GameStatus::Active {
                let to_move = row.to_move.clone().unwrap_or_default();
                t!(
                    lang,
                    "follow-list-to-move",
                    name = self.shown_name(&to_move, names)
                )
            } else {
                t!(lang, "follow-list-over")
            };
            lines.push(t!(
                lang,
                "follow-list-line",
                game = self.game_words(&row, names, lang),
                how = how_words(lang, FollowHow::of(&f)?),
                state = state,
                link = self.link(&row)
            ));
        }
        if lines.is_empty() {
            return Ok(Reply::text(t!(lang, "follow-list-none")));
        }
        Ok(Reply::text(format!(
            "{}\n{}",
            t!(lang, "follow-list-head"),
            lines.join("\n")
        )))
    }

    /// `#12 alice vs bob (Shogi)`, the names as shown in `names`' server.
    fn game_words(&self, row: &GameRow, names: Option<&str>, lang: Lang) -> String {
        let variant = VariantId::parse(&row.variant)
            .map_or_else(|| row.variant.clone(), |v| words::variant(lang, v));
        t!(
            lang,
            "follow-game",
            id = row.id,
            first = self.shown_name(&row.players[0], names),
            second = self.shown_name(&row.players[1], names),
            variant = variant
        )
    }

    /// A link to where a game is played, for Discord (` <#thread>`, else its channel); empty
    /// elsewhere (the console names a game by its number, already in the line).
    pub(crate) fn link(&self, row: &GameRow) -> String {
        if !self.config.markdown {
            return String::new();
        }
        match row.thread.as_deref().or(row.channel.as_deref()) {
            Some(c) if !c.is_empty() && c.chars().all(|c| c.is_ascii_digit()) => {
                format!(" <#{c}>")
            }
            _ => String::new(),
        }
    }

    /// A line of the daily list about `row`, a game of `subject` (`me`: the reader is the
    /// subject), in `voice`, names as in `names`' server: whose move, the time left and the
    /// deadline, the opponent, the link. With the sort key: the subject's move first, then by
    /// deadline.
    pub(crate) fn daily_line(
        &self,
        row: &GameRow,
        subject: &str,
        me: bool,
        names: Option<&str>,
        voice: Voice,
    ) -> (bool, i64, String) {
        let lang = voice.lang;
        let side = if row.players[0] == subject { 0 } else { 1 };
        let to_move = row.to_move.clone().unwrap_or_default();
        let mine = to_move == subject;
        let deadline = row
            .deadline
            .map(|d| {
                t!(
                    lang,
                    "follow-deadline",
                    left = time_left(lang, d - self.now()),
                    time = voice.time(d)
                )
            })
            .unwrap_or_default();
        let turn = if mine && me {
            t!(lang, "views-your-move", deadline = deadline)
        } else {
            t!(
                lang,
                "views-their-move",
                name = self.shown_name(&to_move, names),
                deadline = deadline
            )
        };
        let variant = VariantId::parse(&row.variant)
            .map_or_else(|| row.variant.clone(), |v| words::variant(lang, v));
        let line = t!(
            lang,
            "views-game-line",
            id = row.id,
            variant = variant,
            opponent = self.shown_name(&row.players[1 - side], names),
            turn = turn
        ) + &self.link(row);
        (!mine, row.deadline.unwrap_or(i64::MAX), line)
    }

    /// The moves of a game from ply `from` to now, in `voice`'s notation, numbered: the last
    /// [`MOVES_SHOWN`] of them, `…` before them if there were more.
    fn moves_from(&self, g: &Loaded, from: usize, voice: Voice) -> String {
        let moves = g.game.moves();
        let first = g.game.start().side_to_move();
        let start = from.max(moves.len().saturating_sub(MOVES_SHOWN));
        let mut out: Vec<String> = Vec::new();
        if start > from {
            out.push("…".into());
        }
        for (i, &m) in moves.iter().enumerate().skip(start) {
            let before = g.game.position_at(i);
            let shown = written(
                &before,
                m,
                voice.notation,
                super::views::last_to(&g.game, i),
            );
            let number = match voice.lang {
                Lang::En => crate::engine::notation::move_number(i, first),
                Lang::Ja => t!(voice.lang, "play-ply", ply = (i + 1) as i64),
            };
            out.push(format!("{number} {shown}"));
        }
        out.join(" ")
    }

    /// How a followed game stands: who is to move and by when, or how it ended.
    fn game_state(&self, g: &Loaded, names: Option<&str>, voice: Voice) -> String {
        let lang = voice.lang;
        if g.row.status != GameStatus::Active {
            return match super::views::stored_outcome(&g.row) {
                Some(o) => self.outcome_sentence(g, o, names, lang),
                None => t!(lang, "follow-over-plain"),
            };
        }
        let to_move = g.to_move().to_string();
        let side = refusal::side(lang, g.variant(), g.game.position().side_to_move());
        let name = self.shown_name(&to_move, names);
        match g.row.deadline {
            Some(d) => t!(
                lang,
                "follow-to-move-by",
                name = name,
                side = side,
                time = voice.time(d)
            ),
            None => t!(lang, "follow-to-move", name = name, side = side),
        }
    }

    /// Tells the `ping` followers of `game` what changed since they were last told (module
    /// header). The notices made, held for the caller's transport. Best effort: a failure is
    /// logged, and the sweep tries again.
    pub(crate) fn follow_step(&self, game: i64) -> Vec<Notice> {
        match self.ping_followers(game) {
            Ok(n) => n,
            Err(e) => {
                warn!(game, "followers not told (the sweep tries again): {e}");
                Vec::new()
            }
        }
    }

    fn ping_followers(&self, game: i64) -> Result<Vec<Notice>, CoreError> {
        let due = self.store.pings_due(Some(game), BATCH)?;
        if due.is_empty() {
            return Ok(Vec::new());
        }
        let g = self.load(game)?;
        let over = g.row.status != GameStatus::Active;
        let names = g.row.guild.clone();
        let mut out = Vec::new();
        for f in due {
            let voice = self.voice_of(&f.user);
            let lang = voice.lang;
            let state = self.game_state(&g, names.as_deref(), voice);
            let what = self.game_words(&g.row, names.as_deref(), lang);
            let text = if g.row.ply < f.seen_ply {
                t!(
                    lang,
                    "follow-ping-takeback",
                    game = what,
                    ply = g.row.ply,
                    state = state
                )
            } else if g.row.ply > f.seen_ply {
                t!(
                    lang,
                    "follow-ping-moves",
                    game = what,
                    moves = self.moves_from(&g, f.seen_ply as usize, voice),
                    state = state
                )
            } else {
                t!(lang, "follow-ping-state", game = what, state = state)
            };
            let id = new_notice_id();
            self.hold(id);
            let notice = Notice {
                user: f.user.clone(),
                via: Via::Mention,
                channel: g.row.channel.clone(),
                text,
                id: Some(id),
                game: Some(game),
                ply: None,
                league: None,
            };
            let stored = to_store(std::slice::from_ref(&notice));
            if self.store.mark_seen(
                game,
                &f.user,
                (f.seen_ply, f.seen_over),
                (g.row.ply, over),
                stored.first(),
                self.now(),
            )? {
                out.push(notice);
            } else {
                self.release_notices(&[id]);
            }
        }
        Ok(out)
    }

    /// The sweep's part: `ping` followers a crash or another process left untold.
    pub(crate) fn sweep_follows(&self) -> Result<Vec<Notice>, CoreError> {
        let due = self.store.pings_due(None, BATCH)?;
        let games: std::collections::BTreeSet<i64> = due.iter().map(|f| f.game).collect();
        let mut out = Vec::new();
        for game in games {
            out.extend(self.follow_step(game));
        }
        Ok(out)
    }

    /// `thread` followers to add to their game's thread (of `game`, or of any), for the
    /// transport.
    pub fn thread_joins(&self, game: Option<i64>) -> Result<Vec<ThreadJoin>, CoreError> {
        Ok(self.store.thread_joins_due(game, 100)?)
    }

    /// Records that the transport added a follower to a game's thread (or that it cannot be
    /// done: the thread is closed to the bot, the user is no member of the server).
    pub fn thread_joined(&self, j: &ThreadJoin) -> Result<(), CoreError> {
        Ok(self.store.thread_joined(j.game, &j.user, &j.thread)?)
    }

    /// Whether `user` gets a daily digest: on `notify=digest`, or following a game by digest.
    fn gets_digest(&self, user: &UserRow) -> Result<bool, CoreError> {
        Ok(user.notify == "digest"
            || self
                .store
                .follows_of(&user.id)?
                .iter()
                .any(|f| f.notify == FollowHow::Digest.as_str()))
    }

    /// When `user`'s next digest is due, planned at `now` (settings changed, a first digest
    /// follow); `None` when they get none. With an hour: its first coming in their zone on a
    /// local day after their last digest's; without: a day after the last one (now if none).
    pub(crate) fn planned_digest(
        &self,
        user: &UserRow,
        now: i64,
    ) -> Result<Option<i64>, CoreError> {
        if !self.gets_digest(user)? {
            return Ok(None);
        }
        Ok(Some(match user.digest_hour {
            Some(h) => {
                let zone = speech::voice_for(Some(user), None).zone;
                zone.first_hour_from(now, user.last_digest_at, h)
                    .unwrap_or(now + DAY)
            }
            None => user.last_digest_at.map_or(now, |l| l + DAY),
        }))
    }

    /// The sweep's digests (module header): for each user whose digest is due, their daily
    /// list and their followed games' news, sent if there is something to say, and the next
    /// one planned, once. Users sent one are added to `out`.
    pub(crate) fn sweep_digests(&self, now: i64, out: &mut Vec<String>) -> Result<(), CoreError> {
        for user in self.store.digests_at(now, now - DAY, BATCH)? {
            let planned = user.next_digest_at;
            if !self.gets_digest(&user)? {
                // No longer on a digest: none planned.
                self.store
                    .record_daily(&user.id, planned, None, None, now)?;
                continue;
            }
            let zone = speech::voice_for(Some(&user), None).zone;
            let after_one = match user.digest_hour {
                Some(h) => zone.next_hour_after(now, h).unwrap_or(now + DAY),
                None => now + DAY,
            };
            match self.digest_text(&user, now)? {
                Some((text, told)) => {
                    super::queued(1);
                    let n = NewNotice {
                        id: new_notice_id(),
                        game: None,
                        user: user.id.clone(),
                        via: "dm".into(),
                        channel: None,
                        text,
                        ply: None,
                        league: None,
                    };
                    if self.store.record_daily(
                        &user.id,
                        planned,
                        Some(after_one),
                        Some((&n, &told)),
                        now,
                    )? {
                        out.push(user.id.clone());
                    }
                }
                None => {
                    // Nothing to say: at its hour, nothing today; without one, looked at again.
                    let next = match user.digest_hour {
                        Some(_) => after_one,
                        None => now + RECHECK,
                    };
                    self.store
                        .record_daily(&user.id, planned, Some(next), None, now)?;
                }
            }
        }
        Ok(())
    }

    /// A user's digest, in their voice (`None`: nothing to say): the games waiting for their
    /// move (the first line counts them), the daily list, the challenges to them, and the
    /// moves and endings of the games they follow by digest since they were last told; with
    /// what it tells of those games.
    pub(crate) fn digest_text(
        &self,
        user: &UserRow,
        now: i64,
    ) -> Result<Option<(String, Vec<Told>)>, CoreError> {
        let voice = speech::voice_for(Some(user), None);
        let lang = voice.lang;
        let games = self
            .store
            .games_of(&user.id, GameStatus::Active, None, 200)?;
        let mut lines: Vec<(bool, i64, String)> = games
            .iter()
            .map(|g| self.daily_line(g, &user.id, true, None, voice))
            .collect();
        lines.sort();
        let mut waiting: Vec<&GameRow> = games
            .iter()
            .filter(|g| g.to_move.as_deref() == Some(user.id.as_str()))
            .collect();
        waiting.sort_by_key(|g| (g.deadline.unwrap_or(i64::MAX), g.id));
        let challenges: Vec<String> = self
            .store
            .open_challenges(&user.id, now)?
            .into_iter()
            .filter(|c| c.challenged.as_deref() == Some(user.id.as_str()))
            .map(|c| {
                let variant = VariantId::parse(&c.variant)
                    .map_or_else(|| c.variant.clone(), |v| words::variant(lang, v));
                t!(
                    lang,
                    "follow-digest-challenge",
                    id = c.id,
                    variant = variant,
                    name = self.shown_name(&c.challenger, None)
                )
            })
            .collect();
        let (news, told) = self.followed_news(user, voice)?;
        if waiting.is_empty() && news.is_empty() {
            return Ok(None);
        }
        let mut text = if waiting.is_empty() {
            t!(lang, "follow-digest-none-waiting")
        } else {
            let ids: Vec<String> = waiting.iter().map(|g| format!("#{}", g.id)).collect();
            t!(
                lang,
                "clock-digest",
                count = waiting.len() as i64,
                ids = ids.join(", ")
            )
        };
        let (mine, theirs): (Vec<_>, Vec<_>) = lines.into_iter().partition(|(m, _, _)| !*m);
        for (head, part) in [
            (
                "follow-digest-your-move",
                mine.into_iter().map(|l| l.2).collect(),
            ),
            (
                "follow-digest-their-move",
                theirs.into_iter().map(|l| l.2).collect(),
            ),
            ("follow-digest-challenges", challenges),
            ("follow-digest-followed", news),
        ] {
            let part: Vec<String> = part;
            if part.is_empty() {
                continue;
            }
            text.push('\n');
            text.push_str(&t!(lang, head));
            for l in part {
                text.push_str("\n• ");
                text.push_str(&l);
            }
        }
        Ok(Some((text, told)))
    }

    /// The news of the games `user` follows by digest since they were last told of them (by
    /// their last digest, or since they followed): the moves played, a takeback, the end; and
    /// what the digest then tells of each game, recorded with it.
    fn followed_news(
        &self,
        user: &UserRow,
        voice: Voice,
    ) -> Result<(Vec<String>, Vec<Told>), CoreError> {
        let lang = voice.lang;
        let mut lines = Vec::new();
        let mut told = Vec::new();
        for f in self.store.follows_of(&user.id)? {
            if FollowHow::of(&f)? != FollowHow::Digest {
                continue;
            }
            let Some(row) = self.store.game(f.game)? else {
                continue;
            };
            let over = row.status != GameStatus::Active;
            if row.ply == f.seen_ply && over == f.seen_over {
                continue;
            }
            let g = self.load(f.game)?;
            let what = self.game_words(&g.row, None, lang);
            let state = self.game_state(&g, None, voice);
            let line = if g.row.ply > f.seen_ply {
                t!(
                    lang,
                    "follow-digest-moves",
                    game = what,
                    count = i64::from(g.row.ply - f.seen_ply),
                    moves = self.moves_from(&g, f.seen_ply as usize, voice),
                    state = state
                )
            } else if g.row.ply < f.seen_ply {
                t!(
                    lang,
                    "follow-ping-takeback",
                    game = what,
                    ply = g.row.ply,
                    state = state
                )
            } else {
                t!(lang, "follow-digest-state", game = what, state = state)
            };
            lines.push(line + &self.link(&g.row));
            told.push(Told {
                game: f.game,
                ply: g.row.ply,
                over,
            });
        }
        Ok((lines, told))
    }
}

/// How a follower is told, in words: `in its thread`, `in your daily digest`, `pinged at each
/// move`.
fn how_words(lang: Lang, how: FollowHow) -> String {
    match how {
        FollowHow::Thread => t!(lang, "follow-how-thread"),
        FollowHow::Digest => t!(lang, "follow-how-digest"),
        FollowHow::Ping => t!(lang, "follow-how-ping"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ways_of_being_told_are_read_from_their_words() {
        for h in FollowHow::ALL {
            assert_eq!(FollowHow::parse(h.as_str()), Some(h));
        }
        let words: Vec<&str> = FollowHow::ALL.iter().map(|h| h.as_str()).collect();
        assert_eq!(words, FOLLOW_NOTIFY);
        assert_eq!(FollowHow::parse(" PING "), Some(FollowHow::Ping));
        assert_eq!(FollowHow::parse("mention"), None);
    }

    #[test]
    fn time_left_is_written_as_the_clocks_write_it() {
        let l = |s| time_left(Lang::En, s);
        assert_eq!(l(3 * DAY), "3d left");
        // Counted up to the minute: a few seconds after a move, the whole turn is left.
        assert_eq!(l(3 * DAY - 2), "3d left");
        assert_eq!(l(3 * DAY - 61), "2d 23h left");
        assert_eq!(l(2 * DAY + 23 * 3600 + 10), "2d 23h left");
        assert_eq!(l(5 * 3600 + 12 * 60), "5h 12m left");
        assert_eq!(l(5 * 3600 + 11 * 60 + 1), "5h 12m left");
        assert_eq!(l(DAY - 10), "1d left");
        assert_eq!(l(DAY - 70), "23h 59m left");
        assert_eq!(l(59), "1m left");
        assert_eq!(l(1), "1m left");
        assert_eq!(l(0), "overdue");
        assert_eq!(l(-5), "overdue");
        assert_eq!(time_left(Lang::Ja, 2 * DAY + 3 * 3600), "残り2日3時間");
    }
}
