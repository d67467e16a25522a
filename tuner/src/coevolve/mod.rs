//! `tuner coevolve`: single-population coevolution of evaluation functions (David et al. 2014
//! §III-C).
//!
//! The population starts from a directory of parameter files (the best organism of each
//! `tuner evolve` run, `params/evolved/run-N.toml`) or at random. Every generation each
//! organism plays every other `2 × openings_per_pair` games (paper: four; here two openings,
//! each with both colours) as an `evochess` process loaded with its parameter file, through
//! the match runner's [`round_robin`]. An organism's fitness is its points in that round
//! robin; selection is rank-based, with uniform crossover, bit-flip mutation and elitism
//! (the paper's 0.75 / 0.005 / 1) over the evaluation chromosome of `configs/spaces/evolve-paper.toml`.
//!
//! Deviation, for fairness and lower noise: all encounters of a generation share the same two
//! openings (the runner's colour-swapped game pairs), drawn afresh each generation from a
//! shuffled book, where the paper gave every game its own opening.
//!
//! Files under `out_dir` (see [`gen_dir`]): per generation the organisms' parameter files, the
//! PGN of every game, the runner's resume journal (one line per finished game pair), its
//! results JSON and the cross table with Elo estimates (CSV); overall `generations.csv`,
//! `coevolution.svg` (best, mean and worst score per generation) and `checkpoint.json`
//! (the last finished generation). `--resume` continues the unfinished generation from its
//! journal, so no finished game is replayed or lost, and breeds deterministically from the
//! checkpoint: generation `g`'s RNG is [`generation_rng`]`(seed, 0, g)`.
//!
//! The output (`<out_dir>/coevolved.toml` unless `output` names a file) is the last generation's top scorer, the
//! paper's "best of best".

use std::{
    io,
    path::{Path, PathBuf},
    time::Instant,
};

use arena::{
    adjudicate::{DrawRule, MaxMovesRule, ResignRule},
    engine::spec::EngineSpec,
    files::write_atomic,
    openings::{BookFormat, OpeningsConfig, Order},
    results::MatchResults,
    runner::{MatchConfig, MatchObserver, RunnerError, Tournament, round_robin},
    stats::{EloEstimate, Wdl},
    tc::{ClockTc, SearchLimits},
};
use evochess::params::Params;
use plotters::style::RGBColor;
use serde::{Deserialize, Deserializer, Serialize};
use thiserror::Error;

use crate::{
    csv::{Csv, quoted},
    ga::{
        GaConfig, Genome,
        driver::{Batch, Driver, Problem},
        error::RunError,
        generation_rng,
        operators::{Selection, elite_indices},
        random_genome,
        report::GenerationStats,
        run_dir::{RunDir, Start},
        threads,
    },
    parsed::Parsed,
    space::SearchSpace,
};

/// Everything `tuner coevolve` reads from its config file (`configs/coevolve/default.toml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoevolveConfig {
    /// Directory of parameter files forming the first generation (every `*.toml`, in natural
    /// name order). `None`: a random population of `ga.population` organisms.
    pub population_dir: Option<PathBuf>,
    /// Search space: the evaluation chromosome (David et al.'s 224 bits).
    pub space: PathBuf,
    /// The engine binary; default `evochess` next to the `tuner` executable.
    pub engine: Option<PathBuf>,
    /// Clock per game in cutechess notation (`5+0.05`); `None` when only `nodes` limits moves.
    pub tc: Option<Parsed<ClockTc>>,
    /// Node limit per move (alone, or on top of `tc`).
    pub nodes: Option<u64>,
    /// Milliseconds an engine may overrun its clock before it forfeits.
    pub timemargin_ms: u64,
    /// Games played at once; 0 = every core.
    pub concurrency: usize,
    /// Opening book (EPD or PGN), shuffled afresh each generation.
    pub openings: PathBuf,
    /// Openings per encounter; each is played with both colours (paper: 4 games = 2 openings).
    pub openings_per_pair: u32,
    /// Draw adjudication, `movenumber=N movecount=M score=CP` (none by default).
    pub draw: Option<Parsed<DrawRule>>,
    /// Resign adjudication, `movecount=N score=CP` (none by default).
    pub resign: Option<Parsed<ResignRule>>,
    /// Maximum game length, `N` or `moves=N result=draw|material`.
    pub maxmoves: Option<Parsed<MaxMovesRule>>,
    pub seed: u64,
    /// Per-generation files, charts and the checkpoint.
    pub out_dir: PathBuf,
    /// The best of the last generation, as a complete parameter file (empty: under `out_dir`,
    /// `<out_dir>/coevolved.toml`, so a run never writes into the repository by default).
    pub output: PathBuf,
    /// GA settings; keys not given keep the coevolution defaults (not `tuner evolve`'s).
    #[serde(deserialize_with = "ga_over_coevolve_defaults")]
    pub ga: GaConfig,
    /// Play the round robins on `tuner worker`s (`--broker`); not part of the run's identity.
    #[serde(skip)]
    pub broker: Option<crate::broker::BrokerConfig>,
}

