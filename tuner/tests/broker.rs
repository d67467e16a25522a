//! Distributed tuning against a real `redis-server` on 127.0.0.1: `tuner worker` processes play
//! a match, a coevolve generation and an evolve generation that a coordinator published, with
//! the same results as the same command run locally; a coordinator killed with SIGKILL loses and
//! duplicates nothing (a killed worker: broker_outages.rs); a worker with another engine build
//! refuses.

mod common;
#[path = "common/redis_server.rs"]
mod redis_server;

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    thread,
    time::Duration,
};

use common::{
    TUNER, assert_each_unit_once, engine_binary, fixture, games_in, journal_units, manifest, repo, scratch, text,
    tuner_ok,
};
use redis_server::{Redis, Worker};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

/// A redis-server and two workers serving it, named a and b, logging into `dir`.
fn broker_with_two_workers(dir: &Path) -> (Redis, Worker, Worker) {
    let redis = Redis::start();
    let engines = engines_file(dir, &engine_binary());
    let a = Worker::start(&redis, dir, "a", &engines);
    let b = Worker::start(&redis, dir, "b", &engines);
    (redis, a, b)
}

/// What workers a and b logged.
fn worker_logs(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("a.log")).unwrap() + &std::fs::read_to_string(dir.join("b.log")).unwrap()
}

/// `run`'s output in a local run and over a broker served by two workers, and what they logged.
fn local_and_over_two_workers(name: &str, run: impl Fn(&Path, Option<&str>) -> String) -> (String, String, String) {
    let local = run(&scratch("broker", &format!("{name}-local")), None);
    let dir = scratch("broker", &format!("{name}-remote"));
    let (redis, _a, _b) = broker_with_two_workers(&dir);
    let remote = run(&dir, Some(&redis.url));
    (local, remote, worker_logs(&dir))
}

/// An engines file naming this build's evochess (or another program under that name).
fn engines_file(dir: &Path, cmd: &Path) -> PathBuf {
    let path = dir.join("engines.toml");
    std::fs::write(&path, format!("[engines.evochess]\ncmd = {cmd:?}\n")).unwrap();
    path
}

/// `tuner match` arguments for 40 node-limited games between two evaluations.
fn match_args(dir: &Path) -> Vec<String> {
    let engine = engine_binary();
    let hand_set = repo().join("params/hand-set.toml");
    let mut a: Vec<String> = vec!["match".into()];
    a.extend(["-engine".into(), "name=default".into(), format!("cmd={}", engine.display())]);
    a.extend(["-engine".into(), "name=hand-set".into(), format!("cmd={}", engine.display())]);
    a.push(format!("params={}", hand_set.display()));
    a.extend(["-each", "nodes=400", "-games", "40", "-srand", "7", "-maxmoves", "80"].map(String::from));
    a.extend(["-openings".into(), format!("file={}", repo().join("openings/gnuchess-8ply.epd").display())]);
    a.extend(["-openings".into(), "order=random".into()]);
    a.extend(["-pgnout".into(), dir.join("games.pgn").display().to_string(), "min".into()]);
    a.extend(["-state".into(), dir.join("state.jsonl").display().to_string()]);
    a
}

fn run_match(args: &[String]) -> std::process::Output {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    tuner_ok(&refs)
}

/// One game: white, black, start position, result, moves.
type Game = (String, String, String, String, String);

/// The games of a PGN file, order-free.
fn games(pgn: &Path) -> Vec<Game> {
    let text = std::fs::read_to_string(pgn).unwrap();
    let mut out = Vec::new();
    for game in text.split("[Event ").skip(1) {
        let tag = |name: &str| {
            game.lines()
                .find_map(|l| l.strip_prefix(&format!("[{name} \"")).map(|v| v.trim_end_matches("\"]").to_string()))
                .unwrap_or_default()
        };
        let moves: String =
            game.lines().filter(|l| !l.starts_with('[') && !l.trim().is_empty()).collect::<Vec<_>>().join(" ");
        out.push((tag("White"), tag("Black"), tag("FEN"), tag("Result"), moves));
    }
    out.sort();
    out
}

