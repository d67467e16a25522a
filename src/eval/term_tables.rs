// Generated alongside params.rs: the format-4 table terms after Ethereal 12 (pawn_connected_*,
// pawn_candidate_*, ...) as lookups by the index the evaluation computes.

use super::{EvalParams, S, king_tables, threats::THREATS};

/// The table terms an evaluation reads, expanded once per parameter set (what
/// [`super::Evaluator`] reads): an index instead of a match, whose entries the compiler would
/// otherwise gather and pack up front in every evaluation (or pawn-table miss) that reads one.
#[derive(Clone)]
pub(crate) struct TermTables {
    /// [`passed_rank`] by relative rank index, stop square empty, not attacked (rank 0 unused).
    pub passed_rank: [[[S; 2]; 2]; 7],
    /// [`passed_friendly_distance`] and [`passed_enemy_distance`] by relative rank index
    /// (0 unused).
    pub passed_friendly_distance: [S; 7],
    pub passed_enemy_distance: [S; 7],
    /// [`knight_siberia`] by distance (below 4 unused).
    pub knight_siberia: [S; 8],
    /// [`king_defenders`] by count.
    pub king_defenders: [S; 12],
    /// [`closedness_knight`] and [`closedness_rook`] by closedness.
    pub closedness_knight: [S; 9],
    pub closedness_rook: [S; 9],
    /// The pawn tables (read on a pawn-table miss): [`pawn_connected`] by index,
    /// [`pawn_candidate`] and [`pawn_backward`] by flag and relative rank index.
    pub pawn_connected: [S; 24],
    pub pawn_candidate: [[S; 8]; 2],
    pub pawn_backward: [[S; 8]; 2],
    /// The king shelter and storm tables (read on a king-entry miss): [`king_tables::shelter`]
    /// by mirrored file and bucket, [`king_tables::shelter_own_file`] and
    /// [`king_tables::storm`] (by blocked) by bucket.
    pub king_shelter: [[S; 6]; 4],
    pub king_shelter_own_file: [S; 6],
    pub king_storm: [[S; 6]; 2],
    /// The pairs every evaluation reads.
    pub pairs: Pairs,
}

/// The parameter pairs the evaluation reads at every node (outside the pawn and material
/// tables), packed once per parameter set: an `S::new(mg, eg)` packed at each use costs a few
/// instructions. [`Pairs::new`] packs them for the evaluation without [`TermTables`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pairs {
    /// The piece values (`material`), pawn to queen.
    pub material: [S; 5],
    /// Space (`space`), far pawns and the passed-pawn path terms (`pawns`).
    pub space_restrict_piece: S,
    pub space_restrict_empty: S,
    pub space_centre_control: S,
    pub far_pawn: S,
    pub passed_blocked: S,
    pub passed_safe_push: S,
    pub passed_free_path: S,
    pub passed_own_king_dist: S,
    pub passed_safe_promotion_path: S,
    /// The piece terms (`pieces`), as they stand there (a single value for both phases, or
    /// the middlegame only, or a pair).
    pub knight_mobility: S,
    pub knight_mobility_high: S,
    pub knight_sq_mult: S,
    pub knight_outpost_mult: S,
    pub knight_first_rank: S,
    pub low_mobility_knight: S,
    pub knight_behind_pawn: S,
    pub bishop_mobility: S,
    pub bishop_outpost: S,
    pub bishop_pair: S,
    pub bishop_first_rank: S,
    pub low_mobility_bishop: S,
    pub bishop_colour_pawns: S,
    pub bishop_behind_pawn: S,
    pub bishop_long_diagonal: S,
    pub rook_mobility: S,
    pub rook_connected: S,
    pub rook_supported_passer: S,
    pub rook_open_file: S,
    pub rook_semi_open_file: S,
    pub rook_atck_weak_pawn_open_column: S,
    pub rook_7th_rank: S,
    pub rook_column_mult: S,
    pub rook_attack_king_file: S,
    pub rook_attack_king_adj_file: S,
    pub rook_attack_king_adj_file_abgh: S,
    pub rook_behind_passed_pawn: S,
    pub low_mobility_rook: S,
    pub queen_mobility: S,
    pub low_mobility_queen: S,
    pub queen_relative_pin: S,
    /// Stockfish 11's piece terms (`pieces`): a minor's distance to its king (subtracted), a
    /// minor that can reach an outpost, a rook on a queen's file, a rook shut in by its king
    /// (subtracted).
    pub king_protector: S,
    pub knight_reachable_outpost: S,
    pub bishop_reachable_outpost: S,
    pub rook_on_queen_file: S,
    pub trapped_rook: S,
    /// Stockfish's weak unopposed pawns (`pawns`, subtracted).
    pub pawn_weak_unopposed: S,
    /// Knight and bishop outposts (`piece_tables`) by [edge file][defended by a pawn].
    pub knight_outpost_by_file: [[S; 2]; 2],
    pub bishop_outpost_by_file: [[S; 2]; 2],
    pub bishop_rammed_pawns: S,
    pub rook_file_open: S,
    pub rook_file_semi_open: S,
    pub rook_on_seventh: S,
    /// The batteries.
    pub rook_doubled: S,
    pub rook_queen_battery: S,
    /// The threat weights in the order of `threats::counts`, signed as they count for the side
    /// that has the threats counted: the pieces attacked negative, the threats it makes (pawn
    /// pushes, safe pawns, squares that would attack the enemy queen) positive.
    pub threats: [S; THREATS],
}

