//! `tuner coevolve`'s default method (issue 89): a separable evolution strategy around the
//! champion, raced against it in games that are never repeated, its mean gated by a few SPRTs.
//!
//! The genes are SPSA lines (by default the live numeric search values of
//! configs/spaces/coevolve-search.txt) started at the start file's values. Each generation the
//! ES ([`Es`]) proposes `2 × es.pairs` mirrored candidates around its mean; they race the
//! champion by successive halving ([`crate::optimise::halving::race`]), every candidate of a
//! round on the same openings, and the race's ranks move the mean (every game counts, as in
//! SPSA, rather than the winner's rating, which the max over many candidates biases upward).
//! The champion is the start until a gate passes: at `gate.count` points of the run the rounded
//! mean plays the champion in an SPRT at `gate.alpha` each (five at 0.01: a false promotion in
//! at most 5 % of runs), and replaces it when H1 is accepted. Candidates are measured against
//! that fixed anchor, never against each other, so their fitness is not intransitive.
//!
//! Openings come from one seeded permutation of a large book ([`Ledger`]): the first
//! `confirmation_openings` are held back for the confirmation match after the run, then the
//! gates' slice, then racing's; generation `g`'s round `r` and gate `k` take fixed slices, so no
//! opening is played twice in a run (a node-limited game is deterministic: a repeat would count
//! one game twice) and a resumed run draws what the killed one did.
//!
//! Files under `out_dir`: `gen-NNN/` per generation (the candidates `g<G>c<I>.toml`, each race
//! round's PGN, journal and results, `mean.toml` and the gate's match), `champions/` (the start
//! and every promoted mean), `mean.toml` (the ES's latest mean, ungated), `generations.csv`,
//! `checkpoint.json`, and the output, `champion.toml`.

mod config;
mod problem;

use std::path::{Path, PathBuf};

use arena::{
    engine::spec::EngineSpec,
    files::write_atomic,
    game::GameRecord,
    openings::{OpeningBook, OpeningsConfig},
    results::Standings,
    runner::{MatchConfig, MatchObserver, Tournament, play_match},
    stats::SprtDecision,
    tc::SearchLimits,
};
use evochess::params::Params;
use serde::{Deserialize, Serialize};

pub use self::config::{EsCoevolveConfig, GateSettings, RaceSettings, default_groups};
use self::problem::RaceProblem;
use super::{CoevolveError, champion::Verdict, files::journal, gen_dir, run::GenObserver};
use crate::{
    csv::{Csv, quoted},
    ga::{
        Genome,
        driver::Driver,
        run_dir::{RunDir, Start},
    },
    optimise::{
        es::Es,
        halving::Record,
        ledger::{CONFIRMATION, Draw, GATE, Ledger, RACING},
    },
    progress::Progress,
    promote::SprtProgress,
    spsa::SpsaParam,
};

/// The champion's name before any gate passed.
pub const START: &str = "start";

/// The gene values of the champion the candidates play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Champion {
    pub name: String,
    pub values: Vec<f64>,
}

/// One gate: the mean of a generation against the champion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GateRecord {
    /// 0-based, of the run's gates.
    pub index: usize,
    pub challenger: String,
    /// The challenger's gene values (the champion's from the next generation on when promoted).
    #[serde(default)]
    pub values: Vec<f64>,
    pub champion: String,
    pub verdict: Verdict,
    /// The SPRT line (model, bounds, LLR, W-D-L, pentanomial, Elo).
    pub line: String,
    pub games: u64,
    /// The openings it drew (1-based positions of the permutation).
    pub openings: (usize, usize),
}

/// A generation in the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsGeneration {
    pub generation: usize,
    /// Racing games (the gate's are its record's).
    pub games: u64,
    /// The champion the candidates played.
    pub champion: String,
    /// The best candidate's score against it, and the mean of all candidates' scores.
    pub best_score: f64,
    pub mean_score: f64,
    pub rounds: usize,
    /// Each group's step after the tell, in units of `c_end`.
    pub sigma: Vec<f64>,
    /// The mean's distance from the start after the tell: the root mean square over the genes
    /// of (mean − start) / c_end.
    pub distance: f64,
    /// The openings of each round: (first position, count).
    pub openings: Vec<(usize, usize)>,
    pub gate: Option<GateRecord>,
    pub seconds: f64,
}

