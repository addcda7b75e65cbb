//! Storage of games, moves, challenges, offers and settings, behind a few narrow traits so that
//! another database (PostgreSQL, past one machine) is a new module, not a rewrite:
//! [`GameStore`] (games and moves), [`ChallengeStore`] (challenges and offers), [`UserStore`]
//! (users and server settings), [`ClockStore`] (the sweep's queries, vacations, the outbox and
//! digests), [`RatingStore`], [`LeagueStore`] (leagues, their players and pairings),
//! [`ConditionalStore`] (conditional moves) and [`FollowStore`] (followers of games, daily
//! digests at a player's hour); [`Store`] is all eight, implemented for any type that has
//! them, so the core holds an `Arc<dyn Store>`. Two backends implement them: `sqlite` (the
//! default, one process): rusqlite with the bundled SQLite, WAL, foreign keys, a busy timeout, and the
//! schema in `migrations/*.sql` applied in order at start; and `postgres` (several processes
//! sharing one database, chosen by `database_url`): the `postgres` client with an `r2d2`
//! pool, its schema in `migrations/postgres/*.sql`. Their statements and logic are written
//! once, in `sql` (column lists, row mappers, the trait implementations for any backend); each
//! backend module keeps only its connections, transactions and migrations, and runs the shared
//! statements in its dialect. `tests/service/store_contract.rs` holds both to the same behaviour.
//!
//! The store knows rows, not rules: positions and moves are the engine's text forms (position
//! strings and move codes); ratings, deadlines and vacation arithmetic are computed by the core
//! (`service`), and the store writes the rows it is given. Each call is one transaction. What a
//! change was computed from is guarded: a game by its version (`Conflict` when it moved on), a
//! rating by its game count and a vacation by its end (`Stale`: the core reads again and
//! retries). A limit (a cap, a monthly allowance, "one at a time") is kept by the write: the
//! core gives its numbers with the change, and the store counts the rows in the transaction
//! that writes, after locking the row every such change takes first (`Limit` when the change
//! would pass it), so two commands at once never both pass. Every change of a game's state
//! moves its version on, an ending by a league included. It never imports anything of Discord.
//!
//! The interface is synchronous, on purpose. The core is synchronous (rules, rendering, a
//! transaction per command) and the adapters call it off the async runtime
//! (`tokio::task::spawn_blocking`), so a store call is already on a thread that may block; an
//! async trait would only add boxing and `Send` bounds to every call without freeing a thread.
//! SQLite is synchronous anyway, and a PostgreSQL backend fits the same shape with the
//! synchronous `postgres` client and an `r2d2_postgres` pool (that client runs its own small
//! runtime inside). Should an async backend ever be wanted, it can sit behind these traits with
//! a `block_on` per call, without touching the core.

mod conditional;
mod follow;
mod league;
mod postgres;
mod sql;
mod sqlite;

pub use conditional::{ConditionalRow, ConditionalStore, NewConditional};
pub use follow::{FollowRow, FollowStore, ThreadJoin, Told};
pub use league::{
    Decision, Joined, LeaguePlayerRow, LeagueRow, LeagueStatus, LeagueStore, NewLeague, NewPairing,
    PairingRow, RoundStart, Settle,
};

pub use postgres::tls::{connect as connect_postgres, BOT_APPLICATION};
pub use postgres::{PgStore, PG_MAX_CONNECTIONS, PG_MIGRATIONS};
pub use sql::{fill, Value};
// The database tools (src/ops/) read rows as the store does.
pub(crate) use postgres::value_of as postgres_value;
pub(crate) use sqlite::value_of as sqlite_value;
pub use sqlite::{Durability, SqliteStore, MAX_CONNECTIONS, MIGRATIONS};

use thiserror::Error;

