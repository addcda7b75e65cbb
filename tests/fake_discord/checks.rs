//! Discord's rules on what a bot sends, the ones that catch bot bugs: message limits, components,
//! command definitions; and, on the fixtures' side, that an invocation fits the registered
//! command. Limits are Discord's documented ones.

use std::collections::HashSet;

use serde_json::Value;

use super::rest::Reply;

fn chars(v: &Value) -> usize {
    v.as_str().map_or(0, |s| s.chars().count())
}

fn too_long(path: &str, max: usize) -> Reply {
    Reply::form_error(
        path,
        "BASE_TYPE_MAX_LENGTH",
        &format!("Must be {max} or fewer in length."),
    )
}

fn required(path: &str) -> Reply {
    Reply::form_error(path, "BASE_TYPE_REQUIRED", "This field is required")
}

/// A message body (create or edit, channel message or interaction reply).
pub(crate) fn message_payload(p: &Value, files: usize, creating: bool) -> Result<(), Reply> {
    if !p.is_object() && !p.is_null() {
        return Err(Reply::form_error(
            "",
            "DICT_TYPE_CONVERT",
            "Only dictionaries may be used in a DictType",
        ));
    }
    if chars(&p["content"]) > 2000 {
        return Err(too_long("content", 2000));
    }
    let embeds = p["embeds"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if embeds.len() > 10 {
        return Err(too_long("embeds", 10));
    }
    for (i, e) in embeds.iter().enumerate() {
        embed(e, &format!("embeds.{i}"))?;
    }
    let rows = p["components"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    components(rows)?;
    if files > 10 {
        return Err(Reply::error(
            400,
            50035,
            "Invalid Form Body: more than 10 files",
        ));
    }
    allowed_mentions(&p["allowed_mentions"])?;
    if creating {
        let has_content = p["content"].as_str().is_some_and(|c| !c.trim().is_empty());
        let has_stickers = p["sticker_ids"].as_array().is_some_and(|s| !s.is_empty());
        let has_poll = p["poll"].is_object();
        if !has_content
            && embeds.is_empty()
            && rows.is_empty()
            && files == 0
            && !has_stickers
            && !has_poll
        {
            return Err(Reply::error(400, 50006, "Cannot send an empty message"));
        }
    }
    Ok(())
}

fn embed(e: &Value, path: &str) -> Result<(), Reply> {
    let limits = [("title", 256), ("description", 4096)];
    let mut total = 0;
    for (key, max) in limits {
        let n = chars(&e[key]);
        if n > max {
            return Err(too_long(&format!("{path}.{key}"), max));
        }
        total += n;
    }
    let footer = chars(&e["footer"]["text"]);
    if footer > 2048 {
        return Err(too_long(&format!("{path}.footer.text"), 2048));
    }
    if e["footer"].is_object() && footer == 0 {
        return Err(required(&format!("{path}.footer.text")));
    }
    let author = chars(&e["author"]["name"]);
    if author > 256 {
        return Err(too_long(&format!("{path}.author.name"), 256));
    }
    if e["author"].is_object() && author == 0 {
        return Err(required(&format!("{path}.author.name")));
    }
    total += footer + author;
    let fields = e["fields"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if fields.len() > 25 {
        return Err(too_long(&format!("{path}.fields"), 25));
    }
    for (i, f) in fields.iter().enumerate() {
        let (name, value) = (chars(&f["name"]), chars(&f["value"]));
        if name == 0 {
            return Err(required(&format!("{path}.fields.{i}.name")));
        }
        if value == 0 {
            return Err(required(&format!("{path}.fields.{i}.value")));
        }
        if name > 256 {
            return Err(too_long(&format!("{path}.fields.{i}.name"), 256));
        }
        if value > 1024 {
            return Err(too_long(&format!("{path}.fields.{i}.value"), 1024));
        }
        total += name + value;
    }
    if total > 6000 {
        return Err(Reply::form_error(
            path,
            "MAX_EMBED_SIZE_EXCEEDED",
            "Embed size exceeds maximum size of 6000",
        ));
    }
    for key in ["image", "thumbnail"] {
        if e[key].is_object() && e[key]["url"].as_str().is_none_or(str::is_empty) {
            return Err(required(&format!("{path}.{key}.url")));
        }
    }
    Ok(())
}

/// Action rows of a message (at most 5, each with up to 5 buttons or one select menu; custom ids
/// unique and at most 100 characters).
pub(crate) fn components(rows: &[Value]) -> Result<(), Reply> {
    if rows.len() > 5 {
        return Err(too_long("components", 5));
    }
    let mut ids = HashSet::new();
    for (r, row) in rows.iter().enumerate() {
        let path = format!("components.{r}");
        if row["type"].as_u64() != Some(1) {
            return Err(Reply::form_error(
                &format!("{path}.type"),
                "UNION_TYPE_CHOICES",
                "Value of field \"type\" must be one of (1,).",
            ));
        }
        let items = row["components"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        if items.is_empty() {
            return Err(Reply::form_error(
                &format!("{path}.components"),
                "BASE_TYPE_MIN_LENGTH",
                "Must be 1 or more in length.",
            ));
        }
        if items.len() > 5 {
            return Err(too_long(&format!("{path}.components"), 5));
        }
        let selects = items
            .iter()
            .filter(|c| c["type"].as_u64() != Some(2))
            .count();
        if selects > 0 && items.len() > 1 {
            return Err(Reply::form_error(
                &format!("{path}.components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            ));
        }
        for (i, c) in items.iter().enumerate() {
            let cpath = format!("{path}.components.{i}");
            component(c, &cpath)?;
            if let Some(id) = c["custom_id"].as_str() {
                if !ids.insert(id.to_owned()) {
                    return Err(Reply::form_error(
                        &format!("{cpath}.custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    ));
                }
            }
        }
    }
    Ok(())
}

fn component(c: &Value, path: &str) -> Result<(), Reply> {
    let custom_id = chars(&c["custom_id"]);
    if custom_id > 100 {
        return Err(too_long(&format!("{path}.custom_id"), 100));
    }
    match c["type"].as_u64() {
        Some(2) => {
            let style = c["style"].as_u64().unwrap_or(0);
            match style {
                1..=4 if custom_id == 0 => return Err(required(&format!("{path}.custom_id"))),
                5 if c["url"].as_str().is_none_or(str::is_empty) => {
                    return Err(required(&format!("{path}.url")))
                }
                1..=6 => {}
                _ => {
                    return Err(Reply::form_error(
                        &format!("{path}.style"),
                        "BUTTON_COMPONENT_INVALID_STYLE",
                        "Invalid button style",
                    ))
                }
            }
            if chars(&c["label"]) > 80 {
                return Err(too_long(&format!("{path}.label"), 80));
            }
            if chars(&c["label"]) == 0 && !c["emoji"].is_object() && style != 6 {
                return Err(Reply::form_error(
                    path,
                    "BUTTON_COMPONENT_MISSING_LABEL_OR_EMOJI",
                    "Button must have a label or an emoji",
                ));
            }
        }
        Some(3 | 5 | 6 | 7 | 8) => {
            if custom_id == 0 {
                return Err(required(&format!("{path}.custom_id")));
            }
            if chars(&c["placeholder"]) > 150 {
                return Err(too_long(&format!("{path}.placeholder"), 150));
            }
            if c["type"].as_u64() == Some(3) {
                let n = c["options"].as_array().map_or(0, Vec::len);
                if n == 0 || n > 25 {
                    return Err(Reply::form_error(
                        &format!("{path}.options"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 25 in length.",
                    ));
                }
            }
        }
        _ => {
            return Err(Reply::form_error(
                &format!("{path}.type"),
                "UNION_TYPE_CHOICES",
                "Invalid component type for a message",
            ))
        }
    }
    Ok(())
}

fn allowed_mentions(a: &Value) -> Result<(), Reply> {
    if !a.is_object() {
        return Ok(());
    }
    let parse: Vec<&str> = a["parse"]
        .as_array()
        .map(|p| p.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for p in &parse {
        if !["users", "roles", "everyone"].contains(p) {
            return Err(Reply::form_error(
                "allowed_mentions.parse",
                "ENUM_TYPE_COERCE",
                "Value must be one of {'users', 'roles', 'everyone'}.",
            ));
        }
    }
    for kind in ["users", "roles"] {
        let listed = a[kind].as_array().is_some_and(|l| !l.is_empty());
        if listed && parse.contains(&kind) {
            return Err(Reply::form_error(
                "allowed_mentions",
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                &format!("parse:[\"{kind}\"] and {kind}: [ids...] are mutually exclusive."),
            ));
        }
    }
    Ok(())
}

/// A chat-input name, and every localised one: Discord's `^[-_'\p{L}\p{N}]{1,32}$` with no
/// upper-case letter (a letter with a lower-case form must be in it). Letters of every script
/// count (kana and kanji are letters); spaces, `「」` and `・` do not. (`is_alphabetic` is
/// `\p{L}` plus a few marks Discord also takes, in Devanagari and Thai.)
pub(crate) fn slash_name_ok(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name.chars().all(|c| {
            (c.is_alphabetic() || c.is_numeric() || matches!(c, '-' | '_' | '\''))
                && !c.is_uppercase()
        })
}

/// The locales Discord takes as keys of `name_localizations` and `description_localizations`.
pub(crate) const LOCALES: [&str; 32] = [
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th",
    "zh-CN", "ja", "zh-TW", "ko",
];

/// What a localised text must be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Localised {
    /// A command's or option's name: [`slash_name_ok`].
    Name,
    /// A description or a choice's label: 1 to 100 characters.
    Text,
}

/// One `*_localizations` map of a command, option or choice (absent or null: none): known
/// locales only, each text within `rule`. Returns the localised texts by locale.
fn localizations(
    v: &Value,
    field: &str,
    path: &str,
    rule: Localised,
) -> Result<Vec<(String, String)>, Reply> {
    let Some(map) = v.get(field).filter(|m| !m.is_null()) else {
        return Ok(Vec::new());
    };
    let Some(map) = map.as_object() else {
        return Err(Reply::form_error(
            &format!("{path}.{field}"),
            "MODEL_TYPE_CONVERT",
            "Only dictionaries may be used in a DictType",
        ));
    };
    let mut out = Vec::new();
    for (locale, text) in map {
        let at = format!("{path}.{field}.{locale}");
        if !LOCALES.contains(&locale.as_str()) {
            return Err(Reply::form_error(
                &at,
                "LOCALE_INVALID",
                &format!("Invalid locale {locale:?}"),
            ));
        }
        let Some(t) = text.as_str() else {
            return Err(Reply::form_error(
                &at,
                "BASE_TYPE_STRING",
                "Must be a string.",
            ));
        };
        match rule {
            Localised::Name if !slash_name_ok(t) => {
                return Err(Reply::form_error(
                    &at,
                    "APPLICATION_COMMAND_INVALID_NAME",
                    &format!(
                    "Command name is invalid ({t:?}): 1-32 lower-case letters, digits, -, _ or '"
                ),
                ))
            }
            Localised::Text if !(1..=100).contains(&t.chars().count()) => {
                return Err(Reply::form_error(
                    &at,
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ))
            }
            _ => {}
        }
        out.push((locale.clone(), t.to_owned()));
    }
    Ok(out)
}

/// The name and description localisations of a command or option; its localised names are
/// added to `taken` (per locale: two commands, or two options of one command, may not share
/// a name in any language).
fn named_and_described(
    v: &Value,
    path: &str,
    taken: &mut HashSet<(String, String)>,
) -> Result<(), Reply> {
    for (locale, name) in localizations(v, "name_localizations", path, Localised::Name)? {
        if !taken.insert((locale.clone(), name.clone())) {
            return Err(Reply::form_error(
                &format!("{path}.name_localizations.{locale}"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                &format!("Localized names must be unique ({locale}: {name})"),
            ));
        }
    }
    localizations(v, "description_localizations", path, Localised::Text)?;
    Ok(())
}

/// A bulk command registration (`PUT .../commands`).
pub(crate) fn commands(list: &Value) -> Result<(), Reply> {
    let Some(cmds) = list.as_array() else {
        return Err(Reply::form_error(
            "",
            "BASE_TYPE_ARRAY",
            "Must be an array.",
        ));
    };
    let chat = cmds
        .iter()
        .filter(|c| c["type"].as_u64().unwrap_or(1) == 1)
        .count();
    if chat > 100 {
        return Err(too_long("", 100));
    }
    let mut names = HashSet::new();
    let mut localised_names = HashSet::new();
    for (i, c) in cmds.iter().enumerate() {
        let kind = c["type"].as_u64().unwrap_or(1);
        let name = c["name"].as_str().unwrap_or_default();
        let path = format!("{i}");
        if !names.insert((kind, name.to_owned())) {
            return Err(Reply::form_error(
                &format!("{path}.name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                &format!("Application command names must be unique ({name})"),
            ));
        }
        match kind {
            1 => {
                if !slash_name_ok(name) {
                    return Err(Reply::form_error(
                        &format!("{path}.name"),
                        "APPLICATION_COMMAND_INVALID_NAME",
                        &format!("Command name is invalid ({name:?}): 1-32 lower-case letters, digits, - or _"),
                    ));
                }
                let d = chars(&c["description"]);
                if d == 0 || d > 100 {
                    return Err(Reply::form_error(
                        &format!("{path}.description"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 100 in length.",
                    ));
                }
                named_and_described(c, &path, &mut localised_names)?;
                let opts = c["options"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                options(opts, &format!("{path}.options"), 0)?;
            }
            2 | 3 => {
                let n = name.chars().count();
                if n == 0 || n > 32 {
                    return Err(Reply::form_error(
                        &format!("{path}.name"),
                        "BASE_TYPE_BAD_LENGTH",
                        "Must be between 1 and 32 in length.",
                    ));
                }
                if chars(&c["description"]) > 0 {
                    return Err(Reply::form_error(
                        &format!("{path}.description"),
                        "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
                        "Context menu commands cannot have description",
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}

fn options(opts: &[Value], path: &str, depth: u8) -> Result<(), Reply> {
    if opts.len() > 25 {
        return Err(too_long(path, 25));
    }
    let subs = opts
        .iter()
        .filter(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
        .count();
    if subs > 0 && subs < opts.len() {
        return Err(Reply::form_error(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all other types",
        ));
    }
    let mut names = HashSet::new();
    let mut localised_names = HashSet::new();
    let mut seen_optional = false;
    for (i, o) in opts.iter().enumerate() {
        let opath = format!("{path}.{i}");
        let kind = o["type"].as_u64().unwrap_or(0);
        let name = o["name"].as_str().unwrap_or_default();
        if !(1..=11).contains(&kind) {
            return Err(Reply::form_error(
                &format!("{opath}.type"),
                "BASE_TYPE_CHOICES",
                "Value must be one of {1, ..., 11}.",
            ));
        }
        if !slash_name_ok(name) {
            return Err(Reply::form_error(
                &format!("{opath}.name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                &format!("Option name is invalid ({name:?})"),
            ));
        }
        if !names.insert(name) {
            return Err(Reply::form_error(
                &format!("{opath}.name"),
                "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE",
                "Option names must be unique",
            ));
        }
        let d = chars(&o["description"]);
        if d == 0 || d > 100 {
            return Err(Reply::form_error(
                &format!("{opath}.description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        named_and_described(o, &opath, &mut localised_names)?;
        channel_types(o, kind, &opath)?;
        let nested = o["options"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        match kind {
            2 if depth == 0 => {
                if nested.iter().any(|n| n["type"].as_u64() != Some(1)) {
                    return Err(Reply::form_error(
                        &format!("{opath}.options"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "A sub-command group can only contain sub-commands",
                    ));
                }
                options(nested, &format!("{opath}.options"), depth + 1)?;
            }
            1 if depth <= 1 => {
                if nested
                    .iter()
                    .any(|n| matches!(n["type"].as_u64(), Some(1 | 2)))
                {
                    return Err(Reply::form_error(
                        &format!("{opath}.options"),
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "A sub-command cannot contain sub-commands",
                    ));
                }
                options(nested, &format!("{opath}.options"), 2)?;
            }
            1 | 2 => {
                return Err(Reply::form_error(
                    &format!("{opath}.type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-commands nested too deeply",
                ))
            }
            _ => {
                let req = o["required"].as_bool().unwrap_or(false);
                if req && seen_optional {
                    return Err(Reply::form_error(
                        &opath,
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    ));
                }
                seen_optional |= !req;
                choices(o, kind, &opath)?;
            }
        }
    }
    Ok(())
}

/// Discord's channel types: text, DM, voice, group DM, category, announcement, the three
/// threads, stage, directory, forum, media.
const CHANNEL_TYPES: [u64; 13] = [0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16];

/// An option's `channel_types`: a list of known types, not empty only on a channel option
/// (type 7). serenity's builder sends an empty list on every option, which Discord takes.
fn channel_types(o: &Value, kind: u64, path: &str) -> Result<(), Reply> {
    let Some(types) = o.get("channel_types").filter(|t| !t.is_null()) else {
        return Ok(());
    };
    let empty = types.as_array().is_some_and(Vec::is_empty);
    if kind != 7 && !empty {
        return Err(Reply::form_error(
            &format!("{path}.channel_types"),
            "APPLICATION_COMMAND_OPTION_CHANNEL_TYPES_INVALID",
            "Only channel options can have channel types",
        ));
    }
    let Some(list) = types.as_array() else {
        return Err(Reply::form_error(
            &format!("{path}.channel_types"),
            "BASE_TYPE_ARRAY",
            "Must be an array.",
        ));
    };
    for (i, t) in list.iter().enumerate() {
        if !t.as_u64().is_some_and(|t| CHANNEL_TYPES.contains(&t)) {
            return Err(Reply::form_error(
                &format!("{path}.channel_types.{i}"),
                "BASE_TYPE_CHOICES",
                &format!("Value must be one of {CHANNEL_TYPES:?}."),
            ));
        }
    }
    Ok(())
}

fn choices(o: &Value, kind: u64, path: &str) -> Result<(), Reply> {
    let list = o["choices"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let autocomplete = o["autocomplete"].as_bool().unwrap_or(false);
    if autocomplete && !list.is_empty() {
        return Err(Reply::form_error(
            &format!("{path}.autocomplete"),
            "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_AND_CHOICES",
            "Autocomplete cannot be set with choices",
        ));
    }
    if (autocomplete || !list.is_empty()) && !matches!(kind, 3 | 4 | 10) {
        return Err(Reply::form_error(
            path,
            "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
            "Only string, integer and number options can have choices or autocomplete",
        ));
    }
    if list.len() > 25 {
        return Err(too_long(&format!("{path}.choices"), 25));
    }
    for (i, c) in list.iter().enumerate() {
        let n = chars(&c["name"]);
        if n == 0 || n > 100 {
            return Err(Reply::form_error(
                &format!("{path}.choices.{i}.name"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        if chars(&c["value"]) > 100 {
            return Err(too_long(&format!("{path}.choices.{i}.value"), 100));
        }
        // A choice has a label in each language, no description.
        localizations(
            c,
            "name_localizations",
            &format!("{path}.choices.{i}"),
            Localised::Text,
        )?;
    }
    Ok(())
}

/// The result of an autocomplete interaction (callback type 8).
pub(crate) fn autocomplete_result(data: &Value) -> Result<(), Reply> {
    let list = data["choices"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    if list.len() > 25 {
        return Err(too_long("data.choices", 25));
    }
    for (i, c) in list.iter().enumerate() {
        let n = chars(&c["name"]);
        if n == 0 || n > 100 {
            return Err(Reply::form_error(
                &format!("data.choices.{i}.name"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        if chars(&c["value"]) > 100 {
            return Err(too_long(&format!("data.choices.{i}.value"), 100));
        }
        if c["value"].is_null() {
            return Err(required(&format!("data.choices.{i}.value")));
        }
    }
    Ok(())
}

/// A modal (callback type 9): custom id, title, 1 to 5 rows of text inputs.
pub(crate) fn modal(data: &Value) -> Result<(), Reply> {
    let id = chars(&data["custom_id"]);
    if id == 0 || id > 100 {
        return Err(required("data.custom_id"));
    }
    let title = chars(&data["title"]);
    if title == 0 || title > 45 {
        return Err(Reply::form_error(
            "data.title",
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 45 in length.",
        ));
    }
    let rows = data["components"].as_array().map_or(0, Vec::len);
    if rows == 0 || rows > 5 {
        return Err(Reply::form_error(
            "data.components",
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 5 in length.",
        ));
    }
    Ok(())
}

/// Whether the options given to a command fixture fit the registered command: known names,
/// the registered types, required options present (not for autocomplete), choices respected.
pub(crate) fn invocation(
    registered: &[Value],
    given: &[Value],
    autocomplete: bool,
    path: &str,
) -> Result<(), String> {
    let names: Vec<&str> = registered
        .iter()
        .filter_map(|o| o["name"].as_str())
        .collect();
    for g in given {
        let name = g["name"].as_str().unwrap_or_default();
        let Some(reg) = registered.iter().find(|r| r["name"].as_str() == Some(name)) else {
            return Err(format!(
                "{path}: no option named {name:?} (registered: {names:?})"
            ));
        };
        let (gk, rk) = (g["type"].as_u64(), reg["type"].as_u64());
        if gk != rk {
            return Err(format!(
                "{path} {name}: option type {gk:?} given, the command registered type {rk:?}"
            ));
        }
        let nested_reg = reg["options"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        let nested_given = g["options"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        match rk {
            Some(1 | 2) => invocation(
                nested_reg,
                nested_given,
                autocomplete,
                &format!("{path} {name}"),
            )?,
            _ if g["focused"].as_bool() == Some(true) => {}
            _ => {
                let choices = reg["choices"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                if !choices.is_empty() && !choices.iter().any(|c| c["value"] == g["value"]) {
                    return Err(format!(
                        "{path} {name}: value {} is not one of the registered choices {}",
                        g["value"],
                        Value::from(choices.to_vec())
                    ));
                }
                if let Some(s) = g["value"].as_str() {
                    let n = s.chars().count() as u64;
                    if reg["min_length"].as_u64().is_some_and(|m| n < m)
                        || reg["max_length"].as_u64().is_some_and(|m| n > m)
                    {
                        return Err(format!("{path} {name}: {s:?} has a length out of bounds"));
                    }
                }
                if let Some(x) = g["value"].as_f64() {
                    if reg["min_value"].as_f64().is_some_and(|m| x < m)
                        || reg["max_value"].as_f64().is_some_and(|m| x > m)
                    {
                        return Err(format!("{path} {name}: {x} is out of bounds"));
                    }
                }
            }
        }
    }
    let sub_level = registered
        .iter()
        .any(|r| matches!(r["type"].as_u64(), Some(1 | 2)));
    if sub_level && given.len() != 1 {
        return Err(format!(
            "{path}: exactly one sub-command must be given (registered: {names:?})"
        ));
    }
    if !autocomplete {
        for r in registered {
            let name = r["name"].as_str().unwrap_or_default();
            if r["required"].as_bool() == Some(true)
                && !given.iter().any(|g| g["name"].as_str() == Some(name))
            {
                return Err(format!("{path}: required option {name:?} missing"));
            }
        }
    }
    Ok(())
}
