//! Variants as data. A `VariantSpec` says, in plain fields grouped by topic, what a game is: its
//! board, its pieces and their letters, its promotion and drop rules, how it ends, its setups.
//! `Variant` adds the lookup tables the move generator needs, computed once from the spec.
//! What data cannot say is a hook chosen by `VariantId` in a `match` (see `movegen.rs`). The
//! specs themselves, and the registry that builds each variant once, are in `variants/`.

use crate::engine::bitboard::{bb, Bitboard, Rays};
use crate::engine::color::Color;
use crate::engine::geometry::PalaceGeometry;
use crate::engine::moves::Move;
use crate::engine::piece::{
    code_color, Atom, Mode, Offset, Piece, PieceKind, CODES, EMPTY, NUM_KINDS, WALL,
};
use crate::engine::square::{delta, dir_index, Square, BORDER, CELLS, DIRS8, PAD_W};

/// The games Tegami knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VariantId {
    Shogi,
    Judkins,
    Cannon,
    Palace,
    Shanghai,
}

impl VariantId {
    pub const ALL: &'static [VariantId] = &[
        VariantId::Shogi,
        VariantId::Judkins,
        VariantId::Cannon,
        VariantId::Palace,
        VariantId::Shanghai,
    ];

    /// The id used on the command line and in storage.
    pub fn as_str(self) -> &'static str {
        match self {
            VariantId::Shogi => "shogi",
            VariantId::Judkins => "judkins",
            VariantId::Cannon => "cannon",
            VariantId::Palace => "palace",
            VariantId::Shanghai => "shanghai",
        }
    }

    /// Parses a variant id, accepting a few obvious aliases.
    pub fn parse(s: &str) -> Option<VariantId> {
        let s = s.trim().to_ascii_lowercase();
        Some(match s.as_str() {
            "shogi" | "standard" => VariantId::Shogi,
            "judkins" | "judkins-shogi" | "judkinshogi" | "minishogi6" => VariantId::Judkins,
            "cannon" | "cannon-shogi" | "cannonshogi" => VariantId::Cannon,
            "palace" | "palace-shogi" | "palaceshogi" => VariantId::Palace,
            "shanghai" | "shanghai-palace-chess" | "shanghaipalacechess" => VariantId::Shanghai,
            _ => return None,
        })
    }
}

impl std::fmt::Display for VariantId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Board size.
#[derive(Clone, Copy, Debug)]
pub struct BoardShape {
    pub files: u8,
    pub ranks: u8,
}

/// How squares are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareNames {
    /// File digit counted from the right as the first player sees it, rank letter from the top
    /// (`7g`).
    Shogi,
    /// File letter from the first player's left, rank number from the first player's side (`e2`).
    Western,
}

/// A piece kind of the variant with its letters.
#[derive(Clone, Copy, Debug)]
pub struct Letter {
    pub kind: PieceKind,
    /// In position strings and drop codes (upper case for the first player; promoted kinds
    /// carry a leading `+`).
    pub code: &'static str,
    /// In human notation (`GC`, `+R`).
    pub human: &'static str,
}

/// The pieces of the variant.
#[derive(Clone, Copy, Debug)]
pub struct PieceSet {
    /// Every kind that can appear, unpromoted and promoted.
    pub letters: &'static [Letter],
    /// Order of kinds in the hand field of a position string (and in displays).
    pub hand_order: &'static [PieceKind],
}

/// Promotion rules.
#[derive(Clone, Copy, Debug)]
pub struct PromotionRules {
    /// What promotes into what.
    pub pairs: &'static [(PieceKind, PieceKind)],
    /// Number of farthest ranks that make up the promotion zone.
    pub zone_depth: u8,
    /// Kinds that could never move again on their owner's last `n` ranks: they must promote when
    /// they end a move there, and may not be dropped there.
    pub stuck: &'static [(PieceKind, u8)],
    /// Kinds that promote after every move ending in the zone, and only then (Palace Shogi's
    /// lance, horse, bishop, rook). The others promote at will on a move into, within or out
    /// of the zone.
    pub mandatory: &'static [PieceKind],
    /// Promoted kinds a side may have only one of on the board (the Palace Shogi lion).
    pub unique: &'static [PieceKind],
    /// Kinds that turn into another on reaching the last rank, always, with no choice (the
    /// Palace Shogi pawn becomes a queen).
    pub transform: &'static [(PieceKind, PieceKind)],
    /// Kinds that, on reaching the last rank, must become one of several kinds, the player's
    /// choice (the Shanghai Western pawn).
    pub choices: &'static [(PieceKind, &'static [PieceKind])],
}

