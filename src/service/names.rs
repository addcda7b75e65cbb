//! Users' names as the core shows them. A text shown in a server names a user by their
//! nickname there when one is known, else by their global display name; a text shown outside
//! any server (a direct message, a notice sent by direct message) by their global name only, so
//! a nickname never leaves its server. A game's texts (its board, announcements and notices)
//! are shown in the game's own server.
//!
//! When the transport renders markdown (`Config::markdown`: Discord), every name a text shows
//! goes through [`escape_markdown`], here and nowhere else, so that `*Ace*` reads as typed.
//! Names never go inside inline code or position strings. Pictures, files and thread titles get
//! the same names raw ([`Service::raw_name`]).
//!
//! It reads names from the store; it never writes them (the command's `touch_member` does).

use super::*;

/// Markdown in a user-written text (a name) shown as typed: every character Discord's
/// markdown gives a meaning to is preceded by a backslash.
pub fn escape_markdown(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '*' | '_' | '~' | '`' | '|' | '>' | '#' | '[' | ']' | '(' | ')' | '-' | ':'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

impl Service {
    /// A user's name in a text shown in `guild` (`None`: a direct message, or no server): their
    /// nickname there if known, else their global display name (their id if the user is
    /// unknown), markdown escaped when the transport renders it. Every text of the core names
    /// users through this.
    pub fn shown_name(&self, id: &str, guild: Option<&str>) -> String {
        self.shown(&self.raw_name(id, guild))
    }

    /// `shown_name` without escaping: for pictures, files and thread titles.
    pub fn raw_name(&self, id: &str, guild: Option<&str>) -> String {
        match self.store.name_in(id, guild) {
            Ok(Some(name)) => name,
            Ok(None) => id.to_string(),
            Err(e) => {
                tracing::warn!(user = id, "cannot read a name: {e}");
                id.to_string()
            }
        }
    }

    /// A name as texts show it (escaped when the transport renders markdown).
    pub(crate) fn shown(&self, name: &str) -> String {
        if self.config.markdown {
            escape_markdown(name)
        } else {
            name.to_string()
        }
    }

    /// The names of users in texts shown in the servers of `pairs` (server, user; `None`: no
    /// server), read at once (the sweep's): user id and server to shown name. `users` are the
    /// rows already read; users without one are named by their id.
    pub(crate) fn shown_names(
        &self,
        users: &std::collections::HashMap<String, crate::store::UserRow>,
        pairs: &[(Option<String>, String)],
    ) -> Result<std::collections::HashMap<(Option<String>, String), String>, CoreError> {
        let in_servers: Vec<(String, String)> = pairs
            .iter()
            .filter_map(|(g, u)| Some((g.clone()?, u.clone())))
            .collect();
        let nicks: std::collections::HashMap<(String, String), String> = if in_servers.is_empty() {
            Default::default()
        } else {
            self.store
                .server_names(&in_servers)?
                .into_iter()
                .map(|s| ((s.guild, s.user_id), s.name))
                .collect()
        };
        Ok(pairs
            .iter()
            .map(|(g, u)| {
                let nick = g.as_ref().and_then(|g| nicks.get(&(g.clone(), u.clone())));
                let name = nick
                    .or(users.get(u).map(|r| &r.name))
                    .map_or(u.as_str(), |n| n.as_str());
                ((g.clone(), u.clone()), self.shown(name))
            })
            .collect())
    }

    /// The title of a game's thread: its number, its players' names in its server (raw: a
    /// title shows no markdown) and its variant. `None` if the game cannot be read.
    pub fn thread_title(&self, game: i64) -> Option<String> {
        let row = self.store.game(game).ok().flatten()?;
        let guild = row.guild.as_deref();
        // The thread is public: in the server's language.
        let lang = self.public_voice(guild).lang;
        Some(super::delivery::thread_title(
            lang,
            game,
            &row.variant,
            &self.raw_name(&row.players[0], guild),
            &self.raw_name(&row.players[1], guild),
        ))
    }

    /// Records the sender of a command under the names the transport gave: in a server, their
    /// nickname there too (or that they have none).
    pub(crate) fn touch_sender(
        &self,
        user: &User,
        place: &Place,
        now: i64,
    ) -> Result<crate::store::UserRow, CoreError> {
        Ok(match &place.guild {
            Some(g) => {
                self.store
                    .touch_member(&user.id, &user.name, g, user.nick.as_deref(), now)?
            }
            None => self.store.touch_user(&user.id, &user.name, now)?,
        })
    }

    /// Records the names a transport resolved for a user a command names (only what changed:
    /// a read otherwise). A user never seen before is recorded only if `new` (a challenge's
    /// opponent), under their id when the transport knows no name.
    pub(crate) fn touch_named(
        &self,
        who: &UserRef,
        place: &Place,
        new: bool,
    ) -> Result<(), CoreError> {
        let now = self.now();
        if !new && self.store.user(&who.id)?.is_none() {
            return Ok(());
        }
        match (&who.name, &place.guild, &who.nick) {
            (Some(name), Some(g), Some(nick)) => {
                self.store
                    .touch_member(&who.id, name, g, nick.as_deref(), now)?;
            }
            (Some(name), ..) => {
                self.store.touch_user(&who.id, name, now)?;
            }
            // The console knows only names, which are ids there: those never rename anyone.
            (None, ..) => {
                if new && self.store.user(&who.id)?.is_none() {
                    self.store.touch_user(&who.id, &who.id, now)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_in_names_is_escaped() {
        assert_eq!(escape_markdown("*bold*_x_"), "\\*bold\\*\\_x\\_");
        assert_eq!(
            escape_markdown("`code` ~~s~~ ||x|| > q"),
            "\\`code\\` \\~\\~s\\~\\~ \\|\\|x\\|\\| \\> q"
        );
        assert_eq!(
            escape_markdown("[a](b) #h -l :e: \\"),
            "\\[a\\]\\(b\\) \\#h \\-l \\:e\\: \\\\"
        );
        assert_eq!(escape_markdown("plain name 名前"), "plain name 名前");
    }
}
