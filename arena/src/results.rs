//! Match standings, the machine-readable results file, and the resume journal.
//!
//! The journal is append-only JSON lines: a header with the configuration fingerprint, then one
//! line per finished game pair with its game summaries and the PGN/EPD file lengths after that
//! pair was written. On `--resume` the journal is replayed, output files are truncated to the
//! last recorded lengths (dropping games a kill interrupted half-way), and only pairs not in
//! the journal are played: no finished game is lost or written twice.

use std::{
    collections::{BTreeMap, HashSet},
    fs::File,
    io::{self, Read, Seek, SeekFrom, Write},
    path::{Path, PathBuf},
};

use crate::files::{open_exclusive, write_atomic};

use serde::{Deserialize, Serialize};
use shakmaty::Color;
use thiserror::Error;

use crate::{
    game::GameRecord,
    outcome::{GameOutcome, Termination},
    stats::{EloEstimate, Penta, Sprt, SprtDecision, SprtModel, Wdl, elo::elo_text},
};

/// What the statistics need from a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    pub white: usize,
    pub black: usize,
    pub outcome: GameOutcome,
    pub termination: Termination,
    pub reason: String,
    pub plies: u32,
}

impl GameSummary {
    pub fn of(g: &GameRecord) -> GameSummary {
        GameSummary {
            white: g.white_index,
            black: g.black_index,
            outcome: g.result.outcome,
            termination: g.result.termination,
            reason: g.result.reason.clone(),
            plies: (g.opening_uci.len() + g.moves.len()) as u32,
        }
    }

    /// Points scored by engine `e` (which must have played).
    pub fn points(&self, e: usize) -> f64 {
        self.outcome.score_for(if self.white == e { Color::White } else { Color::Black })
    }
}

/// One encounter's results from `first`'s point of view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairStats {
    pub first: usize,
    pub second: usize,
    pub first_name: String,
    pub second_name: String,
    pub wdl: Wdl,
    pub penta: Penta,
    /// Trinomial estimate for `first` (cutechess formulas).
    pub elo: Option<EloEstimate>,
    /// Pentanomial estimate for `first` (fastchess formulas); `None` without game pairs.
    pub penta_elo: Option<EloEstimate>,
    /// `first`'s points.
    pub points: f64,
    pub games: u64,
}

/// One engine's totals over all its games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineTotals {
    pub name: String,
    pub games: u64,
    pub points: f64,
    pub wdl: Wdl,
    /// Losses by time forfeit, illegal move, disconnect or stall.
    pub forfeits: u64,
    pub time_forfeits: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
    /// What elo0 and elo1 are measured in (results written before it was recorded: logistic,
    /// as [`Sprt`] reads them).
    #[serde(default = "SprtModel::legacy")]
    pub model: SprtModel,
}

impl SprtStatus {
    /// How far the LLR has gone towards the bound on its side, signed, ±1 at the bounds
    /// (fastchess's `getFraction`, printed as `LLR: 1.23 (41.8%)`).
    pub fn fraction(&self) -> f64 {
        if self.llr >= 0.0 { self.llr / self.upper } else { -self.llr / self.lower }
    }
}

/// The results file the GA reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResults {
    pub engines: Vec<String>,
    pub games_planned: u64,
    pub games_played: u64,
    pub pairs: Vec<PairStats>,
    pub totals: Vec<EngineTotals>,
    /// Games by PGN `Termination` value.
    pub terminations: BTreeMap<String, u64>,
    pub sprt: Option<SprtStatus>,
    /// True when the match ended before all planned games (SPRT decision).
    pub stopped_early: bool,
    /// Games read back from the journal of a resumed match: the wall and CPU times below count
    /// only the games played since (absent in files written before it was recorded).
    #[serde(default)]
    pub games_resumed: u64,
    pub wall_seconds: f64,
    /// CPU seconds of the runner process itself and of its (reaped) engine processes.
    pub runner_cpu_seconds: f64,
    pub engines_cpu_seconds: f64,
}

