//! `tegami db copy --from A --to B`: every table of A into the empty database B, SQLite to
//! PostgreSQL or back (or to another database of the same kind), verified.
//!
//! In order:
//! 1. Every refusal is decided before either side is touched (no migration, no row, no lock
//!    file left behind by a refused copy): the two must differ; neither may be in use by a bot
//!    (see the module above); the target must be empty (no row in any table, read as it is,
//!    without bringing its schema up to date: an operator who swaps `--from` and `--to` must
//!    not upgrade a live file past what the previous binary opens); neither may have been made
//!    by a newer Tegami; and the two schemas must agree once brought up to date (a side that
//!    needs its migrations is compared as they would leave it: SQLite's applied to a database
//!    in memory, PostgreSQL's in a transaction rolled back).
//! 2. Both schemas are brought up to date by the store itself (the source too: it is what
//!    starting this version's bot on it would do; the report says when it did).
//! 3. The source is read in one read transaction, table by table, parents before children;
//!    rows go to the target in batches of [`BATCH`] rows, one transaction each (on PostgreSQL
//!    through the binary `COPY` protocol). Each generated id's sequence follows.
//! 4. Verification: the target is read back, and each table's row count and digest (see
//!    [`super::Tally`]) and each game's move digest must equal the source's.
//!
//! A copy that fails part-way leaves a partial target: the error says so; empty it (or make
//! a new database) and copy again. The source is never written, but for its schema update.

use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};

use super::tables::{Conn, Table, Tally};
use super::{hold_exclusive, pg_connect, refuse_pg_in_use, thousands, Location, OpsError, Result};
use crate::store::Value;

/// Rows written per target transaction.
pub const BATCH: usize = 5_000;

/// One table's tallies on both sides.
#[derive(Clone, Debug)]
pub struct TableCopy {
    pub name: String,
    pub source: Tally,
    pub target: Tally,
}

impl TableCopy {
    pub fn equal(&self) -> bool {
        self.source.rows == self.target.rows && self.source.digest == self.target.digest
    }
}

/// What a copy did and found.
#[derive(Clone, Debug)]
pub struct CopyReport {
    pub from: String,
    pub to: String,
    /// The source's schema was brought from this many migrations to the current count.
    pub source_migrated: Option<(usize, usize)>,
    pub tables: Vec<TableCopy>,
    /// Games whose moves differ between the two sides (none after a good copy).
    pub games_differing: Vec<i64>,
    /// Seconds spent copying (reading the source and writing the target), and verifying.
    pub copy_seconds: f64,
    pub verify_seconds: f64,
}

impl CopyReport {
    pub fn rows(&self) -> u64 {
        self.tables.iter().map(|t| t.source.rows).sum()
    }

    /// Games with moves, as counted on the source.
    pub fn games_with_moves(&self) -> usize {
        self.tables
            .iter()
            .find(|t| t.name == "moves")
            .map_or(0, |t| t.source.games.len())
    }

    pub fn verified(&self) -> bool {
        self.tables.iter().all(TableCopy::equal) && self.games_differing.is_empty()
    }

