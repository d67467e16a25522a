//! `tuner coevolve`: single-population coevolution of evaluation functions (David et al. 2014
//! §III-C).
//!
//! The population starts from a directory of parameter files (the best organism of each
//! `tuner evolve` run, `params/evolved/run-N.toml`) or at random. Every generation each
//! organism plays every other `2 × openings_per_pair` games (paper: four; here two openings,
//! each with both colours) as an `evochess` process loaded with its parameter file, through
//! the match runner's [`round_robin`]. An organism's fitness is its points in that round
//! robin; selection is rank-based, with uniform crossover, bit-flip mutation and elitism
//! (the paper's 0.75 / 0.005 / 1).
//!
//! The chromosome is the whole declared evaluation unless the config names a smaller space
//! ([`SearchSpace::whole_evaluation`]), so generation 0 holds the given files value for value.
//! In a smaller space (the paper's 224 bits, `configs/spaces/evolve-paper.toml`) the values
//! outside it are each seed file's own ([`SearchSpace::seed`]: never zeroed, never an endgame
//! value replaced by its middlegame twin unless a gene ties them), a log line per file says how
//! many values the space changed, and bred organisms keep the outside values of the seed their
//! slot descends from ([`lineage`]).
//!
//! Deviation, for fairness and lower noise: all encounters of a generation share the same two
//! openings (the runner's colour-swapped game pairs), drawn afresh each generation from a
//! shuffled book, where the paper gave every game its own opening.
//!
//! Progress across generations: a round robin's mean score is 50% by construction, so each
//! generation's best also plays `reference_games` games against a fixed reference, generation
//! 0's champion (extra games, openings drawn from the same book; generation 0 is the reference
//! itself).
//! `coevolution.svg` charts that Elo with its 95% interval; `generations.csv` has it beside the
//! round-robin scores.
//!
//! Files under `out_dir` (see [`gen_dir`]): per generation the organisms' parameter files, the
//! PGN of every game, the runner's resume journal (one line per finished game pair), its
//! results JSON, the cross table with Elo estimates (CSV) and the reference match (PGN,
//! journal, results); overall `generations.csv`, `coevolution.svg` and `checkpoint.json`
//! (the last finished generation). `--resume` continues the unfinished generation from its
//! journals, so no finished game is replayed or lost, and breeds deterministically from the
//! checkpoint: generation `g`'s RNG is [`generation_rng`]`(seed, 0, g)`. The checkpoint alone
//! resumes a run, on another machine without the `gen-NNN` directories: the earlier files a
//! generation reads, generation 0's organisms and a promoted champion's, are rewritten from the
//! config's initial population and the genome the champion's record keeps.
//!
//! With `selection = "racing"` a generation is ranked by racing instead ([`racing`]): rounds of
//! game pairs among the organisms still in doubt, up to `racing_games` games, and fitness is each
//! organism's Bradley–Terry rating from the generation's games. With `selection = "reference"`
//! every organism plays the same games against a fixed pool instead ([`reference`](mod@reference)); fitness is
//! its points. `[ga.immigrants]` replaces the last children of each generation with newcomers,
//! `mutants` adds mutants of the given files to generation 0, and each generation's record
//! keeps the population's [`diversity`].
//!
//! The output (`<out_dir>/coevolved.toml` unless `output` names a file) is the last generation's top scorer, the
//! paper's "best of best"; with `[champion] gate = "sprt"` it is instead the run's champion, the
//! start file or a challenger that beat the champion before it in an SPRT ([`champion`]).

pub mod champion;
pub mod racing;
pub mod reference;

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
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use plotters::style::RGBColor;
use serde::{Deserialize, Deserializer, Serialize};
use thiserror::Error;

use self::{
    champion::{Challenge, Challenger, ChampionConfig, FirstChampion, Verdict},
    racing::{Race, Rating, Scheme},
    reference::{Pool, PoolConfig, PoolTable},
};
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

/// One organism of a fixed population (`[[organisms]]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrganismSpec {
    /// Its parameter file (relative to the config).
    pub file: PathBuf,
    /// Its node limit per move, in place of the run's `nodes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Its clock, in place of the run's `tc`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<Parsed<ClockTc>>,
}

/// Salts the mutants' RNG apart from breeding's `generation_rng(seed, 0, g)`.
const MUTANT_SALT: u64 = 0x6d75_7461_6e74_7321;

/// Everything `tuner coevolve` reads from its config file (`configs/coevolve/default.toml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoevolveConfig {
    /// Directory of parameter files forming the first generation (every `*.toml`, in natural
    /// name order). `None`: a random population of `ga.population` organisms.
    pub population_dir: Option<PathBuf>,
    /// A fixed population whose organisms carry limits of their own (`[[organisms]]`, each a
    /// `file` with optional `nodes` and `tc` over the run's): the node ladder of a ranking
    /// benchmark. When given it is the population (`population_dir` is not read); for a run of one generation without the gate, since
    /// bred organisms would have no limits of their own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub organisms: Vec<OrganismSpec>,
    /// Mutants of the seed files added to generation 0 (file 1, 2, ... in turn), each gene moved
    /// by N(0, `mutant_sigma` × its range): a population from one file and its neighbours.
    #[serde(skip_serializing_if = "is_zero_usize")]
    pub mutants: usize,
    /// The mutants' step, a fraction of each gene's range.
    #[serde(skip_serializing_if = "is_default_mutant_sigma")]
    pub mutant_sigma: f64,
    /// Search space file. `None` (the default): the whole declared evaluation
    /// ([`SearchSpace::whole_evaluation`]), so that generation 0 holds the given files value for
    /// value. A smaller space (David et al.'s 224 bits, `configs/spaces/evolve-paper.toml`) only
    /// when named; the values outside it are each seed file's.
    pub space: Option<PathBuf>,
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
    /// How a generation ranks its organisms: `round-robin` (the paper's; fitness is points),
    /// `racing` (rounds of game pairs among the organisms in doubt; fitness is a Bradley–Terry
    /// rating, [`racing`]) or `reference` (the same games for every organism against the fixed
    /// `[pool]`; fitness is points, [`reference`](mod@reference)). Out of the run's identity when
    /// `round-robin`, so earlier runs resume.
    #[serde(skip_serializing_if = "Scheme::is_round_robin")]
    pub selection: Scheme,
    /// Racing: most games per generation (game pairs, so even); 0: the round robin's count.
    #[serde(skip_serializing_if = "is_zero")]
    pub racing_games: u64,
    /// Racing: two-sided confidence of the bounds (rating ± z·error) that drop organisms.
    #[serde(skip_serializing_if = "is_default_confidence")]
    pub racing_confidence: f64,
    /// `[pool]`: the fixed opponents of `selection = "reference"` ([`reference`](mod@reference)).
    #[serde(skip_serializing_if = "PoolConfig::is_empty")]
    pub pool: PoolConfig,
    /// Draw adjudication, `movenumber=N movecount=M score=CP` (none by default).
    pub draw: Option<Parsed<DrawRule>>,
    /// Resign adjudication, `movecount=N score=CP` (none by default).
    pub resign: Option<Parsed<ResignRule>>,
    /// Maximum game length, `N` or `moves=N result=draw|material`.
    pub maxmoves: Option<Parsed<MaxMovesRule>>,
    pub seed: u64,
    /// Games per generation between its best organism and the reference, the generation-0
    /// champion (colour-swapped pairs, so even), for the chart of strength across generations;
    /// 0: none.
    #[serde(skip_serializing)] // the chart's games, not the evolution's: not in the run's identity
    pub reference_games: u32,
    /// Per-generation files, charts and the checkpoint.
    pub out_dir: PathBuf,
    /// The best of the last generation, as a complete parameter file (empty: under `out_dir`,
    /// `<out_dir>/coevolved.toml`, so a run never writes into the repository by default).
    pub output: PathBuf,
    /// GA settings; keys not given keep the coevolution defaults (not `tuner evolve`'s).
    #[serde(deserialize_with = "ga_over_coevolve_defaults")]
    pub ga: GaConfig,
    /// `[champion]`: the SPRT-gated champion ([`champion`]); off by default.
    #[serde(skip_serializing_if = "ChampionConfig::is_off")]
    pub champion: ChampionConfig,
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

fn is_zero_usize(n: &usize) -> bool {
    *n == 0
}

fn is_default_mutant_sigma(s: &f64) -> bool {
    *s == DEFAULT_MUTANT_SIGMA
}

/// Issue 45's mutants: each gene moved by 5% of its range.
pub const DEFAULT_MUTANT_SIGMA: f64 = 0.05;

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn is_default_confidence(c: &f64) -> bool {
    *c == racing::DEFAULT_CONFIDENCE
}

fn ga_over_coevolve_defaults<'de, D: Deserializer<'de>>(d: D) -> Result<GaConfig, D::Error> {
    crate::ga::overlay_defaults(d, coevolve_ga_defaults())
}

