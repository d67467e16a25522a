//! `tuner search-evolve`: evolution of the selective-search parameters (David et al. §IV).

use std::path::PathBuf;

use crate::{
    cli::{RunArgs, set_given},
    search_evolve::{SearchEvolution, SearchEvolveConfig},
};

/// Evolve Table I's search parameters to minimise the nodes needed to solve an EPD suite.
///
/// Without --config the settings are the paper's, as configs/search-evolve/default.toml lists them.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SearchEvolveArgs {
    /// Parameter file supplying the fixed evaluation (default: the engine defaults).
    #[arg(long, value_name = "FILE.toml")]
    pub params: Option<PathBuf>,
    /// Training suite; repeat for several (replaces the config's list).
    #[arg(long, value_name = "FILE.epd")]
    pub suite: Vec<PathBuf>,
    /// Held-out suite; repeat for several (replaces the config's list).
    #[arg(long, value_name = "FILE.epd")]
    pub held: Vec<PathBuf>,
    /// Use only the first N training positions.
    #[arg(long, value_name = "N")]
    pub max_positions: Option<usize>,
    /// Node cap per position.
    #[arg(long)]
    pub node_cap: Option<u64>,
    /// Population size.
    #[arg(long)]
    pub population: Option<usize>,
    /// Fitness threads (0 = all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The evolved parameter file.
    #[arg(long, value_name = "FILE.toml")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunArgs,
}

impl SearchEvolveArgs {
    pub fn config(&self) -> anyhow::Result<SearchEvolveConfig> {
        let mut cfg = match self.run.config_file("search-evolve")? {
            Some(p) => SearchEvolveConfig::load(&p)?,
            None => SearchEvolveConfig::default(),
        };
        if let Some(p) = &self.params {
            cfg.params = Some(p.clone());
        }
        if !self.suite.is_empty() {
            cfg.suites = self.suite.clone();
        }
        if !self.held.is_empty() {
            cfg.held = self.held.clone();
        }
        set_given!(self; max_positions => cfg.max_positions, node_cap => cfg.node_cap, population => cfg.ga.population, threads => cfg.threads, output => cfg.output);
        set_given!(self.run; generations => cfg.ga.generations, seed => cfg.seed, out => cfg.out_dir);
        cfg.broker = self.run.broker.config()?;
        Ok(cfg)
    }
}

pub fn run(args: SearchEvolveArgs) -> anyhow::Result<()> {
    let evo = SearchEvolution::new(args.config()?)?;
    println!("{}", evo.plan());
    let s = evo.run(args.run.start())?;
    let row = |label: &str, c: &(crate::search_evolve::NodeCount, crate::search_evolve::NodeCount)| {
        println!(
            "{label:<28} training {:>12} nodes ({}/{} solved)   held out {:>12} nodes ({}/{} solved)",
            c.0.nodes, c.0.solved, c.0.positions, c.1.nodes, c.1.solved, c.1.positions
        );
    };
    row("initial random best", &s.initial_best);
    row("evolved best", &s.final_best);
    row("params/default.toml search", &s.default_search);
    print!("{}", super::best_file_text("best parameters", &evo.cfg.output));
    Ok(())
}
