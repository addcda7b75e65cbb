//! End-to-end tests of the Discord side, against a fake Discord on loopback
//! (`tests/fake_discord/`): nothing here reaches the real Discord.
//!
//! Sections:
//! - The fake Discord against the real serenity client: proves that the fake speaks serenity's
//!   language (gateway, events, REST answers), before any bot test relies on it.
//! - `bot_e2e`: the real `tegami run` binary against the fake, a whole game the Discord way.

mod bot_e2e;
mod fake_discord;

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use fake_discord::{
    opt_focused, opt_str, opt_user, FakeDiscord, FakeUser, Recorded, APP_ID, BOT_USER_ID,
    CHANNEL_ID, GUILD_ID, OWNER_USER_ID,
};
use serde_json::json;
use serenity::all::{
    AutoArchiveDuration, ButtonStyle, Channel, ChannelId, ChannelType, ClientBuilder, Command,
    CommandOptionType, ComponentInteractionDataKind, Context, CreateActionRow,
    CreateAllowedMentions, CreateAttachment, CreateAutocompleteResponse, CreateButton,
    CreateCommand, CreateCommandOption, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    CreateSelectMenu, CreateSelectMenuKind, CreateSelectMenuOption, CreateThread,
    EditInteractionResponse, EditThread, EventHandler, GatewayIntents, GuildId, Http, HttpBuilder,
    Interaction, Message, MessageId, Ready, ResolvedValue, UserId,
};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

// ===== The fake Discord against the real serenity client ===================================

/// The longest any self-test may take before it fails instead of hanging.
const TEST_LIMIT: Duration = Duration::from_secs(60);
/// How long a single expected event or call may take.
const WAIT: Duration = Duration::from_secs(10);

/// Runs a test body with a time limit.
async fn bounded<F: std::future::Future<Output = ()>>(body: F) {
    tokio::time::timeout(TEST_LIMIT, body)
        .await
        .expect("the test did not finish within its time limit");
}

/// What the plain serenity client saw.
#[derive(Debug)]
enum Seen {
    Ready(Box<Ready>),
    Interaction(Box<Interaction>),
    Message(Box<Message>),
}

/// An event handler that forwards the events the self-tests look at.
struct Forward(mpsc::UnboundedSender<Seen>);

#[serenity::async_trait]
impl EventHandler for Forward {
    async fn ready(&self, _ctx: Context, ready: Ready) {
        let _ = self.0.send(Seen::Ready(Box::new(ready)));
    }

    async fn interaction_create(&self, _ctx: Context, interaction: Interaction) {
        let _ = self.0.send(Seen::Interaction(Box::new(interaction)));
    }

    async fn message(&self, _ctx: Context, msg: Message) {
        let _ = self.0.send(Seen::Message(Box::new(msg)));
    }
}

/// A plain serenity client (no poise) connected to the fake.
struct Client {
    http: Arc<Http>,
    events: mpsc::UnboundedReceiver<Seen>,
    task: JoinHandle<()>,
}

impl Drop for Client {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Client {
    /// Builds the client the way the bot's adapter does (proxy + rate limiter off) and starts
    /// it in a task.
    async fn start(fake: &FakeDiscord) -> Client {
        let http = HttpBuilder::new("Bot-token-for-tests")
            .proxy(fake.api_base())
            .ratelimiter_disabled(true)
            .build();
        let (tx, events) = mpsc::unbounded_channel();
        let intents = GatewayIntents::non_privileged() | GatewayIntents::MESSAGE_CONTENT;
        let mut client = ClientBuilder::new_with_http(http, intents)
            .event_handler(Forward(tx))
            .await
            .expect("build the serenity client");
        let http = client.http.clone();
        let task = tokio::spawn(async move {
            if let Err(e) = client.start().await {
                eprintln!("serenity client stopped: {e}");
            }
        });
        Client { http, events, task }
    }

    /// Waits for the first event `pick` accepts (others are skipped).
    async fn next<T>(&mut self, what: &str, pick: impl Fn(Seen) -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            match tokio::time::timeout_at(deadline, self.events.recv()).await {
                Ok(Some(seen)) => {
                    if let Some(t) = pick(seen) {
                        return t;
                    }
                }
                Ok(None) => panic!("the client stopped while waiting for {what}"),
                Err(_) => panic!("no {what} within {WAIT:?}"),
            }
        }
    }

    async fn ready(&mut self) -> Ready {
        self.next("READY", |s| match s {
            Seen::Ready(r) => Some(*r),
            _ => None,
        })
        .await
    }

    async fn interaction(&mut self) -> Interaction {
        self.next("INTERACTION_CREATE", |s| match s {
            Seen::Interaction(i) => Some(*i),
            _ => None,
        })
        .await
    }

    async fn message(&mut self, content: &str) -> Message {
        self.next(&format!("MESSAGE_CREATE {content:?}"), |s| match s {
            Seen::Message(m) if m.content == content => Some(*m),
            _ => None,
        })
        .await
    }
}

/// A fake and a client that has received READY.
async fn connected() -> (FakeDiscord, Client) {
    let fake = FakeDiscord::start().await;
    let mut client = Client::start(&fake).await;
    fake.wait_ready(WAIT).await;
    client.ready().await;
    (fake, client)
}

fn alice() -> FakeUser {
    FakeUser::new(2_000_000_000_000_000_001, "alice").with_display("Alice")
}

fn bob() -> FakeUser {
    FakeUser::new(2_000_000_000_000_000_002, "bob")
        .with_display("Bob")
        .with_nick("Bobby")
}

