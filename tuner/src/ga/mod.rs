//! The shared library of every evolution command: the generation loop and what it keeps.
//!
//! A command is built from these parts: [`run_dir::RunDir`] locks its output and applies the one
//! start policy (`--resume`, `--force`); [`driver::Driver`] runs its generations (checkpoint
//! after each, resume, fingerprint, per-generation RNG, reports through [`crate::csv`],
//! [`report`] and [`crate::chart`]); [`error::RunError`] is what they can all fail with. Every
//! evolution command runs on the driver as a [`driver::Problem`] asked and told by an
//! [`Optimiser`](crate::optimise::Optimiser): `evolve` (GM-move matching or a mentor),
//! `search-evolve` (node totals on a suite) and `coevolve --config paper` (round robins of
//! engine processes) with the one `[optimiser] kind` names (the GA's [`breed`] by default);
//! `roundrobin-ga` (Aksenov's reference player and operators), `quick` (Belmonte's tournaments
//! and survivor policy), `spsa` and `coevolve`'s evolution strategy with one of their own.
//! `texel`'s fits run pass after pass in the driver's checkpoint. See [`driver`] for how a new
//! fitness or optimiser plugs in.
//! [`par_map`] evaluates fitness in parallel with results in input order, whatever the thread
//! count.
//!
//! The driver builds on the optimisers ([`crate::optimise`]), which build on the genomes
//! ([`crate::genome`]); neither names this module. What the commands use of those two is
//! re-exported here under the paths they have always used: the [`Genome`] and its
//! [`encoding`] and [`operators`], the `[ga]` table ([`GaConfig`]), one GA generation step
//! ([`breed`]) and each generation's RNG ([`generation_rng`], a pure function of `(seed, run,
//! generation)`, so a resumed run is bit-identical without serialising RNG state).

pub mod checkpoint;
pub mod driver;
pub mod error;
pub mod report;
pub mod run_dir;

use std::{
    sync::atomic::{AtomicUsize, Ordering},
    thread,
};

pub use crate::{
    genome::{Genome, encoding, mutant, mutate, operators, random_genome, recombine},
    optimise::{
        choice::{DEFAULT_CMAES_SIGMA, DEFAULT_LOCAL_STEP, OptimiserConfig},
        config::{GaConfig, GaError, ImmigrantKind, Immigrants, overlay_defaults},
        ga::breed,
        generation_rng,
    },
};

/// Parallel map over `items` with `threads` scoped workers taking items one at a time; the
/// result is in input order, so it does not depend on the thread count.
pub fn par_map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    let parts: Vec<Vec<(usize, R)>> = thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= items.len() {
                            break done;
                        }
                        done.push((i, f(&items[i])));
                    }
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("fitness worker panicked")).collect()
    });
    for (i, r) in parts.into_iter().flatten() {
        out[i] = Some(r);
    }
    out.into_iter().map(|r| r.expect("every item evaluated")).collect()
}

/// Worker threads to use: `requested`, or every available core when 0.
pub fn threads(requested: usize) -> usize {
    if requested > 0 { requested } else { thread::available_parallelism().map_or(1, |n| n.get()) }
}