/// David et al. §III-C: 10 organisms, 50 generations, rank-based selection, uniform crossover
/// 0.75, mutation 0.005 per bit, elitism.
pub fn coevolve_ga_defaults() -> GaConfig {
    GaConfig {
        population: 10,
        generations: 50,
        elitism: 1,
        selection: Selection::Rank { pressure: 2.0 },
        ..GaConfig::default()
    }
}

fn ga_over_coevolve_defaults<'de, D: Deserializer<'de>>(d: D) -> Result<GaConfig, D::Error> {
    crate::ga::overlay_defaults(d, coevolve_ga_defaults())
}

impl Default for CoevolveConfig {
    fn default() -> Self {
        Self {
            population_dir: Some(PathBuf::from("params/evolved")),
            space: PathBuf::from("configs/spaces/evolve-paper.toml"),
            engine: None,
            tc: Some("5+0.05".parse().expect("a valid clock")),
            nodes: None,
            timemargin_ms: 100,
            concurrency: 0,
            openings: PathBuf::from("openings/gnuchess-8ply.epd"),
            openings_per_pair: 2,
            draw: None,
            resign: None,
            maxmoves: None,
            seed: 1,
            out_dir: PathBuf::from("coevolve-out"),
            output: PathBuf::new(),
            ga: coevolve_ga_defaults(),
            broker: None,
        }
    }
}

impl CoevolveConfig {
    /// Parses a config file; unknown keys are errors naming the key.
    pub fn parse(text: &str) -> Result<Self, CoevolveError> {
        toml::from_str(text).map_err(|e| CoevolveError::Config(e.to_string()))
    }

    pub fn load(path: &Path) -> Result<Self, CoevolveError> {
        let text = crate::builtin::read_text(path).map_err(|e| CoevolveError::io(path, e))?;
        Self::parse(&text).map_err(|e| CoevolveError::Config(format!("{}: {e}", path.display())))
    }

    /// The engine binary to run.
    pub fn engine_path(&self) -> PathBuf {
        self.engine.clone().unwrap_or_else(crate::paths::default_engine)
    }

    /// Limits of every organism's engine.
    pub fn limits(&self) -> Result<SearchLimits, CoevolveError> {
        let clock = self.tc.as_ref().map(|t| *t.value());
        let l = SearchLimits { clock, nodes: self.nodes, margin_ms: self.timemargin_ms, ..SearchLimits::default() };
        if l.clock.is_none() && l.nodes.is_none() {
            return Err(CoevolveError::Config("give a time control (tc) or a node limit (nodes)".into()));
        }
        if self.nodes == Some(0) {
            return Err(CoevolveError::Config("nodes must be positive".into()));
        }
        Ok(l)
    }

    /// The match configuration shared by every generation (engines are added per generation).
    pub fn match_base(&self) -> Result<MatchConfig, CoevolveError> {
        if self.openings_per_pair == 0 {
            return Err(CoevolveError::Config("openings_per_pair must be at least 1".into()));
        }
        let mut m = MatchConfig::new(Vec::new(), Tournament::RoundRobin);
        m.games = 2 * self.openings_per_pair;
        m.repeat = true;
        m.concurrency = threads(self.concurrency);
        // The book's format from its name (`.epd`, `.pgn`, or either with `.xz`).
        let parsed = OpeningsConfig::parse(&[format!("file={}", self.openings.display())]).ok();
        let format = match parsed.map(|c| c.format) {
            Some(f @ (BookFormat::Pgn | BookFormat::Epd)) => f,
            _ => {
                return Err(CoevolveError::Config(format!(
                    "openings: {} must be an .epd or .pgn file (or .epd.xz, .pgn.xz)",
                    self.openings.display()
                )));
            }
        };
        m.openings =
            Some(OpeningsConfig { file: self.openings.clone(), format, order: Order::Random, plies: None, start: 1 });
        m.adjudication.draw = self.draw.as_ref().map(|r| *r.value());
        m.adjudication.resign = self.resign.as_ref().map(|r| *r.value());
        m.adjudication.maxmoves = self.maxmoves.as_ref().map(|r| *r.value());
        m.event = "evochess coevolution".into();
        m.executor = crate::broker::games::on_workers(self.broker.clone());
        Ok(m)
    }
}

