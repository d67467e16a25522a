//! `tuner quick`: evolves the five piece values by quick tournaments (Belmonte 2013).

use std::path::PathBuf;

use crate::{
    cli::{RunArgs, set_given},
    quick_tournament::{QuickConfig, report, run},
};

/// Evolve piece values by quick tournaments of engine games (Belmonte 2013).
///
/// Without --config the settings are the paper's, as configs/quick/default.toml lists them.
#[derive(clap::Args, Debug, Clone)]
pub struct QuickArgs {
    /// The evochess binary.
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    #[arg(long)]
    pub population: Option<usize>,
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
    #[command(flatten)]
    pub run: RunArgs,
}

impl QuickArgs {
    /// The config file (or defaults) with the command-line overrides applied.
    pub fn config(&self) -> anyhow::Result<QuickConfig> {
        let mut cfg = match self.run.config_file("quick")? {
            Some(p) => QuickConfig::load(&p)?,
            None => QuickConfig::default(),
        };
        if let Some(e) = &self.engine {
            cfg.engine = Some(e.clone());
        }
        set_given!(self; population => cfg.population, max_moves => cfg.max_moves, concurrency => cfg.concurrency);
        set_given!(self.run; seed => cfg.seed, generations => cfg.generations, out => cfg.out_dir);
        cfg.broker = self.run.broker.config()?;
        if self.nodes.is_some() || self.movetime.is_some() {
            (cfg.nodes, cfg.movetime_ms, cfg.depth) = (self.nodes, self.movetime, None);
        }
        cfg.validate()?;
        Ok(cfg)
    }
}

pub fn run(args: QuickArgs) -> anyhow::Result<()> {
    let cfg = args.config()?;
    let outcome = run::run(&cfg, args.run.start(), |plan| println!("{plan}"))?;
    print!("{}", report::summary(&outcome.history));
    println!("reports in {}", cfg.out_dir.display());
    if let Some(best) = &outcome.best_file {
        print!("{}", super::best_file_text("best parameters", best));
    }
    Ok(())
}
