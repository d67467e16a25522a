//! A task thread's loop: claim a task (a dead worker's first, else new ones from every live
//! run), run it, and settle its outcome with the broker.

use std::{
    collections::{HashMap, VecDeque},
    sync::atomic::Ordering,
    thread,
    time::{Duration, Instant},
};

use arena::runner::UnitPlayer;
use redis::{
    Commands, Connection, RedisError,
    streams::{
        StreamAutoClaimOptions, StreamAutoClaimReply, StreamId, StreamInfoGroupsReply, StreamPendingCountReply,
        StreamReadOptions, StreamReadReply,
    },
};

use super::{
    DISTRUST_FOR, Shared, WorkerError,
    reply::{DeadLetter, connected, dead_letter, deliver, refuse},
    shown,
    task::{Outcome, run_task},
};
use crate::broker::{BrokerConfig, GROUP, MAX_RUN_ID, mac::Purpose, runs, valid_run_id, wire::field};

/// Whether run `run` was cancelled ([`runs::cancelled`]); a broker error counts as not (the
/// task's own commands then fail and are retried).
fn is_cancelled(broker: &BrokerConfig, con: &mut Connection, run: &str) -> bool {
    valid_run_id(run) && runs::cancelled(broker, con, run).is_ok_and(|c| c.is_some())
}

/// A task taken from a run's stream.
struct Taken {
    run: String,
    key: String,
    entry: StreamId,
    /// How many times the broker has handed it out, this time included.
    deliveries: u64,
}

/// A task thread: takes a task, runs it and settles its outcome with the broker, until the
/// worker stops (or has been idle for `idle_exit` with no task under way).
pub(super) fn serve(shared: &Shared, index: usize) {
    let broker = &shared.cfg.broker;
    let consumer = format!("{}-{index}", shared.cfg.name);
    let mut con: Option<Connection> = None;
    let mut players: HashMap<String, UnitPlayer> = HashMap::new();
    // Entries a read handed this consumer beyond the first (one per stream that had any).
    let mut backlog: VecDeque<Taken> = VecDeque::new();
    while !shared.stop.load(Ordering::Relaxed) {
        if let Some(limit) = shared.cfg.idle_exit
            && shared.last_task.lock().expect("clock").elapsed() >= limit
            && shared.held.lock().expect("held").is_empty()
        {
            break;
        }
        let Some(c) = connected(broker, &mut con) else { continue };
        let taken = match take(shared, c, &consumer, &mut backlog) {
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
        shared.held.lock().expect("held").insert(taken.entry.id.clone(), (taken.key.clone(), consumer.clone()));
        let task: String = taken.entry.get(field::TASK).unwrap_or_default();
        let outcome = match attempt(shared, c, &taken, &task, &mut players) {
            Ok(o) => o,
            Err(what) => {
                players.clear();
                con = None;
                Outcome::Dead(format!("the worker failed on it: {what}"))
            }
        };
        let outcome = unless_cancelled(shared, &mut con, &taken.run, &task, &mut players, outcome);
        settle(shared, &mut con, &consumer, &taken, &task, outcome);
        *shared.last_task.lock().expect("clock") = Instant::now();
        shared.held.lock().expect("held").remove(&taken.entry.id);
    }
}

/// The next task: the backlog's first, else the first of a new read, whose others become the
/// backlog. A read's tasks are all held from now on (renewed by the heartbeat), or a long
/// backlog would be taken over (and run twice).
fn take(
    shared: &Shared,
    con: &mut Connection,
    consumer: &str,
    backlog: &mut VecDeque<Taken>,
) -> Result<Option<Taken>, RedisError> {
    if let Some(t) = backlog.pop_front() {
        return Ok(Some(t));
    }
    let mut all = next_task(shared, con, consumer)?;
    let mut held = shared.held.lock().expect("held");
    for t in &all {
        held.insert(t.entry.id.clone(), (t.key.clone(), consumer.to_string()));
    }
    let first = all.pop_front();
    *backlog = all;
    Ok(first)
}

/// A taken task's outcome: dropped when its run was cancelled, a dead letter once delivered
/// too often, else what running it gives. `Err`: the panic it caused, as text (nothing in a
/// message may take the worker down: a panic is the task's failure).
fn attempt(
    shared: &Shared,
    con: &mut Connection,
    taken: &Taken,
    task: &str,
    players: &mut HashMap<String, UnitPlayer>,
) -> Result<Outcome, String> {
    let Taken { run, entry, deliveries, .. } = taken;
    if is_cancelled(&shared.cfg.broker, con, run) {
        log::info!("run {run} was cancelled: task {} dropped", evochess::one_line(task));
        return Ok(Outcome::Gone);
    }
    if *deliveries > shared.cfg.max_deliveries {
        return Ok(Outcome::Dead(format!(
            "delivered {deliveries} times without an answer (more than --max-deliveries {}): the workers that \
             took it died or hung on it",
            shared.cfg.max_deliveries
        )));
    }
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_task(shared, con, run, entry, players))).map_err(
        |panic| {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("a panic");
            what.to_string()
        },
    )
}

