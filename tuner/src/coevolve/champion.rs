//! The SPRT-gated champion of a coevolution (`[champion] gate = "sprt"`, issue 45).
//!
//! A round robin's winner is the organism that scored most in a few dozen games against a
//! field that changes every generation. At that sample size the ranking is mostly noise, so the
//! paper's output, the last generation's winner, may be weaker than the files the run started
//! from. With the gate the run keeps a champion, at first the start file (`start`; else the
//! population's first file in natural name order; for a random population the engine's declared
//! defaults). After every `every`-th generation that generation's best organism challenges it
//! in an SPRT of colour-swapped game pairs (normalized Elo between `elo0` and `elo1`, the gate
//! of fishtest and OpenBench), played through the same match runner and executor as the round
//! robins. On H1 the challenger becomes the champion; on H0, or at `max_games`,
//! it is rejected. A challenger holding the champion's values, or those of a challenger already
//! rejected, is not tested again: an elite carried over is the same organism, and each retest
//! would only add a chance of a false promotion.
//!
//! The run's output is the champion: the start file value for value, or a file that passed the
//! gate; its header, the final summary and `champions.csv` give the chain of challenges with
//! their SPRT lines. The start is written to `<out_dir>/champion-start.toml`, so each test
//! pits two files of the run against each other.
//!
//! Each test is journaled like the round robins (`gen-NNN/champion.state.jsonl`, with its PGN
//! `champion.pgn` and results `champion.json`), so a run killed mid-test resumes it without
//! replaying a game, and its outcome is part of the generation's record in the checkpoint, so a
//! finished test is never played again. The record also keeps a fingerprint of the challenger's
//! values and, when it is promoted, its genome, so the gate resumes from the checkpoint alone,
//! without the files of earlier generations.

use std::path::{Path, PathBuf};

use arena::{
    engine::spec::EngineSpec,
    files::write_atomic,
    game::GameRecord,
    results::Standings,
    runner::{MatchObserver, Tournament, play_match},
    stats::{Sprt, SprtDecision, SprtModel},
    tc::{ClockTc, SearchLimits},
};
use evochess::params::Params;
use serde::{Deserialize, Serialize};

use super::{Coevolution, CoevolveError, CoevolveGeneration, fresh::Use, gen_dir, journal};
use crate::{
    csv::{Csv, quoted},
    ga::Genome,
    notation::Parsed,
    progress::Progress,
    promote::SprtProgress,
};

/// The start's file under `out_dir`.
pub const START_FILE: &str = "champion-start.toml";
/// The start's name in the chain and its engine name in the tests' games.
pub const START: &str = "start";

/// Whether the output is gated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gate {
    /// The paper's: the output is the last generation's best organism.
    #[default]
    #[serde(rename = "none")]
    Off,
    /// The output is the champion, replaced only by a challenger that passes an SPRT.
    #[serde(rename = "sprt")]
    Sprt,
}

/// `[champion]` of the coevolve config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChampionConfig {
    pub gate: Gate,
    /// The first champion's parameter file; default: the population's first file, or the
    /// engine's declared defaults for a random population.
    pub start: Option<PathBuf>,
    /// Challenge after generations `every − 1`, `2·every − 1`, ...
    pub every: usize,
    /// The SPRT's bounds in normalized Elo, and its error rates.
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Most games per challenger (game pairs, so even); at the cap it is rejected.
    pub max_games: u64,
    /// The tests' clock and node limit per move; when neither is given, the run's own.
    pub tc: Option<Parsed<ClockTc>>,
    pub nodes: Option<u64>,
}

impl Default for ChampionConfig {
    fn default() -> Self {
        ChampionConfig {
            gate: Gate::Off,
            start: None,
            every: 1,
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            max_games: 1000,
            tc: None,
            nodes: None,
        }
    }
}

