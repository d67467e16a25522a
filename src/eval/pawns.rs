//! Pawn structure (David Fig. 3: advance, passed, doubled, isolated, backward, weak squares,
//! passed pawn vs enemy king; Aksenov Table 3: adjacent, centre, blocked centre, far pawn;
//! Ethereal 12: backward, connected and candidate-passer tables, isolated and stacked pawns by phase;
//! Stockfish 11: passed pawns by file, weak unopposed pawns).
//! Set-wise bitboard code: a handful of shifts and popcounts per side, no per-pawn loop except
//! over passed pawns.
//!
//! The terms come in two parts so that a search can cache the first by pawn structure
//! ([`super::pawn_table`]): [`structure`] depends on the pawns alone, [`score_with_pieces`]
//! also on the other pieces (what blocks a centre pawn, where the enemy king stands). Their
//! sum is the pawn evaluation, whichever way the first part was obtained.

use shakmaty::{Bitboard, Color, Square};

use super::{
    Ctx, EvalParams, S,
    bits::{
        CENTRE, CENTRE_HOME, FAR_ZONE, FILE_CENTRALITY, FILES_CDEF, HOLE_ZONE, distance, file_fill, file_mask, file_of,
        fill_fwd, fwd, pawn_attacks, rel, rel_rank, rel_rank_sum, sideways,
    },
    term_tables::{self, Pairs, TermTables},
};

/// Passed pawn bonus factor by relative rank 0..7, multiplied by `passed_pawn_mult`.
pub const PASSED_FACTOR: [i32; 8] = [0, 1, 1, 2, 4, 7, 11, 0];
/// Weight by relative rank of the enemy king's distance to a passed pawn's promotion square.
pub const KING_DIST_WEIGHT: [i32; 8] = [0, 0, 0, 1, 1, 2, 2, 0];

/// The pawn-only part of the pawn terms, both sides: what depends on the pawns alone (and the
/// parameters), so [`super::pawn_table`] can cache it by pawn structure. [`score_with_pieces`]
/// adds the rest.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnStructure {
    /// The pawn-only terms, white minus black.
    pub score: S,
    /// Passed pawns, by colour (`Color as usize`: black 0, white 1).
    pub passed: [u64; 2],
    /// Isolated or backward pawns, by colour.
    pub weak: [u64; 2],
}

/// The [`PawnStructure`] of `ctx`'s pawns: reads only their bitboards, attacks and spans.
/// `terms`: the tables expanded, else read from `p`.
#[inline(always)]
pub(super) fn structure(ctx: &Ctx, p: &EvalParams, terms: Option<&TermTables>) -> PawnStructure {
    let (white, white_passed, white_weak) = pawn_only(ctx, p, terms, Color::White);
    let (black, black_passed, black_weak) = pawn_only(ctx, p, terms, Color::Black);
    PawnStructure { score: white - black, passed: [black_passed, white_passed], weak: [black_weak, white_weak] }
}

