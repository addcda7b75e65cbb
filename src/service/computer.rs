//! Games against the computer, and game analysis.
//!
//! The computer is a user like any other in the store: its id is the bot's own (set by the
//! transport with [`Service::set_computer`]: the bot's Discord user, `tegami` at the console),
//! and a game against it stores the computer's level (`games.computer_level`). Challenging it
//! starts the game at once, casual. Its moves are not made on the request path: a reply says
//! when the computer is to move ([`Reply::think`]), and the transport hands the game to a
//! [`Worker`] (a queue and a thread per core) which calls [`Service::computer_move`]. The
//! move is then stored and announced like any other, with the board picture and a notice to
//! the player. Nothing but the store says whose turn it is, so a restart resumes the moves
//! that were due ([`Service::computer_games_due`]).
//!
//! The computer has no clock: when it is to move the sweep passes its game by (a restart after
//! a long outage must not forfeit it), and it answers offers by refusing them at once.

use std::collections::{HashMap, HashSet};
use std::sync::{mpsc, Arc, Mutex};

use tracing::{info, warn};

use crate::engine::notation::{code, fen, human, move_number};
use crate::engine::search::{self, Analysis, Limits, DEFAULT_TT_MB};
use crate::engine::{Color, Game, Variant};
use crate::render::chart::{eval_chart_png, ChartOptions};
use crate::store::{GameStatus, NewGame};

use super::{
    play::ChallengeArgs, user_err, Attachment, ColorChoice, CoreError, Loaded, Place, Reply,
    Service, User,
};

/// The level of a challenge to the computer that names none.
pub const DEFAULT_LEVEL: u8 = 3;

/// Nodes searched in each position of an analysis (a 100-move game: about 2 s on one core).
pub const ANALYSIS_NODES: u64 = 20_000;

/// Finished analyses kept in memory (a finished game's analysis never changes).
const ANALYSES_KEPT: usize = 64;

impl Service {
    /// Makes `user` the computer: challenging it starts a game against the engine.
    pub fn set_computer(&self, user: User) {
        if let Err(e) = self.store.touch_user(&user.id, &user.name, self.now()) {
            warn!("cannot record the computer's name: {e}");
        }
        *self.computer.write().unwrap_or_else(|e| e.into_inner()) = Some(user);
    }

