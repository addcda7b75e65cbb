//! How a game ends: the outcome and its reason, in the words `tegami status` and storage use.

use crate::engine::color::Color;
use crate::engine::variant::Variant;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    Checkmate,
    EnteringKing,
    Stalemate,
    Repetition,
    PerpetualCheck,
    Impasse,
    /// Shogi's entering-king declaration (the 27-point rule): see `declaration.rs`.
    Declaration,
    Resignation,
    Timeout,
    Agreement,
}

impl Reason {
    pub const ALL: &'static [Reason] = &[
        Reason::Checkmate,
        Reason::EnteringKing,
        Reason::Stalemate,
        Reason::Repetition,
        Reason::PerpetualCheck,
        Reason::Impasse,
        Reason::Declaration,
        Reason::Resignation,
        Reason::Timeout,
        Reason::Agreement,
    ];

    /// The word used in `tegami status` and in storage.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::EnteringKing => "entering-king",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::Impasse => "impasse",
            Reason::Declaration => "declaration",
            Reason::Resignation => "resignation",
            Reason::Timeout => "timeout",
            Reason::Agreement => "agreement",
        }
    }

    /// The reason in words (`perpetual check`), as results are written.
    pub fn words(self) -> String {
        self.as_str().replace('-', " ")
    }

    pub fn parse(s: &str) -> Option<Reason> {
        Reason::ALL.iter().copied().find(|r| r.as_str() == s)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win { winner: Color, reason: Reason },
    Draw { reason: Reason },
}

impl Outcome {
    /// `win black checkmate` or `draw repetition`, as `tegami status` prints it.
    pub fn describe(self, v: &Variant) -> String {
        match self {
            Outcome::Win { winner, reason } => {
                format!("win {} {}", v.side_name(winner), reason.as_str())
            }
            Outcome::Draw { reason } => format!("draw {}", reason.as_str()),
        }
    }

    pub fn reason(self) -> Reason {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }
}
