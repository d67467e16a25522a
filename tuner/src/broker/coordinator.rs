//! The coordinator's side of a run: publish tasks, read answers, forget what is settled. The
//! commands (a match, an evolve generation) decide what a task is and whether an answer is
//! valid; this module only moves entries and keeps the run's keys and lock in order.
//!
//! # A broker that goes away
//!
//! A lost connection (Redis restarted, the network cut) is not the end of a run: the coordinator
//! reconnects with backoff for up to [`RECONNECT_FOR`], logging each try, and then puts the run
//! back as it was: its lock, spec, groups and its place in the runs set, and every task it still
//! awaits that the broker no longer holds (a Redis without persistence forgets everything) is
//! published again under a new entry id, which the callers' old ids resolve to. Answers are read
//! again from the start of the results stream. An answer is accepted only once it has been read
//! here, so a restart can lose answers the workers wrote but never an accepted result: a task
//! whose answer was lost is played again, and one answered twice counts once.
//!
//! # Runs nobody will play
//!
//! A worker whose build differs refuses the run and leaves its task to others. When refusals
//! came and, for [`BrokerConfig::patience`], no answer was accepted and no other worker holds a
//! task, every worker that came refused: the run stops with [`BrokerError::Refused`].
//!
//! # Cancelled runs
//!
//! `tuner runs cancel` flags a run and deletes its tasks ([`super::runs`]); the coordinator
//! looks for the flag before each wait for answers and stops with [`BrokerError::Cancelled`].
//! Opening a run clears its flag: a rerun is the user's wish to play it again.
//!
//! # Forged entries
//!
//! The coordinator signs its spec and tasks and reads only what verifies ([`super::mac`]): an
//! answer whose MAC is missing or wrong (or one over [`MAX_ANSWER_BYTES`]) comes out of
//! [`Coordinator::answers`] as [`Reply::Rejected`], which its caller treats as any rejected
//! answer: logged with the task and the reason, never counted, the task published again. A
//! refusal or a dead-letter note that does not verify is logged and otherwise ignored, so a
//! forger can neither end a run nor count towards its patience.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    thread,
    time::{Duration, Instant},
};

use redis::{
    Commands, Connection, RedisError, RedisResult,
    streams::{StreamPendingCountReply, StreamRangeReply, StreamReadReply},
};

use super::{
    BrokerConfig, BrokerError, GROUP, RunLock, ensure_group,
    mac::{Purpose, Secret},
    redact, runs,
    wire::{SPEC_MAC, field},
};

/// Largest answer a coordinator reads (two games' records are some tens of kilobytes).
pub const MAX_ANSWER_BYTES: usize = 1 << 20;

/// How long a coordinator tries to reach a broker that went away before it gives up.
pub const RECONNECT_FOR: Duration = Duration::from_secs(300);
/// The pause before the first reconnection try; it doubles up to [`RECONNECT_MAX_PAUSE`].
const RECONNECT_FIRST_PAUSE: Duration = Duration::from_millis(250);
const RECONNECT_MAX_PAUSE: Duration = Duration::from_secs(10);

/// Whether `e` means the connection (or the server behind it) is gone, rather than a refused
/// command: such an error is answered by reconnecting.
fn connection_lost(e: &RedisError) -> bool {
    e.is_io_error()
        || e.is_connection_dropped()
        || e.is_connection_refusal()
        || e.is_timeout()
        || e.is_unrecoverable_error()
        || e.code() == Some("LOADING")
}

/// One answer from the results stream.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Its entry id in the results stream.
    pub entry: String,
    /// The task id it names, escaped for logs ([`evochess::one_line`]).
    pub task: String,
    pub worker: String,
    pub reply: Reply,
}

/// What an answer says, once its MAC was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The answer's JSON; its MAC verifies.
    Body(String),
    /// The worker would not run the run's tasks, and why; its MAC verifies.
    Refused(String),
    /// An answer not to be read, and why (no MAC, a wrong one, too large).
    Rejected(String),
}

