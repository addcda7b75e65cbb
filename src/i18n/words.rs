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

/// **The** name of a piece of a game, in `lang`: unique within the game, so that no two kinds a
/// player can meet in one game share a name. Every text that names a piece to a player (the
/// rules pages, the refusals and hints, the move picker) uses this one function.
///
/// English is the game's own name ([`Variant::piece_name`]): in Shanghai Palace Chess by army
/// (`Western pawn`, `Chinese soldier`, `shogi pawn`), in Palace Shogi the text's names (the
/// shogi knight is the `horse`, the chess knight the `knight`, the promoted silver the
/// `gold`). Japanese is the piece's Japanese name (`歩兵`, `兵`, `ポーン`; Palace Shogi's gold
/// `金将`).
pub fn piece_name(lang: Lang, v: &Variant, kind: PieceKind) -> String {
    match lang {
        Lang::En => v.piece_name(kind).to_string(),
        Lang::Ja => match (v.id(), kind) {
            (VariantId::Palace, PieceKind::PromotedSilver) => t!(lang, "piece-gold"),
            _ => t!(lang, piece_key(kind)),
        },
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
    fn no_two_pieces_of_a_game_share_a_name_in_either_language() {
        for &id in VariantId::ALL {
            let v = Variant::get(id);
            for lang in Lang::ALL {
                let mut seen = std::collections::HashMap::new();
                for &k in PieceKind::ALL.iter().filter(|&&k| v.has_kind(k)) {
                    let name = piece_name(lang, v, k);
                    assert!(!name.is_empty() && !name.starts_with("piece-"), "{k:?}");
                    if let Some(other) = seen.insert(name.clone(), k) {
                        panic!("{id:?} {lang:?}: {other:?} and {k:?} are both called {name}");
                    }
                }
            }
        }
        let s = Variant::get(VariantId::Shanghai);
        assert_eq!(
            piece_name(Lang::En, s, PieceKind::WesternPawn),
            "Western pawn"
        );
        assert_eq!(
            piece_name(Lang::En, s, PieceKind::XiangqiPawn),
            "Chinese soldier"
        );
        assert_eq!(piece_name(Lang::En, s, PieceKind::Pawn), "shogi pawn");
        let p = Variant::get(VariantId::Palace);
        assert_ne!(
            piece_name(Lang::En, p, PieceKind::Knight),
            piece_name(Lang::En, p, PieceKind::ChessKnight)
        );
    }

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
