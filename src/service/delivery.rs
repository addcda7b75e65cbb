//! What a transport needs to deliver the core's notices and to keep a game's home: which
//! notices a command still holds, where a game lives (and moving it when its thread or
//! channel is gone), the board of a late announcement, notices set aside.
//!
//! **Held notices.** A command's notices are written to the outbox in its transaction, and the
//! command's transport delivers them itself right after (folded into its announcement, or on
//! their own). The transport's delivery loop must not take them meanwhile, and must not wait
//! for commands either (a slow command would hold up every other). So each notice is *held*
//! from the moment its id is made, before its transaction, until its transport delivered it
//! or let it go ([`Service::release_notices`], also done by [`Service::mark_sent`]); the loop
//! skips held notices ([`Service::claim_unsent`]). A hold older than [`HOLD_FOR`] has lapsed (a
//! command that failed after making its notices, whose transaction never committed, leaves
//! such a hold behind), so nothing is held for good. Across processes the store's own claims
//! do the same.
//!
//! The adapters reach games only through here and the rest of the core, never the store.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tracing::warn;

use super::{Attachment, CoreError, Notice, Service, Via, DAY};
use crate::engine::VariantId;
use crate::i18n::{words, Lang};
use crate::store::GameStatus;
use crate::t;

/// The title of a game's thread: `Game #12: alice vs bob (Shogi)`, in `lang`.
pub(crate) fn thread_title(
    lang: Lang,
    game: i64,
    variant: &str,
    first: &str,
    second: &str,
) -> String {
    let variant = VariantId::parse(variant)
        .map_or_else(|| t!(lang, "core-thread-game"), |v| words::variant(lang, v));
    t!(
        lang,
        "core-thread-title",
        id = game,
        first = first,
        second = second,
        variant = variant
    )
}

/// How long a command may hold its notices before the delivery loop takes them anyway.
pub const HOLD_FOR: Duration = Duration::from_secs(300);

/// Notices held by the commands that made them, with when.
#[derive(Default)]
pub(crate) struct Held(Mutex<HashMap<i64, Instant>>);

impl Held {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Instant>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Where a game lives and who plays it, as a transport needs it to post there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHome {
    pub id: i64,
    pub guild: Option<String>,
    /// The channel the game was started in (its thread's parent).
    pub channel: Option<String>,
    /// Its own thread, if it has one.
    pub thread: Option<String>,
    /// User ids of the first and second player.
    pub players: [String; 2],
    /// Their display names, as the game's server shows them (raw: for the thread's title).
    pub names: Vec<String>,
    pub ply: u32,
    pub active: bool,
    /// A title for its thread: `Game #12: alice vs bob (Shogi)`.
    pub title: String,
}

impl Service {
    /// Holds a notice for the command making it (see the module header).
    pub(crate) fn hold(&self, id: i64) {
        let mut held = self.held.lock();
        // A transport that never lets go (a test driving the core) cannot grow this for good.
        if held.len() >= 10_000 {
            held.retain(|_, at| at.elapsed() < HOLD_FOR);
        }
        held.insert(id, Instant::now());
    }

    /// Whether a command still holds the notice.
    pub(crate) fn is_held(&self, id: i64) -> bool {
        self.held
            .lock()
            .get(&id)
            .is_some_and(|at| at.elapsed() < HOLD_FOR)
    }

    /// Lets go of a command's notices: the delivery loop may take those still unsent.
    pub fn release_notices(&self, ids: &[i64]) {
        let mut held = self.held.lock();
        for id in ids {
            held.remove(id);
        }
    }

    /// What the operator's gauges show from the database: the outbox backlog, when its oldest
    /// notice was made, the games in play (one cheap query; also the health check's probe).
    pub fn gauges(&self) -> Result<crate::store::Gauges, CoreError> {
        Ok(self.store.gauges()?)
    }

