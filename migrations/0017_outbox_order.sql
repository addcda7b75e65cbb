-- Issue 49: 0009 made `outbox` again (SQLite cannot change a CHECK constraint in place) and
-- brought back its index `outbox_unsent` on `id` alone, as before 0007: every claim then sorted
-- all unsent notices by `created_at`. The index of 0007 again, as PostgreSQL has it: notices are
-- claimed in the order they were made, `created_at` then id, found by this index.
DROP INDEX IF EXISTS outbox_unsent;
CREATE INDEX outbox_unsent ON outbox (created_at, id) WHERE sent_at IS NULL;
