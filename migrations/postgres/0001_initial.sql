-- Tegami's schema on PostgreSQL: the same tables as SQLite's migrations 0001-0005 reach, in
-- one step. Times are Unix seconds (UTC); user, guild, channel and thread ids are plain text.

CREATE TABLE users (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL,
    style           TEXT NOT NULL DEFAULT 'kanji' CHECK (style IN ('kanji', 'international')),
    notify          TEXT NOT NULL DEFAULT 'mention' CHECK (notify IN ('mention', 'dm', 'digest')),
    created_at      BIGINT NOT NULL,
    vacation_until  BIGINT,
    last_digest_at  BIGINT
);

CREATE TABLE games (
    id              BIGSERIAL PRIMARY KEY,
    variant         TEXT NOT NULL,
    setup           TEXT,
    start_position  TEXT NOT NULL,
    first_player    TEXT NOT NULL REFERENCES users(id),
    second_player   TEXT NOT NULL REFERENCES users(id),
    guild           TEXT,
    channel         TEXT,
    thread          TEXT,
    status          TEXT NOT NULL CHECK (status IN ('active', 'finished')),
    result          TEXT CHECK (result IN ('first', 'second', 'draw')),
    reason          TEXT,
    rated           BOOLEAN NOT NULL DEFAULT FALSE,
    days_per_move   BIGINT NOT NULL,
    deadline        BIGINT,
    position        TEXT NOT NULL,
    ply             BIGINT NOT NULL DEFAULT 0,
    to_move         TEXT,
    version         BIGINT NOT NULL DEFAULT 0,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    finished_at     BIGINT,
    reminded        BOOLEAN NOT NULL DEFAULT FALSE,
    computer_level  BIGINT
);

CREATE INDEX games_first_player ON games (first_player, status);
CREATE INDEX games_second_player ON games (second_player, status);
CREATE INDEX games_deadline ON games (deadline) WHERE status = 'active';
CREATE INDEX games_reminder ON games (deadline) WHERE status = 'active' AND NOT reminded;
CREATE INDEX games_to_move ON games (to_move) WHERE status = 'active';
CREATE INDEX games_computer_to_move ON games (to_move)
    WHERE computer_level IS NOT NULL AND status = 'active';

CREATE TABLE moves (
    id          BIGSERIAL PRIMARY KEY,
    game_id     BIGINT NOT NULL REFERENCES games(id),
    ply         BIGINT NOT NULL,
    code        TEXT NOT NULL,
    notation    TEXT NOT NULL,
    position    TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users(id),
    played_at   BIGINT NOT NULL,
    taken_back  BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE UNIQUE INDEX moves_live ON moves (game_id, ply) WHERE NOT taken_back;

CREATE TABLE challenges (
    id              BIGSERIAL PRIMARY KEY,
    challenger      TEXT NOT NULL REFERENCES users(id),
    challenged      TEXT REFERENCES users(id),
    variant         TEXT NOT NULL,
    color           TEXT NOT NULL CHECK (color IN ('first', 'second', 'random')),
    days_per_move   BIGINT NOT NULL,
    handicap        TEXT,
    setup           TEXT,
    rated           BOOLEAN NOT NULL,
    guild           TEXT,
    channel         TEXT,
    status          TEXT NOT NULL
        CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    game_id         BIGINT REFERENCES games(id),
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL
);

CREATE INDEX challenges_open ON challenges (status, expires_at);

CREATE TABLE offers (
    game_id     BIGINT NOT NULL REFERENCES games(id),
    kind        TEXT NOT NULL CHECK (kind IN ('draw', 'takeback', 'impasse')),
    from_user   TEXT NOT NULL REFERENCES users(id),
    ply         BIGINT NOT NULL,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (game_id, kind)
);

CREATE TABLE vacations (
    id          BIGSERIAL PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id),
    start_at    BIGINT NOT NULL,
    end_at      BIGINT NOT NULL
);
CREATE INDEX vacations_user ON vacations (user_id, start_at);

-- Ids are chosen by the core (random, positive), as on SQLite.
CREATE TABLE outbox (
    id          BIGINT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    via         TEXT NOT NULL CHECK (via IN ('mention', 'dm')),
    channel     TEXT,
    text        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    sent_at     BIGINT,
    game_id     BIGINT
);
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;

CREATE TABLE ratings (
    user_id     TEXT NOT NULL REFERENCES users(id),
    variant     TEXT NOT NULL,
    guild       TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL DEFAULT 0,
    wins        BIGINT NOT NULL DEFAULT 0,
    losses      BIGINT NOT NULL DEFAULT 0,
    draws       BIGINT NOT NULL DEFAULT 0,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, variant, guild)
);
CREATE INDEX ratings_board ON ratings (variant, guild, rating DESC);

CREATE TABLE servers (
    guild           TEXT PRIMARY KEY,
    default_days    BIGINT NOT NULL DEFAULT 3,
    rated_default   BOOLEAN NOT NULL DEFAULT FALSE,
    games_channel   TEXT
);
