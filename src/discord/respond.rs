//! Running a command in the core and answering on Discord.
//!
//! Interactions (slash commands, buttons) are deferred first (Discord wants an answer within
//! three seconds); the core, which is synchronous, runs in `spawn_blocking`. A refusal is then
//! shown to the sender only (the deferred message is deleted and an ephemeral follow-up sent); a
//! success is a public message with the board picture and other files, the buttons, and a
//! mention of exactly the users it means to ping (`allowed_mentions`: no `@everyone`, no roles).
//! Prefix commands and bare moves are answered by a message in the channel, except a personal
//! answer (conditional lines, settings, one's own stats …: [`personal`]) asked in a server,
//! which goes to the sender's direct messages, the channel told only that it did.
//!
//! Where each message lands, and what Discord's refusals mean, is `placement`'s decision.

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::builder::Builder;
use serenity::{
    ChannelId, CreateActionRow, CreateAttachment, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, Http, InteractionId,
    MessageId, UserId,
};
use tracing::{error, warn};

use super::guard::Verdict;
use super::outbox;
pub use super::placement::Target;
use super::placement::{
    self, archive_thread, attachment, channel_of, clip, home_of, join_threads, leave_thread,
    mention_only, send, start_league_thread, user_id, Failure, Outgoing, Sent, MAX_CONTENT,
};
use super::{Ctx, Data, Error};
use crate::i18n::Lang;
use crate::service::picker::{PickAct, PickButton, PickId, PickStyle, Picker};
use crate::service::{
    Attachment, Command, FollowChange, LeagueCommand, Notice, Place, Reply, Request, User, Via,
    MAX_ATTACHMENT,
};
use crate::t;

/// A user's global display name (shown wherever they have no nickname): their display name,
/// else their user name.
pub fn display_name(user: &serenity::User) -> String {
    let name = user.global_name.as_deref().unwrap_or(&user.name).trim();
    if name.is_empty() {
        user.name.clone()
    } else {
        name.to_string()
    }
}

/// A member's nickname in a server, if they have one (a blank one is none).
pub fn nickname(nick: Option<&str>) -> Option<String> {
    nick.map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string)
}

/// A server's preferred locale, if the server is cached (messages carry no locale).
pub fn cached_guild_locale(
    cache: &serenity::Cache,
    guild: Option<serenity::GuildId>,
) -> Option<String> {
    Some(cache.guild(guild?)?.preferred_locale.clone())
}

/// Who sent a command, and where.
#[derive(Clone, Debug)]
pub struct Origin {
    pub user: UserId,
    /// Their global display name (`display_name`).
    pub name: String,
    /// Their nickname in the server the command was sent in (`nickname`), if any.
    pub nick: Option<String>,
    pub guild: Option<serenity::GuildId>,
    pub channel: ChannelId,
    /// When `channel` is a thread: its parent channel (a game started from here is homed
    /// there: a thread cannot be started inside a thread).
    pub parent: Option<ChannelId>,
    /// May change the server's settings (Manage Server).
    pub admin: bool,
    /// The locale of the sender's client (interactions carry it; messages do not).
    pub locale: Option<String>,
    /// The server's locale (`guild_locale` of an interaction; the cached server's preferred
    /// locale for a message).
    pub guild_locale: Option<String>,
}

impl Origin {
    /// The language of the sender's client: Japanese for a Japanese locale, else English (a
    /// message carries no locale: English). For the answers that must not wait on the
    /// database (a stop, the rate limit).
    pub fn client_lang(&self) -> Lang {
        self.locale.as_deref().map_or(Lang::En, Lang::from_locale)
    }

    pub fn request(&self, command: Command) -> Request {
        // A challenge chooses where its game will live: never inside a thread.
        let channel = match (&command, self.parent) {
            (Command::Challenge { .. }, Some(parent)) => parent,
            _ => self.channel,
        };
        Request {
            user: User::new(self.user.to_string(), self.name.clone())
                .with_nick(self.nick.clone())
                .with_locale(self.locale.clone()),
            place: Place {
                guild: self.guild.map(|g| g.to_string()),
                channel: Some(channel.to_string()),
                admin: self.admin,
                locale: self.guild_locale.clone(),
            },
            command,
        }
    }

    /// The sender of a poise command.
    pub fn of(ctx: Ctx<'_>) -> Origin {
        let author = ctx.author();
        let (nick, admin) = match ctx {
            poise::Context::Application(a) => match &a.interaction.member {
                Some(m) => (
                    m.nick.clone(),
                    m.permissions
                        .is_some_and(|p| p.manage_guild() || p.administrator()),
                ),
                None => (None, false),
            },
            poise::Context::Prefix(p) => (
                p.msg.member.as_ref().and_then(|m| m.nick.clone()),
                super::commands::manages_server(ctx.cache(), p.msg).unwrap_or(false),
            ),
        };
        let parent = match ctx {
            poise::Context::Application(a) => thread_parent(a.interaction.channel.as_ref()),
            poise::Context::Prefix(p) => {
                cached_thread_parent(ctx.cache(), p.msg.guild_id, p.msg.channel_id)
            }
        };
        let (locale, guild_locale) = match ctx {
            poise::Context::Application(a) => (
                Some(a.interaction.locale.clone()),
                a.interaction.guild_locale.clone(),
            ),
            poise::Context::Prefix(p) => (None, cached_guild_locale(ctx.cache(), p.msg.guild_id)),
        };
        Origin {
            user: author.id,
            name: display_name(author),
            nick: nickname(nick.as_deref()),
            guild: ctx.guild_id(),
            channel: ctx.channel_id(),
            parent,
            admin,
            locale,
            guild_locale,
        }
    }
}

