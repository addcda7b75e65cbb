//! Where a message goes, and what to do when Discord refuses it: one home for the decision,
//! used by the reply path (`respond`) and the delivery loop (`outbox`). This module imports
//! neither of them; they import it.
//!
//! **The places.** A move's announcement goes to the game's thread, else its channel, else
//! where the command was sent (only when that is in the game's server: a server game never
//! moves to a DM), else the server's games channel (`server channel`); a game that lands
//! outside its home moves there, with a new thread where threads may be made. A reply to a
//! message goes to that message's channel.
//!
//! **Discord's refusals, by error code** (not only the status):
//! - 10003 Unknown Channel (or any 404), 50001 Missing Access: the place is gone or closed to
//!   the bot; the next place is tried, and a game forgets it as its home.
//! - 50083 (an archived, locked thread): the thread is closed; the game goes on in its
//!   channel, and may make a new thread there.
//! - 50013 Missing Permissions: the bot sees the place but lacks a right. A message with
//!   files is sent again as text alone (Attach Files); a thread whose posts are refused (Send
//!   Messages in Threads) sends the game to its parent channel, where no thread is tried for
//!   an hour (not a new thread per move); otherwise the place is closed as above.
//! - A channel closed to the bot by a right it lacks (50001, 50013), a game's channel or the
//!   server's games channel, is told to the server's owner by direct message, once a day
//!   for each channel (not once per move); the games go on by their fallbacks meanwhile.
//! - 160002 (a reply without Read Message History): sent again without the reply reference.
//! - 429, 5xx and network errors may pass: nothing else is tried, the caller retries later.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use poise::serenity_prelude as serenity;
use serenity::builder::Builder;
use serenity::{
    ChannelId, CreateActionRow, CreateAllowedMentions, CreateAttachment,
    CreateInteractionResponseFollowup, CreateMessage, Http, MessageId, UserId,
};
use tracing::{info, warn};

use crate::i18n::Lang;
use crate::service::{Attachment, GameHome, Service};
use crate::t;

/// Discord's limit on a message's text.
pub(crate) const MAX_CONTENT: usize = 2000;

/// A Discord user id from the core's user id.
pub fn user_id(s: &str) -> Option<UserId> {
    s.parse::<u64>().ok().filter(|&n| n != 0).map(UserId::new)
}

/// A channel id of the core's (a decimal snowflake).
pub(crate) fn channel_of(s: Option<&str>) -> Option<ChannelId> {
    s.and_then(|c| c.parse::<u64>().ok())
        .filter(|&c| c != 0)
        .map(ChannelId::new)
}

/// Mentions that ping exactly these users: no `@everyone`, no roles, nobody else.
pub fn mention_only(users: &[UserId]) -> CreateAllowedMentions {
    let m = CreateAllowedMentions::new()
        .everyone(false)
        .empty_roles()
        .replied_user(false);
    if users.is_empty() {
        m.empty_users()
    } else {
        m.users(users.iter().copied())
    }
}

/// Text cut to Discord's limit (on a character boundary).
pub fn clip(text: &str) -> String {
    if text.chars().count() <= MAX_CONTENT {
        return text.to_string();
    }
    let mut out: String = text.chars().take(MAX_CONTENT - 1).collect();
    out.push('…');
    out
}

/// A file of the core's as Discord takes it.
pub(crate) fn attachment(a: Attachment) -> CreateAttachment {
    CreateAttachment::bytes(a.data, a.name)
}

/// A message's parts, for any place.
#[derive(Clone)]
pub(crate) struct Outgoing {
    pub content: String,
    pub files: Vec<CreateAttachment>,
    pub rows: Vec<CreateActionRow>,
    pub ping: Vec<UserId>,
}

impl Outgoing {
    /// Text alone (no files, no buttons, nobody pinged).
    pub fn text(content: &str) -> Outgoing {
        Outgoing {
            content: clip(content),
            files: Vec::new(),
            rows: Vec::new(),
            ping: Vec::new(),
        }
    }
}

