//! `tuner spsa`: the SPSA [`Optimiser`](crate::optimise::Optimiser) on the shared [`Driver`],
//! one iteration a "generation", its games the [`Problem`].
//!
//! Iteration `k` (files under `<out>/iter-NNNNN/`): the `+` and `−` engines' parameter files
//! (the base parameters with the perturbed values), their game pairs through the match runner
//! with its resume journal, then `R_k · c_k · (W − L) · sign` moves every value. At each save
//! (every iteration while saving is cheap, then at most a tenth of the run's time:
//! [`Driver::throttled`]) `<out>/checkpoint.json` holds the iteration's engines and the tune as
//! of their ask, `<out>/values.csv` every iteration's score with the values after it (kept every
//! [`values_every`] iterations), `<out>/values.svg` their paths (as a share of each range) and
//! `<out>/tuned.toml` the current values as a complete parameter file.

use std::{
    cell::RefCell,
    path::{Path, PathBuf},
};

use arena::{
    engine::spec::EngineSpec,
    files::write_atomic,
    openings::OpeningsConfig,
    runner::{MatchConfig, RunnerError, Tournament, play_match},
    stats::Wdl,
    tc::{ClockTc, SearchLimits},
};
use evochess::params::{
    Params,
    spsa::{DEFAULT_MAX_PARAMS, matches, select},
};
use plotters::style::RGBColor;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{Schedule, Spsa as Tune, SpsaLineError, SpsaParam, parse_lines};
use crate::{
    chart::{Series, render_lines_svg},
    csv::Csv,
    ga::{
        driver::{Batch, Driver, Problem},
        error::RunError,
        report::GenerationStats,
        run_dir::{RunDir, Start},
    },
    genome::{
        Genome,
        encoding::{Layout, NumericGene},
    },
    hash::mix64,
    notation::Parsed,
    optimise::{AfterTell, spsa::Spsa},
    progress::{GameTicks, Plan, Progress},
};

/// Everything `tuner spsa` reads from its config file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpsaConfig {
    /// OpenBench's SPSA input (`name, int, value, min, max, c_end, r_end` per line), e.g. a
    /// selection of `evochess params --spsa`. May be left out when `only` is given: the lines
    /// are then `evochess params --spsa --only` over `base`.
    pub params: PathBuf,
    /// The group to tune: comma-separated name prefixes or globs (`knight_mg,pst_knight_*`),
    /// picking lines of `params` or, without it, parameters of the engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub only: Option<String>,
    /// Most parameters tuned at once; a larger group is refused (the SPSA budget, README).
    #[serde(skip_serializing_if = "is_default_max")]
    pub max_params: usize,
    /// Parameter file the tuned values are applied over (default: the engine's defaults).
    pub base: Option<PathBuf>,
    /// The engine binary; default `evochess` next to the `tuner` executable.
    pub engine: Option<PathBuf>,
    /// Planned iterations `N`; the gains reach `c_end` and `r_end` at the last.
    pub iterations: u64,
    /// Game pairs (an opening with both colours) per iteration.
    pub pairs: u32,
    pub tc: Option<Parsed<ClockTc>>,
    pub nodes: Option<u64>,
    pub openings: PathBuf,
    pub concurrency: usize,
    pub a_ratio: f64,
    pub alpha: f64,
    pub gamma: f64,
    pub seed: u64,
    /// Openings without replacement (issue 89): iteration `i` (from 0) plays openings
    /// `held_back + i · pairs + 1 ...` of one permutation of the book (the run's `seed`), the
    /// first `held_back` left for a confirmation match, so no opening is played twice in a run.
    /// Absent: every iteration draws its own from a shuffle of its own (openings may repeat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held_back: Option<usize>,
    /// Every line's `c_end` times this (the synthetic recovery found 3 better than 1).
    #[serde(skip_serializing_if = "is_one")]
    pub c_end_scale: f64,
    pub out_dir: PathBuf,
    /// Play the games on `tuner worker`s (`--broker`); not part of the run's identity.
    #[serde(skip)]
    pub broker: Option<crate::broker::BrokerConfig>,
}

