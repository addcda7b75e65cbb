-- Issue 23: conditional moves. A line a player leaves in a game ("if you play X, I play Y"):
-- the moves to come from the game's position after `ply` moves (`position`, as it was when the
-- line was made, so that a line a takeback left behind is recognised), alternately the
-- opponent's and the player's, their codes joined by single spaces in `moves`. A line is stored
-- once (the UNIQUE constraint, with `ON CONFLICT DO NOTHING`, however many processes store it);
-- its index, which leads with `game_id`, also finds a game's lines. Games are never deleted.
-- AUTOINCREMENT: an id is never given again (a plain rowid reuses the ids of the last rows
-- deleted), so that a rewrite that deletes lines by id, made from an old read, never deletes a
-- newer line instead.
CREATE TABLE conditionals (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    user_id     TEXT NOT NULL,
    ply         INTEGER NOT NULL,
    position    TEXT NOT NULL,
    moves       TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    UNIQUE (game_id, user_id, ply, moves)
);
