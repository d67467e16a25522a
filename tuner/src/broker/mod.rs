//! Distributed tuning over Redis Streams: a coordinator (any command given `--broker URL`)
//! publishes tasks, `tuner worker` processes on any number of machines take them, run them with
//! the local runner or fitness, and write results back.
//!
//! # Keys (all under the namespace, `evochess` by default)
//!
//! | key | type | holds |
//! | --- | --- | --- |
//! | `NS:runs` | set | the ids of the runs that have work out |
//! | `NS:run:ID:spec` | string | the run's [`wire::RunSpec`] (JSON): engines by program name, settings |
//! | `NS:run:ID:spec_mac` | string | the spec's MAC (written with it by one `MSET`) |
//! | `NS:run:ID:tasks` | stream, group `workers` | one entry per task: `task` (its id), `body` (JSON), `mac` |
//! | `NS:run:ID:results` | stream | one entry per answer: `task`, `worker`, `body` or `refused`, `mac` |
//! | `NS:run:ID:lock` | string with expiry | the coordinator that owns the run |
//! | `NS:run:ID:info` | hash | `command` (the coordinator's subcommand), `created` (Unix seconds), `done` (tasks settled) |
//! | `NS:run:ID:cancelled` | string with expiry | set by `tuner runs cancel` ([`runs`]): when and by whom |
//! | `NS:dead` | stream (capped) | tasks no worker may run: `run`, `task`, `entry`, `worker`, `reason` |
//!
//! A run's id is a hash of what defines it (a match's fingerprint, a generation's genomes), so a
//! coordinator restarted with `--resume` finds its own tasks and results again.
//!
//! # Delivery
//!
//! Workers read tasks through the consumer group (at-least-once): a task stays in the group's
//! pending-entries list until the worker acknowledges it, which it does only after its result is
//! in the results stream. While a task runs, the worker renews its claim every quarter of the
//! visibility timeout; a task whose worker died (no renewal for a whole timeout) is taken over by
//! another worker with `XAUTOCLAIM`. A task can therefore be answered twice: the coordinator
//! keeps the first valid answer for each task id and drops the others, so no game counts twice.
//! Nothing names a command line: a task names engines by program name, and each worker runs only
//! the programs of its own engines file, after checking that its build gives the coordinator's
//! bench signature.
//!
//! # Untrusted messages
//!
//! Whoever can write to the broker can forge runs, specs and tasks, so a worker treats every
//! entry as untrusted input: run ids are checked ([`valid_run_id`]) and never become a path,
//! sizes are capped, an engine's options must pass the worker's allow-list, and nothing in a
//! message may panic a worker. A task the worker cannot run for what it says (a malformed spec or
//! task, a program or option the worker does not allow) or one delivered more than
//! `--max-deliveries` times (its workers died on it) goes to the dead-letter stream `NS:dead`,
//! with a `dead` entry in its run's results stream, which makes the coordinator stop with an
//! error naming the task and the reason instead of waiting for it forever. Only a build that
//! differs from the coordinator's still makes a worker refuse the run and exit: that is the
//! worker's own configuration to fix.
//!
//! # Authenticity
//!
//! Checks of shape alone would let whoever can write to Redis decide a promotion or an SPSA
//! step, so every spec, task, answer, refusal and dead-letter note carries an HMAC-SHA256
//! ([`mac`]) keyed from a secret file that the coordinator and its workers share and that never
//! goes to Redis. A worker serves no run whose spec does not verify (it says so in the run's
//! results and leaves the run's tasks to others) and sends a task that does not verify to the
//! dead-letter stream; a coordinator refuses an answer that does not verify and publishes its
//! task again. A games answer that verifies is still replayed move by move from the task's
//! opening ([`verify`]): a worker's key proves who answered, not that it played.

pub mod allow;
pub mod coordinator;
pub mod games;
pub mod kinds;
pub mod mac;
pub mod runs;
pub mod signature;
pub mod verify;
pub mod wire;
pub mod worker;

use std::{fmt, path::Path, time::Duration};

use redis::{Commands, Connection, RedisError};
use thiserror::Error;

