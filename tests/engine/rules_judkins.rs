//! Behaviour tests for Judkins Shogi (`seeds/judkins-shogi.txt` and `rules.md`).
//!
//! The board is 6x6: files 6..1 from Black's left, ranks a..f from the top. The promotion zone
//! is the two farthest ranks (a-b for Black, e-f for White). There are no lances.
//! Every expected move set here was worked out by hand from the rules, not taken from the engine.

use crate::common;

use common::*;
use tegami::engine::notation::fen;
use tegami::engine::{
    handicap_position, impasse, Color, Game, IllegalMove, Move, Outcome, PieceKind, Position,
    Reason, Square, Variant, VariantId,
};

const V: VariantId = VariantId::Judkins;

fn p(pieces: &[(&str, &str)]) -> Position {
    setup(V, pieces, "b", "-")
}

fn pw(pieces: &[(&str, &str)]) -> Position {
    setup(V, pieces, "w", "-")
}

fn ph(pieces: &[(&str, &str)], hands: &str) -> Position {
    setup(V, pieces, "b", hands)
}

// ---------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------

#[test]
fn start_position_is_the_judkins_setup() {
    let start = Position::start(V);
    assert_eq!(fen::write(&start), "rbnsgk/5p/6/6/P5/KGSNBR b - 1");
    let at = |s: &str| start.piece_at(sq(V, s)).map(|p| (p.kind, p.color));
    use PieceKind::*;
    let black = [
        ("6f", King),
        ("5f", Gold),
        ("4f", Silver),
        ("3f", Knight),
        ("2f", Bishop),
        ("1f", Rook),
        ("6e", Pawn),
    ];
    for (s, k) in black {
        assert_eq!(at(s), Some((k, Color::Black)), "{s}");
    }
    // White mirrors Black through the centre.
    let white = [
        ("1a", King),
        ("2a", Gold),
        ("3a", Silver),
        ("4a", Knight),
        ("5a", Bishop),
        ("6a", Rook),
        ("1b", Pawn),
    ];
    for (s, k) in white {
        assert_eq!(at(s), Some((k, Color::White)), "{s}");
    }
    assert_eq!(start.pieces().count(), 14);
}

#[test]
fn start_position_legal_moves() {
    let start = Position::start(V);
    // Pawn 6e: 6d. King 6f: 5e. Gold 5f: 5e 4e. Silver 4f: 5e 4e 3e. Knight 3f: 4d 2d.
    // Bishop 2f: 3e 4d 5c 6b(+) and 1e. Rook 1f: 1e 1d 1c and 1b(+) capturing the pawn.
    assert_codes(
        &legal_codes(&start),
        &[
            "6e6d", "6f5e", "5f5e", "5f4e", "4f5e", "4f4e", "4f3e", "3f4d", "3f2d", "2f3e", "2f4d",
            "2f5c", "2f6b", "2f6b+", "2f1e", "1f1e", "1f1d", "1f1c", "1f1b", "1f1b+",
        ],
    );
}

#[test]
fn there_are_no_lances_in_judkins_shogi() {
    let v = Variant::get(V);
    assert!(fen::parse(v, "lbnsgk/5p/6/6/P5/KGSNBR b - 1").is_err());
    assert!(fen::parse(v, "rbnsgk/5p/6/6/P5/KGSNBR b L 1").is_err());
}

#[test]
fn squares_beyond_file_6_and_rank_f_are_off_the_board() {
    let v = Variant::get(V);
    assert!(v.parse_square("7a").is_none());
    assert!(v.parse_square("1g").is_none());
    let start = Position::start(V);
    let off = Move::Board {
        from: sq(V, "1f"),
        to: Square::new(7, 5),
        promote: false,
    };
    assert_eq!(start.check_move(off), Err(IllegalMove::OffBoard));
}

// ---------------------------------------------------------------------------------------------
// Movement on the small board
// ---------------------------------------------------------------------------------------------

