//! `tuner promote`: a tune becomes the engine's default only by beating it in an SPRT.
//!
//! The candidate (a parameter file, possibly partial: its keys over the current default) plays
//! the current default through the match runner, as `tuner match -sprt` does: colour-swapped
//! game pairs from a book, pentanomial statistics, the runner's SPRT (normalized Elo, [0, 10]
//! by default) and a cap on the games. Both engines are the same binary, each given a complete
//! parameter file written into the run's directory, so what played is exactly what is promoted.
//!
//! On H1 the candidate becomes the default. The default values live in the declarations
//! (`declare_params!`, see [`evochess::params::default_file`]), so promotion rewrites their values
//! in src/eval/params.rs and src/search/params.rs and writes params/default.toml with a header
//! giving the new values' lineage: the candidate, the user's `--lineage` lines, the settings,
//! the SPRT line, the bench signatures, and the header of the default it replaced. After a
//! rebuild the engine plays the new defaults, and `default_toml_matches_declaration` still
//! holds. `--out FILE` writes the promoted file elsewhere instead (the declarations and the
//! default untouched); `--dry-run` writes nothing. On H0, or at the cap, nothing is written.
//!
//! Everything that can be checked is checked before the first game: the candidate and default
//! files load (errors name the file and key), the declarations can be rewritten, the engine
//! exists, and the candidate differs from the default.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use arena::{
    adjudicate::AdjudicationConfig,
    engine::spec::EngineSpec,
    files::write_atomic,
    game::GameRecord,
    openings::OpeningsConfig,
    results::{MatchResults, PairStats, SprtStatus, Standings},
    runner::{MatchConfig, MatchObserver, RunnerError, Tournament, play_match},
    stats::{Sprt, SprtDecision, elo::elo_text},
    tc::{ClockTc, SearchLimits},
};
use evochess::params::{
    Params,
    default_file::{self, DECLARATIONS, DeclarationError},
};
use thiserror::Error;

use crate::progress::{Plan, Progress};

/// What `tuner promote` was asked to do.
#[derive(Clone, Debug)]
pub struct PromoteConfig {
    pub candidate: PathBuf,
    /// The current default file; the declarations are found from it (`<root>/params/default.toml`
    /// → `<root>/src/eval/params.rs`). `None`: the defaults built into this tuner, which can be
    /// tested (`out`, `dry_run`) but not replaced.
    pub default: Option<PathBuf>,
    /// Write the promoted file here instead of replacing the default and the declarations.
    pub out: Option<PathBuf>,
    pub dry_run: bool,
    /// Lines for the header: where the candidate comes from (data, settings).
    pub lineage: Vec<String>,
    /// The command as typed, for the header.
    pub command: String,
    pub engine: PathBuf,
    pub sprt: Sprt,
    /// Most games before giving up (an even number: game pairs).
    pub max_games: u64,
    pub clock: Option<ClockTc>,
    pub nodes: Option<u64>,
    pub openings: PathBuf,
    pub concurrency: usize,
    pub seed: u64,
    pub adjudication: AdjudicationConfig,
    /// Where the games, their journal and the two played parameter files go.
    pub dir: PathBuf,
    pub resume: bool,
}

/// How a promotion ended; [`Outcome::exit_code`] is the command's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// H1: the candidate is the new default (or would be, with `--dry-run`).
    Promoted,
    /// H0: the candidate is not better by the test's margin.
    Rejected,
    /// The cap came first.
    Inconclusive,
}

impl Outcome {
    /// 0 promoted, 3 rejected, 4 inconclusive (1 and 2 are the tuner's errors and usage errors).
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Promoted => 0,
            Outcome::Rejected => 3,
            Outcome::Inconclusive => 4,
        }
    }
}

/// What a promotion run reports.
#[derive(Debug)]
pub struct Report {
    pub outcome: Outcome,
    pub results: MatchResults,
    pub sprt_line: String,
    /// The files written (empty unless promoted without `--dry-run`).
    pub written: Vec<PathBuf>,
    /// The promoted file's text (promoted only; what `--dry-run` would write).
    pub text: Option<String>,
}

