//! The SQLite store: one database file in WAL mode, foreign keys on, a busy timeout, a small
//! pool of connections (one per thread at a time), the migrations of `migrations/` applied in
//! order when the store opens. Every write is one `BEGIN IMMEDIATE` transaction; game changes
//! are guarded by the game's version.

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use rusqlite::{params, Connection, OptionalExtension, Row, TransactionBehavior};
use rusqlite_migration::{Migrations, M};

use super::*;

mod conditional;
mod follow;
mod league;

/// The migrations, in order. Each file of `migrations/` must be listed here (a test checks it).
pub const MIGRATIONS: &[(&str, &str)] = &[
    (
        "0001_initial.sql",
        include_str!("../../migrations/0001_initial.sql"),
    ),
    (
        "0002_correspondence.sql",
        include_str!("../../migrations/0002_correspondence.sql"),
    ),
    (
        "0003_to_move_index.sql",
        include_str!("../../migrations/0003_to_move_index.sql"),
    ),
    (
        "0004_notices_of_commands.sql",
        include_str!("../../migrations/0004_notices_of_commands.sql"),
    ),
    (
        "0005_computer_games.sql",
        include_str!("../../migrations/0005_computer_games.sql"),
    ),
    (
        "0006_outbox_claims.sql",
        include_str!("../../migrations/0006_outbox_claims.sql"),
    ),
    (
        "0007_reminder_lead.sql",
        include_str!("../../migrations/0007_reminder_lead.sql"),
    ),
    (
        "0008_server_names.sql",
        include_str!("../../migrations/0008_server_names.sql"),
    ),
    (
        "0009_outbox_posts.sql",
        include_str!("../../migrations/0009_outbox_posts.sql"),
    ),
    (
        "0010_language.sql",
        include_str!("../../migrations/0010_language.sql"),
    ),
    (
        "0011_leagues.sql",
        include_str!("../../migrations/0011_leagues.sql"),
    ),
    (
        "0012_league_homes.sql",
        include_str!("../../migrations/0012_league_homes.sql"),
    ),
    (
        "0013_conditionals.sql",
        include_str!("../../migrations/0013_conditionals.sql"),
    ),
    (
        "0014_featured_game.sql",
        include_str!("../../migrations/0014_featured_game.sql"),
    ),
    (
        "0015_clocks.sql",
        include_str!("../../migrations/0015_clocks.sql"),
    ),
    (
        "0016_followers.sql",
        include_str!("../../migrations/0016_followers.sql"),
    ),
];

/// How hard SQLite works to keep a commit across a crash of the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// `synchronous=FULL`: a commit survives power loss (the default).
    Full,
    /// `synchronous=NORMAL`: a commit survives a crash of the process, not of the machine.
    Normal,
}

/// At most this many connections are open at once; a caller beyond them waits for one.
/// SQLite serialises writers anyway, and WAL readers gain little past the number of cores.
pub const MAX_CONNECTIONS: usize = 8;

/// A store in one SQLite file.
pub struct SqliteStore {
    path: PathBuf,
    durability: Durability,
    pool: Mutex<Pool>,
    freed: Condvar,
    /// This handle's name on the notices it holds.
    holder: String,
}

/// The connections: idle ones, and how many exist (idle or in use).
struct Pool {
    idle: Vec<Connection>,
    open: usize,
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

const RATING_COLUMNS: &str =
    "user_id, variant, guild, rating, deviation, volatility, games, wins, losses, draws";

const CHALLENGE_COLUMNS: &str = "id, challenger, challenged, variant, color, days_per_move, \
    handicap, setup, rated, guild, channel, status, game_id, created_at, expires_at, \
    clock, increment_days, cap_days, period_days";

/// Inserts a new game; its id.
fn insert_game(tx: &rusqlite::Transaction, game: &NewGame, now: i64) -> Result<i64> {
    tx.execute(
        "INSERT INTO games (variant, setup, start_position, first_player, second_player,
            guild, channel, status, rated, days_per_move, deadline, position, ply,
            version, created_at, updated_at, to_move, computer_level, clock, increment_days,
            cap_days, period_days, bank_first, bank_second, turn_span)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'active', ?8, ?9, ?10, ?3, 0, 0, ?11, ?11, ?12, ?13,
            ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
        params![
            game.variant,
            game.setup,
            game.start_position,
            game.players[0],
            game.players[1],
            game.guild,
            game.channel,
            game.rated,
            game.control.days,
            game.deadline,
            now,
            game.to_move,
            game.computer_level,
            game.control.kind.as_str(),
            game.control.increment,
            game.control.cap,
            game.control.period,
            game.banks[0],
            game.banks[1],
            game.turn_span
        ],
    )?;
    Ok(tx.last_insert_rowid())
}

