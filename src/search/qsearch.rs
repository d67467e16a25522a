//! Quiescence search: captures and queen promotions only (every evasion when in check), with
//! stand pat, delta pruning and SEE pruning, so that the static evaluation is only trusted in
//! quiet positions. With `qsearch_checks_use`, its first ply also tries the quiet checks that
//! SEE does not lose (the replies are evasions, after which only captures follow again).

use super::{
    correction::{CorrectionKeys, CorrectionWeights},
    worker::Worker,
};
use crate::{
    movepick::{MovePicker, gen_quiet_checks},
    score::{DRAW, INFINITE, MAX_PLY, TB_WIN_IN_MAX, clamp_eval, from_tt, is_decisive, mated_in, to_tt},
    see::{gain, see_ge},
    tt::{TtBound, TtHit, encode_move},
    zobrist::{hash, key_after},
};
use shakmaty::{Bitboard, Chess, Move, MoveList, Position};

impl Worker<'_> {
    /// Quiescence search of `pos` (key on top of `keys`) at `ply`; `quiet_checks` also searches
    /// the quiet checks with SEE ≥ 0 after the captures (the main search's leaves only).
    pub(crate) fn qsearch(
        &mut self,
        pos: &Chess,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        in_check: bool,
        quiet_checks: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let key = *self.keys.last().expect("current key");
        let halfmoves = pos.halfmoves();
        if (halfmoves >= 4 && self.is_repetition(halfmoves))
            || (halfmoves >= 100 && Self::fifty_move_draw(pos, in_check))
        {
            return self.draw_score();
        }
        debug_assert_eq!(in_check, pos.is_check());
        if ply >= MAX_PLY - 2 {
            return if in_check { DRAW } else { clamp_eval(self.ev.evaluate_cached(pos, &mut self.hist.pawns)) };
        }
        let pv_node = beta - alpha > 1;

        let hit = self.tt.probe(key);
        if let Some(h) = hit
            && !pv_node
        {
            let s = from_tt(h.score, ply);
            let cutoff = match h.bound {
                TtBound::Exact => true,
                TtBound::Lower => s >= beta,
                TtBound::Upper => s <= alpha,
                TtBound::None => false,
            };
            if cutoff {
                return s;
            }
        }
        // The TT keeps the raw evaluation; stand pat and the pruning use the corrected one.
        let (raw_eval, static_eval);
        let mut best;
        if in_check {
            (raw_eval, static_eval) = (-INFINITE, -INFINITE);
            best = -INFINITE;
        } else {
            let keys = self.correction_keys(pos);
            (raw_eval, static_eval, best) = self.static_eval(pos, hit, ply, keys.as_ref());
            // Stand pat: the side to move need not capture.
            if best >= beta {
                if hit.is_none() {
                    self.tt.store(key, 0, to_tt(best, ply), raw_eval, 0, TtBound::Lower, false);
                }
                return best;
            }
            alpha = alpha.max(best);
        }

        // Decoded only now: most quiescence nodes end in a stand-pat cutoff.
        let tt_move = hit.and_then(|h| self.tt_move(pos, h.mv));
        let prev1 = self.piece_to_before(ply, 1);
        let stm = pos.turn();
        // Quiet moves are ordered here only among evasions and the leaf's checks.
        let threats = if in_check || quiet_checks { self.threats(pos) } else { Bitboard::EMPTY };
        let mut picker = MovePicker::new_qsearch(in_check, tt_move, prev1, threats).weighted_by(self.sp);
        let mut best_move = None;
        let mut searched = 0;
        let futility_base = static_eval + self.sp.delta_margin;
        while let Some(m) = picker.next(pos, self.hist) {
            if !in_check {
                // Delta pruning: even winning this material cleanly would not reach alpha.
                if m.promotion().is_none() && futility_base + gain(m) <= alpha {
                    best = best.max(futility_base + gain(m));
                    continue;
                }
                // After Ethereal 12: the exchange itself, not the victim alone, must close the gap.
                let futility_see = match self.sp.qsearch_see_futility_margin {
                    0 => i32::MIN,
                    margin => alpha - static_eval - margin,
                };
                if !see_ge(pos, m, self.sp.qsearch_see_threshold.max(futility_see)) {
                    continue;
                }
            }
            searched += 1;
            let inc_key = key_after(pos, key, m);
            if let Some(k) = inc_key {
                self.tt.prefetch(k);
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_key = inc_key.unwrap_or_else(|| hash(&child));
            self.stack[ply].record_move(stm, m);
            self.keys.push(child_key);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, child.is_check(), false);
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if take_score(score, m, beta, &mut best, &mut alpha, &mut best_move) {
                break;
            }
        }
        if in_check && searched == 0 {
            return mated_in(ply);
        }
        if quiet_checks && !in_check && best < beta {
            let mut checks = MoveList::new();
            gen_quiet_checks(pos, &mut checks);
            // Best quiet history first, as the main search orders its quiets: a refutation
            // that is found sooner ends the node sooner (SPRT in session 57, BENCHMARKS.md).
            let prev2 = self.piece_to_before(ply, 2);
            let hist = &*self.hist;
            checks.sort_by_key(|&m| -hist.quiet_score(stm, m, prev1, prev2, threats));
            for &m in checks.iter() {
                if !see_ge(pos, m, 0) {
                    continue;
                }
                let (child, child_check) = self.enter_child(pos, key, m, ply);
                debug_assert!(child_check);
                let score = -self.qsearch(&child, -beta, -alpha, ply + 1, child_check, false);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if take_score(score, m, beta, &mut best, &mut alpha, &mut best_move) {
                    break;
                }
            }
        }
        let bound = if best >= beta { TtBound::Lower } else { TtBound::Upper };
        self.tt.store(key, encode_move(best_move), to_tt(best, ply), raw_eval, 0, bound, false);
        best
    }
}

