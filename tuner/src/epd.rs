//! `tuner epd`: solve counts of any UCI engine on EPD test suites (WAC, ECM, Arasan, STS, ...).
//!
//! The engine is a *process* driven over UCI by [`arena::engine::uci`] (an [`EngineSpec`], so
//! `params=`, `option.X=` and the runner's start-up checks apply), which makes the counts
//! comparable across engines (David et al. Tables III and VII compare EVOL* with CRAFTY and
//! commercial programs on ECM at 5 s per position). Each position is searched from a fresh game
//! (`ucinewgame`) with a fixed limit: `go movetime`, `go nodes` or `go depth`.
//!
//! * `bm`/`am` records: solved when the engine's move is a `bm` move (any one) and not an `am`
//!   move. Records are parsed by [`evochess::measure::epd_suite::parse_epd_line`].
//! * STS records (`c0 "f5=10, Be5+=2, ..."`): scored with the c0 points of the move played
//!   (0 for a move not listed), out of the best listed value; `solved` still means the `bm`.
//!
//! Suites may be marked *held out* (`--held`): they are reported separately, for suites not
//! used in training (search-evolve trains on WAC + Arasan by default).

use std::{
    path::{Path, PathBuf},
    sync::{
        Mutex,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
    thread,
    time::Duration,
};

use evochess::measure::epd_suite::{EpdEntry, EpdError, parse_epd_line};
use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, EnPassantMode, Move, fen::Fen, san::SanPlus, uci::UciMove};
use thiserror::Error;

use arena::engine::{
    spec::{EngineSpec, SpecError},
    transport::{EngineError, Timeouts},
    uci::{Go, UciClient},
};

/// Why a suite could not be read or solved.
#[derive(Debug, Error)]
pub enum SuiteError {
    #[error("suite {path}: {reason}")]
    Io { path: String, reason: std::io::Error },
    #[error("suite {path}: {reason}")]
    Parse { path: String, reason: EpdError },
    #[error("suite {path}: line {line}: c0 entry `{item}`: {reason}")]
    Points { path: String, line: usize, item: String, reason: String },
    #[error("suite {0} has no positions")]
    Empty(String),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("position {id}: engine `{engine}` played `{mv}`, which is not a legal move there")]
    IllegalMove { id: String, engine: String, mv: String },
}

/// One position of a suite, with where it came from.
#[derive(Clone, Debug)]
pub struct SuitePosition {
    /// The suite file's name (without directories).
    pub suite: String,
    pub held: bool,
    pub entry: EpdEntry,
    pub fen: String,
    /// STS points per move from the `c0` operation; empty for plain `bm`/`am` records.
    pub points: Vec<(Move, u32)>,
}

impl SuitePosition {
    /// Best points available (STS), or 0.
    pub fn max_points(&self) -> u32 {
        self.points.iter().map(|p| p.1).max().unwrap_or(0)
    }
}

/// The operand of operation `code` (e.g. `c0`), quotes removed.
fn operand<'a>(line: &'a str, code: &str) -> Option<&'a str> {
    let mut quoted = false;
    let mut start = 0;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                let op = line[start..i].trim();
                if let Some(rest) = op.strip_prefix(code)
                    && rest.starts_with(char::is_whitespace)
                {
                    return Some(rest.trim().trim_matches('"'));
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    None
}

/// STS points per move.
type StsPoints = Vec<(Move, u32)>;

/// Parses an STS `c0` operand (`f5=10, Be5+=2`); `None` when the operand is not of that form
/// (many suites use `c0` for free text, such as Arasan's `"Gaw Paw Sicilian: http://...?tid=18253"`,
/// so an operand is STS points only when every item is SAN `=` number).
fn parse_points(entry: &EpdEntry, c0: &str) -> Option<Result<StsPoints, (String, String)>> {
    let items: Vec<&str> = c0.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    let pairs: Vec<(&str, SanPlus, u32)> = items
        .iter()
        .map(|it| {
            let (san, points) = it.rsplit_once('=')?;
            let san = san.trim();
            Some((san, san.parse::<SanPlus>().ok()?, points.trim().parse().ok()?))
        })
        .collect::<Option<_>>()?;
    if pairs.is_empty() {
        return None;
    }
    Some(
        pairs
            .into_iter()
            .map(|(text, san, points)| {
                san.san.to_move(&entry.pos).map(|m| (m, points)).map_err(|e| (text.to_string(), e.to_string()))
            })
            .collect(),
    )
}

