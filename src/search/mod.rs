//! Search: iterative deepening with aspiration windows ([`root`]) over a PVS alpha-beta
//! ([`alphabeta`]) and quiescence ([`qsearch`]), run by one or more threads ([`thread`]).
//!
//! [`Searcher`] is the synchronous entry point: it owns the transposition table, the
//! move-ordering histories and the tablebases, and [`Searcher::search`] runs one search to
//! completion in the calling thread, reporting through a [`SearchListener`] ([`report`]). The
//! engine facade runs it on its own thread; the tuner calls it directly (see
//! [`crate::tuning`]).
//!
//! The modules, by concern (after Stockfish's search/thread split and Ethereal's search.c):
//! * [`root`]: iterative deepening, aspiration windows, root moves, what is reported;
//! * [`alphabeta`]: the interior nodes, as named steps (TT probe, static eval, pruning, move
//!   loop, extensions, history update);
//! * [`qsearch`]: captures until the position is quiet;
//! * `worker`: one thread's state, node counting and stop polling, draws, the PV;
//! * [`thread`]: Lazy SMP helpers and what the threads share;
//! * [`history`], [`params`]: move-ordering statistics and the tunable parameters;
//! * [`correction`]: the correction history of the static evaluation;
//! * [`report`]: the output types.
//!
//! Positions are copy-made (`Chess` is cloned, then `play_unchecked`), and the Zobrist key
//! ([`crate::zobrist`]) is updated incrementally where shakmaty can, recomputed otherwise.
//! After the per-search set-up the search itself does not allocate.

pub mod alphabeta;
pub mod correction;
pub mod history;
pub mod params;
pub mod qsearch;
pub mod report;
pub mod root;
pub mod thread;
pub(crate) mod worker;

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::Instant,
};

use shakmaty::{Chess, Move};

use self::{
    alphabeta::lmr_table,
    history::History,
    report::{BestMove, SearchListener},
    thread::{HelperCounts, Job, Shared},
    worker::Buffers,
};
use crate::{eval::Evaluator, limits::Limits, params::Params, tb::Tablebases, tt::TranspositionTable};

/// One ply of depth in the search's depth unit (quarter plies, so that fractional extensions
/// of David et al. accumulate exactly).
pub const ONE_PLY: i32 = 4;

/// Synchronous searcher: TT, histories and tablebases persist between searches until
/// [`Searcher::clear`].
pub struct Searcher {
    params: Params,
    /// Evaluation bound to `params.eval` (expanded piece-square tables).
    evaluator: Evaluator,
    tt: TranspositionTable,
    hist: Box<History>,
    /// One history per helper thread (`threads - 1`), kept between searches like `hist`. Boxed
    /// like `hist`: a `History` (1.3 MiB) is built in place, not on the stack, and stays put.
    #[allow(clippy::vec_box)]
    helper_hists: Vec<Box<History>>,
    tb: Tablebases,
    multipv: u32,
    move_overhead_ms: u64,
    /// Root best-move changes of the last search: `(nodes, move)`, see [`Searcher::best_move_changes`].
    best_changes: Vec<(u64, Move)>,
    last_nodes: u64,
}

impl Searcher {
    /// A searcher with `hash_mb` MiB of transposition table.
    pub fn new(params: Params, hash_mb: usize) -> Searcher {
        Searcher {
            evaluator: Evaluator::new(&params.eval),
            params,
            tt: TranspositionTable::new(hash_mb),
            hist: Box::new(History::new()),
            helper_hists: Vec::new(),
            tb: Tablebases::default(),
            multipv: 1,
            move_overhead_ms: 10,
            best_changes: Vec::new(),
            last_nodes: 0,
        }
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn set_params(&mut self, params: Params) {
        if params.eval != self.params.eval {
            self.evaluator = Evaluator::new(&params.eval);
        }
        self.params = params;
    }

    /// Resizes (and clears) the transposition table; on error the old one stays.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), crate::tt::TtAllocError> {
        self.tt.resize(mb)
    }

    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    pub fn clear_hash(&mut self) {
        self.tt.clear();
    }

