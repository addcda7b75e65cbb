//! The SQL both backends share (issue 24): the column lists and the row mappers, every
//! statement, and the store logic (the implementations of the store traits), each written once.
//! A change to the schema is one migration per backend (`migrations/`, `migrations/postgres/`)
//! and one edit here.
//!
//! The layer is small on purpose:
//!
//! - [`Value`] is a parameter or a column value (`NULL`, an integer, a real, a text, a
//!   boolean, and for PostgreSQL's `= ANY($1)` a list of integers or of texts); a [`Row`] is
//!   the values of one row, read with typed getters (`row.get::<u32>(3)?`, `Option<T>` for a
//!   column that may be NULL) that refuse a value of another type or out of range (`Invalid`).
//! - [`Exec`] is what a statement runs on: a connection or a transaction of one backend. Each
//!   backend implements it (`sqlite.rs`, `postgres.rs`): it translates the statement (below),
//!   binds the values, keeps its prepared statements (rusqlite's `prepare_cached`, the
//!   PostgreSQL connection's own cache) and reads the rows into values.
//! - [`Backend`] is a store handle: how it runs a read, a consistent read of several
//!   statements, a write transaction, and a lone write. Every type that implements it is a
//!   whole [`Store`](super::Store) (`stores.rs`, `league.rs`, `conditional.rs`, `follow.rs`).
//!
//! Statements are written in PostgreSQL's style, `$1`, `$2`… for the parameters; SQLite gets
//! them as `?1`, `?2`… (bound by index, so a parameter may be used twice, and `$10` is never
//! read as `$1`). Where the dialects differ inside a statement, a token in braces stands for
//! the difference and [`translate`] replaces it:
//!
//! | token                      | SQLite        | PostgreSQL                                    |
//! |----------------------------|---------------|-----------------------------------------------|
//! | `{now}`                    | `unixepoch()` | `floor(extract(epoch FROM clock_timestamp()))::bigint` |
//! | `{false}`, `{true}`        | `0`, `1`      | `FALSE`, `TRUE`                               |
//! | `{for update}`             | (nothing)     | `FOR UPDATE`                                  |
//! | `{for update skip locked}` | (nothing)     | `FOR UPDATE SKIP LOCKED`                      |
//! | `{for share}`              | (nothing)     | `FOR SHARE`                                   |
//!
//! `{now}` is the database's clock (outbox holds are taken and compared by it, see
//! [`OUTBOX_LEASE`](super::OUTBOX_LEASE)). The booleans are literals in SQLite because its
//! partial indexes say `reminded = 0` and `taken_back = 0`, and SQLite uses such an index only
//! for a query that repeats its condition word for word (`= FALSE` would scan); PostgreSQL
//! reads `x = FALSE` as `NOT x`, the condition of its own indexes. Row locks exist only in
//! PostgreSQL, where several processes share the database; SQLite lets one writer in at a time
//! (`BEGIN IMMEDIATE`), so what a lock guards there is guarded already.
//!
//! What is one statement on PostgreSQL and a loop over a cached statement on SQLite (a list of
//! ids bound as an array: `users`, `server_names`, `mark_sent`, the claim of `finish_games`,
//! `rewrite_conditionals`) and `integrity_check` ask [`Exec::dialect`]; each such place says
//! why. Everything else is the same text for both.

mod conditional;
mod follow;
mod league;
mod rows;
mod stores;

pub use stores::fill;

use std::borrow::Cow;

use super::{Result, StoreError};

/// The two SQL dialects of the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// A statement's parameter, or a column's value as read.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Bool(bool),
    /// A list of integers, bound as a PostgreSQL array (`id = ANY($1)`); SQLite has no arrays.
    Ints(Vec<i64>),
    /// A list of texts, bound as a PostgreSQL array.
    Texts(Vec<String>),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<u8> for Value {
    fn from(v: u8) -> Value {
        Value::Int(i64::from(v))
    }
}

