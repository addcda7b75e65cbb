//! Behaviour tests for Cannon Shogi (`seeds/cannon-shogi.txt` and `rules.md`, which fixes the
//! cannons as the text describes them).
//!
//! Letters: gold cannon `U`, silver cannon `A`, copper cannon `C`, iron cannon `I`; the pawn `P`
//! steps forward or sideways. Squares: file 9..1 from Black's left, rank a..i from the top.
//! Every expected move set here was worked out by hand from the rules, not taken from the engine.

use crate::common;

use common::*;
use tegami::engine::notation::{code, fen, input};
use tegami::engine::{
    handicap_position, impasse, perft, Color, Game, IllegalMove, Outcome, PieceKind, Position,
    Reason, Variant, VariantId,
};

const V: VariantId = VariantId::Cannon;

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
fn start_position_is_the_rules_md_setup() {
    let start = Position::start(V);
    assert_eq!(
        fen::write(&start),
        "lnsgkgsnl/1rci1uab1/p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL b - 1"
    );
    let at = |s: &str| start.piece_at(sq(V, s)).map(|p| (p.kind, p.color));
    use PieceKind::*;
    let black_h = [
        ("8h", Bishop),
        ("7h", SilverCannon),
        ("6h", GoldCannon),
        ("4h", IronCannon),
        ("3h", CopperCannon),
        ("2h", Rook),
    ];
    for (s, k) in black_h {
        assert_eq!(at(s), Some((k, Color::Black)), "{s}");
    }
    let white_b = [
        ("2b", Bishop),
        ("3b", SilverCannon),
        ("4b", GoldCannon),
        ("6b", IronCannon),
        ("7b", CopperCannon),
        ("8b", Rook),
    ];
    for (s, k) in white_b {
        assert_eq!(at(s), Some((k, Color::White)), "{s}");
    }
    for f in ["9", "7", "5", "3", "1"] {
        let black = start.piece_at(sq(V, &format!("{f}g"))).unwrap();
        assert_eq!((black.kind.name(), black.color), ("pawn", Color::Black));
        let white = start.piece_at(sq(V, &format!("{f}c"))).unwrap();
        assert_eq!((white.kind.name(), white.color), ("pawn", Color::White));
    }
    for f in ["8", "6", "4", "2"] {
        assert_eq!(start.piece_at(sq(V, &format!("{f}g"))), None);
    }
    assert_eq!(start.pieces().count(), 40);
}

#[test]
fn start_position_perft_matches_the_independent_figures() {
    let mut start = Position::start(V);
    assert_eq!(perft(&mut start, 1), 36);
    assert_eq!(perft(&mut start, 2), 1_271);
    assert_eq!(perft(&mut start, 3), 53_458);
}

// ---------------------------------------------------------------------------------------------
// Pawns step forward or sideways
// ---------------------------------------------------------------------------------------------

