//! Conditional moves (issue 23): on their opponent's turn a player leaves lines "if you play X,
//! I play Y, and if then Z, I play W …" (`conditional add 12 "3c3d 2g2f 8c8d 2f2e"`), in any
//! notation they write. Every move of a line is checked in sequence when it is added; a refusal
//! says which move and why.
//!
//! **How a line lives.** A line is stored with the ply and the position it starts from, its
//! moves as codes. After every move of its game, [`Service::conditional_step`] brings the lines
//! up to date from the moves played since (a pure function of the lines and the game's record,
//! so doing it twice, or in two processes, changes nothing): a line whose moves were played
//! advances, a line the game left (another move, a takeback, a position that is not the one it
//! started from) is dropped. A line whose next move is its player's is due: that move is played
//! at once, as if its player had sent it (stored, announced with the board, the announcement
//! saying it was a conditional move), and the lines move on again.
//!
//! **Exactly once.** The answer is an ordinary move, stored with the game's version check: two
//! processes finding it due together store it once (the slower finds the game moved on). A crash
//! between the opponent's move and the answer leaves the line due; the sweep
//! (`conditional_games`) finds it and plays it.
//!
//! **What a line never does.** It never plays into an ending its player did not foresee: when the
//! answer would end the game other than by its player's win (a repetition that loses or draws,
//! an impasse), or when its player could declare the entering king instead, the line stops, its
//! player is told, and the move is theirs to make.
//!
//! Decisions where the issue is silent: two lines may share a start and differ at an opponent's
//! move (branches), but not answer the same move differently (refused, naming the line to clear);
//! at most [`MAX_LINES`] lines per player and game, [`MAX_LINE_MOVES`] moves a line; a line is
//! added only on the opponent's turn; lines of a finished game are deleted.

use tracing::{info, warn};

use super::*;
use crate::engine::notation::{code, input, written};
use crate::engine::{Outcome, Position};
use crate::i18n::refusal;
use crate::store::{ConditionalRow, Limit, NewConditional};
use crate::{msg, t};

use super::command::ConditionalCommand;

/// The test switch `TEGAMI_FAULT_CONDITIONAL_PAUSE`: when set, a due answer waits a minute
/// before it is played (saying `conditional answer paused` on stderr), so that a test can kill
/// the process between a move and its answer.
pub const FAULT_CONDITIONAL_PAUSE: &str = "TEGAMI_FAULT_CONDITIONAL_PAUSE";

/// The most lines a player keeps in one game.
pub const MAX_LINES: usize = 20;
/// The most moves in one line (both players' together).
pub const MAX_LINE_MOVES: usize = 20;

/// What one round of [`Service::conditional_steps`] did.
pub(crate) enum Stepped {
    /// A line's answer was played.
    Answer(Answer),
    /// Notices only: a line stopped (its player told), or nothing (the game moved on).
    Notices(Vec<Notice>),
}

/// An answer a conditional line played.
pub(crate) struct Answer {
    /// The ply of the answer.
    pub ply: u32,
    /// Its move's notices (to the opponent: their move now, or how the game ended).
    pub notify: Vec<Notice>,
    /// Its public announcement, with the board after it.
    pub post: Option<Notice>,
    /// What the game's end set off in its league, if it ended.
    pub league: Vec<Notice>,
}

impl Stepped {
    /// Every notice of the round, in the order they were made.
    pub(crate) fn into_notices(self) -> Vec<Notice> {
        match self {
            Stepped::Answer(a) => {
                let mut out = a.notify;
                out.extend(a.post);
                out.extend(a.league);
                out
            }
            Stepped::Notices(n) => n,
        }
    }
}

/// Why a due answer is not played.
#[derive(Clone, Copy, Debug)]
enum Stop {
    /// Not a legal move here (a line stored before a rule change, say).
    Illegal,
    /// Its player may declare the entering king instead.
    Declare,
    /// It would end the game other than by its player's win.
    End(Outcome),
}

/// A line brought up to date with the game: kept as it is, moved on, or dropped.
#[derive(Debug, PartialEq, Eq)]
enum Fate {
    Keep,
    Advance(NewConditional),
    Drop,
}

