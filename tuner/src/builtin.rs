//! The files the tuner's defaults name (configs, search spaces, the default opening book),
//! built into the binary, so that every command works from any directory: a configured path
//! that exists is read from disk (files override the built-in copies); one that does not, but
//! names a built-in file the way the defaults do (`params/evolve-space.toml`), is served from
//! the binary.

use std::{
    io,
    path::{Component, Path},
};

/// Built-in files by their path relative to the repository root.
const FILES: &[(&str, &str)] = &[
    ("params/evolve.toml", include_str!("../../params/evolve.toml")),
    ("params/evolve-space.toml", include_str!("../../params/evolve-space.toml")),
    ("params/evolve-full-space.toml", include_str!("../../params/evolve-full-space.toml")),
    ("params/evolve-full-space-integer.toml", include_str!("../../params/evolve-full-space-integer.toml")),
    ("params/evolve-full-mentor.toml", include_str!("../../params/evolve-full-mentor.toml")),
    ("params/evolve-space-hand-set-others.toml", include_str!("../../params/evolve-space-hand-set-others.toml")),
    ("params/coevolve.toml", include_str!("../../params/coevolve.toml")),
    ("params/search-evolve.toml", include_str!("../../params/search-evolve.toml")),
    ("params/search-space.toml", include_str!("../../params/search-space.toml")),
    ("params/quick.toml", include_str!("../../params/quick.toml")),
    ("params/rrga.toml", include_str!("../../params/rrga.toml")),
    ("params/aksenov-space.toml", include_str!("../../params/aksenov-space.toml")),
    ("params/pipeline-smoke.toml", include_str!("../../params/pipeline-smoke.toml")),
    ("params/pipeline-medium.toml", include_str!("../../params/pipeline-medium.toml")),
    ("params/pipeline-full.toml", include_str!("../../params/pipeline-full.toml")),
    ("params/pipeline-evol-star.toml", include_str!("../../params/pipeline-evol-star.toml")),
];

/// The built-in copy of `path` (`params/x.toml` or `./params/x.toml`), if there is one.
pub fn builtin(path: &Path) -> Option<&'static str> {
    let parts: Vec<&str> = path
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<_>>()?;
    let key = parts.join("/");
    FILES
        .iter()
        .find(|(name, _)| *name == key)
        .map(|(_, text)| *text)
        .or_else(|| arena::openings::builtin::builtin(path))
}

/// The text of `path` from disk, or its built-in copy when no such file exists.
pub fn read_text(path: &Path) -> io::Result<String> {
    match std::fs::read_to_string(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => builtin(path).map(str::to_string).ok_or(e),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_resolve_to_the_built_in_copies_and_files_win() {
        let dir = std::env::temp_dir().join(format!("evochess-builtin-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("params")).unwrap();
        let space = dir.join("params/evolve-space.toml");
        // Not on disk under `dir`: relative names find the built-in copy from any directory.
        assert_eq!(builtin(Path::new("./params/evolve-space.toml")), builtin(Path::new("params/evolve-space.toml")));
        assert!(builtin(Path::new("params/evolve-space.toml")).unwrap().contains("knight_value"));
        assert!(builtin(Path::new("params/no-such.toml")).is_none());
        assert!(builtin(&space).is_none(), "absolute paths are the user's own");
        let e = read_text(&dir.join("params/no-such.toml")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        // A file on disk overrides the built-in copy.
        std::fs::write(&space, "encoding = \"gray\"\n").unwrap();
        assert_eq!(read_text(&space).unwrap(), "encoding = \"gray\"\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
