//! King safety: pawn shelter and enemy pawn cover on the king's and adjacent files, enemy
//! pressure on the king zone (David Fig. 3), castling done / missed (Aksenov Table 3), king
//! danger in attack units, the shelter and storm tables by pawn distance, the defenders of the
//! king area and the king's file distance to the pawns (Ethereal 12), a king on a flank without
//! pawns (Stockfish 11).

use shakmaty::{Bitboard, Color, attacks};

use super::{
    Ctx, EvalParams, S,
    bits::{CASTLED_SQUARES, KING_FLANK, file_mask, file_of, king_area, ranks_above, rel},
    king_tables,
    term_tables::{self, TermTables},
};

/// Pressure and castling terms of `us` (tapered; middlegame only). Needs the piece terms of the
/// enemy done first (they count the pressure).
#[inline(always)]
pub(super) fn score(ctx: &Ctx, p: &EvalParams, us: Color) -> S {
    let (u, t) = (us as usize, !us as usize);
    let mut s = S::new(-p.king_pressure_mult * ctx.pressure[t], 0);
    if ctx.kings[u] & rel(us, CASTLED_SQUARES) != 0 {
        s += S::new(p.castling_done, 0);
    } else if !ctx.can_castle[u] {
        s -= S::new(p.castling_missed, 0);
    }
    s
}

/// Pawn shelter of `us` in centipawns (<= 0): its `penalty` ([`shelter_penalty`]) scaled by the
/// enemy's non-pawn material in phase units over 12 (a full set of pieces), so it fades as the
/// attackers leave the board.
#[inline(always)]
pub(super) fn shelter(ctx: &Ctx, penalty: i32, us: Color) -> i32 {
    -(penalty * ctx.enemy_phase[us as usize] / 12)
}

/// The shelter penalty of `us` before scaling (>= 0 with the default weights): our missing or
/// advanced pawns and the enemy's missing ones on the king's and the adjacent files. Reads the
/// pawns and our king square alone.
#[inline(always)]
fn shelter_penalty(ctx: &Ctx, p: &EvalParams, us: Color) -> i32 {
    let (u, t) = (us as usize, !us as usize);
    let ksq = ctx.king[u];
    let kf = file_of(ksq);
    let kr = ksq.to_usize() >> 3;
    let front = match us {
        Color::White => ranks_above(kr),
        Color::Black => (1u64 << (8 * kr)) - 1,
    };
    let mut penalty = 0;
    for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
        let on_king_file = f == kf;
        let fm = file_mask(f);
        let own = ctx.pawns[u] & fm & front;
        if own == 0 {
            penalty += if on_king_file { p.king_no_friendly_pawn } else { p.king_no_friendly_pawn_adj };
        } else {
            let nearest = match us {
                Color::White => own.trailing_zeros() as usize >> 3,
                Color::Black => (63 - own.leading_zeros()) as usize >> 3,
            };
            if nearest.abs_diff(kr) >= 2 {
                penalty += p.king_friendly_pawn_advanced1;
            }
        }
        if ctx.pawns[t] & fm == 0 {
            penalty += if on_king_file { p.king_no_enemy_pawn } else { p.king_no_enemy_pawn_adj };
        }
    }
    penalty
}

/// Shelter and storm tables of `us` (after Ethereal 12's `KingShelter` and `KingStorm`): on
/// the king's file and each adjacent one, our nearest pawn at or ahead of the king's rank and
/// theirs, each by its distance in ranks from the king (0 to 3, 4 or more, none), the shelter
/// by the file (mirrored, plus an extra entry for the king's own file), the storm by whether
/// our pawn stands just ahead of theirs and blocks it. Linear (one table entry per file), so
/// the tuner traces it; 0 by default until a fit sets it.
/// `terms`: the tables expanded, else read from `p`.
#[inline(always)]
fn pawn_shield(ctx: &Ctx, p: &EvalParams, terms: Option<&TermTables>, us: Color) -> S {
    let (u, t) = (us as usize, !us as usize);
    let ksq = ctx.king[u];
    let kf = file_of(ksq);
    let kr = ksq.to_usize() >> 3;
    // The king's rank and those ahead of it, from our side.
    let ahead = match us {
        Color::White => ranks_above(kr) | (0xFFu64 << (8 * kr)),
        Color::Black => !ranks_above(kr),
    };
    // Ranks from the king to the nearest of `pawns` (at or ahead of its rank), if any.
    let distance = |pawns: u64| -> Option<usize> {
        (pawns != 0).then(|| {
            let nearest = match us {
                Color::White => pawns.trailing_zeros() as usize >> 3,
                Color::Black => (63 - pawns.leading_zeros()) as usize >> 3,
            };
            nearest.abs_diff(kr)
        })
    };
    let bucket = |d: Option<usize>| d.map_or(king_tables::NONE, |d| d.min(king_tables::FAR));
    let mut s = S::ZERO;
    for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
        let on_file = file_mask(f) & ahead;
        let (ours, theirs) = (distance(ctx.pawns[u] & on_file), distance(ctx.pawns[t] & on_file));
        let (mirrored, ours_bucket, theirs_bucket) = (f.min(7 - f), bucket(ours), bucket(theirs));
        // From one rank ahead: their pawn beside the king would give check (no evaluation).
        let blocked = matches!((ours, theirs), (Some(o), Some(t)) if o >= 1 && o + 1 == t);
        match terms {
            Some(e) => {
                s += e.king_shelter[mirrored][ours_bucket] + e.king_storm[usize::from(blocked)][theirs_bucket];
                if f == kf {
                    s += e.king_shelter_own_file[ours_bucket];
                }
            }
            None => {
                s += king_tables::shelter(p, mirrored, ours_bucket) + king_tables::storm(p, blocked, theirs_bucket);
                if f == kf {
                    s += king_tables::shelter_own_file(p, ours_bucket);
                }
            }
        }
    }
    s
}

