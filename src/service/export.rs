//! Game exports for other software: SFEN with moves (every game), KIF and CSA (Shogi), and a
//! Fairy-Stockfish / pychess FEN (Shogi and Judkins Shogi).

use crate::engine::notation::{code, fen};
use crate::engine::{
    Color, Game, Move, Outcome, Piece, PieceKind, Position, Reason, Square, VariantId,
};
use crate::i18n::Msg;
use crate::msg;

/// The export of a game in `format`, or why it cannot be made. `outcome` is how the game ended
/// (the stored result: resignation, time and agreement are not on the board), if it has. The
/// refusal is a message, put into words in its reader's language.
pub fn export(
    game: &Game,
    format: &str,
    names: &[String; 2],
    outcome: Option<Outcome>,
) -> Result<String, Msg> {
    let v = game.variant();
    match format {
        "sfen" | "usi" => Ok(sfen(game)),
        "kif" if v.id() == VariantId::Shogi => Ok(kif(game, names, outcome)),
        "csa" if v.id() == VariantId::Shogi => Ok(csa(game, names, outcome)),
        "fen" if matches!(v.id(), VariantId::Shogi | VariantId::Judkins) => {
            Ok(fsf_fen(game.position()))
        }
        "kif" | "csa" => Err(msg!("export-shogi-only", format = format)),
        "fen" => Err(msg!("export-fen-only")),
        other => Err(msg!("export-unknown-format", format = other)),
    }
}

/// `position sfen <start> moves <codes>`, as USI engines read it.
pub fn sfen(game: &Game) -> String {
    let v = game.variant();
    let mut s = format!("position sfen {}", fen::write(game.start()));
    if !game.moves().is_empty() {
        s.push_str(" moves");
        for &m in game.moves() {
            s.push(' ');
            s.push_str(&code::write(v, m));
        }
    }
    s
}

/// A Fairy-Stockfish FEN: board with `[hands]`, side `w` for the first player (FSF's "white" is
/// sente), halfmove clock 0, full move number. Fairy-Stockfish writes pieces in hand by repeating
/// the letter (`[PPb]`: a count such as `2P` would read as one pawn), first player first.
pub fn fsf_fen(pos: &Position) -> String {
    let s = fen::write(pos);
    let board = s.split(' ').next().unwrap_or_default();
    let v = pos.variant();
    let mut hands = String::new();
    for c in Color::ALL {
        for &k in v.spec.pieces.hand_order {
            let letter = fen::piece_letter(v, Piece::new(k, c));
            for _ in 0..pos.hand(c, k) {
                hands.push_str(&letter);
            }
        }
    }
    if hands.is_empty() {
        hands.push('-');
    }
    let side = if pos.side_to_move() == Color::Black {
        "w"
    } else {
        "b"
    };
    format!("{board}[{hands}] {side} 0 {}", pos.ply() / 2 + 1)
}

const KIF_DIGITS: [&str; 10] = ["", "１", "２", "３", "４", "５", "６", "７", "８", "９"];
const KIF_RANKS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

fn kif_piece(k: PieceKind) -> &'static str {
    use PieceKind::*;
    match k {
        Pawn => "歩",
        Lance => "香",
        Knight => "桂",
        Silver => "銀",
        Gold => "金",
        Bishop => "角",
        Rook => "飛",
        King => "玉",
        Tokin => "と",
        PromotedLance => "成香",
        PromotedKnight => "成桂",
        PromotedSilver => "成銀",
        Horse => "馬",
        Dragon => "龍",
        _ => "？",
    }
}

fn file_rank(sq: Square) -> (usize, usize) {
    (9 - sq.col() as usize, sq.row() as usize + 1)
}

/// The KIF name of a Shogi handicap (`手合割`), by the handicap's name in Tegami.
fn kif_handicap(name: &str) -> Option<&'static str> {
    Some(match name {
        "lance" => "香落ち",
        "bishop" => "角落ち",
        "rook" => "飛車落ち",
        "rook-lance" => "飛香落ち",
        "two" => "二枚落ち",
        "four" => "四枚落ち",
        "six" => "六枚落ち",
        _ => return None,
    })
}

/// The `手合割` of a start position: `平手` for the usual start, the handicap's name for a
/// handicap start, `None` for any other position (written as a board diagram).
fn kif_start(start: &Position) -> Option<&'static str> {
    let v = start.variant();
    let written = fen::write(start);
    if written == v.spec.start {
        return Some("平手");
    }
    v.spec.handicaps.iter().find_map(|h| {
        let p = crate::engine::handicap_position(v.id(), h.name)?;
        (fen::write(&p) == written)
            .then(|| kif_handicap(h.name))
            .flatten()
    })
}

const KIF_COUNTS: [&str; 11] = ["", "", "二", "三", "四", "五", "六", "七", "八", "九", "十"];

