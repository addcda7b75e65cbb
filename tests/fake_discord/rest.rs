//! The REST API under `/api/v10/...`: one handler that reads the body (JSON, or multipart with
//! `payload_json` and `files[N]`), applies injected faults, routes by method and path segments,
//! and records the call with its answer. Routes it does not know get a 404 and are listed as
//! unknown.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{FromRequest, Multipart, Request, State as AxumState};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Map, Value};

use super::fixtures::{self, id_of};
use super::messages::{self, Via, EPHEMERAL};
use super::{
    checks, FakeUser, Recorded, RecordedFile, Shared, State, APP_ID, BOT_USERNAME, BOT_USER_ID,
};

/// An answer: status and optional JSON body.
#[derive(Clone, Debug)]
pub(crate) struct Reply {
    pub status: u16,
    pub body: Option<Value>,
}

impl Reply {
    /// 200 with a JSON body.
    pub fn json(body: Value) -> Reply {
        Reply {
            status: 200,
            body: Some(body),
        }
    }

    /// 204 without a body.
    pub fn no_content() -> Reply {
        Reply {
            status: 204,
            body: None,
        }
    }

    /// A Discord JSON error: `{"code", "message"}`.
    pub fn error(status: u16, code: u64, message: &str) -> Reply {
        Reply {
            status,
            body: Some(json!({"code": code, "message": message})),
        }
    }

    /// A 400 "Invalid Form Body" (code 50035) with one error at a dotted `path`.
    pub fn form_error(path: &str, code: &str, message: &str) -> Reply {
        let mut errors = json!({"_errors": [{"code": code, "message": message}]});
        for key in path.split('.').filter(|k| !k.is_empty()).rev() {
            errors = json!({ key: errors });
        }
        Reply {
            status: 400,
            body: Some(json!({"code": 50035, "message": "Invalid Form Body", "errors": errors})),
        }
    }

    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        match self.body {
            Some(body) => (
                status,
                [(header::CONTENT_TYPE, "application/json")],
                body.to_string(),
            )
                .into_response(),
            None => status.into_response(),
        }
    }
}

/// A routed request's answer and the message it created or edited.
struct Outcome {
    reply: Reply,
    created: Option<Value>,
    edited: Option<Value>,
}

impl From<Reply> for Outcome {
    fn from(reply: Reply) -> Outcome {
        Outcome {
            reply,
            created: None,
            edited: None,
        }
    }
}

fn created(m: Value) -> Outcome {
    Outcome {
        reply: Reply::json(m.clone()),
        created: Some(m),
        edited: None,
    }
}

fn edited(m: Value) -> Outcome {
    Outcome {
        reply: Reply::json(m.clone()),
        created: None,
        edited: Some(m),
    }
}

/// A request as the router sees it.
struct Req {
    method: String,
    path: String,
    query: Option<String>,
    json: Option<Value>,
    files: Vec<RecordedFile>,
}

impl Req {
    fn body(&self) -> Value {
        self.json.clone().unwrap_or_else(|| json!({}))
    }

    fn param(&self, key: &str) -> Option<&str> {
        self.query
            .as_deref()?
            .split('&')
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
    }
}

type Body = (Option<Value>, Vec<RecordedFile>);

async fn read_multipart(req: Request) -> Result<Body, String> {
    let mut form = Multipart::from_request(req, &())
        .await
        .map_err(|e| format!("multipart: {e}"))?;
    let mut json = None;
    let mut fields = Map::new();
    let mut files = Vec::new();
    while let Some(field) = form
        .next_field()
        .await
        .map_err(|e| format!("multipart: {e}"))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        let filename = field.file_name().map(str::to_owned);
        let content_type = field.content_type().map(str::to_owned);
        let bytes = field.bytes().await.map_err(|e| format!("multipart: {e}"))?;
        if name == "payload_json" {
            let v = serde_json::from_slice(&bytes).map_err(|e| format!("payload_json: {e}"))?;
            json = Some(v);
        } else if let Some(filename) = filename {
            files.push(RecordedFile {
                field: name,
                filename,
                content_type,
                bytes: bytes.to_vec(),
            });
        } else {
            fields.insert(name, json!(String::from_utf8_lossy(&bytes)));
        }
    }
    if json.is_none() && !fields.is_empty() {
        json = Some(Value::Object(fields));
    }
    Ok((json, files))
}

async fn read_json(req: Request) -> Result<Body, String> {
    let bytes = axum::body::to_bytes(req.into_body(), 64 << 20)
        .await
        .map_err(|e| format!("body: {e}"))?;
    if bytes.is_empty() {
        return Ok((None, Vec::new()));
    }
    let v = serde_json::from_slice(&bytes).map_err(|e| format!("JSON body: {e}"))?;
    Ok((Some(v), Vec::new()))
}

fn take_fault<T: Clone>(list: &mut Vec<(super::Fault, T)>, method: &str, path: &str) -> Option<T> {
    let i = list.iter().position(|(f, _)| f.matches(method, path))?;
    Some(list.remove(i).1)
}

