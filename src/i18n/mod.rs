//! What Tegami says, in English and in Japanese: one translation system (Fluent) for the core,
//! the console and the Discord adapter.
//!
//! The messages live in `locales/en-US/*.ftl` and `locales/ja/*.ftl`, one file per area of the
//! code (the same files in both languages, with the same message ids and the same arguments:
//! `tests/i18n.rs` holds them to it), embedded in the binary at build time. Code names a message
//! by its id and gives its arguments ([`t!`]); the language is chosen at the edge of each text:
//! a reply in its sender's language, a notice in its recipient's, a public post in its server's
//! (see `service::speech`). Any Japanese locale (`ja`, `ja-JP`) gives Japanese, everything else
//! English.
//!
//! Bidirectional isolation marks are off: the texts mix only left-to-right scripts, and the marks
//! would show as stray characters in terminals and in Discord's code blocks.

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::FluentResource;
pub use fluent_bundle::{FluentArgs, FluentValue};
use tracing::warn;

pub mod refusal;
pub mod words;

/// A language Tegami speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    Ja,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ja];

    /// The language for a locale as Discord sends it (`ja`, `en-US`, `pt-BR`, …): Japanese for
    /// any Japanese locale, English for everything else.
    pub fn from_locale(locale: &str) -> Lang {
        let primary = locale.split(['-', '_']).next().unwrap_or("");
        if primary.eq_ignore_ascii_case("ja") {
            Lang::Ja
        } else {
            Lang::En
        }
    }

    /// A language a player names in a setting: `en` or `ja` (also `english`, `japanese`,
    /// `英語`, `日本語`).
    pub fn parse(s: &str) -> Option<Lang> {
        match s.trim().to_ascii_lowercase().as_str() {
            "en" | "english" | "英語" => Some(Lang::En),
            "ja" | "japanese" | "日本語" => Some(Lang::Ja),
            _ => None,
        }
    }

    /// The setting's word: `en` or `ja`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// The folder of its messages under `locales/`, and its Fluent language tag.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en-US",
            Lang::Ja => "ja",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// The message files of each language, by area: the same names under `locales/en-US/` and
/// `locales/ja/`.
pub const FILES: &[&str] = &[
    "core", "play", "clock", "views", "help", "export", "computer", "engine", "discord",
    "commands", "console", "render", "league", "timing", "follow", "picker", "learn",
];

macro_rules! sources {
    ($lang:literal) => {
        [
            include_str!(concat!("../../locales/", $lang, "/core.ftl")),
            include_str!(concat!("../../locales/", $lang, "/play.ftl")),
            include_str!(concat!("../../locales/", $lang, "/clock.ftl")),
            include_str!(concat!("../../locales/", $lang, "/views.ftl")),
            include_str!(concat!("../../locales/", $lang, "/help.ftl")),
            include_str!(concat!("../../locales/", $lang, "/export.ftl")),
            include_str!(concat!("../../locales/", $lang, "/computer.ftl")),
            include_str!(concat!("../../locales/", $lang, "/engine.ftl")),
            include_str!(concat!("../../locales/", $lang, "/discord.ftl")),
            include_str!(concat!("../../locales/", $lang, "/commands.ftl")),
            include_str!(concat!("../../locales/", $lang, "/console.ftl")),
            include_str!(concat!("../../locales/", $lang, "/render.ftl")),
            include_str!(concat!("../../locales/", $lang, "/league.ftl")),
            include_str!(concat!("../../locales/", $lang, "/timing.ftl")),
            include_str!(concat!("../../locales/", $lang, "/follow.ftl")),
            include_str!(concat!("../../locales/", $lang, "/picker.ftl")),
            include_str!(concat!("../../locales/", $lang, "/learn.ftl")),
        ]
    };
}

/// The text of each message file, per language (in the order of [`FILES`]).
pub const SOURCES: [[&str; 17]; 2] = [sources!("en-US"), sources!("ja")];

type Bundle = FluentBundle<FluentResource>;

static BUNDLES: LazyLock<[Bundle; 2]> = LazyLock::new(|| Lang::ALL.map(bundle));

fn bundle(lang: Lang) -> Bundle {
    let tag = lang.tag().parse().unwrap_or_default();
    let mut b = FluentBundle::new_concurrent(vec![tag]);
    b.set_use_isolating(false);
    for (file, src) in FILES.iter().zip(SOURCES[lang.index()]) {
        // The files are ours and tested (`tests/i18n.rs`): a syntax error there is a bug, but
        // the rest of the file still loads, and the broken messages fall back to their ids.
        let res = match FluentResource::try_new(src.to_string()) {
            Ok(r) => r,
            Err((r, errors)) => {
                warn!(lang = lang.tag(), file, ?errors, "message file has errors");
                r
            }
        };
        if let Err(errors) = b.add_resource(res) {
            warn!(lang = lang.tag(), file, ?errors, "message file repeats ids");
        }
    }
    b
}

/// Message `id` in `lang`, with its arguments. A missing message gives its id (and a warning in
/// the log): the tests see to it that none is missing.
pub fn tr(lang: Lang, id: &str, args: Option<&FluentArgs>) -> String {
    format(lang, id, None, args).unwrap_or_else(|| {
        warn!(lang = lang.tag(), id, "no such message");
        id.to_string()
    })
}

