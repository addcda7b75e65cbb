//! The PostgreSQL store, for several bot processes sharing one database: the synchronous
//! `postgres` client behind an `r2d2` pool (the store interface is synchronous, see the module
//! above), the migrations of `migrations/postgres/` applied in order at start under an advisory
//! lock (two processes starting at once apply them once). Every write is one transaction; game
//! changes are guarded by the game's version, ratings and vacation deadlines by the rows they
//! were computed from, exactly as in the SQLite store.
//!
//! What must happen once across processes claims its rows in its transaction with
//! `FOR UPDATE SKIP LOCKED`: the sweep's losses on time (`finish_games`), reminders, expired
//! challenges and digests lock the row they change and skip one another process holds (that
//! process is deciding it); the outbox is claimed with a lease (`claim_unsent`, see
//! [`OUTBOX_LEASE`]), because delivery happens outside any transaction.

use std::collections::HashMap;

use ::postgres::types::ToSql;
use ::postgres::{NoTls, Row, Statement};
use r2d2_postgres::PostgresConnectionManager;

use super::*;

mod conditional;
mod follow;
mod league;
pub mod tls;

/// The migrations, in order.
pub const PG_MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_initial.sql",
        include_str!("../../migrations/postgres/0001_initial.sql"),
    ),
    (
        "0002_outbox_claims.sql",
        include_str!("../../migrations/postgres/0002_outbox_claims.sql"),
    ),
    (
        "0003_reminder_lead.sql",
        include_str!("../../migrations/postgres/0003_reminder_lead.sql"),
    ),
    (
        "0004_server_names.sql",
        include_str!("../../migrations/postgres/0004_server_names.sql"),
    ),
    (
        "0005_outbox_posts.sql",
        include_str!("../../migrations/postgres/0005_outbox_posts.sql"),
    ),
    (
        "0006_language.sql",
        include_str!("../../migrations/postgres/0006_language.sql"),
    ),
    (
        "0007_leagues.sql",
        include_str!("../../migrations/postgres/0007_leagues.sql"),
    ),
    (
        "0008_league_homes.sql",
        include_str!("../../migrations/postgres/0008_league_homes.sql"),
    ),
    (
        "0009_conditionals.sql",
        include_str!("../../migrations/postgres/0009_conditionals.sql"),
    ),
    (
        "0010_featured_game.sql",
        include_str!("../../migrations/postgres/0010_featured_game.sql"),
    ),
    (
        "0011_clocks.sql",
        include_str!("../../migrations/postgres/0011_clocks.sql"),
    ),
    (
        "0012_followers.sql",
        include_str!("../../migrations/postgres/0012_followers.sql"),
    ),
];

/// At most this many connections per process.
pub const PG_MAX_CONNECTIONS: u32 = 8;

/// A store in a PostgreSQL database.
pub struct PgStore {
    /// Always there but while the store is dropped (see `Drop`).
    pool: Option<r2d2::Pool<Manager>>,
    /// This handle's name on the notices it holds.
    holder: String,
}

type Client = r2d2::PooledConnection<Manager>;

/// A pooled connection and the statements it has prepared. The client prepares a statement
/// given as text before each use (a round trip of its own); each connection keeps its
/// prepared statements instead, so a query costs one round trip from its second use on.
pub struct Conn {
    client: ::postgres::Client,
    prepared: HashMap<String, Statement>,
}

/// `r2d2_postgres`'s manager, with a statement cache per connection: plain connections, or
/// encrypted ones (`sslmode=require` or `verify-full` in the URL, see [`tls`]).
pub enum Manager {
    Plain(PostgresConnectionManager<NoTls>),
    Tls(PostgresConnectionManager<tls::MakeRustlsConnect>),
}

/// Any constant: the key of Tegami's migration lock, held to the end of the transaction.
const MIGRATION_LOCK: &str = "SELECT pg_advisory_xact_lock(7465676173)";

impl r2d2::ManageConnection for Manager {
    type Connection = Conn;
    type Error = ::postgres::Error;

    fn connect(&self) -> std::result::Result<Conn, ::postgres::Error> {
        let client = match self {
            Manager::Plain(m) => m.connect()?,
            Manager::Tls(m) => m.connect()?,
        };
        Ok(Conn {
            client,
            prepared: HashMap::new(),
        })
    }

    fn is_valid(&self, c: &mut Conn) -> std::result::Result<(), ::postgres::Error> {
        match self {
            Manager::Plain(m) => m.is_valid(&mut c.client),
            Manager::Tls(m) => m.is_valid(&mut c.client),
        }
    }

    fn has_broken(&self, c: &mut Conn) -> bool {
        match self {
            Manager::Plain(m) => m.has_broken(&mut c.client),
            Manager::Tls(m) => m.has_broken(&mut c.client),
        }
    }
}

/// A connection's prepared statement for `sql`, prepared on first use.
fn statement(
    client: &mut impl ::postgres::GenericClient,
    prepared: &mut HashMap<String, Statement>,
    sql: &str,
) -> Result<Statement> {
    if let Some(st) = prepared.get(sql) {
        return Ok(st.clone());
    }
    let st = client.prepare(sql)?;
    prepared.insert(sql.to_string(), st.clone());
    Ok(st)
}

