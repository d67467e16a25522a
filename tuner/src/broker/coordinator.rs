//! The coordinator's side of a run: publish tasks, read answers, forget what is settled. The
//! commands (a match, an evolve generation) decide what a task is and whether an answer is
//! valid; this module only moves entries and keeps the run's keys and lock in order.

use std::{
    collections::{HashMap, HashSet},
    time::{Duration, Instant},
};

use redis::{Commands, Connection, streams::StreamRangeReply, streams::StreamReadReply};

use super::{BrokerConfig, BrokerError, GROUP, RunLock, ensure_group, wire::field};

/// One answer from the results stream.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Its entry id in the results stream.
    pub entry: String,
    pub task: String,
    pub worker: String,
    /// The answer's JSON, or the worker's refusal.
    pub body: Result<String, String>,
}

/// An open run on the broker, owned (locked) by this process.
pub struct Coordinator {
    cfg: BrokerConfig,
    con: Connection,
    run: String,
    lock: Option<RunLock>,
    tasks_key: String,
    results_key: String,
    /// Results-stream id of the last answer read ("0": read the stream from its start, so a
    /// resumed coordinator sees answers that came while it was away).
    last_read: String,
    last_renew: Instant,
    /// Entry ids of the tasks this coordinator published (or found at a resume), so that a
    /// forged task someone added to the stream cannot end the run through a dead letter.
    ours: HashSet<String>,
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
        let e = |err| cfg.error(err);
        if !keep {
            let _: () = con.del(&[&tasks_key, &results_key, &spec_key]).map_err(e)?;
        }
        let _: () = con.set(&spec_key, spec).map_err(e)?;
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
            last_read: "0".into(),
            last_renew: Instant::now(),
            ours: HashSet::new(),
        })
    }

    pub fn run(&self) -> &str {
        &self.run
    }

    /// The tasks already in the stream, task id → entry id; entries whose task `keep` rejects
    /// (settled, or from an earlier generation) are removed from the stream.
    pub fn published(&mut self, keep: impl Fn(&str) -> bool) -> Result<HashMap<String, String>, BrokerError> {
        let reply: StreamRangeReply = self.con.xrange_all(&self.tasks_key).map_err(|e| self.cfg.error(e))?;
        let mut out = HashMap::new();
        for entry in reply.ids {
            let task: Option<String> = entry.get(field::TASK);
            match task {
                Some(t) if keep(&t) && !out.contains_key(&t) => {
                    self.ours.insert(entry.id.clone());
                    out.insert(t, entry.id);
                }
                _ => self.drop_task(&entry.id)?,
            }
        }
        Ok(out)
    }

    /// Adds a task; returns its entry id.
    pub fn publish(&mut self, task: &str, body: &str) -> Result<String, BrokerError> {
        let entry: String = self
            .con
            .xadd(&self.tasks_key, "*", &[(field::TASK, task), (field::BODY, body)])
            .map_err(|e| self.cfg.error(e))?;
        self.ours.insert(entry.clone());
        Ok(entry)
    }

    /// Removes a task entry (and its pending-list record, if a worker holds it).
    pub fn drop_task(&mut self, entry: &str) -> Result<(), BrokerError> {
        let e = |err| self.cfg.error(err);
        let _: i64 = self.con.xack(&self.tasks_key, GROUP, &[entry]).map_err(e)?;
        let _: i64 = self.con.xdel(&self.tasks_key, &[entry]).map_err(|err| self.cfg.error(err))?;
        self.ours.remove(entry);
        Ok(())
    }

    /// Removes an answer that has been counted (or rejected).
    pub fn drop_answer(&mut self, entry: &str) -> Result<(), BrokerError> {
        let _: i64 = self.con.xdel(&self.results_key, &[entry]).map_err(|e| self.cfg.error(e))?;
        Ok(())
    }

    /// Answers that arrived since the last call, waiting up to `wait` for the first; renews
    /// the run's lock on the way. A task a worker moved to the dead-letter stream ends the wait
    /// with [`BrokerError::DeadLetter`].
    pub fn answers(&mut self, wait: Duration) -> Result<Vec<Answer>, BrokerError> {
        if self.last_renew.elapsed() >= self.cfg.visibility / 4
            && let Some(lock) = &self.lock
        {
            lock.renew(&self.cfg, &mut self.con)?;
            self.last_renew = Instant::now();
        }
        let opts = redis::streams::StreamReadOptions::default().count(256).block(wait.as_millis().max(1) as usize);
        let reply: Option<StreamReadReply> =
            self.con.xread_options(&[&self.results_key], &[&self.last_read], &opts).map_err(|e| self.cfg.error(e))?;
        let mut out = Vec::new();
        for key in reply.map(|r| r.keys).unwrap_or_default() {
            for entry in key.ids {
                self.last_read = entry.id.clone();
                let text = |f: &str| entry.get::<String>(f);
                if let Some(reason) = text(field::DEAD) {
                    // No worker will run the task: waiting for it would be forever. The entry
                    // goes, so that a resumed run publishes the task again.
                    self.drop_answer(&entry.id)?;
                    if !text(field::ENTRY).is_some_and(|e| self.ours.contains(&e)) {
                        log::warn!(
                            "broker: run {}: a task this coordinator did not publish went to the dead-letter stream",
                            self.run
                        );
                        continue;
                    }
                    return Err(BrokerError::DeadLetter {
                        run: self.run.clone(),
                        task: text(field::TASK).unwrap_or_default(),
                        worker: text(field::WORKER).unwrap_or_else(|| "?".into()),
                        key: self.cfg.dead_key(),
                        reason,
                    });
                }
                let body = match (text(field::BODY), text(field::REFUSED)) {
                    (Some(b), _) => Ok(b),
                    (None, Some(r)) => Err(r),
                    (None, None) => Err("an answer with neither body nor refusal".into()),
                };
                out.push(Answer {
                    task: text(field::TASK).unwrap_or_default(),
                    worker: text(field::WORKER).unwrap_or_else(|| "?".into()),
                    entry: entry.id,
                    body,
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
            let keys = [&self.tasks_key, &self.results_key, &cfg.run_key(&self.run, "spec")];
            let _: () = self.con.del(&keys).map_err(|e| cfg.error(e))?;
            let _: () = self.con.srem(cfg.runs_key(), &self.run).map_err(|e| cfg.error(e))?;
        }
        if let Some(lock) = self.lock.take() {
            lock.release(&cfg, &mut self.con)?;
        }
        Ok(())
    }
}

/// Logs, at most once a minute, that the coordinator is still waiting, so a run without workers
/// says why it does not move.
pub struct Patience {
    since: Instant,
    said: Instant,
}

impl Default for Patience {
    fn default() -> Self {
        Patience { since: Instant::now(), said: Instant::now() }
    }
}

impl Patience {
    /// Something arrived.
    pub fn progress(&mut self) {
        self.since = Instant::now();
    }

    pub fn waiting(&mut self, run: &str, out: usize) {
        if self.since.elapsed() >= Duration::from_secs(60) && self.said.elapsed() >= Duration::from_secs(60) {
            self.said = Instant::now();
            log::warn!(
                "broker: run {run}: {out} task(s) out and no answer for {} s; is a `tuner worker` running?",
                self.since.elapsed().as_secs()
            );
        }
    }
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
    let mut patience = Patience::default();
    while !out.is_empty() {
        let answers = co.answers(Duration::from_secs(1))?;
        if answers.is_empty() {
            patience.waiting(co.run(), out.len());
        }
        for a in answers {
            co.drop_answer(&a.entry)?;
            let Some(entry) = out.get(&a.task).cloned() else {
                log::debug!("broker: answer to task {} from {} is not awaited; dropped", a.task, a.worker);
                continue;
            };
            match a.body.as_deref().map_err(Clone::clone).and_then(|body| check(&a.task, body)) {
                Ok(value) => {
                    co.drop_task(&entry)?;
                    out.remove(&a.task);
                    done.insert(a.task, value);
                    patience.progress();
                }
                // A refusal leaves the task to other workers (it was not acknowledged).
                Err(why) if a.body.is_err() => log::warn!("broker: worker {} refused task {}: {why}", a.worker, a.task),
                Err(why) => {
                    log::warn!("broker: rejected the answer of worker {} to task {}: {why}", a.worker, a.task);
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
