//! The tree search: principal variation search with iterative deepening and aspiration
//! windows (driven from `mod.rs`), a quiescence search over captures (losing ones skipped by
//! exchange evaluation, `see.rs`), the transposition table, staged move picking (`Stage`:
//! hash move, good captures by MVV-LVA, killers and quiet moves by history, losing captures),
//! check extensions, reverse futility, null-move, futility and move-count pruning, exchange
//! pruning of quiet moves near the leaves (a move that puts its piece where it is lost by
//! exchange), a ply less for nodes the table knows nothing of (internal iterative
//! reduction), and late-move reductions that follow the history. Quiet moves are ordered by
//! two histories: the butterfly table (piece and destination) and the continuation history
//! ([`Cont`]: how a reply has done after the opponent's last move and our own before it),
//! both bounded and lowered for the moves that failed before a cut. The settings of these
//! techniques are [`SearchParams`], so that each can be tried in self-play (see its doc).
//!
//! Cheap tests spare the costly ones: a move that cannot give check
//! (`Position::may_give_check`) is not tested for check, a quiet move to be pruned is not
//! made, full evaluations are cached by hash (`eval::evaluate_cached`), and the board's part
//! of the shape term and the material balance are kept up move by move (`Tree::shape`,
//! `Tree::material`) rather than counted at each evaluation. The large tables are read with
//! memory latency in mind (`memory.rs`): a child's table and evaluation-cache slots are
//! prefetched as soon as its move is made, the continuation-history rows before the quiet
//! moves are generated, and the tables sit in huge pages.
//!
//! The games' rules inside the tree:
//!
//! - **Repetition** (Shogi, Judkins, Cannon Shogi: sennichite; Palace Shogi: fourfold draw): a
//!   position already seen on the path or in the game, with the same side to move, is scored as
//!   the end the rule gives if the cycle is played out: a draw, or under sennichite a loss for
//!   the side that gave check with every move of the cycle (perpetual check).
//! - **Shanghai's threefold refusal**: a move that makes a position for the third time (game
//!   and path together) is not played, as the rules make it illegal; a side left with no other
//!   move is stalemated, which loses.
//! - **Entering king** (Palace Shogi): a king move into the enemy palace wins at once.
//! - **Stalemate**: a loss, or a draw in Palace Shogi, as the variant says.
//! - Pawn-drop mate and every other legality rule come from the move generator.
//!
//! The root's moves are also checked against the game itself (`Game::play`) in `mod.rs`, so a
//! move that ends the game there gets the exact result.

use std::time::Instant;

use crate::engine::movegen::Evasion;
use crate::engine::palace::entered_king;
use crate::engine::piece::{is_piece, Piece, CODES};
use crate::engine::position::NO_SQUARE;
use crate::engine::square::{Square, CELLS};
use crate::engine::variant::{RepetitionRule, StalemateRule};
use crate::engine::zobrist;
use crate::engine::{Move, Position, Undo, VariantId};

use super::eval::{
    cache_slot, evaluate_cached, material_after, material_of_black, EvalTables, CACHE_SIZE,
};
use super::memory::{huge_vec, prefetch};
use super::see::see;
use super::tt::{Bound, Tt};

/// Larger than any score.
pub(crate) const INF: i32 = 32_000;
/// The score of mating now; mate in `n` plies scores `MATE - n`.
pub(crate) const MATE: i32 = 31_000;
/// Scores beyond this (in absolute value) are mates (or wins by rule).
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Deepest ply the search reaches.
pub(crate) const MAX_PLY: usize = 120;

