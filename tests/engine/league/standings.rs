//! Standings with hand-computed tie-breaks, the crosstable and the round-robin withdrawal rule.

use proptest::prelude::*;
use tegami::league::standings::Tiebreak;
use tegami::league::swiss;
use tegami::league::{
    crosstable, round_robin_withdrawal, schedule, standings, withdraw, Format, Outcome, Played,
    Side, Withdrawal,
};

use super::{bye, g, played, Rng};

/// The 4-player round robin of the standings tests (Berger pairings):
/// round 1: 0 beats 3, 1 beats 2; round 2: 3 beats 2, 0-1 drawn; round 3: 1-3 drawn, 2 beats 0.
fn four_player_round_robin() -> Vec<Played> {
    use Outcome::*;
    vec![
        played(1, g(0, 3), FirstWins),
        played(1, g(1, 2), FirstWins),
        played(2, g(3, 2), FirstWins),
        played(2, g(0, 1), Draw),
        played(3, g(1, 3), Draw),
        played(3, g(2, 0), FirstWins),
    ]
}

#[test]
fn round_robin_standings_use_sonneborn_berger() {
    // Scores (half points): 0: W3 D1 L2 = 3; 1: W2 D0 D3 = 4; 2: L1 L3 W0 = 2; 3: L0 W2 D1 = 3.
    // Sonneborn-Berger in quarter points (my points2 × the opponent's score2):
    //   0: 2·3 (beat 3) + 1·4 (drew 1) = 10 (2½);  3: 2·2 (beat 2) + 1·4 (drew 1) = 8 (2);
    //   1: 2·2 (beat 2) + 1·3 + 1·3 (drew 0 and 3) = 10;  2: 2·3 (beat 0) = 6.
    // Order: 1 (4), 0 (3, SB 10), 3 (3, SB 8), 2 (2).
    let s = standings(Format::RoundRobin, 4, &[], &four_player_round_robin());
    let summary: Vec<(usize, u32, u32, u32, u32, u32, u32)> = s
        .iter()
        .map(|r| {
            (
                r.player, r.points2, r.wins, r.draws, r.losses, r.played, r.place,
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (1, 4, 1, 2, 0, 3, 1),
            (0, 3, 1, 1, 1, 3, 2),
            (3, 3, 1, 1, 1, 3, 3),
            (2, 2, 1, 0, 2, 3, 4),
        ]
    );
    let sb: Vec<Vec<(Tiebreak, u32)>> = s.iter().map(|r| r.tiebreaks.clone()).collect();
    use Tiebreak::SonnebornBerger as SB;
    assert_eq!(
        sb,
        vec![vec![(SB, 10)], vec![(SB, 10)], vec![(SB, 8)], vec![(SB, 6)]]
    );
    assert_eq!(SB.per_point(), 4);
    assert_eq!(SB.as_str(), "sb");
}

#[test]
fn double_round_robin_counts_each_game_and_ignores_byes() {
    // Two players, two games: 0 wins the first, the second drawn; a round-robin bye of a
    // third, absent player scores nothing. Scores: 0: 3, 1: 1. SB (quarters): 0: 2·1 + 1·1 =
    // 3; 1: 1·3 = 3.
    use Outcome::*;
    let games = vec![
        played(1, g(0, 1), FirstWins),
        played(2, g(1, 0), Draw),
        played(2, bye(2), Bye),
    ];
    let s = standings(Format::DoubleRoundRobin, 3, &[], &games);
    let got: Vec<(usize, u32, u32, u32)> = s
        .iter()
        .map(|r| (r.player, r.points2, r.tiebreaks[0].1, r.place))
        .collect();
    assert_eq!(got, vec![(0, 3, 3, 1), (1, 1, 3, 2), (2, 0, 0, 3)]);
}

#[test]
fn swiss_standings_with_a_bye_a_forfeit_and_head_to_head() {
    // Six players, three rounds; 5 withdraws in round 2 (0 wins by forfeit) and 3 gets the
    // round-3 bye.
    //   round 1: 0 beats 3, 1-4 drawn, 5 beats 2;
    //   round 2: 0 beats 5 by forfeit, 1-2 drawn, 4 beats 3;
    //   round 3: 1 beats 0, 2 beats 4, 3 bye.
    // Scores (half points): 0: 2+2+0 = 4; 1: 1+1+2 = 4; 2: 0+1+2 = 3; 3: 0+0+2 = 2;
    // 4: 1+2+0 = 3; 5: 2+0 = 2.
    // Buchholz (opponents' scores; the bye adds 0) and cut 1 (minus the smallest):
    //   0: 3,5,1 → 2+2+4 = 8, cut 6;    1: 4,2,0 → 3+3+4 = 10, cut 7;
    //   2: 5,1,4 → 2+4+3 = 9, cut 7;    4: 1,3,2 → 4+2+3 = 9, cut 7;
    //   3: 0,4   → 4+3 = 7, cut 4;      5: 2,0 → 3+4 = 7, cut 4.
    // 2 and 4 are equal on points, Buchholz and cut: head-to-head, 2 beat 4 → 2 ahead.
    // 5 withdrew: listed last. Order 1, 0, 2, 4, 3, 5.
    use Outcome::*;
    let games = vec![
        played(1, g(0, 3), FirstWins),
        played(1, g(1, 4), Draw),
        played(1, g(2, 5), SecondWins),
        played(2, g(0, 5), FirstWinsByForfeit),
        played(2, g(1, 2), Draw),
        played(2, g(3, 4), SecondWins),
        played(3, g(0, 1), SecondWins),
        played(3, g(2, 4), FirstWins),
        played(3, bye(3), Bye),
    ];
    let withdrawn = [false, false, false, false, false, true];
    let s = standings(Format::Swiss, 6, &withdrawn, &games);
    use Tiebreak::*;
    let tb = |b: u32, c: u32, h: u32| vec![(Buchholz, b), (BuchholzCut1, c), (HeadToHead, h)];
    type Line = (usize, u32, u32, Vec<(Tiebreak, u32)>);
    let got: Vec<Line> = s
        .iter()
        .map(|r| (r.player, r.points2, r.place, r.tiebreaks.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, 4, 1, tb(10, 7, 0)),
            (0, 4, 2, tb(8, 6, 0)),
            (2, 3, 3, tb(9, 7, 2)),
            (4, 3, 4, tb(9, 7, 0)),
            (3, 2, 5, tb(7, 4, 0)),
            (5, 2, 6, tb(7, 4, 0)),
        ]
    );
    // W/D/L/played: the forfeit is a win for 0 and a loss for 5; the bye is not a game.
    let wdl: Vec<(usize, u32, u32, u32, u32)> = s
        .iter()
        .map(|r| (r.player, r.wins, r.draws, r.losses, r.played))
        .collect();
    assert_eq!(
        wdl,
        vec![
            (1, 1, 2, 0, 3),
            (0, 2, 0, 1, 3),
            (2, 1, 1, 1, 3),
            (4, 1, 1, 1, 3),
            (3, 0, 0, 2, 2),
            (5, 1, 0, 1, 2),
        ]
    );
    // The entrants of a fourth round read the same games: 5 withdrawn, the forfeit met but
    // not a colour (0 was First in rounds 1 and 3, the forfeit of round 2 left out), 3's bye.
    let active = [true, true, true, true, true, false];
    let e = swiss::entrants(6, &[0, 1, 2, 3, 4, 5], &active, &games);
    assert_eq!(e[0].score2, 4);
    assert_eq!(e[0].opponents, vec![3, 5, 1]);
    assert_eq!(e[0].colours, vec![Side::First, Side::First]);
    assert_eq!(e[5].colours, vec![Side::Second]);
    assert!(e[3].had_bye && e[3].score2 == 2 && !e[5].active);
}

