//! One evolution run: evaluate → record → checkpoint → breed, generation after generation.
//!
//! The result depends only on the seed, the run number, the config and the inputs: fitness
//! is a pure function of genome and positions, evaluated by [`par_map`] (order-preserving),
//! and generation `g`'s RNG is [`crate::ga::generation_rng`]`(seed, run, g)`. A run killed at any point
//! and resumed from its last checkpoint therefore ends with the same organism.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
};

use evochess::params::Params;
use indicatif::{ProgressBar, ProgressStyle};

use super::{EvolveError, Objective, remote::RemoteFitness};
use crate::{
    ga::{
        GaConfig, Genome, OptimiserConfig,
        driver::{Batch, Driver, Problem},
        mutate, par_map, random_genome,
        report::{self, GenerationStats},
        run_dir::RunDirError,
    },
    optimise::AfterTell,
    space::SearchSpace,
};

/// A configured evolution, shared by all runs.
pub struct Evolution<'a> {
    pub space: &'a SearchSpace,
    pub ga: &'a GaConfig,
    pub optimiser: &'a OptimiserConfig,
    pub objective: &'a Objective,
    /// Parameters every organism starts from (defaults plus the space's fixed values).
    pub base: Params,
    pub seed: u64,
    pub threads: usize,
    /// Identifies config + space + positions; stored in checkpoints.
    pub fingerprint: String,
    /// The fingerprint older tuners wrote for the same inputs (see [`Driver::legacy`]).
    pub legacy_fingerprint: Option<String>,
    /// Draw a progress bar on stderr (hidden anyway when stderr is not a terminal).
    pub progress: bool,
    /// First-generation seed genome and the mutation rate of its copies (`[init]`); `None`
    /// draws random genomes, as the paper does.
    pub init: Option<(Genome, f64)>,
    /// Count GM moves on `tuner worker`s instead of local threads.
    pub remote: Option<&'a RemoteFitness>,
}

/// The end of one run.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    pub run: usize,
    pub best: Genome,
    pub params: Params,
    pub train_metric: f64,
    pub test_metric: f64,
    pub history: Vec<GenerationStats>,
}

/// The checkpoint of the run whose files are in `dir` (see [`run_dir`]).
pub fn checkpoint_path(dir: &Path) -> PathBuf {
    dir.join("checkpoint.json")
}

/// Files of run `run` under `out_dir`.
pub fn run_dir(out_dir: &Path, run: usize) -> PathBuf {
    out_dir.join(format!("run-{run}"))
}

/// One run of an [`Evolution`] as the driver's problem.
struct RunProblem<'e, 'a> {
    evolution: &'e Evolution<'a>,
    run: usize,
    dir: &'e Path,
}

impl Problem for RunProblem<'_, '_> {
    type Score = (f64, f64);
    type Record = GenerationStats;
    type Error = EvolveError;

    fn evaluate(&self, b: Batch<'_, (f64, f64), GenerationStats>) -> Result<Vec<(f64, f64)>, EvolveError> {
        self.evolution.evaluate(b.population, b.known, self.run, b.generation, b.history)
    }

    fn fitness(&self, score: &(f64, f64)) -> f64 {
        score.0
    }

    fn metric(&self, score: &(f64, f64)) -> f64 {
        score.1
    }

    fn restore(&self, fitness: f64, metric: f64) -> ((f64, f64), bool) {
        ((fitness, metric), true)
    }

    fn test(&self, best: &Genome) -> f64 {
        let e = self.evolution;
        e.objective.test(&e.space.apply(best, &e.base).eval, e.threads)
    }

    fn record(
        &self,
        _: &[Genome],
        _: &[(f64, f64)],
        _: usize,
        stats: GenerationStats,
        _: &AfterTell,
    ) -> Result<GenerationStats, EvolveError> {
        log::info!(
            "run {} gen {}: best {} mean {} test {} ({:.2}s)",
            self.run,
            stats.generation,
            readable(stats.best_metric),
            readable(stats.mean_metric),
            readable(stats.test_metric),
            stats.seconds
        );
        Ok(stats)
    }

    fn report(&self, history: &[GenerationStats]) -> Result<(), EvolveError> {
        self.evolution.write_reports(self.run, self.dir, history)
    }
}

