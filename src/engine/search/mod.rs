//! The computer player: a search that picks a move for the side to move of a [`Game`], at a
//! strength from level 1 (a beginner who blunders now and then) to level 5 (the full search
//! for a second a move), and the analysis of a finished game ([`analyse`]).
//!
//! It knows nothing of Discord or storage: it reads a `Game` (start position and moves, so it
//! knows the history that repetition rules need) and returns a [`SearchResult`]. The search is
//! principal variation search with iterative deepening (`pvs.rs`), over an evaluation made from
//! each variant's data (`eval.rs`), with a bounded transposition table (`tt.rs`; its memory,
//! and the other large tables', is read ahead and backed by huge pages: `memory.rs`). On the
//! clock it searches on every core by Lazy SMP (`Limits::threads`): helper threads search the
//! same root at staggered depths and share what they find through the lock-free table.
//!
//! **The rules.** The root's moves are the game's legal moves ([`Game::legal_moves`]: pawn-drop
//! mate, Shanghai's threefold refusal and every other rule already applied), and each is played
//! on a copy of the game first: a move that ends the game (mate, entering king, a fourth
//! repetition that is a draw or loses by perpetual check) gets exactly that result, so the
//! search never chooses a move that loses by rule while another move exists. Inside the tree
//! `pvs.rs` follows the same rules approximately (see its header).
//!
//! **Determinism.** Levels 1 to 4 stop on a node count, never on the clock, and their noise
//! comes from the seed: the same game, level and seed give the same move on any machine. Level
//! 5 stops on the clock, and uses all of its time (unless it has a single move or has found a
//! mate); with `nodes` or `depth` given as well, the clock is dropped and it is reproducible
//! too.

mod analysis;
pub mod eval;
mod memory;
pub mod players;
mod pvs;
mod see;
mod shape;
mod tt;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engine::{Color, Game, Move, Outcome};

pub use analysis::{
    analyse, analyse_on, analyse_within, Analysis, Budget, PlyEval, Swing, CLAMP_POINTS,
};
pub use tt::Tt;

pub use pvs::SearchParams;
use pvs::{Tree, HISTORY_SIZE, INF, MATE, MATE_BOUND, MAX_PLY};

/// Default transposition table size, in mebibytes.
pub const DEFAULT_TT_MB: usize = 16;

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (a Shogi pawn is 100).
    Cp(i32),
    /// Mate in this many moves of the side to move (positive: it mates; negative: it is
    /// mated). Wins by rule (entering king, an opponent's perpetual check) count as mates.
    Mate(i32),
}

impl Score {
    /// From the search's internal scale.
    pub(crate) fn from_internal(s: i32) -> Score {
        if s > MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s < -MATE_BOUND {
            Score::Mate(-((MATE + s) / 2))
        } else {
            Score::Cp(s)
        }
    }

    /// `cp 35` or `mate -3`, as UCI writes it.
    pub fn uci(self) -> String {
        match self {
            Score::Cp(c) => format!("cp {c}"),
            Score::Mate(n) => format!("mate {n}"),
        }
    }

    /// The score in centipawns, mates at `±limit`, anything else clamped to `±limit`.
    pub fn clamped_cp(self, limit: i32) -> i32 {
        match self {
            Score::Cp(c) => c.clamp(-limit, limit),
            Score::Mate(n) if n > 0 => limit,
            Score::Mate(_) => -limit,
        }
    }
}

/// What one level plays like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// Deepest iteration.
    pub depth: u32,
    /// Node budget per move.
    pub nodes: u64,
    /// Time budget per move (level 5 only).
    pub movetime: Option<Duration>,
    /// Seeded noise added to each root move's score, uniform in `±noise` centipawns.
    pub noise: i32,
}

/// The levels, weakest first:
///
/// | level | depth | nodes | time | noise | plays like |
/// | --- | --- | --- | --- | --- | --- |
/// | 1 | 1 | 2,000 | | ±300 | sees captures, often misjudges, blunders pieces now and then |
/// | 2 | 2 | 8,000 | | ±150 | sees one reply, still loose |
/// | 3 | 4 | 40,000 | | ±50 | a careful club player's tactics, small inaccuracies |
/// | 4 | full | 400,000 | | 0 | the full search on a node budget (a fraction of a second) |
/// | 5 | full | | 1 s | 0 | the full search for a second a move |
pub fn level(n: u8) -> LevelSpec {
    let full = MAX_PLY as u32 - 8;
    match n {
        0 | 1 => LevelSpec {
            depth: 1,
            nodes: 2_000,
            movetime: None,
            noise: 300,
        },
        2 => LevelSpec {
            depth: 2,
            nodes: 8_000,
            movetime: None,
            noise: 150,
        },
        3 => LevelSpec {
            depth: 4,
            nodes: 40_000,
            movetime: None,
            noise: 50,
        },
        4 => LevelSpec {
            depth: full,
            nodes: 400_000,
            movetime: None,
            noise: 0,
        },
        _ => LevelSpec {
            depth: full,
            nodes: u64::MAX,
            movetime: Some(Duration::from_secs(1)),
            noise: 0,
        },
    }
}

