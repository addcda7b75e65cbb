//! The Discord adapter: `tegami run`. A thin layer over the command core, on poise (commands,
//! slash and prefix from one definition, autocomplete) over serenity (gateway, REST) and tokio.
//!
//! - `config`: the configuration file and the environment.
//! - `commands`: the slash/prefix commands, each turning its options into a core `Command`.
//! - `respond`: running a command in the core (off the async runtime) and answering on Discord:
//!   deferring first, ephemeral errors, board pictures and files, buttons, mentions limited to
//!   the users meant, the game's thread.
//! - `events`: what poise does not route: button clicks (parsed from their `custom_id`, so they
//!   survive restarts) and bare moves typed in a game's thread.
//! - `outbox`: delivery of the core's durable notices (with retries and backoff) and the
//!   correspondence sweep.
//! - `guard`: the per-user rate limit and the gate that lets a shutdown finish the commands in
//!   flight.
//! - `ops`: for the operator, `/metrics` and `/healthz` over HTTP at `metrics_addr`.
//!
//! No Discord type crosses into the core: it is given user ids, channel ids and texts.

pub mod commands;
pub mod config;
mod events;
mod guard;
mod ops;
mod outbox;
mod placement;
pub mod reference;
mod respond;

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tracing::{error, info, warn};

pub use config::{BotConfig, ConfigError, Env, LogFormat, ProcessEnv, Shards};

use crate::service::{Reply, Service, User, Worker};

/// The error type of commands and handlers.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// A command's context.
pub type Ctx<'a> = poise::Context<'a, Data, Error>;

/// What every handler shares.
pub struct Data {
    pub(crate) service: Arc<Service>,
    pub(crate) gate: Arc<guard::Gate>,
    pub(crate) limiter: guard::RateLimiter,
    /// The move picker's clicks (opening it, its steps, its Play), counted apart from the
    /// commands: a player pointing at a move clicks five times where a typed move is one
    /// command, and must never be told to slow down for it.
    pub(crate) picks: guard::RateLimiter,
    pub(crate) outbox: Arc<outbox::Outbox>,
    pub(crate) prefix: String,
    /// The computer's worker: games where it is to move.
    pub(crate) computer: Arc<crate::service::Worker>,
}

/// Why the bot stopped or could not start.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A problem with the configuration or the database: the operator's to fix (exit status 2).
    #[error("{0}")]
    Setup(String),
    /// Discord refused us or the connection failed for good (exit status 1).
    #[error("{0}")]
    Discord(String),
}

/// How long a shutdown waits for the commands in flight.
const DRAIN: Duration = Duration::from_secs(30);

/// How long the bot keeps trying to reach Discord, and to register its slash commands, before
/// it gives up with exit status 1 (a service manager then restarts it, and says so).
const PATIENCE: Duration = Duration::from_secs(600);
/// The first pause between two tries; each next one is twice as long, up to [`LONGEST_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_secs(1);
const LONGEST_PAUSE: Duration = Duration::from_secs(60);

/// The test switch `TEGAMI_FAULT_PATIENCE_SECS=N` of `tegami run`: [`PATIENCE`] becomes N
/// seconds, so that a test sees the bot give up.
pub const FAULT_PATIENCE: &str = "TEGAMI_FAULT_PATIENCE_SECS";

fn patience() -> Duration {
    std::env::var(FAULT_PATIENCE)
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .map_or(PATIENCE, Duration::from_secs)
}

