//! Search: iterative deepening with aspiration windows over a PVS alpha-beta
//! ([`alphabeta`]) and quiescence ([`qsearch`]), root move bookkeeping, limits and reporting.
//!
//! [`Searcher`] is the synchronous entry point: it owns the transposition table, the
//! move-ordering histories and the tablebases, and [`Searcher::search`] runs one search to
//! completion in the calling thread, reporting through a [`SearchListener`]. The engine facade
//! runs it on its own thread; the tuner calls it (or [`solve_nodes`]) directly.
//!
//! Threads (Lazy SMP): with [`Searcher::set_threads`] above 1, the calling thread runs the main
//! worker and `threads - 1` helper workers run beside it in a [`std::thread::scope`]. Every
//! worker searches the same root with its own history, stack and root moves; they share only
//! the lock-free transposition table (see [`crate::tt`]), through which helpers pass on what
//! they find. Helpers skip some depths (Stockfish 9's skip table) so that they do not all
//! search the same tree, have no time limit and report nothing; the main worker alone decides
//! the move, watches the clock and the node limit, and raises the helpers' stop flag when it
//! returns. Reported node counts are those of all workers (helpers publish theirs every 1024
//! nodes). With one thread no helper exists and the search is exactly deterministic.
//!
//! Positions are copy-made (`Chess` is cloned, then `play_unchecked`), and the Zobrist key is
//! updated incrementally where shakmaty can, recomputed otherwise. After the per-search set-up
//! the search itself does not allocate.

pub mod alphabeta;
pub mod epd;
pub mod history;
pub mod params;
pub mod probe;
pub mod qsearch;

use std::{
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
    time::Instant,
};

use shakmaty::{Chess, EnPassantMode, Move, Position, zobrist::Zobrist64};
use shakmaty_syzygy::AmbiguousWdl;

pub use self::epd::{EpdEntry, EpdError, EpdResult, parse_epd, parse_epd_line, solve_epd_suite};
use self::history::{History, PieceTo};
use crate::{
    engine::{BestMove, Bound, SEARCH_STACK_BYTES, SearchInfo, SearchListener},
    eval::Evaluator,
    limits::Limits,
    params::{Params, SearchParams},
    score::{self, DRAW, INFINITE, MATE_IN_MAX, MAX_PLY, TB_WIN_IN_MAX, is_mate},
    tb::Tablebases,
    timeman::TimeManager,
    tt::{TranspositionTable, decode_move},
};

/// One ply of depth in the search's depth unit (quarter plies, so that fractional extensions
/// of David et al. accumulate exactly).
pub const ONE_PLY: i32 = 4;

/// Zobrist key of a position (Polyglot-compatible).
#[inline]
pub fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Key of `pos` after `m` if it can be updated incrementally (no king move, castling-rights
/// change, double push or en passant square involved).
#[inline]
pub fn key_after(pos: &Chess, key: u64, m: Move) -> Option<u64> {
    pos.update_zobrist_hash::<Zobrist64>(Zobrist64(key), m, EnPassantMode::Legal).map(|k| k.0)
}

/// Key of `pos` after `m`, incrementally where shakmaty supports it.
#[inline]
pub fn hash_after(pos: &Chess, key: u64, m: Move, child: &Chess) -> u64 {
    match pos.update_zobrist_hash::<Zobrist64>(Zobrist64(key), m, EnPassantMode::Legal) {
        Some(k) => k.0,
        None => hash(child),
    }
}

/// A root move and what the last iterations found for it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    /// Whether `score` was set by the current iteration.
    updated: bool,
    pub bound: Bound,
    pub seldepth: usize,
    pub pv: Vec<Move>,
}

/// Per-ply search stack entry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// Static evaluation (`-INFINITE` when in check).
    pub static_eval: i32,
    /// Piece and destination of the move played from this ply (None: null move / none yet).
    pub piece_to: Option<PieceTo>,
    /// Destination of the move played from this ply if it captured.
    pub capture_to: Option<shakmaty::Square>,
    /// The move played from this ply was a null move.
    pub null: bool,
    /// A move this node must not search (the singular-extension test searches all the others).
    pub excluded: Option<Move>,
}

