//! `tuner evolve`: evolution of evaluation weights from grandmaster games (David et al. 2014
//! §III-B), or against a mentor engine's scores (mentor-assisted evolution).
//!
//! * [`positions`]: one winner-to-move position per decisive game, train/test split, cached.
//! * [`fitness`]: the 1-ply GM-move fitness (correct moves, squared).
//! * [`run`]: one run as a [`crate::ga::driver::Problem`] (the driver owns the generation loop,
//!   checkpoint/resume and the per-generation CSV and chart, [`crate::ga::report`]).
//! * [`runs`]: the configured runs end to end (positions, objective, fingerprint, result files),
//!   for the command line and the pipeline.

pub mod fitness;
pub mod mentor;
pub mod positions;
pub mod remote;
pub mod run;
pub mod runs;

use std::path::{Path, PathBuf};

use evochess::params::EvalParams;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use self::{
    fitness::{FitnessConfig, FitnessSearch, Prepared},
    positions::PositionsConfig,
};
use crate::ga::{GaConfig, OptimiserConfig};

/// Everything `tuner evolve` can be told in its config file (`configs/evolve/default.toml`).
/// Relative input paths in a file are relative to it ([`EvolveConfig::load`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EvolveConfig {
    /// Search-space file: which parameters are genes and how they are encoded.
    pub space: PathBuf,
    /// Master seed; run `n` uses the generation RNGs derived from `(seed, n, generation)`.
    pub seed: u64,
    /// Independent runs (David et al. ran ten).
    pub runs: usize,
    /// Fitness threads; 0 = every available core.
    pub threads: usize,
    /// Checkpoints, per-generation CSV and SVG per run (`<out_dir>/run-N/`), and the position cache.
    pub out_dir: PathBuf,
    /// Where each run's best organism goes as a complete engine parameter file (`run-N.toml`);
    /// default `<out_dir>/evolved`, so a run never replaces committed files unless told to.
    pub evolved_dir: Option<PathBuf>,
    pub positions: PositionsConfig,
    /// How the 1-ply fitness scores a move (quiescence or static).
    pub fitness: FitnessConfig,
    pub ga: GaConfig,
    /// `[optimiser]`: what proposes each generation (the GA by default).
    pub optimiser: OptimiserConfig,
    /// Mentor-assisted evolution instead of GM moves, when present.
    pub mentor: Option<mentor::MentorConfig>,
    /// Start from a parameter file instead of random values (the paper starts from random).
    pub init: Option<InitConfig>,
    /// Count GM moves on `tuner worker`s (`--broker`); not part of the run's identity.
    #[serde(skip)]
    pub broker: Option<crate::broker::BrokerConfig>,
}

/// `[init]`: the first generation is `file`'s genome (the nearest one the space can encode)
/// and `population - 1` copies of it mutated with the configured operator at `mutation_rate`,
/// so that a run refines a known evaluation rather than rediscovering one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitConfig {
    pub file: PathBuf,
    /// Per bit or per gene, as `[ga] mutation_rate`.
    #[serde(default = "InitConfig::default_mutation_rate")]
    pub mutation_rate: f64,
}

impl InitConfig {
    /// `file` with the default mutation rate.
    pub fn new(file: PathBuf) -> Self {
        Self { file, mutation_rate: Self::default_mutation_rate() }
    }

    fn default_mutation_rate() -> f64 {
        0.05
    }
}

impl Default for EvolveConfig {
    fn default() -> Self {
        Self {
            space: PathBuf::from("configs/spaces/evolve-paper.toml"),
            seed: 1,
            runs: 1,
            threads: 0,
            out_dir: PathBuf::from("runs/evolve"),
            evolved_dir: None,
            positions: PositionsConfig::default(),
            fitness: FitnessConfig::default(),
            ga: GaConfig::default(),
            optimiser: OptimiserConfig::default(),
            mentor: None,
            init: None,
            broker: None,
        }
    }
}

impl EvolveConfig {
    /// Parses a config file; unknown keys are errors naming the key.
    pub fn parse(text: &str) -> Result<Self, EvolveError> {
        crate::paths::parse_config(text).map_err(EvolveError::Config)
    }

    /// Directory of the runs' result files.
    pub fn evolved_dir(&self) -> PathBuf {
        self.evolved_dir.clone().unwrap_or_else(|| self.out_dir.join("evolved"))
    }

