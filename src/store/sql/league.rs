//! Leagues (see `store::league`), for any [`Backend`]. Every change moves the league's version
//! on, so a round is created exactly once however many processes try. On PostgreSQL, where
//! several processes may try to start the same round at once (each sweep finds it due), the
//! league's row is taken `FOR UPDATE SKIP LOCKED`: a process that finds it held leaves it to
//! the holder (`Conflict`) instead of waiting, and the version check makes the round once even
//! for one that read it before the holder committed. SQLite lets one writer in at a time, so
//! the version check alone does it there. A settlement looks at each pairing's game inside its
//! own transaction (the game's row held on PostgreSQL): a game still active ends there, its
//! version moved on; one that ended on the board meanwhile keeps its result, and so does its
//! pairing (unless annulled).

use super::rows::*;
use super::stores::returned_id;
use super::stores::{end_if_active, insert_game, queue, queue_about_game, queue_with};
use super::{args, Backend, Exec};
use crate::store::league::*;
use crate::store::{Finish, GameStatus, NewNotice, Result, StoreError};

fn get_league(c: &mut dyn Exec, id: i64) -> Result<Option<LeagueRow>> {
    c.one(
        &format!("SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = $1"),
        args![id],
        league_row,
    )
}

/// The league, its row held for this transaction (PostgreSQL): two joins at once count the
/// players one after the other.
fn held_league(c: &mut dyn Exec, id: i64) -> Result<LeagueRow> {
    c.one(
        &format!("SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = $1 {{for update}}"),
        args![id],
        league_row,
    )?
    .ok_or(StoreError::NotFound)
}

/// Takes the league at `version` for this transaction and moves it on: `Conflict` if it moved
/// on already or another transaction holds it now (that one decides).
fn bump_league(c: &mut dyn Exec, id: i64, version: i64) -> Result<()> {
    let held = c.one(
        "SELECT version FROM leagues WHERE id = $1 {for update skip locked}",
        args![id],
        |r| r.get::<i64>(0),
    )?;
    match held {
        Some(v) if v == version => {
            c.execute(
                "UPDATE leagues SET version = version + 1 WHERE id = $1",
                args![id],
            )?;
            Ok(())
        }
        Some(_) => Err(StoreError::Conflict),
        None if get_league(c, id)?.is_none() => Err(StoreError::NotFound),
        None => Err(StoreError::Conflict),
    }
}

/// The league's pairings, by round and board.
fn get_pairings(c: &mut dyn Exec, league: i64) -> Result<Vec<PairingRow>> {
    c.all(
        &format!(
            "SELECT {PAIRING_COLUMNS} FROM league_pairings WHERE league = $1 ORDER BY round, board"
        ),
        args![league],
        pairing_row,
    )
}

