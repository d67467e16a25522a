//! The root of a search: iterative deepening with aspiration windows and MultiPV, root move
//! ordering and bookkeeping, the root tablebase filter, when to stop, and what is reported.
//! Below the root, [`Worker::negamax`](super::alphabeta) takes over.

use std::sync::atomic::Ordering;

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::AmbiguousWdl;

use super::{
    ONE_PLY,
    report::{BestMove, Bound, ScoreReport, SearchInfo, SearchListener},
    thread::helper_skips,
    worker::Worker,
};
use crate::{
    limits::Limits,
    score::{self, DRAW, INFINITE, MATE_IN_MAX, MAX_PLY, TB_WIN_IN_MAX, is_mate},
    timeman::{IterationTrend, soft_scale_percent},
    zobrist::{hash, hash_after},
};

/// A root move and what the last iterations found for it.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    /// Whether `score` was set by the current iteration.
    pub(super) updated: bool,
    pub bound: Bound,
    pub seldepth: usize,
    pub pv: Vec<Move>,
    /// Nodes this worker searched under the move in the current iteration, its aspiration
    /// re-searches included. Every worker counts its own; the main worker's decide the time
    /// ([`crate::timeman::node_factor_percent`]).
    pub nodes: u64,
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

impl Worker<'_> {
    fn info(&self, rm: &RootMove, depth: i32, multipv: usize, score: i32, bound: Bound, root: &Chess) -> SearchInfo {
        let ms = self.elapsed_ms();
        let nodes = self.total_nodes();
        SearchInfo {
            depth: depth.max(0) as u32,
            seldepth: rm.seldepth.max(depth.max(1) as usize) as u32,
            multipv: multipv as u32,
            score: ScoreReport::from_score(score),
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
    pub(super) fn iterate(
        &mut self,
        pos: &Chess,
        limits: &Limits,
        multipv: u32,
        listener: &mut dyn SearchListener,
    ) -> BestMove {
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
        // The time manager's trend inputs: the best score of each completed iteration, and for
        // how many completed iterations (from `tm_trend_min_depth`) the best move has stayed.
        let mut best_scores: Vec<i32> = Vec::new();
        let mut stable_iterations = 0u32;
        let game_ply = self.root_index as i32;

        for depth in 1..=max_depth(limits) {
            if self.id != 0 && helper_skips(self.id, depth, game_ply) {
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
                rm.updated = false;
                rm.nodes = 0;
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
            let changed = prev_best.is_some_and(|p| p != best);
            instability = instability / 2 + u64::from(changed) * 2;
            prev_best = Some(best);
            best_scores.push(self.root_moves[0].score);
            let trend = (depth >= self.sp.tm_trend_min_depth).then(|| {
                stable_iterations = if changed { 0 } else { stable_iterations.saturating_add(1) };
                self.iteration_trend(&best_scores, stable_iterations)
            });
            if self.iteration_ends_search(limits, depth, instability, trend.as_ref()) {
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
            score: ScoreReport::from_score(score),
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
                nodes: 0,
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
    /// (`instability`) and, on the clock, scaled by the last iterations' `trend`
    /// ([`soft_scale_percent`]). A spent node limit stops it too.
    fn iteration_ends_search(
        &self,
        limits: &Limits,
        depth: i32,
        instability: u64,
        trend: Option<&IterationTrend>,
    ) -> bool {
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
            let trend = trend.filter(|_| self.tm.on_clock());
            if !self.tm.should_start_iteration(soft_scale_percent(self.sp, instability, trend)) {
                return true;
            }
        }
        self.total_nodes() >= self.node_limit
    }

    /// The trend of the iterations completed so far (`best_scores`, one per iteration, the last
    /// one's root moves in `self.root_moves`): the share of its root nodes under its best move, the
    /// fall of the best score from `tm_score_lookback` iterations back (from the first when there
    /// are fewer), and `stable_iterations`.
    fn iteration_trend(&self, best_scores: &[i32], stable_iterations: u32) -> IterationTrend {
        let last = best_scores.len() - 1;
        let back = last.saturating_sub(self.sp.tm_score_lookback.max(0) as usize);
        IterationTrend {
            best_nodes: self.root_moves[0].nodes,
            root_nodes: self.root_moves.iter().map(|rm| rm.nodes).sum(),
            score_drop: best_scores[back].saturating_sub(best_scores[last]),
            stable_iterations,
        }
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
            self.stack[0].record_move(stm, m);
            self.stack[0].null = false;
            self.keys.push(child_key);
            let nodes_before = self.nodes;
            let score = if i == self.pv_idx {
                -self.negamax(&child, -beta, -alpha, new_depth, 1, false, gives_check)
            } else {
                let r = if depth >= 3 * ONE_PLY && !m.is_capture() && !gives_check && i >= self.pv_idx + 3 {
                    self.lmr_table(depth / ONE_PLY, i - self.pv_idx + 1) / 2
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
            self.root_moves[i].nodes += self.nodes - nodes_before;
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
}
