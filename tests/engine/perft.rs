//! Perft: the number of leaf nodes of the legal move tree, the standard check of a move
//! generator.
//!
//! One generic runner reads every `tests/data/*.perft` file (the file name is the variant id;
//! the format is described at the top of each file) and checks the engine against each line.
//! A file named after a variant of the design that the engine does not know yet is skipped
//! with a note, so its figures start being checked the day the variant is added (as
//! `palace.perft` and `shanghai.perft` were); every variant of `VariantId::ALL` must have one.
//!
//! Lines marked `slow` run only with `TEGAMI_SLOW_PERFT=1`:
//!
//! ```text
//! TEGAMI_SLOW_PERFT=1 cargo test --release --test engine perft:: -- --nocapture
//! ```
//!
//! The figures that do not come from an outside source are checked by a second, deliberately
//! naive move generator written in this file from the rules texts (`reference`): it shares no
//! code with the engine beyond reading the position through the public accessors, and it checks
//! itself against the outside figures of the start positions first. The same reference is also
//! compared with the engine move by move along random games.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use tegami::engine::notation::{code, fen};
use tegami::engine::{perft, Game, Move, Position, Variant, VariantId};

/// Entries up to this many nodes are also counted by the reference generator.
const REFERENCE_LIMIT: u64 = 150_000;
/// With `TEGAMI_SLOW_PERFT=1`, the reference also counts entries up to this many nodes.
const REFERENCE_LIMIT_SLOW: u64 = 3_000_000;
/// Entries up to this many nodes are also checked with `Game::perft` and a per-move breakdown.
const CROSS_CHECK_LIMIT: u64 = 200_000;

/// Every variant id the design names; a data file must be named after one of them.
const DESIGN_IDS: &[&str] = &["shogi", "judkins", "cannon", "palace", "shanghai"];

fn slow_enabled() -> bool {
    std::env::var("TEGAMI_SLOW_PERFT").is_ok_and(|v| !v.is_empty() && v != "0")
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
}

/// One line of a data file.
#[derive(Debug, Clone)]
struct Entry {
    /// `file:line`, for messages.
    at: String,
    /// `None` for the start position.
    position: Option<String>,
    moves: Vec<String>,
    depth: u32,
    nodes: u64,
    slow: bool,
}

impl Entry {
    /// The game after the entry's moves.
    fn game(&self, id: VariantId) -> Result<Game, String> {
        let v = Variant::get(id);
        let start = match &self.position {
            None => Position::start(id),
            Some(s) => fen::parse(v, s).map_err(|e| format!("{}: bad position: {e}", self.at))?,
        };
        let mut g = Game::new(start);
        for text in &self.moves {
            let m = code::parse(g.position(), text)
                .ok_or_else(|| format!("{}: unreadable move code '{text}'", self.at))?;
            g.play(m)
                .map_err(|e| format!("{}: move '{text}': {}", self.at, e.message(v)))?;
        }
        Ok(g)
    }

    fn describe(&self) -> String {
        let mut s = self.position.clone().unwrap_or_else(|| "startpos".into());
        if !self.moves.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.moves.join(" "));
        }
        format!("{} [{s}] depth {}", self.at, self.depth)
    }
}

