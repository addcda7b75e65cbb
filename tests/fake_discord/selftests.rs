//! Self-tests of the fake's failure modes, through serenity's own `Http` (no gateway client):
//! deleted and forbidden channels, no thread inside a thread, the upload limit, `channel_types`
//! on command options, localised names and descriptions, refused tokens, and repeated injected
//! failures. Each proves the fake answers as Discord does before a bot test relies on it.

// The benchmark that includes the fake compiles this module without running its tests.
#![allow(unused_imports)]

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use serenity::all::{ChannelId, CreateAttachment, Http, HttpBuilder, MessageId, UserId};

use super::{FakeDiscord, FakeUser, APP_ID, CHANNEL_ID, DEFAULT_UPLOAD_LIMIT};

/// The longest a self-test may take.
const LIMIT: Duration = Duration::from_secs(60);

async fn bounded<F: std::future::Future<Output = ()>>(body: F) {
    tokio::time::timeout(LIMIT, body)
        .await
        .expect("the self-test did not finish within its time limit");
}

/// serenity's REST client against the fake, with `token`.
fn http(fake: &FakeDiscord, token: &str) -> Arc<Http> {
    Arc::new(
        HttpBuilder::new(token)
            .proxy(fake.api_base())
            .ratelimiter_disabled(true)
            .application_id(APP_ID.into())
            .build(),
    )
}

/// Status and Discord code of a failed call.
fn refusal<T: std::fmt::Debug>(r: serenity::Result<T>) -> (u16, isize) {
    match r {
        Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(e))) => {
            (e.status_code.as_u16(), e.error.code)
        }
        other => panic!("expected a refused call, got {other:?}"),
    }
}

/// The message of a failed call.
fn refusal_message<T: std::fmt::Debug>(r: serenity::Result<T>) -> String {
    match r {
        Err(serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(e))) => {
            e.error.message
        }
        other => panic!("expected a refused call, got {other:?}"),
    }
}

fn text(content: &str) -> Value {
    json!({"content": content})
}

