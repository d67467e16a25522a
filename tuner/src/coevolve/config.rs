//! `tuner coevolve`'s config file: its keys and defaults, and the checks of their values.

use std::path::{Path, PathBuf};

use arena::{
    adjudicate::{DrawRule, MaxMovesRule, ResignRule},
    openings::{BookFormat, OpeningsConfig, Order},
    runner::{MatchConfig, Tournament},
    tc::{ClockTc, SearchLimits},
};
use serde::{Deserialize, Deserializer, Serialize};

use super::{
    CoevolveError,
    champion::ChampionConfig,
    racing::{self, Scheme},
    reference::PoolConfig,
};
use crate::{
    ga::{GaConfig, OptimiserConfig, encoding::Layout, operators::Selection, threads},
    notation::Parsed,
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

/// Everything the paper's `tuner coevolve` reads from its config file (`configs/coevolve/paper.toml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CoevolveConfig {
    /// `"paper"`, this method; `tuner coevolve` reads it to choose between this and the
    /// evolution strategy ([`super::es`]). Absent from configs written before the choice, which
    /// keep their meaning, and from the run's identity.
    #[serde(skip_serializing)]
    pub method: Option<String>,
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
    ///
    /// [`SearchSpace::whole_evaluation`]: crate::space::SearchSpace::whole_evaluation
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
    /// Opening book (EPD or PGN), shuffled afresh for each match unless `fresh_openings`.
    pub openings: PathBuf,
    /// Draw every match's openings without replacement from one seeded permutation of the book
    /// ([`fresh`](super::fresh)), so that no game is played twice in a run; off (the paper's
    /// way, a fresh shuffle per match) it stays out of the run's identity.
    #[serde(skip_serializing_if = "is_false")]
    pub fresh_openings: bool,
    /// With `fresh_openings`: the first openings of the permutation, held back for the
    /// confirmation match after the run (the run never plays them).
    #[serde(skip_serializing_if = "is_zero_usize")]
    pub confirmation_openings: usize,
    /// Openings per encounter; each is played with both colours (paper: 4 games = 2 openings).
    pub openings_per_pair: u32,
    /// How a generation ranks its organisms: `round-robin` (the paper's; fitness is points),
    /// `racing` (rounds of game pairs among the organisms in doubt; fitness is a Bradley–Terry
    /// rating, [`racing`]) or `reference` (the same games for every organism against the fixed
    /// `[pool]`; fitness is points, [`reference`](mod@super::reference)). Out of the run's identity when
    /// `round-robin`, so earlier runs resume.
    #[serde(skip_serializing_if = "Scheme::is_round_robin")]
    pub selection: Scheme,
    /// Racing: most games per generation (game pairs, so even); 0: the round robin's count.
    #[serde(skip_serializing_if = "is_zero")]
    pub racing_games: u64,
    /// Racing: two-sided confidence of the bounds (rating ± z·error) that drop organisms.
    #[serde(skip_serializing_if = "is_default_confidence")]
    pub racing_confidence: f64,
    /// `[pool]`: the fixed opponents of `selection = "reference"` ([`reference`](mod@super::reference)).
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
    /// `[optimiser]`: the GA (the default) or CMA-ES. Not serialised: the run's fingerprint has
    /// it in the older form of `ga` ([`crate::optimise::config::with_legacy_ga`]).
    #[serde(skip_serializing)]
    pub optimiser: OptimiserConfig,
    /// `[champion]`: the SPRT-gated champion ([`champion`](super::champion)); off by default.
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

fn is_false(b: &bool) -> bool {
    !*b
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
            method: None,
            population_dir: Some(PathBuf::from("params/evolved/pipeline-evol-star/evolved")),
            space: None,
            engine: None,
            tc: Some("5+0.05".parse().expect("a valid clock")),
            nodes: None,
            timemargin_ms: 100,
            concurrency: 0,
            openings: PathBuf::from("openings/gnuchess-8ply.epd"),
            fresh_openings: false,
            confirmation_openings: 0,
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
            out_dir: PathBuf::from("runs/coevolve"),
            output: PathBuf::new(),
            ga: coevolve_ga_defaults(),
            optimiser: OptimiserConfig::default(),
            champion: ChampionConfig::default(),
            broker: None,
        }
    }
}
impl CoevolveConfig {
    /// Parses a config file; unknown keys are errors naming the key.
    pub fn parse(text: &str) -> Result<Self, CoevolveError> {
        crate::paths::parse_config(text).map_err(CoevolveError::Config)
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
        if self.optimiser.from_one_point() {
            return Err(CoevolveError::Config(format!(
                "optimiser.kind = \"{}\": coevolve runs the GA or CMA-ES (\"ga\" or \"cmaes\")",
                self.optimiser.name()
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

    /// Checks the settings against each other and the search space's `layout`: everything
    /// [`Coevolution::new`](super::Coevolution::new) refuses before it reads a file.
    pub(super) fn validate(&self, layout: &Layout) -> Result<(), CoevolveError> {
        if let Some(m) = self.method.as_deref().filter(|m| *m != "paper") {
            return Err(CoevolveError::Config(format!(
                "method = \"{m}\": this is the paper's config (method = \"paper\"); the evolution strategy's is read by \
                 `tuner coevolve` itself"
            )));
        }
        self.check_optimiser()?;
        self.ga.validate(&self.optimiser, layout)?;
        self.champion.validate()?;
        if !(self.racing_confidence > 0.0 && self.racing_confidence < 1.0) {
            return Err(CoevolveError::Config(format!(
                "racing_confidence = {}: a probability between 0 and 1 (0.95: bounds of 1.96 standard errors)",
                self.racing_confidence
            )));
        }
        if !self.racing_games.is_multiple_of(2) {
            return Err(CoevolveError::Config(format!(
                "racing_games = {} must be even (each opening is played with both colours)",
                self.racing_games
            )));
        }
        if !(self.mutant_sigma > 0.0 && self.mutant_sigma.is_finite()) {
            return Err(CoevolveError::Config(format!(
                "mutant_sigma = {}: a positive fraction of each gene's range (0.05: 5%)",
                self.mutant_sigma
            )));
        }
        if !self.organisms.is_empty() {
            let why = "[[organisms]] is a fixed population with limits of its own";
            if !self.champion.is_off() {
                return Err(CoevolveError::Config(format!("{why}, ranked once: it takes no [champion] gate")));
            }
            if self.mutants > 0 {
                return Err(CoevolveError::Config(format!("{why}: mutants = {} has no files to mutate", self.mutants)));
            }
            if let Some(i) = self.organisms.iter().position(|o| o.nodes == Some(0)) {
                return Err(CoevolveError::Config(format!("organisms[{i}].nodes must be positive")));
            }
        }
        if self.mutants > 0 && self.population_dir.is_none() {
            return Err(CoevolveError::Config(format!(
                "mutants = {}: mutants are of the population_dir's files; a random population has none",
                self.mutants
            )));
        }
        if self.selection != Scheme::Reference && !self.pool.is_empty() {
            return Err(CoevolveError::Config(format!(
                "[pool] is the opponents of selection = \"reference\"; selection is \"{}\"",
                String::from(self.selection)
            )));
        }
        if self.confirmation_openings > 0 && !self.fresh_openings {
            return Err(CoevolveError::Config(format!(
                "confirmation_openings = {}: openings are held back only from fresh_openings' permutation; set \
                 fresh_openings = true",
                self.confirmation_openings
            )));
        }
        Ok(())
    }
}

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

    fn upgrade(table: &mut toml::Table) -> Result<bool, String> {
        crate::optimise::choice::lift_legacy(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_space_is_the_whole_evaluation_and_reference_games_come_in_pairs() {
        assert_eq!(CoevolveConfig::default().space, None);
        let shipped = CoevolveConfig::load(Path::new("configs/coevolve/paper.toml")).unwrap();
        let expected = CoevolveConfig { method: Some("paper".into()), ..CoevolveConfig::default() };
        assert_eq!(shipped, expected, "configs/coevolve/paper.toml lists the defaults");
        let e = CoevolveConfig::parse("reference_games = 3\n").unwrap().match_base().unwrap_err().to_string();
        assert!(e.contains("reference_games = 3"), "{e}");
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
