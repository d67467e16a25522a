//! What a round-robin GA run records of each generation, shared by the run (which makes it)
//! and the report (which writes it), so neither imports the other.

use serde::{Deserialize, Serialize};

use super::table::CrossTable;

/// One generation's tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationRecord {
    pub generation: usize,
    /// Gene values of players `1..N-1` (the reference is fixed).
    pub players: Vec<Vec<i32>>,
    pub table: CrossTable,
    pub seconds: f64,
}

impl GenerationRecord {
    /// Points of every player, the reference last.
    pub fn points(&self) -> Vec<f64> {
        self.table.points()
    }

    /// Index (0-based, among players `1..N-1`) of the best evolving player; lowest index on ties.
    pub fn best(&self) -> usize {
        let p = self.points();
        let n = self.players.len();
        (0..n).fold(0, |b, i| if p[i] > p[b] { i } else { b })
    }

    /// The reference player's place range.
    pub fn reference_place(&self) -> (usize, usize) {
        *super::table::places(&self.points()).last().expect("reference plays")
    }
}
