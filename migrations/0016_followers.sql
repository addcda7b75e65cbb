-- Issue 23: followers of games and the daily list. (0015 is the clocks work's.)
--
-- A follower of a game (`follow 12`), told of it by `notify`: `thread` (made a member of the
-- game's thread; `joined_thread` is the thread they were added to, so that a new thread, after
-- the old one was lost, gets them too), `digest` (the game's moves and end in their daily
-- digest) or `ping` (a mention at each move: `seen_ply` and `seen_over` are the game as they
-- were last told of it). One row per game and follower; games are never deleted.
CREATE TABLE followers (
    game_id        INTEGER NOT NULL REFERENCES games(id),
    user_id        TEXT NOT NULL REFERENCES users(id),
    notify         TEXT NOT NULL CHECK (notify IN ('thread', 'digest', 'ping')),
    seen_ply       INTEGER NOT NULL,
    seen_over      INTEGER NOT NULL DEFAULT 0,
    joined_thread  TEXT,
    created_at     INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX followers_user ON followers (user_id);
CREATE INDEX followers_ping ON followers (game_id) WHERE notify = 'ping';
CREATE INDEX followers_thread ON followers (game_id) WHERE notify = 'thread';

-- The daily digest at a player's hour in their zone: `digest_hour` (0-23; NULL: 24 hours
-- after the last digest, as before), `timezone` (an IANA name; NULL: UTC), and when the next
-- digest is due, computed by the core (`next_digest_at`; NULL: none planned). The sweep finds
-- the digests due by that time.
ALTER TABLE users ADD COLUMN digest_hour INTEGER CHECK (digest_hour BETWEEN 0 AND 23);
ALTER TABLE users ADD COLUMN timezone TEXT;
ALTER TABLE users ADD COLUMN next_digest_at INTEGER;
CREATE INDEX users_next_digest ON users (next_digest_at) WHERE next_digest_at IS NOT NULL;
