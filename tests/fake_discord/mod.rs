//! A fake Discord on loopback for the end-to-end tests: the REST API under `/api/v10/...` and a
//! WebSocket gateway at `/gateway`, speaking the JSON that serenity 0.12.5 reads.
//!
//! Start one with [`FakeDiscord::start`] inside a tokio runtime, give the bot
//! [`FakeDiscord::api_base`] as its API base (serenity's `HttpBuilder::proxy`, with the rate
//! limiter disabled), then drive it: build events with the fixture builders (they check that
//! serenity can read what they build, since serenity drops unreadable events silently), send
//! them with [`FakeDiscord::dispatch`], and look at what the bot asked for with
//! [`FakeDiscord::calls`] and [`FakeDiscord::wait_for`].
//!
//! Gateway: HELLO, IDENTIFY → READY, heartbeat → ACK, RESUME → the missed dispatches then
//! RESUMED (or op 9 when resuming is refused), plain JSON text frames. Sequence numbers run per
//! session. [`FakeDiscord::drop_gateway`] and friends end connections the ways Discord does.
//!
//! Sharding, as Discord routes it: each connection serves the shard its IDENTIFY names
//! (`shard: [id, total]`; none is shard 0 of 1), and the fake keeps the live connection of each
//! shard. An event about a server (its `guild_id`, or the `id` of GUILD_CREATE) goes to the
//! connection of shard `(guild_id >> 22) % total` ([`FakeDiscord::shard_of_guild`]); an event of
//! no server (a DM) goes to shard 0. [`FakeDiscord::dispatch`] waits for that shard's connection,
//! so with one connection of one shard everything goes there, as before. The servers added with
//! [`FakeDiscord::add_guild`] are announced to the shard that owns them when it identifies:
//! listed as unavailable in READY, then one GUILD_CREATE each with its text channels (the
//! default server [`GUILD_ID`] is known, for channels and members, but not announced unless
//! added). Every dispatch is recorded with the connection and shard it went to
//! ([`FakeDiscord::dispatches`]), and every REST call with the `Authorization` it came with
//! ([`Recorded::auth`]): give each bot process its own token to tell their calls apart.
//!
//! The fake keeps enough state to answer like Discord: messages (with their attachments and
//! components, edits and deletions), DM channels, threads, registered commands, interactions
//! and their responses. It enforces the Discord rules that catch bot bugs (one initial response
//! per interaction, follow-ups only after it, message and command limits, archived threads) and
//! answers anything it does not know with a 404 that is recorded: see
//! [`FakeDiscord::unknown_routes`] and [`FakeDiscord::assert_clean`].
//!
//! Discord behaviour it models that a bot can trip on:
//! - a second initial response to an interaction: 400, code 40060; a follow-up (or `@original`)
//!   before the initial response: 404 Unknown Webhook (10015);
//! - after a deferred reply (type 5), the first follow-up fills the "thinking…" message: it
//!   becomes the original response, with the same id;
//! - an update of a component's message (type 7) carries `attachments` (serenity always sends
//!   `[]`), so the message loses attachments not listed again; a PATCH without `attachments`
//!   keeps them;
//! - a thread started without a message and without `type` is PRIVATE (12); one started from a
//!   message takes the message's id;
//! - a message to an archived thread unarchives it, unless it is locked (400, 50083);
//! - thread members: `PUT /channels/{thread}/thread-members/{user}` adds a user the fake knows
//!   (204; an unknown one: 404, 10007 "Unknown Member"), not in an archived thread (400, 50083)
//!   nor in a channel that is no thread (400, 50024); `DELETE` takes them out (not from an
//!   archived thread either); `GET` lists them ([`FakeDiscord::thread_members`]). Adding a
//!   member sends no message and pings nobody;
//! - a DM to a user with closed DMs ([`FakeDiscord::set_dms_closed`]): 403, 50007;
//! - `GET /guilds/{id}` answers a server the fake knows as GUILD_CREATE gives it (its owner is
//!   [`OWNER_USER_ID`]), an unknown one 404, 10004; a channel option of a command fixture
//!   ([`opt_channel`]) is resolved in `data.resolved.channels`;
//! - without the MESSAGE_CONTENT intent, guild messages arrive with empty content unless they
//!   mention the bot;
//! - limits: 2000 characters of content, 10 embeds, 5 rows of 5 buttons with unique custom ids,
//!   25 autocomplete choices; command names lower case, descriptions of 1 to 100 characters,
//!   required options first; a channel option's `channel_types` must be a list of known channel
//!   types (integers), and only a channel option may have a non-empty one (serenity sends `[]`
//!   on every option)
//!   ([`FakeDiscord::registered_option`] shows what was registered);
//! - uploads: a request whose files total more than the upload limit (8 MiB, Discord's smallest,
//!   [`DEFAULT_UPLOAD_LIMIT`]; see [`FakeDiscord::set_upload_limit`]) answers 413 "Request entity
//!   too large" (40005) and stores nothing; interactions carry the limit as
//!   `attachment_size_limit`;
//! - a deleted channel ([`FakeDiscord::delete_channel`]; a text channel takes its threads with
//!   it): every later call on it (`/channels/{id}` and everything under it: messages, threads,
//!   typing, thread members) answers 404 "Unknown Channel" (10003). No CHANNEL_DELETE or
//!   THREAD_DELETE is dispatched: the bot learns it from the 404, as after a deletion while it
//!   was away;
//! - lost access ([`FakeDiscord::forbid_channel`], undone by [`FakeDiscord::allow_channel`]):
//!   every call on the channel answers 403 with the code given (50001 "Missing Access", 50013
//!   "Missing Permissions"); a text channel's threads are forbidden with it (a thread's
//!   permissions are its parent's); interactions sent from there carry `app_permissions` without
//!   the permissions lost. Interaction responses and follow-ups are never refused this way
//!   (Discord answers interactions whatever the channel's permissions);
//! - no thread inside a thread: `POST /channels/{thread}/threads` and
//!   `POST /channels/{thread}/messages/{id}/threads` answer 400 (50024, "Cannot execute action
//!   on this channel type");
//! - tokens ([`FakeDiscord::reject_tokens`], [`FakeDiscord::accept_only_tokens`]): a REST call
//!   with a token not accepted (`GET /gateway` included) answers 401 `{"message": "401:
//!   Unauthorized", "code": 0}`, and an IDENTIFY with one is closed with 4004 (authentication
//!   failed). Interaction callbacks and webhooks go by the interaction's token and are not
//!   checked. By default every token is accepted.
//!
//! - single missing rights, per text channel and inherited by its threads
//!   ([`FakeDiscord::refuse_files`]: a message with files answers 403, 50013;
//!   [`FakeDiscord::refuse_thread_posts`]: a message in one of its threads answers 403, 50013;
//!   [`FakeDiscord::refuse_replies`]: a reply, with `message_reference`, answers 403, 160002);
//!
//! Injected faults: [`FakeDiscord::fail_next`] and [`FakeDiscord::fail_times`] answer matching
//! calls with a status (recorded as `injected`), [`FakeDiscord::delay_next`] delays one.

#![allow(dead_code)]

