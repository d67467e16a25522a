//! `tuner evolve`: evolves evaluation weights from GM games (David et al. 2014 §III-B).

use std::path::PathBuf;

use anyhow::{Context, bail};
use evochess::params::Params;

use crate::{
    evolve::{
        EvolveConfig, Objective, fitness,
        positions::{self, fnv1a},
        run::{Evolution, run_dir},
        write_atomic,
    },
    ga::threads,
    space::SearchSpace,
};

/// Evolve evaluation weights so that a 1-ply search plays the grandmasters' moves.
#[derive(clap::Args, Debug, Clone)]
pub struct EvolveArgs {
    /// GM games, .pgn or .pgn.xz (needs `xz` on PATH); repeat to read several files in order.
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
    /// Output directory for checkpoints, CSV, SVG and the position cache.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Directory for the evolved parameter files.
    #[arg(long, value_name = "DIR")]
    pub evolved_dir: Option<PathBuf>,
    /// Continue runs from their checkpoints (finished runs are only reported again).
    #[arg(long)]
    pub resume: bool,
}

impl EvolveArgs {
    /// The config file (or defaults) with the command-line overrides applied.
    pub fn config(&self) -> anyhow::Result<EvolveConfig> {
        let mut cfg = match &self.config {
            Some(path) => EvolveConfig::load(path)?,
            None => EvolveConfig::default(),
        };
        macro_rules! set {
            ($($field:ident => $target:expr),* $(,)?) => { $( if let Some(v) = &self.$field { $target = v.clone(); } )* };
        }
        set!(runs => cfg.runs, seed => cfg.seed, generations => cfg.ga.generations, population => cfg.ga.population,
             threads => cfg.threads, space => cfg.space, train => cfg.positions.train, test => cfg.positions.test,
             out => cfg.out_dir, evolved_dir => cfg.evolved_dir);
        if cfg.runs == 0 {
            bail!("runs must be at least 1");
        }
        if cfg.positions.train == 0 {
            bail!("positions.train must be at least 1");
        }
        Ok(cfg)
    }
}

pub fn run(args: EvolveArgs) -> anyhow::Result<()> {
    let cfg = args.config()?;
    let space_text = std::fs::read_to_string(&cfg.space)
        .with_context(|| format!("cannot read search space {}", cfg.space.display()))?;
    let space = SearchSpace::parse(&space_text).with_context(|| format!("in {}", cfg.space.display()))?;
    cfg.ga.validate(space.layout())?;
    let threads = threads(cfg.threads);

    let cache = cfg.positions.cache.clone().unwrap_or_else(|| cfg.out_dir.join("positions.json"));
    let set = positions::load_or_extract(&args.pgn, &cfg.positions, &cache)?;
    let objective = gm_objective(&set, threads)?;

    // Everything that determines a run except the generation count, so a finished run can be
    // extended with --resume --generations N.
    let mut ga = cfg.ga.clone();
    ga.generations = 0;
    let fingerprint = format!(
        "{:016x}",
        fnv1a(&format!("{space_text}\n{}\n{}\nseed={}", serde_json::to_string(&ga)?, set.key, cfg.seed))
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
    };
    log::info!(
        "evolving {} genes ({} loci) with {threads} threads: population {}, {} generations, {} run(s)",
        space.genes.len(),
        space.layout().len(),
        cfg.ga.population,
        cfg.ga.generations,
        cfg.runs
    );
    for run in 1..=cfg.runs {
        let dir = run_dir(&cfg.out_dir, run);
        let outcome = evolution.run(run, &dir, args.resume)?;
        let path = cfg.evolved_dir.join(format!("run-{run}.toml"));
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
    Ok(())
}

/// Expands the GM positions for the 1-ply fitness.
pub fn gm_objective(set: &positions::PositionSet, threads: usize) -> anyhow::Result<Objective> {
    let parse = |list: &[positions::GmPosition]| -> anyhow::Result<Vec<_>> {
        list.iter().map(|p| p.parse().map_err(|e| anyhow::anyhow!("position cache: {e}"))).collect()
    };
    let (train, dropped_train) = fitness::prepare_all(&parse(&set.train)?, threads);
    let (test, dropped_test) = fitness::prepare_all(&parse(&set.test)?, threads);
    if dropped_train + dropped_test > 0 {
        bail!("{} cached positions have an illegal move; delete the cache", dropped_train + dropped_test);
    }
    Ok(Objective::GmMoves { train, test })
}
