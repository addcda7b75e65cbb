//! Delivery of the core's notices, and the correspondence sweep.
//!
//! Every notice the core decides is in the outbox table, written in the same transaction as what
//! it announces (a move's public announcement too: a `post`), and is marked sent only after
//! Discord accepted it. A command's own notices are delivered right away by the command (folded
//! into its announcement when they mention someone there); whatever is left (a failed send, a
//! crash, the sweep's notices) is delivered by the loop here, with exponential backoff per
//! notice.
//!
//! No lock is shared between commands and the loop: the core *holds* each notice for the
//! command that made it from before its transaction until the command delivered it or let it
//! go, and the loop skips held notices (`service::delivery`). So a slow command (an analysis,
//! the computer thinking) never holds up another command or the loop.
//!
//! Where each message goes, and what a refusal of Discord's means (by its error code), is
//! `placement`'s to decide; this module decides which notices go when.
//!
//! **Nothing is dropped silently.** Where a notice's place is gone (404, Unknown Channel) or
//! closed to the bot (Missing Access, or a permission missing), it falls back: a mention to the recipient's direct messages, then
//! to the server's games channel (`server channel`); a direct message refused to a mention in
//! the game's home, then the server's channel; a move's announcement to the game's channel,
//! then the server's channel (and the game moves there, with a new thread where allowed). Only
//! when every way is closed is a notice set aside: logged with the reason, and shown to its
//! player by `games`. A failure that may pass (a 5xx, a rate limit, the network) is tried
//! again later.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serenity::{ChannelId, Http, UserId};
use tracing::{debug, info, warn};

use super::guard::Gate;
use super::placement::{
    self, attachment, channel_of, clip, failure, report_server_channel, server_channel, user_id,
    Failure, Memory, Outgoing,
};
pub(crate) use super::placement::{home_of, lock};
use crate::i18n::Lang;
use crate::service::{Notice, Service, Via, Worker};

/// Per-notice retries of this process, and what it remembers of places (`placement`).
pub struct Outbox {
    retry: Mutex<HashMap<i64, (u32, Instant)>>,
    /// Channels where threads cannot be used, servers told of their games channel.
    pub(crate) places: Memory,
}

impl Outbox {
    pub fn new() -> Outbox {
        Outbox {
            retry: Mutex::new(HashMap::new()),
            places: Memory::new(),
        }
    }

    /// Notes a failed delivery: the next try waits 2, 4, 8 ... seconds, at most ten minutes.
    fn failed(&self, id: i64) {
        let mut r = lock(&self.retry);
        let tries = r.get(&id).map_or(0, |(n, _)| *n) + 1;
        let wait =
            Duration::from_secs(2u64.saturating_pow(tries.min(10))).min(Duration::from_secs(600));
        r.insert(id, (tries, Instant::now() + wait));
    }

    fn due(&self, id: i64) -> bool {
        lock(&self.retry)
            .get(&id)
            .is_none_or(|(_, at)| *at <= Instant::now())
    }

    fn delivered(&self, id: i64) {
        lock(&self.retry).remove(&id);
    }
}

/// The outcome of one notice's delivery.
#[derive(Debug)]
enum Delivery {
    Delivered,
    /// Try again later.
    Later(String),
    /// No way is open: set aside, with the reason.
    Aside(String),
}

/// The language of a server's public posts (off the runtime).
async fn public_lang(service: &Arc<Service>, guild: Option<&str>) -> Lang {
    let (s, guild) = (service.clone(), guild.map(str::to_string));
    tokio::task::spawn_blocking(move || s.public_voice(guild.as_deref()).lang)
        .await
        .unwrap_or_default()
}