impl MatchResults {
    /// Points of `a` against `b` (and games played), from whichever side the pair is stored.
    pub fn score_of(&self, a: usize, b: usize) -> Option<(f64, u64)> {
        self.pairs.iter().find_map(|p| {
            if p.first == a && p.second == b {
                Some((p.points, p.games))
            } else if p.first == b && p.second == a {
                Some((p.games as f64 - p.points, p.games))
            } else {
                None
            }
        })
    }

    pub fn write_json(&self, path: &Path) -> io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(io::Error::other)?;
        write_atomic(path, text.as_bytes())
    }
}

/// Running standings of a match.
#[derive(Clone, Debug)]
pub struct Standings {
    names: Vec<String>,
    /// Keyed by (first, second) as configured in the pairings.
    pairs: BTreeMap<(usize, usize), (Wdl, Penta)>,
    totals: Vec<EngineTotals>,
    terminations: BTreeMap<String, u64>,
    pub games: u64,
}

impl Standings {
    pub fn new(names: &[String], pairings: &[(usize, usize)]) -> Standings {
        Standings {
            names: names.to_vec(),
            pairs: pairings.iter().map(|&p| (p, (Wdl::default(), Penta::default()))).collect(),
            totals: names
                .iter()
                .map(|n| EngineTotals {
                    name: n.clone(),
                    games: 0,
                    points: 0.0,
                    wdl: Wdl::default(),
                    forfeits: 0,
                    time_forfeits: 0,
                })
                .collect(),
            terminations: BTreeMap::new(),
            games: 0,
        }
    }

    /// Adds the games of one unit (a colour-swapped pair, or a single game).
    pub fn add_unit(&mut self, games: &[GameSummary]) {
        for g in games {
            self.games += 1;
            *self.terminations.entry(g.termination.pgn().to_string()).or_default() += 1;
            for (e, c) in [(g.white, Color::White), (g.black, Color::Black)] {
                let t = &mut self.totals[e];
                let pts = g.outcome.score_for(c);
                t.games += 1;
                t.points += pts;
                t.wdl.add(pts);
                if pts == 0.0 {
                    if matches!(
                        g.termination,
                        Termination::TimeForfeit
                            | Termination::IllegalMove
                            | Termination::Disconnect
                            | Termination::Stall
                    ) {
                        t.forfeits += 1;
                    }
                    if g.termination == Termination::TimeForfeit {
                        t.time_forfeits += 1;
                    }
                }
            }
            if let Some(key) = self.key(g.white, g.black) {
                let (wdl, _) = self.pairs.get_mut(&key).expect("key exists");
                wdl.add(g.points(key.0));
            }
        }
        if let [a, b] = games
            && let Some(key) = self.key(a.white, a.black)
            && self.key(b.white, b.black) == Some(key)
        {
            let (_, penta) = self.pairs.get_mut(&key).expect("key exists");
            penta.add_pair(a.points(key.0), b.points(key.0));
        }
    }

    fn key(&self, x: usize, y: usize) -> Option<(usize, usize)> {
        [(x, y), (y, x)].into_iter().find(|k| self.pairs.contains_key(k))
    }

    pub fn pair(&self, first: usize, second: usize) -> Option<(Wdl, Penta)> {
        self.pairs.get(&(first, second)).copied()
    }

    pub fn pair_stats(&self) -> Vec<PairStats> {
        self.pairs
            .iter()
            .map(|(&(a, b), (wdl, penta))| PairStats {
                first: a,
                second: b,
                first_name: self.names[a].clone(),
                second_name: self.names[b].clone(),
                wdl: *wdl,
                penta: *penta,
                elo: wdl.elo(),
                penta_elo: penta.elo(),
                points: wdl.wins as f64 + wdl.draws as f64 / 2.0,
                games: wdl.games(),
            })
            .collect()
    }

