//! Ethereal 12's piece terms beside ours, on its definitions and with a middlegame and an
//! endgame value each where ours have one value for both phases: knight and bishop outposts by
//! file (a/h or not) and pawn support (`KnightOutpost`, `BishopOutpost`; ours weigh knights by
//! rank and count only supported bishops), rooks on open and semi-open files (`RookFile`), on
//! the seventh rank with the enemy king on its last two (`RookOnSeventh`; ours also count
//! pawns there), and bishops by their own rammed pawns of their colour (`BishopRammedPawns`;
//! ours count all our pawns of the colour). Every term is a count times a parameter pair, 0 by
//! default; set operations on the piece bitboards, no per-piece loop.

use shakmaty::Color;

use super::{
    Ctx, S,
    bits::{DARK_SQUARES, FILE_A, FILE_H, OUTPOST_ZONE, fwd, rel},
    term_tables::Pairs,
};

/// Relative rank 7, white's view.
const RANK_7: u64 = 0x00ff_0000_0000_0000;

/// The terms of `us`. Reads the pawn attack maps and spans (set up before any term).
#[inline(always)]
pub(super) fn score(ctx: &Ctx, w: &Pairs, us: Color) -> S {
    let (u, t) = (us as usize, !us as usize);
    let count = |b: u64| b.count_ones() as i32;
    let mut s = S::ZERO;
    // Ranks 4-6 where no enemy pawn can ever attack.
    let outposts = rel(us, OUTPOST_ZONE) & !ctx.pawn_span[t];
    let (edge, defended) = (FILE_A | FILE_H, ctx.pawn_att[u]);
    // Outposts by [edge][defended], as in `Pairs`.
    let outpost = |on: u64, pairs: &[[S; 2]; 2]| {
        pairs[0][0] * count(on & !edge & !defended)
            + pairs[0][1] * count(on & !edge & defended)
            + pairs[1][0] * count(on & edge & !defended)
            + pairs[1][1] * count(on & edge & defended)
    };
    let knights = ctx.knights[u] & outposts;
    if knights != 0 {
        s += outpost(knights, &w.knight_outpost_by_file);
    }
    let bishops = ctx.bishops[u];
    if bishops != 0 {
        let on = bishops & outposts;
        if on != 0 {
            s += outpost(on, &w.bishop_outpost_by_file);
        }
        // Our pawns with an enemy pawn just in front, per bishop of their square colour.
        let rammed = ctx.pawns[u] & fwd(!us, ctx.pawns[t]);
        if rammed != 0 {
            let rammed_count = count(bishops & DARK_SQUARES) * count(rammed & DARK_SQUARES)
                + count(bishops & !DARK_SQUARES) * count(rammed & !DARK_SQUARES);
            s += w.bishop_rammed_pawns * rammed_count;
        }
    }
    let rooks = ctx.rooks[u];
    if rooks != 0 {
        let on_open = rooks & !ctx.pawn_files[u];
        if on_open != 0 {
            s += w.rook_file_open * count(on_open & !ctx.pawn_files[t])
                + w.rook_file_semi_open * count(on_open & ctx.pawn_files[t]);
        }
        if ctx.kings[t] & rel(us, RANK_7 | RANK_7 << 8) != 0 {
            s += w.rook_on_seventh * count(rooks & rel(us, RANK_7));
        }
    }
    s
}
