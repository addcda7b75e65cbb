//! Colours in a Swiss round: the absolute colour rules, each player's preference, the cost of a
//! pair's best colour assignment (criterion 3 of the pairing weights) and the allocation of
//! colours to a pair once it is chosen. Pure computation; imports nothing of the store, Discord,
//! i18n or engine.

use super::Entrant;
use crate::league::Side;

/// How much a player wants a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Strength {
    /// Colours are level and the player wants to alternate from their last game.
    Mild,
    /// The player has had one colour once more than the other and wants to level them.
    Strong,
    /// Only this colour keeps the player within the absolute rules (not three in a row, colour
    /// difference within ±2).
    Absolute,
}

/// The colour a player wants next, and how much.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ColourPreference {
    pub side: Side,
    pub strength: Strength,
}

/// Firsts minus Seconds.
pub fn colour_difference(colours: &[Side]) -> i64 {
    colours
        .iter()
        .map(|c| match c {
            Side::First => 1,
            Side::Second => -1,
        })
        .sum()
}

/// Whether the absolute colour rules let the player take `side` next: not the same colour three
/// games in a row, and a colour difference that stays within ±2. A colour that brings an
/// out-of-range difference (a history the caller built without these rules) back towards zero is
/// always allowed, so that such a player is not stuck for ever.
pub fn may_play(e: &Entrant, side: Side) -> bool {
    let n = e.colours.len();
    if n >= 2 && e.colours[n - 1] == side && e.colours[n - 2] == side {
        return false;
    }
    let diff = colour_difference(&e.colours);
    let after = match side {
        Side::First => diff + 1,
        Side::Second => diff - 1,
    };
    after.abs() <= 2 || after.abs() < diff.abs()
}

/// The player's colour preference: absolute when only one colour is allowed, strong when the
/// colours are one apart (the player wants the colour they had less), mild when they are level
/// (the player wants the colour opposite to their last). None before any game on the board, and
/// none when no colour is allowed at all (such a player cannot be paired).
pub fn colour_preference(e: &Entrant) -> Option<ColourPreference> {
    let pref = |side, strength| Some(ColourPreference { side, strength });
    match (may_play(e, Side::First), may_play(e, Side::Second)) {
        (true, false) => return pref(Side::First, Strength::Absolute),
        (false, true) => return pref(Side::Second, Strength::Absolute),
        (false, false) => return None,
        (true, true) => {}
    }
    let diff = colour_difference(&e.colours);
    if diff < 0 {
        pref(Side::First, Strength::Strong)
    } else if diff > 0 {
        pref(Side::Second, Strength::Strong)
    } else {
        e.colours
            .last()
            .and_then(|last| pref(last.other(), Strength::Mild))
    }
}

/// What the pairing needs to know of one player's colours, computed once per round.
#[derive(Clone, Copy, Debug)]
pub(super) struct Colours {
    pub may_first: bool,
    pub may_second: bool,
    pub pref: Option<ColourPreference>,
    pub last: Option<Side>,
}

impl Colours {
    pub fn of(e: &Entrant) -> Colours {
        Colours {
            may_first: may_play(e, Side::First),
            may_second: may_play(e, Side::Second),
            pref: colour_preference(e),
            last: e.colours.last().copied(),
        }
    }

    /// The cost of giving this player `side`: 0 when it is what they want (or they want
    /// nothing), 1 against a mild preference, 2 against a strong one. (An absolute preference is
    /// never crossed: that assignment is not allowed at all.)
    fn unmet(&self, side: Side) -> u32 {
        match self.pref {
            Some(p) if p.side != side => match p.strength {
                Strength::Mild => 1,
                Strength::Strong | Strength::Absolute => 2,
            },
            _ => 0,
        }
    }
}

/// The largest [`pair_cost`]: with both assignments allowed, the better one crosses at most the
/// weaker of two equal wishes (cost ≤ 2); with one forced by an absolute preference, only the
/// other player can be crossed (cost ≤ 2).
pub(super) const MAX_COLOUR_COST: u32 = 2;

/// The colour cost of the best allowed assignment for a pair (criterion 3), or None when no
/// assignment keeps both players within the absolute rules (the pair may not meet).
pub(super) fn pair_cost(a: &Colours, b: &Colours) -> Option<u32> {
    let a_first =
        (a.may_first && b.may_second).then(|| a.unmet(Side::First) + b.unmet(Side::Second));
    let a_second =
        (a.may_second && b.may_first).then(|| a.unmet(Side::Second) + b.unmet(Side::First));
    let cost = match (a_first, a_second) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    };
    debug_assert!(cost.is_none_or(|c| c <= MAX_COLOUR_COST));
    cost
}

/// The side the higher-ranked player `h` of a chosen pair gets against `l`, on board `board`
/// (0-based). The only allowed assignment if there is one; otherwise the stronger preference
/// wins, and on a tie (equal strength for the same colour, or no preference at all) `h` gets the
/// colour opposite to their last one, or, before any game, First on even boards and Second on
/// odd ones (rank 0 has First on board 1, alternating down the boards).
pub(super) fn side_of_higher(h: &Colours, l: &Colours, board: usize) -> Side {
    let h_first = h.may_first && l.may_second;
    let h_second = h.may_second && l.may_first;
    if h_first != h_second {
        return if h_first { Side::First } else { Side::Second };
    }
    match (h.pref, l.pref) {
        (Some(ph), Some(pl)) if ph.side != pl.side => return ph.side,
        (Some(ph), Some(pl)) if ph.strength > pl.strength => return ph.side,
        (Some(ph), Some(pl)) if ph.strength < pl.strength => return pl.side.other(),
        (Some(ph), None) => return ph.side,
        (None, Some(pl)) => return pl.side.other(),
        _ => {}
    }
    match h.last {
        Some(last) => last.other(),
        None if board.is_multiple_of(2) => Side::First,
        None => Side::Second,
    }
}