mod checks;
mod fixtures;
mod gateway;
mod messages;
mod relay;
mod rest;
// The fake's own tests: run from the test binary; the benchmark that includes the fake has none.
#[cfg(test)]
mod selftests;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;

#[allow(unused_imports)]
pub use fixtures::{
    opt_bool, opt_channel, opt_focused, opt_group, opt_int, opt_num, opt_str, opt_sub, opt_user,
    FakeUser,
};

use gateway::{GatewayView, GwCmd};

/// The application id of the fake bot (READY's `application.id`; commands and interaction
/// webhooks live under it).
pub const APP_ID: u64 = 1_000_000_000_000_000_001;
/// The bot user's id (READY's `user.id`, the author of every message the bot sends).
pub const BOT_USER_ID: u64 = 1_000_000_000_000_000_002;
/// The bot user's username.
pub const BOT_USERNAME: &str = "Tegami";
/// The application owner's user id (in `GET /oauth2/applications/@me`).
pub const OWNER_USER_ID: u64 = 1_000_000_000_000_000_003;
/// The server the tests play in.
pub const GUILD_ID: u64 = 1_000_000_000_000_000_010;
/// The server's text channel (type 0, named `games`) the fixtures use by default.
pub const CHANNEL_ID: u64 = 1_000_000_000_000_000_011;

/// The first snowflake the fake hands out; every id it creates afterwards is larger.
pub const FIRST_SNOWFLAKE: u64 = 1_100_000_000_000_000_000;

/// Discord's smallest upload limit (a server without boosts): 8 MiB for all the files of one
/// message.
pub const DEFAULT_UPLOAD_LIMIT: usize = 8 * 1024 * 1024;

/// Permission bits an interaction loses in a channel the bot may not see (50001) or post in
/// (50013).
const VIEW_CHANNEL: u64 = 1 << 10;
const SEND_MESSAGES: u64 = 1 << 11;
const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;

/// How long [`FakeDiscord::dispatch`] waits for a bot to be connected before it panics.
const DISPATCH_WAIT: Duration = Duration::from_secs(15);

/// One file part of a multipart request (`files[N]`).
#[derive(Clone, Debug)]
pub struct RecordedFile {
    /// The form field name, e.g. `files[0]`.
    pub field: String,
    /// The file name the part carried.
    pub filename: String,
    /// The part's content type, if it had one.
    pub content_type: Option<String>,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// One REST request the fake received, with the answer it gave.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// HTTP method, upper case (`POST`).
    pub method: String,
    /// The full path, e.g. `/api/v10/channels/1/messages`.
    pub path: String,
    /// The raw query string without `?` (serenity writes `&wait=true`), if any.
    pub query: Option<String>,
    /// The JSON body, or the `payload_json` part of a multipart body.
    pub json: Option<Value>,
    /// The file parts of a multipart body.
    pub files: Vec<RecordedFile>,
    /// The status the fake answered.
    pub status: u16,
    /// When the request was handled.
    pub at: Instant,
    /// The JSON the fake answered with (`None` for 204 and empty answers).
    pub response: Option<Value>,
    /// The message this request made visible (a channel message, an interaction reply or
    /// follow-up, a deferred reply filled in), as stored right after the request.
    pub created: Option<Value>,
    /// The message this request edited, as stored right after the edit.
    pub edited: Option<Value>,
    /// Whether the status was injected by [`FakeDiscord::fail_next`].
    pub injected: bool,
    /// The `Authorization` header (`Bot TOKEN`) the request came with, if any: which bot
    /// process made it, when each has its own token.
    pub auth: Option<String>,
}

impl Recorded {
    /// The message created or edited by this request, if any.
    pub fn message(&self) -> Option<&Value> {
        self.created.as_ref().or(self.edited.as_ref())
    }

    /// The content of the message this request created or edited, or else the `content` of
    /// its JSON body (also inside `data` for interaction callbacks).
    pub fn content(&self) -> Option<String> {
        if let Some(m) = self.message() {
            return m["content"].as_str().map(str::to_owned);
        }
        let json = self.json.as_ref()?;
        json["content"]
            .as_str()
            .or_else(|| json["data"]["content"].as_str())
            .map(str::to_owned)
    }

    /// Whether the status is 2xx.
    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// One line describing the call, for failure messages.
    pub fn summary(&self) -> String {
        let mut s = format!("{} {}", self.method, self.path);
        if let Some(q) = &self.query {
            let _ = write!(s, "?{q}");
        }
        let _ = write!(s, " -> {}", self.status);
        if self.injected {
            s.push_str(" (injected)");
        }
        if let Some(j) = &self.json {
            let mut body = j.to_string();
            if body.len() > 300 {
                let mut cut = 300;
                while !body.is_char_boundary(cut) {
                    cut -= 1;
                }
                body.truncate(cut);
                body.push('…');
            }
            let _ = write!(s, " {body}");
        }
        if !self.files.is_empty() {
            let names: Vec<&str> = self.files.iter().map(|f| f.filename.as_str()).collect();
            let _ = write!(s, " files={names:?}");
        }
        s
    }
}

/// One gateway dispatch (op 0) the fake sent, and where it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispatched {
    /// The event name (`t`).
    pub event: String,
    /// The server it is about (`None`: a DM, READY).
    pub guild_id: Option<u64>,
    /// `[shard id, shard count]` of the connection it was sent on.
    pub shard: [u64; 2],
    /// The number of the connection it was sent on (1 for the first).
    pub connection: u64,
    /// Its sequence number in that session.
    pub seq: u64,
}

/// What the fake knows about one interaction it built.
#[derive(Clone, Debug)]
pub(crate) struct InteractionState {
    pub id: u64,
    pub token: String,
    /// 2 command, 3 component, 4 autocomplete.
    pub kind: u8,
    pub channel_id: u64,
    pub guild_id: Option<u64>,
    pub user_id: u64,
    /// The message a component interaction was on.
    pub component_message: Option<u64>,
    /// When the INTERACTION_CREATE was dispatched.
    pub dispatched_at: Option<Instant>,
    /// The callback type of the initial response, once there is one.
    pub ack: Option<u8>,
    /// The id of the original response message.
    pub original: Option<u64>,
    /// The original response is still the "thinking…" placeholder of a deferred reply.
    pub deferred_pending: bool,
    pub followups: Vec<u64>,
}

/// One injected fault, see [`FakeDiscord::fail_next`] and [`FakeDiscord::delay_next`].
#[derive(Clone, Debug)]
pub(crate) struct Fault {
    method: String,
    prefix: String,
}

impl Fault {
    fn new(method: &str, prefix: &str) -> Self {
        let prefix = if prefix.starts_with("/api/") {
            prefix.to_owned()
        } else if prefix.starts_with('/') {
            format!("/api/v10{prefix}")
        } else {
            format!("/api/v10/{prefix}")
        };
        Fault {
            method: method.to_ascii_uppercase(),
            prefix,
        }
    }

    fn matches(&self, method: &str, path: &str) -> bool {
        (self.method == "*" || self.method == method) && path.starts_with(&self.prefix)
    }
}

/// One gateway session (from IDENTIFY to its end), for sequence numbers and RESUME.
#[derive(Clone, Debug, Default)]
pub(crate) struct Session {
    /// The last sequence number sent.
    pub seq: u64,
    /// The intents the bot identified with.
    pub intents: u64,
    /// `[shard id, shard count]` the bot identified as.
    pub shard: [u64; 2],
    /// Dispatches sent in this session, for replay on RESUME: (s, t, d).
    pub events: Vec<(u64, String, Value)>,
}

