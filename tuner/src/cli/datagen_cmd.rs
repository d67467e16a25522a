//! `tuner datagen`: self-play training positions (see [`crate::datagen`]), and
//! `tuner datagen export FILE...`, their `FEN | score | result` lines.

use std::{io::Write, path::PathBuf};

use evochess::params::Params;

use arena::adjudicate::AdjudicationConfig;

use super::StartArgs;
use crate::datagen::{self, DatagenConfig, Filter, play::PlaySettings};

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct DatagenArgs {
    #[command(subcommand)]
    pub command: Option<DatagenCommand>,
    #[command(flatten)]
    pub generate: GenerateArgs,
}

#[derive(clap::Subcommand, Debug)]
pub enum DatagenCommand {
    /// Print `FEN | score | result` lines of shards: score in centipawns from the side to move's
    /// view, result from white's view (1.0, 0.5, 0.0).
    Export(ExportArgs),
}

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// Shard files (`shard-NNNNN.bin`).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Every position, also those the shard's filter skips.
    #[arg(long)]
    pub all: bool,
}

/// `off`, or the rule's `key=value` list.
fn rule<T: std::str::FromStr<Err = String>>(s: &str) -> Result<Option<T>, String> {
    if s == "off" { Ok(None) } else { s.parse().map(Some) }
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Games in all (a resumed run may raise it).
    #[arg(long, required = true)]
    pub games: Option<u64>,
    /// Node limit of each move's search.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Master seed: game i's opening and random plies derive from (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output directory (shards, progress.json, datagen.json).
    #[arg(long, required = true, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Opening book: EPD, PGN or Polyglot .bin (default: the built-in openings/gnuchess-8ply.epd).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random legal moves after the opening, before the recorded game.
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Draw the random plies again while a search of --nodes scores the start beyond ±CP
    /// centipawns (`off`: keep every start).
    #[arg(long, value_name = "CP|off", default_value = "200")]
    pub max_start_score: String,
    /// Games played at once, one search thread each (the output does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Kept positions at which a shard is closed.
    #[arg(long, default_value_t = 250_000)]
    pub shard_positions: u64,
    /// Transposition table of each game's searcher, MiB.
    #[arg(long, value_name = "MB", default_value_t = 8)]
    pub hash: usize,
    /// Engine parameters (TOML) of both sides (default: the built-in defaults).
    #[arg(long, value_name = "FILE.toml")]
    pub params: Option<PathBuf>,
    /// Keep every position: also those in check and those whose best move is a capture or a
    /// promotion.
    #[arg(long)]
    pub keep_all: bool,
    /// Also skip positions whose |score| is above CP centipawns.
    #[arg(long, value_name = "CP")]
    pub max_score: Option<u32>,
    /// Draw adjudication, `movenumber=N movecount=M score=S`, or `off`.
    #[arg(long, value_name = "RULE", default_value = "movenumber=40 movecount=8 score=10")]
    pub draw: String,
    /// Resign adjudication, `movecount=N score=S [twosided=true]`, or `off`.
    #[arg(long, value_name = "RULE", default_value = "movecount=3 score=1000 twosided=true")]
    pub resign: String,
    /// Full moves after which the game is drawn, `N` or `moves=N [result=draw|material]`, or `off`.
    #[arg(long, value_name = "RULE", default_value = "200")]
    pub maxmoves: String,
    /// Syzygy tables: positions inside them after a capture or pawn move get the table's result.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<PathBuf>,
    #[command(flatten)]
    pub policy: StartArgs,
}

pub fn run(args: DatagenArgs) -> anyhow::Result<()> {
    match args.command {
        Some(DatagenCommand::Export(a)) => export(a),
        None => generate(args.generate),
    }
}

fn export(a: ExportArgs) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match datagen::export(&a.files, a.all, &mut out).and_then(|n| {
        out.flush()?;
        Ok(n)
    }) {
        Ok(n) => {
            log::info!("{n} positions");
            Ok(())
        }
        Err(e) if datagen::is_broken_pipe(&e) => Ok(()),
        Err(e) => Err(e),
    }
}

fn generate(a: GenerateArgs) -> anyhow::Result<()> {
    let params = match &a.params {
        Some(p) => Params::load(p)?,
        None => Params::default(),
    };
    let (Some(games), Some(out)) = (a.games, a.out) else {
        anyhow::bail!("--games and --out are required");
    };
    if a.concurrency == 0 {
        anyhow::bail!("--concurrency must be at least 1");
    }
    let cfg = DatagenConfig {
        games,
        seed: a.seed,
        play: PlaySettings {
            nodes: a.nodes,
            random_plies: a.random_plies,
            max_start_score: match a.max_start_score.as_str() {
                "off" => None,
                cp => Some(cp.parse().map_err(|_| {
                    anyhow::anyhow!("--max-start-score `{cp}`: expected centipawns (a whole number ≥ 0) or `off`")
                })?),
            },
            adjudication: AdjudicationConfig {
                draw: rule(&a.draw).map_err(|e| anyhow::anyhow!("--draw `{}`: {e}", a.draw))?,
                resign: rule(&a.resign).map_err(|e| anyhow::anyhow!("--resign `{}`: {e}", a.resign))?,
                maxmoves: rule(&a.maxmoves).map_err(|e| anyhow::anyhow!("--maxmoves `{}`: {e}", a.maxmoves))?,
                tb_path: a.syzygy.clone(),
                ..AdjudicationConfig::default()
            },
        },
        concurrency: a.concurrency,
        shard_positions: a.shard_positions,
        hash_mb: a.hash,
        filter: if a.keep_all {
            Filter { max_score: a.max_score, ..Filter::ALL }
        } else {
            Filter { max_score: a.max_score, ..Filter::default() }
        },
        openings: a.openings,
        params,
        syzygy: a.syzygy,
        out,
        start: a.policy.start(),
    };
    let each = crate::progress::nodes_game_seconds(cfg.play.nodes, crate::progress::measured_nps().unwrap_or(0.0));
    let at_once = cfg.concurrency.max(1);
    let plan = crate::progress::Plan::new("datagen")
        .part(format!(
            "{games} self-play games at {} nodes a move with {}, {} random plies first{}",
            cfg.play.nodes,
            a.params.as_ref().map_or_else(|| "the engine's defaults".to_string(), |p| p.display().to_string()),
            cfg.play.random_plies,
            cfg.openings.as_ref().map_or_else(String::new, |o| format!(" after an opening of {}", o.display()))
        ))
        .part(format!("{at_once} at once; shards of {} positions in {}", cfg.shard_positions, cfg.out.display()))
        .eta(crate::progress::total_seconds(games, each, at_once), at_once, "games");
    println!("{plan}");
    let summary = datagen::run::run(&cfg)?;
    print!("{}", summary.text(&cfg.out));
    Ok(())
}
