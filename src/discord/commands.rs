//! The commands, one poise definition each serving both the slash command and the prefix
//! command (`!move 7g7f`). Names and options are a contract (tests outside this repository rely
//! on them): see the bot's issue and the book's reference, `docs/src/reference/commands.md`
//! (`tegami commands --markdown`, made from these definitions).
//!
//! Each command turns its options into the core's `Command` and hands it to `respond`. Choices
//! are registered as string choices (poise's own choice types register integers).
//!
//! Every command, option and choice carries its Japanese name and description
//! (`name_localizations`, `description_localizations`) from `locales/ja/commands.ftl`: ids
//! `cmd-COMMAND`, `cmd-COMMAND-OPTION` (each with a `.description`) and `choice-OPTION-VALUE`
//! (a choice has a label only). The base names stay English: interactions always carry them.

use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CreateAutocompleteResponse, CreateCommandOption};

use super::respond::{self, display_name, nickname, Origin};
use super::{Ctx, Data, Error};
use crate::i18n::{self, Lang, Msg};
use crate::msg;
use crate::service::{
    ClockArgs, ColorChoice, Command, ConditionalCommand, LeagueArgs, LeagueCommand, OfferAction,
};

/// Every command of the bot, with its string choices set.
pub fn all() -> Vec<poise::Command<Data, Error>> {
    let mut cmds = vec![
        challenge(),
        accept(),
        decline(),
        cancel(),
        move_(),
        moves(),
        board(),
        resign(),
        declare(),
        moretime(),
        draw(),
        takeback(),
        impasse(),
        games(),
        history(),
        stats(),
        record(),
        analysis(),
        replay(),
        export(),
        rules(),
        leaderboard(),
        settings(),
        vacation(),
        server(),
        help(),
        league(),
        conditional(),
        follow(),
        unfollow(),
    ];
    // Sub-commands are named `league create` from here on (poise fills this in again later).
    poise::set_qualified_names(&mut cmds);
    for c in &mut cmds {
        set_choices(c);
        localize(c);
    }
    cmds
}

/// Registers the string choices of a command's options (and of its sub-commands'): an option
/// has the choices the command table (`service::catalog`) gives it.
fn set_choices(c: &mut poise::Command<Data, Error>) {
    for s in &mut c.subcommands {
        set_choices(s);
    }
    let Some(entry) = catalog::find(&c.qualified_name) else {
        return;
    };
    for p in &mut c.parameters {
        let list = entry
            .options_in(catalog::Form::Slash)
            .find(|o| o.name == p.name)
            .and_then(|o| match o.value {
                catalog::Value::Choice(list) | catalog::Value::Named(_, list) => Some(list),
                _ => None,
            });
        if let Some(setter) = list.and_then(choice_setter) {
            p.type_setter = Some(setter);
        }
    }
}

/// The function that registers a list of choices (a plain function pointer, as poise takes
/// it: one a list, with the option's name that labels its choices, `choice-OPTION-VALUE`).
fn choice_setter(
    list: &'static [&'static str],
) -> Option<fn(CreateCommandOption) -> CreateCommandOption> {
    type Setter = fn(CreateCommandOption) -> CreateCommandOption;
    let setters: [(&[&str], Setter); 13] = [
        (GAMES, |b| choices(b, "game", GAMES)),
        (LEAGUE_FORMATS, |b| choices(b, "format", LEAGUE_FORMATS)),
        (LEAGUE_STARTS, |b| choices(b, "start", LEAGUE_STARTS)),
        (CLOCKS, |b| choices(b, "clock", CLOCKS)),
        (COLORS, |b| choices(b, "color", COLORS)),
        (STYLES, |b| choices(b, "style", STYLES)),
        (ACTIONS, |b| choices(b, "action", ACTIONS)),
        (FORMATS, |b| choices(b, "format", FORMATS)),
        (NOTIFY, |b| choices(b, "notify", NOTIFY)),
        (FOLLOW_NOTIFY, |b| choices(b, "notify", FOLLOW_NOTIFY)),
        (LANGUAGES, |b| choices(b, "language", LANGUAGES)),
        (NOTATIONS, |b| choices(b, "notation", NOTATIONS)),
        (BOARD_SIDES, |b| choices(b, "board", BOARD_SIDES)),
    ];
    setters
        .into_iter()
        .find(|(l, _)| *l == list)
        .map(|(_, setter)| setter)
}

/// The languages whose clients see the commands in their own words, with Discord's locale for
/// each (English is the base).
const LOCALIZED: &[(Lang, &str)] = &[(Lang::Ja, "ja")];

/// Message `id` of `commands.ftl` in `lang` (its value, or its `.description`), if the file
/// has it. A missing one is left out: Discord then shows the English.
fn command_text(lang: Lang, id: &str, description: bool) -> Option<String> {
    if !i18n::has(lang, id) {
        return None;
    }
    if description {
        i18n::attr(lang, id, "description")
    } else {
        Some(i18n::tr(lang, id, None))
    }
}

/// Sets the localised names and descriptions of a command and its options (a sub-command's:
/// `cmd-COMMAND-SUB`, its options `cmd-COMMAND-SUB-OPTION`).
fn localize(c: &mut poise::Command<Data, Error>) {
    for s in &mut c.subcommands {
        localize(s);
    }
    let key = c.qualified_name.replace(' ', "-");
    for &(lang, locale) in LOCALIZED {
        let id = format!("cmd-{key}");
        if let Some(n) = command_text(lang, &id, false) {
            c.name_localizations
                .to_mut()
                .push((locale.into(), n.into()));
        }
        if let Some(d) = command_text(lang, &id, true) {
            c.description_localizations
                .to_mut()
                .push((locale.into(), d.into()));
        }
        for p in &mut c.parameters {
            let id = format!("cmd-{key}-{}", p.name);
            if let Some(n) = command_text(lang, &id, false) {
                p.name_localizations
                    .to_mut()
                    .push((locale.into(), n.into()));
            }
            if let Some(d) = command_text(lang, &id, true) {
                p.description_localizations
                    .to_mut()
                    .push((locale.into(), d.into()));
            }
        }
    }
}

use crate::service::catalog::{
    self, ACTIONS, BOARD_SIDES, CLOCKS, COLORS, FORMATS, GAMES, LANGUAGES, LEAGUE_FORMATS,
    LEAGUE_STARTS, NOTATIONS, NOTIFY, STYLES,
};
const FOLLOW_NOTIFY: &[&str] = crate::service::FOLLOW_NOTIFY;