impl Pairs {
    #[inline(always)]
    pub(crate) fn new(p: &EvalParams) -> Pairs {
        Pairs {
            material: [
                S::new(p.pawn_mg, p.pawn_eg),
                S::new(p.knight_mg, p.knight_eg),
                S::new(p.bishop_mg, p.bishop_eg),
                S::new(p.rook_mg, p.rook_eg),
                S::new(p.queen_mg, p.queen_eg),
            ],
            space_restrict_piece: S::new(p.space_restrict_piece_mg, p.space_restrict_piece_eg),
            space_restrict_empty: S::new(p.space_restrict_empty_mg, p.space_restrict_empty_eg),
            space_centre_control: S::new(p.space_centre_control_mg, p.space_centre_control_eg),
            far_pawn: S::new(p.far_pawn, p.far_pawn),
            passed_blocked: S::new(p.passed_blocked_mg, p.passed_blocked_eg),
            passed_safe_push: S::new(p.passed_safe_push_mg, p.passed_safe_push_eg),
            passed_free_path: S::new(0, p.passed_free_path_eg),
            passed_own_king_dist: S::new(0, p.passed_own_king_dist),
            passed_safe_promotion_path: S::new(p.passed_safe_promotion_path_mg, p.passed_safe_promotion_path_eg),
            knight_mobility: S::new(p.knight_mobility, p.knight_mobility),
            knight_mobility_high: S::new(p.knight_mobility_high, p.knight_mobility_high),
            knight_sq_mult: S::new(p.knight_sq_mult, p.knight_sq_mult),
            knight_outpost_mult: S::new(p.knight_outpost_mult, p.knight_outpost_mult),
            knight_first_rank: S::new(p.knight_first_rank, 0),
            low_mobility_knight: S::new(p.low_mobility_knight, p.low_mobility_knight),
            knight_behind_pawn: S::new(p.knight_behind_pawn_mg, p.knight_behind_pawn_eg),
            bishop_mobility: S::new(p.bishop_mobility, p.bishop_mobility),
            bishop_outpost: S::new(p.bishop_outpost, p.bishop_outpost),
            bishop_pair: S::new(p.bishop_pair, p.bishop_pair),
            bishop_first_rank: S::new(p.bishop_first_rank, 0),
            low_mobility_bishop: S::new(p.low_mobility_bishop, p.low_mobility_bishop),
            bishop_colour_pawns: S::new(p.bishop_colour_pawns_mg, p.bishop_colour_pawns_eg),
            bishop_behind_pawn: S::new(p.bishop_behind_pawn_mg, p.bishop_behind_pawn_eg),
            bishop_long_diagonal: S::new(p.bishop_long_diagonal_mg, p.bishop_long_diagonal_eg),
            rook_mobility: S::new(p.rook_mobility, p.rook_mobility),
            rook_connected: S::new(p.rook_connected, p.rook_connected),
            rook_supported_passer: S::new(p.rook_supported_passer, p.rook_supported_passer),
            rook_open_file: S::new(p.rook_open_file, p.rook_open_file),
            rook_semi_open_file: S::new(p.rook_semi_open_file, p.rook_semi_open_file),
            rook_atck_weak_pawn_open_column: S::new(
                p.rook_atck_weak_pawn_open_column,
                p.rook_atck_weak_pawn_open_column,
            ),
            rook_7th_rank: S::new(p.rook_7th_rank, p.rook_7th_rank),
            rook_column_mult: S::new(p.rook_column_mult, 0),
            rook_attack_king_file: S::new(p.rook_attack_king_file, 0),
            rook_attack_king_adj_file: S::new(p.rook_attack_king_adj_file, 0),
            rook_attack_king_adj_file_abgh: S::new(p.rook_attack_king_adj_file_abgh, 0),
            rook_behind_passed_pawn: S::new(p.rook_behind_passed_pawn, p.rook_behind_passed_pawn),
            low_mobility_rook: S::new(p.low_mobility_rook, p.low_mobility_rook),
            queen_mobility: S::new(p.queen_mobility, p.queen_mobility),
            low_mobility_queen: S::new(p.low_mobility_queen, p.low_mobility_queen),
            queen_relative_pin: S::new(p.queen_relative_pin_mg, p.queen_relative_pin_eg),
            king_protector: S::new(p.king_protector_mg, p.king_protector_eg),
            knight_reachable_outpost: S::new(p.knight_reachable_outpost_mg, p.knight_reachable_outpost_eg),
            bishop_reachable_outpost: S::new(p.bishop_reachable_outpost_mg, p.bishop_reachable_outpost_eg),
            rook_on_queen_file: S::new(p.rook_on_queen_file_mg, p.rook_on_queen_file_eg),
            trapped_rook: S::new(p.trapped_rook_mg, p.trapped_rook_eg),
            pawn_weak_unopposed: S::new(p.pawn_weak_unopposed_mg, p.pawn_weak_unopposed_eg),
            knight_outpost_by_file: [
                [
                    S::new(p.knight_outpost_centre_alone_mg, p.knight_outpost_centre_alone_eg),
                    S::new(p.knight_outpost_centre_defended_mg, p.knight_outpost_centre_defended_eg),
                ],
                [
                    S::new(p.knight_outpost_edge_alone_mg, p.knight_outpost_edge_alone_eg),
                    S::new(p.knight_outpost_edge_defended_mg, p.knight_outpost_edge_defended_eg),
                ],
            ],
            bishop_outpost_by_file: [
                [
                    S::new(p.bishop_outpost_centre_alone_mg, p.bishop_outpost_centre_alone_eg),
                    S::new(p.bishop_outpost_centre_defended_mg, p.bishop_outpost_centre_defended_eg),
                ],
                [
                    S::new(p.bishop_outpost_edge_alone_mg, p.bishop_outpost_edge_alone_eg),
                    S::new(p.bishop_outpost_edge_defended_mg, p.bishop_outpost_edge_defended_eg),
                ],
            ],
            bishop_rammed_pawns: S::new(p.bishop_rammed_pawns_mg, p.bishop_rammed_pawns_eg),
            rook_file_open: S::new(p.rook_file_open_mg, p.rook_file_open_eg),
            rook_file_semi_open: S::new(p.rook_file_semi_open_mg, p.rook_file_semi_open_eg),
            rook_on_seventh: S::new(p.rook_on_seventh_mg, p.rook_on_seventh_eg),
            rook_doubled: S::new(p.rook_doubled_mg, p.rook_doubled_eg),
            rook_queen_battery: S::new(p.rook_queen_battery_mg, p.rook_queen_battery_eg),
            threats: [
                -S::new(p.threat_weak_pawn_mg, p.threat_weak_pawn_eg),
                -S::new(p.threat_minor_by_pawn_mg, p.threat_minor_by_pawn_eg),
                -S::new(p.threat_minor_by_minor_mg, p.threat_minor_by_minor_eg),
                -S::new(p.threat_minor_by_major_mg, p.threat_minor_by_major_eg),
                -S::new(p.threat_rook_by_lesser_mg, p.threat_rook_by_lesser_eg),
                -S::new(p.threat_minor_by_king_mg, p.threat_minor_by_king_eg),
                -S::new(p.threat_rook_by_king_mg, p.threat_rook_by_king_eg),
                -S::new(p.threat_queen_mg, p.threat_queen_eg),
                S::new(p.threat_pawn_push_mg, p.threat_pawn_push_eg),
                -S::new(p.threat_overloaded_mg, p.threat_overloaded_eg),
                -S::new(p.threat_hanging_mg, p.threat_hanging_eg),
                -S::new(p.threat_queen_by_lesser_mg, p.threat_queen_by_lesser_eg),
                S::new(p.threat_by_safe_pawn_mg, p.threat_by_safe_pawn_eg),
                S::new(p.threat_knight_on_queen_mg, p.threat_knight_on_queen_eg),
                S::new(p.threat_slider_on_queen_mg, p.threat_slider_on_queen_eg),
            ],
        }
    }
}

