-- Issue 21: the language and move notation a player chose (NULL: not chosen: the language of
-- their Discord client, kept in `locale` from their last command, and the notation that goes
-- with the language); the language a server's managers chose for its public posts (NULL: the
-- server's Discord locale, kept in `server_locales` from the last command sent there: a table
-- of its own, so that keeping it does not create a settings row with the schema's defaults).
ALTER TABLE users ADD COLUMN language TEXT;
ALTER TABLE users ADD COLUMN notation TEXT;
ALTER TABLE users ADD COLUMN locale TEXT;
ALTER TABLE servers ADD COLUMN language TEXT;
CREATE TABLE server_locales (
    guild   TEXT PRIMARY KEY,
    locale  TEXT NOT NULL
);
