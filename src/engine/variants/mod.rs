//! One module per game: each builds its `VariantSpec`.

pub mod cannon;
pub mod judkins;
pub mod palace;
pub mod shanghai;
pub mod shogi;

use crate::engine::{Variant, VariantSpec};

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
            l.kind.name()
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
