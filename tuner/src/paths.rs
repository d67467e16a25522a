//! Where the tuner's files are: the shared data ([`evochess::data`]), the default engine, and
//! the input files a config names, relative to the config file ([`load_config`], the one
//! loader of every command's config).

use std::{
    io,
    path::{Component, Path, PathBuf},
};

use serde::de::DeserializeOwned;
use thiserror::Error;

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

/// `--config NAME` of `tuner <command>`: a bare name (one component, no extension) that is not a
/// file here selects the shipped config `configs/<command>/NAME.toml` (on disk or built in, so
/// from any directory); any other path is the file it names, a shipped one found from any
/// directory by [`load_config`] through its built-in copy.
///
/// # Errors
/// [`UnknownConfig`] for a bare name that is neither a file here nor a shipped config.
pub fn config_path(command: &str, given: &Path) -> Result<PathBuf, UnknownConfig> {
    let bare = given.components().count() == 1 && given.extension().is_none();
    if !bare || given.exists() {
        return Ok(given.to_path_buf());
    }
    let shipped = Path::new("configs").join(command).join(given).with_extension("toml");
    if shipped.exists() || crate::embedded_files::builtin(&shipped).is_some() {
        return Ok(shipped);
    }
    Err(UnknownConfig {
        name: given.display().to_string(),
        command: command.to_string(),
        shipped: crate::embedded_files::shipped_configs(command).join(", "),
    })
}

/// `--config NAME` names no file and no shipped config.
#[derive(Debug, Error)]
#[error(
    "--config {name}: no file `{name}` here and no shipped config configs/{command}/{name}.toml (shipped: {shipped})"
)]
pub struct UnknownConfig {
    /// The name as given.
    pub name: String,
    /// The command whose configs were searched.
    pub command: String,
    /// The names that exist, comma-separated.
    pub shipped: String,
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

/// A command's config file type: which of its keys name input files. Their relative values
/// are relative to the config file ([`in_config`]), so a config works from any working
/// directory; outputs (`out_dir`, ...) stay relative to the working directory, where a run
/// writes.
pub trait ConfigPaths {
    /// Dotted keys (`init.file`) whose value is a path or a list of paths.
    fn input_paths() -> Vec<String>;
    /// Rewrites the keys of an older form of the config as the current form has them (the
    /// optimiser once chosen in `[ga]`, [`crate::optimise::choice::lift_legacy`]); whether
    /// anything was rewritten. Most configs have no older form.
    ///
    /// # Errors
    /// When the table mixes the two forms, naming the keys.
    fn upgrade(_table: &mut toml::Table) -> Result<bool, String> {
        Ok(false)
    }
}

/// `keys` as owned strings, for [`ConfigPaths::input_paths`].
pub fn keys(keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| (*k).to_string()).collect()
}

/// Why a config file could not be loaded; each names the file.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// Missing, unreadable, not a regular file or too large.
    #[error("{}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// Not a valid config: toml's message names the key and its line.
    #[error("{}: {message}", path.display())]
    Parse { path: PathBuf, message: String },
}

impl ConfigError {
    /// A command's own error: `read` for a file that could not be read (given the path), `parse`
    /// for the rest (given the whole message, path included).
    pub fn into_command<E>(self, read: impl FnOnce(&Path, io::Error) -> E, parse: impl FnOnce(String) -> E) -> E {
        match self {
            ConfigError::Read { path, source } => read(&path, source),
            parse_error @ ConfigError::Parse { .. } => parse(parse_error.to_string()),
        }
    }
}

/// Reads the config file `path` of a command, from disk or the built-in copy of a shipped one
/// ([`crate::embedded_files::read_text`]). Keys and types are checked on the text as written (so that
/// errors give the key and its line); then the input paths the file sets
/// ([`ConfigPaths::input_paths`]) are made relative to the file. Keys it leaves out keep their
/// defaults as they are (the built-in `configs/...` names).
pub fn load_config<T: DeserializeOwned + ConfigPaths>(path: &Path) -> Result<T, ConfigError> {
    let text =
        crate::embedded_files::read_text(path).map_err(|source| ConfigError::Read { path: path.into(), source })?;
    let parse = |message: String| ConfigError::Parse { path: path.into(), message };
    let mut table = upgraded::<T>(&text).map_err(parse)?;
    rebase_table(path, &mut table, &T::input_paths());
    toml::Value::Table(table).try_into::<T>().map_err(|e| parse(e.to_string()))
}

/// Parses the text of a command's config ([`ConfigPaths::upgrade`] applied), its paths as
/// written; errors name the key, and its line where the text is of the current form.
///
/// # Errors
/// toml's message, or the upgrade's.
pub fn parse_config<T: DeserializeOwned + ConfigPaths>(text: &str) -> Result<T, String> {
    toml::Value::Table(upgraded::<T>(text)?).try_into::<T>().map_err(|e| e.to_string())
}

