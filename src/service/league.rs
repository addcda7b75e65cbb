//! Server leagues (issue 22): round robins, double round robins and Swiss tournaments of one
//! game, played by correspondence. A league is created open, players join, an organiser (its
//! creator or a manager of the server) starts it; from then on its rounds are games like any
//! other (same clocks, reminders, vacations, forfeits on time), created with the league's
//! settings and announced to both players in the league's home.
//!
//! The pairing and the scoring are `crate::league` (pure: indices, no rows); this module turns
//! the stored rows into its inputs and its answers into rows and texts. The rules it adds:
//!
//! - **Rounds.** A round robin is scheduled whole at the start (Berger tables); its games are
//!   all created at once (`start=all`) or round by round (`start=rounds`, the default). A Swiss
//!   round is paired when every game of the previous one has ended. A round moves on when every
//!   pairing is decided: its game finished, or an outcome the league gave it.
//! - **Round deadline** (`round_days`, optional): when a round has lasted that many days, its
//!   unfinished games are adjudicated draws (the games end as draws by adjudication, not rated)
//!   and the league moves on. Correspondence games have their own deadline per move, so this is
//!   a backstop against a round that never ends, not the usual way rounds end.
//! - **Leaving.** Before the start a player simply leaves. After it, leaving (or being removed)
//!   is a withdrawal: in a round robin, a player who finished fewer than half of their games has
//!   all their games annulled (as if they never played); otherwise their unplayed games are lost
//!   by forfeit. In Swiss, their game in progress is lost by forfeit and they are not paired
//!   again. A forfeit counts as a win for the opponent in the standings, never for ratings; a
//!   game in progress that is forfeited ends with the reason `forfeit`.
//! - **Who creates.** Any member of a server, unless its managers turned leagues off
//!   (`/server leagues:false`): then only managers do. A league's creator and the server's
//!   managers run it (start, cancel, kick).
//! - **Cancelling** ends the league; games in progress go on as ordinary games.
//! - **Ratings.** The games of a rated league are rated like any rated game (on the board only).
//! - Games are never handicapped: a league is even games.
//!
//! Every change is one store transaction guarded by the league's version, so a round is created
//! exactly once even when the sweeps of two processes find it due together.

use std::collections::HashMap;

use tracing::{info, warn};

use super::*;
use crate::engine::Position;
use crate::i18n::{refusal, Lang};
use crate::league::{self as lg, Format, Played};
use crate::store::{
    Decision, Ending, GameResult, Joined, LeaguePlayerRow, LeagueRow, LeagueStatus, NewGame,
    NewLeague, NewPairing, PairingRow, RoundStart, Settle,
};
use crate::{msg, t};

use super::command::LeagueCommand;

/// The most players a league takes: a round robin's games grow with the square of its players.
pub const MAX_ROUND_ROBIN_PLAYERS: u32 = 30;
/// The most players of a Swiss league.
pub const MAX_SWISS_PLAYERS: u32 = 256;
/// The most rounds of a Swiss league.
pub const MAX_SWISS_ROUNDS: u32 = 20;
/// The reason stored for a game lost by forfeit (its player left the league).
pub const FORFEIT: &str = "forfeit";
/// The reason stored for a game ended at a round's deadline.
pub const ADJUDICATION: &str = "adjudication";

/// A league's rows, read together.
pub(crate) struct LeagueState {
    pub row: LeagueRow,
    pub players: Vec<LeaguePlayerRow>,
    pub pairings: Vec<PairingRow>,
    /// The games of the pairings, by id.
    pub games: HashMap<i64, GameRow>,
}

impl LeagueState {
    pub fn format(&self) -> Format {
        Format::parse(&self.row.format).unwrap_or(Format::RoundRobin)
    }

    /// Players by index: the order they joined (the standings' indices).
    pub fn index_of(&self, user: &str) -> Option<usize> {
        self.players.iter().position(|p| p.user == user)
    }

    /// How a pairing stands, for the standings.
    pub fn outcome(&self, p: &PairingRow) -> lg::Outcome {
        match p.outcome.as_deref() {
            Some("forfeit-first") => return lg::Outcome::FirstWinsByForfeit,
            Some("forfeit-second") => return lg::Outcome::SecondWinsByForfeit,
            Some("annulled") => return lg::Outcome::Annulled,
            Some("adjudicated-draw") => return lg::Outcome::Draw,
            _ => {}
        }
        if p.second.is_none() {
            return lg::Outcome::Bye;
        }
        let Some(g) = p.game.and_then(|g| self.games.get(&g)) else {
            return lg::Outcome::Pending;
        };
        match (g.status, g.result) {
            (GameStatus::Finished, Some(GameResult::First)) => lg::Outcome::FirstWins,
            (GameStatus::Finished, Some(GameResult::Second)) => lg::Outcome::SecondWins,
            (GameStatus::Finished, Some(GameResult::Draw)) => lg::Outcome::Draw,
            _ => lg::Outcome::Pending,
        }
    }

    /// Whether a pairing is decided (a bye, an outcome, or its game over).
    pub fn decided(&self, p: &PairingRow) -> bool {
        self.outcome(p) != lg::Outcome::Pending
    }

    /// The pairings as the standings read them (those with a player who left the league before
    /// it started are not there: the store deleted them with the player).
    pub fn played(&self) -> Vec<Played> {
        self.pairings
            .iter()
            .filter_map(|p| {
                let first = self.index_of(&p.first)?;
                let second = match &p.second {
                    Some(s) => Some(self.index_of(s)?),
                    None => None,
                };
                Some(Played {
                    round: p.round,
                    pairing: lg::Pairing { first, second },
                    outcome: self.outcome(p),
                })
            })
            .collect()
    }

    pub fn withdrawn(&self) -> Vec<bool> {
        self.players.iter().map(|p| !p.active()).collect()
    }

    pub fn standings(&self) -> Vec<lg::Standing> {
        lg::standings(
            self.format(),
            self.players.len(),
            &self.withdrawn(),
            &self.played(),
        )
    }

    /// The rounds the league plays (known at the start for a round robin).
    pub fn total_rounds(&self) -> u32 {
        self.row.rounds.unwrap_or(0)
    }

    /// The pairings of the rounds started so far that are not decided yet.
    pub fn open_pairings(&self) -> Vec<&PairingRow> {
        self.pairings
            .iter()
            .filter(|p| p.round <= self.row.round && !self.decided(p))
            .collect()
    }
}

/// Whether a text names a format, as players may type it.
pub(super) fn parse_format(s: &str) -> Option<Format> {
    match s.to_ascii_lowercase().replace(['_', ' '], "-").as_str() {
        "rr" | "round-robin" | "roundrobin" => Some(Format::RoundRobin),
        "drr" | "double-round-robin" | "double" => Some(Format::DoubleRoundRobin),
        "swiss" => Some(Format::Swiss),
        _ => None,
    }
}

