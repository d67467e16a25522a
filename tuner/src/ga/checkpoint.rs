//! Run checkpoints: the evaluated population of the last finished generation and the history,
//! written atomically (temporary file + rename) after every generation. No RNG state is
//! stored: generation `g`'s RNG is derived from `(seed, run, g)` (see [`crate::ga::generation_rng`]).

use std::path::Path;

use serde::{Deserialize, Serialize};

use thiserror::Error;

use super::{Genome, report::GenerationStats};
use crate::files::write_atomic;

/// A checkpoint that cannot be written or read back.
#[derive(Debug, Error)]
#[error("checkpoint {path}: {reason}")]
pub struct CheckpointError {
    pub path: String,
    pub reason: String,
}

impl CheckpointError {
    fn new(path: &Path, reason: impl ToString) -> Self {
        CheckpointError { path: path.display().to_string(), reason: reason.to_string() }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Hash of everything that determines the run (config, space, positions); resuming with
    /// different inputs is refused.
    pub fingerprint: String,
    pub run: usize,
    /// Last generation whose population is evaluated below.
    pub generation: usize,
    pub population: Vec<Genome>,
    pub fitness: Vec<f64>,
    pub metric: Vec<f64>,
    pub history: Vec<GenerationStats>,
}

impl Checkpoint {
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let json = serde_json::to_string(self).expect("checkpoints serialise");
        write_atomic(path, json.as_bytes()).map_err(|e| CheckpointError::new(path, e))
    }

    /// `None` when there is no checkpoint file.
    pub fn load(path: &Path) -> Result<Option<Self>, CheckpointError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(CheckpointError::new(path, e)),
        };
        serde_json::from_str(&text).map(Some).map_err(|e| CheckpointError::new(path, e))
    }
}
