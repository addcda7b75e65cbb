//! Behaviour tests for Shanghai Palace Chess (`seeds/shanghai-palace-chess.txt` and the Shanghai
//! section of `rules.md`, which reconstructs the lost setups, fixes the letters and decides what
//! the text leaves open).
//!
//! Squares: file a..i from Red's left, rank 1..9 from Red's side. Red is the first player (side
//! `b` in position strings, `Color::Black` in the engine), sits at the bottom and moves first.
//! Letters (upper case Red, lower case Blue): Chinese king `K`, guard `A`, elephant `E`, cannon
//! `C`, Chinese pawn `Z`; Western queen `Q`, rook `R`, bishop `B`, knight `N`, pawn `P`; Shogi
//! lance `L`, knight `H`, silver `S`, bishop `D`, rook `T`, pawn `F`; promoted Shogi pieces `+F
//! +L +H +S` (gold movers), `+D` (horse), `+T` (dragon).
//!
//! Human notation is algebraic in the Western style (`src/engine/notation/algebraic.rs`): the
//! piece letter, `x` for a capture, the target square (`Nf4`, `Cxe7`), drops `S*e5`. The
//! pieces the three families share a name for are told apart by their letters, never by extra
//! marks: the Western knight is `N` and the Shogi knight `H`, bishops `B`/`D`, rooks `R`/`T`;
//! the Western pawn is written without letter (`e4`, `dxe5`, `c9=Q`), the Chinese pawn `Z` and
//! the Shogi pawn `F`. The start square is written only when two pieces of the *same letter*
//! can reach the square (`Ne2-f4`, `Nh3xf4`). A Shogi move that could promote and does ends in
//! `+`, one that could and does not in `=`.
//!
//! Every expected move set here was worked out by hand from the rules, not taken from the
//! engine. Each position is built from a list of pieces by `fen_of`, written without the
//! engine so that a mistake in the engine's square naming cannot hide.

use tegami::engine::notation::input::{parse_move, MoveInputError};
use tegami::engine::notation::{algebraic, code, fen, human};
use tegami::engine::{
    perft, setup_position, Color, Game, IllegalMove, Move, Outcome, PieceKind, Position, Reason,
    Square, Variant, VariantId,
};

const V: VariantId = VariantId::Shanghai;
const RED: Color = Color::Black;
const BLUE: Color = Color::White;

const ORIGINAL: &str = "lneakaehl/rbncqcsdt/pppzzzfff/9/9/9/PPPZZZFFF/RBNCQCSDT/LNEAKAEHL b - 1";
const SMITH: &str = "lheakaenl/tdscqcnbr/fffzzzppp/9/9/9/PPPZZZFFF/RBNCQCSDT/LNEAKAEHL b - 1";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn variant() -> &'static Variant {
    Variant::get(V)
}

/// A position string from `(square, letter)` pairs (`("e2", "K")`, `("d9", "k")`), the side
/// to move (`"b"` Red, `"w"` Blue) and the hands field. Move number 1.
fn fen_of(pieces: &[(&str, &str)], side: &str, hands: &str) -> String {
    let mut grid: [[Option<&str>; 9]; 9] = [[None; 9]; 9];
    for &(name, letter) in pieces {
        let b = name.as_bytes();
        assert!(
            b.len() == 2 && (b'a'..=b'i').contains(&b[0]) && (b'1'..=b'9').contains(&b[1]),
            "{name} is not a square"
        );
        let col = (b[0] - b'a') as usize;
        let row = (b'9' - b[1]) as usize;
        assert!(grid[row][col].is_none(), "two pieces on {name}");
        grid[row][col] = Some(letter);
    }
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut run = 0;
            for cell in row {
                match cell {
                    None => run += 1,
                    Some(l) => {
                        if run > 0 {
                            s.push_str(&run.to_string());
                            run = 0;
                        }
                        s.push_str(l);
                    }
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            s
        })
        .collect();
    format!("{} {side} {hands} 1", rows.join("/"))
}

#[track_caller]
fn parse(text: &str) -> Position {
    fen::parse(variant(), text).unwrap_or_else(|e| panic!("position {text:?} refused: {e}"))
}

#[track_caller]
fn red(pieces: &[(&str, &str)]) -> Position {
    parse(&fen_of(pieces, "b", "-"))
}

#[track_caller]
fn blue(pieces: &[(&str, &str)]) -> Position {
    parse(&fen_of(pieces, "w", "-"))
}

#[track_caller]
fn red_holding(pieces: &[(&str, &str)], hands: &str) -> Position {
    parse(&fen_of(pieces, "b", hands))
}

#[track_caller]
fn blue_holding(pieces: &[(&str, &str)], hands: &str) -> Position {
    parse(&fen_of(pieces, "w", hands))
}

#[track_caller]
fn sq(name: &str) -> Square {
    variant()
        .parse_square(name)
        .unwrap_or_else(|| panic!("{name} is not a square"))
}

fn code_of(m: Move) -> String {
    code::write(variant(), m)
}

fn codes(moves: &[Move]) -> Vec<String> {
    let mut out: Vec<String> = moves.iter().map(|&m| code_of(m)).collect();
    out.sort();
    out
}

/// Every legal move of the position, as sorted move codes.
fn all_legal(p: &Position) -> Vec<String> {
    codes(&p.legal_moves())
}

/// The legal board moves of the piece on `from`.
fn legal_from(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    let moves: Vec<Move> = p
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == Some(from))
        .collect();
    codes(&moves)
}

/// The legal drops of the piece with this (upper case) letter.
fn legal_drops(p: &Position, letter: &str) -> Vec<String> {
    let prefix = format!("{letter}*");
    all_legal(p)
        .into_iter()
        .filter(|c| c.starts_with(&prefix))
        .collect()
}

/// `from` + each target.
fn steps(from: &str, tos: &[&str]) -> Vec<String> {
    tos.iter().map(|to| format!("{from}{to}")).collect()
}

/// `from` + each target, with and without promotion.
fn either(from: &str, tos: &[&str]) -> Vec<String> {
    tos.iter()
        .flat_map(|to| [format!("{from}{to}"), format!("{from}{to}+")])
        .collect()
}

/// `from` + each target, promoting.
fn promoting(from: &str, tos: &[&str]) -> Vec<String> {
    tos.iter().map(|to| format!("{from}{to}+")).collect()
}

/// Asserts that a set of codes is exactly the expected one, showing what is missing and extra.
#[track_caller]
fn assert_moves<S: AsRef<str>>(actual: &[String], expected: &[S]) {
    let mut want: Vec<String> = expected.iter().map(|s| s.as_ref().to_string()).collect();
    want.sort();
    let dups = want.windows(2).any(|w| w[0] == w[1]);
    assert!(!dups, "the expected list repeats a move: {want:?}");
    let mut got = actual.to_vec();
    got.sort();
    let missing: Vec<&String> = want.iter().filter(|c| !got.contains(c)).collect();
    let extra: Vec<&String> = got.iter().filter(|c| !want.contains(c)).collect();
    assert!(
        missing.is_empty() && extra.is_empty() && got.len() == want.len(),
        "move sets differ\n  missing: {missing:?}\n  extra:   {extra:?}\n  got:     {got:?}"
    );
}

#[track_caller]
fn mv(p: &Position, text: &str) -> Move {
    code::parse(p, text).unwrap_or_else(|| panic!("{text:?} is not a move code"))
}

#[track_caller]
fn check(p: &Position, text: &str) -> Result<(), IllegalMove> {
    p.check_move(mv(p, text))
}

/// Plays space-separated move codes in a game, panicking on the first refused one.
#[track_caller]
fn play(game: &mut Game, moves: &str) {
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = mv(game.position(), text);
        if let Err(e) = game.play(m) {
            panic!("move {i} ({text}) refused: {e:?}");
        }
    }
}

/// Every square name on ranks `ranks` of the files `files`, minus `occupied`.
fn squares(files: &str, ranks: std::ops::RangeInclusive<u8>, occupied: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for f in files.chars() {
        for r in ranks.clone() {
            let name = format!("{f}{r}");
            if !occupied.contains(&name.as_str()) {
                out.push(name);
            }
        }
    }
    out
}

fn drops_on(letter: &str, squares: &[String]) -> Vec<String> {
    squares.iter().map(|s| format!("{letter}*{s}")).collect()
}

fn kind_at(p: &Position, name: &str) -> Option<(PieceKind, Color)> {
    p.piece_at(sq(name)).map(|pc| (pc.kind, pc.color))
}

