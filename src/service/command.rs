//! The commands of the core, and the reader of their text form (`challenge @bob palace black
//! days=3`), shared by the console and Discord's prefix commands. Slash commands build the same
//! `Command` values from their options.

use thiserror::Error;

use super::timing::ClockArgs;
use super::UserRef;
use crate::i18n::Msg;
use crate::msg;

/// Which side the challenger wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    First,
    Second,
    Random,
}

/// What to do with an offer (draw, takeback, impasse).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferAction {
    /// Offer, or accept if the opponent offered first.
    Auto,
    Offer,
    Accept,
    Decline,
}

/// One command of a user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Challenge {
        /// `None`: an open challenge.
        opponent: Option<UserRef>,
        variant: String,
        color: ColorChoice,
        days: Option<u32>,
        handicap: Option<String>,
        setup: Option<String>,
        rated: Option<bool>,
        /// The computer's level (1-5), when challenging the computer.
        level: Option<u8>,
        /// The clock (`days` are its days per move or starting bank).
        clock: ClockArgs,
    },
    Accept {
        challenge: Option<i64>,
    },
    Decline {
        challenge: Option<i64>,
    },
    Cancel {
        challenge: Option<i64>,
    },
    Move {
        game: Option<i64>,
        text: String,
        /// The ply the player saw (buttons carry it): a move made since makes this one stale.
        seen_ply: Option<u32>,
    },
    Board {
        game: Option<i64>,
        /// The position after this many moves (plies) instead of now.
        ply: Option<u32>,
        /// `kanji` or `international` instead of the viewer's setting.
        style: Option<String>,
    },
    Moves {
        game: Option<i64>,
        square: Option<String>,
    },
    /// The move picker (see `service::picker`): the step at `path` (choices so far), page
    /// `page`; `seen_ply`: the ply the picker was opened at (none: open it now). Text form:
    /// `pick [GAME] [CHOICE...]`.
    Pick {
        game: Option<i64>,
        path: Vec<String>,
        page: u32,
        seen_ply: Option<u32>,
    },
    Resign {
        game: Option<i64>,
    },
    /// Shogi's entering-king declaration.
    Declare {
        game: Option<i64>,
    },
    Draw {
        game: Option<i64>,
        action: OfferAction,
    },
    Takeback {
        game: Option<i64>,
        action: OfferAction,
    },
    Impasse {
        game: Option<i64>,
        action: OfferAction,
    },
    /// Games in progress (the sender's, or another user's) and open challenges.
    Games {
        user: Option<UserRef>,
    },
    History {
        user: Option<UserRef>,
    },
    Game {
        game: i64,
        ply: Option<u32>,
    },
    Record {
        game: i64,
    },
    /// A finished game's evaluation chart and biggest swings.
    Analysis {
        game: i64,
    },
    /// The game as an animated GIF.
    Replay {
        game: i64,
    },
    Export {
        game: i64,
        format: String,
    },
    Rules {
        variant: String,
        piece: Option<String>,
    },
    /// The user's settings: shown when nothing is given, else changed.
    Settings {
        style: Option<String>,
        notify: Option<String>,
        /// Hours before a deadline to be reminded (0: never); the core takes 0 to
        /// [`MAX_REMIND_HOURS`](super::MAX_REMIND_HOURS).
        remind: Option<u32>,
        /// `en` or `ja` (`default`: back to the client's language).
        language: Option<String>,
        /// `western`, `japanese` or `usi` (`default`: the language's).
        notation: Option<String>,
        /// The local hour (0-23) of the daily digest (`Some(None)`: back to the default, a
        /// day after the last one).
        digest_hour: Option<Option<u8>>,
        /// An IANA time zone name (`Asia/Tokyo`; `UTC` or `default`: back to UTC).
        timezone: Option<String>,
        /// The side kept at the bottom of pictures: `black` or `white` (`red`, `blue` in
        /// Shanghai's words), or `turn` (the side to move, the default).
        board: Option<String>,
    },
    /// Give the opponent one more day on their move.
    MoreTime {
        game: Option<i64>,
    },
    /// Start a vacation of some days, end it (`None` days and `end`), or show it.
    Vacation {
        days: Option<u32>,
        end: bool,
    },
    Stats {
        user: Option<UserRef>,
    },
    Leaderboard {
        variant: String,
    },
    /// Server settings (server managers only).
    Server {
        days: Option<u32>,
        rated: Option<bool>,
        channel: Option<String>,
        /// `en` or `ja` for the server's public posts (`default`: the server's Discord locale).
        language: Option<String>,
        /// Whether members may create leagues.
        leagues: Option<bool>,
        /// The game shown first in `games` here (0: none).
        feature: Option<i64>,
    },
    /// Help on every command or one, written as `form` shows commands.
    Help {
        topic: Option<String>,
        form: super::catalog::Form,
    },
    /// Follow a game of the server (see `service::follow`), told of it by `notify` (`thread`,
    /// `digest` or `ping`; `None`: in its thread, or as before for a game already followed);
    /// without a game, the games followed.
    Follow {
        game: Option<i64>,
        notify: Option<super::FollowHow>,
    },
    /// Stop following a game.
    Unfollow {
        game: i64,
    },
    /// A server league (see `service::league`).
    League(LeagueCommand),
    /// Conditional moves (see `service::conditional`).
    Conditional(ConditionalCommand),
}

