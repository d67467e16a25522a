//! A `tuner worker` fed forged broker messages (a real `redis-server` on 127.0.0.1): run ids that
//! name paths, specs and tasks that are malformed or ask for options the worker does not allow,
//! tasks whose workers keep dying. None of it may crash the worker or write outside its private
//! directory; every such task ends in the dead-letter stream, and valid work is still served.

mod common;
#[path = "common/redis_server.rs"]
mod redis_server;

use std::{
    collections::HashMap,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::OnceLock,
    thread,
    time::{Duration, Instant},
};

use common::{TUNER, engine_binary, games_in, repo, scratch, text};
use rand::{Rng, SeedableRng, rngs::StdRng};
use redis::{Commands, Connection};
use redis_server::Redis;
use serde_json::{Value, json};
use tuner::broker::mac::Purpose;

const NS: &str = "evochess";

impl Redis {
    fn connect(&self) -> Connection {
        redis::Client::open(self.url.as_str()).unwrap().get_connection().unwrap()
    }
}

/// A redis-server, a connection to it and one worker whose temporary directory (`TMPDIR`) is
/// `dir/tmp`, logging to `dir/worker.log`.
struct Lab {
    redis: Redis,
    con: Connection,
    dir: PathBuf,
    tmp: PathBuf,
    worker: Child,
}

impl Lab {
    /// `engines` is added to the engines file's `[engines.evochess]` table.
    fn start(name: &str, engines: &str, args: &[&str]) -> Lab {
        // The bench takes seconds: before the worker's idle clock starts.
        signature();
        let dir = scratch("untrusted", name);
        let tmp = dir.join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        let file = dir.join("engines.toml");
        std::fs::write(&file, format!("[engines.evochess]\ncmd = {:?}\n{engines}", engine_binary())).unwrap();
        let redis = Redis::start();
        let con = redis.connect();
        let log = std::fs::File::create(dir.join("worker.log")).unwrap();
        let worker = Command::new(TUNER)
            .args(["worker", "--broker", &redis.url, "--engines", file.to_str().unwrap(), "--name", "w"])
            .args(["--secret", redis_server::secret()])
            .args(args)
            .env("TMPDIR", &tmp)
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("worker starts");
        Lab { redis, con, dir, tmp, worker }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("worker.log")).unwrap()
    }

    fn assert_alive(&mut self) {
        assert!(self.worker.try_wait().unwrap().is_none(), "the worker ended: {}", self.log());
    }

    /// A run as a coordinator opens one (spec, groups, listed), with `tasks` published, all
    /// signed with the test's secret: what a worker does with what verifies.
    fn forge(&mut self, run: &str, spec: Option<&str>, tasks: &[String]) {
        let key = |what: &str| format!("{NS}:run:{run}:{what}");
        let secret = redis_server::key();
        if let Some(spec) = spec {
            let mac = secret.sign(Purpose::Spec, run, "", spec.as_bytes());
            let _: () = self.con.mset(&[(key("spec"), spec), (key("spec_mac"), &mac)]).unwrap();
        }
        for (k, group) in [(key("tasks"), "workers"), (key("results"), "coordinator")] {
            let _: Result<(), _> =
                redis::cmd("XGROUP").arg("CREATE").arg(k).arg(group).arg("0").arg("MKSTREAM").query(&mut self.con);
        }
        for (i, body) in tasks.iter().enumerate() {
            let task = format!("t{i}");
            let mac = secret.sign(Purpose::Task, run, &task, body.as_bytes());
            let _: String =
                self.con.xadd(key("tasks"), "*", &[("task", task.as_str()), ("body", body), ("mac", &mac)]).unwrap();
        }
        let _: () = self.con.sadd(format!("{NS}:runs"), run).unwrap();
    }

    /// The entries of a stream, as field maps.
    fn entries(&mut self, key: &str) -> Vec<HashMap<String, String>> {
        let reply: redis::streams::StreamRangeReply = self.con.xrange_all(key).unwrap();
        reply
            .ids
            .iter()
            .map(|e| e.map.keys().map(|k| (k.clone(), e.get::<String>(k).unwrap_or_default())).collect())
            .collect()
    }

    fn dead(&mut self) -> Vec<HashMap<String, String>> {
        self.entries(&format!("{NS}:dead"))
    }

    fn answers(&mut self, run: &str) -> Vec<HashMap<String, String>> {
        self.entries(&format!("{NS}:run:{run}:results"))
    }

    /// Waits until `ready` holds, failing the test (with the worker's log) after `limit`.
    fn wait_for(&mut self, limit: Duration, what: &str, mut ready: impl FnMut(&mut Lab) -> bool) {
        let started = Instant::now();
        while !ready(self) {
            assert!(started.elapsed() < limit, "timed out waiting for {what}; worker log:\n{}", self.log());
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// Lets the worker end (`--idle-exit`) and checks it left nothing behind: its private
    /// directory is gone and nothing else was written under its temporary directory.
    fn finish(mut self) -> String {
        let started = Instant::now();
        while self.worker.try_wait().unwrap().is_none() {
            assert!(started.elapsed() < Duration::from_secs(60), "the worker did not exit idle: {}", self.log());
            thread::sleep(Duration::from_millis(50));
        }
        let status = self.worker.wait().unwrap();
        let log = self.log();
        assert!(status.success(), "{log}");
        assert!(!log.contains("panicked"), "{log}");
        let left: Vec<_> = std::fs::read_dir(&self.tmp).unwrap().map(|e| e.unwrap().path()).collect();
        assert!(left.is_empty(), "left in the worker's temporary directory: {left:?}");
        log
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        let _ = self.worker.kill();
        let _ = self.worker.wait();
    }
}

/// This build's evochess bench signature, as the worker computes it.
fn signature() -> &'static str {
    static SIG: OnceLock<String> = OnceLock::new();
    SIG.get_or_init(|| tuner::broker::signature::bench_signature(&engine_binary(), &[], None))
}