/// Everything mutable, behind one std mutex that is never held across an await.
#[derive(Default)]
pub(crate) struct State {
    /// The TCP relay in front of the gateway, once [`FakeDiscord::relay_gateway`] started it:
    /// `GET /gateway` hands out its address.
    pub relay: Option<Arc<relay::Relay>>,
    pub calls: Vec<Recorded>,
    pub unknown: Vec<String>,
    pub problems: Vec<String>,
    pub failures: Vec<(Fault, u16)>,
    pub delays: Vec<(Fault, Duration)>,
    pub users: HashMap<u64, FakeUser>,
    pub member_permissions: HashMap<u64, u64>,
    pub dms_closed: HashSet<u64>,
    pub channels: BTreeMap<u64, Value>,
    pub dm_by_recipient: HashMap<u64, u64>,
    pub thread_order: Vec<u64>,
    pub messages: HashMap<u64, Value>,
    pub channel_messages: HashMap<u64, Vec<u64>>,
    pub deleted_messages: HashSet<u64>,
    /// Bytes of the attachments the fake serves at `/attachments/{channel}/{id}/{name}`.
    pub attachment_files: HashMap<u64, Vec<u8>>,
    pub interactions: HashMap<String, InteractionState>,
    pub interaction_tokens: HashMap<u64, String>,
    pub global_commands: Vec<Value>,
    pub guild_commands: BTreeMap<u64, Vec<Value>>,
    pub app_permissions: u64,
    pub interaction_deadline: Option<Duration>,
    // Gateway.
    pub sessions: HashMap<String, Session>,
    pub resume_allowed: bool,
    pub heartbeat_interval_ms: u64,
    pub identify_payloads: Vec<Value>,
    /// The servers announced to their shard on IDENTIFY, by id: their names.
    pub guilds: BTreeMap<u64, String>,
    /// Every dispatch sent, oldest first.
    pub dispatches: Vec<Dispatched>,
    /// Channels deleted with [`FakeDiscord::delete_channel`], as they were.
    pub deleted_channels: BTreeMap<u64, Value>,
    /// Channels the bot lost access to: the Discord error code they answer with.
    pub forbidden_channels: HashMap<u64, u64>,
    /// The most the files of one request may weigh, in bytes.
    pub upload_limit: usize,
    /// The bot tokens accepted (without `Bot `); `None`: every token.
    pub accepted_tokens: Option<HashSet<String>>,
    /// The members the bot added to each thread (`PUT /channels/{thread}/thread-members/{user}`),
    /// with when, less those it took out.
    pub thread_members: BTreeMap<u64, BTreeMap<u64, String>>,
    /// Requests to hold until released ([`FakeDiscord::hold_next`]): each with the paths that
    /// arrived and the signal that lets them go on.
    pub holds: Vec<(Fault, Arc<Hold>)>,
    /// Single refused rights, per text channel (its threads inherit them): see
    /// [`FakeDiscord::refuse_files`], [`FakeDiscord::refuse_thread_posts`],
    /// [`FakeDiscord::refuse_replies`].
    pub refused_rights: HashMap<u64, Rights>,
    /// Threads archived and locked by a moderator ([`FakeDiscord::archive_thread`]): a message
    /// there answers 400, 50083.
    pub archived: HashSet<u64>,
}

/// A request held by [`FakeDiscord::hold_next`]: its arrival is known at once, its answer waits
/// for [`Hold::release`].
pub struct Hold {
    arrived: watch::Sender<Option<String>>,
    released: tokio::sync::Notify,
    let_go: std::sync::atomic::AtomicBool,
}

impl Default for Hold {
    fn default() -> Hold {
        Hold {
            arrived: watch::channel(None).0,
            released: tokio::sync::Notify::new(),
            let_go: std::sync::atomic::AtomicBool::new(false),
        }
    }
}

impl Hold {
    /// Waits until the held request has arrived (its path), or panics after `timeout`.
    pub async fn arrived(&self, timeout: Duration) -> String {
        let mut rx = self.arrived.subscribe();
        let got = tokio::time::timeout(timeout, rx.wait_for(Option::is_some))
            .await
            .expect("fake discord: the held request did not arrive in time")
            .expect("fake discord: hold dropped");
        got.clone().unwrap_or_default()
    }

    /// Lets the held request go on (now, or at once when it arrives later).
    pub fn release(&self) {
        self.let_go.store(true, Ordering::SeqCst);
        self.released.notify_waiters();
    }

    /// Called by the REST handler: records the arrival, waits for the release.
    pub(crate) async fn hold(&self, path: &str) {
        let released = self.released.notified();
        self.arrived.send_replace(Some(path.to_string()));
        if !self.let_go.load(Ordering::SeqCst) {
            released.await;
        }
    }
}

/// Rights the bot lacks in a channel while it may still post plain messages there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rights {
    /// Attach Files: a message with files answers 403, 50013.
    pub no_files: bool,
    /// Send Messages in Threads: a message in one of its threads answers 403, 50013 (threads
    /// are still made: Create Public Threads is another right).
    pub no_thread_posts: bool,
    /// Read Message History: a reply (`message_reference`) answers 403, 160002.
    pub no_replies: bool,
}

impl State {
    /// Whether the fake knows this server: the default one or one added.
    pub fn knows_guild(&self, guild_id: u64) -> bool {
        guild_id == GUILD_ID || self.guilds.contains_key(&guild_id)
    }

    /// Whether a token (from `Authorization: Bot TOKEN` or IDENTIFY) is accepted.
    pub fn token_ok(&self, token: Option<&str>) -> bool {
        let Some(accepted) = &self.accepted_tokens else {
            return true;
        };
        token
            .map(|t| t.trim().strip_prefix("Bot ").unwrap_or(t.trim()))
            .is_some_and(|t| accepted.contains(t))
    }

    /// The error code the bot gets on this channel for lost access: its own, else its parent's
    /// (a thread's permissions are its parent's). `None`: allowed.
    pub fn forbidden(&self, channel_id: u64) -> Option<u64> {
        if let Some(code) = self.forbidden_channels.get(&channel_id) {
            return Some(*code);
        }
        let parent = self
            .channels
            .get(&channel_id)
            .filter(|c| c.get("thread_metadata").is_some())
            .and_then(|c| fixtures::id_of(&c["parent_id"]))?;
        self.forbidden_channels.get(&parent).copied()
    }

    /// The answer to any call on a deleted or forbidden channel, if it is one.
    pub fn channel_refusal(&self, channel_id: u64) -> Option<rest::Reply> {
        if self.deleted_channels.contains_key(&channel_id) {
            return Some(rest::Reply::error(404, 10003, "Unknown Channel"));
        }
        self.forbidden(channel_id).map(|code| {
            let message = if code == 50013 {
                "Missing Permissions"
            } else {
                "Missing Access"
            };
            rest::Reply::error(403, code, message)
        })
    }