    /// Sets a notice aside that no way could deliver, with the reason (logged): its player is
    /// shown it by `games`.
    pub fn set_aside(&self, id: i64, user: &str, reason: &str) -> Result<(), CoreError> {
        warn!(notice = id, user, "notice set aside: {reason}");
        self.store.set_aside(id, reason, self.now())?;
        metrics::counter!("tegami_notices_failed_total").increment(1);
        self.release_notices(&[id]);
        Ok(())
    }

    /// The line `games` adds for a player whose notices of the last week could not be
    /// delivered, if any, in `lang` (the voice of the reply it goes in: the player's own).
    pub(crate) fn undelivered_note(
        &self,
        user: &str,
        lang: Lang,
    ) -> Result<Option<String>, CoreError> {
        let rows = self.store.undelivered(user, self.now() - 7 * DAY, 20)?;
        if rows.is_empty() {
            return Ok(None);
        }
        let mut games: Vec<String> = rows
            .iter()
            .filter_map(|r| r.notice.game)
            .map(|g| format!("#{g}"))
            .collect();
        games.dedup();
        let about = if games.is_empty() {
            String::new()
        } else {
            t!(lang, "core-undelivered-about", games = games.join(", "))
        };
        Ok(Some(t!(
            lang,
            "core-undelivered",
            count = rows.len() as i64,
            about = about
        )))
    }

    /// The public announcement of a move, held for the command like its other notices.
    pub(crate) fn post_notice(
        &self,
        g: &super::Loaded,
        ply: u32,
        viewer: &str,
        text: &str,
    ) -> Notice {
        let id = super::new_notice_id();
        self.hold(id);
        Notice {
            user: viewer.to_string(),
            via: Via::Post,
            channel: g.row.thread.clone().or(g.row.channel.clone()),
            text: text.to_string(),
            id: Some(id),
            game: Some(g.row.id),
            ply: Some(ply),
            league: None,
        }
    }

    /// Where a game lives, or `None` if there is no such game.
    pub fn game_home(&self, game: i64) -> Result<Option<GameHome>, CoreError> {
        let Some(row) = self.store.game(game)? else {
            return Ok(None);
        };
        let names: Vec<String> = row
            .players
            .iter()
            .map(|p| self.raw_name(p, row.guild.as_deref()))
            .collect();
        // The thread is public: in the server's language.
        let lang = self.public_voice(row.guild.as_deref()).lang;
        let title = thread_title(lang, game, &row.variant, &names[0], &names[1]);
        Ok(Some(GameHome {
            id: row.id,
            guild: row.guild,
            channel: row.channel,
            thread: row.thread,
            players: row.players,
            names,
            ply: row.ply,
            active: row.status == GameStatus::Active,
            title,
        }))
    }

    /// Moves a game to a new home (its old thread or channel is gone, or closed to the bot).
    pub fn set_home(
        &self,
        game: i64,
        channel: Option<&str>,
        thread: Option<&str>,
    ) -> Result<(), CoreError> {
        Ok(self.store.set_home(game, channel, thread)?)
    }

    /// The channel a server set for its games (`server channel`), if any.
    pub fn server_channel(&self, guild: &str) -> Result<Option<String>, CoreError> {
        Ok(self.store.server(guild)?.and_then(|s| s.games_channel))
    }

    /// The board after `ply` moves of a game, as `viewer` sees it: the picture of a move's
    /// announcement delivered late. `None` when pictures are off.
    pub fn board_at(
        &self,
        game: i64,
        ply: u32,
        viewer: &str,
    ) -> Result<Option<Attachment>, CoreError> {
        let g = self.load(game)?;
        let ply = (ply as usize).min(g.game.moves().len());
        self.board_image(&g, ply, viewer, self.voice_of(viewer))
    }

    /// The active game played in `thread` where `user` is to move, if any: a bare move typed
    /// there is theirs.
    pub fn game_to_move_in(&self, user: &str, thread: &str) -> Result<Option<i64>, CoreError> {
        Ok(self
            .store
            .games_of(user, GameStatus::Active, None, 200)?
            .into_iter()
            .find(|g| g.thread.as_deref() == Some(thread) && g.to_move.as_deref() == Some(user))
            .map(|g| g.id))
    }
}
