//! `tegami db check [--db FILE_OR_URL]`: is the database sound, is its schema this version's,
//! and what does it hold. It only reads: nothing is migrated or repaired.
//!
//! - Integrity: SQLite's `PRAGMA integrity_check` and `PRAGMA foreign_key_check`. PostgreSQL
//!   enforces its constraints as it writes and has no such file check; the server answering
//!   the queries below is the check.
//! - Migrations: those this binary knows, applied or not; any applied that it does not know (a
//!   newer Tegami wrote the database).
//! - Tegami's own invariant, on both backends: a game's `ply` is the number of its moves not
//!   taken back.
//! - Counts: rows per table; notices not yet delivered, and the oldest.
//!
//! Exit status: 0 when all is well, 1 when a problem is found (integrity, a pending or unknown
//! migration, a game whose moves do not match its ply), 2 when the database cannot be opened.

use super::tables::{Conn, Schema};
use super::{thousands, Location, Result};

/// What a check found.
#[derive(Clone, Debug)]
pub struct CheckReport {
    pub database: String,
    pub backend: &'static str,
    /// Integrity problems (SQLite's words); empty when sound.
    pub integrity: Vec<String>,
    pub schema: Schema,
    /// Games whose ply is not their number of moves (at most 20 listed).
    pub games_off: Vec<i64>,
    pub counts: Vec<(String, u64)>,
    /// Notices not delivered yet, and when the oldest was queued (Unix seconds).
    pub unsent: Option<(u64, Option<i64>)>,
}

impl CheckReport {
    pub fn ok(&self) -> bool {
        self.integrity.is_empty() && self.schema.up_to_date() && self.games_off.is_empty()
    }

    pub fn render(&self) -> String {
        let mut out = format!("database: {} ({})\n", self.database, self.backend);
        if self.integrity.is_empty() {
            out += if self.backend == "SQLite" {
                "integrity: ok (integrity_check, foreign_key_check)\n"
            } else {
                "integrity: ok (the server enforces the constraints)\n"
            };
        } else {
            out += &format!("integrity: PROBLEMS: {}\n", self.integrity.join("; "));
        }
        let s = &self.schema;
        out += &format!("migrations: {} of {} applied", s.applied, s.known);
        if !s.pending.is_empty() {
            out += &format!(
                "; PENDING: {} (start this version's bot on it, or copy it, to apply them)",
                s.pending.join(", ")
            );
        }
        if !s.unknown.is_empty() {
            out += &format!(
                "; UNKNOWN to this version: {} (a newer Tegami wrote this database)",
                s.unknown.join(", ")
            );
        }
        out += "\n";
        if self.games_off.is_empty() {
            out += "games: every game's ply matches its moves\n";
        } else {
            let ids: Vec<String> = self.games_off.iter().map(|g| format!("#{g}")).collect();
            out += &format!(
                "games: PLY DOES NOT MATCH THE MOVES in {}\n",
                ids.join(", ")
            );
        }
        if let Some((n, oldest)) = self.unsent {
            out += &format!("notices waiting to be delivered: {}", thousands(n));
            if let Some(t) = oldest {
                out += &format!(" (the oldest queued {})", crate::service::format_time(t));
            }
            out += "\n";
        }
        out += "rows:\n";
        let width = self.counts.iter().map(|(t, _)| t.len()).max().unwrap_or(0);
        for (t, n) in &self.counts {
            out += &format!("  {t:<width$}  {:>10}\n", thousands(*n));
        }
        out += if self.ok() {
            "ok\n"
        } else {
            "problems found\n"
        };
        out
    }
}

/// Checks the database at `loc`, reading only.
pub fn check(loc: &Location) -> Result<CheckReport> {
    let mut conn = Conn::open(loc, true)?;
    let mut integrity = Vec::new();
    if let Conn::Sqlite(c) = &conn {
        let said: Vec<String> = c
            .prepare("PRAGMA integrity_check")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        if said != ["ok"] {
            integrity.extend(said);
        }
        let broken: Vec<String> = c
            .prepare("SELECT \"table\", rowid, parent FROM pragma_foreign_key_check")?
            .query_map([], |r| {
                Ok(format!(
                    "{} row {} names a missing {}",
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<i64>>(1)?.unwrap_or(0),
                    r.get::<_, String>(2)?
                ))
            })?
            .collect::<rusqlite::Result<_>>()?;
        integrity.extend(broken);
    }
    let schema = conn.schema()?;
    let tables = conn.tables()?;
    let mut counts = Vec::new();
    for t in &tables {
        counts.push((t.name.clone(), conn.count(&t.name)?));
    }
    counts.sort();
    let has = |name: &str| tables.iter().any(|t| t.name == name);
    let sql_games_off = "SELECT g.id FROM games g
         WHERE g.ply <> (SELECT count(*) FROM moves m WHERE m.game_id = g.id AND NOT m.taken_back)
         ORDER BY g.id LIMIT 20";
    let sql_unsent = "SELECT count(*), min(created_at) FROM outbox WHERE sent_at IS NULL";
    let mut games_off = Vec::new();
    let mut unsent = None;
    match &mut conn {
        Conn::Sqlite(c) => {
            if has("games") && has("moves") {
                games_off = c
                    .prepare(sql_games_off)?
                    .query_map([], |r| r.get(0))?
                    .collect::<rusqlite::Result<_>>()?;
            }
            if has("outbox") {
                unsent = Some(c.query_row(sql_unsent, [], |r| {
                    Ok((r.get::<_, i64>(0)?.max(0) as u64, r.get(1)?))
                })?);
            }
        }
        Conn::Pg(c) => {
            if has("games") && has("moves") {
                games_off = c
                    .query(sql_games_off, &[])?
                    .iter()
                    .map(|r| r.get(0))
                    .collect();
            }
            if has("outbox") {
                let r = c.query_one(sql_unsent, &[])?;
                unsent = Some((r.get::<_, i64>(0).max(0) as u64, r.get(1)));
            }
        }
    }
    Ok(CheckReport {
        database: loc.shown(),
        backend: match loc {
            Location::Sqlite(_) => "SQLite",
            Location::Postgres(_) => "PostgreSQL",
        },
        integrity,
        schema,
        games_off,
        counts,
        unsent,
    })
}
