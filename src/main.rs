//! The `evochess` binary: with no subcommand it speaks UCI on stdin/stdout (what GUIs and the
//! tuner run); the subcommands are tools for developers and CI.

use std::{
    io::{BufReader, Write},
    path::{Path, PathBuf},
    process::ExitCode,
    time::Duration,
};

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use evochess::{
    Engine, Params, bench,
    limits::Limits,
    measure::{
        epd_suite::{parse_epd, solve_epd_suite},
        static_one_ply,
    },
    uci::{self, out::Out},
};
use shakmaty::{CastlingMode, Chess, fen::Fen};

/// Largest EPD suite `evochess epd` reads (the biggest suites are a few MB; `/dev/zero` is endless).
const MAX_EPD_BYTES: u64 = 256 << 20;

/// `println!` that returns write errors instead of panicking (a reader such as `head -1` may
/// close the pipe early).
macro_rules! say {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout().lock(), $($arg)*)?
    };
}

/// evochess: a UCI chess engine whose every evaluation and search parameter loads from TOML.
///
/// Run without a subcommand to start the UCI protocol on stdin/stdout.
#[derive(Parser)]
#[command(version, about, long_about)]
struct Cli {
    /// Load the engine parameters from this TOML file first (keys it omits keep their defaults).
    /// Applies to every subcommand and to the UCI loop.
    #[arg(long, global = true, value_name = "FILE")]
    params: Option<PathBuf>,

    /// Tuning mode: `uci` also lists every parameter as a spin option (as the `ShowTunables`
    /// option does). `setoption` accepts parameter names with or without it.
    #[arg(long)]
    tune: bool,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Search the fixed bench positions to a fixed depth; the last line is `N nodes M nps`
    /// (OpenBench format). N is the bench signature quoted as `Bench: N` in commit messages.
    Bench {
        /// Search depth [default: the bench's standard depth].
        depth: Option<u32>,
        /// Search threads (Lazy SMP). With more than 1 the node count varies from run to run
        /// and is no signature: compare the times.
        #[arg(default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// Count the leaves of the legal move tree, per root move and in total.
    Perft {
        /// Plies to expand.
        depth: u32,
        /// Position to start from (default: the start position); quote it or give it as words.
        #[arg(num_args = 0.., trailing_var_arg = true, allow_hyphen_values = true)]
        fen: Vec<String>,
    },
    /// Search every position of an EPD test suite (`bm`/`am` records, e.g. WAC) and report how
    /// many are solved.
    Epd {
        /// The EPD file.
        file: PathBuf,
        /// Thinking time per position in milliseconds.
        #[arg(long, default_value_t = 1000, conflicts_with_all = ["depth", "nodes"])]
        movetime: u64,
        /// Search each position to this depth instead of for a time.
        #[arg(long, conflicts_with = "nodes")]
        depth: Option<u32>,
        /// Search each position for this many nodes instead of for a time: the count does not
        /// depend on the machine's speed or load, so runs on busy cores compare.
        #[arg(long)]
        nodes: Option<u64>,
        /// Transposition table size in MiB (cleared before each position).
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Speed of the 1-ply search used by the tuner's fast fitness (positions and static
    /// evaluations per second over the bench positions).
    BenchOneply {
        /// Minimum measuring time in milliseconds.
        #[arg(long, default_value_t = 2000)]
        millis: u64,
    },
    /// Print the parameter set (after `--params`).
    // Without a flag there is nothing to print: show the choices instead of an error.
    #[command(arg_required_else_help = true)]
    Params {
        /// One OpenBench/fishtest SPSA line per parameter: `name, int, value, min, max, c_end, r_end`
        /// (c_end: the declared step, else max(5% of the value, 1% of the range, 1), at most a
        /// quarter of the range; r_end 0.002).
        #[arg(long, conflicts_with = "dump")]
        spsa: bool,
        /// With --spsa: only the parameters matching these comma-separated patterns (name
        /// prefixes or globs with * and ?, e.g. `knight_mg,pst_knight_*`), at most --max-params.
        #[arg(long, requires = "spsa", value_name = "PATTERN[,PATTERN]")]
        only: Option<String>,
        /// Largest group --only may select (fishtest and OpenBench tune up to about 150 at once).
        #[arg(long, requires = "only", value_name = "N", default_value_t = evochess::params::spsa::DEFAULT_MAX_PARAMS)]
        max_params: usize,
        /// The whole parameter file as TOML, with each key's doc and range.
        #[arg(long)]
        dump: bool,
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let params = match &cli.params {
        None => Params::default(),
        Some(path) => match Params::load(path) {
            Ok(p) => p,
            Err(e) => {
                // Same exit code as clap's usage errors: the invocation was wrong.
                eprintln!("error: --params: {}", evochess::printable(&e.to_string()));
                return ExitCode::from(2);
            }
        },
    };
    match run(cli.command, params, cli.tune) {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`evochess params --spsa | head -1`): nothing left to say.
        Err(e) if e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) => {
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}", evochess::error_chain(e.as_ref()));
            ExitCode::FAILURE
        }
    }
}

