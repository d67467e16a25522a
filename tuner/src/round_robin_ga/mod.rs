//! `tuner roundrobin-ga`: Aksenov 2004's genetic algorithm over the 26 evaluation parameters of
//! his Table 3, with a round robin as the fitness function.
//!
//! * Population of 10: nine evolving players and the reference player `const` (Table 3's
//!   recommended piece values, every other parameter mid-range), which never breeds and plays
//!   every generation.
//! * Every pair plays two games (`games_per_pair`), one with each colour, at fixed depth (3), played to the end
//!   under the FIDE draw rules (stalemate, threefold repetition, 50 moves), with a resign
//!   threshold (score below `-resign_score` twice in a row). Fitness = points / (games_per_pair (N - 1)).
//! * Roulette wheel, Fig. 17 crossover with `p_c` = 0.5, random-reset mutation with `p_m` =
//!   0.01, 40 generations ([`breed`]).
//! * Output per generation: the cross table in Table 6's layout, as text and CSV ([`table`]);
//!   the reference player's place (Fig. 21) and the average parameter values (Fig. 22), as CSV
//!   and SVG ([`report`]); the best player's parameter file; then the verification matches of
//!   §6.3 ([`run`]).

pub mod breed;
pub mod record;
pub mod report;
pub mod run;
pub mod table;

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use arena::runner::RunnerError;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ga::operators::Selection;

/// The reference player of the thesis (Appendix A, column `const`): Table 3's recommended piece
/// values and the middle of every other range (7 for [0, 15], 3 for [0, 5]).
pub const APPENDIX_A_REFERENCE: [(&str, i32); 26] = [
    ("queen", 900),
    ("rook", 500),
    ("bishop", 340),
    ("knight", 330),
    ("pawn", 100),
    ("bishop_pair", 20),
    ("castling_done", 20),
    ("castling_missed", 25),
    ("rook_open_file", 15),
    ("rook_semi_open_file", 15),
    ("rook_connected", 10),
    ("rook_7th_rank", 15),
    ("knight_outpost_mult", 20),
    ("bishop_outpost", 15),
    ("knight_mobility_high", 15),
    ("adjacent_pawn", 3),
    ("passed_pawn_mult", 20),
    ("rook_supported_passer", 20),
    ("centre_pawn", 15),
    ("doubled_pawn_penalty", 15),
    ("backward_pawn_penalty", 15),
    ("blocked_centre_pawn", 7),
    ("isolated_pawn_penalty", 10),
    ("bishop_first_rank", 10),
    ("knight_first_rank", 15),
    ("far_pawn", 15),
];

/// The final verification matches (§6.3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct VerifyConfig {
    /// Games per match (the thesis: 20); 0 skips verification.
    pub games: u32,
    /// Opening book, each opening played twice with colours swapped. Depth-limited engines are
    /// deterministic, so without a book a match would repeat the same two games.
    pub openings: Option<PathBuf>,
    /// Which individual of the initial population is the "random" opponent (1-based; the
    /// thesis took individual 6 of the first generation).
    pub random_individual: usize,
    /// Also play `games` against each of this many fresh random individuals (their own RNG
    /// stream, not ancestors of the best): one random individual is a sample of one, and the
    /// thesis's individual 6 may be weak or strong by chance.
    pub fresh_random: usize,
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig {
            games: 100,
            openings: Some(PathBuf::from("openings/gnuchess-8ply.epd")),
            random_individual: 6,
            fresh_random: 0,
        }
    }
}