/// Runs the bot until SIGINT or SIGTERM (then finishes the commands in flight and returns).
pub async fn run(config: BotConfig, service: Arc<Service>) -> Result<(), RunError> {
    // The operator's endpoint first: a taken address stops the bot before it connects.
    let metrics = match config.metrics_addr {
        Some(addr) => {
            let listener = ops::bind(addr).await.map_err(RunError::Setup)?;
            let handle = ops::install_recorder().map_err(RunError::Setup)?;
            Some((listener, handle))
        }
        None => None,
    };
    let health = Arc::new(ops::Health::new());
    let mut intents = serenity::GatewayIntents::non_privileged();
    if config.message_content {
        intents |= serenity::GatewayIntents::MESSAGE_CONTENT;
    }
    let mut http = serenity::HttpBuilder::new(&config.token);
    if config.api_base != config::DISCORD_API {
        // serenity's rate limiter builds its requests without the proxy: with it on, the proxy
        // would silently be ignored.
        http = http
            .proxy(config.api_base.clone())
            .ratelimiter_disabled(true);
        info!(api_base = %config.api_base, "REST calls go to a proxy");
    }
    let http = http.build();

    let gate = Arc::new(guard::Gate::new());
    let outbox = Arc::new(outbox::Outbox::new());
    // The computer's moves: thought on its own threads, announced from this runtime. Each move
    // holds a pass of the gate from before its search until its announcement is done, so a
    // stop waits for both; a game taken from the queue once the stop has begun is left for
    // after the restart (the next start resumes it).
    let (moves_tx, mut moves_rx) =
        tokio::sync::mpsc::unbounded_channel::<(Reply, guard::OwnedPass)>();
    let computer = Arc::new(Worker::start(Worker::threads(), {
        let (service, gate) = (service.clone(), gate.clone());
        Arc::new(move |game| {
            let Some(pass) = gate.enter_owned() else {
                info!(
                    game,
                    "stopping: the computer's move is left for after the restart"
                );
                return;
            };
            // The move's notices are held for the announcer (the core holds them from before
            // the move's transaction), so the delivery loop never races it, and nothing here
            // waits for, or holds up, a command.
            match service.computer_move(game) {
                Ok(Some(r)) => {
                    if moves_tx.send((r, pass)).is_err() {
                        warn!(
                            game,
                            "stopping: the computer's move is stored, not announced"
                        );
                    }
                }
                Ok(None) => {}
                Err(e) => error!(game, "the computer could not move: {e}"),
            }
        })
    }));
    // A failure the bot cannot get past (its commands never registered): it stops.
    let (fatal_tx, mut fatal_rx) = tokio::sync::mpsc::unbounded_channel::<RunError>();
    let patience = patience();
    let per_10s = config.commands_per_10s;
    let new_data = {
        let (service, gate, outbox, prefix, computer) = (
            service.clone(),
            gate.clone(),
            outbox.clone(),
            config.prefix.clone(),
            computer.clone(),
        );
        move || Data {
            service: service.clone(),
            gate: gate.clone(),
            limiter: guard::RateLimiter::new(per_10s, Duration::from_secs(10)),
            picks: guard::RateLimiter::new(per_10s * 5, Duration::from_secs(10)),
            outbox: outbox.clone(),
            prefix: prefix.clone(),
            computer: computer.clone(),
        }
    };
    let data = new_data();
    let data_computer = computer.clone();
    let dev_guild = config.dev_guild;
    let setup_health = health.clone();
    let options = poise::FrameworkOptions {
        commands: commands::all(),
        prefix_options: poise::PrefixFrameworkOptions {
            prefix: Some(config.prefix.clone().into()),
            mention_as_prefix: true,
            ..Default::default()
        },
        on_error: |e| Box::pin(respond::on_error(e)),
        event_handler: |ctx, event| Box::pin(events::handle(ctx, event)),
        // Nobody is pinged unless a message names them; each message sets its own list.
        allowed_mentions: Some(
            serenity::CreateAllowedMentions::new()
                .empty_users()
                .empty_roles(),
        ),
        initialize_owners: false,
        ..Default::default()
    };
    let sweep_every = Duration::from_secs(config.sweep_interval_secs);
    let framework = poise::Framework::builder()
        .options(options)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected to Discord");
                // Challenging the bot itself is playing the computer; moves a stop interrupted
                // are taken up again.
                let me = User::new(ready.user.id.to_string(), ready.user.name.clone());
                let s = data.service.clone();
                let due = tokio::task::spawn_blocking(move || {
                    s.set_computer(me);
                    s.computer_games_due()
                })
                .await;
                match due {
                    Ok(Ok(games)) => {
                        if !games.is_empty() {
                            info!(count = games.len(), "the computer resumes its moves");
                        }
                        for g in games {
                            data.computer.queue(g);
                        }
                    }
                    Ok(Err(e)) => error!("cannot read the computer's games: {e}"),
                    Err(e) => error!("cannot read the computer's games: {e}"),
                }
                // Registered in the background, tried again until Discord takes them: meanwhile
                // prefix commands and bare moves are answered, and `/healthz` says why the bot
                // is not ready.
                let commands =
                    poise::builtins::create_application_commands(&framework.options().commands);
                tokio::spawn(register_commands(
                    ctx.http.clone(),
                    commands,
                    dev_guild,
                    setup_health,
                    patience,
                    fatal_tx,
                ));
                Ok(data)
            })
        })
        .build();

    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .event_handler(ops::ShardWatch(health.clone()))
        .await
        .map_err(|e| RunError::Discord(format!("cannot build the Discord client: {e}")))?;
    health.watch(client.shard_manager.clone());
    // `/metrics` and `/healthz`, and the gauges read from the database.
    let operated = metrics.map(|(listener, handle)| {
        let ops = Arc::new(ops::Ops::new(health.clone(), handle, service.clone()));
        let every = ops::GAUGES_EVERY.min(sweep_every);
        (
            tokio::spawn(ops::serve(listener, ops)),
            tokio::spawn(ops::refresh_gauges(service.clone(), every)),
        )
    });

    // Discord's REST API is asked for the gateway's address before anything else: a bot with
    // no network, or whose DNS fails, says so in a line of its own and tries again, pausing
    // longer each time (serenity alone would warn every five seconds about a shard it cannot
    // start). It also keeps serenity from falling back to Discord's own gateway when another
    // REST base (a proxy, a test's fake) does not answer: that would reach the real Discord
    // with our token.
    let reached = tokio::select! {
        r = reach_discord(&client.http, &config.api_base, patience) => Some(r),
        _ = wait_for_signal() => None,
    };
    match reached {
        Some(Ok(url)) => *client.ws_url.lock().await = url,
        Some(Err(e)) => {
            abort_operated(operated);
            return Err(e);
        }
        None => {
            info!("stopped before reaching Discord");
            abort_operated(operated);
            return Ok(());
        }
    }

    // The computer's moves, announced as they come; each move's pass is let go once it is.
    let announcer = tokio::spawn({
        let http = client.http.clone();
        let data = new_data();
        async move {
            while let Some((reply, pass)) = moves_rx.recv().await {
                respond::announce_computer_move(&http, &data, reply).await;
                drop(pass);
            }
        }
    });

    // Background work: notices waiting in the outbox, and the correspondence sweep.
    let http = client.http.clone();
    let mut background = tokio::spawn(outbox::run_loops(
        http,
        service.clone(),
        outbox,
        gate.clone(),
        data_computer,
        sweep_every,
    ));

    let shards = client.shard_manager.clone();
    let mut stopper = tokio::spawn({
        let (gate, health) = (gate.clone(), health.clone());
        async move {
            wait_for_signal().await;
            info!("stopping: no new commands; finishing the ones in flight");
            health.set_stopping();
            gate.close();
            if !gate.drained(DRAIN).await {
                warn!("some commands were still running after {DRAIN:?}; stopping anyway");
            }
            shards.shutdown_all().await;
        }
    });

    // serenity's `shutdown_all` does nothing while no shard runs (the gateway unreachable, a
    // reconnection under way): once the stopper is done, `client.start()` is given a moment
    // to return, then stopped here.
    let shard_range = config.shards;
    let all_shards = client.shard_manager.clone();
    let result = tokio::select! {
        r = async {
            match shard_range {
                None => client.start().await,
                Some(s) => {
                    info!(first = s.first, last = s.last, total = s.total, "running a range of shards");
                    // serenity's range is read with its end included (`4..7` starts 4 to 7).
                    client.start_shard_range(s.first..s.last, s.total).await
                }
            }
        } => r.map_err(Ended::Connection),
        _ = async {
            let _ = (&mut stopper).await;
            tokio::time::sleep(Duration::from_secs(5)).await;
        } => Ok(()),
        Some(e) = fatal_rx.recv() => {
            // As a stop: the commands in flight finish, then the shards are let go.
            health.set_stopping();
            gate.close();
            gate.drained(DRAIN).await;
            all_shards.shutdown_all().await;
            Err(Ended::GaveUp(e))
        }
    };
    stopper.abort();
    abort_operated(operated);
    gate.close();
    gate.drained(DRAIN).await;
    // Every computer move in flight was announced (or the drain ran out): the announcer waits
    // on nothing more.
    announcer.abort();
    // The delivery loop stops at its next tick once the gate is closed: a delivery under way
    // is finished and marked sent rather than cut between the two.
    if tokio::time::timeout(DRAIN, &mut background).await.is_err() {
        background.abort();
    }
    // What this process still holds is let go, for another process to deliver at once.
    let s = service.clone();
    match tokio::task::spawn_blocking(move || s.release_claims()).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => warn!(
            "cannot let go of undelivered notices (another process takes them after a minute): {e}"
        ),
        Err(e) => warn!("cannot let go of undelivered notices: {e}"),
    }
    match result {
        Ok(()) => {
            info!("stopped");
            Ok(())
        }
        Err(Ended::GaveUp(e)) => {
            error!("stopped: {e}");
            Err(e)
        }
        Err(Ended::Connection(e)) if unauthorized(&e) => {
            error!("{TOKEN_REFUSED}");
            Err(RunError::Setup(TOKEN_REFUSED.into()))
        }
        Err(Ended::Connection(e)) => {
            error!("the Discord connection failed: {e}");
            Err(RunError::Discord(format!(
                "the Discord connection failed: {e}"
            )))
        }
    }
}

