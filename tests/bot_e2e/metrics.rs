//! Operating the bot: `metrics_addr` serves `/metrics` (Prometheus text) and `/healthz`, and
//! `log_format = "json"` writes one JSON object a line.
//!
//! - Commands played through the fake (a challenge, an accept, a move, a refused move) raise
//!   their counters, the latency histogram's count and the notices sent; the games-in-play
//!   gauge follows the database.
//! - `/healthz` is 200 once connected; the fake resets the gateway connection (a TCP reset,
//!   through its relay) and holds its answer to the bot's RESUME: `/healthz` is 503 meanwhile,
//!   the fake sees the op 6 RESUME, and once it answers RESUMED `/healthz` is 200 again.
//! - JSON logs parse line by line; an unknown `log_format` is refused at start.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::startup::{refused, run_to_end, tegami};
use super::{content, slash, write_config, Bot, STEP};
use crate::fake_discord::{opt_str, opt_user, FakeDiscord, FakeUser, CHANNEL_ID};

/// A loopback port free right now (the bot binds it a moment later).
pub(super) fn free_port() -> u16 {
    let l = std::net::TcpListener::bind(("127.0.0.1", 0)).expect("bind a free port");
    l.local_addr().expect("local address").port()
}

/// The example config (quick sweep, Message Content on) with `extra` lines added.
pub(super) fn config_with(dir: &Path, extra: &str) -> PathBuf {
    let path = write_config(dir);
    let mut text = std::fs::read_to_string(&path).expect("read config");
    text.push('\n');
    text.push_str(extra);
    text.push('\n');
    std::fs::write(&path, text).expect("write config");
    path
}

/// `GET path` on the bot's metrics server: the status and body, or `None` while nothing
/// answers there.
pub(super) async fn get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut s = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .ok()?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.ok()?;
    let mut raw = Vec::new();
    tokio::time::timeout(STEP, s.read_to_end(&mut raw))
        .await
        .ok()?
        .ok()?;
    let text = String::from_utf8(raw).expect("an HTTP answer in UTF-8");
    let (head, body) = text.split_once("\r\n\r\n").expect("headers, then a body");
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {head}"));
    Some((status, body.to_string()))
}