/// The lowest and highest level.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=5;

/// How long to think. A level gives defaults; `depth`, `nodes` and `movetime` override them
/// (and `depth` or `nodes` without `movetime` drop the level's clock). With nothing given, level
/// 5.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub level: Option<u8>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// Seeds the noise of levels 1-3.
    pub seed: u64,
    /// Set from another thread to stop the search (it then answers with what it has).
    pub stop: Option<Arc<AtomicBool>>,
    /// Threads of a search on the clock (Lazy SMP); 0 means one per core. Searches without a
    /// clock (a depth or node budget: levels 1-4, analysis) always use one, so that they stay
    /// reproducible.
    pub threads: usize,
}

impl Limits {
    /// Limits of a level.
    pub fn level(n: u8, seed: u64) -> Limits {
        Limits {
            level: Some(n),
            seed,
            ..Limits::default()
        }
    }

    /// Limits of a node budget.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// Limits of a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// The threads a search with these limits uses (see `threads`).
    pub fn thread_count(&self) -> usize {
        if self.resolve().2.is_none() {
            return 1;
        }
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }

    /// The limits in force: (depth, nodes, deadline after, noise).
    fn resolve(&self) -> (u32, u64, Option<Duration>, i32) {
        let explicit = self.depth.is_some() || self.nodes.is_some() || self.movetime.is_some();
        let base = match self.level {
            Some(n) => level(n),
            None if explicit => LevelSpec {
                depth: MAX_PLY as u32 - 8,
                nodes: u64::MAX,
                movetime: None,
                noise: 0,
            },
            None => level(5),
        };
        let movetime = match self.movetime {
            Some(t) => Some(t),
            None if self.depth.is_some() || self.nodes.is_some() => None,
            None => base.movetime,
        };
        let depth = self
            .depth
            .unwrap_or(base.depth)
            .clamp(1, MAX_PLY as u32 - 8);
        let nodes = self.nodes.unwrap_or(base.nodes).max(1);
        (depth, nodes, movetime, base.noise)
    }
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the game is over (or the side to move has no move).
    pub best: Option<Move>,
    /// The score of `best` from the side to move's view.
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    /// The expected line, `best` first.
    pub pv: Vec<Move>,
    /// The side to move wins at once by declaring the entering king (Shogi's 27-point rule):
    /// a caller that can declare should, rather than play `best`. (A declaration is not a move,
    /// so `best` is still a legal move.)
    pub declare: bool,
}

/// One completed iteration, for `info` lines.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-6)) as u64
    }
}

/// A move of the root with what is known of it.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    mv: Move,
    /// The exact score when the move ends the game.
    fixed: Option<i32>,
    /// Seeded noise.
    bonus: i32,
    score: i32,
}

/// A computer player with its memory (transposition table, history), reused move after move.
pub struct Searcher {
    tt: Tt,
    history: Vec<i32>,
    /// Piece values other than the documented ones (self-play tuning).
    tables: Option<Arc<eval::EvalTables>>,
    /// The search's settings, when not the game's own (`SearchParams::of`): self-play
    /// tuning.
    params: Option<SearchParams>,
}

impl Searcher {
    /// A searcher with a transposition table of at most `tt_mb` mebibytes.
    pub fn new(tt_mb: usize) -> Searcher {
        Searcher {
            tt: Tt::new(tt_mb),
            history: vec![0; HISTORY_SIZE],
            tables: None,
            params: None,
        }
    }

    /// Searches with other settings (for trying a change in self-play).
    pub fn with_search_params(mut self, p: SearchParams) -> Searcher {
        self.params = Some(p);
        self
    }

    /// Plays with other piece values (for self-play tuning): `value` gives a kind's worth on
    /// the board in centipawns, for the game `id`.
    pub fn with_values(
        mut self,
        id: crate::engine::VariantId,
        value: impl Fn(crate::engine::PieceKind) -> i32,
    ) -> Searcher {
        self.tables = Some(Arc::new(eval::EvalTables::build(id, value)));
        self
    }

