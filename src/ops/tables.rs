//! Tables as the database tools see them: names and columns read from the database's own
//! catalogue, rows as the store's [`Value`]s (read as the store reads them), and a [`Tally`]
//! (count and digest) to compare two databases.
//!
//! The two backends agree on the tables and columns (one migration per backend, the same
//! schema), and differ in types: PostgreSQL has `BOOLEAN` where SQLite keeps 0 and 1. A cell
//! read from one side is written to the other by the target column's type; a digest counts a
//! boolean as the integer SQLite keeps, so both sides of a copy digest alike.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

use ::postgres::fallible_iterator::FallibleIterator;
use ::postgres::types::{ToSql, Type};

use super::{pg_connect, Location, OpsError, Result};
use crate::store::Value;

/// Feeds a value to a digest: a boolean as the integer SQLite keeps, a real by its bits.
fn hash_into(v: &Value, h: &mut DefaultHasher) {
    match v {
        Value::Null => 0u8.hash(h),
        Value::Int(i) => (1u8, *i).hash(h),
        Value::Bool(b) => (1u8, i64::from(*b)).hash(h),
        Value::Real(f) => (2u8, f.to_bits()).hash(h),
        Value::Text(s) => (3u8, s).hash(h),
        Value::Ints(v) => (4u8, v).hash(h),
        Value::Texts(v) => (5u8, v).hash(h),
    }
}

/// `v` as a value for a PostgreSQL column of type `ty`: SQLite keeps a boolean as 0 or 1,
/// which a `BOOLEAN` column takes as false or true (the store's binding refuses an integer
/// there, rightly for its own statements).
fn for_column(v: Value, ty: &Type) -> Value {
    match v {
        Value::Int(i) if *ty == Type::BOOL => Value::Bool(i != 0),
        Value::Int(i) if *ty == Type::FLOAT8 || *ty == Type::FLOAT4 => Value::Real(i as f64),
        Value::Bool(b) if *ty != Type::BOOL => Value::Int(i64::from(b)),
        v => v,
    }
}

/// A digest of a set of rows that does not depend on their order (the sum of the rows'
/// hashes): the same rows give the same digest on both sides, whatever order each database
/// returns them in. A table's primary key keeps its rows distinct.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Digest(pub u64);

impl Digest {
    fn add(&mut self, row_hash: u64) {
        self.0 = self.0.wrapping_add(row_hash);
    }
}

impl std::fmt::Display for Digest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// A table's rows counted and digested; for `moves`, also each game's moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub rows: u64,
    pub digest: Digest,
    /// Per game (`moves` only): the digest of its move rows.
    pub games: HashMap<i64, Digest>,
}

impl Tally {
    pub fn add(&mut self, row: &[Value], game_column: Option<usize>) {
        let mut h = DefaultHasher::new();
        for v in row {
            hash_into(v, &mut h);
        }
        let hash = h.finish();
        self.rows += 1;
        self.digest.add(hash);
        if let Some(Value::Int(g)) = game_column.and_then(|i| row.get(i)) {
            self.games.entry(*g).or_default().add(hash);
        }
    }
}

/// A table: its name, its columns in order, the tables its foreign keys name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub name: String,
    pub columns: Vec<String>,
    pub parents: Vec<String>,
    /// Whether `id` is a generated integer key (its sequence is carried over by a copy).
    pub integer_id: bool,
}

impl Table {
    /// The index of the column `games` are told by in a per-game digest (`moves.game_id`).
    pub fn game_column(&self) -> Option<usize> {
        (self.name == "moves")
            .then(|| self.columns.iter().position(|c| c == "game_id"))
            .flatten()
    }