#[derive(Debug, Error)]
pub enum CoevolveError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("coevolve config: {0}")]
    Config(String),
    #[error(transparent)]
    Runner(#[from] RunnerError),
}

crate::command_error!(CoevolveError);

/// One organism's result in one generation's round robin.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OrganismResult {
    pub name: String,
    /// Where it came from: a file name (generation 0), `elite` or `child`.
    pub origin: String,
    pub points: f64,
    pub games: u64,
    pub wdl: Wdl,
    /// Elo against the rest of the field with its 95% error (trinomial, David App. B formula
    /// for the point estimate: RD = −400·log10(1/W − 1)); `None` where it is infinite.
    pub elo: Option<EloEstimate>,
}

/// One generation's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CoevolveGeneration {
    pub generation: usize,
    pub best: usize,
    pub best_name: String,
    pub organisms: Vec<OrganismResult>,
    /// Points of row against column (NaN-free: the diagonal is 0).
    pub cross: Vec<Vec<f64>>,
    pub games: u64,
    pub seconds: f64,
}

impl CoevolveGeneration {
    fn score(&self, i: usize) -> f64 {
        let o = &self.organisms[i];
        if o.games == 0 { 0.0 } else { o.points / o.games as f64 }
    }

    pub fn best_score(&self) -> f64 {
        self.score(self.best)
    }

    pub fn mean_score(&self) -> f64 {
        (0..self.organisms.len()).map(|i| self.score(i)).sum::<f64>() / self.organisms.len().max(1) as f64
    }

    pub fn worst_score(&self) -> f64 {
        (0..self.organisms.len()).map(|i| self.score(i)).fold(f64::INFINITY, f64::min)
    }

    /// Rank (1 = best, ties share the better rank) of the previous generation's best organism,
    /// carried over unchanged by elitism: the noise check of the fitness. A fitness dominated
    /// by noise ranks last generation's winner like any organism (about n/2 on average); a
    /// meaningful one keeps it near the top. `None` in generation 0 or without elitism.
    pub fn elite_rank(&self) -> Option<usize> {
        let elite = self.organisms.iter().find(|o| o.origin.starts_with("elite"))?;
        Some(1 + self.organisms.iter().filter(|o| o.points > elite.points).count())
    }
}

/// Mean rank of the carried-over best over the generations that have one, and their number.
pub fn elite_rank_stability(history: &[CoevolveGeneration]) -> Option<(f64, usize)> {
    let ranks: Vec<usize> = history.iter().filter_map(CoevolveGeneration::elite_rank).collect();
    (!ranks.is_empty()).then(|| (ranks.iter().sum::<usize>() as f64 / ranks.len() as f64, ranks.len()))
}

/// The end of a coevolution.
#[derive(Clone, Debug)]
pub struct CoevolveOutcome {
    pub best: Genome,
    pub params: Params,
    pub history: Vec<CoevolveGeneration>,
    /// Parameter file of the generation-0 round-robin winner (the best evolve-only organism).
    pub initial_best: PathBuf,
    pub output: PathBuf,
}

/// Directory of generation `g`.
pub fn gen_dir(out_dir: &Path, g: usize) -> PathBuf {
    out_dir.join(format!("gen-{g:03}"))
}

/// Orders `run-2` before `run-10`: by the name with digit runs compared as numbers.
fn natural_key(name: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut num: Option<u64> = None;
    for c in name.chars() {
        if let Some(d) = c.to_digit(10) {
            num = Some(num.unwrap_or(0).saturating_mul(10).saturating_add(u64::from(d)));
        } else {
            if let Some(n) = num.take() {
                out.push((std::mem::take(&mut text), n));
            }
            text.push(c);
        }
    }
    out.push((text, num.unwrap_or(0)));
    out
}

/// The `*.toml` files of `dir`, in natural name order.
pub fn parameter_files(dir: &Path) -> Result<Vec<PathBuf>, CoevolveError> {
    let rd = std::fs::read_dir(dir).map_err(|e| CoevolveError::io(dir, e))?;
    let mut files: Vec<PathBuf> = rd
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort_by_key(|p| natural_key(&p.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()));
    Ok(files)
}

