//! Shanghai Palace Chess (`seeds/shanghai-palace-chess.txt`; the lost setups are reconstructed
//! in `rules.md`). Chinese pieces confined to palace or own half, Western pieces with pawns that
//! must promote to a Western piece, Shogi pieces that promote from rank 5 and return from the
//! hand. Red (the first player, `Color::Black` inside the engine) is at the bottom.
//!
//! Decision (rules.md is brief here): "not a Shogi pawn that checkmates at once" follows the
//! shogi rule as Cannon Shogi reads it: a Shogi pawn dropped directly in front of the king that
//! mates is illegal; a drop that mates only by becoming a cannon's screen is legal.

use crate::engine::piece::PieceKind::*;
use crate::engine::variant::*;

const LETTERS: &[Letter] = &[
    Letter {
        kind: XiangqiKing,
        code: "K",
        human: "K",
    },
    Letter {
        kind: Guard,
        code: "A",
        human: "A",
    },
    Letter {
        kind: XiangqiElephant,
        code: "E",
        human: "E",
    },
    Letter {
        kind: XiangqiCannon,
        code: "C",
        human: "C",
    },
    Letter {
        kind: XiangqiPawn,
        code: "Z",
        human: "Z",
    },
    Letter {
        kind: Queen,
        code: "Q",
        human: "Q",
    },
    Letter {
        kind: WesternRook,
        code: "R",
        human: "R",
    },
    Letter {
        kind: WesternBishop,
        code: "B",
        human: "B",
    },
    Letter {
        kind: ChessKnight,
        code: "N",
        human: "N",
    },
    Letter {
        kind: WesternPawn,
        code: "P",
        human: "P",
    },
    Letter {
        kind: Lance,
        code: "L",
        human: "L",
    },
    Letter {
        kind: Knight,
        code: "H",
        human: "H",
    },
    Letter {
        kind: Silver,
        code: "S",
        human: "S",
    },
    Letter {
        kind: Bishop,
        code: "D",
        human: "D",
    },
    Letter {
        kind: Rook,
        code: "T",
        human: "T",
    },
    Letter {
        kind: Pawn,
        code: "F",
        human: "F",
    },
    Letter {
        kind: Tokin,
        code: "+F",
        human: "+F",
    },
    Letter {
        kind: PromotedLance,
        code: "+L",
        human: "+L",
    },
    Letter {
        kind: PromotedKnight,
        code: "+H",
        human: "+H",
    },
    Letter {
        kind: PromotedSilver,
        code: "+S",
        human: "+S",
    },
    Letter {
        kind: Horse,
        code: "+D",
        human: "+D",
    },
    Letter {
        kind: Dragon,
        code: "+T",
        human: "+T",
    },
];

const ORIGINAL: &str = "lneakaehl/rbncqcsdt/pppzzzfff/9/9/9/PPPZZZFFF/RBNCQCSDT/LNEAKAEHL b - 1";
const SMITH: &str = "lheakaenl/tdscqcnbr/fffzzzppp/9/9/9/PPPZZZFFF/RBNCQCSDT/LNEAKAEHL b - 1";

pub fn spec() -> VariantSpec {
    let base = super::shogi::spec();
    VariantSpec {
        id: VariantId::Shanghai,
        name: "Shanghai Palace Chess",
        squares: SquareNames::Western,
        pieces: PieceSet {
            letters: LETTERS,
            hand_order: &[Rook, Bishop, Silver, Knight, Lance, Pawn],
        },
        promotion: PromotionRules {
            pairs: super::shogi::PAIRS,
            zone_depth: 5,
            stuck: &[(Pawn, 1), (Lance, 1), (Knight, 2), (WesternPawn, 1)],
            mandatory: &[],
            unique: &[],
            transform: &[],
            choices: &[(
                WesternPawn,
                &[Queen, WesternRook, WesternBishop, ChessKnight],
            )],
        },
        drops: DropRules {
            held: Some(&[
                Pawn,
                Lance,
                Knight,
                Silver,
                Bishop,
                Rook,
                Tokin,
                PromotedLance,
                PromotedKnight,
                PromotedSilver,
                Horse,
                Dragon,
            ]),
            ..base.drops
        },
        end: EndRules {
            stalemate: StalemateRule::Loss,
            repetition: RepetitionRule::ThirdForbidden,
            impasse: None,
        },
        start: ORIGINAL,
        handicaps: &[],
        sides: ["red", "blue"],
        confinement: &[
            (XiangqiKing, Region::OwnPalace),
            (Guard, Region::OwnPalace),
            (XiangqiElephant, Region::Nearest(5)),
        ],
        setups: &[
            Setup {
                name: "original",
                description: "the inventor's mirrored setup: each family faces its own kind",
                position: ORIGINAL,
            },
            Setup {
                name: "smith",
                description:
                    "L. Lynn Smith's non-mirrored setup: the Shogi bishops share a diagonal",
                position: SMITH,
            },
        ],
        names: &[
            (XiangqiKing, "king"),
            (XiangqiElephant, "elephant"),
            (XiangqiPawn, "Chinese soldier"),
            (Queen, "Western queen"),
            (WesternPawn, "Western pawn"),
            (WesternRook, "Western rook"),
            (WesternBishop, "Western bishop"),
            (ChessKnight, "Western knight"),
            (Pawn, "shogi pawn"),
            (Knight, "shogi knight"),
            (Bishop, "shogi bishop"),
            (Rook, "shogi rook"),
            (Lance, "shogi lance"),
            (Silver, "shogi silver"),
        ],
        ..base
    }
}
