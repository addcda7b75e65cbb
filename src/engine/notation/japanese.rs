//! Japanese move notation, as the Japan Shogi Association (JSA) writes moves in its records
//! (棋譜の表記方法), for Shogi, Judkins Shogi, Cannon Shogi and Palace Shogi.
//!
//! A move is written, in this order:
//!
//! 1. `▲` when Black (the first player) moves, `△` when White moves;
//! 2. the destination, file as a full-width digit and rank as a kanji numeral (`７六`; Judkins
//!    Shogi's 6×6 squares are `６六`…`１一`), or `同　` (同 and a full-width space, as KI2
//!    records write it) when the move goes to the square the previous move went to;
//! 3. the piece: 歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍 for the Shogi pieces (in every
//!    game but Palace Shogi), and for Cannon Shogi's cannons and every Palace Shogi piece the
//!    characters the kanji boards draw (`PieceKind::kanji`): 金砲 銀砲 銅砲 鉄砲 成金砲 …;
//!    卒 兵 香 砲 桂 騎 角 象 飛 龍 銀 全 后 獅 玉;
//! 4. when two or more pieces of that kind can go there, the JSA marks that tell them apart:
//!    the motion first — 上 (moves up, toward the opponent), 寄 (sideways), 引 (down) — when it
//!    alone names one piece; else the relative position — 右 / 左 (the piece on the mover's
//!    right / left), and 直 for a gold-mover (金, と, 成香, 成桂, 成銀, Palace Shogi's 全) or a
//!    silver going straight up — when it alone names one; else both, position first (`左上`).
//!    Golds and silvers are placed relative to the destination; every other piece (dragons and
//!    horses as the JSA says, and also rooks, bishops, knights) relative to the other one when
//!    there are two, so dragons and horses never get 直. JSA examples: three golds on ６九 ５九
//!    ４九 going to ５八 are `５八金左`, `５八金直`, `５八金右`; dragons on １三 and ２二 going to
//!    ２四 are `２四龍右` and `２四龍左`;
//! 5. `成` when the move promotes (forced or not), `不成` only when it could have promoted and
//!    does not, `打` on a drop only when a piece of the same kind on the board could also go
//!    there (`５五角打`; a drop nothing else could make is just `５五角`).
//!
//! Where the JSA rules do not reach (pieces of the variants only):
//!
//! - When the JSA marks cannot tell the pieces apart (possible only with pieces the JSA never
//!   met: several Palace Shogi knights 騎, Cannon Shogi pawns that step sideways), the start
//!   square follows in parentheses as KIF records write it: `▲５五騎(67)`.
//! - A Palace Shogi lion's double move (a capturing first step, then a second step) is written
//!   with the square of the first step in the destination's place, then `・` and the final
//!   square: `▲５四獅・５三` (captures on ５四, then goes to ５三, capturing there if a piece
//!   stands there). Going back to the start square (stationary feeding, 居喰い in chu shogi) is
//!   `▲５四獅居喰い`. The first square is `同　` when it is the previous move's destination:
//!   `▲同　獅・５三`. Staring (the lion passes, じっと) is `▲５五獅じっと`.
//! - Castling is written as the king's move, followed by キャスリング: `▲７九玉キャスリング`.
//! - A Palace Shogi pawn reaching the last rank becomes a queen with no mark (no choice);
//!   an en-passant capture is written as the pawn's move to its square (`▲４三兵`).
//!
//! Shanghai Palace Chess has no Japanese notation: its moves keep their algebraic form.
//!
//! The reader (`read`) takes what players type: `76歩`, `７六歩`, `▲７六歩`, `7六歩`, `同歩`,
//! `同　歩`, `55角打`, `22角成`, `22角不成` (also `22角生`), `58金右`, `58金寄`, the KIF start
//! square `７六歩(77)`, the lion's forms (also `54獅53`, `54獅→53`, `54獅居食い`, `55獅パス`)
//! and a few other names (王, 竜, 杏, 圭, 全, 獅子, 飛車). It computes the marks exactly as the
//! writer does, so every written form reads back as its move.