/// Checks one answer of run `run` to task `task`: its size, then its MAC.
///
/// # Errors
/// Why it is refused, for a log line.
pub fn authenticate(secret: &Secret, run: &str, task: &str, body: &str, mac: Option<&str>) -> Result<(), String> {
    if body.len() > MAX_ANSWER_BYTES {
        return Err(format!("an answer of {} bytes (at most {MAX_ANSWER_BYTES})", body.len()));
    }
    secret.verify(Purpose::Answer, run, task, body.as_bytes(), mac).map_err(|e| e.to_string())
}

/// An open run on the broker, owned (locked) by this process.
pub struct Coordinator {
    cfg: BrokerConfig,
    con: Connection,
    run: String,
    lock: Option<RunLock>,
    tasks_key: String,
    results_key: String,
    /// The run's `info` hash ([`runs::INFO`]).
    info_key: String,
    /// Results-stream id of the last answer read ("0": read the stream from its start, so a
    /// resumed coordinator sees answers that came while it was away).
    last_read: String,
    last_renew: Instant,
    /// The run's spec, stored again after a broker restart.
    spec: String,
    /// The tasks this coordinator published (or found at a resume) and has not dropped, by
    /// entry id: their task ids and bodies, to publish again if the broker loses them, and so
    /// that a forged task someone added to the stream cannot end the run through a dead letter.
    ours: HashMap<String, (String, String)>,
    /// Entry ids of tasks published again after a broker restart: old id → new id.
    moved: HashMap<String, String>,
}

impl Coordinator {
    /// Opens run `run`: takes its lock, empties it unless `keep` (a resume), stores `spec`, and
    /// lists it among the runs workers serve.
    pub fn open(cfg: &BrokerConfig, run: &str, spec: &str, keep: bool) -> Result<Coordinator, BrokerError> {
        let mut con = cfg.connect()?;
        let lock = RunLock::take(cfg, &mut con, run)?;
        let tasks_key = cfg.run_key(run, "tasks");
        let results_key = cfg.run_key(run, "results");
        let spec_key = cfg.run_key(run, "spec");
        let mac_key = cfg.run_key(run, SPEC_MAC);
        let info_key = cfg.run_key(run, runs::INFO);
        let e = |err| cfg.error(err);
        if let Some((ago, by)) = runs::cancelled(cfg, &mut con, run).map_err(e)? {
            let ago = ago.map_or_else(|| "?".into(), runs::age);
            log::warn!("broker: run {run} was cancelled {ago} ago by {by}; opening it again");
            let _: () = con.del(cfg.run_key(run, runs::CANCELLED)).map_err(e)?;
        }
        if !keep {
            let _: () = con.del(&[&tasks_key, &results_key, &spec_key, &mac_key, &info_key]).map_err(e)?;
        }
        let _: () = redis::pipe()
            .hset_nx(&info_key, "created", runs::unix_now())
            .hset_nx(&info_key, "done", 0)
            .hset(&info_key, "command", runs::this_command())
            .persist(&info_key)
            .query(&mut con)
            .map_err(e)?;
        let _: () = store_spec(cfg, &mut con, run, spec).map_err(e)?;
        ensure_group(cfg, &mut con, &tasks_key, GROUP)?;
        // The results stream exists from the start: workers answer with NOMKSTREAM, so that a
        // late answer never recreates a run that has ended.
        ensure_group(cfg, &mut con, &results_key, "coordinator")?;
        let _: () = con.sadd(cfg.runs_key(), run).map_err(e)?;
        log::info!("broker {} (namespace {}): run {run} open", super::redact(&cfg.url), cfg.namespace);
        Ok(Coordinator {
            cfg: cfg.clone(),
            con,
            run: run.to_string(),
            lock: Some(lock),
            tasks_key,
            results_key,
            info_key,
            last_read: "0".into(),
            last_renew: Instant::now(),
            spec: spec.to_string(),
            ours: HashMap::new(),
            moved: HashMap::new(),
        })
    }