/// Where an answer goes.
#[derive(Clone, Debug)]
pub enum Target {
    /// An interaction (slash command or button), already deferred.
    Interaction { token: String },
    /// A message in a channel, answered by a reply to it.
    Message {
        channel: ChannelId,
        message: MessageId,
    },
    /// A personal answer asked by a message in a server: sent to the sender's direct
    /// messages, the channel told briefly that it was (or that it could not be), in `lang`.
    Direct {
        user: UserId,
        channel: ChannelId,
        message: MessageId,
        lang: Lang,
    },
    /// Nobody to answer: the computer's move, announced in the game's home only.
    Nobody,
    /// A move picker whose Play was acknowledged in place: the answer replaces the picker
    /// (its menus, buttons and picture gone).
    Picker { token: String },
}

/// How a call failed, read from Discord's error code (see the module header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// 404 or 10003 Unknown Channel: the place is gone.
    Gone,
    /// 50001 Missing Access: the bot cannot see the place.
    NoAccess,
    /// 50013 Missing Permissions: it sees the place but lacks a right.
    MissingPermission,
    /// 50083: the thread is archived (and locked).
    Archived,
    /// 160002: a reply (a message reference) without Read Message History.
    NoReplies,
    /// Refused for another reason that a retry cannot change (400, 413 ...).
    Refused,
    /// May pass: a 5xx, a rate limit, the network.
    Passing,
}

impl Failure {
    /// Whether the place is closed to this message: another place must be tried.
    pub fn closed(self) -> bool {
        matches!(
            self,
            Failure::Gone | Failure::NoAccess | Failure::MissingPermission | Failure::Archived
        )
    }
}

/// Discord's JSON error code of a refused call.
fn code_of(e: &serenity::Error) -> Option<(u16, isize)> {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            Some((r.status_code.as_u16(), r.error.code))
        }
        _ => None,
    }
}

/// What kind of failure an error is: by Discord's error code, else by the status.
pub(crate) fn failure(e: &serenity::Error) -> Failure {
    match code_of(e) {
        Some((status, code)) => failure_of(status, code),
        None => Failure::Passing,
    }
}

/// What kind of failure a status and Discord error code are.
fn failure_of(status: u16, code: isize) -> Failure {
    match (status, code) {
        (_, 10003) | (404, _) => Failure::Gone,
        (_, 50001) => Failure::NoAccess,
        (_, 50013) => Failure::MissingPermission,
        (_, 50083) => Failure::Archived,
        (_, 160_002) => Failure::NoReplies,
        (429, _) => Failure::Passing,
        // A 403 without a code we know: the place is closed to the bot, as before codes
        // were read.
        (403, _) => Failure::NoAccess,
        (s, _) if (400..500).contains(&s) => Failure::Refused,
        _ => Failure::Passing,
    }
}

/// What this process remembers of places: channels where threads cannot be used, and
/// servers whose games channel was reported to their owner lately.
pub struct Memory {
    /// Channels where making a thread, or posting in one, failed lately: not tried again for
    /// an hour.
    no_threads: Mutex<HashMap<ChannelId, Instant>>,
    /// Channels (of a server) reported unusable to the server's owner lately.
    reported: Mutex<HashMap<(String, ChannelId), Instant>>,
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new()
    }
}

impl Memory {
    pub fn new() -> Memory {
        Memory {
            no_threads: Mutex::new(HashMap::new()),
            reported: Mutex::new(HashMap::new()),
        }
    }

    /// Whether a thread may be tried in this channel (none failed there in the last hour).
    pub(crate) fn threads_allowed(&self, channel: ChannelId) -> bool {
        lock(&self.no_threads)
            .get(&channel)
            .is_none_or(|at| at.elapsed() > Duration::from_secs(3600))
    }