impl Default for CoevolveConfig {
    fn default() -> Self {
        Self {
            population_dir: Some(PathBuf::from("params/evolved")),
            space: None,
            engine: None,
            tc: Some("5+0.05".parse().expect("a valid clock")),
            nodes: None,
            timemargin_ms: 100,
            concurrency: 0,
            openings: PathBuf::from("openings/gnuchess-8ply.epd"),
            openings_per_pair: 2,
            selection: Scheme::RoundRobin,
            pool: PoolConfig::default(),
            organisms: Vec::new(),
            mutants: 0,
            mutant_sigma: DEFAULT_MUTANT_SIGMA,
            racing_games: 0,
            racing_confidence: racing::DEFAULT_CONFIDENCE,
            draw: None,
            resign: None,
            maxmoves: None,
            seed: 1,
            reference_games: 8,
            out_dir: PathBuf::from("coevolve-out"),
            output: PathBuf::new(),
            ga: coevolve_ga_defaults(),
            champion: ChampionConfig::default(),
            broker: None,
        }
    }
}

impl CoevolveConfig {
    /// Parses a config file; unknown keys are errors naming the key.
    pub fn parse(text: &str) -> Result<Self, CoevolveError> {
        toml::from_str(text).map_err(|e| CoevolveError::Config(e.to_string()))
    }

    /// Reads a config file; its relative input paths (`population_dir`, `space`, `engine`,
    /// `openings`) are relative to the file, `out_dir` and `output` to the working directory.
    pub fn load(path: &Path) -> Result<Self, CoevolveError> {
        crate::paths::load_config(path).map_err(|e| e.into_command(CoevolveError::io, CoevolveError::Config))
    }

