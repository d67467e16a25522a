//! One evolution run: evaluate → record → checkpoint → breed, generation after generation.
//!
//! The result depends only on the seed, the run number, the config and the inputs: fitness
//! is a pure function of genome and positions, evaluated by [`par_map`] (order-preserving),
//! and generation `g`'s RNG is [`generation_rng`]`(seed, run, g)`. A run killed at any point
//! and resumed from its last checkpoint therefore ends with the same organism.

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    time::Instant,
};

use evochess::params::Params;
use indicatif::{ProgressBar, ProgressStyle};

use super::{EvolveError, Objective, checkpoint::Checkpoint, report, report::GenerationStats};
use crate::{
    ga::{GaConfig, Genome, breed, generation_rng, mutate, operators::elite_indices, par_map, random_genome},
    space::SearchSpace,
};

/// A configured evolution, shared by all runs.
pub struct Evolution<'a> {
    pub space: &'a SearchSpace,
    pub ga: &'a GaConfig,
    pub objective: &'a Objective,
    /// Parameters every organism starts from (defaults plus the space's fixed values).
    pub base: Params,
    pub seed: u64,
    pub threads: usize,
    /// Identifies config + space + positions; stored in checkpoints.
    pub fingerprint: String,
    /// Draw a progress bar on stderr (hidden anyway when stderr is not a terminal).
    pub progress: bool,
    /// First-generation seed genome and the mutation rate of its copies (`[init]`); `None`
    /// draws random genomes, as the paper does.
    pub init: Option<(Genome, f64)>,
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

/// Files of run `run` under `out_dir`.
pub fn run_dir(out_dir: &Path, run: usize) -> PathBuf {
    out_dir.join(format!("run-{run}"))
}