/// The pawn-only terms of `us`, its passed pawns and its weak (isolated or backward) pawns.
#[inline(always)]
fn pawn_only(ctx: &Ctx, p: &EvalParams, terms: Option<&TermTables>, us: Color) -> (S, u64, u64) {
    let them = !us;
    let (u, t) = (us as usize, them as usize);
    let own = ctx.pawns[u];
    let opp = ctx.pawns[t];

    // Advancement from the start rank (relative index 1).
    let n = own.count_ones() as i32;
    let centre = own & FILES_CDEF;
    let adv_all = rel_rank_sum(us, own) - n;
    let adv_centre = rel_rank_sum(us, centre) - centre.count_ones() as i32;
    let mut s = S::new(p.pawn_advance_a * adv_centre, p.pawn_advance_b * adv_all);

    // Pawns with a friendly pawn somewhere behind them on their file.
    let doubled = own & fill_fwd(us, fwd(us, own));
    let isolated = own & !sideways(ctx.pawn_files[u]);
    // Defended by a pawn, or with a pawn beside it.
    let adjacent = own & (ctx.pawn_att[u] | sideways(own));
    // Stop square attacked by an enemy pawn and never coverable by a friendly pawn.
    let backward_stops = fwd(us, own) & !ctx.pawn_span[u] & ctx.pawn_att[t];
    let backward = fwd(them, backward_stops) & own & !isolated;
    let holes = rel(us, HOLE_ZONE) & !ctx.pawn_span[u];
    let centre_pawns = own & CENTRE;

    s -= S::new(p.doubled_pawn_penalty, p.doubled_pawn_penalty) * doubled.count_ones() as i32;
    s -= S::new(p.isolated_pawn_penalty, p.isolated_pawn_penalty) * isolated.count_ones() as i32;
    s -= S::new(p.backward_pawn_penalty, p.backward_pawn_penalty) * backward.count_ones() as i32;
    s += S::new(p.adjacent_pawn, p.adjacent_pawn) * adjacent.count_ones() as i32;
    s -= S::new(p.weak_square_penalty, 0) * holes.count_ones() as i32;
    s += S::new(p.centre_pawn, 0) * centre_pawns.count_ones() as i32;

    // Passed: no enemy pawn ahead on this or an adjacent file, and no friendly pawn ahead.
    let enemy_front = fill_fwd(them, fwd(them, opp) | ctx.pawn_att[t]);
    let behind_own = fill_fwd(them, fwd(them, own));
    let passed = own & !enemy_front & !behind_own;
    let (mut factor, mut from_edge) = (0, 0);
    for sq in shakmaty::Bitboard(passed) {
        factor += PASSED_FACTOR[rel_rank(us, sq)];
        from_edge += FILE_CENTRALITY[file_of(sq)];
    }
    s += S::new(p.passed_pawn_mult * factor, 2 * p.passed_pawn_mult * factor);
    // Stockfish 11's `PassedFile`: a passer nearer the centre is easier to stop.
    s -= S::new(p.passed_file_mg, p.passed_file_eg) * from_edge;
    s += pawn_tables(ctx, p, terms, us);
    s += isolated_and_stacked(ctx, p, us);
    (s, passed, isolated | backward)
}

/// Ethereal 12's pawn tables of `us`, on its definitions, which differ from the terms above
/// (so a fit can weigh both). Backward (`PawnBackwards`): an enemy pawn attacks its stop square,
/// we have pawns on an adjacent file but none behind it on its own or an adjacent one; by rank
/// and whether an enemy pawn shares its file. Connected (`PawnConnected32`): defended by a pawn
/// or beside one, and not backward; by relative square. Candidate passer
/// (`PawnCandidatePasser`): every enemy pawn ahead on its or an adjacent file attacks it or its
/// stop square, and our pawns defend the stop square as often as theirs attack it, so it can
/// push and trade its way through; by rank and whether the pawn itself is defended as often as
/// attacked. Pawns only, so the pawn table caches them; linear (one table entry per pawn).
#[inline(always)]
fn pawn_tables(ctx: &Ctx, p: &EvalParams, terms: Option<&TermTables>, us: Color) -> S {
    let them = !us;
    let (u, t) = (us as usize, them as usize);
    let (own, opp) = (ctx.pawns[u], ctx.pawns[t]);
    let with_neighbours = own & sideways(ctx.pawn_files[u]);
    let stop_attacked = own & fwd(them, ctx.pawn_att[t]);
    let backed = fill_fwd(us, fwd(us, own | sideways(own)));
    let backward = with_neighbours & stop_attacked & !backed;
    let open = !ctx.pawn_files[t];
    let mut s = S::ZERO;
    for sq in Bitboard(backward) {
        let (open, r) = (open & (1u64 << sq.to_usize()) != 0, rel_rank(us, sq));
        s += terms.map_or_else(|| term_tables::pawn_backward(p, open, r), |e| e.pawn_backward[usize::from(open)][r]);
    }
    for sq in Bitboard(own & (ctx.pawn_att[u] | sideways(own)) & !backward) {
        let mirrored_file = FILE_CENTRALITY[file_of(sq)] as usize;
        let i = 4 * (rel_rank(us, sq) - 1) + mirrored_file;
        s += terms.map_or_else(|| term_tables::pawn_connected(p, i), |e| e.pawn_connected[i]);
    }
    // Not passed: an enemy pawn (a stopper) ahead on its or an adjacent file.
    for sq in Bitboard(own & fill_fwd(them, fwd(them, opp | sideways(opp)))) {
        let bit = 1u64 << sq.to_usize();
        let stop = fwd(us, bit);
        let stoppers = opp & fill_fwd(us, stop | sideways(stop));
        let threats = opp & pawn_attacks(us, bit);
        let push_threats = opp & pawn_attacks(us, stop);
        let push_support = own & pawn_attacks(them, stop);
        if stoppers & !threats & !push_threats == 0 && push_support.count_ones() >= push_threats.count_ones() {
            let held = (own & pawn_attacks(them, bit)).count_ones() >= threats.count_ones();
            let r = rel_rank(us, sq);
            s += terms
                .map_or_else(|| term_tables::pawn_candidate(p, held, r), |e| e.pawn_candidate[usize::from(held)][r]);
        }
    }
    s
}

