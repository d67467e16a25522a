//! `tuner search-evolve`: evolution of the selective-search parameters (David et al. 2014 §IV).
//!
//! The chromosome is Table I (`configs/spaces/search-evolve-paper.toml`: 18 parameters, 70 Gray-coded bits);
//! the evaluation parameters stay fixed, taken from a parameter file (normally the coevolved
//! one). An organism's cost is the total number of nodes its search needs to find each suite
//! position's best move *and keep it to the end of the search*, capped per position (paper:
//! 500,000), as computed in-process by [`evochess::measure::nodes_to_solve::solve_nodes`]: a node-limited
//! iterative deepening from a cleared state, so the count is deterministic.
//!
//! Fitness-proportional selection needs "higher is better" and non-negative values, so the
//! fitness is the number of nodes *saved* against the cap:
//! `fitness = cap × positions − total nodes`. It is 0 for an organism that solves nothing, and
//! differences in fitness are differences in node counts, so selection favours organisms in
//! proportion to the search effort they save (1/nodes would compress those differences).
//!
//! Each generation's best organism is also measured on the held-out suites (never used for
//! selection). Files under `out_dir`: `checkpoint.json` (after every generation; `--resume`
//! continues bit-identically), `generations.csv`, `nodes.svg` (Fig. 4: best and mean total
//! nodes per generation, and the best on the held suites) and `summary.json` (the initial
//! random best, the final best and `params/default.toml`'s search section on both suite sets).

pub mod remote;

use std::{
    cell::RefCell,
    collections::HashMap,
    path::{Path, PathBuf},
};

use arena::files::write_atomic;
use evochess::{measure::nodes_to_solve::solve_nodes, params::Params};
use plotters::style::RGBColor;
use serde::{Deserialize, Deserializer, Serialize};
use thiserror::Error;

use crate::{
    epd::{SuiteError, SuitePosition, load_suites},
    ga::{
        GaConfig, Genome, OptimiserConfig,
        driver::{Batch, Driver, Problem},
        error::RunError,
        par_map, random_genome,
        report::{self, GenerationStats},
        run_dir::{RunDir, Start},
        threads,
    },
    optimise::AfterTell,
    progress::{Plan, Progress},
    space::SearchSpace,
};

/// Everything `tuner search-evolve` reads from its config file (`configs/search-evolve/default.toml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchEvolveConfig {
    /// Search space (Table I).
    pub space: PathBuf,
    /// Parameter file supplying the fixed evaluation (and every search parameter outside the
    /// space); `None`: the engine defaults.
    pub params: Option<PathBuf>,
    /// Training suites (EPD with `bm`/`am`).
    pub suites: Vec<PathBuf>,
    /// Use only the first N training positions (0 = all).
    pub max_positions: usize,
    /// Held-out suites: measured for each generation's best, never used for selection.
    pub held: Vec<PathBuf>,
    /// Node cap per position (paper: 500,000).
    pub node_cap: u64,
    /// Fitness threads; 0 = every core. Results do not depend on it.
    pub threads: usize,
    pub seed: u64,
    pub out_dir: PathBuf,
    /// The evolved parameter file: the `params` file with the evolved search section (empty:
    /// `<out_dir>/search-evolved.toml`, so a run never writes into the repository by default).
    pub output: PathBuf,
    /// GA settings; keys not given keep the search-evolution defaults.
    #[serde(deserialize_with = "ga_over_search_defaults")]
    pub ga: GaConfig,
    /// `[optimiser]`: what proposes each generation (the GA by default).
    pub optimiser: OptimiserConfig,
    /// Count nodes on `tuner worker`s (`--broker`); not part of the run's identity.
    #[serde(skip)]
    pub broker: Option<crate::broker::BrokerConfig>,
}

/// David et al. §IV: population 10, crossover 0.75, mutation 0.05, 50 generations,
/// fitness-proportional selection, uniform crossover, elitism.
pub fn search_ga_defaults() -> GaConfig {
    GaConfig { population: 10, generations: 50, mutation_rate: 0.05, ..GaConfig::default() }
}

fn ga_over_search_defaults<'de, D: Deserializer<'de>>(d: D) -> Result<GaConfig, D::Error> {
    crate::ga::overlay_defaults(d, search_ga_defaults())
}

