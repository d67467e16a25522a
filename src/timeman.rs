//! Time management: from one `go` command to an optimum and a maximum thinking time.
//!
//! Computed once per `go` (Stockfish `timeman.h`): `optimum` is what an iteration-by-iteration
//! search aims for (no new iteration starts after a share of it), `maximum` is the hard stop
//! checked inside the search. Clock values are clamped (negative times from a GUI that
//! overstepped count as 0), the Move Overhead is subtracted from everything, and a `go` with only
//! one side's clock still works (the missing side is simply not ours to care about).

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
            return TimeManager { start, optimum: None, maximum: None, new_iteration_percent };
        }
        if let Some(movetime) = limits.movetime {
            let t = movetime.saturating_sub(overhead_ms).max(MIN_MS);
            let d = Duration::from_millis(t);
            // A fixed movetime is used in full: iterations may start until the end.
            return TimeManager { start, optimum: Some(d), maximum: Some(d), new_iteration_percent: 100 };
        }
        let (time, inc) = match stm {
            Color::White => (limits.wtime, limits.winc),
            Color::Black => (limits.btime, limits.binc),
        };
        let Some(time) = time else {
            return TimeManager { start, optimum: None, maximum: None, new_iteration_percent };
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

    /// True once the hard limit has passed (checked inside the search).
    pub fn out_of_time(&self) -> bool {
        self.maximum.is_some_and(|m| self.start.elapsed() >= m)
    }

    /// Whether to begin another iteration, with the optimum scaled by `scale_percent` (best-move
    /// instability makes it larger). An iteration rarely finishes in less time than all the
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
}
