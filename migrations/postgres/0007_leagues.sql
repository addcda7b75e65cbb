-- Issue 22: server leagues. A league (round robin, double round robin or Swiss) of one game,
-- its players, and its pairings, round by round: each pairing is a game of the `games` table
-- (NULL while a later round of a round robin played round by round waits, and for a bye), or an
-- outcome the league decided without the board (a forfeit, an annulled game, an adjudication).
CREATE TABLE leagues (
    id                BIGSERIAL PRIMARY KEY,
    guild             TEXT NOT NULL,
    channel           TEXT,
    thread            TEXT,
    name              TEXT NOT NULL,
    variant           TEXT NOT NULL,
    days_per_move     BIGINT NOT NULL,
    format            TEXT NOT NULL CHECK (format IN ('round-robin', 'double-round-robin', 'swiss')),
    rounds            BIGINT,
    rated             BOOLEAN NOT NULL DEFAULT FALSE,
    schedule          TEXT NOT NULL DEFAULT 'rounds' CHECK (schedule IN ('all', 'rounds')),
    round_days        BIGINT,
    max_players       BIGINT,
    rating_min        BIGINT,
    rating_max        BIGINT,
    creator           TEXT NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round             BIGINT NOT NULL DEFAULT 0,
    round_started_at  BIGINT,
    created_at        BIGINT NOT NULL,
    started_at        BIGINT,
    finished_at       BIGINT,
    version           BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX leagues_guild ON leagues (guild, id);
CREATE INDEX leagues_running ON leagues (id) WHERE status = 'running';

CREATE TABLE league_players (
    league     BIGINT NOT NULL REFERENCES leagues(id),
    user_id    TEXT NOT NULL,
    joined_at  BIGINT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'withdrawn', 'removed')),
    left_at    BIGINT,
    seed       BIGINT,
    PRIMARY KEY (league, user_id)
);

CREATE TABLE league_pairings (
    league   BIGINT NOT NULL REFERENCES leagues(id),
    round    BIGINT NOT NULL,
    board    BIGINT NOT NULL,
    first    TEXT NOT NULL,
    second   TEXT,
    game_id  BIGINT REFERENCES games(id),
    outcome  TEXT,
    PRIMARY KEY (league, round, board)
);
CREATE INDEX league_pairings_game ON league_pairings (game_id);
