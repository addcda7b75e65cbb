//! The SQLite store: one database file in WAL mode, foreign keys on, a busy timeout, a small
//! pool of connections (one per thread at a time), the migrations of `migrations/` applied in
//! order when the store opens. Every write is one `BEGIN IMMEDIATE` transaction, so one writer
//! at a time; game changes are guarded by the game's version. The statements and the store
//! logic are shared with PostgreSQL (`store::sql`); this module runs them: it translates them
//! to SQLite (`?N` placeholders, the dialect's tokens), keeps them prepared
//! (`prepare_cached`), binds [`Value`]s and reads rows into them.

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, TransactionBehavior};
use rusqlite_migration::{Migrations, M};

use super::sql::{translate, Backend, Dialect, Exec, Row, Value};
use super::*;

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
    (
        "0017_outbox_order.sql",
        include_str!("../../migrations/0017_outbox_order.sql"),
    ),
    (
        "0018_board_side.sql",
        include_str!("../../migrations/0018_board_side.sql"),
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

impl SqliteStore {
    /// Opens (creating if needed) the database file and brings its schema up to date.
    pub fn open(path: impl AsRef<Path>) -> Result<SqliteStore> {
        SqliteStore::open_with(path, Durability::Full)
    }

    pub fn open_with(path: impl AsRef<Path>, durability: Durability) -> Result<SqliteStore> {
        // SQLite alone says "unable to open database file" for a folder that is not there.
        if let Some(problem) = SqliteStore::folder_problem(path.as_ref()) {
            return Err(StoreError::Invalid(problem));
        }
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

    /// What is wrong with the folder a database file at `path` would be in: it does not exist,
    /// or it is no folder. `None` when it is a folder (or `path` names none: the current
    /// one). A database is made in its folder, never the folder itself.
    pub fn folder_problem(path: &Path) -> Option<String> {
        let folder = path.parent().filter(|f| !f.as_os_str().is_empty())?;
        match std::fs::metadata(folder) {
            Ok(m) if m.is_dir() => None,
            Ok(_) => Some(format!("{} is not a folder", folder.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(format!(
                "the folder {} does not exist (make it first, or give another path)",
                folder.display()
            )),
            // Not ours to judge here (a folder we may not look into): opening says why.
            Err(_) => None,
        }
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
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
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
    fn immediate<T>(&self, f: impl FnOnce(&rusqlite::Transaction) -> Result<T>) -> Result<T> {
        self.with(|conn| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let out = f(&tx)?;
            tx.commit()?;
            Ok(out)
        })
    }
}

/// The statements' cache of each connection: more than rusqlite's default (16), so that the
/// statements of a move and of the sweep stay prepared.
const STATEMENT_CACHE: usize = 64;

/// SQLite has no booleans (a boolean is the integer 0 or 1) and no arrays: a list is refused
/// (the shared statements bind lists on PostgreSQL only).
impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Real(r) => ValueRef::Real(*r),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
            Value::Bool(b) => ValueRef::Integer(i64::from(*b)),
            Value::Ints(_) | Value::Texts(_) => {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    "a list bound to SQLite, which has no arrays".into(),
                ))
            }
        }))
    }
}

/// A column's value as SQLite stored it.
pub(crate) fn value_of(v: ValueRef<'_>) -> Result<Value> {
    Ok(match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) => Value::Text(
            String::from_utf8(t.to_vec())
                .map_err(|e| StoreError::Invalid(format!("text that is not UTF-8: {e}")))?,
        ),
        ValueRef::Blob(_) => return Err(StoreError::Invalid("a blob where none is kept".into())),
    })
}

/// A connection, or a transaction on one, running the shared statements.
struct Sqlite<'a>(&'a Connection);

impl Exec for Sqlite<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn query(&mut self, sql: &str, args: &[Value]) -> Result<Vec<super::sql::Row>> {
        let mut st = self.0.prepare_cached(&translate(sql, Dialect::Sqlite))?;
        let width = st.column_count();
        let mut rows = st.query(rusqlite::params_from_iter(args))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let values = (0..width)
                .map(|i| value_of(r.get_ref(i)?))
                .collect::<Result<Vec<_>>>()?;
            out.push(Row(values));
        }
        Ok(out)
    }

    fn execute(&mut self, sql: &str, args: &[Value]) -> Result<u64> {
        let n = self
            .0
            .prepare_cached(&translate(sql, Dialect::Sqlite))?
            .execute(rusqlite::params_from_iter(args))?;
        Ok(n as u64)
    }

    fn batch(&mut self, sql: &str) -> Result<()> {
        Ok(self.0.execute_batch(sql)?)
    }
}

impl Backend for SqliteStore {
    fn holder(&self) -> &str {
        &self.holder
    }

    fn read<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T> {
        self.with(|c| f(&mut Sqlite(c)))
    }

    fn snapshot<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T> {
        self.with(|c| {
            // A deferred transaction: it reads one snapshot of the WAL and takes no write lock.
            let tx = c.transaction()?;
            let out = f(&mut Sqlite(&tx))?;
            tx.commit()?;
            Ok(out)
        })
    }

    fn write<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T> {
        self.immediate(|tx| f(&mut Sqlite(tx)))
    }

    fn single<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T> {
        self.immediate(|tx| f(&mut Sqlite(tx)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values bind and read back as SQLite keeps them: a boolean as 0 or 1 (read back as a
    /// boolean), NULL as NULL, `$N` bound by index; a list is refused.
    #[test]
    fn values_bind_and_read_back() -> Result<()> {
        let conn = Connection::open_in_memory()?;
        let c: &mut dyn Exec = &mut Sqlite(&conn);
        c.batch("CREATE TABLE t (a INTEGER, b INTEGER, c REAL, d TEXT)")?;
        let n = c.execute(
            "INSERT INTO t VALUES ($1, $2, $3, $4), ($10, $11, $12, $13)",
            &[
                Value::Int(1 << 40),
                Value::Bool(true),
                Value::Real(0.5),
                Value::Text("é".into()),
                Value::Null,
                Value::Null,
                Value::Null,
                Value::Null,
                Value::Null,
                Value::Int(-1),
                Value::Bool(false),
                Value::Null,
                Value::Null,
            ],
        )?;
        assert_eq!(n, 2);
        let rows = c.query("SELECT a, b, c, d, b = {true} FROM t ORDER BY a DESC", &[])?;
        let r = &rows[0];
        assert_eq!(r.get::<i64>(0)?, 1 << 40);
        assert!(r.get::<bool>(1)? && r.get::<bool>(4)?);
        assert_eq!(r.get::<f64>(2)?, 0.5);
        assert_eq!(r.get::<String>(3)?, "é");
        let r = &rows[1];
        assert_eq!(r.get::<i64>(0)?, -1);
        assert!(!r.get::<bool>(1)?);
        assert_eq!(r.get::<Option<f64>>(2)?, None);
        assert_eq!(r.get::<Option<String>>(3)?, None);
        assert!(c.query("SELECT $1", &[Value::Ints(vec![1])]).is_err());
        Ok(())
    }
}