/// Reads a suite file; `held` marks it as held out. Blank lines and `#` comments are skipped.
/// A `../shared/data/...` path is looked up in the shared data directory when it is not there.
///
/// # Errors
/// The file cannot be read, a record is malformed (the error names the line), or it is empty.
pub fn load_suite(path: &Path, held: bool) -> Result<Vec<SuitePosition>, SuiteError> {
    let path = &crate::paths::resolve_data_path(path);
    let p = path.display().to_string();
    let text = evochess::input::read_text(path, evochess::input::MAX_DATA_BYTES)
        .map_err(|e| SuiteError::Io { path: p.clone(), reason: std::io::Error::other(e.reason()) })?;
    let suite = path.file_name().map_or_else(|| p.clone(), |f| f.to_string_lossy().into_owned());
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let entry = parse_epd_line(line, i + 1).map_err(|reason| SuiteError::Parse { path: p.clone(), reason })?;
        let points = match operand(line, "c0").and_then(|c0| parse_points(&entry, c0)) {
            None => Vec::new(),
            Some(Ok(points)) => points,
            Some(Err((item, reason))) => {
                return Err(SuiteError::Points { path: p.clone(), line: i + 1, item, reason });
            }
        };
        let fen = Fen::from_position(&entry.pos, EnPassantMode::Legal).to_string();
        out.push(SuitePosition { suite: suite.clone(), held, entry, fen, points });
    }
    if out.is_empty() {
        return Err(SuiteError::Empty(p));
    }
    Ok(out)
}

/// Loads training suites then held-out suites, in order.
pub fn load_suites(train: &[PathBuf], held: &[PathBuf]) -> Result<Vec<SuitePosition>, SuiteError> {
    let mut all = Vec::new();
    for (files, is_held) in [(train, false), (held, true)] {
        for f in files {
            all.extend(load_suite(f, is_held)?);
        }
    }
    Ok(all)
}

/// What the engine did on one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionResult {
    pub suite: String,
    pub held: bool,
    pub id: String,
    /// The engine's move, in UCI notation.
    pub bestmove: String,
    pub solved: bool,
    /// STS points scored and available (both 0 for non-STS records).
    pub points: u32,
    pub max_points: u32,
    pub nodes: Option<u64>,
    pub time_ms: u64,
}

/// Totals of one suite file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteSummary {
    pub suite: String,
    pub held: bool,
    pub solved: usize,
    pub total: usize,
    pub points: u32,
    pub max_points: u32,
}

/// The `go` command for an engine's limits: movetime, nodes and depth as configured.
pub fn go_for(spec: &EngineSpec) -> Go {
    Go { movetime: spec.limits.movetime_ms, nodes: spec.limits.nodes, depth: spec.limits.depth, ..Go::default() }
}

