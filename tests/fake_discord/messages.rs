//! Messages the bot sends or edits, built the way Discord answers them: a fresh snowflake, the
//! bot as author, attachments for the uploaded files (with a URL the fake serves), mentions,
//! replies; and edits with Discord's rule on attachments (a request that carries `attachments`
//! keeps only the ones it lists).

use serde_json::{json, Value};

use super::fixtures::{self, id_of};
use super::rest::Reply;
use super::{checks, RecordedFile, Shared, State, APP_ID, BOT_USER_ID};

/// Message flags the fake cares about.
pub(crate) const EPHEMERAL: u64 = 1 << 6;
pub(crate) const LOADING: u64 = 1 << 7;
const SUPPRESS_EMBEDS: u64 = 1 << 2;
const SUPPRESS_NOTIFICATIONS: u64 = 1 << 12;

/// How a message is sent.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Via {
    /// `POST /channels/{id}/messages`.
    Channel,
    /// The original response to an interaction of this kind (2 command, 3 component).
    Reply { kind: u8 },
    /// A follow-up of an interaction.
    Followup,
}

/// A content type for a file name, the way Discord guesses it.
pub(crate) fn guess_content_type(filename: &str) -> Option<&'static str> {
    let ext = filename.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "gif" => "image/gif",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "txt" | "kif" | "kifu" | "csa" | "sfen" | "pgn" => "text/plain; charset=utf-8",
        "json" => "application/json",
        _ => return None,
    })
}

/// Width and height of a PNG or GIF.
fn image_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() >= 24 && bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        let w = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
        let h = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
        return Some((w, h));
    }
    if bytes.len() >= 10 && (bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a")) {
        let w = u16::from_le_bytes([bytes[6], bytes[7]]);
        let h = u16::from_le_bytes([bytes[8], bytes[9]]);
        return Some((u32::from(w), u32::from(h)));
    }
    None
}

fn new_attachment(
    shared: &Shared,
    st: &mut State,
    channel_id: u64,
    file: &RecordedFile,
    meta: &Value,
    ephemeral: bool,
) -> Value {
    let id = shared.snowflake();
    let filename = meta["filename"]
        .as_str()
        .unwrap_or(&file.filename)
        .replace(' ', "_");
    let url = format!("{}/attachments/{channel_id}/{id}/{filename}", shared.base);
    let content_type = file
        .content_type
        .clone()
        .filter(|c| c != "application/octet-stream")
        .or_else(|| guess_content_type(&filename).map(str::to_owned));
    let mut a = json!({
        "id": id.to_string(),
        "filename": filename,
        "size": file.bytes.len(),
        "url": url,
        "proxy_url": url,
        "content_type": content_type,
    });
    if let Some((w, h)) = image_size(&file.bytes) {
        a["width"] = json!(w);
        a["height"] = json!(h);
    }
    if let Some(d) = meta["description"].as_str() {
        a["description"] = json!(d);
    }
    if ephemeral {
        a["ephemeral"] = json!(true);
    }
    st.attachment_files.insert(id, file.bytes.clone());
    a
}

/// The attachments of a message from a request: the entries of `attachments` (new files by
/// placeholder id `files[N]`, existing attachments by id) and then any file not listed.
fn attachments(
    shared: &Shared,
    st: &mut State,
    channel_id: u64,
    payload: &Value,
    files: &[RecordedFile],
    existing: &[Value],
    ephemeral: bool,
) -> Result<Vec<Value>, Reply> {
    let mut out = Vec::new();
    let mut used = vec![false; files.len()];
    for (i, entry) in payload["attachments"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let eid = id_of(&entry["id"]);
        let file = eid.and_then(|n| files.iter().position(|f| f.field == format!("files[{n}]")));
        if let Some(fi) = file {
            used[fi] = true;
            out.push(new_attachment(
                shared, st, channel_id, &files[fi], entry, ephemeral,
            ));
        } else if let Some(old) = existing
            .iter()
            .find(|a| eid.is_some() && id_of(&a["id"]) == eid)
        {
            out.push(old.clone());
        } else {
            return Err(Reply::form_error(
                &format!("attachments.{i}.id"),
                "ATTACHMENT_NOT_FOUND",
                "Unknown attachment: neither an uploaded files[N] nor an attachment of the message",
            ));
        }
    }
    for (fi, file) in files.iter().enumerate() {
        if !used[fi] {
            out.push(new_attachment(
                shared,
                st,
                channel_id,
                file,
                &json!({}),
                ephemeral,
            ));
        }
    }
    Ok(out)
}

