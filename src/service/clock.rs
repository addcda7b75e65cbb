//! Correspondence time: the sweep (losses on time, reminders, expired challenges, digests),
//! more time, vacations; and the ratings views and server settings.
//!
//! A reminder goes out once per move, when the player has used most of their time: at the later
//! of "their lead before the deadline" (`settings remind=HOURS`, 24 by default, 0 for never) and
//! "half the time per move after the move" (the deadline minus half the days per move, so a
//! vacation that moves the deadline moves it too). Never to the computer.
//!
//! The sweep is idempotent and survives restarts: every change is one transaction guarded by
//! what it changes (a game still active at the version seen, a reminder not yet sent for this
//! deadline, a challenge still open, a digest still planned as read), and the notification it
//! causes is queued in the outbox in that same transaction. Several processes may sweep one
//! database at once: each change claims its row in its transaction (on PostgreSQL, `FOR UPDATE
//! SKIP LOCKED`; SQLite has one writer at a time), so a game is forfeited once and its notices
//! queued once. `sweep` returns the notifications this process holds and has not marked sent
//! (`claim_unsent`); the caller delivers them and calls `mark_sent`. A crash between delivery
//! and `mark_sent` delivers a notification twice at worst, never loses one.

use std::collections::HashSet;

use tracing::{info, instrument};

use super::play::ending_of;
use super::*;
use crate::engine::{Outcome, Reason};
use crate::i18n::{words, Lang};
use crate::store::{
    BatchEnd, DeadlineShift, Limit, NewNotice, ServerRow, UserRow, VacationAllowance,
};
use crate::{msg, t};

/// What a sweep did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sweep {
    /// Games lost on time by this sweep.
    pub timeouts: Vec<i64>,
    /// Games whose player was reminded by this sweep.
    pub reminders: Vec<i64>,
    /// Challenges expired by this sweep.
    pub expired: Vec<i64>,
    /// Users sent a digest by this sweep.
    pub digests: Vec<String>,
    /// Every notification waiting for delivery (this sweep's and any left by an earlier run),
    /// with its outbox id for `mark_sent`.
    pub notices: Vec<(i64, Notice)>,
}

const BATCH: usize = 500;

/// The days of vacation a player may take in a calendar month (UTC).
pub const VACATION_DAYS: i64 = 14;

/// The longest reminder lead a player may choose, in hours (two weeks, the longest time per
/// move).
pub const MAX_REMIND_HOURS: u32 = 336;

/// Whether the sweep's notices to a user (whose row is `known`, if they have one) go by direct
/// message: digest and DM users'.
fn by_dm(known: Option<&UserRow>) -> bool {
    matches!(known, Some(u) if u.notify == "dm" || u.notify == "digest")
}

/// A notice of the sweep to `user` (whose row is `known`, if they have one): digest and DM
/// users get a direct message, the others a mention.
fn notice_to(
    known: Option<&UserRow>,
    user: &str,
    channel: Option<&String>,
    text: String,
) -> NewNotice {
    let via = if by_dm(known) { "dm" } else { "mention" };
    super::queued(1);
    NewNotice {
        id: super::new_notice_id(),
        game: None,
        user: user.to_string(),
        via: via.into(),
        channel: channel.cloned(),
        text,
        ply: None,
        league: None,
    }
}

/// An outbox row as the adapters deliver it.
fn notice_of(o: crate::store::OutboxRow) -> Notice {
    Notice {
        user: o.notice.user,
        via: Via::parse(&o.notice.via),
        channel: o.notice.channel,
        text: o.notice.text,
        id: Some(o.id),
        game: o.notice.game,
        ply: o.notice.ply,
        league: o.notice.league,
    }
}

impl Service {
    /// How to reach a user from the sweep (digest users get direct messages); `text` writes
    /// the notice in their voice.
    fn outbox_notice(
        &self,
        user: &str,
        channel: Option<&String>,
        text: impl FnOnce(Voice) -> String,
    ) -> Result<NewNotice, CoreError> {
        let row = self.store.user(user)?;
        let voice = super::speech::voice_for(row.as_ref(), None);
        Ok(notice_to(row.as_ref(), user, channel, text(voice)))
    }

