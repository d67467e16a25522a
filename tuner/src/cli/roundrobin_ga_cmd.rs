//! `tuner roundrobin-ga`: Aksenov 2004's GA with round-robin fitness.

use std::path::PathBuf;

use crate::{
    cli::{RunArgs, set_given},
    round_robin_ga::{RoundRobinGaConfig, run},
};

/// Evolve Aksenov's 26 evaluation parameters by round robins at fixed depth (Aksenov 2004).
///
/// Without --config the settings are the paper's, as configs/roundrobin-ga/default.toml lists them.
#[derive(clap::Args, Debug, Clone)]
pub struct RoundRobinGaArgs {
    /// The evochess binary.
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// Players per tournament, the reference player included.
    #[arg(long)]
    pub population: Option<usize>,
    /// Search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games of each verification match (0 = none).
    #[arg(long)]
    pub verify_games: Option<u32>,
    /// Games played at once.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// The best player's parameter file (default OUT/best.toml).
    #[arg(long, value_name = "FILE")]
    pub params_out: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunArgs,
}

impl RoundRobinGaArgs {
    /// The config file (or defaults) with the command-line overrides applied.
    pub fn config(&self) -> anyhow::Result<RoundRobinGaConfig> {
        let mut cfg = match self.run.config_file("roundrobin-ga")? {
            Some(p) => RoundRobinGaConfig::load(&p)?,
            None => RoundRobinGaConfig::default(),
        };
        if let Some(e) = &self.engine {
            cfg.engine = Some(e.clone());
        }
        set_given!(self; population => cfg.population, depth => cfg.depth, verify_games => cfg.verify.games, concurrency => cfg.concurrency);
        set_given!(self.run; seed => cfg.seed, generations => cfg.generations, out => cfg.out_dir);
        cfg.broker = self.run.broker.config()?;
        if let Some(p) = &self.params_out {
            cfg.params_out = Some(p.clone());
        }
        cfg.validate()?;
        Ok(cfg)
    }
}

pub fn run(args: RoundRobinGaArgs) -> anyhow::Result<()> {
    let cfg = args.config()?;
    let o = run::run(&cfg, args.run.start(), |plan| println!("{plan}"))?;
    if let Some(last) = o.history.last() {
        print!("{}", last.table.text(last.generation + 1));
    }
    if !o.verifications.is_empty() {
        print!("{}", run::verification_text(&o.verifications));
    }
    println!("reports in {}", cfg.out_dir.display());
    print!("{}", super::best_file_text("best parameters", &o.params_file));
    Ok(())
}
