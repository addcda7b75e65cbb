//! Commands that change games: challenges, moves, resignation and the offers (draw, takeback,
//! impasse). Each change is one store transaction guarded by the game's version, and the reply
//! is built only after it committed.

use tracing::{error, info, instrument};

use super::*;
use crate::engine::notation::{human, input, written};
use crate::engine::{impasse, Outcome, Position};
use crate::i18n::{refusal, words, Lang, Msg};
use crate::store::{
    ChallengeCaps, ChallengeStatus, Ending, GameResult, Limit, MoveRow, NewChallenge, NewGame,
    OfferKind, OfferRow, TimeControl, Turn,
};
use crate::{msg, t};
use timing::ClockArgs;

/// Open challenges one user may have made at once (in every server together): the next one is
/// refused, saying how to withdraw one (`cancel`).
pub const MAX_OPEN_CHALLENGES: usize = 10;

/// Open challenges one user may have made to the same opponent at once.
pub const MAX_OPEN_TO_ONE: usize = 3;

/// Challenges one user may make to the same opponent within a day, whatever became of them
/// (cancelled ones count): a cancel and challenge again loop cannot make the bot ping someone
/// over and over.
pub const MAX_DAILY_TO_ONE: usize = 10;

/// Games against the computer one user may have in progress at once.
pub const MAX_COMPUTER_GAMES: usize = 5;

pub(crate) struct ChallengeArgs {
    pub opponent: Option<UserRef>,
    pub variant: String,
    pub color: ColorChoice,
    pub days: Option<u32>,
    pub handicap: Option<String>,
    pub setup: Option<String>,
    pub rated: Option<bool>,
    /// The computer's level, when the opponent is the computer.
    pub level: Option<u8>,
    /// The clock besides the days.
    pub clock: ClockArgs,
}

fn color_word(c: ColorChoice) -> &'static str {
    match c {
        ColorChoice::First => "first",
        ColorChoice::Second => "second",
        ColorChoice::Random => "random",
    }
}

/// The stored result and reason of an engine outcome.
pub(crate) fn ending_of(o: Outcome) -> Ending {
    match o {
        Outcome::Win { winner, reason } => Ending {
            result: if winner == Color::Black {
                GameResult::First
            } else {
                GameResult::Second
            },
            reason: reason.as_str().to_string(),
        },
        Outcome::Draw { reason } => Ending {
            result: GameResult::Draw,
            reason: reason.as_str().to_string(),
        },
    }
}

impl Service {
    /// When a turn of `user` begins, or when their time is counted from: now, or the end of
    /// their vacation.
    pub(crate) fn turn_from(&self, user: &str) -> Result<i64, CoreError> {
        let now = self.now();
        Ok(match self.store.user(user)? {
            Some(u) => u.vacation_until.map_or(now, |v| v.max(now)),
            None => now,
        })
    }

    /// The first turn of a game with `control`, `first` to move (its deadline and span, both
    /// players' banks): the clock as `NewGame` stores it.
    pub(crate) fn first_turn(
        &self,
        control: &TimeControl,
        first: &str,
    ) -> Result<(i64, i64, [i64; 2]), CoreError> {
        let banks = timing::start_banks(control);
        let span = timing::turn_span(control, banks[0]);
        Ok((self.turn_from(first)? + span, span, banks))
    }