/// Ethereal 12's isolated and stacked pawns of `us`, by phase where ours have one value
/// (`isolated_pawn_penalty`, `doubled_pawn_penalty`). Isolated (`PawnIsolated`, here by
/// mirrored file): no own pawn on an adjacent file and no enemy pawn to capture, which could
/// reconnect it. Stacked (`PawnStacked`): every pawn on a file with another of ours (ours count
/// all but the rearmost), by whether it may undouble: a stopper ahead that it or a neighbour can
/// capture, or one on an adjacent file. Pawns only, so the pawn table caches them.
#[inline(always)]
fn isolated_and_stacked(ctx: &Ctx, p: &EvalParams, us: Color) -> S {
    let them = !us;
    let (own, opp) = (ctx.pawns[us as usize], ctx.pawns[them as usize]);
    let count = |b: u64| b.count_ones() as i32;
    let isolated = own & !sideways(ctx.pawn_files[us as usize]) & !pawn_attacks(them, opp);
    // Files a/h, b/g, c/f, d/e.
    let files = |f: usize| file_mask(f) | file_mask(7 - f);
    let mut s = S::new(p.pawn_isolated_a_mg, p.pawn_isolated_a_eg) * count(isolated & files(0))
        + S::new(p.pawn_isolated_b_mg, p.pawn_isolated_b_eg) * count(isolated & files(1))
        + S::new(p.pawn_isolated_c_mg, p.pawn_isolated_c_eg) * count(isolated & files(2))
        + S::new(p.pawn_isolated_d_mg, p.pawn_isolated_d_eg) * count(isolated & files(3));
    // Pawns behind another of ours mark the files with several.
    let stacked = own & file_fill(own & fill_fwd(them, fwd(them, own)));
    let (mut fixed, mut unstackable) = (0, 0);
    for sq in Bitboard(stacked) {
        let bit = 1u64 << sq.to_usize();
        let ahead = fill_fwd(us, fwd(us, bit));
        let stoppers = opp & (ahead | sideways(ahead));
        let levers = (opp & pawn_attacks(us, bit)) | (own & sideways(file_mask(file_of(sq))));
        if (stoppers != 0 && levers != 0) || stoppers & sideways(ahead) != 0 {
            unstackable += 1;
        } else {
            fixed += 1;
        }
    }
    s += S::new(p.pawn_stacked_fixed_mg, p.pawn_stacked_fixed_eg) * fixed
        + S::new(p.pawn_stacked_unstackable_mg, p.pawn_stacked_unstackable_eg) * unstackable;
    s
}

/// The pawn terms of `us` that depend on other pieces too: centre pawns blocked by whatever
/// stands on their stop square, the enemy king's distance from our passed pawns' promotion
/// squares, and our weak (isolated or backward) pawns with no enemy pawn ahead on their file,
/// targets for the enemy's rooks and queens on that file, counted when it has one (Stockfish
/// 10's `WeakUnopposedPawn`; Stockfish 11 counts them with the pawns alone). Needs `ctx.passed`
/// and `ctx.weak_pawns`; `w`: the pairs packed.
#[inline(always)]
pub(super) fn score_with_pieces(ctx: &Ctx, p: &EvalParams, w: &Pairs, us: Color) -> S {
    let them = !us;
    let (u, t) = (us as usize, them as usize);
    let blocked = ctx.pawns[u] & rel(us, CENTRE_HOME) & fwd(them, ctx.occ);
    let mut s = -(S::new(p.blocked_centre_pawn, 0) * blocked.count_ones() as i32);
    if ctx.rooks[t] | ctx.queens[t] != 0 {
        // Enemy pawns and every square in front of them (towards us): our pawns there are opposed.
        let unopposed = ctx.weak_pawns[u] & !fill_fwd(them, ctx.pawns[t]);
        s -= w.pawn_weak_unopposed * unopposed.count_ones() as i32;
    }
    let passed = ctx.passed[u];
    if passed != 0 {
        let enemy_king = ctx.king[t];
        let promo_rank = if us == Color::White { 56 } else { 0 };
        let mut king_dist = 0;
        for sq in shakmaty::Bitboard(passed) {
            let promo = Square::new((promo_rank + file_of(sq)) as u32);
            king_dist += KING_DIST_WEIGHT[rel_rank(us, sq)] * distance(enemy_king, promo);
        }
        s += S::new(0, p.passed_pawn_enemy_king_dist * king_dist);
    }
    s
}