/// Why `client.start()` was left.
enum Ended {
    /// serenity's connection ended with an error.
    Connection(serenity::Error),
    /// The bot gave up on something it needs (see [`register_commands`]).
    GaveUp(RunError),
}

/// Stops the `/metrics` server and the gauges' timer, if they run.
fn abort_operated(operated: Option<(tokio::task::JoinHandle<()>, tokio::task::JoinHandle<()>)>) {
    if let Some((server, gauges)) = operated {
        server.abort();
        gauges.abort();
    }
}

/// The gateway's address, from Discord's REST API (`GET /gateway`), asked until it answers:
/// each failure is one line of ours (what could not be reached, and why: no route, a name
/// that does not resolve, a refused connection), then a pause twice as long as the last, up to
/// [`LONGEST_PAUSE`]; after `patience` the bot gives up. A refused token stops it at once.
async fn reach_discord(
    http: &serenity::Http,
    api_base: &str,
    patience: Duration,
) -> Result<String, RunError> {
    let started = tokio::time::Instant::now();
    let mut pause = FIRST_PAUSE;
    let mut tries = 0u32;
    loop {
        tries += 1;
        let e = match http.get_gateway().await {
            Ok(g) => {
                if tries > 1 {
                    info!(tries, "Discord answers");
                }
                return Ok(g.url);
            }
            Err(e) if unauthorized(&e) => return Err(RunError::Setup(TOKEN_REFUSED.into())),
            Err(e) => e,
        };
        let why = format!("cannot reach Discord at {api_base}: {}", reason(&e));
        if started.elapsed() + pause > patience {
            return Err(RunError::Discord(format!(
                "{why}; gave up after {tries} tries in {}s",
                started.elapsed().as_secs()
            )));
        }
        warn!(
            "{why}; trying again in {}s (is the network up, does DNS resolve?)",
            pause.as_secs()
        );
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(LONGEST_PAUSE);
    }
}