/// String choices of `option`, each labelled in the localised languages by
/// `choice-OPTION-VALUE`. (Called from a `type_setter`, a plain function pointer: the labels
/// are read from the embedded message files, not captured.)
fn choices(b: CreateCommandOption, option: &str, names: &[&str]) -> CreateCommandOption {
    let mut b = b.kind(serenity::CommandOptionType::String);
    for n in names {
        let id = format!("choice-{option}-{n}");
        let labels: Vec<(&str, String)> = LOCALIZED
            .iter()
            .filter_map(|&(lang, locale)| Some((locale, command_text(lang, &id, false)?)))
            .collect();
        b = b.add_string_choice_localized(*n, *n, labels);
    }
    b
}

/// A lower-cased choice, checked against its list.
fn pick(value: Option<String>, names: &[&str], what: &str) -> Result<Option<String>, Msg> {
    match value {
        None => Ok(None),
        Some(v) => {
            let v = v.trim().to_ascii_lowercase();
            if names.contains(&v.as_str()) {
                Ok(Some(v))
            } else {
                Err(msg!(
                    "discord-not-one-of",
                    what = what,
                    value = v,
                    choices = names.join(", ")
                ))
            }
        }
    }
}

/// Runs a core command, or answers a refusal of the options (in the sender's language).
async fn run(ctx: Ctx<'_>, command: Result<Command, Msg>) -> Result<(), Error> {
    let origin = Origin::of(ctx);
    let http = ctx.serenity_context().http.clone();
    let command = match command {
        Ok(c) => Ok(c),
        Err(m) => Err(m.render(respond::sender_lang(ctx.data(), &origin).await)),
    };
    match ctx {
        poise::Context::Application(a) => match command {
            Ok(c) => {
                respond::interaction(
                    &http,
                    ctx.data(),
                    a.interaction.id,
                    &a.interaction.token,
                    origin,
                    c,
                )
                .await
            }
            Err(e) => {
                respond::quick_ephemeral(
                    &http,
                    a.interaction.id,
                    &a.interaction.token,
                    &format!("✗ {e}"),
                )
                .await
            }
        },
        poise::Context::Prefix(p) => match command {
            Ok(c) => respond::message(&http, ctx.data(), p.msg.id, origin, c).await,
            Err(e) => {
                respond::refuse(
                    &http,
                    &respond::Target::Message {
                        channel: p.msg.channel_id,
                        message: p.msg.id,
                    },
                    &e,
                )
                .await
            }
        },
    }
    Ok(())
}

/// A user named in a command's options: their global display name, and their nickname in this
/// server when the interaction resolved them as a member here.
fn named_user(ctx: Ctx<'_>, user: &serenity::User) -> crate::service::UserRef {
    let named = crate::service::UserRef::named(user.id.to_string(), display_name(user));
    match ctx {
        poise::Context::Application(a) => match a.interaction.data.resolved.members.get(&user.id) {
            Some(m) => named.with_nick(nickname(m.nick.as_deref())),
            None => named,
        },
        poise::Context::Prefix(_) => named,
    }
}

/// Challenge someone to a game.
#[allow(clippy::too_many_arguments)] // one per option of /challenge
#[poise::command(slash_command, prefix_command, guild_only)]
pub async fn challenge(
    ctx: Ctx<'_>,
    #[description = "Who to play"] opponent: serenity::User,
    #[description = "Which game (default shogi)"] game: Option<String>,
    #[description = "Your side: black (moves first), white or random; red/blue in Shanghai"]
    color: Option<String>,
    #[description = "Days per move (1, 2, 3, 5, 7, 10 or 14), or the starting bank of another clock"]
    days: Option<i64>,
    #[description = "Rated (Glicko-2) or casual"] rated: Option<bool>,
    #[description = "A handicap: lance, bishop, rook, rook-lance, two, four, six"] handicap: Option<
        String,
    >,
    #[description = "A named setup (Shanghai: original or smith)"] setup: Option<String>,
    #[description = "When you challenge Tegami itself: its strength, 1 (beginner) to 5"]
    #[min = 1]
    #[max = 5]
    level: Option<i64>,
    #[description = "The clock: per-move (the default), increment or byoyomi"] clock: Option<
        String,
    >,
    #[description = "Increment clock: days added to your bank after each move (default 1)"]
    #[min = 1]
    #[max = 7]
    increment: Option<i64>,
    #[description = "Increment clock: the most days a bank may hold (default 7, or the bank)"]
    #[min = 1]
    #[max = 60]
    cap: Option<i64>,
    #[description = "Byoyomi: days for each move once the bank is spent (default 1)"]
    #[min = 1]
    #[max = 14]
    period: Option<i64>,
) -> Result<(), Error> {
    let me = ctx.framework().bot_id();
    let command = (|| {
        if opponent.bot && opponent.id != me {
            return Err(msg!("discord-bots-do-not-play"));
        }
        let level = match level {
            None => None,
            Some(l) => Some(
                u8::try_from(l)
                    .ok()
                    .filter(|l| (1..=5).contains(l))
                    .ok_or_else(|| msg!("discord-bad-level", level = l.to_string()))?,
            ),
        };
        let game = pick(game, GAMES, "game")?.unwrap_or_else(|| "shogi".into());
        let color = match pick(color, COLORS, "color")?.as_deref() {
            None | Some("random") => ColorChoice::Random,
            Some(c @ ("red" | "blue")) if game != "shanghai" => {
                return Err(msg!("discord-red-blue-not-here", color = c))
            }
            Some(c @ ("black" | "white")) if game == "shanghai" => {
                return Err(msg!("discord-black-white-not-shanghai", color = c))
            }
            Some("black" | "red") => ColorChoice::First,
            Some(_) => ColorChoice::Second,
        };
        let days = match days {
            None => None,
            Some(d) => {
                Some(u32::try_from(d).map_err(|_| msg!("discord-bad-days", days = d.to_string()))?)
            }
        };
        Ok(Command::Challenge {
            opponent: Some(named_user(ctx, &opponent)),
            variant: game,
            color,
            days,
            handicap: handicap.map(|h| h.trim().to_ascii_lowercase()),
            setup: setup.map(|s| s.trim().to_ascii_lowercase()),
            rated,
            level,
            clock: clock_args(clock, increment, cap, period)?,
        })
    })();
    run(ctx, command).await
}

/// Accept a challenge.
#[poise::command(slash_command, prefix_command)]
pub async fn accept(
    ctx: Ctx<'_>,
    #[description = "The challenge's number (needed only when you have several)"] challenge: Option<
        i64,
    >,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Accept { challenge })).await
}

/// Decline a challenge.
#[poise::command(slash_command, prefix_command)]
pub async fn decline(
    ctx: Ctx<'_>,
    #[description = "The challenge's number (needed only when you have several)"] challenge: Option<
        i64,
    >,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Decline { challenge })).await
}

/// Withdraw your challenge.
#[poise::command(slash_command, prefix_command)]
pub async fn cancel(
    ctx: Ctx<'_>,
    #[description = "The challenge's number (needed only when you have several)"] challenge: Option<
        i64,
    >,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Cancel { challenge })).await
}