/// Squares a kind may never leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    /// Its own side's palace.
    OwnPalace,
    /// Its owner's `n` nearest ranks.
    Nearest(u8),
}

/// A named start position.
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    /// Id used in commands (`setup=smith`).
    pub name: &'static str,
    pub description: &'static str,
    pub position: &'static str,
}

/// Where a kind may be dropped, beyond "an empty square".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropZone {
    /// Only on the `n` ranks nearest the dropping side.
    Nearest(u8),
    /// Anywhere but the opponent's palace.
    NotEnemyPalace,
}

/// Which drops of the pawn kind may not give mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropMate {
    /// Any drop may mate.
    Allowed,
    /// A pawn drop that checks the king directly in front of it may not mate (shogi).
    PawnInFront,
    /// A drop of the pawn kind may not mate by any means (Palace Shogi's footsoldier).
    Any,
}

/// Drop rules.
#[derive(Clone, Copy, Debug)]
pub struct DropRules {
    /// Whether captured pieces go to the capturer's hand.
    pub enabled: bool,
    /// The pawn kind the two-pawn rule and the pawn-drop-mate rule apply to.
    pub pawn: Option<PieceKind>,
    /// The two-pawn rule looks at this many ranks nearest the dropping side (9: the whole file).
    pub pawn_file_ranks: u8,
    /// Whether a drop of the pawn kind may mate.
    pub pawn_mate: DropMate,
    /// At most this many of the pawn kind on the board per side.
    pub max_pawns: Option<u8>,
    /// The kinds that go to the capturer's hand when captured (`None`: every kind but the
    /// king). The others are killed: removed from the game.
    pub held: Option<&'static [PieceKind]>,
    /// Captured kinds that turn into another in hand without being its promotion (the Palace
    /// Shogi pawn is held as a footsoldier).
    pub demotions: &'static [(PieceKind, PieceKind)],
    /// Drop limits by kind.
    pub zones: &'static [(PieceKind, DropZone)],
}

/// What a side with no legal move, not in check, gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateRule {
    Loss,
    Draw,
}

/// How repeated positions end a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// Fourth occurrence ends the game: the side that checked with every move since the first
    /// occurrence loses, otherwise a draw.
    Sennichite,
    /// Fourth occurrence is a draw, checks or not (Palace Shogi).
    FourfoldDraw,
    /// A move that would make the same position for the third time is illegal (Shanghai
    /// Palace Chess).
    ThirdForbidden,
}

/// Impasse (jishogi) scoring.
#[derive(Clone, Copy, Debug)]
pub struct ImpasseRule {
    /// Points a side needs not to lose.
    pub threshold: u32,
    /// Kinds (unpromoted) worth five points; every other piece but the king is worth one.
    pub big: &'static [PieceKind],
}

/// How games end beyond checkmate.
#[derive(Clone, Copy, Debug)]
pub struct EndRules {
    pub stalemate: StalemateRule,
    pub repetition: RepetitionRule,
    pub impasse: Option<ImpasseRule>,
}

/// A handicap: White's pieces removed before the game; White then moves first.
#[derive(Clone, Copy, Debug)]
pub struct Handicap {
    /// Id used in commands (`handicap=rook`).
    pub name: &'static str,
    pub description: &'static str,
    /// Squares (in the variant's notation) emptied in the start position.
    pub remove: &'static [&'static str],
}

/// A variant as data.
#[derive(Clone, Copy, Debug)]
pub struct VariantSpec {
    pub id: VariantId,
    pub name: &'static str,
    pub board: BoardShape,
    pub squares: SquareNames,
    pub pieces: PieceSet,
    pub promotion: PromotionRules,
    pub drops: DropRules,
    pub end: EndRules,
    /// The start position string.
    pub start: &'static str,
    pub handicaps: &'static [Handicap],
    /// Names of the first and second player.
    pub sides: [&'static str; 2],
    /// Position strings carry castling rights and the en-passant square (Palace Shogi).
    pub rights_fields: bool,
    /// Kinds confined to a region.
    pub confinement: &'static [(PieceKind, Region)],
    /// Named start positions a game may choose; the first is the default (`start`).
    pub setups: &'static [Setup],
    /// Names of kinds in messages, where the catalogue's name is not clear enough.
    pub names: &'static [(PieceKind, &'static str)],
}

/// Per-piece-code move tables, with offsets already turned for the piece's owner.
#[derive(Clone, Debug, Default)]
pub(crate) struct PieceMoves {
    pub leaps: Vec<(i16, Mode)>,
    pub slides: Vec<(i16, Mode)>,
    pub cannon_jumps: Vec<i16>,
    pub cannon_ranges: Vec<i16>,
    pub hops: Vec<i16>,
}