impl Command {
    /// The command's name, as its slash command is named (`challenge`, `move`, `league` ...):
    /// a fixed set, for the metrics' labels.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Challenge { .. } => "challenge",
            Command::Accept { .. } => "accept",
            Command::Decline { .. } => "decline",
            Command::Cancel { .. } => "cancel",
            Command::Move { .. } => "move",
            Command::Board { .. } => "board",
            Command::Moves { .. } => "moves",
            Command::Pick { .. } => "pick",
            Command::Resign { .. } => "resign",
            Command::Declare { .. } => "declare",
            Command::Draw { .. } => "draw",
            Command::Takeback { .. } => "takeback",
            Command::Impasse { .. } => "impasse",
            Command::Games { .. } => "games",
            Command::History { .. } => "history",
            Command::Game { .. } => "game",
            Command::Record { .. } => "record",
            Command::Analysis { .. } => "analysis",
            Command::Replay { .. } => "replay",
            Command::Export { .. } => "export",
            Command::Rules { .. } => "rules",
            Command::Settings { .. } => "settings",
            Command::MoreTime { .. } => "moretime",
            Command::Vacation { .. } => "vacation",
            Command::Stats { .. } => "stats",
            Command::Leaderboard { .. } => "leaderboard",
            Command::Server { .. } => "server",
            Command::Help { .. } => "help",
            Command::Follow { .. } => "follow",
            Command::Unfollow { .. } => "unfollow",
            Command::League(_) => "league",
            Command::Conditional(_) => "conditional",
        }
    }
}

/// A number a command takes, and the values allowed. The slash command declares the same
/// bounds (`#[min]`, `#[max]` in `discord::commands`; a test compares the two), but only the
/// slash command: the core checks them ([`Command::validate`]) whatever the transport (a
/// prefix command, the console).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// The commands taking the option, named as their slash commands are (`league create`).
    pub commands: &'static [&'static str],
    pub option: &'static str,
    pub min: i64,
    /// `None`: no upper bound.
    pub max: Option<i64>,
}

impl Bound {
    /// Refuses `value` outside the bounds, naming the option and its range.
    pub fn check(&self, value: i64) -> Result<(), Msg> {
        let above = self.max.is_some_and(|max| value > max);
        if value >= self.min && !above {
            return Ok(());
        }
        Err(match self.max {
            Some(max) => msg!(
                "cmd-out-of-range",
                option = self.option,
                value = value,
                min = self.min,
                max = max
            ),
            None => msg!(
                "cmd-too-small",
                option = self.option,
                value = value,
                min = self.min
            ),
        })
    }
}

/// The computer's level.
pub const LEVEL: Bound = Bound {
    commands: &["challenge"],
    option: "level",
    min: 1,
    max: Some(5),
};
/// An increment clock's days added after each move.
pub const INCREMENT: Bound = Bound {
    commands: &["challenge", "league create"],
    option: "increment",
    min: 1,
    max: Some(super::timing::MAX_INCREMENT_DAYS as i64),
};
/// The most days an increment clock's bank may hold.
pub const CAP: Bound = Bound {
    commands: &["challenge", "league create"],
    option: "cap",
    min: 1,
    max: Some(super::timing::MAX_CAP_DAYS as i64),
};
/// A byoyomi's days per move once the bank is spent.
pub const PERIOD: Bound = Bound {
    commands: &["challenge", "league create"],
    option: "period",
    min: 1,
    max: Some(super::timing::MAX_PERIOD_DAYS as i64),
};
/// Hours before a deadline a player is reminded (0: never).
pub const REMIND: Bound = Bound {
    commands: &["settings"],
    option: "remind",
    min: 0,
    max: Some(super::MAX_REMIND_HOURS as i64),
};
/// The hour of the daily digest.
pub const DIGEST_HOUR: Bound = Bound {
    commands: &["settings"],
    option: "digest_hour",
    min: 0,
    max: Some(23),
};
/// A game shown first in `games` (0: none).
pub const FEATURE: Bound = Bound {
    commands: &["server"],
    option: "feature",
    min: 0,
    max: None,
};
/// A Swiss league's rounds.
pub const ROUNDS: Bound = Bound {
    commands: &["league create"],
    option: "rounds",
    min: 1,
    max: Some(super::league::MAX_SWISS_ROUNDS as i64),
};
/// Days a league's round may last before its games are adjudicated.
pub const ROUND_DAYS: Bound = Bound {
    commands: &["league create"],
    option: "round_days",
    min: 1,
    max: Some(365),
};
/// The most players a league takes (a round robin takes fewer: see `service::league`).
pub const MAX_PLAYERS: Bound = Bound {
    commands: &["league create"],
    option: "max_players",
    min: 2,
    max: Some(super::league::MAX_SWISS_PLAYERS as i64),
};
/// A round of a league.
pub const ROUND: Bound = Bound {
    commands: &["league pairings"],
    option: "round",
    min: 1,
    max: None,
};
/// A game followed or no longer followed.
pub const FOLLOWED_GAME: Bound = Bound {
    commands: &["follow", "unfollow"],
    option: "game",
    min: 1,
    max: None,
};
/// The days of a vacation: the month's allowance at most (the slash command declares no
/// bounds here; its handler refuses what is not 1 to 366).
pub const VACATION_DAYS: Bound = Bound {
    commands: &["vacation"],
    option: "days",
    min: 1,
    max: Some(14),
};

/// Every bounded number of every command.
pub const BOUNDS: &[Bound] = &[
    LEVEL,
    INCREMENT,
    CAP,
    PERIOD,
    REMIND,
    DIGEST_HOUR,
    FEATURE,
    ROUNDS,
    ROUND_DAYS,
    MAX_PLAYERS,
    ROUND,
    FOLLOWED_GAME,
    VACATION_DAYS,
];

/// The longest texts options may hold, as the slash commands declare them (`#[max_length]`):
/// (command, option, characters).
pub const MAX_LENGTHS: &[(&str, &str, usize)] = &[
    ("settings", "timezone", 64),
    ("league create", "name", 60),
    ("conditional add", "line", 300),
];

/// Refuses a text longer than its option's [`MAX_LENGTHS`].
fn check_length(command: &str, option: &str, text: &str) -> Result<(), Msg> {
    let Some(&(_, _, max)) = MAX_LENGTHS
        .iter()
        .find(|(c, o, _)| *c == command && *o == option)
    else {
        return Ok(());
    };
    let length = text.chars().count();
    if length <= max {
        return Ok(());
    }
    Err(msg!(
        "cmd-too-long",
        option = option,
        length = length,
        max = max
    ))
}