/// The language to answer the sender in when the adapter answers itself (an option the core
/// never saw, a button, a confirmation): the core's rule for a reply, the language they chose
/// (`/settings language`), else their client's, else the one kept from their last command,
/// else English.
pub async fn sender_lang(data: &Data, origin: &Origin) -> Lang {
    let (service, id, locale) = (
        data.service.clone(),
        origin.user.to_string(),
        origin.locale.clone(),
    );
    tokio::task::spawn_blocking(move || service.voice_of_sender(&id, locale.as_deref()).lang)
        .await
        .unwrap_or_default()
}

/// The parent of an interaction's channel, when that channel is a thread.
pub fn thread_parent(channel: Option<&serenity::PartialChannel>) -> Option<ChannelId> {
    let c = channel?;
    is_thread(c.kind).then_some(c.parent_id).flatten()
}

/// The parent of a channel the cache knows as a thread of the server.
pub fn cached_thread_parent(
    cache: &serenity::Cache,
    guild: Option<serenity::GuildId>,
    channel: ChannelId,
) -> Option<ChannelId> {
    let guild = cache.guild(guild?)?;
    let c = guild.threads.iter().find(|t| t.id == channel)?;
    is_thread(c.kind).then_some(c.parent_id).flatten()
}

fn is_thread(kind: serenity::ChannelType) -> bool {
    matches!(
        kind,
        serenity::ChannelType::PublicThread
            | serenity::ChannelType::PrivateThread
            | serenity::ChannelType::NewsThread
    )
}

/// Runs a request in the core, off the async runtime. The reply's notices are held for this
/// command (the core holds them from before its transaction: the outbox loop leaves them
/// alone) until it delivers them or lets them go; nothing is shared with other commands.
pub async fn run_core(data: &Data, req: Request) -> Reply {
    run_core_telling(data, req, None).await
}

/// `run_core`, telling the sender how a long command goes (an analysis queued behind others):
/// each progress sentence of the core is sent to `tell` as it comes.
pub async fn run_core_telling(
    data: &Data,
    req: Request,
    tell: Option<tokio::sync::mpsc::UnboundedSender<String>>,
) -> Reply {
    run_core_until(data, req, tell, None).await
}

/// How long an interaction's token lives: its follow-ups fail after that.
const TOKEN_LIFE: std::time::Duration = std::time::Duration::from_secs(15 * 60);

/// Test switch: `TEGAMI_FAULT_TOKEN_LIFE_MS=N` makes the bot reckon an interaction's token
/// good for N ms instead of 15 minutes (a test of a long command dropped when its token
/// expired, without waiting 15 minutes).
pub const FAULT_TOKEN_LIFE_MS: &str = "TEGAMI_FAULT_TOKEN_LIFE_MS";

/// Until when an interaction received now can be answered: its token's life, less a minute
/// for the answer itself. Reckoned from its arrival, not from its id's timestamp, so that a
/// machine whose clock is off does not drop every request.
pub fn token_expiry() -> std::time::SystemTime {
    let life = std::env::var(FAULT_TOKEN_LIFE_MS)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(std::time::Duration::from_millis)
        .unwrap_or(TOKEN_LIFE - std::time::Duration::from_secs(60));
    std::time::SystemTime::now() + life
}

/// `run_core_telling`, for a request that can only be answered until `expires` (an
/// interaction's token). A long command (an analysis, a replay) first waits for a place of the
/// process's long work here, on the runtime, holding no blocking thread (told its place as it
/// changes); one still waiting when its token expires leaves the queue unanswered (nobody could
/// read the answer), and one refused by the caps (too many of the player's, or of everyone's)
/// is answered at once by the core.
pub async fn run_core_until(
    data: &Data,
    req: Request,
    tell: Option<tokio::sync::mpsc::UnboundedSender<String>>,
    expires: Option<std::time::SystemTime>,
) -> Reply {
    let mut place = None;
    if matches!(
        req.command,
        Command::Analysis { .. } | Command::Replay { .. }
    ) {
        // Refused by the caps: the core refuses it again, in the player's words.
        if let Ok(ticket) = data.service.long_ticket(&req.user) {
            let (placed_tx, mut placed_rx) = tokio::sync::mpsc::unbounded_channel::<usize>();
            let wait = ticket.ready_telling(move |position| {
                let _ = placed_tx.send(position);
            });
            tokio::pin!(wait);
            let left = expires
                .and_then(|e| e.duration_since(std::time::SystemTime::now()).ok())
                .unwrap_or(if expires.is_some() {
                    std::time::Duration::ZERO
                } else {
                    std::time::Duration::MAX
                });
            let deadline = tokio::time::Instant::now()
                .checked_add(left)
                .unwrap_or_else(|| tokio::time::Instant::now() + TOKEN_LIFE * 1000);
            loop {
                tokio::select! {
                    // A place free at once is taken, whatever the clock says.
                    biased;
                    slot = &mut wait => {
                        place = Some(slot);
                        break;
                    }
                    Some(position) = placed_rx.recv() => {
                        if let Some(t) = &tell {
                            let (s, r) = (data.service.clone(), req.clone());
                            if let Ok(note) = tokio::task::spawn_blocking(move || {
                                s.long_queued_note(&r, position)
                            })
                            .await
                            {
                                let _ = t.send(note);
                            }
                        }
                    }
                    () = tokio::time::sleep_until(deadline) => {
                        warn!(
                            user = %req.user.id,
                            command = req.command.name(),
                            "a long command waited past its interaction's life: dropped unanswered"
                        );
                        metrics::counter!("tegami_long_expired_total").increment(1);
                        // An empty refusal: the caller answers nothing.
                        return Reply::error(String::new());
                    }
                }
            }
        }
    }
    let service = data.service.clone();
    let command = format!("{:?}", req.command);
    let name = req.command.name();
    let started = std::time::Instant::now();
    let lang = req
        .user
        .locale
        .as_deref()
        .map_or(Lang::En, Lang::from_locale);
    match tokio::task::spawn_blocking(move || {
        let progress = |text: &str| {
            if let Some(t) = &tell {
                let _ = t.send(text.to_string());
            }
        };
        // The place taken above is the command's: it finds it on this thread.
        let _bound = place.map(|p| p.bind());
        service.handle_with(&req, &progress)
    })
    .await
    {
        Ok(reply) => {
            let outcome = if reply.error { "refused" } else { "ok" };
            command_done(name, outcome, started);
            // The computer is to move: its worker thinks, then announces the move.
            if let Some(game) = reply.think {
                data.computer.queue(game);
            }
            reply
        }
        Err(e) => {
            command_done(name, "failed", started);
            error!(%command, "the command panicked: {e}");
            Reply::error(t!(lang, "discord-sorry"))
        }
    }
}

