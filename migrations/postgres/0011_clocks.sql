-- Issue 23: richer clocks. A game, a challenge and a league have a time control: `per-move`
-- (`days_per_move` days for every move, as every game before had), `increment` (a bank that
-- starts at `days_per_move` days and gains `increment_days` after each move, up to `cap_days`)
-- or `byoyomi` (a main bank of `days_per_move` days, then each move within `period_days`).
ALTER TABLE games ADD COLUMN clock TEXT NOT NULL DEFAULT 'per-move';
ALTER TABLE games ADD COLUMN increment_days BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN cap_days BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN period_days BIGINT NOT NULL DEFAULT 0;
-- Each player's bank in seconds (increment, byoyomi): the player to move's as it stood when
-- their turn began (their deadline tells what is left now), the other's as it stands.
ALTER TABLE games ADD COLUMN bank_first BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN bank_second BIGINT NOT NULL DEFAULT 0;
-- The seconds the player to move had for this turn when it began (their bank, and the period
-- in byoyomi; the days per move otherwise): a reminder comes once half of it has gone.
ALTER TABLE games ADD COLUMN turn_span BIGINT NOT NULL DEFAULT 0;
UPDATE games SET turn_span = days_per_move * 86400;

-- Reminders are found by "half the turn's time gone", whatever the clock.
DROP INDEX IF EXISTS games_half_time;
CREATE INDEX games_half_time ON games ((deadline - turn_span / 2))
    WHERE status = 'active' AND NOT reminded;

ALTER TABLE challenges ADD COLUMN clock TEXT NOT NULL DEFAULT 'per-move';
ALTER TABLE challenges ADD COLUMN increment_days BIGINT NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN cap_days BIGINT NOT NULL DEFAULT 0;
ALTER TABLE challenges ADD COLUMN period_days BIGINT NOT NULL DEFAULT 0;

ALTER TABLE leagues ADD COLUMN clock TEXT NOT NULL DEFAULT 'per-move';
ALTER TABLE leagues ADD COLUMN increment_days BIGINT NOT NULL DEFAULT 0;
ALTER TABLE leagues ADD COLUMN cap_days BIGINT NOT NULL DEFAULT 0;
ALTER TABLE leagues ADD COLUMN period_days BIGINT NOT NULL DEFAULT 0;
