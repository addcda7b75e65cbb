//! Events poise does not route to a command: button clicks and bare moves.
//!
//! Buttons are handled here, from their `custom_id` (`tg:GAME:PLY:COMMAND`, see
//! `respond::button_id`), not by collectors: a collector misses a click that arrives before it
//! starts and does not survive a restart, while a `custom_id` carries all it needs. A button
//! from an older position of its game is stale: it answers so, privately, and changes nothing.
//! The core checks who may do what (only the players act on a game, only the challenged
//! accepts).

use poise::serenity_prelude as serenity;
use serenity::{ComponentInteraction, FullEvent, Interaction};
use tracing::{debug, warn};

use super::respond::{self, display_name, nickname, Origin};
use super::{Data, Error};
use crate::i18n::Lang;
use crate::service::picker::PickId;
use crate::service::{parse_command, Command};
use crate::t;

pub async fn handle(
    ctx: poise::FrameworkContext<'_, Data, Error>,
    event: &FullEvent,
) -> Result<(), Error> {
    match event {
        FullEvent::InteractionCreate {
            interaction: Interaction::Component(click),
        } => button(ctx, click).await,
        FullEvent::Message { new_message } => bare_move(ctx, new_message).await,
        _ => {}
    }
    Ok(())
}

/// A parsed `custom_id`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ButtonId {
    pub game: Option<i64>,
    pub ply: Option<u32>,
    /// Only this user may press it (confirmations).
    pub only: Option<u64>,
    pub command: String,
}

pub(crate) fn parse_button(id: &str) -> Option<ButtonId> {
    let (confirm, rest) = if let Some(r) = id.strip_prefix("tgc:") {
        (true, r)
    } else {
        (false, id.strip_prefix("tg:")?)
    };
    let mut parts = rest.splitn(if confirm { 4 } else { 3 }, ':');
    let num = |s: Option<&str>| -> Option<Option<i64>> {
        match s? {
            "-" => Some(None),
            n => n.parse().ok().map(Some),
        }
    };
    let game = num(parts.next())?;
    let ply = num(parts.next())?.map(u32::try_from).transpose().ok()?;
    let only = if confirm {
        Some(parts.next()?.parse().ok()?)
    } else {
        None
    };
    let command = parts.next()?.to_string();
    Some(ButtonId {
        game,
        ply,
        only,
        command,
    })
}

async fn button(ctx: poise::FrameworkContext<'_, Data, Error>, click: &ComponentInteraction) {
    let http = ctx.serenity_context.http.clone();
    let data = ctx.user_data;
    let (id, token) = (click.id, click.token.as_str());
    // Answers at once: in the language of the presser's client.
    let lang = Lang::from_locale(&click.locale);
    if let Some(pick) = PickId::decode(&click.data.custom_id) {
        let values = match &click.data.kind {
            serenity::ComponentInteractionDataKind::StringSelect { values } => values.clone(),
            _ => Vec::new(),
        };
        let origin = origin_of(click);
        respond::picker_click(&http, data, id, token, origin, pick, values).await;
        return;
    }
    let Some(b) = parse_button(&click.data.custom_id) else {
        respond::quick_ephemeral(&http, id, token, &t!(lang, "discord-button-unknown")).await;
        return;
    };
    let origin = origin_of(click);
    if b.only.is_some_and(|u| u != origin.user.get()) {
        respond::quick_ephemeral(&http, id, token, &t!(lang, "discord-button-not-yours")).await;
        return;
    }
    let command = match parse_command(&b.command) {
        Ok(c) => c,
        Err(e) => {
            let text = format!("✗ {}", e.msg().render(lang));
            respond::quick_ephemeral(&http, id, token, &text).await;
            return;
        }
    };
    // Browsing a game's moves is never stale, nor is the Move button (its picker is made on
    // the position as it is when pressed); everything else is, once the game moved on.
    let browsing = matches!(command, Command::Game { .. } | Command::Pick { .. });
    if let (Some(game), Some(ply), false) = (b.game, b.ply, browsing) {
        match super::outbox::home_of(&data.service, game).await {
            Some(now) if now.ply != ply => {
                let text = t!(
                    lang,
                    "discord-button-stale",
                    game = game,
                    ply = ply,
                    now = now.ply
                );
                respond::quick_ephemeral(&http, id, token, &text).await;
                return;
            }
            Some(now)
                if !now.active
                    && !matches!(command, Command::Moves { .. } | Command::Board { .. }) =>
            {
                let text = t!(lang, "discord-button-game-over", game = game);
                respond::quick_ephemeral(&http, id, token, &text).await;
                return;
            }
            _ => {}
        }
    }
    // Resigning asks first; the confirmation is the presser's alone.
    if let (Command::Resign { game }, None) = (&command, b.only) {
        respond::confirm_resign_interaction(&http, data, id, token, origin, *game).await;
        return;
    }
    respond::interaction(&http, data, id, token, origin, command).await;
}