    pub(crate) fn threads_refused(&self, channel: ChannelId) {
        lock(&self.no_threads).insert(channel, Instant::now());
    }

    /// Whether the unusable `channel` of `guild` should be reported now (once a day).
    fn report_due(&self, guild: &str, channel: ChannelId) -> bool {
        let mut r = lock(&self.reported);
        let key = (guild.to_string(), channel);
        let due = r
            .get(&key)
            .is_none_or(|at| at.elapsed() > Duration::from_secs(86_400));
        if due {
            r.insert(key, Instant::now());
        }
        due
    }
}

// ----- Sending, adapted to what a place refuses ---------------------------------------------

/// The text said instead of files a place refused.
fn without_files(out: &Outgoing, lang: Lang) -> Outgoing {
    let note = t!(lang, "discord-files-refused");
    Outgoing {
        content: clip(&format!("{}\n{note}", out.content)),
        files: Vec::new(),
        rows: out.rows.clone(),
        ping: out.ping.clone(),
    }
}

/// Posts a new message in a channel (a reply to `reply_to` when given), adapting to what the
/// place refuses: without the reply reference (160002), without the files (50013 on a message
/// with files; a note says so in `lang`). Returns the message, or the last refusal.
pub(crate) async fn post_in(
    http: &Http,
    channel: ChannelId,
    reply_to: Option<MessageId>,
    out: &Outgoing,
    lang: Lang,
) -> Result<serenity::Message, serenity::Error> {
    let build = |out: &Outgoing, reply: Option<MessageId>| {
        let m = CreateMessage::new()
            .content(out.content.clone())
            .components(out.rows.clone())
            .add_files(out.files.clone())
            .allowed_mentions(mention_only(&out.ping));
        match reply {
            Some(id) => m.reference_message((channel, id)),
            None => m,
        }
    };
    let mut reply = reply_to;
    let mut out = out.clone();
    // At most one retry for each right that may be missing.
    for _ in 0..3 {
        match channel.send_message(http, build(&out, reply)).await {
            Ok(m) => return Ok(m),
            Err(e) => match failure(&e) {
                Failure::NoReplies if reply.is_some() => {
                    info!(%channel, "a reply is refused here (Read Message History); sent as a plain message");
                    reply = None;
                }
                Failure::MissingPermission if !out.files.is_empty() => {
                    info!(%channel, "files are refused here (Attach Files); sent as text alone");
                    out = without_files(&out, lang);
                }
                _ => return Err(e),
            },
        }
    }
    channel.send_message(http, build(&out, reply)).await
}

/// Sends to a target: the interaction's (ephemeral) deferred message, a reply to the
/// command's message (adapted as [`post_in`] says), or the sender's direct messages with a
/// short word in the channel.
pub(crate) async fn send(
    http: &Http,
    target: &Target,
    out: Outgoing,
) -> Result<serenity::Message, serenity::Error> {
    match target {
        Target::Interaction { token } => {
            let f = CreateInteractionResponseFollowup::new()
                .content(out.content)
                .components(out.rows)
                .add_files(out.files)
                .ephemeral(true)
                .allowed_mentions(mention_only(&out.ping));
            f.execute(http, (None, token.as_str())).await
        }
        Target::Nobody => Err(serenity::Error::Other("nobody to answer")),
        Target::Picker { token } => {
            let edit = serenity::EditInteractionResponse::new()
                .content(out.content)
                .components(out.rows)
                .attachments(serenity::EditAttachments::new())
                .allowed_mentions(mention_only(&out.ping));
            edit.execute(http, token).await
        }
        // The adapter's own notes in a reply are the sender's: English when unknown.
        Target::Message { channel, message } => {
            post_in(http, *channel, Some(*message), &out, Lang::En).await
        }
        Target::Direct {
            user,
            channel,
            message,
            lang,
        } => {
            let sent = match user.create_dm_channel(http).await {
                Ok(dm) => post_in(http, dm.id, None, &out, *lang).await,
                Err(e) => Err(e),
            };
            // The channel learns where the answer went, never what it says.
            let word = match &sent {
                Ok(_) => t!(*lang, "discord-sent-dm"),
                Err(e) => {
                    warn!(%user, "cannot send a personal answer by direct message: {e}");
                    t!(*lang, "discord-dm-refused")
                }
            };
            let said = post_in(
                http,
                *channel,
                Some(*message),
                &Outgoing::text(&word),
                *lang,
            )
            .await;
            match (sent, said) {
                (Ok(m), _) => Ok(m),
                (Err(_), Ok(m)) => Ok(m),
                (Err(e), Err(_)) => Err(e),
            }
        }
    }
}

