//! Game clocks: what a time control allows, how each move and takeback moves a game's clock, and
//! how the clock reads to a player.
//!
//! Three clocks, in whole days:
//! - **per-move**: `days` for every move (every game before there were others has this one);
//! - **increment** (Fischer): each player's bank starts at `days`; after each of their moves it
//!   gains `increment` days, and never holds more than `cap`;
//! - **byoyomi**: a main bank of `days`; once it is spent, each move within `period` days (the
//!   period starts again with every move, as shogi's byoyomi does).
//!
//! The deadline of the player to move is the truth about their time: it is where their bank
//! (and period) runs out, and everything that moves it (a vacation, `/moretime`) moves their
//! bank with it. A player's bank is therefore only written when their turn ends: what was left
//! of it by their deadline, plus the increment after a move. Their time on vacation is not
//! spent: the bank left is counted from the end of the vacation when they move during it.
//!
//! Decisions where issue 23 is silent (also in the book, docs/src/playing/clocks.md):
//! - `increment` without `clock` means the increment clock, `period` without `clock` byoyomi;
//!   the increment defaults to 1 day, the cap to the larger of 7 days and the bank, the period
//!   to 1 day.
//! - A takeback gives no increment and takes none back: the player to move when it is accepted
//!   keeps what was left of their bank, the player to move after it starts a turn with their
//!   bank as it stands (the increment of a move taken back stays earned; banks are not kept
//!   move by move).
//! - `/moretime` adds a day to the opponent's current turn (to their bank, in the clocks that
//!   have one). The increment never lifts a bank above the cap, but time a player was given
//!   (a day more, a vacation cut short) is not taken away by it either.
//! - The computer has no clock: its side's bank is kept as it was.

use crate::i18n::{Lang, Msg};
use crate::msg;
use crate::store::{ClockKind, GameRow, TimeControl};
use crate::t;

use super::{ALLOWED_DAYS, DAY};

/// The longest starting bank (increment, byoyomi), in days.
pub const MAX_BANK_DAYS: u32 = 30;
/// The most an increment bank may be capped at, in days.
pub const MAX_CAP_DAYS: u32 = 60;
/// The longest increment, in days.
pub const MAX_INCREMENT_DAYS: u32 = 7;
/// The longest byoyomi period, in days.
pub const MAX_PERIOD_DAYS: u32 = 14;
/// The cap of an increment bank when none is given: this, or the bank if it is larger.
pub const DEFAULT_CAP_DAYS: u32 = 7;

/// What a player asked for besides the days (`/challenge`, `league create`): the clock and its
/// numbers, each `None` when not given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockArgs {
    /// `per-move`, `increment` or `byoyomi`.
    pub kind: Option<String>,
    pub increment: Option<u32>,
    pub cap: Option<u32>,
    pub period: Option<u32>,
}

impl ClockArgs {
    /// The time control these ask for, `days` being the days per move or the starting bank
    /// (`default_days` when not given), checked: a refusal says what is wrong.
    pub fn control(&self, days: Option<u32>, default_days: u32) -> Result<TimeControl, Msg> {
        let kind = match self.kind.as_deref() {
            Some(k) => ClockKind::parse(&k.trim().to_ascii_lowercase())
                .ok_or_else(|| msg!("timing-unknown-clock", clock = k))?,
            None if self.increment.is_some() || self.cap.is_some() => ClockKind::Increment,
            None if self.period.is_some() => ClockKind::Byoyomi,
            None => ClockKind::PerMove,
        };
        let days = days.unwrap_or(default_days);
        // A number the clock does not use is a mistake worth saying.
        let stray = |option: &str| {
            msg!(
                "timing-option-not-here",
                option = option,
                clock = kind.as_str()
            )
        };
        if kind != ClockKind::Increment {
            if self.increment.is_some() {
                return Err(stray("increment"));
            }
            if self.cap.is_some() {
                return Err(stray("cap"));
            }
        }
        if kind != ClockKind::Byoyomi && self.period.is_some() {
            return Err(stray("period"));
        }
        let within = |option: &str, v: u32, lo: u32, hi: u32| {
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(msg!(
                    "timing-out-of-range",
                    option = option,
                    value = v as i64,
                    min = lo as i64,
                    max = hi as i64
                ))
            }
        };
        Ok(match kind {
            ClockKind::PerMove => {
                if !ALLOWED_DAYS.contains(&days) {
                    let allowed: Vec<String> = ALLOWED_DAYS.iter().map(|d| d.to_string()).collect();
                    return Err(msg!("core-days-allowed", days = allowed.join(", ")));
                }
                TimeControl::per_move(days)
            }
            ClockKind::Increment => {
                let days = within("days", days, 1, MAX_BANK_DAYS)?;
                let increment = within(
                    "increment",
                    self.increment.unwrap_or(1),
                    1,
                    MAX_INCREMENT_DAYS,
                )?;
                let cap = within(
                    "cap",
                    self.cap.unwrap_or(DEFAULT_CAP_DAYS.max(days)),
                    days.max(increment),
                    MAX_CAP_DAYS,
                )?;
                TimeControl {
                    kind,
                    days,
                    increment,
                    cap,
                    period: 0,
                }
            }
            ClockKind::Byoyomi => TimeControl {
                kind,
                days: within("days", days, 1, MAX_BANK_DAYS)?,
                increment: 0,
                cap: 0,
                period: within("period", self.period.unwrap_or(1), 1, MAX_PERIOD_DAYS)?,
            },
        })
    }
}

