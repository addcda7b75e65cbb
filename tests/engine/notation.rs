//! Text forms: position strings (`fen`), move codes (`code`), human notation (`hodges`) and the
//! forgiving reader of what players type (`input`).
//!
//! - every refusal of a position string says precisely what is wrong;
//! - each form the reader accepts resolves to the right move in a concrete position, and each
//!   refusal (ambiguity, promotion choice, unknown piece, unreadable, illegal) is the clear one;
//! - Hodges output: disambiguation, `+`/`=`, `x`, drops, Cannon Shogi's cannon names;
//! - fuzz-style properties: random bytes and strings, and mutated valid position strings, never
//!   make a parser panic, and every error has a message.
//!
//! Several tests here began as `#[ignore = "engine bug: ..."]` reports of bugs these checks
//! found (Cannon Shogi doubled pawns, the move-number limit, a lion capturing a castling lance,
//! the reason given for a promoting drop, Shanghai board moves read as drops); keep them.

use proptest::prelude::*;

use tegami::engine::notation::fen::{self, FenError};
use tegami::engine::notation::input::{parse_move, MoveInputError};
use tegami::engine::notation::{code, hodges, human};
use tegami::engine::{Game, IllegalMove, Move, PieceKind, Position, Square, Variant, VariantId};

const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

fn variant(id: VariantId) -> &'static Variant {
    Variant::get(id)
}

fn shogi() -> &'static Variant {
    variant(VariantId::Shogi)
}

fn cannon() -> &'static Variant {
    variant(VariantId::Cannon)
}

fn position(v: &'static Variant, s: &str) -> Position {
    fen::parse(v, s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn sq(v: &Variant, name: &str) -> Square {
    v.parse_square(name)
        .unwrap_or_else(|| panic!("no square {name}"))
}

fn board(v: &Variant, from: &str, to: &str, promote: bool) -> Move {
    Move::Board {
        from: sq(v, from),
        to: sq(v, to),
        promote,
    }
}

fn drop(v: &Variant, kind: PieceKind, to: &str) -> Move {
    Move::Drop {
        kind,
        to: sq(v, to),
    }
}

/// The position after some moves (codes or human notation) from the start.
fn after(id: VariantId, moves: &str) -> Position {
    let mut g = Game::new(Position::start(id));
    for text in moves.split_whitespace() {
        let m = parse_move(g.position(), text).unwrap_or_else(|e| panic!("{text}: {e}"));
        g.play(m).unwrap();
    }
    g.position().clone()
}

fn fen_error(v: &'static Variant, s: &str) -> FenError {
    match fen::parse(v, s) {
        Ok(p) => panic!("{s} was accepted as {}", fen::write(&p)),
        Err(e) => e,
    }
}

/// Asserts the error and its exact message.
fn assert_fen_error(s: &str, expected: FenError, message: &str) {
    let e = fen_error(shogi(), s);
    assert_eq!(e, expected, "{s}");
    assert_eq!(e.to_string(), message, "{s}");
}

fn read(pos: &Position, text: &str) -> Move {
    parse_move(pos, text).unwrap_or_else(|e| panic!("'{text}' refused: {e}"))
}

fn read_err(pos: &Position, text: &str) -> MoveInputError {
    match parse_move(pos, text) {
        Ok(m) => panic!("'{text}' accepted as {}", code::write(pos.variant(), m)),
        Err(e) => e,
    }
}

// ---------------------------------------------------------------------------------------------
// Position strings

#[test]
fn start_positions_are_written_back_as_given() {
    for &id in VariantId::ALL {
        let v = variant(id);
        let p = Position::start(id);
        assert_eq!(fen::write(&p), v.spec.start, "{}", id.as_str());
        assert_eq!(fen::parse(v, v.spec.start).unwrap(), p);
    }
    assert_eq!(fen::write(&Position::start(VariantId::Shogi)), SHOGI_START);
}

#[test]
fn cannon_shogi_position_strings_use_u_a_c_i() {
    let p = position(cannon(), "4k4/9/9/9/4+U4/9/9/9/4K4 b UACI2P2uaci 1");
    assert_eq!(
        p.piece_at(sq(cannon(), "5e")).map(|p| p.kind),
        Some(PieceKind::PromotedGoldCannon)
    );
    assert_eq!(
        p.hand(tegami::engine::Color::Black, PieceKind::GoldCannon),
        1
    );
    assert_eq!(
        p.hand(tegami::engine::Color::White, PieceKind::IronCannon),
        1
    );
    // Written in the fixed hand order, first player first.
    assert_eq!(fen::write(&p), "4k4/9/9/9/4+U4/9/9/9/4K4 b UACI2P2uaci 1");
}

#[test]
fn hands_are_read_in_any_order_and_written_in_usi_order() {
    let p = position(shogi(), "4k4/9/9/9/9/9/9/9/4K4 w pP2bRlL3g 7");
    assert_eq!(fen::write(&p), "4k4/9/9/9/9/9/9/9/4K4 w RLP2b3glp 7");
}

#[test]
fn wrong_field_count_is_refused() {
    assert_fen_error(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
        FenError::FieldCount {
            expected: 4,
            found: 3,
        },
        "a position string of this game has 4 fields (board, side, hands, move number), this one has 3",
    );
    assert_fen_error(
        &format!("{SHOGI_START} extra"),
        FenError::FieldCount {
            expected: 4,
            found: 5,
        },
        "a position string of this game has 4 fields (board, side, hands, move number), this one has 5",
    );
    assert!(matches!(
        fen_error(shogi(), ""),
        FenError::FieldCount { found: 0, .. }
    ));
}

#[test]
fn wrong_rank_count_is_refused() {
    assert_fen_error(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
        FenError::RankCount {
            found: 8,
            expected: 9,
        },
        "the board has 8 ranks separated by '/', 9 expected",
    );
}

#[test]
fn bad_rank_width_is_refused() {
    assert_fen_error(
        "lnsgkgsnl/1r5b1/ppppppppp/8/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        FenError::RankWidth {
            rank: 4,
            found: 8,
            expected: 9,
        },
        "rank 4 (from the top) covers 8 squares, 9 expected",
    );
    assert_fen_error(
        "lnsgkgsnll/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        FenError::RankWidth {
            rank: 1,
            found: 10,
            expected: 9,
        },
        "rank 1 (from the top) covers 10 squares, 9 expected",
    );
    assert_fen_error(
        "lnsgkgsnl/1r5b1/ppppppppp/99/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        FenError::RankWidth {
            rank: 4,
            found: 18,
            expected: 9,
        },
        "rank 4 (from the top) covers 18 squares, 9 expected",
    );
    // Judkins is six wide.
    let e = fen_error(variant(VariantId::Judkins), SHOGI_START);
    assert_eq!(
        e,
        FenError::RankCount {
            found: 9,
            expected: 6
        }
    );
    let e = fen_error(variant(VariantId::Judkins), "rbnsgk/6p/6/6/P5/KGSNBR b - 1");
    assert_eq!(
        e.to_string(),
        "rank 2 (from the top) covers 7 squares, 6 expected"
    );
}

