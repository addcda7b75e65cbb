-- Issue 20: the public announcement of a move is an outbox row like every notice ('post': its
-- board is drawn again at `ply` when it is delivered late), and a notice that no way could
-- deliver is set aside with the reason (`undelivered`), marked sent so it is not tried again,
-- and shown to its player by `games`.
ALTER TABLE outbox DROP CONSTRAINT outbox_via_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_via_check CHECK (via IN ('mention', 'dm', 'post'));
ALTER TABLE outbox ADD COLUMN ply BIGINT;
ALTER TABLE outbox ADD COLUMN undelivered TEXT;
CREATE INDEX outbox_undelivered ON outbox (user_id, created_at) WHERE undelivered IS NOT NULL;