/// Loads the first generation from parameter files: each file's evaluation values as the
/// space's genome.
pub fn load_population(files: &[PathBuf], space: &SearchSpace) -> Result<(Vec<Genome>, Vec<String>), CoevolveError> {
    let mut pop = Vec::new();
    let mut origins = Vec::new();
    for f in files {
        let p = Params::load(f).map_err(|e| CoevolveError::params(f, e))?;
        pop.push(space.genome_of(&p));
        origins.push(f.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()));
    }
    Ok((pop, origins))
}

/// Logs a line per finished game at debug level, and one per 10% of the generation at info.
struct GenObserver {
    generation: usize,
    planned: u64,
    next_report: u64,
}

impl MatchObserver for GenObserver {
    fn on_start(&mut self, planned: u64, done: u64, _: &arena::results::Standings) {
        self.planned = planned;
        if done > 0 {
            log::info!("generation {}: resuming, {done} of {planned} games already played", self.generation);
        }
        self.next_report = done + planned.div_ceil(10).max(1);
    }

    fn on_game(&mut self, g: &arena::game::GameRecord, s: &arena::results::Standings) {
        log::debug!("{} vs {}: {} {{{}}}", g.white, g.black, g.result.outcome.pgn(), g.result.reason);
        if s.games >= self.next_report {
            log::info!("generation {}: {}/{} games", self.generation, s.games, self.planned);
            self.next_report = s.games + self.planned.div_ceil(10).max(1);
        }
    }
}

/// A configured coevolution.
pub struct Coevolution {
    pub cfg: CoevolveConfig,
    pub space: SearchSpace,
    space_text: String,
    base: MatchConfig,
    limits: SearchLimits,
    engine: PathBuf,
}

impl Coevolution {
    /// Validates the configuration and reads the search space.
    pub fn new(mut cfg: CoevolveConfig) -> Result<Self, CoevolveError> {
        if cfg.output.as_os_str().is_empty() {
            cfg.output = cfg.out_dir.join("coevolved.toml");
        }
        let space_text = crate::builtin::read_text(&cfg.space).map_err(|e| CoevolveError::io(&cfg.space, e))?;
        let space = SearchSpace::parse(&space_text).map_err(|e| e.in_file(&cfg.space))?;
        cfg.ga.validate(space.layout())?;
        let base = cfg.match_base()?;
        let limits = cfg.limits()?;
        let engine = cfg.engine_path();
        if !engine.is_file() {
            return Err(CoevolveError::Config(format!("engine {} not found", engine.display())));
        }
        Ok(Coevolution { cfg, space, space_text, base, limits, engine })
    }

    /// Identifies everything that determines the run except the generation count (so a
    /// finished run can be extended with `--resume --generations N`). `space` is the space's
    /// canonical form, or for the legacy fingerprint the file's raw text.
    fn fingerprint(&self, initial: &[Genome], space: &str) -> String {
        let mut cfg = self.cfg.clone();
        cfg.ga.generations = 0;
        cfg.concurrency = 0;
        cfg.output = PathBuf::new();
        let genomes = serde_json::to_string(initial).expect("genomes serialise");
        crate::ga::checkpoint::fingerprint(&[&serde_json::to_string(&cfg).expect("config serialises"), space, &genomes])
    }

    /// The first generation: from `population_dir` or random.
    pub fn initial_population(&self) -> Result<(Vec<Genome>, Vec<String>), CoevolveError> {
        match &self.cfg.population_dir {
            Some(dir) => {
                let files = parameter_files(dir)?;
                if files.len() < 2 {
                    return Err(CoevolveError::Config(format!(
                        "population_dir {} holds {} parameter file(s); coevolution needs at least 2",
                        dir.display(),
                        files.len()
                    )));
                }
                load_population(&files, &self.space)
            }
            None => {
                let mut rng = generation_rng(self.cfg.seed, 0, 0);
                let pop: Vec<Genome> =
                    (0..self.cfg.ga.population).map(|_| random_genome(self.space.layout(), &mut rng)).collect();
                Ok((pop, vec!["random".to_string(); self.cfg.ga.population]))
            }
        }
    }

