//! Leagues in SQLite (see `store::league`): one writer at a time, so a round is created once by
//! the version check alone.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::{end_game, get_game, insert_game, queue, queue_about_game, queue_with, SqliteStore};
use crate::store::league::*;
use crate::store::{Finish, NewNotice, Result, StoreError, TimeControl};

const LEAGUE_COLUMNS: &str = "id, guild, channel, thread, name, variant, days_per_move, format, \
    rounds, rated, schedule, round_days, max_players, rating_min, rating_max, creator, status, \
    round, round_started_at, created_at, started_at, finished_at, version, clock, increment_days, \
    cap_days, period_days";

const PAIRING_COLUMNS: &str = "league, round, board, first, second, game_id, outcome";

fn league_row(r: &Row) -> rusqlite::Result<LeagueRow> {
    let status: String = r.get(16)?;
    Ok(LeagueRow {
        id: r.get(0)?,
        guild: r.get(1)?,
        channel: r.get(2)?,
        thread: r.get(3)?,
        name: r.get(4)?,
        variant: r.get(5)?,
        control: TimeControl::from_columns(
            &r.get::<_, String>(23)?,
            r.get(6)?,
            r.get(24)?,
            r.get(25)?,
            r.get(26)?,
        ),
        format: r.get(7)?,
        rounds: r.get(8)?,
        rated: r.get(9)?,
        schedule: r.get(10)?,
        round_days: r.get(11)?,
        max_players: r.get(12)?,
        rating_min: r.get(13)?,
        rating_max: r.get(14)?,
        creator: r.get(15)?,
        status: LeagueStatus::parse(&status).ok_or_else(|| {
            rusqlite::Error::FromSqlConversionFailure(
                16,
                rusqlite::types::Type::Text,
                format!("league status {status:?}").into(),
            )
        })?,
        round: r.get(17)?,
        round_started_at: r.get(18)?,
        created_at: r.get(19)?,
        started_at: r.get(20)?,
        finished_at: r.get(21)?,
        version: r.get(22)?,
    })
}

fn player_row(r: &Row) -> rusqlite::Result<LeaguePlayerRow> {
    Ok(LeaguePlayerRow {
        league: r.get(0)?,
        user: r.get(1)?,
        joined_at: r.get(2)?,
        status: r.get(3)?,
        left_at: r.get(4)?,
        seed: r.get(5)?,
    })
}

fn pairing_row(r: &Row) -> rusqlite::Result<PairingRow> {
    Ok(PairingRow {
        league: r.get(0)?,
        round: r.get(1)?,
        board: r.get(2)?,
        first: r.get(3)?,
        second: r.get(4)?,
        game: r.get(5)?,
        outcome: r.get(6)?,
    })
}

fn get_league(c: &Connection, id: i64) -> Result<Option<LeagueRow>> {
    Ok(c.query_row(
        &format!("SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?1"),
        [id],
        league_row,
    )
    .optional()?)
}

/// Moves the league on from `version` (every change does): `Conflict` if it already moved.
fn bump_league(c: &Connection, id: i64, version: i64) -> Result<()> {
    let n = c.execute(
        "UPDATE leagues SET version = version + 1 WHERE id = ?1 AND version = ?2",
        params![id, version],
    )?;
    match n {
        1 => Ok(()),
        _ if get_league(c, id)?.is_none() => Err(StoreError::NotFound),
        _ => Err(StoreError::Conflict),
    }
}