/// `all` (every round robin game at once) or `rounds` (round by round), as players may type it.
pub(super) fn parse_schedule(s: &str) -> Option<&'static str> {
    match s.to_ascii_lowercase().replace(['_', ' '], "-").as_str() {
        "all" | "all-at-once" | "at-once" | "now" => Some("all"),
        "rounds" | "round" | "by-round" | "round-by-round" => Some("rounds"),
        _ => None,
    }
}

fn format_word(lang: Lang, f: Format) -> String {
    match f {
        Format::RoundRobin => t!(lang, "league-format-round-robin"),
        Format::DoubleRoundRobin => t!(lang, "league-format-double-round-robin"),
        Format::Swiss => t!(lang, "league-format-swiss"),
    }
}

/// Points in half points as players write them: `2`, `1½`, `½`.
pub fn points(points2: u32) -> String {
    match (points2 / 2, points2 % 2) {
        (0, 1) => "½".to_string(),
        (n, 0) => n.to_string(),
        (n, _) => format!("{n}½"),
    }
}

impl Service {
    /// Runs a `league` command.
    pub(crate) fn league(
        &self,
        u: &User,
        place: &Place,
        c: &LeagueCommand,
    ) -> Result<Reply, CoreError> {
        let Some(guild) = place.guild.as_deref() else {
            return user_err(msg!("league-no-server"));
        };
        match c {
            LeagueCommand::Create(a) => self.league_create(u, place, guild, a),
            LeagueCommand::List => self.league_list(u, guild),
            LeagueCommand::Join { league } => self.league_join(u, guild, *league),
            LeagueCommand::Leave { league } => self.league_leave(u, guild, *league, None),
            LeagueCommand::Kick { league, user } => {
                self.league_leave(u, guild, *league, Some((place, user.id.as_str())))
            }
            LeagueCommand::Start { league } => self.league_start(u, place, guild, *league),
            LeagueCommand::Cancel { league } => self.league_cancel(u, place, guild, *league),
            LeagueCommand::Show { league } => self.league_show(u, guild, *league),
            LeagueCommand::Pairings { league, round } => {
                self.league_pairings(u, guild, *league, *round)
            }
        }
    }

    /// A league's row (its home: thread, channel, server), for the transports.
    pub fn league_home(&self, id: i64) -> Result<Option<LeagueRow>, CoreError> {
        Ok(self.store.league(id)?)
    }

    /// Records a league's thread, or forgets it (`None`: gone or closed to the bot; the
    /// league posts in its channel again).
    pub fn set_league_thread(&self, id: i64, thread: Option<&str>) -> Result<(), CoreError> {
        Ok(self.store.set_league_thread(id, thread)?)
    }

    /// The title of a league's thread, in the server's language.
    pub fn league_thread_title(&self, l: &LeagueRow) -> String {
        let lang = self.public_voice(Some(&l.guild)).lang;
        t!(
            lang,
            "league-thread-title",
            id = l.id,
            name = l.name.as_str()
        )
    }

    /// The league `id` of this server, read with its players, pairings and games.
    pub(crate) fn league_state(&self, id: i64) -> Result<Option<LeagueState>, CoreError> {
        let Some(row) = self.store.league(id)? else {
            return Ok(None);
        };
        let players = self.store.league_players(id)?;
        let pairings = self.store.pairings(id)?;
        let mut games = HashMap::new();
        for p in &pairings {
            if let Some(g) = p.game {
                if let Some(row) = self.store.game(g)? {
                    games.insert(g, row);
                }
            }
        }
        Ok(Some(LeagueState {
            row,
            players,
            pairings,
            games,
        }))
    }

    fn league_here(&self, guild: &str, id: i64) -> Result<LeagueState, CoreError> {
        match self.league_state(id)? {
            Some(s) if s.row.guild == guild => Ok(s),
            _ => user_err(msg!("league-unknown", id = id)),
        }
    }

    /// Whether `u` runs the league: its creator, or a manager of the server.
    fn organises(&self, u: &User, place: &Place, l: &LeagueRow) -> bool {
        l.creator == u.id.as_str() || place.admin
    }

    fn league_create(
        &self,
        u: &User,
        place: &Place,
        guild: &str,
        a: &super::command::LeagueArgs,
    ) -> Result<Reply, CoreError> {
        let lang = u.voice.lang;
        let name = a.name.trim();
        if name.is_empty() || name.chars().count() > 60 {
            return user_err(msg!("league-bad-name"));
        }
        let vid = VariantId::parse(&a.variant).ok_or_else(|| {
            let known: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
            CoreError::User(msg!(
                "play-unknown-game",
                game = a.variant.as_str(),
                choices = known.join(", ")
            ))
        })?;
        let format = parse_format(&a.format).ok_or_else(|| {
            CoreError::User(msg!("league-bad-format", format = a.format.as_str()))
        })?;
        let server = self.store.server(guild)?;
        // `/server leagues:false` leaves league-making to the server's managers.
        if server.as_ref().is_some_and(|s| !s.leagues) && !place.admin {
            return user_err(msg!("league-off-here"));
        }
        let control = a
            .clock
            .control(
                a.days,
                server
                    .as_ref()
                    .map_or(self.config.default_days, |s| s.default_days),
            )
            .map_err(CoreError::User)?;
        let rounds = match format {
            Format::Swiss => {
                let r = a
                    .rounds
                    .ok_or_else(|| CoreError::User(msg!("league-swiss-rounds")))?;
                if !(1..=MAX_SWISS_ROUNDS).contains(&r) {
                    return user_err(msg!("league-bad-rounds", max = MAX_SWISS_ROUNDS));
                }
                Some(r)
            }
            _ => None,
        };
        let schedule = match &a.start {
            None => "rounds",
            Some(s) => parse_schedule(s)
                .ok_or_else(|| CoreError::User(msg!("league-bad-start", start = s.as_str())))?,
        };
        let cap = match format {
            Format::Swiss => MAX_SWISS_PLAYERS,
            _ => MAX_ROUND_ROBIN_PLAYERS,
        };
        let max_players = match a.max_players {
            Some(m) if !(2..=cap).contains(&m) => {
                return user_err(msg!("league-bad-max-players", max = cap))
            }
            Some(m) => Some(m),
            None => Some(cap),
        };
        if let (Some(lo), Some(hi)) = (a.rating_min, a.rating_max) {
            if lo > hi {
                return user_err(msg!("league-bad-rating-range", min = lo, max = hi));
            }
        }
        let rated = a
            .rated
            .unwrap_or(server.as_ref().is_some_and(|s| s.rated_default));
        let row = self.store.create_league(
            &NewLeague {
                guild: guild.to_string(),
                channel: place.channel.clone(),
                name: name.to_string(),
                variant: vid.as_str().to_string(),
                control,
                format: format.as_str().to_string(),
                rounds,
                rated,
                schedule: schedule.to_string(),
                round_days: a.round_days,
                max_players,
                rating_min: a.rating_min,
                rating_max: a.rating_max,
                creator: u.id.to_string(),
            },
            &[],
            self.now(),
        )?;
        info!(league = row.id, "league created");
        let kind = match rounds {
            Some(r) => t!(
                lang,
                "league-format-rounds",
                format = format_word(lang, format),
                rounds = r
            ),
            None => format_word(lang, format),
        };
        Ok(Reply {
            text: t!(
                lang,
                "league-created",
                id = row.id,
                name = row.name.as_str(),
                game = refusal::variant_msg(vid).render(lang),
                kind = kind,
                clock = super::timing::control_text(lang, &row.control),
                rated = if rated {
                    t!(lang, "league-rated")
                } else {
                    t!(lang, "league-casual")
                }
            ),
            league: Some(row.id),
            ..Reply::default()
        })
    }

