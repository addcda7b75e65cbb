//! Leagues in PostgreSQL (see `store::league`). Several processes may try to start the same
//! round at once (each sweep finds it due): the league's row is taken `FOR UPDATE SKIP LOCKED`,
//! so a process that finds it held leaves it to the holder (`Conflict`) instead of waiting, and
//! the version check makes the round exactly once even for one that read it before the holder
//! committed.

use ::postgres::Row;

use super::{all, count, end_game, get_game, insert_game, one, queue, queue_about_game};
use super::{queue_with, PgStore, Sql};
use crate::store::league::*;
use crate::store::{Finish, GameStatus, NewNotice, Result, StoreError, TimeControl};

const LEAGUE_COLUMNS: &str = "id, guild, channel, thread, name, variant, days_per_move, format, \
    rounds, rated, schedule, round_days, max_players, rating_min, rating_max, creator, status, \
    round, round_started_at, created_at, started_at, finished_at, version, clock, increment_days, \
    cap_days, period_days";

const PAIRING_COLUMNS: &str = "league, round, board, first, second, game_id, outcome";

fn opt_count(r: &Row, i: usize) -> Result<Option<u32>> {
    let v: Option<i64> = r.try_get(i)?;
    v.map(|v| u32::try_from(v).map_err(|_| StoreError::Invalid(format!("column {i}: {v}"))))
        .transpose()
}

fn league_row(r: &Row) -> Result<LeagueRow> {
    let status: String = r.try_get(16)?;
    Ok(LeagueRow {
        id: r.try_get(0)?,
        guild: r.try_get(1)?,
        channel: r.try_get(2)?,
        thread: r.try_get(3)?,
        name: r.try_get(4)?,
        variant: r.try_get(5)?,
        control: TimeControl::from_columns(
            &r.try_get::<_, String>(23)?,
            count(r, 6)?,
            count(r, 24)?,
            count(r, 25)?,
            count(r, 26)?,
        ),
        format: r.try_get(7)?,
        rounds: opt_count(r, 8)?,
        rated: r.try_get(9)?,
        schedule: r.try_get(10)?,
        round_days: opt_count(r, 11)?,
        max_players: opt_count(r, 12)?,
        rating_min: r.try_get(13)?,
        rating_max: r.try_get(14)?,
        creator: r.try_get(15)?,
        status: LeagueStatus::parse(&status)
            .ok_or_else(|| StoreError::Invalid(format!("league status {status:?}")))?,
        round: count(r, 17)?,
        round_started_at: r.try_get(18)?,
        created_at: r.try_get(19)?,
        started_at: r.try_get(20)?,
        finished_at: r.try_get(21)?,
        version: r.try_get(22)?,
    })
}

fn player_row(r: &Row) -> Result<LeaguePlayerRow> {
    Ok(LeaguePlayerRow {
        league: r.try_get(0)?,
        user: r.try_get(1)?,
        joined_at: r.try_get(2)?,
        status: r.try_get(3)?,
        left_at: r.try_get(4)?,
        seed: opt_count(r, 5)?,
    })
}

fn pairing_row(r: &Row) -> Result<PairingRow> {
    Ok(PairingRow {
        league: r.try_get(0)?,
        round: count(r, 1)?,
        board: count(r, 2)?,
        first: r.try_get(3)?,
        second: r.try_get(4)?,
        game: r.try_get(5)?,
        outcome: r.try_get(6)?,
    })
}

fn get_league(c: &mut impl Sql, id: i64) -> Result<Option<LeagueRow>> {
    one(
        c,
        &format!("SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = $1"),
        &[&id],
        league_row,
    )
}

