//! The engine options a worker lets a task set. A task comes from whoever can write to the
//! broker, so its options are untrusted: each one must match a rule of the worker's engines file
//! (`[engines.NAME.options]`), else the task is refused (it goes to the dead-letter stream).
//!
//! A rule is one of `{ min = A, max = B }` (an integer in range; `Threads` is also capped at this
//! machine's cores), `{ values = ["true", "false"] }` (one of these words) or
//! `{ dirs = ["/srv/syzygy"] }` (absolute paths, `:`-separated, each of which exists inside one of
//! these directories once symbolic links and `..` are resolved; empty or `<empty>` is allowed).
//! Without `default_options = false`, the file's rules come on top of [`AllowList::defaults`]:
//! the common resource options with caps, the boolean switches and every evochess parameter in
//! its declared range; path options (`SyzygyPath`, `BookFile`, `ParamsFile`, ...) only when the
//! file lists directories for them.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use serde::Deserialize;

/// Largest `Hash` (MiB) a task may ask for when the engines file does not say.
pub const DEFAULT_HASH_CAP_MB: i64 = 1024;
/// Longest option name or value accepted.
const MAX_TEXT: usize = 1024;

/// One allowed option, as written in the engines file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionRule {
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub values: Option<Vec<String>>,
    pub dirs: Option<Vec<PathBuf>>,
}

impl OptionRule {
    fn range(min: i64, max: i64) -> OptionRule {
        OptionRule { min: Some(min), max: Some(max), ..OptionRule::default() }
    }

    fn words(values: &[&str]) -> OptionRule {
        OptionRule { values: Some(values.iter().map(|v| v.to_string()).collect()), ..OptionRule::default() }
    }

    /// Says what is wrong with a rule of the file (it must be exactly one kind).
    fn validate(&self) -> Result<(), String> {
        let kinds = usize::from(self.min.is_some() || self.max.is_some())
            + usize::from(self.values.is_some())
            + usize::from(self.dirs.is_some());
        if kinds != 1 {
            return Err("give exactly one of `min`/`max`, `values` or `dirs`".into());
        }
        if let (Some(lo), Some(hi)) = (self.min, self.max)
            && lo > hi
        {
            return Err(format!("min {lo} > max {hi}"));
        }
        Ok(())
    }
}

/// The options one program may be given, by normalized name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowList {
    rules: BTreeMap<String, OptionRule>,
    /// `Threads` never goes above this.
    cores: i64,
}

/// An option name as engines compare them: case-insensitive, runs of spaces as one.
fn normalize(name: &str) -> String {
    name.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase()
}

/// This machine's cores.
fn cores() -> i64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as i64)
}

impl Default for AllowList {
    fn default() -> Self {
        AllowList::defaults()
    }
}

impl AllowList {
    /// What a worker allows when its engines file does not say.
    pub fn defaults() -> AllowList {
        let cores = cores();
        let mut rules = BTreeMap::new();
        let mut add = |name: &str, rule: OptionRule| {
            rules.insert(normalize(name), rule);
        };
        add("Threads", OptionRule::range(1, cores));
        add("Hash", OptionRule::range(1, DEFAULT_HASH_CAP_MB));
        add("Move Overhead", OptionRule::range(0, 5000));
        add("MultiPV", OptionRule::range(1, 256));
        add("SyzygyProbeDepth", OptionRule::range(1, 100));
        for switch in ["Ponder", "OwnBook", "UCI_Chess960", "UCI_ShowWDL", "UCI_AnalyseMode"] {
            add(switch, OptionRule::words(&["true", "false"]));
        }
        for spec in evochess::params::Params::specs() {
            add(spec.name, OptionRule::range(i64::from(spec.min), i64::from(spec.max)));
        }
        AllowList { rules, cores }
    }

    /// The rules of an engines file: `entries` over the defaults (or alone, without
    /// `defaults`); relative `dirs` are `base`'s.
    pub fn from_file(entries: &BTreeMap<String, OptionRule>, defaults: bool, base: &Path) -> Result<AllowList, String> {
        let mut out =
            if defaults { AllowList::defaults() } else { AllowList { rules: BTreeMap::new(), cores: cores() } };
        for (name, rule) in entries {
            rule.validate().map_err(|e| format!("option `{name}`: {e}"))?;
            let mut rule = rule.clone();
            if let Some(dirs) = &mut rule.dirs {
                for d in dirs.iter_mut().filter(|d| d.is_relative()) {
                    *d = base.join(&*d);
                }
            }
            out.rules.insert(normalize(name), rule);
        }
        Ok(out)
    }

