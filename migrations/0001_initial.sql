-- Tegami's first schema: games with their cached position and version, the append-only move
-- log, challenges, offers (draw, takeback, impasse) and per-user settings.
-- Times are Unix seconds (UTC). User, guild, channel and thread ids are plain strings.

CREATE TABLE users (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    style       TEXT NOT NULL DEFAULT 'kanji' CHECK (style IN ('kanji', 'international')),
    notify      TEXT NOT NULL DEFAULT 'mention' CHECK (notify IN ('mention', 'dm', 'digest')),
    created_at  INTEGER NOT NULL
);

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    variant         TEXT NOT NULL,
    -- handicap or named setup, if any
    setup           TEXT,
    start_position  TEXT NOT NULL,
    -- the first player (Black / Red) and the second
    first_player    TEXT NOT NULL REFERENCES users(id),
    second_player   TEXT NOT NULL REFERENCES users(id),
    guild           TEXT,
    channel         TEXT,
    thread          TEXT,
    status          TEXT NOT NULL CHECK (status IN ('active', 'finished')),
    -- 'first', 'second' or 'draw' once finished
    result          TEXT CHECK (result IN ('first', 'second', 'draw')),
    reason          TEXT,
    rated           INTEGER NOT NULL DEFAULT 0,
    days_per_move   INTEGER NOT NULL,
    deadline        INTEGER,
    -- the position after the last move, and how many moves were played
    position        TEXT NOT NULL,
    ply             INTEGER NOT NULL DEFAULT 0,
    -- the user whose turn it is (while active)
    to_move         TEXT,
    -- bumped by every change; a change names the version it saw (optimistic concurrency)
    version         INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    finished_at     INTEGER
);

CREATE INDEX games_first_player ON games (first_player, status);
CREATE INDEX games_second_player ON games (second_player, status);
CREATE INDEX games_deadline ON games (deadline) WHERE status = 'active';

-- Append-only: rows are never deleted or changed, except that a takeback marks the moves it
-- takes back.
CREATE TABLE moves (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    ply         INTEGER NOT NULL,
    code        TEXT NOT NULL,
    notation    TEXT NOT NULL,
    position    TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users(id),
    played_at   INTEGER NOT NULL,
    taken_back  INTEGER NOT NULL DEFAULT 0
);

CREATE UNIQUE INDEX moves_live ON moves (game_id, ply) WHERE taken_back = 0;

CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    challenger      TEXT NOT NULL REFERENCES users(id),
    -- NULL for an open challenge anyone may accept
    challenged      TEXT REFERENCES users(id),
    variant         TEXT NOT NULL,
    -- the challenger's side: 'first', 'second' or 'random'
    color           TEXT NOT NULL CHECK (color IN ('first', 'second', 'random')),
    days_per_move   INTEGER NOT NULL,
    handicap        TEXT,
    setup           TEXT,
    rated           INTEGER NOT NULL,
    guild           TEXT,
    channel         TEXT,
    status          TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id         INTEGER REFERENCES games(id),
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL
);

CREATE INDEX challenges_open ON challenges (status, expires_at);

CREATE TABLE offers (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    kind        TEXT NOT NULL CHECK (kind IN ('draw', 'takeback', 'impasse')),
    from_user   TEXT NOT NULL REFERENCES users(id),
    -- the game's ply when the offer was made: a move makes it stale
    ply         INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
);