/// A configured run.
pub struct EsCoevolution {
    pub cfg: EsCoevolveConfig,
    /// The start's values and where they came from.
    pub start: Params,
    pub start_source: String,
    pub genes: Vec<SpsaParam>,
    pub generations: usize,
    pub engine: PathBuf,
    /// The engine's bench signature (`bench N`) and speed, read once: the run's engine is frozen.
    pub signature: String,
    nps: Option<f64>,
    limits: SearchLimits,
    book: OpeningsConfig,
    ledger: Ledger,
}

/// The end of a run.
pub struct EsOutcome {
    pub history: Vec<EsGeneration>,
    pub champion: Champion,
    pub output: PathBuf,
    pub mean: PathBuf,
}

/// Moves `values` onto `base` by name.
fn with_values(base: &Params, genes: &[SpsaParam], values: &[f64]) -> Result<Params, CoevolveError> {
    let mut p = base.clone();
    for (g, &v) in genes.iter().zip(values) {
        p.set_by_name(&g.name, v.round() as i64)
            .map_err(|e| CoevolveError::Config(format!("gene `{}`: {e}", g.name)))?;
    }
    Ok(p)
}

impl EsCoevolution {
    /// Checks the config, reads the start, the genes and the book, and signs the engine.
    /// `generations` overrides what the budget pays for.
    pub fn new(cfg: EsCoevolveConfig, generations: Option<usize>) -> Result<EsCoevolution, CoevolveError> {
        cfg.validate()?;
        let (start, start_source) = match &cfg.start {
            Some(path) => (Params::load(path).map_err(|e| CoevolveError::params(path, e))?, path.display().to_string()),
            None => (Params::default(), "the engine's defaults (params/default.toml)".to_string()),
        };
        let text = crate::embedded_files::read_text(&cfg.genes).map_err(|e| CoevolveError::io(&cfg.genes, e))?;
        let mut genes = crate::spsa::parse_lines(&text).map_err(|e| CoevolveError::io(&cfg.genes, e))?;
        for g in &mut genes {
            let Some((id, _)) = Params::find(&g.name) else {
                return Err(CoevolveError::io(&cfg.genes, format!("gene `{}` is no parameter of the engine", g.name)));
            };
            g.value = f64::from(start.get(id));
            if !(g.min..=g.max).contains(&g.value) {
                return Err(CoevolveError::io(
                    &cfg.genes,
                    format!(
                        "gene `{}`: the start's value {} is outside the line's [{}, {}]",
                        g.name, g.value, g.min, g.max
                    ),
                ));
            }
        }
        // Builds the strategy once, so that a bad group or gene fails before any game.
        Es::new(genes.clone(), &cfg.groups, cfg.es).map_err(|e| CoevolveError::Config(e.to_string()))?;
        let generations = generations.unwrap_or_else(|| cfg.planned_generations());
        if generations == 0 {
            return Err(CoevolveError::Config("generations must be at least 1".into()));
        }
        let engine = cfg.engine_path();
        if !engine.is_file() {
            return Err(CoevolveError::Config(format!("engine {} not found", engine.display())));
        }
        let limits = cfg.limits()?;
        let book = cfg.book()?;
        let size = OpeningBook::load(&book, cfg.seed)
            .map_err(|e| CoevolveError::Config(format!("openings: {e}")))?
            .len()
            .unwrap_or(0);
        let gate_openings = (cfg.gate.budget() / 2) as usize;
        let ledger = Ledger::standard(&book.file, size, cfg.seed, cfg.confirmation_openings, gate_openings)
            .map_err(|e| CoevolveError::Config(format!("{}: {e}", book.file.display())))?;
        let racing = generations * cfg.generation_openings();
        let left = ledger.remaining(RACING).unwrap_or(0);
        if racing > left {
            return Err(CoevolveError::Config(format!(
                "openings: {} has {size} openings; {generations} generations need {racing} for racing beside the {} held \
                 for confirmation and {gate_openings} for the gates (openings are never played twice in a run)",
                book.file.display(),
                cfg.confirmation_openings
            )));
        }
        let output = crate::broker::signature::run_bench(&engine, &[], None).unwrap_or_default();
        let signature = match crate::broker::signature::bench_nodes(&output) {
            Some(n) => format!("bench {n}"),
            None => {
                return Err(CoevolveError::Config(format!("engine {}: `bench` gave no node count", engine.display())));
            }
        };
        let nps = crate::broker::signature::bench_nps(&output);
        Ok(EsCoevolution { cfg, start, start_source, genes, generations, engine, signature, nps, limits, book, ledger })
    }

