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

use std::collections::{HashMap, HashSet, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard, OnceLock};

use super::long::{self, AnalysisSlot, Pool};
use std::time::Duration;

use tracing::{error, info, warn};

use crate::engine::notation::{code, fen, move_number, written};
use crate::engine::search::{self, Analysis, Budget, Limits, DEFAULT_TT_MB};
use crate::engine::{Color, Game, Variant};
use crate::i18n::{words, Lang};
use crate::render::chart::{eval_chart_png, ChartOptions};
use crate::store::{GameStatus, Limit, NewGame, StoreError};
use crate::{msg, t};

use super::{
    play::{ChallengeArgs, MAX_COMPUTER_GAMES},
    user_err, Attachment, ColorChoice, CoreError, Loaded, Place, Reply, Service, User, Voice,
};

/// The level of a challenge to the computer that names none.
pub const DEFAULT_LEVEL: u8 = 3;

/// Nodes searched in each position of an analysis at most (a 100-move game: about 2 s on one
/// core); a long game gets fewer (see [`default_analysis_budget`]).
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

    /// Whether the clock must pass this game by because the computer may be to move in it:
    /// it is, or the game is against the computer and this process does not know yet who the
    /// computer is (a sweep at start, before the transport said: Discord's `ready` comes after
    /// the first sweep), so the player to move may be the computer. The computer has no clock.
    pub(crate) fn computer_may_be_to_move(&self, g: &crate::store::GameRow) -> bool {
        g.status == GameStatus::Active
            && g.computer_level.is_some()
            && match self.computer() {
                Some(c) => g.to_move.as_deref() == Some(c.id.as_str()),
                None => true,
            }
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
            return user_err(msg!("computer-bad-level", level = level));
        }
        if a.rated == Some(true) {
            return user_err(msg!(
                "computer-casual-only",
                name = self.shown_name(&computer.id, place.guild.as_deref())
            ));
        }
        let server = self.server_of(place)?;
        let control = a
            .clock
            .control(a.days, server.default_days)
            .map_err(CoreError::User)?;
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
        // The computer has no clock: the game's first deadline is the player's, if they begin.
        let (deadline, turn_span, banks) = self.first_turn(&control, &first_mover)?;
        let deadline = (first_mover == user.id).then_some(deadline);
        // The cap is counted by the store in the transaction that starts the game, so that
        // challenges sent at once never pass it together.
        let started = self.store.start_computer_game(
            &NewGame {
                variant: v.id().as_str().to_string(),
                setup: a.handicap.clone().or(a.setup.clone()),
                start_position: fen::write(&start),
                players: players.clone(),
                guild: place.guild.clone(),
                channel: server.games_channel.clone().or(place.channel.clone()),
                rated: false,
                control,
                deadline,
                banks,
                turn_span,
                to_move: first_mover.clone(),
                computer_level: Some(level),
            },
            &user.id,
            MAX_COMPUTER_GAMES,
            &[],
            self.now(),
        );
        let row = match started {
            Ok(row) => row,
            Err(StoreError::Limit(Limit::ComputerGames { games })) => {
                let playing: Vec<String> = games.iter().map(|g| format!("#{g}")).collect();
                return user_err(msg!(
                    "computer-too-many",
                    count = playing.len(),
                    name = computer.name.as_str(),
                    games = playing.join(", ")
                ));
            }
            Err(e) => return Err(e.into()),
        };
        info!(game = row.id, level, "game against the computer started");
        // Stored: from here on nothing may fail (the game is not read back).
        let loaded = Loaded {
            row,
            game: Game::new(start),
        };
        let row = &loaded.row;
        let lang = user.voice.lang;
        let side = |c: Color| match lang {
            Lang::En => v.side_name(c).to_string(),
            _ => words::side(lang, v, c),
        };
        let mut text = t!(
            lang,
            "computer-game-begins",
            id = row.id,
            black = self.shown_name(&players[0], place.guild.as_deref()),
            black_side = side(Color::Black),
            white = self.shown_name(&players[1], place.guild.as_deref()),
            white_side = side(Color::White),
            computer = self.shown_name(&computer.id, place.guild.as_deref()),
            level = level,
            clock = super::timing::control_text(lang, &control),
            player = self.shown_name(&user.id, place.guild.as_deref()),
            first = self.shown_name(&first_mover, place.guild.as_deref())
        );
        let attachments = self.picture_after_commit(&loaded, 0, &user.id, &mut text, user.voice);
        Ok(Reply {
            game: Some(loaded.game_ref(true)),
            text,
            attachments,
            buttons: super::play::game_buttons(loaded.row.id, lang),
            think: (first_mover == computer.id).then_some(loaded.row.id),
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
            Some(o) if self.is_computer(&o) => user_err(msg!(
                "computer-no-offers",
                name = self.shown_name(&o, g.row.guild.as_deref())
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
        if search_fault_due() {
            panic!("{FAULT_SEARCH_PANICS}: a deliberate panic in the search of game {game}");
        }
        computer_fault_wait(game);
        // One thread, on a place of the long work ahead of the players' analyses: a core is
        // always left to the commands (see `super::long`).
        let place = match self.analyses.pool.enter(None) {
            Ok(t) => t.wait(|_| {}),
            Err(_) => unreachable!("the computer's tickets are never refused"),
        };
        let limits = Limits {
            threads: 1,
            ..Limits::level(level, seed)
        };
        let found = search::think(&g.game, &limits, DEFAULT_TT_MB);
        drop(place);
        let place = Place {
            guild: g.row.guild.clone(),
            channel: g.row.channel.clone(),
            admin: false,
            locale: None,
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
            Ok(mut r) => {
                // Its followers pinged at each move are told, as after anyone's move.
                r.notify.extend(self.follow_step(game));
                Ok(Some(r))
            }
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
    ///
    /// Bounded (see [`Analyses`]): a finished analysis is kept; a request for a game being
    /// analysed waits for that analysis and shares its result; otherwise it waits for a place
    /// in the process's pool, told its place in the queue through `progress`; and the analysis
    /// itself keeps to [`Service::analysis_budget`].
    pub(crate) fn analysis(
        &self,
        user: &User,
        place: &Place,
        id: i64,
        progress: &(dyn Fn(&str) + Sync),
    ) -> Result<Reply, CoreError> {
        let g = self.load_visible(user, place, id)?;
        if g.row.status == GameStatus::Active {
            return user_err(msg!("computer-analysis-active", id = id));
        }
        if g.game.moves().is_empty() {
            return user_err(msg!("computer-analysis-empty", id = id));
        }
        let lang = user.voice.lang;
        let key = (id, g.row.version);
        let a = &self.analyses;
        let (shared, lead) = {
            let mut running = lock(&a.running);
            // Looked up under the lock of the running ones: a leader moves its result from
            // there to the kept ones under that lock, so no request falls between the two.
            if let Some(r) = lock(&a.kept).get(key) {
                drop(running);
                return self.analysis_reply(&g, id, &r, user.voice);
            }
            match running.get(&key) {
                Some(s) => (s.clone(), false),
                None => {
                    let s = Arc::new(SharedAnalysis::default());
                    running.insert(key, s.clone());
                    (s, true)
                }
            }
        };
        if !lead {
            // Waiting for another request's analysis takes no place of the pool.
            drop(long::take_bound());
            progress(&t!(lang, "computer-analysis-running", id = id));
            let r = shared.wait().map_err(CoreError::Internal)?;
            return self.analysis_reply(&g, id, &r, user.voice);
        }
        // Whatever happens below (an error, a panic), the requests sharing this analysis are
        // answered and the game may be analysed again.
        let mut lead = Leader {
            analyses: a,
            key,
            shared,
            done: false,
        };
        // The place the transport took for this command, else one waited for here.
        let slot = match long::take_bound() {
            Some(slot) => slot,
            None => self.long_ticket(user)?.wait(|position| {
                progress(&t!(
                    lang,
                    "computer-analysis-queued",
                    id = id,
                    position = position
                ))
            }),
        };
        let result = self.compute_analysis(&g, id);
        drop(slot);
        lead.finish(&result);
        let a = result?;
        self.analysis_reply(&g, id, &a, user.voice)
    }

    /// The analysis of a finished game, within the budget. Kept as numbers: each request puts
    /// it into words (and a chart) in its own language.
    fn compute_analysis(&self, g: &Loaded, id: i64) -> Result<Arc<Analysis>, CoreError> {
        let budget = self.analysis_budget();
        let t0 = std::time::Instant::now();
        // One thread: the analysis takes one place of the long work (see `super::long`).
        let a = search::analyse_on(&g.game, &budget, 1);
        self.analyses.computed.fetch_add(1, Ordering::SeqCst);
        let total = g.game.moves().len();
        info!(
            game = id,
            plies = total,
            analysed = a.moves.len(),
            nodes = a.nodes_per_position,
            ms = t0.elapsed().as_millis() as u64,
            cut = a.cut,
            "game analysed"
        );
        Ok(Arc::new(a))
    }

    /// An analysis as a reply in `voice`: the chart, what it shows, the biggest swings.
    fn analysis_reply(
        &self,
        g: &Loaded,
        id: i64,
        a: &Analysis,
        voice: Voice,
    ) -> Result<Reply, CoreError> {
        let lang = voice.lang;
        let total = g.game.moves().len();
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
                words::side(lang, v, c)
            )
        };
        let opts = ChartOptions {
            title: t!(
                lang,
                "computer-chart-title",
                id = id,
                variant = words::variant(lang, v.id())
            ),
            first: who(Color::Black, false),
            second: who(Color::White, false),
            lang,
            ..ChartOptions::default()
        };
        let png = eval_chart_png(&a.evals, &opts)
            .map_err(|e| CoreError::Internal(format!("game {id}: chart: {e}")))?;
        let swings = swing_lines_in(&g.game, a, 3, voice);
        let mut text = t!(
            lang,
            "computer-analysis-head",
            id = id,
            first = who(Color::Black, true)
        );
        if a.cut {
            text.push_str(&t!(
                lang,
                "computer-analysis-cut",
                analysed = a.moves.len(),
                total = total
            ));
        }
        if swings.is_empty() {
            text.push_str(&t!(lang, "computer-analysis-calm"));
        } else {
            text.push_str(&t!(lang, "computer-analysis-swings"));
            for s in swings {
                text.push_str("\n- ");
                text.push_str(&s);
            }
        }
        Ok(Reply {
            text,
            attachments: vec![Attachment::new(format!("game-{id}-analysis.png"), png)],
            ..Reply::default()
        })
    }

    /// What one analysis may spend.
    pub fn analysis_budget(&self) -> Budget {
        lock(&self.analyses.budget).clone()
    }

    /// Sets what one analysis may spend (tests and operators; the default is
    /// [`default_analysis_budget`]).
    pub fn set_analysis_budget(&self, budget: Budget) {
        *lock(&self.analyses.budget) = budget;
    }

    /// Sets how many analyses may run at once in this process (at least one; the default is
    /// [`default_analysis_limit`]). Requests beyond it wait in a queue, first come first served.
    pub fn set_analysis_limit(&self, limit: usize) {
        self.analyses.pool.set_limit(limit);
    }

    /// How many analyses this process has computed (a request answered from a kept analysis,
    /// or sharing one that was running, computes none).
    pub fn analyses_computed(&self) -> u64 {
        self.analyses.computed.load(Ordering::SeqCst)
    }

    /// Takes a place in the pool of analyses, as an analysis does, waiting in the queue if
    /// the pool is full; the place is given back when the slot is dropped. For tests and
    /// maintenance (holding the pool full shows what a queued request is told).
    pub fn analysis_slot(&self, progress: impl Fn(usize)) -> AnalysisSlot {
        match self.analyses.pool.enter(None) {
            Ok(t) => t.wait(progress),
            Err(_) => unreachable!("the computer's tickets are never refused"),
        }
    }

    /// What a long request (`/analysis`, `/replay`) waiting for a place is told, in its sender's
    /// voice: its place in the queue (1: next). For a transport that waits on its own runtime
    /// ([`long::Ticket::ready_telling`]).
    pub fn long_queued_note(&self, req: &super::Request, position: usize) -> String {
        let lang = match self.sender(req) {
            Ok(u) => u.voice.lang,
            Err(_) => super::speech::voice_for(None, req.user.locale.as_deref()).lang,
        };
        match req.command {
            super::Command::Analysis { game } => t!(
                lang,
                "computer-analysis-queued",
                id = game,
                position = position
            ),
            super::Command::Replay { game } => t!(
                lang,
                "computer-replay-queued",
                id = game,
                position = position
            ),
            _ => t!(lang, "computer-long-queued", position = position),
        }
    }

    /// A player's place in the queue of long work (an analysis, a replay), refused at once
    /// beyond the caps of `super::long` with a message that says which.
    pub fn long_ticket(&self, user: &User) -> Result<long::Ticket, CoreError> {
        self.analyses
            .pool
            .enter(Some(&user.id))
            .map_err(|busy| match busy {
                long::Busy::Yours(n) => CoreError::User(msg!("computer-long-yours", count = n)),
                long::Busy::Full(n) => CoreError::User(msg!("computer-long-full", count = n)),
            })
    }

    /// The analyses running and waiting for a place now.
    pub fn analysis_load(&self) -> (usize, usize) {
        self.analyses.pool.load()
    }
}

/// The `n` moves that lost the most, in human notation: `24... B*5e lost 6.1 points; better
/// was 24... G5h`.
pub fn swing_lines(game: &Game, a: &Analysis, n: usize) -> Vec<String> {
    swing_lines_in(game, a, n, Voice::default())
}

/// [`swing_lines`] in `voice`: its language, the moves in its notation.
pub fn swing_lines_in(game: &Game, a: &Analysis, n: usize, voice: Voice) -> Vec<String> {
    let lang = voice.lang;
    a.biggest_swings(n)
        .into_iter()
        .map(|s| {
            let pos = game.position_at(s.ply);
            let number = move_number(s.ply, a.first);
            let last = s
                .ply
                .checked_sub(1)
                .and_then(|i| game.moves().get(i))
                .map(|m| m.to());
            let write = |m| written(&pos, m, voice.notation, last);
            let loss = format!("{:.1}", s.loss);
            match s.better {
                Some(b) => t!(
                    lang,
                    "computer-swing-better",
                    number = number.as_str(),
                    played = write(s.played),
                    loss = loss,
                    better = write(b)
                ),
                None => t!(
                    lang,
                    "computer-swing",
                    number = number.as_str(),
                    played = write(s.played),
                    loss = loss
                ),
            }
        })
        .collect()
}

/// Locks a mutex, also one a panicking thread left poisoned (what it guards stays usable).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The test switch `TEGAMI_FAULT_SEARCH_PANICS=N`: the first `N` searches of the computer in
/// this process panic (read once, at the first search). For tests of the recovery only.
pub const FAULT_SEARCH_PANICS: &str = "TEGAMI_FAULT_SEARCH_PANICS";

/// Whether this search must panic (see [`FAULT_SEARCH_PANICS`]).
fn search_fault_due() -> bool {
    static LEFT: OnceLock<AtomicU64> = OnceLock::new();
    LEFT.get_or_init(|| {
        AtomicU64::new(
            std::env::var(FAULT_SEARCH_PANICS)
                .ok()
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or(0),
        )
    })
    .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
    .is_ok()
}

/// The test switch `TEGAMI_FAULT_COMPUTER_WAITS_FOR=PATH`: each search of the computer in this
/// process waits, before it begins, until a file exists at `PATH` (saying `computer move
/// paused (game N)` on stderr; at most five minutes), so that a test can stop the bot while
/// the computer thinks. For tests only.
pub const FAULT_COMPUTER_WAITS_FOR: &str = "TEGAMI_FAULT_COMPUTER_WAITS_FOR";

/// Waits as [`FAULT_COMPUTER_WAITS_FOR`] says, when it is set.
fn computer_fault_wait(game: i64) {
    let Some(path) = std::env::var_os(FAULT_COMPUTER_WAITS_FOR) else {
        return;
    };
    let path = std::path::PathBuf::from(path);
    eprintln!("computer move paused (game {game})");
    let until = std::time::Instant::now() + Duration::from_secs(300);
    while !path.exists() && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!("computer move resumed (game {game})");
}

/// Games the computer's queue holds at most; beyond that [`Worker::queue`] refuses.
pub const WORKER_QUEUE: usize = 256;

/// How long a game whose search panicked waits before it is queued again.
pub const RETRY_DELAY: Duration = Duration::from_millis(500);

/// A game whose search panicked this many times in a row is given up until the next re-scan.
pub const PANICS_IN_A_ROW: u32 = 3;

/// The computer's moves, off the request path: games queued by id (each at most once at a
/// time, at most a bounded number waiting), thought about by a few threads, each reply handed
/// to `announce`.
///
/// A panic in a job is caught and logged with the game; the game is queued again after
/// [`RETRY_DELAY`] (given up, with an error in the log, after [`PANICS_IN_A_ROW`] panics in a
/// row), and the thread goes on serving. A game refused by a full queue or given up is not
/// lost: the store says whose turn it is, and the periodic re-scan of the games where the
/// computer is to move ([`Service::computer_games_due`]) queues it again.
pub struct Worker {
    inner: Arc<WorkerQueue>,
}

/// What the worker's threads share with it (they hold it weakly: dropping the [`Worker`]
/// closes the queue, and the threads end).
struct WorkerQueue {
    tx: mpsc::SyncSender<i64>,
    capacity: usize,
    /// Games waiting in the queue.
    queued: Mutex<HashSet<i64>>,
    /// Panics in a row, by game.
    panics: Mutex<HashMap<i64, u32>>,
}

impl WorkerQueue {
    fn queue(&self, game: i64) -> bool {
        if !self.with_queued(|q| q.insert(game)) {
            // Already waiting: it will be taken up.
            return true;
        }
        match self.tx.try_send(game) {
            Ok(()) => true,
            Err(mpsc::TrySendError::Full(_)) => {
                self.with_queued(|q| q.remove(&game));
                warn!(
                    game,
                    capacity = self.capacity,
                    "the computer's queue is full: the game waits for the next re-scan"
                );
                false
            }
            Err(mpsc::TrySendError::Disconnected(_)) => {
                self.with_queued(|q| q.remove(&game));
                warn!(game, "the computer's threads have stopped; move not queued");
                false
            }
        }
    }

    /// Changes the set of games waiting, and publishes its size (the
    /// `tegami_computer_queue_length` gauge).
    fn with_queued<T>(&self, change: impl FnOnce(&mut HashSet<i64>) -> T) -> T {
        let mut queued = lock(&self.queued);
        let out = change(&mut queued);
        metrics::gauge!("tegami_computer_queue_length").set(queued.len() as f64);
        out
    }

    /// After a job: a success forgets the game's panics; a panic queues it again, or gives
    /// it up after too many in a row.
    fn after(&self, game: i64, outcome: std::thread::Result<()>) {
        let Err(panic) = outcome else {
            lock(&self.panics).remove(&game);
            return;
        };
        let why = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string());
        let n = {
            let mut panics = lock(&self.panics);
            let n = panics.entry(game).or_default();
            *n += 1;
            let count = *n;
            if count >= PANICS_IN_A_ROW {
                panics.remove(&game);
            }
            count
        };
        if n >= PANICS_IN_A_ROW {
            error!(
                game,
                panics = n,
                "the computer's search panicked ({why}) {n} times in a row: the game is given up until the next re-scan"
            );
            return;
        }
        warn!(
            game,
            panics = n,
            "the computer's search panicked ({why}): the game is queued again"
        );
        std::thread::sleep(RETRY_DELAY);
        self.queue(game);
    }
}

impl Worker {
    /// Starts `threads` threads (at least one) that run `job` on each queued game, with a
    /// queue of [`WORKER_QUEUE`] games. The job plays the computer's move (usually
    /// [`Service::computer_move`]) and announces it.
    pub fn start(threads: usize, job: Arc<dyn Fn(i64) + Send + Sync>) -> Worker {
        Worker::start_bounded(threads, WORKER_QUEUE, job)
    }

    /// `start`, with a queue of `capacity` games (at least one).
    pub fn start_bounded(
        threads: usize,
        capacity: usize,
        job: Arc<dyn Fn(i64) + Send + Sync>,
    ) -> Worker {
        let capacity = capacity.max(1);
        let (tx, rx) = mpsc::sync_channel::<i64>(capacity);
        let rx = Arc::new(Mutex::new(rx));
        let inner = Arc::new(WorkerQueue {
            tx,
            capacity,
            queued: Mutex::default(),
            panics: Mutex::default(),
        });
        for i in 0..threads.max(1) {
            let rx = rx.clone();
            let shared = Arc::downgrade(&inner);
            let job = job.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("computer-{i}"))
                .spawn(move || loop {
                    let next = lock(&rx).recv();
                    let Ok(game) = next else { return };
                    if let Some(q) = shared.upgrade() {
                        q.with_queued(|queued| queued.remove(&game));
                    }
                    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| job(game)));
                    match shared.upgrade() {
                        Some(q) => q.after(game, outcome),
                        None => return,
                    }
                });
            if let Err(e) = spawned {
                warn!("cannot start a computer thread: {e}");
            }
        }
        Worker { inner }
    }

    /// As many threads as places of long work ([`super::long::default_long_limit`]: the
    /// cores but one): each search takes one place, so more threads would only wait.
    pub fn threads() -> usize {
        super::long::default_long_limit()
    }

    /// Queues a game (a game already waiting is not queued twice: true). False, logged, when
    /// the queue is full (or its threads stopped): the game is not lost, the periodic re-scan
    /// of [`Service::computer_games_due`] queues it again.
    pub fn queue(&self, game: i64) -> bool {
        self.inner.queue(game)
    }
}

