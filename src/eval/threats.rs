//! Threats (after Ethereal 12's `evaluateThreats`): pieces attacked by cheaper pieces or left
//! poorly defended, and safe pawn pushes that would attack an enemy piece; after Stockfish 11's
//! `threats`, enemy pieces attacked by our safe pawns and the safe squares from which a piece of
//! ours would attack the enemy queen next move. A static evaluation that ignores them trusts
//! positions where a piece is about to be lost; quiescence only sees the captures of the side
//! to move, and only down to its stand-pat.

use shakmaty::{Color, Square, attacks};

use super::{
    Ctx, S,
    bits::{BISHOP_LINES, ROOK_LINES, fwd, pawn_attacks, rel},
};

/// How many threat counts [`counts`] gives (and weights [`super::term_tables::Pairs::threats`]
/// holds).
pub(super) const THREATS: usize = 15;

/// Relative rank 3 (white's view): a pawn that gets there may still push two squares.
const RANK_3: u64 = 0x0000_0000_00ff_0000;

/// Threat terms, white less black: against each side's pieces (negative) and by its pawn
/// pushes (positive), `weights` as [`super::term_tables::Pairs::threats`]. Needs both sides'
/// piece terms done first (the attack maps are complete). Both sides at once: each weight is
/// applied once, to the difference of the counts (exact: the packed S arithmetic is integer,
/// so w × a − w × b = w × (a − b)).
#[inline(always)]
pub(super) fn score(ctx: &Ctx, weights: &[S; THREATS]) -> S {
    let (w, b) = (counts(ctx, Color::White), counts(ctx, Color::Black));
    (0..THREATS).fold(S::ZERO, |s, i| s + weights[i] * (w[i] - b[i]))
}

/// The threats against the pieces of `us` and by its pawn pushes, counted in the order of
/// [`super::term_tables::Pairs::threats`]: weak pawns, minors by pawns, by minors, weak minors
/// by majors, rooks by lesser pieces, weak minors by the king, weak rooks by the king, attacked
/// queens, push threats;
/// then the loose pieces (all subtracted): pieces attacked once and defended
/// once, so one defender guards two things or an exchange decides (Ethereal 12's
/// `ThreatOverloadedPieces`); pieces attacked and not defended at all (after Stockfish's
/// `Hanging`); a queen attacked by anything cheaper than a queen (after Stockfish's
/// `ThreatByMinor`/`ThreatByRook` on the queen; `threat_queen` counts any attacker, the king and
/// the queen too);
/// then the threats `us` makes, after Stockfish 11 (all added): enemy knights, bishops, rooks
/// and queens attacked by our pawns that the enemy does not attack or we defend
/// (`ThreatBySafePawn`; `threat_minor_by_pawn` and `threat_rook_by_lesser` count any pawn, from
/// the attacked side), and, while the enemy has exactly one queen, the safe squares (our
/// mobility area less what the enemy defends strongly: by a pawn, or twice where we attack at
/// most once) that our knights attack and from which a knight would attack the queen
/// (`KnightOnQueen`), and those we attack twice, a bishop or rook of ours among them, from which
/// that slider would attack the queen (`SliderOnQueen`). Our attack maps have no x-rays, which
/// Stockfish's have.
#[inline(always)]
fn counts(ctx: &Ctx, us: Color) -> [i32; THREATS] {
    let (u, t) = (us as usize, !us as usize);
    let minors = ctx.knights[u] | ctx.bishops[u];
    let rooks = ctx.rooks[u];
    let by_pawns = ctx.pawn_att[t];
    let by_minors = ctx.att_knight[t] | ctx.att_bishop[t];
    let by_majors = ctx.att_rook[t] | ctx.att_queen[t];
    // Attacked and undefended, or attacked twice, defended once and not by a pawn.
    let poorly_defended =
        (ctx.attacked[t] & !ctx.attacked[u]) | (ctx.attacked2[t] & !ctx.attacked2[u] & !ctx.pawn_att[u]);
    let weak_minors = minors & poorly_defended;

    // Enemy pieces that one of our pawn pushes (single, or double from the start) would attack,
    // where the pushed pawn is not lost at once: not onto a square an enemy pawn attacks, and
    // onto one we defend or they do not attack.
    let empty = !ctx.occ;
    let single = fwd(us, ctx.pawns[u]) & empty;
    let double = fwd(us, single & !by_pawns & rel(us, RANK_3)) & empty;
    let safe_pushes = (single | double) & !by_pawns & (ctx.attacked[u] | !ctx.attacked[t]);
    let enemy_pieces = ctx.knights[t] | ctx.bishops[t] | ctx.rooks[t] | ctx.queens[t];
    let push_threats = pawn_attacks(us, safe_pushes) & enemy_pieces & !ctx.pawn_att[u];
    let pieces = minors | rooks | ctx.queens[u];
    let attacked = pieces & ctx.attacked[t];
    let overloaded = attacked & !ctx.attacked2[t] & ctx.attacked[u] & !ctx.attacked2[u];
    let lesser = by_pawns | by_minors | ctx.att_rook[t];

    let safe_pawns = ctx.pawns[u] & (!ctx.attacked[t] | ctx.attacked[u]);
    let (mut knight_on_queen, mut slider_on_queen) = (0, 0);
    // The enemy's one queen: its attacks are `att_queen` alone.
    if ctx.queens[t].is_power_of_two() {
        let queen = Square::new(ctx.queens[t].trailing_zeros());
        let strongly_protected = by_pawns | (ctx.attacked2[t] & !ctx.attacked2[u]);
        let safe = ctx.mob_area[u] & !strongly_protected;
        knight_on_queen = ctx.att_knight[u] & attacks::knight_attacks(queen).0 & safe;
        // The queen's own attacks, on its diagonals and on its file and rank, are where a bishop
        // or a rook would attack it from (no lookup).
        let i = queen.to_usize();
        slider_on_queen = ((ctx.att_bishop[u] & BISHOP_LINES[i]) | (ctx.att_rook[u] & ROOK_LINES[i]))
            & ctx.att_queen[t]
            & safe
            & ctx.attacked2[u];
    }

    [
        ctx.pawns[u] & !by_pawns & poorly_defended,
        minors & by_pawns,
        minors & by_minors,
        weak_minors & by_majors,
        rooks & (by_pawns | by_minors),
        weak_minors & ctx.att_king[t],
        rooks & poorly_defended & ctx.att_king[t],
        ctx.queens[u] & ctx.attacked[t],
        push_threats,
        overloaded,
        attacked & !ctx.attacked[u],
        ctx.queens[u] & lesser,
        pawn_attacks(us, safe_pawns) & enemy_pieces,
        knight_on_queen,
        slider_on_queen,
    ]
    .map(|b| b.count_ones() as i32)
}
