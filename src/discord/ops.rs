//! Operating the bot: with `metrics_addr` set, a small HTTP server there answers
//!
//! - `GET /metrics`: every metric in the Prometheus text format (the `metrics` crate's macros,
//!   recorded where things happen, rendered by `metrics-exporter-prometheus`);
//! - `GET /healthz`: 200 when ready, 503 with the reason when not. Ready: the database answers
//!   a cheap query within [`PROBE_TIMEOUT`], at least one gateway shard is connected, and
//!   Discord has the slash commands (until then the bot answers none). From the moment a stop
//!   begins it answers 503 "stopping", while the commands in flight finish.
//!
//! A shard is connected from its READY or RESUMED until serenity reports it in another stage
//! (`ShardStageUpdate`), and only while serenity's shard manager also has its runner in the
//! `Connected` stage: serenity 0.12.5 announces some reconnections only once they are over
//! (a resume after op 7 or a close frame), while a shard it restarts leaves the manager at once.
//!
//! The gauges read from the database (the outbox backlog, its oldest notice's age, the games in
//! play) are refreshed on a timer (every [`GAUGES_EVERY`], or at the sweep's interval if that
//! is shorter), not per scrape. The server is axum's, on the bot's runtime.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::extract::State;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use poise::serenity_prelude as serenity;
use tokio::net::TcpListener;
use tracing::{debug, info, warn};

use super::outbox::lock;
use crate::service::Service;

/// How long the health check waits for the database.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(2);
/// How often the database gauges are refreshed at most.
pub const GAUGES_EVERY: Duration = Duration::from_secs(15);
/// The histogram buckets, in seconds (command latency, sweep duration).
const BUCKETS: [f64; 14] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0,
];

/// Which shards are connected, from serenity's events; whether the slash commands are
/// registered; whether the bot is stopping.
pub struct Health {
    /// By shard id: connected since its last READY or RESUMED, and no other stage since.
    shards: Mutex<HashMap<u32, bool>>,
    /// serenity's shard manager, once the client is built (its runners' stages).
    manager: OnceLock<Arc<serenity::ShardManager>>,
    /// Why the slash commands are not registered (yet); `None` once Discord took them. A bot
    /// whose commands Discord does not have answers no slash command: it is not ready.
    commands: Mutex<Option<String>>,
    /// A stop has begun: the commands in flight are finishing, no new one is taken.
    stopping: AtomicBool,
}

impl Default for Health {
    fn default() -> Health {
        Health::new()
    }
}

impl Health {
    pub fn new() -> Health {
        Health {
            shards: Mutex::default(),
            manager: OnceLock::new(),
            commands: Mutex::new(Some("the slash commands are not registered yet".into())),
            stopping: AtomicBool::new(false),
        }
    }

    /// The slash commands are registered (`None`), or why they are not.
    pub fn set_commands(&self, missing: Option<String>) {
        *lock(&self.commands) = missing;
    }

    /// Why the slash commands are not registered, if they are not.
    pub fn commands_missing(&self) -> Option<String> {
        lock(&self.commands).clone()
    }

    /// The stop has begun (`/healthz` says "stopping" from now on).
    pub fn set_stopping(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// Gives the shard manager, whose runners' stages confirm what the events said.
    pub fn watch(&self, manager: Arc<serenity::ShardManager>) {
        let _ = self.manager.set(manager);
    }

    fn set(&self, shard: u32, connected: bool) {
        let n = {
            let mut shards = lock(&self.shards);
            shards.insert(shard, connected);
            shards.values().filter(|c| **c).count()
        };
        metrics::gauge!("tegami_shards_connected").set(n as f64);
    }

    /// The shards connected now (see the module's header); also sets the
    /// `tegami_shards_connected` gauge.
    pub async fn connected(&self) -> usize {
        let said: Vec<u32> = lock(&self.shards)
            .iter()
            .filter(|(_, c)| **c)
            .map(|(s, _)| *s)
            .collect();
        let n = match self.manager.get() {
            Some(m) => {
                let runners = m.runners.lock().await;
                said.iter()
                    .filter(|s| {
                        runners
                            .get(&serenity::ShardId(**s))
                            .is_some_and(|r| r.stage == serenity::ConnectionStage::Connected)
                    })
                    .count()
            }
            None => said.len(),
        };
        metrics::gauge!("tegami_shards_connected").set(n as f64);
        n
    }
}

/// serenity's events about the shards' connections, for [`Health`].
pub struct ShardWatch(pub Arc<Health>);

#[::serenity::async_trait]
impl serenity::EventHandler for ShardWatch {
    async fn ready(&self, ctx: serenity::Context, _ready: serenity::Ready) {
        self.0.set(ctx.shard_id.0, true);
    }

