//! `tuner evolve`: evolves evaluation weights from GM games (David et al. 2014 §III-B).

use std::path::PathBuf;

use anyhow::{Context, bail};
use evochess::params::Params;

use crate::{
    cli::{RunArgs, set_given},
    evolve::{
        EvolveConfig, Objective,
        fitness::{self, FitnessSearch},
        mentor, positions,
        run::{checkpoint_path, run_dir},
        runs::{self, prepare_set, with_labels},
    },
    ga::{
        run_dir::{RunDir, Start},
        threads,
    },
    space::SearchSpace,
};

/// Evolve evaluation weights so that a 1-ply search plays the grandmasters' moves.
///
/// Without --config the settings are the paper's, as configs/evolve/default.toml lists them.
#[derive(clap::Args, Debug, Clone)]
pub struct EvolveArgs {
    /// GM games, .pgn or .pgn.xz; repeat to read several files in order.
    #[arg(long, required = true, value_name = "GAMES.pgn")]
    pub pgn: Vec<PathBuf>,
    /// Independent runs, each with its own seed; run N's best goes to <evolved_dir>/run-N.toml.
    #[arg(long)]
    pub runs: Option<usize>,
    /// Only run number K of the configured runs (to spread runs over processes or machines;
    /// run K gives the same result as in a sequential run).
    #[arg(long, value_name = "K")]
    pub only_run: Option<usize>,
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
    /// Directory for the evolved parameter files.
    #[arg(long, value_name = "DIR")]
    pub evolved_dir: Option<PathBuf>,
    /// Score parameter files instead of evolving: every position the config extracts from
    /// --pgn (train and test as one set) is searched as a run would, and one line per file
    /// says how many GM moves it matched. Repeat for several files.
    /// With a mentor, each line also gives the file's mean error against the mentor.
    #[arg(long, value_name = "PARAMS.toml", conflicts_with_all = ["bench", "resume", "resume_or_start"])]
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
    #[command(flatten)]
    pub run: RunArgs,
}

impl EvolveArgs {
    /// The config file (or defaults) with the command-line overrides applied.
    pub fn config(&self) -> anyhow::Result<EvolveConfig> {
        let mut cfg = match self.run.config_file("evolve")? {
            Some(path) => EvolveConfig::load(&path)?,
            None => EvolveConfig::default(),
        };
        set_given!(self; runs => cfg.runs, population => cfg.ga.population, threads => cfg.threads, space => cfg.space, train => cfg.positions.train, test => cfg.positions.test, min_ply => cfg.positions.min_ply, positions_per_game => cfg.positions.positions_per_game, fitness_search => cfg.fitness.search);
        set_given!(self.run; seed => cfg.seed, generations => cfg.ga.generations, out => cfg.out_dir);
        cfg.broker = self.run.broker.config()?;
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
        cfg.validate()?;
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
    let start = args.run.start();
    if matches!(start, Start::Fresh | Start::ResumeOrFresh) && !args.bench {
        // Refuse before hours of work, not when the result is written. A run with a checkpoint
        // is refused by the run itself, with the hint to --resume it (or continued, under
        // --resume-or-start); a result without one would be replaced by a new run.
        for run in runs.clone() {
            let path = evolved_dir.join(format!("run-{run}.toml"));
            if path.exists() && !checkpoint_path(&run_dir(&cfg.out_dir, run)).exists() {
                bail!("{} already exists; pass --force to replace it, or choose another --evolved-dir", path.display());
            }
        }
    }
    // Lock the runs and refuse a fresh start or an empty --resume before the positions are
    // read; --force discards the old runs only once they have been read.
    let pgn: Vec<PathBuf> = args.pgn.iter().map(|p| crate::paths::resolve_data_path(p)).collect();
    let prepare = || runs::prepare(&cfg, &pgn);
    let (_held, setup) = if args.bench {
        (Vec::new(), prepare()?)
    } else {
        RunDir::open_all_checked(&runs::run_state(&cfg.out_dir, runs.clone()), start, prepare)?
    };
    if args.bench {
        return bench(&setup.space, &cfg, &setup.objective, setup.threads);
    }
    let objective = &setup.objective;
    let runs_count = runs.clone().count();
    let pgn = match args.pgn.as_slice() {
        [] => "the config's games".to_string(),
        [one] => one.display().to_string(),
        [first, ..] => format!("{} files ({}, ...)", args.pgn.len(), first.display()),
    };
    let plan = crate::progress::Plan::new("evolve")
        .part(format!(
            "{runs_count} runs of {} generations of {} organisms over {} ({} genes)",
            cfg.ga.generations,
            cfg.ga.population,
            cfg.space.display(),
            setup.space.genes.len()
        ))
        .part(format!("fitness: {} on the positions of {pgn}", objective.metric_name()))
        .part(format!("{} threads; out {}", setup.threads, cfg.out_dir.display()))
        .eta(None, setup.threads, "generations");
    println!("{plan}");
    let pct = |m: f64, test: bool| runs::percent(objective, m, test);
    let done = runs::run_all(&cfg, &setup, runs, start.resumes(), |r| {
        let o = &r.outcome;
        println!(
            "run {}: train {} {}{}, test {}{}, {} -> {}",
            o.run,
            o.train_metric,
            objective.metric_name(),
            pct(o.train_metric, false),
            o.test_metric,
            pct(o.test_metric, true),
            run_dir(&cfg.out_dir, o.run).display(),
            r.file.display()
        );
    })?;
    // The run with the highest training fitness: the one to name at the end.
    let fitness = |r: &runs::RunFile| r.outcome.history.last().map_or(f64::NEG_INFINITY, |h| h.best_fitness);
    let best = done.iter().reduce(|a, b| if fitness(b) > fitness(a) { b } else { a });
    if let Some(best) = best {
        print!("{}", super::best_file_text("best parameters (highest training fitness)", &best.file));
    }
    Ok(())
}

/// `--score`: GM moves matched by each parameter file on every position the config extracts
/// (train and test together, then each apart), with the configured fitness search; with a
/// mentor, also the file's mean error against the mentor's labels (labelled once, cached in the
/// output directory).
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
            let [in_train, in_test] =
                [&train, &test].map(|set| fitness::count_solved_par(set, &params.eval, search, threads));
            let matched = in_train + in_test;
            // The split too: a run's log reports its training and held-out matches apart.
            line.push_str(&format!(
                "matched {matched} of {n} ({:.1}%; train {in_train} of {}, test {in_test} of {})",
                100.0 * f64::from(matched) / n.max(1) as f64,
                train.len(),
                test.len()
            ));
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
