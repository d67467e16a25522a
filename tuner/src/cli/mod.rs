//! Subcommands of the `tuner` binary owned by the match runner: `match`, `gauntlet`,
//! `roundrobin` and `openings`. Each keeps its clap struct and `run` function in its own module
//! (Carp's `tools/src/main.rs` style).

pub mod coevolve_cmd;
pub mod datagen_cmd;
pub mod epd_cmd;
pub mod evolve_cmd;
pub mod fastchess_out;
pub mod latency;
pub mod match_cmd;
pub mod openings_cmd;
pub mod pipeline_cmd;
pub mod promote_cmd;
pub mod quick_cmd;
pub mod roundrobin_ga_cmd;
pub mod runs_cmd;
pub mod saved_match;
pub mod search_evolve_cmd;
pub mod spsa_cmd;
pub mod texel_cmd;
pub mod worker_cmd;

use std::{
    ffi::OsString,
    path::{Path, PathBuf},
};

use clap::Args as _;
use thiserror::Error;

use crate::ga::run_dir::Start;

/// The closing lines of a GA command: where its best parameter file is and how to use it.
pub fn best_file_text(what: &str, path: &Path) -> String {
    // Absolute, so the commands work when pasted from any directory.
    let shown = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let p = shown.display();
    format!(
        "{what}: {p}\nuse it: evochess --params {p}   (UCI: setoption name ParamsFile value {p};\n\
         tuner engines: params={p})\n"
    )
}

/// What every evolution command takes: its config, the run's seed and length, and how it treats
/// its output directory (the one start policy of [`Start`]).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct RunArgs {
    /// Config file (TOML), or the name of a shipped one (`--config NAME`:
    /// configs/COMMAND/NAME.toml, built in, so from any directory); without one, the command's
    /// defaults (as in configs/COMMAND/default.toml).
    #[arg(long, value_name = "FILE.toml|NAME")]
    pub config: Option<PathBuf>,
    /// Master seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Generations.
    #[arg(long)]
    pub generations: Option<usize>,
    /// Output directory (checkpoint, reports, per-generation files).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub policy: StartArgs,
    #[command(flatten)]
    pub broker: BrokerArgs,
}

impl RunArgs {
    pub fn start(&self) -> Start {
        self.policy.start()
    }

    /// The config file `--config` selects for `tuner <command>` ([`crate::paths::config_path`]:
    /// a path, or the name of a shipped config), if one was given.
    pub fn config_file(&self, command: &str) -> Result<Option<PathBuf>, crate::paths::UnknownConfig> {
        self.config.as_deref().map(|p| crate::paths::config_path(command, p)).transpose()
    }
}

/// `--broker URL`: the command's games (or fitness) run on `tuner worker`s through Redis.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct BrokerArgs {
    /// Publish the games (or evolve's fitness) to `tuner worker`s through this Redis instead of
    /// running them here: `redis://[user:pass@]HOST:PORT[/db]` (`rediss://` for TLS).
    #[arg(long, value_name = "URL")]
    pub broker: Option<String>,
    /// Prefix of the broker's keys (workers must use the same).
    #[arg(long, value_name = "NAME", default_value = crate::broker::BrokerConfig::DEFAULT_NAMESPACE)]
    pub broker_namespace: String,
    /// Tasks published ahead of the answers.
    #[arg(long, value_name = "N", default_value_t = crate::broker::BrokerConfig::DEFAULT_WINDOW)]
    pub broker_window: usize,
    /// Seconds to wait, once workers refused the run (another engine build) and none answered,
    /// before stopping with an error; longer than the longest task.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::broker::BrokerConfig::DEFAULT_PATIENCE.as_secs_f64())]
    pub broker_patience: f64,
    /// The secret file that signs the run's specs and tasks and checks the workers' answers
    /// (the workers' --secret). Default: $XDG_CONFIG_HOME/evochess/broker.secret (or
    /// ~/.config/evochess/broker.secret), created with mode 0600 when absent.
    #[arg(long, value_name = "FILE")]
    pub broker_secret: Option<PathBuf>,
}