    /// Runs the correspondence sweep as of `now`.
    #[instrument(skip(self))]
    pub fn sweep(&self, now: i64) -> Result<Sweep, CoreError> {
        let mut out = Sweep::default();
        // Losses on time.
        let mut seen = HashSet::new();
        loop {
            let due = self.store.due_games(now, BATCH)?;
            let fresh: Vec<_> = due.into_iter().filter(|g| seen.insert(g.id)).collect();
            if fresh.is_empty() {
                break;
            }
            // Forfeits are committed a hundred at a time (each game still guarded by its
            // version): one commit's wait on the disk for a hundred games.
            for chunk in fresh.chunks(100) {
                // The players of the hundred games, read at once (how to reach them, names).
                let ids: Vec<String> = chunk.iter().flat_map(|r| r.players.clone()).collect();
                let users: std::collections::HashMap<String, UserRow> = self
                    .store
                    .users(&ids)?
                    .into_iter()
                    .map(|u| (u.id.clone(), u))
                    .collect();
                // The losers' names as each winner's notice shows them: in the game's server
                // for a mention, the global name in a direct message.
                let shown_in = |r: &crate::store::GameRow, winner: &str| {
                    (!by_dm(users.get(winner)))
                        .then(|| r.guild.clone())
                        .flatten()
                };
                let pairs: Vec<(Option<String>, String)> = chunk
                    .iter()
                    .filter_map(|r| {
                        let loser = r.to_move.clone()?;
                        let winner = r.players.iter().find(|p| **p != loser)?;
                        Some((shown_in(r, winner), loser))
                    })
                    .collect();
                let names = self.shown_names(&users, &pairs)?;
                let mut endings = Vec::new();
                for row in chunk {
                    let Some(loser) = row.to_move.clone() else {
                        continue;
                    };
                    // The computer has no clock: its move waits for its worker (also while
                    // this process does not know yet which player is the computer).
                    if self.computer_may_be_to_move(row) {
                        continue;
                    }
                    let loser_side = if row.players[0] == loser {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let o = Outcome::Win {
                        winner: !loser_side,
                        reason: Reason::Timeout,
                    };
                    let winner = row.players[(!loser_side).index()].clone();
                    let loser_name = names
                        .get(&(shown_in(row, &winner), loser.clone()))
                        .map_or(loser.as_str(), |n| n.as_str());
                    // Each in its reader's language (from the rows read for the batch).
                    let lang_of = |u: &str| super::speech::voice_for(users.get(u), None).lang;
                    let notices = vec![
                        notice_to(
                            users.get(&loser),
                            &loser,
                            row.channel.as_ref(),
                            t!(lang_of(&loser), "clock-lost-on-time", id = row.id),
                        )
                        .about(row.id),
                        notice_to(
                            users.get(&winner),
                            &winner,
                            row.channel.as_ref(),
                            t!(
                                lang_of(&winner),
                                "clock-won-on-time",
                                id = row.id,
                                name = loser_name
                            ),
                        )
                        .about(row.id),
                    ];
                    endings.push((row, ending_of(o), notices));
                }
                // Two games of one player in the batch: the second's ratings follow the first's.
                let mut known = super::ratings::Known::new();
                let mut batch = Vec::with_capacity(endings.len());
                for (row, ending, notices) in &endings {
                    batch.push((
                        row.id,
                        row.version,
                        self.finish_of(row, ending, notices, &mut known)?,
                    ));
                }
                let done = self.store.finish_games(&batch, now)?;
                for ((row, ending, notices), outcome) in endings.iter().zip(done) {
                    let ended = match outcome {
                        BatchEnd::Ended => true,
                        // A move or another sweep got there first; or another process holds
                        // the game right now (its sweep, a move): it decides, and a later
                        // sweep looks again if the game is still due.
                        BatchEnd::Moved | BatchEnd::Held => false,
                        // A player's rating moved on (another game of theirs ended, or one
                        // before in this batch was left alone): the game is still as read,
                        // and ends on its own with fresh ratings.
                        BatchEnd::Stale => match self.end_game(row, ending, notices, now) {
                            Ok(_) => true,
                            Err(StoreError::Conflict | StoreError::NotFound) => false,
                            Err(e) => return Err(e.into()),
                        },
                    };
                    if ended {
                        info!(game = row.id, "lost on time");
                        out.timeouts.push(row.id);
                    }
                }
            }
        }
        // Reminders, once per move, when the player's lead before the deadline has come and
        // half their time has gone (the store's `reminders_due` applies the rule).
        let mut seen = HashSet::new();
        loop {
            let due = self.store.reminders_due(now, BATCH)?;
            let fresh: Vec<_> = due.into_iter().filter(|g| seen.insert(g.id)).collect();
            if fresh.is_empty() {
                break;
            }
            for row in fresh {
                let (Some(user), Some(deadline)) = (row.to_move.clone(), row.deadline) else {
                    continue;
                };
                // The computer reads no reminders (its move waits for its worker).
                if self.is_computer(&user) || self.computer_may_be_to_move(&row) {
                    continue;
                }
                let n = self
                    .outbox_notice(&user, row.channel.as_ref(), |voice| {
                        t!(
                            voice.lang,
                            "clock-reminder",
                            id = row.id,
                            time = voice.time(deadline)
                        )
                    })?
                    .about(row.id);
                if self.store.remind(row.id, deadline, &n, now)? {
                    out.reminders.push(row.id);
                }
            }
        }
        // Challenges nobody accepted in time.
        let mut seen = HashSet::new();
        loop {
            let due = self.store.expired_challenges(now, BATCH)?;
            let fresh: Vec<_> = due.into_iter().filter(|c| seen.insert(c.id)).collect();
            if fresh.is_empty() {
                break;
            }
            for c in fresh {
                let n = self.outbox_notice(&c.challenger, c.channel.as_ref(), |voice| {
                    // English names the game by its word (`shogi`), as it always has.
                    let game = match (voice.lang, VariantId::parse(&c.variant)) {
                        (Lang::Ja, Some(v)) => words::variant(Lang::Ja, v),
                        _ => c.variant.clone(),
                    };
                    t!(
                        voice.lang,
                        "clock-challenge-expired",
                        id = c.id,
                        game = game
                    )
                })?;
                if self.store.expire_challenge(c.id, &[n], now)? {
                    out.expired.push(c.id);
                }
            }
        }
        // Daily digests instead of a ping per move, at each player's hour (see `follow`).
        self.sweep_digests(now, &mut out.digests)?;
        // Leagues: a game lost on time may close a round; a round past its deadline is
        // adjudicated. Their notices are delivered with the rest (let go here, claimed below).
        let mut league_notices = Vec::new();
        for &game in &out.timeouts {
            league_notices.extend(self.after_league_game(game));
        }
        match self.sweep_leagues() {
            Ok(n) => league_notices.extend(n),
            Err(e) => tracing::warn!("leagues not swept: {e}"),
        }
        // Conditional answers left due (a crash between a move and its answer).
        match self.sweep_conditionals() {
            Ok(n) => league_notices.extend(n),
            Err(e) => tracing::warn!("conditional lines not swept: {e}"),
        }
        // Followers pinged at each move not told yet (the games this sweep ended, a crash).
        match self.sweep_follows() {
            Ok(n) => league_notices.extend(n),
            Err(e) => tracing::warn!("followers not swept: {e}"),
        }
        let ids: Vec<i64> = league_notices.iter().filter_map(|n| n.id).collect();
        self.release_notices(&ids);
        out.notices = self
            .claim_unsent(10_000)?
            .into_iter()
            .filter_map(|n| Some((n.id?, n)))
            .collect();
        Ok(out)
    }

    /// Notifications waiting for delivery, oldest first, whoever holds them.
    pub fn unsent(&self, limit: usize) -> Result<Vec<Notice>, CoreError> {
        Ok(self
            .store
            .unsent(limit)?
            .into_iter()
            .map(notice_of)
            .collect())
    }

    /// The notifications this process is to deliver, oldest first: those it queued, and those
    /// of a process that stopped. Another running process's notices are never among them (see
    /// `ClockStore::claim_unsent`); calling this every few seconds keeps this process's hold.
    pub fn claim_unsent(&self, limit: usize) -> Result<Vec<Notice>, CoreError> {
        Ok(self
            .store
            .claim_unsent(limit)?
            .into_iter()
            // A command's own notices are its to deliver, while it holds them.
            .filter(|o| !self.is_held(o.id))
            .map(notice_of)
            .collect())
    }

    /// Lets go of this process's undelivered notifications (at a clean shutdown), so that
    /// another process delivers them at once.
    pub fn release_claims(&self) -> Result<(), CoreError> {
        Ok(self.store.release_claims()?)
    }

    /// Keeps this process's hold on the notifications it holds (every ~20 s while a slow batch
    /// is delivered: the hold lasts `OUTBOX_LEASE`, reckoned by the database's clock), so that
    /// no other process takes one of them meanwhile. Claims nothing new.
    pub fn renew_claims(&self) -> Result<(), CoreError> {
        Ok(self.store.renew_claims()?)
    }

    /// Records the Discord thread where a game is played.
    pub fn set_thread(&self, game: i64, thread: &str) -> Result<(), CoreError> {
        Ok(self.store.set_thread(game, thread)?)
    }

    /// Marks notifications of a sweep delivered.
    pub fn mark_sent(&self, ids: &[i64]) -> Result<(), CoreError> {
        self.store.mark_sent(ids, self.now())?;
        self.release_notices(ids);
        Ok(())
    }

    pub(crate) fn more_time(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
    ) -> Result<Reply, CoreError> {
        let g = self.pick_game(user, place, game)?;
        let side = g
            .side_of(&user.id)
            .ok_or_else(|| CoreError::User(msg!("core-not-your-game", id = g.row.id)))?;
        if g.row.status != GameStatus::Active {
            return user_err(msg!("play-game-over", id = g.row.id));
        }
        if g.game.position().side_to_move() == side {
            return user_err(msg!("clock-moretime-your-move"));
        }
        if g.row.deadline.is_some_and(|d| d <= self.now()) {
            return user_err(msg!("clock-moretime-too-late", id = g.row.id));
        }
        let opponent = g.player(!side).to_string();
        let notify: Vec<Notice> = self
            .notice_about(
                Some(g.row.id),
                &opponent,
                g.row.channel.as_ref(),
                g.row.guild.as_deref(),
                |names, voice| {
                    t!(
                        voice.lang,
                        "clock-notice-moretime",
                        name = self.shown_name(&user.id, names),
                        id = g.row.id
                    )
                },
            )
            .into_iter()
            .collect();
        // The day is added to the deadline the game had at the version read; a game without
        // one (against the computer) has no clock to extend.
        let Some(deadline) = g.row.deadline else {
            return Err(StoreError::Conflict.into());
        };
        let row = self.store.set_deadline(
            g.row.id,
            g.row.version,
            deadline + DAY,
            &super::to_store(&notify),
            self.now(),
        )?;
        let deadline = row.deadline.map(|d| user.voice.time(d)).unwrap_or_default();
        Ok(Reply {
            text: t!(
                user.voice.lang,
                "clock-moretime",
                id = row.id,
                name = self.shown_name(&user.id, row.guild.as_deref()),
                opponent = self.shown_name(&opponent, row.guild.as_deref()),
                deadline = deadline
            ),
            notify,
            ..Reply::default()
        })
    }

    /// Starts the user's vacation from `now` to `end`: the deadlines of the games waiting for
    /// their move go on by its length (those already past stay lost on time: a vacation does not
    /// revive them). Computed again if one of those games moved on meanwhile. The store checks
    /// the month's allowance and "not on vacation already" in the transaction that starts it
    /// (`Limit`), so two vacations asked for at once never both pass.
    fn start_vacation(
        &self,
        user: &str,
        now: i64,
        end: i64,
        allowance: &VacationAllowance,
    ) -> Result<(), StoreError> {
        let mut tries = 0;
        loop {
            let shifts: Vec<DeadlineShift> = self
                .store
                .waiting_for(user)?
                .into_iter()
                .filter_map(|g| {
                    let d = g.deadline.filter(|&d| d > now)?;
                    Some(DeadlineShift {
                        game: g.id,
                        version: g.version,
                        deadline: d + (end - now),
                    })
                })
                .collect();
            match self
                .store
                .start_vacation(user, now, end, allowance, &shifts)
            {
                Err(StoreError::Stale) if tries + 1 < super::RETRIES => tries += 1,
                other => return other,
            }
        }
    }

    /// Ends now the user's vacation planned until `until`: the deadlines of the games waiting
    /// for their move come back by the time left (never before now). Computed again if one of
    /// those games moved on meanwhile; nothing to do if the vacation already ended.
    fn end_vacation(&self, user: &str, until: i64, now: i64) -> Result<(), CoreError> {
        let mut until = until;
        let mut tries = 0;
        loop {
            let left = until - now;
            let shifts: Vec<DeadlineShift> = self
                .store
                .waiting_for(user)?
                .into_iter()
                .filter_map(|g| {
                    Some(DeadlineShift {
                        game: g.id,
                        version: g.version,
                        deadline: (g.deadline? - left).max(now),
                    })
                })
                .collect();
            match self.store.end_vacation(user, until, now, &shifts) {
                Err(StoreError::Stale) if tries + 1 < super::RETRIES => {
                    tries += 1;
                    match self.store.user(user)?.and_then(|u| u.vacation_until) {
                        Some(u) if u > now => until = u,
                        _ => return Ok(()),
                    }
                }
                other => return Ok(other?),
            }
        }
    }

    /// Vacations: up to [`VACATION_DAYS`] days a calendar month (UTC); deadlines of games waiting for the user
    /// move on by the vacation, and come back by what is left if it ends early.
    pub(crate) fn vacation(
        &self,
        user: &User,
        place: &Place,
        days: Option<u32>,
        end: bool,
    ) -> Result<Reply, CoreError> {
        let now = self.now();
        let me = self
            .store
            .user(&user.id)?
            .ok_or_else(|| CoreError::Internal("user vanished".into()))?;
        let on = me.vacation_until.filter(|&u| u > now);
        let allowance = VacationAllowance {
            since: month_start(now),
            max: VACATION_DAYS * DAY,
        };
        let used = self.store.vacation_used(&user.id, allowance.since)?;
        let left = |used: i64| (allowance.max - used).max(0) / DAY;
        let left_days = left(used);
        let lang = user.voice.lang;
        if end {
            let Some(until) = on else {
                return user_err(msg!("clock-not-on-vacation"));
            };
            self.end_vacation(&user.id, until, now)?;
            return Ok(Reply::text(t!(
                lang,
                "clock-welcome-back",
                name = self.shown_name(&user.id, place.guild.as_deref()),
                time = user.voice.time(until)
            )));
        }
        let Some(days) = days else {
            return Ok(Reply::text(match on {
                Some(until) => t!(lang, "clock-on-vacation", time = user.voice.time(until)),
                None => t!(lang, "clock-vacation-left", left = left_days),
            }));
        };
        if let Some(until) = on {
            return user_err(msg!(
                "clock-already-on-vacation",
                time = user.voice.time(until)
            ));
        }
        if days == 0 || days as i64 > left_days {
            return user_err(msg!("clock-vacation-limit", left = left_days));
        }
        let until = now + days as i64 * DAY;
        // Checked again where it is written: another command may have started a vacation
        // since the reads above.
        match self.start_vacation(&user.id, now, until, &allowance) {
            Ok(()) => {}
            Err(StoreError::Limit(Limit::OnVacation { until })) => {
                return user_err(msg!(
                    "clock-already-on-vacation",
                    time = user.voice.time(until)
                ))
            }
            Err(StoreError::Limit(Limit::VacationDays { used })) => {
                return user_err(msg!("clock-vacation-limit", left = left(used)))
            }
            Err(e) => return Err(e.into()),
        }
        let waiting: Vec<String> = self
            .store
            .games_of(&user.id, GameStatus::Active, None, 200)?
            .into_iter()
            .filter(|g| g.to_move.as_deref() == Some(user.id.as_str()))
            .map(|g| format!("#{}", g.id))
            .collect();
        Ok(Reply::text(t!(
            lang,
            "clock-vacation-started",
            name = self.shown_name(&user.id, place.guild.as_deref()),
            time = user.voice.time(until),
            rest = if waiting.is_empty() {
                t!(lang, "clock-vacation-no-waiting")
            } else {
                t!(
                    lang,
                    "clock-vacation-moved",
                    days = days,
                    ids = waiting.join(", ")
                )
            }
        )))
    }

    pub(crate) fn stats(
        &self,
        user: &User,
        place: &Place,
        who: Option<&UserRef>,
    ) -> Result<Reply, CoreError> {
        let id = self.subject(user, place, who, "stats")?;
        let guild = place.guild.clone().unwrap_or_default();
        let ratings = self.store.ratings_of(id, &guild)?;
        let active = self
            .store
            .games_of(id, GameStatus::Active, place.guild.as_deref(), 500)?
            .len();
        let lang = user.voice.lang;
        let mut text = t!(
            lang,
            "clock-stats-active",
            name = self.shown_name(id, place.guild.as_deref()),
            count = active as i64
        );
        if ratings.is_empty() {
            text.push_str(&t!(lang, "clock-stats-none"));
        }
        for r in ratings {
            let name =
                VariantId::parse(&r.variant).map_or(r.variant.clone(), |v| words::variant(lang, v));
            text.push('\n');
            text.push_str(&t!(
                lang,
                "clock-stats-line",
                game = name,
                rating = format!("{:.0}", r.rating),
                deviation = format!("{:.0}", 2.0 * r.deviation),
                games = r.games as i64,
                wins = r.wins as i64,
                losses = r.losses as i64,
                draws = r.draws as i64
            ));
        }
        Ok(Reply::text(text))
    }

    pub(crate) fn leaderboard(
        &self,
        user: &User,
        place: &Place,
        variant: &str,
    ) -> Result<Reply, CoreError> {
        let lang = user.voice.lang;
        let id = VariantId::parse(variant)
            .ok_or_else(|| CoreError::User(msg!("clock-unknown-game", game = variant)))?;
        let guild = place.guild.clone().unwrap_or_default();
        let rows = self.store.leaderboard(id.as_str(), &guild, 10)?;
        let game = words::variant(lang, id);
        if rows.is_empty() {
            return Ok(Reply::text(t!(
                lang,
                "clock-leaderboard-empty",
                game = game
            )));
        }
        let mut text = t!(lang, "clock-leaderboard", game = game);
        for (i, r) in rows.iter().enumerate() {
            text.push('\n');
            text.push_str(&t!(
                lang,
                "clock-leaderboard-line",
                rank = (i + 1) as i64,
                name = self.shown_name(&r.user, place.guild.as_deref()),
                rating = format!("{:.0}", r.rating),
                deviation = format!("{:.0}", 2.0 * r.deviation),
                games = r.games as i64
            ));
        }
        Ok(Reply::text(text))
    }

    /// The settings of the server a command was sent in (defaults when none were saved).
    pub(crate) fn server_of(&self, place: &Place) -> Result<ServerRow, CoreError> {
        let guild = place.guild.clone().unwrap_or_default();
        Ok(self.store.server(&guild)?.unwrap_or(ServerRow {
            guild,
            default_days: self.config.default_days,
            rated_default: false,
            games_channel: None,
            language: None,
            leagues: true,
            featured: None,
        }))
    }

    #[allow(clippy::too_many_arguments)] // one per option of /server
    pub(crate) fn server_settings(
        &self,
        user: &User,
        place: &Place,
        days: Option<u32>,
        rated: Option<bool>,
        channel: Option<String>,
        language: Option<&str>,
        leagues: Option<bool>,
        feature: Option<i64>,
    ) -> Result<Reply, CoreError> {
        let lang = user.voice.lang;
        let mut s = self.server_of(place)?;
        let described = |s: &ServerRow, lang: Lang| {
            (
                if s.rated_default {
                    t!(lang, "server-rated")
                } else {
                    t!(lang, "server-casual")
                },
                s.games_channel.as_ref().map_or_else(
                    || t!(lang, "server-games-here"),
                    |c| t!(lang, "server-games-channel", channel = c.as_str()),
                ),
                match s.language.as_deref().and_then(Lang::parse) {
                    Some(l) => t!(lang, "server-language-chosen", lang = l.code()),
                    None => t!(
                        lang,
                        "server-language-discord",
                        lang = self.public_voice(place.guild.as_deref()).lang.code()
                    ),
                },
                match (s.leagues, s.featured) {
                    (true, None) => t!(lang, "server-leagues-on"),
                    (false, None) => t!(lang, "server-leagues-off"),
                    (on, Some(id)) => t!(
                        lang,
                        "server-featured",
                        leagues = if on {
                            t!(lang, "server-leagues-on")
                        } else {
                            t!(lang, "server-leagues-off")
                        },
                        id = id
                    ),
                },
            )
        };
        if days.is_none()
            && rated.is_none()
            && channel.is_none()
            && language.is_none()
            && leagues.is_none()
            && feature.is_none()
        {
            let (rated, games, language, leagues) = described(&s, lang);
            return Ok(Reply::text(t!(
                lang,
                "server-show",
                days = s.default_days,
                rated = rated,
                games = games,
                language = language,
                leagues = leagues
            )));
        }
        if place.guild.is_none() {
            return user_err(msg!("server-not-in-server"));
        }
        if !place.admin {
            return user_err(msg!("server-managers-only"));
        }
        if let Some(d) = days {
            check_days(d)?;
            s.default_days = d;
        }
        if let Some(r) = rated {
            s.rated_default = r;
        }
        if let Some(c) = channel {
            s.games_channel = (!c.is_empty() && c != "none").then_some(c);
        }
        if let Some(l) = language {
            s.language = if l == "default" || l == "auto" {
                None
            } else {
                Some(
                    Lang::parse(l)
                        .ok_or_else(|| CoreError::User(msg!("settings-bad-language", value = l)))?
                        .code()
                        .to_string(),
                )
            };
        }
        if let Some(on) = leagues {
            s.leagues = on;
        }
        // A game of this server, featured (0: none).
        if let Some(id) = feature {
            s.featured = if id <= 0 {
                None
            } else {
                match self.store.game(id)? {
                    Some(g) if g.guild == place.guild => Some(id),
                    _ => return user_err(msg!("core-no-game", id = id)),
                }
            };
        }
        self.store.set_server(&s)?;
        let (rated, games, language, leagues) = described(&s, lang);
        Ok(Reply::text(t!(
            lang,
            "server-saved",
            days = s.default_days,
            rated = rated,
            games = games,
            language = language,
            leagues = leagues
        )))
    }
}

/// The first second of `t`'s calendar month (UTC).
fn month_start(t: i64) -> i64 {
    match time::OffsetDateTime::from_unix_timestamp(t) {
        Ok(dt) => dt
            .replace_day(1)
            .map(|d| d.replace_time(time::Time::MIDNIGHT).unix_timestamp())
            .unwrap_or(t),
        Err(_) => t,
    }
}