    fn league_list(&self, u: &User, guild: &str) -> Result<Reply, CoreError> {
        let lang = u.voice.lang;
        let rows = self.store.leagues_in(guild, 25)?;
        if rows.is_empty() {
            return Ok(Reply::text(t!(lang, "league-list-none")));
        }
        let mut text = t!(lang, "league-list-head");
        for l in rows {
            let players = self.store.league_players(l.id)?;
            text.push('\n');
            text.push_str(&t!(
                lang,
                "league-list-line",
                id = l.id,
                name = l.name.as_str(),
                game = VariantId::parse(&l.variant)
                    .map(|v| refusal::variant_msg(v).render(lang))
                    .unwrap_or_default(),
                format = format_word(lang, Format::parse(&l.format).unwrap_or(Format::RoundRobin)),
                players = players.iter().filter(|p| p.active()).count() as i64,
                status = self.status_words(lang, &l)
            ));
        }
        Ok(Reply::text(text))
    }

    fn status_words(&self, lang: Lang, l: &LeagueRow) -> String {
        match l.status {
            LeagueStatus::Open => t!(lang, "league-status-open"),
            LeagueStatus::Running => t!(
                lang,
                "league-status-running",
                round = l.round,
                rounds = l.rounds.unwrap_or(0)
            ),
            LeagueStatus::Finished => t!(lang, "league-status-finished"),
            LeagueStatus::Cancelled => t!(lang, "league-status-cancelled"),
        }
    }

    fn league_join(&self, u: &User, guild: &str, id: i64) -> Result<Reply, CoreError> {
        let lang = u.voice.lang;
        let s = self.league_here(guild, id)?;
        let l = &s.row;
        if l.status != LeagueStatus::Open {
            return user_err(msg!("league-not-open", id = id));
        }
        if self.is_computer(&u.id) {
            return user_err(msg!("league-no-computer"));
        }
        // A rating floor or cap: the player's rating in this game on this server (a player
        // who has none counts as a newcomer, 1500).
        if l.rating_min.is_some() || l.rating_max.is_some() {
            let rating = self
                .store
                .rating(&u.id, &l.variant, guild)?
                .map_or(1500.0, |r| r.rating)
                .round() as i64;
            if l.rating_min.is_some_and(|m| rating < m) || l.rating_max.is_some_and(|m| rating > m)
            {
                return user_err(msg!(
                    "league-rating-out",
                    rating = rating,
                    min = l.rating_min.map_or("-".to_string(), |m| m.to_string()),
                    max = l.rating_max.map_or("-".to_string(), |m| m.to_string())
                ));
            }
        }
        match self.store.join_league(id, &u.id, &[], self.now())? {
            Joined::Joined => {}
            Joined::AlreadyIn => return user_err(msg!("league-already-in", id = id)),
            Joined::Full => return user_err(msg!("league-full", id = id)),
            Joined::NotOpen => return user_err(msg!("league-not-open", id = id)),
        }
        let count = s.players.len() as i64 + 1;
        Ok(Reply::text(t!(
            lang,
            "league-joined",
            id = id,
            name = l.name.as_str(),
            who = self.shown_name(&u.id, Some(guild)),
            count = count
        )))
    }

    /// `leave` (the sender), or `kick` (an organiser removes `kicked`).
    fn league_leave(
        &self,
        u: &User,
        guild: &str,
        id: i64,
        kick: Option<(&Place, &str)>,
    ) -> Result<Reply, CoreError> {
        let lang = u.voice.lang;
        let s = self.league_here(guild, id)?;
        let who = match kick {
            Some((place, user)) => {
                if !self.organises(u, place, &s.row) {
                    return user_err(msg!("league-not-organiser", id = id));
                }
                user.to_string()
            }
            None => u.id.to_string(),
        };
        let name = self.shown_name(&who, Some(guild));
        let Some(me) = s.players.iter().find(|p| p.user == who) else {
            return user_err(msg!("league-not-in", id = id, who = name.as_str()));
        };
        match s.row.status {
            LeagueStatus::Open => {
                if !self.store.leave_league(id, &who, &[], self.now())? {
                    return user_err(msg!("league-not-in", id = id, who = name.as_str()));
                }
                Ok(Reply::text(t!(
                    lang,
                    "league-left",
                    id = id,
                    name = s.row.name.as_str(),
                    who = name.as_str()
                )))
            }
            LeagueStatus::Running if me.active() => {
                let status = if kick.is_some() {
                    "removed"
                } else {
                    "withdrawn"
                };
                let (settle, annulled) = self.withdrawal(&s, &who, status);
                let row = self.store.settle_league(&settle, self.now())?;
                info!(league = id, user = %who, status, "league withdrawal");
                let notify = self.advance_league_id(row.id)?;
                let mut text = t!(
                    lang,
                    if annulled {
                        "league-withdrawn-annulled"
                    } else {
                        "league-withdrawn-forfeit"
                    },
                    id = id,
                    name = s.row.name.as_str(),
                    who = name.as_str()
                );
                text.push_str(&Self::league_followups(&notify));
                Ok(Reply {
                    text,
                    notify,
                    ..Reply::default()
                })
            }
            _ => user_err(msg!("league-not-in", id = id, who = name.as_str())),
        }
    }