/// Where `line` stands in a game whose record is `codes` (every move's code, in order) and
/// whose positions after each ply are `positions` (`positions[0]` the start).
fn fate(line: &ConditionalRow, codes: &[String], positions: &[String]) -> Fate {
    let (from, now) = (line.ply as usize, codes.len());
    if from > now || positions.get(from) != Some(&line.position) {
        return Fate::Drop;
    }
    let played = &codes[from..];
    if played.is_empty() {
        return Fate::Keep;
    }
    if played.len() >= line.moves.len() || !line.moves.starts_with(played) {
        return Fate::Drop;
    }
    Fate::Advance(NewConditional {
        game: line.game,
        user: line.user.clone(),
        ply: now as u32,
        position: positions[now].clone(),
        moves: line.moves[played.len()..].to_vec(),
    })
}

/// The words of a line: whitespace-separated moves, a Japanese `同` joined to the piece after it
/// (`同　歩` is one move).
fn line_words(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in line.split_whitespace() {
        match out.last_mut() {
            Some(prev) if prev.trim_start_matches(['▲', '△', '☗', '☖']) == "同" => {
                prev.push('　');
                prev.push_str(w);
            }
            _ => out.push(w.to_string()),
        }
    }
    out
}

impl Service {
    pub(crate) fn conditional(
        &self,
        u: &User,
        place: &Place,
        c: &ConditionalCommand,
    ) -> Result<Reply, CoreError> {
        match c {
            ConditionalCommand::Add { game, line } => self.conditional_add(u, place, *game, line),
            ConditionalCommand::List { game } => self.conditional_list(u, place, *game),
            ConditionalCommand::Clear { game } => {
                let g = self.pick_game(u, place, *game)?;
                g.side_of(&u.id)
                    .ok_or_else(|| CoreError::User(msg!("core-not-your-game", id = g.row.id)))?;
                let n = self.store.clear_conditionals(g.row.id, &u.id)?;
                Ok(Reply::text(t!(
                    u.voice.lang,
                    "conditional-cleared",
                    id = g.row.id,
                    count = n as i64
                )))
            }
        }
    }

    /// The codes of a game's moves and its positions after each ply.
    fn record_of(g: &Loaded) -> (Vec<String>, Vec<String>) {
        let v = g.variant();
        let mut replay = Game::new(g.game.start().clone());
        let mut positions = vec![fen::write(replay.position())];
        let mut codes = Vec::new();
        for &m in g.game.moves() {
            codes.push(code::write(v, m));
            // The record was played once: it plays again.
            if replay.play(m).is_err() {
                break;
            }
            positions.push(fen::write(replay.position()));
        }
        (codes, positions)
    }

    /// A line's moves written in `voice`'s notation, from `pos`.
    fn line_text(&self, pos: &Position, moves: &[String], voice: Voice) -> String {
        let mut game = Game::new(pos.clone());
        let mut out = Vec::new();
        for c in moves {
            let here = game.position().clone();
            let Some(m) = code::parse(&here, c) else {
                out.push(c.clone());
                break;
            };
            let last = game.moves().last().map(|m| m.to());
            out.push(written(&here, m, voice.notation, last));
            if game.play(m).is_err() {
                break;
            }
        }
        out.join(" ")
    }

