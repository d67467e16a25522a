//! Static evaluation in centipawns from the side to move's view, tapered between middlegame and
//! endgame by [`phase`].
//!
//! Two entry points compute exactly the same number:
//!
//! * [`evaluate`]`(&Chess, &EvalParams)`: pure free function; reads the parameters directly.
//! * [`Evaluator`]: built once per parameter set ([`Evaluator::new`]), it caches the expanded
//!   64-square piece-square tables and is the faster choice for a search that evaluates millions
//!   of nodes with one parameter set (qsearch, the 1-ply search). Rebuild it whenever the
//!   parameters change; it holds its own copy of them. [`Evaluator::evaluate_cached`] also
//!   takes a search thread's [`PawnTable`], which caches the pawn-only terms by pawn structure
//!   ([`pawn_table`]): the same number again, computed faster.
//!
//! Terms, one group per file, each a pure function of (position, params): [`material`],
//! [`imbalance`] (count products),
//! [`psqt`] (file + rank profiles per piece), [`pawns`] (David Fig. 3 pawn terms and Aksenov's
//! pawn terms), [`pieces`] (mobility, outposts, rook terms), [`piece_tables`] (Ethereal's piece
//! terms by phase), [`king`] (shelter, pressure,
//! castling, attack units), [`threats`] (attacked and poorly defended pieces), [`batteries`]
//! (doubled rooks, rook and queen), [`space`] (space and closedness), plus a tempo bonus, and
//! last [`complexity`] (Ethereal 12's, on the endgame sum). All bitboard set operations: no
//! allocation, no move generation.

pub mod batteries;
pub mod bits;
pub mod complexity;
pub mod imbalance;
pub mod king;
mod king_tables;
pub mod material;
mod mobility_tables;
pub mod params;
pub mod pawn_table;
pub mod pawns;
pub mod piece_tables;
pub mod pieces;
pub mod psqt;
mod psqt_profiles;
pub mod score;
pub mod space;
mod term_tables;
#[cfg(test)]
pub(crate) mod tests;
pub mod threats;
pub mod trace;

use std::sync::atomic::{AtomicU64, Ordering};

use shakmaty::{Board, Chess, Color, Position, Square, attacks};

use self::{
    bits::{DARK_SQUARES, file_fill, fill_fwd, pawn_attacks, pawn_double_attacks},
    psqt::{Profiles, PsqtSource},
};
pub use self::{params::EvalParams, pawn_table::PawnTable, psqt::PsqtTable, score::S};

/// Static evaluation of `pos` in centipawns, positive when the side to move stands better.
pub fn evaluate(pos: &Chess, p: &EvalParams) -> i32 {
    relative(pos, eval_dispatch(pos, p, &Profiles::new(p), None))
}

/// Game phase 0 (bare kings and pawns) ..= 24 (all pieces): N,B = 1, R = 2, Q = 4.
pub fn phase(pos: &Chess) -> i32 {
    board_phase(pos.board())
}

/// An evaluation function bound to one parameter set, with its piece-square tables expanded.
/// `Evaluator::new(p).evaluate(pos) == evaluate(pos, p)` always.
#[derive(Clone)]
pub struct Evaluator {
    params: EvalParams,
    psqt: Box<PsqtTable>,
    /// Names the parameter set in pawn tables (see [`pawn_table`]): each [`Evaluator::new`]
    /// takes a new one; a clone, with the same parameters, keeps it.
    id: u64,
}

/// The next [`Evaluator`]'s id; 0 marks an empty pawn-table entry.
static NEXT_EVALUATOR_ID: AtomicU64 = AtomicU64::new(1);

impl Evaluator {
    pub fn new(params: &EvalParams) -> Evaluator {
        Evaluator {
            params: params.clone(),
            psqt: Box::new(PsqtTable::new(params)),
            id: NEXT_EVALUATOR_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// Same as [`evaluate`] with this evaluator's parameters.
    #[inline]
    pub fn evaluate(&self, pos: &Chess) -> i32 {
        relative(pos, eval_dispatch(pos, &self.params, &*self.psqt, None))
    }

    /// [`Evaluator::evaluate`] with the pawn-only terms read from `pawns` (computed and stored
    /// there on a miss): the same value, faster where pawn structures repeat, as in a search.
    #[inline]
    pub fn evaluate_cached(&self, pos: &Chess, pawns: &mut PawnTable) -> i32 {
        relative(pos, eval_dispatch(pos, &self.params, &*self.psqt, Some((pawns, self.id))))
    }
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator::new(&EvalParams::default())
    }
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluator").field("params", &self.params).finish_non_exhaustive()
    }
}

#[inline(always)]
fn board_phase(b: &Board) -> i32 {
    let p = b.knights().count() + b.bishops().count() + 2 * b.rooks().count() + 4 * b.queens().count();
    (p as i32).min(24)
}

