//! The UCI option table: engine options plus one spin option per parameter in
//! [`Params::specs`] (named by its key, with the declared default and range; never listed by hand).
//!
//! `uci` lists the parameters only in tuning mode (`evochess --tune`, or `ShowTunables` set to
//! true before `uci`): hundreds of options overwhelm GUIs (polyglot/xboard refuse "too many
//! options"). `setoption` accepts every parameter name in every mode.
//!
//! Names are matched case-insensitively, as the UCI spec requires. [`parse_setting`] validates a
//! `setoption` value against the declaration, so the loop only applies values that are known good.
//! A removed parameter ([`crate::params::Removed`]) is found too, never listed: its `setoption`
//! takes any integer and answers with the note of [`crate::params::RemovedKey`].

use std::fmt;

use thiserror::Error;

use crate::params::{ParamId, Params, Removed};

/// Value type and default of an option, as announced after `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionType {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
    String { default: &'static str },
}

/// Which option a name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    Hash,
    Threads,
    MoveOverhead,
    ClearHash,
    MultiPv,
    Ponder,
    SyzygyPath,
    SyzygyProbeDepth,
    ParamsFile,
    /// Whether `go` plays from the book.
    OwnBook,
    /// The Polyglot book file.
    BookFile,
    /// Whether `uci` lists the parameters too.
    ShowTunables,
    /// A search or evaluation parameter.
    Param(ParamId),
    /// A parameter removed since (a failed patch): accepted with a note, no effect.
    Removed(&'static Removed),
}

/// One `option name ... type ...` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    pub id: OptionId,
    pub name: &'static str,
    pub kind: OptionType,
}

/// A validated `setoption` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Int(i64),
    Bool(bool),
    /// String options; `<empty>` (the UCI convention) is turned into "".
    Text(String),
    /// Buttons carry no value.
    Press,
}