use crate::engine::notation::input::{hint_japanese, MoveInputError, Pattern};
use crate::engine::notation::Legal;
use crate::engine::{Color, Move, PieceKind, Position, Square, Variant, VariantId};

/// `同` and the full-width space that follows it.
pub const SAME: &str = "同\u{3000}";

const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The mark that begins a move of `c`: `▲` for Black, `△` for White.
pub fn side_mark(c: Color) -> char {
    match c {
        Color::Black => '▲',
        Color::White => '△',
    }
}

/// A square as Japanese records write it: `７六`.
pub fn square(v: &Variant, s: Square) -> String {
    let file = v.files() - s.col();
    let digit = char::from_u32('０' as u32 + u32::from(file)).unwrap_or('？');
    let rank = KANJI_DIGITS
        .get(usize::from(s.row()))
        .copied()
        .unwrap_or('？');
    format!("{digit}{rank}")
}

/// The short name of a kind in Japanese records of this game.
pub fn piece_name(v: &Variant, kind: PieceKind) -> &'static str {
    use PieceKind::*;
    if v.id() == VariantId::Palace {
        return kind.kanji();
    }
    match kind {
        PromotedLance => "成香",
        PromotedKnight => "成桂",
        PromotedSilver => "成銀",
        k => k.kanji(),
    }
}

/// Every name the reader takes for a kind of this game, the written one first.
fn names(v: &Variant) -> Vec<(&'static str, PieceKind)> {
    use PieceKind::*;
    let mut out = Vec::new();
    for l in v.spec.pieces.letters {
        let k = l.kind;
        out.push((piece_name(v, k), k));
        let extra: &[&'static str] = match k {
            King => &["王", "玉将", "王将"],
            Rook => &["飛車"],
            Bishop => &["角行"],
            Dragon | PalaceDragon => &["竜", "龍王", "竜王"],
            Horse => &["龍馬", "竜馬"],
            Tokin => &["と金"],
            PromotedLance => &["杏", "成香"],
            PromotedKnight => &["圭", "成桂"],
            PromotedSilver if v.id() == VariantId::Palace => &["金", "成銀"],
            PromotedSilver => &["全", "成銀"],
            Lion => &["獅子"],
            _ => &[],
        };
        out.extend(extra.iter().map(|&n| (n, k)));
    }
    out
}

/// How a piece moves to its destination, seen from its owner: 上, 寄 or 引.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    Up,
    Sideways,
    Down,
}

impl Motion {
    pub fn kanji(self) -> &'static str {
        match self {
            Motion::Up => "上",
            Motion::Sideways => "寄",
            Motion::Down => "引",
        }
    }
}

/// Where a piece stands among those that can go to a square: 右, 左 or 直.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Right,
    Left,
    Straight,
}

impl Place {
    pub fn kanji(self) -> &'static str {
        match self {
            Place::Right => "右",
            Place::Left => "左",
            Place::Straight => "直",
        }
    }
}

/// How far `a` is in front of `b`, seen from `c`.
fn ahead(c: Color, a: Square, b: Square) -> i16 {
    let d = i16::from(b.row()) - i16::from(a.row());
    match c {
        Color::Black => d,
        Color::White => -d,
    }
}

/// How far `a` is to the right of `b`, seen from `c` (Black's right is file 1).
fn right_of(c: Color, a: Square, b: Square) -> i16 {
    let d = i16::from(a.col()) - i16::from(b.col());
    match c {
        Color::Black => d,
        Color::White => -d,
    }
}

/// Golds, the pieces that move like golds, and silvers: the JSA places them relative to the
/// destination and writes 直 for a straight step up.
fn gold_or_silver(kind: PieceKind) -> bool {
    use PieceKind::*;
    matches!(
        kind,
        Gold | Tokin | PromotedLance | PromotedKnight | PromotedSilver | Silver
    )
}