#[test]
fn pawn_steps_forward_or_sideways_and_captures_sideways() {
    // White silver on 4e is captured sideways; own gold on 6e blocks.
    let position = p(&[
        ("5e", "P"),
        ("4e", "s"),
        ("6e", "G"),
        ("9i", "K"),
        ("1a", "k"),
    ]);
    assert_codes(&legal_from(&position, "5e"), &["5e5d", "5e4e"]);
    assert!(matches!(
        check(&position, "5e5f"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn white_pawn_steps_toward_rank_i_or_sideways() {
    let position = pw(&[("5e", "p"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5e"), &["5e5f", "5e4e", "5e6e"]);
}

#[test]
fn pawn_sideways_step_inside_the_zone_may_promote() {
    let position = p(&[("5c", "P"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5c"),
        &["5c5b", "5c5b+", "5c4c", "5c4c+", "5c6c", "5c6c+"],
    );
}

#[test]
fn pawn_sideways_step_outside_the_zone_does_not_promote() {
    let position = p(&[("5d", "P"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5d"),
        &["5d5c", "5d5c+", "5d4d", "5d6d"],
    );
    assert!(matches!(
        check(&position, "5d4d+"),
        Err(IllegalMove::NotInZone { .. })
    ));
}

#[test]
fn pawn_must_promote_on_the_last_rank() {
    let position = p(&[("5b", "P"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5b"),
        &["5b5a+", "5b4b", "5b4b+", "5b6b", "5b6b+"],
    );
    assert!(matches!(
        check(&position, "5b5a"),
        Err(IllegalMove::MustPromote { .. })
    ));
}

#[test]
fn an_unpromoted_pawn_never_stands_on_the_last_rank() {
    // So no move, sideways included, can leave one there: the position itself is refused.
    let v = Variant::get(V);
    let text = sfen(V, &[("5a", "P"), ("9i", "K"), ("1c", "k")], "b", "-");
    assert!(fen::parse(v, &text).is_err());
    let text = sfen(V, &[("5i", "p"), ("9a", "k"), ("1g", "K")], "b", "-");
    assert!(fen::parse(v, &text).is_err());
}

#[test]
fn pawn_may_step_sideways_onto_a_file_with_another_own_pawn() {
    // The texts forbid two pawns on a file only for drops (decision recorded in
    // src/engine/notation/fen.rs): a sideways step may double pawns, and the position reads back.
    let position = p(&[("5e", "P"), ("4g", "P"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5e"), &["5e4e", "5e5d", "5e6e"]);
    let mut after = position.clone();
    after.play(code::parse(&after, "5e4e").unwrap()).unwrap();
    let text = fen::write(&after);
    assert_eq!(fen::parse(after.variant(), &text).unwrap(), after);
    // ...but a drop may not: the file already holds an unpromoted pawn.
    let hand = ph(&[("4e", "P"), ("9i", "K"), ("1a", "k")], "P");
    assert!(matches!(
        check(&hand, "P*4c"),
        Err(IllegalMove::TwoPawns { .. })
    ));
}

#[test]
fn pawn_drops_keep_the_two_pawn_rule_and_a_tokin_does_not_count() {
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
}

// ---------------------------------------------------------------------------------------------
// The other pieces move as in Shogi
// ---------------------------------------------------------------------------------------------

#[test]
fn rook_bishop_gold_and_silver_move_as_in_shogi() {
    let rook = p(&[("5e", "R"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&rook, "5e"),
        &[
            "5e5d", "5e5c", "5e5c+", "5e5b", "5e5b+", "5e5a", "5e5a+", "5e5f", "5e5g", "5e5h",
            "5e5i", "5e9e", "5e8e", "5e7e", "5e6e", "5e4e", "5e3e", "5e2e", "5e1e",
        ],
    );
    let bishop = p(&[("5e", "B"), ("5i", "K"), ("5a", "k")]);
    assert_codes(
        &legal_from(&bishop, "5e"),
        &[
            "5e4d", "5e3c", "5e3c+", "5e2b", "5e2b+", "5e1a", "5e1a+", "5e6d", "5e7c", "5e7c+",
            "5e8b", "5e8b+", "5e9a", "5e9a+", "5e4f", "5e3g", "5e2h", "5e1i", "5e6f", "5e7g",
            "5e8h", "5e9i",
        ],
    );
    let gold = p(&[("5e", "G"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&gold, "5e"),
        &["5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e5f"],
    );
    let silver = p(&[("5e", "S"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&silver, "5e"),
        &["5e4d", "5e5d", "5e6d", "5e4f", "5e6f"],
    );
    for letter in ["+P", "+L", "+N", "+S"] {
        let position = p(&[("5e", letter), ("9i", "K"), ("1a", "k")]);
        assert_codes(
            &legal_from(&position, "5e"),
            &["5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e5f"],
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Lance and knight as in Shogi
// ---------------------------------------------------------------------------------------------

#[test]
fn lance_and_knight_must_promote_where_they_could_not_move_again() {
    let position = p(&[("5c", "L"), ("3d", "N"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5c"), &["5c5b", "5c5b+", "5c5a+"]);
    assert_codes(&legal_from(&position, "3d"), &["3d4b+", "3d2b+"]);
}

#[test]
fn pawn_lance_and_knight_drops_avoid_dead_squares() {
    let position = ph(&[("5i", "K"), ("5a", "k")], "PLN");
    let occupied = ["5i", "5a"];
    assert_eq!(
        legal_drops(&position, "P"),
        drop_codes(V, "P", &occupied, |_, r| r != 'a')
    );
    assert_eq!(
        legal_drops(&position, "L"),
        drop_codes(V, "L", &occupied, |_, r| r != 'a')
    );
    assert_eq!(
        legal_drops(&position, "N"),
        drop_codes(V, "N", &occupied, |_, r| r != 'a' && r != 'b')
    );
    assert!(matches!(
        check(&position, "P*4a"),
        Err(IllegalMove::DeadDrop { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Cannons
// ---------------------------------------------------------------------------------------------

#[test]
fn cannons_without_a_piece_to_jump_cannot_move() {
    for letter in ["U", "A", "C", "I"] {
        let position = p(&[("5e", letter), ("9i", "K"), ("1a", "k")]);
        assert!(legal_from(&position, "5e").is_empty(), "{letter}");
        assert!(
            matches!(
                check(&position, "5e4e"),
                Err(IllegalMove::CannotReach { .. })
            ),
            "{letter}"
        );
    }
}

#[test]
fn silver_cannon_jumps_an_adjacent_piece_orthogonally() {
    // Over own pawn 5d to 5c; over the white silver 4e capturing on 3e; over own gold 5f to
    // 5g. Nothing on 6e, so no move west even though 7e is empty. The adjacent silver on 4e
    // cannot be captured.
    let position = p(&[
        ("5e", "A"),
        ("5d", "P"),
        ("4e", "s"),
        ("3e", "p"),
        ("5f", "G"),
        ("9i", "K"),
        ("1a", "k"),
    ]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e5c", "5e5c+", "5e3e", "5e5g"],
    );
    assert!(matches!(
        check(&position, "5e4e"),
        Err(IllegalMove::CannotReach { .. })
    ));
    assert!(matches!(
        check(&position, "5e7e"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn silver_cannon_may_not_land_on_an_own_piece() {
    let position = p(&[
        ("5e", "A"),
        ("5f", "G"),
        ("5g", "S"),
        ("9i", "K"),
        ("1a", "k"),
    ]);
    assert!(legal_from(&position, "5e").is_empty());
    assert!(matches!(
        check(&position, "5e5g"),
        Err(IllegalMove::OwnPiece { .. })
    ));
}

#[test]
fn promoted_silver_cannon_adds_king_steps_that_capture() {
    let position = p(&[
        ("5e", "+A"),
        ("5d", "P"),
        ("4e", "s"),
        ("3e", "p"),
        ("5f", "G"),
        ("9i", "K"),
        ("1a", "k"),
    ]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e4d", "5e6d", "5e4e", "5e6e", "5e4f", "5e6f", "5e5c", "5e3e", "5e5g",
        ],
    );
}

#[test]
fn iron_cannon_jumps_an_adjacent_piece_diagonally() {
    // Over own pawn 4d to 3c; over the white gold 6d capturing on 7c; nothing on 4f; over own
    // silver 6f but own knight on 7g.
    let position = p(&[
        ("5e", "I"),
        ("4d", "P"),
        ("6d", "g"),
        ("7c", "p"),
        ("6f", "S"),
        ("7g", "N"),
        ("9i", "K"),
        ("1a", "k"),
    ]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e3c", "5e3c+", "5e7c", "5e7c+"],
    );
    assert!(matches!(
        check(&position, "5e6d"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn promoted_iron_cannon_captures_an_adjacent_piece() {
    let position = p(&[("5e", "+I"), ("4d", "p"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e4f", "5e5f", "5e6f", "5e3c",
        ],
    );
}

#[test]
fn gold_cannon_ranges_over_any_number_of_pieces() {
    // North: screen 5c, own gold 5b is passed, the knight on 5a is captured.
    // South: own king 5g is the screen, then 5h and 5i.
    // West: own pawn 6e is the screen, then 7e, the silver on 8e (captured) and 9e beyond it.
    // East: nothing to jump.
    let position = p(&[
        ("5e", "U"),
        ("5c", "p"),
        ("5b", "G"),
        ("5a", "n"),
        ("5g", "K"),
        ("6e", "P"),
        ("8e", "s"),
        ("1a", "k"),
    ]);
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e5a", "5e5a+", "5e5h", "5e5i", "5e7e", "5e8e", "5e9e"],
    );
    // The first piece jumped is never the target.
    assert!(matches!(
        check(&position, "5e5c"),
        Err(IllegalMove::CannotReach { .. })
    ));
    assert!(matches!(
        check(&position, "5e5d"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn copper_cannon_ranges_diagonally_over_any_number_of_pieces() {
    let position = p(&[
        ("5e", "C"),
        ("3c", "p"),
        ("6d", "P"),
        ("8b", "g"),
        ("6f", "s"),
        ("7g", "G"),
        ("5i", "K"),
        ("5a", "k"),
    ]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e2b", "5e2b+", "5e1a", "5e1a+", "5e7c", "5e7c+", "5e8b", "5e8b+", "5e9a", "5e9a+",
            "5e8h", "5e9i",
        ],
    );
}

#[test]
fn gold_cannon_passes_over_a_king() {
    let position = p(&[("5e", "U"), ("5c", "k"), ("9i", "K")]);
    assert!(!position.is_in_check(Color::White));
    assert_codes(
        &legal_from(&position, "5e"),
        &["5e5b", "5e5b+", "5e5a", "5e5a+"],
    );
}

#[test]
fn promoted_copper_cannon_steps_like_a_king_and_ranges_diagonally() {
    // Alone it only steps; with a screen on 4d it also ranges to 3c, 2b and 1a beyond.
    let position = p(&[("5e", "+C"), ("9i", "K"), ("5a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e4f", "5e5f", "5e6f",
        ],
    );
    let position = p(&[("5e", "+C"), ("4d", "P"), ("9i", "K"), ("5a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e5d", "5e6d", "5e4e", "5e6e", "5e4f", "5e5f", "5e6f", "5e3c", "5e2b", "5e1a",
        ],
    );
}

#[test]
fn promoted_gold_cannon_alone_steps_like_a_king() {
    let position = p(&[("5e", "+U"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e4f", "5e5f", "5e6f",
        ],
    );
}

#[test]
fn promoted_gold_cannon_captures_adjacent_and_ranges_beyond() {
    let position = p(&[("5e", "+U"), ("5d", "p"), ("9i", "K"), ("1a", "k")]);
    assert_codes(
        &legal_from(&position, "5e"),
        &[
            "5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e4f", "5e5f", "5e6f", "5e5c", "5e5b", "5e5a",
        ],
    );
}

#[test]
fn cannon_may_promote_on_a_move_out_of_the_zone() {
    let position = p(&[("5c", "A"), ("5d", "P"), ("9i", "K"), ("1a", "k")]);
    assert_codes(&legal_from(&position, "5c"), &["5c5e", "5c5e+"]);
}

#[test]
fn cannons_drop_on_any_empty_square() {
    let position = ph(&[("5i", "K"), ("5a", "k")], "UACI");
    for letter in ["U", "A", "C", "I"] {
        let expected = drop_codes(V, letter, &["5i", "5a"], |_, _| true);
        assert_eq!(expected.len(), 79);
        assert_eq!(legal_drops(&position, letter), expected, "{letter}");
    }
}

#[test]
fn captured_cannon_goes_to_hand_unpromoted() {
    let start = p(&[("5e", "R"), ("5c", "+u"), ("9i", "K"), ("1a", "k")]);
    let g = game_after(V, &fen::write(&start), "5e5c");
    assert_eq!(g.position().hand(Color::Black, PieceKind::GoldCannon), 1);
    assert_eq!(
        g.position()
            .hand(Color::Black, PieceKind::PromotedGoldCannon),
        0
    );
    assert!(fen::write(g.position()).ends_with(" w U 2"));
}

// ---------------------------------------------------------------------------------------------
// Check by cannons
// ---------------------------------------------------------------------------------------------

#[test]
fn gold_cannon_check_cannot_be_blocked_by_interposing() {
    // The white gold cannon on 5a checks over the pawn on 5c. A piece put between only adds
    // a screen: the king must step off the file, or the rook takes the cannon.
    let position = ph(
        &[
            ("5i", "K"),
            ("9a", "R"),
            ("5a", "u"),
            ("5c", "p"),
            ("1a", "k"),
        ],
        "G",
    );
    assert!(position.in_check());
    assert_codes(
        &legal_codes(&position),
        &["5i4h", "5i4i", "5i6h", "5i6i", "9a5a", "9a5a+"],
    );
    assert_eq!(check(&position, "G*5h"), Err(IllegalMove::InCheck));
    assert_eq!(check(&position, "G*5d"), Err(IllegalMove::InCheck));
    assert_eq!(check(&position, "5i5h"), Err(IllegalMove::InCheck));
}

#[test]
fn moving_the_only_screen_away_answers_a_cannon_check() {
    let position = p(&[("5i", "K"), ("5e", "S"), ("5a", "u"), ("1a", "k")]);
    assert!(position.in_check());
    assert_codes(
        &legal_codes(&position),
        &[
            "5e4d", "5e6d", "5e4f", "5e6f", "5i4h", "5i4i", "5i6h", "5i6i",
        ],
    );
}

#[test]
fn king_on_a_cannon_line_with_no_screen_is_not_attacked() {
    // Unlike a rook, the gold cannon on 5a attacks nothing on file 5 without a screen, so the
    // king may step along the file too.
    let position = p(&[("5e", "K"), ("5a", "u"), ("1a", "k")]);
    assert!(!position.in_check());
    assert_codes(
        &legal_codes(&position),
        &[
            "5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e4f", "5e5f", "5e6f",
        ],
    );
}

#[test]
fn a_king_serves_as_a_screen() {
    // The white king on 5b is the screen for its own gold cannon on 5a.
    let position = p(&[("5i", "K"), ("5a", "u"), ("5b", "k")]);
    assert!(position.in_check());
    assert_codes(&legal_codes(&position), &["5i4h", "5i4i", "5i6h", "5i6i"]);
}

#[test]
fn king_may_not_step_where_a_silver_cannon_lands() {
    // The white silver cannon on 5a jumps the black gold on 5b to 5c.
    let position = p(&[("5d", "K"), ("5b", "G"), ("5a", "a"), ("1a", "k")]);
    assert!(!position.in_check());
    assert_codes(
        &legal_from(&position, "5d"),
        &["5d4c", "5d6c", "5d4d", "5d6d", "5d4e", "5d5e", "5d6e"],
    );
}

#[test]
fn unpromoted_iron_cannon_does_not_attack_an_adjacent_king() {
    let position = p(&[("5e", "K"), ("4d", "i"), ("1a", "k")]);
    assert!(!position.in_check());
    assert_codes(
        &legal_codes(&position),
        &[
            "5e4d", "5e5d", "5e6d", "5e4e", "5e6e", "5e4f", "5e5f", "5e6f",
        ],
    );
    // Also valid with White to move: Black is not in check.
    let with_white_to_move = pw(&[("5e", "K"), ("4d", "i"), ("1a", "k")]);
    assert!(!with_white_to_move.is_in_check(Color::Black));
}

#[test]
fn promoted_iron_cannon_checks_an_adjacent_king() {
    let position = p(&[("5e", "K"), ("4d", "+i"), ("1a", "k")]);
    assert!(position.in_check());
}

#[test]
fn a_piece_may_not_become_the_screen_of_a_cannon_aimed_at_its_own_king() {
    // Nothing stands between the white gold cannon on 5a and the black king on 5i: any black
    // piece put on 5b-5h would be its screen.
    let position = ph(&[("5i", "K"), ("5a", "u"), ("4d", "S"), ("1a", "k")], "G");
    assert!(!position.in_check());
    assert_eq!(check(&position, "G*5e"), Err(IllegalMove::SelfCheck));
    assert_eq!(check(&position, "4d5e"), Err(IllegalMove::SelfCheck));
    let expected = drop_codes(V, "G", &["5i", "5a", "4d", "1a"], |f, r| {
        !(f == 5 && ('b'..='h').contains(&r))
    });
    assert_eq!(expected.len(), 70);
    assert_eq!(legal_drops(&position, "G"), expected);
    assert_codes(
        &legal_from(&position, "4d"),
        &["4d4c", "4d4c+", "4d3c", "4d3c+", "4d3e"],
    );
}

/// White king 1a; Black gold 2c guards 1b and 2b, knight 3c guards 2a, gold cannon 1e on the
/// king's file with nothing between.
fn cannon_net() -> Position {
    ph(
        &[
            ("1a", "k"),
            ("2c", "G"),
            ("3c", "N"),
            ("1e", "U"),
            ("5i", "K"),
        ],
        "P",
    )
}

#[test]
fn pawn_drop_that_mates_only_as_a_cannon_screen_is_legal() {
    let position = cannon_net();
    assert!(!position.is_in_check(Color::White));
    assert!(check(&position, "P*1c").is_ok());
    let g = game_after(V, &fen::write(&position), "P*1c");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Checkmate
        })
    );
}

#[test]
fn pawn_drop_in_front_of_the_king_that_mates_is_illegal() {
    let position = cannon_net();
    assert!(!legal_codes(&position).contains(&"P*1b".to_string()));
    assert!(matches!(
        check(&position, "P*1b"),
        Err(IllegalMove::PawnDropMate { .. })
    ));
}

#[test]
fn pawn_drop_beside_the_king_that_mates_is_legal() {
    // The texts forbid only the mating drop directly in front of the king (rules.md: "it
    // stands directly in front of the king, as the texts say"). A Cannon Shogi pawn dropped
    // beside the king also attacks it, sideways; that drop is not restricted.
    // White king 1b; golds 3b and 2d, knight 2c (guarding 1a and 3a).
    let position = ph(
        &[
            ("1b", "k"),
            ("3b", "G"),
            ("2c", "N"),
            ("2d", "G"),
            ("5i", "K"),
        ],
        "P",
    );
    let g = game_after(V, &fen::write(&position), "P*2b");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Checkmate
        })
    );
    // The same mate from directly in front is the forbidden pawn-drop mate.
    assert!(matches!(
        check(&position, "P*1c"),
        Err(IllegalMove::PawnDropMate { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// Game end
// ---------------------------------------------------------------------------------------------

#[test]
fn stalemate_is_a_loss_for_the_side_without_moves() {
    let start = pw(&[("1i", "K"), ("2g", "g"), ("4g", "s"), ("9a", "k")]);
    let g = game_after(V, &fen::write(&start), "4g3h");
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
    let cycle = "2h1h 8b9b 1h2h 9b8b ";
    let mut g = game_after(V, "start", &cycle.repeat(2));
    play(&mut g, "2h1h 8b9b 1h2h");
    assert_eq!(g.outcome(), None);
    play(&mut g, "9b8b");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
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
fn repetition_where_both_sides_checked_throughout_is_a_draw() {
    // The kings shuffle 4d-4c and 6d-6c. Each black king move uncovers a check (dragon 2d on
    // rank d, rook 1c on rank c); each white king move makes the white king the screen of a
    // white gold cannon (7c on rank c, 7d on rank d) aimed at the black king. Every move of
    // both sides gives check, so the fourth occurrence is a plain draw.
    let start = p(&[
        ("4d", "K"),
        ("2d", "+R"),
        ("1c", "R"),
        ("6d", "k"),
        ("7c", "u"),
        ("7d", "u"),
    ]);
    assert!(start.in_check());
    let cycle = "4d4c 6d6c 4c4d 6c6d ";
    let mut g = game_after(V, &fen::write(&start), &cycle.repeat(2));
    play(&mut g, "4d4c 6d6c 4c4d");
    assert!(g.position().in_check());
    assert_eq!(g.outcome(), None);
    play(&mut g, "6c6d");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Impasse
// ---------------------------------------------------------------------------------------------

#[test]
fn impasse_points_count_every_cannon_five() {
    let start = Position::start(V);
    // R B and four cannons 6 x 5 = 30, 2G 2S 2N 2L 5P = 13.
    assert_eq!(impasse::points(&start, Color::Black), 43);
    assert_eq!(impasse::points(&start, Color::White), 43);
    // Promotions are ignored: a promoted gold cannon 5, a tokin 1.
    let position = pos(V, "9/4K4/9/9/9/9/+P8/4k4/+U8 b - 1");
    assert_eq!(impasse::points(&position, Color::Black), 6);
}

#[test]
fn impasse_needs_both_kings_in_their_zones() {
    assert!(impasse::eligible(&pos(V, "9/4K4/9/9/9/9/9/4k4/9 b - 1")));
    assert!(!impasse::eligible(&pos(V, "9/9/9/4K4/9/9/9/4k4/9 b - 1")));
}

#[test]
fn impasse_at_thirty_eight_points_is_a_draw() {
    let position = pos(
        V,
        "9/4K4/9/9/9/9/9/4k4/9 b RBUACI2G2S2N2Lrbuaci2g2s2n2l10p 1",
    );
    assert_eq!(impasse::points(&position, Color::Black), 38);
    assert_eq!(impasse::points(&position, Color::White), 48);
    assert_eq!(
        impasse::result(&position),
        Some(Outcome::Draw {
            reason: Reason::Impasse
        })
    );
}

#[test]
fn impasse_below_thirty_eight_points_loses() {
    let position = pos(
        V,
        "9/4K4/9/9/9/9/9/4k4/9 b RBUACI2GS2N2Lrbuaci2g3s2n2l10p 1",
    );
    assert_eq!(impasse::points(&position, Color::Black), 37);
    assert_eq!(impasse::points(&position, Color::White), 49);
    assert_eq!(
        impasse::result(&position),
        Some(Outcome::Win {
            winner: Color::White,
            reason: Reason::Impasse
        })
    );
}

#[test]
fn impasse_is_never_automatic() {
    let position = pos(V, "9/4K4/9/9/9/9/9/4k4/9 b - 1");
    assert_eq!(Game::new(position).outcome(), None);
}

// ---------------------------------------------------------------------------------------------
// Handicaps
// ---------------------------------------------------------------------------------------------

#[test]
fn handicap_start_positions_remove_whites_pieces_and_white_moves_first() {
    let rest = "p1p1p1p1p/9/9/9/P1P1P1P1P/1BAU1ICR1/LNSGKGSNL w - 1";
    let cases = [
        ("lance", "lnsgkgsn1/1rci1uab1"),
        ("bishop", "lnsgkgsnl/1rci1ua2"),
        ("rook", "lnsgkgsnl/2ci1uab1"),
        ("rook-lance", "lnsgkgsn1/2ci1uab1"),
        ("two", "lnsgkgsnl/2ci1ua2"),
        ("four", "1nsgkgsn1/2ci1ua2"),
        ("six", "2sgkgs2/2ci1ua2"),
    ];
    for (name, top) in cases {
        let position = handicap_position(V, name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(fen::write(&position), format!("{top}/{rest}"), "{name}");
        assert_eq!(position.side_to_move(), Color::White);
    }
}

// ---------------------------------------------------------------------------------------------
// Notation: the text's cannon names in human input
// ---------------------------------------------------------------------------------------------

#[test]
fn cannons_are_written_gc_sc_cc_ic_in_human_input() {
    let position = ph(
        &[
            ("5e", "U"),
            ("6e", "P"),
            ("8e", "s"),
            ("5i", "K"),
            ("1a", "k"),
        ],
        "A",
    );
    assert_eq!(
        input::parse_move(&position, "GCx8e"),
        Ok(mv(&position, "5e8e"))
    );
    assert_eq!(
        input::parse_move(&position, "SC*5c"),
        Ok(mv(&position, "A*5c"))
    );
}