    /// Refuses the optimisers that start from one point (`"spsa"`, `"local"`): the organisms
    /// are the population's files, each with its own values outside the space, and the report
    /// follows their lineage; a one-point optimiser has neither.
    pub fn check_optimiser(&self) -> Result<(), CoevolveError> {
        if self.ga.optimiser.from_one_point() {
            return Err(CoevolveError::Config(format!(
                "ga.optimiser = \"{}\": coevolve runs the GA or CMA-ES (\"ga\" or \"cmaes\")",
                self.ga.optimiser.name()
            )));
        }
        Ok(())
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
        if !self.reference_games.is_multiple_of(2) {
            return Err(CoevolveError::Config(format!(
                "reference_games = {} must be even (each opening is played with both colours)",
                self.reference_games
            )));
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
    #[error("racing: {0}")]
    Ratings(#[from] arena::stats::bradley_terry::RatingsError),
}

crate::command_error!(CoevolveError);

impl crate::paths::ConfigPaths for CoevolveConfig {
    fn input_paths() -> Vec<String> {
        crate::paths::keys(&[
            "population_dir",
            "space",
            "engine",
            "openings",
            "champion.start",
            "pool.files",
            "organisms.file",
        ])
    }
}

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
    /// Racing: the Bradley–Terry rating, the organism's fitness; `None` in a round robin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
}

impl OrganismResult {
    /// What selection maximised: the racing rating, or the round robin's points.
    pub fn fitness(&self) -> f64 {
        self.rating.as_ref().map_or(self.points, |r| r.elo)
    }
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
    /// The best organism's games against the reference (generation 0's champion); `None` in
    /// generation 0 (the champion is the reference: 0 Elo by definition), without
    /// `reference_games`, and in runs from before the reference.
    #[serde(default)]
    pub reference: Option<ReferenceResult>,
    /// The best organism's challenge of the run's champion (`[champion] gate = "sprt"`);
    /// `None` without the gate and in generations that do not challenge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge: Option<Challenge>,
    /// Racing: the rounds, why the race ended and the games of each pair; `None` for a round
    /// robin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub race: Option<Race>,
    /// Reference selection: every organism's games against each pool member; `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<PoolTable>,
    /// The population's diversity ([`diversity`]); `None` in runs from before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diversity: Option<f64>,
}

/// How far apart a population's organisms are: the mean, over every two organisms, of the
/// share of genes whose values differ (0: every organism the same, as in a collapsed
/// population; 1: no gene shared).
pub fn diversity(pop: &[Genome], layout: &crate::ga::encoding::Layout) -> f64 {
    let units: Vec<Vec<f64>> = pop.iter().map(|g| layout.unit_of(g)).collect();
    let genes = layout.gene_count().max(1) as f64;
    let (mut sum, mut pairs) = (0.0, 0usize);
    for i in 0..units.len() {
        for j in i + 1..units.len() {
            sum += units[i].iter().zip(&units[j]).filter(|(a, b)| a != b).count() as f64 / genes;
            pairs += 1;
        }
    }
    if pairs == 0 { 0.0 } else { sum / pairs as f64 }
}

/// A generation's best organism against the fixed reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReferenceResult {
    /// The reference's name (`g0oN`, its file in `gen-000/`).
    pub reference: String,
    /// The best organism's points.
    pub points: f64,
    pub games: u64,
    pub wdl: Wdl,
    /// The best organism's Elo against the reference with its 95% error; `None` where infinite.
    pub elo: Option<EloEstimate>,
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
        Some(1 + self.organisms.iter().filter(|o| o.fitness() > elite.fitness()).count())
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
    /// With the gate: the first champion (the output's values unless a challenger passed).
    pub first_champion: Option<FirstChampion>,
}

/// Directory of generation `g`.
pub fn gen_dir(out_dir: &Path, g: usize) -> PathBuf {
    out_dir.join(format!("gen-{g:03}"))
}

/// Journals a match of generation directory `dir` in `<stem>.pgn`, `<stem>.state.jsonl` and
/// `results`, resuming only where a journal was left (a generation killed before that match
/// began has none).
fn journal(m: &mut MatchConfig, dir: &Path, stem: &str, results: &str, resume: bool) {
    let state = dir.join(format!("{stem}.state.jsonl"));
    m.pgn_out = Some(dir.join(format!("{stem}.pgn")));
    m.results_out = Some(dir.join(results));
    m.resume = resume && state.is_file();
    m.state = Some(state);
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

/// The first generation.
#[derive(Clone, Debug)]
pub struct Initial {
    pub genomes: Vec<Genome>,
    /// Where each organism came from: its file name, or `random`.
    pub origins: Vec<String>,
    /// Each organism's values outside the space: its seed file's (with the space's `[fixed]`
    /// values), or the space's base for random organisms. Organisms bred later take theirs
    /// by [`lineage`].
    pub bases: Vec<Params>,
}

/// Loads the first generation from parameter files: each file as the space's organism
/// ([`SearchSpace::seed`]), logging how many of its values the space changed.
pub fn load_population(files: &[PathBuf], space: &SearchSpace) -> Result<Initial, CoevolveError> {
    let mut initial = Initial { genomes: Vec::new(), origins: Vec::new(), bases: Vec::new() };
    for f in files {
        let p = Params::load(f).map_err(|e| CoevolveError::params(f, e))?;
        let name = f.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        log::info!("generation 0, organism {}: {}", initial.genomes.len(), space.projection_note(&name, &p));
        let (genome, base) = space.seed(&p);
        initial.genomes.push(genome);
        initial.bases.push(base);
        initial.origins.push(name);
    }
    Ok(initial)
}

/// Which of generation 0's organisms lends its values outside the space to each organism of
/// `generation`: an elite keeps the one of the organism it copies (breeding puts the elites in
/// the first slots, best first), a child the one of its slot's first organism, so that every
/// seed file's values outside the space stay in the population. `history` holds the records of
/// the generations before (fitness decides the elites, as in breeding).
pub fn lineage(size: usize, elitism: usize, generation: usize, history: &[CoevolveGeneration]) -> Vec<usize> {
    let mut from: Vec<usize> = (0..size).collect();
    for previous in history.iter().filter(|h| h.generation < generation) {
        let fitness: Vec<f64> = previous.organisms.iter().map(OrganismResult::fitness).collect();
        let elites = elite_indices(&fitness, elitism.min(fitness.len()));
        from = (0..size).map(|i| elites.get(i).map_or(i, |&e| from.get(e).copied().unwrap_or(e))).collect();
    }
    from
}

/// Moves the run's progress bar a game at a time; logs a line per finished game at debug
/// level, and one per 10% of the match at info.
struct GenObserver {
    generation: usize,
    planned: u64,
    next_report: u64,
    bar: ProgressBar,
    /// Whether to log every 10% (not for racing rounds, which log a line each).
    progress_lines: bool,
}

impl GenObserver {
    fn new(generation: usize, bar: &ProgressBar) -> GenObserver {
        GenObserver { generation, planned: 0, next_report: 0, bar: bar.clone(), progress_lines: true }
    }

    fn quiet(generation: usize, bar: &ProgressBar) -> GenObserver {
        GenObserver { progress_lines: false, ..GenObserver::new(generation, bar) }
    }

    fn advance(&self, games: u64) {
        self.bar.inc(games);
        let left = self.bar.length().unwrap_or(0).saturating_sub(self.bar.position());
        self.bar.set_message(left.to_string());
    }
}

impl MatchObserver for GenObserver {
    fn on_start(&mut self, planned: u64, done: u64, _: &arena::results::Standings) {
        self.planned = planned;
        if done > 0 {
            self.bar.suspend(|| {
                log::info!("generation {}: resuming, {done} of {planned} games already played", self.generation)
            });
        }
        self.advance(done);
        self.bar.reset_eta();
        self.next_report = done + planned.div_ceil(10).max(1);
    }

    fn on_game(&mut self, g: &arena::game::GameRecord, s: &arena::results::Standings) {
        self.advance(1);
        log::debug!("{} vs {}: {} {{{}}}", g.white, g.black, g.result.outcome.pgn(), g.result.reason);
        if self.progress_lines && s.games >= self.next_report {
            self.bar.suspend(|| log::info!("generation {}: {}/{} games", self.generation, s.games, self.planned));
            self.next_report = s.games + self.planned.div_ceil(10).max(1);
        }
    }
}

/// A generation's organisms as the runner plays them: engine `i` is organism `i`, named
/// `names[i]` (`g<G>o<I>`, its file), from `origins[i]`.
pub struct Field {
    pub engines: Vec<EngineSpec>,
    pub names: Vec<String>,
    pub origins: Vec<String>,
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
        let (space, space_text) = match &cfg.space {
            Some(path) => {
                let text = crate::builtin::read_text(path).map_err(|e| CoevolveError::io(path, e))?;
                let space = SearchSpace::parse(&text).map_err(|e| e.in_file(path))?;
                (space, text)
            }
            None => {
                let space = SearchSpace::whole_evaluation();
                let text = space.canonical();
                (space, text)
            }
        };
        cfg.check_optimiser()?;
        cfg.ga.validate(space.layout())?;
        cfg.champion.validate()?;
        if !(cfg.racing_confidence > 0.0 && cfg.racing_confidence < 1.0) {
            return Err(CoevolveError::Config(format!(
                "racing_confidence = {}: a probability between 0 and 1 (0.95: bounds of 1.96 standard errors)",
                cfg.racing_confidence
            )));
        }
        if !cfg.racing_games.is_multiple_of(2) {
            return Err(CoevolveError::Config(format!(
                "racing_games = {} must be even (each opening is played with both colours)",
                cfg.racing_games
            )));
        }
        if !(cfg.mutant_sigma > 0.0 && cfg.mutant_sigma.is_finite()) {
            return Err(CoevolveError::Config(format!(
                "mutant_sigma = {}: a positive fraction of each gene's range (0.05: 5%)",
                cfg.mutant_sigma
            )));
        }
        if !cfg.organisms.is_empty() {
            let why = "[[organisms]] is a fixed population with limits of its own";
            if !cfg.champion.is_off() {
                return Err(CoevolveError::Config(format!("{why}, ranked once: it takes no [champion] gate")));
            }
            if cfg.mutants > 0 {
                return Err(CoevolveError::Config(format!("{why}: mutants = {} has no files to mutate", cfg.mutants)));
            }
            if let Some(i) = cfg.organisms.iter().position(|o| o.nodes == Some(0)) {
                return Err(CoevolveError::Config(format!("organisms[{i}].nodes must be positive")));
            }
        }
        if cfg.mutants > 0 && cfg.population_dir.is_none() {
            return Err(CoevolveError::Config(format!(
                "mutants = {}: mutants are of the population_dir's files; a random population has none",
                cfg.mutants
            )));
        }
        if cfg.selection != Scheme::Reference && !cfg.pool.is_empty() {
            return Err(CoevolveError::Config(format!(
                "[pool] is the opponents of selection = \"reference\"; selection is \"{}\"",
                String::from(cfg.selection)
            )));
        }
        let base = cfg.match_base()?;
        let limits = cfg.limits()?;
        let engine = cfg.engine_path();
        if !engine.is_file() {
            return Err(CoevolveError::Config(format!("engine {} not found", engine.display())));
        }
        let co = Coevolution { cfg, space, space_text, base, limits, engine };
        co.check_pool()?;
        Ok(co)
    }

    /// Identifies everything that determines the run except the generation count (so a
    /// finished run can be extended with `--resume --generations N`). `space` is the space's
    /// canonical form, or for the legacy fingerprint the file's raw text.
    fn fingerprint(
        &self,
        initial: &Initial,
        first: Option<&FirstChampion>,
        pool: Option<&Pool>,
        space: &str,
    ) -> String {
        let mut cfg = self.cfg.clone();
        cfg.ga.generations = 0;
        cfg.concurrency = 0;
        cfg.output = PathBuf::new();
        let genomes = serde_json::to_string(&initial.genomes).expect("genomes serialise");
        let mut parts = vec![serde_json::to_string(&cfg).expect("config serialises"), space.to_string(), genomes];
        // The seed files' values outside the space, where they are not the space's base: runs
        // from before seed files kept them had the base there, and keep their fingerprint.
        let base = self.space.base();
        if initial.bases.iter().any(|b| *b != base) {
            parts.push(initial.bases.iter().map(Params::values_toml).collect::<Vec<_>>().join("\n"));
        }
        // The gate's first champion: its values decide every test.
        if let Some(first) = first {
            parts.push(format!("champion start\n{}", first.params.values_toml()));
        }
        // The pool's files: their values decide every organism's fitness.
        if let Some(pool) = pool {
            parts.push(format!("pool\n{}", pool.params.iter().map(Params::values_toml).collect::<Vec<_>>().join("\n")));
        }
        crate::ga::checkpoint::fingerprint(&parts)
    }

    /// The first generation: from `population_dir` or random.
    pub fn initial_population(&self) -> Result<Initial, CoevolveError> {
        if !self.cfg.organisms.is_empty() {
            if self.cfg.organisms.len() < 2 {
                return Err(CoevolveError::Config("[[organisms]] needs at least 2 organisms".into()));
            }
            let files: Vec<PathBuf> = self.cfg.organisms.iter().map(|o| o.file.clone()).collect();
            return load_population(&files, &self.space);
        }
        match &self.cfg.population_dir {
            Some(dir) => {
                if !dir.is_dir() {
                    let what = if dir.exists() { "is not a directory" } else { "no such directory" };
                    return Err(CoevolveError::Config(format!(
                        "population directory {}: {what}; give the first generation's parameter files (*.toml) \
                         with --population-dir DIR, or start from random organisms with --random N",
                        dir.display()
                    )));
                }
                let files = parameter_files(dir)?;
                if files.is_empty() || files.len() + self.cfg.mutants < 2 {
                    return Err(CoevolveError::Config(format!(
                        "population_dir {} holds {} parameter file(s); coevolution needs at least 2 organisms \
                         (files, or one file and `mutants = N` of it)",
                        dir.display(),
                        files.len()
                    )));
                }
                let mut initial = load_population(&files, &self.space)?;
                self.add_mutants(&mut initial);
                Ok(initial)
            }
            None => {
                let mut rng = generation_rng(self.cfg.seed, 0, 0);
                let n = self.cfg.ga.population;
                let genomes: Vec<Genome> = (0..n).map(|_| random_genome(self.space.layout(), &mut rng)).collect();
                Ok(Initial { genomes, origins: vec!["random".to_string(); n], bases: vec![self.space.base(); n] })
            }
        }
    }

    /// Organism `i`'s limits per move: its own in a fixed population, else the run's.
    fn organism_limits(&self, i: usize) -> SearchLimits {
        let mut limits = self.limits.clone();
        if let Some(o) = self.cfg.organisms.get(i) {
            if let Some(n) = o.nodes {
                limits.nodes = Some(n);
            }
            if let Some(tc) = &o.tc {
                limits.clock = Some(*tc.value());
            }
        }
        limits
    }

    /// Appends `mutants` mutants of the seed files (in turn) to generation 0, from an RNG of
    /// their own, so the same on every resume.
    fn add_mutants(&self, initial: &mut Initial) {
        let seeds = initial.genomes.len();
        let mut rng = generation_rng(self.cfg.seed ^ MUTANT_SALT, 0, 0);
        for k in 0..self.cfg.mutants {
            let of = k % seeds;
            let genome = crate::ga::mutant(&initial.genomes[of], self.space.layout(), self.cfg.mutant_sigma, &mut rng);
            initial.genomes.push(genome);
            initial.origins.push(format!("mutant of {}", initial.origins[of]));
            initial.bases.push(initial.bases[of].clone());
        }
    }

    /// Games of one generation's round robin of `size` organisms.
    pub fn round_robin_games(&self, size: usize) -> u64 {
        (size * size.saturating_sub(1) / 2) as u64 * 2 * u64::from(self.cfg.openings_per_pair)
    }

    /// Most games of one generation of `size` organisms under the configured selection.
    pub fn generation_games(&self, size: usize) -> u64 {
        match self.cfg.selection {
            Scheme::RoundRobin => self.round_robin_games(size),
            Scheme::Racing => self.racing_budget(size),
            Scheme::Reference => self.pool_generation_games(size, self.pool_members()),
        }
    }

    /// A race's budget must let every organism play in the first round.
    fn check_racing_budget(&self, size: usize) -> Result<(), CoevolveError> {
        let least = 2 * size.saturating_sub(1) as u64;
        if self.cfg.selection == Scheme::Racing && self.racing_budget(size) < least {
            return Err(CoevolveError::Config(format!(
                "racing_games = {}: {size} organisms need at least {least} games a generation (a game pair for each \
                 neighbour in the first round)",
                self.cfg.racing_games
            )));
        }
        Ok(())
    }

    /// Runs (or continues, as `start` says) the coevolution and writes the output file.
    pub fn run(&self, start: Start) -> Result<CoevolveOutcome, CoevolveError> {
        let out = &self.cfg.out_dir;
        let checkpoint = out.join("checkpoint.json");
        // A run killed in its first generation has a journal of games but no checkpoint yet.
        let state = [
            checkpoint.clone(),
            gen_dir(out, 0).join("games.state.jsonl"),
            gen_dir(out, 0).join("race-01.state.jsonl"),
            gen_dir(out, 0).join("pool.state.jsonl"),
        ];
        let layout = self.space.layout();
        // `--force` discards the old run only once the new one's population has been read.
        let (_held, (initial, ga, first, pool)) = RunDir::open_checked(out, &state, start, || {
            let initial = self.initial_population()?;
            let first = self.first_champion()?;
            let pool = self.pool()?;
            if !self.cfg.organisms.is_empty() && self.cfg.ga.generations > 1 {
                return Err(CoevolveError::Config(format!(
                    "[[organisms]] with limits of their own is ranked once: generations must be 1, not {}",
                    self.cfg.ga.generations
                )));
            }
            // The population size follows the initial population (ten evolve runs → ten organisms).
            let mut ga = self.cfg.ga.clone();
            ga.population = initial.genomes.len();
            ga.elitism = ga.elitism.min(ga.population - 1);
            ga.validate(layout)?;
            self.check_racing_budget(ga.population)?;
            Ok::<_, CoevolveError>((initial, ga, first, pool))
        })?;
        if let Some(pool) = &pool {
            self.write_pool(pool)?;
        }
        let fingerprint = self.fingerprint(&initial, first.as_ref(), pool.as_ref(), &self.space.canonical());
        let legacy = self.fingerprint(&initial, first.as_ref(), pool.as_ref(), &self.space_text);
        let mismatch = "a different config, search space or initial population";
        let driver =
            Driver::single(ga.generations, self.cfg.seed, &fingerprint, checkpoint, mismatch).accepting_legacy(&legacy);
        let generations = ga.generations as u64;
        let planned = generations * self.generation_games(ga.population)
            + generations.saturating_sub(1) * u64::from(self.cfg.reference_games);
        let bar = ProgressBar::with_draw_target(Some(planned), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games, {msg} left, run ETA {eta}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        let problem = RoundRobin {
            coevolution: self,
            initial: &initial,
            first: first.as_ref(),
            pool: pool.as_ref(),
            elitism: ga.elitism,
            generations,
            planned,
            bar,
        };
        let finished = driver.evolve(&ga, layout, &problem, start.resumes(), |_| initial.genomes.clone())?;
        // A finished run resumed from its checkpoint alone evaluates nothing, yet its output
        // reads the champion's file and its report generation 0's best.
        problem.restore_files(&finished.history)?;
        problem.bar.finish_and_clear();
        drop(problem); // it borrows `first`, which the output takes
        let last = finished.history.last().expect("a generation was played");
        let from = lineage(ga.population, ga.elitism, last.generation, &finished.history);
        let base = &initial.bases[from[last.best]];
        self.finish(&finished.state.population, base, last, &finished.history, first)
    }

    /// Writes generation `g`'s organism files (organism `i` keeps the values outside the space
    /// of `bases[i]`): the engines that play them.
    fn write_organisms(
        &self,
        g: usize,
        pop: &[Genome],
        origins: &[String],
        bases: &[&Params],
    ) -> Result<Field, CoevolveError> {
        let dir = gen_dir(&self.cfg.out_dir, g);
        std::fs::create_dir_all(&dir).map_err(|e| CoevolveError::io(&dir, e))?;
        let mut engines = Vec::new();
        let mut names = Vec::new();
        for (i, genome) in pop.iter().enumerate() {
            let name = format!("g{g}o{i}");
            let path = dir.join(format!("{name}.toml"));
            self.write_organism(&path, g, i, &origins[i], genome, bases[i])?;
            engines.push(EngineSpec::new(&name, &self.engine).with_params(&path).with_limits(self.organism_limits(i)));
            names.push(name);
        }
        Ok(Field { engines, names, origins: origins.to_vec() })
    }

    /// Writes organism `i` of generation `g` (from `origin`) to `path`: `genome` over the values
    /// outside the space of `base`.
    fn write_organism(
        &self,
        path: &Path,
        g: usize,
        i: usize,
        origin: &str,
        genome: &Genome,
        base: &Params,
    ) -> Result<(), CoevolveError> {
        let params = self.space.apply(genome, base);
        let text = format!("# coevolution generation {g}, organism {i} ({origin})\n{}", params.to_toml());
        write_atomic(path, text.as_bytes()).map_err(|e| CoevolveError::io(path, e))
    }

    /// Plays generation `g`'s round robin among `field`.
    fn play_generation(
        &self,
        g: usize,
        field: Field,
        resume: bool,
        bar: &ProgressBar,
    ) -> Result<CoevolveGeneration, CoevolveError> {
        let started = Instant::now();
        let dir = gen_dir(&self.cfg.out_dir, g);
        let Field { engines, names, origins } = field;
        let mut m = self.base.clone();
        // Fresh openings every generation, reproducibly.
        m.seed = crate::hash::mix64(self.cfg.seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        journal(&mut m, &dir, "games", "results.json", resume);
        let mut obs = GenObserver::new(g, bar);
        let results = round_robin(engines, &m, &mut obs)?;
        let summary = summarise(g, &names, &origins, &results, started.elapsed().as_secs_f64());
        let csv = dir.join("crosstable.csv");
        write_atomic(&csv, crosstable_csv(&summary).as_bytes()).map_err(|e| CoevolveError::io(&csv, e))?;
        Ok(summary)
    }

    /// Plays generation `g`'s best organism (`best`, a file of `gen_dir(g)`) against the
    /// reference `reference` (generation 0's champion), `reference_games` games with openings
    /// drawn from the book, journaled like the round robin so that a resume loses nothing.
    fn play_reference(
        &self,
        g: usize,
        best: &str,
        reference: &Path,
        resume: bool,
        bar: &ProgressBar,
    ) -> Result<ReferenceResult, CoevolveError> {
        let dir = gen_dir(&self.cfg.out_dir, g);
        let name = reference.file_stem().map_or_else(|| "reference".into(), |s| s.to_string_lossy().into_owned());
        let engines = vec![
            EngineSpec::new(best, &self.engine)
                .with_params(dir.join(format!("{best}.toml")))
                .with_limits(self.limits.clone()),
            EngineSpec::new(&name, &self.engine).with_params(reference).with_limits(self.limits.clone()),
        ];
        let mut m = self.base.clone();
        m.games = self.cfg.reference_games;
        // Other openings than the round robin's.
        m.seed = crate::hash::mix64(!self.cfg.seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        m.event = "evochess coevolution: champion vs reference".into();
        journal(&mut m, &dir, "reference", "reference.json", resume);
        let mut obs = GenObserver::new(g, bar);
        let r = round_robin(engines, &m, &mut obs)?;
        let t = &r.totals[0];
        Ok(ReferenceResult {
            reference: name,
            points: t.points,
            games: t.games,
            wdl: t.wdl,
            elo: t.wdl.elo().filter(|e| e.elo.is_finite() && e.error.is_finite()),
        })
    }

    fn write_reports(&self, history: &[CoevolveGeneration]) -> Result<(), CoevolveError> {
        let csv = self.cfg.out_dir.join("generations.csv");
        write_atomic(&csv, generations_csv(history).as_bytes()).map_err(|e| CoevolveError::io(&csv, e))?;
        let svg = self.cfg.out_dir.join("coevolution.svg");
        let text = render_svg(history).map_err(|e| CoevolveError::io(&svg, io::Error::other(e)))?;
        write_atomic(&svg, text.as_bytes()).map_err(|e| CoevolveError::io(&svg, e))?;
        if !self.cfg.champion.is_off() {
            let csv = self.cfg.out_dir.join("champions.csv");
            write_atomic(&csv, champion::champions_csv(history).as_bytes()).map_err(|e| CoevolveError::io(&csv, e))?;
        }
        Ok(())
    }

    fn finish(
        &self,
        pop: &[Genome],
        base: &Params,
        last: &CoevolveGeneration,
        history: &[CoevolveGeneration],
        first_champion: Option<FirstChampion>,
    ) -> Result<CoevolveOutcome, CoevolveError> {
        let (best, params, header) = match &first_champion {
            Some(first) => {
                let (params, header) = self.champion_output(first, history)?;
                (self.space.seed(&params).0, params, header)
            }
            None => {
                let best = pop[last.best].clone();
                let params = self.space.apply(&best, base);
                let header = self.best_header(&best, pop.len(), last);
                (best, params, header)
            }
        };
        let text = format!("{header}{}", params.to_toml());
        if let Some(parent) = self.cfg.output.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| CoevolveError::io(parent, e))?;
        }
        write_atomic(&self.cfg.output, text.as_bytes()).map_err(|e| CoevolveError::io(&self.cfg.output, e))?;
        let first = &history[0];
        let initial_best = gen_dir(&self.cfg.out_dir, 0).join(format!("{}.toml", first.best_name));
        Ok(CoevolveOutcome {
            best,
            params,
            history: history.to_vec(),
            initial_best,
            output: self.cfg.output.clone(),
            first_champion,
        })
    }

    /// The header of the paper's output, the last generation's best organism `best`.
    fn best_header(&self, best: &Genome, size: usize, last: &CoevolveGeneration) -> String {
        let o = &last.organisms[last.best];
        let elo = o.elo.map_or_else(|| "-".into(), |e| format!("{:+.1} +/- {:.1}", e.elo, e.error));
        let elo = match &o.rating {
            Some(r) => format!("{elo}; racing rating {:+.1} +/- {:.1} (1 s.e.)", r.elo, r.error),
            None => elo,
        };
        let genes = if self.cfg.space.is_some() {
            format!("# Genes: {}\n", self.space.describe(best))
        } else {
            "# Space: the whole declared evaluation (every value below is a gene).\n".to_string()
        };
        format!(
            "# Coevolved by `tuner coevolve` (David et al. 2014 III-C): best of generation {} of {size} organisms,\n\
             # {:.1}/{} points ({:.1}%), Elo vs the field {elo}.\n{genes}\n",
            last.generation,
            o.points,
            o.games,
            100.0 * last.best_score(),
        )
    }
}

/// One organism's result in its generation's round robin and its row of the cross table.
#[derive(Clone, Debug)]
pub struct Standing {
    pub result: OrganismResult,
    /// Points against each organism (0 against itself).
    pub row: Vec<f64>,
    /// The generation's best only: its games against the reference.
    pub reference: Option<ReferenceResult>,
    /// The generation's best only: its challenge of the champion.
    pub challenge: Option<Challenge>,
    /// The generation's best only: its race (racing).
    pub race: Option<Race>,
    /// The generation's best only: the generation's games against the pool (reference).
    pub pool: Option<PoolTable>,
}

/// A coevolution as the driver's problem: an organism's fitness is its points in a round robin
/// of its generation (or its rating in the generation's race), so no score carries over from
/// one generation to the next.
struct RoundRobin<'c> {
    coevolution: &'c Coevolution,
    /// Generation 0: where its organisms came from and the values they keep outside the space.
    initial: &'c Initial,
    /// The gate's first champion; `None` without the gate.
    first: Option<&'c FirstChampion>,
    /// Reference selection's pool; `None` for the other schemes.
    pool: Option<&'c Pool>,
    elitism: usize,
    generations: u64,
    /// Games of the round robins and reference matches of the whole run.
    planned: u64,
    /// The whole run's games (round robins, reference matches and the champion's tests so far).
    bar: ProgressBar,
}

impl RoundRobin<'_> {
    /// Where each organism of `generation` came from: the carried-over elites of the previous
    /// generation (the first slots, as [`breed`](crate::ga::breed) places them), then children.
    fn origins(&self, generation: usize, history: &[CoevolveGeneration]) -> Vec<String> {
        let Some(previous) = history.last() else { return self.initial.origins.clone() };
        let fitness: Vec<f64> = previous.organisms.iter().map(OrganismResult::fitness).collect();
        let elites = elite_indices(&fitness, self.elitism.min(fitness.len()));
        // Immigrants take the last slots ([`crate::ga::Immigrants::arrive`]).
        let immigrants = fitness.len().saturating_sub(self.coevolution.cfg.ga.immigrants.count);
        (0..fitness.len())
            .map(|i| match elites.get(i) {
                Some(&e) => format!("elite g{}o{e}", generation - 1),
                None if i >= immigrants => "immigrant".to_string(),
                None => "child".to_string(),
            })
            .collect()
    }