#[test]
fn rank_width_error_counts_every_square() {
    // Eleven squares on rank 1; the error says 10.
    assert_fen_error(
        "lnsgkgsnlll/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        FenError::RankWidth {
            rank: 1,
            found: 11,
            expected: 9,
        },
        "rank 1 (from the top) covers 11 squares, 9 expected",
    );
}

#[test]
fn unknown_letters_are_refused() {
    assert_fen_error(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
        FenError::UnknownPiece {
            rank: 9,
            letter: "X".into(),
        },
        "rank 9 (from the top): 'X' is not a piece of this game",
    );
    // A king does not promote.
    assert_fen_error(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL b - 1",
        FenError::UnknownPiece {
            rank: 9,
            letter: "+K".into(),
        },
        "rank 9 (from the top): '+K' is not a piece of this game",
    );
    assert_fen_error(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN+1 b - 1",
        FenError::DanglingPlus { rank: 9 },
        "rank 9 (from the top): '+' must be followed by a piece letter",
    );
    assert!(matches!(
        fen_error(
            shogi(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN0L b - 1"
        ),
        FenError::UnknownPiece { rank: 9, .. }
    ));
    // No lances in Judkins Shogi, no cannons in Shogi.
    assert_eq!(
        fen_error(variant(VariantId::Judkins), "rbnsgk/5p/6/6/P5/KGSNBL b - 1"),
        FenError::UnknownPiece {
            rank: 6,
            letter: "L".into()
        }
    );
    assert_eq!(
        fen_error(shogi(), "4k4/9/9/9/4U4/9/9/9/4K4 b - 1").to_string(),
        "rank 5 (from the top): 'U' is not a piece of this game"
    );
}

#[test]
fn king_counts_are_checked() {
    assert_fen_error(
        "lnsgkgsnl/1r5b1/ppppppppp/9/4K4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        FenError::KingCount {
            side: "black",
            count: 2,
        },
        "black has 2 kings; there must be exactly one",
    );
    assert_fen_error(
        "lnsg1gsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        FenError::KingCount {
            side: "white",
            count: 0,
        },
        "white has 0 kings; there must be exactly one",
    );
}

#[test]
fn pieces_that_could_never_move_are_refused() {
    assert_fen_error(
        "4k3P/9/9/9/9/9/9/9/4K4 b - 1",
        FenError::DeadPiece {
            piece: "pawn",
            square: "1a".into(),
        },
        "a pawn on 1a could never move again",
    );
    assert_eq!(
        fen_error(shogi(), "4k4/1N7/9/9/9/9/9/9/4K4 b - 1").to_string(),
        "a knight on 8b could never move again"
    );
    assert_eq!(
        fen_error(shogi(), "4k4/9/9/9/9/9/9/9/l3K4 b - 1").to_string(),
        "a lance on 9i could never move again"
    );
    // A pawn on its own side's first rank is fine.
    position(shogi(), "4k4/9/9/9/9/9/9/9/4K3P b - 1");
}