/// Takes a move's score into the node's best score, alpha and best move (fail-soft); true when
/// it reaches `beta` (the caller stops searching).
#[inline(always)]
fn take_score(score: i32, m: Move, beta: i32, best: &mut i32, alpha: &mut i32, best_move: &mut Option<Move>) -> bool {
    if score > *best {
        *best = score;
        if score > *alpha {
            *best_move = Some(m);
            if score >= beta {
                return true;
            }
            *alpha = score;
        }
    }
    false
}

impl Worker<'_> {
    /// The weights of the correction history's tables.
    #[inline]
    pub(crate) fn correction_weights(&self) -> CorrectionWeights {
        CorrectionWeights { pawn: self.sp.corr_pawn_weight, non_pawn: self.sp.corr_non_pawn_weight }
    }

    /// The keys of the correction-history entries of `pos` at `ply`, when the correction is on.
    #[inline]
    pub(crate) fn correction_keys(&self, pos: &Chess) -> Option<CorrectionKeys> {
        self.correction_weights().any().then(|| CorrectionKeys::new(pos.board()))
    }

    /// Static evaluation of `pos` (not in check): `(raw, corrected, eval)`. The raw one is the
    /// evaluation's (from the TT entry when it has one: the TT keeps raw values), the corrected
    /// one adds the correction history of `keys`, and `eval` is the corrected one sharpened by
    /// the entry's score where its bound allows (decisive scores excluded).
    pub(crate) fn static_eval(
        &mut self,
        pos: &Chess,
        hit: Option<TtHit>,
        ply: usize,
        keys: Option<&CorrectionKeys>,
    ) -> (i32, i32, i32) {
        let raw = match hit {
            Some(h) if h.eval.abs() < TB_WIN_IN_MAX => h.eval,
            _ => clamp_eval(self.ev.evaluate_cached(pos, &mut self.hist.pawns)),
        };
        let corrected = match keys {
            Some(k) => {
                let c = self.hist.correction.correction(pos.turn(), k, &self.correction_weights());
                (raw + c).clamp(-TB_WIN_IN_MAX + 1, TB_WIN_IN_MAX - 1)
            }
            None => raw,
        };
        let mut eval = corrected;
        if let Some(h) = hit {
            let s = from_tt(h.score, ply);
            let usable = match h.bound {
                TtBound::Exact => true,
                TtBound::Lower => s > eval,
                TtBound::Upper => s < eval,
                TtBound::None => false,
            };
            if usable && !is_decisive(s) {
                eval = s;
            }
        }
        (raw, corrected, eval)
    }
}