/// White's score turned to the side to move's view.
#[inline(always)]
fn relative(pos: &Chess, white: i32) -> i32 {
    if pos.turn() == Color::White { white } else { -white }
}

/// Everything the term groups share, computed once per evaluation. Arrays are indexed by
/// `Color as usize` (black 0, white 1).
pub(crate) struct Ctx {
    occ: u64,
    /// Every piece of each side.
    occupied_by: [u64; 2],
    pawns: [u64; 2],
    /// Whole files holding a pawn of each side (several term groups read them).
    pawn_files: [u64; 2],
    knights: [u64; 2],
    bishops: [u64; 2],
    rooks: [u64; 2],
    queens: [u64; 2],
    kings: [u64; 2],
    king: [Square; 2],
    /// Squares attacked by each side's pawns.
    pawn_att: [u64; 2],
    /// Squares each side's pawns attack now or could after advancing.
    pawn_span: [u64; 2],
    /// King square and its neighbours.
    king_zone: [u64; 2],
    /// Mobility targets: not own-occupied, not attacked by enemy pawns.
    mob_area: [u64; 2],
    /// Every square each side attacks (pawns and king at start; pieces add theirs).
    attacked: [u64; 2],
    /// Squares each side attacks at least twice (pawns and king at start; pieces add theirs).
    attacked2: [u64; 2],
    /// Squares attacked by each side's king, knights, bishops, rooks and queens.
    att_king: [u64; 2],
    att_knight: [u64; 2],
    att_bishop: [u64; 2],
    att_rook: [u64; 2],
    att_queen: [u64; 2],
    /// Pieces of each side that attack the enemy king zone, and the sum of their king-attack
    /// weights (set by the piece terms).
    king_attackers: [i32; 2],
    king_attack_weight: [i32; 2],
    /// Passed pawns (set by the pawn terms).
    passed: [u64; 2],
    /// Isolated or backward pawns (set by the pawn terms).
    weak_pawns: [u64; 2],
    /// Number of (piece, enemy king-zone square) attacks by each side (set by the piece terms).
    pressure: [i32; 2],
    /// Whether each side keeps any castling right.
    can_castle: [bool; 2],
    /// The opponent's non-pawn material in phase units, capped at 12, per side.
    enemy_phase: [i32; 2],
}

impl Ctx {
    #[inline(always)]
    fn new(pos: &Chess) -> Ctx {
        let b = pos.board();
        let by = [b.black().0, b.white().0];
        let split = |bb: u64| [bb & by[0], bb & by[1]];
        let pawns = split(b.pawns().0);
        let kings = split(b.kings().0);
        // A `Chess` always has both kings; fall back to a fixed square rather than panic.
        let king = [Color::Black, Color::White].map(|c| b.king_of(c).unwrap_or(Square::A1));
        let pawn_att = [pawn_attacks(Color::Black, pawns[0]), pawn_attacks(Color::White, pawns[1])];
        let pawn_att2 = [pawn_double_attacks(Color::Black, pawns[0]), pawn_double_attacks(Color::White, pawns[1])];
        let pawn_span = [fill_fwd(Color::Black, pawn_att[0]), fill_fwd(Color::White, pawn_att[1])];
        let king_att = king.map(|k| attacks::king_attacks(k).0);
        let king_zone = [king_att[0] | kings[0], king_att[1] | kings[1]];
        let castles = pos.castles();
        Ctx {
            occ: by[0] | by[1],
            occupied_by: by,
            pawns,
            pawn_files: pawns.map(file_fill),
            knights: split(b.knights().0),
            bishops: split(b.bishops().0),
            rooks: split(b.rooks().0),
            queens: split(b.queens().0),
            kings,
            king,
            pawn_att,
            pawn_span,
            king_zone,
            mob_area: [!by[0] & !pawn_att[1], !by[1] & !pawn_att[0]],
            attacked: [pawn_att[0] | king_att[0], pawn_att[1] | king_att[1]],
            attacked2: [pawn_att2[0] | (pawn_att[0] & king_att[0]), pawn_att2[1] | (pawn_att[1] & king_att[1])],
            att_king: king_att,
            att_knight: [0; 2],
            att_bishop: [0; 2],
            att_rook: [0; 2],
            att_queen: [0; 2],
            king_attackers: [0; 2],
            king_attack_weight: [0; 2],
            passed: [0; 2],
            weak_pawns: [0; 2],
            pressure: [0; 2],
            can_castle: [castles.has_color(Color::Black), castles.has_color(Color::White)],
            enemy_phase: [material::side_phase(b, Color::White), material::side_phase(b, Color::Black)],
        }
    }
}

