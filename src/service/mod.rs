//! The command core: everything a player does, independent of any transport. A `Request` (who,
//! where, which `Command`) goes in; a `Reply` (text, an optional image, buttons, who to notify and
//! how) comes out. The Discord adapter and the console are thin layers over `Service::handle`.
//!
//! It speaks of user ids, channel ids and texts: no Discord type crosses into it. It uses the
//! engine for rules, the store for games, and the renderer for pictures. The rules the store
//! must not hold live here too: ratings (`ratings`), deadlines and vacations (`clock`); the core
//! computes the rows and the store writes them, each guarded by what it was computed from.

pub mod catalog;
mod clock;
mod command;
mod computer;
pub mod conditional;
mod delivery;
pub mod export;
mod follow;
mod ids;
pub mod league;
pub mod learn;
mod long;
mod names;
pub mod picker;
mod play;
pub mod ratings;
mod speech;
mod suggest;
pub mod timing;
mod views;
mod zone;

pub use crate::i18n::words::piece_name;
pub use clock::{Sweep, MAX_REMIND_HOURS};
pub use command::{
    parse as parse_command, parse_mention, Bound, ColorChoice, Command, CommandError,
    ConditionalCommand, LeagueArgs, LeagueCommand, OfferAction, BOUNDS, MAX_LENGTHS,
};
pub use computer::{
    default_analysis_budget, default_analysis_limit, swing_lines, Worker, ANALYSIS_NODES,
    DEFAULT_LEVEL, FAULT_COMPUTER_WAITS_FOR, FAULT_SEARCH_PANICS, PANICS_IN_A_ROW, RETRY_DELAY,
    WORKER_QUEUE,
};
pub use delivery::GameHome;
pub use follow::{FollowHow, FOLLOW_NOTIFY};
pub use long::{
    default_long_limit, AnalysisSlot, Busy, Ticket as LongTicket, FAULT_LONG_PAUSED,
    MAX_LONG_PER_USER, MAX_LONG_WAITING,
};
pub use names::escape_markdown;
pub use play::{
    game_buttons, MAX_COMPUTER_GAMES, MAX_DAILY_TO_ONE, MAX_OPEN_CHALLENGES, MAX_OPEN_TO_ONE,
};
pub use speech::{default_notation, Voice};
pub use suggest::Suggestion;
pub use timing::ClockArgs;
pub use views::{find_kind, help_in, piece_diagram};
pub use zone::{suggest_zones, Zone};

pub(crate) use ids::new_notice_id;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};

use thiserror::Error;

use crate::i18n::Msg;
use crate::msg;
use tracing::error;

use crate::engine::notation::{code, fen};
use crate::engine::{Color, Game, Move, Variant, VariantId};
use crate::store::{GameRow, GameStatus, Store, StoreError};

/// Seconds in a day.
pub const DAY: i64 = 86_400;

/// The largest attachment the bot sends: Discord's smallest upload limit (8 MiB, a server
/// without boosts). Replies keep their files under it (a long game's replay is made smaller);
/// the adapter checks every attachment against it before sending, with a text fallback.
pub const MAX_ATTACHMENT: usize = 8 * 1024 * 1024;

/// Where "now" comes from: the system clock, or a clock tests and the console set by hand.
pub trait Clock: Send + Sync {
    /// Unix seconds.
    fn now(&self) -> i64;
}

/// The system clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    }
}

/// The test switch `TEGAMI_FAULT_CLOCK=RFC3339` of `tegami run`: the bot's clock starts at that
/// time and runs on from there (end-to-end tests reach a player's digest hour with it).
pub const FAULT_CLOCK: &str = "TEGAMI_FAULT_CLOCK";

/// A clock that stands still until set.
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(now: i64) -> ManualClock {
        ManualClock(AtomicI64::new(now))
    }

    pub fn set(&self, now: i64) {
        self.0.store(now, Ordering::SeqCst);
    }

    pub fn advance(&self, secs: i64) {
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Settings of the core.
#[derive(Clone, Debug)]
pub struct Config {
    /// Days per move when a challenge does not say.
    pub default_days: u32,
    /// Days an unaccepted challenge stays open.
    pub challenge_days: u32,
    /// Whether replies carry board pictures.
    pub images: bool,
    /// Whether the transport renders markdown in texts (Discord): names are then escaped
    /// (`escape_markdown`) to show as typed. Off for the console and the command line.
    pub markdown: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            default_days: 3,
            challenge_days: 7,
            images: true,
            markdown: false,
        }
    }
}

