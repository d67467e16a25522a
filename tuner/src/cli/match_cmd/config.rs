//! The match configuration a command line gives: its engines, schedule, rules and outputs.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use arena::{
    adjudicate::{DrawRule, MaxMovesRule, ResignRule},
    engine::spec::EngineSpec,
    openings::OpeningsConfig,
    pgn_out::PgnFormat,
    runner::{MatchConfig, Tournament},
    stats::{Sprt, SprtModel},
};

use super::args::{Dialect, MatchArgs};
use crate::cli::{ENGINE_TOKEN_SEP, parse_bool};

fn secs_ms(s: f64, what: &str) -> anyhow::Result<u64> {
    if !(s.is_finite() && s > 0.0) {
        bail!("{what} must be a positive number of seconds, got {s}");
    }
    Ok((s * 1000.0).round() as u64)
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
            let tokens: Vec<&str> = group.split(ENGINE_TOKEN_SEP).filter(|t| !t.is_empty()).collect();
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
    // Checked in this order (the first bad option is the one an error names), in parts for
    // reading's sake.
    set_environment(&mut cfg, args)?;
    set_schedule(&mut cfg, args, dialect)?;
    set_rules(&mut cfg, args, dialect)?;
    set_outputs(&mut cfg, args)?;
    Ok(cfg)
}

/// Where and how the match runs: gauntlet seeds, the PGN site, book access, debug output, CPU
/// affinity.
fn set_environment(cfg: &mut MatchConfig, args: &MatchArgs) -> anyhow::Result<()> {
    if let Some(n) = args.seeds {
        if cfg.tournament != Tournament::Gauntlet {
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
    Ok(())
}

/// Which games are played, and on what: rounds, games per encounter, repeats and colours, the
/// wait between games, concurrency and the broker's workers.
fn set_schedule(cfg: &mut MatchConfig, args: &MatchArgs, dialect: Dialect) -> anyhow::Result<()> {
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
    Ok(())
}

/// How games start and end: openings, adjudication, the SPRT, the engines' timeouts, the PGN
/// event and the variant.
fn set_rules(cfg: &mut MatchConfig, args: &MatchArgs, dialect: Dialect) -> anyhow::Result<()> {
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
    Ok(())
}

/// What the match writes and resumes from: PGN and EPD files, results, the journal, and the
/// seed (a resumed match's own).
fn set_outputs(cfg: &mut MatchConfig, args: &MatchArgs) -> anyhow::Result<()> {
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
    Ok(())
}

/// Engines named after their command (no `name=`) that share a name get `-2`, `-3`...: cutechess
/// plays `-engine cmd=sloppy -engine cmd=sloppy` (its manual's first example), but results here
/// are kept by name. A `name=` given twice is still an error.
fn number_default_names(mut engines: Vec<EngineSpec>, args: &MatchArgs) -> Vec<EngineSpec> {
    let named = |group: &str| {
        group.split(ENGINE_TOKEN_SEP).chain(args.each.iter().map(String::as_str)).any(|t| t.starts_with("name="))
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

/// `-report penta=true|false` (fastchess): whether reports show the pentanomial line.
pub(super) fn parse_report(tokens: &[String]) -> anyhow::Result<bool> {
    let mut penta = true;
    for t in tokens {
        match t.split_once('=') {
            Some(("penta", v)) => penta = parse_bool("-report", "penta", v)?,
            _ => bail!("-report: unknown setting `{t}` (expected penta=true|false)"),
        }
    }
    Ok(penta)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
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
