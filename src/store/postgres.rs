//! The PostgreSQL store, for several bot processes sharing one database: the synchronous
//! `postgres` client behind an `r2d2` pool (the store interface is synchronous, see the module
//! above), the migrations of `migrations/postgres/` applied in order at start under an advisory
//! lock (two processes starting at once apply them once). Every write is one transaction; game
//! changes are guarded by the game's version, ratings and vacation deadlines by the rows they
//! were computed from. The statements and the store logic are shared with SQLite
//! (`store::sql`); this module runs them: it replaces the dialect's tokens, keeps each
//! connection's prepared statements, binds [`Value`]s by the types the server gives the
//! parameters, and reads rows into values by the columns' types.
//!
//! What must happen once across processes claims its rows in its transaction with
//! `FOR UPDATE SKIP LOCKED`: the sweep's losses on time (`finish_games`), reminders, expired
//! challenges and digests lock the row they change and skip one another process holds (that
//! process is deciding it); the outbox is claimed with a lease (`claim_unsent`, see
//! [`OUTBOX_LEASE`]), because delivery happens outside any transaction.

use std::collections::HashMap;
use std::error::Error as StdError;

use ::postgres::types::{to_sql_checked, IsNull, ToSql, Type};
use ::postgres::{NoTls, Statement};
use bytes::BytesMut;
use r2d2_postgres::PostgresConnectionManager;

