//! Engine specifications in cutechess form: `name=X cmd=PATH dir=DIR arg=A args="A B"
//! proto=uci|xboard option.Name=value tc=40/60+0.6 st=0.5 nodes=N depth=D timemargin=MS
//! params=FILE restart=on`.
//!
//! [`EngineSpec::validate`] checks everything that can be checked before a game starts (the
//! command exists and is executable, the directory exists, the TC parses, the params file loads
//! and is in range, an xboard engine is given only limits xboard can express);
//! [`EngineSpec::start`] spawns the engine, checks each option name against the engine's
//! declarations and syncs (`isready` for UCI, `ping` for xboard).

use std::{
    env,
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::{
    engine::{
        client::{EngineClient, Protocol},
        transport::{EngineError, Timeouts},
        uci::UciClient,
        xboard::XboardClient,
    },
    tc::{SearchLimits, TcError, parse_movetime},
};

/// A bad engine specification, found before any game is played.
#[derive(Debug, Error)]
pub enum SpecError {
    #[error("engine spec token `{0}` is not of the form key=value")]
    NotKeyValue(String),
    #[error("engine spec: unknown key `{0}`")]
    UnknownKey(String),
    #[error("engine spec: bad value for `{key}`: `{value}` ({reason})")]
    BadValue { key: String, value: String, reason: String },
    #[error("engine spec {0}")]
    Tc(#[from] TcError),
    #[error("engine `{0}` has no cmd=")]
    NoCommand(String),
    #[error("engine `{name}`: command `{cmd}` not found{hint}")]
    CommandNotFound { name: String, cmd: String, hint: String },
    #[error("engine `{name}`: working directory `{dir}` does not exist")]
    NoDir { name: String, dir: String },
    #[error("engine `{name}`: params file: {reason}")]
    Params { name: String, reason: String },
    #[error("engine `{0}` has no search limit: give tc=, st=, nodes= or depth=")]
    NoLimit(String),
    #[error("engine `{0}`: tc= and st= exclude each other")]
    TcAndSt(String),
    #[error("engine name `{0}` is used twice")]
    DuplicateName(String),
    #[error("engine `{name}` speaks xboard, which cannot take {what}")]
    NotForXboard { name: String, what: &'static str },
}

/// How to run one engine and under which limits it plays.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: PathBuf,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// Left out of the match fingerprint when UCI, so journals of earlier runs still resume.
    #[serde(default, skip_serializing_if = "Protocol::is_uci")]
    pub proto: Protocol,
    /// `setoption` pairs, in the order given.
    pub options: Vec<(String, String)>,
    pub limits: SearchLimits,
    /// evochess parameter TOML, passed through the `ParamsFile` option (or one option per key).
    pub params: Option<PathBuf>,
    /// Restart the process before every game (cutechess `restart=on`).
    pub restart: bool,
}

fn bad(key: &str, value: &str, reason: impl Into<String>) -> SpecError {
    SpecError::BadValue { key: key.to_string(), value: value.to_string(), reason: reason.into() }
}

impl EngineSpec {
    /// An engine run as `cmd` with no arguments; give it limits with [`EngineSpec::with_limits`].
    pub fn new(name: &str, cmd: impl Into<PathBuf>) -> EngineSpec {
        EngineSpec { name: name.to_string(), cmd: cmd.into(), ..EngineSpec::default() }
    }

    pub fn with_limits(mut self, limits: SearchLimits) -> EngineSpec {
        self.limits = limits;
        self
    }

    /// evochess parameters from a TOML file.
    pub fn with_params(mut self, path: impl Into<PathBuf>) -> EngineSpec {
        self.params = Some(path.into());
        self
    }

    pub fn with_args(mut self, args: &[&str]) -> EngineSpec {
        self.args = args.iter().map(|a| a.to_string()).collect();
        self
    }

    pub fn with_option(mut self, name: &str, value: &str) -> EngineSpec {
        self.options.push((name.to_string(), value.to_string()));
        self
    }

    /// Builds a spec from `key=value` tokens; `each` (the `-each` tokens) are applied first.
    pub fn parse<S: AsRef<str>>(each: &[S], tokens: &[S]) -> Result<EngineSpec, SpecError> {
        let mut spec = EngineSpec::default();
        for t in each.iter().chain(tokens) {
            spec.apply(t.as_ref())?;
        }
        if spec.cmd.as_os_str().is_empty() {
            return Err(SpecError::NoCommand(spec.name));
        }
        if spec.name.is_empty() {
            spec.name = spec.cmd.file_name().map_or_else(|| "engine".into(), |f| f.to_string_lossy().into_owned());
        }
        Ok(spec)
    }

    /// Applies one `key=value` token.
    pub fn apply(&mut self, token: &str) -> Result<(), SpecError> {
        let (key, value) = token.split_once('=').ok_or_else(|| SpecError::NotKeyValue(token.to_string()))?;
        if let Some(opt) = key.strip_prefix("option.") {
            if opt.trim().is_empty() {
                return Err(bad(key, value, "empty option name"));
            }
            self.options.retain(|(n, _)| !n.eq_ignore_ascii_case(opt));
            self.options.push((opt.to_string(), value.to_string()));
            return Ok(());
        }
        match key {
            "name" => self.name = value.to_string(),
            "cmd" => self.cmd = PathBuf::from(value),
            "dir" => self.dir = Some(PathBuf::from(value)),
            "arg" => self.args.push(value.to_string()),
            "args" => self.args = value.split_whitespace().map(str::to_string).collect(),
            "proto" => self.proto = value.parse().map_err(|reason: String| bad(key, value, reason))?,
            "tc" if value == "inf" || value == "infinite" => self.limits.clock = None,
            "tc" => self.limits.clock = Some(value.parse()?),
            "st" => self.limits.movetime_ms = Some(parse_movetime(value)?),
            "nodes" => {
                let n: u64 = value.parse().map_err(|_| bad(key, value, "expected a positive integer"))?;
                if n == 0 {
                    return Err(bad(key, value, "must be positive"));
                }
                self.limits.nodes = Some(n);
            }
            "depth" | "plies" => {
                let d: u32 = value.parse().map_err(|_| bad(key, value, "expected a positive integer"))?;
                if d == 0 {
                    return Err(bad(key, value, "must be positive"));
                }
                self.limits.depth = Some(d);
            }
            "timemargin" => {
                self.limits.margin_ms = value.parse().map_err(|_| bad(key, value, "expected milliseconds"))?
            }
            "params" => self.params = Some(PathBuf::from(value)),
            "restart" => {
                self.restart = match value {
                    "on" | "true" | "1" => true,
                    "off" | "false" | "0" => false,
                    _ => return Err(bad(key, value, "expected on or off")),
                }
            }
            _ => return Err(SpecError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    /// Checks the spec and makes every path absolute, so engines can run in any directory.
    pub fn validate(&mut self) -> Result<(), SpecError> {
        if self.limits.clock.is_some() && self.limits.movetime_ms.is_some() {
            return Err(SpecError::TcAndSt(self.name.clone()));
        }
        if self.limits.clock.is_none()
            && self.limits.movetime_ms.is_none()
            && self.limits.nodes.is_none()
            && self.limits.depth.is_none()
        {
            return Err(SpecError::NoLimit(self.name.clone()));
        }
        if self.proto == Protocol::Xboard {
            self.check_xboard_limits()?;
        }
        let cwd = env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        if let Some(dir) = &self.dir {
            let abs = cwd.join(dir);
            if !abs.is_dir() {
                return Err(SpecError::NoDir { name: self.name.clone(), dir: dir.display().to_string() });
            }
            self.dir = Some(abs);
        }
        self.cmd = resolve_command(&self.cmd, self.dir.as_deref().unwrap_or(&cwd)).ok_or_else(|| {
            let cmd = self.cmd.display().to_string();
            let hint = if cmd.contains('/') {
                String::new()
            } else {
                match beside_this_program(Path::new(&cmd)) {
                    Some(p) => format!(" in PATH or at {}", p.display()),
                    None => " in PATH".to_string(),
                }
            };
            SpecError::CommandNotFound { name: self.name.clone(), cmd, hint }
        })?;
        if let Some(p) = &self.params {
            let abs = cwd.join(p);
            evochess::Params::load(&abs)
                .map_err(|e| SpecError::Params { name: self.name.clone(), reason: e.to_string() })?;
            self.params = Some(abs);
        }
        Ok(())
    }

    /// What xboard cannot express: a node limit, a fixed time per move in fractions of a second
    /// (`st` takes whole seconds), evochess parameters (set through UCI options).
    fn check_xboard_limits(&self) -> Result<(), SpecError> {
        let not = |what| Err(SpecError::NotForXboard { name: self.name.clone(), what });
        if self.limits.nodes.is_some() {
            return not("a node limit (nodes=)");
        }
        if self.limits.movetime_ms.is_some_and(|ms| !ms.is_multiple_of(1000)) {
            return not("a time per move in fractions of a second (st= must be whole seconds)");
        }
        if self.params.is_some() {
            return not("a parameter file (params= sets UCI options)");
        }
        Ok(())
    }

    /// Spawns the engine in its protocol, sends its options (and, for UCI, its parameters),
    /// and syncs.
    pub fn start(&self, timeouts: Timeouts) -> Result<EngineClient, EngineError> {
        match self.proto {
            Protocol::Uci => self.start_uci(timeouts).map(EngineClient::Uci),
            Protocol::Xboard => {
                if self.params.is_some() {
                    return Err(EngineError::Unsupported {
                        engine: self.name.clone(),
                        what: "take a parameter file: params= needs UCI".into(),
                    });
                }
                let mut c = XboardClient::spawn(&self.name, &self.cmd, &self.args, self.dir.as_deref(), timeouts)?;
                for (name, value) in &self.options {
                    c.set_option(name, value)?;
                }
                c.ping_checked()?;
                Ok(EngineClient::Xboard(c))
            }
        }
    }

    /// Spawns a UCI engine, sends its options and parameters, and syncs with `isready`.
    ///
    /// # Errors
    /// [`EngineError::Unsupported`] for an xboard engine, besides the engine's own failures.
    pub fn start_uci(&self, timeouts: Timeouts) -> Result<UciClient, EngineError> {
        if self.proto != Protocol::Uci {
            return Err(EngineError::Unsupported {
                engine: self.name.clone(),
                what: "be driven by this command, which speaks UCI only (proto=xboard)".into(),
            });
        }
        let mut c = UciClient::spawn(&self.name, &self.cmd, &self.args, self.dir.as_deref(), timeouts)?;
        for (name, value) in &self.options {
            c.set_option_checked(name, value)?;
        }
        if let Some(p) = &self.params {
            if c.find_option("ParamsFile").is_some() {
                c.set_option_checked("ParamsFile", &p.display().to_string())?;
            } else {
                // Not evochess's file option: send each key as its own option (the contract
                // makes every parameter a UCI spin option named by its key).
                let text = evochess::input::read_text(p, evochess::params::MAX_PARAMS_FILE_BYTES).map_err(|e| {
                    EngineError::Refused {
                        engine: self.name.clone(),
                        message: format!("params={}: {}", p.display(), e.reason()),
                    }
                })?;
                let table: toml::Table = text.parse().map_err(|e: toml::de::Error| EngineError::Refused {
                    engine: self.name.clone(),
                    message: format!("params={}: not TOML: {}", p.display(), e.message().trim_end()),
                })?;
                for section in table.values() {
                    if let toml::Value::Table(entries) = section {
                        for (k, v) in entries {
                            c.set_option(k, &v.to_string())?;
                        }
                    }
                }
            }
        }
        c.ping()?;
        Ok(c)
    }
}

/// An executable file named by `cmd`: a path (relative to `base`), or a name looked up in PATH
/// and then beside the running program (`cmd=evochess` from `tuner` finds the engine built
/// beside it, from any directory).
fn resolve_command(cmd: &Path, base: &Path) -> Option<PathBuf> {
    let is_exec = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        p.is_file() && p.metadata().is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
    };
    if cmd.components().count() > 1 || cmd.is_absolute() {
        let p = base.join(cmd);
        return is_exec(&p).then_some(p);
    }
    env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| env::split_paths(&paths).collect::<Vec<_>>())
        .map(|d| d.join(cmd))
        .chain(beside_this_program(cmd))
        .find(|p| is_exec(p))
}

/// `name` in the directory of the running program.
fn beside_this_program(name: &Path) -> Option<PathBuf> {
    Some(env::current_exe().ok()?.with_file_name(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_familiar_form() {
        let s = EngineSpec::parse(
            &["tc=40/60+0.6", "timemargin=50"],
            &["name=SF", "cmd=/usr/games/stockfish", "option.Move Overhead=30", "option.Hash=16", "nodes=2000"],
        )
        .unwrap();
        assert_eq!(s.name, "SF");
        assert_eq!(s.options, vec![("Move Overhead".into(), "30".into()), ("Hash".into(), "16".into())]);
        assert_eq!(s.limits.clock.unwrap().moves, Some(40));
        assert_eq!(s.limits.nodes, Some(2000));
        assert_eq!(s.limits.margin_ms, 50);
        let s = EngineSpec::parse::<&str>(&[], &["cmd=./x", "args=--a  b", "arg=c d", "st=0.25"]).unwrap();
        assert_eq!(s.name, "x");
        assert_eq!(s.args, vec!["--a", "b", "c d"]);
        assert_eq!(s.limits.movetime_ms, Some(250));
    }

    #[test]
    fn bad_specs_are_named() {
        let e = |t: &[&str]| EngineSpec::parse::<&str>(&[], t).unwrap_err().to_string();
        assert!(e(&["cmd=x", "tc=4O/60"]).contains("malformed time control `4O/60`"));
        assert!(e(&["cmd=x", "nodes=-1"]).contains("`nodes`"));
        assert!(e(&["cmd=x", "bogus=1"]).contains("unknown key `bogus`"));
        assert!(e(&["name=a"]).contains("has no cmd="));
        assert!(e(&["cmd=x", "noequals"]).contains("`noequals`"));
    }

    #[test]
    fn validation_finds_missing_things() {
        let mut s = EngineSpec::parse::<&str>(&[], &["name=ghost", "cmd=/no/such/engine", "depth=1"]).unwrap();
        assert!(s.validate().unwrap_err().to_string().contains("command `/no/such/engine` not found"));
        let mut s = EngineSpec::parse::<&str>(&[], &["cmd=no-such-engine-xyz", "depth=1"]).unwrap();
        assert!(s.validate().unwrap_err().to_string().contains("not found in PATH"));
        let mut s = EngineSpec::parse::<&str>(&[], &["cmd=sh"]).unwrap();
        assert!(s.validate().unwrap_err().to_string().contains("no search limit"));
        let mut s = EngineSpec::parse::<&str>(&[], &["cmd=sh", "depth=2", "dir=/no/such/dir"]).unwrap();
        assert!(s.validate().unwrap_err().to_string().contains("working directory"));
        let mut s = EngineSpec::parse::<&str>(&[], &["cmd=sh", "depth=2", "params=/no/such.toml"]).unwrap();
        assert!(s.validate().unwrap_err().to_string().contains("params file"));
        let mut s = EngineSpec::parse::<&str>(&[], &["cmd=sh", "depth=2"]).unwrap();
        s.validate().unwrap();
        assert!(s.cmd.is_absolute());
    }

    #[test]
    fn a_bare_name_not_in_path_is_found_beside_the_running_program() {
        // This test's own binary, by its bare name (no such file in PATH or the working
        // directory): `cmd=evochess` run by `tuner` is the same case.
        let me = env::current_exe().unwrap();
        let name = me.file_name().unwrap().to_str().unwrap();
        let mut s = EngineSpec::parse::<&str>(&[], &[&format!("cmd={name}"), "depth=1"]).unwrap();
        s.validate().unwrap();
        assert_eq!(s.cmd, me);
        // What is not there either is named with both places looked in.
        let mut s = EngineSpec::parse::<&str>(&[], &["cmd=no-such-engine-xyz", "depth=1"]).unwrap();
        let e = s.validate().unwrap_err().to_string();
        let beside = me.with_file_name("no-such-engine-xyz");
        assert!(e.contains(&format!("not found in PATH or at {}", beside.display())), "{e}");
    }
}
