//! Knights, bishops, rooks and queens: mobility (attack sets masked, no move generation; a
//! linear term, a cramp penalty and a table by move count and phase),
//! centrality, outposts, rook files, the seventh rank, connected rooks, rooks and passed pawns,
//! rooks aimed at the enemy king, back-rank minors (David Fig. 3, Aksenov Table 3); minors behind
//! a pawn, knights far from both kings, bishops on a long diagonal, queens on a line with an
//! enemy slider behind one piece (Ethereal 12); minors far from their king, minors that can
//! reach an outpost, rooks on a queen's file, rooks shut in by their own king (Stockfish 11).
//! Also records each side's attack maps (all, twice, per piece kind), its pressure on the enemy
//! king zone and its king attackers for the later terms.

use shakmaty::{Bitboard, Color, attacks};

use super::{
    Ctx, EvalParams, S,
    bits::{
        BISHOP_LINES, CENTRALITY, CENTRE, DARK_SQUARES, FILE_CENTRALITY, LONG_DIAGONALS, OUTPOST_ZONE, RANK_1,
        ROOK_LINES, WITHIN_3, distance, file_mask, file_of, fill_fwd, fwd, rel, rel_rank,
    },
    mobility_tables::{self, MobilityTable},
    term_tables::{self, Pairs, TermTables},
};