/// Parses a data file. Format errors are errors, so that a typo never silently skips a line.
fn parse_file(path: &Path) -> Result<Vec<Entry>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let at = format!("{name}:{}", i + 1);
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let pos_field = fields.next().unwrap();
        let (pos_part, moves) = match pos_field.split_once(" moves ") {
            Some((p, m)) => (p.trim(), m.split_whitespace().map(String::from).collect()),
            None => (pos_field, Vec::new()),
        };
        let position = if pos_part == "startpos" {
            None
        } else if let Some(p) = pos_part.strip_prefix("position ") {
            Some(p.trim().to_string())
        } else {
            return Err(format!(
                "{at}: a line starts with 'startpos' or 'position <string>', not '{pos_part}'"
            ));
        };
        let (mut depth, mut nodes, mut slow) = (None, None, false);
        for f in fields {
            if let Some(d) = f.strip_prefix("depth=") {
                depth = Some(d.parse().map_err(|_| format!("{at}: bad depth '{d}'"))?);
            } else if let Some(n) = f.strip_prefix("nodes=") {
                let n = n.replace('_', "");
                nodes = Some(
                    n.parse()
                        .map_err(|_| format!("{at}: bad node count '{n}'"))?,
                );
            } else if f == "slow" {
                slow = true;
            } else {
                return Err(format!("{at}: unknown field '{f}'"));
            }
        }
        let (Some(depth), Some(nodes)) = (depth, nodes) else {
            return Err(format!("{at}: depth= and nodes= are both required"));
        };
        if nodes > 3_000_000 && !slow {
            return Err(format!(
                "{at}: {nodes} nodes is too many for the normal run: mark the line 'slow'"
            ));
        }
        out.push(Entry {
            at,
            position,
            moves,
            depth,
            nodes,
            slow,
        });
    }
    Ok(out)
}

/// Every data file with the variant it is for (`None`: not a variant of the engine yet).
fn data_files() -> Vec<(PathBuf, Option<VariantId>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data_dir())
        .expect("tests/data exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let stem = p.file_stem().unwrap().to_string_lossy().to_string();
            assert!(
                DESIGN_IDS.contains(&stem.as_str()),
                "{}: a perft file is named after a variant id ({})",
                p.display(),
                DESIGN_IDS.join(", ")
            );
            let id = VariantId::ALL.iter().copied().find(|v| v.as_str() == stem);
            (p, id)
        })
        .collect()
}

/// Every entry of every file of a known variant, with its variant.
fn all_entries() -> Vec<(VariantId, Entry)> {
    let mut out = Vec::new();
    for (path, id) in data_files() {
        let entries = parse_file(&path).unwrap_or_else(|e| panic!("{e}"));
        match id {
            Some(id) => out.extend(entries.into_iter().map(|e| (id, e))),
            None => eprintln!(
                "note: {} is for a variant the engine does not know yet: skipped",
                path.display()
            ),
        }
    }
    out
}

