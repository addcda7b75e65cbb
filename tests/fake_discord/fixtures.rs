//! Users, the JSON shapes of users, members and channels, and the event fixtures (interactions,
//! messages). Every fixture is checked against serenity's own types before it is returned.

use serde::de::DeserializeOwned;
use serde_json::{json, Map, Value};
use serenity::all::Permissions;

use super::{
    checks, FakeDiscord, InteractionState, APP_ID, BOT_USERNAME, BOT_USER_ID, GUILD_ID,
    OWNER_USER_ID,
};

/// A Discord user of the tests: id, username, display name (`global_name`) and, optionally, a
/// server nickname.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeUser {
    /// The user id.
    pub id: u64,
    /// The username (`username`).
    pub name: String,
    /// The display name (`global_name`).
    pub display: String,
    /// The server nickname (`member.nick`), if any.
    pub nick: Option<String>,
    /// The locale of the user's Discord client (`locale` of their interactions): `en-US`
    /// unless set.
    pub locale: String,
}

impl FakeUser {
    /// A user whose display name is its username.
    pub fn new(id: u64, name: &str) -> FakeUser {
        FakeUser {
            id,
            name: name.to_owned(),
            display: name.to_owned(),
            nick: None,
            locale: "en-US".to_owned(),
        }
    }

    /// The same user with another client locale (`ja` for a Japanese client).
    pub fn with_locale(mut self, locale: &str) -> FakeUser {
        self.locale = locale.to_owned();
        self
    }

    /// The same user with another display name (`global_name`).
    pub fn with_display(mut self, display: &str) -> FakeUser {
        self.display = display.to_owned();
        self
    }

    /// The same user with a server nickname.
    pub fn with_nick(mut self, nick: &str) -> FakeUser {
        self.nick = Some(nick.to_owned());
        self
    }

    /// `<@id>`.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }

    /// The user object (as in `author`, `resolved.users`, `member.user`).
    pub fn json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name,
            "global_name": self.display,
            "discriminator": "0",
            "avatar": null,
            "bot": false,
            "public_flags": 0,
            "avatar_decoration_data": null,
        })
    }
}

// ----- Options of command fixtures ---------------------------------------------------------

/// A string option (type 3).
pub fn opt_str(name: &str, value: &str) -> Value {
    json!({"name": name, "type": 3, "value": value})
}

/// An integer option (type 4).
pub fn opt_int(name: &str, value: i64) -> Value {
    json!({"name": name, "type": 4, "value": value})
}

/// A number option (type 10).
pub fn opt_num(name: &str, value: f64) -> Value {
    json!({"name": name, "type": 10, "value": value})
}

/// A boolean option (type 5).
pub fn opt_bool(name: &str, value: bool) -> Value {
    json!({"name": name, "type": 5, "value": value})
}

/// A user option (type 6); pass the user in `resolved_users` too.
pub fn opt_user(name: &str, user: &FakeUser) -> Value {
    json!({"name": name, "type": 6, "value": user.id.to_string()})
}

/// A channel option (type 7) naming a channel the fake knows ([`super::CHANNEL_ID`], one added
/// with [`FakeDiscord::add_text_channel`], a thread): the fixture puts it in `data.resolved.channels`
/// as Discord does.
pub fn opt_channel(name: &str, channel_id: u64) -> Value {
    json!({"name": name, "type": 7, "value": channel_id.to_string()})
}

/// A sub-command (type 1) with its options.
pub fn opt_sub(name: &str, options: Vec<Value>) -> Value {
    json!({"name": name, "type": 1, "options": options})
}

/// A sub-command group (type 2) with its sub-commands.
pub fn opt_group(name: &str, subs: Vec<Value>) -> Value {
    json!({"name": name, "type": 2, "options": subs})
}

/// The option being typed in an autocomplete interaction: its type (3 string, 4 integer, 10
/// number) and what the user has typed so far (always a string).
pub fn opt_focused(name: &str, kind: u8, partial: &str) -> Value {
    json!({"name": name, "type": kind, "value": partial, "focused": true})
}

// ----- JSON shapes -------------------------------------------------------------------------

/// The current time, RFC 3339.
pub(crate) fn now() -> String {
    serenity::model::Timestamp::now().to_string()
}