/// The local match of `match_args`, played once per test process.
fn local_games() -> Vec<Game> {
    static LOCAL: std::sync::OnceLock<Vec<Game>> = std::sync::OnceLock::new();
    LOCAL
        .get_or_init(|| {
            let dir = scratch("broker", "local");
            let mut args = match_args(&dir);
            args.extend(["-concurrency".into(), "2".into()]);
            run_match(&args);
            games(&dir.join("games.pgn"))
        })
        .clone()
}

/// A generations.csv without its seconds column (which differs between runs; no fitness
/// column may).
fn without_seconds(csv: &str) -> Vec<String> {
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let secs = header.iter().position(|h| h.contains("second"));
    csv.lines()
        .map(|l| {
            l.split(',').enumerate().filter(|(i, _)| Some(*i) != secs).map(|(_, c)| c).collect::<Vec<_>>().join(",")
        })
        .collect()
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_match_over_the_broker_with_two_workers_plays_the_local_games() {
    let dir = scratch("broker", "match");
    let (redis, _a, _b) = broker_with_two_workers(&dir);
    let mut args = match_args(&dir);
    args.extend(["-broker".into(), redis.url.clone(), "-broker-secret".into(), redis_server::secret().into()]);
    run_match(&args);
    assert_eq!(games_in(&dir.join("games.pgn")), 40);
    assert_each_unit_once(&dir.join("state.jsonl"));
    assert_eq!(games(&dir.join("games.pgn")), local_games());
    // Both workers played.
    for w in ["a", "b"] {
        let log = std::fs::read_to_string(dir.join(format!("{w}.log"))).unwrap();
        assert!(log.contains("serving run match-"), "{w}: {log}");
    }
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_coordinator_killed_and_resumed_loses_and_duplicates_nothing() {
    let dir = scratch("broker", "coordinator-kill");
    let (redis, _a, _b) = broker_with_two_workers(&dir);
    let mut args = match_args(&dir);
    args.extend(["-broker".into(), redis.url.clone(), "-broker-secret".into(), redis_server::secret().into()]);
    let journal = dir.join("state.jsonl");
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    common::kill_9_when(&refs, Duration::from_secs(120), "four units", || journal_units(&journal).len() >= 4);
    args.push("-resume".into());
    run_match(&args);
    assert_eq!(games_in(&dir.join("games.pgn")), 40);
    assert_each_unit_once(&journal);
    assert_eq!(games(&dir.join("games.pgn")), local_games());
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_worker_with_another_engine_build_refuses() {
    let dir = scratch("broker", "refuse");
    let redis = Redis::start();
    let mut args = match_args(&dir);
    args.extend(["-broker".into(), redis.url.clone(), "-broker-secret".into(), redis_server::secret().into()]);
    let mut coordinator = Command::new(TUNER)
        .args(&args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The fake engine answers `bench` with no node count: another build.
    let engines = engines_file(&dir, Path::new(FAKE));
    let out = Command::new(TUNER)
        .args(["worker", "--broker", &redis.url, "--engines", engines.to_str().unwrap(), "--idle-exit", "60"])
        .args(["--secret", redis_server::secret()])
        .output()
        .unwrap();
    // The coordinator reads answers every second: give it the refusal before stopping it.
    thread::sleep(Duration::from_secs(3));
    let _ = coordinator.kill();
    let coordinator_log = text(&coordinator.wait_with_output().unwrap().stderr);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "the worker refuses: {err}");
    assert!(err.contains("engine build differs") && err.contains("`evochess`"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(coordinator_log.contains("refused"), "the coordinator logs the refusal: {coordinator_log}");
    assert_eq!(games_in(&dir.join("games.pgn")), 0, "no game counted");
}

/// A coevolve config of 4 organisms, one generation of node-limited games; `extra` adds keys.
fn coevolve_config(dir: &Path, extra: &str) -> PathBuf {
    let pop = dir.join("evolved");
    std::fs::create_dir_all(&pop).unwrap();
    for i in 0..4 {
        let mut p = evochess::params::Params::default();
        p.eval.knight_mg = 250 + 40 * i;
        p.eval.rook_mg = 600 - 30 * i;
        std::fs::write(pop.join(format!("run-{}.toml", i + 1)), p.to_toml()).unwrap();
    }
    let cfg = dir.join("coevolve.toml");
    std::fs::write(
        &cfg,
        format!(
            "population_dir = {pop:?}\nspace = {:?}\nengine = {:?}\nnodes = 300\ntc = \"60+1\"\nconcurrency = 2\n\
             openings = {:?}\nopenings_per_pair = 1\nmaxmoves = \"60\"\nout_dir = {:?}\n{extra}[ga]\ngenerations = 1\n",
            manifest().join("../configs/spaces/evolve-paper.toml"),
            engine_binary(),
            manifest().join("../openings/gnuchess-8ply.epd"),
            dir.join("out"),
        ),
    )
    .unwrap();
    cfg
}

/// Each organism's (points, games) in a coevolve generation's cross table.
fn standings(gen_dir: &Path) -> BTreeMap<String, String> {
    let csv = std::fs::read_to_string(gen_dir.join("crosstable.csv")).unwrap();
    csv.lines().skip(1).map(|l| (l.split(',').next().unwrap().to_string(), l.to_string())).collect()
}

/// Runs the coevolve config with `extra` locally (scratch `{name}-local`) and over a broker with
/// two workers (`{name}-remote`): the workers must have played generation 0 and its cross table
/// must equal the local one. Returns the remote run's directory and standings.
fn coevolve_over_the_broker_as_local(name: &str, extra: &str) -> (PathBuf, BTreeMap<String, String>) {
    let local = scratch("broker", &format!("{name}-local"));
    tuner_ok(&["coevolve", "--config", coevolve_config(&local, extra).to_str().unwrap()]);
    let dir = scratch("broker", &format!("{name}-remote"));
    let (redis, _a, _b) = broker_with_two_workers(&dir);
    tuner_ok(&[
        "coevolve",
        "--config",
        coevolve_config(&dir, extra).to_str().unwrap(),
        "--broker",
        &redis.url,
        "--broker-secret",
        redis_server::secret(),
    ]);
    let log = worker_logs(&dir);
    assert!(log.contains("serving run match-"), "the workers played generation 0: {log}");
    let remote = standings(&dir.join("out/gen-000"));
    assert_eq!(remote, standings(&local.join("out/gen-000")));
    (dir, remote)
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_coevolve_generation_over_the_broker_scores_as_local() {
    let (dir, _) = coevolve_over_the_broker_as_local("coevolve", "");
    assert_eq!(games(&dir.join("out/gen-000/games.pgn")).len(), 12);
}

/// Issue 45: a race's rounds go through the same runner and executor as the round robin.
#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_coevolve_race_over_the_broker_rates_as_local() {
    let (dir, remote) = coevolve_over_the_broker_as_local("race", "selection = \"racing\"\nracing_games = 16\n");
    assert!(remote.values().all(|row| row.split(',').count() == 14), "{remote:?}");
    assert!(games_in(&dir.join("out/gen-000/race-01.pgn")) >= 6);
}

/// Issue 45: reference selection's gauntlet against the pool goes through the same executor.
#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_coevolve_reference_selection_over_the_broker_scores_as_local() {
    let (dir, remote) = coevolve_over_the_broker_as_local("pool", "selection = \"reference\"\n[pool]\ngames = 4\n");
    assert!(remote.values().all(|row| row.split(',').count() == 8), "{remote:?}");
    assert_eq!(games_in(&dir.join("out/gen-000/pool.pgn")), 16);
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn an_evolve_generation_over_the_broker_scores_as_local() {
    let pgn = fixture("gm-sample.pgn.xz");
    let space = repo().join("configs/spaces/evolve-paper.toml");
    let run = |dir: &Path, broker: Option<&str>| {
        let mut args = vec![
            "evolve".to_string(),
            "--pgn".into(),
            pgn.display().to_string(),
            "--population".into(),
            "12".into(),
            "--generations".into(),
            "2".into(),
            "--train".into(),
            "60".into(),
            "--test".into(),
            "20".into(),
            "--threads".into(),
            "1".into(),
            "--space".into(),
            space.display().to_string(),
            "--out".into(),
            dir.join("out").display().to_string(),
        ];
        if let Some(url) = broker {
            args.extend(["--broker".into(), url.into(), "--broker-secret".into(), redis_server::secret().into()]);
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        tuner_ok(&refs);
        std::fs::read_to_string(dir.join("out/run-1/generations.csv")).unwrap()
    };
    let (local, remote, log) = local_and_over_two_workers("evolve", run);
    assert_eq!(without_seconds(&remote), without_seconds(&local));
    assert_eq!(remote.lines().count(), 3, "{remote}");
    assert!(log.contains("serving run evolve-"), "the workers counted the GM moves: {log}");
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_search_evolve_generation_over_the_broker_counts_as_local() {
    let run = |dir: &Path, broker: Option<&str>| {
        let mut args: Vec<String> = [
            "search-evolve",
            "--config",
            repo().join("configs/search-evolve/default.toml").to_str().unwrap(),
            "--params",
            repo().join("params/hand-set.toml").to_str().unwrap(),
            "--suite",
            fixture("wac.epd").to_str().unwrap(),
            "--max-positions",
            "40",
            "--node-cap",
            "3000",
            "--population",
            "4",
            "--generations",
            "2",
            "--threads",
            "1",
            "--out",
            dir.join("out").to_str().unwrap(),
            "--output",
            dir.join("evolved.toml").to_str().unwrap(),
        ]
        .map(String::from)
        .to_vec();
        if let Some(url) = broker {
            args.extend(["--broker".into(), url.into(), "--broker-secret".into(), redis_server::secret().into()]);
        }
        // The config's relative paths (the search space) are the repository's.
        let out = Command::new(TUNER).args(&args).current_dir(repo()).env("RUST_LOG", "warn").output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        std::fs::read_to_string(dir.join("out/generations.csv")).unwrap()
    };
    let (local, remote, log) = local_and_over_two_workers("search", run);
    assert_eq!(without_seconds(&remote), without_seconds(&local));
    assert!(log.contains("serving run search-"), "the workers counted the nodes: {log}");
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn an_spsa_tune_over_the_broker_moves_as_local() {
    let run = |dir: &Path, broker: Option<&str>| {
        let lines = dir.join("params.txt");
        std::fs::write(&lines, "rook_mg, int, 480, 300, 700, 30, 0.01\n").unwrap();
        let cfg = dir.join("spsa.toml");
        std::fs::write(
            &cfg,
            format!(
                "params = {lines:?}\nengine = {:?}\niterations = 3\npairs = 2\nnodes = 300\nseed = 11\n\
                 openings = {:?}\nout_dir = {:?}\n",
                engine_binary(),
                repo().join("openings/gnuchess-8ply.epd"),
                dir.join("out"),
            ),
        )
        .unwrap();
        let mut args = vec!["spsa", "--config", cfg.to_str().unwrap()];
        if let Some(url) = broker {
            args.extend(["--broker", url, "--broker-secret", redis_server::secret()]);
        }
        tuner_ok(&args);
        std::fs::read_to_string(dir.join("out/values.csv")).unwrap()
    };
    let local = run(&scratch("broker", "spsa-local"), None);
    let dir = scratch("broker", "spsa-remote");
    let redis = Redis::start();
    let engines = engines_file(&dir, &engine_binary());
    let _a = Worker::start(&redis, &dir, "a", &engines);
    let remote = run(&dir, Some(&redis.url));
    assert_eq!(remote, local);
    assert_eq!(remote.lines().count(), 4, "{remote}");
    let log = std::fs::read_to_string(dir.join("a.log")).unwrap();
    assert!(log.contains("serving run match-"), "the worker played the pairs: {log}");
}