/// Days per move a game may have.
pub const ALLOWED_DAYS: &[u32] = &[1, 2, 3, 5, 7, 10, 14];

/// Refuses days per move a game may not have.
pub(crate) fn check_days(days: u32) -> Result<(), CoreError> {
    if ALLOWED_DAYS.contains(&days) {
        return Ok(());
    }
    let allowed: Vec<String> = ALLOWED_DAYS.iter().map(|d| d.to_string()).collect();
    user_err(msg!("core-days-allowed", days = allowed.join(", ")))
}

/// A user's id: a Discord user id (a snowflake, in decimal) on Discord, a name at the console.
/// Never shown to players: replies name users by their display name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UserId(String);

impl UserId {
    pub fn new(id: impl Into<String>) -> UserId {
        UserId(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for UserId {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for UserId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for UserId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for UserId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for UserId {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl PartialEq<UserId> for String {
    fn eq(&self, other: &UserId) -> bool {
        *self == other.0
    }
}

impl PartialEq<UserId> for &str {
    fn eq(&self, other: &UserId) -> bool {
        *self == other.0
    }
}

/// A user a command names (an opponent, whose games or stats): their id, and their global
/// display name when the transport knows it (Discord resolves it with the command's options;
/// the console's names are their ids), and their nickname in the server the command was sent
/// in when the transport saw them there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRef {
    pub id: UserId,
    pub name: Option<String>,
    /// `Some(nick)`: the transport saw them as a member of the command's server, where their
    /// nickname is `nick` (`Some(None)`: they have none there). `None`: not known.
    pub nick: Option<Option<String>>,
}

impl UserRef {
    pub fn named(id: impl Into<String>, name: impl Into<String>) -> UserRef {
        UserRef {
            id: UserId::new(id),
            name: Some(name.into()),
            nick: None,
        }
    }

    /// A user known only by id (the name is looked up, or the id shown at the console).
    pub fn id_only(id: impl Into<String>) -> UserRef {
        UserRef {
            id: UserId::new(id),
            name: None,
            nick: None,
        }
    }

    /// The same user, seen as a member of the command's server with this nickname there
    /// (`None`: none).
    pub fn with_nick(self, nick: Option<String>) -> UserRef {
        UserRef {
            nick: Some(nick),
            ..self
        }
    }
}

/// Who sends a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    /// Their global display name; refreshed in the store when it changes. Texts shown outside
    /// the servers they have a nickname in (direct messages too) name them by it.
    pub name: String,
    /// Their nickname in the server the command was sent in (`None`: they have none there, or
    /// the command was not sent in a server); refreshed in the store for that server only.
    pub nick: Option<String>,
    /// The locale of their client for this command (Discord's `locale`: `ja`, `en-US`, …), if
    /// the transport knows it; kept in the store for their notices.
    pub locale: Option<String>,
    /// How the reply speaks to them: set by the core for each command (see `speech`), from
    /// their settings and `locale`; what the transport puts here is not read.
    pub voice: Voice,
}

impl User {
    /// A user by their id and global display name, with no nickname.
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> User {
        User {
            id: UserId::new(id),
            name: name.into(),
            nick: None,
            locale: None,
            voice: Voice::default(),
        }
    }

    /// The same user, whose client speaks `locale` (Discord's `locale`: `ja`, `en-US`, …).
    pub fn with_locale(self, locale: Option<String>) -> User {
        User { locale, ..self }
    }

    /// The same user with their nickname in the command's server (`None`: none).
    pub fn with_nick(self, nick: Option<String>) -> User {
        User { nick, ..self }
    }
}

/// Where a command was sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub guild: Option<String>,
    pub channel: Option<String>,
    /// The sender manages this server (may change its settings).
    pub admin: bool,
    /// The server's locale (Discord's `guild_locale`), if the transport knows it: the language
    /// of the server's public posts unless its managers chose one (`/server language`).
    pub locale: Option<String>,
}

/// A command from a user, somewhere.
#[derive(Clone, Debug)]
pub struct Request {
    pub user: User,
    pub place: Place,
    pub command: Command,
}

/// How to tell a user something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// A mention in the game's channel (or thread).
    Mention,
    /// A direct message.
    Dm,
    /// The public announcement of a move in its game's home (thread or channel), with the
    /// board after it (`Notice::ply`); `Notice::user` is the player whose view the board shows.
    Post,
}

impl Via {
    /// The outbox's word for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Mention => "mention",
            Via::Dm => "dm",
            Via::Post => "post",
        }
    }

    /// From the outbox's word (anything unknown is a mention, the oldest kind).
    pub fn parse(s: &str) -> Via {
        match s {
            "dm" => Via::Dm,
            "post" => Via::Post,
            _ => Via::Mention,
        }
    }
}