/// The JSA marks of the piece on `from` going to `to`, among `froms` (the start squares of every
/// piece of `kind` of side `c` that can go there, `from` among them).
fn marks(
    kind: PieceKind,
    c: Color,
    from: Square,
    to: Square,
    froms: &[Square],
) -> (Option<Place>, Motion) {
    let motion = match ahead(c, to, from) {
        d if d > 0 => Motion::Up,
        0 => Motion::Sideways,
        _ => Motion::Down,
    };
    let side = |d: i16| match d {
        d if d > 0 => Some(Place::Right),
        d if d < 0 => Some(Place::Left),
        _ => None,
    };
    let place = if gold_or_silver(kind) {
        match right_of(c, from, to) {
            0 if motion == Motion::Up => Some(Place::Straight),
            d => side(d),
        }
    } else if froms.len() == 2 {
        let other = froms.iter().copied().find(|&f| f != from).unwrap_or(from);
        side(right_of(c, from, other))
    } else {
        side(right_of(c, from, to))
    };
    (place, motion)
}

/// The start squares among `froms` that fit the marks given.
fn fitting(
    kind: PieceKind,
    c: Color,
    to: Square,
    froms: &[Square],
    place: Option<Place>,
    motion: Option<Motion>,
) -> Vec<Square> {
    froms
        .iter()
        .copied()
        .filter(|&f| {
            let (p, m) = marks(kind, c, f, to, froms);
            place.is_none_or(|x| p == Some(x)) && motion.is_none_or(|x| m == x)
        })
        .collect()
}

/// The marks that name the piece on `from` among `froms`: nothing when it is alone, else the
/// motion, the place, both, or (past the JSA rules) the start square.
fn distinguish(
    v: &Variant,
    kind: PieceKind,
    c: Color,
    from: Square,
    to: Square,
    froms: &[Square],
) -> String {
    if froms.len() <= 1 {
        return String::new();
    }
    let (place, motion) = marks(kind, c, from, to, froms);
    let one = |p: Option<Place>, m: Option<Motion>| fitting(kind, c, to, froms, p, m).len() == 1;
    if one(None, Some(motion)) {
        return motion.kanji().to_string();
    }
    if let Some(p) = place {
        if one(Some(p), None) {
            return p.kanji().to_string();
        }
        if one(Some(p), Some(motion)) {
            return format!("{}{}", p.kanji(), motion.kanji());
        }
    }
    kif_square(v, from)
}

/// A start square as KIF records write it: `(77)`.
fn kif_square(v: &Variant, s: Square) -> String {
    format!("({}{})", v.files() - s.col(), s.row() + 1)
}

/// The start squares of the pieces of `kind` that can go to `to` (staring lions left out).
fn reaching(legal: &Legal, to: Square, kind: PieceKind) -> Vec<Square> {
    legal
        .reaching
        .get(&(to, kind))
        .map(|fs| fs.iter().copied().filter(|&f| f != to).collect())
        .unwrap_or_default()
}

/// Writes a move, legal in `pos`, in Japanese notation; `last` is where the previous move went.
pub fn write(pos: &Position, m: Move, last: Option<Square>) -> String {
    write_in(pos, m, &Legal::new(pos, &pos.legal_moves()), last)
}