/// What the queries below run on: a connection, or a transaction on one; both through the
/// connection's prepared statements.
trait Sql {
    fn query(&mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>>;
    fn query_opt(&mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Option<Row>>;
    fn query_one(&mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Row>;
    fn execute(&mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<u64>;
    /// Statements without parameters, by the simple protocol (savepoints).
    fn batch_execute(&mut self, sql: &str) -> Result<()>;
}

/// One transaction of a pooled connection.
struct Tx<'a> {
    tx: ::postgres::Transaction<'a>,
    prepared: &'a mut HashMap<String, Statement>,
}

macro_rules! impl_sql {
    ($t:ty, $client:ident) => {
        impl Sql for $t {
            fn query(&mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>> {
                let st = statement(&mut self.$client, &mut self.prepared, sql)?;
                Ok(self.$client.query(&st, params)?)
            }
            fn query_opt(
                &mut self,
                sql: &str,
                params: &[&(dyn ToSql + Sync)],
            ) -> Result<Option<Row>> {
                let st = statement(&mut self.$client, &mut self.prepared, sql)?;
                Ok(self.$client.query_opt(&st, params)?)
            }
            fn query_one(&mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Row> {
                let st = statement(&mut self.$client, &mut self.prepared, sql)?;
                Ok(self.$client.query_one(&st, params)?)
            }
            fn execute(&mut self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<u64> {
                let st = statement(&mut self.$client, &mut self.prepared, sql)?;
                Ok(self.$client.execute(&st, params)?)
            }
            fn batch_execute(&mut self, sql: &str) -> Result<()> {
                Ok(self.$client.batch_execute(sql)?)
            }
        }
    };
}

impl_sql!(Conn, client);
impl_sql!(Tx<'_>, tx);

impl From<::postgres::Error> for StoreError {
    fn from(e: ::postgres::Error) -> StoreError {
        // The server's own message when it refused ("db error" alone says nothing).
        // Otherwise the client's words and their cause ("error connecting to server" alone
        // does not say that nothing listens there).
        StoreError::Backend(match e.as_db_error() {
            Some(db) => db.to_string(),
            None => match std::error::Error::source(&e) {
                Some(cause) => format!("{e}: {cause}"),
                None => e.to_string(),
            },
        })
    }
}

impl From<r2d2::Error> for StoreError {
    fn from(e: r2d2::Error) -> StoreError {
        StoreError::Backend(e.to_string())
    }
}

const GAME_COLUMNS: &str = "id, variant, setup, start_position, first_player, second_player, \
    guild, channel, thread, status, result, reason, rated, days_per_move, deadline, position, \
    ply, version, created_at, updated_at, finished_at, to_move, reminded, computer_level, \
    clock, increment_days, cap_days, period_days, bank_first, bank_second, turn_span";

const USER_COLUMNS: &str =
    "id, name, style, notify, vacation_until, last_digest_at, remind_hours, \
    language, notation, locale, digest_hour, timezone, next_digest_at";

/// How many columns `USER_COLUMNS` has: a column read after them comes at this index.
fn user_columns() -> usize {
    USER_COLUMNS.split(", ").count()
}

/// The database's now, in Unix seconds: outbox holds are taken and compared by it (see
/// [`OUTBOX_LEASE`]), never by the clock of the machine that holds them.
const DB_NOW: &str = "floor(extract(epoch FROM clock_timestamp()))::bigint";

const RATING_COLUMNS: &str =
    "user_id, variant, guild, rating, deviation, volatility, games, wins, losses, draws";

const CHALLENGE_COLUMNS: &str = "id, challenger, challenged, variant, color, days_per_move, \
    handicap, setup, rated, guild, channel, status, game_id, created_at, expires_at, \
    clock, increment_days, cap_days, period_days";

/// A count or a ply read back: never negative, never past `u32` (the core writes only those).
fn count(r: &Row, i: usize) -> Result<u32> {
    let v: i64 = r.try_get(i)?;
    u32::try_from(v).map_err(|_| StoreError::Invalid(format!("column {i}: {v} out of range")))
}

fn game_row(r: &Row) -> Result<GameRow> {
    let status: String = r.try_get(9)?;
    let result: Option<String> = r.try_get(10)?;
    let level: Option<i64> = r.try_get(23)?;
    Ok(GameRow {
        id: r.try_get(0)?,
        variant: r.try_get(1)?,
        setup: r.try_get(2)?,
        start_position: r.try_get(3)?,
        players: [r.try_get(4)?, r.try_get(5)?],
        guild: r.try_get(6)?,
        channel: r.try_get(7)?,
        thread: r.try_get(8)?,
        status: if status == "active" {
            GameStatus::Active
        } else {
            GameStatus::Finished
        },
        result: result.as_deref().and_then(GameResult::parse),
        reason: r.try_get(11)?,
        rated: r.try_get(12)?,
        control: TimeControl::from_columns(
            &r.try_get::<_, String>(24)?,
            count(r, 13)?,
            count(r, 25)?,
            count(r, 26)?,
            count(r, 27)?,
        ),
        deadline: r.try_get(14)?,
        banks: [r.try_get(28)?, r.try_get(29)?],
        turn_span: r.try_get(30)?,
        position: r.try_get(15)?,
        ply: count(r, 16)?,
        version: r.try_get(17)?,
        created_at: r.try_get(18)?,
        updated_at: r.try_get(19)?,
        finished_at: r.try_get(20)?,
        to_move: r.try_get(21)?,
        reminded: r.try_get(22)?,
        computer_level: level.and_then(|l| u8::try_from(l).ok()),
    })
}

fn move_row(r: &Row) -> Result<MoveRow> {
    Ok(MoveRow {
        ply: count(r, 0)?,
        code: r.try_get(1)?,
        notation: r.try_get(2)?,
        position: r.try_get(3)?,
        user: r.try_get(4)?,
        played_at: r.try_get(5)?,
    })
}

fn rating_row(r: &Row) -> Result<RatingRow> {
    Ok(RatingRow {
        user: r.try_get(0)?,
        variant: r.try_get(1)?,
        guild: r.try_get(2)?,
        rating: r.try_get(3)?,
        deviation: r.try_get(4)?,
        volatility: r.try_get(5)?,
        games: count(r, 6)?,
        wins: count(r, 7)?,
        losses: count(r, 8)?,
        draws: count(r, 9)?,
    })
}

fn outbox_row(r: &Row) -> Result<OutboxRow> {
    Ok(OutboxRow {
        id: r.try_get(0)?,
        notice: NewNotice {
            id: r.try_get(0)?,
            user: r.try_get(1)?,
            via: r.try_get(2)?,
            channel: r.try_get(3)?,
            text: r.try_get(4)?,
            game: r.try_get(6)?,
            ply: r.try_get::<_, Option<i64>>(7)?.map(|p| p as u32),
            league: r.try_get(8)?,
        },
        created_at: r.try_get(5)?,
    })
}

fn challenge_row(r: &Row) -> Result<ChallengeRow> {
    let status: String = r.try_get(11)?;
    Ok(ChallengeRow {
        id: r.try_get(0)?,
        challenger: r.try_get(1)?,
        challenged: r.try_get(2)?,
        variant: r.try_get(3)?,
        color: r.try_get(4)?,
        control: TimeControl::from_columns(
            &r.try_get::<_, String>(15)?,
            count(r, 5)?,
            count(r, 16)?,
            count(r, 17)?,
            count(r, 18)?,
        ),
        handicap: r.try_get(6)?,
        setup: r.try_get(7)?,
        rated: r.try_get(8)?,
        guild: r.try_get(9)?,
        channel: r.try_get(10)?,
        status: ChallengeStatus::parse(&status)
            .ok_or_else(|| StoreError::Invalid(format!("challenge status {status:?}")))?,
        game_id: r.try_get(12)?,
        created_at: r.try_get(13)?,
        expires_at: r.try_get(14)?,
    })
}

fn user_row(r: &Row) -> Result<UserRow> {
    let remind: Option<i64> = r.try_get(6)?;
    Ok(UserRow {
        id: r.try_get(0)?,
        name: r.try_get(1)?,
        style: r.try_get(2)?,
        notify: r.try_get(3)?,
        vacation_until: r.try_get(4)?,
        last_digest_at: r.try_get(5)?,
        remind_hours: remind
            .map(|h| {
                u32::try_from(h)
                    .map_err(|_| StoreError::Invalid(format!("remind_hours {h} out of range")))
            })
            .transpose()?,
        language: r.try_get(7)?,
        notation: r.try_get(8)?,
        locale: r.try_get(9)?,
        digest_hour: {
            let h: Option<i64> = r.try_get(10)?;
            h.map(|h| {
                u8::try_from(h)
                    .ok()
                    .filter(|h| *h < 24)
                    .ok_or_else(|| StoreError::Invalid(format!("digest_hour {h} out of range")))
            })
            .transpose()?
        },
        timezone: r.try_get(11)?,
        next_digest_at: r.try_get(12)?,
    })
}

/// Every row of a query, mapped.
fn all<T>(
    c: &mut impl Sql,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
    f: fn(&Row) -> Result<T>,
) -> Result<Vec<T>> {
    c.query(sql, params)?.iter().map(f).collect()
}

/// The row of a query, if any, mapped.
fn one<T>(
    c: &mut impl Sql,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
    f: fn(&Row) -> Result<T>,
) -> Result<Option<T>> {
    c.query_opt(sql, params)?.as_ref().map(f).transpose()
}

fn get_game(c: &mut impl Sql, id: i64) -> Result<Option<GameRow>> {
    one(
        c,
        &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"),
        &[&id],
        game_row,
    )
}

fn get_challenge(c: &mut impl Sql, id: i64) -> Result<Option<ChallengeRow>> {
    one(
        c,
        &format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = $1"),
        &[&id],
        challenge_row,
    )
}

fn get_moves(c: &mut impl Sql, game: i64) -> Result<Vec<MoveRow>> {
    all(
        c,
        "SELECT ply, code, notation, position, user_id, played_at FROM moves
         WHERE game_id = $1 AND NOT taken_back ORDER BY ply",
        &[&game],
        move_row,
    )
}

/// Inserts a new game; its id.
fn insert_game(c: &mut impl Sql, game: &NewGame, now: i64) -> Result<i64> {
    let row = c.query_one(
        "INSERT INTO games (variant, setup, start_position, first_player, second_player,
            guild, channel, status, rated, days_per_move, deadline, position, ply,
            version, created_at, updated_at, to_move, computer_level, clock, increment_days,
            cap_days, period_days, bank_first, bank_second, turn_span)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $9, $10, $3, 0, 0, $11, $11, $12, $13,
            $14, $15, $16, $17, $18, $19, $20)
         RETURNING id",
        &[
            &game.variant,
            &game.setup,
            &game.start_position,
            &game.players[0],
            &game.players[1],
            &game.guild,
            &game.channel,
            &game.rated,
            &i64::from(game.control.days),
            &game.deadline,
            &now,
            &game.to_move,
            &game.computer_level.map(i64::from),
            &game.control.kind.as_str(),
            &i64::from(game.control.increment),
            &i64::from(game.control.cap),
            &i64::from(game.control.period),
            &game.banks[0],
            &game.banks[1],
            &game.turn_span,
        ],
    )?;
    Ok(row.try_get(0)?)
}

/// Queues notices, with `game` for those that name none and the placeholders `subst` replaced.
fn queue_with(
    c: &mut impl Sql,
    holder: &str,
    notices: &[NewNotice],
    game: Option<i64>,
    subst: &[(&str, i64)],
    now: i64,
) -> Result<()> {
    for n in notices {
        if n.id <= 0 {
            return Err(StoreError::Invalid(format!(
                "notice id {} is not positive",
                n.id
            )));
        }
        let text = fill(&n.text, subst);
        c.execute(
            &format!(
                "INSERT INTO outbox (id, user_id, via, channel, text, created_at, game_id,
                    claimed_by, claimed_until, ply, league_id)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, {DB_NOW} + $9, $10, $11)"
            ),
            &[
                &n.id,
                &n.user,
                &n.via,
                &n.channel,
                &text,
                &now,
                &n.game.or(game),
                &holder,
                &OUTBOX_LEASE,
                &n.ply.map(i64::from),
                &n.league,
            ],
        )?;
    }
    Ok(())
}

fn queue(c: &mut impl Sql, holder: &str, notices: &[NewNotice], now: i64) -> Result<()> {
    queue_with(c, holder, notices, None, &[], now)
}

/// Queues the notices of a new game: about it unless they name another, `{game}` its number.
fn queue_about_game(
    c: &mut impl Sql,
    holder: &str,
    notices: &[NewNotice],
    game: i64,
    now: i64,
) -> Result<()> {
    queue_with(c, holder, notices, Some(game), &[("{game}", game)], now)
}

/// Moves a game from `version` to `version + 1`; `Conflict` if it is no longer at `version`.
fn bump(c: &mut impl Sql, game: i64, version: i64, now: i64) -> Result<()> {
    let n = c.execute(
        "UPDATE games SET version = version + 1, updated_at = $3 WHERE id = $1 AND version = $2",
        &[&game, &version, &now],
    )?;
    if n == 1 {
        Ok(())
    } else if get_game(c, game)?.is_none() {
        Err(StoreError::NotFound)
    } else {
        Err(StoreError::Conflict)
    }
}

/// Ends a game: status, result, notices, and the ratings the core computed.
fn end_game(c: &mut impl Sql, holder: &str, game: i64, f: &Finish, now: i64) -> Result<()> {
    let n = c.execute(
        "UPDATE games SET status = 'finished', result = $2, reason = $3, finished_at = $4,
            deadline = NULL, to_move = NULL
         WHERE id = $1 AND status = 'active'",
        &[&game, &f.ending.result.as_str(), &f.ending.reason, &now],
    )?;
    if n != 1 {
        return Err(StoreError::Conflict);
    }
    after_end(c, holder, game, f, now)
}

/// Ends a game of the sweep's batch, the transaction holding its row: if it is still at
/// `version`, one statement moves it on and ends it (nothing written otherwise: `Conflict`);
/// then its offers, notices and ratings (`Stale` if a rating moved on).
fn end_held(
    c: &mut impl Sql,
    holder: &str,
    game: i64,
    version: i64,
    f: &Finish,
    now: i64,
) -> Result<()> {
    let n = c.execute(
        "UPDATE games SET version = version + 1, updated_at = $3, status = 'finished',
            result = $4, reason = $5, finished_at = $3, deadline = NULL, to_move = NULL
         WHERE id = $1 AND version = $2 AND status = 'active'",
        &[
            &game,
            &version,
            &now,
            &f.ending.result.as_str(),
            &f.ending.reason,
        ],
    )?;
    if n != 1 {
        return Err(StoreError::Conflict);
    }
    after_end(c, holder, game, f, now)
}

/// What ending a game writes besides the game: its offers go, its notices are queued, the
/// new ratings written.
fn after_end(c: &mut impl Sql, holder: &str, game: i64, f: &Finish, now: i64) -> Result<()> {
    c.execute("DELETE FROM offers WHERE game_id = $1", &[&game])?;
    queue(c, holder, f.notices, now)?;
    write_ratings(c, &f.ratings, now)
}

/// Writes the new ratings the core computed, each only if its row is still as read.
fn write_ratings(c: &mut impl Sql, ratings: &[RatingUpdate], now: i64) -> Result<()> {
    for r in ratings {
        let row = &r.row;
        let (games, wins, losses, draws) = (
            i64::from(row.games),
            i64::from(row.wins),
            i64::from(row.losses),
            i64::from(row.draws),
        );
        // `games` is the row's version: written only if still as read (0: no row yet).
        let n = if r.read_games == 0 {
            c.execute(
                "INSERT INTO ratings (user_id, variant, guild, rating, deviation, volatility,
                    games, wins, losses, draws, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 ON CONFLICT (user_id, variant, guild) DO NOTHING",
                &[
                    &row.user,
                    &row.variant,
                    &row.guild,
                    &row.rating,
                    &row.deviation,
                    &row.volatility,
                    &games,
                    &wins,
                    &losses,
                    &draws,
                    &now,
                ],
            )?
        } else {
            c.execute(
                "UPDATE ratings SET rating = $4, deviation = $5, volatility = $6, games = $7,
                    wins = $8, losses = $9, draws = $10, updated_at = $11
                 WHERE user_id = $1 AND variant = $2 AND guild = $3 AND games = $12",
                &[
                    &row.user,
                    &row.variant,
                    &row.guild,
                    &row.rating,
                    &row.deviation,
                    &row.volatility,
                    &games,
                    &wins,
                    &losses,
                    &draws,
                    &now,
                    &i64::from(r.read_games),
                ],
            )?
        };
        if n != 1 {
            return Err(StoreError::Stale);
        }
    }
    Ok(())
}

/// Writes new deadlines (a vacation's); `Stale` if a game is no longer at the version read.
fn shift_deadlines(c: &mut impl Sql, shifts: &[DeadlineShift]) -> Result<()> {
    for s in shifts {
        let n = c.execute(
            "UPDATE games SET deadline = $3, reminded = FALSE, version = version + 1
             WHERE id = $1 AND version = $2 AND status = 'active'",
            &[&s.game, &s.version, &s.deadline],
        )?;
        if n != 1 {
            return Err(StoreError::Stale);
        }
    }
    Ok(())
}

impl PgStore {
    /// Connects to `url` (`postgres://user@host/db`, or `host=... dbname=...`) and brings the
    /// schema up to date. `sslmode=require` in it encrypts the connections (without checking
    /// the server's certificate, as libpq does); `sslmode=verify-full` also checks the
    /// certificate against the system's roots and the host name. Otherwise (no `sslmode`,
    /// `disable`, `prefer`) the connections are not encrypted.
    pub fn open(url: &str) -> Result<PgStore> {
        let (config, tls) = tls::config_of(url)?;
        // One connection first: a wrong address, user or database is said at once, in the
        // server's words, rather than after the pool's wait.
        let manager = match tls {
            None => {
                config.connect(NoTls)?;
                Manager::Plain(PostgresConnectionManager::new(config, NoTls))
            }
            Some(tls) => {
                config.connect(tls.clone())?;
                Manager::Tls(PostgresConnectionManager::new(config, tls))
            }
        };
        let pool = r2d2::Pool::builder()
            .max_size(PG_MAX_CONNECTIONS)
            .connection_timeout(std::time::Duration::from_secs(10))
            // No empty query before every use (a round trip per call, a third of a move's):
            // a connection that broke fails its call, which is an error the caller sees, and
            // the pool drops it (`has_broken`) for a fresh one.
            .test_on_check_out(false)
            .build(manager)?;
        let store = PgStore {
            pool: Some(pool),
            holder: holder_id(),
        };
        store.migrate()?;
        Ok(store)
    }

    /// Applies the migrations not applied yet, in order, each in its transaction; a lock held
    /// for the transaction keeps two processes from applying one twice. The table that records
    /// them is made under the same lock: two processes starting together on an empty database
    /// would otherwise both create it, and one would fail (PostgreSQL's `IF NOT EXISTS` does
    /// not hold against a concurrent creation: a duplicate key in its catalog).
    fn migrate(&self) -> Result<()> {
        let mut c = self.client()?;
        let c = &mut c.client;
        let mut tx = c.transaction()?;
        tx.execute(MIGRATION_LOCK, &[])?;
        tx.batch_execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
        )?;
        tx.commit()?;
        for (name, sql) in PG_MIGRATIONS {
            let mut tx = c.transaction()?;
            tx.execute(MIGRATION_LOCK, &[])?;
            let done = tx
                .query_opt("SELECT 1 FROM schema_migrations WHERE name = $1", &[name])?
                .is_some();
            if !done {
                tx.batch_execute(sql)?;
                tx.execute("INSERT INTO schema_migrations (name) VALUES ($1)", &[name])?;
            }
            tx.commit()?;
        }
        Ok(())
    }

    /// Whether this handle's connections to the server are encrypted (TLS), as the server
    /// sees it (`pg_stat_ssl`).
    pub fn connection_encrypted(&self) -> Result<bool> {
        let row = self.client()?.query_one(
            "SELECT coalesce((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), FALSE)",
            &[],
        )?;
        Ok(row.try_get(0)?)
    }

    fn client(&self) -> Result<Client> {
        match &self.pool {
            Some(pool) => Ok(pool.get()?),
            None => Err(StoreError::Backend("the store is closed".into())),
        }
    }

    /// Runs `f` in one transaction, committed if `f` succeeds.
    fn write<T>(&self, f: impl FnOnce(&mut Tx<'_>) -> Result<T>) -> Result<T> {
        let mut c = self.client()?;
        let Conn { client, prepared } = &mut *c;
        let mut tx = Tx {
            tx: client.transaction()?,
            prepared,
        };
        let out = f(&mut tx)?;
        tx.tx.commit()?;
        Ok(out)
    }
}

impl Drop for PgStore {
    /// The client closes a connection by blocking on its own small runtime, which tokio
    /// forbids on a thread that runs tokio (the bot's last handle may go there at exit): the
    /// connections are then closed on a thread of their own.
    fn drop(&mut self) {
        let Some(pool) = self.pool.take() else {
            return;
        };
        if tokio::runtime::Handle::try_current().is_ok() {
            let _ = std::thread::spawn(move || drop(pool)).join();
        }
    }
}

impl GameStore for PgStore {
    fn game(&self, id: i64) -> Result<Option<GameRow>> {
        get_game(&mut *self.client()?, id)
    }

    fn games_of(
        &self,
        user: &str,
        status: GameStatus,
        guild: Option<&str>,
        limit: usize,
    ) -> Result<Vec<GameRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {GAME_COLUMNS} FROM games
                 WHERE (first_player = $1 OR second_player = $1) AND status = $2
                   AND ($4::TEXT IS NULL OR guild = $4)
                 ORDER BY updated_at DESC, id DESC LIMIT $3"
            ),
            &[&user, &status.as_str(), &(limit as i64), &guild],
            game_row,
        )
    }

