-- Several processes on one database (issue 14): a notice is held by the process that queued or
-- claimed it until `claimed_until` (Unix seconds), which that process keeps pushing forward while
-- it runs. Another process takes a notice only once its hold has lapsed (its holder stopped), so
-- no notice is delivered by two processes. NULL: held by nobody (rows from before this change,
-- or let go at a clean shutdown).
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until INTEGER;