/// Defenders of `us` (after Ethereal 12's `KingDefenders`): a table entry by the number of our
/// pawns, knights and bishops in our king area (0 to 11), who shield the king. Linear.
/// `terms`: the tables expanded, else read from `p`.
#[inline(always)]
pub(super) fn defenders(ctx: &Ctx, p: &EvalParams, terms: Option<&TermTables>, us: Color) -> S {
    let u = us as usize;
    let defenders = (ctx.pawns[u] | ctx.knights[u] | ctx.bishops[u]) & king_area(us, ctx.king[u]);
    let n = defenders.count_ones() as usize;
    terms.map_or_else(|| term_tables::king_defenders(p, n), |t| t.king_defenders[n])
}

/// Pawn proximity of `us` (after Ethereal 12's `KingPawnFileProximity`): a table entry by the
/// king's distance in files to the nearest file with a pawn of either colour (0 when none is
/// left: the same for both sides), whether it can reach the pawns in an ending. Linear.
#[inline(always)]
fn pawn_file_proximity(ctx: &Ctx, p: &EvalParams, us: Color) -> S {
    let kf = file_of(ctx.king[us as usize]);
    // One bit per file with a pawn.
    let files = ((ctx.pawn_files[0] | ctx.pawn_files[1]) & 0xFF) as u32;
    let distance = if files == 0 {
        0
    } else {
        let (right, left) = (files >> kf, files & ((2 << kf) - 1));
        let to_right = if right != 0 { right.trailing_zeros() as usize } else { 7 };
        let to_left = if left != 0 { kf - (31 - left.leading_zeros() as usize) } else { 7 };
        to_right.min(to_left)
    };
    term_tables::king_pawn_file_proximity(p, distance)
}

/// Pawnless flank of `us` (Stockfish 11's `PawnlessFlank`, subtracted): no pawn of either colour
/// on the files of our king's flank ([`KING_FLANK`]), where the enemy's pieces attack a king no
/// pawn shelters or ever will. Reads the pawns and our king square alone.
#[inline(always)]
fn pawnless_flank(ctx: &Ctx, p: &EvalParams, us: Color) -> S {
    if (ctx.pawns[0] | ctx.pawns[1]) & KING_FLANK[file_of(ctx.king[us as usize])] == 0 {
        -S::new(p.pawnless_flank_mg, p.pawnless_flank_eg)
    } else {
        S::ZERO
    }
}

/// The king terms that read the pawns and the two king squares alone, both sides: what a pawn
/// table caches by pawns and king squares ([`super::pawn_table`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KingPawnTerms {
    /// Shelter and storm tables ([`pawn_shield`]), White less Black.
    pub shields: S,
    /// File distance to the pawns ([`pawn_file_proximity`]) and the pawnless flank
    /// ([`pawnless_flank`]), White less Black.
    pub files: S,
    /// Shelter penalties before scaling ([`shelter_penalty`]), by colour (`Color as usize`).
    pub shelter: [i32; 2],
}