/// A count of pieces in hand in kanji (`二`, `十八`), empty for one.
fn kif_count(n: u8) -> String {
    match n {
        0 | 1 => String::new(),
        2..=10 => KIF_COUNTS[n as usize].to_string(),
        _ => format!("十{}", KIF_RANKS[(n - 10).min(9) as usize]),
    }
}

/// The pieces in hand of a side, as a KIF header writes them (`飛　歩三`, `なし`).
fn kif_hand(pos: &Position, c: Color) -> String {
    let items: Vec<String> = pos
        .variant()
        .spec
        .pieces
        .hand_order
        .iter()
        .filter(|&&k| pos.hand(c, k) > 0)
        .map(|&k| format!("{}{}", kif_piece(k), kif_count(pos.hand(c, k))))
        .collect();
    if items.is_empty() {
        "なし".into()
    } else {
        items.join("　")
    }
}

/// The one-letter board-diagram names of the promoted pieces (`杏圭全`).
fn kif_board_piece(k: PieceKind) -> &'static str {
    match k {
        PieceKind::PromotedLance => "杏",
        PieceKind::PromotedKnight => "圭",
        PieceKind::PromotedSilver => "全",
        k => kif_piece(k),
    }
}

/// A KIF board diagram (BOD) of a start position that is neither even nor a handicap.
fn kif_diagram(start: &Position, sides: [&str; 2]) -> String {
    let mut out = format!("{}の持駒：{}\n", sides[1], kif_hand(start, Color::White));
    out.push_str("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for row in 0..9u8 {
        out.push('|');
        for col in 0..9u8 {
            match start.piece_at(Square::new(col, row)) {
                Some(Piece { kind, color }) => {
                    out.push(if color == Color::Black { ' ' } else { 'v' });
                    out.push_str(kif_board_piece(kind));
                }
                None => out.push_str(" ・"),
            }
        }
        out.push('|');
        out.push_str(KIF_RANKS[row as usize + 1]);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    out.push_str(&format!(
        "{}の持駒：{}\n",
        sides[0],
        kif_hand(start, Color::Black)
    ));
    if start.side_to_move() == Color::White {
        out.push_str(&format!("{}番\n", sides[1]));
    }
    out
}

/// KIF, the Japanese record format (Shogi): the start (`手合割` or a board diagram), the players
/// (`先手`/`後手`, or `下手`/`上手` in a handicap game), the moves, and the end: the closing move
/// (`投了`, `詰み`, `切れ負け`, `千日手`, `持将棋`, `入玉勝ち`, `反則勝ち`/`反則負け`) and the
/// closing line (`まで64手で先手の勝ち`), which shogi software reads the result from.
pub fn kif(game: &Game, names: &[String; 2], outcome: Option<Outcome>) -> String {
    // The header comment, in Japanese as KIF files write it (Kifu for Windows: `# ---- … 棋譜ファイル ----`).
    let mut out = String::from("# ---- Tegami 棋譜ファイル ----\n");
    let start = game.start();
    let teai = kif_start(start);
    let handicap = teai.is_some_and(|t| t != "平手");
    let sides = if handicap {
        ["下手", "上手"]
    } else {
        ["先手", "後手"]
    };
    match teai {
        Some(t) => out.push_str(&format!("手合割：{t}\n")),
        None => out.push_str(&kif_diagram(start, sides)),
    }
    out.push_str(&format!(
        "{}：{}\n{}：{}\n",
        sides[0], names[0], sides[1], names[1]
    ));
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = start.clone();
    let mut last_to: Option<Square> = None;
    for (i, &m) in game.moves().iter().enumerate() {
        let text = match m {
            Move::Drop { kind, to } => {
                let (f, r) = file_rank(to);
                format!("{}{}{}打", KIF_DIGITS[f], KIF_RANKS[r], kif_piece(kind))
            }
            Move::Board { from, to, promote } => {
                let piece = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                let (f, r) = file_rank(to);
                let (ff, fr) = file_rank(from);
                let dest = if last_to == Some(to) {
                    "同　".to_string()
                } else {
                    format!("{}{}", KIF_DIGITS[f], KIF_RANKS[r])
                };
                format!(
                    "{dest}{}{}({ff}{fr})",
                    kif_piece(piece),
                    if promote { "成" } else { "" }
                )
            }
            _ => code::write(pos.variant(), m),
        };
        out.push_str(&format!("{:>4} {}\n", i + 1, text));
        last_to = Some(m.to());
        pos.make(m);
    }
    if let Some(o) = outcome {
        let n = game.moves().len();
        let to_move = pos.side_to_move();
        let side = |c: Color| sides[c.index()];
        // The closing move is the act of the side to move; when the loser is the other side
        // (a resignation made on the opponent's turn) only the closing line is written.
        let (closing, last) = match o {
            Outcome::Win { winner, reason } => {
                let by_mover = winner != to_move;
                let closing = match reason {
                    Reason::Checkmate | Reason::Stalemate => Some("詰み"),
                    Reason::Resignation if by_mover => Some("投了"),
                    Reason::Timeout if by_mover => Some("切れ負け"),
                    Reason::PerpetualCheck if by_mover => Some("反則負け"),
                    Reason::PerpetualCheck => Some("反則勝ち"),
                    Reason::Impasse => Some("持将棋"),
                    Reason::Declaration => Some("入玉勝ち"),
                    _ => None,
                };
                let how = match reason {
                    Reason::PerpetualCheck => "反則勝ち",
                    Reason::Declaration => "入玉勝ち",
                    _ => "勝ち",
                };
                (closing, format!("まで{n}手で{}の{how}", side(winner)))
            }
            Outcome::Draw { reason } => match reason {
                Reason::Repetition => (Some("千日手"), format!("まで{n}手で千日手")),
                // KIF has no other draw than these two: an agreed draw is written as an
                // impasse (in Shogi, a draw by agreement is one), with a comment that says so.
                _ => {
                    if reason != Reason::Impasse {
                        out.push_str("*引き分け（合意）\n");
                    }
                    (Some("持将棋"), format!("まで{n}手で持将棋"))
                }
            },
        };
        if let Some(word) = closing {
            out.push_str(&format!("{:>4} {word}\n", n + 1));
        }
        out.push_str(&last);
        out.push('\n');
    }
    out
}

fn csa_piece(k: PieceKind) -> &'static str {
    use PieceKind::*;
    match k {
        Pawn => "FU",
        Lance => "KY",
        Knight => "KE",
        Silver => "GI",
        Gold => "KI",
        Bishop => "KA",
        Rook => "HI",
        King => "OU",
        Tokin => "TO",
        PromotedLance => "NY",
        PromotedKnight => "NK",
        PromotedSilver => "NG",
        Horse => "UM",
        Dragon => "RY",
        _ => "??",
    }
}