    /// Runs (or continues, as `start` says) the coevolution and writes the output file.
    pub fn run(&self, start: Start) -> Result<CoevolveOutcome, CoevolveError> {
        let out = &self.cfg.out_dir;
        let checkpoint = out.join("checkpoint.json");
        // A run killed in its first generation has a journal of games but no checkpoint yet.
        let state = [checkpoint.clone(), gen_dir(out, 0).join("games.state.jsonl")];
        let layout = self.space.layout();
        // `--force` discards the old run only once the new one's population has been read.
        let (_held, (initial, initial_origins, ga)) = RunDir::open_checked(out, &state, start, || {
            let (initial, initial_origins) = self.initial_population()?;
            // The population size follows the initial population (ten evolve runs → ten organisms).
            let mut ga = self.cfg.ga.clone();
            ga.population = initial.len();
            ga.elitism = ga.elitism.min(ga.population - 1);
            ga.validate(layout)?;
            Ok::<_, CoevolveError>((initial, initial_origins, ga))
        })?;
        let fingerprint = self.fingerprint(&initial, &self.space.canonical());
        let legacy = self.fingerprint(&initial, &self.space_text);
        let mismatch = "a different config, search space or initial population";
        let driver =
            Driver::single(ga.generations, self.cfg.seed, &fingerprint, checkpoint, mismatch).accepting_legacy(&legacy);
        let problem = RoundRobin { coevolution: self, initial_origins, elitism: ga.elitism };
        let finished = driver.evolve(&ga, layout, &problem, start.resumes(), |_| initial.clone())?;
        let last = finished.history.last().expect("a generation was played");
        self.finish(&finished.state.population, last, &finished.history)
    }

    /// Writes the organisms' files and plays generation `g`'s round robin.
    fn play_generation(
        &self,
        g: usize,
        pop: &[Genome],
        origins: &[String],
        resume: bool,
    ) -> Result<CoevolveGeneration, CoevolveError> {
        let started = Instant::now();
        let dir = gen_dir(&self.cfg.out_dir, g);
        std::fs::create_dir_all(&dir).map_err(|e| CoevolveError::io(&dir, e))?;
        let base_params = self.space.base();
        let mut engines = Vec::new();
        let mut names = Vec::new();
        for (i, genome) in pop.iter().enumerate() {
            let name = format!("g{g}o{i}");
            let path = dir.join(format!("{name}.toml"));
            let params = self.space.apply(genome, &base_params);
            let text = format!("# coevolution generation {g}, organism {i} ({})\n{}", origins[i], params.to_toml());
            write_atomic(&path, text.as_bytes()).map_err(|e| CoevolveError::io(&path, e))?;
            engines.push(EngineSpec::new(&name, &self.engine).with_params(&path).with_limits(self.limits.clone()));
            names.push(name);
        }
        let mut m = self.base.clone();
        // Fresh openings every generation, reproducibly.
        m.seed = crate::hash::mix64(self.cfg.seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        m.pgn_out = Some(dir.join("games.pgn"));
        m.state = Some(dir.join("games.state.jsonl"));
        m.results_out = Some(dir.join("results.json"));
        m.resume = resume && dir.join("games.state.jsonl").is_file();
        let mut obs = GenObserver { generation: g, planned: 0, next_report: 0 };
        let results = round_robin(engines, &m, &mut obs)?;
        let summary = summarise(g, &names, origins, &results, started.elapsed().as_secs_f64());
        let csv = dir.join("crosstable.csv");
        write_atomic(&csv, crosstable_csv(&summary).as_bytes()).map_err(|e| CoevolveError::io(&csv, e))?;
        Ok(summary)
    }

    fn write_reports(&self, history: &[CoevolveGeneration]) -> Result<(), CoevolveError> {
        let csv = self.cfg.out_dir.join("generations.csv");
        write_atomic(&csv, generations_csv(history).as_bytes()).map_err(|e| CoevolveError::io(&csv, e))?;
        let svg = self.cfg.out_dir.join("coevolution.svg");
        let text = render_svg(history).map_err(|e| CoevolveError::io(&svg, io::Error::other(e)))?;
        write_atomic(&svg, text.as_bytes()).map_err(|e| CoevolveError::io(&svg, e))
    }

    fn finish(
        &self,
        pop: &[Genome],
        last: &CoevolveGeneration,
        history: &[CoevolveGeneration],
    ) -> Result<CoevolveOutcome, CoevolveError> {
        let best = pop[last.best].clone();
        let params = self.space.apply(&best, &self.space.base());
        let o = &last.organisms[last.best];
        let elo = o.elo.map_or_else(|| "-".into(), |e| format!("{:+.1} +/- {:.1}", e.elo, e.error));
        let header = format!(
            "# Coevolved by `tuner coevolve` (David et al. 2014 III-C): best of generation {} of {} organisms,\n\
             # {:.1}/{} points ({:.1}%), Elo vs the field {elo}.\n# Genes: {}\n\n",
            last.generation,
            pop.len(),
            o.points,
            o.games,
            100.0 * last.best_score(),
            self.space.describe(&best)
        );
        let text = format!("{header}{}", params.to_toml());
        write_atomic(&self.cfg.output, text.as_bytes()).map_err(|e| CoevolveError::io(&self.cfg.output, e))?;
        let first = &history[0];
        let initial_best = gen_dir(&self.cfg.out_dir, 0).join(format!("{}.toml", first.best_name));
        Ok(CoevolveOutcome { best, params, history: history.to_vec(), initial_best, output: self.cfg.output.clone() })
    }
}

/// One organism's result in its generation's round robin and its row of the cross table.
#[derive(Clone, Debug)]
pub struct Standing {
    pub result: OrganismResult,
    /// Points against each organism (0 against itself).
    pub row: Vec<f64>,
}

/// A coevolution as the driver's problem: an organism's fitness is its points in a round robin
/// of its generation, so no score carries over from one generation to the next.
struct RoundRobin<'c> {
    coevolution: &'c Coevolution,
    /// Where generation 0's organisms came from (file names, or `random`).
    initial_origins: Vec<String>,
    elitism: usize,
}