impl TermTables {
    pub(crate) fn new(p: &EvalParams) -> TermTables {
        TermTables {
            passed_rank: std::array::from_fn(|r| {
                [false, true].map(|free| [false, true].map(|safe| passed_rank(p, free, safe, r)))
            }),
            passed_friendly_distance: std::array::from_fn(|r| passed_friendly_distance(p, r)),
            passed_enemy_distance: std::array::from_fn(|r| passed_enemy_distance(p, r)),
            knight_siberia: std::array::from_fn(|d| knight_siberia(p, d)),
            king_defenders: std::array::from_fn(|n| king_defenders(p, n)),
            closedness_knight: std::array::from_fn(|c| closedness_knight(p, c)),
            closedness_rook: std::array::from_fn(|c| closedness_rook(p, c)),
            pawn_connected: std::array::from_fn(|i| pawn_connected(p, i)),
            pawn_candidate: [false, true].map(|held| std::array::from_fn(|r| pawn_candidate(p, held, r))),
            pawn_backward: [false, true].map(|open| std::array::from_fn(|r| pawn_backward(p, open, r))),
            king_shelter: std::array::from_fn(|f| std::array::from_fn(|b| king_tables::shelter(p, f, b))),
            king_shelter_own_file: std::array::from_fn(|b| king_tables::shelter_own_file(p, b)),
            king_storm: [false, true].map(|blocked| std::array::from_fn(|b| king_tables::storm(p, blocked, b))),
            pairs: Pairs::new(p),
        }
    }
}

