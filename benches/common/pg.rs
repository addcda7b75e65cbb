//! A throwaway PostgreSQL database for a benchmark, on the server `TEGAMI_BENCH_DATABASE_URL`
//! names (for instance the cluster `bash .ci/postgres` starts; `TEGAMI_PG_FSYNC=on` gives one
//! that waits for the disk on each commit, as a real server does). Dropped when done.

#![allow(dead_code)]

/// The server of the benchmarks, if one is given.
pub const URL_ENV: &str = "TEGAMI_BENCH_DATABASE_URL";

/// A database created for one benchmark run.
pub struct BenchDb {
    server: String,
    pub name: String,
    /// The URL the store opens.
    pub url: String,
}

impl BenchDb {
    /// A new, empty database on the benchmarks' server; `None` (said on standard error) when
    /// no server is given.
    pub fn create(what: &str) -> Option<BenchDb> {
        let server = match std::env::var(URL_ENV) {
            Ok(u) if !u.is_empty() => u,
            _ => {
                eprintln!("{what} on PostgreSQL: skipped ({URL_ENV} is not set)");
                return None;
            }
        };
        let name = format!("tegami_bench_{}", std::process::id());
        let mut c = postgres::Client::connect(&server, postgres::NoTls)
            .unwrap_or_else(|e| panic!("{URL_ENV}={server}: cannot connect: {e}"));
        c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .expect("drop an old bench database");
        c.batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create the bench database");
        let mut config: postgres::Config = server.parse().expect("a PostgreSQL URL");
        config.dbname(&name);
        let host = match config.get_hosts().first() {
            Some(postgres::config::Host::Tcp(h)) => h.clone(),
            _ => "127.0.0.1".into(),
        };
        let port = config.get_ports().first().copied().unwrap_or(5432);
        let user = config.get_user().unwrap_or("postgres").to_string();
        let url = format!("postgres://{user}@{host}:{port}/{name}");
        Some(BenchDb { server, name, url })
    }

    /// The server's `fsync` and `synchronous_commit` settings, for the figures.
    pub fn durability(&self) -> String {
        let mut c = postgres::Client::connect(&self.url, postgres::NoTls).expect("connect");
        let get = |c: &mut postgres::Client, s: &str| -> String {
            c.query_one(&format!("SHOW {s}"), &[])
                .ok()
                .and_then(|r| r.try_get::<_, String>(0).ok())
                .unwrap_or_default()
        };
        let version = get(&mut c, "server_version");
        let fsync = get(&mut c, "fsync");
        let sync = get(&mut c, "synchronous_commit");
        format!("PostgreSQL {version}, fsync={fsync}, synchronous_commit={sync}")
    }
}

impl Drop for BenchDb {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.server, postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}
