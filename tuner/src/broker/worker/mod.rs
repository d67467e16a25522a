//! `tuner worker`: takes tasks from every open run on the broker, runs them with the local
//! runner (games) or fitness (evolve), writes the answer, and only then acknowledges the task.
//!
//! A worker runs only the programs of its engines file, and only after its build of each gives
//! the coordinator's bench signature: a worker with another build answers the run with a
//! refusal (the coordinator logs it), leaves the task to others, and exits with an error.
//!
//! Everything else a task can get wrong goes to the dead-letter stream (see [`super`]): the
//! worker acknowledges the task, tells its coordinator, and serves on. Its files (the params
//! texts of specs) live in a private directory it creates with an unpredictable name and mode
//! 0700 and removes on exit (on SIGTERM and SIGINT too, through [`WorkerConfig::interrupt`]);
//! their names are a counter, never an id from the broker. A games spec whose limits exceed
//! [`super::wire::caps`] is a dead letter: a task runs, its claim renewed, as long as it says.
//!
//! Nothing is run before its MAC verifies ([`super::mac`]). A run whose spec does not verify
//! is not served for [`DISTRUST_FOR`]: the worker cannot tell a forged spec from a secret file
//! that is not the coordinator's, so it logs the run and why, tells the run's coordinator (a
//! refusal), leaves the run's tasks unacknowledged for other workers and serves on. Once a
//! spec verifies, a task of its run that does not is forged: a dead letter. Answers, refusals
//! and dead-letter notes go out signed.
//!
//! A run cancelled by `tuner runs cancel` ([`super::runs`]) is left at once: its tasks are
//! gone from the broker, the heartbeat sees the flag of a run whose task is under way and stops
//! that task's games (they end as aborted at their next move), and its answer is dropped, as is
//! any task of the run the worker had read ahead.
//!
//! The parts: `engines` reads the engines file; `serve` is a task thread's loop (claim, run,
//! settle), `task` runs one task against its run's checked spec, `reply` writes answers,
//! refusals and dead letters, and `heartbeat` renews the claims meanwhile.

mod engines;
mod heartbeat;
mod reply;
mod serve;
mod task;

pub use engines::{EnginesFile, LocalProgram};
pub use task::check_spec;

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering},
    },
    thread,
    time::{Duration, Instant},
};

use thiserror::Error;

use super::{BrokerConfig, BrokerError, kinds::TaskKinds, valid_run_id};
use task::RunWork;

#[derive(Debug, Error)]
pub enum WorkerError {
    #[error(transparent)]
    Broker(#[from] BrokerError),
    #[error("engines file `{path}`: {reason}")]
    Engines { path: String, reason: String },
    #[error("refused run {run}: {reason}")]
    Refused { run: String, reason: String },
    #[error("worker files in `{path}`: {source}")]
    Io { path: String, source: std::io::Error },
}

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    pub broker: BrokerConfig,
    /// Tasks run at once (threads, each with its own engines).
    pub concurrency: usize,
    pub engines: EnginesFile,
    /// Prefix of the consumer names (host and pid by default).
    pub name: String,
    /// Exit after this long without a task (scripts, benchmarks); `None`: serve until killed.
    pub idle_exit: Option<Duration>,
    /// A task delivered more often than this (its workers died or hung on it) goes to the
    /// dead-letter stream.
    pub max_deliveries: u64,
    /// The in-process task kinds served beside games (registered by the command).
    pub kinds: TaskKinds,
    /// Set to a signal's number (by [`crate::signals::catch_termination`]'s handler) when the
    /// worker is to stop: it stops taking tasks, waits [`STOP_GRACE`] for those it runs, removes
    /// its directory and returns. `None`: only `idle_exit` or a refusal ends it.
    pub interrupt: Option<&'static AtomicI32>,
}

impl WorkerConfig {
    pub const DEFAULT_MAX_DELIVERIES: u64 = 3;
}

/// Largest run spec a worker reads (an evolve spec carries its training positions).
pub const MAX_SPEC_BYTES: usize = 64 << 20;
/// Largest task body and params text a worker accepts.
pub const MAX_TASK_BYTES: usize = 1 << 20;
/// Most engines in a games spec.
const MAX_ENGINES: usize = 256;
/// How long a worker told to stop waits for its tasks: those between two tasks end within a
/// broker read; one mid-game is left, unanswered, for another worker to take over once the
/// visibility timeout passes.
pub const STOP_GRACE: Duration = Duration::from_secs(3);
/// How long a run whose spec does not verify is passed over before its spec is read again (a
/// coordinator may have stored its own meanwhile).
pub const DISTRUST_FOR: Duration = Duration::from_secs(60);

