-- Names per server (issue 20): `users.name` is a user's global display name, and a user's
-- nickname in a server is kept for that server only, so that it is never shown in another one
-- or in direct messages. A row exists only while the user has a nickname there (as last seen
-- with a command of theirs sent there, or named in one). Names stored before this change may
-- still be a nickname in `users.name`: the user's next command puts their global name back.
CREATE TABLE server_names (
    guild       TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users (id),
    name        TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (guild, user_id)
);
