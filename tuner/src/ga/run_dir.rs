//! One start policy for every evolution command's output directory: a directory that holds a
//! run is continued only with `--resume` and replaced only with `--force`; `--resume` with
//! nothing to resume is an error (a mistyped directory must not silently start hours of new
//! work); and a second tuner on the same directory is refused by a lock held for the whole run.

use std::{
    fs::File,
    io,
    path::{Path, PathBuf},
};

use thiserror::Error;

use arena::files::lock_out_dir;

/// How a run treats what its output directory already holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Start {
    /// A new run; refused where one exists.
    #[default]
    Fresh,
    /// Continue the existing run; refused where there is none.
    Resume,
    /// Continue where there is a run, start one where there is none (the pipeline's stages
    /// under `tuner pipeline --resume`: a stage not reached yet has nothing to resume).
    ResumeOrFresh,
    /// Discard the existing run's state and start over.
    Force,
}

impl Start {
    /// From a command's `--resume` and `--force` flags (clap keeps them exclusive).
    pub fn from_flags(resume: bool, force: bool) -> Start {
        match (resume, force) {
            (true, _) => Start::Resume,
            (false, true) => Start::Force,
            (false, false) => Start::Fresh,
        }
    }

    /// Whether an existing checkpoint is to be continued.
    pub fn resumes(self) -> bool {
        matches!(self, Start::Resume | Start::ResumeOrFresh)
    }
}

#[derive(Debug, Error)]
pub enum RunDirError {
    #[error(
        "{dir} already holds a run ({state}); pass --resume to continue it, or --force to discard it and start over"
    )]
    Existing { dir: String, state: String },
    #[error("--resume: {dir} holds no run to resume (no checkpoint {state}); start without --resume")]
    NothingToResume { dir: String, state: String },
    #[error(
        "--resume: {state} was written by an older tuner, in a format this one does not read; finish that run with the tuner that started it, or pass --force to start over"
    )]
    OlderFormat { state: String },
    #[error("{dir}: {source}")]
    Io { dir: String, source: io::Error },
}

/// Opens the output directory of a command whose generations are games with journals
/// (`quick`, `roundrobin-ga`) and returns it with its checkpoint, `<out>/checkpoint.json`. A run
/// killed in its first generation has only `gen-000/games.journal` to resume; the
/// `state.json` of an older tuner is refused on `--resume`.
pub fn open_game_run(out: &Path, start: Start) -> Result<(RunDir, PathBuf), RunDirError> {
    let checkpoint = out.join("checkpoint.json");
    let older = out.join("state.json");
    let state = [checkpoint.clone(), out.join("gen-000/games.journal"), older.clone()];
    let held = RunDir::open(out, &state, start)?;
    refuse_older_checkpoint(&older, start)?;
    Ok((held, checkpoint))
}

/// Refuses to resume from `older`, a checkpoint file an earlier tuner wrote in a format since
/// replaced, rather than ignoring it and starting over beside its games. List it among the
/// run's state files too, so that a fresh start is refused and `--force` removes it.
pub fn refuse_older_checkpoint(older: &Path, start: Start) -> Result<(), RunDirError> {
    if start.resumes() && older.exists() {
        return Err(RunDirError::OlderFormat { state: older.display().to_string() });
    }
    Ok(())
}

/// An output directory held by one run: locked while this value lives.
#[derive(Debug)]
pub struct RunDir {
    pub dir: PathBuf,
    /// Whether this run is continued: the policy resumes and the directory held its state.
    resumes: bool,
    _lock: File,
}

impl RunDir {
    /// Whether the run in this directory is continued rather than started: under
    /// [`Start::ResumeOrFresh`], only where the directory held the run's state.
    pub fn resumes(&self) -> bool {
        self.resumes
    }

    /// Locks `dir` and applies `start` to the run whose state is `state` (its checkpoint
    /// files; a run exists where any of them does). With [`Start::Force`] they are removed, so
    /// the command starts over as if the directory were new.
    pub fn open(dir: &Path, state: &[PathBuf], start: Start) -> Result<RunDir, RunDirError> {
        RunDir::open_checked(dir, state, start, || Ok::<_, RunDirError>(())).map(|(held, ())| held)
    }

    /// [`RunDir::open`] with the `check` of [`RunDir::open_all_checked`].
    pub fn open_checked<T, E: From<RunDirError>>(
        dir: &Path,
        state: &[PathBuf],
        start: Start,
        check: impl FnOnce() -> Result<T, E>,
    ) -> Result<(RunDir, T), E> {
        let (mut held, checked) = RunDir::open_all_checked(&[(dir.to_path_buf(), state.to_vec())], start, check)?;
        Ok((held.pop().expect("one directory"), checked))
    }

