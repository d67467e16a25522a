//! Commands whose organisms are [`Genome`]s: a [`Problem`] (the fitness) run by
//! [`Driver::evolve`] with the optimiser `[optimiser] kind` names, or by [`Driver::optimise`] with
//! any [`Optimiser`], in one ask → evaluate → tell loop. The scores of unchanged genomes are
//! memoised, the test-set measure of each generation's best is taken, and the optimiser's state
//! is checkpointed beside the generation ([`Told`]).

use std::{cell::RefCell, collections::HashMap, time::Instant};

use rand::rngs::StdRng;
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::{Driver, Finished, Saves};
use crate::{
    ga::{checkpoint::CheckpointError, report::GenerationStats},
    genome::{Genome, encoding::Layout, operators::elite_indices},
    optimise::{
        AfterTell, Label, OptimiseError, Optimiser, choice::OptimiserConfig, cmaes::CmaEs, config::GaConfig, ga::Ga,
        generation_rng, local::LocalSearch, spsa::Spsa,
    },
};

/// The "generation" of [`generation_rng`] whose RNG draws a one-point optimiser's start: one no
/// run reaches.
const START_STREAM: u64 = u64::MAX;

impl Driver<'_> {
    /// Runs a [`Problem`] over `layout` with `optimiser`: the GA's operators of `ga`, CMA-ES
    /// (`kind = "cmaes"`), SPSA (`"spsa"`) or the local search (`"local"`). `initial`
    /// draws generation 0; CMA-ES starts at its mean point, SPSA and the local search at its
    /// first genome (an `[init]` file's own, or the first random one), drawn from an RNG of its
    /// own.
    pub fn evolve<P: Problem>(
        &self,
        ga: &GaConfig,
        optimiser: &OptimiserConfig,
        layout: &Layout,
        problem: &P,
        resume: bool,
        initial: impl Fn(&mut StdRng) -> Vec<Genome>,
    ) -> Result<Finished<Population, P::Record>, P::Error> {
        match *optimiser {
            OptimiserConfig::Ga {} => {
                self.optimise(Ga::new(ga.clone(), layout.clone(), initial), layout, problem, resume)
            }
            OptimiserConfig::Cmaes { sigma } => {
                let cma = CmaEs::new(layout.clone(), sigma, ga.population, initial);
                self.optimise(cma, layout, problem, resume)
            }
            OptimiserConfig::Spsa(settings) => {
                let spsa = Spsa::new(layout.clone(), &self.start(initial)?, settings)?;
                self.optimise(spsa, layout, problem, resume)
            }
            OptimiserConfig::Local { step } => {
                let local = LocalSearch::new(layout.clone(), &self.start(initial)?, step);
                self.optimise(local, layout, problem, resume)
            }
        }
    }

    /// The start point of a one-point optimiser: the first genome `initial` draws, from an RNG
    /// of its own (not generation 0's, which the optimiser's first ask draws from), so the same
    /// on every resume.
    fn start(&self, initial: impl Fn(&mut StdRng) -> Vec<Genome>) -> Result<Genome, OptimiseError> {
        let mut rng = generation_rng(self.seed, self.run as u64, START_STREAM);
        initial(&mut rng).into_iter().next().ok_or_else(|| OptimiseError::Unsuited {
            optimiser: "driver",
            reason: "the initial draw holds no genome to start from".into(),
        })
    }

    /// Runs a [`Problem`] over `layout` with any [`Optimiser`]: generation `g` is the
    /// optimiser's ask from [`generation_rng`]`(seed, run, g)`, evaluated, then told its fitness;
    /// the checkpoint holds the generation with the optimiser's state of that ask ([`Told`]), so a
    /// resume restores it, tells it the checkpoint's fitness again and asks as an uninterrupted
    /// run would.
    pub fn optimise<P: Problem, O: Optimiser>(
        &self,
        mut optimiser: O,
        layout: &Layout,
        problem: &P,
        resume: bool,
    ) -> Result<Finished<Population, P::Record>, P::Error> {
        let scoring = Scoring::new(problem, layout);
        let check = |s: &Told<O::State>| {
            optimiser.check(&s.optimiser, &s.evaluated.population)?;
            scoring.check(&s.evaluated)
        };
        // Whether this call saved (and so reported) a generation.
        let mut saved = true;
        let (mut evaluated, mut generation, mut history) = match self.resumed(resume, check)? {
            Some(c) => {
                saved = false;
                let Told { evaluated, optimiser: asked } = c.state;
                scoring.restore(&evaluated);
                optimiser.restore(asked);
                optimiser.tell(&evaluated.population, &evaluated.fitness)?;
                (evaluated, c.generation, c.history)
            }
            None => {
                let (told, record) = self.generation(0, &mut optimiser, &scoring, &[], resume)?;
                let history = vec![record];
                self.checkpoint(&told, 0, &history)?;
                problem.report(&history)?;
                (told.evaluated, 0, history)
            }
        };
        let mut saves = Saves::new();
        while generation + 1 < self.generations {
            generation += 1;
            let (told, record) = self.generation(generation, &mut optimiser, &scoring, &history, resume)?;
            history.push(record);
            if saves.due(self, generation) {
                saves.timed(|| {
                    self.checkpoint(&told, generation, &history)?;
                    problem.report(&history)
                })?;
                saved = true;
            }
            evaluated = told.evaluated;
        }
        self.tick(generation + 1);
        if !saved {
            // A run resumed with nothing left to do: its reports are rewritten, so one finished
            // before a crash (or by an older build) has them.
            problem.report(&history)?;
        }
        Ok(Finished { state: evaluated, history })
    }

    /// Generation `g`: asked, evaluated and told; with the optimiser's state of the ask.
    fn generation<P: Problem, O: Optimiser>(
        &self,
        g: usize,
        optimiser: &mut O,
        scoring: &Scoring<'_, P>,
        history: &[P::Record],
        resume: bool,
    ) -> Result<Generation<O::State, P::Record>, P::Error> {
        let candidates = optimiser.ask(&mut generation_rng(self.seed, self.run as u64, g as u64))?;
        let (asked, labels) = (optimiser.state(), optimiser.labels());
        self.tick(g);
        let scored = scoring.score(g, (candidates, &labels), history, resume)?;
        optimiser.tell(&scored.evaluated.population, &scored.evaluated.fitness)?;
        let (evaluated, record) = scoring.record(scored, &AfterTell::of(optimiser))?;
        Ok((Told { evaluated, optimiser: asked }, record))
    }
}