/// `write`, with the legal moves of `pos` already indexed.
pub(crate) fn write_in(pos: &Position, m: Move, legal: &Legal, last: Option<Square>) -> String {
    let v = pos.variant();
    if v.spec.squares != crate::engine::variant::SquareNames::Shogi {
        return super::human_in(pos, m, legal);
    }
    let us = pos.side_to_move();
    let dest = |s: Square| {
        if Some(s) == last {
            SAME.to_string()
        } else {
            square(v, s)
        }
    };
    let mut s = String::new();
    s.push(side_mark(us));
    match m {
        Move::Drop { kind, to } => {
            s.push_str(&dest(to));
            s.push_str(piece_name(v, kind));
            if !reaching(legal, to, kind).is_empty() {
                s.push('打');
            }
        }
        Move::Lion { from, via, to } => {
            s.push_str(&dest(via));
            s.push_str(piece_name(v, PieceKind::Lion));
            if to == from {
                s.push_str("居喰い");
            } else {
                s.push('・');
                s.push_str(&square(v, to));
            }
        }
        Move::Board { from, to, .. } if from == to => {
            s.push_str(&square(v, to));
            s.push_str(pos.piece_at(from).map_or("?", |p| piece_name(v, p.kind)));
            s.push_str("じっと");
        }
        Move::Board { from, to, .. }
        | Move::Castle { from, to }
        | Move::EnPassant { from, to }
        | Move::PromoteTo { from, to, .. } => {
            let Some(p) = pos.piece_at(from) else {
                return super::code::write(v, m);
            };
            s.push_str(&dest(to));
            s.push_str(piece_name(v, p.kind));
            let froms = reaching(legal, to, p.kind);
            s.push_str(&distinguish(v, p.kind, us, from, to, &froms));
            match m {
                Move::Board { promote: true, .. } => s.push('成'),
                Move::Board { promote: false, .. }
                    if legal.contains(&Move::Board {
                        from,
                        to,
                        promote: true,
                    }) =>
                {
                    s.push_str("不成")
                }
                Move::Castle { .. } => s.push_str("キャスリング"),
                _ => {}
            }
        }
    }
    s
}

/// Whether a text is meant as Japanese notation (it has a character beyond ASCII).
pub fn looks_japanese(text: &str) -> bool {
    !text.is_ascii()
}

/// What the reader made of a Japanese move.
#[derive(Debug, Default)]
struct Reading {
    to: Option<Square>,
    kind: Option<PieceKind>,
    place: Option<Place>,
    motion: Option<Motion>,
    promote: Option<bool>,
    drop: bool,
    from: Option<Square>,
    /// The lion's second square (`・５三`).
    second: Option<Square>,
    /// 居喰い: the lion captures and goes back.
    feeding: bool,
    /// じっと: the lion passes.
    staring: bool,
    castling: bool,
}

fn full_to_ascii(c: char) -> char {
    match c {
        '０'..='９' => char::from_u32(c as u32 - '０' as u32 + '0' as u32).unwrap_or(c),
        '（' => '(',
        '）' => ')',
        '－' | 'ー' => '-',
        c => c,
    }
}

/// A file (digit) and a rank (digit, kanji numeral or letter) at the start of `chars`.
fn read_square(v: &Variant, chars: &[char]) -> Option<Result<Square, String>> {
    let f = full_to_ascii(*chars.first()?);
    let r = *chars.get(1)?;
    let file = f.to_digit(10)?;
    let rank = match full_to_ascii(r) {
        d @ '0'..='9' => d.to_digit(10)?,
        l @ 'a'..='i' => l as u32 - 'a' as u32 + 1,
        k => KANJI_DIGITS.iter().position(|&x| x == k)? as u32 + 1,
    };
    let token: String = chars[..2].iter().collect();
    if !(1..=u32::from(v.files())).contains(&file) || !(1..=u32::from(v.ranks())).contains(&rank) {
        return Some(Err(token));
    }
    Some(Ok(Square::new(v.files() - file as u8, (rank - 1) as u8)))
}

/// A square written alone as Japanese players write it (`７六`, `76`, `7六`), in a game with
/// shogi squares; `None` when the text is not one square of the board.
pub fn parse_square(v: &Variant, text: &str) -> Option<Square> {
    if v.spec.squares != crate::engine::variant::SquareNames::Shogi {
        return None;
    }
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != 2 {
        return None;
    }
    read_square(v, &chars)?.ok()
}