/// `text` as a table of `T`'s current form, checked against `T`. Keys and types are checked on
/// the text as written where it needs no upgrade, so that errors give the line too.
fn upgraded<T: DeserializeOwned + ConfigPaths>(text: &str) -> Result<toml::Table, String> {
    let mut table: toml::Table = toml::from_str(text).map_err(|e: toml::de::Error| e.to_string())?;
    if !T::upgrade(&mut table)? {
        toml::from_str::<T>(text).map_err(|e| e.to_string())?;
    }
    Ok(table)
}

/// Applies [`in_config`] to the values at `keys` (dotted: `init.file`) that `table`, read from
/// the file `config`, sets: a string, or each string of an array. Values of another type are
/// left for the config's own parse to refuse.
pub fn rebase_table(config: &Path, table: &mut toml::Table, keys: &[String]) {
    for key in keys {
        rebase_key(config, table, key);
    }
}

fn rebase_key(config: &Path, table: &mut toml::Table, key: &str) {
    match key.split_once('.') {
        Some((head, rest)) => match table.get_mut(head) {
            Some(toml::Value::Table(inner)) => rebase_key(config, inner, rest),
            // An array of tables (`[[organisms]] file = ...`): the key in each.
            Some(toml::Value::Array(items)) => {
                for item in items {
                    if let toml::Value::Table(inner) = item {
                        rebase_key(config, inner, rest);
                    }
                }
            }
            _ => {}
        },
        None => {
            if let Some(value) = table.get_mut(key) {
                rebase_value(config, value);
            }
        }
    }
}

fn rebase_value(config: &Path, value: &mut toml::Value) {
    match value {
        // TOML text is UTF-8; only a config directory that is not could be altered here, and
        // the file it then names is reported missing by its full path.
        toml::Value::String(s) => *s = in_config(config, Path::new(s.as_str())).to_string_lossy().into_owned(),
        toml::Value::Array(items) => items.iter_mut().for_each(|v| rebase_value(config, v)),
        _ => {}
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

    #[test]
    fn a_bare_config_name_selects_the_shipped_config() {
        // Unit tests run in tuner/, which has no configs/: the built-in copies answer.
        let at = |c: &str, p: &str| config_path(c, Path::new(p)).map_err(|e| e.to_string());
        assert_eq!(at("coevolve", "paper").unwrap(), Path::new("configs/coevolve/paper.toml"));
        assert_eq!(at("roundrobin-ga", "default").unwrap(), Path::new("configs/roundrobin-ga/default.toml"));
        // Paths and names with an extension are files, as given.
        assert_eq!(at("texel", "configs/texel/gradient.toml").unwrap(), Path::new("configs/texel/gradient.toml"));
        assert_eq!(at("texel", "mine.toml").unwrap(), Path::new("mine.toml"));
        let e = at("quick", "anchord").unwrap_err();
        assert_eq!(
            e,
            "--config anchord: no file `anchord` here and no shipped config configs/quick/anchord.toml (shipped: \
             anchored, default)"
        );
    }

    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(default, deny_unknown_fields)]
    struct Conf {
        space: PathBuf,
        suites: Vec<PathBuf>,
        out_dir: PathBuf,
        init: Option<Init>,
    }

    #[derive(Debug, serde::Deserialize)]
    struct Init {
        file: PathBuf,
    }

    impl ConfigPaths for Conf {
        fn input_paths() -> Vec<String> {
            keys(&["space", "suites", "init.file"])
        }
    }

    #[test]
    fn a_config_rebases_the_input_paths_it_sets_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("evochess-paths-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("conf")).unwrap();
        let file = dir.join("conf/c.toml");
        std::fs::write(
            &file,
            "space = \"s.toml\"\nsuites = [\"../a.epd\", \"/abs/b.epd\"]\nout_dir = \"out\"\n[init]\nfile = \"p.toml\"\n",
        )
        .unwrap();
        let c: Conf = load_config(&file).unwrap();
        assert_eq!(c.space, dir.join("conf/s.toml"));
        assert_eq!(c.suites, [dir.join("a.epd"), PathBuf::from("/abs/b.epd")]);
        assert_eq!(c.init.unwrap().file, dir.join("conf/p.toml"));
        assert_eq!(c.out_dir, Path::new("out"), "outputs stay relative to the working directory");
        // Keys the file leaves out keep their defaults.
        std::fs::write(&file, "out_dir = \"o\"\n").unwrap();
        let c: Conf = load_config(&file).unwrap();
        assert_eq!((c.space, c.suites.len()), (PathBuf::new(), 0));
        // Errors name the file, and toml's message the key and its line.
        std::fs::write(&file, "out_dir = \"o\"\nspaec = \"s.toml\"\n").unwrap();
        let e = load_config::<Conf>(&file).unwrap_err().to_string();
        assert!(e.contains(&file.display().to_string()) && e.contains("spaec") && e.contains("line 2"), "{e}");
        let e = load_config::<Conf>(&dir.join("conf/none.toml")).unwrap_err();
        assert!(matches!(e, ConfigError::Read { .. }) && e.to_string().contains("none.toml"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