/// A store failure.
#[derive(Debug, Error)]
pub enum StoreError {
    /// The row changed since it was read (another move, offer or end got there first).
    #[error("the game changed in the meantime")]
    Conflict,
    /// A row the change was computed from (a rating, a deadline, a vacation) changed since the
    /// core read it: nothing was written; read again and retry.
    #[error("a row changed since it was read")]
    Stale,
    #[error("not found")]
    NotFound,
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("migration error: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    /// An error of a backend other than SQLite (PostgreSQL, its pool).
    #[error("database error: {0}")]
    Backend(String),
    #[error("{0}")]
    Invalid(String),
    /// The change would pass a limit (a cap, an allowance, "one at a time"), as found inside
    /// the transaction that would have written it: nothing was written. It carries what the
    /// core needs to word the refusal.
    #[error("a limit would be passed: {0:?}")]
    Limit(Limit),
}

/// A limit a change would pass ([`StoreError::Limit`]). The store counts the rows inside the
/// transaction that writes (on PostgreSQL after taking a row lock that every such change of
/// the same user or game takes first; SQLite lets one writer in at a time), so two commands
/// sent at once never both pass a limit; the numbers are the core's, given with the change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The user is on vacation until `until` already.
    OnVacation { until: i64 },
    /// The vacation would pass the allowance: `used` seconds of it are gone.
    VacationDays { used: i64 },
    /// The challenger has this many open challenges (their ids, oldest first): the cap.
    OpenChallenges { open: Vec<i64> },
    /// The challenger's open challenges to this opponent (ids, oldest first): the cap.
    OpenToOne { open: Vec<i64> },
    /// When the challenger challenged this opponent within the day (oldest first): the cap.
    DailyToOne { times: Vec<i64> },
    /// The user's games against the computer in progress (ids, by id): the cap.
    ComputerGames { games: Vec<i64> },
    /// The player has this many lines from this position in the game: the cap.
    ConditionalLines { count: usize },
    /// A stored line of the player's answers the same move differently: its moves, up to and
    /// including the answer that differs.
    ConditionalConflict { line: Vec<String> },
}

/// The caps a new challenge must stay within ([`ChallengeStore::create_challenge`]): the
/// core's numbers, counted by the store in the transaction that stores the challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChallengeCaps {
    /// Open (and unexpired) challenges the challenger may have made at once, anywhere.
    pub open: usize,
    /// Open challenges the challenger may have made to the same opponent at once.
    pub open_to_one: usize,
    /// Challenges the challenger may make to the same opponent from `day_since` on, whatever
    /// became of them.
    pub daily_to_one: usize,
    pub day_since: i64,
}

/// How much vacation a user may take ([`ClockStore::start_vacation`]): at most `max` seconds
/// of vacations started from `since` on (the month's start), the new one included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VacationAllowance {
    pub since: i64,
    pub max: i64,
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// How long (seconds) a store handle holds the notices it queued or claimed. The handle pushes
/// the hold forward each time it claims ([`ClockStore::claim_unsent`], every few seconds in the
/// bot) and while it delivers ([`ClockStore::renew_claims`]), so only a process that stopped
/// lets it lapse; then another process takes its notices. Holds are reckoned by the database's
/// own clock (taken and compared there), never by the clock of the machine that holds them, so
/// two machines whose clocks disagree still agree on whether a hold has lapsed.
pub const OUTBOX_LEASE: i64 = 60;

/// The hours before a deadline a player is reminded when they chose no lead (`users.remind_hours`
/// NULL); 0 means never. The reminder also waits for half the time per move to pass
/// ([`ClockStore::reminders_due`]).
pub const DEFAULT_REMIND_HOURS: u32 = 24;

/// A name for one store handle (one process, as far as the outbox knows): the process id and
/// a random part, so two processes on two machines with the same process id still differ.
pub(crate) fn holder_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    format!("{}-{:016x}", std::process::id(), h.finish())
}

/// Whether a game is being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    Active,
    Finished,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
        }
    }
}

/// Who won: the first player (Black, Red), the second, or nobody.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    First,
    Second,
    Draw,
}

