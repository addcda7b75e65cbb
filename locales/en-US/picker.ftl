# The move picker (issue 50): a move made by pointing, step by step, in a message only the
# player sees. Labels say what each choice leads to, as the player writes it.

play-button-move = Move
pick-menu-pieces = Pieces that can move
pick-menu-hand = Pieces in hand (drops)
pick-menu-squares = Squares
pick-menu-range = { $what } { $first }–{ $last }
pick-piece = { $piece } { $square }
pick-piece-moves = { $count ->
    [one] 1 move
   *[other] { $count } moves
}
pick-drop = Drop: { $piece } ({ $count } in hand)
pick-drop-squares = { $count ->
    [one] 1 square
   *[other] { $count } squares
}
pick-start = Game #{ $id }: your move ({ $side }). Pick a piece to move, or a piece in hand to drop.
pick-squares = Game #{ $id }: { $what }. Pick a square ({ $count ->
    [one] 1 choice
   *[other] { $count } choices
}, marked on the board).
pick-piece-where = where your { $piece } on { $square } goes
pick-drop-where = where to drop your { $piece }
pick-second-step = your lion's second step, or stop where it took
pick-stop = Stop there
pick-finish = Game #{ $id }: how the move ends.
pick-promote = Promote: { $mv }
pick-no-promote = Do not promote: { $mv }
pick-confirm = Game #{ $id }: play { $mv } ({ $code })?
pick-play = Play { $mv } ({ $code })
pick-back = Back
pick-cancel = Cancel
pick-previous = Previous
pick-next = Next
pick-fresh = Open a fresh picker
pick-stale = Game #{ $id } has moved on since this picker was opened (it was at move { $seen }, it is at move { $now } now): nothing was played.
pick-stale-over = Game #{ $id } is over: nothing was played.
pick-closed = Picker closed: nothing was played.
pick-expired = This picker has expired (a picker lasts 15 minutes): nothing was played. Press Move on the board again.