/// The search's settings: the defaults are the ones in force; other values are for trying a
/// change in self-play (`cargo bench --bench texel -- --compare search.NAME=VALUE`), against
/// Fairy-Stockfish (`cargo bench --bench versus -- --search NAME=VALUE`) or in one position
/// (`tegami bestmove --search NAME=VALUE`). A depth of 0 turns its technique off.
///
/// How they were chosen: each technique switched off (or, for the singular extension, on)
/// against the defaults, 20,000 nodes a move, pairs of games from seeded random openings,
/// colours alternating. The figure is the score of the changed search, so below 50% means the
/// technique helps (200 games measure a score to about ±3.5%, 600 to about ±2%):
///
/// | change | Shogi (200 games) | Judkins Shogi (600) |
/// | --- | ---: | ---: |
/// | every technique below off (the search before them) | 38.2% | 46.0% (200) |
/// | no aspiration windows | 43.8% | 48.3% |
/// | no reverse futility pruning | 48.5% | 51.8% |
/// | no exchange pruning of quiet moves | 42.8% | 50.4% |
/// | no internal iterative reduction | 50.0% | 50.3% |
/// | every check extended, not only sound ones | 53.5% | 50.7% |
/// | singular extensions from depth 8 / 5 | 50.0% / 44.8% | |
/// | countermoves (after the killers; then removed) | 54.2% with them off | |
/// | the quiescence search reading the table (then removed) | 56.0% with it off | |
///
/// With every technique off, Cannon Shogi scored 46.0% and Palace Shogi 43.5% (100 games
/// each), Shanghai Palace Chess 54.7% (300 games); but in Shanghai each technique off alone
/// scored 44.0% (reverse futility) to 50.0% (200 games each), so no one of them is to blame
/// and every game keeps the defaults (`PARAM_OVERRIDES` is empty). The singular extension
/// stays available but off: at these node counts it lost.
///
/// **History** (the later settings): continuation history ([`Cont`]), bounded updates with a
/// malus for the quiet moves that failed before a cut, and late-move reductions that follow
/// the history. These need searches large enough to fill the tables, and 20,000 nodes a move
/// misjudged them: there the search without all three scored 56.5% in Shogi (200 games) and
/// 48.9% in Judkins Shogi (400), and without any one or two of them 53.2% to 56.5% in Shogi;
/// at 100,000 nodes a move the search without them scored **43.5%** in Shogi (200 games, two
/// runs of 100 openings: 44.0% and 43.0%) and 47.5% in Judkins Shogi (200). Level 5 searches
/// over a million nodes a move, so they are on. Tried at 20,000 nodes and left out: reductions
/// by `ln(depth)·ln(moves)` (44.2%: they reduced too much), a ply less reduction on the
/// principal line (50.5%), a deeper null move when far above beta (49.0%); and at 100,000
/// nodes, skipping quiet moves near the leaves whose history is below −4,000 a ply (50.0%
/// in 100 games).
///
/// **More selectivity, tried at 100,000 nodes a move and left out** (the score of the
/// changed search; 200 games of Judkins Shogi measure about ±3.5%, 100 of Shogi ±5%):
///
/// | change | Judkins Shogi (200) | Shogi (100) |
/// | --- | ---: | ---: |
/// | null move a ply shallower per 200 above beta (at most 3) | 51.0% | |
/// | and reduced `3 + depth/3` instead of `2 + depth/4` | 46.5% | |
/// | "improving" (static evaluation above the one two plies up): reverse futility a ply sooner and move-count pruning after `(3 + depth²)` quiet moves, halved, when not improving | 49.2% | |
/// | move-count pruning to depth 6, futility to depth 5 | 51.5% | |
/// | reductions by `ln(depth)·ln(moves)/2.25` | 52.0% | |
/// | the four above together (null move by the margin, pruning to 6 and 5, log reductions) | 50.2% | 54.0%, 50.0%, 48.0% (three sets of 100 openings) |
/// | a ply more reduction after the 40th move | | 49.0% |
/// | no check extensions | 47.5% | |
/// | quiet checks and checking drops (not lost by exchange) at the quiescence search's first ply | 48.8% | 53.0% (and 10% more time a node) |
///
/// None moves the score beyond the noise. Depth alone does not explain the gap to
/// Fairy-Stockfish: in a Judkins Shogi middle game Tegami reached depth 13 in 980,000 nodes
/// (1 s) and Fairy-Stockfish depth 17 in 570,000, both choosing the same move, yet the more
/// selective searches above, which reach deeper, play no better than the search in force.
///
/// **Against Fairy-Stockfish** (`cargo bench --bench versus -- --search NAME=VALUE`), since
/// self-play cannot show what the search lacks against a stronger engine. "Selective" is
/// `lmp_depth=7 lmp_base=3 lmp_mul=1 futility_depth=6 null_margin=1 lmr_log=200`
/// (move-count pruning after `3 + depth²` quiet moves up to depth 7, futility to depth 6, the
/// null move reduced by `3 + depth/3` and a ply per 200 above beta, reductions by
/// `ln(depth)·ln(moves)/2`); "milder" is `lmp_depth=5 lmp_base=4 lmp_mul=2
/// futility_depth=4 null_margin=1`. Level 5's score, one thread each:
///
/// | search | Judkins Shogi, 1 s a move, 20 games from the start | Judkins Shogi, 0.2 s, 100 games, 2 random plies | Shogi, 1 s, 20 games |
/// | --- | ---: | ---: | ---: |
/// | in force | 35.0% (before: 32.5%, 15.0%, 27.5%) | 54.5% | 30.0% (a match before) |
/// | selective | 45.0%, 25.0% | 52.0% | 20.0% |
/// | milder | 20.0% | | |
/// | `contempt=30` | 25.0% | 53.5% | |
///
/// Twenty games from the start position move by 20 points from one match to the next, so
/// neither is taken: over 40 games the selective search scored 35.0% where the search in
/// force, over 80, scored 27.5%, and the 100-game match, which measures to about ±5%, shows
/// no gain; in Shogi it did worse. Contempt (a draw by repetition scored 30 below zero for
/// the side that searches, so that it plays on instead of shuffling into a repetition, as
/// level 5 did as White in a lost Judkins Shogi game) changed nothing either. The settings
/// stay for later tries.
///
/// **Checks in a game with drops.** Where level 5 lost to Fairy-Stockfish, the games turn in
/// the early middle game: Fairy-Stockfish's own evaluation (200 ms a position) puts level 5
/// below −200 between plies 13 and 44 of its 13 lost Judkins Shogi games, often after one
/// move that costs 400 to 900. In one such position (after `5f5e 5a3c 2f4d 3a2b 4f4e 6a5a
/// 4e3d 3c4d 3f4d B*6a B*4c 5a5e+ 6f5e 6a4c 3d4c 2b3c B*6b`) level 5 played B*2e at depth 11
/// in its second; Fairy-Stockfish prefers B*2b from depth 10, 50,000 nodes, where this search
/// needs depth 12 and 3.6 million. Counted over a depth-11 search there, 27% of the main
/// search's nodes are in check and 13% of its moves are extended checks: checking drops are
/// many, every sound one is extended, and neither checks nor evasions are reduced.
/// Fairy-Stockfish's search (read for the fact, from its source) extends a check only from
/// depth 7 and with the evaluation 100 away from zero, reduces checks, evasions and, more, the
/// moves of nodes expected to fail high, and tries at most two captures a node in its
/// quiescence search. The settings for that: `check_ext_depth` (checks extended from this
/// depth), `lmr_evasion` and `lmr_checks` (late-move reductions of quiet evasions, and of
/// quiet checks by a ply less than other moves), `lmr_cut` (plies more in expected cut
/// nodes, which the search now tells apart: the first child of a cut node is an all node and
/// the reduced children of any node are cut nodes) and `qs_moves`. Against Fairy-Stockfish,
/// Judkins Shogi, 1 s a move, 20 games from the start unless said:
///
/// | search | score |
/// | --- | ---: |
/// | `lmr_evasion=1 lmr_checks=1 qs_moves=3` (with counters in the hot path, a few percent slower) | 27.5%; 45.0% with 2 random plies (the search in force: 45.0%) |
/// | `check_ext_depth=7` | 15.0% |
/// | `check_ext_depth=7 lmr_evasion=1 lmr_checks=1 lmr_cut=1` | 37.5%, 12.5%, 37.5% (29.2% over 60 games) |
/// | in force, the same binary, two matches at the same time | 42.5%, 22.5% (32.5% over 40 games) |
///
/// The last two matches ran at the same time, one on each core, with the same settings, and
/// differ by 25 points, as do the two of the search in force; over 60 games the fuller set
/// scored what the search in force did (29.2% over its last 120 games from the start), so
/// none of these is taken. Without the extensions
/// near the leaves the search reaches depth 12 in that position in
/// 0.9 to 1.5 million nodes instead of 3.6, but finds B*2b later; the extensions find the
/// mating attacks that decide these games. In the same position `lmr_cut=1` changes the
/// nodes to each depth by under 20%; with the settings at 0 the searches are the same as
/// before them, node for node. Also tried and removed: taking the quiet moves of a node that
/// futility prunes as generated, without scoring them by history (only checks are searched
/// there): 0.1% fewer instructions (callgrind, Shogi middle game, 300,000 nodes) and 49.2% in
/// Shogi, 49.0% in Judkins Shogi in self-play (300 games each at 30,000 nodes a move).
///
/// **A tactics suite** (`cargo bench --bench search -- tactics benches/tactics/judkins.jsonl
/// [--search NAME=VALUE]...`, one million nodes a position, one thread, reproducible; made by
/// `benches/tactics/make.py` from the Judkins Shogi matches above) asks in a minute what a
/// match answers in half an hour: 29 positions where level 5 played a move that Fairy-Stockfish
/// judges at least 200 worse than its own (from the games it lost), and 58 where level 5 found
/// the only good move. Found of the 29 and of the 58:
///
/// | search | mistakes mended | only moves kept |
/// | --- | ---: | ---: |
/// | in force | 8 | 57 |
/// | selective (as above) | 8 | 57 |
/// | `check_ext_depth=7` | 12 | 58 |
/// | `check_ext_depth=7 lmr_evasion=1 lmr_checks=1 lmr_cut=1` | 12 | 58 |
/// | `lmr_cut=1` / `lmr_cut=2` | 12 / 11 | 57 / 57 |
/// | `singular=8` / `singular=6` | 11 / 9 | 57 / 58 |
/// | `check_ext_depth=4` | 9 | 57 |
///
/// Every change mends a few more of the mistakes, and that is what a suite of the search's
/// own mistakes shows of any change (it moves the search off the moves it chose there), while
/// the kept positions are too easy to fall: `check_ext_depth=7` mends 4 more here and scored
/// 15.0% in its one match. So the suite tells a change that breaks the search from one that
/// does not, and no more; a match still decides.
///
/// **ProbCut** (`probcut`, `probcut_margin`; Fairy-Stockfish has it): from depth 5, off the
/// principal line, a capture whose gain by exchange lifts the static evaluation 200 above beta,
/// and that holds `beta + 200` in the quiescence search and then four plies shallower, cuts
/// the node. In the blunder position above it finds B*2b at depth 11 after 1.6 million nodes
/// (the search in force: depth 12, 3.6 million); on the suite it mends 8 and keeps 56; in
/// self-play, Judkins Shogi, 200 games from random openings, it scored 49.5% at 100,000
/// nodes a move and 50.0% at 1,000,000 (level 5's budget); Shogi, 50.5% at 100,000 (200
/// games). Not taken. The selective search above, at 1,000,000 nodes a move (where a search
/// that reaches deeper might gain more than at 100,000): 50.0% in the same 200 games. Neither
/// changes the result of a game between two searches of a second's nodes.
///
/// **A mate in one before standing pat** (`mate1`, [`Tree::mates_in_one`]): level 5 loses its
/// games against Fairy-Stockfish by mate, and the quiescence search stands pat blind to a
/// piece dropped beside the king. With `mate1=1` it looks for a mate in one at its first ply
/// (contact and leaping checks and discoveries, not distant checks; an undefended drop
/// beside the king is ruled out without being made). In four Judkins Shogi middle games (from the tactics suite, a million
/// nodes) it found a mate in 3% to 6% of the positions it asked, and changed the root's score
/// in three of them (-339 to -475 in one) but not its move, for 10% to 25% fewer nodes a
/// second (`bestmove`, one pinned core); from a Shogi opening it found none. Since the cost is
/// time, it was played on the clock (`texel --compare search.mate1=1 --verify-ms 100`, 100 ms
/// a move, one thread each, pairs of games from random openings): **51.5%** in Judkins Shogi
/// (200 games) and **45.0%** in Shogi (100 games). Not taken: the search already finds a mate
/// in one a ply above the leaves, and at the leaves the time it costs is worth more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// The root's first aspiration window, half its width in centipawns (0: none).
    pub aspiration: i32,
    /// Reverse futility pruning up to this depth, with this margin a ply.
    pub rfp_depth: i32,
    pub rfp_margin: i32,
    /// Nodes of at least this depth without a move from the table are searched a ply less.
    pub iir_depth: i32,
    /// Quiet moves losing more than `see_quiet_margin` a ply by exchange are skipped up to
    /// this depth (off the principal line).
    pub see_quiet_depth: i32,
    pub see_quiet_margin: i32,
    /// Checks are extended only when they do not lose material by exchange (1), or all (0).
    pub check_see: i32,
    /// Singular extensions from this depth on (0: none).
    pub singular: i32,
    /// Quiet moves are ordered by continuation history too (1), or by the butterfly table
    /// alone (0).
    pub cont_history: i32,
    /// History updates: bounded ("gravity") with a malus for the quiet moves that failed
    /// before a cut (1), or the old unbounded bonus of depth² for the cut move alone (0).
    pub history_malus: i32,
    /// Late-move reductions change by one ply per this much history (0: history does not
    /// change them).
    pub lmr_history: i32,
    /// Late-move reductions by `ln(depth)·ln(moves)·100 / lmr_log` plies (0: by the step
    /// table of move counts).
    pub lmr_log: i32,
    /// The null move's reduction: `2 + depth/4` (0), or `3 + depth/3` and a ply more per
    /// 200 above beta, at most 3 (1).
    pub null_margin: i32,
    /// Move-count pruning and futility pruning up to these depths.
    pub lmp_depth: i32,
    pub futility_depth: i32,
    /// Move-count pruning skips the quiet moves after the first `lmp_base + lmp_mul·depth²`.
    pub lmp_base: i32,
    pub lmp_mul: i32,
    /// A repetition the rules score as a draw counts this many centipawns against the side
    /// to move at the root, and for its opponent (0: a draw is 0 for both).
    pub contempt: i32,
    /// Late-move reductions reach quiet evasions in check (1), or not (0).
    pub lmr_evasion: i32,
    /// Late-move reductions reach quiet checking moves, a ply less than others (1), or not
    /// (0).
    pub lmr_checks: i32,
    /// Checks are extended only at this depth or more (0: at every depth).
    pub check_ext_depth: i32,
    /// The quiescence search tries at most this many captures a node, promotions aside, when
    /// not in check (0: all).
    pub qs_moves: i32,
    /// Late-move reductions are this many plies deeper in nodes expected to fail high.
    pub lmr_cut: i32,
    /// ProbCut from this depth on (0: none): off the principal line, a capture that holds
    /// `beta + probcut_margin` in a search four plies shallower (after the quiescence search
    /// agrees) cuts the node.
    pub probcut: i32,
    pub probcut_margin: i32,
    /// The quiescence search looks for a mate in one of the side to move before it stands
    /// pat, at its first `mate1` plies (0: never): see `Tree::mates_in_one`.
    pub mate1: i32,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            aspiration: 35,
            rfp_depth: 3,
            rfp_margin: 150,
            iir_depth: 4,
            see_quiet_depth: 3,
            see_quiet_margin: 100,
            check_see: 1,
            singular: 0,
            cont_history: 1,
            history_malus: 1,
            lmr_history: 8_000,
            lmr_log: 0,
            null_margin: 0,
            lmp_depth: 3,
            futility_depth: 2,
            lmp_base: 6,
            lmp_mul: 3,
            contempt: 0,
            lmr_evasion: 0,
            lmr_checks: 0,
            check_ext_depth: 0,
            qs_moves: 0,
            lmr_cut: 0,
            probcut: 0,
            probcut_margin: 200,
            mate1: 0,
        }
    }
}

