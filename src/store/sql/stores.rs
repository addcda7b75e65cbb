//! Games, challenges and offers, users and servers, the clock's queries and the outbox, and
//! ratings: the store traits of `store/mod.rs`, for any [`Backend`].

use std::collections::HashSet;

use super::rows::*;
use super::{args, Backend, Dialect, Exec, Row, Value};
use crate::store::*;

pub(super) fn get_game(c: &mut dyn Exec, id: i64) -> Result<Option<GameRow>> {
    c.one(
        &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"),
        args![id],
        game_row,
    )
}

fn get_challenge(c: &mut dyn Exec, id: i64) -> Result<Option<ChallengeRow>> {
    c.one(
        &format!("SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = $1"),
        args![id],
        challenge_row,
    )
}

fn get_moves(c: &mut dyn Exec, game: i64) -> Result<Vec<MoveRow>> {
    c.all(
        &format!(
            "SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = $1 AND taken_back = {{false}}
             ORDER BY ply"
        ),
        args![game],
        move_row,
    )
}

fn get_user(c: &mut dyn Exec, id: &str) -> Result<Option<UserRow>> {
    c.one(
        &format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"),
        args![id],
        user_row,
    )
}

/// Takes the user's row for this transaction (PostgreSQL; SQLite lets one writer in at a
/// time): every change checked against a limit of the user's takes it first, so two such
/// changes at once are checked one after the other, the second seeing the first's rows.
/// `NotFound` for an unknown user.
fn lock_user(c: &mut dyn Exec, id: &str) -> Result<()> {
    if c.query("SELECT id FROM users WHERE id = $1 {for update}", args![id])?
        .is_empty()
    {
        return Err(StoreError::NotFound);
    }
    Ok(())
}

/// The id a statement with `RETURNING id` made.
pub(super) fn returned_id(rows: Vec<Row>) -> Result<i64> {
    rows.first()
        .ok_or_else(|| StoreError::Invalid("no id returned".into()))?
        .get(0)
}

/// Inserts a new game; its id.
pub(super) fn insert_game(c: &mut dyn Exec, game: &NewGame, now: i64) -> Result<i64> {
    returned_id(c.query(
        "INSERT INTO games (variant, setup, start_position, first_player, second_player,
            guild, channel, status, rated, days_per_move, deadline, position, ply,
            version, created_at, updated_at, to_move, computer_level, clock, increment_days,
            cap_days, period_days, bank_first, bank_second, turn_span)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $9, $10, $3, 0, 0, $11, $11, $12, $13,
            $14, $15, $16, $17, $18, $19, $20)
         RETURNING id",
        args![
            &game.variant,
            &game.setup,
            &game.start_position,
            &game.players[0],
            &game.players[1],
            &game.guild,
            &game.channel,
            game.rated,
            game.control.days,
            game.deadline,
            now,
            &game.to_move,
            game.computer_level,
            game.control.kind.as_str(),
            game.control.increment,
            game.control.cap,
            game.control.period,
            game.banks[0],
            game.banks[1],
            game.turn_span,
        ],
    )?)
}

/// Queues notices in the outbox, in the caller's transaction, held by `holder` until the
/// database's now + `OUTBOX_LEASE`.
pub(super) fn queue(c: &mut dyn Exec, holder: &str, notices: &[NewNotice], now: i64) -> Result<()> {
    queue_with(c, holder, notices, None, &[], now)
}

/// `queue`, with `game` for the notices that name none, and the placeholders `subst` (such as
/// `{game}`) replaced in their texts by the ids the transaction just made.
pub(super) fn queue_with(
    c: &mut dyn Exec,
    holder: &str,
    notices: &[NewNotice],
    game: Option<i64>,
    subst: &[(&str, i64)],
    now: i64,
) -> Result<()> {
    for n in notices {
        if n.id <= 0 {
            return Err(StoreError::Invalid(format!(
                "notice id {} is not positive",
                n.id
            )));
        }
        c.execute(
            "INSERT INTO outbox (id, user_id, via, channel, text, created_at, game_id,
                claimed_by, claimed_until, ply, league_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, {now} + $9, $10, $11)",
            args![
                n.id,
                &n.user,
                &n.via,
                &n.channel,
                fill(&n.text, subst),
                now,
                n.game.or(game),
                holder,
                OUTBOX_LEASE,
                n.ply,
                n.league,
            ],
        )?;
    }
    Ok(())
}

/// Queues the notices of a new game: about it unless they name another, `{game}` its number.
pub(super) fn queue_about_game(
    c: &mut dyn Exec,
    holder: &str,
    notices: &[NewNotice],
    game: i64,
    now: i64,
) -> Result<()> {
    queue_with(c, holder, notices, Some(game), &[("{game}", game)], now)
}

/// A notice's text with its placeholders (`{game}`, `{challenge}`) replaced.
pub fn fill(text: &str, subst: &[(&str, i64)]) -> String {
    let mut t = text.to_string();
    for (name, value) in subst {
        t = t.replace(name, &value.to_string());
    }
    t
}

/// Moves a game from `version` to `version + 1`; `Conflict` if it is no longer at `version`.
fn bump(c: &mut dyn Exec, game: i64, version: i64, now: i64) -> Result<()> {
    let n = c.execute(
        "UPDATE games SET version = version + 1, updated_at = $3 WHERE id = $1 AND version = $2",
        args![game, version, now],
    )?;
    if n == 1 {
        Ok(())
    } else if get_game(c, game)?.is_none() {
        Err(StoreError::NotFound)
    } else {
        Err(StoreError::Conflict)
    }
}

