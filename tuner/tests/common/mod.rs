//! Shared helpers for the tests that run the `tuner` binary: scratch directories, the engine
//! and data locations, running the tuner, and killing it with SIGKILL mid-run for `--resume`.

#![allow(dead_code)] // each test crate uses a different subset

use std::{
    collections::HashSet,
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Child, Command, Output, Stdio},
    sync::mpsc,
    thread,
    time::{Duration, Instant},
};

pub const TUNER: &str = env!("CARGO_BIN_EXE_tuner");

/// Removes the scratch directories and files (`evochess-…-<pid>-…`, `tuner-test-<pid>-…`) under the
/// temp dir whose process no longer runs: without it every test run leaves a few hundred megabytes behind
/// (copied binaries, games, journals). Only where `/proc` tells which processes run.
fn sweep_exited() {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.starts_with("evochess-") || name.starts_with("tuner-test-")) {
            continue;
        }
        let pid = name.split('-').find(|part| part.len() > 1 && part.bytes().all(|b| b.is_ascii_digit()));
        if let Some(pid) = pid
            && !proc.join(pid).exists()
        {
            let path = entry.path();
            let _ = if path.is_dir() { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
        }
    }
}

/// The tuner crate's directory.
pub fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The repository root.
pub fn repo() -> PathBuf {
    manifest().join("..")
}

/// An empty directory for one test: `evochess-<prefix>-<pid>-<name>` under the system temp dir.
/// A passing test leaves its directory for inspection; the next test binary to ask for one
/// removes those of test processes that have exited ([`sweep_exited`]).
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(sweep_exited);
    let dir = std::env::temp_dir().join(format!("evochess-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Where `cargo build --workspace` puts the engine binary: next to the tuner.
fn engine_path() -> PathBuf {
    Path::new(TUNER).with_file_name(format!("evochess{}", std::env::consts::EXE_SUFFIX))
}

/// The engine binary; fails the test when it is not built.
pub fn engine_binary() -> PathBuf {
    let exe = engine_path();
    assert!(exe.exists(), "{} not found: run `cargo build --workspace` first", exe.display());
    exe
}

/// A file of the repository's fixtures (`tests/data/` at the root).
pub fn fixture(rel: &str) -> PathBuf {
    evochess::data::fixture(rel)
}

/// A file of the shared data set; fails the test, naming what is missing, when it is absent.
pub fn shared_data(rel: &str) -> PathBuf {
    evochess::data::shared_data(rel).unwrap_or_else(|e| panic!("{e}"))
}

/// Process output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs the tuner to completion with `RUST_LOG=warn`, so stderr holds warnings and errors only.
pub fn tuner(args: &[&str]) -> Output {
    tuner_logging("warn", args)
}

/// Runs the tuner to completion with the given `RUST_LOG` level, for tests that read its log.
pub fn tuner_logging(level: &str, args: &[&str]) -> Output {
    Command::new(TUNER).args(args).env("RUST_LOG", level).output().expect("tuner runs")
}

/// Runs the tuner like [`tuner`] and fails the test unless it succeeds.
pub fn tuner_ok(args: &[&str]) -> Output {
    let out = tuner(args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

/// Runs the tuner like [`tuner`], fails the test if it succeeds, and returns its stderr.
pub fn tuner_err(args: &[&str]) -> String {
    let out = tuner(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    text(&out.stderr)
}

/// Asserts that the tuner fails with `needle` in its error message and without a panic.
pub fn assert_fails_with(args: &[&str], needle: &str) {
    let err = tuner_err(args);
    assert!(err.contains(needle), "{args:?}: stderr lacks `{needle}`: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Games in a PGN file (0 when there is no file yet).
pub fn games_in(pgn: &Path) -> usize {
    std::fs::read_to_string(pgn).unwrap_or_default().matches("[Event ").count()
}

/// Unit ids of a runner journal, every complete line after the header (duplicates kept).
pub fn journal_units(path: &Path) -> Vec<u64> {
    let Ok(t) = std::fs::read_to_string(path) else { return Vec::new() };
    t.split_inclusive('\n')
        .skip(1)
        .filter(|l| l.ends_with('\n'))
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| v["unit"].as_u64().unwrap())
        .collect()
}

/// Asserts that no unit of a runner journal is recorded twice: no finished game was replayed.
pub fn assert_each_unit_once(journal: &Path) {
    let units = journal_units(journal);
    let unique: HashSet<u64> = units.iter().copied().collect();
    assert_eq!(unique.len(), units.len(), "{}: a finished game was played again", journal.display());
}

/// Runs the tuner with `args` and its info log on a pipe, reads the log until a line satisfies
/// `ready`, then kills it with SIGKILL. The log is not read past that line, so the run blocks
/// once the pipe fills (64 KiB): however late the kill lands on a loaded machine, a run with
/// more log left to write than that is still going, and the kill cannot miss it (a run of
/// fast generations finishes between two polls of its checkpoint).
pub fn kill_9_on_log(args: &[&str], limit: Duration, what: &str, ready: impl Fn(&str) -> bool + Send + 'static) {
    let mut child = spawn_tuner(args, "info", Stdio::piped());
    let log = child.stderr.take().expect("piped stderr");
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(log);
        let mut line = String::new();
        let seen = loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => break false,
                Ok(_) if ready(&line) => break true,
                Ok(_) => {}
            }
        };
        // The reader goes back with the verdict: the pipe stays open (and fills) until the kill.
        let _ = tx.send((seen, reader));
    });
    let Ok((seen, _open_pipe)) = rx.recv_timeout(limit) else {
        let _ = child.kill();
        panic!("timed out after {limit:?} waiting for {what}");
    };
    let running = kill_9(&mut child);
    assert!(seen, "the run's log ended before {what}");
    assert!(running, "the run ended before the kill");
}

/// The tuner with `args`, its stdout discarded, its log at `rust_log` on `stderr`.
fn spawn_tuner(args: &[&str], rust_log: &str, stderr: Stdio) -> Child {
    Command::new(TUNER)
        .args(args)
        .env("RUST_LOG", rust_log)
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("tuner starts")
}

/// Kills `child` with SIGKILL and reaps it; whether it was still running.
fn kill_9(child: &mut Child) -> bool {
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    running
}

/// Starts the tuner with `args` and its output discarded, polls `ready` until it holds, then kills
/// the tuner with SIGKILL. Fails the test when the tuner ends first or `ready` does not hold within
/// `limit` (`what` names the awaited progress in that message).
pub fn kill_9_when(args: &[&str], limit: Duration, what: &str, mut ready: impl FnMut() -> bool) {
    let mut child = spawn_tuner(args, "warn", Stdio::null());
    let started = Instant::now();
    while !ready() {
        assert!(child.try_wait().unwrap().is_none(), "finished before it could be killed");
        assert!(started.elapsed() < limit, "timed out after {limit:?} waiting for {what}");
        thread::sleep(Duration::from_millis(5));
    }
    let running = kill_9(&mut child);
    assert!(running, "the run ended before the kill");
}
