//! The command table: every command, sub-command and option of Tegami, as typed (the console,
//! `move 12 7g7f`) and as Discord's slash commands (`/move move:7g7f game:12`), in one place.
//!
//! Help and the usage lines of refusals are written from it, in every language, so an option
//! cannot be missing from help in one language or one form; its words are the slash commands'
//! own (`cmd-COMMAND.description`, `cmd-COMMAND-OPTION.description` in `commands.ftl`; the
//! commands and options that are typed only have theirs in `help.ftl`). Tests hold it to the
//! two readers of commands: every typed option is understood by the parser
//! ([`parse`](super::command::parse)), and the slash commands the Discord adapter registers are
//! exactly the table's (`discord::commands`' tests).

use crate::i18n::{self, Arg, Lang, Msg};
use crate::msg;

/// How commands are written: typed (the console, and help there), or as Discord's slash
/// commands (`/help` on Discord).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Form {
    #[default]
    Typed,
    Slash,
}

/// What an option's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A value shown by a placeholder: the id of its message in `help.ftl` (`meta-game-id`:
    /// `GAME_ID`).
    Meta(&'static str),
    /// One of these words.
    Choice(&'static [&'static str]),
    /// One of these words, shown by a placeholder in the usage line (`VARIANT`) and listed in
    /// the option's own line.
    Named(&'static str, &'static [&'static str]),
    /// Yes or no: a true/false option on Discord; typed as its words ([`Typed::Words`]) or
    /// `name=on|off`.
    Bool,
}

/// How an option is typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typed {
    /// Not at all (a slash command's option only).
    No,
    /// A word in its place, after the options before it (`move 12 7g7f`).
    Pos,
    /// `name=VALUE`, anywhere.
    Key,
    /// One of its choices alone, anywhere (`black`).
    Bare,
    /// A yes/no written as a word: the yes, and the no if there is one (`rated|casual`, `end`).
    Words(&'static str, Option<&'static str>),
}

/// Whether a slash command has an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slash {
    No,
    Optional,
    Required,
}

/// An option of a command.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    /// The slash option's name, and the key of a typed `name=VALUE`.
    pub name: &'static str,
    pub value: Value,
    pub typed: Typed,
    /// Needed when typed.
    pub required: bool,
    pub slash: Slash,
    /// Typed instead of the option before it, not with it (`vacation [DAYS|end]`).
    pub alt: bool,
}

/// A command, or a sub-command of a group (`league create`).
#[derive(Clone, Copy, Debug)]
pub struct Cmd {
    /// The name, a sub-command's with its group's (`league create`).
    pub name: &'static str,
    pub typed: bool,
    pub slash: bool,
    pub options: &'static [Opt],
    pub subs: &'static [Cmd],
}

const fn opt(name: &'static str, value: Value, typed: Typed) -> Opt {
    Opt {
        name,
        value,
        typed,
        required: false,
        slash: Slash::Optional,
        alt: false,
    }
}

/// A word in its place.
const fn pos(name: &'static str, value: Value) -> Opt {
    opt(name, value, Typed::Pos)
}

/// `name=VALUE`.
const fn key(name: &'static str, value: Value) -> Opt {
    opt(name, value, Typed::Key)
}