/// Ends a game in the caller's transaction: status, result, notices, and the ratings the core
/// computed. `Conflict` if it is not active.
pub(super) fn end_game(
    c: &mut dyn Exec,
    holder: &str,
    game: i64,
    f: &Finish,
    now: i64,
) -> Result<()> {
    let n = c.execute(
        "UPDATE games SET status = 'finished', result = $2, reason = $3, finished_at = $4,
            deadline = NULL, to_move = NULL
         WHERE id = $1 AND status = 'active'",
        args![game, f.ending.result.as_str(), &f.ending.reason, now],
    )?;
    if n != 1 {
        return Err(StoreError::Conflict);
    }
    after_end(c, holder, game, f, now)
}

/// Ends a game of the sweep's batch: if it is still at `version` and active, one statement
/// moves it on and ends it (nothing written otherwise: `Conflict`); then its offers, notices
/// and ratings (`Stale` if a rating moved on).
fn end_held(
    c: &mut dyn Exec,
    holder: &str,
    game: i64,
    version: i64,
    f: &Finish,
    now: i64,
) -> Result<()> {
    let n = c.execute(
        "UPDATE games SET version = version + 1, updated_at = $3, status = 'finished',
            result = $4, reason = $5, finished_at = $3, deadline = NULL, to_move = NULL
         WHERE id = $1 AND version = $2 AND status = 'active'",
        args![
            game,
            version,
            now,
            f.ending.result.as_str(),
            &f.ending.reason
        ],
    )?;
    if n != 1 {
        return Err(StoreError::Conflict);
    }
    after_end(c, holder, game, f, now)
}

/// Ends a game that is still active, as found in the caller's transaction (PostgreSQL waits
/// for a change of it in progress and looks again), moving its version on so that whoever
/// acts on a read made before (a takeback, a move) finds it stale. `false`, nothing written,
/// if it is not active (it ended meanwhile: it keeps its result) or gone.
pub(super) fn end_if_active(
    c: &mut dyn Exec,
    holder: &str,
    game: i64,
    f: &Finish,
    now: i64,
) -> Result<bool> {
    let n = c.execute(
        "UPDATE games SET version = version + 1, updated_at = $2, status = 'finished',
            result = $3, reason = $4, finished_at = $2, deadline = NULL, to_move = NULL
         WHERE id = $1 AND status = 'active'",
        args![game, now, f.ending.result.as_str(), &f.ending.reason],
    )?;
    if n != 1 {
        return Ok(false);
    }
    after_end(c, holder, game, f, now)?;
    Ok(true)
}

/// What ending a game writes besides the game: its offers go, its notices are queued, the
/// new ratings written.
fn after_end(c: &mut dyn Exec, holder: &str, game: i64, f: &Finish, now: i64) -> Result<()> {
    c.execute("DELETE FROM offers WHERE game_id = $1", args![game])?;
    queue(c, holder, f.notices, now)?;
    for r in &f.ratings {
        let row = &r.row;
        // `games` is the row's version: written only if still as read (0: no row yet).
        let fields = args![
            &row.user,
            &row.variant,
            &row.guild,
            row.rating,
            row.deviation,
            row.volatility,
            row.games,
            row.wins,
            row.losses,
            row.draws,
            now,
        ];
        let n = if r.read_games == 0 {
            c.execute(
                "INSERT INTO ratings (user_id, variant, guild, rating, deviation, volatility,
                    games, wins, losses, draws, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                 ON CONFLICT (user_id, variant, guild) DO NOTHING",
                fields,
            )?
        } else {
            let mut guarded = fields.to_vec();
            guarded.push(Value::from(r.read_games));
            c.execute(
                "UPDATE ratings SET rating = $4, deviation = $5, volatility = $6, games = $7,
                    wins = $8, losses = $9, draws = $10, updated_at = $11
                 WHERE user_id = $1 AND variant = $2 AND guild = $3 AND games = $12",
                &guarded,
            )?
        };
        if n != 1 {
            return Err(StoreError::Stale);
        }
    }
    Ok(())
}

/// Writes new deadlines (a vacation's), each game moving to its next version with its reminder
/// cleared; `Stale` if one is no longer at the version the deadline was computed from.
fn shift_deadlines(c: &mut dyn Exec, shifts: &[DeadlineShift]) -> Result<()> {
    for s in shifts {
        let n = c.execute(
            "UPDATE games SET deadline = $3, reminded = {false}, version = version + 1
             WHERE id = $1 AND version = $2 AND status = 'active'",
            args![s.game, s.version, s.deadline],
        )?;
        if n != 1 {
            return Err(StoreError::Stale);
        }
    }
    Ok(())
}

/// Pushes the hold of every unsent notice `holder` holds to the database's now +
/// `OUTBOX_LEASE`.
fn renew(c: &mut dyn Exec, holder: &str) -> Result<()> {
    c.execute(
        "UPDATE outbox SET claimed_until = {now} + $2 WHERE claimed_by = $1 AND sent_at IS NULL",
        args![holder, OUTBOX_LEASE],
    )?;
    Ok(())
}

/// `NotFound` when a change by id found no row.
fn found(n: u64) -> Result<()> {
    if n == 0 {
        Err(StoreError::NotFound)
    } else {
        Ok(())
    }
}

impl<B: Backend> GameStore for B {
    fn game(&self, id: i64) -> Result<Option<GameRow>> {
        self.read(|c| get_game(c, id))
    }