// ----- Homes ----------------------------------------------------------------------------------

/// A game's home, read off the runtime.
pub(crate) async fn home_of(service: &Arc<Service>, game: i64) -> Option<GameHome> {
    let s = service.clone();
    match tokio::task::spawn_blocking(move || s.game_home(game)).await {
        Ok(Ok(h)) => h,
        Ok(Err(e)) => {
            warn!(game, "cannot read the game's home: {e}");
            None
        }
        Err(e) => {
            warn!(game, "cannot read the game's home: {e}");
            None
        }
    }
}

/// The server's games channel, read off the runtime.
pub(crate) async fn server_channel(
    service: &Arc<Service>,
    guild: Option<&str>,
) -> Option<ChannelId> {
    let guild = guild?.to_string();
    let s = service.clone();
    let c = tokio::task::spawn_blocking(move || s.server_channel(&guild))
        .await
        .ok()?
        .ok()?;
    channel_of(c.as_deref())
}

/// Records a game's new home (off the runtime).
pub(crate) async fn set_home(
    service: &Arc<Service>,
    game: i64,
    channel: Option<ChannelId>,
    thread: Option<ChannelId>,
) {
    let s = service.clone();
    let (c, t) = (
        channel.map(|c| c.to_string()),
        thread.map(|t| t.to_string()),
    );
    match tokio::task::spawn_blocking(move || s.set_home(game, c.as_deref(), t.as_deref())).await {
        Ok(Ok(())) => info!(game, ?channel, ?thread, "the game moved to a new home"),
        Ok(Err(e)) => warn!(game, "cannot record the game's new home: {e}"),
        Err(e) => warn!(game, "cannot record the game's new home: {e}"),
    }
}

/// A place of a game's home refused a message (`failure`, a closing one): the game forgets
/// it, so the next announcement finds it a new one. A thread that refuses posts while its
/// channel is seen (50013: Send Messages in Threads) also keeps the game out of threads in
/// that channel for an hour. A channel closed by a right the bot lacks (50001, 50013) is told
/// to the server's owner (once a day); a deleted one is the server's choice, and is not.
pub(crate) async fn lost_home(
    http: &Http,
    service: &Arc<Service>,
    memory: &Memory,
    home: &GameHome,
    lost: ChannelId,
    failure: Failure,
    error: &serenity::Error,
) {
    if !failure.closed() {
        return;
    }
    let thread = channel_of(home.thread.as_deref());
    let channel = channel_of(home.channel.as_deref());
    if thread == Some(lost) {
        warn!(game = home.id, thread = %lost, ?failure, "the game's thread is gone or closed to the bot");
        if let (Failure::MissingPermission, Some(c)) = (failure, channel) {
            memory.threads_refused(c);
        }
        set_home(service, home.id, channel, None).await;
    } else if channel == Some(lost) {
        warn!(game = home.id, channel = %lost, ?failure, "the game's channel is gone or closed to the bot");
        set_home(service, home.id, None, None).await;
        if matches!(failure, Failure::NoAccess | Failure::MissingPermission) {
            if let Some(g) = home.guild.as_deref() {
                // The server's games channel is told as such (where every new game goes).
                let what = if server_channel(service, Some(g)).await == Some(lost) {
                    Unusable::GamesChannel
                } else {
                    Unusable::GameChannel(home.id)
                };
                report_channel(http, service, memory, g, lost, what, error).await;
            }
        }
    }
}