/// How many analyses may run at once by default: the places of long work
/// ([`super::long::default_long_limit`]: the cores but one, for the commands).
pub fn default_analysis_limit() -> usize {
    super::long::default_long_limit()
}

/// What one analysis may spend by default: [`ANALYSIS_NODES`] a position for games up to 150
/// moves, then 3,000,000 nodes spread over the game (at least 2,000 a position), and 20
/// seconds of wall clock at most (a 300-move game of the largest board takes well under that
/// on one core; the `search` bench prints it).
pub fn default_analysis_budget() -> Budget {
    Budget {
        total_nodes: 3_000_000,
        max_per_position: ANALYSIS_NODES,
        min_per_position: 2_000,
        time: Duration::from_secs(20),
    }
}

/// The analyses of the process: those finished (kept, by game and version), those running
/// (shared by every request of the same game meanwhile), and the pool that bounds how many run
/// at once.
pub(crate) struct Analyses {
    kept: Mutex<Kept>,
    running: Mutex<HashMap<(i64, i64), Arc<SharedAnalysis>>>,
    /// The places of the process's long work, shared with the computer's searches and the
    /// replays (see `super::long`).
    pub(crate) pool: Arc<Pool>,
    budget: Mutex<Budget>,
    computed: AtomicU64,
}