impl Default for Frame {
    fn default() -> Self {
        Frame { static_eval: -INFINITE, piece_to: None, capture_to: None, null: false, excluded: None }
    }
}

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

/// A listener that ignores everything (for silent in-process searches).
pub struct NullListener;

impl SearchListener for NullListener {
    fn on_info(&mut self, _info: &SearchInfo) {}
    fn on_bestmove(&mut self, _best: &BestMove) {}
}

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
    /// Root best-move changes of the last search: `(nodes, move)`, for [`solve_nodes`].
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
    /// `game_history` holds the Zobrist keys ([`hash`]) of the positions of the game before
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
        let tm = TimeManager::starting_at(start, limits, pos.turn(), self.move_overhead_ms, &self.params.search);
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
        // Helpers search with no limit but `stop` and the main worker's end, and no TB filter.
        let helper_limits = Limits { searchmoves: limits.searchmoves.clone(), ..Limits::default() };
        let mut buffers = Buffers::new();
        buffers.best_changes = std::mem::take(&mut self.best_changes);
        buffers.best_changes.clear();
        let (multipv, hist, helper_hists) = (self.multipv, &mut self.hist, &mut self.helper_hists);
        let (best, main_nodes, best_changes) = std::thread::scope(|scope| {
            // Raised when the main worker returns, even by a panic, so that the scope can end.
            let _release = RaiseOnDrop(&helpers_stop);
            for (i, hist) in helper_hists.iter_mut().enumerate() {
                let (shared, helper_limits) = (&shared, &helper_limits);
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
            let mut worker = Worker::new(&shared, hist, tm, start, limits.nodes.unwrap_or(u64::MAX), buffers);
            worker.ponder = ponder;
            worker.pondering = ponder.is_some_and(|p| p.load(Ordering::Acquire));
            worker.set_game_history(game_history);
            let best = worker.iterate(pos, limits, multipv, listener);
            (best, worker.nodes, worker.into_buffers().best_changes)
        });
        // The helpers have joined: every node they searched is counted.
        self.best_changes = best_changes;
        self.last_nodes = main_nodes + helper_counts.nodes.load(Ordering::Relaxed);
        listener.on_bestmove(&best);
        best
    }

    /// David et al. §IV fitness on one position: see [`solve_nodes`]. Clears all state first,
    /// so the result depends only on the arguments.
    pub fn solve(&mut self, pos: &Chess, targets: &[Move], avoid: &[Move], node_cap: u64) -> SolveResult {
        self.clear();
        let stop = AtomicBool::new(false);
        let multipv = std::mem::replace(&mut self.multipv, 1);
        let best = self.search(pos, &[], &Limits::nodes(node_cap), &stop, &mut NullListener);
        self.multipv = multipv;
        let good = |m: Move| if targets.is_empty() { !avoid.contains(&m) } else { targets.contains(&m) };
        let nodes = self.last_nodes;
        let mut solved_at = None;
        for &(n, m) in &self.best_changes {
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

    /// Nodes searched by the last search.
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes
    }
}

/// David et al. §IV fitness: a node-limited iterative-deepening search of `pos` with `params`
/// (fresh 8 MiB table, cleared histories). Returns the node count at which the root best move
/// first became a `targets` move (or, with no targets, a move not in `avoid`) and stayed one
/// until the search ended. Deterministic.
pub fn solve_nodes(pos: &Chess, params: &Params, targets: &[Move], avoid: &[Move], node_cap: u64) -> SolveResult {
    let mut s = Searcher::new(params.clone(), 8);
    s.solve(pos, targets, avoid, node_cap)
}

/// The score of a line drawn by repetition or the 50-move rule: zero give or take one, varied
/// by the node count so that the search does not settle into the first repetition it sees when
/// a draw is one of several equal options (Stockfish's `VALUE_DRAW - 1 + (nodes & 2)`).
/// Deterministic: the same search counts the same nodes.
#[inline]
pub fn draw_score(nodes: u64) -> i32 {
    DRAW - 1 + (nodes & 2) as i32
}

