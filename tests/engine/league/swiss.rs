//! Swiss pairings worked by hand from the rules of the module header, and the weight bounds.

use mwmatching::{Matching, SENTINEL};
use tegami::league::swiss::{self, ByeScale, Entrant, Scale, WEIGHT_LIMIT};
use tegami::league::{pair, PairingError, Side};

use super::{bye, g};

/// An entrant from a score, a rank, opponents, colours written as "FS…" and a bye flag.
pub(crate) fn ent(
    score2: u32,
    rank: usize,
    opponents: &[usize],
    colours: &str,
    had_bye: bool,
) -> Entrant {
    Entrant {
        score2,
        rank,
        opponents: opponents.to_vec(),
        colours: colours
            .chars()
            .map(|c| if c == 'F' { Side::First } else { Side::Second })
            .collect(),
        had_bye,
        active: true,
    }
}

#[test]
fn swiss_round_one_pairs_top_half_against_bottom_half() {
    // Six players, all on 0, no history: one score group of 6, no colour wishes, so only
    // placement decides: |d - 3| is 0 only for 0-3, 1-4, 2-5. Boards by rank. Colours: rank 0
    // First on board 1, then alternating: 0-3, 4-1, 2-5.
    let e: Vec<Entrant> = (0..6).map(|i| ent(0, i, &[], "", false)).collect();
    assert_eq!(pair(&e), Ok(vec![g(0, 3), g(4, 1), g(2, 5)]));
}

#[test]
fn swiss_round_one_with_an_odd_count_gives_the_bye_to_the_lowest_ranked() {
    // Five players on 0: every bye costs the same score (0 above the bottom), so the bye order
    // decides: lowest score, then lowest-ranked → player 4. The other four: |d - 2| = 0 for
    // 0-2 and 1-3; board 1: 0 First, board 2: 1 Second.
    let e: Vec<Entrant> = (0..5).map(|i| ent(0, i, &[], "", false)).collect();
    assert_eq!(pair(&e), Ok(vec![g(0, 2), g(3, 1), bye(4)]));
}

#[test]
fn swiss_floats_the_lowest_of_a_group_to_the_highest_of_the_next() {
    // After round 1 (0-3, 4-1, 2-5): 0 beat 3, 1 beat 4, 2 beat 5. Scores: 0, 1, 2 on 2 points
    // (half points 2), 3, 4, 5 on 0. Both groups are odd: one pair must cross (score sum 2 at
    // least). Colour wishes (strong, from one game): 0, 2, 4 want Second; 1, 3, 5 want First.
    // Crossing pairs that have not met, with the rest paired inside the groups:
    //   0 floats: 1-2 inside; 0-4 (both want Second: 2) + 3-5 (both First: 2), or 0-5 (0) +
    //     3-4 (0);
    //   1 floats: 0-2 inside costs 2 already;
    //   2 floats: 0-1 inside (0); 2-3 (0) + 4-5 (0), or 2-4 (2) + 3-5 (2).
    // Colour cost 0: {1-2, 0-5, 3-4} and {0-1, 2-3, 4-5}. Placement (groups of 3, half 1):
    // the first has 1-2 (0) + 0-5 (0 is 2 from its bottom, 5 is 2 from its top: 4) + 3-4 (0)
    // = 4; the second 0-1 (0) + 2-3 (0 + 0) + 4-5 (0) = 0. So 0-1, 2-3, 4-5, and each pair's
    // wishes differ: 1-0, 3-2, 5-4.
    let e = vec![
        ent(2, 0, &[3], "F", false),
        ent(2, 1, &[4], "S", false),
        ent(2, 2, &[5], "F", false),
        ent(0, 3, &[0], "S", false),
        ent(0, 4, &[1], "F", false),
        ent(0, 5, &[2], "S", false),
    ];
    assert_eq!(pair(&e), Ok(vec![g(1, 0), g(3, 2), g(5, 4)]));
}

