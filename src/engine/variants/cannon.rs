//! Cannon Shogi (`seeds/cannon-shogi.txt`), with the text's cannons as `rules.md` spells them
//! out (not the later Xiangqi-style cannons of other sites): silver (orthogonal) and iron
//! (diagonal) cannons jump an adjacent piece; gold (orthogonal) and copper (diagonal) cannons
//! range over any number of pieces. Pawns also step sideways.

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
        kind: GoldCannon,
        code: "U",
        human: "GC",
    },
    Letter {
        kind: SilverCannon,
        code: "A",
        human: "SC",
    },
    Letter {
        kind: CopperCannon,
        code: "C",
        human: "CC",
    },
    Letter {
        kind: IronCannon,
        code: "I",
        human: "IC",
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
        kind: SidePawn,
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
        kind: PromotedGoldCannon,
        code: "+U",
        human: "+GC",
    },
    Letter {
        kind: PromotedSilverCannon,
        code: "+A",
        human: "+SC",
    },
    Letter {
        kind: PromotedCopperCannon,
        code: "+C",
        human: "+CC",
    },
    Letter {
        kind: PromotedIronCannon,
        code: "+I",
        human: "+IC",
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

pub fn spec() -> VariantSpec {
    let base = super::shogi::spec();
    const CANNONS_AND_MAJORS: &[crate::engine::PieceKind] = &[
        Rook,
        Bishop,
        GoldCannon,
        SilverCannon,
        CopperCannon,
        IronCannon,
    ];
    VariantSpec {
        id: VariantId::Cannon,
        name: "Cannon Shogi",
        pieces: PieceSet {
            letters: LETTERS,
            hand_order: &[
                Rook,
                Bishop,
                GoldCannon,
                SilverCannon,
                CopperCannon,
                IronCannon,
                Gold,
                Silver,
                Knight,
                Lance,
                SidePawn,
            ],
        },
        promotion: PromotionRules {
            pairs: &[
                (SidePawn, Tokin),
                (Lance, PromotedLance),
                (Knight, PromotedKnight),
                (Silver, PromotedSilver),
                (Bishop, Horse),
                (Rook, Dragon),
                (GoldCannon, PromotedGoldCannon),
                (SilverCannon, PromotedSilverCannon),
                (CopperCannon, PromotedCopperCannon),
                (IronCannon, PromotedIronCannon),
            ],
            zone_depth: 3,
            // The pawn also steps sideways, but the text still forces its promotion on the last
            // rank and forbids dropping it there.
            stuck: &[(SidePawn, 1), (Lance, 1), (Knight, 2)],
            ..base.promotion
        },
        drops: DropRules {
            pawn: Some(SidePawn),
            ..base.drops
        },
        end: EndRules {
            impasse: Some(ImpasseRule {
                threshold: 38,
                big: CANNONS_AND_MAJORS,
            }),
            ..base.end
        },
        start: "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL b - 1",
        // The text's handicaps are Shogi's: White's rook stands on 8b and bishop on 2b here too.
        ..base
    }
}