/// The consumer group every worker reads tasks through.
pub const GROUP: &str = "workers";

/// Why the broker could not be used.
#[derive(Debug, Error)]
pub enum BrokerError {
    #[error("broker URL `{url}`: {reason}")]
    Url { url: String, reason: String },
    #[error("broker {url}: {source}")]
    Redis { url: String, source: RedisError },
    #[error("broker: {0}")]
    Protocol(String),
    #[error(
        "broker: another coordinator ({owner}) holds run {run}; stop it first, or wait {ttl} s for its lock to lapse"
    )]
    Busy { run: String, owner: String, ttl: i64 },
    #[error("broker: run {run}: worker {worker} moved task {task} to the dead-letter stream `{key}`: {reason}")]
    DeadLetter { run: String, task: String, worker: String, key: String, reason: String },
    #[error(
        "broker {url}: run {run}: unreachable for {secs} s ({tries} reconnection tries; last: {last}); the run's \
         state is kept: rerun the command with its resume flag once the broker is back"
    )]
    Unreachable { url: String, run: String, secs: u64, tries: u32, last: String },
    #[error(
        "broker: run {run}: every worker that came refused it ({workers}) and none answered for {secs} s; first \
         refusal: {first}. Fix the workers' engines (or builds), then rerun with the resume flag"
    )]
    Refused { run: String, secs: u64, workers: String, first: String },
    #[error(
        "broker: run {run} was cancelled {ago} ago by {by} (`tuner runs cancel`): its tasks are gone from the broker \
         and its workers dropped theirs; what this command recorded is kept, so rerunning it with its resume flag \
         plays the rest"
    )]
    Cancelled { run: String, ago: String, by: String },
}

/// Where the broker is and how tasks are paced.
#[derive(Clone, PartialEq, Eq)]
pub struct BrokerConfig {
    /// `redis://[user:pass@]HOST:PORT[/db]` or `rediss://...` (TLS; needs the `tls` build).
    pub url: String,
    /// Prefix of every key, so several projects can share one Redis.
    pub namespace: String,
    /// A task not renewed for this long is taken over by another worker.
    pub visibility: Duration,
    /// Tasks a coordinator keeps published but unanswered (a match of a billion games is
    /// published a window at a time).
    pub window: usize,
    /// How long a coordinator waits once workers refused its run and no answer came (nor is a
    /// task held by another worker) before it stops: longer than the longest task.
    pub patience: Duration,
    /// The key of every MAC (see [`mac`]).
    pub secret: mac::Secret,
}

// The URL may hold a password: never print it.
impl fmt::Debug for BrokerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BrokerConfig")
            .field("url", &redact(&self.url))
            .field("namespace", &self.namespace)
            .field("visibility", &self.visibility)
            .field("window", &self.window)
            .field("patience", &self.patience)
            .field("secret", &self.secret)
            .finish()
    }
}

impl BrokerConfig {
    pub const DEFAULT_NAMESPACE: &str = "evochess";
    pub const DEFAULT_VISIBILITY: Duration = Duration::from_secs(60);
    pub const DEFAULT_WINDOW: usize = 256;
    pub const DEFAULT_PATIENCE: Duration = Duration::from_secs(300);

    /// A broker at `url` with the default namespace, visibility timeout and window, signing
    /// with `secret`.
    pub fn new(url: &str, secret: mac::Secret) -> Result<BrokerConfig, BrokerError> {
        let cfg = BrokerConfig {
            url: url.to_string(),
            namespace: Self::DEFAULT_NAMESPACE.into(),
            visibility: Self::DEFAULT_VISIBILITY,
            window: Self::DEFAULT_WINDOW,
            patience: Self::DEFAULT_PATIENCE,
            secret,
        };
        cfg.client()?;
        Ok(cfg)
    }

