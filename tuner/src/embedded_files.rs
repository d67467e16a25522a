//! The files the tuner's defaults name (configs and search spaces; the default opening book is
//! the arena's), built into the binary, so that every command works from any directory: a configured path
//! that exists is read from disk (files override the built-in copies); one that does not, but
//! names a built-in file the way the defaults do (`configs/spaces/evolve-paper.toml`), is served from
//! the binary.

use std::{io, path::Path};

use arena::openings::builtin::find as builtin_file;

/// `(path, include_str!(path))` for each path relative to the repository root.
macro_rules! files {
    ($($path:literal,)*) => {
        &[$(($path, include_str!(concat!("../../", $path))),)*]
    };
}

/// Built-in files by their path relative to the repository root: every file under `configs/`
/// but its README (`every_shipped_config_is_built_in` holds the list to the directory).
const FILES: &[(&str, &str)] = files![
    "configs/coevolve/compare-ga-coevolve.toml",
    "configs/coevolve/default.toml",
    "configs/coevolve/es-25k.toml",
    "configs/coevolve/paper-racing-gated.toml",
    "configs/coevolve/paper-scale.toml",
    "configs/coevolve/paper-sound.toml",
    "configs/coevolve/paper.toml",
    "configs/evolve/compare-cmaes.toml",
    "configs/evolve/compare-ga-coevolve.toml",
    "configs/evolve/compare-ga.toml",
    "configs/evolve/compare-spsa.toml",
    "configs/evolve/default.toml",
    "configs/evolve/full-mentor-refine.toml",
    "configs/evolve/full-mentor-walk.toml",
    "configs/evolve/full-mentor.toml",
    "configs/pipeline/evol-star.toml",
    "configs/pipeline/full.toml",
    "configs/pipeline/medium.toml",
    "configs/pipeline/smoke.toml",
    "configs/quick/anchored.toml",
    "configs/quick/default.toml",
    "configs/roundrobin-ga/default.toml",
    "configs/search-evolve/default.toml",
    "configs/spaces/coevolve-search.txt",
    "configs/spaces/evolve-full-gray.toml",
    "configs/spaces/evolve-full-integer.toml",
    "configs/spaces/evolve-paper-hand-set-others.toml",
    "configs/spaces/evolve-paper.toml",
    "configs/spaces/roundrobin-ga-aksenov.toml",
    "configs/spaces/search-evolve-paper.toml",
    "configs/spaces/spsa-search.txt",
    "configs/spaces/texel-complexity.toml",
    "configs/spaces/texel-fixed-material.toml",
    "configs/spaces/texel-full.toml",
    "configs/spaces/texel-king-danger.toml",
    "configs/spaces/texel-ks-held.toml",
    "configs/spaces/texel-linear.toml",
    "configs/spaces/texel-sf11-terms.toml",
    "configs/spsa/coevolve-search.toml",
    "configs/spsa/compare.toml",
    "configs/spsa/search.toml",
    "configs/texel/compare.toml",
    "configs/texel/default.toml",
    "configs/texel/gradient.toml",
    "configs/texel/selfplay-5m-complexity.toml",
    "configs/texel/selfplay-5m-cx.toml",
    "configs/texel/selfplay-5m-f5.toml",
    "configs/texel/selfplay-5m-ks.toml",
    "configs/texel/selfplay-5m-psq.toml",
    "configs/texel/selfplay-5m-shield.toml",
    "configs/texel/selfplay-5m-terms.toml",
    "configs/texel/selfplay-5m.toml",
    "configs/texel/selfplay-750k.toml",
    "configs/texel/selfplay-from-material.toml",
    "configs/texel/selfplay-king-danger.toml",
    "configs/texel/selfplay.toml",
    "configs/texel/selfplay3-target.toml",
    "configs/texel/selfplay3.toml",
    "configs/texel/selfplay4-complexity.toml",
    "configs/texel/selfplay4-full.toml",
    "configs/texel/selfplay4-sf11.toml",
    "configs/texel/selfplay4.toml",
];

