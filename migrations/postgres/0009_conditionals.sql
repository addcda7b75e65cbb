-- Issue 23: conditional moves. A line a player leaves in a game ("if you play X, I play Y"):
-- the moves to come from the game's position after `ply` moves (`position`, as it was when the
-- line was made, so that a line a takeback left behind is recognised), alternately the
-- opponent's and the player's, their codes joined by single spaces in `moves`. A line is stored
-- once (the UNIQUE constraint, with `ON CONFLICT DO NOTHING`, however many processes store it);
-- its index, which leads with `game_id`, also finds a game's lines. Games are never deleted.
CREATE TABLE conditionals (
    id          BIGSERIAL PRIMARY KEY,
    game_id     BIGINT NOT NULL REFERENCES games(id),
    user_id     TEXT NOT NULL,
    ply         BIGINT NOT NULL,
    position    TEXT NOT NULL,
    moves       TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    UNIQUE (game_id, user_id, ply, moves)
);