    fn games_of(
        &self,
        user: &str,
        status: GameStatus,
        guild: Option<&str>,
        limit: usize,
    ) -> Result<Vec<GameRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {GAME_COLUMNS} FROM games
                     WHERE (first_player = $1 OR second_player = $1) AND status = $2
                       AND (CAST($4 AS TEXT) IS NULL OR guild = $4)
                     ORDER BY updated_at DESC, id DESC LIMIT $3"
                ),
                args![user, status.as_str(), limit, guild],
                game_row,
            )
        })
    }

    fn waiting_for(&self, user: &str) -> Result<Vec<GameRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {GAME_COLUMNS} FROM games
                     WHERE status = 'active' AND to_move = $1 ORDER BY id"
                ),
                args![user],
                game_row,
            )
        })
    }

    fn moves(&self, game: i64) -> Result<Vec<MoveRow>> {
        self.read(|c| get_moves(c, game))
    }

    fn game_with_moves(&self, id: i64) -> Result<Option<(GameRow, Vec<MoveRow>)>> {
        // One snapshot: a move committed meanwhile is either wholly seen or not.
        self.snapshot(|c| {
            let Some(game) = get_game(c, id)? else {
                return Ok(None);
            };
            Ok(Some((game, get_moves(c, id)?)))
        })
    }

    fn start_game(&self, game: &NewGame, notices: &[NewNotice], now: i64) -> Result<GameRow> {
        self.write(|c| {
            let id = insert_game(c, game, now)?;
            queue_about_game(c, self.holder(), notices, id, now)?;
            get_game(c, id)?.ok_or(StoreError::NotFound)
        })
    }

    fn start_computer_game(
        &self,
        game: &NewGame,
        player: &str,
        max: usize,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow> {
        self.write(|c| {
            lock_user(c, player)?;
            let games: Vec<i64> = c.all(
                "SELECT id FROM games
                 WHERE (first_player = $1 OR second_player = $1) AND status = 'active'
                   AND computer_level IS NOT NULL
                 ORDER BY id",
                args![player],
                |r| r.get(0),
            )?;
            if games.len() >= max {
                return Err(StoreError::Limit(Limit::ComputerGames { games }));
            }
            let id = insert_game(c, game, now)?;
            queue_about_game(c, self.holder(), notices, id, now)?;
            get_game(c, id)?.ok_or(StoreError::NotFound)
        })
    }

    fn computer_games(&self, computer: &str) -> Result<Vec<GameRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {GAME_COLUMNS} FROM games
                     WHERE to_move = $1 AND computer_level IS NOT NULL AND status = 'active'
                     ORDER BY id"
                ),
                args![computer],
                game_row,
            )
        })
    }

    fn append_move(
        &self,
        game: i64,
        version: i64,
        mv: &MoveRow,
        next: &Turn,
        finish: Option<&Finish>,
        notices: &[NewNotice],
    ) -> Result<GameRow> {
        self.write(|c| {
            bump(c, game, version, mv.played_at)?;
            let current = get_game(c, game)?.ok_or(StoreError::NotFound)?;
            if current.status != GameStatus::Active {
                return Err(StoreError::Conflict);
            }
            if current.ply + 1 != mv.ply {
                return Err(StoreError::Invalid(format!(
                    "move {} does not follow ply {}",
                    mv.ply, current.ply
                )));
            }
            c.execute(
                "INSERT INTO moves (game_id, ply, code, notation, position, user_id, played_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                args![
                    game,
                    mv.ply,
                    &mv.code,
                    &mv.notation,
                    &mv.position,
                    &mv.user,
                    mv.played_at,
                ],
            )?;
            c.execute(
                "UPDATE games SET position = $2, ply = $3, to_move = $4, deadline = $5,
                    reminded = {false}, turn_span = $6, bank_first = $7, bank_second = $8
                 WHERE id = $1",
                args![
                    game,
                    &mv.position,
                    mv.ply,
                    next.to_move,
                    next.deadline,
                    next.span,
                    next.banks[0],
                    next.banks[1],
                ],
            )?;
            c.execute("DELETE FROM offers WHERE game_id = $1", args![game])?;
            if let Some(f) = finish {
                end_game(c, self.holder(), game, f, mv.played_at)?;
            }
            queue(c, self.holder(), notices, mv.played_at)?;
            get_game(c, game)?.ok_or(StoreError::NotFound)
        })
    }

    fn finish_game(&self, game: i64, version: i64, finish: &Finish, now: i64) -> Result<GameRow> {
        self.write(|c| {
            bump(c, game, version, now)?;
            end_game(c, self.holder(), game, finish, now)?;
            get_game(c, game)?.ok_or(StoreError::NotFound)
        })
    }

    fn finish_games(&self, games: &[(i64, i64, Finish)], now: i64) -> Result<Vec<BatchEnd>> {
        self.write(|c| {
            // The claim, on PostgreSQL: the games no other transaction holds are locked for
            // this one. A game another process is ending (its sweep) or moving in right now is
            // skipped, not waited for: that process decides it, and a later sweep looks again.
            // SQLite lets one writer in at a time: this transaction holds every game.
            let held: Option<HashSet<i64>> = match c.dialect() {
                Dialect::Postgres => {
                    let ids: Vec<i64> = games.iter().map(|(id, _, _)| *id).collect();
                    Some(
                        c.all(
                            "SELECT id FROM games WHERE id = ANY($1) FOR UPDATE SKIP LOCKED",
                            &[Value::Ints(ids)],
                            |r| r.get::<i64>(0),
                        )?
                        .into_iter()
                        .collect(),
                    )
                }
                Dialect::Sqlite => None,
            };
            let mut done = Vec::with_capacity(games.len());
            for (game, version, finish) in games {
                if held.as_ref().is_some_and(|h| !h.contains(game)) {
                    // Locked by another transaction, or no such game.
                    done.push(BatchEnd::Held);
                    continue;
                }
                // A game that moved on writes nothing (its first statement is guarded); one
                // with ratings may find one stale after writing, so it goes in a savepoint,
                // rolled back alone.
                let rated = !finish.ratings.is_empty();
                if rated {
                    c.batch("SAVEPOINT game")?;
                }
                match end_held(c, self.holder(), *game, *version, finish, now) {
                    Ok(()) => {
                        if rated {
                            c.batch("RELEASE SAVEPOINT game")?;
                        }
                        done.push(BatchEnd::Ended);
                    }
                    // Moved on (or gone): its first statement wrote nothing.
                    Err(StoreError::Conflict | StoreError::NotFound) => {
                        if rated {
                            c.batch("RELEASE SAVEPOINT game")?;
                        }
                        done.push(BatchEnd::Moved);
                    }
                    // Only a rated game gets here, after writing, inside its savepoint.
                    Err(StoreError::Stale) => {
                        c.batch("ROLLBACK TO SAVEPOINT game")?;
                        c.batch("RELEASE SAVEPOINT game")?;
                        done.push(BatchEnd::Stale);
                    }
                    Err(e) => return Err(e),
                }
            }
            Ok(done)
        })
    }

    fn take_back(
        &self,
        game: i64,
        version: i64,
        keep_ply: u32,
        position: &str,
        next: &Turn,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow> {
        self.write(|c| {
            bump(c, game, version, now)?;
            // A finished game stays finished, with its result (a league's adjudication, a
            // loss on time): only an active game goes back. Nothing written otherwise (the
            // version's move is rolled back with the transaction).
            let n = c.execute(
                "UPDATE games SET position = $2, ply = $3, to_move = $4, deadline = $5,
                    reminded = {false}, turn_span = $6, bank_first = $7, bank_second = $8
                 WHERE id = $1 AND status = 'active'",
                args![
                    game,
                    position,
                    keep_ply,
                    next.to_move,
                    next.deadline,
                    next.span,
                    next.banks[0],
                    next.banks[1],
                ],
            )?;
            if n != 1 {
                return Err(StoreError::Conflict);
            }
            c.execute(
                "UPDATE moves SET taken_back = {true}
                 WHERE game_id = $1 AND ply > $2 AND taken_back = {false}",
                args![game, keep_ply],
            )?;
            c.execute("DELETE FROM offers WHERE game_id = $1", args![game])?;
            queue(c, self.holder(), notices, now)?;
            get_game(c, game)?.ok_or(StoreError::NotFound)
        })
    }

    fn set_deadline(
        &self,
        game: i64,
        version: i64,
        deadline: i64,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow> {
        self.write(|c| {
            bump(c, game, version, now)?;
            let n = c.execute(
                "UPDATE games SET deadline = $2, reminded = {false}
                 WHERE id = $1 AND status = 'active' AND deadline IS NOT NULL",
                args![game, deadline],
            )?;
            if n != 1 {
                return Err(StoreError::Conflict);
            }
            queue(c, self.holder(), notices, now)?;
            get_game(c, game)?.ok_or(StoreError::NotFound)
        })
    }

    fn set_thread(&self, game: i64, thread: &str) -> Result<()> {
        self.single(|c| {
            found(c.execute(
                "UPDATE games SET thread = $2 WHERE id = $1",
                args![game, thread],
            )?)
        })
    }

    fn set_home(&self, game: i64, channel: Option<&str>, thread: Option<&str>) -> Result<()> {
        self.single(|c| {
            found(c.execute(
                "UPDATE games SET channel = $2, thread = $3 WHERE id = $1",
                args![game, channel, thread],
            )?)
        })
    }

    fn integrity_check(&self) -> Result<String> {
        self.read(|c| {
            let sql = match c.dialect() {
                Dialect::Sqlite => "PRAGMA integrity_check",
                // PostgreSQL checks its own pages; what can be asked cheaply is that it
                // answers.
                Dialect::Postgres => "SELECT 'ok'::TEXT",
            };
            c.one(sql, &[], |r| r.get(0))?
                .ok_or_else(|| StoreError::Invalid("no answer to the integrity check".into()))
        })
    }
}

/// The caps of a new challenge, counted in the caller's transaction after locking the
/// challenger's row (see [`ChallengeCaps`]): `Limit` if the challenge would pass one.
fn within_caps(c: &mut dyn Exec, ch: &NewChallenge, caps: &ChallengeCaps, now: i64) -> Result<()> {
    lock_user(c, &ch.challenger)?;
    let open = c.all(
        "SELECT id, challenged FROM challenges
         WHERE challenger = $1 AND status = 'open' AND expires_at > $2 ORDER BY id",
        args![&ch.challenger, now],
        |r| Ok((r.get::<i64>(0)?, r.get::<Option<String>>(1)?)),
    )?;
    if open.len() >= caps.open {
        return Err(StoreError::Limit(Limit::OpenChallenges {
            open: open.iter().map(|(id, _)| *id).collect(),
        }));
    }
    if let Some(them) = &ch.challenged {
        let to_them: Vec<i64> = open
            .iter()
            .filter(|(_, to)| to.as_ref() == Some(them))
            .map(|(id, _)| *id)
            .collect();
        if to_them.len() >= caps.open_to_one {
            return Err(StoreError::Limit(Limit::OpenToOne { open: to_them }));
        }
        let times: Vec<i64> = c.all(
            "SELECT created_at FROM challenges
             WHERE challenger = $1 AND challenged = $2 AND created_at >= $3
             ORDER BY created_at",
            args![&ch.challenger, them, caps.day_since],
            |r| r.get(0),
        )?;
        if times.len() >= caps.daily_to_one {
            return Err(StoreError::Limit(Limit::DailyToOne { times }));
        }
    }
    Ok(())
}

/// Stores a challenge and queues its notices (`{challenge}` its id), in the caller's
/// transaction.
fn insert_challenge(
    c: &mut dyn Exec,
    holder: &str,
    ch: &NewChallenge,
    notices: &[NewNotice],
    now: i64,
) -> Result<ChallengeRow> {
    let id = returned_id(c.query(
        "INSERT INTO challenges (challenger, challenged, variant, color, days_per_move,
            handicap, setup, rated, guild, channel, status, created_at, expires_at, clock,
            increment_days, cap_days, period_days)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'open', $11, $12, $13, $14, $15,
            $16)
         RETURNING id",
        args![
            &ch.challenger,
            &ch.challenged,
            &ch.variant,
            &ch.color,
            ch.control.days,
            &ch.handicap,
            &ch.setup,
            ch.rated,
            &ch.guild,
            &ch.channel,
            now,
            ch.expires_at,
            ch.control.kind.as_str(),
            ch.control.increment,
            ch.control.cap,
            ch.control.period,
        ],
    )?)?;
    queue_with(c, holder, notices, None, &[("{challenge}", id)], now)?;
    get_challenge(c, id)?.ok_or(StoreError::NotFound)
}