    async fn resume(&self, ctx: serenity::Context, _resumed: serenity::ResumedEvent) {
        self.0.set(ctx.shard_id.0, true);
    }

    async fn shard_stage_update(
        &self,
        _ctx: serenity::Context,
        event: serenity::ShardStageUpdateEvent,
    ) {
        debug!(shard = event.shard_id.0, old = %event.old, new = %event.new, "shard stage");
        self.0.set(
            event.shard_id.0,
            event.new == serenity::ConnectionStage::Connected,
        );
    }
}

/// Installs the Prometheus recorder for the whole process (once) and keeps its histograms
/// drained; returns the handle that renders them.
pub fn install_recorder() -> Result<PrometheusHandle, String> {
    let handle = PrometheusBuilder::new()
        .set_buckets(&BUCKETS)
        .and_then(PrometheusBuilder::install_recorder)
        .map_err(|e| format!("cannot start the metrics recorder: {e}"))?;
    describe();
    Ok(handle)
}

/// The metrics' help texts (`# HELP` lines).
fn describe() {
    use metrics::{describe_counter, describe_gauge, describe_histogram, Unit};
    describe_counter!(
        "tegami_commands_total",
        "Commands run through the core, by command name and outcome (ok, refused, failed)"
    );
    describe_histogram!(
        "tegami_command_duration_seconds",
        Unit::Seconds,
        "Time the core took to run a command, by command name"
    );
    describe_counter!(
        "tegami_notices_queued_total",
        "Notices the core made for the outbox"
    );
    describe_counter!(
        "tegami_notices_sent_total",
        "Notices Discord accepted (marked sent)"
    );
    describe_counter!(
        "tegami_notices_failed_total",
        "Notices set aside: no way could deliver them"
    );
    describe_counter!(
        "tegami_notices_retrying_total",
        "Deliveries that failed in a way that may pass, left to be tried again"
    );
    describe_gauge!(
        "tegami_outbox_backlog",
        "Notices in the database not yet sent nor set aside"
    );
    describe_gauge!(
        "tegami_outbox_oldest_unsent_seconds",
        Unit::Seconds,
        "Age of the oldest notice not yet sent (0 when none)"
    );
    describe_histogram!(
        "tegami_sweep_duration_seconds",
        Unit::Seconds,
        "Time one correspondence sweep took"
    );
    describe_counter!(
        "tegami_sweep_actions_total",
        "What the sweeps did, by action (timeout, reminder, expired_challenge, digest)"
    );
    describe_gauge!(
        "tegami_shards_connected",
        "Gateway shards of this process connected to Discord"
    );
    describe_gauge!(
        "tegami_computer_queue_length",
        "Games waiting for the computer player's move"
    );
    describe_gauge!("tegami_games_in_play", "Games in play in the database");
}

/// Reads the database gauges and the computer's queue every `every`, until aborted.
pub async fn refresh_gauges(service: Arc<Service>, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let s = service.clone();
        match tokio::task::spawn_blocking(move || (s.gauges(), s.now())).await {
            Ok((Ok(g), now)) => {
                metrics::gauge!("tegami_outbox_backlog").set(g.unsent as f64);
                let age = g.oldest_unsent.map_or(0, |t| (now - t).max(0));
                metrics::gauge!("tegami_outbox_oldest_unsent_seconds").set(age as f64);
                metrics::gauge!("tegami_games_in_play").set(g.games_in_play as f64);
            }
            Ok((Err(e), _)) => warn!("cannot read the gauges: {e}"),
            Err(e) => warn!("cannot read the gauges: {e}"),
        }
    }
}

