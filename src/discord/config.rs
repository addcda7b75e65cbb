//! The bot's configuration: a TOML file (`config.example.toml` documents every field), with the
//! environment winning for the token (`DISCORD_TOKEN`), the PostgreSQL database
//! (`DATABASE_URL`), the REST base (`TEGAMI_DISCORD_API`) and the log filter (`RUST_LOG`). A mistyped or unknown field is an error, never ignored.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;

/// The default REST base: Discord itself.
pub const DISCORD_API: &str = "https://discord.com";

/// What the configuration file may say. Every field is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    token: Option<String>,
    database: Option<PathBuf>,
    database_url: Option<String>,
    prefix: Option<String>,
    dev_guild: Option<u64>,
    message_content: Option<bool>,
    sweep_interval_secs: Option<u64>,
    commands_per_10s: Option<usize>,
    log: Option<String>,
    log_format: Option<String>,
    api_base: Option<String>,
    metrics_addr: Option<String>,
}

/// How log lines are written on stderr.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// tracing's human format (the default).
    #[default]
    Text,
    /// One JSON object per line (`timestamp`, `level`, `target`, `fields`; `spans` for an event
    /// inside spans).
    Json,
}

/// The bot's settings, after the file, the environment and the defaults.
#[derive(Clone)]
pub struct BotConfig {
    /// The bot token. Never logged: `Debug` hides it.
    pub token: String,
    pub database: PathBuf,
    /// A PostgreSQL database (`postgres://...`) instead of the SQLite file: for several bot
    /// processes sharing one database. May hold a password: `Debug` hides it.
    pub database_url: Option<String>,
    pub prefix: String,
    /// Commands are registered in this server only (instantly), else globally.
    pub dev_guild: Option<u64>,
    /// Whether to ask for the privileged Message Content intent (prefix commands, bare moves).
    pub message_content: bool,
    /// Seconds between correspondence sweeps.
    pub sweep_interval_secs: u64,
    /// Commands one user may send in 10 seconds (more are refused, "slow down"); a move
    /// picker's clicks may be five times as many.
    pub commands_per_10s: usize,
    /// The `tracing` filter when `RUST_LOG` is not set.
    pub log: String,
    /// How log lines are written (`log_format`: `text`, the default, or `json`).
    pub log_format: LogFormat,
    /// Where `/metrics` and `/healthz` are served over HTTP; `None` (the default): nowhere.
    pub metrics_addr: Option<SocketAddr>,
    /// Where REST calls go (`https://discord.com`, a proxy, or a test's fake Discord).
    pub api_base: String,
    /// The gateway shards this process runs (`--shards A-B --total-shards N`); `None`: one
    /// process, one shard.
    pub shards: Option<Shards>,
}

/// A range of gateway shards, both ends included, out of `total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

impl Shards {
    /// Reads `--shards A-B` (or a single `A`) with `--total-shards N`; both or neither.
    pub fn parse(range: Option<&str>, total: Option<u32>) -> Result<Option<Shards>, String> {
        let (range, total) = match (range, total) {
            (None, None) => return Ok(None),
            (Some(r), Some(t)) => (r, t),
            (Some(_), None) => return Err("--shards needs --total-shards N".into()),
            (None, Some(_)) => return Err("--total-shards needs --shards A-B".into()),
        };
        let number = |s: &str| {
            s.trim().parse::<u32>().map_err(|_| {
                format!("--shards {range}: write a range of shard numbers such as 0-3")
            })
        };
        let (first, last) = match range.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let a = number(range)?;
                (a, a)
            }
        };
        if total == 0 {
            return Err("--total-shards must be at least 1".into());
        }
        if first > last || last >= total {
            return Err(format!(
                "--shards {range} with --total-shards {total}: shards are numbered 0 to {}, first to last",
                total - 1
            ));
        }
        Ok(Some(Shards { first, last, total }))
    }
}

impl std::fmt::Debug for BotConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotConfig")
            .field("token", &"<hidden>")
            .field("database", &self.database)
            .field(
                "database_url",
                &self.database_url.as_ref().map(|_| "<hidden>"),
            )
            .field("prefix", &self.prefix)
            .field("dev_guild", &self.dev_guild)
            .field("message_content", &self.message_content)
            .field("sweep_interval_secs", &self.sweep_interval_secs)
            .field("commands_per_10s", &self.commands_per_10s)
            .field("log", &self.log)
            .field("log_format", &self.log_format)
            .field("api_base", &self.api_base)
            .field("metrics_addr", &self.metrics_addr)
            .field("shards", &self.shards)
            .finish()
    }
}

