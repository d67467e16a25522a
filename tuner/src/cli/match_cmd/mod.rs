//! `tuner match | gauntlet | roundrobin`: cutechess-cli-like engine tournaments.
//!
//! ```text
//! tuner match -engine name=a cmd=/usr/games/stockfish option.Hash=16 \
//!             -engine name=b cmd=/usr/games/phalanx proto=xboard \
//!             -each tc=10+0.1 timemargin=100 -openings file=book.epd order=random \
//!             -rounds 50 -concurrency 2 -pgnout out.pgn -sprt elo0=0 elo1=10
//! ```
//!
//! # Two dialects
//!
//! The command lines of cutechess-cli and of fastchess run unchanged, each with its tool's
//! meaning where the two differ. A command line is read as fastchess's when it uses syntax only
//! fastchess has ([`Dialect::of`]: `-output format=fastchess`, `key=value` tokens in `-pgnout` or
//! `-epdout`, `-sprt ... model=`, `-report`, `-log`, `-use-affinity`, `-force-concurrency`,
//! `-config`, `-autosaveinterval`, `-show-latency`); otherwise as cutechess's. What depends on it:
//!
//! * The `-games` default: 1 (cutechess), 2 (fastchess); so cutechess's `-rounds 10` between two
//!   engines is 10 games, fastchess's 20. (`-rounds` defaults to 1 for both: fastchess's own
//!   default, 2, would double the games of lines that give only `-games`, as bench/sprt.sh does.)
//! * `-sprt elo0= elo1=` without `model=`: cutechess's BayesElo test ([`SprtModel::Cutechess`],
//!   cutechess-cli 1.3's formulas) in cutechess's dialect, normalized Elo (fastchess's default)
//!   in fastchess's. `model=normalized|logistic|bayesian|cutechess` always wins.
//!
//! `tuner match` with more than two engines is cutechess's default tournament, a round robin;
//! `-tournament gauntlet|round-robin` (cutechess) or `gauntlet|roundrobin` (fastchess) picks the
//! subcommand (see [`super::cutechess_style_args`]). Every run ends with the ranked standings
//! table (`Rank Name Elo +/- Games Score Draw`) before `Finished match`.
//!
//! The parts: `args` is the command line ([`MatchArgs`], [`Dialect`]), `config` turns it into
//! the match's configuration ([`config`]), and `report` prints the match as it goes and at its end.

mod args;
mod config;
mod report;

pub use args::{Dialect, MatchArgs};
pub use config::config;
pub(crate) use config::parse_sprt;
pub use report::print_summary;

use std::{path::PathBuf, time::Duration};

use anyhow::{Context as _, bail};
use arena::{
    results::ranking_table,
    runner::{MatchConfig, Tournament, play_match},
    stats::SprtModel,
};

use super::{latency::Latencies, parse_bool, saved_match::Saving};
use crate::progress::Progress;
use config::parse_report;
use report::{CliObserver, fastchess_labels, parse_output_style, report_text};

/// `-log file=F level=L ...`: the opened log file and level, or `None` without `-log`.
pub fn log_target(tokens: &[String]) -> anyhow::Result<Option<(std::fs::File, log::LevelFilter)>> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let (mut path, mut level, mut append) = (None, log::LevelFilter::Info, false);
    for t in tokens {
        match t.split_once('=') {
            Some(("file", v)) if !v.is_empty() => path = Some(PathBuf::from(v)),
            Some(("level", v)) => {
                level = match v.to_ascii_lowercase().as_str() {
                    "trace" => log::LevelFilter::Trace,
                    "debug" => log::LevelFilter::Debug,
                    "info" => log::LevelFilter::Info,
                    "warn" | "warning" => log::LevelFilter::Warn,
                    "error" | "fatal" => log::LevelFilter::Error,
                    _ => bail!("-log: level `{v}` (expected trace, debug, info, warn, error or fatal)"),
                }
            }
            Some(("append", v)) => append = parse_bool("-log", "append", v)?,
            // fastchess's engine= and realtime=: engine I/O is logged at trace, and every line
            // is written as it happens.
            Some((k @ ("engine" | "realtime"), v)) => {
                parse_bool("-log", k, v)?;
            }
            _ => bail!("-log: unknown setting `{t}` (expected file=, level=, engine=, realtime=, append=)"),
        }
    }
    let path = path.context("-log needs file=FILE")?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(&path)
        .with_context(|| format!("-log: cannot open {}", path.display()))?;
    Ok(Some((file, level)))
}

