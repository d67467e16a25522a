//! `tuner worker`: takes tasks from every open run on the broker, runs them with the local
//! runner (games) or fitness (evolve), writes the answer, and only then acknowledges the task.
//!
//! A worker runs only the programs of its engines file, and only after its build of each gives
//! the coordinator's bench signature: a worker with another build answers the run with a
//! refusal (the coordinator logs it), leaves the task to others, and exits with an error.

use std::{
    collections::{BTreeMap, HashMap},
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, AtomicU64, Ordering},
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
    streams::{StreamAutoClaimOptions, StreamAutoClaimReply, StreamId, StreamReadOptions, StreamReadReply},
};
use serde::Deserialize;
use thiserror::Error;

use super::{
    BrokerConfig, BrokerError, GROUP, signature,
    wire::{GamesAnswer, GamesSpec, GamesTask, RunSpec, field, signature_mismatches},
};
use crate::{
    evolve::{
        fitness::Prepared,
        remote::{self, FitnessSpec, FitnessTask},
    },
    search_evolve::remote::{self as search_remote, NodesSpec, NodesTask},
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
}

/// `engines.toml`: `[engines.NAME] cmd = "..." args = [...] dir = "..."`, NAME being the file
/// name of the coordinator's command (`evochess`, `stockfish`, ...).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnginesFile {
    #[serde(default)]
    pub engines: BTreeMap<String, LocalProgram>,
}