/// Someone to notify.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub user: String,
    pub via: Via,
    /// The channel of the game, for mentions.
    pub channel: Option<String>,
    pub text: String,
    /// The outbox row that keeps the notice until it is delivered (`mark_sent`); every notice
    /// of the core has one.
    pub id: Option<i64>,
    /// The game it is about, if one.
    pub game: Option<i64>,
    /// For a `Post`: the ply whose board goes with it.
    pub ply: Option<u32>,
    /// The league it is about, if one: a league's `Post` goes to the league's home, with its
    /// standings picture.
    pub league: Option<i64>,
}

/// A button under a reply; pressing it runs `command` as the presser.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    pub label: String,
    pub command: String,
}

/// A file sent with a reply: a board picture (PNG), a replay (GIF), a record or export (text).
/// Its kind is its name's extension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    pub name: String,
    pub data: Vec<u8>,
}

impl Attachment {
    pub fn new(name: impl Into<String>, data: Vec<u8>) -> Attachment {
        Attachment {
            name: name.into(),
            data,
        }
    }

    /// Whether this is a picture (PNG or GIF).
    pub fn is_image(&self) -> bool {
        self.name.ends_with(".png") || self.name.ends_with(".gif")
    }
}

/// What the core answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    /// Files sent with the text: the board picture first when there is one.
    pub attachments: Vec<Attachment>,
    pub buttons: Vec<Button>,
    pub notify: Vec<Notice>,
    /// The game the reply is about, if one: the adapter posts in its thread and marks buttons
    /// with its ply.
    pub game: Option<GameRef>,
    /// The command was refused (bad input, not allowed, not now): shown to the sender only.
    pub error: bool,
    /// The computer is now to move in this game: the transport queues it on the computer's
    /// [`Worker`].
    pub think: Option<i64>,
    /// The public announcement of a move (`Via::Post`), stored in the outbox with the move:
    /// the transport posts it with this reply's board and marks it sent; if that fails, its
    /// delivery loop posts it later with the board drawn again.
    pub post: Option<Notice>,
    /// A league just created: the adapter may make the league's thread from the announcement.
    pub league: Option<i64>,
    /// The sender just followed or unfollowed a game: the adapter adds them to its thread, or
    /// takes them out of the thread they were added to.
    pub follow: Option<FollowChange>,
    /// The move picker's step (`pick`): the transport shows its menus and buttons, to the
    /// sender only, in place of the previous step.
    pub picker: Option<picker::Picker>,
}

/// A change of the threads a follower is a member of (see [`Reply::follow`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FollowChange {
    /// They follow this game in its thread now: added to it (through the core's list of
    /// followers not yet added, so that a failure is tried again).
    Followed(i64),
    /// They no longer follow a game whose thread they were added to.
    Unfollowed { game: i64, thread: String },
}

/// The game a reply is about, as it stands after the command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRef {
    pub id: i64,
    pub ply: u32,
    /// The game has just started (its thread may be made now).
    pub started: bool,
    /// The game is over.
    pub over: bool,
}

impl Reply {
    /// The board picture, if the reply has one.
    pub fn image(&self) -> Option<&Attachment> {
        self.attachments.iter().find(|a| a.name.ends_with(".png"))
    }

    pub fn text(t: impl Into<String>) -> Reply {
        Reply {
            text: t.into(),
            ..Reply::default()
        }
    }

