//! `tuner quick`: evolves the five piece values by quick tournaments (Belmonte 2013).
//!
//! * [`tournament`]: the quick tournament, generic over a comparison.
//! * [`operators`]: parent selection, crossover, mutation, survivor policy.
//! * [`mapping`]: genome (800..17000, unnormalised) → engine centipawns.
//! * [`names`]: readable random names.
//! * [`run`]: the generation loop: engine processes play the games through the match runner,
//!   every finished game is journaled ([`crate::results::Journal`]) and the population is
//!   checkpointed after every generation, so `--resume` after `kill -9` replays no game.
//! * [`report`]: per-generation CSV and SVG charts, the elite table.

pub mod mapping;
pub mod names;
pub mod operators;
pub mod report;
pub mod run;
pub mod tournament;

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::{runner::RunnerError, tc::SearchLimits};

/// The dynamic max-move cap (Belmonte §II-B): `factor` × the last generation's mean game
/// length in full moves, kept within `[min, max]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DynamicCap {
    pub factor: f64,
    pub min: u32,
    pub max: u32,
}

impl DynamicCap {
    /// Next generation's cap from the mean length (full moves) of this one.
    pub fn next(&self, mean_moves: f64) -> u32 {
        if !mean_moves.is_finite() || mean_moves <= 0.0 {
            return self.max;
        }
        ((mean_moves * self.factor).ceil() as u32).clamp(self.min, self.max)
    }
}

/// How one quick-tournament comparison between the pivot and another member is played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Comparison {
    /// One game with the pivot as black (Belmonte §II-B); a draw counts for the pivot.
    #[default]
    PivotBlack,
    /// Two games from the same start with colours swapped, so the first-move advantage cancels
    /// out (with one game the colour decides many comparisons: see BENCHMARKS.md).
    ColourPair,
}

impl Comparison {
    pub fn games(self) -> usize {
        match self {
            Comparison::PivotBlack => 1,
            Comparison::ColourPair => 2,
        }
    }
}

/// `tuner quick` settings (params/quick.toml); every key is optional.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QuickConfig {
    /// The evochess binary playing every game.
    pub engine: PathBuf,
    /// UCI options sent to every engine process (`Hash`, ...).
    pub engine_options: BTreeMap<String, String>,
    pub seed: u64,
    pub population: usize,
    pub generations: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Search limit per move: `nodes`, `movetime_ms` or `depth` (exactly one).
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub depth: Option<u32>,
    /// Full moves after which the side ahead in standard material (1/3/3/5/9) wins.
    pub max_moves: u32,
    /// Optional dynamic cap; generation 0 uses `max_moves`.
    pub dynamic_cap: Option<DynamicCap>,
    /// One game per comparison with the pivot black (the paper) or a colour-swapped pair.
    pub comparison: Comparison,
    /// Optional opening book (EPD/PGN): each game starts from a random line of it; by default
    /// every game starts from the initial position, as in the paper.
    pub openings: Option<PathBuf>,
    /// Checkpoint, journals, PGN, CSV, SVG, parameter files.
    pub out_dir: PathBuf,
}

impl Default for QuickConfig {
    /// Belmonte's R1 settings (population 12), with node-limited games.
    fn default() -> Self {
        QuickConfig {
            engine: PathBuf::from("target/release/evochess"),
            engine_options: BTreeMap::new(),
            seed: 1,
            population: 12,
            generations: 50,
            concurrency: 2,
            nodes: Some(2000),
            movetime_ms: None,
            depth: None,
            max_moves: 150,
            dynamic_cap: None,
            comparison: Comparison::PivotBlack,
            openings: None,
            out_dir: PathBuf::from("quick-out"),
        }
    }
}

/// Why `tuner quick` stopped.
#[derive(Debug, Error)]
pub enum QuickError {
    #[error("config: {0}")]
    Config(String),
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    #[error("checkpoint {path}: {reason}")]
    Checkpoint { path: String, reason: String },
    #[error("game {white} vs {black}: {source}")]
    Game {
        white: String,
        black: String,
        #[source]
        source: Box<RunnerError>,
    },
    #[error(transparent)]
    Journal(#[from] crate::results::JournalError),
}

impl QuickError {
    pub fn io(path: &Path, e: impl std::fmt::Display) -> Self {
        QuickError::Io { path: path.display().to_string(), reason: e.to_string() }
    }
}

impl QuickConfig {
    /// Reads a config file (unknown keys are errors that name the key).
    pub fn load(path: &Path) -> Result<Self, QuickError> {
        let text = crate::builtin::read_text(path).map_err(|e| QuickError::io(path, e))?;
        toml::from_str(&text).map_err(|e| QuickError::Config(format!("{}: {e}", path.display())))
    }

    /// Per-move search limit.
    pub fn limits(&self) -> SearchLimits {
        SearchLimits { nodes: self.nodes, movetime_ms: self.movetime_ms, depth: self.depth, ..SearchLimits::default() }
    }

    pub fn validate(&self) -> Result<(), QuickError> {
        let bad = |m: String| Err(QuickError::Config(m));
        if self.population < 5 {
            return bad(format!("population must be at least 5 (for the 20/60/20 tiers), got {}", self.population));
        }
        if self.generations == 0 {
            return bad("generations must be at least 1".into());
        }
        let limits = [self.nodes.is_some(), self.movetime_ms.is_some(), self.depth.is_some()];
        if limits.iter().filter(|&&x| x).count() != 1 {
            return bad("give exactly one of nodes, movetime_ms, depth".into());
        }
        if self.nodes == Some(0) || self.movetime_ms == Some(0) || self.depth == Some(0) {
            return bad("the search limit must be positive".into());
        }
        if self.max_moves == 0 {
            return bad("max_moves must be positive".into());
        }
        if let Some(d) = &self.dynamic_cap
            && (d.min == 0 || d.min > d.max || !(d.factor > 0.0 && d.factor.is_finite()))
        {
            return bad(format!("dynamic_cap: need 0 < min <= max and factor > 0, got {d:?}"));
        }
        if let Some(o) = &self.openings
            && !o.is_file()
            && crate::builtin::builtin(o).is_none()
        {
            return bad(format!("openings file `{}` does not exist", o.display()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dynamic_cap_follows_the_mean() {
        let d = DynamicCap { factor: 1.5, min: 40, max: 200 };
        assert_eq!(d.next(50.0), 75);
        assert_eq!(d.next(10.0), 40);
        assert_eq!(d.next(500.0), 200);
        assert_eq!(d.next(f64::NAN), 200);
    }

    #[test]
    fn config_errors_name_the_problem() {
        let c = QuickConfig { population: 3, ..QuickConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("population"));
        let c = QuickConfig { depth: Some(3), ..QuickConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("exactly one"));
        let e = toml::from_str::<QuickConfig>("popsize = 3").unwrap_err().to_string();
        assert!(e.contains("popsize"), "{e}");
    }
}