/// Refuses a game's name the core does not know (`shogi`, `judkins` ...).
fn check_variant(name: &str) -> Result<(), Msg> {
    if crate::engine::VariantId::parse(name).is_some() {
        return Ok(());
    }
    let known: Vec<&str> = crate::engine::VariantId::ALL
        .iter()
        .map(|v| v.as_str())
        .collect();
    Err(msg!(
        "play-unknown-game",
        game = name,
        choices = known.join(", ")
    ))
}

/// Refuses a clock that is no clock, or numbers out of their bounds; `days` are checked
/// against the clock (a per-move clock's allowed days, a bank's range).
fn check_clock(clock: &ClockArgs, days: Option<u32>) -> Result<(), Msg> {
    for (bound, value) in [
        (INCREMENT, clock.increment),
        (CAP, clock.cap),
        (PERIOD, clock.period),
    ] {
        if let Some(v) = value {
            bound.check(i64::from(v))?;
        }
    }
    // The whole clock as the command asks for it (a server's default days, when none are
    // given, are checked again with the server's setting when the game is made).
    clock
        .control(days, super::Config::default().default_days)
        .map(drop)
}

impl Command {
    /// Checks every number and choice of the command against what the command allows (the
    /// slash command's bounds and choices, and the names the core reads): a refusal names the
    /// option and its range. The core runs it before anything else, whatever the transport,
    /// so a prefix command or the console cannot pass what a slash command could not.
    pub fn validate(&self) -> Result<(), Msg> {
        let some = |bound: Bound, value: Option<i64>| match value {
            Some(v) => bound.check(v),
            None => Ok(()),
        };
        match self {
            Command::Challenge {
                variant,
                days,
                level,
                clock,
                ..
            } => {
                check_variant(variant)?;
                some(LEVEL, level.map(i64::from))?;
                check_clock(clock, *days)
            }
            Command::Board { style, .. } => match style.as_deref() {
                Some(s) if !["kanji", "international"].contains(&s) => {
                    Err(msg!("settings-bad-style", value = s))
                }
                _ => Ok(()),
            },
            Command::Rules { variant, .. } | Command::Leaderboard { variant } => {
                check_variant(variant)
            }
            Command::Settings {
                style,
                notify,
                remind,
                language,
                notation,
                digest_hour,
                timezone,
                board,
            } => {
                let back = |v: &str| v == "default" || v == "auto";
                if let Some(b) = board.as_deref() {
                    if board_side(b).is_none() {
                        return Err(msg!("learn-bad-board", value = b));
                    }
                }
                if let Some(s) = style.as_deref() {
                    if !["kanji", "international"].contains(&s) {
                        return Err(msg!("settings-bad-style", value = s));
                    }
                }
                if let Some(n) = notify.as_deref() {
                    if !["mention", "dm", "digest"].contains(&n) {
                        return Err(msg!("settings-bad-notify", value = n));
                    }
                }
                some(REMIND, remind.map(i64::from))?;
                if let Some(l) = language.as_deref() {
                    if !back(l) && crate::i18n::Lang::parse(l).is_none() {
                        return Err(msg!("settings-bad-language", value = l));
                    }
                }
                if let Some(n) = notation.as_deref() {
                    if !back(n) && crate::engine::notation::Notation::parse(n).is_none() {
                        return Err(msg!("settings-bad-notation", value = n));
                    }
                }
                if let Some(Some(h)) = digest_hour {
                    if DIGEST_HOUR.check(i64::from(*h)).is_err() {
                        return Err(msg!("settings-bad-digest-hour", value = *h));
                    }
                }
                match timezone {
                    Some(z) => check_length("settings", "timezone", z),
                    None => Ok(()),
                }
            }
            Command::Vacation { days, .. } => some(VACATION_DAYS, days.map(i64::from)),
            Command::Server {
                days,
                language,
                feature,
                ..
            } => {
                if let Some(d) = days {
                    if !super::ALLOWED_DAYS.contains(d) {
                        let allowed: Vec<String> =
                            super::ALLOWED_DAYS.iter().map(|d| d.to_string()).collect();
                        return Err(msg!("core-days-allowed", days = allowed.join(", ")));
                    }
                }
                if let Some(l) = language.as_deref() {
                    if l != "default" && l != "auto" && crate::i18n::Lang::parse(l).is_none() {
                        return Err(msg!("settings-bad-language", value = l));
                    }
                }
                some(FEATURE, *feature)
            }
            Command::Follow { game, .. } => some(FOLLOWED_GAME, *game),
            Command::Unfollow { game } => FOLLOWED_GAME.check(*game),
            Command::League(LeagueCommand::Create(a)) => {
                check_length("league create", "name", a.name.trim())?;
                check_variant(&a.variant)?;
                if super::league::parse_format(&a.format).is_none() {
                    return Err(msg!("league-bad-format", format = a.format.as_str()));
                }
                if let Some(s) = a.start.as_deref() {
                    if super::league::parse_schedule(s).is_none() {
                        return Err(msg!("league-bad-start", start = s));
                    }
                }
                some(ROUNDS, a.rounds.map(i64::from))?;
                some(ROUND_DAYS, a.round_days.map(i64::from))?;
                some(MAX_PLAYERS, a.max_players.map(i64::from))?;
                check_clock(&a.clock, a.days)
            }
            Command::League(LeagueCommand::Pairings { round, .. }) => {
                some(ROUND, round.map(i64::from))
            }
            Command::Conditional(ConditionalCommand::Add { line, .. }) => {
                check_length("conditional add", "line", line)
            }
            _ => Ok(()),
        }
    }
}

/// The sub-commands of `conditional`; `game` is needed only when the player has several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConditionalCommand {
    /// A line: the opponent's expected move, the answer, and so on, in any notation.
    Add {
        game: Option<i64>,
        line: String,
    },
    List {
        game: Option<i64>,
    },
    Clear {
        game: Option<i64>,
    },
}