/// `tuner roundrobin-ga` settings (configs/roundrobin-ga/default.toml); every key is optional.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RoundRobinGaConfig {
    /// The evochess binary playing every game (default: the one next to the tuner, as for
    /// every command: [`crate::paths::default_engine`]).
    pub engine: Option<PathBuf>,
    /// UCI options sent to every engine process.
    pub engine_options: BTreeMap<String, String>,
    /// Search space (the 26 genes of Table 3).
    pub space: PathBuf,
    pub seed: u64,
    /// Players per tournament, the reference player included.
    pub population: usize,
    pub generations: usize,
    /// Search depth of every move (`go depth N`).
    pub depth: u32,
    /// Games each pair plays per generation, colours alternating (the thesis: 2). More games
    /// (from an opening book: depth-limited engines are deterministic) make the fitness less noisy.
    pub games_per_pair: u32,
    pub crossover_rate: f64,
    pub mutation_rate: f64,
    /// Parent selection: the thesis's roulette wheel, or `{ kind = "rank" }` /
    /// `{ kind = "tournament", size = N }`. With every player scoring 40-60 % of its games, the
    /// roulette's chances differ by about ±15 % (see BENCHMARKS.md), so selection barely acts.
    pub selection: Selection,
    /// Best players copied unchanged into the next generation (the thesis: 0).
    pub elitism: usize,
    /// Resign when the own score is at or below `-resign_score` centipawns for
    /// `resign_movecount` consecutive moves.
    pub resign_score: i32,
    pub resign_movecount: u32,
    /// Optional length cap (full moves; the game is then drawn). The thesis had none.
    pub max_moves: Option<u32>,
    /// Reference player's gene values by gene name; unlisted genes take the middle of their range.
    pub reference: BTreeMap<String, i32>,
    /// Optional book for the GA's games (the thesis started every game from the initial position).
    pub openings: Option<PathBuf>,
    /// Games played at once.
    pub concurrency: usize,
    pub out_dir: PathBuf,
    /// Where the best player's parameter file goes (default `<out_dir>/best.toml`).
    pub params_out: Option<PathBuf>,
    pub verify: VerifyConfig,
    /// Play the games on `tuner worker`s (`--broker`); not part of the run's identity.
    #[serde(skip)]
    pub broker: Option<crate::broker::BrokerConfig>,
}

impl Default for RoundRobinGaConfig {
    /// Aksenov §6.1: 10 players, depth 3, p_c = 0.5, p_m = 0.01, 40 generations.
    fn default() -> Self {
        RoundRobinGaConfig {
            engine: None,
            engine_options: BTreeMap::new(),
            space: PathBuf::from("configs/spaces/roundrobin-ga-aksenov.toml"),
            seed: 1,
            population: 10,
            generations: 40,
            depth: 3,
            games_per_pair: 2,
            crossover_rate: 0.5,
            mutation_rate: 0.01,
            selection: Selection::Roulette,
            elitism: 0,
            resign_score: 400,
            resign_movecount: 2,
            max_moves: None,
            reference: APPENDIX_A_REFERENCE.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
            openings: None,
            concurrency: 2,
            out_dir: PathBuf::from("runs/roundrobin-ga"),
            params_out: None,
            verify: VerifyConfig::default(),
            broker: None,
        }
    }
}

/// Why `tuner roundrobin-ga` stopped.
#[derive(Debug, Error)]
pub enum RoundRobinGaError {
    #[error(transparent)]
    Run(#[from] crate::ga::error::RunError),
    #[error("config: {0}")]
    Config(String),
    #[error("{what}: {source}")]
    Match {
        what: String,
        #[source]
        source: Box<RunnerError>,
    },
}

crate::command_error!(RoundRobinGaError);

impl crate::paths::ConfigPaths for RoundRobinGaConfig {
    fn input_paths() -> Vec<String> {
        crate::paths::keys(&["engine", "space", "openings", "verify.openings"])
    }
}

impl RoundRobinGaConfig {
    /// The engine binary to run.
    pub fn engine_path(&self) -> PathBuf {
        self.engine.clone().unwrap_or_else(crate::paths::default_engine)
    }

    /// Reads a config file (unknown keys are errors that name the key); its relative input
    /// paths (`engine`, `space`, `openings`, `verify.openings`) are relative to the file,
    /// `out_dir` and `params_out` to the working directory.
    pub fn load(path: &Path) -> Result<Self, RoundRobinGaError> {
        crate::paths::load_config(path).map_err(|e| e.into_command(RoundRobinGaError::io, RoundRobinGaError::Config))
    }