/// Attribute `attr` of message `id` in `lang` (a slash command's `.description`), if it has one.
pub fn attr(lang: Lang, id: &str, attr: &str) -> Option<String> {
    format(lang, id, Some(attr), None)
}

/// Whether message `id` exists in `lang`.
pub fn has(lang: Lang, id: &str) -> bool {
    BUNDLES[lang.index()].has_message(id)
}

fn format(lang: Lang, id: &str, attr: Option<&str>, args: Option<&FluentArgs>) -> Option<String> {
    let b = &BUNDLES[lang.index()];
    let msg = b.get_message(id)?;
    let pattern = match attr {
        Some(a) => msg.get_attribute(a)?.value(),
        None => msg.value()?,
    };
    let mut errors = vec![];
    let out = b.format_pattern(pattern, args, &mut errors);
    if !errors.is_empty() {
        warn!(
            lang = lang.tag(),
            id,
            ?errors,
            "message formatted with errors"
        );
    }
    Some(out.into_owned())
}

/// A message not yet put into words: its id and arguments, rendered in a language once the
/// language is known ([`Msg::render`]). The core's refusals are these (`CoreError::User`): the
/// code that refuses does not need to know who will read the refusal.
#[derive(Clone, Debug, PartialEq)]
pub struct Msg {
    pub id: &'static str,
    pub args: Vec<(&'static str, Arg)>,
}

/// An argument of a [`Msg`].
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A text shown as it is (a name, a move, a code).
    Text(String),
    Number(i64),
    /// A message, rendered in the same language.
    Msg(Box<Msg>),
    /// A text already written in every language, in the order of [`Lang::ALL`] (a command's
    /// usage line, made from the command table rather than a message file).
    Langs(Vec<String>),
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_string())
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Text(s.clone())
    }
}

impl From<Msg> for Arg {
    fn from(m: Msg) -> Arg {
        Arg::Msg(Box::new(m))
    }
}

macro_rules! number_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Number(n as i64)
            }
        }
    )*};
}
number_args!(i64, i32, u32, u64, usize, u8, u16);

impl Msg {
    pub fn new(id: &'static str) -> Msg {
        Msg { id, args: vec![] }
    }

    /// The same message with one more argument.
    pub fn arg(mut self, key: &'static str, value: impl Into<Arg>) -> Msg {
        self.args.push((key, value.into()));
        self
    }

    /// The message in words, in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        if self.args.is_empty() {
            return tr(lang, self.id, None);
        }
        let mut args = FluentArgs::new();
        for (k, v) in &self.args {
            match v {
                Arg::Text(s) => args.set(*k, FluentValue::from(s.clone())),
                Arg::Number(n) => args.set(*k, FluentValue::from(*n)),
                Arg::Msg(m) => args.set(*k, FluentValue::from(m.render(lang))),
                Arg::Langs(each) => args.set(
                    *k,
                    FluentValue::from(each.get(lang.index()).cloned().unwrap_or_default()),
                ),
            }
        }
        tr(lang, self.id, Some(&args))
    }
}

/// In English (logs, and tests that read refusals).
impl std::fmt::Display for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

/// A [`Msg`]: `msg!("game-number", id = 12)`.
#[macro_export]
macro_rules! msg {
    ($id:expr $(,)?) => {
        $crate::i18n::Msg::new($id)
    };
    ($id:expr, $($key:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::Msg::new($id)$(.arg(stringify!($key), $value))+
    };
}

/// A message in a language: `t!(lang, "game-number", id = 12)`. Arguments are
/// anything a [`FluentValue`] is made from (strings, numbers).
#[macro_export]
macro_rules! t {
    ($lang:expr, $id:expr $(,)?) => {
        $crate::i18n::tr($lang, $id, None)
    };
    ($lang:expr, $id:expr, $($key:ident = $value:expr),+ $(,)?) => {{
        let mut args = $crate::i18n::FluentArgs::new();
        $(args.set(stringify!($key), $crate::i18n::FluentValue::from($value));)+
        $crate::i18n::tr($lang, $id, Some(&args))
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_japanese_locale_is_japanese_and_the_rest_english() {
        assert_eq!(Lang::from_locale("ja"), Lang::Ja);
        assert_eq!(Lang::from_locale("ja-JP"), Lang::Ja);
        assert_eq!(Lang::from_locale("en-US"), Lang::En);
        assert_eq!(Lang::from_locale("pt-BR"), Lang::En);
        assert_eq!(Lang::from_locale(""), Lang::En);
        assert_eq!(Lang::parse("JA"), Some(Lang::Ja));
        assert_eq!(Lang::parse("日本語"), Some(Lang::Ja));
        assert_eq!(Lang::parse("fr"), None);
    }

    #[test]
    fn messages_take_their_arguments_without_isolation_marks() {
        let en = t!(Lang::En, "lang-name");
        let ja = t!(Lang::Ja, "lang-name");
        assert_eq!(en, "English");
        assert_eq!(ja, "日本語");
        let s = t!(Lang::En, "game-number", id = 12);
        assert_eq!(s, "#12");
        assert!(!s.contains('\u{2068}'));
    }

    #[test]
    fn a_missing_message_gives_its_id() {
        assert_eq!(t!(Lang::Ja, "no-such-message"), "no-such-message");
    }
}
