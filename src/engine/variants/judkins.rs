//! Judkins Shogi (`seeds/judkins-shogi.txt`): Shogi on 6x6 without lances, a two-rank zone.

use crate::engine::piece::PieceKind::*;
use crate::engine::variant::*;

const LETTERS: &[Letter] = &[
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
        kind: Tokin,
        code: "+P",
        human: "+P",
    },
];

pub fn spec() -> VariantSpec {
    let base = super::shogi::spec();
    VariantSpec {
        id: VariantId::Judkins,
        name: "Judkins Shogi",
        board: BoardShape { files: 6, ranks: 6 },
        pieces: PieceSet {
            letters: LETTERS,
            hand_order: &[Rook, Bishop, Gold, Silver, Knight, Pawn],
        },
        promotion: PromotionRules {
            pairs: &[
                (Pawn, Tokin),
                (Knight, PromotedKnight),
                (Silver, PromotedSilver),
                (Bishop, Horse),
                (Rook, Dragon),
            ],
            zone_depth: 2,
            stuck: &[(Pawn, 1), (Knight, 2)],
            ..base.promotion
        },
        end: EndRules {
            impasse: Some(ImpasseRule {
                threshold: 12,
                big: &[Rook, Bishop],
            }),
            ..base.end
        },
        start: "rbnsgk/5p/6/6/P5/KGSNBR b - 1",
        handicaps: &[
            Handicap {
                name: "bishop",
                description: "White's bishop",
                remove: &["5a"],
            },
            Handicap {
                name: "rook",
                description: "White's rook",
                remove: &["6a"],
            },
            Handicap {
                name: "two",
                description: "White's rook and bishop",
                remove: &["6a", "5a"],
            },
        ],
        ..base
    }
}
