//! `tuner evolve`: evolves evaluation weights from GM games (David et al. 2014 §III-B).

use std::path::PathBuf;

use anyhow::{Context, bail};
use evochess::params::Params;

use crate::{
    cli::set_given,
    evolve::{
        EvolveConfig, Objective,
        fitness::{self, FitnessSearch, Prepared},
        mentor, positions,
        run::{Evolution, run_dir},
    },
    files::write_atomic,
    ga::{
        run_dir::{RunDir, Start},
        threads,
    },
    hash::fnv1a,
    space::SearchSpace,
};

/// Evolve evaluation weights so that a 1-ply search plays the grandmasters' moves.
#[derive(clap::Args, Debug, Clone)]
pub struct EvolveArgs {
    /// GM games, .pgn or .pgn.xz; repeat to read several files in order.
    #[arg(long, required = true, value_name = "GAMES.pgn")]
    pub pgn: Vec<PathBuf>,
    /// Config file (TOML); defaults are the paper's (see params/evolve.toml).
    #[arg(long, value_name = "evolve.toml")]
    pub config: Option<PathBuf>,
    /// Independent runs, each with its own seed; run N's best goes to <evolved_dir>/run-N.toml.
    #[arg(long)]
    pub runs: Option<usize>,
    /// Master seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Only run number K of the configured runs (to spread runs over processes or machines;
    /// run K gives the same result as in a sequential run).
    #[arg(long, value_name = "K")]
    pub only_run: Option<usize>,
    /// Generations per run.
    #[arg(long)]
    pub generations: Option<usize>,
    /// Population size.
    #[arg(long)]
    pub population: Option<usize>,
    /// Fitness threads (0 = all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Search-space file.
    #[arg(long)]
    pub space: Option<PathBuf>,
    /// Training positions.
    #[arg(long)]
    pub train: Option<usize>,
    /// Test positions.
    #[arg(long)]
    pub test: Option<usize>,
    /// Earliest ply a position may come from (skips the opening book part of the games).
    #[arg(long, value_name = "PLY")]
    pub min_ply: Option<usize>,
    /// Positions taken from each decisive game.
    #[arg(long, value_name = "N")]
    pub positions_per_game: Option<usize>,
    /// How the 1-ply fitness scores a move: qsearch (quiescence from the child) or static.
    #[arg(long, value_name = "qsearch|static")]
    pub fitness_search: Option<FitnessSearch>,
    /// Output directory for checkpoints, CSV, SVG and the position cache.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Directory for the evolved parameter files.
    #[arg(long, value_name = "DIR")]
    pub evolved_dir: Option<PathBuf>,
    /// Continue runs from their checkpoints (finished runs are only reported again).
    #[arg(long)]
    pub resume: bool,
    /// Start over: discard the runs' checkpoints in --out and replace existing result files
    /// (run-N.toml).
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
    /// Score parameter files instead of evolving: every position the config extracts from
    /// --pgn (train and test as one set) is searched as a run would, and one line per file
    /// says how many GM moves it matched. Repeat for several files.
    /// With a mentor, each line also gives the file's mean error against the mentor.
    #[arg(long, value_name = "PARAMS.toml", conflicts_with_all = ["bench", "resume"])]
    pub score: Vec<PathBuf>,
    /// Mentor-assisted evolution: a UCI engine command (e.g. "stockfish") scores every position
    /// once (cached); fitness = -mean |organism eval - mentor score|.
    #[arg(long, value_name = "CMD")]
    pub mentor: Option<String>,
    /// Mentor search depth per position.
    #[arg(long, value_name = "N")]
    pub mentor_depth: Option<u32>,
    /// Start every run from this parameter file (its genome and mutants of it) instead of
    /// random values; `[init]` in the config sets the mutants' rate.
    #[arg(long, value_name = "PARAMS.toml")]
    pub init: Option<PathBuf>,
    /// Measure fitness speed instead of evolving: 1-ply positions/s of one random population
    /// on the training set, with 1 thread and with --threads (default all cores).
    #[arg(long)]
    pub bench: bool,
}