    fn es(&self) -> Es {
        Es::new(self.genes.clone(), &self.cfg.groups, self.cfg.es).expect("checked by new")
    }

    /// The champion the generation after `history` plays: the start until a gate promoted a
    /// mean, then the last mean promoted.
    fn champion_after(&self, history: &[EsGeneration]) -> Result<Champion, CoevolveError> {
        let promoted = history.iter().rev().filter_map(|h| h.gate.as_ref()).find(|g| g.verdict == Verdict::Promoted);
        let champion = match promoted {
            None => Champion { name: START.into(), values: self.genes.iter().map(|g| g.value).collect() },
            Some(g) => Champion { name: g.challenger.clone(), values: g.values.clone() },
        };
        if champion.values.len() != self.genes.len() {
            return Err(CoevolveError::Config(format!(
                "champion `{}` has {} gene values for {} genes (a checkpoint of another run?)",
                champion.name,
                champion.values.len(),
                self.genes.len()
            )));
        }
        Ok(champion)
    }

    /// Games the run may play: every generation's race and every gate's most.
    pub fn planned_games(&self) -> u64 {
        let gates = (0..self.generations).filter(|&g| self.cfg.gate.after(g, self.generations)).count() as u64;
        self.generations as u64 * self.cfg.generation_games() + gates * self.cfg.gate.max_games
    }

    /// What the run does, in one line: the space, the start, the population, the budget per
    /// move, the games and an estimate of the time.
    pub fn plan(&self) -> String {
        let es = &self.cfg.es;
        let groups = self.es().groups().names.join(", ");
        let games = self.planned_games();
        let eta = self.estimate_seconds(games).map_or_else(String::new, |s| {
            format!(", {}", crate::progress::eta_text(Some(s), self.concurrency(), "games"))
        });
        format!(
            "coevolve (evolution strategy): {} genes of {} ({} step groups: {groups}) from {}; {} mirrored candidates a \
             generation race the champion at {} ({} games each), {} generations, {} (SPRT alpha {} each); up to {games} \
             games{eta}; openings: {} ({} openings, seed {}, the first {} held back for confirmation); engine {} ({})",
            self.genes.len(),
            self.cfg.genes.display(),
            self.es().groups().names.len(),
            self.start_source,
            2 * es.pairs,
            self.cfg.budget_name(),
            self.cfg.generation_games(),
            self.generations,
            match (0..self.generations).filter(|&g| self.cfg.gate.after(g, self.generations)).count() {
                1 => "1 gate".to_string(),
                n => format!("{n} gates"),
            } + &self.cfg.gate.nodes.map_or_else(String::new, |n| format!(" at {n} nodes")),
            self.cfg.gate.alpha,
            self.book.file.display(),
            self.ledger.book,
            self.cfg.seed,
            self.cfg.confirmation_openings,
            self.engine.display(),
            self.signature,
        )
    }

    fn concurrency(&self) -> usize {
        crate::ga::threads(self.cfg.concurrency)
    }

    /// Seconds for `games`: at a node limit, 100 plies of `nodes` at the bench's speed each;
    /// at a clock, both clocks of a 60-move game.
    fn estimate_seconds(&self, games: u64) -> Option<f64> {
        let per_game = match (&self.cfg.tc, self.cfg.nodes, self.nps) {
            (Some(tc), _, _) => crate::progress::clock_game_seconds(tc.value()),
            (None, Some(n), Some(nps)) => crate::progress::nodes_game_seconds(n, nps)?,
            _ => return None,
        };
        crate::progress::total_seconds(games, Some(per_game), self.concurrency())
    }

    /// The run's identity: everything that decides its games except the generation count, so
    /// that a finished run extends with `--resume --generations N`.
    fn fingerprint(&self) -> String {
        let mut cfg = self.cfg.clone();
        cfg.concurrency = 0;
        cfg.output = PathBuf::new();
        let genes = serde_json::to_string(&self.genes).expect("genes serialise");
        let parts = vec![
            serde_json::to_string(&cfg).expect("config serialises"),
            genes,
            self.start.values_toml(),
            format!("engine {}", self.signature),
        ];
        crate::ga::checkpoint::fingerprint(&parts)
    }