    /// Plays with other evaluation parameters (tuning: see `eval.rs`).
    pub fn with_params(mut self, p: &eval::EvalParams) -> Searcher {
        self.tables = Some(eval::Evaluator::new(p).0);
        self
    }

    /// Searches the game's current position within `limits`, calling `info` after each
    /// completed iteration.
    pub fn think(
        &mut self,
        game: &Game,
        limits: &Limits,
        mut info: impl FnMut(&Info),
    ) -> SearchResult {
        let t0 = Instant::now();
        let (max_depth, node_limit, movetime, noise) = limits.resolve();
        let over = SearchResult {
            best: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            declare: false,
        };
        let legal = game.legal_moves();
        if legal.is_empty() {
            return over;
        }
        let mut pos = game.position().clone();
        let side = pos.side_to_move();
        let key = pos.hash();
        // Every root move is played on the game first: a move that ends it gets its result.
        let mut roots: Vec<RootMove> = legal
            .iter()
            .map(|&m| {
                let mut g = game.clone();
                let fixed = g
                    .play(m)
                    .ok()
                    .and(g.outcome())
                    .map(|o| outcome_score(o, side, 1));
                RootMove {
                    mv: m,
                    fixed,
                    bonus: noise_for(limits.seed, key, m, noise),
                    score: -INF,
                }
            })
            .collect();
        // Deterministic limits start from a clean memory.
        if movetime.is_none() {
            self.tt.clear();
        }
        self.tt.new_search();
        self.history.fill(0);
        let (hashes, checks) = history_of(game);
        let tables = match &self.tables {
            Some(t) if t.id == pos.v.id() => t.clone(),
            _ => eval::EvalTables::get(pos.v.id()),
        };
        let deadline = movetime.map(|t| t0 + t);
        let threads = limits.thread_count();
        let declare = crate::engine::declaration::declare(game.position()).is_ok();
        let params = self.params.unwrap_or_else(|| SearchParams::of(pos.v.id()));
        let Searcher { tt, history, .. } = self;
        let tt = &*tt;
        // Lazy SMP: helper threads search the same root on the shared table, at staggered
        // depths, until the main thread is done; only the main thread's result is used, the
        // helpers' work reaches it through the table.
        let helpers_stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|id| {
                    let (pos, roots) = (pos.clone(), roots.clone());
                    let (hashes, checks) = (hashes.clone(), checks.clone());
                    let (tables, stop) = (tables.clone(), &helpers_stop);
                    scope.spawn(move || {
                        helper(
                            tt, &tables, pos, roots, hashes, checks, max_depth, deadline, stop, id,
                            params,
                        )
                    })
                })
                .collect();
            let mut tree = Tree::new(
                tt,
                history,
                &tables,
                &pos,
                hashes,
                checks,
                node_limit,
                deadline,
                limits.stop.as_deref(),
            );
            tree.params = params;
            let mut result = main_search(
                &mut tree, &mut pos, &mut roots, max_depth, node_limit, t0, &mut info,
            );
            result.declare = declare;
            helpers_stop.store(true, std::sync::atomic::Ordering::Relaxed);
            for h in helpers {
                result.nodes += h.join().unwrap_or(0);
            }
            result
        })
    }
}

/// The main thread's iterative deepening.
#[allow(clippy::too_many_arguments)]
fn main_search(
    tree: &mut Tree,
    pos: &mut crate::engine::Position,
    roots: &mut [RootMove],
    max_depth: u32,
    node_limit: u64,
    t0: Instant,
    info: &mut impl FnMut(&Info),
) -> SearchResult {
    let mut result = SearchResult {
        best: Some(roots[0].mv),
        score: Score::Cp(0),
        depth: 0,
        nodes: 0,
        pv: vec![roots[0].mv],
        declare: false,
    };
    let single = roots.len() == 1;
    let mut prev: Option<i32> = None;
    for depth in 1..=max_depth {
        tree.limits_on = depth > 1;
        tree.root_depth = depth as i32;
        let found = aspiration(tree, pos, roots, depth as i32, prev);
        let s = found.as_ref().map_or(0, |f| f.1);
        prev = found.as_ref().map(|f| f.1);
        let found_any = found.is_some();
        if let Some((best, score, pv)) = found {
            result.best = Some(best);
            result.score = Score::from_internal(score);
            result.pv = pv;
            if !tree.stopped {
                result.depth = depth;
            }
        }
        result.nodes = tree.nodes;
        let elapsed = t0.elapsed();
        // A stopped iteration reports only a move that beat the others, searched to the end.
        if !tree.stopped || found_any {
            info(&Info {
                depth,
                score: result.score,
                nodes: tree.nodes,
                elapsed,
                pv: result.pv.clone(),
            });
        }
        if tree.stopped {
            break;
        }
        // On the clock the next iteration starts whatever time is left: if the deadline stops
        // it, a root move that beat the best one, searched to the end, is still taken (above).
        let mate_plies = MATE - s.abs();
        if single
            || (s.abs() > MATE_BOUND && depth as i32 > mate_plies + 1)
            || tree.nodes >= node_limit
        {
            break;
        }
    }
    result
}