/// Why the bot cannot start with this configuration. Each message is one line.
#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("cannot read the config file {0}: {1}")]
    Read(PathBuf, std::io::Error),
    #[error("config file {path}{line}: {message}")]
    Parse {
        path: PathBuf,
        line: String,
        message: String,
    },
    #[error("no bot token: set DISCORD_TOKEN or `token` in the config file")]
    NoToken,
    #[error("{0}")]
    Invalid(String),
}

/// Where a setting comes from besides the file: the process environment, or a test's map.
pub trait Env {
    fn var(&self, name: &str) -> Option<String>;
}

/// The process environment.
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok().filter(|v| !v.is_empty())
    }
}

impl BotConfig {
    /// Reads the file (if any), then the environment; `db` (the command line's `--db`) wins over
    /// both for the database.
    pub fn load(
        path: Option<&Path>,
        db: Option<&Path>,
        env: &dyn Env,
    ) -> Result<BotConfig, ConfigError> {
        let file = match path {
            Some(p) => {
                let text =
                    std::fs::read_to_string(p).map_err(|e| ConfigError::Read(p.to_owned(), e))?;
                parse_file(p, &text)?
            }
            None => File::default(),
        };
        let token = env
            .var("DISCORD_TOKEN")
            .or(file.token)
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .ok_or(ConfigError::NoToken)?;
        if token.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(ConfigError::Invalid(
                "the bot token contains spaces or control characters".into(),
            ));
        }
        // The message names where the bad value came from: the variable wins over the file.
        let (api_base, source) = match env.var("TEGAMI_DISCORD_API") {
            Some(v) => (v, "TEGAMI_DISCORD_API"),
            None => (
                file.api_base.unwrap_or_else(|| DISCORD_API.to_string()),
                "api_base",
            ),
        };
        let trimmed = api_base.trim_end_matches('/');
        let host = trimmed
            .strip_prefix("https://")
            .or_else(|| trimmed.strip_prefix("http://"));
        if host.is_none_or(str::is_empty) {
            return Err(ConfigError::Invalid(format!(
                "{source} '{api_base}' must start with http:// or https:// and name a host"
            )));
        }
        let api_base = trimmed.to_string();
        // PostgreSQL when a URL is given (the variable wins over the file), unless `--db` names
        // a SQLite file on the command line.
        let database_url = match db {
            Some(_) => None,
            None => env.var("DATABASE_URL").or(file.database_url),
        };
        if let Some(url) = &database_url {
            if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
                return Err(ConfigError::Invalid(
                    "database_url (or DATABASE_URL) must start with postgres:// or postgresql://"
                        .into(),
                ));
            }
        }
        let prefix = file.prefix.unwrap_or_else(|| "!".to_string());
        if prefix.trim().is_empty() || prefix.chars().any(char::is_whitespace) {
            return Err(ConfigError::Invalid(
                "prefix must be a non-empty word without spaces, such as !".into(),
            ));
        }
        let commands_per_10s = file.commands_per_10s.unwrap_or(8);
        if commands_per_10s == 0 {
            return Err(ConfigError::Invalid(
                "commands_per_10s must be at least 1".into(),
            ));
        }
        let sweep_interval_secs = file.sweep_interval_secs.unwrap_or(60);
        if sweep_interval_secs == 0 {
            return Err(ConfigError::Invalid(
                "sweep_interval_secs must be at least 1".into(),
            ));
        }
        let log_format = match file.log_format.as_deref() {
            None | Some("text") => LogFormat::Text,
            Some("json") => LogFormat::Json,
            Some(other) => {
                return Err(ConfigError::Invalid(format!(
                    "log_format '{}' is not a log format: write \"text\" or \"json\"",
                    hide_long_strings(&format!("\"{other}\"")).trim_matches('"')
                )))
            }
        };
        let metrics_addr = match file.metrics_addr.as_deref() {
            None => None,
            Some(a) => Some(a.trim().parse::<SocketAddr>().map_err(|_| {
                ConfigError::Invalid(format!(
                    "metrics_addr '{}' is not an address to listen on: write an IP address and a port, such as \"127.0.0.1:9187\"",
                    hide_long_strings(&format!("\"{a}\"")).trim_matches('"')
                ))
            })?),
        };
        Ok(BotConfig {
            token,
            database: db
                .map(Path::to_path_buf)
                .or(file.database)
                .unwrap_or_else(|| PathBuf::from("tegami.db")),
            database_url,
            prefix,
            dev_guild: file.dev_guild,
            message_content: file.message_content.unwrap_or(false),
            sweep_interval_secs,
            commands_per_10s,
            log: file.log.unwrap_or_else(|| "info".to_string()),
            log_format,
            api_base,
            metrics_addr,
            shards: None,
        })
    }
}

