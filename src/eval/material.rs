//! Material: piece counts times tapered piece values (David Fig. 3 / Aksenov Table 3 values).

use shakmaty::{Board, Color, Role};

use super::{Ctx, EvalParams, S};

/// White-minus-black material, `values` as [`super::term_tables::Pairs::material`]. Counts each
/// side's piece sets of `ctx`, as the material-table key does: the compiler counts them once
/// for both.
#[inline(always)]
pub(super) fn score(ctx: &Ctx, values: &[S; 5]) -> S {
    let diff = |bb: [u64; 2]| bb[1].count_ones() as i32 - bb[0].count_ones() as i32;
    values[0] * diff(ctx.pawns)
        + values[1] * diff(ctx.knights)
        + values[2] * diff(ctx.bishops)
        + values[3] * diff(ctx.rooks)
        + values[4] * diff(ctx.queens)
}

/// Value of one piece of `role` (kings have none).
pub fn value(p: &EvalParams, role: Role) -> S {
    match role {
        Role::Pawn => S::new(p.pawn_mg, p.pawn_eg),
        Role::Knight => S::new(p.knight_mg, p.knight_eg),
        Role::Bishop => S::new(p.bishop_mg, p.bishop_eg),
        Role::Rook => S::new(p.rook_mg, p.rook_eg),
        Role::Queen => S::new(p.queen_mg, p.queen_eg),
        Role::King => S::ZERO,
    }
}

/// Non-pawn material of `c` in phase units (N, B = 1, R = 2, Q = 4), capped at 12: scales king
/// safety by how much attacking force the opponent has left.
#[inline(always)]
pub(super) fn side_phase(board: &Board, c: Color) -> i32 {
    non_pawn_units(board, c).min(12)
}

/// `c`'s non-pawn material in phase units (N, B = 1, R = 2, Q = 4), uncapped.
#[inline(always)]
pub(super) fn non_pawn_units(board: &Board, c: Color) -> i32 {
    let us = board.by_color(c).0;
    let n = (board.knights().0 & us).count_ones()
        + (board.bishops().0 & us).count_ones()
        + 2 * (board.rooks().0 & us).count_ones()
        + 4 * (board.queens().0 & us).count_ones();
    n as i32
}