/// A file of the shared data directory (`tests/wac.epd`), or its conventional path.
pub fn data_file(rel: &str) -> PathBuf {
    crate::paths::data_dir().unwrap_or_else(|| PathBuf::from("../shared/data")).join(rel)
}

impl Default for SearchEvolveConfig {
    fn default() -> Self {
        Self {
            space: PathBuf::from("configs/spaces/search-evolve-paper.toml"),
            params: None,
            suites: vec![data_file("tests/wac.epd"), data_file("tests/arasan.epd")],
            max_positions: 0,
            held: vec![data_file("tests/bk.epd"), data_file("tests/bt2630.epd"), data_file("tests/lct2.epd")],
            node_cap: 500_000,
            threads: 0,
            seed: 1,
            out_dir: PathBuf::from("runs/search-evolve"),
            output: PathBuf::new(),
            ga: search_ga_defaults(),
            optimiser: OptimiserConfig::default(),
            broker: None,
        }
    }
}

impl SearchEvolveConfig {
    pub fn parse(text: &str) -> Result<Self, SearchEvolveError> {
        crate::paths::parse_config(text).map_err(SearchEvolveError::Config)
    }

    /// Reads a config file; its relative input paths (`space`, `params`, `suites`, `held`) are
    /// relative to the file, `out_dir` and `output` to the working directory.
    pub fn load(path: &Path) -> Result<Self, SearchEvolveError> {
        crate::paths::load_config(path).map_err(|e| SearchEvolveError::Config(e.to_string()))
    }
}

#[derive(Debug, Error)]
pub enum SearchEvolveError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error(transparent)]
    Broker(crate::broker::BrokerError),
    #[error("search-evolve config: {0}")]
    Config(String),
    #[error(transparent)]
    Suite(#[from] SuiteError),
}

crate::command_error!(SearchEvolveError);

impl crate::paths::ConfigPaths for SearchEvolveConfig {
    fn input_paths() -> Vec<String> {
        crate::paths::keys(&["space", "params", "suites", "held"])
    }

    fn upgrade(table: &mut toml::Table) -> Result<bool, String> {
        crate::optimise::choice::lift_legacy(table)
    }
}

/// Node totals of one parameter set on a list of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeCount {
    /// Σ nodes to solve, the cap for unsolved positions.
    pub nodes: u64,
    pub solved: usize,
    pub positions: usize,
}

/// The best organism of the random generation 0 (`initial-best.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InitialBest {
    pub genome: Genome,
    pub train: NodeCount,
    pub held: NodeCount,
}

/// What `summary.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchEvolveSummary {
    pub node_cap: u64,
    pub generations: usize,
    /// The best organism of the random initial population.
    pub initial_best: (NodeCount, NodeCount),
    pub final_best: (NodeCount, NodeCount),
    /// `params/default.toml`'s search section with the same evaluation.
    pub default_search: (NodeCount, NodeCount),
    /// Table I values of the final best, by name.
    pub values: Vec<(String, i32)>,
    pub default_values: Vec<(String, i32)>,
}

/// A configured search evolution.
pub struct SearchEvolution {
    pub cfg: SearchEvolveConfig,
    pub space: SearchSpace,
    /// The fixed parameters every organism starts from.
    pub base: Params,
    pub train: Vec<SuitePosition>,
    pub held: Vec<SuitePosition>,
    fingerprint: String,
    /// The same with the space file's raw text, as tuners before the canonical space wrote it.
    legacy_fingerprint: String,
    threads: usize,
    /// The node counts on `tuner worker`s (`--broker`).
    remote: Option<remote::RemoteNodes>,
}

