//! `tuner promote`: an SPRT of a candidate parameter file against the default, which it
//! replaces on H1 (see [`crate::promote`]).

use std::path::PathBuf;

use anyhow::Context as _;
use arena::{adjudicate::AdjudicationConfig, tc::ClockTc};

use crate::promote::{Outcome, PromoteConfig, run as run_promote};

/// Promote a candidate parameter file to the default if it passes an SPRT against it.
///
/// Exit status: 0 promoted (H1), 3 rejected (H0), 4 the game cap came first; the default is
/// written only on 0 (and not with --dry-run or --out).
#[derive(clap::Args, Debug, Clone)]
pub struct PromoteArgs {
    /// The candidate parameter file (its keys over the current default).
    #[arg(long, value_name = "FILE.toml")]
    pub candidate: PathBuf,
    /// The current default; on H1 it is rewritten, with the declarations beside it
    /// (<root>/src/eval/params.rs and src/search/params.rs). Default: params/default.toml here,
    /// else that of the checkout this tuner was built in, else the built-in defaults (which
    /// --out or --dry-run can test against; there is no file to replace).
    #[arg(long, value_name = "FILE.toml")]
    pub default: Option<PathBuf>,
    /// On H1 write the promoted file here instead; the default and the declarations stay.
    #[arg(long, value_name = "FILE.toml", conflicts_with = "dry_run")]
    pub out: Option<PathBuf>,
    /// Play the SPRT and print what would be written, writing nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// A line of the candidate's lineage for the header (its data, tuner and settings);
    /// repeat for more lines.
    #[arg(long, value_name = "TEXT")]
    pub lineage: Vec<String>,
    /// SPRT settings, as `tuner match -sprt`: elo0= elo1= [alpha=] [beta=] [model=].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", default_values = ["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05", "model=normalized"])]
    pub sprt: Vec<String>,
    /// The cap: most games before giving up (even; game pairs).
    #[arg(long, value_name = "N", default_value_t = 4000)]
    pub max_games: u64,
    /// Time control `[MOVES/]SECS[+INC]` (default 10+0.1 unless --nodes).
    #[arg(long, value_name = "TC", conflicts_with = "nodes")]
    pub tc: Option<String>,
    /// Node-limited games instead of a clock (deterministic; what tests use).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Opening book (EPD, PGN or Polyglot); the default is built in.
    #[arg(long, value_name = "FILE", default_value = "openings/gnuchess-8ply.epd")]
    pub openings: PathBuf,
    /// The evochess binary (default: next to tuner).
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// Seed of the opening order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Draw adjudication, as `tuner match -draw` ("off" turns it off).
    #[arg(long, value_name = "RULE", default_value = "movenumber=34 movecount=8 score=20")]
    pub draw: String,
    /// Resign adjudication, as `tuner match -resign` ("off" turns it off).
    #[arg(long, value_name = "RULE", default_value = "movecount=3 score=600 twosided=true")]
    pub resign: String,
    /// Directory of the games (PGN, resume journal) and the two parameter files that played.
    #[arg(long, value_name = "DIR", default_value = "runs/promote")]
    pub games_dir: PathBuf,
    /// Continue the SPRT recorded in --games-dir.
    #[arg(long)]
    pub resume: bool,
}

/// `RULE`, or `None` for "off" (as `tuner datagen` spells it).
fn rule<T: std::str::FromStr<Err = String>>(option: &str, text: &str) -> anyhow::Result<Option<T>> {
    if text.trim().eq_ignore_ascii_case("off") {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|e| anyhow::anyhow!("{option} `{text}`: {e}"))
}

pub fn config(args: &PromoteArgs) -> anyhow::Result<PromoteConfig> {
    let clock = match (&args.tc, args.nodes) {
        (Some(tc), _) => Some(tc.parse::<ClockTc>().with_context(|| format!("--tc {tc}"))?),
        (None, Some(_)) => None,
        (None, None) => Some("10+0.1".parse::<ClockTc>().expect("a valid clock")),
    };
    let adjudication = AdjudicationConfig {
        draw: rule("--draw", &args.draw)?,
        resign: rule("--resign", &args.resign)?,
        ..AdjudicationConfig::default()
    };
    let default = args.default.clone().or_else(crate::promote::find_default_file);
    match &default {
        Some(p) if args.default.is_none() => eprintln!("promote: the current default is {}", p.display()),
        None => {
            eprintln!("promote: no params/default.toml found; the current default is the one built into this tuner")
        }
        Some(_) => {}
    }
    Ok(PromoteConfig {
        candidate: args.candidate.clone(),
        default,
        out: args.out.clone(),
        dry_run: args.dry_run,
        lineage: args.lineage.clone(),
        command: shell_command(std::env::args()),
        engine: args.engine.clone().unwrap_or_else(crate::paths::default_engine),
        sprt: super::match_cmd::parse_sprt(&args.sprt, arena::stats::sprt::SprtModel::Normalized)?,
        max_games: args.max_games,
        clock,
        nodes: args.nodes,
        openings: args.openings.clone(),
        concurrency: args.concurrency,
        seed: args.seed,
        adjudication,
        dir: args.games_dir.clone(),
        resume: args.resume,
    })
}

/// Runs the promotion; the exit status says how it ended ([`Outcome::exit_code`]).
pub fn run(args: PromoteArgs) -> anyhow::Result<u8> {
    let cfg = config(&args)?;
    let report = run_promote(&cfg, |plan| println!("{plan}"))?;
    let default = cfg.default.as_ref().map_or("the built-in default".to_string(), |p| p.display().to_string());
    let r = &report.results;
    println!("{}", arena::results::rating_report(&r.pairs, r.sprt.as_ref()).trim_end());
    println!("{}", report.sprt_line);
    match report.outcome {
        Outcome::Promoted if cfg.dry_run => {
            println!("H1 accepted: the candidate would be promoted (--dry-run: nothing written). Its header:");
            print!("{}", evochess::params::default_file::split_header(report.text.as_deref().unwrap_or_default()).0);
        }
        Outcome::Promoted => {
            println!("H1 accepted: the candidate is promoted.");
            for p in &report.written {
                println!("wrote {}", p.display());
            }
            if cfg.out.is_none() {
                println!("rebuild (cargo build --release) for the engine to play the new defaults, and commit them");
            }
        }
        Outcome::Rejected => {
            println!("H0 accepted: the candidate is rejected; {default} is untouched.");
        }
        Outcome::Inconclusive => println!(
            "no decision within {} games: the candidate is not promoted; {default} is untouched.",
            cfg.max_games
        ),
    }
    Ok(report.outcome.exit_code())
}

/// The command line as a shell would take it back: arguments with spaces or quotes are single-quoted,
/// so the promoted file's `Command:` header can be pasted to rerun the promotion.
fn shell_command(args: impl IntoIterator<Item = String>) -> String {
    let quoted = |a: String| {
        let plain = !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=+:,@%".contains(c));
        if plain { a } else { format!("'{}'", a.replace('\'', r"'\''")) }
    };
    args.into_iter().map(quoted).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::shell_command;

    #[test]
    fn the_command_header_quotes_what_a_shell_would_split() {
        let args = ["tuner", "promote", "--tc", "8+0.08", "--lineage", "Fit: lambda = 0", "it's", ""];
        assert_eq!(
            shell_command(args.iter().map(|a| a.to_string())),
            r#"tuner promote --tc 8+0.08 --lineage 'Fit: lambda = 0' 'it'\''s' ''"#
        );
    }
}