// ----- A game's announcement ------------------------------------------------------------------

/// Where a game's command was sent, as a place for its announcement.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sent {
    pub channel: ChannelId,
    /// Its server (`None`: a DM).
    pub guild: Option<serenity::GuildId>,
    /// The command's message, answered by a reply when the announcement lands here.
    pub message: Option<MessageId>,
    /// `channel`'s parent when it is a thread.
    pub parent: Option<ChannelId>,
}

/// A place refused, and how.
#[derive(Debug)]
pub(crate) struct Refused {
    pub place: ChannelId,
    pub failure: Failure,
    pub error: String,
}

/// Where an announcement landed, and the places that refused it on the way.
pub(crate) struct Placed {
    pub landed: Option<serenity::Message>,
    pub refused: Vec<Refused>,
}

impl Placed {
    /// How it failed, when it landed nowhere: the last refusal.
    pub fn failed(&self) -> Option<&Refused> {
        match self.landed {
            Some(_) => None,
            None => self.refused.last(),
        }
    }
}

/// The places to try for a game's announcement, in order: its thread, its channel, where the
/// command was sent when that is in the game's server, the server's games channel.
fn game_places(
    home: &GameHome,
    sent: Option<&Sent>,
    fallback: Option<ChannelId>,
) -> Vec<ChannelId> {
    let thread = channel_of(home.thread.as_deref());
    let channel = channel_of(home.channel.as_deref());
    let same_server = |s: &&Sent| s.guild.map(|g| g.to_string()) == home.guild;
    let origin = sent.filter(same_server).map(|s| s.channel);
    let mut places = Vec::new();
    for c in [thread, channel, origin, fallback].into_iter().flatten() {
        if !places.contains(&c) {
            places.push(c);
        }
    }
    places
}

/// Posts a game's announcement in the first place that takes it (see [`game_places`]),
/// adapting to what each refuses; the game forgets the places that are closed to it, moves to
/// where the announcement landed, and gets a thread there (when `live`, in a server, and
/// threads may be made there). A missing permission in the server's games channel is told to
/// the server's owner (once a day). A failure that may pass stops the tries.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn announce_game(
    http: &Http,
    service: &Arc<Service>,
    memory: &Memory,
    home: &GameHome,
    sent: Option<&Sent>,
    out: &Outgoing,
    live: bool,
    lang: Lang,
) -> Placed {
    let fallback = server_channel(service, home.guild.as_deref()).await;
    let places = game_places(home, sent, fallback);
    let thread = channel_of(home.thread.as_deref());
    let channel = channel_of(home.channel.as_deref());
    let mut placed = Placed {
        landed: None,
        refused: Vec::new(),
    };
    for place in places {
        let reply_to = sent.filter(|s| s.channel == place).and_then(|s| s.message);
        match post_in(http, place, reply_to, out, lang).await {
            Ok(m) => {
                placed.landed = Some(m);
                break;
            }
            Err(e) => {
                let f = failure(&e);
                warn!(game = home.id, channel = %place, ?f, "cannot post the announcement: {e}");
                lost_home(http, service, memory, home, place, f, &e).await;
                if Some(place) == fallback && f.closed() {
                    report_server_channel(http, service, memory, home.guild.as_deref(), place, &e)
                        .await;
                }
                placed.refused.push(Refused {
                    place,
                    failure: f,
                    error: e.to_string(),
                });
                // Only a closed place is a reason to try another; a passing failure is
                // retried by the delivery loop, in the same place.
                if !f.closed() {
                    break;
                }
            }
        }
    }
    let Some(msg) = &placed.landed else {
        return placed;
    };
    let landed = msg.channel_id;
    if Some(landed) != thread && Some(landed) != channel {
        // The game lives where this landed now; landed in a thread (another game's, where
        // the command was sent), it moves to that thread's channel, where its next
        // announcement makes it a thread of its own.
        let parent = sent.filter(|s| s.channel == landed).and_then(|s| s.parent);
        set_home(service, home.id, Some(parent.unwrap_or(landed)), None).await;
    }
    let in_thread =
        Some(landed) == thread || sent.is_some_and(|s| s.channel == landed && s.parent.is_some());
    if live && !in_thread && home.guild.is_some() {
        start_thread(http, service, memory, home.id, msg).await;
    }
    placed
}

