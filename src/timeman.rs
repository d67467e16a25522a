//! Time management: from one `go` command to an optimum and a maximum thinking time.
//!
//! Computed once per `go` (Stockfish `timeman.h`): `optimum` is what an iteration-by-iteration
//! search aims for (no new iteration starts after a share of it), `maximum` is the hard stop
//! checked inside the search. Clock values are clamped (negative times from a GUI that
//! overstepped count as 0), the Move Overhead is subtracted from everything, and a `go` with only
//! one side's clock still works (the missing side is simply not ours to care about).
//!
//! After each completed iteration the search asks whether to start another
//! ([`TimeManager::should_start_iteration`]) with the optimum scaled by [`soft_scale_percent`]:
//! best-move instability stretches it and, on the clock from `tm_trend_min_depth` on, three
//! trend factors after Ethereal's `tm_finished` (its `timeman.c` since June 2022) scale it by what
//! the last iterations say: where the root's nodes went ([`node_factor_percent`]), how far the
//! best score fell ([`score_factor_percent`]) and for how long the best move has stayed
//! ([`stability_factor_percent`]).

use std::time::{Duration, Instant};

use shakmaty::Color;

use crate::{limits::Limits, search::params::SearchParams};

/// Smallest time budget: a search always gets to finish depth 1.
const MIN_MS: u64 = 1;

/// Time budget of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Soft target; `None` when the clock does not bound the search.
    optimum: Option<Duration>,
    /// Hard limit; `None` when the clock does not bound the search.
    maximum: Option<Duration>,
    new_iteration_percent: u64,
    /// The budget comes from the clock (`wtime`/`btime`), not `movetime` or no limit: only then
    /// do the trend factors apply.
    on_clock: bool,
}

/// Floor of the stability factor, whatever its parameters (the other factors have theirs in
/// their parameters' ranges): no factor stops the search at once.
const MIN_FACTOR_PERCENT: i64 = 10;

/// What the completed iterations say about how settled the search is: the inputs of the trend
/// factors of [`soft_scale_percent`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IterationTrend {
    /// Nodes searched under the best move in the last completed iteration.
    pub best_nodes: u64,
    /// Nodes searched under all root moves in that iteration.
    pub root_nodes: u64,
    /// How far the best score fell from `tm_score_lookback` completed iterations back to the
    /// last (centipawns; negative when it rose).
    pub score_drop: i32,
    /// Consecutive completed iterations (counted from `tm_trend_min_depth`) whose best move was
    /// the previous iteration's.
    pub stable_iterations: u32,
}

/// Node factor (percent): `max(tm_node_min_percent, tm_node_weight_percent x (1 - best share) +
/// tm_node_base_percent)`, the best share being `best_nodes / root_nodes` (Ethereal's
/// `nodes_factor`, 0.5 to 2.4). A best move that took nearly all the effort is settled; one
/// that took little of it was contested. 100 (no change) without nodes to judge by.
pub fn node_factor_percent(p: &SearchParams, best_nodes: u64, root_nodes: u64) -> u64 {
    if root_nodes == 0 {
        return 100;
    }
    let off_best_permille = (u128::from(root_nodes.saturating_sub(best_nodes)) * 1000 / u128::from(root_nodes)) as u64;
    let factor =
        p.tm_node_weight_percent.max(0) as u64 * off_best_permille / 1000 + p.tm_node_base_percent.max(0) as u64;
    factor.max(p.tm_node_min_percent.max(1) as u64)
}

/// Score factor (percent): `tm_score_base_percent + tm_score_drop_percent x drop` clamped to
/// `[tm_score_low_percent, tm_score_high_percent]`, `drop` being how far the best score fell in
/// centipawns (Ethereal's `score_factor`: 0.05 per centipawn clamped to 0.75 to 1.25).
pub fn score_factor_percent(p: &SearchParams, score_drop: i32) -> u64 {
    let low = i64::from(p.tm_score_low_percent).max(1);
    let high = i64::from(p.tm_score_high_percent).max(low);
    let factor = i64::from(p.tm_score_base_percent) + i64::from(p.tm_score_drop_percent) * i64::from(score_drop);
    factor.clamp(low, high) as u64
}

/// Stability factor (percent): `tm_stability_base_percent - tm_stability_step_percent x
/// min(stable iterations, tm_stability_max)`, at least [`MIN_FACTOR_PERCENT`] (Ethereal's
/// `pv_factor`: 1.2 down to 0.8 after ten iterations with the same best move).
pub fn stability_factor_percent(p: &SearchParams, stable_iterations: u32) -> u64 {
    let stable = i64::from(stable_iterations.min(p.tm_stability_max.max(0) as u32));
    let factor = i64::from(p.tm_stability_base_percent) - i64::from(p.tm_stability_step_percent) * stable;
    factor.max(MIN_FACTOR_PERCENT) as u64
}