    /// The report as printed: a line per table with both counts and digests, the moves'
    /// verdict, the speed.
    pub fn render(&self) -> String {
        let mut out = format!("copied {} → {}\n", self.from, self.to);
        if let Some((was, now)) = self.source_migrated {
            out += &format!(
                "(the source's schema was brought up to date first: {was} → {now} migrations)\n"
            );
        }
        let width = self
            .tables
            .iter()
            .map(|t| t.name.len())
            .max()
            .unwrap_or(5)
            .max(5);
        out += &format!(
            "{:<width$}  {:>12}  {:>12}  {:<16}  {}\n",
            "table", "source rows", "target rows", "source digest", "target digest"
        );
        for t in &self.tables {
            out += &format!(
                "{:<width$}  {:>12}  {:>12}  {}  {}{}\n",
                t.name,
                thousands(t.source.rows),
                thousands(t.target.rows),
                t.source.digest,
                t.target.digest,
                if t.equal() { "" } else { "  DIFFERENT" }
            );
        }
        let games = self.games_with_moves();
        if self.games_differing.is_empty() {
            out += &format!(
                "moves: every game's moves are equal on both sides ({} game{})\n",
                thousands(games as u64),
                if games == 1 { "" } else { "s" }
            );
        } else {
            let shown: Vec<String> = self
                .games_differing
                .iter()
                .take(20)
                .map(|g| format!("#{g}"))
                .collect();
            out += &format!(
                "moves: {} of {} games differ: {}\n",
                self.games_differing.len(),
                games,
                shown.join(", ")
            );
        }
        let rows = self.rows();
        let speed = if self.copy_seconds > 0.0 {
            rows as f64 / self.copy_seconds
        } else {
            0.0
        };
        out += &format!(
            "{} rows in {:.1} s ({} rows/s), verified in {:.1} s: {}\n",
            thousands(rows),
            self.copy_seconds,
            thousands(speed as u64),
            self.verify_seconds,
            if self.verified() {
                "the copy equals the source"
            } else {
                "THE COPY DIFFERS FROM THE SOURCE"
            }
        );
        out
    }
}

/// Copies `from` into the empty `to` and verifies the copy. `progress`: draw a progress bar
/// on stderr (only drawn on a terminal).
pub fn copy(from: &Location, to: &Location, progress: bool) -> Result<CopyReport> {
    if same(from, to) {
        return Err(OpsError::Refused(
            "the source and the target are the same database".into(),
        ));
    }
    if let Location::Sqlite(path) = from {
        if !path.is_file() {
            return Err(OpsError::Refused(format!(
                "no database at {}",
                path.display()
            )));
        }
    }
    // Held to the end: no bot starts on either file meanwhile. A lock file this copy made is
    // taken away again if the copy is refused.
    let mut locks = Locks::default();
    locks.take(from)?;
    locks.take(to)?;
    let was = refusals(from, to)?;
    // Nothing refused: from here on the copy changes both sides.
    locks.keep();

    migrate(from)?;
    migrate(to)?;
    let mut source = Conn::open(from, false)?;
    let mut target = Conn::open(to, false)?;
    let now = source.schema()?;
    let source_migrated = (was.applied != now.applied).then_some((was.applied, now.applied));

    let tables = source.tables()?;
    // Checked before, as the migrations would leave the two: a difference now is a bug.
    same_schema(&tables, &target.tables()?)?;

    let started = Instant::now();
    source.begin_snapshot()?;
    let mut total = 0;
    for t in &tables {
        total += source.count(&t.name)?;
    }
    let bar = if progress {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{msg:<16} [{bar:40}] {human_pos}/{human_len} rows ({eta} left)",
        )
        .map_err(|e| OpsError::Failed(e.to_string()))?
        .progress_chars("=> "),
    );
    let mut copies = Vec::new();
    for t in &tables {
        bar.set_message(t.name.clone());
        let tally = copy_table(&mut source, &mut target, t, &bar).map_err(|e| partial(e, to))?;
        if let Some(last) = source.last_id(t).map_err(|e| partial(e, to))? {
            target.set_last_id(t, last).map_err(|e| partial(e, to))?;
        }
        copies.push(TableCopy {
            name: t.name.clone(),
            source: tally,
            target: Tally::default(),
        });
    }
    source.end_snapshot()?;
    let copy_seconds = started.elapsed().as_secs_f64();

    let started = Instant::now();
    bar.set_position(0);
    for c in &mut copies {
        bar.set_message(format!("verifying {}", c.name));
        let Some(t) = tables.iter().find(|t| t.name == c.name) else {
            continue;
        };
        let game = t.game_column();
        let mut tally = Tally::default();
        target.read(t, &mut |row| {
            tally.add(&row, game);
            bar.inc(1);
            Ok(())
        })?;
        c.target = tally;
    }
    bar.finish_and_clear();
    let mut games_differing: Vec<i64> = Vec::new();
    if let Some(m) = copies.iter().find(|c| c.name == "moves") {
        let ids = m.source.games.keys().chain(m.target.games.keys());
        for g in ids {
            if m.source.games.get(g) != m.target.games.get(g) && !games_differing.contains(g) {
                games_differing.push(*g);
            }
        }
        games_differing.sort_unstable();
    }
    Ok(CopyReport {
        from: from.shown(),
        to: to.shown(),
        source_migrated,
        tables: copies,
        games_differing,
        copy_seconds,
        verify_seconds: started.elapsed().as_secs_f64(),
    })
}

