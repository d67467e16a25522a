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

use std::{
    collections::{BTreeMap, HashMap},
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering},
    },
    thread,
    time::{Duration, Instant},
};

use arena::{
    engine::spec::EngineSpec,
    runner::{MatchConfig, Tournament, UnitPlayer},
};
use redis::{
    Commands, Connection, RedisError,
    streams::{
        StreamAutoClaimOptions, StreamAutoClaimReply, StreamId, StreamInfoGroupsReply, StreamPendingCountReply,
        StreamReadOptions, StreamReadReply,
    },
};
use serde::Deserialize;
use thiserror::Error;

use super::{
    BrokerConfig, BrokerError, GROUP,
    allow::{AllowList, OptionRule},
    kinds::{PreparedRun, TaskKind, TaskKinds, answer_json},
    mac::Purpose,
    runs, signature, valid_run_id,
    wire::{GamesAnswer, GamesSpec, GamesTask, RunSpec, SPEC_MAC, field, signature_mismatches},
};

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

/// One program a worker may run, from its engines file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocalProgram {
    pub cmd: PathBuf,
    #[serde(default)]
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    /// The options a task may set (`[engines.NAME.options]`, see [`super::allow`]).
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

/// A run's spec as this worker uses it.
enum RunWork {
    Games { spec: GamesSpec, base: Box<MatchConfig> },
    Task(Box<dyn PreparedRun>),
}

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
        thread::Builder::new().name("heartbeat".into()).spawn(move || heartbeat(&shared)).expect("spawn")
    };
    let threads: Vec<_> = (0..shared.cfg.concurrency.max(1))
        .map(|i| {
            let shared = Arc::clone(&shared);
            thread::Builder::new().name(format!("task-{i}")).spawn(move || serve(&shared, i)).expect("spawn")
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

/// Renews the claim on every task being run, so that only a dead worker's tasks are reclaimed.
fn heartbeat(shared: &Shared) {
    let broker = &shared.cfg.broker;
    let period = (broker.visibility / 4).max(Duration::from_millis(100));
    let mut con: Option<Connection> = None;
    while !shared.stop.load(Ordering::Relaxed) {
        thread::sleep(period.min(Duration::from_millis(250)));
        let held: Vec<(String, (String, String))> =
            shared.held.lock().expect("held").iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        if held.is_empty() {
            continue;
        }
        if con.is_none() {
            con = broker.connect().map_err(|e| log::warn!("heartbeat: {e}")).ok();
        }
        let Some(c) = con.as_mut() else { continue };
        // A cancelled run's tasks are gone: its games stop, its claims are not renewed.
        let mut cancelled = std::collections::HashSet::new();
        for run in held.iter().filter_map(|(_, (key, _))| run_of(broker, key)).collect::<std::collections::HashSet<_>>()
        {
            match runs::cancelled(broker, c, run) {
                Ok(Some(_)) => {
                    if let Some(flag) = shared.stops.lock().expect("stops").get(run)
                        && !flag.swap(true, Ordering::Relaxed)
                    {
                        log::warn!("run {run} was cancelled: stopping its games");
                    }
                    cancelled.insert(run.to_string());
                }
                Ok(None) => {}
                Err(e) => log::warn!("heartbeat: {}", broker.error(e)),
            }
        }
        for (entry, (key, consumer)) in held {
            if run_of(broker, &key).is_some_and(|r| cancelled.contains(r)) {
                continue;
            }
            let r: Result<redis::Value, RedisError> =
                redis::cmd("XCLAIM").arg(&key).arg(GROUP).arg(&consumer).arg(0).arg(&entry).arg("JUSTID").query(c);
            if let Err(e) = r {
                log::warn!("heartbeat: {}", broker.error(e));
                con = None;
                break;
            }
        }
        thread::sleep(period.saturating_sub(Duration::from_millis(250)));
    }
}

/// The run whose tasks stream is `key` (`NS:run:ID:tasks`).
fn run_of<'a>(broker: &BrokerConfig, key: &'a str) -> Option<&'a str> {
    key.strip_prefix(&format!("{}:run:", broker.namespace))?.strip_suffix(":tasks")
}

