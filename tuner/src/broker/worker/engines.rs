//! The engines file: the programs a worker may run, and the options and tablebases it allows.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use serde::Deserialize;

use super::WorkerError;
use crate::broker::allow::{AllowList, OptionRule};

/// One program a worker may run, from its engines file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocalProgram {
    pub cmd: PathBuf,
    #[serde(default)]
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// The options a task may set (`[engines.NAME.options]`, see [`crate::broker::allow`]).
    #[serde(default)]
    pub options: BTreeMap<String, OptionRule>,
    /// Whether `options` come on top of the default allow-list (else they are all there is).
    #[serde(default = "yes")]
    pub default_options: bool,
    /// `options` over the defaults, as checked.
    #[serde(skip)]
    pub allow: AllowList,
}

fn yes() -> bool {
    true
}

impl LocalProgram {
    /// `cmd` with no arguments, directory or options of its own: the default allow-list.
    pub fn command(cmd: PathBuf) -> LocalProgram {
        LocalProgram {
            cmd,
            args: Vec::new(),
            dir: None,
            options: BTreeMap::new(),
            default_options: true,
            allow: AllowList::defaults(),
        }
    }
}

/// `engines.toml`: `[engines.NAME] cmd = "..." args = [...] dir = "..."`, NAME being the file
/// name of the coordinator's command (`evochess`, `stockfish`, ...), with the options a task may
/// set in `[engines.NAME.options]`; `tb_dirs = [...]`: where a run's adjudication tablebases
/// (`-tb`) may be.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnginesFile {
    #[serde(default)]
    pub tb_dirs: Vec<PathBuf>,
    #[serde(default)]
    pub engines: BTreeMap<String, LocalProgram>,
}

impl EnginesFile {
    pub fn load(path: &Path) -> Result<EnginesFile, WorkerError> {
        let bad = |reason: String| WorkerError::Engines { path: path.display().to_string(), reason };
        // Bounded, and only a regular file: a FIFO or `/dev/zero` must not hang the worker.
        let text = evochess::input::read_text(path, 1 << 20).map_err(|e| bad(e.to_string()))?;
        let file: EnginesFile = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut out =
            EnginesFile { tb_dirs: file.tb_dirs.iter().map(|d| base.join(d)).collect(), ..EnginesFile::default() };
        for (name, mut p) in file.engines {
            p.allow = AllowList::from_file(&p.options, p.default_options, base)
                .map_err(|e| bad(format!("engines.{name}.options: {e}")))?;
            // Relative paths are the file's, not the worker's working directory.
            if p.cmd.components().count() > 1 && p.cmd.is_relative() {
                p.cmd = base.join(&p.cmd);
            }
            if let Some(d) = &p.dir
                && d.is_relative()
            {
                p.dir = Some(base.join(d));
            }
            out.engines.insert(name, p);
        }
        Ok(out)
    }

    /// Without a file: the evochess next to this tuner, if there is one.
    pub fn beside_tuner() -> EnginesFile {
        let mut out = EnginesFile::default();
        let p = crate::paths::default_engine();
        if p.is_file() {
            out.engines.insert("evochess".into(), LocalProgram::command(p));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_files_are_read_relative_to_themselves_and_errors_name_the_file() {
        let dir = std::env::temp_dir().join(format!("evochess-engines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("engines.toml");
        std::fs::write(&path, "[engines.evochess]\ncmd = \"bin/evochess\"\n[engines.sf]\ncmd = \"stockfish\"\n")
            .unwrap();
        let f = EnginesFile::load(&path).unwrap();
        assert_eq!(f.engines["evochess"].cmd, dir.join("bin/evochess"));
        assert_eq!(f.engines["sf"].cmd, PathBuf::from("stockfish"));
        std::fs::write(&path, "[engines.x]\ncommand = \"y\"\n").unwrap();
        let e = EnginesFile::load(&path).unwrap_err().to_string();
        assert!(e.contains("engines.toml") && e.contains("command"), "{e}");
        let e = EnginesFile::load(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(e.contains("/dev/zero") && e.contains("not a regular file"), "{e}");
        std::fs::write(&path, "[engines.x]\ncmd = \"y\"\n[engines.x.options]\nHash = { max = 8, dirs = [\"/\"] }\n")
            .unwrap();
        let e = EnginesFile::load(&path).unwrap_err().to_string();
        assert!(e.contains("engines.x.options") && e.contains("exactly one"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