    /// Runs `op`, reconnecting (and restoring the run) while the broker is unreachable.
    fn retry<T>(&mut self, mut op: impl FnMut(&mut Self) -> RedisResult<T>) -> Result<T, BrokerError> {
        loop {
            match op(self) {
                Ok(v) => return Ok(v),
                Err(e) if connection_lost(&e) => self.reconnect(e)?,
                Err(e) => return Err(self.cfg.error(e)),
            }
        }
    }

    /// Reconnects with backoff for up to [`RECONNECT_FOR`], then restores the run.
    fn reconnect(&mut self, lost: RedisError) -> Result<(), BrokerError> {
        let url = redact(&self.cfg.url);
        log::warn!(
            "broker {url}: run {}: connection lost ({lost}); reconnecting for up to {} s",
            self.run,
            RECONNECT_FOR.as_secs()
        );
        let started = Instant::now();
        let mut pause = RECONNECT_FIRST_PAUSE;
        let mut tries = 0u32;
        loop {
            thread::sleep(pause);
            pause = (pause * 2).min(RECONNECT_MAX_PAUSE);
            tries += 1;
            let why = match self.cfg.connect() {
                Ok(con) => {
                    self.con = con;
                    match self.restore() {
                        Ok(republished) => {
                            log::warn!(
                                "broker {url}: run {}: reconnected after {:.1} s ({tries} tries); {republished} \
                                 task(s) the broker had lost published again",
                                self.run,
                                started.elapsed().as_secs_f64()
                            );
                            return Ok(());
                        }
                        Err(Restore::Busy(e)) => return Err(e),
                        Err(Restore::Redis(e)) => e.to_string(),
                    }
                }
                Err(e) => e.to_string(),
            };
            if started.elapsed() + pause > RECONNECT_FOR {
                return Err(BrokerError::Unreachable {
                    url,
                    run: self.run.clone(),
                    secs: started.elapsed().as_secs(),
                    tries,
                    last: why,
                });
            }
            log::warn!(
                "broker {url}: run {}: try {tries} failed ({why}); next in {:.1} s",
                self.run,
                pause.as_secs_f64()
            );
        }
    }

    /// Puts the run back on a broker that may have forgotten it; returns how many tasks it
    /// published again.
    fn restore(&mut self) -> Result<usize, Restore> {
        let cfg = self.cfg.clone();
        // Cancelled while the broker was away: nothing is put back.
        if let Some((ago, by)) = runs::cancelled(&cfg, &mut self.con, &self.run)? {
            return Err(Restore::Busy(self.cancelled_error(ago, by)));
        }
        if let Some(lock) = &self.lock {
            // The lock: still ours, or ours again (a restart forgot it); someone else's stops us.
            let holder: Option<String> = self.con.get(&lock.key)?;
            match holder {
                Some(h) if h != lock.owner => {
                    let ttl: i64 = self.con.ttl(&lock.key)?;
                    return Err(Restore::Busy(BrokerError::Busy { run: self.run.clone(), owner: h, ttl }));
                }
                _ => {
                    let _: () = self.con.set_ex(&lock.key, &lock.owner, lock.ttl_s)?;
                    self.last_renew = Instant::now();
                }
            }
        }
        store_spec(&cfg, &mut self.con, &self.run, &self.spec)?;
        for (key, group) in [(&self.tasks_key, GROUP), (&self.results_key, "coordinator")] {
            let made: RedisResult<()> =
                redis::cmd("XGROUP").arg("CREATE").arg(key).arg(group).arg("0").arg("MKSTREAM").query(&mut self.con);
            match made {
                Err(e) if e.code() != Some("BUSYGROUP") => return Err(e.into()),
                _ => {}
            }
        }
        let _: () = self.con.sadd(cfg.runs_key(), &self.run)?;
        let held: StreamRangeReply = self.con.xrange_all(&self.tasks_key)?;
        let held: std::collections::HashSet<String> = held.ids.into_iter().map(|e| e.id).collect();
        let lost: Vec<String> = self.ours.keys().filter(|e| !held.contains(*e)).cloned().collect();
        for old in &lost {
            let (task, body) = self.ours.remove(old).expect("listed above");
            let mac = cfg.secret.sign(Purpose::Task, &self.run, &task, body.as_bytes());
            let fields = [(field::TASK, &task), (field::BODY, &body), (field::MAC, &mac)];
            let new: String = self.con.xadd(&self.tasks_key, "*", &fields)?;
            self.moved.insert(old.clone(), new.clone());
            self.ours.insert(new, (task, body));
        }
        // Every answer not yet dropped is read again: those read before were all dropped (or
        // are answers to settled tasks, which the callers ignore).
        self.last_read = "0".into();
        Ok(lost.len())
    }