/// A choice written alone.
const fn bare(name: &'static str, choices: &'static [&'static str]) -> Opt {
    opt(name, Value::Choice(choices), Typed::Bare)
}

/// A yes/no written as words.
const fn words(name: &'static str, yes: &'static str, no: Option<&'static str>) -> Opt {
    opt(name, Value::Bool, Typed::Words(yes, no))
}

impl Opt {
    /// Needed, typed and on Discord.
    const fn req(self) -> Opt {
        Opt {
            required: true,
            slash: Slash::Required,
            ..self
        }
    }

    /// Needed when typed, optional on Discord.
    const fn typed_req(self) -> Opt {
        Opt {
            required: true,
            ..self
        }
    }

    /// Typed only.
    const fn typed_only(self) -> Opt {
        Opt {
            slash: Slash::No,
            ..self
        }
    }

    /// Typed instead of the option before it.
    const fn alt(self) -> Opt {
        Opt { alt: true, ..self }
    }
}

const fn cmd(name: &'static str, options: &'static [Opt]) -> Cmd {
    Cmd {
        name,
        typed: true,
        slash: true,
        options,
        subs: &[],
    }
}

const fn group(name: &'static str, subs: &'static [Cmd]) -> Cmd {
    Cmd {
        name,
        typed: true,
        slash: true,
        options: &[],
        subs,
    }
}

impl Cmd {
    /// Typed only (no slash command).
    const fn typed_only(self) -> Cmd {
        Cmd {
            slash: false,
            ..self
        }
    }

    /// Its id in the message files: `cmd-league-create`.
    pub fn id(&self) -> String {
        format!("cmd-{}", self.name.replace(' ', "-"))
    }

    /// An option's id: `cmd-league-create-name`.
    pub fn option_id(&self, o: &Opt) -> String {
        format!("{}-{}", self.id(), o.name)
    }

    /// The command and, for a group, its sub-commands (after it).
    pub fn with_subs(&'static self) -> impl Iterator<Item = &'static Cmd> {
        std::iter::once(self).chain(self.subs.iter())
    }

    /// Whether it is written in `form`.
    pub fn in_form(&self, form: Form) -> bool {
        match form {
            Form::Typed => self.typed,
            Form::Slash => self.slash,
        }
    }

    /// Its options written in `form`.
    pub fn options_in(&self, form: Form) -> impl Iterator<Item = &'static Opt> {
        self.options.iter().filter(move |o| match form {
            Form::Typed => o.typed != Typed::No,
            Form::Slash => o.slash != Slash::No,
        })
    }
}

/// The games, by the words commands take.
pub const GAMES: &[&str] = &["shogi", "judkins", "cannon", "palace", "shanghai"];
/// A challenger's side.
pub const COLORS: &[&str] = &["black", "white", "random", "red", "blue"];
/// Piece styles of pictures.
pub const STYLES: &[&str] = &["kanji", "international"];
/// The answers to an offer (draw, takeback, impasse).
pub const ACTIONS: &[&str] = &["offer", "accept", "decline"];
/// Export formats.
pub const FORMATS: &[&str] = &["sfen", "kif", "csa", "fen"];
/// How a player hears of their turn.
pub const NOTIFY: &[&str] = &["mention", "dm", "digest"];
/// The languages a player or a server chooses.
pub const LANGUAGES: &[&str] = &["en", "ja"];
/// How moves are written.
pub const NOTATIONS: &[&str] = &["western", "japanese", "usi"];
/// The side at the bottom of pictures.
pub const BOARD_SIDES: &[&str] = &["turn", "black", "white"];
/// League formats.
pub const LEAGUE_FORMATS: &[&str] = &["round-robin", "double-round-robin", "swiss"];
/// How a round robin starts its games.
pub const LEAGUE_STARTS: &[&str] = &["rounds", "all"];
/// The clocks.
pub const CLOCKS: &[&str] = &["per-move", "increment", "byoyomi"];

const GAME_ID: Value = Value::Meta("meta-game-id");
const N: Value = Value::Meta("meta-n");
const VARIANT: Value = Value::Named("meta-variant", GAMES);

const GAME_ONLY: &[Opt] = &[pos("game", GAME_ID)];
const GAME_NEEDED: &[Opt] = &[pos("game", GAME_ID).req()];
const CHALLENGE_ONLY: &[Opt] = &[pos("challenge", Value::Meta("meta-challenge-id"))];
const USER_ONLY: &[Opt] = &[pos("user", Value::Meta("meta-user"))];
const OFFER: &[Opt] = &[pos("game", GAME_ID), bare("action", ACTIONS)];
const LEAGUE_ONLY: &[Opt] = &[key("league", Value::Meta("meta-league")).req()];
const CLOCK_OPTIONS: [Opt; 4] = [
    key("clock", Value::Choice(CLOCKS)),
    key("increment", N),
    key("cap", N),
    key("period", N),
];

/// Every command, in the order help lists them.
pub const COMMANDS: &[Cmd] = &[
    cmd(
        "challenge",
        &[
            pos("opponent", Value::Meta("meta-opponent")).req(),
            pos("game", VARIANT).typed_req(),
            bare("color", COLORS),
            key("days", N),
            CLOCK_OPTIONS[0],
            CLOCK_OPTIONS[1],
            CLOCK_OPTIONS[2],
            CLOCK_OPTIONS[3],
            key("handicap", Value::Meta("meta-handicap")),
            key("setup", Value::Meta("meta-setup")),
            words("rated", "rated", Some("casual")),
            key("level", Value::Meta("meta-level")),
        ],
    ),
    cmd("accept", CHALLENGE_ONLY),
    cmd("decline", CHALLENGE_ONLY),
    cmd("cancel", CHALLENGE_ONLY),
    cmd(
        "move",
        &[
            pos("game", GAME_ID),
            pos("move", Value::Meta("meta-move")).typed_req(),
        ],
    ),
    cmd(
        "board",
        &[
            pos("game", GAME_ID),
            pos("ply", Value::Meta("meta-ply")),
            bare("style", STYLES),
        ],
    ),
    cmd(
        "moves",
        &[
            pos("game", GAME_ID),
            pos("square", Value::Meta("meta-square")),
        ],
    ),
    cmd(
        "pick",
        &[
            pos("game", GAME_ID).typed_only(),
            pos("choice", Value::Meta("meta-choice")).typed_only(),
        ],
    )
    .typed_only(),
    cmd("resign", GAME_ONLY),
    cmd("declare", GAME_ONLY),
    cmd("draw", OFFER),
    cmd("takeback", OFFER),
    cmd("impasse", OFFER),
    cmd("moretime", GAME_ONLY),
    cmd("games", USER_ONLY),
    cmd("history", USER_ONLY),
    cmd(
        "game",
        &[
            pos("game", GAME_ID).req().typed_only(),
            pos("ply", Value::Meta("meta-ply")).typed_only(),
        ],
    )
    .typed_only(),
    cmd("record", GAME_NEEDED),
    cmd("analysis", GAME_NEEDED),
    cmd("replay", GAME_NEEDED),
    cmd(
        "export",
        &[pos("game", GAME_ID).req(), bare("format", FORMATS)],
    ),
    cmd(
        "rules",
        &[
            pos("game", VARIANT).req(),
            pos("piece", Value::Meta("meta-piece")),
        ],
    ),
    cmd("stats", USER_ONLY),
    cmd("leaderboard", &[pos("game", VARIANT).req()]),
    cmd(
        "settings",
        &[
            key("style", Value::Choice(STYLES)),
            key("notify", Value::Choice(NOTIFY)),
            key("remind", Value::Meta("meta-hours")),
            key("language", Value::Choice(LANGUAGES)),
            key("notation", Value::Choice(NOTATIONS)),
            key("digest_hour", Value::Meta("meta-hour")),
            key("timezone", Value::Meta("meta-zone")),
            key("board", Value::Choice(BOARD_SIDES)),
        ],
    ),
    cmd(
        "vacation",
        &[
            pos("days", Value::Meta("meta-days")),
            words("end", "end", None).alt(),
        ],
    ),
    cmd(
        "server",
        &[
            key("days", N),
            words("rated", "rated", Some("casual")),
            key("channel", Value::Meta("meta-channel")),
            key("language", Value::Choice(LANGUAGES)),
            key("leagues", Value::Bool),
            key("feature", Value::Meta("meta-feature")),
        ],
    ),
    group(
        "league",
        &[
            cmd(
                "league create",
                &[
                    key("name", Value::Meta("meta-name")).req(),
                    key("game", VARIANT).req(),
                    key("format", Value::Choice(LEAGUE_FORMATS)).req(),
                    key("days", N),
                    key("rounds", N),
                    words("rated", "rated", Some("casual")),
                    key("start", Value::Choice(LEAGUE_STARTS)),
                    key("round_days", N),
                    key("max_players", N),
                    key("rating_min", N),
                    key("rating_max", N),
                    CLOCK_OPTIONS[0],
                    CLOCK_OPTIONS[1],
                    CLOCK_OPTIONS[2],
                    CLOCK_OPTIONS[3],
                ],
            ),
            cmd("league join", LEAGUE_ONLY),
            cmd("league leave", LEAGUE_ONLY),
            cmd("league start", LEAGUE_ONLY),
            cmd("league cancel", LEAGUE_ONLY),
            cmd("league list", &[]),
            cmd("league show", LEAGUE_ONLY),
            cmd(
                "league pairings",
                &[
                    key("league", Value::Meta("meta-league")).req(),
                    key("round", N),
                ],
            ),
            cmd(
                "league kick",
                &[
                    key("league", Value::Meta("meta-league")).req(),
                    key("user", Value::Meta("meta-user")).req(),
                ],
            ),
        ],
    ),
    group(
        "conditional",
        &[
            cmd(
                "conditional add",
                &[
                    pos("game", GAME_ID),
                    pos("line", Value::Meta("meta-moves")).req(),
                ],
            ),
            cmd("conditional list", GAME_ONLY),
            cmd("conditional clear", GAME_ONLY),
        ],
    ),
    cmd(
        "follow",
        &[pos("game", GAME_ID), bare("notify", super::FOLLOW_NOTIFY)],
    ),
    cmd("unfollow", GAME_NEEDED),
    cmd("help", &[pos("topic", Value::Meta("meta-command"))]),
];

/// A command or sub-command by its name (`league create`), in any form.
pub fn find(name: &str) -> Option<&'static Cmd> {
    COMMANDS
        .iter()
        .flat_map(Cmd::with_subs)
        .find(|c| c.name == name)
}

