//! `tuner`: evolves evochess parameters and plays engine matches.

use std::process::ExitCode;

use arena::runner::Tournament;
use clap::Parser;
use tuner::cli;

/// Genetic-algorithm tuner and UCI match runner for evochess.
#[derive(Parser)]
#[command(name = "tuner", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Evolve evaluation weights from GM games (David et al. 2014).
    Evolve(cli::evolve_cmd::EvolveArgs),
    /// Play a match between two UCI engines (cutechess-cli style options).
    Match(cli::match_cmd::MatchArgs),
    /// Play the first engine against each of the others.
    Gauntlet(cli::match_cmd::MatchArgs),
    /// Play every engine against every other.
    Roundrobin(cli::match_cmd::MatchArgs),
    /// Build a balanced EPD opening suite from a Polyglot book or random lines.
    Openings(cli::openings_cmd::OpeningsArgs),
    /// Evolve piece values by quick tournaments (Belmonte 2013).
    Quick(cli::quick_cmd::QuickArgs),
    /// Evolve Aksenov's 26 evaluation parameters by round robins (Aksenov 2004).
    #[command(name = "roundrobin-ga")]
    RoundrobinGa(cli::roundrobin_ga_cmd::RoundRobinGaArgs),
    /// Coevolve organisms by round robins (David et al. 2014 III-C), racing or a fixed pool.
    Coevolve(cli::coevolve_cmd::CoevolveArgs),
    /// Evolve the selective-search parameters on an EPD suite (David et al. 2014 IV).
    SearchEvolve(cli::search_evolve_cmd::SearchEvolveArgs),
    /// Tune engine parameters by SPSA over game pairs (fishtest/OpenBench schedule).
    Spsa(cli::spsa_cmd::SpsaArgs),
    /// Tune evaluation parameters by Texel's method on quiet positions from games with results.
    Texel(cli::texel_cmd::TexelArgs),
    /// Self-play training positions in compact shards (`datagen export` prints them).
    Datagen(cli::datagen_cmd::DatagenArgs),
    /// Solve counts of a UCI engine on EPD suites (bm/am, STS points).
    Epd(cli::epd_cmd::EpdArgs),
    /// evolve xN -> coevolve -> search-evolve -> verification, with a Markdown report.
    Pipeline(cli::pipeline_cmd::PipelineArgs),
    /// Promote a candidate parameter file to the default if it passes an SPRT against it
    /// (exit 0 promoted, 3 rejected, 4 no decision within the cap).
    Promote(cli::promote_cmd::PromoteArgs),
    /// Serve the games and fitness tasks of commands given --broker (Redis Streams).
    Worker(cli::worker_cmd::WorkerArgs),
    /// List the runs on a broker (`runs list`) or cancel one (`runs cancel ID`).
    Runs(cli::runs_cmd::RunsArgs),
}

/// Errors print as `error: outer: cause: ...` (the chain, each cause once) and exit 1, never
/// with a backtrace (anyhow's `Debug`, what `main() -> Result` prints, adds one when
/// RUST_BACKTRACE is set).
fn main() -> ExitCode {
    let args = match cli::cutechess_style_args(std::env::args_os()) {
        Ok(args) => args,
        Err(e) => {
            // Exit status 2, as clap's own usage errors.
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // `-config file=NAME` alone (fastchess): the match saved there, resumed where it was started.
    let args = match cli::saved_match::resume_args(args) {
        Ok((args, None)) => args,
        Ok((args, Some(dir))) => {
            if let Err(e) = std::env::set_current_dir(&dir) {
                eprintln!("error: -config: cannot change to {}, where the match was started: {e}", dir.display());
                return ExitCode::FAILURE;
            }
            args
        }
        Err(e) => {
            eprintln!("error: {}", evochess::error_chain(e.as_ref()));
            return ExitCode::FAILURE;
        }
    };
    let mut cli = Cli::parse_from(&args);
    if let Command::Match(a) | Command::Gauntlet(a) | Command::Roundrobin(a) = &mut cli.command {
        a.command_line = args[2..].iter().map(|a| a.to_str().map(str::to_string)).collect();
    }
    // `-log file=F level=L` (fastchess) sends the log, engine I/O included at trace, to F;
    // `-debug` (cutechess) is `level=trace`, to stderr without -log (stdout is the match's).
    let (log, debug) = match &cli.command {
        Command::Match(a) | Command::Gauntlet(a) | Command::Roundrobin(a) => (a.log.as_slice(), a.debug.is_some()),
        _ => (&[][..], false),
    };
    let mut logger = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"));
    if debug {
        logger.filter_level(log::LevelFilter::Trace);
    }
    match cli::match_cmd::log_target(log) {
        Ok(None) => {}
        Ok(Some((file, level))) => {
            let level = if debug { log::LevelFilter::Trace } else { level };
            logger.filter_level(level).target(env_logger::Target::Pipe(Box::new(file)));
        }
        Err(e) => {
            eprintln!("error: {}", evochess::error_chain(e.as_ref()));
            return ExitCode::from(2);
        }
    }
    if let Err(e) = tuner::progress::init_logger(logger) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    match run(cli.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", evochess::error_chain(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}

/// The command's exit status: success, or `tuner promote`'s outcome.
fn run(command: Command) -> anyhow::Result<ExitCode> {
    let done = match command {
        Command::Evolve(a) => cli::evolve_cmd::run(a),
        Command::Match(a) => cli::match_cmd::run(a, Tournament::Match),
        Command::Gauntlet(a) => cli::match_cmd::run(a, Tournament::Gauntlet),
        Command::Roundrobin(a) => cli::match_cmd::run(a, Tournament::RoundRobin),
        Command::Openings(a) => cli::openings_cmd::run(a),
        Command::Quick(a) => cli::quick_cmd::run(a),
        Command::RoundrobinGa(a) => cli::roundrobin_ga_cmd::run(a),
        Command::Coevolve(a) => cli::coevolve_cmd::run(a),
        Command::SearchEvolve(a) => cli::search_evolve_cmd::run(a),
        Command::Spsa(a) => cli::spsa_cmd::run(a),
        Command::Texel(a) => cli::texel_cmd::run(a),
        Command::Datagen(a) => cli::datagen_cmd::run(a),
        Command::Epd(a) => cli::epd_cmd::run(a),
        Command::Pipeline(a) => cli::pipeline_cmd::run(a),
        Command::Worker(a) => cli::worker_cmd::run(a),
        Command::Runs(a) => cli::runs_cmd::run(a),
        Command::Promote(a) => return cli::promote_cmd::run(a).map(ExitCode::from),
    };
    done.map(|()| ExitCode::SUCCESS)
}
