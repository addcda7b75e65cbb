//! Commands that look: the board, legal moves, lists of games, records, rules, settings, help.

use super::*;
use crate::engine::notation::{human, Notation};
use crate::engine::PieceKind;
use crate::i18n::Lang;
use crate::{msg, t};

impl Service {
    /// The board picture of a game after `ply` moves, as `viewer` sees it (their side at the
    /// bottom, their piece style), if pictures are on.
    pub(crate) fn board_image(
        &self,
        g: &Loaded,
        ply: usize,
        viewer: &str,
    ) -> Result<Option<Attachment>, CoreError> {
        self.board_image_styled(g, ply, viewer, None)
    }

    /// `board_image`, in `style` rather than the viewer's setting.
    pub(crate) fn board_image_styled(
        &self,
        g: &Loaded,
        ply: usize,
        viewer: &str,
        style: Option<&str>,
    ) -> Result<Option<Attachment>, CoreError> {
        if !self.config.images {
            return Ok(None);
        }
        let pos = g.game.position_at(ply);
        let side = g.side_of(viewer).unwrap_or(Color::Black);
        let style = match style {
            Some(s) => crate::render::PieceStyle::parse(s).ok_or_else(|| {
                CoreError::User(
                    format!("unknown style '{s}': choose kanji or international").into(),
                )
            })?,
            None => match self.store.user(viewer)? {
                Some(u) => crate::render::PieceStyle::parse(&u.style).unwrap_or_default(),
                None => crate::render::PieceStyle::default(),
            },
        };
        let last = (ply > 0).then(|| g.game.moves()[ply - 1]);
        let caption = last.map(|m| {
            let before = g.game.position_at(ply - 1);
            format!(
                "{} {}",
                crate::engine::notation::move_number(ply - 1, g.game.start().side_to_move()),
                human(&before, m)
            )
        });
        let active = g.row.status == GameStatus::Active && ply == g.game.moves().len();
        let opts = crate::render::RenderOptions {
            last_move: last,
            viewer: side,
            style,
            names: self.picture_names(&g.row),
            show_turn: active,
            caption,
            ..Default::default()
        };
        let png = crate::render::render_png(&pos, &opts)
            .map_err(|e| CoreError::Internal(format!("rendering game {}: {e}", g.row.id)))?;
        Ok(Some(Attachment::new(
            format!("game-{}-move-{ply}.png", g.row.id),
            png,
        )))
    }

    /// The players' names the pictures of a game show (its board, its replay; its records
    /// too): as in the game's server, raw (a picture shows no markdown).
    pub fn picture_names(&self, row: &crate::store::GameRow) -> [Option<String>; 2] {
        let guild = row.guild.as_deref();
        [
            Some(self.raw_name(&row.players[0], guild)),
            Some(self.raw_name(&row.players[1], guild)),
        ]
    }

    fn status_line(&self, g: &Loaded) -> String {
        let v = g.variant();
        let guild = g.row.guild.as_deref();
        let head = format!(
            "Game #{} — {}: {} ({}) vs {} ({}), move {}.",
            g.row.id,
            v.spec.name,
            self.shown_name(g.player(Color::Black), guild),
            v.side_name(Color::Black),
            self.shown_name(g.player(Color::White), guild),
            v.side_name(Color::White),
            g.row.ply + 1
        );
        match (g.row.status, g.game.outcome()) {
            (GameStatus::Finished, _) => match stored_outcome(&g.row) {
                Some(o) => format!(
                    "{head} Over: {}.",
                    capital(
                        o,
                        &crate::engine::notation::result_words(o, |c| {
                            self.shown_name(g.player(c), guild)
                        })
                    )
                ),
                None => format!("{head} Over."),
            },
            _ => {
                let check = if g.game.position().in_check() {
                    " (in check)"
                } else {
                    ""
                };
                let deadline = g
                    .row
                    .deadline
                    .map(|d| format!(", by {}", format_time(d)))
                    .unwrap_or_default();
                format!(
                    "{head} {} to move{check}{deadline}.",
                    self.shown_name(g.to_move(), guild)
                )
            }
        }
    }