/// LMR table in quarter plies, `[depth][move number]`.
fn lmr_table(p: &SearchParams) -> [[i32; 64]; 64] {
    let mut t = [[0; 64]; 64];
    let base = f64::from(p.lmr_base) / 100.0;
    let div = f64::from(p.lmr_divisor) / 100.0;
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let plies = base + (d as f64).ln() * (m as f64).ln() / div;
            *r = (plies * f64::from(ONE_PLY)).max(0.0) as i32;
        }
    }
    t
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

/// Stockfish 9's helper depth schedule: helper `i` skips `depth` when
/// `(depth + game ply + PHASE[j]) / SIZE[j]` is odd, with `j = i % 20`.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper `id` (1..) leaves iteration `depth` to the others. Depth 1 is never skipped.
fn helper_skips(id: usize, depth: i32, game_ply: i32) -> bool {
    let j = id % 20;
    depth > 1 && (depth + game_ply + SKIP_PHASE[j]) / SKIP_SIZE[j] % 2 != 0
}

/// The root of one search, as the iteration steps need it.
struct Root<'p> {
    pos: &'p Chess,
    key: u64,
    /// The root's tablebase result: it overrides reported scores ([`Worker::adjust`]).
    tb_wdl: Option<AmbiguousWdl>,
}

/// The root moves `searchmoves` allows: those of its moves that are legal, each once, in its
/// order; every legal move when it names none.
fn allowed_root_moves(legal: &[Move], searchmoves: &[Move]) -> Vec<Move> {
    let mut allowed = Vec::new();
    for &m in searchmoves {
        if legal.contains(&m) && !allowed.contains(&m) {
            allowed.push(m);
        }
    }
    if allowed.is_empty() {
        allowed.extend_from_slice(legal);
    }
    allowed
}

/// Deepest iteration `limits` allow.
fn max_depth(limits: &Limits) -> i32 {
    match limits.mate {
        // A mate in no moves: none can be found, so answer after one ply rather than never.
        Some(0) => 1,
        _ => limits.depth.map_or(MAX_PLY as i32 - 4, |d| (d as i32).clamp(1, MAX_PLY as i32 - 4)),
    }
}

/// Past this half-width an aspiration window is dropped for the full one: the score is far
/// from where it was, and more narrow re-searches would only cost time.
const ASPIRATION_MAX_DELTA: i32 = 1000;

/// Fail-high and fail-low lines are reported only once a search has run this long: a GUI needs
/// them to show progress in a long search, not the many of a fast one.
const REPORT_FAILS_AFTER_MS: u64 = 3000;

/// The state of one running search thread.
pub(crate) struct Worker<'a> {
    pub sp: &'a SearchParams,
    pub ev: &'a Evaluator,
    pub tt: &'a TranspositionTable,
    pub hist: &'a mut History,
    pub tb: &'a Tablebases,
    stop: &'a AtomicBool,
    /// See [`Shared::helpers_stop`]: raised by the main worker, obeyed by the helpers.
    helpers_stop: &'a AtomicBool,
    helper_counts: &'a HelperCounts,
    /// 0 for the main worker, 1.. for helpers.
    id: usize,
    ponder: Option<&'a AtomicBool>,
    pondering: bool,
    tm: TimeManager,
    start: Instant,
    /// Main worker: nodes of all workers together at which to stop.
    node_limit: u64,
    /// This worker's own nodes.
    pub nodes: u64,
    /// Main worker: the helpers' nodes as last read (every 1024 nodes), 0 without helpers.
    helper_nodes: u64,
    /// Helper: nodes and TB hits already added to `helper_counts`.
    published: (u64, u64),
    pub tbhits: u64,
    pub seldepth: usize,
    pub stopped: bool,
    pub stack: Vec<Frame>,
    /// Keys of the game and of the current search path; the last is the current node's.
    pub keys: Vec<u64>,
    /// Index of the root position's key in `keys` (positions before it are the game's).
    pub root_index: usize,
    pub pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pub pv_len: [usize; MAX_PLY + 1],
    pub lmr: &'a [[i32; 64]; 64],
    pub root_moves: Vec<RootMove>,
    pub root_depth: i32,
    pub pv_idx: usize,
    /// Root best-move changes `(nodes, move)` (main worker).
    best_changes: Vec<(u64, Move)>,
}