fn run(command: Option<Command>, params: Params, tune: bool) -> anyhow::Result<()> {
    match command {
        None => {
            let mut engine = Engine::new();
            engine.set_params(params);
            uci::run(engine, BufReader::new(std::io::stdin()), Out::stdout(), tune);
        }
        Some(Command::Bench { depth, threads }) => {
            let result = bench::run_threads(depth.unwrap_or(bench::DEFAULT_DEPTH), &params, threads as usize);
            say!("{:.3} seconds", result.elapsed.as_secs_f64());
            say!("{result}");
        }
        Some(Command::Epd { file, movetime, depth, nodes, hash }) => epd(&file, movetime, depth, nodes, hash, &params)?,
        Some(Command::BenchOneply { millis }) => {
            let positions = bench::positions();
            let min = Duration::from_millis(millis);
            let one = static_one_ply::bench_positions(&positions, &params.eval, min);
            let (evals, secs) = static_one_ply::bench_eval(&positions, &params.eval, min);
            say!("1-ply searches: {} in {:.3} s, {} static evaluations", one.positions, one.seconds, one.evaluations);
            say!("static evaluations alone: {evals} in {secs:.3} s");
            say!(
                "{:.0} positions/s {:.0} evals/s (1-ply) {:.0} evals/s (raw)",
                one.positions_per_second(),
                one.evaluations_per_second(),
                evals as f64 / secs.max(1e-9)
            );
        }
        Some(Command::Perft { depth, fen }) => {
            let pos = if fen.is_empty() { Chess::default() } else { parse_fen(&fen.join(" "))? };
            say!("{}", uci::perft_divide(&pos, depth));
        }
        Some(Command::Params { spsa, only, max_params, dump: _ }) => {
            if spsa {
                let lines = match only {
                    Some(patterns) => {
                        params.spsa_lines_of(&evochess::params::spsa::select(&patterns, max_params).context("--only")?)
                    }
                    None => params.spsa_lines(),
                };
                for line in lines {
                    say!("{line}");
                }
            } else {
                write!(std::io::stdout().lock(), "{}", params.to_toml())?;
            }
        }
    }
    Ok(())
}

/// `evochess epd`: one line per position, then the solved count.
fn epd(
    file: &Path,
    movetime: u64,
    depth: Option<u32>,
    nodes: Option<u64>,
    hash: usize,
    params: &Params,
) -> anyhow::Result<()> {
    let text = evochess::input::read_text(file, MAX_EPD_BYTES).map_err(|e| match e {
        evochess::input::InputError::Io { reason, .. } => anyhow::anyhow!("cannot read {}: {reason}", file.display()),
        other => other.into(),
    })?;
    let entries = parse_epd(&text).with_context(|| format!("in {}", file.display()))?;
    let limits = match (depth, nodes) {
        (Some(d), _) => Limits::depth(d),
        (None, Some(n)) => Limits::nodes(n),
        (None, None) => Limits::movetime(Duration::from_millis(movetime)),
    };
    // The callback cannot return an error: keep the first write error for after the suite.
    let mut written = Ok(());
    let results = solve_epd_suite(&entries, params, &limits, hash, |r| {
        let best = r.best.map_or("0000".to_string(), |m| m.to_uci(CastlingMode::Standard).to_string());
        let verdict = if r.solved { "solved" } else { "FAILED" };
        if written.is_ok() {
            written =
                writeln!(std::io::stdout().lock(), "{}: {best} {verdict} ({} nodes, {} ms)", r.id, r.nodes, r.time_ms);
        }
    });
    written?;
    let solved = results.iter().filter(|r| r.solved).count();
    say!("solved {solved}/{} positions", results.len());
    Ok(())
}

fn parse_fen(text: &str) -> anyhow::Result<Chess> {
    let fen: Fen = text.parse().map_err(|e| anyhow::anyhow!("invalid FEN `{text}`: {e}"))?;
    fen.into_position(CastlingMode::Standard).map_err(|e| anyhow::anyhow!("invalid position `{text}`: {e}"))
}