/// Searches every position with `concurrency` engine processes (each a worker taking positions
/// one at a time); results are in input order. `progress` sees each result as it arrives.
///
/// # Errors
/// An engine fails to start or to answer (after one restart), or plays an illegal move.
pub fn solve_suite(
    spec: &EngineSpec,
    positions: &[SuitePosition],
    concurrency: usize,
    stall: Duration,
    progress: &(dyn Fn(&PositionResult) + Sync),
) -> Result<Vec<PositionResult>, SuiteError> {
    let mut spec = spec.clone();
    spec.validate()?;
    let go = go_for(&spec);
    let deadline = Duration::from_millis(spec.limits.movetime_ms.unwrap_or(0)) + stall;
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<PositionResult>>> = Mutex::new(vec![None; positions.len()]);
    let first_error: Mutex<Option<SuiteError>> = Mutex::new(None);
    thread::scope(|s| {
        for _ in 0..concurrency.clamp(1, positions.len().max(1)) {
            s.spawn(|| {
                let mut engine: Option<UciClient> = None;
                while !failed.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = positions.get(i) else { break };
                    match solve_one(&spec, &mut engine, p, &go, deadline) {
                        Ok(r) => {
                            progress(&r);
                            results.lock().expect("no poisoning")[i] = Some(r);
                        }
                        Err(e) => {
                            failed.store(true, Ordering::Relaxed);
                            first_error.lock().expect("no poisoning").get_or_insert(e);
                        }
                    }
                }
                if let Some(e) = engine {
                    e.quit();
                }
            });
        }
    });
    if let Some(e) = first_error.into_inner().expect("no poisoning") {
        return Err(e);
    }
    Ok(results.into_inner().expect("no poisoning").into_iter().map(|r| r.expect("every position searched")).collect())
}

/// One position; restarts the engine once if it died or stalled.
fn solve_one(
    spec: &EngineSpec,
    engine: &mut Option<UciClient>,
    p: &SuitePosition,
    go: &Go,
    deadline: Duration,
) -> Result<PositionResult, SuiteError> {
    let mut attempt = 0;
    let result = loop {
        attempt += 1;
        if engine.as_ref().is_none_or(|e| !e.is_healthy()) {
            *engine = Some(spec.start_uci(Timeouts::default())?);
        }
        let e = engine.as_mut().expect("started");
        let r = e.new_game().and_then(|()| e.position(Some(&p.fen), &[])).and_then(|()| e.go(go, deadline));
        match r {
            Ok(r) => break r,
            Err(err) if attempt >= 2 => return Err(err.into()),
            Err(err) => {
                log::warn!("{}: {err}; restarting the engine", p.entry.id);
                if let Some(e) = engine.take() {
                    e.quit();
                }
            }
        }
    };
    let mv = result.bestmove.parse::<UciMove>().ok().and_then(|u| u.to_move(&p.entry.pos).ok()).ok_or_else(|| {
        SuiteError::IllegalMove { id: p.entry.id.clone(), engine: spec.name.clone(), mv: result.bestmove.clone() }
    })?;
    let e = &p.entry;
    let solved = (e.best.is_empty() || e.best.contains(&mv)) && !e.avoid.contains(&mv);
    Ok(PositionResult {
        suite: p.suite.clone(),
        held: p.held,
        id: e.id.clone(),
        bestmove: mv.to_uci(CastlingMode::Standard).to_string(),
        solved,
        points: p.points.iter().find(|(m, _)| *m == mv).map_or(0, |x| x.1),
        max_points: p.max_points(),
        nodes: result.nodes,
        time_ms: result.elapsed.as_millis() as u64,
    })
}

/// Per-suite totals, in the order suites first appear.
pub fn summarize(results: &[PositionResult]) -> Vec<SuiteSummary> {
    let mut out: Vec<SuiteSummary> = Vec::new();
    for r in results {
        let i = match out.iter().position(|s| s.suite == r.suite && s.held == r.held) {
            Some(i) => i,
            None => {
                out.push(SuiteSummary {
                    suite: r.suite.clone(),
                    held: r.held,
                    solved: 0,
                    total: 0,
                    points: 0,
                    max_points: 0,
                });
                out.len() - 1
            }
        };
        let s = &mut out[i];
        s.total += 1;
        s.solved += usize::from(r.solved);
        s.points += r.points;
        s.max_points += r.max_points;
    }
    out
}

