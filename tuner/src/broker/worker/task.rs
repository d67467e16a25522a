//! One task, run: its run's spec fetched, verified and checked once against the engines file,
//! then the task's own MAC and body, then its games (or its kind's answer).

use std::{
    collections::{BTreeMap, HashMap},
    path::PathBuf,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use arena::{
    engine::spec::EngineSpec,
    runner::{MatchConfig, Tournament, UnitPlayer},
};
use redis::{Connection, streams::StreamId};

use super::{MAX_ENGINES, MAX_SPEC_BYTES, MAX_TASK_BYTES, Shared, shown, write_private};
use crate::broker::{
    MAX_RUN_ID,
    kinds::{PreparedRun, TaskKind, answer_json},
    mac::{Purpose, Secret},
    signature, valid_run_id,
    wire::{GamesAnswer, GamesSpec, GamesTask, RunSpec, SPEC_MAC, field, signature_mismatches},
};

/// A run's spec as this worker uses it.
pub(super) enum RunWork {
    Games { spec: GamesSpec, base: Box<MatchConfig> },
    Task(Box<dyn PreparedRun>),
}

/// The stop flag of run `run`'s games.
fn run_stop(shared: &Shared, run: &str) -> Arc<AtomicBool> {
    Arc::clone(shared.stops.lock().expect("stops").entry(run.to_string()).or_default())
}

/// What a task thread does with one entry.
pub(super) enum Outcome {
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
    pub(super) fn one_line(self) -> Outcome {
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

/// Runs one task of run `run` (its spec checked first), with this thread's engines of the run.
pub(super) fn run_task(
    shared: &Shared,
    con: &mut Connection,
    run: &str,
    entry: &StreamId,
    players: &mut HashMap<String, UnitPlayer>,
) -> Outcome {
    if !valid_run_id(run) {
        return Outcome::Dead(format!("run id {} is not 1 to {} letters, digits, `-` or `_`", shown(run), MAX_RUN_ID));
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
pub fn check_spec(secret: &Secret, run: &str, bytes: &[u8], mac: Option<&str>) -> Result<(), String> {
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