    fn waiting_for(&self, user: &str) -> Result<Vec<GameRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {GAME_COLUMNS} FROM games
                 WHERE status = 'active' AND to_move = $1 ORDER BY id"
            ),
            &[&user],
            game_row,
        )
    }

    fn moves(&self, game: i64) -> Result<Vec<MoveRow>> {
        get_moves(&mut *self.client()?, game)
    }

    fn game_with_moves(&self, id: i64) -> Result<Option<(GameRow, Vec<MoveRow>)>> {
        let mut c = self.client()?;
        let Conn { client, prepared } = &mut *c;
        // One snapshot: a move committed meanwhile is either wholly seen or not.
        let mut tx = Tx {
            tx: client
                .build_transaction()
                .isolation_level(::postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()?,
            prepared,
        };
        let Some(game) = get_game(&mut tx, id)? else {
            return Ok(None);
        };
        let moves = get_moves(&mut tx, id)?;
        tx.tx.commit()?;
        Ok(Some((game, moves)))
    }

    fn start_game(&self, game: &NewGame, notices: &[NewNotice], now: i64) -> Result<GameRow> {
        self.write(|tx| {
            let id = insert_game(tx, game, now)?;
            queue_about_game(tx, &self.holder, notices, id, now)?;
            get_game(tx, id)?.ok_or(StoreError::NotFound)
        })
    }

    fn computer_games(&self, computer: &str) -> Result<Vec<GameRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {GAME_COLUMNS} FROM games
                 WHERE to_move = $1 AND computer_level IS NOT NULL AND status = 'active'
                 ORDER BY id"
            ),
            &[&computer],
            game_row,
        )
    }

    fn append_move(
        &self,
        game: i64,
        version: i64,
        mv: &MoveRow,
        next: &Turn,
        finish: Option<&Finish>,
        notices: &[NewNotice],
    ) -> Result<GameRow> {
        self.write(|tx| {
            bump(tx, game, version, mv.played_at)?;
            let current = get_game(tx, game)?.ok_or(StoreError::NotFound)?;
            if current.status != GameStatus::Active {
                return Err(StoreError::Conflict);
            }
            if current.ply + 1 != mv.ply {
                return Err(StoreError::Invalid(format!(
                    "move {} does not follow ply {}",
                    mv.ply, current.ply
                )));
            }
            tx.execute(
                "INSERT INTO moves (game_id, ply, code, notation, position, user_id, played_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    &game,
                    &i64::from(mv.ply),
                    &mv.code,
                    &mv.notation,
                    &mv.position,
                    &mv.user,
                    &mv.played_at,
                ],
            )?;
            tx.execute(
                "UPDATE games SET position = $2, ply = $3, to_move = $4, deadline = $5,
                    reminded = FALSE, turn_span = $6, bank_first = $7, bank_second = $8
                 WHERE id = $1",
                &[
                    &game,
                    &mv.position,
                    &i64::from(mv.ply),
                    &next.to_move,
                    &next.deadline,
                    &next.span,
                    &next.banks[0],
                    &next.banks[1],
                ],
            )?;
            tx.execute("DELETE FROM offers WHERE game_id = $1", &[&game])?;
            if let Some(f) = finish {
                end_game(tx, &self.holder, game, f, mv.played_at)?;
            }
            queue(tx, &self.holder, notices, mv.played_at)?;
            get_game(tx, game)?.ok_or(StoreError::NotFound)
        })
    }

    fn finish_game(&self, game: i64, version: i64, finish: &Finish, now: i64) -> Result<GameRow> {
        self.write(|tx| {
            bump(tx, game, version, now)?;
            end_game(tx, &self.holder, game, finish, now)?;
            get_game(tx, game)?.ok_or(StoreError::NotFound)
        })
    }

    fn finish_games(&self, games: &[(i64, i64, Finish)], now: i64) -> Result<Vec<BatchEnd>> {
        self.write(|tx| {
            // The claim: the games no other transaction holds are locked for this one. A game
            // another process is ending (its sweep) or moving in right now is skipped, not
            // waited for: that process decides it, and a later sweep looks again.
            let ids: Vec<i64> = games.iter().map(|(id, _, _)| *id).collect();
            let held = tx
                .query(
                    "SELECT id FROM games WHERE id = ANY($1) FOR UPDATE SKIP LOCKED",
                    &[&ids],
                )?
                .iter()
                .map(|r| r.try_get::<_, i64>(0))
                .collect::<std::result::Result<std::collections::HashSet<i64>, _>>()?;
            let mut done = Vec::with_capacity(games.len());
            for (game, version, finish) in games {
                if !held.contains(game) {
                    // Locked by another transaction, or no such game.
                    done.push(BatchEnd::Held);
                    continue;
                }
                // A game that moved on writes nothing (its first statement is guarded); one
                // with ratings may find one stale after writing, so it goes in a savepoint,
                // rolled back alone.
                let rated = !finish.ratings.is_empty();
                if rated {
                    tx.batch_execute("SAVEPOINT game")?;
                }
                match end_held(tx, &self.holder, *game, *version, finish, now) {
                    Ok(()) => {
                        if rated {
                            tx.batch_execute("RELEASE SAVEPOINT game")?;
                        }
                        done.push(BatchEnd::Ended);
                    }
                    // Moved on: its first statement wrote nothing. Stale: only a rated game
                    // gets there, after writing, inside its savepoint.
                    Err(StoreError::Conflict | StoreError::NotFound) => {
                        if rated {
                            tx.batch_execute("RELEASE SAVEPOINT game")?;
                        }
                        done.push(BatchEnd::Moved);
                    }
                    Err(StoreError::Stale) => {
                        tx.batch_execute("ROLLBACK TO SAVEPOINT game")?;
                        done.push(BatchEnd::Stale);
                    }
                    Err(e) => return Err(e),
                }
            }
            Ok(done)
        })
    }

    fn take_back(
        &self,
        game: i64,
        version: i64,
        keep_ply: u32,
        position: &str,
        next: &Turn,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow> {
        self.write(|tx| {
            bump(tx, game, version, now)?;
            tx.execute(
                "UPDATE moves SET taken_back = TRUE
                 WHERE game_id = $1 AND ply > $2 AND NOT taken_back",
                &[&game, &i64::from(keep_ply)],
            )?;
            tx.execute(
                "UPDATE games SET position = $2, ply = $3, to_move = $4, deadline = $5,
                    reminded = FALSE, status = 'active', result = NULL, reason = NULL,
                    finished_at = NULL, turn_span = $6, bank_first = $7, bank_second = $8
                 WHERE id = $1",
                &[
                    &game,
                    &position,
                    &i64::from(keep_ply),
                    &next.to_move,
                    &next.deadline,
                    &next.span,
                    &next.banks[0],
                    &next.banks[1],
                ],
            )?;
            tx.execute("DELETE FROM offers WHERE game_id = $1", &[&game])?;
            queue(tx, &self.holder, notices, now)?;
            get_game(tx, game)?.ok_or(StoreError::NotFound)
        })
    }

    fn set_deadline(
        &self,
        game: i64,
        version: i64,
        deadline: i64,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow> {
        self.write(|tx| {
            bump(tx, game, version, now)?;
            let n = tx.execute(
                "UPDATE games SET deadline = $2, reminded = FALSE
                 WHERE id = $1 AND status = 'active' AND deadline IS NOT NULL",
                &[&game, &deadline],
            )?;
            if n != 1 {
                return Err(StoreError::Conflict);
            }
            queue(tx, &self.holder, notices, now)?;
            get_game(tx, game)?.ok_or(StoreError::NotFound)
        })
    }

    fn set_thread(&self, game: i64, thread: &str) -> Result<()> {
        let n = self.client()?.execute(
            "UPDATE games SET thread = $2 WHERE id = $1",
            &[&game, &thread],
        )?;
        if n == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    fn set_home(&self, game: i64, channel: Option<&str>, thread: Option<&str>) -> Result<()> {
        let n = self.client()?.execute(
            "UPDATE games SET channel = $2, thread = $3 WHERE id = $1",
            &[&game, &channel, &thread],
        )?;
        if n == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    fn integrity_check(&self) -> Result<String> {
        // PostgreSQL checks its own pages; what can be asked cheaply is that it answers.
        let row = self.client()?.query_one("SELECT 'ok'::TEXT", &[])?;
        Ok(row.try_get(0)?)
    }
}

impl ChallengeStore for PgStore {
    fn create_challenge(
        &self,
        c: &NewChallenge,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<ChallengeRow> {
        self.write(|tx| {
            let row = tx.query_one(
                "INSERT INTO challenges (challenger, challenged, variant, color, days_per_move,
                    handicap, setup, rated, guild, channel, status, created_at, expires_at, clock,
                    increment_days, cap_days, period_days)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'open', $11, $12, $13, $14, $15,
                    $16)
                 RETURNING id",
                &[
                    &c.challenger,
                    &c.challenged,
                    &c.variant,
                    &c.color,
                    &i64::from(c.control.days),
                    &c.handicap,
                    &c.setup,
                    &c.rated,
                    &c.guild,
                    &c.channel,
                    &now,
                    &c.expires_at,
                    &c.control.kind.as_str(),
                    &i64::from(c.control.increment),
                    &i64::from(c.control.cap),
                    &i64::from(c.control.period),
                ],
            )?;
            let id: i64 = row.try_get(0)?;
            queue_with(tx, &self.holder, notices, None, &[("{challenge}", id)], now)?;
            get_challenge(tx, id)?.ok_or(StoreError::NotFound)
        })
    }

    fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>> {
        get_challenge(&mut *self.client()?, id)
    }

    fn open_challenges(&self, user: &str, now: i64) -> Result<Vec<ChallengeRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {CHALLENGE_COLUMNS} FROM challenges
                 WHERE status = 'open' AND expires_at > $2
                   AND (challenger = $1 OR challenged = $1 OR challenged IS NULL)
                 ORDER BY id"
            ),
            &[&user, &now],
            challenge_row,
        )
    }

    fn accept_challenge(
        &self,
        id: i64,
        game: &NewGame,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow> {
        self.write(|tx| {
            let game_id = insert_game(tx, game, now)?;
            let n = tx.execute(
                "UPDATE challenges SET status = 'accepted', game_id = $2
                 WHERE id = $1 AND status = 'open'",
                &[&id, &game_id],
            )?;
            if n != 1 {
                // Rolled back with the game when the transaction drops.
                return Err(StoreError::Conflict);
            }
            queue_about_game(tx, &self.holder, notices, game_id, now)?;
            get_game(tx, game_id)?.ok_or(StoreError::NotFound)
        })
    }

    fn close_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE challenges SET status = $2 WHERE id = $1 AND status = 'open'",
                &[&id, &status.as_str()],
            )?;
            match n {
                1 => queue(tx, &self.holder, notices, now),
                _ if get_challenge(tx, id)?.is_none() => Err(StoreError::NotFound),
                _ => Err(StoreError::Conflict),
            }
        })
    }

    fn put_offer(
        &self,
        game: i64,
        version: i64,
        offer: &OfferRow,
        notices: &[NewNotice],
    ) -> Result<()> {
        self.write(|tx| {
            // Locked: a move cannot commit between the check and the offer.
            let current = one(
                tx,
                &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1 FOR UPDATE"),
                &[&game],
                game_row,
            )?
            .ok_or(StoreError::NotFound)?;
            if current.version != version || current.status != GameStatus::Active {
                return Err(StoreError::Conflict);
            }
            tx.execute(
                "INSERT INTO offers (game_id, kind, from_user, ply, created_at)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (game_id, kind) DO UPDATE SET from_user = excluded.from_user,
                    ply = excluded.ply, created_at = excluded.created_at",
                &[
                    &game,
                    &offer.kind.as_str(),
                    &offer.from_user,
                    &i64::from(offer.ply),
                    &offer.created_at,
                ],
            )?;
            queue(tx, &self.holder, notices, offer.created_at)
        })
    }

    fn offer(&self, game: i64, kind: OfferKind) -> Result<Option<OfferRow>> {
        let row = self.client()?.query_opt(
            "SELECT from_user, ply, created_at FROM offers WHERE game_id = $1 AND kind = $2",
            &[&game, &kind.as_str()],
        )?;
        row.map(|r| {
            Ok(OfferRow {
                game_id: game,
                kind,
                from_user: r.try_get(0)?,
                ply: count(&r, 1)?,
                created_at: r.try_get(2)?,
            })
        })
        .transpose()
    }

    fn remove_offer(
        &self,
        game: i64,
        kind: OfferKind,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<()> {
        self.write(|tx| {
            tx.execute(
                "DELETE FROM offers WHERE game_id = $1 AND kind = $2",
                &[&game, &kind.as_str()],
            )?;
            queue(tx, &self.holder, notices, now)
        })
    }

    fn challenge_times(&self, challenger: &str, challenged: &str, since: i64) -> Result<Vec<i64>> {
        all(
            &mut *self.client()?,
            "SELECT created_at FROM challenges
             WHERE challenger = $1 AND challenged = $2 AND created_at >= $3
             ORDER BY created_at",
            &[&challenger, &challenged, &since],
            |r| Ok(r.try_get(0)?),
        )
    }
}