impl RoundRobin<'_> {
    /// Where each organism of `generation` came from: the carried-over elites of the previous
    /// generation (the first slots, as [`breed`](crate::ga::breed) places them), then children.
    fn origins(&self, generation: usize, history: &[CoevolveGeneration]) -> Vec<String> {
        let Some(previous) = history.last() else { return self.initial_origins.clone() };
        let points: Vec<f64> = previous.organisms.iter().map(|o| o.points).collect();
        let elites = elite_indices(&points, self.elitism.min(points.len()));
        (0..points.len())
            .map(|i| match elites.get(i) {
                Some(&e) => format!("elite g{}o{e}", generation - 1),
                None => "child".to_string(),
            })
            .collect()
    }
}

impl Problem for RoundRobin<'_> {
    type Score = Standing;
    type Record = CoevolveGeneration;
    type Error = CoevolveError;

    fn evaluate(&self, b: Batch<'_, Standing, CoevolveGeneration>) -> Result<Vec<Standing>, CoevolveError> {
        let origins = self.origins(b.generation, b.history);
        let g = self.coevolution.play_generation(b.generation, b.population, &origins, b.resume)?;
        Ok(g.organisms.into_iter().zip(g.cross).map(|(result, row)| Standing { result, row }).collect())
    }

    fn fitness(&self, s: &Standing) -> f64 {
        s.result.points
    }

    fn metric(&self, s: &Standing) -> f64 {
        if s.result.games == 0 { 0.0 } else { s.result.points / s.result.games as f64 }
    }

    fn restore(&self, fitness: f64, _: f64) -> (Standing, bool) {
        let result = OrganismResult {
            name: String::new(),
            origin: String::new(),
            points: fitness,
            games: 0,
            wdl: Wdl::default(),
            elo: None,
        };
        (Standing { result, row: Vec::new() }, false)
    }

    fn test(&self, _: &Genome) -> f64 {
        f64::NAN
    }

    fn record(
        &self,
        _: &[Genome],
        standings: &[Standing],
        best: usize,
        stats: GenerationStats,
    ) -> Result<CoevolveGeneration, CoevolveError> {
        let g = CoevolveGeneration {
            generation: stats.generation,
            best,
            best_name: standings[best].result.name.clone(),
            games: standings.iter().map(|s| s.result.games).sum::<u64>() / 2,
            organisms: standings.iter().map(|s| s.result.clone()).collect(),
            cross: standings.iter().map(|s| s.row.clone()).collect(),
            seconds: stats.seconds,
        };
        log::info!(
            "generation {}: best {} {:.1}/{} ({:.1}%), mean {:.1}%, worst {:.1}%{} ({:.0}s)",
            g.generation,
            g.best_name,
            g.organisms[best].points,
            g.organisms[best].games,
            100.0 * g.best_score(),
            100.0 * g.mean_score(),
            100.0 * g.worst_score(),
            g.elite_rank()
                .map_or(String::new(), |r| format!(", last generation's best ranks {r} of {}", g.organisms.len())),
            g.seconds
        );
        Ok(g)
    }

    fn report(&self, history: &[CoevolveGeneration]) -> Result<(), CoevolveError> {
        self.coevolution.write_reports(history)
    }
}