impl BrokerArgs {
    /// The broker to use, if one was given.
    pub fn config(&self) -> anyhow::Result<Option<crate::broker::BrokerConfig>> {
        use crate::broker::mac::Secret;
        let Some(url) = &self.broker else { return Ok(None) };
        let path = match &self.broker_secret {
            Some(p) => p.clone(),
            None => Secret::default_path()?,
        };
        let (secret, created) = Secret::load_or_create(&path)?;
        if created {
            eprintln!(
                "broker: created the secret file {} (mode 0600); copy it to each worker's machine and give it to \
                 `tuner worker --secret`",
                path.display()
            );
        }
        log::info!("broker: signing with the secret file {}", path.display());
        let mut cfg = crate::broker::BrokerConfig::new(url, secret)?;
        if self.broker_namespace.is_empty() || self.broker_namespace.contains(char::is_whitespace) {
            anyhow::bail!("--broker-namespace `{}`: a non-empty name without spaces", self.broker_namespace);
        }
        if self.broker_window == 0 {
            anyhow::bail!("--broker-window must be at least 1");
        }
        cfg.namespace = self.broker_namespace.clone();
        cfg.window = self.broker_window;
        if !(self.broker_patience.is_finite() && self.broker_patience >= 1.0) {
            anyhow::bail!("--broker-patience {}: at least 1 second", self.broker_patience);
        }
        cfg.patience = std::time::Duration::from_secs_f64(self.broker_patience);
        Ok(Some(cfg))
    }
}

/// `--resume` and `--force`: how a command with a checkpoint treats the run in its output
/// directory (the one start policy of [`Start`]).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct StartArgs {
    /// Continue the run in --out from its checkpoint; finished work is not redone.
    #[arg(long)]
    pub resume: bool,
    /// Discard the run in --out (its checkpoint) and start over, replacing its result files.
    #[arg(long, conflicts_with = "resume")]
    pub force: bool,
    /// Continue the run in --out if there is one, else start a new one: for scripts that run
    /// the same command until it finishes, without knowing the command's checkpoint files.
    #[arg(long, conflicts_with_all = ["resume", "force"])]
    pub resume_or_start: bool,
}

impl StartArgs {
    pub fn start(&self) -> Start {
        if self.resume_or_start { Start::ResumeOrFresh } else { Start::from_flags(self.resume, self.force) }
    }
}

/// Applies the options given on the command line over a loaded config: for each
/// `field => target`, `$args.field` (an `Option`) replaces `target` when it is `Some`.
/// `set_given!(self; seed => cfg.seed, out => cfg.out_dir)`.
macro_rules! set_given {
    ($args:expr; $($field:ident => $target:expr),* $(,)?) => {
        $( if let Some(v) = &$args.$field { $target = v.clone(); } )*
    };
}
pub(crate) use set_given;

/// The runner subcommands, which accept cutechess's single-dash long options.
pub(crate) const CUTECHESS_STYLE: &[&str] = &["match", "gauntlet", "roundrobin"];

/// Separates the `key=value` tokens of one `--engine` inside a single argument.
pub const ENGINE_TOKEN_SEP: char = '\n';

/// `--x`, or a single-dash word such as `-engine`, `-tbignore50` or `-use-affinity` (a letter,
/// then letters, digits and inner dashes); `-5` and `-0.5` are values.
fn is_option(s: &str) -> bool {
    s.starts_with("--")
        || (s.len() > 2
            && s.starts_with('-')
            && s[1..].starts_with(|c: char| c.is_ascii_alphabetic())
            && !s.ends_with('-')
            && s[1..].chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
}

/// Why a cutechess-style command line cannot be read, each named as typed.
#[derive(Debug, Error, PartialEq)]
pub enum UnknownOption {
    /// A single-dash word that is not one of the runner's options; `nearest` is the known option
    /// it most resembles, if any is close.
    #[error(
        "unknown option `{option}` for `tuner {subcommand}`{} (see `tuner {subcommand} --help`)",
        nearest.as_ref().map(|n| format!("; did you mean `-{n}`?")).unwrap_or_default()
    )]
    Unknown { option: String, subcommand: String, nearest: Option<String> },
    /// `-tournament` with a type this runner does not play, or against the subcommand.
    #[error("-tournament {value}: {reason}")]
    Tournament { value: String, reason: String },
}

