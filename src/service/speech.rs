//! Whom the core speaks to, and how: the language and move notation of each text it writes.
//!
//! - A reply is in its sender's voice ([`User::voice`], resolved once per command by
//!   `dispatch`): the language they chose (`/settings language`), else their Discord client's
//!   (the command's `locale`), else the one kept from their last command, else English.
//! - A notice is in its recipient's voice ([`Service::voice_of`]): what they chose, else the
//!   locale kept from their last command, else English.
//! - A public post in a server (a move's announcement) is in the server's voice
//!   ([`Service::public_voice`]): the language its managers chose (`/server language`), else the
//!   server's Discord locale (`guild_locale`, kept from the last command sent there), else
//!   English.
//!
//! The notation is the player's choice (`/settings notation`), else the one that goes with the
//! language: Japanese notation in Japanese, Western in English. A server's posts use its
//! language's notation.
//!
//! Times are written in the reader's zone (`/settings timezone`, UTC until they choose one) in
//! replies and notices ([`Voice::time`]). Public posts keep UTC, the one zone every reader of a
//! thread shares: a move's announcement too, which on Discord is also the mover's reply.

use crate::engine::notation::Notation;
use crate::i18n::{Lang, Msg};
use crate::store::UserRow;

use super::zone::Zone;
use super::{CoreError, Place, Service, User};

/// The language, notation and time zone of a text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Voice {
    pub lang: Lang,
    pub notation: Notation,
    /// The zone its times are written in.
    pub zone: Zone,
}

impl Voice {
    /// A language with the notation that goes with it, times in UTC.
    pub fn of(lang: Lang) -> Voice {
        Voice {
            lang,
            notation: default_notation(lang),
            zone: Zone::UTC,
        }
    }

    /// `msg` in this voice's language.
    pub fn say(&self, msg: &Msg) -> String {
        msg.render(self.lang)
    }

    /// A date and time in this voice's zone: `2026-11-26 04:53 JST`.
    pub fn time(&self, t: i64) -> String {
        self.zone.time(t)
    }
}

/// The notation a language writes moves in when the player chose none.
pub fn default_notation(lang: Lang) -> Notation {
    match lang {
        Lang::Ja => Notation::Japanese,
        Lang::En => Notation::Western,
    }
}

/// The voice for a stored user, with the locale of the command they are sending now (if any).
pub(crate) fn voice_for(row: Option<&UserRow>, locale: Option<&str>) -> Voice {
    let chosen = row
        .and_then(|r| r.language.as_deref())
        .and_then(Lang::parse);
    let lang = chosen
        .or_else(|| locale.map(Lang::from_locale))
        .or_else(|| row.and_then(|r| r.locale.as_deref()).map(Lang::from_locale))
        .unwrap_or_default();
    let notation = row
        .and_then(|r| r.notation.as_deref())
        .and_then(Notation::parse)
        .unwrap_or_else(|| default_notation(lang));
    let zone = match row.and_then(|r| r.timezone.as_deref()) {
        None => Zone::UTC,
        Some(name) => Zone::named(name).unwrap_or_else(|| {
            // Stored when it was valid: a zone the database no longer has is UTC (logged).
            tracing::warn!(zone = name, "a stored time zone is unknown; UTC instead");
            Zone::UTC
        }),
    };
    Voice {
        lang,
        notation,
        zone,
    }
}

impl Service {
    /// How to speak to a user in a notice (their stored choices; English for someone unknown).
    pub fn voice_of(&self, user: &str) -> Voice {
        match self.store.user(user) {
            Ok(row) => voice_for(row.as_ref(), None),
            Err(_) => Voice::default(),
        }
    }

    /// How a reply to `user` speaks when their client says `locale`, without recording
    /// anything (the transport's own answers: a refused option, a confirmation).
    pub fn voice_of_sender(&self, user: &str, locale: Option<&str>) -> Voice {
        voice_for(self.store.user(user).ok().flatten().as_ref(), locale)
    }