    pub(crate) fn board(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
        style: Option<&str>,
    ) -> Result<Reply, CoreError> {
        let g = self.pick_game(user, place, game)?;
        let text = format!("{}\n`{}`", self.status_line(&g), g.row.position);
        let viewer = if g.side_of(&user.id).is_some() {
            user.id.to_string()
        } else if g.row.status == GameStatus::Active {
            g.to_move().to_string()
        } else {
            g.player(Color::Black).to_string()
        };
        Ok(Reply {
            game: Some(g.game_ref(false)),
            text,
            attachments: self
                .board_image_styled(&g, g.game.moves().len(), &viewer, style)?
                .into_iter()
                .collect(),
            buttons: if g.row.status == GameStatus::Active {
                super::play::game_buttons(g.row.id)
            } else {
                Vec::new()
            },
            ..Reply::default()
        })
    }

    pub(crate) fn moves(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
        square: Option<&str>,
    ) -> Result<Reply, CoreError> {
        let g = self.pick_game(user, place, game)?;
        let v = g.variant();
        let pos = g.game.position();
        let from = match square {
            None => None,
            Some(s) => Some(v.parse_square(s).ok_or_else(|| {
                CoreError::User(format!("'{s}' is not a square of {}", v.spec.name).into())
            })?),
        };
        let mut moves: Vec<String> = written_moves(&g.game)
            .into_iter()
            .filter(|(m, _)| from.is_none() || m.from() == from)
            .map(|(_, h)| h)
            .collect();
        moves.sort();
        moves.dedup();
        let whose = format!(
            "{} ({})",
            self.shown_name(g.to_move(), g.row.guild.as_deref()),
            v.side_name(pos.side_to_move())
        );
        let text = match (moves.is_empty(), square) {
            (true, Some(s)) => format!("Game #{}: no legal move from {s}.", g.row.id),
            (true, None) => format!("Game #{}: no legal move (the game is over).", g.row.id),
            (false, Some(s)) => format!(
                "Game #{}: {} legal moves from {s} for {whose}: {}",
                g.row.id,
                moves.len(),
                moves.join(" ")
            ),
            (false, None) => format!(
                "Game #{}: {} legal moves for {whose}: {}",
                g.row.id,
                moves.len(),
                moves.join(" ")
            ),
        };
        Ok(Reply::text(text))
    }

    pub(crate) fn games(
        &self,
        user: &User,
        place: &Place,
        who: Option<&UserRef>,
    ) -> Result<Reply, CoreError> {
        let id = self.subject(user, place, who, "games")?;
        let me = id == user.id.as_str();
        let here = place.guild.as_deref();
        let rows = self
            .store
            .games_of(id, GameStatus::Active, place.guild.as_deref(), 100)?;
        // Open challenges are the sender's own business.
        let challenges: Vec<_> = if me {
            self.store
                .open_challenges(id, self.now())?
                .into_iter()
                .filter(|c| place.guild.is_none() || c.guild == place.guild)
                .collect()
        } else {
            Vec::new()
        };
        let mut challenge_lines = String::new();
        for c in &challenges {
            let whom = if c.challenger == id {
                match &c.challenged {
                    Some(to) => format!("you challenged {}", self.shown_name(to, here)),
                    None => "your open challenge".to_string(),
                }
            } else {
                format!("from {}", self.shown_name(&c.challenger, here))
            };
            challenge_lines.push_str(&format!("\nChallenge #{} ({}, {whom})", c.id, c.variant));
        }
        let name = self.shown_name(id, here);
        // Notices that could not reach the player are theirs to know of.
        let undelivered = if me {
            self.undelivered_note(id)?
                .map(|n| format!("\n{n}"))
                .unwrap_or_default()
        } else {
            String::new()
        };
        if rows.is_empty() {
            let mut text = if me {
                "You have no game in progress.".to_string()
            } else {
                format!("{name} has no game in progress here.")
            };
            text.push_str(&challenge_lines);
            text.push_str(&undelivered);
            return Ok(Reply::text(text));
        }
        let mut lines: Vec<(bool, i64, String)> = Vec::new();
        for row in rows {
            let side = if row.players[0] == id { 0 } else { 1 };
            let to_move = row.to_move.clone().unwrap_or_default();
            let mine = to_move == id;
            let deadline = row
                .deadline
                .map(|d| format!(", by {}", format_time(d)))
                .unwrap_or_default();
            let turn = if mine && me {
                format!("your move{deadline}")
            } else {
                format!("{}'s move{deadline}", self.shown_name(&to_move, here))
            };
            let variant = VariantId::parse(&row.variant).map_or(row.variant.clone(), |v| {
                Variant::get(v).spec.name.to_string()
            });
            lines.push((
                !mine,
                row.deadline.unwrap_or(i64::MAX),
                format!(
                    "#{} {variant} vs {} — {turn}",
                    row.id,
                    self.shown_name(&row.players[1 - side], here)
                ),
            ));
        }
        lines.sort();
        let head = if me {
            "Your games (your move first):".to_string()
        } else {
            format!("Games of {name} (their move first):")
        };
        let text = std::iter::once(head)
            .chain(lines.into_iter().map(|(_, _, l)| l))
            .collect::<Vec<_>>()
            .join("\n")
            + &challenge_lines
            + &undelivered;
        Ok(Reply::text(text))
    }

