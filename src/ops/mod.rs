//! The operator's database tools: `tegami db copy` (a whole database between SQLite and
//! PostgreSQL, verified), `tegami db backup` (an online backup of a SQLite file) and
//! `tegami db check` (integrity, migrations, counts).
//!
//! They work below the store's traits, table by table, on plain connections: a copy must carry
//! every row of every table (including those no trait reads whole, such as the outbox and
//! vacations), and it must not depend on the Rust row types keeping up with the schema. The
//! tables and their columns are read from the databases themselves; the store only brings a
//! schema up to date (`SqliteStore::open`, `PgStore::open`).
//!
//! A database is named by a file path (SQLite) or a `postgres://` / `postgresql://` URL
//! ([`Location`]).
//!
//! **In use.** A copy must not read a database a bot is writing (moves made after the copy's
//! snapshot would be lost when the operator switches), nor write one a bot uses:
//! - SQLite: `tegami run` and `tegami console` hold a shared lock on `FILE.lock` beside the
//!   database for as long as they run ([`hold_shared`]); the copy takes it exclusively on both
//!   sides ([`hold_exclusive`]), so it refuses while a bot runs and a bot started during a copy
//!   refuses to start.
//! - PostgreSQL: the bot's connections are named `tegami` (`application_name`, unless the URL
//!   names another); the copy refuses while the server lists one on that database.
//!
//! Even so the copy reads the source in one read transaction (SQLite's snapshot; PostgreSQL's
//! `REPEATABLE READ READ ONLY`): what it copies and verifies is one consistent state.

pub mod backup;
pub mod check;
pub mod copy;
mod tables;

use std::fs::File;
use std::path::{Path, PathBuf};

pub use tables::{Conn, Digest, Schema, Table, Tally};

/// A database: a SQLite file or a PostgreSQL URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Location {
    /// `postgres://…` or `postgresql://…` (or libpq's `host=… dbname=…` form) is PostgreSQL;
    /// anything else a SQLite file.
    pub fn parse(text: &str) -> Location {
        let t = text.trim();
        if t.starts_with("postgres://")
            || t.starts_with("postgresql://")
            || (t.contains("dbname=") && t.contains('='))
        {
            Location::Postgres(t.to_string())
        } else {
            Location::Sqlite(PathBuf::from(text))
        }
    }

    /// How the location is shown: the file, or the URL without its password.
    pub fn shown(&self) -> String {
        match self {
            Location::Sqlite(p) => p.display().to_string(),
            Location::Postgres(url) => hide_password(url),
        }
    }
}

/// `url` with the password of its user part (`user:secret@`) and of a `password=` parameter
/// replaced by `***`.
pub fn hide_password(url: &str) -> String {
    let mut out = url.to_string();
    if let Some(scheme_end) = out.find("://") {
        let rest = &out[scheme_end + 3..];
        if let Some(at) = rest.find('@') {
            if let Some(colon) = rest[..at].find(':') {
                let (a, b) = (scheme_end + 3 + colon + 1, scheme_end + 3 + at);
                out.replace_range(a..b, "***");
            }
        }
    }
    if let Some(p) = out.find("password=") {
        let start = p + "password=".len();
        let end = out[start..]
            .find(['&', ' '])
            .map_or(out.len(), |e| start + e);
        out.replace_range(start..end, "***");
    }
    out
}

/// What went wrong, and whether anything was done: a refusal (bad input, a database in use, a
/// non-empty target) changed nothing and exits with status 2; a failure exits with status 1.
#[derive(Debug, thiserror::Error)]
pub enum OpsError {
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    Failed(String),
}

impl OpsError {
    /// The process's exit status for this error.
    pub fn status(&self) -> u8 {
        match self {
            OpsError::Refused(_) => 2,
            OpsError::Failed(_) => 1,
        }
    }
}

pub type Result<T> = std::result::Result<T, OpsError>;

impl From<rusqlite::Error> for OpsError {
    fn from(e: rusqlite::Error) -> OpsError {
        OpsError::Failed(format!("SQLite: {e}"))
    }
}

impl From<::postgres::Error> for OpsError {
    fn from(e: ::postgres::Error) -> OpsError {
        // The server's message when it refused, else the client's words and their cause.
        let why = match (e.as_db_error(), std::error::Error::source(&e)) {
            (Some(db), _) => db.to_string(),
            (None, Some(cause)) => format!("{e}: {cause}"),
            (None, None) => e.to_string(),
        };
        OpsError::Failed(format!("PostgreSQL: {why}"))
    }
}

impl From<crate::store::StoreError> for OpsError {
    fn from(e: crate::store::StoreError) -> OpsError {
        OpsError::Failed(e.to_string())
    }
}

