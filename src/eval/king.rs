//! King safety: pawn shelter and enemy pawn cover on the king's and adjacent files, enemy
//! pressure on the king zone (David Fig. 3), castling done / missed (Aksenov Table 3).

use shakmaty::Color;

use super::{
    Ctx, EvalParams, S,
    bits::{CASTLED_SQUARES, file_mask, file_of, ranks_above, rel},
};

/// Pressure and castling terms of `us` (tapered; middlegame only). Needs the piece terms of the
/// enemy done first (they count the pressure).
#[inline(always)]
pub(super) fn score(ctx: &Ctx, p: &EvalParams, us: Color) -> S {
    let (u, t) = (us as usize, !us as usize);
    let mut s = S::new(-p.king_pressure_mult * ctx.pressure[t], 0);
    if ctx.kings[u] & rel(us, CASTLED_SQUARES) != 0 {
        s += S::new(p.castling_done, 0);
    } else if !ctx.can_castle[u] {
        s -= S::new(p.castling_missed, 0);
    }
    s
}

/// Pawn shelter of `us` in centipawns (<= 0), scaled by the enemy's non-pawn material in phase
/// units over 12 (a full set of pieces), so it fades as the attackers leave the board.
#[inline(always)]
pub(super) fn shelter(ctx: &Ctx, p: &EvalParams, us: Color) -> i32 {
    let (u, t) = (us as usize, !us as usize);
    let ksq = ctx.king[u];
    let kf = file_of(ksq);
    let kr = ksq.to_usize() >> 3;
    let front = match us {
        Color::White => ranks_above(kr),
        Color::Black => (1u64 << (8 * kr)) - 1,
    };
    let mut penalty = 0;
    for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
        let on_king_file = f == kf;
        let fm = file_mask(f);
        let own = ctx.pawns[u] & fm & front;
        if own == 0 {
            penalty += if on_king_file { p.king_no_friendly_pawn } else { p.king_no_friendly_pawn_adj };
        } else {
            let nearest = match us {
                Color::White => own.trailing_zeros() as usize >> 3,
                Color::Black => (63 - own.leading_zeros()) as usize >> 3,
            };
            if nearest.abs_diff(kr) >= 2 {
                penalty += p.king_friendly_pawn_advanced1;
            }
        }
        if ctx.pawns[t] & fm == 0 {
            penalty += if on_king_file { p.king_no_enemy_pawn } else { p.king_no_enemy_pawn_adj };
        }
    }
    -(penalty * ctx.enemy_phase[u] / 12)
}
