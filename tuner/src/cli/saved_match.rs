//! fastchess's `-config file=NAME [discard=true] [outname=NAME]` and `-autosaveinterval N`,
//! on the runner's resume journal.
//!
//! fastchess saves its tournament (settings, engines and per-pairing stats) as JSON at the end,
//! on an interrupt and every `-autosaveinterval` games (20 by default, 0 off); `fastchess -config
//! file=NAME` alone loads it and plays on, `discard=true` ignores what the file holds (the rest
//! of the command line is the tournament, saved to NAME), `outname=` names where it is saved
//! (`config.json`). Here a match given `-config` does the same with a [`SavedMatch`]: the
//! command line it was started with (less `-config` and `-resume`), the directory it was started
//! in (its paths are relative to that), its journal, and its standings when last saved. So:
//!
//! * `tuner match ... -config file=NAME` (or `outname=NAME`) starts a match saved in NAME; a
//!   NAME that holds an unfinished match is refused rather than overwritten.
//! * `tuner match -config file=NAME`, alone, becomes that command line with `-resume`
//!   ([`resume_args`]), run in the saved directory: only the pairs its journal lacks are played.
//! * `discard=true` plays the command line given afresh, replacing what NAME held.
//!
//! What makes a resume lose nothing is the journal, not the autosave: every game pair is in
//! it (written and synced) before the runner counts it, so a `kill -9` loses only games in
//! progress. Without `-pgnout` or `-state` the journal is `NAME.state.jsonl`. `-autosaveinterval
//! N` sets how often the saved standings are rewritten (every N games, at pair boundaries; 0:
//! only at the start and the end). They are what a resume checks the journal against: a journal
//! with fewer games than the last save recorded was cut or replaced, and the resume stops there.
//! Unlike fastchess, a match without `-config` saves nothing besides its journal (no
//! `config.json` appears in the working directory).

use std::{
    ffi::OsString,
    path::{Path, PathBuf},
};

use anyhow::{Context as _, bail};
use arena::results::{PairStats, Standings};
use serde::{Deserialize, Serialize};

/// fastchess's default `-autosaveinterval`.
pub const DEFAULT_AUTOSAVE: u64 = 20;

/// What a saved match file's `format` says, so that another program's JSON (fastchess's own
/// `config.json`) is refused by name rather than misread.
const FORMAT: &str = "evochess-tuner-match";
const VERSION: u32 = 1;

/// `-config`'s settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigOption {
    pub file: Option<PathBuf>,
    pub outname: Option<PathBuf>,
    pub discard: bool,
}

impl ConfigOption {
    /// `file=NAME discard=true|false outname=NAME stats=true`.
    pub fn parse(tokens: &[String]) -> anyhow::Result<ConfigOption> {
        let mut c = ConfigOption::default();
        for t in tokens {
            match t.split_once('=') {
                Some(("file", v)) if !v.is_empty() => c.file = Some(PathBuf::from(v)),
                Some(("outname", v)) if !v.is_empty() => c.outname = Some(PathBuf::from(v)),
                Some(("discard", v)) => c.discard = super::parse_bool("-config", "discard", v)?,
                Some(("stats", v)) => {
                    if !super::parse_bool("-config", "stats", v)? {
                        bail!(
                            "-config stats=false: a resumed match always counts the games of its journal; start \
                             afresh with discard=true instead"
                        );
                    }
                }
                _ => bail!("-config: unknown setting `{t}` (expected file=NAME, discard=true|false, outname=NAME)"),
            }
        }
        Ok(c)
    }

    /// Where the match is saved: `outname=`, else `file=`, else fastchess's `config.json`.
    pub fn save_path(&self) -> PathBuf {
        self.outname.clone().or_else(|| self.file.clone()).unwrap_or_else(|| PathBuf::from("config.json"))
    }
}

