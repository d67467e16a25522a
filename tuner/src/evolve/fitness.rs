//! The GM-move fitness of David et al. §III-B: the organism's 1-ply choice is compared with
//! the grandmaster's move; fitness is the number of matches, squared.
//!
//! The positions never change during a run, only the evaluation weights do, so each position
//! is expanded once into its children (move generation, make-move, keys and mate/stalemate
//! detection done up front); an organism then only scores children. A mating move beats
//! everything, stalemate scores 0, ties keep the first move in generation order, and a child
//! is scored by [`FitnessSearch`]:
//! * `qsearch` (default): the engine's quiescence search from the child, exactly
//!   [`QuiescenceProbe::best_move`]'s choice (a test checks they agree). The paper's 1-ply
//!   search is a real program's, which resolves exchanges; without it the fitness rewards
//!   taking defended pieces and drives the piece values out of chess proportions.
//! * `static`: the negated static evaluation, exactly [`evochess::measure::static_one_ply::best_move`]'s choice.

use evochess::{
    eval::Evaluator,
    measure::quiescence_probe::{ProbeChild, QuiescenceProbe, order_children},
    params::{EvalParams, SearchParams},
    zobrist::hash,
};
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};

use crate::ga::par_map;

/// How the 1-ply fitness scores a child position (`[fitness] search` in evolve.toml).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum FitnessSearch {
    /// Quiescence search (captures, promotions, evasions) with the organism's evaluation and
    /// the default search section.
    #[default]
    Qsearch,
    /// The static evaluation of the child.
    Static,
}

/// The `[fitness]` table of evolve.toml.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FitnessConfig {
    pub search: FitnessSearch,
}

/// Scores children for one organism: its evaluator and, for `qsearch`, a reusable probe.
pub struct Scorer {
    eval: Evaluator,
    probe: Option<QuiescenceProbe>,
}

impl Scorer {
    pub fn new(params: &EvalParams, search: FitnessSearch) -> Self {
        let probe = (search == FitnessSearch::Qsearch).then(|| QuiescenceProbe::new(&SearchParams::default()));
        Scorer { eval: Evaluator::new(params), probe }
    }

    /// The organism's value of `pos` (side to move's view): its quiescence score with
    /// `qsearch`, its static evaluation otherwise.
    pub fn value(&mut self, pos: &Chess) -> i32 {
        match &mut self.probe {
            Some(probe) => probe.score(&self.eval, pos, hash(pos)),
            None => self.eval.evaluate(pos),
        }
    }
}

/// One training position, expanded.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Key of the position (for the quiescence search's repetition and table).
    root_key: u64,
    /// Children that need scoring, in [`order_children`]'s search order, with their move index
    /// and key.
    children: Vec<ProbeChild>,
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
        let root_key = hash(pos);
        let mut children = Vec::with_capacity(moves.len());
        let mut stalemates = Vec::new();
        let mut forced = None;
        for (i, &m) in moves.iter().enumerate() {
            let child = ProbeChild::new(pos, root_key, i as u16, m);
            if child.pos.is_checkmate() {
                forced.get_or_insert(i as u16);
            } else if child.pos.is_stalemate() {
                stalemates.push(i as u16);
            } else {
                children.push(child);
            }
        }
        order_children(&mut children);
        Some(Self { root_key, children, stalemates, forced, target })
    }

    /// Index (in legal-move order) of the move a 1-ply search with `params` plays.
    pub fn choice(&self, params: &EvalParams, search: FitnessSearch) -> u16 {
        self.choice_with(&mut Scorer::new(params, search))
    }

    /// [`Self::choice`] with a prepared scorer (build one per organism, not per position).
    pub fn choice_with(&self, scorer: &mut Scorer) -> u16 {
        if let Some(i) = self.forced {
            return i;
        }
        let eval = &scorer.eval;
        if let Some(probe) = &mut scorer.probe {
            return probe.choose(eval, self.root_key, &self.children, &self.stalemates).unwrap_or(u16::MAX);
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
        for child in &self.children {
            consider(-eval.evaluate(&child.pos), child.index);
        }
        best.map_or(u16::MAX, |(_, i)| i)
    }

    /// Whether a 1-ply search with `params` plays the GM move.
    pub fn solved(&self, params: &EvalParams, search: FitnessSearch) -> bool {
        self.solved_with(&mut Scorer::new(params, search))
    }

    /// [`Self::solved`] with a prepared scorer. The quiescence root stops as soon as the GM
    /// move is out ([`QuiescenceProbe::chooses`]): most positions are not solved, and the
    /// children searched after that cannot change the answer.
    pub fn solved_with(&self, scorer: &mut Scorer) -> bool {
        match (self.forced, &mut scorer.probe) {
            (None, Some(probe)) => {
                probe.chooses(&scorer.eval, self.root_key, &self.children, &self.stalemates, self.target)
            }
            _ => self.choice_with(scorer) == self.target,
        }
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
pub fn count_solved(positions: &[Prepared], params: &EvalParams, search: FitnessSearch) -> u32 {
    let mut scorer = Scorer::new(params, search);
    positions.iter().filter(|p| p.solved_with(&mut scorer)).count() as u32
}

/// [`count_solved`] split over `threads` workers by chunks of positions.
pub fn count_solved_par(positions: &[Prepared], params: &EvalParams, search: FitnessSearch, threads: usize) -> u32 {
    let chunks: Vec<&[Prepared]> = positions.chunks(positions.len().div_ceil(threads.max(1) * 4).max(1)).collect();
    par_map(&chunks, threads, |c| count_solved(c, params, search)).into_iter().sum()
}

/// David's fitness: the number of GM moves found, squared.
pub fn gm_fitness(solved: u32) -> f64 {
    f64::from(solved) * f64::from(solved)
}
