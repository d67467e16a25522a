//! `tuner evolve`'s runs as library calls, for the command line and the pipeline alike:
//! [`prepare`] reads the space, the positions and (with a mentor) their labels, and fixes the
//! run fingerprint; [`run_all`] evolves the selected runs and writes each one's parameter file.

use std::{
    ops::RangeInclusive,
    path::{Path, PathBuf},
};

use arena::files::write_atomic;
use evochess::params::Params;

use super::{
    EvolveConfig, EvolveError, Objective,
    fitness::{self, FitnessSearch, Prepared},
    mentor, positions,
    remote::RemoteFitness,
    run::{Evolution, RunOutcome, checkpoint_path, run_dir},
};
use crate::{
    ga::{Genome, threads},
    hash::fnv1a,
    space::SearchSpace,
};

/// Everything the runs share.
pub struct Setup {
    pub space: SearchSpace,
    pub objective: Objective,
    /// First-generation genome and the mutation rate of its copies (`[init]`).
    pub init: Option<(Genome, f64)>,
    /// Every organism's values outside the space: the `[init]` file's own (with the space's
    /// `[fixed]` values), or without `[init]` the space's base.
    pub base: Params,
    /// Identifies config, space, positions, labels and base values; stored in checkpoints.
    pub fingerprint: String,
    /// The same with the space file's raw text, as tuners before the canonical space wrote it.
    pub legacy_fingerprint: String,
    pub threads: usize,
    /// The GM-move counts on `tuner worker`s (`--broker`).
    pub remote: Option<RemoteFitness>,
}

/// One finished run and where its parameter file went.
pub struct RunFile {
    pub outcome: RunOutcome,
    pub file: PathBuf,
}

fn config_error(what: impl std::fmt::Display) -> EvolveError {
    EvolveError::Config(what.to_string())
}