    pub fn totals(&self) -> &[EngineTotals] {
        &self.totals
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn terminations(&self) -> &BTreeMap<String, u64> {
        &self.terminations
    }

    /// SPRT status of the first pairing ([`Sprt::llr`] chooses pairs or games).
    pub fn sprt_status(&self, sprt: &Sprt) -> Option<SprtStatus> {
        let (wdl, penta) = self.pairs.values().next()?;
        let llr = sprt.llr(wdl, penta);
        Some(SprtStatus {
            elo0: sprt.elo0,
            elo1: sprt.elo1,
            alpha: sprt.alpha,
            beta: sprt.beta,
            llr,
            lower: sprt.lower(),
            upper: sprt.upper(),
            decision: sprt.decision(llr),
            model: sprt.model,
        })
    }

    /// cutechess/fastchess-style rating report for every pairing.
    pub fn report(&self, sprt: Option<&Sprt>) -> String {
        rating_report(&self.pair_stats(), sprt.and_then(|sp| self.sprt_status(sp)).as_ref())
    }
}

/// The rating report: per pairing W-L-D, score, Elo ± 95% CI, LOS, draw ratio, pentanomial
/// counts and Elo; then the SPRT line.
pub fn rating_report(pairs: &[PairStats], sprt: Option<&SprtStatus>) -> String {
    let mut s = String::new();
    let fmt_elo = |e: Option<EloEstimate>| match e {
        Some(e) => elo_text(e.elo, e.error, 2),
        None => "-".into(),
    };
    for p in pairs.iter().filter(|p| p.games > 0) {
        s.push_str(&format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}\n",
            p.first_name,
            p.second_name,
            p.wdl.wins,
            p.wdl.losses,
            p.wdl.draws,
            p.wdl.score(),
            p.games
        ));
        s.push_str(&format!(
            "Elo difference: {}, LOS: {:.1} %, DrawRatio: {:.1} %\n",
            fmt_elo(p.elo),
            p.elo.map_or(50.0, |e| e.los * 100.0),
            p.wdl.draw_ratio() * 100.0
        ));
        if p.penta.pairs() > 0 {
            let b = p.penta.buckets();
            s.push_str(&format!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}], pentanomial Elo: {}, LOS: {:.1} %\n",
                b[0],
                b[1],
                b[2],
                b[3],
                b[4],
                fmt_elo(p.penta_elo),
                p.penta_elo.map_or(50.0, |e| e.los * 100.0)
            ));
        }
    }
    if let Some(sp) = sprt {
        s.push_str(&sprt_report_line(sp));
        s.push('\n');
    }
    s
}

/// cutechess's SPRT line with the hypotheses and what they are measured in added:
/// `SPRT: llr 0.123 (4.2%), lbound -2.94, ubound 2.94 [0, 5] normalized Elo`, then
/// ` - H1 was accepted` (or H0) once decided.
pub fn sprt_report_line(sp: &SprtStatus) -> String {
    format!(
        "SPRT: llr {:.3} ({:.1}%), lbound {:.2}, ubound {:.2} [{}, {}] {}{}",
        sp.llr,
        100.0 * sp.llr / sp.upper,
        sp.lower,
        sp.upper,
        sp.elo0,
        sp.elo1,
        sp.model.unit(),
        match sp.decision {
            SprtDecision::AcceptH0 => " - H0 was accepted",
            SprtDecision::AcceptH1 => " - H1 was accepted",
            SprtDecision::Continue => "",
        }
    )
}

