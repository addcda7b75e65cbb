//! The column lists of the store's rows and the mappers that read them, for both backends: a
//! new column is added to its list and read in its mapper, here only.

use super::Row;
use crate::store::conditional::{split_moves, ConditionalRow};
use crate::store::follow::FollowRow;
use crate::store::league::{LeaguePlayerRow, LeagueRow, LeagueStatus, PairingRow};
use crate::store::{
    ChallengeRow, ChallengeStatus, GameResult, GameRow, GameStatus, MoveRow, NewNotice, OutboxRow,
    RatingRow, Result, ServerRow, StoreError, TimeControl, UserRow,
};

pub(super) const GAME_COLUMNS: &str = "id, variant, setup, start_position, first_player, \
    second_player, guild, channel, thread, status, result, reason, rated, days_per_move, \
    deadline, position, ply, version, created_at, updated_at, finished_at, to_move, reminded, \
    computer_level, clock, increment_days, cap_days, period_days, bank_first, bank_second, \
    turn_span";

pub(super) const MOVE_COLUMNS: &str = "ply, code, notation, position, user_id, played_at";

pub(super) const USER_COLUMNS: &str =
    "id, name, style, notify, vacation_until, last_digest_at, remind_hours, \
    language, notation, locale, digest_hour, timezone, next_digest_at, board";

pub(super) const RATING_COLUMNS: &str =
    "user_id, variant, guild, rating, deviation, volatility, games, wins, losses, draws";

pub(super) const CHALLENGE_COLUMNS: &str = "id, challenger, challenged, variant, color, \
    days_per_move, handicap, setup, rated, guild, channel, status, game_id, created_at, \
    expires_at, clock, increment_days, cap_days, period_days";

pub(super) const OUTBOX_COLUMNS: &str =
    "id, user_id, via, channel, text, created_at, game_id, ply, league_id";

pub(super) const SERVER_COLUMNS: &str =
    "guild, default_days, rated_default, games_channel, language, leagues, featured_game";

pub(super) const LEAGUE_COLUMNS: &str = "id, guild, channel, thread, name, variant, \
    days_per_move, format, rounds, rated, schedule, round_days, max_players, rating_min, \
    rating_max, creator, status, round, round_started_at, created_at, started_at, finished_at, \
    version, clock, increment_days, cap_days, period_days";

pub(super) const PLAYER_COLUMNS: &str = "league, user_id, joined_at, status, left_at, seed";

pub(super) const PAIRING_COLUMNS: &str = "league, round, board, first, second, game_id, outcome";

pub(super) const CONDITIONAL_COLUMNS: &str =
    "id, game_id, user_id, ply, position, moves, created_at";

pub(super) const FOLLOW_COLUMNS: &str =
    "game_id, user_id, notify, seen_ply, seen_over, joined_thread, created_at";

/// How many columns a list has: a column selected after them comes at this index.
pub(super) fn width(columns: &str) -> usize {
    columns.split(", ").count()
}

