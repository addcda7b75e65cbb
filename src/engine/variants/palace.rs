//! Palace Shogi (`seeds/palace-shogi.txt`; setup and decisions in `rules.md`). Most of it is
//! data; the palaces, the queen's walls, the lion, the pawn's double step and en passant,
//! corridor moves and castling are hooks in `engine/palace.rs`.

use crate::engine::piece::PieceKind::*;
use crate::engine::variant::*;

const LETTERS: &[Letter] = &[
    Letter {
        kind: King,
        code: "K",
        human: "K",
    },
    Letter {
        kind: Queen,
        code: "Q",
        human: "Q",
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
        kind: Footsoldier,
        code: "P",
        human: "P",
    },
    Letter {
        kind: Lion,
        code: "+Q",
        human: "Ln",
    },
    Letter {
        kind: PalaceDragon,
        code: "+R",
        human: "+R",
    },
    Letter {
        kind: Elephant,
        code: "+B",
        human: "+B",
    },
    Letter {
        kind: PromotedSilver,
        code: "+S",
        human: "+S",
    },
    Letter {
        kind: ChessKnight,
        code: "+N",
        human: "+N",
    },
    Letter {
        kind: PalaceCannon,
        code: "+L",
        human: "+L",
    },
    Letter {
        kind: PalacePawn,
        code: "+P",
        human: "+P",
    },
];

pub fn spec() -> VariantSpec {
    let base = super::shogi::spec();
    VariantSpec {
        id: VariantId::Palace,
        name: "Palace Shogi",
        pieces: PieceSet {
            letters: LETTERS,
            hand_order: &[Rook, Bishop, Silver, Knight, Lance, Footsoldier],
        },
        promotion: PromotionRules {
            pairs: &[
                (Lance, PalaceCannon),
                (Knight, ChessKnight),
                (Bishop, Elephant),
                (Rook, PalaceDragon),
                (Silver, PromotedSilver),
                (Queen, Lion),
            ],
            zone_depth: 3,
            stuck: &[],
            mandatory: &[Lance, Knight, Bishop, Rook],
            unique: &[Lion],
            transform: &[(PalacePawn, Queen)],
            choices: &[],
        },
        drops: DropRules {
            enabled: true,
            pawn: Some(Footsoldier),
            pawn_file_ranks: 6,
            pawn_mate: DropMate::Any,
            max_pawns: Some(5),
            held: Some(&[PalacePawn, PalaceCannon, ChessKnight, Elephant, PalaceDragon, PromotedSilver]),
            demotions: &[(PalacePawn, Footsoldier)],
            zones: &[
                (Footsoldier, DropZone::Nearest(4)),
                (Lance, DropZone::Nearest(5)),
                (Knight, DropZone::Nearest(5)),
                (Bishop, DropZone::Nearest(5)),
                (Rook, DropZone::Nearest(6)),
                (Silver, DropZone::NotEnemyPalace),
            ],
        },
        end: EndRules {
            stalemate: StalemateRule::Draw,
            repetition: RepetitionRule::FourfoldDraw,
            impasse: None,
        },
        start: "lns+sk+ssnl/1r2q2b1/+p+p+p+p+p+p+p+p+p/9/9/9/+P+P+P+P+P+P+P+P+P/1B2Q2R1/LNS+SK+SSNL b - 1 9i1i9a1a -",
        handicaps: &[],
        rights_fields: true,
        // The text's names: the shogi knight is the horse, the chess knight its promotion;
        // the promoted silver is the gold.
        names: &[(Knight, "horse"), (PromotedSilver, "gold")],
        ..base
    }
}
