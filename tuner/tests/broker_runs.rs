//! Issue 91, item 9: `tuner runs list` and `tuner runs cancel` against a real `redis-server`. A
//! coordinator's match is played by a worker; the list shows it; a cancel empties it, stops the
//! coordinator with a message saying so, and leaves the worker with nothing to play.

mod common;
#[path = "common/redis_server.rs"]
mod redis_server;

use std::{
    path::Path,
    process::{Child, Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use common::{TUNER, engine_binary, repo, scratch, text};
use redis_server::Redis;

/// A process killed (SIGKILL) when dropped, so a failing test leaves none behind.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(args: &[&str], log: &Path) -> Killed {
    let child = Command::new(TUNER)
        .args(args)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .expect("tuner starts");
    Killed(child)
}

/// `tuner runs ARGS --broker URL`: status and stdout, stderr.
fn runs(redis: &Redis, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(TUNER).arg("runs").args(args).args(["--broker", &redis.url]).output().unwrap();
    (out.status.success(), text(&out.stdout), text(&out.stderr))
}

/// Waits up to `limit` for `ready`, polling; whether it came.
fn within(limit: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if ready() {
            return true;
        }
        thread::sleep(Duration::from_millis(200));
    }
    false
}

/// The command and the counts (queued, claimed, done) on the list's line for `id`.
fn row(list: &str, id: &str) -> Option<(String, [u64; 3])> {
    let line = list.lines().find(|l| l.starts_with(id))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    // RUN COMMAND CREATED (`-` or `AGE ago`) QUEUED CLAIMED DONE ...
    let at = if words[2] == "-" { 3 } else { 4 };
    let n = |i: usize| words[at + i].parse().unwrap();
    Some((words[1].to_string(), [n(0), n(1), n(2)]))
}

#[test]
#[ignore = "needs redis-server"]
fn a_listed_run_is_cancelled_and_its_coordinator_and_worker_stop() {
    let dir = scratch("broker-runs", "cancel");
    let redis = Redis::start();
    let (ok, list, _) = runs(&redis, &["list"]);
    assert!(ok && list.lines().count() == 1, "only the header on an empty broker: {list}");

    let engines = dir.join("engines.toml");
    std::fs::write(&engines, format!("[engines.evochess]\ncmd = {:?}\n", engine_binary())).unwrap();
    let secret = redis_server::secret();
    // A match far longer than the test: 2,000 games at 3,000 nodes a move.
    let engine = format!("cmd={}", engine_binary().display());
    let book = format!("file={}", repo().join("openings/gnuchess-8ply.epd").display());
    let state = dir.join("state.jsonl");
    let coordinator_log = dir.join("coordinator.log");
    let mut coordinator = spawn(
        &[
            "match",
            "-engine",
            "name=a",
            &engine,
            "-engine",
            "name=b",
            &engine,
            "-each",
            "nodes=3000",
            "-games",
            "2000",
            "-openings",
            &book,
            "-state",
            state.to_str().unwrap(),
            "-broker",
            &redis.url,
            "-broker-secret",
            secret,
        ],
        &coordinator_log,
    );

    // Listed once open (the coordinator first takes its engines' bench signatures).
    let open = within(Duration::from_secs(120), || runs(&redis, &["list"]).1.contains("match-"));
    assert!(open, "{}", std::fs::read_to_string(&coordinator_log).unwrap());
    // A worker that exits once idle for 4 s: it stops only when nothing is left to play.
    let worker_log = dir.join("worker.log");
    let worker_args = ["worker", "--broker", &redis.url, "--secret", secret, "--engines", engines.to_str().unwrap()];
    let mut worker_args = worker_args.to_vec();
    worker_args.extend(["--visibility", "2", "--name", "box-a", "--idle-exit", "4"]);
    let mut worker = spawn(&worker_args, &worker_log);

    // Running, played by the worker.
    let mut id = String::new();
    let listed = within(Duration::from_secs(120), || {
        let (_, list, _) = runs(&redis, &["list"]);
        let Some(line) = list.lines().find(|l| l.starts_with("match-")) else { return false };
        id = line.split_whitespace().next().unwrap().to_string();
        let (command, [_, _, done]) = row(&list, &id).unwrap();
        command == "match" && done >= 1 && line.contains("1 (box-a)") && line.contains("running (")
    });
    let (_, list, _) = runs(&redis, &["list"]);
    assert!(
        listed,
        "{list}\ncoordinator: {}\nworker: {}",
        std::fs::read_to_string(&coordinator_log).unwrap(),
        std::fs::read_to_string(&worker_log).unwrap()
    );

    let (ok, said, err) = runs(&redis, &["cancel", &id]);
    assert!(ok, "{err}");
    assert!(said.starts_with(&format!("cancelled run {id}: ")) && said.contains("queued task(s) removed"), "{said}");
    assert!(said.contains("its coordinator ("), "{said}");

    // The coordinator stops, saying why.
    assert!(within(Duration::from_secs(30), || coordinator.0.try_wait().unwrap().is_some()), "the coordinator runs on");
    let status = coordinator.0.wait().unwrap();
    let log = std::fs::read_to_string(&coordinator_log).unwrap();
    assert!(!status.success() && log.contains(&format!("run {id} was cancelled")), "{log}");
    // The worker drops what it held, takes nothing more, and goes idle: it exits (--idle-exit).
    assert!(within(Duration::from_secs(60), || worker.0.try_wait().unwrap().is_some()), "the worker plays on");
    assert!(worker.0.wait().unwrap().success());
    let log = std::fs::read_to_string(&worker_log).unwrap();
    assert!(!log.contains("panicked"), "{log}");

    // The list says cancelled, with nothing left to play.
    let (_, list, _) = runs(&redis, &["list"]);
    let (_, [queued, claimed, _]) = row(&list, &id).unwrap_or_else(|| panic!("{list}"));
    assert_eq!((queued, claimed), (0, 0), "{list}");
    let line = list.lines().find(|l| l.starts_with(&id)).unwrap();
    assert!(line.contains("cancelled") && !line.contains("running"), "{list}");
    // Cancelling again, or what is no run, says so.
    let (ok, _, err) = runs(&redis, &["cancel", &id]);
    assert!(!ok && err.contains("already cancelled"), "{err}");
    let (ok, _, err) = runs(&redis, &["cancel", "match-0000000000000000"]);
    assert!(!ok && err.contains("no run match-0000000000000000"), "{err}");
    let (ok, _, err) = runs(&redis, &["cancel", "../x"]);
    assert!(!ok && err.contains("is not a run id"), "{err}");
}
