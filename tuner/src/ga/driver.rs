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

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::ga::{
        encoding::{BinaryGene, BitCoding},
        random_genome,
    };

    /// OneMax: fitness = the number of set bits; counts its evaluations.
    struct OneMax {
        evaluated: Cell<usize>,
    }

    impl Problem for OneMax {
        type Score = f64;
        type Error = CheckpointErrorOrGa;

        fn evaluate(
            &self,
            _: usize,
            pop: &[Genome],
            known: &HashMap<Vec<u64>, f64>,
            _: &[GenerationStats],
        ) -> Result<Vec<f64>, Self::Error> {
            Ok(pop
                .iter()
                .map(|g| {
                    known.get(&g.key()).copied().unwrap_or_else(|| {
                        self.evaluated.set(self.evaluated.get() + 1);
                        match g {
                            Genome::Bits(b) => b.iter().filter(|&&x| x).count() as f64,
                            Genome::Numbers(_) => 0.0,
                        }
                    })
                })
                .collect())
        }
        fn fitness(&self, s: &f64) -> f64 {
            *s
        }
        fn metric(&self, s: &f64) -> f64 {
            *s
        }
        fn restore(&self, fitness: f64, _: f64) -> (f64, bool) {
            (fitness, true)
        }
        fn test(&self, _: &Genome) -> f64 {
            0.0
        }
        fn evaluated(&self, _: &[Genome], _: &[f64], _: usize, _: &GenerationStats) -> Result<(), Self::Error> {
            Ok(())
        }
        fn report(&self, _: &[GenerationStats]) -> Result<(), Self::Error> {
            Ok(())
        }
    }

    #[derive(Debug)]
    struct CheckpointErrorOrGa(String);
    impl From<CheckpointError> for CheckpointErrorOrGa {
        fn from(e: CheckpointError) -> Self {
            CheckpointErrorOrGa(e.to_string())
        }
    }
    impl From<crate::ga::GaError> for CheckpointErrorOrGa {
        fn from(e: crate::ga::GaError) -> Self {
            CheckpointErrorOrGa(e.to_string())
        }
    }

    /// A OneMax run into `dir` and the organisms it scored (not counting reused scores).
    fn one_max(
        dir: &std::path::Path,
        generations: usize,
        resume: bool,
        fingerprint: &str,
    ) -> (Result<Finished<f64>, CheckpointErrorOrGa>, usize) {
        let layout =
            Layout::Bits { coding: BitCoding::Binary, genes: vec![BinaryGene { min: 0, max: 255, bits: 8 }; 4] };
        let ga = GaConfig { population: 12, generations, mutation_rate: 0.02, ..GaConfig::default() };
        let driver = Driver {
            ga: &ga,
            layout: &layout,
            seed: 5,
            run: 1,
            fingerprint,
            checkpoint: dir.join("checkpoint.json"),
            mismatch: "other inputs",
        };
        let problem = OneMax { evaluated: Cell::new(0) };
        let result =
            driver.run(&problem, resume, |rng| (0..ga.population).map(|_| random_genome(&layout, rng)).collect());
        (result, problem.evaluated.get())
    }

    #[test]
    fn a_run_stopped_and_resumed_ends_as_an_uninterrupted_one() {
        let root = std::env::temp_dir().join(format!("evochess-driver-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::create_dir_all(root.join("b")).unwrap();
        let (whole, scored) = one_max(&root.join("a"), 12, false, "x");
        let whole = whole.unwrap();
        assert_eq!(whole.history.len(), 12);
        // The elite (and unrecombined copies) are not scored again.
        assert!(scored <= 12 + 11 * 11, "{scored} organisms scored");
        // Elitism: the best never gets worse.
        assert!(whole.history.windows(2).all(|w| w[1].best_fitness >= w[0].best_fitness));
        // Stopped after 5 generations (the checkpoint is all that survives), then continued to 12.
        one_max(&root.join("b"), 5, false, "x").0.unwrap();
        let resumed = one_max(&root.join("b"), 12, true, "x").0.unwrap();
        assert_eq!(resumed.population, whole.population);
        assert_eq!(resumed.scores, whole.scores);
        let strip = |h: &[GenerationStats]| h.iter().map(|s| (s.best_fitness, s.mean_fitness)).collect::<Vec<_>>();
        assert_eq!(strip(&resumed.history), strip(&whole.history));
        // Other inputs are refused by their fingerprint.
        let e = one_max(&root.join("b"), 13, true, "y").0.err().unwrap();
        assert!(e.0.contains("other inputs") && e.0.contains("fingerprint"), "{}", e.0);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
