//! Material imbalance (after Stockfish's classical `imbalance`): what a piece is worth beside
//! the other material, as products of piece counts. The piece values alone cannot say that a
//! knight gains with pawns on the board, that two rooks or a rook and a queen overlap, or what
//! the bishop pair is worth in each phase. Counts: the bishop pair (0 or 1), pawns, knights,
//! bishops, rooks, queens. Ours (`QuadraticOurs`): per piece of kind a, our pieces of kind b
//! (b up to a); theirs (`QuadraticTheirs`): per piece of kind a, the enemy's pieces of kind b
//! (b below a; the rest would cancel between the sides). Linear in every parameter (the
//! coefficient is a count product), 0 by default; a handful of multiplies per evaluation.

use super::{Ctx, EvalParams, S};

/// Each side's counts: the bishop pair (0 or 1), pawns, knights, bishops, rooks, queens.
type Counts = [i32; 6];

#[inline(always)]
fn counts(ctx: &Ctx, c: usize) -> Counts {
    let n = |b: u64| b.count_ones() as i32;
    [
        i32::from(n(ctx.bishops[c]) >= 2),
        n(ctx.pawns[c]),
        n(ctx.knights[c]),
        n(ctx.bishops[c]),
        n(ctx.rooks[c]),
        n(ctx.queens[c]),
    ]
}

/// The imbalance, white minus black. Reads the piece bitboards only.
#[inline(always)]
pub(super) fn score(ctx: &Ctx, p: &EvalParams) -> S {
    of_counts(counts(ctx, 1), counts(ctx, 0), p)
}

/// The imbalance of white's counts `w` and black's `b`.
#[inline(always)]
fn of_counts(w: Counts, b: Counts, p: &EvalParams) -> S {
    // Equal material cancels term by term: a common case in a search, skipped for its cost.
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

/// Entries of a [`MaterialTable`]: a search meets few material balances at a time.
pub const MATERIAL_TABLE_ENTRIES: usize = 1 << 10;

#[derive(Clone, Copy, Default)]
struct Entry {
    /// Both sides' counts of pawns, knights, bishops, rooks and queens, 4 bits each (a side has at
    /// most 10 of a kind).
    key: u64,
    /// Id of the evaluator that computed `score`; 0 for an empty entry.
    evaluator: u64,
    score: S,
}

/// The imbalance cached by material, as Stockfish's material hash: its three dozen products
/// cost a tenth of the evaluation, and a search revisits the same few material balances. One
/// per search thread, inside its [`super::PawnTable`], keyed like it by the evaluator's id (so
/// it never needs clearing) and holding the whole key (so it never returns another balance's
/// score).
#[derive(Clone)]
pub struct MaterialTable {
    entries: Vec<Entry>,
}

impl MaterialTable {
    /// A table of `entries` entries, rounded up to a power of two.
    pub fn with_entries(entries: usize) -> MaterialTable {
        MaterialTable { entries: vec![Entry::default(); entries.max(1).next_power_of_two()] }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * size_of::<Entry>()
    }

    /// [`score`] of `ctx` under `p` (the parameters of evaluator `id`), from the table or
    /// computed and stored.
    #[inline(always)]
    pub(super) fn probe(&mut self, ctx: &Ctx, p: &EvalParams, id: u64) -> S {
        // The piece counts straight from the bitboards (the bishop pair follows from the
        // bishops): a hit needs no more.
        let n = |b: u64| u64::from(b.count_ones());
        let side = |c: usize| {
            n(ctx.pawns[c])
                | n(ctx.knights[c]) << 4
                | n(ctx.bishops[c]) << 8
                | n(ctx.rooks[c]) << 12
                | n(ctx.queens[c]) << 16
        };
        let key = side(1) << 20 | side(0);
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (self.entries.len() - 1);
        let e = &mut self.entries[slot];
        if e.evaluator == id && e.key == key {
            return e.score;
        }
        let score = of_counts(counts(ctx, 1), counts(ctx, 0), p);
        *e = Entry { key, evaluator: id, score };
        score
    }
}