/// The connected-pawn entry at `index` = 4 × (relative rank index 1..=6, ranks 2-7, less 1) + the mirrored file (0 = a/h .. 3 = d/e).
#[inline(always)]
pub(crate) fn pawn_connected(p: &EvalParams, index: usize) -> S {
    match index {
        0 => S::new(p.pawn_connected_a2_mg, p.pawn_connected_a2_eg),
        1 => S::new(p.pawn_connected_b2_mg, p.pawn_connected_b2_eg),
        2 => S::new(p.pawn_connected_c2_mg, p.pawn_connected_c2_eg),
        3 => S::new(p.pawn_connected_d2_mg, p.pawn_connected_d2_eg),
        4 => S::new(p.pawn_connected_a3_mg, p.pawn_connected_a3_eg),
        5 => S::new(p.pawn_connected_b3_mg, p.pawn_connected_b3_eg),
        6 => S::new(p.pawn_connected_c3_mg, p.pawn_connected_c3_eg),
        7 => S::new(p.pawn_connected_d3_mg, p.pawn_connected_d3_eg),
        8 => S::new(p.pawn_connected_a4_mg, p.pawn_connected_a4_eg),
        9 => S::new(p.pawn_connected_b4_mg, p.pawn_connected_b4_eg),
        10 => S::new(p.pawn_connected_c4_mg, p.pawn_connected_c4_eg),
        11 => S::new(p.pawn_connected_d4_mg, p.pawn_connected_d4_eg),
        12 => S::new(p.pawn_connected_a5_mg, p.pawn_connected_a5_eg),
        13 => S::new(p.pawn_connected_b5_mg, p.pawn_connected_b5_eg),
        14 => S::new(p.pawn_connected_c5_mg, p.pawn_connected_c5_eg),
        15 => S::new(p.pawn_connected_d5_mg, p.pawn_connected_d5_eg),
        16 => S::new(p.pawn_connected_a6_mg, p.pawn_connected_a6_eg),
        17 => S::new(p.pawn_connected_b6_mg, p.pawn_connected_b6_eg),
        18 => S::new(p.pawn_connected_c6_mg, p.pawn_connected_c6_eg),
        19 => S::new(p.pawn_connected_d6_mg, p.pawn_connected_d6_eg),
        20 => S::new(p.pawn_connected_a7_mg, p.pawn_connected_a7_eg),
        21 => S::new(p.pawn_connected_b7_mg, p.pawn_connected_b7_eg),
        22 => S::new(p.pawn_connected_c7_mg, p.pawn_connected_c7_eg),
        _ => S::new(p.pawn_connected_d7_mg, p.pawn_connected_d7_eg),
    }
}

/// The candidate-passer entry; `held`: the pawn is defended by as many of our pawns as enemy pawns attack it; relative rank index 1..=5.
#[inline(always)]
pub(crate) fn pawn_candidate(p: &EvalParams, held: bool, rank: usize) -> S {
    match (held, rank) {
        (false, 1) => S::new(p.pawn_candidate_outnumbered_2_mg, p.pawn_candidate_outnumbered_2_eg),
        (false, 2) => S::new(p.pawn_candidate_outnumbered_3_mg, p.pawn_candidate_outnumbered_3_eg),
        (false, 3) => S::new(p.pawn_candidate_outnumbered_4_mg, p.pawn_candidate_outnumbered_4_eg),
        (false, 4) => S::new(p.pawn_candidate_outnumbered_5_mg, p.pawn_candidate_outnumbered_5_eg),
        (false, 5) => S::new(p.pawn_candidate_outnumbered_6_mg, p.pawn_candidate_outnumbered_6_eg),
        (true, 1) => S::new(p.pawn_candidate_held_2_mg, p.pawn_candidate_held_2_eg),
        (true, 2) => S::new(p.pawn_candidate_held_3_mg, p.pawn_candidate_held_3_eg),
        (true, 3) => S::new(p.pawn_candidate_held_4_mg, p.pawn_candidate_held_4_eg),
        (true, 4) => S::new(p.pawn_candidate_held_5_mg, p.pawn_candidate_held_5_eg),
        _ => S::new(p.pawn_candidate_held_6_mg, p.pawn_candidate_held_6_eg),
    }
}

/// The backward-pawn entry; `open`: no enemy pawn on its file; relative rank index 1..=4.
#[inline(always)]
pub(crate) fn pawn_backward(p: &EvalParams, open: bool, rank: usize) -> S {
    match (open, rank) {
        (false, 1) => S::new(p.pawn_backward_closed_2_mg, p.pawn_backward_closed_2_eg),
        (false, 2) => S::new(p.pawn_backward_closed_3_mg, p.pawn_backward_closed_3_eg),
        (false, 3) => S::new(p.pawn_backward_closed_4_mg, p.pawn_backward_closed_4_eg),
        (false, 4) => S::new(p.pawn_backward_closed_5_mg, p.pawn_backward_closed_5_eg),
        (true, 1) => S::new(p.pawn_backward_open_2_mg, p.pawn_backward_open_2_eg),
        (true, 2) => S::new(p.pawn_backward_open_3_mg, p.pawn_backward_open_3_eg),
        (true, 3) => S::new(p.pawn_backward_open_4_mg, p.pawn_backward_open_4_eg),
        _ => S::new(p.pawn_backward_open_5_mg, p.pawn_backward_open_5_eg),
    }
}

/// The knight-in-Siberia entry for a distance of 4..=7 to the nearer king.
#[inline(always)]
pub(crate) fn knight_siberia(p: &EvalParams, distance: usize) -> S {
    match distance {
        4 => S::new(p.knight_siberia_4_mg, p.knight_siberia_4_eg),
        5 => S::new(p.knight_siberia_5_mg, p.knight_siberia_5_eg),
        6 => S::new(p.knight_siberia_6_mg, p.knight_siberia_6_eg),
        _ => S::new(p.knight_siberia_7_mg, p.knight_siberia_7_eg),
    }
}