/// What `league create` is given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeagueArgs {
    pub name: String,
    /// The game (`shogi`, …).
    pub variant: String,
    /// Days per move, or the starting bank (see `clock`).
    pub days: Option<u32>,
    /// The clock of the league's games.
    pub clock: ClockArgs,
    /// `round-robin`, `double-round-robin` or `swiss`.
    pub format: String,
    /// Swiss: the rounds to play.
    pub rounds: Option<u32>,
    pub rated: Option<bool>,
    /// Round robins: `all` (every game at once) or `rounds` (round by round, the default).
    pub start: Option<String>,
    /// Days a round may last before its unfinished games are adjudicated.
    pub round_days: Option<u32>,
    pub max_players: Option<u32>,
    pub rating_min: Option<i64>,
    pub rating_max: Option<i64>,
}

/// The sub-commands of `league`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeagueCommand {
    Create(LeagueArgs),
    Join { league: i64 },
    Leave { league: i64 },
    Start { league: i64 },
    Cancel { league: i64 },
    List,
    Show { league: i64 },
    Pairings { league: i64, round: Option<u32> },
    Kick { league: i64, user: UserRef },
}

/// Why a command line could not be read.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum CommandError {
    #[error("{}", Self::Unknown(.0.clone()).msg())]
    Unknown(String),
    #[error("{0}")]
    Usage(Msg),
}

impl CommandError {
    /// What to tell the sender, in their language.
    pub fn msg(&self) -> Msg {
        match self {
            CommandError::Unknown(w) => msg!("cmd-unknown", word = w.as_str()),
            CommandError::Usage(m) => m.clone(),
        }
    }
}

/// "usage: …" with the usage line of command `name` (`move`, `league create`), written from
/// the command table.
fn usage(name: &str) -> CommandError {
    CommandError::Usage(super::catalog::usage_msg(name))
}

/// A game or challenge id: `12` or `#12`.
fn parse_id(s: &str) -> Option<i64> {
    s.trim_start_matches('#')
        .parse()
        .ok()
        .filter(|&n: &i64| n > 0)
}

/// A user mention: `@alice`, or Discord's `<@123>` / `<@!123>`.
pub fn parse_mention(s: &str) -> Option<String> {
    if let Some(inner) = s.strip_prefix("<@").and_then(|r| r.strip_suffix('>')) {
        let id = inner.trim_start_matches('!');
        return (!id.is_empty() && id.chars().all(|c| c.is_ascii_digit())).then(|| id.to_string());
    }
    let name = s.strip_prefix('@')?;
    (!name.is_empty()).then(|| name.to_string())
}

fn offer_action(word: Option<&str>, offer_word: &str) -> Result<OfferAction, ()> {
    Ok(match word {
        None => OfferAction::Auto,
        Some(w) if w == offer_word || w == "offer" || w == "propose" || w == "request" => {
            OfferAction::Offer
        }
        Some("accept" | "yes") => OfferAction::Accept,
        Some("decline" | "no" | "refuse") => OfferAction::Decline,
        Some(_) => return Err(()),
    })
}