    pub(crate) fn history(
        &self,
        user: &User,
        place: &Place,
        who: Option<&UserRef>,
    ) -> Result<Reply, CoreError> {
        let id = self.subject(user, place, who, "history")?;
        let rows = self
            .store
            .games_of(id, GameStatus::Finished, place.guild.as_deref(), 25)?;
        let here = place.guild.as_deref();
        let name = self.shown_name(id, here);
        if rows.is_empty() {
            return Ok(Reply::text(format!("{name} has no finished game yet.")));
        }
        let mut text = format!("Finished games of {name} (newest first):");
        for r in rows {
            let me = if r.players[0] == id { 0 } else { 1 };
            let outcome = match r.result {
                Some(crate::store::GameResult::Draw) => "draw".to_string(),
                Some(res) if (res == crate::store::GameResult::First) == (me == 0) => {
                    "won".to_string()
                }
                Some(_) => "lost".to_string(),
                None => "?".to_string(),
            };
            let variant = VariantId::parse(&r.variant)
                .map_or(r.variant.clone(), |v| Variant::get(v).spec.name.to_string());
            text.push_str(&format!(
                "\n#{} {} vs {} — {outcome} by {}, {} moves, {}",
                r.id,
                variant,
                self.shown_name(&r.players[1 - me], here),
                r.reason
                    .as_deref()
                    .and_then(crate::engine::Reason::parse)
                    .map_or_else(|| r.reason.clone().unwrap_or_default(), |r| r.words()),
                r.ply,
                r.finished_at.map(format_time).unwrap_or_default()
            ));
        }
        Ok(Reply::text(text))
    }

    pub(crate) fn show_game(
        &self,
        user: &User,
        place: &Place,
        id: i64,
        ply: Option<u32>,
        style: Option<&str>,
    ) -> Result<Reply, CoreError> {
        let g = self.load_visible(user, place, id)?;
        let n = g.game.moves().len();
        let ply = ply.map(|p| p as usize).unwrap_or(n);
        if ply > n {
            return user_err(format!(
                "game #{id} has {n} moves: choose a ply from 0 to {n}"
            ));
        }
        let pos = g.game.position_at(ply);
        let last = if ply > 0 {
            let before = g.game.position_at(ply - 1);
            format!(" Last move: {}.", human(&before, g.game.moves()[ply - 1]))
        } else {
            String::new()
        };
        let viewer = if g.side_of(&user.id).is_some() {
            user.id.to_string()
        } else {
            g.player(Color::Black).to_string()
        };
        Ok(Reply {
            game: Some(g.game_ref(false)),
            text: format!(
                "{}\nAfter {ply} of {n} moves.{last}\n`{}`",
                self.status_line(&g),
                fen::write(&pos)
            ),
            attachments: self
                .board_image_styled(&g, ply, &viewer, style)?
                .into_iter()
                .collect(),
            buttons: [
                (ply > 0).then(|| Button {
                    label: "◀ Back".into(),
                    command: format!("game {id} {}", ply - 1),
                }),
                (ply < n).then(|| Button {
                    label: "Next ▶".into(),
                    command: format!("game {id} {}", ply + 1),
                }),
            ]
            .into_iter()
            .flatten()
            .collect(),
            ..Reply::default()
        })
    }

