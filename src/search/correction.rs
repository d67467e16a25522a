//! Correction history (Stockfish's, also Berserk's): what the search learnt about how far the
//! static evaluation misses in positions like this one, added to the evaluation that pruning,
//! `improving` and the quiescence's stand pat see.
//!
//! Tables per side to move, indexed by a hash of the pawn structure and by a hash of each side's
//! non-pawn pieces (king included). (A table of the minor pieces and kings and Stockfish's
//! continuation correction were tried and removed: BENCHMARKS.md, "Failed switches removed".)
//! At the end of a node whose score says something about the evaluation (not in check, best move
//! quiet or none, the bound on the side of the error), every entry of the position moves by a
//! depth-weighted share of what the corrected evaluation still missed, with the histories'
//! gravity bounding it: the tables learn the residual, so together they sum to the error
//! rather than each converging to all of it.
//!
//! All weights at 0 switch it off exactly: no key is computed and nothing learnt. A table whose
//! weight is 0 is neither read nor learnt.

use shakmaty::{Bitboard, Board, Color, Role};

use super::history::gravity_within;

/// Entries per side to move in each table (a power of two).
const ENTRIES: usize = 16_384;
/// Bound of every entry (gravity's limit).
const LIMIT: i32 = 1_024;
/// Largest single update.
const MAX_BONUS: i32 = LIMIT / 4;
/// A correction is `weight × entry / WEIGHT_DIVISOR` centipawns: at weight 512 a full entry is
/// 32 cp.
const WEIGHT_DIVISOR: i32 = 16_384;
/// Tables per side to move: the pawns' and each side's non-pawn pieces'.
const TABLES: usize = 3;

/// The weights of the tables in the correction (`corr_*_weight`), all 0 = off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionWeights {
    pub pawn: i32,
    pub non_pawn: i32,
}

impl CorrectionWeights {
    pub fn any(&self) -> bool {
        self.pawn != 0 || self.non_pawn != 0
    }
}

/// The keys of a position's entries, computed once per node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    pawn: usize,
    /// Indexed by piece colour.
    non_pawn: [usize; 2],
}

impl CorrectionKeys {
    /// The keys of `board`.
    pub fn new(board: &Board) -> CorrectionKeys {
        let (white, black) = (board.white(), board.black());
        let non_pawn = |side: Bitboard| {
            [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King]
                .into_iter()
                .fold(0, |h, role| fold(h, board.by_role(role) & side))
        };
        CorrectionKeys { pawn: index(pawn_key(board)), non_pawn: [index(non_pawn(white)), index(non_pawn(black))] }
    }
}

/// The hash of both sides' pawns: the pawn correction keys on it.
#[inline]
pub(super) fn pawn_key(board: &Board) -> u64 {
    let pawns = board.pawns();
    fold(fold(0, pawns & board.white()), pawns & board.black())
}

/// Mixes one bitboard into a running hash (a multiply and a shift: the key need not be
/// Zobrist's, only spread).
#[inline]
fn fold(h: u64, bb: Bitboard) -> u64 {
    let x = (h ^ bb.0).wrapping_add(0x9E37_79B9_7F4A_7C15).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 31)
}

#[inline]
fn index(h: u64) -> usize {
    (h >> 32) as usize & (ENTRIES - 1)
}

