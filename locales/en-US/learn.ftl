# The rules pages (`rules GAME`) and the hints after a refused move (src/service/learn.rs).

learn-title = **{ $name }: how to play.** Two players, { $first } and { $second }; { $first } moves first.
learn-goal-head = **Goal and endings**
learn-goal-shogi = Checkmate the enemy king: attack it so that no move saves it. A king is never captured, and no move may leave your own king attacked. A game also ends by resignation or on time; a position met for the fourth time is a draw (lost by a player who checked with every move); the king that enters the enemy camp may win by declaration (27 points, `declare`); both kings in the enemy camps: an impasse by agreement (24 points needed).
learn-goal-judkins = Checkmate the enemy king. A player with no legal move loses. A position met for the fourth time is a draw (lost by a player who checked with every move); resignation and time end it too; both kings in the enemy camps: an impasse by agreement (12 points needed).
learn-goal-cannon = Checkmate the enemy king. A cannon checks over other pieces: its check cannot be blocked. A player with no legal move loses; a position met for the fourth time is a draw (lost by a player who checked with every move); both kings in the enemy camps: an impasse by agreement (38 points needed).
learn-goal-palace = Checkmate the enemy king, or walk your king into the enemy palace by a legal move: that wins at once (entering king). A player with no legal move and not in check draws; a position met for the fourth time is a draw. Kings may never face each other on an open file.
learn-goal-shanghai = Checkmate the enemy king, the Chinese king in its palace. A player with no legal move loses, and no move may bring a position about for the third time. Kings may never face each other on an open file.
learn-board-head = **The board** (first picture)
learn-board-side = Drawn for the player to move: your pieces at the bottom on your turn (the `board` setting keeps one side there). Marked on it:
learn-zone-promotion = { $side }'s promotion zone: ranks { $from } to { $to }
learn-zone-shogi-promotion = { $side }'s promotion zone for the shogi pieces: ranks { $from } to { $to }
learn-zone-palace-palace = { $side }'s palace (light squares: corridors); a king entering the enemy's wins
learn-zone-palace-shanghai = { $side }'s palace (its king and guards never leave it)
learn-zone-river = the river, rank 5: elephants never cross it
learn-pieces-head = **The pieces** (second picture: how each moves; `rules { $id } PIECE` tells more)
learn-pieces = { $pieces }.
learn-captures-head = **Captured pieces**
learn-captures-shogi = A captured piece changes sides: it goes to the capturer's hand, unpromoted, and may later be dropped on any empty square as a move (`P*5e`), except a pawn on a file with another of your unpromoted pawns, a pawn that mates at once, or a piece where it could never move.
learn-captures-judkins = { learn-captures-shogi }
learn-captures-cannon = { learn-captures-shogi } Cannons drop on any empty square.
learn-captures-palace = Some captured pieces are killed (footsoldier, lance, horse, bishop, rook, silver, queen, lion); the promoted ones are held and come back as their simple piece: a pawn drops as a footsoldier, a cannon as a lance, a knight as a horse, an elephant as a bishop, a dragon as a rook, a gold as a silver (`P*5e`). At most five footsoldiers on the board.
learn-captures-shanghai = Captured shogi pieces go to the capturer's hand and drop as in shogi (`F*e5`); captured Western and Chinese pieces are gone for good.
learn-special-head = **Special moves**
learn-special-shogi = Promotion: a piece that moves into, within or out of the last three ranks may turn over (add `+`, or `=` to decline); a pawn or lance on the last rank and a knight on the last two must. Drops, as above.
learn-special-judkins = Promotion in the last two ranks (add `+`, or `=` to decline); drops, as above.
learn-special-cannon = Cannons jump: the gold and copper cannons along their lines over at least one piece, the silver and iron cannons over one adjacent piece. Promotion in the last three ranks (`+`, `=`); drops, as above.
learn-special-palace = Castling with an unmoved lance: written as the king's move (`K-7i`, `5i7i`). Pawns start promoted (`+P`): a pawn steps one forward (two from its start rank), captures diagonally, takes en passant, and becomes a queen on the last rank. The queen may promote to the lion (`Ln`), which moves twice: `Ln5ex5d-5c`. Lance, horse, bishop and rook must promote in the zone.
learn-special-shanghai = A Western pawn on the last rank becomes a Western queen, rook, bishop or knight (`c9=Q`). Shogi pieces promote in their zone (`+`, or `=` to decline). Each army keeps its own moves.
learn-writing-head = **Writing moves**
learn-handicaps = Odds when challenging: `handicap={ $names }` (White's pieces are removed; White moves first).
learn-writing-shogi = Hodges notation: piece letter, `-` (or `x` for a capture), the square (file number from the right, rank letter from the top): `P-7f`, `Px7f`, `S*5e`; or the move code `7g7f`; or Japanese: `７六歩`, `76歩`.
learn-writing-judkins = { learn-writing-shogi }
learn-writing-cannon = As in shogi (`P-7f`, `7g7f`, `７六歩`); the cannons are `GC`, `SC`, `CC`, `IC`: `SC-5e`.
learn-writing-palace = As in shogi (`+P-7f`, `7g7f`, `７六兵`); the lion is `Ln`, castling is the king's move (`K-7i`).
learn-writing-shanghai = Algebraic, as chess: file letter from Red's left, rank number from Red's side: `Nf3`, `Ze4`, `e2e4`; a Western pawn's move is just its square (`e4`); drops `F*e5`. Letters: Western `Q R B N` and no letter for the pawn, Chinese `K A E C Z`, shogi `L H S D T F`.
learn-first-head = **Three moves you can play now**
learn-first = { $moves }
learn-which-piece = '{ $piece }' is several pieces of this game: { $choices }. Which one?
learn-hint-no-castling = there is no castling in { $game }.
learn-hint-castling-not-now = Castling is written as the king's move two squares toward an unmoved lance (`K-7i`, `5i7i`); it is not possible now.
learn-hint-castling = Castling is written as the king's move: { $moves }.
learn-hint-shogi-squares = In { $game } a square is a file number (1-{ $files }, counted from the right) and a rank letter (a-{ $last }, from the top): { $typed } is { $square } here. Try { $moves }.
learn-hint-palace-pawns = Palace Shogi's pawns start promoted (`+P`, 兵); `P` is the footsoldier, which comes only from a drop. Try { $moves }.
learn-hint-moves-to = To { $square } you can move your { $pieces }: { $moves }.
learn-hint-some-moves = Moves you can play now: { $moves }.
learn-challenge-became = there is no game #{ $id }: challenge #{ $id } became game #{ $game }, so write `move { $game } …`
learn-challenge-waiting = #{ $id } is a challenge still waiting to be accepted, not a game
learn-game-made = (Challenge #{ $challenge } made game #{ $id }: its moves are `move { $id } …`.)
learn-board-turns = The picture is drawn for the player to move, so each of you sees their own pieces at the bottom on their turn (`settings board=black` keeps one side at the bottom).
learn-bad-board = '{ $value }' is not a board side: choose black, white (red, blue in Shanghai) or turn
learn-settings-board-turn = Board: drawn for the player to move (your pieces at the bottom on your turn).
learn-settings-board-black = Board: the first player (Black, Red) always at the bottom.
learn-settings-board-white = Board: the second player (White, Blue) always at the bottom.