/// Edit distance (insertions, deletions, substitutions), for naming the nearest known option.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1).min(row[j] + 1).min(diag + usize::from(ca != *cb));
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// The known name nearest `typed`, when it is close enough to be a slip (an edit for every three
/// letters, at least one: `-foo` is no slip of `-log`).
fn nearest<'a>(typed: &str, known: impl Iterator<Item = &'a str>) -> Option<String> {
    let limit = (typed.chars().count() / 3).max(1);
    known.map(|k| (edit_distance(typed, k), k)).filter(|(d, _)| *d <= limit).min().map(|(_, k)| k.to_string())
}

/// The subcommand that `-tournament VALUE` names (cutechess's `round-robin`, fastchess's
/// `roundrobin`), checked against the subcommand typed: `match` becomes either, a gauntlet or
/// round robin only itself.
fn tournament_subcommand(subcommand: &str, value: &str) -> Result<&'static str, UnknownOption> {
    let err = |reason: String| UnknownOption::Tournament { value: value.to_string(), reason };
    let wanted = match value {
        "gauntlet" => "gauntlet",
        "round-robin" | "roundrobin" => "roundrobin",
        "knockout" | "pyramid" => return Err(err("only gauntlet and round-robin tournaments are played".into())),
        _ => return Err(err("expected gauntlet or round-robin (roundrobin)".into())),
    };
    if subcommand != "match" && subcommand != wanted {
        return Err(err(format!("`tuner {subcommand}` is not a {value} (use `tuner match` or `tuner {wanted}`)")));
    }
    Ok(wanted)
}

/// Lets `tuner match -engine … -concurrency 2` work like cutechess-cli: for the runner's
/// subcommands, a single-dash word option (`-engine`) is rewritten to its long form
/// (`--engine`); other subcommands and values (`-5`, `arg=-v`) are left alone. The tokens after
/// each `--engine` are joined into one argument (separated by [`ENGINE_TOKEN_SEP`]) so every
/// engine stays a group: clap's derive cannot yet collect repeated multi-value options as groups.
/// `-tournament gauntlet|round-robin` is taken out and becomes the subcommand.
///
/// # Errors
///
/// A single-dash word that is not an option of the subcommand (rewritten, clap would report it
/// as `--word`, which the user never typed), with the nearest known option; a `-tournament`
/// type that is not played.
pub fn cutechess_style_args(args: impl IntoIterator<Item = OsString>) -> Result<Vec<OsString>, UnknownOption> {
    let args: Vec<OsString> = args.into_iter().collect();
    let Some(subcommand) = args.get(1).and_then(|a| a.to_str()).filter(|a| CUTECHESS_STYLE.contains(a)) else {
        return Ok(args);
    };
    let options = match_cmd::MatchArgs::augment_args(clap::Command::new("match"));
    let known = |name: &str| name == "help" || options.get_arguments().any(|a| a.get_long() == Some(name));
    let mut out: Vec<OsString> = Vec::new();
    let mut engine_group: Option<Vec<String>> = None;
    let mut chosen = subcommand;
    let mut args_iter = args.iter().enumerate();
    while let Some((i, a)) = args_iter.next() {
        let Some(s) = a.to_str().map(str::to_string) else {
            out.push(a.clone());
            continue;
        };
        if i > 1 && matches!(s.as_str(), "-tournament" | "--tournament") {
            if let Some(g) = engine_group.take() {
                out.push(g.join(&ENGINE_TOKEN_SEP.to_string()).into());
            }
            let value = args_iter.next().and_then(|(_, v)| v.to_str()).unwrap_or_default();
            chosen = tournament_subcommand(subcommand, value)?;
            continue;
        }
        if i > 1 && is_option(&s) {
            if let Some(g) = engine_group.take() {
                out.push(g.join(&ENGINE_TOKEN_SEP.to_string()).into());
            }
            let long = match s.strip_prefix("--") {
                Some(_) => s,
                None if known(&s[1..]) => format!("-{s}"),
                None => {
                    let sub = subcommand.to_string();
                    let names = options
                        .get_arguments()
                        .filter_map(|a| a.get_long())
                        .filter(|n| !n.starts_with("broker"))
                        .chain(["tournament"]);
                    let nearest = nearest(&s[1..], names);
                    return Err(UnknownOption::Unknown { option: s, subcommand: sub, nearest });
                }
            };
            if long == "--engine" {
                engine_group = Some(Vec::new());
            }
            out.push(long.into());
        } else if let Some(g) = &mut engine_group {
            g.push(s);
        } else {
            out.push(s.into());
        }
    }
    if let Some(g) = engine_group {
        out.push(g.join(&ENGINE_TOKEN_SEP.to_string()).into());
    }
    out[1] = chosen.into();
    Ok(out)
}