/// Reads what the runs need: a bad space, `[init]` file or mentor setting fails before the
/// positions are read.
pub fn prepare(cfg: &EvolveConfig, pgn: &[PathBuf]) -> Result<Setup, EvolveError> {
    let space_text = crate::embedded_files::read_text(&cfg.space).map_err(|e| EvolveError::io(&cfg.space, e))?;
    let space = SearchSpace::parse(&space_text)
        .map_err(|e| config_error(format!("search space {}: {e}", cfg.space.display())))?;
    cfg.ga.validate(&cfg.optimiser, space.layout())?;
    let threads = threads(cfg.threads);
    let init_params = match &cfg.init {
        None => None,
        Some(i) => {
            let params =
                Params::load(&i.file).map_err(|e| config_error(format!("[init] file {}: {e}", i.file.display())))?;
            if !(0.0..=1.0).contains(&i.mutation_rate) {
                return Err(config_error(format!("[init] mutation_rate must be in 0..=1 (got {})", i.mutation_rate)));
            }
            Some(params)
        }
    };
    let prior = match &cfg.mentor {
        Some(m) => mentor::Prior::of(m, init_params.as_ref().map(|p| &p.eval)).map_err(EvolveError::Mentor)?,
        None => mentor::Prior::default(),
    };
    let cache = cfg.positions.cache.clone().unwrap_or_else(|| cfg.out_dir.join("positions.json"));
    let set = positions::load_or_extract(pgn, &cfg.positions, &cache)?;
    let prepare_started = std::time::Instant::now();
    let (objective, mentor_key) = match &cfg.mentor {
        None => (gm_objective(&set, cfg.fitness.search, threads)?, String::new()),
        Some(m) => {
            let processes = if m.processes == 0 { threads } else { m.processes };
            let labels = mentor::load_or_label(&set, m, &mentor::default_cache(&cfg.out_dir), processes)?;
            let prior_key = prior.key();
            let objective = Objective::Mentor {
                train: with_labels(&set.train, &labels.train)?,
                test: with_labels(&set.test, &labels.test)?,
                measure: mentor::ErrorMeasure::of(m),
                search: cfg.fitness.search,
                prior,
            };
            // The loss changes the fitness, not the labels; `abs` adds nothing, so that
            // existing runs keep their fingerprint.
            let loss_key = match m.loss {
                mentor::MentorLoss::Abs => String::new(),
                mentor::MentorLoss::Winprob => format!(" winprob/{}", m.winprob_scale),
            };
            let scale_key = if m.fit_scale { " fit-scale" } else { "" };
            (objective, format!("{}{loss_key}{scale_key}{prior_key}", labels.key))
        }
    };
    log::info!("positions expanded in {:.2}s", prepare_started.elapsed().as_secs_f64());

    // Everything that determines a run except the generation count, so a finished run can be
    // extended with --resume --generations N.
    let mut ga = cfg.ga.clone();
    ga.generations = 0;
    let init = cfg.init.as_ref().zip(init_params.as_ref()).map(|(i, p)| {
        log::info!("[init] {}", space.projection_note(&i.file.display().to_string(), p));
        (space.genome_of(p), i.mutation_rate)
    });
    // A seed file keeps its values outside the space: `others` describes random organisms.
    let base = init_params.as_ref().map_or_else(|| space.base(), |p| space.with_fixed(p));
    // The seed genome, not the file's text, decides the run. Absent `[init]` adds nothing, so
    // that existing runs keep their fingerprint.
    let init_key = init
        .as_ref()
        .map_or(String::new(), |(genome, rate)| format!(" init={:016x}/{rate}", fnv1a(&format!("{:?}", genome.key()))));
    // The base values too: `others = "default"` reads the compiled-in defaults, which change
    // when a tuned evaluation replaces them, and a run must not resume on another base.
    let base_key = format!(" base={:016x}", fnv1a(&base.values_toml()));
    let fingerprint_with = |space: &str| {
        crate::ga::checkpoint::fingerprint(&[
            space,
            &crate::optimise::config::legacy_ga_json(&ga, &cfg.optimiser),
            &set.key,
            &format!("seed={}{mentor_key}{}{init_key}{base_key}", cfg.seed, fitness_fingerprint(cfg)),
        ])
    };
    let fingerprint = fingerprint_with(&space.canonical());
    let legacy_fingerprint = fingerprint_with(&space_text);
    let remote = match (&cfg.broker, &objective) {
        (None, _) => None,
        (Some(b), Objective::GmMoves { search, .. }) => {
            Some(RemoteFitness::new(b.clone(), &set.train, *search, &fingerprint))
        }
        (Some(_), Objective::Mentor { .. }) => {
            return Err(config_error(
                "--broker: only the GM-move fitness runs on workers; run the mentor fitness without it",
            ));
        }
    };
    Ok(Setup { space, objective, init, base, fingerprint, legacy_fingerprint, threads, remote })
}