/// One search thread's correction tables (192 KiB), kept from move to move like the other
/// histories and cleared by `ucinewgame`.
pub struct CorrectionHistory {
    /// [side to move][table][key], the tables being the pawns' and the white and black non-pawn
    /// pieces'.
    entries: Vec<i16>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory::new()
    }
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { entries: vec![0; 2 * TABLES * ENTRIES] }
    }

    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// Where the position's pawn, white non-pawn and black non-pawn entries are.
    #[inline]
    fn slots(stm: Color, keys: &CorrectionKeys) -> [usize; TABLES] {
        let base = stm as usize * TABLES * ENTRIES;
        [base + keys.pawn, base + ENTRIES + keys.non_pawn[0], base + 2 * ENTRIES + keys.non_pawn[1]]
    }

    /// The correction in centipawns for the side to move `stm`.
    #[inline]
    pub fn correction(&self, stm: Color, keys: &CorrectionKeys, w: &CorrectionWeights) -> i32 {
        let [p, white, black] = Self::slots(stm, keys).map(|i| i32::from(self.entries[i]));
        (w.pawn * p + w.non_pawn * (white + black)) / WEIGHT_DIVISOR
    }

    /// Learns that a search of `depth` plies scored `error` centipawns above the corrected
    /// evaluation (the tables whose weight is 0 stay as they are).
    #[inline]
    pub fn update(&mut self, stm: Color, keys: &CorrectionKeys, w: &CorrectionWeights, error: i32, depth: i32) {
        let bonus = (error * depth / 4).clamp(-MAX_BONUS, MAX_BONUS);
        let [p, white, black] = Self::slots(stm, keys);
        for (i, weight) in [(p, w.pawn), (white, w.non_pawn), (black, w.non_pawn)] {
            if weight != 0 {
                gravity_within(&mut self.entries[i], bonus, LIMIT);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    const ALL: CorrectionWeights = CorrectionWeights { pawn: 512, non_pawn: 512 };

    fn keys(fen: &str) -> CorrectionKeys {
        CorrectionKeys::new(&board(fen))
    }

    fn board(fen: &str) -> Board {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        pos.board().clone()
    }

    #[test]
    fn keys_follow_the_pawns_and_each_sides_pieces() {
        let a = keys("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1");
        // The same pawns, another white piece placement: the pawn and black keys stay.
        let b = keys("4k3/pp6/8/8/8/8/PP6/2R1K3 w - - 0 1");
        assert_eq!(a.pawn, b.pawn);
        assert_eq!(a.non_pawn[1], b.non_pawn[1]);
        assert_ne!(a.non_pawn[0], b.non_pawn[0]);
        // A pawn moved: only the pawn key changes.
        let c = keys("4k3/pp6/8/8/8/1P6/P7/R3K3 w - - 0 1");
        assert_ne!(a.pawn, c.pawn);
        assert_eq!(a.non_pawn, c.non_pawn);
        // A knight appears: that side's non-pawn key changes.
        let d = keys("4k3/pp6/8/8/8/8/PP6/R3K1N1 w - - 0 1");
        assert_ne!(a.non_pawn[0], d.non_pawn[0]);
        assert_eq!(a.non_pawn[1], d.non_pawn[1]);
    }

    #[test]
    fn a_table_without_weight_learns_nothing() {
        let k = keys("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1");
        let mut ch = CorrectionHistory::new();
        let zero = CorrectionWeights::default();
        ch.update(Color::White, &k, &CorrectionWeights { pawn: 512, ..zero }, 100, 8);
        let only = |ch: &CorrectionHistory, w: CorrectionWeights| ch.correction(Color::White, &k, &w);
        assert!(only(&ch, CorrectionWeights { pawn: 512, ..zero }) > 0);
        assert_eq!(only(&ch, CorrectionWeights { non_pawn: 512, ..zero }), 0);
        ch.update(Color::White, &k, &ALL, 100, 8);
        assert!(only(&ch, CorrectionWeights { non_pawn: 512, ..zero }) > 0);
    }

    #[test]
    fn updates_converge_on_the_error_and_stay_bounded() {
        let keys = keys("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1");
        let mut ch = CorrectionHistory::new();
        assert_eq!(ch.correction(Color::White, &keys, &ALL), 0);
        // The search keeps scoring 40 cp above the corrected eval: the residual form learns
        // until the correction covers the error, then stops moving.
        for _ in 0..200 {
            let error = 40 - ch.correction(Color::White, &keys, &ALL);
            ch.update(Color::White, &keys, &ALL, error, 8);
        }
        let c = ch.correction(Color::White, &keys, &ALL);
        assert!((35..=45).contains(&c), "{c}");
        // The other side to move learnt nothing; weights 0 give nothing.
        assert_eq!(ch.correction(Color::Black, &keys, &ALL), 0);
        assert_eq!(ch.correction(Color::White, &keys, &CorrectionWeights::default()), 0);
        // Huge errors saturate at the limit, never overflow.
        for _ in 0..1000 {
            ch.update(Color::White, &keys, &ALL, 30_000, 60);
        }
        assert!(ch.entries.iter().all(|&e| i32::from(e).abs() <= LIMIT));
        ch.clear();
        assert_eq!(ch.correction(Color::White, &keys, &ALL), 0);
    }
}