/// Both players' banks when a game with this control begins, in seconds.
pub fn start_banks(c: &TimeControl) -> [i64; 2] {
    match c.kind {
        ClockKind::PerMove => [0, 0],
        ClockKind::Increment | ClockKind::Byoyomi => [c.days as i64 * DAY; 2],
    }
}

/// The time a turn has when it begins with `bank` in hand, in seconds.
pub fn turn_span(c: &TimeControl, bank: i64) -> i64 {
    match c.kind {
        ClockKind::PerMove => c.days as i64 * DAY,
        ClockKind::Increment => bank,
        ClockKind::Byoyomi => bank + c.period as i64 * DAY,
    }
}

/// The bank left to the player to move, whose deadline is `deadline`, when they end their turn
/// at `from` (now, or the end of their vacation): never below 0. Without a deadline (the
/// computer's turn), `held`, the bank they had.
fn bank_left(c: &TimeControl, deadline: Option<i64>, held: i64, from: i64) -> i64 {
    let Some(d) = deadline else {
        return held;
    };
    match c.kind {
        ClockKind::PerMove => 0,
        ClockKind::Increment => (d - from).max(0),
        ClockKind::Byoyomi => (d - c.period as i64 * DAY - from).max(0),
    }
}

/// Both banks after `side` (0: the first player) ends their turn at `from`, by a move (`moved`:
/// the increment is added, up to the cap) or by a takeback.
pub fn banks_after(row: &GameRow, side: usize, from: i64, moved: bool) -> [i64; 2] {
    let c = &row.control;
    let mut banks = row.banks;
    let left = bank_left(c, row.deadline, banks[side], from);
    banks[side] = match c.kind {
        ClockKind::PerMove => 0,
        ClockKind::Increment if moved => {
            (left + c.increment as i64 * DAY).min((c.cap as i64 * DAY).max(left))
        }
        ClockKind::Increment | ClockKind::Byoyomi => left,
    };
    banks
}

/// A span of time as a player reads it: `2d 5h`, `5h 12m`, `12m` (`2日5時間`, …); the minutes
/// are left out past a day, the hours past a week.
pub fn span_text(lang: Lang, secs: i64) -> String {
    let secs = secs.max(0);
    let (d, h, m) = (secs / DAY, secs % DAY / 3600, secs % 3600 / 60);
    if d >= 7 || (d > 0 && h == 0) {
        t!(lang, "timing-span-d", d = d)
    } else if d > 0 {
        t!(lang, "timing-span-dh", d = d, h = h)
    } else if h > 0 && m == 0 {
        t!(lang, "timing-span-h", h = h)
    } else if h > 0 {
        t!(lang, "timing-span-hm", h = h, m = m)
    } else {
        t!(lang, "timing-span-m", m = m)
    }
}