    pub fn error(t: impl Into<String>) -> Reply {
        Reply {
            text: t.into(),
            error: true,
            ..Reply::default()
        }
    }
}

/// Why a command failed.
#[derive(Debug, Error)]
pub enum CoreError {
    /// The user's mistake or a refusal: shown plainly, in the sender's language.
    #[error("{0}")]
    User(Msg),
    /// Refused, but the attempt ended a game (an act after the deadline loses on time): shown
    /// plainly, and the reply names the game (its thread can be closed; the players are told
    /// by the notices stored with the ending).
    #[error("{0}")]
    Ended(Msg, GameRef, Vec<Notice>),
    /// Ours: logged with its context; the user gets a short apology.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<StoreError> for CoreError {
    fn from(e: StoreError) -> CoreError {
        match e {
            StoreError::Conflict | StoreError::Stale => CoreError::User(msg!("err-changed")),
            StoreError::NotFound => CoreError::User(msg!("err-not-found")),
            other => CoreError::Internal(other.to_string()),
        }
    }
}

/// At most this many attempts at a change computed from rows that may move on meanwhile (each
/// attempt reads them afresh; every failed one means another change of the same rows
/// committed, so only a player with that many games ending at once could run out).
pub(crate) const RETRIES: usize = 10;

pub(crate) fn user_err<T>(msg: impl Into<Msg>) -> Result<T, CoreError> {
    Err(CoreError::User(msg.into()))
}

/// A stored game with its replayed engine state.
pub(crate) struct Loaded {
    pub row: GameRow,
    pub game: Game,
}

impl Loaded {
    pub fn variant(&self) -> &'static Variant {
        self.game.variant()
    }

    /// The side a user plays, if they play in this game.
    pub fn side_of(&self, user: &str) -> Option<Color> {
        if self.row.players[0] == user {
            Some(Color::Black)
        } else if self.row.players[1] == user {
            Some(Color::White)
        } else {
            None
        }
    }

    pub fn player(&self, c: Color) -> &str {
        &self.row.players[c.index()]
    }

    /// The game as a reply refers to it.
    pub fn game_ref(&self, started: bool) -> GameRef {
        GameRef {
            id: self.row.id,
            ply: self.row.ply,
            started,
            over: self.row.status != GameStatus::Active,
        }
    }

    /// The user whose turn it is.
    pub fn to_move(&self) -> &str {
        self.player(self.game.position().side_to_move())
    }
}

/// The command core.
pub struct Service {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) config: Config,
    /// Legal moves in human notation per game version, for autocomplete.
    pub(crate) suggestions: suggest::Cache,
    /// The computer (the bot's own user), once the transport has said.
    pub(crate) computer: RwLock<Option<User>>,
    /// Analyses of finished games: kept, running, and the pool that bounds them.
    pub(crate) analyses: computer::Analyses,
    /// Servers' Discord locales as last recorded by this process (saves a read per command).
    pub(crate) server_locales: RwLock<std::collections::HashMap<String, String>>,
    /// Notices in the hands of the command that made them (see `delivery`).
    pub(crate) held: delivery::Held,
    /// Test switch: drawing a board fails (see [`Service::set_render_fault`]).
    pub(crate) render_fault: std::sync::atomic::AtomicBool,
}