/// The evaluation from white's view, before and after tapering (exposed for term tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Breakdown {
    /// Every tapered term, white minus black, before the complexity.
    pub s: S,
    /// The complexity's change to the endgame half ([`complexity::apply`] on `s.eg()`), kept
    /// apart so that the tracer reads the other terms' coefficients without its clamp.
    pub complexity: i32,
    /// The complexity's features ([`complexity::features`]): for the tracer.
    pub complexity_features: [i32; complexity::TERMS],
    /// King shelter, already scaled by the opponents' material (not tapered).
    pub shelter: i32,
    /// Tempo bonus, white's view.
    pub tempo: i32,
    pub phase: i32,
    /// Share of the endgame half kept, in percent (drawish endings keep less).
    pub eg_scale: i32,
    /// Each side's king danger inputs ([`king::danger_inputs`]; `None`: not counted), by
    /// `Color as usize`: already in `s`, filled in for the tracer only ([`breakdown_traced`];
    /// else `None`).
    pub danger: [Option<king::DangerInputs>; 2],
}

impl Breakdown {
    #[inline(always)]
    pub fn total(&self) -> i32 {
        let eg = (self.s.eg() + self.complexity) * self.eg_scale / 100;
        (self.s.mg() * self.phase + eg * (24 - self.phase)) / 24 + self.shelter + self.tempo
    }
}

/// How much of the endgame score the side ahead (by the sign of `eg`) can expect to convert, in
/// percent (after Ethereal 12's `evaluateScaleFactor`): opposite-coloured bishops draw often,
/// with nothing but pawns beside them most of all, then with a knight or a rook each; a side
/// without pawns at most a minor piece ahead rarely wins; the board's only queen against two or
/// more pieces of a side that has nothing else converts less; a side more than two pawns ahead
/// with at most one piece a side and no queens converts more. The pawnless case comes before the
/// lone queen so that a file whose new scales are all 100 plays as before them.
#[inline(always)]
fn endgame_scale(ctx: &Ctx, board: &Board, p: &EvalParams, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::White } else { Color::Black };
    let (s, w) = (strong as usize, !strong as usize);
    let knights = ctx.knights[0] | ctx.knights[1];
    let rooks = ctx.rooks[0] | ctx.rooks[1];
    let queens = ctx.queens[0] | ctx.queens[1];
    let one_each = |bb: [u64; 2]| bb[0].count_ones() == 1 && bb[1].count_ones() == 1;
    if one_each(ctx.bishops) && (ctx.bishops[0] & DARK_SQUARES == 0) != (ctx.bishops[1] & DARK_SQUARES == 0) {
        if knights | rooks | queens == 0 {
            return p.scale_opposite_bishops;
        }
        if rooks | queens == 0 && one_each(ctx.knights) {
            return p.scale_ocb_knights;
        }
        if knights | queens == 0 && one_each(ctx.rooks) {
            return p.scale_ocb_rooks;
        }
    }
    if ctx.pawns[s] == 0 && material::non_pawn_units(board, strong) <= material::non_pawn_units(board, !strong) + 1 {
        return p.scale_pawnless_minor_ahead;
    }
    let pieces = [0, 1].map(|c| ctx.knights[c] | ctx.bishops[c] | ctx.rooks[c]);
    if queens.count_ones() == 1 && pieces[s] == 0 && pieces[w].count_ones() >= 2 {
        return p.scale_lone_queen;
    }
    if queens == 0
        && pieces[0].count_ones() <= 1
        && pieces[1].count_ones() <= 1
        && ctx.pawns[s].count_ones() > ctx.pawns[w].count_ones() + 2
    {
        return p.scale_large_pawn_advantage;
    }
    100
}

/// [`eval_white`] compiled with the POPCNT instruction when the CPU has it: the evaluation is
/// mostly popcounts, and the x86-64 baseline target would emulate each one in ~12 instructions.
#[inline(always)]
fn eval_dispatch<P: PsqtSource>(pos: &Chess, p: &EvalParams, psqt: &P, pawn_source: PawnSource<'_>) -> i32 {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the running CPU supports POPCNT, checked just above.
            return unsafe { eval_white_popcnt(pos, p, psqt, pawn_source) };
        }
    }
    eval_white(pos, p, psqt, pawn_source)
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[target_feature(enable = "popcnt")]
fn eval_white_popcnt<P: PsqtSource>(pos: &Chess, p: &EvalParams, psqt: &P, pawn_source: PawnSource<'_>) -> i32 {
    eval_white(pos, p, psqt, pawn_source)
}

/// The whole evaluation from white's view, generic over the piece-square source.
#[inline(always)]
fn eval_white<P: PsqtSource>(pos: &Chess, p: &EvalParams, psqt: &P, pawn_source: PawnSource<'_>) -> i32 {
    breakdown_with::<P, false>(pos, p, psqt, pawn_source).total()
}