/// Sends one notice, falling back as the module header says.
async fn deliver(
    http: &Http,
    service: &Arc<Service>,
    outbox: &Outbox,
    n: &Notice,
    ping: &[UserId],
) -> Delivery {
    let home = match n.game {
        Some(game) => home_of(service, game).await,
        None => None,
    };
    // Names in the text are the core's, their markdown escaped there.
    let text = n.text.clone();
    let guild = home.as_ref().and_then(|h| h.guild.clone());
    // The game's thread or channel, else the notice's own channel; a league's notice (a
    // round's game begins) in the league's home first.
    let game_home = home
        .as_ref()
        .and_then(|h| channel_of(h.thread.as_deref()).or(channel_of(h.channel.as_deref())));
    let here = match n.league {
        Some(_) => channel_of(n.channel.as_deref()).or(game_home),
        None => game_home.or_else(|| channel_of(n.channel.as_deref())),
    };
    if let (Via::Post, None, Some(league)) = (n.via, n.game, n.league) {
        return deliver_league_post(http, service, outbox, n, league, &text).await;
    }
    if n.via == Via::Post {
        return deliver_post(http, service, outbox, n, home, &text, ping).await;
    }
    let fallback = server_channel(service, guild.as_deref())
        .await
        .filter(|c| Some(*c) != here);
    let Some(user) = user_id(&n.user) else {
        // Not a Discord user (a console name in a shared database): nobody to tell here.
        warn!(user = %n.user, "notice for a user who is not on Discord; dropped");
        return Delivery::Delivered;
    };
    let mention = |channel: ChannelId| {
        let out = Outgoing {
            ping: vec![user],
            ..Outgoing::text(&format!("<@{user}> {text}"))
        };
        async move {
            placement::post_in(http, channel, None, &out, Lang::En)
                .await
                .map(|_| ())
        }
    };
    // The ways, in order: each a place and whether it is the game's home.
    let mut why = Vec::new();
    let order: Vec<Way> = match n.via {
        Via::Dm => [
            Some(Way::Dm),
            here.map(Way::Home),
            fallback.map(Way::Server),
        ]
        .into_iter()
        .flatten()
        .collect(),
        _ => match here {
            Some(h) => [Some(Way::Home(h)), Some(Way::Dm), fallback.map(Way::Server)]
                .into_iter()
                .flatten()
                .collect(),
            None => [Some(Way::Dm), fallback.map(Way::Server)]
                .into_iter()
                .flatten()
                .collect(),
        },
    };
    for way in order {
        let sent = match way {
            Way::Dm => direct(http, user, &text).await,
            Way::Home(c) | Way::Server(c) => mention(c).await,
        };
        match sent {
            Ok(()) => {
                if !why.is_empty() {
                    info!(notice = ?n.id, user = %user, ?way, "notice delivered another way: {}", why.join("; "));
                }
                return Delivery::Delivered;
            }
            Err(e) => match failure(&e) {
                Failure::Passing => return Delivery::Later(e.to_string()),
                f => {
                    debug!(notice = ?n.id, ?way, ?f, "cannot deliver this way: {e}");
                    why.push(format!("{way:?}: {e}"));
                    match (way, &home) {
                        (Way::Home(c), Some(h)) => {
                            placement::lost_home(http, service, &outbox.places, h, c, f, &e).await
                        }
                        (Way::Server(c), _) => {
                            report_server_channel(
                                http,
                                service,
                                &outbox.places,
                                guild.as_deref(),
                                c,
                                &e,
                            )
                            .await
                        }
                        _ => {}
                    }
                }
            },
        }
    }
    if why.is_empty() {
        why.push("no channel and no direct message possible".into());
    }
    Delivery::Aside(why.join("; "))
}

/// A way to reach someone.
#[derive(Clone, Copy, Debug)]
enum Way {
    /// The game's thread or channel (or the notice's channel).
    Home(ChannelId),
    Dm,
    /// The server's games channel.
    Server(ChannelId),
}

/// Posts a move's announcement late (its board drawn again), where `placement` says (the
/// game's thread, else its channel, else the server's games channel); the game moves to
/// wherever it landed, with a new thread where allowed.
async fn deliver_post(
    http: &Http,
    service: &Arc<Service>,
    outbox: &Outbox,
    n: &Notice,
    home: Option<crate::service::GameHome>,
    text: &str,
    ping: &[UserId],
) -> Delivery {
    let (Some(game), Some(home)) = (n.game, home) else {
        return Delivery::Aside("the game is unknown".into());
    };
    let board = {
        let (s, viewer, ply) = (service.clone(), n.user.clone(), n.ply.unwrap_or(home.ply));
        tokio::task::spawn_blocking(move || s.board_at(game, ply, &viewer))
            .await
            .ok()
            .and_then(|r| {
                r.map_err(|e| warn!(game, "cannot draw the board: {e}"))
                    .ok()
            })
            .flatten()
    };
    let ping_line: Vec<String> = ping.iter().map(|u| format!("<@{u}>")).collect();
    let content = if ping_line.is_empty() {
        text.to_string()
    } else {
        format!("{text}\n{}", ping_line.join(" "))
    };
    let lang = public_lang(service, home.guild.as_deref()).await;
    // The board of a game still at this move carries its buttons (Move first), as the
    // announcement posted at once does.
    let live = home.active && n.ply.is_none_or(|p| p == home.ply);
    let out = Outgoing {
        content: clip(&content),
        files: board.into_iter().map(attachment).collect(),
        rows: if live {
            super::respond::game_rows(game, home.ply, lang)
        } else {
            Vec::new()
        },
        ping: ping.to_vec(),
    };
    let placed = placement::announce_game(
        http,
        service,
        &outbox.places,
        &home,
        None,
        &out,
        home.active,
        lang,
    )
    .await;
    if placed.landed.is_some() {
        return Delivery::Delivered;
    }
    if let Some(r) = placed.failed().filter(|r| r.failure == Failure::Passing) {
        return Delivery::Later(r.error.clone());
    }
    let mut why: Vec<String> = placed
        .refused
        .iter()
        .map(|r| format!("<#{}>: {}", r.place, r.error))
        .collect();
    if why.is_empty() {
        why.push("the game has no channel".into());
    }
    Delivery::Aside(why.join("; "))
}