impl SearchEvolution {
    pub fn new(mut cfg: SearchEvolveConfig) -> Result<Self, SearchEvolveError> {
        if cfg.output.as_os_str().is_empty() {
            cfg.output = cfg.out_dir.join("search-evolved.toml");
        }
        let space_text = crate::embedded_files::read_text(&cfg.space)
            .map_err(|e| SearchEvolveError::Config(format!("search space {}: {e}", cfg.space.display())))?;
        let space = SearchSpace::parse(&space_text).map_err(|e| e.in_file(&cfg.space))?;
        if let Some(g) = space.genes.iter().find(|g| g.keys.iter().any(|&k| Params::spec(k).section != "search")) {
            return Err(SearchEvolveError::Config(format!(
                "gene `{}` is not a search parameter; search-evolve evolves the search section only",
                g.name
            )));
        }
        cfg.ga.validate(&cfg.optimiser, space.layout())?;
        if cfg.node_cap == 0 {
            return Err(SearchEvolveError::Config("node_cap must be positive".into()));
        }
        let most = crate::broker::wire::caps::NODES;
        if cfg.broker.is_some() && cfg.node_cap > most {
            return Err(SearchEvolveError::Config(format!(
                "node_cap = {}: workers refuse more than {most} nodes a search (--broker)",
                cfg.node_cap
            )));
        }
        if cfg.suites.is_empty() {
            return Err(SearchEvolveError::Config("no training suites".into()));
        }
        let base = match &cfg.params {
            Some(p) => {
                let text = evochess::input::read_text(p, evochess::params::MAX_PARAMS_FILE_BYTES)
                    .map_err(|e| SearchEvolveError::params(p, e.reason()))?;
                let params = Params::default().with_toml(&text).map_err(|e| SearchEvolveError::params(p, e))?;
                space.with_fixed(&params)
            }
            None => space.with_fixed(&Params::default()),
        };
        let mut train = load_suites(&cfg.suites, &[])?;
        if cfg.max_positions > 0 {
            train.truncate(cfg.max_positions);
        }
        let held = load_suites(&[], &cfg.held)?;
        let mut ga = cfg.ga.clone();
        ga.generations = 0;
        let fens: String = train.iter().map(|p| p.fen.as_str()).collect::<Vec<_>>().join("\n");
        // The values, not a file's text: without a file the base is the compiled-in defaults,
        // which change when a tuned evaluation replaces them.
        let base_text = base.values_toml();
        let fingerprint_with = |space: &str| {
            crate::ga::checkpoint::fingerprint(&[
                space,
                &base_text,
                &crate::optimise::config::legacy_ga_json(&ga, &cfg.optimiser),
                &format!("cap={} seed={}", cfg.node_cap, cfg.seed),
                &fens,
                &format!("held={}", held.len()),
            ])
        };
        let (fingerprint, legacy_fingerprint) = (fingerprint_with(&space.canonical()), fingerprint_with(&space_text));
        let threads = threads(cfg.threads);
        let remote = cfg.broker.clone().map(|b| remote::RemoteNodes::new(b, &train, cfg.node_cap, &fingerprint));
        Ok(SearchEvolution { cfg, space, base, train, held, fingerprint, legacy_fingerprint, threads, remote })
    }

    /// The parameters of an organism.
    pub fn params_of(&self, genome: &Genome) -> Params {
        self.space.apply(genome, &self.base)
    }

    /// Node totals of `params` on `positions`, split over the worker threads.
    pub fn count(&self, params: &Params, positions: &[SuitePosition]) -> NodeCount {
        let cap = self.cfg.node_cap;
        let per: Vec<(u64, bool)> = par_map(positions, self.threads, |p| {
            let r = solve_nodes(&p.entry.pos, params, &p.entry.best, &p.entry.avoid, cap);
            (r.cost(cap), r.solved_at.is_some())
        });
        NodeCount {
            nodes: per.iter().map(|x| x.0).sum(),
            solved: per.iter().filter(|x| x.1).count(),
            positions: positions.len(),
        }
    }

