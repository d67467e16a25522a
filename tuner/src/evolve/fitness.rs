//! The GM-move fitness of David et al. §III-B: the organism's 1-ply choice is compared with
//! the grandmaster's move; fitness is the number of matches, squared.
//!
//! The positions never change during a run, only the evaluation weights do, so each position
//! is expanded once into its children (move generation, make-move and mate/stalemate
//! detection done up front); an organism then only evaluates children. The choice rule is
//! exactly [`evochess::oneply::best_move`]'s (a test checks they agree): a mating move beats
//! everything, stalemate scores 0, otherwise the negated static evaluation of the child, and
//! ties keep the first move in generation order.

use evochess::{eval::Evaluator, params::EvalParams};
use shakmaty::{Chess, Move, Position};

use crate::ga::par_map;

/// One training position, expanded.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Children in legal-move order that need evaluating, with their move index.
    children: Vec<(u16, Chess)>,
    /// Stalemate children (score 0), by move index.
    stalemates: Vec<u16>,
    /// Index of the first mating move: the choice whatever the weights.
    forced: Option<u16>,
    /// Index of the GM move in legal-move order.
    target: u16,
}

impl Prepared {
    /// Expands `pos`; `None` when `target` is not a legal move there.
    pub fn new(pos: &Chess, target: Move) -> Option<Self> {
        let moves = pos.legal_moves();
        let target = moves.iter().position(|&m| m == target)? as u16;
        let mut children = Vec::with_capacity(moves.len());
        let mut stalemates = Vec::new();
        let mut forced = None;
        for (i, &m) in moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            if child.is_checkmate() {
                forced.get_or_insert(i as u16);
            } else if child.is_stalemate() {
                stalemates.push(i as u16);
            } else {
                children.push((i as u16, child));
            }
        }
        Some(Self { children, stalemates, forced, target })
    }

    /// Index (in legal-move order) of the move a 1-ply search with `params` plays.
    pub fn choice(&self, params: &EvalParams) -> u16 {
        self.choice_with(&Evaluator::new(params))
    }

    /// [`Self::choice`] with a prepared evaluator (build one per organism, not per position).
    pub fn choice_with(&self, eval: &Evaluator) -> u16 {
        if let Some(i) = self.forced {
            return i;
        }
        let mut best: Option<(i32, u16)> = None;
        let mut consider = |score: i32, i: u16| {
            // Strictly better, or equal and earlier in move order.
            if best.is_none_or(|(s, j)| score > s || (score == s && i < j)) {
                best = Some((score, i));
            }
        };
        for &i in &self.stalemates {
            consider(0, i);
        }
        for (i, child) in &self.children {
            consider(-eval.evaluate(child), *i);
        }
        best.map_or(u16::MAX, |(_, i)| i)
    }

    /// Whether a 1-ply search with `params` plays the GM move.
    pub fn solved(&self, params: &EvalParams) -> bool {
        self.solved_with(&Evaluator::new(params))
    }

    pub fn solved_with(&self, eval: &Evaluator) -> bool {
        self.choice_with(eval) == self.target
    }

    /// Children to evaluate per organism (the cost of one position).
    pub fn work(&self) -> usize {
        self.children.len()
    }
}

/// Expands every position; positions whose move is illegal are dropped (counted in the result).
pub fn prepare_all(positions: &[(Chess, Move)], threads: usize) -> (Vec<Prepared>, usize) {
    let prepared = par_map(positions, threads, |(pos, m)| Prepared::new(pos, *m));
    let dropped = prepared.iter().filter(|p| p.is_none()).count();
    (prepared.into_iter().flatten().collect(), dropped)
}

/// Number of positions where `params` finds the GM move (one thread).
pub fn count_solved(positions: &[Prepared], params: &EvalParams) -> u32 {
    let eval = Evaluator::new(params);
    positions.iter().filter(|p| p.solved_with(&eval)).count() as u32
}

/// [`count_solved`] split over `threads` workers by chunks of positions.
pub fn count_solved_par(positions: &[Prepared], params: &EvalParams, threads: usize) -> u32 {
    let chunks: Vec<&[Prepared]> = positions.chunks(positions.len().div_ceil(threads.max(1) * 4).max(1)).collect();
    par_map(&chunks, threads, |c| count_solved(c, params)).into_iter().sum()
}

/// David's fitness: the number of GM moves found, squared.
pub fn gm_fitness(solved: u32) -> f64 {
    f64::from(solved) * f64::from(solved)
}
