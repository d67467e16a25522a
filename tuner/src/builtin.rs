//! The files the tuner's defaults name (configs and search spaces; the default opening book is
//! the arena's), built into the binary, so that every command works from any directory: a configured path
//! that exists is read from disk (files override the built-in copies); one that does not, but
//! names a built-in file the way the defaults do (`configs/spaces/evolve-paper.toml`), is served from
//! the binary.

use std::{io, path::Path};

use arena::openings::builtin::find as builtin_file;

/// Built-in files by their path relative to the repository root.
const FILES: &[(&str, &str)] = &[
    ("configs/evolve/default.toml", include_str!("../../configs/evolve/default.toml")),
    ("configs/spaces/evolve-paper.toml", include_str!("../../configs/spaces/evolve-paper.toml")),
    ("configs/spaces/evolve-full-gray.toml", include_str!("../../configs/spaces/evolve-full-gray.toml")),
    ("configs/spaces/evolve-full-integer.toml", include_str!("../../configs/spaces/evolve-full-integer.toml")),
    ("configs/evolve/full-mentor.toml", include_str!("../../configs/evolve/full-mentor.toml")),
    (
        "configs/spaces/evolve-paper-hand-set-others.toml",
        include_str!("../../configs/spaces/evolve-paper-hand-set-others.toml"),
    ),
    ("configs/spaces/texel-full.toml", include_str!("../../configs/spaces/texel-full.toml")),
    ("configs/coevolve/default.toml", include_str!("../../configs/coevolve/default.toml")),
    ("configs/coevolve/paper.toml", include_str!("../../configs/coevolve/paper.toml")),
    ("configs/spaces/coevolve-search.txt", include_str!("../../configs/spaces/coevolve-search.txt")),
    ("configs/search-evolve/default.toml", include_str!("../../configs/search-evolve/default.toml")),
    ("configs/spaces/search-evolve-paper.toml", include_str!("../../configs/spaces/search-evolve-paper.toml")),
    ("configs/quick/default.toml", include_str!("../../configs/quick/default.toml")),
    ("configs/roundrobin-ga/default.toml", include_str!("../../configs/roundrobin-ga/default.toml")),
    ("configs/spaces/roundrobin-ga-aksenov.toml", include_str!("../../configs/spaces/roundrobin-ga-aksenov.toml")),
    ("configs/pipeline/smoke.toml", include_str!("../../configs/pipeline/smoke.toml")),
    ("configs/pipeline/medium.toml", include_str!("../../configs/pipeline/medium.toml")),
    ("configs/pipeline/full.toml", include_str!("../../configs/pipeline/full.toml")),
    ("configs/pipeline/evol-star.toml", include_str!("../../configs/pipeline/evol-star.toml")),
];

/// The built-in copy of `path` (`configs/x.toml` or `./configs/x.toml`), if there is one.
pub fn builtin(path: &Path) -> Option<&'static str> {
    builtin_file(FILES, path).or_else(|| arena::openings::builtin::builtin(path))
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
}