impl Default for SpsaConfig {
    fn default() -> Self {
        let s = Schedule::new(1000);
        SpsaConfig {
            params: PathBuf::new(),
            only: None,
            max_params: DEFAULT_MAX_PARAMS,
            base: None,
            engine: None,
            iterations: s.iterations,
            pairs: 1,
            // No default clock: a config giving only `nodes` once got 5+0.05 besides, so its
            // games were not purely node-limited. One of the two must be given.
            tc: None,
            nodes: None,
            openings: PathBuf::from("openings/gnuchess-8ply.epd"),
            concurrency: 1,
            a_ratio: s.a_ratio,
            alpha: s.alpha,
            gamma: s.gamma,
            seed: 1,
            held_back: None,
            c_end_scale: 1.0,
            out_dir: PathBuf::from("runs/spsa"),
            broker: None,
        }
    }
}

/// Left out of the run's fingerprint at its default, so tunes begun before the key existed resume.
fn is_default_max(n: &usize) -> bool {
    *n == DEFAULT_MAX_PARAMS
}

fn is_one(x: &f64) -> bool {
    *x == 1.0
}

#[derive(Debug, Error)]
pub enum SpsaError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("spsa config: {0}")]
    Config(String),
    #[error("{path}: {source}")]
    Lines { path: String, source: SpsaLineError },
    #[error("iteration {iteration}: {source}")]
    Games { iteration: usize, source: Box<RunnerError> },
}

crate::command_error!(SpsaError);

impl crate::paths::ConfigPaths for SpsaConfig {
    fn input_paths() -> Vec<String> {
        crate::paths::keys(&["params", "base", "engine", "openings"])
    }
}

impl SpsaConfig {
    /// Reads a config; its relative input paths (`params`, `base`, `engine`, `openings`) are
    /// relative to the file, `out_dir` to the working directory.
    pub fn load(path: &Path) -> Result<Self, SpsaError> {
        crate::paths::load_config(path).map_err(|e| e.into_command(SpsaError::io, SpsaError::Config))
    }

    /// A move's limits: the clock, the node limit or both.
    fn limits(&self) -> SearchLimits {
        SearchLimits { clock: self.tc.as_ref().map(|t| *t.value()), nodes: self.nodes, ..SearchLimits::default() }
    }

    /// Games of an iteration: its pairs, both colours.
    fn games_per_iteration(&self) -> u64 {
        2 * u64::from(self.pairs)
    }

    fn schedule(&self) -> Schedule {
        Schedule { iterations: self.iterations, a_ratio: self.a_ratio, alpha: self.alpha, gamma: self.gamma }
    }
}

/// One iteration in the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterationRecord {
    pub iteration: usize,
    /// Wins − losses of the `+` engine.
    pub score: f64,
    /// The values after this iteration's update, kept every [`values_every`] iterations and at
    /// the last planned one: the chart's points. (Kept at every iteration, they grew the
    /// checkpoint by ~1 KB an iteration for 63 values: 35 MB over 30,000 iterations.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<f64>>,
}

/// How often an iteration keeps its values in the history: about 500 points a run.
pub fn values_every(iterations: u64) -> usize {
    (iterations / 500).max(1) as usize
}

/// The tune's games as the driver's [`Problem`]: a batch is one iteration's `+` and `−` engines
/// (asked by the [`Spsa`](crate::optimise::spsa::Spsa) optimiser), each scored by its points in
/// their game pairs, so the optimiser's `f₊ − f₋` is the `+` engine's wins − losses.
struct Tuning<'a> {
    cfg: &'a SpsaConfig,
    params: Vec<SpsaParam>,
    base: Params,
    engine: PathBuf,
    /// The run's games.
    bar: Progress,
    /// θ after the latest iteration told (the history keeps it only every few iterations).
    latest: RefCell<Option<Vec<f64>>>,
}