/// Splits an optional leading game id off the arguments.
fn game_arg<'a>(args: &'a [&'a str]) -> (Option<i64>, &'a [&'a str]) {
    match args.first().and_then(|a| parse_id(a)) {
        Some(id) => (Some(id), &args[1..]),
        None => (None, args),
    }
}

/// Reads a command line (without the `@user` prefix). A leading `/` or `!` is accepted.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let line = line.trim().trim_start_matches(['/', '!']);
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&name, args)) = words.split_first() else {
        return Err(CommandError::Usage(msg!("cmd-empty")));
    };
    let name = name.to_ascii_lowercase();
    Ok(match name.as_str() {
        "challenge" => parse_challenge(args)?,
        "accept" | "decline" | "cancel" => {
            let challenge = match args {
                [] => None,
                [id] => Some(parse_id(id).ok_or_else(|| usage(&name))?),
                _ => return Err(usage(&name)),
            };
            match name.as_str() {
                "accept" => Command::Accept { challenge },
                "decline" => Command::Decline { challenge },
                _ => Command::Cancel { challenge },
            }
        }
        "move" | "m" | "play" => {
            // A game number, then the move, which may be typed in parts (`move 1 4a 3b`);
            // but `76 歩` is one Japanese move, whose number is its square.
            let (game, rest) = match args {
                [id, mv, ..]
                    if parse_id(id).is_some()
                        && mv.chars().next().is_some_and(|c| c.is_ascii()) =>
                {
                    (parse_id(id), args[1..].to_vec())
                }
                _ => (None, args.to_vec()),
            };
            if rest.is_empty() {
                return Err(usage("move"));
            }
            Command::Move {
                game,
                text: rest.join(""),
                seen_ply: None,
            }
        }
        "board" | "show" => {
            let u = "board";
            let (game, mut rest) = game_arg(args);
            let mut style = None;
            if let Some((last, before)) = rest.split_last() {
                let low = last.to_ascii_lowercase();
                if low == "kanji" || low == "international" {
                    style = Some(low);
                    rest = before;
                }
            }
            let ply = match rest {
                [] => None,
                [p] if game.is_some() => Some(p.parse().map_err(|_| usage(u))?),
                _ => return Err(usage(u)),
            };
            Command::Board { game, ply, style }
        }
        "pick" => {
            let (game, rest) = game_arg(args);
            Command::Pick {
                game,
                path: rest.iter().map(|s| s.to_string()).collect(),
                page: 0,
                seen_ply: None,
            }
        }
        "moves" | "legal" => {
            let (game, rest) = game_arg(args);
            match rest {
                [] => Command::Moves { game, square: None },
                [sq] => Command::Moves {
                    game,
                    square: Some(sq.to_string()),
                },
                _ => return Err(usage("moves")),
            }
        }
        "resign" => {
            let (game, rest) = game_arg(args);
            if !rest.is_empty() {
                return Err(usage("resign"));
            }
            Command::Resign { game }
        }
        "declare" => {
            let (game, rest) = game_arg(args);
            if !rest.is_empty() {
                return Err(usage("declare"));
            }
            Command::Declare { game }
        }
        "draw" | "takeback" | "impasse" => {
            let (game, rest) = game_arg(args);
            let word = match rest {
                [] => None,
                [w] => Some(w.to_ascii_lowercase()),
                _ => return Err(usage(&name)),
            };
            let action = offer_action(word.as_deref(), &name).map_err(|_| usage(&name))?;
            match name.as_str() {
                "draw" => Command::Draw { game, action },
                "takeback" => Command::Takeback { game, action },
                _ => Command::Impasse { game, action },
            }
        }
        "games" => match args {
            [] => Command::Games { user: None },
            [u] => Command::Games {
                user: Some(user_arg(u)),
            },
            _ => return Err(usage("games")),
        },
        "history" => match args {
            [] => Command::History { user: None },
            [u] => Command::History {
                user: Some(user_arg(u)),
            },
            _ => return Err(usage("history")),
        },
        "game" => match args {
            [id] => Command::Game {
                game: parse_id(id).ok_or_else(|| usage("game"))?,
                ply: None,
            },
            [id, ply] => Command::Game {
                game: parse_id(id).ok_or_else(|| usage("game"))?,
                ply: Some(ply.parse().map_err(|_| usage("game"))?),
            },
            _ => return Err(usage("game")),
        },
        "analysis" | "analyse" | "analyze" => match args {
            [id] => Command::Analysis {
                game: parse_id(id).ok_or_else(|| usage("analysis"))?,
            },
            _ => return Err(usage("analysis")),
        },
        "record" => match args {
            [id] => Command::Record {
                game: parse_id(id).ok_or_else(|| usage("record"))?,
            },
            _ => return Err(usage("record")),
        },
        "replay" => match args {
            [id] => Command::Replay {
                game: parse_id(id).ok_or_else(|| usage("replay"))?,
            },
            _ => return Err(usage("replay")),
        },
        "export" => match args {
            [id] => Command::Export {
                game: parse_id(id).ok_or_else(|| usage("export"))?,
                format: "sfen".into(),
            },
            [id, f] => Command::Export {
                game: parse_id(id).ok_or_else(|| usage("export"))?,
                format: f.to_ascii_lowercase(),
            },
            _ => return Err(usage("export")),
        },
        "rules" => match args {
            [v] => Command::Rules {
                variant: v.to_string(),
                piece: None,
            },
            [v, p] => Command::Rules {
                variant: v.to_string(),
                piece: Some(p.to_string()),
            },
            _ => return Err(usage("rules")),
        },
        "settings" => {
            const USAGE: &str = "settings";
            let mut style = None;
            let mut notify = None;
            let mut remind = None;
            let mut language = None;
            let mut notation = None;
            let mut digest_hour = None;
            let mut timezone = None;
            let mut board = None;
            for a in args {
                match a.split_once('=') {
                    Some(("digest_hour" | "digest-hour", v)) => {
                        digest_hour = Some(match v.to_ascii_lowercase().as_str() {
                            "none" | "off" | "default" => None,
                            n => Some(n.trim_end_matches(['h', 'H']).parse().map_err(|_| {
                                CommandError::Usage(msg!("cmd-digest-hour", value = v))
                            })?),
                        })
                    }
                    Some(("timezone" | "tz", v)) => timezone = Some(v.to_string()),
                    Some(("style", v)) => style = Some(v.to_ascii_lowercase()),
                    Some(("notify", v)) => notify = Some(v.to_ascii_lowercase()),
                    Some(("language" | "lang", v)) => language = Some(v.to_ascii_lowercase()),
                    Some(("notation", v)) => notation = Some(v.to_ascii_lowercase()),
                    Some(("board", v)) => board = Some(v.to_ascii_lowercase()),
                    Some(("remind", v)) => {
                        remind = Some(v.trim_end_matches(['h', 'H']).parse().map_err(|_| {
                            CommandError::Usage(msg!(
                                "cmd-remind-hours",
                                value = v,
                                max = super::MAX_REMIND_HOURS
                            ))
                        })?)
                    }
                    _ => return Err(usage(USAGE)),
                }
            }
            Command::Settings {
                style,
                notify,
                remind,
                language,
                notation,
                digest_hour,
                timezone,
                board,
            }
        }
        "follow" => {
            let u = || usage("follow");
            let mut game = None;
            let mut notify = None;
            for a in args {
                match a.split_once('=') {
                    Some(("game", v)) => game = Some(parse_id(v).ok_or_else(u)?),
                    Some(("notify", v)) => notify = Some(follow_how(v)?),
                    Some(_) => return Err(u()),
                    None if game.is_none() && parse_id(a).is_some() => game = parse_id(a),
                    None if notify.is_none() && parse_id(a).is_none() => {
                        notify = Some(follow_how(a)?)
                    }
                    None => return Err(u()),
                }
            }
            if notify.is_some() && game.is_none() {
                return Err(u());
            }
            Command::Follow { game, notify }
        }
        "unfollow" => match args {
            [id] => Command::Unfollow {
                game: parse_id(id.trim_start_matches("game=")).ok_or_else(|| usage("unfollow"))?,
            },
            _ => return Err(usage("unfollow")),
        },
        "moretime" => {
            let (game, rest) = game_arg(args);
            if !rest.is_empty() {
                return Err(usage("moretime"));
            }
            Command::MoreTime { game }
        }
        "vacation" => match args {
            [] => Command::Vacation {
                days: None,
                end: false,
            },
            [w] if w.eq_ignore_ascii_case("end") || w.eq_ignore_ascii_case("stop") => {
                Command::Vacation {
                    days: None,
                    end: true,
                }
            }
            [n] => Command::Vacation {
                days: Some(
                    n.trim_end_matches('d')
                        .parse()
                        .map_err(|_| usage("vacation"))?,
                ),
                end: false,
            },
            _ => return Err(usage("vacation")),
        },
        "stats" => match args {
            [] => Command::Stats { user: None },
            [u] => Command::Stats {
                user: Some(user_arg(u)),
            },
            _ => return Err(usage("stats")),
        },
        "leaderboard" | "top" => match args {
            [v] => Command::Leaderboard {
                variant: v.to_ascii_lowercase(),
            },
            _ => return Err(usage("leaderboard")),
        },
        "server" => {
            let mut days = None;
            let mut rated = None;
            let mut channel = None;
            let mut language = None;
            let mut leagues = None;
            let mut feature = None;
            let u = "server";
            for a in args {
                let low = a.to_ascii_lowercase();
                match low.split_once('=') {
                    Some(("days", n)) => days = Some(n.parse().map_err(|_| usage(u))?),
                    Some(("channel", c)) => {
                        channel = Some(
                            c.trim_start_matches("<#")
                                .trim_start_matches('#')
                                .trim_end_matches('>')
                                .to_string(),
                        )
                    }
                    Some(("language" | "lang", l)) => language = Some(l.to_string()),
                    Some(("feature", v)) => {
                        feature = Some(match v {
                            "none" | "off" | "0" => 0,
                            n => parse_id(n).ok_or_else(|| usage(u))?,
                        })
                    }
                    Some(("leagues", v)) => {
                        leagues = Some(match v {
                            "on" | "yes" | "true" => true,
                            "off" | "no" | "false" => false,
                            _ => return Err(usage(u)),
                        })
                    }
                    None if low == "rated" => rated = Some(true),
                    None if low == "casual" => rated = Some(false),
                    _ => return Err(usage(u)),
                }
            }
            Command::Server {
                days,
                rated,
                channel,
                language,
                leagues,
                feature,
            }
        }
        "league" | "leagues" => parse_league(line)?,
        "conditional" | "cond" => parse_conditional(line)?,
        "help" | "?" => Command::Help {
            topic: (!args.is_empty()).then(|| args.join(" ").to_lowercase()),
            form: super::catalog::Form::Typed,
        },
        other => return Err(CommandError::Unknown(other.to_string())),
    })
}