/// `columns` (a list above) each prefixed with the table alias `t`.
pub(super) fn qualified(columns: &str, t: &str) -> String {
    columns
        .split(", ")
        .map(|c| format!("{t}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn game_row(r: &Row) -> Result<GameRow> {
    let status: String = r.get(9)?;
    let result: Option<String> = r.get(10)?;
    Ok(GameRow {
        id: r.get(0)?,
        variant: r.get(1)?,
        setup: r.get(2)?,
        start_position: r.get(3)?,
        players: [r.get(4)?, r.get(5)?],
        guild: r.get(6)?,
        channel: r.get(7)?,
        thread: r.get(8)?,
        status: if status == "active" {
            GameStatus::Active
        } else {
            GameStatus::Finished
        },
        result: result.as_deref().and_then(GameResult::parse),
        reason: r.get(11)?,
        rated: r.get(12)?,
        control: TimeControl::from_columns(
            &r.get::<String>(24)?,
            r.get(13)?,
            r.get(25)?,
            r.get(26)?,
            r.get(27)?,
        ),
        deadline: r.get(14)?,
        banks: [r.get(28)?, r.get(29)?],
        turn_span: r.get(30)?,
        position: r.get(15)?,
        ply: r.get(16)?,
        version: r.get(17)?,
        created_at: r.get(18)?,
        updated_at: r.get(19)?,
        finished_at: r.get(20)?,
        to_move: r.get(21)?,
        reminded: r.get(22)?,
        computer_level: r.get(23)?,
    })
}

pub(super) fn move_row(r: &Row) -> Result<MoveRow> {
    Ok(MoveRow {
        ply: r.get(0)?,
        code: r.get(1)?,
        notation: r.get(2)?,
        position: r.get(3)?,
        user: r.get(4)?,
        played_at: r.get(5)?,
    })
}

pub(super) fn user_row(r: &Row) -> Result<UserRow> {
    Ok(UserRow {
        id: r.get(0)?,
        name: r.get(1)?,
        style: r.get(2)?,
        notify: r.get(3)?,
        vacation_until: r.get(4)?,
        last_digest_at: r.get(5)?,
        remind_hours: r.get(6)?,
        language: r.get(7)?,
        notation: r.get(8)?,
        locale: r.get(9)?,
        digest_hour: match r.get::<Option<u8>>(10)? {
            Some(h) if h > 23 => {
                return Err(StoreError::Invalid(format!("digest_hour {h} out of range")))
            }
            h => h,
        },
        timezone: r.get(11)?,
        next_digest_at: r.get(12)?,
        board: match r.get::<Option<String>>(13)? {
            Some(b) if b != "black" && b != "white" => {
                return Err(StoreError::Invalid(format!("board side {b:?}")))
            }
            b => b,
        },
    })
}

pub(super) fn rating_row(r: &Row) -> Result<RatingRow> {
    Ok(RatingRow {
        user: r.get(0)?,
        variant: r.get(1)?,
        guild: r.get(2)?,
        rating: r.get(3)?,
        deviation: r.get(4)?,
        volatility: r.get(5)?,
        games: r.get(6)?,
        wins: r.get(7)?,
        losses: r.get(8)?,
        draws: r.get(9)?,
    })
}

pub(super) fn challenge_row(r: &Row) -> Result<ChallengeRow> {
    let status: String = r.get(11)?;
    Ok(ChallengeRow {
        id: r.get(0)?,
        challenger: r.get(1)?,
        challenged: r.get(2)?,
        variant: r.get(3)?,
        color: r.get(4)?,
        control: TimeControl::from_columns(
            &r.get::<String>(15)?,
            r.get(5)?,
            r.get(16)?,
            r.get(17)?,
            r.get(18)?,
        ),
        handicap: r.get(6)?,
        setup: r.get(7)?,
        rated: r.get(8)?,
        guild: r.get(9)?,
        channel: r.get(10)?,
        status: ChallengeStatus::parse(&status)
            .ok_or_else(|| StoreError::Invalid(format!("challenge status {status:?}")))?,
        game_id: r.get(12)?,
        created_at: r.get(13)?,
        expires_at: r.get(14)?,
    })
}

pub(super) fn outbox_row(r: &Row) -> Result<OutboxRow> {
    Ok(OutboxRow {
        id: r.get(0)?,
        notice: NewNotice {
            id: r.get(0)?,
            user: r.get(1)?,
            via: r.get(2)?,
            channel: r.get(3)?,
            text: r.get(4)?,
            game: r.get(6)?,
            ply: r.get(7)?,
            league: r.get(8)?,
        },
        created_at: r.get(5)?,
    })
}

pub(super) fn server_row(r: &Row) -> Result<ServerRow> {
    Ok(ServerRow {
        guild: r.get(0)?,
        default_days: r.get(1)?,
        rated_default: r.get(2)?,
        games_channel: r.get(3)?,
        language: r.get(4)?,
        leagues: r.get(5)?,
        featured: r.get(6)?,
    })
}

pub(super) fn league_row(r: &Row) -> Result<LeagueRow> {
    let status: String = r.get(16)?;
    Ok(LeagueRow {
        id: r.get(0)?,
        guild: r.get(1)?,
        channel: r.get(2)?,
        thread: r.get(3)?,
        name: r.get(4)?,
        variant: r.get(5)?,
        control: TimeControl::from_columns(
            &r.get::<String>(23)?,
            r.get(6)?,
            r.get(24)?,
            r.get(25)?,
            r.get(26)?,
        ),
        format: r.get(7)?,
        rounds: r.get(8)?,
        rated: r.get(9)?,
        schedule: r.get(10)?,
        round_days: r.get(11)?,
        max_players: r.get(12)?,
        rating_min: r.get(13)?,
        rating_max: r.get(14)?,
        creator: r.get(15)?,
        status: LeagueStatus::parse(&status)
            .ok_or_else(|| StoreError::Invalid(format!("league status {status:?}")))?,
        round: r.get(17)?,
        round_started_at: r.get(18)?,
        created_at: r.get(19)?,
        started_at: r.get(20)?,
        finished_at: r.get(21)?,
        version: r.get(22)?,
    })
}

pub(super) fn player_row(r: &Row) -> Result<LeaguePlayerRow> {
    Ok(LeaguePlayerRow {
        league: r.get(0)?,
        user: r.get(1)?,
        joined_at: r.get(2)?,
        status: r.get(3)?,
        left_at: r.get(4)?,
        seed: r.get(5)?,
    })
}

pub(super) fn pairing_row(r: &Row) -> Result<PairingRow> {
    Ok(PairingRow {
        league: r.get(0)?,
        round: r.get(1)?,
        board: r.get(2)?,
        first: r.get(3)?,
        second: r.get(4)?,
        game: r.get(5)?,
        outcome: r.get(6)?,
    })
}

pub(super) fn conditional_row(r: &Row) -> Result<ConditionalRow> {
    Ok(ConditionalRow {
        id: r.get(0)?,
        game: r.get(1)?,
        user: r.get(2)?,
        ply: r.get(3)?,
        position: r.get(4)?,
        moves: split_moves(&r.get::<String>(5)?),
        created_at: r.get(6)?,
    })
}

pub(super) fn follow_row(r: &Row) -> Result<FollowRow> {
    Ok(FollowRow {
        game: r.get(0)?,
        user: r.get(1)?,
        notify: r.get(2)?,
        seen_ply: r.get(3)?,
        seen_over: r.get(4)?,
        joined_thread: r.get(5)?,
        created_at: r.get(6)?,
    })
}