fn game_row(r: &Row) -> rusqlite::Result<GameRow> {
    let status: String = r.get(9)?;
    let result: Option<String> = r.get(10)?;
    Ok(GameRow {
        id: r.get(0)?,
        variant: r.get(1)?,
        setup: r.get(2)?,
        start_position: r.get(3)?,
        players: [r.get(4)?, r.get(5)?],
        guild: r.get(6)?,
        channel: r.get(7)?,
        thread: r.get(8)?,
        status: if status == "active" {
            GameStatus::Active
        } else {
            GameStatus::Finished
        },
        result: result.as_deref().and_then(GameResult::parse),
        reason: r.get(11)?,
        rated: r.get(12)?,
        control: TimeControl::from_columns(
            &r.get::<_, String>(24)?,
            r.get(13)?,
            r.get(25)?,
            r.get(26)?,
            r.get(27)?,
        ),
        deadline: r.get(14)?,
        banks: [r.get(28)?, r.get(29)?],
        turn_span: r.get(30)?,
        position: r.get(15)?,
        ply: r.get(16)?,
        version: r.get(17)?,
        created_at: r.get(18)?,
        updated_at: r.get(19)?,
        finished_at: r.get(20)?,
        to_move: r.get(21)?,
        reminded: r.get(22)?,
        computer_level: r.get(23)?,
    })
}

fn move_row(r: &Row) -> rusqlite::Result<MoveRow> {
    Ok(MoveRow {
        ply: r.get(0)?,
        code: r.get(1)?,
        notation: r.get(2)?,
        position: r.get(3)?,
        user: r.get(4)?,
        played_at: r.get(5)?,
    })
}

fn rating_row(r: &Row) -> rusqlite::Result<RatingRow> {
    Ok(RatingRow {
        user: r.get(0)?,
        variant: r.get(1)?,
        guild: r.get(2)?,
        rating: r.get(3)?,
        deviation: r.get(4)?,
        volatility: r.get(5)?,
        games: r.get(6)?,
        wins: r.get(7)?,
        losses: r.get(8)?,
        draws: r.get(9)?,
    })
}

fn outbox_row(r: &Row) -> rusqlite::Result<OutboxRow> {
    Ok(OutboxRow {
        id: r.get(0)?,
        notice: NewNotice {
            id: r.get(0)?,
            user: r.get(1)?,
            via: r.get(2)?,
            channel: r.get(3)?,
            text: r.get(4)?,
            game: r.get(6)?,
            ply: r.get(7)?,
            league: r.get(8)?,
        },
        created_at: r.get(5)?,
    })
}

/// Queues notices in the outbox, in the caller's transaction.
fn queue(tx: &Connection, holder: &str, notices: &[NewNotice], now: i64) -> Result<()> {
    queue_with(tx, holder, notices, None, &[], now)
}

/// `queue`, with `game` for the notices that name none, and the placeholders `subst` (such as
/// `{game}`) replaced in their texts by the ids the transaction just made.
fn queue_with(
    tx: &Connection,
    holder: &str,
    notices: &[NewNotice],
    game: Option<i64>,
    subst: &[(&str, i64)],
    now: i64,
) -> Result<()> {
    let mut st = tx.prepare_cached(
        "INSERT INTO outbox (id, user_id, via, channel, text, created_at, game_id,
            claimed_by, claimed_until, ply, league_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, unixepoch() + ?9, ?10, ?11)",
    )?;
    for n in notices {
        if n.id <= 0 {
            return Err(StoreError::Invalid(format!(
                "notice id {} is not positive",
                n.id
            )));
        }
        let text = fill(&n.text, subst);
        st.execute(params![
            n.id,
            n.user,
            n.via,
            n.channel,
            text,
            now,
            n.game.or(game),
            holder,
            OUTBOX_LEASE,
            n.ply,
            n.league
        ])?;
    }
    Ok(())
}

/// Queues the notices of a new game: about it unless they name another, `{game}` its number.
fn queue_about_game(
    tx: &Connection,
    holder: &str,
    notices: &[NewNotice],
    game: i64,
    now: i64,
) -> Result<()> {
    queue_with(tx, holder, notices, Some(game), &[("{game}", game)], now)
}

/// A notice's text with its placeholders (`{game}`, `{challenge}`) replaced.
pub fn fill(text: &str, subst: &[(&str, i64)]) -> String {
    let mut t = text.to_string();
    for (name, value) in subst {
        t = t.replace(name, &value.to_string());
    }
    t
}

/// Ends a game in a transaction: status, result, notices, and the ratings the core computed.
fn end_game(tx: &Connection, holder: &str, game: i64, f: &Finish, now: i64) -> Result<()> {
    let n = tx.execute(
        "UPDATE games SET status = 'finished', result = ?2, reason = ?3, finished_at = ?4,
            deadline = NULL, to_move = NULL
         WHERE id = ?1 AND status = 'active'",
        params![game, f.ending.result.as_str(), f.ending.reason, now],
    )?;
    if n != 1 {
        return Err(StoreError::Conflict);
    }
    tx.execute("DELETE FROM offers WHERE game_id = ?1", [game])?;
    queue(tx, holder, f.notices, now)?;
    for r in &f.ratings {
        let row = &r.row;
        // `games` is the row's version: written only if still as read (0: no row yet).
        let n = if r.read_games == 0 {
            tx.prepare_cached(
                "INSERT INTO ratings (user_id, variant, guild, rating, deviation, volatility,
                    games, wins, losses, draws, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                 ON CONFLICT (user_id, variant, guild) DO NOTHING",
            )?
            .execute(params![
                row.user,
                row.variant,
                row.guild,
                row.rating,
                row.deviation,
                row.volatility,
                row.games,
                row.wins,
                row.losses,
                row.draws,
                now
            ])?
        } else {
            tx.prepare_cached(
                "UPDATE ratings SET rating = ?4, deviation = ?5, volatility = ?6, games = ?7,
                    wins = ?8, losses = ?9, draws = ?10, updated_at = ?11
                 WHERE user_id = ?1 AND variant = ?2 AND guild = ?3 AND games = ?12",
            )?
            .execute(params![
                row.user,
                row.variant,
                row.guild,
                row.rating,
                row.deviation,
                row.volatility,
                row.games,
                row.wins,
                row.losses,
                row.draws,
                now,
                r.read_games
            ])?
        };
        if n != 1 {
            return Err(StoreError::Stale);
        }
    }
    Ok(())
}

