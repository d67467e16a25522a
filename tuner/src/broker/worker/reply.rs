//! What a worker writes back: answers (then the acknowledgement), refusals and dead letters,
//! each on a connection that is remade until the broker takes it.

use std::{thread, time::Duration};

use redis::{Commands, Connection, RedisError};

use super::Shared;
use crate::broker::{BrokerConfig, GROUP, mac::Purpose, wire::field};

/// Tells a run's coordinator that this worker will not serve it (signed: a coordinator counts
/// only refusals that verify); best effort, as the refusal changes nothing on the broker.
pub(super) fn refuse(
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
pub(super) struct DeadLetter<'a> {
    pub(super) run: &'a str,
    pub(super) tasks_key: &'a str,
    pub(super) entry: &'a str,
    pub(super) task: &'a str,
    pub(super) reason: &'a str,
}

/// Longest dead-letter stream kept (about; trimmed as Redis finds efficient).
const DEAD_LETTERS_KEPT: usize = 10_000;

/// Records a task in the dead-letter stream, tells its coordinator (a `dead` entry in the run's
/// results stream, if the run has one), and removes the task; retried until the broker takes it.
pub(super) fn dead_letter(shared: &Shared, con: &mut Option<Connection>, consumer: &str, d: &DeadLetter) {
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
pub(super) fn connected<'a>(broker: &BrokerConfig, con: &'a mut Option<Connection>) -> Option<&'a mut Connection> {
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
pub(super) fn deliver(
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