/// `outcome`, unless run `run` was cancelled while its task ran (its games were stopped, or end
/// now): then the answer is not wanted, and the run's next task, if it is opened again, starts
/// with a fresh flag.
fn unless_cancelled(
    shared: &Shared,
    con: &mut Option<Connection>,
    run: &str,
    task: &str,
    players: &mut HashMap<String, UnitPlayer>,
    outcome: Outcome,
) -> Outcome {
    let stopped = shared.stops.lock().expect("stops").get(run).is_some_and(|f| f.load(Ordering::Relaxed));
    if stopped {
        players.remove(run);
        shared.stops.lock().expect("stops").remove(run);
    }
    match outcome {
        Outcome::Answer(_) if stopped || con.as_mut().is_some_and(|c| is_cancelled(&shared.cfg.broker, c, run)) => {
            log::info!("run {run} was cancelled: the answer to task {} is dropped", evochess::one_line(task));
            Outcome::Gone
        }
        other => other,
    }
}

/// Tells the broker what came of a task: its answer (then its acknowledgement), its
/// acknowledgement alone, a refusal of its run, its dead letter, or nothing yet (a retry).
fn settle(shared: &Shared, con: &mut Option<Connection>, consumer: &str, taken: &Taken, task: &str, outcome: Outcome) {
    let broker = &shared.cfg.broker;
    let Taken { run, key, entry, .. } = taken;
    let results_key = broker.run_key(run, "results");
    let sign = |purpose, text: &str| broker.secret.sign(purpose, run, task, text.as_bytes());
    // A reason may quote the spec or task (a kind, an option, a serde error's text): on one
    // line in this worker's log, its dead letter and its coordinator's error alike.
    match outcome.one_line() {
        Outcome::Answer(body) => {
            let mac = sign(Purpose::Answer, &body);
            let fields = [(field::TASK, task), (field::WORKER, consumer), (field::BODY, &body), (field::MAC, &mac)];
            // The answer goes in before the acknowledgement, retried until the broker
            // takes it: a lost connection delays the answer, it never loses it.
            deliver(shared, con, &results_key, key, &entry.id, &fields);
            shared.done.fetch_add(1, Ordering::Relaxed);
        }
        Outcome::Gone => {
            if let Some(c) = con.as_mut() {
                let _: Result<i64, _> = c.xack(key, GROUP, &[&entry.id]);
            }
        }
        Outcome::Refuse(reason) => {
            refuse(con, &results_key, &[(field::TASK, task), (field::WORKER, consumer)], &reason, &sign);
            log::error!("refusing run {}: {reason}", shown(run));
            shared.failure.lock().expect("failure").get_or_insert(WorkerError::Refused { run: run.clone(), reason });
            shared.stop.store(true, Ordering::Relaxed);
        }
        Outcome::Distrust(reason) => {
            // Not acknowledged: another worker takes the task over if the fault is ours.
            log::error!("run {}: not served for {} s: {reason}", shown(run), DISTRUST_FOR.as_secs());
            shared.distrusted.lock().expect("distrusted").insert(run.clone(), Instant::now() + DISTRUST_FOR);
            refuse(con, &results_key, &[(field::TASK, task), (field::WORKER, consumer)], &reason, &sign);
        }
        Outcome::Dead(reason) => {
            log::warn!("task {task:?} of run {}: to the dead-letter stream: {reason}", shown(run));
            let letter = DeadLetter { run, tasks_key: key, entry: &entry.id, task, reason: &reason };
            dead_letter(shared, con, consumer, &letter);
        }
        Outcome::Retry(reason) => {
            log::warn!("{reason}; the task of run {} waits for a later try", shown(run));
            *con = None;
            thread::sleep(Duration::from_secs(1));
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
        let Some(run) = String::from_utf8(run).ok().filter(|r| r.len() <= 4 * MAX_RUN_ID) else { continue };
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
fn next_task(shared: &Shared, con: &mut Connection, consumer: &str) -> Result<VecDeque<Taken>, RedisError> {
    let broker = &shared.cfg.broker;
    let mut out = VecDeque::new();
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