fn injected_error(status: u16) -> Reply {
    if status == 429 {
        return Reply {
            status,
            body: Some(json!({
                "message": "You are being rate limited.",
                "retry_after": 0.05,
                "global": false,
                "code": 0,
            })),
        };
    }
    Reply::error(
        status,
        0,
        &format!("fake discord: injected failure ({status})"),
    )
}

/// The fallback handler: every request that is not the gateway.
pub(crate) async fn handle(AxumState(shared): AxumState<Arc<Shared>>, req: Request) -> Response {
    let method = req.method().as_str().to_ascii_uppercase();
    let path = req.uri().path().to_owned();
    let query = req.uri().query().map(str::to_owned);
    let auth = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let body = if multipart {
        read_multipart(req).await
    } else {
        read_json(req).await
    };

    let delay = take_fault(&mut shared.lock().delays, &method, &path);
    if let Some(delay) = delay {
        tokio::time::sleep(delay).await;
    }
    let hold = take_fault(&mut shared.lock().holds, &method, &path);
    if let Some(hold) = hold {
        hold.hold(&path).await;
    }

    if method == "GET" && path.starts_with("/attachments/") {
        return attachment(&shared, &method, &path, query, auth);
    }

    let (json, files, body_error) = match body {
        Ok((json, files)) => (json, files, None),
        Err(e) => (None, Vec::new(), Some(e)),
    };
    let req = Req {
        method,
        path,
        query,
        json,
        files,
    };
    let mut injected = false;
    let outcome = {
        let mut st = shared.lock();
        let uploaded: usize = req.files.iter().map(|f| f.bytes.len()).sum();
        if needs_bot_token(&req.path) && !st.token_ok(auth.as_deref()) {
            Outcome::from(Reply::error(401, 0, "401: Unauthorized"))
        } else if let Some(status) = take_fault(&mut st.failures, &req.method, &req.path) {
            injected = true;
            Outcome::from(injected_error(status))
        } else if uploaded > st.upload_limit {
            // Discord refuses the whole request: nothing is posted.
            Outcome::from(Reply::error(413, 40005, "Request entity too large"))
        } else if let Some(e) = body_error {
            Outcome::from(Reply::error(
                400,
                50109,
                &format!("The request body contains invalid JSON. ({e})"),
            ))
        } else {
            match route(&shared, &mut st, &req) {
                Some(Ok(outcome)) => outcome,
                Some(Err(reply)) => Outcome::from(reply),
                None => {
                    st.unknown.push(format!("{} {}", req.method, req.path));
                    Outcome::from(Reply::error(
                        404,
                        0,
                        &format!("fake discord: unknown route {} {}", req.method, req.path),
                    ))
                }
            }
        }
    };
    shared.record(Recorded {
        method: req.method,
        path: req.path,
        query: req.query,
        json: req.json,
        files: req.files,
        status: outcome.reply.status,
        at: Instant::now(),
        response: outcome.reply.body.clone(),
        created: outcome.created,
        edited: outcome.edited,
        injected,
        auth,
    });
    outcome.reply.into_response()
}

/// Whether a route is authenticated by the bot's token: everything but interaction callbacks
/// and webhooks (authenticated by the interaction's token in the path).
fn needs_bot_token(path: &str) -> bool {
    path.starts_with("/api/")
        && !path.starts_with("/api/v10/interactions/")
        && !path.starts_with("/api/v10/webhooks/")
}