/// The command a reader names: by its name (`board`, `league create`, `/board`), or by its
/// slash name in a language, `lang`'s first (`盤面`).
fn lookup(lang: Lang, topic: &str) -> Option<&'static Cmd> {
    let topic = topic.trim().trim_start_matches(['/', '!']).to_lowercase();
    let topic = topic.split_whitespace().collect::<Vec<_>>().join(" ");
    let all = || COMMANDS.iter().flat_map(Cmd::with_subs);
    let topic = topic.as_str();
    // The reader's language first, then any other.
    let languages = std::iter::once(lang).chain(Lang::ALL.into_iter().filter(move |&l| l != lang));
    all().find(|c| c.name == topic).or_else(|| {
        languages
            .flat_map(|l| all().filter(move |c| local_name(l, c).to_lowercase() == topic))
            .next()
    })
}

/// A placeholder in `lang` (`GAME_ID`, `対局番号`).
fn meta(lang: Lang, id: &str) -> String {
    i18n::tr(lang, id, None)
}

/// A value as a usage line shows it.
fn value_text(lang: Lang, v: Value) -> String {
    match v {
        Value::Meta(id) | Value::Named(id, _) => meta(lang, id),
        Value::Choice(list) => list.join("|"),
        Value::Bool => "on|off".to_string(),
    }
}