#[derive(Debug, Error)]
pub enum PromoteError {
    #[error("{0}")]
    Params(#[from] evochess::params::ParamError),
    #[error("{path}: {source}")]
    Declaration { path: String, source: DeclarationError },
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    #[error("promote: {0}")]
    Config(String),
    #[error("bench of {engine}: {reason}")]
    Bench { engine: String, reason: String },
    #[error(transparent)]
    Games(#[from] Box<RunnerError>),
}

fn io(path: &Path, e: impl std::fmt::Display) -> PromoteError {
    PromoteError::Io { path: path.display().to_string(), reason: e.to_string() }
}

/// Why promoting against the built-in default cannot replace it.
const BUILT_IN_NOT_REPLACED: &str = "no params/default.toml here or in the checkout beside this tuner: promoting replaces a \
     checkout's default file and declarations, so give --default <checkout>/params/default.toml; or test against the \
     built-in default with --out FILE or --dry-run";

/// The current default file `tuner promote` plays against when `--default` is not given:
/// `params/default.toml` in the working directory, else that of the checkout this tuner was
/// built in (the tuner is `<root>/target/[<triple>/]<profile>/tuner`, and `<root>` holds the
/// default file and the declarations), else `None`: the defaults built into the binary.
pub fn find_default_file() -> Option<PathBuf> {
    let here = PathBuf::from("params/default.toml");
    if here.is_file() {
        return Some(here);
    }
    let exe = std::env::current_exe().ok()?;
    let target = exe.ancestors().skip(1).take(3).find(|d| d.file_name().is_some_and(|n| n == "target"))?;
    let root = target.parent()?;
    let file = root.join("params/default.toml");
    let checkout = file.is_file() && DECLARATIONS.iter().all(|(_, rel)| root.join(rel).is_file());
    checkout.then_some(file)
}

/// The repository root of a default file `<root>/params/default.toml`.
fn root_of(default: &Path) -> PathBuf {
    let params_dir = default.parent().unwrap_or(Path::new(""));
    match params_dir.parent() {
        Some(root) => root.to_path_buf(),
        None => PathBuf::from(".."),
    }
}

/// The declaration files rewritten to `params`' values, as (path, new text).
fn rewritten_declarations(root: &Path, params: &Params) -> Result<Vec<(PathBuf, String)>, PromoteError> {
    DECLARATIONS
        .iter()
        .map(|(section, rel)| {
            let path = root.join(rel);
            let source = std::fs::read_to_string(&path).map_err(|e| {
                io(&path, format!("{e} (the declarations must sit beside the default file as in the repository; --out FILE writes elsewhere)"))
            })?;
            let text = match *section {
                "eval" => default_file::rewrite_declaration(&source, &params.eval),
                _ => default_file::rewrite_declaration(&source, &params.search),
            }
            .map_err(|source| PromoteError::Declaration { path: path.display().to_string(), source })?;
            Ok((path, text))
        })
        .collect()
}

/// The bench signature (`N` of the last line `N nodes M nps`) of `engine` with `params`.
pub fn bench_signature(engine: &Path, params: Option<&Path>) -> Result<u64, PromoteError> {
    let mut cmd = Command::new(engine);
    if let Some(p) = params {
        cmd.arg("--params").arg(p);
    }
    let bad = |reason: String| PromoteError::Bench { engine: engine.display().to_string(), reason };
    let out = cmd.arg("bench").output().map_err(|e| bad(e.to_string()))?;
    if !out.status.success() {
        return Err(bad(format!("{}: {}", out.status, String::from_utf8_lossy(&out.stderr).trim())));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or("");
    match last.split(' ').collect::<Vec<_>>()[..] {
        [n, "nodes", _, "nps"] => n.parse().map_err(|_| bad(format!("last line `{last}`"))),
        _ => Err(bad(format!("last line `{last}` is not `N nodes M nps`"))),
    }
}

/// The SPRT line of the header and the report: model, LLR, bounds, games, W/L/D (in the
/// order of every other report), pentanomial, Elo.
pub fn sprt_line(sprt: &Sprt, status: Option<&SprtStatus>, pairs: &[PairStats]) -> String {
    let mut s =
        format!("SPRT {} elo0={} elo1={} alpha={} beta={}", sprt.model, sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta);
    if let Some(st) = status {
        s += &format!(": LLR {:.2} ({:.2}, {:.2})", st.llr, st.lower, st.upper);
    }
    if let Some(p) = pairs.first() {
        let b = p.penta.buckets();
        s += &format!(
            "; games {}: W {} L {} D {}; Ptnml(0-2) [{}, {}, {}, {}, {}]",
            p.games, p.wdl.wins, p.wdl.losses, p.wdl.draws, b[0], b[1], b[2], b[3], b[4]
        );
        if let Some(e) = p.penta_elo.or(p.elo) {
            s += &format!("; Elo {} (95%)", elo_text(e.elo, e.error, 1));
        }
    }
    s
}

/// Every ten game pairs of an SPRT, the first engine's score and the LLR for a progress line:
/// `W-L-D (W-L-D), LLR x (lower, upper) [elo0, elo1] model`. The runner reports both games of a
/// pair with the same standings, so each count is reported once.
pub struct SprtProgress {
    sprt: Sprt,
    reported: u64,
}

impl SprtProgress {
    pub fn new(sprt: Sprt) -> Self {
        Self { sprt, reported: 0 }
    }

    /// The line for these standings, or `None` between reports.
    pub fn line(&mut self, s: &Standings) -> Option<String> {
        if !s.games.is_multiple_of(20) || s.games == self.reported {
            return None;
        }
        let st = s.sprt_status(&self.sprt)?;
        self.reported = s.games;
        let t = &s.totals()[0];
        Some(format!(
            "{}-{}-{} (W-L-D), LLR {:.2} ({:.2}, {:.2}) [{}, {}] {}",
            t.wdl.wins,
            t.wdl.losses,
            t.wdl.draws,
            st.llr,
            st.lower,
            st.upper,
            st.elo0,
            st.elo1,
            st.model.unit()
        ))
    }
}

/// Moves the bar a game at a time and logs the SPRT's course every ten game pairs.
struct Course(SprtProgress, Progress);

impl MatchObserver for Course {
    fn on_start(&mut self, planned: u64, done: u64, _: &Standings) {
        self.1.skip(done);
        log::info!(
            "promote: up to {planned} games{}",
            if done > 0 { format!(", {done} already played") } else { String::new() }
        );
    }

    fn on_game(&mut self, _: &GameRecord, s: &Standings) {
        self.1.inc(1);
        if let Some(progress) = self.0.line(s) {
            log::info!("promote: {} games, candidate {progress}", s.games);
        }
    }

    fn on_finish(&mut self, _: &MatchResults) {}
}

/// The promotion's plan line: the files, the test, the games and their budget.
fn plan(cfg: &PromoteConfig, limits: &SearchLimits, eta: Option<f64>) -> Plan {
    let at_once = cfg.concurrency.max(1);
    let s = &cfg.sprt;
    Plan::new("promote")
        .part(format!(
            "tests {} against {} by an SPRT (elo0 {}, elo1 {}, alpha {}, beta {})",
            cfg.candidate.display(),
            cfg.default.as_ref().map_or("the built-in default".to_string(), |p| p.display().to_string()),
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta
        ))
        .part(format!(
            "up to {} games at {}, {at_once} at once; openings {}; engine {}",
            cfg.max_games,
            crate::progress::limits_text(limits),
            cfg.openings.display(),
            cfg.engine.display()
        ))
        .eta(eta, at_once, "games")
}

/// Runs the SPRT and, on H1, writes the promoted defaults. `announce` is given the plan once
/// the inputs are checked, before any game.
pub fn run(cfg: &PromoteConfig, announce: impl FnOnce(&Plan)) -> Result<Report, PromoteError> {
    let Checked { default, old_text, candidate, root } = check(cfg)?;
    std::fs::create_dir_all(&cfg.dir).map_err(|e| io(&cfg.dir, e))?;
    let (cand_file, def_file) = (cfg.dir.join("candidate.toml"), cfg.dir.join("default.toml"));
    write_atomic(&cand_file, candidate.to_toml().as_bytes()).map_err(|e| io(&cand_file, e))?;
    write_atomic(&def_file, default.to_toml().as_bytes()).map_err(|e| io(&def_file, e))?;
    let limits = SearchLimits { clock: cfg.clock, nodes: cfg.nodes, ..SearchLimits::default() };
    let game = crate::progress::game_seconds(&limits);
    let at_once = cfg.concurrency.max(1);
    announce(&plan(cfg, &limits, crate::progress::total_seconds(cfg.max_games, game, at_once)));
    let m = match_config(cfg, &cand_file, &def_file, limits)?;
    let bar = Progress::new(cfg.max_games, "games", crate::progress::total_seconds(1, game, at_once));
    let played = play_match(&m, &mut Course(SprtProgress::new(cfg.sprt), bar.clone()));
    bar.finish_and_clear();
    let results = played.map_err(Box::new)?;

    let status = results.sprt.clone();
    let line = sprt_line(&cfg.sprt, status.as_ref(), &results.pairs);
    let outcome = match status.map(|s| s.decision) {
        Some(SprtDecision::AcceptH1) => Outcome::Promoted,
        Some(SprtDecision::AcceptH0) => Outcome::Rejected,
        _ => Outcome::Inconclusive,
    };
    let mut report = Report { outcome, results, sprt_line: line, written: Vec::new(), text: None };
    if outcome != Outcome::Promoted {
        return Ok(report);
    }
    let text = promoted_text(cfg, &report.sprt_line, &old_text, &candidate, &cand_file)?;
    report.text = Some(text.clone());
    if cfg.dry_run {
        return Ok(report);
    }
    report.written = write_promoted(cfg, root, &candidate, &text)?;
    Ok(report)
}

/// What [`run`] checks before any game: the default and the candidate over it, the default
/// file's text (its header goes into the promoted file's), and the checkout's root and default
/// file when the declarations are to be rewritten.
struct Checked<'a> {
    default: Params,
    old_text: String,
    candidate: Params,
    root: Option<(PathBuf, &'a PathBuf)>,
}

/// Checks everything that can be checked before the first game (see the module's text).
fn check(cfg: &PromoteConfig) -> Result<Checked<'_>, PromoteError> {
    if cfg.max_games < 2 || !cfg.max_games.is_multiple_of(2) {
        return Err(PromoteError::Config(format!("--max-games {}: an even number, at least 2", cfg.max_games)));
    }
    if cfg.clock.is_none() == cfg.nodes.is_none() {
        return Err(PromoteError::Config("give a clock (--tc) or a node limit (--nodes), not both".into()));
    }
    let writes_declarations = cfg.out.is_none() && !cfg.dry_run;
    let (default, old_text, shown) = match &cfg.default {
        Some(path) => {
            let default = Params::load(path)?;
            (default, std::fs::read_to_string(path).map_err(|e| io(path, e))?, path.display().to_string())
        }
        None if writes_declarations => return Err(PromoteError::Config(BUILT_IN_NOT_REPLACED.into())),
        None => (Params::default(), evochess::params::DEFAULT_TOML.to_string(), "the built-in default".into()),
    };
    let candidate = default.with_file(&cfg.candidate)?;
    if candidate == default {
        return Err(PromoteError::Config(format!(
            "{} sets every value as {shown} does: nothing to test",
            cfg.candidate.display()
        )));
    }
    // Found out now, not after hours of games.
    let root = match (&cfg.default, writes_declarations) {
        (Some(path), true) => {
            let root = root_of(path);
            rewritten_declarations(&root, &candidate)?;
            Some((root, path))
        }
        _ => None,
    };
    if !cfg.engine.is_file() {
        return Err(PromoteError::Config(format!("engine {} not found", cfg.engine.display())));
    }
    Ok(Checked { default, old_text, candidate, root })
}

/// The match: the candidate against the default, both the same engine given their parameter
/// files, colour-swapped game pairs from the book until the SPRT decides or the cap.
fn match_config(
    cfg: &PromoteConfig,
    cand_file: &Path,
    def_file: &Path,
    limits: SearchLimits,
) -> Result<MatchConfig, PromoteError> {
    let engines = vec![
        EngineSpec::new("candidate", &cfg.engine).with_params(cand_file).with_limits(limits.clone()),
        EngineSpec::new("default", &cfg.engine).with_params(def_file).with_limits(limits),
    ];
    let mut m = MatchConfig::new(engines, Tournament::Match);
    m.games = 2;
    m.rounds = u32::try_from(cfg.max_games / 2).map_err(|_| PromoteError::Config("--max-games is too large".into()))?;
    m.repeat = true;
    m.concurrency = cfg.concurrency.max(1);
    m.seed = cfg.seed;
    m.sprt = Some(cfg.sprt);
    m.adjudication = cfg.adjudication.clone();
    let book = [format!("file={}", cfg.openings.display()), "order=random".to_string()];
    m.openings = Some(OpeningsConfig::parse(&book).map_err(|e| PromoteError::Config(format!("--openings: {e}")))?);
    m.state = Some(cfg.dir.join("games.state.jsonl"));
    m.resume = cfg.resume;
    m.pgn_out = Some(cfg.dir.join("games.pgn"));
    m.event = "evochess promote".into();
    Ok(m)
}

/// The promoted file: the candidate's values under a header giving their lineage (the
/// candidate, `--lineage`, the games' settings, the SPRT line, the bench signatures, the command
/// and the header of the default it replaces).
fn promoted_text(
    cfg: &PromoteConfig,
    sprt_line: &str,
    old_text: &str,
    candidate: &Params,
    cand_file: &Path,
) -> Result<String, PromoteError> {
    let engine_bench = bench_signature(&cfg.engine, None)?;
    let promoted_bench = bench_signature(&cfg.engine, Some(cand_file))?;
    let settings = match (&cfg.clock, cfg.nodes) {
        (Some(tc), _) => format!("tc {tc}"),
        (None, Some(n)) => format!("{n} nodes a move"),
        (None, None) => unreachable!("checked above"),
    };
    let mut lines = vec![
        "Promoted by `tuner promote`: these values beat the previous default in an SPRT.".to_string(),
        format!("Candidate: {}", cfg.candidate.display()),
    ];
    lines.extend(cfg.lineage.iter().map(|l| format!("Lineage: {l}")));
    lines.push(format!(
        "Games: {settings}, book {}, seed {}, concurrency {}, engine {}",
        cfg.openings.display(),
        cfg.seed,
        cfg.concurrency.max(1),
        cfg.engine.display()
    ));
    lines.push(sprt_line.to_string());
    lines.push(format!(
        "Bench: {promoted_bench} (these values); {engine_bench} (the binary that played, with the previous defaults)"
    ));
    lines.push(format!("Command: {}", cfg.command));
    let (old_header, _) = default_file::split_header(old_text);
    let previous: Vec<&str> = old_header
        .strip_prefix(default_file::PREAMBLE)
        .unwrap_or(old_header)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.strip_prefix('#').unwrap_or(l).trim_start())
        .collect();
    if !previous.is_empty() {
        lines.push("The default it replaced:".into());
        lines.extend(previous.iter().map(|l| format!("  {l}")));
    }
    Ok(default_file::file_text(&default_file::header(&lines), candidate))
}

/// Writes the promoted `text` to `--out`, or replaces the checkout's declarations and default
/// file (`root`); returns the files written.
fn write_promoted(
    cfg: &PromoteConfig,
    root: Option<(PathBuf, &PathBuf)>,
    candidate: &Params,
    text: &str,
) -> Result<Vec<PathBuf>, PromoteError> {
    if let Some(out) = &cfg.out {
        write_atomic(out, text.as_bytes()).map_err(|e| io(out, e))?;
        return Ok(vec![out.clone()]);
    }
    let Some((root, default_path)) = root else { return Err(PromoteError::Config(BUILT_IN_NOT_REPLACED.into())) };
    let mut written = Vec::new();
    // The declarations first: a failure there leaves the default file as it was, still agreeing
    // with the declarations that were not rewritten.
    for (path, new) in rewritten_declarations(&root, candidate)? {
        write_atomic(&path, new.as_bytes()).map_err(|e| io(&path, e))?;
        written.push(path);
    }
    write_atomic(default_path, text.as_bytes()).map_err(|e| io(default_path, e))?;
    written.push(default_path.clone());
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declarations_are_found_beside_the_default_file() {
        assert_eq!(root_of(Path::new("/repo/params/default.toml")), Path::new("/repo"));
        assert_eq!(root_of(Path::new("params/default.toml")), Path::new(""));
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let files = rewritten_declarations(&repo, &Params::default()).unwrap();
        for (path, text) in &files {
            assert_eq!(&std::fs::read_to_string(path).unwrap(), text, "the defaults rewrite to the same file");
        }
        let e = rewritten_declarations(Path::new("/nonexistent"), &Params::default()).unwrap_err().to_string();
        assert!(e.contains("/nonexistent/src/eval/params.rs") && e.contains("--out"), "{e}");
    }

    #[test]
    fn exit_codes_keep_clear_of_errors_and_usage() {
        assert_eq!(Outcome::Promoted.exit_code(), 0);
        assert_eq!(Outcome::Rejected.exit_code(), 3);
        assert_eq!(Outcome::Inconclusive.exit_code(), 4);
    }

    #[test]
    fn sprt_progress_reports_each_count_of_ten_pairs_once() {
        use arena::{
            outcome::{GameOutcome, Termination},
            results::GameSummary,
            stats::SprtModel,
        };
        let sprt =
            Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, model: SprtModel::Normalized, trinomial: false };
        let game = |white, outcome| GameSummary {
            white,
            black: 1 - white,
            outcome,
            termination: Termination::Normal,
            reason: String::new(),
            plies: 40,
        };
        let mut standings = Standings::new(&["candidate".into(), "default".into()], &[(0, 1)]);
        let mut progress = SprtProgress::new(sprt);
        let mut lines = Vec::new();
        for pair in 0..20 {
            standings.add_unit(&[game(0, GameOutcome::WhiteWins), game(1, GameOutcome::Draw)]);
            // The runner calls the observer once per game, both with the pair's standings.
            for _ in 0..2 {
                if let Some(line) = progress.line(&standings) {
                    lines.push((pair, line));
                }
            }
        }
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines[0].0, 9);
        assert!(lines[0].1.starts_with("10-0-10 (W-L-D), LLR "), "{}", lines[0].1);
        assert!(lines[0].1.ends_with(" (-2.94, 2.94) [0, 10] normalized Elo"), "{}", lines[0].1);
        assert!(lines[1].1.starts_with("20-0-20 (W-L-D)"), "{}", lines[1].1);
    }

    /// W-L-D as every other report; the model named; no NaN after games all won.
    #[test]
    fn the_sprt_line_is_w_l_d_and_names_its_model() {
        use arena::{
            outcome::{GameOutcome, Termination},
            results::GameSummary,
            stats::SprtModel,
        };
        let sprt =
            Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, model: SprtModel::Normalized, trinomial: false };
        let game = |white, outcome| GameSummary {
            white,
            black: 1 - white,
            outcome,
            termination: Termination::Normal,
            reason: String::new(),
            plies: 40,
        };
        let mut standings = Standings::new(&["candidate".into(), "default".into()], &[(0, 1)]);
        standings.add_unit(&[game(0, GameOutcome::WhiteWins), game(1, GameOutcome::BlackWins)]);
        let status = standings.sprt_status(&sprt);
        let line = sprt_line(&sprt, status.as_ref(), &standings.pair_stats());
        assert!(line.starts_with("SPRT normalized elo0=0 elo1=10 alpha=0.05 beta=0.05: LLR "), "{line}");
        assert!(
            line.ends_with("; games 2: W 2 L 0 D 0; Ptnml(0-2) [0, 0, 0, 0, 1]; Elo +inf (every game won) (95%)"),
            "{line}"
        );
        standings.add_unit(&[game(0, GameOutcome::Draw), game(1, GameOutcome::WhiteWins)]);
        let line = sprt_line(&sprt, standings.sprt_status(&sprt).as_ref(), &standings.pair_stats());
        assert!(line.contains("; games 4: W 2 L 1 D 1; "), "{line}");
    }
}