    /// The single rights the bot lacks in a channel: its own, with its parent's for a thread
    /// (`in_thread` says whether the channel is a thread).
    pub fn rights_refused(&self, channel_id: u64) -> (Rights, bool) {
        let parent = self
            .channels
            .get(&channel_id)
            .filter(|c| c.get("thread_metadata").is_some())
            .and_then(|c| fixtures::id_of(&c["parent_id"]));
        let own = self
            .refused_rights
            .get(&channel_id)
            .copied()
            .unwrap_or_default();
        let inherited = parent
            .and_then(|p| self.refused_rights.get(&p).copied())
            .unwrap_or_default();
        let rights = Rights {
            no_files: own.no_files || inherited.no_files,
            no_thread_posts: own.no_thread_posts || inherited.no_thread_posts,
            no_replies: own.no_replies || inherited.no_replies,
        };
        (rights, parent.is_some())
    }

    /// The bot's permissions in a channel, for an interaction sent from there.
    pub fn app_permissions_in(&self, channel_id: u64) -> u64 {
        match self.forbidden(channel_id) {
            None => self.app_permissions,
            Some(50013) => self.app_permissions & !(SEND_MESSAGES | SEND_MESSAGES_IN_THREADS),
            Some(_) => {
                self.app_permissions & !(VIEW_CHANNEL | SEND_MESSAGES | SEND_MESSAGES_IN_THREADS)
            }
        }
    }
}

/// State shared by the handle, the HTTP handlers and the gateway connections.
pub(crate) struct Shared {
    pub base: String,
    pub ws_url: String,
    pub state: Mutex<State>,
    /// The number of recorded calls; waiters watch it.
    pub calls_tx: watch::Sender<usize>,
    /// Gateway counters and the live connection; waiters watch it.
    pub gw_tx: watch::Sender<GatewayView>,
    /// Set to true when the fake is dropped.
    pub shutdown_tx: watch::Sender<bool>,
    next_id: AtomicU64,
}

impl Shared {
    /// A fresh snowflake, larger than every id handed out before.
    pub fn snowflake(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Locks the state (a panic elsewhere does not make it unusable).
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Appends a call and wakes the waiters.
    pub fn record(&self, rec: Recorded) {
        let n = {
            let mut st = self.lock();
            st.calls.push(rec);
            st.calls.len()
        };
        self.calls_tx.send_replace(n);
    }
}

/// The fake Discord: an HTTP + WebSocket server on `127.0.0.1`, stopped when dropped.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    addr: SocketAddr,
    server: JoinHandle<()>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        // Gateway connections and HTTP connections watch this and end; the listener goes with
        // the server task.
        self.shared.shutdown_tx.send_replace(true);
        self.server.abort();
    }
}

impl FakeDiscord {
    /// See [`APP_ID`].
    pub const APP_ID: u64 = APP_ID;
    /// See [`BOT_USER_ID`].
    pub const BOT_USER_ID: u64 = BOT_USER_ID;
    /// See [`GUILD_ID`].
    pub const GUILD_ID: u64 = GUILD_ID;
    /// See [`CHANNEL_ID`].
    pub const CHANNEL_ID: u64 = CHANNEL_ID;

    /// Binds `127.0.0.1:0` and starts serving (REST and gateway) on the current tokio runtime.
    pub async fn start() -> FakeDiscord {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("fake discord: bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("fake discord: local address");
        assert!(addr.ip().is_loopback());
        let base = format!("http://{addr}");
        let ws_url = format!("ws://{addr}/gateway");

        let mut state = State {
            resume_allowed: true,
            heartbeat_interval_ms: 41_250,
            app_permissions: fixtures::default_app_permissions(),
            upload_limit: DEFAULT_UPLOAD_LIMIT,
            ..State::default()
        };
        state
            .channels
            .insert(CHANNEL_ID, fixtures::text_channel_json(CHANNEL_ID, "games"));

        let (calls_tx, _) = watch::channel(0);
        let (gw_tx, _) = watch::channel(GatewayView::default());
        let (shutdown_tx, _) = watch::channel(false);
        let shared = Arc::new(Shared {
            base,
            ws_url,
            state: Mutex::new(state),
            calls_tx,
            gw_tx,
            shutdown_tx,
            next_id: AtomicU64::new(FIRST_SNOWFLAKE),
        });

        let app = axum::Router::new()
            .route("/gateway", axum::routing::get(gateway::upgrade))
            .fallback(rest::handle)
            .layer(axum::extract::DefaultBodyLimit::max(64 << 20))
            .with_state(shared.clone());
        let mut stop = shared.shutdown_tx.subscribe();
        let server = tokio::spawn(async move {
            let serve = axum::serve(listener, app).with_graceful_shutdown(async move {
                let _ = stop.wait_for(|s| *s).await;
            });
            if let Err(e) = serve.await {
                eprintln!("fake discord: server stopped: {e}");
            }
        });
        FakeDiscord {
            shared,
            addr,
            server,
        }
    }

    /// `http://127.0.0.1:PORT`: what the bot gets as its API base (serenity's
    /// `HttpBuilder::proxy`); requests then arrive at `/api/v10/...`.
    pub fn api_base(&self) -> String {
        self.shared.base.clone()
    }

    /// `ws://127.0.0.1:PORT/gateway`, the URL `GET /api/v10/gateway` hands out.
    pub fn gateway_url(&self) -> String {
        self.shared.ws_url.clone()
    }

    /// The address the fake listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// A fresh snowflake (unique across messages, channels, interactions).
    pub fn snowflake(&self) -> u64 {
        self.shared.snowflake()
    }

    // ----- Gateway -------------------------------------------------------------------------

    fn gw(&self) -> GatewayView {
        self.shared.gw_tx.borrow().clone()
    }

    async fn wait_gw(
        &self,
        what: &str,
        timeout: Duration,
        cond: impl Fn(&GatewayView) -> bool,
    ) -> GatewayView {
        let mut rx = self.shared.gw_tx.subscribe();
        let got = match tokio::time::timeout(timeout, rx.wait_for(|v| cond(v))).await {
            Ok(Ok(v)) => Ok(v.clone()),
            Ok(Err(_)) => Err(false),
            Err(_) => Err(true),
        };
        match got {
            Ok(v) => v,
            Err(false) => panic!("fake discord: gateway state gone while waiting for {what}"),
            Err(true) => panic!(
                "fake discord: {what} did not happen within {timeout:?}; gateway: {:?}\nlast calls:\n{}",
                self.gw(),
                self.dump_calls(20)
            ),
        }
    }

    /// Waits until a bot has identified and been sent READY on a connection that is still open
    /// (panics after `timeout`).
    pub async fn wait_ready(&self, timeout: Duration) {
        self.wait_gw("a bot identifying (READY sent)", timeout, |v| {
            v.readies >= 1 && v.live.is_some()
        })
        .await;
    }

    /// After [`Self::drop_gateway`] (or another way of ending a connection), waits until the bot
    /// is back on a newer connection and was sent READY or RESUMED there; returns that
    /// connection's number (1 for the first connection).
    pub async fn wait_reconnect(&self, timeout: Duration) -> u64 {
        let after = self.gw().last_ended;
        self.wait_connection_after(after, timeout).await
    }

    /// The number of the connection dispatches go to now (0 when there is none).
    pub fn live_number(&self) -> u64 {
        self.gw().live.map_or(0, |l| l.number)
    }

    /// Waits until a connection numbered above `after` is the one dispatches go to (READY or
    /// RESUMED sent on it); returns its number. After killing a bot, give the number of its
    /// connection ([`Self::live_number`] before the kill): the fake may not yet have seen that
    /// connection end, and a dispatch sent to it would be lost with the dead process.
    pub async fn wait_connection_after(&self, after: u64, timeout: Duration) -> u64 {
        let v = self
            .wait_gw("the bot reconnecting", timeout, move |v| {
                v.live.as_ref().is_some_and(|l| l.number > after)
            })
            .await;
        v.live.map_or(0, |l| l.number)
    }

    /// Waits until a bot has identified as shard `shard` of `total` (and was sent READY) on a
    /// connection that is still open (panics after `timeout`).
    pub async fn wait_shard_ready(&self, shard: u64, total: u64, timeout: Duration) {
        self.wait_gw(
            &format!("a bot identifying as shard {shard} of {total}"),
            timeout,
            |v| {
                v.shards
                    .get(&shard)
                    .is_some_and(|c| c.shard == [shard, total])
            },
        )
        .await;
    }

    /// The shard Discord routes a server's events to: `(guild_id >> 22) % total`.
    pub fn shard_of_guild(guild_id: u64, total: u64) -> u64 {
        (guild_id >> 22) % total.max(1)
    }

    /// `[shard id, shard count]` of each shard with a live connection, by shard id.
    pub fn connected_shards(&self) -> Vec<[u64; 2]> {
        self.gw().shards.values().map(|c| c.shard).collect()
    }

    /// Every dispatch sent so far (READY and GUILD_CREATE included, RESUME replays not), with
    /// the connection and shard it went to, oldest first.
    pub fn dispatches(&self) -> Vec<Dispatched> {
        self.shared.lock().dispatches.clone()
    }

    /// Whether a bot is connected and identified (or resumed) right now.
    pub fn is_connected(&self) -> bool {
        self.gw().live.is_some()
    }

    /// WebSocket connections accepted so far.
    pub fn connection_count(&self) -> u64 {
        self.gw().connections
    }

    /// IDENTIFYs received so far.
    pub fn identify_count(&self) -> u64 {
        self.gw().identifies
    }

    /// RESUMEs that were accepted (answered with RESUMED) so far.
    pub fn resume_count(&self) -> u64 {
        self.gw().resumes
    }

    /// Invalid sessions (op 9) sent so far, after a refused RESUME or [`Self::invalidate_session`].
    pub fn invalid_session_count(&self) -> u64 {
        self.gw().invalid_sessions
    }

    /// Heartbeats (op 1) received so far.
    pub fn heartbeat_count(&self) -> u64 {
        self.gw().heartbeats
    }

    /// The `d` of every IDENTIFY received, oldest first.
    pub fn identify_payloads(&self) -> Vec<Value> {
        self.shared.lock().identify_payloads.clone()
    }

    /// The heartbeat interval announced in HELLO to connections opened from now on (default
    /// 41250 ms, as Discord).
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        self.shared.lock().heartbeat_interval_ms = interval.as_millis().max(1) as u64;
    }

