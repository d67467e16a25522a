//! Principal-variation negamax alpha-beta with the selective methods of David et al. Table I
//! (null move with adaptivity, futility pruning at depths 1-3, multi-cut, five fractional
//! extensions) plus reverse futility pruning, late move reductions and pruning, SEE pruning
//! and internal iterative reductions.
//!
//! Depths are in quarter plies ([`ONE_PLY`] = 4); the TT stores whole plies. Fail-soft.

use arrayvec_free::SmallList;
use shakmaty::{Bitboard, Chess, Color, FromSetup, Move, Position, Role, Setup, attacks};
use shakmaty_syzygy::Wdl;

use super::{
    ONE_PLY,
    history::PieceTo,
    params::SearchParams,
    worker::{Frame, Worker},
};
use crate::{
    movepick::{MovePicker, is_noisy},
    score::{
        DRAW, INFINITE, MATE_IN_MAX, MAX_PLY, TB_WIN_IN_MAX, clamp_eval, from_tt, is_decisive, mate_in, mated_in,
        tb_win_in, to_tt,
    },
    see::see_ge,
    tt::{TtBound, encode_move},
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

/// Whether a quiet move (no capture, castle or promotion) checks the opponent's king, by a
/// direct attack from its destination or by uncovering a slider. Cheaper than making the
/// move, so move-count pruning can spare checks before the child exists.
fn quiet_gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal { role, from, to, .. } = m else {
        return false;
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let occupied = (board.occupied() ^ from) | to;
    // A king never checks directly (kings cannot stand side by side).
    if attacks::attacks(to, role.of(us), occupied).contains(king) {
        return true;
    }
    let ours = board.by_color(us) ^ from;
    let discovered = (attacks::bishop_attacks(king, occupied) & board.bishops_and_queens())
        | (attacks::rook_attacks(king, occupied) & board.rooks_and_queens());
    !(discovered & ours).is_empty()
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

impl Worker<'_> {
    /// Plays `m` for a side search (multi-cut, ProbCut): records it in this ply's frame and
    /// pushes the child's key; the caller pops the key. Returns the child and whether it is check.
    #[inline]
    fn enter_child(&mut self, pos: &Chess, key: u64, m: Move, ply: usize) -> (Chess, bool) {
        let mut child = pos.clone();
        child.play_unchecked(m);
        self.stack[ply].piece_to = Some(PieceTo::new(pos.turn(), m));
        self.stack[ply].capture_to = m.is_capture().then(|| m.to());
        self.keys.push(hash_after(pos, key, m, &child));
        let check = child.is_check();
        (child, check)
    }

    /// Searches `pos` (whose key is on top of `keys`) at `ply` to `depth` quarter plies.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn negamax(
        &mut self,
        pos: &Chess,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
        in_check: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if depth < ONE_PLY {
            return self.qsearch(pos, alpha, beta, ply, in_check);
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
        // Set while the singular-extension test searches this node without its TT move: the
        // result is about the other moves only, so it neither uses nor fills the table, and
        // no pruning before the moves applies.
        let excluded = self.stack[ply].excluded;

        // Draws: 50-move rule (unless mated), repetition, dead positions.
        if self.is_repetition(halfmoves) || (halfmoves >= 100 && Self::fifty_move_draw(pos, in_check)) {
            return self.draw_score();
        }
        if pos.board().occupied().count() <= 4 && pos.is_insufficient_material() {
            return DRAW;
        }
        debug_assert_eq!(in_check, pos.is_check());
        if ply >= MAX_PLY - 2 {
            return if in_check { DRAW } else { clamp_eval(self.ev.evaluate(pos)) };
        }
        // Mate distance pruning: no line from here can beat a mate already found nearer the root.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Transposition table.
        let hit = self.tt.probe(key);
        let tt_move = hit.and_then(|h| self.tt_move(pos, h.mv));
        let d_plies = depth / ONE_PLY;
        if let Some(h) = hit
            && !pv_node
            && excluded.is_none()
            && h.depth >= d_plies
        {
            let s = from_tt(h.score, ply);
            let cutoff = match h.bound {
                TtBound::Exact => true,
                TtBound::Lower => s >= beta,
                TtBound::Upper => s <= alpha,
                TtBound::None => false,
            };
            if cutoff && halfmoves < TT_CUTOFF_MAX_HALFMOVES {
                return s;
            }
        }

        // Tablebases (WDL, exact right after a zeroing move).
        if ply > 0
            && excluded.is_none()
            && d_plies >= self.tb.probe_depth
            && let Some(wdl) = self.tb.probe_wdl(pos)
        {
            self.tbhits += 1;
            let (s, bound) = match wdl {
                Wdl::Win => (tb_win_in(ply), TtBound::Lower),
                Wdl::Loss => (-tb_win_in(ply), TtBound::Upper),
                // The 50-move rule draws these: they score -1, 0 or 1, keeping their order.
                Wdl::BlessedLoss | Wdl::Draw | Wdl::CursedWin => (wdl.signum(), TtBound::Exact),
            };
            let cut = match bound {
                TtBound::Exact => true,
                TtBound::Lower => s >= beta,
                _ => s <= alpha,
            };
            if cut {
                self.tt.store(
                    key,
                    0,
                    to_tt(s, ply),
                    -INFINITE,
                    (d_plies + TB_STORE_EXTRA_DEPTH).min(MAX_PLY as i32),
                    bound,
                    pv_node,
                );
                return s;
            }
            if pv_node && bound == TtBound::Lower {
                alpha = alpha.max(s);
            }
        }

        // Static evaluation.
        let static_eval;
        let eval;
        if in_check {
            static_eval = -INFINITE;
            eval = -INFINITE;
        } else {
            (static_eval, eval) = self.static_eval(pos, hit, ply);
        }
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && (if self.stack[ply - 2].static_eval > -INFINITE {
                static_eval > self.stack[ply - 2].static_eval
            } else {
                ply >= 4 && static_eval > self.stack[ply - 4].static_eval
            });
        self.stack[ply + 1] = Frame::default();
        self.hist.killers[ply + 1] = [None; 2];
        let prev1 = if ply >= 1 { self.stack[ply - 1].piece_to } else { None };
        let prev2 = if ply >= 2 { self.stack[ply - 2].piece_to } else { None };
        let prev_capture_to = if ply >= 1 { self.stack[ply - 1].capture_to } else { None };
        let stm = pos.turn();
        let sp = self.sp;
        let mut mate_threat = false;

        if !pv_node && !in_check && excluded.is_none() {
            // Reverse futility pruning: far above beta at low depth, a quiet move will not
            // bring us back under it.
            let margin = sp.rfp_margin * d_plies - if improving { sp.rfp_improving_margin } else { 0 };
            if d_plies <= sp.rfp_depth && eval - margin >= beta && eval.abs() < TB_WIN_IN_MAX && beta > -TB_WIN_IN_MAX {
                return (eval + beta) / 2;
            }

            // Null move, with David's adaptivity: R grows by one above the adaptivity depth.
            if sp.null_move_use == 1
                && d_plies >= sp.null_move_min_depth
                && eval >= beta
                && static_eval >= beta - sp.null_move_static_margin * d_plies
                && ply >= 1
                && !self.stack[ply - 1].null
                && !is_decisive(beta)
                && has_non_pawn_material(pos, stm)
                && let Some(null_pos) = null_move(pos)
            {
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
                self.stack[ply].capture_to = None;
                self.stack[ply].null = true;
                self.keys.push(hash(&null_pos));
                let s = -self.negamax(
                    &null_pos,
                    -beta,
                    -beta + 1,
                    depth - ONE_PLY - r * ONE_PLY,
                    ply + 1,
                    !cut_node,
                    false,
                );
                self.keys.pop();
                self.stack[ply].null = false;
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if is_decisive(s) { beta } else { s };
                }
                if s <= -MATE_IN_MAX {
                    mate_threat = true;
                }
            }

            // Multi-cut: at an expected cut node, if several of the first moves already fail
            // high at reduced depth, assume the node fails high.
            if sp.multicut_use == 1 && cut_node && d_plies >= sp.multicut_depth.max(2) && sp.multicut_cut_num > 0 {
                let mut picker =
                    MovePicker::new(false, tt_move, self.hist.killers[ply], self.hist.countermove(prev1), prev1, prev2);
                let mut cuts = 0;
                let mut tried = 0;
                let mc_depth = depth - ONE_PLY - sp.multicut_reduction * ONE_PLY;
                while tried < sp.multicut_move_num
                    && let Some(m) = picker.next(pos, self.hist)
                {
                    tried += 1;
                    let (child, child_check) = self.enter_child(pos, key, m, ply);
                    let s = -self.negamax(&child, -beta, -beta + 1, mc_depth, ply + 1, false, child_check);
                    self.keys.pop();
                    if self.stopped {
                        return 0;
                    }
                    if s >= beta {
                        cuts += 1;
                        if cuts >= sp.multicut_cut_num {
                            return beta;
                        }
                    }
                }
            }
        }

        // ProbCut: a good capture that beats beta by a margin in a search four plies
        // shallower (checked first by quiescence) will very likely beat beta at full depth.
        // Skipped when the TT already holds a near-depth result under the raised bound.
        if !pv_node
            && !in_check
            && excluded.is_none()
            && sp.probcut_depth > 0
            && d_plies >= sp.probcut_depth
            && beta.abs() < TB_WIN_IN_MAX
        {
            let raised_beta = (beta + sp.probcut_margin).min(TB_WIN_IN_MAX - 1);
            let tt_says_no = hit.is_some_and(|h| {
                h.depth >= d_plies - 3
                    && matches!(h.bound, TtBound::Upper | TtBound::Exact)
                    && from_tt(h.score, ply) < raised_beta
            });
            if !tt_says_no {
                let mut picker = MovePicker::new_qsearch(false, tt_move, prev1);
                while let Some(m) = picker.next(pos, self.hist) {
                    if !see_ge(pos, m, raised_beta - static_eval) {
                        continue;
                    }
                    let (child, child_check) = self.enter_child(pos, key, m, ply);
                    let mut s = -self.qsearch(&child, -raised_beta, -raised_beta + 1, ply + 1, child_check);
                    if s >= raised_beta {
                        let probe_depth = depth - 4 * ONE_PLY;
                        s = -self.negamax(
                            &child,
                            -raised_beta,
                            -raised_beta + 1,
                            probe_depth,
                            ply + 1,
                            !cut_node,
                            child_check,
                        );
                    }
                    self.keys.pop();
                    if self.stopped {
                        return 0;
                    }
                    if s >= raised_beta {
                        return s;
                    }
                }
            }
        }

        // Internal iterative reduction: without a TT move this node was not searched before;
        // search it shallower rather than spend full depth on poor move ordering.
        if tt_move.is_none() && sp.iir_min_depth > 0 && d_plies >= sp.iir_min_depth && (pv_node || cut_node) {
            depth -= ONE_PLY;
        }
        let d_plies = depth / ONE_PLY;

        // Futility (David et al.): at depth 1..=futility_depth, if the static eval plus the
        // depth's margin cannot reach alpha, quiet non-checking moves are not searched.
        let futility_margin = match d_plies {
            1 => sp.futility_margin_1,
            2 => sp.futility_margin_2,
            3 => sp.futility_margin_3,
            _ => 0,
        };
        let futile = !pv_node
            && !in_check
            && d_plies >= 1
            && d_plies <= sp.futility_depth
            && eval + futility_margin <= alpha
            && alpha.abs() < TB_WIN_IN_MAX;

        let killers = self.hist.killers[ply];
        let counter = self.hist.countermove(prev1);
        let mut picker = MovePicker::new(in_check, tt_move, killers, counter, prev1, prev2);
        if in_check {
            picker.generate_now(pos, self.hist);
        }
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut move_count = 0usize;
        let mut quiets_seen = 0usize;
        let mut quiets_tried = SmallList::<64>::new();
        let mut captures_tried = SmallList::<32>::new();
        let lmp_limit = (sp.lmp_base + d_plies * d_plies) as usize / if improving { 1 } else { 2 };
        let extend_ok = ply < 2 * (self.root_depth as usize).max(1);
        let orig_alpha = alpha;

        while let Some(m) = picker.next(pos, self.hist) {
            if Some(m) == excluded {
                continue;
            }
            move_count += 1;
            let quiet = !is_noisy(m);
            quiets_seen += usize::from(quiet);
            let prunable = best_score > -TB_WIN_IN_MAX && has_non_pawn_material(pos, stm);
            if prunable && !in_check {
                // A quiet check is often the point of a sacrifice: move counts and history do
                // not prune it (futility and SEE below still may; once quiets are skipped,
                // later ones are not tried at all).
                if quiet && !quiet_gives_check(pos, m) {
                    // Late move pruning, counted on quiets: good captures tried first do not use
                    // up the quiet moves' allowance.
                    if sp.lmp_depth > 0 && d_plies <= sp.lmp_depth && quiets_seen > lmp_limit {
                        picker.skip_quiets = true;
                        continue;
                    }
                    // History pruning (after Ethereal 12), decided before the child is made and
                    // only for quiets the picker did not single out (TT move, killers, counter).
                    let singled_out =
                        Some(m) == tt_move || Some(m) == killers[0] || Some(m) == killers[1] || Some(m) == counter;
                    let history_pruning = sp.history_futility_depth > 0 || sp.history_prune_depth > 0;
                    if history_pruning && !singled_out {
                        let lmr_depth = d_plies - self.lmr[d_plies.min(63) as usize][move_count.min(63)] / ONE_PLY;
                        let pt = PieceTo::new(stm, m);
                        let followed = self.hist.continuation(prev1, pt);
                        let followed2 = self.hist.continuation(prev2, pt);
                        let hist = self.hist.butterfly(stm, m) + followed + followed2;
                        // Far below alpha, and nothing in the history says this move is the
                        // exception: no later quiet will be either.
                        let hist_limit =
                            if improving { sp.history_futility_limit_improving } else { sp.history_futility_limit };
                        if sp.history_futility_depth > 0
                            && lmr_depth <= sp.history_futility_depth
                            && eval + sp.history_futility_margin * d_plies <= alpha
                            && hist < hist_limit
                        {
                            picker.skip_quiets = true;
                            continue;
                        }
                        // Near the leaves, a quiet that has done badly after the opponent's
                        // last move (or after our own previous one) is not tried.
                        let prune_depth = sp.history_prune_depth - i32::from(improving);
                        if sp.history_prune_depth > 0 && lmr_depth <= prune_depth {
                            let (cm_limit, fu_limit) = if improving {
                                (sp.countermove_prune_limit_improving, sp.followup_prune_limit_improving)
                            } else {
                                (sp.countermove_prune_limit, sp.followup_prune_limit)
                            };
                            if followed < cm_limit || followed2 < fu_limit {
                                continue;
                            }
                        }
                    }
                } else if !quiet
                    && sp.see_depth > 0
                    && d_plies <= sp.see_depth
                    && !see_ge(pos, m, -sp.see_capture_margin * d_plies * d_plies)
                {
                    continue;
                }
            }
            // Start fetching the child's TT bucket before the copy-make.
            let inc_key = key_after(pos, key, m);
            if let Some(k) = inc_key {
                self.tt.prefetch(k);
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let gives_check = child.is_check();
            if prunable && !in_check && quiet && !gives_check {
                if futile {
                    continue;
                }
                if sp.see_depth > 0 && d_plies <= sp.see_depth && !see_ge(pos, m, -sp.see_quiet_margin * d_plies) {
                    continue;
                }
            }
            let child_key = inc_key.unwrap_or_else(|| hash(&child));

            // Extensions, in quarter plies, at most one ply per move.
            let mut ext = 0;
            if extend_ok {
                if gives_check {
                    ext += sp.check_extension;
                }
                if in_check && picker.legal_count() == 1 {
                    ext += sp.one_reply_extension;
                }
                if m.is_capture() && prev_capture_to == Some(m.to()) {
                    ext += sp.recapture_extension;
                }
                if is_passed_push(pos, m) {
                    ext += sp.passed_pawn_extension;
                }
                if mate_threat {
                    ext += sp.mate_threat_extension;
                }
                // Singular extension: the TT move's lower bound is well above what every other
                // move reaches at half depth, so the line hangs on this move: search it a ply
                // deeper. If the others also reach beta, several moves refute the parent's
                // move and the node fails high at once (multi-cut).
                if Some(m) == tt_move
                    && excluded.is_none()
                    && sp.singular_min_depth > 0
                    && d_plies >= sp.singular_min_depth
                    && let Some(h) = hit
                    && matches!(h.bound, TtBound::Lower | TtBound::Exact)
                    && h.depth >= d_plies - sp.singular_tt_depth_margin
                {
                    let tt_score = from_tt(h.score, ply);
                    if tt_score.abs() < TB_WIN_IN_MAX {
                        let singular_beta = tt_score - sp.singular_margin * d_plies;
                        let singular_depth = (depth - ONE_PLY) / 2;
                        self.stack[ply].excluded = Some(m);
                        let s = self.negamax(
                            pos,
                            singular_beta - 1,
                            singular_beta,
                            singular_depth,
                            ply,
                            cut_node,
                            in_check,
                        );
                        self.stack[ply].excluded = None;
                        if self.stopped {
                            return 0;
                        }
                        if s < singular_beta {
                            ext = ONE_PLY;
                        } else if singular_beta >= beta {
                            return singular_beta;
                        }
                    }
                }
            }
            let new_depth = depth - ONE_PLY + ext.min(ONE_PLY);

            self.stack[ply].piece_to = Some(PieceTo::new(stm, m));
            self.stack[ply].capture_to = m.is_capture().then(|| m.to());
            self.keys.push(child_key);
            let score = if move_count == 1 {
                -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node, gives_check)
            } else {
                // Late move reductions.
                let mut r = 0;
                if d_plies >= sp.lmr_min_depth && move_count >= sp.lmr_min_move as usize + usize::from(pv_node) {
                    r = self.lmr[d_plies.min(63) as usize][move_count.min(63)];
                    if quiet {
                        if !pv_node {
                            r += ONE_PLY / 2;
                        }
                        if cut_node {
                            r += ONE_PLY;
                        }
                        if !improving {
                            r += ONE_PLY / 2;
                        }
                        if Some(m) == killers[0] || Some(m) == killers[1] || Some(m) == counter {
                            r -= ONE_PLY;
                        }
                        let h = self.hist.quiet_score(stm, m, prev1, prev2);
                        r -= h / sp.lmr_history_divisor;
                    } else {
                        r /= 2;
                    }
                    if gives_check || in_check {
                        r -= ONE_PLY;
                    }
                    r = r.clamp(0, (new_depth - ONE_PLY).max(0));
                }
                let mut s = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true, gives_check);
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node, gives_check);
                }
                if pv_node && s > alpha && s < beta {
                    s = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, false, gives_check);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }

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

        if move_count == 0 {
            // With a move excluded, none other was searched: the excluded one stays (fail low).
            if excluded.is_some() {
                return alpha;
            }
            // No legal move (pruning never removes every move: it needs a searched one first).
            return if in_check { mated_in(ply) } else { DRAW };
        }

        if best_score >= beta
            && let Some(bm) = best_move
        {
            let bonus = (sp.history_bonus_mul * d_plies - sp.history_bonus_sub).clamp(0, sp.history_bonus_max);
            if !is_noisy(bm) {
                self.hist.record_cutoff(ply, bm, prev1);
                self.hist.update_quiet(stm, bm, prev1, prev2, bonus);
                for q in quiets_tried.iter() {
                    self.hist.update_quiet(stm, q, prev1, prev2, -bonus);
                }
            } else {
                self.hist.update_capture(stm, bm, bonus);
            }
            for c in captures_tried.iter() {
                self.hist.update_capture(stm, c, -bonus);
            }
        }

        if excluded.is_some() {
            return best_score;
        }
        let bound = if best_score >= beta {
            TtBound::Lower
        } else if best_score > orig_alpha && pv_node {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.tt.store(key, encode_move(best_move), to_tt(best_score, ply), static_eval, d_plies, bound, pv_node);
        best_score
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove};

    use super::quiet_gives_check;

    #[test]
    fn quiet_checks_match_making_the_move() {
        let cases = [
            // WAC.001 after Qg6 and a quiet reply: Qh7 mates; Rae1 does not check.
            ("2rr3k/pp3pp1/1nnqbNQp/3pN3/2pP4/2P5/PPB4P/R4RK1 w - - 0 1", "g6h7", true),
            ("2rr3k/pp3pp1/1nnqbNQp/3pN3/2pP4/2P5/PPB4P/R4RK1 w - - 0 1", "a1e1", false),
            // Direct checks, and near misses, by each piece type.
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", true),
            ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a7", false),
            ("4k3/8/8/8/6N1/8/8/4K3 w - - 0 1", "g4f6", true),
            ("4k3/8/8/4N3/8/8/8/4K3 w - - 0 1", "e5f7", false),
            ("4k3/8/8/8/8/8/8/1B2K3 w - - 0 1", "b1g6", true),
            ("4k3/8/8/8/8/8/8/1B2K3 w - - 0 1", "b1a2", false),
            ("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1", "d6d7", true),
            ("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "d5d6", false),
            ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1a4", true),
            // Discovered checks: the knight uncovers the rook, the king uncovers the bishop.
            ("4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "e4c5", true),
            ("7k/8/8/8/8/8/1K6/B7 w - - 0 1", "b2a2", true),
            ("4k3/8/8/8/4N3/8/P7/4RK2 w - - 0 1", "a2a3", false),
            // Black to move.
            ("4k3/8/8/8/8/r7/8/6K1 b - - 0 1", "a3g3", true),
            ("4k3/8/8/8/8/r7/8/6K1 b - - 0 1", "a3a2", false),
        ];
        for (fen, uci, expected) in cases {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            let mut child = pos.clone();
            child.play_unchecked(m);
            assert_eq!(child.is_check(), expected, "the case itself is wrong: {fen} {uci}");
            assert_eq!(quiet_gives_check(&pos, m), expected, "{fen} {uci}");
        }
    }
}
