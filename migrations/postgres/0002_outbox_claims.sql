-- Several processes on one database: a notice is held by the process that queued or claimed it
-- until `claimed_until` (Unix seconds), which that process keeps pushing forward while it runs.
-- Another process takes a notice only once its hold has lapsed (its holder stopped); claiming
-- goes through `FOR UPDATE SKIP LOCKED`, so two processes claiming at once never take the same
-- row. NULL: held by nobody (let go at a clean shutdown).
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until BIGINT;