impl ChampionConfig {
    /// Without the gate nothing of the table matters, and it stays out of the run's
    /// fingerprint (so runs from before the gate still resume).
    pub fn is_off(&self) -> bool {
        self.gate == Gate::Off
    }

    /// The test, checked: elo0 < elo1, 0 < alpha, beta and alpha + beta < 1.
    pub fn sprt(&self) -> Result<Sprt, CoevolveError> {
        Sprt::new(self.elo0, self.elo1, self.alpha, self.beta)
            .map(|s| s.with_model(SprtModel::Normalized))
            .map_err(|e| CoevolveError::Config(format!("[champion]: {e}")))
    }

    /// Every setting checked before the first game.
    pub fn validate(&self) -> Result<(), CoevolveError> {
        let bad = |what: String| Err(CoevolveError::Config(format!("[champion] {what}")));
        self.sprt()?;
        if self.max_games < 2 || !self.max_games.is_multiple_of(2) || self.max_games / 2 > u64::from(u32::MAX) {
            return bad(format!(
                "max_games = {}: an even number of at least 2 (each opening is played with both colours)",
                self.max_games
            ));
        }
        if self.every == 0 {
            return bad("every = 0: challenge after every generation (1) or every N generations".into());
        }
        if self.nodes == Some(0) {
            return bad("nodes must be positive".into());
        }
        Ok(())
    }

    /// The tests' limits per move: `tc` and `nodes` as given, or the run's when neither is.
    pub fn limits(&self, run: &SearchLimits) -> SearchLimits {
        if self.tc.is_none() && self.nodes.is_none() {
            return run.clone();
        }
        SearchLimits {
            clock: self.tc.as_ref().map(|t| *t.value()),
            nodes: self.nodes,
            margin_ms: run.margin_ms,
            ..SearchLimits::default()
        }
    }

    /// Whether generation `g`'s best challenges the champion.
    pub fn challenges_after(&self, g: usize) -> bool {
        self.gate == Gate::Sprt && (g + 1).is_multiple_of(self.every.max(1))
    }
}

/// The first champion: its values and where they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstChampion {
    /// The file it was read from, or the engine's declared defaults.
    pub source: String,
    pub params: Params,
}

/// How a challenge ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// H1: the challenger is the new champion.
    Promoted,
    /// H0: it is not better by the test's margin.
    Rejected,
    /// The game cap came first: rejected.
    Capped,
    /// Not played: the challenger holds the champion's values or a rejected challenger's.
    Skipped,
}

impl Verdict {
    /// Its name in files and logs, as serde writes it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Promoted => "promoted",
            Verdict::Rejected => "rejected",
            Verdict::Capped => "capped",
            Verdict::Skipped => "skipped",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Verdict::Promoted => "promoted (H1)",
            Verdict::Rejected => "rejected (H0)",
            Verdict::Capped => "rejected at the game cap",
            Verdict::Skipped => "not tested",
        }
    }
}

/// A generation's best organism against the champion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    /// The challenger, `g<G>o<I>` (its file in its generation's directory).
    pub challenger: String,
    /// The champion it met: [`START`] or the `g<G>o<I>` of a challenger promoted before.
    pub champion: String,
    pub verdict: Verdict,
    /// The SPRT line (`tuner promote`'s form: LLR, bounds, W/D/L, pentanomial, Elo); for a
    /// challenge not played, why.
    pub line: String,
    pub games: u64,
    /// The challenger's values, [`values_fingerprint`]: what a later challenger is compared
    /// with, so that the check needs no file of an earlier generation. `None` in records from
    /// before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<String>,
    /// A promoted challenger's chromosome, so that its file, the champion's side of later
    /// tests and the output, can be rebuilt from the checkpoint alone; `None` for the other
    /// verdicts and in records from before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organism: Option<Organism>,
}

/// What rebuilds an organism's file: its genome, and which of generation 0's organisms lends
/// it the values outside the space ([`lineage`](super::lineage)).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Organism {
    pub genome: Genome,
    pub base: usize,
}