/// A snowflake written as a string or a number.
pub(crate) fn id_of(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// The server a dispatch is about: `d.id` of GUILD_CREATE, else `d.guild_id` (messages,
/// interactions, threads); `None` for a DM or an event of no server.
pub(crate) fn guild_of_event(name: &str, d: &Value) -> Option<u64> {
    match name {
        "GUILD_CREATE" | "GUILD_UPDATE" | "GUILD_DELETE" => id_of(&d["id"]),
        _ => id_of(&d["guild_id"]),
    }
}

/// An ordinary member's permissions.
pub(crate) fn default_member_permissions() -> u64 {
    (Permissions::VIEW_CHANNEL
        | Permissions::SEND_MESSAGES
        | Permissions::SEND_MESSAGES_IN_THREADS
        | Permissions::READ_MESSAGE_HISTORY
        | Permissions::ADD_REACTIONS
        | Permissions::ATTACH_FILES
        | Permissions::EMBED_LINKS
        | Permissions::USE_EXTERNAL_EMOJIS
        | Permissions::USE_APPLICATION_COMMANDS
        | Permissions::CREATE_PUBLIC_THREADS)
        .bits()
}

/// The bot's permissions by default: a member's plus managing threads and messages.
pub(crate) fn default_app_permissions() -> u64 {
    default_member_permissions()
        | (Permissions::MANAGE_THREADS
            | Permissions::MANAGE_MESSAGES
            | Permissions::CREATE_PRIVATE_THREADS)
            .bits()
}

/// The bot user as it appears in messages.
pub(crate) fn bot_user_json() -> Value {
    json!({
        "id": BOT_USER_ID.to_string(),
        "username": BOT_USERNAME,
        "global_name": null,
        "discriminator": "0",
        "avatar": null,
        "bot": true,
        "public_flags": 0,
    })
}

/// The bot user as `GET /users/@me` and READY give it.
pub(crate) fn current_user_json() -> Value {
    let mut u = bot_user_json();
    u["verified"] = json!(true);
    u["mfa_enabled"] = json!(false);
    u["flags"] = json!(0);
    u["email"] = Value::Null;
    u["locale"] = json!("en-US");
    u
}

/// The application owner.
pub(crate) fn owner_json() -> Value {
    FakeUser::new(OWNER_USER_ID, "owner").json()
}

/// A member without its user (`member` of a message, `resolved.members`).
pub(crate) fn partial_member_json(user: &FakeUser, permissions: Option<u64>) -> Value {
    let mut m = json!({
        "nick": user.nick,
        "avatar": null,
        "roles": [],
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "communication_disabled_until": null,
    });
    if let Some(p) = permissions {
        m["permissions"] = json!(p.to_string());
    }
    m
}

/// A full member (`member` of an interaction: with its user and its permissions).
pub(crate) fn member_json(user: &FakeUser, permissions: u64) -> Value {
    let mut m = partial_member_json(user, Some(permissions));
    m["user"] = user.json();
    m
}

/// A text channel of the test server.
pub(crate) fn text_channel_json(id: u64, name: &str) -> Value {
    text_channel_json_in(GUILD_ID, id, name)
}

/// A text channel of a server.
pub(crate) fn text_channel_json_in(guild_id: u64, id: u64, name: &str) -> Value {
    json!({
        "id": id.to_string(),
        "type": 0,
        "guild_id": guild_id.to_string(),
        "name": name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": false,
        "topic": null,
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "parent_id": null,
        "default_auto_archive_duration": 1440,
        "flags": 0,
    })
}

/// A server as GUILD_CREATE gives it: its `@everyone` role with an ordinary member's
/// permissions, the bot as its only member, and `channels` (without their threads).
pub(crate) fn guild_create_json(guild_id: u64, name: &str, channels: Vec<Value>) -> Value {
    let everyone = json!({
        "id": guild_id.to_string(),
        "name": "@everyone",
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": 0,
        "permissions": default_member_permissions().to_string(),
        "managed": false,
        "mentionable": false,
        "flags": 0,
    });
    let bot_member = json!({
        "user": bot_user_json(),
        "nick": null,
        "avatar": null,
        "roles": [],
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "communication_disabled_until": null,
    });
    let mut g = json!({
        "id": guild_id.to_string(),
        "name": name,
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": OWNER_USER_ID.to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "widget_enabled": false,
        "widget_channel_id": null,
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "roles": [everyone],
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "max_presences": null,
        "max_members": 500_000,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
        "incidents_data": null,
    });
    // What only GUILD_CREATE carries (in a second `json!`: one would be too deep a macro).
    let extra = json!({
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "large": false,
        "unavailable": false,
        "member_count": 1,
        "voice_states": [],
        "members": [bot_member],
        "channels": channels,
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
    });
    if let (Value::Object(g), Value::Object(extra)) = (&mut g, extra) {
        g.extend(extra);
    }
    check_event("GUILD_CREATE", &g);
    g
}

/// The partial channel of an interaction.
fn partial_channel_json(channel: &Value, permissions: u64) -> Value {
    let mut p = Map::new();
    for key in [
        "id",
        "type",
        "name",
        "guild_id",
        "parent_id",
        "thread_metadata",
        "nsfw",
    ] {
        if let Some(v) = channel.get(key) {
            p.insert(key.to_owned(), v.clone());
        }
    }
    if channel["type"].as_u64() != Some(1) {
        p.insert("permissions".to_owned(), json!(permissions.to_string()));
    }
    Value::Object(p)
}

/// Parses `value` as serenity's `T`.
pub(crate) fn parses<T: DeserializeOwned>(value: &Value) -> Result<T, String> {
    serde_json::from_value::<T>(value.clone()).map_err(|e| e.to_string())
}

/// Parses `value` as serenity's `T`, or panics showing the serde error and the JSON.
pub(crate) fn must_parse<T: DeserializeOwned>(what: &str, value: &Value) -> T {
    match parses::<T>(value) {
        Ok(t) => t,
        Err(e) => panic!(
            "fake discord: serenity cannot read this {what}: {e}\n{}",
            serde_json::to_string_pretty(value).unwrap_or_default()
        ),
    }
}

/// Panics unless serenity reads the dispatch `t`/`d` as a known event (it would otherwise
/// become an unknown event, logged at DEBUG only).
pub(crate) fn check_event(name: &str, d: &Value) {
    match name {
        "INTERACTION_CREATE" => {
            must_parse::<serenity::all::Interaction>("INTERACTION_CREATE", d);
        }
        "MESSAGE_CREATE" => {
            must_parse::<serenity::all::Message>("MESSAGE_CREATE", d);
        }
        "READY" => {
            must_parse::<serenity::all::Ready>("READY", d);
        }
        "GUILD_CREATE" => {
            must_parse::<serenity::all::GuildCreateEvent>("GUILD_CREATE", d);
        }
        _ => {}
    }
    let event = json!({"t": name, "d": d});
    match serde_json::from_value::<serenity::all::Event>(event) {
        Ok(serenity::all::Event::Unknown(_)) => panic!(
            "fake discord: serenity does not read this {name} as a known event (it would drop it):\n{}",
            serde_json::to_string_pretty(d).unwrap_or_default()
        ),
        Ok(_) => {}
        Err(e) => panic!("fake discord: serenity cannot read this {name}: {e}"),
    }
}

/// The `<@id>` and `<@!id>` mentions in a text, in order, without repeats.
pub(crate) fn mentioned_ids(content: &str) -> Vec<u64> {
    let mut ids = Vec::new();
    let mut rest = content;
    while let Some(start) = rest.find("<@") {
        rest = &rest[start + 2..];
        let body = rest.strip_prefix('!').unwrap_or(rest);
        let digits: String = body.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() && body[digits.len()..].starts_with('>') {
            if let Ok(id) = digits.parse() {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
    }
    ids
}

/// The type 6 option values (user ids) of an options tree.
fn user_option_ids(options: &[Value], out: &mut Vec<u64>) {
    for o in options {
        if o["type"].as_u64() == Some(6) && o["focused"].as_bool() != Some(true) {
            if let Some(id) = id_of(&o["value"]) {
                out.push(id);
            }
        }
        if let Some(nested) = o["options"].as_array() {
            user_option_ids(nested, out);
        }
    }
}

fn channel_option_ids(options: &[Value], out: &mut Vec<u64>) {
    for o in options {
        if o["type"].as_u64() == Some(7) && o["focused"].as_bool() != Some(true) {
            if let Some(id) = id_of(&o["value"]) {
                out.push(id);
            }
        }
        if let Some(nested) = o["options"].as_array() {
            channel_option_ids(nested, out);
        }
    }
}

fn focused_count(options: &[Value]) -> usize {
    options
        .iter()
        .map(|o| {
            usize::from(o["focused"].as_bool() == Some(true))
                + o["options"].as_array().map_or(0, |n| focused_count(n))
        })
        .sum()
}

/// A stable id for a command that was not registered.
fn unregistered_command_id(name: &str) -> u64 {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    1_050_000_000_000_000_000 + hash % 1_000_000_000_000_000
}

impl FakeDiscord {
    /// A slash command (INTERACTION_CREATE type 2) by `user` in [`super::CHANNEL_ID`]: `name`,
    /// `options` (a JSON array built with [`opt_str`], [`opt_user`], [`opt_sub`]…) and the users
    /// of user options, which appear in `data.resolved`. Returns the interaction id, its token and
    /// the event data for [`FakeDiscord::dispatch`]`("INTERACTION_CREATE", …)`.
    ///
    /// Once commands are registered, the command must be one of them and the options must fit
    /// its definition (names, types, required ones, choices), or this panics.
    pub fn slash_command(
        &self,
        user: &FakeUser,
        name: &str,
        options: Value,
        resolved_users: &[&FakeUser],
    ) -> (u64, String, Value) {
        self.slash_command_in(super::CHANNEL_ID, user, name, options, resolved_users)
    }

    /// [`Self::slash_command`] in another channel (a thread, a DM channel the bot opened, or a
    /// channel added with [`FakeDiscord::add_text_channel`]).
    pub fn slash_command_in(
        &self,
        channel_id: u64,
        user: &FakeUser,
        name: &str,
        options: Value,
        resolved_users: &[&FakeUser],
    ) -> (u64, String, Value) {
        let options = options_array("slash_command", options);
        assert_eq!(
            focused_count(&options),
            0,
            "fake discord: slash_command /{name}: no option can be focused (use autocomplete)"
        );
        let data = self.command_data(channel_id, name, options, resolved_users, false);
        self.interaction(2, user, channel_id, data, None)
    }

    /// An autocomplete interaction (type 4) by `user` in [`super::CHANNEL_ID`] for command
    /// `name`; exactly one option must be focused ([`opt_focused`]).
    pub fn autocomplete(
        &self,
        user: &FakeUser,
        name: &str,
        options: Value,
    ) -> (u64, String, Value) {
        self.autocomplete_in(super::CHANNEL_ID, user, name, options)
    }

    /// [`Self::autocomplete`] in another channel.
    pub fn autocomplete_in(
        &self,
        channel_id: u64,
        user: &FakeUser,
        name: &str,
        options: Value,
    ) -> (u64, String, Value) {
        let options = options_array("autocomplete", options);
        assert_eq!(
            focused_count(&options),
            1,
            "fake discord: autocomplete /{name}: exactly one option must be focused"
        );
        let data = self.command_data(channel_id, name, options, &[], true);
        self.interaction(4, user, channel_id, data, None)
    }

    /// A click by `user` on the button `custom_id` (type 3, component type 2) of a message the
    /// bot sent. `message` is that message: the stored message (`Recorded::created`,
    /// `Recorded::response`, [`FakeDiscord::message`]) or the JSON body of the request that
    /// sent it (`Recorded::json`); the click carries the message as currently stored. Panics if
    /// the message has no such button, or it is disabled.
    pub fn button_click(
        &self,
        user: &FakeUser,
        custom_id: &str,
        message: &Value,
    ) -> (u64, String, Value) {
        let message = self.resolve_message(message);
        let buttons = components_of(&message, 2);
        match buttons
            .iter()
            .find(|b| b["custom_id"].as_str() == Some(custom_id))
        {
            None => panic!(
                "fake discord: the message has no button {custom_id:?}; its buttons: {:?}",
                buttons
                    .iter()
                    .filter_map(|b| b["custom_id"].as_str())
                    .collect::<Vec<_>>()
            ),
            Some(b) if b["disabled"].as_bool() == Some(true) => {
                panic!("fake discord: button {custom_id:?} is disabled: nobody can click it")
            }
            Some(_) => {}
        }
        let channel_id = id_of(&message["channel_id"]).expect("message channel_id");
        let data = json!({"custom_id": custom_id, "component_type": 2});
        self.interaction(3, user, channel_id, data, Some(message))
    }

    /// A choice by `user` in the string select menu `custom_id` (component type 3) of a message
    /// the bot sent (see [`Self::button_click`] for `message`).
    pub fn select_menu(
        &self,
        user: &FakeUser,
        custom_id: &str,
        values: &[&str],
        message: &Value,
    ) -> (u64, String, Value) {
        let message = self.resolve_message(message);
        let menus = components_of(&message, 3);
        let Some(menu) = menus
            .iter()
            .find(|m| m["custom_id"].as_str() == Some(custom_id))
        else {
            panic!("fake discord: the message has no select menu {custom_id:?}");
        };
        for v in values {
            let known = menu["options"]
                .as_array()
                .is_some_and(|o| o.iter().any(|o| o["value"].as_str() == Some(v)));
            assert!(
                known,
                "fake discord: select menu {custom_id:?} has no option {v:?}"
            );
        }
        let channel_id = id_of(&message["channel_id"]).expect("message channel_id");
        let data = json!({"custom_id": custom_id, "component_type": 3, "values": values});
        self.interaction(3, user, channel_id, data, Some(message))
    }

    /// A MESSAGE_CREATE of `content` by `user` in a channel (the server's channel, a thread, a DM
    /// channel); `<@id>` mentions of known users and of the bot fill `mentions`. The message is
    /// stored, so the bot can reply to it or start a thread from it.
    pub fn message_create(&self, user: &FakeUser, channel_id: u64, content: &str) -> Value {
        self.message_create_with(user, channel_id, content, json!({}))
    }

    /// [`Self::message_create`] with extra fields merged over the message (`message_reference`,
    /// `attachments`, …).
    pub fn message_create_with(
        &self,
        user: &FakeUser,
        channel_id: u64,
        content: &str,
        extra: Value,
    ) -> Value {
        self.add_user(user);
        let id = self.snowflake();
        let mut st = self.shared.lock();
        let Some(channel) = st.channels.get(&channel_id).cloned() else {
            drop(st);
            panic!("fake discord: message_create: unknown channel {channel_id}");
        };
        let guild_id = id_of(&channel["guild_id"]);
        let mentions: Vec<Value> = mentioned_ids(content)
            .into_iter()
            .filter_map(|id| {
                let mut u = if id == BOT_USER_ID {
                    bot_user_json()
                } else {
                    st.users.get(&id)?.json()
                };
                if guild_id.is_some() && id != BOT_USER_ID {
                    u["member"] = partial_member_json(st.users.get(&id)?, None);
                }
                Some(u)
            })
            .collect();
        let mut m = json!({
            "id": id.to_string(),
            "channel_id": channel_id.to_string(),
            "author": user.json(),
            "content": content,
            "timestamp": now(),
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": mentions,
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": false,
            "type": 0,
            "flags": 0,
            "components": [],
        });
        if let Some(g) = guild_id {
            m["guild_id"] = json!(g.to_string());
            m["member"] = partial_member_json(user, None);
        }
        if let (Value::Object(m), Value::Object(extra)) = (&mut m, extra) {
            m.extend(extra);
        }
        st.messages.insert(id, m.clone());
        st.channel_messages.entry(channel_id).or_default().push(id);
        if let Some(c) = st.channels.get_mut(&channel_id) {
            c["last_message_id"] = json!(id.to_string());
        }
        drop(st);
        must_parse::<serenity::all::Message>("MESSAGE_CREATE fixture", &m);
        m
    }

    /// [`Self::message_create`] by a member of the server holding `roles` (the message's
    /// `member.roles`, as Discord sends them with every message in a server).
    pub fn message_create_with_roles(
        &self,
        user: &FakeUser,
        channel_id: u64,
        content: &str,
        roles: &[u64],
    ) -> Value {
        let mut member = partial_member_json(user, None);
        member["roles"] = json!(roles.iter().map(u64::to_string).collect::<Vec<_>>());
        self.message_create_with(user, channel_id, content, json!({ "member": member }))
    }

    /// The GUILD_CREATE of the test server ([`GUILD_ID`], owned by [`OWNER_USER_ID`], with its
    /// channel [`super::CHANNEL_ID`]) with `roles` (id, permission bits) beside `@everyone`:
    /// what a bot without the Guild Members intent learns of the server's roles.
    pub fn guild_create_with_roles(&self, roles: &[(u64, u64)]) -> Value {
        let channels = vec![text_channel_json(super::CHANNEL_ID, "games")];
        let mut g = guild_create_json(GUILD_ID, "tests", channels);
        let everyone = g["roles"][0].clone();
        if let Some(list) = g["roles"].as_array_mut() {
            for (i, (id, bits)) in roles.iter().enumerate() {
                let mut r = everyone.clone();
                r["id"] = json!(id.to_string());
                r["name"] = json!(format!("role-{id}"));
                r["position"] = json!(i + 1);
                r["permissions"] = json!(bits.to_string());
                list.push(r);
            }
        }
        check_event("GUILD_CREATE", &g);
        g
    }

    /// A MESSAGE_CREATE by `user` with a file attached (served by the fake at the attachment's
    /// `url`).
    pub fn message_create_with_file(
        &self,
        user: &FakeUser,
        channel_id: u64,
        content: &str,
        filename: &str,
        bytes: &[u8],
    ) -> Value {
        let id = self.snowflake();
        let url = format!(
            "{}/attachments/{channel_id}/{id}/{filename}",
            self.api_base()
        );
        self.shared
            .lock()
            .attachment_files
            .insert(id, bytes.to_vec());
        let attachment = json!({
            "id": id.to_string(),
            "filename": filename,
            "size": bytes.len(),
            "url": url,
            "proxy_url": url,
            "content_type": super::messages::guess_content_type(filename),
        });
        self.message_create_with(
            user,
            channel_id,
            content,
            json!({"attachments": [attachment]}),
        )
    }

    /// The message a component fixture is about, as currently stored.
    fn resolve_message(&self, message: &Value) -> Value {
        let mut st = self.shared.lock();
        let full = message.get("author").is_some() && message.get("channel_id").is_some();
        if let (true, Some(id)) = (full, id_of(&message["id"])) {
            if st.deleted_messages.contains(&id) {
                drop(st);
                panic!("fake discord: message {id} was deleted");
            }
            if let Some(stored) = st.messages.get(&id) {
                return stored.clone();
            }
            let channel = id_of(&message["channel_id"]).unwrap_or_default();
            st.messages.insert(id, message.clone());
            st.channel_messages.entry(channel).or_default().push(id);
            return message.clone();
        }
        let found = st
            .calls
            .iter()
            .rev()
            .filter(|c| c.json.as_ref() == Some(message))
            .find_map(|c| c.message().and_then(|m| id_of(&m["id"])));
        let current = found.and_then(|id| {
            (!st.deleted_messages.contains(&id))
                .then(|| st.messages.get(&id).cloned())
                .flatten()
        });
        drop(st);
        current.unwrap_or_else(|| {
            panic!(
                "fake discord: cannot tell which message this is (give the stored message, or the \
                 JSON body of a request that sent it):\n{message}"
            )
        })
    }

    fn command_data(
        &self,
        channel_id: u64,
        name: &str,
        options: Vec<Value>,
        resolved_users: &[&FakeUser],
        autocomplete: bool,
    ) -> Value {
        for u in resolved_users {
            self.add_user(u);
        }
        let registered = self.registered_commands();
        let chat: Vec<&Value> = registered
            .iter()
            .filter(|c| c["type"].as_u64().unwrap_or(1) == 1)
            .collect();
        let command = chat.iter().find(|c| c["name"].as_str() == Some(name));
        if !chat.is_empty() {
            let Some(command) = command else {
                panic!(
                    "fake discord: /{name} is not a registered command (registered: {:?})",
                    chat.iter()
                        .filter_map(|c| c["name"].as_str())
                        .collect::<Vec<_>>()
                );
            };
            let reg_opts = command["options"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default();
            if let Err(e) =
                checks::invocation(reg_opts, &options, autocomplete, &format!("/{name}"))
            {
                panic!("fake discord: the options do not fit the registered command: {e}");
            }
        }
        let command_id = command
            .and_then(|c| id_of(&c["id"]))
            .unwrap_or_else(|| unregistered_command_id(name));
        let guild_id = self.channel(channel_id).and_then(|c| id_of(&c["guild_id"]));

        let mut wanted = Vec::new();
        user_option_ids(&options, &mut wanted);
        let mut users = Map::new();
        let mut members = Map::new();
        for id in wanted {
            let Some(u) = resolved_users.iter().find(|u| u.id == id) else {
                panic!("fake discord: /{name}: user option {id} is not among resolved_users");
            };
            users.insert(id.to_string(), u.json());
            if guild_id.is_some() {
                let perms = self.member_permissions(u.id);
                members.insert(id.to_string(), partial_member_json(u, Some(perms)));
            }
        }
        let mut data = json!({
            "id": command_id.to_string(),
            "name": name,
            "type": 1,
            "options": options,
        });
        if let Some(g) = command
            .and_then(|c| c.get("guild_id"))
            .filter(|g| !g.is_null())
        {
            data["guild_id"] = g.clone();
        }
        if !users.is_empty() {
            data["resolved"] = json!({"users": users, "members": members});
        }
        // Channel options: the partial channel Discord resolves (id, name, type, an ordinary
        // member's permissions there; a thread's parent and metadata).
        let mut wanted = Vec::new();
        channel_option_ids(&options, &mut wanted);
        let mut channels = Map::new();
        for id in wanted {
            let Some(ch) = self.channel(id) else {
                panic!(
                    "fake discord: /{name}: channel option {id} is not a channel the fake knows"
                );
            };
            channels.insert(
                id.to_string(),
                partial_channel_json(&ch, default_member_permissions()),
            );
        }
        if !channels.is_empty() {
            if data.get("resolved").is_none() {
                data["resolved"] = json!({});
            }
            data["resolved"]["channels"] = Value::Object(channels);
        }
        data
    }

    fn member_permissions(&self, user_id: u64) -> u64 {
        self.shared
            .lock()
            .member_permissions
            .get(&user_id)
            .copied()
            .unwrap_or_else(default_member_permissions)
    }

    /// Builds, records and checks an interaction of `kind` (2, 3, 4).
    fn interaction(
        &self,
        kind: u8,
        user: &FakeUser,
        channel_id: u64,
        data: Value,
        message: Option<Value>,
    ) -> (u64, String, Value) {
        self.add_user(user);
        let Some(channel) = self.channel(channel_id) else {
            panic!(
                "fake discord: unknown channel {channel_id} (use CHANNEL_ID, a thread or DM the \
                 bot opened, or add_text_channel)"
            );
        };
        let id = self.snowflake();
        let token = format!("fake-interaction-token-{id}");
        let perms = self.member_permissions(user.id);
        let (app_perms, upload_limit) = {
            let st = self.shared.lock();
            (st.app_permissions_in(channel_id), st.upload_limit)
        };
        let guild_id = id_of(&channel["guild_id"]);
        let mut v = json!({
            "id": id.to_string(),
            "application_id": APP_ID.to_string(),
            "type": kind,
            "data": data,
            "channel_id": channel_id.to_string(),
            "channel": partial_channel_json(&channel, app_perms),
            "token": token,
            "version": 1,
            "locale": user.locale,
            "entitlements": [],
            "attachment_size_limit": upload_limit,
            "app_permissions": app_perms.to_string(),
        });
        match guild_id {
            Some(g) => {
                v["guild_id"] = json!(g.to_string());
                v["guild_locale"] = json!("en-US");
                v["member"] = member_json(user, perms);
                v["authorizing_integration_owners"] = json!({"0": g.to_string()});
                v["context"] = json!(0);
            }
            None => {
                v["user"] = user.json();
                v["authorizing_integration_owners"] = json!({"0": "0"});
                v["context"] = json!(1);
            }
        }
        let component_message = message.as_ref().and_then(|m| id_of(&m["id"]));
        if let Some(m) = message {
            v["message"] = m;
        }
        must_parse::<serenity::all::Interaction>("interaction fixture", &v);
        let mut st = self.shared.lock();
        st.interaction_tokens.insert(id, token.clone());
        st.interactions.insert(
            token.clone(),
            InteractionState {
                id,
                token: token.clone(),
                kind,
                channel_id,
                guild_id,
                user_id: user.id,
                component_message,
                dispatched_at: None,
                ack: None,
                original: None,
                deferred_pending: false,
                followups: Vec::new(),
            },
        );
        (id, token, v)
    }
}

fn options_array(what: &str, options: Value) -> Vec<Value> {
    match options {
        Value::Null => Vec::new(),
        Value::Array(a) => a,
        other => panic!("fake discord: {what}: options must be a JSON array, not {other}"),
    }
}

/// The components of a given type in a message's action rows.
fn components_of(message: &Value, kind: u64) -> Vec<Value> {
    message["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["type"].as_u64() == Some(kind))
        .collect()
}
