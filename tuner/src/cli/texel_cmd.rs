//! `tuner texel`: Texel's tuning of evaluation parameters on quiet positions from games.

use std::path::PathBuf;

use crate::{
    cli::{RunArgs, set_given},
    texel::{
        gradient::Optimizer,
        run::{TexelConfig, bench_epoch, run as run_texel},
    },
};

/// Tune evaluation parameters by Texel's method: the mean squared error of the games' results
/// against sigmoid(K · evaluation) on quiet positions, minimised by local search or, with
/// `optimizer = "adam" | "adagrad"`, by a gradient fit over traced positions.
#[derive(clap::Args, Debug, Clone)]
pub struct TexelArgs {
    /// Games with results; repeat for several (replaces the config's list, and its `data`).
    #[arg(long, value_name = "FILE.pgn")]
    pub pgn: Vec<PathBuf>,
    /// `tuner datagen` shards, or directories of them; repeat for several (replaces the
    /// config's `data`, and its `pgn`).
    #[arg(long, value_name = "SHARD|DIR", conflicts_with = "pgn")]
    pub data: Vec<PathBuf>,
    /// Read the shards of several datagen runs, and each game found twice once (refused
    /// without it; the config's `allow_mixed = true`); says what it mixes.
    #[arg(long)]
    pub allow_mixed: bool,
    /// Search-space file of the parameters to tune.
    #[arg(long, value_name = "FILE.toml")]
    pub space: Option<PathBuf>,
    /// Parameter file to start from (default: the space's base).
    #[arg(long, value_name = "FILE.toml")]
    pub params: Option<PathBuf>,
    /// Threads for the loss (0 = all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Benchmark instead of tuning: trace the config's training positions, repeat them to this
    /// many, and time one epoch of the gradient fit (`optimizer`, `[gradient]`; Adam if local).
    #[arg(long, value_name = "POSITIONS")]
    pub bench_epoch: Option<usize>,
    /// `--generations` is the number of passes (epochs for a gradient optimiser).
    #[command(flatten)]
    pub run: RunArgs,
}

pub fn run(args: TexelArgs) -> anyhow::Result<()> {
    let mut cfg = match args.run.config_file("texel")? {
        Some(p) => TexelConfig::load(&p)?,
        None => TexelConfig::default(),
    };
    if !args.pgn.is_empty() {
        cfg.pgn = args.pgn.clone();
        cfg.data.clear();
    }
    if !args.data.is_empty() {
        cfg.data = args.data.clone();
        cfg.pgn.clear();
    }
    cfg.allow_mixed |= args.allow_mixed;
    if let Some(p) = &args.params {
        cfg.params = Some(p.clone());
    }
    set_given!(args; space => cfg.space, threads => cfg.threads);
    set_given!(args.run; generations => cfg.passes, seed => cfg.seed, out => cfg.out_dir);
    if args.run.broker.broker.is_some() {
        anyhow::bail!("--broker: texel fits its positions here; it has no worker fitness");
    }
    if let Some(n) = args.bench_epoch {
        for line in bench_epoch(&cfg, n)? {
            println!("{line}");
        }
        return Ok(());
    }
    let o = run_texel(&cfg, args.run.start(), |plan| println!("{plan}"))?;
    println!("K {:.4}; {} training and {} validation positions", o.k, o.train, o.validation);
    println!("start:        training MSE {:.6}   validation MSE {:.6}", o.start.0, o.start.1);
    println!("tuned pass {:<3} training MSE {:.6}   validation MSE {:.6}", o.tuned_pass, o.tuned.0, o.tuned.1);
    if cfg.optimizer != Optimizer::Local {
        let gradient = cfg.gradient.clone().unwrap_or_default();
        println!(
            "(training MSE: the traced loss against the fit's target, lambda {}; validation: against {})",
            gradient.lambda,
            gradient.validate_on.against()
        );
    }
    print!("{}", super::best_file_text("tuned parameters", &o.tuned_file));
    Ok(())
}