/// Splits a line into words, a double-quoted part being one word (`name="Spring Cup"`).
fn quoted_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '"' | '“' | '”' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// `conditional add [GAME] "MOVES"`, `conditional list [GAME]`, `conditional clear [GAME]`
/// (also `game=N`, `line="…"`). The line may be quoted or not: the words after the game.
fn parse_conditional(line: &str) -> Result<Command, CommandError> {
    let words = quoted_words(line);
    let u = || usage("conditional");
    let sub = words.get(1).map(|w| w.to_ascii_lowercase()).ok_or_else(u)?;
    let mut game = None;
    let mut moves = Vec::new();
    for (i, w) in words.iter().enumerate().skip(2) {
        match w.split_once('=') {
            Some((k, v)) if k.eq_ignore_ascii_case("game") => {
                game = Some(parse_id(v).ok_or_else(u)?);
            }
            Some((k, v)) if k.eq_ignore_ascii_case("line") => moves.push(v.to_string()),
            _ if i == 2 && game.is_none() && parse_id(w).is_some() => game = parse_id(w),
            _ => moves.push(w.clone()),
        }
    }
    Ok(Command::Conditional(match sub.as_str() {
        "add" => {
            if moves.is_empty() {
                return Err(u());
            }
            ConditionalCommand::Add {
                game,
                line: moves.join(" "),
            }
        }
        "list" | "show" if moves.is_empty() => ConditionalCommand::List { game },
        "clear" | "delete" if moves.is_empty() => ConditionalCommand::Clear { game },
        _ => return Err(u()),
    }))
}

/// `league SUB key=value …`: the sub-command and its options, as the slash command has them
/// (`league create name=Spring game=shogi days=3 format=swiss rounds=3`, `league join league=1`).
/// A bare number is the league (`league join 1`), a bare `rated`/`casual` the kind.
fn parse_league(line: &str) -> Result<Command, CommandError> {
    let words = quoted_words(line);
    let u = || usage("league");
    let sub = words.get(1).map(|w| w.to_ascii_lowercase()).ok_or_else(u)?;
    let mut args = LeagueArgs::default();
    let mut league = None;
    let mut round = None;
    let mut user = None;
    let number = |k: &str, v: &str| -> Result<u32, CommandError> {
        v.trim_start_matches('#').parse().map_err(|_| {
            CommandError::Usage(msg!(
                "cmd-league-number",
                key = k.to_string(),
                value = v.to_string()
            ))
        })
    };
    let signed = |k: &str, v: &str| -> Result<i64, CommandError> {
        v.parse().map_err(|_| {
            CommandError::Usage(msg!(
                "cmd-league-number",
                key = k.to_string(),
                value = v.to_string()
            ))
        })
    };
    for w in &words[2..] {
        match w.split_once('=') {
            Some((k, v)) => match k.to_ascii_lowercase().as_str() {
                "name" => args.name = v.to_string(),
                "game" | "variant" => args.variant = v.to_ascii_lowercase(),
                "days" => args.days = Some(number(k, v)?),
                "clock" | "increment" | "cap" | "period" => {
                    clock_option(&mut args.clock, &k.to_ascii_lowercase(), v)?
                }
                "format" => args.format = v.to_ascii_lowercase(),
                "rounds" => args.rounds = Some(number(k, v)?),
                "rated" => {
                    args.rated = Some(match v.to_ascii_lowercase().as_str() {
                        "true" | "yes" | "on" | "1" | "rated" => true,
                        "false" | "no" | "off" | "0" | "casual" => false,
                        _ => return Err(u()),
                    })
                }
                "start" => args.start = Some(v.to_ascii_lowercase()),
                "round_days" | "round-days" => args.round_days = Some(number(k, v)?),
                "max_players" | "max-players" | "max" => args.max_players = Some(number(k, v)?),
                "rating_min" | "rating-min" | "min_rating" => args.rating_min = Some(signed(k, v)?),
                "rating_max" | "rating-max" | "max_rating" => args.rating_max = Some(signed(k, v)?),
                "league" | "id" => league = Some(i64::from(number(k, v)?)),
                "round" => round = Some(number(k, v)?),
                "user" | "player" => user = Some(user_arg(v)),
                _ => return Err(u()),
            },
            None => {
                let low = w.to_ascii_lowercase();
                match low.as_str() {
                    "rated" => args.rated = Some(true),
                    "casual" | "unrated" => args.rated = Some(false),
                    _ if parse_id(w).is_some() && league.is_none() => league = parse_id(w),
                    _ if parse_mention(w).is_some() && user.is_none() => user = Some(user_arg(w)),
                    _ => return Err(u()),
                }
            }
        }
    }
    let league_id = |sub: &str| league.ok_or_else(|| usage(sub));
    Ok(Command::League(match sub.as_str() {
        "create" | "new" => {
            if args.name.is_empty() || args.variant.is_empty() || args.format.is_empty() {
                return Err(usage("league create"));
            }
            LeagueCommand::Create(args)
        }
        "join" => LeagueCommand::Join {
            league: league_id("league join")?,
        },
        "leave" | "withdraw" => LeagueCommand::Leave {
            league: league_id("league leave")?,
        },
        "start" => LeagueCommand::Start {
            league: league_id("league start")?,
        },
        "cancel" => LeagueCommand::Cancel {
            league: league_id("league cancel")?,
        },
        "list" => LeagueCommand::List,
        "show" | "standings" => LeagueCommand::Show {
            league: league_id("league show")?,
        },
        "pairings" => LeagueCommand::Pairings {
            league: league_id("league pairings")?,
            round,
        },
        "kick" | "remove" => LeagueCommand::Kick {
            league: league_id("league kick")?,
            user: user.ok_or_else(|| usage("league kick"))?,
        },
        _ => return Err(u()),
    }))
}