impl GameResult {
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::First => "first",
            GameResult::Second => "second",
            GameResult::Draw => "draw",
        }
    }

    pub fn parse(s: &str) -> Option<GameResult> {
        match s {
            "first" => Some(GameResult::First),
            "second" => Some(GameResult::Second),
            "draw" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

/// How a game's time runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ClockKind {
    /// The same days for every move.
    #[default]
    PerMove,
    /// Fischer style: a bank that gains some days after each move, up to a cap.
    Increment,
    /// A main bank, then each move within a period.
    Byoyomi,
}

impl ClockKind {
    pub const ALL: [ClockKind; 3] = [ClockKind::PerMove, ClockKind::Increment, ClockKind::Byoyomi];

    /// The word stored and typed (`per-move`, `increment`, `byoyomi`).
    pub fn as_str(self) -> &'static str {
        match self {
            ClockKind::PerMove => "per-move",
            ClockKind::Increment => "increment",
            ClockKind::Byoyomi => "byoyomi",
        }
    }

    pub fn parse(s: &str) -> Option<ClockKind> {
        ClockKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// A time control, in whole days: `days` per move (`PerMove`) or the bank each player starts
/// with (`Increment`, `Byoyomi`); `increment` and `cap` (the most a bank may hold) for
/// `Increment`; `period` for `Byoyomi`. The fields a kind does not use are 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TimeControl {
    pub kind: ClockKind,
    pub days: u32,
    pub increment: u32,
    pub cap: u32,
    pub period: u32,
}

impl TimeControl {
    /// `days` per move, as every game had before there were other clocks.
    pub fn per_move(days: u32) -> TimeControl {
        TimeControl {
            kind: ClockKind::PerMove,
            days,
            ..TimeControl::default()
        }
    }

    /// A control as its columns store it (`clock`, `days_per_move`, `increment_days`,
    /// `cap_days`, `period_days`); a clock word this build does not know reads as per-move.
    pub(crate) fn from_columns(
        kind: &str,
        days: u32,
        increment: u32,
        cap: u32,
        period: u32,
    ) -> TimeControl {
        TimeControl {
            kind: ClockKind::parse(kind).unwrap_or_default(),
            days,
            increment,
            cap,
            period,
        }
    }
}

/// Whose turn comes after a move or a takeback, and the game's clock then: the player to move
/// must play by `deadline`; `span` is the time their turn has (a reminder comes when half of it
/// has gone); `banks` are both players' banks in seconds (see [`GameRow::banks`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn<'a> {
    pub to_move: &'a str,
    pub deadline: i64,
    pub span: i64,
    pub banks: [i64; 2],
}

/// A game as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: i64,
    pub variant: String,
    pub setup: Option<String>,
    pub start_position: String,
    /// User ids of the first player (Black / Red) and the second.
    pub players: [String; 2],
    pub guild: Option<String>,
    pub channel: Option<String>,
    pub thread: Option<String>,
    pub status: GameStatus,
    pub result: Option<GameResult>,
    pub reason: Option<String>,
    pub rated: bool,
    pub control: TimeControl,
    pub deadline: Option<i64>,
    /// The players' banks in seconds, first player first (increment and byoyomi clocks; 0
    /// for per-move): the player to move's as it stood when their turn began (their deadline
    /// tells what is left now), the other's as it stands.
    pub banks: [i64; 2],
    /// The seconds the player to move had for this turn when it began.
    pub turn_span: i64,
    pub position: String,
    pub ply: u32,
    /// The user whose turn it is, while the game is active.
    pub to_move: Option<String>,
    /// Whether the player to move was reminded of the current deadline.
    pub reminded: bool,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    /// The computer's level in a game against it (the player whose id is the bot's own).
    pub computer_level: Option<u8>,
}

impl GameRow {
    /// Whether the game is played in this channel: its thread, or its channel when it has no
    /// thread.
    pub fn is_played_in(&self, channel: &str) -> bool {
        match &self.thread {
            Some(t) => t == channel,
            None => self.channel.as_deref() == Some(channel),
        }
    }
}

/// What a new game starts with.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub variant: String,
    pub setup: Option<String>,
    pub start_position: String,
    pub players: [String; 2],
    pub guild: Option<String>,
    pub channel: Option<String>,
    pub rated: bool,
    pub control: TimeControl,
    pub deadline: Option<i64>,
    /// The players' banks at the start, in seconds (see [`GameRow::banks`]).
    pub banks: [i64; 2],
    /// The seconds the first move has (see [`GameRow::turn_span`]).
    pub turn_span: i64,
    /// The user who moves first.
    pub to_move: String,
    /// The computer's level, in a game against it.
    pub computer_level: Option<u8>,
}

/// A move of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    pub ply: u32,
    pub code: String,
    pub notation: String,
    /// The position after the move.
    pub position: String,
    pub user: String,
    pub played_at: i64,
}

/// How a game ends, stored with the move or on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub result: GameResult,
    pub reason: String,
}

