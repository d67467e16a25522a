//! Zobrist keys of positions: Polyglot-compatible 64-bit keys (shakmaty's `Zobrist64` with
//! `EnPassantMode::Legal`), as the transposition table, repetition detection, the opening book
//! and the tuner all key positions.
//!
//! The search updates keys incrementally where shakmaty can (most moves) and recomputes them
//! otherwise; [`key_after`] lets it know the child's key before making the move, to prefetch
//! its table bucket.
//!
//! Keys of parts of a position ([`pawn_key`], [`minor_key`]) key the evaluation's pawn table
//! and the correction histories. They are not Zobrist keys but a mix of the bitboards
//! involved, computed from the board where they are needed: a few multiplications, and no
//! incremental update to keep in step with shakmaty's.

use shakmaty::{Board, Chess, EnPassantMode, Move, Position, zobrist::Zobrist64};

/// Zobrist key of a position (Polyglot-compatible).
#[inline]
pub fn hash(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// Key of `pos` after `m` if it can be updated incrementally (no king move, castling-rights
/// change, double push or en passant square involved).
#[inline]
pub fn key_after(pos: &Chess, key: u64, m: Move) -> Option<u64> {
    pos.update_zobrist_hash::<Zobrist64>(Zobrist64(key), m, EnPassantMode::Legal).map(|k| k.0)
}

/// Key of `pos` after `m`, incrementally where shakmaty supports it.
#[inline]
pub fn hash_after(pos: &Chess, key: u64, m: Move, child: &Chess) -> u64 {
    match pos.update_zobrist_hash::<Zobrist64>(Zobrist64(key), m, EnPassantMode::Legal) {
        Some(k) => k.0,
        None => hash(child),
    }
}

/// Key of the pawn structure alone (both sides' pawns).
#[inline]
pub fn pawn_key(board: &Board) -> u64 {
    let pawns = board.pawns();
    pawn_key_of((pawns & board.white()).0, (pawns & board.black()).0)
}

/// [`pawn_key`] of white's and black's pawn bitboards.
#[inline]
pub fn pawn_key_of(white: u64, black: u64) -> u64 {
    mix(mix(white) ^ black)
}

/// Key of where the knights, bishops and kings of both sides stand (Stockfish's minor-piece
/// key).
#[inline]
pub fn minor_key(board: &Board) -> u64 {
    let minors = board.knights() | board.bishops() | board.kings();
    mix(mix(mix((minors & board.white()).0) ^ (minors & board.black()).0) ^ board.bishops().0)
}

/// splitmix64's finaliser: a bijection of `u64` in which every output bit depends on every
/// input bit, so that the low bits of a key index a table well.
#[inline]
const fn mix(x: u64) -> u64 {
    let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    use super::{minor_key, pawn_key};

    fn board(fen: &str) -> shakmaty::Board {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        pos.board().clone()
    }

    #[test]
    fn part_keys_see_only_their_pieces() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // Without rooks and queens: neither key changes.
        let heavy = board("1nb1kbn1/pppppppp/8/8/8/8/PPPPPPPP/1NB1KBN1 w - - 0 1");
        assert_eq!(pawn_key(&start), pawn_key(&heavy));
        assert_eq!(minor_key(&start), minor_key(&heavy));
        // A pawn moved: the pawn key changes, the minor key does not.
        let e4 = board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_ne!(pawn_key(&start), pawn_key(&e4));
        assert_eq!(minor_key(&start), minor_key(&e4));
        // A knight moved: the reverse.
        let nf3 = board("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
        assert_eq!(pawn_key(&start), pawn_key(&nf3));
        assert_ne!(minor_key(&start), minor_key(&nf3));
        // The same squares with colours or piece kinds swapped are other keys.
        assert_ne!(
            pawn_key(&board("4k3/8/8/8/8/8/P7/4K3 w - - 0 1")),
            pawn_key(&board("4k3/8/8/8/8/8/p7/4K3 w - - 0 1"))
        );
        assert_ne!(
            minor_key(&board("4k3/8/8/8/8/8/N7/4K3 w - - 0 1")),
            minor_key(&board("4k3/8/8/8/8/8/B7/4K3 w - - 0 1"))
        );
    }
}
