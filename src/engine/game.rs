//! A game: a start position and the moves played from it, with what needs history (repetition)
//! and the outcome. `Position` knows one moment; `Game` knows how we got there.

use crate::engine::color::Color;
use crate::engine::declaration;
use crate::engine::illegal::IllegalMove;
use crate::engine::movegen::perft_hist;
use crate::engine::moves::Move;
use crate::engine::outcome::{Outcome, Reason};
use crate::engine::palace::entered_king;
use crate::engine::position::Position;
use crate::engine::variant::{RepetitionRule, StalemateRule, Variant};

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    /// Hash of every position so far, the start included.
    hashes: Vec<u64>,
    /// For every position so far: whether the side to move there was in check.
    checks: Vec<bool>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from a start position (which counts as the first occurrence for repetition).
    pub fn new(start: Position) -> Game {
        let mut g = Game {
            hashes: vec![start.hash()],
            checks: vec![start.in_check()],
            pos: start.clone(),
            start,
            moves: Vec::new(),
            outcome: None,
        };
        g.outcome = g.compute_outcome();
        g
    }

    pub fn variant(&self) -> &'static Variant {
        self.pos.variant()
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Ends the game for a reason outside the board (resignation, time, agreement, impasse).
    pub fn set_outcome(&mut self, o: Outcome) {
        self.outcome = Some(o);
    }

    /// The side to move declares the entering king (Shogi's 27-point rule): the game ends with
    /// its win if the declaration holds; otherwise nothing changes and the refusal says why.
    pub fn declare(&mut self) -> Result<Outcome, declaration::Refusal> {
        if self.is_over() {
            return Err(declaration::Refusal::GameOver);
        }
        let o = declaration::declare(&self.pos)?;
        self.outcome = Some(o);
        Ok(o)
    }

    /// Legal moves of the current position (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        self.legal_now()
    }

    /// Legal moves, ignoring whether the game is over; without the moves that would make a
    /// position for the third time where that is forbidden.
    fn legal_now(&self) -> Vec<Move> {
        let mut moves = self.pos.legal_moves();
        if self.third_forbidden() {
            let mut p = self.pos.clone();
            moves.retain(|&m| !repeats_third(&mut p, &self.hashes, m));
        }
        moves
    }

    fn third_forbidden(&self) -> bool {
        self.variant().spec.end.repetition == RepetitionRule::ThirdForbidden
    }

    /// Checks a move, as `play` would, without playing it.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        self.pos.check_move(m)?;
        if self.third_forbidden() && repeats_third(&mut self.pos.clone(), &self.hashes, m) {
            return Err(IllegalMove::ThirdRepetition);
        }
        Ok(())
    }

    /// Plays a move after checking it, and decides whether it ends the game.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        self.check_move(m)?;
        self.pos.make(m);
        self.moves.push(m);
        self.hashes.push(self.pos.hash());
        self.checks.push(self.pos.in_check());
        self.outcome = self.compute_outcome();
        Ok(())
    }

    /// The position after the first `ply` moves.
    pub fn position_at(&self, ply: usize) -> Position {
        let mut p = self.start.clone();
        for &m in &self.moves[..ply.min(self.moves.len())] {
            p.make(m);
        }
        p
    }

    /// Takes back the last `n` moves (a takeback also reopens a game its last move ended).
    pub fn take_back(&mut self, n: usize) {
        let keep = self.moves.len().saturating_sub(n);
        let moves = self.moves[..keep].to_vec();
        let mut g = Game::new(self.start.clone());
        for m in moves {
            // Each of these moves was legal when it was played, from the same start.
            g.pos.make(m);
            g.moves.push(m);
            g.hashes.push(g.pos.hash());
            g.checks.push(g.pos.in_check());
        }
        g.outcome = g.compute_outcome();
        *self = g;
    }

    fn compute_outcome(&self) -> Option<Outcome> {
        let mut p = self.pos.clone();
        let side = p.side_to_move();
        if let Some(winner) = entered_king(&p) {
            return Some(Outcome::Win {
                winner,
                reason: Reason::EnteringKing,
            });
        }
        let no_move = if self.third_forbidden() {
            self.legal_now().is_empty()
        } else {
            !p.has_legal_move()
        };
        if no_move {
            return Some(if p.in_check() {
                Outcome::Win {
                    winner: !side,
                    reason: Reason::Checkmate,
                }
            } else {
                match self.variant().spec.end.stalemate {
                    StalemateRule::Loss => Outcome::Win {
                        winner: !side,
                        reason: Reason::Stalemate,
                    },
                    StalemateRule::Draw => Outcome::Draw {
                        reason: Reason::Stalemate,
                    },
                }
            });
        }
        self.repetition_outcome()
    }

    fn repetition_outcome(&self) -> Option<Outcome> {
        let now = self.hashes.len() - 1;
        let h = self.hashes[now];
        let occurrences: Vec<usize> = (0..=now).filter(|&i| self.hashes[i] == h).collect();
        if occurrences.len() < 4 {
            return None;
        }
        match self.variant().spec.end.repetition {
            // Such a move is refused, so it never comes to a third occurrence.
            RepetitionRule::ThirdForbidden => None,
            RepetitionRule::FourfoldDraw => Some(Outcome::Draw {
                reason: Reason::Repetition,
            }),
            RepetitionRule::Sennichite => {
                let first = occurrences[occurrences.len() - 4];
                // Position i (i > 0) arose from move i-1; it gave check if the side to move in
                // position i is in check. The mover of that move is the side to move at i-1.
                let mut all_checks = [true, true];
                for i in first + 1..=now {
                    let mover = self.position_side(i - 1);
                    if !self.checks[i] {
                        all_checks[mover.index()] = false;
                    }
                }
                Some(match all_checks {
                    [true, false] => Outcome::Win {
                        winner: Color::White,
                        reason: Reason::PerpetualCheck,
                    },
                    [false, true] => Outcome::Win {
                        winner: Color::Black,
                        reason: Reason::PerpetualCheck,
                    },
                    _ => Outcome::Draw {
                        reason: Reason::Repetition,
                    },
                })
            }
        }
    }

    fn position_side(&self, i: usize) -> Color {
        let s = self.start.side_to_move();
        if i.is_multiple_of(2) {
            s
        } else {
            !s
        }
    }

    /// Perft from the current position, stopping at games that end by repetition.
    pub fn perft(&self, depth: u32) -> u64 {
        if self.is_over() {
            return 0;
        }
        if depth == 0 {
            return 1;
        }
        let mut pos = self.pos.clone();
        let mut hist = self.hashes.clone();
        let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        perft_hist(&mut pos, &mut hist, depth, &mut bufs)
    }
}

/// Whether `m` would make the position after it occur for the third time in `hist`.
fn repeats_third(p: &mut Position, hist: &[u64], m: Move) -> bool {
    if hist.len() < 8 {
        return false;
    }
    let u = p.make(m);
    let h = p.hash();
    p.unmake(m, u);
    hist.iter().filter(|&&x| x == h).count() >= 2
}
