//! `tuner`: evolves evochess parameters and plays engine matches.

use clap::Parser;

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
    Evolve(tuner::cli::evolve_cmd::EvolveArgs),
}

fn main() -> anyhow::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let cli = Cli::parse();
    match cli.command {
        Command::Evolve(args) => tuner::cli::evolve_cmd::run(args),
    }
}
