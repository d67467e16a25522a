//! The depth-1 search with quiescence that the tuner's move-matching fitness uses: every legal
//! root move is scored by the engine's own [`qsearch`](crate::search::qsearch) from the child, so
//! exchanges are resolved before the evaluation is trusted.
//!
//! David et al. §III-B match grandmaster moves with "a 1-ply search" of a real program, which
//! resolves captures; a purely static 1-ply choice rewards taking defended pieces and drives
//! evolved piece values away from chess. A [`QuiescenceProbe`] owns everything a search needs
//! (a small table, histories, the search stack) and is reused across positions without
//! allocating; its table is cleared before every root so a choice depends only on the position
//! and the evaluation, never on what was searched before (results are deterministic and do not
//! depend on how positions are split over threads).

use std::{sync::atomic::AtomicBool, time::Instant};

use shakmaty::{Chess, Move, Position};

use crate::{
    eval::Evaluator,
    limits::Limits,
    params::SearchParams,
    score::INFINITE,
    search::{
        alphabeta::lmr_table,
        history::History,
        thread::{HelperCounts, Shared},
        worker::{Buffers, Worker},
    },
    see::gain,
    tb::Tablebases,
    timeman::TimeManager,
    tt::TranspositionTable,
    zobrist::{hash, hash_after},
};

/// Buckets of the probe's table: enough for one root's quiescence trees, cheap to clear.
const PROBE_BUCKETS: usize = 256;

/// Node budget of one root (all children together): quiescence trees are small, this only
/// bounds pathological positions. Node counting is exact, so the cut is deterministic.
const PROBE_NODE_LIMIT: u64 = 1 << 20;

/// A child to score: its index in the root's legal-move order, the position and its key.
#[derive(Clone, Debug)]
pub struct ProbeChild {
    pub index: u16,
    pub pos: Chess,
    pub key: u64,
    /// Material the move wins at once (captured piece, promotion), for ordering.
    pub gain: i32,
}

impl ProbeChild {
    /// The child of `root` (key `root_key`) after `m`.
    pub fn new(root: &Chess, root_key: u64, index: u16, m: Move) -> ProbeChild {
        let mut pos = root.clone();
        pos.play_unchecked(m);
        let key = hash_after(root, root_key, m, &pos);
        ProbeChild { index, pos, key, gain: gain(m) }
    }
}

/// Puts the children in the order [`QuiescenceProbe::choose`] searches best: biggest material
/// gain first, so that a good capture raises the bar early and most quiet children are then
/// refuted by their stand-pat score alone. Ties go to the lowest index in any order; only delta
/// pruning, which depends on the window, can make the order change a choice.
pub fn order_children(children: &mut [ProbeChild]) {
    children.sort_by_key(|c| (std::cmp::Reverse(c.gain), c.index));
}

/// Reusable state for depth-1-plus-quiescence choices (one per thread).
pub struct QuiescenceProbe {
    params: SearchParams,
    lmr: [[i32; 64]; 64],
    tt: TranspositionTable,
    hist: Box<History>,
    tb: Tablebases,
    stop: AtomicBool,
    /// Never raised: the probe has no helpers.
    helpers_stop: AtomicBool,
    helper_counts: HelperCounts,
    /// Taken by each worker and given back: no allocation per root.
    buffers: Option<Buffers>,
    /// Nodes searched by the last [`QuiescenceProbe::choose`] or [`QuiescenceProbe::score`].
    pub nodes: u64,
}

impl QuiescenceProbe {
    /// A probe using `params`' quiescence settings (delta margin, SEE threshold).
    pub fn new(params: &SearchParams) -> QuiescenceProbe {
        QuiescenceProbe {
            params: params.clone(),
            lmr: lmr_table(params),
            tt: TranspositionTable::with_buckets(PROBE_BUCKETS),
            hist: Box::new(History::new()),
            tb: Tablebases::default(),
            stop: AtomicBool::new(false),
            helpers_stop: AtomicBool::new(false),
            helper_counts: HelperCounts::default(),
            buffers: Some(Buffers::new()),
            nodes: 0,
        }
    }

    /// The legal move of `pos` with the best quiescence score under `ev` (see
    /// [`QuiescenceProbe::choose`]), or `None` without legal moves. A mating move is played at
    /// once; stalemate scores 0.
    pub fn best_move(&mut self, pos: &Chess, ev: &Evaluator) -> Option<Move> {
        let moves = pos.legal_moves();
        let root_key = hash(pos);
        let mut children = Vec::with_capacity(moves.len());
        let mut stalemates = Vec::new();
        for (i, &m) in moves.iter().enumerate() {
            let child = ProbeChild::new(pos, root_key, i as u16, m);
            if child.pos.is_checkmate() {
                return Some(m);
            }
            if child.pos.is_stalemate() {
                stalemates.push(i as u16);
            } else {
                children.push(child);
            }
        }
        order_children(&mut children);
        self.choose(ev, root_key, &children, &stalemates).map(|i| moves[usize::from(i)])
    }