    /// Whether a task may set option `name` to `value`; the error says why not (names and
    /// values quoted with escapes: they come from the broker).
    pub fn check(&self, name: &str, value: &str) -> Result<(), String> {
        if name.len() > MAX_TEXT || value.len() > MAX_TEXT {
            return Err(format!("an option name or value longer than {MAX_TEXT} bytes"));
        }
        if name.chars().chain(value.chars()).any(char::is_control) {
            return Err(format!("option {name:?} = {value:?}: control characters"));
        }
        // Either word inside a name would move the engine's split of `setoption name N value V`.
        if name.split_whitespace().any(|w| w.eq_ignore_ascii_case("value") || w.eq_ignore_ascii_case("name")) {
            return Err(format!("option {name:?}: `name` or `value` inside an option's name"));
        }
        let Some(rule) = self.rules.get(&normalize(name)) else {
            return Err(format!("option {name:?} is not in this worker's allow-list (its engines file's `options`)"));
        };
        let value = value.trim();
        if let Some(words) = &rule.values {
            return if words.iter().any(|w| w.eq_ignore_ascii_case(value)) {
                Ok(())
            } else {
                Err(format!("option {name:?} = {value:?}: allowed values are {}", words.join(", ")))
            };
        }
        if let Some(dirs) = &rule.dirs {
            return check_paths(name, value, dirs);
        }
        let n: i64 = value.parse().map_err(|_| format!("option {name:?} = {value:?}: not an integer"))?;
        let lo = rule.min.unwrap_or(i64::MIN);
        let mut hi = rule.max.unwrap_or(i64::MAX);
        if normalize(name) == "threads" {
            hi = hi.min(self.cores);
        }
        if n < lo || n > hi {
            return Err(format!("option {name:?} = {n}: this worker allows {lo} to {hi}"));
        }
        Ok(())
    }
}

/// Every `:`-separated part of `value` must be an existing absolute path inside one of `dirs`.
fn check_paths(name: &str, value: &str, dirs: &[PathBuf]) -> Result<(), String> {
    if value.is_empty() || value == "<empty>" {
        return Ok(());
    }
    let roots: Vec<PathBuf> = dirs.iter().filter_map(|d| d.canonicalize().ok()).collect();
    for part in value.split(':') {
        let p = Path::new(part);
        let inside = p.is_absolute() && p.canonicalize().is_ok_and(|real| roots.iter().any(|r| real.starts_with(r)));
        if !inside {
            return Err(format!(
                "option {name:?} = {part:?}: not an existing absolute path inside this worker's directories for it ({})",
                dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_cap_resources_and_refuse_paths() {
        let a = AllowList::defaults();
        assert!(a.check("Hash", "64").is_ok());
        assert!(a.check("hash", " 64 ").is_ok(), "names compare as engines compare them");
        let e = a.check("HASH", "999999").unwrap_err();
        assert!(e.contains("1 to 1024"), "{e}");
        let e = a.check("Threads", &(cores() + 1).to_string()).unwrap_err();
        assert!(e.contains("Threads"), "{e}");
        assert!(a.check("Ponder", "TRUE").is_ok());
        assert!(a.check("Ponder", "maybe").is_err());
        assert!(a.check("knight_mg", "300").is_ok(), "evochess parameters in range");
        for path_option in ["SyzygyPath", "BookFile", "ParamsFile", "EvalFile"] {
            let e = a.check(path_option, "/etc/passwd").unwrap_err();
            assert!(e.contains("allow-list"), "{e}");
        }
        // A newline would inject commands into the engine's stdin.
        assert!(a.check("Hash", "16\ngo infinite").unwrap_err().contains("control"));
        assert!(a.check("Threads value 64 name Hash", "1").is_err());
    }

    #[test]
    fn directory_rules_resolve_links_and_dots() {
        let root = std::env::temp_dir().join(format!("evochess-allow-{}", std::process::id()));
        let tb = root.join("tb");
        std::fs::create_dir_all(&tb).unwrap();
        let mut entries = BTreeMap::new();
        entries.insert("SyzygyPath".to_string(), OptionRule { dirs: Some(vec!["tb".into()]), ..Default::default() });
        let a = AllowList::from_file(&entries, true, &root).unwrap();
        assert!(a.check("SyzygyPath", tb.to_str().unwrap()).is_ok());
        assert!(a.check("SyzygyPath", "<empty>").is_ok());
        let escape = format!("{}/../..", tb.display());
        assert!(a.check("SyzygyPath", &escape).is_err());
        assert!(a.check("SyzygyPath", &format!("{}:/etc", tb.display())).is_err());
        assert!(a.check("SyzygyPath", "tb").is_err(), "relative paths are the engine's, not the file's");
        assert!(a.check("Hash", "16").is_ok(), "defaults stay");
        let only = AllowList::from_file(&entries, false, &root).unwrap();
        assert!(only.check("Hash", "16").is_err());
        let bad = BTreeMap::from([("Hash".to_string(), OptionRule::default())]);
        assert!(AllowList::from_file(&bad, true, &root).unwrap_err().contains("exactly one"));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
