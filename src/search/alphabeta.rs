//! Principal-variation negamax alpha-beta with the selective methods of David et al. Table I
//! (null move with adaptivity, futility pruning at depths 1-3, multi-cut, five fractional
//! extensions) plus reverse futility pruning, late move reductions and pruning, SEE pruning
//! and internal iterative reductions.
//!
//! Depths are in quarter plies ([`ONE_PLY`] = 4); the TT stores whole plies. Fail-soft.
//!
//! [`Worker::negamax`] reads as the numbered steps of Ethereal's `search()` (draws, TT,
//! tablebases, static evaluation, pruning before the moves, IIR, then the move loop with its
//! pruning, extensions, PVS with reductions, history update and TT store), each step a
//! function of its own. The steps share one node's state ([`Node`]) and are
//! `#[inline(always)]`, so they compile back into one recursive function: no call and no
//! copy of the node per step.

use arrayvec_free::SmallList;
use std::ops::ControlFlow;

use shakmaty::{Bitboard, Chess, Color, FromSetup, Move, Position, Role, Setup, Square};
use shakmaty_syzygy::Wdl;

use super::{
    ONE_PLY,
    correction::CorrectionKeys,
    history::PieceTo,
    params::SearchParams,
    worker::{Frame, Worker},
};
use crate::{
    movepick::{MovePicker, is_noisy, move_gives_check},
    score::{
        DRAW, INFINITE, MATE_IN_MAX, MAX_PLY, TB_WIN_IN_MAX, clamp_eval, from_tt, is_decisive, mate_in, mated_in,
        tb_win_in, to_tt,
    },
    see::see_ge,
    tt::{TtBound, TtHit, encode_move},
    zobrist::{hash, hash_after, key_after},
};

/// From this halfmove clock on, no TT cutoff: a stored score does not know that the 50-move
/// rule is near on this path (Stockfish's `rule50_count() < 90`).
const TT_CUTOFF_MAX_HALFMOVES: u32 = 90;

/// Plies added to the depth a tablebase result is stored with: it is exact whatever the depth,
/// so it should outlive searched entries in the table (Stockfish's `depth + 6`).
const TB_STORE_EXTRA_DEPTH: i32 = 6;

/// Fixed-capacity move lists without allocation (the picker's array type is shakmaty's).
mod arrayvec_free {
    use shakmaty::Move;

    pub struct SmallList<const N: usize> {
        items: [Option<Move>; N],
        len: usize,
    }

    impl<const N: usize> SmallList<N> {
        pub fn new() -> Self {
            SmallList { items: [None; N], len: 0 }
        }

        /// Adds `m` if there is room (the overflow only loses history updates).
        #[inline]
        pub fn push(&mut self, m: Move) {
            if self.len < N {
                self.items[self.len] = Some(m);
                self.len += 1;
            }
        }

        pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
            self.items[..self.len].iter().flatten().copied()
        }
    }
}

/// LMR table in quarter plies, `[depth][move number]`.
pub(crate) fn lmr_table(p: &SearchParams) -> [[i32; 64]; 64] {
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

/// Does the side to move have a piece other than pawns and king?
#[inline]
pub(crate) fn has_non_pawn_material(pos: &Chess, color: Color) -> bool {
    let b = pos.board();
    (b.by_color(color) & !(b.pawns() | b.kings())).any()
}

/// A pawn move to the 6th or 7th rank with no enemy pawn ahead on its own or a neighbouring file.
#[inline]
fn is_passed_push(pos: &Chess, m: Move) -> bool {
    if m.role() != Role::Pawn {
        return false;
    }
    let stm = pos.turn();
    let to = m.to();
    let rel_rank = if stm == Color::White { to.rank() as u32 } else { 7 - to.rank() as u32 };
    if rel_rank < 5 {
        return false;
    }
    let file = to.file() as i32;
    let mut files = Bitboard(0);
    for f in (file - 1).max(0)..=(file + 1).min(7) {
        files |= Bitboard::from_file(shakmaty::File::new(f as u32));
    }
    let ahead = match stm {
        Color::White => Bitboard(!0u64 << ((to.rank() as u32 + 1).min(7) * 8)),
        Color::Black => Bitboard(!0u64 >> ((8 - to.rank() as u32).min(7) * 8)),
    };
    (pos.board().pawns() & pos.board().by_color(!stm) & files & ahead).is_empty()
}

/// The position after a null move (side to move passes), or `None` if it cannot be built.
fn null_move(pos: &Chess) -> Option<Chess> {
    let mut setup: Setup = pos.to_setup(shakmaty::EnPassantMode::Legal);
    setup.swap_turn();
    Chess::from_setup(setup, shakmaty::CastlingMode::Standard).ok()
}

/// What the steps of one node share: fixed on entry, or set once by the TT probe (step 2) and
/// the static evaluation (step 4). `depth` drops by a ply under internal iterative reduction.
struct Node<'p> {
    pos: &'p Chess,
    key: u64,
    ply: usize,
    /// In quarter plies.
    depth: i32,
    /// `depth` in whole plies, the unit of the TT and of the pruning margins.
    d_plies: i32,
    pv_node: bool,
    cut_node: bool,
    in_check: bool,
    /// Set while the singular-extension test searches this node without its TT move: the
    /// result is about the other moves only, so it neither uses nor fills the table, and no
    /// pruning before the moves applies.
    excluded: Option<Move>,
    hit: Option<TtHit>,
    tt_move: Option<Move>,
    /// The evaluation as the TT keeps it; `-INFINITE` when in check.
    raw_eval: i32,
    /// The evaluation with the correction history's correction; `-INFINITE` when in check.
    static_eval: i32,
    /// The correction history's keys of this position (not in check, correction on).
    corr_keys: Option<CorrectionKeys>,
    /// The static evaluation, or the TT score where its bound says it is closer to the truth.
    eval: i32,
    /// The static evaluation rose since our previous move.
    improving: bool,
    stm: Color,
    /// The moves that led here (the opponent's last, then ours before it), for the histories.
    prev1: Option<PieceTo>,
    prev2: Option<PieceTo>,
    prev_capture_to: Option<Square>,
    /// The squares the opponent attacks (`threat_history_use`; empty without it).
    threats: Bitboard,
}

