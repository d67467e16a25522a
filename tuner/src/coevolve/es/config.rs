//! The config of `tuner coevolve`'s default method (`method = "es"`): its keys, defaults and
//! checks. configs/coevolve/default.toml lists every key with its default.

use std::path::{Path, PathBuf};

use arena::{
    adjudicate::{DrawRule, MaxMovesRule, ResignRule},
    openings::{BookFormat, OpeningsConfig, Order},
    stats::{Sprt, SprtModel},
    tc::{ClockTc, SearchLimits},
};
use serde::{Deserialize, Serialize};

use crate::{
    coevolve::CoevolveError,
    ga::threads,
    notation::Parsed,
    optimise::{
        es::{EsSettings, GroupSpec},
        halving::Schedule,
    },
};

/// How a generation's candidates share their games against the champion
/// ([`crate::optimise::halving`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RaceSettings {
    /// Game pairs of every candidate in the first round (doubling as the field halves).
    pub first_pairs: u32,
    /// Candidates left by the halving; they play one more round. The candidates' count (2 ×
    /// `es.pairs`) makes the race one even round. Default: `es.pairs`, half of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep: Option<usize>,
}

impl Default for RaceSettings {
    /// The recipe of the synthetic recovery ([`crate::optimise::recovery`]): 32 candidates on one
    /// pair each, the better 16 two more (128 games a generation).
    fn default() -> Self {
        RaceSettings { first_pairs: 1, keep: None }
    }
}

/// The gate: the ES's mean against the champion in an SPRT, a few times a run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GateSettings {
    /// Gates in the run, evenly spaced over its generations (the last after the last
    /// generation); 0: none, and the output is the start.
    pub count: usize,
    /// Normalized-Elo hypotheses and error rates. With `count` gates at `alpha` each the run
    /// promotes a mean no better than its champion with probability at most `count · alpha`.
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Most games of one gate (even); a gate that reaches it undecided does not promote.
    pub max_games: u64,
    /// The gate's node limit per move, in place of the run's `nodes` (a gate at a deeper
    /// budget than the race's: parameters tuned in shallow searches need not carry to deep
    /// ones); none: the run's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
}

impl Default for GateSettings {
    /// Five gates at α = 0.01: a false promotion in at most 5 % of runs (issue 89's bound).
    fn default() -> Self {
        GateSettings { count: 5, elo0: 0.0, elo1: 10.0, alpha: 0.01, beta: 0.05, max_games: 1_500, nodes: None }
    }
}

impl GateSettings {
    pub fn sprt(&self) -> Result<Sprt, CoevolveError> {
        Sprt::new(self.elo0, self.elo1, self.alpha, self.beta)
            .map(|s| s.with_model(SprtModel::Normalized))
            .map_err(|e| CoevolveError::Config(format!("gate: {e}")))
    }

    /// The gate's limits per move: the run's `run`, with the gate's own node limit if it has one.
    pub fn limits(&self, run: &SearchLimits) -> SearchLimits {
        SearchLimits { nodes: self.nodes.or(run.nodes), ..run.clone() }
    }

    /// The most games all gates may play.
    pub fn budget(&self) -> u64 {
        self.count as u64 * self.max_games
    }

    /// Whether a gate follows generation `g` of `generations`: the gates split the run into
    /// `count` equal parts, the last after its last generation.
    pub fn after(&self, g: usize, generations: usize) -> bool {
        let part = |g: usize| (g * self.count) / generations.max(1);
        self.count > 0 && part(g + 1) > part(g)
    }
}

/// Everything the evolution strategy's `tuner coevolve` reads from its config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EsCoevolveConfig {
    /// `"es"`: this method (the default); `"paper"` selects David et al.'s round robin, whose
    /// keys are [`super::super::CoevolveConfig`]'s.
    pub method: String,
    /// The start: every value the run does not evolve, and the genes' first mean and champion.
    /// `None`: the engine's defaults (params/default.toml's values).
    pub start: Option<PathBuf>,
    /// The genes: SPSA lines (`name, int, value, min, max, c_end, r_end`), e.g. the live
    /// numeric search values that bench/search_genes.py lists. Each gene starts at the start
    /// file's value (the line's value is not read); `c_end` is its unit of step.
    pub genes: PathBuf,
    /// The engine binary; default `evochess` next to the `tuner` executable.
    pub engine: Option<PathBuf>,
    /// Node limit per move (alone, or on top of `tc`).
    pub nodes: Option<u64>,
    /// Clock per game, cutechess notation; `None`: moves are limited by `nodes` only.
    pub tc: Option<Parsed<ClockTc>>,
    pub timemargin_ms: u64,
    /// Games played at once; 0 = every core.
    pub concurrency: usize,
    /// The book the run draws its openings from, without replacement: UHO_4060_v4 has 241,670.
    pub openings: PathBuf,
    /// The run's budget: racing and gate games together. The generations are what it pays for
    /// once the gates' most are set aside (unless `--generations` names them).
    pub games: u64,
    /// Openings held back for the confirmation match after the run (the run never plays them):
    /// the first of the book's permutation, so `tuner match ... order=random start=1
    /// --srand SEED` with the run's seed plays them.
    pub confirmation_openings: usize,
    pub draw: Option<Parsed<DrawRule>>,
    pub resign: Option<Parsed<ResignRule>>,
    pub maxmoves: Option<Parsed<MaxMovesRule>>,
    pub seed: u64,
    pub out_dir: PathBuf,
    /// The champion's parameter file (empty: `<out_dir>/champion.toml`).
    pub output: PathBuf,
    pub es: EsSettings,
    /// Genes that share a step size (name globs); genes in none form the group `other`.
    pub groups: Vec<GroupSpec>,
    pub race: RaceSettings,
    pub gate: GateSettings,
    /// Play the games on `tuner worker`s (`--broker`); not part of the run's identity.
    #[serde(skip)]
    pub broker: Option<crate::broker::BrokerConfig>,
}