    fn client(&self) -> Result<redis::Client, BrokerError> {
        let bad = |reason: String| BrokerError::Url { url: redact(&self.url), reason };
        if !(self.url.starts_with("redis://") || self.url.starts_with("rediss://")) {
            return Err(bad("expected redis://[user:pass@]HOST:PORT[/db] or rediss://...".into()));
        }
        if self.url.starts_with("rediss://") && !cfg!(feature = "tls") {
            return Err(bad("TLS (rediss://) needs a tuner built with `--features tls`".into()));
        }
        redis::Client::open(self.url.as_str()).map_err(|e| bad(e.to_string()))
    }

    /// A new connection (each thread holds its own: the client is blocking).
    pub fn connect(&self) -> Result<Connection, BrokerError> {
        let client = self.client()?;
        let mut con = client.get_connection_with_timeout(Duration::from_secs(10)).map_err(|e| self.error(e))?;
        // A dead broker must not hang a worker or a coordinator forever.
        let io = Some(Duration::from_secs(30));
        con.set_read_timeout(io).and_then(|()| con.set_write_timeout(io)).map_err(|e| self.error(e))?;
        let _: String = redis::cmd("PING").query(&mut con).map_err(|e| self.error(e))?;
        Ok(con)
    }

    /// A Redis error, with the URL (password hidden) for context.
    pub fn error(&self, source: RedisError) -> BrokerError {
        BrokerError::Redis { url: redact(&self.url), source }
    }

    pub fn runs_key(&self) -> String {
        format!("{}:runs", self.namespace)
    }

    pub fn run_key(&self, run: &str, what: &str) -> String {
        format!("{}:run:{run}:{what}", self.namespace)
    }

    /// The dead-letter stream: tasks that no worker may run, with the reason.
    pub fn dead_key(&self) -> String {
        format!("{}:dead", self.namespace)
    }
}

/// `url` with any password replaced by `***`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    match rest.split_once('@') {
        Some((auth, host)) => {
            let user = auth.split_once(':').map_or(auth, |(u, _)| u);
            let auth = if auth.contains(':') { format!("{user}:***") } else { "***".to_string() };
            format!("{scheme}://{auth}@{host}")
        }
        None => url.to_string(),
    }
}

/// The lock that makes a coordinator the only one of its run: taken with `SET NX`, renewed
/// while it works, released at the end. Its value names the owner (host and pid).
pub struct RunLock {
    key: String,
    owner: String,
    ttl_s: u64,
}

impl RunLock {
    /// Takes the lock of `run`, or reports who holds it.
    pub fn take(cfg: &BrokerConfig, con: &mut Connection, run: &str) -> Result<RunLock, BrokerError> {
        let key = cfg.run_key(run, "lock");
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
        let owner = format!("{} pid {}", host.trim(), std::process::id());
        let ttl_s = (cfg.visibility.as_secs() * 2).max(10);
        let set: Option<String> = redis::cmd("SET")
            .arg(&key)
            .arg(&owner)
            .arg("NX")
            .arg("EX")
            .arg(ttl_s)
            .query(con)
            .map_err(|e| cfg.error(e))?;
        if set.is_none() {
            let holder: Option<String> = con.get(&key).map_err(|e| cfg.error(e))?;
            let holder = holder.unwrap_or_default();
            // A coordinator of this host that is gone (killed, to be resumed) holds nothing.
            if !holder_is_gone(&holder, host.trim()) {
                let ttl: i64 = con.ttl(&key).map_err(|e| cfg.error(e))?;
                return Err(BrokerError::Busy { run: run.to_string(), owner: holder, ttl });
            }
            log::info!("broker: run {run}: taking the lock of {holder}, which has ended");
            let _: () = con.set_ex(&key, &owner, ttl_s).map_err(|e| cfg.error(e))?;
        }
        Ok(RunLock { key, owner, ttl_s })
    }

    /// Extends the lock; called from the coordinator's loop, far more often than it lapses.
    pub fn renew(&self, cfg: &BrokerConfig, con: &mut Connection) -> Result<(), BrokerError> {
        let _: () = con.set_ex(&self.key, &self.owner, self.ttl_s).map_err(|e| cfg.error(e))?;
        Ok(())
    }