    /// How a server's public posts speak (English outside servers, and for a server the store
    /// cannot be asked about).
    pub(crate) fn public_voice(&self, guild: Option<&str>) -> Voice {
        let Some(g) = guild else {
            return Voice::default();
        };
        let chosen = self
            .store
            .server(g)
            .ok()
            .flatten()
            .and_then(|s| s.language)
            .and_then(|l| Lang::parse(&l));
        let lang = chosen.unwrap_or_else(|| {
            self.store
                .server_locale(g)
                .ok()
                .flatten()
                .map_or(Lang::En, |l| Lang::from_locale(&l))
        });
        Voice::of(lang)
    }

    /// Keeps the sender's client locale and their server's (when the transport sent them and
    /// they changed), and resolves the voice of the reply.
    pub(crate) fn sender_voice(
        &self,
        user: &User,
        row: &UserRow,
        place: &Place,
    ) -> Result<Voice, CoreError> {
        if let Some(locale) = user.locale.as_deref() {
            if row.locale.as_deref() != Some(locale) {
                self.store.set_user_locale(&user.id, locale)?;
            }
        }
        if let (Some(g), Some(locale)) = (place.guild.as_deref(), place.locale.as_deref()) {
            let known = self
                .server_locales
                .read()
                .ok()
                .and_then(|m| m.get(g).cloned());
            if known.as_deref() != Some(locale) {
                if self.store.server_locale(g)?.as_deref() != Some(locale) {
                    self.store.set_server_locale(g, locale)?;
                }
                if let Ok(mut m) = self.server_locales.write() {
                    m.insert(g.to_string(), locale.to_string());
                }
            }
        }
        Ok(voice_for(Some(row), user.locale.as_deref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(language: Option<&str>, notation: Option<&str>, locale: Option<&str>) -> UserRow {
        UserRow {
            id: "u".into(),
            name: "u".into(),
            style: "kanji".into(),
            notify: "mention".into(),
            vacation_until: None,
            last_digest_at: None,
            remind_hours: None,
            language: language.map(String::from),
            notation: notation.map(String::from),
            locale: locale.map(String::from),
            digest_hour: None,
            timezone: None,
            next_digest_at: None,
            board: None,
        }
    }

    #[test]
    fn a_chosen_language_wins_over_the_client_and_the_client_over_the_last_seen() {
        let r = row(Some("en"), None, Some("ja"));
        assert_eq!(voice_for(Some(&r), Some("ja")).lang, Lang::En);
        let r = row(None, None, Some("en-US"));
        assert_eq!(voice_for(Some(&r), Some("ja")), Voice::of(Lang::Ja));
        assert_eq!(voice_for(Some(&r), None), Voice::of(Lang::En));
        let r = row(None, None, Some("ja"));
        assert_eq!(voice_for(Some(&r), None).notation, Notation::Japanese);
        assert_eq!(voice_for(None, None), Voice::default());
    }

    #[test]
    fn times_are_in_the_zone_the_player_chose_and_utc_otherwise() {
        let mut r = row(None, None, None);
        assert_eq!(voice_for(Some(&r), None).zone, Zone::UTC);
        r.timezone = Some("Asia/Tokyo".into());
        let v = voice_for(Some(&r), None);
        assert_eq!(v.zone.name(), "Asia/Tokyo");
        assert_eq!(v.time(1_795_636_380), "2026-11-26 04:53 JST");
        // A zone the database does not know (stored by an older version): UTC.
        r.timezone = Some("Mars/Olympus".into());
        assert_eq!(voice_for(Some(&r), None).zone, Zone::UTC);
        assert_eq!(Voice::of(Lang::Ja).zone, Zone::UTC);
    }

    #[test]
    fn a_chosen_notation_is_kept_whatever_the_language() {
        let r = row(Some("ja"), Some("usi"), None);
        let v = voice_for(Some(&r), None);
        assert_eq!((v.lang, v.notation), (Lang::Ja, Notation::Usi));
        let r = row(None, Some("western"), Some("ja"));
        assert_eq!(voice_for(Some(&r), None).notation, Notation::Western);
    }
}