/// Reads a Japanese move (whitespace already removed) and resolves it in `pos`.
pub(crate) fn read(
    pos: &Position,
    text: &str,
    last: Option<Square>,
) -> Result<Move, MoveInputError> {
    let v = pos.variant();
    let unreadable = || MoveInputError::Unreadable {
        input: text.to_string(),
        hint: hint_japanese(pos, last),
    };
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let us = pos.side_to_move();
    if let Some(&c) = chars.first() {
        let side = match c {
            '▲' | '☗' | '▼' => Some(Color::Black),
            '△' | '☖' | '▽' => Some(Color::White),
            _ => None,
        };
        if let Some(side) = side {
            if side != us {
                return Err(MoveInputError::WrongSide {
                    written: text.to_string(),
                });
            }
            i = 1;
        }
    }
    let mut r = Reading::default();
    // The destination.
    if chars.get(i) == Some(&'同') {
        r.to = Some(last.ok_or(MoveInputError::NoPreviousMove)?);
        i += 1;
    } else {
        match read_square(v, &chars[i..]) {
            Some(Ok(s)) => {
                r.to = Some(s);
                i += 2;
            }
            Some(Err(token)) => return Err(super::input::no_such_square(pos, &token)),
            None => return Err(unreadable()),
        }
    }
    // The piece: the longest name that fits.
    let rest: String = chars[i..].iter().collect();
    let found = names(v)
        .into_iter()
        .filter(|(n, _)| rest.starts_with(n))
        .max_by_key(|(n, _)| n.chars().count());
    let Some((name, kind)) = found else {
        let name: String = rest
            .chars()
            .take_while(|c| !"右左直上寄引成不生打(（".contains(*c))
            .collect();
        if name.is_empty() {
            return Err(unreadable());
        }
        return Err(MoveInputError::UnknownPiece { name });
    };
    r.kind = Some(kind);
    i += name.chars().count();
    // The marks.
    let rest: String = chars[i..].iter().collect();
    let mut s = rest.as_str();
    while !s.is_empty() {
        if let Some(t) = s.strip_prefix("右").filter(|_| r.place.is_none()) {
            r.place = Some(Place::Right);
            s = t;
        } else if let Some(t) = s.strip_prefix("左").filter(|_| r.place.is_none()) {
            r.place = Some(Place::Left);
            s = t;
        } else if let Some(t) = s.strip_prefix("直").filter(|_| r.place.is_none()) {
            r.place = Some(Place::Straight);
            s = t;
        } else if let Some(t) = s
            .strip_prefix("上")
            .or_else(|| s.strip_prefix("行"))
            .filter(|_| r.motion.is_none())
        {
            r.motion = Some(Motion::Up);
            s = t;
        } else if let Some(t) = s.strip_prefix("寄").filter(|_| r.motion.is_none()) {
            r.motion = Some(Motion::Sideways);
            s = t;
        } else if let Some(t) = s.strip_prefix("引").filter(|_| r.motion.is_none()) {
            r.motion = Some(Motion::Down);
            s = t;
        } else if let Some(t) = s
            .strip_prefix("不成")
            .or_else(|| s.strip_prefix("生"))
            .filter(|_| r.promote.is_none())
        {
            r.promote = Some(false);
            s = t;
        } else if let Some(t) = s.strip_prefix("成").filter(|_| r.promote.is_none()) {
            r.promote = Some(true);
            s = t;
        } else if let Some(t) = s.strip_prefix("打").filter(|_| !r.drop) {
            r.drop = true;
            s = t;
        } else if let Some(t) = ["居喰い", "居食い", "居喰", "居食"]
            .iter()
            .find_map(|p| s.strip_prefix(*p))
        {
            r.feeding = true;
            s = t;
        } else if let Some(t) = ["じっと", "パス"].iter().find_map(|p| s.strip_prefix(*p)) {
            r.staring = true;
            s = t;
        } else if let Some(t) = s.strip_prefix("キャスリング") {
            r.castling = true;
            s = t;
        } else if let Some(t) = ["・", "→", "-", "－", "、"]
            .iter()
            .find_map(|p| s.strip_prefix(*p))
        {
            let cs: Vec<char> = t.chars().collect();
            match read_square(v, &cs) {
                Some(Ok(q)) if r.second.is_none() => {
                    r.second = Some(q);
                    s = &t[cs[..2].iter().map(|c| c.len_utf8()).sum::<usize>()..];
                }
                Some(Err(token)) => return Err(super::input::no_such_square(pos, &token)),
                _ => return Err(unreadable()),
            }
        } else if s.starts_with('(') || s.starts_with('（') {
            // The KIF start square: (77) or （７七）.
            let cs: Vec<char> = s.chars().collect();
            let close = cs.get(3).map(|&c| full_to_ascii(c));
            match (read_square(v, &cs[1..]), close) {
                (Some(Ok(q)), Some(')')) if r.from.is_none() => {
                    r.from = Some(q);
                    s = &s[cs[..4].iter().map(|c| c.len_utf8()).sum::<usize>()..];
                }
                (Some(Err(token)), _) => return Err(super::input::no_such_square(pos, &token)),
                _ => return Err(unreadable()),
            }
        } else if kind == PieceKind::Lion && r.second.is_none() {
            // `54獅53`: the second square with no sign.
            let cs: Vec<char> = s.chars().collect();
            match read_square(v, &cs) {
                Some(Ok(q)) => {
                    r.second = Some(q);
                    s = &s[cs[..2].iter().map(|c| c.len_utf8()).sum::<usize>()..];
                }
                Some(Err(token)) => return Err(super::input::no_such_square(pos, &token)),
                None => return Err(unreadable()),
            }
        } else {
            return Err(unreadable());
        }
    }
    resolve(pos, text, &r, last)
}