/// Piece terms of `us`. Needs both sides' pawn terms (passed and weak pawns) done first.
/// `tables` and `terms`: the mobility and term tables expanded (the search's evaluator), else
/// read from `p`; `w`: the pairs packed.
#[inline(always)]
pub(super) fn score(
    ctx: &mut Ctx,
    p: &EvalParams,
    tables: Option<&MobilityTable>,
    terms: Option<&TermTables>,
    w: &Pairs,
    us: Color,
) -> S {
    let them = !us;
    let (u, t) = (us as usize, them as usize);
    let occ = ctx.occ;
    let area = ctx.mob_area[u];
    let enemy_zone = ctx.king_zone[t];
    let outposts = rel(us, OUTPOST_ZONE) & !ctx.pawn_span[t];
    let support = ctx.pawn_att[u];
    let back_rank = rel(us, RANK_1);
    let all_pawns = ctx.pawns[0] | ctx.pawns[1];
    // Squares just behind a pawn (either colour), from our side: a minor there is shielded from
    // frontal attack and the pawn from the front (Ethereal 12's KnightBehindPawn/BishopBehindPawn).
    let behind_pawn = fwd(them, all_pawns);
    // Stockfish 11's outposts (pawn-defended, on ranks 4-6, no enemy pawn can attack them): a
    // knight or bishop elsewhere that attacks one we do not occupy can reach it.
    let reachable = outposts & support & !ctx.occupied_by[u];
    let mut pressure = 0u32;
    // Our minors' distances to our king, summed (Stockfish 11's `KingProtector`).
    let mut protector = 0;
    let mut s = S::ZERO;

    // Knights.
    let knights = ctx.knights[u];
    if knights != 0 {
        let (mut mob, mut high, mut centre, mut outpost, mut cramped, mut reach) = (0, 0, 0, 0, 0, 0);
        // Far from both kings, a knight neither attacks nor defends (Ethereal 12): the squares
        // four or more from the nearer king.
        let siberia = !(WITHIN_3[ctx.king[0].to_usize()] | WITHIN_3[ctx.king[1].to_usize()]);
        for sq in Bitboard(knights) {
            let a = attacks::knight_attacks(sq).0;
            ctx.att_knight[u] |= a;
            record_attacks(ctx, u, a, enemy_zone, p.ks_weight_knight);
            pressure += (a & enemy_zone).count_ones();
            let m = (a & area).count_ones() as i32;
            s += tables.map_or_else(|| mobility_tables::knight(p, m as u32), |t| t.knight[m as usize]);
            mob += m;
            cramped += cramp(m);
            high += i32::from(m > 5);
            centre += CENTRALITY[sq.to_usize()];
            let bit = 1u64 << sq.to_usize();
            if outposts & bit != 0 {
                outpost += rel_rank(us, sq) as i32 - 2 + i32::from(support & bit != 0);
            }
            reach += i32::from(outposts & support & bit == 0 && a & reachable != 0);
            protector += distance(sq, ctx.king[u]);
            if siberia & bit != 0 {
                let d = distance(sq, ctx.king[0]).min(distance(sq, ctx.king[1])) as usize;
                s += terms.map_or_else(|| term_tables::knight_siberia(p, d), |t| t.knight_siberia[d]);
            }
        }
        let behind = (knights & behind_pawn).count_ones() as i32;
        s += w.knight_behind_pawn * behind + w.knight_reachable_outpost * reach;
        let first = (knights & back_rank).count_ones() as i32;
        s += w.knight_mobility * mob
            + w.knight_mobility_high * high
            + w.knight_sq_mult * centre
            + w.knight_outpost_mult * outpost
            - w.knight_first_rank * first
            - w.low_mobility_knight * cramped;
    }

    // Bishops.
    let bishops = ctx.bishops[u];
    if bishops != 0 {
        let (mut mob, mut cramped, mut colour_pawns, mut long_diagonal, mut reach) = (0, 0, 0, 0, 0);
        for sq in Bitboard(bishops) {
            let a = attacks::bishop_attacks(sq, Bitboard(occ)).0;
            ctx.att_bishop[u] |= a;
            record_attacks(ctx, u, a, enemy_zone, p.ks_weight_bishop);
            pressure += (a & enemy_zone).count_ones();
            let m = (a & area).count_ones() as i32;
            s += tables.map_or_else(|| mobility_tables::bishop(p, m as u32), |t| t.bishop[m as usize]);
            mob += m;
            cramped += cramp(m);
            let colour = if (1u64 << sq.to_usize()) & DARK_SQUARES != 0 { DARK_SQUARES } else { !DARK_SQUARES };
            colour_pawns += (ctx.pawns[u] & colour).count_ones() as i32;
            let bit = 1u64 << sq.to_usize();
            reach += i32::from(outposts & support & bit == 0 && a & reachable != 0);
            protector += distance(sq, ctx.king[u]);
            // Seeing both centre squares of a long diagonal past everything but pawns (Ethereal 12).
            if LONG_DIAGONALS & !CENTRE & (1u64 << sq.to_usize()) != 0 {
                let seen = attacks::bishop_attacks(sq, Bitboard(all_pawns)).0 & CENTRE;
                long_diagonal += i32::from(seen.count_ones() >= 2);
            }
        }
        let outpost = (bishops & outposts & support).count_ones() as i32;
        let first = (bishops & back_rank).count_ones() as i32;
        let pair = i32::from(bishops.count_ones() >= 2);
        s += w.bishop_mobility * mob + w.bishop_outpost * outpost + w.bishop_pair * pair
            - w.bishop_first_rank * first
            - w.low_mobility_bishop * cramped
            - w.bishop_colour_pawns * colour_pawns
            + w.bishop_behind_pawn * (bishops & behind_pawn).count_ones() as i32
            + w.bishop_long_diagonal * long_diagonal
            + w.bishop_reachable_outpost * reach;
    }
    s -= w.king_protector * protector;

    // Rooks.
    let rooks = ctx.rooks[u];
    if rooks != 0 {
        let own_pawns = ctx.pawns[u];
        let king_file = file_of(ctx.king[t]) as i32;
        let seventh_target =
            ctx.pawns[t] & rel(us, 0x00ff_0000_0000_0000) != 0 || ctx.kings[t] & rel(us, 0xff00_0000_0000_0000) != 0;
        let (mut mob, mut connected, mut supports, mut open, mut semi, mut weak) = (0, 0, 0, 0, 0, 0);
        let (mut seventh, mut column, mut kfile, mut kadj, mut kadj_abgh, mut cramped) = (0, 0, 0, 0, 0, 0);
        let (mut on_queen_file, mut trapped) = (0, 0);
        let all_queens = ctx.queens[0] | ctx.queens[1];
        // Shut in by our king (Stockfish 11's `TrappedRook`): on the edge side of it, twice as bad
        // without castling rights.
        let own_king_file = file_of(ctx.king[u]);
        let trapped_weight = 1 + i32::from(!ctx.can_castle[u]);
        for sq in Bitboard(rooks) {
            let a = attacks::rook_attacks(sq, Bitboard(occ)).0;
            ctx.att_rook[u] |= a;
            record_attacks(ctx, u, a, enemy_zone, p.ks_weight_rook);
            pressure += (a & enemy_zone).count_ones();
            let m = (a & area).count_ones() as i32;
            s += tables.map_or_else(|| mobility_tables::rook(p, m as u32), |t| t.rook[m as usize]);
            mob += m;
            cramped += cramp(m);
            connected += (a & rooks).count_ones() as i32;
            supports += (a & ctx.passed[u]).count_ones() as i32;
            let f = file_of(sq);
            let fm = file_mask(f);
            if all_pawns & fm == 0 {
                open += 1;
            } else if own_pawns & fm == 0 {
                semi += 1;
                weak += i32::from(ctx.weak_pawns[t] & fm != 0);
            } else if m <= 3 && (own_king_file < 4) == (f < own_king_file) {
                trapped += trapped_weight;
            }
            on_queen_file += i32::from(all_queens & fm != 0);
            seventh += i32::from(seventh_target && rel_rank(us, sq) == 6);
            column += FILE_CENTRALITY[f];
            match (f as i32 - king_file).abs() {
                0 => kfile += 1,
                1 if f <= 1 || f >= 6 => kadj_abgh += 1,
                1 => kadj += 1,
                _ => {}
            }
        }
        // Behind our passers (towards our side) or behind theirs (towards their side).
        let behind = fill_fwd(them, fwd(them, ctx.passed[u])) | fill_fwd(us, fwd(us, ctx.passed[t]));
        let behind_passed = (rooks & behind).count_ones() as i32;
        s += w.rook_mobility * mob
            + w.rook_connected * (connected / 2)
            + w.rook_supported_passer * supports
            + w.rook_open_file * open
            + w.rook_semi_open_file * semi
            + w.rook_atck_weak_pawn_open_column * weak
            + w.rook_7th_rank * seventh
            + w.rook_column_mult * column
            + w.rook_attack_king_file * kfile
            + w.rook_attack_king_adj_file * kadj
            + w.rook_attack_king_adj_file_abgh * kadj_abgh
            + w.rook_behind_passed_pawn * behind_passed
            - w.low_mobility_rook * cramped
            + w.rook_on_queen_file * on_queen_file
            - w.trapped_rook * trapped;
    }

    // Queens.
    let queens = ctx.queens[u];
    if queens != 0 {
        let (mut mob, mut cramped, mut pinned) = (0, 0, 0);
        for sq in Bitboard(queens) {
            let (straight, diagonal) =
                (attacks::rook_attacks(sq, Bitboard(occ)).0, attacks::bishop_attacks(sq, Bitboard(occ)).0);
            let a = straight | diagonal;
            // An enemy rook or bishop behind the first piece on one of the queen's lines: moving
            // that piece away attacks the queen (Ethereal 12's relative pin / discovered attack).
            // Only one on the queen's empty-board lines can be (most often none is: no lookup).
            let i = sq.to_usize();
            let (rooks, bishops) =
                (ctx.rooks[t] & ROOK_LINES[i] & !straight, ctx.bishops[t] & BISHOP_LINES[i] & !diagonal);
            let xray_rook = rooks != 0 && attacks::rook_attacks(sq, Bitboard(occ & !straight)).0 & rooks != 0;
            let xray_bishop = bishops != 0 && attacks::bishop_attacks(sq, Bitboard(occ & !diagonal)).0 & bishops != 0;
            pinned += i32::from(xray_rook || xray_bishop);
            ctx.att_queen[u] |= a;
            record_attacks(ctx, u, a, enemy_zone, p.ks_weight_queen);
            pressure += (a & enemy_zone).count_ones();
            let m = (a & area).count_ones() as i32;
            s += tables.map_or_else(|| mobility_tables::queen(p, m as u32), |t| t.queen[m as usize]);
            mob += m;
            cramped += cramp(m);
        }
        s += w.queen_mobility * mob - w.low_mobility_queen * cramped + w.queen_relative_pin * pinned;
    }

    ctx.pressure[u] = pressure as i32;
    s
}

/// How far a piece's move count `m` falls short of three: a linear mobility bonus undervalues a
/// piece that is trapped or nearly so, which is worth much less than its few squares say.
#[inline(always)]
fn cramp(m: i32) -> i32 {
    (3 - m).max(0)
}

/// Adds one piece's attacks `a` to the attack maps of side `u`, and counts the piece as a king
/// attacker (with its weight) if it reaches the enemy king zone.
#[inline(always)]
fn record_attacks(ctx: &mut Ctx, u: usize, a: u64, enemy_zone: u64, weight: i32) {
    ctx.attacked2[u] |= ctx.attacked[u] & a;
    ctx.attacked[u] |= a;
    if a & enemy_zone != 0 {
        ctx.king_attackers[u] += 1;
        ctx.king_attack_weight[u] += weight;
    }
}