impl Default for Analyses {
    fn default() -> Analyses {
        Analyses {
            kept: Mutex::default(),
            running: Mutex::default(),
            pool: Pool::new(default_analysis_limit()),
            budget: Mutex::new(default_analysis_budget()),
            computed: AtomicU64::new(0),
        }
    }
}

/// Finished analyses, by game and version, at most [`ANALYSES_KEPT`]: the one asked for least
/// recently is given up first (a player cycling through many games recomputes only those that
/// fell out, not every one).
#[derive(Default)]
pub(crate) struct Kept(VecDeque<((i64, i64), Arc<Analysis>)>);

impl Kept {
    /// The analysis kept for `key`, now the most recently asked.
    fn get(&mut self, key: (i64, i64)) -> Option<Arc<Analysis>> {
        let i = self.0.iter().position(|(k, _)| *k == key)?;
        let entry = self.0.remove(i)?;
        let a = entry.1.clone();
        self.0.push_back(entry);
        Some(a)
    }

    /// Keeps `a` for `key`, giving up the least recently asked one when full.
    fn insert(&mut self, key: (i64, i64), a: Arc<Analysis>) {
        self.0.retain(|(k, _)| *k != key);
        if self.0.len() >= ANALYSES_KEPT {
            self.0.pop_front();
        }
        self.0.push_back((key, a));
    }
}

