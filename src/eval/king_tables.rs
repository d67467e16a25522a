// Generated alongside params.rs: the king_shelter_* and king_storm_* fields as lookups by
// distance bucket (0..=3 ranks, 4 for 4 or more, 5 for none; see king::pawn_shield).

use super::{EvalParams, S};

/// The bucket of a distance of 4 ranks or more.
pub(crate) const FAR: usize = 4;
/// The bucket of "no such pawn".
pub(crate) const NONE: usize = 5;

/// The shelter entry for a file (0 = a/h .. 3 = d/e) and our pawn's distance bucket.
#[inline(always)]
pub(crate) fn shelter(p: &EvalParams, file: usize, bucket: usize) -> S {
    match (file, bucket) {
        (0, 0) => S::new(p.king_shelter_a_0_mg, p.king_shelter_a_0_eg),
        (0, 1) => S::new(p.king_shelter_a_1_mg, p.king_shelter_a_1_eg),
        (0, 2) => S::new(p.king_shelter_a_2_mg, p.king_shelter_a_2_eg),
        (0, 3) => S::new(p.king_shelter_a_3_mg, p.king_shelter_a_3_eg),
        (0, 4) => S::new(p.king_shelter_a_far_mg, p.king_shelter_a_far_eg),
        (0, 5) => S::new(p.king_shelter_a_none_mg, p.king_shelter_a_none_eg),
        (1, 0) => S::new(p.king_shelter_b_0_mg, p.king_shelter_b_0_eg),
        (1, 1) => S::new(p.king_shelter_b_1_mg, p.king_shelter_b_1_eg),
        (1, 2) => S::new(p.king_shelter_b_2_mg, p.king_shelter_b_2_eg),
        (1, 3) => S::new(p.king_shelter_b_3_mg, p.king_shelter_b_3_eg),
        (1, 4) => S::new(p.king_shelter_b_far_mg, p.king_shelter_b_far_eg),
        (1, 5) => S::new(p.king_shelter_b_none_mg, p.king_shelter_b_none_eg),
        (2, 0) => S::new(p.king_shelter_c_0_mg, p.king_shelter_c_0_eg),
        (2, 1) => S::new(p.king_shelter_c_1_mg, p.king_shelter_c_1_eg),
        (2, 2) => S::new(p.king_shelter_c_2_mg, p.king_shelter_c_2_eg),
        (2, 3) => S::new(p.king_shelter_c_3_mg, p.king_shelter_c_3_eg),
        (2, 4) => S::new(p.king_shelter_c_far_mg, p.king_shelter_c_far_eg),
        (2, 5) => S::new(p.king_shelter_c_none_mg, p.king_shelter_c_none_eg),
        (3, 0) => S::new(p.king_shelter_d_0_mg, p.king_shelter_d_0_eg),
        (3, 1) => S::new(p.king_shelter_d_1_mg, p.king_shelter_d_1_eg),
        (3, 2) => S::new(p.king_shelter_d_2_mg, p.king_shelter_d_2_eg),
        (3, 3) => S::new(p.king_shelter_d_3_mg, p.king_shelter_d_3_eg),
        (3, 4) => S::new(p.king_shelter_d_far_mg, p.king_shelter_d_far_eg),
        _ => S::new(p.king_shelter_d_none_mg, p.king_shelter_d_none_eg),
    }
}

/// The king's own file's extra shelter entry for our pawn's distance bucket (never 0: the
/// king stands there).
#[inline(always)]
pub(crate) fn shelter_own_file(p: &EvalParams, bucket: usize) -> S {
    match bucket {
        1 => S::new(p.king_shelter_own_file_1_mg, p.king_shelter_own_file_1_eg),
        2 => S::new(p.king_shelter_own_file_2_mg, p.king_shelter_own_file_2_eg),
        3 => S::new(p.king_shelter_own_file_3_mg, p.king_shelter_own_file_3_eg),
        4 => S::new(p.king_shelter_own_file_far_mg, p.king_shelter_own_file_far_eg),
        _ => S::new(p.king_shelter_own_file_none_mg, p.king_shelter_own_file_none_eg),
    }
}

/// The storm entry for their pawn's distance bucket; `blocked`: ours stands just ahead of
/// it (then the bucket is 2 to 4).
#[inline(always)]
pub(crate) fn storm(p: &EvalParams, blocked: bool, bucket: usize) -> S {
    match (blocked, bucket) {
        (false, 0) => S::new(p.king_storm_free_0_mg, p.king_storm_free_0_eg),
        (false, 1) => S::new(p.king_storm_free_1_mg, p.king_storm_free_1_eg),
        (false, 2) => S::new(p.king_storm_free_2_mg, p.king_storm_free_2_eg),
        (false, 3) => S::new(p.king_storm_free_3_mg, p.king_storm_free_3_eg),
        (false, 4) => S::new(p.king_storm_free_far_mg, p.king_storm_free_far_eg),
        (true, 2) => S::new(p.king_storm_blocked_2_mg, p.king_storm_blocked_2_eg),
        (true, 3) => S::new(p.king_storm_blocked_3_mg, p.king_storm_blocked_3_eg),
        (true, _) => S::new(p.king_storm_blocked_far_mg, p.king_storm_blocked_far_eg),
        (false, _) => S::new(p.king_storm_free_none_mg, p.king_storm_free_none_eg),
    }
}