fn challenge_row(r: &Row) -> rusqlite::Result<ChallengeRow> {
    let status: String = r.get(11)?;
    Ok(ChallengeRow {
        id: r.get(0)?,
        challenger: r.get(1)?,
        challenged: r.get(2)?,
        variant: r.get(3)?,
        color: r.get(4)?,
        control: TimeControl::from_columns(
            &r.get::<_, String>(15)?,
            r.get(5)?,
            r.get(16)?,
            r.get(17)?,
            r.get(18)?,
        ),
        handicap: r.get(6)?,
        setup: r.get(7)?,
        rated: r.get(8)?,
        guild: r.get(9)?,
        channel: r.get(10)?,
        status: ChallengeStatus::parse(&status).unwrap_or(ChallengeStatus::Expired),
        game_id: r.get(12)?,
        created_at: r.get(13)?,
        expires_at: r.get(14)?,
    })
}

fn user_row(r: &Row) -> rusqlite::Result<UserRow> {
    Ok(UserRow {
        id: r.get(0)?,
        name: r.get(1)?,
        style: r.get(2)?,
        notify: r.get(3)?,
        vacation_until: r.get(4)?,
        last_digest_at: r.get(5)?,
        remind_hours: r.get(6)?,
        language: r.get(7)?,
        notation: r.get(8)?,
        locale: r.get(9)?,
        digest_hour: r.get(10)?,
        timezone: r.get(11)?,
        next_digest_at: r.get(12)?,
    })
}

impl SqliteStore {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore> {
        SqliteStore::open_with(path, Durability::Full)
    }

    pub fn open_with(path: impl AsRef<Path>, durability: Durability) -> Result<SqliteStore> {
        let store = SqliteStore {
            path: path.as_ref().to_path_buf(),
            durability,
            pool: Mutex::new(Pool {
                idle: Vec::new(),
                open: 0,
            }),
            freed: Condvar::new(),
            holder: holder_id(),
        };
        let mut conn = store.take()?;
        let migrations = Migrations::new(MIGRATIONS.iter().map(|(_, sql)| M::up(sql)).collect());
        migrations.to_latest(&mut conn)?;
        store.release(conn);
        Ok(store)
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn connect(&self) -> Result<Connection> {
        let conn = Connection::open(&self.path)?;
        conn.busy_timeout(Duration::from_secs(10))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let sync = match self.durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", sync)?;
        Ok(conn)
    }

    fn lock_pool(&self) -> std::sync::MutexGuard<'_, Pool> {
        // The pool holds no invariant a panic elsewhere could break.
        self.pool.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// An idle connection, a new one while fewer than `MAX_CONNECTIONS` exist, else the next
    /// one released.
    fn take(&self) -> Result<Connection> {
        let mut pool = self.lock_pool();
        loop {
            if let Some(c) = pool.idle.pop() {
                return Ok(c);
            }
            if pool.open < MAX_CONNECTIONS {
                pool.open += 1;
                drop(pool);
                return self.connect().inspect_err(|_| {
                    self.lock_pool().open -= 1;
                    self.freed.notify_one();
                });
            }
            pool = self.freed.wait(pool).unwrap_or_else(|p| p.into_inner());
        }
    }

    fn release(&self, conn: Connection) {
        self.lock_pool().idle.push(conn);
        self.freed.notify_one();
    }

    /// Runs `f` with a connection of the pool.
    fn with<T>(&self, f: impl FnOnce(&mut Connection) -> Result<T>) -> Result<T> {
        let mut conn = self.take()?;
        let out = f(&mut conn);
        self.release(conn);
        out
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction, committed if `f` succeeds.
    fn write<T>(&self, f: impl FnOnce(&rusqlite::Transaction) -> Result<T>) -> Result<T> {
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let out = f(&tx)?;
            tx.commit()?;
            Ok(out)
        })
    }
}

fn get_game(conn: &Connection, id: i64) -> Result<Option<GameRow>> {
    Ok(conn
        .query_row(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
            [id],
            game_row,
        )
        .optional()?)
}

fn get_challenge(conn: &Connection, id: i64) -> Result<Option<ChallengeRow>> {
    Ok(conn
        .query_row(
            &format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?1"),
            [id],
            challenge_row,
        )
        .optional()?)
}