impl SearchParams {
    /// The settings in force for a game: the defaults, but where self-play found otherwise.
    pub fn of(id: VariantId) -> SearchParams {
        let mut p = SearchParams::default();
        for &(v, name, value) in PARAM_OVERRIDES {
            if v == id {
                p.set(name, value);
            }
        }
        p
    }

    /// The settings' names, as `set` takes them.
    pub const NAMES: [&'static str; 26] = [
        "aspiration",
        "rfp_depth",
        "rfp_margin",
        "iir_depth",
        "see_quiet_depth",
        "see_quiet_margin",
        "check_see",
        "singular",
        "cont_history",
        "history_malus",
        "lmr_history",
        "lmr_log",
        "null_margin",
        "lmp_depth",
        "futility_depth",
        "lmp_base",
        "lmp_mul",
        "contempt",
        "lmr_evasion",
        "lmr_checks",
        "check_ext_depth",
        "qs_moves",
        "lmr_cut",
        "probcut",
        "probcut_margin",
        "mate1",
    ];

    /// Sets a setting given as `NAME=VALUE`; the message says what is wrong with it.
    pub fn set_from(&mut self, setting: &str) -> Result<(), String> {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("--search {setting}: write it as NAME=VALUE"))?;
        let value: i32 = value
            .trim()
            .parse()
            .map_err(|_| format!("--search {setting}: {value:?} is not a whole number"))?;
        if self.set(name.trim(), value) {
            Ok(())
        } else {
            Err(format!(
                "--search {setting}: no such setting (one of {})",
                Self::NAMES.join(", ")
            ))
        }
    }

    /// Sets a setting by name; false if there is none of that name.
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        let field = match name {
            "aspiration" => &mut self.aspiration,
            "rfp_depth" => &mut self.rfp_depth,
            "rfp_margin" => &mut self.rfp_margin,
            "iir_depth" => &mut self.iir_depth,
            "see_quiet_depth" => &mut self.see_quiet_depth,
            "see_quiet_margin" => &mut self.see_quiet_margin,
            "check_see" => &mut self.check_see,
            "singular" => &mut self.singular,
            "cont_history" => &mut self.cont_history,
            "history_malus" => &mut self.history_malus,
            "lmr_history" => &mut self.lmr_history,
            "lmr_log" => &mut self.lmr_log,
            "null_margin" => &mut self.null_margin,
            "lmp_depth" => &mut self.lmp_depth,
            "futility_depth" => &mut self.futility_depth,
            "lmp_base" => &mut self.lmp_base,
            "lmp_mul" => &mut self.lmp_mul,
            "contempt" => &mut self.contempt,
            "lmr_evasion" => &mut self.lmr_evasion,
            "lmr_checks" => &mut self.lmr_checks,
            "check_ext_depth" => &mut self.check_ext_depth,
            "qs_moves" => &mut self.qs_moves,
            "lmr_cut" => &mut self.lmr_cut,
            "probcut" => &mut self.probcut,
            "probcut_margin" => &mut self.probcut_margin,
            "mate1" => &mut self.mate1,
            _ => return false,
        };
        *field = value;
        true
    }
}

/// Settings that differ in one game from the defaults (data, from self-play: see
/// [`SearchParams`]).
const PARAM_OVERRIDES: &[(VariantId, &str, i32)] = &[];

/// Natural logarithms of 0 to 63 (0 for 0), for the reductions by `lmr_log`.
static LN: [f32; 64] = {
    let mut t = [0.0f32; 64];
    let mut i = 1;
    while i < 64 {
        t[i] = ln(i as f64) as f32;
        i += 1;
    }
    t
};

/// The natural logarithm, by series (const: the table above is built at compile time).
const fn ln(x: f64) -> f64 {
    // ln x = 2·artanh((x-1)/(x+1)).
    let y = (x - 1.0) / (x + 1.0);
    let y2 = y * y;
    let mut term = y;
    let mut sum = 0.0;
    let mut k = 1.0;
    while k < 400.0 {
        sum += term / k;
        term *= y2;
        k += 2.0;
    }
    2.0 * sum
}

/// Quiescence search follows check evasions this many captures deep, then stops at the
/// evaluation.
const QS_CHECK_DEPTH: i32 = 2;

/// The state of one search: what `think` sets up, the tree walk reads and updates.
pub(crate) struct Tree<'a> {
    pub tt: &'a Tt,
    pub history: &'a mut [i32],
    pub e: &'a EvalTables,
    pub killers: Vec<[Option<Move>; 2]>,
    pub params: SearchParams,
    /// Per ply: the move its singular test searches without.
    excluded: Vec<Option<Move>>,
    /// Hashes of every position of the game and of the current path, the root last at the
    /// start.
    pub hashes: Vec<u64>,
    /// For every entry of `hashes`: whether the side to move there was in check.
    pub checks: Vec<bool>,
    pub rule: RepetitionRule,
    pub stalemate_loses: bool,
    pub palace: bool,
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<Instant>,
    pub stop_flag: Option<&'a std::sync::atomic::AtomicBool>,
    /// Limits apply (off during the first iteration, which always completes).
    pub limits_on: bool,
    pub stopped: bool,
    /// Whether the node `search` enters next is expected to fail high (a cut node): set by
    /// the parent just before the call, taken by the child at once.
    next_cut: bool,
    pub pv: Vec<Vec<Move>>,
    /// Depth of the current iteration (check extensions stop at twice this many plies).
    pub root_depth: i32,
    /// Index in `hashes` of the position after the latest null move on the path: repetitions
    /// are not looked for across it.
    null_floor: usize,
    moves: Vec<Vec<Move>>,
    /// The moves of each ply's current stage with their ordering scores.
    scored: Vec<Vec<(i32, Move)>>,
    /// Each ply's captures that lose material by exchange: tried after the quiet moves.
    bad: Vec<Vec<Move>>,
    /// A buffer for checking a hash move.
    scratch: Vec<Move>,
    /// Per ply: the board's part of the shape term (`eval::Shape::board_after`), kept up
    /// move by move; ply 0 is the root.
    pub shape: Vec<[i32; 2]>,
    /// Per ply: the material balance from Black's view (`eval::material_after`), kept up
    /// the same way.
    material: Vec<i32>,
    /// Full evaluations by hash (see `eval::evaluate_cached`).
    eval_cache: Vec<u64>,
    /// Whether the game allows the check filter (`Position::may_give_check`): not with palace
    /// hooks or blockable leaps, which attack in other ways.
    check_filter: bool,
    /// The continuation history (see [`Cont`]).
    cont: Cont,
    /// Per ply: the move played from it, as [`Cont::key`] gives it ([`NO_KEY`] after a null
    /// move).
    played: Vec<u16>,
    /// Per ply: the quiet moves searched so far (mover's code, destination); they lose
    /// history when a later quiet move cuts.
    tried: Vec<Vec<(u8, Square)>>,
}

