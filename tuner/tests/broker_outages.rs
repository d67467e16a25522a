//! A run over the broker when things go wrong (issue 48, item 6), against a real redis-server: a
//! Redis restarted in the middle of a match, without persistence or with its append-only file,
//! loses and duplicates no game; a worker killed (SIGKILL) in the middle of a task has it taken
//! over by another; a coordinator whose every worker refuses stops with an error after
//! `--broker-patience`. The matches are small and node-limited, and every wait is generous: the
//! suite runs on loaded cores.

mod common;
#[path = "common/redis_server.rs"]
mod redis_server;

use std::{
    path::Path,
    process::{Child, Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use redis_server::{Redis, Worker};

use common::{TUNER, assert_each_unit_once, engine_binary, games_in, journal_units, repo, scratch};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

/// A child process killed (SIGKILL) when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn worker(redis: &Redis, dir: &Path, name: &str, engine: &Path) -> Worker {
    let engines = dir.join(format!("{name}-engines.toml"));
    std::fs::write(&engines, format!("[engines.evochess]\ncmd = {engine:?}\n")).unwrap();
    Worker::start(redis, dir, name, &engines)
}

/// A coordinator: `tuner match` of `games` games between two evaluations over the broker.
fn coordinator(redis: &Redis, dir: &Path, limit: &str, games: u32, extra: &[&str]) -> Killed {
    let engine = engine_binary();
    let cmd = format!("cmd={}", engine.display());
    let params = format!("params={}", repo().join("params/hand-set.toml").display());
    let book = format!("file={}", repo().join("openings/gnuchess-8ply.epd").display());
    let games = games.to_string();
    let (pgn, state) = (dir.join("games.pgn"), dir.join("state.jsonl"));
    let log = std::fs::File::create(dir.join("coordinator.log")).unwrap();
    let child = Command::new(TUNER)
        .args(["match", "-engine", "name=default", &cmd, "-engine", "name=hand-set", &cmd, &params])
        .args(["-each", limit, "-games", &games, "-srand", "7", "-maxmoves", "80", "-openings", &book])
        .args(["-pgnout", pgn.to_str().unwrap(), "min", "-state", state.to_str().unwrap(), "-broker", &redis.url])
        .args(["-broker-secret", redis_server::secret()])
        .args(extra)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("coordinator starts");
    Killed(child)
}

/// Waits for `ready`, failing the test after `limit`.
fn wait_for(limit: Duration, what: &str, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < limit, "timed out after {limit:?} waiting for {what}");
        thread::sleep(Duration::from_millis(20));
    }
}

/// The entries of the run's task stream that a worker holds and has not answered yet:
/// (entry id, consumer); a worker named `a` reads as consumer `a-0`.
fn pending(redis: &Redis) -> Vec<(String, String)> {
    let mut con = redis::Client::open(redis.url.as_str()).unwrap().get_connection().unwrap();
    let keys: Vec<String> = redis::cmd("KEYS").arg("evochess:run:*:tasks").query(&mut con).unwrap();
    let mut out = Vec::new();
    for key in keys {
        let rows: Vec<(String, String, u64, u64)> =
            redis::cmd("XPENDING").arg(&key).arg("workers").arg("-").arg("+").arg(100).query(&mut con).unwrap();
        out.extend(rows.into_iter().map(|(entry, consumer, _, _)| (entry, consumer)));
    }
    out
}

/// Sends `signal` (`-STOP`, `-CONT`) to the process.
fn signal(p: &Child, signal: &str) {
    let sent = Command::new("kill").args([signal, &p.id().to_string()]).status().unwrap();
    assert!(sent.success(), "kill {signal}");
}