/// A game's message in the channel and a public thread started from it.
async fn thread_from_message(http: &Http, channel: u64, name: &str) -> (u64, u64) {
    let msg = http
        .send_message(ChannelId::new(channel), vec![], &text(name))
        .await
        .expect("a message in the channel");
    let thread = http
        .create_thread_from_message(
            ChannelId::new(channel),
            msg.id,
            &json!({"name": name, "auto_archive_duration": 10080}),
            None,
        )
        .await
        .expect("a thread from the message");
    (msg.id.get(), thread.id.get())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_deleted_channels_answer_unknown_channel_to_every_call() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let http = http(&fake, "token");
        let (start, thread) = thread_from_message(&http, CHANNEL_ID, "Game 1").await;
        let t = ChannelId::new(thread);
        http.send_message(t, vec![], &text("a move"))
            .await
            .expect("the thread works before");

        // The thread is deleted: every call on it is 404 Unknown Channel; the parent works.
        assert_eq!(fake.delete_channel(thread), vec![thread]);
        assert!(fake.is_deleted(thread) && fake.channel(thread).is_none());
        assert!(fake.threads().is_empty(), "a deleted thread is not listed");
        let unknown = (404, 10003);
        assert_eq!(refusal(http.get_channel(t).await), unknown);
        assert_eq!(refusal(http.get_messages(t, None, Some(5)).await), unknown);
        assert_eq!(
            refusal(http.send_message(t, vec![], &text("next move")).await),
            unknown
        );
        assert_eq!(
            refusal_message(http.send_message(t, vec![], &text("again")).await),
            "Unknown Channel"
        );
        assert_eq!(refusal(http.broadcast_typing(t).await), unknown);
        assert_eq!(
            refusal(http.edit_thread(t, &json!({"archived": true}), None).await),
            unknown
        );
        assert_eq!(refusal(http.get_channel_thread_members(t).await), unknown);
        assert_eq!(
            refusal(http.add_thread_channel_member(t, UserId::new(42)).await),
            unknown
        );
        assert_eq!(
            refusal(
                http.create_thread(t, &json!({"name": "x", "type": 11}), None)
                    .await
            ),
            unknown
        );
        let games = ChannelId::new(CHANNEL_ID);
        http.send_message(games, vec![], &text("the parent still works"))
            .await
            .expect("the parent channel is untouched");
        // The parent's message stays; a new thread can be started from a new message.
        http.get_message(games, MessageId::new(start))
            .await
            .expect("the thread's first message stays in the parent");
        let (_, again) = thread_from_message(&http, CHANNEL_ID, "Game 1 again").await;
        assert_ne!(again, thread);

        // A text channel takes its threads with it.
        let lobby = fake.snowflake();
        fake.add_text_channel(lobby, "lobby");
        let (_, in_lobby) = thread_from_message(&http, lobby, "Game 2").await;
        let gone = fake.delete_channel(lobby);
        assert_eq!(gone, vec![lobby, in_lobby]);
        assert_eq!(
            refusal(
                http.send_message(ChannelId::new(lobby), vec![], &text("x"))
                    .await
            ),
            unknown
        );
        assert_eq!(
            refusal(
                http.send_message(ChannelId::new(in_lobby), vec![], &text("x"))
                    .await
            ),
            unknown
        );
        assert!(
            fake.unknown_routes().is_empty(),
            "{:?}",
            fake.unknown_routes()
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_forbidden_channels_answer_403_until_allowed_again() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let http = http(&fake, "token");
        let (_, thread) = thread_from_message(&http, CHANNEL_ID, "Game 1").await;
        let t = ChannelId::new(thread);
        let games = ChannelId::new(CHANNEL_ID);

        // Missing Access on the thread only.
        fake.forbid_channel(thread, 50001);
        assert_eq!(
            refusal(http.send_message(t, vec![], &text("a move")).await),
            (403, 50001)
        );
        assert_eq!(refusal_message(http.get_channel(t).await), "Missing Access");
        assert_eq!(refusal(http.broadcast_typing(t).await), (403, 50001));
        http.send_message(games, vec![], &text("the parent works"))
            .await
            .expect("the parent is not forbidden");
        // An interaction sent from the thread says the bot may not see it.
        let alice = FakeUser::new(2_000_000_000_000_000_901, "alice");
        let (_, _, ev) = fake.slash_command_in(thread, &alice, "games", json!([]), &[]);
        let perms: u64 = ev["app_permissions"]
            .as_str()
            .and_then(|p| p.parse().ok())
            .expect("app_permissions");
        assert_eq!(perms & (1 << 10 | 1 << 11 | 1 << 38), 0, "{perms:b}");
        let (_, _, ev) = fake.slash_command_in(CHANNEL_ID, &alice, "games", json!([]), &[]);
        let perms: u64 = ev["app_permissions"]
            .as_str()
            .and_then(|p| p.parse().ok())
            .expect("app_permissions");
        assert_ne!(perms & (1 << 11), 0, "the bot may post in the parent");
        fake.allow_channel(thread);
        http.send_message(t, vec![], &text("back"))
            .await
            .expect("allowed again");

        // Missing Permissions on the parent: its threads are refused with it.
        fake.forbid_channel(CHANNEL_ID, 50013);
        assert_eq!(
            refusal(http.send_message(games, vec![], &text("x")).await),
            (403, 50013)
        );
        assert_eq!(
            refusal_message(http.send_message(games, vec![], &text("x")).await),
            "Missing Permissions"
        );
        assert_eq!(
            refusal(http.send_message(t, vec![], &text("x")).await),
            (403, 50013)
        );
        assert_eq!(
            refusal(
                http.create_thread(games, &json!({"name": "x", "type": 11}), None)
                    .await
            ),
            (403, 50013)
        );
        fake.allow_channel(CHANNEL_ID);
        http.send_message(t, vec![], &text("all back"))
            .await
            .expect("allowed again");
        // Three refusals of the thread, four of the parent and its thread: none injected, all
        // listed as errors (a bot test that forbids a channel expects them).
        let forbidden = fake.errors().iter().filter(|c| c.status == 403).count();
        assert_eq!(forbidden, 3 + 4, "{}", fake.dump_calls(30));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_refuses_a_thread_inside_a_thread() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let http = http(&fake, "token");
        let (_, thread) = thread_from_message(&http, CHANNEL_ID, "Game 1").await;
        let t = ChannelId::new(thread);
        let inside = http
            .send_message(t, vec![], &text("Challenge #2 accepted"))
            .await
            .expect("a message in the thread");
        let from_message = http
            .create_thread_from_message(t, inside.id, &json!({"name": "Game 2"}), None)
            .await;
        assert_eq!(refusal(from_message), (400, 50024));
        let bare = http
            .create_thread(t, &json!({"name": "Game 2", "type": 11}), None)
            .await;
        assert_eq!(
            refusal_message(bare),
            "Cannot execute action on this channel type"
        );
        assert_eq!(
            fake.threads().len(),
            1,
            "no thread was made inside the thread"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_refuses_uploads_over_the_limit_and_stores_nothing() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let http = http(&fake, "token");
        let games = ChannelId::new(CHANNEL_ID);
        assert_eq!(fake.upload_limit(), 8 * 1024 * 1024);

        // Exactly the limit passes; one byte over, in two files, does not.
        let at_limit = vec![CreateAttachment::bytes(
            vec![0u8; DEFAULT_UPLOAD_LIMIT],
            "replay.gif",
        )];
        http.send_message(games, at_limit, &text("at the limit"))
            .await
            .expect("8 MiB is allowed");
        let over = vec![
            CreateAttachment::bytes(vec![0u8; DEFAULT_UPLOAD_LIMIT / 2], "a.gif"),
            CreateAttachment::bytes(vec![0u8; DEFAULT_UPLOAD_LIMIT / 2 + 1], "b.gif"),
        ];
        let r = http.send_message(games, over, &text("too big")).await;
        assert_eq!(refusal(r), (413, 40005));
        let refused = fake.calls().pop().expect("the refused call");
        assert_eq!(
            refused.response,
            Some(json!({"message": "Request entity too large", "code": 40005}))
        );
        assert!(refused.created.is_none());
        http.send_message(games, vec![], &text("small"))
            .await
            .expect("a message without files");
        let contents: Vec<String> = fake
            .channel_messages(CHANNEL_ID)
            .iter()
            .filter_map(|m| m["content"].as_str().map(str::to_owned))
            .collect();
        assert_eq!(
            contents,
            vec!["at the limit", "small"],
            "the refused message is not stored"
        );

        // A smaller limit, settable; interactions carry it.
        fake.set_upload_limit(1000);
        let alice = FakeUser::new(2_000_000_000_000_000_902, "alice");
        let (id, token, ev) = fake.slash_command(&alice, "replay", json!([]), &[]);
        assert_eq!(ev["attachment_size_limit"], json!(1000));
        let big = || vec![CreateAttachment::bytes(vec![1u8; 1001], "replay.gif")];
        let reply = json!({"type": 4, "data": {"content": "the replay"}});
        let r = http
            .create_interaction_response(id.into(), &token, &reply, big())
            .await;
        assert_eq!(refusal(r), (413, 40005));
        // Refused, so not acknowledged: a small answer is still the initial response.
        http.create_interaction_response(
            id.into(),
            &token,
            &json!({"type": 5, "data": {"flags": 64}}),
            vec![],
        )
        .await
        .expect("the initial response");
        let r = http
            .create_followup_message(&token, &text("the replay"), big())
            .await;
        assert_eq!(refusal(r), (413, 40005));
        let placeholder = fake.interaction_responses(id);
        assert!(
            placeholder.iter().all(|c| c.created.is_none()),
            "nothing was posted: {:?}",
            placeholder.iter().map(|c| c.summary()).collect::<Vec<_>>()
        );
        http.create_followup_message(
            &token,
            &text("too large to attach"),
            vec![CreateAttachment::bytes(vec![1u8; 1000], "small.gif")],
        )
        .await
        .expect("within the limit");
        assert!(fake.unknown_routes().is_empty());
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_checks_channel_types_of_command_options_and_shows_them() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let http = http(&fake, "token");
        let server = |types: Value| {
            let mut channel =
                json!({"type": 7, "name": "channel", "description": "Where games go"});
            if !types.is_null() {
                channel["channel_types"] = types;
            }
            json!([{
                "name": "server",
                "description": "This server's settings",
                "options": [
                    {"type": 4, "name": "days", "description": "Default days per move"},
                    channel,
                ],
            }])
        };
        for bad in [json!([0, 99]), json!(["0"]), json!(0), json!([-1])] {
            let r = http.create_global_commands(&server(bad.clone())).await;
            assert_eq!(refusal(r), (400, 50035), "channel_types {bad} is refused");
        }
        let on_integer = json!([{
            "name": "server", "description": "x",
            "options": [{"type": 4, "name": "days", "description": "d", "channel_types": [0]}],
        }]);
        assert_eq!(
            refusal(http.create_global_commands(&on_integer).await),
            (400, 50035),
            "only a channel option has channel types"
        );
        assert!(fake.registered_commands().is_empty());
        // serenity sends an empty list on every option: taken.
        let empty = json!([{
            "name": "server", "description": "x",
            "options": [{"type": 4, "name": "days", "description": "d", "channel_types": []}],
        }]);
        http.create_global_commands(&empty)
            .await
            .expect("an empty channel_types on any option");

        http.create_global_commands(&server(json!([0, 5])))
            .await
            .expect("text and announcement channels");
        let option = fake
            .registered_option("server", "channel")
            .expect("the channel option");
        assert_eq!(option["channel_types"], json!([0, 5]));
        assert_eq!(option["type"], 7);
        assert!(fake.registered_option("server", "nothing").is_none());
        assert!(fake.registered_option("nothing", "channel").is_none());

        // Without channel_types, any channel (a category too) would be accepted: shown as such.
        http.create_global_commands(&server(Value::Null))
            .await
            .expect("no channel types");
        let option = fake
            .registered_option("server", "channel")
            .expect("the channel option");
        assert!(option.get("channel_types").is_none(), "{option}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_checks_localised_names_and_descriptions_as_discord_does() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let http = http(&fake, "token");
        // A command with its Japanese words: `name` for the command, `option` for its option,
        // `label` for the option's one choice, `locale` the key of all three.
        let command = |locale: &str, name: &str, description: &str, option: &str, label: &str| {
            json!([{
                "name": "challenge",
                "description": "Challenge someone to a game.",
                "name_localizations": {locale: name},
                "description_localizations": {locale: description},
                "options": [{
                    "type": 3, "name": "game", "description": "Which game",
                    "name_localizations": {locale: option},
                    "description_localizations": {locale: "ゲームの種類"},
                    "choices": [{"name": "shogi", "value": "shogi",
                                 "name_localizations": {locale: label}}],
                }],
            }])
        };
        let long = "あ".repeat(101);
        let too_long_name = "あ".repeat(33);
        for (why, bad) in [
            ("a space", command("ja", "挑 戦", "挑戦します", "種類", "将棋")),
            ("「」", command("ja", "「挑戦」", "挑戦します", "種類", "将棋")),
            ("・", command("ja", "挑戦・対局", "挑戦します", "種類", "将棋")),
            ("upper case", command("ja", "Challenge", "挑戦します", "種類", "将棋")),
            ("33 characters", command("ja", &too_long_name, "挑戦します", "種類", "将棋")),
            ("an empty name", command("ja", "", "挑戦します", "種類", "将棋")),
            ("a long description", command("ja", "挑戦", &long, "種類", "将棋")),
            ("an empty description", command("ja", "挑戦", "", "種類", "将棋")),
            ("an option with a space", command("ja", "挑戦", "挑戦します", "ゲーム 種類", "将棋")),
            ("a long choice label", command("ja", "挑戦", "挑戦します", "種類", &long)),
            ("an unknown locale", command("jp", "挑戦", "挑戦します", "種類", "将棋")),
        ] {
            let r = http.create_global_commands(&bad).await;
            assert_eq!(refusal(r), (400, 50035), "{why} is refused");
        }
        assert!(fake.registered_commands().is_empty());
        // Two options of one command may not share a localised name.
        let twice = json!([{
            "name": "board", "description": "A board",
            "options": [
                {"type": 4, "name": "game", "description": "d", "name_localizations": {"ja": "対局"}},
                {"type": 4, "name": "ply", "description": "d", "name_localizations": {"ja": "対局"}},
            ],
        }]);
        assert_eq!(refusal(http.create_global_commands(&twice).await), (400, 50035));

        // Kana, kanji, the long-vowel mark, digits, `-`, `_` and `'` are all letters enough;
        // a choice's label may have spaces and brackets.
        http.create_global_commands(&command(
            "ja",
            "挑戦-ゲーム_1'",
            "相手に対局を申し込みます。",
            "種類",
            "将棋 (shogi)「本将棋」",
        ))
        .await
        .expect("Japanese names within the rules");
        let registered = fake.registered_commands();
        assert_eq!(registered[0]["name_localizations"]["ja"], "挑戦-ゲーム_1'");
        let option = fake
            .registered_option("challenge", "game")
            .expect("the game option");
        assert_eq!(option["name_localizations"]["ja"], "種類");
        assert_eq!(option["choices"][0]["name_localizations"]["ja"], "将棋 (shogi)「本将棋」");
    })
    .await;
}

/// Connects to the gateway, identifies with `token`, and returns the close code if the fake
/// closes the connection (`None`: it answered READY).
async fn identify_close_code(fake: &FakeDiscord, token: &str) -> Option<u16> {
    use serenity::futures::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let url = format!("{}?v=10&encoding=json", fake.gateway_url());
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("connect to the fake gateway");
    let identify = json!({"op": 2, "d": {
        "token": token, "intents": 1, "properties": {"os": "linux", "browser": "raw", "device": "raw"},
    }});
    ws.send(Message::Text(identify.to_string()))
        .await
        .expect("send IDENTIFY");
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a frame in time");
        match frame {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).expect("JSON");
                if v["t"] == "READY" {
                    return None;
                }
            }
            Some(Ok(Message::Close(Some(f)))) => return Some(u16::from(f.code)),
            Some(Ok(_)) => {}
            other => panic!("the connection ended without a close frame: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_refuses_tokens_it_does_not_accept() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let good = http(&fake, "good-token");
        let bad = http(&fake, "bad-token");
        good.get_gateway().await.expect("every token by default");
        bad.get_gateway().await.expect("every token by default");

        fake.reject_tokens(true);
        let r = good.get_gateway().await;
        assert_eq!(refusal(r), (401, 0));
        assert_eq!(
            refusal_message(good.get_current_user().await),
            "401: Unauthorized"
        );
        let last = fake.calls().pop().expect("a call");
        assert_eq!(last.status, 401);
        assert_eq!(last.auth.as_deref(), Some("Bot good-token"));
        assert_eq!(
            last.response,
            Some(json!({"message": "401: Unauthorized", "code": 0}))
        );

        fake.accept_only_tokens(&["good-token"]);
        good.get_gateway().await.expect("the accepted token");
        assert_eq!(refusal(bad.get_gateway().await), (401, 0));
        assert_eq!(
            refusal(
                bad.send_message(ChannelId::new(CHANNEL_ID), vec![], &text("x"))
                    .await
            ),
            (401, 0)
        );
        assert!(fake.channel_messages(CHANNEL_ID).is_empty());

        // Interaction responses go by the interaction's token, not the bot's.
        let alice = FakeUser::new(2_000_000_000_000_000_903, "alice");
        let (id, token, _) = fake.slash_command(&alice, "games", json!([]), &[]);
        bad.create_interaction_response(
            id.into(),
            &token,
            &json!({"type": 4, "data": {"content": "None"}}),
            vec![],
        )
        .await
        .expect("an interaction response is not checked against the bot token");

        // The gateway closes an IDENTIFY with a refused token with 4004 (serenity gives up).
        assert_eq!(
            identify_close_code(&fake, "Bot bad-token").await,
            Some(4004)
        );
        assert_eq!(identify_close_code(&fake, "good-token").await, None);
        fake.reject_tokens(false);
        bad.get_gateway().await.expect("every token again");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_fail_times_fails_n_calls_then_serves() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let http = http(&fake, "token");
        let games = ChannelId::new(CHANNEL_ID);
        fake.fail_times("POST", &format!("/channels/{CHANNEL_ID}/messages"), 503, 2);
        for _ in 0..2 {
            let (status, _) = refusal(http.send_message(games, vec![], &text("x")).await);
            assert_eq!(status, 503);
        }
        http.send_message(games, vec![], &text("third"))
            .await
            .expect("the third is served");
        let statuses: Vec<(u16, bool)> = fake
            .calls()
            .iter()
            .map(|c| (c.status, c.injected))
            .collect();
        assert_eq!(statuses, vec![(503, true), (503, true), (200, false)]);
        assert_eq!(fake.channel_messages(CHANNEL_ID).len(), 1);
        fake.assert_clean();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_thread_members_are_added_listed_and_taken_out_as_discord_checks_them() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let http = http(&fake, "token");
        let carol = FakeUser::new(2_000_000_000_000_000_901, "carol");
        fake.add_user(&carol);
        let (_, thread) = thread_from_message(&http, CHANNEL_ID, "Game 7").await;
        let t = ChannelId::new(thread);
        let before = fake.messages_in(thread).len();
        http.add_thread_channel_member(t, UserId::new(carol.id))
            .await
            .expect("a member added");
        // Twice is the same member; no message, nobody pinged.
        http.add_thread_channel_member(t, UserId::new(carol.id))
            .await
            .expect("added again");
        assert_eq!(fake.thread_members(thread), vec![carol.id]);
        assert_eq!(fake.messages_in(thread).len(), before);
        let listed = http
            .get_channel_thread_members(t)
            .await
            .expect("serenity reads the list");
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].user_id.get(), carol.id);
        // Someone the server does not have; a channel that is no thread; an archived thread.
        assert_eq!(
            refusal(http.add_thread_channel_member(t, UserId::new(42)).await),
            (404, 10007)
        );
        assert_eq!(
            refusal(
                http.add_thread_channel_member(ChannelId::new(CHANNEL_ID), UserId::new(carol.id))
                    .await
            ),
            (400, 50024)
        );
        http.remove_thread_channel_member(t, UserId::new(carol.id))
            .await
            .expect("taken out");
        assert!(fake.thread_members(thread).is_empty());
        http.edit_thread(t, &json!({"archived": true}), None)
            .await
            .expect("archived");
        assert_eq!(
            refusal(
                http.add_thread_channel_member(t, UserId::new(carol.id))
                    .await
            ),
            (400, 50083)
        );
        assert_eq!(
            refusal(
                http.remove_thread_channel_member(t, UserId::new(carol.id))
                    .await
            ),
            (400, 50083)
        );
        assert!(fake.thread_members(thread).is_empty());
        fake.assert_no_unknown_routes();
        assert!(fake.problems().is_empty(), "{:?}", fake.problems());
    })
    .await;
}
