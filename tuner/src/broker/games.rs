//! A match played by `tuner worker`s over the broker: the schedule's units become tasks, the
//! workers' answers come back as finished units, and the runner's own loop writes the journal,
//! PGN and standings exactly as for local games. [`OnWorkers`] is the arena executor that does
//! it; the arena knows only its trait.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    sync::{Arc, Mutex, OnceLock, atomic::Ordering},
    thread,
    time::Duration,
};

use arena::runner::{Context, Executor, RunnerError, Schedule, SharedExecutor, Unit, UnitDone};
use crossbeam_channel::Sender;

use shakmaty::Chess;
use shakmaty_syzygy::Tablebase;

use crate::broker::{
    BrokerConfig, BrokerError,
    coordinator::{Answer, Coordinator, Patience, Reply, authenticate},
    mac::Secret,
    run_id, signature,
    verify::check_games_answer,
    wire::{GAMES, GamesAnswer, GamesSpec, GamesTask, RemoteEngine, signature_mismatches, spec_json},
};

impl From<BrokerError> for RunnerError {
    fn from(e: BrokerError) -> Self {
        RunnerError::Executor(Box::new(e))
    }
}

/// Plays a match's units on `tuner worker`s through this broker instead of local threads.
#[derive(Debug)]
pub struct OnWorkers(pub BrokerConfig);

impl Executor for OnWorkers {
    /// One thread publishes the units and hands the workers' answers to the runner's loop.
    fn start(
        &self,
        ctx: &Arc<Context>,
        schedule: &Arc<Schedule>,
        results: &Sender<UnitDone>,
    ) -> Vec<thread::JoinHandle<Result<(), RunnerError>>> {
        let (ctx, schedule, tx, broker) = (Arc::clone(ctx), Arc::clone(schedule), results.clone(), self.0.clone());
        vec![
            thread::Builder::new()
                .name("broker".into())
                .spawn(move || coordinate(&ctx, &schedule, &tx, &broker))
                .expect("spawn"),
        ]
    }
}

/// The executor for `--broker`: `None` (the arena's local threads) without a broker.
pub fn on_workers(broker: Option<BrokerConfig>) -> Option<SharedExecutor> {
    broker.map(|b| SharedExecutor::new(OnWorkers(b)))
}

/// The program name under which workers know an engine: its command's file name.
fn program_of(cmd: &std::path::Path) -> String {
    cmd.file_name().map_or_else(|| cmd.display().to_string(), |f| f.to_string_lossy().into_owned())
}

/// A command line: the program and its arguments.
type CommandKey = (std::path::PathBuf, Vec<String>);

/// Bench signatures, computed once per command in this process (a coevolution opens a run per
/// generation; the engines do not change in between).
fn signature_of(spec: &arena::engine::spec::EngineSpec) -> String {
    static CACHE: OnceLock<Mutex<HashMap<CommandKey, String>>> = OnceLock::new();
    let key = (spec.cmd.clone(), spec.args.clone());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(s) = cache.lock().expect("signature cache").get(&key) {
        return s.clone();
    }
    let s = signature::bench_signature(&spec.cmd, &spec.args, spec.dir.as_deref());
    cache.lock().expect("signature cache").insert(key, s.clone());
    s
}

/// The worker-facing description of the match.
fn games_spec(ctx: &Context) -> Result<GamesSpec, RunnerError> {
    let cfg = &ctx.cfg;
    let mut signatures = BTreeMap::new();
    let mut engines = Vec::new();
    for e in &cfg.engines {
        let program = program_of(&e.cmd);
        let sig = signature_of(e);
        if let Some(other) = signatures.insert(program.clone(), sig.clone())
            && other != sig
        {
            return Err(RunnerError::Config(format!(
                "--broker: two different builds are both called `{program}` ({other} and {sig}); workers know \
                 a program by its file name, so give each build its own"
            )));
        }
        let params = match &e.params {
            Some(p) => Some(evochess::input::read_text(p, evochess::params::MAX_PARAMS_FILE_BYTES).map_err(|e| {
                RunnerError::Output { path: p.display().to_string(), source: std::io::Error::other(e.reason()) }
            })?),
            None => None,
        };
        engines.push(RemoteEngine {
            name: e.name.clone(),
            program,
            proto: e.proto,
            options: e.options.clone(),
            limits: e.limits.clone(),
            params,
            restart: e.restart,
        });
    }
    let spec = GamesSpec {
        engines,
        adjudication: cfg.adjudication.clone(),
        stall_timeout_ms: cfg.stall_timeout_ms,
        start_timeout_ms: cfg.start_timeout_ms,
        ping_timeout_ms: cfg.ping_timeout_ms,
        quit_timeout_ms: cfg.quit_timeout_ms,
        wait_ms: cfg.wait_ms,
        signatures,
    };
    // Workers refuse a spec beyond their caps: say so now, not through a dead letter.
    spec.check_caps().map_err(|why| RunnerError::Config(format!("--broker: {why} (workers refuse longer tasks)")))?;
    Ok(spec)
}