/// A generation's best organism as it challenges: its name (`g<G>o<I>`, its file in its
/// generation's directory) and what rebuilds its file.
pub struct Challenger<'a> {
    pub name: &'a str,
    pub genome: &'a Genome,
    pub base: usize,
}

/// Identifies a parameter set's values (16 hex digits); the doc comments are left out, so an
/// edited doc line does not make equal values differ.
pub fn values_fingerprint(params: &Params) -> String {
    crate::ga::checkpoint::fingerprint(&[params.values_toml()])
}

/// The champion after the generations of `history`: the last challenger promoted, as (its
/// generation, its name); `None` while the start holds.
pub fn current(history: &[CoevolveGeneration]) -> Option<(usize, &str)> {
    history.iter().rev().find_map(|g| {
        g.challenge.as_ref().filter(|c| c.verdict == Verdict::Promoted).map(|c| (g.generation, c.challenger.as_str()))
    })
}

/// One line per challenge: `generation G: CHALLENGER vs CHAMPION: VERDICT; LINE`.
pub fn chain_lines(history: &[CoevolveGeneration]) -> Vec<String> {
    history
        .iter()
        .filter_map(|g| g.challenge.as_ref().map(|c| (g.generation, c)))
        .map(|(g, c)| {
            format!("generation {g}: {} vs {}: {}; {}", c.challenger, c.champion, c.verdict.describe(), c.line)
        })
        .collect()
}

/// `generation,challenger,champion,verdict,games,sprt`: every challenge of the run.
pub fn champions_csv(history: &[CoevolveGeneration]) -> String {
    let csv = Csv::new()
        .column("generation", |&(g, _): &(usize, &Challenge)| g.to_string())
        .column("challenger", |&(_, c)| c.challenger.clone())
        .column("champion", |&(_, c)| c.champion.clone())
        .column("verdict", |&(_, c)| format!("{:?}", c.verdict).to_lowercase())
        .column("games", |&(_, c)| c.games.to_string())
        .column("sprt", |&(_, c)| quoted(&c.line));
    csv.write(history.iter().filter_map(|g| g.challenge.as_ref().map(|c| (g.generation, c))))
}

/// Logs the test's course every 20 games (ten game pairs) and keeps the run's bar moving.
struct GateObserver {
    generation: usize,
    progress: SprtProgress,
    bar: Progress,
}

impl MatchObserver for GateObserver {
    fn on_start(&mut self, planned: u64, done: u64, _: &Standings) {
        // The bar's length counts only the games a test has played: how many it will play is
        // not known in advance.
        self.bar.inc_length(done);
        self.bar.skip(done);
        let resumed = if done > 0 { format!(", {done} already played") } else { String::new() };
        self.bar
            .suspend(|| log::info!("generation {}: champion test, up to {planned} games{resumed}", self.generation));
    }

    fn on_game(&mut self, _: &GameRecord, s: &Standings) {
        self.bar.inc_length(1);
        self.bar.inc(1);
        if let Some(progress) = self.progress.line(s) {
            self.bar.suspend(|| {
                log::info!("generation {}: champion test, {} games, challenger {progress}", self.generation, s.games)
            });
        }
    }
}

impl Coevolution {
    /// The first champion (`None` without the gate); called once the population has been read,
    /// so that a missing population directory is reported as such.
    pub(super) fn first_champion(&self) -> Result<Option<FirstChampion>, CoevolveError> {
        if self.cfg.champion.is_off() { Ok(None) } else { self.start_champion().map(Some) }
    }