/// A way of being told of a followed game: `thread`, `digest` or `ping`.
fn follow_how(word: &str) -> Result<super::FollowHow, CommandError> {
    super::FollowHow::parse(word)
        .ok_or_else(|| CommandError::Usage(msg!("follow-bad-notify", value = word)))
}

/// A user named in a command line: a mention, or a bare name.
fn user_arg(s: &str) -> UserRef {
    UserRef::id_only(parse_mention(s).unwrap_or_else(|| s.to_string()))
}

const CHALLENGE_USAGE: &str = "challenge";

fn parse_challenge(args: &[&str]) -> Result<Command, CommandError> {
    let [who, variant, rest @ ..] = args else {
        return Err(usage(CHALLENGE_USAGE));
    };
    let opponent = if who.eq_ignore_ascii_case("open") || *who == "*" {
        None
    } else {
        Some(parse_mention(who).map(UserRef::id_only).ok_or_else(|| {
            CommandError::Usage(msg!(
                "cmd-not-a-player",
                word = *who,
                usage = super::catalog::usage_arg(CHALLENGE_USAGE)
            ))
        })?)
    };
    let mut cmd_color = ColorChoice::Random;
    let mut days = None;
    let mut handicap = None;
    let mut setup = None;
    let mut rated = None;
    let mut level = None;
    let mut clock = ClockArgs::default();
    for a in rest {
        let low = a.to_ascii_lowercase();
        match low.split_once('=') {
            Some(("days", n)) => {
                days = Some(
                    n.parse()
                        .map_err(|_| CommandError::Usage(msg!("cmd-days-number", value = n)))?,
                )
            }
            Some((k @ ("clock" | "increment" | "cap" | "period"), v)) => {
                clock_option(&mut clock, k, v)?
            }
            Some(("handicap", h)) => handicap = Some(h.to_string()),
            Some(("level", n)) => {
                level = Some(
                    n.parse()
                        .map_err(|_| CommandError::Usage(msg!("cmd-level-number", value = n)))?,
                )
            }
            Some(("setup", s)) => setup = Some(s.to_string()),
            Some(_) => return Err(usage(CHALLENGE_USAGE)),
            None => match low.as_str() {
                "black" | "red" | "first" | "sente" => cmd_color = ColorChoice::First,
                "white" | "blue" | "second" | "gote" => cmd_color = ColorChoice::Second,
                "random" => cmd_color = ColorChoice::Random,
                "rated" => rated = Some(true),
                "casual" | "unrated" => rated = Some(false),
                _ => return Err(usage(CHALLENGE_USAGE)),
            },
        }
    }
    Ok(Command::Challenge {
        opponent,
        variant: variant.to_ascii_lowercase(),
        color: cmd_color,
        days,
        handicap,
        setup,
        rated,
        level,
        clock,
    })
}

/// Reads one clock option of a command line (`clock=byoyomi`, `increment=1`, `cap=7`,
/// `period=1`) into `clock`.
fn clock_option(clock: &mut ClockArgs, key: &str, value: &str) -> Result<(), CommandError> {
    let days = || {
        value.parse::<u32>().map_err(|_| {
            CommandError::Usage(msg!(
                "cmd-league-number",
                key = key.to_string(),
                value = value.to_string()
            ))
        })
    };
    match key {
        "clock" => clock.kind = Some(value.to_ascii_lowercase()),
        "increment" => clock.increment = Some(days()?),
        "cap" => clock.cap = Some(days()?),
        _ => clock.period = Some(days()?),
    }
    Ok(())
}

