//! Material: piece counts times tapered piece values (David Fig. 3 / Aksenov Table 3 values).

use shakmaty::{Board, Color, Role};

use super::{EvalParams, S};

/// White-minus-black material.
#[inline(always)]
pub(super) fn score(board: &Board, p: &EvalParams) -> S {
    let w = board.white().0;
    let diff = |bb: u64| (bb & w).count_ones() as i32 - (bb & !w).count_ones() as i32;
    S::new(p.pawn_mg, p.pawn_eg) * diff(board.pawns().0)
        + S::new(p.knight_mg, p.knight_eg) * diff(board.knights().0)
        + S::new(p.bishop_mg, p.bishop_eg) * diff(board.bishops().0)
        + S::new(p.rook_mg, p.rook_eg) * diff(board.rooks().0)
        + S::new(p.queen_mg, p.queen_eg) * diff(board.queens().0)
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