    /// Rewrites the files of earlier generations that later ones read, where they are missing:
    /// a run resumed on another machine from its checkpoint alone (`checkpoint.json`, without
    /// the `gen-NNN` directories). Generation 0's organisms are the initial population, read
    /// from the config on every start; a promoted challenger's, the champion's side of later
    /// tests, is rebuilt from the genome its record keeps. Existing files are never touched.
    fn restore_files(&self, history: &[CoevolveGeneration]) -> Result<(), CoevolveError> {
        let co = self.coevolution;
        let out = &co.cfg.out_dir;
        // The reference match reads generation 0's best.
        if let Some(first) = history.first()
            && !gen_dir(out, 0).join(format!("{}.toml", first.best_name)).is_file()
        {
            let dir = gen_dir(out, 0);
            self.bar.suspend(|| {
                log::info!(
                    "{}: rewriting generation 0's missing organism files from the initial population",
                    dir.display()
                )
            });
            std::fs::create_dir_all(&dir).map_err(|e| CoevolveError::io(&dir, e))?;
            let initial = self.initial;
            for (i, genome) in initial.genomes.iter().enumerate() {
                let path = dir.join(format!("g0o{i}.toml"));
                if !path.is_file() {
                    co.write_organism(&path, 0, i, &initial.origins[i], genome, &initial.bases[i])?;
                }
            }
        }
        for (at, h) in history.iter().enumerate() {
            let Some(c) = h.challenge.as_ref().filter(|c| c.verdict == Verdict::Promoted) else { continue };
            let dir = gen_dir(out, h.generation);
            let path = dir.join(format!("{}.toml", c.challenger));
            if path.is_file() {
                continue;
            }
            let Some(o) = &c.organism else {
                return Err(CoevolveError::io(
                    &path,
                    format!(
                        "missing, and checkpoint.json's record of generation {} predates the genome that rebuilds a \
                         champion's file: copy it from the machine that ran that generation",
                        h.generation
                    ),
                ));
            };
            let base = self.initial.bases.get(o.base).ok_or_else(|| {
                CoevolveError::io(&path, format!("missing, and its base, organism {}, is not in generation 0", o.base))
            })?;
            // The header names the organism's origin, as when its generation wrote it.
            let origins = self.origins(h.generation, &history[..at]);
            let Some((i, origin)) = c
                .challenger
                .strip_prefix(&format!("g{}o", h.generation))
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| origins.get(i).map(|o| (i, o)))
            else {
                return Err(CoevolveError::io(&path, "missing, and not an organism of its generation to rebuild"));
            };
            self.bar.suspend(|| log::info!("{}: rebuilding the champion's file from checkpoint.json", path.display()));
            std::fs::create_dir_all(&dir).map_err(|e| CoevolveError::io(&dir, e))?;
            co.write_organism(&path, h.generation, i, origin, &o.genome, base)?;
        }
        Ok(())
    }
}