/// The king-defenders entry for 0..=11 defenders.
#[inline(always)]
pub(crate) fn king_defenders(p: &EvalParams, count: usize) -> S {
    match count {
        0 => S::new(p.king_defenders_0_mg, p.king_defenders_0_eg),
        1 => S::new(p.king_defenders_1_mg, p.king_defenders_1_eg),
        2 => S::new(p.king_defenders_2_mg, p.king_defenders_2_eg),
        3 => S::new(p.king_defenders_3_mg, p.king_defenders_3_eg),
        4 => S::new(p.king_defenders_4_mg, p.king_defenders_4_eg),
        5 => S::new(p.king_defenders_5_mg, p.king_defenders_5_eg),
        6 => S::new(p.king_defenders_6_mg, p.king_defenders_6_eg),
        7 => S::new(p.king_defenders_7_mg, p.king_defenders_7_eg),
        8 => S::new(p.king_defenders_8_mg, p.king_defenders_8_eg),
        9 => S::new(p.king_defenders_9_mg, p.king_defenders_9_eg),
        10 => S::new(p.king_defenders_10_mg, p.king_defenders_10_eg),
        _ => S::new(p.king_defenders_11_mg, p.king_defenders_11_eg),
    }
}

/// The king-pawn file proximity entry for a distance of 0..=7 files.
#[inline(always)]
pub(crate) fn king_pawn_file_proximity(p: &EvalParams, files: usize) -> S {
    match files {
        0 => S::new(p.king_pawn_file_proximity_0_mg, p.king_pawn_file_proximity_0_eg),
        1 => S::new(p.king_pawn_file_proximity_1_mg, p.king_pawn_file_proximity_1_eg),
        2 => S::new(p.king_pawn_file_proximity_2_mg, p.king_pawn_file_proximity_2_eg),
        3 => S::new(p.king_pawn_file_proximity_3_mg, p.king_pawn_file_proximity_3_eg),
        4 => S::new(p.king_pawn_file_proximity_4_mg, p.king_pawn_file_proximity_4_eg),
        5 => S::new(p.king_pawn_file_proximity_5_mg, p.king_pawn_file_proximity_5_eg),
        6 => S::new(p.king_pawn_file_proximity_6_mg, p.king_pawn_file_proximity_6_eg),
        _ => S::new(p.king_pawn_file_proximity_7_mg, p.king_pawn_file_proximity_7_eg),
    }
}

/// The passed-pawn entry; `free`: its stop square is empty; `safe`: the enemy does not attack it; relative rank index 1..=6.
#[inline(always)]
pub(crate) fn passed_rank(p: &EvalParams, free: bool, safe: bool, rank: usize) -> S {
    match (free, safe, rank) {
        (false, false, 1) => S::new(p.passed_rank_2_blocked_attacked_mg, p.passed_rank_2_blocked_attacked_eg),
        (false, true, 1) => S::new(p.passed_rank_2_blocked_safe_mg, p.passed_rank_2_blocked_safe_eg),
        (true, false, 1) => S::new(p.passed_rank_2_free_attacked_mg, p.passed_rank_2_free_attacked_eg),
        (true, true, 1) => S::new(p.passed_rank_2_free_safe_mg, p.passed_rank_2_free_safe_eg),
        (false, false, 2) => S::new(p.passed_rank_3_blocked_attacked_mg, p.passed_rank_3_blocked_attacked_eg),
        (false, true, 2) => S::new(p.passed_rank_3_blocked_safe_mg, p.passed_rank_3_blocked_safe_eg),
        (true, false, 2) => S::new(p.passed_rank_3_free_attacked_mg, p.passed_rank_3_free_attacked_eg),
        (true, true, 2) => S::new(p.passed_rank_3_free_safe_mg, p.passed_rank_3_free_safe_eg),
        (false, false, 3) => S::new(p.passed_rank_4_blocked_attacked_mg, p.passed_rank_4_blocked_attacked_eg),
        (false, true, 3) => S::new(p.passed_rank_4_blocked_safe_mg, p.passed_rank_4_blocked_safe_eg),
        (true, false, 3) => S::new(p.passed_rank_4_free_attacked_mg, p.passed_rank_4_free_attacked_eg),
        (true, true, 3) => S::new(p.passed_rank_4_free_safe_mg, p.passed_rank_4_free_safe_eg),
        (false, false, 4) => S::new(p.passed_rank_5_blocked_attacked_mg, p.passed_rank_5_blocked_attacked_eg),
        (false, true, 4) => S::new(p.passed_rank_5_blocked_safe_mg, p.passed_rank_5_blocked_safe_eg),
        (true, false, 4) => S::new(p.passed_rank_5_free_attacked_mg, p.passed_rank_5_free_attacked_eg),
        (true, true, 4) => S::new(p.passed_rank_5_free_safe_mg, p.passed_rank_5_free_safe_eg),
        (false, false, 5) => S::new(p.passed_rank_6_blocked_attacked_mg, p.passed_rank_6_blocked_attacked_eg),
        (false, true, 5) => S::new(p.passed_rank_6_blocked_safe_mg, p.passed_rank_6_blocked_safe_eg),
        (true, false, 5) => S::new(p.passed_rank_6_free_attacked_mg, p.passed_rank_6_free_attacked_eg),
        (true, true, 5) => S::new(p.passed_rank_6_free_safe_mg, p.passed_rank_6_free_safe_eg),
        (false, false, 6) => S::new(p.passed_rank_7_blocked_attacked_mg, p.passed_rank_7_blocked_attacked_eg),
        (false, true, 6) => S::new(p.passed_rank_7_blocked_safe_mg, p.passed_rank_7_blocked_safe_eg),
        (true, false, 6) => S::new(p.passed_rank_7_free_attacked_mg, p.passed_rank_7_free_attacked_eg),
        _ => S::new(p.passed_rank_7_free_safe_mg, p.passed_rank_7_free_safe_eg),
    }
}