/// One engine of a games spec: program `program`, 50 nodes a move, `options`.
fn engine(name: &str, program: &str, options: &[(&str, &str)], params: Option<String>) -> Value {
    json!({
        "name": name, "program": program, "proto": "uci", "options": options,
        "limits": {"clock": null, "movetime_ms": null, "nodes": 50, "depth": null, "margin_ms": 0},
        "params": params, "restart": false,
    })
}

/// A games spec of `engines` with this build's signature of evochess, games cut at 15 moves.
fn spec_of(engines: Vec<Value>, tb: Option<&Path>) -> String {
    json!({
        "kind": "games",
        "engines": engines,
        "adjudication": {"draw": null, "resign": null, "maxmoves": {"moves": 15, "result": "Draw"},
                         "tb_path": tb, "tb_pieces": null},
        "stall_timeout_ms": 30000, "start_timeout_ms": 30000, "ping_timeout_ms": 30000,
        "quit_timeout_ms": 2000, "wait_ms": 0,
        "signatures": {"evochess": signature()},
    })
    .to_string()
}

/// Two evochess engines, the second with `options`.
fn spec_with(options: &[(&str, &str)]) -> String {
    spec_of(vec![engine("a", "evochess", &[], None), engine("b", "evochess", options, None)], None)
}

/// A valid spec whose engines carry a params text (which the worker writes to a file).
fn spec_with_params() -> String {
    let params = evochess::params::Params::default().to_toml();
    spec_of(vec![engine("a", "evochess", &[], Some(params.clone())), engine("b", "evochess", &[], Some(params))], None)
}

/// A one-game task between engines `w` and `b` from the start position.
fn task(unit: u64, w: usize, b: usize) -> String {
    json!({"unit": unit, "round": 1, "opening_index": 0, "games": [[w, b]], "opening": {"fen": null, "moves": []}})
        .to_string()
}