impl EvolveArgs {
    /// The config file (or defaults) with the command-line overrides applied.
    pub fn config(&self) -> anyhow::Result<EvolveConfig> {
        let mut cfg = match &self.config {
            Some(path) => EvolveConfig::load(path)?,
            None => EvolveConfig::default(),
        };
        set_given!(self; runs => cfg.runs, seed => cfg.seed, generations => cfg.ga.generations,
            population => cfg.ga.population, threads => cfg.threads, space => cfg.space, train => cfg.positions.train,
            test => cfg.positions.test, min_ply => cfg.positions.min_ply,
            positions_per_game => cfg.positions.positions_per_game, fitness_search => cfg.fitness.search,
            out => cfg.out_dir);
        if let Some(dir) = &self.evolved_dir {
            cfg.evolved_dir = Some(dir.clone());
        }
        if let Some(cmd) = &self.mentor {
            cfg.mentor.get_or_insert_with(Default::default).command = cmd.clone();
        }
        if let Some(file) = &self.init {
            match &mut cfg.init {
                Some(i) => i.file = file.clone(),
                None => cfg.init = Some(crate::evolve::InitConfig::new(file.clone())),
            }
        }
        if let Some(d) = self.mentor_depth {
            cfg.mentor.as_mut().ok_or_else(|| anyhow::anyhow!("--mentor-depth needs --mentor"))?.depth = d;
        }
        if let Some(m) = &cfg.mentor {
            m.validate().map_err(anyhow::Error::msg)?;
            if m.target == mentor::MentorTarget::Result && cfg.positions.random_plies > 0 {
                bail!(
                    "mentor.target = \"result\" cannot use positions.random_plies: a walked position's result is not the game's"
                );
            }
        }
        if cfg.runs == 0 {
            bail!("runs must be at least 1");
        }
        if cfg.positions.train == 0 {
            bail!("positions.train must be at least 1");
        }
        if cfg.positions.random_plies > 0 && cfg.mentor.is_none() {
            bail!("positions.random_plies needs a [mentor]: the moves of positions off the game are not GM moves");
        }
        Ok(cfg)
    }
}

