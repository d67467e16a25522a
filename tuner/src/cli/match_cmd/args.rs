//! The command line of `tuner match | gauntlet | roundrobin`, and whose dialect it is.

use std::path::PathBuf;

use arena::stats::SprtModel;
use clap::{ArgAction, Args};

/// Options shared by `match`, `gauntlet` and `roundrobin`. Single-dash spellings
/// (`-engine`, `-concurrency`) work as in cutechess-cli.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine: name=N cmd=PATH [dir=D] [arg=A]... [args="A B"] [proto=uci|xboard]
    /// [option.NAME=VALUE]... [tc=[MOVES/]SECS[+INC] | st=SECS] [nodes=N] [depth=N]
    /// [timemargin=MS] [params=FILE.toml] [restart=on]. xboard engines take no nodes= or
    /// params=, and st= in whole seconds. Repeat for each engine; in a gauntlet the first is the
    /// one tested.
    #[arg(long = "engine", num_args = 1, action = ArgAction::Append, value_name = "KEY=VALUE...", required = true)]
    pub engine: Vec<String>,
    /// Settings applied to every engine (same keys as -engine; an engine's own win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Opening suite: file=F [format=epd|pgn|polyglot] [order=random|sequential] [plies=N] [start=N].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub openings: Vec<String>,
    /// Rounds; each round plays -games games per pairing.
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// Games per pairing per round: 1 (cutechess's default; colours alternate from round to
    /// round) or even (openings played twice, colours swapped; 2 is fastchess's default).
    #[arg(long)]
    pub games: Option<u32>,
    /// Play each opening N times (cutechess; default and only other choice: 2, colour-swapped
    /// pairs, which is also the default without the flag when -games is even; 1 is -norepeat).
    /// With one game an encounter, cutechess's `-rounds 2N -repeat` is played as N rounds of pairs.
    #[arg(long, num_args = 0..=1, default_missing_value = "2", value_name = "N")]
    pub repeat: Option<u32>,
    /// Play both games of an opening with the same colours (fastchess).
    #[arg(long)]
    pub noswap: bool,
    /// The second engine takes White first in each pair (fastchess).
    #[arg(long)]
    pub reverse: bool,
    /// Milliseconds to wait between games (fastchess).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub wait: u64,
    /// Rating report options (fastchess): penta=false hides the pentanomial figures (Elo and
    /// LOS are then over games, in fastchess format) and takes the SPRT's LLR over games.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub report: Vec<String>,
    /// Log to a file (fastchess): file=F [level=trace|debug|info|warn|error|fatal] [engine=B]
    /// [realtime=B] [append=B]; level=trace records every line sent to and read from the engines.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub log: Vec<String>,
    /// Play the games on `tuner worker`s through a Redis broker (-concurrency is then theirs).
    #[command(flatten)]
    pub broker: crate::cli::BrokerArgs,
    /// Output style: format=cutechess (the default) or format=fastchess, whose rating reports
    /// are fastchess's blocks (`Results of A vs B ...:`, `Elo:`, `LOS:`, `Games:`,
    /// `Ptnml(0-2):`, `LLR:`). fastchess format starts each engine once more, before the
    /// match, to read its Threads and Hash for the block's header.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub output: Vec<String>,
    /// cutechess's -recover, which is always on here: an engine that crashes or stops answering
    /// loses the game it is in (the reason in the PGN and the `Finished game` line), is
    /// restarted for its next game, and the match goes on. There is no mode that stops the
    /// match at a crash; the flag is accepted so cutechess command lines run unchanged.
    #[arg(long)]
    pub recover: bool,
    /// Play every game on a fresh opening instead of colour-swapped pairs.
    #[arg(long)]
    pub norepeat: bool,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seed for opening order and book walks.
    /// Without it a fresh seed is drawn and printed (a --resume reuses the journal's seed).
    #[arg(long)]
    pub srand: Option<u64>,
    /// Write all games as PGN: cutechess `FILE [min] [fi]` or fastchess `file=FILE
    /// [notation=san|lan|uci] [append=true|false] [min=true|false]` (fastchess's per-move
    /// annotation keys such as nodes= are accepted and ignored). A fresh run appends to an
    /// existing FILE, as cutechess and fastchess do, unless append=false; --resume continues it.
    #[arg(long, num_args = 1.., value_name = "FILE|KEY=VALUE")]
    pub pgnout: Vec<String>,
    /// Write the final position of every game as EPD: `FILE` or `file=FILE [append=true|false]`.
    #[arg(long, num_args = 1.., value_name = "FILE|KEY=VALUE")]
    pub epdout: Vec<String>,
    /// Chess variant (OpenBench passes `standard`); only standard chess is played.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Machine-readable results (JSON), rewritten after every game pair.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Resume journal (default: PGNOUT.state.jsonl when -pgnout is given).
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Continue the match recorded in the state file, without replaying finished games.
    #[arg(long)]
    pub resume: bool,
    /// SPRT: elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic|bayesian];
    /// stops the match. As in fastchess the bounds are normalized Elo unless model= says
    /// otherwise (before models existed they were logistic: resume such a match with
    /// model=logistic). The LLR is over game pairs when there are pairs, over games otherwise,
    /// with -report penta=false, and always for bayesian (BayesElo), which also hides the
    /// pentanomial lines.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    /// Draw adjudication: movenumber=N movecount=M score=CP.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Vec<String>,
    /// Resign adjudication: movecount=N score=CP [twosided=true].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Vec<String>,
    /// Maximum game length: N, or moves=N result=draw|material (material: Belmonte's rule).
    #[arg(long, num_args = 1.., value_name = "N|KEY=VALUE")]
    pub maxmoves: Vec<String>,
    /// Syzygy directory for tablebase adjudication.
    #[arg(long, value_name = "DIR")]
    pub tb: Option<PathBuf>,
    /// Only adjudicate positions with at most this many pieces.
    #[arg(long)]
    pub tbpieces: Option<usize>,
    /// Tablebase adjudication ignores the 50-move rule: cursed wins count as wins.
    #[arg(long)]
    pub tbignore50: bool,
    /// Print the rating report (cutechess's `Score of` lines, or fastchess's blocks) every N
    /// games, as cutechess and fastchess do; 0: only the final report. Games in pairs are
    /// counted when the pair ends, so with an odd N a report may come a game late.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub ratinginterval: u64,
    /// Seconds an engine searching without a clock (nodes=/depth=) may take for one move. One
    /// that takes longer is told to `stop` and loses the game as stalled (PGN termination
    /// `stalled connection`; restarted for its next game unless it answers the `stop` at once),
    /// and a `warning:` line names it: an engine that ignores `go nodes` shows up this way.
    /// Clocked engines lose on time instead. The tuner's own option (cutechess and fastchess
    /// have none).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub stalltimeout: f64,
    /// Seconds an engine may take to answer `uci` with `uciok` (an xboard engine: to finish its
    /// feature negotiation) and each `isready` with `readyok`. Before the first game a failure
    /// stops the match with an error naming the engine; later it loses that game and is
    /// restarted. Raise it for engines that load large networks or tablebases at start.
    #[arg(long, value_name = "SECONDS", default_value_t = 15.0)]
    pub starttimeout: f64,
    /// PGN Event tag.
    #[arg(long)]
    pub event: Option<String>,
    /// PGN Site tag (cutechess, fastchess).
    #[arg(long)]
    pub site: Option<String>,
    /// Gauntlet: the first N engines each play all the others (cutechess, fastchess; default 1).
    #[arg(long, value_name = "N")]
    pub seeds: Option<usize>,
    /// Polyglot book access (cutechess): ram or disk. Books are always read into memory here;
    /// both modes play the same openings, so either is accepted.
    #[arg(long, value_name = "ram|disk")]
    pub bookmode: Option<String>,
    /// Log every line sent to and read from the engines (cutechess; `all` is its only
    /// argument): the log goes to stderr at trace level, or to -log's file at trace level.
    #[arg(long, num_args = 0..=1, default_missing_value = "all", value_name = "all")]
    pub debug: Option<String>,
    /// Pin each concurrent game, and the engines it starts, to one CPU (fastchess): of the
    /// list `3,5,7-11`, else CPUs 0 to N-1 for the N CPUs this process may use. Linux only.
    #[arg(long, num_args = 0..=1, default_missing_value = "", value_name = "CPUS")]
    pub use_affinity: Option<String>,
    /// Play -concurrency games at once even when that exceeds the CPUs (fastchess); without it
    /// such a -concurrency is played with a warning that clocked games will be distorted.
    #[arg(long)]
    pub force_concurrency: bool,
    /// Do not print a line per finished game.
    #[arg(long)]
    pub quiet: bool,
    /// Save the match (fastchess): file=NAME [discard=true|false] [outname=NAME]. Started with
    /// it, the match is saved in NAME (outname=, else file=, else config.json) and
    /// `tuner match -config file=NAME` alone resumes it; discard=true plays this command line
    /// afresh instead of what NAME holds. Without -pgnout or -state its journal is
    /// NAME.state.jsonl.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub config: Vec<String>,
    /// Games between saves of the -config file's standings (fastchess; default 20; 0: at the
    /// start and the end only). The journal records every game pair whatever this is, so a
    /// kill loses only the games in progress.
    #[arg(long, value_name = "N")]
    pub autosaveinterval: Option<u64>,
    /// Log every move's think latency, the time measured less the time the engine reported in
    /// its last `info ... time` (fastchess), and print each engine's mean, least and most.
    #[arg(long)]
    pub show_latency: bool,
    /// The command line after the subcommand in the runner's long form, as `main` parsed it
    /// (what -config saves); `None` when an argument is not UTF-8.
    #[arg(skip)]
    pub command_line: Option<Vec<String>>,
}

/// Whose command line this is, where cutechess-cli and fastchess read the same option
/// differently (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Cutechess,
    Fastchess,
}

impl Dialect {
    /// fastchess's when the command line uses anything only fastchess has; else cutechess's.
    pub fn of(args: &MatchArgs) -> Dialect {
        let key_value = |tokens: &[String]| tokens.iter().any(|t| t.contains('='));
        let fastchess = args.output.iter().any(|t| t == "format=fastchess")
            || key_value(&args.pgnout)
            || key_value(&args.epdout)
            || args.sprt.iter().any(|t| t.starts_with("model="))
            || !args.report.is_empty()
            || !args.log.is_empty()
            || args.use_affinity.is_some()
            || args.force_concurrency
            || !args.config.is_empty()
            || args.autosaveinterval.is_some()
            || args.show_latency;
        if fastchess { Dialect::Fastchess } else { Dialect::Cutechess }
    }

    /// The SPRT model of `-sprt` without `model=`.
    pub(super) fn sprt_model(self) -> SprtModel {
        match self {
            Dialect::Cutechess => SprtModel::Cutechess,
            Dialect::Fastchess => SprtModel::Normalized,
        }
    }
}
