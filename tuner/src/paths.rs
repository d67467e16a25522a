//! Where the shared data lives: see [`evochess::data`].

use std::path::{Component, Path, PathBuf};

pub use evochess::data::shared_data_dir as data_dir;

/// A configured path, or, when it does not exist and names a file under `shared/data/`, the same
/// file in [`data_dir`] (configs say `../shared/data/...`, true from the main checkout only).
pub fn resolve_data_path(path: &Path) -> PathBuf {
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

/// `evochess` next to the running executable (where cargo puts both binaries): every command's
/// default engine.
pub fn default_engine() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("tuner"));
    exe.with_file_name(format!("evochess{}", std::env::consts::EXE_SUFFIX))
}

/// A path written in the config file `config`: a relative one is relative to the file's
/// directory, so a config works from any working directory. `.` and `dir/..` are folded
/// lexically, so the same file named two ways gives one run fingerprint.
pub fn in_config(config: &Path, path: &Path) -> PathBuf {
    if path.as_os_str().is_empty() || path.is_absolute() {
        return path.to_path_buf();
    }
    let mut out = PathBuf::new();
    for c in config.parent().unwrap_or(Path::new("")).join(path).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Applies [`in_config`] to the input paths of a config read from `config`, key by key: only the
/// keys the file sets (`given`, the file as a table), so a built-in default is left as it is.
pub fn rebase_given(config: &Path, given: &toml::Table, paths: &mut [(&str, &mut dyn RebasePaths)]) {
    for (key, value) in paths {
        if given.contains_key(*key) {
            value.rebase(config);
        }
    }
}

/// A config value holding paths.
pub trait RebasePaths {
    fn rebase(&mut self, config: &Path);
}

impl RebasePaths for PathBuf {
    fn rebase(&mut self, config: &Path) {
        *self = in_config(config, self);
    }
}

impl<T: RebasePaths> RebasePaths for Option<T> {
    fn rebase(&mut self, config: &Path) {
        if let Some(p) = self {
            p.rebase(config);
        }
    }
}

impl<T: RebasePaths> RebasePaths for Vec<T> {
    fn rebase(&mut self, config: &Path) {
        for p in self {
            p.rebase(config);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_paths_are_relative_to_the_config_file() {
        let at = |c: &str, p: &str| in_config(Path::new(c), Path::new(p));
        assert_eq!(at("configs/spsa/search.toml", "../spaces/x.txt"), Path::new("configs/spaces/x.txt"));
        assert_eq!(at("./configs/spsa/search.toml", "./../spaces/x.txt"), Path::new("configs/spaces/x.txt"));
        assert_eq!(at("/r/configs/texel/a.toml", "../../../shared/d.pgn"), Path::new("/shared/d.pgn"));
        assert_eq!(at("configs/texel/a.toml", "../../../shared/d.pgn"), Path::new("../shared/d.pgn"));
        assert_eq!(at("a.toml", "s.toml"), Path::new("s.toml"));
        assert_eq!(at("/r/a.toml", "/abs/s.toml"), Path::new("/abs/s.toml"));
        assert_eq!(at("/r/a.toml", ""), Path::new(""));
    }
}