    /// The computer, once the transport has said who it is.
    pub fn computer(&self) -> Option<User> {
        self.computer
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub(crate) fn is_computer(&self, id: &str) -> bool {
        self.computer
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_some_and(|c| c.id == id)
    }

    /// Whether the computer is to move in this game.
    pub(crate) fn computer_to_move(&self, g: &crate::store::GameRow) -> bool {
        g.status == GameStatus::Active
            && g.computer_level.is_some()
            && g.to_move.as_deref().is_some_and(|u| self.is_computer(u))
    }

    /// A challenge to the computer: the game starts at once, casual, at the level asked for.
    pub(crate) fn challenge_computer(
        &self,
        user: &User,
        place: &Place,
        computer: &User,
        v: &'static Variant,
        a: ChallengeArgs,
    ) -> Result<Reply, CoreError> {
        let level = a.level.unwrap_or(DEFAULT_LEVEL);
        if !search::LEVELS.contains(&level) {
            return user_err(format!(
                "level {level} does not exist: choose 1 (a beginner) to 5 (the strongest)"
            ));
        }
        if a.rated == Some(true) {
            return user_err(format!(
                "games against {} are casual: drop `rated`",
                self.shown_name(&computer.id, place.guild.as_deref())
            ));
        }
        let server = self.server_of(place)?;
        let days = a.days.unwrap_or(server.default_days);
        super::check_days(days)?;
        let start = self.start_of(v, a.handicap.as_deref(), a.setup.as_deref())?;
        let human_first = match a.color {
            ColorChoice::First => true,
            ColorChoice::Second => false,
            ColorChoice::Random => super::new_notice_id() & 1 == 0,
        };
        let players = if human_first {
            [user.id.to_string(), computer.id.to_string()]
        } else {
            [computer.id.to_string(), user.id.to_string()]
        };
        let first_mover = players[start.side_to_move().index()].clone();
        let deadline = if first_mover == user.id {
            Some(self.deadline_for(&user.id, days)?)
        } else {
            None
        };
        let row = self.store.start_game(
            &NewGame {
                variant: v.id().as_str().to_string(),
                setup: a.handicap.clone().or(a.setup.clone()),
                start_position: fen::write(&start),
                players: players.clone(),
                guild: place.guild.clone(),
                channel: server.games_channel.clone().or(place.channel.clone()),
                rated: false,
                days_per_move: days,
                deadline,
                to_move: first_mover.clone(),
                computer_level: Some(level),
            },
            &[],
            self.now(),
        )?;
        info!(game = row.id, level, "game against the computer started");
        let loaded = self.load(row.id)?;
        let text = format!(
            "Game #{} begins: {} ({}) vs {} ({}), {} at level {level}, casual, {days} day{} per move for {}. {} to move.",
            row.id,
            self.shown_name(&players[0], place.guild.as_deref()),
            v.side_name(Color::Black),
            self.shown_name(&players[1], place.guild.as_deref()),
            v.side_name(Color::White),
            self.shown_name(&computer.id, place.guild.as_deref()),
            if days == 1 { "" } else { "s" },
            self.shown_name(&user.id, place.guild.as_deref()),
            self.shown_name(&first_mover, place.guild.as_deref()),
        );
        Ok(Reply {
            game: Some(loaded.game_ref(true)),
            text,
            attachments: self
                .board_image(&loaded, loaded.game.moves().len(), &user.id)?
                .into_iter()
                .collect(),
            buttons: super::play::game_buttons(row.id),
            think: (first_mover == computer.id).then_some(row.id),
            ..Reply::default()
        })
    }

    /// Refuses an offer to the computer (it has no opinion on draws and take-backs).
    pub(crate) fn refuse_offer_to_computer(
        &self,
        g: &Loaded,
        user: &User,
    ) -> Result<(), CoreError> {
        let other = g.side_of(&user.id).map(|c| g.player(!c).to_string());
        match other {
            Some(o) if self.is_computer(&o) => user_err(format!(
                "{} does not answer offers: play on, or resign",
                self.shown_name(&o, g.row.guild.as_deref())
            )),
            _ => Ok(()),
        }
    }

    /// Thinks and plays the computer's move in `game` if it is its turn there (`None` when it
    /// is not: the game ended, the player took the move back, another worker was quicker).
    /// The reply is the move's announcement, as if the computer had typed it.
    pub fn computer_move(&self, game: i64) -> Result<Option<Reply>, CoreError> {
        let Some(computer) = self.computer() else {
            return Ok(None);
        };
        let g = self.load(game)?;
        if !self.computer_to_move(&g.row) {
            return Ok(None);
        }
        let level = g.row.computer_level.unwrap_or(DEFAULT_LEVEL);
        // The same game, position and level give the same move (levels 1-4 count nodes).
        let seed = (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g.row.ply as u64;
        let found = search::think(&g.game, &Limits::level(level, seed), DEFAULT_TT_MB);
        let place = Place {
            guild: g.row.guild.clone(),
            channel: g.row.channel.clone(),
            admin: false,
        };
        let reply = if found.declare {
            self.declare(&computer, &place, Some(game))
        } else {
            match found.best {
                Some(m) => {
                    let text = code::write(g.variant(), m);
                    self.play_move(&computer, &place, Some(game), &text, Some(g.row.ply))
                }
                None => return Ok(None),
            }
        };
        match reply {
            Ok(r) => Ok(Some(r)),
            // The position changed while it thought (a resignation, say): nothing to do.
            Err(CoreError::User(msg)) => {
                info!(game, "the computer's move was not needed: {msg}");
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Games where the computer is to move (at start: the moves a stop interrupted).
    pub fn computer_games_due(&self) -> Result<Vec<i64>, CoreError> {
        let Some(computer) = self.computer() else {
            return Ok(Vec::new());
        };
        Ok(self
            .store
            .computer_games(&computer.id)?
            .into_iter()
            .map(|g| g.id)
            .collect())
    }

    /// `/analysis`: a finished game's evaluation chart and its three biggest swings.
    pub(crate) fn analysis(&self, user: &User, place: &Place, id: i64) -> Result<Reply, CoreError> {
        let g = self.load_visible(user, place, id)?;
        if g.row.status == GameStatus::Active {
            return user_err(format!(
                "game #{id} is still being played: analysis is for finished games"
            ));
        }
        if g.game.moves().is_empty() {
            return user_err(format!("game #{id} has no moves to analyse"));
        }
        let key = (id, g.row.version);
        if let Some(r) = self
            .analyses
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return Ok(r.clone());
        }
        let a = search::analyse(&g.game, ANALYSIS_NODES);
        let v = g.variant();
        // The chart (a picture) names the players raw, the text as texts do.
        let who = |c: Color, text: bool| {
            let guild = g.row.guild.as_deref();
            format!(
                "{} ({})",
                if text {
                    self.shown_name(g.player(c), guild)
                } else {
                    self.raw_name(g.player(c), guild)
                },
                crate::render::capitalised(v.side_name(c))
            )
        };
        let opts = ChartOptions {
            title: format!("Game #{id}, {}: evaluation", v.spec.name),
            first: who(Color::Black, false),
            second: who(Color::White, false),
            ..ChartOptions::default()
        };
        let png = eval_chart_png(&a.evals, &opts)
            .map_err(|e| CoreError::Internal(format!("game {id}: chart: {e}")))?;
        let swings = swing_lines(&g.game, &a, 3);
        let mut text = format!(
            "Game #{id}: the evaluation after every move, from {}'s side (above the middle: {} is better).",
            who(Color::Black, true),
            who(Color::Black, true)
        );
        if swings.is_empty() {
            text.push_str(" No move lost much.");
        } else {
            text.push_str(" The biggest swings:");
            for s in swings {
                text.push_str("\n- ");
                text.push_str(&s);
            }
        }
        let reply = Reply {
            text,
            attachments: vec![Attachment::new(format!("game-{id}-analysis.png"), png)],
            ..Reply::default()
        };
        let mut cache = self.analyses.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= ANALYSES_KEPT {
            cache.clear();
        }
        cache.insert(key, reply.clone());
        Ok(reply)
    }
}

/// The `n` moves that lost the most, in human notation: `24... B*5e lost 6.1 points; better
/// was 24... G5h`.
pub fn swing_lines(game: &Game, a: &Analysis, n: usize) -> Vec<String> {
    a.biggest_swings(n)
        .into_iter()
        .map(|s| {
            let pos = game.position_at(s.ply);
            let number = move_number(s.ply, a.first);
            let better = s
                .better
                .map(|b| format!("; better was {number} {}", human(&pos, b)))
                .unwrap_or_default();
            format!(
                "{number} {} lost {:.1} points{better}",
                human(&pos, s.played),
                s.loss
            )
        })
        .collect()
}

/// The computer's moves, off the request path: games queued by id (each at most once at a
/// time), thought about by a few threads, each reply handed to `announce`.
pub struct Worker {
    queue: Mutex<mpsc::Sender<i64>>,
    queued: Arc<Mutex<HashSet<i64>>>,
}

impl Worker {
    /// Starts `threads` threads (at least one) that run `job` on each queued game. The job
    /// plays the computer's move (usually [`Service::computer_move`]) and announces it.
    pub fn start(threads: usize, job: Arc<dyn Fn(i64) + Send + Sync>) -> Worker {
        let (tx, rx) = mpsc::channel::<i64>();
        let rx = Arc::new(Mutex::new(rx));
        let queued: Arc<Mutex<HashSet<i64>>> = Arc::default();
        for i in 0..threads.max(1) {
            let rx = rx.clone();
            let queued = queued.clone();
            let job = job.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("computer-{i}"))
                .spawn(move || loop {
                    let next = rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok(game) = next else { return };
                    queued
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .remove(&game);
                    job(game);
                });
            if let Err(e) = spawned {
                warn!("cannot start a computer thread: {e}");
            }
        }
        Worker {
            queue: Mutex::new(tx),
            queued,
        }
    }

    /// One thread per core, as many searches as cores at most.
    pub fn threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    /// Queues a game (a game already waiting is not queued twice).
    pub fn queue(&self, game: i64) {
        if !self
            .queued
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(game)
        {
            return;
        }
        if self
            .queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .send(game)
            .is_err()
        {
            warn!(game, "the computer's threads have stopped; move not queued");
        }
    }
}

/// Analyses kept, by game and version.
pub(crate) type Analyses = Mutex<HashMap<(i64, i64), Reply>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_runs_each_queued_game_once_per_queueing() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, done_rx) = mpsc::channel();
        let s = seen.clone();
        let w = Worker::start(
            2,
            Arc::new(move |g| {
                s.lock().unwrap().push(g);
                done_tx.send(()).unwrap();
            }),
        );
        for g in [1, 2, 3] {
            w.queue(g);
        }
        for _ in 0..3 {
            done_rx
                .recv_timeout(std::time::Duration::from_secs(5))
                .unwrap();
        }
        let mut v = seen.lock().unwrap().clone();
        v.sort();
        assert_eq!(v, [1, 2, 3]);
    }
}
