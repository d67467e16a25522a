//! `tuner runs`: the broker's runs as an operator sees them ([`list`]), and cancelling one
//! ([`cancel`]) whose coordinator was killed, or that should stop.
//!
//! A cancelled run gets the flag `NS:run:ID:cancelled` (when, and by which host and process)
//! and leaves `NS:runs`, so no worker reads it again; its task and results streams and its spec
//! are deleted, so its queued tasks are gone. A worker playing one of its tasks sees the flag
//! at its next heartbeat, aborts the game and drops the task; its coordinator, if alive, stops
//! with [`BrokerError::Cancelled`]. The flag is not signed: whoever can write to Redis can
//! already delete a run's keys, which stops it the same way. The flag and the run's `info`
//! lapse after [`CANCELLED_FOR`]; a coordinator that opens the run again (a rerun) clears
//! the flag.

use std::{
    collections::BTreeSet,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use redis::{Commands, Connection, RedisError, streams::StreamInfoConsumersReply};

use super::{BrokerConfig, BrokerError, GROUP, valid_run_id, wire::SPEC_MAC};

/// The hash a coordinator keeps on its run: `command`, `created` (Unix seconds), `done`
/// (tasks settled).
pub const INFO: &str = "info";
/// The flag of a cancelled run: `SECS BY`, when (Unix seconds) and by whom (host and pid).
pub const CANCELLED: &str = "cancelled";
/// How long a cancelled run's flag and `info` stay listed.
pub const CANCELLED_FOR: Duration = Duration::from_secs(7 * 24 * 3600);

/// Seconds since the Unix epoch, now.
pub fn unix_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// This process, as a lock or a flag names it: `HOST pid N`.
pub fn this_process() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    format!("{} pid {}", host.trim(), std::process::id())
}

/// The subcommand this process runs (`spsa`, `match`), for a run's `info`: letters and `-`
/// only (never the rest of the command line, which may hold a broker password).
pub fn this_command() -> String {
    std::env::args()
        .nth(1)
        .filter(|a| (1..=32).contains(&a.len()) && a.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
        .unwrap_or_else(|| "?".into())
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunState {
    /// Its coordinator holds its lock (it names the coordinator: host and pid).
    Running { coordinator: String },
    /// Listed, but no coordinator holds it: killed, or between two generations.
    Orphaned,
    /// Cancelled this long ago, by this host and process.
    Cancelled { ago: Option<Duration>, by: String },
}

/// One run on the broker, for `tuner runs list`.
#[derive(Clone, Debug)]
pub struct RunSummary {
    pub id: String,
    /// The coordinator's subcommand, or the run's kind (its id's prefix) for a run without `info`.
    pub command: String,
    pub created_ago: Option<Duration>,
    /// Tasks published that no worker has taken.
    pub queued: u64,
    /// Tasks a worker holds (taken, not yet answered).
    pub claimed: u64,
    /// Tasks settled (a valid answer counted).
    pub done: u64,
    /// The workers that read its tasks (their `--name`s).
    pub workers: BTreeSet<String>,
    /// Since a worker last took, renewed or answered one of its tasks.
    pub active_ago: Option<Duration>,
    pub state: RunState,
}

impl RunSummary {
    /// Whether workers may still take its tasks.
    pub fn is_active(&self) -> bool {
        !matches!(self.state, RunState::Cancelled { .. })
    }
}

/// What [`cancel`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cancelled {
    /// Queued tasks removed.
    pub queued: u64,
    /// Tasks workers held, which they drop.
    pub claimed: u64,
    /// The coordinator that held the run, if one did: it stops.
    pub coordinator: Option<String>,
}

/// `secs` as a short age: `42s`, `7m05s`, `3h12m`, `2d04h`.
pub fn age(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        3600..86400 => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d{:02}h", s / 86400, s % 86400 / 3600),
    }
}

/// Seconds since `then` (Unix seconds), if `then` is a number not in the future by more than a
/// clock's drift.
fn since(then: Option<&str>, now: u64) -> Option<Duration> {
    let then: u64 = then?.trim().parse().ok()?;
    Some(Duration::from_secs(now.saturating_sub(then)))
}

/// The cancellation flag's value `SECS BY` as (age, by).
fn parse_flag(value: &str, now: u64) -> (Option<Duration>, String) {
    let (secs, by) = value.split_once(' ').unwrap_or((value, "?"));
    (since(Some(secs), now), evochess::one_line(by).into_owned())
}