/// A notification to deliver, kept in the outbox until marked sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewNotice {
    /// Chosen by the core before the transaction (random, positive), so that the command can
    /// mark its notices sent once they are delivered.
    pub id: i64,
    /// The game it is about, if one (delivered in that game's thread).
    pub game: Option<i64>,
    pub user: String,
    /// `mention`, `dm`, or `post` (a public announcement in the game's home).
    pub via: String,
    pub channel: Option<String>,
    pub text: String,
    /// For a `post` (a move's public announcement): the ply whose board goes with it, drawn
    /// again when it is delivered late.
    pub ply: Option<u32>,
    /// The league it is about, if one (a league's post: delivered in the league's home, with
    /// its standings).
    pub league: Option<i64>,
}

impl NewNotice {
    /// The notice, about a game (delivered in its thread).
    pub fn about(self, game: i64) -> NewNotice {
        NewNotice {
            game: Some(game),
            ..self
        }
    }
}

/// What the operator's gauges read from the database (`ClockStore::gauges`): the whole
/// database's, whichever process asks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gauges {
    /// Notices not yet sent nor set aside.
    pub unsent: u64,
    /// When the oldest of them was made (`created_at`); `None` when there is none.
    pub oldest_unsent: Option<i64>,
    /// Games in play (status `active`).
    pub games_in_play: u64,
}

/// A notification of the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    pub id: i64,
    pub notice: NewNotice,
    pub created_at: i64,
}

/// A player's rating in one game on one server.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub user: String,
    pub variant: String,
    /// `""` outside a server.
    pub guild: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// A player's new rating, computed by the core from the row it read, written with the end of
/// the game. `read_games` is the `games` of the row the core read (0 when the player had none):
/// `games` only grows, one per rated game, so it is the row's version. The store writes the row
/// only if it is still at `read_games`; otherwise the whole change fails with `Stale`.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingUpdate {
    pub read_games: u32,
    pub row: RatingRow,
}

/// What ending a game does besides ending it, in the same transaction.
#[derive(Clone, Debug)]
pub struct Finish<'a> {
    pub ending: &'a Ending,
    pub notices: &'a [NewNotice],
    /// For a rated game, both players' new ratings; empty otherwise.
    pub ratings: Vec<RatingUpdate>,
}

/// What became of one game of `GameStore::finish_games`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchEnd {
    /// It ended.
    Ended,
    /// Left alone: it moved on (a move, another ending) or is gone.
    Moved,
    /// Left alone: a rating of its players moved on since the core read it; the game is as
    /// read, and may end with ratings read again.
    Stale,
    /// Left alone: another transaction (another process's sweep, a move being played) holds
    /// the game right now, and decides it (PostgreSQL; SQLite has one writer at a time).
    Held,
}

/// A game's new deadline (a vacation starting or ending), written only if the game is still at
/// `version`; otherwise the whole change fails with `Stale`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeadlineShift {
    pub game: i64,
    pub version: i64,
    pub deadline: i64,
}

/// A server's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerRow {
    pub guild: String,
    pub default_days: u32,
    pub rated_default: bool,
    pub games_channel: Option<String>,
    /// The language a manager chose for the server's public posts (`en`, `ja`); `None`: the
    /// server's Discord locale (`locale`).
    pub language: Option<String>,
    /// Whether members may create leagues here (on unless a manager turned it off).
    pub leagues: bool,
    /// The game its managers feature: shown first in `/games` here.
    pub featured: Option<i64>,
}

/// A challenge's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeStatus {
    Open,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

impl ChallengeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<ChallengeStatus> {
        Some(match s {
            "open" => ChallengeStatus::Open,
            "accepted" => ChallengeStatus::Accepted,
            "declined" => ChallengeStatus::Declined,
            "cancelled" => ChallengeStatus::Cancelled,
            "expired" => ChallengeStatus::Expired,
            _ => return None,
        })
    }
}

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: i64,
    pub challenger: String,
    /// `None`: an open challenge, anyone may accept.
    pub challenged: Option<String>,
    pub variant: String,
    /// The challenger's side: `first`, `second` or `random`.
    pub color: String,
    pub control: TimeControl,
    pub handicap: Option<String>,
    pub setup: Option<String>,
    pub rated: bool,
    pub guild: Option<String>,
    pub channel: Option<String>,
    pub status: ChallengeStatus,
    pub game_id: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// What a new challenge says.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    pub challenger: String,
    pub challenged: Option<String>,
    pub variant: String,
    pub color: String,
    pub control: TimeControl,
    pub handicap: Option<String>,
    pub setup: Option<String>,
    pub rated: bool,
    pub guild: Option<String>,
    pub channel: Option<String>,
    pub expires_at: i64,
}