/// Suggests the legal moves of the caller's game as they type.
async fn suggest_moves(ctx: Ctx<'_>, partial: &str) -> CreateAutocompleteResponse {
    let origin = Origin::of(ctx);
    let service = ctx.data().service.clone();
    let typed = partial.to_string();
    // The `game` option, when the player filled it in before the move.
    let game = match ctx {
        poise::Context::Application(a) => a
            .interaction
            .data
            .options
            .iter()
            .find(|o| o.name == "game")
            .and_then(|o| o.value.as_i64()),
        poise::Context::Prefix(_) => None,
    };
    let req = origin.request(Command::Games { user: None });
    // The labels in the notation the player chose (`/settings notation`): the core's choice.
    let list = tokio::task::spawn_blocking(move || {
        service.suggest_moves(&req.user, &req.place, game, &typed, 25)
    })
    .await
    .unwrap_or_default();
    CreateAutocompleteResponse::new().set_choices(
        list.into_iter()
            .map(|s| AutocompleteChoice::new(s.label, s.value))
            .collect(),
    )
}

/// Play a move (P-7f, 7g7f, Nf3 ...).
#[poise::command(slash_command, prefix_command, rename = "move")]
pub async fn move_(
    ctx: Ctx<'_>,
    #[description = "Your move, e.g. P-7f or 7g7f (Shanghai: e4, Nf3)"]
    #[autocomplete = "suggest_moves"]
    #[rename = "move"]
    mv: Option<String>,
    #[description = "The game's number (needed only when you play several)"] game: Option<i64>,
) -> Result<(), Error> {
    let text: String = mv.as_deref().unwrap_or("").split_whitespace().collect();
    let slash = matches!(ctx, poise::Context::Application(_));
    let command = match (text.is_empty(), slash) {
        // Without a move, the slash command opens the move picker (only its sender sees it).
        (true, true) => Ok(Command::Pick {
            game,
            path: Vec::new(),
            page: 0,
            seen_ply: None,
        }),
        (true, false) => Err(msg!("discord-write-a-move")),
        (false, _) => Ok(Command::Move {
            game,
            text,
            seen_ply: None,
        }),
    };
    run(ctx, command).await
}

/// The legal moves in your game (of one piece, with a square).
#[poise::command(slash_command, prefix_command)]
pub async fn moves(
    ctx: Ctx<'_>,
    #[description = "Only the moves of the piece on this square (e.g. 7g)"] square: Option<String>,
    #[description = "The game's number"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Moves { game, square })).await
}

/// The board of a game (now, or after a given move).
#[poise::command(slash_command, prefix_command)]
pub async fn board(
    ctx: Ctx<'_>,
    #[description = "The game's number"] game: Option<i64>,
    #[description = "Show the position after this many moves (plies)"] ply: Option<i64>,
    #[description = "Pieces as kanji or international letters"] style: Option<String>,
) -> Result<(), Error> {
    let command = (|| {
        let style = pick(style, STYLES, "style")?;
        let ply = match ply {
            None => None,
            Some(p) => {
                Some(u32::try_from(p).map_err(|_| msg!("discord-bad-ply", ply = p.to_string()))?)
            }
        };
        Ok(Command::Board { game, ply, style })
    })();
    run(ctx, command).await
}

/// Resign a game (asks you to confirm).
#[poise::command(slash_command, prefix_command)]
pub async fn resign(
    ctx: Ctx<'_>,
    #[description = "The game's number"] game: Option<i64>,
) -> Result<(), Error> {
    let origin = Origin::of(ctx);
    let http = ctx.serenity_context().http.clone();
    match ctx {
        poise::Context::Application(a) => {
            respond::confirm_resign_interaction(
                &http,
                ctx.data(),
                a.interaction.id,
                &a.interaction.token,
                origin,
                game,
            )
            .await
        }
        poise::Context::Prefix(p) => {
            respond::confirm_resign_message(&http, ctx.data(), p.msg.id, origin, game).await
        }
    }
    Ok(())
}

/// Shogi: declare the entering king on your turn (27-point rule)
#[poise::command(slash_command, prefix_command)]
pub async fn declare(
    ctx: Ctx<'_>,
    #[description = "The game's number"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Declare { game })).await
}

/// Give your opponent one more day for their move.
#[poise::command(slash_command, prefix_command)]
pub async fn moretime(
    ctx: Ctx<'_>,
    #[description = "The game's number"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, Ok(Command::MoreTime { game })).await
}

fn action(a: Option<String>) -> Result<OfferAction, Msg> {
    Ok(match pick(a, ACTIONS, "action")?.as_deref() {
        None => OfferAction::Auto,
        Some("offer") => OfferAction::Offer,
        Some("accept") => OfferAction::Accept,
        Some(_) => OfferAction::Decline,
    })
}

/// Offer, accept or decline a draw.
#[poise::command(slash_command, prefix_command)]
pub async fn draw(
    ctx: Ctx<'_>,
    #[description = "offer, accept or decline"] action: Option<String>,
    #[description = "The game's number"] game: Option<i64>,
) -> Result<(), Error> {
    let command = self::action(action).map(|action| Command::Draw { game, action });
    run(ctx, command).await
}

/// Ask to take back your last move, or answer.
#[poise::command(slash_command, prefix_command)]
pub async fn takeback(
    ctx: Ctx<'_>,
    #[description = "offer, accept or decline"] action: Option<String>,
    #[description = "The game's number"] game: Option<i64>,
) -> Result<(), Error> {
    let command = self::action(action).map(|action| Command::Takeback { game, action });
    run(ctx, command).await
}

/// Propose impasse (jishogi) by points, or answer.
#[poise::command(slash_command, prefix_command)]
pub async fn impasse(
    ctx: Ctx<'_>,
    #[description = "offer, accept or decline"] action: Option<String>,
    #[description = "The game's number"] game: Option<i64>,
) -> Result<(), Error> {
    let command = self::action(action).map(|action| Command::Impasse { game, action });
    run(ctx, command).await
}

/// Games in progress and open challenges.
#[poise::command(slash_command, prefix_command)]
pub async fn games(
    ctx: Ctx<'_>,
    #[description = "Someone else's games"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let user = user.map(|u| named_user(ctx, &u));
    run(ctx, Ok(Command::Games { user })).await
}

/// Finished games.
#[poise::command(slash_command, prefix_command)]
pub async fn history(
    ctx: Ctx<'_>,
    #[description = "Someone else's history"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let user = user.map(|u| named_user(ctx, &u));
    run(ctx, Ok(Command::History { user })).await
}

/// Ratings and results.
#[poise::command(slash_command, prefix_command)]
pub async fn stats(
    ctx: Ctx<'_>,
    #[description = "Someone else's stats"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let user = user.map(|u| named_user(ctx, &u));
    run(ctx, Ok(Command::Stats { user })).await
}

