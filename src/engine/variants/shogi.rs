//! Shogi (`seeds/shogi.txt`), with the usual JSA rules where the text is brief.

use crate::engine::piece::PieceKind::*;
use crate::engine::variant::*;

pub(crate) const LETTERS: &[Letter] = &[
    Letter {
        kind: King,
        code: "K",
        human: "K",
    },
    Letter {
        kind: Rook,
        code: "R",
        human: "R",
    },
    Letter {
        kind: Bishop,
        code: "B",
        human: "B",
    },
    Letter {
        kind: Gold,
        code: "G",
        human: "G",
    },
    Letter {
        kind: Silver,
        code: "S",
        human: "S",
    },
    Letter {
        kind: Knight,
        code: "N",
        human: "N",
    },
    Letter {
        kind: Lance,
        code: "L",
        human: "L",
    },
    Letter {
        kind: Pawn,
        code: "P",
        human: "P",
    },
    Letter {
        kind: Dragon,
        code: "+R",
        human: "+R",
    },
    Letter {
        kind: Horse,
        code: "+B",
        human: "+B",
    },
    Letter {
        kind: PromotedSilver,
        code: "+S",
        human: "+S",
    },
    Letter {
        kind: PromotedKnight,
        code: "+N",
        human: "+N",
    },
    Letter {
        kind: PromotedLance,
        code: "+L",
        human: "+L",
    },
    Letter {
        kind: Tokin,
        code: "+P",
        human: "+P",
    },
];

pub(crate) const PAIRS: &[(crate::engine::PieceKind, crate::engine::PieceKind)] = &[
    (Pawn, Tokin),
    (Lance, PromotedLance),
    (Knight, PromotedKnight),
    (Silver, PromotedSilver),
    (Bishop, Horse),
    (Rook, Dragon),
];

/// The base every shogi-like game starts from.
pub fn spec() -> VariantSpec {
    VariantSpec {
        id: VariantId::Shogi,
        name: "Shogi",
        board: BoardShape { files: 9, ranks: 9 },
        squares: SquareNames::Shogi,
        pieces: PieceSet {
            letters: LETTERS,
            hand_order: &[Rook, Bishop, Gold, Silver, Knight, Lance, Pawn],
        },
        promotion: PromotionRules {
            pairs: PAIRS,
            zone_depth: 3,
            stuck: &[(Pawn, 1), (Lance, 1), (Knight, 2)],
            mandatory: &[],
            unique: &[],
            transform: &[],
            choices: &[],
        },
        drops: DropRules {
            enabled: true,
            pawn: Some(Pawn),
            pawn_file_ranks: 9,
            pawn_mate: DropMate::PawnInFront,
            max_pawns: None,
            held: None,
            demotions: &[],
            zones: &[],
        },
        end: EndRules {
            stalemate: StalemateRule::Loss,
            repetition: RepetitionRule::Sennichite,
            impasse: Some(ImpasseRule {
                threshold: 24,
                big: &[Rook, Bishop],
            }),
        },
        start: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        handicaps: &[
            Handicap {
                name: "lance",
                description: "White's left lance",
                remove: &["1a"],
            },
            Handicap {
                name: "bishop",
                description: "White's bishop",
                remove: &["2b"],
            },
            Handicap {
                name: "rook",
                description: "White's rook",
                remove: &["8b"],
            },
            Handicap {
                name: "rook-lance",
                description: "White's rook and left lance",
                remove: &["8b", "1a"],
            },
            Handicap {
                name: "two",
                description: "White's rook and bishop",
                remove: &["8b", "2b"],
            },
            Handicap {
                name: "four",
                description: "White's rook, bishop and both lances",
                remove: &["8b", "2b", "1a", "9a"],
            },
            Handicap {
                name: "six",
                description: "White's rook, bishop, both lances and both knights",
                remove: &["8b", "2b", "1a", "9a", "2a", "8a"],
            },
        ],
        sides: ["black", "white"],
        rights_fields: false,
        confinement: &[],
        setups: &[],
        names: &[],
    }
}