#[test]
fn players_equal_on_everything_share_a_place() {
    // A single drawn game in a Swiss: both 1 point, Buchholz 1, cut 0, head-to-head 1 each.
    let games = vec![played(1, g(0, 1), Outcome::Draw)];
    let s = standings(Format::Swiss, 3, &[], &games);
    let places: Vec<(usize, u32)> = s.iter().map(|r| (r.player, r.place)).collect();
    assert_eq!(places, vec![(0, 1), (1, 1), (2, 3)]);
    assert_eq!(s[0].tiebreaks, s[1].tiebreaks);
    assert_eq!(s[0].tiebreaks[2], (Tiebreak::HeadToHead, 1));
}

#[test]
fn pending_annulled_and_unknown_games_count_nothing() {
    let games = vec![
        played(1, g(0, 1), Outcome::Pending),
        played(1, g(2, 3), Outcome::Annulled),
        played(1, g(0, 9), Outcome::FirstWins),
        played(2, bye(2), Outcome::Bye),
    ];
    // Round robin: the bye scores nothing either.
    let s = standings(Format::RoundRobin, 4, &[], &games);
    assert!(s
        .iter()
        .all(|r| r.points2 == 0 && r.played == 0 && r.place == 1));
    let ids: Vec<usize> = s.iter().map(|r| r.player).collect();
    assert_eq!(ids, vec![0, 1, 2, 3]);
    // Swiss: only the bye.
    let s = standings(Format::Swiss, 4, &[], &games);
    assert_eq!((s[0].player, s[0].points2, s[0].played), (2, 2, 0));
}

#[test]
fn crosstable_cells() {
    let mut games = four_player_round_robin();
    // Round 3's 1-3 not finished yet; a bye and an annulled game are not in the table.
    games[4].outcome = Outcome::Pending;
    games.push(played(4, bye(0), Outcome::Bye));
    let t = crosstable(4, &games);
    assert_eq!(t[0][3], vec![Some(2)]);
    assert_eq!(t[3][0], vec![Some(0)]);
    assert_eq!(t[0][1], vec![Some(1)]);
    assert_eq!(t[1][0], vec![Some(1)]);
    assert_eq!(t[2][0], vec![Some(2)]);
    assert_eq!(t[1][3], vec![None]);
    assert_eq!(t[3][1], vec![None]);
    for (i, row) in t.iter().enumerate() {
        assert!(row[i].is_empty());
    }
    // Double round robin: two entries, in round order; annulled left out.
    let games = vec![
        played(2, g(1, 0), Outcome::Draw),
        played(1, g(0, 1), Outcome::SecondWinsByForfeit),
        played(3, g(0, 2), Outcome::Annulled),
    ];
    let t = crosstable(3, &games);
    assert_eq!(t[0][1], vec![Some(0), Some(1)]);
    assert_eq!(t[1][0], vec![Some(2), Some(1)]);
    assert!(t[0][2].is_empty());
}