/// A count or a limit: past `i64::MAX` (never, in practice) it is `i64::MAX`.
impl From<usize> for Value {
    fn from(v: usize) -> Value {
        Value::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

impl<T: Clone + Into<Value>> From<&T> for Value {
    fn from(v: &T) -> Value {
        v.clone().into()
    }
}

/// The parameters of a statement, each converted to a [`Value`]: `args![id, &name, limit]`.
macro_rules! args {
    ($($v:expr),* $(,)?) => {
        &[$($crate::store::sql::Value::from($v)),*]
    };
}
pub(crate) use args;

/// A value read as a Rust type.
pub trait FromValue: Sized {
    /// `None` when the value is of another type, or out of this type's range.
    fn from_value(v: &Value) -> Option<Self>;
}

impl FromValue for i64 {
    fn from_value(v: &Value) -> Option<i64> {
        match v {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
}

/// A count, a ply, days: never negative, never past `u32` (the core writes only those).
impl FromValue for u32 {
    fn from_value(v: &Value) -> Option<u32> {
        i64::from_value(v).and_then(|i| u32::try_from(i).ok())
    }
}

impl FromValue for u8 {
    fn from_value(v: &Value) -> Option<u8> {
        i64::from_value(v).and_then(|i| u8::try_from(i).ok())
    }
}

impl FromValue for f64 {
    fn from_value(v: &Value) -> Option<f64> {
        match v {
            Value::Real(r) => Some(*r),
            // SQLite gives an integer for a whole number an expression made.
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
}

/// A boolean: PostgreSQL's, or SQLite's integer (0 is false, as SQLite reads it).
impl FromValue for bool {
    fn from_value(v: &Value) -> Option<bool> {
        match v {
            Value::Bool(b) => Some(*b),
            Value::Int(i) => Some(*i != 0),
            _ => None,
        }
    }
}

impl FromValue for String {
    fn from_value(v: &Value) -> Option<String> {
        match v {
            Value::Text(s) => Some(s.clone()),
            _ => None,
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: &Value) -> Option<Option<T>> {
        match v {
            Value::Null => Some(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// The values of one row, in the order of the statement's columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    /// Column `i` as a `T`; `Invalid` if it is missing, of another type or out of range (a
    /// NULL is read only as an `Option`).
    pub fn get<T: FromValue>(&self, i: usize) -> Result<T> {
        let v = self
            .0
            .get(i)
            .ok_or_else(|| StoreError::Invalid(format!("no column {i}")))?;
        T::from_value(v).ok_or_else(|| {
            StoreError::Invalid(format!(
                "column {i}: {v:?} is not a {}",
                std::any::type_name::<T>()
            ))
        })
    }
}

/// What statements run on: a connection or a transaction of one backend. `sql` is written in
/// PostgreSQL's style with the tokens of [`translate`]; the backend translates it.
pub trait Exec {
    fn dialect(&self) -> Dialect;
    /// The rows of a statement (a `SELECT`, or a change with `RETURNING`).
    fn query(&mut self, sql: &str, args: &[Value]) -> Result<Vec<Row>>;
    /// Runs a statement that returns no rows; the number of rows it changed.
    fn execute(&mut self, sql: &str, args: &[Value]) -> Result<u64>;
    /// Statements without parameters, as they are (savepoints).
    fn batch(&mut self, sql: &str) -> Result<()>;
}

impl dyn Exec + '_ {
    /// Every row of a query, mapped.
    pub fn all<T>(
        &mut self,
        sql: &str,
        args: &[Value],
        f: impl FnMut(&Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        self.query(sql, args)?.iter().map(f).collect()
    }

    /// The first row of a query, if any, mapped.
    pub fn one<T>(
        &mut self,
        sql: &str,
        args: &[Value],
        f: impl FnOnce(&Row) -> Result<T>,
    ) -> Result<Option<T>> {
        self.query(sql, args)?.first().map(f).transpose()
    }
}

/// A store handle of one backend: how it runs statements. Every `Backend` is a whole store
/// (the store traits are implemented once, in this module's children, for any `Backend`).
pub trait Backend: Send + Sync {
    /// This handle's name on the notices it holds (see [`ClockStore::claim_unsent`]).
    ///
    /// [`ClockStore::claim_unsent`]: super::ClockStore::claim_unsent
    fn holder(&self) -> &str;
    /// Runs `f` on a connection (each statement its own transaction).
    fn read<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T>;
    /// Runs `f` in a read transaction: its statements see one snapshot (SQLite: a deferred
    /// transaction; PostgreSQL: `REPEATABLE READ`, read only).
    fn snapshot<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T>;
    /// Runs `f` in one write transaction, committed if `f` succeeds (SQLite: `BEGIN
    /// IMMEDIATE`, one writer at a time).
    fn write<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T>;
    /// Runs a write that is one statement on PostgreSQL, where it is its own transaction (no
    /// `BEGIN` and `COMMIT` round trips); on SQLite, a `BEGIN IMMEDIATE` transaction as every
    /// write (`f` may loop there: see `mark_sent`).
    fn single<T>(&self, f: impl FnOnce(&mut dyn Exec) -> Result<T>) -> Result<T>;
}

/// The database's now in Unix seconds, in PostgreSQL.
const PG_NOW: &str = "floor(extract(epoch FROM clock_timestamp()))::bigint";

/// A token of the table in the module's documentation, in `dialect`.
fn token(name: &str, dialect: Dialect) -> Option<&'static str> {
    Some(match (name, dialect) {
        ("now", Dialect::Sqlite) => "unixepoch()",
        ("now", Dialect::Postgres) => PG_NOW,
        ("false", Dialect::Sqlite) => "0",
        ("false", Dialect::Postgres) => "FALSE",
        ("true", Dialect::Sqlite) => "1",
        ("true", Dialect::Postgres) => "TRUE",
        ("for update" | "for update skip locked" | "for share", Dialect::Sqlite) => "",
        ("for update", Dialect::Postgres) => "FOR UPDATE",
        ("for update skip locked", Dialect::Postgres) => "FOR UPDATE SKIP LOCKED",
        ("for share", Dialect::Postgres) => "FOR SHARE",
        _ => return None,
    })
}

/// A statement as `dialect` takes it: its tokens (see the module's documentation) replaced,
/// and for SQLite `$N` written `?N`. Text in single quotes is left as it is; so is a brace
/// that opens no known token (the database then says what is wrong).
pub fn translate(sql: &str, dialect: Dialect) -> Cow<'_, str> {
    let special = |c: char| c == '{' || (c == '$' && dialect == Dialect::Sqlite);
    if !sql.contains(special) {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len() + 16);
    let mut quoted = false;
    let mut rest = sql;
    while let Some(c) = rest.chars().next() {
        if c == '\'' {
            quoted = !quoted;
        } else if !quoted && c == '$' && dialect == Dialect::Sqlite {
            let digits = rest[1..].len()
                - rest[1..]
                    .trim_start_matches(|d: char| d.is_ascii_digit())
                    .len();
            if digits > 0 {
                out.push('?');
                out.push_str(&rest[1..=digits]);
                rest = &rest[1 + digits..];
                continue;
            }
        } else if !quoted && c == '{' {
            if let Some(end) = rest.find('}') {
                if let Some(t) = token(&rest[1..end], dialect) {
                    out.push_str(t);
                    rest = &rest[end + 1..];
                    continue;
                }
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_sqlite_indexes() {
        let sql = "UPDATE t SET a = $1, b = $10, c = $2 WHERE d = $1 AND e = $12";
        assert_eq!(
            translate(sql, Dialect::Sqlite),
            "UPDATE t SET a = ?1, b = ?10, c = ?2 WHERE d = ?1 AND e = ?12"
        );
        assert_eq!(translate(sql, Dialect::Postgres), sql);
        // Nothing to translate: the statement itself, not a copy.
        assert!(matches!(
            translate("SELECT 1", Dialect::Sqlite),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            translate(sql, Dialect::Postgres),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn quoted_text_is_left_alone() {
        let sql = "SELECT '$1 {now}' || $1, '{for update}' FROM t WHERE x = $2 {for update}";
        assert_eq!(
            translate(sql, Dialect::Sqlite),
            "SELECT '$1 {now}' || ?1, '{for update}' FROM t WHERE x = ?2 "
        );
        assert_eq!(
            translate(sql, Dialect::Postgres),
            "SELECT '$1 {now}' || $1, '{for update}' FROM t WHERE x = $2 FOR UPDATE"
        );
        // A dollar without digits, an unknown token, an unclosed brace: as written.
        assert_eq!(translate("$ {x} {", Dialect::Sqlite), "$ {x} {");
    }

    #[test]
    fn tokens_per_dialect() {
        let sql = "UPDATE g SET r = {true}, c = {now} + $2 WHERE id = (SELECT id FROM g \
                   WHERE r = {false} {for update skip locked}) {for share}";
        assert_eq!(
            translate(sql, Dialect::Sqlite),
            "UPDATE g SET r = 1, c = unixepoch() + ?2 WHERE id = (SELECT id FROM g \
             WHERE r = 0 ) "
        );
        assert_eq!(
            translate(sql, Dialect::Postgres),
            format!(
                "UPDATE g SET r = TRUE, c = {PG_NOW} + $2 WHERE id = (SELECT id FROM g \
                 WHERE r = FALSE FOR UPDATE SKIP LOCKED) FOR SHARE"
            )
        );
    }

    #[test]
    fn values_read_as_types() {
        let row = Row(vec![
            Value::Int(7),
            Value::Null,
            Value::Int(-1),
            Value::Int(1),
            Value::Bool(false),
            Value::Text("x".into()),
            Value::Real(1.5),
            Value::Int(300),
        ]);
        assert_eq!(row.get::<i64>(0).ok(), Some(7));
        assert_eq!(row.get::<u32>(0).ok(), Some(7));
        assert_eq!(row.get::<Option<i64>>(1).ok(), Some(None));
        assert_eq!(row.get::<Option<String>>(1).ok(), Some(None));
        assert!(row.get::<i64>(1).is_err(), "NULL is not an integer");
        assert!(row.get::<u32>(2).is_err(), "-1 is not a count");
        assert_eq!(row.get::<bool>(3).ok(), Some(true));
        assert_eq!(row.get::<bool>(4).ok(), Some(false));
        assert_eq!(row.get::<String>(5).ok(), Some("x".to_string()));
        assert!(row.get::<i64>(5).is_err());
        assert_eq!(row.get::<f64>(6).ok(), Some(1.5));
        assert_eq!(row.get::<f64>(0).ok(), Some(7.0));
        assert!(row.get::<u8>(7).is_err(), "300 is past u8");
        assert_eq!(row.get::<Option<u8>>(0).ok(), Some(Some(7)));
        assert!(row.get::<i64>(8).is_err(), "no such column");
    }

    #[test]
    fn values_from_rust() {
        let name = String::from("n");
        let none: Option<&str> = None;
        let args: &[Value] = args![1i64, 2u32, 3u8, 4usize, &name, none, Some(5u32), true, 0.5];
        assert_eq!(
            args,
            &[
                Value::Int(1),
                Value::Int(2),
                Value::Int(3),
                Value::Int(4),
                Value::Text("n".into()),
                Value::Null,
                Value::Int(5),
                Value::Bool(true),
                Value::Real(0.5),
            ]
        );
    }
}
