//! The rows of server leagues (issue 22) and what the store does with them: leagues, their
//! players and their pairings. As everywhere in the store, rows and not rules: the core pairs
//! the rounds, scores them and decides forfeits (`service::league`, with `crate::league`); the
//! store writes what it is given, each change one transaction guarded by the league's version,
//! so that a round is created exactly once however many processes try.

use super::{Ending, NewGame, NewNotice, Result, TimeControl};

/// Where a league stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeagueStatus {
    /// Taking players.
    Open,
    Running,
    Finished,
    Cancelled,
}

impl LeagueStatus {
    /// Open or running: not over.
    pub fn is_live(self) -> bool {
        matches!(self, LeagueStatus::Open | LeagueStatus::Running)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            LeagueStatus::Open => "open",
            LeagueStatus::Running => "running",
            LeagueStatus::Finished => "finished",
            LeagueStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<LeagueStatus> {
        Some(match s {
            "open" => LeagueStatus::Open,
            "running" => LeagueStatus::Running,
            "finished" => LeagueStatus::Finished,
            "cancelled" => LeagueStatus::Cancelled,
            _ => return None,
        })
    }
}

/// A league as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeagueRow {
    pub id: i64,
    pub guild: String,
    /// The channel it was created in: its games are played there, each in its thread.
    pub channel: Option<String>,
    /// The league's own thread (announcements, standings), once the transport made one.
    pub thread: Option<String>,
    pub name: String,
    pub variant: String,
    pub control: TimeControl,
    /// `round-robin`, `double-round-robin` or `swiss`.
    pub format: String,
    /// Swiss: the rounds to play; round robins: set at the start from the players.
    pub rounds: Option<u32>,
    pub rated: bool,
    /// Round robins: `all` (every game at the start) or `rounds` (round by round).
    pub schedule: String,
    /// Days a round may last before its unfinished games are adjudicated (`None`: no limit).
    pub round_days: Option<u32>,
    pub max_players: Option<u32>,
    pub rating_min: Option<i64>,
    pub rating_max: Option<i64>,
    pub creator: String,
    pub status: LeagueStatus,
    /// The round being played (0 before the start).
    pub round: u32,
    pub round_started_at: Option<i64>,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    /// Grows with every change of the league, its players or its pairings.
    pub version: i64,
}

/// What a new league starts with.
#[derive(Clone, Debug)]
pub struct NewLeague {
    pub guild: String,
    pub channel: Option<String>,
    pub name: String,
    pub variant: String,
    pub control: TimeControl,
    pub format: String,
    pub rounds: Option<u32>,
    pub rated: bool,
    pub schedule: String,
    pub round_days: Option<u32>,
    pub max_players: Option<u32>,
    pub rating_min: Option<i64>,
    pub rating_max: Option<i64>,
    pub creator: String,
}

/// A player of a league.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaguePlayerRow {
    pub league: i64,
    pub user: String,
    pub joined_at: i64,
    /// `active`, `withdrawn` (left after the start) or `removed` (by an organiser).
    pub status: String,
    pub left_at: Option<i64>,
    /// The pairing rank fixed at the start (0: the strongest).
    pub seed: Option<u32>,
}

impl LeaguePlayerRow {
    pub fn active(&self) -> bool {
        self.status == "active"
    }
}

/// A pairing of a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRow {
    pub league: i64,
    pub round: u32,
    pub board: u32,
    /// Who plays first (Black / Red).
    pub first: String,
    /// `None`: a bye for `first`.
    pub second: Option<String>,
    /// The game, once created.
    pub game: Option<i64>,
    /// An outcome the league decided (`forfeit-first`: the first player wins by forfeit,
    /// `forfeit-second`, `annulled`, `adjudicated-draw`); `None`: the game's own result.
    pub outcome: Option<String>,
}

/// A pairing to store when a round starts (or a later round's pairing getting its game).
#[derive(Clone, Debug)]
pub struct NewPairing {
    pub round: u32,
    pub board: u32,
    pub first: String,
    pub second: Option<String>,
    /// The game to create for it now (`None`: a bye, or a round robin's later round).
    pub game: Option<NewGame>,
    /// Notices about this pairing's game, queued with it (`{game}` is its number).
    pub notices: Vec<NewNotice>,
}