    /// Runs (or continues, as `start` says) the evolution and writes the champion and the mean.
    pub fn run(&self, start: Start) -> Result<EsOutcome, CoevolveError> {
        let out = &self.cfg.out_dir;
        let checkpoint = out.join("checkpoint.json");
        let state = [checkpoint.clone(), gen_dir(out, 0).join("race-01.state.jsonl")];
        let (_held, ()) = RunDir::open_checked(out, &state, start, || Ok::<_, CoevolveError>(()))?;
        let fingerprint = self.fingerprint();
        let mismatch = "a different config, genes, start file or engine build (bench signature)";
        let driver = Driver::single(self.generations, self.cfg.seed, &fingerprint, checkpoint, mismatch);
        let each = self.estimate_seconds(1);
        let race = RaceProblem::new(self, Progress::new(self.planned_games(), "games", each));
        let es = self.es();
        let layout = es.layout();
        let finished = driver.optimise(es, &layout, &race, start.resumes())?;
        race.bar.finish_and_clear();
        let champion = self.champion_after(&finished.history)?;
        let output = self.cfg.output_path();
        let params = with_values(&self.start, &self.genes, &champion.values)?;
        let header = self.champion_header(&champion, &finished.history);
        if let Some(parent) = output.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| CoevolveError::io(parent, e))?;
        }
        write_atomic(&output, format!("{header}{}", params.to_toml()).as_bytes())
            .map_err(|e| CoevolveError::io(&output, e))?;
        Ok(EsOutcome { history: finished.history, champion, output, mean: out.join("mean.toml") })
    }

    /// The output's header: its lineage (start, genes, engine, every gate).
    fn champion_header(&self, champion: &Champion, history: &[EsGeneration]) -> String {
        let games: u64 = history.iter().map(|h| h.games + h.gate.as_ref().map_or(0, |g| g.games)).sum();
        let mut lines = vec![
            format!(
                "# tuner coevolve (evolution strategy, issue 89): champion `{}` after {} generations, {games} games",
                champion.name,
                history.len()
            ),
            format!("# start: {}; genes: {} ({})", self.start_source, self.cfg.genes.display(), self.genes.len()),
            format!(
                "# games at {} with engine {} ({}), seed {}",
                self.cfg.budget_name(),
                self.engine.display(),
                self.signature,
                self.cfg.seed
            ),
        ];
        for g in history.iter().filter_map(|h| h.gate.as_ref().map(|g| (h.generation, g))) {
            let (generation, gate) = g;
            lines.push(format!(
                "# gate {} after generation {generation}: {} vs {}: {}; {}",
                gate.index + 1,
                gate.challenger,
                gate.champion,
                gate.verdict.name(),
                gate.line
            ));
        }
        if champion.name == START {
            lines.push("# no gate promoted a mean: the values are the start's".into());
        }
        format!("{}\n\n", lines.join("\n"))
    }

    /// The champion's file, written once.
    fn champion_file(&self, champion: &Champion) -> Result<PathBuf, CoevolveError> {
        let dir = self.cfg.out_dir.join("champions");
        let path = dir.join(format!("{}.toml", champion.name));
        if !path.is_file() {
            std::fs::create_dir_all(&dir).map_err(|e| CoevolveError::io(&dir, e))?;
            let params = with_values(&self.start, &self.genes, &champion.values)?;
            let text = format!("# coevolve champion `{}`\n{}", champion.name, params.to_toml());
            write_atomic(&path, text.as_bytes()).map_err(|e| CoevolveError::io(&path, e))?;
        }
        Ok(path)
    }

    /// Generation `g`'s candidates as parameter files in `dir`.
    fn candidate_files(&self, g: usize, dir: &Path, candidates: &[Genome]) -> Result<Vec<PathBuf>, CoevolveError> {
        let mut files = Vec::new();
        for (i, c) in candidates.iter().enumerate() {
            let path = dir.join(format!("g{g}c{i}.toml"));
            let values = c.numbers().ok_or_else(|| CoevolveError::Config(format!("candidate {i}: not numbers")))?;
            let params = with_values(&self.start, &self.genes, values)?;
            let text = format!("# coevolve generation {g}, candidate {i} (mirror of {})\n{}", i ^ 1, params.to_toml());
            write_atomic(&path, text.as_bytes()).map_err(|e| CoevolveError::io(&path, e))?;
            files.push(path);
        }
        Ok(files)
    }

    /// The mean after generation `g` as `dir`/mean.toml and the run's mean.toml.
    fn write_mean(&self, g: usize, dir: &Path, values: &[f64]) -> Result<(), CoevolveError> {
        let params = with_values(&self.start, &self.genes, values)?;
        let text = format!("# coevolve: the ES's mean after generation {g} (ungated)\n{}", params.to_toml());
        for path in [dir.join("mean.toml"), self.cfg.out_dir.join("mean.toml")] {
            write_atomic(&path, text.as_bytes()).map_err(|e| CoevolveError::io(&path, e))?;
        }
        Ok(())
    }

    /// The RMS distance of `mean` from the start, in units of each gene's c_end.
    fn distance_from_start(&self, mean: &[f64]) -> f64 {
        let squares: f64 = mean.iter().zip(&self.genes).map(|(m, gene)| ((m - gene.value) / gene.c_end).powi(2)).sum();
        (squares / self.genes.len() as f64).sqrt()
    }

    fn match_base(&self, draw: &Draw, engines: Vec<EngineSpec>, tournament: Tournament) -> MatchConfig {
        let mut m = MatchConfig::new(engines, tournament);
        m.concurrency = self.concurrency();
        m.openings = Some(draw.openings(&self.book));
        m.seed = draw.seed;
        m.adjudication.draw = self.cfg.draw.as_ref().map(|r| *r.value());
        m.adjudication.resign = self.cfg.resign.as_ref().map(|r| *r.value());
        m.adjudication.maxmoves = self.cfg.maxmoves.as_ref().map(|r| *r.value());
        m.executor = crate::broker::games::on_workers(self.cfg.broker.clone());
        m
    }

    fn engine(&self, name: &str, file: &Path) -> EngineSpec {
        EngineSpec::new(name, &self.engine).with_params(file).with_limits(self.limits.clone())
    }

    /// Round `round` of generation `g`'s race: the candidates `active` each play the champion
    /// `pairs` game pairs, all on the round's openings.
    #[allow(clippy::too_many_arguments)]
    fn play_round(
        &self,
        g: usize,
        round: usize,
        active: &[usize],
        files: &[PathBuf],
        champion: (&str, &Path),
        resume: bool,
        bar: &Progress,
    ) -> Result<(Vec<Record>, Draw), CoevolveError> {
        let schedule = self.cfg.schedule();
        let pairs = schedule.pairs[round];
        let offset =
            g * self.cfg.generation_openings() + schedule.pairs[..round].iter().map(|&p| p as usize).sum::<usize>();
        let draw =
            self.ledger.slice(RACING, offset, pairs as usize).map_err(|e| CoevolveError::Config(e.to_string()))?;
        let mut engines = vec![self.engine(champion.0, champion.1)];
        engines.extend(active.iter().map(|&i| self.engine(&format!("g{g}c{i}"), &files[i])));
        let mut m = self.match_base(&draw, engines, Tournament::Gauntlet);
        m.games = 2 * pairs;
        m.event = format!("evochess coevolve: generation {g}, race round {}", round + 1);
        journal(
            &mut m,
            &gen_dir(&self.cfg.out_dir, g),
            &format!("race-{:02}", round + 1),
            &format!("race-{:02}.json", round + 1),
            resume,
        );
        let mut obs = GenObserver::quiet(g, bar);
        let r = play_match(&m, &mut obs)?;
        let records = (1..=active.len())
            .map(|k| {
                r.pairs
                    .iter()
                    .find(|p| p.first == 0 && p.second == k)
                    .map(|p| Record { wdl: p.wdl.flipped(), penta: p.penta.flipped() })
                    .unwrap_or_default()
            })
            .collect();
        Ok((records, draw))
    }

    /// Gate `index` after generation `g`: the mean (file `mean`) against the champion.
    fn gate(
        &self,
        g: usize,
        index: usize,
        mean: (&str, &Path),
        champion: (&str, &Path),
        resume: bool,
        bar: &Progress,
    ) -> Result<GateRecord, CoevolveError> {
        let per_gate = (self.cfg.gate.max_games / 2) as usize;
        let draw =
            self.ledger.slice(GATE, index * per_gate, per_gate).map_err(|e| CoevolveError::Config(e.to_string()))?;
        let sprt = self.cfg.gate.sprt()?;
        let limits = self.cfg.gate.limits(&self.limits);
        let gate_engine = |name: &str, file: &Path| self.engine(name, file).with_limits(limits.clone());
        let mut m = self.match_base(
            &draw,
            vec![gate_engine(mean.0, mean.1), gate_engine(champion.0, champion.1)],
            Tournament::Match,
        );
        m.games = 2;
        m.rounds = u32::try_from(per_gate).unwrap_or(u32::MAX);
        m.sprt = Some(sprt);
        m.event = format!("evochess coevolve: gate {} (generation {g}), mean vs champion", index + 1);
        journal(&mut m, &gen_dir(&self.cfg.out_dir, g), "gate", "gate.json", resume);
        let mut obs = GateObserver { progress: SprtProgress::new(sprt), bar: bar.clone(), index };
        let r = play_match(&m, &mut obs)?;
        let verdict = match r.sprt.as_ref().map(|s| s.decision) {
            Some(SprtDecision::AcceptH1) => Verdict::Promoted,
            Some(SprtDecision::AcceptH0) => Verdict::Rejected,
            _ => Verdict::Capped,
        };
        Ok(GateRecord {
            index,
            challenger: mean.0.to_string(),
            values: Vec::new(),
            champion: champion.0.to_string(),
            verdict,
            line: crate::promote::sprt_line(&sprt, r.sprt.as_ref(), &r.pairs),
            games: r.games_played,
            openings: (draw.start, draw.count),
        })
    }

    fn write_reports(&self, history: &[EsGeneration]) -> Result<(), CoevolveError> {
        let mut csv = Csv::new()
            .column("generation", |h: &&EsGeneration| h.generation.to_string())
            .column("games", |h| h.games.to_string())
            .column("champion", |h| h.champion.clone())
            .column("best_score", |h| format!("{:.4}", h.best_score))
            .column("mean_score", |h| format!("{:.4}", h.mean_score))
            .column("rounds", |h| h.rounds.to_string())
            .column("distance", |h| format!("{:.4}", h.distance));
        for (k, name) in self.es().groups().names.iter().enumerate() {
            csv.push(format!("sigma_{name}"), move |h| h.sigma.get(k).map_or_else(String::new, |s| format!("{s:.4}")));
        }
        let gate = |h: &&EsGeneration| h.gate.clone();
        let text = csv
            .column("gate", move |h| gate(h).map_or_else(String::new, |g| g.verdict.name().to_string()))
            .column("gate_games", move |h| gate(h).map_or_else(String::new, |g| g.games.to_string()))
            .column("gate_sprt", move |h| gate(h).map_or_else(String::new, |g| quoted(&g.line)))
            .column("seconds", |h| format!("{:.1}", h.seconds))
            .write(history);
        let path = self.cfg.out_dir.join("generations.csv");
        write_atomic(&path, text.as_bytes()).map_err(|e| CoevolveError::io(&path, e))
    }
}