/// What a command evaluates when its organisms are [`Genome`]s bred by [`breed`](crate::optimise::ga::breed).
pub trait Problem {
    /// One organism's evaluation (a count, an error, a node total ...).
    type Score: Clone;
    /// One generation in the history: [`GenerationStats`], or a command's richer record.
    type Record: Clone + Serialize + DeserializeOwned;
    type Error: From<CheckpointError> + From<OptimiseError>;

    /// Scores of the batch's population, in order.
    fn evaluate(&self, batch: Batch<'_, Self::Score, Self::Record>) -> Result<Vec<Self::Score>, Self::Error>;
    /// What selection maximises.
    fn fitness(&self, score: &Self::Score) -> f64;
    /// The readable measure recorded per generation.
    fn metric(&self, score: &Self::Score) -> f64;
    /// A score rebuilt from a checkpoint's fitness and metric, and whether it is complete enough
    /// to stand for a recomputed one.
    fn restore(&self, fitness: f64, metric: f64) -> (Self::Score, bool);
    /// The test-set (held-out) measure of a generation's best organism.
    fn test(&self, best: &Genome) -> f64;
    /// The history's record of an evaluated generation from its statistics, e.g. after logging
    /// it or keeping the first generation's best. `told` is what the optimiser says of itself
    /// once told this generation's fitness ([`AfterTell`]: SPSA's θ after its update, the ES's
    /// mean and steps).
    fn record(
        &self,
        pop: &[Genome],
        scores: &[Self::Score],
        best: usize,
        stats: GenerationStats,
        told: &AfterTell,
    ) -> Result<Self::Record, Self::Error>;
    /// Rewrites the run's reports (CSV, chart) from the history.
    fn report(&self, history: &[Self::Record]) -> Result<(), Self::Error>;
}

/// What [`Problem::evaluate`] scores.
pub struct Batch<'a, S, R> {
    pub generation: usize,
    pub population: &'a [Genome],
    /// Who each genome is, when the optimiser keeps individuals ([`Optimiser::labels`]); else
    /// empty.
    pub labels: &'a [Label],
    /// Scores of the genomes seen in the previous generation (elites, unrecombined copies), to
    /// reuse rather than recompute.
    pub known: &'a HashMap<Vec<u64>, S>,
    /// The records of the generations before.
    pub history: &'a [R],
    /// Continue what a killed run left of this generation (game journals).
    pub resume: bool,
}

