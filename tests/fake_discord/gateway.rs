//! The WebSocket gateway: HELLO, IDENTIFY → READY (then GUILD_CREATE for each server of the
//! connection's shard), heartbeats, RESUME → replay + RESUMED, and the dispatches the tests send.
//! Plain JSON text frames (serenity asks for `compress: true`, which only allows compressed
//! payloads; it reads text frames as they come). Each connection serves the shard its IDENTIFY
//! named (`shard: [id, total]`, shard 0 of 1 without one); the view keeps the live connection
//! of every shard, which is where dispatches about that shard's servers go.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State as AxumState;
use axum::response::Response;
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot, watch};

use super::{fixtures, Dispatched, FakeDiscord, Session, Shared, APP_ID};

/// How many dispatches a session keeps for replay on RESUME.
const REPLAY_KEEP: usize = 1000;

/// Counters and the live connection, published through a watch channel.
#[derive(Clone, Debug, Default)]
pub(crate) struct GatewayView {
    pub connections: u64,
    pub identifies: u64,
    pub readies: u64,
    pub resumes: u64,
    pub invalid_sessions: u64,
    /// RESUMEs (op 6) received, answered or not.
    pub resume_requests: u64,
    /// While true, a RESUME received waits (see `FakeDiscord::hold_resumes`).
    pub resumes_held: bool,
    pub heartbeats: u64,
    /// The number of the last connection that ended.
    pub last_ended: u64,
    /// The connection that identified or resumed last and is still open.
    pub live: Option<LiveConn>,
    /// By shard id: the connection of that shard that identified or resumed last and is still
    /// open.
    pub shards: BTreeMap<u64, LiveConn>,
}

impl GatewayView {
    /// The live connection that receives events of this server (`None`: a DM, shard 0), as
    /// Discord routes them: shard `(guild_id >> 22) % total`.
    pub fn conn_for(&self, guild_id: Option<u64>) -> Option<&LiveConn> {
        self.shards.values().find(|c| {
            let [id, total] = c.shard;
            id == guild_id.map_or(0, |g| FakeDiscord::shard_of_guild(g, total))
        })
    }
}

/// A connection dispatches go to.
#[derive(Clone, Debug)]
pub(crate) struct LiveConn {
    pub number: u64,
    pub session_id: String,
    /// `[shard id, shard count]` from its IDENTIFY.
    pub shard: [u64; 2],
    pub tx: mpsc::UnboundedSender<GwCmd>,
}

/// What the handle asks a connection to do.
#[derive(Debug)]
pub(crate) enum GwCmd {
    Dispatch {
        t: String,
        d: Value,
        done: oneshot::Sender<u64>,
    },
    Drop {
        done: oneshot::Sender<()>,
    },
    Close {
        code: u16,
        done: oneshot::Sender<()>,
    },
    InvalidSession {
        resumable: bool,
        done: oneshot::Sender<()>,
    },
    Reconnect {
        done: oneshot::Sender<()>,
    },
}

/// `GET /gateway` (with `?v=10`): upgrade and run the connection.
pub(crate) async fn upgrade(
    AxumState(shared): AxumState<Arc<Shared>>,
    ws: WebSocketUpgrade,
) -> Response {
    ws.max_message_size(16 << 20)
        .on_upgrade(move |socket| Connection::run(shared, socket))
}

/// Resolves once the fake is being dropped.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

struct Connection {
    shared: Arc<Shared>,
    socket: WebSocket,
    number: u64,
    session: Option<String>,
    /// `[shard id, shard count]`, from IDENTIFY (or the session a RESUME continues).
    shard: [u64; 2],
    tx: mpsc::UnboundedSender<GwCmd>,
}

/// Whether the connection goes on after a step.
enum Flow {
    Continue,
    End,
}