/// A typed option as the usage line shows it, without brackets (`days=N`, `GAME_ID`,
/// `black|white|random`).
fn typed_text(lang: Lang, o: &Opt) -> String {
    match o.typed {
        Typed::No => String::new(),
        Typed::Pos => value_text(lang, o.value),
        Typed::Key => format!("{}={}", o.name, value_text(lang, o.value)),
        Typed::Bare => value_text(lang, o.value),
        Typed::Words(yes, Some(no)) => format!("{yes}|{no}"),
        Typed::Words(yes, None) => yes.to_string(),
    }
}

/// A command's name as Discord shows it in `lang` (`move`, `指す`; `リーグ 作成`).
fn local_name(lang: Lang, c: &Cmd) -> String {
    match lang {
        Lang::En => c.name.to_string(),
        _ => c
            .name
            .split(' ')
            .scan(String::from("cmd"), |id, w| {
                id.push('-');
                id.push_str(w);
                Some(if i18n::has(lang, id) {
                    i18n::tr(lang, id, None)
                } else {
                    w.to_string()
                })
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// An option's name as Discord shows it in `lang` (`game`, `対局`).
fn option_local_name(lang: Lang, c: &Cmd, o: &Opt) -> String {
    let id = c.option_id(o);
    if lang != Lang::En && i18n::has(lang, &id) {
        i18n::tr(lang, &id, None)
    } else {
        o.name.to_string()
    }
}

/// A command's description in `lang`.
pub fn description(lang: Lang, c: &Cmd) -> String {
    i18n::attr(lang, &c.id(), "description").unwrap_or_default()
}

/// An option's description in `lang`.
pub fn option_description(lang: Lang, c: &Cmd, o: &Opt) -> String {
    i18n::attr(lang, &c.option_id(o), "description").unwrap_or_default()
}

/// A command's usage line in `lang` and `form`: `board [GAME_ID] [PLY] [kanji|international]`,
/// `/board [game] [ply] [style]`.
pub fn usage(lang: Lang, form: Form, c: &Cmd) -> String {
    let mut parts: Vec<String> = Vec::new();
    match form {
        Form::Typed => {
            parts.push(c.name.to_string());
            for o in c.options_in(form) {
                let text = typed_text(lang, o);
                match parts.last_mut() {
                    // `[DAYS]` and `end` become `[DAYS|end]`.
                    Some(last) if o.alt && last.ends_with(']') => {
                        last.pop();
                        last.push('|');
                        last.push_str(&text);
                        last.push(']');
                    }
                    _ if o.required => parts.push(text),
                    _ => parts.push(format!("[{text}]")),
                }
            }
        }
        Form::Slash => {
            parts.push(format!("/{}", local_name(lang, c)));
            // Discord puts the required options first.
            let (req, opt): (Vec<&Opt>, Vec<&Opt>) =
                c.options_in(form).partition(|o| o.slash == Slash::Required);
            parts.extend(req.iter().map(|o| option_local_name(lang, c, o)));
            parts.extend(
                opt.iter()
                    .map(|o| format!("[{}]", option_local_name(lang, c, o))),
            );
        }
    }
    parts.join(" ")
}

/// A group's usage: its sub-commands' lines, joined.
fn group_usage(lang: Lang, form: Form, c: &Cmd) -> String {
    if c.subs.is_empty() {
        usage(lang, form, c)
    } else {
        c.subs
            .iter()
            .filter(|s| s.in_form(form))
            .map(|s| usage(lang, form, s))
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

/// A typed command's usage line (a group's: every sub-command's) in every language, as a
/// message argument (`cmd-not-a-player`'s `usage`).
pub fn usage_arg(name: &str) -> Arg {
    Arg::Langs(
        Lang::ALL
            .iter()
            .map(|&l| {
                find(name).map_or_else(|| name.to_string(), |c| group_usage(l, Form::Typed, c))
            })
            .collect(),
    )
}

/// "usage: …" for a typed command (`league create`; a group: every sub-command).
pub fn usage_msg(name: &str) -> Msg {
    msg!("cmd-usage", usage = usage_arg(name))
}

/// The choices of an option, with their labels in `lang` (`kanji (漢字)`).
fn choices_text(lang: Lang, o: &Opt) -> Option<String> {
    let list = match o.value {
        Value::Choice(list) | Value::Named(_, list) => list,
        _ => return None,
    };
    let shown: Vec<String> = list
        .iter()
        .map(|v| {
            let id = format!("choice-{}-{v}", o.name);
            match lang {
                Lang::En => v.to_string(),
                _ if i18n::has(lang, &id) => {
                    format!("{v}（{}）", i18n::tr(lang, &id, None))
                }
                _ => v.to_string(),
            }
        })
        .collect();
    Some(shown.join(&i18n::tr(lang, "help-separator", None)))
}

/// An option's line in a command's help: `  days=N — Days per move …`.
fn option_line(lang: Lang, form: Form, c: &Cmd, o: &Opt) -> String {
    let mut head = match form {
        Form::Typed => typed_text(lang, o),
        Form::Slash => option_local_name(lang, c, o),
    };
    let required = match form {
        Form::Typed => o.required,
        Form::Slash => o.slash == Slash::Required,
    };
    if required {
        head.push_str(&i18n::tr(lang, "help-required", None));
    }
    let mut line = format!("  {head} — {}", option_description(lang, c, o));
    let choices_shown = matches!(o.typed, Typed::Key | Typed::Bare) && form == Form::Typed;
    if !choices_shown || matches!(o.value, Value::Named(..)) {
        if let Some(list) = choices_text(lang, o) {
            line.push_str(&i18n::tr(lang, "help-choices", None));
            line.push_str(&list);
        }
    }
    line
}

/// The help of one command (a group: of each sub-command): its usage, what it does, each
/// option, and a note when there is more to say (`help-note-COMMAND`).
fn command_help(lang: Lang, form: Form, c: &Cmd, out: &mut String) {
    out.push_str(&usage(lang, form, c));
    out.push_str("\n  ");
    out.push_str(&description(lang, c));
    for o in c.options_in(form) {
        out.push('\n');
        out.push_str(&option_line(lang, form, c, o));
    }
    // A note for Discord when its words differ (`/settings board`, not `settings board=`).
    let id = c.name.replace(' ', "-");
    let note = [format!("help-note-slash-{id}"), format!("help-note-{id}")]
        .into_iter()
        .filter(|n| form == Form::Slash || !n.starts_with("help-note-slash-"))
        .find(|n| i18n::has(lang, n));
    if let Some(note) = note {
        out.push_str("\n  ");
        out.push_str(&i18n::tr(lang, &note, None));
    }
    for s in c.subs.iter().filter(|s| s.in_form(form)) {
        out.push_str("\n\n");
        command_help(lang, form, s, out);
    }
}

/// Help: every command with its usage line and what it does, or one command in full.
/// `Err`: no such command (the refusal's text).
pub fn help(lang: Lang, form: Form, topic: Option<&str>) -> Result<String, String> {
    match topic.filter(|t| !t.trim().is_empty()) {
        Some(topic) => match lookup(lang, topic).filter(|c| c.in_form(form)) {
            Some(c) => {
                let mut out = String::new();
                command_help(lang, form, c, &mut out);
                Ok(out)
            }
            None => Err(crate::t!(lang, "help-no-command", topic = topic)),
        },
        None => {
            let head = match form {
                Form::Typed => "help-head",
                Form::Slash => "help-head-slash",
            };
            let mut out = i18n::tr(lang, head, None);
            for c in COMMANDS.iter().filter(|c| c.in_form(form)) {
                match form {
                    Form::Typed if c.subs.is_empty() => out.push_str(&format!(
                        "\n  {} — {}",
                        usage(lang, form, c),
                        description(lang, c)
                    )),
                    Form::Typed => {
                        out.push_str(&format!("\n  {} — {}", c.name, description(lang, c)));
                        for s in c.subs.iter().filter(|s| s.in_form(form)) {
                            out.push_str(&format!(
                                "\n    {} — {}",
                                usage(lang, form, s),
                                description(lang, s)
                            ));
                        }
                    }
                    // On Discord the list fits one message: names only (Discord shows the
                    // options as they are typed; `/help topic:` tells them all).
                    Form::Slash => {
                        let subs: Vec<String> = c
                            .subs
                            .iter()
                            .filter(|s| s.in_form(form))
                            .map(|s| {
                                let local = local_name(lang, s);
                                local.rsplit(' ').next().unwrap_or_default().to_string()
                            })
                            .collect();
                        let name = if subs.is_empty() {
                            local_name(lang, c)
                        } else {
                            format!("{} {}", local_name(lang, c), subs.join("|"))
                        };
                        out.push_str(&format!("\n/{name} — {}", description(lang, c)));
                    }
                }
            }
            out.push('\n');
            out.push_str(&i18n::tr(
                lang,
                match form {
                    Form::Typed => "help-foot",
                    Form::Slash => "help-foot-slash",
                },
                None,
            ));
            Ok(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::command::parse;
    use super::*;

    /// A value the parser takes for an option (a choice: the last, never the default).
    fn example(o: &Opt) -> String {
        let value = match o.value {
            Value::Choice(list) | Value::Named(_, list) => list[list.len() - 1].to_string(),
            Value::Bool => "on".to_string(),
            Value::Meta(id) => match id {
                "meta-game-id" | "meta-feature" => "3",
                "meta-challenge-id" => "2",
                "meta-user" | "meta-opponent" => "@bob",
                "meta-move" => "7g7f",
                "meta-square" => "7g",
                "meta-ply" => "4",
                "meta-piece" => "S",
                "meta-n" | "meta-days" | "meta-league" => "2",
                "meta-hours" => "12",
                "meta-hour" => "9",
                "meta-zone" => "Asia/Tokyo",
                "meta-name" => "Cup",
                "meta-channel" => "#games",
                "meta-choice" => "7g",
                "meta-moves" => "3c3d",
                "meta-command" => "move",
                "meta-level" => "3",
                "meta-handicap" => "rook",
                "meta-setup" => "smith",
                other => panic!("no example for placeholder {other}"),
            }
            .to_string(),
        };
        match o.typed {
            Typed::Key => format!("{}={value}", o.name),
            Typed::Words(yes, _) => yes.to_string(),
            _ => value,
        }
    }

    fn typed_commands() -> impl Iterator<Item = &'static Cmd> {
        COMMANDS
            .iter()
            .flat_map(Cmd::with_subs)
            .filter(|c| c.typed && (c.subs.is_empty()))
    }

    /// A line of `c` with its required options, and `with` (and the word options before it,
    /// which give it its place), leaving out `without`.
    fn line(c: &Cmd, with: Option<usize>, without: Option<usize>) -> String {
        let opts: Vec<&Opt> = c.options_in(Form::Typed).collect();
        let mut words = vec![c.name.to_string()];
        for (i, o) in opts.iter().enumerate() {
            let alternative_of_with = with.is_some_and(|w| opts[w].alt && i + 1 == w);
            let before_with = with.is_some_and(|w| i < w) && o.typed == Typed::Pos;
            let wanted = o.required || Some(i) == with || (before_with && !alternative_of_with);
            if wanted && Some(i) != without {
                words.push(example(o));
            }
        }
        words.join(" ")
    }

    /// Every typed option of the table is one the parser reads: a line with it parses to
    /// another command than the line without it; a needed one cannot be left out; and a key
    /// the table does not have is refused (so a key the parser did not know would have been).
    #[test]
    fn the_parser_reads_every_typed_option_of_the_table() {
        let mut checked = 0;
        for c in typed_commands() {
            let base = line(c, None, None);
            let parsed = parse(&base).unwrap_or_else(|e| panic!("{base}: {}", e.msg()));
            assert_eq!(parsed.name(), c.name.split(' ').next().expect("a name"));
            let opts: Vec<&Opt> = c.options_in(Form::Typed).collect();
            for (i, o) in opts.iter().enumerate() {
                if o.required {
                    let short = line(c, None, Some(i));
                    assert!(parse(&short).is_err(), "{short} parses without {}", o.name);
                    continue;
                }
                let without = {
                    // The options before it, which give it its place, without it.
                    let mut w = line(c, Some(i), None);
                    let ex = example(o);
                    if let Some(cut) = w.rfind(&format!(" {ex}")) {
                        w.replace_range(cut..cut + ex.len() + 1, "");
                    }
                    w
                };
                let with = line(c, Some(i), None);
                let a = parse(&with).unwrap_or_else(|e| panic!("{with}: {}", e.msg()));
                let b = parse(&without).unwrap_or_else(|e| panic!("{without}: {}", e.msg()));
                assert_ne!(
                    format!("{a:?}"),
                    format!("{b:?}"),
                    "{with} reads as {without}"
                );
                checked += 1;
            }
            if c.options_in(Form::Typed).any(|o| o.typed == Typed::Key) {
                let odd = format!("{base} zzz=1");
                assert!(parse(&odd).is_err(), "{odd} parses");
            }
        }
        assert!(checked > 60, "{checked} options checked");
    }

    /// Help names every command, sub-command and option, in every language and both forms,
    /// each with its words; nothing is left to a missing message.
    #[test]
    fn help_is_complete_in_every_language_and_form() {
        for lang in Lang::ALL {
            for form in [Form::Typed, Form::Slash] {
                let all = help(lang, form, None).expect("the list");
                for c in COMMANDS.iter().flat_map(Cmd::with_subs) {
                    if !c.in_form(form) {
                        assert!(help(lang, form, Some(c.name)).is_err(), "{}", c.name);
                        continue;
                    }
                    let d = description(lang, c);
                    assert!(!d.is_empty(), "{lang:?} {}: no description", c.name);
                    let listed = match form {
                        // Every sub-command's line, with its usage.
                        Form::Typed => all.contains(&format!("{} — {d}", usage(lang, form, c))),
                        // Every command by name; a sub-command by its word after its group.
                        Form::Slash => {
                            let local = local_name(lang, c);
                            match local.split_once(' ') {
                                None if c.subs.is_empty() => {
                                    all.contains(&format!("/{local} — {d}"))
                                }
                                None => all.lines().any(|l| {
                                    l.starts_with(&format!("/{local} ")) && l.ends_with(&d)
                                }),
                                Some((g, sub)) => all.lines().any(|l| {
                                    l.starts_with(&format!("/{g} "))
                                        && l.split(' ')
                                            .nth(1)
                                            .is_some_and(|w| w.split('|').any(|x| x == sub))
                                }),
                            }
                        }
                    };
                    if c.subs.is_empty() || form == Form::Slash {
                        assert!(listed, "{lang:?} {form:?}: {} missing", c.name);
                    }
                    let one = help(lang, form, Some(c.name)).expect("a command's help");
                    for o in c.options_in(form) {
                        let od = option_description(lang, c, o);
                        assert!(!od.is_empty(), "{lang:?} {} {}", c.name, o.name);
                        assert!(one.contains(&od), "{lang:?} {form:?} {} {}", c.name, o.name);
                        let named = match form {
                            Form::Typed => typed_text(lang, o),
                            Form::Slash => option_local_name(lang, c, o),
                        };
                        assert!(one.contains(&named), "{} {named}", c.name);
                    }
                }
                // On Discord the list is one message (2,000 characters, with room to spare).
                if form == Form::Slash {
                    assert!(
                        all.chars().count() <= 1900,
                        "{lang:?}: {} characters",
                        all.chars().count()
                    );
                }
                for text in [
                    &all,
                    &help(lang, form, Some("challenge")).expect("challenge"),
                ] {
                    assert!(!text.contains("meta-"), "{text}");
                    assert!(!text.contains("help-"), "{text}");
                }
            }
        }
        // Japanese readers may name a command by its Japanese slash name.
        assert!(help(Lang::Ja, Form::Slash, Some("挑戦"))
            .expect("/挑戦")
            .starts_with("/挑戦"));
        assert!(help(Lang::En, Form::Typed, Some("dance")).is_err());
    }

    /// The usage lines refusals give are the table's, in the reader's language.
    #[test]
    fn usage_lines_come_from_the_table() {
        let m = usage_msg("board");
        assert_eq!(
            m.render(Lang::En),
            "usage: board [GAME_ID] [PLY] [kanji|international]"
        );
        assert!(m.render(Lang::Ja).contains("board [対局番号] [手数]"));
        assert!(usage_msg("settings")
            .render(Lang::En)
            .contains("[board=turn|black|white]"));
        assert!(usage_msg("vacation")
            .render(Lang::En)
            .ends_with("vacation [DAYS|end]"));
        assert!(usage_msg("league")
            .render(Lang::En)
            .contains("league kick league=N user=@USER"));
    }
}