impl Problem for RoundRobin<'_> {
    type Score = Standing;
    type Record = CoevolveGeneration;
    type Error = CoevolveError;

    fn evaluate(&self, b: Batch<'_, Standing, CoevolveGeneration>) -> Result<Vec<Standing>, CoevolveError> {
        let co = self.coevolution;
        let origins = self.origins(b.generation, b.history);
        let from = lineage(b.population.len(), self.elitism, b.generation, b.history);
        let bases: Vec<&Params> = from.iter().map(|&i| &self.initial.bases[i]).collect();
        let done: u64 = b.history.iter().map(|h| h.games + h.reference.as_ref().map_or(0, |r| r.games)).sum();
        let tests: u64 = b.history.iter().filter_map(|h| h.challenge.as_ref()).map(|c| c.games).sum();
        // Races that ended before their budget leave games unplayed.
        let per_generation = co.generation_games(b.population.len());
        let unused: u64 = b.history.iter().map(|h| per_generation.saturating_sub(h.games)).sum();
        self.bar.set_length((self.planned + tests).saturating_sub(unused));
        self.bar.set_position(done + tests);
        self.bar.set_prefix(format!("generation {}/{}", b.generation + 1, self.generations));
        self.bar.reset_eta();
        if b.generation > 0 {
            self.restore_files(b.history)?;
        }
        let field = co.write_organisms(b.generation, b.population, &origins, &bases)?;
        let mut g = match co.cfg.selection {
            Scheme::RoundRobin => co.play_generation(b.generation, field, b.resume, &self.bar)?,
            Scheme::Racing => co.play_race(b.generation, &field, self.elitism, b.resume, &self.bar)?,
            Scheme::Reference => {
                let pool = self.pool.expect("reference selection reads its pool before the run");
                co.play_pool(b.generation, field, pool, b.resume, &self.bar)?
            }
        };
        let reference = match b.history.first() {
            Some(first) if co.cfg.reference_games > 0 => {
                let file = gen_dir(&co.cfg.out_dir, 0).join(format!("{}.toml", first.best_name));
                Some(co.play_reference(b.generation, &g.best_name, &file, b.resume, &self.bar)?)
            }
            _ => None,
        };
        let challenge = match self.first {
            Some(first) if co.cfg.champion.challenges_after(b.generation) => {
                let best = Challenger { name: &g.best_name, genome: &b.population[g.best], base: from[g.best] };
                Some(co.challenge(b.generation, &best, first, b.history, b.resume, &self.bar)?)
            }
            _ => None,
        };
        let best = g.best;
        let mut race = g.race.take();
        let mut pool = g.pool.take();
        Ok(g.organisms
            .into_iter()
            .zip(g.cross)
            .enumerate()
            .map(|(i, (result, row))| Standing {
                result,
                row,
                reference: if i == best { reference.clone() } else { None },
                challenge: if i == best { challenge.clone() } else { None },
                race: if i == best { race.take() } else { None },
                pool: if i == best { pool.take() } else { None },
            })
            .collect())
    }

    fn fitness(&self, s: &Standing) -> f64 {
        s.result.fitness()
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
            rating: None,
        };
        (Standing { result, row: Vec::new(), reference: None, challenge: None, race: None, pool: None }, false)
    }

    fn test(&self, _: &Genome) -> f64 {
        f64::NAN
    }

    fn record(
        &self,
        pop: &[Genome],
        standings: &[Standing],
        best: usize,
        stats: GenerationStats,
    ) -> Result<CoevolveGeneration, CoevolveError> {
        let g = CoevolveGeneration {
            generation: stats.generation,
            best,
            best_name: standings[best].result.name.clone(),
            // Each game is two organisms' in a round robin or a race, one organism's against the pool.
            games: standings.iter().map(|s| s.result.games).sum::<u64>()
                / if standings[best].pool.is_some() { 1 } else { 2 },
            organisms: standings.iter().map(|s| s.result.clone()).collect(),
            cross: standings.iter().map(|s| s.row.clone()).collect(),
            seconds: stats.seconds,
            reference: standings[best].reference.clone(),
            challenge: standings[best].challenge.clone(),
            race: standings[best].race.clone(),
            pool: standings[best].pool.clone(),
            diversity: Some(diversity(pop, self.coevolution.space.layout())),
        };
        let reference = g.reference.as_ref().map_or(String::new(), |r| {
            let elo = r.elo.map_or_else(|| "-".into(), |e| format!("{:+.0} +/- {:.0} Elo", e.elo, e.error));
            format!(", vs {} {:.1}/{} ({elo})", r.reference, r.points, r.games)
        });
        // Racing: the best's rating, and the race's games and end.
        let rating = match (&g.organisms[best].rating, &g.race) {
            (Some(r), Some(race)) => format!(
                " rating {:+.0} +/- {:.0} Elo (1 s.e.) after {} racing rounds, {} games ({}),",
                r.elo,
                r.error,
                race.rounds,
                g.games,
                match race.end {
                    racing::RaceEnd::Separated => "the elite separated",
                    racing::RaceEnd::Budget => "the budget spent",
                }
            ),
            _ => String::new(),
        };
        let line = format!(
            "generation {}: best {}{rating} {:.1}/{} ({:.1}%), mean {:.1}%, worst {:.1}%{}{reference}, diversity {:.3} ({:.0}s)",
            g.generation,
            g.best_name,
            g.organisms[best].points,
            g.organisms[best].games,
            100.0 * g.best_score(),
            100.0 * g.mean_score(),
            100.0 * g.worst_score(),
            g.elite_rank()
                .map_or(String::new(), |r| format!(", last generation's best ranks {r} of {}", g.organisms.len())),
            g.diversity.unwrap_or(0.0),
            g.seconds
        );
        self.bar.suspend(|| log::info!("{line}"));
        if let Some(c) = &g.challenge {
            self.bar.suspend(|| log::info!("{}", champion::chain_lines(std::slice::from_ref(&g))[0]));
            if c.verdict == champion::Verdict::Promoted {
                self.bar.suspend(|| log::info!("generation {}: {} is the new champion", g.generation, c.challenger));
            }
        }
        Ok(g)
    }

    fn report(&self, history: &[CoevolveGeneration]) -> Result<(), CoevolveError> {
        self.coevolution.write_reports(history)
    }
}