/// Whether run `run` was cancelled ([`runs::cancelled`]); a broker error counts as not (the
/// task's own commands then fail and are retried).
fn is_cancelled(broker: &BrokerConfig, con: &mut Connection, run: &str) -> bool {
    valid_run_id(run) && runs::cancelled(broker, con, run).is_ok_and(|c| c.is_some())
}

/// The stop flag of run `run`'s games.
fn run_stop(shared: &Shared, run: &str) -> Arc<AtomicBool> {
    Arc::clone(shared.stops.lock().expect("stops").entry(run.to_string()).or_default())
}

/// What a task thread does with one entry.
enum Outcome {
    /// The answer's JSON.
    Answer(String),
    /// The run is over (its spec is gone): acknowledge and move on.
    Gone,
    /// This worker cannot serve the run (its build differs): it leaves the task to others.
    Refuse(String),
    /// The run's spec does not verify: the run is passed over for a while, its task left to others.
    Distrust(String),
    /// No worker may run the task: to the dead-letter stream with this reason.
    Dead(String),
    /// The broker failed on the way: the task stays pending (it is taken over later).
    Retry(String),
}

impl Outcome {
    /// The outcome with its reason's control characters escaped ([`evochess::one_line`]).
    fn one_line(self) -> Outcome {
        let line = |r: String| evochess::one_line(&r).into_owned();
        match self {
            Outcome::Refuse(r) => Outcome::Refuse(line(r)),
            Outcome::Distrust(r) => Outcome::Distrust(line(r)),
            Outcome::Dead(r) => Outcome::Dead(line(r)),
            Outcome::Retry(r) => Outcome::Retry(line(r)),
            other => other,
        }
    }
}

/// A task taken from a run's stream.
struct Taken {
    run: String,
    key: String,
    entry: StreamId,
    /// How many times the broker has handed it out, this time included.
    deliveries: u64,
}

/// A run id as logs show it: itself when valid, else quoted with escapes and cut short.
fn shown(run: &str) -> String {
    if valid_run_id(run) { run.to_string() } else { format!("{:?}", run.chars().take(80).collect::<String>()) }
}