use super::sql::{translate, Backend, Dialect, Exec, Row, Value};
use super::*;

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
    (
        "0013_board_side.sql",
        include_str!("../../migrations/postgres/0013_board_side.sql"),
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

/// One transaction of a pooled connection.
struct Tx<'a> {
    tx: ::postgres::Transaction<'a>,
    prepared: &'a mut HashMap<String, Statement>,
}

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
        let row = self.client()?.client.query_one(
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

/// A parameter as a PostgreSQL value of the type the server gave it (in the prepared
/// statement): an integer as `int2`, `int4` or `int8` (refused out of the type's range), a
/// real as `float4` or `float8`, a boolean as `bool`, a text as any text type, a list as an
/// array of `int8` or of text. Anything else is refused, never sent as the wrong bytes.
impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> std::result::Result<IsNull, Box<dyn StdError + Sync + Send>> {
        /// `v` as `T`'s bytes, if `T` is a type of the parameter.
        fn put<T: ToSql>(
            v: T,
            ty: &Type,
            out: &mut BytesMut,
        ) -> std::result::Result<IsNull, Box<dyn StdError + Sync + Send>> {
            if T::accepts(ty) {
                v.to_sql(ty, out)
            } else {
                Err(format!(
                    "a {} value for a parameter of type {ty}",
                    std::any::type_name::<T>()
                )
                .into())
            }
        }
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(i) if *ty == Type::INT4 => put(i32::try_from(*i)?, ty, out),
            Value::Int(i) if *ty == Type::INT2 => put(i16::try_from(*i)?, ty, out),
            Value::Int(i) => put(*i, ty, out),
            Value::Real(r) if *ty == Type::FLOAT4 => put(*r as f32, ty, out),
            Value::Real(r) => put(*r, ty, out),
            Value::Bool(b) => put(*b, ty, out),
            Value::Text(s) => put(s.as_str(), ty, out),
            Value::Ints(v) => put(v.as_slice(), ty, out),
            Value::Texts(v) => put(v.as_slice(), ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        i64::accepts(ty)
            || i32::accepts(ty)
            || i16::accepts(ty)
            || f64::accepts(ty)
            || f32::accepts(ty)
            || bool::accepts(ty)
            || <&str>::accepts(ty)
            || <&[i64]>::accepts(ty)
            || <&[String]>::accepts(ty)
    }

    to_sql_checked!();
}

/// Column `i` of a row as a [`Value`], by the column's type.
pub(crate) fn value_of(r: &::postgres::Row, i: usize) -> Result<Value> {
    let ty = r.columns()[i].type_();
    let v = if *ty == Type::INT8 {
        r.try_get::<_, Option<i64>>(i)?.map(Value::Int)
    } else if *ty == Type::INT4 {
        r.try_get::<_, Option<i32>>(i)?
            .map(|v| Value::Int(v.into()))
    } else if *ty == Type::INT2 {
        r.try_get::<_, Option<i16>>(i)?
            .map(|v| Value::Int(v.into()))
    } else if *ty == Type::FLOAT8 {
        r.try_get::<_, Option<f64>>(i)?.map(Value::Real)
    } else if *ty == Type::FLOAT4 {
        r.try_get::<_, Option<f32>>(i)?
            .map(|v| Value::Real(v.into()))
    } else if *ty == Type::BOOL {
        r.try_get::<_, Option<bool>>(i)?.map(Value::Bool)
    } else if <&str as ::postgres::types::FromSql>::accepts(ty) {
        r.try_get::<_, Option<String>>(i)?.map(Value::Text)
    } else {
        return Err(StoreError::Invalid(format!(
            "column {} of type {ty}, which the store does not read",
            r.columns()[i].name()
        )));
    };
    Ok(v.unwrap_or(Value::Null))
}

/// A pooled connection, or a transaction on one, running the shared statements through the
/// connection's prepared statements.
macro_rules! impl_exec {
    ($t:ty, $client:ident) => {
        impl Exec for $t {
            fn dialect(&self) -> Dialect {
                Dialect::Postgres
            }

            fn query(&mut self, sql: &str, args: &[Value]) -> Result<Vec<Row>> {
                let st = statement(
                    &mut self.$client,
                    &mut self.prepared,
                    &translate(sql, Dialect::Postgres),
                )?;
                let params: Vec<&(dyn ToSql + Sync)> =
                    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect();
                self.$client
                    .query(&st, &params)?
                    .iter()
                    .map(|r| {
                        (0..r.len())
                            .map(|i| value_of(r, i))
                            .collect::<Result<_>>()
                            .map(Row)
                    })
                    .collect()
            }

            fn execute(&mut self, sql: &str, args: &[Value]) -> Result<u64> {
                let st = statement(
                    &mut self.$client,
                    &mut self.prepared,
                    &translate(sql, Dialect::Postgres),
                )?;
                let params: Vec<&(dyn ToSql + Sync)> =
                    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect();
                Ok(self.$client.execute(&st, &params)?)
            }

            fn batch(&mut self, sql: &str) -> Result<()> {
                Ok(self.$client.batch_execute(sql)?)
            }
        }
    };
}

impl_exec!(Conn, client);
impl_exec!(Tx<'_>, tx);

impl Backend for PgStore {
    fn holder(&self) -> &str {
        &self.holder
    }

    fn read<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T> {
        f(&mut *self.client()?)
    }

    fn snapshot<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T> {
        let mut c = self.client()?;
        let Conn { client, prepared } = &mut *c;
        let mut tx = Tx {
            tx: client
                .build_transaction()
                .isolation_level(::postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()?,
            prepared,
        };
        let out = f(&mut tx)?;
        tx.tx.commit()?;
        Ok(out)
    }

    fn write<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T> {
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

    fn single<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T> {
        f(&mut *self.client()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A connection to the test server of `.ci/postgres`, when `TEGAMI_TEST_DATABASE_URL`
    /// names one (nothing is migrated there: the test's table is temporary).
    fn server() -> Option<Conn> {
        let url = std::env::var("TEGAMI_TEST_DATABASE_URL")
            .ok()
            .filter(|u| !u.is_empty())?;
        let client = ::postgres::Client::connect(&url, NoTls).expect("connect to the test server");
        Some(Conn {
            client,
            prepared: HashMap::new(),
        })
    }

    /// Integers bind to the parameter's own width, booleans to booleans, NULL to anything;
    /// values read back by their columns' types. Only a temporary table (the session's) is
    /// made.
    #[test]
    fn values_bind_and_read_by_type() {
        let Some(mut c) = server() else {
            // In CI the server is part of the run: its absence is a failure, not a skip.
            assert!(
                std::env::var("CI").map_or(true, |v| v != "true"),
                "CI=true but TEGAMI_TEST_DATABASE_URL is not set"
            );
            eprintln!("TEGAMI_TEST_DATABASE_URL is not set: PostgreSQL value test skipped");
            return;
        };
        round_trip(&mut c).expect("values round trip");
    }

    fn round_trip(c: &mut dyn Exec) -> Result<()> {
        {
            c.batch(
                "CREATE TEMPORARY TABLE sql_values (a INT2, b INT4, c INT8, d BOOLEAN,
                        e DOUBLE PRECISION, f REAL, g TEXT)",
            )?;
            c.execute(
                "INSERT INTO sql_values VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    Value::Int(-3),
                    Value::Int(70_000),
                    Value::Int(1 << 40),
                    Value::Bool(true),
                    Value::Real(0.25),
                    Value::Real(1.5),
                    Value::Text("é".into()),
                ],
            )?;
            c.execute(
                "INSERT INTO sql_values VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    Value::Null,
                    Value::Null,
                    Value::Null,
                    Value::Null,
                    Value::Null,
                    Value::Null,
                    Value::Null,
                ],
            )?;
            let rows = c.query(
                "SELECT a, b, c, d, e, f, g, a = $1, d = $2 FROM sql_values
                     ORDER BY c NULLS LAST",
                &[Value::Int(-3), Value::Bool(true)],
            )?;
            assert_eq!(rows.len(), 2);
            let r = &rows[0];
            assert_eq!(r.get::<i64>(0)?, -3);
            assert_eq!(r.get::<i64>(1)?, 70_000);
            assert_eq!(r.get::<i64>(2)?, 1 << 40);
            assert!(r.get::<bool>(3)?);
            assert_eq!(r.get::<f64>(4)?, 0.25);
            assert_eq!(r.get::<f64>(5)?, 1.5);
            assert_eq!(r.get::<String>(6)?, "é");
            assert!(r.get::<bool>(7)? && r.get::<bool>(8)?);
            assert!(rows[1].0[..7].iter().all(|v| *v == Value::Null));
            // Out of an INT4's range, a text for an integer, an integer for a boolean:
            // refused by the client, nothing sent.
            for bad in [
                [Value::Int(1 << 40), Value::Null],
                [Value::Text("1".into()), Value::Null],
                [Value::Null, Value::Int(1)],
            ] {
                assert!(c
                    .execute("UPDATE sql_values SET b = $1, d = $2 WHERE FALSE", &bad)
                    .is_err());
            }
            Ok(())
        }
    }
}