impl Tuning<'_> {
    fn params_file(&self, path: &Path, values: &[f64]) -> Result<(), SpsaError> {
        let mut p = self.base.clone();
        for (param, &v) in self.params.iter().zip(values) {
            p.set_by_name(&param.name, v.round() as i64).map_err(|e| SpsaError::Config(e.to_string()))?;
        }
        write_atomic(path, p.to_toml().as_bytes()).map_err(|e| SpsaError::io(path, e))
    }

    /// The search space of the tune: one gene a parameter, unstepped (θ moves by fractions).
    fn layout(&self) -> Layout {
        Layout::Numeric(self.params.iter().map(|p| NumericGene { min: p.min, max: p.max, step: None }).collect())
    }

    /// Iteration `g`'s games (files under `iter-NNNNN/`) between the `+` and `−` engines: the
    /// `+` engine's wins, draws and losses.
    fn play(&self, g: usize, pair: &[Genome], resume: bool) -> Result<Wdl, SpsaError> {
        let cfg = self.cfg;
        let dir = cfg.out_dir.join(format!("iter-{:05}", g + 1));
        std::fs::create_dir_all(&dir).map_err(|e| SpsaError::io(&dir, e))?;
        let limits = cfg.limits();
        self.bar.skip_to(g as u64 * cfg.games_per_iteration());
        self.bar.set_prefix(format!("iteration {}/{}", g + 1, cfg.iterations));
        let mut engines = Vec::new();
        for (name, genome) in ["plus", "minus"].into_iter().zip(pair) {
            let Genome::Numbers(values) = genome else {
                return Err(SpsaError::Config(format!("iteration {}: the {name} engine is not numeric", g + 1)));
            };
            let path = dir.join(format!("{name}.toml"));
            self.params_file(&path, values)?;
            engines.push(EngineSpec::new(name, &self.engine).with_params(&path).with_limits(limits.clone()));
        }
        let mut m = MatchConfig::new(engines, Tournament::Match);
        m.executor = crate::broker::games::on_workers(cfg.broker.clone());
        m.games = 2 * cfg.pairs;
        m.repeat = true;
        m.concurrency = cfg.concurrency.max(1);
        let mut book = vec![format!("file={}", cfg.openings.display()), "order=random".to_string()];
        match cfg.held_back {
            Some(held) => {
                m.seed = cfg.seed;
                book.push(format!("start={}", held + g * cfg.pairs as usize + 1));
            }
            None => m.seed = mix64(cfg.seed ^ (g as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        }
        m.openings = Some(OpeningsConfig::parse(&book).map_err(|e| SpsaError::Config(format!("openings: {e}")))?);
        let journal = dir.join("games.state.jsonl");
        m.resume = resume && journal.is_file();
        m.state = Some(journal);
        m.pgn_out = Some(dir.join("games.pgn"));
        m.event = format!("evochess spsa iteration {}", g + 1);
        let r = play_match(&m, &mut GameTicks(&self.bar))
            .map_err(|source| SpsaError::Games { iteration: g + 1, source: Box::new(source) })?;
        Ok(r.totals[0].wdl)
    }
}

impl Problem for Tuning<'_> {
    /// An engine's points in the iteration's games.
    type Score = f64;
    type Record = IterationRecord;
    type Error = SpsaError;

    fn evaluate(&self, batch: Batch<'_, f64, IterationRecord>) -> Result<Vec<f64>, SpsaError> {
        let g = batch.generation;
        let w = self.play(g, batch.population, batch.resume)?;
        let (wins, draws, losses) = (w.wins as f64, w.draws as f64, w.losses as f64);
        log::info!("iteration {}: + scored {:+} ({}/{}/{})", g + 1, wins - losses, w.wins, w.draws, w.losses);
        Ok(vec![wins + draws / 2.0, losses + draws / 2.0])
    }

    fn fitness(&self, points: &f64) -> f64 {
        *points
    }

    fn metric(&self, points: &f64) -> f64 {
        *points
    }

    /// Never reused: the engines of another iteration play other games.
    fn restore(&self, fitness: f64, _: f64) -> (f64, bool) {
        (fitness, false)
    }

    /// A tune holds nothing back.
    fn test(&self, _: &Genome) -> f64 {
        f64::NAN
    }

    fn record(
        &self,
        _: &[Genome],
        points: &[f64],
        _: usize,
        stats: GenerationStats,
        told: &AfterTell,
    ) -> Result<IterationRecord, SpsaError> {
        let iteration = stats.generation + 1;
        let Some(Genome::Numbers(values)) = &told.recommend else {
            return Err(SpsaError::Config(format!("iteration {iteration}: the optimiser keeps no θ")));
        };
        *self.latest.borrow_mut() = Some(values.clone());
        let kept =
            iteration.is_multiple_of(values_every(self.cfg.iterations)) || iteration as u64 == self.cfg.iterations;
        // Exact (the points are whole or halves): the `+` engine's wins − losses.
        Ok(IterationRecord { iteration, score: points[0] - points[1], values: kept.then(|| values.clone()) })
    }

    fn report(&self, history: &[IterationRecord]) -> Result<(), SpsaError> {
        let out = &self.cfg.out_dir;
        let mut csv = Csv::new()
            .column("iteration", |r: &&IterationRecord| r.iteration.to_string())
            .column("score", |r| r.score.to_string());
        for (i, p) in self.params.iter().enumerate() {
            csv.push(p.name.clone(), move |r| r.values.as_ref().map_or(String::new(), |v| format!("{:.3}", v[i])));
        }
        let path = out.join("values.csv");
        write_atomic(&path, csv.write(history).as_bytes()).map_err(|e| SpsaError::io(&path, e))?;
        let series: Vec<Series> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let share = |v: f64| if p.max > p.min { 100.0 * (v - p.min) / (p.max - p.min) } else { 50.0 };
                let hue = (i * 67 % 256) as u8;
                Series::new(
                    &p.name,
                    RGBColor(hue, 255 - hue, (i * 131 % 256) as u8),
                    history.iter().filter_map(|r| Some((r.iteration, share(r.values.as_ref()?[i])))).collect(),
                )
            })
            .collect();
        let svg = render_lines_svg("SPSA: tuned values", "iteration", "value (% of its range)", &series)
            .map_err(|e| SpsaError::io(&out.join("values.svg"), e))?;
        let path = out.join("values.svg");
        write_atomic(&path, svg.as_bytes()).map_err(|e| SpsaError::io(&path, e))?;
        let latest = self.latest.borrow().clone().or_else(|| history.iter().rev().find_map(|r| r.values.clone()));
        if let Some(values) = latest {
            self.params_file(&out.join("tuned.toml"), &values)?;
        }
        Ok(())
    }
}