fn serve(shared: &Shared, index: usize) {
    let broker = &shared.cfg.broker;
    let consumer = format!("{}-{index}", shared.cfg.name);
    let mut con: Option<Connection> = None;
    let mut players: HashMap<String, UnitPlayer> = HashMap::new();
    // Entries a read handed this consumer beyond the first (one per stream that had any).
    let mut backlog: std::collections::VecDeque<Taken> = std::collections::VecDeque::new();
    while !shared.stop.load(Ordering::Relaxed) {
        if let Some(limit) = shared.cfg.idle_exit
            && shared.last_task.lock().expect("clock").elapsed() >= limit
            && shared.held.lock().expect("held").is_empty()
        {
            break;
        }
        let Some(c) = connected(broker, &mut con) else { continue };
        let taken = match backlog.pop_front() {
            Some(t) => Ok(Some(t)),
            None => next_task(shared, c, &consumer).map(|mut all| {
                // Renewed from now on, or a long backlog would be taken over (and run twice).
                let mut held = shared.held.lock().expect("held");
                for t in &all {
                    held.insert(t.entry.id.clone(), (t.key.clone(), consumer.clone()));
                }
                let first = all.pop_front();
                backlog = all;
                first
            }),
        };
        let Taken { run, key, entry, deliveries } = match taken {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(e) => {
                log::warn!("{}; reconnecting", broker.error(e));
                con = None;
                thread::sleep(Duration::from_secs(1));
                continue;
            }
        };
        *shared.last_task.lock().expect("clock") = Instant::now();
        shared.held.lock().expect("held").insert(entry.id.clone(), (key.clone(), consumer.clone()));
        let task: String = entry.get(field::TASK).unwrap_or_default();
        let outcome = if is_cancelled(broker, c, &run) {
            log::info!("run {run} was cancelled: task {} dropped", evochess::one_line(&task));
            Outcome::Gone
        } else if deliveries > shared.cfg.max_deliveries {
            Outcome::Dead(format!(
                "delivered {deliveries} times without an answer (more than --max-deliveries {}): the workers that \
                 took it died or hung on it",
                shared.cfg.max_deliveries
            ))
        } else {
            // Nothing in a message may take the worker down: a panic is the task's failure.
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run_task(shared, c, &run, &entry, &mut players)
            })) {
                Ok(o) => o,
                Err(panic) => {
                    let what = panic
                        .downcast_ref::<String>()
                        .map(String::as_str)
                        .or_else(|| panic.downcast_ref::<&str>().copied())
                        .unwrap_or("a panic");
                    players.clear();
                    con = None;
                    Outcome::Dead(format!("the worker failed on it: {what}"))
                }
            }
        };
        // Cancelled while it ran (its games were stopped, or end now): the answer is not wanted,
        // and the run's next task, if it is opened again, starts with a fresh flag.
        let stopped = shared.stops.lock().expect("stops").get(&run).is_some_and(|f| f.load(Ordering::Relaxed));
        if stopped {
            players.remove(&run);
            shared.stops.lock().expect("stops").remove(&run);
        }
        let outcome = match outcome {
            Outcome::Answer(_) if stopped || con.as_mut().is_some_and(|c| is_cancelled(broker, c, &run)) => {
                log::info!("run {run} was cancelled: the answer to task {} is dropped", evochess::one_line(&task));
                Outcome::Gone
            }
            other => other,
        };
        let results_key = broker.run_key(&run, "results");
        let sign = |purpose, text: &str| broker.secret.sign(purpose, &run, &task, text.as_bytes());
        // A reason may quote the spec or task (a kind, an option, a serde error's text): on one
        // line in this worker's log, its dead letter and its coordinator's error alike.
        match outcome.one_line() {
            Outcome::Answer(body) => {
                let mac = sign(Purpose::Answer, &body);
                let fields = [
                    (field::TASK, task.as_str()),
                    (field::WORKER, consumer.as_str()),
                    (field::BODY, &body),
                    (field::MAC, &mac),
                ];
                // The answer goes in before the acknowledgement, retried until the broker
                // takes it: a lost connection delays the answer, it never loses it.
                deliver(shared, &mut con, &results_key, &key, &entry.id, &fields);
                shared.done.fetch_add(1, Ordering::Relaxed);
            }
            Outcome::Gone => {
                if let Some(c) = con.as_mut() {
                    let _: Result<i64, _> = c.xack(&key, GROUP, &[&entry.id]);
                }
            }
            Outcome::Refuse(reason) => {
                refuse(&mut con, &results_key, &[(field::TASK, &task), (field::WORKER, &consumer)], &reason, &sign);
                log::error!("refusing run {}: {reason}", shown(&run));
                shared.failure.lock().expect("failure").get_or_insert(WorkerError::Refused { run, reason });
                shared.stop.store(true, Ordering::Relaxed);
            }
            Outcome::Distrust(reason) => {
                // Not acknowledged: another worker takes the task over if the fault is ours.
                log::error!("run {}: not served for {} s: {reason}", shown(&run), DISTRUST_FOR.as_secs());
                shared.distrusted.lock().expect("distrusted").insert(run.clone(), Instant::now() + DISTRUST_FOR);
                refuse(&mut con, &results_key, &[(field::TASK, &task), (field::WORKER, &consumer)], &reason, &sign);
            }
            Outcome::Dead(reason) => {
                log::warn!("task {task:?} of run {}: to the dead-letter stream: {reason}", shown(&run));
                let letter = DeadLetter { run: &run, tasks_key: &key, entry: &entry.id, task: &task, reason: &reason };
                dead_letter(shared, &mut con, &consumer, &letter);
            }
            Outcome::Retry(reason) => {
                log::warn!("{reason}; the task of run {} waits for a later try", shown(&run));
                con = None;
                thread::sleep(Duration::from_secs(1));
            }
        }
        *shared.last_task.lock().expect("clock") = Instant::now();
        shared.held.lock().expect("held").remove(&entry.id);
    }
}