/// The runs of the broker: those workers serve (`NS:runs`) and those cancelled in the last
/// [`CANCELLED_FOR`], by id.
///
/// # Errors
/// The broker cannot be reached or answers out of turn.
pub fn list(cfg: &BrokerConfig) -> Result<Vec<RunSummary>, BrokerError> {
    let mut con = cfg.connect()?;
    let e = |err| cfg.error(err);
    let mut ids: BTreeSet<String> = BTreeSet::new();
    let listed: Vec<Vec<u8>> = con.smembers(cfg.runs_key()).map_err(e)?;
    ids.extend(listed.into_iter().filter_map(|r| String::from_utf8(r).ok()));
    let pattern = cfg.run_key("*", CANCELLED);
    let flagged: Vec<String> =
        con.scan_match::<_, String>(&pattern).map_err(e)?.collect::<Result<_, _>>().map_err(e)?;
    let (head, tail) = pattern.split_once('*').expect("the pattern has its star");
    ids.extend(flagged.iter().filter_map(|k| k.strip_prefix(head)?.strip_suffix(tail)).map(str::to_string));
    let now = unix_now();
    let mut out = Vec::new();
    // Forged members (bad ids) name no run anyone serves: passed over, as workers do.
    for id in ids.into_iter().filter(|id| valid_run_id(id)) {
        out.push(summary(cfg, &mut con, &id, now).map_err(e)?);
    }
    Ok(out)
}

fn summary(cfg: &BrokerConfig, con: &mut Connection, id: &str, now: u64) -> Result<RunSummary, RedisError> {
    let info_key = cfg.run_key(id, INFO);
    let (command, created, done): (Option<String>, Option<String>, Option<String>) =
        redis::cmd("HMGET").arg(&info_key).arg("command").arg("created").arg("done").query(con)?;
    let kind = id.split_once('-').map_or(id, |(k, _)| k);
    let command = command.map_or_else(|| kind.to_string(), |c| evochess::one_line(&c).into_owned());
    let tasks_key = cfg.run_key(id, "tasks");
    let (mut queued, mut claimed) = (0, 0);
    let mut workers = BTreeSet::new();
    let mut idle_ms: Option<u64> = None;
    let is_stream = |con: &mut Connection, key: &str| -> Result<bool, RedisError> {
        Ok(redis::cmd("TYPE").arg(key).query::<String>(con)? == "stream")
    };
    if is_stream(con, &tasks_key)? {
        let len: u64 = con.xlen(&tasks_key)?;
        let consumers: Result<StreamInfoConsumersReply, RedisError> = con.xinfo_consumers(&tasks_key, GROUP);
        for c in consumers.map(|r| r.consumers).unwrap_or_default() {
            claimed += c.pending as u64;
            idle_ms = Some(idle_ms.map_or(c.idle as u64, |i| i.min(c.idle as u64)));
            // A worker's consumers are `NAME-THREAD`.
            let name = c.name.rsplit_once('-').map_or(c.name.as_str(), |(n, _)| n);
            workers.insert(evochess::one_line(name).into_owned());
        }
        queued = len.saturating_sub(claimed);
    }
    // The last answer: the results stream's last entry id is its time in milliseconds.
    let results_key = cfg.run_key(id, "results");
    if is_stream(con, &results_key)? {
        let info: redis::Value = redis::cmd("XINFO").arg("STREAM").arg(&results_key).query(con)?;
        if let Some(ms) = last_generated_ms(&info) {
            let ago = (now * 1000).saturating_sub(ms);
            idle_ms = Some(idle_ms.map_or(ago, |i| i.min(ago)));
        }
    }
    let flag: Option<String> = con.get(cfg.run_key(id, CANCELLED))?;
    let state = match flag {
        Some(v) => {
            let (ago, by) = parse_flag(&v, now);
            RunState::Cancelled { ago, by }
        }
        None => match con.get::<_, Option<String>>(cfg.run_key(id, "lock"))? {
            Some(owner) => RunState::Running { coordinator: evochess::one_line(&owner).into_owned() },
            None => RunState::Orphaned,
        },
    };
    Ok(RunSummary {
        id: id.to_string(),
        command,
        created_ago: since(created.as_deref(), now),
        queued,
        claimed,
        done: done.and_then(|d| d.parse().ok()).unwrap_or(0),
        workers,
        active_ago: idle_ms.map(Duration::from_millis),
        state,
    })
}

/// The milliseconds of `last-generated-id` in an `XINFO STREAM` reply (`MS-SEQ`).
fn last_generated_ms(info: &redis::Value) -> Option<u64> {
    let redis::Value::Array(items) = info else {
        return match info {
            redis::Value::Map(pairs) => pairs.iter().find_map(|(k, v)| {
                (redis::from_redis_value_ref::<String>(k).ok()? == "last-generated-id").then_some(v)?;
                id_ms(v)
            }),
            _ => None,
        };
    };
    items.chunks(2).find_map(|pair| match pair {
        [k, v] if redis::from_redis_value_ref::<String>(k).ok()? == "last-generated-id" => id_ms(v),
        _ => None,
    })
}