    pub(crate) fn record(&self, user: &User, place: &Place, id: i64) -> Result<Reply, CoreError> {
        let g = self.load_visible(user, place, id)?;
        let rows = self.store.moves(id)?;
        let mut text = self.status_line(&g);
        let first = g.game.start().side_to_move();
        let mut line = String::new();
        for (i, m) in rows.iter().enumerate() {
            let second = (i + usize::from(first == Color::White)) % 2 == 1;
            if !second {
                if !line.is_empty() {
                    text.push('\n');
                    text.push_str(&line);
                }
                line = format!(
                    "{} {}",
                    crate::engine::notation::move_number(i, first),
                    m.notation
                );
            } else if line.is_empty() {
                line = format!(
                    "{} {}",
                    crate::engine::notation::move_number(i, first),
                    m.notation
                );
            } else {
                line.push(' ');
                line.push_str(&m.notation);
            }
        }
        if !line.is_empty() {
            text.push('\n');
            text.push_str(&line);
        }
        if rows.is_empty() {
            text.push_str("\nNo moves yet.");
        }
        Ok(Reply::text(text))
    }

    pub(crate) fn export(
        &self,
        user: &User,
        place: &Place,
        id: i64,
        format: &str,
    ) -> Result<Reply, CoreError> {
        let g = self.load_visible(user, place, id)?;
        // A record is a file format: its names are raw, as in the game's server.
        let [black, white] = self.picture_names(&g.row);
        let names = [black.unwrap_or_default(), white.unwrap_or_default()];
        let out = super::export::export(&g.game, format, &names, stored_outcome(&g.row))
            .map_err(|e| CoreError::User(e.into()))?;
        // The record formats shogi software opens come as a file too.
        let file = match format {
            "kif" => Some(format!("game-{id}.kif")),
            "csa" => Some(format!("game-{id}.csa")),
            _ => None,
        };
        Ok(Reply {
            attachments: file
                .map(|name| Attachment::new(name, out.clone().into_bytes()))
                .into_iter()
                .collect(),
            text: out,
            ..Reply::default()
        })
    }

    /// The game as an animated GIF, one frame a move.
    pub(crate) fn replay(&self, user: &User, place: &Place, id: i64) -> Result<Reply, CoreError> {
        let g = self.load_visible(user, place, id)?;
        let style = match self.store.user(&user.id)? {
            Some(u) => crate::render::PieceStyle::parse(&u.style).unwrap_or_default(),
            None => crate::render::PieceStyle::default(),
        };
        let opts = crate::render::GifOptions {
            board: crate::render::RenderOptions {
                style,
                names: self.picture_names(&g.row),
                ..Default::default()
            },
            ..Default::default()
        };
        // The last frame says how the game ended, also when it ended off the board.
        let mut game = g.game.clone();
        if let Some(o) = stored_outcome(&g.row) {
            game.set_outcome(o);
        }
        // Under the upload limit: a long game shows fewer positions, or smaller ones.
        let fitted = crate::render::render_gif_within(&game, &opts, super::MAX_ATTACHMENT)
            .map_err(|e| CoreError::Internal(format!("replaying game {id}: {e}")))?;
        let moves = g.game.moves().len();
        let Some(gif) = fitted else {
            tracing::warn!(
                game = id,
                moves,
                "no replay of the game fits the upload limit"
            );
            return Ok(Reply::text(format!(
                "{}\nThis game is too long for a replay that Discord accepts (8 MiB at most): `record {id}` gives its moves, and `game {id} N` shows the position after N moves.",
                self.status_line(&g)
            )));
        };
        let mut text = format!("{}\nReplay of {moves} moves.", self.status_line(&g));
        if !gif.every_position() {
            text.push_str(&format!(
                " It is long: the replay shows {} of its {} positions, evenly spread, the last one among them.",
                gif.frames, gif.positions
            ));
        }
        Ok(Reply {
            text,
            attachments: vec![Attachment::new(format!("game-{id}.gif"), gif.data)],
            ..Reply::default()
        })
    }

