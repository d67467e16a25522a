//! Ethereal 12's complexity (`evaluateComplexity`): a correction to the endgame sum, after
//! every other term and before the endgame scale, by how much play the position has left: all
//! pawns, pawns on both flanks, a pawn ending, and a constant. It moves the endgame sum toward
//! zero (or away from it), never past zero: `sign(eg) · max(complexity, −|eg|)`. Endgame only
//! (Ethereal's middlegame weights are 0).

use super::{Ctx, EvalParams};

/// Files a to d, Ethereal's `LEFT_FLANK` (its `RIGHT_FLANK` is the other four).
const LEFT_FLANK: u64 = 0x0f0f_0f0f_0f0f_0f0f;

/// How many weights the complexity has ([`WEIGHTS`]).
pub const TERMS: usize = 4;

/// The complexity's weights, in the order of [`weights`] and [`features`]: the complexity is
/// `Σ feature · weight`, linear in them; the sign and the clamp make the term non-linear (the
/// tracer records the features, the tuner recomputes the term).
pub const WEIGHTS: [&str; TERMS] =
    ["complexity_total_pawns", "complexity_pawn_flanks", "complexity_pawn_endgame", "complexity_adjustment"];

/// The values of [`WEIGHTS`] in `p`.
pub fn weights(p: &EvalParams) -> [i32; TERMS] {
    [p.complexity_total_pawns, p.complexity_pawn_flanks, p.complexity_pawn_endgame, p.complexity_adjustment]
}

/// The position's features, the coefficients of [`WEIGHTS`]: the number of pawns (0 to 16),
/// pawns on both flanks (0 or 1), no knight, bishop, rook or queen (0 or 1), and 1.
#[inline(always)]
pub(crate) fn features(ctx: &Ctx) -> [i32; TERMS] {
    let pawns = ctx.pawns[0] | ctx.pawns[1];
    let pieces = [ctx.knights, ctx.bishops, ctx.rooks, ctx.queens].iter().fold(0, |a, bb| a | bb[0] | bb[1]);
    let both_flanks = pawns & LEFT_FLANK != 0 && pawns & !LEFT_FLANK != 0;
    [pawns.count_ones() as i32, i32::from(both_flanks), i32::from(pieces == 0), 1]
}

/// The complexity `Σ features · weights` applied to the endgame sum `eg` (white's view): what
/// to add to it, `sign(eg) · max(complexity, −|eg|)`, which never flips its sign.
#[inline(always)]
pub fn apply(features: &[i32; TERMS], weights: &[i32; TERMS], eg: i32) -> i32 {
    let complexity: i32 = features.iter().zip(weights).map(|(f, w)| f * w).sum();
    eg.signum() * complexity.max(-eg.abs())
}