/// Every file under `out_dir`, for the final summary, one line each, except that each
/// generation's organism files (`g<G>o<I>.toml`) share one line; sorted, generation
/// directories in order.
pub fn output_listing(out_dir: &Path) -> Result<Vec<String>, CoevolveError> {
    fn organism(name: &str) -> bool {
        let Some((g, i)) = name.strip_prefix('g').and_then(|r| r.strip_suffix(".toml")).and_then(|r| r.split_once('o'))
        else {
            return false;
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        digits(g) && digits(i)
    }
    fn entries(dir: &Path) -> Result<Vec<PathBuf>, CoevolveError> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| CoevolveError::io(dir, e))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        paths
            .sort_by_key(|p| natural_key(&p.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()));
        Ok(paths)
    }
    let mut lines = Vec::new();
    let mut dirs = vec![out_dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let mut organisms = Vec::new();
        let mut subdirs = Vec::new();
        for path in entries(&dir)? {
            let name = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
            if path.is_dir() {
                subdirs.push(path);
            } else if organism(&name) {
                organisms.push(path);
            } else {
                lines.push(path.display().to_string());
            }
        }
        match organisms.as_slice() {
            [] => {}
            [only] => lines.push(only.display().to_string()),
            [first, .., last] => lines.push(format!(
                "{} ... {} ({} organisms)",
                first.display(),
                last.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default(),
                organisms.len()
            )),
        }
        // Depth first, in name order.
        dirs.extend(subdirs.into_iter().rev());
    }
    Ok(lines)
}

/// A generation's games gathered per player: the cross table (points of row against column),
/// the games of each pair and each player's wins, draws and losses. Players are the organisms,
/// then any pool members (`selection = "reference"`).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub cross: Vec<Vec<f64>>,
    pub games: Vec<Vec<u64>>,
    pub wdl: Vec<Wdl>,
}

impl Table {
    /// `players` players' table from each encounter's `(a, b, a's results against b)`.
    pub fn from_pairs(players: usize, pairs: impl IntoIterator<Item = (usize, usize, Wdl)>) -> Table {
        let mut t = Table {
            cross: vec![vec![0.0; players]; players],
            games: vec![vec![0; players]; players],
            wdl: vec![Wdl::default(); players],
        };
        for (a, b, w) in pairs {
            let points = w.wins as f64 + w.draws as f64 / 2.0;
            t.cross[a][b] += points;
            t.cross[b][a] += w.games() as f64 - points;
            t.games[a][b] += w.games();
            t.games[b][a] += w.games();
            for (i, w) in [(a, w), (b, w.flipped())] {
                t.wdl[i].wins += w.wins;
                t.wdl[i].draws += w.draws;
                t.wdl[i].losses += w.losses;
            }
        }
        t
    }

    /// The first `names.len()` players' results (no racing rating).
    pub fn organisms(&self, names: &[String], origins: &[String]) -> Vec<OrganismResult> {
        (0..names.len())
            .map(|i| OrganismResult {
                name: names[i].clone(),
                origin: origins.get(i).cloned().unwrap_or_default(),
                points: self.cross[i].iter().sum(),
                games: self.games[i].iter().sum(),
                wdl: self.wdl[i],
                // A 100% or 0% score (or an interval reaching it) has no finite Elo; JSON cannot hold it.
                elo: self.wdl[i].elo().filter(|e| e.elo.is_finite() && e.error.is_finite()),
                rating: None,
            })
            .collect()
    }
}