impl Service {
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>, config: Config) -> Service {
        Service {
            store,
            clock,
            config,
            suggestions: suggest::Cache::default(),
            computer: RwLock::new(None),
            analyses: computer::Analyses::default(),
            held: delivery::Held::default(),
            server_locales: RwLock::default(),
            render_fault: std::sync::atomic::AtomicBool::new(false),
        }
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Runs a command. User errors come back as error replies; internal errors are logged and
    /// answered with an apology.
    pub fn handle(&self, req: &Request) -> Reply {
        self.handle_with(req, &|_| {})
    }

    /// `handle`, telling `progress` how a slow command stands while it waits (an analysis
    /// queued behind others: "Your analysis of game #12 is queued: position 2. …"; or sharing
    /// one already running). The transport shows each sentence as it comes (Discord: an edit
    /// of the deferred reply; the console: a line); the reply follows.
    pub fn handle_with(&self, req: &Request, progress: &(dyn Fn(&str) + Sync)) -> Reply {
        let (voice, result) = match self.sender(req) {
            Ok(u) => (u.voice, self.dispatch(&u, req, progress)),
            Err(e) => (speech::voice_for(None, req.user.locale.as_deref()), Err(e)),
        };
        match result {
            Ok(r) => r,
            Err(CoreError::User(msg)) => Reply::error(voice.say(&msg)),
            Err(CoreError::Ended(msg, game, notify)) => Reply {
                game: Some(game),
                notify,
                ..Reply::error(voice.say(&msg))
            },
            Err(CoreError::Internal(msg)) => {
                error!(user = %req.user.id, command = ?req.command, "internal error: {msg}");
                Reply::error(voice.say(&crate::msg!("err-internal")))
            }
        }
    }

    /// Runs a command, returning user errors as errors.
    pub fn try_handle(&self, req: &Request) -> Result<Reply, CoreError> {
        let u = self.sender(req)?;
        self.dispatch(&u, req, &|_| {})
    }

    /// The sender as the command sees them: known under their names (only a read when nothing
    /// changed: commands that only read take no write lock), with the voice of the reply.
    fn sender(&self, req: &Request) -> Result<User, CoreError> {
        let row = self.touch_sender(&req.user, &req.place, self.now())?;
        let voice = self.sender_voice(&req.user, &row, &req.place)?;
        Ok(User {
            voice,
            ..req.user.clone()
        })
    }

    /// Runs the command, then what a game it ended sets off in its league (the league's post,
    /// the next round), whose notices go with the reply.
    fn dispatch(
        &self,
        u: &User,
        req: &Request,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<Reply, CoreError> {
        // Every option within its bounds, whatever the transport, before anything else.
        req.command.validate().map_err(CoreError::User)?;
        let acts = matches!(
            req.command,
            Command::Move { .. }
                | Command::Resign { .. }
                | Command::Declare { .. }
                | Command::Draw { .. }
                | Command::Impasse { .. }
        );
        match self.run(u, req, progress) {
            Ok(mut r) => {
                if let Some(g) = r.game.as_ref().filter(|g| acts && g.over) {
                    r.notify.extend(self.after_league_game(g.id));
                }
                // A move (or a move taken back) may set off a conditional line's answer; the
                // reply to a move says what the answer made of it.
                let moved = matches!(req.command, Command::Move { .. } | Command::Takeback { .. });
                if let Some(g) = r.game.as_ref().filter(|g| moved && !g.over && !r.error) {
                    let steps = self.conditional_steps(g.id);
                    if matches!(req.command, Command::Move { .. }) {
                        self.announce_answers(u, &mut r, steps);
                    } else {
                        r.notify.extend(
                            steps
                                .into_iter()
                                .flat_map(conditional::Stepped::into_notices),
                        );
                    }
                }
                // Followers who asked for a ping at each move are told of what changed.
                if let Some(g) = r.game.as_ref().filter(|_| (acts || moved) && !r.error) {
                    r.notify.extend(self.follow_step(g.id));
                }
                Ok(r)
            }
            Err(CoreError::Ended(m, g, mut notify)) => {
                notify.extend(self.after_league_game(g.id));
                notify.extend(self.follow_step(g.id));
                Err(CoreError::Ended(m, g, notify))
            }
            Err(e) => Err(e),
        }
    }

    fn run(
        &self,
        u: &User,
        req: &Request,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<Reply, CoreError> {
        let place = &req.place;
        match &req.command {
            Command::Challenge {
                opponent,
                variant,
                color,
                days,
                handicap,
                setup,
                rated,
                level,
                clock,
            } => self.challenge(
                u,
                &req.place,
                play::ChallengeArgs {
                    opponent: opponent.clone(),
                    variant: variant.clone(),
                    color: *color,
                    days: *days,
                    handicap: handicap.clone(),
                    setup: setup.clone(),
                    rated: *rated,
                    level: *level,
                    clock: clock.clone(),
                },
            ),
            Command::Accept { challenge } => self.accept(u, place, *challenge),
            Command::Decline { challenge } => self.decline(u, place, *challenge),
            Command::Cancel { challenge } => self.cancel(u, place, *challenge),
            Command::Move {
                game,
                text,
                seen_ply,
            } => self.play_move(u, place, *game, text, *seen_ply),
            Command::Board { game, ply, style } => match ply {
                None => self.board(u, place, *game, style.as_deref()),
                Some(p) => {
                    let id = self.pick_game(u, place, *game)?.row.id;
                    self.show_game(u, place, id, Some(*p), style.as_deref())
                }
            },
            Command::Moves { game, square } => self.moves(u, place, *game, square.as_deref()),
            Command::Pick {
                game,
                path,
                page,
                seen_ply,
            } => self.pick(u, place, *game, path, *page, *seen_ply),
            Command::Resign { game } => self.resign(u, place, *game),
            Command::Declare { game } => self.declare(u, place, *game),
            Command::Draw { game, action } => {
                self.offer(u, place, *game, crate::store::OfferKind::Draw, *action)
            }
            Command::Takeback { game, action } => {
                self.offer(u, place, *game, crate::store::OfferKind::Takeback, *action)
            }
            Command::Impasse { game, action } => {
                self.offer(u, place, *game, crate::store::OfferKind::Impasse, *action)
            }
            Command::Games { user } => self.games(u, place, user.as_ref()),
            Command::History { user } => self.history(u, place, user.as_ref()),
            Command::Game { game, ply } => self.show_game(u, place, *game, *ply, None),
            Command::Record { game } => self.record(u, place, *game),
            Command::Analysis { game } => self.analysis(u, place, *game, progress),
            Command::Replay { game } => self.replay(u, place, *game),
            Command::Export { game, format } => self.export(u, place, *game, format),
            Command::Rules { variant, piece } => self.rules(u, variant, piece.as_deref()),
            Command::Settings {
                style,
                notify,
                remind,
                language,
                notation,
                digest_hour,
                timezone,
                board,
            } => self.settings(
                u,
                views::SettingsChange {
                    style: style.as_deref(),
                    notify: notify.as_deref(),
                    remind: *remind,
                    language: language.as_deref(),
                    notation: notation.as_deref(),
                    digest_hour: *digest_hour,
                    timezone: timezone.as_deref(),
                    board: board.as_deref(),
                },
            ),
            Command::MoreTime { game } => self.more_time(u, place, *game),
            Command::Vacation { days, end } => self.vacation(u, place, *days, *end),
            Command::Stats { user } => self.stats(u, place, user.as_ref()),
            Command::Leaderboard { variant } => self.leaderboard(u, &req.place, variant),
            Command::Server {
                days,
                rated,
                channel,
                language,
                leagues,
                feature,
            } => self.server_settings(
                u,
                &req.place,
                *days,
                *rated,
                channel.clone(),
                language.as_deref(),
                *leagues,
                *feature,
            ),
            Command::Help { topic, form } => {
                Ok(views::help_in(u.voice.lang, *form, topic.as_deref()))
            }
            Command::League(c) => self.league(u, place, c),
            Command::Conditional(c) => self.conditional(u, place, c),
            Command::Follow { game, notify } => match game {
                Some(id) => self.follow(u, place, *id, *notify),
                None => self.follows(u, place),
            },
            Command::Unfollow { game } => self.unfollow(u, place, *game),
        }
    }

    /// Loads a game and replays its moves.
    pub(crate) fn load(&self, id: i64) -> Result<Loaded, CoreError> {
        let (row, moves) = self
            .store
            .game_with_moves(id)?
            .ok_or_else(|| CoreError::User(msg!("core-no-game", id = id)))?;
        let variant = VariantId::parse(&row.variant).ok_or_else(|| {
            CoreError::Internal(format!("game {id}: unknown variant {}", row.variant))
        })?;
        let v = Variant::get(variant);
        let start = fen::parse(v, &row.start_position)
            .map_err(|e| CoreError::Internal(format!("game {id}: bad start position: {e}")))?;
        let mut game = Game::new(start);
        for mv in moves {
            let m: Move = code::parse(game.position(), &mv.code).ok_or_else(|| {
                CoreError::Internal(format!("game {id}: unreadable move {}", mv.code))
            })?;
            game.play(m).map_err(|e| {
                CoreError::Internal(format!(
                    "game {id}: stored move {} is illegal: {e:?}",
                    mv.code
                ))
            })?;
        }
        if fen::write(game.position()) != row.position {
            return Err(CoreError::Internal(format!(
                "game {id}: the move log does not replay to the cached position"
            )));
        }
        Ok(Loaded { row, game })
    }

    /// Whether a game may be seen from `place`: in a server, that server's games; in direct
    /// messages (no server), the user's own.
    pub(crate) fn visible(&self, user: &User, place: &Place, row: &GameRow) -> bool {
        match &place.guild {
            Some(g) => row.guild.as_deref() == Some(g.as_str()),
            None => row.players.iter().any(|p| *p == user.id),
        }
    }

    /// A game by id, if it may be seen from `place` (else, as for a missing game, "there is
    /// no game #N": a game of another server is not there).
    pub(crate) fn load_visible(
        &self,
        user: &User,
        place: &Place,
        id: i64,
    ) -> Result<Loaded, CoreError> {
        self.visible_row(user, place, id)?;
        self.load(id)
    }

    /// The stored row of a game that may be seen from `place` (else "there is no game #N").
    fn visible_row(&self, user: &User, place: &Place, id: i64) -> Result<GameRow, CoreError> {
        match self.store.game(id)? {
            Some(row) if self.visible(user, place, &row) => Ok(row),
            // A challenge's number typed for a game's: say which game it became.
            _ => match self.store.challenge(id)? {
                Some(c) if c.challenger == user.id || c.challenged.as_deref() == Some(&user.id) => {
                    match c.game_id {
                        Some(game) => {
                            user_err(msg!("learn-challenge-became", id = id, game = game))
                        }
                        None => user_err(msg!("learn-challenge-waiting", id = id)),
                    }
                }
                _ => user_err(msg!("core-no-game", id = id)),
            },
        }
    }

    /// The game a command means: the one named; else the user's only active game here; else
    /// the one played in this thread or channel; else the only one where it is their turn.
    /// Decided on the stored rows (whose turn it is is stored), replaying no game but the
    /// one chosen.
    pub(crate) fn pick_game(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
    ) -> Result<Loaded, CoreError> {
        match game {
            Some(id) => self.load_visible(user, place, id),
            None => self.load(self.pick_row(user, place)?.id),
        }
    }

    /// The row of the game a command without a game number means (see `pick_game`).
    pub(crate) fn pick_row(&self, user: &User, place: &Place) -> Result<GameRow, CoreError> {
        let mut active =
            self.store
                .games_of(&user.id, GameStatus::Active, place.guild.as_deref(), 200)?;
        if active.len() == 1 {
            return Ok(active.remove(0));
        }
        if active.is_empty() {
            return user_err(if place.guild.is_some() {
                msg!("core-no-game-in-server")
            } else {
                msg!("core-no-game-in-progress")
            });
        }
        if let Some(here) = place.channel.as_deref() {
            let mut in_here = active
                .iter()
                .filter(|g| g.is_played_in(here))
                .cloned()
                .collect::<Vec<_>>();
            if in_here.len() == 1 {
                return Ok(in_here.remove(0));
            }
        }
        let mut mine: Vec<&GameRow> = active
            .iter()
            .filter(|g| g.to_move.as_deref() == Some(user.id.as_str()))
            .collect();
        if mine.len() == 1 {
            return Ok(mine.remove(0).clone());
        }
        let ids: Vec<String> = active.iter().map(|g| format!("#{}", g.id)).collect();
        user_err(msg!(
            "core-several-games",
            count = active.len(),
            ids = ids.join(", "),
            first = active[0].id
        ))
    }

    /// The game a command would act on, as a reply refers to it (the Discord adapter asks
    /// before confirming a resignation).
    pub fn game_for(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
    ) -> Result<GameRef, CoreError> {
        let row = match game {
            Some(id) => self.visible_row(user, place, id)?,
            None => self.pick_row(user, place)?,
        };
        if !row.players.iter().any(|p| *p == user.id) {
            return user_err(msg!("core-not-your-game", id = row.id));
        }
        Ok(GameRef {
            id: row.id,
            ply: row.ply,
            started: false,
            over: row.status != GameStatus::Active,
        })
    }

    /// Whose games, history or stats a command asks for: the user it names (their resolved name
    /// recorded), else the sender. In direct messages only the sender's own (`what` names the
    /// list in the refusal): another user's may be of servers the sender is not in.
    pub(crate) fn subject<'a>(
        &self,
        user: &'a User,
        place: &Place,
        who: Option<&'a UserRef>,
        what: &str,
    ) -> Result<&'a str, CoreError> {
        if let Some(w) = who {
            self.touch_named(w, place, false)?;
        }
        let id = who.map_or(user.id.as_str(), |w| w.id.as_str());
        if place.guild.is_none() && id != user.id.as_str() {
            return user_err(match what {
                "games" => msg!("core-own-games-only"),
                "history" => msg!("core-own-history-only"),
                "stats" => msg!("core-own-stats-only"),
                other => msg!("core-own-only", what = other),
            });
        }
        Ok(id)
    }

    /// How to reach a user, per their settings (`None`: they want a digest), about something
    /// of `guild` (a challenge) to be told in `channel`. `text` composes the notice for the
    /// server whose names it shows (`guild` for a mention, none for a direct message), in the
    /// recipient's voice. The notice has its outbox id already: the command stores it with its
    /// change.
    pub(crate) fn notice(
        &self,
        user: &str,
        channel: Option<&String>,
        guild: Option<&str>,
        text: impl FnOnce(Option<&str>, Voice) -> String,
    ) -> Option<Notice> {
        self.notice_about(None, user, channel, guild, text)
    }

    /// `notice`, about a game (of `guild`).
    pub(crate) fn notice_about(
        &self,
        game: Option<i64>,
        user: &str,
        channel: Option<&String>,
        guild: Option<&str>,
        text: impl FnOnce(Option<&str>, Voice) -> String,
    ) -> Option<Notice> {
        // The computer reads no notices.
        if self.is_computer(user) {
            return None;
        }
        let row = self.store.user(user).ok().flatten();
        let via = match &row {
            Some(u) if u.notify == "dm" => Via::Dm,
            Some(u) if u.notify == "digest" => return None,
            _ => Via::Mention,
        };
        let voice = speech::voice_for(row.as_ref(), None);
        let id = new_notice_id();
        // Held by this command until its transport delivered it or let it go: the delivery
        // loop of this process leaves it alone meanwhile (see `delivery`).
        self.hold(id);
        let text = text(
            match via {
                Via::Mention | Via::Post => guild,
                Via::Dm => None,
            },
            voice,
        );
        Some(Notice {
            user: user.to_string(),
            via,
            channel: channel.cloned(),
            text,
            id: Some(id),
            game,
            ply: None,
            league: None,
        })
    }
}