    /// Costs of a population on the training suites: every (organism, position) pair is one
    /// parallel task, so a small population still keeps every core busy (with `--broker`, every
    /// organism × 25 positions is one worker's task).
    fn evaluate(
        &self,
        pop: &[Genome],
        memo: &HashMap<Vec<u64>, NodeCount>,
    ) -> Result<Vec<NodeCount>, SearchEvolveError> {
        let todo: Vec<usize> = (0..pop.len()).filter(|&i| !memo.contains_key(&pop[i].key())).collect();
        let params: Vec<Params> = todo.iter().map(|&i| self.params_of(&pop[i])).collect();
        let fresh = match &self.remote {
            Some(remote) => remote.count(&params).map_err(SearchEvolveError::Broker)?,
            None => {
                let tasks: Vec<(usize, usize)> =
                    (0..todo.len()).flat_map(|k| (0..self.train.len()).map(move |p| (k, p))).collect();
                let cap = self.cfg.node_cap;
                let costs = par_map(&tasks, self.threads, |&(k, p)| {
                    let e = &self.train[p].entry;
                    let r = solve_nodes(&e.pos, &params[k], &e.best, &e.avoid, cap);
                    (r.cost(cap), r.solved_at.is_some())
                });
                let mut fresh = vec![NodeCount { positions: self.train.len(), ..NodeCount::default() }; todo.len()];
                for (&(k, _), &(nodes, solved)) in tasks.iter().zip(&costs) {
                    fresh[k].nodes += nodes;
                    fresh[k].solved += usize::from(solved);
                }
                fresh
            }
        };
        let mut fresh = fresh.into_iter();
        Ok(pop
            .iter()
            .map(|g| memo.get(&g.key()).copied().unwrap_or_else(|| fresh.next().expect("one per todo")))
            .collect())
    }

    /// Fitness of a node total: nodes saved against the cap.
    pub fn fitness(&self, c: &NodeCount) -> f64 {
        (self.cfg.node_cap * c.positions as u64).saturating_sub(c.nodes) as f64
    }

    /// The run's plan line: the positions, the node cap, the optimiser, the generations; the
    /// ETA assumes every search reaches the cap (solved ones stop sooner), at this machine's
    /// speed.
    pub fn plan(&self) -> Plan {
        let cfg = &self.cfg;
        let searches = (cfg.ga.generations * cfg.optimiser.candidates(cfg.ga.population) * self.train.len()) as u64;
        let at_once = threads(cfg.threads);
        let seconds =
            crate::progress::measured_nps().map(|nps| (searches * cfg.node_cap) as f64 / nps / at_once as f64);
        Plan::new("search-evolve")
            .part(format!(
                "evolves the {} genes of {} from {} by {}",
                self.space.genes.len(),
                cfg.space.display(),
                cfg.params.as_ref().map_or_else(|| "the engine's defaults".to_string(), |p| p.display().to_string()),
                cfg.optimiser.name()
            ))
            .part(format!(
                "{} training and {} held-out positions, cap {} nodes; {} candidates a generation, {} generations, up \
                 to {searches} searches on {at_once} threads",
                self.train.len(),
                self.held.len(),
                cfg.node_cap,
                cfg.optimiser.candidates(cfg.ga.population),
                cfg.ga.generations
            ))
            .part(format!("out {}", cfg.out_dir.display()))
            .eta(seconds, at_once, "threads")
    }

    /// Runs (or continues, as `start` says) the evolution; writes the output file and summary.
    pub fn run(&self, start: Start) -> Result<SearchEvolveSummary, SearchEvolveError> {
        let layout = self.space.layout();
        let out = &self.cfg.out_dir;
        let checkpoint = out.join("checkpoint.json");
        let _held = RunDir::open(out, std::slice::from_ref(&checkpoint), start)?;
        let mismatch = "a different config, space, parameter file or suite";
        let generations = self.cfg.ga.generations;
        let bar = Progress::new(generations as u64, "generations", None);
        let driver = Driver::single(generations, self.cfg.seed, &self.fingerprint, checkpoint, mismatch)
            .accepting_legacy(&self.legacy_fingerprint)
            .with_progress(&bar);
        let problem = NodeProblem { evolution: self, held: RefCell::new(HashMap::new()) };
        let finished = driver.evolve(&self.cfg.ga, &self.cfg.optimiser, layout, &problem, start.resumes(), |rng| {
            (0..self.cfg.ga.population).map(|_| random_genome(layout, rng)).collect()
        });
        bar.finish_and_clear();
        let finished = finished?;
        let best = finished.state.best();
        self.finish(&finished.state.population[best], &finished.history)
    }

    fn held_count(&self, genome: &Genome, memo: &mut HashMap<Vec<u64>, NodeCount>) -> NodeCount {
        if self.held.is_empty() {
            return NodeCount::default();
        }
        *memo.entry(genome.key()).or_insert_with(|| self.count(&self.params_of(genome), &self.held))
    }