/// Counts a command run through the core, and its time.
fn command_done(name: &'static str, outcome: &'static str, started: std::time::Instant) {
    metrics::counter!("tegami_commands_total", "command" => name, "outcome" => outcome)
        .increment(1);
    metrics::histogram!("tegami_command_duration_seconds", "command" => name)
        .record(started.elapsed().as_secs_f64());
}

/// A button's `custom_id`: `tg:GAME:PLY:COMMAND` (`-` for no game), or `tgc:GAME:PLY:USER:COMMAND`
/// for a confirmed action only USER may press.
pub fn button_id(game: Option<(i64, u32)>, command: &str) -> String {
    let (g, p) = match game {
        Some((g, p)) => (g.to_string(), p.to_string()),
        None => ("-".into(), "-".into()),
    };
    format!("tg:{g}:{p}:{command}")
}

/// The buttons of a live game's board (Move, Legal moves, Offer draw, Resign) in `lang`, for a
/// board posted without a command's reply (a late announcement).
pub fn game_rows(game: i64, ply: u32, lang: Lang) -> Vec<CreateActionRow> {
    components(&Reply {
        game: Some(crate::service::GameRef {
            id: game,
            ply,
            started: false,
            over: false,
        }),
        buttons: crate::service::game_buttons(game, lang),
        ..Reply::default()
    })
}

fn components(reply: &Reply) -> Vec<CreateActionRow> {
    if let Some(p) = &reply.picker {
        // A picker opened now: its steps carry this moment, for its expiry.
        return picker_rows(p, now_ms());
    }
    let game = reply.game.as_ref().map(|g| (g.id, g.ply));
    let buttons: Vec<CreateButton> = reply
        .buttons
        .iter()
        .map(|b| {
            CreateButton::new(button_id(game, &b.command))
                .label(b.label.clone())
                .style(button_style(&b.command))
        })
        .collect();
    buttons
        .chunks(5)
        .map(|row| CreateActionRow::Buttons(row.to_vec()))
        .collect()
}

/// Milliseconds since the epoch: when a picker was opened (kept in its ids).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// How long a picker lasts: as long as the interaction token that opened it (15 minutes;
/// shorter under the test switch `TEGAMI_FAULT_TOKEN_LIFE_MS`).
pub fn picker_life_ms() -> i64 {
    std::env::var(FAULT_TOKEN_LIFE_MS)
        .ok()
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or(TOKEN_LIFE.as_millis() as i64)
}

/// The move picker's step as Discord components: its select menus (one row each), its
/// finishing buttons, then Play / Back / Cancel (see `service::picker`). Every id carries the
/// game, the ply the picker was made for and when it was opened.
pub fn picker_rows(p: &Picker, opened: i64) -> Vec<CreateActionRow> {
    let id = |act: PickAct| {
        PickId {
            game: p.game,
            ply: p.ply,
            opened,
            act,
        }
        .encode()
    };
    let mut rows: Vec<CreateActionRow> = p
        .menus
        .iter()
        .enumerate()
        .map(|(n, m)| {
            let options = m
                .options
                .iter()
                .map(|o| {
                    let opt =
                        serenity::CreateSelectMenuOption::new(o.label.clone(), o.token.clone());
                    match &o.description {
                        Some(d) => opt.description(d.clone()),
                        None => opt,
                    }
                })
                .collect();
            let menu = serenity::CreateSelectMenu::new(
                id(PickAct::Menu {
                    n: n as u8,
                    path: m.path.clone(),
                }),
                serenity::CreateSelectMenuKind::String { options },
            )
            .placeholder(m.placeholder.clone());
            CreateActionRow::SelectMenu(menu)
        })
        .collect();
    let button = |b: &PickButton| {
        CreateButton::new(id(PickAct::from(&b.action)))
            .label(b.label.clone())
            .style(match b.style {
                PickStyle::Primary => serenity::ButtonStyle::Primary,
                PickStyle::Secondary => serenity::ButtonStyle::Secondary,
                PickStyle::Success => serenity::ButtonStyle::Success,
                PickStyle::Danger => serenity::ButtonStyle::Danger,
            })
    };
    for row in [&p.choices, &p.nav] {
        if !row.is_empty() {
            rows.push(CreateActionRow::Buttons(row.iter().map(button).collect()));
        }
    }
    rows
}

