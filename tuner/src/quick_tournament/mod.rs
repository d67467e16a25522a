//! `tuner quick`: evolves the five piece values by quick tournaments (Belmonte 2013).
//!
//! * [`tournament`]: the quick tournament, generic over a comparison.
//! * [`operators`]: parent selection, crossover, mutation, survivor policy.
//! * [`belmonte`]: those operators as the GA the driver asks and tells ([`crate::optimise`]).
//! * [`mapping`]: genome (800..17000, unnormalised) → engine centipawns.
//! * [`names`]: readable random names.
//! * [`run`]: the generation loop: engine processes play the games through the match runner,
//!   every finished game is journaled ([`arena::results::Journal`]) and the population is
//!   checkpointed after every generation, so `--resume` after `kill -9` replays no game.
//! * [`report`]: per-generation CSV and SVG charts, the elite table.

pub mod belmonte;
pub mod mapping;
pub mod names;
pub mod operators;
pub mod record;
pub mod report;
pub mod run;
pub mod tournament;

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use arena::{runner::RunnerError, tc::SearchLimits};

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
    /// Games per comparison with `pairs` colour-swapped pairs (pivot-black always plays one).
    pub fn games(self, pairs: u32) -> usize {
        match self {
            Comparison::PivotBlack => 1,
            Comparison::ColourPair => 2 * pairs as usize,
        }
    }
}

/// How a generation is ranked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RankingMode {
    /// Belmonte's quick tournament: quick-sort with games between members as comparisons.
    #[default]
    QuickTournament,
    /// Every member plays `pairs` colour-swapped pairs against a fixed reference player each
    /// generation; members are ranked by their score against it accumulated over every
    /// generation they lived (Laplace-smoothed), so a survivor's estimate keeps sharpening and
    /// one lucky pair cannot carry a newcomer past a member with a long record. Quick-sort inside
    /// a population of unsound values is intransitive (BENCHMARKS.md), a fixed opponent is not.
    Reference,
    /// Every member plays every other `pairs` colour-swapped pairs; members are ranked by their
    /// points (ties by their life record). Each member's rank rests on 2(N-1) games instead of
    /// the one comparison that places it in a half of the quick-sort.
    RoundRobin,
}

/// The evaluation the evolved piece values play in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Evaluation {
    /// The engine's whole evaluation at its defaults (square tables, mobility, king safety,
    /// pawn structure, ...), the piece values replaced.
    #[default]
    Engine,
    /// The piece values alone: every other evaluation term is 0 (the search is the engine's).
    /// Belmonte's program scores material only (its §V proposes positional terms as future
    /// work). Measured (BENCHMARKS.md, session 20): in material-only play the search prefers
    /// pieces dearer than 1:3:3:5:9 (all × 1.5: +43 ± 29 Elo at 5,000 nodes), while in the whole
    /// evaluation the pieces' common scale against the pawn decides few games.
    Material,
}

impl Evaluation {
    fn is_engine(&self) -> bool {
        *self == Evaluation::Engine
    }
}

