//! Search scores: centipawns, mate and tablebase bounds, and their ply adjustments.
//!
//! Scores are `i32` centipawns from the side to move's point of view. The range is split as
//!
//! ```text
//!  -INFINITE < -MATE .. -MATE_IN_MAX < -TB_WIN .. -TB_WIN_IN_MAX < eval < TB_WIN_IN_MAX .. TB_WIN < MATE_IN_MAX .. MATE < INFINITE
//! ```
//!
//! A mate found at ply `p` scores `MATE - p`; a tablebase win reached at ply `p` scores
//! `TB_WIN - p`. Static evaluations are clamped strictly inside the tablebase bounds so that
//! they can never be mistaken for a proven result. The transposition table stores mate and TB
//! scores relative to the node that stores them ([`to_tt`]/[`from_tt`]).

/// Deepest ply the search can reach (stack and PV sizes).
pub const MAX_PLY: usize = 128;
/// Larger than any real score; the initial window.
pub const INFINITE: i32 = 32_001;
/// Mate at the root (ply 0).
pub const MATE: i32 = 32_000;
/// Scores at or above this are mates found within the search horizon.
pub const MATE_IN_MAX: i32 = MATE - MAX_PLY as i32;
/// A tablebase win at the root.
pub const TB_WIN: i32 = MATE_IN_MAX - 1;
/// Scores at or above this (and below [`MATE_IN_MAX`]) are proven tablebase wins.
pub const TB_WIN_IN_MAX: i32 = TB_WIN - MAX_PLY as i32;
/// Largest magnitude a static evaluation may take.
pub const EVAL_MAX: i32 = TB_WIN_IN_MAX - 1;
/// Centipawn value UCI reports for a TB win at the root (`cp 20000` minus the distance), the
/// convention GUIs and adjudicators recognise as "won, but not a counted mate".
pub const TB_WIN_REPORT: i32 = 20_000;
/// Draw score.
pub const DRAW: i32 = 0;

/// Score of giving mate at `ply`.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// Score of being mated at `ply`.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// Score of a tablebase win (for the side to move) at `ply`.
#[inline]
pub const fn tb_win_in(ply: usize) -> i32 {
    TB_WIN - ply as i32
}

/// True for proven scores (mates and tablebase results) in either direction.
#[inline]
pub const fn is_decisive(score: i32) -> bool {
    score.abs() >= TB_WIN_IN_MAX
}

/// True for mate scores in either direction.
#[inline]
pub const fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_IN_MAX
}

/// Clamps a static evaluation so it can never look like a proven result.
#[inline]
pub const fn clamp_eval(eval: i32) -> i32 {
    if eval > EVAL_MAX {
        EVAL_MAX
    } else if eval < -EVAL_MAX {
        -EVAL_MAX
    } else {
        eval
    }
}

/// Converts a search score at `ply` to the node-relative form stored in the TT.
#[inline]
pub const fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_IN_MAX {
        score + ply as i32
    } else if score <= -TB_WIN_IN_MAX {
        score - ply as i32
    } else {
        score
    }
}

/// Converts a TT score back to a search score at `ply`.
///
/// A stored TB or mate score is re-based on the current ply; a mate that, re-based, would lie
/// beyond the horizon is demoted to a TB-range bound instead of being reported as a false mate.
#[inline]
pub const fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_IN_MAX {
        let s = score - ply as i32;
        if score >= MATE_IN_MAX && s < MATE_IN_MAX { MATE_IN_MAX - 1 } else { s }
    } else if score <= -TB_WIN_IN_MAX {
        let s = score + ply as i32;
        if score <= -MATE_IN_MAX && s > -MATE_IN_MAX { -MATE_IN_MAX + 1 } else { s }
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tt_round_trip_keeps_distance_to_mate() {
        for ply in [0, 1, 7, 60] {
            for s in [mate_in(ply + 5), mated_in(ply + 2), tb_win_in(ply + 9), -tb_win_in(ply + 1), 123, -40] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        // Stored at ply 10 as mate at ply 12 (distance 2); read at ply 3 it is mate at ply 5.
        assert_eq!(from_tt(to_tt(mate_in(12), 10), 3), mate_in(5));
        assert!(clamp_eval(1_000_000) < TB_WIN_IN_MAX);
    }
}