#[test]
fn two_pawns_on_a_file_are_refused() {
    assert_fen_error(
        "4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1",
        FenError::TwoPawns {
            side: "black",
            file: "5".into(),
        },
        "black has two unpromoted pawns on file 5",
    );
    // A tokin does not count.
    position(shogi(), "4k4/9/9/9/9/9/4P4/4+P4/4K4 b - 1");
}

#[test]
fn the_side_not_to_move_may_not_be_in_check() {
    assert_fen_error(
        "4k4/4P4/9/9/9/9/9/9/4K4 b - 1",
        FenError::SideNotToMoveInCheck { side: "white" },
        "white is not to move but is in check",
    );
    assert_fen_error(
        "4k4/9/4r4/9/9/9/9/9/4K4 w - 1",
        FenError::SideNotToMoveInCheck { side: "black" },
        "black is not to move but is in check",
    );
    // The side to move may be in check.
    assert!(position(shogi(), "4k4/9/4r4/9/9/9/9/9/4K4 b - 1").in_check());
}

#[test]
fn bad_side_is_refused() {
    assert_fen_error(
        "4k4/9/9/9/9/9/9/9/4K4 x - 1",
        FenError::Side("x".into()),
        "the side to move must be 'b' or 'w', not 'x'",
    );
}

#[test]
fn bad_hands_are_refused() {
    let cases = [
        ("K", "a king cannot be held in hand"),
        ("Q", "'Q' is not a piece of this game"),
        ("2", "a count with no piece after it"),
        ("0P", "a count of 0"),
        ("41P", "a count above 40"),
        ("20P21P", "a count above 40"),
    ];
    for (hands, why) in cases {
        let s = format!("4k4/9/9/9/9/9/9/9/4K4 b {hands} 1");
        assert_fen_error(
            &s,
            FenError::Hands {
                field: hands.into(),
                why: why.into(),
            },
            &format!("the hands field '{hands}' is not valid: {why}"),
        );
    }
    // A promoted piece is never held.
    assert!(matches!(
        fen_error(shogi(), "4k4/9/9/9/9/9/9/9/4K4 b +P 1"),
        FenError::Hands { .. }
    ));
}

#[test]
fn bad_move_numbers_are_refused() {
    for n in ["0", "-1", "x", "1.5", "4294967296"] {
        assert_fen_error(
            &format!("4k4/9/9/9/9/9/9/9/4K4 b - {n}"),
            FenError::MoveNumber(n.into()),
            &format!("the move number must be a whole number from 1 to 1000000000, not '{n}'"),
        );
    }
}

#[test]
fn largest_accepted_move_number_survives_a_move() {
    // The largest move number accepted (the reader caps it; before the cap, 4294967295 was
    // accepted and the next move overflowed the ply).
    let n = [u32::MAX, 1_000_000]
        .into_iter()
        .find(|n| fen::parse(shogi(), &format!("4k4/9/9/9/9/9/9/9/4K4 b - {n}")).is_ok())
        .expect("some large move number is accepted");
    let mut p = position(shogi(), &format!("4k4/9/9/9/9/9/9/9/4K4 b - {n}"));
    let m = p.legal_moves()[0];
    p.make(m);
    let s = fen::write(&p);
    fen::parse(shogi(), &s).unwrap_or_else(|e| panic!("{s}: {e}"));
}

#[test]
fn cannon_pawns_doubled_by_sideways_steps_read_back() {
    // 7g8g joins the pawn on 8f: the move is legal (the texts forbid two pawns on a file only
    // for drops, and the engine plays it), so its position string must read back.
    let p = after(VariantId::Cannon, "9g9f 9c9d 9f8f 9d8d 7g8g");
    let s = fen::write(&p);
    assert_eq!(
        s,
        "lnsgkgsnl/1rci1uab1/2p1p1p1p/1p7/9/1P7/1P2P1P1P/1BAU1ICR1/LNSGKGSNL w - 6"
    );
    let back = fen::parse(cannon(), &s).unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(back, p);
}

#[test]
fn palace_lion_capturing_a_castling_lance_ends_the_right() {
    let palace = variant(VariantId::parse("palace").expect("Palace Shogi"));
    // White's lion on 8h takes Black's lance on 9i, then steps on to 9h.
    let p = position(palace, "3k5/9/9/9/9/9/9/1+q7/L3K4 w - 1 9i -");
    let m = read(&p, "8h9i9h");
    let mut g = Game::new(p);
    g.play(m).unwrap();
    let s = fen::write(g.position());
    assert_eq!(s, "3k5/9/9/9/9/9/9/+q8/4K4 b - 2 - -");
    fen::parse(palace, &s).unwrap_or_else(|e| panic!("{s}: {e}"));
}

// ---------------------------------------------------------------------------------------------
// The forgiving reader

#[test]
fn move_codes_are_read() {
    let v = shogi();
    let start = Position::start(VariantId::Shogi);
    assert_eq!(read(&start, "7g7f"), board(v, "7g", "7f", false));
    assert_eq!(read(&start, "7776"), board(v, "7g", "7f", false));
    assert_eq!(read(&start, " 7g7f "), board(v, "7g", "7f", false));
    let hand = position(v, "4k4/9/9/9/9/9/9/9/4K4 b P 1");
    assert_eq!(read(&hand, "P*5e"), drop(v, PieceKind::Pawn, "5e"));
    assert_eq!(read(&hand, "p*5e"), drop(v, PieceKind::Pawn, "5e"));
    assert_eq!(read(&hand, "P*55"), drop(v, PieceKind::Pawn, "5e"));
}