/// Counts notices made for the outbox (`tegami_notices_queued_total`), as they are turned
/// into its rows.
pub(crate) fn queued(count: usize) {
    metrics::counter!("tegami_notices_queued_total").increment(count as u64);
}

/// The outbox rows of notices, to store with the change they announce.
pub(crate) fn to_store(notices: &[Notice]) -> Vec<crate::store::NewNotice> {
    queued(notices.len());
    notices
        .iter()
        .map(|n| crate::store::NewNotice {
            id: n.id.unwrap_or_else(new_notice_id),
            game: n.game,
            user: n.user.clone(),
            via: n.via.as_str().into(),
            channel: n.channel.clone(),
            text: n.text.clone(),
            ply: n.ply,
            league: n.league,
        })
        .collect()
}

/// A date and time for messages: `2026-11-25 18:00 UTC`. Public posts use this one; a reply
/// or a notice to a player writes times in their zone ([`Voice::time`], [`format_time_in`]).
pub fn format_time(t: i64) -> String {
    match time::OffsetDateTime::from_unix_timestamp(t) {
        Ok(dt) => format!(
            "{:04}-{:02}-{:02} {:02}:{:02} UTC",
            dt.year(),
            dt.month() as u8,
            dt.day(),
            dt.hour(),
            dt.minute()
        ),
        Err(_) => t.to_string(),
    }
}

/// A date and time for a reader in `zone`: `2026-11-26 04:53 JST` (in UTC, [`format_time`]'s).
pub fn format_time_in(t: i64, zone: Zone) -> String {
    zone.time(t)
}