/// Posts a league's announcement (a round, a result, the end) with its standings pictures:
/// where it was addressed, else the league's thread, its channel, the server's games channel.
/// A thread found gone is forgotten (the league posts in its channel, and makes a new thread
/// from the first post that lands there).
async fn deliver_league_post(
    http: &Http,
    service: &Arc<Service>,
    outbox: &Outbox,
    n: &Notice,
    league: i64,
    text: &str,
) -> Delivery {
    let s = service.clone();
    let row = match tokio::task::spawn_blocking(move || s.league_home(league)).await {
        Ok(Ok(Some(l))) => l,
        Ok(Ok(None)) => return Delivery::Aside(format!("league {league} is unknown")),
        Ok(Err(e)) => return Delivery::Later(format!("cannot read league {league}: {e}")),
        Err(e) => return Delivery::Later(format!("cannot read league {league}: {e}")),
    };
    let thread = channel_of(row.thread.as_deref());
    let channel = channel_of(row.channel.as_deref());
    let guild = row.guild.clone();
    let fallback = server_channel(service, Some(&guild)).await;
    let mut places: Vec<ChannelId> = Vec::new();
    for c in [channel_of(n.channel.as_deref()), thread, channel, fallback]
        .into_iter()
        .flatten()
    {
        if !places.contains(&c) {
            places.push(c);
        }
    }
    let files = {
        let s = service.clone();
        tokio::task::spawn_blocking(move || {
            let lang = s.public_voice(Some(&row.guild)).lang;
            s.league_pictures(league, lang)
        })
        .await
        .ok()
        .and_then(|r| {
            r.map_err(|e| warn!(league, "cannot draw the league's pictures: {e}"))
                .ok()
        })
        .unwrap_or_default()
    };
    let out = Outgoing {
        content: clip(text),
        files: files.into_iter().map(attachment).collect(),
        rows: Vec::new(),
        ping: Vec::new(),
    };
    let lang = public_lang(service, Some(&guild)).await;
    let mut why = Vec::new();
    for place in places {
        match placement::post_in(http, place, None, &out, lang).await {
            Ok(msg) => {
                // Landed outside a thread while the league has none: its thread, from here.
                if Some(place) != thread && Some(place) == channel {
                    let s = service.clone();
                    let live = tokio::task::spawn_blocking(move || s.league_home(league))
                        .await
                        .ok()
                        .and_then(|r| r.ok().flatten())
                        .is_some_and(|l| l.thread.is_none() && l.status.is_live());
                    if live {
                        placement::start_league_thread(http, service, &outbox.places, league, &msg)
                            .await;
                    }
                }
                return Delivery::Delivered;
            }
            Err(e) => match failure(&e) {
                Failure::Passing => return Delivery::Later(e.to_string()),
                f => {
                    why.push(format!("<#{place}>: {e}"));
                    if Some(place) == thread && f.closed() {
                        warn!(league, thread = %place, ?f, "the league's thread is gone or closed to the bot");
                        // Its posts refused (Send Messages in Threads): no new thread per post.
                        if let (Failure::MissingPermission, Some(c)) = (f, channel) {
                            outbox.places.threads_refused(c);
                        }
                        let s = service.clone();
                        let _ =
                            tokio::task::spawn_blocking(move || s.set_league_thread(league, None))
                                .await;
                    }
                    if Some(place) == fallback {
                        report_server_channel(
                            http,
                            service,
                            &outbox.places,
                            Some(&guild),
                            place,
                            &e,
                        )
                        .await;
                    }
                }
            },
        }
    }
    if why.is_empty() {
        why.push("the league has no channel".into());
    }
    Delivery::Aside(why.join("; "))
}

