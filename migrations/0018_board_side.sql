-- Issue 51: the side a player keeps at the bottom of the pictures (`black` or `white`, the
-- first or the second player; `red`/`blue` are read as those); NULL: the side to move, so that
-- each player sees their own pieces at the bottom on their turn.
ALTER TABLE users ADD COLUMN board TEXT;