fn parse_file(path: &Path, text: &str) -> Result<File, ConfigError> {
    toml::from_str::<File>(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| {
                format!(
                    " line {}",
                    text[..s.start.min(text.len())].matches('\n').count() + 1
                )
            })
            .unwrap_or_default();
        ConfigError::Parse {
            path: path.to_owned(),
            line,
            // toml's message can span lines; one line is what an operator reads in a log.
            message: hide_long_strings(
                &e.message().split_whitespace().collect::<Vec<_>>().join(" "),
            ),
        }
    })
}

/// A message with its long quoted values hidden: a token pasted into the wrong field must not
/// reach a log through the error that names the field (`"no"` stays, to help).
fn hide_long_strings(message: &str) -> String {
    const SHORT: usize = 16;
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(open) = rest.find('"') {
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        match after.find('"') {
            Some(close) => {
                let value = &after[..close];
                if value.chars().count() > SHORT {
                    out.push_str("(a long value, hidden)");
                } else {
                    out.push_str(value);
                }
                out.push('"');
                rest = &after[close + 1..];
            }
            None => {
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct MapEnv(HashMap<&'static str, &'static str>);

    impl Env for MapEnv {
        fn var(&self, name: &str) -> Option<String> {
            self.0.get(name).map(|v| v.to_string())
        }
    }

    fn load_text(
        text: &str,
        env: &[(&'static str, &'static str)],
    ) -> Result<BotConfig, ConfigError> {
        let dir = tempfile::tempdir().expect("temp dir");
        let p = dir.path().join("config.toml");
        std::fs::write(&p, text).expect("write config");
        BotConfig::load(Some(&p), None, &MapEnv(env.iter().copied().collect()))
    }

    #[test]
    fn the_example_config_reads_and_the_environment_wins() {
        let text = include_str!("../../config.example.toml");
        let c = load_text(
            text,
            &[
                ("DISCORD_TOKEN", "from-env"),
                ("TEGAMI_DISCORD_API", "http://127.0.0.1:9/"),
            ],
        )
        .expect("example config");
        assert_eq!(c.token, "from-env");
        assert_eq!(c.api_base, "http://127.0.0.1:9");
        assert_eq!(c.prefix, "!");
        assert_eq!(c.database, PathBuf::from("tegami.db"));
        assert_eq!(c.database_url, None, "SQLite unless a URL is given");
        assert!(
            !format!("{c:?}").contains("from-env"),
            "the token is never printed"
        );
    }

    #[test]
    fn a_database_url_chooses_postgresql_and_its_password_is_not_printed() {
        let url = "postgres://tegami:s3cret@db.example/tegami";
        let c =
            load_text(&format!("token = \"a\"\ndatabase_url = \"{url}\"\n"), &[]).expect("config");
        assert_eq!(c.database_url.as_deref(), Some(url));
        assert!(!format!("{c:?}").contains("s3cret"), "{c:?}");
        // The variable wins over the file.
        let c = load_text(
            &format!("token = \"a\"\ndatabase_url = \"{url}\"\n"),
            &[("DATABASE_URL", "postgresql://other/db")],
        )
        .expect("config");
        assert_eq!(c.database_url.as_deref(), Some("postgresql://other/db"));
        // Not a PostgreSQL URL: refused on one line.
        let e = load_text("token = \"a\"\ndatabase_url = \"mysql://x\"\n", &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("postgres://") && !e.contains('\n'), "{e}");
    }

    #[test]
    fn defaults_apply_when_the_file_is_silent() {
        let c = load_text("token = \"abc\"\n", &[]).expect("config");
        assert_eq!(c.api_base, DISCORD_API);
        assert_eq!(c.sweep_interval_secs, 60);
        assert!(!c.message_content);
        assert_eq!(c.dev_guild, None);
    }

    #[test]
    fn a_mistyped_field_is_named_on_one_line() {
        let e = load_text("token = \"abc\"\nprefx = \"?\"\n", &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("prefx") && e.contains("line 2"), "{e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }

    #[test]
    fn a_missing_token_and_bad_values_are_refused() {
        assert!(matches!(load_text("", &[]), Err(ConfigError::NoToken)));
        assert!(load_text("token = \"a\"\nsweep_interval_secs = 0\n", &[]).is_err());
        assert!(load_text("token = \"a\"\napi_base = \"discord.com\"\n", &[]).is_err());
        assert!(load_text("token = \"a\"\nmessage_content = \"yes\"\n", &[]).is_err());
    }

    #[test]
    fn a_token_in_the_wrong_field_is_not_echoed() {
        let secret = "MTIzNDU2Nzg5.GhIjKl.very-secret-token-value";
        let e = load_text(
            &format!("dev_guild = \"{secret}\"\n"),
            &[("DISCORD_TOKEN", "t")],
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("line 1") && e.contains("hidden"), "{e}");
        assert!(!e.contains(secret), "{e}");
        // A short value is still shown, to help.
        let e = load_text("token = \"a\"\nmessage_content = \"yes\"\n", &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"yes\""), "{e}");
    }

    #[test]
    fn log_format_is_text_unless_json_is_asked_and_nothing_else_is_taken() {
        let c = load_text("token = \"a\"\n", &[]).expect("config");
        assert_eq!(c.log_format, LogFormat::Text);
        let c = load_text("token = \"a\"\nlog_format = \"text\"\n", &[]).expect("config");
        assert_eq!(c.log_format, LogFormat::Text);
        let c = load_text("token = \"a\"\nlog_format = \"json\"\n", &[]).expect("config");
        assert_eq!(c.log_format, LogFormat::Json);
        for bad in ["JSON", "yaml", ""] {
            let e = load_text(&format!("token = \"a\"\nlog_format = \"{bad}\"\n"), &[])
                .unwrap_err()
                .to_string();
            assert!(e.contains("log_format") && e.contains("json"), "{e}");
            assert!(!e.contains('\n'), "one line: {e}");
        }
        assert!(load_text("token = \"a\"\nlog_format = 1\n", &[]).is_err());
    }

    #[test]
    fn metrics_are_off_unless_an_address_is_given() {
        let c = load_text("token = \"a\"\n", &[]).expect("config");
        assert_eq!(c.metrics_addr, None);
        let c =
            load_text("token = \"a\"\nmetrics_addr = \"127.0.0.1:9187\"\n", &[]).expect("config");
        assert_eq!(
            c.metrics_addr,
            Some(SocketAddr::from(([127, 0, 0, 1], 9187)))
        );
        let c = load_text("token = \"a\"\nmetrics_addr = \"[::1]:9187\"\n", &[]).expect("config");
        assert_eq!(c.metrics_addr.map(|a| a.port()), Some(9187));
        for bad in ["localhost:9187", "127.0.0.1", "127.0.0.1:99999", ":9187"] {
            let e = load_text(&format!("token = \"a\"\nmetrics_addr = \"{bad}\"\n"), &[])
                .unwrap_err()
                .to_string();
            assert!(e.contains("metrics_addr") && e.contains(bad), "{e}");
        }
    }

    #[test]
    fn a_bad_api_base_is_named_where_it_came_from() {
        let e = load_text("token = \"a\"\n", &[("TEGAMI_DISCORD_API", "discord.com")])
            .unwrap_err()
            .to_string();
        assert!(e.contains("TEGAMI_DISCORD_API 'discord.com'"), "{e}");
        let e = load_text("token = \"a\"\napi_base = \"http://\"\n", &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("api_base 'http://'"), "{e}");
    }
}

#[cfg(test)]
mod shard_tests {
    use super::Shards;

    #[test]
    fn shard_ranges_are_read_and_checked() {
        assert_eq!(Shards::parse(None, None), Ok(None));
        assert_eq!(
            Shards::parse(Some("0-1"), Some(4)),
            Ok(Some(Shards {
                first: 0,
                last: 1,
                total: 4
            }))
        );
        assert_eq!(
            Shards::parse(Some("3"), Some(4)),
            Ok(Some(Shards {
                first: 3,
                last: 3,
                total: 4
            }))
        );
        for (r, t) in [
            (Some("0-4"), Some(4)),
            (Some("2-1"), Some(4)),
            (Some("a-b"), Some(4)),
            (Some("0-1"), Some(0)),
            (Some("0-1"), None),
            (None, Some(2)),
        ] {
            assert!(Shards::parse(r, t).is_err(), "{r:?} {t:?}");
        }
    }
}