/// The lock file beside a SQLite database: `FILE.lock`.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

fn open_lock(db: &Path) -> std::io::Result<File> {
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_path(db))
}

/// What `tegami run` and `tegami console` hold while they use a SQLite file: a shared lock on
/// its lock file (several processes may share a file; a copy may not run meanwhile). Dropping
/// the file releases it, as does the process's end, however it ends.
pub fn hold_shared(db: &Path) -> std::result::Result<File, String> {
    let file = open_lock(db).map_err(|e| {
        format!(
            "cannot open the database {}: its lock file {}: {e}",
            db.display(),
            lock_path(db).display()
        )
    })?;
    match file.try_lock_shared() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "`tegami db copy` is working on {} (it holds {}): start again when it has finished",
            db.display(),
            lock_path(db).display()
        )),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(format!("cannot lock {}: {e}", lock_path(db).display()))
        }
    }
}

/// What a copy holds on a SQLite file: the lock no bot may share. Refused while a bot runs on
/// the file.
pub fn hold_exclusive(db: &Path) -> Result<File> {
    let file = open_lock(db).map_err(|e| {
        OpsError::Refused(format!(
            "cannot open the lock file {}: {e}",
            lock_path(db).display()
        ))
    })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(OpsError::Refused(format!(
            "{} is in use: a bot (`tegami run` or `tegami console`) holds {}. Stop it first, \
             so that no move is made after the copy",
            db.display(),
            lock_path(db).display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(OpsError::Refused(format!(
            "cannot lock {}: {e}",
            lock_path(db).display()
        ))),
    }
}

/// The `application_name` of the database tools' own connections.
pub const TOOL_APPLICATION: &str = "tegami db";

/// A plain connection to a PostgreSQL database for the tools.
fn pg_connect(url: &str) -> Result<::postgres::Client> {
    crate::store::connect_postgres(url, TOOL_APPLICATION)
        .map_err(|e| OpsError::Refused(format!("cannot connect to {}: {e}", hide_password(url))))
}

/// Refuses a PostgreSQL database a bot is connected to (see the module's docs).
fn refuse_pg_in_use(client: &mut ::postgres::Client, shown: &str) -> Result<()> {
    let row = client.query_one(
        "SELECT count(*), count(DISTINCT coalesce(host(client_addr), 'local'))
         FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = $1
           AND pid <> pg_backend_pid()",
        &[&crate::store::BOT_APPLICATION],
    )?;
    let (connections, hosts): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
    if connections > 0 {
        return Err(OpsError::Refused(format!(
            "{shown} is in use: {connections} connection(s) of a running bot from {hosts} \
             host(s). Stop the bots first, so that no move is made after the copy"
        )));
    }
    Ok(())
}

/// Groups digits by thousands: 12,345.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_told_apart_by_their_scheme() {
        assert_eq!(
            Location::parse("postgres://u@h/db"),
            Location::Postgres("postgres://u@h/db".into())
        );
        assert_eq!(
            Location::parse("postgresql://u@h/db"),
            Location::Postgres("postgresql://u@h/db".into())
        );
        assert_eq!(
            Location::parse("host=h dbname=x user=u"),
            Location::Postgres("host=h dbname=x user=u".into())
        );
        assert_eq!(
            Location::parse("data/tegami.db"),
            Location::Sqlite("data/tegami.db".into())
        );
    }

    #[test]
    fn passwords_are_not_shown() {
        assert_eq!(
            hide_password("postgres://tegami:s3cret@db:5432/tegami"),
            "postgres://tegami:***@db:5432/tegami"
        );
        assert_eq!(
            hide_password("postgres://db/tegami?user=t&password=s3cret&sslmode=require"),
            "postgres://db/tegami?user=t&password=***&sslmode=require"
        );
        assert_eq!(
            hide_password("host=db password=s3cret dbname=t"),
            "host=db password=*** dbname=t"
        );
        assert_eq!(hide_password("postgres://u@h/db"), "postgres://u@h/db");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn a_copy_and_a_bot_exclude_each_other_on_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        let bot = hold_shared(&db).unwrap();
        let second_bot = hold_shared(&db).unwrap();
        let refused = hold_exclusive(&db).unwrap_err();
        assert_eq!(refused.status(), 2);
        assert!(refused.to_string().contains("in use"), "{refused}");
        drop(bot);
        drop(second_bot);
        let copy = hold_exclusive(&db).unwrap();
        let bot_refused = hold_shared(&db).unwrap_err();
        assert!(bot_refused.contains("tegami db copy"), "{bot_refused}");
        drop(copy);
        assert!(hold_shared(&db).is_ok());
    }
}