    fn conditional_add(
        &self,
        u: &User,
        place: &Place,
        game: Option<i64>,
        line: &str,
    ) -> Result<Reply, CoreError> {
        let voice = u.voice;
        let lang = voice.lang;
        let g = self.pick_game(u, place, game)?;
        let side = self.my_side(&g, u)?;
        let id = g.row.id;
        if g.game.position().side_to_move() == side {
            return user_err(msg!("conditional-your-turn", id = id));
        }
        let words = line_words(line);
        if words.is_empty() {
            return user_err(super::catalog::usage_msg("conditional"));
        }
        if words.len() > MAX_LINE_MOVES {
            return user_err(msg!("conditional-too-long", max = MAX_LINE_MOVES as i64));
        }
        let v = g.variant();
        let mut play = g.game.clone();
        let mut codes = Vec::new();
        for (i, w) in words.iter().enumerate() {
            let pos = play.position().clone();
            let last = play.moves().last().map(|m| m.to());
            let n = i as i64 + 1;
            if play.outcome().is_some() {
                return user_err(msg!("conditional-after-end", n = n, text = w.as_str()));
            }
            let m = input::parse_move_after(&pos, w, last).map_err(|e| {
                CoreError::User(msg!(
                    "conditional-bad-move",
                    n = n,
                    text = w.as_str(),
                    // With a hint drawn from the moves legal at that point of the line.
                    why = super::learn::refusal_with_hint(lang, &e, &pos, w, voice.notation, last)
                ))
            })?;
            play.play(m).map_err(|e| {
                CoreError::User(msg!(
                    "conditional-bad-move",
                    n = n,
                    text = w.as_str(),
                    why = refusal::illegal(lang, &e, v)
                ))
            })?;
            codes.push(code::write(v, m));
        }
        let position = fen::write(g.game.position());
        // Branches part at the opponent's moves (even places); at the player's own (odd), two
        // lines that agree so far must agree. The store checks that and the number of lines
        // in the transaction that adds the line, so two lines sent at once are checked one
        // after the other.
        let added = self.store.add_conditional(
            &NewConditional {
                game: id,
                user: u.id.to_string(),
                ply: g.row.ply,
                position,
                moves: codes.clone(),
            },
            MAX_LINES,
            self.now(),
        );
        match added {
            Ok(_) => {}
            Err(StoreError::Limit(Limit::ConditionalConflict { line })) => {
                return user_err(msg!(
                    "conditional-conflict",
                    id = id,
                    line = self.line_text(g.game.position(), &line, voice)
                ))
            }
            Err(StoreError::Limit(Limit::ConditionalLines { .. })) => {
                return user_err(msg!("conditional-too-many", max = MAX_LINES as i64))
            }
            Err(e) => return Err(e.into()),
        }
        let count = self
            .store
            .conditionals(id)?
            .iter()
            .filter(|l| l.user == u.id.as_str() && l.ply == g.row.ply)
            .count();
        info!(game = id, moves = codes.len(), "conditional line added");
        Ok(Reply::text(t!(
            lang,
            "conditional-saved",
            id = id,
            line = self.line_text(g.game.position(), &codes, voice),
            count = count as i64
        )))
    }

    fn conditional_list(
        &self,
        u: &User,
        place: &Place,
        game: Option<i64>,
    ) -> Result<Reply, CoreError> {
        let voice = u.voice;
        let g = self.pick_game(u, place, game)?;
        g.side_of(&u.id)
            .ok_or_else(|| CoreError::User(msg!("core-not-your-game", id = g.row.id)))?;
        let position = fen::write(g.game.position());
        let lines: Vec<ConditionalRow> = self
            .store
            .conditionals(g.row.id)?
            .into_iter()
            .filter(|l| l.user == u.id.as_str() && l.ply == g.row.ply && l.position == position)
            .collect();
        if lines.is_empty() {
            return Ok(Reply::text(t!(
                voice.lang,
                "conditional-none",
                id = g.row.id
            )));
        }
        let mut text = t!(voice.lang, "conditional-list-head", id = g.row.id);
        for (i, l) in lines.iter().enumerate() {
            text.push('\n');
            text.push_str(&t!(
                voice.lang,
                "conditional-list-line",
                n = i as i64 + 1,
                line = self.line_text(g.game.position(), &l.moves, voice)
            ));
        }
        Ok(Reply::text(text))
    }

    /// Brings a game's lines up to date and plays what is due (module header). The notices of
    /// what it played or stopped, held for the caller's transport. Best effort: a failure is
    /// logged, and the sweep tries again.
    pub(crate) fn conditional_step(&self, game: i64) -> Vec<Notice> {
        self.conditional_steps(game)
            .into_iter()
            .flat_map(Stepped::into_notices)
            .collect()
    }