    /// The turn after the player to move of `row` ends theirs, `next` to move then: by a move
    /// (`moved`: it earns the increment) or by a takeback (see `service::timing`).
    pub(crate) fn next_turn<'a>(
        &self,
        row: &GameRow,
        next: &'a str,
        moved: bool,
    ) -> Result<Turn<'a>, CoreError> {
        let side_of = |user: &str| row.players.iter().position(|p| p == user);
        let mut banks = row.banks;
        // A per-move clock keeps no bank: nothing to read for the player whose turn ends.
        let banked = row.control.kind != crate::store::ClockKind::PerMove;
        if let Some(side) = row.to_move.as_deref().and_then(side_of).filter(|_| banked) {
            let from = self.turn_from(&row.players[side])?;
            banks = timing::banks_after(row, side, from, moved);
        }
        let span = timing::turn_span(&row.control, banks[side_of(next).unwrap_or(0)]);
        Ok(Turn {
            to_move: next,
            deadline: self.turn_from(next)? + span,
            span,
            banks,
        })
    }

    /// The start position a challenge asks for, checked.
    pub(crate) fn start_of(
        &self,
        v: &'static Variant,
        handicap: Option<&str>,
        setup: Option<&str>,
    ) -> Result<Position, CoreError> {
        match (handicap, setup) {
            (Some(_), Some(_)) => user_err(msg!("play-handicap-and-setup")),
            (Some(h), None) => crate::engine::handicap_position(v.id(), h).ok_or_else(|| {
                // The words to type (`rook`): the same in both languages.
                let names: Vec<&str> = v.spec.handicaps.iter().map(|h| h.name).collect();
                let game = refusal::variant_msg(v.id());
                CoreError::User(if names.is_empty() {
                    msg!("play-no-handicaps", game = game)
                } else {
                    msg!(
                        "play-unknown-handicap",
                        handicap = h,
                        game = game,
                        choices = names.join(", ")
                    )
                })
            }),
            (None, Some(s)) => crate::engine::setup_position(v.id(), s).ok_or_else(|| {
                let names: Vec<&str> = v.spec.setups.iter().map(|s| s.name).collect();
                let game = refusal::variant_msg(v.id());
                CoreError::User(if names.is_empty() {
                    msg!("play-no-setups", game = game)
                } else {
                    msg!(
                        "play-unknown-setup",
                        setup = s,
                        game = game,
                        choices = names.join(", ")
                    )
                })
            }),
            (None, None) => Ok(Position::start(v.id())),
        }
    }

    #[instrument(skip_all, fields(user = %user.id))]
    pub(crate) fn challenge(
        &self,
        user: &User,
        place: &Place,
        a: ChallengeArgs,
    ) -> Result<Reply, CoreError> {
        let id = VariantId::parse(&a.variant).ok_or_else(|| {
            let known: Vec<&str> = VariantId::ALL.iter().map(|v| v.as_str()).collect();
            CoreError::User(msg!(
                "play-unknown-game",
                game = a.variant.as_str(),
                choices = known.join(", ")
            ))
        })?;
        if let Some(computer) = self.computer() {
            if a.opponent.as_ref().is_some_and(|o| o.id == computer.id) {
                return self.challenge_computer(user, place, &computer, Variant::get(id), a);
            }
        }
        if a.level.is_some() {
            return user_err(match self.computer() {
                Some(c) => msg!(
                    "play-level-computer",
                    name = self.shown_name(&c.id, place.guild.as_deref())
                ),
                None => msg!("play-level-no-computer"),
            });
        }
        let v = Variant::get(id);
        let lang = user.voice.lang;
        if a.opponent.as_ref().is_some_and(|o| o.id == user.id) {
            return user_err(msg!("play-challenge-yourself"));
        }
        let server = self.server_of(place)?;
        let control = a
            .clock
            .control(a.days, server.default_days)
            .map_err(CoreError::User)?;
        self.start_of(v, a.handicap.as_deref(), a.setup.as_deref())?;
        if a.handicap.is_some() && a.rated == Some(true) {
            return user_err(msg!("play-handicap-casual"));
        }
        let now = self.now();
        let here = place.guild.as_deref();
        if let Some(o) = &a.opponent {
            // The challenged player's names, as the transport resolved them.
            self.touch_named(o, place, true)?;
        }
        let (whom, notify) = match &a.opponent {
            Some(o) => {
                let n = self.notice(&o.id, place.channel.as_ref(), here, |names, voice| {
                    // `{challenge}`: the store's placeholder, filled once the number is known.
                    t!(
                        voice.lang,
                        "play-notice-challenge",
                        name = self.shown_name(&user.id, names),
                        game = words::variant(voice.lang, v.id()),
                        challenge = "{challenge}"
                    )
                });
                (
                    self.shown_name(&o.id, here),
                    n.into_iter().collect::<Vec<_>>(),
                )
            }
            None => (t!(lang, "play-anyone"), Vec::new()),
        };
        // The caps are counted by the store in the transaction that stores the challenge, so
        // that challenges sent at once never pass them together.
        let caps = ChallengeCaps {
            open: MAX_OPEN_CHALLENGES,
            open_to_one: MAX_OPEN_TO_ONE,
            daily_to_one: MAX_DAILY_TO_ONE,
            day_since: now - DAY + 1,
        };
        let stored = self.store.create_challenge_within(
            &NewChallenge {
                challenger: user.id.to_string(),
                challenged: a.opponent.as_ref().map(|o| o.id.to_string()),
                variant: v.id().as_str().to_string(),
                color: color_word(a.color).to_string(),
                control,
                handicap: a.handicap.clone(),
                setup: a.setup.clone(),
                rated: a.handicap.is_none() && a.rated.unwrap_or(server.rated_default),
                guild: place.guild.clone(),
                channel: server.games_channel.clone().or(place.channel.clone()),
                expires_at: now + self.config.challenge_days as i64 * DAY,
            },
            &caps,
            &to_store(&notify),
            now,
        );
        let row = match stored {
            Ok(row) => row,
            Err(StoreError::Limit(limit)) => {
                let ids: Vec<i64> = notify.iter().filter_map(|n| n.id).collect();
                self.release_notices(&ids);
                return Err(self.challenge_cap_refusal(user, a.opponent.as_ref(), here, limit));
            }
            Err(e) => return Err(e.into()),
        };
        let notify = filled(notify, &[("{challenge}", row.id)]);
        let side = match a.color {
            ColorChoice::First => Some(Color::Black),
            ColorChoice::Second => Some(Color::White),
            ColorChoice::Random => None,
        }
        .map_or_else(String::new, |c| {
            t!(
                lang,
                "play-challenge-side",
                side = refusal::side(lang, v, c)
            )
        });
        let extra = match (&a.handicap, &a.setup) {
            (Some(h), _) => t!(
                lang,
                "play-challenge-handicap",
                handicap = refusal::handicap(lang, h)
            ),
            (_, Some(s)) => t!(lang, "play-challenge-setup", setup = s.as_str()),
            _ => String::new(),
        };
        let kind = if row.rated {
            t!(lang, "play-rated")
        } else {
            t!(lang, "play-casual")
        };
        let text = t!(
            lang,
            "play-challenge",
            id = row.id,
            name = self.shown_name(&user.id, here),
            whom = whom,
            game = words::variant(lang, v.id()),
            side = side,
            extra = extra,
            clock = timing::control_text(lang, &row.control),
            kind = kind,
            open = self.config.challenge_days
        );
        info!(challenge = row.id, "challenge created");
        Ok(Reply {
            text,
            buttons: vec![
                Button {
                    label: t!(lang, "play-button-accept"),
                    command: format!("accept {}", row.id),
                },
                Button {
                    label: t!(lang, "play-button-decline"),
                    command: format!("decline {}", row.id),
                },
            ],
            notify,
            ..Reply::default()
        })
    }

    /// The refusal of a challenge beyond the caps, as the store found it in the transaction
    /// that would have stored it: [`MAX_OPEN_CHALLENGES`] open, [`MAX_OPEN_TO_ONE`] open to the
    /// same opponent, [`MAX_DAILY_TO_ONE`] to the same opponent in a day.
    fn challenge_cap_refusal(
        &self,
        user: &User,
        opponent: Option<&UserRef>,
        guild: Option<&str>,
        limit: Limit,
    ) -> CoreError {
        let ids = |list: &[i64]| {
            list.iter()
                .map(|id| format!("#{id}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let name = || opponent.map_or_else(String::new, |o| self.shown_name(&o.id, guild));
        CoreError::User(match limit {
            Limit::OpenChallenges { open } if !open.is_empty() => msg!(
                "play-too-many-challenges",
                count = open.len(),
                first = open[0],
                ids = ids(&open)
            ),
            Limit::OpenToOne { open } if !open.is_empty() => msg!(
                "play-too-many-to-one",
                count = open.len(),
                name = name(),
                ids = ids(&open),
                first = open[0]
            ),
            Limit::DailyToOne { times } if times.len() >= MAX_DAILY_TO_ONE => {
                // The oldest of the day's challenges leaves the window first.
                let again = times[times.len() - MAX_DAILY_TO_ONE] + DAY;
                msg!(
                    "play-daily-cap",
                    name = name(),
                    count = times.len(),
                    time = user.voice.time(again)
                )
            }
            other => return CoreError::Internal(format!("challenge refused: {other:?}")),
        })
    }

    /// The board picture of a change already stored, seen by `viewer`, in `voice` (the
    /// reply's): drawing it may fail (logged), and the change is announced without it all the
    /// same, with a word in `text`.
    pub(crate) fn picture_after_commit(
        &self,
        g: &Loaded,
        ply: usize,
        viewer: &str,
        text: &mut String,
        voice: Voice,
    ) -> Vec<Attachment> {
        let drawn = if self.render_fault.load(std::sync::atomic::Ordering::SeqCst) {
            Err(CoreError::Internal(
                "the render fault switch is on (a test)".into(),
            ))
        } else {
            self.board_image(g, ply, viewer, voice)
        };
        match drawn {
            Ok(a) => a.into_iter().collect(),
            Err(e) => {
                error!(
                    game = g.row.id,
                    "the board could not be drawn after the change was stored: {e}"
                );
                text.push_str(&t!(voice.lang, "play-no-picture"));
                Vec::new()
            }
        }
    }

    /// Test switch: while on, drawing the board of a change fails, as a broken renderer
    /// would (the change is stored and announced without its picture).
    pub fn set_render_fault(&self, on: bool) {
        self.render_fault
            .store(on, std::sync::atomic::Ordering::SeqCst);
    }

    /// The open challenge a user means: the one named, else the only one they may answer.
    fn pick_challenge(
        &self,
        user: &User,
        place: &Place,
        id: Option<i64>,
        mine: bool,
    ) -> Result<crate::store::ChallengeRow, CoreError> {
        let now = self.now();
        // A challenge is seen in its server (in direct messages: by the two it names).
        let here = |c: &crate::store::ChallengeRow| match &place.guild {
            Some(g) => c.guild.as_deref() == Some(g.as_str()),
            None => c.challenger == user.id || c.challenged.as_deref() == Some(user.id.as_str()),
        };
        if let Some(id) = id {
            let c = self
                .store
                .challenge(id)?
                .filter(here)
                .ok_or_else(|| CoreError::User(msg!("play-no-challenge", id = id)))?;
            if c.status != ChallengeStatus::Open || c.expires_at <= now {
                let state = match c.status {
                    ChallengeStatus::Open | ChallengeStatus::Expired => "play-challenge-expired",
                    ChallengeStatus::Accepted => "play-challenge-accepted",
                    ChallengeStatus::Declined => "play-challenge-declined",
                    ChallengeStatus::Cancelled => "play-challenge-cancelled",
                };
                return user_err(msg!(
                    "play-challenge-closed",
                    id = id,
                    state = Msg::new(state)
                ));
            }
            return Ok(c);
        }
        let open: Vec<_> = self
            .store
            .open_challenges(&user.id, now)?
            .into_iter()
            .filter(here)
            .filter(|c| (c.challenger == user.id) == mine)
            .filter(|c| mine || c.challenged.as_deref() == Some(user.id.as_str()))
            .collect();
        match open.len() {
            0 if mine => user_err(msg!("play-no-open-challenge")),
            0 => user_err(msg!("play-nobody-challenged")),
            1 => Ok(open.into_iter().next().expect("one challenge")),
            _ => {
                let ids: Vec<String> = open.iter().map(|c| format!("#{}", c.id)).collect();
                user_err(msg!(
                    "play-several-challenges",
                    ids = ids.join(", "),
                    first = open[0].id
                ))
            }
        }
    }

    #[instrument(skip_all, fields(user = %user.id))]
    pub(crate) fn accept(
        &self,
        user: &User,
        place: &Place,
        id: Option<i64>,
    ) -> Result<Reply, CoreError> {
        let c = self.pick_challenge(user, place, id, false)?;
        if c.challenger == user.id {
            return user_err(msg!("play-challenge-own", id = c.id));
        }
        if let Some(to) = &c.challenged {
            if *to != user.id {
                return user_err(msg!(
                    "play-challenge-not-yours",
                    id = c.id,
                    name = self.shown_name(to, place.guild.as_deref())
                ));
            }
        }
        let vid = VariantId::parse(&c.variant)
            .ok_or_else(|| CoreError::Internal(format!("challenge {}: unknown variant", c.id)))?;
        let v = Variant::get(vid);
        let start = self.start_of(v, c.handicap.as_deref(), c.setup.as_deref())?;
        let now = self.now();
        let challenger_first = match c.color.as_str() {
            "first" => true,
            "second" => false,
            // Random: std's hasher keys come from the operating system's randomness.
            _ => {
                use std::hash::{BuildHasher, Hasher};
                let mut h = std::collections::hash_map::RandomState::new().build_hasher();
                h.write_i64(c.id);
                h.finish() & 1 == 0
            }
        };
        let players = if challenger_first {
            [c.challenger.clone(), user.id.to_string()]
        } else {
            [user.id.to_string(), c.challenger.clone()]
        };
        let first_mover = players[start.side_to_move().index()].clone();
        let channel = c.channel.clone().or(place.channel.clone());
        // The game's server, whose names its texts show.
        let guild = c.guild.clone().or(place.guild.clone());
        let mut notify: Vec<Notice> = self
            .notice(
                &c.challenger,
                channel.as_ref(),
                guild.as_deref(),
                |names, voice| {
                    // `{game}`: the store's placeholder, filled once the game has its number.
                    t!(
                        voice.lang,
                        "play-notice-accepted",
                        name = self.shown_name(&user.id, names),
                        game = "{game}"
                    )
                },
            )
            .into_iter()
            .collect();
        if first_mover != user.id && first_mover != c.challenger {
            notify.extend(self.notice(
                &first_mover,
                channel.as_ref(),
                guild.as_deref(),
                |_, voice| t!(voice.lang, "play-notice-your-move", game = "{game}"),
            ));
        }
        let (deadline, turn_span, banks) = self.first_turn(&c.control, &first_mover)?;
        let row = match self.store.accept_challenge(
            c.id,
            &NewGame {
                variant: v.id().as_str().to_string(),
                setup: c.handicap.clone().or(c.setup.clone()),
                start_position: fen::write(&start),
                players: players.clone(),
                guild: guild.clone(),
                channel: c.channel.clone().or(place.channel.clone()),
                rated: c.rated,
                control: c.control,
                deadline: Some(deadline),
                banks,
                turn_span,
                to_move: first_mover.clone(),
                computer_level: None,
            },
            &to_store(&notify),
            now,
        ) {
            Ok(row) => row,
            Err(StoreError::Conflict) => return user_err(msg!("play-challenge-taken", id = c.id)),
            Err(e) => return Err(e.into()),
        };
        info!(game = row.id, challenge = c.id, "challenge accepted");
        let notify: Vec<Notice> = filled(notify, &[("{game}", row.id)])
            .into_iter()
            .map(|n| Notice {
                game: Some(row.id),
                ..n
            })
            .collect();
        // Stored: from here on nothing may fail (the game is not read back).
        let loaded = Loaded {
            row,
            game: Game::new(start),
        };
        let row = &loaded.row;
        let mover = loaded.to_move().to_string();
        let lang = user.voice.lang;
        let mut text = t!(
            lang,
            "play-game-begins",
            id = row.id,
            first = self.shown_name(&players[0], guild.as_deref()),
            first_side = refusal::side(lang, v, Color::Black),
            second = self.shown_name(&players[1], guild.as_deref()),
            second_side = refusal::side(lang, v, Color::White),
            clock = timing::control_text(lang, &c.control),
            mover = self.shown_name(&mover, guild.as_deref())
        );
        // The challenge's number is not the game's: say which game it made.
        // Sentences follow one another after a space in English, with none in Japanese.
        let gap = if lang == Lang::Ja { "" } else { " " };
        if c.id != row.id {
            text.push_str(gap);
            text.push_str(&t!(lang, "learn-game-made", challenge = c.id, id = row.id));
        }
        // How the picture turns, said once, in the game's first post.
        text.push_str(gap);
        text.push_str(&t!(lang, "learn-board-turns"));
        let attachments = self.picture_after_commit(&loaded, 0, &mover, &mut text, user.voice);
        Ok(Reply {
            game: Some(loaded.game_ref(true)),
            text,
            attachments,
            buttons: game_buttons(loaded.row.id, lang),
            notify,
            ..Reply::default()
        })
    }

    pub(crate) fn decline(
        &self,
        user: &User,
        place: &Place,
        id: Option<i64>,
    ) -> Result<Reply, CoreError> {
        let c = self.pick_challenge(user, place, id, false)?;
        if c.challenger == user.id {
            return user_err(msg!("play-challenge-own", id = c.id));
        }
        if c.challenged.as_deref() != Some(user.id.as_str()) {
            return user_err(msg!("play-challenge-not-addressed", id = c.id));
        }
        let notify: Vec<Notice> = self
            .notice(
                &c.challenger,
                c.channel.as_ref(),
                c.guild.as_deref(),
                |names, voice| {
                    t!(
                        voice.lang,
                        "play-notice-declined",
                        name = self.shown_name(&user.id, names),
                        id = c.id
                    )
                },
            )
            .into_iter()
            .collect();
        self.store.close_challenge(
            c.id,
            ChallengeStatus::Declined,
            &to_store(&notify),
            self.now(),
        )?;
        Ok(Reply {
            text: t!(
                user.voice.lang,
                "play-declined",
                name = self.shown_name(&user.id, place.guild.as_deref()),
                id = c.id
            ),
            notify,
            ..Reply::default()
        })
    }

    pub(crate) fn cancel(
        &self,
        user: &User,
        place: &Place,
        id: Option<i64>,
    ) -> Result<Reply, CoreError> {
        let c = self.pick_challenge(user, place, id, true)?;
        if c.challenger != user.id {
            return user_err(msg!("play-not-yours-to-cancel", id = c.id));
        }
        self.store
            .close_challenge(c.id, ChallengeStatus::Cancelled, &[], self.now())?;
        Ok(Reply::text(t!(
            user.voice.lang,
            "play-cancelled",
            id = c.id
        )))
    }

    /// Checks that `user` plays in the game and it is going on.
    pub(crate) fn my_side(&self, g: &Loaded, user: &User) -> Result<Color, CoreError> {
        let side = g
            .side_of(&user.id)
            .ok_or_else(|| CoreError::User(msg!("core-not-your-game", id = g.row.id)))?;
        if g.row.status != GameStatus::Active {
            return user_err(msg!("play-game-over", id = g.row.id));
        }
        Ok(side)
    }

    pub(crate) fn play_move(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
        text: &str,
        seen_ply: Option<u32>,
    ) -> Result<Reply, CoreError> {
        self.play_move_as(user, place, game, text, seen_ply, false)
    }

    /// `play_move`; `conditional`: played for its player by a conditional line of theirs (the
    /// announcement says so).
    #[instrument(skip_all, fields(user = %user.id, game))]
    pub(crate) fn play_move_as(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
        text: &str,
        seen_ply: Option<u32>,
        conditional: bool,
    ) -> Result<Reply, CoreError> {
        let mut g = self.pick_game(user, place, game)?;
        tracing::Span::current().record("game", g.row.id);
        let side = self.my_side(&g, user)?;
        let v = g.variant();
        let pos = g.game.position().clone();
        // The game's server, whose names its texts show.
        let guild = g.row.guild.clone();
        let guild = guild.as_deref();
        let voice = user.voice;
        if pos.side_to_move() != side {
            return user_err(msg!(
                "play-not-your-turn",
                id = g.row.id,
                name = self.shown_name(g.to_move(), guild)
            ));
        }
        self.check_in_time(&g, user)?;
        if let Some(seen) = seen_ply {
            if seen != g.row.ply {
                return user_err(msg!("play-button-stale"));
            }
        }
        // Where the previous move went: Japanese notation writes a move there as `同`.
        let last_to = g.game.moves().last().map(|m| m.to());
        let m = input::parse_move_after(&pos, text, last_to).map_err(|e| {
            said(super::learn::refusal_with_hint(
                voice.lang,
                &e,
                &pos,
                text,
                voice.notation,
                last_to,
            ))
        })?;
        g.game
            .play(m)
            .map_err(|e| said(refusal::illegal(voice.lang, &e, v)))?;
        // The record keeps the Western form; texts show each reader's.
        let notation = human(&pos, m);
        let now = self.now();
        let ply = g.row.ply + 1;
        let outcome = g.game.outcome();
        let ending = outcome.map(ending_of);
        let opponent = g.player(!side).to_string();
        let turn = self.next_turn(&g.row, &opponent, true)?;
        let deadline = turn.deadline;
        // The announcement, in a voice: the reply's (the mover's), the public post's (the
        // server's).
        let plies = g.game.moves().len();
        let announce = |voice: Voice| {
            let mut text = self.move_head(&g, plies, &user.id, conditional, voice);
            text.push_str(&self.turn_tail(&g, plies, Some(deadline), voice));
            text
        };
        let mut text = announce(voice);
        let public = self.public_voice(guild);
        let post_text = if public == voice {
            text.clone()
        } else {
            announce(public)
        };
        let mut notify = Vec::new();
        match outcome {
            Some(o) => {
                notify.extend(self.notice_about(
                    Some(g.row.id),
                    &opponent,
                    g.row.channel.as_ref(),
                    guild,
                    |names, voice| {
                        t!(
                            voice.lang,
                            "play-notice-over",
                            id = g.row.id,
                            outcome = self.outcome_sentence(&g, o, names, voice.lang)
                        )
                    },
                ));
            }
            None => {
                notify.extend(self.notice_about(
                    Some(g.row.id),
                    &opponent,
                    g.row.channel.as_ref(),
                    guild,
                    |names, voice| {
                        t!(
                            voice.lang,
                            "play-notice-moved",
                            id = g.row.id,
                            name = self.shown_name(&user.id, names),
                            move = written(&pos, m, voice.notation, last_to)
                        )
                    },
                ));
            }
        }
        let think = (outcome.is_none() && self.is_computer(&opponent)).then_some(g.row.id);
        let viewer = if outcome.is_some() || think.is_some() {
            user.id.to_string()
        } else {
            opponent.clone()
        };
        // The announcement itself is kept with the move, so a failed post is made later.
        let post = self.post_notice(&g, ply, &viewer, &post_text);
        let mut stored = to_store(&notify);
        stored.extend(to_store(std::slice::from_ref(&post)));
        let mv = MoveRow {
            ply,
            code: code::write(v, m),
            notation: notation.clone(),
            position: fen::write(g.game.position()),
            user: user.id.to_string(),
            played_at: now,
        };
        let mut tries = 0;
        let row = loop {
            // A game-ending move carries the ratings, computed again if one moved on meanwhile.
            let finish = match &ending {
                Some(e) => Some(self.finish_of(&g.row, e, &[], &mut Default::default())?),
                None => None,
            };
            match self.store.append_move(
                g.row.id,
                g.row.version,
                &mv,
                &turn,
                finish.as_ref(),
                &stored,
            ) {
                Err(StoreError::Stale) if tries + 1 < super::RETRIES => tries += 1,
                other => break other?,
            }
        };
        // Stored: from here on nothing may fail.
        g.row = row;
        let attachments =
            self.picture_after_commit(&g, g.game.moves().len(), &viewer, &mut text, voice);
        Ok(Reply {
            game: Some(g.game_ref(false)),
            text,
            attachments,
            buttons: if outcome.is_none() {
                game_buttons(g.row.id, voice.lang)
            } else {
                Vec::new()
            },
            notify,
            think,
            post: Some(post),
            ..Reply::default()
        })
    }

    /// Move `ply` (counted from 1) of `g` in `voice`'s words: its number (`12.` / `12…` in
    /// English, `23手目` in Japanese) and the move in the reader's notation.
    fn move_words(&self, g: &Loaded, ply: usize, voice: Voice) -> Option<(String, String)> {
        let moves = g.game.moves();
        let m = *ply.checked_sub(1).and_then(|i| moves.get(i))?;
        let before = g.game.position_at(ply - 1);
        // Where the previous move went: Japanese notation writes a move there as `同`.
        let last_to = ply
            .checked_sub(2)
            .and_then(|i| moves.get(i))
            .map(|m| m.to());
        let number = match voice.lang {
            Lang::En => {
                crate::engine::notation::move_number(ply - 1, g.game.start().side_to_move())
            }
            Lang::Ja => t!(voice.lang, "play-ply", ply = ply as i64),
        };
        Some((number, written(&before, m, voice.notation, last_to)))
    }

    /// The first words of the announcement of move `ply` (counted from 1) of `g`, made by
    /// `mover`, in `voice`: "Game #12: alice plays 3. P-7f.", with the mark of a move a
    /// conditional line played.
    pub(crate) fn move_head(
        &self,
        g: &Loaded,
        ply: usize,
        mover: &str,
        conditional: bool,
        voice: Voice,
    ) -> String {
        let lang = voice.lang;
        let Some((number, written)) = self.move_words(g, ply, voice) else {
            return String::new();
        };
        let mut text = t!(
            lang,
            "play-plays",
            id = g.row.id,
            name = self.shown_name(mover, g.row.guild.as_deref()),
            number = number,
            move = written
        );
        if conditional {
            text.push_str(&t!(lang, "play-conditional-mark"));
        }
        text
    }

    /// Move `ply` of `g` as the answer of a conditional line, after the move it answered, in
    /// `voice`: " bob answers at once with a conditional move: 4… P-8d."
    pub(crate) fn answer_words(&self, g: &Loaded, ply: usize, voice: Voice) -> String {
        let Some((number, written)) = self.move_words(g, ply, voice) else {
            return String::new();
        };
        let side = g.game.position_at(ply - 1).side_to_move();
        t!(
            voice.lang,
            "play-answered",
            name = self.shown_name(g.player(side), g.row.guild.as_deref()),
            number = number,
            move = written
        )
    }

    /// What stands after move `ply` of `g`, in `voice`: how the game ended (when that move is
    /// its last and ended it), else check and who is to move, by `deadline` (none for the
    /// computer, which has no clock).
    pub(crate) fn turn_tail(
        &self,
        g: &Loaded,
        ply: usize,
        deadline: Option<i64>,
        voice: Voice,
    ) -> String {
        let lang = voice.lang;
        let guild = g.row.guild.as_deref();
        let last = ply == g.game.moves().len();
        let mut text = String::new();
        if let Some(o) = g.game.outcome().filter(|_| last) {
            if lang == Lang::En {
                text.push(' ');
            }
            text.push_str(&self.outcome_sentence(g, o, guild, lang));
            return text;
        }
        let after = g.game.position_at(ply);
        if after.in_check() {
            text.push_str(&t!(lang, "play-check"));
        }
        let next = after.side_to_move();
        let to_move = g.player(next);
        let name = self.shown_name(to_move, guild);
        let side = refusal::side(lang, g.variant(), next);
        match deadline.filter(|_| !self.is_computer(to_move)) {
            Some(d) => text.push_str(&t!(
                lang,
                "play-to-move-by",
                name = name,
                side = side,
                time = format_time(d)
            )),
            // The computer has no clock: it answers within seconds.
            None => text.push_str(&t!(lang, "play-to-move", name = name, side = side)),
        }
        text
    }

    /// "alice (black) wins by checkmate." / "Draw by repetition." (`alice（先手）の勝ち（詰み）。`),
    /// naming the players as texts shown in `guild` do, in `lang`.
    pub(crate) fn outcome_sentence(
        &self,
        g: &Loaded,
        o: Outcome,
        guild: Option<&str>,
        lang: Lang,
    ) -> String {
        let v = g.variant();
        let result = words::result(lang, o, |c| {
            t!(
                lang,
                "play-player-side",
                name = self.shown_name(g.player(c), guild),
                side = refusal::side(lang, v, c)
            )
        });
        t!(
            lang,
            "play-outcome",
            result = super::views::capital(o, &result)
        )
    }

    /// Refuses an act in a game whose player to move is past their deadline: the game is then
    /// lost on time by that player (finished here, whether or not a sweep has run yet), whoever
    /// acts (`user`): a move or declaration of theirs, or either player's offer, acceptance or
    /// refusal of a draw, takeback or impasse. The computer has no clock: a game where it is to
    /// move is never lost on time (its move may come late: a restart, a queue, a search tried
    /// again).
    pub(crate) fn check_in_time(&self, g: &Loaded, user: &User) -> Result<(), CoreError> {
        let late_side = g.game.position().side_to_move();
        let late = g.player(late_side).to_string();
        if self.is_computer(&late) {
            return Ok(());
        }
        if let Some(deadline) = g.row.deadline.filter(|&d| d <= self.now()) {
            // Too late: the game is lost on time, whether or not a sweep has run yet.
            let o = Outcome::Win {
                winner: !late_side,
                reason: crate::engine::Reason::Timeout,
            };
            let ending = ending_of(o);
            let guild = g.row.guild.as_deref();
            // Both players are told, in the game's channel (or as they asked), like any end.
            let notify: Vec<Notice> = [g.player(!late_side), g.player(late_side)]
                .into_iter()
                .filter_map(|p| {
                    self.notice_about(
                        Some(g.row.id),
                        p,
                        g.row.channel.as_ref(),
                        guild,
                        |names, voice| {
                            t!(
                                voice.lang,
                                "play-notice-time-ran-out",
                                id = g.row.id,
                                name = self.shown_name(&late, names),
                                time = voice.time(deadline),
                                outcome = self.outcome_sentence(g, o, names, voice.lang)
                            )
                        },
                    )
                })
                .collect();
            let row = self.end_game(&g.row, &ending, &to_store(&notify), self.now())?;
            let said = if late == user.id {
                msg!(
                    "play-time-ran-out",
                    id = g.row.id,
                    time = user.voice.time(deadline)
                )
            } else {
                // The opponent acted (accepting an offer, say): the player to move lost.
                msg!(
                    "play-their-time-ran-out",
                    id = g.row.id,
                    name = self.shown_name(&late, guild),
                    time = user.voice.time(deadline),
                    outcome = self.outcome_sentence(g, o, guild, user.voice.lang)
                )
            };
            return Err(CoreError::Ended(
                said,
                GameRef {
                    id: row.id,
                    ply: row.ply,
                    started: false,
                    over: true,
                },
                notify,
            ));
        }
        Ok(())
    }

    /// Shogi's entering-king declaration by the player to move: the game ends with their win if
    /// it holds; otherwise it is refused with the condition that failed, and nothing changes.
    #[instrument(skip_all, fields(user = %user.id, game))]
    pub(crate) fn declare(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
    ) -> Result<Reply, CoreError> {
        let mut g = self.pick_game(user, place, game)?;
        tracing::Span::current().record("game", g.row.id);
        let side = self.my_side(&g, user)?;
        if g.game.position().side_to_move() != side {
            return user_err(msg!("play-declare-not-your-turn", id = g.row.id));
        }
        self.check_in_time(&g, user)?;
        let lang = user.voice.lang;
        let o = g.game.declare().map_err(|e| {
            CoreError::User(msg!(
                "play-declare-refused",
                id = g.row.id,
                why = refusal::declaration(lang, &e)
            ))
        })?;
        let (pieces, points) = crate::engine::declaration::count(g.game.position(), side);
        let ending = ending_of(o);
        let opponent = g.player(!side).to_string();
        let guild = g.row.guild.clone();
        let guild = guild.as_deref();
        let notify: Vec<Notice> = self
            .notice_about(
                Some(g.row.id),
                &opponent,
                g.row.channel.as_ref(),
                guild,
                |names, voice| {
                    t!(
                        voice.lang,
                        "play-notice-declared",
                        name = self.shown_name(&user.id, names),
                        id = g.row.id
                    )
                },
            )
            .into_iter()
            .collect();
        let row = self.end_game(&g.row, &ending, &to_store(&notify), self.now())?;
        let g = Loaded { row, game: g.game };
        let sentence = self.outcome_sentence(&g, o, guild, lang);
        let mut text = t!(
            lang,
            "play-declares",
            id = g.row.id,
            name = self.shown_name(&user.id, guild),
            pieces = pieces,
            points = points,
            outcome = sentence
        );
        let attachments =
            self.picture_after_commit(&g, g.game.moves().len(), &opponent, &mut text, user.voice);
        Ok(Reply {
            game: Some(g.game_ref(false)),
            text,
            attachments,
            notify,
            ..Reply::default()
        })
    }

    pub(crate) fn resign(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
    ) -> Result<Reply, CoreError> {
        let g = self.pick_game(user, place, game)?;
        let side = self.my_side(&g, user)?;
        let o = Outcome::Win {
            winner: !side,
            reason: crate::engine::Reason::Resignation,
        };
        let ending = ending_of(o);
        let opponent = g.player(!side).to_string();
        let guild = g.row.guild.clone();
        let guild = guild.as_deref();
        let notify: Vec<Notice> = self
            .notice_about(
                Some(g.row.id),
                &opponent,
                g.row.channel.as_ref(),
                guild,
                |names, voice| {
                    t!(
                        voice.lang,
                        "play-notice-resigned",
                        name = self.shown_name(&user.id, names),
                        id = g.row.id
                    )
                },
            )
            .into_iter()
            .collect();
        let row = self.end_game(&g.row, &ending, &to_store(&notify), self.now())?;
        let g = Loaded { row, game: g.game };
        let lang = user.voice.lang;
        let sentence = self.outcome_sentence(&g, o, guild, lang);
        let mut text = t!(
            lang,
            "play-resigns",
            id = g.row.id,
            name = self.shown_name(&user.id, guild),
            outcome = sentence
        );
        let attachments =
            self.picture_after_commit(&g, g.game.moves().len(), &opponent, &mut text, user.voice);
        Ok(Reply {
            game: Some(g.game_ref(false)),
            text,
            attachments,
            notify,
            ..Reply::default()
        })
    }

    /// Draw offers, takeback requests and impasse proposals: offer, accept, decline.
    pub(crate) fn offer(
        &self,
        user: &User,
        place: &Place,
        game: Option<i64>,
        kind: OfferKind,
        action: OfferAction,
    ) -> Result<Reply, CoreError> {
        let g = self.pick_game(user, place, game)?;
        let side = self.my_side(&g, user)?;
        self.refuse_offer_to_computer(&g, user)?;
        // Past the deadline of the player to move, the game is lost on time: an offer, an
        // acceptance (a draw, a takeback, an impasse) or a refusal cannot undo that.
        self.check_in_time(&g, user)?;
        let id = g.row.id;
        let guild = g.row.guild.as_deref();
        let opponent = g.player(!side).to_string();
        let pending = self.store.offer(id, kind)?.filter(|o| o.ply == g.row.ply);
        let theirs = pending.as_ref().is_some_and(|o| o.from_user != user.id);
        let action = match action {
            // Offering what the opponent already offers is agreeing to it.
            OfferAction::Auto | OfferAction::Offer if theirs => OfferAction::Accept,
            OfferAction::Auto => OfferAction::Offer,
            a => a,
        };
        let lang = user.voice.lang;
        // What is offered, and the verb of offering it (message ids).
        let (what, verb) = match kind {
            OfferKind::Draw => ("play-what-draw", "play-verb-draw"),
            OfferKind::Takeback => ("play-what-takeback", "play-verb-takeback"),
            OfferKind::Impasse => ("play-what-impasse", "play-verb-impasse"),
        };
        match action {
            OfferAction::Offer | OfferAction::Auto => {
                if pending.as_ref().is_some_and(|o| o.from_user == user.id) {
                    return user_err(msg!(
                        "play-already-offered",
                        what = Msg::new(what),
                        id = id,
                        name = self.shown_name(&opponent, guild)
                    ));
                }
                let detail = self.check_offer(&g, side, kind, lang)?;
                let notify: Vec<Notice> = self
                    .notice_about(
                        Some(id),
                        &opponent,
                        g.row.channel.as_ref(),
                        guild,
                        |names, voice| {
                            t!(
                                voice.lang,
                                "play-notice-offer",
                                name = self.shown_name(&user.id, names),
                                verb = t!(voice.lang, verb),
                                id = id
                            )
                        },
                    )
                    .into_iter()
                    .collect();
                self.store.put_offer(
                    id,
                    g.row.version,
                    &OfferRow {
                        game_id: id,
                        kind,
                        from_user: user.id.to_string(),
                        ply: g.row.ply,
                        created_at: self.now(),
                    },
                    &to_store(&notify),
                )?;
                let word = kind.as_str();
                Ok(Reply {
                    game: Some(g.game_ref(false)),
                    text: t!(
                        lang,
                        "play-offered",
                        id = id,
                        name = self.shown_name(&user.id, guild),
                        verb = t!(lang, verb),
                        detail = detail,
                        opponent = self.shown_name(&opponent, guild),
                        word = word
                    ),
                    buttons: vec![
                        Button {
                            label: t!(lang, "play-button-accept"),
                            command: format!("{word} {id} accept"),
                        },
                        Button {
                            label: t!(lang, "play-button-decline"),
                            command: format!("{word} {id} decline"),
                        },
                    ],
                    notify,
                    ..Reply::default()
                })
            }
            OfferAction::Decline => {
                if !theirs {
                    return user_err(msg!(
                        "play-no-offer-to-decline",
                        what = Msg::new(what),
                        id = id
                    ));
                }
                let notify: Vec<Notice> = self
                    .notice_about(
                        Some(id),
                        &opponent,
                        g.row.channel.as_ref(),
                        guild,
                        |names, voice| {
                            t!(
                                voice.lang,
                                "play-notice-offer-declined",
                                name = self.shown_name(&user.id, names),
                                what = t!(voice.lang, what),
                                id = id
                            )
                        },
                    )
                    .into_iter()
                    .collect();
                self.store
                    .remove_offer(id, kind, &to_store(&notify), self.now())?;
                Ok(Reply {
                    game: Some(g.game_ref(false)),
                    text: t!(
                        lang,
                        "play-offer-declined",
                        id = id,
                        name = self.shown_name(&user.id, guild),
                        what = t!(lang, what)
                    ),
                    notify,
                    ..Reply::default()
                })
            }
            OfferAction::Accept => {
                if !theirs {
                    return user_err(msg!(
                        "play-no-offer-to-accept",
                        what = Msg::new(what),
                        id = id
                    ));
                }
                self.accept_offer(g, side, kind, user, &opponent)
            }
        }
    }

    /// Whether an offer may be made now; some detail for the message (in `lang`).
    fn check_offer(
        &self,
        g: &Loaded,
        side: Color,
        kind: OfferKind,
        lang: Lang,
    ) -> Result<String, CoreError> {
        let pos = g.game.position();
        match kind {
            OfferKind::Draw => Ok(String::new()),
            OfferKind::Takeback => {
                let mine = self.takeback_plies(g, side);
                if mine == 0 {
                    return user_err(msg!("play-no-takeback"));
                }
                Ok(t!(lang, "play-detail-takeback", count = mine as i64))
            }
            OfferKind::Impasse => {
                let v = pos.variant();
                let Some(rule) = v.spec.end.impasse else {
                    return user_err(msg!(
                        "play-no-impasse-rule",
                        game = refusal::variant_msg(v.id())
                    ));
                };
                if pos.side_to_move() != side {
                    return user_err(msg!("play-impasse-side-to-move"));
                }
                if !impasse::eligible(pos) {
                    return user_err(msg!("play-impasse-kings"));
                }
                Ok(t!(
                    lang,
                    "play-detail-impasse",
                    black = refusal::side(lang, v, Color::Black),
                    black_points = impasse::points(pos, Color::Black) as i64,
                    white = refusal::side(lang, v, Color::White),
                    white_points = impasse::points(pos, Color::White) as i64,
                    needed = rule.threshold as i64
                ))
            }
        }
    }

    /// How many plies a takeback by `side` undoes: their last move, and the reply to it if any.
    fn takeback_plies(&self, g: &Loaded, side: Color) -> usize {
        let n = g.game.moves().len();
        let start_side = g.game.start().side_to_move();
        // Plies played by `side`: the i-th ply (0-based) was played by start_side if i is even.
        let mut k = 0;
        for i in (0..n).rev() {
            k += 1;
            let mover = if i % 2 == 0 { start_side } else { !start_side };
            if mover == side {
                return k;
            }
        }
        0
    }

    fn accept_offer(
        &self,
        g: Loaded,
        side: Color,
        kind: OfferKind,
        user: &User,
        opponent: &str,
    ) -> Result<Reply, CoreError> {
        let id = g.row.id;
        let now = self.now();
        let lang = user.voice.lang;
        let guild = g.row.guild.clone();
        let guild = guild.as_deref();
        match kind {
            OfferKind::Draw | OfferKind::Impasse => {
                let o = if kind == OfferKind::Draw {
                    Outcome::Draw {
                        reason: crate::engine::Reason::Agreement,
                    }
                } else {
                    impasse::result(g.game.position())
                        .ok_or_else(|| CoreError::User(msg!("play-no-impasse-here")))?
                };
                let ending = ending_of(o);
                let sentence = self.outcome_sentence(&g, o, guild, lang);
                let notify: Vec<Notice> = self
                    .notice_about(
                        Some(id),
                        opponent,
                        g.row.channel.as_ref(),
                        guild,
                        |names, voice| {
                            t!(
                                voice.lang,
                                "play-notice-offer-accepted",
                                name = self.shown_name(&user.id, names),
                                id = id,
                                outcome = self.outcome_sentence(&g, o, names, voice.lang)
                            )
                        },
                    )
                    .into_iter()
                    .collect();
                let row = self.end_game(&g.row, &ending, &to_store(&notify), now)?;
                let g = Loaded { row, game: g.game };
                let mut text = t!(
                    lang,
                    "play-accepts",
                    id = id,
                    name = self.shown_name(&user.id, guild),
                    outcome = sentence
                );
                let attachments = self.picture_after_commit(
                    &g,
                    g.game.moves().len(),
                    &user.id,
                    &mut text,
                    user.voice,
                );
                Ok(Reply {
                    game: Some(g.game_ref(false)),
                    text,
                    attachments,
                    notify,
                    ..Reply::default()
                })
            }
            OfferKind::Takeback => {
                let n = self.takeback_plies(&g, !side);
                let mut game = g.game;
                game.take_back(n);
                let keep = game.moves().len() as u32;
                let mover = g.row.players[game.position().side_to_move().index()].clone();
                let turn = self.next_turn(&g.row, &mover, false)?;
                let notify: Vec<Notice> = self
                    .notice_about(
                        Some(id),
                        opponent,
                        g.row.channel.as_ref(),
                        guild,
                        |names, voice| {
                            t!(
                                voice.lang,
                                "play-notice-takeback-accepted",
                                name = self.shown_name(&user.id, names),
                                id = id
                            )
                        },
                    )
                    .into_iter()
                    .collect();
                let row = self.store.take_back(
                    id,
                    g.row.version,
                    keep,
                    &fen::write(game.position()),
                    &turn,
                    &to_store(&notify),
                    now,
                )?;
                let g = Loaded { row, game };
                let mover = g.to_move().to_string();
                let mut text = t!(
                    lang,
                    "play-takeback-accepted",
                    id = id,
                    name = self.shown_name(&user.id, guild),
                    count = n as i64,
                    mover = self.shown_name(&mover, guild)
                );
                let attachments = self.picture_after_commit(
                    &g,
                    g.game.moves().len(),
                    &mover,
                    &mut text,
                    user.voice,
                );
                Ok(Reply {
                    game: Some(g.game_ref(false)),
                    text,
                    attachments,
                    buttons: game_buttons(id, lang),
                    notify,
                    ..Reply::default()
                })
            }
        }
    }
}

/// Notices with their placeholders (`{game}`, `{challenge}`) replaced, as the store did.
fn filled(notices: Vec<Notice>, subst: &[(&str, i64)]) -> Vec<Notice> {
    notices
        .into_iter()
        .map(|n| Notice {
            text: crate::store::fill(&n.text, subst),
            ..n
        })
        .collect()
}

/// A refusal already put into its reader's words (the engine's reasons, see `i18n::refusal`).
fn said(text: String) -> CoreError {
    CoreError::User(msg!("play-said", text = text))
}

/// The buttons under a board: what a player most often does next, labelled in `lang`.
pub fn game_buttons(id: i64, lang: Lang) -> Vec<Button> {
    vec![
        // The move picker, for the player to move (see `service::picker`).
        Button {
            label: t!(lang, "play-button-move"),
            command: format!("pick {id}"),
        },
        Button {
            label: t!(lang, "play-button-moves"),
            command: format!("moves {id}"),
        },
        Button {
            label: t!(lang, "play-button-draw"),
            command: format!("draw {id} offer"),
        },
        Button {
            label: t!(lang, "play-button-resign"),
            command: format!("resign {id}"),
        },
    ]
}