/// Where the pawn-only terms come from: a pawn table and the id of the evaluator whose
/// parameters are `p`, or `None` to compute them.
type PawnSource<'t> = Option<(&'t mut PawnTable, u64)>;

#[inline(always)]
pub(crate) fn breakdown<P: PsqtSource>(pos: &Chess, p: &EvalParams, psqt: &P) -> Breakdown {
    breakdown_with::<P, false>(pos, p, psqt, None)
}

/// [`breakdown`] with [`Breakdown::danger`] filled in (the tracer's).
#[inline(always)]
pub(crate) fn breakdown_traced<P: PsqtSource>(pos: &Chess, p: &EvalParams, psqt: &P) -> Breakdown {
    breakdown_with::<P, true>(pos, p, psqt, None)
}

/// The evaluation's parts; `TRACE`: with [`Breakdown::danger`] (else `None` for both sides).
#[inline(always)]
fn breakdown_with<P: PsqtSource, const TRACE: bool>(
    pos: &Chess,
    p: &EvalParams,
    psqt: &P,
    pawn_source: PawnSource<'_>,
) -> Breakdown {
    use Color::{Black, White};
    let board = pos.board();
    let mut ctx = Ctx::new(pos);
    let tables = psqt.terms();
    // The pairs every evaluation reads: the evaluator's, else packed here.
    let packed;
    let pairs = match tables {
        Some(t) => &t.pairs,
        None => {
            packed = term_tables::Pairs::new(p);
            &packed
        }
    };
    let mut s = material::score(&ctx, &pairs.material) + psqt.score(board);
    let mut pawn_source = pawn_source;
    s += match &mut pawn_source {
        Some((table, id)) => table.probe_imbalance(&ctx, p, *id),
        None => imbalance::score(&ctx, p),
    };
    // Order matters: pawn terms record passed/weak pawns for the rook terms; piece terms record
    // attack maps and king pressure for the far-pawn and king terms.
    // The king terms that read only the pawns and the kings (shelter and storm tables, file
    // distance to the pawns, the shelter before its scaling): cached beside the pawn
    // structure, by king squares too (the tables cost a third of the evaluation recomputed).
    let (structure, king_pawns) = match pawn_source {
        Some((table, id)) => (table.probe(&ctx, p, tables, id), table.probe_kings(&ctx, p, tables, id)),
        None => (pawns::structure(&ctx, p, tables), king::pawn_terms(&ctx, p, tables)),
    };
    ctx.passed = structure.passed;
    ctx.weak_pawns = structure.weak;
    s += structure.score;
    s += pawns::score_with_pieces(&ctx, p, pairs, White) - pawns::score_with_pieces(&ctx, p, pairs, Black);
    s += pieces::score(&mut ctx, p, psqt.mobility(), tables, pairs, White);
    s -= pieces::score(&mut ctx, p, psqt.mobility(), tables, pairs, Black);
    s += pawns::far_pawns(&ctx, pairs, White) - pawns::far_pawns(&ctx, pairs, Black);
    s += pawns::passer_path(&ctx, p, tables, pairs, White) - pawns::passer_path(&ctx, p, tables, pairs, Black);
    s += king::score(&ctx, p, White) - king::score(&ctx, p, Black);
    s += king_pawns.shields + king_pawns.files;
    s += king::defenders(&ctx, p, tables, White) - king::defenders(&ctx, p, tables, Black);
    s += threats::score(&ctx, &pairs.threats);
    s += space::space(&ctx, pairs);
    s += space::closedness(&ctx, p, tables);
    s += king::danger(&ctx, p, White) - king::danger(&ctx, p, Black);
    // The piece tables and the batteries together: both read the rooks off their own pawns' files
    // (the compiler shares them).
    s += piece_tables::score(&ctx, pairs, White) - piece_tables::score(&ctx, pairs, Black);
    s += batteries::score(&ctx, pairs, White) - batteries::score(&ctx, pairs, Black);
    // After every other term: it reads the endgame sum's sign and size.
    let complexity_features = complexity::features(&ctx);
    let complexity = complexity::apply(&complexity_features, &complexity::weights(p), s.eg());
    Breakdown {
        s,
        complexity,
        complexity_features,
        shelter: king::shelter(&ctx, king_pawns.shelter[White as usize], White)
            - king::shelter(&ctx, king_pawns.shelter[Black as usize], Black),
        tempo: if pos.turn() == White { p.tempo } else { -p.tempo },
        phase: board_phase(board),
        eg_scale: endgame_scale(&ctx, board, p, s.eg() + complexity),
        // Recomputed from the same context only where asked for (the tracer's one call).
        danger: if TRACE {
            [Black, White].map(|c| {
                king::danger_inputs(&ctx, p, c)
                    .map(|d| king::DangerInputs { attackers: king::attackers_by_kind(&ctx, c), ..d })
            })
        } else {
            [None; 2]
        },
    }
}