/// The `mentions` of a message: the users mentioned in the content that `allowed_mentions`
/// lets through (all when absent).
fn mentions(st: &State, content: &str, allowed: &Value) -> Vec<Value> {
    let allowed_ids: Option<Vec<u64>> = if allowed.is_object() {
        let parse_users = allowed["parse"]
            .as_array()
            .is_some_and(|p| p.iter().any(|x| x == "users"));
        if parse_users {
            None
        } else {
            Some(
                allowed["users"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(id_of)
                    .collect(),
            )
        }
    } else {
        None
    };
    fixtures::mentioned_ids(content)
        .into_iter()
        .filter(|id| allowed_ids.as_ref().is_none_or(|a| a.contains(id)))
        .filter_map(|id| {
            if id == BOT_USER_ID {
                Some(fixtures::bot_user_json())
            } else {
                st.users.get(&id).map(super::FakeUser::json)
            }
        })
        .collect()
}

fn embeds(v: &Value) -> Value {
    let list = v.as_array().cloned().unwrap_or_default();
    Value::from(
        list.into_iter()
            .map(|mut e| {
                if e.get("type").is_none() {
                    e["type"] = json!("rich");
                }
                e
            })
            .collect::<Vec<_>>(),
    )
}

fn base(id: u64, channel_id: u64, via: Via) -> Value {
    let mut m = json!({
        "id": id.to_string(),
        "channel_id": channel_id.to_string(),
        "author": fixtures::bot_user_json(),
        "content": "",
        "timestamp": fixtures::now(),
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": false,
        "type": 0,
        "flags": 0,
        "components": [],
    });
    match via {
        Via::Channel => {}
        Via::Reply { kind } => {
            m["type"] = json!(if kind == 2 { 20 } else { 0 });
            m["webhook_id"] = json!(APP_ID.to_string());
            m["application_id"] = json!(APP_ID.to_string());
        }
        Via::Followup => {
            m["webhook_id"] = json!(APP_ID.to_string());
            m["application_id"] = json!(APP_ID.to_string());
        }
    }
    m
}

/// A new message from the bot in `channel_id`.
pub(crate) fn create(
    shared: &Shared,
    st: &mut State,
    channel_id: u64,
    payload: &Value,
    files: &[RecordedFile],
    via: Via,
) -> Result<Value, Reply> {
    checks::message_payload(payload, files.len(), true)?;
    let mut m = base(shared.snowflake(), channel_id, via);
    let allowed = SUPPRESS_EMBEDS
        | SUPPRESS_NOTIFICATIONS
        | if matches!(via, Via::Channel) {
            0
        } else {
            EPHEMERAL
        };
    let flags = payload["flags"].as_u64().unwrap_or(0) & allowed;
    fill(shared, st, &mut m, channel_id, payload, files, flags)?;
    reference(st, &mut m, channel_id, payload)?;
    store(st, m, true)
}

/// The "thinking…" placeholder of a deferred interaction response.
pub(crate) fn placeholder(
    shared: &Shared,
    st: &mut State,
    channel_id: u64,
    kind: u8,
    ephemeral: bool,
) -> Result<Value, Reply> {
    let mut m = base(shared.snowflake(), channel_id, Via::Reply { kind });
    m["flags"] = json!(LOADING | if ephemeral { EPHEMERAL } else { 0 });
    store(st, m, false)
}

/// Fills a deferred placeholder with the first reply (it becomes visible then).
pub(crate) fn fill_placeholder(
    shared: &Shared,
    st: &mut State,
    id: u64,
    payload: &Value,
    files: &[RecordedFile],
) -> Result<Value, Reply> {
    checks::message_payload(payload, files.len(), true)?;
    let mut m = current(st, id)?;
    let channel_id = id_of(&m["channel_id"]).unwrap_or_default();
    let flags = m["flags"].as_u64().unwrap_or(0) & EPHEMERAL
        | payload["flags"].as_u64().unwrap_or(0) & (SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS);
    fill(shared, st, &mut m, channel_id, payload, files, flags)?;
    store(st, m, true)
}

fn fill(
    shared: &Shared,
    st: &mut State,
    m: &mut Value,
    channel_id: u64,
    payload: &Value,
    files: &[RecordedFile],
    flags: u64,
) -> Result<(), Reply> {
    let ephemeral = flags & EPHEMERAL != 0;
    let content = payload["content"].as_str().unwrap_or_default();
    m["attachments"] = Value::from(attachments(
        shared,
        st,
        channel_id,
        payload,
        files,
        &[],
        ephemeral,
    )?);
    m["content"] = json!(content);
    m["mentions"] = Value::from(mentions(st, content, &payload["allowed_mentions"]));
    m["embeds"] = embeds(&payload["embeds"]);
    m["components"] = payload["components"]
        .as_array()
        .map_or(json!([]), |c| json!(c));
    m["tts"] = json!(payload["tts"].as_bool().unwrap_or(false));
    m["flags"] = json!(flags);
    Ok(())
}

/// A reply (`message_reference`): the message must exist in the same channel.
fn reference(st: &State, m: &mut Value, channel_id: u64, payload: &Value) -> Result<(), Reply> {
    let r = &payload["message_reference"];
    if !r.is_object() {
        return Ok(());
    }
    let mid = id_of(&r["message_id"]);
    let rch = id_of(&r["channel_id"]).unwrap_or(channel_id);
    let referenced = mid
        .filter(|id| !st.deleted_messages.contains(id))
        .and_then(|id| st.messages.get(&id))
        .filter(|msg| id_of(&msg["channel_id"]) == Some(channel_id));
    if rch != channel_id {
        return Err(Reply::form_error(
            "message_reference",
            "REPLIES_CANNOT_REFERENCE_OTHER_CHANNEL",
            "Cannot reply to a message in another channel",
        ));
    }
    if referenced.is_none() && r["fail_if_not_exists"].as_bool() != Some(false) {
        return Err(Reply::form_error(
            "message_reference",
            "REPLIES_UNKNOWN_MESSAGE",
            "Unknown message",
        ));
    }
    let guild = st
        .channels
        .get(&channel_id)
        .map_or(Value::Null, |c| c["guild_id"].clone());
    m["message_reference"] = json!({
        "type": 0,
        "message_id": mid.map(|id| id.to_string()),
        "channel_id": channel_id.to_string(),
        "guild_id": guild,
    });
    if let Some(referenced) = referenced {
        let mut r = referenced.clone();
        if let Some(o) = r.as_object_mut() {
            o.remove("referenced_message");
        }
        m["referenced_message"] = r;
        m["type"] = json!(19);
    }
    Ok(())
}

/// A stored, not deleted message.
pub(crate) fn current(st: &State, id: u64) -> Result<Value, Reply> {
    if st.deleted_messages.contains(&id) {
        return Err(Reply::error(404, 10008, "Unknown Message"));
    }
    st.messages
        .get(&id)
        .cloned()
        .ok_or_else(|| Reply::error(404, 10008, "Unknown Message"))
}

/// An edit of a stored message (by the bot): only the fields present change; `attachments`,
/// when present, lists the attachments kept (new files included).
pub(crate) fn edit(
    shared: &Shared,
    st: &mut State,
    id: u64,
    payload: &Value,
    files: &[RecordedFile],
) -> Result<Value, Reply> {
    let mut m = current(st, id)?;
    if fixtures::id_of(&m["author"]["id"]) != Some(BOT_USER_ID) {
        return Err(Reply::error(
            403,
            50005,
            "Cannot edit a message authored by another user",
        ));
    }
    checks::message_payload(payload, files.len(), false)?;
    let channel_id = id_of(&m["channel_id"]).unwrap_or_default();
    let old_flags = m["flags"].as_u64().unwrap_or(0);
    let ephemeral = old_flags & EPHEMERAL != 0;
    if let Some(c) = payload.get("content") {
        let content = c.as_str().unwrap_or_default();
        m["content"] = json!(content);
        m["mentions"] = Value::from(mentions(st, content, &payload["allowed_mentions"]));
    }
    if let Some(e) = payload.get("embeds") {
        m["embeds"] = embeds(e);
    }
    if let Some(c) = payload.get("components") {
        m["components"] = c.as_array().map_or(json!([]), |c| json!(c));
    }
    if let Some(f) = payload["flags"].as_u64() {
        m["flags"] = json!(old_flags & !SUPPRESS_EMBEDS | f & SUPPRESS_EMBEDS);
    }
    let existing = m["attachments"].as_array().cloned().unwrap_or_default();
    if payload.get("attachments").is_some_and(|a| !a.is_null()) {
        let list = attachments(shared, st, channel_id, payload, files, &existing, ephemeral)?;
        m["attachments"] = Value::from(list);
    } else if !files.is_empty() {
        let mut list = existing;
        list.extend(attachments(
            shared,
            st,
            channel_id,
            &json!({}),
            files,
            &[],
            ephemeral,
        )?);
        m["attachments"] = Value::from(list);
    }
    if old_flags & LOADING != 0 {
        m["flags"] = json!(m["flags"].as_u64().unwrap_or(0) & !LOADING);
    } else {
        m["edited_timestamp"] = json!(fixtures::now());
    }
    let empty = |k: &str| m[k].as_array().is_none_or(Vec::is_empty);
    if m["content"].as_str().is_none_or(|c| c.trim().is_empty())
        && empty("embeds")
        && empty("attachments")
        && empty("components")
    {
        return Err(Reply::error(400, 50006, "Cannot send an empty message"));
    }
    let newly_visible = old_flags & LOADING != 0;
    store(st, m, newly_visible)
}

/// Deletes a stored message.
pub(crate) fn delete(st: &mut State, id: u64) -> Result<(), Reply> {
    current(st, id)?;
    st.deleted_messages.insert(id);
    Ok(())
}

/// Checks the message with serenity's type and stores it; `new` also lists it in its channel.
fn store(st: &mut State, m: Value, new: bool) -> Result<Value, Reply> {
    if let Err(e) = fixtures::parses::<serenity::all::Message>(&m) {
        let problem = format!("built a message serenity cannot read: {e}: {m}");
        st.problems.push(problem.clone());
        return Err(Reply::error(500, 0, &format!("fake discord: {problem}")));
    }
    let id = id_of(&m["id"]).unwrap_or_default();
    let channel_id = id_of(&m["channel_id"]).unwrap_or_default();
    let listed = st
        .channel_messages
        .get(&channel_id)
        .is_some_and(|l| l.contains(&id));
    if new && !listed {
        st.channel_messages.entry(channel_id).or_default().push(id);
        if let Some(c) = st.channels.get_mut(&channel_id) {
            c["last_message_id"] = json!(id.to_string());
            if c.get("thread_metadata").is_some() {
                for key in ["message_count", "total_message_sent"] {
                    c[key] = json!(c[key].as_u64().unwrap_or(0) + 1);
                }
            }
        }
    }
    st.messages.insert(id, m.clone());
    Ok(m)
}
