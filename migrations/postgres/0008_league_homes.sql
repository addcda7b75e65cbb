-- Issue 22: a league's public posts name their league in the outbox (`league_id`), so that a
-- post delivered late finds the league's home (its thread, else its channel) and its standings
-- picture; whether a server's members may create leagues (`servers.leagues`, on by default).
ALTER TABLE outbox ADD COLUMN league_id BIGINT;
ALTER TABLE servers ADD COLUMN leagues BOOLEAN NOT NULL DEFAULT TRUE;
