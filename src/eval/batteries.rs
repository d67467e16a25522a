//! Majors lined up on a file without our pawns: two rooks, or a rook and a queen, that see each
//! other (doubled rooks, a battery). Our `rook_connected` counts rooks defending each other
//! along a rank or a file, with one value for both phases; these count only the file, where
//! the pair presses together, and a rook with the queen too. Counts times parameter pairs, 0 by
//! default; one rook attack lookup per rook on such a file.

use shakmaty::{Bitboard, Color, attacks};

use super::{
    Ctx, S,
    bits::{file_mask, file_of},
    term_tables::Pairs,
};

/// The batteries of `us`.
#[inline(always)]
pub(super) fn score(ctx: &Ctx, w: &Pairs, us: Color) -> S {
    let u = us as usize;
    let rooks = ctx.rooks[u] & !ctx.pawn_files[u];
    // A lone such rook with no queen on its file sees no partner.
    if rooks == 0 || (rooks & (rooks - 1) == 0 && file_mask(rooks.trailing_zeros() as usize & 7) & ctx.queens[u] == 0) {
        return S::ZERO;
    }
    let (mut seen_rooks, mut with_queen) = (0, 0);
    for sq in Bitboard(rooks) {
        let file = attacks::rook_attacks(sq, Bitboard(ctx.occ)).0 & file_mask(file_of(sq));
        seen_rooks += (file & rooks).count_ones() as i32;
        with_queen += (file & ctx.queens[u]).count_ones() as i32;
    }
    // Each doubled pair was seen from both rooks.
    w.rook_doubled * (seen_rooks / 2) + w.rook_queen_battery * with_queen
}