pub fn run(args: EvolveArgs) -> anyhow::Result<()> {
    let cfg = args.config()?;
    if !args.score.is_empty() {
        return score_files(&args.score, &args.pgn, &cfg);
    }
    let evolved_dir = cfg.evolved_dir();
    let runs = match args.only_run {
        Some(k) if k == 0 || k > cfg.runs => bail!("--only-run {k}: runs are numbered 1 to {}", cfg.runs),
        Some(k) => k..=k,
        None => 1..=cfg.runs,
    };
    if !args.resume && !args.force && !args.bench {
        // Refuse before hours of work, not when the result is written. A run with a checkpoint
        // is refused by the run itself, with the hint to --resume it.
        for run in runs.clone() {
            let path = evolved_dir.join(format!("run-{run}.toml"));
            if path.exists() && !run_dir(&cfg.out_dir, run).join("checkpoint.json").exists() {
                bail!("{} already exists; pass --force to replace it, or choose another --evolved-dir", path.display());
            }
        }
    }
    // Lock the runs and apply --resume/--force before the positions are read.
    let start = Start::from_flags(args.resume, args.force);
    let run_dirs: Vec<(PathBuf, Vec<PathBuf>)> = runs
        .clone()
        .map(|run| (run_dir(&cfg.out_dir, run), vec![run_dir(&cfg.out_dir, run).join("checkpoint.json")]))
        .collect();
    let _held = if args.bench { Vec::new() } else { RunDir::open_all(&run_dirs, start)? };
    let space_text = crate::builtin::read_text(&cfg.space)
        .with_context(|| format!("cannot read search space {}", cfg.space.display()))?;
    let space = SearchSpace::parse(&space_text).with_context(|| format!("in {}", cfg.space.display()))?;
    cfg.ga.validate(space.layout())?;
    let threads = threads(cfg.threads);
    // Before the positions and labels: a bad [init] fails at once.
    let init_params = match &cfg.init {
        None => None,
        Some(i) => {
            let params = Params::load(&i.file).with_context(|| format!("[init] file {}", i.file.display()))?;
            if !(0.0..=1.0).contains(&i.mutation_rate) {
                bail!("[init] mutation_rate must be in 0..=1 (got {})", i.mutation_rate);
            }
            Some(params)
        }
    };
    let prior = match &cfg.mentor {
        Some(m) => mentor::Prior::of(m, init_params.as_ref().map(|p| &p.eval)).map_err(anyhow::Error::msg)?,
        None => mentor::Prior::default(),
    };

    let cache = cfg.positions.cache.clone().unwrap_or_else(|| cfg.out_dir.join("positions.json"));
    let set = positions::load_or_extract(&args.pgn, &cfg.positions, &cache)?;
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
    if args.bench {
        return bench(&space, &cfg, &objective, threads);
    }

    // Everything that determines a run except the generation count, so a finished run can be
    // extended with --resume --generations N.
    let mut ga = cfg.ga.clone();
    ga.generations = 0;
    let init = cfg.init.as_ref().zip(init_params.as_ref()).map(|(i, p)| (space.genome_of(p), i.mutation_rate));
    // The seed genome, not the file's text, decides the run. Absent `[init]` adds nothing, so
    // that existing runs keep their fingerprint.
    let init_key = init
        .as_ref()
        .map_or(String::new(), |(genome, rate)| format!(" init={:016x}/{rate}", fnv1a(&format!("{:?}", genome.key()))));
    // The base values too: `others = "default"` reads the compiled-in defaults, which change
    // when a tuned evaluation replaces them, and a run must not resume on another base.
    let base_key = format!(" base={:016x}", fnv1a(&space.base().values_toml()));
    let fingerprint = format!(
        "{:016x}",
        fnv1a(&format!(
            "{space_text}\n{}\n{}\nseed={}{mentor_key}{}{init_key}{base_key}",
            serde_json::to_string(&ga)?,
            set.key,
            cfg.seed,
            fitness_fingerprint(&cfg)
        ))
    );
    let evolution = Evolution {
        space: &space,
        ga: &cfg.ga,
        objective: &objective,
        base: space.base(),
        seed: cfg.seed,
        threads,
        fingerprint,
        progress: true,
        init,
    };
    log::info!(
        "evolving {} genes ({} loci) with {threads} threads: population {}, {} generations, {} run(s)",
        space.genes.len(),
        space.layout().len(),
        cfg.ga.population,
        cfg.ga.generations,
        cfg.runs
    );
    // The run with the highest training fitness: the one to name at the end.
    let mut best: Option<(f64, PathBuf)> = None;
    for run in runs {
        let dir = run_dir(&cfg.out_dir, run);
        let outcome = evolution.run(run, &dir, args.resume)?;
        let path = evolved_dir.join(format!("run-{run}.toml"));
        let fitness = outcome.history.last().map_or(f64::NEG_INFINITY, |h| h.best_fitness);
        if best.as_ref().is_none_or(|(f, _)| fitness > *f) {
            best = Some((fitness, path.clone()));
        }
        let (n_train, n_test) = objective.sizes();
        let pct =
            |m: f64, test: bool| objective.accuracy(m, test).map_or(String::new(), |a| format!(" ({:.1}%)", a * 100.0));
        let header = format!(
            "# Evolved by `tuner evolve`: run {run}, seed {}, {} generations of {}.\n\
             # Train: {} {} of {n_train}{}; test: {} of {n_test}{}.\n# Genes: {}\n\n",
            cfg.seed,
            outcome.history.len(),
            cfg.ga.population,
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
        write_atomic(&path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
        println!(
            "run {run}: train {} {}{}, test {}{}, {} -> {}",
            outcome.train_metric,
            objective.metric_name(),
            pct(outcome.train_metric, false),
            outcome.test_metric,
            pct(outcome.test_metric, true),
            dir.display(),
            path.display()
        );
    }
    if let Some((_, path)) = best {
        print!("{}", super::best_file_text("best parameters (highest training fitness)", &path));
    }
    Ok(())
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
pub fn gm_objective(set: &positions::PositionSet, search: FitnessSearch, threads: usize) -> anyhow::Result<Objective> {
    let (train, test) = prepare_set(set, threads)?;
    Ok(Objective::GmMoves { train, test, search })
}

/// The train and test positions of `set`, expanded into their children.
fn prepare_set(set: &positions::PositionSet, threads: usize) -> anyhow::Result<(Vec<Prepared>, Vec<Prepared>)> {
    let parse = |list: &[positions::GmPosition]| -> anyhow::Result<Vec<_>> {
        list.iter().map(|p| p.parse().map_err(|e| anyhow::anyhow!("position cache: {e}"))).collect()
    };
    let (train, dropped_train) = fitness::prepare_all(&parse(&set.train)?, threads);
    let (test, dropped_test) = fitness::prepare_all(&parse(&set.test)?, threads);
    if dropped_train + dropped_test > 0 {
        bail!("{} cached positions have an illegal move; delete the cache", dropped_train + dropped_test);
    }
    Ok((train, test))
}

/// Positions paired with the mentor's scores.
fn with_labels(list: &[positions::GmPosition], scores: &[i32]) -> anyhow::Result<Vec<(shakmaty::Chess, i32)>> {
    list.iter()
        .zip(scores)
        .map(|(p, &s)| p.parse().map(|(pos, _)| (pos, s)).map_err(|e| anyhow::anyhow!("position cache: {e}")))
        .collect()
}

/// `--score`: GM moves matched by each parameter file on every position the config extracts
/// (train and test together), with the configured fitness search; with a mentor, also the
/// file's mean error against the mentor's labels (labelled once, cached in the output directory).
fn score_files(files: &[PathBuf], pgn: &[PathBuf], cfg: &EvolveConfig) -> anyhow::Result<()> {
    // Load every file first: a bad one fails before the positions are read.
    let organisms: Vec<Params> = files
        .iter()
        .map(|f| Params::load(f).with_context(|| format!("cannot load parameter file {}", f.display())))
        .collect::<anyhow::Result<_>>()?;
    let set = positions::extract(pgn, &cfg.positions)?;
    let threads = threads(cfg.threads);
    let search = cfg.fitness.search;
    let (train, test) = prepare_set(&set, threads)?;
    let n = train.len() + test.len();
    let labelled = match &cfg.mentor {
        None => None,
        Some(m) => {
            // The mentor's label cache is keyed by the position set's key.
            let processes = if m.processes == 0 { threads } else { m.processes };
            let labels = mentor::load_or_label(&set, m, &mentor::default_cache(&cfg.out_dir), processes)?;
            let mut positions = with_labels(&set.train, &labels.train)?;
            positions.extend(with_labels(&set.test, &labels.test)?);
            Some((positions, mentor::ErrorMeasure::of(m)))
        }
    };
    log::info!("scoring {} file(s) on {n} positions from {} games ({search:?} search)", files.len(), set.stats.games);
    for (file, params) in files.iter().zip(&organisms) {
        let mut line = format!("{}: ", file.display());
        // Positions walked off the game by random moves have no GM move to match.
        if cfg.positions.random_plies == 0 {
            let matched = [&train, &test]
                .iter()
                .map(|set| fitness::count_solved_par(set, &params.eval, search, threads))
                .sum::<u32>();
            line.push_str(&format!("matched {matched} of {n} ({:.1}%)", 100.0 * f64::from(matched) / n.max(1) as f64));
        } else {
            line.push_str(&format!("{n} positions"));
        }
        if let Some((positions, measure)) = &labelled {
            let (error, scale) = mentor::mean_error_par(positions, &params.eval, measure, search, threads);
            line.push_str(&format!(", mentor {} {error:.6}", measure.metric_name()));
            if measure.fit_scale {
                line.push_str(&format!(" at scale {scale:.3}"));
            }
        }
        println!("{line}");
    }
    Ok(())
}

/// Prints fitness throughput: a seeded random population scored on the training set.
fn bench(space: &SearchSpace, cfg: &EvolveConfig, objective: &Objective, threads: usize) -> anyhow::Result<()> {
    use std::time::Instant;

    use crate::ga::{generation_rng, par_map, random_genome};

    let mut rng = generation_rng(cfg.seed, 0, 0);
    let base = space.base();
    let organisms: Vec<Params> =
        (0..cfg.ga.population).map(|_| space.apply(&random_genome(space.layout(), &mut rng), &base)).collect();
    let (train, _) = objective.sizes();
    let mut counts = Vec::new();
    for t in [1, threads] {
        let cpu0 = process_cpu_seconds();
        let started = Instant::now();
        let scores = par_map(&organisms, t, |p| objective.train(&p.eval).1);
        let secs = started.elapsed().as_secs_f64();
        let positions = (organisms.len() * train) as f64;
        // The machine may be shared: the rate per CPU second shows what one core achieves.
        let per_cpu = match (cpu0, process_cpu_seconds()) {
            (Some(a), Some(z)) if z > a => format!(", {:.0} positions per CPU second", positions / (z - a)),
            _ => String::new(),
        };
        println!(
            "threads {t}: {} organisms x {train} positions in {secs:.3}s = {:.0} positions/s{per_cpu}",
            organisms.len(),
            positions / secs
        );
        counts.push(scores);
        if threads == 1 {
            break;
        }
    }
    // The thread count must not change any result.
    if counts.len() == 2 && counts[0] != counts[1] {
        bail!("fitness differs between 1 and {threads} threads");
    }
    Ok(())
}

/// CPU seconds used by this process, all threads (utime + stime from /proc, 100 ticks/s).
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