/// A click in a move picker (a `tgk:` id): the next step shown in place of this one, at once
/// (Discord's update of the clicked message, with the new picture); Play goes through
/// `/move`'s command with the picker's ply, so a picker older than the position plays
/// nothing; Cancel and an expired picker close it.
pub async fn picker_click(
    http: &Arc<Http>,
    data: &Data,
    id: InteractionId,
    token: &str,
    origin: Origin,
    pick: PickId,
    values: Vec<String>,
) {
    let lang = origin.client_lang();
    let update = |text: String, files: Vec<CreateAttachment>, rows: Vec<CreateActionRow>| {
        CreateInteractionResponse::UpdateMessage(
            CreateInteractionResponseMessage::new()
                .content(clip(&text))
                .files(files)
                .components(rows)
                .allowed_mentions(mention_only(&[])),
        )
    };
    let close = |text: String| update(text, Vec::new(), Vec::new());
    let expired = !matches!(pick.act, PickAct::Fresh) && now_ms() - pick.opened > picker_life_ms();
    let answer = if expired {
        close(t!(lang, "pick-expired"))
    } else {
        match pick.act {
            PickAct::Cancel => close(t!(lang, "pick-closed")),
            PickAct::Play { code } => {
                let command = Command::Move {
                    game: Some(pick.game),
                    text: code,
                    seen_ply: Some(pick.ply),
                };
                play_picked(http, data, id, token, origin, command).await;
                return;
            }
            act => {
                let Some(_pass) = data.gate.enter() else {
                    quick_ephemeral(http, id, token, &t!(lang, "discord-restarting")).await;
                    return;
                };
                if data.picks.check(origin.user.get()) != Verdict::Allow {
                    quick_ephemeral(http, id, token, &t!(lang, "discord-slow-down")).await;
                    return;
                }
                let (path, page, seen, opened) = match act {
                    PickAct::Menu { path, .. } => {
                        // The value chosen in the menu is the next choice.
                        let mut path = path;
                        path.extend(values);
                        (path, 0, Some(pick.ply), pick.opened)
                    }
                    PickAct::Go { path, page } => (path, page, Some(pick.ply), pick.opened),
                    _ => (Vec::new(), 0, None, now_ms()),
                };
                let command = Command::Pick {
                    game: Some(pick.game),
                    path,
                    page,
                    seen_ply: seen,
                };
                let reply = run_core_until(data, origin.request(command), None, None).await;
                let text = if reply.error {
                    format!("✗ {}", reply.text)
                } else {
                    reply.text.clone()
                };
                let files: Vec<CreateAttachment> = reply
                    .attachments
                    .iter()
                    .filter(|a| a.data.len() <= MAX_ATTACHMENT)
                    .cloned()
                    .map(attachment)
                    .collect();
                let rows = reply
                    .picker
                    .as_ref()
                    .map(|p| picker_rows(p, opened))
                    .unwrap_or_default();
                update(text, files, rows)
            }
        }
    };
    if let Err(e) = answer.execute(&**http, (id, token)).await {
        warn!("cannot answer a picker's click: {e}");
    }
}

/// The picker's Play: the clicked message (the picker) is acknowledged in place, the move is
/// played as `/move` plays it (its announcement public, in the game's home), and the picker
/// then says what became of it.
async fn play_picked(
    http: &Arc<Http>,
    data: &Data,
    id: InteractionId,
    token: &str,
    origin: Origin,
    command: Command,
) {
    let lang = origin.client_lang();
    let Some(_pass) = data.gate.enter() else {
        quick_ephemeral(http, id, token, &t!(lang, "discord-restarting")).await;
        return;
    };
    if data.picks.check(origin.user.get()) != Verdict::Allow {
        quick_ephemeral(http, id, token, &t!(lang, "discord-slow-down")).await;
        return;
    }
    if let Err(e) = CreateInteractionResponse::Acknowledge
        .execute(&**http, (id, token))
        .await
    {
        warn!("cannot acknowledge a picker's Play; move not played: {e}");
        return;
    }
    let reply = run_core_until(data, origin.request(command), None, Some(token_expiry())).await;
    answer(
        http,
        data,
        Target::Picker {
            token: token.to_string(),
        },
        &origin,
        true,
        reply,
    )
    .await;
}

/// A button's colour, from what it does (its label is in the reader's language): red for
/// resigning and declining, green for accepting, grey for the rest.
fn button_style(command: &str) -> serenity::ButtonStyle {
    let mut words = command.split_whitespace();
    let (first, last) = (words.next(), command.split_whitespace().next_back());
    match (first, last) {
        (Some("resign" | "decline"), _) | (_, Some("decline")) => serenity::ButtonStyle::Danger,
        (Some("accept"), _) | (_, Some("accept")) => serenity::ButtonStyle::Success,
        _ => serenity::ButtonStyle::Secondary,
    }
}

/// Answers an interaction at once (no defer): an ephemeral text.
pub async fn quick_ephemeral(http: &Http, id: InteractionId, token: &str, text: &str) {
    let r = CreateInteractionResponse::Message(
        CreateInteractionResponseMessage::new()
            .content(clip(text))
            .ephemeral(true)
            .allowed_mentions(mention_only(&[])),
    );
    if let Err(e) = r.execute(http, (id, token)).await {
        warn!("cannot answer an interaction: {e}");
    }
}

/// Whether a command changes a game or a challenge: its reply is announced publicly (in the
/// game's thread or the channel), pinging the players it concerns. Other replies (boards,
/// lists, records, help) are shown to the sender only, keeping correspondence channels quiet.
pub fn announces(command: &Command) -> bool {
    matches!(
        command,
        Command::Challenge { .. }
            | Command::Accept { .. }
            | Command::Decline { .. }
            | Command::Cancel { .. }
            | Command::Move { .. }
            | Command::Resign { .. }
            | Command::Declare { .. }
            | Command::Draw { .. }
            | Command::Takeback { .. }
            | Command::Impasse { .. }
            | Command::MoreTime { .. }
            | Command::League(LeagueCommand::Create(_))
    )
}

/// Whether a command's answer is the sender's own business (their conditional lines, their
/// settings, their vacation, their own stats, games and follows): the slash command shows it
/// to them alone, so asked by a message in a server it goes to their direct messages, never
/// to the channel (the opponent may be reading the game's thread).
pub fn personal(command: &Command) -> bool {
    match command {
        Command::Conditional(_) | Command::Settings { .. } | Command::Vacation { .. } => true,
        Command::Stats { user } | Command::Games { user } | Command::History { user } => {
            user.is_none()
        }
        Command::Follow { game, .. } => game.is_none(),
        _ => false,
    }
}