/// The ranked standings table that ends cutechess's and fastchess's tournaments:
/// `Rank Name Elo +/- Games Score Draw`, one row per engine, best Elo (of its games against all
/// opponents, trinomial as cutechess computes it) first; engines without games last, in order.
pub fn ranking_table(totals: &[EngineTotals]) -> String {
    let mut rows: Vec<(&EngineTotals, Option<EloEstimate>)> = totals.iter().map(|t| (t, t.wdl.elo())).collect();
    // Stable: equal ratings keep the command line's order.
    rows.sort_by(|a, b| {
        let key = |e: &Option<EloEstimate>| e.map_or(f64::NEG_INFINITY, |e| e.elo);
        key(&b.1).partial_cmp(&key(&a.1)).unwrap_or(std::cmp::Ordering::Equal)
    });
    let width = rows.iter().map(|(t, _)| t.name.chars().count()).max().unwrap_or(0).max(25);
    let mut s = format!(
        "{:<4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
        "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
    );
    for (rank, (t, elo)) in rows.iter().enumerate() {
        let games = t.wdl.games();
        // Wins only: +inf and no margin (∞ − ∞), not `inf NaN`.
        let (e, err) = elo.map_or(("-".to_string(), "-".to_string()), |e| {
            let elo = if e.elo.is_infinite() { format!("{:+}", e.elo) } else { format!("{:.2}", e.elo) };
            (elo, if e.error.is_nan() { "-".to_string() } else { format!("{:.2}", e.error) })
        });
        let pct = |x: f64| if games == 0 { "-".to_string() } else { format!("{:.1}%", 100.0 * x) };
        s.push_str(&format!(
            "{:>4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
            rank + 1,
            t.name,
            e,
            err,
            games,
            pct(if games == 0 { 0.0 } else { t.wdl.score() }),
            pct(if games == 0 { 0.0 } else { t.wdl.draw_ratio() }),
        ));
    }
    s
}

/// A resume-journal problem.
#[derive(Debug, Error)]
pub enum JournalError {
    #[error("state file `{path}`: {source}")]
    Io { path: String, source: io::Error },
    #[error(
        "state file `{0}` was written for a different match configuration; use the same command line or remove the file"
    )]
    Mismatch(String),
    #[error("--resume: state file `{0}` does not exist")]
    Missing(String),
    #[error("state file `{path}`: {reason}")]
    Corrupt { path: String, reason: String },
}

#[derive(Serialize, Deserialize)]
struct JournalHeader {
    fingerprint: String,
}

/// The `seed` recorded in a journal's match fingerprint, if the file has one.
pub fn journal_seed(path: &Path) -> Option<u64> {
    let text = evochess::input::read_text(path, evochess::input::MAX_DATA_BYTES).ok()?;
    let header: JournalHeader = serde_json::from_str(text.lines().next()?).ok()?;
    let config: serde_json::Value = serde_json::from_str(&header.fingerprint).ok()?;
    config.get("seed")?.as_u64()
}

/// Every unit recorded in a runner journal (header line skipped; a torn last line ignored). A
/// complete line that is not a unit is an error naming its line number.
pub fn journal_units(path: &Path) -> io::Result<Vec<UnitEntry>> {
    let text = evochess::input::read_text(path, evochess::input::MAX_DATA_BYTES)
        .map_err(|e| io::Error::other(e.to_string()))?;
    let mut out = Vec::new();
    for (i, line) in text.split_inclusive('\n').enumerate().skip(1) {
        if !line.ends_with('\n') {
            break;
        }
        let entry = parse_unit(line)
            .map_err(|reason| io::Error::new(io::ErrorKind::InvalidData, format!("line {}: {reason}", i + 1)))?;
        out.push(entry);
    }
    Ok(out)
}

/// One journal line as a unit, or why not (the parser's position only: a journal's text is not
/// quoted back).
fn parse_unit(line: &str) -> Result<UnitEntry, String> {
    serde_json::from_str::<UnitEntry>(line)
        .map_err(|e| format!("not a finished unit ({:?} error at column {})", e.classify(), e.column()).to_lowercase())
}

/// One finished unit in the journal.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UnitEntry {
    pub unit: u64,
    pub games: Vec<GameSummary>,
    pub pgn_len: Option<u64>,
    pub epd_len: Option<u64>,
}

/// The append-only resume journal.
pub struct Journal {
    path: PathBuf,
    file: File,
}

impl Journal {
    /// Starts a new journal (replacing any old one) or, with `resume`, reads an existing one and
    /// returns its finished units.
    pub fn open(path: &Path, fingerprint: &str, resume: bool) -> Result<(Journal, Vec<UnitEntry>), JournalError> {
        Self::open_accepting(path, fingerprint, resume, |old| old == fingerprint)
    }