    /// The entry id a task published as `entry` has now (it changes when a broker restart
    /// made this coordinator publish it again).
    fn current(&self, entry: &str) -> String {
        let mut e = entry;
        while let Some(next) = self.moved.get(e) {
            e = next;
        }
        e.to_string()
    }

    pub fn run(&self) -> &str {
        &self.run
    }

    fn cancelled_error(&self, ago: Option<Duration>, by: String) -> BrokerError {
        BrokerError::Cancelled { run: self.run.clone(), ago: ago.map_or_else(|| "?".into(), runs::age), by }
    }

    /// Removes the task of an answer that was counted, and counts it among the run's settled
    /// tasks (`tuner runs list`'s `done`).
    pub fn settled(&mut self, entry: &str) -> Result<(), BrokerError> {
        self.drop_task(entry)?;
        let _: i64 = self.retry(|co| co.con.hincr(&co.info_key, "done", 1))?;
        Ok(())
    }

    /// The tasks already in the stream, task id → entry id; entries whose task `keep` rejects
    /// (settled, or from an earlier generation) are removed from the stream.
    pub fn published(&mut self, keep: impl Fn(&str) -> bool) -> Result<HashMap<String, String>, BrokerError> {
        let reply: StreamRangeReply = self.retry(|co| co.con.xrange_all(&co.tasks_key))?;
        let mut out = HashMap::new();
        for entry in reply.ids {
            let task: Option<String> = entry.get(field::TASK);
            let body: Option<String> = entry.get(field::BODY);
            match (task, body) {
                (Some(t), Some(b)) if keep(&t) && !out.contains_key(&t) => {
                    self.ours.insert(entry.id.clone(), (t.clone(), b));
                    out.insert(t, entry.id);
                }
                _ => self.drop_task(&entry.id)?,
            }
        }
        Ok(out)
    }

    /// Adds a task, signed; returns its entry id.
    pub fn publish(&mut self, task: &str, body: &str) -> Result<String, BrokerError> {
        let mac = self.cfg.secret.sign(Purpose::Task, &self.run, task, body.as_bytes());
        let fields = [(field::TASK, task), (field::BODY, body), (field::MAC, &mac)];
        let entry: String = self.retry(|co| co.con.xadd(&co.tasks_key, "*", &fields))?;
        self.ours.insert(entry.clone(), (task.to_string(), body.to_string()));
        Ok(entry)
    }

    /// Removes a task entry (and its pending-list record, if a worker holds it).
    pub fn drop_task(&mut self, entry: &str) -> Result<(), BrokerError> {
        self.retry(|co| {
            let entry = co.current(entry);
            let _: i64 = co.con.xack(&co.tasks_key, GROUP, &[&entry])?;
            co.con.xdel::<_, _, i64>(&co.tasks_key, &[&entry])
        })?;
        let entry = self.current(entry);
        self.ours.remove(&entry);
        Ok(())
    }

