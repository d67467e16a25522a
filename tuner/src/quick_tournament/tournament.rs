//! Quick tournament (Belmonte 2013 §II-B and Appendix II): quick-sort with games as comparisons.
//!
//! A random pivot plays every other member of its subset; the subset splits into those who
//! beat the pivot and the rest, and both halves are ranked recursively, in parallel. Each pair
//! meets at most once, so a population of `N` needs between `N log2 N - 2(N - 1) + log2 N`
//! (perfect splits) and `N(N-1)/2` games; on average `2(N+1)H_N - 4N` (quick-sort's expected
//! comparison count; ≈ 32.7 for N = 12, where the paper estimates `N log2 N - N` ≈ 31).
//!
//! The ranking is generic over a comparison, so it sorts numbers as well as chess players:
//!
//! ```
//! use std::cmp::Ordering;
//! use tuner::quick_tournament::tournament::quick_tournament;
//! let values = [5, 3, 9, 1, 7];
//! // `compare(pivot, other)`: how `other` did against `pivot`.
//! let r = quick_tournament(values.len(), 42, 1, |p, o| values[o].cmp(&values[p]));
//! assert_eq!(r.order.iter().map(|&i| values[i]).collect::<Vec<_>>(), vec![1, 3, 5, 7, 9]);
//! assert_eq!(r.games, r.partitions.iter().map(|p| p.size - 1).sum::<usize>());
//! ```
//!
//! Pivots are drawn from an RNG seeded by `(seed, subset)`, so the same results give the same
//! recursion whatever the thread timing: a resumed generation that replays its finished games
//! from a journal walks exactly the same tree.

use std::{
    cmp::Ordering,
    sync::{Condvar, Mutex},
    thread,
};

use rand::{Rng, SeedableRng, rngs::StdRng};

use crate::hash::mix64;

/// One split: `pivot` played the other `size - 1` members of its subset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    pub pivot: usize,
    pub size: usize,
}

/// The outcome of a quick tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranking {
    /// Member indices from worst (rank 0) to best (rank N-1).
    pub order: Vec<usize>,
    /// Games played: the sum of `size - 1` over the partitions.
    pub games: usize,
    /// Every split, parents before their halves.
    pub partitions: Vec<Partition>,
}

impl Ranking {
    /// Rank of each member (0 = worst), indexed by member.
    pub fn ranks(&self) -> Vec<usize> {
        let mut r = vec![0; self.order.len()];
        for (rank, &m) in self.order.iter().enumerate() {
            r[m] = rank;
        }
        r
    }
}

/// Quick-sort's expected number of comparisons with random pivots, `2(N+1)H_N - 4N`.
pub fn expected_games(n: usize) -> f64 {
    let h: f64 = (1..=n).map(|k| 1.0 / k as f64).sum();
    2.0 * (n as f64 + 1.0) * h - 4.0 * n as f64
}

/// Belmonte's estimate of the games per generation, `N log2 N - N` (Table II.1).
pub fn belmonte_estimate(n: usize) -> f64 {
    if n == 0 { 0.0 } else { n as f64 * (n as f64).log2() - n as f64 }
}

/// A counting semaphore: at most `permits` games at a time, however the recursion fans out.
struct Slots {
    free: Mutex<usize>,
    cv: Condvar,
}

impl Slots {
    fn run<R>(&self, f: impl FnOnce() -> R) -> R {
        {
            let mut free = self.free.lock().expect("slot lock");
            while *free == 0 {
                free = self.cv.wait(free).expect("slot lock");
            }
            *free -= 1;
        }
        // Give the slot back even if the game panics, so sibling threads are not stuck.
        struct Release<'a>(&'a Slots);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
                self.0.cv.notify_one();
            }
        }
        let _release = Release(self);
        f()
    }
}

struct Ctx<'a, F> {
    seed: u64,
    parallel: bool,
    slots: Slots,
    compare: &'a F,
}

/// Ranks members `0..n` by a quick tournament.
///
/// `compare(pivot, other)` plays one game and says how `other` fared against `pivot`:
/// `Greater` puts `other` above the pivot; `Less` and `Equal` (a draw) put it below. A draw
/// counts for the pivot because the pivot always has black, the harder colour.
/// At most `concurrency` comparisons run at once (1 = strictly sequential, no threads).
pub fn quick_tournament<F>(n: usize, seed: u64, concurrency: usize, compare: F) -> Ranking
where
    F: Fn(usize, usize) -> Ordering + Sync,
{
    let ctx = Ctx {
        seed,
        parallel: concurrency > 1,
        slots: Slots { free: Mutex::new(concurrency.max(1)), cv: Condvar::new() },
        compare: &compare,
    };
    let (order, partitions) = rank((0..n).collect(), &ctx);
    let games = partitions.iter().map(|p| p.size - 1).sum();
    Ranking { order, games, partitions }
}

fn subset_rng(seed: u64, members: &[usize]) -> StdRng {
    let h = members.iter().fold(mix64(seed ^ members.len() as u64), |h, &m| mix64(h ^ m as u64));
    StdRng::seed_from_u64(h)
}

fn rank<F>(members: Vec<usize>, ctx: &Ctx<'_, F>) -> (Vec<usize>, Vec<Partition>)
where
    F: Fn(usize, usize) -> Ordering + Sync,
{
    if members.len() < 2 {
        return (members, Vec::new());
    }
    let pivot = members[subset_rng(ctx.seed, &members).random_range(0..members.len())];
    let others: Vec<usize> = members.iter().copied().filter(|&m| m != pivot).collect();
    let play = |o: usize| ctx.slots.run(|| (ctx.compare)(pivot, o));
    let results: Vec<Ordering> = if ctx.parallel {
        thread::scope(|s| {
            let handles: Vec<_> = others.iter().map(|&o| s.spawn(move || play(o))).collect();
            handles.into_iter().map(|h| h.join().expect("game thread panicked")).collect()
        })
    } else {
        others.iter().map(|&o| play(o)).collect()
    };
    let (mut better, mut worse) = (Vec::new(), Vec::new());
    for (&o, r) in others.iter().zip(results) {
        if r == Ordering::Greater { better.push(o) } else { worse.push(o) }
    }
    let mut partitions = vec![Partition { pivot, size: members.len() }];
    let ((worse, pw), (better, pb)) = if ctx.parallel {
        thread::scope(|s| {
            let b = s.spawn(|| rank(better, ctx));
            let w = rank(worse, ctx);
            (w, b.join().expect("ranking thread panicked"))
        })
    } else {
        (rank(worse, ctx), rank(better, ctx))
    };
    partitions.extend(pw);
    partitions.extend(pb);
    let mut order = worse;
    order.push(pivot);
    order.extend(better);
    (order, partitions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_counts_match_the_paper_table() {
        assert!((belmonte_estimate(12) - 31.0).abs() < 0.1);
        assert!((belmonte_estimate(100) - 564.4).abs() < 0.1);
        assert!((expected_games(12) - 32.68).abs() < 0.01);
        assert_eq!(expected_games(1), 0.0);
    }

    #[test]
    fn tiny_populations() {
        let r = quick_tournament(0, 1, 1, |_, _| Ordering::Less);
        assert_eq!((r.order, r.games), (vec![], 0));
        let r = quick_tournament(1, 1, 4, |_, _| Ordering::Less);
        assert_eq!((r.order, r.games), (vec![0], 0));
    }
}
