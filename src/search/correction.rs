//! Correction history (Stockfish's, also Berserk's): what the search learnt about how far the
//! static evaluation misses in positions like this one, added to the evaluation that pruning,
//! `improving` and the quiescence's stand pat see.
//!
//! Tables per side to move, indexed by a hash of the pawn structure, by a hash of each side's
//! non-pawn pieces (king included) and by a hash of the minor pieces and kings of both sides;
//! and a continuation table indexed by the last two moves (Stockfish's `continuationCorrection`:
//! the piece and destination of the move two plies back, then of the opponent's last). At the
//! end of a node whose score says something about the evaluation (not in check, best move
//! quiet or none, the bound on the side of the error), every entry of the position moves by a
//! depth-weighted share of what the corrected evaluation still missed, with the histories'
//! gravity bounding it: the tables learn the residual, so together they sum to the error
//! rather than each converging to all of it.
//!
//! All weights at 0 switch it off exactly: no key is computed and nothing learnt. A table whose
//! weight is 0 is neither read nor learnt.

use shakmaty::{Bitboard, Board, Color, Role};

use super::history::{PieceTo, gravity_within};

/// Entries per side to move in each table (a power of two).
const ENTRIES: usize = 16_384;
/// Bound of every entry (gravity's limit).
const LIMIT: i32 = 1_024;
/// Largest single update.
const MAX_BONUS: i32 = LIMIT / 4;
/// A correction is `weight × entry / WEIGHT_DIVISOR` centipawns: at weight 512 a full entry is
/// 32 cp.
const WEIGHT_DIVISOR: i32 = 16_384;

/// Entries of the continuation table: one per pair of piece-to's.
const CONTINUATION_ENTRIES: usize = PieceTo::COUNT * PieceTo::COUNT;

/// The weights of the tables in the correction (`corr_*_weight`), all 0 = off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionWeights {
    pub pawn: i32,
    pub non_pawn: i32,
    pub minor: i32,
    pub continuation: i32,
}

impl CorrectionWeights {
    pub fn any(&self) -> bool {
        self.pawn != 0 || self.non_pawn != 0 || self.minor != 0 || self.continuation != 0
    }
}

/// The keys of a position's entries, computed once per node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CorrectionKeys {
    pawn: usize,
    /// Indexed by piece colour.
    non_pawn: [usize; 2],
    minor: usize,
    /// The continuation entry of the last two moves; `None` after a null move, near the root,
    /// or when its weight is 0.
    continuation: Option<usize>,
}

impl CorrectionKeys {
    /// The keys of `board`, reached by `prev2` then `prev1` (the move two plies back and the
    /// opponent's last move, when both were real moves).
    pub fn new(board: &Board, prev2: Option<PieceTo>, prev1: Option<PieceTo>, w: &CorrectionWeights) -> CorrectionKeys {
        let (white, black) = (board.white(), board.black());
        let non_pawn = |side: Bitboard| {
            [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King]
                .into_iter()
                .fold(0, |h, role| fold(h, board.by_role(role) & side))
        };
        let minor = if w.minor != 0 {
            let minors_and_kings = board.knights() | board.bishops() | board.kings();
            index(fold(fold(0, minors_and_kings & white), minors_and_kings & black))
        } else {
            0
        };
        let continuation = match (prev2, prev1) {
            (Some(a), Some(b)) if w.continuation != 0 => Some(a.index() * PieceTo::COUNT + b.index()),
            _ => None,
        };
        CorrectionKeys {
            pawn: index(pawn_key(board)),
            non_pawn: [index(non_pawn(white)), index(non_pawn(black))],
            minor,
            continuation,
        }
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

/// One search thread's correction tables (1.4 MiB), kept from move to move like the other
/// histories and cleared by `ucinewgame`.
pub struct CorrectionHistory {
    /// [side to move][table][key], the tables being the pawns', the white and black non-pawn
    /// pieces' and the minor pieces'.
    entries: Vec<i16>,
    /// [piece-to two plies back][piece-to of the last move]; the side to move is implied.
    continuation: Vec<i16>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory::new()
    }
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { entries: vec![0; 2 * 4 * ENTRIES], continuation: vec![0; CONTINUATION_ENTRIES] }
    }

    pub fn clear(&mut self) {
        self.entries.fill(0);
        self.continuation.fill(0);
    }

    /// Where the position's pawn, white non-pawn, black non-pawn and minor entries are.
    #[inline]
    fn slots(stm: Color, keys: &CorrectionKeys) -> [usize; 4] {
        let base = stm as usize * 4 * ENTRIES;
        [
            base + keys.pawn,
            base + ENTRIES + keys.non_pawn[0],
            base + 2 * ENTRIES + keys.non_pawn[1],
            base + 3 * ENTRIES + keys.minor,
        ]
    }

    /// The correction in centipawns for the side to move `stm`.
    #[inline]
    pub fn correction(&self, stm: Color, keys: &CorrectionKeys, w: &CorrectionWeights) -> i32 {
        let [p, white, black, minor] = Self::slots(stm, keys).map(|i| i32::from(self.entries[i]));
        let cont = keys.continuation.map_or(0, |i| i32::from(self.continuation[i]));
        (w.pawn * p + w.non_pawn * (white + black) + w.minor * minor + w.continuation * cont) / WEIGHT_DIVISOR
    }