    /// `conditional_step`, telling the answers played apart from the other notices, so that
    /// the reply to the move that set them off can say what happened (see
    /// [`Service::announce_answers`]).
    pub(crate) fn conditional_steps(&self, game: i64) -> Vec<Stepped> {
        let mut out = Vec::new();
        // Each round plays at most one answer, then looks again (a race with another process
        // reads the game again); a round with nothing to do ends the loop. Lines are added on
        // the opponent's turn only, so one player's answer does not find the other's line due
        // but when a line stopped short gave its player the move: a bound, not a cycle.
        for _ in 0..MAX_LINE_MOVES + 2 {
            match self.conditional_round(game) {
                Ok(Some(step)) => out.push(step),
                Ok(None) => break,
                Err(e) => {
                    warn!(
                        game,
                        "conditional lines not played (the sweep tries again): {e}"
                    );
                    break;
                }
            }
        }
        out
    }

    /// After a player's move that conditional lines answered at once: their reply says what
    /// happened (their move, the answers, who is to move now, with the board as it stands), and
    /// the notices of turns already over are withdrawn (marked sent: nobody is pinged for a
    /// move that was made for them). Each answer keeps its own public announcement and the
    /// last move's notice (the player to move now is told, or how the game ended). Without an
    /// answer, the steps' notices are simply added to the reply.
    pub(crate) fn announce_answers(&self, sender: &User, r: &mut Reply, steps: Vec<Stepped>) {
        let answered = steps.iter().any(|s| matches!(s, Stepped::Answer(_)));
        let Some(moved) = r.game.as_ref().map(|g| (g.id, g.ply)).filter(|_| answered) else {
            r.notify
                .extend(steps.into_iter().flat_map(Stepped::into_notices));
            return;
        };
        let (game, ply) = moved;
        let last = steps
            .iter()
            .rposition(|s| matches!(s, Stepped::Answer(_)))
            .unwrap_or(0);
        // The sender's move told the opponent it was their move: an answer made it for them.
        let mut over: Vec<Notice> = std::mem::take(&mut r.notify);
        let mut plies = Vec::new();
        for (i, step) in steps.into_iter().enumerate() {
            match step {
                Stepped::Answer(a) => {
                    plies.push(a.ply as usize);
                    if i == last {
                        r.notify.extend(a.notify);
                    } else {
                        over.extend(a.notify);
                    }
                    r.notify.extend(a.post);
                    r.notify.extend(a.league);
                }
                Stepped::Notices(n) => r.notify.extend(n),
            }
        }
        let ids: Vec<i64> = over.iter().filter_map(|n| n.id).collect();
        if let Err(e) = self.mark_sent(&ids) {
            warn!(
                game,
                "the notices of turns an answer ended stay queued: {e}"
            );
        }
        let g = match self.load(game) {
            Ok(g) => g,
            Err(e) => {
                warn!(game, "the reply cannot say the conditional answer: {e}");
                return;
            }
        };
        let now = g.game.moves().len();
        let said = |voice: Voice| {
            let mut text = self.move_head(&g, ply as usize, &sender.id, false, voice);
            for &p in &plies {
                text.push_str(&self.answer_words(&g, p, voice));
            }
            text.push_str(&self.turn_tail(&g, now, g.row.deadline, voice));
            text
        };
        let voice = sender.voice;
        let mut text = said(voice);
        let viewer = if g.row.status == GameStatus::Active {
            g.to_move().to_string()
        } else {
            sender.id.to_string()
        };
        // The move's stored announcement says the same (in the server's voice, with the board
        // after the answers): posted late by the delivery loop, it must not say the turn the
        // answers ended.
        if let Some(post) = r.post.as_mut() {
            let public = self.public_voice(g.row.guild.as_deref());
            let post_text = if public == voice {
                text.clone()
            } else {
                said(public)
            };
            let rewritten = match post.id {
                Some(id) => self
                    .store
                    .rewrite_post(id, &viewer, &post_text, now as u32)
                    .map_err(|e| e.to_string()),
                None => Ok(true),
            };
            match rewritten {
                Ok(_) => {
                    post.text = post_text;
                    post.ply = Some(now as u32);
                    post.user = viewer.clone();
                }
                Err(e) => warn!(
                    game,
                    "the stored announcement keeps its words before the answer: {e}"
                ),
            }
        }
        r.attachments = self.picture_after_commit(&g, now, &viewer, &mut text, voice);
        r.text = text;
        r.game = Some(g.game_ref(false));
        if g.row.status != GameStatus::Active {
            r.buttons.clear();
        }
    }