    /// Removes an answer that has been counted (or rejected).
    pub fn drop_answer(&mut self, entry: &str) -> Result<(), BrokerError> {
        let _: i64 = self.retry(|co| co.con.xdel(&co.results_key, &[entry]))?;
        Ok(())
    }

    /// Whether a worker other than `refused` holds one of the run's tasks and still renews its
    /// claim (it is playing, so the run is not stuck).
    pub fn held_by_others(&mut self, refused: &BTreeSet<String>) -> Result<bool, BrokerError> {
        Ok(self.holders()?.iter().any(|w| !refused.contains(w)))
    }

    /// The workers (consumer names) that hold one of the run's tasks and still renew the claim.
    pub fn holders(&mut self) -> Result<BTreeSet<String>, BrokerError> {
        let pending: StreamPendingCountReply =
            self.retry(|co| co.con.xpending_count(&co.tasks_key, GROUP, "-", "+", 1000))?;
        let fresh = self.cfg.visibility.as_millis() as usize;
        Ok(pending.ids.iter().filter(|p| p.last_delivered_ms < fresh).map(|p| p.consumer.clone()).collect())
    }

    /// Answers that arrived since the last call, waiting up to `wait` for the first, their
    /// MACs checked; renews the run's lock on the way. A task a worker moved to the dead-letter
    /// stream ends the wait with [`BrokerError::DeadLetter`]. Refusals and dead-letter notes that
    /// do not verify are logged and dropped here.
    pub fn answers(&mut self, wait: Duration) -> Result<Vec<Answer>, BrokerError> {
        let run = self.run.clone();
        if let Some((ago, by)) = self.retry(|co| runs::cancelled(&co.cfg.clone(), &mut co.con, &run))? {
            // Tasks published since the cancellation recreated the stream: it goes again.
            let _: () = self.retry(|co| co.con.del(&[&co.tasks_key, &co.results_key]))?;
            return Err(self.cancelled_error(ago, by));
        }
        if self.last_renew.elapsed() >= self.cfg.visibility / 4 && self.lock.is_some() {
            self.retry(|co| {
                let lock = co.lock.as_ref().expect("checked above");
                co.con.set_ex::<_, _, ()>(&lock.key, &lock.owner, lock.ttl_s)
            })?;
            self.last_renew = Instant::now();
        }
        let opts = redis::streams::StreamReadOptions::default().count(256).block(wait.as_millis().max(1) as usize);
        let reply: Option<StreamReadReply> =
            self.retry(|co| co.con.xread_options(&[&co.results_key], &[&co.last_read], &opts))?;
        let mut out = Vec::new();
        // Owned: the loop drops entries (`&mut self`) while it verifies them.
        let (secret, run) = (self.cfg.secret.clone(), self.run.clone());
        for key in reply.map(|r| r.keys).unwrap_or_default() {
            for entry in key.ids {
                self.last_read = entry.id.clone();
                let text = |f: &str| entry.get::<String>(f);
                // What a worker wrote is shown on one line: its name, the task id, a reason.
                let shown = |f: &str| text(f).map(|t| evochess::one_line(&t).into_owned());
                let task = text(field::TASK).unwrap_or_default();
                let mac = text(field::MAC);
                let verify = |purpose, body: &str| secret.verify(purpose, &run, &task, body.as_bytes(), mac.as_deref());
                if let Some(raw) = text(field::DEAD) {
                    let reason = evochess::one_line(&raw).into_owned();
                    let note = format!("{}\n{raw}", text(field::ENTRY).unwrap_or_default());
                    // No worker will run the task: waiting for it would be forever. The entry
                    // goes, so that a resumed run publishes the task again.
                    self.drop_answer(&entry.id)?;
                    if let Err(why) = verify(Purpose::Dead, &note) {
                        log::warn!(
                            "broker: run {}: ignored a dead-letter note for task {} from worker {}: {why}",
                            self.run,
                            shown(field::TASK).unwrap_or_default(),
                            shown(field::WORKER).unwrap_or_else(|| "?".into()),
                        );
                        continue;
                    }
                    if !text(field::ENTRY).is_some_and(|e| self.ours.contains_key(&e)) {
                        log::warn!(
                            "broker: run {}: a task this coordinator did not publish went to the dead-letter stream",
                            self.run
                        );
                        continue;
                    }
                    return Err(BrokerError::DeadLetter {
                        run: self.run.clone(),
                        task: shown(field::TASK).unwrap_or_default(),
                        worker: shown(field::WORKER).unwrap_or_else(|| "?".into()),
                        key: self.cfg.dead_key(),
                        reason,
                    });
                }
                let worker = shown(field::WORKER).unwrap_or_else(|| "?".into());
                let reply = match (text(field::BODY), text(field::REFUSED)) {
                    (Some(b), _) => match authenticate(&secret, &run, &task, &b, mac.as_deref()) {
                        Ok(()) => Reply::Body(b),
                        Err(why) => Reply::Rejected(why),
                    },
                    (None, Some(r)) => match verify(Purpose::Refusal, &r) {
                        Ok(()) => Reply::Refused(evochess::one_line(&r).into_owned()),
                        Err(why) => {
                            // A worker whose secret differs cannot sign its refusal either:
                            // shown, so that its owner learns why, but never counted.
                            log::warn!(
                                "broker: run {}: ignored a refusal from worker {worker}: {why}; it says: {}",
                                self.run,
                                evochess::one_line(&r)
                            );
                            self.drop_answer(&entry.id)?;
                            continue;
                        }
                    },
                    (None, None) => Reply::Rejected("an answer with neither body nor refusal".into()),
                };
                out.push(Answer {
                    // The ids this coordinator publishes have no control characters: escaping
                    // changes only forged ones, which match no task anyway.
                    task: evochess::one_line(&task).into_owned(),
                    worker,
                    entry: entry.id,
                    reply,
                });
            }
        }
        Ok(out)
    }