/// `--nodes` and `--tc` over a config's budget per move: each given alone replaces the other
/// (`--tc` alone clears the node limit, `--nodes` alone the clock); both given keep both;
/// `--tc none` clears the clock.
pub(crate) fn override_budget(
    nodes: Option<u64>,
    tc: Option<&str>,
    cfg_nodes: &mut Option<u64>,
    cfg_tc: &mut Option<crate::notation::Parsed<arena::tc::ClockTc>>,
) -> anyhow::Result<()> {
    if let Some(n) = nodes {
        *cfg_nodes = Some(n);
        if tc.is_none() {
            *cfg_tc = None;
        }
    }
    if let Some(tc) = tc {
        *cfg_tc = if tc == "none" {
            None
        } else {
            Some(anyhow::Context::context(tc.parse().map_err(anyhow::Error::msg), "--tc")?)
        };
        if nodes.is_none() {
            *cfg_nodes = None;
        }
    }
    Ok(())
}

/// A cutechess-style boolean setting's value (`option`'s `k=v`): true/1/yes/on or
/// false/0/no/off, any case.
pub(crate) fn parse_bool(option: &str, k: &str, v: &str) -> anyhow::Result<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => anyhow::bail!("{option}: `{k}={v}` is not true or false"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_file_text_names_the_file_and_both_ways_to_load_it() {
        let t = best_file_text("best parameters", Path::new("/runs/q/best.toml"));
        assert!(t.starts_with("best parameters: /runs/q/best.toml\n"), "{t}");
        assert!(t.contains("evochess --params /runs/q/best.toml"), "{t}");
        assert!(t.contains("setoption name ParamsFile value /runs/q/best.toml"), "{t}");
        assert!(
            best_file_text("x", Path::new("rel.toml"))
                .contains(&format!("{}", std::env::current_dir().unwrap().join("rel.toml").display()))
        );
    }

    fn conv(v: &[&str]) -> Vec<String> {
        cutechess_style_args(v.iter().map(OsString::from))
            .unwrap()
            .into_iter()
            .map(|s| s.into_string().unwrap())
            .collect()
    }

    #[test]
    fn single_dash_options_become_long() {
        assert_eq!(
            conv(&["tuner", "match", "-engine", "cmd=x", "arg=-v", "-concurrency", "2", "--games", "4", "-5"]),
            vec!["tuner", "match", "--engine", "cmd=x\narg=-v", "--concurrency", "2", "--games", "4", "-5"]
        );
        assert_eq!(
            conv(&["tuner", "gauntlet", "--engine", "option.Move Overhead=3", "-engine", "cmd=y", "-repeat"]),
            vec!["tuner", "gauntlet", "--engine", "option.Move Overhead=3", "--engine", "cmd=y", "--repeat"]
        );
        assert_eq!(conv(&["tuner", "evolve", "-engine"]), vec!["tuner", "evolve", "-engine"]);
        // Words with digits (fastchess's -tbignore50) are options; numbers stay values.
        assert_eq!(
            conv(&["tuner", "match", "-tbignore50", "-draw", "score=-10", "-wait", "-0.5"]),
            vec!["tuner", "match", "--tbignore50", "--draw", "score=-10", "--wait", "-0.5"]
        );
    }

    #[test]
    fn an_unknown_single_dash_option_is_named_as_typed() {
        let err = |v: &[&str]| cutechess_style_args(v.iter().map(OsString::from)).unwrap_err();
        let e = err(&["tuner", "match", "-engine", "cmd=x", "-foo", "1"]);
        assert_eq!(e, UnknownOption::Unknown { option: "-foo".into(), subcommand: "match".into(), nearest: None });
        assert_eq!(e.to_string(), "unknown option `-foo` for `tuner match` (see `tuner match --help`)");
        let e = err(&["tuner", "roundrobin", "-concurency", "2"]);
        assert_eq!(
            e.to_string(),
            "unknown option `-concurency` for `tuner roundrobin`; did you mean `-concurrency`? (see `tuner roundrobin \
             --help`)"
        );
        assert!(err(&["tuner", "match", "-use-afinity"]).to_string().contains("did you mean `-use-affinity`?"));
        assert!(err(&["tuner", "match", "-ratinginterva", "2"]).to_string().contains("`-ratinginterval`"));
        // fastchess's -config, -autosaveinterval and -show-latency are options of the runner.
        assert_eq!(
            conv(&["tuner", "match", "-config", "file=c.json", "-autosaveinterval", "0", "-show-latency"]),
            vec!["tuner", "match", "--config", "file=c.json", "--autosaveinterval", "0", "--show-latency"]
        );
        // Double-dash spellings are left to clap, which names them as typed; -help is known.
        assert_eq!(conv(&["tuner", "match", "--foo", "-help"]), vec!["tuner", "match", "--foo", "--help"]);
    }

    #[test]
    fn tournament_picks_the_subcommand() {
        assert_eq!(
            conv(&["tuner", "match", "-engine", "cmd=x", "-tournament", "gauntlet", "-seeds", "2"]),
            vec!["tuner", "gauntlet", "--engine", "cmd=x", "--seeds", "2"]
        );
        for value in ["round-robin", "roundrobin"] {
            assert_eq!(conv(&["tuner", "match", "-tournament", value, "-use-affinity"])[1], "roundrobin");
        }
        assert_eq!(conv(&["tuner", "gauntlet", "-tournament", "gauntlet"])[1], "gauntlet");
        let err = |v: &[&str]| cutechess_style_args(v.iter().map(OsString::from)).unwrap_err().to_string();
        assert_eq!(
            err(&["tuner", "match", "-tournament", "knockout"]),
            "-tournament knockout: only gauntlet and round-robin tournaments are played"
        );
        assert!(
            err(&["tuner", "gauntlet", "-tournament", "round-robin"]).contains("`tuner gauntlet` is not a round-robin")
        );
        assert!(err(&["tuner", "match", "-tournament"]).contains("expected gauntlet or round-robin"));
    }

    #[test]
    fn nearest_option_is_a_close_one_or_none() {
        assert_eq!(edit_distance("concurency", "concurrency"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        let known = ["engine", "each", "concurrency"];
        assert_eq!(nearest("engnie", known.into_iter()).as_deref(), Some("engine"));
        assert_eq!(nearest("xyz", known.into_iter()), None);
        assert_eq!(nearest("foo", ["log"].into_iter()), None);
    }
}