// ----- Threads --------------------------------------------------------------------------------

/// Makes the game's thread from a message of its (auto-archived after a week) and records it.
/// Where the bot may not make threads, or not post in them, the game stays in the channel
/// (and this channel is not tried again for an hour).
pub(crate) async fn start_thread(
    http: &Http,
    service: &Arc<Service>,
    memory: &Memory,
    game: i64,
    msg: &serenity::Message,
) {
    if !memory.threads_allowed(msg.channel_id) {
        return;
    }
    let title = match home_of(service, game).await {
        Some(h) => h.title,
        None => {
            let (s, guild) = (service.clone(), msg.guild_id.map(|g| g.to_string()));
            let lang = tokio::task::spawn_blocking(move || s.public_voice(guild.as_deref()).lang)
                .await
                .unwrap_or_default();
            t!(lang, "discord-thread-title", game = game)
        }
    };
    let title: String = title.chars().take(100).collect();
    let t = serenity::CreateThread::new(title)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    match t.execute(http, (msg.channel_id, Some(msg.id))).await {
        Ok(thread) => {
            let s = service.clone();
            let id = thread.id.to_string();
            match tokio::task::spawn_blocking(move || s.set_thread(game, &id)).await {
                // The game's followers join its new thread.
                Ok(Ok(())) => join_threads(http, service, Some(game)).await,
                Ok(Err(e)) => warn!(game, "cannot record the game's thread: {e}"),
                Err(e) => warn!(game, "cannot record the game's thread: {e}"),
            }
        }
        Err(e) => {
            memory.threads_refused(msg.channel_id);
            warn!(
                game,
                "cannot make a thread; the game stays in the channel: {e}"
            )
        }
    }
}

/// Makes a league's thread from a message of its (its creation's announcement, or a post that
/// landed in its channel) and records it; where threads cannot be made, the league posts in
/// its channel.
pub(crate) async fn start_league_thread(
    http: &Http,
    service: &Arc<Service>,
    memory: &Memory,
    league: i64,
    msg: &serenity::Message,
) {
    if !memory.threads_allowed(msg.channel_id) {
        return;
    }
    let s = service.clone();
    let title = match tokio::task::spawn_blocking(move || {
        s.league_home(league)
            .map(|l| l.map(|l| s.league_thread_title(&l)))
    })
    .await
    {
        Ok(Ok(Some(t))) => t,
        Ok(Ok(None)) => return,
        Ok(Err(e)) => return warn!(league, "cannot read the league: {e}"),
        Err(e) => return warn!(league, "cannot read the league: {e}"),
    };
    let title: String = title.chars().take(100).collect();
    let t = serenity::CreateThread::new(title)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    match t.execute(http, (msg.channel_id, Some(msg.id))).await {
        Ok(thread) => {
            let (s, id) = (service.clone(), thread.id.to_string());
            match tokio::task::spawn_blocking(move || s.set_league_thread(league, Some(&id))).await
            {
                Ok(Ok(())) => {}
                Ok(Err(e)) => warn!(league, "cannot record the league's thread: {e}"),
                Err(e) => warn!(league, "cannot record the league's thread: {e}"),
            }
        }
        Err(e) => {
            memory.threads_refused(msg.channel_id);
            warn!(
                league,
                "cannot make a thread; the league stays in the channel: {e}"
            )
        }
    }
}