impl EnginesFile {
    pub fn load(path: &Path) -> Result<EnginesFile, WorkerError> {
        let bad = |reason: String| WorkerError::Engines { path: path.display().to_string(), reason };
        let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
        let file: EnginesFile = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
        let base = path.parent().unwrap_or(Path::new("."));
        let mut out = EnginesFile::default();
        for (name, mut p) in file.engines {
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
        if let Some(p) = std::env::current_exe().ok().and_then(|e| Some(e.parent()?.join("evochess")))
            && p.is_file()
        {
            out.engines.insert("evochess".into(), LocalProgram { cmd: p, args: Vec::new(), dir: None });
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
}

/// A run's spec as this worker uses it.
enum RunWork {
    Games { spec: GamesSpec, base: Box<MatchConfig> },
    Fitness { spec: FitnessSpec, prepared: Vec<Prepared> },
    Nodes { spec: NodesSpec, parsed: Vec<search_remote::Parsed> },
}

struct Shared {
    cfg: WorkerConfig,
    /// Tasks being run: entry id → (tasks key, consumer), renewed by the heartbeat.
    held: Mutex<HashMap<String, (String, String)>>,
    stop: AtomicBool,
    failure: Mutex<Option<WorkerError>>,
    /// Local signatures by program.
    signatures: Mutex<HashMap<String, String>>,
    specs: Mutex<HashMap<String, Arc<RunWork>>>,
    params_dir: PathBuf,
    last_task: Mutex<Instant>,
    done: AtomicU64,
}

/// Serves tasks until killed, idle for `idle_exit`, or refused.
pub fn run(cfg: WorkerConfig) -> Result<u64, WorkerError> {
    // Fails now, not in a thread, when the broker cannot be reached.
    drop(cfg.broker.connect()?);
    let params_dir = std::env::temp_dir().join(format!("evochess-worker-{}", std::process::id()));
    std::fs::create_dir_all(&params_dir)
        .map_err(|source| WorkerError::Io { path: params_dir.display().to_string(), source })?;
    log::info!(
        "worker {}: {} task(s) at once, programs: {}",
        cfg.name,
        cfg.concurrency,
        cfg.engines.engines.keys().cloned().collect::<Vec<_>>().join(", ")
    );
    let shared = Arc::new(Shared {
        cfg,
        held: Mutex::default(),
        stop: AtomicBool::new(false),
        failure: Mutex::default(),
        signatures: Mutex::default(),
        specs: Mutex::default(),
        params_dir: params_dir.clone(),
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
    for t in threads {
        let _ = t.join();
    }
    shared.stop.store(true, Ordering::Relaxed);
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
        for (entry, (key, consumer)) in held {
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

/// What a task thread does with one entry.
enum Outcome {
    /// The answer's JSON.
    Answer(String),
    /// The run is over (its spec is gone): acknowledge and move on.
    Gone,
    /// This worker cannot serve the run.
    Refuse(String),
}

fn serve(shared: &Shared, index: usize) {
    let broker = &shared.cfg.broker;
    let consumer = format!("{}-{index}", shared.cfg.name);
    let mut con: Option<Connection> = None;
    let mut players: HashMap<String, UnitPlayer> = HashMap::new();
    while !shared.stop.load(Ordering::Relaxed) {
        if let Some(limit) = shared.cfg.idle_exit
            && shared.last_task.lock().expect("clock").elapsed() >= limit
            && shared.held.lock().expect("held").is_empty()
        {
            break;
        }
        let Some(c) = connected(broker, &mut con) else { continue };
        let (run, key, entry) = match next_task(shared, c, &consumer) {
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
        let outcome = run_task(shared, c, &run, &entry, &mut players);
        let results_key = broker.run_key(&run, "results");
        match outcome {
            Outcome::Answer(body) => {
                let fields = [(field::TASK, task.as_str()), (field::WORKER, consumer.as_str()), (field::BODY, &body)];
                // The answer goes in before the acknowledgement, retried until the broker
                // takes it: a lost connection delays the answer, it never loses it.
                deliver(shared, &mut con, &results_key, &key, &entry.id, &fields);
                shared.done.fetch_add(1, Ordering::Relaxed);
            }
            Outcome::Gone => {
                let _: Result<i64, _> = c.xack(&key, GROUP, &[&entry.id]);
            }
            Outcome::Refuse(reason) => {
                let fields =
                    [(field::TASK, task.as_str()), (field::WORKER, consumer.as_str()), (field::REFUSED, &reason)];
                let _: Result<Option<String>, _> =
                    redis::cmd("XADD").arg(&results_key).arg("NOMKSTREAM").arg("*").arg(&fields[..]).query(c);
                log::error!("refusing run {run}: {reason}");
                shared.failure.lock().expect("failure").get_or_insert(WorkerError::Refused { run, reason });
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
        *shared.last_task.lock().expect("clock") = Instant::now();
        shared.held.lock().expect("held").remove(&entry.id);
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

/// A task: first one of a dead worker's (idle past the visibility timeout), else a new one.
fn next_task(
    shared: &Shared,
    con: &mut Connection,
    consumer: &str,
) -> Result<Option<(String, String, StreamId)>, RedisError> {
    let broker = &shared.cfg.broker;
    let runs: Vec<String> = con.smembers(broker.runs_key())?;
    let mut live = Vec::new();
    for run in runs {
        let key = broker.run_key(&run, "tasks");
        if con.exists(&key)? {
            live.push((run, key));
        }
    }
    if live.is_empty() {
        thread::sleep(Duration::from_millis(250));
        return Ok(None);
    }
    let idle = broker.visibility.as_millis() as usize;
    for (run, key) in &live {
        let opts = StreamAutoClaimOptions::default().count(1);
        let r: Result<StreamAutoClaimReply, RedisError> =
            con.xautoclaim_options(key, GROUP, consumer, idle, "0-0", opts);
        match r {
            Ok(reply) => {
                if let Some(entry) = reply.claimed.into_iter().next() {
                    log::info!("took over task {} of run {run} from a silent worker", entry.id);
                    return Ok(Some((run.clone(), key.clone(), entry)));
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
        Err(e) if matches!(e.code(), Some("NOGROUP" | "UNBLOCKED")) => return Ok(None),
        Err(e) => return Err(e),
    };
    for k in reply.map(|r| r.keys).unwrap_or_default() {
        if let Some(entry) = k.ids.into_iter().next()
            && let Some((run, key)) = live.iter().find(|(_, key)| *key == k.key)
        {
            return Ok(Some((run.clone(), key.clone(), entry)));
        }
    }
    Ok(None)
}

fn run_task(
    shared: &Shared,
    con: &mut Connection,
    run: &str,
    entry: &StreamId,
    players: &mut HashMap<String, UnitPlayer>,
) -> Outcome {
    let spec = match spec_of(shared, con, run) {
        Ok(Some(s)) => s,
        Ok(None) => return Outcome::Gone,
        Err(reason) => return Outcome::Refuse(reason),
    };
    let body: String = entry.get(field::BODY).unwrap_or_default();
    match &*spec {
        RunWork::Games { spec, base } => {
            let task: GamesTask = match serde_json::from_str(&body) {
                Ok(t) => t,
                Err(e) => return Outcome::Refuse(format!("task {}: not a games task: {e}", entry.id)),
            };
            if let Some(&(w, b)) = task.games.iter().find(|&&(w, b)| w.max(b) >= spec.engines.len()) {
                return Outcome::Refuse(format!("task {}: engines {w} v {b} of {}", entry.id, spec.engines.len()));
            }
            // One run's engines at a time per thread.
            players.retain(|r, _| r == run);
            let player = match players.get_mut(run) {
                Some(p) => p,
                None => match UnitPlayer::new((**base).clone()) {
                    Ok(p) => players.entry(run.to_string()).or_insert(p),
                    Err(e) => return Outcome::Refuse(e.to_string()),
                },
            };
            let games = player.play(&task.unit(), &task.opening);
            let signatures = spec.signatures.keys().map(|p| (p.clone(), local_signature(shared, p))).collect();
            Outcome::Answer(serde_json::to_string(&GamesAnswer { games, signatures }).expect("answer serialises"))
        }
        RunWork::Fitness { spec, prepared } => {
            let task: FitnessTask = match serde_json::from_str(&body) {
                Ok(t) => t,
                Err(e) => return Outcome::Refuse(format!("task {}: not a fitness task: {e}", entry.id)),
            };
            let answer = remote::answer(spec, prepared, &task);
            Outcome::Answer(serde_json::to_string(&answer).expect("answer serialises"))
        }
        RunWork::Nodes { spec, parsed } => {
            let task: NodesTask = match serde_json::from_str(&body) {
                Ok(t) => t,
                Err(e) => return Outcome::Refuse(format!("task {}: not a node-count task: {e}", entry.id)),
            };
            match search_remote::answer(spec, parsed, &task) {
                Ok(answer) => Outcome::Answer(serde_json::to_string(&answer).expect("answer serialises")),
                Err(e) => Outcome::Refuse(format!("task {}: {e}", entry.id)),
            }
        }
    }
}

/// This worker's signature of `program`, computed once.
fn local_signature(shared: &Shared, program: &str) -> String {
    if let Some(s) = shared.signatures.lock().expect("signatures").get(program) {
        return s.clone();
    }
    let s = if program == remote::PROGRAM {
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

/// The run's spec, fetched and checked once: `Ok(None)` when the run has ended, `Err` with the
/// reason this worker cannot serve it.
fn spec_of(shared: &Shared, con: &mut Connection, run: &str) -> Result<Option<Arc<RunWork>>, String> {
    if let Some(s) = shared.specs.lock().expect("specs").get(run) {
        return Ok(Some(Arc::clone(s)));
    }
    let text: Option<String> =
        con.get(shared.cfg.broker.run_key(run, "spec")).map_err(|e| shared.cfg.broker.error(e).to_string())?;
    let Some(text) = text else { return Ok(None) };
    let spec: RunSpec = serde_json::from_str(&text).map_err(|e| format!("unreadable run spec: {e}"))?;
    for program in spec.signatures().keys() {
        if program != remote::PROGRAM && !shared.cfg.engines.engines.contains_key(program) {
            return Err(format!("no engine `{program}` in this worker's engines file"));
        }
    }
    let local: BTreeMap<String, String> =
        spec.signatures().keys().map(|p| (p.clone(), local_signature(shared, p))).collect();
    let bad = signature_mismatches(spec.signatures(), &local);
    if !bad.is_empty() {
        return Err(format!("engine build differs: {}", bad.join("; ")));
    }
    let prepared = match spec {
        RunSpec::Games(spec) => {
            let base = local_match(shared, run, &spec)?;
            RunWork::Games { spec, base: Box::new(base) }
        }
        RunSpec::Fitness(spec) => {
            let prepared = spec.prepare()?;
            RunWork::Fitness { spec, prepared }
        }
        RunSpec::Nodes(spec) => {
            let parsed = spec.parse()?;
            RunWork::Nodes { spec, parsed }
        }
    };
    log::info!("serving run {run}");
    let prepared = Arc::new(prepared);
    shared.specs.lock().expect("specs").insert(run.to_string(), Arc::clone(&prepared));
    Ok(Some(prepared))
}

/// The match configuration that plays a run's units here: local commands, params files
/// written from the spec's texts.
fn local_match(shared: &Shared, run: &str, spec: &GamesSpec) -> Result<MatchConfig, String> {
    let mut engines = Vec::new();
    for (i, e) in spec.engines.iter().enumerate() {
        let program = &shared.cfg.engines.engines[&e.program];
        let params = match &e.params {
            Some(text) => {
                let path = shared.params_dir.join(format!("{run}-{i}.toml"));
                std::fs::write(&path, text).map_err(|err| format!("{}: {err}", path.display()))?;
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
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