/// A direct message.
async fn direct(http: &Http, user: UserId, text: &str) -> Result<(), serenity::Error> {
    let dm = user.create_dm_channel(http).await?;
    placement::post_in(http, dm.id, None, &Outgoing::text(text), Lang::En)
        .await
        .map(|_| ())
}

/// Delivers notices now (a command's own, not folded into its announcement; or the loop's),
/// marking each sent once Discord accepted it, setting aside what no way can deliver; a
/// failure that may pass is left to the loop. `pings` are the users each `post` mentions.
pub async fn deliver_now(
    http: Arc<Http>,
    service: Arc<Service>,
    outbox: Arc<Outbox>,
    notices: Vec<Notice>,
) {
    // A post mentions the players its move told: the mentions of its game made just before it
    // (ids grow in the order notices are made, and a move's notices come before its post), so
    // each mention goes with the first post of its game after it, if that post is in the batch.
    let mut folded: HashMap<i64, Vec<&Notice>> = HashMap::new();
    for m in notices
        .iter()
        .filter(|m| m.via == Via::Mention && m.game.is_some() && user_id(&m.user).is_some())
    {
        let Some(mid) = m.id else { continue };
        let post = notices
            .iter()
            .filter(|p| p.via == Via::Post && p.game == m.game)
            .filter_map(|p| p.id)
            .filter(|&pid| pid > mid)
            .min();
        if let Some(pid) = post {
            folded.entry(pid).or_default().push(m);
        }
    }
    let is_folded = |id: i64| folded.values().flatten().any(|m| m.id == Some(id));
    // The mentions folded into a post are delivered with it, or on their own if it fails.
    let mut unfolded: Vec<Notice> = Vec::new();
    for n in &notices {
        let Some(id) = n.id else { continue };
        if is_folded(id) {
            continue;
        }
        let theirs = folded.get(&id).cloned().unwrap_or_default();
        let ping: Vec<UserId> = theirs.iter().filter_map(|m| user_id(&m.user)).collect();
        let outcome = deliver(&http, &service, &outbox, n, &ping).await;
        let posted = matches!(outcome, Delivery::Delivered);
        settle(&service, &outbox, n, outcome).await;
        if posted {
            let ids: Vec<i64> = theirs.iter().filter_map(|m| m.id).collect();
            mark_sent(&service, &outbox, ids).await;
        } else {
            unfolded.extend(theirs.into_iter().cloned());
        }
    }
    for n in unfolded {
        let outcome = deliver(&http, &service, &outbox, &n, &[]).await;
        settle(&service, &outbox, &n, outcome).await;
    }
}

/// Records how a delivery went: sent, set aside, or left for later (and let go).
async fn settle(service: &Arc<Service>, outbox: &Arc<Outbox>, n: &Notice, outcome: Delivery) {
    let Some(id) = n.id else { return };
    match outcome {
        Delivery::Delivered => mark_sent(service, outbox, vec![id]).await,
        Delivery::Aside(reason) => {
            let (s, user) = (service.clone(), n.user.clone());
            match tokio::task::spawn_blocking(move || s.set_aside(id, &user, &reason)).await {
                Ok(Ok(())) => outbox.delivered(id),
                Ok(Err(e)) => warn!(notice = id, "cannot set the notice aside: {e}"),
                Err(e) => warn!(notice = id, "cannot set the notice aside: {e}"),
            }
        }
        Delivery::Later(e) => {
            metrics::counter!("tegami_notices_retrying_total").increment(1);
            warn!(notice = id, "delivery failed, will retry: {e}");
            outbox.failed(id);
            service.release_notices(&[id]);
        }
    }
}

/// Marks notices sent (off the runtime), lets go of them and forgets their retries.
pub async fn mark_sent(service: &Arc<Service>, outbox: &Arc<Outbox>, ids: Vec<i64>) {
    if ids.is_empty() {
        return;
    }
    let s = service.clone();
    let done = ids.clone();
    match tokio::task::spawn_blocking(move || s.mark_sent(&done)).await {
        Ok(Ok(())) => {
            metrics::counter!("tegami_notices_sent_total").increment(ids.len() as u64);
            for id in ids {
                outbox.delivered(id);
            }
        }
        Ok(Err(e)) => {
            warn!("cannot mark notices sent (they may be sent again): {e}");
            service.release_notices(&ids);
        }
        Err(e) => {
            warn!("cannot mark notices sent: {e}");
            service.release_notices(&ids);
        }
    }
}

/// How often the outbox is looked at.
const OUTBOX_EVERY: Duration = Duration::from_secs(2);

/// How often the store's hold on this process's notices is renewed (a third of the lease).
const RENEW_EVERY: Duration = Duration::from_secs(20);