    /// Whether a RESUME is accepted (default true). When false, a RESUME is answered with op 9
    /// (invalid session, not resumable) and the bot must identify again. Note that serenity
    /// 0.12.5 takes about 5 s to identify again (its shard runner waits for its own shutdown
    /// until a 5 s timeout), while a RESUME takes milliseconds.
    pub fn set_resume_allowed(&self, allowed: bool) {
        self.shared.lock().resume_allowed = allowed;
    }

    /// The live connection of the shard that owns `guild_id` (shard 0 for none), waiting up to
    /// [`DISPATCH_WAIT`] for one.
    async fn conn_for(&self, what: &str, guild_id: Option<u64>) -> gateway::LiveConn {
        let v = self
            .wait_gw(what, DISPATCH_WAIT, |v| v.conn_for(guild_id).is_some())
            .await;
        v.conn_for(guild_id).cloned().expect("live connection")
    }

    /// What a dispatch waits for, for its panic message.
    fn waiting_for(event_name: &str, guild_id: Option<u64>) -> String {
        match guild_id {
            Some(g) => {
                format!("a connected bot on the shard of server {g} to dispatch {event_name} to")
            }
            None => format!("a connected bot on shard 0 to dispatch {event_name} to"),
        }
    }

    /// Sends an op 0 dispatch `t = event_name`, `d = data` to the connected bot (waiting up to
    /// 15 s for one), with the session's next sequence number, which it returns. The
    /// connection is the one of the shard that owns the event's server (`d.guild_id`; shard 0
    /// for a DM), see the module's documentation.
    ///
    /// The event is first checked the way serenity reads it: an event serenity cannot parse
    /// panics here instead of being dropped silently by the bot. The gateway rules on intents
    /// apply: a MESSAGE_CREATE/UPDATE the bot has no intent for panics (Discord would not deliver
    /// it), and without MESSAGE_CONTENT a guild message that does not mention the bot arrives
    /// with empty content, embeds, attachments and components.
    pub async fn dispatch(&self, event_name: &str, data: Value) -> u64 {
        fixtures::check_event(event_name, &data);
        let guild_id = fixtures::guild_of_event(event_name, &data);
        loop {
            let conn = self
                .conn_for(&Self::waiting_for(event_name, guild_id), guild_id)
                .await;
            let tx = conn.tx;
            let data = self.apply_intents(event_name, data.clone(), &conn.session_id);
            if event_name == "INTERACTION_CREATE" {
                self.mark_dispatched(&data);
            }
            let (done_tx, done_rx) = oneshot::channel();
            let cmd = GwCmd::Dispatch {
                t: event_name.to_owned(),
                d: data,
                done: done_tx,
            };
            if tx.send(cmd).is_err() {
                continue;
            }
            if let Ok(seq) = done_rx.await {
                return seq;
            }
        }
    }

    /// Like [`Self::dispatch`] without any check or intent rule: for events serenity is meant to
    /// reject or does not know.
    pub async fn dispatch_raw(&self, event_name: &str, data: Value) -> u64 {
        let guild_id = fixtures::guild_of_event(event_name, &data);
        loop {
            let tx = self
                .conn_for(&Self::waiting_for(event_name, guild_id), guild_id)
                .await
                .tx;
            let (done_tx, done_rx) = oneshot::channel();
            let cmd = GwCmd::Dispatch {
                t: event_name.to_owned(),
                d: data.clone(),
                done: done_tx,
            };
            if tx.send(cmd).is_err() {
                continue;
            }
            if let Ok(seq) = done_rx.await {
                return seq;
            }
        }
    }