/// Tells a run's coordinator that this worker will not serve it (signed: a coordinator counts
/// only refusals that verify); best effort, as the refusal changes nothing on the broker.
fn refuse(
    con: &mut Option<Connection>,
    results_key: &str,
    fields: &[(&str, &str)],
    reason: &str,
    sign: &dyn Fn(Purpose, &str) -> String,
) {
    let mac = sign(Purpose::Refusal, reason);
    let mut all = fields.to_vec();
    all.extend([(field::REFUSED, reason), (field::MAC, &mac)]);
    if let Some(c) = con.as_mut() {
        let _: Result<Option<String>, _> =
            redis::cmd("XADD").arg(results_key).arg("NOMKSTREAM").arg("*").arg(&all[..]).query(c);
    }
}

/// A task on its way to the dead-letter stream.
struct DeadLetter<'a> {
    run: &'a str,
    tasks_key: &'a str,
    entry: &'a str,
    task: &'a str,
    reason: &'a str,
}

/// Longest dead-letter stream kept (about; trimmed as Redis finds efficient).
const DEAD_LETTERS_KEPT: usize = 10_000;

/// Records a task in the dead-letter stream, tells its coordinator (a `dead` entry in the run's
/// results stream, if the run has one), and removes the task; retried until the broker takes it.
fn dead_letter(shared: &Shared, con: &mut Option<Connection>, consumer: &str, d: &DeadLetter) {
    let broker = &shared.cfg.broker;
    let results_key = broker.run_key(d.run, "results");
    let mac = broker.secret.sign(Purpose::Dead, d.run, d.task, format!("{}\n{}", d.entry, d.reason).as_bytes());
    loop {
        let Some(c) = connected(broker, con) else { continue };
        let r: Result<(), RedisError> = redis::cmd("XADD")
            .arg(broker.dead_key())
            .arg("MAXLEN")
            .arg("~")
            .arg(DEAD_LETTERS_KEPT)
            .arg("*")
            .arg(
                &[
                    (field::RUN, d.run),
                    (field::TASK, d.task),
                    (field::ENTRY, d.entry),
                    (field::WORKER, consumer),
                    (field::REASON, d.reason),
                ][..],
            )
            .query::<String>(c)
            .and_then(|_| {
                redis::cmd("XADD")
                    .arg(&results_key)
                    .arg("NOMKSTREAM")
                    .arg("*")
                    .arg(
                        &[
                            (field::TASK, d.task),
                            (field::ENTRY, d.entry),
                            (field::WORKER, consumer),
                            (field::DEAD, d.reason),
                            (field::MAC, &mac),
                        ][..],
                    )
                    .query::<Option<String>>(c)
            })
            .and_then(|_| c.xack::<_, _, _, i64>(d.tasks_key, GROUP, &[d.entry]))
            .and_then(|_| c.xdel::<_, _, i64>(d.tasks_key, &[d.entry]).map(|_| ()));
        match r {
            Ok(()) => return,
            Err(e) => {
                log::warn!("{}; retrying the dead letter", broker.error(e));
                *con = None;
                thread::sleep(Duration::from_secs(1));
            }
        }
    }
}

/// The held connection, or a new one; `None`, after a pause, while the broker cannot be reached.
fn connected<'a>(broker: &BrokerConfig, con: &'a mut Option<Connection>) -> Option<&'a mut Connection> {
    if con.is_none() {
        match broker.connect() {
            Ok(c) => *con = Some(c),
            Err(e) => {
                log::warn!("{e}; retrying");
                thread::sleep(Duration::from_secs(1));
                return None;
            }
        }
    }
    con.as_mut()
}

/// Writes an answer and acknowledges its task, reconnecting until both are done.
fn deliver(
    shared: &Shared,
    con: &mut Option<Connection>,
    results_key: &str,
    tasks_key: &str,
    entry: &str,
    fields: &[(&str, &str)],
) {
    let broker = &shared.cfg.broker;
    loop {
        let Some(c) = connected(broker, con) else { continue };
        // NOMKSTREAM: a run that ended meanwhile is not recreated by a late answer.
        let r: Result<(), RedisError> = redis::cmd("XADD")
            .arg(results_key)
            .arg("NOMKSTREAM")
            .arg("*")
            .arg(fields)
            .query::<Option<String>>(c)
            .and_then(|_| c.xack::<_, _, _, i64>(tasks_key, GROUP, &[entry]).map(|_| ()));
        match r {
            Ok(()) => return,
            Err(e) => {
                log::warn!("{}; retrying the answer", broker.error(e));
                *con = None;
                thread::sleep(Duration::from_secs(1));
            }
        }
    }
}