/// Stops a background task when dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The outbox loop and the sweep loop, until the gate closes.
pub async fn run_loops(
    http: Arc<Http>,
    service: Arc<Service>,
    outbox: Arc<Outbox>,
    gate: Arc<Gate>,
    computer: Arc<Worker>,
    sweep_every: Duration,
) {
    // The store's hold on this process's notices is renewed on its own clock, even while a
    // slow batch (rate limits) keeps the loop below busy: no other process takes a notice this
    // one is still delivering.
    let renewer = tokio::spawn({
        let (service, gate) = (service.clone(), gate.clone());
        async move {
            let mut tick = tokio::time::interval(RENEW_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            while !gate.is_closed() {
                tick.tick().await;
                let s = service.clone();
                match tokio::task::spawn_blocking(move || s.renew_claims()).await {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => warn!("cannot renew the hold on undelivered notices: {e}"),
                    Err(e) => warn!("cannot renew the hold on undelivered notices: {e}"),
                }
            }
        }
    });
    let _stop_renewing = AbortOnDrop(renewer);
    let mut outbox_tick = tokio::time::interval(OUTBOX_EVERY);
    let mut sweep_tick = tokio::time::interval(sweep_every);
    outbox_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    sweep_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let ended = tokio::select! {
            _ = outbox_tick.tick() => Vec::new(),
            _ = sweep_tick.tick() => {
                let ended = sweep(&service).await;
                requeue_computer(&service, &computer).await;
                // Followers not yet added to their game's thread (a Discord failure before).
                placement::join_threads(&http, &service, None).await;
                ended
            }
        };
        if gate.is_closed() {
            return;
        }
        flush(&http, &service, &outbox).await;
        // Games lost on time: their threads are closed once the players were told there (a
        // message in an archived thread would reopen it).
        for game in ended {
            placement::archive_thread(&http, &service, game).await;
        }
    }
}

/// Games where the computer is to move and that its worker does not have (its queue was
/// full, or a search failed three times): queued again.
async fn requeue_computer(service: &Arc<Service>, computer: &Arc<Worker>) {
    let s = service.clone();
    if let Ok(Ok(games)) = tokio::task::spawn_blocking(move || s.computer_games_due()).await {
        for g in games {
            computer.queue(g);
        }
    }
}

/// Runs the correspondence sweep; its notices are in the outbox for `flush`. Returns the games
/// it ended.
async fn sweep(service: &Arc<Service>) -> Vec<i64> {
    let s = service.clone();
    let now = s.now();
    let started = Instant::now();
    let swept = tokio::task::spawn_blocking(move || s.sweep(now)).await;
    metrics::histogram!("tegami_sweep_duration_seconds").record(started.elapsed().as_secs_f64());
    match swept {
        Ok(Ok(done)) => {
            for (action, count) in [
                ("timeout", done.timeouts.len()),
                ("reminder", done.reminders.len()),
                ("expired_challenge", done.expired.len()),
                ("digest", done.digests.len()),
            ] {
                metrics::counter!("tegami_sweep_actions_total", "action" => action)
                    .increment(count as u64);
            }
            if !(done.timeouts.is_empty() && done.reminders.is_empty() && done.expired.is_empty()) {
                info!(
                    timeouts = done.timeouts.len(),
                    reminders = done.reminders.len(),
                    expired = done.expired.len(),
                    digests = done.digests.len(),
                    "sweep"
                );
            }
            done.timeouts
        }
        Ok(Err(e)) => {
            warn!("the sweep failed (it will run again): {e}");
            Vec::new()
        }
        Err(e) => {
            warn!("the sweep failed (it will run again): {e}");
            Vec::new()
        }
    }
}

/// Delivers what is due in the outbox: what this process holds in the store and no command
/// holds in hand.
async fn flush(http: &Arc<Http>, service: &Arc<Service>, outbox: &Arc<Outbox>) {
    let s = service.clone();
    let due = match tokio::task::spawn_blocking(move || s.claim_unsent(200)).await {
        Ok(Ok(d)) => d,
        Ok(Err(e)) => {
            warn!("cannot read the outbox: {e}");
            return;
        }
        Err(e) => {
            warn!("cannot read the outbox: {e}");
            return;
        }
    };
    let due: Vec<Notice> = due
        .into_iter()
        .filter(|n| n.id.is_some_and(|id| outbox.due(id)))
        .collect();
    if !due.is_empty() {
        debug!(count = due.len(), "delivering notices");
    }
    deliver_now(http.clone(), service.clone(), outbox.clone(), due).await;
}