/// The tuned parameters' SPSA input text and lines: `params`' lines, or the engine's own over
/// `base`, narrowed to `only`, at most `max_params` of them.
fn lines(cfg: &SpsaConfig, base: &Params) -> Result<(String, Vec<SpsaParam>), SpsaError> {
    let only = cfg.only.as_deref();
    let text = if cfg.params.as_os_str().is_empty() {
        let only = only.ok_or_else(|| {
            SpsaError::Config(
                "missing key `params`: name the file of SPSA lines to tune (`evochess params --spsa` prints them), \
                 or give `only` (the engine's parameters to tune)"
                    .into(),
            )
        })?;
        let ids = select(only, cfg.max_params).map_err(|e| SpsaError::Config(format!("only: {e}")))?;
        base.spsa_lines_of(&ids).join("\n")
    } else {
        crate::embedded_files::read_text(&cfg.params).map_err(|e| SpsaError::io(&cfg.params, e))?
    };
    let mut params =
        parse_lines(&text).map_err(|source| SpsaError::Lines { path: cfg.params.display().to_string(), source })?;
    if let Some(only) = only {
        let patterns: Vec<&str> = only.split(',').map(str::trim).collect();
        if let Some(p) = patterns.iter().find(|p| p.is_empty() || !params.iter().any(|l| matches(p, &l.name))) {
            return Err(SpsaError::Config(format!("only: `{p}` matches no line of {}", cfg.params.display())));
        }
        params.retain(|l| patterns.iter().any(|p| matches(p, &l.name)));
    }
    if params.is_empty() {
        return Err(SpsaError::Config(format!("{} names no parameter", cfg.params.display())));
    }
    if params.len() > cfg.max_params {
        return Err(SpsaError::Config(format!(
            "{} parameters, more than max_params = {}: fishtest and OpenBench tune at most about 150 at \
             once, over 100k-400k games (README, SPSA budget); narrow them with `only`, or raise \
             max_params if you mean it",
            params.len(),
            cfg.max_params
        )));
    }
    Ok((text, params))
}