    /// One round of `conditional_step`: `None` when nothing more is to be done.
    fn conditional_round(&self, game: i64) -> Result<Option<Stepped>, CoreError> {
        let lines = self.store.conditionals(game)?;
        if lines.is_empty() {
            return Ok(None);
        }
        let g = self.load(game)?;
        if g.row.status != GameStatus::Active {
            let old: Vec<i64> = lines.iter().map(|l| l.id).collect();
            self.store.rewrite_conditionals(&old, &[], self.now())?;
            return Ok(None);
        }
        let (codes, positions) = Self::record_of(&g);
        let mut old = Vec::new();
        let mut new = Vec::new();
        // The lines as they stand now: (user, moves) of those at the game's ply.
        let mut current: Vec<(i64, String, Vec<String>)> = Vec::new();
        for l in &lines {
            match fate(l, &codes, &positions) {
                Fate::Keep => current.push((l.id, l.user.clone(), l.moves.clone())),
                Fate::Advance(n) => {
                    old.push(l.id);
                    current.push((0, n.user.clone(), n.moves.clone()));
                    new.push(n);
                }
                Fate::Drop => old.push(l.id),
            }
        }
        // Due: the first line of the player to move (they all agree on the answer: a line
        // that does not is dropped).
        let to_move = g.row.to_move.clone().unwrap_or_default();
        let answer = current
            .iter()
            .find(|(_, user, _)| *user == to_move)
            .map(|(_, _, m)| m[0].clone());
        if let Some(a) = &answer {
            for (id, user, moves) in &current {
                if *user == to_move && &moves[0] != a {
                    if *id != 0 {
                        old.push(*id);
                    }
                    new.retain(|n| !(n.user == *user && n.moves == *moves));
                }
            }
        }
        if !old.is_empty() || !new.is_empty() {
            self.store.rewrite_conditionals(&old, &new, self.now())?;
        }
        let Some(answer) = answer else {
            return Ok(None);
        };
        // What the answer would do: stop where its player did not foresee the ending.
        let pos = g.game.position().clone();
        let side = pos.side_to_move();
        let stop = match code::parse(&pos, &answer) {
            None => Some(Stop::Illegal),
            Some(_) if crate::engine::declaration::declare(&pos).is_ok() => Some(Stop::Declare),
            Some(m) => {
                let mut after = g.game.clone();
                match after.play(m) {
                    Err(_) => Some(Stop::Illegal),
                    Ok(_) => match after.outcome() {
                        Some(Outcome::Win { winner, .. }) if winner == side => None,
                        Some(o) => Some(Stop::End(o)),
                        None => None,
                    },
                }
            }
        };
        let guild = g.row.guild.clone();
        let owner = User {
            voice: self.voice_of(&to_move),
            ..User::new(to_move.clone(), self.raw_name(&to_move, None))
        };
        if let Some(why) = stop {
            // The player's lines that would play it go; the move is theirs to make.
            let gone: Vec<i64> = self
                .store
                .conditionals(game)?
                .into_iter()
                .filter(|l| l.user == to_move && l.ply == g.row.ply && l.moves[0] == answer)
                .map(|l| l.id)
                .collect();
            self.store.rewrite_conditionals(&gone, &[], self.now())?;
            let shown = code::parse(&pos, &answer)
                .map(|m| {
                    written(
                        &pos,
                        m,
                        owner.voice.notation,
                        g.game.moves().last().map(|m| m.to()),
                    )
                })
                .unwrap_or(answer.clone());
            info!(game, "a conditional line stopped: {why:?}");
            return Ok(Some(Stepped::Notices(
                self.notice_about(
                    Some(game),
                    &to_move,
                    g.row.channel.as_ref(),
                    guild.as_deref(),
                    |names, voice| {
                        let lang = voice.lang;
                        let why = match why {
                            Stop::Illegal => t!(lang, "conditional-why-illegal"),
                            Stop::Declare => t!(lang, "conditional-why-declare"),
                            Stop::End(o) => t!(
                                lang,
                                "conditional-why-end",
                                outcome = self.outcome_sentence(&g, o, names, lang)
                            ),
                        };
                        t!(
                            lang,
                            "conditional-stopped",
                            id = game,
                            move = shown.as_str(),
                            why = why
                        )
                    },
                )
                .into_iter()
                .collect(),
            )));
        }
        if std::env::var_os(FAULT_CONDITIONAL_PAUSE).is_some() {
            eprintln!("conditional answer paused (game {game})");
            std::thread::sleep(std::time::Duration::from_secs(60));
        }
        let place = Place {
            guild: g.row.guild.clone(),
            channel: g.row.channel.clone(),
            admin: false,
            locale: None,
        };
        match self.play_move_as(&owner, &place, Some(game), &answer, Some(g.row.ply), true) {
            Ok(r) => {
                info!(game, "a conditional move was played");
                let over = r.game.as_ref().is_some_and(|g| g.over);
                Ok(Some(Stepped::Answer(Answer {
                    ply: r.game.as_ref().map_or(g.row.ply + 1, |g| g.ply),
                    notify: r.notify,
                    post: r.post,
                    league: if over {
                        self.after_league_game(game)
                    } else {
                        Vec::new()
                    },
                })))
            }
            // The game moved on meanwhile (another process played it): read it again.
            Err(CoreError::User(m)) => {
                info!(game, "a conditional move was not played: {m}");
                Ok(Some(Stepped::Notices(Vec::new())))
            }
            Err(e) => Err(e),
        }
    }

