//! Leagues (issue 22): the pure computation behind server tournaments, with no store, Discord,
//! i18n or engine import. Players are plain indices `0..n` chosen by the caller (the service
//! layer maps them to members); colours are [`Side::First`] (Black in shogi, Red in Shanghai
//! palace chess) and [`Side::Second`].
//!
//! What lives here, and the rules chosen:
//! - [`round_robin`]: the schedule of a single or double round robin, from the FIDE Berger
//!   tables. With an odd number of players one player sits out each round (a bye that scores
//!   nothing in a round robin). The second leg of a double round robin repeats the first with
//!   colours swapped; the last two rounds of the first leg are played in reverse order (the FIDE
//!   recommendation), so that no player gets the same colour three times in a row across the
//!   legs.
//! - [`swiss`]: the pairing of one Swiss round as a maximum-weight, maximum-cardinality matching
//!   (crate `mwmatching`). Absolute rules (no repeat, no colour three times in a row, colour
//!   difference within ±2, at most one bye each) are edges left out of the graph; the preferences
//!   (fewest score points floated, the bye to the lowest, colour wishes, top half against bottom
//!   half) are edge weights, ordered lexicographically. The weights are documented there.
//! - [`standings`]: points (win 1, draw ½, loss 0, a Swiss bye 1, a forfeit win 1), tie-breaks
//!   (Sonneborn-Berger in a round robin; Buchholz, Buchholz cut 1 and head-to-head in a Swiss),
//!   places shared by players equal on everything, the crosstable, and the round-robin
//!   withdrawal rule: a player who leaves having finished fewer than half of their games has all
//!   of them annulled; otherwise their unfinished games are lost by forfeit.
//!
//! Points are counted in half points throughout (`u32`), so that a draw stays an integer.

pub mod round_robin;
pub mod standings;
pub mod swiss;

pub use round_robin::schedule;
pub use standings::{
    crosstable, round_robin_withdrawal, standings, withdraw, Standing, Tiebreak, Withdrawal,
};
pub use swiss::{pair, Entrant, PairingError};

/// How a league is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    DoubleRoundRobin,
    Swiss,
}

impl Format {
    /// Every format, in the order the `/league create` choices list them.
    pub const ALL: [Format; 3] = [Format::RoundRobin, Format::DoubleRoundRobin, Format::Swiss];

    /// The word stored and typed for the format (`format:` option of `/league create`).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::DoubleRoundRobin => "double-round-robin",
            Format::Swiss => "swiss",
        }
    }

    /// The format named by `s`, exactly as [`Format::as_str`] writes it.
    pub fn parse(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == s)
    }

    /// Whether the format is a round robin (single or double), where a bye scores nothing.
    pub fn is_round_robin(self) -> bool {
        matches!(self, Format::RoundRobin | Format::DoubleRoundRobin)
    }
}

/// Which side of a game: the first player (Black / Red) or the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// One pairing of a round: `first` plays first (Black/Red); `second == None` is a bye for `first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub first: usize,
    pub second: Option<usize>,
}

impl Pairing {
    /// A game between two players, `first` moving first.
    pub fn game(first: usize, second: usize) -> Pairing {
        Pairing {
            first,
            second: Some(second),
        }
    }

    /// A bye for `player`.
    pub fn bye(player: usize) -> Pairing {
        Pairing {
            first: player,
            second: None,
        }
    }

    /// Whether `player` is in this pairing (either side, or the bye).
    pub fn involves(&self, player: usize) -> bool {
        self.first == player || self.second == Some(player)
    }
}

/// How a pairing ended, as the standings count it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Not finished yet (or not started): counts nothing.
    Pending,
    FirstWins,
    SecondWins,
    Draw,
    /// Won by forfeit (the other withdrew or was removed): 1 point to the winner, 0 to the loser.
    /// Counts as a win (and for tie-breaks, as a game against that opponent) but not for ratings.
    FirstWinsByForfeit,
    SecondWinsByForfeit,
    /// Annulled (round-robin: a player who withdrew having played fewer than half): counts
    /// nothing for anyone, and the pairing is left out of tie-breaks.
    Annulled,
    /// A bye (`second == None`): 1 point in Swiss.
    Bye,
}

impl Outcome {
    /// The half points each side scores, `(first, second)`, for an outcome that counts as a
    /// game; `None` for pending, annulled games and byes (which are not games).
    pub fn points2(self) -> Option<(u32, u32)> {
        match self {
            Outcome::FirstWins | Outcome::FirstWinsByForfeit => Some((2, 0)),
            Outcome::SecondWins | Outcome::SecondWinsByForfeit => Some((0, 2)),
            Outcome::Draw => Some((1, 1)),
            Outcome::Pending | Outcome::Annulled | Outcome::Bye => None,
        }
    }

    /// Whether the game was decided on the board (a forfeit was not), so that its colours count.
    pub fn played_on_board(self) -> bool {
        matches!(
            self,
            Outcome::FirstWins | Outcome::SecondWins | Outcome::Draw
        )
    }
}

/// A pairing and its outcome, in a round (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub round: u32,
    pub pairing: Pairing,
    pub outcome: Outcome,
}