    /// The run's start: `[champion] start`, else the population's first file, else the engine's
    /// declared defaults (the first champion of the gate, the default pool of reference selection).
    pub(super) fn start_champion(&self) -> Result<FirstChampion, CoevolveError> {
        let file = match (&self.cfg.champion.start, self.cfg.organisms.first(), &self.cfg.population_dir) {
            (Some(start), _, _) => Some(start.clone()),
            (None, Some(first), _) => Some(first.file.clone()),
            (None, None, Some(dir)) => super::parameter_files(dir)?.into_iter().next(),
            (None, None, None) => None,
        };
        Ok(match file {
            Some(f) => FirstChampion {
                source: f.display().to_string(),
                params: Params::load(&f).map_err(|e| CoevolveError::params(&f, e))?,
            },
            None => FirstChampion { source: "the engine's declared defaults".into(), params: Params::default() },
        })
    }

    /// The champion after `history`: its name, file and values.
    fn champion(
        &self,
        first: &FirstChampion,
        history: &[CoevolveGeneration],
    ) -> Result<(String, PathBuf, Params), CoevolveError> {
        let out = &self.cfg.out_dir;
        match current(history) {
            Some((g, name)) => {
                let file = gen_dir(out, g).join(format!("{name}.toml"));
                let params = Params::load(&file).map_err(|e| CoevolveError::params(&file, e))?;
                Ok((name.to_string(), file, params))
            }
            None => Ok((START.to_string(), out.join(START_FILE), first.params.clone())),
        }
    }