/// The runs' task streams a worker may read: streams that have the workers' group. Anything
/// else listed in `NS:runs` (a forged or half-deleted run) is passed over, so that it cannot
/// stop the reads of the others.
fn live_runs(shared: &Shared, con: &mut Connection) -> Result<Vec<(String, String)>, RedisError> {
    let broker = &shared.cfg.broker;
    // Raw bytes: one member that is not UTF-8 must not fail the listing.
    let runs: Vec<Vec<u8>> = con.smembers(broker.runs_key())?;
    let mut live = Vec::new();
    let now = Instant::now();
    let distrusted = {
        let mut d = shared.distrusted.lock().expect("distrusted");
        d.retain(|_, until| *until > now);
        d.keys().cloned().collect::<std::collections::HashSet<String>>()
    };
    for run in runs {
        // Ids too long to be anyone's are not worth a dead letter; odd short ones get one.
        let Some(run) = String::from_utf8(run).ok().filter(|r| r.len() <= 4 * super::MAX_RUN_ID) else { continue };
        if distrusted.contains(&run) {
            continue;
        }
        let key = broker.run_key(&run, "tasks");
        let kind: String = redis::cmd("TYPE").arg(&key).query(con)?;
        if kind != "stream" {
            continue;
        }
        let groups: Result<StreamInfoGroupsReply, RedisError> = con.xinfo_groups(&key);
        if groups.is_ok_and(|g| g.groups.iter().any(|g| g.name == GROUP)) {
            live.push((run, key));
        }
    }
    Ok(live)
}

/// Tasks: one of a dead worker's (idle past the visibility timeout), else the new ones a read
/// gives (at most one per run), in order.
fn next_task(
    shared: &Shared,
    con: &mut Connection,
    consumer: &str,
) -> Result<std::collections::VecDeque<Taken>, RedisError> {
    let broker = &shared.cfg.broker;
    let mut out = std::collections::VecDeque::new();
    let live = live_runs(shared, con)?;
    if live.is_empty() {
        thread::sleep(Duration::from_millis(250));
        return Ok(out);
    }
    let idle = broker.visibility.as_millis() as usize;
    for (run, key) in &live {
        let opts = StreamAutoClaimOptions::default().count(1);
        let r: Result<StreamAutoClaimReply, RedisError> =
            con.xautoclaim_options(key, GROUP, consumer, idle, "0-0", opts);
        match r {
            Ok(reply) => {
                if let Some(entry) = reply.claimed.into_iter().next() {
                    log::info!("took over task {} of run {} from a silent worker", entry.id, shown(run));
                    let pending: StreamPendingCountReply = con.xpending_count(key, GROUP, &entry.id, &entry.id, 1)?;
                    let deliveries = pending.ids.first().map_or(1, |p| p.times_delivered as u64);
                    out.push_back(Taken { run: run.clone(), key: key.clone(), entry, deliveries });
                    return Ok(out);
                }
            }
            Err(e) if e.code() == Some("NOGROUP") => {}
            Err(e) => return Err(e),
        }
    }
    let keys: Vec<&String> = live.iter().map(|(_, k)| k).collect();
    let ids: Vec<&str> = vec![">"; keys.len()];
    let opts = StreamReadOptions::default().group(GROUP, consumer).count(1).block(1000);
    let reply: Result<Option<StreamReadReply>, RedisError> = con.xread_options(&keys, &ids, &opts);
    let reply = match reply {
        Ok(r) => r,
        // A run closed between the listing and the read, or while the read waited.
        Err(e) if matches!(e.code(), Some("NOGROUP" | "UNBLOCKED")) => return Ok(out),
        Err(e) => return Err(e),
    };
    for k in reply.map(|r| r.keys).unwrap_or_default() {
        if let Some((run, key)) = live.iter().find(|(_, key)| *key == k.key) {
            for entry in k.ids {
                out.push_back(Taken { run: run.clone(), key: key.clone(), entry, deliveries: 1 });
            }
        }
    }
    Ok(out)
}

