//! Commands that look: the board, legal moves, lists of games, records, rules, settings, help.

use super::catalog::Form;
use super::*;
use crate::engine::notation::japanese::parse_square as japanese_square;
use crate::engine::notation::{written, Notation};
use crate::engine::{Outcome, PieceKind};
use crate::i18n::{words, Lang};
use crate::{msg, t};

impl Service {
    /// The board picture of a game after `ply` moves, as `viewer` sees it (their side at the
    /// bottom, their piece style), if pictures are on, in `voice`: the strip's words in its
    /// language, the caption's move in its notation. A reply passes its sender's voice
    /// (`user.voice`), a notice its recipient's (`voice_of`), a public post its server's
    /// (`public_voice`).
    pub(crate) fn board_image(
        &self,
        g: &Loaded,
        ply: usize,
        viewer: &str,
        voice: Voice,
    ) -> Result<Option<Attachment>, CoreError> {
        self.board_image_styled(g, ply, viewer, None, voice)
    }

    /// `board_image`, in `style` rather than the viewer's setting.
    pub(crate) fn board_image_styled(
        &self,
        g: &Loaded,
        ply: usize,
        viewer: &str,
        style: Option<&str>,
        voice: Voice,
    ) -> Result<Option<Attachment>, CoreError> {
        self.board_drawn(
            g,
            ply,
            viewer,
            style,
            voice,
            &super::picker::Marks::default(),
        )
    }

    /// The board now as `viewer` sees it, with `marks` (a picked piece, where it can go): the
    /// move picker's and `moves SQUARE`'s picture.
    pub(crate) fn board_picture(
        &self,
        g: &Loaded,
        viewer: &str,
        voice: Voice,
        marks: &super::picker::Marks,
    ) -> Result<Option<Attachment>, CoreError> {
        self.board_drawn(g, g.game.moves().len(), viewer, None, voice, marks)
    }

    fn board_drawn(
        &self,
        g: &Loaded,
        ply: usize,
        viewer: &str,
        style: Option<&str>,
        voice: Voice,
        marks: &super::picker::Marks,
    ) -> Result<Option<Attachment>, CoreError> {
        if !self.config.images {
            return Ok(None);
        }
        let pos = g.game.position_at(ply);
        let row = self.store.user(viewer)?;
        // The viewer's side at the bottom, unless they keep one side there (`settings board`).
        let side = match row.as_ref().and_then(|u| u.board.as_deref()) {
            Some("white") => Color::White,
            Some(_) => Color::Black,
            None => g.side_of(viewer).unwrap_or(Color::Black),
        };
        let style = match style {
            Some(s) => crate::render::PieceStyle::parse(s)
                .ok_or_else(|| CoreError::User(msg!("views-bad-style", style = s)))?,
            None => match row {
                Some(u) => crate::render::PieceStyle::parse(&u.style).unwrap_or_default(),
                None => crate::render::PieceStyle::default(),
            },
        };
        let last = (ply > 0).then(|| g.game.moves()[ply - 1]);
        let caption = last.map(|m| {
            let before = g.game.position_at(ply - 1);
            // The move's number as the reader counts: `3.` in English, `5手目` in Japanese.
            let number = match voice.lang {
                Lang::En => {
                    crate::engine::notation::move_number(ply - 1, g.game.start().side_to_move())
                }
                Lang::Ja => t!(voice.lang, "play-ply", ply = ply as i64),
            };
            format!(
                "{number} {}",
                written(&before, m, voice.notation, last_to(&g.game, ply - 1))
            )
        });
        let active = g.row.status == GameStatus::Active && ply == g.game.moves().len();
        let opts = crate::render::RenderOptions {
            last_move: last,
            marked: marks.marked.clone(),
            selected: marks.selected,
            targets: marks.targets.clone(),
            viewer: side,
            style,
            names: self.picture_names(&g.row),
            show_turn: active,
            caption,
            lang: voice.lang,
            // The ranks as the reader's notation writes them (`g` or `七`).
            rank_kanji: Some(voice.notation == Notation::Japanese),
            clocks: if active {
                self.clocks(&g.row, voice.lang)
            } else {
                [None, None]
            },
            ..Default::default()
        };
        let png = crate::render::render_png(&pos, &opts)
            .map_err(|e| CoreError::Internal(format!("rendering game {}: {e}", g.row.id)))?;
        Ok(Some(Attachment::new(
            format!("game-{}-move-{ply}.png", g.row.id),
            png,
        )))
    }

