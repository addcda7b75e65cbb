-- Games against the computer (issue 13): the computer's level (1-5) in such a game, NULL in a
-- game between two people. The computer's seat is the player whose id is the bot's own.
ALTER TABLE games ADD COLUMN computer_level INTEGER;

-- The computer's moves due at start: active computer games by whose turn it is.
CREATE INDEX games_computer_to_move ON games (to_move)
    WHERE computer_level IS NOT NULL AND status = 'active';