/// A saved match (JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedMatch {
    pub format: String,
    pub version: u32,
    /// `match`, `gauntlet` or `roundrobin`.
    pub subcommand: String,
    /// The directory the match was started in; the paths of `args` are relative to it.
    pub dir: PathBuf,
    /// The command line after the subcommand, in the runner's long form, without `-config` and
    /// `-resume`.
    pub args: Vec<String>,
    /// The resume journal.
    pub state: PathBuf,
    pub games_planned: u64,
    /// Games played when last saved.
    pub games_played: u64,
    pub finished: bool,
    /// Per pairing, when last saved (fastchess's `stats`).
    pub stats: Vec<PairStats>,
}

impl SavedMatch {
    /// Reads a saved match, naming the file in every error.
    pub fn load(path: &Path) -> anyhow::Result<SavedMatch> {
        let shown = path.display();
        let text = evochess::input::read_text(path, evochess::input::MAX_CONFIG_BYTES)
            .map_err(|e| anyhow::anyhow!("-config file={shown}: {}", e.reason()))?;
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!("-config file={shown}: not JSON (line {}, column {})", e.line(), e.column())
        })?;
        if v.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            bail!("-config file={shown}: not a match saved by `tuner` -config (fastchess's own files are not read)");
        }
        if v.get("version").and_then(|f| f.as_u64()) != Some(u64::from(VERSION)) {
            bail!("-config file={shown}: saved by another version of `tuner` (expected version {VERSION})");
        }
        serde_json::from_value(v).map_err(|e| anyhow::anyhow!("-config file={shown}: damaged ({e})"))
    }
}

/// `tuner match|gauntlet|roundrobin -config file=NAME` with no other option (and no
/// `discard=true`) becomes the command line saved in NAME with `--resume`, to run in the
/// directory returned with it (the caller changes there: the saved paths are relative to it).
/// Any other command line is returned as it is. `args` are in the runner's long form
/// ([`super::cutechess_style_args`]'s output).
pub fn resume_args(args: Vec<OsString>) -> anyhow::Result<(Vec<OsString>, Option<PathBuf>)> {
    let Some(sub) = args.get(1).and_then(|a| a.to_str()).filter(|a| super::CUTECHESS_STYLE.contains(a)) else {
        return Ok((args, None));
    };
    let rest = match args[2..].iter().map(|a| a.to_str().map(str::to_string)).collect::<Option<Vec<String>>>() {
        Some(rest) => rest,
        None => return Ok((args, None)),
    };
    let (config, others) = split_config(&rest);
    let Some(tokens) = config else { return Ok((args, None)) };
    let opt = ConfigOption::parse(&tokens)?;
    let Some(file) = opt.file.as_ref().filter(|_| !opt.discard && others.is_empty()) else {
        return Ok((args, None));
    };
    if opt.outname.is_some() {
        bail!("-config file={} outname=: a resumed match is saved where it was loaded from", file.display());
    }
    let file = std::path::absolute(file).with_context(|| format!("-config file={}", file.display()))?;
    let saved = SavedMatch::load(&file)?;
    if sub != "match" && sub != saved.subcommand {
        bail!("-config file={}: the match saved there is a `tuner {}`, not a {sub}", file.display(), saved.subcommand);
    }
    if !saved.dir.is_dir() {
        bail!(
            "-config file={}: the directory the match was started in, {}, is gone (its paths are relative to it)",
            file.display(),
            saved.dir.display()
        );
    }
    let mut out: Vec<OsString> = vec![args[0].clone(), saved.subcommand.clone().into()];
    out.extend(saved.args.iter().map(OsString::from));
    out.extend(["--resume", "--config"].map(OsString::from));
    out.push(format!("file={}", file.display()).into());
    Ok((out, Some(saved.dir)))
}