    /// Both players' clocks as a game's views show them now (see `timing::clock_texts`); the
    /// computer has none.
    pub(crate) fn clocks(&self, row: &crate::store::GameRow, lang: Lang) -> [Option<String>; 2] {
        let mut c = super::timing::clock_texts(lang, row, self.now());
        for (side, player) in row.players.iter().enumerate() {
            if self.is_computer(player) {
                c[side] = None;
            }
        }
        c
    }

    /// "Clocks (3 days + 1 day per move (at most 7 days)): alice 2d 4h · bob 3d." for an active
    /// game's views; `None` when no player has a clock.
    fn clocks_line(&self, row: &crate::store::GameRow, lang: Lang) -> Option<String> {
        let guild = row.guild.as_deref();
        let sep = match lang {
            Lang::En => " · ",
            Lang::Ja => "、",
        };
        let times: Vec<String> = self
            .clocks(row, lang)
            .iter()
            .zip(&row.players)
            .filter_map(|(time, player)| {
                let time = time.as_ref()?;
                Some(t!(
                    lang,
                    "timing-clock-of",
                    name = self.shown_name(player, guild),
                    time = time.as_str()
                ))
            })
            .collect();
        (!times.is_empty()).then(|| {
            t!(
                lang,
                "timing-clocks",
                control = super::timing::control_text(lang, &row.control),
                times = times.join(sep)
            )
        })
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

    /// The first lines of a game's views: who plays whom, whose move (or how it ended), in
    /// `voice` (its deadline in the reader's zone).
    fn status_line(&self, g: &Loaded, voice: Voice) -> String {
        let lang = voice.lang;
        let v = g.variant();
        let guild = g.row.guild.as_deref();
        let head = t!(
            lang,
            "views-status",
            id = g.row.id,
            variant = words::variant(lang, v.id()),
            black = self.shown_name(g.player(Color::Black), guild),
            black_side = side_word(lang, v, Color::Black),
            white = self.shown_name(g.player(Color::White), guild),
            white_side = side_word(lang, v, Color::White),
            number = g.row.ply + 1
        );
        match (g.row.status, g.game.outcome()) {
            (GameStatus::Finished, _) => match stored_outcome(&g.row) {
                Some(o) => t!(
                    lang,
                    "views-status-over",
                    head = head,
                    result = result_text(lang, o, |c| self.shown_name(g.player(c), guild))
                ),
                None => t!(lang, "views-status-over-plain", head = head),
            },
            _ => {
                let check = if g.game.position().in_check() {
                    t!(lang, "views-in-check")
                } else {
                    String::new()
                };
                let deadline = g
                    .row
                    .deadline
                    .map(|d| t!(lang, "views-deadline", time = voice.time(d)))
                    .unwrap_or_default();
                let line = t!(
                    lang,
                    "views-status-to-move",
                    head = head,
                    name = self.shown_name(g.to_move(), guild),
                    check = check,
                    deadline = deadline
                );
                match self.clocks_line(&g.row, lang) {
                    Some(clocks) => format!("{line}\n{clocks}"),
                    None => line,
                }
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
        let text = format!("{}\n`{}`", self.status_line(&g, user.voice), g.row.position);
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
                .board_image_styled(&g, g.game.moves().len(), &viewer, style, user.voice)?
                .into_iter()
                .collect(),
            buttons: if g.row.status == GameStatus::Active {
                super::play::game_buttons(g.row.id, user.voice.lang)
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
        let lang = user.voice.lang;
        let pos = g.game.position();
        let from = match square {
            None => None,
            // A square as the game names it (`7g`), or as Japanese players write it (`７六`).
            Some(s) => Some(
                v.parse_square(s)
                    .or_else(|| japanese_square(v, s))
                    .ok_or_else(|| {
                        CoreError::User(msg!(
                            "views-bad-square",
                            square = s,
                            variant = msg!(variant_key(v.id()))
                        ))
                    })?,
            ),
        };
        let last = last_to(&g.game, g.game.moves().len());
        let listed: Vec<(Move, String)> = written_moves_in(&g.game, user.voice.notation, last)
            .into_iter()
            .filter(|(m, _)| from.is_none() || m.from() == from)
            .collect();
        // The picture beside the list: the piece asked about and where it can go (a dot, a
        // ring on a capture; a lion's first steps), or every piece that can move.
        let marks = match from {
            Some(sq) => {
                let ms: Vec<Move> = listed.iter().map(|(m, _)| *m).collect();
                let (selected, targets) =
                    crate::render::picked_marks(pos, &ms, &v.square_name(sq)).unwrap_or_default();
                super::picker::Marks {
                    selected,
                    targets,
                    marked: Vec::new(),
                }
            }
            None => super::picker::Marks {
                marked: {
                    let mut f: Vec<_> = listed.iter().filter_map(|(m, _)| m.from()).collect();
                    f.sort();
                    f.dedup();
                    f
                },
                ..Default::default()
            },
        };
        let viewer = if g.side_of(&user.id).is_some() {
            user.id.to_string()
        } else {
            g.to_move().to_string()
        };
        let picture = if listed.is_empty() {
            None
        } else {
            self.board_picture(&g, &viewer, user.voice, &marks)?
        };
        let mut moves: Vec<String> = listed.into_iter().map(|(_, h)| h).collect();
        moves.sort();
        moves.dedup();
        let whose = t!(
            lang,
            "views-whose",
            name = self.shown_name(g.to_move(), g.row.guild.as_deref()),
            side = side_word(lang, v, pos.side_to_move())
        );
        let id = g.row.id;
        // The square in the reader's words (`２二` for a Japanese reader).
        let square = from.map(|sq| crate::i18n::refusal::square(lang, v, sq));
        let square = square.as_deref();
        // A player asking for their own piece's moves on the other's turn: that is why there
        // are none, said before "no legal move from".
        let theirs = from.and_then(|sq| pos.piece_at(sq)).map(|p| p.color);
        let mine = g.side_of(&user.id);
        if moves.is_empty()
            && mine.is_some()
            && theirs == mine
            && mine != Some(pos.side_to_move())
            && g.row.status == GameStatus::Active
        {
            return user_err(msg!(
                "play-not-your-turn",
                id = id,
                name = self.shown_name(g.to_move(), g.row.guild.as_deref())
            ));
        }
        let text = match (moves.is_empty(), square) {
            (true, Some(s)) => t!(lang, "views-moves-none-from", id = id, square = s),
            (true, None) => t!(lang, "views-moves-none", id = id),
            (false, Some(s)) => t!(
                lang,
                "views-moves-from",
                id = id,
                count = moves.len(),
                square = s,
                whose = whose,
                moves = moves.join(" ")
            ),
            (false, None) => t!(
                lang,
                "views-moves-all",
                id = id,
                count = moves.len(),
                whose = whose,
                moves = moves.join(" ")
            ),
        };
        Ok(Reply {
            attachments: picture.into_iter().collect(),
            ..Reply::text(text)
        })
    }

    /// `games`: the server's featured game first (when one is set and going on), then the
    /// list.
    pub(crate) fn games(
        &self,
        user: &User,
        place: &Place,
        who: Option<&UserRef>,
    ) -> Result<Reply, CoreError> {
        let mut reply = self.games_list(user, place, who)?;
        let featured = match place.guild.as_deref() {
            Some(_) => self.server_of(place)?.featured,
            None => None,
        };
        let game = match featured {
            Some(id) => self.store.game(id)?,
            None => None,
        };
        if let Some(g) = game.filter(|g| g.status == GameStatus::Active && g.guild == place.guild) {
            let lang = user.voice.lang;
            let here = place.guild.as_deref();
            let variant = VariantId::parse(&g.variant)
                .map(|v| words::variant(lang, v))
                .unwrap_or_else(|| g.variant.clone());
            let line = t!(
                lang,
                "views-featured",
                id = g.id,
                first = self.shown_name(&g.players[0], here),
                second = self.shown_name(&g.players[1], here),
                variant = variant,
                ply = g.ply
            );
            reply.text = format!("{line}\n{}", reply.text);
        }
        Ok(reply)
    }

    fn games_list(
        &self,
        user: &User,
        place: &Place,
        who: Option<&UserRef>,
    ) -> Result<Reply, CoreError> {
        let id = self.subject(user, place, who, "games")?;
        let lang = user.voice.lang;
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
                    Some(to) => t!(
                        lang,
                        "views-you-challenged",
                        name = self.shown_name(to, here)
                    ),
                    None => t!(lang, "views-your-open-challenge"),
                }
            } else {
                t!(
                    lang,
                    "views-challenge-from",
                    name = self.shown_name(&c.challenger, here)
                )
            };
            // English names the game by its id, as typed in `challenge`.
            let variant = match (lang, VariantId::parse(&c.variant)) {
                (Lang::En, _) | (_, None) => c.variant.clone(),
                (_, Some(v)) => words::variant(lang, v),
            };
            challenge_lines.push('\n');
            challenge_lines.push_str(&t!(
                lang,
                "views-challenge-line",
                id = c.id,
                variant = variant,
                whom = whom
            ));
        }
        let name = self.shown_name(id, here);
        // Notices that could not reach the player are theirs to know of.
        let undelivered = if me {
            self.undelivered_note(id, user.voice.lang)?
                .map(|n| format!("\n{n}"))
                .unwrap_or_default()
        } else {
            String::new()
        };
        if rows.is_empty() {
            let mut text = if me {
                t!(lang, "views-no-games-me")
            } else {
                t!(lang, "views-no-games-other", name = name.as_str())
            };
            text.push_str(&challenge_lines);
            text.push_str(&undelivered);
            return Ok(Reply::text(text));
        }
        // The daily list: the subject's move first, soonest deadline first (see `follow`).
        let mut lines: Vec<(bool, i64, String)> = rows
            .iter()
            .map(|row| self.daily_line(row, id, me, here, user.voice))
            .collect();
        lines.sort();
        let head = if me {
            t!(lang, "views-games-head-me")
        } else {
            t!(lang, "views-games-head-other", name = name.as_str())
        };
        // Someone else's games: how to follow one.
        let hint = match rows.first().filter(|_| !me && place.guild.is_some()) {
            Some(g) => format!("\n{}", t!(lang, "follow-hint", id = g.id)),
            None => String::new(),
        };
        let text = std::iter::once(head)
            .chain(lines.into_iter().map(|(_, _, l)| l))
            .collect::<Vec<_>>()
            .join("\n")
            + &challenge_lines
            + &undelivered
            + &hint;
        Ok(Reply::text(text))
    }

    pub(crate) fn history(
        &self,
        user: &User,
        place: &Place,
        who: Option<&UserRef>,
    ) -> Result<Reply, CoreError> {
        let id = self.subject(user, place, who, "history")?;
        let lang = user.voice.lang;
        let rows = self
            .store
            .games_of(id, GameStatus::Finished, place.guild.as_deref(), 25)?;
        let here = place.guild.as_deref();
        let name = self.shown_name(id, here);
        if rows.is_empty() {
            return Ok(Reply::text(t!(
                lang,
                "views-history-none",
                name = name.as_str()
            )));
        }
        let mut text = t!(lang, "views-history-head", name = name.as_str());
        for r in rows {
            let me = if r.players[0] == id { 0 } else { 1 };
            let outcome = match r.result {
                Some(crate::store::GameResult::Draw) => t!(lang, "views-result-draw"),
                Some(res) if (res == crate::store::GameResult::First) == (me == 0) => {
                    t!(lang, "views-result-won")
                }
                Some(_) => t!(lang, "views-result-lost"),
                None => "?".to_string(),
            };
            let reason = r
                .reason
                .as_deref()
                .and_then(crate::engine::Reason::parse)
                .map_or_else(
                    || r.reason.clone().unwrap_or_default(),
                    |r| words::reason(lang, r),
                );
            text.push('\n');
            text.push_str(&t!(
                lang,
                "views-history-line",
                id = r.id,
                variant = variant_words(lang, &r.variant),
                opponent = self.shown_name(&r.players[1 - me], here),
                outcome = outcome,
                reason = reason,
                moves = r.ply,
                time = r
                    .finished_at
                    .map(|t| user.voice.time(t))
                    .unwrap_or_default()
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
        let lang = user.voice.lang;
        let n = g.game.moves().len();
        let ply = ply.map(|p| p as usize).unwrap_or(n);
        if ply > n {
            return user_err(msg!("views-ply-range", id = id, moves = n));
        }
        let pos = g.game.position_at(ply);
        let after = if ply > 0 {
            let before = g.game.position_at(ply - 1);
            let m = written(
                &before,
                g.game.moves()[ply - 1],
                user.voice.notation,
                last_to(&g.game, ply - 1),
            );
            t!(lang, "views-after-last", ply = ply, moves = n, last = m)
        } else {
            t!(lang, "views-after", ply = ply, moves = n)
        };
        let viewer = if g.side_of(&user.id).is_some() {
            user.id.to_string()
        } else {
            g.player(Color::Black).to_string()
        };
        Ok(Reply {
            game: Some(g.game_ref(false)),
            text: format!(
                "{}\n{after}\n`{}`",
                self.status_line(&g, user.voice),
                fen::write(&pos)
            ),
            attachments: self
                .board_image_styled(&g, ply, &viewer, style, user.voice)?
                .into_iter()
                .collect(),
            buttons: [
                (ply > 0).then(|| Button {
                    label: t!(lang, "views-button-back"),
                    command: format!("game {id} {}", ply - 1),
                }),
                (ply < n).then(|| Button {
                    label: t!(lang, "views-button-next"),
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
        let lang = user.voice.lang;
        let rows = self.store.moves(id)?;
        // Western notation is stored with each move; the other notations are written again
        // from the replayed game.
        let notation = user.voice.notation;
        let shown: Vec<String> = if notation == Notation::Western {
            rows.iter().map(|m| m.notation.clone()).collect()
        } else {
            g.game
                .moves()
                .iter()
                .enumerate()
                .map(|(i, &m)| written(&g.game.position_at(i), m, notation, last_to(&g.game, i)))
                .collect()
        };
        let mut text = self.status_line(&g, user.voice);
        let first = g.game.start().side_to_move();
        let mut line = String::new();
        // Japanese counts moves one by one (`5手目`), as every other Japanese text does: a
        // move a line.
        if lang == Lang::Ja {
            for (i, m) in shown.iter().enumerate() {
                text.push('\n');
                text.push_str(&t!(lang, "play-ply", ply = (i + 1) as i64));
                text.push(' ');
                text.push_str(m);
            }
        }
        for (i, m) in shown.iter().enumerate().filter(|_| lang != Lang::Ja) {
            let second = (i + usize::from(first == Color::White)) % 2 == 1;
            if !second {
                if !line.is_empty() {
                    text.push('\n');
                    text.push_str(&line);
                }
                line = format!("{} {}", crate::engine::notation::move_number(i, first), m);
            } else if line.is_empty() {
                line = format!("{} {}", crate::engine::notation::move_number(i, first), m);
            } else {
                line.push(' ');
                line.push_str(m);
            }
        }
        if !line.is_empty() {
            text.push('\n');
            text.push_str(&line);
        }
        if shown.is_empty() {
            text.push('\n');
            text.push_str(&t!(lang, "views-no-moves-yet"));
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
            .map_err(CoreError::User)?;
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
        // Drawn on a place of the long work (the one the transport took, else one waited for).
        let _place = match super::long::take_bound() {
            Some(slot) => slot,
            None => self.long_ticket(user)?.wait(|_| {}),
        };
        let lang = user.voice.lang;
        let style = match self.store.user(&user.id)? {
            Some(u) => crate::render::PieceStyle::parse(&u.style).unwrap_or_default(),
            None => crate::render::PieceStyle::default(),
        };
        let opts = crate::render::GifOptions {
            board: crate::render::RenderOptions {
                style,
                names: self.picture_names(&g.row),
                lang,
                rank_kanji: Some(user.voice.notation == Notation::Japanese),
                ..Default::default()
            },
            notation: user.voice.notation,
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
                "{}\n{}",
                self.status_line(&g, user.voice),
                t!(lang, "views-replay-too-long", id = id)
            )));
        };
        let mut text = format!(
            "{}\n{}",
            self.status_line(&g, user.voice),
            t!(lang, "views-replay", moves = moves)
        );
        if !gif.every_position() {
            text.push_str(&t!(
                lang,
                "views-replay-sampled",
                frames = gif.frames,
                positions = gif.positions
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
        let lang = user.voice.lang;
        let id = VariantId::parse(variant).ok_or_else(|| {
            let known: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
            CoreError::User(msg!(
                "views-unknown-game",
                name = variant,
                known = known.join(", ")
            ))
        })?;
        let v = Variant::get(id);
        let style = || -> Result<crate::render::PieceStyle, CoreError> {
            Ok(match self.store.user(&user.id)? {
                Some(u) => crate::render::PieceStyle::parse(&u.style).unwrap_or_default(),
                None => crate::render::PieceStyle::default(),
            })
        };
        let Some(p) = piece else {
            // The rules page: how to play (one Discord message); the start position with its
            // zones and the sheet of the pieces' moves. The table of position-string letters
            // is the command line's (`tegami rules`), for software.
            let notation = user.voice.notation;
            let text = super::learn::lesson(lang, v, notation);
            let mut reply = Reply::text(text);
            if self.config.images {
                let (board, sheet) = super::learn::pictures(lang, v, notation, style()?)
                    .map_err(|e| CoreError::Internal(format!("rules pictures of {id}: {e}")))?;
                reply.attachments.push(Attachment::new(
                    format!("rules-{}-board.png", v.id()),
                    board,
                ));
                reply.attachments.push(Attachment::new(
                    format!("rules-{}-pieces.png", v.id()),
                    sheet,
                ));
            }
            return Ok(reply);
        };
        let kind = find_kind_or_choices(v, p).map_err(|choices| {
            if choices.is_empty() {
                return CoreError::User(msg!(
                    "views-not-a-piece",
                    piece = p,
                    variant = msg!(variant_key(v.id())),
                    id = v.id().as_str()
                ));
            }
            let names: Vec<String> = choices
                .iter()
                .map(|&k| words::piece_name(lang, v, k))
                .collect();
            CoreError::User(msg!(
                "learn-which-piece",
                piece = p,
                choices = names.join(&t!(lang, "list-separator"))
            ))
        })?;
        let mut reply = Reply::text(describe_piece(lang, v, kind));
        if self.config.images {
            let png = piece_diagram(v, kind, style()?)
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
            digest_hour,
            timezone,
            board,
        } = change;
        // The board's side in words, said after the other settings.
        let board_words = |lang: Lang, row: &crate::store::UserRow| match row.board.as_deref() {
            Some("white") => t!(lang, "learn-settings-board-white"),
            Some(_) => t!(lang, "learn-settings-board-black"),
            None => t!(lang, "learn-settings-board-turn"),
        };
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
            digest: super::follow::digest_hour_words(voice.lang, row.digest_hour),
            timezone: row.timezone.clone().unwrap_or_else(|| "UTC".into()),
        };
        if change.is_empty() {
            let v = user.voice;
            let s = shown(&current, v);
            return Ok(Reply::text(format!(
                "{} {}",
                t!(
                    v.lang,
                    "settings-show",
                    style = s.style,
                    notify = s.notify,
                    remind = s.remind,
                    language = s.language,
                    notation = s.notation,
                    digest = s.digest,
                    timezone = s.timezone
                ),
                board_words(v.lang, &current)
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
        // The digest's hour (0-23) and the zone it is in: checked before anything is saved.
        let new_hour = match digest_hour {
            None => current.digest_hour,
            Some(Some(h)) if h > 23 => {
                return user_err(msg!("settings-bad-digest-hour", value = h))
            }
            Some(h) => h,
        };
        let new_zone = match timezone {
            None => current.timezone.clone(),
            Some(v) if back(v) => None,
            Some(v) => {
                let zone = super::Zone::named(v)
                    .ok_or_else(|| CoreError::User(msg!("settings-bad-timezone", value = v)))?;
                (!zone.is_utc()).then(|| zone.name().to_string())
            }
        };
        let new_board = match board {
            None => current.board.clone(),
            Some(b) => super::command::board_side(b)
                .ok_or_else(|| CoreError::User(msg!("learn-bad-board", value = b)))?
                .map(str::to_string),
        };
        if style != current.style || notify != current.notify {
            self.store.set_user_settings(&user.id, style, notify)?;
        }
        if new_board != current.board {
            self.store.set_user_board(&user.id, new_board.as_deref())?;
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
        let mut saved = crate::store::UserRow {
            style: style.to_string(),
            notify: notify.to_string(),
            remind_hours: remind.or(current.remind_hours),
            language: new_language,
            notation: new_notation,
            digest_hour: new_hour,
            timezone: new_zone,
            board: new_board,
            ..current.clone()
        };
        // A new hour, zone or way of being told: the next digest planned again.
        if saved.digest_hour != current.digest_hour
            || saved.timezone != current.timezone
            || saved.notify != current.notify
        {
            saved.next_digest_at = self.planned_digest(&saved, self.now())?;
            self.store.set_digest(
                &user.id,
                saved.digest_hour,
                saved.timezone.as_deref(),
                saved.next_digest_at,
            )?;
        }
        // Said in the language just chosen.
        let v = speech::voice_for(Some(&saved), user.locale.as_deref());
        let s = shown(&saved, v);
        Ok(Reply::text(format!(
            "{} {}",
            t!(
                v.lang,
                "settings-saved",
                style = s.style,
                notify = s.notify,
                remind = s.remind,
                language = s.language,
                notation = s.notation,
                digest = s.digest,
                timezone = s.timezone
            ),
            board_words(v.lang, &saved)
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
    pub digest_hour: Option<Option<u8>>,
    pub timezone: Option<&'a str>,
    pub board: Option<&'a str>,
}

impl SettingsChange<'_> {
    fn is_empty(&self) -> bool {
        self.style.is_none()
            && self.notify.is_none()
            && self.remind.is_none()
            && self.language.is_none()
            && self.notation.is_none()
            && self.digest_hour.is_none()
            && self.timezone.is_none()
            && self.board.is_none()
    }
}

/// The settings in words.
struct SettingsShown {
    style: String,
    notify: String,
    remind: String,
    language: String,
    notation: String,
    digest: String,
    timezone: String,
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

/// A piece of a game by letter (`S`, `+R`, `Ln`, `GC`) or name (`silver`, `lion`, `Western
/// pawn`, `銀将`); `None` when nothing, or more than one piece, answers to it.
pub fn find_kind(v: &Variant, s: &str) -> Option<PieceKind> {
    find_kind_or_choices(v, s).ok()
}

/// [`find_kind`], or the pieces a name shared by several of them could mean (`pawn` in
/// Shanghai Palace Chess: the Western pawn, the Chinese soldier, the shogi pawn); empty when
/// nothing answers to it.
pub fn find_kind_or_choices(v: &Variant, s: &str) -> Result<PieceKind, Vec<PieceKind>> {
    if let Some(k) = v.kind_by_human(s).or_else(|| v.kind_by_code(s)) {
        return Ok(k);
    }
    let kinds = || v.spec.pieces.letters.iter().map(|l| l.kind);
    let wanted = s.trim().to_lowercase().replace(['-', '_'], " ");
    // The one name of each piece, in either language.
    if let Some(k) = kinds().find(|&k| {
        Lang::ALL
            .iter()
            .any(|&l| words::piece_name(l, v, k).to_lowercase() == wanted)
    }) {
        return Ok(k);
    }
    // A generic name (`pawn`, `knight`) or a piece's character (`銀`): only when one piece of
    // the game answers to it.
    let generic: Vec<PieceKind> = kinds()
        .filter(|&k| k.name() == wanted || k.kanji() == s.trim())
        .collect();
    match generic.as_slice() {
        [k] => Ok(*k),
        _ => Err(generic),
    }
}

/// The help text, of all commands or one, in `lang`, written from the command table
/// ([`catalog`](super::catalog)) in `form`.
pub fn help_in(lang: Lang, form: Form, topic: Option<&str>) -> Reply {
    match super::catalog::help(lang, form, topic) {
        Ok(text) => Reply::text(text),
        Err(refusal) => Reply::error(refusal),
    }
}

/// A side's word in a sentence: the engine's own in English (`black`, as the status line has
/// always written it), `先手`, `紅` in Japanese.
fn side_word(lang: Lang, v: &Variant, c: Color) -> String {
    match lang {
        Lang::En => v.side_name(c).to_string(),
        _ => words::side(lang, v, c),
    }
}

/// A result at the start of a sentence: `Draw by repetition`, `alice wins by checkmate`,
/// `先手の勝ち（詰み）`.
fn result_text(lang: Lang, o: Outcome, name: impl Fn(Color) -> String) -> String {
    match lang {
        Lang::En => capital(o, &crate::engine::notation::result_words(o, name)),
        _ => words::result(lang, o, name),
    }
}

/// The message id of a game's name (in `engine.ftl`), for a refusal rendered later.
fn variant_key(id: VariantId) -> &'static str {
    match id {
        VariantId::Shogi => "variant-shogi",
        VariantId::Judkins => "variant-judkins",
        VariantId::Cannon => "variant-cannon",
        VariantId::Palace => "variant-palace",
        VariantId::Shanghai => "variant-shanghai",
    }
}

/// A stored game's name (its variant id in the row) in words, or the id if unknown.
fn variant_words(lang: Lang, raw: &str) -> String {
    VariantId::parse(raw).map_or(raw.to_string(), |v| words::variant(lang, v))
}

/// The square the move before move `ply` (0-based) went to: Japanese notation writes a move
/// back onto it as `同`.
pub(crate) fn last_to(game: &Game, ply: usize) -> Option<crate::engine::Square> {
    ply.checked_sub(1)
        .and_then(|i| game.moves().get(i))
        .map(|m| m.to())
}

/// [`written_moves`] in `notation`, `last` being the square the last move went to.
pub(crate) fn written_moves_in(
    game: &Game,
    notation: Notation,
    last: Option<crate::engine::Square>,
) -> Vec<(Move, String)> {
    if notation == Notation::Western {
        return written_moves(game);
    }
    let pos = game.position();
    let legal = game.legal_moves();
    let all = pos.legal_moves();
    let list = if all.len() == legal.len() {
        &legal
    } else {
        &all
    };
    list.iter()
        .copied()
        .zip(crate::engine::notation::written_all(
            pos, list, notation, last,
        ))
        .filter(|(m, _)| legal.contains(m))
        .collect()
}

/// How one piece of a game moves (`rules VARIANT PIECE`) in `lang`. The English is the
/// engine's own [`crate::engine::variants::describe_piece`].
pub fn describe_piece(lang: Lang, v: &Variant, k: PieceKind) -> String {
    use PieceKind::*;
    let palace = v.id() == VariantId::Palace;
    let shanghai = v.id() == VariantId::Shanghai;
    let moves = match k {
        King if palace => "rules-move-king-palace",
        King => "rules-move-king",
        Gold | Tokin | PromotedLance | PromotedKnight | PromotedSilver => "rules-move-gold",
        Silver => "rules-move-silver",
        Knight if palace => "rules-move-knight-palace",
        Knight => "rules-move-knight",
        Lance if palace => "rules-move-lance-palace",
        Lance => "rules-move-lance",
        Bishop => "rules-move-bishop",
        Rook => "rules-move-rook",
        Horse => "rules-move-horse",
        Dragon => "rules-move-dragon",
        Pawn => "rules-move-pawn",
        SidePawn => "rules-move-side-pawn",
        GoldCannon => "rules-move-gold-cannon",
        CopperCannon => "rules-move-copper-cannon",
        SilverCannon => "rules-move-silver-cannon",
        IronCannon => "rules-move-iron-cannon",
        PromotedGoldCannon | PromotedCopperCannon | PromotedSilverCannon | PromotedIronCannon => {
            "rules-move-promoted-cannon"
        }
        Footsoldier => "rules-move-footsoldier",
        PalacePawn => "rules-move-palace-pawn",
        PalaceCannon => "rules-move-palace-cannon",
        ChessKnight => "rules-move-chess-knight",
        Elephant => "rules-move-elephant",
        PalaceDragon => "rules-move-palace-dragon",
        Queen if palace => "rules-move-queen-palace",
        Queen => "rules-move-queen",
        Lion => "rules-move-lion",
        XiangqiKing => "rules-move-xiangqi-king",
        Guard => "rules-move-guard",
        XiangqiElephant => "rules-move-xiangqi-elephant",
        XiangqiCannon => "rules-move-xiangqi-cannon",
        XiangqiPawn => "rules-move-xiangqi-pawn",
        WesternRook => "rules-move-western-rook",
        WesternBishop => "rules-move-western-bishop",
        WesternPawn => "rules-move-western-pawn",
    };
    let extra = if shanghai && matches!(k, Pawn | Lance | Knight | Silver | Bishop | Rook) {
        t!(lang, "rules-shanghai-shogi-piece")
    } else {
        String::new()
    };
    let name = match lang {
        Lang::En => crate::render::capitalised(v.piece_name(k)),
        _ => words::piece_name(lang, v, k),
    };
    let letter = v.letter(k).map_or("?", |l| l.human);
    let mut out = t!(
        lang,
        "rules-piece",
        name = name,
        letter = letter,
        variant = words::variant(lang, v.id()),
        moves = t!(lang, moves),
        extra = extra
    );
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_rules_are_the_engine_s_own() {
        for &id in VariantId::ALL {
            let v = Variant::get(id);
            assert_eq!(words::variant(Lang::En, id), v.spec.name);
            for l in v.spec.pieces.letters {
                assert_eq!(
                    describe_piece(Lang::En, v, l.kind),
                    crate::engine::variants::describe_piece(v, l.kind),
                    "{id:?} {:?}",
                    l.kind
                );
            }
        }
    }

    #[test]
    fn japanese_rules_have_every_piece() {
        for &id in VariantId::ALL {
            let v = Variant::get(id);
            for l in v.spec.pieces.letters {
                let p = describe_piece(Lang::Ja, v, l.kind);
                assert!(!p.contains("rules-"), "{p}");
            }
        }
    }
}