/// The allocations of a worker, kept to be reused by the next one ([`probe`]).
pub(crate) struct Buffers {
    stack: Vec<Frame>,
    keys: Vec<u64>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    best_changes: Vec<(u64, Move)>,
}

impl Buffers {
    pub fn new() -> Buffers {
        Buffers {
            stack: vec![Frame::default(); MAX_PLY + 4],
            keys: Vec::with_capacity(MAX_PLY + 8),
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 1],
            best_changes: Vec::new(),
        }
    }
}

impl<'a> Worker<'a> {
    /// A main worker (id 0, not pondering) over `buffers`, with no root moves yet.
    pub fn new(
        shared: &Shared<'a>,
        hist: &'a mut History,
        tm: TimeManager,
        start: Instant,
        node_limit: u64,
        buffers: Buffers,
    ) -> Worker<'a> {
        let Buffers { stack, keys, pv, best_changes } = buffers;
        Worker {
            sp: shared.sp,
            ev: shared.ev,
            tt: shared.tt,
            hist,
            tb: shared.tb,
            stop: shared.stop,
            helpers_stop: shared.helpers_stop,
            helper_counts: shared.helper_counts,
            id: 0,
            ponder: None,
            pondering: false,
            tm,
            start,
            node_limit,
            nodes: 0,
            helper_nodes: 0,
            published: (0, 0),
            tbhits: 0,
            seldepth: 0,
            stopped: false,
            stack,
            keys,
            root_index: 0,
            pv,
            pv_len: [0; MAX_PLY + 1],
            lmr: shared.lmr,
            root_moves: Vec::new(),
            root_depth: 0,
            pv_idx: 0,
            best_changes,
        }
    }

    /// The allocations, for the next worker.
    pub fn into_buffers(self) -> Buffers {
        Buffers { stack: self.stack, keys: self.keys, pv: self.pv, best_changes: self.best_changes }
    }

    /// Sets the keys of the game before the root (oldest first), with room for the search path.
    pub fn set_game_history(&mut self, game_history: &[u64]) {
        self.keys.clear();
        self.keys.reserve(game_history.len() + MAX_PLY + 8);
        self.keys.extend_from_slice(game_history);
        self.root_index = game_history.len();
    }
}

