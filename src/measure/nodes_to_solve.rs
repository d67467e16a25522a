//! Nodes to solve (David et al. §IV, the fitness of `tuner search-evolve`): how many nodes a
//! node-limited iterative-deepening search of a test position needs before its root best move
//! becomes a solution and stays one. Read from the search's record of root best-move changes
//! ([`Searcher::best_move_changes`]), so one search answers for every node count up to the cap.

use std::sync::atomic::AtomicBool;

use shakmaty::{Chess, Move};

use crate::{
    limits::Limits,
    params::Params,
    search::{Searcher, report::NullListener},
};

/// Outcome of [`solve_nodes`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// Node count at which the root best move became acceptable for good (`None`: not solved
    /// within the cap).
    pub solved_at: Option<u64>,
    /// Nodes searched in all.
    pub nodes: u64,
    /// The final best move.
    pub best: Option<Move>,
}

impl SolveResult {
    /// The fitness contribution of David et al. §IV: nodes to solve, or the cap when unsolved.
    pub fn cost(&self, cap: u64) -> u64 {
        self.solved_at.unwrap_or(cap).min(cap)
    }
}

/// David et al. §IV fitness: a node-limited iterative-deepening search of `pos` with `params`
/// (fresh 8 MiB table, cleared histories). Returns the node count at which the root best move
/// first became a `targets` move (or, with no targets, a move not in `avoid`) and stayed one
/// until the search ended. Deterministic.
pub fn solve_nodes(pos: &Chess, params: &Params, targets: &[Move], avoid: &[Move], node_cap: u64) -> SolveResult {
    let mut s = Searcher::new(params.clone(), 8);
    solve(&mut s, pos, targets, avoid, node_cap)
}

/// [`solve_nodes`] with a searcher of the caller's (its table size and threads; one thread
/// keeps the result deterministic). Clears all the searcher's state first, so the result
/// depends only on the arguments.
pub fn solve(searcher: &mut Searcher, pos: &Chess, targets: &[Move], avoid: &[Move], node_cap: u64) -> SolveResult {
    searcher.clear();
    let stop = AtomicBool::new(false);
    let multipv = searcher.multipv();
    searcher.set_multipv(1);
    let best = searcher.search(pos, &[], &Limits::nodes(node_cap), &stop, &mut NullListener);
    searcher.set_multipv(multipv);
    let good = |m: Move| if targets.is_empty() { !avoid.contains(&m) } else { targets.contains(&m) };
    let nodes = searcher.last_nodes();
    let mut solved_at = None;
    for &(n, m) in searcher.best_move_changes() {
        if good(m) {
            solved_at.get_or_insert(n);
        } else {
            solved_at = None;
        }
    }
    if best.best.is_none_or(|m| !good(m)) {
        solved_at = None;
    }
    SolveResult { solved_at, nodes, best: best.best }
}
