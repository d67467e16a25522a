//! The generation loop shared by the commands whose organisms are [`Genome`]s bred by
//! [`breed`]: evaluate → record → checkpoint → report → breed, until the last generation.
//!
//! A command supplies a [`Problem`]: how a population is scored (in-process threads or games),
//! what selection sees (`fitness`) and what a reader sees (`metric`), the test-set measure of
//! each generation's best, and its reports. The driver owns what must be the same everywhere:
//! generation `g`'s RNG is [`generation_rng`]`(seed, run, g)`, a checkpoint holds the last
//! evaluated generation (no RNG state), a resumed run refuses other inputs by fingerprint, and
//! identical genomes are not scored twice. A run killed at any point and resumed therefore ends
//! with the same organism as an uninterrupted one.
//!
//! `tuner evolve` (one problem per run: GM-move matching or a mentor) and `tuner search-evolve`
//! (node counts on a suite) are its problems. A new optimiser or fitness plugs in the same way:
//! implement [`Problem`] for the fitness and call [`Driver::run`] with the GA settings.

use std::{collections::HashMap, path::PathBuf, time::Instant};

use rand::rngs::StdRng;

use super::{
    GaConfig, Genome, breed,
    checkpoint::{Checkpoint, CheckpointError},
    encoding::Layout,
    generation_rng,
    operators::elite_indices,
    report::GenerationStats,
};

/// What a command evaluates; `E` is its error type.
pub trait Problem {
    /// One organism's evaluation (a count, an error, a node total ...).
    type Score: Clone;
    type Error: From<CheckpointError> + From<super::GaError>;

    /// Scores of `pop` in order; `known` holds the scores of genomes seen in the previous
    /// generation (elites, unrecombined copies), to reuse rather than recompute.
    fn evaluate(
        &self,
        generation: usize,
        pop: &[Genome],
        known: &HashMap<Vec<u64>, Self::Score>,
        history: &[GenerationStats],
    ) -> Result<Vec<Self::Score>, Self::Error>;
    /// What selection maximises.
    fn fitness(&self, score: &Self::Score) -> f64;
    /// The readable measure recorded per generation.
    fn metric(&self, score: &Self::Score) -> f64;
    /// A score rebuilt from a checkpoint's fitness and metric, and whether it is complete enough
    /// to stand for a recomputed one.
    fn restore(&self, fitness: f64, metric: f64) -> (Self::Score, bool);
    /// The test-set (held-out) measure of a generation's best organism.
    fn test(&self, best: &Genome) -> f64;
    /// Called once per evaluated generation, after its statistics are recorded and before its
    /// checkpoint, e.g. to log it or keep the first generation's best.
    fn evaluated(
        &self,
        pop: &[Genome],
        scores: &[Self::Score],
        best: usize,
        stats: &GenerationStats,
    ) -> Result<(), Self::Error>;
    /// Rewrites the run's reports (CSV, chart) from the history.
    fn report(&self, history: &[GenerationStats]) -> Result<(), Self::Error>;
}

/// One run's fixed inputs.
pub struct Driver<'a> {
    pub ga: &'a GaConfig,
    pub layout: &'a Layout,
    pub seed: u64,
    pub run: usize,
    /// Identifies every input that determines the result; stored in the checkpoint.
    pub fingerprint: &'a str,
    pub checkpoint: PathBuf,
    /// What to say when a checkpoint's fingerprint differs ("a different config, ...").
    pub mismatch: &'a str,
}

/// The end of a run: its last population, their scores and the per-generation history.
pub struct Finished<S> {
    pub population: Vec<Genome>,
    pub scores: Vec<S>,
    pub history: Vec<GenerationStats>,
}

impl<S> Finished<S> {
    /// Index of the fittest organism of the last generation (lowest index on ties).
    pub fn best(&self, fitness: impl Fn(&S) -> f64) -> usize {
        best_index(&self.scores.iter().map(fitness).collect::<Vec<_>>())
    }
}

/// Index of the fittest organism (lowest index on ties, so elites stay first).
pub fn best_index(fitness: &[f64]) -> usize {
    elite_indices(fitness, 1)[0]
}