    /// Learns that a search of `depth` plies scored `error` centipawns above the corrected
    /// evaluation (the tables whose weight is 0 stay as they are).
    #[inline]
    pub fn update(&mut self, stm: Color, keys: &CorrectionKeys, w: &CorrectionWeights, error: i32, depth: i32) {
        let bonus = (error * depth / 4).clamp(-MAX_BONUS, MAX_BONUS);
        let [p, white, black, minor] = Self::slots(stm, keys);
        for (i, weight) in [(p, w.pawn), (white, w.non_pawn), (black, w.non_pawn), (minor, w.minor)] {
            if weight != 0 {
                gravity_within(&mut self.entries[i], bonus, LIMIT);
            }
        }
        if let Some(i) = keys.continuation
            && w.continuation != 0
        {
            gravity_within(&mut self.continuation[i], bonus, LIMIT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    const ALL: CorrectionWeights = CorrectionWeights { pawn: 512, non_pawn: 512, minor: 512, continuation: 512 };
    const CLASSIC: CorrectionWeights = CorrectionWeights { pawn: 512, non_pawn: 512, minor: 0, continuation: 0 };

    fn keys(fen: &str) -> CorrectionKeys {
        CorrectionKeys::new(&board(fen), None, None, &ALL)
    }

    fn board(fen: &str) -> Board {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        pos.board().clone()
    }

    #[test]
    fn keys_follow_the_pawns_and_each_sides_pieces() {
        let a = keys("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1");
        // The same pawns, another white piece placement: the pawn, black and minor keys stay.
        let b = keys("4k3/pp6/8/8/8/8/PP6/2R1K3 w - - 0 1");
        assert_eq!(a.pawn, b.pawn);
        assert_eq!(a.non_pawn[1], b.non_pawn[1]);
        assert_eq!(a.minor, b.minor);
        assert_ne!(a.non_pawn[0], b.non_pawn[0]);
        // A pawn moved: only the pawn key changes.
        let c = keys("4k3/pp6/8/8/8/1P6/P7/R3K3 w - - 0 1");
        assert_ne!(a.pawn, c.pawn);
        assert_eq!(a.non_pawn, c.non_pawn);
        assert_eq!(a.minor, c.minor);
        // A knight appears: the minor key and that side's non-pawn key change.
        let d = keys("4k3/pp6/8/8/8/8/PP6/R3K1N1 w - - 0 1");
        assert_ne!(a.minor, d.minor);
        assert_ne!(a.non_pawn[0], d.non_pawn[0]);
        assert_eq!(a.non_pawn[1], d.non_pawn[1]);
    }

    #[test]
    fn the_continuation_key_needs_two_real_moves_and_its_weight() {
        let b = board("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1");
        let e2e4 = PieceTo { piece: 0, to: 28 };
        let e7e5 = PieceTo { piece: 6, to: 36 };
        let both = CorrectionKeys::new(&b, Some(e2e4), Some(e7e5), &ALL).continuation;
        let swapped = CorrectionKeys::new(&b, Some(e7e5), Some(e2e4), &ALL).continuation;
        assert!(both.is_some());
        assert_ne!(both, swapped);
        assert_eq!(CorrectionKeys::new(&b, None, Some(e7e5), &ALL).continuation, None);
        assert_eq!(CorrectionKeys::new(&b, Some(e2e4), Some(e7e5), &CLASSIC).continuation, None);
    }

    #[test]
    fn a_table_without_weight_learns_nothing() {
        let e2e4 = PieceTo { piece: 0, to: 28 };
        let e7e5 = PieceTo { piece: 6, to: 36 };
        let b = board("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1");
        let k = CorrectionKeys::new(&b, Some(e2e4), Some(e7e5), &ALL);
        let mut ch = CorrectionHistory::new();
        ch.update(Color::White, &k, &CLASSIC, 100, 8);
        let only = |ch: &CorrectionHistory, w: CorrectionWeights| ch.correction(Color::White, &k, &w);
        let zero = CorrectionWeights::default();
        assert!(only(&ch, CorrectionWeights { pawn: 512, ..zero }) > 0);
        assert_eq!(only(&ch, CorrectionWeights { minor: 512, ..zero }), 0);
        assert_eq!(only(&ch, CorrectionWeights { continuation: 512, ..zero }), 0);
        ch.update(Color::White, &k, &ALL, 100, 8);
        assert!(only(&ch, CorrectionWeights { minor: 512, ..zero }) > 0);
        assert!(only(&ch, CorrectionWeights { continuation: 512, ..zero }) > 0);
    }

    #[test]
    fn updates_converge_on_the_error_and_stay_bounded() {
        let e2e4 = PieceTo { piece: 0, to: 28 };
        let e7e5 = PieceTo { piece: 6, to: 36 };
        let keys = CorrectionKeys::new(&board("4k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1"), Some(e2e4), Some(e7e5), &ALL);
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
        // The other side to move learnt nothing (the continuation entry is keyed by the
        // moves, which imply the side to move); weights 0 give nothing.
        assert_eq!(ch.correction(Color::Black, &keys, &CLASSIC), 0);
        assert_eq!(ch.correction(Color::White, &keys, &CorrectionWeights::default()), 0);
        // Huge errors saturate at the limit, never overflow.
        for _ in 0..1000 {
            ch.update(Color::White, &keys, &ALL, 30_000, 60);
        }
        assert!(ch.entries.iter().chain(&ch.continuation).all(|&e| i32::from(e).abs() <= LIMIT));
        ch.clear();
        assert_eq!(ch.correction(Color::White, &keys, &ALL), 0);
    }
}