/// Why a `setoption` was refused; each variant names the option and the value.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum OptionError {
    #[error("unknown option `{0}`")]
    Unknown(String),
    #[error("option `{name}` needs a value")]
    MissingValue { name: &'static str },
    #[error("option `{name}`: `{value}` is not an integer")]
    NotInteger { name: &'static str, value: String },
    #[error("option `{name}`: value {value} is out of range [{min}, {max}]")]
    OutOfRange { name: &'static str, value: i64, min: i64, max: i64 },
    #[error("option `{name}`: `{value}` is not `true` or `false`")]
    NotBool { name: &'static str, value: String },
}

/// Largest transposition table accepted, in MiB.
pub const MAX_HASH_MB: i64 = 65536;
/// Most search threads accepted (Lazy SMP: one main thread and up to 255 helpers).
pub const MAX_THREADS: i64 = 256;
pub const DEFAULT_HASH_MB: i64 = crate::engine::DEFAULT_HASH_MB as i64;
pub const DEFAULT_MOVE_OVERHEAD_MS: i64 = crate::engine::DEFAULT_MOVE_OVERHEAD_MS as i64;
/// Announced default; the loop sets it on the engine at start-up.
pub const DEFAULT_SYZYGY_PROBE_DEPTH: i64 = 1;

/// The engine options (not the parameters), in the order they are announced.
fn engine_options() -> [OptionDecl; 12] {
    use OptionType::*;
    let decl = |id, name, kind| OptionDecl { id, name, kind };
    [
        decl(OptionId::Hash, "Hash", Spin { default: DEFAULT_HASH_MB, min: 1, max: MAX_HASH_MB }),
        decl(OptionId::Threads, "Threads", Spin { default: 1, min: 1, max: MAX_THREADS }),
        decl(OptionId::MoveOverhead, "Move Overhead", Spin { default: DEFAULT_MOVE_OVERHEAD_MS, min: 0, max: 5000 }),
        decl(OptionId::ClearHash, "Clear Hash", Button),
        decl(OptionId::MultiPv, "MultiPV", Spin { default: 1, min: 1, max: 256 }),
        decl(OptionId::Ponder, "Ponder", Check { default: false }),
        decl(OptionId::SyzygyPath, "SyzygyPath", String { default: "<empty>" }),
        decl(
            OptionId::SyzygyProbeDepth,
            "SyzygyProbeDepth",
            Spin { default: DEFAULT_SYZYGY_PROBE_DEPTH, min: 1, max: 100 },
        ),
        decl(OptionId::ParamsFile, "ParamsFile", String { default: "<empty>" }),
        decl(OptionId::OwnBook, "OwnBook", Check { default: false }),
        decl(OptionId::BookFile, "BookFile", String { default: "<empty>" }),
        decl(OptionId::ShowTunables, "ShowTunables", Check { default: false }),
    ]
}

/// Every option with the compiled-in parameter defaults.
pub fn declarations() -> Vec<OptionDecl> {
    declarations_with(&Params::default())
}

/// What `uci` lists: the engine options, and in tuning mode (`tunables`) the parameters too,
/// with `ShowTunables` announced at its current value.
pub fn listed(current: &Params, tunables: bool) -> Vec<OptionDecl> {
    let mut decls = if tunables { declarations_with(current) } else { engine_options().to_vec() };
    for d in &mut decls {
        if d.id == OptionId::ShowTunables {
            d.kind = OptionType::Check { default: tunables };
        }
    }
    decls
}

/// Every option: the engine options, then one spin per parameter whose announced default is its
/// value in `current` (so a GUI's "reset" returns to a `--params` file, not to the built-ins).
pub fn declarations_with(current: &Params) -> Vec<OptionDecl> {
    engine_options()
        .into_iter()
        .chain(Params::specs().enumerate().map(|(i, s)| OptionDecl {
            id: OptionId::Param(ParamId(i)),
            name: s.name,
            kind: OptionType::Spin {
                default: i64::from(current.get(ParamId(i))),
                min: i64::from(s.min),
                max: i64::from(s.max),
            },
        }))
        .collect()
}

/// The declaration for `name` (case-insensitive; runs of spaces count as one). Parameters are
/// also found by `section.name`.
pub fn find(name: &str) -> Option<OptionDecl> {
    let wanted = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(d) = engine_options().into_iter().find(|d| d.name.eq_ignore_ascii_case(&wanted)) {
        return Some(d);
    }
    let Some((id, spec)) = Params::find(&wanted) else {
        let r = Params::find_removed(&wanted)?;
        let kind = OptionType::Spin { default: i64::from(r.off.unwrap_or(0)), min: i64::MIN, max: i64::MAX };
        return Some(OptionDecl { id: OptionId::Removed(r), name: r.name, kind });
    };
    Some(OptionDecl {
        id: OptionId::Param(id),
        name: spec.name,
        kind: OptionType::Spin { default: i64::from(spec.default), min: i64::from(spec.min), max: i64::from(spec.max) },
    })
}

/// Resolves and validates `setoption name <name> [value <value>]`.
pub fn parse_setting(name: &str, value: Option<&str>) -> Result<(OptionDecl, OptionValue), OptionError> {
    let decl = find(name).ok_or_else(|| OptionError::Unknown(super::command::quote(name)))?;
    let value = value.map(str::trim);
    let parsed = match decl.kind {
        OptionType::Button => OptionValue::Press,
        OptionType::String { .. } => {
            let v = value.unwrap_or("");
            OptionValue::Text(if v == "<empty>" { String::new() } else { v.to_string() })
        }
        OptionType::Check { .. } => match value {
            None | Some("") => return Err(OptionError::MissingValue { name: decl.name }),
            Some(v) if v.eq_ignore_ascii_case("true") => OptionValue::Bool(true),
            Some(v) if v.eq_ignore_ascii_case("false") => OptionValue::Bool(false),
            Some(v) => return Err(OptionError::NotBool { name: decl.name, value: super::command::quote(v) }),
        },
        OptionType::Spin { min, max, .. } => {
            let v = match value {
                None | Some("") => return Err(OptionError::MissingValue { name: decl.name }),
                Some(v) => v,
            };
            let n: i64 =
                v.parse().map_err(|_| OptionError::NotInteger { name: decl.name, value: super::command::quote(v) })?;
            if n < min || n > max {
                return Err(OptionError::OutOfRange { name: decl.name, value: n, min, max });
            }
            OptionValue::Int(n)
        }
    };
    Ok((decl, parsed))
}

impl fmt::Display for OptionDecl {
    /// `option name <name> type <type> [default ...] [min ... max ...]`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionType::Spin { default, min, max } => write!(f, "spin default {default} min {min} max {max}"),
            OptionType::Check { default } => write!(f, "check default {default}"),
            OptionType::Button => f.write_str("button"),
            OptionType::String { default } => write!(f, "string default {default}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_a_spin_option() {
        let decls = declarations();
        assert_eq!(decls.len(), engine_options().len() + Params::count());
        for spec in Params::specs() {
            let line = format!(
                "option name {} type spin default {} min {} max {}",
                spec.name, spec.default, spec.min, spec.max
            );
            assert!(decls.iter().any(|d| d.to_string() == line), "missing {line}");
        }
        // Names are unique case-insensitively, so `setoption` is unambiguous.
        let mut names: Vec<String> = decls.iter().map(|d| d.name.to_ascii_lowercase()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), decls.len());
    }

    #[test]
    fn parameters_are_listed_only_in_tuning_mode() {
        let p = Params::default();
        let plain = listed(&p, false);
        assert_eq!(plain.len(), engine_options().len());
        assert!(plain.iter().all(|d| !matches!(d.id, OptionId::Param(_))));
        assert!(plain.iter().any(|d| d.to_string() == "option name ShowTunables type check default false"));
        let tuning = listed(&p, true);
        assert_eq!(tuning.len(), engine_options().len() + Params::count());
        assert!(tuning.iter().any(|d| d.to_string() == "option name ShowTunables type check default true"));
        // Found for `setoption` either way.
        let spec = Params::specs().next().unwrap();
        assert!(matches!(find(spec.name).unwrap().id, OptionId::Param(_)));
    }

    #[test]
    fn parameter_defaults_follow_the_current_params() {
        let spec = Params::specs().next().unwrap();
        let mut p = Params::default();
        p.set_by_name(spec.name, i64::from(spec.min)).unwrap();
        let decl = declarations_with(&p).into_iter().find(|d| d.name == spec.name).unwrap();
        assert!(decl.to_string().contains(&format!("default {} min", spec.min)), "{decl}");
    }

    #[test]
    fn declarations_print_as_uci() {
        let text: Vec<String> = engine_options().iter().map(ToString::to_string).collect();
        assert!(text.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
        assert!(text.contains(&"option name Move Overhead type spin default 10 min 0 max 5000".to_string()));
        assert!(text.contains(&"option name Clear Hash type button".to_string()));
        assert!(text.contains(&"option name Ponder type check default false".to_string()));
        assert!(text.contains(&"option name SyzygyPath type string default <empty>".to_string()));
        assert!(text.contains(&"option name OwnBook type check default false".to_string()));
        assert!(text.contains(&"option name BookFile type string default <empty>".to_string()));
    }

    #[test]
    fn names_are_case_insensitive() {
        assert_eq!(find("move overhead").unwrap().id, OptionId::MoveOverhead);
        assert_eq!(find("MOVE   OVERHEAD").unwrap().id, OptionId::MoveOverhead);
        assert_eq!(find("hash").unwrap().id, OptionId::Hash);
        let spec = Params::specs().next().unwrap();
        assert_eq!(find(&spec.name.to_uppercase()).unwrap().name, spec.name);
        assert_eq!(find(&spec.key()).unwrap().name, spec.name);
        assert_eq!(find("no such option"), None);
    }

    #[test]
    fn values_are_validated() {
        assert_eq!(parse_setting("Hash", Some("64")).unwrap().1, OptionValue::Int(64));
        assert_eq!(
            parse_setting("Hash", Some("0")),
            Err(OptionError::OutOfRange { name: "Hash", value: 0, min: 1, max: MAX_HASH_MB })
        );
        assert_eq!(
            parse_setting("Hash", Some("lots")),
            Err(OptionError::NotInteger { name: "Hash", value: "lots".into() })
        );
        assert_eq!(parse_setting("Hash", None), Err(OptionError::MissingValue { name: "Hash" }));
        assert_eq!(parse_setting("Threads", Some("2")).unwrap().1, OptionValue::Int(2));
        assert_eq!(parse_setting("threads", Some("256")).unwrap().1, OptionValue::Int(256));
        for bad in [0, 300] {
            let err = parse_setting("Threads", Some(&bad.to_string())).unwrap_err();
            assert_eq!(err, OptionError::OutOfRange { name: "Threads", value: bad, min: 1, max: MAX_THREADS });
            assert!(err.to_string().contains("Threads"), "{err}");
        }
        assert_eq!(parse_setting("ponder", Some("TRUE")).unwrap().1, OptionValue::Bool(true));
        assert!(matches!(parse_setting("Ponder", Some("yes")), Err(OptionError::NotBool { .. })));
        assert_eq!(parse_setting("Clear Hash", None).unwrap().1, OptionValue::Press);
        assert_eq!(parse_setting("SyzygyPath", Some("<empty>")).unwrap().1, OptionValue::Text(String::new()));
        assert_eq!(parse_setting("SyzygyPath", Some("/a b/c")).unwrap().1, OptionValue::Text("/a b/c".into()));
        assert_eq!(parse_setting("bookfile", Some("<empty>")).unwrap().1, OptionValue::Text(String::new()));
        assert_eq!(parse_setting("OwnBook", Some("true")).unwrap().1, OptionValue::Bool(true));
        assert_eq!(parse_setting("Bogus", Some("1")), Err(OptionError::Unknown("Bogus".into())));
        let spec = Params::specs().next().unwrap();
        let err = parse_setting(spec.name, Some(&(i64::from(spec.max) + 1).to_string())).unwrap_err();
        assert!(err.to_string().contains(spec.name), "{err}");
        assert!(err.to_string().contains(&spec.max.to_string()), "{err}");
    }
}