/// Writes new deadlines (a vacation's), each game moving to its next version with its reminder
/// cleared; `Stale` if one is no longer at the version the deadline was computed from.
fn shift_deadlines(tx: &Connection, shifts: &[DeadlineShift]) -> Result<()> {
    let mut st = tx.prepare_cached(
        "UPDATE games SET deadline = ?3, reminded = 0, version = version + 1
         WHERE id = ?1 AND version = ?2 AND status = 'active'",
    )?;
    for s in shifts {
        if st.execute(params![s.game, s.version, s.deadline])? != 1 {
            return Err(StoreError::Stale);
        }
    }
    Ok(())
}

/// Moves a game from `version` to `version + 1`; `Conflict` if it is no longer at `version`.
fn bump(tx: &Connection, game: i64, version: i64, now: i64) -> Result<()> {
    let n = tx.execute(
        "UPDATE games SET version = version + 1, updated_at = ?3 WHERE id = ?1 AND version = ?2",
        params![game, version, now],
    )?;
    if n == 1 {
        Ok(())
    } else if get_game(tx, game)?.is_none() {
        Err(StoreError::NotFound)
    } else {
        Err(StoreError::Conflict)
    }
}

impl GameStore for SqliteStore {
    fn game(&self, id: i64) -> Result<Option<GameRow>> {
        self.with(|c| get_game(c, id))
    }

    fn games_of(
        &self,
        user: &str,
        status: GameStatus,
        guild: Option<&str>,
        limit: usize,
    ) -> Result<Vec<GameRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM games
                 WHERE (first_player = ?1 OR second_player = ?1) AND status = ?2
                   AND (?4 IS NULL OR guild = ?4)
                 ORDER BY updated_at DESC, id DESC LIMIT ?3"
            ))?;
            let rows = st.query_map(
                params![user, status.as_str(), limit as i64, guild],
                game_row,
            )?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn waiting_for(&self, user: &str) -> Result<Vec<GameRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM games
                 WHERE status = 'active' AND to_move = ?1 ORDER BY id"
            ))?;
            let rows = st.query_map([user], game_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn moves(&self, game: i64) -> Result<Vec<MoveRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(
                "SELECT ply, code, notation, position, user_id, played_at FROM moves
                 WHERE game_id = ?1 AND taken_back = 0 ORDER BY ply",
            )?;
            let rows = st.query_map([game], move_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn game_with_moves(&self, id: i64) -> Result<Option<(GameRow, Vec<MoveRow>)>> {
        self.with(|c| {
            // One read transaction: a move committed meanwhile is either wholly seen or not.
            let tx = c.transaction()?;
            let Some(game) = get_game(&tx, id)? else {
                return Ok(None);
            };
            let moves = {
                let mut st = tx.prepare_cached(
                    "SELECT ply, code, notation, position, user_id, played_at FROM moves
                     WHERE game_id = ?1 AND taken_back = 0 ORDER BY ply",
                )?;
                let rows = st.query_map([id], move_row)?;
                rows.collect::<rusqlite::Result<Vec<_>>>()?
            };
            tx.commit()?;
            Ok(Some((game, moves)))
        })
    }

    fn start_game(&self, game: &NewGame, notices: &[NewNotice], now: i64) -> Result<GameRow> {
        self.write(|tx| {
            let game_id = insert_game(tx, game, now)?;
            queue_about_game(tx, &self.holder, notices, game_id, now)?;
            get_game(tx, game_id)?.ok_or(StoreError::NotFound)
        })
    }

    fn computer_games(&self, computer: &str) -> Result<Vec<GameRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM games
                 WHERE to_move = ?1 AND computer_level IS NOT NULL AND status = 'active'
                 ORDER BY id"
            ))?;
            let rows = st.query_map(params![computer], game_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
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
            tx.prepare_cached(
                "INSERT INTO moves (game_id, ply, code, notation, position, user_id, played_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                game,
                mv.ply,
                mv.code,
                mv.notation,
                mv.position,
                mv.user,
                mv.played_at
            ])?;
            tx.prepare_cached(
                "UPDATE games SET position = ?2, ply = ?3, to_move = ?4, deadline = ?5, reminded = 0,
                    turn_span = ?6, bank_first = ?7, bank_second = ?8
                 WHERE id = ?1",
            )?
            .execute(params![
                game,
                mv.position,
                mv.ply,
                next.to_move,
                next.deadline,
                next.span,
                next.banks[0],
                next.banks[1]
            ])?;
            tx.prepare_cached("DELETE FROM offers WHERE game_id = ?1")?
                .execute([game])?;
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
        self.with(|conn| {
            let mut tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let mut done = Vec::with_capacity(games.len());
            for (game, version, finish) in games {
                // Each game in a savepoint: one that moved on is rolled back alone.
                let sp = tx.savepoint()?;
                let r = bump(&sp, *game, *version, now)
                    .and_then(|_| end_game(&sp, &self.holder, *game, finish, now));
                match r {
                    Ok(()) => {
                        sp.commit()?;
                        done.push(BatchEnd::Ended);
                    }
                    Err(StoreError::Conflict | StoreError::NotFound) => done.push(BatchEnd::Moved),
                    Err(StoreError::Stale) => done.push(BatchEnd::Stale),
                    Err(e) => return Err(e),
                }
            }
            tx.commit()?;
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
                "UPDATE moves SET taken_back = 1 WHERE game_id = ?1 AND ply > ?2 AND taken_back = 0",
                params![game, keep_ply],
            )?;
            tx.execute(
                "UPDATE games SET position = ?2, ply = ?3, to_move = ?4, deadline = ?5, reminded = 0,
                    status = 'active', result = NULL, reason = NULL, finished_at = NULL,
                    turn_span = ?6, bank_first = ?7, bank_second = ?8
                 WHERE id = ?1",
                params![
                    game,
                    position,
                    keep_ply,
                    next.to_move,
                    next.deadline,
                    next.span,
                    next.banks[0],
                    next.banks[1]
                ],
            )?;
            tx.execute("DELETE FROM offers WHERE game_id = ?1", [game])?;
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
                "UPDATE games SET deadline = ?2, reminded = 0
                 WHERE id = ?1 AND status = 'active' AND deadline IS NOT NULL",
                params![game, deadline],
            )?;
            if n != 1 {
                return Err(StoreError::Conflict);
            }
            queue(tx, &self.holder, notices, now)?;
            get_game(tx, game)?.ok_or(StoreError::NotFound)
        })
    }

    fn set_thread(&self, game: i64, thread: &str) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE games SET thread = ?2 WHERE id = ?1",
                params![game, thread],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            Ok(())
        })
    }

    fn set_home(&self, game: i64, channel: Option<&str>, thread: Option<&str>) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE games SET channel = ?2, thread = ?3 WHERE id = ?1",
                params![game, channel, thread],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            Ok(())
        })
    }

    fn integrity_check(&self) -> Result<String> {
        self.with(|c| Ok(c.query_row("PRAGMA integrity_check", [], |r| r.get(0))?))
    }
}