impl UserStore for PgStore {
    fn touch_user(&self, id: &str, name: &str, now: i64) -> Result<UserRow> {
        // Known under this name: a read only.
        if let Some(u) = self.user(id)?.filter(|u| u.name == name) {
            return Ok(u);
        }
        self.write(|tx| {
            tx.execute(
                "INSERT INTO users (id, name, created_at) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name
                 WHERE users.name <> excluded.name",
                &[&id, &name, &now],
            )?;
            one(
                tx,
                &format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"),
                &[&id],
                user_row,
            )?
            .ok_or(StoreError::NotFound)
        })
    }

    fn touch_member(
        &self,
        id: &str,
        name: &str,
        guild: &str,
        nick: Option<&str>,
        now: i64,
    ) -> Result<UserRow> {
        // Known under these names: one read only.
        let known = one(
            &mut *self.client()?,
            &format!(
                "SELECT {USER_COLUMNS}, (SELECT name FROM server_names
                     WHERE guild = $2 AND user_id = users.id)
                 FROM users WHERE id = $1"
            ),
            &[&id, &guild],
            |r| {
                Ok((
                    user_row(r)?,
                    r.try_get::<_, Option<String>>(user_columns())?,
                ))
            },
        )?;
        if let Some((u, n)) = known {
            if u.name == name && n.as_deref() == nick {
                return Ok(u);
            }
        }
        self.write(|tx| {
            tx.execute(
                "INSERT INTO users (id, name, created_at) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name
                 WHERE users.name <> excluded.name",
                &[&id, &name, &now],
            )?;
            match nick {
                Some(nick) => tx.execute(
                    "INSERT INTO server_names (guild, user_id, name, updated_at)
                     VALUES ($1, $2, $3, $4)
                     ON CONFLICT (guild, user_id) DO UPDATE
                     SET name = excluded.name, updated_at = excluded.updated_at
                     WHERE server_names.name <> excluded.name",
                    &[&guild, &id, &nick, &now],
                )?,
                None => tx.execute(
                    "DELETE FROM server_names WHERE guild = $1 AND user_id = $2",
                    &[&guild, &id],
                )?,
            };
            one(
                tx,
                &format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"),
                &[&id],
                user_row,
            )?
            .ok_or(StoreError::NotFound)
        })
    }

    fn name_in(&self, id: &str, guild: Option<&str>) -> Result<Option<String>> {
        one(
            &mut *self.client()?,
            "SELECT COALESCE((SELECT name FROM server_names
                 WHERE guild = $2 AND user_id = users.id), name)
             FROM users WHERE id = $1",
            &[&id, &guild],
            |r| Ok(r.try_get(0)?),
        )
    }

    fn server_names(&self, pairs: &[(String, String)]) -> Result<Vec<ServerName>> {
        let (guilds, users): (Vec<&str>, Vec<&str>) =
            pairs.iter().map(|(g, u)| (g.as_str(), u.as_str())).unzip();
        all(
            &mut *self.client()?,
            "SELECT s.guild, s.user_id, s.name FROM server_names s
             JOIN unnest($1::text[], $2::text[]) AS p (guild, user_id)
               ON s.guild = p.guild AND s.user_id = p.user_id",
            &[&guilds, &users],
            |r| {
                Ok(ServerName {
                    guild: r.try_get(0)?,
                    user_id: r.try_get(1)?,
                    name: r.try_get(2)?,
                })
            },
        )
    }

    fn user(&self, id: &str) -> Result<Option<UserRow>> {
        one(
            &mut *self.client()?,
            &format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"),
            &[&id],
            user_row,
        )
    }

    fn users(&self, ids: &[String]) -> Result<Vec<UserRow>> {
        all(
            &mut *self.client()?,
            &format!("SELECT {USER_COLUMNS} FROM users WHERE id = ANY($1)"),
            &[&ids],
            user_row,
        )
    }

    fn set_user_settings(&self, id: &str, style: &str, notify: &str) -> Result<()> {
        let n = self.client()?.execute(
            "UPDATE users SET style = $2, notify = $3 WHERE id = $1",
            &[&id, &style, &notify],
        )?;
        if n == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    fn server(&self, guild: &str) -> Result<Option<ServerRow>> {
        one(
            &mut *self.client()?,
            "SELECT guild, default_days, rated_default, games_channel, language, leagues,
                featured_game
             FROM servers WHERE guild = $1",
            &[&guild],
            |r| {
                Ok(ServerRow {
                    guild: r.try_get(0)?,
                    default_days: count(r, 1)?,
                    rated_default: r.try_get(2)?,
                    games_channel: r.try_get(3)?,
                    language: r.try_get(4)?,
                    leagues: r.try_get(5)?,
                    featured: r.try_get(6)?,
                })
            },
        )
    }

    fn set_server(&self, s: &ServerRow) -> Result<()> {
        self.client()?.execute(
            "INSERT INTO servers (guild, default_days, rated_default, games_channel, language,
                leagues, featured_game)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (guild) DO UPDATE SET default_days = excluded.default_days,
                rated_default = excluded.rated_default, games_channel = excluded.games_channel,
                language = excluded.language, leagues = excluded.leagues,
                featured_game = excluded.featured_game",
            &[
                &s.guild,
                &i64::from(s.default_days),
                &s.rated_default,
                &s.games_channel,
                &s.language,
                &s.leagues,
                &s.featured,
            ],
        )?;
        Ok(())
    }

    fn set_remind_hours(&self, id: &str, hours: Option<u32>) -> Result<()> {
        let n = self.client()?.execute(
            "UPDATE users SET remind_hours = $2 WHERE id = $1",
            &[&id, &hours.map(i64::from)],
        )?;
        if n == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    fn set_user_speech(
        &self,
        id: &str,
        language: Option<&str>,
        notation: Option<&str>,
    ) -> Result<()> {
        let n = self.client()?.execute(
            "UPDATE users SET language = $2, notation = $3 WHERE id = $1",
            &[&id, &language, &notation],
        )?;
        if n == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    fn set_user_locale(&self, id: &str, locale: &str) -> Result<()> {
        let n = self.client()?.execute(
            "UPDATE users SET locale = $2 WHERE id = $1",
            &[&id, &locale],
        )?;
        if n == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    fn server_locale(&self, guild: &str) -> Result<Option<String>> {
        one(
            &mut *self.client()?,
            "SELECT locale FROM server_locales WHERE guild = $1",
            &[&guild],
            |r| Ok(r.try_get(0)?),
        )
    }

    fn set_server_locale(&self, guild: &str, locale: &str) -> Result<()> {
        self.client()?.execute(
            "INSERT INTO server_locales (guild, locale) VALUES ($1, $2)
             ON CONFLICT (guild) DO UPDATE SET locale = excluded.locale",
            &[&guild, &locale],
        )?;
        Ok(())
    }
}

impl ClockStore for PgStore {
    fn due_games(&self, now: i64, limit: usize) -> Result<Vec<GameRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {GAME_COLUMNS} FROM games
                 WHERE status = 'active' AND deadline <= $1 ORDER BY deadline, id LIMIT $2"
            ),
            &[&now, &(limit as i64)],
            game_row,
        )
    }

    fn reminders_due(&self, now: i64, limit: usize) -> Result<Vec<GameRow>> {
        // Half the time per move gone (by the index `games_half_time`, whose expression this
        // repeats), then the lead of the player to move: the later of the two times has come
        // when both have.
        let columns = GAME_COLUMNS
            .split(", ")
            .map(|c| format!("g.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {columns} FROM games g LEFT JOIN users u ON u.id = g.to_move
                 WHERE g.status = 'active' AND NOT g.reminded
                   AND g.deadline - g.turn_span / 2 <= $1
                   AND coalesce(u.remind_hours, {DEFAULT_REMIND_HOURS}) > 0
                   AND g.deadline - coalesce(u.remind_hours, {DEFAULT_REMIND_HOURS}) * 3600 <= $1
                 ORDER BY g.deadline - g.turn_span / 2, g.id LIMIT $2"
            ),
            &[&now, &(limit as i64)],
            game_row,
        )
    }

    fn remind(&self, game: i64, deadline: i64, notice: &NewNotice, now: i64) -> Result<bool> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE games SET reminded = TRUE
                 WHERE id = (SELECT id FROM games
                    WHERE id = $1 AND status = 'active' AND NOT reminded AND deadline = $2
                    FOR UPDATE SKIP LOCKED)",
                &[&game, &deadline],
            )?;
            if n == 1 {
                queue(tx, &self.holder, std::slice::from_ref(notice), now)?;
            }
            Ok(n == 1)
        })
    }

    fn expired_challenges(&self, now: i64, limit: usize) -> Result<Vec<ChallengeRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {CHALLENGE_COLUMNS} FROM challenges
                 WHERE status = 'open' AND expires_at <= $1 ORDER BY expires_at, id LIMIT $2"
            ),
            &[&now, &(limit as i64)],
            challenge_row,
        )
    }

    fn expire_challenge(&self, id: i64, notices: &[NewNotice], now: i64) -> Result<bool> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE challenges SET status = 'expired'
                 WHERE id = (SELECT id FROM challenges WHERE id = $1 AND status = 'open'
                    FOR UPDATE SKIP LOCKED)",
                &[&id],
            )?;
            if n == 1 {
                queue(tx, &self.holder, notices, now)?;
            }
            Ok(n == 1)
        })
    }

    fn unsent(&self, limit: usize) -> Result<Vec<OutboxRow>> {
        all(
            &mut *self.client()?,
            "SELECT id, user_id, via, channel, text, created_at, game_id, ply, league_id FROM outbox
             WHERE sent_at IS NULL ORDER BY created_at, id LIMIT $1",
            &[&(limit as i64)],
            outbox_row,
        )
    }

    fn claim_unsent(&self, limit: usize) -> Result<Vec<OutboxRow>> {
        self.write(|tx| {
            renew(tx, &self.holder)?;
            // Rows another handle is claiming at this moment are locked: skipped, not waited
            // for (they are its, or will be). Holds are taken and compared by the server's
            // clock.
            let mut out = all(
                tx,
                &format!(
                    "WITH free AS (
                        SELECT id FROM outbox
                        WHERE sent_at IS NULL
                          AND (claimed_by = $1 OR claimed_until IS NULL
                               OR claimed_until <= {DB_NOW})
                        ORDER BY created_at, id LIMIT $3
                        FOR UPDATE SKIP LOCKED)
                     UPDATE outbox o SET claimed_by = $1, claimed_until = {DB_NOW} + $2 FROM free
                     WHERE o.id = free.id
                     RETURNING o.id, o.user_id, o.via, o.channel, o.text, o.created_at, o.game_id, o.ply,
                        o.league_id"
                ),
                &[&self.holder, &OUTBOX_LEASE, &(limit as i64)],
                outbox_row,
            )?;
            out.sort_by_key(|o| (o.created_at, o.id));
            Ok(out)
        })
    }

    fn release_claims(&self) -> Result<()> {
        self.client()?.execute(
            "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
             WHERE claimed_by = $1 AND sent_at IS NULL",
            &[&self.holder],
        )?;
        Ok(())
    }

    fn set_aside(&self, id: i64, reason: &str, now: i64) -> Result<()> {
        self.client()?.execute(
            "UPDATE outbox SET sent_at = $2, undelivered = $3 WHERE id = $1 AND sent_at IS NULL",
            &[&id, &now, &reason],
        )?;
        Ok(())
    }

    fn undelivered(&self, user: &str, since: i64, limit: usize) -> Result<Vec<OutboxRow>> {
        all(
            &mut *self.client()?,
            "SELECT id, user_id, via, channel, text, created_at, game_id, ply, league_id FROM outbox
             WHERE user_id = $1 AND undelivered IS NOT NULL AND created_at >= $2
             ORDER BY id DESC LIMIT $3",
            &[&user, &since, &(limit as i64)],
            outbox_row,
        )
    }

    fn mark_sent(&self, ids: &[i64], now: i64) -> Result<()> {
        self.client()?.execute(
            "UPDATE outbox SET sent_at = $2 WHERE id = ANY($1) AND sent_at IS NULL",
            &[&ids, &now],
        )?;
        Ok(())
    }

    fn start_vacation(
        &self,
        user: &str,
        now: i64,
        end: i64,
        shifts: &[DeadlineShift],
    ) -> Result<()> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO vacations (user_id, start_at, end_at) VALUES ($1, $2, $3)",
                &[&user, &now, &end],
            )?;
            tx.execute(
                "UPDATE users SET vacation_until = $2 WHERE id = $1",
                &[&user, &end],
            )?;
            shift_deadlines(tx, shifts)
        })
    }

    fn end_vacation(
        &self,
        user: &str,
        until: i64,
        now: i64,
        shifts: &[DeadlineShift],
    ) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE users SET vacation_until = NULL WHERE id = $1 AND vacation_until = $2",
                &[&user, &until],
            )?;
            if n != 1 {
                return Err(StoreError::Stale);
            }
            tx.execute(
                "UPDATE vacations SET end_at = $2 WHERE user_id = $1 AND end_at = $3",
                &[&user, &now, &until],
            )?;
            shift_deadlines(tx, shifts)
        })
    }

    fn vacation_used(&self, user: &str, since: i64) -> Result<i64> {
        let row = self.client()?.query_one(
            "SELECT coalesce(sum(end_at - start_at), 0)::BIGINT FROM vacations
             WHERE user_id = $1 AND start_at >= $2",
            &[&user, &since],
        )?;
        Ok(row.try_get(0)?)
    }

    fn renew_claims(&self) -> Result<()> {
        renew(&mut *self.client()?, &self.holder)
    }

    fn gauges(&self) -> Result<Gauges> {
        let row = one(
            &mut *self.client()?,
            "SELECT (SELECT count(*) FROM outbox WHERE sent_at IS NULL),
                    (SELECT min(created_at) FROM outbox WHERE sent_at IS NULL),
                    (SELECT count(*) FROM games WHERE status = 'active')",
            &[],
            |r| {
                Ok(Gauges {
                    unsent: u64::try_from(r.try_get::<_, i64>(0)?).unwrap_or(0),
                    oldest_unsent: r.try_get(1)?,
                    games_in_play: u64::try_from(r.try_get::<_, i64>(2)?).unwrap_or(0),
                })
            },
        )?;
        Ok(row.unwrap_or_default())
    }
}