/// `tuner quick` settings (configs/quick/default.toml); every key is optional.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QuickConfig {
    /// The evochess binary playing every game (default: the one next to the tuner, as for
    /// every command: [`crate::paths::default_engine`]).
    pub engine: Option<PathBuf>,
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
    /// One game per comparison with the pivot black (the paper) or colour-swapped pairs.
    pub comparison: Comparison,
    /// Colour-swapped game pairs per comparison (`colour-pair`) or per member against the
    /// reference (`ranking = "reference"`); more than one needs `openings`, since node-limited
    /// games from one start position repeat.
    pub pairs: u32,
    /// The quick tournament (the paper) or scores against a fixed reference player.
    pub ranking: RankingMode,
    /// Repair every new genome to what it plays ([`mapping::playable`]): outside the ratios the
    /// engine's parameter ranges hold (a queen under 2 pawns, ...) alleles are not selected and
    /// drift, and the reported values stop being the played ones. The paper has no ranges: off.
    pub repair: bool,
    /// The reference player's parameter file (`ranking = "reference"`, or `anchor`); without one
    /// it is the engine with its built-in defaults.
    pub reference: Option<PathBuf>,
    /// With `ranking = "round-robin"`: the reference player joins every generation's round robin
    /// as a member that is ranked with nobody and never breeds. Inside a population that shares
    /// one over-valued piece set nothing punishes it (the pawn drifts down against every piece,
    /// BENCHMARKS.md); a fixed player with sound values is meant to, while the games between
    /// members still give a gradient where every member loses to it (measured in BENCHMARKS.md:
    /// it narrows the drift, it does not stop it). Off in the paper.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub anchor: bool,
    /// Fixes the pawn's allele at this value, so that only knight, bishop, rook and queen evolve,
    /// as ratios over it. The engine plays the ratios only (the pawn is always 100 cp), so with
    /// five free alleles the common scale is a direction no game can select: it drifts, and
    /// with it the ratios the allele range allows (a pawn allele of 2,400 caps the queen at
    /// 17,000 / 2,400 = 7 pawns; BENCHMARKS.md). Unset in the paper: five free alleles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pawn_allele: Option<i32>,
    /// The evaluation the piece values play in: the engine's whole one or material only. Left
    /// out of the serialised form at its default, so older run fingerprints stay valid.
    #[serde(skip_serializing_if = "Evaluation::is_engine")]
    pub evaluation: Evaluation,
    /// Optional opening book (EPD/PGN): each game starts from a random line of it; by default
    /// every game starts from the initial position, as in the paper.
    pub openings: Option<PathBuf>,
    /// Checkpoint, journals, PGN, CSV, SVG, parameter files.
    pub out_dir: PathBuf,
    /// Mutation probability per allele and noise (the paper's 0.4 and N(0, 400)).
    pub mutation: operators::MutationStep,
    /// Play the games on `tuner worker`s (`--broker`); not part of the run's identity.
    #[serde(skip)]
    pub broker: Option<crate::broker::BrokerConfig>,
}

impl Default for QuickConfig {
    /// Belmonte's R1 settings (population 12), with node-limited games.
    fn default() -> Self {
        QuickConfig {
            engine: None,
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
            pairs: 1,
            repair: false,
            ranking: RankingMode::QuickTournament,
            reference: None,
            anchor: false,
            pawn_allele: None,
            evaluation: Evaluation::Engine,
            openings: None,
            out_dir: PathBuf::from("runs/quick"),
            mutation: operators::MutationStep::default(),
            broker: None,
        }
    }
}