/// A round to start, in one transaction: the league moves to `round` (and to running), the
/// seeds are fixed (the first round), the pairings and their games are created, and the
/// notices queued (`{game@R.B}` in their texts is the number of the game on board B of round R:
/// a round robin started whole has every round's games at once).
#[derive(Clone, Debug)]
pub struct RoundStart {
    pub league: i64,
    /// The league's version the round was computed from: `Conflict` if it moved on.
    pub version: i64,
    pub round: u32,
    /// Set at the start: the rounds of a round robin.
    pub rounds: Option<u32>,
    pub seeds: Vec<(String, u32)>,
    pub pairings: Vec<NewPairing>,
    pub notices: Vec<NewNotice>,
}

/// A change of a running league that settles pairings without the board, in one transaction:
/// players leaving or removed, pairings given an outcome (forfeits, annulments, adjudications)
/// and their games ended if still active (without ratings: forfeits and adjudications are not
/// rated), notices.
#[derive(Clone, Debug, Default)]
pub struct Settle {
    pub league: i64,
    pub version: i64,
    /// (user, new status: `withdrawn` or `removed`), as of now.
    pub players: Vec<(String, String)>,
    /// The pairings settled.
    pub decisions: Vec<Decision>,
    pub notices: Vec<NewNotice>,
}

/// A pairing settled without the board ([`Settle`]). Its game is the one the pairing names as
/// found in the settling transaction, not as read before: a game still active there ends as
/// `end` says, its version moved on (so a takeback or a move computed from an earlier read
/// finds it stale); a game that ended meanwhile keeps its own result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub round: u32,
    pub board: u32,
    /// `forfeit-first`, `forfeit-second`, `annulled` or `adjudicated-draw`.
    pub outcome: String,
    /// How the pairing's game ends if it is still active (`None`: it goes on).
    pub end: Option<Ending>,
    /// Whether the outcome stands whatever the game did (an annulment). Otherwise (a forfeit,
    /// an adjudication) it is written only to a pairing whose game is missing or still active:
    /// a result a player just made on the board is the pairing's.
    pub whatever_the_game: bool,
}

/// What joining a league came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    Joined,
    AlreadyIn,
    Full,
    NotOpen,
}

/// Leagues, their players and pairings.
pub trait LeagueStore: Send + Sync {
    /// Creates a league (open, no players) and queues `notices` (`{league}` is its number).
    fn create_league(&self, l: &NewLeague, notices: &[NewNotice], now: i64) -> Result<LeagueRow>;
    fn league(&self, id: i64) -> Result<Option<LeagueRow>>;
    /// A server's leagues, newest first.
    fn leagues_in(&self, guild: &str, limit: usize) -> Result<Vec<LeagueRow>>;
    /// Running leagues (the sweep looks for rounds to close or start), oldest first.
    fn running_leagues(&self, limit: usize) -> Result<Vec<LeagueRow>>;
    /// The players of a league, in the order they joined.
    fn league_players(&self, league: i64) -> Result<Vec<LeaguePlayerRow>>;
    /// Adds a player to an open league with room (`max_players`), queueing `notices`.
    fn join_league(
        &self,
        league: i64,
        user: &str,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<Joined>;
    /// Takes a player out of an open league (`false`: they were not in it, or it started).
    fn leave_league(
        &self,
        league: i64,
        user: &str,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<bool>;
    /// Every pairing of a league, by round and board.
    fn pairings(&self, league: i64) -> Result<Vec<PairingRow>>;
    /// The pairing whose game this is, if the game belongs to a league.
    fn pairing_of_game(&self, game: i64) -> Result<Option<PairingRow>>;
    /// Starts a round (see [`RoundStart`]): every pairing of the league afterwards, by round and
    /// board.
    /// `Conflict` if the league moved on since it was read (another process started it).
    fn start_round(&self, r: &RoundStart, now: i64) -> Result<Vec<PairingRow>>;
    /// Settles pairings without the board (see [`Settle`] and [`Decision`]). `Conflict` if the
    /// league moved on.
    fn settle_league(&self, s: &Settle, now: i64) -> Result<LeagueRow>;
    /// Ends a league (finished or cancelled) and queues `notices`. `Conflict` if it moved on.
    fn end_league(
        &self,
        league: i64,
        version: i64,
        status: LeagueStatus,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<LeagueRow>;
    /// Records the league's thread (`None`: it is gone; the league posts in its channel).
    fn set_league_thread(&self, league: i64, thread: Option<&str>) -> Result<()>;
}