    /// Ends the run. `finished`: its keys are deleted (workers drop its tasks); otherwise they
    /// stay for `--resume`. The lock is released either way.
    pub fn close(mut self, finished: bool) -> Result<(), BrokerError> {
        let cfg = self.cfg.clone();
        if finished {
            let spec_key = cfg.run_key(&self.run, "spec");
            let mac_key = cfg.run_key(&self.run, SPEC_MAC);
            self.retry(|co| {
                let _: () = co.con.del(&[&co.tasks_key, &co.results_key, &spec_key, &mac_key, &co.info_key])?;
                co.con.srem::<_, _, ()>(cfg.runs_key(), &co.run)
            })?;
        }
        if let Some(lock) = self.lock.take() {
            lock.release(&cfg, &mut self.con)?;
        }
        Ok(())
    }
}

/// Stores a run's spec with its MAC, in one `MSET` so that no worker reads one without the other.
fn store_spec(cfg: &BrokerConfig, con: &mut Connection, run: &str, spec: &str) -> RedisResult<()> {
    let mac = cfg.secret.sign(Purpose::Spec, run, "", spec.as_bytes());
    con.mset(&[(cfg.run_key(run, "spec"), spec), (cfg.run_key(run, SPEC_MAC), &mac)])
}

/// Why a run could not be put back after a reconnection.
enum Restore {
    /// Another coordinator took the run meanwhile.
    Busy(BrokerError),
    Redis(RedisError),
}

impl From<RedisError> for Restore {
    fn from(e: RedisError) -> Self {
        Restore::Redis(e)
    }
}

/// Logs, at most once a minute, that the coordinator is still waiting, so a run without workers
/// says why it does not move; and ends a run that every worker refuses.
pub struct Patience {
    /// When the run's wait began (the coordinator opened it).
    began: Instant,
    /// The last accepted answer, or the beginning.
    since: Instant,
    /// The last note on the wait, if any since the last answer.
    said: Option<Instant>,
    /// How long refusals may stand with no progress (see [`BrokerConfig::patience`]).
    limit: Duration,
    /// Since when only refusals came, and the refusing workers (consumer names) with a reason.
    refused: Option<(Instant, BTreeMap<String, String>)>,
    /// Workers whose answers were accepted in this run.
    seen: BTreeSet<String>,
}

