//! The engine's vocabulary in each language: games, sides, pieces, results. The engine itself
//! speaks only in ids and enums (and English for the command line); these put them into words
//! for players. Messages in `locales/*/engine.ftl`.

use crate::engine::{Color, Outcome, PieceKind, Reason, Variant, VariantId};
use crate::t;

use super::Lang;

/// The game's name: `Shogi`, `将棋`.
pub fn variant(lang: Lang, id: VariantId) -> String {
    let key = match id {
        VariantId::Shogi => "variant-shogi",
        VariantId::Judkins => "variant-judkins",
        VariantId::Cannon => "variant-cannon",
        VariantId::Palace => "variant-palace",
        VariantId::Shanghai => "variant-shanghai",
    };
    t!(lang, key)
}

/// A side of a game, as a name: `Black`, `White` (`先手`, `後手`) in the shogi games, `Red`,
/// `Blue` (`紅`, `藍`) in Shanghai Palace Chess.
pub fn side(lang: Lang, v: &Variant, c: Color) -> String {
    let key = match (v.side_name(c), c) {
        ("red", _) => "side-red",
        ("blue", _) => "side-blue",
        (_, Color::Black) => "side-black",
        (_, Color::White) => "side-white",
    };
    t!(lang, key)
}

/// A piece's name: `silver`, `銀将`.
pub fn piece(lang: Lang, kind: PieceKind) -> String {
    match lang {
        Lang::En => kind.name().to_string(),
        Lang::Ja => t!(lang, piece_key(kind)),
    }
}

/// The message id of a piece's Japanese name: `piece-` and the kind in kebab case.
fn piece_key(kind: PieceKind) -> &'static str {
    use PieceKind::*;
    match kind {
        Pawn => "piece-pawn",
        Lance => "piece-lance",
        Knight => "piece-knight",
        Silver => "piece-silver",
        Gold => "piece-gold",
        Bishop => "piece-bishop",
        Rook => "piece-rook",
        King => "piece-king",
        Tokin => "piece-tokin",
        PromotedLance => "piece-promoted-lance",
        PromotedKnight => "piece-promoted-knight",
        PromotedSilver => "piece-promoted-silver",
        Horse => "piece-horse",
        Dragon => "piece-dragon",
        SidePawn => "piece-side-pawn",
        GoldCannon => "piece-gold-cannon",
        SilverCannon => "piece-silver-cannon",
        CopperCannon => "piece-copper-cannon",
        IronCannon => "piece-iron-cannon",
        PromotedGoldCannon => "piece-promoted-gold-cannon",
        PromotedSilverCannon => "piece-promoted-silver-cannon",
        PromotedCopperCannon => "piece-promoted-copper-cannon",
        PromotedIronCannon => "piece-promoted-iron-cannon",
        Footsoldier => "piece-footsoldier",
        PalacePawn => "piece-palace-pawn",
        PalaceCannon => "piece-palace-cannon",
        ChessKnight => "piece-chess-knight",
        Elephant => "piece-elephant",
        PalaceDragon => "piece-palace-dragon",
        Queen => "piece-queen",
        Lion => "piece-lion",
        XiangqiKing => "piece-xiangqi-king",
        Guard => "piece-guard",
        XiangqiElephant => "piece-xiangqi-elephant",
        XiangqiCannon => "piece-xiangqi-cannon",
        XiangqiPawn => "piece-xiangqi-pawn",
        WesternRook => "piece-western-rook",
        WesternBishop => "piece-western-bishop",
        WesternPawn => "piece-western-pawn",
    }
}

/// Why a game ended, as words: `perpetual check`, `連続王手の千日手`.
pub fn reason(lang: Lang, r: Reason) -> String {
    let key = match r {
        Reason::Checkmate => "reason-checkmate",
        Reason::EnteringKing => "reason-entering-king",
        Reason::Stalemate => "reason-stalemate",
        Reason::Repetition => "reason-repetition",
        Reason::PerpetualCheck => "reason-perpetual-check",
        Reason::Impasse => "reason-impasse",
        Reason::Declaration => "reason-declaration",
        Reason::Resignation => "reason-resignation",
        Reason::Timeout => "reason-timeout",
        Reason::Agreement => "reason-agreement",
    };
    t!(lang, key)
}

/// A result as words: `Alice wins by checkmate`, `draw by repetition` (`先手の勝ち（詰み）`,
/// `引き分け（千日手）`); the winner as `name` writes them.
pub fn result(lang: Lang, o: Outcome, name: impl Fn(Color) -> String) -> String {
    match o {
        Outcome::Win { winner, reason: r } => t!(
            lang,
            "result-win",
            winner = name(winner),
            reason = reason(lang, r)
        ),
        Outcome::Draw { reason: r } => t!(lang, "result-draw", reason = reason(lang, r)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_words_are_the_engine_s_own() {
        for &k in PieceKind::ALL {
            assert_eq!(piece(Lang::En, k), k.name());
            assert_ne!(
                piece(Lang::Ja, k),
                piece_key(k),
                "{k:?} has a Japanese name"
            );
        }
        for &r in Reason::ALL {
            assert_eq!(reason(Lang::En, r), r.words());
        }
        let v = Variant::get(VariantId::Shogi);
        let o = Outcome::Win {
            winner: Color::White,
            reason: Reason::PerpetualCheck,
        };
        assert_eq!(
            result(Lang::En, o, |c| side(Lang::En, v, c)),
            "White wins by perpetual check"
        );
        assert_eq!(
            result(Lang::Ja, o, |c| side(Lang::Ja, v, c)),
            "後手の勝ち（連続王手の千日手）"
        );
        let s = Variant::get(VariantId::Shanghai);
        assert_eq!(side(Lang::Ja, s, Color::Black), "紅");
        assert_eq!(side(Lang::En, s, Color::White), "Blue");
    }
}
