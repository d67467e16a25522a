//! The `evochess` binary: with no subcommand it speaks UCI on stdin/stdout (what GUIs and the
//! tuner run); the subcommands are tools for developers and CI.

use std::{io::BufReader, path::PathBuf, process::ExitCode};

use clap::{Parser, Subcommand};
use evochess::{
    Engine, Params,
    uci::{self, out::Out},
};
use shakmaty::{CastlingMode, Chess, fen::Fen};

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

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree, per root move and in total.
    Perft {
        /// Plies to expand.
        depth: u32,
        /// Position to start from (default: the start position); quote it or give it as words.
        #[arg(num_args = 0.., trailing_var_arg = true, allow_hyphen_values = true)]
        fen: Vec<String>,
    },
    /// Print the parameter set (after `--params`).
    Params {
        /// One OpenBench/fishtest SPSA line per parameter: `name, int, value, min, max, c_end, r_end`.
        #[arg(long, conflicts_with = "dump", required_unless_present = "dump")]
        spsa: bool,
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
                eprintln!("error: --params: {e}");
                return ExitCode::from(2);
            }
        },
    };
    match run(cli.command, params) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Option<Command>, params: Params) -> anyhow::Result<()> {
    match command {
        None => {
            let mut engine = Engine::new();
            engine.set_params(params);
            uci::run(engine, BufReader::new(std::io::stdin()), Out::stdout());
        }
        Some(Command::Perft { depth, fen }) => {
            let pos = if fen.is_empty() { Chess::default() } else { parse_fen(&fen.join(" "))? };
            println!("{}", uci::perft_divide(&pos, depth));
        }
        Some(Command::Params { spsa, dump: _ }) => {
            if spsa {
                for line in params.spsa_lines() {
                    println!("{line}");
                }
            } else {
                print!("{}", params.to_toml());
            }
        }
    }
    Ok(())
}

fn parse_fen(text: &str) -> anyhow::Result<Chess> {
    let fen: Fen = text.parse().map_err(|e| anyhow::anyhow!("invalid FEN `{text}`: {e}"))?;
    fen.into_position(CastlingMode::Standard).map_err(|e| anyhow::anyhow!("invalid position `{text}`: {e}"))
}