    /// What a withdrawal settles (see the module's rules), and whether the player's games were
    /// annulled.
    fn withdrawal(&self, s: &LeagueState, who: &str, status: &str) -> (Settle, bool) {
        let mine: Vec<&PairingRow> = s
            .pairings
            .iter()
            .filter(|p| p.second.is_some() && (p.first == who || p.second.as_deref() == Some(who)))
            .collect();
        let finished = mine.iter().filter(|p| s.decided(p)).count() as u32;
        let annul = match s.format() {
            Format::Swiss => false,
            _ => lg::round_robin_withdrawal(finished, mine.len() as u32) == lg::Withdrawal::Annul,
        };
        let mut settle = Settle {
            league: s.row.id,
            version: s.row.version,
            players: vec![(who.to_string(), status.to_string())],
            ..Settle::default()
        };
        for p in mine {
            let first_leaves = p.first == who;
            let undecided = !s.decided(p);
            let outcome = if annul {
                "annulled"
            } else if !undecided {
                continue;
            } else if first_leaves {
                "forfeit-second"
            } else {
                "forfeit-first"
            };
            // The game in progress ends: lost by the player who left. Whether it is still in
            // progress is the store's to find, in the settling transaction: a game that ended
            // on the board meanwhile keeps its result (and, unless annulled, the pairing too).
            settle.decisions.push(Decision {
                round: p.round,
                board: p.board,
                outcome: outcome.to_string(),
                end: Some(Ending {
                    result: if first_leaves {
                        GameResult::Second
                    } else {
                        GameResult::First
                    },
                    reason: FORFEIT.to_string(),
                }),
                whatever_the_game: annul,
            });
        }
        (settle, annul)
    }