#[test]
fn swiss_second_round_bye_goes_to_the_bottom_and_colours_follow_the_wishes() {
    // Round 1 was 0-2, 3-1, bye 4; 0 beat 2, 3-1 drawn. Scores (half points): 0:2, 4:2 (bye),
    // 1:1, 3:1, 2:0. 4 has had the bye. Bye stage (cost = score above the bottom 0 + sum of
    // pair differences): bye 2 (0) leaves 0-1 + 4-3 or 0-3 + 4-1 (1-3 met): 2; bye 3 (1) +
    // 0-4 (0) + 1-2 (1) = 2; bye 1 likewise 2; bye 0 (2) + at least 2 = 4. Tie at 2 among
    // 2, 3, 1: the lowest score takes it → 2. Then 0-1 + 4-3 (colours: 0 wants Second, 1
    // First, 3 Second, 4 nothing: cost 0) beats 0-3 + 4-1 (0 and 3 both want Second: 2).
    // Boards: both pairs top on 2; 0-1 has rank 0 → board 1. Colours: 1-0 and, on board 2,
    // the higher-ranked 3 has the only wish (Second): 4-3.
    let e = vec![
        ent(2, 0, &[2], "F", false),
        ent(1, 1, &[3], "S", false),
        ent(0, 2, &[0], "S", false),
        ent(1, 3, &[1], "F", false),
        ent(2, 4, &[], "", true),
    ];
    assert_eq!(pair(&e), Ok(vec![g(1, 0), g(4, 3), bye(2)]));
}

#[test]
fn swiss_absolute_colours_override_rank_and_wishes() {
    // Player 1 had Second twice in a row: they must play First. Player 0 (higher-ranked)
    // wants First too (strong: one Second too many), but may take Second.
    let e = vec![ent(2, 0, &[], "FSS", false), ent(2, 1, &[], "FSS", false)];
    // Both must play First: no allowed assignment.
    assert_eq!(pair(&e), Err(PairingError::NoPairing));
    let e = vec![ent(2, 0, &[], "FS", false), ent(2, 1, &[], "FSS", false)];
    // 0 has level colours (mild wish: First, after a Second) and must yield to the absolute.
    assert_eq!(pair(&e), Ok(vec![g(1, 0)]));
    // Colour difference: +2 forbids a third extra First even without a run.
    let e = vec![ent(0, 0, &[], "FSFF", false), ent(0, 1, &[], "SFSF", false)];
    assert_eq!(pair(&e), Ok(vec![g(1, 0)]));
}

#[test]
fn swiss_ties_on_colour_wishes_go_the_higher_ranked_player_s_way() {
    // Both have level colours and last played Second: equal mild wishes for First. The
    // higher-ranked (rank 0, player 1 here) gets the colour opposite to their last: First.
    let e = vec![ent(2, 5, &[], "FS", false), ent(2, 0, &[], "FS", false)];
    assert_eq!(pair(&e), Ok(vec![g(1, 0)]));
    // A strong wish beats a mild one whatever the ranks: player 0 (rank 0, mild: First) gives
    // way to player 1 (one Second too many: strong First).
    let e = vec![ent(2, 0, &[], "FS", false), ent(2, 1, &[], "S", false)];
    assert_eq!(pair(&e), Ok(vec![g(1, 0)]));
}

#[test]
fn swiss_refuses_what_the_rules_forbid() {
    // Two players who met.
    let e = vec![ent(2, 0, &[1], "F", false), ent(0, 1, &[0], "S", false)];
    assert_eq!(pair(&e), Err(PairingError::NoPairing));
    // Three players, everyone has had the bye.
    let e: Vec<Entrant> = (0..3).map(|i| ent(2, i, &[], "", true)).collect();
    assert_eq!(pair(&e), Err(PairingError::NoPairing));
    // Four players where 0 met everyone.
    let e = vec![
        ent(2, 0, &[1, 2, 3], "", false),
        ent(0, 1, &[0], "", false),
        ent(0, 2, &[0], "", false),
        ent(0, 3, &[0], "", false),
    ];
    assert_eq!(pair(&e), Err(PairingError::NoPairing));
    // Nobody active: an empty round. One active player: the bye.
    let mut e = vec![ent(0, 0, &[], "", false), ent(0, 1, &[], "", false)];
    e[0].active = false;
    e[1].active = false;
    assert_eq!(pair(&e), Ok(vec![]));
    e[1].active = true;
    assert_eq!(pair(&e), Ok(vec![bye(1)]));
}