/// A game's record, move by move.
#[poise::command(slash_command, prefix_command)]
pub async fn record(
    ctx: Ctx<'_>,
    #[description = "The game's number"] game: i64,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Record { game })).await
}

/// A finished game's evaluation chart.
#[poise::command(slash_command, prefix_command)]
pub async fn analysis(
    ctx: Ctx<'_>,
    #[description = "The finished game's number"] game: i64,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Analysis { game })).await
}

/// A game as an animated picture.
#[poise::command(slash_command, prefix_command)]
pub async fn replay(
    ctx: Ctx<'_>,
    #[description = "The game's number"] game: i64,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Replay { game })).await
}

/// A game for other software (SFEN, KIF, CSA, FEN).
#[poise::command(slash_command, prefix_command)]
pub async fn export(
    ctx: Ctx<'_>,
    #[description = "The game's number"] game: i64,
    #[description = "sfen (default), kif, csa or fen"] format: Option<String>,
) -> Result<(), Error> {
    let command = pick(format, FORMATS, "format").map(|f| Command::Export {
        game,
        format: f.unwrap_or_else(|| "sfen".into()),
    });
    run(ctx, command).await
}

/// How to play a game, or how one piece moves.
#[poise::command(slash_command, prefix_command)]
pub async fn rules(
    ctx: Ctx<'_>,
    #[description = "Which game"] game: String,
    #[description = "A piece, by letter or name (S, +R, Ln, lion)"] piece: Option<String>,
) -> Result<(), Error> {
    let command = pick(Some(game), GAMES, "game").map(|g| Command::Rules {
        variant: g.unwrap_or_default(),
        piece,
    });
    run(ctx, command).await
}

/// The best rated players of a game in this server.
#[poise::command(slash_command, prefix_command)]
pub async fn leaderboard(
    ctx: Ctx<'_>,
    #[description = "Which game"] game: String,
) -> Result<(), Error> {
    let command = pick(Some(game), GAMES, "game").map(|g| Command::Leaderboard {
        variant: g.unwrap_or_default(),
    });
    run(ctx, command).await
}

/// Suggests time zones (IANA names) as the player types.
async fn suggest_zones(_ctx: Ctx<'_>, partial: &str) -> CreateAutocompleteResponse {
    CreateAutocompleteResponse::new().set_choices(
        crate::service::suggest_zones(partial, 25)
            .into_iter()
            .map(|z| AutocompleteChoice::new(z, z))
            .collect(),
    )
}

/// Your settings: pieces, notifications, reminders, language, notation, board side.
#[allow(clippy::too_many_arguments)] // one per option of /settings
#[poise::command(slash_command, prefix_command)]
pub async fn settings(
    ctx: Ctx<'_>,
    #[description = "Pieces as kanji or international letters"] style: Option<String>,
    #[description = "How you hear of your turn: mention, dm or digest"] notify: Option<String>,
    #[description = "Hours before a deadline to remind you (0: never)"]
    #[min = 0]
    #[max = 336]
    remind: Option<i64>,
    #[description = "The bot's language for you: en or ja"] language: Option<String>,
    #[description = "How moves are written for you: western, japanese or usi"] notation: Option<
        String,
    >,
    #[description = "The hour of your daily digest, 0 to 23, in your time zone"]
    #[min = 0]
    #[max = 23]
    digest_hour: Option<i64>,
    #[description = "Your time zone, e.g. Asia/Tokyo (UTC by default)"]
    #[autocomplete = "suggest_zones"]
    #[max_length = 64]
    timezone: Option<String>,
    #[description = "The side at the bottom of pictures: black, white, or turn (the player to move)"]
    board: Option<String>,
) -> Result<(), Error> {
    let command = (|| {
        // Discord keeps to the bounds; a prefix command does not: the core refuses past them.
        let remind = match remind.map(u32::try_from) {
            Some(Err(_)) => {
                return Err(msg!(
                    "discord-bad-remind",
                    max = crate::service::MAX_REMIND_HOURS
                ))
            }
            Some(Ok(h)) => Some(h),
            None => None,
        };
        // The same for the digest's hour (0 to 23).
        let digest_hour = match digest_hour.map(u8::try_from) {
            Some(Ok(h)) if h < 24 => Some(Some(h)),
            Some(_) => return Err(msg!("discord-bad-digest-hour")),
            None => None,
        };
        Ok(Command::Settings {
            style: pick(style, STYLES, "style")?,
            notify: pick(notify, NOTIFY, "notify")?,
            remind,
            language: pick(language, LANGUAGES, "language")?,
            notation: pick(notation, NOTATIONS, "notation")?,
            digest_hour,
            timezone: timezone.map(|z| z.trim().to_string()),
            board: pick(board, BOARD_SIDES, "board")?,
        })
    })();
    run(ctx, command).await
}

/// Pause your deadlines (14 days a month), end a vacation, or see it.
#[poise::command(slash_command, prefix_command)]
pub async fn vacation(
    ctx: Ctx<'_>,
    #[description = "Days away"] days: Option<i64>,
    #[description = "End your vacation now"] end: Option<bool>,
) -> Result<(), Error> {
    let command = match days {
        Some(d) if !(1..=366).contains(&d) => {
            Err(msg!("discord-bad-vacation", days = d.to_string()))
        }
        Some(d) => Ok(Command::Vacation {
            days: Some(d as u32),
            end: false,
        }),
        None => Ok(Command::Vacation {
            days: None,
            end: end.unwrap_or(false),
        }),
    };
    run(ctx, command).await
}

/// This server's settings (only managers change them).
#[poise::command(slash_command, prefix_command, guild_only)]
pub async fn server(
    ctx: Ctx<'_>,
    #[description = "Default days per move"] days: Option<i64>,
    #[description = "Games rated by default"] rated: Option<bool>,
    #[description = "The channel where challenges' games are played"]
    #[channel_types("Text", "News")]
    channel: Option<serenity::GuildChannel>,
    #[description = "The language of the server's public posts: en or ja"] language: Option<String>,
    #[description = "Whether members may create leagues (off: managers only)"] leagues: Option<
        bool,
    >,
    #[description = "A game shown first in /games here (0: none)"]
    #[min = 0]
    feature: Option<i64>,
) -> Result<(), Error> {
    // Registered for text channels only; a prefix command may still name another kind.
    if let Some(c) = channel.as_ref().filter(|c| {
        !matches!(
            c.kind,
            serenity::ChannelType::Text | serenity::ChannelType::News
        )
    }) {
        return run(
            ctx,
            Err(msg!("discord-not-text-channel", channel = c.id.to_string())),
        )
        .await;
    }
    // A change asked by prefix, from someone whose rights cannot be told (see
    // `manages_server`): pointed to the slash command, which carries them.
    let changes = days.is_some()
        || rated.is_some()
        || channel.is_some()
        || language.is_some()
        || leagues.is_some()
        || feature.is_some();
    if let poise::Context::Prefix(p) = ctx {
        if changes && manages_server(ctx.cache(), p.msg).is_none() {
            return run(ctx, Err(msg!("discord-server-use-slash"))).await;
        }
    }
    let command = (|| {
        let days = match days.map(u32::try_from) {
            Some(Err(_)) => return Err(msg!("discord-server-bad-days")),
            Some(Ok(d)) => Some(d),
            None => None,
        };
        Ok(Command::Server {
            days,
            rated,
            channel: channel.map(|c| c.id.to_string()),
            language: pick(language, LANGUAGES, "language")?,
            leagues,
            feature,
        })
    })();
    run(ctx, command).await
}

