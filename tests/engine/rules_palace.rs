//! Behaviour tests for Palace Shogi (`seeds/palace-shogi.txt` and the Palace Shogi section of
//! `rules.md`, which wins where the two differ).
//!
//! Tegami is the only implementation of this game, so these tests are what proves its rules.
//! Each test is named after the rule it checks and is built on a small position whose legal
//! moves were worked out by hand from the rules (never copied from the engine's output).
//!
//! Letters (upper case Black): footsoldier `P`, pawn `+P`, lance `L`, cannon `+L`, horse `N`,
//! knight `+N`, bishop `B`, elephant `+B`, rook `R`, dragon `+R`, silver `S`, gold `+S`, queen
//! `Q`, lion `+Q`, king `K`. Squares: file 1..9 from the right, rank a..i from the top; Black
//! moves up the board (toward rank a). Black's palace is files 4-6 of ranks g-i, White's files
//! 4-6 of ranks a-c; the corridors are their light squares (4g 6g 5h 4i 6i and 4a 6a 5b 4c 6c).
//!
//! The helpers live in this file on purpose (the shared ones may change under other work).

use tegami::engine::notation::{code, fen, input};
use tegami::engine::{
    perft, Color, Game, IllegalMove, Move, Outcome, PieceKind, Position, Reason, Square, Variant,
    VariantId,
};

const V: VariantId = VariantId::Palace;

const START: &str =
    "lns+sk+ssnl/1r2q2b1/+p+p+p+p+p+p+p+p+p/9/9/9/+P+P+P+P+P+P+P+P+P/1B2Q2R1/LNS+SK+SSNL b - 1 9i1i9a1a -";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn var() -> &'static Variant {
    Variant::get(V)
}

/// The board field of a position string from `(square, letter)` pairs, written without the
/// engine so that a mistake in the engine's square naming cannot hide.
fn board_field(pieces: &[(&str, &str)]) -> String {
    let mut grid: Vec<Vec<Option<String>>> = vec![vec![None; 9]; 9];
    for &(square, letter) in pieces {
        let b = square.as_bytes();
        assert_eq!(b.len(), 2, "square name {square}");
        let file = b[0] - b'0';
        let rank = b[1] - b'a';
        assert!(
            (1..=9).contains(&file) && rank < 9,
            "{square} is off the board"
        );
        let cell = &mut grid[rank as usize][(9 - file) as usize];
        assert!(cell.is_none(), "two pieces on {square}");
        *cell = Some(letter.to_string());
    }
    let rows: Vec<String> = grid
        .into_iter()
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
                        s.push_str(&l);
                    }
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            s
        })
        .collect();
    rows.join("/")
}

/// A full Palace Shogi position string (move number 1).
fn sfen(pieces: &[(&str, &str)], side: &str, hands: &str, rights: &str, ep: &str) -> String {
    format!("{} {side} {hands} 1 {rights} {ep}", board_field(pieces))
}

#[track_caller]
fn parse(text: &str) -> Position {
    fen::parse(var(), text).unwrap_or_else(|e| panic!("position {text:?} refused: {e}"))
}

/// Black to move, empty hands, no castling rights, no en-passant square.
#[track_caller]
fn black(pieces: &[(&str, &str)]) -> Position {
    parse(&sfen(pieces, "b", "-", "-", "-"))
}

/// White to move, empty hands, no castling rights, no en-passant square.
#[track_caller]
fn white(pieces: &[(&str, &str)]) -> Position {
    parse(&sfen(pieces, "w", "-", "-", "-"))
}

#[track_caller]
fn black_hand(pieces: &[(&str, &str)], hands: &str) -> Position {
    parse(&sfen(pieces, "b", hands, "-", "-"))
}

#[track_caller]
fn white_hand(pieces: &[(&str, &str)], hands: &str) -> Position {
    parse(&sfen(pieces, "w", hands, "-", "-"))
}

#[track_caller]
fn sq(name: &str) -> Square {
    var()
        .parse_square(name)
        .unwrap_or_else(|| panic!("{name} is not a square"))
}

fn codes(moves: &[Move]) -> Vec<String> {
    let mut out: Vec<String> = moves.iter().map(|&m| code::write(var(), m)).collect();
    out.sort();
    out
}

fn legal(p: &Position) -> Vec<String> {
    codes(&p.legal_moves())
}

/// The legal moves starting from a square (board moves, lion moves, castling, en passant).
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
    legal(p)
        .into_iter()
        .filter(|c| c.starts_with(&prefix))
        .collect()
}

/// Asserts that `actual` is exactly the expected set, with no move listed twice.
#[track_caller]
fn assert_moves(actual: &[String], expected: &[&str]) {
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    let mut dedup = want.clone();
    dedup.dedup();
    assert_eq!(dedup.len(), want.len(), "the expected list repeats a move");
    let mut got = actual.to_vec();
    got.sort();
    let missing: Vec<&String> = want.iter().filter(|c| !got.contains(c)).collect();
    let extra: Vec<&String> = got.iter().filter(|c| !want.contains(c)).collect();
    let mut unique = got.clone();
    unique.dedup();
    assert!(
        missing.is_empty() && extra.is_empty() && unique.len() == got.len(),
        "move sets differ\n  missing: {missing:?}\n  extra:   {extra:?}\n  got:     {got:?}"
    );
}

/// A sorted list without repeats.
fn distinct(mut list: Vec<String>) -> Vec<String> {
    list.sort();
    list.dedup();
    list
}

#[track_caller]
fn assert_owned(actual: &[String], expected: &[String]) {
    let refs: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert_moves(actual, &refs);
}

#[track_caller]
fn mv(p: &Position, text: &str) -> Move {
    code::parse(p, text).unwrap_or_else(|| panic!("{text:?} is not a move code"))
}

fn check(p: &Position, text: &str) -> Result<(), IllegalMove> {
    p.check_move(mv(p, text))
}

#[track_caller]
fn play(game: &mut Game, moves: &str) {
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = mv(game.position(), text);
        if let Err(e) = game.play(m) {
            panic!("move {i} ({text}) refused: {e:?}");
        }
    }
}

#[track_caller]
fn game(p: Position, moves: &str) -> Game {
    let mut g = Game::new(p);
    play(&mut g, moves);
    g
}

fn at(p: &Position, s: &str) -> Option<(PieceKind, Color)> {
    p.piece_at(sq(s)).map(|x| (x.kind, x.color))
}

/// Every kind a hand can hold, in the game's order.
const HAND_KINDS: [PieceKind; 6] = [
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Silver,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::Footsoldier,
];

/// The non-empty part of a hand.
fn hand(p: &Position, c: Color) -> Vec<(PieceKind, u8)> {
    HAND_KINDS
        .iter()
        .map(|&k| (k, p.hand(c, k)))
        .filter(|&(_, n)| n > 0)
        .collect()
}