/// The step groups of the default genes: as the mutation ladder grouped them.
pub fn default_groups() -> Vec<GroupSpec> {
    let group = |name: &str, patterns: &[&str]| GroupSpec {
        name: name.into(),
        patterns: patterns.iter().map(|p| (*p).to_string()).collect(),
        sigma: None,
    };
    vec![
        group("pruning", &["futility_*", "rfp_*", "lmp_*", "see_*", "delta_margin", "qsearch_*"]),
        group("lmr", &["lmr_*"]),
        group("null_move", &["null_move_*"]),
        group("extensions", &["*_extension", "singular_*"]),
        group("history", &["history_*", "countermove_*", "followup_*", "capture_history_*", "threat_*"]),
    ]
}

impl Default for EsCoevolveConfig {
    fn default() -> Self {
        EsCoevolveConfig {
            method: "es".into(),
            start: None,
            genes: PathBuf::from("configs/spaces/coevolve-search.txt"),
            engine: None,
            nodes: Some(10_000),
            tc: None,
            timemargin_ms: 100,
            concurrency: 0,
            openings: PathBuf::from("../shared/data/openings/UHO_4060_v4.epd.xz"),
            games: 60_000,
            confirmation_openings: 1_000,
            draw: Some("movenumber=40 movecount=8 score=10".parse().expect("a valid rule")),
            resign: Some("movecount=3 score=1000 twosided=true".parse().expect("a valid rule")),
            maxmoves: None,
            seed: 1,
            out_dir: PathBuf::from("runs/coevolve"),
            output: PathBuf::new(),
            es: EsSettings::default(),
            groups: default_groups(),
            race: RaceSettings::default(),
            gate: GateSettings::default(),
            broker: None,
        }
    }
}

impl crate::paths::ConfigPaths for EsCoevolveConfig {
    fn input_paths() -> Vec<String> {
        crate::paths::keys(&["start", "genes", "engine", "openings"])
    }
}

impl EsCoevolveConfig {
    /// Reads a config file; relative input paths are relative to the file.
    pub fn load(path: &Path) -> Result<Self, CoevolveError> {
        crate::paths::load_config(path).map_err(|e| e.into_command(CoevolveError::io, CoevolveError::Config))
    }

    pub fn parse(text: &str) -> Result<Self, CoevolveError> {
        toml::from_str(text).map_err(|e| CoevolveError::Config(e.to_string()))
    }

    pub fn engine_path(&self) -> PathBuf {
        self.engine.clone().unwrap_or_else(crate::paths::default_engine)
    }

    pub fn output_path(&self) -> PathBuf {
        if self.output.as_os_str().is_empty() { self.out_dir.join("champion.toml") } else { self.output.clone() }
    }

    /// Every engine's limits per move.
    pub fn limits(&self) -> Result<SearchLimits, CoevolveError> {
        let clock = self.tc.as_ref().map(|t| *t.value());
        if clock.is_none() && self.nodes.is_none() {
            return Err(CoevolveError::Config("give a node limit (nodes) or a clock (tc)".into()));
        }
        if self.nodes == Some(0) {
            return Err(CoevolveError::Config("nodes must be positive".into()));
        }
        Ok(SearchLimits { clock, nodes: self.nodes, margin_ms: self.timemargin_ms, ..SearchLimits::default() })
    }

    /// The budget per move as the games' keys and the log name it.
    pub fn budget_name(&self) -> String {
        match (&self.tc, self.nodes) {
            (Some(tc), Some(n)) => format!("{tc} and {n} nodes"),
            (Some(tc), None) => tc.to_string(),
            (None, Some(n)) => format!("{n} nodes"),
            (None, None) => "no limit".into(),
        }
    }