/// The side a `board` setting keeps at the bottom: `Some(Some("black"))`, `Some(Some("white"))`
/// (`red`, `first` are black; `blue`, `second` white), `Some(None)` for the side to move
/// (`turn`, `default`); `None` for a word that is none of these.
pub fn board_side(value: &str) -> Option<Option<&'static str>> {
    match value.trim().to_ascii_lowercase().as_str() {
        "black" | "red" | "first" | "sente" => Some(Some("black")),
        "white" | "blue" | "second" | "gote" => Some(Some("white")),
        "turn" | "default" | "auto" | "mover" => Some(None),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn league_commands_are_read_with_their_options() {
        let c = parse(
            r#"league create name="Spring Cup" game=shogi days=3 format=swiss rounds=3 rated"#,
        )
        .unwrap();
        let Command::League(LeagueCommand::Create(a)) = c else {
            panic!("{c:?}");
        };
        assert_eq!(a.name, "Spring Cup");
        assert_eq!(a.variant, "shogi");
        assert_eq!((a.days, a.rounds, a.rated), (Some(3), Some(3), Some(true)));
        assert_eq!(a.format, "swiss");
        assert_eq!(
            parse("league join league=1").unwrap(),
            Command::League(LeagueCommand::Join { league: 1 })
        );
        assert_eq!(
            parse("league join #4").unwrap(),
            Command::League(LeagueCommand::Join { league: 4 })
        );
        assert_eq!(
            parse("league pairings league=2 round=3").unwrap(),
            Command::League(LeagueCommand::Pairings {
                league: 2,
                round: Some(3)
            })
        );
        assert_eq!(
            parse("league list").unwrap(),
            Command::League(LeagueCommand::List)
        );
        let Command::League(LeagueCommand::Kick { league, user }) =
            parse("league kick league=1 user=@bob").unwrap()
        else {
            panic!("kick");
        };
        assert_eq!((league, user.id.as_str()), (1, "bob"));
        // Refused, saying how: no league, a missing option, a word that is no number.
        assert!(parse("league join").is_err());
        assert!(parse("league create name=X game=shogi").is_err());
        assert!(parse("league create name=X game=shogi format=swiss rounds=many").is_err());
        assert!(parse("league fly league=1").is_err());
    }

    #[test]
    fn challenge_with_all_options_is_read() {
        let c = parse("challenge @bob palace black days=5 handicap=rook rated").unwrap();
        assert_eq!(
            c,
            Command::Challenge {
                opponent: Some(UserRef::id_only("bob")),
                variant: "palace".into(),
                color: ColorChoice::First,
                days: Some(5),
                handicap: Some("rook".into()),
                setup: None,
                rated: Some(true),
                level: None,
                clock: ClockArgs::default(),
            }
        );
        let c = parse("challenge @bob shogi days=3 clock=Increment increment=1 cap=7").unwrap();
        let Command::Challenge { clock, .. } = c else {
            panic!("challenge");
        };
        assert_eq!(
            clock,
            ClockArgs {
                kind: Some("increment".into()),
                increment: Some(1),
                cap: Some(7),
                period: None
            }
        );
        assert!(parse("challenge @bob shogi period=soon").is_err());
        let c =
            parse("league create name=X game=shogi format=swiss clock=byoyomi period=2").unwrap();
        let Command::League(LeagueCommand::Create(args)) = c else {
            panic!("league");
        };
        assert_eq!(args.clock.period, Some(2));
        let c = parse("challenge @tegami judkins level=2").unwrap();
        assert!(matches!(c, Command::Challenge { level: Some(2), .. }));
        assert!(parse("challenge @tegami judkins level=hard").is_err());
        assert_eq!(
            parse("analysis 12").unwrap(),
            Command::Analysis { game: 12 }
        );
    }

    #[test]
    fn move_takes_an_optional_game_id_and_leading_slash_or_bang() {
        assert_eq!(
            parse("/move 7g7f").unwrap(),
            Command::Move {
                game: None,
                text: "7g7f".into(),
                seen_ply: None
            }
        );
        assert_eq!(
            parse("!move 12 P-7f").unwrap(),
            Command::Move {
                game: Some(12),
                text: "P-7f".into(),
                seen_ply: None
            }
        );
    }

    #[test]
    fn unknown_and_malformed_commands_say_so() {
        assert!(matches!(parse("dance"), Err(CommandError::Unknown(_))));
        assert!(matches!(parse("challenge"), Err(CommandError::Usage(_))));
        assert!(matches!(
            parse("challenge bob shogi"),
            Err(CommandError::Usage(_))
        ));
        assert!(matches!(parse("export x"), Err(CommandError::Usage(_))));
        assert!(matches!(parse("draw 3 maybe"), Err(CommandError::Usage(_))));
    }

    #[test]
    fn follow_unfollow_and_digest_settings_are_read() {
        assert_eq!(
            parse("follow 12").unwrap(),
            Command::Follow {
                game: Some(12),
                notify: None
            }
        );
        assert_eq!(
            parse("follow #12 digest").unwrap(),
            Command::Follow {
                game: Some(12),
                notify: Some(crate::service::FollowHow::Digest)
            }
        );
        assert_eq!(
            parse("follow game=12 notify=PING").unwrap(),
            Command::Follow {
                game: Some(12),
                notify: Some(crate::service::FollowHow::Ping)
            }
        );
        assert_eq!(
            parse("follow").unwrap(),
            Command::Follow {
                game: None,
                notify: None
            }
        );
        assert_eq!(
            parse("unfollow 12").unwrap(),
            Command::Unfollow { game: 12 }
        );
        for bad in [
            "follow digest",
            "follow 1 2",
            "follow x=1",
            "follow 1 shout",
            "unfollow",
            "unfollow x",
        ] {
            assert!(matches!(parse(bad), Err(CommandError::Usage(_))), "{bad}");
        }
        let Command::Settings {
            digest_hour,
            timezone,
            ..
        } = parse("settings digest_hour=8 timezone=Asia/Tokyo").unwrap()
        else {
            panic!("settings");
        };
        assert_eq!(
            (digest_hour, timezone.as_deref()),
            (Some(Some(8)), Some("Asia/Tokyo"))
        );
        let Command::Settings { digest_hour, .. } = parse("settings digest_hour=none").unwrap()
        else {
            panic!("settings");
        };
        assert_eq!(digest_hour, Some(None));
        assert!(parse("settings digest_hour=eight").is_err());
    }

    #[test]
    fn discord_mentions_are_read() {
        assert_eq!(parse_mention("<@!1234>"), Some("1234".into()));
        assert_eq!(parse_mention("<@1234>"), Some("1234".into()));
        assert_eq!(parse_mention("@alice"), Some("alice".into()));
        assert_eq!(parse_mention("alice"), None);
    }

    #[test]
    fn a_move_typed_in_parts_after_a_game_number_is_not_read_as_one_code() {
        let m = |line: &str| match parse(line) {
            Ok(Command::Move { game, text, .. }) => (game, text),
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(m("move 1 4a 3b"), (Some(1), "4a3b".to_string()));
        assert_eq!(m("move 12 P-7f"), (Some(12), "P-7f".to_string()));
        assert_eq!(m("move 7g 7f"), (None, "7g7f".to_string()));
        assert_eq!(m("move 76 歩"), (None, "76歩".to_string()));
    }
}
