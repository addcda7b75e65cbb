//! `tegami db backup --db FILE --to FILE`: an online backup of a SQLite database, safe while
//! the bot runs.
//!
//! SQLite's online backup API (through rusqlite) copies the database page by page as one
//! consistent state: it is done in a single step, under one read transaction, which in WAL
//! mode never blocks the bot's writes (a backup done in small steps restarts each time the
//! bot writes, and on a busy server might never end). The pages go to `FILE.partial`, which
//! becomes `FILE` once complete and checked, in the rollback-journal mode (one file, nothing
//! beside it), so an interrupted backup never leaves a file that looks complete.
//!
//! PostgreSQL has its own tool for this, `pg_dump`, which is also safe while the bots run:
//! the command says how to call it rather than reimplementing it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::tables::{open_sqlite, Conn};
use super::{thousands, Location, OpsError, Result};

/// What a backup wrote.
#[derive(Clone, Debug)]
pub struct BackupReport {
    pub from: PathBuf,
    pub to: PathBuf,
    pub bytes: u64,
    pub seconds: f64,
    /// Rows per table of the backup.
    pub counts: Vec<(String, u64)>,
}

impl BackupReport {
    pub fn render(&self) -> String {
        let mut out = format!(
            "backed up {} → {} ({} bytes in {:.2} s); integrity of the backup: ok\n",
            self.from.display(),
            self.to.display(),
            thousands(self.bytes),
            self.seconds
        );
        for (t, n) in &self.counts {
            out += &format!("  {t}: {}\n", thousands(*n));
        }
        out
    }
}

/// The advice given for a PostgreSQL database: the `pg_dump` command.
pub fn pg_dump_advice(url: &str, to: &Path) -> String {
    format!(
        "tegami db backup copies SQLite files. For PostgreSQL use pg_dump, which is also safe \
         while the bots run:\n  pg_dump --format=custom --file={} '{}'\nand to restore into an \
         empty database: pg_restore --dbname='URL' {}",
        to.display(),
        super::hide_password(url),
        to.display()
    )
}

/// Backs `db` up into the new file `to`.
pub fn backup(db: &Location, to: &Path) -> Result<BackupReport> {
    let path = match db {
        Location::Sqlite(p) => p,
        Location::Postgres(url) => return Err(OpsError::Refused(pg_dump_advice(url, to))),
    };
    if to.exists() {
        return Err(OpsError::Refused(format!(
            "{} exists: a backup never overwrites a file; give a new name",
            to.display()
        )));
    }
    // A folder that is not there is named as such (SQLite would say only "unable to open
    // database file").
    if let Some(problem) = crate::store::SqliteStore::folder_problem(path) {
        return Err(OpsError::Refused(format!(
            "no database at {}: {problem}",
            path.display()
        )));
    }
    if let Some(problem) = crate::store::SqliteStore::folder_problem(to) {
        return Err(OpsError::Refused(format!(
            "cannot write the backup {}: {problem}",
            to.display()
        )));
    }
    let started = Instant::now();
    let source = open_sqlite(path, true)?;
    let mut partial = to.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    // A partial file of an earlier, interrupted backup is not worth keeping.
    let _ = std::fs::remove_file(&partial);
    let result = write_backup(&source, &partial);
    drop(source);
    let counts = match result {
        Ok(counts) => counts,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, to).map_err(|e| {
        OpsError::Failed(format!(
            "cannot rename {} to {}: {e}",
            partial.display(),
            to.display()
        ))
    })?;
    let bytes = std::fs::metadata(to).map(|m| m.len()).unwrap_or(0);
    Ok(BackupReport {
        from: path.clone(),
        to: to.to_path_buf(),
        bytes,
        seconds: started.elapsed().as_secs_f64(),
        counts,
    })
}

/// The backup into `partial`, checked; the rows per table of the copy.
fn write_backup(source: &rusqlite::Connection, partial: &Path) -> Result<Vec<(String, u64)>> {
    let mut dest = rusqlite::Connection::open(partial)
        .map_err(|e| OpsError::Refused(format!("cannot create {}: {e}", partial.display())))?;
    {
        use rusqlite::backup::StepResult;
        let backup = rusqlite::backup::Backup::new(source, &mut dest)?;
        // -1: every page in one step, one consistent state (see the module's docs). A source
        // busy for a moment (a writer holding a lock the step needs) is waited for.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More => continue,
                StepResult::Busy | StepResult::Locked if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(100));
                }
                _ => {
                    return Err(OpsError::Failed(
                        "the database stayed locked for a minute: try again".into(),
                    ))
                }
            }
        }
    }
    dest.pragma_update(None, "journal_mode", "DELETE")?;
    let problems: Vec<String> = dest
        .prepare("PRAGMA integrity_check")?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    if problems != ["ok"] {
        return Err(OpsError::Failed(format!(
            "the backup failed its integrity check: {}",
            problems.join("; ")
        )));
    }
    drop(dest);
    let mut conn = Conn::Sqlite(open_sqlite(partial, true)?);
    let mut counts = Vec::new();
    for t in conn.tables()? {
        let n = conn.count(&t.name)?;
        counts.push((t.name, n));
    }
    counts.sort();
    Ok(counts)
}