    pub fn validate(&self) -> Result<(), RoundRobinGaError> {
        let bad = |m: String| Err(RoundRobinGaError::Config(m));
        if self.population < 3 {
            return bad(format!(
                "population must be at least 3 (two players and the reference), got {}",
                self.population
            ));
        }
        if self.generations == 0 {
            return bad("generations must be at least 1".into());
        }
        if self.depth == 0 {
            return bad("depth must be at least 1".into());
        }
        if self.games_per_pair == 0 || !self.games_per_pair.is_multiple_of(2) {
            return bad(format!(
                "games_per_pair must be even and positive (both colours), got {}",
                self.games_per_pair
            ));
        }
        if self.games_per_pair > 2 && self.openings.is_none() {
            return bad(format!(
                "games_per_pair = {} repeats the same two games without an opening book: set openings",
                self.games_per_pair
            ));
        }
        for (k, v) in [("crossover_rate", self.crossover_rate), ("mutation_rate", self.mutation_rate)] {
            if !(0.0..=1.0).contains(&v) {
                return bad(format!("{k} = {v} is not a probability in [0, 1]"));
            }
        }
        if self.elitism >= self.population - 1 {
            return bad(format!(
                "elitism = {} must leave room for offspring among the {} evolving players",
                self.elitism,
                self.population - 1
            ));
        }
        if let Selection::Tournament { size: 0 } = self.selection {
            return bad("selection: a tournament needs size >= 1".into());
        }
        if let Selection::Rank { pressure } = self.selection
            && !(1.0..=2.0).contains(&pressure)
        {
            return bad(format!("selection: rank pressure must be in [1, 2], got {pressure}"));
        }
        if self.resign_score <= 0 || self.resign_movecount == 0 {
            return bad("resign_score and resign_movecount must be positive".into());
        }
        if self.max_moves == Some(0) {
            return bad("max_moves must be positive".into());
        }
        if self.verify.games % 2 == 1 {
            return bad(format!("verify.games must be even (colour-swapped pairs), got {}", self.verify.games));
        }
        if self.verify.games > 0 && !(1..self.population).contains(&self.verify.random_individual) {
            return bad(format!(
                "verify.random_individual must be in 1..={}, got {}",
                self.population - 1,
                self.verify.random_individual
            ));
        }
        for f in [self.openings.as_ref(), self.verify.openings.as_ref().filter(|_| self.verify.games > 0)]
            .into_iter()
            .flatten()
        {
            if !f.is_file() && crate::embedded_files::builtin(f).is_none() {
                return bad(format!("openings file `{}` does not exist", f.display()));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_errors_name_the_problem() {
        let c = RoundRobinGaConfig { crossover_rate: 1.5, ..RoundRobinGaConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("crossover_rate"));
        let c = RoundRobinGaConfig {
            verify: VerifyConfig { games: 3, ..VerifyConfig::default() },
            ..RoundRobinGaConfig::default()
        };
        assert!(c.validate().unwrap_err().to_string().contains("even"));
        let e = toml::from_str::<RoundRobinGaConfig>("[verify]\ngame = 3").unwrap_err().to_string();
        assert!(e.contains("game"), "{e}");
        let c = RoundRobinGaConfig { elitism: 9, ..RoundRobinGaConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("elitism"));
        let c = RoundRobinGaConfig { selection: Selection::Tournament { size: 0 }, ..RoundRobinGaConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("tournament"));
        let c: RoundRobinGaConfig =
            toml::from_str("elitism = 1\nselection = { kind = \"tournament\", size = 3 }").unwrap();
        assert_eq!((c.elitism, c.selection.clone()), (1, Selection::Tournament { size: 3 }));
        assert!(c.validate().is_ok());
    }
}