    fn write_reports(&self, history: &[GenerationStats]) -> Result<(), SearchEvolveError> {
        let out = &self.cfg.out_dir;
        let csv = out.join("generations.csv");
        report::write_csv(&csv, "nodes", history).map_err(|e| SearchEvolveError::io(&csv, e))?;
        let svg = out.join("nodes.svg");
        let text = render_svg(history, self.train.len(), self.held.len())
            .map_err(|e| SearchEvolveError::io(&svg, std::io::Error::other(e)))?;
        write_atomic(&svg, text.as_bytes()).map_err(|e| SearchEvolveError::io(&svg, e))?;
        Ok(())
    }

    /// Measures the references, writes the output file and `summary.json`.
    fn finish(&self, best: &Genome, history: &[GenerationStats]) -> Result<SearchEvolveSummary, SearchEvolveError> {
        let params = self.params_of(best);
        let mut reference = self.base.clone();
        reference.search = Params::default().search;
        let both = |p: &Params| {
            (
                self.count(p, &self.train),
                if self.held.is_empty() { NodeCount::default() } else { self.count(p, &self.held) },
            )
        };
        let path = self.cfg.out_dir.join("initial-best.json");
        let initial: InitialBest = evochess::input::read_text(&path, evochess::input::MAX_DATA_BYTES)
            .map_err(|e| SearchEvolveError::io(&path, e.reason()))
            .and_then(|t| {
                serde_json::from_str(&t).map_err(|e| SearchEvolveError::io(&path, std::io::Error::other(e)))
            })?;
        let initial_best = (initial.train, initial.held);
        let final_best = both(&params);
        let default_search = both(&reference);
        let values: Vec<(String, i32)> =
            self.space.genes.iter().map(|g| g.name.clone()).zip(self.space.values(best)).collect();
        let default_values: Vec<(String, i32)> =
            self.space.genes.iter().map(|g| (g.name.clone(), reference.get(g.keys[0]))).collect();
        let summary = SearchEvolveSummary {
            node_cap: self.cfg.node_cap,
            generations: history.len(),
            initial_best,
            final_best,
            default_search,
            values,
            default_values,
        };
        let path = self.cfg.out_dir.join("summary.json");
        let json = serde_json::to_string_pretty(&summary).expect("summary serialises");
        write_atomic(&path, json.as_bytes()).map_err(|e| SearchEvolveError::io(&path, e))?;
        let header = format!(
            "# Search section evolved by `tuner search-evolve` (David et al. 2014 IV): {} generations of {},\n\
             # node cap {} per position. Training: {} nodes, {} of {} solved; held out: {} nodes, {} of {} solved.\n\
             # params/default.toml search section: {} / {} nodes. Evaluation from {}.\n# Genes: {}\n\n",
            history.len(),
            self.cfg.optimiser.candidates(self.cfg.ga.population),
            self.cfg.node_cap,
            final_best.0.nodes,
            final_best.0.solved,
            final_best.0.positions,
            final_best.1.nodes,
            final_best.1.solved,
            final_best.1.positions,
            default_search.0.nodes,
            default_search.1.nodes,
            self.cfg.params.as_ref().map_or_else(|| "the engine defaults".to_string(), |p| p.display().to_string()),
            self.space.describe(best)
        );
        let text = format!("{header}{}", params.to_toml());
        write_atomic(&self.cfg.output, text.as_bytes()).map_err(|e| SearchEvolveError::io(&self.cfg.output, e))?;
        Ok(summary)
    }
}

/// A search evolution as the driver's problem: node totals on the training suites, the
/// held-out suites for each generation's best.
struct NodeProblem<'e> {
    evolution: &'e SearchEvolution,
    /// Held-out totals by genome: the best is measured once however long it stays best.
    held: RefCell<HashMap<Vec<u64>, NodeCount>>,
}

