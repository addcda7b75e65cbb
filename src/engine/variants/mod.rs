//! One module per game: each builds its `VariantSpec`. This module also holds the registry
//! (`Variant::get`), which builds each variant's tables once.

pub mod cannon;
pub mod judkins;
pub mod palace;
pub mod shanghai;
pub mod shogi;

use std::sync::OnceLock;

use crate::engine::variant::{Variant, VariantId, VariantSpec};

static VARIANTS: [OnceLock<Variant>; 5] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// The registry: each variant is built from its spec on first use.
impl Variant {
    /// The variant for an id, built on first use.
    pub fn get(id: VariantId) -> &'static Variant {
        VARIANTS[id as usize].get_or_init(|| {
            let spec = match id {
                VariantId::Shogi => shogi::spec(),
                VariantId::Judkins => judkins::spec(),
                VariantId::Cannon => cannon::spec(),
                VariantId::Palace => palace::spec(),
                VariantId::Shanghai => shanghai::spec(),
            };
            Variant::build(spec)
        })
    }
}

impl VariantId {
    pub fn variant(self) -> &'static Variant {
        Variant::get(self)
    }
}

/// A plain-text description of a game's pieces, letters and notation (`tegami rules`).
pub fn describe(v: &Variant) -> String {
    let s: &VariantSpec = &v.spec;
    let mut out = format!(
        "{} ({}x{}), variant id '{}'. {} moves first.\n\nPieces (letter in position strings / in human notation):\n",
        s.name,
        s.board.files,
        s.board.ranks,
        s.id,
        capitalise(s.sides[0])
    );
    for l in s.pieces.letters {
        out.push_str(&format!(
            "  {:<4} {:<4} {}\n",
            l.code,
            l.human,
            v.piece_name(l.kind)
        ));
    }
    out.push_str(&format!(
        "\nPromotion zone: the {} farthest ranks.\n",
        s.promotion.zone_depth
    ));
    out.push_str(
        "\nMoves: move codes like 7g7f, 7c7b+ (promoting), P*5e (drop); or Hodges notation like\n\
         P-7f, Px7f, S-4b+ / S-4b= (promote or not), G6i-5h (start square when two pieces could\n\
         go), S*5e (drop). P-76 (numeric rank) is read too.\n",
    );
    if !s.handicaps.is_empty() {
        out.push_str("\nHandicaps (White's pieces removed; White moves first):\n");
        for h in s.handicaps {
            out.push_str(&format!("  {:<11} {}\n", h.name, h.description));
        }
    }
    if let Some(i) = s.end.impasse {
        out.push_str(&format!(
            "\nImpasse by agreement once both kings are in their zones: {} points needed.\n",
            i.threshold
        ));
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// How one piece of a game moves, in a few sentences (`tegami rules V PIECE`, `/rules`).
pub fn describe_piece(v: &Variant, k: crate::engine::PieceKind) -> String {
    use crate::engine::PieceKind::*;
    let palace = v.id() == crate::engine::VariantId::Palace;
    let shanghai = v.id() == crate::engine::VariantId::Shanghai;
    let moves = match k {
        King if palace => "one step in any direction. Kings may not face each other on an open file. A legal king move into the enemy palace wins at once (entering king). Castling: with an unmoved lance and nothing between, the king goes two squares toward it and the lance to the square the king passed; not out of, across or into check.",
        King => "one step in any direction.",
        Gold | Tokin | PromotedLance | PromotedKnight | PromotedSilver => "one step orthogonally or diagonally forward (six squares), like a gold general.",
        Silver => "one step diagonally or straight forward (five squares).",
        Knight if palace => "the horse: jumps two squares forward and one to the side (the shogi knight); promotes to the knight on a move ending in the zone.",
        Knight => "jumps two squares forward and one to the side, over anything; must promote on the last two ranks.",
        Lance if palace => "any number of empty squares straight forward; promotes to the cannon on a move ending in the zone.",
        Lance => "any number of empty squares straight forward; must promote on the last rank.",
        Bishop => "any number of empty squares diagonally.",
        Rook => "any number of empty squares orthogonally.",
        Horse => "as a bishop, plus one step orthogonally.",
        Dragon => "as a rook, plus one step diagonally.",
        Pawn => "one step forward; must promote on the last rank. Not dropped on a file with another of your unpromoted pawns, nor to give mate directly.",
        SidePawn => "one step forward or sideways; must promote on the last rank. Drop rules as the shogi pawn.",
        GoldCannon => "along its orthogonal lines, but only after jumping at least one piece (any number, kings too); lands or captures on any square past the first piece jumped.",
        CopperCannon => "along its diagonal lines, but only after jumping at least one piece (any number, kings too); lands or captures on any square past the first piece jumped.",
        SilverCannon => "only by jumping an occupied orthogonally adjacent square to the square just beyond, moving or capturing there.",
        IronCannon => "only by jumping an occupied diagonally adjacent square to the square just beyond, moving or capturing there.",
        PromotedGoldCannon | PromotedCopperCannon | PromotedSilverCannon | PromotedIronCannon => "as before promotion, plus one step in any direction.",
        Footsoldier => "one step forward; on its four farthest ranks also one step sideways (only sideways on the last rank); in the enemy palace also diagonally forward from corridor to corridor. Dropped only on your four nearest ranks, never giving mate; at most five on the board.",
        PalacePawn => "as a chess pawn: one step forward (two from its start rank), captures one step diagonally forward, en passant; becomes a queen on the last rank.",
        PalaceCannon => "as a rook without capturing; captures by hopping exactly one piece (never a cannon, never capturing a cannon). In the enemy palace it also slides along the corridors and captures corner to corner over the centre.",
        ChessKnight => "as the chess knight: two squares one way and one the other, jumping.",
        Elephant => "as a bishop, plus one step orthogonally, plus a jump two squares diagonally (the alfil).",
        PalaceDragon => "as a rook, plus one step diagonally; in the enemy palace it also slides along the corridors.",
        Queen if palace => "inside her own palace only one step diagonally (also to step out); outside, any number of squares in any direction, but a slide into her own palace stops on its first square. May promote to the lion in the zone while her side has none.",
        Queen => "any number of empty squares in any direction (the Western queen).",
        Lion => "up to two king steps in one turn: jumps to any square within two, may capture on the first step and go on (capturing again, or back home: stationary feeding), or stare (pass) next to an empty square. Never captures a lion.",
        XiangqiKing => "one step orthogonally, never leaving its palace; the two kings may not face each other on an open file.",
        Guard => "one step diagonally, never leaving its palace.",
        XiangqiElephant => "exactly two squares diagonally, unless the square between is occupied; never beyond its own rank 5.",
        XiangqiCannon => "as a rook without capturing; captures by hopping exactly one piece of either side.",
        XiangqiPawn => "one step forward; from its own rank 5 on also one step sideways; never back.",
        WesternRook => "any number of empty squares orthogonally (the Western rook).",
        WesternBishop => "any number of empty squares diagonally (the Western bishop).",
        WesternPawn => "one step forward, captures one step diagonally forward; no double step; on the last rank it must become a Western queen, rook, bishop or knight.",
    };
    let extra = if shanghai && matches!(k, Pawn | Lance | Knight | Silver | Bishop | Rook) {
        " Promotion zone: ranks 5 to 9 (yours). Captured, it goes to the capturer's hand."
    } else {
        ""
    };
    let letter = v.letter(k).map_or("?", |l| l.human);
    format!(
        "{} ({letter}) in {}: {moves}{extra}\n",
        capitalise(v.piece_name(k)),
        v.spec.name
    )
}