/// The kind of a position-string letter, from rules.md (written out here, not asked of the
/// engine).
fn kind_of(letter: char) -> PieceKind {
    use PieceKind::*;
    match letter.to_ascii_uppercase() {
        'K' => XiangqiKing,
        'A' => Guard,
        'E' => XiangqiElephant,
        'C' => XiangqiCannon,
        'Z' => XiangqiPawn,
        'Q' => Queen,
        'R' => WesternRook,
        'B' => WesternBishop,
        'N' => ChessKnight,
        'P' => WesternPawn,
        'L' => Lance,
        'H' => Knight,
        'S' => Silver,
        'D' => Bishop,
        'T' => Rook,
        'F' => Pawn,
        other => panic!("no such letter {other}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Setups and position strings
// ---------------------------------------------------------------------------------------------

/// rules.md: Red rank 1 (A..I) `L N E A K A E H L`, rank 2 `R B N C Q C S D T`, rank 3
/// `P P P Z Z Z F F F`; in the original setup Blue is Red reflected across rank 5.
#[test]
fn original_setup_is_the_rules_md_reconstruction_with_blue_reflected_across_rank_5() {
    let start = Position::start(V);
    assert_eq!(fen::write(&start), ORIGINAL);
    assert_eq!(start.side_to_move(), RED);
    let red_ranks = [(1, "LNEAKAEHL"), (2, "RBNCQCSDT"), (3, "PPPZZZFFF")];
    for (rank, letters) in red_ranks {
        for (i, letter) in letters.chars().enumerate() {
            let file = (b'a' + i as u8) as char;
            let red_sq = format!("{file}{rank}");
            let blue_sq = format!("{file}{}", 10 - rank);
            assert_eq!(kind_at(&start, &red_sq), Some((kind_of(letter), RED)));
            assert_eq!(kind_at(&start, &blue_sq), Some((kind_of(letter), BLUE)));
        }
    }
    assert_eq!(start.pieces().filter(|(_, p)| p.color == RED).count(), 27);
    assert_eq!(start.pieces().filter(|(_, p)| p.color == BLUE).count(), 27);
    // The Chinese palace holds the Xiangqi pieces and the visiting queen; Shogi pieces east,
    // Western pieces (and the second lance) west.
    assert_eq!(kind_at(&start, "e1"), Some((PieceKind::XiangqiKing, RED)));
    assert_eq!(kind_at(&start, "e2"), Some((PieceKind::Queen, RED)));
    assert_eq!(kind_at(&start, "e9"), Some((PieceKind::XiangqiKing, BLUE)));
    assert_eq!(kind_at(&start, "e8"), Some((PieceKind::Queen, BLUE)));
    let original = setup_position(V, "original").expect("the original setup exists");
    assert_eq!(fen::write(&original), ORIGINAL);
}

/// rules.md: Smith's setup rotates Blue 180 degrees, so the Shogi bishops stand on h2 and b8,
/// one diagonal.
#[test]
fn smith_setup_rotates_blue_and_puts_the_shogi_bishops_on_one_diagonal() {
    let smith = setup_position(V, "smith").expect("the smith setup exists");
    assert_eq!(fen::write(&smith), SMITH);
    assert_eq!(smith.side_to_move(), RED);
    let red_ranks = [(1u8, "LNEAKAEHL"), (2, "RBNCQCSDT"), (3, "PPPZZZFFF")];
    for (rank, letters) in red_ranks {
        for (i, letter) in letters.chars().enumerate() {
            let red_sq = format!("{}{rank}", (b'a' + i as u8) as char);
            let blue_sq = format!("{}{}", (b'i' - i as u8) as char, 10 - rank);
            assert_eq!(kind_at(&smith, &red_sq), Some((kind_of(letter), RED)));
            assert_eq!(kind_at(&smith, &blue_sq), Some((kind_of(letter), BLUE)));
        }
    }
    assert_eq!(kind_at(&smith, "h2"), Some((PieceKind::Bishop, RED)));
    assert_eq!(kind_at(&smith, "b8"), Some((PieceKind::Bishop, BLUE)));
    // h2 and b8 are six files and six ranks apart: one diagonal.
    assert_eq!(smith.pieces().count(), 54);
    // The name is matched without regard to case; an unknown setup is none.
    assert!(setup_position(V, "Smith").is_some());
    assert!(setup_position(V, "mirrored-by-nobody").is_none());
}

#[test]
fn both_setups_read_from_their_position_strings_and_write_back_unchanged() {
    for text in [ORIGINAL, SMITH] {
        let p = parse(text);
        assert_eq!(fen::write(&p), text);
    }
    assert_eq!(parse(ORIGINAL), Position::start(V));
    assert_eq!(parse(SMITH), setup_position(V, "smith").unwrap());
}

/// From the start only the nine pawns (one step, no double step), the c2 knight (b4, d4) and
/// the two cannons (over the d3/f3 pawns onto Blue's d7/f7 pawns) can move: 13 moves.
#[test]
fn start_position_has_the_thirteen_moves_worked_out_by_hand() {
    let expected = [
        "a3a4", "b3b4", "c3c4", "d3d4", "e3e4", "f3f4", "g3g4", "h3h4", "i3i4", "c2b4", "c2d4",
        "d2d7", "f2f7",
    ];
    assert_moves(&all_legal(&Position::start(V)), &expected);
    // Smith's Blue has Chinese pawns on d7-f7 too, and Red's side is the same.
    assert_moves(&all_legal(&setup_position(V, "smith").unwrap()), &expected);
}

#[test]
fn start_position_perft_matches_the_independent_figures() {
    let mut start = Position::start(V);
    assert_eq!(perft(&mut start, 1), 13);
    assert_eq!(perft(&mut start, 2), 170);
    assert_eq!(perft(&mut start, 3), 2924);
}

#[test]
fn smith_setup_perft_matches_the_independent_figures() {
    let mut smith = setup_position(V, "smith").unwrap();
    assert_eq!(perft(&mut smith, 1), 13);
    assert_eq!(perft(&mut smith, 2), 170);
    assert_eq!(perft(&mut smith, 3), 2926);
}

#[test]
fn red_is_the_first_player_and_blue_the_second() {
    let v = variant();
    assert_eq!(v.side_name(RED), "red");
    assert_eq!(v.side_name(BLUE), "blue");
    assert_eq!(v.parse_side("Blue"), Some(BLUE));
    assert_eq!(v.square_name(sq("a1")), "a1");
    assert_eq!(v.square_name(sq("i9")), "i9");
}

#[test]
fn position_strings_round_trip() {
    let texts = [
        // Hands: Red first, then Blue, in the fixed order T D S H L F.
        "4k4/9/9/9/4+T4/9/9/9/3K5 w TD2S2Fdh3f 12",
        // Every promoted Shogi letter of both sides on the board.
        "4k4/9/+F+L+H+S+D+T3/9/9/9/3+f+l+h+s+d1/+t8/4K4 b - 5",
        // Western, Chinese and Shogi pawns on one file are fine.
        "4k4/9/9/9/3F5/3Z5/3P5/9/5K3 b - 1",
    ];
    for text in texts {
        assert_eq!(fen::write(&parse(text)), text);
    }
    // Hands are read in any order and written in the fixed one.
    let p = parse("4k4/9/9/9/4+T4/9/9/9/3K5 w 2F2STD3fhd 12");
    assert_eq!(fen::write(&p), "4k4/9/9/9/4+T4/9/9/9/3K5 w TD2S2Fdh3f 12");
    assert_eq!(p.hand(RED, PieceKind::Silver), 2);
    assert_eq!(p.hand(BLUE, PieceKind::Pawn), 3);
    assert_eq!(p.hand(BLUE, PieceKind::Knight), 1);
}

#[test]
fn position_string_after_moves_is_written_from_the_new_position() {
    let mut p = Position::start(V);
    p.play(mv(&p, "c2d4")).unwrap();
    assert_eq!(
        fen::write(&p),
        "lneakaehl/rbncqcsdt/pppzzzfff/9/9/3N5/PPPZZZFFF/RB1CQCSDT/LNEAKAEHL w - 2"
    );
    // The cannon takes Blue's Chinese pawn: it leaves the game, nothing goes to a hand.
    let mut p = Position::start(V);
    p.play(mv(&p, "d2d7")).unwrap();
    assert_eq!(
        fen::write(&p),
        "lneakaehl/rbncqcsdt/pppCzzfff/9/9/9/PPPZZZFFF/RBN1QCSDT/LNEAKAEHL w - 2"
    );
}

#[test]
fn king_outside_its_palace_in_a_position_string_is_refused_with_a_clear_error() {
    let cases = [
        ("4k4/9/9/9/9/9/9/9/2K6 b - 1", "king", "c1"),
        ("9/9/9/4k4/9/9/9/9/3K5 b - 1", "king", "e6"),
        // Red's king in Blue's palace is outside its own.
        ("3k5/4K4/9/9/9/9/9/9/9 b - 1", "king", "e8"),
        ("4k4/9/9/9/9/9/9/2A6/5K3 b - 1", "guard", "c2"),
    ];
    for (text, piece, square) in cases {
        let err = fen::parse(variant(), text).expect_err(text);
        assert_eq!(
            err,
            fen::FenError::Confined {
                piece,
                square: square.to_string()
            },
            "{text}"
        );
        let message = err.to_string();
        assert!(
            message.contains(square) && message.contains(piece) && message.contains("palace"),
            "unclear message: {message}"
        );
    }
}

#[test]
fn elephant_past_the_river_in_a_position_string_is_refused() {
    for (text, square) in [
        ("4k4/9/2E6/9/9/9/9/9/5K3 b - 1", "c7"),
        ("4k4/9/9/9/9/9/2e6/9/5K3 b - 1", "c3"),
    ] {
        assert_eq!(
            fen::parse(variant(), text),
            Err(fen::FenError::Confined {
                piece: "elephant",
                square: square.to_string()
            })
        );
    }
    // On its own rank 5 it is at home.
    parse("4k4/9/9/9/2E3e2/9/9/9/5K3 b - 1");
}

#[test]
fn pieces_that_could_never_move_and_two_shogi_pawns_on_a_file_are_refused() {
    let dead = [
        ("F2k5/9/9/9/9/9/9/9/5K3 b - 1", "a9"),
        ("2P1k4/9/9/9/9/9/9/9/5K3 b - 1", "c9"),
        ("4k4/1H7/9/9/9/9/9/9/5K3 b - 1", "b8"),
        ("4k4/9/9/9/9/9/9/9/f4K3 b - 1", "a1"),
        ("4k4/9/9/9/9/9/9/9/2p2K3 b - 1", "c1"),
    ];
    for (text, square) in dead {
        match fen::parse(variant(), text) {
            Err(fen::FenError::DeadPiece { square: s, .. }) => assert_eq!(s, square, "{text}"),
            other => panic!("{text}: expected a dead piece on {square}, got {other:?}"),
        }
    }
    assert!(matches!(
        fen::parse(variant(), "4k4/9/9/F8/9/F8/9/9/5K3 b - 1"),
        Err(fen::FenError::TwoPawns { side: "red", .. })
    ));
    // A Chinese pawn on the last rank still steps sideways: it may stand there.
    parse("Z3k4/9/9/9/9/9/9/9/5K3 b - 1");
}

#[test]
fn kings_facing_on_an_open_file_in_a_position_string_is_refused() {
    assert_eq!(
        fen::parse(variant(), "4k4/9/9/9/9/9/9/9/4K4 b - 1"),
        Err(fen::FenError::SideNotToMoveInCheck { side: "blue" })
    );
    assert_eq!(
        fen::parse(variant(), "4k4/9/9/9/9/9/9/9/4K4 w - 1"),
        Err(fen::FenError::SideNotToMoveInCheck { side: "red" })
    );
    // With a piece between them they may stand on one file.
    parse("4k4/9/9/9/4Z4/9/9/9/4K4 b - 1");
}

#[test]
fn western_and_chinese_pieces_cannot_be_held_in_a_position_string() {
    for hand in ["N", "Q", "R", "B", "P", "C", "Z", "A", "E", "K", "n", "z"] {
        let text = format!("4k4/9/9/9/9/9/9/9/5K3 b {hand} 1");
        assert!(
            matches!(
                fen::parse(variant(), &text),
                Err(fen::FenError::Hands { .. })
            ),
            "{text} should be refused"
        );
    }
    for hand in ["T", "D", "S", "H", "L", "F", "tdshlf"] {
        parse(&format!("4k4/9/9/9/9/9/9/9/5K3 b {hand} 1"));
    }
}

// ---------------------------------------------------------------------------------------------
// Chinese king and guards: the palace
// ---------------------------------------------------------------------------------------------

#[test]
fn chinese_king_steps_one_square_orthogonally() {
    // The Shogi pawn on d5 stands between d2 and Blue's king, so all four steps are open.
    let p = red(&[("e2", "K"), ("d5", "F"), ("d9", "k")]);
    assert_moves(&legal_from(&p, "e2"), &["e2e1", "e2e3", "e2d2", "e2f2"]);
    for diagonal in ["e2d1", "e2d3", "e2f1", "e2f3"] {
        assert!(
            matches!(check(&p, diagonal), Err(IllegalMove::CannotReach { .. })),
            "{diagonal}"
        );
    }
}

#[test]
fn chinese_king_stops_at_the_palace_edges() {
    let p = red(&[("d3", "K"), ("f9", "k")]);
    assert_moves(&all_legal(&p), &["d3d2", "d3e3"]);
    for (m, to) in [("d3c3", "c3"), ("d3d4", "d4")] {
        assert_eq!(
            check(&p, m),
            Err(IllegalMove::Confined {
                kind: PieceKind::XiangqiKing,
                to: sq(to)
            })
        );
    }
    let message = check(&p, "d3c3").unwrap_err().message(variant());
    assert!(
        message.contains("palace") && message.contains("c3"),
        "{message}"
    );
    let p = red(&[("f1", "K"), ("d8", "k")]);
    assert_moves(&all_legal(&p), &["f1e1", "f1f2"]);
    assert!(matches!(
        check(&p, "f1g1"),
        Err(IllegalMove::Confined { .. })
    ));
    // Blue's palace is d7-f9.
    let p = blue(&[("f1", "K"), ("d7", "k")]);
    assert_moves(&all_legal(&p), &["d7d8", "d7e7"]);
    for (m, to) in [("d7d6", "d6"), ("d7c7", "c7")] {
        assert_eq!(
            check(&p, m),
            Err(IllegalMove::Confined {
                kind: PieceKind::XiangqiKing,
                to: sq(to)
            })
        );
    }
}

#[test]
fn chinese_king_may_not_leave_its_palace_even_to_capture_a_checking_piece() {
    // Blue's Chinese pawn on d4 has crossed the river and checks the king on d3.
    let p = red(&[("d3", "K"), ("d4", "z"), ("f9", "k")]);
    assert!(p.in_check());
    assert_moves(&all_legal(&p), &["d3d2", "d3e3"]);
    assert_eq!(
        check(&p, "d3d4"),
        Err(IllegalMove::Confined {
            kind: PieceKind::XiangqiKing,
            to: sq("d4")
        })
    );
}

#[test]
fn guards_step_one_square_diagonally_inside_the_palace() {
    let p = red(&[("f1", "K"), ("e2", "A"), ("d9", "k")]);
    assert_moves(&legal_from(&p, "e2"), &["e2d1", "e2d3", "e2f3"]);
    assert!(matches!(
        check(&p, "e2e3"),
        Err(IllegalMove::CannotReach { .. })
    ));
    assert_eq!(
        check(&p, "e2f1"),
        Err(IllegalMove::OwnPiece { to: sq("f1") })
    );
    // From a corner only the centre is left.
    let p = red(&[("f1", "K"), ("d1", "A"), ("f3", "A"), ("d9", "k")]);
    assert_moves(&legal_from(&p, "d1"), &["d1e2"]);
    assert_moves(&legal_from(&p, "f3"), &["f3e2"]);
    // A guard a position string puts on an edge square steps to the two palace squares
    // diagonally next to it.
    let p = red(&[("d3", "K"), ("e1", "A"), ("f9", "k")]);
    assert_moves(&legal_from(&p, "e1"), &["e1d2", "e1f2"]);
    // Blue's guard on f7.
    let p = blue(&[("f1", "K"), ("e9", "k"), ("f7", "a")]);
    assert_moves(&legal_from(&p, "f7"), &["f7e8"]);
}

#[test]
fn guards_may_not_leave_the_palace_even_to_capture() {
    let p = red(&[("f1", "K"), ("d3", "A"), ("c4", "f"), ("e9", "k")]);
    assert_moves(&legal_from(&p, "d3"), &["d3e2"]);
    for (m, to) in [("d3c4", "c4"), ("d3e4", "e4"), ("d3c2", "c2")] {
        assert_eq!(
            check(&p, m),
            Err(IllegalMove::Confined {
                kind: PieceKind::Guard,
                to: sq(to)
            })
        );
    }
    let p = blue(&[("f1", "K"), ("e9", "k"), ("f7", "a")]);
    assert!(matches!(
        check(&p, "f7g6"),
        Err(IllegalMove::Confined {
            kind: PieceKind::Guard,
            ..
        })
    ));
}

// ---------------------------------------------------------------------------------------------
// The flying general
// ---------------------------------------------------------------------------------------------

#[test]
fn kings_may_not_face_each_other_on_an_open_file() {
    let p = red(&[("e2", "K"), ("d9", "k")]);
    assert_moves(&all_legal(&p), &["e2e1", "e2e3", "e2f2"]);
    assert_eq!(check(&p, "e2d2"), Err(IllegalMove::SelfCheck));
    let p = blue(&[("d1", "K"), ("e8", "k")]);
    assert_moves(&all_legal(&p), &["e8e9", "e8e7", "e8f8"]);
    assert_eq!(check(&p, "e8d8"), Err(IllegalMove::SelfCheck));
}

#[test]
fn a_piece_between_the_kings_may_not_leave_their_file() {
    // The Chinese pawn on e5 may go on up the file, not sideways.
    let p = red(&[("e1", "K"), ("e5", "Z"), ("e9", "k")]);
    assert_moves(&all_legal(&p), &["e1d1", "e1e2", "e1f1", "e5e6"]);
    assert_eq!(check(&p, "e5d5"), Err(IllegalMove::SelfCheck));
    assert_eq!(check(&p, "e5f5"), Err(IllegalMove::SelfCheck));
    // Every move of the elephant on e3 leaves the file.
    let p = red(&[("e1", "K"), ("e3", "E"), ("e9", "k")]);
    assert_moves(&all_legal(&p), &["e1d1", "e1e2", "e1f1"]);
    assert_eq!(check(&p, "e3c5"), Err(IllegalMove::SelfCheck));
}

#[test]
fn king_may_not_take_a_checking_piece_if_the_kings_would_then_face() {
    // Blue to move, in check from the queen on e8; taking her opens the e-file to Red's king,
    // and d9/f9 are the queen's: checkmate, already in the given position.
    let p = blue(&[("e1", "K"), ("e8", "Q"), ("e9", "k")]);
    assert!(p.in_check());
    assert_eq!(check(&p, "e9e8"), Err(IllegalMove::InCheck));
    assert!(all_legal(&p).is_empty());
    assert_eq!(
        Game::new(p).outcome(),
        Some(Outcome::Win {
            winner: RED,
            reason: Reason::Checkmate
        })
    );
}

/// rules.md: "a pinned piece still gives check". The knight on e6 may not leave the e-file (its
/// king would face Blue's), yet it still attacks d8 and f8.
#[test]
fn a_piece_held_between_the_kings_still_attacks() {
    let p = blue(&[("e1", "K"), ("e6", "N"), ("e8", "k")]);
    assert!(!p.in_check());
    assert_moves(&all_legal(&p), &["e8e9", "e8e7"]);
    assert_eq!(check(&p, "e8d8"), Err(IllegalMove::SelfCheck));
    let red_side = red(&[("e1", "K"), ("e6", "N"), ("e8", "k")]);
    assert!(legal_from(&red_side, "e6").is_empty());
}

// ---------------------------------------------------------------------------------------------
// Elephants
// ---------------------------------------------------------------------------------------------

#[test]
fn elephant_moves_two_squares_diagonally_unless_the_eye_is_blocked() {
    // Eyes: b2 (Blue's pawn), d4 (Red's Chinese pawn) blocked; b4 and d2 open. a5 holds a
    // Blue piece to capture.
    let p = red(&[
        ("f1", "K"),
        ("c3", "E"),
        ("d4", "Z"),
        ("b2", "p"),
        ("a5", "z"),
        ("d9", "k"),
    ]);
    assert_moves(&legal_from(&p, "c3"), &["c3a5", "c3e1"]);
    for blocked in ["c3a1", "c3e5"] {
        assert!(
            matches!(check(&p, blocked), Err(IllegalMove::CannotReach { .. })),
            "{blocked}"
        );
    }
    let p = red(&[("f1", "K"), ("e3", "E"), ("d9", "k")]);
    assert_moves(&legal_from(&p, "e3"), &["e3c1", "e3g1", "e3c5", "e3g5"]);
}

#[test]
fn elephant_reaches_c5_and_g5_but_never_crosses_rank_5() {
    let p = red(&[("f1", "K"), ("c5", "E"), ("g5", "E"), ("d9", "k")]);
    assert_moves(&legal_from(&p, "c5"), &["c5a3", "c5e3"]);
    assert_moves(&legal_from(&p, "g5"), &["g5e3", "g5i3"]);
    for (m, to) in [("c5a7", "a7"), ("c5e7", "e7"), ("g5i7", "i7")] {
        assert_eq!(
            check(&p, m),
            Err(IllegalMove::Confined {
                kind: PieceKind::XiangqiElephant,
                to: sq(to)
            })
        );
    }
    // Blue's elephants never go below rank 5.
    let p = blue(&[("f1", "K"), ("c5", "e"), ("g5", "e"), ("d9", "k")]);
    assert_moves(&legal_from(&p, "c5"), &["c5a7", "c5e7"]);
    assert_moves(&legal_from(&p, "g5"), &["g5e7", "g5i7"]);
    assert_eq!(
        check(&p, "c5a3"),
        Err(IllegalMove::Confined {
            kind: PieceKind::XiangqiElephant,
            to: sq("a3")
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Cannons
// ---------------------------------------------------------------------------------------------

#[test]
fn cannon_moves_as_a_rook_without_capturing_and_captures_over_exactly_one_screen() {
    // Red cannon e5. Up: e6 empty, e7 Red cannon (screen), e8 empty, e9 Blue guard.
    // Down: e4 Blue pawn (screen), e3 empty, e2 Blue pawn. Left: d5, c5 empty, b5 Blue pawn
    // with nothing behind. Right: f5 Red pawn (screen), g5 empty, h5 Blue cannon, i5 empty.
    let p = red(&[
        ("f1", "K"),
        ("e5", "C"),
        ("e7", "C"),
        ("f5", "Z"),
        ("d9", "k"),
        ("e9", "a"),
        ("e4", "z"),
        ("e2", "z"),
        ("b5", "z"),
        ("h5", "c"),
    ]);
    assert_moves(
        &legal_from(&p, "e5"),
        &["e5e6", "e5e9", "e5e2", "e5d5", "e5c5", "e5h5"],
    );
    // No capture without a screen, no move past a screen without capturing, no capture over
    // two screens.
    for m in ["e5e4", "e5e3", "e5e8", "e5b5", "e5a5", "e5g5", "e5i5"] {
        assert!(
            matches!(check(&p, m), Err(IllegalMove::CannotReach { .. })),
            "{m}: {:?}",
            check(&p, m)
        );
    }
    assert_eq!(
        check(&p, "e5f5"),
        Err(IllegalMove::OwnPiece { to: sq("f5") })
    );
    // The e7 cannon uses the e5 cannon as its screen to take the pawn on e4.
    assert_moves(
        &legal_from(&p, "e7"),
        &[
            "e7e8", "e7e6", "e7e4", "e7d7", "e7c7", "e7b7", "e7a7", "e7f7", "e7g7", "e7h7", "e7i7",
        ],
    );
}

#[test]
fn cannon_check_is_answered_by_a_second_screen_not_by_moving_the_screen_along_the_line() {
    // Blue's cannon on e7 checks the king on e2 over Red's own pawn on e4.
    let p = red(&[
        ("e2", "K"),
        ("e4", "Z"),
        ("a5", "R"),
        ("e7", "c"),
        ("d9", "k"),
    ]);
    assert!(p.in_check());
    // e1 and e3 stay on the cannon's line beyond the screen; d2 faces Blue's king; the pawn's
    // step to e5 keeps exactly one screen. The rook on e5 makes two screens.
    assert_moves(&all_legal(&p), &["e2f2", "a5e5"]);
    assert_eq!(check(&p, "e4e5"), Err(IllegalMove::InCheck));
}

#[test]
fn cannon_check_is_answered_by_the_screen_stepping_off_the_line() {
    let p = red(&[("e2", "K"), ("e4", "N"), ("e7", "c"), ("d9", "k")]);
    assert!(p.in_check());
    assert_moves(
        &all_legal(&p),
        &[
            "e2f2", "e4c3", "e4c5", "e4d2", "e4f2", "e4d6", "e4f6", "e4g3", "e4g5",
        ],
    );
}

#[test]
fn king_may_not_step_onto_a_square_a_cannon_covers_beyond_a_screen() {
    let p = red(&[("d2", "K"), ("f9", "k"), ("e8", "c"), ("e5", "z")]);
    assert!(!p.in_check());
    assert_moves(&all_legal(&p), &["d2d1", "d2d3"]);
    assert_eq!(check(&p, "d2e2"), Err(IllegalMove::SelfCheck));
}

#[test]
fn king_may_not_flee_along_a_cannons_line() {
    // Red's cannon on e4 checks Blue's king on e8 over Blue's pawn on e6. e9 is still on the
    // line beyond the screen once the king has left e8; e7 is right behind the screen.
    let p = blue(&[("e1", "K"), ("e4", "C"), ("e6", "z"), ("e8", "k")]);
    assert!(p.in_check());
    assert_moves(&all_legal(&p), &["e8d8", "e8f8"]);
    assert_eq!(check(&p, "e8e9"), Err(IllegalMove::InCheck));
    assert_eq!(check(&p, "e8e7"), Err(IllegalMove::InCheck));
}

// ---------------------------------------------------------------------------------------------
// Chinese pawns
// ---------------------------------------------------------------------------------------------

#[test]
fn chinese_pawn_steps_forward_and_from_its_rank_5_also_sideways_never_back() {
    let p = red(&[
        ("f1", "K"),
        ("d9", "k"),
        ("c3", "Z"),
        ("e5", "Z"),
        ("f5", "f"),
        ("g9", "Z"),
    ]);
    assert_moves(&legal_from(&p, "c3"), &["c3c4"]);
    // The capture on f5 is a sideways step like the others.
    assert_moves(&legal_from(&p, "e5"), &["e5e6", "e5d5", "e5f5"]);
    // On the last rank only sideways steps are left.
    assert_moves(&legal_from(&p, "g9"), &["g9f9", "g9h9"]);
    for m in ["e5e4", "c3b3", "c3d3", "c3c2", "g9g8"] {
        assert!(
            matches!(check(&p, m), Err(IllegalMove::CannotReach { .. })),
            "{m}"
        );
    }
}

#[test]
fn chinese_pawn_has_no_other_promotion() {
    let p = red(&[("f1", "K"), ("d9", "k"), ("e5", "Z"), ("g8", "Z")]);
    assert_eq!(
        check(&p, "e5e6+"),
        Err(IllegalMove::CannotPromote {
            kind: PieceKind::XiangqiPawn
        })
    );
    assert_eq!(
        check(&p, "g8g9+"),
        Err(IllegalMove::CannotPromote {
            kind: PieceKind::XiangqiPawn
        })
    );
    let mut after = p.clone();
    after.play(mv(&p, "g8g9")).unwrap();
    assert_eq!(kind_at(&after, "g9"), Some((PieceKind::XiangqiPawn, RED)));
}

#[test]
fn blue_chinese_pawn_crosses_at_rank_5_and_steps_down() {
    let p = blue(&[
        ("f1", "K"),
        ("d9", "k"),
        ("c5", "z"),
        ("g6", "z"),
        ("a1", "z"),
    ]);
    assert_moves(&legal_from(&p, "c5"), &["c5c4", "c5b5", "c5d5"]);
    assert_moves(&legal_from(&p, "g6"), &["g6g5"]);
    assert_moves(&legal_from(&p, "a1"), &["a1b1"]);
}

// ---------------------------------------------------------------------------------------------
// Western pawns
// ---------------------------------------------------------------------------------------------

#[test]
fn western_pawn_steps_one_square_forward_with_no_double_step() {
    let p = red(&[("f1", "K"), ("d9", "k"), ("c3", "P")]);
    assert_moves(&legal_from(&p, "c3"), &["c3c4"]);
    assert!(matches!(
        check(&p, "c3c5"),
        Err(IllegalMove::CannotReach { .. })
    ));
    let p = blue(&[("f1", "K"), ("d9", "k"), ("c7", "p")]);
    assert_moves(&legal_from(&p, "c7"), &["c7c6"]);
    assert!(matches!(
        check(&p, "c7c5"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn western_pawn_captures_one_square_diagonally_forward_and_not_straight() {
    // g5 blocks the step; h5 can be taken; f5 is empty.
    let p = red(&[
        ("f1", "K"),
        ("d9", "k"),
        ("g4", "P"),
        ("g5", "z"),
        ("h5", "z"),
    ]);
    assert_moves(&legal_from(&p, "g4"), &["g4h5"]);
    for m in ["g4g5", "g4f5", "g4h3"] {
        assert!(
            matches!(check(&p, m), Err(IllegalMove::CannotReach { .. })),
            "{m}"
        );
    }
}

#[test]
fn western_pawn_has_no_en_passant() {
    let p = blue(&[("f1", "K"), ("d9", "k"), ("d5", "P"), ("e6", "p")]);
    let mut game = Game::new(p);
    play(&mut game, "e6e5");
    // Blue's pawn now stands beside Red's: taking it "in passing" on e6 is no move.
    assert_moves(&legal_from(game.position(), "d5"), &["d5d6"]);
    assert!(matches!(
        check(game.position(), "d5e6"),
        Err(IllegalMove::CannotReach { .. })
    ));
    // Position strings have no en-passant field: four fields.
    assert_eq!(fen::write(game.position()).split_whitespace().count(), 4);
}

#[test]
fn western_pawn_on_the_last_rank_must_become_a_queen_rook_bishop_or_knight() {
    let p = red(&[("f1", "K"), ("e8", "k"), ("c8", "P"), ("b9", "n")]);
    assert_moves(
        &legal_from(&p, "c8"),
        &[
            "c8c9q", "c8c9r", "c8c9b", "c8c9n", "c8b9q", "c8b9r", "c8b9b", "c8b9n",
        ],
    );
    let choice = Err(IllegalMove::PromotionChoice {
        kind: PieceKind::WesternPawn,
    });
    // Staying a pawn, or becoming a Shogi, Chinese or other piece, is no choice.
    for m in [
        "c8c9", "c8c9+", "c8b9", "c8c9f", "c8c9t", "c8c9d", "c8c9z", "c8c9c", "c8c9k", "c8c9p",
    ] {
        assert_eq!(check(&p, m), choice, "{m}");
    }
    for (m, square, kind) in [
        ("c8c9q", "c9", PieceKind::Queen),
        ("c8c9r", "c9", PieceKind::WesternRook),
        ("c8c9b", "c9", PieceKind::WesternBishop),
        ("c8c9n", "c9", PieceKind::ChessKnight),
        ("c8b9n", "b9", PieceKind::ChessKnight),
    ] {
        let mut after = p.clone();
        after.play(mv(&p, m)).unwrap();
        assert_eq!(kind_at(&after, square), Some((kind, RED)), "{m}");
        assert_eq!(after.piece_at(sq("c8")), None);
    }
    // The move codes are distinct and read back.
    assert_eq!(
        mv(&p, "c8c9q"),
        Move::PromoteTo {
            from: sq("c8"),
            to: sq("c9"),
            kind: PieceKind::Queen
        }
    );
}

#[test]
fn blue_western_pawn_promotes_on_rank_1() {
    let p = blue(&[("f1", "K"), ("d9", "k"), ("c2", "p")]);
    assert_moves(&legal_from(&p, "c2"), &["c2c1q", "c2c1r", "c2c1b", "c2c1n"]);
    let mut after = p.clone();
    after.play(mv(&p, "c2c1r")).unwrap();
    assert_eq!(kind_at(&after, "c1"), Some((PieceKind::WesternRook, BLUE)));
    // The new rook checks along rank 1.
    assert!(after.in_check());
}

#[test]
fn western_pawn_promoting_by_capture_of_a_shogi_piece_gains_it_in_hand() {
    let p = red(&[("f1", "K"), ("e8", "k"), ("c8", "P"), ("b9", "+h")]);
    let mut after = p.clone();
    after.play(mv(&p, "c8b9q")).unwrap();
    assert_eq!(kind_at(&after, "b9"), Some((PieceKind::Queen, RED)));
    assert_eq!(after.hand(RED, PieceKind::Knight), 1);
    assert_eq!(fen::write(&after).split(' ').nth(2), Some("H"));
    let message = IllegalMove::PromotionChoice {
        kind: PieceKind::WesternPawn,
    }
    .message(variant());
    for name in ["queen", "rook", "bishop", "knight"] {
        assert!(message.contains(name), "{message}");
    }
}

// ---------------------------------------------------------------------------------------------
// Western queen, rook, bishop, knight
// ---------------------------------------------------------------------------------------------

#[test]
fn western_queen_moves_as_in_chess_into_both_palaces() {
    let p = red(&[("f1", "K"), ("d9", "k"), ("e5", "Q")]);
    let to = [
        "e6", "e7", "e8", "e9", "e4", "e3", "e2", "e1", "d5", "c5", "b5", "a5", "f5", "g5", "h5",
        "i5", "d6", "c7", "b8", "a9", "f6", "g7", "h8", "i9", "d4", "c3", "b2", "a1", "f4", "g3",
        "h2", "i1",
    ];
    assert_moves(&legal_from(&p, "e5"), &steps("e5", &to));
}

#[test]
fn western_rook_bishop_and_knight_move_as_in_chess_anywhere() {
    let p = red(&[("f1", "K"), ("d9", "k"), ("a5", "R")]);
    let to = [
        "a1", "a2", "a3", "a4", "a6", "a7", "a8", "a9", "b5", "c5", "d5", "e5", "f5", "g5", "h5",
        "i5",
    ];
    assert_moves(&legal_from(&p, "a5"), &steps("a5", &to));
    // A bishop inside Blue's palace.
    let p = red(&[("f1", "K"), ("d9", "k"), ("e7", "B")]);
    let to = [
        "d8", "c9", "f8", "g9", "d6", "c5", "b4", "a3", "f6", "g5", "h4", "i3",
    ];
    assert_moves(&legal_from(&p, "e7"), &steps("e7", &to));
    // A knight inside Red's palace; f1 holds its own king.
    let p = red(&[("f1", "K"), ("d9", "k"), ("e3", "N")]);
    let to = ["d1", "c2", "g2", "c4", "g4", "d5", "f5"];
    assert_moves(&legal_from(&p, "e3"), &steps("e3", &to));
}

#[test]
fn western_pieces_do_not_promote_in_the_shogi_zone() {
    let p = red(&[
        ("f1", "K"),
        ("d9", "k"),
        ("a4", "R"),
        ("e5", "Q"),
        ("g3", "N"),
    ]);
    for (m, kind) in [
        ("a4a6+", PieceKind::WesternRook),
        ("e5e7+", PieceKind::Queen),
        ("g3h5+", PieceKind::ChessKnight),
    ] {
        assert_eq!(
            check(&p, m),
            Err(IllegalMove::CannotPromote { kind }),
            "{m}"
        );
    }
    assert!(all_legal(&p).iter().all(|c| !c.ends_with('+')));
}

// ---------------------------------------------------------------------------------------------
// Shogi pieces and their promotion zone (ranks 5-9 for Red, 5-1 for Blue)
// ---------------------------------------------------------------------------------------------

#[test]
fn shogi_pawn_lance_and_knight_move_forward_and_promote_from_rank_5() {
    let p = red(&[
        ("d1", "K"),
        ("f9", "k"),
        ("a4", "F"),
        ("b8", "F"),
        ("c3", "F"),
        ("g3", "L"),
        ("g7", "p"),
        ("i7", "L"),
        ("h2", "H"),
        ("h3", "Z"),
        ("e6", "H"),
    ]);
    // Into the zone: optional.
    assert_moves(&legal_from(&p, "a4"), &either("a4", &["a5"]));
    // To the last rank: forced.
    assert_moves(&legal_from(&p, "b8"), &promoting("b8", &["b9"]));
    // Outside the zone: none.
    assert_moves(&legal_from(&p, "c3"), &["c3c4"]);
    // The lance slides up to and onto the Blue pawn on g7.
    let mut lance = steps("g3", &["g4"]);
    lance.extend(either("g3", &["g5", "g6", "g7"]));
    assert_moves(&legal_from(&p, "g3"), &lance);
    // Rank 8 is no dead end for a lance; rank 9 is.
    let mut lance = either("i7", &["i8"]);
    lance.extend(promoting("i7", &["i9"]));
    assert_moves(&legal_from(&p, "i7"), &lance);
    // The Shogi knight jumps (over the pawn on h3) two forward and one sideways.
    assert_moves(&legal_from(&p, "h2"), &["h2g4", "h2i4"]);
    // Landing on rank 8 it could never move again: it must promote.
    assert_moves(&legal_from(&p, "e6"), &promoting("e6", &["d8", "f8"]));

    assert_eq!(
        check(&p, "b8b9"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Pawn,
            to: sq("b9")
        })
    );
    assert_eq!(
        check(&p, "i7i9"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Lance,
            to: sq("i9")
        })
    );
    assert_eq!(
        check(&p, "e6d8"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Knight,
            to: sq("d8")
        })
    );
    assert_eq!(
        check(&p, "c3c4+"),
        Err(IllegalMove::NotInZone {
            kind: PieceKind::Pawn
        })
    );
    assert_eq!(
        check(&p, "h2g4+"),
        Err(IllegalMove::NotInZone {
            kind: PieceKind::Knight
        })
    );
    assert!(matches!(
        check(&p, "g3g8"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn shogi_silver_may_promote_on_a_move_into_within_or_out_of_the_zone() {
    let p = red(&[("d1", "K"), ("f9", "k"), ("e5", "S"), ("b4", "S")]);
    // From e5 (in the zone) every move may promote, the backward ones out of the zone too.
    assert_moves(
        &legal_from(&p, "e5"),
        &either("e5", &["d6", "e6", "f6", "d4", "f4"]),
    );
    // From b4 only the moves into the zone may.
    let mut silver = either("b4", &["a5", "b5", "c5"]);
    silver.extend(steps("b4", &["a3", "c3"]));
    assert_moves(&legal_from(&p, "b4"), &silver);
    assert_eq!(
        check(&p, "b4a3+"),
        Err(IllegalMove::NotInZone {
            kind: PieceKind::Silver
        })
    );
}

#[test]
fn promoted_shogi_pawn_lance_knight_and_silver_move_as_golds() {
    let p = red(&[
        ("d1", "K"),
        ("f9", "k"),
        ("e5", "+F"),
        ("b3", "+S"),
        ("h7", "+H"),
        ("a5", "+L"),
    ]);
    assert_moves(
        &legal_from(&p, "e5"),
        &steps("e5", &["e6", "d6", "f6", "d5", "f5", "e4"]),
    );
    assert_moves(
        &legal_from(&p, "b3"),
        &steps("b3", &["b4", "a4", "c4", "a3", "c3", "b2"]),
    );
    assert_moves(
        &legal_from(&p, "h7"),
        &steps("h7", &["h8", "g8", "i8", "g7", "i7", "h6"]),
    );
    assert_moves(
        &legal_from(&p, "a5"),
        &steps("a5", &["a6", "b6", "b5", "a4"]),
    );
    assert_eq!(
        check(&p, "e5e6+"),
        Err(IllegalMove::CannotPromote {
            kind: PieceKind::Tokin
        })
    );
    assert!(matches!(
        check(&p, "e5d4"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn shogi_bishop_and_rook_slide_and_may_promote_in_the_zone() {
    let p = red(&[("d1", "K"), ("f9", "k"), ("c3", "D"), ("a4", "T")]);
    let mut bishop = steps("c3", &["b2", "a1", "d2", "e1", "b4", "d4"]);
    bishop.extend(either("c3", &["a5", "e5", "f6", "g7", "h8", "i9"]));
    assert_moves(&legal_from(&p, "c3"), &bishop);
    let mut rook = either("a4", &["a5", "a6", "a7", "a8", "a9"]);
    rook.extend(steps(
        "a4",
        &[
            "a3", "a2", "a1", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "i4",
        ],
    ));
    assert_moves(&legal_from(&p, "a4"), &rook);
    // Neither is forced to promote anywhere.
    assert_eq!(check(&p, "c3i9"), Ok(()));
    assert_eq!(check(&p, "a4a9"), Ok(()));
}

#[test]
fn horse_and_dragon_add_a_king_step_to_the_bishop_and_rook() {
    let p = red(&[("e1", "K"), ("d9", "k"), ("b2", "+D"), ("h5", "+T")]);
    let horse = [
        "c3", "d4", "e5", "f6", "g7", "h8", "i9", "a3", "a1", "c1", "b1", "b3", "a2", "c2",
    ];
    assert_moves(&legal_from(&p, "b2"), &steps("b2", &horse));
    let dragon = [
        "h6", "h7", "h8", "h9", "h4", "h3", "h2", "h1", "g5", "f5", "e5", "d5", "c5", "b5", "a5",
        "i5", "g6", "i6", "g4", "i4",
    ];
    assert_moves(&legal_from(&p, "h5"), &steps("h5", &dragon));
    assert_eq!(
        check(&p, "b2d4+"),
        Err(IllegalMove::CannotPromote {
            kind: PieceKind::Horse
        })
    );
}

#[test]
fn blue_shogi_pieces_move_down_and_promote_from_rank_5_down() {
    let p = blue(&[
        ("f1", "K"),
        ("d9", "k"),
        ("e6", "f"),
        ("a5", "l"),
        ("d3", "h"),
        ("g6", "s"),
        ("b7", "+f"),
    ]);
    assert_moves(&legal_from(&p, "e6"), &either("e6", &["e5"]));
    let mut lance = either("a5", &["a4", "a3", "a2"]);
    lance.extend(promoting("a5", &["a1"]));
    assert_moves(&legal_from(&p, "a5"), &lance);
    assert_moves(&legal_from(&p, "d3"), &promoting("d3", &["c1", "e1"]));
    let mut silver = either("g6", &["f5", "g5", "h5"]);
    silver.extend(steps("g6", &["f7", "h7"]));
    assert_moves(&legal_from(&p, "g6"), &silver);
    assert_moves(
        &legal_from(&p, "b7"),
        &steps("b7", &["b6", "a6", "c6", "a7", "c7", "b8"]),
    );
    assert_eq!(
        check(&p, "a5a1"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Lance,
            to: sq("a1")
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Captures and hands
// ---------------------------------------------------------------------------------------------

#[test]
fn captured_shogi_pieces_go_to_the_capturers_hand_unpromoted() {
    let p = red(&[
        ("d1", "K"),
        ("f9", "k"),
        ("e5", "R"),
        ("e6", "+s"),
        ("a5", "+t"),
        ("i5", "n"),
        ("e3", "c"),
    ]);
    let mut after = p.clone();
    after.play(mv(&p, "e5e6")).unwrap();
    assert_eq!(after.hand(RED, PieceKind::Silver), 1);
    assert_eq!(after.hand(RED, PieceKind::PromotedSilver), 0);
    assert_eq!(fen::write(&after), "5k3/9/9/4R4/+t7n/9/4c4/9/3K5 w S 2");
    let mut after = p.clone();
    after.play(mv(&p, "e5a5")).unwrap();
    assert_eq!(after.hand(RED, PieceKind::Rook), 1);
    assert_eq!(after.hand(RED, PieceKind::Dragon), 0);
    assert_eq!(fen::write(&after).split(' ').nth(2), Some("T"));
}

#[test]
fn captured_western_and_chinese_pieces_leave_the_game() {
    let p = red(&[
        ("d1", "K"),
        ("f9", "k"),
        ("e5", "R"),
        ("e6", "+s"),
        ("a5", "+t"),
        ("i5", "n"),
        ("e3", "c"),
    ]);
    for m in ["e5i5", "e5e3"] {
        let mut after = p.clone();
        after.play(mv(&p, m)).unwrap();
        assert_eq!(fen::write(&after).split(' ').nth(2), Some("-"), "{m}");
        for &k in PieceKind::ALL {
            assert_eq!(after.hand(RED, k), 0, "{m}: {k:?}");
        }
    }
}

#[test]
fn blue_captures_go_to_blues_hand() {
    let p = blue(&[
        ("d1", "K"),
        ("e2", "+D"),
        ("a5", "Z"),
        ("f9", "k"),
        ("e5", "r"),
    ]);
    let mut after = p.clone();
    after.play(mv(&p, "e5e2")).unwrap();
    assert_eq!(after.hand(BLUE, PieceKind::Bishop), 1);
    assert_eq!(after.hand(BLUE, PieceKind::Horse), 0);
    assert_eq!(after.hand(RED, PieceKind::Bishop), 0);
    assert_eq!(fen::write(&after).split(' ').nth(2), Some("d"));
    let mut after = p.clone();
    after.play(mv(&p, "e5a5")).unwrap();
    assert_eq!(fen::write(&after).split(' ').nth(2), Some("-"));
}

#[test]
fn only_shogi_pieces_can_be_dropped() {
    let p = red_holding(&[("f1", "K"), ("d9", "k")], "S");
    assert_eq!(
        check(&p, "N*e4"),
        Err(IllegalMove::NotInHand {
            kind: PieceKind::ChessKnight
        })
    );
    assert_eq!(
        check(&p, "Z*e4"),
        Err(IllegalMove::NotInHand {
            kind: PieceKind::XiangqiPawn
        })
    );
    let mut after = p.clone();
    after.play(mv(&p, "S*e5")).unwrap();
    assert_eq!(kind_at(&after, "e5"), Some((PieceKind::Silver, RED)));
    assert_eq!(after.hand(RED, PieceKind::Silver), 0);
}

// ---------------------------------------------------------------------------------------------
// Drops
// ---------------------------------------------------------------------------------------------

/// The text: "You can, however, drop a Shogi Pawn in the same file as a Western or Chinese
/// Pawn." Only an unpromoted Shogi pawn of the dropper forbids a file.
#[test]
fn shogi_pawn_drop_is_refused_only_on_a_file_with_an_unpromoted_shogi_pawn_of_the_dropper() {
    let p = red_holding(
        &[
            ("f2", "K"),
            ("e3", "F"),
            ("c3", "P"),
            ("d3", "Z"),
            ("g5", "+F"),
            ("h7", "f"),
            ("d8", "k"),
        ],
        "F",
    );
    // Every empty square of ranks 1-8 off the e-file (rank 9 is a dead square). The drop on
    // d7 checks Blue's king, which can take it or step away: no mate, so legal.
    let targets = squares("abcdfghi", 1..=8, &["c3", "d3", "f2", "g5", "h7", "d8"]);
    assert_eq!(targets.len(), 58);
    assert_moves(&legal_drops(&p, "F"), &drops_on("F", &targets));
    assert_eq!(
        check(&p, "F*e5"),
        Err(IllegalMove::TwoPawns {
            kind: PieceKind::Pawn,
            to: sq("e5")
        })
    );
    // A Western pawn on c, a Chinese pawn on d, a tokin on g, Blue's pawn on h: all free.
    for m in ["F*c5", "F*d5", "F*g4", "F*h4"] {
        assert_eq!(check(&p, m), Ok(()), "{m}");
    }
    assert_eq!(
        check(&p, "F*a9"),
        Err(IllegalMove::DeadDrop {
            kind: PieceKind::Pawn,
            to: sq("a9")
        })
    );
}

#[test]
fn shogi_pieces_are_not_dropped_where_they_could_never_move() {
    let p = red_holding(&[("f1", "K"), ("d9", "k")], "TDSHL");
    let empty = |ranks| squares("abcdefghi", ranks, &["f1", "d9"]);
    assert_moves(&legal_drops(&p, "L"), &drops_on("L", &empty(1..=8)));
    assert_moves(&legal_drops(&p, "H"), &drops_on("H", &empty(1..=7)));
    for letter in ["S", "D", "T"] {
        assert_moves(&legal_drops(&p, letter), &drops_on(letter, &empty(1..=9)));
    }
    assert_eq!(
        check(&p, "L*a9"),
        Err(IllegalMove::DeadDrop {
            kind: PieceKind::Lance,
            to: sq("a9")
        })
    );
    assert_eq!(
        check(&p, "H*a8"),
        Err(IllegalMove::DeadDrop {
            kind: PieceKind::Knight,
            to: sq("a8")
        })
    );
    // Blue's dead ranks are at the bottom.
    let p = blue_holding(&[("f1", "K"), ("d9", "k")], "lhf");
    assert_moves(&legal_drops(&p, "L"), &drops_on("L", &empty(2..=9)));
    assert_moves(&legal_drops(&p, "H"), &drops_on("H", &empty(3..=9)));
    assert_eq!(
        check(&p, "F*a1"),
        Err(IllegalMove::DeadDrop {
            kind: PieceKind::Pawn,
            to: sq("a1")
        })
    );
    assert_eq!(
        check(&p, "H*a2"),
        Err(IllegalMove::DeadDrop {
            kind: PieceKind::Knight,
            to: sq("a2")
        })
    );
}

#[test]
fn a_drop_may_block_a_check() {
    // Blue's Western rook on d8 checks the king on d1; c1 is outside the palace, d2 still on
    // the file, e1 free. Any silver drop on d2-d7 blocks.
    let p = red_holding(&[("d1", "K"), ("d8", "r"), ("f9", "k")], "S");
    assert!(p.in_check());
    assert_moves(
        &all_legal(&p),
        &["d1e1", "S*d2", "S*d3", "S*d4", "S*d5", "S*d6", "S*d7"],
    );
    assert_eq!(check(&p, "S*e5"), Err(IllegalMove::InCheck));
}

/// Blue's king on d9: c9 is outside the palace, e9 holds its lance, e8 its guard (which steps
/// only diagonally), and the Western knight on e6 guards d8.
fn drop_mate_position(hands: &str) -> Position {
    red_holding(
        &[
            ("f1", "K"),
            ("e6", "N"),
            ("d9", "k"),
            ("e8", "a"),
            ("e9", "l"),
        ],
        hands,
    )
}

#[test]
fn shogi_pawn_dropped_in_front_of_the_king_may_not_checkmate() {
    let p = drop_mate_position("TF");
    assert_eq!(
        check(&p, "F*d8"),
        Err(IllegalMove::PawnDropMate {
            kind: PieceKind::Pawn
        })
    );
    assert!(!legal_drops(&p, "F").contains(&"F*d8".to_string()));
    // Other drops may mate: the Shogi rook on the same square wins.
    assert_eq!(check(&p, "T*d8"), Ok(()));
    let mut game = Game::new(p);
    play(&mut game, "T*d8");
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: RED,
            reason: Reason::Checkmate
        })
    );
}

#[test]
fn blue_shogi_pawn_dropped_in_front_of_reds_king_may_not_checkmate() {
    // Red's king on d1: c1 is outside the palace, e1 holds its elephant (which cannot take on
    // d2), and Blue's knight on e4 guards d2.
    let p = blue_holding(&[("d1", "K"), ("e1", "E"), ("e4", "n"), ("f9", "k")], "f");
    assert_eq!(
        check(&p, "F*d2"),
        Err(IllegalMove::PawnDropMate {
            kind: PieceKind::Pawn
        })
    );
    assert!(!legal_drops(&p, "F").contains(&"F*d2".to_string()));
}

#[test]
fn shogi_pawn_drop_check_that_is_not_mate_is_legal() {
    // Without the knight the king takes the pawn.
    let p = red_holding(&[("f1", "K"), ("d9", "k"), ("e8", "a"), ("e9", "l")], "F");
    assert_eq!(check(&p, "F*d8"), Ok(()));
    let mut after = p.clone();
    after.play(mv(&p, "F*d8")).unwrap();
    assert!(after.in_check());
    assert_moves(&all_legal(&after), &["d9d8"]);
}

/// The engine's documented reading (module doc of `src/engine/variants/shanghai.rs`): only a
/// Shogi pawn dropped directly in front of the king that mates is refused; one that mates by
/// becoming a cannon's screen is legal.
#[test]
fn shogi_pawn_drop_that_mates_only_as_a_cannon_screen_is_legal() {
    // Red cannon d5; the pawn on d7 screens it onto Blue's king on d9. d8 is covered by the
    // pawn and the cannon; e9 (rook) and e8 (lance) are Blue's own; c9 is outside the palace;
    // no Blue piece can take the pawn, take the cannon or put a second screen on d6 or d8.
    let p = red_holding(
        &[
            ("f1", "K"),
            ("d5", "C"),
            ("d9", "k"),
            ("e8", "l"),
            ("e9", "r"),
        ],
        "F",
    );
    assert!(!p.in_check());
    assert_eq!(check(&p, "F*d7"), Ok(()));
    let mut game = Game::new(p);
    play(&mut game, "F*d7");
    assert!(game.position().in_check());
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: RED,
            reason: Reason::Checkmate
        })
    );
}

// ---------------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------------

#[test]
fn checkmate_wins() {
    // Queen to d8, guarded by the knight on e6: e9 and d8 are covered, c9 is outside the
    // palace.
    let p = red(&[("f1", "K"), ("e6", "N"), ("h8", "Q"), ("d9", "k")]);
    let mut game = Game::new(p);
    assert_eq!(game.outcome(), None);
    play(&mut game, "h8d8");
    assert!(game.position().in_check());
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: RED,
            reason: Reason::Checkmate
        })
    );
    assert_eq!(
        game.outcome().unwrap().describe(variant()),
        "win red checkmate"
    );
}

#[test]
fn the_flying_general_helps_to_mate() {
    // Rook to a9 checks along rank 9; d8 is the knight's, e9 would face Red's king on e1.
    let p = red(&[("e1", "K"), ("a1", "R"), ("b7", "N"), ("d9", "k")]);
    let mut game = Game::new(p);
    play(&mut game, "a1a9");
    assert!(game.position().in_check());
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: RED,
            reason: Reason::Checkmate
        })
    );
}

#[test]
fn a_side_with_no_legal_move_loses_by_stalemate() {
    // After Ra8 Blue's king on d9 is not in check, but d8 is the rook's and e9 faces Red's
    // king.
    let p = red(&[("e1", "K"), ("a7", "R"), ("d9", "k")]);
    let mut game = Game::new(p);
    play(&mut game, "a7a8");
    assert!(!game.position().in_check());
    assert!(game.position().legal_moves().is_empty());
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: RED,
            reason: Reason::Stalemate
        })
    );
    assert_eq!(
        game.outcome().unwrap().describe(variant()),
        "win red stalemate"
    );
}

#[test]
fn a_move_making_the_same_position_a_third_time_is_refused() {
    let p = red(&[("d1", "K"), ("a1", "R"), ("f9", "k"), ("i9", "r")]);
    let mut game = Game::new(p);
    // The start counts as the first occurrence; i8i9 would make it the third.
    play(&mut game, "a1a2 i9i8 a2a1 i8i9 a1a2 i9i8 a2a1");
    let third = mv(game.position(), "i8i9");
    assert_eq!(game.position().check_move(third), Ok(()));
    assert_eq!(game.check_move(third), Err(IllegalMove::ThirdRepetition));
    assert_eq!(game.play(third), Err(IllegalMove::ThirdRepetition));
    let game_moves = codes(&game.legal_moves());
    assert!(!game_moves.contains(&"i8i9".to_string()));
    assert!(game_moves.contains(&"i8i7".to_string()));
    assert_eq!(
        game_moves.len() + 1,
        game.position().legal_moves().len(),
        "only the repeating move is taken away"
    );
    assert_eq!(game.outcome(), None);
    // Another move is fine and the game goes on.
    play(&mut game, "i8i7");
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_move_reaching_a_position_a_third_time_by_another_road_is_refused() {
    // Red's rook reaches (Ra2, ri9, Blue to move) from a1, then from a3, then from a1 again.
    let p = red(&[("d1", "K"), ("a1", "R"), ("f9", "k"), ("i9", "r")]);
    let mut game = Game::new(p);
    play(&mut game, "a1a2 i9i8 a2a3 i8i9 a3a2 i9i8 a2a1 i8i9");
    assert_eq!(game.outcome(), None);
    let third = mv(game.position(), "a1a2");
    assert_eq!(game.play(third), Err(IllegalMove::ThirdRepetition));
    assert!(!codes(&game.legal_moves()).contains(&"a1a2".to_string()));
    assert!(IllegalMove::ThirdRepetition
        .message(variant())
        .contains("third time"));
}

#[test]
fn positions_differing_in_hands_or_side_to_move_are_not_the_same() {
    let board = [("d1", "K"), ("a1", "R"), ("f9", "k"), ("i9", "r")];
    let plain = red(&board);
    assert_ne!(plain.hash(), red_holding(&board, "F").hash());
    assert_ne!(plain.hash(), red_holding(&board, "f").hash());
    assert_ne!(plain.hash(), blue(&board).hash());
    assert_eq!(plain.hash(), red(&board).hash());
}

#[test]
fn a_second_occurrence_is_allowed() {
    let p = red(&[("d1", "K"), ("a1", "R"), ("f9", "k"), ("i9", "r")]);
    let mut game = Game::new(p.clone());
    play(&mut game, "a1a2 i9i8 a2a1 i8i9");
    // The same position again (only the move number differs).
    assert_eq!(game.position().hash(), p.hash());
    assert_eq!(game.outcome(), None);
}

#[test]
fn a_side_whose_only_moves_would_repeat_a_third_time_is_stalemated_and_loses() {
    // Blue's king can only shuttle d9-d8: e9/e8 face Red's king on e1/e2, d7 is the knight's,
    // c8/c9 are outside the palace. Red shuttles its king along the e-file.
    let p = red(&[("e1", "K"), ("b6", "N"), ("d9", "k")]);
    let mut game = Game::new(p);
    play(&mut game, "e1e2 d9d8 e2e1 d8d9 e1e2 d9d8 e2e1");
    assert!(!game.position().in_check());
    assert_moves(&all_legal(game.position()), &["d8d9"]);
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: RED,
            reason: Reason::Stalemate
        })
    );
}

#[test]
fn a_side_in_check_whose_only_moves_would_repeat_a_third_time_is_checkmated() {
    // The rook checks from a9 and a8 in turn; Blue's only escapes are d8 and d9 in turn.
    let p = red(&[("e1", "K"), ("b6", "N"), ("a8", "R"), ("d9", "k")]);
    let mut game = Game::new(p);
    play(&mut game, "a8a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8");
    assert!(game.position().in_check());
    assert_moves(&all_legal(game.position()), &["d8d9"]);
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win {
            winner: RED,
            reason: Reason::Checkmate
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Notation
// ---------------------------------------------------------------------------------------------

#[track_caller]
fn written(p: &Position, text: &str) -> String {
    let m = mv(p, text);
    let h = human(p, m);
    assert_eq!(h, algebraic::write(p, m), "human() is algebraic here");
    h
}

#[track_caller]
fn reads(p: &Position, input: &str) -> String {
    match parse_move(p, input) {
        Ok(m) => code_of(m),
        Err(e) => panic!("{input:?} not read: {e}"),
    }
}

#[test]
fn western_and_shogi_knights_are_told_apart_by_n_and_h() {
    // Both Western knights (e2, h3) and the Shogi knight (g2) reach f4.
    let p = red(&[
        ("d1", "K"),
        ("f9", "k"),
        ("e2", "N"),
        ("h3", "N"),
        ("g2", "H"),
    ]);
    assert_eq!(written(&p, "e2f4"), "Ne2-f4");
    assert_eq!(written(&p, "h3f4"), "Nh3-f4");
    assert_eq!(written(&p, "g2f4"), "Hf4");
    assert_eq!(written(&p, "h3g5"), "Ng5");
    assert_eq!(written(&p, "g2h4"), "Hh4");
    assert_eq!(reads(&p, "Ne2-f4"), "e2f4");
    assert_eq!(reads(&p, "Nh3-f4"), "h3f4");
    assert_eq!(reads(&p, "Hf4"), "g2f4");
    assert_eq!(reads(&p, "Ng5"), "h3g5");
    assert_eq!(reads(&p, "g2f4"), "g2f4");
    match parse_move(&p, "Nf4") {
        Err(MoveInputError::Ambiguous { options, .. }) => {
            let mut options = options.clone();
            options.sort();
            assert_eq!(options, ["Ne2-f4", "Nh3-f4"]);
        }
        other => panic!("Nf4 should be ambiguous between the Western knights: {other:?}"),
    }
    // Captures: the same with `x`.
    let p = red(&[
        ("d1", "K"),
        ("f9", "k"),
        ("e2", "N"),
        ("h3", "N"),
        ("g2", "H"),
        ("f4", "z"),
    ]);
    assert_eq!(written(&p, "e2f4"), "Ne2xf4");
    assert_eq!(written(&p, "h3f4"), "Nh3xf4");
    assert_eq!(written(&p, "g2f4"), "Hxf4");
    assert_eq!(reads(&p, "Nh3xf4"), "h3f4");
    assert_eq!(reads(&p, "Hxf4"), "g2f4");
}

#[test]
fn western_and_shogi_bishops_and_rooks_are_told_apart_by_b_d_and_r_t() {
    let p = red(&[
        ("d1", "K"),
        ("f9", "k"),
        ("b1", "B"),
        ("h1", "D"),
        ("a4", "R"),
        ("i4", "T"),
    ]);
    assert_eq!(written(&p, "b1e4"), "Be4");
    assert_eq!(written(&p, "h1e4"), "De4");
    assert_eq!(written(&p, "a4e4"), "Re4");
    assert_eq!(written(&p, "i4e4"), "Te4");
    assert_eq!(reads(&p, "Be4"), "b1e4");
    assert_eq!(reads(&p, "De4"), "h1e4");
    assert_eq!(reads(&p, "Re4"), "a4e4");
    assert_eq!(reads(&p, "Te4"), "i4e4");
}

#[test]
fn western_chinese_and_shogi_pawns_are_told_apart_by_no_letter_z_and_f() {
    let p = red(&[
        ("d1", "K"),
        ("f9", "k"),
        ("c3", "P"),
        ("d3", "Z"),
        ("e3", "F"),
    ]);
    assert_eq!(written(&p, "c3c4"), "c4");
    assert_eq!(written(&p, "d3d4"), "Zd4");
    assert_eq!(written(&p, "e3e4"), "Fe4");
    assert_eq!(reads(&p, "c4"), "c3c4");
    assert_eq!(reads(&p, "Zd4"), "d3d4");
    assert_eq!(reads(&p, "Fe4"), "e3e4");
    // A bare square is a Western pawn's move only.
    for input in ["d4", "e4"] {
        assert!(
            matches!(parse_move(&p, input), Err(MoveInputError::Illegal { .. })),
            "{input}: {:?}",
            parse_move(&p, input)
        );
    }
    // A Western pawn's capture names its file.
    let p = red(&[("f1", "K"), ("d9", "k"), ("d4", "P"), ("e5", "z")]);
    assert_eq!(written(&p, "d4e5"), "dxe5");
    assert_eq!(reads(&p, "dxe5"), "d4e5");
}

#[test]
fn cannon_moves_and_captures_are_written_c_and_cx() {
    let p = red(&[
        ("f2", "K"),
        ("d8", "k"),
        ("e3", "C"),
        ("e5", "z"),
        ("e7", "a"),
    ]);
    assert_eq!(written(&p, "e3e7"), "Cxe7");
    assert_eq!(written(&p, "e3e4"), "Ce4");
    assert_eq!(reads(&p, "Cxe7"), "e3e7");
    assert_eq!(reads(&p, "Ce3xe7"), "e3e7");
    assert_eq!(reads(&p, "Ce4"), "e3e4");
}

#[test]
fn drops_are_written_letter_star_square() {
    let p = red_holding(&[("f1", "K"), ("d9", "k")], "SF");
    assert_eq!(
        algebraic::write(
            &p,
            Move::Drop {
                kind: PieceKind::Silver,
                to: sq("e5")
            }
        ),
        "S*e5"
    );
    assert_eq!(written(&p, "F*e5"), "F*e5");
    assert_eq!(
        parse_move(&p, "S*e5"),
        Ok(Move::Drop {
            kind: PieceKind::Silver,
            to: sq("e5")
        })
    );
    assert_eq!(reads(&p, "F*e5"), "F*e5");
}

#[test]
fn western_pawn_promotion_is_written_with_equals_and_the_new_piece() {
    let p = red(&[("f1", "K"), ("e8", "k"), ("c8", "P"), ("b9", "n")]);
    assert_eq!(written(&p, "c8c9q"), "c9=Q");
    assert_eq!(written(&p, "c8c9n"), "c9=N");
    assert_eq!(written(&p, "c8b9n"), "cxb9=N");
    assert_eq!(written(&p, "c8b9r"), "cxb9=R");
    assert_eq!(reads(&p, "c9=Q"), "c8c9q");
    assert_eq!(reads(&p, "c9Q"), "c8c9q");
    assert_eq!(reads(&p, "c9=B"), "c8c9b");
    assert_eq!(reads(&p, "cxb9=N"), "c8b9n");
    assert_eq!(reads(&p, "c8c9r"), "c8c9r");
    match parse_move(&p, "c9") {
        Err(MoveInputError::PieceChoice { options, .. }) => {
            let mut options = options.clone();
            options.sort();
            assert_eq!(options, ["c9=B", "c9=N", "c9=Q", "c9=R"]);
        }
        other => panic!("c9 should ask which piece: {other:?}"),
    }
    // Only Western pieces: the Shogi rook is no choice.
    assert!(parse_move(&p, "c9=T").is_err());
}

#[test]
fn shogi_promotion_is_written_plus_or_equals() {
    let p = red(&[
        ("d1", "K"),
        ("f9", "k"),
        ("h4", "F"),
        ("b8", "F"),
        ("a5", "+F"),
    ]);
    assert_eq!(written(&p, "h4h5+"), "Fh5+");
    assert_eq!(written(&p, "h4h5"), "Fh5=");
    assert_eq!(written(&p, "b8b9+"), "Fb9+");
    assert_eq!(written(&p, "a5a6"), "+Fa6");
    assert_eq!(reads(&p, "Fh5+"), "h4h5+");
    assert_eq!(reads(&p, "Fh5="), "h4h5");
    // Only the promotion is legal on b9.
    assert_eq!(reads(&p, "Fb9"), "b8b9+");
    assert_eq!(reads(&p, "+Fa6"), "a5a6");
    assert!(matches!(
        parse_move(&p, "Fh5"),
        Err(MoveInputError::PromotionChoice { .. })
    ));
}

#[test]
fn chinese_king_guard_and_elephant_are_written_k_a_e() {
    let p = red(&[("e1", "K"), ("d1", "A"), ("c1", "E"), ("d9", "k")]);
    assert_eq!(written(&p, "e1e2"), "Ke2");
    assert_eq!(written(&p, "d1e2"), "Ae2");
    assert_eq!(written(&p, "c1e3"), "Ee3");
    assert_eq!(reads(&p, "Ee3"), "c1e3");
    assert_eq!(reads(&p, "Ae2"), "d1e2");
}

/// A board move of a Shogi piece, written as the engine writes it, must read back as that move
/// when a piece of the same kind is also in hand and could be dropped on the same square: in
/// this notation a drop is always written with `*`, so `Sb4` and `Sh5=` are board moves
/// (design.md: human notation is the output and "the parser accepts every form").
#[test]
fn a_written_shogi_board_move_reads_back_when_the_same_piece_is_in_hand() {
    let p = red_holding(&[("f1", "K"), ("d9", "k"), ("b3", "S"), ("h4", "S")], "S");
    let mut wrong = Vec::new();
    for c in ["b3b4", "h4h5", "h4h5+"] {
        let m = mv(&p, c);
        let h = human(&p, m);
        let back = parse_move(&p, &h);
        if back != Ok(m) {
            wrong.push(format!("{c} written {h} reads as {back:?}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}
