//! The colours of the board images, and of the league pictures in the same palette. Marks that
//! players rely on (the last move, a king in check, a reachable square in a diagram, the
//! leader's row) are flat fills of one exact colour, so tests can look for them in the decoded
//! image.

/// An RGB colour.
pub type Rgb3 = [u8; 3];

/// Around the board and behind the players' strips.
pub const BACKGROUND: Rgb3 = [0xf3, 0xee, 0xe4];
/// The strip of the side to move.
pub const TURN_STRIP: Rgb3 = [0xe4, 0xec, 0xd2];
/// Board squares of the plain (shogi) board and of Shanghai Palace Chess.
pub const WOOD: Rgb3 = [0xe3, 0xb8, 0x6c];
/// Palace Shogi's dark squares.
pub const DARK_SQUARE: Rgb3 = [0xc8, 0x96, 0x55];
/// Palace Shogi's light squares (the colour of 5h).
pub const LIGHT_SQUARE: Rgb3 = [0xee, 0xd2, 0x9a];
/// Corridors (light squares of a palace) of the first player's palace (Black's: slate).
pub const CORRIDOR_FIRST: Rgb3 = [0x9b, 0xa9, 0xb8];
/// Corridors of the second player's palace (White's: ivory).
pub const CORRIDOR_SECOND: Rgb3 = [0xfa, 0xf5, 0xe8];
/// Shanghai palace squares: the first player's (Red's) and the second's (Blue's), lightly tinted.
pub const PALACE_FIRST: Rgb3 = [0xec, 0xa8, 0x84];
pub const PALACE_SECOND: Rgb3 = [0xbd, 0xc0, 0xd8];
/// The river (Shanghai Palace Chess, rank 5).
pub const RIVER: Rgb3 = [0xa8, 0xd0, 0xe0];
/// Lines along the river's banks.
pub const RIVER_BANK: Rgb3 = [0x3d, 0x7f, 0xa6];
/// Grid lines and the board's frame.
pub const GRID: Rgb3 = [0x4a, 0x36, 0x1f];
/// Palace outlines and their diagonal lines.
pub const PALACE_LINE: Rgb3 = [0x6b, 0x1f, 0x12];
/// Coordinates around the board.
pub const COORD: Rgb3 = [0x6b, 0x5a, 0x46];

/// The last move's squares (both squares of a board move, the square of a drop, a lion's path).
pub const HIGHLIGHT: Rgb3 = [0xb9, 0xd9, 0x5b];
/// The square of a king in check.
pub const CHECK: Rgb3 = [0xf0, 0x5a, 0x4a];
/// A square a piece can reach, in a piece-move diagram (a dot on an empty square, a ring around
/// an occupied one).
pub const TARGET: Rgb3 = [0x2e, 0x8b, 0x57];
/// The square of the piece a player picked (the move picker).
pub const SELECTED: Rgb3 = [0x7f, 0xc8, 0xe8];
/// The dots and rings that mark where a picked piece can go, and their rim.
pub const DOT: Rgb3 = [0x1d, 0x5c, 0x3a];
pub const DOT_RIM: Rgb3 = [0xfb, 0xf7, 0xee];

/// Shogi wedges.
pub const WEDGE_FILL: Rgb3 = [0xfb, 0xe9, 0xc2];
pub const WEDGE_EDGE: Rgb3 = [0x5a, 0x40, 0x22];
pub const SHADOW: Rgb3 = [0x3a, 0x28, 0x14];
/// Characters of unpromoted pieces.
pub const INK: Rgb3 = [0x1c, 0x17, 0x12];
/// Characters of promoted pieces.
pub const PROMOTED: Rgb3 = [0xc8, 0x12, 0x1e];
/// The Palace Shogi lion (its text draws it in gold).
pub const GOLD: Rgb3 = [0xb0, 0x7d, 0x00];

/// Shanghai Palace Chess sides: Red (first) and Blue (second).
pub const RED: Rgb3 = [0xc4, 0x26, 0x1e];
pub const BLUE: Rgb3 = [0x1f, 0x55, 0xb5];
/// Xiangqi discs.
pub const DISC_FILL: Rgb3 = [0xf8, 0xec, 0xd2];
/// Outlines of Western figures.
pub const FIGURE_EDGE: Rgb3 = [0x1a, 0x16, 0x14];

/// Names and labels.
pub const TEXT: Rgb3 = [0x26, 0x20, 0x1a];
pub const TEXT_DIM: Rgb3 = [0x7a, 0x6e, 0x60];
/// The "to move" chip.
pub const TURN_CHIP: Rgb3 = [0x3f, 0x7d, 0x2a];
/// The chip when the side to move is in check.
pub const CHECK_CHIP: Rgb3 = [0xc6, 0x28, 0x28];
/// The count badge on pieces in hand, and its text.
pub const BADGE: Rgb3 = [0x2b, 0x24, 0x1d];
pub const BADGE_TEXT: Rgb3 = [0xff, 0xff, 0xff];

/// League pictures (standings and crosstable): the header row's band and its words.
pub const TABLE_HEADER: Rgb3 = [0x4a, 0x36, 0x1f];
pub const TABLE_HEADER_TEXT: Rgb3 = [0xfb, 0xf3, 0xe2];
/// Every other row of a table (the others are [`BACKGROUND`]).
pub const ROW_SHADE: Rgb3 = [0xea, 0xe2, 0xd2];
/// The leader's row (place 1), and the mark at its left end.
pub const LEADER_ROW: Rgb3 = [0xf5, 0xe6, 0xb4];
pub const LEADER_MARK: Rgb3 = GOLD;
/// The words of a withdrawn player's row, and the line through the name.
pub const WITHDRAWN: Rgb3 = [0xa6, 0x9c, 0x90];
/// A crosstable's diagonal (a player against themself).
pub const DIAGONAL: Rgb3 = [0x6b, 0x5a, 0x46];
/// The lines between a crosstable's result cells.
pub const CELL_LINE: Rgb3 = [0xd3, 0xc8, 0xb5];