impl<B: Backend> ChallengeStore for B {
    fn create_challenge(
        &self,
        ch: &NewChallenge,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<ChallengeRow> {
        self.write(|c| insert_challenge(c, self.holder(), ch, notices, now))
    }

    fn create_challenge_within(
        &self,
        ch: &NewChallenge,
        caps: &ChallengeCaps,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<ChallengeRow> {
        self.write(|c| {
            within_caps(c, ch, caps, now)?;
            insert_challenge(c, self.holder(), ch, notices, now)
        })
    }

    fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>> {
        self.read(|c| get_challenge(c, id))
    }

    fn open_challenges(&self, user: &str, now: i64) -> Result<Vec<ChallengeRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {CHALLENGE_COLUMNS} FROM challenges
                     WHERE status = 'open' AND expires_at > $2
                       AND (challenger = $1 OR challenged = $1 OR challenged IS NULL)
                     ORDER BY id"
                ),
                args![user, now],
                challenge_row,
            )
        })
    }

    fn accept_challenge(
        &self,
        id: i64,
        game: &NewGame,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<GameRow> {
        self.write(|c| {
            let game_id = insert_game(c, game, now)?;
            let n = c.execute(
                "UPDATE challenges SET status = 'accepted', game_id = $2
                 WHERE id = $1 AND status = 'open'",
                args![id, game_id],
            )?;
            if n != 1 {
                // Rolled back with the game when the transaction drops.
                return Err(StoreError::Conflict);
            }
            queue_about_game(c, self.holder(), notices, game_id, now)?;
            get_game(c, game_id)?.ok_or(StoreError::NotFound)
        })
    }

    fn close_challenge(
        &self,
        id: i64,
        status: ChallengeStatus,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<()> {
        self.write(|c| {
            let n = c.execute(
                "UPDATE challenges SET status = $2 WHERE id = $1 AND status = 'open'",
                args![id, status.as_str()],
            )?;
            match n {
                1 => queue(c, self.holder(), notices, now),
                _ if get_challenge(c, id)?.is_none() => Err(StoreError::NotFound),
                _ => Err(StoreError::Conflict),
            }
        })
    }

    fn put_offer(
        &self,
        game: i64,
        version: i64,
        offer: &OfferRow,
        notices: &[NewNotice],
    ) -> Result<()> {
        self.write(|c| {
            // Locked (PostgreSQL): a move cannot commit between the check and the offer.
            let current = c
                .one(
                    &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1 {{for update}}"),
                    args![game],
                    game_row,
                )?
                .ok_or(StoreError::NotFound)?;
            if current.version != version || current.status != GameStatus::Active {
                return Err(StoreError::Conflict);
            }
            c.execute(
                "INSERT INTO offers (game_id, kind, from_user, ply, created_at)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (game_id, kind) DO UPDATE SET from_user = excluded.from_user,
                    ply = excluded.ply, created_at = excluded.created_at",
                args![
                    game,
                    offer.kind.as_str(),
                    &offer.from_user,
                    offer.ply,
                    offer.created_at,
                ],
            )?;
            queue(c, self.holder(), notices, offer.created_at)
        })
    }

    fn offer(&self, game: i64, kind: OfferKind) -> Result<Option<OfferRow>> {
        self.read(|c| {
            c.one(
                "SELECT from_user, ply, created_at FROM offers WHERE game_id = $1 AND kind = $2",
                args![game, kind.as_str()],
                |r| {
                    Ok(OfferRow {
                        game_id: game,
                        kind,
                        from_user: r.get(0)?,
                        ply: r.get(1)?,
                        created_at: r.get(2)?,
                    })
                },
            )
        })
    }

    fn remove_offer(
        &self,
        game: i64,
        kind: OfferKind,
        notices: &[NewNotice],
        now: i64,
    ) -> Result<()> {
        self.write(|c| {
            c.execute(
                "DELETE FROM offers WHERE game_id = $1 AND kind = $2",
                args![game, kind.as_str()],
            )?;
            queue(c, self.holder(), notices, now)
        })
    }

    fn challenge_times(&self, challenger: &str, challenged: &str, since: i64) -> Result<Vec<i64>> {
        self.read(|c| {
            c.all(
                "SELECT created_at FROM challenges
                 WHERE challenger = $1 AND challenged = $2 AND created_at >= $3
                 ORDER BY created_at",
                args![challenger, challenged, since],
                |r| r.get(0),
            )
        })
    }
}

/// Records a user, or their new display name.
fn upsert_user(c: &mut dyn Exec, id: &str, name: &str, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO users (id, name, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name WHERE users.name <> excluded.name",
        args![id, name, now],
    )?;
    Ok(())
}

impl<B: Backend> UserStore for B {
    fn touch_user(&self, id: &str, name: &str, now: i64) -> Result<UserRow> {
        // Known under this name: a read, no write lock.
        if let Some(u) = self.user(id)?.filter(|u| u.name == name) {
            return Ok(u);
        }
        self.write(|c| {
            upsert_user(c, id, name, now)?;
            get_user(c, id)?.ok_or(StoreError::NotFound)
        })
    }

    fn touch_member(
        &self,
        id: &str,
        name: &str,
        guild: &str,
        nick: Option<&str>,
        now: i64,
    ) -> Result<UserRow> {
        // Known under these names: one read, no write lock.
        let known = self.read(|c| {
            c.one(
                &format!(
                    "SELECT {USER_COLUMNS}, (SELECT name FROM server_names
                         WHERE guild = $2 AND user_id = users.id)
                     FROM users WHERE id = $1"
                ),
                args![id, guild],
                |r| Ok((user_row(r)?, r.get::<Option<String>>(width(USER_COLUMNS))?)),
            )
        })?;
        if let Some((u, n)) = known {
            if u.name == name && n.as_deref() == nick {
                return Ok(u);
            }
        }
        self.write(|c| {
            upsert_user(c, id, name, now)?;
            match nick {
                Some(nick) => c.execute(
                    "INSERT INTO server_names (guild, user_id, name, updated_at)
                     VALUES ($1, $2, $3, $4)
                     ON CONFLICT (guild, user_id) DO UPDATE
                     SET name = excluded.name, updated_at = excluded.updated_at
                     WHERE server_names.name <> excluded.name",
                    args![guild, id, nick, now],
                )?,
                None => c.execute(
                    "DELETE FROM server_names WHERE guild = $1 AND user_id = $2",
                    args![guild, id],
                )?,
            };
            get_user(c, id)?.ok_or(StoreError::NotFound)
        })
    }

    fn name_in(&self, id: &str, guild: Option<&str>) -> Result<Option<String>> {
        self.read(|c| {
            c.one(
                "SELECT COALESCE((SELECT name FROM server_names
                     WHERE guild = $2 AND user_id = users.id), name)
                 FROM users WHERE id = $1",
                args![id, guild],
                |r| r.get(0),
            )
        })
    }

    fn server_names(&self, pairs: &[(String, String)]) -> Result<Vec<ServerName>> {
        let name = |r: &Row| {
            Ok(ServerName {
                guild: r.get(0)?,
                user_id: r.get(1)?,
                name: r.get(2)?,
            })
        };
        self.read(|c| match c.dialect() {
            // One statement for all the pairs, bound as two arrays.
            Dialect::Postgres => {
                let (guilds, users): (Vec<String>, Vec<String>) = pairs.iter().cloned().unzip();
                c.all(
                    "SELECT s.guild, s.user_id, s.name FROM server_names s
                     JOIN unnest($1::text[], $2::text[]) AS p (guild, user_id)
                       ON s.guild = p.guild AND s.user_id = p.user_id",
                    &[Value::Texts(guilds), Value::Texts(users)],
                    name,
                )
            }
            // No arrays: one cached statement per pair, in process.
            Dialect::Sqlite => {
                let mut out = Vec::new();
                for (guild, user) in pairs {
                    out.extend(c.one(
                        "SELECT guild, user_id, name FROM server_names
                         WHERE guild = $1 AND user_id = $2",
                        args![guild, user],
                        name,
                    )?);
                }
                Ok(out)
            }
        })
    }

    fn user(&self, id: &str) -> Result<Option<UserRow>> {
        self.read(|c| get_user(c, id))
    }

    fn users(&self, ids: &[String]) -> Result<Vec<UserRow>> {
        self.read(|c| match c.dialect() {
            Dialect::Postgres => c.all(
                &format!("SELECT {USER_COLUMNS} FROM users WHERE id = ANY($1)"),
                &[Value::Texts(ids.to_vec())],
                user_row,
            ),
            Dialect::Sqlite => {
                let mut out = Vec::with_capacity(ids.len());
                for id in ids {
                    out.extend(get_user(c, id)?);
                }
                Ok(out)
            }
        })
    }

    fn set_user_settings(&self, id: &str, style: &str, notify: &str) -> Result<()> {
        self.single(|c| {
            found(c.execute(
                "UPDATE users SET style = $2, notify = $3 WHERE id = $1",
                args![id, style, notify],
            )?)
        })
    }

    fn server(&self, guild: &str) -> Result<Option<ServerRow>> {
        self.read(|c| {
            c.one(
                &format!("SELECT {SERVER_COLUMNS} FROM servers WHERE guild = $1"),
                args![guild],
                server_row,
            )
        })
    }

    fn set_server(&self, s: &ServerRow) -> Result<()> {
        self.single(|c| {
            c.execute(
                &format!(
                    "INSERT INTO servers ({SERVER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (guild) DO UPDATE SET default_days = excluded.default_days,
                        rated_default = excluded.rated_default,
                        games_channel = excluded.games_channel, language = excluded.language,
                        leagues = excluded.leagues, featured_game = excluded.featured_game"
                ),
                args![
                    &s.guild,
                    s.default_days,
                    s.rated_default,
                    &s.games_channel,
                    &s.language,
                    s.leagues,
                    s.featured,
                ],
            )?;
            Ok(())
        })
    }

    fn set_remind_hours(&self, id: &str, hours: Option<u32>) -> Result<()> {
        self.single(|c| {
            found(c.execute(
                "UPDATE users SET remind_hours = $2 WHERE id = $1",
                args![id, hours],
            )?)
        })
    }

    fn set_user_speech(
        &self,
        id: &str,
        language: Option<&str>,
        notation: Option<&str>,
    ) -> Result<()> {
        self.single(|c| {
            found(c.execute(
                "UPDATE users SET language = $2, notation = $3 WHERE id = $1",
                args![id, language, notation],
            )?)
        })
    }

    fn set_user_board(&self, id: &str, board: Option<&str>) -> Result<()> {
        self.single(|c| {
            found(c.execute(
                "UPDATE users SET board = $2 WHERE id = $1",
                args![id, board],
            )?)
        })
    }

    fn set_user_locale(&self, id: &str, locale: &str) -> Result<()> {
        self.single(|c| {
            found(c.execute(
                "UPDATE users SET locale = $2 WHERE id = $1",
                args![id, locale],
            )?)
        })
    }

    fn set_server_locale(&self, guild: &str, locale: &str) -> Result<()> {
        self.single(|c| {
            c.execute(
                "INSERT INTO server_locales (guild, locale) VALUES ($1, $2)
                 ON CONFLICT (guild) DO UPDATE SET locale = excluded.locale",
                args![guild, locale],
            )?;
            Ok(())
        })
    }

    fn server_locale(&self, guild: &str) -> Result<Option<String>> {
        self.read(|c| {
            c.one(
                "SELECT locale FROM server_locales WHERE guild = $1",
                args![guild],
                |r| r.get(0),
            )
        })
    }
}

