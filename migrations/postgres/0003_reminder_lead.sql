-- Reminders that help (issue 20): a player is reminded once per move, at the later of "their
-- lead before the deadline" and "half the time per move after the move". The lead is theirs to
-- choose in hours (`settings remind=12`); NULL is the default (24 hours), 0 turns reminders off.
ALTER TABLE users ADD COLUMN remind_hours BIGINT;

-- The games past half their time per move (among the active ones not yet reminded) are found
-- by index; the player's lead is then checked on each (the sweep's `reminders_due`). This
-- replaces the index on the deadline alone, which the old rule ("24 hours before") used.
DROP INDEX IF EXISTS games_reminder;
CREATE INDEX games_half_time ON games ((deadline - days_per_move * 43200))
    WHERE status = 'active' AND NOT reminded;

-- Notice ids no longer grow across the change of id scheme (ids made before it are larger than
-- those made after): the outbox is delivered in the order notices were made, `created_at` then
-- id, found by this index.
DROP INDEX IF EXISTS outbox_unsent;
CREATE INDEX outbox_unsent ON outbox (created_at, id) WHERE sent_at IS NULL;