    /// As [`Journal::open`], but a resumed journal is accepted when `accepts` says its recorded
    /// fingerprint describes the same run (a match extended to more rounds, say); a new journal
    /// records `fingerprint`.
    pub fn open_accepting(
        path: &Path,
        fingerprint: &str,
        resume: bool,
        accepts: impl Fn(&str) -> bool,
    ) -> Result<(Journal, Vec<UnitEntry>), JournalError> {
        let p = path.display().to_string();
        let io_err = |source| JournalError::Io { path: p.clone(), source };
        if resume && !path.exists() {
            return Err(JournalError::Missing(p));
        }
        // Locked before anything is cut, so a second process cannot damage the first's journal.
        let mut file = open_exclusive(path).map_err(io_err)?;
        // A FIFO or a device there would block or never end the read below.
        if !file.metadata().map_err(io_err)?.is_file() {
            return Err(JournalError::Corrupt { path: p, reason: "not a regular file".into() });
        }
        if !resume {
            file.set_len(0).map_err(io_err)?;
            let header = serde_json::to_string(&JournalHeader { fingerprint: fingerprint.to_string() })
                .expect("header serializes");
            writeln!(file, "{header}").and_then(|()| file.sync_all()).map_err(io_err)?;
            return Ok((Journal { path: path.to_path_buf(), file }, Vec::new()));
        }
        let mut text = String::new();
        let cap = evochess::input::MAX_DATA_BYTES;
        (&mut file).take(cap + 1).read_to_string(&mut text).map_err(io_err)?;
        if text.len() as u64 > cap {
            return Err(JournalError::Corrupt { path: p, reason: format!("larger than {cap} bytes") });
        }
        let header: JournalHeader = text
            .lines()
            .next()
            .and_then(|l| serde_json::from_str(l).ok())
            .ok_or_else(|| JournalError::Corrupt { path: p.clone(), reason: "no header line".into() })?;
        if !accepts(&header.fingerprint) {
            return Err(JournalError::Mismatch(p));
        }
        let mut entries = Vec::new();
        let mut good_len = 0u64;
        let mut seen = HashSet::new();
        for (i, line) in text.split_inclusive('\n').enumerate() {
            if i > 0 {
                // A kill can cut only the last line short (its newline is written last): that
                // line is dropped and its unit replayed. A complete line that does not parse was
                // damaged some other way; resuming past it would drop or replay games silently.
                if !line.ends_with('\n') {
                    log::warn!(
                        "state file `{p}`: line {} was cut short (a kill while writing); its unit is played again",
                        i + 1
                    );
                    break;
                }
                match parse_unit(line) {
                    Ok(e) if seen.insert(e.unit) => entries.push(e),
                    Ok(_) => {}
                    Err(reason) => {
                        return Err(JournalError::Corrupt {
                            path: p.clone(),
                            reason: format!(
                                "line {}: {reason}; a kill leaves at most the last line cut short, so the file was \
                                 damaged: repair or delete that line, or start the match afresh without resuming",
                                i + 1
                            ),
                        });
                    }
                }
            }
            good_len += line.len() as u64;
        }
        file.set_len(good_len).map_err(io_err)?;
        file.seek(SeekFrom::End(0)).map_err(io_err)?;
        Ok((Journal { path: path.to_path_buf(), file }, entries))
    }

    /// Records a finished unit durably.
    pub fn append(&mut self, entry: &UnitEntry) -> Result<(), JournalError> {
        let line = serde_json::to_string(entry).expect("entry serializes");
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.sync_data())
            .map_err(|source| JournalError::Io { path: self.path.display().to_string(), source })
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    /// Whether `text` has the word NaN, in any case.
    fn has_nan(text: &str) -> bool {
        text.split(|c: char| !c.is_alphanumeric()).any(|w| w.eq_ignore_ascii_case("nan"))
    }

    fn g(white: usize, black: usize, outcome: GameOutcome) -> GameSummary {
        GameSummary { white, black, outcome, termination: Termination::Normal, reason: String::new(), plies: 10 }
    }