    fn league_start(
        &self,
        u: &User,
        place: &Place,
        guild: &str,
        id: i64,
    ) -> Result<Reply, CoreError> {
        let lang = u.voice.lang;
        let s = self.league_here(guild, id)?;
        if !self.organises(u, place, &s.row) {
            return user_err(msg!("league-not-organiser", id = id));
        }
        if s.row.status != LeagueStatus::Open {
            return user_err(msg!("league-not-open", id = id));
        }
        let n = s.players.len();
        let least = if s.format() == Format::Swiss { 3 } else { 2 };
        if n < least {
            return user_err(msg!("league-too-few", id = id, least = least as i64));
        }
        if let Some(r) = s.row.rounds {
            if r as usize >= n {
                return user_err(msg!(
                    "league-rounds-too-many",
                    rounds = r,
                    players = n as i64
                ));
            }
        }
        // Seeds: by rating in this game on this server (newcomers 1500), then who joined first.
        let mut order: Vec<(usize, f64)> = s
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let r = self
                    .store
                    .rating(&p.user, &s.row.variant, guild)
                    .ok()
                    .flatten()
                    .map_or(1500.0, |r| r.rating);
                (i, r)
            })
            .collect();
        order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let seeds: Vec<(String, u32)> = order
            .iter()
            .enumerate()
            .map(|(seed, &(i, _))| (s.players[i].user.clone(), seed as u32))
            .collect();
        let by_seed: Vec<String> = seeds.iter().map(|(u, _)| u.clone()).collect();
        let (pairings, rounds) = match s.format() {
            Format::Swiss => {
                let entrants: Vec<lg::Entrant> = (0..n)
                    .map(|rank| lg::Entrant {
                        score2: 0,
                        rank,
                        opponents: Vec::new(),
                        colours: Vec::new(),
                        had_bye: false,
                        active: true,
                    })
                    .collect();
                let round = lg::pair(&entrants)
                    .map_err(|_| CoreError::User(msg!("league-cannot-pair", id = id)))?;
                (vec![(1, round)], None)
            }
            f => {
                let all = lg::schedule(n, f == Format::DoubleRoundRobin);
                let total = all.len() as u32;
                (
                    all.into_iter()
                        .enumerate()
                        .map(|(r, p)| (r as u32 + 1, p))
                        .collect(),
                    Some(total),
                )
            }
        };
        let now_round = if s.row.schedule == "all" && s.format() != Format::Swiss {
            rounds.unwrap_or(1)
        } else {
            1
        };
        let start = RoundPlan {
            round: now_round,
            rounds,
            seeds,
            pairings: pairings
                .into_iter()
                .flat_map(|(round, ps)| {
                    let by_seed = &by_seed;
                    ps.into_iter().enumerate().map(move |(b, p)| {
                        (
                            round,
                            b as u32 + 1,
                            by_seed[p.first].clone(),
                            p.second.map(|x| by_seed[x].clone()),
                        )
                    })
                })
                .collect(),
        };
        let created = self.start_league_round(&s, start)?;
        info!(league = id, games = created.len(), "league started");
        let notify = created;
        let mut text = t!(
            lang,
            "league-started",
            id = id,
            name = s.row.name.as_str(),
            players = n as i64
        );
        text.push_str(&Self::league_followups(&notify));
        Ok(Reply {
            text,
            notify,
            ..Reply::default()
        })
    }

    fn league_cancel(
        &self,
        u: &User,
        place: &Place,
        guild: &str,
        id: i64,
    ) -> Result<Reply, CoreError> {
        let s = self.league_here(guild, id)?;
        if !self.organises(u, place, &s.row) {
            return user_err(msg!("league-not-organiser", id = id));
        }
        if matches!(
            s.row.status,
            LeagueStatus::Finished | LeagueStatus::Cancelled
        ) {
            return user_err(msg!("league-over", id = id));
        }
        let notices = self.league_post(&s.row, |lang| {
            t!(
                lang,
                "league-cancelled",
                id = id,
                name = s.row.name.as_str()
            )
        });
        self.store.end_league(
            id,
            s.row.version,
            LeagueStatus::Cancelled,
            &to_store(&notices),
            self.now(),
        )?;
        info!(league = id, "league cancelled");
        Ok(Reply {
            text: t!(
                u.voice.lang,
                "league-cancelled",
                id = id,
                name = s.row.name.as_str()
            ),
            notify: notices,
            ..Reply::default()
        })
    }

    fn league_show(&self, u: &User, guild: &str, id: i64) -> Result<Reply, CoreError> {
        let lang = u.voice.lang;
        let s = self.league_here(guild, id)?;
        let l = &s.row;
        let game = VariantId::parse(&l.variant)
            .map(|v| refusal::variant_msg(v).render(lang))
            .unwrap_or_default();
        let mut text = t!(
            lang,
            "league-show-head",
            id = id,
            name = l.name.as_str(),
            game = game,
            format = format_word(lang, s.format()),
            clock = super::timing::control_text(lang, &l.control),
            rated = if l.rated {
                t!(lang, "league-rated")
            } else {
                t!(lang, "league-casual")
            },
            status = self.status_words(lang, l),
            organiser = self.shown_name(&l.creator, Some(guild))
        );
        text.push('\n');
        text.push_str(&self.standings_text(lang, &s));
        if l.status == LeagueStatus::Running {
            text.push('\n');
            text.push_str(&self.pairings_text(lang, &s, l.round));
        }
        // The pictures are a help: the table stands without them.
        let attachments = self.league_pictures(id, lang).unwrap_or_else(|e| {
            warn!(league = id, "cannot draw the league's pictures: {e}");
            Vec::new()
        });
        Ok(Reply {
            attachments,
            ..Reply::text(text)
        })
    }

    fn league_pairings(
        &self,
        u: &User,
        guild: &str,
        id: i64,
        round: Option<u32>,
    ) -> Result<Reply, CoreError> {
        let lang = u.voice.lang;
        let s = self.league_here(guild, id)?;
        let round = round.unwrap_or(s.row.round.max(1));
        if !s.pairings.iter().any(|p| p.round == round) {
            return user_err(msg!("league-no-round", id = id, round = round));
        }
        Ok(Reply::text(self.pairings_text(lang, &s, round)))
    }

    /// The standings as a table, in `lang`.
    pub(crate) fn standings_text(&self, lang: Lang, s: &LeagueState) -> String {
        let guild = Some(s.row.guild.as_str());
        let rows = s.standings();
        if s.players.is_empty() {
            return t!(lang, "league-no-players");
        }
        let mut out = t!(lang, "league-standings-head");
        for r in rows {
            let p = &s.players[r.player];
            let tb: Vec<String> = r
                .tiebreaks
                .iter()
                .map(|(k, v)| format!("{} {}", tiebreak_word(lang, *k), tiebreak_value(*k, *v)))
                .collect();
            out.push('\n');
            out.push_str(&t!(
                lang,
                "league-standings-line",
                place = r.place,
                name = self.shown_name(&p.user, guild),
                points = points(r.points2),
                played = r.played,
                wins = r.wins,
                draws = r.draws,
                losses = r.losses,
                tiebreaks = if tb.is_empty() {
                    String::new()
                } else {
                    t!(
                        lang,
                        "league-tiebreaks",
                        list = tb.join(&t!(lang, "list-separator"))
                    )
                },
                left = if p.active() {
                    String::new()
                } else {
                    t!(lang, "league-player-left")
                }
            ));
        }
        out
    }

    /// The league's pictures in `lang`: its standings, and a round robin's crosstable; none
    /// before the start. The standings show the first [`MAX_STANDINGS_ROWS`] players (a
    /// Swiss may have more: the text lists everyone).
    ///
    /// [`MAX_STANDINGS_ROWS`]: crate::render::league::MAX_STANDINGS_ROWS
    pub fn league_pictures(&self, id: i64, lang: Lang) -> Result<Vec<Attachment>, CoreError> {
        use crate::render::league as pic;
        let Some(s) = self.league_state(id)? else {
            return Ok(Vec::new());
        };
        if s.row.status == LeagueStatus::Open || s.players.is_empty() {
            return Ok(Vec::new());
        }
        let l = &s.row;
        let guild = Some(l.guild.as_str());
        let game = VariantId::parse(&l.variant)
            .map(|v| refusal::variant_msg(v).render(lang))
            .unwrap_or_default();
        let title = t!(
            lang,
            "league-picture-title",
            id = l.id,
            name = l.name.as_str(),
            game = game
        );
        let subtitle = match l.status {
            LeagueStatus::Finished => t!(lang, "league-picture-final"),
            LeagueStatus::Cancelled => t!(lang, "league-picture-cancelled"),
            _ => t!(
                lang,
                "league-picture-round",
                round = l.round,
                rounds = s.total_rounds()
            ),
        };
        let standings = s.standings();
        let tiebreaks: Vec<String> = standings
            .first()
            .map(|r| {
                r.tiebreaks
                    .iter()
                    .map(|(k, _)| tiebreak_word(lang, *k))
                    .collect()
            })
            .unwrap_or_default();
        let rows: Vec<pic::StandingsRow> = standings
            .iter()
            .take(pic::MAX_STANDINGS_ROWS)
            .map(|r| {
                let p = &s.players[r.player];
                pic::StandingsRow {
                    place: if p.active() {
                        r.place.to_string()
                    } else {
                        "–".into()
                    },
                    name: self.raw_name(&p.user, guild),
                    points: points(r.points2),
                    played: r.played.to_string(),
                    tiebreaks: r
                        .tiebreaks
                        .iter()
                        .map(|(k, v)| tiebreak_value(*k, *v))
                        .collect(),
                    withdrawn: !p.active(),
                }
            })
            .collect();
        let table = pic::StandingsTable {
            title: title.clone(),
            subtitle: subtitle.clone(),
            place_header: t!(lang, "league-column-place"),
            name_header: t!(lang, "league-column-player"),
            points_header: t!(lang, "league-column-points"),
            played_header: t!(lang, "league-column-played"),
            tiebreaks,
            rows,
        };
        let mut out = vec![Attachment::new(
            format!("league-{id}-standings.png"),
            pic::standings_png(&table).map_err(|e| CoreError::Internal(e.to_string()))?,
        )];
        let n = s.players.len();
        if s.format() != Format::Swiss && n <= pic::MAX_CROSSTABLE_PLAYERS {
            let cells = lg::crosstable(n, &s.played());
            let shown = |c: &[Option<u32>]| {
                c.iter()
                    .flatten()
                    .map(|&p| match p {
                        2 => "1".to_string(),
                        1 => "½".to_string(),
                        _ => "0".to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let mut totals = vec![0u32; n];
            for r in &standings {
                totals[r.player] = r.points2;
            }
            let cross = pic::Crosstable {
                title,
                subtitle: t!(lang, "league-picture-crosstable"),
                name_header: t!(lang, "league-column-player"),
                points_header: t!(lang, "league-column-points"),
                names: s
                    .players
                    .iter()
                    .map(|p| self.raw_name(&p.user, guild))
                    .collect(),
                points: totals.iter().map(|&p| points(p)).collect(),
                cells: cells
                    .iter()
                    .map(|row| row.iter().map(|c| shown(c)).collect())
                    .collect(),
            };
            out.push(Attachment::new(
                format!("league-{id}-crosstable.png"),
                pic::crosstable_png(&cross).map_err(|e| CoreError::Internal(e.to_string()))?,
            ));
        }
        Ok(out)
    }

    /// A round's pairings, in `lang`.
    pub(crate) fn pairings_text(&self, lang: Lang, s: &LeagueState, round: u32) -> String {
        let guild = Some(s.row.guild.as_str());
        let mut out = t!(lang, "league-pairings-head", id = s.row.id, round = round);
        for p in s.pairings.iter().filter(|p| p.round == round) {
            out.push('\n');
            let first = self.shown_name(&p.first, guild);
            let line = match &p.second {
                None => t!(lang, "league-pairing-bye", board = p.board, name = first),
                Some(second) => t!(
                    lang,
                    "league-pairing-line",
                    board = p.board,
                    first = first,
                    second = self.shown_name(second, guild),
                    game = p
                        .game
                        .map_or_else(|| t!(lang, "league-game-later"), |g| format!("#{g}")),
                    result = format!(" {}", outcome_words(lang, s.outcome(p)))
                ),
            };
            out.push_str(&line);
        }
        out
    }

    /// Public notices of a league: a post in its home (thread or channel), in the server's
    /// language.
    fn league_post(&self, l: &LeagueRow, text: impl FnOnce(Lang) -> String) -> Vec<Notice> {
        let Some(home) = l.thread.clone().or(l.channel.clone()) else {
            return Vec::new();
        };
        let voice = self.public_voice(Some(&l.guild));
        let id = new_notice_id();
        self.hold(id);
        vec![Notice {
            user: l.creator.clone(),
            via: Via::Post,
            channel: Some(home),
            text: text(voice.lang),
            id: Some(id),
            game: None,
            ply: None,
            league: Some(l.id),
        }]
    }

    /// The lines a reply adds for what its change set off (a round started, the league over):
    /// the public posts among `notify`, said here too.
    fn league_followups(notify: &[Notice]) -> String {
        let mut out = String::new();
        for n in notify
            .iter()
            .filter(|n| n.via == Via::Post && n.game.is_none())
        {
            out.push('\n');
            out.push_str(&n.text);
        }
        out
    }

    /// Creates a round (the pairings given; games for those to play now), with the notices to
    /// both players and the league's post; the notices, held for the caller's transport.
    fn start_league_round(
        &self,
        s: &LeagueState,
        plan: RoundPlan,
    ) -> Result<Vec<Notice>, CoreError> {
        let l = &s.row;
        let vid = VariantId::parse(&l.variant)
            .ok_or_else(|| CoreError::Internal(format!("league {}: unknown variant", l.id)))?;
        let v = Variant::get(vid);
        let start = Position::start(vid);
        let guild = Some(l.guild.as_str());
        let home = l.thread.clone().or(l.channel.clone());
        let active: Vec<&str> = s
            .players
            .iter()
            .filter(|p| p.active())
            .map(|p| p.user.as_str())
            .collect();
        let mut pairings = Vec::new();
        let mut lines = Vec::new();
        // The notices to each pairing's players, kept to hand back once their game has its
        // number.
        let mut held: Vec<(u32, u32, Vec<Notice>)> = Vec::new();
        for (round, board, first, second) in plan.pairings {
            // A game now: this round's (or every round's, `start=all`), both players still in.
            let play_now = round <= plan.round
                && second
                    .as_deref()
                    .is_some_and(|b| active.contains(&b) && active.contains(&first.as_str()));
            let already = s
                .pairings
                .iter()
                .any(|p| p.round == round && p.board == board && p.game.is_some());
            if already {
                continue;
            }
            let mut notices = Vec::new();
            let game = match (&second, play_now) {
                (Some(second), true) => {
                    let players = [first.clone(), second.clone()];
                    let mover = players[start.side_to_move().index()].clone();
                    for (me, them) in [(&first, second), (second, &first)] {
                        // Told in the league's home (`league`), though stored about the game.
                        let told = self.notice(me, home.as_ref(), guild, |names, voice| {
                            t!(
                                voice.lang,
                                "league-notice-game",
                                league = l.name.as_str(),
                                round = round,
                                game = "{game}",
                                opponent = self.shown_name(them, names),
                                side = refusal::side(
                                    voice.lang,
                                    v,
                                    if me == &first {
                                        Color::Black
                                    } else {
                                        Color::White
                                    }
                                )
                            )
                        });
                        notices.extend(told.map(|n| Notice {
                            league: Some(l.id),
                            ..n
                        }));
                    }
                    lines.push((round, board, first.clone(), Some(second.clone()), true));
                    let (deadline, turn_span, banks) = self.first_turn(&l.control, &mover)?;
                    Some(NewGame {
                        variant: vid.as_str().to_string(),
                        setup: None,
                        start_position: fen::write(&start),
                        players,
                        guild: Some(l.guild.clone()),
                        channel: l.channel.clone(),
                        rated: l.rated,
                        control: l.control,
                        deadline: Some(deadline),
                        banks,
                        turn_span,
                        to_move: mover,
                        computer_level: None,
                    })
                }
                _ => {
                    if round <= plan.round {
                        lines.push((round, board, first.clone(), second.clone(), false));
                    }
                    None
                }
            };
            pairings.push(NewPairing {
                round,
                board,
                first,
                second,
                game,
                notices: to_store(&notices),
            });
            held.push((round, board, notices));
        }
        // The league's post: the round's pairings, `{game@R.B}` the number of the game on
        // board B of round R.
        // Every round at once (`start=all`): said so, not "round N begins".
        let every_round = plan.rounds.is_some_and(|r| r > 1 && plan.round == r)
            && s.row.round == 0
            && l.schedule == "all";
        let post = self.league_post(l, |lang| {
            let mut text = if every_round {
                t!(
                    lang,
                    "league-all-rounds-begin",
                    id = l.id,
                    name = l.name.as_str(),
                    rounds = plan.round
                )
            } else {
                t!(
                    lang,
                    "league-round-begins",
                    id = l.id,
                    name = l.name.as_str(),
                    round = plan.round
                )
            };
            for (round, board, first, second, game) in &lines {
                text.push('\n');
                text.push_str(&match second {
                    None => t!(
                        lang,
                        "league-pairing-bye",
                        board = *board,
                        name = self.shown_name(first, guild)
                    ),
                    Some(second) => t!(
                        lang,
                        "league-pairing-line",
                        board = *board,
                        first = self.shown_name(first, guild),
                        second = self.shown_name(second, guild),
                        game = if *game {
                            format!("#{{game@{round}.{board}}}")
                        } else {
                            t!(lang, "league-game-later")
                        },
                        result = if plan.rounds.is_some() && plan.round > 1 && *round > 1 {
                            format!(" {}", t!(lang, "league-in-round", round = *round))
                        } else {
                            String::new()
                        }
                    ),
                });
            }
            text
        });
        let started = self.store.start_round(
            &RoundStart {
                league: l.id,
                version: l.version,
                round: plan.round,
                rounds: plan.rounds,
                seeds: plan.seeds,
                pairings,
                notices: to_store(&post),
            },
            self.now(),
        );
        let stored = match started {
            Ok(stored) => stored,
            Err(e) => {
                // Nothing stored: every notice made for the round is let go.
                for (_, _, notices) in &held {
                    self.release_all(notices);
                }
                self.release_all(&post);
                return Err(e.into());
            }
        };
        // The notices as stored: `{game}` and `{game@R.B}` filled with the games' numbers.
        let game_of = |round: u32, board: u32| {
            stored
                .iter()
                .find(|p| p.round == round && p.board == board)
                .and_then(|p| p.game)
        };
        let subst: Vec<(String, i64)> = stored
            .iter()
            .filter_map(|p| Some((format!("{{game@{}.{}}}", p.round, p.board), p.game?)))
            .collect();
        let subst: Vec<(&str, i64)> = subst.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let mut out = Vec::new();
        for (round, board, notices) in held {
            let game: Vec<(&str, i64)> = game_of(round, board)
                .map(|g| ("{game}", g))
                .into_iter()
                .collect();
            out.extend(notices.into_iter().map(|n| Notice {
                text: crate::store::fill(&n.text, &game),
                ..n
            }));
        }
        out.extend(post.into_iter().map(|n| Notice {
            text: crate::store::fill(&n.text, &subst),
            ..n
        }));
        Ok(out)
    }

    /// Moves a league on if its round is over (or past its deadline): the next round, or the
    /// end with the winner. The notices it made, held for the caller's transport. Another
    /// process (or command) that got there first is no failure: nothing is done twice.
    pub(crate) fn advance_league_id(&self, id: i64) -> Result<Vec<Notice>, CoreError> {
        let mut out = Vec::new();
        // A round can follow another at once (every game of the next one forfeited): a few.
        for _ in 0..4 {
            let Some(s) = self.league_state(id)? else {
                break;
            };
            if s.row.status != LeagueStatus::Running {
                break;
            }
            match self.advance_once(&s) {
                Ok(Some(mut notices)) => out.append(&mut notices),
                Ok(None) => break,
                Err(CoreError::User(_)) => break,
                Err(e) => {
                    // The steps before this one committed: their notices are let go for the
                    // delivery loop rather than left held.
                    self.release_all(&out);
                    return Err(e);
                }
            }
        }
        Ok(out)
    }

    /// Lets go of notices this process holds (see `delivery`): the delivery loop takes those
    /// that were stored at its next turn.
    fn release_all(&self, notices: &[Notice]) {
        let ids: Vec<i64> = notices.iter().filter_map(|n| n.id).collect();
        self.release_notices(&ids);
    }

    /// The outcome of the change that was to store `notices` (made and held before it): on
    /// success, the notices, still held, for the caller to hand on; on failure (nothing
    /// stored) they are let go, and the error returned.
    fn released_unless<T>(
        &self,
        stored: Result<T, StoreError>,
        notices: Vec<Notice>,
    ) -> Result<(T, Vec<Notice>), StoreError> {
        match stored {
            Ok(t) => Ok((t, notices)),
            Err(e) => {
                self.release_all(&notices);
                Err(e)
            }
        }
    }

    /// One step of `advance_league_id`: `None` when nothing was due.
    fn advance_once(&self, s: &LeagueState) -> Result<Option<Vec<Notice>>, CoreError> {
        let l = &s.row;
        let open = s.open_pairings();
        if !open.is_empty() {
            let due = match (l.round_days, l.round_started_at) {
                (Some(d), Some(at)) => self.now() >= at + i64::from(d) * DAY,
                _ => false,
            };
            if !due {
                return Ok(None);
            }
            // The round's deadline: unfinished games are adjudicated draws.
            let mut settle = Settle {
                league: l.id,
                version: l.version,
                ..Settle::default()
            };
            for p in open {
                // A game that ends on the board before this commits keeps its result (the
                // store looks at it in the settling transaction).
                settle.decisions.push(Decision {
                    round: p.round,
                    board: p.board,
                    outcome: "adjudicated-draw".to_string(),
                    end: Some(Ending {
                        result: GameResult::Draw,
                        reason: ADJUDICATION.to_string(),
                    }),
                    whatever_the_game: false,
                });
            }
            let post = self.league_post(l, |lang| {
                t!(
                    lang,
                    "league-adjudicated",
                    name = l.name.as_str(),
                    round = l.round
                )
            });
            settle.notices = to_store(&post);
            let settled = self.store.settle_league(&settle, self.now());
            // The post, held since it was made, goes back with the others for delivery (or
            // is let go when nothing was stored): never left held until the hold lapses.
            return match self.released_unless(settled, post) {
                Ok((_, post)) => Ok(Some(post)),
                Err(e) => Err(e.into()),
            };
        }
        let total = s.total_rounds();
        if l.round >= total {
            return self.finish_league(s).map(Some);
        }
        let next = l.round + 1;
        let pairings: Vec<(u32, u32, String, Option<String>)> = match s.format() {
            Format::Swiss => {
                let standings = s.standings();
                let mut score = vec![0; s.players.len()];
                for r in &standings {
                    score[r.player] = r.points2;
                }
                let played = s.played();
                let entrants: Vec<lg::Entrant> = s
                    .players
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let mut opponents = Vec::new();
                        let mut colours = Vec::new();
                        let mut had_bye = false;
                        for g in played.iter().filter(|g| g.outcome != lg::Outcome::Annulled) {
                            let (side, other) = match g.pairing {
                                lg::Pairing { first, second } if first == i => {
                                    (lg::Side::First, second)
                                }
                                lg::Pairing {
                                    first,
                                    second: Some(second),
                                } if second == i => (lg::Side::Second, Some(first)),
                                _ => continue,
                            };
                            match other {
                                None => had_bye = true,
                                Some(o) => {
                                    opponents.push(o);
                                    let on_board = !matches!(
                                        g.outcome,
                                        lg::Outcome::FirstWinsByForfeit
                                            | lg::Outcome::SecondWinsByForfeit
                                    );
                                    if on_board {
                                        colours.push(side);
                                    }
                                }
                            }
                        }
                        lg::Entrant {
                            score2: score[i],
                            rank: p.seed.map_or(i, |s| s as usize),
                            opponents,
                            colours,
                            had_bye,
                            active: p.active(),
                        }
                    })
                    .collect();
                if entrants.iter().filter(|e| e.active).count() < 2 {
                    return self.finish_league(s).map(Some);
                }
                match lg::pair(&entrants) {
                    Ok(round) => round
                        .into_iter()
                        .enumerate()
                        .map(|(b, p)| {
                            (
                                next,
                                b as u32 + 1,
                                s.players[p.first].user.clone(),
                                p.second.map(|x| s.players[x].user.clone()),
                            )
                        })
                        .collect(),
                    Err(_) => {
                        // No pairing keeps the rules (every remaining pairing a repeat): the
                        // league ends here, said so.
                        warn!(
                            league = l.id,
                            round = next,
                            "no Swiss pairing: the league ends"
                        );
                        return self.finish_league(s).map(Some);
                    }
                }
            }
            _ => s
                .pairings
                .iter()
                .filter(|p| p.round == next)
                .map(|p| (p.round, p.board, p.first.clone(), p.second.clone()))
                .collect(),
        };
        let notices = self.start_league_round(
            s,
            RoundPlan {
                round: next,
                rounds: None,
                seeds: Vec::new(),
                pairings,
            },
        )?;
        Ok(Some(notices))
    }

    /// Ends a league whose last round is over: the final standings, the winner.
    fn finish_league(&self, s: &LeagueState) -> Result<Vec<Notice>, CoreError> {
        let l = &s.row;
        let guild = Some(l.guild.as_str());
        let standings = s.standings();
        let winners: Vec<String> = standings
            .iter()
            .filter(|r| r.place == 1)
            .map(|r| self.shown_name(&s.players[r.player].user, guild))
            .collect();
        let post = self.league_post(l, |lang| {
            let mut text = t!(
                lang,
                "league-finished",
                id = l.id,
                name = l.name.as_str(),
                winner = winners.join(&t!(lang, "list-separator"))
            );
            text.push('\n');
            text.push_str(&self.standings_text(lang, s));
            text
        });
        let ended = self.store.end_league(
            l.id,
            l.version,
            LeagueStatus::Finished,
            &to_store(&post),
            self.now(),
        );
        let (_, post) = self.released_unless(ended, post)?;
        info!(league = l.id, "league finished");
        Ok(post)
    }

    /// After a game ended: if it is a league's, the league's post (the result and the leader)
    /// and whatever the league does next. Two games of a league ending at once both post their
    /// result: the one that finds the league moved on reads it again. Best effort past that: a
    /// failure is logged, and the sweep moves the league on.
    pub(crate) fn after_league_game(&self, game: i64) -> Vec<Notice> {
        // `Ok(None)`: the league changed since it was read; read it again.
        let run = || -> Result<Option<Vec<Notice>>, CoreError> {
            let Some(p) = self.store.pairing_of_game(game)? else {
                return Ok(Some(Vec::new()));
            };
            let Some(s) = self.league_state(p.league)? else {
                return Ok(Some(Vec::new()));
            };
            if s.row.status != LeagueStatus::Running {
                return Ok(Some(Vec::new()));
            }
            let guild = Some(s.row.guild.as_str());
            let standings = s.standings();
            let leader = standings
                .first()
                .map(|r| (self.shown_name(&s.players[r.player].user, guild), r.points2));
            let post = self.league_post(&s.row, |lang| {
                let mut text = t!(
                    lang,
                    "league-result",
                    name = s.row.name.as_str(),
                    round = p.round,
                    game = game,
                    first = self.shown_name(&p.first, guild),
                    second = p
                        .second
                        .as_deref()
                        .map(|x| self.shown_name(x, guild))
                        .unwrap_or_default(),
                    result = outcome_words(lang, s.outcome(&p))
                );
                if let Some((name, pts)) = &leader {
                    text.push(' ');
                    text.push_str(&t!(
                        lang,
                        "league-leader",
                        name = name.as_str(),
                        points = points(*pts)
                    ));
                }
                text
            });
            let settle = Settle {
                league: s.row.id,
                version: s.row.version,
                notices: to_store(&post),
                ..Settle::default()
            };
            let mut out =
                match self.released_unless(self.store.settle_league(&settle, self.now()), post) {
                    Ok((_, post)) => post,
                    Err(StoreError::Conflict | StoreError::Stale) => return Ok(None),
                    Err(e) => return Err(e.into()),
                };
            match self.advance_league_id(s.row.id) {
                Ok(more) => out.extend(more),
                Err(e) => {
                    // The result's post is stored: let go for the delivery loop.
                    self.release_all(&out);
                    return Err(e);
                }
            }
            Ok(Some(out))
        };
        for _ in 0..8 {
            match run() {
                Ok(Some(n)) => return n,
                Ok(None) => continue,
                Err(e) => {
                    warn!(
                        game,
                        "league follow-up of a game failed (the sweep moves the league on): {e}"
                    );
                    return Vec::new();
                }
            }
        }
        warn!(
            game,
            "league follow-up of a game gave up: the league kept changing"
        );
        Vec::new()
    }

    /// The sweep's part: every running league whose round is over or past its deadline moves
    /// on. The notices made, for delivery.
    pub(crate) fn sweep_leagues(&self) -> Result<Vec<Notice>, CoreError> {
        let mut out = Vec::new();
        for l in self.store.running_leagues(500)? {
            match self.advance_league_id(l.id) {
                Ok(mut n) => out.append(&mut n),
                Err(e) => warn!(league = l.id, "league not advanced: {e}"),
            }
        }
        Ok(out)
    }
}