/// The optimum's scale for the soft stop (percent, for [`TimeManager::should_start_iteration`]):
/// `100 + tm_instability_percent x instability`, times the three trend factors when `trend` is
/// given (the search gives it on the clock from `tm_trend_min_depth` on). With the trend
/// parameters at the values they had before format 6 every factor is 100 and the scale is the
/// instability term alone.
pub fn soft_scale_percent(p: &SearchParams, instability: u64, trend: Option<&IterationTrend>) -> u64 {
    let base = 100 + p.tm_instability_percent.max(0) as u64 * instability;
    match trend {
        None => base,
        Some(t) => {
            let nodes = node_factor_percent(p, t.best_nodes, t.root_nodes);
            let score = score_factor_percent(p, t.score_drop);
            let stability = stability_factor_percent(p, t.stable_iterations);
            base * nodes * score * stability / 1_000_000
        }
    }
}

impl TimeManager {
    /// Budget for `limits` with `stm` to move, `overhead_ms` of GUI/transport latency per move.
    pub fn new(limits: &Limits, stm: Color, overhead_ms: u64, params: &SearchParams) -> TimeManager {
        Self::starting_at(Instant::now(), limits, stm, overhead_ms, params)
    }

    /// As [`TimeManager::new`] with an explicit start instant.
    pub fn starting_at(
        start: Instant,
        limits: &Limits,
        stm: Color,
        overhead_ms: u64,
        params: &SearchParams,
    ) -> TimeManager {
        let new_iteration_percent = params.tm_new_iteration_percent as u64;
        if limits.infinite {
            return TimeManager { start, optimum: None, maximum: None, new_iteration_percent, on_clock: false };
        }
        if let Some(movetime) = limits.movetime {
            let t = movetime.saturating_sub(overhead_ms).max(MIN_MS);
            let d = Duration::from_millis(t);
            // A fixed movetime is used in full: iterations may start until the end.
            return TimeManager {
                start,
                optimum: Some(d),
                maximum: Some(d),
                new_iteration_percent: 100,
                on_clock: false,
            };
        }
        let (time, inc) = match stm {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeManager { start, optimum: None, maximum: None, new_iteration_percent, on_clock: false };
        };
        let time = time.max(0) as u64;
        let inc = inc.unwrap_or(0).max(0) as u64;
        let mtg = limits.movestogo.filter(|&m| m > 0).map_or(params.tm_moves_to_go as u64, |m| {
            // With few moves to the time control, keep a reserve rather than spend it all.
            u64::from(m).min(params.tm_moves_to_go as u64) + 1
        });
        // What we may safely spend at all: the clock minus the overhead, with a small reserve.
        let usable = time.saturating_sub(overhead_ms);
        let cap = usable * params.tm_max_clock_percent as u64 / 100;
        let optimum = (usable / mtg + inc * params.tm_increment_percent as u64 / 100).min(cap);
        let maximum = (optimum * params.tm_max_percent as u64 / 100).min(cap);
        TimeManager {
            start,
            optimum: Some(Duration::from_millis(optimum.max(MIN_MS))),
            maximum: Some(Duration::from_millis(maximum.max(MIN_MS))),
            new_iteration_percent,
            on_clock: true,
        }
    }