#[test]
fn hodges_forms_are_read() {
    let v = shogi();
    let start = Position::start(VariantId::Shogi);
    let p7f = board(v, "7g", "7f", false);
    for text in [
        "P-7f", "p-7f", "P-76", "P7f", "P7g-7f", "P7g7f", "P-7F", "P-7f!", "Px7f",
    ] {
        assert_eq!(read(&start, text), p7f, "{text}");
    }
    assert_eq!(read(&start, "G6i-5h"), board(v, "6i", "5h", false));
    assert_eq!(read(&start, "G4i-5h"), board(v, "4i", "5h", false));
    assert_eq!(read(&start, "g6i5h"), board(v, "6i", "5h", false));
    assert_eq!(read(&start, "G-6h"), board(v, "6i", "6h", false));

    let capture = position(v, "4k4/9/9/2p6/2P6/9/9/9/4K4 b - 1");
    assert_eq!(read(&capture, "Px7d"), board(v, "7e", "7d", false));

    let knight = position(v, "4k4/9/2p6/9/1N7/9/9/9/4K4 b - 1");
    assert_eq!(read(&knight, "Nx7c="), board(v, "8e", "7c", false));
    assert_eq!(read(&knight, "Nx7c+"), board(v, "8e", "7c", true));
    assert_eq!(read(&knight, "N-9c="), board(v, "8e", "9c", false));

    let dragon = position(v, "4k4/9/9/9/7+R1/9/9/9/4K4 b S 1");
    assert_eq!(read(&dragon, "+R-2b"), board(v, "2e", "2b", false));
    assert_eq!(read(&dragon, "+r-2b"), board(v, "2e", "2b", false));
    assert_eq!(read(&dragon, "S*5e"), drop(v, PieceKind::Silver, "5e"));
    assert_eq!(read(&dragon, "s*5e"), drop(v, PieceKind::Silver, "5e"));
    // With nothing else that could go there, the drop sign may be left out.
    assert_eq!(read(&dragon, "S5e"), drop(v, PieceKind::Silver, "5e"));

    let exchange = after(VariantId::Shogi, "7g7f 3c3d");
    assert_eq!(read(&exchange, "Bx2b+"), board(v, "8h", "2b", true));
    assert_eq!(read(&exchange, "Bx2b="), board(v, "8h", "2b", false));
    // A move code is exact: no `+`, no promotion.
    assert_eq!(read(&exchange, "8h2b"), board(v, "8h", "2b", false));
    assert_eq!(read(&exchange, "8h2b+"), board(v, "8h", "2b", true));
}

#[test]
fn judkins_moves_are_read() {
    let v = variant(VariantId::Judkins);
    let start = Position::start(VariantId::Judkins);
    assert_eq!(read(&start, "P-6d"), board(v, "6e", "6d", false));
    assert_eq!(read(&start, "6e6d"), board(v, "6e", "6d", false));
    assert_eq!(read(&start, "Rx1b+"), board(v, "1f", "1b", true));
    assert_eq!(read(&start, "N-4d"), board(v, "3f", "4d", false));
}

#[test]
fn cannon_shogi_names_are_read() {
    let v = cannon();
    let start = Position::start(VariantId::Cannon);
    assert_eq!(read(&start, "GC-1h"), board(v, "6h", "1h", false));
    assert_eq!(read(&start, "gc-1h"), board(v, "6h", "1h", false));
    assert_eq!(read(&start, "U-1h"), board(v, "6h", "1h", false));
    assert_eq!(read(&start, "SC-7f"), board(v, "7h", "7f", false));
    assert_eq!(read(&start, "A-7f"), board(v, "7h", "7f", false));
    assert_eq!(read(&start, "IC-2f"), board(v, "4h", "2f", false));
    assert_eq!(read(&start, "GCx6a+"), board(v, "6h", "6a", true));
    assert_eq!(read(&start, "GCx6a="), board(v, "6h", "6a", false));
    assert_eq!(read(&start, "P7g-6g"), board(v, "7g", "6g", false));

    let hand = position(v, "4k4/9/9/9/9/9/9/9/4K4 b UACIP 1");
    let cases = [
        ("GC*5e", PieceKind::GoldCannon),
        ("SC*5e", PieceKind::SilverCannon),
        ("CC*5e", PieceKind::CopperCannon),
        ("IC*5e", PieceKind::IronCannon),
        ("U*5e", PieceKind::GoldCannon),
        ("A*5e", PieceKind::SilverCannon),
        ("C*5e", PieceKind::CopperCannon),
        ("I*5e", PieceKind::IronCannon),
        ("cc*5e", PieceKind::CopperCannon),
        ("P*5e", PieceKind::SidePawn),
    ];
    for (text, kind) in cases {
        assert_eq!(read(&hand, text), drop(v, kind, "5e"), "{text}");
    }
    let promoted = position(v, "4k4/9/9/9/4+U4/9/9/9/4K4 b - 1");
    assert_eq!(read(&promoted, "+GC-5d"), board(v, "5e", "5d", false));
}