/// Pushes the hold of every unsent notice `holder` holds to the server's now + `OUTBOX_LEASE`.
fn renew(c: &mut impl Sql, holder: &str) -> Result<()> {
    c.execute(
        &format!(
            "UPDATE outbox SET claimed_until = {DB_NOW} + $2
             WHERE claimed_by = $1 AND sent_at IS NULL"
        ),
        &[&holder, &OUTBOX_LEASE],
    )?;
    Ok(())
}

impl RatingStore for PgStore {
    fn rating(&self, user: &str, variant: &str, guild: &str) -> Result<Option<RatingRow>> {
        one(
            &mut *self.client()?,
            &format!(
                "SELECT {RATING_COLUMNS} FROM ratings
                 WHERE user_id = $1 AND variant = $2 AND guild = $3"
            ),
            &[&user, &variant, &guild],
            rating_row,
        )
    }

    fn ratings_of(&self, user: &str, guild: &str) -> Result<Vec<RatingRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = $1 AND guild = $2
                 ORDER BY variant"
            ),
            &[&user, &guild],
            rating_row,
        )
    }

    fn leaderboard(&self, variant: &str, guild: &str, limit: usize) -> Result<Vec<RatingRow>> {
        all(
            &mut *self.client()?,
            &format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE variant = $1 AND guild = $2
                 ORDER BY rating DESC, deviation ASC LIMIT $3"
            ),
            &[&variant, &guild, &(limit as i64)],
            rating_row,
        )
    }
}