const LIMIT: Duration = Duration::from_secs(180);

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_run_id_from_the_broker_never_becomes_a_path() {
    let mut lab = Lab::start("paths", "", &["--idle-exit", "4"]);
    let escape = lab.dir.join("escape");
    // Before: the worker wrote `<id>-0.toml`, the spec's params text, for either id.
    for run in [escape.to_str().unwrap(), "../../up"] {
        lab.forge(run, Some(&spec_with_params()), &[task(0, 0, 1)]);
    }
    lab.forge("match-00000000000000aa", Some(&spec_with_params()), &[task(0, 0, 1)]);
    lab.wait_for(LIMIT, "two dead letters and one answer", |l| {
        l.dead().len() >= 2 && !l.answers("match-00000000000000aa").is_empty()
    });
    let dead = lab.dead();
    assert_eq!(dead.len(), 2, "{dead:?}");
    assert!(dead.iter().all(|d| d["reason"].contains("run id")), "{dead:?}");
    assert!(lab.answers("match-00000000000000aa")[0].contains_key("body"));
    // The worker's directory is private while it works.
    let own: Vec<PathBuf> = std::fs::read_dir(&lab.tmp).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(own.len(), 1, "{own:?}");
    let name = own[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("evochess-worker-") && !name.contains(&lab.worker.id().to_string()), "{name}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&own[0]).unwrap().permissions().mode() & 0o777, 0o700);
    }
    let dir = lab.dir.clone();
    lab.finish();
    for written in ["escape-0.toml", "up-0.toml", "escape-1.toml", "up-1.toml"] {
        assert!(!dir.join(written).exists(), "{written} written outside the worker's directory");
    }
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn poison_specs_and_tasks_go_to_the_dead_letter_stream_and_the_worker_serves_on() {
    let mut lab = Lab::start("poison", "", &["--idle-exit", "4"]);
    // Before: an engine whose program the spec does not sign panicked the worker.
    let unsigned = spec_of(vec![engine("a", "evochess", &[], None), engine("b", "stockfish", &[], None)], None);
    lab.forge("match-0000000000000001", Some(&unsigned), &[task(0, 0, 1)]);
    lab.forge("match-0000000000000002", Some("{not json"), &[task(0, 0, 1)]);
    lab.forge("match-0000000000000003", Some(&spec_with(&[])), &[task(0, 0, 7), task(1, 1, 1), "[]".into()]);
    lab.wait_for(LIMIT, "five dead letters", |l| l.dead().len() >= 5);
    lab.assert_alive();
    let reasons: Vec<String> = lab.dead().iter().map(|d| d["reason"].clone()).collect();
    for needle in ["no signature", "unreadable run spec", "engines 0 v 7", "engines 1 v 1", "not a games task"] {
        assert!(reasons.iter().any(|r| r.contains(needle)), "{needle}: {reasons:?}");
    }
    // Each coordinator hears of its task.
    let told = lab.answers("match-0000000000000001");
    assert!(told.len() == 1 && told[0]["dead"].contains("no signature"), "{told:?}");
    lab.forge("match-0000000000000004", Some(&spec_with(&[])), &[task(0, 0, 1)]);
    lab.wait_for(LIMIT, "the valid task's answer", |l| !l.answers("match-0000000000000004").is_empty());
    let log = lab.finish();
    assert!(log.contains("dead-letter"), "{log}");
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_task_delivered_too_often_goes_to_the_dead_letter_stream() {
    let mut lab = Lab::start("deliveries", "", &["--idle-exit", "4", "--visibility", "1", "--max-deliveries", "1"]);
    let run = "match-0000000000000005";
    lab.forge(run, Some(&spec_with(&[])), &[task(0, 0, 1)]);
    // A worker that took the task and died: it never acknowledges.
    let _: redis::streams::StreamReadReply = lab
        .con
        .xread_options(
            &[format!("{NS}:run:{run}:tasks")],
            &[">"],
            &redis::streams::StreamReadOptions::default().group("workers", "ghost").count(1),
        )
        .unwrap();
    lab.wait_for(LIMIT, "the dead letter", |l| !l.dead().is_empty());
    let dead = lab.dead();
    assert!(dead[0]["reason"].contains("delivered 2 times"), "{dead:?}");
    assert!(lab.answers(run)[0]["dead"].contains("max-deliveries"));
    lab.finish();
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn options_outside_the_worker_allow_list_are_refused() {
    let dir = scratch("untrusted", "allow-tb");
    let tb = dir.join("syzygy");
    std::fs::create_dir_all(&tb).unwrap();
    let engines = format!("[engines.evochess.options]\nSyzygyPath = {{ dirs = [{tb:?}] }}\nHash = {{ max = 64 }}\n");
    let mut lab = Lab::start("allow", &engines, &["--idle-exit", "4"]);
    let too_many_threads = (std::thread::available_parallelism().unwrap().get() + 1).to_string();
    let bad: Vec<Vec<(&str, &str)>> = vec![
        vec![("Hash", "65")],
        vec![("hash", "999999")],
        vec![("Threads", too_many_threads.as_str())],
        vec![("SyzygyPath", "/etc")],
        vec![("BookFile", "/etc/passwd")],
        vec![("ParamsFile", "/proc/self/environ")],
        vec![("Hash", "16\ngo infinite")],
    ];
    for (i, options) in bad.iter().enumerate() {
        lab.forge(&format!("match-10000000000000{i:02}"), Some(&spec_with(options)), &[task(0, 0, 1)]);
    }
    lab.wait_for(LIMIT, "a dead letter for each", |l| l.dead().len() >= bad.len());
    let reasons: Vec<String> = lab.dead().iter().map(|d| d["reason"].clone()).collect();
    for needle in
        ["\"Hash\" = 65", "\"hash\" = 999999", "\"Threads\"", "\"/etc\"", "\"BookFile\"", "\"ParamsFile\"", "control"]
    {
        assert!(reasons.iter().any(|r| r.contains(needle)), "{needle}: {reasons:?}");
    }
    // Tablebases for adjudication only from the file's `tb_dirs` (none here).
    lab.forge(
        "match-2000000000000000",
        Some(&spec_of(vec![engine("a", "evochess", &[], None), engine("b", "evochess", &[], None)], Some(&tb))),
        &[task(0, 0, 1)],
    );
    lab.wait_for(LIMIT, "the tablebase dead letter", |l| l.dead().len() > bad.len());
    assert!(lab.dead().last().unwrap()["reason"].contains("tb_dirs"));
    let good = spec_with(&[("SyzygyPath", tb.to_str().unwrap()), ("Hash", "64"), ("Threads", "1")]);
    lab.forge("match-3000000000000000", Some(&good), &[task(0, 0, 1)]);
    lab.wait_for(LIMIT, "the allowed task's answer", |l| !l.answers("match-3000000000000000").is_empty());
    assert!(lab.answers("match-3000000000000000")[0].contains_key("body"));
    lab.finish();
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_coordinator_whose_task_is_dead_lettered_stops_with_the_reason() {
    // Hash 16 is valid for the engine (the coordinator's own check of its options passes) but
    // above this worker's cap, so only the worker refuses it.
    let mut lab = Lab::start("coordinator", "[engines.evochess.options]\nHash = { max = 8 }\n", &[]);
    let engine = engine_binary();
    let cmd = format!("cmd={}", engine.display());
    let out = Command::new(TUNER)
        .args(["match", "-engine", "name=a", &cmd, "option.Hash=16", "-engine", "name=b", &cmd])
        .args(["-each", "nodes=50", "-games", "2", "-maxmoves", "15", "-srand", "3"])
        .args(["-pgnout", lab.dir.join("games.pgn").to_str().unwrap(), "-broker", &lab.redis.url])
        .args(["-broker-secret", redis_server::secret()])
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let err = text(&out.stderr);
    // Before: the worker passed the option on, the engine ignored it, and the match "finished".
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("dead-letter") && err.contains("Hash"), "{err}");
    assert_eq!(games_in(&lab.dir.join("games.pgn")), 0);
    lab.assert_alive();
    assert!(lab.log().contains("dead-letter"), "{}", lab.log());
}

/// A run id a forger might try: a path, a traversal, spaces and controls, a long one, or a
/// well-formed one.
fn forged_id(rng: &mut StdRng, dir: &Path) -> String {
    match rng.random_range(0..6) {
        0 => dir.join(format!("out-{}", rng.random::<u16>())).display().to_string(),
        1 => format!("../../out-{}", rng.random::<u16>()),
        2 => format!("a b\n\x1b[2J{}", rng.random::<u16>()),
        3 => "x".repeat(rng.random_range(65..200)),
        4 => (0..rng.random_range(1..40)).map(|_| rng.random_range(' '..='~')).collect(),
        _ => format!("match-{:016x}", rng.random::<u64>()),
    }
}

/// A spec no worker may run.
fn forged_spec(rng: &mut StdRng) -> String {
    let evo = |o: &[(&str, &str)]| engine("x", "evochess", o, None);
    match rng.random_range(0..8) {
        0 => spec_of(vec![evo(&[]), engine("y", "stockfish", &[], None)], None),
        1 => spec_with(&[("Hash", "999999")]),
        2 => spec_with(&[("Threads", "100000")]),
        3 => spec_with(&[("SyzygyPath", "/")]),
        4 => spec_with(&[("Hash", "1\nquit")]),
        5 => spec_of(vec![evo(&[])], None),
        6 => (0..rng.random_range(0..300)).map(|_| rng.random::<char>()).collect(),
        _ => json!({"kind": "fitness", "positions": [{"fen": "garbage"}], "signatures": {}}).to_string(),
    }
}

/// A task body no worker may run (in any spec).
fn forged_task(rng: &mut StdRng) -> String {
    match rng.random_range(0..5) {
        0 => task(rng.random(), rng.random_range(2..usize::MAX), 0),
        1 => task(rng.random(), 0, 0),
        2 => json!({"unit": 1, "round": 1, "opening_index": 0, "games": [], "opening": {"fen": null, "moves": []}})
            .to_string(),
        3 => (0..rng.random_range(0..200)).map(|_| rng.random::<char>()).collect(),
        _ => json!({"unit": -1, "games": "all"}).to_string(),
    }
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_worker_survives_a_thousand_forged_messages_and_answers_every_valid_task() {
    let mut lab = Lab::start("fuzz", "", &["--idle-exit", "6"]);
    let mut rng = StdRng::seed_from_u64(48);
    let valid = "match-00000000000000ff";
    let dir = lab.dir.clone();
    // 100 forged runs of 5 tasks (random ids, specs, tasks) and 500 forged tasks in a valid
    // run's stream, interleaved with its 100 valid tasks.
    lab.forge(valid, Some(&spec_with(&[("Hash", "8")])), &[]);
    let tasks_key = format!("{NS}:run:{valid}:tasks");
    let mut forged = 0;
    let mut sent = 0u64;
    for round in 0..100u64 {
        let run = forged_id(&mut rng, &dir);
        let spec = if rng.random_bool(0.7) { forged_spec(&mut rng) } else { spec_with_params() };
        let bodies: Vec<String> =
            (0..5).map(|_| if rng.random_bool(0.5) { task(0, 0, 1) } else { forged_task(&mut rng) }).collect();
        // A well-formed id with a valid spec and tasks would be valid work: make those tasks bad.
        let bodies = if spec == spec_with_params() && tuner::broker::valid_run_id(&run) {
            (0..5).map(|_| forged_task(&mut rng)).collect()
        } else {
            bodies
        };
        lab.forge(&run, Some(&spec), &bodies);
        forged += bodies.len();
        for _ in 0..5 {
            let body = forged_task(&mut rng);
            let _: String = lab.con.xadd(&tasks_key, "*", &[("task", "forged"), ("body", body.as_str())]).unwrap();
            forged += 1;
        }
        let (id, body) = (format!("u{round}"), task(round, 0, 1));
        let mac = redis_server::key().sign(Purpose::Task, valid, &id, body.as_bytes());
        let _: String =
            lab.con.xadd(&tasks_key, "*", &[("task", id.as_str()), ("body", body.as_str()), ("mac", &mac)]).unwrap();
        sent += 1;
    }
    assert_eq!((forged, sent), (1000, 100));
    let bodies = |l: &mut Lab| l.answers(valid).into_iter().filter(|a| a.contains_key("body")).collect::<Vec<_>>();
    lab.wait_for(Duration::from_secs(600), "1000 dead letters and 100 answers", |l| {
        l.dead().len() >= 1000 && bodies(l).len() >= 100
    });
    lab.assert_alive();
    let answers = bodies(&mut lab);
    assert_eq!(answers.len(), 100);
    let mut units: Vec<&str> = answers.iter().map(|a| a["task"].as_str()).collect();
    units.sort_unstable();
    units.dedup();
    assert!(units.len() == 100 && units.iter().all(|t| t.starts_with('u')), "{units:?}");
    assert_eq!(lab.dead().len(), 1000);
    // The valid run's coordinator hears of the 500 forged tasks in its stream, and of nothing else.
    let told = lab.answers(valid).into_iter().filter(|a| a.contains_key("dead")).count();
    assert_eq!(told, 500);
    lab.finish();
    // Nothing was written beside the worker's directory (the forged ids name files here).
    let mut here: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    here.sort();
    assert_eq!(here, ["engines.toml", "tmp", "worker.log"]);
    assert!(!repo().join("../out-1").exists());
}

/// A two-game task (the runner waits `wait_ms` before a worker's second game).
fn pair_task(unit: u64) -> String {
    json!({"unit": unit, "round": 1, "opening_index": 0, "games": [[0, 1], [1, 0]],
           "opening": {"fen": null, "moves": []}})
    .to_string()
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn task_limits_beyond_the_workers_caps_are_refused_naming_the_field_and_the_cap() {
    let mut lab = Lab::start("caps", "", &["--idle-exit", "4", "--visibility", "1", "--max-deliveries", "1"]);
    let with = |patch: &dyn Fn(&mut Value)| {
        let mut spec: Value = serde_json::from_str(&spec_with(&[])).unwrap();
        patch(&mut spec);
        spec.to_string()
    };
    // Before: `wait_ms` of 127 years held the task forever, its heartbeat renewing the claim, so
    // neither a takeover nor --max-deliveries ever ended it.
    let forged: Vec<(String, &str)> = vec![
        (with(&|s| s["wait_ms"] = json!(4_000_000_000_000u64)), "wait_ms = 4000000000000"),
        (with(&|s| s["stall_timeout_ms"] = json!(u64::MAX)), "stall_timeout_ms"),
        (with(&|s| s["engines"][1]["limits"]["nodes"] = json!(1u64 << 60)), "limits.nodes"),
        (with(&|s| s["engines"][0]["limits"]["depth"] = json!(100_000)), "limits.depth"),
        (with(&|s| s["engines"][0]["limits"]["movetime_ms"] = json!(1u64 << 50)), "limits.movetime_ms"),
        (
            with(&|s| s["engines"][1]["limits"]["clock"] = json!({"moves": null, "base_ms": 1u64 << 50, "inc_ms": 0})),
            "limits.clock",
        ),
    ];
    for (i, (spec, _)) in forged.iter().enumerate() {
        lab.forge(&format!("match-40000000000000{i:02}"), Some(spec), &[pair_task(0)]);
    }
    lab.wait_for(Duration::from_secs(90), "a dead letter for each forged spec", |l| l.dead().len() >= forged.len());
    lab.assert_alive();
    let dead = lab.dead();
    for (i, (_, field)) in forged.iter().enumerate() {
        let run = format!("match-40000000000000{i:02}");
        let letter = dead.iter().find(|d| d["run"] == run).unwrap_or_else(|| panic!("{run}: {dead:?}"));
        let reason = &letter["reason"];
        assert!(reason.contains(field) && reason.contains("cap"), "{field}: {reason}");
        // The coordinator hears of it.
        assert!(lab.answers(&run)[0]["dead"].contains(field), "{run}");
    }
    // Limits within the caps are served.
    let fine = with(&|s| s["wait_ms"] = json!(10));
    lab.forge("match-5000000000000000", Some(&fine), &[pair_task(0)]);
    lab.wait_for(LIMIT, "the valid task's answer", |l| !l.answers("match-5000000000000000").is_empty());
    assert!(lab.answers("match-5000000000000000")[0].contains_key("body"));
    lab.finish();
}

/// Sends `signal` (`TERM`, `INT`) to process `pid` with kill(1).
fn send(signal: &str, pid: u32) {
    let status = Command::new("kill").arg(format!("-{signal}")).arg(pid.to_string()).status().unwrap();
    assert!(status.success(), "kill -{signal} {pid}");
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_worker_stopped_by_sigterm_or_sigint_removes_its_directory() {
    for signal in ["TERM", "INT"] {
        let mut lab = Lab::start(&format!("signal-{signal}"), "", &[]);
        // Mid-task: the spec's params texts are files in the worker's directory, and the
        // second game waits (`wait_ms`) when the signal comes.
        let mut spec: Value = serde_json::from_str(&spec_with_params()).unwrap();
        spec["wait_ms"] = json!(20_000);
        let run = "match-6000000000000000";
        lab.forge(run, Some(&spec.to_string()), &[pair_task(0)]);
        let own = |l: &Lab| std::fs::read_dir(&l.tmp).unwrap().map(|e| e.unwrap().path()).collect::<Vec<_>>();
        lab.wait_for(LIMIT, "the params files in the worker's directory", |l| {
            own(l).first().is_some_and(|d| std::fs::read_dir(d).is_ok_and(|f| f.count() == 2))
        });
        // Before: the process died at once and left `evochess-worker-*` behind.
        send(signal, lab.worker.id());
        let started = Instant::now();
        let status = loop {
            if let Some(s) = lab.worker.try_wait().unwrap() {
                break s;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "SIG{signal}: the worker still runs: {}", lab.log());
            thread::sleep(Duration::from_millis(50));
        };
        let log = lab.log();
        assert!(own(&lab).is_empty(), "SIG{signal}: left behind: {:?}; {status:?}", own(&lab));
        assert!(status.success(), "SIG{signal}: {status:?}: {log}");
        assert!(log.contains(&format!("SIG{signal}")), "{log}");
    }
}

/// Lines of `text` that begin with `forged line`: lines a forger added.
fn forged_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.contains("forged line")).filter(|l| l.trim_start().starts_with("forged line")).collect()
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn control_characters_from_the_broker_never_make_a_line_of_their_own() {
    // The worker's side: a spec's kind (echoed in the dead letter's reason and the worker's log).
    let mut lab = Lab::start("controls", "", &["--idle-exit", "4"]);
    let spec = json!({"kind": "x\nforged line\u{1b}[2J", "signatures": {}}).to_string();
    lab.forge("match-7000000000000000", Some(&spec), &[task(0, 0, 1)]);
    lab.wait_for(LIMIT, "the dead letter", |l| !l.dead().is_empty());
    let reason = lab.dead()[0]["reason"].clone();
    // Before: the kind went into the reason as it came, newline and escape sequence included.
    assert!(reason.contains("x\\nforged line\\x1b[2J") && !reason.contains('\n'), "{reason:?}");
    let log = lab.finish();
    assert!(forged_lines(&log).is_empty(), "{log}");

    // The coordinator's side: a worker's name and its dead letter's reason (a forged results
    // entry for the coordinator's own task).
    let redis = Redis::start();
    let mut con = redis.connect();
    let dir = scratch("untrusted", "controls-coordinator");
    let cmd = format!("cmd={}", engine_binary().display());
    let coordinator = Command::new(TUNER)
        .args(["match", "-engine", "name=a", &cmd, "-engine", "name=b", &cmd])
        .args(["-each", "nodes=50", "-games", "2", "-maxmoves", "15"])
        .args(["-pgnout", dir.join("games.pgn").to_str().unwrap(), "-broker", &redis.url])
        .args(["-broker-secret", redis_server::secret()])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let (run, entry) = loop {
        let runs: Vec<String> = con.smembers(format!("{NS}:runs")).unwrap();
        if let Some(run) = runs.first() {
            let tasks: redis::streams::StreamRangeReply = con.xrange_all(format!("{NS}:run:{run}:tasks")).unwrap();
            if let Some(t) = tasks.ids.first() {
                break (run.clone(), t.id.clone());
            }
        }
        assert!(started.elapsed() < LIMIT, "the coordinator published no task");
        thread::sleep(Duration::from_millis(50));
    };
    // Signed: a note that does not verify is only logged (tested below).
    let reason = "bad\nforged line from the reason\u{1b}[31m";
    let mac = redis_server::key().sign(Purpose::Dead, &run, "u0", format!("{entry}\n{reason}").as_bytes());
    let fields = [
        ("task", "u0"),
        ("entry", entry.as_str()),
        ("worker", "w\r\nforged line from the name"),
        ("dead", reason),
        ("mac", mac.as_str()),
    ];
    let _: String = con.xadd(format!("{NS}:run:{run}:results"), "*", &fields).unwrap();
    let out = coordinator.wait_with_output().unwrap();
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    // Before: both forged texts began lines of the coordinator's error.
    assert!(err.contains("dead-letter") && err.contains("bad\\nforged line from the reason\\x1b[31m"), "{err}");
    assert!(err.contains("w\\r\\nforged line from the name"), "{err}");
    assert!(forged_lines(&err).is_empty(), "{err}");
}