/// An evaluated generation of genomes: the checkpoint's state for a [`Problem`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Population {
    pub population: Vec<Genome>,
    pub fitness: Vec<f64>,
    /// Absent from checkpoints of older coevolutions, whose metric was their fitness.
    #[serde(default)]
    pub metric: Vec<f64>,
}

impl Population {
    /// Index of the fittest organism (lowest index on ties).
    pub fn best(&self) -> usize {
        best_index(&self.fitness)
    }
}

/// Index of the fittest organism (lowest index on ties, so elites stay first).
pub fn best_index(fitness: &[f64]) -> usize {
    elite_indices(fitness, 1)[0]
}

/// A generation as checkpointed (with the optimiser's state of its ask), and its record.
type Generation<S, R> = (Told<S>, R);

/// An evaluated generation before its record.
struct Scored<S> {
    evaluated: Population,
    scores: Vec<S>,
    best: usize,
    stats: GenerationStats,
}

/// What both genome optimisers share: scoring a generation through the [`Problem`], with the
/// scores of unchanged genomes reused and the test measure of a best that stays not repeated.
struct Scoring<'a, P: Problem> {
    problem: &'a P,
    layout: &'a Layout,
    /// Scores of the last evaluated generation, by genome.
    known: RefCell<HashMap<Vec<u64>, P::Score>>,
    /// Test measure of the last generation's best.
    test_known: RefCell<HashMap<Vec<u64>, f64>>,
}

impl<'a, P: Problem> Scoring<'a, P> {
    fn new(problem: &'a P, layout: &'a Layout) -> Self {
        Scoring { problem, layout, known: RefCell::default(), test_known: RefCell::default() }
    }

    /// Scores `pop`, whose candidates the optimiser named `labels` (none when it names none).
    fn score(
        &self,
        generation: usize,
        (pop, labels): (Vec<Genome>, &[Label]),
        history: &[P::Record],
        resume: bool,
    ) -> Result<Scored<P::Score>, P::Error> {
        let p = self.problem;
        let started = Instant::now();
        let known = self.known.borrow();
        let batch = Batch { generation, population: &pop, labels, known: &known, history, resume };
        let scores = p.evaluate(batch)?;
        drop(known);
        let fitness: Vec<f64> = scores.iter().map(|x| p.fitness(x)).collect();
        let metric: Vec<f64> = scores.iter().map(|x| p.metric(x)).collect();
        let best = best_index(&fitness);
        let key = pop[best].key();
        let known_test = self.test_known.borrow().get(&key).copied();
        let test = known_test.unwrap_or_else(|| p.test(&pop[best]));
        *self.test_known.borrow_mut() = HashMap::from([(key, test)]);
        let n = scores.len() as f64;
        let stats = GenerationStats {
            generation,
            best_metric: metric[best],
            mean_metric: metric.iter().sum::<f64>() / n,
            test_metric: test,
            best_fitness: fitness[best],
            mean_fitness: fitness.iter().sum::<f64>() / n,
            seconds: started.elapsed().as_secs_f64(),
        };
        Ok(Scored { evaluated: Population { population: pop, fitness, metric }, scores, best, stats })
    }

    /// The generation's record (with what the told optimiser says of itself); its scores are
    /// kept for the next generation.
    fn record(&self, scored: Scored<P::Score>, told: &AfterTell) -> Result<(Population, P::Record), P::Error> {
        let Scored { evaluated, scores, best, stats } = scored;
        let record = self.problem.record(&evaluated.population, &scores, best, stats, told)?;
        *self.known.borrow_mut() = evaluated.population.iter().map(Genome::key).zip(scores).collect();
        Ok((evaluated, record))
    }