fn resolve(
    pos: &Position,
    text: &str,
    r: &Reading,
    last: Option<Square>,
) -> Result<Move, MoveInputError> {
    let v = pos.variant();
    let us = pos.side_to_move();
    let (Some(to), Some(kind)) = (r.to, r.kind) else {
        return Err(MoveInputError::Unreadable {
            input: text.to_string(),
            hint: hint_japanese(pos, last),
        });
    };
    let legal = pos.legal_moves();
    let index = Legal::new(pos, &legal);
    let stem = {
        let mut s = if Some(to) == last {
            SAME.to_string()
        } else {
            square(v, to)
        };
        s.push_str(piece_name(v, kind));
        s
    };
    let mut written = stem.clone();
    if let Some(p) = r.place {
        written.push_str(p.kanji());
    }
    if let Some(m) = r.motion {
        written.push_str(m.kanji());
    }
    let illegal = |m: Move| {
        let reason = pos.check_move(m).err();
        MoveInputError::Illegal {
            understood: written.clone(),
            why: reason.map_or_else(
                || format!("'{text}' is not a move in this position"),
                |r| r.message(v),
            ),
            reason,
        }
    };
    let special = r.second.is_some() || r.feeding || r.staring;
    if special {
        if kind != PieceKind::Lion
            || r.drop
            || r.promote.is_some()
            || r.place.is_some()
            || r.motion.is_some()
            || r.castling
            || usize::from(r.second.is_some()) + usize::from(r.feeding) + usize::from(r.staring) > 1
        {
            return Err(MoveInputError::Unreadable {
                input: text.to_string(),
                hint: hint_japanese(pos, last),
            });
        }
        let lion = r.from.or_else(|| {
            pos.pieces()
                .find(|(_, p)| p.color == us && p.kind == PieceKind::Lion)
                .map(|(s, _)| s)
        });
        let Some(from) = lion else {
            return Err(MoveInputError::Illegal {
                understood: written,
                why: "you have no lion on the board".into(),
                reason: None,
            });
        };
        let m = if r.staring {
            Move::Board {
                from,
                to: from,
                promote: false,
            }
        } else {
            Move::Lion {
                from,
                via: to,
                to: r.second.unwrap_or(from),
            }
        };
        return if legal.contains(&m) && (!r.staring || to == from) {
            Ok(m)
        } else {
            Err(illegal(m))
        };
    }
    let board: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| {
            m.to() == to
                && !matches!(m, Move::Lion { .. } | Move::Drop { .. })
                && m.from()
                    .is_some_and(|f| f != to && pos.piece_at(f).is_some_and(|p| p.kind == kind))
        })
        .collect();
    let drops: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| m == Move::Drop { kind, to })
        .collect();
    let froms = reaching(&index, to, kind);
    let marked = r.place.is_some() || r.motion.is_some() || r.from.is_some() || r.castling;
    let mut cands: Vec<Move> = if r.drop {
        if marked {
            return Err(MoveInputError::Unreadable {
                input: text.to_string(),
                hint: hint_japanese(pos, last),
            });
        }
        drops.clone()
    } else if marked || !board.is_empty() {
        let fit = fitting(kind, us, to, &froms, r.place, r.motion);
        board
            .iter()
            .copied()
            .filter(|m| {
                m.from().is_some_and(|f| fit.contains(&f))
                    && r.from.is_none_or(|x| m.from() == Some(x))
                    && (!r.castling || matches!(m, Move::Castle { .. }))
            })
            .collect()
    } else {
        drops.clone()
    };
    let all: Vec<Move> = if r.drop || (!marked && board.is_empty()) {
        drops.clone()
    } else {
        board.clone()
    };
    let forms = |ms: &[Move]| -> Vec<String> {
        ms.iter().map(|&m| write_in(pos, m, &index, last)).collect()
    };
    if cands.is_empty() && !all.is_empty() {
        return Err(MoveInputError::NoneFits {
            written,
            candidates: forms(&all),
        });
    }
    let before_promotion = cands.clone();
    if let Some(p) = r.promote {
        cands.retain(|m| m.promotes() == p);
    }
    match cands.len() {
        1 => return Ok(cands[0]),
        0 => {}
        _ => {
            cands.sort();
            return Err(MoveInputError::AmbiguousJapanese {
                written,
                candidates: forms(&cands),
            });
        }
    }
    // Nothing legal fits: let the general reader find the rule that forbids it.
    let from = match before_promotion.as_slice() {
        [m] => m.from(),
        _ => r.from,
    };
    let pat = Pattern {
        kind: Some(kind),
        from,
        to: Some(to),
        drop: if r.drop {
            Some(true)
        } else if marked || !board.is_empty() {
            Some(false)
        } else {
            None
        },
        promote: r.promote,
        ..Pattern::default()
    };
    super::input::resolve(pos, &pat, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::fen;

    fn pos(id: VariantId, sfen: &str) -> Position {
        fen::parse(Variant::get(id), sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
    }

    fn written(p: &Position, code: &str) -> String {
        let m = crate::engine::notation::code::parse(p, code).expect(code);
        write(p, m, None)
    }

    #[test]
    fn squares_are_full_width_files_and_kanji_ranks() {
        let v = Variant::get(VariantId::Shogi);
        assert_eq!(square(v, v.parse_square("7f").unwrap()), "７六");
        let j = Variant::get(VariantId::Judkins);
        assert_eq!(square(j, j.parse_square("6f").unwrap()), "６六");
        assert_eq!(square(j, j.parse_square("1a").unwrap()), "１一");
    }

    #[test]
    fn three_golds_in_a_row() {
        let p = pos(VariantId::Shogi, "4k4/9/9/9/9/9/9/9/3GGG2K b - 1");
        assert_eq!(written(&p, "6i5h"), "▲５八金左");
        assert_eq!(written(&p, "5i5h"), "▲５八金直");
        assert_eq!(written(&p, "4i5h"), "▲５八金右");
    }

    #[test]
    fn the_first_move() {
        let p = Position::start(VariantId::Shogi);
        assert_eq!(written(&p, "7g7f"), "▲７六歩");
        assert_eq!(
            read(&p, "76歩", None),
            Ok(crate::engine::notation::code::parse(&p, "7g7f").unwrap())
        );
    }
}