/// Warnings about a match that will run but not as its author likely meant.
fn warn_about_the_setup(args: &MatchArgs, cfg: &MatchConfig) {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cfg.executor.is_none() && cfg.concurrency > cpus && !args.force_concurrency {
        log::warn!(
            "-concurrency {} exceeds the {cpus} CPUs: engines will wait for CPU time and clocked games are distorted \
             (-force-concurrency silences this)",
            cfg.concurrency
        );
    }
    // Engines searching a fixed number of nodes (or plies) from the same start play the same
    // game every time: a match of them measures one game, however many are played.
    if cfg.openings.is_none() && cfg.engines.iter().all(|e| e.limits.is_untimed()) && cfg.planned_games() > 2 {
        log::warn!(
            "every engine plays by nodes=/depth= and there is no -openings: deterministic engines repeat the same \
             games from the start position (give an opening book, e.g. -openings file=book.epd order=random)"
        );
    }
}

/// From this many games a match prints its plan line first (a short one starts with its games).
pub const PLAN_GAMES: u64 = 100;

/// A long match's plan line: the engines, the games, the limits, the openings and an ETA.
fn plan(cfg: &MatchConfig, eta: Option<f64>) -> crate::progress::Plan {
    let what = match cfg.tournament {
        Tournament::Match => "match",
        Tournament::Gauntlet => "gauntlet",
        Tournament::RoundRobin => "roundrobin",
    };
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    let limits: Vec<String> = cfg.engines.iter().map(|e| crate::progress::limits_text(&e.limits)).collect();
    let limits = if limits.iter().all(|l| *l == limits[0]) { limits[0].clone() } else { limits.join(" / ") };
    let openings =
        cfg.openings.as_ref().map_or_else(|| "the start position".to_string(), |o| o.file.display().to_string());
    crate::progress::Plan::new(what)
        .part(format!(
            "{} games of {} at {limits}, {} at once",
            cfg.planned_games(),
            names.join(", "),
            cfg.concurrency.max(1)
        ))
        .part(format!("openings {openings}"))
        .eta(eta, cfg.concurrency.max(1), "games")
}

/// Runs `tuner match|gauntlet|roundrobin`.
pub fn run(mut args: MatchArgs, tournament: Tournament) -> anyhow::Result<()> {
    let mut saving = if args.config.is_empty() {
        if args.autosaveinterval.is_some() {
            log::warn!("-autosaveinterval: without -config nothing is saved (the journal, if any, keeps every pair)");
        }
        None
    } else {
        let subcommand = match tournament {
            Tournament::Match => "match",
            Tournament::Gauntlet => "gauntlet",
            Tournament::RoundRobin => "roundrobin",
        };
        Some(Saving::prepare(
            &args.config,
            args.autosaveinterval,
            subcommand,
            args.command_line.as_deref(),
            args.resume,
            &mut args.state,
            !args.pgnout.is_empty(),
        )?)
    };
    let cfg = config(&args, tournament)?;
    if let Some(s) = &mut saving {
        s.start(cfg.planned_games(), cfg.state.as_deref())?;
    }
    let at_once = cfg.concurrency.max(1);
    // The slowest engine's games set the pace.
    let game =
        cfg.engines.iter().map(|e| crate::progress::game_seconds(&e.limits)).reduce(|a, b| Some(a?.max(b?))).flatten();
    if cfg.planned_games() >= PLAN_GAMES {
        println!("{}", plan(&cfg, crate::progress::total_seconds(cfg.planned_games(), game, at_once)));
    }
    let bar = Progress::new(cfg.planned_games(), "games", crate::progress::total_seconds(1, game, at_once));
    bar.enable_steady_tick(Duration::from_millis(500));
    let mut penta = parse_report(&args.report)?;
    if penta && cfg.sprt.is_some_and(|s| s.model == SprtModel::Bayesian) {
        log::warn!("the bayesian SPRT model has no pentanomial form: pentanomial reports are off");
        penta = false;
    }
    warn_about_the_setup(&args, &cfg);
    let fastchess = parse_output_style(&args.output)?.then(|| fastchess_labels(&cfg));
    let mut obs = CliObserver {
        bar,
        interval: args.ratinginterval,
        reported: 0,
        planned: 0,
        sprt: cfg.sprt,
        quiet: args.quiet,
        penta,
        fastchess,
        saving,
        latency: args.show_latency.then(|| Latencies::new(cfg.engines.iter().map(|e| e.name.clone()).collect())),
    };
    if args.srand.is_none() && !args.resume {
        obs.say(&format!("Random seed: {} (repeat with -srand {0})", cfg.seed));
    }
    let results = play_match(&cfg, &mut obs)?;
    if let Some(mut s) = obs.saving.take() {
        s.finish(results.games_played, results.pairs.clone())?;
    }
    let report = report_text(&results.pairs, results.sprt.as_ref(), penta, obs.fastchess.as_ref());
    print_summary(&results, &report);
    if let Some(latency) = &obs.latency {
        println!("{}", latency.summary().trim_end());
    }
    println!("{}", ranking_table(&results.totals).trim_end());
    // The last line of cutechess-cli and fastchess alike; scripts wait for it.
    println!("Finished match");
    Ok(())
}
