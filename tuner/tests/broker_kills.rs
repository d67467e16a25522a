//! Issue 89 item 7: `tuner coevolve`'s evolution strategy and `tuner spsa` over `--broker`, served
//! by two `tuner worker`s on this machine and a real `redis-server`, survive losing a worker
//! (SIGKILL mid-run: its claimed task is taken over) and the coordinator (SIGKILL, then
//! `--resume`): each ends as the same run played locally without interruption (node-limited
//! games are deterministic), file for file.

mod common;
#[path = "common/redis_server.rs"]
mod redis_server;

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use common::{engine_binary, kill_9_when, manifest, repo, scratch, tuner_ok};
use redis_server::{Redis, Worker};

/// Lines of `path` (0 when it does not exist yet).
fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

/// Runs `args` over a broker with workers a and b: kills worker a once `first` holds and the
/// coordinator once `second` holds, then resumes the coordinator to the end. What the workers
/// logged.
fn killed_and_resumed(
    dir: &Path,
    args: &[String],
    resume_flag: &str,
    first: impl Fn() -> bool,
    second: impl Fn() -> bool,
) -> String {
    let redis = Redis::start();
    let engines = dir.join("engines.toml");
    std::fs::write(&engines, format!("[engines.evochess]\ncmd = {:?}\n", engine_binary())).unwrap();
    let mut a = Some(Worker::start(&redis, dir, "a", &engines));
    let _b = Worker::start(&redis, dir, "b", &engines);
    let mut args: Vec<String> = args.to_vec();
    args.extend(["--broker".into(), redis.url.clone(), "--broker-secret".into(), redis_server::secret().into()]);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    kill_9_when(&refs, Duration::from_secs(300), "the run's progress", || {
        if a.is_some() && first() {
            a = None; // SIGKILL, mid-run
        }
        a.is_none() && second()
    });
    let mut resume = refs.clone();
    resume.push(resume_flag);
    tuner_ok(&resume);
    ["a", "b"].iter().map(|w| std::fs::read_to_string(dir.join(format!("{w}.log"))).unwrap()).collect()
}

/// A file's lines without the last column of each (the seconds a generation took).
fn without_seconds(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().map(|l| l.rsplit_once(',').map_or(l, |(head, _)| head).to_string()).collect()
}

/// Two generations of 4 candidates at 300 nodes, one gate of at most 20 games, into `out`.
fn es_args(out: &Path) -> Vec<String> {
    let book = manifest().join("../openings/gnuchess-8ply.epd");
    let mut args: Vec<String> = ["coevolve", "--nodes", "300", "--generations", "2", "--concurrency", "2"]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
    for set in ["es.pairs=2", "gate.count=1", "gate.max_games=20", "confirmation_openings=10"] {
        args.extend(["--set".into(), set.into()]);
    }
    args.extend(["--openings".into(), book.display().to_string(), "--out".into(), out.display().to_string()]);
    args
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn an_es_run_over_two_workers_survives_a_killed_worker_and_coordinator() {
    let local = scratch("broker-kills", "es-local").join("out");
    let refs: Vec<String> = es_args(&local);
    tuner_ok(&refs.iter().map(String::as_str).collect::<Vec<_>>());

    let dir = scratch("broker-kills", "es-remote");
    let out = dir.join("out");
    let (gen0, gen1) = (out.join("gen-000/race-01.state.jsonl"), out.join("gen-001/race-01.state.jsonl"));
    let logs = killed_and_resumed(&dir, &es_args(&out), "--resume", || lines(&gen0) >= 1, || lines(&gen1) >= 1);
    assert!(logs.contains("serving run"), "the workers played: {logs}");
    for file in ["champion.toml", "mean.toml", "gen-000/mean.toml", "generations.csv"] {
        assert_eq!(without_seconds(&out.join(file)), without_seconds(&local.join(file)), "{file}");
    }
}

/// An SPSA config of 4 iterations of 2 pairs at 300 nodes into `dir/out`.
fn spsa_config(dir: &Path) -> PathBuf {
    let lines = dir.join("params.txt");
    std::fs::write(&lines, "rook_mg, int, 480, 300, 700, 30, 0.01\nknight_mg, int, 320, 200, 450, 20, 0.01\n").unwrap();
    let cfg = dir.join("spsa.toml");
    std::fs::write(
        &cfg,
        format!(
            "params = {lines:?}\nengine = {:?}\niterations = 4\npairs = 2\nnodes = 300\nseed = 12\n\
             openings = {:?}\nout_dir = {:?}\n",
            engine_binary(),
            repo().join("openings/gnuchess-8ply.epd"),
            dir.join("out"),
        ),
    )
    .unwrap();
    cfg
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn an_spsa_tune_over_two_workers_survives_a_killed_worker_and_coordinator() {
    let local = scratch("broker-kills", "spsa-local");
    tuner_ok(&["spsa", "--config", spsa_config(&local).to_str().unwrap()]);

    let dir = scratch("broker-kills", "spsa-remote");
    let args: Vec<String> = vec!["spsa".into(), "--config".into(), spsa_config(&dir).display().to_string()];
    let out = dir.join("out");
    let (iter1, iter3) = (out.join("iter-00001"), out.join("iter-00003"));
    let logs = killed_and_resumed(&dir, &args, "--resume", || iter1.is_dir(), || iter3.is_dir());
    assert!(logs.contains("serving run match-"), "the workers played the pairs: {logs}");
    let values = |d: &Path| std::fs::read_to_string(d.join("out/values.csv")).unwrap();
    assert_eq!(values(&dir), values(&local), "the tune moved otherwise than the local one");
    assert_eq!(values(&dir).lines().count(), 5, "a header and 4 iterations");
}