/// Adds the `thread` followers of `game` (or of every game) to their game's thread, where
/// they were not added yet: the thread then shows in their list, and nobody is pinged. Each
/// one done, or found impossible (the thread closed to the bot, the user not in the server),
/// is recorded; one that failed for a passing reason is tried again by the next sweep.
pub async fn join_threads(http: &Http, service: &Arc<Service>, game: Option<i64>) {
    let s = service.clone();
    let due = match tokio::task::spawn_blocking(move || s.thread_joins(game)).await {
        Ok(Ok(d)) => d,
        Ok(Err(e)) => return warn!(?game, "cannot read the followers to add to threads: {e}"),
        Err(e) => return warn!(?game, "cannot read the followers to add to threads: {e}"),
    };
    for j in due {
        let target = channel_of(Some(&j.thread)).zip(user_id(&j.user));
        let done = match target {
            // Not a Discord thread or user (a console name in a shared database).
            None => true,
            Some((thread, user)) => match http.add_thread_channel_member(thread, user).await {
                Ok(()) => true,
                Err(e) => match failure(&e) {
                    Failure::Passing => {
                        warn!(game = j.game, user = %j.user, "cannot add a follower to the thread (tried again later): {e}");
                        false
                    }
                    _ => {
                        warn!(game = j.game, user = %j.user, "a follower cannot be added to the thread: {e}");
                        true
                    }
                },
            },
        };
        if done {
            let s = service.clone();
            match tokio::task::spawn_blocking(move || s.thread_joined(&j)).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => warn!("cannot record a follower added to a thread: {e}"),
                Err(e) => warn!("cannot record a follower added to a thread: {e}"),
            }
        }
    }
}

/// Takes a follower who stopped following a game out of the thread they were added to (best
/// effort: leaving the thread in Discord does the same).
pub(crate) async fn leave_thread(http: &Http, game: i64, thread: &str, user: UserId) {
    let Some(thread) = channel_of(Some(thread)) else {
        return;
    };
    if let Err(e) = http.remove_thread_channel_member(thread, user).await {
        warn!(game, %user, "cannot take a former follower out of the thread: {e}");
    }
}

/// Archives a finished game's thread.
pub async fn archive_thread(http: &Http, service: &Arc<Service>, game: i64) {
    let thread = home_of(service, game)
        .await
        .and_then(|h| channel_of(h.thread.as_deref()));
    if let Some(t) = thread {
        let edit = serenity::EditThread::new().archived(true);
        if let Err(e) = t.edit_thread(http, edit).await {
            warn!(game, "cannot archive the game's thread: {e}");
        }
    }
}

// ----- Telling the server's owner ------------------------------------------------------------

/// Which channel of a server the bot cannot use.
#[derive(Clone, Copy, Debug)]
enum Unusable {
    /// The server's games channel (`server channel`).
    GamesChannel,
    /// The channel of this game.
    GameChannel(i64),
}

/// Tells a server's owner (once a day) that its games channel `channel` cannot be used.
pub(crate) async fn report_server_channel(
    http: &Http,
    service: &Arc<Service>,
    memory: &Memory,
    guild: Option<&str>,
    channel: ChannelId,
    e: &serenity::Error,
) {
    let Some(g) = guild else { return };
    report_channel(http, service, memory, g, channel, Unusable::GamesChannel, e).await;
}

