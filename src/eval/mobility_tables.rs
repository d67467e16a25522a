// Generated alongside params.rs: the mob_* fields as lookups by move count.

use super::{EvalParams, S};

/// The four tables expanded once per parameter set (what [`super::Evaluator`] reads: an index
/// instead of a match per piece).
#[derive(Clone)]
pub(crate) struct MobilityTable {
    pub knight: [S; 9],
    pub bishop: [S; 14],
    pub rook: [S; 15],
    pub queen: [S; 28],
}

impl MobilityTable {
    pub(crate) fn new(p: &EvalParams) -> MobilityTable {
        MobilityTable {
            knight: std::array::from_fn(|n| knight(p, n as u32)),
            bishop: std::array::from_fn(|n| bishop(p, n as u32)),
            rook: std::array::from_fn(|n| rook(p, n as u32)),
            queen: std::array::from_fn(|n| queen(p, n as u32)),
        }
    }
}

/// The knight mobility table's entry for `moves` (at most 8).
#[inline(always)]
pub(crate) fn knight(p: &EvalParams, moves: u32) -> S {
    match moves {
        0 => S::new(p.mob_knight_0_mg, p.mob_knight_0_eg),
        1 => S::new(p.mob_knight_1_mg, p.mob_knight_1_eg),
        2 => S::new(p.mob_knight_2_mg, p.mob_knight_2_eg),
        3 => S::new(p.mob_knight_3_mg, p.mob_knight_3_eg),
        4 => S::new(p.mob_knight_4_mg, p.mob_knight_4_eg),
        5 => S::new(p.mob_knight_5_mg, p.mob_knight_5_eg),
        6 => S::new(p.mob_knight_6_mg, p.mob_knight_6_eg),
        7 => S::new(p.mob_knight_7_mg, p.mob_knight_7_eg),
        _ => S::new(p.mob_knight_8_mg, p.mob_knight_8_eg),
    }
}

/// The bishop mobility table's entry for `moves` (at most 13).
#[inline(always)]
pub(crate) fn bishop(p: &EvalParams, moves: u32) -> S {
    match moves {
        0 => S::new(p.mob_bishop_0_mg, p.mob_bishop_0_eg),
        1 => S::new(p.mob_bishop_1_mg, p.mob_bishop_1_eg),
        2 => S::new(p.mob_bishop_2_mg, p.mob_bishop_2_eg),
        3 => S::new(p.mob_bishop_3_mg, p.mob_bishop_3_eg),
        4 => S::new(p.mob_bishop_4_mg, p.mob_bishop_4_eg),
        5 => S::new(p.mob_bishop_5_mg, p.mob_bishop_5_eg),
        6 => S::new(p.mob_bishop_6_mg, p.mob_bishop_6_eg),
        7 => S::new(p.mob_bishop_7_mg, p.mob_bishop_7_eg),
        8 => S::new(p.mob_bishop_8_mg, p.mob_bishop_8_eg),
        9 => S::new(p.mob_bishop_9_mg, p.mob_bishop_9_eg),
        10 => S::new(p.mob_bishop_10_mg, p.mob_bishop_10_eg),
        11 => S::new(p.mob_bishop_11_mg, p.mob_bishop_11_eg),
        12 => S::new(p.mob_bishop_12_mg, p.mob_bishop_12_eg),
        _ => S::new(p.mob_bishop_13_mg, p.mob_bishop_13_eg),
    }
}

/// The rook mobility table's entry for `moves` (at most 14).
#[inline(always)]
pub(crate) fn rook(p: &EvalParams, moves: u32) -> S {
    match moves {
        0 => S::new(p.mob_rook_0_mg, p.mob_rook_0_eg),
        1 => S::new(p.mob_rook_1_mg, p.mob_rook_1_eg),
        2 => S::new(p.mob_rook_2_mg, p.mob_rook_2_eg),
        3 => S::new(p.mob_rook_3_mg, p.mob_rook_3_eg),
        4 => S::new(p.mob_rook_4_mg, p.mob_rook_4_eg),
        5 => S::new(p.mob_rook_5_mg, p.mob_rook_5_eg),
        6 => S::new(p.mob_rook_6_mg, p.mob_rook_6_eg),
        7 => S::new(p.mob_rook_7_mg, p.mob_rook_7_eg),
        8 => S::new(p.mob_rook_8_mg, p.mob_rook_8_eg),
        9 => S::new(p.mob_rook_9_mg, p.mob_rook_9_eg),
        10 => S::new(p.mob_rook_10_mg, p.mob_rook_10_eg),
        11 => S::new(p.mob_rook_11_mg, p.mob_rook_11_eg),
        12 => S::new(p.mob_rook_12_mg, p.mob_rook_12_eg),
        13 => S::new(p.mob_rook_13_mg, p.mob_rook_13_eg),
        _ => S::new(p.mob_rook_14_mg, p.mob_rook_14_eg),
    }
}

/// The queen mobility table's entry for `moves` (at most 27).
#[inline(always)]
pub(crate) fn queen(p: &EvalParams, moves: u32) -> S {
    match moves {
        0 => S::new(p.mob_queen_0_mg, p.mob_queen_0_eg),
        1 => S::new(p.mob_queen_1_mg, p.mob_queen_1_eg),
        2 => S::new(p.mob_queen_2_mg, p.mob_queen_2_eg),
        3 => S::new(p.mob_queen_3_mg, p.mob_queen_3_eg),
        4 => S::new(p.mob_queen_4_mg, p.mob_queen_4_eg),
        5 => S::new(p.mob_queen_5_mg, p.mob_queen_5_eg),
        6 => S::new(p.mob_queen_6_mg, p.mob_queen_6_eg),
        7 => S::new(p.mob_queen_7_mg, p.mob_queen_7_eg),
        8 => S::new(p.mob_queen_8_mg, p.mob_queen_8_eg),
        9 => S::new(p.mob_queen_9_mg, p.mob_queen_9_eg),
        10 => S::new(p.mob_queen_10_mg, p.mob_queen_10_eg),
        11 => S::new(p.mob_queen_11_mg, p.mob_queen_11_eg),
        12 => S::new(p.mob_queen_12_mg, p.mob_queen_12_eg),
        13 => S::new(p.mob_queen_13_mg, p.mob_queen_13_eg),
        14 => S::new(p.mob_queen_14_mg, p.mob_queen_14_eg),
        15 => S::new(p.mob_queen_15_mg, p.mob_queen_15_eg),
        16 => S::new(p.mob_queen_16_mg, p.mob_queen_16_eg),
        17 => S::new(p.mob_queen_17_mg, p.mob_queen_17_eg),
        18 => S::new(p.mob_queen_18_mg, p.mob_queen_18_eg),
        19 => S::new(p.mob_queen_19_mg, p.mob_queen_19_eg),
        20 => S::new(p.mob_queen_20_mg, p.mob_queen_20_eg),
        21 => S::new(p.mob_queen_21_mg, p.mob_queen_21_eg),
        22 => S::new(p.mob_queen_22_mg, p.mob_queen_22_eg),
        23 => S::new(p.mob_queen_23_mg, p.mob_queen_23_eg),
        24 => S::new(p.mob_queen_24_mg, p.mob_queen_24_eg),
        25 => S::new(p.mob_queen_25_mg, p.mob_queen_25_eg),
        26 => S::new(p.mob_queen_26_mg, p.mob_queen_26_eg),
        _ => S::new(p.mob_queen_27_mg, p.mob_queen_27_eg),
    }
}