/// `GET /attachments/{channel}/{id}/{name}`: the bytes of an attachment the fake stored.
fn attachment(
    shared: &Shared,
    method: &str,
    path: &str,
    query: Option<String>,
    auth: Option<String>,
) -> Response {
    let id = path.split('/').nth(3).and_then(|s| s.parse::<u64>().ok());
    let bytes = id.and_then(|id| shared.lock().attachment_files.get(&id).cloned());
    let status = if bytes.is_some() { 200 } else { 404 };
    shared.record(Recorded {
        method: method.to_owned(),
        path: path.to_owned(),
        query,
        json: None,
        files: Vec::new(),
        status,
        at: Instant::now(),
        response: None,
        created: None,
        edited: None,
        injected: false,
        auth,
    });
    match bytes {
        Some(b) => {
            let ct = messages::guess_content_type(path).unwrap_or("application/octet-stream");
            (StatusCode::OK, [(header::CONTENT_TYPE, ct)], b).into_response()
        }
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// A path segment that must be a snowflake.
fn sf(s: &str) -> Option<u64> {
    s.parse().ok()
}

type Routed = Option<Result<Outcome, Reply>>;

fn ok(reply: Reply) -> Routed {
    Some(Ok(reply.into()))
}

/// Routes a request; `None` for a route the fake does not know.
fn route(shared: &Shared, st: &mut State, r: &Req) -> Routed {
    let rest = r.path.strip_prefix("/api/v10/")?;
    let segs: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let m = r.method.as_str();
    // A deleted channel, or one the bot lost access to, refuses every call on it.
    if let ["channels", c, ..] = segs.as_slice() {
        if let Some(refusal) = sf(c).and_then(|c| st.channel_refusal(c)) {
            return Some(Err(refusal));
        }
    }
    match (m, segs.as_slice()) {
        ("GET", ["gateway"]) => ok(Reply::json(json!({"url": gateway_url(shared, st)}))),
        ("GET", ["gateway", "bot"]) => ok(Reply::json(json!({
            "url": gateway_url(shared, st),
            "shards": 1,
            "session_start_limit": {
                "total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1
            },
        }))),
        ("GET", ["oauth2", "applications", "@me"] | ["applications", "@me"]) => {
            ok(Reply::json(app_info()))
        }
        ("GET", ["users", "@me"]) => ok(Reply::json(fixtures::current_user_json())),
        ("GET", ["users", id]) => {
            let id = sf(id)?;
            Some(user(st, id).map(|u| Reply::json(u).into()))
        }
        ("POST", ["users", "@me", "channels"]) => Some(dm_channel(shared, st, &r.body())),
        ("GET" | "PUT" | "POST", ["applications", app, "commands"]) => {
            Some(commands(shared, st, sf(app)?, None, r))
        }
        ("DELETE", ["applications", app, "commands", id]) => {
            Some(delete_command(st, sf(app)?, None, sf(id)?))
        }
        ("GET" | "PUT" | "POST", ["applications", app, "guilds", g, "commands"]) => {
            Some(commands(shared, st, sf(app)?, Some(sf(g)?), r))
        }
        ("DELETE", ["applications", app, "guilds", g, "commands", id]) => {
            Some(delete_command(st, sf(app)?, Some(sf(g)?), sf(id)?))
        }
        ("POST", ["interactions", id, token, "callback"]) => {
            Some(callback(shared, st, sf(id)?, token, r))
        }
        ("POST", ["webhooks", app, token]) => Some(followup(shared, st, sf(app)?, token, r)),
        ("GET" | "PATCH" | "DELETE", ["webhooks", app, token, "messages", which]) => {
            let which = if *which == "@original" {
                None
            } else {
                Some(sf(which)?)
            };
            Some(webhook_message(shared, st, sf(app)?, token, which, r))
        }
        ("GET", ["channels", c]) => {
            let c = sf(c)?;
            Some(known_channel(st, c).map(|ch| Reply::json(ch).into()))
        }
        ("PATCH", ["channels", c]) => Some(edit_channel(st, sf(c)?, &r.body())),
        ("DELETE", ["channels", c]) => {
            let c = sf(c)?;
            Some(known_channel(st, c).map(|ch| {
                st.channels.remove(&c);
                st.dm_by_recipient.retain(|_, id| *id != c);
                Reply::json(ch).into()
            }))
        }
        ("GET", ["channels", c, "messages"]) => Some(list_messages(st, sf(c)?, r)),
        ("POST", ["channels", c, "messages"]) => Some(send_message(shared, st, sf(c)?, r)),
        ("GET" | "PATCH" | "DELETE", ["channels", c, "messages", id]) => {
            Some(channel_message(shared, st, sf(c)?, sf(id)?, r))
        }
        ("POST", ["channels", c, "threads"]) => {
            Some(create_thread(shared, st, sf(c)?, None, &r.body()))
        }
        ("POST", ["channels", c, "messages", id, "threads"]) => {
            Some(create_thread(shared, st, sf(c)?, Some(sf(id)?), &r.body()))
        }
        ("PUT" | "DELETE", ["channels", c, "messages", id, "reactions", _, _])
        | ("DELETE", ["channels", c, "messages", id, "reactions", _])
        | ("DELETE", ["channels", c, "messages", id, "reactions"]) => {
            let (c, id) = (sf(c)?, sf(id)?);
            Some(message_in(st, c, id).map(|_| Reply::no_content().into()))
        }
        ("GET", ["channels", c, "messages", id, "reactions", _]) => {
            let (c, id) = (sf(c)?, sf(id)?);
            Some(message_in(st, c, id).map(|_| Reply::json(json!([])).into()))
        }
        ("PUT" | "DELETE", ["channels", c, "pins", id]) => {
            let (c, id) = (sf(c)?, sf(id)?);
            Some(message_in(st, c, id).map(|_| Reply::no_content().into()))
        }
        ("POST", ["channels", c, "typing"]) => {
            let c = sf(c)?;
            Some(known_channel(st, c).map(|_| Reply::no_content().into()))
        }
        ("PUT" | "DELETE", ["channels", c, "thread-members", u]) => {
            Some(thread_member(st, sf(c)?, u, r))
        }
        ("GET", ["channels", c, "thread-members"]) => Some(thread_members(st, sf(c)?)),
        ("GET", ["guilds", g]) => {
            // The server (a partial guild: its owner, roles ...), as GUILD_CREATE gives it.
            let g = sf(g)?;
            if !st.knows_guild(g) {
                return Some(Err(Reply::error(404, 10004, "Unknown Guild")));
            }
            let name = st
                .guilds
                .get(&g)
                .cloned()
                .unwrap_or_else(|| "tests".to_owned());
            ok(Reply::json(fixtures::guild_create_json(
                g,
                &name,
                Vec::new(),
            )))
        }
        ("GET", ["guilds", g, "members", u]) => Some(member(st, sf(g)?, sf(u)?)),
        ("GET", ["guilds", g, "channels"]) => {
            let g = sf(g)?;
            let list: Vec<Value> = st
                .channels
                .values()
                .filter(|c| id_of(&c["guild_id"]) == Some(g) && c.get("thread_metadata").is_none())
                .cloned()
                .collect();
            ok(Reply::json(Value::from(list)))
        }
        _ => None,
    }
}

fn app_info() -> Value {
    json!({
        "id": APP_ID.to_string(),
        "name": BOT_USERNAME,
        "icon": null,
        "description": "",
        "summary": "",
        "type": null,
        "bot_public": false,
        "bot_require_code_grant": false,
        "verify_key": "0".repeat(64),
        "owner": fixtures::owner_json(),
        "team": null,
        "flags": 0,
        "rpc_origins": [],
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": null,
        "role_connections_verification_url": null,
        "approximate_guild_count": 1,
        "bot": fixtures::bot_user_json(),
    })
}

fn user(st: &State, id: u64) -> Result<Value, Reply> {
    if id == BOT_USER_ID {
        return Ok(fixtures::bot_user_json());
    }
    st.users
        .get(&id)
        .map(FakeUser::json)
        .ok_or_else(|| Reply::error(404, 10013, "Unknown User"))
}

fn member(st: &State, guild: u64, user_id: u64) -> Result<Outcome, Reply> {
    let Some(u) = st.users.get(&user_id).filter(|_| st.knows_guild(guild)) else {
        return Err(Reply::error(404, 10007, "Unknown Member"));
    };
    let perms = st
        .member_permissions
        .get(&user_id)
        .copied()
        .unwrap_or_else(fixtures::default_member_permissions);
    let mut m = fixtures::member_json(u, perms);
    if let Some(o) = m.as_object_mut() {
        o.remove("permissions");
    }
    Ok(Reply::json(m).into())
}

fn known_channel(st: &State, id: u64) -> Result<Value, Reply> {
    st.channels
        .get(&id)
        .cloned()
        .ok_or_else(|| Reply::error(404, 10003, "Unknown Channel"))
}

fn known_thread(st: &State, id: u64) -> Result<Value, Reply> {
    let ch = known_channel(st, id)?;
    if ch.get("thread_metadata").is_none() {
        return Err(Reply::error(
            400,
            50024,
            "Cannot execute action on this channel type",
        ));
    }
    Ok(ch)
}

/// `PUT` (add) or `DELETE` (take out) a member of a thread, as Discord checks them: a thread
/// (not another channel), not archived, a snowflake of a user it knows (when adding). 204.
fn thread_member(st: &mut State, thread: u64, user: &str, r: &Req) -> Result<Outcome, Reply> {
    let ch = known_thread(st, thread)?;
    let Some(user) = sf(user) else {
        return Err(Reply::form_error(
            "user_id",
            "NUMBER_TYPE_COERCE",
            "Value is not snowflake.",
        ));
    };
    if ch["thread_metadata"]["archived"].as_bool() == Some(true) {
        return Err(Reply::error(400, 50083, "Thread is archived"));
    }
    if r.method == "DELETE" {
        if let Some(m) = st.thread_members.get_mut(&thread) {
            m.remove(&user);
        }
        return Ok(Reply::no_content().into());
    }
    if !st.users.contains_key(&user) {
        return Err(Reply::error(404, 10007, "Unknown Member"));
    }
    st.thread_members
        .entry(thread)
        .or_default()
        .entry(user)
        .or_insert_with(fixtures::now);
    Ok(Reply::no_content().into())
}

/// `GET /channels/{thread}/thread-members`: the members added, as thread member objects.
fn thread_members(st: &State, thread: u64) -> Result<Outcome, Reply> {
    known_thread(st, thread)?;
    let list: Vec<Value> = st
        .thread_members
        .get(&thread)
        .into_iter()
        .flatten()
        .map(|(user, at)| {
            json!({
                "id": thread.to_string(),
                "user_id": user.to_string(),
                "join_timestamp": at,
                "flags": 0,
            })
        })
        .collect();
    let list = Value::from(list);
    fixtures::parses::<Vec<serenity::all::ThreadMember>>(&list)
        .map_err(|e| Reply::error(500, 0, &format!("thread members serenity cannot read: {e}")))?;
    Ok(Reply::json(list).into())
}

/// A stored message that is in channel `c`.
fn message_in(st: &State, c: u64, id: u64) -> Result<Value, Reply> {
    known_channel(st, c)?;
    let m = messages::current(st, id)?;
    if id_of(&m["channel_id"]) != Some(c) {
        return Err(Reply::error(404, 10008, "Unknown Message"));
    }
    Ok(m)
}

fn dm_channel(shared: &Shared, st: &mut State, body: &Value) -> Result<Outcome, Reply> {
    let Some(rid) = id_of(&body["recipient_id"]) else {
        return Err(Reply::form_error(
            "recipient_id",
            "BASE_TYPE_REQUIRED",
            "This field is required",
        ));
    };
    if rid == BOT_USER_ID {
        return Err(Reply::error(
            400,
            50007,
            "Cannot send messages to this user",
        ));
    }
    if let Some(ch) = st
        .dm_by_recipient
        .get(&rid)
        .and_then(|id| st.channels.get(id))
    {
        return Ok(Reply::json(ch.clone()).into());
    }
    let user = st.users.get(&rid).map_or_else(
        || FakeUser::new(rid, &format!("user{rid}")).json(),
        FakeUser::json,
    );
    let id = shared.snowflake();
    let ch = json!({
        "id": id.to_string(),
        "type": 1,
        "last_message_id": null,
        "flags": 0,
        "recipients": [user],
    });
    if let Err(e) = fixtures::parses::<serenity::all::PrivateChannel>(&ch) {
        st.problems
            .push(format!("DM channel serenity cannot read: {e}"));
    }
    st.channels.insert(id, ch.clone());
    st.dm_by_recipient.insert(rid, id);
    Ok(Reply::json(ch).into())
}

// ----- Commands ----------------------------------------------------------------------------

fn commands(
    shared: &Shared,
    st: &mut State,
    app: u64,
    guild: Option<u64>,
    r: &Req,
) -> Result<Outcome, Reply> {
    if app != APP_ID {
        return Err(Reply::error(404, 10002, "Unknown Application"));
    }
    if guild.is_some_and(|g| !st.knows_guild(g)) {
        return Err(Reply::error(403, 50001, "Missing Access"));
    }
    let existing = match guild {
        Some(g) => st.guild_commands.get(&g).cloned().unwrap_or_default(),
        None => st.global_commands.clone(),
    };
    let list = match r.method.as_str() {
        "GET" => return Ok(Reply::json(Value::from(existing)).into()),
        "PUT" => r.body(),
        _ => {
            // POST: create or replace one command.
            let one = r.body();
            let mut list: Vec<Value> = existing
                .iter()
                .filter(|c| {
                    c["name"] != one["name"]
                        || c["type"] != one.get("type").cloned().unwrap_or(json!(1))
                })
                .cloned()
                .collect();
            list.push(one);
            Value::from(list)
        }
    };
    checks::commands(&list)?;
    let echoed: Vec<Value> = list
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| echo_command(shared, c, guild, &existing))
        .collect();
    if let Err(e) = fixtures::parses::<Vec<serenity::all::Command>>(&Value::from(echoed.clone())) {
        let problem = format!("commands serenity cannot read: {e}");
        st.problems.push(problem.clone());
        return Err(Reply::error(500, 0, &problem));
    }
    match guild {
        Some(g) => {
            st.guild_commands.insert(g, echoed.clone());
        }
        None => st.global_commands = echoed.clone(),
    }
    if r.method == "POST" {
        let name = &list
            .as_array()
            .and_then(|l| l.last())
            .cloned()
            .unwrap_or_default()["name"];
        let one = echoed.iter().rev().find(|c| &c["name"] == name).cloned();
        return Ok(Reply::json(one.unwrap_or_default()).into());
    }
    Ok(Reply::json(Value::from(echoed)).into())
}

fn echo_command(shared: &Shared, c: &Value, guild: Option<u64>, existing: &[Value]) -> Value {
    let kind = c["type"].as_u64().unwrap_or(1);
    let id = existing
        .iter()
        .find(|e| e["name"] == c["name"] && e["type"].as_u64() == Some(kind))
        .and_then(|e| e["id"].as_str().map(str::to_owned))
        .unwrap_or_else(|| shared.snowflake().to_string());
    let mut out = c.as_object().cloned().unwrap_or_default();
    out.insert("id".into(), json!(id));
    out.insert("application_id".into(), json!(APP_ID.to_string()));
    out.insert("type".into(), json!(kind));
    out.insert("version".into(), json!(shared.snowflake().to_string()));
    match guild {
        Some(g) => {
            out.insert("guild_id".into(), json!(g.to_string()));
        }
        None => {
            out.remove("guild_id");
        }
    }
    for (key, default) in [
        ("description", json!("")),
        ("default_member_permissions", Value::Null),
        ("nsfw", json!(false)),
        ("integration_types", json!([0])),
        ("contexts", Value::Null),
        ("name_localizations", Value::Null),
        ("description_localizations", Value::Null),
    ] {
        let entry = out.entry(key.to_owned()).or_insert(default.clone());
        if entry.is_null() && !default.is_null() {
            *entry = default;
        }
    }
    if guild.is_none() {
        out.entry("dm_permission".to_owned()).or_insert(json!(true));
    }
    Value::Object(out)
}

fn delete_command(st: &mut State, app: u64, guild: Option<u64>, id: u64) -> Result<Outcome, Reply> {
    if app != APP_ID {
        return Err(Reply::error(404, 10002, "Unknown Application"));
    }
    let list = match guild {
        Some(g) => st.guild_commands.entry(g).or_default(),
        None => &mut st.global_commands,
    };
    let before = list.len();
    list.retain(|c| id_of(&c["id"]) != Some(id));
    if list.len() == before {
        return Err(Reply::error(404, 10063, "Unknown application command"));
    }
    Ok(Reply::no_content().into())
}

// ----- Interactions ------------------------------------------------------------------------

fn callback(
    shared: &Shared,
    st: &mut State,
    id: u64,
    token: &str,
    r: &Req,
) -> Result<Outcome, Reply> {
    let unknown = || Reply::error(404, 10062, "Unknown interaction");
    let Some(ix) = st.interactions.get(token).filter(|ix| ix.id == id).cloned() else {
        return Err(unknown());
    };
    if ix.ack.is_some() {
        return Err(Reply::error(
            400,
            40060,
            "Interaction has already been acknowledged.",
        ));
    }
    if let (Some(deadline), Some(at)) = (st.interaction_deadline, ix.dispatched_at) {
        if at.elapsed() > deadline {
            return Err(unknown());
        }
    }
    let body = r.body();
    let Some(kind) = body["type"].as_u64() else {
        return Err(Reply::form_error(
            "type",
            "BASE_TYPE_REQUIRED",
            "This field is required",
        ));
    };
    let data = if body["data"].is_object() {
        body["data"].clone()
    } else {
        json!({})
    };
    let invalid = || {
        Reply::form_error(
            "type",
            "INTERACTION_RESPONSE_TYPE_INVALID",
            &format!(
                "Response type {kind} is not valid for an interaction of type {}",
                ix.kind
            ),
        )
    };
    let mut out = Outcome::from(Reply::no_content());
    let mut original = None;
    let mut deferred_pending = false;
    match (ix.kind, kind) {
        (4, 8) => checks::autocomplete_result(&data)?,
        (4, _) | (_, 8) => return Err(invalid()),
        (_, 4) => {
            let m = messages::create(
                shared,
                st,
                ix.channel_id,
                &data,
                &r.files,
                Via::Reply { kind: ix.kind },
            )?;
            original = id_of(&m["id"]);
            out.created = Some(m);
        }
        (_, 5) => {
            let ephemeral = data["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0;
            let m = messages::placeholder(shared, st, ix.channel_id, ix.kind, ephemeral)?;
            original = id_of(&m["id"]);
            deferred_pending = true;
        }
        (3, 6) => original = ix.component_message,
        (3, 7) => {
            let target = ix.component_message.ok_or_else(invalid)?;
            let m = messages::edit(shared, st, target, &data, &r.files)?;
            original = Some(target);
            out.edited = Some(m);
        }
        (2 | 3, 9) => checks::modal(&data)?,
        _ => return Err(invalid()),
    }
    if let Some(ix) = st.interactions.get_mut(token) {
        ix.ack = Some(kind as u8);
        ix.original = original;
        ix.deferred_pending = deferred_pending;
    }
    Ok(out)
}

fn interaction_of(st: &State, app: u64, token: &str) -> Result<super::InteractionState, Reply> {
    let unknown = || Reply::error(404, 10015, "Unknown Webhook");
    if app != APP_ID {
        return Err(unknown());
    }
    let ix = st.interactions.get(token).cloned().ok_or_else(unknown)?;
    // The interaction webhook exists once the interaction has its initial response.
    if ix.ack.is_none() {
        return Err(unknown());
    }
    Ok(ix)
}

fn followup(
    shared: &Shared,
    st: &mut State,
    app: u64,
    token: &str,
    r: &Req,
) -> Result<Outcome, Reply> {
    let ix = interaction_of(st, app, token)?;
    if ix.ack == Some(8) {
        return Err(Reply::error(
            400,
            50035,
            "Autocomplete interactions have no follow-ups",
        ));
    }
    let body = r.body();
    if let (true, Some(original)) = (ix.deferred_pending, ix.original) {
        // The first follow-up after a deferred reply replaces the "thinking…" message.
        let m = messages::fill_placeholder(shared, st, original, &body, &r.files)?;
        if let Some(ix) = st.interactions.get_mut(token) {
            ix.deferred_pending = false;
        }
        return Ok(created(m));
    }
    let m = messages::create(shared, st, ix.channel_id, &body, &r.files, Via::Followup)?;
    if let (Some(ix), Some(id)) = (st.interactions.get_mut(token), id_of(&m["id"])) {
        ix.followups.push(id);
    }
    Ok(created(m))
}

fn webhook_message(
    shared: &Shared,
    st: &mut State,
    app: u64,
    token: &str,
    which: Option<u64>,
    r: &Req,
) -> Result<Outcome, Reply> {
    let ix = interaction_of(st, app, token)?;
    let unknown = || Reply::error(404, 10008, "Unknown Message");
    let target = match which {
        None => ix.original.ok_or_else(unknown)?,
        Some(id) if ix.original == Some(id) || ix.followups.contains(&id) => id,
        Some(_) => return Err(unknown()),
    };
    match r.method.as_str() {
        "GET" => Ok(Reply::json(messages::current(st, target)?).into()),
        "DELETE" => {
            messages::delete(st, target)?;
            Ok(Reply::no_content().into())
        }
        _ => {
            let m = messages::edit(shared, st, target, &r.body(), &r.files)?;
            if ix.deferred_pending && ix.original == Some(target) {
                if let Some(ix) = st.interactions.get_mut(token) {
                    ix.deferred_pending = false;
                }
                return Ok(created(m));
            }
            Ok(edited(m))
        }
    }
}

// ----- Channels and messages ---------------------------------------------------------------

fn send_message(shared: &Shared, st: &mut State, c: u64, r: &Req) -> Result<Outcome, Reply> {
    let ch = known_channel(st, c)?;
    missing_right(st, c, r)?;
    match ch["type"].as_u64() {
        Some(1) => {
            let recipient = ch["recipients"][0]["id"].as_str().and_then(sf);
            if recipient.is_some_and(|u| st.dms_closed.contains(&u)) {
                return Err(Reply::error(
                    403,
                    50007,
                    "Cannot send messages to this user",
                ));
            }
        }
        Some(0 | 5) => {}
        Some(10..=12) => {
            let md = &ch["thread_metadata"];
            if md["archived"].as_bool() == Some(true) {
                if md["locked"].as_bool() == Some(true) {
                    return Err(Reply::error(400, 50083, "Thread is locked"));
                }
                // Sending to an archived, unlocked thread unarchives it.
                if let Some(t) = st.channels.get_mut(&c) {
                    t["thread_metadata"]["archived"] = json!(false);
                    t["thread_metadata"]["archive_timestamp"] = json!(fixtures::now());
                }
            }
        }
        _ => {
            return Err(Reply::error(
                400,
                50008,
                "Cannot send messages in a non-text channel",
            ))
        }
    }
    let m = messages::create(shared, st, c, &r.body(), &r.files, Via::Channel)?;
    Ok(created(m))
}

/// The refusal of a message that needs a right the bot lacks there (see `State::refused_rights`):
/// in the order Discord checks them, sending in a thread, then attaching, then replying.
fn missing_right(st: &State, c: u64, r: &Req) -> Result<(), Reply> {
    if st.archived.contains(&c) {
        return Err(Reply::error(400, 50083, "Thread is archived"));
    }
    let (rights, in_thread) = st.rights_refused(c);
    if in_thread && rights.no_thread_posts {
        return Err(Reply::error(403, 50013, "Missing Permissions"));
    }
    if rights.no_files && !r.files.is_empty() {
        return Err(Reply::error(403, 50013, "Missing Permissions"));
    }
    let body = r.body();
    if rights.no_replies && !body["message_reference"].is_null() {
        return Err(Reply::error(
            403,
            160_002,
            "You need the Read Message History permission to reply to a message",
        ));
    }
    Ok(())
}

fn list_messages(st: &State, c: u64, r: &Req) -> Result<Outcome, Reply> {
    known_channel(st, c)?;
    let limit = r
        .param("limit")
        .and_then(|l| l.parse().ok())
        .unwrap_or(50_usize);
    let list: Vec<Value> = st
        .channel_messages
        .get(&c)
        .into_iter()
        .flatten()
        .rev()
        .filter(|id| !st.deleted_messages.contains(id))
        .filter_map(|id| st.messages.get(id))
        .filter(|m| m["flags"].as_u64().unwrap_or(0) & EPHEMERAL == 0)
        .take(limit.clamp(1, 100))
        .cloned()
        .collect();
    Ok(Reply::json(Value::from(list)).into())
}

fn channel_message(
    shared: &Shared,
    st: &mut State,
    c: u64,
    id: u64,
    r: &Req,
) -> Result<Outcome, Reply> {
    let m = message_in(st, c, id)?;
    if m["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0 {
        return Err(Reply::error(404, 10008, "Unknown Message"));
    }
    match r.method.as_str() {
        "GET" => Ok(Reply::json(m).into()),
        "DELETE" => {
            messages::delete(st, id)?;
            Ok(Reply::no_content().into())
        }
        _ => Ok(edited(messages::edit(shared, st, id, &r.body(), &r.files)?)),
    }
}

const ARCHIVE_DURATIONS: [u64; 4] = [60, 1440, 4320, 10080];

fn archive_duration(v: &Value, default: u64) -> Result<u64, Reply> {
    let d = if v.is_null() {
        default
    } else {
        v.as_u64().unwrap_or(0)
    };
    if ARCHIVE_DURATIONS.contains(&d) {
        Ok(d)
    } else {
        Err(Reply::form_error(
            "auto_archive_duration",
            "BASE_TYPE_CHOICES",
            "Value must be one of {60, 1440, 4320, 10080}.",
        ))
    }
}

fn thread_name(v: &Value) -> Result<String, Reply> {
    let name = v.as_str().unwrap_or_default().trim().to_owned();
    let n = name.chars().count();
    if n == 0 || n > 100 {
        return Err(Reply::form_error(
            "name",
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        ));
    }
    Ok(name)
}

fn create_thread(
    shared: &Shared,
    st: &mut State,
    parent: u64,
    from_message: Option<u64>,
    body: &Value,
) -> Result<Outcome, Reply> {
    let parent_ch = known_channel(st, parent)?;
    let parent_kind = parent_ch["type"].as_u64().unwrap_or(0);
    if !matches!(parent_kind, 0 | 5) {
        return Err(Reply::error(
            400,
            50024,
            "Cannot execute action on this channel type",
        ));
    }
    let name = thread_name(&body["name"])?;
    let default_duration = parent_ch["default_auto_archive_duration"]
        .as_u64()
        .unwrap_or(1440);
    let duration = archive_duration(&body["auto_archive_duration"], default_duration)?;
    let (id, kind) = match from_message {
        Some(mid) => {
            message_in(st, parent, mid)?;
            if st.channels.contains_key(&mid) {
                return Err(Reply::error(
                    400,
                    160_004,
                    "A thread has already been created for this message",
                ));
            }
            (mid, if parent_kind == 5 { 10 } else { 11 })
        }
        // Without a message the default type is PRIVATE_THREAD (Discord API v9 and v10).
        None => (shared.snowflake(), body["type"].as_u64().unwrap_or(12)),
    };
    if !matches!(kind, 10..=12) {
        return Err(Reply::form_error(
            "type",
            "BASE_TYPE_CHOICES",
            "Value must be one of {10, 11, 12}.",
        ));
    }
    let now = fixtures::now();
    let mut metadata = json!({
        "archived": false,
        "auto_archive_duration": duration,
        "archive_timestamp": now,
        "locked": false,
        "create_timestamp": now,
    });
    if kind == 12 {
        metadata["invitable"] = json!(body["invitable"].as_bool().unwrap_or(true));
    }
    let thread = json!({
        "id": id.to_string(),
        "type": kind,
        "guild_id": parent_ch["guild_id"],
        "parent_id": parent.to_string(),
        "owner_id": BOT_USER_ID.to_string(),
        "name": name,
        "last_message_id": null,
        "rate_limit_per_user": body["rate_limit_per_user"].as_u64().unwrap_or(0),
        "message_count": 0,
        "total_message_sent": 0,
        "member_count": 1,
        "flags": 0,
        "thread_metadata": metadata,
    });
    if let Err(e) = fixtures::parses::<serenity::all::GuildChannel>(&thread) {
        let problem = format!("thread serenity cannot read: {e}");
        st.problems.push(problem.clone());
        return Err(Reply::error(500, 0, &problem));
    }
    st.channels.insert(id, thread.clone());
    st.thread_order.push(id);
    if let Some(m) = from_message.and_then(|mid| st.messages.get_mut(&mid)) {
        m["thread"] = thread.clone();
    }
    Ok(Reply::json(thread).into())
}

fn edit_channel(st: &mut State, c: u64, body: &Value) -> Result<Outcome, Reply> {
    let mut ch = known_channel(st, c)?;
    let Some(fields) = body.as_object() else {
        return Err(Reply::form_error(
            "",
            "DICT_TYPE_CONVERT",
            "Only dictionaries may be used",
        ));
    };
    if ch["type"].as_u64() == Some(1) {
        return Err(Reply::error(
            400,
            50024,
            "Cannot execute action on this channel type",
        ));
    }
    if ch.get("thread_metadata").is_some() {
        let archived = ch["thread_metadata"]["archived"].as_bool() == Some(true);
        let unarchiving = body["archived"].as_bool() == Some(false);
        let other_keys = fields.keys().any(|k| k != "archived" && k != "locked");
        if archived && !unarchiving && other_keys {
            return Err(Reply::error(400, 50083, "Thread is archived"));
        }
        if let Some(n) = fields.get("name") {
            ch["name"] = json!(thread_name(n)?);
        }
        for key in ["locked", "invitable"] {
            if let Some(b) = fields.get(key).and_then(Value::as_bool) {
                ch["thread_metadata"][key] = json!(b);
            }
        }
        if let Some(d) = fields.get("auto_archive_duration") {
            ch["thread_metadata"]["auto_archive_duration"] = json!(archive_duration(d, 1440)?);
        }
        if let Some(a) = fields.get("archived").and_then(Value::as_bool) {
            if a != archived {
                ch["thread_metadata"]["archive_timestamp"] = json!(fixtures::now());
            }
            ch["thread_metadata"]["archived"] = json!(a);
        }
        if let Some(r) = fields.get("rate_limit_per_user") {
            ch["rate_limit_per_user"] = r.clone();
        }
    } else {
        for key in [
            "name",
            "topic",
            "nsfw",
            "rate_limit_per_user",
            "default_auto_archive_duration",
            "position",
        ] {
            if let Some(v) = fields.get(key) {
                ch[key] = v.clone();
            }
        }
    }
    if let Err(e) = fixtures::parses::<serenity::all::GuildChannel>(&ch) {
        let problem = format!("channel serenity cannot read after an edit: {e}");
        st.problems.push(problem.clone());
        return Err(Reply::error(500, 0, &problem));
    }
    st.channels.insert(c, ch.clone());
    Ok(Reply::json(ch).into())
}

/// The gateway address handed out: the relay's when one runs, else the fake's own.
fn gateway_url(shared: &Shared, st: &State) -> String {
    match &st.relay {
        Some(r) => format!("ws://{}/gateway", r.addr),
        None => shared.ws_url.clone(),
    }
}