impl ChallengeStore for SqliteStore {
    fn create_challenge(
        &self,
        c: &NewChallenge,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<ChallengeRow> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO challenges (challenger, challenged, variant, color, days_per_move,
                    handicap, setup, rated, guild, channel, status, created_at, expires_at, clock,
                    increment_days, cap_days, period_days)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'open', ?11, ?12, ?13, ?14, ?15,
                    ?16)",
                params![
                    c.challenger,
                    c.challenged,
                    c.variant,
                    c.color,
                    c.control.days,
                    c.handicap,
                    c.setup,
                    c.rated,
                    c.guild,
                    c.channel,
                    now,
                    c.expires_at,
                    c.control.kind.as_str(),
                    c.control.increment,
                    c.control.cap,
                    c.control.period
                ],
            )?;
            let id = tx.last_insert_rowid();
            queue_with(tx, &self.holder, notices, None, &[("{challenge}", id)], now)?;
            get_challenge(tx, id)?.ok_or(StoreError::NotFound)
        })
    }

    fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>> {
        self.with(|c| get_challenge(c, id))
    }

    fn open_challenges(&self, user: &str, now: i64) -> Result<Vec<ChallengeRow>> {
        self.with(|c| {
            let mut st = c.prepare(&format!(
                "SELECT {CHALLENGE_COLUMNS} FROM challenges
                 WHERE status = 'open' AND expires_at > ?2
                   AND (challenger = ?1 OR challenged = ?1 OR challenged IS NULL)
                 ORDER BY id"
            ))?;
            let rows = st.query_map(params![user, now], challenge_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
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
                "UPDATE challenges SET status = 'accepted', game_id = ?2
                 WHERE id = ?1 AND status = 'open'",
                params![id, game_id],
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
                "UPDATE challenges SET status = ?2 WHERE id = ?1 AND status = 'open'",
                params![id, status.as_str()],
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
            let current = get_game(tx, game)?.ok_or(StoreError::NotFound)?;
            if current.version != version || current.status != GameStatus::Active {
                return Err(StoreError::Conflict);
            }
            tx.execute(
                "INSERT INTO offers (game_id, kind, from_user, ply, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (game_id, kind) DO UPDATE SET from_user = excluded.from_user,
                    ply = excluded.ply, created_at = excluded.created_at",
                params![
                    game,
                    offer.kind.as_str(),
                    offer.from_user,
                    offer.ply,
                    offer.created_at
                ],
            )?;
            queue(tx, &self.holder, notices, offer.created_at)
        })
    }

    fn offer(&self, game: i64, kind: OfferKind) -> Result<Option<OfferRow>> {
        self.with(|c| {
            Ok(c.query_row(
                "SELECT from_user, ply, created_at FROM offers WHERE game_id = ?1 AND kind = ?2",
                params![game, kind.as_str()],
                |r| {
                    Ok(OfferRow {
                        game_id: game,
                        kind,
                        from_user: r.get(0)?,
                        ply: r.get(1)?,
                        created_at: r.get(2)?,
                    })
                },
            )
            .optional()?)
        })
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
                "DELETE FROM offers WHERE game_id = ?1 AND kind = ?2",
                params![game, kind.as_str()],
            )?;
            queue(tx, &self.holder, notices, now)
        })
    }

    fn challenge_times(&self, challenger: &str, challenged: &str, since: i64) -> Result<Vec<i64>> {
        self.with(|c| {
            let mut st = c.prepare(
                "SELECT created_at FROM challenges
                 WHERE challenger = ?1 AND challenged = ?2 AND created_at >= ?3
                 ORDER BY created_at",
            )?;
            let rows = st.query_map(params![challenger, challenged, since], |r| r.get(0))?;
            Ok(rows.collect::<rusqlite::Result<Vec<i64>>>()?)
        })
    }
}