/// No move (a null move, or before the root).
const NO_KEY: u16 = u16::MAX;

/// Bound of the history tables' entries (updates slow down as they approach it).
const HISTORY_MAX: i32 = 16_384;

/// Continuation history: how well a quiet move (its piece's kind and its destination) has done
/// right after a given move: the opponent's last move, or our own move before it. A good reply
/// to one move is often good again whenever that move is played, wherever in the tree.
///
/// Squares are seen from the side to move (the board turned for the second player) and kinds
/// are the game's own, so one table serves both sides and stays small: a row per kind and
/// square of the previous move, once for the opponent's and once for our own, plus one row for
/// "no move", each with an entry per kind and square of the reply. Shogi's 14 kinds make 1,134
/// slots and a table of 2.6 M entries (5 MB).
struct Cont {
    table: Vec<i16>,
    /// Kinds × 81.
    slots: usize,
    /// Per piece code: its kind's first slot (the kind's index in the game × 81).
    base: [u16; CODES],
    /// Per square bit: the same square seen from the other side.
    flip: [u8; 81],
}

impl Cont {
    fn new(pos: &Position) -> Cont {
        let v = pos.v;
        let mut base = [0u16; CODES];
        let mut kinds: Vec<crate::engine::PieceKind> = Vec::new();
        for l in v.spec.pieces.letters {
            if !kinds.contains(&l.kind) {
                kinds.push(l.kind);
            }
            let k = kinds.iter().position(|&k| k == l.kind).unwrap_or(0);
            for c in crate::engine::Color::ALL {
                base[Piece::new(l.kind, c).code() as usize] = (k * 81) as u16;
            }
        }
        let (files, ranks) = (v.files() as usize, v.ranks() as usize);
        let mut flip = [0u8; 81];
        for r in 0..ranks {
            for c in 0..files {
                flip[r * 9 + c] = ((ranks - 1 - r) * 9 + files - 1 - c) as u8;
            }
        }
        let slots = kinds.len() * 81;
        Cont {
            table: huge_vec((2 * slots + 1) * slots),
            slots,
            base,
            flip,
        }
    }

    /// The key of a move of piece `code` to `to`.
    #[inline]
    fn key(&self, code: u8, to: Square) -> u16 {
        self.base[code as usize] + to.bit() as u16
    }

    /// The slot of a key seen from `side`.
    #[inline]
    fn slot(&self, key: u16, side: usize) -> usize {
        let (kind, bit) = (key as usize / 81 * 81, key as usize % 81);
        kind + if side == 0 {
            bit
        } else {
            self.flip[bit] as usize
        }
    }

    /// A node's two rows (their first entries), after the opponent's move `prev1` and our
    /// own `prev2`, for `side` to move.
    #[inline]
    /// Starts loading `rows` (see [`prefetch`]), a cache line at a time.
    fn prefetch(&self, rows: [usize; 2]) {
        for r in rows {
            for line in self.table[r..r + self.slots].chunks(32) {
                prefetch(&line[0]);
            }
        }
    }

    fn rows(&self, prev1: u16, prev2: u16, side: usize) -> [usize; 2] {
        let none = 2 * self.slots;
        let r1 = if prev1 == NO_KEY {
            none
        } else {
            self.slot(prev1, side)
        };
        let r2 = if prev2 == NO_KEY {
            none
        } else {
            self.slots + self.slot(prev2, side)
        };
        [r1 * self.slots, r2 * self.slots]
    }
}

/// A bounded history update: the entry moves by `bonus`, the less the nearer it is to the
/// bound on that side.
#[inline]
fn gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / HISTORY_MAX
}

/// Where a node's move picking stands: the hash move, then the captures that do not lose
/// material (by exchange evaluation), then the killers and the other quiet moves by history
/// (promotions first), then the losing captures. Each stage's moves are generated only when
/// the previous stages did not cut.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    Hash,
    GenCaptures,
    Captures,
    GenQuiets,
    Quiets,
    Done,
}

struct Picker {
    stage: Stage,
    hash_move: Option<Move>,
    /// In check: the moves that can answer it (`Position::evasion_mask`); all otherwise.
    mask: crate::engine::movegen::Evasion,
    i: usize,
    /// The quiet moves left are taken in any order (they are being pruned).
    unordered: bool,
}

/// Moves after this many are sorted once instead of picked one by one.
const PICK_FIRST: usize = 6;