/// What the move loop fixes once per node, after the pruning steps.
struct MoveLoop {
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    /// Futility pruning (David et al.) applies to this node's quiet moves.
    futile: bool,
    /// Late move pruning's allowance of quiet moves.
    lmp_limit: usize,
    /// Extensions are allowed this deep.
    extend_ok: bool,
}

/// A move about to be searched.
#[derive(Clone, Copy)]
struct Candidate {
    mv: Move,
    /// 1-based, in picking order (every move picked, pruned ones included):
    /// the late move reductions' move number.
    number: usize,
    quiet: bool,
    gives_check: bool,
}

/// The verdict of the quiet-move pruning of step 11.
enum QuietPruning {
    Search,
    /// Skip this move.
    Move,
    /// Skip this move and every quiet after it.
    Quiets,
}

impl Worker<'_> {
    /// Plays `m` for a side search (multi-cut, the quiescence's checks): records it in
    /// this ply's frame and pushes the child's key; the caller pops the key. Returns the child
    /// and whether it is check.
    #[inline]
    pub(super) fn enter_child(&mut self, pos: &Chess, key: u64, m: Move, ply: usize) -> (Chess, bool) {
        let mut child = pos.clone();
        child.play_unchecked(m);
        self.stack[ply].record_move(pos.turn(), m);
        self.keys.push(hash_after(pos, key, m, &child));
        let check = child.is_check();
        (child, check)
    }

    /// Searches `pos` (whose key is on top of `keys`) at `ply` to `depth` quarter plies.
    ///
    /// The steps, in the order of Ethereal's `search()`: 1 draws and mate distance, 2 TT
    /// cutoff, 3 tablebases, 4 static evaluation, 5-7 pruning before the moves (reverse
    /// futility, null move, multi-cut; Ethereal's step 8, ProbCut, was tried and removed), 9
    /// internal iterative reduction, then the move loop ([`Worker::search_moves`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn negamax(
        &mut self,
        pos: &Chess,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
        in_check: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth < ONE_PLY {
            return self.qsearch(pos, alpha, beta, ply, in_check, self.sp.qsearch_checks_use == 1);
        }
        let pv_node = beta - alpha > 1;
        if self.tick() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let key = *self.keys.last().expect("current key");
        let halfmoves = pos.halfmoves();

        // Step 1. Draws, the ply limit, mate distance pruning.
        if let Some(s) = self.early_exit(pos, &mut alpha, &mut beta, ply, in_check, halfmoves) {
            return s;
        }

        // Step 2. Transposition table.
        let hit = self.tt.probe(key);
        let mut node = Node {
            pos,
            key,
            ply,
            depth,
            d_plies: depth / ONE_PLY,
            pv_node,
            cut_node,
            in_check,
            excluded: self.stack[ply].excluded,
            hit,
            tt_move: hit.and_then(|h| self.tt_move(pos, h.mv)),
            raw_eval: -INFINITE,
            static_eval: -INFINITE,
            corr_keys: None,
            eval: -INFINITE,
            improving: false,
            stm: pos.turn(),
            prev1: self.piece_to_before(ply, 1),
            prev2: self.piece_to_before(ply, 2),
            prev_capture_to: ply.checked_sub(1).and_then(|p| self.stack[p].capture_to),
            // Computed below, past the TT cutoff that most nodes end in.
            threats: Bitboard::EMPTY,
        };
        if let Some(s) = tt_cutoff(&node, alpha, beta, halfmoves) {
            return s;
        }
        node.threats = self.threats(pos);

        // Step 3. Tablebases (WDL, exact right after a zeroing move).
        if ply > 0
            && node.excluded.is_none()
            && node.d_plies >= self.tb.probe_depth
            && let Some(s) = self.probe_tablebases(&node, &mut alpha, beta)
        {
            return s;
        }

        // Step 4. Static evaluation, and the frames the children read.
        self.evaluate_node(&mut node);

        let mut mate_threat = false;
        if !pv_node && !in_check && node.excluded.is_none() {
            // Step 5. Reverse futility pruning.
            if let Some(s) = self.reverse_futility(&node, beta) {
                return s;
            }

            // Step 6. Null move.
            if let Some(s) = self.null_move_search(&node, beta) {
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if is_decisive(s) { beta } else { s };
                }
                mate_threat = s <= -MATE_IN_MAX;
            }

            // Step 7. Multi-cut.
            if let Some(s) = self.multi_cut(&node, beta) {
                return s;
            }
        }

        // Step 9. Internal iterative reduction: without a TT move this node was not searched
        // before; search it shallower rather than spend full depth on poor move ordering.
        let sp = self.sp;
        if node.tt_move.is_none() && sp.iir_min_depth > 0 && node.d_plies >= sp.iir_min_depth && (pv_node || cut_node) {
            node.depth -= ONE_PLY;
            node.d_plies = node.depth / ONE_PLY;
        }

        self.search_moves(&node, alpha, beta, mate_threat)
    }

    /// Step 1: the score of a node decided before anything is probed: a draw (50-move rule
    /// unless mated, repetition, dead position), the ply limit, or a window that mate distance
    /// pruning closed (no line from here can beat a mate already found nearer the root).
    #[inline(always)]
    fn early_exit(
        &mut self,
        pos: &Chess,
        alpha: &mut i32,
        beta: &mut i32,
        ply: usize,
        in_check: bool,
        halfmoves: u32,
    ) -> Option<i32> {
        if self.is_repetition(halfmoves) || (halfmoves >= 100 && Self::fifty_move_draw(pos, in_check)) {
            return Some(self.draw_score());
        }
        if pos.board().occupied().count() <= 4 && pos.is_insufficient_material() {
            return Some(DRAW);
        }
        debug_assert_eq!(in_check, pos.is_check());
        if ply >= MAX_PLY - 2 {
            return Some(if in_check { DRAW } else { clamp_eval(self.ev.evaluate_cached(pos, &mut self.hist.pawns)) });
        }
        *alpha = (*alpha).max(mated_in(ply));
        *beta = (*beta).min(mate_in(ply + 1));
        (*alpha >= *beta).then_some(*alpha)
    }

    /// Step 3: a tablebase result that settles the window (stored in the TT, deeper than any
    /// search could make it); at a PV node a proven lower bound raises `alpha` instead.
    #[inline(always)]
    fn probe_tablebases(&mut self, node: &Node, alpha: &mut i32, beta: i32) -> Option<i32> {
        let wdl = self.tb.probe_wdl(node.pos)?;
        self.tbhits += 1;
        let ply = node.ply;
        let (s, bound) = match wdl {
            Wdl::Win => (tb_win_in(ply), TtBound::Lower),
            Wdl::Loss => (-tb_win_in(ply), TtBound::Upper),
            // The 50-move rule draws these: they score -1, 0 or 1, keeping their order.
            Wdl::BlessedLoss | Wdl::Draw | Wdl::CursedWin => (wdl.signum(), TtBound::Exact),
        };
        let cut = match bound {
            TtBound::Exact => true,
            TtBound::Lower => s >= beta,
            _ => s <= *alpha,
        };
        if cut {
            let depth = (node.d_plies + TB_STORE_EXTRA_DEPTH).min(MAX_PLY as i32);
            self.tt.store(node.key, 0, to_tt(s, ply), -INFINITE, depth, bound, node.pv_node);
            return Some(s);
        }
        if node.pv_node && bound == TtBound::Lower {
            *alpha = (*alpha).max(s);
        }
        None
    }

    /// Step 4: the static evaluation (and the TT-corrected `eval`), whether it is improving,
    /// and the frames of the next ply cleared for the children.
    #[inline(always)]
    fn evaluate_node(&mut self, node: &mut Node) {
        let ply = node.ply;
        if !node.in_check {
            node.corr_keys = self.correction_keys(node.pos);
            (node.raw_eval, node.static_eval, node.eval) =
                self.static_eval(node.pos, node.hit, ply, node.corr_keys.as_ref());
        }
        let static_eval = node.static_eval;
        self.stack[ply].static_eval = static_eval;
        node.improving = !node.in_check
            && ply >= 2
            && (if self.stack[ply - 2].static_eval > -INFINITE {
                static_eval > self.stack[ply - 2].static_eval
            } else {
                ply >= 4 && static_eval > self.stack[ply - 4].static_eval
            });
        // The children start from this line's count of double extensions; the move loop adds
        // one for a move it extends twice.
        self.stack[ply + 1] = Frame { double_extensions: self.stack[ply].double_extensions, ..Frame::default() };
        self.hist.killers[ply + 1] = [None; 2];
    }

    /// Step 5, reverse futility pruning: far above beta at low depth, a quiet move will not
    /// bring us back under it.
    #[inline(always)]
    fn reverse_futility(&self, node: &Node, beta: i32) -> Option<i32> {
        let sp = self.sp;
        let margin = sp.rfp_margin * node.d_plies - if node.improving { sp.rfp_improving_margin } else { 0 };
        let eval = node.eval;
        (node.d_plies <= sp.rfp_depth && eval - margin >= beta && eval.abs() < TB_WIN_IN_MAX && beta > -TB_WIN_IN_MAX)
            .then_some((eval + beta) / 2)
    }

    /// Step 6, null move with David's adaptivity (R grows by one above the adaptivity depth):
    /// the score of the reduced search after passing, if one was made.
    #[inline(always)]
    fn null_move_search(&mut self, node: &Node, beta: i32) -> Option<i32> {
        let sp = self.sp;
        let (ply, d_plies, eval) = (node.ply, node.d_plies, node.eval);
        if !(sp.null_move_use == 1
            && d_plies >= sp.null_move_min_depth
            && eval >= beta
            && node.static_eval >= beta - sp.null_move_static_margin * d_plies
            && ply >= 1
            && !self.stack[ply - 1].null
            && !is_decisive(beta)
            && has_non_pawn_material(node.pos, node.stm))
        {
            return None;
        }
        let null_pos = null_move(node.pos)?;
        let mut r = sp.null_move_reduction;
        if sp.null_move_adaptivity_use == 1 && d_plies > sp.null_move_adaptivity_depth {
            r += 1;
        }
        if sp.null_move_depth_divisor > 0 {
            r += d_plies / sp.null_move_depth_divisor;
        }
        if sp.null_move_eval_divisor > 0 {
            r += ((eval - beta) / sp.null_move_eval_divisor).min(sp.null_move_eval_reduction_max);
        }
        self.stack[ply].piece_to = None;
        self.stack[ply].mv = None;
        self.stack[ply].capture_to = None;
        self.stack[ply].null = true;
        self.keys.push(hash(&null_pos));
        let depth = node.depth - ONE_PLY - r * ONE_PLY;
        let s = -self.negamax(&null_pos, -beta, -beta + 1, depth, ply + 1, !node.cut_node, false);
        self.keys.pop();
        self.stack[ply].null = false;
        Some(s)
    }

    /// Step 7, multi-cut: at an expected cut node, if several of the first moves already fail
    /// high at reduced depth, assume the node fails high.
    #[inline(always)]
    fn multi_cut(&mut self, node: &Node, beta: i32) -> Option<i32> {
        let sp = self.sp;
        if !(sp.multicut_use == 1
            && node.cut_node
            && node.d_plies >= sp.multicut_depth.max(2)
            && sp.multicut_cut_num > 0)
        {
            return None;
        }
        let (pos, ply) = (node.pos, node.ply);
        let mut picker = MovePicker::new(
            false,
            node.tt_move,
            self.hist.killers[ply],
            self.hist.countermove(node.prev1),
            node.prev1,
            node.prev2,
            node.threats,
        )
        .weighted_by(self.sp);
        let mut cuts = 0;
        let mut tried = 0;
        let depth = node.depth - ONE_PLY - sp.multicut_reduction * ONE_PLY;
        while tried < sp.multicut_move_num
            && let Some(m) = picker.next(pos, self.hist)
        {
            tried += 1;
            let (child, child_check) = self.enter_child(pos, node.key, m, ply);
            let s = -self.negamax(&child, -beta, -beta + 1, depth, ply + 1, false, child_check);
            self.keys.pop();
            if self.stopped {
                return Some(0);
            }
            if s >= beta {
                cuts += 1;
                if cuts >= sp.multicut_cut_num {
                    return Some(beta);
                }
            }
        }
        None
    }

    /// Steps 10-18, the move loop: each move is pruned (11, 12), extended (13) and searched
    /// with PVS and late move reductions (14); then mate or stalemate (16), the histories
    /// (17) and the TT (18).
    #[inline(always)]
    fn search_moves(&mut self, node: &Node, mut alpha: i32, beta: i32, mate_threat: bool) -> i32 {
        let (pos, key, ply, d_plies, stm) = (node.pos, node.key, node.ply, node.d_plies, node.stm);
        let (pv_node, cut_node, in_check) = (node.pv_node, node.cut_node, node.in_check);
        let sp = self.sp;
        // Step 10. Move ordering and the per-node pruning decisions.
        let ml = MoveLoop {
            // Futility (David et al.): at depth 1..=futility_depth, if the static eval plus
            // the depth's margin cannot reach alpha, quiet non-checking moves are not searched.
            futile: !pv_node && !in_check && self.futility_applies(node, alpha),
            lmp_limit: (sp.lmp_base + d_plies * d_plies) as usize / if node.improving { 1 } else { 2 },
            extend_ok: ply < 2 * (self.root_depth as usize).max(1),
            killers: self.hist.killers[ply],
            counter: self.hist.countermove(node.prev1),
        };
        let mut picker =
            MovePicker::new(in_check, node.tt_move, ml.killers, ml.counter, node.prev1, node.prev2, node.threats)
                .weighted_by(self.sp);
        if in_check {
            picker.generate_now(pos, self.hist);
        }
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut move_count = 0usize;
        let mut quiets_seen = 0usize;
        let mut quiets_tried = SmallList::<64>::new();
        let mut captures_tried = SmallList::<32>::new();
        let orig_alpha = alpha;

        while let Some(m) = picker.next(pos, self.hist) {
            if Some(m) == node.excluded {
                continue;
            }
            move_count += 1;
            let quiet = !is_noisy(m);
            quiets_seen += usize::from(quiet);
            let prunable = (!in_check || sp.in_check_pruning_use == 1)
                && best_score > -TB_WIN_IN_MAX
                && (sp.pawn_only_pruning_use == 1 || has_non_pawn_material(pos, stm));

            // Step 11. Pruning before the move is made. A quiet check is often the point of
            // a sacrifice: move counts and history do not prune it (SEE below may, with
            // see_prune_quiet_checks_use; once quiets are skipped, later ones are not tried).
            if prunable && quiet && !move_gives_check(pos, m) {
                match self.prune_quiet(node, &ml, m, move_count, quiets_seen, alpha) {
                    QuietPruning::Search => {}
                    QuietPruning::Move => continue,
                    QuietPruning::Quiets => {
                        picker.skip_quiets = true;
                        continue;
                    }
                }
            } else if prunable
                && !quiet
                && sp.see_depth > 0
                && d_plies <= sp.see_depth
                && !see_ge(pos, m, -sp.see_capture_margin * d_plies * d_plies)
            {
                continue;
            }

            // Start fetching the child's TT bucket before the copy-make.
            let inc_key = key_after(pos, key, m);
            if let Some(k) = inc_key {
                self.tt.prefetch(k);
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let gives_check = child.is_check();

            // Step 12. Pruning of quiet moves once their check status is known: futility (never
            // a check) and SEE.
            let see_depth = match (gives_check, sp.see_prune_quiet_checks_use == 1) {
                (false, _) => sp.see_depth,
                (true, true) => sp.see_depth.min(sp.see_quiet_check_depth),
                (true, false) => 0,
            };
            let see_margin = sp.see_quiet_margin;
            if prunable
                && quiet
                && ((!gives_check && ml.futile)
                    || (see_depth > 0 && d_plies <= see_depth && !see_ge(pos, m, -see_margin * d_plies)))
            {
                continue;
            }
            let child_key = inc_key.unwrap_or_else(|| hash(&child));
            let cand = Candidate { mv: m, number: move_count, quiet, gives_check };

            // Step 13. Extensions, in quarter plies, at most one ply per move.
            let ext = if ml.extend_ok {
                let one_reply = in_check && picker.legal_count() == 1;
                match self.extension(node, cand, one_reply, mate_threat, beta) {
                    ControlFlow::Continue(ext) => ext,
                    ControlFlow::Break(s) => return s,
                }
            } else {
                0
            };
            let new_depth = node.depth - ONE_PLY + ext;

            // Step 14. PVS: the first move with the full window, the others with a null
            // window, reduced (late move reductions) and searched again when they beat alpha.
            self.stack[ply].record_move(stm, m);
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions + u8::from(ext > ONE_PLY);
            self.keys.push(child_key);
            let score = if move_count == 1 {
                -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node, gives_check)
            } else {
                let r = self.reduction(node, &ml, cand, new_depth);
                let mut s = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true, gives_check);
                let mut full_depth = new_depth;
                if s > alpha && r > 0 {
                    // After Stockfish: how far the reduced search beat the best score says
                    // how deep to look again.
                    let adjust = sp.lmr_research_adjust_use == 1;
                    if adjust && s > best_score + sp.lmr_deeper_margin + sp.lmr_deeper_per_ply * r / ONE_PLY {
                        full_depth += ONE_PLY;
                    } else if adjust && s < best_score + new_depth / ONE_PLY {
                        full_depth -= ONE_PLY;
                    }
                    if full_depth > new_depth - r {
                        s = -self.negamax(&child, -alpha - 1, -alpha, full_depth, ply + 1, !cut_node, gives_check);
                    }
                    if adjust && quiet {
                        let bonus = self.history_bonus(full_depth / ONE_PLY);
                        let bonus = if s > alpha { bonus } else { -bonus };
                        self.hist.update_continuation(node.prev1, node.prev2, PieceTo::new(stm, m), bonus);
                    }
                }
                if pv_node && s > alpha && s < beta {
                    s = -self.negamax(&child, -beta, -alpha, full_depth, ply + 1, false, gives_check);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }

            // Step 15. The best move so far; a beta cutoff ends the loop.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if Some(m) != best_move {
                if quiet {
                    quiets_tried.push(m);
                } else {
                    captures_tried.push(m);
                }
            }
        }

        // Step 16. No move searched.
        if move_count == 0 {
            // With a move excluded, none other was searched: the excluded one stays (fail low).
            if node.excluded.is_some() {
                return alpha;
            }
            // No legal move (pruning never removes every move: it needs a searched one first).
            return if in_check { mated_in(ply) } else { DRAW };
        }

        // Step 17. Histories: the cutoff move gains, the moves tried before it lose.
        if best_score >= beta
            && let Some(bm) = best_move
        {
            self.update_histories(node, bm, &quiets_tried, &captures_tried);
        }

        // Step 17b. A fail low: the opponent's previous move, when quiet, was good (after
        // Stockfish's prior countermove bonus).
        if best_score <= orig_alpha
            && sp.prior_countermove_bonus_use == 1
            && node.excluded.is_none()
            && node.prev_capture_to.is_none()
            && let Some(prev) = node.prev1
            && (d_plies >= 5 || pv_node || best_score < orig_alpha - 62 * d_plies)
        {
            let bonus = self.history_bonus(d_plies) * (1 + i32::from(pv_node || cut_node));
            let (before1, before2) = (self.piece_to_before(ply, 2), self.piece_to_before(ply, 3));
            self.hist.update_continuation(before1, before2, prev, bonus);
        }

        // Step 18. Transposition table store.
        if node.excluded.is_some() {
            return best_score;
        }
        let bound = if best_score >= beta {
            TtBound::Lower
        } else if best_score > orig_alpha && pv_node {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.update_correction(node, best_move, best_score, bound);
        // A PV node's entry is kept longer (the TT's replacement).
        self.tt.store(key, encode_move(best_move), to_tt(best_score, ply), node.raw_eval, d_plies, bound, pv_node);
        best_score
    }

    /// Step 18b: the correction history learns what this node's score says of its corrected
    /// evaluation's error, when it says something (Stockfish's conditions): not in check, the
    /// best move quiet, a fail high not below the evaluation, a fail low not above it, and no
    /// mate or tablebase score.
    #[inline(always)]
    fn update_correction(&mut self, node: &Node, best_move: Option<Move>, best_score: i32, bound: TtBound) {
        let Some(keys) = node.corr_keys else { return };
        let noisy = best_move.is_some_and(|m| m.is_capture() || m.is_promotion());
        let uninformative = match bound {
            TtBound::Lower => best_score <= node.static_eval,
            TtBound::Upper => best_score >= node.static_eval,
            _ => false,
        };
        if noisy || uninformative || is_decisive(best_score) {
            return;
        }
        let weights = self.correction_weights();
        self.hist.correction.update(node.stm, &keys, &weights, best_score - node.static_eval, node.d_plies);
    }

    /// Whether the static evaluation plus the futility margin of this depth (1 to
    /// `futility_depth` plies) stays at or below `alpha` (step 10).
    #[inline(always)]
    fn futility_applies(&self, node: &Node, alpha: i32) -> bool {
        let sp = self.sp;
        let d_plies = node.d_plies;
        let margin = match d_plies {
            1 => sp.futility_margin_1,
            2 => sp.futility_margin_2,
            3 => sp.futility_margin_3,
            _ => 0,
        };
        d_plies >= 1 && d_plies <= sp.futility_depth && node.eval + margin <= alpha && alpha.abs() < TB_WIN_IN_MAX
    }

    /// The depth in plies the `lmr_number`-th move ([`Candidate::number`]) would be searched to
    /// after the LMR table's reduction: what the pruning of steps 11 judges late moves by.
    #[inline(always)]
    fn lmr_depth(&self, d_plies: i32, lmr_number: usize) -> i32 {
        d_plies - self.lmr_table(d_plies, lmr_number) / ONE_PLY
    }

    /// Step 11 for a quiet move that does not check: late move pruning (counted on quiets, so
    /// good captures tried first do not use up the allowance) and history pruning.
    #[inline(always)]
    fn prune_quiet(
        &self,
        node: &Node,
        ml: &MoveLoop,
        m: Move,
        lmr_number: usize,
        quiets_seen: usize,
        alpha: i32,
    ) -> QuietPruning {
        let sp = self.sp;
        let (d_plies, stm, improving) = (node.d_plies, node.stm, node.improving);
        if sp.lmp_depth > 0 && d_plies <= sp.lmp_depth && quiets_seen > ml.lmp_limit {
            return QuietPruning::Quiets;
        }
        // History pruning (after Ethereal 12), decided before the child is made and only for
        // quiets the picker did not single out (TT move, killers, counter).
        let singled_out =
            Some(m) == node.tt_move || Some(m) == ml.killers[0] || Some(m) == ml.killers[1] || Some(m) == ml.counter;
        let history_pruning = sp.history_futility_depth > 0 || sp.history_prune_depth > 0;
        if !history_pruning || singled_out {
            return QuietPruning::Search;
        }
        let lmr_depth = self.lmr_depth(d_plies, lmr_number);
        let pt = PieceTo::new(stm, m);
        let followed = self.hist.continuation(node.prev1, pt);
        let followed2 = self.hist.continuation(node.prev2, pt);
        let hist = self.hist.butterfly(stm, m, node.threats) + followed + followed2;
        // Far below alpha, and nothing in the history says this move is the exception: no
        // later quiet will be either. Not against a mate bound: no evaluation measures up to
        // it, and skipping the quiets would skip a quiet mate still to come (the quiet checks
        // spared above come later in the picker's order).
        let hist_limit = if improving { sp.history_futility_limit_improving } else { sp.history_futility_limit };
        if sp.history_futility_depth > 0
            && !node.in_check
            && lmr_depth <= sp.history_futility_depth
            && alpha.abs() < TB_WIN_IN_MAX
            && node.eval + sp.history_futility_margin * d_plies <= alpha
            && hist < hist_limit
        {
            return QuietPruning::Quiets;
        }
        // Near the leaves, a quiet that has done badly after the opponent's last move (or
        // after our own previous one) is not tried.
        let prune_depth = sp.history_prune_depth - i32::from(improving);
        if sp.history_prune_depth > 0 && lmr_depth <= prune_depth {
            let (cm_limit, fu_limit) = if improving {
                (sp.countermove_prune_limit_improving, sp.followup_prune_limit_improving)
            } else {
                (sp.countermove_prune_limit, sp.followup_prune_limit)
            };
            if followed < cm_limit || followed2 < fu_limit {
                return QuietPruning::Move;
            }
        }
        QuietPruning::Search
    }

    /// Step 13: the extension of a move in quarter plies (check, single reply, recapture,
    /// passed pawn push, mate threat, singular), or the node's score
    /// when the singular test shows that several moves beat beta (multi-cut) or the search
    /// stopped. At most one ply, except a double singular extension (two plies); negative for
    /// a TT move that is not singular but already beats beta (Stockfish's negative
    /// extension): the effort goes to the alternatives.
    #[inline(always)]
    fn extension(
        &mut self,
        node: &Node,
        cand: Candidate,
        one_reply: bool,
        mate_threat: bool,
        beta: i32,
    ) -> ControlFlow<i32, i32> {
        let sp = self.sp;
        let (pos, m) = (node.pos, cand.mv);
        let mut ext = 0;
        if cand.gives_check {
            ext += sp.check_extension;
        }
        if one_reply {
            ext += sp.one_reply_extension;
        }
        if m.is_capture() && node.prev_capture_to == Some(m.to()) {
            ext += sp.recapture_extension;
        }
        if is_passed_push(pos, m) {
            ext += sp.passed_pawn_extension;
        }
        if mate_threat {
            ext += sp.mate_threat_extension;
        }
        ext = ext.min(ONE_PLY);
        // Singular extension: the TT move's lower bound is well above what every other move
        // reaches at half depth, so the line hangs on this move: search it a ply deeper (two
        // when the others fall far short, a bounded number of times per line). If the others
        // also reach beta, several moves refute the parent's move and the node fails high at
        // once (multi-cut).
        let d_plies = node.d_plies;
        if Some(m) == node.tt_move
            && node.excluded.is_none()
            && sp.singular_min_depth > 0
            && d_plies >= sp.singular_min_depth
            && let Some(h) = node.hit
            && matches!(h.bound, TtBound::Lower | TtBound::Exact)
            && h.depth >= d_plies - sp.singular_tt_depth_margin
        {
            let tt_score = from_tt(h.score, node.ply);
            if tt_score.abs() < TB_WIN_IN_MAX {
                let singular_beta = tt_score - sp.singular_margin * d_plies;
                let singular_depth = (node.depth - ONE_PLY) / 2;
                self.stack[node.ply].excluded = Some(m);
                let s = self.negamax(
                    pos,
                    singular_beta - 1,
                    singular_beta,
                    singular_depth,
                    node.ply,
                    node.cut_node,
                    node.in_check,
                );
                self.stack[node.ply].excluded = None;
                if self.stopped {
                    return ControlFlow::Break(0);
                }
                if s < singular_beta {
                    let double = !node.pv_node
                        && sp.singular_double_margin > 0
                        && s < singular_beta - sp.singular_double_margin
                        && i32::from(self.stack[node.ply].double_extensions) < sp.singular_double_max;
                    ext = if double { 2 * ONE_PLY } else { ONE_PLY };
                } else if singular_beta >= beta {
                    return ControlFlow::Break(singular_beta);
                } else if tt_score >= beta {
                    ext -= sp.singular_negative_extension;
                }
            }
        }
        ControlFlow::Continue(ext)
    }

    /// Step 14's late move reduction of a move after the first, in quarter plies: the table's,
    /// more for quiets at non-PV and expected cut nodes, when not improving and when the TT
    /// move is noisy, less for killers and the counter move, for a good history and around
    /// checks; halved for captures. Never below zero or below one ply of remaining depth.
    #[inline(always)]
    fn reduction(&self, node: &Node, ml: &MoveLoop, cand: Candidate, new_depth: i32) -> i32 {
        let sp = self.sp;
        let d_plies = node.d_plies;
        if !(d_plies >= sp.lmr_min_depth && cand.number >= sp.lmr_min_move as usize + usize::from(node.pv_node)) {
            return 0;
        }
        let m = cand.mv;
        let mut r = self.lmr_table(d_plies, cand.number);
        if cand.quiet {
            if !node.pv_node {
                r += ONE_PLY / 2;
            }
            if node.cut_node {
                r += sp.lmr_cut_node;
            }
            if !node.improving {
                r += ONE_PLY / 2;
            }
            if Some(m) == ml.killers[0] || Some(m) == ml.killers[1] || Some(m) == ml.counter {
                r -= ONE_PLY;
            }
            // A capture or promotion is the best move found here before: quiets rarely beat it.
            if node.tt_move.is_some_and(is_noisy) {
                r += sp.lmr_tt_noisy;
            }
            let h = self.hist.quiet_score(node.stm, m, node.prev1, node.prev2, node.threats);
            r -= h / sp.lmr_history_divisor;
        } else {
            r /= 2;
        }
        if cand.gives_check || node.in_check {
            r -= ONE_PLY;
        }
        r.clamp(0, (new_depth - ONE_PLY).max(0))
    }

    /// The history bonus of a result at `d` plies of depth: linear in the depth, capped.
    #[inline(always)]
    fn history_bonus(&self, d: i32) -> i32 {
        let sp = self.sp;
        (sp.history_bonus_mul * d - sp.history_bonus_sub).clamp(0, sp.history_bonus_max)
    }

    /// Step 17: the move that cut off gains (and becomes killer and counter move when quiet);
    /// the quiets tried before it lose when it is quiet, the captures tried before it always.
    #[inline(always)]
    fn update_histories(
        &mut self,
        node: &Node,
        best: Move,
        quiets_tried: &SmallList<64>,
        captures_tried: &SmallList<32>,
    ) {
        let (stm, prev1, prev2, threats) = (node.stm, node.prev1, node.prev2, node.threats);
        let bonus = self.history_bonus(node.d_plies);
        if !is_noisy(best) {
            self.hist.record_cutoff(node.ply, best, prev1);
            self.hist.update_quiet(stm, best, prev1, prev2, threats, bonus);
            for q in quiets_tried.iter() {
                self.hist.update_quiet(stm, q, prev1, prev2, threats, -bonus);
            }
        } else {
            self.hist.update_capture(stm, best, bonus);
        }
        for c in captures_tried.iter() {
            self.hist.update_capture(stm, c, -bonus);
        }
    }
}

/// Step 2's cutoff: at a non-PV node without an excluded move, a TT entry at least as deep
/// whose bound settles the window, unless the 50-move rule is near (a stored score does not
/// know that on this path).
#[inline(always)]
fn tt_cutoff(node: &Node, alpha: i32, beta: i32, halfmoves: u32) -> Option<i32> {
    let h = node.hit?;
    if node.pv_node || node.excluded.is_some() || h.depth < node.d_plies {
        return None;
    }
    let s = from_tt(h.score, node.ply);
    let cutoff = match h.bound {
        TtBound::Exact => true,
        TtBound::Lower => s >= beta,
        TtBound::Upper => s <= alpha,
        TtBound::None => false,
    };
    (cutoff && halfmoves < TT_CUTOFF_MAX_HALFMOVES).then_some(s)
}