/// The whole answer to an interaction: gate, rate limit, defer, core, answer.
///
/// The interaction is deferred *ephemerally*: Discord fixes a deferred reply's visibility at
/// the defer, and the first follow-up fills the deferred message. So a refusal, or a private
/// answer, fills it (seen by the sender alone), and a change is announced by a new public
/// message in the game's thread or channel (a new message pings; an edited one does not),
/// the deferred message then saying briefly where.
pub async fn interaction(
    http: &Arc<Http>,
    data: &Data,
    id: InteractionId,
    token: &str,
    origin: Origin,
    command: Command,
) {
    let expires = token_expiry();
    let picker = matches!(command, Command::Pick { .. });
    let Some(_pass) = admit(http, data, id, token, &origin, picker).await else {
        return;
    };
    let public = announces(&command);
    // Progress (an analysis queued: "position 2") shows in the sender's deferred message.
    let (tell, mut told) = tokio::sync::mpsc::unbounded_channel::<String>();
    let progress = tokio::spawn({
        let (http, token) = (http.clone(), token.to_string());
        async move {
            while let Some(text) = told.recv().await {
                let edit = serenity::EditInteractionResponse::new()
                    .content(clip(&text))
                    .allowed_mentions(mention_only(&[]));
                if let Err(e) = edit.execute(&*http, &token).await {
                    warn!("cannot show a command's progress: {e}");
                }
            }
        }
    });
    let reply = run_core_until(data, origin.request(command), Some(tell), Some(expires)).await;
    // Every progress edit is made before the answer.
    let _ = progress.await;
    if reply.error && reply.text.is_empty() {
        // Dropped unanswered: its token expired while it waited (see `run_core_until`).
        return;
    }
    answer(
        http,
        data,
        Target::Interaction {
            token: token.to_string(),
        },
        &origin,
        public,
        reply,
    )
    .await;
}

/// Lets an interaction in: not while stopping, not past the sender's rate limit (both
/// answered at once, privately), then deferred privately. `None`: nothing more to do (a
/// command whose defer failed is dropped: nobody would see it answered).
async fn admit<'a>(
    http: &Http,
    data: &'a Data,
    id: InteractionId,
    token: &str,
    origin: &Origin,
    picker: bool,
) -> Option<super::guard::Pass<'a>> {
    let lang = origin.client_lang();
    let Some(pass) = data.gate.enter() else {
        quick_ephemeral(http, id, token, &t!(lang, "discord-restarting")).await;
        return None;
    };
    // Opening the move picker is counted with its clicks (see `Data::picks`).
    let limiter = if picker { &data.picks } else { &data.limiter };
    if limiter.check(origin.user.get()) != Verdict::Allow {
        quick_ephemeral(http, id, token, &t!(lang, "discord-slow-down")).await;
        return None;
    }
    let defer =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    if let Err(e) = defer.execute(http, (id, token)).await {
        warn!("cannot defer an interaction; command dropped: {e}");
        return None;
    }
    Some(pass)
}

/// The whole answer to a prefix command or a bare move.
pub async fn message(
    http: &Arc<Http>,
    data: &Data,
    message: MessageId,
    origin: Origin,
    command: Command,
) {
    let Some(_pass) = data.gate.enter() else {
        return super::events::restarting(http, data, &origin, message).await;
    };
    match data.limiter.check(origin.user.get()) {
        Verdict::Allow => {}
        Verdict::Refuse => {
            let text = t!(sender_lang(data, &origin).await, "discord-slow-down");
            let target = Target::Message {
                channel: origin.channel,
                message,
            };
            if let Err(e) = send(http, &target, Outgoing::text(&text)).await {
                warn!("cannot answer: {e}");
            }
            return;
        }
        Verdict::Drop => return,
    }
    let _ = origin.channel.broadcast_typing(&**http).await;
    let public = announces(&command);
    // A personal answer asked in a server: to the sender's direct messages.
    let target = if personal(&command) && origin.guild.is_some() {
        Target::Direct {
            user: origin.user,
            channel: origin.channel,
            message,
            lang: sender_lang(data, &origin).await,
        }
    } else {
        Target::Message {
            channel: origin.channel,
            message,
        }
    };
    let reply = run_core(data, origin.request(command)).await;
    answer(http, data, target, &origin, public, reply).await;
}

/// The files Discord can take (each under [`MAX_ATTACHMENT`]), and a line for each that is too
/// large, said in the message instead of failing it.
fn files_within_limit(
    attachments: &[Attachment],
    lang: Lang,
) -> (Vec<CreateAttachment>, Vec<String>) {
    let mut files = Vec::new();
    let mut notes = Vec::new();
    for a in attachments {
        if a.data.len() > MAX_ATTACHMENT {
            warn!(
                file = %a.name,
                bytes = a.data.len(),
                "a file is over Discord's upload limit; not sent"
            );
            notes.push(t!(
                lang,
                "discord-file-too-large",
                name = a.name.as_str(),
                size = format!("{:.1}", a.data.len() as f64 / (1024.0 * 1024.0)),
                limit = MAX_ATTACHMENT / (1024 * 1024)
            ));
        } else {
            files.push(attachment(a.clone()));
        }
    }
    (files, notes)
}

/// The reply's text and files: a text past Discord's limit goes as a file, its first line
/// kept as the message; a file past the upload limit is named in the text instead.
fn body_and_files(
    reply: &Reply,
    text: String,
    room: usize,
    lang: Lang,
) -> (String, Vec<CreateAttachment>) {
    let (mut files, notes) = files_within_limit(&reply.attachments, lang);
    let text = if notes.is_empty() {
        text
    } else {
        format!("{text}\n{}", notes.join("\n"))
    };
    if text.chars().count() + room <= MAX_CONTENT {
        return (text, files);
    }
    // A record or export already attached as a file (KIF, CSA) is not attached twice.
    if !reply.attachments.iter().any(|a| !a.is_image()) {
        let name = match &reply.game {
            Some(g) => format!("game-{}.txt", g.id),
            None => "tegami.txt".to_string(),
        };
        files.push(CreateAttachment::bytes(text.clone().into_bytes(), name));
    }
    let first: String = text
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(300)
        .collect();
    (
        format!("{first}\n{}", t!(lang, "discord-full-text-attached")),
        files,
    )
}