impl UserStore for SqliteStore {
    fn touch_user(&self, id: &str, name: &str, now: i64) -> Result<UserRow> {
        // Known under this name: a read, no write lock.
        if let Some(u) = self.user(id)?.filter(|u| u.name == name) {
            return Ok(u);
        }
        self.write(|tx| {
            tx.execute(
                "INSERT INTO users (id, name, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name WHERE name <> excluded.name",
                params![id, name, now],
            )?;
            Ok(tx.query_row(
                &format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1"),
                [id],
                user_row,
            )?)
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
        // Known under these names: one read, no write lock.
        let known = self.with(|c| {
            Ok(c.query_row(
                &format!(
                    "SELECT {USER_COLUMNS}, (SELECT name FROM server_names
                         WHERE guild = ?2 AND user_id = users.id)
                     FROM users WHERE id = ?1"
                ),
                params![id, guild],
                |r| Ok((user_row(r)?, r.get::<_, Option<String>>(user_columns())?)),
            )
            .optional()?)
        })?;
        if let Some((u, n)) = known {
            if u.name == name && n.as_deref() == nick {
                return Ok(u);
            }
        }
        self.write(|tx| {
            tx.execute(
                "INSERT INTO users (id, name, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name WHERE name <> excluded.name",
                params![id, name, now],
            )?;
            match nick {
                Some(nick) => tx.execute(
                    "INSERT INTO server_names (guild, user_id, name, updated_at)
                     VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (guild, user_id) DO UPDATE
                     SET name = excluded.name, updated_at = excluded.updated_at
                     WHERE name <> excluded.name",
                    params![guild, id, nick, now],
                )?,
                None => tx.execute(
                    "DELETE FROM server_names WHERE guild = ?1 AND user_id = ?2",
                    params![guild, id],
                )?,
            };
            Ok(tx.query_row(
                &format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1"),
                [id],
                user_row,
            )?)
        })
    }

    fn name_in(&self, id: &str, guild: Option<&str>) -> Result<Option<String>> {
        self.with(|c| {
            Ok(c.prepare_cached(
                "SELECT COALESCE((SELECT name FROM server_names
                     WHERE guild = ?2 AND user_id = users.id), name)
                 FROM users WHERE id = ?1",
            )?
            .query_row(params![id, guild], |r| r.get(0))
            .optional()?)
        })
    }

    fn server_names(&self, pairs: &[(String, String)]) -> Result<Vec<ServerName>> {
        self.with(|c| {
            let mut st = c.prepare_cached(
                "SELECT name FROM server_names WHERE guild = ?1 AND user_id = ?2",
            )?;
            let mut out = Vec::new();
            for (guild, user) in pairs {
                if let Some(name) = st.query_row([guild, user], |r| r.get(0)).optional()? {
                    out.push(ServerName {
                        guild: guild.clone(),
                        user_id: user.clone(),
                        name,
                    });
                }
            }
            Ok(out)
        })
    }

    fn user(&self, id: &str) -> Result<Option<UserRow>> {
        self.with(|c| {
            Ok(c.query_row(
                &format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1"),
                [id],
                user_row,
            )
            .optional()?)
        })
    }

    fn users(&self, ids: &[String]) -> Result<Vec<UserRow>> {
        self.with(|c| {
            let mut st =
                c.prepare_cached(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = ?1"))?;
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                if let Some(u) = st.query_row([id], user_row).optional()? {
                    out.push(u);
                }
            }
            Ok(out)
        })
    }

    fn set_user_settings(&self, id: &str, style: &str, notify: &str) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE users SET style = ?2, notify = ?3 WHERE id = ?1",
                params![id, style, notify],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            Ok(())
        })
    }

    fn server(&self, guild: &str) -> Result<Option<ServerRow>> {
        self.with(|c| {
            Ok(c.query_row(
                "SELECT guild, default_days, rated_default, games_channel, language, leagues,
                    featured_game
                 FROM servers WHERE guild = ?1",
                [guild],
                |r| {
                    Ok(ServerRow {
                        guild: r.get(0)?,
                        default_days: r.get(1)?,
                        rated_default: r.get(2)?,
                        games_channel: r.get(3)?,
                        language: r.get(4)?,
                        leagues: r.get(5)?,
                        featured: r.get(6)?,
                    })
                },
            )
            .optional()?)
        })
    }

    fn set_server(&self, s: &ServerRow) -> Result<()> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO servers (guild, default_days, rated_default, games_channel, language,
                    leagues, featured_game)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (guild) DO UPDATE SET default_days = excluded.default_days,
                    rated_default = excluded.rated_default, games_channel = excluded.games_channel,
                    language = excluded.language, leagues = excluded.leagues,
                    featured_game = excluded.featured_game",
                params![
                    s.guild,
                    s.default_days,
                    s.rated_default,
                    s.games_channel,
                    s.language,
                    s.leagues,
                    s.featured
                ],
            )?;
            Ok(())
        })
    }

    fn set_remind_hours(&self, id: &str, hours: Option<u32>) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE users SET remind_hours = ?2 WHERE id = ?1",
                params![id, hours],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            Ok(())
        })
    }

    fn set_user_speech(
        &self,
        id: &str,
        language: Option<&str>,
        notation: Option<&str>,
    ) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE users SET language = ?2, notation = ?3 WHERE id = ?1",
                params![id, language, notation],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            Ok(())
        })
    }

    fn set_user_locale(&self, id: &str, locale: &str) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE users SET locale = ?2 WHERE id = ?1",
                params![id, locale],
            )?;
            if n == 0 {
                return Err(StoreError::NotFound);
            }
            Ok(())
        })
    }

    fn server_locale(&self, guild: &str) -> Result<Option<String>> {
        self.with(|c| {
            Ok(c.query_row(
                "SELECT locale FROM server_locales WHERE guild = ?1",
                [guild],
                |r| r.get(0),
            )
            .optional()?)
        })
    }

    fn set_server_locale(&self, guild: &str, locale: &str) -> Result<()> {
        self.write(|tx| {
            tx.execute(
                "INSERT INTO server_locales (guild, locale) VALUES (?1, ?2)
                 ON CONFLICT (guild) DO UPDATE SET locale = excluded.locale",
                params![guild, locale],
            )?;
            Ok(())
        })
    }
}

