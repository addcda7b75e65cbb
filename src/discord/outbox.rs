//! Delivery of the core's notices, and the correspondence sweep.
//!
//! Every notice the core decides is in the outbox table, written in the same transaction as what
//! it announces, and is marked sent only after Discord accepted it. A command's own notices are
//! delivered right away by the command (folded into its reply when they mention someone in the
//! same channel); whatever is left (a failed send, a crash, the sweep's notices) is delivered by
//! the loop here, with exponential backoff per notice. A notice is never delivered by the loop
//! while a command holds it ("claimed").

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serenity::Http;
use tracing::{debug, info, warn};

use super::guard::Gate;
use super::respond::{mention_only, user_id};
use crate::service::{Notice, Service, Via};

/// Shared state of the delivery.
pub struct Outbox {
    /// Commands hold it for reading while they run in the core and claim their notices; the
    /// loop holds it for writing while it reads the table, so it never sees a command's notice
    /// before the command has claimed it.
    pub(crate) commands: RwLock<()>,
    claimed: Mutex<HashSet<i64>>,
    retry: Mutex<HashMap<i64, (u32, Instant)>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

impl Outbox {
    pub fn new() -> Outbox {
        Outbox {
            commands: RwLock::new(()),
            claimed: Mutex::new(HashSet::new()),
            retry: Mutex::new(HashMap::new()),
        }
    }

    /// A command takes its notices: the loop leaves them alone until released.
    pub fn claim(&self, notices: &[Notice]) {
        lock(&self.claimed).extend(notices.iter().filter_map(|n| n.id));
    }

    pub fn release(&self, ids: &[i64]) {
        let mut c = lock(&self.claimed);
        for id in ids {
            c.remove(id);
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
        if lock(&self.claimed).contains(&id) {
            return false;
        }
        lock(&self.retry)
            .get(&id)
            .is_none_or(|(_, at)| *at <= Instant::now())
    }

    fn delivered(&self, id: i64) {
        lock(&self.retry).remove(&id);
    }
}

/// Whether Discord refused a call for good (a 4xx other than 429: no permission, unknown
/// channel, direct messages closed): sending it again would fail again.
fn refused_for_good(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            r.status_code.is_client_error() && r.status_code.as_u16() != 429
        }
        _ => false,
    }
}

/// Sends one notice: a mention in the game's channel, or a direct message (a user whose
/// direct messages are closed is mentioned in the game's channel instead).
pub async fn deliver(
    http: &Http,
    service: &Arc<Service>,
    n: &Notice,
) -> Result<(), serenity::Error> {
    let Some(user) = user_id(&n.user) else {
        // Not a Discord user (a console name in a shared database): nobody to tell here.
        warn!(user = %n.user, "notice for a user who is not on Discord; dropped");
        return Ok(());
    };
    // Its game's home, read once: where to mention. (Names in the text are the core's, their
    // markdown escaped there.)
    let facts = match n.game {
        Some(game) => super::respond::game_facts(service, game).await,
        None => None,
    };
    let text = &n.text;
    // The game's thread or channel, else the notice's channel.
    let home = facts.and_then(|f| f.home).or_else(|| {
        n.channel
            .as_deref()
            .and_then(|c| c.parse::<u64>().ok())
            .filter(|&c| c != 0)
            .map(serenity::ChannelId::new)
    });
    let mention = |channel: serenity::ChannelId| async move {
        let msg = serenity::CreateMessage::new()
            .content(format!("<@{user}> {}", super::respond::clip(text)))
            .allowed_mentions(mention_only(&[user]));
        channel.send_message(http, msg).await.map(|_| ())
    };
    match n.via {
        Via::Mention => match home {
            Some(channel) => mention(channel).await,
            None => direct(http, user, text).await,
        },
        Via::Dm => match direct(http, user, text).await {
            Err(e) if refused_for_good(&e) => match home {
                Some(channel) => {
                    debug!(user = %user, "direct messages refused; mentioning instead: {e}");
                    mention(channel).await
                }
                None => Err(e),
            },
            other => other,
        },
    }
}

