-- Games waiting for a given player (digests, vacations) are found by index, not by a scan.
CREATE INDEX games_to_move ON games (to_move) WHERE status = 'active';