/// Tells a server's owner, by direct message and at most once a day for each channel, that the
/// bot cannot use `channel` any more, and why; the games go on by their fallbacks meanwhile.
async fn report_channel(
    http: &Http,
    service: &Arc<Service>,
    memory: &Memory,
    guild: &str,
    channel: ChannelId,
    what: Unusable,
    e: &serenity::Error,
) {
    let Some(g) = guild.parse::<u64>().ok().filter(|&g| g != 0) else {
        return;
    };
    if !memory.report_due(guild, channel) {
        return;
    }
    let why = e.to_string();
    let owner = match serenity::GuildId::new(g).to_partial_guild(http).await {
        Ok(pg) => pg.owner_id,
        Err(e) => {
            warn!(guild, %channel, "a channel is unusable ({why}); cannot find the server's owner to tell: {e}");
            return;
        }
    };
    // A notice to the owner: in their language.
    let lang = {
        let (s, id) = (service.clone(), owner.to_string());
        tokio::task::spawn_blocking(move || s.voice_of(&id).lang)
            .await
            .unwrap_or_default()
    };
    let text = match what {
        Unusable::GamesChannel => t!(
            lang,
            "discord-games-channel-unusable",
            channel = channel.to_string(),
            why = why.as_str()
        ),
        Unusable::GameChannel(game) => t!(
            lang,
            "discord-game-channel-unusable",
            channel = channel.to_string(),
            game = game,
            why = why.as_str()
        ),
    };
    warn!(
        guild,
        %channel,
        ?what,
        "a channel is unusable: {why}; telling the server's owner"
    );
    let dm = match owner.create_dm_channel(http).await {
        Ok(dm) => dm,
        Err(e) => {
            warn!(guild, "cannot tell the server's owner: {e}");
            return;
        }
    };
    let msg = CreateMessage::new()
        .content(clip(&text))
        .allowed_mentions(mention_only(&[]));
    if let Err(e) = dm.id.send_message(http, msg).await {
        warn!(guild, "cannot tell the server's owner: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_clipped_on_a_character_boundary() {
        let t = "漢".repeat(2500);
        let c = clip(&t);
        assert_eq!(c.chars().count(), MAX_CONTENT);
        assert!(c.ends_with('…'));
    }

    fn home(guild: Option<&str>, channel: &str, thread: Option<&str>) -> GameHome {
        GameHome {
            id: 1,
            guild: guild.map(str::to_string),
            channel: Some(channel.to_string()),
            thread: thread.map(str::to_string),
            players: [String::new(), String::new()],
            names: Vec::new(),
            ply: 0,
            active: true,
            title: String::new(),
        }
    }

    #[test]
    fn failures_are_read_from_discords_code_before_the_status() {
        for (status, code, f) in [
            (404, 10003, Failure::Gone),
            (404, 0, Failure::Gone),
            (403, 50001, Failure::NoAccess),
            (403, 50013, Failure::MissingPermission),
            (400, 50083, Failure::Archived),
            (403, 160_002, Failure::NoReplies),
            (400, 160_002, Failure::NoReplies),
            (403, 50007, Failure::NoAccess),
            (413, 40005, Failure::Refused),
            (400, 50035, Failure::Refused),
            (429, 0, Failure::Passing),
            (500, 0, Failure::Passing),
            (502, 0, Failure::Passing),
        ] {
            assert_eq!(failure_of(status, code), f, "{status} {code}");
        }
        assert!(Failure::MissingPermission.closed() && Failure::Archived.closed());
        assert!(!Failure::NoReplies.closed() && !Failure::Passing.closed());
    }

    #[test]
    fn a_server_games_places_never_include_a_dm() {
        let h = home(Some("7"), "10", Some("11"));
        let dm = Sent {
            channel: ChannelId::new(99),
            guild: None,
            message: None,
            parent: None,
        };
        let places = game_places(&h, Some(&dm), Some(ChannelId::new(12)));
        let ids: Vec<u64> = places.iter().map(|c| c.get()).collect();
        assert_eq!(ids, vec![11, 10, 12]);
        // Sent in another channel of the same server: tried before the games channel.
        let here = Sent {
            guild: Some(serenity::GuildId::new(7)),
            ..dm
        };
        let places = game_places(&h, Some(&here), Some(ChannelId::new(12)));
        let ids: Vec<u64> = places.iter().map(|c| c.get()).collect();
        assert_eq!(ids, vec![11, 10, 99, 12]);
    }
}
