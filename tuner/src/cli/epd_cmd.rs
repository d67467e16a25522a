//! `tuner epd`: solve counts of a UCI engine process on EPD suites.
//!
//! ```text
//! tuner epd --engine cmd=target/release/evochess params=params/evolved/coevolved.toml \
//!           --suite ../shared/data/tests/wac.epd --held ../shared/data/tests/bk.epd --movetime 5
//! tuner epd --engine /usr/games/stockfish option.Hash=16 --suite sts01.epd --nodes 100000
//! ```

use std::{path::PathBuf, time::Duration};

use anyhow::{Context, bail};
use arena::{engine::spec::EngineSpec, files::write_atomic};
use clap::Args;

use crate::epd::{self, PositionResult};

/// Solve counts (bm/am) and STS points of one engine on EPD suites.
#[derive(Args, Debug, Clone)]
pub struct EpdArgs {
    /// The engine: a command, or key=value tokens as for `tuner match -engine`
    /// (cmd=PATH [name=N] [arg=A] [option.NAME=VALUE] [params=FILE.toml]).
    #[arg(long, num_args = 1.., required = true, value_name = "CMD|KEY=VALUE")]
    pub engine: Vec<String>,
    /// evochess parameter file for the engine (same as the engine token params=FILE).
    #[arg(long, value_name = "FILE.toml")]
    pub params: Option<PathBuf>,
    /// A suite to solve; repeat for several.
    #[arg(long, required = true, value_name = "FILE.epd")]
    pub suite: Vec<PathBuf>,
    /// A held-out suite (not used in training), reported separately; repeatable.
    #[arg(long, value_name = "FILE.epd")]
    pub held: Vec<PathBuf>,
    /// Seconds per position (`go movetime`).
    #[arg(long, value_name = "SECS")]
    pub movetime: Option<f64>,
    /// Nodes per position (`go nodes`).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per position (`go depth`).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Engine processes searching different positions at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seconds past the move time after which an engine counts as stalled (it is restarted once).
    #[arg(long, default_value_t = 60.0)]
    pub stall: f64,
    /// Write every position's result and the totals as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Print only the totals.
    #[arg(long)]
    pub quiet: bool,
}

impl EpdArgs {
    /// The engine spec with the limits from the command line.
    pub fn spec(&self) -> anyhow::Result<EngineSpec> {
        let tokens: Vec<String> = self
            .engine
            .iter()
            .map(|t| if t.contains('=') { t.clone() } else { format!("cmd={t}") })
            .chain(self.params.iter().map(|p| format!("params={}", p.display())))
            .collect();
        let mut spec = EngineSpec::parse::<String>(&[], &tokens)?;
        if self.movetime.is_none() && self.nodes.is_none() && self.depth.is_none() {
            bail!("give a limit per position: --movetime SECS, --nodes N or --depth N");
        }
        if let Some(s) = self.movetime {
            if !(s.is_finite() && s > 0.0) {
                bail!("--movetime must be a positive number of seconds, got {s}");
            }
            spec.limits.movetime_ms = Some((s * 1000.0).round().max(1.0) as u64);
        }
        if self.nodes == Some(0) || self.depth == Some(0) {
            bail!("--nodes and --depth must be positive");
        }
        spec.limits.nodes = self.nodes.or(spec.limits.nodes);
        spec.limits.depth = self.depth.or(spec.limits.depth);
        spec.limits.clock = None;
        Ok(spec)
    }
}

pub fn run(args: EpdArgs) -> anyhow::Result<()> {
    let spec = args.spec()?;
    if !(args.stall.is_finite() && args.stall > 0.0) {
        bail!("--stall must be a positive number of seconds");
    }
    let positions = epd::load_suites(&args.suite, &args.held)?;
    log::info!("{}: {} positions", spec.name, positions.len());
    let quiet = args.quiet;
    let results = epd::solve_suite(&spec, &positions, args.concurrency, Duration::from_secs_f64(args.stall), &|r| {
        if !quiet {
            log::debug!("{} {} {}", r.id, r.bestmove, r.solved);
        }
    })?;
    let report = epd::format_report(&spec.name, &results);
    if args.quiet {
        for line in report.lines().filter(|l| l.starts_with(&format!("{}:", spec.name))) {
            println!("{line}");
        }
    } else {
        print!("{report}");
    }
    if let Some(path) = &args.json {
        let doc = EpdJson { engine: spec.name.clone(), summary: epd::summarize(&results), positions: results };
        let text = serde_json::to_string_pretty(&doc)?;
        write_atomic(path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// The `--json` document.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct EpdJson {
    pub engine: String,
    pub summary: Vec<epd::SuiteSummary>,
    pub positions: Vec<PositionResult>,
}
