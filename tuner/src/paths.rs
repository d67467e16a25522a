//! Where the shared data lives: see [`evochess::data`].

use std::path::PathBuf;

pub use evochess::data::shared_data_dir as data_dir;

/// A configured path, or, when it does not exist and names a file under `shared/data/`, the same
/// file in [`data_dir`] (configs say `../shared/data/...`, true from the main checkout only).
pub fn resolve_data_path(path: &std::path::Path) -> PathBuf {
    if path.exists() {
        return path.to_path_buf();
    }
    let text = path.to_string_lossy();
    match (text.find("shared/data/"), data_dir()) {
        (Some(i), Some(dir)) => {
            let alt = dir.join(&text[i + "shared/data/".len()..]);
            if alt.exists() { alt } else { path.to_path_buf() }
        }
        _ => path.to_path_buf(),
    }
}

/// `evochess` next to the running executable (where cargo puts both binaries).
pub fn default_engine() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("tuner"));
    exe.with_file_name(format!("evochess{}", std::env::consts::EXE_SUFFIX))
}