/// Takes the league at `version` for this transaction and moves it on: `Conflict` if it moved
/// on already or another transaction holds it now (that one decides).
fn bump_league(c: &mut impl Sql, id: i64, version: i64) -> Result<()> {
    let held = c.query_opt(
        "SELECT version FROM leagues WHERE id = $1 FOR UPDATE SKIP LOCKED",
        &[&id],
    )?;
    match held {
        Some(row) if row.try_get::<_, i64>(0)? == version => {
            c.execute(
                "UPDATE leagues SET version = version + 1 WHERE id = $1",
                &[&id],
            )?;
            Ok(())
        }
        Some(_) => Err(StoreError::Conflict),
        None if get_league(c, id)?.is_none() => Err(StoreError::NotFound),
        None => Err(StoreError::Conflict),
    }
}

fn opt_i64(v: Option<u32>) -> Option<i64> {
    v.map(i64::from)
}

impl LeagueStore for PgStore {
    fn create_league(&self, l: &NewLeague, notices: &[NewNotice], now: i64) -> Result<LeagueRow> {
        self.write(|tx| {
            let row = tx.query_one(
                "INSERT INTO leagues (guild, channel, name, variant, days_per_move, format, rounds,
                    rated, schedule, round_days, max_players, rating_min, rating_max, creator,
                    status, created_at, clock, increment_days, cap_days, period_days)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'open', $15,
                    $16, $17, $18, $19)
                 RETURNING id",
                &[
                    &l.guild,
                    &l.channel,
                    &l.name,
                    &l.variant,
                    &i64::from(l.control.days),
                    &l.format,
                    &opt_i64(l.rounds),
                    &l.rated,
                    &l.schedule,
                    &opt_i64(l.round_days),
                    &opt_i64(l.max_players),
                    &l.rating_min,
                    &l.rating_max,
                    &l.creator,
                    &now,
                    &l.control.kind.as_str(),
                    &i64::from(l.control.increment),
                    &i64::from(l.control.cap),
                    &i64::from(l.control.period),
                ],
            )?;
            let id: i64 = row.try_get(0)?;
            queue_with(tx, &self.holder, notices, None, &[("{league}", id)], now)?;
            get_league(tx, id)?.ok_or(StoreError::NotFound)
        })
    }

    fn league(&self, id: i64) -> Result<Option<LeagueRow>> {
        get_league(&mut *self.client()?, id)
    }

    fn leagues_in(&self, guild: &str, limit: usize) -> Result<Vec<LeagueRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild = $1 ORDER BY id DESC LIMIT $2"
            ),
            &[&guild, &(limit as i64)],
            league_row,
        )
    }

    fn running_leagues(&self, limit: usize) -> Result<Vec<LeagueRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {LEAGUE_COLUMNS} FROM leagues WHERE status = 'running' ORDER BY id LIMIT $1"
            ),
            &[&(limit as i64)],
            league_row,
        )
    }

    fn league_players(&self, league: i64) -> Result<Vec<LeaguePlayerRow>> {
        all(
            &mut *self.client()?,
            "SELECT league, user_id, joined_at, status, left_at, seed FROM league_players
             WHERE league = $1 ORDER BY joined_at, user_id",
            &[&league],
            player_row,
        )
    }

    fn join_league(
        &self,
        league: i64,
        user: &str,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<Joined> {
        self.write(|tx| {
            // The league's row, held: two joins at once count the players one after the other.
            let l = one(
                tx,
                &format!("SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = $1 FOR UPDATE"),
                &[&league],
                league_row,
            )?
            .ok_or(StoreError::NotFound)?;
            if l.status != LeagueStatus::Open {
                return Ok(Joined::NotOpen);
            }
            let row = tx.query_one(
                "SELECT COUNT(*), COUNT(*) FILTER (WHERE user_id = $2) FROM league_players
                 WHERE league = $1",
                &[&league, &user],
            )?;
            let (n, me): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
            if me > 0 {
                return Ok(Joined::AlreadyIn);
            }
            if l.max_players.is_some_and(|m| n >= i64::from(m)) {
                return Ok(Joined::Full);
            }
            tx.execute(
                "INSERT INTO league_players (league, user_id, joined_at) VALUES ($1, $2, $3)",
                &[&league, &user, &now],
            )?;
            tx.execute(
                "UPDATE leagues SET version = version + 1 WHERE id = $1",
                &[&league],
            )?;
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
            let l = one(
                tx,
                &format!("SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = $1 FOR UPDATE"),
                &[&league],
                league_row,
            )?
            .ok_or(StoreError::NotFound)?;
            if l.status != LeagueStatus::Open {
                return Ok(false);
            }
            let n = tx.execute(
                "DELETE FROM league_players WHERE league = $1 AND user_id = $2",
                &[&league, &user],
            )?;
            if n == 0 {
                return Ok(false);
            }
            tx.execute(
                "UPDATE leagues SET version = version + 1 WHERE id = $1",
                &[&league],
            )?;
            queue(tx, &self.holder, notices, now)?;
            Ok(true)
        })
    }

    fn pairings(&self, league: i64) -> Result<Vec<PairingRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {PAIRING_COLUMNS} FROM league_pairings WHERE league = $1
                 ORDER BY round, board"
            ),
            &[&league],
            pairing_row,
        )
    }

    fn pairing_of_game(&self, game: i64) -> Result<Option<PairingRow>> {
        one(
            &mut *self.client()?,
            &format!("SELECT {PAIRING_COLUMNS} FROM league_pairings WHERE game_id = $1"),
            &[&game],
            pairing_row,
        )
    }

    fn start_round(&self, r: &RoundStart, now: i64) -> Result<Vec<PairingRow>> {
        self.write(|tx| {
            bump_league(tx, r.league, r.version)?;
            tx.execute(
                "UPDATE leagues SET status = 'running', round = $2, round_started_at = $3,
                    started_at = COALESCE(started_at, $3), rounds = COALESCE($4, rounds)
                 WHERE id = $1",
                &[&r.league, &i64::from(r.round), &now, &opt_i64(r.rounds)],
            )?;
            for (user, seed) in &r.seeds {
                tx.execute(
                    "UPDATE league_players SET seed = $3 WHERE league = $1 AND user_id = $2",
                    &[&r.league, user, &i64::from(*seed)],
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
                     VALUES ($1, $2, $3, $4, $5, $6)
                     ON CONFLICT (league, round, board) DO UPDATE SET game_id = excluded.game_id
                     WHERE league_pairings.game_id IS NULL",
                    &[
                        &r.league,
                        &i64::from(p.round),
                        &i64::from(p.board),
                        &p.first,
                        &p.second,
                        &game,
                    ],
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
            all(
                tx,
                &format!(
                    "SELECT {PAIRING_COLUMNS} FROM league_pairings WHERE league = $1
                     ORDER BY round, board"
                ),
                &[&r.league],
                pairing_row,
            )
        })
    }

    fn settle_league(&self, s: &Settle, now: i64) -> Result<LeagueRow> {
        self.write(|tx| {
            bump_league(tx, s.league, s.version)?;
            for (user, status) in &s.players {
                tx.execute(
                    "UPDATE league_players SET status = $3, left_at = $4
                     WHERE league = $1 AND user_id = $2",
                    &[&s.league, user, status, &now],
                )?;
            }
            for (round, board, outcome) in &s.outcomes {
                tx.execute(
                    "UPDATE league_pairings SET outcome = $4
                     WHERE league = $1 AND round = $2 AND board = $3",
                    &[&s.league, &i64::from(*round), &i64::from(*board), outcome],
                )?;
            }
            for (game, ending) in &s.ends {
                // A game that ended meanwhile keeps its own result.
                if get_game(tx, *game)?.is_some_and(|g| g.status == GameStatus::Active) {
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
                "UPDATE leagues SET status = $2, finished_at = $3 WHERE id = $1",
                &[&league, &status.as_str(), &now],
            )?;
            queue(tx, &self.holder, notices, now)?;
            get_league(tx, league)?.ok_or(StoreError::NotFound)
        })
    }

    fn set_league_thread(&self, league: i64, thread: Option<&str>) -> Result<()> {
        self.client()?.execute(
            "UPDATE leagues SET thread = $2 WHERE id = $1",
            &[&league, &thread],
        )?;
        Ok(())
    }
}