    fn apply_intents(&self, event_name: &str, mut data: Value, session_id: &str) -> Value {
        if event_name != "MESSAGE_CREATE" && event_name != "MESSAGE_UPDATE" {
            return data;
        }
        let intents = self
            .shared
            .lock()
            .sessions
            .get(session_id)
            .map_or(0, |s| s.intents);
        let in_guild = data.get("guild_id").is_some_and(|g| !g.is_null());
        let (needed, name) = if in_guild {
            (1 << 9, "GUILD_MESSAGES")
        } else {
            (1 << 12, "DIRECT_MESSAGES")
        };
        assert!(
            intents & needed != 0,
            "fake discord: the bot identified without the {name} intent (intents {intents}), so \
             Discord would not deliver this {event_name}"
        );
        let mentions_bot = data["mentions"].as_array().is_some_and(|m| {
            m.iter()
                .any(|u| fixtures::id_of(&u["id"]) == Some(BOT_USER_ID))
        });
        let by_bot = fixtures::id_of(&data["author"]["id"]) == Some(BOT_USER_ID);
        if in_guild && intents & (1 << 15) == 0 && !mentions_bot && !by_bot {
            eprintln!(
                "fake discord: the bot has no MESSAGE_CONTENT intent: {event_name} sent with empty content"
            );
            data["content"] = json!("");
            data["embeds"] = json!([]);
            data["attachments"] = json!([]);
            data["components"] = json!([]);
        }
        data
    }

    fn mark_dispatched(&self, data: &Value) {
        let Some(token) = data["token"].as_str() else {
            return;
        };
        if let Some(ix) = self.shared.lock().interactions.get_mut(token) {
            ix.dispatched_at = Some(Instant::now());
        }
    }

    async fn send_cmd(&self, what: &str, make: impl FnOnce(oneshot::Sender<()>) -> GwCmd) -> u64 {
        let Some(live) = self.gw().live else {
            panic!("fake discord: {what}: no bot is connected to the gateway");
        };
        let (done_tx, done_rx) = oneshot::channel();
        if live.tx.send(make(done_tx)).is_ok() {
            let _ = tokio::time::timeout(Duration::from_secs(5), done_rx).await;
        }
        live.number
    }

    /// Closes the current gateway connection abruptly (TCP closed, no close frame), as a network
    /// failure would; the bot must reconnect (see [`Self::wait_reconnect`]). Returns the number of
    /// the connection dropped. Panics if no bot is connected.
    pub async fn drop_gateway(&self) -> u64 {
        self.send_cmd("drop_gateway", |done| GwCmd::Drop { done })
            .await
    }

    /// Closes the current gateway connection with a close frame carrying `code` (4000 unknown
    /// error: the bot resumes; 4009 session timed out: it identifies again; 4004 authentication
    /// failed: serenity gives up). Returns the number of the connection closed.
    pub async fn close_gateway(&self, code: u16) -> u64 {
        self.send_cmd("close_gateway", |done| GwCmd::Close { code, done })
            .await
    }

    /// Sends op 9 (invalid session) with `d = resumable` on the current connection. serenity
    /// resumes on a new connection at once when `resumable`, otherwise identifies again (about
    /// 5 s later). Returns the number of the connection.
    pub async fn invalidate_session(&self, resumable: bool) -> u64 {
        self.send_cmd("invalidate_session", |done| GwCmd::InvalidSession {
            resumable,
            done,
        })
        .await
    }

    /// Puts a TCP relay in front of the gateway and hands out its address from `GET /gateway`
    /// (call it before the bot starts): [`Self::reset_gateway`] can then reset connections.
    pub async fn relay_gateway(&self) {
        let relay = relay::Relay::start(self.addr, self.shared.shutdown_tx.subscribe()).await;
        self.shared.lock().relay = Some(relay);
    }

    /// Resets (TCP RST) every gateway connection through the relay, as a network failure
    /// would; the bot resumes on a new connection. Panics without [`Self::relay_gateway`].
    pub fn reset_gateway(&self) {
        let relay = self.shared.lock().relay.clone();
        let relay = relay.expect("fake discord: reset_gateway needs relay_gateway first");
        relay.resets.send_modify(|n| *n += 1);
    }

    /// While held, a RESUME (op 6) is counted ([`Self::resume_requests`]) but not answered
    /// until [`Self::release_resumes`]: a test sees the bot between its reconnection and its
    /// RESUMED.
    pub fn hold_resumes(&self) {
        self.shared.gw_tx.send_modify(|v| v.resumes_held = true);
    }

    /// Answers the RESUMEs held, and those to come.
    pub fn release_resumes(&self) {
        self.shared.gw_tx.send_modify(|v| v.resumes_held = false);
    }

    /// RESUMEs (op 6) received so far, answered or not.
    pub fn resume_requests(&self) -> u64 {
        self.gw().resume_requests
    }

    /// Sends op 7 (reconnect) on the current connection: the bot reconnects and resumes. Returns
    /// the number of the connection.
    pub async fn request_reconnect(&self) -> u64 {
        self.send_cmd("request_reconnect", |done| GwCmd::Reconnect { done })
            .await
    }

    // ----- Settings and state --------------------------------------------------------------

    /// Sets the bot's permissions in the server (`app_permissions` of interactions).
    pub fn set_app_permissions(&self, bits: u64) {
        self.shared.lock().app_permissions = bits;
    }

    /// Sets a member's permissions (`member.permissions` in interactions); the default is an
    /// ordinary member's (view, send, threads, reactions, attachments, commands).
    pub fn set_member_permissions(&self, user_id: u64, bits: u64) {
        self.shared.lock().member_permissions.insert(user_id, bits);
    }

    /// When set, an initial interaction response later than this after the dispatch of the
    /// interaction gets 404 "Unknown interaction" (Discord allows 3 s). Off by default.
    pub fn set_interaction_deadline(&self, deadline: Option<Duration>) {
        self.shared.lock().interaction_deadline = deadline;
    }

    /// Closes (or opens) a user's DMs: the bot can still open the DM channel, but sending to it
    /// gets 403 "Cannot send messages to this user" (code 50007), as on Discord.
    pub fn set_dms_closed(&self, user_id: u64, closed: bool) {
        let mut st = self.shared.lock();
        if closed {
            st.dms_closed.insert(user_id);
        } else {
            st.dms_closed.remove(&user_id);
        }
    }

    /// Makes a user known to the fake (fixtures do this for the users they are given): `GET
    /// /users/{id}`, DM channels and mentions use it.
    pub fn add_user(&self, user: &FakeUser) {
        self.shared.lock().users.insert(user.id, user.clone());
    }

    /// Adds a text channel (type 0) to the server, for tests that need more than [`CHANNEL_ID`].
    pub fn add_text_channel(&self, id: u64, name: &str) {
        self.add_text_channel_in(GUILD_ID, id, name);
    }

    /// Adds a text channel (type 0) to a server ([`GUILD_ID`] or one added with
    /// [`Self::add_guild`]).
    pub fn add_text_channel_in(&self, guild_id: u64, id: u64, name: &str) {
        let mut st = self.shared.lock();
        assert!(
            st.knows_guild(guild_id),
            "fake discord: unknown server {guild_id} (add it with add_guild)"
        );
        st.channels
            .insert(id, fixtures::text_channel_json_in(guild_id, id, name));
    }

    /// Adds a server (or, for [`GUILD_ID`], makes the default one announced): the shard that
    /// owns it ([`Self::shard_of_guild`]) gets it in READY's `guilds` (unavailable), then a
    /// GUILD_CREATE with its text channels, when it identifies from now on. Its members are the
    /// known users; add its channels with [`Self::add_text_channel_in`].
    pub fn add_guild(&self, guild_id: u64, name: &str) {
        assert!(
            guild_id >> 22 != 0,
            "fake discord: {guild_id} is not a snowflake Discord would hand out"
        );
        self.shared.lock().guilds.insert(guild_id, name.to_owned());
    }