impl<'a> Tree<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        tt: &'a Tt,
        history: &'a mut [i32],
        e: &'a EvalTables,
        pos: &Position,
        hashes: Vec<u64>,
        checks: Vec<bool>,
        node_limit: u64,
        deadline: Option<Instant>,
        stop_flag: Option<&'a std::sync::atomic::AtomicBool>,
    ) -> Tree<'a> {
        let spec = &pos.v.spec;
        Tree {
            tt,
            history,
            e,
            killers: vec![[None; 2]; MAX_PLY + 2],
            params: SearchParams::default(),
            excluded: vec![None; MAX_PLY + 2],
            hashes,
            checks,
            rule: spec.end.repetition,
            stalemate_loses: spec.end.stalemate == StalemateRule::Loss,
            palace: pos.v.t.palace.is_some(),
            nodes: 0,
            node_limit,
            deadline,
            stop_flag,
            limits_on: false,
            stopped: false,
            next_cut: false,
            pv: vec![Vec::new(); MAX_PLY + 2],
            root_depth: 1,
            null_floor: 0,
            moves: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            scored: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(256)).collect(),
            bad: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(32)).collect(),
            scratch: Vec::with_capacity(64),
            shape: {
                let mut s = vec![[0; 2]; MAX_PLY + 2];
                s[0] = e.shape.board_sums(pos);
                s
            },
            material: {
                let mut m = vec![0; MAX_PLY + 2];
                m[0] = material_of_black(pos, e);
                m
            },
            eval_cache: huge_vec(CACHE_SIZE),
            check_filter: pos.v.t.palace.is_none()
                && pos.v.t.lame_attacks.iter().all(|l| l.is_empty()),
            cont: Cont::new(pos),
            played: vec![NO_KEY; MAX_PLY + 2],
            tried: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
        }
    }

    /// Notes that `m` (not yet made in `pos`) is played from `ply`.
    #[inline]
    pub(crate) fn note_played(&mut self, ply: usize, pos: &Position, m: Move) {
        self.played[ply] = self.cont.key(Self::mover(pos, m), m.to());
    }

    /// The continuation rows of the node at `ply`, for `side` to move.
    #[inline]
    fn cont_rows(&self, ply: usize, side: usize) -> [usize; 2] {
        let back = |n: usize| ply.checked_sub(n).map_or(NO_KEY, |p| self.played[p]);
        self.cont.rows(back(1), back(2), side)
    }

    /// The history of a quiet move of piece `code` to `to` at a node with `rows`.
    #[inline]
    fn quiet_history(&self, rows: [usize; 2], side: usize, code: u8, to: Square) -> i32 {
        let main = self.history[Self::history_index(code, to)];
        if self.params.cont_history == 0 {
            return main;
        }
        let c = &self.cont;
        let cur = c.slot(c.key(code, to), side);
        main + i32::from(c.table[rows[0] + cur]) + i32::from(c.table[rows[1] + cur])
    }

    /// Moves the history of a quiet move by `bonus` (see [`gravity`]).
    fn reward(&mut self, rows: [usize; 2], side: usize, code: u8, to: Square, bonus: i32) {
        let hi = Self::history_index(code, to);
        self.history[hi] = gravity(self.history[hi], bonus);
        if self.params.cont_history != 0 {
            let c = &mut self.cont;
            let cur = c.slot(c.key(code, to), side);
            for r in rows {
                let e = &mut c.table[r + cur];
                *e = gravity(i32::from(*e), bonus) as i16;
            }
        }
    }

    /// Counts a node and tells whether the search must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if !self.limits_on {
            return false;
        }
        let out_of_time = || {
            self.deadline.is_some_and(|d| Instant::now() >= d)
                || self
                    .stop_flag
                    .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        };
        if self.nodes >= self.node_limit || (self.nodes & 1023 == 0 && out_of_time()) {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether a position with this hash has occurred twice already (game and path): a move
    /// to it is refused where the third occurrence is forbidden.
    #[inline]
    pub(crate) fn third_time(&self, h: u64) -> bool {
        self.rule == RepetitionRule::ThirdForbidden
            && self.hashes.len() >= 8
            && self.hashes.iter().filter(|&&x| x == h).count() >= 2
    }

    /// The score of the current position (the last of `hashes`) if it repeats an earlier one
    /// with the same side to move, from the side to move's view.
    fn repetition(&self, ply: usize) -> Option<i32> {
        if self.rule == RepetitionRule::ThirdForbidden {
            return None;
        }
        let n = self.hashes.len();
        let h = self.hashes[n - 1];
        let mut i = n.checked_sub(5)?;
        let first = loop {
            if i < self.null_floor {
                return None;
            }
            if self.hashes[i] == h {
                break i;
            }
            if i < 2 {
                return None;
            }
            i -= 2;
        };
        // A draw, seen from the side to move at `ply` (the root's side at even plies).
        let draw = if ply.is_multiple_of(2) {
            -self.params.contempt
        } else {
            self.params.contempt
        };
        if self.rule == RepetitionRule::FourfoldDraw {
            return Some(draw);
        }
        // Position k arose from a move of the side not to move at k. Moves into positions
        // n-1, n-3, ... were the opponent's ("them"), into n-2, n-4, ... ours.
        let (mut them_all, mut us_all) = (true, true);
        for k in first + 1..n {
            if !self.checks[k] {
                if (n - 1 - k).is_multiple_of(2) {
                    them_all = false;
                } else {
                    us_all = false;
                }
            }
        }
        Some(match (us_all, them_all) {
            (false, true) => MATE - ply as i32,
            (true, false) => -(MATE - ply as i32),
            _ => draw,
        })
    }

    /// The piece code that makes `m`.
    #[inline]
    fn mover(pos: &Position, m: Move) -> u8 {
        match m {
            Move::Drop { kind, .. } => Piece::new(kind, pos.side).code(),
            _ => m.from().map_or(0, |f| pos.board[f.index()]),
        }
    }

    /// What `m` captures: the gain of its victims (0 if none).
    #[inline]
    fn capture_gain(&self, pos: &Position, m: Move) -> i32 {
        let b = &pos.board;
        let at = |s: Square| -> i32 {
            let c = b[s.index()];
            if is_piece(c) {
                self.e.gain[c as usize]
            } else {
                0
            }
        };
        match m {
            Move::Board { from, to, .. } if from != to => at(to),
            Move::PromoteTo { to, .. } => at(to),
            Move::Lion { from, via, to } => at(via) + if to != from { at(to) } else { 0 },
            Move::EnPassant { from, to } => at(Square::new(to.col(), from.row())),
            _ => 0,
        }
    }

    /// Starts loading the table slot and the evaluation cache slot of the position with hash
    /// `h`, which the search of a child reads first (see [`prefetch`]).
    #[inline]
    fn prefetch(&self, h: u64) {
        self.tt.prefetch(h);
        prefetch(&self.eval_cache[cache_slot(h)]);
    }

    /// The evaluation of the position at `ply` (through the cache, with the shape sums kept
    /// up to it).
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize, alpha: i32, beta: i32) -> i32 {
        evaluate_cached(
            pos,
            self.e,
            alpha,
            beta,
            &mut self.eval_cache,
            self.shape[ply],
            self.material[ply],
        )
    }

    /// Keeps the evaluation's running sums (the shape term's board sums, the material) up for
    /// ply `ply`, reached by `m` (just made in `pos`, `u` its undo) from the ply before.
    #[inline]
    pub(crate) fn sums_after(&mut self, ply: usize, pos: &Position, m: Move, u: &Undo) {
        self.shape[ply] = self.e.shape.board_after(self.shape[ply - 1], pos, m, u);
        self.material[ply] = material_after(self.material[ply - 1], self.e, pos, m, u);
    }

    #[inline]
    fn history_index(code: u8, to: Square) -> usize {
        code as usize * CELLS + to.index()
    }

    /// Scores captures (already in `self.moves[ply]`) into `self.scored[ply]` by victim first,
    /// then the cheapest attacker (MVV-LVA), leaving out `skip`.
    fn score_captures(&mut self, pos: &Position, ply: usize, skip: Option<Move>) {
        let moves = std::mem::take(&mut self.moves[ply]);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        for &m in &moves {
            if Some(m) == skip {
                continue;
            }
            let gain = self.capture_gain(pos, m);
            let code = Self::mover(pos, m);
            let promo = if m.promotes() { 8 } else { 0 };
            scored.push((gain * 16 + promo - self.e.board[code as usize] / 16, m));
        }
        self.moves[ply] = moves;
        self.scored[ply] = scored;
    }

    /// Scores quiet moves (already in `self.moves[ply]`) and the losing captures of `ply` into
    /// `self.scored[ply]`: killers, then promotions, then history; losing captures last.
    fn score_quiets(&mut self, pos: &Position, ply: usize, skip: Option<Move>) {
        let moves = std::mem::take(&mut self.moves[ply]);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        let [k1, k2] = self.killers[ply];
        let side = pos.side.index();
        let rows = self.cont_rows(ply, side);
        // The destinations of the moves singled out: most moves differ there, which is
        // cheaper to see than a whole move's difference.
        let target = |m: Option<Move>| m.map_or(NO_SQUARE, |m| m.to());
        let special = [target(skip), target(k1), target(k2)];
        for &m in &moves {
            let to = m.to();
            let marked = special.contains(&to);
            if marked && Some(m) == skip {
                continue;
            }
            let s = if marked && Some(m) == k1 {
                1_400_000
            } else if marked && Some(m) == k2 {
                1_300_000
            } else if m.promotes() {
                1_500_000
            } else {
                let code = Self::mover(pos, m);
                self.quiet_history(rows, side, code, m.to()).min(1_000_000)
            };
            scored.push((s, m));
        }
        for &m in &self.bad[ply] {
            scored.push((-1_000_000 + self.capture_gain(pos, m), m));
        }
        self.moves[ply] = moves;
        self.scored[ply] = scored;
    }

    /// Whether a capture is made by a piece worth no more than its victim: it cannot lose by
    /// exchange, and needs no exchange evaluation.
    #[inline]
    fn cheap_capture(&self, pos: &Position, m: Move) -> bool {
        m.from().is_some_and(|f| {
            self.e.board[pos.board[f.index()] as usize]
                <= self.e.board[pos.board[m.to().index()] as usize]
        })
    }

    /// The next move of a node, stage by stage (see `Stage`); pseudo-legal.
    #[inline(never)]
    fn next_move(&mut self, pos: &Position, ply: usize, p: &mut Picker) -> Option<Move> {
        loop {
            match p.stage {
                Stage::Hash => {
                    p.stage = Stage::GenCaptures;
                    if let Some(m) = p.hash_move {
                        if pos.is_pseudo_legal(m, &mut self.scratch) {
                            return Some(m);
                        }
                        p.hash_move = None;
                    }
                }
                Stage::GenCaptures => {
                    let moves = &mut self.moves[ply];
                    moves.clear();
                    pos.pseudo_stage(moves, true, p.mask);
                    self.score_captures(pos, ply, p.hash_move);
                    self.bad[ply].clear();
                    p.i = 0;
                    p.stage = Stage::Captures;
                }
                Stage::Captures => {
                    if p.i >= self.scored[ply].len() {
                        p.stage = Stage::GenQuiets;
                        continue;
                    }
                    let m = self.pick(ply, p.i);
                    p.i += 1;
                    if !self.cheap_capture(pos, m) && see(pos, self.e, m) < 0 {
                        self.bad[ply].push(m);
                        continue;
                    }
                    return Some(m);
                }
                Stage::GenQuiets => {
                    if self.params.cont_history != 0 {
                        self.cont.prefetch(self.cont_rows(ply, pos.side.index()));
                    }
                    let moves = &mut self.moves[ply];
                    moves.clear();
                    pos.pseudo_stage(moves, false, p.mask);
                    self.score_quiets(pos, ply, p.hash_move);
                    p.i = 0;
                    p.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if p.i >= self.scored[ply].len() {
                        p.stage = Stage::Done;
                        continue;
                    }
                    let m = if p.unordered {
                        self.scored[ply][p.i].1
                    } else {
                        self.pick(ply, p.i)
                    };
                    p.i += 1;
                    return Some(m);
                }
                Stage::Done => return None,
            }
        }
    }

    /// The move to try `i`-th: the best-scored of those left (the first few picked one by
    /// one, since a cut often comes early; the rest sorted once).
    #[inline]
    fn pick(&mut self, ply: usize, i: usize) -> Move {
        let scored = &mut self.scored[ply];
        if i >= PICK_FIRST {
            if i == PICK_FIRST {
                scored[i..].sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
            }
            return scored[i].1;
        }
        let mut best = i;
        for j in i + 1..scored.len() {
            if scored[j].0 > scored[best].0 {
                best = j;
            }
        }
        scored.swap(i, best);
        scored[i].1
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Whether the move just made (by the side not to move now) won by entering the king.
    #[inline]
    fn entered(&self, pos: &Position, m: Move) -> bool {
        self.palace
            && m.from().is_some_and(|_| {
                let k = pos.kings[(!pos.side).index()];
                k == m.to() && entered_king(pos).is_some()
            })
    }

    /// The squares a move of the side to move must leave or reach to give a discovered check
    /// (see `Position::may_give_check`); all of them when the filter is off or the enemy king
    /// is in check (a position the search does not reach with a legal move).
    #[inline]
    fn discovery(&self, pos: &Position) -> u128 {
        let them = (!pos.side).index();
        let king = pos.kings[them];
        if !self.check_filter || king == NO_SQUARE {
            return !0;
        }
        pos.exposure(king, pos.side.index(), pos.side.index())
    }

    /// Whether `m` may give check (false only when it surely does not).
    #[inline]
    fn may_check(&self, pos: &Position, m: Move, discovery: u128) -> bool {
        discovery == !0 || pos.may_give_check(m, discovery)
    }

    /// Whether the side to move, not in check, mates at once: a legal move that checks and
    /// leaves the opponent without a legal reply. Only contact and leaping checks and
    /// discoveries are looked for: the moves and drops to a square from which one of our
    /// kinds steps or leaps to the enemy king, and every move of a piece on a square of
    /// `discovery` (a distant check by a line piece is not tried). A pawn drop that would mate is not legal (the generator refuses it), so
    /// it is never found; a reply the rules refuse for repetition (Shanghai) still counts as
    /// one, so a mate found is a mate. Games without the check filter (palace hooks,
    /// blockable leaps) are not asked: false.
    ///
    /// This is for the quiescence search, which otherwise stands pat blind to the commonest
    /// end of a game with drops: a piece dropped beside the king. Its buffers are the next
    /// two plies' move lists, free while the node has not made a move.
    fn mates_in_one(&mut self, pos: &mut Position, ply: usize) -> bool {
        let king = pos.kings[(!pos.side).index()];
        if !self.check_filter || king == NO_SQUARE || ply + 2 >= self.moves.len() {
            return false;
        }
        let t = &pos.v.t;
        let k = king.bit() as usize;
        let discovery = self.discovery(pos);
        let mask = Evasion {
            to: t.step_near[pos.side.index()][k],
            from: discovery,
        };
        // A piece dropped beside the king where none of ours defends it is taken by the
        // king (the king lifted, so that a line through it is seen): no mate, nothing to try.
        let king_steps = t.step_capture[pos.board[king.index()] as usize][k];
        let without_king = (pos.occ[0] | pos.occ[1]) & !(1u128 << k);
        let mut buf = std::mem::take(&mut self.moves[ply + 1]);
        buf.clear();
        pos.masked_moves(&mut buf, mask);
        let ctx = pos.legal_ctx_checked(false);
        let mut replies = std::mem::take(&mut self.moves[ply + 2]);
        let mut found = false;
        for &m in &buf {
            if !pos.may_give_check(m, discovery) {
                continue;
            }
            if let Move::Drop { to, .. } = m {
                if king_steps & (1u128 << to.bit()) != 0
                    && !pos.attacked_in(to, pos.side, without_king)
                {
                    continue;
                }
            }
            if !pos.is_legal(m, &ctx) {
                continue;
            }
            let u = pos.make(m);
            if pos.in_check() && !self.third_time(pos.hash) {
                replies.clear();
                let answer = pos.legal_ctx_checked(true);
                pos.candidate_moves(&mut replies, &answer);
                found = !replies.iter().any(|&r| pos.is_legal(r, &answer));
            }
            pos.unmake(m, u);
            if found {
                break;
            }
        }
        self.moves[ply + 1] = buf;
        self.moves[ply + 2] = replies;
        found
    }

    /// The alpha-beta search of a non-root node, from the side to move's view.
    pub(crate) fn search(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        in_check: bool,
    ) -> i32 {
        self.pv[ply].clear();
        let cut_node = std::mem::take(&mut self.next_cut);
        if let Some(s) = self.repetition(ply) {
            return s;
        }
        // Mate distance pruning.
        alpha = alpha.max(-(MATE - ply as i32));
        let beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(pos, ply, alpha, beta, 0, Some(in_check));
        }
        if self.tick() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let key = pos.hash;
        // A search of this node without one move (the singular test below) neither reads
        // nor writes the node's entry, and prunes nothing before its moves.
        let excluded = self.excluded[ply].take();
        let mut tt_move = None;
        let mut tt_entry = None;
        if let Some(en) = self.tt.probe(key).filter(|_| excluded.is_none()) {
            tt_move = en.mv;
            tt_entry = Some(en);
            if !pv_node && en.depth as i32 >= depth {
                let s = from_tt(en.score as i32, ply);
                let cut = match en.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        // Only the null move and futility pruning read it, and only off the principal line.
        let static_eval = if in_check || pv_node || excluded.is_some() {
            -INF
        } else {
            self.evaluate(pos, ply, alpha, beta)
        };
        // Reverse futility: a position this far above beta with so little depth left keeps
        // its edge through one quiet move.
        if !pv_node
            && !in_check
            && depth <= self.params.rfp_depth
            && static_eval.abs() < MATE_BOUND
            && static_eval - self.params.rfp_margin * depth >= beta
        {
            return static_eval;
        }
        // A node the table knows nothing of is searched a ply shallower: it is rarely on the
        // line that matters, and the next iteration finds its best move cheaply.
        if self.params.iir_depth > 0
            && depth >= self.params.iir_depth
            && tt_move.is_none()
            && excluded.is_none()
        {
            depth -= 1;
        }
        // Singular extension: when the table's move held a bound at nearly this depth and
        // every other move, searched at half the depth, falls clearly short of it, that move
        // is the only one and gets a ply more. If the others reach beta too, the node is cut
        // (several moves hold it).
        let mut singular = None;
        if let (Some(en), Some(m)) = (tt_entry, tt_move) {
            let s = from_tt(en.score as i32, ply);
            if self.params.singular > 0
                && depth >= self.params.singular
                && en.depth as i32 >= depth - 3
                && en.bound != Bound::Upper
                && s.abs() < MATE_BOUND
            {
                let sb = s - 2 * depth;
                self.excluded[ply] = Some(m);
                self.next_cut = cut_node;
                let v = self.search(pos, (depth - 1) / 2, ply, sb - 1, sb, in_check);
                self.excluded[ply] = None;
                if self.stopped {
                    return 0;
                }
                if v < sb {
                    singular = Some(m);
                } else if sb >= beta {
                    return sb;
                }
                self.pv[ply].clear();
            }
        }
        // Null move: if passing still holds beta, a real move will (zugzwang is rare in games
        // with drops and many pieces). Not twice in a row, not in check, not near mate.
        let after_null = self.null_floor == self.hashes.len() - 1;
        if !pv_node
            && !in_check
            && !after_null
            && excluded.is_none()
            && depth >= 3
            && static_eval >= beta
            && beta.abs() < MATE_BOUND
        {
            let r = if self.params.null_margin == 0 {
                2 + depth / 4
            } else {
                3 + depth / 3 + ((static_eval - beta) / 200).min(3)
            };
            let ep = pos.ep;
            if ep != NO_SQUARE {
                pos.set_ep(NO_SQUARE);
            }
            pos.side = !pos.side;
            pos.hash ^= zobrist::SIDE;
            let floor = self.null_floor;
            self.hashes.push(pos.hash);
            self.checks.push(false);
            self.null_floor = self.hashes.len() - 1;
            self.shape[ply + 1] = self.shape[ply];
            self.material[ply + 1] = self.material[ply];
            self.played[ply] = NO_KEY;
            self.next_cut = !cut_node;
            let s = -self.search(pos, depth - 1 - r, ply + 1, -beta, -beta + 1, false);
            self.null_floor = floor;
            self.hashes.pop();
            self.checks.pop();
            pos.side = !pos.side;
            pos.hash ^= zobrist::SIDE;
            if ep != NO_SQUARE {
                pos.set_ep(ep);
            }
            if self.stopped {
                return 0;
            }
            if s >= beta {
                return if s >= MATE_BOUND { beta } else { s };
            }
        }
        if self.params.probcut > 0
            && !pv_node
            && !in_check
            && excluded.is_none()
            && depth >= self.params.probcut
            && beta.abs() < MATE_BOUND
        {
            if let Some(s) = self.probcut(pos, depth, ply, beta, static_eval, cut_node) {
                return s;
            }
            if self.stopped {
                return 0;
            }
        }
        // Near the leaves, quiet moves that cannot lift a bad position to alpha are skipped
        // (futility), and so are late quiet moves (move-count pruning).
        let futile = !pv_node
            && !in_check
            && depth <= self.params.futility_depth
            && static_eval + 150 * depth <= alpha;
        let late_limit = if !pv_node && !in_check && depth <= self.params.lmp_depth {
            (self.params.lmp_base + self.params.lmp_mul * depth * depth) as usize
        } else {
            usize::MAX
        };
        let mut quiets = 0usize;
        let ctx = pos.legal_ctx_checked(in_check);
        let mut picker = Picker {
            stage: Stage::Hash,
            hash_move: tt_move,
            mask: Position::evasion_mask(&ctx),
            i: 0,
            unordered: false,
        };
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut legal = 0;
        let discovery = self.discovery(pos);
        let side = pos.side.index();
        let rows = self.cont_rows(ply, side);
        self.tried[ply].clear();
        while let Some(m) = self.next_move(pos, ply, &mut picker) {
            if Some(m) == excluded {
                continue;
            }
            let quiet = !pos.captures(m) && !m.promotes();
            let may_check = self.may_check(pos, m, discovery);
            if quiet && !may_check && best > -MATE_BOUND && (futile || quiets >= late_limit) {
                // Pruned below without being made: the rest of the stage needs no order.
                picker.unordered = true;
                continue;
            }
            // Near the leaves, a quiet move that puts its piece where the opponent wins it by
            // exchange is not tried.
            if quiet
                && !pv_node
                && !in_check
                && !may_check
                && depth <= self.params.see_quiet_depth
                && best > -MATE_BOUND
                && see(pos, self.e, m) < -self.params.see_quiet_margin * depth
            {
                continue;
            }
            let code = Self::mover(pos, m);
            if !pos.is_legal(m, &ctx) {
                continue;
            }
            self.played[ply] = self.cont.key(code, m.to());
            let mut u = pos.make(m);
            let h = pos.hash;
            self.prefetch(h);
            if self.third_time(h) {
                pos.unmake(m, u);
                continue;
            }
            legal += 1;
            let gives_check = may_check && pos.in_check();
            // A check extends the search (while the path is under twice the iteration's
            // depth), unless it loses its piece by exchange (read on the position before the
            // move: taken back for it, then made again).
            let extend_check = gives_check
                && depth >= self.params.check_ext_depth
                && (ply as i32) < 2 * self.root_depth
                && (self.params.check_see == 0 || {
                    pos.unmake(m, u);
                    let sound = see(pos, self.e, m) >= 0;
                    u = pos.make(m);
                    sound
                });
            if quiet && !gives_check && best > -MATE_BOUND {
                quiets += 1;
                if futile || quiets > late_limit {
                    pos.unmake(m, u);
                    continue;
                }
            }
            let score = if self.entered(pos, m) {
                self.pv[ply + 1].clear();
                MATE - ply as i32 - 1
            } else {
                self.hashes.push(h);
                self.checks.push(gives_check);
                self.sums_after(ply + 1, pos, m, &u);
                let ext = i32::from(
                    extend_check || (singular == Some(m) && (ply as i32) < 2 * self.root_depth),
                );
                let new_depth = depth - 1 + ext;
                let s = if legal == 1 {
                    self.next_cut = !pv_node && !cut_node;
                    -self.search(pos, new_depth, ply + 1, -beta, -alpha, gives_check)
                } else {
                    let r = if depth >= 3
                        && legal > 3
                        && quiet
                        && (!in_check || self.params.lmr_evasion > 0)
                        && (!gives_check || self.params.lmr_checks > 0)
                    {
                        let mut r = if self.params.lmr_log > 0 {
                            (LN[depth.min(63) as usize] * LN[(legal as usize).min(63)] * 100.0
                                / self.params.lmr_log as f32) as i32
                        } else {
                            1 + i32::from(legal > 8) + i32::from(legal > 24) + i32::from(depth > 6)
                        };
                        // Moves whose history is good are reduced less, bad ones more.
                        if self.params.lmr_history > 0 {
                            let h = self.quiet_history(rows, side, code, m.to());
                            r -= (h / self.params.lmr_history).clamp(-2, 2);
                        }
                        if gives_check {
                            r -= 1;
                        }
                        if cut_node {
                            r += self.params.lmr_cut;
                        }
                        r.clamp(0, new_depth - 1)
                    } else {
                        0
                    };
                    self.next_cut = r > 0 || !cut_node;
                    let mut s =
                        -self.search(pos, new_depth - r, ply + 1, -alpha - 1, -alpha, gives_check);
                    if s > alpha && r > 0 {
                        self.next_cut = !cut_node;
                        s = -self.search(pos, new_depth, ply + 1, -alpha - 1, -alpha, gives_check);
                    }
                    if s > alpha && s < beta {
                        s = -self.search(pos, new_depth, ply + 1, -beta, -alpha, gives_check);
                    }
                    s
                };
                self.hashes.pop();
                self.checks.pop();
                s
            };
            pos.unmake(m, u);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            if self.params.history_malus == 0 {
                                let hi = Self::history_index(code, m.to());
                                self.history[hi] = (self.history[hi] + depth * depth).min(1 << 20);
                            } else {
                                // The cut move gains, the quiet moves tried before it lose.
                                let bonus = (16 * depth * depth + 32 * depth).min(1_600);
                                self.reward(rows, side, code, m.to(), bonus);
                                let tried = std::mem::take(&mut self.tried[ply]);
                                for &(c, to) in &tried {
                                    self.reward(rows, side, c, to, -bonus);
                                }
                                self.tried[ply] = tried;
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                self.tried[ply].push((code, m.to()));
            }
        }
        if legal == 0 && excluded.is_some() {
            // The excluded move was the only one.
            return alpha;
        }
        if legal == 0 {
            return if in_check || self.stalemate_loses {
                -(MATE - ply as i32)
            } else {
                0
            };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_none() {
            self.tt
                .store(key, best_move, to_tt(best, ply), depth, bound);
        }
        best
    }

    /// ProbCut (`SearchParams::probcut`): the captures whose gain by exchange lifts the static
    /// evaluation to the margin above beta, best first, each searched first by the quiescence
    /// search, then four plies shallower against `beta + margin`; the score of one that holds
    /// it, stored as a lower bound, cuts the node.
    fn probcut(
        &mut self,
        pos: &mut Position,
        depth: i32,
        ply: usize,
        beta: i32,
        static_eval: i32,
        cut_node: bool,
    ) -> Option<i32> {
        let pbeta = beta + self.params.probcut_margin;
        let mut captures = Vec::new();
        pos.pseudo_captures(&mut captures);
        let mut scored: Vec<(i32, Move)> = captures
            .into_iter()
            .map(|m| (see(pos, self.e, m), m))
            .filter(|&(gain, _)| gain >= pbeta - static_eval && gain > 0)
            .collect();
        if scored.is_empty() {
            return None;
        }
        scored.sort_by_key(|&(gain, _)| std::cmp::Reverse(gain));
        let ctx = pos.legal_ctx_checked(false);
        let discovery = self.discovery(pos);
        for (_, m) in scored {
            if !pos.is_legal(m, &ctx) {
                continue;
            }
            let may_check = self.may_check(pos, m, discovery);
            self.note_played(ply, pos, m);
            let u = pos.make(m);
            let h = pos.hash;
            if self.third_time(h) || self.entered(pos, m) {
                pos.unmake(m, u);
                continue;
            }
            let gives_check = may_check && pos.in_check();
            self.hashes.push(h);
            self.checks.push(gives_check);
            self.sums_after(ply + 1, pos, m, &u);
            let mut s = -self.qsearch(pos, ply + 1, -pbeta, -pbeta + 1, 0, Some(gives_check));
            if s >= pbeta && !self.stopped {
                self.next_cut = !cut_node;
                s = -self.search(pos, depth - 4, ply + 1, -pbeta, -pbeta + 1, gives_check);
            }
            self.hashes.pop();
            self.checks.pop();
            pos.unmake(m, u);
            if self.stopped {
                return None;
            }
            if s >= pbeta {
                self.tt
                    .store(pos.hash, Some(m), to_tt(s, ply), depth - 3, Bound::Lower);
                return Some(s);
            }
        }
        None
    }

    /// The quiescence search: captures only (all evasions when in check, a few levels deep).
    pub(crate) fn qsearch(
        &mut self,
        pos: &mut Position,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qdepth: i32,
        in_check: Option<bool>,
    ) -> i32 {
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply, alpha, beta);
        }
        let in_check = in_check.unwrap_or_else(|| pos.in_check());
        let evasions = in_check && qdepth < QS_CHECK_DEPTH;
        let mut best = -INF;
        if !evasions {
            let stand = self.evaluate(pos, ply, alpha, beta);
            if stand >= beta || in_check {
                return stand;
            }
            // Standing pat says the side to move can do no better than the evaluation; a
            // mate in one says otherwise.
            if qdepth < self.params.mate1 && self.mates_in_one(pos, ply) {
                return MATE - ply as i32 - 1;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        // Evasions need the checkers first (only the moves that can answer the check are
        // generated); captures are often none, and then the context is not needed.
        let mut evasion_ctx = None;
        {
            let moves = &mut self.moves[ply];
            moves.clear();
            if evasions {
                let ctx = pos.legal_ctx_checked(in_check);
                pos.candidate_moves(moves, &ctx);
                evasion_ctx = Some(ctx);
            } else {
                pos.pseudo_captures(moves);
            }
        }
        if self.moves[ply].is_empty() && !evasions {
            return best;
        }
        // Computed at the first move that is not pruned: often none is.
        let mut ctx = evasion_ctx;
        let mut discovery = None;
        if evasions {
            self.bad[ply].clear();
            self.score_quiets(pos, ply, None);
            // Captures first among the evasions.
            let mut scored = std::mem::take(&mut self.scored[ply]);
            for (s, m) in scored.iter_mut() {
                let gain = self.capture_gain(pos, *m);
                if gain > 0 {
                    *s = 2_000_000 + gain;
                }
            }
            self.scored[ply] = scored;
        } else {
            self.score_captures(pos, ply, None);
        }
        let n = self.scored[ply].len();
        let mut legal = 0;
        let qs_moves = if self.params.qs_moves > 0 {
            self.params.qs_moves
        } else {
            i32::MAX
        };
        for i in 0..n {
            let m = self.pick(ply, i);
            if !evasions && legal >= qs_moves && !m.promotes() {
                continue;
            }
            let gain = self.capture_gain(pos, m);
            if !evasions && best + gain + 200 <= alpha && !m.promotes() {
                // Even winning the piece cannot reach alpha (delta pruning).
                continue;
            }
            if !evasions && !self.cheap_capture(pos, m) && see(pos, self.e, m) < 0 {
                // Loses material by exchange.
                continue;
            }
            let c = *ctx.get_or_insert_with(|| pos.legal_ctx_checked(in_check));
            if !pos.is_legal(m, &c) {
                continue;
            }
            let d = *discovery.get_or_insert_with(|| self.discovery(pos));
            let may_check = self.may_check(pos, m, d);
            self.note_played(ply, pos, m);
            let u = pos.make(m);
            prefetch(&self.eval_cache[cache_slot(pos.hash)]);
            if self.third_time(pos.hash) {
                pos.unmake(m, u);
                continue;
            }
            legal += 1;
            let score = if self.entered(pos, m) {
                self.pv[ply + 1].clear();
                MATE - ply as i32 - 1
            } else {
                // The child tests for check itself only if this move may have given it.
                let child_check = if may_check { None } else { Some(false) };
                self.sums_after(ply + 1, pos, m, &u);
                -self.qsearch(pos, ply + 1, -beta, -alpha, qdepth + 1, child_check)
            };
            pos.unmake(m, u);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if evasions && legal == 0 {
            return -(MATE - ply as i32);
        }
        best
    }
}

/// A score as stored in the table: mates counted from the node, not the root.
#[inline]
fn to_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s + ply as i32
    } else if s < -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn from_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s - ply as i32
    } else if s < -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Size of the history table.
pub(crate) const HISTORY_SIZE: usize = CODES * CELLS;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::notation::fen;
    use crate::engine::{Color, PieceKind};

    /// One table serves both sides: a move and its mirror by the other side share a slot, the
    /// opponent's move and our own get different rows, and different kinds never collide.
    #[test]
    fn continuation_slots_are_seen_from_the_side_to_move() {
        let pos = Position::start(VariantId::Shogi);
        let c = Cont::new(&pos);
        assert_eq!(c.slots, 14 * 81, "Shogi's 14 kinds");
        let pawn = |side| Piece::new(PieceKind::Pawn, side).code();
        let silver = |side| Piece::new(PieceKind::Silver, side).code();
        // 7f for Black is 3d for White: column 2, row 5 turned half a turn is column 6, row 3.
        let black = c.key(pawn(Color::Black), Square::new(2, 5));
        let white = c.key(pawn(Color::White), Square::new(6, 3));
        assert_eq!(c.slot(black, 0), c.slot(white, 1));
        assert_ne!(c.slot(black, 0), c.slot(white, 0));
        let other = c.key(silver(Color::Black), Square::new(2, 5));
        assert_ne!(c.slot(black, 0), c.slot(other, 0));
        let [theirs, _] = c.rows(black, NO_KEY, 0);
        let [_, ours] = c.rows(NO_KEY, black, 0);
        assert_ne!(theirs, ours);
        assert_eq!(c.rows(NO_KEY, NO_KEY, 0), [2 * c.slots * c.slots; 2]);
        assert!(
            ours + c.slots <= c.table.len() && 2 * c.slots * c.slots + c.slots == c.table.len()
        );
        // Judkins Shogi's 6x6 board turns within its own squares.
        let j = Cont::new(&Position::start(VariantId::Judkins));
        assert_eq!(j.flip[0], 5 * 9 + 5);
        assert_eq!(j.flip[5 * 9 + 5], 0);
    }

    /// The logarithms the reductions read, built at compile time by a series, are the
    /// standard library's to within f32 rounding.
    #[test]
    fn the_reductions_logarithms_are_right() {
        assert_eq!(LN[0], 0.0);
        for (i, &l) in LN.iter().enumerate().skip(1) {
            let want = (i as f64).ln();
            assert!(
                (f64::from(l) - want).abs() < 1e-5,
                "ln {i}: {l} against {want}"
            );
        }
    }

    /// A repetition scored as a draw counts `contempt` against the root's side: below zero
    /// where the root's side is to move (even plies), above zero for its opponent; a
    /// repetition by perpetual check is still a win or a loss, whatever the contempt.
    #[test]
    fn contempt_scores_a_draw_against_the_roots_side() {
        let pos = Position::start(VariantId::Shogi);
        let tt = Tt::new(1);
        let mut history = vec![0; HISTORY_SIZE];
        let e = EvalTables::get(VariantId::Shogi);
        // Positions a, b, c, d, a: the last repeats the first with the same side to move.
        let hashes = vec![1, 2, 3, 4, 1];
        let quiet = vec![false; 5];
        let mut t = Tree::new(
            &tt,
            &mut history,
            &e,
            &pos,
            hashes.clone(),
            quiet,
            u64::MAX,
            None,
            None,
        );
        assert_eq!(t.repetition(4), Some(0), "no contempt: a draw is 0");
        t.params.contempt = 30;
        assert_eq!(t.repetition(4), Some(-30), "the root's side to move");
        assert_eq!(t.repetition(3), Some(30), "its opponent to move");
        // Every move into the cycle by the side not to move gave check: it loses.
        let mut history = vec![0; HISTORY_SIZE];
        let mut t = Tree::new(
            &tt,
            &mut history,
            &e,
            &pos,
            hashes,
            vec![false, false, true, false, true],
            u64::MAX,
            None,
            None,
        );
        t.params.contempt = 30;
        assert_eq!(t.repetition(4), Some(MATE - 4));
    }

    /// The quiescence search's mate in one: a gold dropped on the king's head with a pawn
    /// behind it mates; without the pawn the king takes it; a pawn dropped to mate is not
    /// legal, so it is no mate; a knight dropped two squares away mates a king boxed in by
    /// its own pieces, and does not mate one with a square to go to. With `mate1` the
    /// quiescence search scores a found mate, where it would otherwise stand pat.
    #[test]
    fn the_quiescence_search_sees_a_mate_in_one() {
        let cases = [
            (
                "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
                true,
                "the head gold, the pawn behind it",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4 b G 1",
                false,
                "the king takes the gold",
            ),
            (
                "3lkl3/3p1p3/5S3/9/9/9/9/9/4K4 b P 1",
                false,
                "a pawn may not drop to mate",
            ),
            (
                "3gkg3/3p1p3/9/9/9/9/9/9/4K4 b N 1",
                false,
                "the king steps out to 5b",
            ),
            (
                "3skl3/3npb3/9/9/9/9/9/9/4K4 b N 1",
                true,
                "the smothered king",
            ),
        ];
        let tt = Tt::new(1);
        let e = EvalTables::get(VariantId::Shogi);
        for (text, mate, why) in cases {
            let mut pos = fen::parse(VariantId::Shogi.variant(), text).expect("a valid position");
            let mut history = vec![0; HISTORY_SIZE];
            let mut t = Tree::new(
                &tt,
                &mut history,
                &e,
                &pos,
                vec![pos.hash],
                vec![false],
                u64::MAX,
                None,
                None,
            );
            assert_eq!(t.mates_in_one(&mut pos, 0), mate, "{why}: {text}");
            let stand = t.qsearch(&mut pos, 0, -INF, INF, 0, Some(false));
            assert!(
                stand.abs() < MATE_BOUND,
                "{why}: without mate1 it stands pat"
            );
            t.params.mate1 = 1;
            let q = t.qsearch(&mut pos, 0, -INF, INF, 0, Some(false));
            assert_eq!(q == MATE - 1, mate, "{why}: {q}");
        }
    }

    /// Updates stay within the bound however often they come, in both directions, and a
    /// malus undoes a bonus's lead.
    #[test]
    fn history_updates_are_bounded() {
        let mut h = 0;
        for _ in 0..1_000 {
            h = gravity(h, 1_600);
            assert!((0..=HISTORY_MAX).contains(&h), "{h}");
        }
        assert!(
            h > HISTORY_MAX * 9 / 10,
            "{h}: near the bound after many bonuses"
        );
        for _ in 0..1_000 {
            h = gravity(h, -1_600);
            assert!((-HISTORY_MAX..=HISTORY_MAX).contains(&h), "{h}");
        }
        assert!(h < -HISTORY_MAX * 9 / 10, "{h}");
        // A table entry (16 bits) never overflows: three entries add up within an i32 and
        // far below the killers' scores.
        const { assert!(HISTORY_MAX <= i16::MAX as i32 && 3 * HISTORY_MAX < 1_000_000) };
    }
}