/// The tokens of `--config` (if given) and the arguments without it and them.
fn split_config(args: &[String]) -> (Option<Vec<String>>, Vec<String>) {
    let mut config = None;
    let mut others = Vec::new();
    let mut in_config = false;
    for a in args {
        if super::is_option(a) {
            in_config = a == "--config";
            if in_config {
                config.get_or_insert_with(Vec::new);
                continue;
            }
        }
        match (&mut config, in_config) {
            (Some(c), true) => c.push(a.clone()),
            _ => others.push(a.clone()),
        }
    }
    (config, others)
}

/// Games recorded in a runner journal (0 when there is none).
fn journal_games(journal: &Path) -> anyhow::Result<u64> {
    if !journal.exists() {
        return Ok(0);
    }
    let units =
        arena::results::journal_units(journal).with_context(|| format!("state file `{}`", journal.display()))?;
    Ok(units.iter().map(|u| u.games.len() as u64).sum())
}

/// A match being saved: where, how often, and what.
#[derive(Debug)]
pub struct Saving {
    path: PathBuf,
    interval: u64,
    saved: SavedMatch,
    /// Whether this run resumes the saved match (its file is then left alone until the runner
    /// has read the journal back).
    resuming: bool,
}

impl Saving {
    /// Checks `-config` against what its file holds and makes sure the match has a journal:
    /// `state` (the command line's `-state`) becomes `NAME.state.jsonl` when neither it nor
    /// `-pgnout` was given. `command_line` is the runner's long form after the subcommand.
    pub fn prepare(
        tokens: &[String],
        autosave: Option<u64>,
        subcommand: &str,
        command_line: Option<&[String]>,
        resume: bool,
        state: &mut Option<PathBuf>,
        has_pgnout: bool,
    ) -> anyhow::Result<Saving> {
        let opt = ConfigOption::parse(tokens)?;
        let Some(command_line) = command_line else {
            bail!("-config: an argument of the command line is not UTF-8, so it cannot be saved");
        };
        let path = opt.save_path();
        let path = std::path::absolute(&path).with_context(|| format!("-config: {}", path.display()))?;
        let shown = path.display();
        if resume {
            if !path.exists() {
                bail!("-config file={shown}: -resume continues a saved match, and there is none there");
            }
        } else if path.exists() && !opt.discard {
            match SavedMatch::load(&path) {
                // Finished, or stopped before its first game (an engine that did not start).
                Ok(s) if s.finished || (s.games_played == 0 && journal_games(&s.dir.join(&s.state))? == 0) => {}
                Ok(s) => bail!(
                    "-config: {shown} holds an unfinished match ({} of {} games): resume it with `tuner {} -config \
                     file={shown}` alone, or start afresh with `-config file={shown} discard=true`",
                    s.games_played,
                    s.games_planned,
                    s.subcommand
                ),
                Err(e) => bail!("{e}; not overwritten: choose another file, or give discard=true to replace it"),
            }
        }
        let (_, mut args) = split_config(command_line);
        args.retain(|a| a != "--resume");
        if state.is_none() && !has_pgnout {
            let mut journal = path.clone().into_os_string();
            journal.push(".state.jsonl");
            let journal = PathBuf::from(journal);
            args.extend(["--state".to_string(), journal.display().to_string()]);
            *state = Some(journal);
        }
        let dir = std::env::current_dir().context("-config: the working directory")?;
        let saved = SavedMatch {
            format: FORMAT.into(),
            version: VERSION,
            subcommand: subcommand.into(),
            dir,
            args,
            state: PathBuf::new(),
            games_planned: 0,
            games_played: 0,
            finished: false,
            stats: Vec::new(),
        };
        Ok(Saving { path, interval: autosave.unwrap_or(DEFAULT_AUTOSAVE), saved, resuming: resume })
    }

