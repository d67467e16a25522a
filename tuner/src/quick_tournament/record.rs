//! What a quick-tournament run records: its members and each generation's result, shared by
//! the run (which makes them) and the report (which writes them), so neither imports the other.

use serde::{Deserialize, Serialize};

use super::operators::Values;

/// One member of the population.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Individual {
    /// Unique over the run (parameter file names).
    pub id: u64,
    /// Readable, unique within its generation (engine name in games and PGN).
    pub name: String,
    /// Pawn, knight, bishop, rook, queen in 800..17000.
    pub values: Values,
    /// How it entered this generation: `random`, `elite`, `kept`, `mutant of X`, `offspring of X+Y`.
    pub origin: String,
    /// Points and games over its whole life with `ranking = "reference"` (against the
    /// reference) or `"round-robin"` (against the population); elites and kept members carry
    /// them into the next generation.
    #[serde(default)]
    pub points: f64,
    #[serde(default)]
    pub games: u32,
}

impl Individual {
    /// Score against the reference, Laplace-smoothed: `(points + 1) / (games + 2)`, so a
    /// newcomer's first pair weighs less than a survivor's long record.
    pub fn reference_score(&self) -> f64 {
        (self.points + 1.0) / (f64::from(self.games) + 2.0)
    }
}

/// What one generation produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationRecord {
    pub generation: usize,
    /// Max-move cap its games used.
    pub cap: u32,
    /// Quick-sort comparisons (pivot against one member), one or two games each.
    pub comparisons: usize,
    /// Games played.
    pub games: usize,
    pub draws: usize,
    pub white_wins: usize,
    pub black_wins: usize,
    /// Games that reached the cap (decided by material or drawn on it).
    pub capped: usize,
    /// Mean game length in full moves.
    pub mean_moves: f64,
    /// The population ranked by the tournament, worst first.
    pub ranked: Vec<Individual>,
    /// Wall time (not part of the deterministic result).
    pub seconds: f64,
}