/// `Tables::to_hand` of a kind that is killed when captured.
pub(crate) const NOT_HELD: u8 = u8::MAX;

/// How the generic move tables treat a kind (see `palace.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Special {
    /// Generic moves only.
    None,
    /// Generic moves and then the hook's extra moves.
    Extra,
    /// The hook generates all of this kind's moves.
    Replace,
}

/// Lookup tables derived from a spec.
pub(crate) struct Tables {
    /// The empty board: walls outside, empty inside.
    pub empty_board: [u8; CELLS],
    /// Board squares in bit order.
    pub squares: Vec<Square>,
    /// The board's squares as an 81-bit set, and each column's squares.
    pub board_mask: u128,
    pub file_masks: [u128; 9],
    pub in_zone: [[bool; CELLS]; 2],
    /// `dead[code][sq]`: the piece could never move again from `sq`.
    pub dead: Vec<[bool; CELLS]>,
    /// Promoted code of a piece code (0 if it does not promote).
    pub promote: [u8; CODES],
    /// The kind a captured piece turns into in the capturer's hand.
    pub demote: [PieceKind; NUM_KINDS],
    pub moves: Vec<PieceMoves>,
    /// Per code, the line directions (bits over `DIRS8`) it attacks along by sliding.
    pub slide_attack: [u8; CODES],
    pub range_attack: [u8; CODES],
    pub jump_attack: [u8; CODES],
    pub hop_attack: [u8; CODES],
    /// Per attacking colour, the union of the above.
    pub slide_dirs: [u8; 2],
    pub range_dirs: [u8; 2],
    pub jump_dirs: [u8; 2],
    pub hop_dirs: [u8; 2],
    /// No cannon of any kind: a move can expose the king only along the line it leaves.
    pub simple: bool,
    pub in_variant: [bool; NUM_KINDS],
    /// `far_row[c][sq]`: ranks between `sq` and `c`'s far edge (0 on the last rank).
    pub far_row: [[u8; CELLS]; 2],
    /// Per code: promotion only and always on a move ending in the zone.
    pub mandatory: [bool; CODES],
    /// Per code: its promotion is a kind a side may have only one of.
    pub unique_promotion: [bool; CODES],
    /// Per code: what it turns into on the last rank (0 if nothing).
    pub transform: [u8; CODES],
    /// Per kind: the kind it becomes in the capturer's hand, or `NOT_HELD`.
    pub to_hand: [u8; NUM_KINDS],
    /// `drop_forbidden[code][sq]`: a dead square or outside the kind's drop zone.
    pub drop_forbidden: Vec<[bool; CELLS]>,
    /// Per code: how the hooks take part in its move generation.
    pub special: [Special; CODES],
    /// Per code: may not serve as a cannon's screen nor be its target (Palace Shogi cannons).
    pub hop_excluded: [bool; CODES],
    /// Per code: a queen whose slides stop at her own palace's walls.
    pub queen_walls: [bool; CODES],
    /// Per code: a pawn with a double step from its start rank (and en passant).
    pub double_step: [bool; CODES],
    /// Kings facing each other on an open file count as check.
    pub flying_king: bool,
    /// Per square: the castling-right bits that survive a move from or to it.
    pub castling_keep: [u8; CELLS],
    /// Palace Shogi's palaces and corridors.
    pub palace: Option<PalaceGeometry>,
    /// Some kind is confined; `allowed[code][sq]` says where it may stand.
    pub confined: bool,
    pub allowed: Vec<[bool; CELLS]>,
    /// Blockable two-square leaps: per code (offset, mode), per attacking colour (offset, code).
    pub lame_leaps: Vec<Vec<(i16, Mode)>>,
    pub lame_attacks: [Vec<(i16, u8)>; 2],
    /// Per code: the codes it may become on the last rank, by choice.
    pub choices: Vec<Vec<u8>>,
    /// The board's rays (see `bitboard.rs`).
    pub rays: Rays,
    /// Per code and square (bit): the squares its steps and leaps reach as a move to an empty
    /// square, and as a capture (conditional steps and confinement applied).
    pub step_quiet: Vec<[Bitboard; 81]>,
    pub step_capture: Vec<[Bitboard; 81]>,
    /// Per code and square: the squares from which its steps and leaps capture on that square.
    pub step_from: Vec<[Bitboard; 81]>,
    /// Per attacking colour: the codes of the variant with step or leap captures.
    pub step_codes: [Vec<u8>; 2],
    /// Per attacking colour and square: the squares from which any of its codes steps or
    /// leaps to capture there (the union of `step_from` over `step_codes`).
    pub step_near: [Vec<Bitboard>; 2],
    /// Per attacking colour: the codes that attack along lines (slides, hops or ranges).
    pub line_codes: [Vec<u8>; 2],
    /// Per code: the line directions (bits over `DIRS8`) it slides along to empty squares.
    pub slide_quiet: [u8; CODES],
    /// Per code: where it may stand, as a set (the whole board unless confined).
    pub allowed_bb: [Bitboard; CODES],
    /// Per code: where it may be dropped (empty or not), as a set.
    pub drop_ok: [Bitboard; CODES],
    /// Per colour: its promotion zone, as a set.
    pub zone_bb: [Bitboard; 2],
    /// Per code: the squares it could never move again from (see `dead`), as a set.
    pub dead_bb: [Bitboard; CODES],
    /// Per code: it attacks along lines (slides, cannons, or a flying king).
    pub line_piece: [bool; CODES],
    /// Per square (bit): every square on a line through it.
    pub king_lines: Vec<Bitboard>,
    /// Per colour: the codes of the variant's pieces of that colour (the generator walks the
    /// pieces code by code, so that what depends on the code is read once per code).
    pub side_codes: [Vec<u8>; 2],
    /// Per code: its moves are its steps and leaps alone (no slide, cannon, blockable leap or
    /// hook), so that `step_quiet` and `step_capture` give all its targets.
    pub steps_only: [bool; CODES],
    /// Per code: how its board moves get their promotion options (`PushMode`).
    pub push_mode: [PushMode; CODES],
}

