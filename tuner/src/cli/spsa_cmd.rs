//! `tuner spsa`: fishtest/OpenBench-style SPSA over game pairs played by the match runner.

use std::path::PathBuf;

use crate::{
    cli::{StartArgs, set_given},
    spsa::run::{SpsaConfig, run as run_spsa},
};

/// Tune engine parameters by SPSA over game pairs (OpenBench's schedule).
#[derive(clap::Args, Debug, Clone)]
pub struct SpsaArgs {
    /// Config file (TOML): `params` (OpenBench SPSA lines), `iterations`, `pairs`, `tc` or `nodes`,
    /// ...; or the name of a shipped one (`--config search`: configs/spsa/search.toml, built in).
    #[arg(long, value_name = "FILE.toml|NAME")]
    pub config: PathBuf,
    /// The evochess binary (default: next to tuner).
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// Iterations (replaces the config's `iterations`; the gains' schedule follows them).
    #[arg(long, value_name = "N")]
    pub iterations: Option<u64>,
    /// Time control per game, cutechess notation (`5+0.05`; `none`: no clock); alone (no node
    /// limit) unless --nodes is also given.
    #[arg(long)]
    pub tc: Option<String>,
    /// Node limit per move; alone (no clock) unless --tc is also given.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games played at once.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Output directory (checkpoint, values.csv/svg, tuned.toml, each iteration's games).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub policy: StartArgs,
    #[command(flatten)]
    pub broker: super::BrokerArgs,
}

pub fn run(args: SpsaArgs) -> anyhow::Result<()> {
    let mut cfg = SpsaConfig::load(&crate::paths::config_path("spsa", &args.config)?)?;
    set_given!(args; concurrency => cfg.concurrency, out => cfg.out_dir, iterations => cfg.iterations);
    super::override_budget(args.nodes, args.tc.as_deref(), &mut cfg.nodes, &mut cfg.tc)?;
    cfg.broker = args.broker.config()?;
    if let Some(e) = &args.engine {
        cfg.engine = Some(e.clone());
    }
    let tuned = run_spsa(&cfg, args.policy.start(), |plan| println!("{plan}"))?;
    for p in &tuned {
        println!(
            "{}, {}, {:.3}, {}, {}, {}, {}",
            p.name,
            if p.integer { "int" } else { "float" },
            p.value,
            p.min,
            p.max,
            p.c_end,
            p.r_end
        );
    }
    print!("{}", super::best_file_text("tuned parameters", &cfg.out_dir.join("tuned.toml")));
    Ok(())
}
