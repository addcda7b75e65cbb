//! Glicko-2 ratings (through the `skillratings` crate): per user, per game, per server. The core
//! reads both players' rows, computes their new ones here, and hands them to the store, which
//! writes them in the transaction that ends the rated game, each only if its row is still as
//! read (its game count); if another game of a player ended meanwhile, the end is computed again
//! from the fresh rows.

use std::collections::HashMap;

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use super::Service;
use crate::store::{self, Ending, Finish, GameResult, GameRow, NewNotice, RatingRow, RatingUpdate};

/// A new player's rating: Glicko-2's 1500 ± 350, volatility 0.06.
pub const START_RATING: f64 = 1500.0;
pub const START_DEVIATION: f64 = 350.0;
pub const START_VOLATILITY: f64 = 0.06;

/// A player's rating before their first rated game of this game on this server.
pub fn starting(user: &str, variant: &str, guild: &str) -> RatingRow {
    RatingRow {
        user: user.to_string(),
        variant: variant.to_string(),
        guild: guild.to_string(),
        rating: START_RATING,
        deviation: START_DEVIATION,
        volatility: START_VOLATILITY,
        games: 0,
        wins: 0,
        losses: 0,
        draws: 0,
    }
}

/// Ratings already read or computed, by user, game and server: the games of one batch that
/// share a player then chain their updates.
pub(crate) type Known = HashMap<(String, String, String), RatingRow>;

impl Service {
    /// How ending `row` with `ending` also queues `notices` and, for a rated game, updates both
    /// players' ratings (read from the store unless `known` has them; `known` then holds the
    /// new ones).
    pub(crate) fn finish_of<'a>(
        &self,
        row: &GameRow,
        ending: &'a Ending,
        notices: &'a [NewNotice],
        known: &mut Known,
    ) -> store::Result<Finish<'a>> {
        let mut ratings = Vec::new();
        if row.rated {
            let guild = row.guild.clone().unwrap_or_default();
            let read = |user: &str| -> store::Result<RatingRow> {
                let key = (user.to_string(), row.variant.clone(), guild.clone());
                if let Some(r) = known.get(&key) {
                    return Ok(r.clone());
                }
                Ok(self
                    .store
                    .rating(user, &row.variant, &guild)?
                    .unwrap_or_else(|| starting(user, &row.variant, &guild)))
            };
            let (a, b) = (read(&row.players[0])?, read(&row.players[1])?);
            let score = match ending.result {
                GameResult::First => 1.0,
                GameResult::Second => 0.0,
                GameResult::Draw => 0.5,
            };
            let (new_a, new_b) = rate(&a, &b, score);
            for (old, new) in [(a, new_a), (b, new_b)] {
                known.insert(
                    (new.user.clone(), new.variant.clone(), new.guild.clone()),
                    new.clone(),
                );
                ratings.push(RatingUpdate {
                    read_games: old.games,
                    row: new,
                });
            }
        }
        Ok(Finish {
            ending,
            notices,
            ratings,
        })
    }

    /// Ends `row` (still at its version) without a move: with its ratings, computed again from
    /// fresh rows while another game of a player ends meanwhile.
    pub(crate) fn end_game(
        &self,
        row: &GameRow,
        ending: &Ending,
        notices: &[NewNotice],
        now: i64,
    ) -> store::Result<GameRow> {
        let mut tries = 0;
        loop {
            let finish = self.finish_of(row, ending, notices, &mut Known::new())?;
            match self.store.finish_game(row.id, row.version, &finish, now) {
                Err(store::StoreError::Stale) if tries + 1 < super::RETRIES => tries += 1,
                other => return other,
            }
        }
    }
}

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
        let a = starting("a", "shogi", "");
        let b = starting("b", "shogi", "");
        let (a, b) = rate(&a, &b, 1.0);
        assert!((a.rating - 1662.31).abs() < 0.01, "{}", a.rating);
        assert!((b.rating - 1337.69).abs() < 0.01, "{}", b.rating);
        assert!((a.deviation - 290.32).abs() < 0.01, "{}", a.deviation);
        assert!((b.deviation - 290.32).abs() < 0.01, "{}", b.deviation);
        assert_eq!((a.games, a.wins, a.losses, b.losses), (1, 1, 0, 1));
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating() {
        let a = starting("a", "shogi", "");
        let b = starting("b", "shogi", "");
        let (a, b) = rate(&a, &b, 0.5);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
        assert!(a.deviation < 350.0);
        assert_eq!((a.draws, b.draws), (1, 1));
    }
}