/// The tune's plan line: the parameters, where they come from, the games and their budget.
fn plan(cfg: &SpsaConfig, params: &[SpsaParam], engine: &Path) -> Plan {
    let mut names: Vec<&str> = params.iter().take(4).map(|p| p.name.as_str()).collect();
    if params.len() > names.len() {
        names.push("...");
    }
    let lines = if cfg.params.as_os_str().is_empty() {
        format!("the engine's parameters `{}`", cfg.only.as_deref().unwrap_or_default())
    } else {
        cfg.params.display().to_string()
    };
    let base = cfg.base.as_ref().map_or_else(|| "the engine's defaults".to_string(), |b| b.display().to_string());
    let games = cfg.iterations * cfg.games_per_iteration();
    let at_once = cfg.concurrency.max(1);
    let limits = cfg.limits();
    Plan::new("spsa")
        .part(format!("tunes {} parameters ({}) of {lines} over {base}", params.len(), names.join(", ")))
        .part(format!(
            "{} iterations of {} game pairs, {games} games at {}, {at_once} at once",
            cfg.iterations,
            cfg.pairs,
            crate::progress::limits_text(&limits)
        ))
        .part(format!(
            "openings {}; engine {}; out {}",
            cfg.openings.display(),
            engine.display(),
            cfg.out_dir.display()
        ))
        .eta(crate::progress::total_seconds(games, crate::progress::game_seconds(&limits), at_once), at_once, "games")
}