    #[test]
    fn ranking_table_orders_by_elo_and_keeps_engines_without_games() {
        let t = |name: &str, wins, draws, losses| EngineTotals {
            name: name.into(),
            games: wins + draws + losses,
            points: wins as f64 + draws as f64 / 2.0,
            wdl: Wdl { wins, draws, losses },
            forfeits: 0,
            time_forfeits: 0,
        };
        let table = ranking_table(&[t("weak", 1, 2, 5), t("idle", 0, 0, 0), t("strong", 5, 2, 1)]);
        let lines: Vec<&str> = table.lines().collect();
        let cols = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(cols(lines[0]), ["Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"]);
        assert_eq!(cols(lines[1])[..2], ["1", "strong"]);
        assert_eq!(cols(lines[1])[4..], ["8", "75.0%", "25.0%"]);
        assert_eq!(cols(lines[2])[..2], ["2", "weak"]);
        assert!(cols(lines[2])[2].starts_with('-'), "{table}");
        assert_eq!(cols(lines[3]), ["3", "idle", "-", "-", "0", "-", "-"]);
        // Columns line up whatever the name's length.
        assert_eq!(lines[0].len(), lines[1].len());
    }

    #[test]
    fn standings_from_pairs() {
        let names = vec!["a".to_string(), "b".to_string()];
        let mut s = Standings::new(&names, &[(0, 1)]);
        s.add_unit(&[g(0, 1, GameOutcome::WhiteWins), g(1, 0, GameOutcome::Draw)]);
        s.add_unit(&[g(0, 1, GameOutcome::BlackWins), g(1, 0, GameOutcome::WhiteWins)]);
        s.add_unit(&[g(0, 1, GameOutcome::WhiteWins), g(1, 0, GameOutcome::BlackWins)]);
        let (wdl, penta) = s.pair(0, 1).unwrap();
        assert_eq!(wdl, Wdl { wins: 3, draws: 1, losses: 2 });
        assert_eq!(penta, Penta { ll: 1, ld: 0, dd: 0, wl: 0, wd: 1, ww: 1 });
        assert_eq!(s.totals()[1].points, 2.5);
        let report = s.report(None);
        assert!(report.contains("Score of a vs b: 3 - 2 - 1"), "{report}");
        assert!(report.contains("Ptnml(0-2): [1, 0, 0, 1, 1]"), "{report}");
    }

    /// One game, or only wins: no `inf +/- NaN` anywhere (issue 91 item 10b).
    #[test]
    fn reports_of_tiny_or_one_sided_samples_print_no_nan() {
        let names = vec!["a".to_string(), "b".to_string()];
        let mut s = Standings::new(&names, &[(0, 1)]);
        s.add_unit(&[g(0, 1, GameOutcome::WhiteWins)]);
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().with_model(SprtModel::Normalized);
        let report = s.report(Some(&sprt));
        assert!(!has_nan(&report), "{report}");
        assert!(report.contains("Elo difference: +inf (every game won), LOS: "), "{report}");
        s.add_unit(&[g(1, 0, GameOutcome::BlackWins), g(0, 1, GameOutcome::WhiteWins)]);
        let report = s.report(Some(&sprt));
        assert!(report.contains("pentanomial Elo: +inf (every game won)"), "{report}");
        assert!(!has_nan(&report), "{report}");
        let table = ranking_table(s.totals());
        assert!(!has_nan(&table), "{table}");
        let cols: Vec<&str> = table.lines().nth(1).unwrap().split_whitespace().collect();
        assert_eq!(cols[..4], ["1", "a", "+inf", "-"], "{table}");
        let cols: Vec<&str> = table.lines().nth(2).unwrap().split_whitespace().collect();
        assert_eq!(cols[..4], ["2", "b", "-inf", "-"], "{table}");
    }

    /// Every SPRT line names the model its bounds are in (issue 91 item 10a).
    #[test]
    fn the_sprt_line_names_its_model_and_bounds() {
        let names = vec!["a".to_string(), "b".to_string()];
        let mut s = Standings::new(&names, &[(0, 1)]);
        s.add_unit(&[g(0, 1, GameOutcome::WhiteWins), g(1, 0, GameOutcome::Draw)]);
        for (model, unit) in [
            (SprtModel::Normalized, "[0, 5] normalized Elo"),
            (SprtModel::Logistic, "[0, 5] logistic Elo"),
            (SprtModel::Bayesian, "[0, 5] BayesElo"),
            (SprtModel::Cutechess, "[0, 5] BayesElo (cutechess)"),
        ] {
            let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().with_model(model);
            let line = sprt_report_line(&s.sprt_status(&sprt).unwrap());
            assert!(line.starts_with("SPRT: llr "), "{line}");
            assert!(line.ends_with(&format!("lbound -2.94, ubound 2.94 {unit}")), "{line}");
        }
    }