impl Problem for NodeProblem<'_> {
    type Score = NodeCount;
    type Record = GenerationStats;
    type Error = SearchEvolveError;

    fn evaluate(&self, b: Batch<'_, NodeCount, GenerationStats>) -> Result<Vec<NodeCount>, SearchEvolveError> {
        self.evolution.evaluate(b.population, b.known)
    }

    fn fitness(&self, c: &NodeCount) -> f64 {
        self.evolution.fitness(c)
    }

    fn metric(&self, c: &NodeCount) -> f64 {
        c.nodes as f64
    }

    /// A checkpoint keeps node totals only (not the solved counts), so its organisms are
    /// counted again rather than reused.
    fn restore(&self, _: f64, metric: f64) -> (NodeCount, bool) {
        (NodeCount { nodes: metric as u64, solved: 0, positions: self.evolution.train.len() }, false)
    }

    fn test(&self, best: &Genome) -> f64 {
        self.evolution.held_count(best, &mut self.held.borrow_mut()).nodes as f64
    }

    fn record(
        &self,
        pop: &[Genome],
        counts: &[NodeCount],
        best: usize,
        stats: GenerationStats,
        _: &AfterTell,
    ) -> Result<GenerationStats, SearchEvolveError> {
        let e = self.evolution;
        let held = e.held_count(&pop[best], &mut self.held.borrow_mut());
        let c = counts[best];
        log::info!(
            "gen {}: best {} nodes ({} of {} solved), mean {:.0}, held {} ({:.1}s)",
            stats.generation,
            c.nodes,
            c.solved,
            c.positions,
            stats.mean_metric,
            held.nodes,
            stats.seconds
        );
        if stats.generation == 0 {
            let initial = InitialBest { genome: pop[best].clone(), train: c, held };
            let path = e.cfg.out_dir.join("initial-best.json");
            let json = serde_json::to_string(&initial).expect("serialises");
            write_atomic(&path, json.as_bytes()).map_err(|err| SearchEvolveError::io(&path, err))?;
        }
        Ok(stats)
    }

    fn report(&self, history: &[GenerationStats]) -> Result<(), SearchEvolveError> {
        self.evolution.write_reports(history)
    }
}

/// Fig. 4: total nodes (millions) per generation for the best organism and the population
/// average, and the best organism on the held-out suites.
pub fn render_svg(history: &[GenerationStats], train: usize, held: usize) -> Result<String, String> {
    let line = |label: String, color, f: fn(&GenerationStats) -> f64| crate::chart::Series {
        label,
        color,
        points: history.iter().map(|h| (h.generation, f(h) / 1e6)).collect(),
    };
    let mut series = vec![
        line(format!("best organism ({train} positions)"), RGBColor(200, 30, 30), |h| h.best_metric),
        line("population average".into(), RGBColor(30, 30, 200), |h| h.mean_metric),
    ];
    if held > 0 {
        series.push(line(format!("best organism, held out ({held} positions)"), RGBColor(30, 150, 30), |h| {
            h.test_metric
        }));
    }
    crate::chart::render_lines_svg(
        "search evolution: total nodes to solve the suite",
        "generation",
        "total node count (millions)",
        &series,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_ga_table_keeps_search_defaults() {
        let cfg = SearchEvolveConfig::parse("[ga]\ngenerations = 3\n").unwrap();
        assert_eq!(cfg.ga.generations, 3);
        assert_eq!(cfg.ga.mutation_rate, 0.05);
        assert_eq!(cfg.ga.population, 10);
        assert!(SearchEvolveConfig::parse("node_kap = 3\n").unwrap_err().to_string().contains("node_kap"));
    }

    #[test]
    fn table_one_space_is_70_bits_over_the_search_section() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/spaces/search-evolve-paper.toml");
        let space = SearchSpace::load(path).unwrap();
        assert_eq!(space.genes.len(), 18);
        assert_eq!(space.layout().len(), 70);
        assert!(space.genes.iter().all(|g| Params::spec(g.keys[0]).section == "search"));
        // The 3-bit extension fields map codes 0..7 onto 0..4 quarter plies.
        let ext = space.genes.iter().find(|g| g.name == "check_extension").unwrap();
        let gene = crate::ga::encoding::BinaryGene { min: ext.min, max: ext.max, bits: ext.bits.unwrap() };
        assert_eq!((0..8).map(|c| gene.value(c)).collect::<Vec<_>>(), vec![0, 1, 1, 2, 2, 3, 3, 4]);
    }
}