/// A wait with no answer is first said after this long...
const FIRST_NOTE: Duration = Duration::from_secs(10);
/// ...then every this long; past [`WARN_AFTER`] as a warning.
const NOTE_EVERY: Duration = Duration::from_secs(30);
const WARN_AFTER: Duration = Duration::from_secs(60);

impl Patience {
    pub fn new(cfg: &BrokerConfig) -> Patience {
        let now = Instant::now();
        Patience { began: now, since: now, said: None, limit: cfg.patience, refused: None, seen: BTreeSet::new() }
    }

    /// `worker`'s answer was accepted.
    pub fn progress(&mut self, worker: &str) {
        self.since = Instant::now();
        self.said = None;
        self.refused = None;
        if !self.seen.contains(worker) {
            self.seen.insert(worker.to_string());
        }
    }

    /// `worker` refused the run.
    pub fn refused(&mut self, worker: &str, reason: &str) {
        let (_, who) = self.refused.get_or_insert_with(|| (Instant::now(), BTreeMap::new()));
        who.insert(worker.to_string(), reason.to_string());
    }

    /// Ends the run with [`BrokerError::Refused`] once refusals have stood for the limit with no
    /// accepted answer and no other worker holding a task.
    pub fn check(&self, co: &mut Coordinator) -> Result<(), BrokerError> {
        let Some((since, who)) = &self.refused else { return Ok(()) };
        if since.elapsed() < self.limit {
            return Ok(());
        }
        let names: BTreeSet<String> = who.keys().cloned().collect();
        if co.held_by_others(&names)? {
            return Ok(());
        }
        let (worker, reason) = who.iter().next().expect("a refusal was recorded");
        Err(BrokerError::Refused {
            run: co.run().to_string(),
            secs: since.elapsed().as_secs(),
            workers: who.keys().cloned().collect::<Vec<_>>().join(", "),
            first: format!("{worker}: {reason}"),
        })
    }

    /// No answer came: says so on stderr, [`FIRST_NOTE`] into the silence and every
    /// [`NOTE_EVERY`] after, with the tasks out, the workers holding them now and those seen.
    pub fn waiting(&mut self, co: &mut Coordinator, out: usize) -> Result<(), BrokerError> {
        let quiet = self.since.elapsed();
        if quiet < FIRST_NOTE || self.said.is_some_and(|s| s.elapsed() < NOTE_EVERY) {
            return Ok(());
        }
        self.said = Some(Instant::now());
        let holders = co.holders()?;
        let text = wait_note(co.run(), out, &holders, &self.seen, quiet, self.began.elapsed());
        if quiet >= WARN_AFTER {
            log::warn!("{text}; is a `tuner worker` running (with this run's --broker-namespace and secret)?");
        } else {
            log::info!("{text}");
        }
        Ok(())
    }
}

/// The coordinator's note on a wait: `broker: run R: waiting for workers: ...`.
fn wait_note(
    run: &str,
    out: usize,
    holders: &BTreeSet<String>,
    seen: &BTreeSet<String>,
    quiet: Duration,
    waited: Duration,
) -> String {
    let names = |s: &BTreeSet<String>| s.iter().cloned().collect::<Vec<_>>().join(", ");
    let held = match holders.len() {
        0 => "none held by a worker".to_string(),
        n => format!("held by {n} worker(s) now ({})", names(holders)),
    };
    let seen = if seen.is_empty() { "none yet".to_string() } else { format!("{} ({})", seen.len(), names(seen)) };
    format!(
        "broker: run {run}: waiting for workers: {out} task(s) queued, {held}; workers that answered: {seen}; no \
         answer for {} s, waiting since {} s ago",
        quiet.as_secs(),
        waited.as_secs()
    )
}