struct Shared {
    cfg: WorkerConfig,
    /// Tasks being run: entry id → (tasks key, consumer), renewed by the heartbeat.
    held: Mutex<HashMap<String, (String, String)>>,
    /// Each run's stop flag, given to its games ([`UnitPlayer::with_stop`]): the heartbeat sets
    /// it when the run is cancelled.
    stops: Mutex<HashMap<String, Arc<AtomicBool>>>,
    stop: AtomicBool,
    failure: Mutex<Option<WorkerError>>,
    /// Local signatures by program.
    signatures: Mutex<HashMap<String, String>>,
    /// Each run's prepared spec, or why no worker may serve it.
    specs: Mutex<HashMap<String, Result<Arc<RunWork>, String>>>,
    /// Runs whose spec did not verify, and until when they are passed over.
    distrusted: Mutex<HashMap<String, Instant>>,
    /// The private directory of this worker's files.
    params_dir: PathBuf,
    /// Names the params files: a counter, never an id from the broker.
    files: AtomicU64,
    last_task: Mutex<Instant>,
    done: AtomicU64,
}

/// Serves tasks until killed, idle for `idle_exit`, or refused.
pub fn run(cfg: WorkerConfig) -> Result<u64, WorkerError> {
    // Fails now, not in a thread, when the broker cannot be reached.
    drop(cfg.broker.connect()?);
    let params_dir = private_dir(&std::env::temp_dir())
        .map_err(|source| WorkerError::Io { path: std::env::temp_dir().display().to_string(), source })?;
    log::info!(
        "worker {}: {} task(s) at once, programs: {}",
        cfg.name,
        cfg.concurrency,
        cfg.engines.engines.keys().cloned().collect::<Vec<_>>().join(", ")
    );
    let shared = Arc::new(Shared {
        cfg,
        held: Mutex::default(),
        stops: Mutex::default(),
        stop: AtomicBool::new(false),
        failure: Mutex::default(),
        signatures: Mutex::default(),
        specs: Mutex::default(),
        distrusted: Mutex::default(),
        params_dir: params_dir.clone(),
        files: AtomicU64::new(0),
        last_task: Mutex::new(Instant::now()),
        done: AtomicU64::new(0),
    });
    let heartbeat = {
        let shared = Arc::clone(&shared);
        thread::Builder::new().name("heartbeat".into()).spawn(move || heartbeat::heartbeat(&shared)).expect("spawn")
    };
    let threads: Vec<_> = (0..shared.cfg.concurrency.max(1))
        .map(|i| {
            let shared = Arc::clone(&shared);
            thread::Builder::new().name(format!("task-{i}")).spawn(move || serve::serve(&shared, i)).expect("spawn")
        })
        .collect();
    // Until the task threads end, or a signal comes.
    let signal = || shared.cfg.interrupt.map(|s| s.load(Ordering::Relaxed)).filter(|&s| s != 0);
    while !threads.iter().all(thread::JoinHandle::is_finished) && signal().is_none() {
        thread::sleep(Duration::from_millis(50));
    }
    shared.stop.store(true, Ordering::Relaxed);
    if let Some(s) = signal() {
        let name = crate::signals::name(s);
        log::warn!("worker {}: {name}: stopping (tasks under way are left to other workers)", shared.cfg.name);
        let deadline = Instant::now() + STOP_GRACE;
        while !threads.iter().all(thread::JoinHandle::is_finished) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(50));
        }
        // A thread still in a game is left to the process's exit (its engines die with it).
        std::fs::remove_dir_all(&params_dir)
            .map_err(|source| WorkerError::Io { path: params_dir.display().to_string(), source })?;
        return Ok(shared.done.load(Ordering::Relaxed));
    }
    for t in threads {
        let _ = t.join();
    }
    let _ = heartbeat.join();
    let _ = std::fs::remove_dir_all(&params_dir);
    match shared.failure.lock().expect("failure").take() {
        Some(e) => Err(e),
        None => Ok(shared.done.load(Ordering::Relaxed)),
    }
}

/// A run id as logs show it: itself when valid, else quoted with escapes and cut short.
fn shown(run: &str) -> String {
    if valid_run_id(run) { run.to_string() } else { format!("{:?}", run.chars().take(80).collect::<String>()) }
}

/// A new directory `evochess-worker-<random>` in `parent`, made by one `mkdir` with mode 0700
/// that fails when the name exists: nobody can plant it or a link there first, or read it.
fn private_dir(parent: &Path) -> std::io::Result<PathBuf> {
    use rand::Rng;
    let mut rng = rand::rng();
    for _ in 0..16 {
        let dir = parent.join(format!("evochess-worker-{:016x}", rng.random::<u64>()));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(std::io::ErrorKind::AlreadyExists, "16 random names in a row were taken"))
}

/// Writes a new file (never an existing one: `create_new`) readable by this user only.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(bytes)
}