/// CSA, the computer shogi format (Shogi).
pub fn csa(game: &Game, names: &[String; 2], outcome: Option<Outcome>) -> String {
    let mut out = format!("V2.2\nN+{}\nN-{}\n", names[0], names[1]);
    let start = game.start();
    for row in 0..9u8 {
        out.push_str(&format!("P{}", row + 1));
        for col in 0..9u8 {
            match start.piece_at(Square::new(col, row)) {
                Some(Piece { kind, color }) => {
                    out.push(if color == Color::Black { '+' } else { '-' });
                    out.push_str(csa_piece(kind));
                }
                None => out.push_str(" * "),
            }
        }
        out.push('\n');
    }
    for (c, sign) in [(Color::Black, '+'), (Color::White, '-')] {
        let mut line = String::new();
        for &k in start.variant().spec.pieces.hand_order {
            for _ in 0..start.hand(c, k) {
                line.push_str(&format!("00{}", csa_piece(k)));
            }
        }
        if !line.is_empty() {
            out.push_str(&format!("P{sign}{line}\n"));
        }
    }
    out.push(if start.side_to_move() == Color::Black {
        '+'
    } else {
        '-'
    });
    out.push('\n');
    let mut pos = start.clone();
    for &m in game.moves() {
        let sign = if pos.side_to_move() == Color::Black {
            '+'
        } else {
            '-'
        };
        let text = match m {
            Move::Drop { kind, to } => {
                let (f, r) = file_rank(to);
                format!("{sign}00{f}{r}{}", csa_piece(kind))
            }
            Move::Board { from, to, promote } => {
                let piece = pos.piece_at(from).map_or(PieceKind::Pawn, |p| p.kind);
                let after = if promote {
                    pos.variant()
                        .spec
                        .promotion
                        .pairs
                        .iter()
                        .find(|(k, _)| *k == piece)
                        .map_or(piece, |(_, p)| *p)
                } else {
                    piece
                };
                let (f, r) = file_rank(to);
                let (ff, fr) = file_rank(from);
                format!("{sign}{ff}{fr}{f}{r}{}", csa_piece(after))
            }
            _ => code::write(pos.variant(), m),
        };
        out.push_str(&text);
        out.push('\n');
        pos.make(m);
    }
    if let Some(o) = outcome {
        out.push_str(&csa_end(o, pos.side_to_move()));
    }
    out
}

