//! `tuner quick`: evolves the five piece values by quick tournaments (Belmonte 2013).

use std::path::PathBuf;

use crate::{
    cli::set_given,
    ga::run_dir::Start,
    quick::{QuickConfig, report, run},
};

/// Evolve piece values by quick tournaments of engine games (Belmonte 2013).
#[derive(clap::Args, Debug, Clone)]
pub struct QuickArgs {
    /// Config file (TOML); defaults are the paper's (see params/quick.toml).
    #[arg(long, value_name = "quick.toml")]
    pub config: Option<PathBuf>,
    /// The evochess binary.
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    #[arg(long)]
    pub seed: Option<u64>,
    #[arg(long)]
    pub population: Option<usize>,
    /// Generation cap.
    #[arg(long)]
    pub generations: Option<usize>,
    /// Nodes per move (replaces any other limit of the config).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Milliseconds per move (replaces any other limit of the config).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Max full moves; then the side ahead in material wins.
    #[arg(long)]
    pub max_moves: Option<u32>,
    /// Games played at once.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Output directory (checkpoint, journals, PGN, CSV, SVG).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Continue from <out>/checkpoint.json; finished games are not replayed.
    #[arg(long)]
    pub resume: bool,
    /// Discard the run in --out (its checkpoint) and start over.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
}

impl QuickArgs {
    /// The config file (or defaults) with the command-line overrides applied.
    pub fn config(&self) -> anyhow::Result<QuickConfig> {
        let mut cfg = match &self.config {
            Some(p) => QuickConfig::load(p)?,
            None => QuickConfig::default(),
        };
        set_given!(self; engine => cfg.engine, seed => cfg.seed, population => cfg.population,
            generations => cfg.generations, max_moves => cfg.max_moves, concurrency => cfg.concurrency,
            out => cfg.out_dir);
        if self.nodes.is_some() || self.movetime.is_some() {
            (cfg.nodes, cfg.movetime_ms, cfg.depth) = (self.nodes, self.movetime, None);
        }
        cfg.validate()?;
        Ok(cfg)
    }
}

pub fn run(args: QuickArgs) -> anyhow::Result<()> {
    let cfg = args.config()?;
    let outcome = run::run(&cfg, Start::from_flags(args.resume, args.force))?;
    print!("{}", report::summary(&outcome.history));
    println!("reports in {}", cfg.out_dir.display());
    if let Some(best) = &outcome.best_file {
        print!("{}", super::best_file_text("best parameters", best));
    }
    Ok(())
}