fn run_task(
    shared: &Shared,
    con: &mut Connection,
    run: &str,
    entry: &StreamId,
    players: &mut HashMap<String, UnitPlayer>,
) -> Outcome {
    if !valid_run_id(run) {
        return Outcome::Dead(format!(
            "run id {} is not 1 to {} letters, digits, `-` or `_`",
            shown(run),
            super::MAX_RUN_ID
        ));
    }
    let spec = match spec_of(shared, con, run) {
        Ok(Some(s)) => s,
        Ok(None) => return Outcome::Gone,
        Err(Unfit::Refuse(reason)) => return Outcome::Refuse(reason),
        Err(Unfit::Distrust(reason)) => return Outcome::Distrust(reason),
        Err(Unfit::Dead(reason)) => return Outcome::Dead(reason),
        Err(Unfit::Retry(reason)) => return Outcome::Retry(reason),
    };
    let body: String = entry.get(field::BODY).unwrap_or_default();
    if body.len() > MAX_TASK_BYTES {
        return Outcome::Dead(format!("a task body of {} bytes (at most {MAX_TASK_BYTES})", body.len()));
    }
    // The spec verified, so this worker's secret is the coordinator's: the task is forged.
    let task: String = entry.get(field::TASK).unwrap_or_default();
    let mac: Option<String> = entry.get(field::MAC);
    if let Err(why) = shared.cfg.broker.secret.verify(Purpose::Task, run, &task, body.as_bytes(), mac.as_deref()) {
        return Outcome::Dead(format!("refused task {}: {why}", evochess::one_line(&task)));
    }
    match &*spec {
        RunWork::Games { spec, base } => {
            let task: GamesTask = match serde_json::from_str(&body) {
                Ok(t) => t,
                Err(e) => return Outcome::Dead(format!("not a games task: {e}")),
            };
            if task.games.is_empty() || task.games.len() > 2 {
                return Outcome::Dead(format!("a unit of {} games (1 or 2)", task.games.len()));
            }
            if let Some(&(w, b)) = task.games.iter().find(|&&(w, b)| w.max(b) >= spec.engines.len() || w == b) {
                return Outcome::Dead(format!("engines {w} v {b} of {}", spec.engines.len()));
            }
            // One run's engines at a time per thread.
            players.retain(|r, _| r == run);
            let player = match players.get_mut(run) {
                Some(p) => p,
                None => match UnitPlayer::with_stop((**base).clone(), run_stop(shared, run)) {
                    Ok(p) => players.entry(run.to_string()).or_insert(p),
                    Err(e) => return Outcome::Dead(e.to_string()),
                },
            };
            let mut games = player.play(&task.unit(), &task.opening);
            // An engine's error can have any text; a coordinator counts only reasons on one line.
            for g in &mut games {
                g.result.reason = evochess::one_line(&g.result.reason).into_owned();
            }
            let signatures = spec.signatures.keys().map(|p| (p.clone(), local_signature(shared, p))).collect();
            answer(&GamesAnswer { games, signatures })
        }
        RunWork::Task(run) => match run.answer(&body) {
            Ok(json) => Outcome::Answer(json),
            Err(reason) => Outcome::Dead(reason),
        },
    }
}

/// An answer's JSON (a value that does not serialise, such as a non-finite number from a
/// forged task, makes the task a dead letter rather than a panic).
fn answer(value: &impl serde::Serialize) -> Outcome {
    match answer_json(value) {
        Ok(json) => Outcome::Answer(json),
        Err(reason) => Outcome::Dead(reason),
    }
}

/// This worker's signature of `program`, computed once.
fn local_signature(shared: &Shared, program: &str) -> String {
    if let Some(s) = shared.signatures.lock().expect("signatures").get(program) {
        return s.clone();
    }
    let s = if program == signature::PROGRAM {
        signature::library_signature_cached()
    } else {
        match shared.cfg.engines.engines.get(program) {
            Some(p) => signature::bench_signature(&p.cmd, &p.args, p.dir.as_deref()),
            None => "absent".into(),
        }
    };
    shared.signatures.lock().expect("signatures").insert(program.to_string(), s.clone());
    s
}