#[test]
fn two_pieces_that_can_reach_a_square_make_an_ambiguity() {
    let start = Position::start(VariantId::Shogi);
    let e = read_err(&start, "G-5h");
    let MoveInputError::Ambiguous {
        understood,
        mut options,
    } = e.clone()
    else {
        panic!("{e:?}");
    };
    assert_eq!(understood, "gold to 5h");
    options.sort();
    assert_eq!(options, ["G4i-5h", "G6i-5h"]);
    let msg = e.to_string();
    assert!(
        msg.starts_with("gold to 5h could be several moves: "),
        "{msg}"
    );
    assert!(msg.contains("G6i-5h") && msg.contains("G4i-5h"), "{msg}");

    // Cannon Shogi pawns step sideways: two of them can reach 8g.
    let e = read_err(&Position::start(VariantId::Cannon), "P-8g");
    let MoveInputError::Ambiguous { mut options, .. } = e else {
        panic!("{e:?}");
    };
    options.sort();
    assert_eq!(options, ["P7g-8g", "P9g-8g"]);

    // A piece on the board and one in hand: `-` and `*` tell them apart, and a bare `S5e`
    // never means the drop (a drop is written with `*`).
    let both = position(shogi(), "4k4/9/9/9/9/4S4/9/9/4K4 b S 1");
    match parse_move(&both, "S5e") {
        Ok(m) => assert_eq!(m, board(shogi(), "5f", "5e", false)),
        Err(MoveInputError::Ambiguous { mut options, .. }) => {
            options.sort();
            assert_eq!(options, ["S*5e", "S-5e"]);
        }
        Err(e) => panic!("S5e: {e:?}"),
    }
    assert_eq!(read(&both, "S-5e"), board(shogi(), "5f", "5e", false));
    assert_eq!(read(&both, "S*5e"), drop(shogi(), PieceKind::Silver, "5e"));
}