    fn column_list(&self) -> String {
        self.columns
            .iter()
            .map(|c| quote(c))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn select(&self) -> String {
        format!("SELECT {} FROM {}", self.column_list(), quote(&self.name))
    }
}

/// An identifier, quoted for both dialects.
fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The tables in an order that writes parents before their children.
fn parents_first(mut tables: Vec<Table>) -> Result<Vec<Table>> {
    tables.sort_by(|a, b| a.name.cmp(&b.name));
    let mut done: Vec<Table> = Vec::new();
    while !tables.is_empty() {
        let ready = tables.iter().position(|t| {
            t.parents
                .iter()
                .all(|p| p == &t.name || done.iter().any(|d| &d.name == p))
        });
        match ready {
            Some(i) => done.push(tables.remove(i)),
            None => {
                let names: Vec<_> = tables.iter().map(|t| t.name.as_str()).collect();
                return Err(OpsError::Failed(format!(
                    "the foreign keys of {} form a circle: no order copies them",
                    names.join(", ")
                )));
            }
        }
    }
    Ok(done)
}

/// Which migrations a database has, against those this binary knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schema {
    /// Migrations applied, of those this binary knows.
    pub applied: usize,
    /// Migrations this binary knows.
    pub known: usize,
    /// Names of the known migrations not applied.
    pub pending: Vec<String>,
    /// Migrations applied that this binary does not know (a newer Tegami made them).
    pub unknown: Vec<String>,
}

impl Schema {
    pub fn up_to_date(&self) -> bool {
        self.pending.is_empty() && self.unknown.is_empty()
    }
}

/// A plain connection to either backend.
pub enum Conn {
    Sqlite(rusqlite::Connection),
    Pg(::postgres::Client),
}

impl Conn {
    /// Connects to an existing database (a missing SQLite file is refused, never created).
    pub fn open(loc: &Location, read_only: bool) -> Result<Conn> {
        match loc {
            Location::Sqlite(path) => Ok(Conn::Sqlite(open_sqlite(path, read_only)?)),
            Location::Postgres(url) => Ok(Conn::Pg(pg_connect(url)?)),
        }
    }

    /// The data tables (all but the migrations' bookkeeping), parents first.
    pub fn tables(&mut self) -> Result<Vec<Table>> {
        let mut tables = Vec::new();
        match self {
            Conn::Sqlite(c) => {
                let names: Vec<String> = c
                    .prepare(
                        "SELECT name FROM sqlite_master WHERE type = 'table'
                         AND name NOT LIKE 'sqlite_%' ORDER BY name",
                    )?
                    .query_map([], |r| r.get(0))?
                    .collect::<rusqlite::Result<_>>()?;
                for name in names {
                    let columns = c
                        .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?
                        .query_map([&name], |r| r.get(0))?
                        .collect::<rusqlite::Result<_>>()?;
                    let parents = c
                        .prepare("SELECT DISTINCT \"table\" FROM pragma_foreign_key_list(?1)")?
                        .query_map([&name], |r| r.get(0))?
                        .collect::<rusqlite::Result<_>>()?;
                    // An `INTEGER PRIMARY KEY` is the rowid, given by SQLite.
                    let integer_id = c.query_row(
                        "SELECT count(*) > 0 FROM pragma_table_info(?1)
                         WHERE name = 'id' AND pk = 1 AND upper(type) = 'INTEGER'",
                        [&name],
                        |r| r.get(0),
                    )?;
                    tables.push(Table {
                        name,
                        columns,
                        parents,
                        integer_id,
                    });
                }
            }
            Conn::Pg(c) => {
                let names: Vec<String> = c
                    .query(
                        "SELECT table_name::text FROM information_schema.tables
                         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
                           AND table_name <> 'schema_migrations'
                         ORDER BY table_name",
                        &[],
                    )?
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
                for name in names {
                    let columns = c
                        .query(
                            "SELECT column_name::text FROM information_schema.columns
                             WHERE table_schema = current_schema() AND table_name = $1
                             ORDER BY ordinal_position",
                            &[&name],
                        )?
                        .iter()
                        .map(|r| r.get(0))
                        .collect();
                    let parents = c
                        .query(
                            "SELECT DISTINCT ccu.table_name::text
                             FROM information_schema.table_constraints tc
                             JOIN information_schema.constraint_column_usage ccu
                               ON ccu.constraint_name = tc.constraint_name
                              AND ccu.constraint_schema = tc.constraint_schema
                             WHERE tc.constraint_type = 'FOREIGN KEY'
                               AND tc.table_schema = current_schema() AND tc.table_name = $1",
                            &[&name],
                        )?
                        .iter()
                        .map(|r| r.get(0))
                        .collect();
                    let integer_id: bool = c
                        .query_one(
                            "SELECT pg_get_serial_sequence($1, 'id') IS NOT NULL
                             FROM information_schema.columns
                             WHERE table_schema = current_schema() AND table_name = $1
                               AND column_name = 'id'
                               AND data_type IN ('bigint', 'integer')
                             UNION ALL SELECT FALSE LIMIT 1",
                            &[&name],
                        )?
                        .try_get(0)?;
                    tables.push(Table {
                        name,
                        columns,
                        parents,
                        integer_id,
                    });
                }
            }
        }
        parents_first(tables)
    }