    /// Restarts the clock (at `ponderhit` our own clock starts running).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn optimum(&self) -> Option<Duration> {
        self.optimum
    }

    pub fn maximum(&self) -> Option<Duration> {
        self.maximum
    }

    /// Whether the budget comes from the clock (`wtime`/`btime`): not `movetime`, `infinite` or
    /// a `go` without our clock.
    pub fn on_clock(&self) -> bool {
        self.on_clock
    }

    /// True once the hard limit has passed (checked inside the search).
    pub fn out_of_time(&self) -> bool {
        self.maximum.is_some_and(|m| self.start.elapsed() >= m)
    }

    /// Whether to begin another iteration, with the optimum scaled by `scale_percent`
    /// ([`soft_scale_percent`]), never past the maximum. An iteration rarely finishes in less time than all the
    /// previous ones took, so none starts after `tm_new_iteration_percent` of the optimum.
    pub fn should_start_iteration(&self, scale_percent: u64) -> bool {
        match self.optimum {
            None => true,
            Some(opt) => {
                let budget = opt.as_micros() as u64 * scale_percent / 100 * self.new_iteration_percent / 100;
                let budget = budget.min(self.maximum.map_or(u64::MAX, |m| m.as_micros() as u64));
                (self.start.elapsed().as_micros() as u64) < budget
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tm(limits: Limits, stm: Color, overhead: u64) -> TimeManager {
        TimeManager::new(&limits, stm, overhead, &SearchParams::default())
    }

    #[test]
    fn clock_budgets() {
        let l = Limits { wtime: Some(60_000), btime: Some(1), winc: Some(1000), ..Limits::default() };
        let t = tm(l.clone(), Color::White, 10);
        let (opt, max) = (t.optimum().unwrap().as_millis(), t.maximum().unwrap().as_millis());
        assert!(opt > 1000 && opt < 5000, "{opt}");
        assert!(max >= opt && max <= 60_000 * 40 / 100, "{max}");
        // Black has 1 ms: budget floors at 1 ms, never more than what is left.
        let t = tm(l, Color::Black, 10);
        assert_eq!(t.maximum().unwrap().as_millis(), 1);
    }

    #[test]
    fn negative_and_missing_clocks() {
        let t = tm(Limits { wtime: Some(-500), ..Limits::default() }, Color::White, 10);
        assert_eq!(t.maximum().unwrap().as_millis(), 1);
        // Only White's clock given, Black to move: not time-bounded.
        let t = tm(Limits { wtime: Some(1000), ..Limits::default() }, Color::Black, 10);
        assert!(t.maximum().is_none());
        let t = tm(Limits { btime: Some(1000), ..Limits::default() }, Color::Black, 10);
        assert!(t.maximum().is_some());
    }

    #[test]
    fn one_second_plus_tiny_increment_is_safe() {
        let l = Limits { wtime: Some(1000), btime: Some(1000), winc: Some(10), binc: Some(10), ..Limits::default() };
        let t = tm(l, Color::White, 10);
        assert!(t.maximum().unwrap().as_millis() <= 400);
        let t = tm(Limits { movetime: Some(100), ..Limits::default() }, Color::White, 10);
        assert_eq!(t.maximum().unwrap().as_millis(), 90);
        let t = tm(Limits { movestogo: Some(1), wtime: Some(1000), ..Limits::default() }, Color::White, 0);
        assert!(t.maximum().unwrap().as_millis() <= 400);
        assert!(tm(Limits { infinite: true, ..Limits::default() }, Color::White, 0).maximum().is_none());
    }

    #[test]
    fn only_a_clock_budget_is_on_the_clock() {
        assert!(tm(Limits { wtime: Some(1000), ..Limits::default() }, Color::White, 0).on_clock());
        assert!(!tm(Limits { movetime: Some(1000), ..Limits::default() }, Color::White, 0).on_clock());
        assert!(!tm(Limits { infinite: true, wtime: Some(1000), ..Limits::default() }, Color::White, 0).on_clock());
        assert!(!tm(Limits { wtime: Some(1000), ..Limits::default() }, Color::Black, 0).on_clock());
        assert!(!tm(Limits { depth: Some(5), ..Limits::default() }, Color::White, 0).on_clock());
    }

    /// The trend factors at Ethereal's values, the committed candidate params/tm-ethereal.toml.
    fn ethereal() -> SearchParams {
        crate::params::Params::default().with_toml(include_str!("../params/tm-ethereal.toml")).unwrap().search
    }

    /// The trend factors at Ethereal's values: nodes 0.5 to 2.4, score 0.75 to 1.25, stability
    /// 1.2 down to 0.8.
    #[test]
    fn trend_factors_at_ethereals_values() {
        let p = ethereal();
        // All nodes under the best move: 2 x 0 + 0.4, floored at 0.5; none: 2.4; half: 1.4.
        assert_eq!(node_factor_percent(&p, 1000, 1000), 50);
        assert_eq!(node_factor_percent(&p, 0, 1000), 240);
        assert_eq!(node_factor_percent(&p, 500, 1000), 140);
        assert_eq!(node_factor_percent(&p, 900, 1000), 60);
        assert_eq!(node_factor_percent(&p, 0, 0), 100, "no nodes: no change");
        assert_eq!(node_factor_percent(&p, 2000, 1000), 50, "more than all counts as all");
        // 5 % per centipawn of drop, clamped to [75, 125].
        assert_eq!(score_factor_percent(&p, 0), 75);
        assert_eq!(score_factor_percent(&p, -40), 75);
        assert_eq!(score_factor_percent(&p, 20), 100);
        assert_eq!(score_factor_percent(&p, 24), 120);
        assert_eq!(score_factor_percent(&p, 30), 125);
        assert_eq!(score_factor_percent(&p, i32::MAX), 125);
        assert_eq!(score_factor_percent(&p, i32::MIN), 75);
        // 120 % less 4 % per stable iteration, counted up to 10.
        assert_eq!(stability_factor_percent(&p, 0), 120);
        assert_eq!(stability_factor_percent(&p, 5), 100);
        assert_eq!(stability_factor_percent(&p, 10), 80);
        assert_eq!(stability_factor_percent(&p, 1000), 80);
        // The product, on top of the instability term.
        let settled = IterationTrend { best_nodes: 900, root_nodes: 1000, score_drop: 0, stable_iterations: 10 };
        assert_eq!(soft_scale_percent(&p, 0, Some(&settled)), 36); // 0.6 x 0.75 x 0.8
        assert_eq!(soft_scale_percent(&p, 2, Some(&settled)), 64); // 1.8 x 0.36
        let contested = IterationTrend { best_nodes: 300, root_nodes: 1000, score_drop: 40, stable_iterations: 0 };
        assert_eq!(soft_scale_percent(&p, 0, Some(&contested)), 270); // 1.8 x 1.25 x 1.2
        assert_eq!(soft_scale_percent(&p, 1, None), 140, "without a trend: the instability term");
    }

    /// Since format 9 (a timed SPRT, BENCHMARKS.md) the defaults spend half as much again while
    /// the clock is full (10+0.1: 575 ms against 383); a format-8 file keeps the old budget, and
    /// the SPRT's candidate file params/tm-early.toml is the new default.
    #[test]
    fn early_budget_spends_more_of_a_full_clock() {
        let load = |text: &str| crate::params::Params::default().with_toml(text).unwrap().search;
        let optimum = |p: &SearchParams| {
            let l = Limits { wtime: Some(10_000), winc: Some(100), ..Limits::default() };
            TimeManager::new(&l, Color::White, 0, p).optimum().unwrap().as_millis()
        };
        let early = load(include_str!("../params/tm-early.toml"));
        let format8 = load("format = 8\n");
        assert_eq!(optimum(&SearchParams::default()), 575);
        assert_eq!(optimum(&early), 575);
        assert_eq!(optimum(&format8), 383);
    }

    #[test]
    fn stability_factor_has_a_floor() {
        let p = SearchParams {
            tm_stability_base_percent: 50,
            tm_stability_step_percent: 20,
            tm_stability_max: 30,
            ..SearchParams::default()
        };
        assert_eq!(stability_factor_percent(&p, 1), 30);
        assert_eq!(stability_factor_percent(&p, 30), MIN_FACTOR_PERCENT as u64);
        let p = SearchParams { tm_score_low_percent: 100, tm_score_high_percent: 100, ..SearchParams::default() };
        assert_eq!(score_factor_percent(&p, -1000), 100);
        assert_eq!(score_factor_percent(&p, 1000), 100);
    }

    /// A parameter file of format 5 (before the trend factors) gets their old values, and the
    /// defaults are those values until a timed SPRT promotes Ethereal's: every factor is 100 and
    /// the scale is exactly the instability term, as before.
    #[test]
    fn the_trend_factors_at_their_old_values_change_nothing() {
        let p = crate::params::Params::default().with_toml("format = 5\n").unwrap().search;
        // Keys of later formats (not the time manager's) play as before them too.
        let later = SearchParams {
            lmr_research_adjust_use: 0,
            prior_countermove_bonus_use: 0,
            history_futility_depth: 0,
            history_prune_depth: 0,
            tm_moves_to_go: 30,
            tm_increment_percent: 50,
            qsearch_see_threshold: 0,
            qsearch_see_futility_margin: 0,
            see_prune_quiet_checks_use: 0,
            see_quiet_check_depth: 16,
            qsearch_checks_use: 0,
            pawn_only_pruning_use: 0,
            corr_pawn_weight: 0,
            corr_non_pawn_weight: 0,
            threat_history_use: 0,
            threat_escape_bonus: 0,
            singular_min_depth: 8,
            in_check_pruning_use: 0,
            ..SearchParams::default()
        };
        assert_eq!(p, later);
        assert_ne!(p, ethereal());
        for best_nodes in [0, 1, 499, 500, 999, 1000, 5000, u64::MAX] {
            for root_nodes in [0, 1, 1000, u64::MAX] {
                for score_drop in [i32::MIN, -500, -1, 0, 1, 15, 25, 500, i32::MAX] {
                    for stable_iterations in [0, 1, 5, 10, 11, u32::MAX] {
                        let trend = IterationTrend { best_nodes, root_nodes, score_drop, stable_iterations };
                        assert_eq!(node_factor_percent(&p, best_nodes, root_nodes), 100);
                        assert_eq!(score_factor_percent(&p, score_drop), 100);
                        assert_eq!(stability_factor_percent(&p, stable_iterations), 100);
                        for instability in 0..=4 {
                            let before = 100 + p.tm_instability_percent as u64 * instability;
                            assert_eq!(soft_scale_percent(&p, instability, Some(&trend)), before, "{trend:?}");
                            assert_eq!(soft_scale_percent(&p, instability, None), before);
                        }
                    }
                }
            }
        }
    }
}