/// A Lazy SMP helper: iterative deepening from depth 1 or 2 (odd helpers one ahead), on its
/// own history and killers, until `stop` or the deadline. Returns its node count.
#[allow(clippy::too_many_arguments)]
fn helper(
    tt: &Tt,
    tables: &eval::EvalTables,
    mut pos: crate::engine::Position,
    mut roots: Vec<RootMove>,
    hashes: Vec<u64>,
    checks: Vec<bool>,
    max_depth: u32,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    id: usize,
    params: SearchParams,
) -> u64 {
    let mut history = vec![0; HISTORY_SIZE];
    let mut tree = Tree::new(
        tt,
        &mut history,
        tables,
        &pos,
        hashes,
        checks,
        u64::MAX,
        deadline,
        Some(stop),
    );
    tree.limits_on = true;
    tree.params = params;
    let mut prev = None;
    for depth in 1 + (id % 2) as u32..=max_depth {
        tree.root_depth = depth as i32;
        prev = aspiration(&mut tree, &mut pos, &mut roots, depth as i32, prev).map(|f| f.1);
        if tree.stopped {
            break;
        }
    }
    tree.nodes
}

/// Whether a position is quiet: the side to move is not in check and has no legal capture
/// that wins material by exchange. Tuning scores such positions by the evaluation alone.
pub fn is_quiet(pos: &crate::engine::Position) -> bool {
    if pos.in_check() {
        return false;
    }
    let e = eval::EvalTables::get(pos.v.id());
    let mut p = pos.clone();
    let mut captures = Vec::new();
    p.pseudo_captures(&mut captures);
    let ctx = p.legal_ctx_checked(false);
    !captures
        .into_iter()
        .any(|m| see::see(pos, &e, m) > 0 && p.is_legal(m, &ctx))
}

/// Searches with a fresh table of `tt_mb` mebibytes.
pub fn think(game: &Game, limits: &Limits, tt_mb: usize) -> SearchResult {
    Searcher::new(tt_mb).think(game, limits, |_| {})
}

/// One iteration at the root within an aspiration window: from the fourth on, the search
/// first looks only at scores near the last iteration's (`prev`), which cuts far more of the
/// tree; a score outside the window widens it on that side (doubling its width) and searches
/// again. A score above the window that the clock stops is still taken: that move has beaten
/// the last best one.
fn aspiration(
    tree: &mut Tree,
    pos: &mut crate::engine::Position,
    roots: &mut [RootMove],
    depth: i32,
    prev: Option<i32>,
) -> Option<(Move, i32, Vec<Move>)> {
    let mut delta = tree.params.aspiration;
    let Some(p) = prev.filter(|p| delta > 0 && depth >= 4 && p.abs() < MATE_BOUND) else {
        return root_search(tree, pos, roots, depth, (-INF, INF));
    };
    let (mut alpha, mut beta) = ((p - delta).max(-INF), (p + delta).min(INF));
    loop {
        let f = root_search(tree, pos, roots, depth, (alpha, beta))?;
        if tree.stopped {
            return Some(f);
        }
        delta = delta.saturating_mul(2);
        if f.1 <= alpha && alpha > -INF {
            beta = (alpha + beta) / 2;
            alpha = if delta > 1_000 {
                -INF
            } else {
                (f.1 - delta).max(-INF)
            };
        } else if f.1 >= beta && beta < INF {
            beta = if delta > 1_000 {
                INF
            } else {
                (f.1 + delta).min(INF)
            };
        } else {
            return Some(f);
        }
    }
}