    pub fn release(self, cfg: &BrokerConfig, con: &mut Connection) -> Result<(), BrokerError> {
        let _: () = con.del(&self.key).map_err(|e| cfg.error(e))?;
        Ok(())
    }
}

/// Whether a lock's owner (`HOST pid N`) is a process of `host` that no longer runs.
fn holder_is_gone(holder: &str, host: &str) -> bool {
    let Some((h, pid)) = holder.rsplit_once(" pid ") else { return false };
    h == host && pid.parse::<u32>().is_ok_and(|p| !Path::new(&format!("/proc/{p}")).exists())
}

/// Creates a stream and a consumer group on it (from the stream's start), or keeps them when they
/// exist (a resumed coordinator).
pub fn ensure_group(cfg: &BrokerConfig, con: &mut Connection, key: &str, group: &str) -> Result<(), BrokerError> {
    let r: Result<(), RedisError> =
        redis::cmd("XGROUP").arg("CREATE").arg(key).arg(group).arg("0").arg("MKSTREAM").query(con);
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.code() == Some("BUSYGROUP") => Ok(()),
        Err(e) => Err(cfg.error(e)),
    }
}

/// Stable hex id of a run from the text that defines it (FNV-1a, 64 bits).
pub fn run_id(kind: &str, definition: &str) -> String {
    format!("{kind}-{:016x}", crate::hash::fnv1a(definition))
}

/// Longest run id a worker serves ([`run_id`] makes about 25 characters).
pub const MAX_RUN_ID: usize = 64;

/// Whether `id` can be a run id: 1 to [`MAX_RUN_ID`] ASCII letters, digits, `-` and `_` (no
/// `/`, `.`, spaces or control characters, so it can neither name a path nor garble a log).
pub fn valid_run_id(id: &str) -> bool {
    (1..=MAX_RUN_ID).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> mac::Secret {
        mac::Secret::from_text(&"s".repeat(mac::MIN_SECRET_BYTES)).unwrap()
    }

    #[test]
    fn passwords_never_show() {
        assert_eq!(redact("redis://u:secret@h:6379/2"), "redis://u:***@h:6379/2");
        assert_eq!(redact("redis://secret@h:6379"), "redis://***@h:6379");
        assert_eq!(redact("redis://h:6379"), "redis://h:6379");
        let cfg = BrokerConfig::new("redis://u:secret@127.0.0.1:1/0", key()).unwrap();
        let shown = format!("{cfg:?}");
        assert!(shown.contains("u:***@") && !shown.contains("u:secret") && !shown.contains("sss"), "{shown}");
    }

    #[test]
    fn bad_urls_are_named() {
        let e = BrokerConfig::new("http://127.0.0.1:6379", key()).unwrap_err().to_string();
        assert!(e.contains("http://127.0.0.1:6379") && e.contains("redis://"), "{e}");
        let e = BrokerConfig::new("redis://pw@no host:x", key()).unwrap_err().to_string();
        assert!(e.contains("broker URL") && !e.contains("pw@"), "{e}");
    }

    #[test]
    fn only_a_lock_of_an_ended_process_of_this_host_is_taken_over() {
        let me = format!("h pid {}", std::process::id());
        assert!(!holder_is_gone(&me, "h"));
        assert!(holder_is_gone("h pid 4000000000", "h"));
        assert!(!holder_is_gone("other pid 4000000000", "h"));
        assert!(!holder_is_gone("garbage", "h"));
    }

    #[test]
    fn run_ids_follow_the_definition() {
        assert_eq!(run_id("match", "a"), run_id("match", "a"));
        assert_ne!(run_id("match", "a"), run_id("match", "b"));
        assert!(run_id("fit", "a").starts_with("fit-"));
    }

    #[test]
    fn run_ids_are_checked_before_use() {
        for kind in ["match", "evolve", "search"] {
            assert!(valid_run_id(&run_id(kind, "x")));
        }
        for bad in ["", "/tmp/x", "../..", "a/b", "a.b", "a b", "a\nb", "é", &"a".repeat(MAX_RUN_ID + 1)] {
            assert!(!valid_run_id(bad), "{bad:?}");
        }
    }
}