/// The process's exit status once it ends, failing the test after `limit`.
fn exit_within(p: &mut Child, limit: Duration, what: &str) -> std::process::ExitStatus {
    let mut status = None;
    wait_for(limit, what, || {
        status = p.try_wait().unwrap();
        status.is_some()
    });
    status.unwrap()
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_redis_restart_mid_match_loses_and_duplicates_no_game() {
    let dir = scratch("outages", "restart");
    let mut redis = Redis::start();
    let _w = worker(&redis, &dir, "w", &engine_binary());
    let mut co = coordinator(&redis, &dir, "nodes=1500", 24, &[]);
    let state = dir.join("state.jsonl");
    wait_for(Duration::from_secs(240), "three finished units", || journal_units(&state).len() >= 3);
    // Every key goes: the run, its tasks, its results and the answers nobody read yet.
    redis.down();
    let done_at_restart = journal_units(&state).len();
    thread::sleep(Duration::from_secs(2));
    redis.up();
    let status = exit_within(&mut co.0, Duration::from_secs(400), "the coordinator to finish");
    let log = std::fs::read_to_string(dir.join("coordinator.log")).unwrap();
    assert!(status.success(), "{log}");
    assert!(done_at_restart < 12, "the restart came after the match was as good as over ({done_at_restart} units)");
    assert!(log.contains("connection lost") && log.contains("reconnected"), "the outage is logged: {log}");
    assert_eq!(games_in(&dir.join("games.pgn")), 24, "every game, once: {log}");
    assert_each_unit_once(&state);
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_redis_restart_with_its_append_only_file_loses_and_duplicates_no_game() {
    let dir = scratch("outages", "aof");
    let aof = dir.join("redis");
    std::fs::create_dir_all(&aof).unwrap();
    let mut redis = Redis::start_persistent(&aof);
    let _w = worker(&redis, &dir, "w", &engine_binary());
    let mut co = coordinator(&redis, &dir, "nodes=300", 12, &[]);
    let state = dir.join("state.jsonl");
    wait_for(Duration::from_secs(600), "two finished units", || journal_units(&state).len() >= 2);
    redis.down();
    let done_at_restart = journal_units(&state).len();
    thread::sleep(Duration::from_secs(2));
    redis.up();
    let status = exit_within(&mut co.0, Duration::from_secs(600), "the coordinator to finish");
    let log = std::fs::read_to_string(dir.join("coordinator.log")).unwrap();
    assert!(status.success(), "{log}");
    assert!(done_at_restart < 6, "the restart came after the match was as good as over ({done_at_restart} units)");
    assert!(log.contains("connection lost") && log.contains("reconnected"), "the outage is logged: {log}");
    // The broker kept the run: its tasks are found again, none is published a second time.
    assert!(log.contains("0 task(s) the broker had lost published again"), "{log}");
    assert_eq!(games_in(&dir.join("games.pgn")), 12, "every game, once: {log}");
    assert_eq!(journal_units(&state).len(), 6);
    assert_each_unit_once(&state);
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_worker_killed_mid_task_has_it_taken_over_by_another() {
    let dir = scratch("outages", "worker-kill");
    let redis = Redis::start();
    let a = worker(&redis, &dir, "a", &engine_binary());
    let mut co = coordinator(&redis, &dir, "nodes=300", 8, &[]);
    let state = dir.join("state.jsonl");
    // Worker a plays alone. Once it has answered a task, it is frozen (SIGSTOP) whenever the
    // test looks: if it holds a task then, it dies there (SIGKILL); else it goes on (SIGCONT).
    let mut held = None;
    wait_for(Duration::from_secs(600), "worker a in the middle of its second task or later", || {
        let done = journal_units(&state).len();
        assert!(done < 4, "the match ended before worker a was caught holding a task");
        if done == 0 {
            return false;
        }
        signal(&a.0, "-STOP");
        held = pending(&redis).into_iter().find(|(_, consumer)| consumer == "a-0").map(|(entry, _)| entry);
        if held.is_none() {
            signal(&a.0, "-CONT");
        }
        held.is_some()
    });
    let held = held.unwrap();
    drop(a); // SIGKILL
    assert!(
        pending(&redis).iter().any(|(entry, consumer)| *entry == held && consumer == "a-0"),
        "the dead worker's task {held} stays pending"
    );
    let _b = worker(&redis, &dir, "b", &engine_binary());
    let status = exit_within(&mut co.0, Duration::from_secs(600), "the coordinator to finish");
    let log = std::fs::read_to_string(dir.join("coordinator.log")).unwrap();
    assert!(status.success(), "{log}");
    let log_b = std::fs::read_to_string(dir.join("b.log")).unwrap();
    assert!(log_b.contains(&format!("took over task {held} ")), "worker b took over a's task {held}: {log_b}");
    assert_eq!(games_in(&dir.join("games.pgn")), 8, "every game, once: {log}");
    assert_eq!(journal_units(&state).len(), 4);
    assert_each_unit_once(&state);
    assert!(pending(&redis).is_empty(), "nothing is left pending");
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_run_every_worker_refuses_stops_with_an_error() {
    let dir = scratch("outages", "refused");
    let redis = Redis::start();
    let mut co = coordinator(&redis, &dir, "nodes=400", 4, &["--broker-patience", "3"]);
    // The fake engine answers `bench` with no node count: another build, refused.
    let mut w = worker(&redis, &dir, "w", Path::new(FAKE));
    let refused = exit_within(&mut w.0, Duration::from_secs(120), "the worker to refuse");
    let status = exit_within(&mut co.0, Duration::from_secs(60), "the coordinator to give up");
    let log = std::fs::read_to_string(dir.join("coordinator.log")).unwrap();
    assert!(!refused.success() && !status.success(), "{log}");
    assert!(log.contains("every worker that came refused it") && log.contains("engine build differs"), "{log}");
    assert!(!log.contains("panicked"), "{log}");
    assert_eq!(games_in(&dir.join("games.pgn")), 0);
}

/// Issue 91 item 8: a coordinator with no worker says so on stderr, naming the tasks queued, the
/// workers holding them and those that answered, and how long it has waited; once a worker
/// has answered, the note names it.
#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_coordinator_waiting_for_workers_says_so() {
    let dir = scratch("outages", "waiting");
    let redis = Redis::start();
    let _co = coordinator(&redis, &dir, "nodes=400", 4, &[]);
    let log = || std::fs::read_to_string(dir.join("coordinator.log")).unwrap_or_default();
    wait_for(Duration::from_secs(60), "the note on the wait", || log().contains("waiting for workers"));
    let text = log();
    let note = text.lines().find(|l| l.contains("waiting for workers")).unwrap();
    assert!(note.contains("task(s) queued, none held by a worker; workers that answered: none yet"), "{note}");
    assert!(note.contains("no answer for 1") && note.contains(" s, waiting since "), "{note}");
}