    /// Index of the chosen root move: the highest of the negated quiescence scores of
    /// `children` (best searched in [`order_children`]'s order) and 0 for each of `stalemates`
    /// (indices into the root's legal moves), the lowest index on ties. Checkmating children
    /// must be handled by the caller (they are chosen whatever the evaluation). Like the
    /// engine's root, each child is searched with a window that only decides "better or not";
    /// quiescence's delta pruning depends on the window, so in a few positions this differs
    /// from scoring every child with a full window.
    pub fn choose(
        &mut self,
        ev: &Evaluator,
        root_key: u64,
        children: &[ProbeChild],
        stalemates: &[u16],
    ) -> Option<u16> {
        self.root(ev, root_key, children, stalemates, None)
    }

    /// Whether [`QuiescenceProbe::choose`] returns `target`, answered as soon as it is known:
    /// the choice is the last child that raised the bar, so once the target has been searched
    /// without holding the bar it cannot be chosen and the children after it are skipped. The
    /// searches up to that point are `choose`'s own, so the answer is exactly its.
    pub fn chooses(
        &mut self,
        ev: &Evaluator,
        root_key: u64,
        children: &[ProbeChild],
        stalemates: &[u16],
        target: u16,
    ) -> bool {
        self.root(ev, root_key, children, stalemates, Some(target)) == Some(target)
    }

    /// [`QuiescenceProbe::choose`], stopping early (with a choice other than `target`) once
    /// `target` is out.
    fn root(
        &mut self,
        ev: &Evaluator,
        root_key: u64,
        children: &[ProbeChild],
        stalemates: &[u16],
        target: Option<u16>,
    ) -> Option<u16> {
        let stm = children.first().map_or(shakmaty::Color::White, |c| !c.pos.turn());
        self.with_worker(ev, root_key, stm, |worker| {
            let mut best: Option<(i32, u16)> = stalemates.iter().min().map(|&i| (0, i));
            let mut target_searched = false;
            for child in children {
                // Only "is this child better than the best so far" matters: a window just below
                // the best (at it when an earlier index must win a tie) answers that exactly.
                let alpha = match best {
                    None => -INFINITE,
                    Some((s, i)) if child.index < i => s - 1,
                    Some((s, _)) => s,
                };
                worker.keys.push(child.key);
                let score = -worker.qsearch(&child.pos, -INFINITE, -alpha, 1, child.pos.is_check(), false);
                worker.keys.pop();
                if worker.stopped {
                    break;
                }
                if score > alpha {
                    best = Some((score, child.index));
                }
                target_searched |= target == Some(child.index);
                if target_searched && best.map(|(_, i)| i) != target {
                    break;
                }
            }
            best.map(|(_, i)| i)
        })
    }

    /// The quiescence score of `pos` (key `key`) under `ev`, side to move's view, full window:
    /// what the evaluation says once captures are resolved (mate scores when it is mated).
    pub fn score(&mut self, ev: &Evaluator, pos: &Chess, key: u64) -> i32 {
        self.with_worker(ev, key, pos.turn(), |worker| {
            worker.qsearch(pos, -INFINITE, INFINITE, 0, pos.is_check(), false)
        })
    }

    /// Runs `f` with a search worker over the probe's state, starting from a cleared table and
    /// the root key `root_key`; the buffers go back to the probe afterwards.
    fn with_worker<R>(
        &mut self,
        ev: &Evaluator,
        root_key: u64,
        stm: shakmaty::Color,
        f: impl FnOnce(&mut Worker) -> R,
    ) -> R {
        self.tt.clear();
        let start = Instant::now();
        let limits = Limits::nodes(PROBE_NODE_LIMIT);
        let shared = Shared {
            sp: &self.params,
            ev,
            tt: &self.tt,
            tb: &self.tb,
            lmr: &self.lmr,
            stop: &self.stop,
            helpers_stop: &self.helpers_stop,
            helper_counts: &self.helper_counts,
        };
        let tm = TimeManager::starting_at(start, &limits, stm, 0, &self.params);
        let buffers = self.buffers.take().unwrap_or_else(Buffers::new);
        let mut worker = Worker::new(&shared, &mut self.hist, tm, start, PROBE_NODE_LIMIT, buffers);
        worker.root_depth = 1;
        worker.set_game_history(&[]);
        worker.keys.push(root_key);
        let result = f(&mut worker);
        self.nodes = worker.nodes;
        self.buffers = Some(worker.into_buffers());
        result
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;
    use crate::params::EvalParams;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn uci(m: Option<Move>) -> String {
        m.map_or("none".into(), |m| m.to_uci(CastlingMode::Standard).to_string())
    }

    #[test]
    fn does_not_take_a_defended_piece_but_takes_a_free_one() {
        let ev = Evaluator::new(&EvalParams::default());
        let mut probe = QuiescenceProbe::new(&SearchParams::default());
        // Qxd5 loses the queen to exd5 (a static 1-ply choice takes the knight).
        let p = pos("4k3/8/4p3/3n4/8/8/3Q4/4K3 w - - 0 1");
        assert_ne!(uci(probe.best_move(&p, &ev)), "d2d5");
        assert_eq!(uci(crate::measure::static_one_ply::best_move(&p, &EvalParams::default())), "d2d5");
        // An undefended knight is taken.
        assert_eq!(uci(probe.best_move(&pos("4k3/8/8/3n4/8/8/3Q4/4K3 w - - 0 1"), &ev)), "d2d5");
        // Mate in one is played, no move → None.
        assert_eq!(uci(probe.best_move(&pos("6k1/5ppp/8/8/8/7n/6P1/R3K3 w - - 0 1"), &ev)), "a1a8");
        assert_eq!(probe.best_move(&pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), &ev), None);
    }