fn id_ms(v: &redis::Value) -> Option<u64> {
    let id: String = redis::from_redis_value_ref(v).ok()?;
    let ms: u64 = id.split_once('-')?.0.parse().ok()?;
    // A stream that never had an entry says 0-0.
    (ms > 0).then_some(ms)
}

/// Cancels run `id`: flags it, takes it off the runs workers serve, and deletes its tasks,
/// answers and spec (see the module's description).
///
/// # Errors
/// [`BrokerError::Protocol`] for an id that is not a run's, or a run the broker does not hold;
/// the broker's own errors.
pub fn cancel(cfg: &BrokerConfig, id: &str) -> Result<Cancelled, BrokerError> {
    if !valid_run_id(id) {
        return Err(BrokerError::Protocol(format!(
            "`{}` is not a run id (letters, digits, `-` and `_`; `tuner runs list` shows them)",
            evochess::one_line(id)
        )));
    }
    let mut con = cfg.connect()?;
    let e = |err| cfg.error(err);
    let now = unix_now();
    let listed: bool = con.sismember(cfg.runs_key(), id).map_err(e)?;
    let tasks_key = cfg.run_key(id, "tasks");
    let has_tasks: bool = con.exists(&tasks_key).map_err(e)?;
    let before = summary(cfg, &mut con, id, now).map_err(e)?;
    if let RunState::Cancelled { ago, by } = &before.state {
        let ago = ago.map_or_else(|| "?".into(), age);
        return Err(BrokerError::Protocol(format!("run {id} was already cancelled, {ago} ago by {by}")));
    }
    if !listed && !has_tasks {
        return Err(BrokerError::Protocol(format!(
            "no run {id} in namespace {} (`tuner runs list` shows them)",
            cfg.namespace
        )));
    }
    let flag = format!("{now} {}", this_process());
    let keep = CANCELLED_FOR.as_secs();
    let spec = [tasks_key, cfg.run_key(id, "results"), cfg.run_key(id, "spec"), cfg.run_key(id, SPEC_MAC)];
    redis::pipe()
        .atomic()
        .set_ex(cfg.run_key(id, CANCELLED), &flag, keep)
        .ignore()
        .srem(cfg.runs_key(), id)
        .ignore()
        .del(&spec)
        .ignore()
        .expire(cfg.run_key(id, INFO), keep as i64)
        .ignore()
        .query::<()>(&mut con)
        .map_err(e)?;
    let coordinator = match before.state {
        RunState::Running { coordinator } => Some(coordinator),
        _ => None,
    };
    Ok(Cancelled { queued: before.queued, claimed: before.claimed, coordinator })
}

/// The cancellation of run `id`, if it was cancelled: `Some((age, by))`.
///
/// # Errors
/// The broker's.
pub fn cancelled(
    cfg: &BrokerConfig,
    con: &mut Connection,
    id: &str,
) -> Result<Option<(Option<Duration>, String)>, RedisError> {
    let flag: Option<String> = con.get(cfg.run_key(id, CANCELLED))?;
    Ok(flag.map(|v| parse_flag(&v, unix_now())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_are_short_and_exact() {
        let a = |s| age(Duration::from_secs(s));
        assert_eq!(
            [a(0), a(59), a(60), a(425), a(3600), a(11_520), a(86_400 * 2 + 4 * 3600)],
            ["0s", "59s", "1m00s", "7m05s", "1h00m", "3h12m", "2d04h"]
        );
    }

    #[test]
    fn a_flag_says_when_and_who_on_one_line() {
        assert_eq!(parse_flag("100 h pid 7", 160), (Some(Duration::from_secs(60)), "h pid 7".to_string()));
        // From the future (another host's clock): no negative age.
        assert_eq!(parse_flag("200 h pid 7", 160).0, Some(Duration::ZERO));
        let (ago, by) = parse_flag("x evil\nline", 160);
        assert_eq!((ago, by.lines().count()), (None, 1));
    }

    #[test]
    fn the_last_answer_time_comes_from_the_stream_id() {
        let s = |t: &str| redis::Value::BulkString(t.as_bytes().to_vec());
        let reply = redis::Value::Array(vec![s("length"), redis::Value::Int(0), s("last-generated-id"), s("1700-3")]);
        assert_eq!(last_generated_ms(&reply), Some(1700));
        let empty = redis::Value::Array(vec![s("last-generated-id"), s("0-0")]);
        assert_eq!(last_generated_ms(&empty), None);
        let map = redis::Value::Map(vec![(s("last-generated-id"), s("42-0"))]);
        assert_eq!(last_generated_ms(&map), Some(42));
    }
}