/// The gate's progress: a line every ten game pairs with the LLR.
struct GateObserver {
    progress: SprtProgress,
    bar: Progress,
    index: usize,
}

impl MatchObserver for GateObserver {
    fn on_start(&mut self, _: u64, done: u64, _: &Standings) {
        self.bar.skip(done);
    }

    fn on_game(&mut self, _: &GameRecord, s: &Standings) {
        self.bar.inc(1);
        if let Some(line) = self.progress.line(s) {
            self.bar.suspend(|| log::info!("gate {}: {line}", self.index + 1));
        }
    }
}

/// The files of a run under `out_dir`, one line each, except the generation directories, which
/// share one line (a run has hundreds, each with its candidates and race files).
pub fn output_listing(out_dir: &Path) -> Result<Vec<String>, CoevolveError> {
    let mut lines = Vec::new();
    let mut generations = Vec::new();
    for dir in [out_dir.to_path_buf(), out_dir.join("champions")] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
            if path.is_file() && !name.starts_with('.') {
                lines.push(path.display().to_string());
            } else if path.is_dir() && name.starts_with("gen-") {
                generations.push(path);
            }
        }
    }
    if let (Some(first), Some(last)) = (generations.first(), generations.last()) {
        lines.push(format!(
            "{} ... {} ({} generation directories: candidates g<G>c<I>.toml, race-RR.pgn/.state.jsonl/.json, mean.toml, \
             gate.pgn/.state.jsonl/.json after a gate)",
            first.display(),
            last.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(),
            generations.len()
        ));
    }
    Ok(lines)
}

/// The confirmation slice the run never played: `(start, count)` for `tuner match --openings
/// file=BOOK order=random start=START --srand SEED`.
pub fn confirmation_slice(co: &EsCoevolution) -> Option<(usize, usize)> {
    co.ledger.whole(CONFIRMATION).ok().map(|d| (d.start, d.count))
}