#[test]
fn swiss_skips_withdrawn_players_and_ignores_unknown_opponents() {
    // Player 1 withdrew; opponent 99 does not exist. Three active players on 0: the bye to the
    // lowest-ranked, 3; then 0-2 (a group of two: |1 - 1| = 0), 0 First on board 1.
    let mut e: Vec<Entrant> = (0..4).map(|i| ent(0, i, &[99], "", false)).collect();
    e[1].active = false;
    assert_eq!(pair(&e), Ok(vec![g(0, 2), bye(3)]));
    assert_eq!(swiss::check_pairing(&e, &[g(0, 2), bye(3)]), Ok(()));
    assert!(swiss::check_pairing(&e, &[g(0, 1), bye(3)]).is_err());
}

#[test]
fn swiss_colour_preferences_are_as_documented() {
    use swiss::{colour_preference, ColourPreference, Strength};
    let pref = |c: &str| colour_preference(&ent(0, 0, &[], c, false));
    let p = |side, strength| Some(ColourPreference { side, strength });
    assert_eq!(pref(""), None);
    assert_eq!(pref("F"), p(Side::Second, Strength::Strong));
    assert_eq!(pref("FS"), p(Side::First, Strength::Mild));
    assert_eq!(pref("SF"), p(Side::Second, Strength::Mild));
    assert_eq!(pref("SS"), p(Side::First, Strength::Absolute));
    assert_eq!(pref("SFS"), p(Side::First, Strength::Strong));
    assert_eq!(pref("FSFF"), p(Side::Second, Strength::Absolute));
}

#[test]
fn swiss_weights_keep_their_order_within_i32_for_1000_players_and_50_rounds() {
    // The worst case of the contract: 500 pairs, scores 0..=100 half points, placement costs up
    // to 999. The placement cap that fits is 21 (worked in swiss/weights.rs).
    let s = Scale::new(500, 100, 999);
    assert_eq!(s.placement_cap, 21);
    assert!(s.exact_scores);
    assert!(s.max_weight() < WEIGHT_LIMIT && WEIGHT_LIMIT <= 1 << 30);
    // The lexicographic inequalities: U3 exceeds any placement sum; 2·U1 (two matchings' score
    // sums differ by at least 2) exceeds any colour-and-placement sum.
    let (p, k) = (s.pairs, s.placement_cap);
    assert!(s.colour_unit > p * k);
    assert!(2 * s.score_unit > 2 * p * s.colour_unit + p * k);
    assert_eq!(s.weight(100, 2, 999) as u64, 1);
    assert_eq!(s.weight(0, 0, 0) as u64, s.max_weight());
    // 200 players, 9 rounds: nothing capped.
    let s = Scale::new(100, 18, 199);
    assert_eq!(s.placement_cap, 199);
    assert!(s.max_weight() < WEIGHT_LIMIT);
    // The bye stage: 1000 eligible players, score differences up to 100.
    let b = ByeScale::new(1000, 100);
    assert_eq!(b.score_cap, 100);
    assert!(b.max_weight() < WEIGHT_LIMIT);
    assert!(b.weight(0, 0) > b.weight(0, 999) && b.weight(0, 999) > b.weight(1, 0));
    // Absurd scores still give valid weights (c1 clamped, no overflow).
    let s = Scale::new(500, u32::MAX, 999);
    assert!(!s.exact_scores && s.max_weight() < WEIGHT_LIMIT);
    assert!(s.weight(u32::MAX, 2, 999) >= 1);
}

#[test]
fn mwmatching_takes_weights_near_the_limit_without_overflow() {
    // The margin claim: weights just under 2^29 on a dense random graph, maximum cardinality,
    // in the test profile (overflow checks on inside the crate too).
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let n = 60;
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if next() % 3 != 0 {
                let w = (WEIGHT_LIMIT - 1 - next() % (WEIGHT_LIMIT / 2)) as i32;
                edges.push((i, j, w));
            }
        }
    }
    let mates = Matching::new(edges).max_cardinality().solve();
    assert_eq!(mates.len(), n);
    assert!(mates.iter().all(|&m| m != SENTINEL));
}
