//! Lazy SMP: the threads of one search and what they share.
//!
//! With [`Searcher::set_threads`](super::Searcher::set_threads) above 1, the calling thread
//! runs the main worker and `threads - 1` helper workers run beside it in a
//! [`std::thread::scope`]. Every worker searches the same root with its own history, stack and
//! root moves; they share only the lock-free transposition table (see [`crate::tt`]), through
//! which helpers pass on what they find. Helpers skip some depths (Stockfish 9's skip table) so
//! that they do not all search the same tree, have no time limit and report nothing; the main
//! worker alone decides the move, watches the clock and the node limit, and raises the helpers'
//! stop flag when it returns. Reported node counts are those of all workers (helpers publish
//! theirs every 1024 nodes). With one thread no helper exists and the search is exactly
//! deterministic.

use std::{
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
    time::Instant,
};

use shakmaty::{Chess, Move, Position};

use super::{
    history::History,
    report::{BestMove, NullListener, SearchListener},
    worker::{Buffers, Worker},
};
use crate::{
    eval::Evaluator, limits::Limits, params::SearchParams, tb::Tablebases, timeman::TimeManager, tt::TranspositionTable,
};

/// Stack of a search thread: the recursion keeps a move picker per ply on the stack.
pub(crate) const SEARCH_STACK_BYTES: usize = 64 * 1024 * 1024;

/// What the workers (threads) of one search share: read-only state, the table and the flags.
pub(crate) struct Shared<'a> {
    pub sp: &'a SearchParams,
    pub ev: &'a Evaluator,
    pub tt: &'a TranspositionTable,
    pub tb: &'a Tablebases,
    pub lmr: &'a [[i32; 64]; 64],
    /// The `stop` command: every worker stops.
    pub stop: &'a AtomicBool,
    /// Raised by the main worker when it returns: the helpers stop.
    pub helpers_stop: &'a AtomicBool,
    pub helper_counts: &'a HelperCounts,
}

/// Nodes and tablebase hits of the helper threads of one search, published as they go.
#[derive(Default)]
pub(crate) struct HelperCounts {
    pub nodes: AtomicU64,
    pub tbhits: AtomicU64,
}

/// Raises a flag when dropped.
struct RaiseOnDrop<'a>(&'a AtomicBool);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Stockfish 9's helper depth schedule: helper `i` skips `depth` when
/// `(depth + game ply + PHASE[j]) / SIZE[j]` is odd, with `j = i % 20`.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper `id` (1..) leaves iteration `depth` to the others. Depth 1 is never skipped.
pub(super) fn helper_skips(id: usize, depth: i32, game_ply: i32) -> bool {
    let j = id % 20;
    depth > 1 && (depth + game_ply + SKIP_PHASE[j]) / SKIP_SIZE[j] % 2 != 0
}

/// What one search run by [`run`] needs beside the [`Shared`] state.
pub(super) struct Job<'a> {
    pub pos: &'a Chess,
    pub game_history: &'a [u64],
    pub limits: &'a Limits,
    pub multipv: u32,
    pub ponder: Option<&'a AtomicBool>,
    pub start: Instant,
    pub move_overhead_ms: u64,
}

/// Runs one search: the main worker in the calling thread (reporting to `listener`), one
/// helper per history in `helper_hists` beside it. Returns the best move, the main worker's
/// nodes and its root best-move changes, once every helper has joined.
pub(super) fn run(
    shared: &Shared,
    job: &Job,
    hist: &mut History,
    helper_hists: &mut [Box<History>],
    buffers: Buffers,
    listener: &mut dyn SearchListener,
) -> (BestMove, u64, Vec<(u64, Move)>) {
    let Job { pos, game_history, limits, multipv, ponder, start, move_overhead_ms } = *job;
    let tm = TimeManager::starting_at(start, limits, pos.turn(), move_overhead_ms, shared.sp);
    // Helpers search with no limit but `stop` and the main worker's end, and no TB filter.
    let helper_limits = Limits { searchmoves: limits.searchmoves.clone(), ..Limits::default() };
    std::thread::scope(|scope| {
        // Raised when the main worker returns, even by a panic, so that the scope can end.
        let _release = RaiseOnDrop(shared.helpers_stop);
        for (i, hist) in helper_hists.iter_mut().enumerate() {
            let helper_limits = &helper_limits;
            let spawned = std::thread::Builder::new()
                .name(format!("helper {}", i + 1))
                .stack_size(SEARCH_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let helper_tm = TimeManager::starting_at(start, helper_limits, pos.turn(), 0, shared.sp);
                    let mut helper = Worker::new(shared, hist, helper_tm, start, u64::MAX, Buffers::new());
                    helper.id = i + 1;
                    helper.set_game_history(game_history);
                    helper.iterate(pos, helper_limits, 1, &mut NullListener);
                    helper.publish_counts();
                });
            if let Err(e) = spawned {
                log::warn!("cannot start search helper {}: {e}; searching with {} threads", i + 1, i + 1);
                break;
            }
        }
        let mut worker = Worker::new(shared, hist, tm, start, limits.nodes.unwrap_or(u64::MAX), buffers);
        worker.ponder = ponder;
        worker.pondering = ponder.is_some_and(|p| p.load(Ordering::Acquire));
        worker.set_game_history(game_history);
        let best = worker.iterate(pos, limits, multipv, listener);
        (best, worker.nodes, worker.into_buffers().best_changes)
    })
}

impl Worker<'_> {
    /// Helper: adds the nodes and TB hits searched since the last call to the shared counts.
    pub(super) fn publish_counts(&mut self) {
        let (nodes, tbhits) = self.published;
        self.helper_counts.nodes.fetch_add(self.nodes - nodes, Ordering::Relaxed);
        self.helper_counts.tbhits.fetch_add(self.tbhits - tbhits, Ordering::Relaxed);
        self.published = (self.nodes, self.tbhits);
    }

    /// Main worker: nodes of all workers so far.
    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes + self.helper_counts.nodes.load(Ordering::Relaxed)
    }

    /// Main worker: TB hits of all workers so far.
    pub(super) fn total_tbhits(&self) -> u64 {
        self.tbhits + self.helper_counts.tbhits.load(Ordering::Relaxed)
    }
}
