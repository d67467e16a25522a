//! Subcommand implementations: each module holds its clap arguments and its `run`.

pub mod evolve_cmd;