/// The status and Discord error code of a failed serenity HTTP call.
fn http_error(e: &serenity::Error) -> (u16, isize) {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            (r.status_code.as_u16(), r.error.code)
        }
        other => panic!("expected an unsuccessful request, got {other:?}"),
    }
}

/// A PNG signature and header chunk of a 2×3 image (enough for the fake's size sniffing).
fn tiny_png() -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend_from_slice(&2u32.to_be_bytes());
    png.extend_from_slice(&3u32.to_be_bytes());
    png.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
    png
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_serves_ready_and_startup_calls() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        assert!(fake.api_base().starts_with("http://127.0.0.1:"));
        let mut client = Client::start(&fake).await;
        let ready = client.ready().await;
        assert_eq!(ready.application.id.get(), APP_ID);
        assert_eq!(ready.user.id.get(), BOT_USER_ID);
        assert!(ready.user.bot);
        assert_eq!(ready.resume_gateway_url, fake.gateway_url());
        fake.wait_ready(WAIT).await;
        assert_eq!((fake.connection_count(), fake.identify_count()), (1, 1));
        assert_eq!(client.http.application_id().map(|a| a.get()), Some(APP_ID));

        let identify = &fake.identify_payloads()[0];
        let intents = GatewayIntents::non_privileged() | GatewayIntents::MESSAGE_CONTENT;
        assert_eq!(identify["intents"], json!(intents.bits()));
        assert_eq!(identify["shard"], json!([0, 1]));
        assert!(fake
            .calls()
            .iter()
            .any(|c| c.method == "GET" && c.path == "/api/v10/gateway"));

        let info = client
            .http
            .get_current_application_info()
            .await
            .expect("app info");
        assert_eq!(info.id.get(), APP_ID);
        assert_eq!(info.owner.map(|o| o.id.get()), Some(OWNER_USER_ID));
        let me = client.http.get_current_user().await.expect("current user");
        assert_eq!(me.id.get(), BOT_USER_ID);
        let bot_gateway = client.http.get_bot_gateway().await.expect("bot gateway");
        assert_eq!(
            (bot_gateway.url, bot_gateway.shards),
            (fake.gateway_url(), 1)
        );
        let channel = client
            .http
            .get_channel(ChannelId::new(CHANNEL_ID))
            .await
            .expect("channel");
        let Channel::Guild(channel) = channel else {
            panic!("the server channel is a guild channel");
        };
        assert_eq!(
            (channel.kind, channel.guild_id.get()),
            (ChannelType::Text, GUILD_ID)
        );
        fake.assert_clean();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_registers_commands_and_checks_invocations_against_them() {
    bounded(async {
        let (fake, client) = connected().await;
        let commands = vec![CreateCommand::new("challenge")
            .description("Challenge someone to a game")
            .add_option(
                CreateCommandOption::new(CommandOptionType::User, "opponent", "Who to play")
                    .required(true),
            )
            .add_option(
                CreateCommandOption::new(CommandOptionType::String, "variant", "Which game")
                    .set_autocomplete(true),
            )];
        let registered = Command::set_global_commands(&client.http, commands)
            .await
            .expect("register commands");
        assert_eq!(registered.len(), 1);
        assert_eq!(registered[0].application_id.get(), APP_ID);
        assert_eq!(registered[0].name, "challenge");
        assert_eq!(fake.registered_commands().len(), 1);
        let in_guild = GuildId::new(GUILD_ID)
            .set_commands(
                &client.http,
                vec![CreateCommand::new("ping").description("Pong")],
            )
            .await
            .expect("guild commands");
        assert_eq!(in_guild[0].guild_id.map(|g| g.get()), Some(GUILD_ID));
        assert_eq!(fake.registered_commands().len(), 2);

        // Discord refuses upper-case command names.
        let bad = Command::set_global_commands(
            &client.http,
            vec![CreateCommand::new("Challenge").description("x")],
        )
        .await
        .expect_err("an upper-case name is refused");
        assert_eq!(http_error(&bad), (400, 50035));

        // Fixtures follow the registered definition.
        let (alice, bob) = (alice(), bob());
        let options = json!([opt_user("opponent", &bob), opt_str("variant", "shogi")]);
        fake.slash_command(&alice, "challenge", options, &[&bob]);
        let wrong = std::panic::catch_unwind(AssertUnwindSafe(|| {
            fake.slash_command(
                &alice,
                "challenge",
                json!([opt_str("variant", "shogi")]),
                &[],
            )
        }));
        assert!(wrong.is_err(), "a missing required option is caught");
        let unknown = std::panic::catch_unwind(AssertUnwindSafe(|| {
            fake.slash_command(&alice, "resign", json!([]), &[])
        }));
        assert!(unknown.is_err(), "an unregistered command is caught");
        assert_eq!(fake.errors().len(), 1, "only the refused registration");
        fake.assert_no_unknown_routes();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_interactions_reach_serenity_and_responses_are_recorded() {
    bounded(async {
        let (fake, mut client) = connected().await;
        let http = client.http.clone();
        let (alice, bob) = (alice(), bob());

        // A slash command with a user option, resolved.
        let options = json!([opt_user("opponent", &bob), opt_str("variant", "shogi")]);
        let (id, _token, event) = fake.slash_command(&alice, "challenge", options, &[&bob]);
        fake.dispatch("INTERACTION_CREATE", event).await;
        let Interaction::Command(cmd) = client.interaction().await else {
            panic!("a slash command arrives as Interaction::Command");
        };
        assert_eq!(cmd.id.get(), id);
        assert_eq!(cmd.data.name, "challenge");
        assert_eq!(cmd.user.id.get(), alice.id);
        assert_eq!(cmd.guild_id.map(|g| g.get()), Some(GUILD_ID));
        assert!(cmd.member.as_ref().and_then(|m| m.permissions).is_some());
        assert!(cmd.app_permissions.is_some());
        let options = cmd.data.options();
        let ResolvedValue::User(user, member) = &options[0].value else {
            panic!("the opponent option resolves to a user: {:?}", options[0]);
        };
        assert_eq!(
            (user.id.get(), user.global_name.as_deref()),
            (bob.id, Some("Bob"))
        );
        assert_eq!(member.and_then(|m| m.nick.as_deref()), Some("Bobby"));
        assert!(matches!(options[1].value, ResolvedValue::String("shogi")));

        // The reply, with a file and buttons, is recorded and becomes the original response.
        let reply = CreateInteractionResponseMessage::new()
            .content("Bob, Alice challenges you")
            .add_file(CreateAttachment::bytes(tiny_png(), "board.png"))
            .components(vec![CreateActionRow::Buttons(vec![
                CreateButton::new("accept:1")
                    .label("Accept")
                    .style(ButtonStyle::Success),
                CreateButton::new("decline:1")
                    .label("Decline")
                    .style(ButtonStyle::Danger),
            ])]);
        cmd.create_response(&*http, CreateInteractionResponse::Message(reply))
            .await
            .expect("interaction response");
        let answers = fake.interaction_responses(id);
        assert_eq!(answers.len(), 1);
        assert_eq!(answers[0].status, 204);
        assert_eq!(
            answers[0].json.as_ref().map(|j| j["type"].clone()),
            Some(json!(4))
        );
        assert_eq!(
            answers[0].content().as_deref(),
            Some("Bob, Alice challenges you")
        );
        assert_eq!(
            answers[0].files.len(),
            1,
            "a reply with a file is multipart"
        );
        assert_eq!(answers[0].files[0].bytes, tiny_png());
        let original = cmd.get_response(&*http).await.expect("GET @original");
        assert_eq!(original.content, "Bob, Alice challenges you");
        assert_eq!(original.author.id.get(), BOT_USER_ID);
        assert_eq!(original.attachments.len(), 1);
        assert_eq!(fake.messages_in(CHANNEL_ID).len(), 1);
        let edit = EditInteractionResponse::new().content("Bob, Alice challenges you!");
        let edited = cmd
            .edit_response(&*http, edit)
            .await
            .expect("PATCH @original");
        assert_eq!(
            edited.attachments.len(),
            1,
            "an edit without attachments keeps them"
        );
        assert!(edited.edited_timestamp.is_some());

        // Discord takes one initial response only.
        let again = cmd
            .create_response(
                &*http,
                CreateInteractionResponse::Message(
                    CreateInteractionResponseMessage::new().content("again"),
                ),
            )
            .await
            .expect_err("a second initial response is refused");
        assert_eq!(http_error(&again), (400, 40060));

        // A click on the button of the recorded reply.
        let (click_id, _, event) =
            fake.button_click(&bob, "accept:1", &answers[0].json.clone().unwrap());
        fake.dispatch("INTERACTION_CREATE", event).await;
        let Interaction::Component(click) = client.interaction().await else {
            panic!("a button click arrives as Interaction::Component");
        };
        assert_eq!(click.id.get(), click_id);
        assert_eq!(click.data.custom_id, "accept:1");
        assert_eq!(click.message.id, original.id);
        assert_eq!(click.user.id.get(), bob.id);
        let update = CreateInteractionResponseMessage::new()
            .content("Bob accepted")
            .components(vec![]);
        click
            .create_response(&*http, CreateInteractionResponse::UpdateMessage(update))
            .await
            .expect("update the message");
        let now = fake.message(original.id.get()).expect("stored message");
        assert_eq!(now["content"], "Bob accepted");
        assert_eq!(now["components"], json!([]));
        // serenity always sends `attachments: []` with UpdateMessage, and Discord then drops the
        // message's attachments.
        assert_eq!(now["attachments"], json!([]));

        // A string select menu.
        let menu = CreateSelectMenu::new(
            "variant",
            CreateSelectMenuKind::String {
                options: vec![
                    CreateSelectMenuOption::new("Shogi", "shogi"),
                    CreateSelectMenuOption::new("Judkins Shogi", "judkins"),
                ],
            },
        );
        let with_menu = ChannelId::new(CHANNEL_ID)
            .send_message(
                &*http,
                CreateMessage::new().content("Pick").select_menu(menu),
            )
            .await
            .expect("a message with a select menu");
        let menu_json = fake.message(with_menu.id.get()).expect("stored");
        let (_, _, event) = fake.select_menu(&alice, "variant", &["judkins"], &menu_json);
        fake.dispatch("INTERACTION_CREATE", event).await;
        let Interaction::Component(choice) = client.interaction().await else {
            panic!("a select menu choice arrives as Interaction::Component");
        };
        let ComponentInteractionDataKind::StringSelect { values } = &choice.data.kind else {
            panic!("a string select: {:?}", choice.data.kind);
        };
        assert_eq!(values, &vec!["judkins".to_owned()]);

        // Autocomplete.
        let (auto_id, _, event) = fake.autocomplete(
            &alice,
            "challenge",
            json!([opt_focused("variant", 3, "sho")]),
        );
        fake.dispatch("INTERACTION_CREATE", event).await;
        let Interaction::Autocomplete(auto) = client.interaction().await else {
            panic!("an autocomplete arrives as Interaction::Autocomplete");
        };
        let focused = auto.data.autocomplete().expect("a focused option");
        assert_eq!((focused.name, focused.value), ("variant", "sho"));
        let choices = CreateAutocompleteResponse::new().add_string_choice("Shogi", "shogi");
        auto.create_response(&*http, CreateInteractionResponse::Autocomplete(choices))
            .await
            .expect("autocomplete response");
        let answer = &fake.interaction_responses(auto_id)[0];
        assert_eq!(answer.json.as_ref().unwrap()["type"], 8);
        assert_eq!(
            answer.json.as_ref().unwrap()["data"]["choices"][0]["value"],
            "shogi"
        );

        // A deferred reply, then the follow-up that fills it.
        let (later_id, _, event) = fake.slash_command(&alice, "challenge", json!([]), &[]);
        fake.dispatch("INTERACTION_CREATE", event).await;
        let Interaction::Command(later) = client.interaction().await else {
            panic!("a slash command");
        };
        later.defer(&*http).await.expect("defer");
        let followup = later
            .create_followup(
                &*http,
                CreateInteractionResponseFollowup::new().content("Thought about it"),
            )
            .await
            .expect("follow-up");
        let original = later.get_response(&*http).await.expect("GET @original");
        assert_eq!(
            original.id, followup.id,
            "the first follow-up fills the deferred reply"
        );
        assert_eq!(original.content, "Thought about it");
        assert_eq!(fake.interaction_responses(later_id).len(), 3);
        assert!(fake.interaction_responses(later_id)[1].created.is_some());
        assert_eq!(fake.errors().len(), 1, "only the second initial response");
        fake.assert_no_unknown_routes();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_message_create_reaches_serenity() {
    bounded(async {
        let (fake, mut client) = connected().await;
        let (alice, bob) = (alice(), bob());
        fake.add_user(&bob);
        let content = format!("{} 7g7f please", bob.mention());
        let event = fake.message_create(&alice, CHANNEL_ID, &content);
        fake.dispatch("MESSAGE_CREATE", event).await;
        let msg = client.message(&content).await;
        assert_eq!(msg.author.id.get(), alice.id);
        assert_eq!(msg.channel_id.get(), CHANNEL_ID);
        assert_eq!(msg.guild_id.map(|g| g.get()), Some(GUILD_ID));
        assert_eq!(
            msg.mentions.iter().map(|u| u.id.get()).collect::<Vec<_>>(),
            vec![bob.id]
        );
        assert_eq!(fake.channel_messages(CHANNEL_ID).len(), 1);

        // A user's file, served by the fake.
        let kif = "手合割：平手\n".as_bytes();
        let event = fake.message_create_with_file(&alice, CHANNEL_ID, "my game", "game.kif", kif);
        fake.dispatch("MESSAGE_CREATE", event).await;
        let msg = client.message("my game").await;
        assert_eq!(msg.attachments[0].filename, "game.kif");
        assert_eq!(msg.attachments[0].download().await.expect("download"), kif);

        // The bot replies to the user's message; the fake waits for it.
        let mark = fake.call_count();
        let http = client.http.clone();
        let reply_to = msg.id;
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let reply = CreateMessage::new()
                .content("Imported")
                .reference_message((ChannelId::new(CHANNEL_ID), reply_to));
            let _ = ChannelId::new(CHANNEL_ID).send_message(&http, reply).await;
        });
        let rec = fake
            .wait_for_since(mark, "the bot's reply", WAIT, |c| {
                c.content().as_deref() == Some("Imported")
            })
            .await;
        let reply = rec.created.expect("a created message");
        assert_eq!(reply["type"], 19);
        assert_eq!(
            reply["referenced_message"]["id"],
            json!(reply_to.get().to_string())
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_records_messages_with_attachments() {
    bounded(async {
        let (fake, client) = connected().await;
        let bob = bob();
        fake.add_user(&bob);
        let png = tiny_png();
        let builder = CreateMessage::new()
            .content(format!("{} your move", bob.mention()))
            .add_file(CreateAttachment::bytes(png.clone(), "board.png"))
            .allowed_mentions(CreateAllowedMentions::new().users([UserId::new(bob.id)]));
        let sent = ChannelId::new(CHANNEL_ID)
            .send_message(&client.http, builder)
            .await
            .expect("send a message with a file");
        assert_eq!(sent.author.id.get(), BOT_USER_ID);
        assert_eq!(sent.attachments.len(), 1);
        let attachment = &sent.attachments[0];
        assert_eq!(attachment.filename, "board.png");
        assert_eq!(attachment.size as usize, png.len());
        assert_eq!(attachment.dimensions(), Some((2, 3)));
        assert_eq!(attachment.content_type.as_deref(), Some("image/png"));
        assert_eq!(attachment.download().await.expect("download"), png);
        assert_eq!(
            sent.mentions.iter().map(|u| u.id.get()).collect::<Vec<_>>(),
            vec![bob.id]
        );

        let rec: Recorded = fake.messages_in(CHANNEL_ID).remove(0);
        assert_eq!((rec.method.as_str(), rec.status), ("POST", 200));
        assert_eq!(rec.path, format!("/api/v10/channels/{CHANNEL_ID}/messages"));
        assert_eq!(rec.files.len(), 1);
        assert_eq!(rec.files[0].field, "files[0]");
        assert_eq!(rec.files[0].filename, "board.png");
        assert_eq!(rec.files[0].content_type.as_deref(), Some("image/png"));
        assert_eq!(rec.files[0].bytes, png);
        let payload = rec.json.as_ref().expect("payload_json");
        assert_eq!(
            payload["allowed_mentions"]["users"],
            json!([bob.id.to_string()])
        );
        assert_eq!(payload["attachments"][0]["filename"], "board.png");

        // Discord's limits: 2000 characters of content (serenity's builder checks that too, so
        // the raw call).
        let long = json!({"content": "x".repeat(2001)});
        let refused = client
            .http
            .send_message(ChannelId::new(CHANNEL_ID), vec![], &long)
            .await
            .expect_err("too long");
        assert_eq!(http_error(&refused), (400, 50035));
        if let serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) = &refused {
            assert_eq!(r.error.errors[0].path, "content");
        }
        fake.assert_no_unknown_routes();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_threads_and_direct_messages() {
    bounded(async {
        let (fake, mut client) = connected().await;
        let http = &client.http.clone();
        let games = ChannelId::new(CHANNEL_ID);
        let start = games
            .send_message(http, CreateMessage::new().content("Game 1 starts"))
            .await
            .expect("message");
        let thread = games
            .create_thread_from_message(
                http,
                start.id,
                CreateThread::new("Game 1").auto_archive_duration(AutoArchiveDuration::OneDay),
            )
            .await
            .expect("thread from a message");
        assert_eq!(thread.kind, ChannelType::PublicThread);
        assert_eq!(
            thread.id.get(),
            start.id.get(),
            "a thread takes its message's id"
        );
        assert_eq!(thread.parent_id, Some(games));
        assert_eq!(thread.guild_id.get(), GUILD_ID);
        let md = thread.thread_metadata.expect("thread metadata");
        assert_eq!(md.auto_archive_duration, AutoArchiveDuration::OneDay);
        assert!(!md.archived);
        assert_eq!(fake.threads().len(), 1);
        assert_eq!(
            fake.threads()[0]["thread_metadata"]["auto_archive_duration"],
            1440
        );

        // Without a type, Discord (v10) makes a private thread.
        let private = games
            .create_thread(http, CreateThread::new("Analysis"))
            .await
            .expect("thread without a message");
        assert_eq!(private.kind, ChannelType::PrivateThread);
        let public = games
            .create_thread(
                http,
                CreateThread::new("Lobby").kind(ChannelType::PublicThread),
            )
            .await
            .expect("public thread");
        assert_eq!(public.kind, ChannelType::PublicThread);

        // Archive; a message to the archived thread unarchives it.
        let archived = thread
            .id
            .edit_thread(http, EditThread::new().archived(true))
            .await
            .expect("archive");
        assert!(archived.thread_metadata.expect("metadata").archived);
        thread
            .id
            .send_message(http, CreateMessage::new().content("Still here"))
            .await
            .expect("message to an archived thread");
        assert_eq!(fake.threads()[0]["thread_metadata"]["archived"], false);
        let locked = thread
            .id
            .edit_thread(http, EditThread::new().archived(true).locked(true))
            .await
            .expect("archive and lock");
        assert!(locked.thread_metadata.expect("metadata").locked);
        let refused = thread
            .id
            .send_message(http, CreateMessage::new().content("Locked out"))
            .await
            .expect_err("a locked thread refuses messages");
        assert_eq!(http_error(&refused), (400, 50083));

        // Direct messages: one channel per user; closed DMs refuse messages.
        let bob = bob();
        fake.add_user(&bob);
        let dm = UserId::new(bob.id)
            .create_dm_channel(http)
            .await
            .expect("DM channel");
        assert_eq!(dm.recipient.id.get(), bob.id);
        let again = UserId::new(bob.id)
            .create_dm_channel(http)
            .await
            .expect("DM channel");
        assert_eq!(dm.id, again.id);
        assert_eq!(fake.dm_channel_of(bob.id), Some(dm.id.get()));
        dm.id
            .send_message(http, CreateMessage::new().content("Your move"))
            .await
            .expect("DM");
        fake.set_dms_closed(bob.id, true);
        let closed = dm
            .id
            .send_message(http, CreateMessage::new().content("Your move?"))
            .await
            .expect_err("closed DMs");
        assert_eq!(http_error(&closed), (403, 50007));
        assert_eq!(fake.messages_in(dm.id.get()).len(), 1);

        // A command in the DM: `user` instead of `member`, no server.
        let (_, _, event) = fake.slash_command_in(dm.id.get(), &bob, "games", json!([]), &[]);
        fake.dispatch("INTERACTION_CREATE", event).await;
        let Interaction::Command(cmd) = client.interaction().await else {
            panic!("a slash command");
        };
        assert_eq!((cmd.guild_id, cmd.user.id.get()), (None, bob.id));
        assert!(cmd.member.is_none());
        let reply = CreateInteractionResponseMessage::new().content("None");
        cmd.create_response(http, CreateInteractionResponse::Message(reply))
            .await
            .expect("a reply in a closed DM still works");

        // And one in the thread.
        let (_, _, event) = fake.slash_command_in(thread.id.get(), &bob, "games", json!([]), &[]);
        fake.dispatch("INTERACTION_CREATE", event).await;
        let Interaction::Command(cmd) = client.interaction().await else {
            panic!("a slash command");
        };
        let channel = cmd.channel.as_ref().expect("the interaction's channel");
        assert_eq!(
            (channel.kind, channel.parent_id),
            (ChannelType::PublicThread, Some(games))
        );
        fake.assert_no_unknown_routes();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_fail_next_fails_once() {
    bounded(async {
        let (fake, client) = connected().await;
        let games = ChannelId::new(CHANNEL_ID);
        fake.fail_next("POST", &format!("/channels/{CHANNEL_ID}/messages"), 500);
        let failed = games
            .send_message(&client.http, CreateMessage::new().content("first"))
            .await
            .expect_err("the injected failure");
        assert_eq!(http_error(&failed).0, 500);
        games
            .send_message(&client.http, CreateMessage::new().content("second"))
            .await
            .expect("the next one succeeds");
        let calls = fake.calls();
        let posts: Vec<&Recorded> = calls.iter().filter(|c| c.method == "POST").collect();
        assert_eq!(posts.len(), 2);
        assert_eq!((posts[0].status, posts[0].injected), (500, true));
        assert_eq!((posts[1].status, posts[1].injected), (200, false));
        assert_eq!(
            fake.channel_messages(CHANNEL_ID).len(),
            1,
            "the failed call stored nothing"
        );
        fake.assert_clean();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_gateway_survives_a_dropped_connection() {
    bounded(async {
        let (fake, mut client) = connected().await;
        let alice = alice();
        let before = fake.message_create(&alice, CHANNEL_ID, "before");
        let s1 = fake.dispatch("MESSAGE_CREATE", before).await;
        client.message("before").await;

        // An abrupt drop: serenity resumes the session on a new connection.
        let dropped = fake.drop_gateway().await;
        assert_eq!(dropped, 1);
        assert_eq!(fake.wait_reconnect(WAIT).await, 2);
        assert_eq!(fake.connection_count(), 2);
        assert_eq!((fake.identify_count(), fake.resume_count()), (1, 1));
        let after = fake.message_create(&alice, CHANNEL_ID, "after");
        let s2 = fake.dispatch("MESSAGE_CREATE", after).await;
        assert!(s2 > s1, "the session's sequence goes on ({s1} then {s2})");
        client.message("after").await;

        // When the session cannot be resumed, serenity identifies again.
        fake.set_resume_allowed(false);
        fake.drop_gateway().await;
        fake.wait_reconnect(Duration::from_secs(20)).await;
        assert_eq!(fake.identify_count(), 2);
        assert!(fake.invalid_session_count() >= 1);
        client.ready().await;
        let last = fake.message_create(&alice, CHANNEL_ID, "new session");
        fake.dispatch("MESSAGE_CREATE", last).await;
        client.message("new session").await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_gateway_acknowledges_heartbeats() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        fake.set_heartbeat_interval(Duration::from_millis(300));
        let mut client = Client::start(&fake).await;
        client.ready().await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert!(
            fake.heartbeat_count() >= 2,
            "heartbeats: {}",
            fake.heartbeat_count()
        );
        assert_eq!(
            fake.connection_count(),
            1,
            "acknowledged heartbeats keep the connection"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_reports_unknown_routes() {
    bounded(async {
        let (fake, client) = connected().await;
        // The server itself is served (its owner is told of channels the bot lost) ...
        let guild = client
            .http
            .get_guild(GuildId::new(GUILD_ID))
            .await
            .expect("the fake serves the server");
        assert_eq!(guild.owner_id.get(), OWNER_USER_ID);
        assert!(fake.unknown_routes().is_empty());
        // ... its roles alone are not.
        let err = client
            .http
            .get_guild_roles(GuildId::new(GUILD_ID))
            .await
            .expect_err("the fake does not serve a server's roles");
        assert_eq!(http_error(&err).0, 404);
        assert_eq!(
            fake.unknown_routes(),
            vec![format!("GET /api/v10/guilds/{GUILD_ID}/roles")]
        );
        let check = std::panic::catch_unwind(AssertUnwindSafe(|| fake.assert_no_unknown_routes()));
        assert!(check.is_err(), "assert_no_unknown_routes fails loudly");
        let missing = client
            .http
            .get_message(ChannelId::new(CHANNEL_ID), MessageId::new(42))
            .await
            .expect_err("an unknown message");
        assert_eq!(http_error(&missing), (404, 10008));
        assert_eq!(
            fake.unknown_routes().len(),
            1,
            "a known route with an unknown id is not unknown"
        );

        // wait_for fails loudly instead of hanging.
        let fake = Arc::new(fake);
        let waiter = fake.clone();
        let waited = tokio::spawn(async move {
            waiter
                .wait_for("a call that never comes", Duration::from_millis(100), |c| {
                    c.path == "/never"
                })
                .await;
        })
        .await;
        assert!(waited.expect_err("wait_for panics on timeout").is_panic());
    })
    .await;
}

/// A raw gateway client (tokio-tungstenite), for what serenity does not show: sequence numbers,
/// replay on RESUME, intents.
struct RawGateway(
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
);

impl RawGateway {
    async fn connect(fake: &FakeDiscord) -> RawGateway {
        let url = format!("{}?v=10&encoding=json", fake.gateway_url());
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("connect to the fake gateway");
        RawGateway(ws)
    }

    async fn send(&mut self, payload: serde_json::Value) {
        use serenity::futures::SinkExt;
        let frame = tokio_tungstenite::tungstenite::Message::Text(payload.to_string());
        self.0.send(frame).await.expect("send a frame");
    }

    async fn recv(&mut self) -> serde_json::Value {
        use serenity::futures::StreamExt;
        loop {
            let frame = tokio::time::timeout(WAIT, self.0.next())
                .await
                .expect("a frame in time")
                .expect("an open connection")
                .expect("a readable frame");
            if let tokio_tungstenite::tungstenite::Message::Text(text) = frame {
                return serde_json::from_str(&text).expect("a JSON frame");
            }
        }
    }

    async fn identify(&mut self, intents: u64) -> serde_json::Value {
        self.identify_as(intents, [0, 1]).await
    }

    /// IDENTIFY as shard `[id, total]`; returns READY.
    async fn identify_as(&mut self, intents: u64, shard: [u64; 2]) -> serde_json::Value {
        self.send(json!({"op": 2, "d": {
            "token": "Bot raw", "intents": intents, "shard": shard,
            "properties": {"os": "linux", "browser": "raw", "device": "raw"},
        }}))
        .await;
        self.recv().await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_gateway_protocol_sequence_and_resume_replay() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let alice = alice();
        let all = GatewayIntents::non_privileged() | GatewayIntents::MESSAGE_CONTENT;

        let mut raw = RawGateway::connect(&fake).await;
        let hello = raw.recv().await;
        assert_eq!(hello["op"], 10);
        assert_eq!(hello["d"]["heartbeat_interval"], 41_250);
        let ready = raw.identify(all.bits()).await;
        assert_eq!(
            (ready["op"].clone(), ready["t"].clone(), ready["s"].clone()),
            (json!(0), json!("READY"), json!(1))
        );
        assert_eq!(ready["d"]["shard"], json!([0, 1]));
        let session = ready["d"]["session_id"]
            .as_str()
            .expect("session id")
            .to_owned();
        raw.send(json!({"op": 1, "d": 1})).await;
        assert_eq!(raw.recv().await["op"], 11);

        let s2 = fake
            .dispatch(
                "MESSAGE_CREATE",
                fake.message_create(&alice, CHANNEL_ID, "one"),
            )
            .await;
        let s3 = fake
            .dispatch(
                "MESSAGE_CREATE",
                fake.message_create(&alice, CHANNEL_ID, "two"),
            )
            .await;
        assert_eq!((s2, s3), (2, 3));
        assert_eq!(raw.recv().await["s"], 2);
        assert_eq!(raw.recv().await["s"], 3);
        drop(raw);

        // Resuming after s = 2 replays s = 3, then RESUMED.
        let mut raw = RawGateway::connect(&fake).await;
        assert_eq!(raw.recv().await["op"], 10);
        raw.send(json!({"op": 6, "d": {"token": "Bot raw", "session_id": session, "seq": 2}}))
            .await;
        let replayed = raw.recv().await;
        assert_eq!(
            (replayed["s"].clone(), replayed["d"]["content"].clone()),
            (json!(3), json!("two"))
        );
        let resumed = raw.recv().await;
        assert_eq!(
            (resumed["t"].clone(), resumed["s"].clone()),
            (json!("RESUMED"), json!(4))
        );
        fake.wait_reconnect(WAIT).await;
        assert_eq!((fake.identify_count(), fake.resume_count()), (1, 1));

        // An unknown session cannot be resumed.
        let mut raw = RawGateway::connect(&fake).await;
        raw.recv().await;
        raw.send(json!({"op": 6, "d": {"token": "Bot raw", "session_id": "nope", "seq": 9}}))
            .await;
        let invalid = raw.recv().await;
        assert_eq!(
            (invalid["op"].clone(), invalid["d"].clone()),
            (json!(9), json!(false))
        );

        // Without MESSAGE_CONTENT, a guild message that does not mention the bot comes empty.
        let ready = raw.identify(GatewayIntents::GUILD_MESSAGES.bits()).await;
        assert_eq!(ready["s"], 1);
        let plain = fake.message_create(&alice, CHANNEL_ID, "hidden");
        fake.dispatch("MESSAGE_CREATE", plain).await;
        assert_eq!(raw.recv().await["d"]["content"], "");
        let mention = format!("<@{BOT_USER_ID}> shown");
        fake.dispatch(
            "MESSAGE_CREATE",
            fake.message_create(&alice, CHANNEL_ID, &mention),
        )
        .await;
        assert_eq!(raw.recv().await["d"]["content"], json!(mention));
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_routes_each_servers_events_to_its_shard() {
    bounded(async {
        let fake = FakeDiscord::start().await;
        let alice = alice();
        fake.add_user(&alice);
        let all = (GatewayIntents::non_privileged() | GatewayIntents::MESSAGE_CONTENT).bits();
        // The default server is on shard 1 of 2; a second one, on shard 0, with its channel.
        let (club, club_channel) = (GUILD_ID + (1 << 22), 1_000_000_000_000_000_021);
        assert_eq!(FakeDiscord::shard_of_guild(GUILD_ID, 2), 1);
        assert_eq!(FakeDiscord::shard_of_guild(club, 2), 0);
        assert_eq!(FakeDiscord::shard_of_guild(club, 1), 0);
        fake.add_guild(GUILD_ID, "games");
        fake.add_guild(club, "club");
        fake.add_text_channel_in(club, club_channel, "club-games");

        // Each shard is told of its own server only: unavailable in READY, then GUILD_CREATE
        // with its channels.
        let mut shard0 = RawGateway::connect(&fake).await;
        assert_eq!(shard0.recv().await["op"], 10);
        let ready0 = shard0.identify_as(all, [0, 2]).await;
        assert_eq!(ready0["d"]["shard"], json!([0, 2]));
        assert_eq!(
            ready0["d"]["guilds"],
            json!([{"id": club.to_string(), "unavailable": true}])
        );
        let created0 = shard0.recv().await;
        assert_eq!(
            (created0["t"].clone(), created0["s"].clone()),
            (json!("GUILD_CREATE"), json!(2))
        );
        let guild: serenity::all::GuildCreateEvent =
            serde_json::from_value(created0["d"].clone()).expect("serenity reads GUILD_CREATE");
        assert_eq!(guild.guild.id.get(), club);
        let channels: Vec<u64> = guild.guild.channels.keys().map(|c| c.get()).collect();
        assert_eq!(channels, vec![club_channel]);

        let mut shard1 = RawGateway::connect(&fake).await;
        assert_eq!(shard1.recv().await["op"], 10);
        let ready1 = shard1.identify_as(all, [1, 2]).await;
        assert_eq!(
            ready1["d"]["guilds"],
            json!([{"id": GUILD_ID.to_string(), "unavailable": true}])
        );
        let created1 = shard1.recv().await;
        assert_eq!(created1["t"], "GUILD_CREATE");
        assert_eq!(created1["d"]["id"], json!(GUILD_ID.to_string()));
        assert_eq!(
            created1["d"]["channels"][0]["id"],
            json!(CHANNEL_ID.to_string())
        );
        fake.wait_shard_ready(0, 2, WAIT).await;
        fake.wait_shard_ready(1, 2, WAIT).await;
        assert_eq!(fake.connected_shards(), vec![[0, 2], [1, 2]]);

        // Events go to the shard of their server, a DM's to shard 0.
        fake.dispatch(
            "MESSAGE_CREATE",
            fake.message_create(&alice, CHANNEL_ID, "in games"),
        )
        .await;
        fake.dispatch(
            "MESSAGE_CREATE",
            fake.message_create(&alice, club_channel, "in the club"),
        )
        .await;
        let (_, _, click) = fake.slash_command_in(club_channel, &alice, "ping", json!([]), &[]);
        fake.dispatch("INTERACTION_CREATE", click).await;
        let http = HttpBuilder::new("raw")
            .proxy(fake.api_base())
            .ratelimiter_disabled(true)
            .build();
        let dm = UserId::new(alice.id)
            .create_dm_channel(&http)
            .await
            .expect("a DM channel");
        fake.dispatch(
            "MESSAGE_CREATE",
            fake.message_create(&alice, dm.id.get(), "a DM"),
        )
        .await;
        let got1 = shard1.recv().await;
        assert_eq!(
            (got1["s"].clone(), got1["d"]["content"].clone()),
            (json!(3), json!("in games"))
        );
        let got0 = shard0.recv().await;
        assert_eq!(
            (got0["s"].clone(), got0["d"]["content"].clone()),
            (json!(3), json!("in the club"))
        );
        let got0 = shard0.recv().await;
        assert_eq!(
            (got0["t"].clone(), got0["d"]["guild_id"].clone()),
            (json!("INTERACTION_CREATE"), json!(club.to_string()))
        );
        assert_eq!(shard0.recv().await["d"]["content"], "a DM");

        // The record says where each went.
        let sent: Vec<(String, Option<u64>, [u64; 2])> = fake
            .dispatches()
            .into_iter()
            .map(|d| (d.event, d.guild_id, d.shard))
            .collect();
        assert_eq!(
            sent,
            vec![
                ("READY".to_string(), None, [0, 2]),
                ("GUILD_CREATE".to_string(), Some(club), [0, 2]),
                ("READY".to_string(), None, [1, 2]),
                ("GUILD_CREATE".to_string(), Some(GUILD_ID), [1, 2]),
                ("MESSAGE_CREATE".to_string(), Some(GUILD_ID), [1, 2]),
                ("MESSAGE_CREATE".to_string(), Some(club), [0, 2]),
                ("INTERACTION_CREATE".to_string(), Some(club), [0, 2]),
                ("MESSAGE_CREATE".to_string(), None, [0, 2]),
            ]
        );

        // With shard 1 gone, an event of its server waits for it (and fails in the end); the
        // other shard goes on.
        drop(shard1);
        let deadline = tokio::time::Instant::now() + WAIT;
        while fake.connected_shards() != vec![[0, 2]] {
            assert!(tokio::time::Instant::now() < deadline, "shard 1 is gone");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let waiting = tokio::time::timeout(
            Duration::from_millis(300),
            fake.dispatch(
                "MESSAGE_CREATE",
                fake.message_create(&alice, CHANNEL_ID, "nobody hears"),
            ),
        )
        .await;
        assert!(waiting.is_err(), "not sent to the wrong shard");
        fake.dispatch(
            "MESSAGE_CREATE",
            fake.message_create(&alice, club_channel, "still here"),
        )
        .await;
        assert_eq!(shard0.recv().await["d"]["content"], "still here");
        fake.assert_clean();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fake_delays_and_stops_when_dropped() {
    bounded(async {
        let (fake, client) = connected().await;
        fake.delay_next("GET", "/users/@me", Duration::from_millis(300));
        let start = std::time::Instant::now();
        client.http.get_current_user().await.expect("current user");
        assert!(start.elapsed() >= Duration::from_millis(300));

        let addr = fake.addr();
        drop(fake);
        let mut refused = false;
        for _ in 0..50 {
            if tokio::net::TcpStream::connect(addr).await.is_err() {
                refused = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(refused, "the fake still listens after being dropped");
        let after = client.http.get_current_user().await;
        assert!(after.is_err(), "REST answered after the fake was dropped");
    })
    .await;
}