fn task_id(unit: u64) -> String {
    format!("u{unit}")
}

/// The unit of a task id ([`task_id`]); `None` for any other id.
fn unit_of(task: &str) -> Option<u64> {
    task.strip_prefix('u').and_then(|n| n.parse::<u64>().ok())
}

/// A task out, by its unit's id: its entry in the tasks stream, its unit, and its body.
type Out = HashMap<u64, (String, Unit, GamesTask)>;

/// Publishes the schedule's units a window at a time and sends each valid answer to the
/// runner's loop, once per unit whatever the broker redelivers.
fn coordinate(
    ctx: &Context,
    schedule: &Schedule,
    results: &Sender<UnitDone>,
    broker: &BrokerConfig,
) -> Result<(), RunnerError> {
    let cfg = &ctx.cfg;
    let spec = games_spec(ctx)?;
    let spec_json = spec_json(GAMES, &spec);
    // The run is the match (its fingerprint) as the workers will play it (the spec: params
    // texts and signatures).
    let run = run_id("match", &format!("{}\n{spec_json}", cfg.fingerprint()));
    let mut co = Coordinator::open(broker, &run, &spec_json, cfg.resume)?;
    let mut settled: HashSet<u64> = schedule.done.clone();
    let mut out = published_before(ctx, schedule, &mut co, &settled)?;
    let mut patience = Patience::new(broker);
    let mut exhausted = false;
    let outcome = loop {
        if ctx.stop.load(Ordering::Relaxed) {
            break Ok(false);
        }
        if !exhausted {
            exhausted = publish_window(ctx, schedule, &mut co, &mut out, broker.window)?;
        }
        if exhausted && out.is_empty() {
            break Ok(true);
        }
        let answers = match co.answers(Duration::from_secs(1)) {
            Ok(a) => a,
            Err(e) => break Err(e),
        };
        if answers.is_empty()
            && let Err(e) = patience.waiting(&mut co, out.len()).and_then(|()| patience.check(&mut co))
        {
            break Err(e);
        }
        for a in answers {
            let Some((id, reply)) = awaited(&mut co, &mut patience, &out, &a)? else { continue };
            let (entry, unit, task) = out.remove(&id).expect("awaited");
            let checked = match reply {
                Reply::Body(body) => check_answer(&spec, &task, &body, ctx.tablebase()),
                Reply::Rejected(why) => Err(why),
                Reply::Refused(_) => unreachable!("handled above"),
            };
            co.drop_answer(&a.entry)?;
            match checked {
                Ok(answer) => {
                    co.settled(&entry)?;
                    settled.insert(id);
                    patience.progress(&a.worker);
                    if results.send(UnitDone { unit, games: answer.games }).is_err() {
                        return co.close(false).map_err(Into::into);
                    }
                }
                Err(why) => {
                    // The worker acknowledged the task: publish it again for another. The reason
                    // may quote the answer's text.
                    let why = evochess::one_line(&why);
                    log::warn!(
                        "broker: rejected the answer of worker {} to task {}: {why}; the task is published again",
                        a.worker,
                        a.task
                    );
                    co.drop_task(&entry)?;
                    let entry = co.publish(&a.task, &serde_json::to_string(&task).expect("task serialises"))?;
                    out.insert(id, (entry, unit, task));
                }
            }
        }
    };
    match outcome {
        // Finished, or stopped by an SPRT decision: the run's keys go (workers drop what is out).
        Ok(_) => co.close(true).map_err(Into::into),
        Err(e) => {
            let _ = co.close(false);
            Err(e.into())
        }
    }
}

/// The tasks a previous coordinator of this run published and nobody answered yet: they stay
/// out, awaited, rather than published again.
fn published_before(
    ctx: &Context,
    schedule: &Schedule,
    co: &mut Coordinator,
    settled: &HashSet<u64>,
) -> Result<Out, RunnerError> {
    let mut out = Out::new();
    let already = co.published(|t| unit_of(t).is_some_and(|u| u < schedule.count && !settled.contains(&u)))?;
    for (task, entry) in already {
        let id = unit_of(&task).expect("kept only unit tasks");
        let unit = ctx.cfg.unit(id, &schedule.pairings);
        let body = games_task(ctx, &unit);
        out.insert(id, (entry, unit, body));
    }
    Ok(out)
}