    pub(crate) fn rules(
        &self,
        user: &User,
        variant: &str,
        piece: Option<&str>,
    ) -> Result<Reply, CoreError> {
        let id = VariantId::parse(variant).ok_or_else(|| {
            let known: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
            CoreError::User(
                format!(
                    "unknown game '{variant}': choose one of {}",
                    known.join(", ")
                )
                .into(),
            )
        })?;
        let v = Variant::get(id);
        let Some(p) = piece else {
            return Ok(Reply::text(crate::engine::variants::describe(v)));
        };
        let kind = find_kind(v, p).ok_or_else(|| {
            CoreError::User(
                format!(
                    "'{p}' is not a piece of {}: `rules {}` lists them",
                    v.spec.name,
                    v.id()
                )
                .into(),
            )
        })?;
        let mut reply = Reply::text(crate::engine::variants::describe_piece(v, kind));
        if self.config.images {
            let style = match self.store.user(&user.id)? {
                Some(u) => crate::render::PieceStyle::parse(&u.style).unwrap_or_default(),
                None => crate::render::PieceStyle::default(),
            };
            let png = piece_diagram(v, kind, style)
                .map_err(|e| CoreError::Internal(format!("diagram of {kind:?}: {e}")))?;
            reply.attachments.push(Attachment::new(
                format!(
                    "rules-{}-{}.png",
                    v.id(),
                    v.piece_name(kind).replace(' ', "-")
                ),
                png,
            ));
        }
        Ok(reply)
    }

    pub(crate) fn settings(
        &self,
        user: &User,
        change: SettingsChange<'_>,
    ) -> Result<Reply, CoreError> {
        let current = self
            .store
            .user(&user.id)?
            .ok_or_else(|| CoreError::Internal("user vanished".into()))?;
        let SettingsChange {
            style,
            notify,
            remind,
            language,
            notation,
        } = change;
        let shown = |row: &crate::store::UserRow, voice: Voice| SettingsShown {
            style: row.style.clone(),
            notify: row.notify.clone(),
            remind: reminder_lead(voice.lang, row.remind_hours),
            language: match row.language.as_deref().and_then(Lang::parse) {
                Some(l) => t!(voice.lang, "settings-language-chosen", lang = l.code()),
                None => t!(
                    voice.lang,
                    "settings-language-client",
                    lang = voice.lang.code()
                ),
            },
            notation: match row.notation.as_deref().and_then(Notation::parse) {
                Some(n) => t!(
                    voice.lang,
                    "settings-notation-chosen",
                    notation = n.as_str()
                ),
                None => t!(
                    voice.lang,
                    "settings-notation-default",
                    notation = voice.notation.as_str()
                ),
            },
        };
        if change.is_empty() {
            let v = user.voice;
            let s = shown(&current, v);
            return Ok(Reply::text(t!(
                v.lang,
                "settings-show",
                style = s.style,
                notify = s.notify,
                remind = s.remind,
                language = s.language,
                notation = s.notation
            )));
        }
        let style = style.unwrap_or(&current.style);
        let notify = notify.unwrap_or(&current.notify);
        if !["kanji", "international"].contains(&style) {
            return user_err(msg!("settings-bad-style", value = style));
        }
        if !["mention", "dm", "digest"].contains(&notify) {
            return user_err(msg!("settings-bad-notify", value = notify));
        }
        if let Some(h) = remind.filter(|&h| h > MAX_REMIND_HOURS) {
            return user_err(msg!(
                "settings-bad-remind",
                value = h,
                max = MAX_REMIND_HOURS
            ));
        }
        // `default` (or `auto`) goes back to what follows the client's language.
        let back = |v: &str| v == "default" || v == "auto";
        let new_language = match language {
            None => current.language.clone(),
            Some(v) if back(v) => None,
            Some(v) => Some(
                Lang::parse(v)
                    .ok_or_else(|| CoreError::User(msg!("settings-bad-language", value = v)))?
                    .code()
                    .to_string(),
            ),
        };
        let new_notation = match notation {
            None => current.notation.clone(),
            Some(v) if back(v) => None,
            Some(v) => Some(
                Notation::parse(v)
                    .ok_or_else(|| CoreError::User(msg!("settings-bad-notation", value = v)))?
                    .as_str()
                    .to_string(),
            ),
        };
        if style != current.style || notify != current.notify {
            self.store.set_user_settings(&user.id, style, notify)?;
        }
        if remind.is_some() && remind != current.remind_hours {
            self.store.set_remind_hours(&user.id, remind)?;
        }
        if new_language != current.language || new_notation != current.notation {
            self.store.set_user_speech(
                &user.id,
                new_language.as_deref(),
                new_notation.as_deref(),
            )?;
        }
        let saved = crate::store::UserRow {
            style: style.to_string(),
            notify: notify.to_string(),
            remind_hours: remind.or(current.remind_hours),
            language: new_language,
            notation: new_notation,
            ..current
        };
        // Said in the language just chosen.
        let v = speech::voice_for(Some(&saved), user.locale.as_deref());
        let s = shown(&saved, v);
        Ok(Reply::text(t!(
            v.lang,
            "settings-saved",
            style = s.style,
            notify = s.notify,
            remind = s.remind,
            language = s.language,
            notation = s.notation
        )))
    }
}