/// Why a worker does not serve a run.
enum Unfit {
    /// This worker's build differs.
    Refuse(String),
    /// The spec's MAC does not verify.
    Distrust(String),
    /// The spec is malformed or asks for what this worker does not allow.
    Dead(String),
    /// The broker failed.
    Retry(String),
}

/// The run's spec, fetched and checked once: `Ok(None)` when the run has ended, `Err` with the
/// reason this worker cannot serve it.
fn spec_of(shared: &Shared, con: &mut Connection, run: &str) -> Result<Option<Arc<RunWork>>, Unfit> {
    if let Some(s) = shared.specs.lock().expect("specs").get(run) {
        return s.clone().map(Some).map_err(Unfit::Dead);
    }
    let key = shared.cfg.broker.run_key(run, "spec");
    let broker_error = |e| Unfit::Retry(shared.cfg.broker.error(e).to_string());
    // The size first: a forged spec of hundreds of megabytes is not worth reading.
    let kind: String = redis::cmd("TYPE").arg(&key).query(con).map_err(broker_error)?;
    let prepared = match kind.as_str() {
        "none" => return Ok(None),
        "string" => {
            let len: usize = redis::cmd("STRLEN").arg(&key).query(con).map_err(broker_error)?;
            if len > MAX_SPEC_BYTES {
                Err(format!("a run spec of {len} bytes (at most {MAX_SPEC_BYTES})"))
            } else {
                // One MGET: the coordinator writes both with one MSET.
                let mac_key = shared.cfg.broker.run_key(run, SPEC_MAC);
                let (bytes, mac): (Option<Vec<u8>>, Option<String>) =
                    redis::cmd("MGET").arg(&key).arg(&mac_key).query(con).map_err(broker_error)?;
                let Some(bytes) = bytes else { return Ok(None) };
                if let Err(why) = check_spec(&shared.cfg.broker.secret, run, &bytes, mac.as_deref()) {
                    // Not cached: the run is passed over for a while, then read again.
                    return Err(Unfit::Distrust(why));
                }
                match prepare(shared, &bytes) {
                    Err(Unfit::Dead(reason)) => Err(reason),
                    Err(other) => return Err(other),
                    Ok(work) => Ok(Arc::new(work)),
                }
            }
        }
        other => Err(format!("the run's spec is a Redis {other}, not a string")),
    };
    if prepared.is_ok() {
        log::info!("serving run {run}");
    }
    shared.specs.lock().expect("specs").insert(run.to_string(), prepared.clone());
    prepared.map(Some).map_err(Unfit::Dead)
}

/// Whether a worker with `secret` may read run `run`'s spec `bytes`, whose MAC is `mac`: the
/// first check of every spec, before its text is parsed.
///
/// # Errors
/// Why the spec is refused, for the worker's log and its refusal.
pub fn check_spec(secret: &super::mac::Secret, run: &str, bytes: &[u8], mac: Option<&str>) -> Result<(), String> {
    secret.verify(Purpose::Spec, run, "", bytes, mac).map_err(|why| {
        format!("its spec is refused: {why}; if the run is genuine, this worker's secret file is not its coordinator's")
    })
}

/// Checks a spec's text and prepares its work.
fn prepare(shared: &Shared, bytes: &[u8]) -> Result<RunWork, Unfit> {
    let spec = RunSpec::parse(bytes).map_err(|e| Unfit::Dead(format!("unreadable run spec: {e}")))?;
    // A kind this worker does not serve is a dead letter before any engine is benched.
    if let RunSpec::Task(t) = &spec {
        task_kind(shared, &t.kind)?;
    }
    for program in spec.signatures().keys() {
        if program != signature::PROGRAM && !shared.cfg.engines.engines.contains_key(program) {
            return Err(Unfit::Dead(format!("no engine {program:?} in this worker's engines file")));
        }
    }
    let local: BTreeMap<String, String> =
        spec.signatures().keys().map(|p| (p.clone(), local_signature(shared, p))).collect();
    let bad = signature_mismatches(spec.signatures(), &local);
    if !bad.is_empty() {
        return Err(Unfit::Refuse(format!("engine build differs: {}", bad.join("; "))));
    }
    Ok(match spec {
        RunSpec::Games(spec) => {
            let base = local_match(shared, &spec)?;
            RunWork::Games { spec, base: Box::new(base) }
        }
        RunSpec::Task(t) => RunWork::Task(task_kind(shared, &t.kind)?.prepare(t.json).map_err(Unfit::Dead)?),
    })
}

