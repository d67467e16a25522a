//! `tuner pipeline`: evolve xN -> coevolve -> search-evolve -> verification, with a report.

use std::path::PathBuf;

use crate::pipeline::{self, PipelineConfig};

/// Run the whole EVOL* method and write a Markdown report of §V's tables and charts.
#[derive(clap::Args, Debug, Clone)]
pub struct PipelineArgs {
    /// Pipeline config (configs/pipeline/smoke.toml, configs/pipeline/full.toml), or the name of
    /// a shipped one (`smoke`, `medium`, `full`, `evol-star`; built in, so from any directory).
    #[arg(value_name = "pipeline.toml|NAME")]
    pub config: PathBuf,
    /// Output directory (overrides the config's out_dir).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The evochess binary (default: next to tuner).
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// Parallel games and fitness threads (0 = all cores), for every stage: overrides the
    /// config's `concurrency` and the stages' `threads`/`concurrency`.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Continue every stage from its checkpoints and journals.
    #[arg(long)]
    pub resume: bool,
    /// Discard every stage's checkpoints and start over.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
}

pub fn run(args: PipelineArgs) -> anyhow::Result<()> {
    let mut cfg = PipelineConfig::load(&crate::paths::config_path("pipeline", &args.config)?)?;
    if let Some(o) = args.out {
        cfg.out_dir = o;
    }
    if let Some(e) = args.engine {
        cfg.engine = Some(e);
    }
    if let Some(c) = args.concurrency {
        cfg.force_concurrency(c);
    }
    println!("{}", plan(&args.config, &cfg));
    let started = std::time::Instant::now();
    let report = pipeline::run(&cfg, args.resume, args.force)?;
    println!("pipeline finished in {:.1} s; report: {}", started.elapsed().as_secs_f64(), report.display());
    print!("{}", super::best_file_text("EVOL* parameters", &cfg.out_dir.join("params/evol-star.toml")));
    Ok(())
}

/// The pipeline's plan line: each stage's config, the verification's opponents and games. Each
/// stage logs its own plan (with its ETA) and shows its own bar when it begins.
fn plan(path: &std::path::Path, cfg: &PipelineConfig) -> crate::progress::Plan {
    let stage = |name: &str, s: &pipeline::config::Stage| {
        let file = s.config.as_ref().map_or_else(|| "its defaults".to_string(), |p| p.display().to_string());
        let keys: Vec<&str> = s.overrides.keys().map(String::as_str).collect();
        let set = if keys.is_empty() { String::new() } else { format!(", setting {}", keys.join(", ")) };
        format!("{name} ({file}{set})")
    };
    let v = &cfg.verify;
    let opponents: u64 = v.opponents.iter().map(|o| u64::from(o.games.unwrap_or(v.games))).sum();
    crate::progress::Plan::new("pipeline")
        .part(format!(
            "{}: {} -> {} -> {} -> verification",
            path.display(),
            stage("evolve", &cfg.evolve),
            stage("coevolve", &cfg.coevolve),
            stage("search-evolve", &cfg.search_evolve)
        ))
        .part(format!(
            "verification: {} opponents, {opponents} games{}",
            v.opponents.len(),
            if v.internal_matches { " and the internal matches" } else { "" }
        ))
        .part(format!("out {}; ETA: each stage logs its plan and ETA as it begins", cfg.out_dir.display()))
}
