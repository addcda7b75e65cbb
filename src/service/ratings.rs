//! Glicko-2 ratings (through the `skillratings` crate): per user, per game, per server, updated
//! in the transaction that ends a rated game.

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::store::RatingRow;

fn glicko(r: &RatingRow) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// Both players' ratings after one game, from the first player's score (1, ½ or 0).
pub fn rate(first: &RatingRow, second: &RatingRow, score: f64) -> (RatingRow, RatingRow) {
    let outcome = if score > 0.75 {
        Outcomes::WIN
    } else if score < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    };
    let (a, b) = glicko2(
        &glicko(first),
        &glicko(second),
        &outcome,
        &Glicko2Config::new(),
    );
    let update = |old: &RatingRow, new: Glicko2Rating, won: bool, lost: bool| RatingRow {
        rating: new.rating,
        deviation: new.deviation,
        volatility: new.volatility,
        games: old.games + 1,
        wins: old.wins + u32::from(won),
        losses: old.losses + u32::from(lost),
        draws: old.draws + u32::from(!won && !lost),
        ..old.clone()
    };
    let first_won = outcome == Outcomes::WIN;
    let first_lost = outcome == Outcomes::LOSS;
    (
        update(first, a, first_won, first_lost),
        update(second, b, first_lost, first_won),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's figures for two new players (1500 ± 350, volatility 0.06): the winner goes to
    /// 1662.31 ± 290.32, the loser to 1337.69 ± 290.32.
    #[test]
    fn first_game_between_new_players_matches_glickmans_figures() {
        let a = RatingRow::new("a", "shogi", "");
        let b = RatingRow::new("b", "shogi", "");
        let (a, b) = rate(&a, &b, 1.0);
        assert!((a.rating - 1662.31).abs() < 0.01, "{}", a.rating);
        assert!((b.rating - 1337.69).abs() < 0.01, "{}", b.rating);
        assert!((a.deviation - 290.32).abs() < 0.01, "{}", a.deviation);
        assert!((b.deviation - 290.32).abs() < 0.01, "{}", b.deviation);
        assert_eq!((a.games, a.wins, a.losses, b.losses), (1, 1, 0, 1));
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating() {
        let a = RatingRow::new("a", "shogi", "");
        let b = RatingRow::new("b", "shogi", "");
        let (a, b) = rate(&a, &b, 0.5);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert!(a.deviation < 350.0);
        assert_eq!((a.draws, b.draws), (1, 1));
    }
}