/// Evolves runs `runs` (continuing checkpoints when `resume`), writing each run's best as
/// `<evolved_dir>/run-N.toml`; `done` hears of each run as it ends.
pub fn run_all(
    cfg: &EvolveConfig,
    setup: &Setup,
    runs: RangeInclusive<usize>,
    resume: bool,
    mut done: impl FnMut(&RunFile),
) -> Result<Vec<RunFile>, EvolveError> {
    let Setup { space, objective, init, base, fingerprint, legacy_fingerprint, threads, remote } = setup;
    let evolution = Evolution {
        space,
        ga: &cfg.ga,
        optimiser: &cfg.optimiser,
        objective,
        base: base.clone(),
        seed: cfg.seed,
        threads: *threads,
        fingerprint: fingerprint.clone(),
        legacy_fingerprint: Some(legacy_fingerprint.clone()),
        progress: true,
        init: init.clone(),
        remote: remote.as_ref(),
    };
    log::info!(
        "evolving {} genes ({} loci) with {threads} threads: {}, {} candidates a generation, {} generations, {} run(s)",
        space.genes.len(),
        space.layout().len(),
        cfg.optimiser.name(),
        cfg.optimiser.candidates(cfg.ga.population),
        cfg.ga.generations,
        cfg.runs
    );
    let mut files = Vec::new();
    for run in runs {
        let outcome = evolution.run(run, &run_dir(&cfg.out_dir, run), resume)?;
        let file = cfg.evolved_dir().join(format!("run-{run}.toml"));
        let (n_train, n_test) = objective.sizes();
        let pct = |m: f64, test: bool| percent(objective, m, test);
        let header = format!(
            "# Evolved by `tuner evolve`: run {run}, seed {}, {} generations of {}.\n\
             # Train: {} {} of {n_train}{}; test: {} of {n_test}{}.\n# Genes: {}\n\n",
            cfg.seed,
            outcome.history.len(),
            cfg.optimiser.candidates(cfg.ga.population),
            outcome.train_metric,
            objective.metric_name(),
            pct(outcome.train_metric, false),
            outcome.test_metric,
            pct(outcome.test_metric, true),
            space.describe(&outcome.best),
        );
        let text = format!("{header}{}", outcome.params.to_toml());
        // The file must load in the engine exactly as evolved.
        debug_assert_eq!(Params::default().with_toml(&text).ok().as_ref(), Some(&outcome.params));
        write_atomic(&file, text.as_bytes()).map_err(|e| EvolveError::io(&file, e))?;
        let result = RunFile { outcome, file };
        done(&result);
        files.push(result);
    }
    Ok(files)
}

/// ` (P%)` of a metric where a share of the set means something, else nothing.
pub fn percent(objective: &Objective, metric: f64, test: bool) -> String {
    objective.accuracy(metric, test).map_or(String::new(), |a| format!(" ({:.1}%)", a * 100.0))
}

/// The fitness settings in the run fingerprint. The static fitness adds nothing, so that
/// checkpoints written before the quiescence fitness existed (all static) still resume.
fn fitness_fingerprint(cfg: &EvolveConfig) -> String {
    match cfg.fitness.search {
        FitnessSearch::Qsearch => "\nfitness=qsearch".into(),
        FitnessSearch::Static => String::new(),
    }
}

/// Expands the GM positions for the 1-ply fitness.
pub fn gm_objective(
    set: &positions::PositionSet,
    search: FitnessSearch,
    threads: usize,
) -> Result<Objective, EvolveError> {
    let (train, test) = prepare_set(set, threads)?;
    Ok(Objective::GmMoves { train, test, search })
}

/// The train and test positions of `set`, expanded into their children.
pub fn prepare_set(
    set: &positions::PositionSet,
    threads: usize,
) -> Result<(Vec<Prepared>, Vec<Prepared>), EvolveError> {
    let parse = |list: &[positions::GmPosition]| -> Result<Vec<_>, EvolveError> {
        list.iter().map(|p| p.parse().map_err(|e| config_error(format!("position cache: {e}")))).collect()
    };
    let (train, dropped_train) = fitness::prepare_all(&parse(&set.train)?, threads);
    let (test, dropped_test) = fitness::prepare_all(&parse(&set.test)?, threads);
    if dropped_train + dropped_test > 0 {
        return Err(config_error(format!(
            "{} cached positions have an illegal move; delete the cache",
            dropped_train + dropped_test
        )));
    }
    Ok((train, test))
}

/// Positions paired with the mentor's scores.
pub fn with_labels(list: &[positions::GmPosition], scores: &[i32]) -> Result<Vec<(shakmaty::Chess, i32)>, EvolveError> {
    list.iter()
        .zip(scores)
        .map(|(p, &s)| p.parse().map(|(pos, _)| (pos, s)).map_err(|e| config_error(format!("position cache: {e}"))))
        .collect()
}

/// The directories and checkpoints of runs `runs`, for [`crate::ga::run_dir::RunDir::open_all`].
pub fn run_state(out_dir: &Path, runs: RangeInclusive<usize>) -> Vec<(PathBuf, Vec<PathBuf>)> {
    runs.map(|run| run_dir(out_dir, run)).map(|dir| (dir.clone(), vec![checkpoint_path(&dir)])).collect()
}