/// Copies one table in batches; the source's tally.
fn copy_table(
    source: &mut Conn,
    target: &mut Conn,
    table: &Table,
    bar: &ProgressBar,
) -> Result<Tally> {
    let game = table.game_column();
    let mut tally = Tally::default();
    let mut batch: Vec<Vec<Value>> = Vec::with_capacity(BATCH);
    source.read(table, &mut |row| {
        tally.add(&row, game);
        batch.push(row);
        if batch.len() == BATCH {
            let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
            target.write(table, full)?;
            bar.inc(BATCH as u64);
        }
        Ok(())
    })?;
    let left = batch.len() as u64;
    if left > 0 {
        target.write(table, batch)?;
        bar.inc(left);
    }
    Ok(tally)
}

/// A failure once rows were written: the target holds part of the source.
fn partial(e: OpsError, to: &Location) -> OpsError {
    OpsError::Failed(format!(
        "{e}\nthe copy stopped part-way: {} holds part of the source. Empty it (or make a new \
         database) and copy again",
        to.shown()
    ))
}

/// Whether two locations name one database (the same file, or the same URL).
fn same(a: &Location, b: &Location) -> bool {
    match (a, b) {
        (Location::Sqlite(x), Location::Sqlite(y)) => {
            x == y || matches!((x.canonicalize(), y.canonicalize()), (Ok(p), Ok(q)) if p == q)
        }
        (Location::Postgres(x), Location::Postgres(y)) => x == y,
        _ => false,
    }
}

/// The locks a copy holds on SQLite files (see the module above); on PostgreSQL, a refusal if
/// a bot is connected. Dropped without [`Locks::keep`] (a refusal), the lock files this copy
/// made are removed again: a refused copy leaves nothing behind.
#[derive(Default)]
struct Locks {
    held: Vec<(std::fs::File, Option<std::path::PathBuf>)>,
    kept: bool,
}

impl Locks {
    fn take(&mut self, loc: &Location) -> Result<()> {
        match loc {
            Location::Sqlite(path) => {
                let made = !super::lock_path(path).exists();
                let file = hold_exclusive(path)?;
                self.held.push((file, made.then(|| super::lock_path(path))));
            }
            Location::Postgres(url) => {
                let mut c = pg_connect(url)?;
                refuse_pg_in_use(&mut c, &loc.shown())?;
            }
        }
        Ok(())
    }

    /// The copy goes ahead: its lock files stay, as a bot's do.
    fn keep(&mut self) {
        self.kept = true;
    }
}

impl Drop for Locks {
    fn drop(&mut self) {
        for (file, made) in self.held.drain(..) {
            // Removed while still held: no bot took it meanwhile.
            if let Some(path) = made.filter(|_| !self.kept) {
                let _ = std::fs::remove_file(path);
            }
            drop(file);
        }
    }
}

