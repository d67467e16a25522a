//! Where the shared data set lives (test suites, GM games, Syzygy tables): `$EVOCHESS_DATA`,
//! else `../shared/data` next to the repository, as on CI. The data is never committed.

use std::path::PathBuf;

/// The shared data directory, if one exists.
pub fn shared_data_dir() -> Option<PathBuf> {
    std::env::var_os("EVOCHESS_DATA")
        .map(PathBuf::from)
        .into_iter()
        .chain([PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data"))])
        .find(|p| p.is_dir())
}
