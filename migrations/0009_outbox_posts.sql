-- Issue 20: the public announcement of a move is an outbox row like every notice ('post': its
-- board is drawn again at `ply` when it is delivered late), and a notice that no way could
-- deliver (the game's thread and channel gone, direct messages closed, no server channel) is
-- set aside with the reason (`undelivered`), marked sent so it is not tried again, and shown
-- to its player by `games`.
--
-- SQLite cannot change a CHECK constraint in place: the table is made again.
CREATE TABLE outbox_new (
    id            INTEGER PRIMARY KEY,
    user_id       TEXT NOT NULL,
    via           TEXT NOT NULL CHECK (via IN ('mention', 'dm', 'post')),
    channel       TEXT,
    text          TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    sent_at       INTEGER,
    game_id       INTEGER,
    claimed_by    TEXT,
    claimed_until INTEGER,
    ply           INTEGER,
    undelivered   TEXT
);
INSERT INTO outbox_new (id, user_id, via, channel, text, created_at, sent_at, game_id,
                        claimed_by, claimed_until)
    SELECT id, user_id, via, channel, text, created_at, sent_at, game_id, claimed_by,
           claimed_until
    FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
CREATE INDEX outbox_undelivered ON outbox (user_id, created_at) WHERE undelivered IS NOT NULL;
