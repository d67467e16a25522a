//! Space and closedness (after Ethereal 12's `evaluateSpace` and `evaluateClosedness`): squares
//! where the enemy outnumbers our attackers restrict our pieces; uncontested central squares
//! are room to manoeuvre while many pieces are on the board; and how closed the pawns are
//! shifts the worth of knights (which like closed positions) and rooks (which want open files).
//! Every term is linear (a count times a parameter, or a table entry by a count), 0 by default.

use shakmaty::Color;

use super::{
    Ctx, EvalParams, S,
    bits::fwd,
    term_tables::{self, Pairs, TermTables},
};

/// c3-f6: the centre the space term counts.
const CENTRE_BIG: u64 = 0x0000_3c3c_3c3c_0000;

/// Space, white less black: squares a side attacks once, the enemy twice and none of its pawns
/// defends, occupied (`SpaceRestrictPiece`) or empty (`SpaceRestrictEmpty`); with more than 12
/// units of pieces on the board (minors 1, rooks and queens 2), the squares of c3-f6 it attacks
/// or occupies and the enemy does not attack (`SpaceCenterControl`). Needs both sides' complete
/// attack maps. (Our twice-attacked map counts two pawns attacking a square; Ethereal's does
/// not.) Both sides at once: each weight is applied once, to the difference of the counts.
#[inline(always)]
pub(super) fn space(ctx: &Ctx, w: &Pairs) -> S {
    let count = |b: u64| b.count_ones() as i32;
    let uncontrolled = |u: usize, t: usize| ctx.attacked2[t] & ctx.attacked[u] & !ctx.attacked2[u] & !ctx.pawn_att[u];
    let (white, black) = (uncontrolled(1, 0), uncontrolled(0, 1));
    let mut s = w.space_restrict_piece * (count(white & ctx.occ) - count(black & ctx.occ))
        + w.space_restrict_empty * (count(white & !ctx.occ) - count(black & !ctx.occ));
    let minors = ctx.knights[0] | ctx.knights[1] | ctx.bishops[0] | ctx.bishops[1];
    let majors = ctx.rooks[0] | ctx.rooks[1] | ctx.queens[0] | ctx.queens[1];
    if count(minors) + 2 * count(majors) > 12 {
        let centre = |u: usize, t: usize| !ctx.attacked[t] & (ctx.attacked[u] | ctx.occupied_by[u]) & CENTRE_BIG;
        s += w.space_centre_control * (count(centre(1, 0)) - count(centre(0, 1)));
    }
    s
}

/// Knights and rooks by how closed the position is, white's view: closedness = (pawns + 3 ×
/// rammed pawn pairs − 4 × files without a pawn) / 3, from 0 to 8; a table entry per piece of
/// each kind white has more than black (`ClosednessKnightAdjustment`,
/// `ClosednessRookAdjustment`). `terms`: the tables expanded, else read from `p`.
#[inline(always)]
pub(super) fn closedness(ctx: &Ctx, p: &EvalParams, terms: Option<&TermTables>) -> S {
    let count = |b: u64| b.count_ones() as i32;
    let pawns = ctx.pawns[0] | ctx.pawns[1];
    // White pawns with a black pawn just in front.
    let rammed = ctx.pawns[1] & fwd(Color::Black, ctx.pawns[0]);
    let open_files = 8 - count((ctx.pawn_files[0] | ctx.pawn_files[1]) & 0xff);
    let closedness = ((count(pawns) + 3 * count(rammed) - 4 * open_files) / 3).clamp(0, 8) as usize;
    let (knight, rook) = match terms {
        Some(t) => (t.closedness_knight[closedness], t.closedness_rook[closedness]),
        None => (term_tables::closedness_knight(p, closedness), term_tables::closedness_rook(p, closedness)),
    };
    knight * (count(ctx.knights[1]) - count(ctx.knights[0])) + rook * (count(ctx.rooks[1]) - count(ctx.rooks[0]))
}