/// Every refusal of a copy, decided by reading both sides as they are (nothing written, no
/// schema brought up to date): the source's schema as it was, for the report.
fn refusals(from: &Location, to: &Location) -> Result<super::Schema> {
    let mut source = Conn::open(from, true)?;
    let was = source.schema()?;
    newer(&was, from)?;
    // A missing SQLite file is an empty target (made by the copy).
    let fresh = matches!(to, Location::Sqlite(path) if !path.exists());
    let target_after = if fresh {
        expected_tables(to)?
    } else {
        let mut target = Conn::open(to, true)?;
        let schema = target.schema()?;
        newer(&schema, to)?;
        let tables = target.tables()?;
        let filled: Vec<String> = tables
            .iter()
            .map(|t| Ok((t.name.clone(), target.count(&t.name)?)))
            .collect::<Result<Vec<_>>>()?
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(t, n)| format!("{t} has {}", thousands(n)))
            .collect();
        if !filled.is_empty() {
            return Err(OpsError::Refused(format!(
                "{} is not empty ({}): copy into an empty database",
                to.shown(),
                filled.join(", ")
            )));
        }
        if schema.pending.is_empty() {
            tables
        } else {
            expected_tables(to)?
        }
    };
    let source_after = if was.pending.is_empty() {
        source.tables()?
    } else {
        expected_tables(from)?
    };
    same_schema(&source_after, &target_after)?;
    Ok(was)
}

/// Refuses a database a newer Tegami has migrated (this binary cannot bring it down).
fn newer(schema: &super::Schema, loc: &Location) -> Result<()> {
    if schema.unknown.is_empty() {
        return Ok(());
    }
    Err(OpsError::Refused(format!(
        "{} was migrated by a newer Tegami ({}): copy it with that version",
        loc.shown(),
        schema.unknown.join(", ")
    )))
}

/// The tables the store's migrations make on `loc`'s backend, found without touching `loc`:
/// SQLite's migrations applied to a database in memory; PostgreSQL's applied in a schema of
/// their own, in a transaction rolled back (on `loc`'s server: nothing stays).
fn expected_tables(loc: &Location) -> Result<Vec<Table>> {
    match loc {
        Location::Sqlite(_) => {
            let mut c = rusqlite::Connection::open_in_memory()?;
            let migrations = rusqlite_migration::Migrations::new(
                crate::store::MIGRATIONS
                    .iter()
                    .map(|(_, sql)| rusqlite_migration::M::up(sql))
                    .collect(),
            );
            migrations
                .to_latest(&mut c)
                .map_err(|e| OpsError::Failed(format!("the SQLite migrations: {e}")))?;
            Conn::Sqlite(c).tables()
        }
        Location::Postgres(url) => {
            let mut c = pg_connect(url)?;
            c.batch_execute(
                "BEGIN; CREATE SCHEMA tegami_copy_probe; \
                 SET LOCAL search_path TO tegami_copy_probe",
            )?;
            for (_, sql) in crate::store::PG_MIGRATIONS {
                c.batch_execute(sql)?;
            }
            let mut conn = Conn::Pg(c);
            let tables = conn.tables();
            if let Conn::Pg(mut c) = conn {
                c.batch_execute("ROLLBACK")?;
            }
            tables
        }
    }
}

/// Brings the schema up to date through the store (creating a missing SQLite file).
fn migrate(loc: &Location) -> Result<()> {
    let opened = match loc {
        Location::Sqlite(path) => crate::store::SqliteStore::open(path).map(drop),
        Location::Postgres(url) => crate::store::PgStore::open(url).map(drop),
    };
    opened.map_err(|e| OpsError::Refused(format!("cannot open {}: {e}", loc.shown())))
}

/// Both sides must have the same tables with the same columns (the migrations of both
/// backends make one schema; a difference is a bug to report, not to paper over).
fn same_schema(source: &[Table], target: &[Table]) -> Result<()> {
    let mut problems = Vec::new();
    for s in source {
        match target.iter().find(|t| t.name == s.name) {
            None => problems.push(format!("the target has no table {}", s.name)),
            Some(t) => {
                for c in &s.columns {
                    if !t.columns.contains(c) {
                        problems.push(format!("the target's {} has no column {c}", s.name));
                    }
                }
                for c in &t.columns {
                    if !s.columns.contains(c) {
                        problems.push(format!("the source's {} has no column {c}", s.name));
                    }
                }
            }
        }
    }
    for t in target {
        if !source.iter().any(|s| s.name == t.name) {
            problems.push(format!("the source has no table {}", t.name));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(OpsError::Refused(format!(
            "the two schemas differ: {}",
            problems.join("; ")
        )))
    }
}