/// The control in words: `3 days per move`, `increment: 3 days + 1 per move, at most 7`,
/// `byoyomi: 10 days, then 1 per move`.
pub fn control_text(lang: Lang, c: &TimeControl) -> String {
    match c.kind {
        ClockKind::PerMove => t!(lang, "timing-per-move", days = c.days as i64),
        ClockKind::Increment => t!(
            lang,
            "timing-increment",
            days = c.days as i64,
            increment = c.increment as i64,
            cap = c.cap as i64
        ),
        ClockKind::Byoyomi => t!(
            lang,
            "timing-byoyomi",
            days = c.days as i64,
            period = c.period as i64
        ),
    }
}

/// Each player's time as the board and `/board` show it at `now`, first player first: the
/// player to move's time left (their deadline minus now; in byoyomi, the main bank left and
/// the period, or the period's time once the bank is spent), the other's time for their next
/// move. `None` for a finished game.
pub fn clock_texts(lang: Lang, row: &GameRow, now: i64) -> [Option<String>; 2] {
    if row.status != crate::store::GameStatus::Active {
        return [None, None];
    }
    let c = &row.control;
    let period = c.period as i64 * DAY;
    let to_move = row
        .to_move
        .as_deref()
        .and_then(|u| row.players.iter().position(|p| p == u));
    let show = |side: usize| {
        let moving = to_move == Some(side);
        if moving {
            let d = row.deadline?;
            return Some(match c.kind {
                ClockKind::PerMove | ClockKind::Increment => span_text(lang, d - now),
                ClockKind::Byoyomi => {
                    let main = d - period - now;
                    if main > 0 {
                        t!(
                            lang,
                            "timing-show-byoyomi",
                            main = span_text(lang, main),
                            period = span_text(lang, period)
                        )
                    } else {
                        t!(
                            lang,
                            "timing-show-in-byoyomi",
                            left = span_text(lang, d - now)
                        )
                    }
                }
            });
        }
        let bank = row.banks[side];
        Some(match c.kind {
            ClockKind::PerMove => t!(
                lang,
                "timing-show-per-move",
                span = span_text(lang, c.days as i64 * DAY)
            ),
            ClockKind::Increment => span_text(lang, bank),
            ClockKind::Byoyomi if bank > 0 => t!(
                lang,
                "timing-show-byoyomi",
                main = span_text(lang, bank),
                period = span_text(lang, period)
            ),
            ClockKind::Byoyomi => t!(
                lang,
                "timing-show-in-byoyomi",
                left = span_text(lang, period)
            ),
        })
    };
    [show(0), show(1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::GameStatus;

    fn args(
        kind: Option<&str>,
        inc: Option<u32>,
        cap: Option<u32>,
        period: Option<u32>,
    ) -> ClockArgs {
        ClockArgs {
            kind: kind.map(String::from),
            increment: inc,
            cap,
            period,
        }
    }

    fn row(c: TimeControl, banks: [i64; 2], deadline: Option<i64>) -> GameRow {
        GameRow {
            id: 1,
            variant: "shogi".into(),
            setup: None,
            start_position: String::new(),
            players: ["a".into(), "b".into()],
            guild: None,
            channel: None,
            thread: None,
            status: GameStatus::Active,
            result: None,
            reason: None,
            rated: false,
            control: c,
            deadline,
            banks,
            turn_span: 0,
            position: String::new(),
            ply: 0,
            to_move: Some("a".into()),
            reminded: false,
            version: 0,
            created_at: 0,
            updated_at: 0,
            finished_at: None,
            computer_level: None,
        }
    }

    #[test]
    fn controls_are_read_with_their_defaults_and_checked() {
        assert_eq!(
            args(None, None, None, None).control(None, 3),
            Ok(TimeControl::per_move(3))
        );
        let inc = args(Some("increment"), None, None, None)
            .control(Some(3), 5)
            .unwrap();
        assert_eq!((inc.days, inc.increment, inc.cap), (3, 1, 7));
        // The cap is at least the bank.
        let big = args(None, Some(2), None, None)
            .control(Some(10), 3)
            .unwrap();
        assert_eq!((big.kind, big.cap), (ClockKind::Increment, 10));
        let byo = args(None, None, None, Some(2))
            .control(Some(10), 3)
            .unwrap();
        assert_eq!(
            (byo.kind, byo.days, byo.period),
            (ClockKind::Byoyomi, 10, 2)
        );
        assert_eq!(
            args(Some("Byoyomi"), None, None, None)
                .control(Some(4), 3)
                .unwrap()
                .period,
            1
        );
        // Refused: an unknown clock, a stray option, a number out of range, a cap below the
        // bank, per-move days not in the list.
        for bad in [
            args(Some("hourglass"), None, None, None).control(None, 3),
            args(Some("per-move"), Some(1), None, None).control(None, 3),
            args(Some("increment"), None, None, Some(1)).control(None, 3),
            args(Some("byoyomi"), None, Some(9), None).control(None, 3),
            args(Some("increment"), Some(0), None, None).control(None, 3),
            args(Some("increment"), None, Some(4), None).control(Some(5), 3),
            args(Some("byoyomi"), None, None, Some(15)).control(None, 3),
            args(Some("byoyomi"), None, None, None).control(Some(31), 3),
            args(None, None, None, None).control(Some(4), 3),
        ] {
            assert!(bad.is_err(), "{bad:?}");
        }
    }

    #[test]
    fn an_increment_bank_gains_after_a_move_up_to_its_cap() {
        let c = args(Some("increment"), Some(1), Some(7), None)
            .control(Some(3), 3)
            .unwrap();
        let start = start_banks(&c);
        assert_eq!(start, [3 * DAY, 3 * DAY]);
        assert_eq!(turn_span(&c, start[0]), 3 * DAY);
        // First player moves after one day: 2 days left, plus 1.
        let r = row(c, start, Some(3 * DAY));
        assert_eq!(banks_after(&r, 0, DAY, true), [3 * DAY, 3 * DAY]);
        // After a quick move with a full bank of 7: the cap holds it at 7.
        let r = row(c, [7 * DAY, 3 * DAY], Some(7 * DAY));
        assert_eq!(banks_after(&r, 0, 60, true)[0], 7 * DAY);
        // A takeback adds nothing.
        assert_eq!(banks_after(&r, 0, DAY, false)[0], 6 * DAY);
        // Moving on vacation: the bank is counted from the end of the vacation.
        let r = row(c, start, Some(10 * DAY));
        assert_eq!(banks_after(&r, 0, 8 * DAY, true)[0], 3 * DAY);
    }

    #[test]
    fn byoyomi_spends_the_bank_then_keeps_the_period() {
        let c = args(Some("byoyomi"), None, None, Some(1))
            .control(Some(2), 3)
            .unwrap();
        let start = start_banks(&c);
        assert_eq!(turn_span(&c, start[0]), 3 * DAY);
        // Half a day into the first turn: 1.5 days of bank left.
        let r = row(c, start, Some(3 * DAY));
        assert_eq!(banks_after(&r, 0, DAY / 2, true)[0], 3 * DAY / 2);
        // Into the period: the bank is spent, and the next turn has the period alone.
        assert_eq!(banks_after(&r, 0, 2 * DAY + 3600, true)[0], 0);
        assert_eq!(turn_span(&c, 0), DAY);
    }

    #[test]
    fn clocks_read_for_both_players() {
        let c = args(Some("byoyomi"), None, None, Some(1))
            .control(Some(2), 3)
            .unwrap();
        let r = row(c, [0, 2 * DAY], Some(3 * DAY));
        let [a, b] = clock_texts(Lang::En, &r, DAY / 2);
        assert_eq!(a.as_deref(), Some("1d 12h + 1d"));
        assert_eq!(b.as_deref(), Some("2d + 1d"));
        let [a, _] = clock_texts(Lang::En, &r, 2 * DAY + 3 * 3600);
        assert_eq!(a.as_deref(), Some("byoyomi 21h"));
        let p = row(TimeControl::per_move(3), [0, 0], Some(3 * DAY));
        let [a, b] = clock_texts(Lang::En, &p, 59 * 60);
        assert_eq!(a.as_deref(), Some("2d 23h"));
        assert_eq!(b.as_deref(), Some("3d per move"));
        assert_eq!(span_text(Lang::En, 125), "2m");
        assert_eq!(span_text(Lang::Ja, 8 * DAY + 3600), "8日");
    }
}