    /// The earlier test that rejected (or capped) a challenger holding `challenger`'s values
    /// (`fingerprint`), with its generation: such values are not tested again.
    fn tested_before<'h>(
        &self,
        g: usize,
        challenger: &Params,
        fingerprint: &str,
        history: &'h [CoevolveGeneration],
        bar: &Progress,
    ) -> Result<Option<(usize, &'h Challenge)>, CoevolveError> {
        let out = &self.cfg.out_dir;
        for earlier in history {
            let Some(c) =
                earlier.challenge.as_ref().filter(|c| matches!(c.verdict, Verdict::Rejected | Verdict::Capped))
            else {
                continue;
            };
            let same = match &c.fingerprint {
                Some(f) => *f == fingerprint,
                None => {
                    // A record from before fingerprints: only its file tells, and a checkpoint
                    // resumed on another machine may not have it.
                    let path = gen_dir(out, earlier.generation).join(format!("{}.toml", c.challenger));
                    if path.is_file() {
                        Params::load(&path).map_err(|e| CoevolveError::params(&path, e))? == *challenger
                    } else {
                        bar.suspend(|| {
                            log::warn!(
                                "generation {g}: {} is missing (its record predates fingerprints), so a challenger \
                                 holding its values would be tested again",
                                path.display()
                            )
                        });
                        false
                    }
                }
            };
            if same {
                return Ok(Some((earlier.generation, c)));
            }
        }
        Ok(None)
    }

    /// Generation `g`'s best organism challenges the champion after `history`; the test's
    /// games are journaled in generation `g`'s directory, and `resume` continues them.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn challenge(
        &self,
        g: usize,
        size: usize,
        best: &Challenger,
        first: &FirstChampion,
        history: &[CoevolveGeneration],
        resume: bool,
        bar: &Progress,
    ) -> Result<Challenge, CoevolveError> {
        let out = &self.cfg.out_dir;
        let dir = gen_dir(out, g);
        let name = best.name;
        let file = dir.join(format!("{name}.toml"));
        let challenger = Params::load(&file).map_err(|e| CoevolveError::params(&file, e))?;
        let fingerprint = values_fingerprint(&challenger);
        let (champion, champion_file, held) = self.champion(first, history)?;
        let skipped = |line: String| Challenge {
            challenger: name.to_string(),
            champion: champion.clone(),
            verdict: Verdict::Skipped,
            line,
            games: 0,
            fingerprint: Some(fingerprint.clone()),
            organism: None,
        };
        if challenger == held {
            return Ok(skipped(format!("{name} holds the champion's values")));
        }
        if let Some((generation, c)) = self.tested_before(g, &challenger, &fingerprint, history, bar)? {
            return Ok(skipped(format!(
                "{name} holds the values of {}, rejected in generation {generation}",
                c.challenger
            )));
        }
        if champion == START {
            write_start(&champion_file, first)?;
        }

        let cfg = &self.cfg.champion;
        let sprt = cfg.sprt()?;
        let limits = cfg.limits(&self.limits);
        let mut m = self.base.clone();
        m.engines = vec![
            EngineSpec::new(name, &self.engine).with_params(&file).with_limits(limits.clone()),
            EngineSpec::new(&champion, &self.engine).with_params(&champion_file).with_limits(limits),
        ];
        m.tournament = Tournament::Match;
        m.games = 2;
        m.rounds = u32::try_from(cfg.max_games / 2).expect("validated");
        m.repeat = true;
        m.sprt = Some(sprt);
        // Openings of their own, neither the round robin's nor the reference match's.
        let seed = crate::hash::mix64(self.cfg.seed.rotate_left(29) ^ (g as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        self.deal(&mut m, g, size, Use::Champion, seed)?;
        m.event = "evochess coevolution: challenger vs champion".into();
        journal(&mut m, &dir, "champion", "champion.json", resume);
        let mut obs = GateObserver { generation: g, progress: SprtProgress::new(sprt), bar: bar.clone() };
        let r = play_match(&m, &mut obs)?;
        let verdict = match r.sprt.as_ref().map(|s| s.decision) {
            Some(SprtDecision::AcceptH1) => Verdict::Promoted,
            Some(SprtDecision::AcceptH0) => Verdict::Rejected,
            _ => Verdict::Capped,
        };
        let line = crate::promote::sprt_line(&sprt, r.sprt.as_ref(), &r.pairs);
        let organism =
            (verdict == Verdict::Promoted).then(|| Organism { genome: best.genome.clone(), base: best.base });
        Ok(Challenge {
            challenger: name.to_string(),
            champion,
            verdict,
            line,
            games: r.games_played,
            fingerprint: Some(fingerprint),
            organism,
        })
    }

    /// The output under the gate: the champion's values, and a header giving the chain.
    pub(super) fn champion_output(
        &self,
        first: &FirstChampion,
        history: &[CoevolveGeneration],
    ) -> Result<(Params, String), CoevolveError> {
        let (name, _, params) = self.champion(first, history)?;
        let c = &self.cfg.champion;
        let mut lines = vec![format!(
            "Champion of `tuner coevolve`'s SPRT gate (normalized Elo [{}, {}], alpha {}, beta {}, at most {} games \
             a challenger).",
            c.elo0, c.elo1, c.alpha, c.beta, c.max_games
        )];
        lines.push(format!("The start: {}.", first.source));
        lines.extend(chain_lines(history));
        lines.push(match current(history) {
            Some((g, _)) => format!("Champion: {name} of generation {g}, which passed the gate."),
            None => format!("No challenger passed: these are the start's values ({}).", first.source),
        });
        let header: String = lines.iter().map(|l| format!("# {l}\n")).collect();
        Ok((params, format!("{header}\n")))
    }
}

/// Writes the start as a complete parameter file, the champion's side of its tests.
fn write_start(path: &Path, first: &FirstChampion) -> Result<(), CoevolveError> {
    let text = format!("# The coevolution's first champion: {}\n{}", first.source, first.params.to_toml());
    write_atomic(path, text.as_bytes()).map_err(|e| CoevolveError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coevolve::CoevolveConfig;

    fn generation(g: usize, challenge: Option<(&str, &str, Verdict)>) -> CoevolveGeneration {
        CoevolveGeneration {
            generation: g,
            best: 0,
            best_name: String::new(),
            organisms: Vec::new(),
            cross: Vec::new(),
            games: 0,
            seconds: 0.0,
            reference: None,
            race: None,
            pool: None,
            diversity: None,
            challenge: challenge.map(|(challenger, champion, verdict)| Challenge {
                challenger: challenger.into(),
                champion: champion.into(),
                verdict,
                line: format!("SPRT of {challenger}"),
                games: 10,
                fingerprint: None,
                organism: None,
            }),
        }
    }

    #[test]
    fn the_champion_is_the_last_challenger_promoted() {
        let mut history = vec![generation(0, Some(("g0o1", START, Verdict::Rejected))), generation(1, None)];
        assert_eq!(current(&history), None);
        history.push(generation(2, Some(("g2o0", START, Verdict::Promoted))));
        history.push(generation(3, Some(("g3o4", "g2o0", Verdict::Capped))));
        history.push(generation(4, Some(("g4o0", "g2o0", Verdict::Skipped))));
        assert_eq!(current(&history), Some((2, "g2o0")));
        history.push(generation(5, Some(("g5o3", "g2o0", Verdict::Promoted))));
        assert_eq!(current(&history), Some((5, "g5o3")));
        let chain = chain_lines(&history);
        assert_eq!(chain.len(), 5, "{chain:?}");
        assert_eq!(chain[0], "generation 0: g0o1 vs start: rejected (H0); SPRT of g0o1");
        assert_eq!(chain[2], "generation 3: g3o4 vs g2o0: rejected at the game cap; SPRT of g3o4");
        let csv = champions_csv(&history);
        assert_eq!(csv.lines().next(), Some("generation,challenger,champion,verdict,games,sprt"));
        assert_eq!(csv.lines().nth(2), Some("2,g2o0,start,promoted,10,\"SPRT of g2o0\""));
    }

    #[test]
    fn the_gate_is_configured_and_checked() {
        let cfg =
            CoevolveConfig::parse("[champion]\ngate = \"sprt\"\nelo1 = 50\nmax_games = 40\nevery = 2\nnodes = 5000\n")
                .unwrap();
        let c = &cfg.champion;
        assert_eq!((c.gate, c.elo0, c.elo1, c.max_games, c.every), (Gate::Sprt, 0.0, 50.0, 40, 2));
        assert_eq!(c.sprt().unwrap().model, SprtModel::Normalized);
        c.validate().unwrap();
        assert_eq!((0..6).filter(|&g| c.challenges_after(g)).collect::<Vec<_>>(), vec![1, 3, 5]);
        // Its own node limit; the run's clock and margin otherwise.
        let run = cfg.limits().unwrap();
        assert_eq!((c.limits(&run).nodes, c.limits(&run).clock), (Some(5000), None));
        assert_eq!(ChampionConfig::default().limits(&run), run);
        assert!(!ChampionConfig::default().challenges_after(0));
        for (text, needle) in [
            ("elo0 = 5\nelo1 = 5", "elo0 (5) must be less than elo1 (5)"),
            ("max_games = 41", "max_games = 41"),
            ("every = 0", "every = 0"),
            ("alpha = 0.6\nbeta = 0.6", "alpha"),
        ] {
            let cfg = CoevolveConfig::parse(&format!("[champion]\ngate = \"sprt\"\n{text}\n")).unwrap();
            let e = cfg.champion.validate().unwrap_err().to_string();
            assert!(e.contains("[champion]") && e.contains(needle), "{text}: {e}");
        }
        let e = CoevolveConfig::parse("[champion]\ngate = \"spr\"\n").unwrap_err().to_string();
        assert!(e.contains("spr"), "{e}");
        let e = CoevolveConfig::parse("[champion]\nmax_game = 4\n").unwrap_err().to_string();
        assert!(e.contains("max_game"), "{e}");
    }

    #[test]
    fn a_challenger_holding_tested_values_is_not_tested_again() {
        let dir = std::env::temp_dir().join(format!("evochess-champion-skip-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut cfg = CoevolveConfig::parse("[champion]\ngate = \"sprt\"\n").unwrap();
        cfg.out_dir = dir.clone();
        // Never started: each challenge below is decided before any game.
        cfg.engine = Some(PathBuf::from("/bin/sh"));
        let co = Coevolution::new(cfg).unwrap();
        let first = FirstChampion { source: "defaults".into(), params: Params::default() };
        let mut weaker = Params::default();
        weaker.eval.knight_mg -= 50;
        for (g, name, params) in
            [(0, "g0o1", Params::default()), (1, "g1o0", weaker.clone()), (2, "g2o3", weaker.clone())]
        {
            std::fs::create_dir_all(gen_dir(&dir, g)).unwrap();
            std::fs::write(gen_dir(&dir, g).join(format!("{name}.toml")), params.to_toml()).unwrap();
        }
        let bar = Progress::hidden();
        let genome = Genome::Numbers(Vec::new());
        let challenger = |name| Challenger { name, genome: &genome, base: 0 };
        let c = co.challenge(0, 4, &challenger("g0o1"), &first, &[], false, &bar).unwrap();
        assert_eq!((c.verdict, c.champion.as_str(), c.games), (Verdict::Skipped, START, 0));
        assert_eq!(c.line, "g0o1 holds the champion's values");
        assert_eq!((c.fingerprint, c.organism), (Some(values_fingerprint(&Params::default())), None));
        // g1o0 was rejected; g2o3 holds its values. A record from before fingerprints is
        // compared through g1o0's file.
        let skip = "g2o3 holds the values of g1o0, rejected in generation 1";
        let mut history = vec![generation(0, None), generation(1, Some(("g1o0", START, Verdict::Rejected)))];
        let c = co.challenge(2, 4, &challenger("g2o3"), &first, &history, false, &bar).unwrap();
        assert_eq!((c.verdict, c.line.as_str()), (Verdict::Skipped, skip));
        assert_eq!(c.fingerprint, Some(values_fingerprint(&weaker)));
        // With the fingerprint in its record, g1o0's file is not needed: a checkpoint resumed on
        // another machine.
        history[1].challenge.as_mut().unwrap().fingerprint = Some(values_fingerprint(&weaker));
        std::fs::remove_file(gen_dir(&dir, 1).join("g1o0.toml")).unwrap();
        let c = co.challenge(2, 4, &challenger("g2o3"), &first, &history, false, &bar).unwrap();
        assert_eq!((c.verdict, c.line.as_str()), (Verdict::Skipped, skip));
        // An older record whose file is gone is passed over (with a warning), not an error.
        let history = vec![generation(0, Some(("g0o2", START, Verdict::Capped))), history[1].clone()];
        let c = co.challenge(2, 4, &challenger("g2o3"), &first, &history, false, &bar).unwrap();
        assert_eq!((c.verdict, c.line.as_str()), (Verdict::Skipped, skip));
        assert!(!dir.join(START_FILE).exists(), "no test, so no file for one");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_challenge_recorded_before_fingerprints_still_loads() {
        let old = r#"{"challenger":"g1o0","champion":"start","verdict":"rejected","line":"SPRT","games":40}"#;
        let c: Challenge = serde_json::from_str(old).unwrap();
        assert_eq!((c.verdict, &c.fingerprint, &c.organism), (Verdict::Rejected, &None, &None));
        // Only a promoted challenger keeps its genome; the others' records grow by a fingerprint.
        let json = serde_json::to_string(&Challenge { fingerprint: Some("0123456789abcdef".into()), ..c }).unwrap();
        assert!(json.ends_with(r#""games":40,"fingerprint":"0123456789abcdef"}"#), "{json}");
    }

    #[test]
    fn without_the_gate_the_fingerprinted_config_is_as_before() {
        let off = serde_json::to_string(&CoevolveConfig::default()).unwrap();
        assert!(!off.contains("champion"), "{off}");
        let on = CoevolveConfig::parse("[champion]\ngate = \"sprt\"\n").unwrap();
        assert!(serde_json::to_string(&on).unwrap().contains("\"champion\":{\"gate\":\"sprt\""));
    }
}