impl Worker<'_> {
    /// Counts a node and decides whether the search must stop. Node limits are exact with one
    /// thread (with helpers, their share is read every 1024 nodes); the clock and the stop
    /// flags are polled every 1024 nodes.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.stopped {
            return true;
        }
        if self.nodes + self.helper_nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes & 1023 == 0 {
            self.poll();
        }
        self.stopped
    }

    fn poll(&mut self) {
        if self.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id != 0 {
            self.publish_counts();
            if self.helpers_stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            return;
        }
        self.helper_nodes = self.helper_counts.nodes.load(Ordering::Relaxed);
        if self.pondering && !self.ponder.is_some_and(|p| p.load(Ordering::Acquire)) {
            // ponderhit: our clock starts now.
            self.pondering = false;
            self.tm.restart();
        }
        // Depth 1 always completes so that there is a move to play.
        if !self.pondering && self.root_depth > 1 && self.tm.out_of_time() {
            self.stopped = true;
        }
    }

    /// Is the current node (key on top of `keys`) a draw by repetition? Looks back through
    /// positions with the same side to move, as far as the halfmove clock allows. A repeat of a
    /// position inside the search counts at once (whoever could repeat once can repeat again),
    /// but a position that only occurred before the root must have occurred twice there: the
    /// game is not drawn until the third occurrence, and the side to move may deviate.
    #[inline]
    pub fn is_repetition(&self, halfmoves: u32) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let limit = (halfmoves as usize).min(n - 1);
        let mut before_root = 0;
        let mut i = 4;
        while i <= limit {
            let j = n - 1 - i;
            if self.keys[j] == key {
                if j > self.root_index {
                    return true;
                }
                before_root += 1;
                if before_root == 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// The score of a drawn line at this node (see [`draw_score`]).
    #[inline]
    pub fn draw_score(&self) -> i32 {
        draw_score(self.nodes)
    }

    /// The 50-move rule draws unless the move that reached the 100th half-move mated.
    #[inline]
    pub fn fifty_move_draw(pos: &Chess, in_check: bool) -> bool {
        pos.halfmoves() >= 100 && !(in_check && pos.legal_moves().is_empty())
    }

    /// Legal TT move for `pos`, if the entry has one.
    #[inline]
    pub fn tt_move(&self, pos: &Chess, packed: u16) -> Option<Move> {
        decode_move(pos, packed).filter(|&m| pos.is_legal(m))
    }

    #[inline]
    pub fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Helper: adds the nodes and TB hits searched since the last call to the shared counts.
    fn publish_counts(&mut self) {
        let (nodes, tbhits) = self.published;
        self.helper_counts.nodes.fetch_add(self.nodes - nodes, Ordering::Relaxed);
        self.helper_counts.tbhits.fetch_add(self.tbhits - tbhits, Ordering::Relaxed);
        self.published = (self.nodes, self.tbhits);
    }

    /// Main worker: nodes of all workers so far.
    fn total_nodes(&self) -> u64 {
        self.nodes + self.helper_counts.nodes.load(Ordering::Relaxed)
    }

    /// Main worker: TB hits of all workers so far.
    fn total_tbhits(&self) -> u64 {
        self.tbhits + self.helper_counts.tbhits.load(Ordering::Relaxed)
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn info(&self, rm: &RootMove, depth: i32, multipv: usize, score: i32, bound: Bound, root: &Chess) -> SearchInfo {
        let ms = self.elapsed_ms();
        let nodes = self.total_nodes();
        SearchInfo {
            depth: depth.max(0) as u32,
            seldepth: rm.seldepth.max(depth.max(1) as usize) as u32,
            multipv: multipv as u32,
            score: score::report(score),
            bound,
            nodes,
            nps: nodes * 1000 / ms.max(1),
            hashfull: self.tt.hashfull(),
            tbhits: self.total_tbhits(),
            time_ms: ms,
            pv: legal_prefix(root, &rm.pv),
        }
    }

    /// Iterative deepening with aspiration windows and MultiPV; returns the move to play.
    fn iterate(&mut self, pos: &Chess, limits: &Limits, multipv: u32, listener: &mut dyn SearchListener) -> BestMove {
        let root_key = hash(pos);
        self.keys.push(root_key);
        let legal = pos.legal_moves();
        let mut allowed = allowed_root_moves(&legal, &limits.searchmoves);
        let tb_wdl = self.filter_root_by_tablebase(pos, &mut allowed);
        if legal.is_empty() {
            self.report_no_move(pos, listener);
            self.wait_for_release(limits);
            return BestMove { best: None, ponder: None };
        }
        let root = Root { pos, key: root_key, tb_wdl };
        self.init_root_moves(&root, &allowed);
        let lines = (multipv as usize).min(self.root_moves.len()).max(1);
        let mut last_reported: Option<Move> = None;
        let mut instability = 0u64;
        let mut prev_best = None;
        let game_ply = self.root_index as i32;

        for depth in 1..=max_depth(limits) {
            if self.id != 0 && helper_skips(self.id, depth, game_ply) {
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
                rm.updated = false;
            }
            for pv_idx in 0..lines {
                self.aspiration_search(&root, depth, pv_idx, lines, listener);
                if self.stopped {
                    break;
                }
                // A later line can score above an earlier one (each line is its own search,
                // with its own pruning): keep the finished lines ordered best first, as
                // Stockfish does, so `multipv 1` is always the best line and the move played.
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            let completed = !self.stopped;
            if completed || self.root_moves[0].updated {
                let best = self.root_moves[0].mv;
                self.note_best(best);
                if completed {
                    for i in 0..lines {
                        self.report_line(&root, i, depth, self.root_moves[i].score, Bound::Exact, listener);
                    }
                    last_reported = Some(best);
                }
            }
            if self.stopped {
                break;
            }
            let best = self.root_moves[0].mv;
            instability = instability / 2 + u64::from(prev_best.is_some_and(|p| p != best)) * 2;
            prev_best = Some(best);
            if self.iteration_ends_search(limits, depth, instability) {
                break;
            }
        }
        if self.id == 0 {
            // The move is decided: the helpers may stop (they are not waited for in `infinite`).
            self.helpers_stop.store(true, Ordering::Release);
        }

        // The final line, when the last iteration was cut short after finding a new best.
        let best = self.root_moves[0].mv;
        if last_reported != Some(best) {
            let rm = &self.root_moves[0];
            let depth = if rm.updated { self.root_depth } else { (self.root_depth - 1).max(1) };
            self.report_line(&root, 0, depth, rm.score, Bound::Exact, listener);
        }
        self.wait_for_release(limits);
        BestMove { best: Some(best), ponder: self.ponder_move(pos, best) }
    }

    /// Root tablebase filter. With the root in the tables, the search may only choose among
    /// the moves that keep its result (DTZ-best for a win or loss): on its own it could let a
    /// won ending slip under the 50-move rule. Returns the root's WDL, which then overrides the
    /// reported score ([`Worker::adjust`]), or `None` when the root is not in the tables or no
    /// allowed move (`searchmoves`) keeps the result. Only the main worker probes: its moves
    /// are the ones played.
    fn filter_root_by_tablebase(&mut self, pos: &Chess, allowed: &mut Vec<Move>) -> Option<AmbiguousWdl> {
        if self.id != 0 {
            return None;
        }
        let rt = self.tb.probe_root(pos)?;
        self.tbhits += 1;
        let kept: Vec<Move> = allowed.iter().copied().filter(|m| rt.moves.contains(m)).collect();
        if kept.is_empty() {
            return None;
        }
        *allowed = kept;
        Some(rt.wdl)
    }

    /// Mate or stalemate at the root: one depth-0 line with the result and no move.
    fn report_no_move(&self, pos: &Chess, listener: &mut dyn SearchListener) {
        let score = if pos.is_check() { score::mated_in(0) } else { DRAW };
        listener.on_info(&SearchInfo {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: score::report(score),
            bound: Bound::Exact,
            nodes: 0,
            nps: 0,
            hashfull: self.tt.hashfull(),
            tbhits: self.total_tbhits(),
            time_ms: self.elapsed_ms(),
            pv: Vec::new(),
        });
    }

    /// The root moves in search order: the TT move first (the best move of an earlier search),
    /// the others as given.
    fn init_root_moves(&mut self, root: &Root, moves: &[Move]) {
        let tt_first = self.tt.probe(root.key).and_then(|h| self.tt_move(root.pos, h.mv));
        self.root_moves = moves
            .iter()
            .map(|&m| RootMove {
                mv: m,
                score: -INFINITE,
                prev_score: -INFINITE,
                updated: false,
                bound: Bound::Upper,
                seldepth: 0,
                pv: vec![m],
            })
            .collect();
        if let Some(t) = tt_first
            && let Some(i) = self.root_moves.iter().position(|r| r.mv == t)
        {
            self.root_moves[..=i].rotate_right(1);
        }
    }

    /// Line `pv_idx` of iteration `depth` in an aspiration window around the line's previous
    /// score. Scores move little from one iteration to the next, so a narrow window prunes more;
    /// a fail outside it widens the window on that side (growing each time, unbounded past
    /// [`ASPIRATION_MAX_DELTA`]) and searches again. Returns when the score is exact or the
    /// search stops.
    fn aspiration_search(
        &mut self,
        root: &Root,
        depth: i32,
        pv_idx: usize,
        lines: usize,
        listener: &mut dyn SearchListener,
    ) {
        self.pv_idx = pv_idx;
        self.seldepth = 0;
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = self.sp.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= self.sp.aspiration_min_depth && prev.abs() < TB_WIN_IN_MAX {
            ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.search_root(root.pos, root.key, alpha, beta, depth * ONE_PLY);
            self.sort_root(pv_idx, lines);
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                Bound::Upper
            } else if score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            if bound != Bound::Exact && self.elapsed_ms() > REPORT_FAILS_AFTER_MS {
                self.report_line(root, pv_idx, depth, score, bound, listener);
            }
            match bound {
                Bound::Upper => {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITE);
                }
                Bound::Lower => beta = (score + delta).min(INFINITE),
                Bound::Exact => return,
            }
            delta += delta * self.sp.aspiration_growth_percent / 100;
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Whether to stop after the completed iteration `depth` rather than start the next. A
    /// `go mate` search stops once it has its mate. On the clock (not while pondering), so does
    /// a search with a single legal move (nothing to decide), one whose mate score is proven
    /// (searched deep enough past it), and one whose next iteration would probably not finish
    /// in time: the time manager's soft limit, stretched while the best move keeps changing
    /// (`instability`). A spent node limit stops it too.
    fn iteration_ends_search(&self, limits: &Limits, depth: i32, instability: u64) -> bool {
        let best_score = self.root_moves[0].score;
        if let Some(mate) = limits.mate
            && best_score >= MATE_IN_MAX
            && (score::MATE - best_score + 1) / 2 <= mate as i32
        {
            return true;
        }
        if !self.pondering && self.tm.maximum().is_some() {
            if self.root_moves.len() == 1 && limits.movetime.is_none() {
                return true;
            }
            if is_mate(best_score) && depth as usize > 2 * (score::MATE - best_score.abs()) as usize + 6 {
                return true;
            }
            let scale = 100 + self.sp.tm_instability_percent as u64 * instability;
            if !self.tm.should_start_iteration(scale) {
                return true;
            }
        }
        self.total_nodes() >= self.node_limit
    }

    /// Reports line `i` (0-based) at `depth`, its score adjusted by the root's tablebase result.
    fn report_line(
        &self,
        root: &Root,
        i: usize,
        depth: i32,
        score: i32,
        bound: Bound,
        listener: &mut dyn SearchListener,
    ) {
        let info = self.info(&self.root_moves[i], depth, i + 1, self.adjust(score, root.tb_wdl), bound, root.pos);
        listener.on_info(&info);
    }

    /// The reply to ponder on after `best`: the PV's second move, else the TT move, if legal.
    fn ponder_move(&self, pos: &Chess, best: Move) -> Option<Move> {
        let mut child = pos.clone();
        child.play_unchecked(best);
        let ponder = self.root_moves[0]
            .pv
            .get(1)
            .copied()
            .or_else(|| self.tt.probe(hash(&child)).and_then(|h| self.tt_move(&child, h.mv)));
        ponder.filter(|&p| child.is_legal(p))
    }

    /// UCI forbids a best move before `stop` in infinite and ponder mode: wait for it.
    fn wait_for_release(&mut self, limits: &Limits) {
        loop {
            if self.stop.load(Ordering::Acquire) {
                return;
            }
            let pondering = self.ponder.is_some_and(|p| p.load(Ordering::Acquire));
            if !limits.infinite && !pondering {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    /// Reported score: a root in the tablebases is known to be won, drawn or lost whatever
    /// the search has seen so far (mates found by the search are kept).
    fn adjust(&self, score: i32, root_wdl: Option<AmbiguousWdl>) -> i32 {
        match root_wdl {
            Some(AmbiguousWdl::Win) if score < MATE_IN_MAX => score::tb_win_in(1).max(score),
            Some(AmbiguousWdl::Loss) if score > -MATE_IN_MAX => (-score::tb_win_in(1)).min(score),
            // A win or loss here is a mate the search found; every other result is (or may
            // be) drawn by the 50-move rule.
            Some(_) if !is_mate(score) => DRAW,
            _ => score,
        }
    }

    fn note_best(&mut self, m: Move) {
        if self.id == 0 && self.best_changes.last().is_none_or(|&(_, b)| b != m) {
            self.best_changes.push((self.nodes, m));
        }
    }

    /// Stable sort of the lines from `pv_idx` on. A root move the current iteration did not
    /// finish keeps its old place unless a finished move beat it.
    fn sort_root(&mut self, pv_idx: usize, lines: usize) {
        let _ = lines;
        if self.stopped {
            if !self.root_moves[pv_idx].updated {
                // Nothing of this line finished: keep the previous iteration's order and scores.
                for rm in &mut self.root_moves[pv_idx..] {
                    if !rm.updated {
                        rm.score = rm.prev_score;
                    }
                }
                return;
            }
            for rm in &mut self.root_moves[pv_idx..] {
                if !rm.updated {
                    rm.score = -INFINITE;
                }
            }
        }
        self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }

    /// Searches every root move from `pv_idx` on (PVS), recording scores and PVs.
    fn search_root(&mut self, pos: &Chess, key: u64, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INFINITE;
        self.pv_len[0] = 0;
        let stm = pos.turn();
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = hash_after(pos, key, m, &child);
            let gives_check = child.is_check();
            let mut ext = 0;
            if gives_check {
                ext += self.sp.check_extension;
            }
            if self.root_moves.len() == 1 {
                ext += self.sp.one_reply_extension;
            }
            let new_depth = depth - ONE_PLY + ext.min(ONE_PLY);
            self.stack[0].piece_to = Some(PieceTo::new(stm, m));
            self.stack[0].capture_to = m.is_capture().then(|| m.to());
            self.stack[0].null = false;
            self.keys.push(child_key);
            let score = if i == self.pv_idx {
                -self.negamax(&child, -beta, -alpha, new_depth, 1, false, gives_check)
            } else {
                let r = if depth >= 3 * ONE_PLY && !m.is_capture() && !gives_check && i >= self.pv_idx + 3 {
                    self.lmr[(depth / ONE_PLY).min(63) as usize][(i - self.pv_idx + 1).min(63)] / 2
                } else {
                    0
                };
                let mut s = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, 1, true, gives_check);
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, -alpha - 1, -alpha, new_depth, 1, false, gives_check);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, -beta, -alpha, new_depth, 1, false, gives_check);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                break;
            }
            let rm_first = i == self.pv_idx;
            if rm_first || score > alpha {
                self.pv[0][0] = Some(m);
                let len = self.pv_len[1].max(1);
                let mut pv = Vec::with_capacity(len);
                pv.push(m);
                pv.extend((1..len).map_while(|j| self.pv[1][j]));
                let seldepth = self.seldepth;
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.updated = true;
                rm.seldepth = seldepth;
                rm.pv = pv;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                if self.pv_idx == 0 && !rm_first && score > alpha {
                    self.note_best(m);
                }
            } else {
                self.root_moves[i].score = -INFINITE;
                self.root_moves[i].updated = true;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        best
    }
}

/// The longest prefix of `pv` that is legal from `root`, move after move.
pub fn legal_prefix(root: &Chess, pv: &[Move]) -> Vec<Move> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_legal(m) {
            break;
        }
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searchmoves_restrict_the_root_to_their_legal_moves_once() {
        use shakmaty::{Role, Square};
        let legal = Chess::default().legal_moves();
        let (x, y) = (legal[0], legal[5]);
        let illegal =
            Move::Normal { role: Role::Queen, from: Square::D1, capture: None, to: Square::D4, promotion: None };
        assert_eq!(allowed_root_moves(&legal, &[y, illegal, x, y]), vec![y, x]);
        assert_eq!(allowed_root_moves(&legal, &[illegal]), legal.to_vec());
        assert_eq!(allowed_root_moves(&legal, &[]), legal.to_vec());
    }

    #[test]
    fn draw_score_jitters_by_one_around_zero() {
        let scores: Vec<i32> = (0..8).map(draw_score).collect();
        assert_eq!(scores, [-1, -1, 1, 1, -1, -1, 1, 1]);
    }
}