/// Kinds of offers a player makes to the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    Draw,
    Takeback,
    Impasse,
}

impl OfferKind {
    pub fn as_str(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
            OfferKind::Impasse => "impasse",
        }
    }
}

/// A pending offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfferRow {
    pub game_id: i64,
    pub kind: OfferKind,
    pub from_user: String,
    /// The game's ply when it was made.
    pub ply: u32,
    pub created_at: i64,
}

/// A user's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    pub id: String,
    pub name: String,
    /// `kanji` or `international`.
    pub style: String,
    /// `mention`, `dm` or `digest`.
    pub notify: String,
    /// The end of the user's vacation, if they are on one.
    pub vacation_until: Option<i64>,
    pub last_digest_at: Option<i64>,
    /// Hours before a deadline the user wants to be reminded (0: never); `None`: the default,
    /// [`DEFAULT_REMIND_HOURS`].
    pub remind_hours: Option<u32>,
    /// The language the user chose (`en`, `ja`); `None`: their client's (`locale`).
    pub language: Option<String>,
    /// The move notation the user chose (`western`, `japanese`, `usi`); `None`: the one that goes
    /// with their language.
    pub notation: Option<String>,
    /// The locale of the user's Discord client at their last command (`ja`, `en-US`, …).
    pub locale: Option<String>,
    /// The local hour (0-23) of their daily digest; `None`: 24 hours after the last one.
    pub digest_hour: Option<u8>,
    /// The IANA name of their time zone (`Asia/Tokyo`); `None`: UTC.
    pub timezone: Option<String>,
    /// When their next daily digest is due (computed by the core from the two above; see
    /// [`FollowStore::digests_at`]); `None`: none planned.
    pub next_digest_at: Option<i64>,
    /// The side the user keeps at the bottom of pictures: `black` (the first player) or
    /// `white`; `None`: the side to move (each player sees their own pieces on their turn).
    pub board: Option<String>,
}

/// A user's nickname in one server (shown there only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerName {
    pub guild: String,
    pub user_id: String,
    pub name: String,
}