    /// Which migrations are applied.
    pub fn schema(&mut self) -> Result<Schema> {
        let (known, applied_names): (Vec<&str>, Vec<String>) = match self {
            Conn::Sqlite(c) => {
                let known: Vec<&str> = crate::store::MIGRATIONS.iter().map(|(n, _)| *n).collect();
                // rusqlite_migration counts the migrations applied in `user_version`.
                let n: i64 = c.query_row("PRAGMA user_version", [], |r| r.get(0))?;
                let n = usize::try_from(n).unwrap_or(0);
                let mut applied: Vec<String> =
                    known.iter().take(n).map(|s| (*s).to_string()).collect();
                for extra in known.len()..n {
                    applied.push(format!("migration {} (unknown here)", extra + 1));
                }
                (known, applied)
            }
            Conn::Pg(c) => {
                let known: Vec<&str> = crate::store::PG_MIGRATIONS
                    .iter()
                    .map(|(n, _)| *n)
                    .collect();
                let exists: bool = c
                    .query_one("SELECT to_regclass('schema_migrations') IS NOT NULL", &[])?
                    .try_get(0)?;
                let applied = if exists {
                    c.query("SELECT name FROM schema_migrations ORDER BY name", &[])?
                        .iter()
                        .map(|r| r.get(0))
                        .collect()
                } else {
                    Vec::new()
                };
                (known, applied)
            }
        };
        Ok(Schema {
            applied: known
                .iter()
                .filter(|k| applied_names.iter().any(|a| a == *k))
                .count(),
            known: known.len(),
            pending: known
                .iter()
                .filter(|k| !applied_names.iter().any(|a| a == *k))
                .map(|k| (*k).to_string())
                .collect(),
            unknown: applied_names
                .into_iter()
                .filter(|a| !known.contains(&a.as_str()))
                .collect(),
        })
    }