impl ClockStore for SqliteStore {
    fn due_games(&self, now: i64, limit: usize) -> Result<Vec<GameRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {GAME_COLUMNS} FROM games
                 WHERE status = 'active' AND deadline <= ?1 ORDER BY deadline LIMIT ?2"
            ))?;
            let rows = st.query_map(params![now, limit as i64], game_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn reminders_due(&self, now: i64, limit: usize) -> Result<Vec<GameRow>> {
        self.with(|c| {
            // Half the time per move gone (by the index `games_half_time`, whose expression this
            // repeats word for word), then the lead of the player to move: the later of the two
            // times has come when both have.
            let mut st = c.prepare_cached(&format!(
                "SELECT {} FROM games g LEFT JOIN users u ON u.id = g.to_move
                 WHERE g.status = 'active' AND g.reminded = 0
                   AND g.deadline - g.turn_span / 2 <= ?1
                   AND coalesce(u.remind_hours, {DEFAULT_REMIND_HOURS}) > 0
                   AND g.deadline - coalesce(u.remind_hours, {DEFAULT_REMIND_HOURS}) * 3600 <= ?1
                 ORDER BY g.deadline - g.turn_span / 2, g.id LIMIT ?2",
                qualified(GAME_COLUMNS, "g")
            ))?;
            let rows = st.query_map(params![now, limit as i64], game_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn remind(&self, game: i64, deadline: i64, notice: &NewNotice, now: i64) -> Result<bool> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE games SET reminded = 1
                 WHERE id = ?1 AND status = 'active' AND reminded = 0 AND deadline = ?2",
                params![game, deadline],
            )?;
            if n == 1 {
                queue(tx, &self.holder, std::slice::from_ref(notice), now)?;
            }
            Ok(n == 1)
        })
    }

    fn expired_challenges(&self, now: i64, limit: usize) -> Result<Vec<ChallengeRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {CHALLENGE_COLUMNS} FROM challenges
                 WHERE status = 'open' AND expires_at <= ?1 ORDER BY expires_at LIMIT ?2"
            ))?;
            let rows = st.query_map(params![now, limit as i64], challenge_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn expire_challenge(&self, id: i64, notices: &[NewNotice], now: i64) -> Result<bool> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE challenges SET status = 'expired' WHERE id = ?1 AND status = 'open'",
                [id],
            )?;
            if n == 1 {
                queue(tx, &self.holder, notices, now)?;
            }
            Ok(n == 1)
        })
    }

    fn unsent(&self, limit: usize) -> Result<Vec<OutboxRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(
                "SELECT id, user_id, via, channel, text, created_at, game_id, ply, league_id FROM outbox
                 WHERE sent_at IS NULL ORDER BY created_at, id LIMIT ?1",
            )?;
            let rows = st.query_map([limit as i64], outbox_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn claim_unsent(&self, limit: usize) -> Result<Vec<OutboxRow>> {
        // One immediate transaction: SQLite lets one writer in at a time, so two handles (two
        // processes on one file) claiming at once take turns and never share a row. Holds are
        // taken and compared by SQLite's clock (`unixepoch()`), not the caller's.
        self.write(|tx| {
            renew(tx, &self.holder)?;
            let mut st = tx.prepare_cached(
                "UPDATE outbox SET claimed_by = ?1, claimed_until = unixepoch() + ?2
                 WHERE id IN (
                    SELECT id FROM outbox
                    WHERE sent_at IS NULL
                      AND (claimed_by = ?1 OR claimed_until IS NULL
                           OR claimed_until <= unixepoch())
                    ORDER BY created_at, id LIMIT ?3)
                 RETURNING id, user_id, via, channel, text, created_at, game_id, ply, league_id",
            )?;
            let rows =
                st.query_map(params![self.holder, OUTBOX_LEASE, limit as i64], outbox_row)?;
            let mut out = rows.collect::<rusqlite::Result<Vec<_>>>()?;
            out.sort_by_key(|o| (o.created_at, o.id));
            Ok(out)
        })
    }

    fn release_claims(&self) -> Result<()> {
        self.write(|tx| {
            tx.execute(
                "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
                 WHERE claimed_by = ?1 AND sent_at IS NULL",
                [&self.holder],
            )?;
            Ok(())
        })
    }

    fn set_aside(&self, id: i64, reason: &str, now: i64) -> Result<()> {
        self.write(|tx| {
            tx.prepare_cached(
                "UPDATE outbox SET sent_at = ?2, undelivered = ?3 WHERE id = ?1 AND sent_at IS NULL",
            )?
            .execute(params![id, now, reason])?;
            Ok(())
        })
    }

    fn undelivered(&self, user: &str, since: i64, limit: usize) -> Result<Vec<OutboxRow>> {
        self.with(|c| {
            let mut st = c.prepare_cached(
                "SELECT id, user_id, via, channel, text, created_at, game_id, ply, league_id FROM outbox
                 WHERE user_id = ?1 AND undelivered IS NOT NULL AND created_at >= ?2
                 ORDER BY id DESC LIMIT ?3",
            )?;
            let rows = st.query_map(params![user, since, limit as i64], outbox_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn mark_sent(&self, ids: &[i64], now: i64) -> Result<()> {
        self.write(|tx| {
            let mut st = tx.prepare_cached(
                "UPDATE outbox SET sent_at = ?2 WHERE id = ?1 AND sent_at IS NULL",
            )?;
            for id in ids {
                st.execute(params![id, now])?;
            }
            Ok(())
        })
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
                "INSERT INTO vacations (user_id, start_at, end_at) VALUES (?1, ?2, ?3)",
                params![user, now, end],
            )?;
            tx.execute(
                "UPDATE users SET vacation_until = ?2 WHERE id = ?1",
                params![user, end],
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
                "UPDATE users SET vacation_until = NULL WHERE id = ?1 AND vacation_until = ?2",
                params![user, until],
            )?;
            if n != 1 {
                return Err(StoreError::Stale);
            }
            tx.execute(
                "UPDATE vacations SET end_at = ?2 WHERE user_id = ?1 AND end_at = ?3",
                params![user, now, until],
            )?;
            shift_deadlines(tx, shifts)
        })
    }

    fn vacation_used(&self, user: &str, since: i64) -> Result<i64> {
        self.with(|c| {
            Ok(c.query_row(
                "SELECT coalesce(sum(end_at - start_at), 0) FROM vacations
                 WHERE user_id = ?1 AND start_at >= ?2",
                params![user, since],
                |r| r.get(0),
            )?)
        })
    }

    fn renew_claims(&self) -> Result<()> {
        self.write(|tx| renew(tx, &self.holder))
    }

    fn gauges(&self) -> Result<Gauges> {
        self.with(|c| {
            let (unsent, oldest_unsent, games): (i64, Option<i64>, i64) = c
                .prepare_cached(
                    "SELECT (SELECT count(*) FROM outbox WHERE sent_at IS NULL),
                            (SELECT min(created_at) FROM outbox WHERE sent_at IS NULL),
                            (SELECT count(*) FROM games WHERE status = 'active')",
                )?
                .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            Ok(Gauges {
                unsent: u64::try_from(unsent).unwrap_or(0),
                oldest_unsent,
                games_in_play: u64::try_from(games).unwrap_or(0),
            })
        })
    }
}

/// Pushes the hold of every unsent notice `holder` holds to SQLite's now + `OUTBOX_LEASE`.
fn renew(tx: &Connection, holder: &str) -> Result<()> {
    tx.prepare_cached(
        "UPDATE outbox SET claimed_until = unixepoch() + ?2
         WHERE claimed_by = ?1 AND sent_at IS NULL",
    )?
    .execute(params![holder, OUTBOX_LEASE])?;
    Ok(())
}

/// `columns` (a comma-separated list) each prefixed with the table alias `t`.
fn qualified(columns: &str, t: &str) -> String {
    columns
        .split(", ")
        .map(|c| format!("{t}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl RatingStore for SqliteStore {
    fn rating(&self, user: &str, variant: &str, guild: &str) -> Result<Option<RatingRow>> {
        self.with(|c| {
            Ok(c.query_row(
                &format!("SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ?1 AND variant = ?2 AND guild = ?3"),
                params![user, variant, guild],
                rating_row,
            )
            .optional()?)
        })
    }

    fn ratings_of(&self, user: &str, guild: &str) -> Result<Vec<RatingRow>> {
        self.with(|c| {
            let mut st = c.prepare(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ?1 AND guild = ?2 ORDER BY variant"
            ))?;
            let rows = st.query_map(params![user, guild], rating_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    fn leaderboard(&self, variant: &str, guild: &str, limit: usize) -> Result<Vec<RatingRow>> {
        self.with(|c| {
            let mut st = c.prepare(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE variant = ?1 AND guild = ?2
                 ORDER BY rating DESC, deviation ASC LIMIT ?3"
            ))?;
            let rows = st.query_map(params![variant, guild, limit as i64], rating_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }
}