/// Whether the sender of a prefix command manages the server (Manage Server, or
/// Administrator, or its owner), from what Discord says now: the roles the message itself
/// carries (`member.roles`) and the server's roles as GUILD_CREATE gave them (serenity keeps
/// them up to date from the role events, which need no privileged intent). serenity's member
/// cache is not asked: without the Guild Members intent it is empty, or holds the roles of a
/// member from before a promotion or a demotion. `None`: it cannot be told (no server, the
/// server not in the cache, a message without its member).
pub(crate) fn manages_server(cache: &serenity::Cache, msg: &serenity::Message) -> Option<bool> {
    let guild = cache.guild(msg.guild_id?)?;
    if guild.owner_id == msg.author.id {
        return Some(true);
    }
    let member = msg.member.as_ref()?;
    // `@everyone` is the role whose id is the server's.
    let everyone = guild
        .roles
        .get(&serenity::RoleId::new(guild.id.get()))
        .map_or(serenity::Permissions::empty(), |r| r.permissions);
    let rights = member
        .roles
        .iter()
        .filter_map(|r| guild.roles.get(r))
        .fold(everyone, |all, r| all | r.permissions);
    Some(rights.administrator() || rights.manage_guild())
}

/// The commands, or help on one.
#[poise::command(slash_command, prefix_command)]
pub async fn help(
    ctx: Ctx<'_>,
    #[description = "A command or topic"] topic: Option<String>,
) -> Result<(), Error> {
    run(
        ctx,
        // Discord's own form, for the slash command and the prefix alike (a prefix command
        // takes the slash command's options in their order, not the console's `name=value`).
        Ok(Command::Help {
            topic: topic.map(|t| t.trim().to_lowercase()),
            form: crate::service::catalog::Form::Slash,
        }),
    )
    .await
}

/// A number of a league's option (`days`, `rounds` …): positive and within `u32`.
fn count_of(what: &str, v: Option<i64>) -> Result<Option<u32>, Msg> {
    match v {
        None => Ok(None),
        Some(n) => u32::try_from(n).map(Some).map_err(|_| {
            msg!(
                "cmd-league-number",
                key = what.to_string(),
                value = n.to_string()
            )
        }),
    }
}

/// The clock options of `/challenge` and `/league create`, checked as far as Discord's types go
/// (the core checks the rest).
fn clock_args(
    clock: Option<String>,
    increment: Option<i64>,
    cap: Option<i64>,
    period: Option<i64>,
) -> Result<ClockArgs, Msg> {
    Ok(ClockArgs {
        kind: pick(clock, CLOCKS, "clock")?,
        increment: count_of("increment", increment)?,
        cap: count_of("cap", cap)?,
        period: count_of("period", period)?,
    })
}

/// Runs a sub-command of `/league`.
async fn league_run(ctx: Ctx<'_>, c: Result<LeagueCommand, Msg>) -> Result<(), Error> {
    run(ctx, c.map(Command::League)).await
}

/// Server leagues: round robins and Swiss tournaments.
#[poise::command(
    slash_command,
    prefix_command,
    guild_only,
    subcommands(
        "league_create",
        "league_join",
        "league_leave",
        "league_start",
        "league_cancel",
        "league_list",
        "league_show",
        "league_pairings",
        "league_kick"
    ),
    subcommand_required
)]
pub async fn league(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}

/// Create a league (you run it with the server's managers).
#[allow(clippy::too_many_arguments)] // one per option of /league create
#[poise::command(slash_command, prefix_command, guild_only, rename = "create")]
pub async fn league_create(
    ctx: Ctx<'_>,
    #[description = "The league's name"]
    #[max_length = 60]
    name: String,
    #[description = "Which game"] game: String,
    #[description = "round-robin, double-round-robin or swiss"] format: String,
    #[description = "Days per move (1, 2, 3, 5, 7, 10 or 14), or the starting bank of another clock"]
    days: Option<i64>,
    #[description = "Swiss: how many rounds"]
    #[min = 1]
    #[max = 20]
    rounds: Option<i64>,
    #[description = "Rated (Glicko-2) or casual"] rated: Option<bool>,
    #[description = "Round robins: every game at once (all) or round by round (rounds)"]
    start: Option<String>,
    #[description = "Days a round may last before its games are adjudicated draws"]
    #[min = 1]
    #[max = 365]
    round_days: Option<i64>,
    #[description = "The most players who may join"]
    #[min = 2]
    #[max = 256]
    max_players: Option<i64>,
    #[description = "Only players rated at least this"] rating_min: Option<i64>,
    #[description = "Only players rated at most this"] rating_max: Option<i64>,
    #[description = "The clock: per-move (the default), increment or byoyomi"] clock: Option<
        String,
    >,
    #[description = "Increment clock: days added to your bank after each move (default 1)"]
    #[min = 1]
    #[max = 7]
    increment: Option<i64>,
    #[description = "Increment clock: the most days a bank may hold (default 7, or the bank)"]
    #[min = 1]
    #[max = 60]
    cap: Option<i64>,
    #[description = "Byoyomi: days for each move once the bank is spent (default 1)"]
    #[min = 1]
    #[max = 14]
    period: Option<i64>,
) -> Result<(), Error> {
    let command = (|| {
        Ok(LeagueCommand::Create(LeagueArgs {
            name: name.trim().to_string(),
            variant: pick(Some(game), GAMES, "game")?.unwrap_or_default(),
            days: count_of("days", days)?,
            format: pick(Some(format), LEAGUE_FORMATS, "format")?.unwrap_or_default(),
            rounds: count_of("rounds", rounds)?,
            rated,
            start: pick(start, LEAGUE_STARTS, "start")?,
            round_days: count_of("round_days", round_days)?,
            max_players: count_of("max_players", max_players)?,
            rating_min,
            rating_max,
            clock: clock_args(clock, increment, cap, period)?,
        }))
    })();
    league_run(ctx, command).await
}

/// Join a league that has not started.
#[poise::command(slash_command, prefix_command, guild_only, rename = "join")]
pub async fn league_join(
    ctx: Ctx<'_>,
    #[description = "The league's number"] league: i64,
) -> Result<(), Error> {
    league_run(ctx, Ok(LeagueCommand::Join { league })).await
}