/// The fields of a position string.
fn fields(p: &Position) -> Vec<String> {
    fen::write(p)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Every square name, `9a`..`1i`.
fn all_squares() -> Vec<String> {
    let mut out = Vec::new();
    for r in 'a'..='i' {
        for f in (1..=9).rev() {
            out.push(format!("{f}{r}"));
        }
    }
    out
}

/// The rank of a square counted from `c`'s side (1 = nearest, 9 = farthest).
fn nearness(c: Color, square: &str) -> u8 {
    let r = square.as_bytes()[1] - b'a'; // 0 = rank a
    match c {
        Color::Black => 9 - r,
        Color::White => r + 1,
    }
}

fn file_of(square: &str) -> u8 {
    square.as_bytes()[0] - b'0'
}

/// Whether a square is in `c`'s own palace.
fn in_palace(c: Color, square: &str) -> bool {
    (4..=6).contains(&file_of(square)) && nearness(c, square) <= 3
}

/// Drop codes of `letter` on every empty square (not in `occupied`) that `keep` accepts.
fn drops_where(letter: &str, occupied: &[&str], keep: impl Fn(&str) -> bool) -> Vec<String> {
    all_squares()
        .into_iter()
        .filter(|s| !occupied.contains(&s.as_str()) && keep(s))
        .map(|s| format!("{letter}*{s}"))
        .collect()
}

/// The diagonal neighbours of a square that are on the board.
fn diagonal_neighbours(square: &str) -> Vec<String> {
    let f = file_of(square) as i32;
    let r = (square.as_bytes()[1] - b'a') as i32;
    let mut out = Vec::new();
    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        let (nf, nr) = (f + df, r + dr);
        if (1..=9).contains(&nf) && (0..9).contains(&nr) {
            out.push(format!("{nf}{}", (b'a' + nr as u8) as char));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Setup and board geometry
// ---------------------------------------------------------------------------------------------

#[test]
fn start_position_is_the_rules_md_setup() {
    let start = Position::start(V);
    assert_eq!(fen::write(&start), START);
    use PieceKind::*;
    let black_back = [
        ("9i", Lance),
        ("8i", Knight),
        ("7i", Silver),
        ("6i", PromotedSilver),
        ("5i", King),
        ("4i", PromotedSilver),
        ("3i", Silver),
        ("2i", Knight),
        ("1i", Lance),
        ("8h", Bishop),
        ("5h", Queen),
        ("2h", Rook),
    ];
    for (s, k) in black_back {
        assert_eq!(at(&start, s), Some((k, Color::Black)), "{s}");
    }
    // White mirrors Black through the centre.
    let white_back = [
        ("1a", Lance),
        ("2a", Knight),
        ("3a", Silver),
        ("4a", PromotedSilver),
        ("5a", King),
        ("6a", PromotedSilver),
        ("7a", Silver),
        ("8a", Knight),
        ("9a", Lance),
        ("2b", Bishop),
        ("5b", Queen),
        ("8b", Rook),
    ];
    for (s, k) in white_back {
        assert_eq!(at(&start, s), Some((k, Color::White)), "{s}");
    }
    for f in 1..=9 {
        assert_eq!(
            at(&start, &format!("{f}g")),
            Some((PalacePawn, Color::Black))
        );
        assert_eq!(
            at(&start, &format!("{f}c")),
            Some((PalacePawn, Color::White))
        );
    }
    assert_eq!(start.pieces().count(), 42);
    assert_eq!(start.castling_rights().count_ones(), 4);
    assert_eq!(start.en_passant(), None);
}

#[test]
fn start_position_moves_counted_by_hand() {
    // 9 pawns x (single + double step) = 18; rook 3h 4h 1h = 3; lances 9h 1h = 2; silvers
    // 7h 6h and 3h 4h = 4; golds 6h 7h and 4h 3h = 4; king 4h 6h = 2. Queen (diagonal steps
    // only, all four squares taken), bishop and horses are boxed in: 33.
    let start = Position::start(V);
    assert_eq!(start.legal_moves().len(), 33);
    assert_moves(&legal_from(&start, "5h"), &[]);
    assert_moves(&legal_from(&start, "5i"), &["5i4h", "5i6h"]);
    assert_moves(&legal_from(&start, "2h"), &["2h3h", "2h4h", "2h1h"]);
    assert_moves(&legal_from(&start, "5g"), &["5g5f", "5g5e"]);
}

#[test]
fn start_position_perft_matches_the_independent_figures() {
    let mut start = Position::start(V);
    assert_eq!(perft(&mut start, 1), 33);
    assert_eq!(perft(&mut start, 2), 1_080);
    assert_eq!(perft(&mut start, 3), 35_281);
    assert_eq!(Game::new(Position::start(V)).perft(3), 35_281);
}

#[test]
fn own_palace_is_files_4_to_6_of_the_three_nearest_ranks() {
    // A Black queen on every square: inside her own palace she only steps diagonally, anywhere
    // else (White's palace included) she also moves orthogonally. White's king hides behind
    // its silvers so that no queen square gives check.
    let fixed = [
        ("9a", "k"),
        ("8a", "s"),
        ("9b", "s"),
        ("8b", "s"),
        ("1i", "K"),
    ];
    for name in all_squares() {
        if fixed.iter().any(|(s, _)| *s == name) {
            continue;
        }
        let mut pieces = fixed.to_vec();
        pieces.push((name.as_str(), "Q"));
        let p = black(&pieces);
        let got = legal_from(&p, &name);
        if in_palace(Color::Black, &name) {
            let expected: Vec<String> = diagonal_neighbours(&name)
                .into_iter()
                .map(|to| format!("{name}{to}"))
                .collect();
            assert_owned(&got, &expected);
        } else {
            let diagonal: Vec<String> = diagonal_neighbours(&name);
            assert!(
                got.iter()
                    .any(|c| !diagonal.iter().any(|d| c[2..].starts_with(d.as_str()))),
                "a queen on {name} (outside her palace) moves more than one diagonal step: {got:?}"
            );
        }
    }
}

#[test]
fn corridors_are_the_light_squares_of_the_enemy_palace() {
    // A Black dragon alone in White's palace: it slides corner to opposite corner along a
    // corridor line only from the four corners (4a 6a 4c 6c); from the centre 5b its diagonal
    // steps already reach every corridor square; from the dark squares 5a 4b 6b 5c it has no
    // diagonal move of two squares.
    let opposite = [("4a", "6c"), ("6c", "4a"), ("6a", "4c"), ("4c", "6a")];
    for f in 4..=6 {
        for r in ['a', 'b', 'c'] {
            let from = format!("{f}{r}");
            let p = black(&[(from.as_str(), "+R"), ("9i", "K"), ("1e", "k")]);
            let far_diagonal: Vec<String> = legal_from(&p, &from)
                .into_iter()
                .filter(|c| {
                    let (tf, tr) = (file_of(&c[2..]), c.as_bytes()[3]);
                    (tf as i32 - f).abs() == 2 && (tr as i32 - r as i32).abs() == 2
                })
                .collect();
            let expected: Vec<String> = opposite
                .iter()
                .filter(|(a, _)| *a == from)
                .map(|(_, b)| format!("{from}{b}"))
                .collect();
            assert_owned(&far_diagonal, &expected);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Footsoldier
// ---------------------------------------------------------------------------------------------

#[test]
fn footsoldier_steps_forward_and_sideways_only_on_its_four_farthest_ranks() {
    // 8e is Black's 5th rank: forward only. 3d is the 6th: forward or sideways, capturing as it
    // moves (the silver on 2d). 7a is the last rank: only sideways. 5h is a corridor of
    // Black's own palace: no diagonal step there.
    let p = black(&[
        ("8e", "P"),
        ("3d", "P"),
        ("7a", "P"),
        ("5h", "P"),
        ("9i", "K"),
        ("2d", "s"),
        ("1a", "k"),
    ]);
    assert_moves(&legal_from(&p, "8e"), &["8e8d"]);
    assert_moves(&legal_from(&p, "3d"), &["3d3c", "3d2d", "3d4d"]);
    assert_moves(&legal_from(&p, "7a"), &["7a6a", "7a8a"]);
    assert_moves(&legal_from(&p, "5h"), &["5h5g"]);
    assert!(matches!(
        check(&p, "8e7e"),
        Err(IllegalMove::CannotReach { .. })
    ));
    assert!(matches!(
        check(&p, "8e8f"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn white_footsoldier_moves_down_the_board() {
    // White's 5th rank is e, its 6th is f.
    let p = white(&[("5e", "p"), ("6f", "p"), ("9i", "K"), ("1a", "k")]);
    assert_moves(&legal_from(&p, "5e"), &["5e5f"]);
    assert_moves(&legal_from(&p, "6f"), &["6f6g", "6f5f", "6f7f"]);
}

#[test]
fn footsoldier_steps_diagonally_forward_between_corridors_of_the_enemy_palace() {
    // A Black footsoldier on each square of White's palace (all on its far ranks, so it also
    // steps sideways).
    let cases: [(&str, &[&str]); 9] = [
        ("6a", &["6a7a", "6a5a"]),
        ("5a", &["5a6a", "5a4a"]),
        ("4a", &["4a5a", "4a3a"]),
        ("6b", &["6b6a", "6b7b", "6b5b"]),
        ("5b", &["5b5a", "5b6b", "5b4b", "5b6a", "5b4a"]),
        ("4b", &["4b4a", "4b5b", "4b3b"]),
        ("6c", &["6c6b", "6c7c", "6c5c", "6c5b"]),
        ("5c", &["5c5b", "5c6c", "5c4c"]),
        ("4c", &["4c4b", "4c5c", "4c3c", "4c5b"]),
    ];
    for (from, expected) in cases {
        let p = black(&[(from, "P"), ("9i", "K"), ("1a", "k")]);
        assert_moves(&legal_from(&p, from), expected);
    }
}

#[test]
fn footsoldier_corridor_step_captures_like_it_moves() {
    let p = black(&[
        ("5b", "P"),
        ("4a", "+s"),
        ("6a", "S"),
        ("9i", "K"),
        ("1e", "k"),
    ]);
    assert_moves(&legal_from(&p, "5b"), &["5b5a", "5b6b", "5b4b", "5b4a"]);
}

#[test]
fn white_footsoldier_uses_the_corridors_of_black_palace() {
    let p = white(&[("5h", "p"), ("9a", "K"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "5h"),
        &["5h5i", "5h4h", "5h6h", "5h4i", "5h6i"],
    );
}

#[test]
fn footsoldier_corridor_step_gives_check() {
    let p = white(&[("4a", "k"), ("5b", "P"), ("9i", "K")]);
    assert!(p.in_check());
    let p = white(&[("4a", "k"), ("5c", "P"), ("9i", "K")]);
    assert!(!p.in_check());
}

#[test]
fn footsoldier_never_promotes() {
    let p = black(&[("3d", "P"), ("9i", "K"), ("1a", "k")]);
    assert_eq!(
        check(&p, "3d3c+"),
        Err(IllegalMove::CannotPromote {
            kind: PieceKind::Footsoldier
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Pawn
// ---------------------------------------------------------------------------------------------

#[test]
fn pawn_steps_forward_double_steps_from_its_start_rank_and_captures_diagonally() {
    // 7g: free, single or double step. 5g: an enemy two squares ahead stops only the double
    // step. 2g: an enemy directly ahead blocks it (no forward capture); it captures 1f
    // diagonally. 3f: off its start rank, one step only.
    let p = black(&[
        ("7g", "+P"),
        ("5g", "+P"),
        ("2g", "+P"),
        ("3f", "+P"),
        ("9i", "K"),
        ("5e", "+s"),
        ("2f", "s"),
        ("1f", "+s"),
        ("1a", "k"),
    ]);
    assert_moves(&legal_from(&p, "7g"), &["7g7f", "7g7e"]);
    assert_moves(&legal_from(&p, "5g"), &["5g5f"]);
    assert_moves(&legal_from(&p, "2g"), &["2g1f"]);
    assert_moves(&legal_from(&p, "3f"), &["3f3e"]);
    assert!(matches!(
        check(&p, "2g2f"),
        Err(IllegalMove::CannotReach { .. })
    ));
    assert!(matches!(
        check(&p, "3f3d"),
        Err(IllegalMove::CannotReach { .. })
    ));
    assert!(matches!(
        check(&p, "7g6f"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn pawn_double_step_cannot_jump_a_piece() {
    let p = black(&[("5g", "+P"), ("5f", "+s"), ("9i", "K"), ("1a", "k")]);
    assert_moves(&legal_from(&p, "5g"), &[]);
}

#[test]
fn white_pawn_double_steps_from_rank_c() {
    let p = white(&[("5c", "+p"), ("3d", "+p"), ("9i", "K"), ("1a", "k")]);
    assert_moves(&legal_from(&p, "5c"), &["5c5d", "5c5e"]);
    assert_moves(&legal_from(&p, "3d"), &["3d3e"]);
}

#[test]
fn pawn_reaching_the_last_rank_becomes_a_queen_with_no_suffix() {
    let p = black(&[("5b", "+P"), ("4a", "s"), ("9i", "K"), ("1e", "k")]);
    // One code per destination: no promotion choice, no '+'.
    assert_moves(&legal_from(&p, "5b"), &["5b5a", "5b4a"]);
    assert_eq!(
        check(&p, "5b5a+"),
        Err(IllegalMove::CannotPromote {
            kind: PieceKind::PalacePawn
        })
    );
    let g = game(p.clone(), "5b5a");
    assert_eq!(
        at(g.position(), "5a"),
        Some((PieceKind::Queen, Color::Black))
    );
    // By a capture too; the silver is killed.
    let g = game(p, "5b4a");
    assert_eq!(
        at(g.position(), "4a"),
        Some((PieceKind::Queen, Color::Black))
    );
    assert_eq!(hand(g.position(), Color::Black), vec![]);
}

#[test]
fn white_pawn_becomes_a_queen_on_rank_i() {
    let p = white(&[("5h", "+p"), ("9a", "K"), ("1e", "k")]);
    assert_moves(&legal_from(&p, "5h"), &["5h5i"]);
    let g = game(p, "5h5i");
    assert_eq!(
        at(g.position(), "5i"),
        Some((PieceKind::Queen, Color::White))
    );
}

#[test]
fn new_queen_may_promote_to_lion_on_her_first_move_from_the_last_rank() {
    let p = black(&[("5b", "+P"), ("9i", "K"), ("1e", "k")]);
    let g = game(p, "5b5a 1e1f");
    let moves = legal_from(g.position(), "5a");
    for code in ["5a5b", "5a5b+", "5a5e", "5a5e+", "5a6b+", "5a9a+"] {
        assert!(
            moves.contains(&code.to_string()),
            "{code} missing: {moves:?}"
        );
    }
    let g = game(g.position().clone(), "5a5e+");
    assert_eq!(
        at(g.position(), "5e"),
        Some((PieceKind::Lion, Color::Black))
    );
}

#[test]
fn new_queen_cannot_promote_while_her_side_has_a_lion() {
    let p = black(&[("5b", "+P"), ("8f", "+Q"), ("9i", "K"), ("1e", "k")]);
    let g = game(p, "5b5a 1e1f");
    let moves = legal_from(g.position(), "5a");
    assert!(moves.contains(&"5a5e".to_string()));
    assert!(moves.iter().all(|c| !c.ends_with('+')), "{moves:?}");
    assert_eq!(check(g.position(), "5a5e+"), Err(IllegalMove::SecondLion));
}

#[test]
fn en_passant_takes_a_double_stepped_pawn_on_the_reply() {
    let p = white(&[("5c", "+p"), ("1a", "k"), ("4e", "+P"), ("9i", "K")]);
    let g = game(p, "5c5e");
    assert_eq!(g.position().en_passant(), Some(sq("5d")));
    assert_eq!(fields(g.position())[5], "5d");
    assert_eq!(
        mv(g.position(), "4e5d"),
        Move::EnPassant {
            from: sq("4e"),
            to: sq("5d")
        }
    );
    assert_moves(&legal_from(g.position(), "4e"), &["4e4d", "4e5d"]);
    let after = game(g.position().clone(), "4e5d");
    let pos = after.position();
    assert_eq!(at(pos, "5d"), Some((PieceKind::PalacePawn, Color::Black)));
    assert_eq!(at(pos, "5e"), None);
    assert_eq!(at(pos, "4e"), None);
    // A pawn is held: it goes to hand as a footsoldier.
    assert_eq!(hand(pos, Color::Black), vec![(PieceKind::Footsoldier, 1)]);
    assert_eq!(pos.en_passant(), None);
}

#[test]
fn en_passant_is_gone_after_any_other_reply() {
    let p = white(&[("5c", "+p"), ("1a", "k"), ("4e", "+P"), ("9i", "K")]);
    let g = game(p, "5c5e 9i9h");
    assert_eq!(g.position().en_passant(), None);
    let g = game(g.position().clone(), "1a1b");
    assert_moves(&legal_from(g.position(), "4e"), &["4e4d"]);
    assert!(check(g.position(), "4e5d").is_err());
}

#[test]
fn white_takes_a_black_pawn_en_passant() {
    let p = black(&[("6g", "+P"), ("9i", "K"), ("7e", "+p"), ("1a", "k")]);
    let g = game(p, "6g6e");
    assert_eq!(g.position().en_passant(), Some(sq("6f")));
    assert_moves(&legal_from(g.position(), "7e"), &["7e7f", "7e6f"]);
    let g = game(g.position().clone(), "7e6f");
    assert_eq!(at(g.position(), "6e"), None);
    assert_eq!(
        at(g.position(), "6f"),
        Some((PieceKind::PalacePawn, Color::White))
    );
    assert_eq!(
        hand(g.position(), Color::White),
        vec![(PieceKind::Footsoldier, 1)]
    );
}

#[test]
fn en_passant_field_is_set_only_when_an_enemy_pawn_stands_ready() {
    // A footsoldier beside the pawn cannot take en passant, nor can a pawn two files away.
    let p = white(&[
        ("5c", "+p"),
        ("1a", "k"),
        ("4e", "P"),
        ("3e", "+P"),
        ("9i", "K"),
    ]);
    let g = game(p, "5c5e");
    assert_eq!(g.position().en_passant(), None);
    assert_eq!(fields(g.position())[5], "-");
    // A single step never sets it.
    let p = white(&[("5c", "+p"), ("1a", "k"), ("4d", "+P"), ("9i", "K")]);
    let g = game(p, "5c5d");
    assert_eq!(g.position().en_passant(), None);
    // From the start: no pawn of the other side can be ready after a first double step.
    let g = game(Position::start(V), "7g7e");
    assert_eq!(fields(g.position())[4..], ["9i1i9a1a", "-"]);
}

#[test]
fn en_passant_that_would_expose_the_king_is_refused() {
    // Taking en passant empties both 6e and 5e: the rook on 1e would then see the king on 9e.
    let p = white(&[
        ("5c", "+p"),
        ("1e", "r"),
        ("1a", "k"),
        ("6e", "+P"),
        ("9e", "K"),
    ]);
    let g = game(p, "5c5e");
    assert_eq!(g.position().en_passant(), Some(sq("5d")));
    assert_moves(&legal_from(g.position(), "6e"), &["6e6d"]);
    assert_eq!(check(g.position(), "6e5d"), Err(IllegalMove::SelfCheck));
}

// ---------------------------------------------------------------------------------------------
// Lance and cannon
// ---------------------------------------------------------------------------------------------

#[test]
fn lance_slides_forward_only_and_must_promote_on_a_move_ending_in_the_zone() {
    let p = black(&[
        ("5e", "L"),
        ("7i", "L"),
        ("7f", "S"),
        ("9i", "K"),
        ("5b", "s"),
        ("1a", "k"),
    ]);
    assert_moves(&legal_from(&p, "5e"), &["5e5d", "5e5c+", "5e5b+"]);
    assert_moves(&legal_from(&p, "7i"), &["7i7h", "7i7g"]);
    assert_eq!(
        check(&p, "5e5c"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Lance,
            to: sq("5c")
        })
    );
    assert!(matches!(
        check(&p, "5e5f"),
        Err(IllegalMove::CannotReach { .. })
    ));
    assert_eq!(
        check(&p, "5e5d+"),
        Err(IllegalMove::NotInZone {
            kind: PieceKind::Lance
        })
    );
}

#[test]
fn promoted_cannon_stays_a_cannon_out_of_the_zone() {
    let p = black(&[("5e", "L"), ("9i", "K"), ("1a", "k")]);
    let g = game(p, "5e5c+ 1a1b 5c5e");
    assert_eq!(
        at(g.position(), "5e"),
        Some((PieceKind::PalaceCannon, Color::Black))
    );
}

#[test]
fn cannon_moves_like_a_rook_but_captures_only_by_hopping_one_screen() {
    // Up: over the silver on 5c to the gold on 5a. Down: over its own silver on 5g to the
    // silver on 5i. Left: over the gold on 8e, nothing beyond. Right: over the silver on 4e to
    // the gold on 3e (the screen may be next to the cannon or the target).
    let p = black(&[
        ("5e", "+L"),
        ("5g", "S"),
        ("9i", "K"),
        ("5c", "s"),
        ("5a", "+s"),
        ("5i", "s"),
        ("8e", "+s"),
        ("4e", "s"),
        ("3e", "+s"),
        ("1a", "k"),
    ]);
    assert_moves(
        &legal_from(&p, "5e"),
        &["5e5d", "5e5a", "5e5f", "5e5i", "5e6e", "5e7e", "5e3e"],
    );
    // No capture without a screen, none over two.
    assert!(matches!(
        check(&p, "5e5c"),
        Err(IllegalMove::CannotReach { .. })
    ));
    assert!(matches!(
        check(&p, "5e2e"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn cannon_cannot_hop_over_a_cannon_nor_capture_one() {
    let p = black(&[
        ("5e", "+L"),
        ("4e", "+L"),
        ("9i", "K"),
        ("5c", "+l"),
        ("5a", "+s"),
        ("2e", "+s"),
        ("5g", "s"),
        ("5i", "+l"),
        ("1a", "k"),
    ]);
    assert_moves(
        &legal_from(&p, "5e"),
        &["5e5d", "5e5f", "5e6e", "5e7e", "5e8e", "5e9e"],
    );
    assert_eq!(check(&p, "5e5a"), Err(IllegalMove::CannonScreen));
    assert_eq!(check(&p, "5e2e"), Err(IllegalMove::CannonScreen));
    assert_eq!(check(&p, "5e5i"), Err(IllegalMove::CannonTarget));
}

#[test]
fn cannon_gives_check_only_over_exactly_one_non_cannon_screen() {
    let checked = |screens: &[(&str, &str)]| {
        let mut pieces = vec![("5a", "k"), ("5e", "+L"), ("9i", "K")];
        pieces.extend_from_slice(screens);
        white(&pieces).in_check()
    };
    assert!(checked(&[("5c", "S")]));
    assert!(checked(&[("5d", "s")]));
    assert!(!checked(&[]));
    assert!(!checked(&[("5c", "S"), ("5d", "S")]));
    assert!(!checked(&[("5c", "+L")]));
    assert!(!checked(&[("5c", "+l")]));
}

#[test]
fn cannon_slides_along_corridor_lines_in_the_enemy_palace_without_capturing() {
    // From the centre 5b: one diagonal step to each empty corner; the gold on the corner 4a
    // cannot be taken that way.
    let p = black(&[("5b", "+L"), ("9i", "K"), ("4a", "+s"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "5b"),
        &[
            "5b5a", "5b6b", "5b7b", "5b8b", "5b9b", "5b4b", "5b3b", "5b2b", "5b1b", "5b5c", "5b5d",
            "5b5e", "5b5f", "5b5g", "5b5h", "5b5i", "5b6a", "5b4c", "5b6c",
        ],
    );
    assert!(matches!(
        check(&p, "5b4a"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn cannon_slides_corner_to_corner_through_an_empty_centre() {
    let p = black(&[
        ("6c", "+L"),
        ("6d", "S"),
        ("7c", "S"),
        ("9i", "K"),
        ("1e", "k"),
    ]);
    // Rook moves up and right; the corridor line 6c-5b-4a; nothing diagonal leaves the palace.
    assert_moves(
        &legal_from(&p, "6c"),
        &[
            "6c6b", "6c6a", "6c5c", "6c4c", "6c3c", "6c2c", "6c1c", "6c5b", "6c4a",
        ],
    );
}

#[test]
fn cannon_hops_from_corner_to_opposite_corner_over_the_palace_centre() {
    let p = black(&[
        ("4c", "+L"),
        ("4d", "S"),
        ("3c", "S"),
        ("9i", "K"),
        ("5b", "s"),
        ("6a", "+s"),
        ("1a", "k"),
    ]);
    assert_moves(
        &legal_from(&p, "4c"),
        &[
            "4c4b", "4c4a", "4c5c", "4c6c", "4c7c", "4c8c", "4c9c", "4c6a",
        ],
    );
}

#[test]
fn cannon_corner_hop_is_refused_over_or_onto_a_cannon() {
    let over = black(&[
        ("4c", "+L"),
        ("9i", "K"),
        ("5b", "+l"),
        ("6a", "+s"),
        ("1a", "k"),
    ]);
    assert!(!legal_from(&over, "4c").contains(&"4c6a".to_string()));
    let onto = black(&[
        ("4c", "+L"),
        ("9i", "K"),
        ("5b", "s"),
        ("6a", "+l"),
        ("1a", "k"),
    ]);
    assert!(!legal_from(&onto, "4c").contains(&"4c6a".to_string()));
}

#[test]
fn cannon_corner_hop_refusal_names_the_cannon_rule() {
    let over = black(&[
        ("4c", "+L"),
        ("9i", "K"),
        ("5b", "+l"),
        ("6a", "+s"),
        ("1a", "k"),
    ]);
    assert_eq!(check(&over, "4c6a"), Err(IllegalMove::CannonScreen));
    let onto = black(&[
        ("4c", "+L"),
        ("9i", "K"),
        ("5b", "s"),
        ("6a", "+l"),
        ("1a", "k"),
    ]);
    assert_eq!(check(&onto, "4c6a"), Err(IllegalMove::CannonTarget));
}

#[test]
fn cannon_corridor_moves_start_only_from_a_corridor_of_the_enemy_palace() {
    // On 5c (a dark square of White's palace): rook moves only.
    let p = black(&[("5c", "+L"), ("9i", "K"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "5c"),
        &[
            "5c5b", "5c5a", "5c5d", "5c5e", "5c5f", "5c5g", "5c5h", "5c5i", "5c6c", "5c7c", "5c8c",
            "5c9c", "5c4c", "5c3c", "5c2c", "5c1c",
        ],
    );
    // On 4g, a corridor of Black's own palace: rook moves only.
    let p = black(&[("4g", "+L"), ("9i", "K"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "4g"),
        &[
            "4g4f", "4g4e", "4g4d", "4g4c", "4g4b", "4g4a", "4g4h", "4g4i", "4g5g", "4g6g", "4g7g",
            "4g8g", "4g9g", "4g3g", "4g2g", "4g1g",
        ],
    );
}

#[test]
fn cannon_corner_hop_gives_check() {
    let p = white(&[("4a", "k"), ("5b", "s"), ("6c", "+L"), ("9i", "K")]);
    assert!(p.in_check());
    let p = white(&[("4a", "k"), ("5b", "+l"), ("6c", "+L"), ("9i", "K")]);
    assert!(!p.in_check());
    let p = white(&[("4a", "k"), ("6c", "+L"), ("9i", "K")]);
    assert!(!p.in_check());
}

// ---------------------------------------------------------------------------------------------
// Horse and knight
// ---------------------------------------------------------------------------------------------

#[test]
fn horse_jumps_two_forward_one_sideways_and_must_promote_in_the_zone() {
    // The horse on 5e jumps over the pieces in front of it; 6c holds its own silver.
    let p = black(&[
        ("5e", "N"),
        ("3g", "N"),
        ("4d", "+S"),
        ("6c", "S"),
        ("9i", "K"),
        ("5d", "s"),
        ("1a", "k"),
    ]);
    assert_moves(&legal_from(&p, "5e"), &["5e4c+"]);
    assert_moves(&legal_from(&p, "3g"), &["3g2e", "3g4e"]);
    assert_eq!(
        check(&p, "5e4c"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Knight,
            to: sq("4c")
        })
    );
}

#[test]
fn knight_jumps_like_a_chess_knight_in_every_direction() {
    let p = black(&[
        ("5e", "+N"),
        ("5d", "S"),
        ("5f", "S"),
        ("6g", "+S"),
        ("9i", "K"),
        ("4e", "+s"),
        ("6e", "+s"),
        ("3d", "s"),
        ("1a", "k"),
    ]);
    assert_moves(
        &legal_from(&p, "5e"),
        &["5e4c", "5e6c", "5e3d", "5e7d", "5e3f", "5e7f", "5e4g"],
    );
}

// ---------------------------------------------------------------------------------------------
// Bishop and elephant
// ---------------------------------------------------------------------------------------------

#[test]
fn bishop_slides_diagonally_and_must_promote_in_the_zone() {
    let p = black(&[("5e", "B"), ("1i", "K"), ("2b", "s"), ("5a", "k")]);
    let moves = legal_from(&p, "5e");
    assert_moves(
        &moves,
        &[
            "5e4d", "5e3c+", "5e2b+", "5e6d", "5e7c+", "5e8b+", "5e9a+", "5e4f", "5e3g", "5e2h",
            "5e6f", "5e7g", "5e8h", "5e9i",
        ],
    );
    // An unpromoted bishop stays on squares of one colour.
    for c in &moves {
        let to = &c[2..4];
        let parity = (file_of(to) + to.as_bytes()[1] - b'a') % 2;
        assert_eq!(parity, (5 + 4) % 2, "{c}");
    }
    assert_eq!(
        check(&p, "5e3c"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Bishop,
            to: sq("3c")
        })
    );
}

#[test]
fn bishop_leaving_the_zone_does_not_promote() {
    // Promotion of a bishop (or lance, horse, rook) depends only on where the move ends.
    let p = black(&[("3c", "B"), ("1i", "K"), ("9a", "k")]);
    assert_moves(
        &legal_from(&p, "3c"),
        &[
            "3c2b+", "3c1a+", "3c4b+", "3c5a+", "3c2d", "3c1e", "3c4d", "3c5e", "3c6f", "3c7g",
            "3c8h", "3c9i",
        ],
    );
    assert_eq!(
        check(&p, "3c4d+"),
        Err(IllegalMove::NotInZone {
            kind: PieceKind::Bishop
        })
    );
    assert_eq!(
        check(&p, "3c2b"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Bishop,
            to: sq("2b")
        })
    );
}

#[test]
fn elephant_slides_diagonally_steps_orthogonally_and_jumps_two_diagonally() {
    // Its own silvers block both forward diagonals; the alfil jump goes over them to 3c and
    // 7c. Backward it slides to 2h (its king on 1i) and captures on 7g.
    let p = black(&[
        ("5e", "+B"),
        ("4d", "S"),
        ("6d", "S"),
        ("1i", "K"),
        ("7g", "s"),
        ("9a", "k"),
    ]);
    // (The slide and the alfil jump both reach 3g and 7g: one move each, see
    // `each_legal_move_is_listed_once`.)
    assert_moves(
        &distinct(legal_from(&p, "5e")),
        &[
            "5e3c", "5e7c", "5e4f", "5e3g", "5e2h", "5e6f", "5e7g", "5e5d", "5e5f", "5e4e", "5e6e",
        ],
    );
}

#[test]
fn each_legal_move_is_listed_once() {
    let p = black(&[
        ("5e", "+B"),
        ("4d", "S"),
        ("6d", "S"),
        ("1i", "K"),
        ("7g", "s"),
        ("9a", "k"),
    ]);
    let all = legal(&p);
    assert_eq!(distinct(all.clone()), all, "a move is listed twice");
    let mut q = p.clone();
    assert_eq!(perft(&mut q, 1), all.len() as u64);
}

#[test]
fn elephant_alfil_jump_captures_over_an_enemy() {
    let p = black(&[
        ("5e", "+B"),
        ("4d", "s"),
        ("3c", "+s"),
        ("1i", "K"),
        ("9b", "k"),
    ]);
    let moves = legal_from(&p, "5e");
    assert!(moves.contains(&"5e4d".to_string()));
    assert!(moves.contains(&"5e3c".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Rook and dragon
// ---------------------------------------------------------------------------------------------

#[test]
fn rook_slides_orthogonally_and_must_promote_in_the_zone() {
    let p = black(&[("5e", "R"), ("9i", "K"), ("5b", "s"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "5e"),
        &[
            "5e5d", "5e5c+", "5e5b+", "5e5f", "5e5g", "5e5h", "5e5i", "5e6e", "5e7e", "5e8e",
            "5e9e", "5e4e", "5e3e", "5e2e", "5e1e",
        ],
    );
    assert_eq!(
        check(&p, "5e5c"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Rook,
            to: sq("5c")
        })
    );
}

#[test]
fn rook_leaving_the_zone_does_not_promote() {
    let p = black(&[("2c", "R"), ("9i", "K"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "2c"),
        &[
            "2c2b+", "2c2a+", "2c3c+", "2c4c+", "2c5c+", "2c6c+", "2c7c+", "2c8c+", "2c9c+",
            "2c1c+", "2c2d", "2c2e", "2c2f", "2c2g", "2c2h", "2c2i",
        ],
    );
    assert_eq!(
        check(&p, "2c2e+"),
        Err(IllegalMove::NotInZone {
            kind: PieceKind::Rook
        })
    );
}

#[test]
fn dragon_slides_along_corridor_lines_in_the_enemy_palace() {
    // Rook slides (its silvers stop it down and left), diagonal steps, and the corridor slide
    // 6c-5b-4a capturing the silver on the far corner.
    let p = black(&[
        ("6c", "+R"),
        ("6d", "S"),
        ("7c", "S"),
        ("9i", "K"),
        ("4a", "s"),
        ("1a", "k"),
    ]);
    assert_moves(
        &legal_from(&p, "6c"),
        &[
            "6c6b", "6c6a", "6c5c", "6c4c", "6c3c", "6c2c", "6c1c", "6c5b", "6c7b", "6c5d", "6c7d",
            "6c4a",
        ],
    );
}

#[test]
fn dragon_corridor_slide_is_blocked_by_a_piece_on_the_centre() {
    let p = black(&[
        ("6c", "+R"),
        ("6d", "S"),
        ("7c", "S"),
        ("9i", "K"),
        ("5b", "s"),
        ("4a", "s"),
        ("1a", "k"),
    ]);
    let moves = legal_from(&p, "6c");
    assert!(moves.contains(&"6c5b".to_string()));
    assert!(!moves.contains(&"6c4a".to_string()));
    assert!(matches!(
        check(&p, "6c4a"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn dragon_has_no_corridor_slide_in_its_own_palace() {
    let p = black(&[("6g", "+R"), ("9i", "K"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "6g"),
        &[
            "6g6f", "6g6e", "6g6d", "6g6c", "6g6b", "6g6a", "6g6h", "6g6i", "6g7g", "6g8g", "6g9g",
            "6g5g", "6g4g", "6g3g", "6g2g", "6g1g", "6g5f", "6g7f", "6g5h", "6g7h",
        ],
    );
}

#[test]
fn dragon_corridor_slide_gives_check() {
    let p = white(&[("4a", "k"), ("6c", "+R"), ("9i", "K")]);
    assert!(p.in_check());
    let p = white(&[("4a", "k"), ("5b", "s"), ("6c", "+R"), ("9i", "K")]);
    assert!(!p.in_check());
}

// ---------------------------------------------------------------------------------------------
// Silver and gold
// ---------------------------------------------------------------------------------------------

#[test]
fn silver_steps_diagonally_or_straight_forward() {
    let p = black(&[
        ("5e", "S"),
        ("6f", "+S"),
        ("9i", "K"),
        ("4d", "+s"),
        ("1a", "k"),
    ]);
    assert_moves(&legal_from(&p, "5e"), &["5e5d", "5e4d", "5e6d", "5e4f"]);
}

#[test]
fn silver_may_promote_on_a_move_into_within_or_out_of_the_zone() {
    let p = black(&[("5d", "S"), ("3c", "S"), ("9i", "K"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "5d"),
        &[
            "5d5c", "5d5c+", "5d4c", "5d4c+", "5d6c", "5d6c+", "5d4e", "5d6e",
        ],
    );
    assert_moves(
        &legal_from(&p, "3c"),
        &[
            "3c3b", "3c3b+", "3c2b", "3c2b+", "3c4b", "3c4b+", "3c2d", "3c2d+", "3c4d", "3c4d+",
        ],
    );
    assert_eq!(
        check(&p, "5d4e+"),
        Err(IllegalMove::NotInZone {
            kind: PieceKind::Silver
        })
    );
    let g = game(p, "5d4c+");
    assert_eq!(
        at(g.position(), "4c"),
        Some((PieceKind::PromotedSilver, Color::Black))
    );
}

#[test]
fn gold_steps_orthogonally_or_diagonally_forward_and_never_promotes() {
    let p = black(&[("5e", "+S"), ("3c", "+S"), ("9i", "K"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "5e"),
        &["5e5d", "5e4d", "5e6d", "5e4e", "5e6e", "5e5f"],
    );
    assert_moves(
        &legal_from(&p, "3c"),
        &["3c3b", "3c2b", "3c4b", "3c2c", "3c4c", "3c3d"],
    );
    assert_eq!(
        check(&p, "3c3b+"),
        Err(IllegalMove::CannotPromote {
            kind: PieceKind::PromotedSilver
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Queen
// ---------------------------------------------------------------------------------------------

#[test]
fn queen_inside_her_palace_only_steps_diagonally() {
    // From the centre 5h: the four corridors (capturing the silver on 6g).
    let p = black(&[("5h", "Q"), ("9i", "K"), ("6g", "s"), ("1a", "k")]);
    assert_moves(&legal_from(&p, "5h"), &["5h4g", "5h6g", "5h4i", "5h6i"]);
    assert_eq!(check(&p, "5h5f"), Err(IllegalMove::QueenInPalace));
    assert_eq!(check(&p, "5h4h"), Err(IllegalMove::QueenInPalace));
    assert_eq!(check(&p, "5h3f"), Err(IllegalMove::QueenInPalace));
}

#[test]
fn queen_steps_out_of_her_palace_one_diagonal_step_at_a_time() {
    // From 6h (a dark square of the palace) two of her steps leave it; from the corner 4g,
    // three do.
    let p = black(&[("6h", "Q"), ("9i", "K"), ("1a", "k")]);
    assert_moves(&legal_from(&p, "6h"), &["6h5g", "6h7g", "6h5i", "6h7i"]);
    assert_eq!(check(&p, "6h8f"), Err(IllegalMove::QueenInPalace));
    let p = black(&[("4g", "Q"), ("9i", "K"), ("1a", "k")]);
    assert_moves(&legal_from(&p, "4g"), &["4g3f", "4g5f", "4g5h", "4g3h"]);
    // The queen cannot leave her palace with a slide.
    assert_eq!(check(&p, "4g2e"), Err(IllegalMove::QueenInPalace));
    assert_eq!(check(&p, "4g4e"), Err(IllegalMove::QueenInPalace));
}

#[test]
fn queen_re_entering_on_a_dark_square_is_held_to_dark_squares() {
    // Entering at 5g (dark), she then steps only to the dark squares 4h 6h (or out).
    let p = black(&[("5e", "Q"), ("9i", "K"), ("2a", "k")]);
    let g = game(p, "5e5g 2a1a");
    assert_moves(
        &legal_from(g.position(), "5g"),
        &["5g4f", "5g6f", "5g4h", "5g6h"],
    );
}

#[test]
fn queen_next_to_her_palace_slides_freely_but_stops_on_its_first_square() {
    // From 5f: south, south-east and south-west each end on the first palace square; every
    // other line is a free queen's, through White's palace too, with an optional promotion
    // into the zone.
    let p = black(&[("5f", "Q"), ("9i", "K"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "5f"),
        &[
            "5f5g", "5f4g", "5f6g", // stop on entering the palace
            "5f6f", "5f7f", "5f8f", "5f9f", "5f4f", "5f3f", "5f2f", "5f1f", // rank f
            "5f5e", "5f5d", "5f5c", "5f5c+", "5f5b", "5f5b+", "5f5a", "5f5a+", // file 5
            "5f6e", "5f7d", "5f8c", "5f8c+", "5f9b", "5f9b+", // north-west
            "5f4e", "5f3d", "5f2c", "5f2c+", "5f1b", "5f1b+", // north-east
        ],
    );
    assert_eq!(check(&p, "5f5h"), Err(IllegalMove::QueenWall));
    assert_eq!(check(&p, "5f5i"), Err(IllegalMove::QueenWall));
    // Entering and leaving in one move: through the corner 4g to 3h.
    assert_eq!(check(&p, "5f3h"), Err(IllegalMove::QueenWall));
}

#[test]
fn queen_may_capture_on_the_first_square_of_her_palace_but_not_beyond() {
    let p = black(&[("7f", "Q"), ("9i", "K"), ("6g", "s"), ("1a", "k")]);
    assert!(legal_from(&p, "7f").contains(&"7f6g".to_string()));
    let p = black(&[("7f", "Q"), ("9i", "K"), ("5h", "s"), ("1a", "k")]);
    let moves = legal_from(&p, "7f");
    assert!(moves.contains(&"7f6g".to_string()));
    assert!(!moves.contains(&"7f5h".to_string()));
    assert_eq!(check(&p, "7f5h"), Err(IllegalMove::QueenWall));
}

#[test]
fn queen_never_passes_through_her_palace() {
    // From 7h, beside the palace: east, north-east and south-east all stop on its edge.
    let p = black(&[("7h", "Q"), ("9a", "K"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "7h"),
        &[
            "7h7g", "7h7f", "7h7e", "7h7d", "7h7c", "7h7c+", "7h7b", "7h7b+", "7h7a", "7h7a+",
            "7h7i", "7h8h", "7h9h", "7h6h", "7h8g", "7h9f", "7h6g", "7h8i", "7h6i",
        ],
    );
    assert_eq!(check(&p, "7h3h"), Err(IllegalMove::QueenWall));
    assert_eq!(check(&p, "7h5f"), Err(IllegalMove::QueenWall));
}

#[test]
fn white_queen_is_walled_by_her_own_palace_not_by_black_palace() {
    let p = white(&[("5d", "q"), ("1a", "k"), ("9i", "K")]);
    assert_moves(
        &legal_from(&p, "5d"),
        &[
            "5d5c", "5d4c", "5d6c", // stop on entering White's palace
            "5d5e", "5d5f", "5d5g", "5d5g+", "5d5h", "5d5h+", "5d5i",
            "5d5i+", // through Black's
            "5d4d", "5d3d", "5d2d", "5d1d", "5d6d", "5d7d", "5d8d", "5d9d", // rank d
            "5d4e", "5d3f", "5d2g", "5d2g+", "5d1h", "5d1h+", // south-east
            "5d6e", "5d7f", "5d8g", "5d8g+", "5d9h", "5d9h+", // south-west
        ],
    );
    assert_eq!(check(&p, "5d5b"), Err(IllegalMove::QueenWall));
}

#[test]
fn enemy_palace_does_not_affect_the_queen() {
    // A Black queen on 3b (in the zone: every move may promote) slides across White's palace
    // along rank b and along the diagonal 4c-5d-...
    let p = black(&[("3b", "Q"), ("9i", "K"), ("1a", "k")]);
    let destinations = [
        "3a", "3c", "3d", "3e", "3f", "3g", "3h", "3i", "2b", "1b", "4b", "5b", "6b", "7b", "8b",
        "9b", "2a", "4a", "2c", "1d", "4c", "5d", "6e", "7f", "8g", "9h",
    ];
    let expected: Vec<String> = destinations
        .iter()
        .flat_map(|to| [format!("3b{to}"), format!("3b{to}+")])
        .collect();
    assert_owned(&legal_from(&p, "3b"), &expected);
}

#[test]
fn queen_attack_on_a_king_follows_the_same_paths() {
    // Across her palace: no check.
    assert!(!white(&[("3h", "k"), ("7h", "Q"), ("9a", "K")]).in_check());
    // Along a free line: check.
    assert!(white(&[("7c", "k"), ("7h", "Q"), ("9a", "K")]).in_check());
    // Inside her palace she does not slide: no check along the file.
    assert!(!white(&[("5e", "k"), ("5h", "Q"), ("9a", "K")]).in_check());
    // Her diagonal step out of the palace does check.
    assert!(white(&[("7g", "k"), ("6h", "Q"), ("9a", "K")]).in_check());
    // So a king may stand on the far side of her palace.
    let p = white(&[("2h", "k"), ("7h", "Q"), ("9a", "K")]);
    assert_moves(
        &legal_from(&p, "2h"),
        &[
            "2h1g", "2h2g", "2h3g", "2h1h", "2h3h", "2h1i", "2h2i", "2h3i",
        ],
    );
}

#[test]
fn queen_may_promote_only_while_her_side_has_no_lion() {
    let with_lion = black(&[("5d", "Q"), ("8f", "+Q"), ("9i", "K"), ("1a", "k")]);
    let moves = legal_from(&with_lion, "5d");
    assert!(moves.contains(&"5d5c".to_string()));
    assert!(moves.iter().all(|c| !c.ends_with('+')), "{moves:?}");
    assert_eq!(check(&with_lion, "5d5c+"), Err(IllegalMove::SecondLion));
    let without = black(&[("5d", "Q"), ("9i", "K"), ("1a", "k")]);
    let moves = legal_from(&without, "5d");
    assert!(moves.contains(&"5d5c+".to_string()));
    // Out of the zone: no promotion for a queen that neither starts nor ends in it.
    assert_eq!(
        check(&without, "5d5e+"),
        Err(IllegalMove::NotInZone {
            kind: PieceKind::Queen
        })
    );
}

#[test]
fn queen_may_promote_again_once_the_lion_is_killed() {
    let p = white(&[
        ("2a", "r"),
        ("1a", "k"),
        ("2e", "+Q"),
        ("5d", "Q"),
        ("9i", "K"),
    ]);
    let g = game(p, "2a2e");
    // The lion is killed, not held.
    assert_eq!(hand(g.position(), Color::White), vec![]);
    assert!(legal_from(g.position(), "5d").contains(&"5d5c+".to_string()));
    let g = game(g.position().clone(), "5d5c+");
    assert_eq!(
        at(g.position(), "5c"),
        Some((PieceKind::Lion, Color::Black))
    );
}

// ---------------------------------------------------------------------------------------------
// Lion
// ---------------------------------------------------------------------------------------------

/// A Black lion on 5e among mixed pieces: an enemy silver on 5d and gold on 6f (capturable,
/// so double moves start there), an enemy lion on 5f (never captured), its own gold on 4e and
/// silver on 7c, and enemies at distance two (footsoldier 6c, silver 3g).
fn lion_position() -> Position {
    black(&[
        ("5e", "+Q"),
        ("4e", "+S"),
        ("7c", "S"),
        ("9i", "K"),
        ("5d", "s"),
        ("6f", "+s"),
        ("5f", "+q"),
        ("6c", "p"),
        ("3g", "s"),
        ("1a", "k"),
    ])
}

#[test]
fn lion_exact_move_set_among_mixed_pieces() {
    let p = lion_position();
    assert_moves(
        &legal_from(&p, "5e"),
        &[
            // single steps (5d and 6f capture; not 4e, its own; not 5f, a lion)
            "5e4d", "5e5d", "5e6d", "5e6e", "5e4f", "5e6f",
            // jumps to distance two (over the enemy lion to 5g; capturing on 6c and 3g)
            "5e3c", "5e4c", "5e5c", "5e6c", "5e3d", "5e7d", "5e3e", "5e7e", "5e3f", "5e7f", "5e3g",
            "5e4g", "5e5g", "5e6g", "5e7g", // staring
            "5e5e",
            // capture on 5d, then a second step (6c captures again; 5e is stationary feeding)
            "5e5d4c", "5e5d5c", "5e5d6c", "5e5d4d", "5e5d6d", "5e5d5e", "5e5d6e",
            // capture on 6f, then a second step (not onto the lion on 5f)
            "5e6f5e", "5e6f6e", "5e6f7e", "5e6f7f", "5e6f5g", "5e6f6g", "5e6f7g",
        ],
    );
}

#[test]
fn lion_never_captures_a_lion_on_either_step() {
    let p = lion_position();
    assert_eq!(check(&p, "5e5f"), Err(IllegalMove::LionTakesLion));
    assert_eq!(check(&p, "5e6f5f"), Err(IllegalMove::LionTakesLion));
}

#[test]
fn lion_double_move_must_capture_on_its_first_step() {
    let p = lion_position();
    assert_eq!(
        check(&p, "5e4d3c"),
        Err(IllegalMove::LionFirstStepMustCapture)
    );
    assert_eq!(
        check(&p, "5e5d4e"),
        Err(IllegalMove::OwnPiece { to: sq("4e") })
    );
    assert!(matches!(
        check(&p, "5e5b"),
        Err(IllegalMove::CannotReach { .. })
    ));
}

#[test]
fn lion_double_capture_takes_both_pieces() {
    // Silver and footsoldier are killed: nothing goes to hand.
    let g = game(lion_position(), "5e5d6c");
    let pos = g.position();
    assert_eq!(at(pos, "6c"), Some((PieceKind::Lion, Color::Black)));
    assert_eq!(at(pos, "5d"), None);
    assert_eq!(at(pos, "5e"), None);
    assert_eq!(hand(pos, Color::Black), vec![]);
}

#[test]
fn lion_stationary_feeding_captures_and_returns() {
    // The gold is held: it goes to hand as a silver.
    let g = game(lion_position(), "5e6f5e");
    let pos = g.position();
    assert_eq!(at(pos, "5e"), Some((PieceKind::Lion, Color::Black)));
    assert_eq!(at(pos, "6f"), None);
    assert_eq!(hand(pos, Color::Black), vec![(PieceKind::Silver, 1)]);
}

#[test]
fn lion_second_step_may_end_next_to_its_start() {
    // 5e5d6e (capture on 5d, then to 6e) is not 5e6e: it also removes the silver.
    let p = lion_position();
    let double = game(p.clone(), "5e5d6e");
    let single = game(p, "5e6e");
    assert_eq!(at(double.position(), "5d"), None);
    assert_eq!(
        at(single.position(), "5d"),
        Some((PieceKind::Silver, Color::White))
    );
    assert_eq!(
        at(double.position(), "6e"),
        Some((PieceKind::Lion, Color::Black))
    );
}

#[test]
fn lion_staring_needs_an_empty_adjacent_square() {
    // Surrounded by seven golds of its own and one enemy silver: no staring, but stationary
    // feeding on the silver is allowed.
    let p = black(&[
        ("5e", "+Q"),
        ("4d", "+S"),
        ("6d", "+S"),
        ("4e", "+S"),
        ("6e", "+S"),
        ("4f", "+S"),
        ("5f", "+S"),
        ("6f", "+S"),
        ("9i", "K"),
        ("5d", "s"),
        ("1a", "k"),
    ]);
    assert_moves(
        &legal_from(&p, "5e"),
        &[
            "5e3c", "5e4c", "5e5c", "5e6c", "5e7c", "5e3d", "5e7d", "5e3e", "5e7e", "5e3f", "5e7f",
            "5e3g", "5e4g", "5e5g", "5e6g", "5e7g", "5e5d", "5e5d4c", "5e5d5c", "5e5d6c", "5e5d5e",
        ],
    );
    assert_eq!(check(&p, "5e5e"), Err(IllegalMove::LionCannotStare));
}

#[test]
fn lion_cannot_stare_while_in_check() {
    let p = black(&[("5e", "+Q"), ("9i", "K"), ("9a", "r"), ("1a", "k")]);
    assert!(p.in_check());
    assert_moves(&legal_from(&p, "5e"), &[]);
    assert_eq!(check(&p, "5e5e"), Err(IllegalMove::InCheck));
}

#[test]
fn lion_gives_check_from_two_squares_away_over_any_piece() {
    // The lion on 5e reaches 5c by a jump over the silver on 5d: a check no piece can block.
    // Every square within two of the lion (4c 6c 4d 6d) is closed to the king; rank b, three
    // ranks away, is free.
    let p = white(&[("5c", "k"), ("5d", "s"), ("5e", "+Q"), ("9i", "K")]);
    assert!(p.in_check());
    assert_moves(&legal_from(&p, "5c"), &["5c4b", "5c5b", "5c6b"]);
    // Three squares away: no check.
    assert!(!white(&[("5b", "k"), ("5e", "+Q"), ("9i", "K")]).in_check());
}

#[test]
fn staring_passes_the_turn_and_leaves_the_board_unchanged() {
    let p = black(&[("5e", "+Q"), ("9i", "K"), ("1a", "k")]);
    let g = game(p.clone(), "5e5e");
    let before: Vec<String> = fields(&p);
    let after: Vec<String> = fields(g.position());
    assert_eq!(before[0], after[0]);
    assert_eq!(after[1], "w");
}

// ---------------------------------------------------------------------------------------------
// King: steps, flying king, entering king
// ---------------------------------------------------------------------------------------------

#[test]
fn king_steps_one_square_in_any_direction_and_may_leave_its_palace() {
    let p = black(&[("4g", "K"), ("1a", "k")]);
    assert_moves(
        &legal_from(&p, "4g"),
        &[
            "4g3f", "4g4f", "4g5f", "4g3g", "4g5g", "4g3h", "4g4h", "4g5h",
        ],
    );
}

#[test]
fn no_move_may_open_the_file_between_the_kings() {
    // The silver on 5e is all that separates the kings: it may only move along the file.
    let p = black(&[("5i", "K"), ("5e", "S"), ("5a", "k")]);
    assert_moves(&legal_from(&p, "5e"), &["5e5d"]);
    assert_eq!(check(&p, "5e4d"), Err(IllegalMove::SelfCheck));
    assert_moves(
        &legal_from(&p, "5i"),
        &["5i4h", "5i5h", "5i6h", "5i4i", "5i6i"],
    );
}

#[test]
fn lion_may_not_capture_the_blocker_and_step_off_the_kings_file() {
    // The white silver on 5e is all that separates the kings. The lion may take it and stay on
    // file 5 (5e, or on to 5d or 5f) but not take it and leave the file (stationary feeding
    // back to 4e included).
    let p = black(&[("5i", "K"), ("4e", "+Q"), ("5e", "s"), ("5a", "k")]);
    let via_5e: Vec<String> = legal_from(&p, "4e")
        .into_iter()
        .filter(|c| c.starts_with("4e5e"))
        .collect();
    assert_moves(&via_5e, &["4e5e", "4e5e5d", "4e5e5f"]);
    assert_eq!(check(&p, "4e5e4e"), Err(IllegalMove::SelfCheck));
    assert_eq!(check(&p, "4e5e6d"), Err(IllegalMove::SelfCheck));
}

#[test]
fn king_may_not_step_onto_an_open_file_facing_the_other_king() {
    let p = black(&[("4h", "K"), ("5a", "k")]);
    assert_moves(
        &legal_from(&p, "4h"),
        &["4h3g", "4h4g", "4h3h", "4h3i", "4h4i"],
    );
    assert_eq!(check(&p, "4h5h"), Err(IllegalMove::SelfCheck));
}

#[test]
fn kings_may_not_face_each_other_backwards_either() {
    // Black's king above White's on file 1.
    let p = black(&[("2c", "K"), ("1g", "k")]);
    assert_moves(
        &legal_from(&p, "2c"),
        &["2c2b", "2c3b", "2c3c", "2c2d", "2c3d"],
    );
}

#[test]
fn kings_facing_on_a_file_count_as_check() {
    let err = fen::parse(
        var(),
        &sfen(&[("5i", "K"), ("5a", "k")], "b", "-", "-", "-"),
    );
    assert!(
        matches!(err, Err(fen::FenError::SideNotToMoveInCheck { .. })),
        "{err:?}"
    );
    // Not along a rank or a diagonal.
    assert!(!white(&[("1e", "K"), ("9e", "k")]).in_check());
    assert!(!white(&[("1i", "K"), ("9a", "k")]).in_check());
}

#[test]
fn entering_the_enemy_palace_wins_at_once() {
    // 5c and 6c are guarded by the silver on 6b; 4c is free.
    let p = black(&[("5d", "K"), ("6b", "s"), ("9a", "k")]);
    assert_moves(
        &legal_from(&p, "5d"),
        &["5d4c", "5d4d", "5d6d", "5d4e", "5d5e", "5d6e"],
    );
    // A king may not enter into check.
    assert_eq!(check(&p, "5d5c"), Err(IllegalMove::SelfCheck));
    assert_eq!(check(&p, "5d6c"), Err(IllegalMove::SelfCheck));
    let g = game(p, "5d4c");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::EnteringKing
        })
    );
    assert_eq!(
        g.outcome().unwrap().describe(var()),
        "win black entering-king"
    );
    assert!(g.legal_moves().is_empty());
    let any = mv(g.position(), "9a9b");
    assert_eq!(g.check_move(any), Err(IllegalMove::GameOver));
}

#[test]
fn king_may_escape_check_into_the_enemy_palace() {
    let p = black(&[("5d", "K"), ("5h", "r"), ("9a", "k")]);
    assert!(p.in_check());
    assert_moves(
        &legal(&p),
        &["5d4c", "5d6c", "5d4d", "5d6d", "5d4e", "5d6e"],
    );
    let g = game(p, "5d6c");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::EnteringKing
        })
    );
}

#[test]
fn perft_does_not_go_on_after_an_entering_king() {
    // Black's king on 5d has 8 moves, 3 of them into White's palace; after each of the other
    // 5, White's king on 9a has 3 replies.
    let p = black(&[("5d", "K"), ("9a", "k")]);
    let mut q = p.clone();
    assert_eq!(perft(&mut q, 1), 8);
    assert_eq!(perft(&mut q, 2), 15);
    assert_eq!(Game::new(p).perft(2), 15);
}

#[test]
fn white_king_entering_black_palace_wins() {
    let p = white(&[("5f", "k"), ("9a", "K")]);
    let g = game(p, "5f5g");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: Reason::EnteringKing
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Castling
// ---------------------------------------------------------------------------------------------

/// Kings and lances on their start squares with every castling right; a pawn on each side
/// keeps the kings from facing each other.
fn castling_pieces() -> Vec<(&'static str, &'static str)> {
    vec![
        ("5i", "K"),
        ("9i", "L"),
        ("1i", "L"),
        ("5g", "+P"),
        ("5a", "k"),
        ("9a", "l"),
        ("1a", "l"),
        ("5c", "+p"),
    ]
}

fn castling_position(extra: &[(&'static str, &'static str)], side: &str, hands: &str) -> Position {
    let mut pieces = castling_pieces();
    pieces.extend_from_slice(extra);
    parse(&sfen(&pieces, side, hands, "9i1i9a1a", "-"))
}

#[test]
fn castling_moves_the_king_two_squares_and_the_lance_beside_it() {
    let p = castling_position(&[], "b", "-");
    assert_moves(
        &legal_from(&p, "5i"),
        &["5i4h", "5i5h", "5i6h", "5i4i", "5i6i", "5i7i", "5i3i"],
    );
    assert_eq!(
        mv(&p, "5i7i"),
        Move::Castle {
            from: sq("5i"),
            to: sq("7i")
        }
    );
    // Toward the lance on 9i: king to 7i (the silver's square), lance to 6i (the gold's).
    let g = game(p.clone(), "5i7i");
    let pos = g.position();
    assert_eq!(at(pos, "7i"), Some((PieceKind::King, Color::Black)));
    assert_eq!(at(pos, "6i"), Some((PieceKind::Lance, Color::Black)));
    for empty in ["9i", "8i", "5i"] {
        assert_eq!(at(pos, empty), None, "{empty}");
    }
    assert_eq!(at(pos, "1i"), Some((PieceKind::Lance, Color::Black)));
    assert_eq!(fields(pos)[4], "9a1a");
    // Toward the lance on 1i: king to 3i, lance to 4i.
    let g = game(p, "5i3i");
    let pos = g.position();
    assert_eq!(at(pos, "3i"), Some((PieceKind::King, Color::Black)));
    assert_eq!(at(pos, "4i"), Some((PieceKind::Lance, Color::Black)));
    assert_eq!(at(pos, "1i"), None);
    assert_eq!(at(pos, "2i"), None);
    assert_eq!(fields(pos)[4], "9a1a");
}

#[test]
fn white_castles_too_and_the_castled_lance_moves_on_its_new_file() {
    let p = castling_position(&[], "b", "-");
    let g = game(p, "5i7i");
    // Black's castled lance on 6i now sees 6a and 6b: White may castle only toward 1a.
    assert_moves(
        &legal_from(g.position(), "5a"),
        &["5a4a", "5a4b", "5a5b", "5a3a"],
    );
    assert_eq!(
        check(g.position(), "5a7a"),
        Err(IllegalMove::CastlingThroughCheck { square: sq("6a") })
    );
    let g = game(g.position().clone(), "5a3a");
    let pos = g.position();
    assert_eq!(at(pos, "3a"), Some((PieceKind::King, Color::White)));
    assert_eq!(at(pos, "4a"), Some((PieceKind::Lance, Color::White)));
    assert_eq!(fields(pos)[4], "-");
    // The lance on 6i still slides only forward, now on file 6.
    assert_moves(
        &legal_from(pos, "6i"),
        &[
            "6i6h", "6i6g", "6i6f", "6i6e", "6i6d", "6i6c+", "6i6b+", "6i6a+",
        ],
    );
}

#[test]
fn castling_is_refused_out_of_check() {
    // White's lance on 5c checks the king on 5i.
    let mut pieces = castling_pieces();
    pieces.retain(|&(s, _)| s != "5c" && s != "5g");
    pieces.push(("5c", "l"));
    let p = parse(&sfen(&pieces, "b", "-", "9i1i9a1a", "-"));
    assert!(p.in_check());
    assert_moves(&legal_from(&p, "5i"), &["5i4h", "5i6h", "5i4i", "5i6i"]);
    assert_eq!(check(&p, "5i7i"), Err(IllegalMove::CastlingInCheck));
    assert_eq!(check(&p, "5i3i"), Err(IllegalMove::CastlingInCheck));
}

#[test]
fn castling_is_refused_through_an_attacked_square() {
    // The lance on 6d attacks 6i, the square the king would cross.
    let p = castling_position(&[("6d", "l")], "b", "-");
    assert_moves(&legal_from(&p, "5i"), &["5i4h", "5i5h", "5i4i", "5i3i"]);
    assert_eq!(
        check(&p, "5i7i"),
        Err(IllegalMove::CastlingThroughCheck { square: sq("6i") })
    );
}

#[test]
fn castling_is_refused_onto_an_attacked_square() {
    let p = castling_position(&[("7d", "l")], "b", "-");
    assert_moves(
        &legal_from(&p, "5i"),
        &["5i4h", "5i5h", "5i6h", "5i4i", "5i6i", "5i3i"],
    );
    assert_eq!(
        check(&p, "5i7i"),
        Err(IllegalMove::CastlingThroughCheck { square: sq("7i") })
    );
}

#[test]
fn castling_may_not_bring_the_king_face_to_face_with_the_other_king() {
    // White's king on 7b looks down the open file 7: 7i counts as attacked.
    let p = parse(&sfen(
        &[("5i", "K"), ("9i", "L"), ("1i", "L"), ("7b", "k")],
        "b",
        "-",
        "9i1i",
        "-",
    ));
    assert_moves(
        &legal_from(&p, "5i"),
        &["5i4h", "5i5h", "5i6h", "5i4i", "5i6i", "5i3i"],
    );
    assert_eq!(
        check(&p, "5i7i"),
        Err(IllegalMove::CastlingThroughCheck { square: sq("7i") })
    );
}

#[test]
fn castling_lance_may_pass_an_attacked_square() {
    // 8i and 2i are crossed only by the lances.
    let p = castling_position(&[("8d", "l"), ("2d", "l")], "b", "-");
    assert_moves(
        &legal_from(&p, "5i"),
        &["5i4h", "5i5h", "5i6h", "5i4i", "5i6i", "5i7i", "5i3i"],
    );
}

#[test]
fn castling_needs_every_square_between_king_and_lance_empty() {
    let p = castling_position(&[("2i", "N")], "b", "-");
    assert_moves(
        &legal_from(&p, "5i"),
        &["5i4h", "5i5h", "5i6h", "5i4i", "5i6i", "5i7i"],
    );
    assert_eq!(check(&p, "5i3i"), Err(IllegalMove::CastlingBlocked));
}

#[test]
fn castling_rights_are_lost_when_the_king_moves() {
    let p = castling_position(&[], "b", "-");
    let g = game(p, "5i5h 5c5d 5h5i 5d5e");
    assert_eq!(fields(g.position())[4], "9a1a");
    assert_eq!(
        check(g.position(), "5i7i"),
        Err(IllegalMove::NoCastlingRight { lance: sq("9i") })
    );
    assert_eq!(
        check(g.position(), "5i3i"),
        Err(IllegalMove::NoCastlingRight { lance: sq("1i") })
    );
}

#[test]
fn castling_right_is_lost_when_the_lance_moves_and_a_dropped_lance_never_castles() {
    let p = castling_position(&[], "b", "L");
    let g = game(p, "9i9h 5c5d L*9i 5d5e");
    assert_eq!(fields(g.position())[4], "1i9a1a");
    assert_eq!(
        check(g.position(), "5i7i"),
        Err(IllegalMove::NoCastlingRight { lance: sq("9i") })
    );
    assert!(legal_from(g.position(), "5i").contains(&"5i3i".to_string()));
}

#[test]
fn castling_right_is_lost_when_the_lance_is_captured() {
    let p = castling_position(&[("8h", "s")], "w", "-");
    let g = game(p, "8h9i");
    assert_eq!(fields(g.position())[4], "1i9a1a");
    // The lance is killed.
    assert_eq!(hand(g.position(), Color::White), vec![]);
}

#[test]
fn white_castling_right_follows_its_lance() {
    let p = castling_position(&[], "b", "-");
    let g = game(p, "5g5f 1a1b");
    assert_eq!(fields(g.position())[4], "9i1i9a");
}

// ---------------------------------------------------------------------------------------------
// Captures: held or killed
// ---------------------------------------------------------------------------------------------

#[test]
fn captured_pieces_are_held_or_killed_by_kind() {
    use PieceKind::*;
    // (white piece on 5d, what Black's rook gets in hand for it)
    let cases: [(&str, Option<PieceKind>); 14] = [
        ("p", None),               // footsoldier: killed
        ("+p", Some(Footsoldier)), // pawn: held as a footsoldier
        ("l", None),               // lance: killed
        ("+l", Some(Lance)),       // cannon: held as a lance
        ("n", None),               // horse: killed
        ("+n", Some(Knight)),      // knight: held as a horse
        ("b", None),               // bishop: killed
        ("+b", Some(Bishop)),      // elephant: held as a bishop
        ("r", None),               // rook: killed
        ("+r", Some(Rook)),        // dragon: held as a rook
        ("s", None),               // silver: killed
        ("+s", Some(Silver)),      // gold: held as a silver
        ("q", None),               // queen: killed
        ("+q", None),              // lion: killed
    ];
    for (letter, held) in cases {
        let p = black(&[("5e", "R"), ("9i", "K"), ("5d", letter), ("1a", "k")]);
        let g = game(p, "5e5d");
        let expected: Vec<(PieceKind, u8)> = held.into_iter().map(|k| (k, 1)).collect();
        assert_eq!(
            hand(g.position(), Color::Black),
            expected,
            "capturing {letter}"
        );
    }
}

#[test]
fn held_pieces_show_in_the_hands_field_unpromoted() {
    let p = black(&[("5e", "+R"), ("9i", "K"), ("5d", "+r"), ("1a", "k")]);
    let g = game(p, "5e5d");
    assert_eq!(fields(g.position())[2], "R");
    // White captures a gold: a silver in White's hand.
    let p = white(&[("5d", "r"), ("1a", "k"), ("5e", "+S"), ("9i", "K")]);
    let g = game(p, "5d5e");
    assert_eq!(
        hand(g.position(), Color::White),
        vec![(PieceKind::Silver, 1)]
    );
    assert_eq!(fields(g.position())[2], "s");
}

#[test]
fn queens_and_lions_can_never_be_held() {
    for hands in ["Q", "q", "+Q", "K"] {
        let text = sfen(&[("9i", "K"), ("1a", "k")], "b", hands, "-", "-");
        assert!(
            matches!(fen::parse(var(), &text), Err(fen::FenError::Hands { .. })),
            "hands {hands} accepted"
        );
    }
}

#[test]
fn captured_dragon_is_dropped_as_a_rook_and_promotes_again() {
    let p = black(&[("5e", "+R"), ("9i", "K"), ("5d", "+r"), ("1a", "k")]);
    let g = game(p, "5e5d 1a1b R*2d 1b1a");
    assert_eq!(
        at(g.position(), "2d"),
        Some((PieceKind::Rook, Color::Black))
    );
    assert_eq!(
        check(g.position(), "2d2c"),
        Err(IllegalMove::MustPromote {
            kind: PieceKind::Rook,
            to: sq("2c")
        })
    );
    let g = game(g.position().clone(), "2d2c+");
    assert_eq!(
        at(g.position(), "2c"),
        Some((PieceKind::PalaceDragon, Color::Black))
    );
}

#[test]
fn dropped_silver_cannot_promote_on_the_drop_but_may_on_its_next_move() {
    let p = black_hand(&[("9i", "K"), ("1a", "k")], "S");
    let drops = legal_drops(&p, "S");
    assert!(drops.iter().all(|c| !c.ends_with('+')));
    assert!(code::parse(&p, "S*3c+").is_none());
    let g = game(p, "S*3c 1a1b");
    assert_eq!(
        at(g.position(), "3c"),
        Some((PieceKind::Silver, Color::Black))
    );
    assert_moves(
        &legal_from(g.position(), "3c"),
        &[
            "3c3b", "3c3b+", "3c2b", "3c2b+", "3c4b", "3c4b+", "3c2d", "3c2d+", "3c4d", "3c4d+",
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// Drops
// ---------------------------------------------------------------------------------------------

#[test]
fn footsoldier_drops_on_four_nearest_ranks_not_on_a_file_with_a_near_footsoldier() {
    // Black's footsoldier on 3d (its 6th rank) closes file 3; the one on 7c (7th rank) does
    // not close file 7; the pawn on 5g and White's footsoldier on 2f close nothing.
    let p = black_hand(
        &[
            ("9i", "K"),
            ("3d", "P"),
            ("7c", "P"),
            ("5g", "+P"),
            ("2f", "p"),
            ("1a", "k"),
        ],
        "P",
    );
    let expected = drops_where("P", &["9i", "5g", "2f"], |s| {
        nearness(Color::Black, s) <= 4 && file_of(s) != 3
    });
    assert_eq!(expected.len(), 29);
    assert_owned(&legal_drops(&p, "P"), &expected);
    assert_eq!(
        check(&p, "P*3g"),
        Err(IllegalMove::TwoPawns {
            kind: PieceKind::Footsoldier,
            to: sq("3g")
        })
    );
    assert_eq!(
        check(&p, "P*5e"),
        Err(IllegalMove::DropOutsideZone {
            kind: PieceKind::Footsoldier,
            to: sq("5e")
        })
    );
}

#[test]
fn drop_zones_of_lance_horse_bishop_rook_and_silver() {
    let p = black_hand(&[("9i", "K"), ("1a", "k")], "RBSNL");
    let occupied = ["9i", "1a"];
    let near = |n: u8| move |s: &str| nearness(Color::Black, s) <= n;
    assert_owned(&legal_drops(&p, "L"), &drops_where("L", &occupied, near(5)));
    assert_owned(&legal_drops(&p, "N"), &drops_where("N", &occupied, near(5)));
    assert_owned(&legal_drops(&p, "B"), &drops_where("B", &occupied, near(5)));
    assert_owned(&legal_drops(&p, "R"), &drops_where("R", &occupied, near(6)));
    let silver = drops_where("S", &occupied, |s| !in_palace(Color::White, s));
    assert_eq!(silver.len(), 70);
    assert_owned(&legal_drops(&p, "S"), &silver);
    assert_eq!(
        check(&p, "S*5b"),
        Err(IllegalMove::DropOutsideZone {
            kind: PieceKind::Silver,
            to: sq("5b")
        })
    );
    assert_eq!(
        check(&p, "R*5c"),
        Err(IllegalMove::DropOutsideZone {
            kind: PieceKind::Rook,
            to: sq("5c")
        })
    );
    assert_eq!(
        check(&p, "L*5d"),
        Err(IllegalMove::DropOutsideZone {
            kind: PieceKind::Lance,
            to: sq("5d")
        })
    );
    assert_eq!(
        check(&p, "P*5f"),
        Err(IllegalMove::NotInHand {
            kind: PieceKind::Footsoldier
        })
    );
    assert_eq!(
        check(&p, "S*9i"),
        Err(IllegalMove::DropOnOccupied { to: sq("9i") })
    );
}

#[test]
fn white_drop_zones_mirror_black() {
    let p = white_hand(&[("9i", "K"), ("1a", "k")], "rbsnlp");
    let occupied = ["9i", "1a"];
    let near = |n: u8| move |s: &str| nearness(Color::White, s) <= n;
    assert_owned(&legal_drops(&p, "P"), &drops_where("P", &occupied, near(4)));
    assert_owned(&legal_drops(&p, "L"), &drops_where("L", &occupied, near(5)));
    assert_owned(&legal_drops(&p, "N"), &drops_where("N", &occupied, near(5)));
    assert_owned(&legal_drops(&p, "B"), &drops_where("B", &occupied, near(5)));
    assert_owned(&legal_drops(&p, "R"), &drops_where("R", &occupied, near(6)));
    assert_owned(
        &legal_drops(&p, "S"),
        &drops_where("S", &occupied, |s| !in_palace(Color::Black, s)),
    );
}

#[test]
fn a_drop_may_not_give_an_enemy_cannon_a_screen_against_ones_own_king() {
    // White's cannon on 9a looks down file 9 at Black's king on 9i with nothing between: a
    // silver dropped on that file would become its screen.
    let p = black_hand(&[("9i", "K"), ("9a", "+l"), ("1a", "k")], "S");
    assert!(!p.in_check());
    let drops = legal_drops(&p, "S");
    let expected = drops_where("S", &["9i", "9a", "1a"], |s| {
        file_of(s) != 9 && !in_palace(Color::White, s)
    });
    assert_owned(&drops, &expected);
    assert_eq!(check(&p, "S*9e"), Err(IllegalMove::SelfCheck));
}

#[test]
fn a_side_has_at_most_five_footsoldiers_on_the_board() {
    // Five footsoldiers far up the board (beyond the file rule's six ranks); pawns do not
    // count.
    let mut pieces = vec![
        ("9i", "K"),
        ("9b", "P"),
        ("8b", "P"),
        ("7b", "P"),
        ("3b", "P"),
        ("2b", "P"),
        ("5g", "+P"),
        ("4g", "+P"),
        ("1a", "k"),
    ];
    let p = black_hand(&pieces, "P");
    assert_moves(&legal_drops(&p, "P"), &[]);
    assert_eq!(
        check(&p, "P*5f"),
        Err(IllegalMove::TooManyPawns {
            kind: PieceKind::Footsoldier,
            max: 5
        })
    );
    pieces.retain(|&(s, _)| s != "2b");
    let p = black_hand(&pieces, "P");
    assert_eq!(check(&p, "P*5f"), Ok(()));
    assert!(!legal_drops(&p, "P").is_empty());
}

#[test]
fn footsoldier_drop_may_not_give_checkmate() {
    // White's king on 1h: the rook on 2a holds file 2, the knight on 3h guards 1g and 1i.
    let p = black_hand(&[("9a", "K"), ("2a", "R"), ("3h", "+N"), ("1h", "k")], "SP");
    assert_eq!(
        check(&p, "P*1i"),
        Err(IllegalMove::PawnDropMate {
            kind: PieceKind::Footsoldier
        })
    );
    assert!(!legal_drops(&p, "P").contains(&"P*1i".to_string()));
    // Any other piece may mate by a drop.
    let g = game(p, "S*2i");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Checkmate
        })
    );
}

#[test]
fn footsoldier_drop_may_give_check() {
    // Without the knight the king takes the footsoldier on 1i: a plain check, allowed.
    let p = black_hand(&[("9a", "K"), ("2a", "R"), ("1h", "k")], "P");
    assert_eq!(check(&p, "P*1i"), Ok(()));
    let g = game(p, "P*1i");
    assert!(g.position().in_check());
    assert_eq!(g.outcome(), None);
}

#[test]
fn footsoldier_drop_may_not_mate_as_a_cannon_screen() {
    // White's king on 1e, Black's cannon on 1i. The rook on 2a holds 2d 2e (and guards the
    // horse on 2f), the horse guards 1d. On 1g or 1h the footsoldier becomes the cannon's
    // screen and mates; on 1f it checks but the king takes it.
    let p = black_hand(
        &[
            ("9a", "K"),
            ("1i", "+L"),
            ("2a", "R"),
            ("2f", "N"),
            ("1e", "k"),
        ],
        "P",
    );
    let file_1: Vec<String> = legal_drops(&p, "P")
        .into_iter()
        .filter(|c| c.starts_with("P*1"))
        .collect();
    assert_moves(&file_1, &["P*1f"]);
    for to in ["P*1g", "P*1h"] {
        assert_eq!(
            check(&p, to),
            Err(IllegalMove::PawnDropMate {
                kind: PieceKind::Footsoldier
            }),
            "{to}"
        );
    }
}

#[test]
fn footsoldier_drop_may_stalemate_which_is_a_draw() {
    // White's king on 1a has no square (knight 3c, silver 3a); its only move is the pawn's
    // step, which the footsoldier blocks.
    let p = black_hand(
        &[
            ("9i", "K"),
            ("3c", "+N"),
            ("3a", "S"),
            ("1a", "k"),
            ("5e", "+p"),
        ],
        "P",
    );
    assert_eq!(check(&p, "P*5f"), Ok(()));
    let g = game(p, "P*5f");
    assert!(!g.position().in_check());
    assert!(g.position().legal_moves().is_empty());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Stalemate
        })
    );
    assert_eq!(g.outcome().unwrap().describe(var()), "draw stalemate");
}

// ---------------------------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------------------------

#[test]
fn checkmate_wins() {
    // The silver dropped on 2b checks 1a; the gold on 2c guards 1b and 2b; 2a is the silver's.
    let p = black_hand(&[("9i", "K"), ("2c", "+S"), ("1a", "k")], "S");
    let g = game(p, "S*2b");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: Reason::Checkmate
        })
    );
    assert_eq!(g.outcome().unwrap().describe(var()), "win black checkmate");
    assert!(g.legal_moves().is_empty());
}

#[test]
fn fourth_occurrence_is_a_draw_even_when_one_side_checked_throughout() {
    // Black's rook checks on every move (1e, 2e, 1e, ...); White's king shuttles 1a-2b.
    let p = black(&[("3e", "R"), ("9i", "K"), ("1a", "k")]);
    let mut g = game(p, "3e1e");
    let cycle = "1a2b 1e2e 2b1a 2e1e";
    play(&mut g, cycle);
    play(&mut g, cycle);
    play(&mut g, "1a2b 1e2e 2b1a");
    assert_eq!(g.outcome(), None, "only the third occurrence so far");
    play(&mut g, "2e1e");
    assert!(g.position().in_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
    assert_eq!(g.outcome().unwrap().describe(var()), "draw repetition");
}

#[test]
fn repetition_counts_the_start_position_as_the_first_occurrence() {
    let p = black(&[("3e", "R"), ("9i", "K"), ("1a", "k")]);
    let cycle = "9i9h 1a1b 9h9i 1b1a";
    let mut g = game(p, cycle);
    play(&mut g, cycle);
    play(&mut g, "9i9h 1a1b 9h9i");
    assert_eq!(g.outcome(), None);
    play(&mut g, "1b1a");
    assert_eq!(
        g.outcome(),
        Some(Outcome::Draw {
            reason: Reason::Repetition
        })
    );
}

#[test]
fn castling_rights_and_en_passant_are_part_of_a_position_identity() {
    let pieces = castling_pieces();
    let with = parse(&sfen(&pieces, "b", "-", "9i1i9a1a", "-"));
    let without = parse(&sfen(&pieces, "b", "-", "-", "-"));
    assert_ne!(with.hash(), without.hash());
    let pieces = [("5e", "+p"), ("4e", "+P"), ("9i", "K"), ("1a", "k")];
    let ep = parse(&sfen(&pieces, "b", "-", "-", "5d"));
    let no_ep = parse(&sfen(&pieces, "b", "-", "-", "-"));
    assert_ne!(ep.hash(), no_ep.hash());
    // A position reached by moves hashes like the same position read from its string.
    let p = white(&[("5c", "+p"), ("1a", "k"), ("4e", "+P"), ("9i", "K")]);
    let g = game(p, "5c5e");
    let reread = parse(&fen::write(g.position()));
    assert_eq!(reread.hash(), g.position().hash());
    assert_eq!(reread.en_passant(), Some(sq("5d")));
    let g = game(Position::start(V), "5i4h 5a6b");
    let reread = parse(&fen::write(g.position()));
    assert_eq!(reread.hash(), g.position().hash());
}

// ---------------------------------------------------------------------------------------------
// Position strings
// ---------------------------------------------------------------------------------------------

#[test]
fn position_strings_with_castling_and_en_passant_round_trip() {
    let texts = [
        START.to_string(),
        format!(
            "{} b S2Pr 31 9i1a 4d",
            board_field(&[
                ("5i", "K"),
                ("9i", "L"),
                ("5g", "+P"),
                ("3e", "+P"),
                ("5a", "k"),
                ("1a", "l"),
                ("4e", "+p"),
                ("5c", "+p"),
            ])
        ),
        sfen(&castling_pieces(), "w", "-", "1i9a", "-"),
    ];
    for text in texts {
        let p = parse(&text);
        assert_eq!(fen::write(&p), text);
    }
    let g = game(Position::start(V), "7g7e 3c3e 7e7d 3e3f");
    let text = fen::write(g.position());
    assert_eq!(fields(g.position())[4..], ["9i1i9a1a", "-"]);
    assert_eq!(fen::write(&parse(&text)), text);
}

#[test]
fn malformed_rights_fields_give_a_clear_error() {
    let board = board_field(&castling_pieces());
    let castling = |field: &str| format!("{board} b - 1 {field} -");
    for bad in ["9i1", "5i", "9i9i", "xx", "9i1i9a1a1a", "9h"] {
        let err = fen::parse(var(), &castling(bad));
        match err {
            Err(e @ fen::FenError::Castling { .. }) => {
                let text = e.to_string();
                assert!(text.contains(bad) && text.contains("castling"), "{text}");
            }
            other => panic!("castling field {bad:?}: {other:?}"),
        }
    }
    // A right whose lance or king is not on its start square.
    let mut no_lance = castling_pieces();
    no_lance.retain(|&(s, _)| s != "9i");
    let text = sfen(&no_lance, "b", "-", "9i", "-");
    assert!(matches!(
        fen::parse(var(), &text),
        Err(fen::FenError::Castling { .. })
    ));
    let mut king_away = castling_pieces();
    king_away.retain(|&(s, _)| s != "5i");
    king_away.push(("4h", "K"));
    let text = sfen(&king_away, "b", "-", "9i", "-");
    assert!(matches!(
        fen::parse(var(), &text),
        Err(fen::FenError::Castling { .. })
    ));
    // En passant: wrong rank, no pawn that passed over it, no pawn ready to take it.
    let pieces = [("5e", "+p"), ("4e", "+P"), ("9i", "K"), ("1a", "k")];
    for bad in ["5e", "4d", "zz"] {
        let text = sfen(&pieces, "b", "-", "-", bad);
        assert!(
            matches!(
                fen::parse(var(), &text),
                Err(fen::FenError::EnPassant { .. })
            ),
            "en-passant field {bad:?}"
        );
    }
    let lonely = [("5e", "+p"), ("9i", "K"), ("1a", "k")];
    assert!(matches!(
        fen::parse(var(), &sfen(&lonely, "b", "-", "-", "5d")),
        Err(fen::FenError::EnPassant { .. })
    ));
    // The two extra fields are required.
    let short = format!("{board} b - 1");
    assert_eq!(
        fen::parse(var(), &short).err(),
        Some(fen::FenError::FieldCount {
            expected: 6,
            found: 4
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Move codes, notation and refusal messages
// ---------------------------------------------------------------------------------------------

#[test]
fn palace_move_codes_read_and_write() {
    let lion = lion_position();
    let cases = [
        (
            "5e5d4c",
            Move::Lion {
                from: sq("5e"),
                via: sq("5d"),
                to: sq("4c"),
            },
        ),
        (
            "5e5d5e",
            Move::Lion {
                from: sq("5e"),
                via: sq("5d"),
                to: sq("5e"),
            },
        ),
        (
            "5e5e",
            Move::Board {
                from: sq("5e"),
                to: sq("5e"),
                promote: false,
            },
        ),
        (
            "5e3g",
            Move::Board {
                from: sq("5e"),
                to: sq("3g"),
                promote: false,
            },
        ),
    ];
    for (text, m) in cases {
        assert_eq!(code::parse(&lion, text), Some(m), "{text}");
        assert_eq!(code::write(var(), m), text);
    }
    let castle = castling_position(&[], "b", "-");
    assert_eq!(
        code::parse(&castle, "5i3i"),
        Some(Move::Castle {
            from: sq("5i"),
            to: sq("3i")
        })
    );
}

#[test]
fn human_notation_for_palace_moves() {
    let start = Position::start(V);
    assert_eq!(
        input::parse_move(&start, "+P-5f"),
        Ok(Move::Board {
            from: sq("5g"),
            to: sq("5f"),
            promote: false
        })
    );
    let castle = castling_position(&[], "b", "-");
    assert_eq!(
        input::parse_move(&castle, "K-7i"),
        Ok(Move::Castle {
            from: sq("5i"),
            to: sq("7i")
        })
    );
    let lion = lion_position();
    let double = Move::Lion {
        from: sq("5e"),
        via: sq("5d"),
        to: sq("5c"),
    };
    assert_eq!(input::parse_move(&lion, "Ln5ex5d-5c"), Ok(double));
    assert_eq!(tegami::engine::notation::human(&lion, double), "Ln5ex5d-5c");
}

#[test]
fn refusals_explain_themselves() {
    let v = var();
    let cases = [
        (IllegalMove::QueenInPalace, "palace"),
        (IllegalMove::QueenWall, "palace"),
        (IllegalMove::LionTakesLion, "lion"),
        (IllegalMove::LionCannotStare, "stare"),
        (IllegalMove::LionFirstStepMustCapture, "capture"),
        (IllegalMove::SecondLion, "lion"),
        (IllegalMove::CannonScreen, "cannon"),
        (IllegalMove::CannonTarget, "cannon"),
        (IllegalMove::NoCastlingRight { lance: sq("9i") }, "9i"),
        (IllegalMove::CastlingBlocked, "empty"),
        (IllegalMove::CastlingInCheck, "check"),
        (IllegalMove::CastlingThroughCheck { square: sq("6i") }, "6i"),
        (
            IllegalMove::TooManyPawns {
                kind: PieceKind::Footsoldier,
                max: 5,
            },
            "5 footsoldiers",
        ),
        (
            IllegalMove::PawnDropMate {
                kind: PieceKind::Footsoldier,
            },
            "footsoldier",
        ),
        (
            IllegalMove::DropOutsideZone {
                kind: PieceKind::Silver,
                to: sq("5b"),
            },
            "enemy palace",
        ),
        (
            IllegalMove::TwoPawns {
                kind: PieceKind::Footsoldier,
                to: sq("3g"),
            },
            "6 nearest ranks",
        ),
    ];
    for (reason, word) in cases {
        let text = reason.message(v);
        assert!(text.contains(word), "{reason:?}: {text}");
    }
}