/// Scores, cross table and Elo estimates of one finished round robin.
pub fn summarise(
    generation: usize,
    names: &[String],
    origins: &[String],
    r: &MatchResults,
    seconds: f64,
) -> CoevolveGeneration {
    let n = names.len();
    let mut cross = vec![vec![0.0; n]; n];
    for p in &r.pairs {
        cross[p.first][p.second] = p.points;
        cross[p.second][p.first] = p.games as f64 - p.points;
    }
    let organisms: Vec<OrganismResult> = r
        .totals
        .iter()
        .enumerate()
        .map(|(i, t)| OrganismResult {
            name: names[i].clone(),
            origin: origins.get(i).cloned().unwrap_or_default(),
            points: t.points,
            games: t.games,
            wdl: t.wdl,
            // A 100% or 0% score (or an interval reaching it) has no finite Elo; JSON cannot hold it.
            elo: t.wdl.elo().filter(|e| e.elo.is_finite() && e.error.is_finite()),
        })
        .collect();
    let fitness: Vec<f64> = organisms.iter().map(|o| o.points).collect();
    let best = elite_indices(&fitness, 1)[0];
    CoevolveGeneration {
        generation,
        best,
        best_name: names[best].clone(),
        organisms,
        cross,
        games: r.games_played,
        seconds,
    }
}

fn fmt_elo(e: Option<EloEstimate>) -> (String, String) {
    match e {
        Some(e) if e.elo.is_finite() => (format!("{:.1}", e.elo), format!("{:.1}", e.error)),
        Some(e) => (format!("{}", e.elo), String::new()),
        None => (String::new(), String::new()),
    }
}

/// `organism,origin,<each opponent>,points,games,score,elo,elo_error` (row's points vs column).
pub fn crosstable_csv(g: &CoevolveGeneration) -> String {
    let mut csv = Csv::new()
        .column("organism", |&(_, o): &(usize, &OrganismResult)| o.name.clone())
        .column("origin", |&(_, o)| quoted(&o.origin));
    for (j, opponent) in g.organisms.iter().enumerate() {
        csv.push(&opponent.name, move |&(i, _)| if i == j { "-".to_string() } else { g.cross[i][j].to_string() });
    }
    let csv = csv
        .column("points", |&(_, o)| o.points.to_string())
        .column("games", |&(_, o)| o.games.to_string())
        .column("score", |&(_, o)| format!("{:.4}", if o.games > 0 { o.points / o.games as f64 } else { 0.0 }))
        .column("elo", |&(_, o)| fmt_elo(o.elo).0)
        .column("elo_error", |&(_, o)| fmt_elo(o.elo).1);
    csv.write(g.organisms.iter().enumerate())
}

/// One row per generation: the best organism's score and Elo against the field, and the
/// population's mean and worst score.
pub fn generations_csv(history: &[CoevolveGeneration]) -> String {
    fn best(g: &CoevolveGeneration) -> &OrganismResult {
        &g.organisms[g.best]
    }
    let csv = Csv::new()
        .column("generation", |g: &&CoevolveGeneration| g.generation.to_string())
        .column("best", |g| g.best_name.clone())
        .column("best_points", |g| best(g).points.to_string())
        .column("best_games", |g| best(g).games.to_string())
        .column("best_score", |g| format!("{:.4}", g.best_score()))
        .column("best_elo", |g| fmt_elo(best(g).elo).0)
        .column("best_elo_error", |g| fmt_elo(best(g).elo).1)
        .column("mean_score", |g| format!("{:.4}", g.mean_score()))
        .column("worst_score", |g| format!("{:.4}", g.worst_score()))
        .column("games", |g| g.games.to_string())
        .column("seconds", |g| format!("{:.1}", g.seconds))
        .column("elite_rank", |g| g.elite_rank().map_or(String::new(), |r| r.to_string()));
    csv.write(history)
}

/// Best, mean and worst score (percent) per generation.
pub fn render_svg(history: &[CoevolveGeneration]) -> Result<String, String> {
    let line = |label: &str, color, f: fn(&CoevolveGeneration) -> f64| crate::chart::Series {
        label: label.to_string(),
        color,
        points: history.iter().map(|g| (g.generation, 100.0 * f(g))).collect(),
    };
    let n = history.first().map_or(0, |g| g.organisms.len());
    crate::chart::render_lines_svg(
        &format!("coevolution: round-robin score of {n} organisms per generation"),
        "generation",
        "score in the generation's round robin (%)",
        &[
            line("best organism", RGBColor(200, 30, 30), CoevolveGeneration::best_score),
            line("population average", RGBColor(30, 30, 200), CoevolveGeneration::mean_score),
            line("worst organism", RGBColor(30, 150, 30), CoevolveGeneration::worst_score),
        ],
    )
}