    /// fastchess's `getFraction`, on bounds of different sizes.
    #[test]
    fn sprt_fraction_of_the_bound_on_its_side() {
        // α = 0.05, β = 0.1: lower ln(0.1/0.95) = −2.251292, upper ln(0.9/0.05) = 2.890372.
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap();
        let at = |llr: f64| SprtStatus {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.1,
            llr,
            lower: sprt.lower(),
            upper: sprt.upper(),
            decision: sprt.decision(llr),
            model: sprt.model,
        };
        assert!((at(-2.251_291_799).fraction() + 1.0).abs() < 1e-9);
        assert!((at(2.890_371_758).fraction() - 1.0).abs() < 1e-9);
        assert!((at(-1.125_645_899).fraction() + 0.5).abs() < 1e-9);
        assert_eq!(at(0.0).fraction(), 0.0);
    }

    #[test]
    fn journal_survives_a_torn_line() {
        let dir = std::env::temp_dir().join(format!("tuner-journal-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.jsonl");
        let _ = fs::remove_file(&path);
        let (mut j, done) = Journal::open(&path, "cfg", false).unwrap();
        assert!(done.is_empty());
        let e = UnitEntry { unit: 3, games: vec![g(0, 1, GameOutcome::Draw)], pgn_len: Some(10), epd_len: None };
        j.append(&e).unwrap();
        drop(j);
        // Simulate a kill in the middle of the next append.
        let mut f = fs::OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"unit\":4,\"gam").unwrap();
        drop(f);
        assert!(matches!(Journal::open(&path, "other", true), Err(JournalError::Mismatch(_))));
        let (mut j, done) = Journal::open(&path, "cfg", true).unwrap();
        assert_eq!(done.len(), 1);
        assert_eq!(done[0].unit, 3);
        j.append(&UnitEntry { unit: 4, games: vec![], pgn_len: Some(20), epd_len: None }).unwrap();
        // Held: a second opener (fresh or resuming) is refused and changes nothing.
        for resume in [false, true] {
            let e = Journal::open(&path, "cfg", resume).err().expect("locked");
            assert!(e.to_string().contains("in use by another running tuner"), "{e}");
        }
        drop(j);
        let (_, done) = Journal::open(&path, "cfg", true).unwrap();
        assert_eq!(done.iter().map(|e| e.unit).collect::<Vec<_>>(), vec![3, 4]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_damaged_complete_line_stops_a_resume_naming_file_and_line() {
        let dir = std::env::temp_dir().join(format!("tuner-journal-bad-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("state.jsonl");
        let _ = fs::remove_file(&path);
        let (mut j, _) = Journal::open(&path, "cfg", false).unwrap();
        for unit in [1, 2] {
            j.append(&UnitEntry { unit, games: vec![], pgn_len: None, epd_len: None }).unwrap();
        }
        drop(j);
        // Line 2 (the first unit) damaged; line 3 intact after it.
        let text = fs::read_to_string(&path).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines[1] = "{\"unit\":1,\"gam SECRET";
        fs::write(&path, lines.join("\n") + "\n").unwrap();
        let before = fs::read(&path).unwrap();
        let e = Journal::open(&path, "cfg", true).err().expect("refused").to_string();
        assert!(e.contains(&path.display().to_string()) && e.contains("line 2"), "{e}");
        assert!(!e.contains("SECRET"), "the file's text is not quoted: {e}");
        assert_eq!(fs::read(&path).unwrap(), before, "nothing cut");
        let e = journal_units(&path).unwrap_err().to_string();
        assert!(e.contains("line 2"), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