    /// [`RunDir::open`] for the independent runs of one command (`tuner evolve --runs N`, each
    /// in its own directory so that processes can share the runs out): every directory is
    /// locked, then the policy applies to the runs as a whole, so `--resume` continues the
    /// started runs and starts the others, and a fresh start is refused if any run exists.
    pub fn open_all(runs: &[(PathBuf, Vec<PathBuf>)], start: Start) -> Result<Vec<RunDir>, RunDirError> {
        RunDir::open_all_checked(runs, start, || Ok::<_, RunDirError>(())).map(|(held, ())| held)
    }

    /// [`RunDir::open_all`] that runs `check` (reading the run's inputs) once the directories
    /// are locked and before [`Start::Force`] removes anything: a run that cannot start leaves
    /// the old one in place.
    pub fn open_all_checked<T, E: From<RunDirError>>(
        runs: &[(PathBuf, Vec<PathBuf>)],
        start: Start,
        check: impl FnOnce() -> Result<T, E>,
    ) -> Result<(Vec<RunDir>, T), E> {
        let mut held = Vec::new();
        for (dir, state) in runs {
            let lock =
                lock_out_dir(dir).map_err(|source| RunDirError::Io { dir: dir.display().to_string(), source })?;
            let resumes = start.resumes() && state.iter().any(|p| p.exists());
            held.push(RunDir { dir: dir.clone(), resumes, _lock: lock });
        }
        let existing = runs.iter().flat_map(|(d, s)| s.iter().map(move |p| (d, p))).find(|(_, p)| p.exists());
        let first = runs.first().map(|(d, s)| (d, s.first()));
        let shown = |d: &Path| d.display().to_string();
        match (start, existing, first) {
            (Start::Fresh, Some((dir, state)), _) => {
                return Err(RunDirError::Existing { dir: shown(dir), state: shown(state) }.into());
            }
            (Start::Resume, None, Some((dir, state))) => {
                let state = state.map_or_else(String::new, |p| shown(p));
                return Err(RunDirError::NothingToResume { dir: shown(dir), state }.into());
            }
            _ => {}
        }
        let checked = check()?;
        if start == Start::Force {
            for (dir, state) in runs {
                for p in state.iter().filter(|p| p.exists()) {
                    std::fs::remove_file(p).map_err(|source| RunDirError::Io { dir: shown(dir), source })?;
                }
            }
        }
        Ok((held, checked))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_policy_for_existing_missing_and_locked_runs() {
        let dir = std::env::temp_dir().join(format!("evochess-run-dir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let state = vec![dir.join("checkpoint.json")];
        let e = RunDir::open(&dir, &state, Start::Resume).unwrap_err().to_string();
        assert!(e.contains("--resume") && e.contains("no checkpoint"), "{e}");
        let held = RunDir::open(&dir, &state, Start::Fresh).unwrap();
        let e = RunDir::open(&dir, &state, Start::Fresh).unwrap_err().to_string();
        assert!(e.contains("another running tuner"), "{e}");
        drop(held);
        std::fs::write(&state[0], "{}").unwrap();
        let e = RunDir::open(&dir, &state, Start::Fresh).unwrap_err().to_string();
        assert!(e.contains("--resume") && e.contains("--force") && e.contains("checkpoint.json"), "{e}");
        assert!(RunDir::open(&dir, &state, Start::Resume).unwrap().resumes());
        assert!(RunDir::open(&dir, &state, Start::ResumeOrFresh).unwrap().resumes());
        assert!(!RunDir::open(&dir, &state, Start::Force).unwrap().resumes());
        assert!(!state[0].exists(), "--force discards the old state");
        assert!(!RunDir::open(&dir, &state, Start::ResumeOrFresh).unwrap().resumes(), "nothing to resume: a new run");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_older_checkpoint_format_is_refused_on_resume_only() {
        let dir = std::env::temp_dir().join(format!("evochess-older-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let older = dir.join("state.json");
        refuse_older_checkpoint(&older, Start::Resume).unwrap();
        std::fs::write(&older, "{}").unwrap();
        let e = refuse_older_checkpoint(&older, Start::Resume).unwrap_err().to_string();
        assert!(e.contains("state.json") && e.contains("older tuner") && e.contains("--force"), "{e}");
        refuse_older_checkpoint(&older, Start::Force).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