    /// Starts the one read transaction a copy reads its source in: one consistent state.
    pub fn begin_snapshot(&mut self) -> Result<()> {
        match self {
            Conn::Sqlite(c) => {
                c.execute_batch("BEGIN DEFERRED")?;
                // A read fixes the snapshot now rather than at the first table.
                c.query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(()))?;
            }
            Conn::Pg(c) => c.batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")?,
        }
        Ok(())
    }

    /// Ends the read transaction of `begin_snapshot`.
    pub fn end_snapshot(&mut self) -> Result<()> {
        match self {
            Conn::Sqlite(c) => c.execute_batch("COMMIT")?,
            Conn::Pg(c) => c.batch_execute("COMMIT")?,
        }
        Ok(())
    }

    /// How many rows the table has.
    pub fn count(&mut self, table: &str) -> Result<u64> {
        let sql = format!("SELECT count(*) FROM {}", quote(table));
        let n: i64 = match self {
            Conn::Sqlite(c) => c.query_row(&sql, [], |r| r.get(0))?,
            Conn::Pg(c) => c.query_one(&sql, &[])?.try_get(0)?,
        };
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// Calls `each` with every row of the table, in no particular order.
    pub fn read(
        &mut self,
        table: &Table,
        each: &mut dyn FnMut(Vec<Value>) -> Result<()>,
    ) -> Result<()> {
        let sql = table.select();
        match self {
            Conn::Sqlite(c) => {
                let mut st = c.prepare(&sql)?;
                let n = st.column_count();
                let mut rows = st.query([])?;
                while let Some(r) = rows.next()? {
                    let mut cells = Vec::with_capacity(n);
                    for i in 0..n {
                        cells.push(
                            crate::store::sqlite_value(r.get_ref(i)?)
                                .map_err(|e| read_error(e, &table.name))?,
                        );
                    }
                    each(cells)?;
                }
            }
            Conn::Pg(c) => {
                let st = c.prepare(&sql)?;
                let n = st.columns().len();
                let mut rows = c.query_raw(&st, std::iter::empty::<i64>())?;
                while let Some(r) = rows.next()? {
                    let mut cells = Vec::with_capacity(n);
                    for i in 0..n {
                        cells.push(
                            crate::store::postgres_value(&r, i)
                                .map_err(|e| read_error(e, &table.name))?,
                        );
                    }
                    each(cells)?;
                }
            }
        }
        Ok(())
    }

    /// Writes `rows` (in the table's column order) in one transaction.
    pub fn write(&mut self, table: &Table, rows: Vec<Vec<Value>>) -> Result<()> {
        match self {
            Conn::Sqlite(c) => {
                let tx = c.transaction()?;
                {
                    let marks: Vec<String> =
                        (1..=table.columns.len()).map(|i| format!("?{i}")).collect();
                    let mut st = tx.prepare_cached(&format!(
                        "INSERT INTO {} ({}) VALUES ({})",
                        quote(&table.name),
                        table.column_list(),
                        marks.join(", ")
                    ))?;
                    for row in &rows {
                        st.execute(rusqlite::params_from_iter(row.iter()))?;
                    }
                }
                tx.commit()?;
            }
            Conn::Pg(c) => {
                // The binary COPY protocol: one round trip for the batch, typed by the columns.
                let types: Vec<Type> = c
                    .prepare(&format!("{} LIMIT 0", table.select()))?
                    .columns()
                    .iter()
                    .map(|c| c.type_().clone())
                    .collect();
                let mut tx = c.transaction()?;
                let sink = tx.copy_in(&format!(
                    "COPY {} ({}) FROM STDIN (FORMAT binary)",
                    quote(&table.name),
                    table.column_list()
                ))?;
                let mut writer = ::postgres::binary_copy::BinaryCopyInWriter::new(sink, &types);
                for row in rows {
                    let row: Vec<Value> = row
                        .into_iter()
                        .zip(&types)
                        .map(|(v, ty)| for_column(v, ty))
                        .collect();
                    let refs: Vec<&(dyn ToSql + Sync)> =
                        row.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
                    writer.write(&refs)?;
                }
                writer.finish()?;
                tx.commit()?;
            }
        }
        Ok(())
    }

    /// The highest id the table has given (its sequence, which may be past the rows left), for
    /// tables with a generated integer `id`; `None` for the others.
    pub fn last_id(&mut self, table: &Table) -> Result<Option<i64>> {
        if !table.integer_id {
            return Ok(None);
        }
        let name = quote(&table.name);
        match self {
            Conn::Sqlite(c) => {
                let max: Option<i64> =
                    c.query_row(&format!("SELECT max(id) FROM {name}"), [], |r| r.get(0))?;
                let seq: Option<i64> = if sqlite_has_sequence(c)? {
                    c.query_row(
                        "SELECT max(seq) FROM sqlite_sequence WHERE name = ?1",
                        [&table.name],
                        |r| r.get(0),
                    )?
                } else {
                    None
                };
                Ok(max.max(seq))
            }
            Conn::Pg(c) => {
                let seq: Option<String> = c
                    .query_one("SELECT pg_get_serial_sequence($1, 'id')", &[&table.name])?
                    .try_get(0)?;
                let max: Option<i64> = c
                    .query_one(&format!("SELECT max(id) FROM {name}"), &[])?
                    .try_get(0)?;
                let Some(seq) = seq else {
                    return Ok(max);
                };
                let row = c.query_one(&format!("SELECT last_value, is_called FROM {seq}"), &[])?;
                let (last, called): (i64, bool) = (row.try_get(0)?, row.try_get(1)?);
                Ok(max.max(called.then_some(last)))
            }
        }
    }

    /// Makes the table's next generated id come after `last` (PostgreSQL's sequence; SQLite's
    /// `sqlite_sequence` for an `AUTOINCREMENT` table; a plain SQLite rowid follows the rows).
    pub fn set_last_id(&mut self, table: &Table, last: i64) -> Result<()> {
        if last < 1 || !table.integer_id {
            return Ok(());
        }
        match self {
            Conn::Sqlite(c) => {
                let auto: bool = c.query_row(
                    "SELECT coalesce(sql LIKE '%AUTOINCREMENT%', 0) FROM sqlite_master
                     WHERE type = 'table' AND name = ?1",
                    [&table.name],
                    |r| r.get(0),
                )?;
                if auto && sqlite_has_sequence(c)? {
                    let n = c.execute(
                        "UPDATE sqlite_sequence SET seq = max(seq, ?2) WHERE name = ?1",
                        rusqlite::params![table.name, last],
                    )?;
                    if n == 0 {
                        c.execute(
                            "INSERT INTO sqlite_sequence (name, seq) VALUES (?1, ?2)",
                            rusqlite::params![table.name, last],
                        )?;
                    }
                }
            }
            Conn::Pg(c) => {
                let seq: Option<String> = c
                    .query_one("SELECT pg_get_serial_sequence($1, 'id')", &[&table.name])?
                    .try_get(0)?;
                if let Some(seq) = seq {
                    c.query_one(
                        "SELECT setval($1::text::regclass, $2, true)",
                        &[&seq, &last],
                    )?;
                }
            }
        }
        Ok(())
    }
}