/// Who clicked, and where.
fn origin_of(click: &ComponentInteraction) -> Origin {
    Origin {
        user: click.user.id,
        name: display_name(&click.user),
        nick: nickname(click.member.as_ref().and_then(|m| m.nick.as_deref())),
        guild: click.guild_id,
        channel: click.channel_id,
        parent: respond::thread_parent(click.channel.as_ref()),
        admin: click
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild() || p.administrator()),
        locale: Some(click.locale.clone()),
        guild_locale: click.guild_locale.clone(),
    }
}

/// Whether a message may be a move, by its shape alone: short (a move in any notation a
/// player writes fits in a few characters: `7g7f`, `７六歩`, `同　歩`, `▲５八金右`, `h3`,
/// `Ne2-f4`), at most two words (`同　歩` is typed with a space), and no mention, custom emoji
/// or link. What passes is then read against the game's position ([`reads_as_move`]): the
/// shape only spares the database the reading of ordinary chat.
pub(crate) fn looks_like_move(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && t.chars().count() <= 16
        && t.split_whitespace().count() <= 2
        && !t.starts_with(['<', ':'])
        && !t.contains("://")
}

/// Whether `text` is meant as a move in `game`: see [`meant_as_move`].
fn reads_as_move(service: &crate::service::Service, game: i64, text: &str) -> bool {
    let Ok(loaded) = service.load(game) else {
        return false;
    };
    let last = loaded.game.moves().last().map(|m| m.to());
    meant_as_move(loaded.game.position(), last, text)
}

/// Whether `text` is what `/move` would read as a move here, legal or not (`last`: where the
/// previous move went, for `同`). A text the move reader cannot read at all (`gg`, `同じ`,
/// `nice move`), or a `同…` before any move, is chat and left alone; a move it reads but the rules refuse (`7g7e`, a
/// piece that is not there) is answered with the reason, as `/move` would answer it. Read as
/// `/move` reads it: every space taken out.
pub(crate) fn meant_as_move(
    pos: &crate::engine::Position,
    last: Option<crate::engine::Square>,
    text: &str,
) -> bool {
    use crate::engine::notation::input::{parse_move_after, MoveInputError};
    let typed: String = text.split_whitespace().collect();
    !matches!(
        parse_move_after(pos, &typed, last),
        Err(MoveInputError::Unreadable { .. }
            | MoveInputError::Empty
            | MoveInputError::NoPreviousMove)
    )
}

/// A message inside a game's thread that is a move (see [`reads_as_move`]), from the player
/// to move, is played. While the bot is stopping it is answered "restarting" (see
/// `respond::message`), like a prefix command: nothing typed is met with silence.
async fn bare_move(ctx: poise::FrameworkContext<'_, Data, Error>, msg: &serenity::Message) {
    let data = ctx.user_data;
    if msg.author.bot || msg.guild_id.is_none() || msg.content.starts_with(data.prefix.as_str()) {
        return;
    }
    if !looks_like_move(&msg.content) {
        return;
    }
    let s = data.service.clone();
    let (author, channel) = (msg.author.id.to_string(), msg.channel_id.to_string());
    let text = msg.content.clone();
    let game = tokio::task::spawn_blocking(move || {
        let game = s.game_to_move_in(&author, &channel).ok().flatten()?;
        reads_as_move(&s, game, &text).then_some(game)
    })
    .await
    .ok()
    .flatten();
    let Some(game) = game else {
        return;
    };
    debug!(game, "bare move");
    let origin = Origin {
        user: msg.author.id,
        name: display_name(&msg.author),
        nick: nickname(msg.member.as_ref().and_then(|m| m.nick.as_deref())),
        guild: msg.guild_id,
        channel: msg.channel_id,
        parent: respond::cached_thread_parent(
            &ctx.serenity_context.cache,
            msg.guild_id,
            msg.channel_id,
        ),
        admin: false,
        locale: None,
        guild_locale: respond::cached_guild_locale(&ctx.serenity_context.cache, msg.guild_id),
    };
    // As `/move` takes it: the words joined (`同　歩` is `同歩`).
    let command = Command::Move {
        game: Some(game),
        text: msg.content.split_whitespace().collect(),
        seen_ply: None,
    };
    let http = ctx.serenity_context.http.clone();
    respond::message(&http, data, msg.id, origin, command).await;
}