/// Games and their moves: creating, reading, playing, ending and taking back.
pub trait GameStore: Send + Sync {
    fn game(&self, id: i64) -> Result<Option<GameRow>>;
    /// A user's games, active or finished, newest change first; with `guild`, only that
    /// server's.
    fn games_of(
        &self,
        user: &str,
        status: GameStatus,
        guild: Option<&str>,
        limit: usize,
    ) -> Result<Vec<GameRow>>;
    /// Every active game waiting for the user's move, by id.
    fn waiting_for(&self, user: &str) -> Result<Vec<GameRow>>;
    /// The live moves of a game, in order.
    fn moves(&self, game: i64) -> Result<Vec<MoveRow>>;
    /// A game and its live moves, read together (one consistent snapshot).
    fn game_with_moves(&self, id: i64) -> Result<Option<(GameRow, Vec<MoveRow>)>>;
    /// Starts a game that needs no challenge, with its notices, uncapped (tests and tools; the
    /// core starts games against the computer with [`GameStore::start_computer_game`]).
    fn start_game(&self, game: &NewGame, notices: &[NewNotice], now: i64) -> Result<GameRow>;
    /// Starts a game of `player` against the computer, with its notices, if `player` has fewer
    /// than `max` such games in progress (counted in this transaction, after locking the
    /// player's row): `Limit(ComputerGames)` otherwise, nothing written.
    fn start_computer_game(
        &self,
        game: &NewGame,
        player: &str,
        max: usize,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow>;
    /// Active games against the computer where it is the computer's turn.
    fn computer_games(&self, computer: &str) -> Result<Vec<GameRow>>;
    /// Appends a move if the game is still at `version`, moving the game to the new position
    /// with `to_move` to play by `deadline` (or ending it with `finish`), clears its offers
    /// and reminder, and queues `notices`. `Conflict` if the version moved on, `Stale` if a
    /// rating of `finish` did.
    fn append_move(
        &self,
        game: i64,
        version: i64,
        mv: &MoveRow,
        next: &Turn,
        finish: Option<&Finish>,
        notices: &[NewNotice],
    ) -> Result<GameRow>;
    /// Ends a game without a move (resignation, agreement, impasse, time): its result, its
    /// notices and the new ratings of `finish`, together.
    fn finish_game(&self, game: i64, version: i64, finish: &Finish, now: i64) -> Result<GameRow>;
    /// Ends several games (game, version, how) in one transaction, each as `finish_game` would;
    /// a game that moved on, whose ratings did, or that another process holds at this moment is
    /// left alone. One outcome per game, in order.
    fn finish_games(&self, games: &[(i64, i64, Finish)], now: i64) -> Result<Vec<BatchEnd>>;
    /// Takes back the moves after `keep_ply`, the game going back to `position` with `to_move`
    /// to play by `deadline`, and queues `notices`. Only an active game: `Conflict` if it
    /// ended (whatever `version` says) or moved on.
    #[allow(clippy::too_many_arguments)]
    fn take_back(
        &self,
        game: i64,
        version: i64,
        keep_ply: u32,
        position: &str,
        next: &Turn,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow>;
    /// Sets an active game's deadline (more time), if it is still at `version`, and queues
    /// `notices`.
    fn set_deadline(
        &self,
        game: i64,
        version: i64,
        deadline: i64,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow>;
    /// Records the Discord thread where a game is played.
    fn set_thread(&self, game: i64, thread: &str) -> Result<()>;
    /// Moves a game to another home: its channel and thread (`None`: none), when the old one
    /// is gone or closed to the bot.
    fn set_home(&self, game: i64, channel: Option<&str>, thread: Option<&str>) -> Result<()>;
    /// `PRAGMA integrity_check` (or the database's equivalent): `ok` when healthy.
    fn integrity_check(&self) -> Result<String>;
}

/// Challenges and the offers made during a game.
pub trait ChallengeStore: Send + Sync {
    /// Creates a challenge and queues `notices`, `{challenge}` in their texts replaced by its
    /// id. Uncapped (tests and tools): the core creates challenges with
    /// [`ChallengeStore::create_challenge_within`].
    fn create_challenge(
        &self,
        c: &NewChallenge,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<ChallengeRow>;
    /// `create_challenge`, if the challenger stays within `caps` (counted in this transaction,
    /// after locking the challenger's row): `Limit` (`OpenChallenges`, `OpenToOne`,
    /// `DailyToOne`) otherwise, nothing written.
    fn create_challenge_within(
        &self,
        c: &NewChallenge,
        caps: &ChallengeCaps,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<ChallengeRow>;
    fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>>;
    /// Open challenges a user made or may accept (addressed to them, or open to anyone).
    fn open_challenges(&self, user: &str, now: i64) -> Result<Vec<ChallengeRow>>;
    /// Accepts an open challenge and creates its game, in one transaction, queueing
    /// `notices` (those without a game are about the new one; `{game}` in their texts is
    /// replaced by its id). `Conflict` if the challenge is no longer open.
    fn accept_challenge(
        &self,
        id: i64,
        game: &NewGame,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow>;
    /// Closes an open challenge (declined, cancelled, expired) and queues `notices`.
    /// `Conflict` if it is not open.
    fn close_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<()>;

    /// Records an offer (replacing an older one of the same kind) if the game is at `version`,
    /// and queues `notices`.
    fn put_offer(
        &self,
        game: i64,
        version: i64,
        offer: &OfferRow,
        notices: &[NewNotice],
    ) -> Result<()>;
    fn offer(&self, game: i64, kind: OfferKind) -> Result<Option<OfferRow>>;
    /// Removes an offer (declined) and queues `notices`.
    fn remove_offer(
        &self,
        game: i64,
        kind: OfferKind,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<()>;
    /// When `challenger` challenged `challenged` since `since` (whatever became of the
    /// challenges: cancelled ones count), oldest first.
    fn challenge_times(&self, challenger: &str, challenged: &str, since: i64) -> Result<Vec<i64>>;
}

/// Users' and servers' settings.
pub trait UserStore: Send + Sync {
    /// Records a user (or updates their display name); returns their settings.
    fn touch_user(&self, id: &str, name: &str, now: i64) -> Result<UserRow>;
    /// Records a user seen in a server: their display name (as `touch_user`) and their
    /// nickname there (`None`: they have none there, and one recorded before is forgotten).
    /// Writes only what changed: one read when nothing did.
    fn touch_member(
        &self,
        id: &str,
        name: &str,
        guild: &str,
        nick: Option<&str>,
        now: i64,
    ) -> Result<UserRow>;
    /// A user's name as shown in `guild`: their nickname there if one is recorded, else their
    /// display name; in no server (`None`), their display name. `None` for an unknown user.
    fn name_in(&self, id: &str, guild: Option<&str>) -> Result<Option<String>>;
    /// The nicknames recorded for these (server, user) pairs, in any order; pairs without one
    /// are left out (one read for many: the sweep's).
    fn server_names(&self, pairs: &[(String, String)]) -> Result<Vec<ServerName>>;
    fn user(&self, id: &str) -> Result<Option<UserRow>>;
    /// The users of `ids` that are known, in any order (one read for many: the sweep's).
    fn users(&self, ids: &[String]) -> Result<Vec<UserRow>>;
    fn set_user_settings(&self, id: &str, style: &str, notify: &str) -> Result<()>;
    fn server(&self, guild: &str) -> Result<Option<ServerRow>>;
    fn set_server(&self, s: &ServerRow) -> Result<()>;
    /// Sets the hours before a deadline the user is reminded (`Some(0)`: never; `None`: back to
    /// the default). `NotFound` for an unknown user.
    fn set_remind_hours(&self, id: &str, hours: Option<u32>) -> Result<()>;
    /// Sets the language (`None`: back to the client's) and the move notation (`None`: the
    /// language's) a user chose. `NotFound` for an unknown user.
    fn set_user_speech(
        &self,
        id: &str,
        language: Option<&str>,
        notation: Option<&str>,
    ) -> Result<()>;
    /// Sets the side a user keeps at the bottom of pictures (`black`, `white`; `None`: the
    /// side to move). `NotFound` for an unknown user.
    fn set_user_board(&self, id: &str, board: Option<&str>) -> Result<()>;
    /// Records the locale of a user's Discord client (their last command's). `NotFound` for an
    /// unknown user.
    fn set_user_locale(&self, id: &str, locale: &str) -> Result<()>;
    /// Records a server's Discord locale (`guild_locale`, of the last command sent there).
    fn set_server_locale(&self, guild: &str, locale: &str) -> Result<()>;
    /// The server's Discord locale as last recorded.
    fn server_locale(&self, guild: &str) -> Result<Option<String>>;
}

/// Correspondence time: what the sweep finds and claims, vacations, the outbox and digests.
pub trait ClockStore: Send + Sync {
    /// Active games whose deadline has passed, oldest deadline first.
    fn due_games(&self, now: i64, limit: usize) -> Result<Vec<GameRow>>;
    /// Active games whose player to move was not reminded of this move yet and whose reminder
    /// time has come by `now`: the later of "the deadline minus the player's lead"
    /// (`users.remind_hours`, [`DEFAULT_REMIND_HOURS`] when unset) and "the deadline minus half
    /// the turn's time" (`deadline - turn_span / 2`: half the time after the move, and a
    /// vacation that shifts the deadline shifts it too). A player whose lead is 0 is never
    /// reminded. The game whose half time per move passed first comes first (the order of the
    /// index that finds them).
    fn reminders_due(&self, now: i64, limit: usize) -> Result<Vec<GameRow>>;
    /// Marks the game's player reminded of `deadline` and queues the notice, once: `false` if
    /// the game moved on or was reminded already.
    fn remind(&self, game: i64, deadline: i64, notice: &NewNotice, now: i64) -> Result<bool>;
    /// Open challenges past their expiry.
    fn expired_challenges(&self, now: i64, limit: usize) -> Result<Vec<ChallengeRow>>;
    /// Expires an open challenge and queues the notices, once (`false` if no longer open).
    fn expire_challenge(&self, id: i64, notices: &[NewNotice], now: i64) -> Result<bool>;
    /// Notifications not yet marked sent, oldest first, whoever holds them (a read: for
    /// tests and diagnostics; delivery goes through `claim_unsent`).
    fn unsent(&self, limit: usize) -> Result<Vec<OutboxRow>>;
    /// The notifications this handle may deliver, oldest first (in the order they were made:
    /// `created_at`, then id), and its hold on them: those it queued or claimed before, and
    /// those nobody holds (their holder's hold lapsed: it stopped, or let go). Every unsent
    /// notice this handle holds, claimed now or earlier, is held again until the database's
    /// now + `OUTBOX_LEASE`. A notice another live handle holds is never returned, so two
    /// processes never deliver one notice; claiming is one transaction (`FOR UPDATE SKIP
    /// LOCKED` on PostgreSQL), so two handles claiming at once split the free rows between
    /// them.
    fn claim_unsent(&self, limit: usize) -> Result<Vec<OutboxRow>>;
    /// Lets go of the unsent notices this handle holds (a clean shutdown): another process
    /// may take them at once instead of after the lease.
    fn release_claims(&self) -> Result<()>;
    fn mark_sent(&self, ids: &[i64], now: i64) -> Result<()>;
    /// Sets a notice aside that no way could deliver, with the reason: it is not tried again,
    /// and its player is shown it (`undelivered`).
    fn set_aside(&self, id: i64, reason: &str, now: i64) -> Result<()>;
    /// Says anew what a move's stored announcement (a `post` not yet sent) says, whose board
    /// it shows (`ply`) and from whose side (`user`): what the move set off at once (a
    /// conditional answer) changed what is true after it, and a late delivery must say that.
    /// `false` when the notice was sent or set aside already (nothing changed).
    fn rewrite_post(&self, id: i64, user: &str, text: &str, ply: u32) -> Result<bool>;
    /// The user's notices set aside since `since`, newest first.
    fn undelivered(&self, user: &str, since: i64, limit: usize) -> Result<Vec<OutboxRow>>;

    /// Records a vacation from `now` to `end` and moves the deadlines of `shifts` (the games
    /// waiting for the user, as the core computed them), together. Checked in the same
    /// transaction, after locking the user's row: `Limit(OnVacation)` if a vacation of theirs
    /// runs past `now`, `Limit(VacationDays)` if this one would pass `allowance`, `Stale` if
    /// one of those games moved on; nothing written then.
    fn start_vacation(
        &self,
        user: &str,
        now: i64,
        end: i64,
        allowance: &VacationAllowance,
        shifts: &[DeadlineShift],
    ) -> Result<()>;
    /// Ends now the user's vacation planned until `until` and moves the deadlines of `shifts`
    /// back, together. `Stale` if the vacation or one of those games changed.
    fn end_vacation(
        &self,
        user: &str,
        until: i64,
        now: i64,
        shifts: &[DeadlineShift],
    ) -> Result<()>;
    /// Seconds of vacation the user started since `since`.
    fn vacation_used(&self, user: &str, since: i64) -> Result<i64>;
    /// Pushes the hold of every unsent notice this handle holds to the database's now +
    /// `OUTBOX_LEASE` (called every few seconds while a slow batch is delivered, so that its
    /// hold never lapses under it). Claims nothing new.
    fn renew_claims(&self) -> Result<()>;
    /// The outbox backlog and the games in play ([`Gauges`]), in one cheap query; also what a
    /// health check asks to know the database answers.
    fn gauges(&self) -> Result<Gauges>;
}

/// Ratings, read; they are written with the end of a rated game (`Finish::ratings`).
pub trait RatingStore: Send + Sync {
    fn rating(&self, user: &str, variant: &str, guild: &str) -> Result<Option<RatingRow>>;
    fn ratings_of(&self, user: &str, guild: &str) -> Result<Vec<RatingRow>>;
    fn leaderboard(&self, variant: &str, guild: &str, limit: usize) -> Result<Vec<RatingRow>>;
}

/// The whole store: what the command core needs, each call one transaction. Implemented for
/// every type that implements the eight parts.
pub trait Store:
    GameStore
    + ChallengeStore
    + UserStore
    + ClockStore
    + RatingStore
    + LeagueStore
    + ConditionalStore
    + FollowStore
{
}

impl<T> Store for T where
    T: GameStore
        + ChallengeStore
        + UserStore
        + ClockStore
        + RatingStore
        + LeagueStore
        + ConditionalStore
        + FollowStore
        + ?Sized
{
}