/// Publishes `tasks` (id, body) in run `run` and waits for a valid answer to each: the in-process
/// fitnesses' way (an evolve or search-evolve generation). `check` turns a task's id and its
/// answer's JSON into the answer's value or says why it is rejected (the task is then published again). Answers a stopped
/// coordinator left in the run are used; equal ids are one task.
pub fn gather<T>(
    broker: &BrokerConfig,
    run: &str,
    spec: &str,
    tasks: &[(String, String)],
    check: impl Fn(&str, &str) -> Result<T, String>,
) -> Result<HashMap<String, T>, BrokerError> {
    let mut done: HashMap<String, T> = HashMap::new();
    if tasks.is_empty() {
        return Ok(done);
    }
    let bodies: HashMap<&str, &str> = tasks.iter().map(|(id, body)| (id.as_str(), body.as_str())).collect();
    let mut co = Coordinator::open(broker, run, spec, true)?;
    let mut out = co.published(|t| bodies.contains_key(t))?;
    for (id, body) in &bodies {
        if !out.contains_key(*id) {
            let entry = co.publish(id, body)?;
            out.insert(id.to_string(), entry);
        }
    }
    let mut patience = Patience::new(broker);
    while !out.is_empty() {
        let answers = co.answers(Duration::from_secs(1))?;
        if answers.is_empty() {
            patience.waiting(&mut co, out.len())?;
            patience.check(&mut co)?;
        }
        for a in answers {
            co.drop_answer(&a.entry)?;
            let Some(entry) = out.get(&a.task).cloned() else {
                match &a.reply {
                    Reply::Rejected(why) => {
                        log::warn!("broker: refused an answer of worker {} to task {}: {why}", a.worker, a.task);
                    }
                    _ => log::debug!("broker: answer to task {} from {} is not awaited; dropped", a.task, a.worker),
                }
                continue;
            };
            let checked = match &a.reply {
                Reply::Body(body) => check(&a.task, body),
                Reply::Rejected(why) => Err(why.clone()),
                Reply::Refused(why) => {
                    // A refusal leaves the task to other workers (it was not acknowledged).
                    log::warn!("broker: worker {} refused task {}: {why}", a.worker, a.task);
                    patience.refused(&a.worker, why);
                    continue;
                }
            };
            match checked {
                Ok(value) => {
                    co.settled(&entry)?;
                    out.remove(&a.task);
                    done.insert(a.task, value);
                    patience.progress(&a.worker);
                }
                Err(why) => {
                    let why = evochess::one_line(&why);
                    log::warn!(
                        "broker: rejected the answer of worker {} to task {}: {why}; the task is published again",
                        a.worker,
                        a.task
                    );
                    co.drop_task(&entry)?;
                    let entry = co.publish(&a.task, bodies[a.task.as_str()])?;
                    out.insert(a.task, entry);
                }
            }
        }
    }
    co.close(true)?;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_note_names_the_tasks_the_workers_and_the_time() {
        let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<String>>();
        let note = wait_note("r1", 4, &set(&[]), &set(&[]), Duration::from_secs(12), Duration::from_secs(12));
        assert_eq!(
            note,
            "broker: run r1: waiting for workers: 4 task(s) queued, none held by a worker; workers that answered: none \
             yet; no answer for 12 s, waiting since 12 s ago"
        );
        let (holders, seen) = (set(&["w2"]), set(&["w1", "w2"]));
        let note = wait_note("r1", 2, &holders, &seen, Duration::from_secs(40), Duration::from_secs(95));
        assert!(
            note.contains("2 task(s) queued, held by 1 worker(s) now (w2); workers that answered: 2 (w1, w2)"),
            "{note}"
        );
        assert!(note.ends_with("no answer for 40 s, waiting since 95 s ago"), "{note}");
    }
}