    /// Before the match: a resumed match's journal must hold every game the last save counted
    /// (else it was cut or replaced and games would be lost); a new match is saved at once, so
    /// that an unwritable file fails before any game and a kill at any point can be resumed.
    /// `state` is the match's journal as the runner resolved it.
    pub fn start(&mut self, games_planned: u64, state: Option<&Path>) -> anyhow::Result<()> {
        self.saved.games_planned = games_planned;
        self.saved.state = state.map(Path::to_path_buf).unwrap_or_default();
        if self.resuming {
            let last = SavedMatch::load(&self.path)?;
            let journal = &self.saved.state;
            let in_journal = journal_games(journal)?;
            if in_journal < last.games_played {
                bail!(
                    "-config file={}: its last save counted {} games but the state file `{}` holds {in_journal}: \
                     the journal was cut or replaced; restore it, or start afresh with discard=true",
                    self.path.display(),
                    last.games_played,
                    journal.display()
                );
            }
            return Ok(());
        }
        log::info!(
            "match saved in {} ({}); resume it with `tuner {} -config file={0}`",
            self.path.display(),
            match self.interval {
                0 => "at its start and end".to_string(),
                n => format!("every {n} games"),
            },
            self.saved.subcommand
        );
        self.write()
    }

    /// After games: saves the standings when they have passed a multiple of the interval since
    /// the last save (at once when resuming: the file then gets this run's start).
    pub fn after_games(&mut self, standings: &Standings) -> anyhow::Result<()> {
        let due = match self.interval {
            _ if self.resuming => true,
            0 => false,
            n => standings.games / n > self.saved.games_played / n,
        };
        if !due {
            return Ok(());
        }
        self.resuming = false;
        self.saved.games_played = standings.games;
        self.saved.stats = standings.pair_stats();
        self.write()
    }

    /// At the end of the match.
    pub fn finish(&mut self, games_played: u64, stats: Vec<PairStats>) -> anyhow::Result<()> {
        (self.saved.games_played, self.saved.stats, self.saved.finished) = (games_played, stats, true);
        self.write()
    }