/// A direct message.
async fn direct(http: &Http, user: serenity::UserId, text: &str) -> Result<(), serenity::Error> {
    let dm = user.create_dm_channel(http).await?;
    let msg = serenity::CreateMessage::new()
        .content(super::respond::clip(text))
        .allowed_mentions(mention_only(&[]));
    dm.id.send_message(http, msg).await.map(|_| ())
}

/// Delivers notices now (a command's own, not folded into its reply), marking each sent once
/// Discord accepted it; a failure leaves it to the loop.
pub async fn deliver_now(
    http: Arc<Http>,
    service: Arc<Service>,
    outbox: Arc<Outbox>,
    notices: Vec<Notice>,
) {
    for n in notices {
        let Some(id) = n.id else { continue };
        match deliver(&http, &service, &n).await {
            Ok(()) => mark_sent(&service, &outbox, vec![id]).await,
            Err(e) if refused_for_good(&e) => {
                // Retrying cannot help (the channel is gone, the bot may not post there):
                // set aside, said in the log.
                warn!(notice = id, user = %n.user, "Discord refused the notice for good; dropped: {e}");
                mark_sent(&service, &outbox, vec![id]).await;
            }
            Err(e) => {
                warn!(notice = id, "delivery failed, will retry: {e}");
                outbox.failed(id);
            }
        }
        outbox.release(&[id]);
    }
}

/// Marks notices sent (off the runtime) and forgets their retries.
pub async fn mark_sent(service: &Arc<Service>, outbox: &Arc<Outbox>, ids: Vec<i64>) {
    if ids.is_empty() {
        return;
    }
    let s = service.clone();
    let done = ids.clone();
    match tokio::task::spawn_blocking(move || s.mark_sent(&done)).await {
        Ok(Ok(())) => {
            for id in ids {
                outbox.delivered(id);
            }
        }
        Ok(Err(e)) => warn!("cannot mark notices sent (they may be sent again): {e}"),
        Err(e) => warn!("cannot mark notices sent: {e}"),
    }
}

/// How often the outbox is looked at.
const OUTBOX_EVERY: Duration = Duration::from_secs(2);

/// The outbox loop and the sweep loop, until the gate closes.
pub async fn run_loops(
    http: Arc<Http>,
    service: Arc<Service>,
    outbox: Arc<Outbox>,
    gate: Arc<Gate>,
    sweep_every: Duration,
) {
    let mut outbox_tick = tokio::time::interval(OUTBOX_EVERY);
    let mut sweep_tick = tokio::time::interval(sweep_every);
    outbox_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    sweep_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let ended = tokio::select! {
            _ = outbox_tick.tick() => Vec::new(),
            _ = sweep_tick.tick() => sweep(&service).await,
        };
        if gate.is_closed() {
            return;
        }
        flush(&http, &service, &outbox).await;
        // Games lost on time: their threads are closed once the players were told there (a
        // message in an archived thread would reopen it).
        for game in ended {
            super::respond::archive_thread(&http, &service, game).await;
        }
    }
}

/// Runs the correspondence sweep; its notices are in the outbox for `flush`. Returns the games
/// it ended.
async fn sweep(service: &Arc<Service>) -> Vec<i64> {
    let s = service.clone();
    let now = s.now();
    match tokio::task::spawn_blocking(move || s.sweep(now)).await {
        Ok(Ok(done)) => {
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

/// Delivers what is due in the outbox.
async fn flush(http: &Arc<Http>, service: &Arc<Service>, outbox: &Arc<Outbox>) {
    let (s, o) = (service.clone(), outbox.clone());
    let pending = tokio::task::spawn_blocking(move || {
        let _no_command_midway = o.commands.write();
        let pending = s.claim_unsent(200)?;
        let due: Vec<Notice> = pending
            .into_iter()
            .filter(|n| n.id.is_some_and(|id| o.due(id)))
            .collect();
        o.claim(&due);
        Ok::<_, crate::service::CoreError>(due)
    })
    .await;
    let due = match pending {
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
    if !due.is_empty() {
        debug!(count = due.len(), "delivering notices");
    }
    deliver_now(http.clone(), service.clone(), outbox.clone(), due).await;
}