/// The language of the adapter's own notes in a reply's text (a file too large, the text
/// attached): asked (of `lang`, which may read the database) only when there is a note.
async fn words_lang<F, Fut>(reply: &Reply, text: &str, room: usize, lang: F) -> Lang
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = Lang>,
{
    let noted = reply
        .attachments
        .iter()
        .any(|a| a.data.len() > MAX_ATTACHMENT)
        || text.chars().count() + room > MAX_CONTENT;
    if noted {
        lang().await
    } else {
        Lang::En
    }
}

/// Answers with the core's reply: a refusal privately; a change publicly in the game's home
/// (thread or channel) with the pings it means; anything else privately.
///
/// Every notice of the reply is this command's to deliver (the core holds it): each path
/// below marks it sent, sets it aside, or lets it go to the delivery loop.
pub async fn answer(
    http: &Arc<Http>,
    data: &Data,
    target: Target,
    origin: &Origin,
    public: bool,
    reply: Reply,
) {
    // A follower joins the game's thread, or leaves the one they were added to.
    match &reply.follow {
        Some(FollowChange::Followed(game)) => join_threads(http, &data.service, Some(*game)).await,
        Some(FollowChange::Unfollowed { game, thread }) => {
            leave_thread(http, *game, thread, origin.user).await
        }
        None => {}
    }
    if reply.error {
        refuse(http, &target, &reply.text).await;
        // A refusal that ended the game (a move after the deadline): both players are told,
        // then the thread is closed (a message in an archived thread would reopen it).
        let notices: Vec<Notice> = reply.notify.iter().chain(&reply.post).cloned().collect();
        if !notices.is_empty() {
            outbox::deliver_now(
                http.clone(),
                data.service.clone(),
                data.outbox.clone(),
                notices,
            )
            .await;
        }
        if let Some(g) = reply.game.as_ref().filter(|g| g.over) {
            archive_thread(http, &data.service, g.id).await;
        }
        return;
    }
    let home = match &reply.game {
        Some(g) => home_of(&data.service, g.id).await,
        None => None,
    };
    // Names in the text are the core's, their markdown escaped there.
    let text = reply.text.clone();
    if !public {
        let lang = words_lang(&reply, &text, 0, || sender_lang(data, origin)).await;
        let (content, files) = body_and_files(&reply, text, 0, lang);
        let out = Outgoing {
            content,
            files,
            rows: components(&reply),
            ping: Vec::new(),
        };
        if let Err(e) = send(http, &target, out).await {
            warn!("cannot answer: {e}");
        }
        // A private answer pings nobody: its notices go on their own.
        let notices = reply.notify.iter().chain(&reply.post).cloned().collect();
        deliver_separately(http, data, notices);
        return;
    }

    // Where the announcement goes: the game's home (its thread, else its channel), else where
    // the command was sent.
    let thread = home.as_ref().and_then(|h| channel_of(h.thread.as_deref()));
    let home_channel = home.as_ref().and_then(|h| channel_of(h.channel.as_deref()));
    let channel = thread.or(home_channel).unwrap_or(origin.channel);
    // Mentions of the announcement's channel are folded into it; the rest (direct messages,
    // other channels, and what the move set off after it: a conditional answer's mention goes
    // with that answer's own announcement) are delivered on their own.
    let announcement = reply.post.as_ref().and_then(|p| p.id);
    let (folded, separate): (Vec<Notice>, Vec<Notice>) =
        reply.notify.iter().cloned().partition(|n| {
            n.via == Via::Mention
                && user_id(&n.user).is_some()
                && announcement.is_none_or(|post| n.id.is_some_and(|id| id < post))
                && ((n.game.is_some() && reply.game.as_ref().map(|g| g.id) == n.game)
                    || n.channel.as_deref() == Some(&channel.to_string())
                    || n.channel.is_none())
        });
    let ping: Vec<UserId> = folded.iter().filter_map(|n| user_id(&n.user)).collect();
    let ping_line = ping
        .iter()
        .map(|u| format!("<@{u}>"))
        .collect::<Vec<_>>()
        .join(" ");
    let room = ping_line.chars().count() + 1;
    // Notes in the announcement are in the server's language (its posts' voice): the game's
    // server, wherever the command was sent from.
    let guild = match &home {
        Some(h) => h.guild.clone(),
        None => origin.guild.map(|g| g.to_string()),
    };
    let lang = words_lang(&reply, &text, room, || async {
        let s = data.service.clone();
        tokio::task::spawn_blocking(move || s.public_voice(guild.as_deref()).lang)
            .await
            .unwrap_or_default()
    })
    .await;
    let (body, files) = body_and_files(&reply, text, room, lang);
    let content = if ping_line.is_empty() {
        body.clone()
    } else {
        format!("{body}\n{ping_line}")
    };
    let out = Outgoing {
        content,
        files,
        rows: components(&reply),
        ping: ping.clone(),
    };
    // With it: the folded mentions and the move's stored announcement.
    let mut with_it: Vec<i64> = folded.iter().filter_map(|n| n.id).collect();
    with_it.extend(reply.post.as_ref().and_then(|p| p.id));

    // Where it lands is `placement`'s: the game's home and its fallbacks (never a DM for a
    // server game), adapted to what each place refuses; without a game, where the command
    // was sent.
    let reply_to = match &target {
        Target::Message { channel, message } if *channel == origin.channel => Some(*message),
        _ => None,
    };
    let announced: Result<serenity::Message, (Failure, String)> = match &home {
        Some(h) => {
            let sent = Sent {
                channel: origin.channel,
                guild: origin.guild,
                message: reply_to,
                parent: origin.parent,
            };
            let live = reply.game.as_ref().is_some_and(|g| !g.over);
            let placed = placement::announce_game(
                http,
                &data.service,
                &data.outbox.places,
                h,
                Some(&sent),
                &out,
                live,
                lang,
            )
            .await;
            let failed = placed
                .failed()
                .map(|r| (r.failure, r.error.clone()))
                .unwrap_or((Failure::Gone, "no channel".into()));
            placed.landed.ok_or(failed)
        }
        None => placement::post_in(http, origin.channel, reply_to, &out, lang)
            .await
            .map_err(|e| {
                warn!(channel = %origin.channel, "cannot post the announcement: {e}");
                (placement::failure(&e), e.to_string())
            }),
    };
    let first_line = body.lines().next().unwrap_or("").to_string();
    // The sender's own answer: where it was posted, or what became of the announcement.
    let pointer = match &announced {
        Ok(m) if m.channel_id == origin.channel => t!(Lang::En, "discord-done", line = first_line),
        Ok(m) => t!(
            sender_lang(data, origin).await,
            "discord-posted-in",
            line = first_line,
            channel = m.channel_id.to_string()
        ),
        Err((Failure::Passing, _)) if reply.post.is_some() => t!(
            sender_lang(data, origin).await,
            "discord-announce-later",
            line = first_line
        ),
        Err((_, e)) => t!(
            sender_lang(data, origin).await,
            "discord-announce-failed",
            line = first_line,
            error = e.as_str()
        ),
    };
    let pointer_needed = match &target {
        Target::Interaction { .. } => true,
        // A prefix command elsewhere gets a short reply saying where the game went on.
        Target::Message { channel: c, .. } => {
            announced.as_ref().map_or(true, |m| m.channel_id != *c)
        }
        Target::Direct { .. } | Target::Picker { .. } => true,
        Target::Nobody => false,
    };
    if pointer_needed {
        if let Err(e) = send(http, &target, Outgoing::text(&pointer)).await {
            warn!("cannot answer: {e}");
        }
    }
    match announced {
        Ok(msg) => {
            outbox::mark_sent(&data.service, &data.outbox, with_it).await;
            // A new league: its thread, made from its announcement (not inside a thread).
            if let Some(league) = reply.league {
                if msg.channel_id == origin.channel && origin.parent.is_none() {
                    start_league_thread(http, &data.service, &data.outbox.places, league, &msg)
                        .await;
                }
            }
            // A finished game's last announcement in its thread: the thread is closed.
            if let Some(g) = reply.game.as_ref().filter(|g| g.over) {
                if Some(msg.channel_id) == thread {
                    archive_thread(http, &data.service, g.id).await;
                }
            }
        }
        Err((Failure::Passing, _)) => {
            // The delivery loop posts the stored announcement (with its mentions) later.
            if reply.post.is_some() {
                metrics::counter!("tegami_notices_retrying_total").increment(with_it.len() as u64);
                data.service.release_notices(&with_it);
            } else {
                deliver_separately(http, data, folded);
            }
        }
        Err((_, reason)) => {
            // No place takes it: the announcement is set aside (said in the log), and the
            // players are told their own way (a direct message, the server's channel ...).
            if let Some(p) = &reply.post {
                if let Some(id) = p.id {
                    let (s, user) = (data.service.clone(), p.user.clone());
                    let _ =
                        tokio::task::spawn_blocking(move || s.set_aside(id, &user, &reason)).await;
                }
            }
            deliver_separately(http, data, folded);
        }
    }
    deliver_separately(http, data, separate);
}