/// The result of a running analysis, for the requests that wait for it.
#[derive(Default)]
struct SharedAnalysis {
    result: Mutex<Option<Result<Arc<Analysis>, String>>>,
    done: Condvar,
}

impl SharedAnalysis {
    fn wait(&self) -> Result<Arc<Analysis>, String> {
        let mut r = lock(&self.result);
        loop {
            if let Some(r) = r.as_ref() {
                return r.clone();
            }
            r = self.done.wait(r).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// The request computing an analysis: it answers the others when done, also by unwinding.
struct Leader<'a> {
    analyses: &'a Analyses,
    key: (i64, i64),
    shared: Arc<SharedAnalysis>,
    done: bool,
}

impl Leader<'_> {
    fn finish(&mut self, result: &Result<Arc<Analysis>, CoreError>) {
        let shared = match result {
            Ok(r) => Ok(r.clone()),
            Err(e) => Err(e.to_string()),
        };
        {
            let mut running = lock(&self.analyses.running);
            if let Ok(r) = result {
                lock(&self.analyses.kept).insert(self.key, r.clone());
            }
            running.remove(&self.key);
        }
        *lock(&self.shared.result) = Some(shared);
        self.shared.done.notify_all();
        self.done = true;
    }
}

impl Drop for Leader<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.finish(&Err(CoreError::Internal(format!(
                "the analysis of game {} stopped",
                self.key.0
            ))));
        }
    }
}

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

    #[test]
    fn a_job_that_panics_is_run_again_and_the_thread_survives() {
        let runs = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, done_rx) = mpsc::channel();
        let done_tx = Mutex::new(done_tx);
        let r = runs.clone();
        // One thread: the same one must serve after the panic.
        let w = Worker::start(
            1,
            Arc::new(move |g| {
                let first = {
                    let mut runs = r.lock().unwrap();
                    runs.push(g);
                    runs.iter().filter(|&&x| x == g).count() == 1
                };
                if g == 7 && first {
                    panic!("a search fell over");
                }
                done_tx.lock().unwrap().send(g).unwrap();
            }),
        );
        assert!(w.queue(7));
        let wait = || {
            done_rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .unwrap()
        };
        assert_eq!(wait(), 7, "run again after the panic");
        assert!(w.queue(8));
        assert_eq!(wait(), 8, "the thread still serves");
        assert_eq!(*runs.lock().unwrap(), [7, 7, 8]);
    }

    #[test]
    fn a_game_that_always_panics_is_given_up_after_three() {
        let runs = Arc::new(AtomicU64::new(0));
        let r = runs.clone();
        let w = Worker::start(
            1,
            Arc::new(move |_| {
                r.fetch_add(1, Ordering::SeqCst);
                panic!("always");
            }),
        );
        assert!(w.queue(1));
        // Three runs, two delays between them; then nothing more.
        std::thread::sleep(RETRY_DELAY * 2 + Duration::from_millis(1500));
        assert_eq!(runs.load(Ordering::SeqCst), PANICS_IN_A_ROW as u64);
        std::thread::sleep(RETRY_DELAY * 2);
        assert_eq!(runs.load(Ordering::SeqCst), PANICS_IN_A_ROW as u64);
        // A re-scan queues it again: three more tries.
        assert!(w.queue(1));
        std::thread::sleep(RETRY_DELAY * 2 + Duration::from_millis(1500));
        assert_eq!(runs.load(Ordering::SeqCst), 2 * PANICS_IN_A_ROW as u64);
    }

    #[test]
    fn a_full_queue_refuses_and_says_so() {
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let gate_rx = Mutex::new(gate_rx);
        let (started_tx, started_rx) = mpsc::channel();
        let started_tx = Mutex::new(started_tx);
        let w = Worker::start_bounded(
            1,
            2,
            Arc::new(move |g| {
                started_tx.lock().unwrap().send(g).unwrap();
                let _ = gate_rx.lock().unwrap().recv();
            }),
        );
        assert!(w.queue(1));
        // The thread holds game 1; two more fill the queue.
        assert_eq!(
            started_rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .unwrap(),
            1
        );
        assert!(w.queue(2));
        assert!(w.queue(3));
        assert!(w.queue(3), "already waiting: not queued twice, not refused");
        assert!(!w.queue(4), "full");
        for _ in 0..3 {
            gate_tx.send(()).unwrap();
        }
        for want in [2, 3] {
            assert_eq!(
                started_rx
                    .recv_timeout(std::time::Duration::from_secs(10))
                    .unwrap(),
                want
            );
        }
        // Room again.
        assert!(w.queue(4));
        gate_tx.send(()).unwrap();
        assert_eq!(
            started_rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .unwrap(),
            4
        );
        gate_tx.send(()).unwrap();
    }
}