    /// The channel with this id as the fake stores it (guild channel, thread or DM).
    pub fn channel(&self, id: u64) -> Option<Value> {
        self.shared.lock().channels.get(&id).cloned()
    }

    /// The threads created so far (current state, oldest first).
    pub fn threads(&self) -> Vec<Value> {
        let st = self.shared.lock();
        st.thread_order
            .iter()
            .filter_map(|id| st.channels.get(id).cloned())
            .collect()
    }

    /// The users the bot made members of a thread (and did not take out), by id.
    pub fn thread_members(&self, thread: u64) -> Vec<u64> {
        self.shared
            .lock()
            .thread_members
            .get(&thread)
            .map(|m| m.keys().copied().collect())
            .unwrap_or_default()
    }

    /// The DM channel opened with this user, if the bot opened one.
    pub fn dm_channel_of(&self, user_id: u64) -> Option<u64> {
        self.shared.lock().dm_by_recipient.get(&user_id).copied()
    }

    /// A message as currently stored (after edits); `None` if unknown or deleted.
    pub fn message(&self, id: u64) -> Option<Value> {
        let st = self.shared.lock();
        if st.deleted_messages.contains(&id) {
            return None;
        }
        st.messages.get(&id).cloned()
    }

    /// The messages of a channel as currently stored (oldest first, deleted ones left out,
    /// ephemeral ones included).
    pub fn channel_messages(&self, channel_id: u64) -> Vec<Value> {
        let st = self.shared.lock();
        st.channel_messages
            .get(&channel_id)
            .into_iter()
            .flatten()
            .filter(|id| !st.deleted_messages.contains(id))
            .filter_map(|id| st.messages.get(id).cloned())
            .collect()
    }

    /// The commands registered (global ones first, then per server), as the fake echoed them
    /// (with ids).
    pub fn registered_commands(&self) -> Vec<Value> {
        let st = self.shared.lock();
        let mut all = st.global_commands.clone();
        for cmds in st.guild_commands.values() {
            all.extend(cmds.iter().cloned());
        }
        all
    }

    /// The option `option` of the registered chat command `command` (the last registration of
    /// it: per server ones win over global ones), as the fake echoed it; `None` if either is
    /// not registered.
    pub fn registered_option(&self, command: &str, option: &str) -> Option<Value> {
        self.registered_commands()
            .into_iter()
            .rev()
            .filter(|c| c["type"].as_u64().unwrap_or(1) == 1 && c["name"] == command)
            .find_map(|c| {
                c["options"]
                    .as_array()?
                    .iter()
                    .find(|o| o["name"] == option)
                    .cloned()
            })
    }

    /// Deletes a channel or a thread, as a server manager would; a text channel's threads go
    /// with it. From now on every call on it answers 404 Unknown Channel (10003). Returns the
    /// ids deleted (the channel first). Panics if the fake does not know the channel.
    pub fn delete_channel(&self, id: u64) -> Vec<u64> {
        let mut st = self.shared.lock();
        let Some(ch) = st.channels.remove(&id) else {
            drop(st);
            panic!("fake discord: delete_channel: unknown channel {id}");
        };
        let mut gone = vec![id];
        st.deleted_channels.insert(id, ch);
        let threads: Vec<u64> = st
            .channels
            .iter()
            .filter(|(_, c)| {
                c.get("thread_metadata").is_some() && fixtures::id_of(&c["parent_id"]) == Some(id)
            })
            .map(|(t, _)| *t)
            .collect();
        for t in threads {
            if let Some(c) = st.channels.remove(&t) {
                st.deleted_channels.insert(t, c);
                gone.push(t);
            }
        }
        st.dm_by_recipient.retain(|_, c| !gone.contains(c));
        gone
    }

    /// Whether the channel was deleted with [`Self::delete_channel`].
    pub fn is_deleted(&self, id: u64) -> bool {
        self.shared.lock().deleted_channels.contains_key(&id)
    }

    /// The bot loses access to a channel (and, for a text channel, its threads): every call on
    /// it answers 403 with `code`, 50001 (Missing Access: it cannot see it) or 50013 (Missing
    /// Permissions: it cannot post there).
    pub fn forbid_channel(&self, id: u64, code: u64) {
        assert!(
            matches!(code, 50001 | 50013),
            "fake discord: forbid_channel: Discord answers 50001 or 50013, not {code}"
        );
        self.shared.lock().forbidden_channels.insert(id, code);
    }

    /// Gives the access taken by [`Self::forbid_channel`] back.
    pub fn allow_channel(&self, id: u64) {
        self.shared.lock().forbidden_channels.remove(&id);
    }

    /// A moderator archives and locks `thread`: every message the bot sends there answers 400
    /// with code 50083 (an operation on an archived thread), as Discord does.
    pub fn archive_thread(&self, thread: u64) {
        self.shared.lock().archived.insert(thread);
    }

    /// The bot lacks Attach Files in a text channel and its threads: a message with files
    /// answers 403 (50013, Missing Permissions); plain text still goes through.
    pub fn refuse_files(&self, channel: u64) {
        self.shared
            .lock()
            .refused_rights
            .entry(channel)
            .or_default()
            .no_files = true;
    }

    /// The bot lacks Send Messages in Threads in a text channel: a message in any of its
    /// threads answers 403 (50013); the channel itself and making threads still work.
    pub fn refuse_thread_posts(&self, channel: u64) {
        self.shared
            .lock()
            .refused_rights
            .entry(channel)
            .or_default()
            .no_thread_posts = true;
    }

    /// The bot lacks Read Message History in a channel (and its threads): a message with a
    /// `message_reference` (a reply) answers 403 (160002); other messages go through.
    pub fn refuse_replies(&self, channel: u64) {
        self.shared
            .lock()
            .refused_rights
            .entry(channel)
            .or_default()
            .no_replies = true;
    }

    /// Opens the DM channel between the bot and `user` (as the user writing to the bot first
    /// would), and returns it.
    pub fn open_dm(&self, user: &FakeUser) -> u64 {
        self.add_user(user);
        let mut st = self.shared.lock();
        if let Some(id) = st.dm_by_recipient.get(&user.id) {
            return *id;
        }
        let id = self.shared.snowflake();
        let ch = json!({
            "id": id.to_string(),
            "type": 1,
            "last_message_id": null,
            "flags": 0,
            "recipients": [user.json()],
        });
        st.channels.insert(id, ch);
        st.dm_by_recipient.insert(user.id, id);
        id
    }

    /// Sets the most the files of one request may weigh ([`DEFAULT_UPLOAD_LIMIT`] by default);
    /// heavier requests answer 413 (40005) and store nothing.
    pub fn set_upload_limit(&self, bytes: usize) {
        self.shared.lock().upload_limit = bytes;
    }

    /// The upload limit in force.
    pub fn upload_limit(&self) -> usize {
        self.shared.lock().upload_limit
    }

    /// With `true`, every bot token is refused (401 on REST, close 4004 on IDENTIFY); with
    /// `false`, every token is accepted again.
    pub fn reject_tokens(&self, reject: bool) {
        self.shared.lock().accepted_tokens = reject.then(HashSet::new);
    }