/// Announces the computer's move in the game's home (thread or channel), with the board and a
/// mention of the player, like a person's move.
pub async fn announce_computer_move(http: &Arc<Http>, data: &Data, reply: Reply) {
    let Some(game) = reply.game.as_ref().map(|g| g.id) else {
        return;
    };
    let me = data.service.computer();
    let home = home_of(&data.service, game).await;
    let (Some(me), Some(home)) = (me, home) else {
        warn!(
            game,
            "cannot announce the computer's move: the game or the bot is unknown"
        );
        // Its notices are the delivery loop's.
        let ids: Vec<i64> = reply
            .notify
            .iter()
            .chain(&reply.post)
            .filter_map(|n| n.id)
            .collect();
        data.service.release_notices(&ids);
        return;
    };
    let channel = channel_of(home.channel.as_deref()).or(channel_of(home.thread.as_deref()));
    let (Some(user), Some(channel)) = (user_id(me.id.as_str()), channel) else {
        warn!(
            game,
            "cannot announce the computer's move here: no channel; the delivery loop tries"
        );
        let ids: Vec<i64> = reply
            .notify
            .iter()
            .chain(&reply.post)
            .filter_map(|n| n.id)
            .collect();
        data.service.release_notices(&ids);
        return;
    };
    let origin = Origin {
        user,
        name: me.name,
        nick: None,
        guild: home
            .guild
            .as_deref()
            .and_then(|g| g.parse::<u64>().ok())
            .map(serenity::GuildId::new),
        channel,
        parent: None,
        admin: false,
        locale: None,
        guild_locale: None,
    };
    answer(http, data, Target::Nobody, &origin, true, reply).await;
}

/// Delivers notices on their own, in the background (direct messages, other channels).
fn deliver_separately(http: &Arc<Http>, data: &Data, notices: Vec<Notice>) {
    if notices.is_empty() {
        return;
    }
    tokio::spawn(outbox::deliver_now(
        http.clone(),
        data.service.clone(),
        data.outbox.clone(),
        notices,
    ));
}

/// Shows a refusal to the sender only (an interaction: it fills the ephemeral deferred
/// message) or as a reply (a message).
pub async fn refuse(http: &Http, target: &Target, text: &str) {
    let out = Outgoing::text(&format!("✗ {text}"));
    if let Err(e) = send(http, target, out).await {
        warn!("cannot answer: {e}");
    }
}