impl Driver<'_> {
    /// Runs the generations, continuing from the checkpoint when `resume` and one exists;
    /// `initial` draws generation 0 from its RNG otherwise.
    pub fn run<P: Problem>(
        &self,
        problem: &P,
        resume: bool,
        initial: impl FnOnce(&mut StdRng) -> Vec<Genome>,
    ) -> Result<Finished<P::Score>, P::Error> {
        let path = &self.checkpoint;
        let bad = |reason: String| CheckpointError { path: path.display().to_string(), reason };
        let (mut pop, mut generation, mut history, mut restored) = match Checkpoint::load(path)? {
            Some(c) if resume => {
                if c.fingerprint != self.fingerprint {
                    return Err(bad(format!(
                        "it was written with {} (fingerprint {}, this run's {}); resume with the same ones",
                        self.mismatch, c.fingerprint, self.fingerprint
                    ))
                    .into());
                }
                if c.run != self.run || c.population.len() != c.fitness.len() || c.population.len() != c.metric.len() {
                    return Err(bad(format!("inconsistent checkpoint (run {}, expected {})", c.run, self.run)).into());
                }
                if let Some(i) = c.population.iter().position(|g| !g.fits(self.layout)) {
                    return Err(bad(format!("genome {i} does not fit the search space")).into());
                }
                log::info!("{}resuming after generation {}", self.prefix(), c.generation);
                let scores: Vec<(P::Score, bool)> =
                    c.fitness.iter().zip(&c.metric).map(|(&f, &m)| problem.restore(f, m)).collect();
                (c.population, c.generation, c.history, Some(scores))
            }
            _ => {
                let mut rng = generation_rng(self.seed, self.run as u64, 0);
                (initial(&mut rng), 0, Vec::new(), None)
            }
        };
        let mut known: HashMap<Vec<u64>, P::Score> = HashMap::new();
        let mut test_known: HashMap<Vec<u64>, f64> = HashMap::new();
        loop {
            let scores: Vec<P::Score> = match restored.take() {
                Some(s) => {
                    known = pop.iter().zip(&s).filter(|(_, s)| s.1).map(|(g, s)| (g.key(), s.0.clone())).collect();
                    s.into_iter().map(|s| s.0).collect()
                }
                None => {
                    let started = Instant::now();
                    let s = problem.evaluate(generation, &pop, &known, &history)?;
                    let fitness: Vec<f64> = s.iter().map(|x| problem.fitness(x)).collect();
                    let metric: Vec<f64> = s.iter().map(|x| problem.metric(x)).collect();
                    let best = best_index(&fitness);
                    let key = pop[best].key();
                    let test = match test_known.get(&key) {
                        Some(&t) => t,
                        None => problem.test(&pop[best]),
                    };
                    test_known = HashMap::from([(key, test)]);
                    let n = s.len() as f64;
                    let stats = GenerationStats {
                        generation,
                        best_metric: metric[best],
                        mean_metric: metric.iter().sum::<f64>() / n,
                        test_metric: test,
                        best_fitness: fitness[best],
                        mean_fitness: fitness.iter().sum::<f64>() / n,
                        seconds: started.elapsed().as_secs_f64(),
                    };
                    problem.evaluated(&pop, &s, best, &stats)?;
                    history.push(stats);
                    Checkpoint {
                        fingerprint: self.fingerprint.to_string(),
                        run: self.run,
                        generation,
                        population: pop.clone(),
                        fitness,
                        metric,
                        history: history.clone(),
                    }
                    .save(path)?;
                    problem.report(&history)?;
                    known = pop.iter().map(Genome::key).zip(s.iter().cloned()).collect();
                    s
                }
            };
            if generation + 1 >= self.ga.generations {
                // Reports are rewritten so a run finished before a crash still has them.
                problem.report(&history)?;
                return Ok(Finished { population: pop, scores, history });
            }
            let fitness: Vec<f64> = scores.iter().map(|x| problem.fitness(x)).collect();
            let mut rng = generation_rng(self.seed, self.run as u64, generation as u64 + 1);
            pop = breed(&pop, &fitness, self.ga, self.layout, &mut rng)?;
            generation += 1;
        }
    }

    fn prefix(&self) -> String {
        if self.run == 0 { String::new() } else { format!("run {}: ", self.run) }
    }
}