/// The CSA end of a game (`%TORYO`, `%TSUMI`, `%TIME_UP`, `%SENNICHITE`, `%JISHOGI`, `%KACHI`,
/// `%HIKIWAKE`), `to_move` being the side to move in the last position. CSA's closing words are
/// acts of the side to move; a loss that is not (a resignation made on the opponent's turn, a
/// perpetual check) is written `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION`, which name the loser,
/// after a comment that says what happened.
fn csa_end(o: Outcome, to_move: Color) -> String {
    let sign = |c: Color| if c == Color::Black { '+' } else { '-' };
    match o {
        Outcome::Win { winner, reason } => {
            let loser = !winner;
            let on_turn = loser == to_move;
            match reason {
                Reason::Checkmate | Reason::Stalemate => "%TSUMI\n".into(),
                Reason::Resignation if on_turn => "%TORYO\n".into(),
                Reason::Timeout if on_turn => "%TIME_UP\n".into(),
                Reason::Declaration if !on_turn => "%KACHI\n".into(),
                Reason::Impasse => format!("'{} wins on impasse points\n%JISHOGI\n", sign(winner)),
                Reason::PerpetualCheck => {
                    format!("'OUTE_SENNICHITE\n%{}ILLEGAL_ACTION\n", sign(loser))
                }
                other => format!(
                    "'{} loses by {}\n%{}ILLEGAL_ACTION\n",
                    sign(loser),
                    other.as_str(),
                    sign(loser)
                ),
            }
        }
        Outcome::Draw { reason } => match reason {
            Reason::Repetition => "%SENNICHITE\n".into(),
            Reason::Impasse => "%JISHOGI\n".into(),
            _ => "%HIKIWAKE\n".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::input::parse_move;

    fn game(id: VariantId, moves: &str) -> Game {
        let mut g = Game::new(Position::start(id));
        for t in moves.split_whitespace() {
            let m = parse_move(g.position(), t).unwrap();
            g.play(m).unwrap();
        }
        g
    }

    const NAMES: [String; 2] = [String::new(), String::new()];

    #[test]
    fn sfen_export_lists_the_start_and_every_move_code() {
        let g = game(VariantId::Palace, "5g5f 5c5e");
        assert_eq!(
            sfen(&g),
            "position sfen lns+sk+ssnl/1r2q2b1/+p+p+p+p+p+p+p+p+p/9/9/9/+P+P+P+P+P+P+P+P+P/1B2Q2R1/LNS+SK+SSNL b - 1 9i1i9a1a - moves 5g5f 5c5e"
        );
    }

    #[test]
    fn kif_writes_moves_captures_on_the_same_square_promotions_and_drops() {
        let g = game(VariantId::Shogi, "7g7f 3c3d 8h2b+ 3a2b B*4e");
        let kif = kif(&g, &NAMES, g.outcome());
        assert!(kif.contains("手合割：平手"), "{kif}");
        for line in [
            "   1 ７六歩(77)",
            "   2 ３四歩(33)",
            "   3 ２二角成(88)",
            "   4 同　銀(31)",
            "   5 ４五角打",
        ] {
            assert!(kif.contains(line), "{line} missing in\n{kif}");
        }
    }

    #[test]
    fn csa_writes_the_board_moves_with_the_piece_after_the_move_and_drops() {
        let g = game(VariantId::Shogi, "7g7f 3c3d 8h2b+ 3a2b B*4e");
        let csa = csa(&g, &NAMES, g.outcome());
        assert!(csa.starts_with("V2.2\n"));
        assert!(csa.contains("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"), "{csa}");
        for line in ["+7776FU", "-3334FU", "+8822UM", "-3122GI", "+0045KA"] {
            assert!(csa.lines().any(|l| l == line), "{line} missing in\n{csa}");
        }
    }

    #[test]
    fn fairy_stockfish_fen_has_bracketed_hands_and_white_for_the_first_player() {
        let start = fsf_fen(&Position::start(VariantId::Judkins));
        assert_eq!(start, "rbnsgk/5p/6/6/P5/KGSNBR[-] w 0 1");
        let g = game(VariantId::Shogi, "7g7f 3c3d 8h2b+ 3a2b");
        assert_eq!(
            fsf_fen(g.position()),
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bb] w 0 3"
        );
    }

    #[test]
    fn kif_and_csa_are_for_shogi_only_and_fen_for_shogi_and_judkins() {
        let palace = game(VariantId::Palace, "");
        assert!(export(&palace, "kif", &NAMES, None).is_err());
        assert!(export(&palace, "csa", &NAMES, None).is_err());
        assert!(export(&palace, "fen", &NAMES, None).is_err());
        assert!(export(&palace, "sfen", &NAMES, None).is_ok());
        assert!(export(&game(VariantId::Judkins, ""), "fen", &NAMES, None).is_ok());
        assert!(export(&palace, "pgn", &NAMES, None)
            .unwrap_err()
            .to_string()
            .contains("unknown export format"));
        let ja = export(&palace, "kif", &NAMES, None)
            .unwrap_err()
            .render(crate::i18n::Lang::Ja);
        assert!(ja.contains("将棋"), "{ja}");
    }
}