/// A prefix command or a bare move that came while the bot is stopping: answered that it is
/// restarting (in the sender's language), as a slash command is, rather than met with silence.
/// Nothing was done: the sender sends it again once the bot is back.
pub(crate) async fn restarting(
    http: &serenity::Http,
    data: &Data,
    origin: &Origin,
    message: serenity::MessageId,
) {
    let text = t!(
        respond::sender_lang(data, origin).await,
        "discord-restarting"
    );
    let m = serenity::CreateMessage::new()
        .content(text)
        .reference_message((origin.channel, message))
        .allowed_mentions(super::placement::mention_only(&[]));
    if let Err(e) = origin.channel.send_message(http, m).await {
        warn!("cannot say that the bot is restarting: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_ids_are_read_back() {
        assert_eq!(
            parse_button("tg:12:7:draw 12 offer"),
            Some(ButtonId {
                game: Some(12),
                ply: Some(7),
                only: None,
                command: "draw 12 offer".into()
            })
        );
        assert_eq!(
            parse_button("tg:-:-:accept 3"),
            Some(ButtonId {
                game: None,
                ply: None,
                only: None,
                command: "accept 3".into()
            })
        );
        assert_eq!(
            parse_button("tgc:5:2:123456:resign 5").map(|b| b.only),
            Some(Some(123456))
        );
        for bad in [
            "",
            "tg:",
            "tg:x:1:moves 1",
            "other:1:1:x",
            "tgc:1:1:notanid:resign 1",
            "tg:1:-5:x",
        ] {
            assert_eq!(parse_button(bad), None, "{bad}");
        }
    }

    #[test]
    fn only_short_messages_without_links_are_read_for_a_move() {
        for m in [
            "7g7f",
            "P-7f",
            "Bx2b+",
            "e4",
            "Nf3",
            "S*5e",
            "c9=Q",
            "７六歩",
            "同　歩",
            "同歩",
            "h3",
            "▲５八金右",
        ] {
            assert!(looks_like_move(m), "{m}");
        }
        for m in [
            "",
            "https://x.y/1",
            "<@123>",
            ":shogi:",
            "I think 7g7f is good",
            "http://x.y",
            "this message is far too long to be a move",
        ] {
            assert!(!looks_like_move(m), "{m}");
        }
    }

    /// The position after `moves` (in any notation the reader takes), and where the last went.
    fn after(
        variant: crate::engine::VariantId,
        moves: &[&str],
    ) -> (crate::engine::Game, Option<crate::engine::Square>) {
        use crate::engine::notation::input::parse_move;
        let mut g = crate::engine::Game::new(crate::engine::Position::start(variant));
        for m in moves {
            let mv = parse_move(g.position(), m).expect("a legal move");
            g.play(mv).expect("legal");
        }
        let last = g.moves().last().map(|m| m.to());
        (g, last)
    }

    #[test]
    fn moves_in_every_notation_are_heard_and_chat_is_not() {
        use crate::engine::VariantId;
        let (g, last) = after(VariantId::Shogi, &[]);
        for m in ["７六歩", "76歩", "7六歩", "▲７六歩", "7g7f", "P-7f", "P-76"] {
            assert!(meant_as_move(g.position(), last, m), "{m}");
        }
        // Read, though the rules refuse it: answered with the reason, not ignored.
        for m in ["7g7e", "５五角"] {
            assert!(meant_as_move(g.position(), last, m), "{m}");
        }
        for m in [
            "gg",
            "nice move",
            "lol",
            "同じ",
            "ok",
            "thanks!",
            "hi",
            "wow",
        ] {
            assert!(!meant_as_move(g.position(), last, m), "{m}");
        }
        // `同　歩` (typed with an ideographic space) takes back on the last move's square.
        let (g, last) = after(VariantId::Shogi, &["7g7f", "3c3d", "8h2b+"]);
        assert!(meant_as_move(g.position(), last, "同　銀"));
        assert!(meant_as_move(g.position(), last, "同銀"));
        // Shanghai's files run a to i: `h3` is a move there.
        let (g, last) = after(VariantId::Shanghai, &[]);
        assert!(meant_as_move(g.position(), last, "h3"), "h3");
        assert!(!meant_as_move(g.position(), last, "gg"), "gg");
    }
}