/// Our king's distance weight for a passer on relative rank index 1..=6.
#[inline(always)]
pub(crate) fn passed_friendly_distance(p: &EvalParams, rank: usize) -> S {
    match rank {
        1 => S::new(p.passed_friendly_distance_2_mg, p.passed_friendly_distance_2_eg),
        2 => S::new(p.passed_friendly_distance_3_mg, p.passed_friendly_distance_3_eg),
        3 => S::new(p.passed_friendly_distance_4_mg, p.passed_friendly_distance_4_eg),
        4 => S::new(p.passed_friendly_distance_5_mg, p.passed_friendly_distance_5_eg),
        5 => S::new(p.passed_friendly_distance_6_mg, p.passed_friendly_distance_6_eg),
        _ => S::new(p.passed_friendly_distance_7_mg, p.passed_friendly_distance_7_eg),
    }
}

/// The enemy king's distance weight for a passer on relative rank index 1..=6.
#[inline(always)]
pub(crate) fn passed_enemy_distance(p: &EvalParams, rank: usize) -> S {
    match rank {
        1 => S::new(p.passed_enemy_distance_2_mg, p.passed_enemy_distance_2_eg),
        2 => S::new(p.passed_enemy_distance_3_mg, p.passed_enemy_distance_3_eg),
        3 => S::new(p.passed_enemy_distance_4_mg, p.passed_enemy_distance_4_eg),
        4 => S::new(p.passed_enemy_distance_5_mg, p.passed_enemy_distance_5_eg),
        5 => S::new(p.passed_enemy_distance_6_mg, p.passed_enemy_distance_6_eg),
        _ => S::new(p.passed_enemy_distance_7_mg, p.passed_enemy_distance_7_eg),
    }
}

/// The per-knight entry at closedness 0..=8.
#[inline(always)]
pub(crate) fn closedness_knight(p: &EvalParams, closedness: usize) -> S {
    match closedness {
        0 => S::new(p.closedness_knight_0_mg, p.closedness_knight_0_eg),
        1 => S::new(p.closedness_knight_1_mg, p.closedness_knight_1_eg),
        2 => S::new(p.closedness_knight_2_mg, p.closedness_knight_2_eg),
        3 => S::new(p.closedness_knight_3_mg, p.closedness_knight_3_eg),
        4 => S::new(p.closedness_knight_4_mg, p.closedness_knight_4_eg),
        5 => S::new(p.closedness_knight_5_mg, p.closedness_knight_5_eg),
        6 => S::new(p.closedness_knight_6_mg, p.closedness_knight_6_eg),
        7 => S::new(p.closedness_knight_7_mg, p.closedness_knight_7_eg),
        _ => S::new(p.closedness_knight_8_mg, p.closedness_knight_8_eg),
    }
}

