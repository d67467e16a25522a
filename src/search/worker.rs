//! One search thread's state ([`Worker`]) and the bookkeeping every node does: node counting
//! and polling for the stop conditions, repetition and 50-move draws, the PV table. The
//! searches themselves are `impl Worker` blocks in [`super::alphabeta`], [`super::qsearch`] and
//! [`super::root`]; sharing with other threads is [`super::thread`]'s.

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::Instant,
};

use shakmaty::{Chess, Move, Position};

use super::{
    history::{History, PieceTo},
    root::RootMove,
    thread::{HelperCounts, Shared},
};
use crate::{
    eval::Evaluator,
    params::SearchParams,
    score::{DRAW, INFINITE, MAX_PLY},
    tb::Tablebases,
    timeman::TimeManager,
    tt::{TranspositionTable, decode_move},
};

/// Per-ply search stack entry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// Static evaluation (`-INFINITE` when in check).
    pub static_eval: i32,
    /// Piece and destination of the move played from this ply (None: null move / none yet).
    pub piece_to: Option<PieceTo>,
    /// The move played from this ply (None: null move / none yet).
    pub mv: Option<Move>,
    /// Destination of the move played from this ply if it captured.
    pub capture_to: Option<shakmaty::Square>,
    /// The move played from this ply was a null move.
    pub null: bool,
    /// A move this node must not search (the singular-extension test searches all the others).
    pub excluded: Option<Move>,
    /// Double singular extensions on the line to this ply (bounded by `singular_double_max`).
    pub double_extensions: u8,
}

impl Frame {
    /// Records `m`, played by `stm` from this ply.
    #[inline]
    pub fn record_move(&mut self, stm: shakmaty::Color, m: Move) {
        self.piece_to = Some(PieceTo::new(stm, m));
        self.mv = Some(m);
        self.capture_to = m.is_capture().then(|| m.to());
    }
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: -INFINITE,
            piece_to: None,
            mv: None,
            capture_to: None,
            null: false,
            excluded: None,
            double_extensions: 0,
        }
    }
}

/// The score of a line drawn by repetition or the 50-move rule: zero give or take one, varied
/// by the node count so that the search does not settle into the first repetition it sees when
/// a draw is one of several equal options (Stockfish's `VALUE_DRAW - 1 + (nodes & 2)`).
/// Deterministic: the same search counts the same nodes.
#[inline]
pub fn draw_score(nodes: u64) -> i32 {
    DRAW - 1 + (nodes & 2) as i32
}

/// The state of one running search thread.
pub(crate) struct Worker<'a> {
    pub sp: &'a SearchParams,
    pub ev: &'a Evaluator,
    pub tt: &'a TranspositionTable,
    pub hist: &'a mut History,
    pub tb: &'a Tablebases,
    pub(super) stop: &'a AtomicBool,
    /// See [`Shared::helpers_stop`]: raised by the main worker, obeyed by the helpers.
    pub(super) helpers_stop: &'a AtomicBool,
    pub(super) helper_counts: &'a HelperCounts,
    /// 0 for the main worker, 1.. for helpers.
    pub(super) id: usize,
    pub(super) ponder: Option<&'a AtomicBool>,
    pub(super) pondering: bool,
    pub(super) tm: TimeManager,
    pub(super) start: Instant,
    /// Main worker: nodes of all workers together at which to stop.
    pub(super) node_limit: u64,
    /// This worker's own nodes.
    pub nodes: u64,
    /// Main worker: the helpers' nodes as last read (every 1024 nodes), 0 without helpers.
    pub(super) helper_nodes: u64,
    /// Helper: nodes and TB hits already added to `helper_counts`.
    pub(super) published: (u64, u64),
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
    pub(super) best_changes: Vec<(u64, Move)>,
}

/// The allocations of a worker, kept to be reused by the next one (as
/// [`crate::measure::quiescence_probe`] does).
pub(crate) struct Buffers {
    pub(super) stack: Vec<Frame>,
    pub(super) keys: Vec<u64>,
    pub(super) pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pub(super) best_changes: Vec<(u64, Move)>,
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

    /// The late-move-reduction table's entry in quarter plies at `d_plies` of depth for the
    /// `moves`-th move (1-based), both clamped to the table.
    #[inline(always)]
    pub(super) fn lmr_table(&self, d_plies: i32, moves: usize) -> i32 {
        self.lmr[d_plies.clamp(0, 63) as usize][moves.min(63)]
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
    /// The squares `pos`'s opponent attacks, what the threat history keys on; none with
    /// `threat_history_use` off.
    #[inline]
    pub(crate) fn threats(&self, pos: &shakmaty::Chess) -> shakmaty::Bitboard {
        if self.sp.threat_history_use == 1 {
            super::history::attacked_by(shakmaty::Position::board(pos), !shakmaty::Position::turn(pos))
        } else {
            shakmaty::Bitboard::EMPTY
        }
    }

    /// The piece and destination of the move played `back` plies before `ply` (`None` before
    /// the root or for a null move): what the histories are keyed on.
    #[inline]
    pub(crate) fn piece_to_before(&self, ply: usize, back: usize) -> Option<PieceTo> {
        ply.checked_sub(back).and_then(|p| self.stack[p].piece_to)
    }

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

    pub(super) fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::draw_score;

    #[test]
    fn draw_score_jitters_by_one_around_zero() {
        let scores: Vec<i32> = (0..8).map(draw_score).collect();
        assert_eq!(scores, [-1, -1, 1, 1, -1, -1, 1, 1]);
    }
}