/// The [`KingPawnTerms`] of `ctx`: a function of the pawns and the king squares alone.
/// `terms`: the tables expanded, else read from `p`.
#[inline(always)]
pub(super) fn pawn_terms(ctx: &Ctx, p: &EvalParams, terms: Option<&TermTables>) -> KingPawnTerms {
    use Color::{Black, White};
    KingPawnTerms {
        shields: pawn_shield(ctx, p, terms, White) - pawn_shield(ctx, p, terms, Black),
        files: pawn_file_proximity(ctx, p, White) + pawnless_flank(ctx, p, White)
            - pawn_file_proximity(ctx, p, Black)
            - pawnless_flank(ctx, p, Black),
        shelter: [shelter_penalty(ctx, p, Black), shelter_penalty(ctx, p, White)],
    }
}

/// How many weights the king danger's attack units have ([`DANGER_WEIGHTS`]).
pub const DANGER_TERMS: usize = 13;

/// The king danger's weights, in the order of [`danger_weights`] and
/// [`DangerInputs::coefficients`]: a side's attack units are `Σ coefficient · weight`, linear
/// in them (the tuner fits them; the divisors that make the danger non-linear it holds).
pub const DANGER_WEIGHTS: [&str; DANGER_TERMS] = [
    "ks_weight_knight",
    "ks_weight_bishop",
    "ks_weight_rook",
    "ks_weight_queen",
    "ks_attack_value",
    "ks_weak_squares",
    "ks_friendly_pawns",
    "ks_no_enemy_queen",
    "ks_safe_knight_check",
    "ks_safe_bishop_check",
    "ks_safe_rook_check",
    "ks_safe_queen_check",
    "ks_adjustment",
];

/// The values of [`DANGER_WEIGHTS`] in `p`.
pub fn danger_weights(p: &EvalParams) -> [i32; DANGER_TERMS] {
    [
        p.ks_weight_knight,
        p.ks_weight_bishop,
        p.ks_weight_rook,
        p.ks_weight_queen,
        p.ks_attack_value,
        p.ks_weak_squares,
        p.ks_friendly_pawns,
        p.ks_no_enemy_queen,
        p.ks_safe_knight_check,
        p.ks_safe_bishop_check,
        p.ks_safe_rook_check,
        p.ks_safe_queen_check,
        p.ks_adjustment,
    ]
}

/// What one side's king danger counts (after Ethereal 12), where it is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DangerInputs {
    /// The enemy's king attackers by weight (`ks_weight_*` at the evaluated parameters), times
    /// [`Self::attacker_factor`].
    pub attack_weight: i32,
    /// What each attacker's weight counts for: the number of attackers with
    /// `ks_attacker_product` 1 (Ethereal 12's product), else 1.
    pub attacker_factor: i32,
    /// The enemy's king attackers by kind: knights, bishops, rooks, queens (counted only by
    /// [`super::breakdown_traced`], through [`attackers_by_kind`]; else 0).
    pub attackers: [i32; 4],
    /// The enemy's attacks on the king zone, normalised to a full nine-square zone.
    pub zone_attacks: i32,
    /// Weak squares in the zone.
    pub weak: i32,
    /// Our pawns on the zone's other squares.
    pub pawns: i32,
    pub no_enemy_queen: bool,
    /// Safe checks by knights, bishops, rooks, queens.
    pub checks: [i32; 4],
}

impl DangerInputs {
    /// The attack units under `p`: the attack weight as evaluated, the rest weighted by `p`.
    #[inline(always)]
    pub(crate) fn units(&self, p: &EvalParams) -> i32 {
        self.attack_weight + p.ks_attack_value * self.zone_attacks + p.ks_weak_squares * self.weak
            - p.ks_friendly_pawns * self.pawns
            - if self.no_enemy_queen { p.ks_no_enemy_queen } else { 0 }
            + p.ks_safe_knight_check * self.checks[0]
            + p.ks_safe_bishop_check * self.checks[1]
            + p.ks_safe_rook_check * self.checks[2]
            + p.ks_safe_queen_check * self.checks[3]
            + p.ks_adjustment
    }

    /// The attack units' coefficients in [`danger_weights`] (needs [`Self::attackers`]).
    pub fn coefficients(&self) -> [i32; DANGER_TERMS] {
        let [knights, bishops, rooks, queens] = self.attackers.map(|n| n * self.attacker_factor);
        let [knight_checks, bishop_checks, rook_checks, queen_checks] = self.checks;
        [
            knights,
            bishops,
            rooks,
            queens,
            self.zone_attacks,
            self.weak,
            -self.pawns,
            -i32::from(self.no_enemy_queen),
            knight_checks,
            bishop_checks,
            rook_checks,
            queen_checks,
            1,
        ]
    }
}

