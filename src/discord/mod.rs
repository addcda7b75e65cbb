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
    // The computer's moves: thought on its own threads, announced from this runtime.
    let (moves_tx, mut moves_rx) = tokio::sync::mpsc::unbounded_channel::<Reply>();
    let computer = Arc::new(Worker::start(Worker::threads(), {
        let service = service.clone();
        Arc::new(move |game| {
            // The move's notices are held for the announcer (the core holds them from before
            // the move's transaction), so the delivery loop never races it, and nothing here
            // waits for, or holds up, a command.
            match service.computer_move(game) {
                Ok(Some(r)) => {
                    if moves_tx.send(r).is_err() {
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
            limiter: guard::RateLimiter::new(8, Duration::from_secs(10)),
            outbox: outbox.clone(),
            prefix: prefix.clone(),
            computer: computer.clone(),
        }
    };
    let data = new_data();
    let data_computer = computer.clone();
    let dev_guild = config.dev_guild;
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
                let commands = &framework.options().commands;
                match dev_guild {
                    Some(g) => {
                        poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(g))
                            .await?
                    }
                    None => poise::builtins::register_globally(ctx, commands).await?,
                }
                info!(count = commands.len(), "slash commands registered");
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

    // serenity falls back to Discord's own gateway when `GET /gateway` fails: behind another
    // REST base (a proxy, a test's fake) that would reach the real Discord with our token.
    // Ask once more, and give up rather than go elsewhere.
    if config.api_base != config::DISCORD_API {
        let fell_back = client.ws_url.lock().await.contains("gateway.discord.gg");
        if fell_back {
            match client.http.get_gateway().await {
                Ok(g) => *client.ws_url.lock().await = g.url,
                Err(e) if unauthorized(&e) => return Err(RunError::Setup(TOKEN_REFUSED.into())),
                Err(e) => {
                    return Err(RunError::Discord(format!(
                        "cannot get the gateway address from {}: {e}",
                        config.api_base
                    )))
                }
            }
        }
    }

    // The computer's moves, announced as they come.
    let announcer = tokio::spawn({
        let http = client.http.clone();
        let data = new_data();
        async move {
            while let Some(reply) = moves_rx.recv().await {
                respond::announce_computer_move(&http, &data, reply).await;
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
        let gate = gate.clone();
        async move {
            wait_for_signal().await;
            info!("stopping: no new commands; finishing the ones in flight");
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
        } => r,
        _ = async {
            let _ = (&mut stopper).await;
            tokio::time::sleep(Duration::from_secs(5)).await;
        } => Ok(()),
    };
    stopper.abort();
    announcer.abort();
    if let Some((server, gauges)) = operated {
        server.abort();
        gauges.abort();
    }
    gate.close();
    gate.drained(DRAIN).await;
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
        Err(e) if unauthorized(&e) => {
            error!("{TOKEN_REFUSED}");
            Err(RunError::Setup(TOKEN_REFUSED.into()))
        }
        Err(e) => {
            error!("the Discord connection failed: {e}");
            Err(RunError::Discord(format!(
                "the Discord connection failed: {e}"
            )))
        }
    }
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