/// What the HTTP server answers from.
pub struct Ops {
    pub health: Arc<Health>,
    pub handle: PrometheusHandle,
    pub service: Arc<Service>,
    /// A database probe is running (a hung database: the next checks answer at once instead
    /// of piling up blocked threads).
    probing: Arc<AtomicBool>,
}

impl Ops {
    pub fn new(health: Arc<Health>, handle: PrometheusHandle, service: Arc<Service>) -> Ops {
        Ops {
            health,
            handle,
            service,
            probing: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Whether the database answers: `Err` says why not.
    async fn probe(&self) -> Result<(), String> {
        if self.probing.swap(true, Ordering::SeqCst) {
            return Err("the database has not answered an earlier health check yet".into());
        }
        let (s, probing) = (self.service.clone(), self.probing.clone());
        let asked = tokio::task::spawn_blocking(move || {
            let r = s.gauges();
            probing.store(false, Ordering::SeqCst);
            r
        });
        match tokio::time::timeout(PROBE_TIMEOUT, asked).await {
            Ok(Ok(Ok(_))) => Ok(()),
            Ok(Ok(Err(e))) => Err(format!("the database answers with an error: {e}")),
            Ok(Err(e)) => Err(format!("the database check failed: {e}")),
            Err(_) => Err(format!(
                "the database did not answer within {}s",
                PROBE_TIMEOUT.as_secs()
            )),
        }
    }

    /// `/healthz`: whether the process is ready, and the body.
    pub async fn health(&self) -> (bool, String) {
        // A process that is stopping is taken out of rotation, whatever else holds.
        if self.health.is_stopping() {
            return (
                false,
                "stopping: finishing the commands in flight, taking no new ones\n".to_string(),
            );
        }
        let (db, shards) = tokio::join!(self.probe(), self.health.connected());
        let mut why = Vec::new();
        if let Err(e) = db {
            why.push(e);
        }
        if shards == 0 {
            why.push("no gateway shard is connected to Discord".to_string());
        }
        if let Some(missing) = self.health.commands_missing() {
            why.push(missing);
        }
        if why.is_empty() {
            (
                true,
                format!("ready: the database answers; shards connected: {shards}\n"),
            )
        } else {
            (false, format!("not ready: {}\n", why.join("; ")))
        }
    }

    /// `/metrics`.
    pub async fn metrics(&self) -> String {
        self.health.connected().await;
        self.handle.render()
    }
}

/// Binds `addr` for the server (a taken or forbidden address is the operator's to fix).
pub async fn bind(addr: SocketAddr) -> Result<TcpListener, String> {
    TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on metrics_addr {addr}: {e}"))
}

/// Serves `/metrics` and `/healthz` on `listener` until aborted (axum: another method is
/// answered 405, another path 404).
pub async fn serve(listener: TcpListener, ops: Arc<Ops>) {
    use axum::http::{header, StatusCode};
    use axum::routing::get;

    if let Ok(a) = listener.local_addr() {
        info!(addr = %a, "serving /metrics and /healthz");
    }
    // Histograms are drained into their buckets here (the recorder has no thread).
    let upkeep = ops.handle.clone();
    let upkeep = tokio::spawn(async move {
        let mut every = tokio::time::interval(Duration::from_secs(5));
        loop {
            every.tick().await;
            upkeep.run_upkeep();
        }
    });
    let text = |body: String| ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body);
    let router = axum::Router::new()
        .route(
            "/metrics",
            get(|State(ops): State<Arc<Ops>>| async move {
                (
                    [(
                        header::CONTENT_TYPE,
                        "text/plain; version=0.0.4; charset=utf-8",
                    )],
                    ops.metrics().await,
                )
            }),
        )
        .route(
            "/healthz",
            get(move |State(ops): State<Arc<Ops>>| async move {
                let (ready, body) = ops.health().await;
                let status = if ready {
                    StatusCode::OK
                } else {
                    StatusCode::SERVICE_UNAVAILABLE
                };
                (status, text(body))
            }),
        )
        .fallback(|| async {
            (
                StatusCode::NOT_FOUND,
                "not found: ask /metrics or /healthz\n",
            )
        })
        .with_state(ops);
    if let Err(e) = axum::serve(listener, router).await {
        warn!("metrics server stopped: {e}");
    }
    upkeep.abort();
}