/// One iteration at the root: the best move, its score and line, if any move was searched to
/// the end, within the window `(alpha, beta)` (a first score outside it is returned as it is,
/// a bound). Reorders `roots` best first.
fn root_search(
    tree: &mut Tree,
    pos: &mut crate::engine::Position,
    roots: &mut [RootMove],
    depth: i32,
    window: (i32, i32),
) -> Option<(Move, i32, Vec<Move>)> {
    let (mut alpha, beta) = window;
    let mut best: Option<(usize, Vec<Move>)> = None;
    for (i, root) in roots.iter_mut().enumerate() {
        let rm = *root;
        let s = match rm.fixed {
            Some(f) => {
                tree.pv[1].clear();
                f
            }
            None => {
                tree.note_played(0, pos, rm.mv);
                let u = pos.make(rm.mv);
                tree.sums_after(1, pos, rm.mv, &u);
                let gives_check = pos.in_check();
                tree.hashes.push(pos.hash());
                tree.checks.push(gives_check);
                let d = depth - 1 + i32::from(gives_check);
                let a = (alpha - rm.bonus).clamp(-INF, INF);
                let b = (beta - rm.bonus).clamp(-INF, INF);
                let mut s = if best.is_none() {
                    -tree.search(pos, d, 1, -b, -a, gives_check)
                } else {
                    let s = -tree.search(pos, d, 1, -a - 1, -a, gives_check);
                    if s > a && s < b && !tree.stopped {
                        -tree.search(pos, d, 1, -b, -a, gives_check)
                    } else {
                        s
                    }
                };
                tree.hashes.pop();
                tree.checks.pop();
                pos.unmake(rm.mv, u);
                s += rm.bonus;
                s
            }
        };
        if tree.stopped {
            break;
        }
        root.score = s;
        if best.is_none() || s > alpha {
            alpha = alpha.max(s);
            let mut line = vec![rm.mv];
            line.extend_from_slice(&tree.pv[1]);
            best = Some((i, line));
            if s >= beta {
                // Above the aspiration window: the caller searches again with a wider one.
                break;
            }
        }
    }
    let (i, line) = best?;
    let found = (roots[i].mv, roots[i].score - roots[i].bonus, line);
    // The best first, then the others by score (stable: earlier ones first on ties).
    let chosen = roots[i];
    roots[i].score = INF;
    roots.sort_by_key(|r| std::cmp::Reverse(r.score));
    roots[0] = chosen;
    Some(found)
}

/// The score of a finished game from `side`'s view, `ply` plies from the root.
fn outcome_score(o: Outcome, side: Color, ply: i32) -> i32 {
    match o {
        Outcome::Win { winner, .. } if winner == side => MATE - ply,
        Outcome::Win { .. } => -(MATE - ply),
        Outcome::Draw { .. } => 0,
    }
}

/// The hashes of every position of the game (the start included) and whether the side to move
/// was in check in each.
fn history_of(game: &Game) -> (Vec<u64>, Vec<bool>) {
    let mut p = game.start().clone();
    let mut hashes = Vec::with_capacity(game.moves().len() + MAX_PLY + 2);
    let mut checks = Vec::with_capacity(game.moves().len() + MAX_PLY + 2);
    hashes.push(p.hash());
    checks.push(p.in_check());
    for &m in game.moves() {
        p.make(m);
        hashes.push(p.hash());
        checks.push(p.in_check());
    }
    (hashes, checks)
}

/// A number for a move, for seeding.
pub(crate) fn move_key(m: Move) -> u64 {
    let (tag, a, b, c) = match m {
        Move::Board { from, to, promote } => (0u64, from.index(), to.index(), promote as usize),
        Move::Drop { kind, to } => (1, kind.index(), to.index(), 0),
        Move::Lion { from, via, to } => (2, from.index(), via.index(), to.index()),
        Move::Castle { from, to } => (3, from.index(), to.index(), 0),
        Move::EnPassant { from, to } => (4, from.index(), to.index(), 0),
        Move::PromoteTo { from, to, kind } => (5, from.index(), to.index(), kind.index()),
    };
    tag | (a as u64) << 8 | (b as u64) << 24 | (c as u64) << 40
}

/// A well-mixed 64-bit value of a 64-bit input (splitmix64's finaliser).
pub(crate) fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Noise uniform in `±amp` for a move of a position, from the seed.
fn noise_for(seed: u64, key: u64, m: Move, amp: i32) -> i32 {
    if amp <= 0 {
        return 0;
    }
    let r = mix(seed ^ mix(key ^ mix(move_key(m))));
    (r % (2 * amp as u64 + 1)) as i32 - amp
}
