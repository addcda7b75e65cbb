-- Correspondence play: reminders, vacations, an outbox of notifications, ratings, server settings.

-- Whether the player to move was reminded of the current deadline (a move resets it).
ALTER TABLE games ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;

-- A user's current vacation end and the time of their last daily digest.
ALTER TABLE users ADD COLUMN vacation_until INTEGER;
ALTER TABLE users ADD COLUMN last_digest_at INTEGER;

-- Vacations taken, for the allowance of 14 days a month.
CREATE TABLE vacations (
    id          INTEGER PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id),
    start_at    INTEGER NOT NULL,
    end_at      INTEGER NOT NULL
);
CREATE INDEX vacations_user ON vacations (user_id, start_at);

-- Notifications decided by the sweep, written in the same transaction as what they announce,
-- and marked sent once delivered: a restart loses none.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY,
    user_id     TEXT NOT NULL,
    via         TEXT NOT NULL CHECK (via IN ('mention', 'dm')),
    channel     TEXT,
    text        TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    sent_at     INTEGER
);
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;

-- Glicko-2 ratings per user, game and server ('' when played outside a server).
CREATE TABLE ratings (
    user_id     TEXT NOT NULL REFERENCES users(id),
    variant     TEXT NOT NULL,
    guild       TEXT NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (user_id, variant, guild)
);
CREATE INDEX ratings_board ON ratings (variant, guild, rating DESC);

-- Server settings.
CREATE TABLE servers (
    guild           TEXT PRIMARY KEY,
    default_days    INTEGER NOT NULL DEFAULT 3,
    rated_default   INTEGER NOT NULL DEFAULT 0,
    games_channel   TEXT
);

-- Games whose reminder is due are found by deadline among the active ones.
CREATE INDEX games_reminder ON games (deadline) WHERE status = 'active' AND reminded = 0;