impl LeagueStore for SqliteStore {
    fn create_league(&self, l: &NewLeague, notices: &[NewNotice], now: i64) -> Result<LeagueRow> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO leagues (guild, channel, name, variant, days_per_move, format, rounds,
                    rated, schedule, round_days, max_players, rating_min, rating_max, creator,
                    status, created_at, clock, increment_days, cap_days, period_days)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 'open', ?15,
                    ?16, ?17, ?18, ?19)",
                params![
                    l.guild,
                    l.channel,
                    l.name,
                    l.variant,
                    l.control.days,
                    l.format,
                    l.rounds,
                    l.rated,
                    l.schedule,
                    l.round_days,
                    l.max_players,
                    l.rating_min,
                    l.rating_max,
                    l.creator,
                    now,
                    l.control.kind.as_str(),
                    l.control.increment,
                    l.control.cap,
                    l.control.period
                ],
            )?;
            let id = tx.last_insert_rowid();
            queue_with(tx, &self.holder, notices, None, &[("{league}", id)], now)?;
            get_league(tx, id)?.ok_or(StoreError::NotFound)
        })
    }

    fn league(&self, id: i64) -> Result<Option<LeagueRow>> {
        self.with(|c| get_league(c, id))
    }

    fn leagues_in(&self, guild: &str, limit: usize) -> Result<Vec<LeagueRow>> {
        self.with(|c| {
            let mut st = c.prepare(&format!(
                "SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild = ?1 ORDER BY id DESC LIMIT ?2"
            ))?;
            let rows = st.query_map(params![guild, limit as i64], league_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn running_leagues(&self, limit: usize) -> Result<Vec<LeagueRow>> {
        self.with(|c| {
            let mut st = c.prepare(&format!(
                "SELECT {LEAGUE_COLUMNS} FROM leagues WHERE status = 'running' ORDER BY id LIMIT ?1"
            ))?;
            let rows = st.query_map([limit as i64], league_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn league_players(&self, league: i64) -> Result<Vec<LeaguePlayerRow>> {
        self.with(|c| {
            let mut st = c.prepare(
                "SELECT league, user_id, joined_at, status, left_at, seed FROM league_players
                 WHERE league = ?1 ORDER BY joined_at, user_id",
            )?;
            let rows = st.query_map([league], player_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn join_league(
        &self,
        league: i64,
        user: &str,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<Joined> {
        self.write(|tx| {
            let l = get_league(tx, league)?.ok_or(StoreError::NotFound)?;
            if l.status != LeagueStatus::Open {
                return Ok(Joined::NotOpen);
            }
            let (count, me): (i64, i64) = tx.query_row(
                "SELECT COUNT(*), COALESCE(SUM(user_id = ?2), 0) FROM league_players
                 WHERE league = ?1",
                params![league, user],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            if me > 0 {
                return Ok(Joined::AlreadyIn);
            }
            if l.max_players.is_some_and(|m| count >= i64::from(m)) {
                return Ok(Joined::Full);
            }
            tx.execute(
                "INSERT INTO league_players (league, user_id, joined_at) VALUES (?1, ?2, ?3)",
                params![league, user, now],
            )?;
            bump_league(tx, league, l.version)?;
            queue(tx, &self.holder, notices, now)?;
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
        self.write(|tx| {
            let l = get_league(tx, league)?.ok_or(StoreError::NotFound)?;
            if l.status != LeagueStatus::Open {
                return Ok(false);
            }
            let n = tx.execute(
                "DELETE FROM league_players WHERE league = ?1 AND user_id = ?2",
                params![league, user],
            )?;
            if n == 0 {
                return Ok(false);
            }
            bump_league(tx, league, l.version)?;
            queue(tx, &self.holder, notices, now)?;
            Ok(true)
        })
    }

    fn pairings(&self, league: i64) -> Result<Vec<PairingRow>> {
        self.with(|c| {
            let mut st = c.prepare(&format!(
                "SELECT {PAIRING_COLUMNS} FROM league_pairings WHERE league = ?1
                 ORDER BY round, board"
            ))?;
            let rows = st.query_map([league], pairing_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn pairing_of_game(&self, game: i64) -> Result<Option<PairingRow>> {
        self.with(|c| {
            Ok(c.query_row(
                &format!("SELECT {PAIRING_COLUMNS} FROM league_pairings WHERE game_id = ?1"),
                [game],
                pairing_row,
            )
            .optional()?)
        })
    }

    fn start_round(&self, r: &RoundStart, now: i64) -> Result<Vec<PairingRow>> {
        self.write(|tx| {
            bump_league(tx, r.league, r.version)?;
            tx.execute(
                "UPDATE leagues SET status = 'running', round = ?2, round_started_at = ?3,
                    started_at = COALESCE(started_at, ?3), rounds = COALESCE(?4, rounds)
                 WHERE id = ?1",
                params![r.league, r.round, now, r.rounds],
            )?;
            for (user, seed) in &r.seeds {
                tx.execute(
                    "UPDATE league_players SET seed = ?3 WHERE league = ?1 AND user_id = ?2",
                    params![r.league, user, seed],
                )?;
            }
            let mut boards: Vec<(String, i64)> = Vec::new();
            for p in &r.pairings {
                let game = match &p.game {
                    Some(g) => {
                        let id = insert_game(tx, g, now)?;
                        queue_about_game(tx, &self.holder, &p.notices, id, now)?;
                        boards.push((format!("{{game@{}.{}}}", p.round, p.board), id));
                        Some(id)
                    }
                    None => {
                        queue(tx, &self.holder, &p.notices, now)?;
                        None
                    }
                };
                // A stored pairing (a later round's) gets its game once: one that has a game
                // already (or a board given twice) is refused, never pointed at another game,
                // which would leave the first a game of no pairing.
                let n = tx.execute(
                    "INSERT INTO league_pairings (league, round, board, first, second, game_id)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                     ON CONFLICT (league, round, board) DO UPDATE SET game_id = excluded.game_id
                     WHERE league_pairings.game_id IS NULL",
                    params![r.league, p.round, p.board, p.first, p.second, game],
                )?;
                if n != 1 {
                    return Err(StoreError::Invalid(format!(
                        "league {}: round {} board {} has its game already",
                        r.league, p.round, p.board
                    )));
                }
            }
            let subst: Vec<(&str, i64)> = boards.iter().map(|(k, v)| (k.as_str(), *v)).collect();
            queue_with(tx, &self.holder, &r.notices, None, &subst, now)?;
            let mut st = tx.prepare(&format!(
                "SELECT {PAIRING_COLUMNS} FROM league_pairings WHERE league = ?1
                 ORDER BY round, board"
            ))?;
            let rows = st.query_map([r.league], pairing_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn settle_league(&self, s: &Settle, now: i64) -> Result<LeagueRow> {
        self.write(|tx| {
            bump_league(tx, s.league, s.version)?;
            for (user, status) in &s.players {
                tx.execute(
                    "UPDATE league_players SET status = ?3, left_at = ?4
                     WHERE league = ?1 AND user_id = ?2",
                    params![s.league, user, status, now],
                )?;
            }
            for (round, board, outcome) in &s.outcomes {
                tx.execute(
                    "UPDATE league_pairings SET outcome = ?4
                     WHERE league = ?1 AND round = ?2 AND board = ?3",
                    params![s.league, round, board, outcome],
                )?;
            }
            for (game, ending) in &s.ends {
                // A game that ended meanwhile keeps its own result.
                if get_game(tx, *game)?
                    .is_some_and(|g| g.status == crate::store::GameStatus::Active)
                {
                    let finish = Finish {
                        ending,
                        notices: &[],
                        ratings: Vec::new(),
                    };
                    end_game(tx, &self.holder, *game, &finish, now)?;
                }
            }
            queue(tx, &self.holder, &s.notices, now)?;
            get_league(tx, s.league)?.ok_or(StoreError::NotFound)
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
        self.write(|tx| {
            bump_league(tx, league, version)?;
            tx.execute(
                "UPDATE leagues SET status = ?2, finished_at = ?3 WHERE id = ?1",
                params![league, status.as_str(), now],
            )?;
            queue(tx, &self.holder, notices, now)?;
            get_league(tx, league)?.ok_or(StoreError::NotFound)
        })
    }

    fn set_league_thread(&self, league: i64, thread: Option<&str>) -> Result<()> {
        self.write(|tx| {
            tx.execute(
                "UPDATE leagues SET thread = ?2 WHERE id = ?1",
                params![league, thread],
            )?;
            Ok(())
        })
    }
}
