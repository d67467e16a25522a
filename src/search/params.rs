//! Search parameters: David et al. (2014) Table I, then modern knobs. Declared once; see
//! [`crate::params`].
//!
//! The first 18 names are exactly Table I of the paper (the tuner's search evolution maps its
//! chromosome onto them); their defaults follow the paper's learned values (Table II) where they
//! suit this engine. Depths are in plies unless the name says otherwise; extensions are in
//! quarter plies (4 = one ply) and accumulate along a line.
//!
//! Glossary of suffixes (after Carp): `_depth` a depth limit in plies, `_margin` centipawns,
//! `_percent` a factor in hundredths, `_divisor` a divisor, `_use` a 0/1 switch.

crate::declare_params! {
    /// Selective-search parameters. Extensions are in quarter plies (4 = one ply).
    pub struct SearchParams in "search" {
        /// Use null-move pruning (0/1)
        null_move_use: 1, [0, 1];
        /// Null-move depth reduction R in plies
        null_move_reduction: 3, [0, 7];
        /// Adaptive null move: reduce one ply more above the adaptivity depth (0/1)
        null_move_adaptivity_use: 1, [0, 1];
        /// Depth in plies above which the adaptive null move reduces R+1
        null_move_adaptivity_depth: 6, [0, 7];
        /// Futility pruning applies at depths 1..=futility_depth (0 = off)
        futility_depth: 3, [0, 3];
        /// Futility margin at depth 1 (centipawns)
        futility_margin_1: 112, [0, 1023];
        /// Futility margin at depth 2 (centipawns)
        futility_margin_2: 227, [0, 1023];
        /// Futility margin at depth 3 (centipawns)
        futility_margin_3: 400, [0, 1023];
        /// Use multi-cut pruning at expected cut nodes (0/1; off by default: it cost 36 Elo, BENCHMARKS.md)
        multicut_use: 0, [0, 1];
        /// Multi-cut depth reduction of the probing searches in plies
        multicut_reduction: 4, [0, 7];
        /// Minimum depth in plies for multi-cut
        multicut_depth: 7, [0, 7];
        /// Multi-cut: number of moves probed (M)
        multicut_move_num: 8, [0, 31];
        /// Multi-cut: fail-highs needed to prune (C)
        multicut_cut_num: 3, [0, 7];
        /// Extension for a move that gives check (quarter plies)
        check_extension: 4, [0, 4];
        /// Extension when the side to move has a single legal move (quarter plies)
        one_reply_extension: 4, [0, 4];
        /// Extension for recapturing on the square of the previous capture (quarter plies)
        recapture_extension: 2, [0, 4];
        /// Extension for a passed-pawn push to the 6th or 7th rank (quarter plies)
        passed_pawn_extension: 3, [0, 4];
        /// Extension when the null-move search reveals a mate threat (quarter plies)
        mate_threat_extension: 2, [0, 4];

        /// Null move: one more ply of reduction per this many plies of depth (0 = off)
        null_move_depth_divisor: 5, [0, 16];
        /// Null move: one more ply of reduction per this many centipawns of eval above beta (0 = off)
        null_move_eval_divisor: 200, [0, 1000];
        /// Null move: minimum depth in plies
        null_move_min_depth: 2, [1, 8];
        /// Null move: only when the static eval is at least beta minus this per ply of depth (centipawns)
        null_move_static_margin: 20, [0, 100];
        /// Null move: most plies of extra reduction from the eval above beta (see null_move_eval_divisor)
        null_move_eval_reduction_max: 3, [0, 7];
        /// Late move reductions: constant term (hundredths of a ply)
        lmr_base: 75, [0, 300];
        /// Late move reductions: divisor of ln(depth)*ln(moves) (hundredths)
        lmr_divisor: 225, [100, 600];
        /// Late move reductions: minimum depth in plies
        lmr_min_depth: 3, [1, 8];
        /// Late move reductions: moves searched before reducing (first move is 1)
        lmr_min_move: 3, [1, 16];
        /// Late move reductions: history score per quarter ply of reduction change
        lmr_history_divisor: 2048, [256, 16384];
        /// Aspiration window: initial half-width (centipawns)
        aspiration_delta: 20, [5, 200];
        /// Aspiration window: growth after a fail (percent added per fail)
        aspiration_growth_percent: 60, [10, 300];
        /// Aspiration window: first iteration that uses a window
        aspiration_min_depth: 5, [1, 16];
        /// Quiescence delta pruning margin (centipawns)
        delta_margin: 200, [0, 1000];
        /// Quiescence: skip captures whose SEE is below this (centipawns; 1 since its SPRT with
        /// the margin below passed in session 53, BENCHMARKS.md: equal trades are not searched)
        qsearch_see_threshold: 1, [-300, 300], since 12 was 0;
        /// Quiescence, after Ethereal 12: a capture's SEE must also reach alpha minus the static
        /// eval minus this margin, so a capture that cannot close the gap is skipped
        /// (centipawns; 0 = off; 100 since its SPRT passed in session 53, BENCHMARKS.md)
        qsearch_see_futility_margin: 100, [0, 500], since 12 was 0;
        /// Quiescence: at its first ply (the main search's leaves), after the captures, also
        /// search the quiet moves that give check and do not lose material by SEE, so a leaf
        /// sees mates and checking forks one ply past the horizon (0/1; on since its SPRT and
        /// WAC in session 56, BENCHMARKS.md)
        qsearch_checks_use: 1, [0, 1], since 14 was 0;
        /// Reverse futility (static null move) pruning: maximum depth in plies (0 = off)
        rfp_depth: 8, [0, 12];
        /// Reverse futility pruning: margin per ply (centipawns)
        rfp_margin: 75, [20, 300];
        /// Reverse futility pruning: margin taken off per ply when the eval is improving (centipawns)
        rfp_improving_margin: 60, [0, 300];
        /// Late move pruning: maximum depth in plies (0 = off)
        lmp_depth: 8, [0, 16];
        /// Late move pruning: quiet moves allowed at depth d are (lmp_base + d*d) (halved if not improving)
        lmp_base: 3, [0, 20];
        /// SEE pruning of quiet moves: maximum depth in plies (0 = off)
        see_depth: 8, [0, 16];
        /// SEE pruning threshold for quiet moves, per ply (centipawns, negated)
        see_quiet_margin: 60, [0, 300];
        /// SEE pruning threshold for captures, per ply squared (centipawns, negated)
        see_capture_margin: 25, [0, 300];
        /// SEE pruning of quiet moves also applies to quiet checks, as in Ethereal 12 (0/1;
        /// futility and move counts still spare them; on since its SPRT passed in session 53,
        /// BENCHMARKS.md)
        see_prune_quiet_checks_use: 1, [0, 1], since 12 was 0;
        /// SEE pruning of quiet checks: maximum depth in plies (at most see_depth applies; a
        /// check that loses material is often the point of a deep sacrifice; 5 since its SPRT
        /// and WAC in session 55, BENCHMARKS.md)
        see_quiet_check_depth: 5, [0, 16], since 13 was 16;
        /// Move-loop pruning (move counts, history, futility, SEE) also for a side with only
        /// pawns, as in Ethereal 12 (0/1; on since its SPRT passed in session 53, BENCHMARKS.md)
        pawn_only_pruning_use: 1, [0, 1], since 12 was 0;
        /// Internal iterative reduction: minimum depth in plies without a TT move (0 = off)
        iir_min_depth: 4, [0, 16];
        /// History bonus: multiplier of depth
        history_bonus_mul: 300, [0, 1024];
        /// History bonus: subtracted constant
        history_bonus_sub: 250, [0, 1024];
        /// History bonus: maximum
        history_bonus_max: 2400, [128, 16384];
        /// History futility pruning: largest reduced depth in plies (0 = off; 8 since its SPRT
        /// passed in session 46, BENCHMARKS.md)
        history_futility_depth: 8, [0, 16], since 8 was 0;
        /// History futility pruning: margin per ply of depth (centipawns)
        history_futility_margin: 65, [0, 300];
        /// History futility pruning: quiets with a history below this are skipped (not improving)
        history_futility_limit: 12000, [-16384, 49152];
        /// History futility pruning: the same limit when the static eval improves
        history_futility_limit_improving: 6000, [-16384, 49152];
        /// Continuation-history pruning: largest reduced depth in plies (one less when improving;
        /// 0 = off; 3 since its SPRT passed in session 46, BENCHMARKS.md)
        history_prune_depth: 3, [0, 8], since 8 was 0;
        /// Continuation-history pruning: 1-ply continuation history limit (not improving)
        countermove_prune_limit: 0, [-16384, 16384];
        /// Continuation-history pruning: 1-ply limit when improving
        countermove_prune_limit_improving: -1000, [-16384, 16384];
        /// Continuation-history pruning: 2-ply continuation history limit (not improving)
        followup_prune_limit: -2000, [-16384, 16384];
        /// Continuation-history pruning: 2-ply limit when improving
        followup_prune_limit_improving: -4000, [-16384, 16384];
        /// Singular extension: minimum depth in plies (0 = off; 6 since its SPRT against 8 passed
        /// in sessions 69-70, BENCHMARKS.md)
        singular_min_depth: 6, [0, 16], since 17 was 8;
        /// Singular extension: the TT entry may be this many plies shallower than the node
        singular_tt_depth_margin: 3, [0, 8];
        /// Singular extension: the other moves must fail below the TT score minus this per ply (centipawns)
        singular_margin: 2, [0, 20];
        /// Singular extension: two plies instead of one at a non-PV node when the other moves
        /// fail this far below the singular bound (centipawns; 0 = off)
        singular_double_margin: 20, [0, 200], since 2 was 0;
        /// Singular extension: most double extensions along one line
        singular_double_max: 6, [0, 16], since 2 was 0;
        /// Singular extension: quarter plies taken from a TT move that is not singular but whose
        /// TT score already beats beta (a negative extension; 0 = off)
        singular_negative_extension: 4, [0, 8], since 2 was 0;
        /// Late move reductions: quarter plies more for a quiet when the TT move is a capture or promotion
        lmr_tt_noisy: 4, [0, 8], since 2 was 0;
        /// Late move reductions, after Stockfish: a reduced move that beats alpha is searched
        /// again one ply deeper when it beat the best score by this margin plus
        /// `lmr_deeper_per_ply` per ply of the reduction, one ply shallower when it stayed within
        /// a centipawn per ply of depth of it, and its continuation histories learn whether the
        /// re-search beat alpha (0/1; on since its SPRT with the prior-countermove bonus passed,
        /// BENCHMARKS.md)
        lmr_research_adjust_use: 1, [0, 1], since 7 was 0;
        /// Late move reductions: the deeper re-search's margin over the best score (centipawns)
        lmr_deeper_margin: 64, [0, 500], since 7 was 64;
        /// Late move reductions: the deeper re-search's margin per ply of the reduction (centipawns)
        lmr_deeper_per_ply: 11, [0, 100], since 7 was 11;
        /// After Stockfish: a node that fails low at depth 5 or more, at a PV node or 62 cp a ply
        /// below alpha rewards the opponent's previous move (when quiet) in the continuation
        /// histories, twice at PV and cut nodes (0/1; on since its SPRT passed, BENCHMARKS.md)
        prior_countermove_bonus_use: 1, [0, 1], since 7 was 0;
        /// Time: assumed moves to go when the GUI gives none (20 since a timed SPRT against 30,
        /// BENCHMARKS.md: like Ethereal 12, spend more while the clock is full)
        tm_moves_to_go: 20, [8, 80], since 9 was 30;
        /// Time: share of the increment budgeted per move (percent)
        tm_increment_percent: 75, [0, 100], since 9 was 50;
        /// Time: maximum time as a multiple of the optimum (percent)
        tm_max_percent: 400, [100, 1000];
        /// Time: hard cap as a share of the remaining clock (percent)
        tm_max_clock_percent: 25, [5, 90];
        /// Time: do not start another iteration after this share of the optimum time (percent)
        tm_new_iteration_percent: 60, [10, 100];
        /// Time: extra optimum time per recent best-move change (percent)
        tm_instability_percent: 40, [0, 200];
        /// Time: the trend factors below (node share, score drop, best-move stability) scale the
        /// soft limit from this completed depth on, on the clock only. Their defaults leave each
        /// factor at 100 % (the time management before them); Ethereal's values, the candidate
        /// under a timed SPRT, are params/tm-ethereal.toml
        tm_trend_min_depth: 4, [1, 16], since 6 was 4;
        /// Time: node factor per share of the last iteration's root nodes spent off the best move
        /// (percent at all of them; Ethereal's 2 x non_best_pct)
        tm_node_weight_percent: 0, [0, 400], since 6 was 0;
        /// Time: node factor's constant term (percent; Ethereal's 0.4)
        tm_node_base_percent: 100, [0, 200], since 6 was 100;
        /// Time: node factor's minimum (percent)
        tm_node_min_percent: 50, [10, 100], since 6 was 50;
        /// Time: completed iterations back that the best score's drop is measured from
        tm_score_lookback: 3, [1, 8], since 6 was 3;
        /// Time: score factor's constant term (percent)
        tm_score_base_percent: 0, [-100, 200], since 6 was 0;
        /// Time: score factor per centipawn the best score fell over the lookback (percent)
        tm_score_drop_percent: 5, [0, 20], since 6 was 5;
        /// Time: score factor's lower clamp (percent)
        tm_score_low_percent: 100, [25, 100], since 6 was 100;
        /// Time: score factor's upper clamp (percent)
        tm_score_high_percent: 100, [100, 400], since 6 was 100;
        /// Time: stability factor when the best move just changed (percent)
        tm_stability_base_percent: 100, [50, 200], since 6 was 100;
        /// Time: stability factor taken off per completed iteration the best move stayed (percent)
        tm_stability_step_percent: 0, [0, 20], since 6 was 0;
        /// Time: most iterations of best-move stability that count
        tm_stability_max: 10, [0, 30], since 6 was 10;
        /// Correction history (Stockfish's): weight of the pawn-structure table in the corrected
        /// static evaluation (a full entry is weight/16 cp; 0 with the next = off; Stockfish's
        /// relative weights since their SPRT passed, BENCHMARKS.md)
        corr_pawn_weight: 420, [0, 1024], since 15 was 0;
        /// Correction history: weight of each side's non-pawn-piece table
        corr_non_pawn_weight: 460, [0, 1024], since 15 was 0;
        /// After Ethereal 13 and Berserk: the butterfly history is kept apart for moves from
        /// and to squares the opponent attacks (four tables by colour), so that a piece
        /// escaping an attack and one walking into it learn separately (0/1)
        threat_history_use: 1, [0, 1], since 16 was 0;
        /// After Stockfish: the quiet-move ordering bonus of a knight or bishop leaving a
        /// pawn's attack for a square no pawn attacks, the same penalty for walking into one;
        /// rooks and queens by their value against every lesser attacker (history points at
        /// a knight's value; 0 = off)
        threat_escape_bonus: 8192, [0, 32768], since 16 was 0;
        /// The capture history's weight in the order of noisy moves, per 1,024 of its points
        /// (32: a capture's history only breaks ties between equal victims)
        capture_history_weight: 32, [0, 4096];
        /// Late move reductions: quarter plies more for a quiet at an expected cut node
        /// (Stockfish reduces two plies there)
        lmr_cut_node: 4, [0, 12];
        /// After Ethereal 12 and Stockfish: quiet evasions in check are pruned by move count,
        /// continuation history and SEE like other quiets (never by the futility tests, which
        /// need a static evaluation, and only once a move has been searched) (0/1; on since its
        /// SPRT passed in sessions 71-72, BENCHMARKS.md)
        in_check_pruning_use: 1, [0, 1], since 18 was 0;
    }
    // Failed patches leave (issue 92 item 7): each feature below was declared off, tested by
    // SPRT, never passed, and was removed; its record stays in BENCHMARKS.md ("Failed switches
    // removed" lists them with the original rows). A file naming one still loads, with a note.
    removed {
        /// razoring, SPRT [0, 5] at 10,000 nodes −10.2 ± 11.8 over 2,040 games, stopped
        /// heading for H0 in session 71
        razor_depth = 0;
        /// razoring's margin; razoring was removed
        razor_margin;
        /// razoring's margin per ply squared; razoring was removed
        razor_margin_per_ply_squared;
        /// late move reductions smaller where the correction history moved the evaluation
        /// (Stockfish 17), SPRT [0, 5] at 10,000 nodes with divisor 20: −2.6 ± 11.9 over 1,986
        /// games, stopped undecided in session 75
        lmr_correction_divisor = 0;
        /// a TT move that is not singular reduced at an expected cut node (Stockfish), SPRT [0, 5]
        /// at 10,000 nodes with 8 quarter plies: +2.3 ± 8.3 over 4,000 games, no decision at the
        /// cap in session 70
        singular_cut_node_extension = 0;
        /// the LMR move number counting only searched moves (Ethereal 12), SPRT [0, 5] at 10,000
        /// nodes: −1.5 ± 8.6 over 4,000 games, no decision at the cap in session 71
        lmr_count_searched_use = 0;
        /// the history extension of the first quiets at PV nodes (Ethereal 12.75), SPRT [0, 5] at
        /// 10,000 nodes with limit 10,000: −7.6 ± 8.4 over 4,000 games, no decision at the cap, LOS
        /// 3.8 %, in session 71
        history_extension_limit = 0;
        /// the history extension's count of quiets; the history extension was removed
        history_extension_quiets;
        /// internal iterative reduction at expected all nodes too (Berserk, Weiss), SPRT [0, 5] at
        /// 10,000 nodes: −3.6 ± 10.5 over 2,630 games, stopped in session 71
        iir_all_nodes_use = 0;
        /// late move reductions by threat escape (a ply less out of a lesser piece's attack, more
        /// into it), SPRT [0, 5] at 10,000 nodes with 4 quarter plies: +1.0 ± 8.6 over 4,000 games,
        /// no decision at the cap in session 69
        lmr_escape = 0;
        /// quiet moves to a direct check square ordered first (Stockfish), SPRT [0, 5] at 10,000
        /// nodes with 8,192 history points: +0.2 ± 14.4 over 1,530 games, stopped in session 68
        quiet_check_bonus = 0;
        /// fail-high scores pulled toward beta (Stockfish), SPRT [0, 5] at 10,000 nodes: +2.8 ±
        /// 11.0 over 2,460 games, stopped without a decision in session 69
        fail_high_blend_use = 0;
        /// futility pruning of captures at reduced depths (Stockfish), SPRT [0, 5] at 10,000 nodes
        /// to depth 6: −4.0 ± 9.8 over 3,000 games, no decision at the cap in session 69
        capture_futility_depth = 0;
        /// capture futility's margin; capture futility was removed
        capture_futility_margin;
        /// capture futility's margin per ply; capture futility was removed
        capture_futility_per_ply;
        /// hindsight depth, a reduced node searched deeper or shallower by both sides' evaluations
        /// (Stockfish 17), SPRT [0, 5] at 10,000 nodes: +2.3 ± 8.6 over 4,000 games, no decision at
        /// the cap in session 69
        hindsight_use = 0;
        /// hindsight's margin; hindsight was removed
        hindsight_margin;
        /// a TT cutoff's quiet TT move rewarded in the quiet histories (Stockfish), SPRT [0, 10] at
        /// 40,000 nodes: −17.8 ± 25.2 over 410 games alone in session 65, −39.2 ± 32.9 over 196
        /// with the eval-drop bonus in session 64, both stopped losing
        tt_cutoff_history_use = 0;
        /// the opponent's quiet move rewarded by how far it lowered our static evaluation
        /// (Stockfish), SPRT [0, 10] at 40,000 nodes with the TT-cutoff bonus: −39.2 ± 32.9 over
        /// 196 games, stopped losing in session 64
        eval_history_mul = 0;
        /// Stockfish's pawn history in quiet move ordering, SPRT [0, 10] at 40,000 nodes: −3.9 ±
        /// 14.8 over 1,150 games, stopped in session 65
        pawn_history_use = 0;
        /// Stockfish's TT-PV mark with a ply less of LMR at TT-PV nodes: SPRT [0, 10] at 10,000
        /// nodes H0, −27.7 ± 18.6 over 954 games in session 46; at 40,000 nodes +2.5 ± 15.2 over
        /// 1,108 games, stopped in session 65
        tt_pv_use = 0;
        /// LMR's quarter plies less at TT-PV nodes; the TT-PV mark was removed
        lmr_tt_pv;
        /// the correction table of the minor pieces and kings, SPRT [0, 10] at 40,000 nodes with
        /// the continuation correction (weights 400, 360): +4.7 ± 13.4 over 1,494 games, stopped
        /// undecided in session 64
        corr_minor_weight = 0;
        /// Stockfish's continuation correction (the last two moves), SPRT [0, 10] at 40,000 nodes
        /// with the minor table (weights 400, 360): +4.7 ± 13.4 over 1,494 games, stopped undecided
        /// in session 64
        corr_continuation_weight = 0;
        /// the quiescence pessimism cut (Ethereal 13), SPRT [0, 5] at 10,000 nodes: −9.2 ± 10.3
        /// over 2,784 games, stopped heading for H0 in session 74
        qsearch_pessimism_cut_use = 0;
        /// at most this many quiet evasions in a quiescence node in check (Stockfish 16), SPRT [0,
        /// 5] at 10,000 nodes with 2: −3.7 ± 9.7 over 3,034 games, stopped in session 75
        qsearch_quiet_evasions = 0;
        /// quiet quiescence evasions skipped when both continuation histories count against them
        /// (Stockfish 16), SPRT [0, 5] at 10,000 nodes: −0.4 ± 8.7 over 3,092 games, stopped in
        /// session 75
        qsearch_evasion_history_prune_use = 0;
        /// root moves that failed low ordered by their subtrees' nodes, SPRT [0, 10] at 10,000
        /// nodes: −11.7 ± 14.0 over 1,454 games, stopped heading for H0 in session 62
        root_order_by_nodes_use = 0;
        /// Ethereal 12's aspiration re-search a ply shallower after each fail high, SPRT [0, 10] at
        /// 10,000 nodes with delta 14 and growth 50 %: +0.6 ± 7.8 over 5,308 games, stopped
        /// undecided (LLR −1.89) in session 62
        aspiration_fail_high_reduction_use = 0;
        /// the history bonus's depth-squared term, for Ethereal 12's 32·depth² capped at 12,800:
        /// SPRT [0, 10] at 10,000 nodes −1.4 ± 9.4 over 3,618 games, stopped heading for H0 in
        /// session 62
        history_bonus_square_mul = 0;
        /// futility without a history condition (Ethereal 12's second futility test), SPRT [0, 10]
        /// at 10,000 nodes with margin 200: +2.1 ± 8.7 over 3,730 games, stopped leaning H0 in
        /// session 53
        futility_no_history_margin = 0;
        /// the check extension only for checks with SEE ≥ 0 (Stockfish), SPRT [0, 10] at 10,000
        /// nodes: +1.2 ± 10.9 over 2,580 games, stopped leaning H0 in session 53
        check_extension_see_use = 0;
        /// a wider SEE margin for quiet checks than for other quiets, screened on WAC in session
        /// 55 (30, 60, 120 cp a ply: 283–288 of 300 at 1,000,000 and 1,400,000 nodes, the depth
        /// cap 288 and 290) and never played in games: the cap went in instead
        see_quiet_check_extra_margin = 0;
        /// ProbCut, SPRT at 25,000 nodes −12.3 ± 17.4 over 790 games (session 10, a much weaker
        /// search), again [0, 10] at 10,000 nodes from depth 5: +2.5 ± 7.0 over 6,480 games,
        /// unfinished (LLR −1.04) in sessions 47–49
        probcut_depth = 0;
        /// ProbCut's margin; ProbCut was removed
        probcut_margin;
    }
}
