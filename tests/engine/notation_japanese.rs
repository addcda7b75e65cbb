//! Japanese move notation (the Japan Shogi Association's, `engine::notation::japanese`):
//!
//! - the JSA's own disambiguation cases: golds and silvers by 上/寄/引, then 右/左/直, then both;
//!   dragons and horses by 右/左 only; `打` only when a board piece could go there too; `同　`;
//!   `成`/`不成` only where promotion is possible;
//! - the reader takes the forms players type and refuses an ambiguous move with the candidates;
//! - the variants' additions: Cannon Shogi's cannons, Palace Shogi's lion moves and castling;
//!   Shanghai Palace Chess keeps its algebraic form;
//! - a property over random positions of the four shogi games: every legal move's Japanese form
//!   reads back as that move, and no two legal moves share a form;
//! - a whole game written in Western and Japanese notation: both read as the same moves, and
//!   both are what the writers give.

use proptest::prelude::*;

use tegami::engine::notation::input::{parse_move, parse_move_after, MoveInputError};
use tegami::engine::notation::japanese;
use tegami::engine::notation::{code, fen, human, written, written_all, Notation};
use tegami::engine::{Game, Move, Position, Square, Variant, VariantId};

fn position(id: VariantId, s: &str) -> Position {
    fen::parse(Variant::get(id), s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn shogi(s: &str) -> Position {
    position(VariantId::Shogi, s)
}

fn mv(p: &Position, code_text: &str) -> Move {
    code::parse(p, code_text).unwrap_or_else(|| panic!("no move {code_text}"))
}

/// The Japanese form of a move given by its code.
fn ja(p: &Position, code_text: &str) -> String {
    japanese::write(p, mv(p, code_text), None)
}

/// A game after some moves (codes), with the last move's square.
fn after(id: VariantId, moves: &str) -> (Position, Option<Square>) {
    let mut g = Game::new(Position::start(id));
    for c in moves.split_whitespace() {
        let m = mv(g.position(), c);
        g.play(m).unwrap_or_else(|e| panic!("{c}: {e:?}"));
    }
    (g.position().clone(), g.moves().last().map(|m| m.to()))
}

fn read(p: &Position, text: &str, last: Option<Square>) -> Move {
    parse_move_after(p, text, last).unwrap_or_else(|e| panic!("'{text}' refused: {e}"))
}

// --- The JSA's cases ---------------------------------------------------------------------

#[test]
fn one_piece_that_can_go_there_gets_no_marks() {
    let p = Position::start(VariantId::Shogi);
    assert_eq!(ja(&p, "7g7f"), "▲７六歩");
    assert_eq!(ja(&p, "2h5h"), "▲５八飛");
    let (w, _) = after(VariantId::Shogi, "7g7f");
    assert_eq!(ja(&w, "3c3d"), "△３四歩");
}

#[test]
fn golds_side_by_side_are_told_apart_by_left_straight_right() {
    // Three golds on ６九 ５九 ４九, all going up to ５八: the motion is the same, the place
    // alone names each (JSA: 「５八金左」「５八金直」「５八金右」; 左上 would say too much).
    let p = shogi("4k4/9/9/9/9/9/9/9/3GGG2K b - 1");
    assert_eq!(ja(&p, "6i5h"), "▲５八金左");
    assert_eq!(ja(&p, "5i5h"), "▲５八金直");
    assert_eq!(ja(&p, "4i5h"), "▲５八金右");
    // Two golds: left and right.
    let p = shogi("4k4/9/9/9/9/9/9/9/3G1G2K b - 1");
    assert_eq!(ja(&p, "6i5h"), "▲５八金左");
    assert_eq!(ja(&p, "4i5h"), "▲５八金右");
}

#[test]
fn the_motion_comes_first_when_it_alone_names_the_piece() {
    // ６九 goes up, ４八 sideways: 上 and 寄, no 右/左.
    let p = shogi("4k4/9/9/9/9/9/9/5G3/3G4K b - 1");
    assert_eq!(ja(&p, "6i5h"), "▲５八金上");
    assert_eq!(ja(&p, "4h5h"), "▲５八金寄");
    // ５七 comes down, ４八 sideways.
    let p = shogi("4k4/9/9/9/9/9/4G4/5G3/8K b - 1");
    assert_eq!(ja(&p, "5g5h"), "▲５八金引");
    assert_eq!(ja(&p, "4h5h"), "▲５八金寄");
    // A gold straight up and another sideways: the motion (上), not 直.
    let p = shogi("4k4/9/9/9/9/9/9/5G3/4G3K b - 1");
    assert_eq!(ja(&p, "5i5h"), "▲５八金上");
    assert_eq!(ja(&p, "4h5h"), "▲５八金寄");
}

#[test]
fn place_and_motion_together_when_neither_alone_names_the_piece() {
    // ６九 (up, left), ５九 (straight up), ６八 (sideways, left): ６九 is 左上.
    let p = shogi("4k4/9/9/9/9/9/9/3G5/3GG3K b - 1");
    assert_eq!(ja(&p, "6i5h"), "▲５八金左上");
    assert_eq!(ja(&p, "5i5h"), "▲５八金直");
    assert_eq!(ja(&p, "6h5h"), "▲５八金寄");
}

#[test]
fn gold_movers_are_golds_for_these_rules() {
    // Tokins on ６九 ５九 ４九 (Black), as golds; 直 for the straight one.
    let p = shogi("4k4/9/9/9/9/9/9/9/3+P+P+P2K b - 1");
    assert_eq!(ja(&p, "6i5h"), "▲５八と左");
    assert_eq!(ja(&p, "5i5h"), "▲５八と直");
    assert_eq!(ja(&p, "4i5h"), "▲５八と右");
    // A promoted silver and a gold are different pieces: no marks.
    let p = shogi("4k4/9/9/9/9/9/9/9/3+SG3K b - 1");
    assert_eq!(ja(&p, "6i5h"), "▲５八成銀");
    assert_eq!(ja(&p, "5i5h"), "▲５八金");
}

#[test]
fn silvers_go_up_come_down_and_stand_left_right_or_straight() {
    let p = shogi("4k4/9/9/9/9/9/9/9/3S1S2K b - 1");
    assert_eq!(ja(&p, "6i5h"), "▲５八銀左");
    assert_eq!(ja(&p, "4i5h"), "▲５八銀右");
    let p = shogi("4k4/9/9/9/9/9/9/9/4SS2K b - 1");
    assert_eq!(ja(&p, "5i5h"), "▲５八銀直");
    assert_eq!(ja(&p, "4i5h"), "▲５八銀右");
    // ６七 comes down, ６九 goes up: 引 and 上.
    let p = shogi("4k4/9/9/9/9/9/3S5/9/3S4K b - 1");
    assert_eq!(ja(&p, "6g5h"), "▲５八銀引");
    assert_eq!(ja(&p, "6i5h"), "▲５八銀上");
    // ６七 and ４七 both come down, ６九 goes up: ６七 needs 左引? No: 左 is shared with ６九,
    // 引 with ４七, so both: 左引.
    let p = shogi("4k4/9/9/9/9/9/3S1S3/9/3S4K b - 1");
    assert_eq!(ja(&p, "6g5h"), "▲５八銀左引");
    assert_eq!(ja(&p, "4g5h"), "▲５八銀右");
    assert_eq!(ja(&p, "6i5h"), "▲５八銀上");
}

#[test]
fn white_sees_right_and_left_from_its_own_side() {
    // White golds on ６一 and ４一 going to ５二: ４一 is on White's left.
    let p = shogi("3g1g2k/9/9/9/9/9/9/9/K8 w - 1");
    assert_eq!(ja(&p, "6a5b"), "△５二金右");
    assert_eq!(ja(&p, "4a5b"), "△５二金左");
}

#[test]
fn dragons_and_horses_use_right_and_left_only() {
    // JSA: dragons on １三 and ２二, both coming down to ２四: 右 and 左 (the one on ２二 is
    // straight above ２四, still 左, never 直).
    let p = shogi("4k4/7+R1/8+R/9/9/9/9/9/K8 b - 1");
    assert_eq!(ja(&p, "1c2d"), "▲２四龍右");
    assert_eq!(ja(&p, "2b2d"), "▲２四龍左");
    // Horses on ９一 and ８一, both coming down to ８二: 左 and 右.
    let p = shogi("+B+B2k4/9/9/9/9/9/9/9/K8 b - 1");
    assert_eq!(ja(&p, "9a8b"), "▲８二馬左");
    assert_eq!(ja(&p, "8a8b"), "▲８二馬右");
    // Dragons on ５五 and ３三 going to ４四: one goes up, one comes down.
    let p = shogi("k8/9/6+R2/9/4+R4/9/9/9/8K b - 1");
    assert_eq!(ja(&p, "5e4d"), "▲４四龍上");
    assert_eq!(ja(&p, "3c4d"), "▲４四龍引");
    // A dragon straight up the file and one from below on the left: 右 and 左, not 直.
    let p = shogi("k8/9/9/9/9/3+R5/9/4+R4/8K b - 1");
    assert_eq!(ja(&p, "5h5e"), "▲５五龍右");
    assert_eq!(ja(&p, "6f5e"), "▲５五龍左");
}

#[test]
fn rooks_by_motion_then_right_and_left() {
    let p = shogi("4k4/9/9/9/R7R/9/9/9/K8 b - 1");
    assert_eq!(ja(&p, "9e5e"), "▲５五飛左");
    assert_eq!(ja(&p, "1e5e"), "▲５五飛右");
    let p = shogi("8k/9/9/9/R8/9/9/9/K3R4 b - 1");
    assert_eq!(ja(&p, "9e5e"), "▲５五飛寄");
    assert_eq!(ja(&p, "5i5e"), "▲５五飛上");
}

#[test]
fn knights_by_right_and_left() {
    let p = shogi("4k4/9/9/9/9/9/3N1N3/9/K8 b - 1");
    assert_eq!(ja(&p, "6g5e"), "▲５五桂左");
    assert_eq!(ja(&p, "4g5e"), "▲５五桂右");
}

#[test]
fn a_drop_is_marked_only_when_a_board_piece_could_go_there() {
    let p = shogi("4k4/9/9/9/9/9/9/9/K4G3 b G 1");
    assert_eq!(ja(&p, "G*4h"), "▲４八金打");
    assert_eq!(ja(&p, "4i4h"), "▲４八金");
    assert_eq!(ja(&p, "G*5e"), "▲５五金");
    // The reader: without 打 the board move is meant, with it the drop.
    assert_eq!(read(&p, "48金", None), mv(&p, "4i4h"));
    assert_eq!(read(&p, "48金打", None), mv(&p, "G*4h"));
    assert_eq!(read(&p, "55金", None), mv(&p, "G*5e"));
    assert_eq!(read(&p, "55金打", None), mv(&p, "G*5e"));
}

#[test]
fn promotion_is_marked_only_where_it_is_possible() {
    let p = shogi("4k4/9/9/6S2/9/9/9/8P/K8 b - 1");
    assert_eq!(ja(&p, "3d3c+"), "▲３三銀成");
    assert_eq!(ja(&p, "3d3c"), "▲３三銀不成");
    assert_eq!(ja(&p, "1h1g"), "▲１七歩");
    // A pawn reaching the last rank must promote: 成, never 不成.
    let p = shogi("4k4/8P/9/9/9/9/9/9/K8 b - 1");
    assert_eq!(ja(&p, "1b1a+"), "▲１一歩成");
    // The reader needs the choice where there is one.
    let p2 = shogi("4k4/9/9/6S2/9/9/9/8P/K8 b - 1");
    assert_eq!(read(&p2, "33銀成", None), mv(&p2, "3d3c+"));
    assert_eq!(read(&p2, "33銀不成", None), mv(&p2, "3d3c"));
    assert_eq!(read(&p2, "33銀生", None), mv(&p2, "3d3c"));
    assert_eq!(read(&p, "11歩成", None), mv(&p, "1b1a+"));
    assert_eq!(read(&p, "11歩", None), mv(&p, "1b1a+"));
}

#[test]
fn the_square_of_the_previous_move_is_dou() {
    let (p, last) = after(VariantId::Shogi, "7g7f 3c3d 8h2b+");
    assert_eq!(japanese::write(&p, mv(&p, "3a2b"), last), "△同　銀");
    assert_eq!(read(&p, "同銀", last), mv(&p, "3a2b"));
    assert_eq!(read(&p, "同　銀", last), mv(&p, "3a2b"));
    assert_eq!(read(&p, "△同　銀", last), mv(&p, "3a2b"));
    assert_eq!(read(&p, "22銀", last), mv(&p, "3a2b"));
    // Elsewhere 同 is not written.
    assert_eq!(japanese::write(&p, mv(&p, "4a3b"), last), "△３二金");
    // With no previous move, 同 is refused.
    assert_eq!(
        parse_move_after(&p, "同銀", None),
        Err(MoveInputError::NoPreviousMove)
    );
}

// --- The reader ----------------------------------------------------------------------------

#[test]
fn the_forms_players_type_are_read() {
    let p = Position::start(VariantId::Shogi);
    let m = mv(&p, "7g7f");
    for text in [
        "76歩",
        "７六歩",
        "▲７六歩",
        "7六歩",
        "▲76歩",
        "☗７六歩",
        "７六歩(77)",
        "76歩（７７）",
    ] {
        assert_eq!(read(&p, text, None), m, "{text}");
    }
    // parse_move keeps working for the old callers (no previous move).
    assert_eq!(parse_move(&p, "76歩"), Ok(m));
    // 22角成 and 22角不成 after ▲７六歩 △３四歩.
    let (p, last) = after(VariantId::Shogi, "7g7f 3c3d");
    assert_eq!(read(&p, "22角成", last), mv(&p, "8h2b+"));
    assert_eq!(read(&p, "22角不成", last), mv(&p, "8h2b"));
    // 55角打 with a bishop in hand.
    let (p, last) = after(VariantId::Shogi, "7g7f 3c3d 8h2b+ 3a2b");
    assert_eq!(read(&p, "55角打", last), mv(&p, "B*5e"));
    assert_eq!(read(&p, "55角", last), mv(&p, "B*5e"));
    // 58金右 and 58金寄.
    let p = Position::start(VariantId::Shogi);
    assert_eq!(read(&p, "58金右", None), mv(&p, "4i5h"));
    assert_eq!(read(&p, "58金左", None), mv(&p, "6i5h"));
    let p = shogi("4k4/9/9/9/9/9/9/5G3/3G4K b - 1");
    assert_eq!(read(&p, "58金寄", None), mv(&p, "4h5h"));
    assert_eq!(read(&p, "58金上", None), mv(&p, "6i5h"));
    // Other names: 王 for 玉, 竜 for 龍.
    let p = shogi("k8/9/6+R2/9/4+R4/9/9/9/8K b - 1");
    assert_eq!(read(&p, "44竜上", None), mv(&p, "5e4d"));
    assert_eq!(read(&p, "18王", None), mv(&p, "1i1h"));
}

#[test]
fn an_ambiguous_move_is_refused_with_its_candidates() {
    let p = Position::start(VariantId::Shogi);
    let e = parse_move(&p, "58金").unwrap_err();
    let MoveInputError::AmbiguousJapanese {
        written,
        candidates,
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!(written, "５八金");
    let mut c = candidates.clone();
    c.sort();
    assert_eq!(c, ["▲５八金右", "▲５八金左"]);
    let text = e.to_string();
    assert!(
        text == "５八金: 右 or 左?" || text == "５八金: 左 or 右?",
        "{text}"
    );
    // Promotion or not.
    let (p, last) = after(VariantId::Shogi, "7g7f 3c3d");
    let e = parse_move_after(&p, "22角", last).unwrap_err();
    assert!(
        matches!(e, MoveInputError::AmbiguousJapanese { .. }),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(text.contains('成') && text.contains("不成"), "{text}");
    for c in match &e {
        MoveInputError::AmbiguousJapanese { candidates, .. } => candidates.clone(),
        _ => unreachable!(),
    } {
        assert!(parse_move_after(&p, &c, last).is_ok(), "{c}");
    }
}

#[test]
fn impossible_moves_are_refused_with_a_reason() {
    let p = Position::start(VariantId::Shogi);
    // No rook can go to ５五.
    assert!(matches!(
        parse_move(&p, "55飛"),
        Err(MoveInputError::Illegal { .. })
    ));
    // A mark that fits no piece: the moves there are offered.
    let e = parse_move(&p, "58金直").unwrap_err();
    let MoveInputError::NoneFits { candidates, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(candidates.len(), 2);
    // A pawn that cannot promote there.
    assert!(matches!(
        parse_move(&p, "76歩成"),
        Err(MoveInputError::Illegal { .. })
    ));
    // Off the board (Judkins Shogi is 6×6), unknown pieces, the wrong side, nonsense.
    let j = Position::start(VariantId::Judkins);
    assert!(matches!(
        parse_move(&j, "77歩"),
        Err(MoveInputError::NoSuchSquare { .. })
    ));
    assert!(matches!(
        parse_move(&p, "76象"),
        Err(MoveInputError::UnknownPiece { .. })
    ));
    assert!(matches!(
        parse_move(&p, "△76歩"),
        Err(MoveInputError::WrongSide { .. })
    ));
    assert!(matches!(
        parse_move(&p, "歩76"),
        Err(MoveInputError::Unreadable { .. })
    ));
    assert!(matches!(
        parse_move(&p, "76歩打成"),
        Err(MoveInputError::Illegal { .. }) | Err(MoveInputError::Unreadable { .. })
    ));
}

// --- The variants --------------------------------------------------------------------------

#[test]
fn judkins_squares_run_from_66_to_11() {
    let p = Position::start(VariantId::Judkins);
    assert_eq!(ja(&p, "6e6d"), "▲６四歩");
    assert_eq!(read(&p, "64歩", None), mv(&p, "6e6d"));
    assert_eq!(read(&p, "６四歩", None), mv(&p, "6e6d"));
}

#[test]
fn cannon_shogi_cannons_use_their_kanji() {
    let p = Position::start(VariantId::Cannon);
    let legal = p.legal_moves();
    let forms = written_all(&p, &legal, Notation::Japanese, None);
    assert!(forms.iter().any(|f| f.contains("砲")), "{forms:?}");
    for (m, f) in legal.iter().zip(&forms) {
        assert_eq!(read(&p, f, None), *m, "{f}");
    }
}

#[test]
fn palace_shogi_lion_and_castling_forms() {
    // Black lion on ５五, White footsoldiers on ５四 and ５三.
    let p = position(VariantId::Palace, "4k4/9/4p4/4p4/4+Q4/9/9/9/4K4 b - 1 - -");
    let double = mv(&p, "5e5d5c");
    assert_eq!(japanese::write(&p, double, None), "▲５四獅・５三");
    let feeding = mv(&p, "5e5d5e");
    assert_eq!(japanese::write(&p, feeding, None), "▲５四獅居喰い");
    let staring = mv(&p, "5e5e");
    assert_eq!(japanese::write(&p, staring, None), "▲５五獅じっと");
    assert_eq!(japanese::write(&p, mv(&p, "5e5d"), None), "▲５四獅");
    for (text, m) in [
        ("54獅53", double),
        ("54獅・53", double),
        ("５四獅→５三", double),
        ("54獅居食い", feeding),
        ("55獅じっと", staring),
        ("55獅パス", staring),
    ] {
        assert_eq!(read(&p, text, None), m, "{text}");
    }
    // 同 for the first step.
    let last = Some(mv(&p, "5e5d").to());
    assert_eq!(japanese::write(&p, double, last), "▲同　獅・５三");
    assert_eq!(read(&p, "同獅・５三", last), double);
    // Castling: the king's move and キャスリング.
    let p = position(
        VariantId::Palace,
        "lns+sk+ssnl/1r2q2b1/+p+p+p+p+p+p+p+p+p/9/9/9/+P+P+P+P+P+P+P+P+P/1B2Q2R1/L3K+SSNL b - 1 9i1i9a1a -",
    );
    let castle = mv(&p, "5i7i");
    assert!(matches!(castle, Move::Castle { .. }));
    assert_eq!(japanese::write(&p, castle, None), "▲７九玉キャスリング");
    assert_eq!(read(&p, "79玉", None), castle);
    assert_eq!(read(&p, "７九玉キャスリング", None), castle);
}

#[test]
fn pieces_the_jsa_marks_cannot_tell_apart_name_their_start_square() {
    // Three Palace Shogi knights (騎) in reach of ５五: ７六 and ６七 both below on the left
    // (左上), ４七 below on the right. The KIF start square names the first two.
    let p = position(
        VariantId::Palace,
        "5k3/9/9/9/9/2+N6/3+N1+N3/9/3K5 b - 1 - -",
    );
    assert_eq!(ja(&p, "7f5e"), "▲５五騎(76)");
    assert_eq!(ja(&p, "6g5e"), "▲５五騎(67)");
    assert_eq!(ja(&p, "4g5e"), "▲５五騎右");
    assert_eq!(read(&p, "55騎(76)", None), mv(&p, "7f5e"));
    assert_eq!(read(&p, "５五騎（６七）", None), mv(&p, "6g5e"));
    let e = parse_move(&p, "55騎左").unwrap_err();
    assert!(
        matches!(e, MoveInputError::AmbiguousJapanese { .. }),
        "{e:?}"
    );
}

#[test]
fn palace_shogi_golds_are_written_as_drawn() {
    // Palace Shogi's gold is a promoted silver, drawn 全 (and read as 金 too).
    let p = Position::start(VariantId::Palace);
    assert_eq!(ja(&p, "4i4h"), "▲４八全");
    assert_eq!(read(&p, "48金", None), mv(&p, "4i4h"));
    assert_eq!(read(&p, "48全", None), mv(&p, "4i4h"));
}

#[test]
fn shanghai_keeps_its_algebraic_form() {
    let p = Position::start(VariantId::Shanghai);
    for m in p.legal_moves() {
        assert_eq!(written(&p, m, Notation::Japanese, None), human(&p, m));
    }
}

// --- Random positions ------------------------------------------------------------------------

const SHOGI_GAMES: [VariantId; 4] = [
    VariantId::Shogi,
    VariantId::Judkins,
    VariantId::Cannon,
    VariantId::Palace,
];

/// Plays the choices as random legal moves (each choice picks among the legal moves),
/// stopping when the game ends.
fn playout(id: VariantId, choices: &[u32]) -> Game {
    let mut g = Game::new(Position::start(id));
    for &c in choices {
        if g.is_over() {
            break;
        }
        let legal = g.legal_moves();
        if legal.is_empty() {
            break;
        }
        // Prefer captures and drops a little: they make the positions where several pieces
        // can reach one square.
        let m = legal[c as usize % legal.len()];
        if g.play(m).is_err() {
            break;
        }
    }
    g
}

fn check_position(g: &Game) -> Result<(), TestCaseError> {
    let p = g.position();
    let last = g.moves().last().map(|m| m.to());
    let legal = p.legal_moves();
    let forms = written_all(p, &legal, Notation::Japanese, last);
    let mut seen = std::collections::HashMap::new();
    for (m, f) in legal.iter().zip(&forms) {
        prop_assert_eq!(
            &japanese::write(p, *m, last),
            f,
            "written_all and write disagree"
        );
        if let Some(other) = seen.insert(f.clone(), *m) {
            prop_assert!(
                false,
                "{} and {} are both written {} in {}",
                code::write(p.variant(), other),
                code::write(p.variant(), *m),
                f,
                fen::write(p)
            );
        }
        let back = parse_move_after(p, f, last);
        prop_assert_eq!(
            back.clone(),
            Ok(*m),
            "{} ({}) in {} read back as {:?}",
            f,
            code::write(p.variant(), *m),
            fen::write(p),
            back
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_legal_move_reads_back_from_its_japanese_form(
        game in 0usize..4,
        choices in prop::collection::vec(any::<u32>(), 0..120),
    ) {
        let g = playout(SHOGI_GAMES[game], &choices);
        check_position(&g)?;
    }
}

/// Positions with several pieces of one kind in reach of the same squares, from random
/// playouts that keep going: every position along the way is checked (a slower but wider
/// sweep than the property above, on fixed seeds).
#[test]
fn long_random_games_read_back_at_every_ply() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for id in SHOGI_GAMES {
        for _ in 0..3 {
            let mut g = Game::new(Position::start(id));
            for _ in 0..200 {
                if g.is_over() {
                    break;
                }
                check_position(&g).unwrap_or_else(|e| panic!("{id:?}: {e}"));
                let legal = g.legal_moves();
                if legal.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = legal[(seed % legal.len() as u64) as usize];
                g.play(m).expect("a legal move");
            }
        }
    }
}

// --- A whole game ----------------------------------------------------------------------------

/// A whole game of Shogi (a Static Rook against Ranging Rook opening, pawn exchanges answered
/// with 同, drops, promotions, golds told apart by 右 and 上; White's king is about to fall), as move codes, in Western (Hodges) and in Japanese (KI2) notation.
const GAME_CODES: &str = "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b \
5i6h 5a6b 6h7h 6b7b 5g5f 7a8b 4i5h 9c9d \
9g9f 3a3b 2e2d 2c2d 2h2d P*2c 2d2h 4d4e \
8h3c+ 2a3c B*6e 4e4f 4g4f 4b4f P*4g 4f4b \
6e8c+ 7b8c 2h2c+ 3b2c 7f7e 4b4g+ 4h4g R*2h \
6i6h 2h2i+ 7e7d B*6e 7d7c+ 8c7c";
const GAME_WESTERN: &str = "P-7f P-3d P-2f P-4d P-2e B-3c S-4h R-4b \
K-6h K-6b K-7h K-7b P-5f S-8b G4i-5h P-9d \
P-9f S-3b P-2d Px2d Rx2d P*2c R-2h P-4e \
Bx3c+ Nx3c B*6e P-4f Px4f Rx4f P*4g R-4b \
Bx8c+ Kx8c Rx2c+ Sx2c P-7e Rx4g+ Sx4g R*2h \
G6i-6h Rx2i+ P-7d B*6e Px7c+ Kx7c";
const GAME_JAPANESE: &str = "▲７六歩 △３四歩 ▲２六歩 △４四歩 ▲２五歩 △３三角 ▲４八銀 △４二飛 \
▲６八玉 △６二玉 ▲７八玉 △７二玉 ▲５六歩 △８二銀 ▲５八金右 △９四歩 \
▲９六歩 △３二銀 ▲２四歩 △同　歩 ▲同　飛 △２三歩 ▲２八飛 △４五歩 \
▲３三角成 △同　桂 ▲６五角 △４六歩 ▲同　歩 △同　飛 ▲４七歩 △４二飛 \
▲８三角成 △同　玉 ▲２三飛成 △同　銀 ▲７五歩 △４七飛成 ▲同　銀 △２八飛 \
▲６八金上 △２九飛成 ▲７四歩 △６五角 ▲７三歩成 △同　玉";

#[test]
fn a_whole_game_agrees_in_western_and_japanese() {
    let codes: Vec<&str> = GAME_CODES.split_whitespace().collect();
    let western: Vec<&str> = GAME_WESTERN.split_whitespace().collect();
    let japanese_forms: Vec<&str> = GAME_JAPANESE.split(' ').filter(|s| !s.is_empty()).collect();
    assert_eq!(codes.len(), western.len());
    assert_eq!(codes.len(), japanese_forms.len());
    let mut g = Game::new(Position::start(VariantId::Shogi));
    for ((c, w), j) in codes.iter().zip(&western).zip(&japanese_forms) {
        let p = g.position().clone();
        let last = g.moves().last().map(|m| m.to());
        let m = mv(&p, c);
        assert_eq!(parse_move_after(&p, w, last), Ok(m), "{w}");
        assert_eq!(parse_move_after(&p, j, last), Ok(m), "{j}");
        assert_eq!(written(&p, m, Notation::Western, last), *w);
        assert_eq!(written(&p, m, Notation::Japanese, last), *j);
        g.play(m).unwrap_or_else(|e| panic!("{c}: {e:?}"));
    }
}