/// A generation's record from its organisms' results, `best` the fittest: the three selection
/// schemes fill in what is theirs (`race`, `pool`).
pub fn generation_record(
    generation: usize,
    organisms: Vec<OrganismResult>,
    cross: Vec<Vec<f64>>,
    games: u64,
    seconds: f64,
) -> CoevolveGeneration {
    let fitness: Vec<f64> = organisms.iter().map(OrganismResult::fitness).collect();
    let best = elite_indices(&fitness, 1)[0];
    CoevolveGeneration {
        generation,
        best,
        best_name: organisms[best].name.clone(),
        organisms,
        cross,
        games,
        seconds,
        reference: None,
        challenge: None,
        race: None,
        pool: None,
        diversity: None,
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
    let table = Table::from_pairs(names.len(), r.pairs.iter().map(|p| (p.first, p.second, p.wdl)));
    generation_record(generation, table.organisms(names, origins), table.cross, r.games_played, seconds)
}

fn fmt_elo(e: Option<EloEstimate>) -> (String, String) {
    match e {
        Some(e) if e.elo.is_finite() => (format!("{:.1}", e.elo), format!("{:.1}", e.error)),
        Some(e) => (format!("{}", e.elo), String::new()),
        None => (String::new(), String::new()),
    }
}

/// `organism,origin,<each opponent>,points,games,score,elo,elo_error` (row's points vs column);
/// after a race each cell is `points/games` (empty where the two never met), and the columns
/// `rating,rating_se,dropped_after` follow; after reference selection the opponents are the pool
/// members, each cell `points/games`.
pub fn crosstable_csv(g: &CoevolveGeneration) -> String {
    let mut csv = Csv::new()
        .column("organism", |&(_, o): &(usize, &OrganismResult)| o.name.clone())
        .column("origin", |&(_, o)| quoted(&o.origin));
    let games = g.race.as_ref().map(|r| &r.games);
    match &g.pool {
        // Reference selection: a column per pool member; the organisms never met.
        Some(pool) => {
            for (j, member) in pool.members.iter().enumerate() {
                csv.push(member, move |&(i, _)| format!("{}/{}", pool.points[i][j], pool.games[i][j]));
            }
        }
        None => {
            for (j, opponent) in g.organisms.iter().enumerate() {
                csv.push(&opponent.name, move |&(i, _)| match games {
                    _ if i == j => "-".to_string(),
                    Some(games) if games[i][j] == 0 => String::new(),
                    Some(games) => format!("{}/{}", g.cross[i][j], games[i][j]),
                    None => g.cross[i][j].to_string(),
                });
            }
        }
    }
    let csv = csv
        .column("points", |&(_, o)| o.points.to_string())
        .column("games", |&(_, o)| o.games.to_string())
        .column("score", |&(_, o)| format!("{:.4}", if o.games > 0 { o.points / o.games as f64 } else { 0.0 }))
        .column("elo", |&(_, o)| fmt_elo(o.elo).0)
        .column("elo_error", |&(_, o)| fmt_elo(o.elo).1);
    let csv = match g.race {
        Some(_) => {
            let rating = |o: &OrganismResult, f: fn(&Rating) -> String| o.rating.as_ref().map_or(String::new(), f);
            csv.column("rating", move |&(_, o)| rating(o, |r| format!("{:.1}", r.elo)))
                .column("rating_se", move |&(_, o)| rating(o, |r| format!("{:.1}", r.error)))
                .column("dropped_after", move |&(_, o)| {
                    rating(o, |r| r.dropped_after.map_or(String::new(), |d| d.to_string()))
                })
        }
        None => csv,
    };
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
        .column("best_elo_error", |g| fmt_elo(best(g).elo).1);
    // After races: the best's rating (its fitness), the rounds and why the race ended.
    let csv = if history.iter().any(|g| g.race.is_some()) {
        let rating = |g: &CoevolveGeneration, f: fn(&Rating) -> f64| {
            best(g).rating.as_ref().map_or(String::new(), |r| format!("{:.1}", f(r)))
        };
        let race = |g: &CoevolveGeneration, f: fn(&Race) -> String| g.race.as_ref().map_or(String::new(), f);
        csv.column("best_rating", move |g: &&CoevolveGeneration| rating(g, |r| r.elo))
            .column("best_rating_se", move |g| rating(g, |r| r.error))
            .column("race_rounds", move |g| race(g, |r| r.rounds.to_string()))
            .column("race_end", move |g| race(g, |r| format!("{:?}", r.end).to_lowercase()))
    } else {
        csv
    };
    let csv = csv
        .column("mean_score", |g| format!("{:.4}", g.mean_score()))
        .column("worst_score", |g| format!("{:.4}", g.worst_score()))
        .column("games", |g| g.games.to_string())
        .column("seconds", |g| format!("{:.1}", g.seconds))
        .column("reference", |g| g.reference.as_ref().map_or(String::new(), |r| r.reference.clone()))
        .column("reference_points", |g| g.reference.as_ref().map_or(String::new(), |r| r.points.to_string()))
        .column("reference_games", |g| g.reference.as_ref().map_or(String::new(), |r| r.games.to_string()))
        .column("reference_elo", |g| fmt_elo(g.reference.as_ref().and_then(|r| r.elo)).0)
        .column("reference_elo_error", |g| fmt_elo(g.reference.as_ref().and_then(|r| r.elo)).1)
        .column("elite_rank", |g| g.elite_rank().map_or(String::new(), |r| r.to_string()))
        .column("diversity", |g| g.diversity.map_or(String::new(), |d| format!("{d:.4}")));
    csv.write(history)
}

/// The champion's strength across generations: each generation's best organism against the
/// fixed reference, generation 0's champion, in Elo with its 95% interval (generation 0 is the
/// reference itself: 0). A round robin's mean score is 50% by construction and its best score
/// is relative to a field that changes, so neither shows progress; this measure does.
pub fn render_svg(history: &[CoevolveGeneration]) -> Result<String, String> {
    let point = |g: &CoevolveGeneration, f: fn(&EloEstimate) -> f64| match (g.generation, &g.reference) {
        (0, _) => Some((0, 0.0)),
        (n, Some(r)) => r.elo.as_ref().map(|e| (n, f(e))),
        _ => None,
    };
    let line = |label: &str, color, f: fn(&EloEstimate) -> f64| crate::chart::Series {
        label: label.to_string(),
        color,
        points: history.iter().filter_map(|g| point(g, f)).collect(),
    };
    let games = history.iter().find_map(|g| g.reference.as_ref().map(|r| r.games)).unwrap_or(0);
    let reference = history.first().map_or_else(String::new, |g| g.best_name.clone());
    crate::chart::render_lines_svg(
        &format!("coevolution: each generation's champion vs generation 0's ({reference}), {games} games"),
        "generation",
        "Elo against generation 0's champion",
        &[
            line("champion", RGBColor(200, 30, 30), |e| e.elo),
            line("95% upper bound", RGBColor(150, 150, 150), |e| e.elo + e.error),
            line("95% lower bound", RGBColor(150, 150, 150), |e| e.elo - e.error),
        ],
    )
}

#[cfg(test)]
mod tests {

    fn organism(origin: &str, points: f64) -> OrganismResult {
        OrganismResult {
            name: String::new(),
            origin: origin.into(),
            points,
            games: 4,
            wdl: Wdl::default(),
            elo: None,
            rating: None,
        }
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
            reference: None,
            challenge: None,
            race: None,
            pool: None,
            diversity: None,
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
    fn elites_keep_their_seed_s_values_and_children_their_slot_s() {
        let generation = |g: usize, points: Vec<f64>| CoevolveGeneration {
            generation: g,
            best: 0,
            best_name: String::new(),
            cross: Vec::new(),
            organisms: points.into_iter().map(|p| organism("", p)).collect(),
            games: 0,
            seconds: 0.0,
            reference: None,
            challenge: None,
            race: None,
            pool: None,
            diversity: None,
        };
        assert_eq!(lineage(4, 1, 0, &[]), vec![0, 1, 2, 3]);
        // Generation 0: organism 2 wins, so generation 1's elite (slot 0) is seed 2.
        let history = vec![generation(0, vec![1.0, 0.0, 3.0, 2.0]), generation(1, vec![0.0, 1.0, 2.0, 2.0])];
        assert_eq!(lineage(4, 1, 1, &history), vec![2, 1, 2, 3]);
        // Generation 1: slot 2 wins (a tie goes to the lower slot), itself a child of seed 2's
        // slot; with two elites the second is slot 3.
        assert_eq!(lineage(4, 1, 2, &history), vec![2, 1, 2, 3]);
        assert_eq!(lineage(4, 2, 2, &history), vec![2, 3, 2, 3]);
        let history = vec![generation(0, vec![1.0, 0.0, 3.0, 2.0]), generation(1, vec![0.0, 3.0, 2.0, 2.0])];
        assert_eq!(lineage(4, 1, 2, &history), vec![1, 1, 2, 3]);
    }

    /// A gated coevolution in scratch directory `name` over the paper's space, its three seed
    /// files differing inside the space and outside it (`lmr_base`, kept from each seed).
    fn scratch_run(name: &str) -> (Coevolution, Initial) {
        let dir = std::env::temp_dir().join(format!("evochess-coevolve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("seeds")).unwrap();
        let files: Vec<PathBuf> = (0..3)
            .map(|i| {
                let mut p = Params::default();
                p.eval.knight_mg = 280 + 20 * i;
                p.search.lmr_base = 60 + i;
                let file = dir.join(format!("seeds/run-{i}.toml"));
                std::fs::write(&file, p.to_toml()).unwrap();
                file
            })
            .collect();
        let mut cfg = CoevolveConfig::parse("[champion]\ngate = \"sprt\"\n").unwrap();
        cfg.space = Some(PathBuf::from("configs/spaces/evolve-paper.toml"));
        cfg.out_dir = dir.join("out");
        // Never started: nothing below plays a game.
        cfg.engine = Some(PathBuf::from("/bin/sh"));
        let co = Coevolution::new(cfg).unwrap();
        let initial = load_population(&files, &co.space).unwrap();
        (co, initial)
    }

    fn round_robin<'c>(co: &'c Coevolution, initial: &'c Initial) -> RoundRobin<'c> {
        let bar = ProgressBar::hidden();
        RoundRobin { coevolution: co, initial, first: None, pool: None, elitism: 1, generations: 2, planned: 0, bar }
    }

    fn record(g: usize, points: &[f64], challenge: Option<Challenge>) -> CoevolveGeneration {
        let organisms: Vec<OrganismResult> = points.iter().map(|&p| organism("", p)).collect();
        let best = elite_indices(points, 1)[0];
        CoevolveGeneration {
            generation: g,
            best,
            best_name: format!("g{g}o{best}"),
            cross: Vec::new(),
            organisms,
            games: 0,
            seconds: 0.0,
            reference: None,
            challenge,
            race: None,
            pool: None,
            diversity: None,
        }
    }

    /// Every file of `dir` with its bytes.
    fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut all: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        all.sort();
        all.into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap())).collect()
    }

    #[test]
    fn generation_0_s_missing_files_are_rewritten_as_it_wrote_them() {
        let (co, initial) = scratch_run("restore-gen0");
        let rr = round_robin(&co, &initial);
        let bases: Vec<&Params> = initial.bases.iter().collect();
        co.write_organisms(0, &initial.genomes, &initial.origins, &bases).unwrap();
        let dir = gen_dir(&co.cfg.out_dir, 0);
        let written = files(&dir);
        assert_eq!(written.len(), 3);
        let history = [record(0, &[1.0, 3.0, 2.0], None)];
        // The whole directory gone, as on a machine that has only the checkpoint.
        std::fs::remove_dir_all(&dir).unwrap();
        rr.restore_files(&history).unwrap();
        assert_eq!(files(&dir), written);
        // Only the missing files are written; one there is kept as it is.
        std::fs::remove_file(dir.join("g0o1.toml")).unwrap();
        std::fs::write(dir.join("g0o2.toml"), "kept").unwrap();
        rr.restore_files(&history).unwrap();
        assert_eq!(files(&dir)[..2], written[..2]);
        assert_eq!(std::fs::read_to_string(dir.join("g0o2.toml")).unwrap(), "kept");
        std::fs::remove_dir_all(co.cfg.out_dir.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_promoted_challenger_s_file_is_rebuilt_from_the_checkpoint() {
        let (co, initial) = scratch_run("restore-champion");
        let rr = round_robin(&co, &initial);
        // Generation 0's best is organism 1, so generation 1's elite (slot 0) keeps seed 1's
        // values outside the space; child 2 keeps seed 2's.
        let mut history = vec![record(0, &[1.0, 3.0, 2.0], None)];
        let mut rng = generation_rng(7, 0, 1);
        let child = |rng: &mut _| random_genome(co.space.layout(), rng);
        let pop = vec![initial.genomes[1].clone(), child(&mut rng), child(&mut rng)];
        let from = lineage(3, 1, 1, &history);
        assert_eq!(from, vec![1, 1, 2]);
        let bases: Vec<&Params> = from.iter().map(|&i| &initial.bases[i]).collect();
        let origins = rr.origins(1, &history);
        co.write_organisms(1, &pop, &origins, &bases).unwrap();
        let file = gen_dir(&co.cfg.out_dir, 1).join("g1o2.toml");
        let written = std::fs::read(&file).unwrap();
        let promoted = Challenge {
            challenger: "g1o2".into(),
            champion: champion::START.into(),
            verdict: Verdict::Promoted,
            line: "SPRT".into(),
            games: 20,
            fingerprint: None,
            organism: Some(champion::Organism { genome: pop[2].clone(), base: from[2] }),
        };
        history.push(record(1, &[1.0, 1.0, 3.0], Some(promoted)));
        // Through the checkpoint's JSON, on a machine without the generations' directories.
        let history: Vec<CoevolveGeneration> = serde_json::from_str(&serde_json::to_string(&history).unwrap()).unwrap();
        std::fs::remove_dir_all(&co.cfg.out_dir).unwrap();
        rr.restore_files(&history).unwrap();
        assert_eq!(std::fs::read(&file).unwrap(), written, "the champion's file is not as generation 1 wrote it");
        let values = Params::load(&file).unwrap();
        assert_eq!((values.search.lmr_base, values.eval.pawn_mg), (62, 100), "seed 2's values outside the space");
        assert!(gen_dir(&co.cfg.out_dir, 0).join("g0o1.toml").is_file(), "the reference's file");
        let first = FirstChampion { source: "defaults".into(), params: Params::default() };
        assert!(co.champion_output(&first, &history).unwrap().0 == values);
        // A record from before the genome was kept cannot rebuild it, and says which file.
        let mut old = history.clone();
        old[1].challenge.as_mut().unwrap().organism = None;
        std::fs::remove_file(&file).unwrap();
        let e = rr.restore_files(&old).unwrap_err().to_string();
        assert!(e.contains(&file.display().to_string()) && e.contains("generation 1"), "{e}");
        std::fs::remove_dir_all(co.cfg.out_dir.parent().unwrap()).unwrap();
    }

    #[test]
    fn the_output_listing_names_every_file_and_groups_organisms() {
        let dir = std::env::temp_dir().join(format!("evochess-coevolve-listing-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for g in 0..2 {
            let gen_dir = gen_dir(&dir, g);
            std::fs::create_dir_all(&gen_dir).unwrap();
            for i in 0..11 {
                std::fs::write(gen_dir.join(format!("g{g}o{i}.toml")), "").unwrap();
            }
            std::fs::write(gen_dir.join("games.pgn"), "").unwrap();
        }
        std::fs::write(dir.join("gen-001/g1oX.toml"), "").unwrap();
        std::fs::write(dir.join("generations.csv"), "").unwrap();
        let shown: Vec<String> =
            output_listing(&dir).unwrap().iter().map(|l| l.replace(&format!("{}/", dir.display()), "")).collect();
        assert_eq!(
            shown,
            vec![
                "generations.csv",
                "gen-000/games.pgn",
                "gen-000/g0o0.toml ... g0o10.toml (11 organisms)",
                "gen-001/g1oX.toml",
                "gen-001/games.pgn",
                "gen-001/g1o0.toml ... g1o10.toml (11 organisms)",
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(output_listing(&dir).unwrap_err().to_string().contains(&dir.display().to_string()));
    }

    #[test]
    fn the_default_space_is_the_whole_evaluation_and_reference_games_come_in_pairs() {
        assert_eq!(CoevolveConfig::default().space, None);
        let shipped = CoevolveConfig::load(Path::new("configs/coevolve/default.toml")).unwrap();
        assert_eq!(shipped, CoevolveConfig::default(), "configs/coevolve/default.toml lists the defaults");
        let e = CoevolveConfig::parse("reference_games = 3\n").unwrap().match_base().unwrap_err().to_string();
        assert!(e.contains("reference_games = 3"), "{e}");
    }

    #[test]
    fn diversity_is_the_mean_share_of_genes_two_organisms_differ_in() {
        use crate::ga::encoding::{Layout, NumericGene};
        let layout = Layout::Numeric(vec![NumericGene { min: 0.0, max: 10.0, step: Some(1.0) }; 4]);
        let g = |x: [f64; 4]| Genome::Numbers(x.to_vec());
        assert_eq!(diversity(&[g([1.0; 4]), g([1.0; 4]), g([1.0; 4])], &layout), 0.0);
        assert_eq!(diversity(&[g([1.0; 4]), g([2.0; 4])], &layout), 1.0);
        // Pairs differ in 1, 2 and 1 of 4 genes.
        let d = diversity(&[g([1.0, 1.0, 1.0, 1.0]), g([2.0, 1.0, 1.0, 1.0]), g([2.0, 3.0, 1.0, 1.0])], &layout);
        assert!((d - (0.25 + 0.5 + 0.25) / 3.0).abs() < 1e-12, "{d}");
        assert_eq!(diversity(&[g([1.0; 4])], &layout), 0.0);
    }

    #[test]
    fn a_table_gathers_each_pair_s_games_from_either_side() {
        let w = |wins, draws, losses| Wdl { wins, draws, losses };
        let t = Table::from_pairs(3, [(0, 1, w(2, 1, 1)), (2, 0, w(1, 0, 1))]);
        assert_eq!(t.cross, vec![vec![0.0, 2.5, 1.0], vec![1.5, 0.0, 0.0], vec![1.0, 0.0, 0.0]]);
        assert_eq!(t.games, vec![vec![0, 4, 2], vec![4, 0, 0], vec![2, 0, 0]]);
        assert_eq!(t.wdl, vec![w(3, 1, 2), w(1, 1, 2), w(1, 0, 1)]);
        let names: Vec<String> = ["a", "b"].iter().map(|s| s.to_string()).collect();
        let o = t.organisms(&names, &[]);
        assert_eq!(o.len(), 2, "only the organisms, not the pool after them");
        assert_eq!((o[0].points, o[0].games, o[1].points, o[1].games), (3.5, 6, 1.5, 4));
        let g = generation_record(3, o, t.cross.clone(), 5, 1.0);
        assert_eq!((g.best, g.best_name.as_str(), g.games), (0, "a", 5));
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
