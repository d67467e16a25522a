//! Zobrist keys of positions: Polyglot-compatible 64-bit keys (shakmaty's `Zobrist64` with
//! `EnPassantMode::Legal`), as the transposition table, repetition detection, the opening book
//! and the tuner all key positions.
//!
//! The search updates keys incrementally where shakmaty can (most moves) and recomputes them
//! otherwise; [`key_after`] lets it know the child's key before making the move, to prefetch
//! its table bucket.

use shakmaty::{Chess, EnPassantMode, Move, Position, zobrist::Zobrist64};

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