/// The per-rook entry at closedness 0..=8.
#[inline(always)]
pub(crate) fn closedness_rook(p: &EvalParams, closedness: usize) -> S {
    match closedness {
        0 => S::new(p.closedness_rook_0_mg, p.closedness_rook_0_eg),
        1 => S::new(p.closedness_rook_1_mg, p.closedness_rook_1_eg),
        2 => S::new(p.closedness_rook_2_mg, p.closedness_rook_2_eg),
        3 => S::new(p.closedness_rook_3_mg, p.closedness_rook_3_eg),
        4 => S::new(p.closedness_rook_4_mg, p.closedness_rook_4_eg),
        5 => S::new(p.closedness_rook_5_mg, p.closedness_rook_5_eg),
        6 => S::new(p.closedness_rook_6_mg, p.closedness_rook_6_eg),
        7 => S::new(p.closedness_rook_7_mg, p.closedness_rook_7_eg),
        _ => S::new(p.closedness_rook_8_mg, p.closedness_rook_8_eg),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ParamSection;

    /// Every expanded entry is the match's, with every parameter distinct (a wrong index shows).
    #[test]
    fn expanded_tables_equal_the_lookups() {
        let mut p = EvalParams::default();
        for i in 0..EvalParams::specs().len() {
            p.set_unchecked(i, i as i32 + 1);
        }
        let t = TermTables::new(&p);
        for r in 1..=6 {
            for (free, safe) in [(false, false), (false, true), (true, false), (true, true)] {
                assert_eq!(t.passed_rank[r][usize::from(free)][usize::from(safe)], passed_rank(&p, free, safe, r));
            }
            assert_eq!(t.passed_friendly_distance[r], passed_friendly_distance(&p, r));
            assert_eq!(t.passed_enemy_distance[r], passed_enemy_distance(&p, r));
        }
        for d in 4..=7 {
            assert_eq!(t.knight_siberia[d], knight_siberia(&p, d));
        }
        for n in 0..=11 {
            assert_eq!(t.king_defenders[n], king_defenders(&p, n));
        }
        for c in 0..=8 {
            assert_eq!(t.closedness_knight[c], closedness_knight(&p, c));
            assert_eq!(t.closedness_rook[c], closedness_rook(&p, c));
        }
        for i in 0..24 {
            assert_eq!(t.pawn_connected[i], pawn_connected(&p, i));
        }
        for flag in [false, true] {
            let f = usize::from(flag);
            for r in 1..=6 {
                assert_eq!(t.pawn_candidate[f][r], pawn_candidate(&p, flag, r));
                assert_eq!(t.pawn_backward[f][r], pawn_backward(&p, flag, r));
            }
            for b in 0..6 {
                assert_eq!(t.king_storm[f][b], king_tables::storm(&p, flag, b));
            }
        }
        for b in 0..6 {
            for f in 0..4 {
                assert_eq!(t.king_shelter[f][b], king_tables::shelter(&p, f, b));
            }
            assert_eq!(t.king_shelter_own_file[b], king_tables::shelter_own_file(&p, b));
        }
    }

    /// Every packed pair is its two parameters, under random values (a swapped field or a
    /// wrong sign shows).
    #[test]
    fn packed_pairs_equal_the_parameters() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20 {
            let mut p = EvalParams::default();
            for i in 0..EvalParams::specs().len() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                p.set_unchecked(i, (x % 2001) as i32 - 1000);
            }
            let w = Pairs::new(&p);
            let t = TermTables::new(&p);
            let knight = [
                [
                    (p.knight_outpost_centre_alone_mg, p.knight_outpost_centre_alone_eg),
                    (p.knight_outpost_centre_defended_mg, p.knight_outpost_centre_defended_eg),
                ],
                [
                    (p.knight_outpost_edge_alone_mg, p.knight_outpost_edge_alone_eg),
                    (p.knight_outpost_edge_defended_mg, p.knight_outpost_edge_defended_eg),
                ],
            ];
            let bishop = [
                [
                    (p.bishop_outpost_centre_alone_mg, p.bishop_outpost_centre_alone_eg),
                    (p.bishop_outpost_centre_defended_mg, p.bishop_outpost_centre_defended_eg),
                ],
                [
                    (p.bishop_outpost_edge_alone_mg, p.bishop_outpost_edge_alone_eg),
                    (p.bishop_outpost_edge_defended_mg, p.bishop_outpost_edge_defended_eg),
                ],
            ];
            for edge in 0..2 {
                for defended in 0..2 {
                    let (mg, eg) = knight[edge][defended];
                    assert_eq!(w.knight_outpost_by_file[edge][defended], S::new(mg, eg));
                    let (mg, eg) = bishop[edge][defended];
                    assert_eq!(w.bishop_outpost_by_file[edge][defended], S::new(mg, eg));
                }
            }
            assert_eq!(w.bishop_rammed_pawns, S::new(p.bishop_rammed_pawns_mg, p.bishop_rammed_pawns_eg));
            assert_eq!(w.rook_file_open, S::new(p.rook_file_open_mg, p.rook_file_open_eg));
            assert_eq!(w.rook_file_semi_open, S::new(p.rook_file_semi_open_mg, p.rook_file_semi_open_eg));
            assert_eq!(w.rook_on_seventh, S::new(p.rook_on_seventh_mg, p.rook_on_seventh_eg));
            assert_eq!(w.rook_doubled, S::new(p.rook_doubled_mg, p.rook_doubled_eg));
            assert_eq!(w.rook_queen_battery, S::new(p.rook_queen_battery_mg, p.rook_queen_battery_eg));
            let threats = [
                (p.threat_weak_pawn_mg, p.threat_weak_pawn_eg, -1),
                (p.threat_minor_by_pawn_mg, p.threat_minor_by_pawn_eg, -1),
                (p.threat_minor_by_minor_mg, p.threat_minor_by_minor_eg, -1),
                (p.threat_minor_by_major_mg, p.threat_minor_by_major_eg, -1),
                (p.threat_rook_by_lesser_mg, p.threat_rook_by_lesser_eg, -1),
                (p.threat_minor_by_king_mg, p.threat_minor_by_king_eg, -1),
                (p.threat_rook_by_king_mg, p.threat_rook_by_king_eg, -1),
                (p.threat_queen_mg, p.threat_queen_eg, -1),
                (p.threat_pawn_push_mg, p.threat_pawn_push_eg, 1),
                (p.threat_overloaded_mg, p.threat_overloaded_eg, -1),
                (p.threat_hanging_mg, p.threat_hanging_eg, -1),
                (p.threat_queen_by_lesser_mg, p.threat_queen_by_lesser_eg, -1),
                (p.threat_by_safe_pawn_mg, p.threat_by_safe_pawn_eg, 1),
                (p.threat_knight_on_queen_mg, p.threat_knight_on_queen_eg, 1),
                (p.threat_slider_on_queen_mg, p.threat_slider_on_queen_eg, 1),
            ];
            assert_eq!(threats.len(), THREATS);
            for (i, (mg, eg, sign)) in threats.into_iter().enumerate() {
                assert_eq!(w.threats[i], S::new(sign * mg, sign * eg), "threat {i}");
            }
            let pieces = [
                (w.knight_mobility, S::new(p.knight_mobility, p.knight_mobility)),
                (w.knight_mobility_high, S::new(p.knight_mobility_high, p.knight_mobility_high)),
                (w.knight_sq_mult, S::new(p.knight_sq_mult, p.knight_sq_mult)),
                (w.knight_outpost_mult, S::new(p.knight_outpost_mult, p.knight_outpost_mult)),
                (w.knight_first_rank, S::new(p.knight_first_rank, 0)),
                (w.low_mobility_knight, S::new(p.low_mobility_knight, p.low_mobility_knight)),
                (w.knight_behind_pawn, S::new(p.knight_behind_pawn_mg, p.knight_behind_pawn_eg)),
                (w.bishop_mobility, S::new(p.bishop_mobility, p.bishop_mobility)),
                (w.bishop_outpost, S::new(p.bishop_outpost, p.bishop_outpost)),
                (w.bishop_pair, S::new(p.bishop_pair, p.bishop_pair)),
                (w.bishop_first_rank, S::new(p.bishop_first_rank, 0)),
                (w.low_mobility_bishop, S::new(p.low_mobility_bishop, p.low_mobility_bishop)),
                (w.bishop_colour_pawns, S::new(p.bishop_colour_pawns_mg, p.bishop_colour_pawns_eg)),
                (w.bishop_behind_pawn, S::new(p.bishop_behind_pawn_mg, p.bishop_behind_pawn_eg)),
                (w.bishop_long_diagonal, S::new(p.bishop_long_diagonal_mg, p.bishop_long_diagonal_eg)),
                (w.rook_mobility, S::new(p.rook_mobility, p.rook_mobility)),
                (w.rook_connected, S::new(p.rook_connected, p.rook_connected)),
                (w.rook_supported_passer, S::new(p.rook_supported_passer, p.rook_supported_passer)),
                (w.rook_open_file, S::new(p.rook_open_file, p.rook_open_file)),
                (w.rook_semi_open_file, S::new(p.rook_semi_open_file, p.rook_semi_open_file)),
                (
                    w.rook_atck_weak_pawn_open_column,
                    S::new(p.rook_atck_weak_pawn_open_column, p.rook_atck_weak_pawn_open_column),
                ),
                (w.rook_7th_rank, S::new(p.rook_7th_rank, p.rook_7th_rank)),
                (w.rook_column_mult, S::new(p.rook_column_mult, 0)),
                (w.rook_attack_king_file, S::new(p.rook_attack_king_file, 0)),
                (w.rook_attack_king_adj_file, S::new(p.rook_attack_king_adj_file, 0)),
                (w.rook_attack_king_adj_file_abgh, S::new(p.rook_attack_king_adj_file_abgh, 0)),
                (w.rook_behind_passed_pawn, S::new(p.rook_behind_passed_pawn, p.rook_behind_passed_pawn)),
                (w.low_mobility_rook, S::new(p.low_mobility_rook, p.low_mobility_rook)),
                (w.queen_mobility, S::new(p.queen_mobility, p.queen_mobility)),
                (w.low_mobility_queen, S::new(p.low_mobility_queen, p.low_mobility_queen)),
                (w.queen_relative_pin, S::new(p.queen_relative_pin_mg, p.queen_relative_pin_eg)),
                (w.king_protector, S::new(p.king_protector_mg, p.king_protector_eg)),
                (w.knight_reachable_outpost, S::new(p.knight_reachable_outpost_mg, p.knight_reachable_outpost_eg)),
                (w.bishop_reachable_outpost, S::new(p.bishop_reachable_outpost_mg, p.bishop_reachable_outpost_eg)),
                (w.rook_on_queen_file, S::new(p.rook_on_queen_file_mg, p.rook_on_queen_file_eg)),
                (w.trapped_rook, S::new(p.trapped_rook_mg, p.trapped_rook_eg)),
            ];
            for (i, (packed, expected)) in pieces.into_iter().enumerate() {
                assert_eq!(packed, expected, "piece pair {i}");
            }
            let others = [
                (w.material[0], S::new(p.pawn_mg, p.pawn_eg)),
                (w.material[1], S::new(p.knight_mg, p.knight_eg)),
                (w.material[2], S::new(p.bishop_mg, p.bishop_eg)),
                (w.material[3], S::new(p.rook_mg, p.rook_eg)),
                (w.material[4], S::new(p.queen_mg, p.queen_eg)),
                (w.space_restrict_piece, S::new(p.space_restrict_piece_mg, p.space_restrict_piece_eg)),
                (w.space_restrict_empty, S::new(p.space_restrict_empty_mg, p.space_restrict_empty_eg)),
                (w.space_centre_control, S::new(p.space_centre_control_mg, p.space_centre_control_eg)),
                (w.far_pawn, S::new(p.far_pawn, p.far_pawn)),
                (w.passed_blocked, S::new(p.passed_blocked_mg, p.passed_blocked_eg)),
                (w.passed_safe_push, S::new(p.passed_safe_push_mg, p.passed_safe_push_eg)),
                (w.passed_free_path, S::new(0, p.passed_free_path_eg)),
                (w.passed_own_king_dist, S::new(0, p.passed_own_king_dist)),
                (
                    w.passed_safe_promotion_path,
                    S::new(p.passed_safe_promotion_path_mg, p.passed_safe_promotion_path_eg),
                ),
                (w.pawn_weak_unopposed, S::new(p.pawn_weak_unopposed_mg, p.pawn_weak_unopposed_eg)),
            ];
            for (i, (packed, expected)) in others.into_iter().enumerate() {
                assert_eq!(packed, expected, "material, space or pawn pair {i}");
            }
            // The evaluator's tables hold the same pairs.
            assert_eq!(t.pairs, w);
        }
    }
}