/// The text report: one row per position, then the totals per suite and per set.
pub fn format_report(engine: &str, results: &[PositionResult]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ =
        writeln!(s, "{:<32} {:<6} {:<8} {:>6} {:>12} {:>8}  suite", "id", "move", "result", "points", "nodes", "ms");
    for r in results {
        let pts = if r.max_points > 0 { format!("{}/{}", r.points, r.max_points) } else { "-".into() };
        let _ = writeln!(
            s,
            "{:<32} {:<6} {:<8} {:>6} {:>12} {:>8}  {}{}",
            r.id,
            r.bestmove,
            if r.solved { "solved" } else { "missed" },
            pts,
            r.nodes.map_or_else(|| "-".into(), |n| n.to_string()),
            r.time_ms,
            r.suite,
            if r.held { " (held out)" } else { "" }
        );
    }
    for sum in summarize(results) {
        let pts =
            if sum.max_points > 0 { format!(", {}/{} STS points", sum.points, sum.max_points) } else { String::new() };
        let _ = writeln!(
            s,
            "{engine}: {}{}: solved {}/{}{pts}",
            sum.suite,
            if sum.held { " (held out)" } else { "" },
            sum.solved,
            sum.total
        );
    }
    for (held, label) in [(false, "training"), (true, "held-out")] {
        let set: Vec<&PositionResult> = results.iter().filter(|r| r.held == held).collect();
        if !set.is_empty() && results.iter().any(|r| r.held != held) {
            let solved = set.iter().filter(|r| r.solved).count();
            let _ = writeln!(s, "{engine}: {label} suites: solved {solved}/{}", set.len());
        }
    }
    let solved = results.iter().filter(|r| r.solved).count();
    let _ = writeln!(s, "{engine}: solved {solved}/{}", results.len());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sts_points_are_parsed_and_free_text_c0_is_ignored() {
        let line = r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id "STS.001"; c0 "f5=10, Be5+=2, Bf2=3, Bg4=2";"#;
        let e = parse_epd_line(line, 1).unwrap();
        let pts = parse_points(&e, operand(line, "c0").unwrap()).unwrap().unwrap();
        assert_eq!(pts.iter().map(|p| p.1).collect::<Vec<_>>(), vec![10, 2, 3, 2]);
        let line =
            r#"r1bq1r1k/p1pnbpp1/1p2p3/6p1/3PB3/5N2/PPPQ1PPP/2KR3R w - - bm g4; id "a.1"; c0 "Polgar-Berkes, 2003";"#;
        let e = parse_epd_line(line, 1).unwrap();
        assert!(parse_points(&e, operand(line, "c0").unwrap()).is_none());
        // Arasan 2024 line 84: free text that happens to end in `=<number>`.
        let line = r#"rnb1kb1r/pp1p1ppp/1q2p3/8/3NP1n1/2N1B3/PPP2PPP/R2QKB1R w KQkq - bm Qxg4; id "arasan2024.84"; c0 "Gaw Paw Sicilian: http://rybkaforum.net/cgi-bin/rybkaforum/topic_show.pl?tid=18253";"#;
        let e = parse_epd_line(line, 1).unwrap();
        assert!(parse_points(&e, operand(line, "c0").unwrap()).is_none());
        let bad = r#"1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; c0 "f5=10, Qh8=2";"#;
        let e = parse_epd_line(bad, 1).unwrap();
        let err = parse_points(&e, operand(bad, "c0").unwrap()).unwrap().unwrap_err();
        assert_eq!(err.0, "Qh8");
    }

    #[test]
    fn summary_counts_per_suite() {
        let r = |suite: &str, held, solved, points| PositionResult {
            suite: suite.into(),
            held,
            id: "x".into(),
            bestmove: "e2e4".into(),
            solved,
            points,
            max_points: 10,
            nodes: None,
            time_ms: 1,
        };
        let s = summarize(&[r("a", false, true, 10), r("a", false, false, 3), r("b", true, true, 0)]);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].solved, s[0].total, s[0].points, s[0].max_points), (1, 2, 13, 20));
        assert!(s[1].held);
        let text = format_report("e", &[r("a", false, true, 10), r("b", true, false, 0)]);
        assert!(text.contains("held-out suites: solved 0/1"), "{text}");
        assert!(text.contains("e: solved 1/2"), "{text}");
    }
}