fn sqlite_has_sequence(c: &rusqlite::Connection) -> Result<bool> {
    Ok(c.query_row(
        "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'sqlite_sequence'",
        [],
        |r| r.get(0),
    )?)
}

/// Opens an existing SQLite file; a missing one is refused, never created.
pub fn open_sqlite(path: &Path, read_only: bool) -> Result<rusqlite::Connection> {
    use rusqlite::OpenFlags;
    if !path.is_file() {
        return Err(OpsError::Refused(format!(
            "no database at {}",
            path.display()
        )));
    }
    let flags = if read_only {
        OpenFlags::SQLITE_OPEN_READ_ONLY
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
    } | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let c = rusqlite::Connection::open_with_flags(path, flags)
        .map_err(|e| OpsError::Refused(format!("cannot open {}: {e}", path.display())))?;
    c.busy_timeout(std::time::Duration::from_secs(10))?;
    // Not a database at all: said now, not at the first table.
    c.query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(()))
        .map_err(|e| {
            OpsError::Refused(format!("{} is not a SQLite database: {e}", path.display()))
        })?;
    Ok(c)
}

/// A value the store could not read, said with its table.
fn read_error(e: crate::store::StoreError, table: &str) -> OpsError {
    OpsError::Failed(format!("table {table}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str, parents: &[&str]) -> Table {
        Table {
            name: name.into(),
            columns: vec!["id".into()],
            parents: parents.iter().map(|p| p.to_string()).collect(),
            integer_id: true,
        }
    }

    #[test]
    fn parents_come_before_their_children() {
        let order = parents_first(vec![
            table("moves", &["games", "users"]),
            table("games", &["users", "games"]),
            table("users", &[]),
            table("followers", &["games", "users"]),
        ])
        .unwrap();
        let names: Vec<_> = order.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["users", "games", "followers", "moves"]);
        let circle = parents_first(vec![table("a", &["b"]), table("b", &["a"])]);
        assert!(circle.is_err());
    }

    #[test]
    fn digests_ignore_row_order_and_count_booleans_as_sqlite_does() {
        let (a, b) = (
            vec![Value::Int(1), Value::Bool(true), Value::Text("x".into())],
            vec![Value::Int(2), Value::Int(0), Value::Null],
        );
        let mut one = Tally::default();
        one.add(&a, Some(0));
        one.add(&b, Some(0));
        let mut other = Tally::default();
        other.add(&b, Some(0));
        other.add(
            &[Value::Int(1), Value::Int(1), Value::Text("x".into())],
            Some(0),
        );
        assert_eq!(one, other);
        let mut changed = Tally::default();
        changed.add(&a, Some(0));
        changed.add(
            &[Value::Int(2), Value::Int(0), Value::Text(String::new())],
            Some(0),
        );
        assert_ne!(one.digest, changed.digest);
        assert_eq!(one.games[&1], changed.games[&1]);
        assert_ne!(one.games[&2], changed.games[&2]);
    }
}
