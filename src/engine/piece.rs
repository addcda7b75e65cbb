//! The piece catalogue: every kind of piece of the games Tegami plays, each with its movement
//! atoms. A kind knows how it moves and what it promotes to; which kinds a game uses, their
//! letters and their promotion and drop rules belong to the variant (`variant.rs`).

use crate::engine::Color;

/// How a movement atom may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Moves to an empty square or captures on it.
    Both,
    /// Only to an empty square.
    MoveOnly,
    /// Only to capture.
    CaptureOnly,
}

/// A relative step `(dx, dy)` seen from the piece's owner: `dy > 0` is forward.
pub type Offset = (i8, i8);

/// One way of moving.
#[derive(Clone, Copy, Debug)]
pub enum Atom {
    /// To the square at each offset, ignoring whatever stands between (a step when the offset
    /// is adjacent, a leap like the knight's otherwise).
    Leap(&'static [Offset], Mode),
    /// Like `Leap`, but only from the mover's `n` farthest ranks (the Palace Shogi
    /// footsoldier's and the Xiangqi pawn's sideways steps).
    LeapIn(&'static [Offset], Mode, u8),
    /// Like `Leap` over two squares, but blocked by a piece on the square between (the Xiangqi
    /// elephant's "eye").
    Lame(&'static [Offset], Mode),
    /// Any number of empty squares along each direction, then optionally a capture.
    Slide(&'static [Offset], Mode),
    /// Cannon Shogi's silver and iron cannons: only by jumping an occupied adjacent square to the
    /// square just beyond, moving or capturing there.
    CannonJump(&'static [Offset]),
    /// A Xiangqi-style cannon's capture: along the line over exactly one piece (the screen) to
    /// the first piece beyond it, which it captures. (Its non-capturing move is a `Slide` with
    /// `Mode::MoveOnly`.)
    Hop(&'static [Offset]),
    /// Cannon Shogi's gold and copper cannons: along the line, having passed over at least one
    /// piece (any number of pieces, of either side, kings included), to any square beyond the
    /// first piece passed, moving or capturing there.
    CannonRange(&'static [Offset]),
}

pub const ORTH: &[Offset] = &[(0, 1), (0, -1), (1, 0), (-1, 0)];
pub const DIAG: &[Offset] = &[(1, 1), (-1, 1), (1, -1), (-1, -1)];
pub const KING: &[Offset] = &[
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];
pub const GOLD: &[Offset] = &[(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1)];
pub const SILVER: &[Offset] = &[(0, 1), (1, 1), (-1, 1), (1, -1), (-1, -1)];
pub const SHOGI_KNIGHT: &[Offset] = &[(1, 2), (-1, 2)];
pub const FORWARD: &[Offset] = &[(0, 1)];
pub const FORWARD_DIAG: &[Offset] = &[(1, 1), (-1, 1)];
pub const CHESS_KNIGHT: &[Offset] = &[
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (-2, 1),
    (2, -1),
    (-2, -1),
];
pub const ALFIL: &[Offset] = &[(2, 2), (-2, 2), (2, -2), (-2, -2)];
/// Every square within two king steps.
pub const LION: &[Offset] = &[
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
    (0, 2),
    (0, -2),
    (2, 0),
    (-2, 0),
    (2, 2),
    (-2, 2),
    (2, -2),
    (-2, -2),
    (1, 2),
    (-1, 2),
    (1, -2),
    (-1, -2),
    (2, 1),
    (-2, 1),
    (2, -1),
    (-2, -1),
];
pub const FORWARD_SIDEWAYS: &[Offset] = &[(0, 1), (1, 0), (-1, 0)];
pub const SIDEWAYS: &[Offset] = &[(1, 0), (-1, 0)];

macro_rules! kinds {
    ($($kind:ident = $name:literal, $kanji:literal;)*) => {
        /// Every kind of piece in the catalogue. Promoted forms are kinds of their own.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum PieceKind { $($kind,)* }

        impl PieceKind {
            pub const ALL: &'static [PieceKind] = &[$(PieceKind::$kind,)*];

            /// English name, as used in messages ("your silver on 4h ...").
            pub fn name(self) -> &'static str {
                match self { $(PieceKind::$kind => $name,)* }
            }

            /// The traditional characters written on the piece.
            pub fn kanji(self) -> &'static str {
                match self { $(PieceKind::$kind => $kanji,)* }
            }
        }
    };
}

kinds! {
    Pawn = "pawn", "歩";
    Lance = "lance", "香";
    Knight = "knight", "桂";
    Silver = "silver", "銀";
    Gold = "gold", "金";
    Bishop = "bishop", "角";
    Rook = "rook", "飛";
    King = "king", "玉";
    Tokin = "tokin", "と";
    PromotedLance = "promoted lance", "杏";
    PromotedKnight = "promoted knight", "圭";
    PromotedSilver = "promoted silver", "全";
    Horse = "horse", "馬";
    Dragon = "dragon", "龍";
    SidePawn = "pawn", "歩";
    GoldCannon = "gold cannon", "金砲";
    SilverCannon = "silver cannon", "銀砲";
    CopperCannon = "copper cannon", "銅砲";
    IronCannon = "iron cannon", "鉄砲";
    PromotedGoldCannon = "promoted gold cannon", "成金砲";
    PromotedSilverCannon = "promoted silver cannon", "成銀砲";
    PromotedCopperCannon = "promoted copper cannon", "成銅砲";
    PromotedIronCannon = "promoted iron cannon", "成鉄砲";
    Footsoldier = "footsoldier", "卒";
    PalacePawn = "pawn", "兵";
    PalaceCannon = "cannon", "砲";
    ChessKnight = "knight", "騎";
    Elephant = "elephant", "象";
    PalaceDragon = "dragon", "龍";
    Queen = "queen", "后";
    Lion = "lion", "獅";
    XiangqiKing = "king", "帥";
    Guard = "guard", "仕";
    XiangqiElephant = "elephant", "相";
    XiangqiCannon = "cannon", "炮";
    XiangqiPawn = "pawn", "兵";
    WesternRook = "rook", "車";
    WesternBishop = "bishop", "教";
    WesternPawn = "pawn", "P";
}

/// The family a kind belongs to, which decides how it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Shogi pieces: wedges pointing at the opponent.
    Shogi,
    /// Xiangqi pieces: discs with a character.
    Xiangqi,
    /// Western chess pieces: figures.
    Western,
}

/// Number of kinds in the catalogue.
pub const NUM_KINDS: usize = PieceKind::ALL.len();

impl PieceKind {
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// How the piece is drawn. Palace Shogi's pieces are all wedges (the text says so); in
    /// Shanghai Palace Chess each family keeps its own look. The Palace Shogi queen and the
    /// Western queen are one kind: the variant decides which family it is drawn in.
    pub fn family(self) -> Family {
        use PieceKind::*;
        match self {
            XiangqiKing | Guard | XiangqiElephant | XiangqiCannon | XiangqiPawn => Family::Xiangqi,
            WesternRook | WesternBishop | WesternPawn => Family::Western,
            _ => Family::Shogi,
        }
    }

    /// How the piece moves, seen from its owner.
    pub fn atoms(self) -> &'static [Atom] {
        use Atom::*;
        use PieceKind::*;
        const GOLD_MOVER: &[Atom] = &[Leap(GOLD, Mode::Both)];
        match self {
            Pawn => &[Leap(FORWARD, Mode::Both)],
            SidePawn => &[Leap(FORWARD_SIDEWAYS, Mode::Both)],
            Lance => &[Slide(FORWARD, Mode::Both)],
            Knight => &[Leap(SHOGI_KNIGHT, Mode::Both)],
            Silver => &[Leap(SILVER, Mode::Both)],
            Gold | Tokin | PromotedLance | PromotedKnight | PromotedSilver => GOLD_MOVER,
            Bishop => &[Slide(DIAG, Mode::Both)],
            Rook => &[Slide(ORTH, Mode::Both)],
            King => &[Leap(KING, Mode::Both)],
            Horse => &[Slide(DIAG, Mode::Both), Leap(ORTH, Mode::Both)],
            Dragon => &[Slide(ORTH, Mode::Both), Leap(DIAG, Mode::Both)],
            GoldCannon => &[CannonRange(ORTH)],
            CopperCannon => &[CannonRange(DIAG)],
            SilverCannon => &[CannonJump(ORTH)],
            IronCannon => &[CannonJump(DIAG)],
            PromotedGoldCannon => &[CannonRange(ORTH), Leap(KING, Mode::Both)],
            PromotedCopperCannon => &[CannonRange(DIAG), Leap(KING, Mode::Both)],
            PromotedSilverCannon => &[CannonJump(ORTH), Leap(KING, Mode::Both)],
            PromotedIronCannon => &[CannonJump(DIAG), Leap(KING, Mode::Both)],
            Footsoldier => &[Leap(FORWARD, Mode::Both), LeapIn(SIDEWAYS, Mode::Both, 4)],
            XiangqiPawn => &[Leap(FORWARD, Mode::Both), LeapIn(SIDEWAYS, Mode::Both, 5)],
            PalacePawn | WesternPawn => &[
                Leap(FORWARD, Mode::MoveOnly),
                Leap(FORWARD_DIAG, Mode::CaptureOnly),
            ],
            PalaceCannon | XiangqiCannon => &[Slide(ORTH, Mode::MoveOnly), Hop(ORTH)],
            ChessKnight => &[Leap(CHESS_KNIGHT, Mode::Both)],
            Elephant => &[
                Slide(DIAG, Mode::Both),
                Leap(ORTH, Mode::Both),
                Leap(ALFIL, Mode::Both),
            ],
            PalaceDragon => &[Slide(ORTH, Mode::Both), Leap(DIAG, Mode::Both)],
            Queen => &[Slide(KING, Mode::Both)],
            Lion => &[Leap(LION, Mode::Both)],
            XiangqiKing => &[Leap(ORTH, Mode::Both)],
            Guard => &[Leap(DIAG, Mode::Both)],
            XiangqiElephant => &[Lame(ALFIL, Mode::Both)],
            WesternRook => &[Slide(ORTH, Mode::Both)],
            WesternBishop => &[Slide(DIAG, Mode::Both)],
        }
    }

    /// Whether this kind is a king: never captured, its safety decides check and mate.
    pub fn is_royal(self) -> bool {
        matches!(self, PieceKind::King | PieceKind::XiangqiKing)
    }

    /// Whether this kind is the promoted form of another.
    pub fn is_promoted(self) -> bool {
        use PieceKind::*;
        matches!(
            self,
            Tokin
                | PromotedLance
                | PromotedKnight
                | PromotedSilver
                | Horse
                | Dragon
                | PromotedGoldCannon
                | PromotedSilverCannon
                | PromotedCopperCannon
                | PromotedIronCannon
                | PalacePawn
                | PalaceCannon
                | ChessKnight
                | Elephant
                | PalaceDragon
                | Lion
        )
    }
}

/// A piece: a kind and its owner. Packed in one byte as it lies in the mailbox (`2 + kind * 2 +
/// color`; 0 is an empty cell and 1 a wall cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub kind: PieceKind,
    pub color: Color,
}

/// An empty mailbox cell.
pub const EMPTY: u8 = 0;
/// A mailbox cell outside the board.
pub const WALL: u8 = 1;
/// Number of distinct cell codes.
pub const CODES: usize = 2 + NUM_KINDS * 2;

impl Piece {
    pub const fn new(kind: PieceKind, color: Color) -> Piece {
        Piece { kind, color }
    }

    #[inline]
    pub fn code(self) -> u8 {
        2 + self.kind as u8 * 2 + self.color as u8
    }

    /// The piece in a cell, if the cell holds one.
    #[inline]
    pub fn from_code(code: u8) -> Option<Piece> {
        if code < 2 || code as usize >= CODES {
            return None;
        }
        let c = code - 2;
        Some(Piece {
            kind: PieceKind::from_index((c >> 1) as usize),
            color: Color::from_index((c & 1) as usize),
        })
    }
}

/// The colour of the piece in a non-empty, non-wall cell.
#[inline]
pub(crate) fn code_color(code: u8) -> usize {
    (code & 1) as usize
}

/// Whether a cell holds a piece (neither empty nor wall).
#[inline]
pub(crate) fn is_piece(code: u8) -> bool {
    code >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_round_trip() {
        for &k in PieceKind::ALL {
            for c in Color::ALL {
                let p = Piece::new(k, c);
                assert_eq!(Piece::from_code(p.code()), Some(p));
                assert_eq!(code_color(p.code()), c.index());
            }
        }
        assert_eq!(Piece::from_code(EMPTY), None);
        assert_eq!(Piece::from_code(WALL), None);
    }
}