#[test]
fn king_in_the_corner_has_three_moves() {
    let position = p(&[("6f", "K"), ("1a", "k")]);
    assert_codes(&legal_codes(&position), &["6f5f", "6f5e", "6f6e"]);
}

#[test]
fn rook_slides_to_the_edges_of_the_six_by_six_board() {
    let position = p(&[("3c", "R"), ("6f", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "3c"),
        &[
            "3c3b", "3c3b+", "3c3a", "3c3a+", "3c3d", "3c3e", "3c3f", "3c4c", "3c5c", "3c6c",
            "3c2c", "3c1c",
        ],
    );
}

#[test]
fn bishop_slides_to_the_edges_of_the_six_by_six_board() {
    let position = p(&[("3c", "B"), ("3f", "K"), ("3a", "k")]);
    assert_codes(
        &legal_from(&position, "3c"),
        &[
            "3c4b", "3c4b+", "3c5a", "3c5a+", "3c2b", "3c2b+", "3c1a", "3c1a+", "3c4d", "3c5e",
            "3c6f", "3c2d", "3c1e",
        ],
    );
}

#[test]
fn dragon_and_horse_add_king_steps() {
    let position = p(&[("3c", "+R"), ("6f", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "3c"),
        &[
            "3c3b", "3c3a", "3c3d", "3c3e", "3c3f", "3c4c", "3c5c", "3c6c", "3c2c", "3c1c", "3c4b",
            "3c2b", "3c4d", "3c2d",
        ],
    );
    let position = p(&[("3c", "+B"), ("3f", "K"), ("3a", "k")]);
    assert_codes(
        &legal_from(&position, "3c"),
        &[
            "3c4b", "3c5a", "3c2b", "3c1a", "3c4d", "3c5e", "3c6f", "3c2d", "3c1e", "3c3b", "3c3d",
            "3c4c", "3c2c",
        ],
    );
}

#[test]
fn promoted_silver_knight_and_pawn_move_as_gold() {
    for letter in ["+S", "+N", "+P"] {
        let position = p(&[("3d", letter), ("6f", "K"), ("1a", "k")]);
        assert_codes(
            &legal_from(&position, "3d"),
            &["3d3c", "3d4c", "3d2c", "3d4d", "3d2d", "3d3e"],
        );
    }
}

#[test]
fn gold_steps_as_in_shogi() {
    let position = p(&[("3d", "G"), ("6f", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "3d"),
        &["3d3c", "3d4c", "3d2c", "3d4d", "3d2d", "3d3e"],
    );
}

#[test]
fn silver_entering_rank_c_does_not_promote() {
    // Rank c is outside Black's two-rank zone.
    let position = p(&[("3d", "S"), ("6f", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "3d"),
        &["3d3c", "3d4c", "3d2c", "3d4e", "3d2e"],
    );
    assert!(matches!(
        check(&position, "3d3c+"),
        Err(IllegalMove::NotInZone { .. })
    ));
}

#[test]
fn silver_may_promote_entering_rank_b() {
    let position = p(&[("3c", "S"), ("6f", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "3c"),
        &[
            "3c3b", "3c3b+", "3c4b", "3c4b+", "3c2b", "3c2b+", "3c4d", "3c2d",
        ],
    );
}

#[test]
fn silver_may_promote_within_and_leaving_the_zone() {
    let position = p(&[("3b", "S"), ("6f", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "3b"),
        &[
            "3b3a", "3b3a+", "3b4a", "3b4a+", "3b2a", "3b2a+", "3b4c", "3b4c+", "3b2c", "3b2c+",
        ],
    );
}

#[test]
fn knight_move_to_rank_c_does_not_promote() {
    let position = p(&[("3e", "N"), ("6f", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "3e"), &["3e4c", "3e2c"]);
}

#[test]
fn knight_must_promote_anywhere_in_the_two_rank_zone() {
    let position = p(&[("3d", "N"), ("6f", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "3d"), &["3d4b+", "3d2b+"]);
    assert!(matches!(
        check(&position, "3d4b"),
        Err(IllegalMove::MustPromote { .. })
    ));
    let position = p(&[("3c", "N"), ("6f", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "3c"), &["3c4a+", "3c2a+"]);
}

#[test]
fn knight_near_the_edge_has_one_target() {
    let position = p(&[("1d", "N"), ("6f", "K"), ("3a", "k")]);
    assert_codes(&legal_from(&position, "1d"), &["1d2b+"]);
}

#[test]
fn pawn_promotes_only_from_rank_b_on_and_must_on_rank_a() {
    let position = p(&[
        ("5d", "P"),
        ("3c", "P"),
        ("2b", "P"),
        ("6f", "K"),
        ("1a", "k"),
    ]);
    assert_codes(&legal_from(&position, "5d"), &["5d5c"]);
    assert!(matches!(
        check(&position, "5d5c+"),
        Err(IllegalMove::NotInZone { .. })
    ));
    assert_codes(&legal_from(&position, "3c"), &["3c3b", "3c3b+"]);
    assert_codes(&legal_from(&position, "2b"), &["2b2a+"]);
    assert!(matches!(
        check(&position, "2b2a"),
        Err(IllegalMove::MustPromote { .. })
    ));
}

#[test]
fn white_zone_is_ranks_e_and_f() {
    let position = pw(&[
        ("5c", "p"),
        ("3d", "p"),
        ("2e", "p"),
        ("6a", "k"),
        ("1f", "K"),
    ]);
    assert_codes(&legal_from(&position, "5c"), &["5c5d"]);
    assert_codes(&legal_from(&position, "3d"), &["3d3e", "3d3e+"]);
    assert_codes(&legal_from(&position, "2e"), &["2e2f+"]);
    let position = pw(&[("4b", "n"), ("3c", "n"), ("6a", "k"), ("6f", "K")]);
    assert_codes(&legal_from(&position, "4b"), &["4b5d", "4b3d"]);
    assert_codes(&legal_from(&position, "3c"), &["3c4e+", "3c2e+"]);
}

// ---------------------------------------------------------------------------------------------
// Captures and drops
// ---------------------------------------------------------------------------------------------

#[test]
fn captured_promoted_piece_goes_to_hand_unpromoted() {
    let g = game_after(
        V,
        &fen::write(&p(&[("3d", "R"), ("3b", "+s"), ("6f", "K"), ("1a", "k")])),
        "3d3b",
    );
    assert_eq!(g.position().hand(Color::Black, PieceKind::Silver), 1);
    assert_eq!(
        g.position().hand(Color::Black, PieceKind::PromotedSilver),
        0
    );
}

#[test]
fn dropped_piece_does_not_promote_on_the_drop_but_may_on_its_next_move() {
    let start = ph(&[("6f", "K"), ("1a", "k")], "S");
    let mut g = game_after(V, &fen::write(&start), "S*4b");
    assert_eq!(
        g.position().piece_at(sq(V, "4b")).map(|p| p.kind),
        Some(PieceKind::Silver)
    );
    play(&mut g, "1a1b 4b4a+");
    assert_eq!(
        g.position().piece_at(sq(V, "4a")).map(|p| p.kind),
        Some(PieceKind::PromotedSilver)
    );
}

#[test]
fn a_held_piece_drops_on_any_empty_square() {
    let position = ph(&[("6f", "K"), ("1a", "k")], "S");
    let expected = drop_codes(V, "S", &["6f", "1a"], |_, _| true);
    assert_eq!(expected.len(), 34);
    assert_eq!(legal_drops(&position, "S"), expected);
    assert!(matches!(
        check(&position, "S*6f"),
        Err(IllegalMove::DropOnOccupied { .. })
    ));
}

#[test]
fn pawn_may_not_be_dropped_on_the_last_rank() {
    let position = ph(&[("6f", "K"), ("1a", "k")], "P");
    let expected = drop_codes(V, "P", &["6f", "1a"], |_, r| r != 'a');
    assert_eq!(expected.len(), 29);
    assert_eq!(legal_drops(&position, "P"), expected);
    assert!(matches!(
        check(&position, "P*3a"),
        Err(IllegalMove::DeadDrop { .. })
    ));
}

#[test]
fn knight_may_not_be_dropped_on_the_last_two_ranks() {
    let position = ph(&[("6f", "K"), ("1a", "k")], "N");
    let expected = drop_codes(V, "N", &["6f", "1a"], |_, r| r != 'a' && r != 'b');
    assert_eq!(expected.len(), 23);
    assert_eq!(legal_drops(&position, "N"), expected);
    assert!(matches!(
        check(&position, "N*3b"),
        Err(IllegalMove::DeadDrop { .. })
    ));
}

#[test]
fn white_may_not_drop_pawn_on_rank_f_or_knight_on_ranks_e_and_f() {
    let position = setup(V, &[("6f", "K"), ("1a", "k")], "w", "pn");
    assert!(matches!(
        check(&position, "P*3f"),
        Err(IllegalMove::DeadDrop { .. })
    ));
    assert!(matches!(
        check(&position, "N*3e"),
        Err(IllegalMove::DeadDrop { .. })
    ));
    assert!(check(&position, "N*3d").is_ok());
    assert!(check(&position, "P*3a").is_ok());
}

#[test]
fn no_second_unpromoted_pawn_on_a_file_but_a_tokin_does_not_count() {
    let position = ph(
        &[
            ("4d", "P"),
            ("3c", "+P"),
            ("2c", "p"),
            ("6f", "K"),
            ("1a", "k"),
        ],
        "P",
    );
    let expected = drop_codes(V, "P", &["4d", "3c", "2c", "6f", "1a"], |f, r| {
        f != 4 && r != 'a'
    });
    assert_eq!(legal_drops(&position, "P"), expected);
    assert!(matches!(
        check(&position, "P*4e"),
        Err(IllegalMove::TwoPawns { .. })
    ));
}

fn mating_net(hand: &str) -> Position {
    // White king 1a; gold 1c guards 1b and 2b, knight 3c guards 2a.
    ph(&[("1a", "k"), ("1c", "G"), ("3c", "N"), ("6f", "K")], hand)
}

#[test]
fn pawn_drop_mate_is_illegal() {
    let position = mating_net("P");
    assert!(!legal_codes(&position).contains(&"P*1b".to_string()));
    assert!(matches!(
        check(&position, "P*1b"),
        Err(IllegalMove::PawnDropMate { .. })
    ));
}

#[test]
fn pawn_drop_check_with_an_escape_is_legal() {
    let position = ph(&[("1a", "k"), ("1c", "G"), ("6f", "K")], "P");
    assert!(check(&position, "P*1b").is_ok());
}

#[test]
fn gold_drop_mate_is_legal_and_wins() {
    let g = game_after(V, &fen::write(&mating_net("G")), "G*1b");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Checkmate
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Check and game end
// ---------------------------------------------------------------------------------------------

#[test]
fn king_may_not_move_into_check() {
    // The white rook on 2a covers file 2.
    let position = p(&[("3f", "K"), ("2a", "r"), ("6a", "k")]);
    assert_codes(&legal_codes(&position), &["3f3e", "3f4e", "3f4f"]);
}

#[test]
fn pinned_piece_may_not_leave_the_line() {
    let position = p(&[("3f", "K"), ("3d", "G"), ("3a", "r"), ("6a", "k")]);
    assert_codes(&legal_from(&position, "3d"), &["3d3c", "3d3e"]);
    assert_eq!(check(&position, "3d4d"), Err(IllegalMove::SelfCheck));
}

#[test]
fn stalemate_is_a_loss_for_the_side_without_moves() {
    let start = pw(&[("1f", "K"), ("2d", "g"), ("4d", "s"), ("6a", "k")]);
    let g = game_after(V, &fen::write(&start), "4d3e");
    assert!(!g.position().in_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: Reason::Stalemate
        })
    );
}

#[test]
fn fourth_occurrence_of_the_start_position_is_a_draw() {
    let cycle = "1f1e 6a6b 1e1f 6b6a ";
    let mut g = game_after(V, "start", &cycle.repeat(2));
    play(&mut g, "1f1e 6a6b 1e1f");
    assert_eq!(g.outcome(), None);
    play(&mut g, "6b6a");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    let start = p(&[("6b", "R"), ("1a", "k"), ("3f", "K")]);
    let cycle = "6b6a 1a1b 6a6b 1b1a ";
    let mut g = game_after(V, &fen::write(&start), &cycle.repeat(2));
    play(&mut g, "6b6a 1a1b 6a6b");
    assert_eq!(g.outcome(), None);
    play(&mut g, "1b1a");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: Reason::PerpetualCheck
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Impasse
// ---------------------------------------------------------------------------------------------

#[test]
fn impasse_needs_both_kings_in_their_two_rank_zones() {
    assert!(impasse::eligible(&pos(V, "6/2K3/6/6/3k2/6 b - 1")));
    // Rank c is outside Black's zone, rank d outside White's.
    assert!(!impasse::eligible(&pos(V, "6/6/2K3/6/3k2/6 b - 1")));
    assert!(!impasse::eligible(&pos(V, "6/2K3/6/3k2/6/6 b - 1")));
}

#[test]
fn impasse_points_count_rook_and_bishop_five_and_others_one() {
    let start = Position::start(V);
    // R 5 + B 5 + G S N P = 14.
    assert_eq!(impasse::points(&start, Color::Black), 14);
    assert_eq!(impasse::points(&start, Color::White), 14);
    // Promotions are ignored: dragon 5, tokin 1, plus a bishop in hand 5.
    let position = pos(V, "+R5/2K3/6/+P5/3k2/6 b B 1");
    assert_eq!(impasse::points(&position, Color::Black), 11);
}

#[test]
fn impasse_at_twelve_points_is_a_draw() {
    let position = pos(V, "6/2K3/6/6/3k2/6 b RBGPrbgssnnp 1");
    assert_eq!(impasse::points(&position, Color::Black), 12);
    assert_eq!(impasse::points(&position, Color::White), 16);
    assert_eq!(
        impasse::result(&position),
        Some(Outcome::Draw {
            reason: Reason::Impasse
        })
    );
}

#[test]
fn impasse_below_twelve_points_loses() {
    let position = pos(V, "6/2K3/6/6/3k2/6 b RBPrbggssnnp 1");
    assert_eq!(impasse::points(&position, Color::Black), 11);
    assert_eq!(impasse::points(&position, Color::White), 17);
    assert_eq!(
        impasse::result(&position),
        Some(Outcome::Win {
            winner: Color::White,
            reason: Reason::Impasse
        })
    );
    let position = pos(V, "6/2K3/6/6/3k2/6 b RBGGSSNNPrbp 1");
    assert_eq!(impasse::points(&position, Color::White), 11);
    assert_eq!(
        impasse::result(&position),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Impasse
        })
    );
}

#[test]
fn impasse_is_never_automatic() {
    assert_eq!(Game::new(pos(V, "6/2K3/6/6/3k2/6 b - 1")).outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// Handicaps
// ---------------------------------------------------------------------------------------------

#[test]
fn handicap_start_positions_remove_whites_pieces_and_white_moves_first() {
    let cases = [
        ("bishop", "r1nsgk/5p/6/6/P5/KGSNBR w - 1"),
        ("rook", "1bnsgk/5p/6/6/P5/KGSNBR w - 1"),
        ("two", "2nsgk/5p/6/6/P5/KGSNBR w - 1"),
    ];
    for (name, expected) in cases {
        let position = handicap_position(V, name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(fen::write(&position), expected, "{name}");
        assert_eq!(position.side_to_move(), Color::White);
    }
}

#[test]
fn handicaps_not_in_the_text_are_refused() {
    assert!(handicap_position(V, "lance").is_none());
    assert!(handicap_position(V, "four").is_none());
}