    /// After a resume, the checkpoint's scores where they are complete.
    fn restore(&self, state: &Population) {
        if !self.known.borrow().is_empty() {
            return;
        }
        *self.known.borrow_mut() = state
            .population
            .iter()
            .zip(state.fitness.iter().zip(&state.metric))
            .filter_map(|(g, (&f, &m))| {
                let (score, complete) = self.problem.restore(f, m);
                complete.then(|| (g.key(), score))
            })
            .collect();
    }

    fn check(&self, state: &Population) -> Result<(), String> {
        let n = state.population.len();
        if state.fitness.len() != n || !(state.metric.is_empty() || state.metric.len() == n) {
            return Err(format!("inconsistent checkpoint ({n} genomes, {} scores)", state.fitness.len()));
        }
        match state.population.iter().position(|g| !g.fits(self.layout)) {
            Some(i) => Err(format!("genome {i} does not fit the search space")),
            None => Ok(()),
        }
    }
}

/// An evaluated generation with the optimiser's state of the ask that proposed it: the
/// checkpoint's state of [`Driver::evolve`]. Both are flattened, so a GA checkpoint is still a
/// [`Population`] alone and a CMA-ES one the population with `points` and `cma`, as they were
/// before the optimisers were one trait; SPSA adds `tune` and `perturbation`, the local search
/// `incumbent`, `step`, `coordinate`, `moved` and `asked`. (So an optimiser's state must not
/// name a field as the checkpoint or [`Population`] do, `fitness` say.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Told<S> {
    #[serde(flatten)]
    pub evaluated: Population,
    #[serde(flatten)]
    pub optimiser: S,
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::{
        ga::checkpoint::Checkpoint,
        genome::{
            encoding::{BinaryGene, BitCoding},
            random_genome,
        },
        optimise::spsa::SpsaSettings,
    };

    /// A fitness given as a function of the genome; counts its evaluations and its reports, and
    /// fails (as a kill would) when asked to score generation `fail_at`.
    struct ByFunction<F> {
        f: F,
        evaluated: Cell<usize>,
        reports: Cell<usize>,
        fail_at: Option<usize>,
    }

    impl<F> ByFunction<F> {
        fn new(f: F) -> Self {
            ByFunction { f, evaluated: Cell::new(0), reports: Cell::new(0), fail_at: None }
        }
    }

    impl<F: Fn(&Genome) -> f64> Problem for ByFunction<F> {
        type Score = f64;
        type Record = GenerationStats;
        type Error = CheckpointErrorOrGa;

        fn evaluate(&self, batch: Batch<'_, f64, GenerationStats>) -> Result<Vec<f64>, Self::Error> {
            if Some(batch.generation) == self.fail_at {
                return Err(CheckpointErrorOrGa("killed".into()));
            }
            let known = batch.known;
            Ok(batch
                .population
                .iter()
                .map(|g| {
                    known.get(&g.key()).copied().unwrap_or_else(|| {
                        self.evaluated.set(self.evaluated.get() + 1);
                        (self.f)(g)
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
        fn record(
            &self,
            _: &[Genome],
            _: &[f64],
            _: usize,
            s: GenerationStats,
            _: &AfterTell,
        ) -> Result<GenerationStats, Self::Error> {
            Ok(s)
        }
        fn report(&self, _: &[GenerationStats]) -> Result<(), Self::Error> {
            self.reports.set(self.reports.get() + 1);
            Ok(())
        }
    }

    /// OneMax: fitness = the number of set bits.
    fn ones(g: &Genome) -> f64 {
        match g {
            Genome::Bits(b) => b.iter().filter(|&&x| x).count() as f64,
            Genome::Numbers(_) => 0.0,
        }
    }

    #[derive(Debug)]
    struct CheckpointErrorOrGa(String);
    impl From<CheckpointError> for CheckpointErrorOrGa {
        fn from(e: CheckpointError) -> Self {
            CheckpointErrorOrGa(e.to_string())
        }
    }
    impl From<OptimiseError> for CheckpointErrorOrGa {
        fn from(e: OptimiseError) -> Self {
            CheckpointErrorOrGa(e.to_string())
        }
    }

    /// A OneMax run into `dir` and the organisms it scored (not counting reused scores).
    fn one_max(
        dir: &std::path::Path,
        generations: usize,
        resume: bool,
        fingerprint: &str,
        legacy: Option<&str>,
    ) -> (Result<Finished<Population, GenerationStats>, CheckpointErrorOrGa>, usize) {
        let layout =
            Layout::Bits { coding: BitCoding::Binary, genes: vec![BinaryGene { min: 0, max: 255, bits: 8 }; 4] };
        let ga = GaConfig { population: 12, generations, mutation_rate: 0.02, ..GaConfig::default() };
        let driver = Driver {
            generations,
            seed: 5,
            run: 1,
            fingerprint,
            legacy,
            checkpoint: dir.join("checkpoint.json"),
            mismatch: "other inputs",
            throttle: false,
            progress: None,
        };
        let problem = ByFunction::new(ones);
        let result = driver.evolve(&ga, &OptimiserConfig::default(), &layout, &problem, resume, |rng| {
            (0..ga.population).map(|_| random_genome(&layout, rng)).collect()
        });
        (result, problem.evaluated.get())
    }

    #[test]
    fn a_run_stopped_and_resumed_ends_as_an_uninterrupted_one() {
        let root = std::env::temp_dir().join(format!("evochess-driver-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::create_dir_all(root.join("b")).unwrap();
        let (whole, scored) = one_max(&root.join("a"), 12, false, "x", None);
        let whole = whole.unwrap();
        assert_eq!(whole.history.len(), 12);
        // The elite (and unrecombined copies) are not scored again.
        assert!(scored <= 12 + 11 * 11, "{scored} organisms scored");
        // Elitism: the best never gets worse.
        assert!(whole.history.windows(2).all(|w| w[1].best_fitness >= w[0].best_fitness));
        // Stopped after 5 generations (the checkpoint is all that survives), then continued to 12.
        one_max(&root.join("b"), 5, false, "x", None).0.unwrap();
        let resumed = one_max(&root.join("b"), 12, true, "x", None).0.unwrap();
        assert_eq!(resumed.state, whole.state);
        let strip = |h: &[GenerationStats]| h.iter().map(|s| (s.best_fitness, s.mean_fitness)).collect::<Vec<_>>();
        assert_eq!(strip(&resumed.history), strip(&whole.history));
        // Other inputs are refused by their fingerprint.
        let e = one_max(&root.join("b"), 13, true, "y", None).0.err().unwrap();
        assert!(e.0.contains("other inputs") && e.0.contains("fingerprint"), "{}", e.0);
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// A throttled OneMax run of `generations` into `dir` that fails in generation `fail_at`
    /// (a kill): the end, and how many times it saved.
    fn throttled_one_max(
        dir: &std::path::Path,
        generations: usize,
        fail_at: Option<usize>,
    ) -> (Result<Finished<Population, GenerationStats>, CheckpointErrorOrGa>, usize) {
        let layout =
            Layout::Bits { coding: BitCoding::Binary, genes: vec![BinaryGene { min: 0, max: 255, bits: 8 }; 4] };
        let ga = GaConfig { population: 12, generations, mutation_rate: 0.02, ..GaConfig::default() };
        let driver = Driver::single(generations, 5, "t", dir.join("checkpoint.json"), "other inputs").throttled();
        let problem = ByFunction { fail_at, ..ByFunction::new(ones) };
        let resume = dir.join("checkpoint.json").exists();
        let result = driver.evolve(&ga, &OptimiserConfig::default(), &layout, &problem, resume, |rng| {
            (0..ga.population).map(|_| random_genome(&layout, rng)).collect()
        });
        (result, problem.reports.get())
    }

    #[test]
    fn a_throttled_run_saves_less_often_and_resumes_to_the_same_end() {
        let root = std::env::temp_dir().join(format!("evochess-driver-throttle-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for d in ["a", "b"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        let (whole, saves) = throttled_one_max(&root.join("a"), 3000, None);
        let whole = whole.unwrap();
        // Generations of microseconds against saves of a growing history: most go unsaved, the
        // last never.
        assert!(saves < 1500, "{saves} saves in 3000 generations");
        let saved = Checkpoint::<Population, GenerationStats>::load(&root.join("a/checkpoint.json")).unwrap().unwrap();
        assert_eq!((saved.generation, saved.history.len()), (2999, 3000));
        // Killed in generation 2500: the checkpoint is some generation before it, and the resumed
        // run recomputes the rest to the uninterrupted run's end.
        assert!(throttled_one_max(&root.join("b"), 3000, Some(2500)).0.is_err());
        let kept = Checkpoint::<Population, GenerationStats>::load(&root.join("b/checkpoint.json")).unwrap().unwrap();
        assert!(kept.generation < 2500, "{}", kept.generation);
        let resumed = throttled_one_max(&root.join("b"), 3000, None).0.unwrap();
        assert_eq!(resumed.state, whole.state);
        let strip = |h: &[GenerationStats]| h.iter().map(|s| (s.best_fitness, s.mean_fitness)).collect::<Vec<_>>();
        assert_eq!(strip(&resumed.history), strip(&whole.history));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_checkpoint_under_the_legacy_fingerprint_resumes_and_is_rewritten() {
        let dir = std::env::temp_dir().join(format!("evochess-driver-legacy-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let stored = || {
            Checkpoint::<Population, GenerationStats>::load(&dir.join("checkpoint.json")).unwrap().unwrap().fingerprint
        };
        // Written by an older build, whose fingerprint is now the legacy form.
        one_max(&dir, 4, false, "old", None).0.unwrap();
        // A fingerprint that is neither is refused and leaves the checkpoint alone.
        assert!(one_max(&dir, 6, true, "new", Some("older")).0.is_err());
        assert_eq!(stored(), "old");
        // The legacy form resumes; the checkpoint is rewritten at once under the current form,
        // which then resumes without the legacy one.
        let resumed = one_max(&dir, 6, true, "new", Some("old")).0.unwrap();
        assert_eq!(stored(), "new");
        let again = one_max(&dir, 6, true, "new", None).0.unwrap();
        assert_eq!(again.state, resumed.state);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// −Σ(x − 3)², for numeric genes in [−10, 10].
    fn sphere(g: &Genome) -> f64 {
        match g {
            Genome::Numbers(x) => -x.iter().map(|v| (v - 3.0).powi(2)).sum::<f64>(),
            Genome::Bits(_) => f64::NEG_INFINITY,
        }
    }

    /// A run of `optimiser` (with `ga`) on the sphere in five real genes.
    fn sphere_run(
        ga: &GaConfig,
        optimiser: &OptimiserConfig,
        dir: &std::path::Path,
        generations: usize,
        resume: bool,
    ) -> Finished<Population, GenerationStats> {
        use crate::genome::encoding::NumericGene;
        let layout = Layout::Numeric(vec![NumericGene { min: -10.0, max: 10.0, step: None }; 5]);
        let ga = GaConfig { generations, ..ga.clone() };
        let driver = Driver::single(generations, 7, "sphere", dir.join("checkpoint.json"), "other inputs");
        driver
            .evolve(&ga, optimiser, &layout, &ByFunction::new(sphere), resume, |rng| {
                (0..10).map(|_| random_genome(&layout, rng)).collect()
            })
            .unwrap()
    }

    /// `optimiser` (with `ga`) run for `generations` into one directory, and into another
    /// stopped after `stop` and resumed to `generations`: the two ends, which the caller compares.
    fn direct_and_resumed(
        name: &str,
        ga: &GaConfig,
        optimiser: &OptimiserConfig,
        stop: usize,
        generations: usize,
    ) -> (Finished<Population, GenerationStats>, Finished<Population, GenerationStats>) {
        let root = std::env::temp_dir().join(format!("evochess-driver-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::create_dir_all(root.join("b")).unwrap();
        let whole = sphere_run(ga, optimiser, &root.join("a"), generations, false);
        sphere_run(ga, optimiser, &root.join("b"), stop, false);
        let resumed = sphere_run(ga, optimiser, &root.join("b"), generations, true);
        std::fs::remove_dir_all(&root).unwrap();
        (whole, resumed)
    }

    /// The fitness of a run's last generation's best.
    fn best_fitness(f: &Finished<Population, GenerationStats>) -> f64 {
        f.state.fitness[f.state.best()]
    }

    #[test]
    fn cmaes_through_the_driver_converges_and_resumes_exactly() {
        let ga = GaConfig { population: 10, ..GaConfig::default() };
        let cmaes = OptimiserConfig::Cmaes { sigma: crate::optimise::choice::DEFAULT_CMAES_SIGMA };
        // Stopped after 40 generations, continued to 120: the same last generation.
        let (whole, resumed) = direct_and_resumed("cmaes", &ga, &cmaes, 40, 120);
        assert!(best_fitness(&whole) > -1e-6, "f = {}", best_fitness(&whole));
        assert_eq!(resumed.state, whole.state);
    }

    #[test]
    fn spsa_through_the_driver_converges_and_resumes_exactly() {
        // The sphere's f₊ − f₋ is 4·c·Σ(3 − xⱼ)Δⱼ, so θ moves by k·(3 − θ) on average, k = 4·R·c²,
        // and the squared distance shrinks by 1 − 2k + 5k² (five genes): R = 0.1 with c_end a
        // fiftieth of the range (0.4) gives k from 0.27 at the start to 0.064 at the end.
        let spsa = SpsaSettings { iterations: 300, c_end: 0.02, r_end: 0.1 };
        let (whole, resumed) = direct_and_resumed("spsa", &GaConfig::default(), &OptimiserConfig::Spsa(spsa), 100, 300);
        // One iteration a generation: the pair θ ± c·Δ.
        assert_eq!(whole.state.population.len(), 2);
        assert_eq!(whole.history.len(), 300);
        // From about −210 (a random start) to the optimum.
        assert!(whole.history[0].best_fitness < -10.0, "{:?}", whole.history[0]);
        // The pair lies c_end = 0.4 either side of θ in every gene: −5·0.4² = −0.8 at θ = 3.
        assert!(best_fitness(&whole) > -0.8 - 1e-6, "f = {}", best_fitness(&whole));
        assert_eq!(resumed.state, whole.state);
        let strip = |h: &[GenerationStats]| h.iter().map(|s| (s.best_fitness, s.mean_fitness)).collect::<Vec<_>>();
        assert_eq!(strip(&resumed.history), strip(&whole.history));
    }

    #[test]
    fn local_search_through_the_driver_converges_and_resumes_exactly() {
        let local = OptimiserConfig::Local { step: 0.25 };
        let (whole, resumed) = direct_and_resumed("local", &GaConfig::default(), &local, 37, 150);
        // The incumbent and one coordinate up and down.
        assert_eq!(whole.state.population.len(), 3);
        // The incumbent is asked every generation, so the best never gets worse.
        assert!(whole.history.windows(2).all(|w| w[1].best_fitness >= w[0].best_fitness));
        assert!(best_fitness(&whole) > -1e-3, "f = {}", best_fitness(&whole));
        assert_eq!(resumed.state, whole.state);
    }

    #[test]
    fn a_one_point_optimiser_starts_from_the_first_genome_drawn() {
        use crate::genome::encoding::NumericGene;
        let dir = std::env::temp_dir().join(format!("evochess-driver-start-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let layout = Layout::Numeric(vec![NumericGene { min: -10.0, max: 10.0, step: None }; 2]);
        let ga = GaConfig { generations: 1, ..GaConfig::default() };
        let local = OptimiserConfig::Local { step: crate::optimise::choice::DEFAULT_LOCAL_STEP };
        let driver = Driver::single(1, 7, "start", dir.join("checkpoint.json"), "other inputs");
        let start = Genome::Numbers(vec![5.0, -5.0]);
        let problem = ByFunction::new(sphere);
        let f = driver
            .evolve(&ga, &local, &layout, &problem, false, |_| vec![start.clone(), Genome::Numbers(vec![0.0; 2])]);
        assert_eq!(f.unwrap().state.population[0], start);
        // A draw of nothing is an error, not a panic.
        std::fs::remove_dir_all(&dir).unwrap();
        std::fs::create_dir_all(&dir).unwrap();
        let e = driver.evolve(&ga, &local, &layout, &problem, false, |_| Vec::new()).err().unwrap();
        assert!(e.0.contains("no genome"), "{}", e.0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