    /// The sweep's part: games whose lines are behind or due (a crash between a move and its
    /// answer, a move another process stored). The notices made, for delivery.
    pub(crate) fn sweep_conditionals(&self) -> Result<Vec<Notice>, CoreError> {
        let mut out = Vec::new();
        for game in self.store.conditional_games(200)? {
            out.extend(self.conditional_step(game));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(ply: u32, position: &str, moves: &[&str]) -> ConditionalRow {
        ConditionalRow {
            id: 1,
            game: 7,
            user: "bob".into(),
            ply,
            position: position.into(),
            moves: moves.iter().map(|s| s.to_string()).collect(),
            created_at: 0,
        }
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_line_advances_with_the_moves_it_foresaw_and_drops_otherwise() {
        let positions = strings(&["p0", "p1", "p2", "p3"]);
        let l = line(1, "p1", &["a", "b", "c", "d"]);
        // Nothing played since: kept.
        assert_eq!(fate(&l, &strings(&["x"]), &positions[..2]), Fate::Keep);
        // Its first move played: advanced, the answer next.
        match fate(&l, &strings(&["x", "a"]), &positions[..3]) {
            Fate::Advance(n) => {
                assert_eq!((n.ply, n.position.as_str()), (2, "p2"));
                assert_eq!(n.moves, strings(&["b", "c", "d"]));
            }
            other => panic!("{other:?}"),
        }
        // Another move: dropped.
        assert_eq!(fate(&l, &strings(&["x", "z"]), &positions[..3]), Fate::Drop);
        // Played to its end: used up.
        let short = line(1, "p1", &["a", "b"]);
        assert_eq!(
            fate(&short, &strings(&["x", "a", "b"]), &positions),
            Fate::Drop
        );
        // A takeback below its start, or another position at its ply: dropped.
        assert_eq!(fate(&l, &strings(&[]), &positions[..1]), Fate::Drop);
        let elsewhere = line(1, "q1", &["a", "b"]);
        assert_eq!(
            fate(&elsewhere, &strings(&["x"]), &positions[..2]),
            Fate::Drop
        );
    }

    #[test]
    fn a_japanese_same_square_move_is_one_word() {
        assert_eq!(
            line_words("３四歩 同　歩 ２二角成"),
            ["３四歩", "同　歩", "２二角成"]
        );
        assert_eq!(line_words("  7g7f  3c3d "), ["7g7f", "3c3d"]);
    }
}