    /// Accepts these bot tokens only (without the `Bot ` prefix); any other is refused as with
    /// [`Self::reject_tokens`].
    pub fn accept_only_tokens(&self, tokens: &[&str]) {
        self.shared.lock().accepted_tokens = Some(tokens.iter().map(|t| (*t).to_owned()).collect());
    }

    // ----- Recording -----------------------------------------------------------------------

    /// Every REST call so far, oldest first.
    pub fn calls(&self) -> Vec<Recorded> {
        self.shared.lock().calls.clone()
    }

    /// The number of REST calls so far (a mark for [`Self::calls_since`] and
    /// [`Self::wait_for_since`]).
    pub fn call_count(&self) -> usize {
        self.shared.lock().calls.len()
    }

    /// The REST calls after the first `n`.
    pub fn calls_since(&self, n: usize) -> Vec<Recorded> {
        let st = self.shared.lock();
        st.calls
            .get(n..)
            .map(<[Recorded]>::to_vec)
            .unwrap_or_default()
    }

    /// Waits for a REST call (among all calls so far and to come) matching `pred`; panics after
    /// `timeout` naming `what` and listing the last calls.
    pub async fn wait_for(
        &self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&Recorded) -> bool,
    ) -> Recorded {
        self.wait_for_since(0, what, timeout, pred).await
    }

    /// Like [`Self::wait_for`], looking only at calls after the first `n` (see
    /// [`Self::call_count`]).
    pub async fn wait_for_since(
        &self,
        n: usize,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&Recorded) -> bool,
    ) -> Recorded {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut rx = self.shared.calls_tx.subscribe();
        let mut next = n;
        loop {
            rx.borrow_and_update();
            let fresh = self.calls_since(next);
            for rec in fresh {
                next += 1;
                if pred(&rec) {
                    return rec;
                }
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => panic!("fake discord: recording gone while waiting for {what}"),
                Err(_) => panic!(
                    "fake discord: {what}: no such call within {timeout:?}. Last calls:\n{}",
                    self.dump_calls(25)
                ),
            }
        }
    }

    /// The last `n` calls, one line each.
    pub fn dump_calls(&self, n: usize) -> String {
        let st = self.shared.lock();
        let start = st.calls.len().saturating_sub(n);
        let mut out = String::new();
        for (i, c) in st.calls.iter().enumerate().skip(start) {
            let _ = writeln!(out, "  #{i} {}", c.summary());
        }
        if out.is_empty() {
            out.push_str("  (none)\n");
        }
        out
    }

    /// The successful calls that made a message visible in this channel (channel messages,
    /// interaction replies and follow-ups there), oldest first.
    pub fn messages_in(&self, channel_id: u64) -> Vec<Recorded> {
        let st = self.shared.lock();
        st.calls
            .iter()
            .filter(|c| c.ok())
            .filter(|c| {
                c.created
                    .as_ref()
                    .is_some_and(|m| fixtures::id_of(&m["channel_id"]) == Some(channel_id))
            })
            .cloned()
            .collect()
    }

    /// The calls answering an interaction: its callback, and the follow-ups and edits made with
    /// its token (oldest first).
    pub fn interaction_responses(&self, interaction_id: u64) -> Vec<Recorded> {
        let st = self.shared.lock();
        let callback = format!("/api/v10/interactions/{interaction_id}/");
        let webhook = st
            .interaction_tokens
            .get(&interaction_id)
            .map(|t| format!("/api/v10/webhooks/{APP_ID}/{t}"));
        st.calls
            .iter()
            .filter(|c| {
                c.path.starts_with(&callback)
                    || webhook
                        .as_ref()
                        .is_some_and(|w| c.path == *w || c.path.starts_with(&format!("{w}/")))
            })
            .cloned()
            .collect()
    }

    /// The routes the fake does not know, as `METHOD /path`, in the order they were asked.
    pub fn unknown_routes(&self) -> Vec<String> {
        self.shared.lock().unknown.clone()
    }

    /// Panics listing the unknown routes, if any were asked.
    pub fn assert_no_unknown_routes(&self) {
        let unknown = self.unknown_routes();
        assert!(
            unknown.is_empty(),
            "fake discord: the bot called routes the fake does not know:\n  {}",
            unknown.join("\n  ")
        );
    }

    /// The calls answered with an error (4xx/5xx) that [`Self::fail_next`] did not inject.
    pub fn errors(&self) -> Vec<Recorded> {
        let st = self.shared.lock();
        st.calls
            .iter()
            .filter(|c| !c.ok() && !c.injected)
            .cloned()
            .collect()
    }

    /// Internal problems of the fake (a reply serenity could not read); should stay empty.
    pub fn problems(&self) -> Vec<String> {
        self.shared.lock().problems.clone()
    }

    /// Panics if there was an unknown route, an error answer the test did not inject (a request
    /// Discord would refuse), or an internal problem of the fake.
    pub fn assert_clean(&self) {
        self.assert_no_unknown_routes();
        let errors = self.errors();
        let problems = self.problems();
        assert!(
            errors.is_empty() && problems.is_empty(),
            "fake discord: refused requests:\n  {}\nproblems:\n  {}",
            errors
                .iter()
                .map(|c| format!(
                    "{} => {}",
                    c.summary(),
                    c.response
                        .as_ref()
                        .map(Value::to_string)
                        .unwrap_or_default()
                ))
                .collect::<Vec<_>>()
                .join("\n  "),
            problems.join("\n  ")
        );
    }

    // ----- Faults --------------------------------------------------------------------------

    /// The next request with this method (`"*"` for any) whose path starts with `path_prefix`
    /// (`/channels/1/messages` or the full `/api/v10/...`) is answered with `status` and a JSON
    /// error, changes nothing, and is recorded with that status (`injected`); later ones are
    /// served normally. Several calls queue several failures.
    pub fn fail_next(&self, method: &str, path_prefix: &str, status: u16) {
        self.shared
            .lock()
            .failures
            .push((Fault::new(method, path_prefix), status));
    }

    /// The next `n` requests matching (as for [`Self::fail_next`]) are answered with `status`.
    pub fn fail_times(&self, method: &str, path_prefix: &str, status: u16, n: usize) {
        let fault = Fault::new(method, path_prefix);
        let mut st = self.shared.lock();
        for _ in 0..n {
            st.failures.push((fault.clone(), status));
        }
    }

    /// The next matching request (as for [`Self::fail_next`]) is held before it is answered
    /// until the returned [`Hold`] is released; [`Hold::arrived`] says when it came. A test
    /// forces "a command is in flight" with it, without guessing at timing.
    pub fn hold_next(&self, method: &str, path_prefix: &str) -> Arc<Hold> {
        let hold = Arc::new(Hold::default());
        self.shared
            .lock()
            .holds
            .push((Fault::new(method, path_prefix), hold.clone()));
        hold
    }

    /// The next matching request (as for [`Self::fail_next`]) is answered only after `delay`.
    pub fn delay_next(&self, method: &str, path_prefix: &str, delay: Duration) {
        self.shared
            .lock()
            .delays
            .push((Fault::new(method, path_prefix), delay));
    }
}
