//! Run checkpoints: the last evaluated generation and the history, written atomically
//! (temporary file + rename) after every generation. No RNG state is stored: generation `g`'s
//! RNG is derived from `(seed, run, g)` (see [`crate::ga::generation_rng`]).

use std::path::Path;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use thiserror::Error;

use arena::files::write_atomic;

/// A checkpoint that cannot be written or read back, or that belongs to another run.
#[derive(Debug, Error)]
#[error("checkpoint {path}: {reason}")]
pub struct CheckpointError {
    pub path: String,
    pub reason: String,
}

impl CheckpointError {
    pub fn new(path: &Path, reason: impl ToString) -> Self {
        CheckpointError { path: path.display().to_string(), reason: reason.to_string() }
    }
}

/// A run's fingerprint: the hash of every input that determines its result, given as text
/// parts (the config as JSON with the keys that may change on resume blanked, the search
/// space's text, the positions ...), one per line; 16 hex digits.
pub fn fingerprint<S: AsRef<str>>(parts: &[S]) -> String {
    let text: Vec<&str> = parts.iter().map(AsRef::as_ref).collect();
    format!("{:016x}", crate::hash::fnv1a(&text.join("\n")))
}

/// `S` is what a command keeps of its evaluated generation (for genome commands
/// [`super::driver::Population`]: organisms, fitness, metric), flattened into the top level;
/// `R` is its per-generation record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint<S, R> {
    /// Hash of everything that determines the run (config, space, positions); resuming with
    /// different inputs is refused.
    pub fingerprint: String,
    #[serde(default)]
    pub run: usize,
    /// Last generation evaluated in `state`.
    pub generation: usize,
    #[serde(flatten)]
    pub state: S,
    pub history: Vec<R>,
}

impl<S: Serialize + DeserializeOwned, R: Serialize + DeserializeOwned> Checkpoint<S, R> {
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let json = serde_json::to_string(self).map_err(|e| CheckpointError::new(path, e))?;
        write_atomic(path, json.as_bytes()).map_err(|e| CheckpointError::new(path, e))
    }

    /// `None` when there is no checkpoint file.
    pub fn load(path: &Path) -> Result<Option<Self>, CheckpointError> {
        if std::fs::metadata(path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
            return Ok(None);
        }
        let text = evochess::input::read_text(path, evochess::input::MAX_DATA_BYTES)
            .map_err(|e| CheckpointError::new(path, e.reason()))?;
        serde_json::from_str(&text).map(Some).map_err(|e| CheckpointError::new(path, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fingerprint_hashes_its_parts_line_by_line() {
        // The recipe evolve, search-evolve and coevolve used before sharing this function, so
        // their existing checkpoints keep resuming.
        let old = format!("{:016x}", crate::hash::fnv1a("config\nspace\ngenomes"));
        assert_eq!(fingerprint(&["config", "space", "genomes"]), old);
        assert_ne!(fingerprint(&["config", "space"]), fingerprint(&["config", "another space"]));
    }
}