/// Leave a league (once it started: withdraw, your unplayed games forfeited).
#[poise::command(slash_command, prefix_command, guild_only, rename = "leave")]
pub async fn league_leave(
    ctx: Ctx<'_>,
    #[description = "The league's number"] league: i64,
) -> Result<(), Error> {
    league_run(ctx, Ok(LeagueCommand::Leave { league })).await
}

/// Start a league: its first round's games are made (organisers).
#[poise::command(slash_command, prefix_command, guild_only, rename = "start")]
pub async fn league_start(
    ctx: Ctx<'_>,
    #[description = "The league's number"] league: i64,
) -> Result<(), Error> {
    league_run(ctx, Ok(LeagueCommand::Start { league })).await
}

/// Cancel a league; its games in progress go on (organisers).
#[poise::command(slash_command, prefix_command, guild_only, rename = "cancel")]
pub async fn league_cancel(
    ctx: Ctx<'_>,
    #[description = "The league's number"] league: i64,
) -> Result<(), Error> {
    league_run(ctx, Ok(LeagueCommand::Cancel { league })).await
}

/// The leagues of this server.
#[poise::command(slash_command, prefix_command, guild_only, rename = "list")]
pub async fn league_list(ctx: Ctx<'_>) -> Result<(), Error> {
    league_run(ctx, Ok(LeagueCommand::List)).await
}

/// A league's players, rounds, games and standings.
#[poise::command(slash_command, prefix_command, guild_only, rename = "show")]
pub async fn league_show(
    ctx: Ctx<'_>,
    #[description = "The league's number"] league: i64,
) -> Result<(), Error> {
    league_run(ctx, Ok(LeagueCommand::Show { league })).await
}

/// A round's pairings and results.
#[poise::command(slash_command, prefix_command, guild_only, rename = "pairings")]
pub async fn league_pairings(
    ctx: Ctx<'_>,
    #[description = "The league's number"] league: i64,
    #[description = "The round (default: the current one)"]
    #[min = 1]
    round: Option<i64>,
) -> Result<(), Error> {
    let command = count_of("round", round).map(|round| LeagueCommand::Pairings { league, round });
    league_run(ctx, command).await
}

/// Remove a player from a league (organisers).
#[poise::command(slash_command, prefix_command, guild_only, rename = "kick")]
pub async fn league_kick(
    ctx: Ctx<'_>,
    #[description = "The league's number"] league: i64,
    #[description = "Who to remove"] user: serenity::User,
) -> Result<(), Error> {
    let user = named_user(ctx, &user);
    league_run(ctx, Ok(LeagueCommand::Kick { league, user })).await
}

/// Conditional moves: "if you play X, I play Y", shown to you only.
#[poise::command(
    slash_command,
    prefix_command,
    subcommands("conditional_add", "conditional_list", "conditional_clear"),
    subcommand_required
)]
pub async fn conditional(_ctx: Ctx<'_>) -> Result<(), Error> {
    Ok(())
}

/// Add a line: your opponent's expected move, your answer, and so on.
#[poise::command(slash_command, prefix_command, rename = "add")]
pub async fn conditional_add(
    ctx: Ctx<'_>,
    #[description = "The moves, e.g. 3c3d 2g2f 8c8d 2f2e (any notation you write)"]
    #[max_length = 300]
    line: String,
    #[description = "The game's number (needed only when you play several)"] game: Option<i64>,
) -> Result<(), Error> {
    let command = if line.trim().is_empty() {
        Err(msg!("discord-write-a-move"))
    } else {
        Ok(Command::Conditional(ConditionalCommand::Add { game, line }))
    };
    run(ctx, command).await
}

/// Your conditional lines in a game.
#[poise::command(slash_command, prefix_command, rename = "list")]
pub async fn conditional_list(
    ctx: Ctx<'_>,
    #[description = "The game's number"] game: Option<i64>,
) -> Result<(), Error> {
    run(
        ctx,
        Ok(Command::Conditional(ConditionalCommand::List { game })),
    )
    .await
}

/// Clear your conditional lines in a game.
#[poise::command(slash_command, prefix_command, rename = "clear")]
pub async fn conditional_clear(
    ctx: Ctx<'_>,
    #[description = "The game's number"] game: Option<i64>,
) -> Result<(), Error> {
    run(
        ctx,
        Ok(Command::Conditional(ConditionalCommand::Clear { game })),
    )
    .await
}

/// Follow a game of this server (alone: the games you follow).
#[poise::command(slash_command, prefix_command, guild_only)]
pub async fn follow(
    ctx: Ctx<'_>,
    #[description = "The game's number"]
    #[min = 1]
    game: Option<i64>,
    #[description = "How you are told: thread (default), digest or ping"] notify: Option<String>,
) -> Result<(), Error> {
    let command = pick(notify, FOLLOW_NOTIFY, "notify").and_then(|notify| {
        let notify = notify.as_deref().and_then(crate::service::FollowHow::parse);
        if notify.is_some() && game.is_none() {
            Err(msg!("discord-follow-which-game"))
        } else {
            Ok(Command::Follow { game, notify })
        }
    });
    run(ctx, command).await
}