/// Polls `GET path` until `ok` holds of the answer (panics after [`STEP`], with the last one).
pub(super) async fn poll(
    port: u16,
    path: &str,
    what: &str,
    ok: impl Fn(u16, &str) -> bool,
) -> String {
    let deadline = Instant::now() + STEP;
    let mut last = None;
    loop {
        if let Some((status, body)) = get(port, path).await {
            if ok(status, &body) {
                return body;
            }
            last = Some((status, body));
        }
        assert!(
            Instant::now() < deadline,
            "{what} within {STEP:?}; last answer of {path}: {last:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The value of the series `name` with (at least) `labels`, summed over the other labels; 0
/// when there is none yet (a counter not yet incremented is not rendered).
fn metric(text: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    let mut sum = 0.0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some((series, value)) = line.rsplit_once(' ') else {
            continue;
        };
        let (n, rest) = match series.split_once('{') {
            Some((n, rest)) => (n, rest.trim_end_matches('}')),
            None => (series, ""),
        };
        if n != name {
            continue;
        }
        let have: BTreeMap<&str, &str> = rest
            .split(',')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k, v.trim_matches('"')))
            .collect();
        if labels.iter().all(|(k, v)| have.get(k) == Some(v)) {
            sum += value
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("a number: {line}"));
        }
    }
    sum
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_commands_notices_and_games_as_they_happen() {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = free_port();
    let config = config_with(dir.path(), &format!("metrics_addr = \"127.0.0.1:{port}\""));
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(2_000_000_000_000_000_701, "alice");
    let bob = FakeUser::new(2_000_000_000_000_000_702, "bob");
    for u in [&alice, &bob] {
        fake.add_user(u);
    }
    let mut bot = Bot::start_ready(&fake, dir.path(), &config).await;

    let before = poll(port, "/metrics", "/metrics answering", |s, _| s == 200).await;
    let count = |text: &str, command: &str, outcome: &str| {
        metric(
            text,
            "tegami_commands_total",
            &[("command", command), ("outcome", outcome)],
        )
    };
    let latency = |text: &str| metric(text, "tegami_command_duration_seconds_count", &[]);

    // A challenge, its accept, a move, and a move out of turn (refused).
    let ack = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "challenge",
        json!([
            opt_user("opponent", &bob),
            opt_str("game", "shogi"),
            opt_str("color", "black")
        ]),
        &[&bob],
    )
    .await;
    assert!(content(&ack).contains("Challenge #1"), "{}", content(&ack));
    slash(&fake, CHANNEL_ID, &bob, "accept", json!([]), &[]).await;
    let moved = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "move",
        json!([opt_str("move", "P-7f")]),
        &[],
    )
    .await;
    assert!(content(&moved).contains("P-7f"), "{}", content(&moved));
    let refused_move = slash(
        &fake,
        CHANNEL_ID,
        &alice,
        "move",
        json!([opt_str("move", "P-2f")]),
        &[],
    )
    .await;
    assert!(
        content(&refused_move)
            .to_lowercase()
            .contains("not your turn"),
        "{}",
        content(&refused_move)
    );

    // The gauges are refreshed on a timer (each second here, with the sweep's interval).
    let after = poll(port, "/metrics", "the metrics caught up", |_, t| {
        metric(t, "tegami_games_in_play", &[]) == 1.0
            && metric(t, "tegami_outbox_backlog", &[]) == 0.0
            && metric(t, "tegami_notices_sent_total", &[])
                > metric(&before, "tegami_notices_sent_total", &[])
    })
    .await;
    for (command, outcome) in [
        ("challenge", "ok"),
        ("accept", "ok"),
        ("move", "ok"),
        ("move", "refused"),
    ] {
        assert_eq!(
            count(&after, command, outcome) - count(&before, command, outcome),
            1.0,
            "one {command} {outcome} more:\n{after}"
        );
    }
    assert_eq!(
        latency(&after) - latency(&before),
        4.0,
        "four commands timed:\n{after}"
    );
    assert!(
        metric(&after, "tegami_notices_queued_total", &[])
            > metric(&before, "tegami_notices_queued_total", &[]),
        "notices queued:\n{after}"
    );
    for name in [
        "tegami_commands_total",
        "tegami_command_duration_seconds",
        "tegami_notices_queued_total",
        "tegami_notices_sent_total",
        "tegami_outbox_backlog",
        "tegami_outbox_oldest_unsent_seconds",
        "tegami_sweep_duration_seconds",
        "tegami_sweep_actions_total",
        "tegami_shards_connected",
        "tegami_games_in_play",
    ] {
        assert!(
            after.contains(&format!("# HELP {name} ")),
            "{name} described:\n{after}"
        );
    }
    assert_eq!(metric(&after, "tegami_shards_connected", &[]), 1.0);
    assert!(
        after.contains("# TYPE tegami_command_duration_seconds histogram")
            && after.contains("tegami_command_duration_seconds_bucket{"),
        "latency is a histogram:\n{after}"
    );
    assert!(
        after.contains("tegami_sweep_duration_seconds_count"),
        "sweeps are timed:\n{after}"
    );

    // Anything else on the port is a 404, not a hang.
    let (status, _) = get(port, "/nothing").await.expect("an answer");
    assert_eq!(status, 404);
    assert_eq!(bot.terminate().code(), Some(0));
    fake.assert_no_unknown_routes();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_is_503_while_the_gateway_is_down_and_200_after_the_resume() {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = free_port();
    let config = config_with(dir.path(), &format!("metrics_addr = \"127.0.0.1:{port}\""));
    let fake = FakeDiscord::start().await;
    fake.relay_gateway().await;
    let mut bot = Bot::start(&fake, dir.path(), &config, 1);
    fake.wait_ready(STEP).await;
    let body = poll(port, "/healthz", "ready once connected", |s, _| s == 200).await;
    assert!(body.starts_with("ready"), "{body}");

    // The connection is reset; the fake answers the bot's RESUME only when told.
    let (identifies, resumes) = (fake.identify_count(), fake.resume_count());
    fake.hold_resumes();
    fake.reset_gateway();
    let body = poll(port, "/healthz", "unready while disconnected", |s, _| {
        s == 503
    })
    .await;
    assert!(body.contains("no gateway shard is connected"), "{body}");
    let metrics = get(port, "/metrics").await.expect("metrics").1;
    assert_eq!(metrics_value(&metrics, "tegami_shards_connected"), 0.0);
    let deadline = Instant::now() + STEP;
    while fake.resume_requests() == 0 {
        assert!(Instant::now() < deadline, "the bot sent no RESUME (op 6)");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Still unready while the RESUME waits.
    let (status, _) = get(port, "/healthz").await.expect("an answer");
    assert_eq!(status, 503);

    fake.release_resumes();
    let body = poll(port, "/healthz", "ready after RESUMED", |s, _| s == 200).await;
    assert!(body.starts_with("ready"), "{body}");
    assert_eq!(fake.resume_count(), resumes + 1, "answered with RESUMED");
    assert_eq!(
        fake.identify_count(),
        identifies,
        "the session was resumed, not identified again"
    );
    assert_eq!(bot.terminate().code(), Some(0));
}

fn metrics_value(text: &str, name: &str) -> f64 {
    metric(text, name, &[])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_are_one_object_a_line_and_an_unknown_format_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = config_with(dir.path(), "log_format = \"json\"");
    let fake = FakeDiscord::start().await;
    let mut bot = Bot::start_ready(&fake, dir.path(), &config).await;
    assert_eq!(bot.terminate().code(), Some(0));
    let log = bot.log_text();
    let lines: Vec<Value> = log
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect();
    assert!(lines.len() >= 3, "a few lines logged:\n{log}");
    for l in &lines {
        assert!(l.is_object(), "{l}");
        for field in ["timestamp", "level", "target", "fields"] {
            assert!(l.get(field).is_some(), "{field} in {l}");
        }
    }
    let said = |text: &str| {
        lines.iter().any(|l| {
            l["fields"]["message"]
                .as_str()
                .is_some_and(|m| m.contains(text))
        })
    };
    assert!(said("connected to Discord"), "{log}");
    assert!(said("stopped"), "{log}");

    // Anything but text or json is refused at start, naming the field.
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "token = \"t\"\nlog_format = \"yaml\"\n").expect("write config");
    let out = run_to_end(tegami(dir.path()).arg("--config").arg(&bad));
    refused(&out, &["log_format", "yaml", "json"]);
}