/// How the generator gives a piece's board moves their promotion options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PushMode {
    /// Never promotes: one move per target, and no square is dead for it.
    Plain,
    /// Mandatory or unique promotion, or a choice of pieces: `Tables::push_board` move by move.
    PerMove,
    /// May promote into, within or out of the zone, or not: whole sets at a time.
    Optional,
}

impl Tables {
    /// Pushes a board move of the piece `code` with the promotion options the rules give.
    #[inline(always)]
    pub(crate) fn push_board(
        &self,
        out: &mut Vec<Move>,
        from: Square,
        to: Square,
        code: u8,
        unique_present: bool,
    ) {
        let t = self;
        let c = code as usize;
        if t.promote[c] == 0 {
            if t.dead[c][to.index()] {
                // A Western pawn on the last rank must become a piece of its owner's choice.
                for &into in &t.choices[c] {
                    if let Some(p) = Piece::from_code(into) {
                        out.push(Move::PromoteTo {
                            from,
                            to,
                            kind: p.kind,
                        });
                    }
                }
                return;
            }
            out.push(Move::Board {
                from,
                to,
                promote: false,
            });
            return;
        }
        let zone = &t.in_zone[code_color(code)];
        if t.mandatory[c] {
            let promote = zone[to.index()];
            out.push(Move::Board { from, to, promote });
            return;
        }
        if (zone[from.index()] || zone[to.index()]) && !(t.unique_promotion[c] && unique_present) {
            out.push(Move::Board {
                from,
                to,
                promote: true,
            });
        }
        if !t.dead[c][to.index()] {
            out.push(Move::Board {
                from,
                to,
                promote: false,
            });
        }
    }
}

/// A variant: its spec and the tables computed from it.
pub struct Variant {
    pub spec: VariantSpec,
    pub(crate) t: Tables,
}

impl std::fmt::Debug for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Variant({})", self.spec.id)
    }
}

impl Variant {
    pub fn id(&self) -> VariantId {
        self.spec.id
    }

    pub fn files(&self) -> u8 {
        self.spec.board.files
    }

    pub fn ranks(&self) -> u8 {
        self.spec.board.ranks
    }