    /// The book's openings config (order random: the ledger's permutation is the runner's).
    pub fn book(&self) -> Result<OpeningsConfig, CoevolveError> {
        let file = crate::paths::resolve_data_path(&self.openings);
        let parsed = OpeningsConfig::parse(&[format!("file={}", file.display())]).ok();
        match parsed.map(|c| c.format) {
            Some(format @ (BookFormat::Pgn | BookFormat::Epd)) => {
                Ok(OpeningsConfig { file, format, order: Order::Random, plies: None, start: 1 })
            }
            _ => Err(CoevolveError::Config(format!(
                "openings: {} must be an .epd or .pgn file (or .epd.xz, .pgn.xz)",
                self.openings.display()
            ))),
        }
    }

    /// The race of `candidates`.
    pub fn schedule(&self) -> Schedule {
        Schedule::halving(2 * self.es.pairs, self.keep(), self.race.first_pairs)
    }

    /// The candidates the halving keeps.
    pub fn keep(&self) -> usize {
        self.race.keep.unwrap_or(self.es.pairs)
    }

    /// Games of one generation.
    pub fn generation_games(&self) -> u64 {
        self.schedule().planned_games(2 * self.es.pairs)
    }

    /// Openings of one generation: each round plays its own (every candidate of a round the same).
    pub fn generation_openings(&self) -> usize {
        self.schedule().pairs.iter().map(|&p| p as usize).sum()
    }

    /// The generations the budget pays for: `games` less the gates' most, in whole generations.
    pub fn planned_generations(&self) -> usize {
        let racing = self.games.saturating_sub(self.gate.budget());
        (racing / self.generation_games().max(1)) as usize
    }

    /// Checks the settings against each other, naming the key.
    pub fn validate(&self) -> Result<(), CoevolveError> {
        let bad = |s: String| Err(CoevolveError::Config(s));
        if self.method != "es" {
            return bad(format!("method = \"{}\": \"es\" or \"paper\"", self.method));
        }
        self.es.validate().map_err(|e| CoevolveError::Config(e.to_string()))?;
        self.limits()?;
        self.book()?;
        let lambda = 2 * self.es.pairs;
        if !(1..=lambda).contains(&self.keep()) {
            return bad(format!("race.keep = {} must be in 1..={lambda} (2 x es.pairs candidates)", self.keep()));
        }
        if self.race.first_pairs == 0 {
            return bad("race.first_pairs must be at least 1".into());
        }
        if self.gate.count > 0 {
            self.gate.sprt()?;
            if self.gate.max_games < 2 || !self.gate.max_games.is_multiple_of(2) {
                return bad(format!("gate.max_games = {}: an even number, at least 2", self.gate.max_games));
            }
            if self.gate.nodes == Some(0) {
                return bad("gate.nodes must be positive".into());
            }
        }
        if self.planned_generations() == 0 {
            return bad(format!(
                "games = {}: the gates may take {} and a generation {}; nothing is left to evolve",
                self.games,
                self.gate.budget(),
                self.generation_games()
            ));
        }
        let _ = threads(self.concurrency);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_default_lists_the_defaults_and_the_budget_fits() {
        let shipped = EsCoevolveConfig::load(Path::new("configs/coevolve/default.toml")).unwrap();
        // The file's paths are relative to it, and name the defaults' files.
        assert_eq!(shipped, EsCoevolveConfig::default(), "configs/coevolve/default.toml lists the defaults");
        let d = EsCoevolveConfig::default();
        d.validate().unwrap();
        assert_eq!(d.generation_games(), 128);
        assert_eq!(d.generation_openings(), 3);
        assert!(d.planned_generations() as u64 * 128 + d.gate.budget() <= 60_000);
        assert_eq!(d.planned_generations(), 410);
    }

    #[test]
    fn gates_split_the_run_evenly_and_the_last_follows_the_last_generation() {
        let g = GateSettings::default();
        let after: Vec<usize> = (0..410).filter(|&i| g.after(i, 410)).collect();
        assert_eq!(after, [81, 163, 245, 327, 409]);
        assert_eq!((0..3).filter(|&i| g.after(i, 3)).count(), 3, "more gates than generations: one each");
        let none = GateSettings { count: 0, ..g };
        assert!((0..10).all(|i| !none.after(i, 10)));
    }

    #[test]
    fn bad_settings_are_named() {
        let check = |text: &str, needle: &str| {
            let e = match EsCoevolveConfig::parse(text) {
                Ok(c) => c.validate().unwrap_err().to_string(),
                Err(e) => e.to_string(),
            };
            assert!(e.contains(needle), "{text}: {e}");
        };
        check("[race]\nkeep = 40\n", "race.keep = 40");
        check("[gate]\nmax_games = 7\n", "gate.max_games = 7");
        check("games = 1000\n", "games = 1000");
        check("[es]\nc_m = 2\n", "c_m = 2");
        check("nodes = 0\n", "nodes must be positive");
        check("[gate]\nnodes = 0\n", "gate.nodes must be positive");
        check("openings = \"book.bin\"\n", "book.bin");
        check("[gate]\nalpha = 2\n", "gate");
        check("populaton_dir = \"x\"\n", "populaton_dir");
    }
}
