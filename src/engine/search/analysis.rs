//! The analysis of a game: an evaluation of every position from the first player's view (for
//! the chart) and the moves that lost the most (the "swings").
//!
//! Every position is searched on a fixed node budget, from a cleared table, so an analysis
//! takes about the same time for every game of a length and gives the same figures on every
//! run and machine.
//!
//! [`analyse_within`] bounds the whole analysis: a total node budget is spread evenly over the
//! game's positions (between a floor and a ceiling per position), and a wall-clock limit stops
//! it between two positions. An analysis cut by the clock covers the first positions only
//! ([`Analysis::cut`]): its evaluations, best moves and swings end where it stopped, and the
//! positions after that are not evaluated at all (rather than badly). Uncut, it is as
//! reproducible as [`analyse`].
//!
//! The positions are shared out over every core (each thread takes the next position not yet
//! taken). Since each search starts from a cleared table, this gives exactly the figures of a
//! search one position after another, in a fraction of the time: whole-game analysis divides
//! better by positions than by Lazy SMP, which is not reproducible.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::engine::{Color, Game, Move, Outcome};

use super::{Limits, Score, Searcher, DEFAULT_TT_MB};

/// Evaluations are clamped to this many points (a pawn is one point); mates sit at the edge.
pub const CLAMP_POINTS: f64 = 20.0;

/// The evaluation of one position of a game, from the first player's view (Black, Red).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlyEval {
    /// Points (a pawn is 1.0), clamped to `±CLAMP_POINTS`.
    pub points: f64,
    /// Mate (or a game already won) ahead: the number of moves to it, positive when the first
    /// player mates, negative when it is mated; `Some(0)` for a game over with a winner (then
    /// `points` says who).
    pub mate: Option<i32>,
}

/// A move that lost points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Swing {
    /// Index of the move in the game (0 for the first move).
    pub ply: usize,
    pub played: Move,
    /// Points lost, from the mover's view (after clamping).
    pub loss: f64,
    /// What the search preferred (always another move in [`Analysis::biggest_swings`]).
    pub better: Option<Move>,
}

/// A game's evaluations.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// One per position: `evals[i]` after the first `i` moves.
    pub evals: Vec<PlyEval>,
    /// The search's choice in each position (`None` once the game is over).
    pub best: Vec<Option<Move>>,
    /// The moves of the game.
    pub moves: Vec<Move>,
    /// The side that made the first move.
    pub first: Color,
    /// The clock stopped the analysis before the end of the game: `evals` covers the first
    /// `evals.len()` positions only (and `moves` the moves between them).
    pub cut: bool,
    /// Nodes searched in each position.
    pub nodes_per_position: u64,
}

/// How much an analysis may spend ([`analyse_within`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Nodes for the whole game, spread evenly over its positions.
    pub total_nodes: u64,
    /// Never more than this per position (a short game is not searched deeper).
    pub max_per_position: u64,
    /// Never less than this per position (a very long game gets this, and the clock decides).
    pub min_per_position: u64,
    /// The wall clock: the positions not reached by then are left out (the first is always
    /// evaluated).
    pub time: Duration,
}

impl Budget {
    /// The nodes each position of a game of `plies` moves gets.
    pub fn per_position(&self, plies: usize) -> u64 {
        let positions = plies as u64 + 1;
        (self.total_nodes / positions)
            .min(self.max_per_position)
            .max(self.min_per_position)
            .max(1)
    }
}

/// Evaluates every position of `game` with `nodes` nodes each.
pub fn analyse(game: &Game, nodes: u64) -> Analysis {
    run(game, nodes, None, 0)
}

/// Evaluates the positions of `game` within `budget`: each with the same share of the total
/// node budget, stopping between two positions once the time is up (then [`Analysis::cut`]).
pub fn analyse_within(game: &Game, budget: &Budget) -> Analysis {
    analyse_on(game, budget, 0)
}

/// [`analyse_within`] on `threads` threads (0: one per core). The bot analyses on one thread,
/// so that an analysis takes one of the places its long work may use and never the core left
/// to the commands; the figures are the same on any number of threads (each position is its
/// own search from a cleared table).
pub fn analyse_on(game: &Game, budget: &Budget, threads: usize) -> Analysis {
    let nodes = budget.per_position(game.moves().len());
    run(game, nodes, Some(Instant::now() + budget.time), threads)
}