    /// The name of a side in this game (`black`, `white`; `red`, `blue`).
    pub fn side_name(&self, c: Color) -> &'static str {
        self.spec.sides[c.index()]
    }

    /// Parses a side name of this game.
    pub fn parse_side(&self, s: &str) -> Option<Color> {
        let s = s.to_ascii_lowercase();
        Color::ALL.into_iter().find(|&c| self.side_name(c) == s)
    }

    /// Whether a mailbox square is on this variant's board.
    pub fn contains(&self, sq: Square) -> bool {
        self.t.empty_board[sq.index()] != WALL
    }

    /// Every square of the board, top row first, left to right.
    pub fn squares(&self) -> &[Square] {
        &self.t.squares
    }

    /// Whether `sq` is in `c`'s promotion zone.
    pub fn in_zone(&self, c: Color, sq: Square) -> bool {
        self.t.in_zone[c.index()][sq.index()]
    }

    /// Whether a piece could never move again from `sq` (it must promote there and may not be
    /// dropped there).
    pub fn is_dead_square(&self, p: Piece, sq: Square) -> bool {
        self.t.dead[p.code() as usize][sq.index()]
    }

    /// The kind a captured piece of kind `k` becomes in the capturer's hand.
    pub fn demote(&self, k: PieceKind) -> PieceKind {
        self.t.demote[k.index()]
    }

    /// Whether `k` is a piece of this game.
    pub fn has_kind(&self, k: PieceKind) -> bool {
        self.t.in_variant[k.index()]
    }

    /// The name of a kind in this game's messages ("silver"; in Shanghai Palace Chess, where
    /// three families meet, "Shogi pawn", "Western knight").
    pub fn piece_name(&self, k: PieceKind) -> &'static str {
        self.spec
            .names
            .iter()
            .find(|(kind, _)| *kind == k)
            .map_or(k.name(), |(_, n)| n)
    }

    /// The letters of a kind of this game.
    pub fn letter(&self, k: PieceKind) -> Option<&'static Letter> {
        self.spec.pieces.letters.iter().find(|l| l.kind == k)
    }

    /// The kind with this position-string letter (`"+R"`, `"U"`; case-insensitive).
    pub fn kind_by_code(&self, code: &str) -> Option<PieceKind> {
        self.spec
            .pieces
            .letters
            .iter()
            .find(|l| l.code.eq_ignore_ascii_case(code))
            .map(|l| l.kind)
    }

    /// The kind with this human letter (`"GC"`, `"+R"`; case-insensitive).
    pub fn kind_by_human(&self, name: &str) -> Option<PieceKind> {
        self.spec
            .pieces
            .letters
            .iter()
            .find(|l| l.human.eq_ignore_ascii_case(name))
            .map(|l| l.kind)
    }

    /// The handicap with this name.
    pub fn handicap(&self, name: &str) -> Option<&'static Handicap> {
        self.spec
            .handicaps
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
    }

    /// Name of a square in this variant's notation.
    pub fn square_name(&self, sq: Square) -> String {
        match self.spec.squares {
            SquareNames::Shogi => {
                format!("{}{}", self.files() - sq.col(), (b'a' + sq.row()) as char)
            }
            SquareNames::Western => {
                format!("{}{}", (b'a' + sq.col()) as char, self.ranks() - sq.row())
            }
        }
    }

    /// Parses a square name (`7g`; also `77`, the numeric-rank form).
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let (files, ranks) = (self.files(), self.ranks());
        match self.spec.squares {
            SquareNames::Shogi => {
                let file = b[0].checked_sub(b'0').filter(|f| (1..=files).contains(f))?;
                let r = b[1].to_ascii_lowercase();
                let row = if r.is_ascii_digit() {
                    (r - b'0').checked_sub(1)?
                } else {
                    r.checked_sub(b'a')?
                };
                (row < ranks).then(|| Square::new(files - file, row))
            }
            SquareNames::Western => {
                let col = b[0].to_ascii_lowercase().checked_sub(b'a')?;
                let rank = b[1].checked_sub(b'0').filter(|r| (1..=ranks).contains(r))?;
                (col < files).then(|| Square::new(col, ranks - rank))
            }
        }
    }

    /// The variant a spec describes, with its tables.
    pub(crate) fn build(spec: VariantSpec) -> Variant {
        let (files, ranks) = (spec.board.files, spec.board.ranks);
        let mut empty_board = [WALL; CELLS];
        let mut squares = Vec::new();
        let mut board_mask = 0u128;
        let mut file_masks = [0u128; 9];
        for row in 0..ranks {
            for col in 0..files {
                let s = Square::new(col, row);
                empty_board[s.index()] = EMPTY;
                squares.push(s);
                board_mask |= 1 << s.bit();
                file_masks[col as usize] |= 1 << s.bit();
            }
        }
        // Rows counted from each side's far edge: 0 is the last rank.
        let far_row = |c: Color, s: Square| -> u8 {
            match c {
                Color::Black => s.row(),
                Color::White => ranks - 1 - s.row(),
            }
        };
        let mut in_zone = [[false; CELLS]; 2];
        let mut far_rows = [[0u8; CELLS]; 2];
        for &s in &squares {
            for c in Color::ALL {
                in_zone[c.index()][s.index()] = far_row(c, s) < spec.promotion.zone_depth;
                far_rows[c.index()][s.index()] = far_row(c, s);
            }
        }
        let mut in_variant = [false; NUM_KINDS];
        for l in spec.pieces.letters {
            in_variant[l.kind.index()] = true;
        }
        let mut demote: [PieceKind; NUM_KINDS] = std::array::from_fn(PieceKind::from_index);
        let mut promote = [0u8; CODES];
        for &(k, p) in spec.promotion.pairs {
            assert!(
                in_variant[k.index()] && in_variant[p.index()],
                "{k:?} -> {p:?}"
            );
            demote[p.index()] = k;
            for c in Color::ALL {
                promote[Piece::new(k, c).code() as usize] = Piece::new(p, c).code();
            }
        }
        for &(p, k) in spec.drops.demotions {
            demote[p.index()] = k;
        }
        let code_of = |k: PieceKind, c: Color| Piece::new(k, c).code() as usize;
        let mut to_hand = [NOT_HELD; NUM_KINDS];
        if spec.drops.enabled {
            for l in spec.pieces.letters {
                let held = match spec.drops.held {
                    None => !l.kind.is_royal(),
                    Some(list) => list.contains(&l.kind),
                };
                if held {
                    to_hand[l.kind.index()] = demote[l.kind.index()] as u8;
                }
            }
        }
        let mut mandatory = [false; CODES];
        let mut unique_promotion = [false; CODES];
        let mut transform = [0u8; CODES];
        for c in Color::ALL {
            for &k in spec.promotion.mandatory {
                mandatory[code_of(k, c)] = true;
            }
            for &(k, p) in spec.promotion.pairs {
                unique_promotion[code_of(k, c)] = spec.promotion.unique.contains(&p);
            }
            for &(k, into) in spec.promotion.transform {
                transform[code_of(k, c)] = code_of(into, c) as u8;
            }
        }
        let mut dead = vec![[false; CELLS]; CODES];
        for &(k, n) in spec.promotion.stuck {
            for c in Color::ALL {
                let code = Piece::new(k, c).code() as usize;
                for &s in &squares {
                    dead[code][s.index()] = far_row(c, s) < n;
                }
            }
        }

        let mut drop_forbidden = dead.clone();
        for &(k, zone) in spec.drops.zones {
            for c in Color::ALL {
                for &s in &squares {
                    let ok = match zone {
                        // Nearest n ranks: at least ranks - n ranks from the far edge.
                        DropZone::Nearest(n) => far_row(c, s) >= ranks - n,
                        DropZone::NotEnemyPalace => true,
                    };
                    if !ok {
                        drop_forbidden[code_of(k, c)][s.index()] = true;
                    }
                }
            }
        }
        let turn = |c: Color, (dx, dy): Offset| -> i16 {
            let d = delta(dx, dy);
            match c {
                Color::Black => d,
                Color::White => -d,
            }
        };
        let mut moves = vec![PieceMoves::default(); CODES];
        let mut slide_attack = [0u8; CODES];
        let mut range_attack = [0u8; CODES];
        let mut jump_attack = [0u8; CODES];
        let mut hop_attack = [0u8; CODES];
        let mut simple = true;
        let mut cond_leaps = vec![Vec::new(); CODES];
        let mut lame_leaps = vec![Vec::new(); CODES];
        let mut lame_attacks: [Vec<(i16, u8)>; 2] = [Vec::new(), Vec::new()];
        let dir_bit = |d: i16| 1u8 << dir_index(d).expect("line atoms use the eight directions");
        for l in spec.pieces.letters {
            for c in Color::ALL {
                let code = Piece::new(l.kind, c).code() as usize;
                let pm = &mut moves[code];
                for atom in l.kind.atoms() {
                    match *atom {
                        Atom::Leap(offs, mode) => {
                            for &o in offs {
                                let d = turn(c, o);
                                pm.leaps.push((d, mode));
                            }
                        }
                        Atom::LeapIn(offs, mode, far) => {
                            for &o in offs {
                                let d = turn(c, o);
                                cond_leaps[code].push((d, mode, far));
                            }
                        }
                        Atom::Lame(offs, mode) => {
                            simple = false;
                            for &o in offs {
                                let d = turn(c, o);
                                lame_leaps[code].push((d, mode));
                                if mode != Mode::MoveOnly {
                                    lame_attacks[c.index()].push((d, code as u8));
                                }
                            }
                        }
                        Atom::Slide(offs, mode) => {
                            for &o in offs {
                                let d = turn(c, o);
                                pm.slides.push((d, mode));
                                if mode != Mode::MoveOnly {
                                    slide_attack[code] |= dir_bit(d);
                                }
                            }
                        }
                        Atom::CannonJump(offs) => {
                            simple = false;
                            for &o in offs {
                                let d = turn(c, o);
                                pm.cannon_jumps.push(d);
                                jump_attack[code] |= dir_bit(d);
                            }
                        }
                        Atom::Hop(offs) => {
                            simple = false;
                            for &o in offs {
                                let d = turn(c, o);
                                pm.hops.push(d);
                                hop_attack[code] |= dir_bit(d);
                            }
                        }
                        Atom::CannonRange(offs) => {
                            simple = false;
                            for &o in offs {
                                let d = turn(c, o);
                                pm.cannon_ranges.push(d);
                                range_attack[code] |= dir_bit(d);
                            }
                        }
                    }
                }
            }
        }
        let union = |table: &[u8; CODES], c: Color| -> u8 {
            spec.pieces
                .letters
                .iter()
                .map(|l| table[Piece::new(l.kind, c).code() as usize])
                .fold(0, |a, b| a | b)
        };
        let slide_dirs = [
            union(&slide_attack, Color::Black),
            union(&slide_attack, Color::White),
        ];
        let range_dirs = [
            union(&range_attack, Color::Black),
            union(&range_attack, Color::White),
        ];
        let jump_dirs = [
            union(&jump_attack, Color::Black),
            union(&jump_attack, Color::White),
        ];
        let hop_dirs = [
            union(&hop_attack, Color::Black),
            union(&hop_attack, Color::White),
        ];
        let mut allowed = vec![[true; CELLS]; CODES];
        let mut choices = vec![Vec::new(); CODES];
        for c in Color::ALL {
            for &(k, into) in spec.promotion.choices {
                choices[code_of(k, c)] = into.iter().map(|&i| code_of(i, c) as u8).collect();
            }
            for &(k, region) in spec.confinement {
                for &s in &squares {
                    let (col, near) = (s.col(), ranks - 1 - far_row(c, s));
                    allowed[code_of(k, c)][s.index()] = match region {
                        Region::OwnPalace => (3..6).contains(&col) && near < 3,
                        Region::Nearest(n) => near < n,
                    };
                }
            }
        }
        let confined = !spec.confinement.is_empty();
        // The hooks: what the data above cannot say, one arm per game.
        let mut special = [Special::None; CODES];
        let mut hop_excluded = [false; CODES];
        let mut queen_walls = [false; CODES];
        let mut double_step = [false; CODES];
        let mut flying_king = false;
        let mut castling_keep = [0x0F; CELLS];
        let mut palace = None;
        match spec.id {
            VariantId::Shogi | VariantId::Judkins | VariantId::Cannon => {}
            VariantId::Shanghai => flying_king = true,
            VariantId::Palace => {
                let geo = PalaceGeometry::new();
                castling_keep = geo.castling_keep();
                for &(k, zone) in spec.drops.zones {
                    if zone != DropZone::NotEnemyPalace {
                        continue;
                    }
                    for c in Color::ALL {
                        for &s in &squares {
                            if geo.own[(!c).index()][s.index()] {
                                drop_forbidden[code_of(k, c)][s.index()] = true;
                            }
                        }
                    }
                }
                palace = Some(geo);
                flying_king = true;
                simple = false;
                for c in Color::ALL {
                    special[code_of(PieceKind::Queen, c)] = Special::Replace;
                    special[code_of(PieceKind::Lion, c)] = Special::Replace;
                    for k in [
                        PieceKind::PalacePawn,
                        PieceKind::Footsoldier,
                        PieceKind::PalaceCannon,
                        PieceKind::PalaceDragon,
                        PieceKind::King,
                    ] {
                        special[code_of(k, c)] = Special::Extra;
                    }
                    hop_excluded[code_of(PieceKind::PalaceCannon, c)] = true;
                    queen_walls[code_of(PieceKind::Queen, c)] = true;
                    double_step[code_of(PieceKind::PalacePawn, c)] = true;
                }
            }
        }
        let on_board = |s: Square| s.col() < files && s.row() < ranks;
        let rays = Rays::new(on_board);
        let mut step_quiet = vec![[0u128; 81]; CODES];
        let mut step_capture = vec![[0u128; 81]; CODES];
        let mut step_from = vec![[0u128; 81]; CODES];
        let mut step_codes: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        let mut slide_quiet = [0u8; CODES];
        let mut allowed_bb = [0u128; CODES];
        let mut drop_ok = [0u128; CODES];
        let mut zone_bb = [0u128; 2];
        let mut dead_bb = [0u128; CODES];
        for &s in &squares {
            for c in Color::ALL {
                if in_zone[c.index()][s.index()] {
                    zone_bb[c.index()] |= bb(s);
                }
            }
            for (code, dead) in dead.iter().enumerate() {
                if dead[s.index()] {
                    dead_bb[code] |= bb(s);
                }
            }
        }
        for l in spec.pieces.letters {
            for c in Color::ALL {
                let code = code_of(l.kind, c);
                for &s in &squares {
                    if allowed[code][s.index()] {
                        allowed_bb[code] |= bb(s);
                    }
                    if !drop_forbidden[code][s.index()] {
                        drop_ok[code] |= bb(s);
                    }
                }
                for &(d, mode) in &moves[code].slides {
                    if mode != Mode::CaptureOnly {
                        slide_quiet[code] |= dir_bit(d);
                    }
                }
                let conditional = cond_leaps[code]
                    .iter()
                    .map(|&(d, mode, far)| (d, mode, Some(far)));
                let plain = moves[code].leaps.iter().map(|&(d, mode)| (d, mode, None));
                let all: Vec<_> = plain.chain(conditional).collect();
                for &from in &squares {
                    for &(d, mode, far) in &all {
                        if far.is_some_and(|n| far_rows[c.index()][from.index()] >= n) {
                            continue;
                        }
                        let to = from.offset(d);
                        if empty_board[to.index()] == WALL || !allowed[code][to.index()] {
                            continue;
                        }
                        let (f, t) = (from.bit() as usize, to.bit() as usize);
                        if mode != Mode::CaptureOnly {
                            step_quiet[code][f] |= bb(to);
                        }
                        if mode != Mode::MoveOnly {
                            step_capture[code][f] |= bb(to);
                            step_from[code][t] |= bb(from);
                        }
                    }
                }
                if step_capture[code].iter().any(|&b| b != 0) {
                    step_codes[c.index()].push(code as u8);
                }
            }
        }
        let step_near = [0, 1].map(|c| {
            (0..81)
                .map(|sq| {
                    step_codes[c]
                        .iter()
                        .fold(0, |acc, &code| acc | step_from[code as usize][sq])
                })
                .collect()
        });
        let mut line_piece = [false; CODES];
        for (code, line) in line_piece.iter_mut().enumerate() {
            let king = Piece::from_code(code as u8).is_some_and(|p| p.kind.is_royal());
            *line = slide_attack[code] | range_attack[code] | hop_attack[code] | jump_attack[code]
                != 0
                || (flying_king && king);
        }
        let king_lines = (0..81)
            .map(|sq| (0..8).fold(0, |acc, d| acc | rays.ray[d][sq]))
            .collect();
        let mut side_codes: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        let mut steps_only = [false; CODES];
        let mut push_mode = [PushMode::Plain; CODES];
        for l in spec.pieces.letters {
            for c in Color::ALL {
                let code = code_of(l.kind, c);
                if !side_codes[c.index()].contains(&(code as u8)) {
                    side_codes[c.index()].push(code as u8);
                }
                steps_only[code] = slide_attack[code] | slide_quiet[code] == 0
                    && range_attack[code] | hop_attack[code] | jump_attack[code] == 0
                    && lame_leaps[code].is_empty()
                    && special[code] == Special::None;
                push_mode[code] = if promote[code] == 0 && choices[code].is_empty() {
                    PushMode::Plain
                } else if promote[code] == 0 || mandatory[code] || unique_promotion[code] {
                    PushMode::PerMove
                } else {
                    PushMode::Optional
                };
            }
        }
        let line_codes = side_codes.clone().map(|codes| {
            codes
                .into_iter()
                .filter(|&c| {
                    let c = c as usize;
                    slide_attack[c] | range_attack[c] | hop_attack[c] != 0
                })
                .collect()
        });
        debug_assert_eq!(DIRS8.len(), 8);
        debug_assert_eq!(PAD_W, 9 + 2 * BORDER);
        Variant {
            spec,
            t: Tables {
                empty_board,
                squares,
                board_mask,
                file_masks,
                in_zone,
                dead,
                promote,
                demote,
                moves,
                slide_attack,
                range_attack,
                jump_attack,
                hop_attack,
                slide_dirs,
                range_dirs,
                jump_dirs,
                hop_dirs,
                simple,
                in_variant,
                far_row: far_rows,
                mandatory,
                unique_promotion,
                transform,
                to_hand,
                drop_forbidden,
                special,
                hop_excluded,
                queen_walls,
                double_step,
                flying_king,
                castling_keep,
                palace,
                confined,
                allowed,
                lame_leaps,
                lame_attacks,
                choices,
                rays,
                step_quiet,
                step_capture,
                step_from,
                step_codes,
                step_near,
                line_codes,
                slide_quiet,
                allowed_bb,
                drop_ok,
                zone_bb,
                dead_bb,
                line_piece,
                king_lines,
                side_codes,
                steps_only,
                push_mode,
            },
        }
    }
}
