-- Every notice a command decides (a move, an accepted challenge, a resignation, an offer) goes
-- into the outbox in the same transaction as the change, not only the sweep's. The core picks
-- each notice's id before the transaction (so the adapter can mark it sent once Discord took
-- it; ids grow with time), and says which game it is about (it is posted in that game's
-- thread).
ALTER TABLE outbox ADD COLUMN game_id INTEGER;