/// Publishes the schedule's next units until `window` tasks are out; `true` once the schedule
/// has none left.
fn publish_window(
    ctx: &Context,
    schedule: &Schedule,
    co: &mut Coordinator,
    out: &mut Out,
    window: usize,
) -> Result<bool, RunnerError> {
    while out.len() < window {
        match schedule.take(&ctx.cfg, &ctx.stop) {
            Some(unit) if out.contains_key(&unit.id) => {}
            Some(unit) => {
                let task = games_task(ctx, &unit);
                let entry = co.publish(&task_id(unit.id), &serde_json::to_string(&task).expect("task serialises"))?;
                out.insert(unit.id, (entry, unit, task));
            }
            None => return Ok(true),
        }
    }
    Ok(false)
}

/// The awaited unit an answer is to, with its reply; `None`, the answer dropped (and logged),
/// for a refusal, and for a rejected answer or a body that no task out awaits.
fn awaited(
    co: &mut Coordinator,
    patience: &mut Patience,
    out: &Out,
    a: &Answer,
) -> Result<Option<(u64, Reply)>, RunnerError> {
    let id = unit_of(&a.task);
    let reply = match (&a.reply, id.and_then(|u| out.get(&u))) {
        (Reply::Refused(refusal), _) => {
            log::warn!("broker: worker {} refused task {}: {refusal}", a.worker, a.task);
            patience.refused(&a.worker, refusal);
            co.drop_answer(&a.entry)?;
            return Ok(None);
        }
        (Reply::Rejected(why), None) => {
            log::warn!("broker: refused an answer of worker {} to task {}: {why}", a.worker, a.task);
            co.drop_answer(&a.entry)?;
            return Ok(None);
        }
        (Reply::Body(_), None) => {
            // Settled already (a redelivered task answered twice), or not of this run.
            log::debug!("broker: answer to task {} from {} is not awaited; dropped", a.task, a.worker);
            co.drop_answer(&a.entry)?;
            return Ok(None);
        }
        (reply, Some(_)) => reply.clone(),
    };
    Ok(Some((id.expect("awaited tasks have unit ids"), reply)))
}

/// An authenticated answer's JSON to `task`, read and checked: the signatures of the worker's
/// builds, then every game replayed ([`check_games_answer`]).
///
/// # Errors
/// Why the answer does not count.
pub fn check_answer(
    spec: &GamesSpec,
    task: &GamesTask,
    body: &str,
    tb: Option<&Arc<Tablebase<Chess>>>,
) -> Result<GamesAnswer, String> {
    let answer = serde_json::from_str::<GamesAnswer>(body).map_err(|e| e.to_string())?;
    let bad = signature_mismatches(&spec.signatures, &answer.signatures);
    if !bad.is_empty() {
        return Err(format!("engine build differs: {}", bad.join("; ")));
    }
    check_games_answer(spec, task, &answer, tb)?;
    Ok(answer)
}

/// What a games coordinator checks one results-stream entry against.
pub struct Judge<'a> {
    pub secret: &'a Secret,
    pub run: &'a str,
    pub spec: &'a GamesSpec,
    /// The tasks awaited, by task id.
    pub awaited: &'a HashMap<String, GamesTask>,
    pub tb: Option<&'a Arc<Tablebase<Chess>>>,
}

impl Judge<'_> {
    /// The whole acceptance of an answer `body` with MAC `mac` to task `task`, in the order the
    /// coordinator applies it: size and MAC ([`authenticate`]), an awaited task, then
    /// [`check_answer`].
    ///
    /// # Errors
    /// Why the answer does not count.
    pub fn accept(&self, task: &str, body: &str, mac: Option<&str>) -> Result<GamesAnswer, String> {
        authenticate(self.secret, self.run, task, body, mac)?;
        let awaited = self.awaited.get(task).ok_or_else(|| format!("task {task:?} is not awaited in this run"))?;
        check_answer(self.spec, awaited, body, self.tb)
    }
}

fn games_task(ctx: &Context, unit: &Unit) -> GamesTask {
    GamesTask {
        unit: unit.id,
        round: unit.round,
        opening_index: unit.opening_index,
        games: unit.games.clone(),
        opening: ctx.book.get(unit.opening_index),
    }
}
