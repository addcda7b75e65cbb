//! Behaviour tests for Shogi (`seeds/shogi.txt` and the Shogi parts of `rules.md`).
//!
//! Squares: file 9..1 from Black's left, rank a..i from the top; Black moves up the board.
//! Every expected move set here was worked out by hand from the rules, not taken from the engine.

use crate::common;

use common::*;
use tegami::engine::notation::{fen, hodges, input};
use tegami::engine::{
    handicap_position, impasse, perft, Color, Game, IllegalMove, Outcome, PieceKind, Position,
    Reason, VariantId,
};

const V: VariantId = VariantId::Shogi;

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
// Start position
// ---------------------------------------------------------------------------------------------

#[test]
fn start_position_is_the_standard_setup() {
    let start = Position::start(V);
    assert_eq!(
        fen::write(&start),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    assert_eq!(start.side_to_move(), Color::Black);
    let at = |s: &str| start.piece_at(sq(V, s)).map(|p| (p.kind, p.color));
    assert_eq!(at("5i"), Some((PieceKind::King, Color::Black)));
    assert_eq!(at("8h"), Some((PieceKind::Bishop, Color::Black)));
    assert_eq!(at("2h"), Some((PieceKind::Rook, Color::Black)));
    assert_eq!(at("2b"), Some((PieceKind::Bishop, Color::White)));
    assert_eq!(at("8b"), Some((PieceKind::Rook, Color::White)));
    assert_eq!(at("5a"), Some((PieceKind::King, Color::White)));
}

#[test]
fn start_position_has_thirty_moves() {
    let start = Position::start(V);
    // Nine pawn pushes, lance 9i/1i one step each, silvers 7i: 7h 6h, 3i: 3h 4h,
    // golds 6i: 7h 6h 5h, 4i: 5h 4h 3h, king 5i: 6h 5h 4h, rook 2h: 1h 3h 4h 5h 6h 7h,
    // bishop 8h: none.
    assert_codes(
        &legal_codes(&start),
        &[
            "9g9f", "8g8f", "7g7f", "6g6f", "5g5f", "4g4f", "3g3f", "2g2f", "1g1f", "9i9h", "1i1h",
            "7i7h", "7i6h", "3i3h", "3i4h", "6i7h", "6i6h", "6i5h", "4i5h", "4i4h", "4i3h", "5i6h",
            "5i5h", "5i4h", "2h1h", "2h3h", "2h4h", "2h5h", "2h6h", "2h7h",
        ],
    );
}

#[test]
fn start_position_perft_matches_the_known_counts() {
    let mut start = Position::start(V);
    assert_eq!(perft(&mut start, 1), 30);
    assert_eq!(perft(&mut start, 2), 900);
    assert_eq!(perft(&mut start, 3), 25_470);
}

#[test]
fn move_number_is_ply_plus_one() {
    let g = game_after(V, "start", "7g7f 3c3d");
    assert_eq!(
        fen::write(g.position()),
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    );
}

#[test]
fn hands_are_read_in_any_order_and_written_in_usi_order() {
    let position = pos(V, "4k4/9/9/9/9/9/9/9/4K4 b pP2LrGbS 1");
    assert_eq!(position.hand(Color::Black, PieceKind::Lance), 2);
    assert_eq!(position.hand(Color::White, PieceKind::Rook), 1);
    assert_eq!(fen::write(&position), "4k4/9/9/9/9/9/9/9/4K4 b GS2LPrbp 1");
}

// ---------------------------------------------------------------------------------------------
// How each piece moves
// ---------------------------------------------------------------------------------------------

#[test]
fn king_steps_one_square_in_every_direction() {
    let position = p(&[("5e", "K"), ("1a", "k")]);
    assert_codes(
        &legal_codes(&position),
        &[
            "5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e4f", "5e5f", "5e6f",
        ],
    );
}

#[test]
fn king_in_the_corner_is_stopped_by_the_board_edge() {
    let position = p(&[("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_codes(&position), &["9i8i", "9i8h", "9i9h"]);
}

#[test]
fn gold_steps_orthogonally_and_diagonally_forward() {
    let position = p(&[("5e", "G"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e5f"],
    );
}

#[test]
fn white_gold_moves_toward_rank_i() {
    let position = pw(&[("5e", "g"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e4f", "5e5f", "5e6f", "5e4e", "5e6e", "5e5d"],
    );
}

#[test]
fn silver_steps_diagonally_and_straight_forward() {
    let position = p(&[("5e", "S"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e4d", "5e5d", "5e6d", "5e4f", "5e6f"],
    );
}

#[test]
fn white_silver_moves_toward_rank_i() {
    let position = pw(&[("5e", "s"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e4f", "5e5f", "5e6f", "5e4d", "5e6d"],
    );
}

#[test]
fn step_movers_are_blocked_by_own_pieces_and_capture_enemy_pieces() {
    // Own pawn on 5d blocks the silver's forward step; the white pawn on 4d is captured.
    let position = p(&[
        ("5e", "S"),
        ("5d", "P"),
        ("4d", "p"),
        ("9i", "K"),
        ("1a", "k"),
    ]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e4d", "5e6d", "5e4f", "5e6f"],
    );
}

#[test]
fn knight_jumps_two_forward_one_sideways_over_pieces() {
    // The knight on 5g is surrounded; it leaps to 4e (capturing) but not onto its own gold.
    let position = p(&[
        ("5g", "N"),
        ("5f", "P"),
        ("6f", "s"),
        ("4e", "p"),
        ("6e", "G"),
        ("9i", "K"),
        ("1a", "k"),
    ]);
    assert_codes(&legal_from(&position, "5g"), &["5g4e"]);
}

#[test]
fn knight_may_promote_on_the_third_rank() {
    let position = p(&[("5e", "N"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e4c", "5e4c+", "5e6c", "5e6c+"],
    );
}

#[test]
fn knight_must_promote_on_the_last_two_ranks() {
    let position = p(&[("5d", "N"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5d"), &["5d4b+", "5d6b+"]);
    assert!(matches!(
        check(&position, "5d4b"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Knight,
            ..
        })
    ));
    let position = p(&[("5c", "N"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5c"), &["5c4a+", "5c6a+"]);
}

#[test]
fn white_knight_jumps_toward_rank_i_and_must_promote_on_ranks_h_and_i() {
    let position = pw(&[("5e", "n"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e4g", "5e4g+", "5e6g", "5e6g+"],
    );
    let position = pw(&[("5f", "n"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5f"), &["5f4h+", "5f6h+"]);
}

#[test]
fn lance_slides_forward_and_captures_the_first_enemy() {
    let position = p(&[("5e", "L"), ("5b", "p"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e5d", "5e5c", "5e5c+", "5e5b", "5e5b+"],
    );
}

#[test]
fn lance_is_stopped_by_an_own_piece() {
    let position = p(&[("5e", "L"), ("5c", "G"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5e"), &["5e5d"]);
}

#[test]
fn lance_must_promote_on_the_last_rank() {
    let position = p(&[("5c", "L"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5c"), &["5c5b", "5c5b+", "5c5a+"]);
    assert!(matches!(
        check(&position, "5c5a"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Lance,
            ..
        })
    ));
}

#[test]
fn pawn_steps_one_square_forward_only() {
    let position = p(&[("5e", "P"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5e"), &["5e5d"]);
}

#[test]
fn pawn_captures_straight_ahead_not_diagonally() {
    let position = p(&[
        ("5e", "P"),
        ("5d", "p"),
        ("4d", "g"),
        ("9i", "K"),
        ("1a", "k"),
    ]);
    assert_codes(&legal_from(&position, "5e"), &["5e5d"]);
    assert!(matches!(
        check(&position, "5e4d"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn pawn_may_promote_in_the_zone_and_must_on_the_last_rank() {
    let position = p(&[
        ("7d", "P"),
        ("5c", "P"),
        ("3b", "P"),
        ("9i", "K"),
        ("1a", "k"),
    ]);
    assert_codes(&legal_from(&position, "7d"), &["7d7c", "7d7c+"]);
    assert_codes(&legal_from(&position, "5c"), &["5c5b", "5c5b+"]);
    assert_codes(&legal_from(&position, "3b"), &["3b3a+"]);
    assert!(matches!(
        check(&position, "3b3a"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Pawn,
            ..
        })
    ));
}

#[test]
fn white_pawn_moves_toward_rank_i_and_must_promote_there() {
    let position = pw(&[("5h", "p"), ("4f", "p"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5h"), &["5h5i+"]);
    assert_codes(&legal_from(&position, "4f"), &["4f4g", "4f4g+"]);
}

#[test]
fn bishop_slides_diagonally_to_the_board_edges() {
    let position = p(&[("5e", "B"), ("5i", "K"), ("5a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e4d", "5e3c", "5e3c+", "5e2b", "5e2b+", "5e1a", "5e1a+", "5e6d", "5e7c", "5e7c+",
            "5e8b", "5e8b+", "5e9a", "5e9a+", "5e4f", "5e3g", "5e2h", "5e1i", "5e6f", "5e7g",
            "5e8h", "5e9i",
        ],
    );
}

#[test]
fn bishop_is_blocked_by_own_pieces_and_stops_on_a_capture() {
    let position = p(&[
        ("5e", "B"),
        ("3c", "P"),
        ("7g", "p"),
        ("5i", "K"),
        ("5a", "k"),
    ]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e4d", "5e6d", "5e7c", "5e7c+", "5e8b", "5e8b+", "5e9a", "5e9a+", "5e4f", "5e3g",
            "5e2h", "5e1i", "5e6f", "5e7g",
        ],
    );
}

#[test]
fn rook_slides_orthogonally_to_the_board_edges() {
    let position = p(&[("5e", "R"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e5d", "5e5c", "5e5c+", "5e5b", "5e5b+", "5e5a", "5e5a+", "5e5f", "5e5g", "5e5h",
            "5e5i", "5e9e", "5e8e", "5e7e", "5e6e", "5e4e", "5e3e", "5e2e", "5e1e",
        ],
    );
}

#[test]
fn rook_is_blocked_by_own_pieces_and_stops_on_a_capture() {
    let position = p(&[
        ("5e", "R"),
        ("5g", "P"),
        ("5c", "g"),
        ("7e", "S"),
        ("3e", "p"),
        ("9i", "K"),
        ("1a", "k"),
    ]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e5d", "5e5c", "5e5c+", "5e5f", "5e6e", "5e4e", "5e3e"],
    );
}

#[test]
fn dragon_moves_as_rook_plus_one_diagonal_step_and_never_promotes_again() {
    let position = p(&[("5e", "+R"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e5d", "5e5c", "5e5b", "5e5a", "5e5f", "5e5g", "5e5h", "5e5i", "5e9e", "5e8e", "5e7e",
            "5e6e", "5e4e", "5e3e", "5e2e", "5e1e", "5e4d", "5e6d", "5e4f", "5e6f",
        ],
    );
}

#[test]
fn horse_moves_as_bishop_plus_one_orthogonal_step() {
    let position = p(&[("5e", "+B"), ("5i", "K"), ("5a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e4d", "5e3c", "5e2b", "5e1a", "5e6d", "5e7c", "5e8b", "5e9a", "5e4f", "5e3g", "5e2h",
            "5e1i", "5e6f", "5e7g", "5e8h", "5e9i", "5e5d", "5e5f", "5e4e", "5e6e",
        ],
    );
}

#[test]
fn promoted_pawn_lance_knight_and_silver_move_as_gold() {
    for letter in ["+P", "+L", "+N", "+S"] {
        let position = p(&[("5e", letter), ("9i", "K"), ("1a", "k")]);
        assert_codes(
            &legal_from(&position, "5e"),
            &["5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e5f"],
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Promotion
// ---------------------------------------------------------------------------------------------

#[test]
fn promotion_is_optional_on_a_move_into_the_zone() {
    let position = p(&[("5d", "S"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5d"),
        &[
            "5d4c", "5d4c+", "5d5c", "5d5c+", "5d6c", "5d6c+", "5d4e", "5d6e",
        ],
    );
}

#[test]
fn promotion_is_optional_on_a_move_within_the_zone() {
    let position = p(&[("5b", "S"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5b"),
        &[
            "5b4a", "5b4a+", "5b5a", "5b5a+", "5b6a", "5b6a+", "5b4c", "5b4c+", "5b6c", "5b6c+",
        ],
    );
}

#[test]
fn promotion_is_optional_on_a_move_out_of_the_zone() {
    let position = p(&[("5c", "S"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5c"),
        &[
            "5c4b", "5c4b+", "5c5b", "5c5b+", "5c6b", "5c6b+", "5c4d", "5c4d+", "5c6d", "5c6d+",
        ],
    );
}

#[test]
fn no_promotion_outside_the_zone() {
    let position = p(&[("5e", "S"), ("9i", "K"), ("1a", "k")]);
    assert!(matches!(
        check(&position, "5e5d+"),
        Err(IllegalMove::NotInZone {
            kind: PieceKind::Silver
        })
    ));
}

#[test]
fn white_zone_is_ranks_g_to_i() {
    let position = pw(&[("5f", "s"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5f"),
        &[
            "5f4g", "5f4g+", "5f5g", "5f5g+", "5f6g", "5f6g+", "5f4e", "5f6e",
        ],
    );
}

#[test]
fn gold_and_king_do_not_promote() {
    let position = p(&[("5d", "G"), ("7d", "K"), ("1a", "k")]);
    assert!(matches!(
        check(&position, "5d5c+"),
        Err(IllegalMove::CannotPromote {
            kind: PieceKind::Gold
        })
    ));
    assert!(matches!(
        check(&position, "7d7c+"),
        Err(IllegalMove::CannotPromote {
            kind: PieceKind::King
        })
    ));
}

#[test]
fn promoted_piece_does_not_promote_again() {
    let position = p(&[("5c", "+S"), ("9i", "K"), ("1a", "k")]);
    assert!(matches!(
        check(&position, "5c5b+"),
        Err(IllegalMove::CannotPromote {
            kind: PieceKind::PromotedSilver
        })
    ));
}

#[test]
fn dropped_piece_does_not_promote_on_the_drop_but_may_on_its_next_move() {
    let mut g = Game::new(ph(&[("9i", "K"), ("1a", "k")], "S"));
    play(&mut g, "S*5c");
    let placed = g.position().piece_at(sq(V, "5c")).unwrap();
    assert_eq!(placed.kind, PieceKind::Silver);
    play(&mut g, "1a1b 5c5b+");
    let placed = g.position().piece_at(sq(V, "5b")).unwrap();
    assert_eq!(placed.kind, PieceKind::PromotedSilver);
}

// ---------------------------------------------------------------------------------------------
// Captures and drops
// ---------------------------------------------------------------------------------------------

#[test]
fn captured_pieces_go_to_the_hand_unpromoted() {
    let mut g = Game::new(p(&[
        ("5e", "R"),
        ("5c", "+r"),
        ("3c", "+p"),
        ("9i", "K"),
        ("1a", "k"),
    ]));
    play(&mut g, "5e5c 1a1b 5c3c");
    let pos = g.position();
    assert_eq!(pos.hand(Color::Black, PieceKind::Rook), 1);
    assert_eq!(pos.hand(Color::Black, PieceKind::Pawn), 1);
    assert_eq!(pos.hand(Color::Black, PieceKind::Dragon), 0);
    assert_eq!(pos.hand(Color::Black, PieceKind::Tokin), 0);
    assert!(fen::write(pos).contains(" RP "));
}

#[test]
fn white_captures_go_to_whites_hand_unpromoted() {
    let mut g = Game::new(pw(&[("5a", "r"), ("5e", "+B"), ("9i", "K"), ("1b", "k")]));
    play(&mut g, "5a5e");
    assert_eq!(g.position().hand(Color::White, PieceKind::Bishop), 1);
    assert_eq!(g.position().hand(Color::White, PieceKind::Horse), 0);
    assert!(fen::write(g.position()).ends_with(" b b 2"));
}

#[test]
fn a_piece_may_not_capture_its_own_side() {
    let position = p(&[("5e", "R"), ("5c", "G"), ("9i", "K"), ("1a", "k")]);
    assert!(matches!(
        check(&position, "5e5c"),
        Err(IllegalMove::OwnPiece { .. })
    ));
}

#[test]
fn a_held_piece_drops_on_any_empty_square() {
    let position = ph(&[("5i", "K"), ("5a", "k")], "G");
    let expected = drop_codes(V, "G", &["5i", "5a"], |_, _| true);
    assert_eq!(expected.len(), 79);
    assert_eq!(legal_drops(&position, "G"), expected);
}

#[test]
fn drops_go_on_empty_squares_only() {
    let position = ph(&[("5e", "P"), ("5i", "K"), ("5a", "k")], "G");
    assert!(matches!(
        check(&position, "G*5e"),
        Err(IllegalMove::DropOnOccupied { .. })
    ));
    assert!(matches!(
        check(&position, "G*5a"),
        Err(IllegalMove::DropOnOccupied { .. })
    ));
}

#[test]
fn only_held_pieces_can_be_dropped() {
    let position = ph(&[("5i", "K"), ("5a", "k")], "Gs");
    assert!(matches!(
        check(&position, "S*5e"),
        Err(IllegalMove::NotInHand {
            kind: PieceKind::Silver
        })
    ));
}

#[test]
fn pawn_and_lance_may_not_be_dropped_on_the_last_rank() {
    let position = ph(&[("5i", "K"), ("5a", "k")], "PL");
    let expected_p = drop_codes(V, "P", &["5i", "5a"], |_, r| r != 'a');
    let expected_l = drop_codes(V, "L", &["5i", "5a"], |_, r| r != 'a');
    assert_eq!(expected_p.len(), 71);
    assert_eq!(legal_drops(&position, "P"), expected_p);
    assert_eq!(legal_drops(&position, "L"), expected_l);
    assert!(matches!(
        check(&position, "P*4a"),
        Err(IllegalMove::DeadDrop {
            kind: PieceKind::Pawn,
            ..
        })
    ));
    assert!(matches!(
        check(&position, "L*9a"),
        Err(IllegalMove::DeadDrop {
            kind: PieceKind::Lance,
            ..
        })
    ));
}

#[test]
fn knight_may_not_be_dropped_on_the_last_two_ranks() {
    let position = ph(&[("5i", "K"), ("5a", "k")], "N");
    let expected = drop_codes(V, "N", &["5i", "5a"], |_, r| r != 'a' && r != 'b');
    assert_eq!(expected.len(), 62);
    assert_eq!(legal_drops(&position, "N"), expected);
    assert!(matches!(
        check(&position, "N*4b"),
        Err(IllegalMove::DeadDrop { .. })
    ));
    assert!(check(&position, "N*4c").is_ok());
}

#[test]
fn white_dead_squares_for_drops_are_ranks_h_and_i() {
    let position = setup(V, &[("5i", "K"), ("5a", "k")], "w", "pln");
    assert!(matches!(
        check(&position, "P*4i"),
        Err(IllegalMove::DeadDrop { .. })
    ));
    assert!(matches!(
        check(&position, "L*4i"),
        Err(IllegalMove::DeadDrop { .. })
    ));
    assert!(matches!(
        check(&position, "N*4h"),
        Err(IllegalMove::DeadDrop { .. })
    ));
    assert!(check(&position, "P*4a").is_ok());
    assert!(check(&position, "N*4g").is_ok());
}

#[test]
fn no_second_unpromoted_pawn_on_a_file() {
    // Own pawn on file 5 forbids the file; a tokin (3c) and an enemy pawn (4c) do not.
    let position = ph(
        &[
            ("5g", "P"),
            ("3c", "+P"),
            ("4c", "p"),
            ("9i", "K"),
            ("1a", "k"),
        ],
        "P",
    );
    let expected = drop_codes(V, "P", &["5g", "3c", "4c", "9i", "1a"], |f, r| {
        f != 5 && r != 'a'
    });
    assert_eq!(legal_drops(&position, "P"), expected);
    assert!(matches!(
        check(&position, "P*5e"),
        Err(IllegalMove::TwoPawns { .. })
    ));
    assert!(check(&position, "P*3e").is_ok());
    assert!(check(&position, "P*4e").is_ok());
}

/// White king 1a; Black gold 1c guards 1b and 2b, Black knight 3c guards 2a.
fn mating_net(hand: &str) -> Position {
    ph(&[("1a", "k"), ("1c", "G"), ("3c", "N"), ("5i", "K")], hand)
}

#[test]
fn pawn_drop_mate_is_illegal() {
    let position = mating_net("P");
    assert!(!legal_codes(&position).contains(&"P*1b".to_string()));
    assert!(matches!(
        check(&position, "P*1b"),
        Err(IllegalMove::PawnDropMate { .. })
    ));
    // Other pawn drops stay legal.
    assert!(check(&position, "P*2c").is_ok());
}

#[test]
fn white_pawn_drop_mate_is_illegal_too() {
    // Mirror image: black king 9i; white gold 9g guards 9h and 8h, white knight 7g guards 8i.
    let position = setup(
        V,
        &[("9i", "K"), ("9g", "g"), ("7g", "n"), ("5a", "k")],
        "w",
        "p",
    );
    assert!(matches!(
        check(&position, "P*9h"),
        Err(IllegalMove::PawnDropMate { .. })
    ));
    assert!(check(&position, "P*8h").is_ok());
}

#[test]
fn pawn_drop_mate_is_illegal_even_when_the_guard_is_pinned() {
    // The gold on 2c is pinned to the black king on 2e by the white rook on 2a, yet it still
    // guards 1b and 2b: the king cannot take the pawn, so the drop would mate.
    let position = ph(
        &[
            ("1a", "k"),
            ("2a", "r"),
            ("2c", "G"),
            ("3c", "N"),
            ("2e", "K"),
        ],
        "P",
    );
    assert!(matches!(
        check(&position, "P*1b"),
        Err(IllegalMove::PawnDropMate { .. })
    ));
}

#[test]
fn pawn_drop_check_that_is_not_mate_is_legal() {
    // Without the knight the king escapes to 2a.
    let position = ph(&[("1a", "k"), ("1c", "G"), ("5i", "K")], "P");
    assert!(check(&position, "P*1b").is_ok());
    let g = game_after(V, &fen::write(&position), "P*1b");
    assert!(g.position().in_check());
    assert_eq!(g.outcome(), None);
    assert_codes(&legal_codes(g.position()), &["1a2a"]);
}

#[test]
fn pawn_drop_check_that_can_be_captured_is_legal() {
    // The white silver on 2a can take the pawn on 1b.
    let position = ph(
        &[
            ("1a", "k"),
            ("2a", "s"),
            ("1c", "G"),
            ("3c", "N"),
            ("5i", "K"),
        ],
        "P",
    );
    assert!(check(&position, "P*1b").is_ok());
}

#[test]
fn mate_by_dropping_another_piece_is_legal() {
    let position = mating_net("GP");
    assert!(check(&position, "G*1b").is_ok());
    let g = game_after(V, &fen::write(&position), "G*1b");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Checkmate
        })
    );
}

#[test]
fn mate_by_moving_a_pawn_is_legal() {
    let position = p(&[
        ("1a", "k"),
        ("1c", "P"),
        ("2c", "G"),
        ("3c", "N"),
        ("5i", "K"),
    ]);
    let g = game_after(V, &fen::write(&position), "1c1b");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Checkmate
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Check, pins and king safety
// ---------------------------------------------------------------------------------------------

#[test]
fn king_may_not_move_into_check() {
    let position = p(&[("5i", "K"), ("4a", "r"), ("1a", "k")]);
    assert_codes(&legal_codes(&position), &["5i5h", "5i6h", "5i6i"]);
    assert_eq!(check(&position, "5i4h"), Err(IllegalMove::SelfCheck));
}

#[test]
fn king_may_not_capture_a_protected_piece() {
    // The white pawn on 4h is guarded by the lance on 4a and guards 4i.
    let position = p(&[("5i", "K"), ("4h", "p"), ("4a", "l"), ("9a", "k")]);
    assert_codes(&legal_codes(&position), &["5i5h", "5i6h", "5i6i"]);
    assert_eq!(check(&position, "5i4h"), Err(IllegalMove::SelfCheck));
}

#[test]
fn check_must_be_answered() {
    // Rook 5a checks the king on 5i: step off the file, or block with the gold or a drop.
    let position = ph(&[("5i", "K"), ("4g", "G"), ("5a", "r"), ("1a", "k")], "P");
    assert!(position.in_check());
    assert_codes(
        &legal_codes(&position),
        &[
            "5i4h", "5i4i", "5i6h", "5i6i", "4g5f", "4g5g", "P*5b", "P*5c", "P*5d", "P*5e", "P*5f",
            "P*5g", "P*5h",
        ],
    );
    assert_eq!(check(&position, "4g4f"), Err(IllegalMove::InCheck));
    assert_eq!(check(&position, "5i5h"), Err(IllegalMove::InCheck));
    assert_eq!(check(&position, "P*4e"), Err(IllegalMove::InCheck));
}

#[test]
fn king_may_not_retreat_along_the_checking_line() {
    let position = p(&[("5e", "K"), ("5a", "r"), ("1a", "k")]);
    assert_codes(
        &legal_codes(&position),
        &["5e4d", "5e6d", "5e4e", "5e6e", "5e4f", "5e6f"],
    );
}

#[test]
fn pinned_piece_may_move_only_along_the_pin() {
    let position = p(&[("5i", "K"), ("5g", "S"), ("5a", "r"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5g"), &["5g5f"]);
    assert_eq!(check(&position, "5g4f"), Err(IllegalMove::SelfCheck));
}

#[test]
fn pinned_lance_may_capture_the_pinning_rook() {
    let position = p(&[("5i", "K"), ("5g", "L"), ("5a", "r"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5g"),
        &[
            "5g5f", "5g5e", "5g5d", "5g5c", "5g5c+", "5g5b", "5g5b+", "5g5a+",
        ],
    );
}

#[test]
fn pinned_bishop_on_a_file_cannot_move() {
    let position = p(&[("5i", "K"), ("5g", "B"), ("5a", "r"), ("1a", "k")]);
    assert!(legal_from(&position, "5g").is_empty());
}

#[test]
fn a_pinned_piece_still_gives_check() {
    // The white gold on 4b is pinned by the black rook on 4i, yet it guards 4c and 5c.
    let position = p(&[("5d", "K"), ("4i", "R"), ("4b", "g"), ("4a", "k")]);
    assert_codes(
        &legal_from(&position, "5d"),
        &["5d6c", "5d4d", "5d6d", "5d4e", "5d5e", "5d6e"],
    );
}

#[test]
fn illegal_move_reasons_for_typical_mistakes() {
    let position = ph(&[("5e", "S"), ("3c", "p"), ("9i", "K"), ("1a", "k")], "P");
    assert!(matches!(
        check(&position, "6e6d"),
        Err(IllegalMove::NoPiece { .. })
    ));
    assert!(matches!(
        check(&position, "3c3d"),
        Err(IllegalMove::NotYourPiece { .. })
    ));
    assert!(matches!(
        check(&position, "5e5f"),
        Err(IllegalMove::CannotReach {
            kind: PieceKind::Silver,
            ..
        })
    ));
    assert!(matches!(
        check(&position, "5e5c"),
        Err(IllegalMove::CannotReach { .. })
    ));
    assert!(matches!(
        check(&position, "B*5d"),
        Err(IllegalMove::NotInHand {
            kind: PieceKind::Bishop
        })
    ));
}

#[test]
fn an_illegal_move_is_refused_and_does_not_end_the_game() {
    let mut g = Game::new(Position::start(V));
    let before = fen::write(g.position());
    let bad = mv(g.position(), "7g7e");
    assert!(g.play(bad).is_err());
    assert_eq!(g.outcome(), None);
    assert_eq!(fen::write(g.position()), before);
    assert_eq!(g.position().side_to_move(), Color::Black);
}

// ---------------------------------------------------------------------------------------------
// Game end
// ---------------------------------------------------------------------------------------------

#[test]
fn checkmate_ends_the_game_and_no_move_follows() {
    let mut g = game_after(V, &fen::write(&mating_net("G")), "G*1b");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Checkmate
        })
    );
    assert!(g.position().in_check());
    assert!(g.legal_moves().is_empty());
    let m = mv(g.position(), "1a2a");
    assert_eq!(g.play(m), Err(IllegalMove::GameOver));
}

#[test]
fn stalemate_is_a_loss_for_the_side_without_moves() {
    // After 4g3h the black king on 1i has no move and is not in check.
    let start = pw(&[("1i", "K"), ("2g", "g"), ("4g", "s"), ("9a", "k")]);
    let g = game_after(V, &fen::write(&start), "4g3h");
    assert!(!g.position().in_check());
    assert!(g.legal_moves().is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: Reason::Stalemate
        })
    );
}

#[test]
fn fourth_occurrence_of_a_position_is_a_draw_counting_the_start() {
    let cycle = "2h3h 8b7b 3h2h 7b8b ";
    let mut g = game_after(V, "start", &cycle.repeat(2));
    play(&mut g, "2h3h 8b7b 3h2h");
    assert_eq!(g.outcome(), None, "third occurrence is not the end");
    play(&mut g, "7b8b");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
    assert!(g.legal_moves().is_empty());
}

#[test]
fn positions_with_different_hands_are_not_the_same() {
    // Black drops a pawn, White's rook takes it and goes home: the board repeats the start
    // but the pawn is now in White's hand, so the count starts again from there.
    let start = ph(&[("5i", "K"), ("5a", "k"), ("1a", "r")], "P");
    let mut g = game_after(V, &fen::write(&start), "P*1c 1a1c 5i5h 1c1b 5h5i 1b1a");
    let cycle = "5i5h 5a5b 5h5i 5b5a ";
    play(&mut g, &cycle.repeat(2));
    assert_eq!(
        g.outcome(),
        None,
        "only the third occurrence with the same hands"
    );
    play(&mut g, cycle);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
}

#[test]
fn positions_with_a_different_side_to_move_are_not_the_same() {
    // Black's king walks a triangle (three moves) while White's steps out and back (two), so
    // the start board comes back with White to move; only that position is counted from then.
    let start = p(&[("5i", "K"), ("5a", "k")]);
    let mut g = game_after(V, &fen::write(&start), "5i5h 5a5b 5h4i 5b5a 4i5i");
    assert_eq!(g.position().side_to_move(), Color::White);
    let cycle = "5a5b 5i5h 5b5a 5h5i ";
    play(&mut g, &cycle.repeat(2));
    assert_eq!(g.outcome(), None, "third occurrence with White to move");
    play(&mut g, cycle);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
}

#[test]
fn take_back_reopens_a_finished_game() {
    let start = mating_net("G");
    let mut g = game_after(V, &fen::write(&start), "G*1b");
    assert!(g.is_over());
    g.take_back(1);
    assert_eq!(g.outcome(), None);
    assert_eq!(fen::write(g.position()), fen::write(&start));
    assert!(legal_codes(g.position()).contains(&"G*1b".to_string()));
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    // Black's rook checks on rank a and rank b in turn; the white king shuffles 1a-1b.
    let start = p(&[("9b", "R"), ("1a", "k"), ("5i", "K")]);
    let cycle = "9b9a 1a1b 9a9b 1b1a ";
    let mut g = game_after(V, &fen::write(&start), &cycle.repeat(2));
    play(&mut g, "9b9a 1a1b 9a9b");
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

#[test]
fn perpetual_check_needs_every_move_since_the_first_occurrence_to_check() {
    // One quiet round trip first, then two checking ones: the start position occurs for the
    // fourth time, but Black did not check with every move since its first occurrence.
    let start = p(&[("9b", "R"), ("1a", "k"), ("5i", "K")]);
    let quiet = "5i5h 1a2a 5h5i 2a1a ";
    let checks = "9b9a 1a1b 9a9b 1b1a ";
    let mut g = game_after(V, &fen::write(&start), quiet);
    play(&mut g, &checks.repeat(2));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
}

#[test]
fn perpetual_check_by_white_loses_for_white() {
    let start = pw(&[("9h", "r"), ("1i", "K"), ("5a", "k")]);
    let cycle = "9h9i 1i1h 9i9h 1h1i ";
    let g = game_after(V, &fen::write(&start), &cycle.repeat(3));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::PerpetualCheck
        })
    );
}

#[test]
fn resignation_ends_the_game() {
    let mut g = Game::new(Position::start(V));
    g.set_outcome(Outcome::Win {
        winner: Color::White,
        reason: Reason::Resignation,
    });
    assert!(g.legal_moves().is_empty());
    let m = mv(g.position(), "7g7f");
    assert_eq!(g.play(m), Err(IllegalMove::GameOver));
}

// ---------------------------------------------------------------------------------------------
// Impasse
// ---------------------------------------------------------------------------------------------

#[test]
fn impasse_needs_both_kings_in_their_zones() {
    let both = pos(V, "9/4K4/9/9/9/9/9/4k4/9 b - 1");
    assert!(impasse::eligible(&both));
    let black_out = pos(V, "9/9/9/4K4/9/9/9/4k4/9 b - 1");
    assert!(!impasse::eligible(&black_out));
    let white_out = pos(V, "9/4K4/9/9/9/4k4/9/9/9 b - 1");
    assert!(!impasse::eligible(&white_out));
    assert!(!impasse::eligible(&Position::start(V)));
}

#[test]
fn impasse_is_never_automatic() {
    let position = pos(V, "9/4K4/9/9/9/9/9/4k4/9 b - 1");
    assert_eq!(Game::new(position).outcome(), None);
}

#[test]
fn impasse_points_count_rook_and_bishop_five_and_others_one() {
    let start = Position::start(V);
    // R 5 + B 5 + 2G 2S 2N 2L 9P = 27.
    assert_eq!(impasse::points(&start, Color::Black), 27);
    assert_eq!(impasse::points(&start, Color::White), 27);
}

#[test]
fn impasse_points_ignore_promotion_and_count_the_hand() {
    // Black: dragon 5 + horse 5 + tokin 1 on the board, rook 5 and 2 pawns in hand = 18.
    let position = pos(V, "+R8/4K4/9/9/+B8/9/+P8/4k4/9 b R2P 1");
    assert_eq!(impasse::points(&position, Color::Black), 18);
    assert_eq!(impasse::points(&position, Color::White), 0);
}

#[test]
fn impasse_at_twenty_four_points_each_is_a_draw() {
    let position = pos(V, "9/4K4/9/9/9/9/9/4k4/9 b RB2G2S2N2L6Prb2g2s2n2l12p 1");
    assert_eq!(impasse::points(&position, Color::Black), 24);
    assert_eq!(impasse::points(&position, Color::White), 30);
    assert_eq!(
        impasse::result(&position),
        Some(Outcome::Draw {
            reason: Reason::Impasse
        })
    );
}

#[test]
fn impasse_below_twenty_four_points_loses() {
    let position = pos(V, "9/4K4/9/9/9/9/9/4k4/9 b RB2G2S2N2L5Prb2g2s2n2l13p 1");
    assert_eq!(impasse::points(&position, Color::Black), 23);
    assert_eq!(
        impasse::result(&position),
        Some(Outcome::Win {
            winner: Color::White,
            reason: Reason::Impasse
        })
    );
    let position = pos(V, "9/4K4/9/9/9/9/9/4k4/9 b RB2G2S2N2L13Prb2g2s2n2l5p 1");
    assert_eq!(impasse::points(&position, Color::White), 23);
    assert_eq!(
        impasse::result(&position),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Impasse
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Handicaps
// ---------------------------------------------------------------------------------------------

#[test]
fn handicap_start_positions_remove_whites_pieces_and_white_moves_first() {
    let cases = [
        (
            "lance",
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "bishop",
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "rook",
            "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "rook-lance",
            "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "two",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "four",
            "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "six",
            "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
    ];
    for (name, expected) in cases {
        let position = handicap_position(V, name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(fen::write(&position), expected, "{name}");
        assert_eq!(position.side_to_move(), Color::White, "{name}");
    }
}

#[test]
fn in_a_handicap_game_white_plays_the_first_move() {
    let mut g = Game::new(handicap_position(V, "two").unwrap());
    let black_move = mv(g.position(), "7g7f");
    assert!(g.play(black_move).is_err());
    play(&mut g, "3c3d 7g7f");
    assert_eq!(g.position().side_to_move(), Color::White);
}

#[test]
fn unknown_handicap_is_refused() {
    assert!(handicap_position(V, "queen").is_none());
}

// ---------------------------------------------------------------------------------------------
// Move input (the forgiving reader) names the same moves as the codes
// ---------------------------------------------------------------------------------------------

#[test]
fn hodges_and_code_input_name_the_same_move() {
    let start = Position::start(V);
    let code_move = mv(&start, "7g7f");
    assert_eq!(input::parse_move(&start, "P-7f"), Ok(code_move));
    assert_eq!(input::parse_move(&start, "P-76"), Ok(code_move));
    assert_eq!(input::parse_move(&start, "7g7f"), Ok(code_move));
    // Both golds reach 5h: the start square is needed.
    assert!(input::parse_move(&start, "G-5h").is_err());
    assert_eq!(input::parse_move(&start, "G6i-5h"), Ok(mv(&start, "6i5h")));
    let with_silver = ph(&[("5i", "K"), ("5a", "k")], "S");
    assert_eq!(
        input::parse_move(&with_silver, "S*5e"),
        Ok(mv(&with_silver, "S*5e"))
    );
}

#[test]
fn hodges_marks_promotion_taken_or_declined() {
    let position = p(&[("5e", "N"), ("4c", "p"), ("9i", "K"), ("1a", "k")]);
    assert_eq!(hodges::write(&position, mv(&position, "5e4c")), "Nx4c=");
    assert_eq!(hodges::write(&position, mv(&position, "5e4c+")), "Nx4c+");
    assert_eq!(
        input::parse_move(&position, "Nx4c="),
        Ok(mv(&position, "5e4c"))
    );
}

// ---------------------------------------------------------------------------------------------
// Entering-king declaration (27-point rule)
// ---------------------------------------------------------------------------------------------

fn declare(sfen: &str) -> Result<Outcome, tegami::engine::declaration::Refusal> {
    let pos = fen::parse(tegami::engine::Variant::get(V), sfen).expect("a valid test position");
    let mut g = Game::new(pos);
    let before = g.outcome();
    let r = g.declare();
    if r.is_err() {
        assert_eq!(g.outcome(), before, "a refused declaration changes nothing");
    } else {
        assert_eq!(g.outcome(), r.ok());
    }
    r
}

// Black: dragon, horse and eight pawns in the zone (10 pieces, 18 points), rook and five pawns
// in hand (10 points): 28.
const BLACK_DECLARES: &str = "+R+B7/PPPPKPPPP/9/9/9/9/9/9/4k4 b R5P 1";

#[test]
fn black_declares_with_ten_pieces_in_the_zone_and_28_points() {
    assert_eq!(
        declare(BLACK_DECLARES),
        Ok(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Declaration
        })
    );
}

#[test]
fn white_declares_with_27_points() {
    // Mirror of Black's, one pawn fewer in hand: 27 points, enough for White.
    assert_eq!(
        declare("4K4/9/9/9/9/9/9/ppppkpppp/7+b+r w r4p 1"),
        Ok(Outcome::Win {
            winner: Color::White,
            reason: Reason::Declaration
        })
    );
}

#[test]
fn black_with_27_points_is_one_point_short() {
    use tegami::engine::declaration::Refusal;
    let r = declare("+R+B7/PPPPKPPPP/9/9/9/9/9/9/4k4 b R4P 1");
    assert_eq!(
        r,
        Err(Refusal::TooFewPoints {
            found: 27,
            needed: 28
        })
    );
    let text = r.unwrap_err().to_string();
    assert!(
        text.contains("27 points") && text.contains("28 needed"),
        "{text}"
    );
}

#[test]
fn nine_pieces_in_the_zone_are_not_enough_whatever_the_points() {
    use tegami::engine::declaration::Refusal;
    // Seven pawns on rank b (one more in hand): 9 pieces, 28 points.
    let r = declare("+R+B7/PPPPK1PPP/9/9/9/9/9/9/4k4 b R6P 1");
    assert_eq!(r, Err(Refusal::TooFewPieces { found: 9 }));
    let text = r.unwrap_err().to_string();
    assert!(
        text.contains("only 9") && text.contains("10 needed"),
        "{text}"
    );
}

#[test]
fn a_king_in_check_cannot_declare() {
    use tegami::engine::declaration::Refusal;
    // White's gold on 5c steps straight back onto 5b.
    let r = declare("+R+B7/PPPPKPPPP/4g4/9/9/9/9/9/4k4 b R5P 1");
    assert_eq!(r, Err(Refusal::InCheck));
    assert!(r.unwrap_err().to_string().contains("in check"));
}

#[test]
fn a_king_outside_the_zone_cannot_declare() {
    use tegami::engine::declaration::Refusal;
    let r = declare("+R+B7/PPPP1PPPP/4S4/4K4/9/9/9/9/4k4 b R5P 1");
    assert_eq!(r, Err(Refusal::KingOutside));
    assert!(r
        .unwrap_err()
        .to_string()
        .contains("not in the promotion zone"));
}

#[test]
fn only_shogi_has_the_declaration() {
    use tegami::engine::declaration::Refusal;
    for id in [VariantId::Judkins, VariantId::Cannon, VariantId::Palace] {
        let mut g = Game::new(Position::start(id));
        assert_eq!(g.declare(), Err(Refusal::NotThisGame), "{id:?}");
        assert!(g.outcome().is_none());
    }
}

#[test]
fn the_declaration_counts_promoted_rook_and_bishop_as_five_and_the_king_as_nothing() {
    let pos = fen::parse(tegami::engine::Variant::get(V), BLACK_DECLARES).unwrap();
    assert_eq!(
        tegami::engine::declaration::count(&pos, Color::Black),
        (10, 28)
    );
    assert_eq!(
        tegami::engine::declaration::count(&pos, Color::White),
        (0, 0)
    );
}