impl Evolution<'_> {
    /// Runs (or, with `resume`, continues) run number `run`, writing `checkpoint.json`,
    /// `generations.csv` and `fitness.svg` into `dir` after every generation.
    ///
    /// # Errors
    /// A checkpoint exists and `resume` is false; the checkpoint is for other inputs; I/O.
    pub fn run(&self, run: usize, dir: &Path, resume: bool) -> Result<RunOutcome, EvolveError> {
        let layout = self.space.layout();
        self.ga.validate(layout)?;
        let ckpt_path = dir.join("checkpoint.json");
        let (mut pop, mut generation, mut history, mut scores) = match Checkpoint::load(&ckpt_path)? {
            Some(_) if !resume => return Err(EvolveError::ExistingRun { dir: dir.display().to_string() }),
            Some(c) => {
                let bad = |reason: String| EvolveError::Checkpoint { path: ckpt_path.display().to_string(), reason };
                if c.fingerprint != self.fingerprint {
                    return Err(bad(format!(
                        "it was written with a different config, search space or position set (fingerprint {}, \
                         this run's {}); resume with the same ones",
                        c.fingerprint, self.fingerprint
                    )));
                }
                if c.run != run || c.population.len() != c.fitness.len() || c.population.len() != c.metric.len() {
                    return Err(bad(format!("inconsistent checkpoint (run {}, expected {run})", c.run)));
                }
                if let Some(i) = c.population.iter().position(|g| !g.fits(layout)) {
                    return Err(bad(format!("genome {i} does not fit the search space")));
                }
                log::info!("run {run}: resuming after generation {}", c.generation);
                let scores: Vec<(f64, f64)> = c.fitness.into_iter().zip(c.metric).collect();
                (c.population, c.generation, c.history, Some(scores))
            }
            None => {
                let mut rng = generation_rng(self.seed, run as u64, 0);
                let pop: Vec<Genome> = match &self.init {
                    None => (0..self.ga.population).map(|_| random_genome(layout, &mut rng)).collect(),
                    Some((seed, rate)) => (0..self.ga.population)
                        .map(|i| {
                            let mut g = seed.clone();
                            if i > 0 {
                                mutate(&mut g, &self.ga.mutation, *rate, layout, &mut rng);
                            }
                            g
                        })
                        .collect(),
                };
                (pop, 0, Vec::new(), None)
            }
        };
        // Fitness of the previous generation's genomes, reused for identical children (elites,
        // unrecombined copies): the objective is a pure function of the genome.
        let mut memo: HashMap<Vec<u64>, (f64, f64)> = HashMap::new();
        let mut test_memo: HashMap<Vec<u64>, f64> = HashMap::new();
        loop {
            let evaluated = match scores.take() {
                Some(s) => s,
                None => {
                    let started = Instant::now();
                    let s = self.evaluate(&pop, &memo, run, generation, &history);
                    let best = best_index(&s);
                    let key = pop[best].key();
                    let test = match test_memo.get(&key) {
                        Some(&t) => t,
                        None => self.objective.test(&self.space.apply(&pop[best], &self.base).eval, self.threads),
                    };
                    test_memo = HashMap::from([(key, test)]);
                    let n = s.len() as f64;
                    let stats = GenerationStats {
                        generation,
                        best_metric: s[best].1,
                        mean_metric: s.iter().map(|x| x.1).sum::<f64>() / n,
                        test_metric: test,
                        best_fitness: s[best].0,
                        mean_fitness: s.iter().map(|x| x.0).sum::<f64>() / n,
                        seconds: started.elapsed().as_secs_f64(),
                    };
                    log::info!(
                        "run {run} gen {generation}: best {} mean {} test {} ({:.2}s)",
                        readable(stats.best_metric),
                        readable(stats.mean_metric),
                        readable(stats.test_metric),
                        stats.seconds
                    );
                    history.push(stats);
                    let ckpt = Checkpoint {
                        fingerprint: self.fingerprint.clone(),
                        run,
                        generation,
                        population: pop.clone(),
                        fitness: s.iter().map(|x| x.0).collect(),
                        metric: s.iter().map(|x| x.1).collect(),
                        history: history.clone(),
                    };
                    ckpt.save(&ckpt_path)?;
                    self.write_reports(run, dir, &history)?;
                    s
                }
            };
            memo = pop.iter().map(Genome::key).zip(evaluated.iter().copied()).collect();
            if generation + 1 >= self.ga.generations {
                let best = best_index(&evaluated);
                let genome = pop[best].clone();
                let params = self.space.apply(&genome, &self.base);
                let last = history.last().cloned();
                // Reports are rewritten so a run finished before a crash still has them.
                self.write_reports(run, dir, &history)?;
                return Ok(RunOutcome {
                    run,
                    best: genome,
                    params,
                    train_metric: evaluated[best].1,
                    test_metric: last.map_or(f64::NAN, |h| h.test_metric),
                    history,
                });
            }
            let fitness: Vec<f64> = evaluated.iter().map(|x| x.0).collect();
            let mut rng = generation_rng(self.seed, run as u64, generation as u64 + 1);
            pop = breed(&pop, &fitness, self.ga, layout, &mut rng)?;
            generation += 1;
        }
    }

    /// `(fitness, metric)` of every organism, in parallel, reusing `memo` for known genomes.
    fn evaluate(
        &self,
        pop: &[Genome],
        memo: &HashMap<Vec<u64>, (f64, f64)>,
        run: usize,
        generation: usize,
        history: &[GenerationStats],
    ) -> Vec<(f64, f64)> {
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
        out
    }

    fn write_reports(&self, run: usize, dir: &Path, history: &[GenerationStats]) -> Result<(), EvolveError> {
        let csv = dir.join("generations.csv");
        report::write_csv(&csv, self.objective.metric_name(), history).map_err(|e| EvolveError::io(&csv, e))?;
        let svg = dir.join("fitness.svg");
        let (train, _) = self.objective.sizes();
        let title =
            format!("run {run}: best and average of {} organisms, {train} training positions", self.ga.population);
        report::write_svg(&svg, &title, &self.objective.metric_label(), history).map_err(|e| EvolveError::io(&svg, e))
    }
}

/// Index of the fittest organism (lowest index on ties, so elites stay first).
pub fn best_index(scores: &[(f64, f64)]) -> usize {
    let fitness: Vec<f64> = scores.iter().map(|s| s.0).collect();
    elite_indices(&fitness, 1)[0]
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
