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

use std::{path::PathBuf, time::Duration};

use anyhow::{Context as _, bail};
use arena::{
    adjudicate::{DrawRule, MaxMovesRule, ResignRule},
    engine::{client::EngineClient, spec::EngineSpec, transport::Timeouts},
    game::{GameRecord, SearchWarning},
    openings::OpeningsConfig,
    pgn_out::PgnFormat,
    results::{MatchResults, PairStats, SprtStatus, Standings, ranking_table, rating_report},
    runner::{MatchConfig, MatchObserver, Tournament, play_match},
    stats::{Sprt, SprtModel},
};
use clap::{ArgAction, Args};

use super::{
    fastchess_out::{self, EngineLabel, Labels, book_label},
    latency::Latencies,
    parse_bool,
    saved_match::Saving,
};
use crate::progress::Progress;

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
    pub broker: super::BrokerArgs,
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

fn secs_ms(s: f64, what: &str) -> anyhow::Result<u64> {
    if !(s.is_finite() && s > 0.0) {
        bail!("{what} must be a positive number of seconds, got {s}");
    }
    Ok((s * 1000.0).round() as u64)
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
    fn sprt_model(self) -> SprtModel {
        match self {
            Dialect::Cutechess => SprtModel::Cutechess,
            Dialect::Fastchess => SprtModel::Normalized,
        }
    }
}

/// `-sprt elo0= elo1= [alpha=] [beta=] [model=]`; without `model=`, `default` (the dialect's).
pub(crate) fn parse_sprt(tokens: &[String], default: SprtModel) -> anyhow::Result<Sprt> {
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    let mut model = default;
    for t in tokens {
        let (k, v) = t.split_once('=').with_context(|| format!("-sprt: `{t}` is not key=value"))?;
        if k == "model" {
            model = v.parse()?;
            continue;
        }
        let x: f64 = v.parse().with_context(|| format!("-sprt: `{t}`: not a number"))?;
        match k {
            "elo0" => elo0 = Some(x),
            "elo1" => elo1 = Some(x),
            "alpha" => alpha = x,
            "beta" => beta = x,
            _ => bail!("-sprt: unknown key `{k}` (expected elo0, elo1, alpha, beta, model)"),
        }
    }
    let (Some(e0), Some(e1)) = (elo0, elo1) else { bail!("-sprt needs elo0= and elo1=") };
    Ok(Sprt::new(e0, e1, alpha, beta)?.with_model(model))
}

/// A parsed `-pgnout`/`-epdout`.
#[derive(Debug, Default, PartialEq)]
struct OutputSpec {
    path: PathBuf,
    format: PgnFormat,
    append: Option<bool>,
}

/// `-pgnout`/`-epdout` tokens, cutechess (`FILE [min] [fi]`) or fastchess (`file=FILE key=value...`).
fn parse_output(option: &str, tokens: &[String], pgn: bool) -> anyhow::Result<Option<OutputSpec>> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut spec = OutputSpec::default();
    let mut path = None;
    for t in tokens {
        match t.split_once('=') {
            Some(("file", v)) if !v.is_empty() => path = Some(PathBuf::from(v)),
            Some(("append", v)) => spec.append = Some(parse_bool(option, "append", v)?),
            Some(("notation", v)) if pgn => {
                spec.format.notation = v.parse().map_err(|e| anyhow::anyhow!("{option}: {e}"))?
            }
            Some(("min", v)) if pgn => spec.format.min = parse_bool(option, "min", v)?,
            // fastchess's per-move comment fields and match_line: our comments are fixed.
            Some(("nodes" | "seldepth" | "nps" | "hashfull" | "tbhits" | "timeleft" | "latency" | "match_line", _))
                if pgn => {}
            Some((k, _)) => bail!("{option}: unknown key `{k}` in `{t}`"),
            None if pgn && t == "min" => spec.format.min = true,
            // cutechess `fi`: FEN tags for non-standard starts, which we always write.
            None if pgn && t == "fi" => {}
            None if path.is_none() => path = Some(PathBuf::from(t)),
            None => bail!("{option}: unexpected `{t}` after the file name"),
        }
    }
    spec.path = path.with_context(|| format!("{option} needs a file: FILE or file=FILE"))?;
    Ok(Some(spec))
}