/// What `/settings` changes (`None`: unchanged).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SettingsChange<'a> {
    pub style: Option<&'a str>,
    pub notify: Option<&'a str>,
    pub remind: Option<u32>,
    pub language: Option<&'a str>,
    pub notation: Option<&'a str>,
}

impl SettingsChange<'_> {
    fn is_empty(&self) -> bool {
        self.style.is_none()
            && self.notify.is_none()
            && self.remind.is_none()
            && self.language.is_none()
            && self.notation.is_none()
    }
}

/// The settings in words.
struct SettingsShown {
    style: String,
    notify: String,
    remind: String,
    language: String,
    notation: String,
}

/// A reminder lead as the settings show it: `12 (hours before a deadline, ...)`, or off.
fn reminder_lead(lang: Lang, hours: Option<u32>) -> String {
    match hours.unwrap_or(crate::store::DEFAULT_REMIND_HOURS) {
        0 => t!(lang, "settings-remind-off"),
        h => t!(lang, "settings-remind-hours", hours = h),
    }
}

/// The game's legal moves, each in human notation. Written against every legal move of the
/// position: a move the game forbids (a third repetition in Shanghai Palace Chess) is left out
/// of the list, but another piece's move to its square still names its start square, as
/// `human` writes it and the reader needs it.
pub(crate) fn written_moves(game: &Game) -> Vec<(Move, String)> {
    let pos = game.position();
    let legal = game.legal_moves();
    let all = pos.legal_moves();
    if all.len() == legal.len() {
        return legal
            .iter()
            .copied()
            .zip(crate::engine::notation::human_all(pos, &legal))
            .collect();
    }
    all.iter()
        .copied()
        .zip(crate::engine::notation::human_all(pos, &all))
        .filter(|(m, _)| legal.contains(m))
        .collect()
}

/// A result in words at the start of a sentence: `Draw by repetition`, or the winner's name as
/// typed (`alice wins by checkmate`: a name is never changed).
pub(crate) fn capital(o: crate::engine::Outcome, words: &str) -> String {
    let mut c = words.chars();
    match (o, c.next()) {
        (crate::engine::Outcome::Draw { .. }, Some(f)) => f.to_uppercase().chain(c).collect(),
        _ => words.to_string(),
    }
}

/// How a stored game ended, from its row (resignation, time and agreement are not on the board):
/// `None` while it goes on, or if the stored reason is not one of the engine's.
pub(crate) fn stored_outcome(row: &crate::store::GameRow) -> Option<crate::engine::Outcome> {
    let reason = crate::engine::Reason::parse(row.reason.as_deref()?)?;
    Some(match row.result? {
        crate::store::GameResult::First => crate::engine::Outcome::Win {
            winner: Color::Black,
            reason,
        },
        crate::store::GameResult::Second => crate::engine::Outcome::Win {
            winner: Color::White,
            reason,
        },
        crate::store::GameResult::Draw => crate::engine::Outcome::Draw { reason },
    })
}

/// A diagram of how a kind moves: the piece on a board with the squares it reaches marked.
pub fn piece_diagram(
    v: &'static Variant,
    kind: PieceKind,
    style: crate::render::PieceStyle,
) -> Result<Vec<u8>, crate::render::RenderError> {
    let piece = crate::engine::Piece::new(kind, Color::Black);
    let (at, others) = crate::engine::diagram_setup(v, kind);
    let targets = crate::engine::reach(v, piece, at, &others);
    let mut d = crate::render::Diagram::new(v, piece, at, &targets);
    d.others = &others;
    d.style = style;
    crate::render::render_diagram(&d)
}