    fn write(&self) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(&self.saved).expect("a saved match serialises");
        arena::files::write_atomic(&self.path, text.as_bytes())
            .with_context(|| format!("-config: cannot save the match to {}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn config_settings() {
        let c = ConfigOption::parse(&strings(&["file=a.json", "discard=true"])).unwrap();
        assert_eq!(c, ConfigOption { file: Some("a.json".into()), outname: None, discard: true });
        assert_eq!(c.save_path(), PathBuf::from("a.json"));
        let c = ConfigOption::parse(&strings(&["file=a.json", "outname=b.json", "stats=true"])).unwrap();
        assert_eq!(c.save_path(), PathBuf::from("b.json"));
        assert_eq!(ConfigOption::default().save_path(), PathBuf::from("config.json"));
        for (tokens, needle) in [
            (&["stats=false"][..], "discard=true instead"),
            (&["file="], "unknown setting `file=`"),
            (&["colour=red"], "unknown setting `colour=red`"),
            (&["discard=maybe"], "`discard=maybe` is not true or false"),
        ] {
            let e = ConfigOption::parse(&strings(tokens)).unwrap_err().to_string();
            assert!(e.contains(needle), "{tokens:?}: {e}");
        }
    }

    #[test]
    fn the_config_group_is_taken_out_of_the_command_line() {
        let line = strings(&["--engine", "cmd=x", "--config", "file=a.json", "discard=true", "--rounds", "3"]);
        let (config, others) = split_config(&line);
        assert_eq!(config, Some(strings(&["file=a.json", "discard=true"])));
        assert_eq!(others, strings(&["--engine", "cmd=x", "--rounds", "3"]));
        assert_eq!(split_config(&strings(&["--rounds", "3"])), (None, strings(&["--rounds", "3"])));
    }

    #[test]
    fn standings_are_saved_every_interval_games_and_at_the_end() {
        use arena::{
            outcome::{GameOutcome, Termination},
            results::GameSummary,
        };
        let dir = std::env::temp_dir().join(format!("evochess-saving-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("m.json");
        let journal = PathBuf::from(format!("{}.state.jsonl", file.display()));
        let given = format!("file={}", file.display());
        let line = strings(&["--engine", "cmd=x", "--config", &given, "--rounds", "4"]);
        let draw = |white, black| GameSummary {
            white,
            black,
            outcome: GameOutcome::Draw,
            termination: Termination::Normal,
            reason: String::new(),
            plies: 10,
        };
        for (interval, saved_after) in [(4, [0, 4, 4, 8]), (0, [0, 0, 0, 0])] {
            let mut state = None;
            let mut s = Saving::prepare(
                std::slice::from_ref(&given),
                Some(interval),
                "match",
                Some(&line),
                false,
                &mut state,
                false,
            )
            .unwrap();
            // Without -pgnout or -state, the journal is beside the file, and the resume finds it.
            assert_eq!(state.as_ref(), Some(&journal));
            s.start(8, state.as_deref()).unwrap();
            let first = SavedMatch::load(&file).unwrap();
            assert_eq!(
                first.args,
                strings(&["--engine", "cmd=x", "--rounds", "4", "--state", &journal.display().to_string()])
            );
            assert_eq!((first.games_planned, first.games_played, first.finished), (8, 0, false));
            let mut standings = Standings::new(&strings(&["a", "b"]), &[(0, 1)]);
            for expected in saved_after {
                standings.add_unit(&[draw(0, 1), draw(1, 0)]);
                s.after_games(&standings).unwrap();
                assert_eq!(SavedMatch::load(&file).unwrap().games_played, expected, "interval {interval}");
            }
            s.finish(8, standings.pair_stats()).unwrap();
            let end = SavedMatch::load(&file).unwrap();
            assert_eq!((end.games_played, end.finished, end.stats[0].games), (8, true, 8));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_a_lone_config_file_is_a_resume() {
        let args = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        // Not the runner, no -config, other options, discard=true: left as they are.
        for line in [
            &["tuner", "evolve", "--config", "file=x.toml"][..],
            &["tuner", "match", "--rounds", "2"],
            &["tuner", "match", "--engine", "cmd=x", "--config", "file=/no/such.json"],
            &["tuner", "match", "--config", "file=/no/such.json", "discard=true"],
        ] {
            assert_eq!(resume_args(args(line)).unwrap(), (args(line), None), "{line:?}");
        }
        let e = resume_args(args(&["tuner", "match", "--config", "file=/no/such.json"])).unwrap_err().to_string();
        assert!(e.starts_with("-config file=/no/such.json: "), "{e}");
        let dir = std::env::temp_dir().join(format!("evochess-saved-match-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("m.json");
        std::fs::write(&file, r#"{"tournament": "fastchess"}"#).unwrap();
        let e = resume_args(args(&["tuner", "match", "--config", &format!("file={}", file.display())]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a match saved by `tuner` -config"), "{e}");
        let saved = SavedMatch {
            format: FORMAT.into(),
            version: VERSION,
            subcommand: "gauntlet".into(),
            dir: dir.clone(),
            args: strings(&["--engine", "cmd=a\nname=x", "--engine", "cmd=b", "--state", "j.jsonl"]),
            state: "j.jsonl".into(),
            games_planned: 4,
            games_played: 2,
            finished: false,
            stats: Vec::new(),
        };
        std::fs::write(&file, serde_json::to_string(&saved).unwrap()).unwrap();
        let given = format!("file={}", file.display());
        let (line, cwd) = resume_args(args(&["tuner", "match", "--config", &given])).unwrap();
        assert_eq!(
            line,
            args(&[
                "tuner",
                "gauntlet",
                "--engine",
                "cmd=a\nname=x",
                "--engine",
                "cmd=b",
                "--state",
                "j.jsonl",
                "--resume",
                "--config",
                &given
            ])
        );
        assert_eq!(cwd, Some(dir.clone()));
        let e = resume_args(args(&["tuner", "roundrobin", "--config", &given])).unwrap_err().to_string();
        assert!(e.contains("is a `tuner gauntlet`, not a roundrobin"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
