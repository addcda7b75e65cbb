//! The two backends have the same schema (issue 49): after every migration of each, the same
//! tables, the same columns (by name, and whether they may be NULL) and the same indexes (by
//! table, column list, uniqueness and whether they are partial). A migration written for one
//! backend and not the other, or a table made again that lost an index (SQLite's 0009 lost
//! 0007's `(created_at, id)` index of the outbox), fails here with the difference named.
//!
//! Read from each database's own catalogue: SQLite's `pragma_table_info` and
//! `pragma_index_list`, PostgreSQL's `information_schema` and `pg_index`. Primary keys are left
//! out of the indexes (SQLite has none for an `INTEGER PRIMARY KEY`, PostgreSQL always one),
//! and a primary key's columns count as NOT NULL in both (as SQLite treats an integer key).
//! An index on an expression names its columns `<expression>`: the expressions themselves are
//! written in each dialect's words. The migrations' own bookkeeping (PostgreSQL's
//! `schema_migrations`; SQLite keeps `user_version`) is not part of the schema.

use std::collections::{BTreeMap, BTreeSet};

use super::*;

/// A column: its name and whether it may be NULL.
type Column = (String, bool);

/// An index: its columns in order, whether unique, whether partial (`WHERE`).
type Index = (Vec<String>, bool, bool);

/// One database's tables: each table's columns (sorted by name) and indexes (sorted).
#[derive(Debug, Default, PartialEq, Eq)]
struct Schema {
    tables: BTreeMap<String, (BTreeSet<Column>, BTreeSet<Index>)>,
}

const EXPRESSION: &str = "<expression>";

fn sqlite_schema(path: &str) -> Schema {
    let c = rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open SQLite read only");
    let names: Vec<String> = c
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .and_then(|mut s| {
            let rows = s
                .query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<Vec<String>>>();
            rows
        })
        .expect("SQLite tables");
    let mut schema = Schema::default();
    for table in names {
        let columns: BTreeSet<Column> = c
            .prepare("SELECT name, \"notnull\", pk FROM pragma_table_info(?1)")
            .and_then(|mut s| {
                let rows = s
                    .query_map([&table], |r| {
                        let not_null: bool = r.get(1)?;
                        let pk: i64 = r.get(2)?;
                        Ok((r.get::<_, String>(0)?, !(not_null || pk > 0)))
                    })?
                    .collect();
                rows
            })
            .expect("SQLite columns");
        let listed: Vec<(String, bool, String, bool)> = c
            .prepare("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?1)")
            .and_then(|mut s| {
                let rows = s
                    .query_map([&table], |r| {
                        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                    })?
                    .collect();
                rows
            })
            .expect("SQLite indexes");
        let mut indexes = BTreeSet::new();
        for (name, unique, origin, partial) in listed {
            if origin == "pk" {
                continue;
            }
            let cols: Vec<String> = c
                .prepare("SELECT name FROM pragma_index_info(?1) ORDER BY seqno")
                .and_then(|mut s| {
                    let rows = s
                        .query_map([&name], |r| {
                            Ok(r.get::<_, Option<String>>(0)?
                                .unwrap_or_else(|| EXPRESSION.to_string()))
                        })?
                        .collect();
                    rows
                })
                .expect("SQLite index columns");
            indexes.insert((cols, unique, partial));
        }
        schema.tables.insert(table, (columns, indexes));
    }
    schema
}

