//! Test data. Small fixtures live in the repository under `tests/data/` (see its README), so a
//! clean clone tests itself. The big shared data set (full test suites, GM games, every Syzygy
//! table) lives outside it: `$EVOCHESS_DATA`, else `../shared/data` next to the repository, as on
//! CI; tests that need it are `#[ignore = "needs ../shared/data"]` and fail when it is missing.

use std::path::{Path, PathBuf};

/// The repository's own fixtures (`tests/data/`), wherever the checkout is.
pub fn fixtures_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data"))
}

/// A file or directory of the repository's fixtures.
pub fn fixture(rel: &str) -> PathBuf {
    fixtures_dir().join(rel)
}

/// The shared data directory, if one exists.
pub fn shared_data_dir() -> Option<PathBuf> {
    std::env::var_os("EVOCHESS_DATA")
        .map(PathBuf::from)
        .into_iter()
        .chain([PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data"))])
        .find(|p| p.is_dir())
}

/// A path of the shared data set was asked for and is not there.
#[derive(Debug, thiserror::Error)]
#[error(
    "shared data `{rel}` not found: set EVOCHESS_DATA to the data set's directory or put it at \
     ../shared/data next to the repository"
)]
pub struct MissingData {
    /// The path asked for, relative to the data directory.
    pub rel: String,
}

/// A file or directory of the shared data set (`tests/wac.epd`, `syzygy`, ...).
///
/// # Errors
/// [`MissingData`] when there is no data directory or it lacks `rel`.
pub fn shared_data(rel: &str) -> Result<PathBuf, MissingData> {
    shared_data_dir().map(|d| d.join(rel)).filter(|p| p.exists()).ok_or_else(|| MissingData { rel: rel.to_string() })
}