/// Builds the match configuration from the command line.
pub fn config(args: &MatchArgs, tournament: Tournament) -> anyhow::Result<MatchConfig> {
    let engines = args
        .engine
        .iter()
        .map(|group| {
            let tokens: Vec<&str> = group.split(super::ENGINE_TOKEN_SEP).filter(|t| !t.is_empty()).collect();
            let each: Vec<&str> = args.each.iter().map(String::as_str).collect();
            EngineSpec::parse(&each, &tokens)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let engines = number_default_names(engines, args);
    // cutechess's default tournament is a round robin: with two engines that is a match.
    let tournament = match tournament {
        Tournament::Match if engines.len() > 2 => Tournament::RoundRobin,
        t => t,
    };
    let dialect = Dialect::of(args);
    let mut cfg = MatchConfig::new(engines, tournament);
    if let Some(n) = args.seeds {
        if tournament != Tournament::Gauntlet {
            bail!("-seeds {n}: seeds are for gauntlets (`tuner gauntlet` or -tournament gauntlet)");
        }
        cfg.seeds = n;
    }
    if let Some(site) = &args.site {
        cfg.site = site.clone();
    }
    match args.bookmode.as_deref() {
        None | Some("ram" | "disk") => {}
        Some(m) => bail!("-bookmode `{m}`: expected ram or disk"),
    }
    if let Some(d) = args.debug.as_deref().filter(|d| *d != "all") {
        bail!("-debug `{d}`: the only argument is `all`");
    }
    if let Some(list) = &args.use_affinity {
        cfg.affinity = parse_cpus(list)?;
    }
    cfg.rounds = args.rounds;
    cfg.games = args.games.unwrap_or(match dialect {
        Dialect::Cutechess => 1,
        Dialect::Fastchess => 2,
    });
    // cutechess's `-rounds 2N -repeat` (one game an encounter) plays each opening in two
    // consecutive rounds with sides swapped: here that is N rounds of colour-swapped pairs.
    if args.repeat == Some(2) && args.games.is_none() && cfg.games == 1 && cfg.rounds.is_multiple_of(2) {
        (cfg.games, cfg.rounds) = (2, cfg.rounds / 2);
    }
    cfg.repeat = match args.repeat {
        Some(2) => !args.norepeat,
        // Single games per encounter cannot be colour-swapped pairs.
        None => !args.norepeat && cfg.games.is_multiple_of(2),
        Some(1) => false,
        Some(n) => bail!("-repeat {n}: only 1 or 2 (colour-swapped pairs) is supported"),
    };
    cfg.noswap = args.noswap;
    cfg.reverse = args.reverse;
    cfg.wait_ms = args.wait;
    cfg.concurrency = args.concurrency.max(1);
    cfg.executor = crate::broker::games::on_workers(args.broker.config()?);
    if !args.openings.is_empty() {
        cfg.openings = Some(OpeningsConfig::parse(&args.openings)?);
    }
    if !args.draw.is_empty() {
        cfg.adjudication.draw = Some(args.draw.join(" ").parse::<DrawRule>().map_err(anyhow::Error::msg)?);
    }
    if !args.resign.is_empty() {
        cfg.adjudication.resign = Some(args.resign.join(" ").parse::<ResignRule>().map_err(anyhow::Error::msg)?);
    }
    if !args.maxmoves.is_empty() {
        cfg.adjudication.maxmoves = Some(args.maxmoves.join(" ").parse::<MaxMovesRule>().map_err(anyhow::Error::msg)?);
    }
    cfg.adjudication.tb_path = args.tb.clone();
    cfg.adjudication.tb_pieces = args.tbpieces;
    cfg.adjudication.tb_ignore_50 = args.tbignore50;
    if !args.sprt.is_empty() {
        let mut sprt = parse_sprt(&args.sprt, dialect.sprt_model())?;
        // fastchess takes the LLR over games when pentanomial reports are off.
        sprt.trinomial = !parse_report(&args.report)?;
        cfg.sprt = Some(sprt);
    }
    cfg.stall_timeout_ms = secs_ms(args.stalltimeout, "-stalltimeout")?;
    cfg.start_timeout_ms = secs_ms(args.starttimeout, "-starttimeout")?;
    cfg.ping_timeout_ms = cfg.start_timeout_ms;
    if let Some(e) = &args.event {
        cfg.event = e.clone();
    }
    if let Some(v) = &args.variant
        && !v.eq_ignore_ascii_case("standard")
    {
        bail!("-variant {v}: only standard chess is supported");
    }
    let pgn = parse_output("-pgnout", &args.pgnout, true)?;
    let epd = parse_output("-epdout", &args.epdout, false)?;
    let appends: Vec<bool> = [&pgn, &epd].iter().filter_map(|o| o.as_ref()?.append).collect();
    if appends.windows(2).any(|w| w[0] != w[1]) {
        bail!("-pgnout and -epdout disagree on append=");
    }
    // cutechess and fastchess append to an existing file: a rerun must not lose earlier games.
    cfg.append_outputs = appends.first().copied().unwrap_or(true);
    cfg.pgn_format = pgn.as_ref().map(|o| o.format).unwrap_or_default();
    cfg.pgn_out = pgn.map(|o| o.path);
    cfg.epd_out = epd.map(|o| o.path);
    cfg.results_out = args.results.clone();
    cfg.state = args.state.clone().or_else(|| {
        cfg.pgn_out.as_ref().map(|p| {
            let mut s = p.clone().into_os_string();
            s.push(".state.jsonl");
            PathBuf::from(s)
        })
    });
    cfg.resume = args.resume;
    cfg.seed = match args.srand {
        Some(seed) => seed,
        // The match being resumed had its own seed; it is in the journal's fingerprint.
        None if args.resume => cfg.state.as_deref().and_then(arena::results::journal_seed).unwrap_or(0),
        None => fresh_seed(),
    };
    Ok(cfg)
}

/// Engines named after their command (no `name=`) that share a name get `-2`, `-3`...: cutechess
/// plays `-engine cmd=sloppy -engine cmd=sloppy` (its manual's first example), but results here
/// are kept by name. A `name=` given twice is still an error.
fn number_default_names(mut engines: Vec<EngineSpec>, args: &MatchArgs) -> Vec<EngineSpec> {
    let named = |group: &str| {
        group.split(super::ENGINE_TOKEN_SEP).chain(args.each.iter().map(String::as_str)).any(|t| t.starts_with("name="))
    };
    let explicit: Vec<bool> = args.engine.iter().map(|g| named(g)).collect();
    for i in 0..engines.len() {
        if explicit[i] || !engines[..i].iter().any(|e| e.name == engines[i].name) {
            continue;
        }
        let base = engines[i].name.clone();
        let mut k = 2;
        while engines.iter().any(|e| e.name == format!("{base}-{k}")) {
            k += 1;
        }
        engines[i].name = format!("{base}-{k}");
    }
    engines
}

/// `-use-affinity` CPUs: `3,5,7-11`, or when empty 0 to N-1 for the N CPUs this process may use.
fn parse_cpus(list: &str) -> anyhow::Result<Vec<usize>> {
    if list.is_empty() {
        let n = std::thread::available_parallelism().map_or(1, |n| n.get());
        return Ok((0..n).collect());
    }
    let mut cpus = Vec::new();
    for part in list.split(',') {
        let num = |v: &str| {
            v.trim().parse::<usize>().with_context(|| format!("-use-affinity `{list}`: `{v}` is not a CPU number"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    bail!("-use-affinity `{list}`: the range `{part}` is empty");
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(num(part)?),
        }
    }
    Ok(cpus)
}

/// A seed that differs from run to run (clock and process id), for a match without -srand.
fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    // splitmix64 finaliser, so nearby clocks give unrelated seeds.
    let mut z = (nanos as u64) ^ (u64::from(std::process::id()) << 32);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Progress bar, a line per game and the rating report every `interval` games.
struct CliObserver {
    bar: Progress,
    interval: u64,
    /// Games counted at the last rating report: standings grow a pair at a time, so a count can
    /// be seen twice, and the final summary already reports the last one.
    reported: u64,
    planned: u64,
    sprt: Option<Sprt>,
    quiet: bool,
    /// Pentanomial figures in reports (`-report penta=`, off for the bayesian SPRT model).
    penta: bool,
    /// fastchess's report blocks instead of cutechess's (`-output format=fastchess`).
    fastchess: Option<Labels>,
    /// The -config file the standings are saved to.
    saving: Option<Saving>,
    /// Each engine's think latencies (`-show-latency`).
    latency: Option<Latencies>,
}

impl CliObserver {
    fn say(&self, text: &str) {
        self.bar.suspend(|| println!("{text}"));
    }

    /// Saves the standings to the -config file when due. A failed save is only warned about:
    /// every finished pair is in the journal already, which is what a resume reads.
    fn autosave(&mut self, standings: &Standings) {
        if let Some(saving) = &mut self.saving
            && let Err(e) = saving.after_games(standings)
        {
            log::warn!("{}", evochess::error_chain(e.as_ref()));
        }
    }
}

impl MatchObserver for CliObserver {
    fn on_start(&mut self, planned: u64, done: u64, standings: &Standings) {
        self.bar.set_length(planned);
        self.bar.skip_to(done);
        (self.planned, self.reported) = (planned, done);
        if done > 0 {
            self.say(&format!("Resuming: {done} of {planned} games already played"));
        }
        self.autosave(standings);
    }

    fn on_game(&mut self, g: &GameRecord, s: &Standings) {
        self.bar.inc(1);
        if !self.quiet {
            self.say(&format!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                g.game_number,
                g.white,
                g.black,
                g.result.outcome.pgn(),
                g.result.reason
            ));
        }
        // Standings grow a unit (game pair) at a time, so they already hold the pair's second
        // game when its first is announced: report after the unit's last game, the one whose
        // number is the standings' count, so `Finished game 2` comes before the report of 2.
        if self.interval > 0
            && g.game_number == s.games
            && s.games / self.interval > self.reported / self.interval
            && s.games < self.planned
        {
            self.reported = s.games;
            let sprt = self.sprt.as_ref().and_then(|sp| s.sprt_status(sp));
            let text = report_text(&s.pair_stats(), sprt.as_ref(), self.penta, self.fastchess.as_ref());
            self.say(text.trim_end());
        }
        if let Some(latency) = &mut self.latency {
            for line in latency.add(g) {
                log::info!("{line}");
            }
        }
        if g.game_number == s.games {
            self.autosave(s);
        }
        let t = &s.totals()[0];
        self.bar.set_message(format!("{}: {}-{}-{} (W-L-D)", t.name, t.wdl.wins, t.wdl.losses, t.wdl.draws));
    }

    fn on_warning(&mut self, w: &SearchWarning, game: u64) {
        // On stderr whatever -log says: the user must see it, and stdout is the match's.
        self.bar.suspend(|| eprintln!("warning: {w} (game {game}; not repeated for this engine)"));
    }

    fn on_finish(&mut self, _r: &MatchResults) {
        self.bar.finish_and_clear();
    }
}

/// `-report penta=true|false` (fastchess): whether reports show the pentanomial line.
fn parse_report(tokens: &[String]) -> anyhow::Result<bool> {
    let mut penta = true;
    for t in tokens {
        match t.split_once('=') {
            Some(("penta", v)) => penta = parse_bool("-report", "penta", v)?,
            _ => bail!("-report: unknown setting `{t}` (expected penta=true|false)"),
        }
    }
    Ok(penta)
}

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

/// `-output format=cutechess|fastchess`: whether fastchess's report blocks are printed.
fn parse_output_style(tokens: &[String]) -> anyhow::Result<bool> {
    let mut fastchess = false;
    for t in tokens {
        match t.split_once('=') {
            Some(("format", "cutechess")) => fastchess = false,
            Some(("format", "fastchess")) => fastchess = true,
            _ => bail!("-output: unknown setting `{t}` (expected format=cutechess|fastchess)"),
        }
    }
    Ok(fastchess)
}

/// A rating report: fastchess's blocks with `labels`, else cutechess's report (without its
/// `Ptnml(0-2)` lines unless `penta`).
fn report_text(pairs: &[PairStats], sprt: Option<&SprtStatus>, penta: bool, labels: Option<&Labels>) -> String {
    match labels {
        // SPRT needs a single pairing, so its line goes into that pairing's block.
        Some(l) => pairs.iter().filter(|p| p.games > 0).map(|p| fastchess_out::block(p, l, penta, sprt)).collect(),
        None => rating_report(pairs, sprt)
            .lines()
            .filter(|l| penta || !l.starts_with("Ptnml(0-2)"))
            .map(|l| format!("{l}\n"))
            .collect(),
    }
}

/// The header labels of fastchess's blocks. The engines' Threads and Hash values are only
/// known from their option declarations, so each is started once to read them.
fn fastchess_labels(cfg: &MatchConfig) -> Labels {
    let timeouts = Timeouts {
        start: Duration::from_millis(cfg.start_timeout_ms),
        ping: Duration::from_millis(cfg.ping_timeout_ms),
        quit: Duration::from_millis(cfg.quit_timeout_ms),
    };
    let engines = cfg
        .engines
        .iter()
        .map(|spec| {
            // An engine that fails here fails again, with the full error, when the match starts.
            let declared = spec.start(timeouts).ok().and_then(|c| {
                // xboard engines declare no Threads/Hash defaults: the header shows NULL.
                let options = match &c {
                    EngineClient::Uci(u) => Some(u.options.clone()),
                    EngineClient::Xboard(_) => None,
                };
                c.quit();
                options
            });
            EngineLabel::new(spec, declared.as_deref())
        })
        .collect();
    let book = cfg.openings.as_ref().map(|o| book_label(&o.file.to_string_lossy())).unwrap_or_default();
    Labels { engines, book }
}

/// Prints the end-of-match summary.
pub fn print_summary(r: &MatchResults, report: &str) {
    println!("{}", report.trim_end());
    println!("Terminations: {}", r.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", "));
    for t in &r.totals {
        println!(
            "{}: {:.1}/{} points, {} forfeits ({} on time)",
            t.name, t.points, t.games, t.forfeits, t.time_forfeits
        );
    }
    let total_cpu = r.runner_cpu_seconds + r.engines_cpu_seconds;
    // A resumed match's clock started with this run: the rate counts only its own games.
    let this_run = r.games_played.saturating_sub(r.games_resumed);
    let resumed = if r.games_resumed > 0 {
        format!(" ({} resumed, {this_run} in this run)", r.games_resumed)
    } else {
        String::new()
    };
    println!(
        "{} games{resumed} in {:.1} s ({:.1} games/min); runner CPU {:.2} s = {:.1} % of all CPU ({:.2} s engines){}",
        r.games_played,
        r.wall_seconds,
        this_run as f64 * 60.0 / r.wall_seconds.max(1e-9),
        r.runner_cpu_seconds,
        if total_cpu > 0.0 { 100.0 * r.runner_cpu_seconds / total_cpu } else { 0.0 },
        r.engines_cpu_seconds,
        if r.stopped_early { "; stopped early by SPRT" } else { "" }
    );
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

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn output_styles() {
        assert!(parse_output_style(&strings(&["format=fastchess"])).unwrap());
        assert!(!parse_output_style(&strings(&["format=cutechess"])).unwrap());
        assert!(parse_output_style(&strings(&["format=json"])).unwrap_err().to_string().contains("format=json"));
    }

    #[test]
    fn sprt_models() {
        let base = ["elo0=0", "elo1=5", "alpha=0.05", "beta=0.05"];
        let with = |extra: &str| parse_sprt(&strings(&[&base[..], &[extra]].concat()), SprtModel::Normalized);
        // fastchess's default model is normalized; cutechess's is its own.
        let plain = parse_sprt(&strings(&base), Dialect::Fastchess.sprt_model()).unwrap();
        assert_eq!(plain.model, SprtModel::Normalized);
        let cute = parse_sprt(&strings(&base), Dialect::Cutechess.sprt_model()).unwrap();
        assert_eq!(cute.model, SprtModel::Cutechess);
        assert_eq!(
            parse_sprt(&strings(&[&base[..], &["model=logistic"]].concat()), SprtModel::Cutechess).unwrap().model,
            SprtModel::Logistic
        );
        assert_eq!(with("model=normalized").unwrap(), plain);
        assert_eq!(with("model=logistic").unwrap().model, SprtModel::Logistic);
        assert_eq!(with("model=bayesian").unwrap().model, SprtModel::Bayesian);
        let e = with("model=trinomial").unwrap_err().to_string();
        assert!(e.contains("unknown model `trinomial`"), "{e}");
    }

    #[test]
    fn cpu_lists() {
        assert_eq!(parse_cpus("3,5,7-9").unwrap(), vec![3, 5, 7, 8, 9]);
        assert!(!parse_cpus("").unwrap().is_empty());
        let e = parse_cpus("1,x").unwrap_err().to_string();
        assert!(e.contains("`x` is not a CPU number"), "{e}");
        assert!(parse_cpus("4-2").unwrap_err().to_string().contains("`4-2` is empty"));
    }

    #[test]
    fn output_specs_in_both_styles() {
        let o = parse_output("-pgnout", &strings(&["games.pgn", "min", "fi"]), true).unwrap().unwrap();
        assert_eq!((o.path, o.format.min, o.append), (PathBuf::from("games.pgn"), true, None));
        let o = parse_output("-pgnout", &strings(&["file=g.pgn", "notation=uci", "append=false", "nps=true"]), true)
            .unwrap()
            .unwrap();
        assert_eq!(
            (o.path, o.format.notation, o.append),
            (PathBuf::from("g.pgn"), arena::pgn_out::Notation::Uci, Some(false))
        );
        assert_eq!(parse_output("-epdout", &[], false).unwrap(), None);
        for (tokens, needle) in [
            (&["min"][..], "needs a file"),
            (&["a.pgn", "b.pgn"], "unexpected `b.pgn`"),
            (&["file=a.pgn", "colour=red"], "unknown key `colour`"),
        ] {
            let e = parse_output("-pgnout", &strings(tokens), true).unwrap_err().to_string();
            assert!(e.contains(needle), "{tokens:?}: {e}");
        }
        // EPD output has no notation.
        assert!(parse_output("-epdout", &strings(&["file=a.epd", "notation=san"]), false).is_err());
    }
}