/// Runs (or continues, as `start` says) the tune; returns the final values. `announce` is given
/// the plan once the inputs are checked, before any game.
pub fn run(cfg: &SpsaConfig, start: Start, announce: impl FnOnce(&Plan)) -> Result<Vec<SpsaParam>, SpsaError> {
    if cfg.iterations == 0 || cfg.pairs == 0 {
        return Err(SpsaError::Config("iterations and pairs must be at least 1".into()));
    }
    if cfg.tc.is_none() && cfg.nodes.is_none() {
        return Err(SpsaError::Config("give a time control (tc) or a node limit (nodes)".into()));
    }
    let base = match &cfg.base {
        Some(p) => Params::load(p).map_err(|e| SpsaError::params(p, e))?,
        None => Params::default(),
    };
    let (text, params) = lines(cfg, &base)?;
    for p in &params {
        let Some((_, spec)) = Params::find(&p.name) else {
            return Err(SpsaError::Config(format!("`{}` is not an engine parameter", p.name)));
        };
        // Checked now rather than when a perturbed value reaches the engine hours later.
        if p.min < f64::from(spec.min) || p.max > f64::from(spec.max) {
            return Err(SpsaError::Config(format!(
                "{}: [{}, {}] reaches outside the engine's range [{}, {}]",
                p.name, p.min, p.max, spec.min, spec.max
            )));
        }
    }
    let engine = cfg.engine.clone().unwrap_or_else(crate::paths::default_engine);
    if !engine.is_file() {
        return Err(SpsaError::Config(format!("engine {} not found", engine.display())));
    }
    if let Some(held) = cfg.held_back {
        let book = OpeningsConfig::parse(&[format!("file={}", cfg.openings.display())])
            .map_err(|e| SpsaError::Config(format!("openings: {e}")))?;
        let size = arena::openings::OpeningBook::load(&book, cfg.seed)
            .map_err(|e| SpsaError::Config(format!("openings: {e}")))?
            .len()
            .unwrap_or(0);
        let needed = held as u64 + cfg.iterations * u64::from(cfg.pairs);
        if needed > size as u64 {
            return Err(SpsaError::Config(format!(
                "held_back = {held}: {} iterations of {} pairs need {needed} openings without replacement; {} has {size}",
                cfg.iterations,
                cfg.pairs,
                cfg.openings.display()
            )));
        }
    }
    if !(cfg.c_end_scale > 0.0 && cfg.c_end_scale.is_finite()) {
        return Err(SpsaError::Config(format!("c_end_scale = {} must be positive", cfg.c_end_scale)));
    }
    let params: Vec<SpsaParam> =
        params.into_iter().map(|p| SpsaParam { c_end: p.c_end * cfg.c_end_scale, ..p }).collect();
    let plan = plan(cfg, &params, &engine);
    announce(&plan);
    let checkpoint = cfg.out_dir.join("checkpoint.json");
    let first = cfg.out_dir.join("iter-00001/games.state.jsonl");
    let _held = RunDir::open(&cfg.out_dir, &[checkpoint.clone(), first], start)?;
    // The gains depend on the planned iterations, so they are part of it.
    let fixed = SpsaConfig { concurrency: 0, out_dir: PathBuf::new(), ..cfg.clone() };
    // The parsed lines, not the file's text, so that editing a comment does not stop a resume.
    let fingerprint_with = |lines: &str| {
        crate::ga::checkpoint::fingerprint(&[
            &serde_json::to_string(&fixed).expect("config serialises"),
            lines,
            &base.values_toml(),
        ])
    };
    let canonical = serde_json::to_string(&params).expect("SPSA parameters serialise");
    let (fingerprint, legacy) = (fingerprint_with(&canonical), fingerprint_with(&text));
    let mismatch = "different settings (only concurrency and out_dir may change)";
    // Throttled: the checkpoint holds every iteration's record, so saving it (and values.csv/svg)
    // after each of 30,000 quick iterations grows quadratically. Iterations since the last save
    // replay from their own journals (iter-NNNNN/games.state.jsonl) after a kill, game for game.
    let driver = Driver::single(cfg.iterations as usize, cfg.seed, &fingerprint, checkpoint, mismatch)
        .accepting_legacy(&legacy)
        .throttled();
    let at_once = cfg.concurrency.max(1) as f64;
    let each = crate::progress::game_seconds(&cfg.limits()).map(|s| s / at_once);
    let bar = Progress::new(cfg.iterations * cfg.games_per_iteration(), "games", each);
    let tuning = Tuning { cfg, params, base, engine, bar, latest: RefCell::new(None) };
    let layout = tuning.layout();
    let spsa = Spsa::of(layout.clone(), Tune::new(tuning.params.clone(), cfg.schedule()))?;
    let finished = driver.optimise(spsa, &layout, &tuning, start.resumes());
    tuning.bar.finish_and_clear();
    let history = finished?.history;
    let last = history.last().and_then(|r| r.values.clone()).expect("the last planned iteration keeps its values");
    Ok(tuning.params.into_iter().zip(last).map(|(p, value)| SpsaParam { value, ..p }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_keeps_values_every_few_iterations_and_reads_old_records() {
        assert_eq!((values_every(5), values_every(999), values_every(30_000)), (1, 1, 60));
        let sparse = IterationRecord { iteration: 7, score: -1.0, values: None };
        let json = serde_json::to_string(&sparse).unwrap();
        assert_eq!(json, r#"{"iteration":7,"score":-1.0}"#);
        assert_eq!(serde_json::from_str::<IterationRecord>(&json).unwrap(), sparse);
        // A record written before values were thinned.
        let old: IterationRecord = serde_json::from_str(r#"{"iteration":8,"score":2.0,"values":[1.5,3.0]}"#).unwrap();
        assert_eq!(old.values, Some(vec![1.5, 3.0]));
    }

    #[test]
    fn the_shipped_config_and_its_lines_are_valid() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let cfg = SpsaConfig::load(&root.join("configs/spsa/search.toml")).unwrap();
        let text = std::fs::read_to_string(root.join(&cfg.params)).unwrap();
        let params = parse_lines(&text).unwrap();
        assert_eq!(params.len(), 6);
        for p in &params {
            let (id, spec) = Params::find(&p.name).unwrap();
            assert!(f64::from(spec.min) <= p.min && p.max <= f64::from(spec.max), "{}", p.name);
            assert_eq!(p.value, f64::from(Params::default().get(id)), "{} starts at the default", p.name);
        }
        assert!(root.join(&cfg.openings).is_file());
        // The yardstick of coevolve's default: its 63 genes, each from the engine's default,
        // with enough held-back-free openings for every iteration.
        let cfg = SpsaConfig::load(&root.join("configs/spsa/coevolve-search.toml")).unwrap();
        let text = crate::embedded_files::read_text(&cfg.params).unwrap();
        let params = parse_lines(&text).unwrap();
        assert_eq!(params.len(), 63);
        for p in &params {
            let (id, _) = Params::find(&p.name).unwrap();
            assert_eq!(p.value, f64::from(Params::default().get(id)), "{} starts at the default", p.name);
        }
        assert_eq!(
            (cfg.held_back, cfg.c_end_scale, cfg.nodes, cfg.tc.is_none()),
            (Some(1000), 3.0, Some(10_000), true)
        );
        assert!(cfg.held_back.unwrap() + cfg.iterations as usize * cfg.pairs as usize <= 241_670, "UHO_4060_v4's size");
        // The comparison tunes the whole evaluation on purpose, so it raises the maximum.
        let cfg = SpsaConfig::load(&root.join("configs/spsa/compare.toml")).unwrap();
        assert!(cfg.max_params > 200, "{}", cfg.max_params);
    }

    #[test]
    fn groups_come_from_the_engine_or_narrow_a_file_and_are_bounded() {
        let names = |ps: &[SpsaParam]| ps.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
        let base = Params::default().with_toml("[eval]\nknight_mg = 400\n").unwrap();
        let only = |o: &str| SpsaConfig { only: Some(o.into()), ..SpsaConfig::default() };
        // From the engine's declarations, at the base's values, with the value rule's steps.
        let (_, ps) = lines(&only("knight_mg,bishop_mg"), &base).unwrap();
        assert_eq!(names(&ps), ["knight_mg", "bishop_mg"]);
        assert_eq!((ps[0].value, ps[0].c_end, ps[0].r_end), (400.0, 20.0, 0.002));
        let e = lines(&only("eval.*"), &base).unwrap_err().to_string();
        assert!(e.contains("more than 150"), "{e}");
        let (_, ps) = lines(&SpsaConfig { max_params: 1000, ..only("pst_*") }, &base).unwrap();
        assert!(ps.len() > 100);
        let e = lines(&SpsaConfig::default(), &base).unwrap_err().to_string();
        assert!(e.contains("missing key `params`") && e.contains("`only`"), "{e}");

        // A file's lines, narrowed.
        let dir = std::env::temp_dir().join(format!("evochess-spsa-lines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("lines.txt");
        std::fs::write(&file, Params::default().spsa_lines().join("\n")).unwrap();
        let from_file = |o: Option<&str>, max: usize| {
            lines(
                &SpsaConfig { params: file.clone(), only: o.map(Into::into), max_params: max, ..Default::default() },
                &base,
            )
        };
        let (_, ps) = from_file(Some("queen_*"), 20).unwrap();
        assert_eq!(
            names(&ps),
            ["queen_mg", "queen_eg", "queen_mobility", "queen_relative_pin_mg", "queen_relative_pin_eg"]
        );
        assert_eq!(ps[0].value, f64::from(Params::default().eval.queen_mg), "a file's own values");
        let e = from_file(Some("queen_*,kinght"), 20).unwrap_err().to_string();
        assert!(e.contains("`kinght` matches no line"), "{e}");
        let e = from_file(None, 20).unwrap_err().to_string();
        assert!(e.contains("more than max_params = 20"), "{e}");
        assert_eq!(from_file(None, 10_000).unwrap().1.len(), Params::count());
    }
}