#[test]
fn withdrawal_rule_boundaries() {
    assert_eq!(round_robin_withdrawal(0, 3), Withdrawal::Annul);
    assert_eq!(round_robin_withdrawal(1, 3), Withdrawal::Annul);
    assert_eq!(round_robin_withdrawal(2, 3), Withdrawal::Forfeit);
    // Exactly half finished: the results stand.
    assert_eq!(round_robin_withdrawal(3, 6), Withdrawal::Forfeit);
    assert_eq!(round_robin_withdrawal(2, 5), Withdrawal::Annul);
    assert_eq!(round_robin_withdrawal(0, 0), Withdrawal::Forfeit);
}

#[test]
fn withdrawing_early_annuls_and_late_forfeits() {
    // Player 3 leaves after round 1 of the 4-player round robin: 1 of 3 games finished, fewer
    // than half → every game of 3 annulled, including the one they lost.
    let mut games = four_player_round_robin();
    for g in &mut games[2..] {
        g.outcome = Outcome::Pending;
    }
    assert_eq!(withdraw(3, &mut games), Withdrawal::Annul);
    let of3: Vec<Outcome> = games
        .iter()
        .filter(|g| g.pairing.involves(3))
        .map(|g| g.outcome)
        .collect();
    assert_eq!(of3, vec![Outcome::Annulled; 3]);
    assert_eq!(games[1].outcome, Outcome::FirstWins);
    // 0's win against 3 no longer counts: 0 and 3 are on 0, 1 on 2.
    let s = standings(Format::RoundRobin, 4, &[false, false, false, true], &games);
    let got: Vec<(usize, u32)> = s.iter().map(|r| (r.player, r.points2)).collect();
    assert_eq!(got, vec![(1, 2), (0, 0), (2, 0), (3, 0)]);
    assert_eq!(s[3].place, 4);

    // Player 3 leaves after round 2 instead: 2 of 3 finished → the pending 1-3 is a forfeit
    // win for 1 (first).
    let mut games = four_player_round_robin();
    games[4].outcome = Outcome::Pending;
    games[5].outcome = Outcome::Pending;
    assert_eq!(withdraw(3, &mut games), Withdrawal::Forfeit);
    assert_eq!(games[4].outcome, Outcome::FirstWinsByForfeit);
    assert_eq!(games[5].outcome, Outcome::Pending);
    assert_eq!(games[2].outcome, Outcome::FirstWins);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Over random finished round robins: points add up, places follow the order, cut 1 never
    /// exceeds Buchholz, the crosstable mirrors itself.
    #[test]
    fn standings_are_consistent(n in 2usize..12, seed in any::<u64>(), double in any::<bool>()) {
        let mut rng = Rng(seed | 1);
        let mut games = Vec::new();
        for (r, round) in schedule(n, double).into_iter().enumerate() {
            for p in round {
                let outcome = if p.second.is_none() {
                    Outcome::Bye
                } else {
                    [Outcome::FirstWins, Outcome::SecondWins, Outcome::Draw,
                     Outcome::Pending, Outcome::FirstWinsByForfeit][rng.below(5) as usize]
                };
                games.push(played(r as u32 + 1, p, outcome));
            }
        }
        let decided = games.iter().filter(|g| g.outcome.points2().is_some()).count() as u32;
        for format in Format::ALL {
            let s = standings(format, n, &[], &games);
            let total: u32 = s.iter().map(|r| r.points2).sum();
            let byes = if format == Format::Swiss { 2 * (n % 2) as u32 * schedule(n, double).len() as u32 } else { 0 };
            prop_assert_eq!(total, 2 * decided + byes);
            for w in s.windows(2) {
                prop_assert!(w[0].points2 >= w[1].points2);
                prop_assert!(w[0].place <= w[1].place);
                prop_assert_eq!(w[0].place == w[1].place,
                    (w[0].points2, &w[0].tiebreaks) == (w[1].points2, &w[1].tiebreaks));
            }
            if format == Format::Swiss {
                for r in &s {
                    prop_assert!(r.tiebreaks[1].1 <= r.tiebreaks[0].1);
                }
            }
        }
        let t = crosstable(n, &games);
        for (a, row) in t.iter().enumerate() {
            for (b, cell) in row.iter().enumerate() {
                let back = &t[b][a];
                prop_assert_eq!(cell.len(), back.len());
                // Each game seen from both sides: pending on both, or points adding up to 2.
                for (x, y) in cell.iter().zip(back) {
                    prop_assert_eq!(x.map(|x| x + y.unwrap_or(0)), y.map(|_| 2));
                }
            }
        }
    }
}