/// The registered kind of a spec's `kind`.
fn task_kind<'a>(shared: &'a Shared, kind: &str) -> Result<&'a dyn TaskKind, Unfit> {
    shared.cfg.kinds.get(kind).ok_or_else(|| {
        let known = shared.cfg.kinds.names().join(", ");
        Unfit::Dead(format!("unreadable run spec: unknown kind `{kind}` (this worker serves games, {known})"))
    })
}

/// The match configuration that plays a run's units here: local commands, params files
/// written from the spec's texts into the worker's private directory. Every engine, option and
/// path is checked against the engines file first.
fn local_match(shared: &Shared, spec: &GamesSpec) -> Result<MatchConfig, Unfit> {
    let dead = Unfit::Dead;
    if spec.engines.len() < 2 || spec.engines.len() > MAX_ENGINES {
        return Err(dead(format!("a match of {} engines (2 to {MAX_ENGINES})", spec.engines.len())));
    }
    // A task beyond them would run (and hold its claim) for as long as it says.
    spec.check_caps().map_err(|why| dead(format!("task limits: {why}")))?;
    if let Some(tb) = &spec.adjudication.tb_path {
        let roots: Vec<PathBuf> = shared.cfg.engines.tb_dirs.iter().filter_map(|d| d.canonicalize().ok()).collect();
        if !tb.canonicalize().is_ok_and(|real| roots.iter().any(|r| real.starts_with(r))) {
            return Err(dead(format!(
                "adjudication tablebases at {:?}: not inside this worker's `tb_dirs`",
                tb.display().to_string()
            )));
        }
    }
    let mut engines = Vec::new();
    for (i, e) in spec.engines.iter().enumerate() {
        let who = format!("engine {i} ({:?})", e.name);
        // Every program of a spec is signed: one without a signature was never checked.
        if !spec.signatures.contains_key(&e.program) {
            return Err(dead(format!("{who}: program {:?} has no signature in the spec", e.program)));
        }
        let Some(program) = shared.cfg.engines.engines.get(&e.program) else {
            return Err(dead(format!("{who}: no engine {:?} in this worker's engines file", e.program)));
        };
        for (name, value) in &e.options {
            program.allow.check(name, value).map_err(|why| dead(format!("{who}: {why}")))?;
        }
        let params = match &e.params {
            Some(text) if text.len() > MAX_TASK_BYTES => {
                return Err(dead(format!("{who}: a params text of {} bytes (at most {MAX_TASK_BYTES})", text.len())));
            }
            Some(text) => {
                let n = shared.files.fetch_add(1, Ordering::Relaxed);
                let path = shared.params_dir.join(format!("params-{n}.toml"));
                write_private(&path, text.as_bytes())
                    .map_err(|err| Unfit::Refuse(format!("{}: {err}", path.display())))?;
                Some(path)
            }
            None => None,
        };
        engines.push(EngineSpec {
            name: e.name.clone(),
            cmd: program.cmd.clone(),
            args: program.args.clone(),
            dir: program.dir.clone(),
            proto: e.proto,
            options: e.options.clone(),
            limits: e.limits.clone(),
            params,
            restart: e.restart,
        });
    }
    let mut m = MatchConfig::new(engines, Tournament::RoundRobin);
    m.adjudication = spec.adjudication.clone();
    m.stall_timeout_ms = spec.stall_timeout_ms;
    m.start_timeout_ms = spec.start_timeout_ms;
    m.ping_timeout_ms = spec.ping_timeout_ms;
    m.quit_timeout_ms = spec.quit_timeout_ms;
    m.wait_ms = spec.wait_ms;
    Ok(m)
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
