//! Where the shared data lives (COMMON.md): `$EVOCHESS_DATA`, then `<repo>/../shared/data`,
//! then `/work/shared/data`.

use std::path::PathBuf;

/// The shared data directory, if one exists.
pub fn data_dir() -> Option<PathBuf> {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    std::env::var_os("EVOCHESS_DATA")
        .map(PathBuf::from)
        .into_iter()
        .chain([repo.join("../shared/data"), PathBuf::from("/work/shared/data")])
        .find(|p| p.is_dir())
}