impl<B: Backend> LeagueStore for B {
    fn create_league(&self, l: &NewLeague, notices: &[NewNotice], now: i64) -> Result<LeagueRow> {
        self.write(|c| {
            let id = returned_id(c.query(
                "INSERT INTO leagues (guild, channel, name, variant, days_per_move, format, rounds,
                    rated, schedule, round_days, max_players, rating_min, rating_max, creator,
                    status, created_at, clock, increment_days, cap_days, period_days)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'open', $15,
                    $16, $17, $18, $19)
                 RETURNING id",
                args![
                    &l.guild,
                    &l.channel,
                    &l.name,
                    &l.variant,
                    l.control.days,
                    &l.format,
                    l.rounds,
                    l.rated,
                    &l.schedule,
                    l.round_days,
                    l.max_players,
                    l.rating_min,
                    l.rating_max,
                    &l.creator,
                    now,
                    l.control.kind.as_str(),
                    l.control.increment,
                    l.control.cap,
                    l.control.period,
                ],
            )?)?;
            queue_with(c, self.holder(), notices, None, &[("{league}", id)], now)?;
            get_league(c, id)?.ok_or(StoreError::NotFound)
        })
    }

    fn league(&self, id: i64) -> Result<Option<LeagueRow>> {
        self.read(|c| get_league(c, id))
    }

    fn leagues_in(&self, guild: &str, limit: usize) -> Result<Vec<LeagueRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild = $1
                     ORDER BY id DESC LIMIT $2"
                ),
                args![guild, limit],
                league_row,
            )
        })
    }

    fn running_leagues(&self, limit: usize) -> Result<Vec<LeagueRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {LEAGUE_COLUMNS} FROM leagues WHERE status = 'running'
                     ORDER BY id LIMIT $1"
                ),
                args![limit],
                league_row,
            )
        })
    }

    fn league_players(&self, league: i64) -> Result<Vec<LeaguePlayerRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {PLAYER_COLUMNS} FROM league_players WHERE league = $1
                     ORDER BY joined_at, user_id"
                ),
                args![league],
                player_row,
            )
        })
    }

    fn join_league(
        &self,
        league: i64,
        user: &str,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<Joined> {
        self.write(|c| {
            let l = held_league(c, league)?;
            if l.status != LeagueStatus::Open {
                return Ok(Joined::NotOpen);
            }
            let (n, me) = c
                .one(
                    "SELECT COUNT(*), COUNT(*) FILTER (WHERE user_id = $2) FROM league_players
                     WHERE league = $1",
                    args![league, user],
                    |r| Ok((r.get::<i64>(0)?, r.get::<i64>(1)?)),
                )?
                .unwrap_or((0, 0));
            if me > 0 {
                return Ok(Joined::AlreadyIn);
            }
            if l.max_players.is_some_and(|m| n >= i64::from(m)) {
                return Ok(Joined::Full);
            }
            c.execute(
                "INSERT INTO league_players (league, user_id, joined_at) VALUES ($1, $2, $3)",
                args![league, user, now],
            )?;
            c.execute(
                "UPDATE leagues SET version = version + 1 WHERE id = $1",
                args![league],
            )?;
            queue(c, self.holder(), notices, now)?;
            Ok(Joined::Joined)
        })
    }

    fn leave_league(
        &self,
        league: i64,
        user: &str,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<bool> {
        self.write(|c| {
            let l = held_league(c, league)?;
            if l.status != LeagueStatus::Open {
                return Ok(false);
            }
            let n = c.execute(
                "DELETE FROM league_players WHERE league = $1 AND user_id = $2",
                args![league, user],
            )?;
            if n == 0 {
                return Ok(false);
            }
            c.execute(
                "UPDATE leagues SET version = version + 1 WHERE id = $1",
                args![league],
            )?;
            queue(c, self.holder(), notices, now)?;
            Ok(true)
        })
    }

    fn pairings(&self, league: i64) -> Result<Vec<PairingRow>> {
        self.read(|c| get_pairings(c, league))
    }

    fn pairing_of_game(&self, game: i64) -> Result<Option<PairingRow>> {
        self.read(|c| {
            c.one(
                &format!("SELECT {PAIRING_COLUMNS} FROM league_pairings WHERE game_id = $1"),
                args![game],
                pairing_row,
            )
        })
    }

    fn start_round(&self, r: &RoundStart, now: i64) -> Result<Vec<PairingRow>> {
        self.write(|c| {
            bump_league(c, r.league, r.version)?;
            c.execute(
                "UPDATE leagues SET status = 'running', round = $2, round_started_at = $3,
                    started_at = COALESCE(started_at, $3), rounds = COALESCE($4, rounds)
                 WHERE id = $1",
                args![r.league, r.round, now, r.rounds],
            )?;
            for (user, seed) in &r.seeds {
                c.execute(
                    "UPDATE league_players SET seed = $3 WHERE league = $1 AND user_id = $2",
                    args![r.league, user, seed],
                )?;
            }
            let mut boards: Vec<(String, i64)> = Vec::new();
            for p in &r.pairings {
                let game = match &p.game {
                    Some(g) => {
                        let id = insert_game(c, g, now)?;
                        queue_about_game(c, self.holder(), &p.notices, id, now)?;
                        boards.push((format!("{{game@{}.{}}}", p.round, p.board), id));
                        Some(id)
                    }
                    None => {
                        queue(c, self.holder(), &p.notices, now)?;
                        None
                    }
                };
                // A stored pairing (a later round's) gets its game once: one that has a game
                // already (or a board given twice) is refused, never pointed at another game,
                // which would leave the first a game of no pairing.
                let n = c.execute(
                    "INSERT INTO league_pairings (league, round, board, first, second, game_id)
                     VALUES ($1, $2, $3, $4, $5, $6)
                     ON CONFLICT (league, round, board) DO UPDATE SET game_id = excluded.game_id
                     WHERE league_pairings.game_id IS NULL",
                    args![r.league, p.round, p.board, &p.first, &p.second, game],
                )?;
                if n != 1 {
                    return Err(StoreError::Invalid(format!(
                        "league {}: round {} board {} has its game already",
                        r.league, p.round, p.board
                    )));
                }
            }
            let subst: Vec<(&str, i64)> = boards.iter().map(|(k, v)| (k.as_str(), *v)).collect();
            queue_with(c, self.holder(), &r.notices, None, &subst, now)?;
            get_pairings(c, r.league)
        })
    }

    fn settle_league(&self, s: &Settle, now: i64) -> Result<LeagueRow> {
        self.write(|c| {
            bump_league(c, s.league, s.version)?;
            for (user, status) in &s.players {
                c.execute(
                    "UPDATE league_players SET status = $3, left_at = $4
                     WHERE league = $1 AND user_id = $2",
                    args![s.league, user, status, now],
                )?;
            }
            for d in &s.decisions {
                let at = args![s.league, d.round, d.board];
                let game: Option<i64> = c
                    .one(
                        "SELECT game_id FROM league_pairings
                         WHERE league = $1 AND round = $2 AND board = $3",
                        at,
                        |r| r.get::<Option<i64>>(0),
                    )?
                    .flatten();
                // The game as it is now, held for this transaction (PostgreSQL: a move or a
                // takeback of it in progress is waited for, and one that comes later finds
                // it moved on); not as the core read it before.
                let status: Option<String> = match game {
                    Some(id) => c.one(
                        "SELECT status FROM games WHERE id = $1 {for update}",
                        args![id],
                        |r| r.get(0),
                    )?,
                    None => None,
                };
                let undecided = match (status.as_deref(), game) {
                    // No game (a bye, a game never made, or gone): the league decides.
                    (None, _) | (_, None) => true,
                    (Some(s), Some(id)) if s == GameStatus::Active.as_str() => {
                        if let Some(ending) = &d.end {
                            let finish = Finish {
                                ending,
                                notices: &[],
                                ratings: Vec::new(),
                            };
                            end_if_active(c, self.holder(), id, &finish, now)?;
                        }
                        true
                    }
                    // Ended on the board meanwhile: it keeps its result, the pairing its
                    // game's.
                    (Some(_), Some(_)) => false,
                };
                if undecided || d.whatever_the_game {
                    let mut set = at.to_vec();
                    set.push(d.outcome.as_str().into());
                    c.execute(
                        "UPDATE league_pairings SET outcome = $4
                         WHERE league = $1 AND round = $2 AND board = $3",
                        &set,
                    )?;
                }
            }
            queue(c, self.holder(), &s.notices, now)?;
            get_league(c, s.league)?.ok_or(StoreError::NotFound)
        })
    }

    fn end_league(
        &self,
        league: i64,
        version: i64,
        status: LeagueStatus,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<LeagueRow> {
        self.write(|c| {
            bump_league(c, league, version)?;
            c.execute(
                "UPDATE leagues SET status = $2, finished_at = $3 WHERE id = $1",
                args![league, status.as_str(), now],
            )?;
            queue(c, self.holder(), notices, now)?;
            get_league(c, league)?.ok_or(StoreError::NotFound)
        })
    }

    fn set_league_thread(&self, league: i64, thread: Option<&str>) -> Result<()> {
        self.single(|c| {
            c.execute(
                "UPDATE leagues SET thread = $2 WHERE id = $1",
                args![league, thread],
            )?;
            Ok(())
        })
    }
}