/// Registers the slash commands (in `guild` only, else globally), trying again as
/// [`reach_discord`] does while Discord fails (a 5xx, the network): until it takes them,
/// `/healthz` says why the bot is not ready and each failure is logged. A refusal that
/// trying again cannot change (a 4xx other than 429: Discord will not take this list), or
/// `patience` spent, stops the bot through `fatal` (exit status 1).
async fn register_commands(
    http: Arc<serenity::Http>,
    commands: Vec<serenity::CreateCommand>,
    guild: Option<u64>,
    health: Arc<ops::Health>,
    patience: Duration,
    fatal: tokio::sync::mpsc::UnboundedSender<RunError>,
) {
    let started = tokio::time::Instant::now();
    let mut pause = FIRST_PAUSE;
    let mut tries = 0u32;
    loop {
        tries += 1;
        let done = match guild {
            Some(g) => serenity::GuildId::new(g)
                .set_commands(&*http, commands.clone())
                .await
                .map(drop),
            None => serenity::Command::set_global_commands(&*http, commands.clone())
                .await
                .map(drop),
        };
        let e = match done {
            Ok(()) => {
                health.set_commands(None);
                info!(count = commands.len(), tries, "slash commands registered");
                return;
            }
            Err(e) => e,
        };
        let why = format!(
            "the slash commands are not registered (Discord answers no slash command meanwhile): {}",
            reason(&e)
        );
        health.set_commands(Some(why.clone()));
        let for_good = status_of(&e).is_some_and(|s| (400..500).contains(&s) && s != 429);
        if for_good || started.elapsed() + pause > patience {
            let _ = fatal.send(RunError::Discord(format!(
                "{why}; gave up after {tries} tries in {}s",
                started.elapsed().as_secs()
            )));
            return;
        }
        warn!("{why}; trying again in {}s", pause.as_secs());
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(LONGEST_PAUSE);
    }
}

/// The HTTP status Discord answered a REST call with, if it answered.
fn status_of(e: &serenity::Error) -> Option<u16> {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            Some(r.status_code.as_u16())
        }
        _ => None,
    }
}

/// Why a REST call failed, in a few words: Discord's status and message when it answered,
/// else the innermost cause (`Connection refused`, `failed to lookup address information`),
/// not the chain of wrappers around it.
fn reason(e: &serenity::Error) -> String {
    if let serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) = e {
        return format!(
            "{} {} (code {})",
            r.status_code.as_u16(),
            r.error.message,
            r.error.code
        );
    }
    let mut inner: &dyn std::error::Error = e;
    while let Some(next) = inner.source() {
        inner = next;
    }
    inner.to_string()
}

/// What a wrong token gets: said plainly, not as the call that failed.
const TOKEN_REFUSED: &str = "Discord refused the token (401): check DISCORD_TOKEN";

/// Whether Discord refused the token: a 401 on a REST call, or the gateway closing with
/// "authentication failed" (4004).
fn unauthorized(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            r.status_code.as_u16() == 401
        }
        serenity::Error::Gateway(serenity::GatewayError::InvalidAuthentication) => true,
        _ => false,
    }
}

/// SIGINT (Ctrl-C) or SIGTERM.
async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(e) => {
                warn!("cannot listen for SIGTERM: {e}");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