/// The built-in copy of `path` (`configs/x.toml` or `./configs/x.toml`), if there is one.
pub fn builtin(path: &Path) -> Option<&'static str> {
    builtin_file(FILES, path).or_else(|| arena::openings::builtin::builtin(path))
}

/// The names of the shipped configs of `command` (`configs/<command>/<name>.toml`), sorted: what
/// `--config <name>` selects.
pub fn shipped_configs(command: &str) -> Vec<&'static str> {
    let prefix = format!("configs/{command}/");
    let mut names: Vec<&str> =
        FILES.iter().filter_map(|(path, _)| path.strip_prefix(prefix.as_str())?.strip_suffix(".toml")).collect();
    names.sort_unstable();
    names
}

/// The text of `path` from disk, or its built-in copy when no such file exists. The file is
/// read through [`evochess::input`] (a regular file, at most
/// [`MAX_CONFIG_BYTES`](evochess::input::MAX_CONFIG_BYTES)); the error leaves naming the file
/// to the caller.
pub fn read_text(path: &Path) -> io::Result<String> {
    if let Err(e) = std::fs::metadata(path) {
        return match builtin(path) {
            Some(text) if e.kind() == io::ErrorKind::NotFound => Ok(text.to_string()),
            _ => Err(e),
        };
    }
    evochess::input::read_text(path, evochess::input::MAX_CONFIG_BYTES).map_err(|e| io::Error::other(e.reason()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_resolve_to_the_built_in_copies_and_files_win() {
        let dir = std::env::temp_dir().join(format!("evochess-builtin-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("configs/spaces")).unwrap();
        let space = dir.join("configs/spaces/evolve-paper.toml");
        // Not on disk under `dir`: relative names find the built-in copy from any directory.
        assert_eq!(
            builtin(Path::new("./configs/spaces/evolve-paper.toml")),
            builtin(Path::new("configs/spaces/evolve-paper.toml"))
        );
        assert!(builtin(Path::new("configs/spaces/evolve-paper.toml")).unwrap().contains("knight_value"));
        assert!(builtin(Path::new("configs/no-such.toml")).is_none());
        assert!(builtin(&space).is_none(), "absolute paths are the user's own");
        let e = read_text(&dir.join("configs/no-such.toml")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        // A file on disk overrides the built-in copy.
        std::fs::write(&space, "encoding = \"gray\"\n").unwrap();
        assert_eq!(read_text(&space).unwrap(), "encoding = \"gray\"\n");
        // Only regular files are read: a device never ends, a FIFO would block.
        assert!(read_text(Path::new("/dev/zero")).unwrap_err().to_string().contains("not a regular file"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every file under the repository's `configs/` but its README, read from the directory now.
    fn files_under_configs() -> Vec<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut found = Vec::new();
        let mut dirs = vec![root.join("configs")];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.file_name().is_some_and(|n| n != "README.md") {
                    found.push(path.strip_prefix(&root).unwrap().to_str().unwrap().to_string());
                }
            }
        }
        found.sort();
        found
    }

    #[test]
    fn every_shipped_config_is_built_in() {
        let on_disk = files_under_configs();
        let mut built_in: Vec<String> = FILES.iter().map(|(p, _)| (*p).to_string()).collect();
        built_in.sort();
        assert!(on_disk.len() > 40, "{on_disk:?}");
        assert_eq!(
            built_in, on_disk,
            "tuner/src/embedded_files.rs FILES must list every file under configs/ (README aside)"
        );
    }

    #[test]
    fn shipped_configs_are_listed_by_command() {
        assert_eq!(shipped_configs("quick"), ["anchored", "default"]);
        assert!(shipped_configs("coevolve").contains(&"paper"));
        assert!(shipped_configs("no-such-command").is_empty());
    }
}