    /// The checks no single key can make: a bad combination fails before any work.
    pub fn validate(&self) -> Result<(), EvolveError> {
        let bad = |m: &str| Err(EvolveError::Config(m.to_string()));
        if let Some(m) = &self.mentor {
            m.validate().map_err(EvolveError::Config)?;
            if m.target == mentor::MentorTarget::Result && self.positions.random_plies > 0 {
                return bad(
                    "mentor.target = \"result\" cannot use positions.random_plies: a walked position's result is not the game's",
                );
            }
        }
        if self.runs == 0 {
            return bad("runs must be at least 1");
        }
        if self.positions.train == 0 {
            return bad("positions.train must be at least 1");
        }
        if self.positions.random_plies > 0 && self.mentor.is_none() {
            return bad(
                "positions.random_plies needs a [mentor]: the moves of positions off the game are not GM moves",
            );
        }
        Ok(())
    }

    /// Reads a config file; its relative input paths (`space`, `init.file`) are relative to
    /// the file, `out_dir`, `evolved_dir` and `positions.cache` to the working directory.
    pub fn load(path: &Path) -> Result<Self, EvolveError> {
        crate::paths::load_config(path).map_err(|e| e.into_command(EvolveError::io, EvolveError::Config))
    }
}

#[derive(Debug, Error)]
pub enum EvolveError {
    #[error(transparent)]
    Run(#[from] crate::ga::error::RunError),
    #[error(transparent)]
    Broker(crate::broker::BrokerError),
    #[error("evolve config: {0}")]
    Config(String),
    #[error(transparent)]
    Positions(#[from] positions::PositionsError),
    #[error("mentor: {0}")]
    Mentor(String),
}

crate::command_error!(EvolveError);

impl crate::paths::ConfigPaths for EvolveConfig {
    fn input_paths() -> Vec<String> {
        crate::paths::keys(&["space", "init.file"])
    }

    fn upgrade(table: &mut toml::Table) -> Result<bool, String> {
        crate::optimise::choice::lift_legacy(table)
    }
}

/// What an organism is measured against.
pub enum Objective {
    /// David et al.: GM moves found by a 1-ply search; fitness = correct².
    GmMoves { train: Vec<Prepared>, test: Vec<Prepared>, search: FitnessSearch },
    /// Mentor-assisted: fitness = −mean error of the organism's score against the mentor's.
    Mentor {
        train: Vec<(shakmaty::Chess, i32)>,
        test: Vec<(shakmaty::Chess, i32)>,
        measure: mentor::ErrorMeasure,
        search: FitnessSearch,
        /// Lowers the fitness (not the reported error) of unlikely values.
        prior: mentor::Prior,
    },
}

impl Objective {
    /// Column name of the readable metric.
    pub fn metric_name(&self) -> &'static str {
        match self {
            Objective::GmMoves { .. } => "correct",
            Objective::Mentor { measure, .. } => measure.metric_name(),
        }
    }

    /// Axis label for the chart.
    pub fn metric_label(&self) -> String {
        match self {
            Objective::GmMoves { train, test, .. } if train.len() == test.len() => {
                format!("positions solved (of {} per set)", train.len())
            }
            // Test counts are out of the test set: say so when the sizes differ.
            Objective::GmMoves { train, test, .. } => {
                format!("positions solved (train of {}, test of {})", train.len(), test.len())
            }
            Objective::Mentor { measure, .. } => measure.metric_label(),
        }
    }

    pub fn sizes(&self) -> (usize, usize) {
        match self {
            Objective::GmMoves { train, test, .. } => (train.len(), test.len()),
            Objective::Mentor { train, test, .. } => (train.len(), test.len()),
        }
    }

    /// `(fitness, metric)` on the training set, one thread.
    pub fn train(&self, params: &EvalParams) -> (f64, f64) {
        match self {
            Objective::GmMoves { train, search, .. } => {
                let solved = fitness::count_solved(train, params, *search);
                (fitness::gm_fitness(solved), f64::from(solved))
            }
            Objective::Mentor { train, measure, search, prior, .. } => {
                let (err, _scale) = mentor::mean_error(train, params, measure, *search);
                (-err - prior.penalty(params), err)
            }
        }
    }

    /// The metric on the test set, split over `threads`.
    pub fn test(&self, params: &EvalParams, threads: usize) -> f64 {
        match self {
            Objective::GmMoves { test, search, .. } => {
                f64::from(fitness::count_solved_par(test, params, *search, threads))
            }
            Objective::Mentor { test, measure, search, .. } => {
                mentor::mean_error_par(test, params, measure, *search, threads).0
            }
        }
    }

    /// The metric as a share of the set, for reports (`None` where that means nothing).
    pub fn accuracy(&self, metric: f64, test: bool) -> Option<f64> {
        let (tr, te) = self.sizes();
        let n = if test { te } else { tr };
        match self {
            Objective::GmMoves { .. } if n > 0 => Some(metric / n as f64),
            _ => None,
        }
    }
}