impl Connection {
    async fn run(shared: Arc<Shared>, socket: WebSocket) {
        let mut number = 0;
        shared.gw_tx.send_modify(|v| {
            v.connections += 1;
            number = v.connections;
        });
        let (tx, mut rx) = mpsc::unbounded_channel();
        let mut stop = shared.shutdown_tx.subscribe();
        let mut conn = Connection {
            shared,
            socket,
            number,
            session: None,
            shard: [0, 1],
            tx,
        };
        let interval = conn.shared.lock().heartbeat_interval_ms;
        let mut flow = conn
            .send(json!({"op": 10, "d": {"heartbeat_interval": interval}, "s": null, "t": null}))
            .await;
        while let Flow::Continue = flow {
            flow = tokio::select! {
                () = stopped(&mut stop) => Flow::End,
                cmd = rx.recv() => match cmd {
                    Some(cmd) => conn.command(cmd).await,
                    None => Flow::End,
                },
                msg = conn.socket.recv() => match msg {
                    Some(Ok(Message::Text(text))) => conn.frame(&text).await,
                    Some(Ok(Message::Binary(_))) => {
                        conn.close(4002, "fake discord: binary frames are not expected").await
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => Flow::Continue,
                    Some(Ok(Message::Close(_))) => {
                        // Reading once more sends the reply that completes the close handshake
                        // (serenity waits for it when it shuts a shard down).
                        let _ = tokio::time::timeout(
                            std::time::Duration::from_secs(1),
                            conn.socket.recv(),
                        )
                        .await;
                        Flow::End
                    }
                    Some(Err(_)) | None => Flow::End,
                },
            };
        }
        conn.ended();
    }

    /// Marks this connection as gone, or abandoned by the bot (after op 7 or op 9): no longer
    /// the one dispatches go to; [`super::FakeDiscord::wait_reconnect`] waits for a newer one.
    fn ended(&self) {
        let number = self.number;
        self.shared.gw_tx.send_modify(|v| {
            if v.live.as_ref().is_some_and(|l| l.number == number) {
                v.live = None;
            }
            v.shards.retain(|_, l| l.number != number);
            v.last_ended = v.last_ended.max(number);
        });
    }

    async fn send(&mut self, payload: Value) -> Flow {
        match self.socket.send(Message::Text(payload.to_string())).await {
            Ok(()) => Flow::Continue,
            Err(_) => Flow::End,
        }
    }

    async fn close(&mut self, code: u16, reason: &str) -> Flow {
        let frame = CloseFrame {
            code,
            reason: reason.to_owned().into(),
        };
        let _ = self.socket.send(Message::Close(Some(frame))).await;
        Flow::End
    }

    /// The next sequence number of the session; `keep` keeps the event for replay on RESUME.
    fn next_seq(&self, t: &str, d: &Value, keep: bool) -> u64 {
        let mut st = self.shared.lock();
        let Some(session) = self.session.as_ref().and_then(|s| st.sessions.get_mut(s)) else {
            return 0;
        };
        session.seq += 1;
        let seq = session.seq;
        if !keep {
            return seq;
        }
        session.events.push((seq, t.to_owned(), d.clone()));
        if session.events.len() > REPLAY_KEEP {
            let extra = session.events.len() - REPLAY_KEEP;
            session.events.drain(..extra);
        }
        seq
    }

    /// Makes this connection the one dispatches go to, and counts what made it so (in the same
    /// update, so that a waiter sees both).
    fn make_live(&self, count: impl FnOnce(&mut GatewayView)) {
        let live = LiveConn {
            number: self.number,
            session_id: self.session.clone().unwrap_or_default(),
            shard: self.shard,
            tx: self.tx.clone(),
        };
        self.shared.gw_tx.send_modify(|v| {
            v.shards.insert(self.shard[0], live.clone());
            v.live = Some(live);
            count(v);
        });
    }

    /// Notes a dispatch sent on this connection (see [`super::FakeDiscord::dispatches`]).
    fn record(&self, t: &str, d: &Value, seq: u64) {
        self.shared.lock().dispatches.push(Dispatched {
            event: t.to_owned(),
            guild_id: fixtures::guild_of_event(t, d),
            shard: self.shard,
            connection: self.number,
            seq,
        });
    }

    async fn command(&mut self, cmd: GwCmd) -> Flow {
        match cmd {
            GwCmd::Dispatch { t, d, done } => {
                let seq = self.next_seq(&t, &d, true);
                self.record(&t, &d, seq);
                let flow = self.send(json!({"op": 0, "s": seq, "t": t, "d": d})).await;
                // Once in the session's history the event is replayed on RESUME, so it counts as
                // sent even if the socket just failed.
                let _ = done.send(seq);
                flow
            }
            GwCmd::Drop { done } => {
                self.ended();
                let _ = done.send(());
                Flow::End
            }
            GwCmd::Close { code, done } => {
                let flow = self.close(code, "fake discord: closed by the test").await;
                self.ended();
                let _ = done.send(());
                flow
            }
            GwCmd::InvalidSession { resumable, done } => {
                if !resumable {
                    self.forget_session();
                }
                self.shared.gw_tx.send_modify(|v| v.invalid_sessions += 1);
                let flow = self
                    .send(json!({"op": 9, "d": resumable, "s": null, "t": null}))
                    .await;
                self.ended();
                let _ = done.send(());
                flow
            }
            GwCmd::Reconnect { done } => {
                let flow = self
                    .send(json!({"op": 7, "d": null, "s": null, "t": null}))
                    .await;
                self.ended();
                let _ = done.send(());
                flow
            }
        }
    }

    fn forget_session(&mut self) {
        if let Some(s) = self.session.take() {
            self.shared.lock().sessions.remove(&s);
        }
    }

    async fn frame(&mut self, text: &str) -> Flow {
        let Ok(payload) = serde_json::from_str::<Value>(text) else {
            return self.close(4002, "fake discord: not JSON").await;
        };
        match payload["op"].as_u64() {
            Some(1) => {
                self.shared.gw_tx.send_modify(|v| v.heartbeats += 1);
                self.send(json!({"op": 11, "d": null, "s": null, "t": null}))
                    .await
            }
            Some(2) => self.identify(&payload["d"]).await,
            Some(6) => self.resume(&payload["d"]).await,
            // Presence update, voice state, request guild members, soundboard: accepted quietly.
            Some(3 | 4 | 8 | 31) => Flow::Continue,
            _ => self.close(4001, "fake discord: unknown opcode").await,
        }
    }

    async fn identify(&mut self, d: &Value) -> Flow {
        if self.session.is_some() {
            return self
                .close(4005, "fake discord: already authenticated")
                .await;
        }
        if d["token"].as_str().is_none_or(str::is_empty) {
            return self.close(4004, "fake discord: no token").await;
        }
        if !self.shared.lock().token_ok(d["token"].as_str()) {
            return self.close(4004, "Authentication failed.").await;
        }
        let intents = d["intents"].as_u64().unwrap_or(0);
        let shard = match d["shard"].as_array().map(Vec::as_slice) {
            None => [0, 1],
            Some([id, total]) => match (id.as_u64(), total.as_u64()) {
                (Some(id), Some(total)) if id < total => [id, total],
                _ => return self.close(4010, "fake discord: invalid shard").await,
            },
            Some(_) => return self.close(4010, "fake discord: invalid shard").await,
        };
        let session_id = format!("fake-session-{}", self.shared.snowflake());
        // The servers of this shard, with their channels (threads are not announced).
        let servers: Vec<(u64, String, Vec<Value>)> = {
            let mut st = self.shared.lock();
            st.identify_payloads.push(d.clone());
            st.sessions.insert(
                session_id.clone(),
                Session {
                    seq: 0,
                    intents,
                    shard,
                    events: Vec::new(),
                },
            );
            st.guilds
                .iter()
                .filter(|(g, _)| FakeDiscord::shard_of_guild(**g, shard[1]) == shard[0])
                .map(|(g, name)| {
                    let channels = st
                        .channels
                        .values()
                        .filter(|c| {
                            fixtures::id_of(&c["guild_id"]) == Some(*g)
                                && c.get("thread_metadata").is_none()
                        })
                        .cloned()
                        .collect();
                    (*g, name.clone(), channels)
                })
                .collect()
        };
        self.session = Some(session_id.clone());
        self.shard = shard;
        self.shared.gw_tx.send_modify(|v| v.identifies += 1);

        let unavailable: Vec<Value> = servers
            .iter()
            .map(|(g, _, _)| json!({"id": g.to_string(), "unavailable": true}))
            .collect();
        let mut ready = json!({
            "v": 10,
            "user": fixtures::current_user_json(),
            "guilds": unavailable,
            "session_id": session_id,
            "resume_gateway_url": self.shared.ws_url,
            "application": {"id": APP_ID.to_string(), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
        });
        if d["shard"].is_array() {
            ready["shard"] = d["shard"].clone();
        }
        let seq = self.next_seq("READY", &ready, false);
        self.record("READY", &ready, seq);
        let mut flow = self
            .send(json!({"op": 0, "s": seq, "t": "READY", "d": ready}))
            .await;
        // Then each server of the shard, as Discord does (only with the GUILDS intent).
        if intents & 1 != 0 {
            for (g, name, channels) in servers {
                if let Flow::End = flow {
                    break;
                }
                let guild = fixtures::guild_create_json(g, &name, channels);
                let seq = self.next_seq("GUILD_CREATE", &guild, true);
                self.record("GUILD_CREATE", &guild, seq);
                flow = self
                    .send(json!({"op": 0, "s": seq, "t": "GUILD_CREATE", "d": guild}))
                    .await;
            }
        }
        if let Flow::Continue = flow {
            self.make_live(|v| v.readies += 1);
        }
        flow
    }

    async fn resume(&mut self, d: &Value) -> Flow {
        self.shared.gw_tx.send_modify(|v| v.resume_requests += 1);
        let mut view = self.shared.gw_tx.subscribe();
        let mut stop = self.shared.shutdown_tx.subscribe();
        tokio::select! {
            _ = view.wait_for(|v| !v.resumes_held) => {}
            () = stopped(&mut stop) => return Flow::End,
        }
        let session_id = d["session_id"].as_str().unwrap_or_default().to_owned();
        let client_seq = d["seq"].as_u64().unwrap_or(0);
        let replay = {
            let st = self.shared.lock();
            match st.sessions.get(&session_id) {
                Some(s) if st.resume_allowed => Some((
                    s.shard,
                    s.events
                        .iter()
                        .filter(|(seq, _, _)| *seq > client_seq)
                        .cloned()
                        .collect::<Vec<_>>(),
                )),
                _ => None,
            }
        };
        let Some((shard, replay)) = replay else {
            self.shared.lock().sessions.remove(&session_id);
            self.shared.gw_tx.send_modify(|v| v.invalid_sessions += 1);
            return self
                .send(json!({"op": 9, "d": false, "s": null, "t": null}))
                .await;
        };
        self.session = Some(session_id);
        self.shard = shard;
        for (seq, t, d) in replay {
            if let Flow::End = self.send(json!({"op": 0, "s": seq, "t": t, "d": d})).await {
                return Flow::End;
            }
        }
        let seq = self.next_seq("RESUMED", &json!({}), false);
        let flow = self
            .send(json!({"op": 0, "s": seq, "t": "RESUMED", "d": {}}))
            .await;
        if let Flow::Continue = flow {
            self.make_live(|v| v.resumes += 1);
        }
        flow
    }
}