#[test]
fn data_files_are_well_formed() {
    for (path, _) in data_files() {
        let entries = parse_file(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(!entries.is_empty(), "{}: no entries", path.display());
    }
}

#[test]
fn every_variant_has_perft_data_from_its_start() {
    let files = data_files();
    for &id in VariantId::ALL {
        let (path, _) = files
            .iter()
            .find(|(_, v)| *v == Some(id))
            .unwrap_or_else(|| panic!("no tests/data/{}.perft", id.as_str()));
        let entries = parse_file(path).unwrap();
        assert!(
            entries
                .iter()
                .any(|e| e.position.is_none() && e.moves.is_empty()),
            "{}: no figure from the start position",
            path.display()
        );
    }
}

#[test]
fn perft_matches_data() {
    let slow = slow_enabled();
    let mut failures = Vec::new();
    let mut skipped = 0;
    for (id, e) in all_entries() {
        if e.slow && !slow {
            skipped += 1;
            continue;
        }
        let game = match e.game(id) {
            Ok(g) => g,
            Err(msg) => {
                failures.push(msg);
                continue;
            }
        };
        let t0 = std::time::Instant::now();
        let mut pos = game.position().clone();
        let n = perft(&mut pos, e.depth);
        eprintln!(
            "{}: {n} nodes in {:.2?}",
            e.describe(),
            std::time::Instant::now() - t0
        );
        if n != e.nodes {
            failures.push(format!(
                "{}: expected {}, engine {n}",
                e.describe(),
                e.nodes
            ));
            continue;
        }
        assert!(
            pos == *game.position() && pos.hash() == game.position().hash(),
            "{}: perft did not restore the position",
            e.describe()
        );
        if e.nodes <= CROSS_CHECK_LIMIT {
            // Below eight plies no position can occur a third time (Shanghai Palace Chess
            // forbids that) or a fourth (sennichite), so the game's perft agrees.
            if e.depth < 8 {
                let g = game.perft(e.depth);
                if g != n {
                    failures.push(format!("{}: Game::perft gives {g}", e.describe()));
                }
            }
            if e.depth >= 1 {
                let mut sum = 0;
                for m in game.legal_moves() {
                    let mut child = game.position().clone();
                    let u = child.make(m);
                    sum += perft(&mut child, e.depth - 1);
                    child.unmake(m, u);
                }
                if sum != n {
                    failures.push(format!(
                        "{}: the per-move breakdown sums to {sum}",
                        e.describe()
                    ));
                }
            }
        }
    }
    if skipped > 0 {
        eprintln!("{skipped} slow entries skipped: set TEGAMI_SLOW_PERFT=1 to run them");
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
}

/// The reference generator must agree with every small figure of the data files, the outside
/// figures of the start positions included (that is what makes it a credible second opinion on
/// the positions whose figures it produced).
#[test]
fn reference_generator_matches_data() {
    let limit = if slow_enabled() {
        REFERENCE_LIMIT_SLOW
    } else {
        REFERENCE_LIMIT
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for (id, e) in all_entries() {
        if e.nodes > limit {
            continue;
        }
        let game = e.game(id).unwrap_or_else(|m| panic!("{m}"));
        let Some(r) = reference::RefPos::from_position(game.position()) else {
            continue;
        };
        let n = r.perft(e.depth);
        checked += 1;
        if n != e.nodes {
            failures.push(format!(
                "{}: expected {}, reference {n}",
                e.describe(),
                e.nodes
            ));
        }
    }
    assert!(checked > 0, "the reference checked nothing");
    assert!(
        failures.is_empty(),
        "reference mismatches:\n{}",
        failures.join("\n")
    );
}

/// A tiny deterministic generator (xorshift), so failures are reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Along random games (biased toward captures, so hands fill and drops, promotions and
/// pawn-drop checks come up), the engine's legal moves are exactly the reference's.
#[test]
fn engine_and_reference_agree_along_random_games() {
    let games = if slow_enabled() { 200 } else { 24 };
    for &id in VariantId::ALL {
        let start = Position::start(id);
        if reference::RefPos::from_position(&start).is_none() {
            eprintln!("note: no reference rules for {}: skipped", id.as_str());
            continue;
        }
        let v = Variant::get(id);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (id as u64 + 1));
        for game_no in 0..games {
            let mut pos = start.clone();
            let mut played = Vec::new();
            for _ply in 0..160 {
                let engine: BTreeSet<Move> = pos.legal_moves().into_iter().collect();
                let r = reference::RefPos::from_position(&pos).unwrap();
                let refm: BTreeSet<Move> = r.legal_moves().into_iter().collect();
                if engine != refm {
                    let names = |s: &BTreeSet<Move>| -> Vec<String> {
                        s.iter().map(|&m| code::write(v, m)).collect()
                    };
                    let only_engine: BTreeSet<Move> = engine.difference(&refm).copied().collect();
                    let only_ref: BTreeSet<Move> = refm.difference(&engine).copied().collect();
                    panic!(
                        "{} game {game_no}: position {}\n(after {})\nonly the engine: {:?}\nonly the reference: {:?}",
                        id.as_str(),
                        fen::write(&pos),
                        played.join(" "),
                        names(&only_engine),
                        names(&only_ref)
                    );
                }
                if engine.is_empty() {
                    break;
                }
                let moves: Vec<Move> = engine.into_iter().collect();
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.from().is_some() && pos.piece_at(m.to()).is_some())
                    .collect();
                let m = if !captures.is_empty() && rng.below(3) > 0 {
                    captures[rng.below(captures.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                played.push(code::write(v, m));
                pos.make(m);
            }
        }
    }
}

/// Figures of positions built for the purpose, derived by hand (the reasoning is in the data
/// files' comments); this test re-derives the first one from scratch in code, as a check on
/// the counting rules themselves rather than on either generator.
#[test]
fn pawn_drop_mate_position_counted_by_hand() {
    // Black: K 9i, G 1c, a pawn in hand. White: K 1a, N 2a, S 2b.
    let v = Variant::get(VariantId::Shogi);
    let pos = fen::parse(v, "7nk/7s1/8G/9/9/9/9/9/K8 b P 1").unwrap();
    // King 9i: 8i, 9h, 8h. Gold 1c: 1b, 2b (takes the silver), 2c, 1d.
    let board_moves = 3 + 4;
    // A pawn may go on every empty square of ranks b..i (72 squares less 2b, 1c and 9i), but
    // not on 1b, where it would mate: the king cannot take it (the gold guards 1b) and its
    // other squares are its own pieces'.
    let drops = 72 - 3 - 1;
    assert_eq!(pos.legal_moves().len(), board_moves + drops);
    let mut p = pos.clone();
    assert_eq!(perft(&mut p, 1), 75);
    let mate = Move::Drop {
        kind: tegami::engine::PieceKind::Pawn,
        to: v.parse_square("1b").unwrap(),
    };
    assert!(!pos.legal_moves().contains(&mate));
    assert!(pos.check_move(mate).is_err());
}

/// No move is listed twice, in any position of the data files.
#[test]
fn legal_moves_are_listed_once_in_data_positions() {
    for (id, e) in all_entries() {
        let game = e.game(id).unwrap_or_else(|m| panic!("{m}"));
        let moves = game.legal_moves();
        let set: BTreeSet<Move> = moves.iter().copied().collect();
        assert_eq!(
            set.len(),
            moves.len(),
            "{}: a move listed twice",
            e.describe()
        );
    }
}

#[test]
fn palace_elephant_moves_are_listed_once() {
    let id = VariantId::parse("palace").expect("Palace Shogi");
    let pos = fen::parse(Variant::get(id), "7k1/9/9/9/4+B4/9/9/9/K8 b - 1 - -").unwrap();
    // By hand: the elephant on 5e slides to 6d 7c 8b 9a, 4d 3c 2b 1a, 6f 7g 8h (its king is
    // on 9i) and 4f 3g 2h 1i: 15; steps to 5d 5f 4e 6e: 4; its jumps reach 7c 3c 7g 3g, which
    // the slides reach already. The king on 9i: 9h 8h 8i. 22 moves.
    let moves = pos.legal_moves();
    let set: BTreeSet<Move> = moves.iter().copied().collect();
    assert_eq!(set.len(), 22);
    assert_eq!(moves.len(), 22, "moves listed twice");
    assert_eq!(perft(&mut pos.clone(), 1), 22);
}

/// A deliberately simple move generator written from the rules texts and `rules.md`: boards as
/// vectors, moves tried by copying the position, king safety by generating every enemy move.
/// Slow, but too simple to share a mistake with the engine's tables.
mod reference {
    use tegami::engine::{Color, Move, Piece, PieceKind, Position, Square};
    use PieceKind::*;

    /// What a game's rules are, as far as the reference needs them.
    #[derive(Clone, Copy, Debug)]
    struct Rules {
        files: i32,
        ranks: i32,
        zone: i32,
        /// The pawn of the game (the two-pawn and pawn-drop-mate rules apply to it).
        pawn: PieceKind,
        /// Kinds that may be held in hand.
        hand: &'static [PieceKind],
    }

    const SHOGI: Rules = Rules {
        files: 9,
        ranks: 9,
        zone: 3,
        pawn: Pawn,
        hand: &[Rook, Bishop, Gold, Silver, Knight, Lance, Pawn],
    };
    const JUDKINS: Rules = Rules {
        files: 6,
        ranks: 6,
        zone: 2,
        pawn: Pawn,
        hand: &[Rook, Bishop, Gold, Silver, Knight, Pawn],
    };
    const CANNON: Rules = Rules {
        files: 9,
        ranks: 9,
        zone: 3,
        pawn: SidePawn,
        hand: &[
            Rook,
            Bishop,
            GoldCannon,
            SilverCannon,
            CopperCannon,
            IronCannon,
            Gold,
            Silver,
            Knight,
            Lance,
            SidePawn,
        ],
    };

    const ORTH: &[(i32, i32)] = &[(0, 1), (0, -1), (1, 0), (-1, 0)];
    const DIAG: &[(i32, i32)] = &[(1, 1), (-1, 1), (1, -1), (-1, -1)];
    const KING: &[(i32, i32)] = &[
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ];
    const GOLD: &[(i32, i32)] = &[(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1)];
    const SILVER: &[(i32, i32)] = &[(0, 1), (1, 1), (-1, 1), (1, -1), (-1, -1)];

    /// How a kind moves: steps (or leaps), slides, cannon jumps over an adjacent piece, cannon
    /// ranges over at least one piece. Offsets are `(right, forward)` seen from the owner.
    struct Movement {
        steps: Vec<(i32, i32)>,
        slides: Vec<(i32, i32)>,
        jumps: Vec<(i32, i32)>,
        ranges: Vec<(i32, i32)>,
    }

    fn movement(k: PieceKind) -> Movement {
        let mut m = Movement {
            steps: vec![],
            slides: vec![],
            jumps: vec![],
            ranges: vec![],
        };
        match k {
            King => m.steps.extend(KING),
            Gold | Tokin | PromotedLance | PromotedKnight | PromotedSilver => m.steps.extend(GOLD),
            Silver => m.steps.extend(SILVER),
            Knight => m.steps.extend([(1, 2), (-1, 2)]),
            Pawn => m.steps.push((0, 1)),
            SidePawn => m.steps.extend([(0, 1), (1, 0), (-1, 0)]),
            Lance => m.slides.push((0, 1)),
            Rook => m.slides.extend(ORTH),
            Bishop => m.slides.extend(DIAG),
            Dragon => {
                m.slides.extend(ORTH);
                m.steps.extend(DIAG);
            }
            Horse => {
                m.slides.extend(DIAG);
                m.steps.extend(ORTH);
            }
            GoldCannon => m.ranges.extend(ORTH),
            CopperCannon => m.ranges.extend(DIAG),
            SilverCannon => m.jumps.extend(ORTH),
            IronCannon => m.jumps.extend(DIAG),
            PromotedGoldCannon => {
                m.ranges.extend(ORTH);
                m.steps.extend(KING);
            }
            PromotedCopperCannon => {
                m.ranges.extend(DIAG);
                m.steps.extend(KING);
            }
            PromotedSilverCannon => {
                m.jumps.extend(ORTH);
                m.steps.extend(KING);
            }
            PromotedIronCannon => {
                m.jumps.extend(DIAG);
                m.steps.extend(KING);
            }
            other => panic!("the reference does not know the {other:?}"),
        }
        m
    }

    fn promoted(k: PieceKind) -> Option<PieceKind> {
        Some(match k {
            Pawn | SidePawn => Tokin,
            Lance => PromotedLance,
            Knight => PromotedKnight,
            Silver => PromotedSilver,
            Bishop => Horse,
            Rook => Dragon,
            GoldCannon => PromotedGoldCannon,
            SilverCannon => PromotedSilverCannon,
            CopperCannon => PromotedCopperCannon,
            IronCannon => PromotedIronCannon,
            _ => return None,
        })
    }

    /// A position for the reference.
    #[derive(Clone)]
    pub struct RefPos {
        rules: Rules,
        /// `board[row][col]`, row 0 at the top (White's side), col 0 at the left (Black's view).
        board: Vec<Vec<Option<Piece>>>,
        hands: [Vec<(PieceKind, u8)>; 2],
        side: Color,
    }

    impl RefPos {
        /// Reads an engine position, if the reference knows its game.
        pub fn from_position(p: &Position) -> Option<RefPos> {
            let rules = match p.variant().id().as_str() {
                "shogi" => SHOGI,
                "judkins" => JUDKINS,
                "cannon" => CANNON,
                _ => return None,
            };
            let board = (0..rules.ranks)
                .map(|row| {
                    (0..rules.files)
                        .map(|col| p.piece_at(Square::new(col as u8, row as u8)))
                        .collect()
                })
                .collect();
            let hands = [Color::Black, Color::White]
                .map(|c| rules.hand.iter().map(|&k| (k, p.hand(c, k))).collect());
            Some(RefPos {
                rules,
                board,
                hands,
                side: p.side_to_move(),
            })
        }

        fn at(&self, col: i32, row: i32) -> Option<Option<Piece>> {
            if (0..self.rules.files).contains(&col) && (0..self.rules.ranks).contains(&row) {
                Some(self.board[row as usize][col as usize])
            } else {
                None
            }
        }

        /// `(right, forward)` seen from `c` to a board delta `(dcol, drow)`.
        fn turn(c: Color, (dx, dy): (i32, i32)) -> (i32, i32) {
            match c {
                Color::Black => (dx, -dy),
                Color::White => (-dx, dy),
            }
        }

        /// Rows counted from `c`'s far edge (0 = the last rank for `c`).
        fn far(&self, c: Color, row: i32) -> i32 {
            match c {
                Color::Black => row,
                Color::White => self.rules.ranks - 1 - row,
            }
        }

        fn in_zone(&self, c: Color, row: i32) -> bool {
            self.far(c, row) < self.rules.zone
        }

        /// A piece of kind `k` of `c` could never move again on `row`.
        fn stuck(&self, c: Color, k: PieceKind, row: i32) -> bool {
            let f = self.far(c, row);
            match k {
                Pawn | SidePawn | Lance => f < 1,
                Knight => f < 2,
                _ => false,
            }
        }

        /// Squares the piece on `(col, row)` could move to by its movement alone.
        fn targets(&self, col: i32, row: i32) -> Vec<(i32, i32)> {
            let p = self.board[row as usize][col as usize].expect("a piece");
            let mv = movement(p.kind);
            let mut out = Vec::new();
            let free = |c: i32, r: i32| -> Option<bool> {
                // Some(true): empty or enemy (may land); Some(false): own piece; None: off.
                self.at(c, r).map(|o| o.is_none_or(|q| q.color != p.color))
            };
            for &o in &mv.steps {
                let (dc, dr) = Self::turn(p.color, o);
                if free(col + dc, row + dr) == Some(true) {
                    out.push((col + dc, row + dr));
                }
            }
            for &o in &mv.slides {
                let (dc, dr) = Self::turn(p.color, o);
                let (mut c, mut r) = (col + dc, row + dr);
                while let Some(sq) = self.at(c, r) {
                    match sq {
                        None => out.push((c, r)),
                        Some(q) => {
                            if q.color != p.color {
                                out.push((c, r));
                            }
                            break;
                        }
                    }
                    c += dc;
                    r += dr;
                }
            }
            for &o in &mv.jumps {
                let (dc, dr) = Self::turn(p.color, o);
                if let Some(Some(_)) = self.at(col + dc, row + dr) {
                    if free(col + 2 * dc, row + 2 * dr) == Some(true) {
                        out.push((col + 2 * dc, row + 2 * dr));
                    }
                }
            }
            for &o in &mv.ranges {
                let (dc, dr) = Self::turn(p.color, o);
                let (mut c, mut r) = (col + dc, row + dr);
                let mut jumped = false;
                while let Some(sq) = self.at(c, r) {
                    if jumped && sq.is_none_or(|q| q.color != p.color) {
                        out.push((c, r));
                    }
                    if sq.is_some() {
                        jumped = true;
                    }
                    c += dc;
                    r += dr;
                }
            }
            out
        }

        fn king(&self, c: Color) -> Option<(i32, i32)> {
            for row in 0..self.rules.ranks {
                for col in 0..self.rules.files {
                    if self.board[row as usize][col as usize] == Some(Piece::new(King, c)) {
                        return Some((col, row));
                    }
                }
            }
            None
        }

        /// Whether a piece of `by` could capture on `sq` on its next move.
        fn attacked(&self, sq: (i32, i32), by: Color) -> bool {
            for row in 0..self.rules.ranks {
                for col in 0..self.rules.files {
                    if self.board[row as usize][col as usize].is_some_and(|p| p.color == by)
                        && self.targets(col, row).contains(&sq)
                    {
                        return true;
                    }
                }
            }
            false
        }

        fn in_check(&self, c: Color) -> bool {
            self.king(c).is_some_and(|k| self.attacked(k, !c))
        }

        fn hand_mut(&mut self, c: Color, k: PieceKind) -> &mut u8 {
            &mut self.hands[c as usize]
                .iter_mut()
                .find(|(h, _)| *h == k)
                .expect("a kind that can be held")
                .1
        }

        fn unpromoted(&self, k: PieceKind) -> PieceKind {
            match k {
                Tokin => self.rules.pawn,
                PromotedLance => Lance,
                PromotedKnight => Knight,
                PromotedSilver => Silver,
                Horse => Bishop,
                Dragon => Rook,
                PromotedGoldCannon => GoldCannon,
                PromotedSilverCannon => SilverCannon,
                PromotedCopperCannon => CopperCannon,
                PromotedIronCannon => IronCannon,
                k => k,
            }
        }

        fn after(&self, m: Move) -> RefPos {
            let mut p = self.clone();
            let us = self.side;
            if let Move::Board { from, to, promote } = m {
                let mut piece = p.board[from.row() as usize][from.col() as usize]
                    .take()
                    .expect("a piece to move");
                if let Some(cap) = p.board[to.row() as usize][to.col() as usize] {
                    let k = self.unpromoted(cap.kind);
                    *p.hand_mut(us, k) += 1;
                }
                if promote {
                    piece.kind = promoted(piece.kind).expect("a piece that promotes");
                }
                p.board[to.row() as usize][to.col() as usize] = Some(piece);
            } else if let Move::Drop { kind, to } = m {
                *p.hand_mut(us, kind) -= 1;
                p.board[to.row() as usize][to.col() as usize] = Some(Piece::new(kind, us));
            } else {
                panic!("the reference does not play {m:?}");
            }
            p.side = !us;
            p
        }

        fn pseudo_moves(&self) -> Vec<Move> {
            let us = self.side;
            let sq = |c: i32, r: i32| Square::new(c as u8, r as u8);
            let mut out = Vec::new();
            for row in 0..self.rules.ranks {
                for col in 0..self.rules.files {
                    let Some(p) = self.board[row as usize][col as usize] else {
                        continue;
                    };
                    if p.color != us {
                        continue;
                    }
                    for (c, r) in self.targets(col, row) {
                        let (from, to) = (sq(col, row), sq(c, r));
                        if promoted(p.kind).is_some()
                            && (self.in_zone(us, row) || self.in_zone(us, r))
                        {
                            out.push(Move::Board {
                                from,
                                to,
                                promote: true,
                            });
                        }
                        if !self.stuck(us, p.kind, r) {
                            out.push(Move::Board {
                                from,
                                to,
                                promote: false,
                            });
                        }
                    }
                }
            }
            for &(kind, n) in &self.hands[us as usize] {
                if n == 0 {
                    continue;
                }
                for row in 0..self.rules.ranks {
                    for col in 0..self.rules.files {
                        if self.board[row as usize][col as usize].is_some()
                            || self.stuck(us, kind, row)
                        {
                            continue;
                        }
                        if kind == self.rules.pawn
                            && (0..self.rules.ranks).any(|r| {
                                self.board[r as usize][col as usize]
                                    == Some(Piece::new(self.rules.pawn, us))
                            })
                        {
                            continue;
                        }
                        out.push(Move::Drop {
                            kind,
                            to: sq(col, row),
                        });
                    }
                }
            }
            out
        }

        pub fn legal_moves(&self) -> Vec<Move> {
            let us = self.side;
            self.pseudo_moves()
                .into_iter()
                .filter(|&m| {
                    let after = self.after(m);
                    if after.in_check(us) {
                        return false;
                    }
                    if let Move::Drop { kind, to } = m {
                        // A pawn dropped straight in front of the enemy king that leaves no
                        // reply is a pawn-drop mate.
                        let ahead = Self::turn(us, (0, 1));
                        let front = (to.col() as i32 + ahead.0, to.row() as i32 + ahead.1);
                        if kind == self.rules.pawn
                            && self.king(!us) == Some(front)
                            && after.legal_moves().is_empty()
                        {
                            return false;
                        }
                    }
                    true
                })
                .collect()
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = self.legal_moves();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves
                .into_iter()
                .map(|m| self.after(m).perft(depth - 1))
                .sum()
        }
    }
}