/// Stop following a game.
#[poise::command(slash_command, prefix_command)]
pub async fn unfollow(
    ctx: Ctx<'_>,
    #[description = "The game's number"]
    #[min = 1]
    game: i64,
) -> Result<(), Error> {
    run(ctx, Ok(Command::Unfollow { game })).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::catalog;

    fn option_names(c: &poise::Command<Data, Error>) -> Vec<String> {
        let mut names: Vec<String> = c.parameters.iter().map(|p| p.name.to_string()).collect();
        names.sort();
        names
    }

    #[test]
    fn command_names_and_options_are_the_contract() {
        let cmds = all();
        let find = |n: &str| {
            cmds.iter()
                .find(|c| c.name == n)
                .unwrap_or_else(|| panic!("no /{n}"))
        };
        let expect: &[(&str, &[&str])] = &[
            (
                "challenge",
                &[
                    "cap",
                    "clock",
                    "color",
                    "days",
                    "game",
                    "handicap",
                    "increment",
                    "level",
                    "opponent",
                    "period",
                    "rated",
                    "setup",
                ],
            ),
            ("accept", &["challenge"]),
            ("decline", &["challenge"]),
            ("cancel", &["challenge"]),
            ("move", &["game", "move"]),
            ("moves", &["game", "square"]),
            ("board", &["game", "ply", "style"]),
            ("resign", &["game"]),
            ("declare", &["game"]),
            ("moretime", &["game"]),
            ("draw", &["action", "game"]),
            ("takeback", &["action", "game"]),
            ("impasse", &["action", "game"]),
            ("games", &["user"]),
            ("history", &["user"]),
            ("stats", &["user"]),
            ("record", &["game"]),
            ("analysis", &["game"]),
            ("replay", &["game"]),
            ("export", &["format", "game"]),
            ("rules", &["game", "piece"]),
            ("leaderboard", &["game"]),
        ];
        for (name, opts) in expect {
            let c = find(name);
            assert_eq!(
                option_names(c),
                opts.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                "/{name}"
            );
            assert!(
                c.slash_action.is_some() && c.prefix_action.is_some(),
                "/{name} is slash and prefix"
            );
        }
        for n in ["settings", "vacation", "server", "help"] {
            find(n);
        }
        // `/follow game`, `/unfollow game` (a contract too).
        assert_eq!(option_names(find("follow")), ["game", "notify"]);
        assert_eq!(option_names(find("unfollow")), ["game"]);
        // `/league` and its sub-commands (a contract too).
        let league = find("league");
        let subs: &[(&str, &[&str])] = &[
            (
                "create",
                &[
                    "cap",
                    "clock",
                    "days",
                    "format",
                    "game",
                    "increment",
                    "max_players",
                    "name",
                    "period",
                    "rated",
                    "rating_max",
                    "rating_min",
                    "round_days",
                    "rounds",
                    "start",
                ],
            ),
            ("join", &["league"]),
            ("leave", &["league"]),
            ("start", &["league"]),
            ("cancel", &["league"]),
            ("list", &[]),
            ("show", &["league"]),
            ("pairings", &["league", "round"]),
            ("kick", &["league", "user"]),
        ];
        assert_eq!(league.subcommands.len(), subs.len());
        for (name, opts) in subs {
            let s = league
                .subcommands
                .iter()
                .find(|s| s.name == *name)
                .unwrap_or_else(|| panic!("no /league {name}"));
            assert_eq!(
                option_names(s),
                opts.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                "/league {name}"
            );
        }
        let json =
            serde_json::to_value(league.create_as_slash_command().expect("slash")).expect("json");
        let create = json["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == "create"))
            .expect("create");
        assert_eq!(create["type"], 1, "a sub-command");
        let format = create["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == "format"))
            .expect("format");
        let values: Vec<&str> = format["choices"]
            .as_array()
            .expect("choices")
            .iter()
            .filter_map(|c| c["value"].as_str())
            .collect();
        assert_eq!(values, LEAGUE_FORMATS);
        // Discord wants the required options first.
        let required: Vec<bool> = create["options"]
            .as_array()
            .expect("options")
            .iter()
            .map(|o| o["required"] == true)
            .collect();
        assert!(
            required.windows(2).all(|w| w[0] || !w[1]),
            "required options first: {required:?}"
        );
        let mv = find("move");
        assert!(mv
            .parameters
            .iter()
            .any(|p| p.name == "move" && p.autocomplete_callback.is_some()));
        // Optional since issue 50: `/move` without a move opens the move picker.
        assert!(mv
            .parameters
            .iter()
            .find(|p| p.name == "move")
            .is_some_and(|p| !p.required));
    }

    #[test]
    fn choices_are_registered_as_strings() {
        let cmds = all();
        let json = |name: &str| {
            let c = cmds.iter().find(|c| c.name == name).expect("command");
            serde_json::to_value(c.create_as_slash_command().expect("slash")).expect("json")
        };
        let challenge = json("challenge");
        let game = challenge["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == "game"))
            .expect("game option");
        assert_eq!(game["type"], 3, "string option");
        let values: Vec<&str> = game["choices"]
            .as_array()
            .expect("choices")
            .iter()
            .filter_map(|c| c["value"].as_str())
            .collect();
        assert_eq!(values, GAMES);
        // In the game commands, `game` is a game's number.
        let board = json("board");
        let game = board["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == "game"))
            .expect("game option");
        assert_eq!(game["type"], 4, "integer option");
        assert!(game
            .get("choices")
            .is_none_or(|c| c.as_array().is_none_or(|a| a.is_empty())));
        let draw = json("draw");
        let action = draw["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == "action"))
            .expect("action option");
        assert_eq!(action["choices"].as_array().map(|a| a.len()), Some(3));
    }

    /// Discord's rule for names, localised ones too: 1 to 32 characters, letters, digits, `-`,
    /// `_` or `'`, none upper case.
    fn name_ok(name: &str) -> bool {
        (1..=32).contains(&name.chars().count())
            && name.chars().all(|c| {
                (c.is_alphabetic() || c.is_numeric() || matches!(c, '-' | '_' | '\''))
                    && !c.is_uppercase()
            })
    }

    fn description_ok(d: &str) -> bool {
        (1..=100).contains(&d.chars().count())
    }

    /// The registered form of every command, as Discord receives it.
    fn registered() -> Vec<serde_json::Value> {
        all()
            .iter()
            .map(|c| {
                serde_json::to_value(c.create_as_slash_command().expect("slash")).expect("json")
            })
            .collect()
    }

    #[test]
    fn every_command_option_and_choice_has_its_japanese_words_within_discords_rules() {
        let mut command_names = std::collections::HashSet::new();
        for c in registered() {
            let name = c["name"].as_str().unwrap_or_default().to_string();
            let ja = c["name_localizations"]["ja"].as_str().unwrap_or_default();
            assert!(name_ok(ja), "/{name}: ja name {ja:?}");
            assert!(
                command_names.insert(ja.to_string()),
                "/{name}: ja name {ja} twice"
            );
            let d = c["description_localizations"]["ja"]
                .as_str()
                .unwrap_or_default();
            assert!(description_ok(d), "/{name}: ja description {d:?}");
            japanese_options(&name, &c["options"]);
        }
    }

    /// The Japanese words of a command's options (a sub-command's options too).
    fn japanese_options(name: &str, options: &serde_json::Value) {
        let mut option_names = std::collections::HashSet::new();
        for o in options.as_array().into_iter().flatten() {
            let oname = o["name"].as_str().unwrap_or_default();
            let ja = o["name_localizations"]["ja"].as_str().unwrap_or_default();
            assert!(name_ok(ja), "/{name} {oname}: ja name {ja:?}");
            assert!(
                option_names.insert(ja.to_string()),
                "/{name}: ja option name {ja} twice"
            );
            let d = o["description_localizations"]["ja"]
                .as_str()
                .unwrap_or_default();
            assert!(description_ok(d), "/{name} {oname}: ja description {d:?}");
            for ch in o["choices"].as_array().into_iter().flatten() {
                let label = ch["name_localizations"]["ja"].as_str().unwrap_or_default();
                assert!(
                    description_ok(label) && label != ch["name"],
                    "/{name} {oname} {}: ja label {label:?}",
                    ch["name"]
                );
            }
            // A sub-command (type 1): its own options.
            if o["type"] == 1 {
                japanese_options(&format!("{name} {oname}"), &o["options"]);
            }
        }
    }

    /// The ids of a message file (`id = ...` at the start of a line).
    fn ids(src: &str) -> Vec<String> {
        src.lines()
            .filter(|l| l.starts_with(|c: char| c.is_ascii_lowercase()))
            .filter_map(|l| l.split_once(" =").map(|(id, _)| id.trim().to_string()))
            .collect()
    }

    /// Checks the English words of `key`'s options against what is registered, noting the ids
    /// (a sub-command's options under `cmd-COMMAND-SUB-OPTION`).
    fn english_options(
        key: &str,
        options: &serde_json::Value,
        used: &mut std::collections::HashSet<String>,
    ) {
        let lang = Lang::En;
        for o in options.as_array().into_iter().flatten() {
            let oname = o["name"].as_str().unwrap_or_default();
            let id = format!("cmd-{key}-{oname}");
            assert_eq!(command_text(lang, &id, false).as_deref(), Some(oname));
            assert_eq!(
                command_text(lang, &id, true).as_deref(),
                o["description"].as_str(),
                "{id}"
            );
            used.insert(id);
            for ch in o["choices"].as_array().into_iter().flatten() {
                let value = ch["value"].as_str().unwrap_or_default();
                let id = format!("choice-{oname}-{value}");
                assert_eq!(command_text(lang, &id, false).as_deref(), Some(value));
                used.insert(id);
            }
            if o["type"] == 1 {
                english_options(&format!("{key}-{oname}"), &o["options"], used);
            }
        }
    }

    #[test]
    fn the_english_message_file_is_what_the_code_registers_and_every_id_is_used() {
        let lang = Lang::En;
        let mut used = std::collections::HashSet::new();
        for c in registered() {
            let name = c["name"].as_str().unwrap_or_default();
            let id = format!("cmd-{name}");
            assert_eq!(command_text(lang, &id, false).as_deref(), Some(name));
            assert_eq!(
                command_text(lang, &id, true).as_deref(),
                c["description"].as_str(),
                "{id}"
            );
            used.insert(id);
            english_options(name, &c["options"], &mut used);
        }
        let file = i18n::FILES
            .iter()
            .position(|f| *f == "commands")
            .expect("commands.ftl");
        for l in i18n::Lang::ALL {
            let listed = ids(i18n::SOURCES[l as usize][file]);
            for id in &listed {
                assert!(
                    used.contains(id),
                    "{}: {id} is no command, option or choice",
                    l.tag()
                );
            }
            assert_eq!(listed.len(), used.len(), "{}: every id once", l.tag());
        }
    }

    /// A registered command (or sub-command) against its entry in the command table: the same
    /// options, each as needed, of the same kind, with the same choices, and the same words.
    fn same_as_table(json: &serde_json::Value, c: &catalog::Cmd) {
        let name = c.name;
        assert_eq!(
            json["description"].as_str(),
            Some(catalog::description(Lang::En, c).as_str()),
            "/{name}"
        );
        let options: Vec<&serde_json::Value> =
            json["options"].as_array().into_iter().flatten().collect();
        if !c.subs.is_empty() {
            let mut subs: Vec<String> = options
                .iter()
                .map(|o| format!("{name} {}", o["name"].as_str().unwrap_or_default()))
                .collect();
            let mut table: Vec<String> = c
                .subs
                .iter()
                .filter(|s| s.slash)
                .map(|s| s.name.to_string())
                .collect();
            subs.sort();
            table.sort();
            assert_eq!(subs, table, "/{name}'s sub-commands");
            for o in options {
                let sub = format!("{name} {}", o["name"].as_str().unwrap_or_default());
                same_as_table(o, catalog::find(&sub).expect("in the table"));
            }
            return;
        }
        let mut registered: Vec<&str> = options
            .iter()
            .map(|o| o["name"].as_str().unwrap_or_default())
            .collect();
        let mut table: Vec<&str> = c.options_in(catalog::Form::Slash).map(|o| o.name).collect();
        registered.sort();
        table.sort();
        assert_eq!(registered, table, "/{name}'s options");
        for o in options {
            let oname = o["name"].as_str().unwrap_or_default();
            let t = c
                .options_in(catalog::Form::Slash)
                .find(|t| t.name == oname)
                .expect("in the table");
            let required = o["required"].as_bool() == Some(true);
            assert_eq!(
                required,
                t.slash == catalog::Slash::Required,
                "/{name} {oname}: required"
            );
            let choices: Vec<&str> = o["choices"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|ch| ch["value"].as_str().unwrap_or_default())
                .collect();
            match t.value {
                catalog::Value::Choice(list) | catalog::Value::Named(_, list) => {
                    assert_eq!(choices, list, "/{name} {oname}: choices")
                }
                catalog::Value::Bool => assert_eq!(o["type"], 5, "/{name} {oname}: true/false"),
                catalog::Value::Meta(_) => {
                    assert!(
                        choices.is_empty(),
                        "/{name} {oname}: choices not in the table"
                    );
                    assert_ne!(
                        o["type"], 5,
                        "/{name} {oname}: true/false, not in the table"
                    );
                }
            }
        }
    }

    /// Help and usage lines are written from the command table (`service::catalog`); the
    /// commands Discord is given are exactly the table's slash commands.
    #[test]
    fn the_registered_commands_are_the_command_tables() {
        let registered = registered();
        let mut names: Vec<&str> = registered
            .iter()
            .map(|c| c["name"].as_str().unwrap_or_default())
            .collect();
        let mut table: Vec<&str> = catalog::COMMANDS
            .iter()
            .filter(|c| c.slash)
            .map(|c| c.name)
            .collect();
        names.sort();
        table.sort();
        assert_eq!(names, table);
        for c in &registered {
            let name = c["name"].as_str().unwrap_or_default();
            same_as_table(c, catalog::find(name).expect("in the table"));
        }
    }

    #[test]
    fn settings_take_a_reminder_lead_in_hours() {
        let cmds = all();
        let c = cmds
            .iter()
            .find(|c| c.name == "settings")
            .expect("/settings");
        assert_eq!(
            option_names(c),
            [
                "board",
                "digest_hour",
                "language",
                "notation",
                "notify",
                "remind",
                "style",
                "timezone"
            ]
        );
        let json = serde_json::to_value(c.create_as_slash_command().expect("slash")).expect("json");
        let remind = json["options"]
            .as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == "remind"))
            .expect("remind option");
        assert_eq!(remind["type"], 4, "integer option");
        assert_eq!(remind["min_value"].as_f64(), Some(0.0));
        assert_eq!(remind["max_value"].as_f64(), Some(336.0));
        assert_eq!(remind["required"], false);
        assert!(remind["description"]
            .as_str()
            .is_some_and(|d| d.contains("0: never")));
    }
}