#[cfg(test)]
mod tests {

    fn organism(origin: &str, points: f64) -> OrganismResult {
        OrganismResult { name: String::new(), origin: origin.into(), points, games: 4, wdl: Wdl::default(), elo: None }
    }

    #[test]
    fn elite_rank_is_the_carried_over_best_s_place() {
        let generation = |organisms: Vec<OrganismResult>| CoevolveGeneration {
            generation: 1,
            best: 0,
            best_name: String::new(),
            cross: Vec::new(),
            organisms,
            games: 0,
            seconds: 0.0,
        };
        let g = generation(vec![organism("elite g0o2", 2.0), organism("child", 3.0), organism("child", 2.0)]);
        assert_eq!(g.elite_rank(), Some(2), "one organism scored more; a tie shares the better rank");
        let first = generation(vec![organism("run-1.toml", 2.0), organism("run-2.toml", 3.0)]);
        assert_eq!(first.elite_rank(), None);
        let top = generation(vec![organism("elite g1o0", 4.0), organism("child", 1.0)]);
        assert_eq!(elite_rank_stability(&[g, first, top]), Some((1.5, 2)));
    }

    use super::*;

    #[test]
    fn a_checkpoint_of_the_older_format_still_resumes() {
        // Written before coevolve ran on the shared driver: `origins`, no `run`, no `metric`.
        let old = r#"{"fingerprint":"f","generation":0,"population":[{"bits":"0110"},{"bits":"1001"}],
            "origins":["a.toml","b.toml"],"fitness":[1.5,0.5],"history":[{"generation":0,"best":0,
            "best_name":"g0o0","organisms":[],"cross":[],"games":2,"seconds":1.0}]}"#;
        let path = std::env::temp_dir().join(format!("evochess-old-coevolve-{}.json", std::process::id()));
        std::fs::write(&path, old).unwrap();
        let c = crate::ga::checkpoint::Checkpoint::<crate::ga::driver::Population, CoevolveGeneration>::load(&path)
            .unwrap()
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!((c.run, c.generation, c.state.fitness.clone(), c.state.best()), (0, 0, vec![1.5, 0.5], 0));
        assert!(c.state.metric.is_empty());
        assert_eq!(c.history[0].games, 2);
    }

    #[test]
    fn natural_order_puts_run_2_before_run_10() {
        let mut names = vec!["run-10.toml", "run-2.toml", "run-1.toml"];
        names.sort_by_key(|n| natural_key(n));
        assert_eq!(names, vec!["run-1.toml", "run-2.toml", "run-10.toml"]);
    }

    #[test]
    fn openings_may_be_xz_compressed_but_not_polyglot() {
        for (file, format) in [("b.epd", BookFormat::Epd), ("b.pgn.xz", BookFormat::Pgn), ("b.epd.xz", BookFormat::Epd)]
        {
            let cfg = CoevolveConfig::parse(&format!("openings = \"{file}\"\n")).unwrap();
            assert_eq!(cfg.match_base().unwrap().openings.unwrap().format, format, "{file}");
        }
        for file in ["book.bin", "b.txt"] {
            let cfg = CoevolveConfig::parse(&format!("openings = \"{file}\"\n")).unwrap();
            let e = cfg.match_base().unwrap_err().to_string();
            assert!(e.contains(file) && e.contains(".epd.xz"), "{e}");
        }
    }

    #[test]
    fn partial_ga_table_keeps_coevolution_defaults() {
        let cfg = CoevolveConfig::parse("[ga]\ngenerations = 3\n").unwrap();
        assert_eq!(cfg.ga.generations, 3);
        assert_eq!(cfg.ga.selection, Selection::Rank { pressure: 2.0 });
        assert_eq!(cfg.ga.mutation_rate, 0.005);
        let e = CoevolveConfig::parse("[ga]\nmutation_rat = 3\n").unwrap_err().to_string();
        assert!(e.contains("mutation_rat"), "{e}");
        // Clocks and adjudication rules are typed when the config is read.
        let e = CoevolveConfig::parse("tc = \"5+x\"\n").unwrap_err().to_string();
        assert!(e.contains("5+x"), "{e}");
        let e = CoevolveConfig::parse("draw = \"movenumber=40\"\n").unwrap_err().to_string();
        assert!(e.contains("draw") && e.contains("movenumber=40"), "{e}");
    }
}