fn postgres_schema(url: &str) -> Schema {
    let mut c = postgres::Client::connect(url, postgres::NoTls).expect("connect to PostgreSQL");
    let mut schema = Schema::default();
    for r in c
        .query(
            "SELECT table_name::text FROM information_schema.tables
             WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
               AND table_name <> 'schema_migrations'",
            &[],
        )
        .expect("PostgreSQL tables")
    {
        schema.tables.insert(r.get(0), Default::default());
    }
    for r in c
        .query(
            "SELECT table_name::text, column_name::text, is_nullable = 'YES'
             FROM information_schema.columns WHERE table_schema = 'public'",
            &[],
        )
        .expect("PostgreSQL columns")
    {
        if let Some(t) = schema.tables.get_mut(&r.get::<_, String>(0)) {
            t.0.insert((r.get(1), r.get(2)));
        }
    }
    for r in c
        .query(
            "SELECT t.relname::text, ix.indisunique, ix.indpred IS NOT NULL,
                ARRAY(SELECT CASE WHEN ix.indkey[k - 1] = 0 THEN $1
                                  ELSE pg_get_indexdef(ix.indexrelid, k, true) END
                      FROM generate_series(1, ix.indnatts) AS k ORDER BY k)
             FROM pg_index ix
             JOIN pg_class t ON t.oid = ix.indrelid
             JOIN pg_namespace n ON n.oid = t.relnamespace
             WHERE n.nspname = 'public' AND NOT ix.indisprimary",
            &[&EXPRESSION],
        )
        .expect("PostgreSQL indexes")
    {
        if let Some(t) = schema.tables.get_mut(&r.get::<_, String>(0)) {
            t.1.insert((r.get(3), r.get(1), r.get(2)));
        }
    }
    schema
}

/// Every difference between the two schemas, in words (empty when they agree).
fn drift(sqlite: &Schema, postgres: &Schema) -> Vec<String> {
    let mut out = Vec::new();
    let names: BTreeSet<&String> = sqlite.tables.keys().chain(postgres.tables.keys()).collect();
    for name in names {
        let (s, p) = match (sqlite.tables.get(name), postgres.tables.get(name)) {
            (Some(s), Some(p)) => (s, p),
            (Some(_), None) => {
                out.push(format!("table {name}: in SQLite only"));
                continue;
            }
            (None, _) => {
                out.push(format!("table {name}: in PostgreSQL only"));
                continue;
            }
        };
        for c in s.0.difference(&p.0) {
            out.push(format!(
                "table {name}: column {c:?} (name, nullable) in SQLite only"
            ));
        }
        for c in p.0.difference(&s.0) {
            out.push(format!("table {name}: column {c:?} in PostgreSQL only"));
        }
        for i in s.1.difference(&p.1) {
            out.push(format!(
                "table {name}: index {i:?} (columns, unique, partial) in SQLite only"
            ));
        }
        for i in p.1.difference(&s.1) {
            out.push(format!("table {name}: index {i:?} in PostgreSQL only"));
        }
    }
    out
}

#[test]
fn both_backends_have_the_same_tables_columns_and_indexes() {
    let all = backends();
    let sqlite = all.iter().find(|b| b.name == "sqlite").expect("SQLite");
    let Some(pg) = all.iter().find(|b| b.name == "postgres") else {
        say("schema comparison SKIPPED: no PostgreSQL server (TEGAMI_TEST_DATABASE_URL)");
        return;
    };
    let path = sqlite
        .locator
        .strip_prefix("sqlite:")
        .expect("a SQLite locator");
    let url = pg
        .locator
        .strip_prefix("postgres:")
        .expect("a PostgreSQL locator");
    let (s, p) = (sqlite_schema(path), postgres_schema(url));
    // The comparison sees what it must: every table, with its columns and indexes.
    assert!(s.tables.len() >= 15, "SQLite tables: {:?}", s.tables.keys());
    let outbox = &s.tables["outbox"];
    assert!(
        outbox.0.contains(&("claimed_until".to_string(), true)),
        "{outbox:?}"
    );
    assert!(
        outbox
            .1
            .contains(&(vec!["created_at".into(), "id".into()], false, true)),
        "SQLite: the outbox is claimed in the order notices were made, by index: {outbox:?}"
    );
    let differences = drift(&s, &p);
    assert!(
        differences.is_empty(),
        "the backends' schemas differ:\n{}",
        differences.join("\n")
    );
    say(&format!(
        "schema comparison: {} tables agree on both backends",
        s.tables.len()
    ));
}