fn run(game: &Game, nodes: u64, deadline: Option<Instant>, threads: usize) -> Analysis {
    let first = game.start().side_to_move();
    // Every position of the game, as a game of its own (the history matters to the rules).
    let mut games = Vec::with_capacity(game.moves().len() + 1);
    let mut g = Game::new(game.start().clone());
    games.push(g.clone());
    for &m in game.moves() {
        if g.play(m).is_err() {
            // The moves came from a game: they are legal. Stop here if not.
            break;
        }
        games.push(g.clone());
    }
    // The positions are independent searches from a cleared table: each core takes the next
    // one, and the figures are those of a search one by one.
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(games.len());
    let next = AtomicUsize::new(0);
    let timed_out = AtomicBool::new(false);
    let slots: Vec<Mutex<Option<Evaluated>>> = games.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut searcher = Searcher::new(DEFAULT_TT_MB);
                let limits = Limits::nodes(nodes);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games.len() {
                        break;
                    }
                    // The first position is always evaluated.
                    if i > 0
                        && (timed_out.load(Ordering::Relaxed)
                            || deadline.is_some_and(|d| Instant::now() >= d))
                    {
                        timed_out.store(true, Ordering::Relaxed);
                        break;
                    }
                    let found = evaluate(&mut searcher, &games[i], &limits);
                    if let Ok(mut slot) = slots[i].lock() {
                        *slot = Some(found);
                    }
                }
            });
        }
    });
    // The positions evaluated without a gap from the start: a cut analysis ends at the first
    // position the clock left out.
    let mut evals = Vec::with_capacity(games.len());
    let mut best = Vec::with_capacity(games.len());
    for slot in slots {
        match slot.into_inner().ok().flatten() {
            Some((e, b)) => {
                evals.push(e);
                best.push(b);
            }
            None => break,
        }
    }
    let cut = evals.len() < game.moves().len() + 1 && timed_out.load(Ordering::Relaxed);
    let moves = game.moves()[..evals.len() - 1].to_vec();
    Analysis {
        evals,
        best,
        moves,
        first,
        cut,
        nodes_per_position: nodes,
    }
}

/// A position's evaluation and the search's move there.
type Evaluated = (PlyEval, Option<Move>);

/// The evaluation of a game's current position from the first player's view, and the search's
/// move (none once the game is over).
fn evaluate(searcher: &mut Searcher, g: &Game, limits: &Limits) -> Evaluated {
    let side = g.position().side_to_move();
    // From the side to move's view, then turned to the first player's.
    let sign = if side == Color::Black { 1.0 } else { -1.0 };
    match g.outcome() {
        Some(Outcome::Win { winner, .. }) => {
            let s = if winner == Color::Black { 1.0 } else { -1.0 };
            (
                PlyEval {
                    points: s * CLAMP_POINTS,
                    mate: Some(0),
                },
                None,
            )
        }
        Some(Outcome::Draw { .. }) => (
            PlyEval {
                points: 0.0,
                mate: None,
            },
            None,
        ),
        None => {
            let r = searcher.think(g, limits, |_| {});
            let cp = r.score.clamped_cp((CLAMP_POINTS * 100.0) as i32);
            let mate = match r.score {
                Score::Mate(n) => Some(if side == Color::Black { n } else { -n }),
                Score::Cp(_) => None,
            };
            (
                PlyEval {
                    points: sign * cp as f64 / 100.0,
                    mate,
                },
                r.best,
            )
        }
    }
}

impl Analysis {
    /// The side that made move `ply`.
    pub fn mover(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.first
        } else {
            !self.first
        }
    }

    /// The `n` moves that lost the most points for their player, biggest first: only moves
    /// that lost something and that the search would not have played (a loss the search could
    /// not avoid either is the position's fault, not the move's).
    pub fn biggest_swings(&self, n: usize) -> Vec<Swing> {
        let mut swings: Vec<Swing> = self
            .moves
            .iter()
            .enumerate()
            .filter_map(|(ply, &played)| {
                let sign = if self.mover(ply) == Color::Black {
                    1.0
                } else {
                    -1.0
                };
                let before = sign * self.evals[ply].points;
                let after = sign * self.evals[ply + 1].points;
                let loss = before - after;
                let better = self.best[ply].filter(|&b| b != played);
                (loss > 0.05 && better.is_some()).then_some(Swing {
                    ply,
                    played,
                    loss,
                    better,
                })
            })
            .collect();
        swings.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.ply.cmp(&b.ply)));
        swings.truncate(n);
        swings
    }
}