/// A round to create: its number (the rounds up to it get games), the rounds of a round robin
/// (set at the start), the seeds (the start), and the pairings to store (round, board, first,
/// second).
struct RoundPlan {
    round: u32,
    rounds: Option<u32>,
    seeds: Vec<(String, u32)>,
    pairings: Vec<(u32, u32, String, Option<String>)>,
}

/// A tie-break's value as players write it: Sonneborn-Berger counts quarter points (half of a
/// drawn opponent's 1½ is ¾), the others half points.
fn tiebreak_value(t: lg::Tiebreak, v: u32) -> String {
    let per = t.per_point().max(1);
    let frac = match (v % per) * 4 / per {
        1 => "¼",
        2 => "½",
        3 => "¾",
        _ => "",
    };
    match (v / per, frac) {
        (0, f) if !f.is_empty() => f.to_string(),
        (n, f) => format!("{n}{f}"),
    }
}

fn tiebreak_word(lang: Lang, t: lg::Tiebreak) -> String {
    match t {
        lg::Tiebreak::SonnebornBerger => t!(lang, "league-tb-sb"),
        lg::Tiebreak::Buchholz => t!(lang, "league-tb-buchholz"),
        lg::Tiebreak::BuchholzCut1 => t!(lang, "league-tb-buchholz-cut-1"),
        lg::Tiebreak::HeadToHead => t!(lang, "league-tb-head-to-head"),
    }
}

fn outcome_words(lang: Lang, o: lg::Outcome) -> String {
    match o {
        lg::Outcome::Pending => t!(lang, "league-result-pending"),
        lg::Outcome::FirstWins => "1-0".to_string(),
        lg::Outcome::SecondWins => "0-1".to_string(),
        lg::Outcome::Draw => "½-½".to_string(),
        lg::Outcome::FirstWinsByForfeit => t!(lang, "league-result-forfeit", score = "1-0"),
        lg::Outcome::SecondWinsByForfeit => t!(lang, "league-result-forfeit", score = "0-1"),
        lg::Outcome::Annulled => t!(lang, "league-result-annulled"),
        lg::Outcome::Bye => t!(lang, "league-result-bye"),
    }
}