    /// Forgets everything learnt: TT, histories, killers (`ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.hist.clear();
        for h in &mut self.helper_hists {
            h.clear();
        }
    }

    /// Search threads, at least 1: the main one plus `threads - 1` helpers. A helper's history
    /// starts empty; those of the remaining helpers are kept.
    pub fn set_threads(&mut self, threads: usize) {
        self.helper_hists.resize_with(threads.max(1) - 1, || Box::new(History::new()));
    }

    pub fn threads(&self) -> usize {
        self.helper_hists.len() + 1
    }

    pub fn set_multipv(&mut self, lines: u32) {
        self.multipv = lines.max(1);
    }

    pub fn set_move_overhead_ms(&mut self, ms: u64) {
        self.move_overhead_ms = ms;
    }

    pub fn tablebases(&self) -> &Tablebases {
        &self.tb
    }

    pub fn tablebases_mut(&mut self) -> &mut Tablebases {
        &mut self.tb
    }

    /// Searches `pos` within `limits`, in the calling thread.
    ///
    /// `game_history` holds the Zobrist keys ([`crate::zobrist::hash`]) of the positions of the game before
    /// `pos`, oldest first, for repetition detection. `stop` may be raised from another thread.
    /// Info lines go to `listener`, followed by exactly one `on_bestmove`; the same best move
    /// is returned.
    pub fn search(
        &mut self,
        pos: &Chess,
        game_history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        listener: &mut dyn SearchListener,
    ) -> BestMove {
        self.search_with_ponder(pos, game_history, limits, stop, None, listener)
    }

    /// [`Searcher::search`] for `go ponder`: while `ponder` is true the clock is not watched
    /// and no best move is reported; when it turns false (`ponderhit`) our clock starts.
    pub fn search_with_ponder(
        &mut self,
        pos: &Chess,
        game_history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        ponder: Option<&AtomicBool>,
        listener: &mut dyn SearchListener,
    ) -> BestMove {
        let start = Instant::now();
        self.tt.new_search();
        self.hist.clear_killers();
        for h in &mut self.helper_hists {
            h.clear_killers();
        }
        let lmr = lmr_table(&self.params.search);
        let helpers_stop = AtomicBool::new(false);
        let helper_counts = HelperCounts::default();
        let shared = Shared {
            sp: &self.params.search,
            ev: &self.evaluator,
            tt: &self.tt,
            tb: &self.tb,
            lmr: &lmr,
            stop,
            helpers_stop: &helpers_stop,
            helper_counts: &helper_counts,
        };
        let job = Job {
            pos,
            game_history,
            limits,
            multipv: self.multipv,
            ponder,
            start,
            move_overhead_ms: self.move_overhead_ms,
        };
        let mut buffers = Buffers::new();
        buffers.best_changes = std::mem::take(&mut self.best_changes);
        buffers.best_changes.clear();
        let (best, main_nodes, best_changes) =
            thread::run(&shared, &job, &mut self.hist, &mut self.helper_hists, buffers, listener);
        // The helpers have joined: every node they searched is counted.
        self.best_changes = best_changes;
        self.last_nodes = main_nodes + helper_counts.nodes.load(Ordering::Relaxed);
        listener.on_bestmove(&best);
        best
    }

    /// Nodes searched by the last search.
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes
    }

    /// MultiPV lines the next search reports.
    pub fn multipv(&self) -> u32 {
        self.multipv
    }

    /// The root best-move changes of the last search, `(nodes, move)` in order: when the
    /// main worker came to prefer each move (for [`crate::tuning`]'s
    /// nodes-to-solve measure).
    pub fn best_move_changes(&self) -> &[(u64, Move)] {
        &self.best_changes
    }
}