/// Why `tuner quick` stopped.
#[derive(Debug, Error)]
pub enum QuickError {
    #[error(transparent)]
    Run(#[from] crate::ga::error::RunError),
    #[error("config: {0}")]
    Config(String),
    #[error("game {white} vs {black}: {source}")]
    Game {
        white: String,
        black: String,
        #[source]
        source: Box<RunnerError>,
    },
    #[error(transparent)]
    Journal(#[from] arena::results::JournalError),
}

crate::command_error!(QuickError);

impl crate::paths::ConfigPaths for QuickConfig {
    fn input_paths() -> Vec<String> {
        crate::paths::keys(&["engine", "reference", "openings"])
    }
}

impl QuickConfig {
    /// The engine binary to run.
    pub fn engine_path(&self) -> PathBuf {
        self.engine.clone().unwrap_or_else(crate::paths::default_engine)
    }

    /// Reads a config file (unknown keys are errors that name the key); its relative input
    /// paths (`engine`, `reference`, `openings`) are relative to the file, `out_dir` to the
    /// working directory.
    pub fn load(path: &Path) -> Result<Self, QuickError> {
        crate::paths::load_config(path).map_err(|e| e.into_command(QuickError::io, QuickError::Config))
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
        let m = self.mutation;
        if !((0.0..=1.0).contains(&m.rate) && m.sigma >= 0.0 && m.sigma.is_finite()) {
            return bad(format!(
                "mutation: need rate in [0, 1] and a finite sigma >= 0, got rate {} sigma {}",
                m.rate, m.sigma
            ));
        }
        if !(m.sigma_decay > 0.0 && m.sigma_decay <= 1.0 && m.sigma_min >= 0.0 && m.sigma_min.is_finite()) {
            return bad(format!(
                "mutation: need sigma_decay in (0, 1] and a finite sigma_min >= 0, got sigma_decay {} sigma_min {}",
                m.sigma_decay, m.sigma_min
            ));
        }
        if self.pairs == 0 {
            return bad("pairs must be at least 1".into());
        }
        if self.pairs > 1 && self.ranking == RankingMode::QuickTournament && self.comparison == Comparison::PivotBlack {
            return bad("pairs > 1 needs comparison = \"colour-pair\" or ranking = \"reference\"".into());
        }
        if self.pairs > 1 && self.openings.is_none() {
            return bad("pairs > 1 needs `openings` (games from one start position repeat)".into());
        }
        if self.anchor && self.ranking != RankingMode::RoundRobin {
            return bad("`anchor` is only used with ranking = \"round-robin\"".into());
        }
        if let Some(p) = self.pawn_allele
            && !(operators::VALUE_MIN..=operators::VALUE_MAX).contains(&p)
        {
            return bad(format!(
                "pawn_allele = {p} is outside the allele range [{}, {}]",
                operators::VALUE_MIN,
                operators::VALUE_MAX
            ));
        }
        if let Some(r) = &self.reference {
            if self.ranking != RankingMode::Reference && !self.anchor {
                return bad("`reference` is only used with ranking = \"reference\" or `anchor = true`".into());
            }
            if !r.is_file() {
                return bad(format!("reference file `{}` does not exist", r.display()));
            }
        }
        if let Some(o) = &self.openings
            && !o.is_file()
            && crate::embedded_files::builtin(o).is_none()
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
        let c = QuickConfig { pairs: 0, ..QuickConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("pairs"));
        // Several pairs: not with one pivot-black game, and only from a book.
        let c = QuickConfig { pairs: 2, ..QuickConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("colour-pair"));
        let c = QuickConfig { pairs: 2, ranking: RankingMode::Reference, ..QuickConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("openings"));
        let c = QuickConfig { reference: Some("Cargo.toml".into()), ..QuickConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("reference"));
        let c = QuickConfig { anchor: true, ..QuickConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("`anchor`"));
        let c = QuickConfig { anchor: true, ranking: RankingMode::RoundRobin, ..QuickConfig::default() };
        c.validate().unwrap();
        let c = QuickConfig { reference: Some("no-such.toml".into()), ..c };
        assert!(c.validate().unwrap_err().to_string().contains("no-such.toml"));
        let c = QuickConfig { pawn_allele: Some(500), ..QuickConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("pawn_allele = 500"));
        QuickConfig { pawn_allele: Some(1500), ..QuickConfig::default() }.validate().unwrap();
        let c = QuickConfig {
            mutation: operators::MutationStep { rate: 1.5, ..operators::MutationStep::default() },
            ..QuickConfig::default()
        };
        assert!(c.validate().unwrap_err().to_string().contains("mutation"));
        let c: QuickConfig = toml::from_str("[mutation]\nsigma_decay = 1.2").unwrap();
        assert!(c.validate().unwrap_err().to_string().contains("sigma_decay 1.2"));
        let e = toml::from_str::<QuickConfig>("[mutation]\nsigma = 900\nsize = 2").unwrap_err().to_string();
        assert!(e.contains("size"), "{e}");
        let c: QuickConfig = toml::from_str("[mutation]\nsigma = 900").unwrap();
        assert_eq!((c.mutation.rate, c.mutation.sigma), (0.4, 900.0));
        let e = toml::from_str::<QuickConfig>("ranking = \"gauntlet\"").unwrap_err().to_string();
        assert!(e.contains("gauntlet"), "{e}");
        let e = toml::from_str::<QuickConfig>("evaluation = \"pst\"").unwrap_err().to_string();
        assert!(e.contains("pst"), "{e}");
        let c: QuickConfig = toml::from_str("evaluation = \"material\"").unwrap();
        assert_eq!(c.evaluation, Evaluation::Material);
    }
}