    /// Positions (of the first 80 suite positions) where the windowed root's choice equals
    /// scoring every child with a full window (first best on ties). Also checks that a reused
    /// probe chooses as a fresh one does: no state leaks from one root into the next.
    fn agreement_with_full_window(sp: &SearchParams) -> (usize, usize) {
        let ev = Evaluator::new(&EvalParams::default());
        let mut probe = QuiescenceProbe::new(sp);
        let (mut agree, mut total) = (0, 0);
        for (n, p) in crate::eval::tests::suite_positions().iter().enumerate().take(80) {
            let chosen = probe.best_move(p, &ev);
            if n % 8 == 0 {
                assert_eq!(chosen, QuiescenceProbe::new(sp).best_move(p, &ev), "position {n}");
            }
            let root_key = hash(p);
            let mut full: Option<(i32, Move)> = None;
            let mut mate = None;
            for (i, m) in p.legal_moves().into_iter().enumerate() {
                let child = ProbeChild::new(p, root_key, i as u16, m);
                let score = if child.pos.is_checkmate() {
                    mate.get_or_insert(m);
                    continue;
                } else if child.pos.is_stalemate() {
                    0
                } else {
                    full_window_score(&mut QuiescenceProbe::new(sp), &ev, &child)
                };
                if full.is_none_or(|(s, _)| score > s) {
                    full = Some((score, m));
                }
            }
            total += 1;
            agree += usize::from(chosen == mate.or(full.map(|(_, m)| m)));
        }
        (agree, total)
    }

    /// Without delta pruning (the only window-dependent pruning in quiescence) the windowed
    /// root is exact, ties included.
    #[test]
    fn windowed_choice_is_exact_without_delta_pruning() {
        // Delta pruning off by a margin beyond any score (at 1,000 one position of the set still
        // pruned under the evaluation refitted on 2026-12-02: 79 of 80 agreed). The SEE futility
        // margin prunes by alpha too: off; and the SEE threshold at 0 as when written (at 1, 79
        // of 80 agreed with the margin at 1,000: perhaps the same cause, not rechecked).
        let sp = SearchParams {
            delta_margin: 100_000,
            qsearch_see_futility_margin: 0,
            qsearch_see_threshold: 0,
            ..SearchParams::default()
        };
        let (agree, total) = agreement_with_full_window(&sp);
        assert_eq!(agree, total);
    }

    /// With the default delta margin, a few choices differ (73 of 80 agree when written).
    #[test]
    fn windowed_choice_mostly_agrees_with_full_window() {
        let (agree, total) = agreement_with_full_window(&SearchParams::default());
        assert!(agree * 100 >= total * 85, "windowed and full-window choices agree in {agree} of {total}");
    }

    /// `chooses` answers exactly as `choose` for every legal move as the target, with fewer
    /// nodes in all when the target is not the choice.
    #[test]
    fn chooses_agrees_with_choose_for_every_target() {
        let ev = Evaluator::new(&EvalParams::default());
        let mut probe = QuiescenceProbe::new(&SearchParams::default());
        let (mut full_nodes, mut early_nodes) = (0, 0);
        for p in crate::eval::tests::suite_positions().iter().take(40) {
            let root_key = hash(p);
            let mut children: Vec<ProbeChild> = Vec::new();
            let mut stalemates = Vec::new();
            for (i, m) in p.legal_moves().into_iter().enumerate() {
                let child = ProbeChild::new(p, root_key, i as u16, m);
                if child.pos.is_stalemate() {
                    stalemates.push(i as u16);
                } else if !child.pos.is_checkmate() {
                    children.push(child);
                }
            }
            order_children(&mut children);
            let chosen = probe.choose(&ev, root_key, &children, &stalemates);
            let nodes = probe.nodes;
            for target in 0..p.legal_moves().len() as u16 {
                let answer = probe.chooses(&ev, root_key, &children, &stalemates, target);
                assert_eq!(
                    answer,
                    chosen == Some(target),
                    "{} target {target}",
                    Fen::from_position(p, shakmaty::EnPassantMode::Legal)
                );
                full_nodes += nodes;
                early_nodes += probe.nodes;
            }
        }
        assert!(early_nodes < full_nodes, "early exit searched {early_nodes} nodes, choose {full_nodes}");
    }

    fn full_window_score(probe: &mut QuiescenceProbe, ev: &Evaluator, child: &ProbeChild) -> i32 {
        -probe.score(ev, &child.pos, child.key)
    }
}