/// The confirmation asked before resigning.
fn confirm_parts(
    origin: &Origin,
    g: &crate::service::GameRef,
    lang: Lang,
) -> (String, Vec<CreateActionRow>) {
    let text = t!(lang, "discord-confirm-resign", game = g.id);
    let id = format!("tgc:{}:{}:{}:resign {}", g.id, g.ply, origin.user, g.id);
    let rows = vec![CreateActionRow::Buttons(vec![CreateButton::new(id)
        .label(t!(lang, "discord-confirm-resign-button"))
        .style(serenity::ButtonStyle::Danger)])];
    (text, rows)
}

/// Which game a resignation means, read in the core.
async fn game_to_resign(
    data: &Data,
    origin: &Origin,
    game: Option<i64>,
    lang: Lang,
) -> Result<crate::service::GameRef, String> {
    use crate::service::CoreError;
    let service = data.service.clone();
    let req = origin.request(Command::Resign { game });
    match tokio::task::spawn_blocking(move || service.game_for(&req.user, &req.place, game)).await {
        Ok(Ok(g)) if g.over => Err(t!(lang, "discord-game-is-over", game = g.id)),
        Ok(Ok(g)) => Ok(g),
        Ok(Err(CoreError::User(m) | CoreError::Ended(m, ..))) => Err(m.render(lang)),
        Ok(Err(e)) => {
            error!("finding the game to resign failed: {e}");
            Err(t!(lang, "discord-sorry"))
        }
        Err(e) => {
            error!("finding the game to resign panicked: {e}");
            Err(t!(lang, "discord-sorry"))
        }
    }
}

/// `/resign` and the Resign button: asks the presser (privately) to confirm.
pub async fn confirm_resign_interaction(
    http: &Arc<Http>,
    data: &Data,
    id: InteractionId,
    token: &str,
    origin: Origin,
    game: Option<i64>,
) {
    let Some(_pass) = admit(http, data, id, token, &origin, false).await else {
        return;
    };
    let lang = sender_lang(data, &origin).await;
    let f = match game_to_resign(data, &origin, game, lang).await {
        Ok(g) => {
            let (text, rows) = confirm_parts(&origin, &g, lang);
            CreateInteractionResponseFollowup::new()
                .content(text)
                .components(rows)
        }
        Err(e) => CreateInteractionResponseFollowup::new().content(clip(&format!("✗ {e}"))),
    };
    let f = f.ephemeral(true).allowed_mentions(mention_only(&[]));
    if let Err(e) = f.execute(&**http, (None, token)).await {
        warn!("cannot answer: {e}");
    }
}

/// `!resign`: a reply with a confirmation button only the sender may press.
pub async fn confirm_resign_message(
    http: &Arc<Http>,
    data: &Data,
    message: MessageId,
    origin: Origin,
    game: Option<i64>,
) {
    let Some(_pass) = data.gate.enter() else {
        return super::events::restarting(http, data, &origin, message).await;
    };
    let lang = sender_lang(data, &origin).await;
    let out = match game_to_resign(data, &origin, game, lang).await {
        Ok(g) => {
            let (text, rows) = confirm_parts(&origin, &g, lang);
            Outgoing {
                rows,
                ..Outgoing::text(&text)
            }
        }
        Err(e) => Outgoing::text(&format!("✗ {e}")),
    };
    let target = Target::Message {
        channel: origin.channel,
        message,
    };
    if let Err(e) = send(http, &target, out).await {
        warn!("cannot answer: {e}");
    }
}

/// Errors poise reports: bad arguments are the user's (shown to them only); the rest are ours
/// (logged, with a short apology).
pub async fn on_error(e: poise::FrameworkError<'_, Data, Error>) {
    match e {
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            let origin = Origin::of(ctx);
            let lang = sender_lang(ctx.data(), &origin).await;
            let usage = ctx
                .command()
                .help_text
                .as_deref()
                .map(str::to_string)
                .unwrap_or_else(|| t!(lang, "discord-type-help", prefix = ctx.prefix()));
            let what = match input {
                Some(i) => t!(
                    lang,
                    "discord-not-understood",
                    input = i,
                    error = error.to_string()
                ),
                None => t!(lang, "discord-bad-argument", error = error.to_string()),
            };
            let r = poise::CreateReply::default()
                .content(clip(&format!("✗ {what}. {usage}")))
                .ephemeral(true)
                .allowed_mentions(mention_only(&[]));
            if let Err(e) = ctx.send(r).await {
                warn!("cannot answer: {e}");
            }
        }
        poise::FrameworkError::Command { error, ctx, .. } => {
            error!(command = %ctx.command().name, "command failed: {error}");
            let lang = ctx.locale().map_or(Lang::En, Lang::from_locale);
            let r = poise::CreateReply::default()
                .content(t!(lang, "discord-sorry"))
                .ephemeral(true);
            let _ = ctx.send(r).await;
        }
        poise::FrameworkError::UnknownCommand { .. } => {}
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                warn!("cannot report an error: {e}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_colours_follow_what_the_button_does() {
        use poise::serenity_prelude::ButtonStyle::{Danger, Secondary, Success};
        for (command, style) in [
            ("resign 12", Danger),
            ("decline 3", Danger),
            ("draw 12 decline", Danger),
            ("accept 3", Success),
            ("takeback 12 accept", Success),
            ("draw 12 offer", Secondary),
            ("moves 12", Secondary),
            ("game 12 4", Secondary),
        ] {
            assert_eq!(button_style(command), style, "{command}");
        }
    }

    #[test]
    fn button_ids_carry_the_game_and_ply() {
        assert_eq!(button_id(Some((12, 7)), "resign 12"), "tg:12:7:resign 12");
        assert_eq!(button_id(None, "accept 3"), "tg:-:-:accept 3");
        assert!(
            button_id(
                Some((i64::MAX, u32::MAX)),
                "draw 9223372036854775807 accept"
            )
            .len()
                <= 100
        );
    }
}