#[test]
fn an_optional_promotion_must_be_chosen() {
    let exchange = after(VariantId::Shogi, "7g7f 3c3d");
    for text in ["Bx2b", "B-2b", "b2b"] {
        let e = read_err(&exchange, text);
        assert_eq!(
            e,
            MoveInputError::PromotionChoice {
                understood: "bishop to 2b".into(),
                options: ["Bx2b+".into(), "Bx2b=".into()],
            },
            "{text}"
        );
        assert_eq!(
            e.to_string(),
            "bishop to 2b: promote or not? Write Bx2b+ (promote) or Bx2b= (do not)"
        );
    }
    let knight = position(shogi(), "4k4/9/2p6/9/1N7/9/9/9/4K4 b - 1");
    assert!(matches!(
        read_err(&knight, "Nx7c"),
        MoveInputError::PromotionChoice { options, .. } if options == ["Nx7c+", "Nx7c="]
    ));
    // A forced promotion needs no choice.
    let pawn = position(shogi(), "3k5/4P4/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(read(&pawn, "P-5a"), board(shogi(), "5b", "5a", true));
    assert_eq!(read(&pawn, "P-5a+"), board(shogi(), "5b", "5a", true));
}

#[test]
fn squares_off_the_board_are_named() {
    let start = Position::start(VariantId::Shogi);
    for (text, square) in [("0a0b", "0a"), ("9j9k", "9j"), ("P-7z", "7z")] {
        let e = read_err(&start, text);
        assert!(
            matches!(&e, MoveInputError::NoSuchSquare { square: s, .. } if s == square),
            "{text}: {e:?}"
        );
        assert!(e.to_string().contains("files 1-9, ranks a-i"), "{e}");
    }
    let judkins = Position::start(VariantId::Judkins);
    let e = read_err(&judkins, "7g7f");
    assert_eq!(
        e.to_string(),
        "7g is not a square of Judkins Shogi (files 1-6, ranks a-f)"
    );
}

#[test]
fn unknown_pieces_are_named() {
    let start = Position::start(VariantId::Shogi);
    let e = read_err(&start, "Q-5e");
    assert_eq!(e, MoveInputError::UnknownPiece { name: "Q".into() });
    assert_eq!(e.to_string(), "'Q' is not a piece of this game");
    assert_eq!(
        read_err(&Position::start(VariantId::Judkins), "L-5e"),
        MoveInputError::UnknownPiece { name: "L".into() }
    );
    assert!(matches!(
        read_err(&start, "X*5e"),
        MoveInputError::UnknownPiece { .. }
    ));
}

#[test]
fn unreadable_and_empty_input_is_refused_clearly() {
    let start = Position::start(VariantId::Shogi);
    assert_eq!(read_err(&start, ""), MoveInputError::Empty);
    assert_eq!(read_err(&start, "   "), MoveInputError::Empty);
    assert_eq!(read_err(&start, "").to_string(), "no move given");
    for text in ["7g", "P-", "7g7f7e7d", "++P-7f", "*5e", "P*", "="] {
        let e = read_err(&start, text);
        assert!(
            matches!(&e, MoveInputError::Unreadable { input, .. } if input == text),
            "{text}: {e:?}"
        );
        let msg = e.to_string();
        let prefix = format!("'{text}' is not a move I can read: write it like ");
        assert!(msg.starts_with(&prefix), "{msg}");
        // The examples are moves that can be played here (issue 51), not a fixed `P-7f`.
        let examples = msg[prefix.len()..].replace(" or ", ", ");
        for ex in examples.split(", ") {
            assert!(parse_move(&start, ex).is_ok(), "{ex} in {msg}");
        }
    }
}

/// The reason an input was refused as illegal.
fn illegal_reason(pos: &Position, text: &str) -> (String, Option<IllegalMove>) {
    match read_err(pos, text) {
        e @ MoveInputError::Illegal { .. } => {
            let msg = e.to_string();
            let MoveInputError::Illegal { reason, .. } = e else {
                unreachable!()
            };
            (msg, reason)
        }
        e => panic!("'{text}': {e:?}"),
    }
}

#[test]
fn illegal_moves_say_what_was_understood_and_why() {
    let v = shogi();
    let start = Position::start(VariantId::Shogi);
    let (msg, reason) = illegal_reason(&start, "P-7e");
    assert_eq!(msg, "pawn to 7e: none of your pawns can move to 7e");
    assert!(matches!(reason, Some(IllegalMove::CannotReach { .. })));

    let (msg, _) = illegal_reason(&start, "7g7e");
    assert_eq!(msg, "pawn 7g-7e: your pawn on 7g cannot move to 7e");

    let (msg, reason) = illegal_reason(&start, "7g7f+");
    assert_eq!(
        msg,
        "pawn 7g-7f promoting: a pawn promotes only on a move into, within or out of the promotion zone"
    );
    assert_eq!(
        reason,
        Some(IllegalMove::NotInZone {
            kind: PieceKind::Pawn
        })
    );

    let (msg, reason) = illegal_reason(&start, "K-5h+");
    assert_eq!(msg, "king to 5h, promoting: a king does not promote");
    assert_eq!(
        reason,
        Some(IllegalMove::CannotPromote {
            kind: PieceKind::King
        })
    );

    let (msg, _) = illegal_reason(&start, "P*5e");
    assert_eq!(msg, "pawn dropped on 5e: you have no pawn in hand");

    let (msg, _) = illegal_reason(&start, "G4a-5b");
    assert_eq!(msg, "gold on 4a to 5b: the piece on 4a is your opponent's");

    // Pawn-drop mate.
    let mate = position(v, "7nk/7s1/8G/9/9/9/9/9/K8 b P 1");
    let (msg, reason) = illegal_reason(&mate, "P*1b");
    assert_eq!(
        msg,
        "pawn dropped on 1b: a pawn drop may not give checkmate"
    );
    assert!(matches!(reason, Some(IllegalMove::PawnDropMate { .. })));
    // Two pawns on a file, and a drop where the pawn could never move.
    let hand = position(v, "4k4/9/9/9/9/9/2P6/9/4K4 b P 1");
    let (msg, reason) = illegal_reason(&hand, "P*7e");
    assert_eq!(
        msg,
        "pawn dropped on 7e: you already have an unpromoted pawn on file 7 (two pawns on a file)"
    );
    assert!(matches!(reason, Some(IllegalMove::TwoPawns { .. })));
    let (_, reason) = illegal_reason(&hand, "P*1a");
    assert!(matches!(reason, Some(IllegalMove::DeadDrop { .. })));
    // A knight must promote on the last two ranks.
    let knight = position(v, "4k4/9/9/1N7/9/9/9/9/4K4 b - 1");
    let (_, reason) = illegal_reason(&knight, "N-7b=");
    assert!(matches!(reason, Some(IllegalMove::MustPromote { .. })));
    // Check: answering it, and not walking into it.
    let check = position(v, "4k4/9/4r4/9/9/9/9/9/4K3G b - 1");
    let (msg, reason) = illegal_reason(&check, "G-1h");
    assert_eq!(
        msg,
        "gold to 1h: your king is in check, and this move does not get it out of check"
    );
    assert!(matches!(reason, Some(IllegalMove::InCheck)));
    let pinned = position(v, "4k4/9/4r4/9/9/9/4G4/9/4K4 b - 1");
    let (msg, reason) = illegal_reason(&pinned, "G-4g");
    assert_eq!(msg, "gold to 4g: this move would leave your king in check");
    assert!(matches!(reason, Some(IllegalMove::SelfCheck)));
}

#[test]
fn a_promoting_drop_is_refused_for_the_promotion() {
    let hand = position(shogi(), "4k4/9/9/9/9/9/9/9/4K4 b P 1");
    let (msg, _) = illegal_reason(&hand, "P*5e+");
    assert!(!msg.contains("no pawn"), "{msg}");
    assert!(msg.contains("promot"), "{msg}");
}

#[test]
fn shanghai_board_move_is_not_read_as_a_drop() {
    let shanghai = variant(VariantId::parse("shanghai").expect("Shanghai Palace Chess"));
    // Blue's Shogi lance on b5 may step to b4 (promoting or not); Blue also holds a lance.
    let p = position(
        shanghai,
        "n3k1ehl/3f3st/8f/d8/1lP6/5D3/F4F2H/4A1N1T/1n1AK1ESL w l2f 60",
    );
    let step = board(shanghai, "b5", "b4", false);
    let written = human(&p, step);
    assert_eq!(parse_move(&p, &written), Ok(step), "{written}");
    if let Err(MoveInputError::PromotionChoice { options, .. }) = parse_move(&p, "Lb5-b4") {
        for o in options {
            assert!(parse_move(&p, &o).is_ok(), "offered {o}, which is refused");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Hodges output

fn hodges_of(pos: &Position, code_text: &str) -> String {
    let m = code::parse(pos, code_text).unwrap_or_else(|| panic!("bad code {code_text}"));
    assert!(pos.legal_moves().contains(&m), "{code_text} is not legal");
    hodges::write(pos, m)
}

#[test]
fn hodges_adds_the_start_square_only_when_needed() {
    let start = Position::start(VariantId::Shogi);
    assert_eq!(hodges_of(&start, "6i5h"), "G6i-5h");
    assert_eq!(hodges_of(&start, "4i5h"), "G4i-5h");
    assert_eq!(hodges_of(&start, "6i6h"), "G-6h");
    assert_eq!(hodges_of(&start, "7g7f"), "P-7f");
    assert_eq!(hodges_of(&start, "5i5h"), "K-5h");
    let cannon_start = Position::start(VariantId::Cannon);
    assert_eq!(hodges_of(&cannon_start, "9g8g"), "P9g-8g");
    assert_eq!(hodges_of(&cannon_start, "7g8g"), "P7g-8g");
    assert_eq!(hodges_of(&cannon_start, "7g7f"), "P-7f");
}

#[test]
fn hodges_marks_promotion_taken_declined_and_forced() {
    let exchange = after(VariantId::Shogi, "7g7f 3c3d");
    assert_eq!(hodges_of(&exchange, "8h2b+"), "Bx2b+");
    assert_eq!(hodges_of(&exchange, "8h2b"), "Bx2b=");
    assert_eq!(hodges_of(&exchange, "8h3c"), "B-3c=");
    assert_eq!(hodges_of(&exchange, "8h4d"), "B-4d");
    let knight = position(shogi(), "4k4/9/2p6/9/1N7/9/9/9/4K4 b - 1");
    assert_eq!(hodges_of(&knight, "8e7c"), "Nx7c=");
    assert_eq!(hodges_of(&knight, "8e9c+"), "N-9c+");
    // Forced: only `+`, there is nothing to decline.
    let pawn = position(shogi(), "3k5/4P4/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(hodges_of(&pawn, "5b5a+"), "P-5a+");
    let deep = position(shogi(), "4k4/9/9/1N7/9/9/9/9/4K4 b - 1");
    assert_eq!(hodges_of(&deep, "8d7b+"), "N-7b+");
}

#[test]
fn hodges_marks_captures_drops_and_promoted_pieces() {
    let capture = position(shogi(), "4k4/9/9/2p6/2P6/9/9/9/4K4 b - 1");
    assert_eq!(hodges_of(&capture, "7e7d"), "Px7d");
    let white = position(shogi(), "4k4/9/9/2p6/2P6/9/9/9/4K4 w - 1");
    assert_eq!(hodges_of(&white, "7d7e"), "Px7e");
    let dragon = position(shogi(), "4k4/9/9/9/7+R1/9/9/9/4K4 b S 1");
    assert_eq!(hodges_of(&dragon, "2e2b"), "+R-2b");
    assert_eq!(hodges_of(&dragon, "S*5e"), "S*5e");
    let hand = position(shogi(), "4k4/9/9/9/9/9/9/9/4K4 w RBGSNLPrbgsnlp 1");
    for k in ["R", "B", "G", "S", "N", "L", "P"] {
        assert_eq!(hodges_of(&hand, &format!("{k}*5e")), format!("{k}*5e"));
    }
}

#[test]
fn hodges_names_cannon_shogi_cannons() {
    let start = Position::start(VariantId::Cannon);
    assert_eq!(hodges_of(&start, "6h1h"), "GC-1h");
    assert_eq!(hodges_of(&start, "7h7f"), "SC-7f");
    assert_eq!(hodges_of(&start, "4h2f"), "IC-2f");
    assert_eq!(hodges_of(&start, "6h6a+"), "GCx6a+");
    assert_eq!(hodges_of(&start, "6h6a"), "GCx6a=");
    let hand = position(cannon(), "4k4/9/9/9/9/9/9/9/4K4 b UACIP 1");
    let v = cannon();
    for (letter, name) in [
        ("U", "GC"),
        ("A", "SC"),
        ("C", "CC"),
        ("I", "IC"),
        ("P", "P"),
    ] {
        let m = code::parse(&hand, &format!("{letter}*5e")).unwrap();
        assert_eq!(code::write(v, m), format!("{letter}*5e"));
        assert_eq!(hodges::write(&hand, m), format!("{name}*5e"));
    }
    let copper = position(cannon(), "4k4/9/9/9/4P4/9/2C6/9/4K4 b - 1");
    assert_eq!(hodges_of(&copper, "7g4d"), "CC-4d");
    let promoted = position(cannon(), "4k4/9/9/9/4+U4/9/9/9/4K4 b - 1");
    assert_eq!(hodges_of(&promoted, "5e5d"), "+GC-5d");
}

// ---------------------------------------------------------------------------------------------
// Fuzz-style properties

/// Characters position strings are made of, and a few that they are not.
const FEN_CHARS: &str = "0123456789kKrRbBgGsSnNlLpPuUaAcCiIqQxX+/ bw-*é\t";

fn fen_char() -> impl Strategy<Value = char> {
    let chars: Vec<char> = FEN_CHARS.chars().collect();
    prop::sample::select(chars)
}

/// A position string that parsed: it must write back and read back the same.
fn check_accepted(v: &'static Variant, p: &Position) -> Result<(), TestCaseError> {
    let s = fen::write(p);
    let back = fen::parse(v, &s)
        .map_err(|e| TestCaseError::fail(format!("{s} written but refused: {e}")))?;
    prop_assert!(back == *p, "{} reads back as another position", s);
    prop_assert_eq!(fen::write(&back), s);
    // And the engine can work from it.
    let moves = p.legal_moves();
    if let Some(&m) = moves.first() {
        let mut q = p.clone();
        let u = q.make(m);
        q.unmake(m, u);
        prop_assert!(q == *p);
    }
    Ok(())
}

fn check_fen_input(text: &str) -> Result<(), TestCaseError> {
    for &id in VariantId::ALL {
        let v = variant(id);
        match fen::parse(v, text) {
            Ok(p) => check_accepted(v, &p)?,
            Err(e) => prop_assert!(!e.to_string().is_empty(), "empty message for {:?}", text),
        }
    }
    Ok(())
}

/// Positions to read moves in: every start, and a few with pieces in hand.
fn move_positions() -> Vec<Position> {
    let mut out: Vec<Position> = VariantId::ALL
        .iter()
        .map(|&id| Position::start(id))
        .collect();
    out.push(position(
        shogi(),
        "4k4/9/9/9/7+R1/9/9/4S4/4K4 b RBGSNLPrbgsnlp 1",
    ));
    out.push(position(cannon(), "4k4/9/9/9/4+U4/9/9/9/4K4 b UACIP 1"));
    out.push(after(VariantId::Shogi, "7g7f 3c3d"));
    out
}

fn check_move_input(text: &str) -> Result<(), TestCaseError> {
    for pos in move_positions() {
        match parse_move(&pos, text) {
            Ok(m) => prop_assert!(
                pos.legal_moves().contains(&m),
                "{:?} read as the illegal {:?}",
                text,
                m
            ),
            Err(e) => prop_assert!(!e.to_string().is_empty(), "empty message for {:?}", text),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn position_reader_survives_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..120)) {
        check_fen_input(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn position_reader_survives_random_strings(chars in prop::collection::vec(fen_char(), 0..100)) {
        let text: String = chars.into_iter().collect();
        check_fen_input(&text)?;
    }

    #[test]
    fn position_reader_survives_mutated_position_strings(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((0u8..3, any::<prop::sample::Index>(), fen_char()), 1..4),
    ) {
        let mut sources: Vec<String> = VariantId::ALL
            .iter()
            .map(|&id| variant(id).spec.start.to_string())
            .collect();
        sources.push("4k4/9/9/9/7+R1/9/9/4S4/4K4 b RBG2SNL3Pr2bgsn10p 31".into());
        sources.push("7nk/7s1/8G/9/9/9/9/9/K8 b P 1".into());
        sources.push("k5/6/6/6/6/5K b GSP 1".into());
        let mut text: Vec<char> = which.get(&sources).chars().collect();
        for (kind, at, c) in edits {
            match kind {
                0 if !text.is_empty() => {
                    text.remove(at.index(text.len()));
                }
                1 => text.insert(at.index(text.len() + 1), c),
                _ if !text.is_empty() => {
                    let i = at.index(text.len());
                    text[i] = c;
                }
                _ => text.push(c),
            }
        }
        let text: String = text.into_iter().collect();
        check_fen_input(&text)?;
    }

    #[test]
    fn move_reader_survives_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..24)) {
        check_move_input(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn move_reader_survives_random_move_like_strings(
        text in "[+]?[PLNSGBRKUACIpgscux]{0,2}[0-9]?[a-j0-9]?[-x*]?[0-9][a-j0-9][+=]?[!?#]?",
    ) {
        check_move_input(&text)?;
    }

    #[test]
    fn move_reader_survives_random_short_strings(text in "[ -~]{0,10}") {
        check_move_input(&text)?;
    }
}

#[test]
fn a_promoted_piece_in_hand_is_refused_with_the_reason() {
    let e = fen_error(shogi(), "4k4/9/9/9/9/9/9/9/4K4 b +P 1");
    assert!(matches!(e, FenError::Hands { .. }), "{e:?}");
    assert!(e.to_string().contains("never promoted"), "{e}");
}