impl Evolution<'_> {
    /// Runs (or, with `resume`, continues) run number `run`, writing `checkpoint.json`,
    /// `generations.csv` and `fitness.svg` into `dir` after every generation.
    ///
    /// # Errors
    /// A checkpoint exists and `resume` is false; the checkpoint is for other inputs; I/O.
    pub fn run(&self, run: usize, dir: &Path, resume: bool) -> Result<RunOutcome, EvolveError> {
        let layout = self.space.layout();
        self.ga.validate(self.optimiser, layout)?;
        let checkpoint = checkpoint_path(dir);
        if !resume && checkpoint.exists() {
            let (dir, state) = (dir.display().to_string(), checkpoint.display().to_string());
            return Err(RunDirError::Existing { dir, state }.into());
        }
        let driver = Driver {
            generations: self.ga.generations,
            seed: self.seed,
            run,
            fingerprint: &self.fingerprint,
            legacy: self.legacy_fingerprint.as_deref(),
            checkpoint,
            mismatch: "a different config, search space or position set",
            // Move matching replays exactly from a checkpoint, and SPSA's thousands of quick
            // generations would otherwise rewrite the whole history each time.
            throttle: true,
            progress: None,
        };
        let problem = RunProblem { evolution: self, run, dir };
        let finished = driver.evolve(self.ga, self.optimiser, layout, &problem, resume, |rng| match &self.init {
            None => (0..self.ga.population).map(|_| random_genome(layout, rng)).collect(),
            Some((seed, rate)) => (0..self.ga.population)
                .map(|i| {
                    let mut g = seed.clone();
                    if i > 0 {
                        mutate(&mut g, &self.ga.mutation, *rate, layout, rng);
                    }
                    g
                })
                .collect(),
        })?;
        let best = finished.state.best();
        let genome = finished.state.population[best].clone();
        Ok(RunOutcome {
            run,
            params: self.space.apply(&genome, &self.base),
            best: genome,
            train_metric: finished.state.metric[best],
            test_metric: finished.history.last().map_or(f64::NAN, |h| h.test_metric),
            history: finished.history,
        })
    }

    /// `(fitness, metric)` of every organism, in parallel, reusing `memo` for known genomes.
    fn evaluate(
        &self,
        pop: &[Genome],
        memo: &HashMap<Vec<u64>, (f64, f64)>,
        run: usize,
        generation: usize,
        history: &[GenerationStats],
    ) -> Result<Vec<(f64, f64)>, EvolveError> {
        if let Some(remote) = self.remote {
            return self.evaluate_remote(remote, pop, memo);
        }
        let bar = if self.progress { ProgressBar::new(pop.len() as u64) } else { ProgressBar::hidden() };
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{bar:40}] {pos}/{len} organisms {elapsed_precise}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        // The run's ETA from the mean time of the generations done so far.
        let eta = match history.len() {
            0 => String::new(),
            n => {
                let mean = history.iter().map(|h| h.seconds).sum::<f64>() / n as f64;
                let left = mean * self.ga.generations.saturating_sub(generation) as f64;
                format!(", run ETA {}", indicatif::HumanDuration(std::time::Duration::from_secs_f64(left)))
            }
        };
        bar.set_prefix(format!("run {run} gen {generation}/{}{eta}", self.ga.generations));
        let keyed: Vec<(&Genome, Option<(f64, f64)>)> = pop.iter().map(|g| (g, memo.get(&g.key()).copied())).collect();
        let out = par_map(&keyed, self.threads, |(g, known)| {
            let s = known.unwrap_or_else(|| self.objective.train(&self.space.apply(g, &self.base).eval));
            bar.inc(1);
            s
        });
        bar.finish_and_clear();
        Ok(out)
    }

    /// [`Self::evaluate`] by `tuner worker`s: the same counts, so the same run.
    fn evaluate_remote(
        &self,
        remote: &RemoteFitness,
        pop: &[Genome],
        memo: &HashMap<Vec<u64>, (f64, f64)>,
    ) -> Result<Vec<(f64, f64)>, EvolveError> {
        let unknown: Vec<&Genome> = pop.iter().filter(|g| !memo.contains_key(&g.key())).collect();
        let evals: Vec<_> = unknown.iter().map(|g| self.space.apply(g, &self.base).eval).collect();
        let counts = remote.count_solved(&evals).map_err(EvolveError::Broker)?;
        let mut computed: HashMap<Vec<u64>, (f64, f64)> = HashMap::new();
        for (g, solved) in unknown.iter().zip(counts) {
            computed.insert(g.key(), (super::fitness::gm_fitness(solved), f64::from(solved)));
        }
        Ok(pop
            .iter()
            .map(|g| memo.get(&g.key()).or_else(|| computed.get(&g.key())).copied().expect("scored"))
            .collect())
    }

    fn write_reports(&self, run: usize, dir: &Path, history: &[GenerationStats]) -> Result<(), EvolveError> {
        let csv = dir.join("generations.csv");
        report::write_csv(&csv, self.objective.metric_name(), history).map_err(|e| EvolveError::io(&csv, e))?;
        let svg = dir.join("fitness.svg");
        let (train, _) = self.objective.sizes();
        let title = format!(
            "run {run}: best and average of {} organisms, {train} training positions",
            self.optimiser.candidates(self.ga.population)
        );
        report::write_svg(&svg, &title, &self.objective.metric_label(), history).map_err(|e| EvolveError::io(&svg, e))
    }
}

/// A metric with four significant digits: counts of solved positions and centipawn errors read
/// as before, and a winning-chance error such as 0.0226 keeps its digits.
fn readable(x: f64) -> String {
    if x == 0.0 || !x.is_finite() || x.abs() >= 1000.0 {
        return format!("{x:.0}");
    }
    let decimals = (3 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn metrics_keep_four_significant_digits() {
        assert_eq!(super::readable(1767.0), "1767");
        assert_eq!(super::readable(1318.94), "1319");
        assert_eq!(super::readable(211.54), "211.5");
        assert_eq!(super::readable(0.022644), "0.02264");
        assert_eq!(super::readable(0.0), "0");
    }
}
