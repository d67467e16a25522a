//! `tuner roundrobin-ga`: Aksenov 2004's GA with round-robin fitness.

use std::path::PathBuf;

use crate::{
    cli::set_given,
    ga::run_dir::Start,
    rrga::{RrgaConfig, run},
};

/// Evolve Aksenov's 26 evaluation parameters by round robins at fixed depth (Aksenov 2004).
#[derive(clap::Args, Debug, Clone)]
pub struct RrgaArgs {
    /// Config file (TOML); defaults are the thesis's (see params/rrga.toml).
    #[arg(long, value_name = "rrga.toml")]
    pub config: Option<PathBuf>,
    /// The evochess binary.
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Players per tournament, the reference player included.
    #[arg(long)]
    pub population: Option<usize>,
    #[arg(long)]
    pub generations: Option<usize>,
    /// Search depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games of each verification match (0 = none).
    #[arg(long)]
    pub verify_games: Option<u32>,
    /// Games played at once.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Output directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The best player's parameter file (default <out>/best.toml).
    #[arg(long, value_name = "FILE")]
    pub params_out: Option<PathBuf>,
    /// Continue from <out>/checkpoint.json; finished games are not replayed.
    #[arg(long)]
    pub resume: bool,
    /// Discard the run in --out (its checkpoint) and start over.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
}

impl RrgaArgs {
    /// The config file (or defaults) with the command-line overrides applied.
    pub fn config(&self) -> anyhow::Result<RrgaConfig> {
        let mut cfg = match &self.config {
            Some(p) => RrgaConfig::load(p)?,
            None => RrgaConfig::default(),
        };
        set_given!(self; engine => cfg.engine, seed => cfg.seed, population => cfg.population,
            generations => cfg.generations, depth => cfg.depth, verify_games => cfg.verify.games,
            concurrency => cfg.concurrency, out => cfg.out_dir);
        if let Some(p) = &self.params_out {
            cfg.params_out = Some(p.clone());
        }
        cfg.validate()?;
        Ok(cfg)
    }
}

pub fn run(args: RrgaArgs) -> anyhow::Result<()> {
    let cfg = args.config()?;
    let o = run::run(&cfg, Start::from_flags(args.resume, args.force))?;
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
