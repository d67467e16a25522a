//! Material imbalance (after Stockfish's classical `imbalance`): what a piece is worth beside
//! the other material, as products of piece counts. The piece values alone cannot say that a
//! knight gains with pawns on the board, that two rooks or a rook and a queen overlap, or what
//! the bishop pair is worth in each phase. Counts: the bishop pair (0 or 1), pawns, knights,
//! bishops, rooks, queens. Ours (`QuadraticOurs`): per piece of kind a, our pieces of kind b
//! (b up to a); theirs (`QuadraticTheirs`): per piece of kind a, the enemy's pieces of kind b
//! (b below a; the rest would cancel between the sides). Linear in every parameter (the
//! coefficient is a count product), 0 by default; a handful of multiplies per evaluation.

use super::{Ctx, EvalParams, S};

/// The imbalance, white minus black. Reads the piece bitboards only.
#[inline(always)]
pub(super) fn score(ctx: &Ctx, p: &EvalParams) -> S {
    let counts = |c: usize| {
        let n = |b: u64| b.count_ones() as i32;
        [i32::from(n(ctx.bishops[c]) >= 2), n(ctx.pawns[c]), n(ctx.knights[c]), n(ctx.bishops[c]), n(ctx.rooks[c]), n(ctx.queens[c])]
    };
    let (w, b) = (counts(1), counts(0));
    // Equal material cancels term by term: the common case in a search, skipped for its cost.
    if w == b {
        return S::ZERO;
    }
    // White's products less black's: ours a×b, theirs a against the enemy's b.
    let ours = |x: usize, y: usize| w[x] * w[y] - b[x] * b[y];
    let theirs = |x: usize, y: usize| w[x] * b[y] - b[x] * w[y];
    S::new(p.imbalance_ours_pair_pair_mg, p.imbalance_ours_pair_pair_eg) * ours(0, 0)
        + S::new(p.imbalance_ours_pawn_pair_mg, p.imbalance_ours_pawn_pair_eg) * ours(1, 0)
        + S::new(p.imbalance_ours_pawn_pawn_mg, p.imbalance_ours_pawn_pawn_eg) * ours(1, 1)
        + S::new(p.imbalance_ours_knight_pair_mg, p.imbalance_ours_knight_pair_eg) * ours(2, 0)
        + S::new(p.imbalance_ours_knight_pawn_mg, p.imbalance_ours_knight_pawn_eg) * ours(2, 1)
        + S::new(p.imbalance_ours_knight_knight_mg, p.imbalance_ours_knight_knight_eg) * ours(2, 2)
        + S::new(p.imbalance_ours_bishop_pair_mg, p.imbalance_ours_bishop_pair_eg) * ours(3, 0)
        + S::new(p.imbalance_ours_bishop_pawn_mg, p.imbalance_ours_bishop_pawn_eg) * ours(3, 1)
        + S::new(p.imbalance_ours_bishop_knight_mg, p.imbalance_ours_bishop_knight_eg) * ours(3, 2)
        + S::new(p.imbalance_ours_bishop_bishop_mg, p.imbalance_ours_bishop_bishop_eg) * ours(3, 3)
        + S::new(p.imbalance_ours_rook_pair_mg, p.imbalance_ours_rook_pair_eg) * ours(4, 0)
        + S::new(p.imbalance_ours_rook_pawn_mg, p.imbalance_ours_rook_pawn_eg) * ours(4, 1)
        + S::new(p.imbalance_ours_rook_knight_mg, p.imbalance_ours_rook_knight_eg) * ours(4, 2)
        + S::new(p.imbalance_ours_rook_bishop_mg, p.imbalance_ours_rook_bishop_eg) * ours(4, 3)
        + S::new(p.imbalance_ours_rook_rook_mg, p.imbalance_ours_rook_rook_eg) * ours(4, 4)
        + S::new(p.imbalance_ours_queen_pair_mg, p.imbalance_ours_queen_pair_eg) * ours(5, 0)
        + S::new(p.imbalance_ours_queen_pawn_mg, p.imbalance_ours_queen_pawn_eg) * ours(5, 1)
        + S::new(p.imbalance_ours_queen_knight_mg, p.imbalance_ours_queen_knight_eg) * ours(5, 2)
        + S::new(p.imbalance_ours_queen_bishop_mg, p.imbalance_ours_queen_bishop_eg) * ours(5, 3)
        + S::new(p.imbalance_ours_queen_rook_mg, p.imbalance_ours_queen_rook_eg) * ours(5, 4)
        + S::new(p.imbalance_ours_queen_queen_mg, p.imbalance_ours_queen_queen_eg) * ours(5, 5)
        + S::new(p.imbalance_theirs_pawn_pair_mg, p.imbalance_theirs_pawn_pair_eg) * theirs(1, 0)
        + S::new(p.imbalance_theirs_knight_pair_mg, p.imbalance_theirs_knight_pair_eg) * theirs(2, 0)
        + S::new(p.imbalance_theirs_knight_pawn_mg, p.imbalance_theirs_knight_pawn_eg) * theirs(2, 1)
        + S::new(p.imbalance_theirs_bishop_pair_mg, p.imbalance_theirs_bishop_pair_eg) * theirs(3, 0)
        + S::new(p.imbalance_theirs_bishop_pawn_mg, p.imbalance_theirs_bishop_pawn_eg) * theirs(3, 1)
        + S::new(p.imbalance_theirs_bishop_knight_mg, p.imbalance_theirs_bishop_knight_eg) * theirs(3, 2)
        + S::new(p.imbalance_theirs_rook_pair_mg, p.imbalance_theirs_rook_pair_eg) * theirs(4, 0)
        + S::new(p.imbalance_theirs_rook_pawn_mg, p.imbalance_theirs_rook_pawn_eg) * theirs(4, 1)
        + S::new(p.imbalance_theirs_rook_knight_mg, p.imbalance_theirs_rook_knight_eg) * theirs(4, 2)
        + S::new(p.imbalance_theirs_rook_bishop_mg, p.imbalance_theirs_rook_bishop_eg) * theirs(4, 3)
        + S::new(p.imbalance_theirs_queen_pair_mg, p.imbalance_theirs_queen_pair_eg) * theirs(5, 0)
        + S::new(p.imbalance_theirs_queen_pawn_mg, p.imbalance_theirs_queen_pawn_eg) * theirs(5, 1)
        + S::new(p.imbalance_theirs_queen_knight_mg, p.imbalance_theirs_queen_knight_eg) * theirs(5, 2)
        + S::new(p.imbalance_theirs_queen_bishop_mg, p.imbalance_theirs_queen_bishop_eg) * theirs(5, 3)
        + S::new(p.imbalance_theirs_queen_rook_mg, p.imbalance_theirs_queen_rook_eg) * theirs(5, 4)
}