impl<B: Backend> ClockStore for B {
    fn due_games(&self, now: i64, limit: usize) -> Result<Vec<GameRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {GAME_COLUMNS} FROM games
                     WHERE status = 'active' AND deadline <= $1 ORDER BY deadline, id LIMIT $2"
                ),
                args![now, limit],
                game_row,
            )
        })
    }

    fn reminders_due(&self, now: i64, limit: usize) -> Result<Vec<GameRow>> {
        // Half the time per move gone (by the index `games_half_time`, whose expression and
        // condition this repeats word for word), then the lead of the player to move: the
        // later of the two times has come when both have.
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {} FROM games g LEFT JOIN users u ON u.id = g.to_move
                     WHERE g.status = 'active' AND g.reminded = {{false}}
                       AND g.deadline - g.turn_span / 2 <= $1
                       AND coalesce(u.remind_hours, {DEFAULT_REMIND_HOURS}) > 0
                       AND g.deadline - coalesce(u.remind_hours, {DEFAULT_REMIND_HOURS}) * 3600
                           <= $1
                     ORDER BY g.deadline - g.turn_span / 2, g.id LIMIT $2",
                    qualified(GAME_COLUMNS, "g")
                ),
                args![now, limit],
                game_row,
            )
        })
    }

    fn remind(&self, game: i64, deadline: i64, notice: &NewNotice, now: i64) -> Result<bool> {
        self.write(|c| {
            let n = c.execute(
                "UPDATE games SET reminded = {true}
                 WHERE id = (SELECT id FROM games
                    WHERE id = $1 AND status = 'active' AND reminded = {false} AND deadline = $2
                    {for update skip locked})",
                args![game, deadline],
            )?;
            if n == 1 {
                queue(c, self.holder(), std::slice::from_ref(notice), now)?;
            }
            Ok(n == 1)
        })
    }

    fn expired_challenges(&self, now: i64, limit: usize) -> Result<Vec<ChallengeRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {CHALLENGE_COLUMNS} FROM challenges
                     WHERE status = 'open' AND expires_at <= $1
                     ORDER BY expires_at, id LIMIT $2"
                ),
                args![now, limit],
                challenge_row,
            )
        })
    }

    fn expire_challenge(&self, id: i64, notices: &[NewNotice], now: i64) -> Result<bool> {
        self.write(|c| {
            let n = c.execute(
                "UPDATE challenges SET status = 'expired'
                 WHERE id = (SELECT id FROM challenges WHERE id = $1 AND status = 'open'
                    {for update skip locked})",
                args![id],
            )?;
            if n == 1 {
                queue(c, self.holder(), notices, now)?;
            }
            Ok(n == 1)
        })
    }

    fn unsent(&self, limit: usize) -> Result<Vec<OutboxRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {OUTBOX_COLUMNS} FROM outbox
                     WHERE sent_at IS NULL ORDER BY created_at, id LIMIT $1"
                ),
                args![limit],
                outbox_row,
            )
        })
    }

    fn claim_unsent(&self, limit: usize) -> Result<Vec<OutboxRow>> {
        // One transaction. PostgreSQL: rows another handle is claiming at this moment are
        // locked, skipped rather than waited for (they are its, or will be). SQLite lets one
        // writer in at a time, so two handles claiming at once take turns. Holds are taken and
        // compared by the database's clock, not the caller's.
        self.write(|c| {
            renew(c, self.holder())?;
            let mut out = c.all(
                &format!(
                    "WITH free AS (
                        SELECT id AS free_id FROM outbox
                        WHERE sent_at IS NULL
                          AND (claimed_by = $1 OR claimed_until IS NULL
                               OR claimed_until <= {{now}})
                        ORDER BY created_at, id LIMIT $3
                        {{for update skip locked}})
                     UPDATE outbox SET claimed_by = $1, claimed_until = {{now}} + $2 FROM free
                     WHERE outbox.id = free.free_id
                     RETURNING {OUTBOX_COLUMNS}"
                ),
                args![self.holder(), OUTBOX_LEASE, limit],
                outbox_row,
            )?;
            out.sort_by_key(|o| (o.created_at, o.id));
            Ok(out)
        })
    }

    fn release_claims(&self) -> Result<()> {
        self.single(|c| {
            c.execute(
                "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL
                 WHERE claimed_by = $1 AND sent_at IS NULL",
                args![self.holder()],
            )?;
            Ok(())
        })
    }

    fn mark_sent(&self, ids: &[i64], now: i64) -> Result<()> {
        self.single(|c| {
            match c.dialect() {
                Dialect::Postgres => {
                    c.execute(
                        "UPDATE outbox SET sent_at = $2 WHERE id = ANY($1) AND sent_at IS NULL",
                        &[Value::Ints(ids.to_vec()), Value::Int(now)],
                    )?;
                }
                // No arrays: one cached statement per notice, in the write's transaction.
                Dialect::Sqlite => {
                    for id in ids {
                        c.execute(
                            "UPDATE outbox SET sent_at = $2 WHERE id = $1 AND sent_at IS NULL",
                            args![*id, now],
                        )?;
                    }
                }
            }
            Ok(())
        })
    }

    fn set_aside(&self, id: i64, reason: &str, now: i64) -> Result<()> {
        self.single(|c| {
            c.execute(
                "UPDATE outbox SET sent_at = $2, undelivered = $3 WHERE id = $1 AND sent_at IS NULL",
                args![id, now, reason],
            )?;
            Ok(())
        })
    }

    fn rewrite_post(&self, id: i64, user: &str, text: &str, ply: u32) -> Result<bool> {
        self.single(|c| {
            let n = c.execute(
                "UPDATE outbox SET user_id = $2, text = $3, ply = $4
                 WHERE id = $1 AND via = 'post' AND sent_at IS NULL",
                args![id, user, text, i64::from(ply)],
            )?;
            Ok(n > 0)
        })
    }

    fn undelivered(&self, user: &str, since: i64, limit: usize) -> Result<Vec<OutboxRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {OUTBOX_COLUMNS} FROM outbox
                     WHERE user_id = $1 AND undelivered IS NOT NULL AND created_at >= $2
                     ORDER BY id DESC LIMIT $3"
                ),
                args![user, since, limit],
                outbox_row,
            )
        })
    }

    fn start_vacation(
        &self,
        user: &str,
        now: i64,
        end: i64,
        allowance: &VacationAllowance,
        shifts: &[DeadlineShift],
    ) -> Result<()> {
        self.write(|c| {
            // The user's row, held (PostgreSQL): two vacations asked for at once are checked
            // one after the other, the second seeing the first.
            let until = c
                .one(
                    "SELECT vacation_until FROM users WHERE id = $1 {for update}",
                    args![user],
                    |r| r.get::<Option<i64>>(0),
                )?
                .ok_or(StoreError::NotFound)?;
            if let Some(until) = until.filter(|&u| u > now) {
                return Err(StoreError::Limit(Limit::OnVacation { until }));
            }
            let used = c
                .one(
                    "SELECT CAST(coalesce(sum(end_at - start_at), 0) AS BIGINT) FROM vacations
                     WHERE user_id = $1 AND start_at >= $2",
                    args![user, allowance.since],
                    |r| r.get::<i64>(0),
                )?
                .unwrap_or(0);
            if used + (end - now) > allowance.max {
                return Err(StoreError::Limit(Limit::VacationDays { used }));
            }
            c.execute(
                "INSERT INTO vacations (user_id, start_at, end_at) VALUES ($1, $2, $3)",
                args![user, now, end],
            )?;
            c.execute(
                "UPDATE users SET vacation_until = $2 WHERE id = $1",
                args![user, end],
            )?;
            shift_deadlines(c, shifts)
        })
    }

    fn end_vacation(
        &self,
        user: &str,
        until: i64,
        now: i64,
        shifts: &[DeadlineShift],
    ) -> Result<()> {
        self.write(|c| {
            let n = c.execute(
                "UPDATE users SET vacation_until = NULL WHERE id = $1 AND vacation_until = $2",
                args![user, until],
            )?;
            if n != 1 {
                return Err(StoreError::Stale);
            }
            c.execute(
                "UPDATE vacations SET end_at = $2 WHERE user_id = $1 AND end_at = $3",
                args![user, now, until],
            )?;
            shift_deadlines(c, shifts)
        })
    }

    fn vacation_used(&self, user: &str, since: i64) -> Result<i64> {
        self.read(|c| {
            Ok(c.one(
                "SELECT CAST(coalesce(sum(end_at - start_at), 0) AS BIGINT) FROM vacations
                     WHERE user_id = $1 AND start_at >= $2",
                args![user, since],
                |r| r.get(0),
            )?
            .unwrap_or(0))
        })
    }

    fn renew_claims(&self) -> Result<()> {
        self.single(|c| renew(c, self.holder()))
    }

    fn gauges(&self) -> Result<Gauges> {
        self.read(|c| {
            let g = c.one(
                "SELECT (SELECT count(*) FROM outbox WHERE sent_at IS NULL),
                        (SELECT min(created_at) FROM outbox WHERE sent_at IS NULL),
                        (SELECT count(*) FROM games WHERE status = 'active')",
                args![],
                |r| {
                    Ok(Gauges {
                        unsent: u64::try_from(r.get::<i64>(0)?).unwrap_or(0),
                        oldest_unsent: r.get(1)?,
                        games_in_play: u64::try_from(r.get::<i64>(2)?).unwrap_or(0),
                    })
                },
            )?;
            Ok(g.unwrap_or_default())
        })
    }
}

impl<B: Backend> RatingStore for B {
    fn rating(&self, user: &str, variant: &str, guild: &str) -> Result<Option<RatingRow>> {
        self.read(|c| {
            c.one(
                &format!(
                    "SELECT {RATING_COLUMNS} FROM ratings
                     WHERE user_id = $1 AND variant = $2 AND guild = $3"
                ),
                args![user, variant, guild],
                rating_row,
            )
        })
    }

    fn ratings_of(&self, user: &str, guild: &str) -> Result<Vec<RatingRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = $1 AND guild = $2
                     ORDER BY variant"
                ),
                args![user, guild],
                rating_row,
            )
        })
    }

    fn leaderboard(&self, variant: &str, guild: &str, limit: usize) -> Result<Vec<RatingRow>> {
        self.read(|c| {
            c.all(
                &format!(
                    "SELECT {RATING_COLUMNS} FROM ratings WHERE variant = $1 AND guild = $2
                     ORDER BY rating DESC, deviation ASC LIMIT $3"
                ),
                args![variant, guild, limit],
                rating_row,
            )
        })
    }
}
