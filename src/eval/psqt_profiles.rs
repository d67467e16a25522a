// Generated alongside params.rs: gathers the pst_* fields into arrays.

use super::{EvalParams, S};

/// Per role (pawn..king): file terms for files a/h, b/g, c/f, d/e.
pub(crate) fn file_terms(p: &EvalParams) -> [[S; 4]; 6] {
    [
        [
            S::new(p.pst_pawn_file_a_mg, p.pst_pawn_file_a_eg),
            S::new(p.pst_pawn_file_b_mg, p.pst_pawn_file_b_eg),
            S::new(p.pst_pawn_file_c_mg, p.pst_pawn_file_c_eg),
            S::new(p.pst_pawn_file_d_mg, p.pst_pawn_file_d_eg),
        ],
        [
            S::new(p.pst_knight_file_a_mg, p.pst_knight_file_a_eg),
            S::new(p.pst_knight_file_b_mg, p.pst_knight_file_b_eg),
            S::new(p.pst_knight_file_c_mg, p.pst_knight_file_c_eg),
            S::new(p.pst_knight_file_d_mg, p.pst_knight_file_d_eg),
        ],
        [
            S::new(p.pst_bishop_file_a_mg, p.pst_bishop_file_a_eg),
            S::new(p.pst_bishop_file_b_mg, p.pst_bishop_file_b_eg),
            S::new(p.pst_bishop_file_c_mg, p.pst_bishop_file_c_eg),
            S::new(p.pst_bishop_file_d_mg, p.pst_bishop_file_d_eg),
        ],
        [
            S::new(p.pst_rook_file_a_mg, p.pst_rook_file_a_eg),
            S::new(p.pst_rook_file_b_mg, p.pst_rook_file_b_eg),
            S::new(p.pst_rook_file_c_mg, p.pst_rook_file_c_eg),
            S::new(p.pst_rook_file_d_mg, p.pst_rook_file_d_eg),
        ],
        [
            S::new(p.pst_queen_file_a_mg, p.pst_queen_file_a_eg),
            S::new(p.pst_queen_file_b_mg, p.pst_queen_file_b_eg),
            S::new(p.pst_queen_file_c_mg, p.pst_queen_file_c_eg),
            S::new(p.pst_queen_file_d_mg, p.pst_queen_file_d_eg),
        ],
        [
            S::new(p.pst_king_file_a_mg, p.pst_king_file_a_eg),
            S::new(p.pst_king_file_b_mg, p.pst_king_file_b_eg),
            S::new(p.pst_king_file_c_mg, p.pst_king_file_c_eg),
            S::new(p.pst_king_file_d_mg, p.pst_king_file_d_eg),
        ],
    ]
}

/// Per role (pawn..king): relative-rank terms for ranks 1..8 (pawn ranks 1 and 8 are zero).
pub(crate) fn rank_terms(p: &EvalParams) -> [[S; 8]; 6] {
    [
        [
            S::ZERO,
            S::new(p.pst_pawn_rank_2_mg, p.pst_pawn_rank_2_eg),
            S::new(p.pst_pawn_rank_3_mg, p.pst_pawn_rank_3_eg),
            S::new(p.pst_pawn_rank_4_mg, p.pst_pawn_rank_4_eg),
            S::new(p.pst_pawn_rank_5_mg, p.pst_pawn_rank_5_eg),
            S::new(p.pst_pawn_rank_6_mg, p.pst_pawn_rank_6_eg),
            S::new(p.pst_pawn_rank_7_mg, p.pst_pawn_rank_7_eg),
            S::ZERO,
        ],
        [
            S::new(p.pst_knight_rank_1_mg, p.pst_knight_rank_1_eg),
            S::new(p.pst_knight_rank_2_mg, p.pst_knight_rank_2_eg),
            S::new(p.pst_knight_rank_3_mg, p.pst_knight_rank_3_eg),
            S::new(p.pst_knight_rank_4_mg, p.pst_knight_rank_4_eg),
            S::new(p.pst_knight_rank_5_mg, p.pst_knight_rank_5_eg),
            S::new(p.pst_knight_rank_6_mg, p.pst_knight_rank_6_eg),
            S::new(p.pst_knight_rank_7_mg, p.pst_knight_rank_7_eg),
            S::new(p.pst_knight_rank_8_mg, p.pst_knight_rank_8_eg),
        ],
        [
            S::new(p.pst_bishop_rank_1_mg, p.pst_bishop_rank_1_eg),
            S::new(p.pst_bishop_rank_2_mg, p.pst_bishop_rank_2_eg),
            S::new(p.pst_bishop_rank_3_mg, p.pst_bishop_rank_3_eg),
            S::new(p.pst_bishop_rank_4_mg, p.pst_bishop_rank_4_eg),
            S::new(p.pst_bishop_rank_5_mg, p.pst_bishop_rank_5_eg),
            S::new(p.pst_bishop_rank_6_mg, p.pst_bishop_rank_6_eg),
            S::new(p.pst_bishop_rank_7_mg, p.pst_bishop_rank_7_eg),
            S::new(p.pst_bishop_rank_8_mg, p.pst_bishop_rank_8_eg),
        ],
        [
            S::new(p.pst_rook_rank_1_mg, p.pst_rook_rank_1_eg),
            S::new(p.pst_rook_rank_2_mg, p.pst_rook_rank_2_eg),
            S::new(p.pst_rook_rank_3_mg, p.pst_rook_rank_3_eg),
            S::new(p.pst_rook_rank_4_mg, p.pst_rook_rank_4_eg),
            S::new(p.pst_rook_rank_5_mg, p.pst_rook_rank_5_eg),
            S::new(p.pst_rook_rank_6_mg, p.pst_rook_rank_6_eg),
            S::new(p.pst_rook_rank_7_mg, p.pst_rook_rank_7_eg),
            S::new(p.pst_rook_rank_8_mg, p.pst_rook_rank_8_eg),
        ],
        [
            S::new(p.pst_queen_rank_1_mg, p.pst_queen_rank_1_eg),
            S::new(p.pst_queen_rank_2_mg, p.pst_queen_rank_2_eg),
            S::new(p.pst_queen_rank_3_mg, p.pst_queen_rank_3_eg),
            S::new(p.pst_queen_rank_4_mg, p.pst_queen_rank_4_eg),
            S::new(p.pst_queen_rank_5_mg, p.pst_queen_rank_5_eg),
            S::new(p.pst_queen_rank_6_mg, p.pst_queen_rank_6_eg),
            S::new(p.pst_queen_rank_7_mg, p.pst_queen_rank_7_eg),
            S::new(p.pst_queen_rank_8_mg, p.pst_queen_rank_8_eg),
        ],
        [
            S::new(p.pst_king_rank_1_mg, p.pst_king_rank_1_eg),
            S::new(p.pst_king_rank_2_mg, p.pst_king_rank_2_eg),
            S::new(p.pst_king_rank_3_mg, p.pst_king_rank_3_eg),
            S::new(p.pst_king_rank_4_mg, p.pst_king_rank_4_eg),
            S::new(p.pst_king_rank_5_mg, p.pst_king_rank_5_eg),
            S::new(p.pst_king_rank_6_mg, p.pst_king_rank_6_eg),
            S::new(p.pst_king_rank_7_mg, p.pst_king_rank_7_eg),
            S::new(p.pst_king_rank_8_mg, p.pst_king_rank_8_eg),
        ],
    ]
}