/// Passed pawns of `us` by what stands in their way (after Ethereal's passed-pawn terms):
/// blocked, free to advance one square, a path to promotion the enemy neither occupies nor
/// attacks, and our king's distance from the square in front. Each term grows with the
/// passer's rank factor (or, for the king, its distance weight). Needs both sides' complete
/// attack maps.
///
/// Also Ethereal 12's passed-pawn tables, on their own definitions: an entry by rank, whether
/// the stop square is empty and whether the enemy does not attack it (`PassedPawn`); per
/// square of our king's and of the enemy king's distance to the pawn, by rank
/// (`PassedFriendlyDistance`, `PassedEnemyDistance`); and a flat bonus when neither the pawn's
/// square nor its path holds an enemy piece or an enemy-attacked square
/// (`PassedSafePromotionPath`). Ethereal skips the distances for a passer with another of ours
/// ahead on its file; our passers never have one. `terms`: the tables expanded, else read from
/// `p`; `w`: the pairs packed.
#[inline(always)]
pub(super) fn passer_path(ctx: &Ctx, p: &EvalParams, terms: Option<&TermTables>, w: &Pairs, us: Color) -> S {
    let (u, t) = (us as usize, !us as usize);
    let passed = ctx.passed[u];
    if passed == 0 {
        return S::ZERO;
    }
    let own_king = ctx.king[u];
    let enemy = ctx.occupied_by[t] | ctx.attacked[t];
    let (mut blocked, mut safe_push, mut free_path, mut king_dist) = (0, 0, 0, 0);
    let (mut tables, mut safe_promotion) = (S::ZERO, 0);
    for sq in shakmaty::Bitboard(passed) {
        let r = rel_rank(us, sq);
        let factor = PASSED_FACTOR[r];
        let bit = 1u64 << sq.to_usize();
        let stop = fwd(us, bit);
        let path = fill_fwd(us, stop);
        if stop & ctx.occ != 0 {
            blocked += factor;
        } else if stop & ctx.attacked[t] & !ctx.attacked[u] == 0 {
            safe_push += factor;
        }
        if path & enemy == 0 {
            free_path += factor;
        }
        let (free, unattacked) = (stop & ctx.occ == 0, stop & ctx.attacked[t] == 0);
        let (by_rank, friendly, hostile) = match terms {
            Some(e) => (
                e.passed_rank[r][usize::from(free)][usize::from(unattacked)],
                e.passed_friendly_distance[r],
                e.passed_enemy_distance[r],
            ),
            None => (
                term_tables::passed_rank(p, free, unattacked, r),
                term_tables::passed_friendly_distance(p, r),
                term_tables::passed_enemy_distance(p, r),
            ),
        };
        tables += by_rank + friendly * distance(sq, own_king) + hostile * distance(sq, ctx.king[t]);
        safe_promotion += i32::from((bit | path) & enemy == 0);
        if stop != 0 {
            let stop_sq = Square::new(stop.trailing_zeros());
            king_dist += KING_DIST_WEIGHT[r] * distance(own_king, stop_sq);
        }
    }
    w.passed_blocked * -blocked + w.passed_safe_push * safe_push + w.passed_free_path * free_path
        - w.passed_own_king_dist * king_dist
        + tables
        + w.passed_safe_promotion_path * safe_promotion
}

/// Pawns of `us` on relative ranks 6-7 that no enemy piece attacks (Aksenov's "far pawn");
/// needs the complete attack map of the enemy.
#[inline(always)]
pub(super) fn far_pawns(ctx: &Ctx, w: &Pairs, us: Color) -> S {
    let far = ctx.pawns[us as usize] & rel(us, FAR_ZONE) & !ctx.attacked[!us as usize];
    w.far_pawn * far.count_ones() as i32
}