/// What the king danger of `us` counts: the enemy's king attackers by weight, its attacks on
/// the king zone, weak zone squares, safe checks by piece, less for our pawns in the zone and a
/// lot less without an enemy queen. `None` where it is not counted: with fewer than two
/// attackers, or one with an enemy queen on the board (a gate that reads no weight). Needs both
/// sides' piece terms done first.
#[inline(always)]
pub(crate) fn danger_inputs(ctx: &Ctx, p: &EvalParams, us: Color) -> Option<DangerInputs> {
    let (u, t) = (us as usize, !us as usize);
    let enemy_queens = ctx.queens[t];
    let needed = if enemy_queens != 0 { 1 } else { 2 };
    if ctx.king_attackers[t] < needed {
        return None;
    }
    let zone = ctx.king_zone[u];
    let ksq = ctx.king[u];
    let occ = Bitboard(ctx.occ);
    // Squares they attack that we defend at most once, and then only by the king or queen.
    let weak = ctx.attacked[t] & !ctx.attacked2[u] & (!ctx.attacked[u] | ctx.att_queen[u] | ctx.att_king[u]);
    // Where an enemy piece can check without being taken (or where we are outnumbered).
    let safe = !ctx.occupied_by[t] & (!ctx.attacked[u] | (weak & ctx.attacked2[t]));
    let knight_checks = attacks::knight_attacks(ksq).0 & safe & ctx.att_knight[t];
    let diagonal = attacks::bishop_attacks(ksq, occ).0;
    let straight = attacks::rook_attacks(ksq, occ).0;
    let bishop_checks = diagonal & safe & ctx.att_bishop[t];
    let rook_checks = straight & safe & ctx.att_rook[t];
    let queen_checks = (diagonal | straight) & safe & ctx.att_queen[t];
    let count = |b: u64| b.count_ones() as i32;
    let attacker_factor = if p.ks_attacker_product == 1 { ctx.king_attackers[t] } else { 1 };
    Some(DangerInputs {
        attack_weight: ctx.king_attack_weight[t] * attacker_factor,
        attacker_factor,
        attackers: [0; 4],
        // Normalised: the zone is smaller on the edge.
        zone_attacks: 9 * ctx.pressure[t] / count(zone).max(1),
        weak: count(weak & zone),
        pawns: count(ctx.pawns[u] & zone & !weak),
        no_enemy_queen: enemy_queens == 0,
        checks: [count(knight_checks), count(bishop_checks), count(rook_checks), count(queen_checks)],
    })
}

/// The enemy's king attackers of `us` by kind (knights, bishops, rooks, queens): the pieces
/// whose attacks reach our king zone, as the piece terms count them into
/// `ctx.king_attack_weight` with their weights. Counted again here, for the tracer alone, so the
/// piece terms stay as fast as they were.
pub(crate) fn attackers_by_kind(ctx: &Ctx, us: Color) -> [i32; 4] {
    let (zone, t, occ) = (ctx.king_zone[us as usize], !us as usize, Bitboard(ctx.occ));
    let reach = |pieces: u64, attacks: &dyn Fn(shakmaty::Square) -> u64| {
        Bitboard(pieces).into_iter().filter(|&sq| attacks(sq) & zone != 0).count() as i32
    };
    [
        reach(ctx.knights[t], &|sq| attacks::knight_attacks(sq).0),
        reach(ctx.bishops[t], &|sq| attacks::bishop_attacks(sq, occ).0),
        reach(ctx.rooks[t], &|sq| attacks::rook_attacks(sq, occ).0),
        reach(ctx.queens[t], &|sq| attacks::queen_attacks(sq, occ).0),
    ]
}

/// Attack units from their coefficients ([`DangerInputs::coefficients`]) and weights
/// ([`danger_weights`]).
pub fn danger_units(coefficients: &[i32; DANGER_TERMS], weights: &[i32; DANGER_TERMS]) -> i32 {
    coefficients.iter().zip(weights).map(|(c, w)| c * w).sum()
}

/// King danger of `us` (<= 0): [`danger_score`] of its attack units, where counted.
#[inline(always)]
pub(super) fn danger(ctx: &Ctx, p: &EvalParams, us: Color) -> S {
    match danger_inputs(ctx, p, us) {
        Some(d) => danger_score(d.units(p), p),
        None => S::ZERO,
    }
}

/// King danger from a side's attack units: quadratic in the middlegame, so a lone attacker
/// costs little and a coordinated attack a lot; nothing for units of 0 or less.
#[inline(always)]
pub fn danger_score(units: i32, p: &EvalParams) -> S {
    if units <= 0 {
        return S::ZERO;
    }
    S::new(-units * units / p.ks_mg_divisor.max(1), -units / p.ks_eg_divisor.max(1))
}