/// A piece of a game by letter (`S`, `+R`, `Ln`, `GC`) or name (`silver`, `lion`).
pub fn find_kind(v: &Variant, s: &str) -> Option<PieceKind> {
    v.kind_by_human(s)
        .or_else(|| v.kind_by_code(s))
        .or_else(|| {
            let s = s.to_ascii_lowercase().replace(['-', '_'], " ");
            v.spec
                .pieces
                .letters
                .iter()
                .map(|l| l.kind)
                .find(|&k| v.piece_name(k).to_ascii_lowercase() == s || k.name() == s)
        })
}

const HELP: &[(&str, &str)] = &[
    ("challenge", "challenge @USER|open VARIANT [black|white|random] [days=N] [handicap=NAME] [setup=NAME] [rated|casual] — invite someone to a game (variants: shogi, judkins, cannon, palace, shanghai)"),
    ("accept", "accept [CHALLENGE_ID] — accept a challenge"),
    ("decline", "decline [CHALLENGE_ID] — decline a challenge"),
    ("cancel", "cancel [CHALLENGE_ID] — withdraw your challenge"),
    ("move", "move [GAME_ID] MOVE — play a move: 7g7f, P-7f, S*5e, Nf4 …"),
    ("board", "board [GAME_ID] — show the board"),
    ("moves", "moves [GAME_ID] [SQUARE] — list the legal moves (of the piece on SQUARE)"),
    ("resign", "resign [GAME_ID] — resign the game"),
    ("declare", "declare [GAME_ID] — Shogi: declare the entering king on your turn (27-point rule: king and 10 other pieces in the zone, not in check, 28 points for black, 27 for white; rook and bishop 5, others 1, in the zone and in hand)"),
    ("draw", "draw [GAME_ID] [offer|accept|decline] — offer or answer a draw"),
    ("takeback", "takeback [GAME_ID] [request|accept|decline] — ask to take back your last move, or answer"),
    ("impasse", "impasse [GAME_ID] [propose|accept|decline] — jishogi by agreement, once both kings are in their zones (shogi, judkins, cannon)"),
    ("games", "games — your games in progress, your move first"),
    ("history", "history [@USER] — finished games"),
    ("game", "game GAME_ID [PLY] — the board of a game at any move"),
    ("record", "record GAME_ID — the move list"),
    ("export", "export GAME_ID [sfen|kif|csa|fen] — the game for other software (kif, csa: shogi; fen: shogi, judkins)"),
    ("rules", "rules VARIANT [PIECE] — a game's pieces and notation, or how one piece moves"),
    ("settings", "settings [style=kanji|international] [notify=mention|dm|digest] [remind=HOURS] — your preferences (digest: one daily message instead of a ping per move; remind: hours before a deadline to be reminded, 24 unless you choose, 0 for never; a reminder waits at least half the time per move)"),
    ("moretime", "moretime [GAME_ID] — give your opponent one more day on their move"),
    ("vacation", "vacation [DAYS|end] — pause your deadlines (up to 14 days a month), or come back early"),
    ("stats", "stats [@USER] — ratings and results on this server"),
    ("leaderboard", "leaderboard VARIANT — the best rated players of a game on this server"),
    ("server", "server [days=N] [rated|casual] [channel=CHANNEL] — server defaults (managers only)"),
    ("help", "help [COMMAND] — this list"),
];

/// The help text, of all commands or one.
pub(crate) fn help(topic: Option<&str>) -> Reply {
    match topic {
        Some(t) => match HELP.iter().find(|(name, _)| *name == t) {
            Some((_, line)) => Reply::text(line.to_string()),
            None => Reply::error(format!("no command '{t}': type help for the list")),
        },
        None => {
            let mut text = String::from(
                "Commands (a game or challenge id can be left out when you have only one):",
            );
            for (_, line) in HELP {
                text.push_str("\n  ");
                text.push_str(line);
            }
            Reply::text(text)
        }
    }
}
