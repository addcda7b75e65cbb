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
use tracing::debug;

use super::respond::{self, display_name, nickname, Origin};
use super::{Data, Error};
use crate::i18n::Lang;
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
    let Some(b) = parse_button(&click.data.custom_id) else {
        respond::quick_ephemeral(&http, id, token, &t!(lang, "discord-button-unknown")).await;
        return;
    };
    let origin = Origin {
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
    };
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
    // Browsing a game's moves is never stale; everything else is, once the game moved on.
    let browsing = matches!(command, Command::Game { .. });
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

/// Whether a message looks like a move and nothing else: one word with a digit (every square
/// has one), short. Chat in a game's thread is left alone.
pub(crate) fn looks_like_move(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty()
        && t.len() <= 20
        && !t.contains(char::is_whitespace)
        && t.chars().any(|c| c.is_ascii_digit())
        && !t.starts_with(['<', ':', 'h'])
}

/// A message inside a game's thread that is just a move, from the player to move, is played.
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
    let game = tokio::task::spawn_blocking(move || s.game_to_move_in(&author, &channel))
        .await
        .ok()
        .and_then(|r| r.ok())
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
    let command = Command::Move {
        game: Some(game),
        text: msg.content.trim().to_string(),
        seen_ply: None,
    };
    let http = ctx.serenity_context.http.clone();
    respond::message(&http, data, msg.id, origin, command).await;
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
    fn only_move_shaped_messages_are_taken_as_moves() {
        for m in ["7g7f", "P-7f", "Bx2b+", "e4", "Nf3", "S*5e", "c9=Q"] {
            assert!(looks_like_move(m), "{m}");
        }
        for m in [
            "nice move",
            "lol",
            "gg",
            "",
            "https://x.y/1",
            "<@123>",
            "I think 7g7f is good",
        ] {
            assert!(!looks_like_move(m), "{m}");
        }
    }
}
