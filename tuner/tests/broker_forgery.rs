//! Forged answers and specs (issue 91, item 1). Whoever can write to Redis could make a
//! coordinator count `"moves": []` as a mate and a worker run any spec; now answers, specs and
//! tasks carry an HMAC of the shared secret file, and a games answer is replayed move by move.
//!
//! The bulk drives the library's acceptance functions (fast, seeded): 1,000 answers each wrong
//! in one named way and 1,000 forged specs are all refused, while 1,000 valid answers, played by
//! the arena's own game loop, and 1,000 valid specs are all accepted. One end-to-end test runs
//! the real binaries against a real redis-server while a forger writes into the live run.

mod common;
#[path = "common/redis_server.rs"]
mod redis_server;

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    process::{Command, Stdio},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    thread,
    time::{Duration, Instant},
};

use arena::{
    adjudicate::{AdjudicationConfig, DrawRule, MaxMovesResult, MaxMovesRule, ResignRule, material},
    engine::{
        client::{EngineClient, Protocol},
        transport::{ScriptReply, ScriptTransport, Timeouts},
        uci::UciClient,
    },
    game::{GameRecord, GameSetup, play_game},
    openings::Opening,
    outcome::{GameOutcome, GameResult, Termination},
    tc::SearchLimits,
};
use common::{TUNER, engine_binary, scratch, text};
use rand::{Rng, SeedableRng, rngs::StdRng, seq::IndexedRandom};
use redis::Commands;
use redis_server::Redis;
use shakmaty::{CastlingMode, Chess, Color, Position, fen::Fen, uci::UciMove};
use tuner::broker::{
    coordinator::MAX_ANSWER_BYTES,
    games::Judge,
    mac::{Purpose, Secret},
    wire::{GamesAnswer, GamesSpec, GamesTask, RemoteEngine, spec_json},
    worker::check_spec,
};

const RUN: &str = "match-0000000000000091";

fn secret(c: char) -> Secret {
    Secret::from_text(&c.to_string().repeat(48)).unwrap()
}

/// The position a UCI `position` command sets up.
fn position_of(cmd: &str) -> Chess {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let mut pos = match words.get(1) {
        Some(&"fen") => {
            words[2..moves_at].join(" ").parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
        }
        _ => Chess::default(),
    };
    for m in words.iter().skip(moves_at + 1) {
        let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    pos
}

/// A scripted UCI engine playing seeded random legal moves, scoring the material balance
/// (so the resign and draw rules fire now and then); one move in 400 is illegal.
fn random_engine(seed: u64) -> EngineClient {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Chess::default();
    let t = ScriptTransport::new(move |cmd| {
        let lines: Vec<String> = match cmd.split_whitespace().next() {
            Some("uci") => vec!["uciok".into()],
            Some("isready") => vec!["readyok".into()],
            Some("position") => {
                pos = position_of(cmd);
                vec![]
            }
            Some("go") => {
                let us = pos.turn();
                let balance = material(&pos, us) as i32 - material(&pos, !us) as i32;
                let score = 100 * balance + rng.random_range(-25..=25);
                let m = if rng.random_ratio(1, 400) {
                    "a1a1".to_string()
                } else {
                    let legal = pos.legal_moves();
                    legal
                        .choose(&mut rng)
                        .map_or("0000".into(), |m| m.to_uci(shakmaty::CastlingMode::Standard).to_string())
                };
                vec![format!("info depth 1 score cp {score}"), format!("bestmove {m}")]
            }
            _ => vec![],
        };
        ScriptReply::Lines(lines)
    });
    let to = Timeouts { start: Duration::from_secs(5), ping: Duration::from_secs(5), quit: Duration::ZERO };
    EngineClient::Uci(UciClient::start("random", Box::new(t), to).unwrap())
}

fn spec() -> GamesSpec {
    let engine = |name: &str| RemoteEngine {
        name: name.into(),
        program: "evochess".into(),
        proto: Protocol::Uci,
        options: vec![],
        limits: SearchLimits { depth: Some(1), ..SearchLimits::default() },
        params: None,
        restart: false,
    };
    GamesSpec {
        engines: vec![engine("a"), engine("b")],
        adjudication: AdjudicationConfig {
            draw: Some(DrawRule { movenumber: 30, movecount: 3, score: 40 }),
            resign: Some(ResignRule { movecount: 3, score: 500, twosided: false }),
            maxmoves: Some(MaxMovesRule { moves: 70, result: MaxMovesResult::Material }),
            ..AdjudicationConfig::default()
        },
        stall_timeout_ms: 5000,
        start_timeout_ms: 5000,
        ping_timeout_ms: 5000,
        quit_timeout_ms: 0,
        wait_ms: 0,
        signatures: BTreeMap::from([("evochess".to_string(), "bench 1".to_string())]),
    }
}

/// Task `i`: a game pair from a few random plies, or from an endgame (mates, stalemates,
/// insufficient material and the 50-move rule happen there).
fn task(i: u64, rng: &mut StdRng) -> GamesTask {
    const ENDGAMES: [&str; 4] = [
        "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",
        "8/8/8/3k4/8/8/2R1K3/8 b - - 0 1",
        "6k1/8/8/8/8/8/6PP/3R2K1 w - - 0 1",
        "8/2b5/8/4k3/8/2N5/4K3/8 w - - 90 1",
    ];
    let fen = rng.random_ratio(1, 3).then(|| ENDGAMES[rng.random_range(0..ENDGAMES.len())].to_string());
    let mut pos = Opening { fen: fen.clone(), moves: vec![] }.start_position().unwrap();
    let mut moves = Vec::new();
    for _ in 0..rng.random_range(0..5) {
        let legal = pos.legal_moves();
        let Some(m) = legal.choose(rng).copied() else { break };
        moves.push(m.to_uci(shakmaty::CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
    }
    GamesTask { unit: i, round: 1, opening_index: i, games: vec![(0, 1), (1, 0)], opening: Opening { fen, moves } }
}

/// The task's games, played by the arena's game loop as a worker's `UnitPlayer` plays them.
fn play(spec: &GamesSpec, task: &GamesTask, seed: u64) -> GamesAnswer {
    let mut games = Vec::new();
    for (k, &(w, b)) in task.games.iter().enumerate() {
        let mut white = random_engine(seed * 2 + k as u64);
        let mut black = random_engine(seed * 2 + k as u64 + 1_000_000);
        let setup = GameSetup {
            white_name: &spec.engines[w].name,
            black_name: &spec.engines[b].name,
            white_limits: &spec.engines[w].limits,
            black_limits: &spec.engines[b].limits,
            opening: &task.opening,
            adjudication: &spec.adjudication,
            tablebase: None,
            stall_timeout: Duration::from_secs(5),
            stop: None,
        };
        let mut g = play_game(&mut white, &mut black, &setup);
        (g.white_index, g.black_index, g.round, g.opening_index) = (w, b, task.round, task.opening_index);
        games.push(g);
    }
    GamesAnswer { games, signatures: spec.signatures.clone() }
}

/// One way to be wrong, named as the issue lists them.
const WAYS: [&str; 6] =
    ["illegal move", "contradicted result", "wrong MAC", "foreign task", "oversize", "control characters"];

/// `answer` to task `id`, made wrong in way `way`: the (task id, body, MAC) a forger writes.
fn forge(
    way: usize,
    id: &str,
    task: &GamesTask,
    answer: &GamesAnswer,
    key: &Secret,
    rng: &mut StdRng,
) -> (String, String, Option<String>) {
    let signed = |task: &str, a: &GamesAnswer| {
        let body = serde_json::to_string(a).unwrap();
        let mac = key.sign(Purpose::Answer, RUN, task, body.as_bytes());
        (task.to_string(), body, Some(mac))
    };
    let mut a = answer.clone();
    match way {
        0 => {
            // One move replaced by one that is not legal where it is played.
            let Some(gi) = (0..a.games.len()).find(|&g| !a.games[g].moves.is_empty()) else {
                // No move to replace: a move that is never legal, added.
                let nothing = arena::game::MoveRecord {
                    uci: "a1a1".into(),
                    san: "a1a1".into(),
                    time_ms: 0,
                    score: None,
                    depth: None,
                    latency_ms: None,
                };
                a.games[0].moves.push(nothing);
                return signed(id, &a);
            };
            let g = &mut a.games[gi];
            let k = rng.random_range(0..g.moves.len());
            let mut pos = task.opening.start_position().unwrap();
            for m in task.opening.moves.iter().chain(g.moves[..k].iter().map(|m| &m.uci)) {
                let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
                pos.play_unchecked(m);
            }
            let squares: Vec<String> = (0..64).map(|s| shakmaty::Square::new(s).to_string()).collect();
            let illegal = loop {
                let uci = format!("{}{}", squares.choose(rng).unwrap(), squares.choose(rng).unwrap());
                if uci.parse::<UciMove>().is_ok_and(|u| u.to_move(&pos).is_err()) {
                    break uci;
                }
            };
            g.moves[k].uci = illegal;
            signed(id, &a)
        }
        1 => {
            // Another result; every move as played.
            let pick = rng.random_range(0..a.games.len());
            let g = &mut a.games[pick];
            let others: Vec<GameOutcome> = [GameOutcome::WhiteWins, GameOutcome::BlackWins, GameOutcome::Draw]
                .into_iter()
                .filter(|o| *o != g.result.outcome)
                .collect();
            let outcome = *others.choose(rng).unwrap();
            g.result = if rng.random_bool(0.5) {
                GameResult { outcome, ..g.result.clone() }
            } else {
                let reason = match outcome.winner() {
                    Some(Color::White) => "White mates",
                    Some(Color::Black) => "Black mates",
                    None => "Draw by stalemate",
                };
                GameResult::new(outcome, Termination::Normal, reason)
            };
            signed(id, &a)
        }
        2 => {
            let (task, body, mac) = signed(id, &a);
            let mac = match rng.random_range(0..4) {
                0 => None,
                1 => Some(secret('x').sign(Purpose::Answer, RUN, id, body.as_bytes())),
                2 => Some(key.sign(Purpose::Task, RUN, id, body.as_bytes())),
                _ => {
                    let mut m = mac.unwrap().into_bytes();
                    let i = rng.random_range(0..m.len());
                    m[i] = if m[i] == b'0' { b'1' } else { b'0' };
                    Some(String::from_utf8(m).unwrap())
                }
            };
            (task, body, mac)
        }
        3 => match rng.random_range(0..3) {
            // An answer of another run, of a task this run does not await, or of another task.
            0 => {
                let body = serde_json::to_string(&a).unwrap();
                let mac = key.sign(Purpose::Answer, "match-00000000000000ff", id, body.as_bytes());
                (id.to_string(), body, Some(mac))
            }
            1 => signed(&format!("u{}", 1_000_000 + rng.random_range(0..1000)), &a),
            _ => {
                let n: u64 = id[1..].parse().unwrap();
                signed(&format!("u{}", (n + 1) % 1000), &a)
            }
        },
        4 => {
            let (task, mut body, _) = signed(id, &a);
            // Whitespace a JSON reader skips: the answer itself is valid.
            body.push_str(&" ".repeat(MAX_ANSWER_BYTES + 1 - body.len()));
            let mac = key.sign(Purpose::Answer, RUN, &task, body.as_bytes());
            (task, body, Some(mac))
        }
        _ => {
            let pick = rng.random_range(0..a.games.len());
            let g = &mut a.games[pick];
            g.result.reason.push_str(if rng.random_bool(0.5) { "\nScore of a vs b: 99 - 0 - 0" } else { "\u{1b}[2J" });
            signed(id, &a)
        }
    }
}

/// What a refusal of each way must say.
fn named(way: usize, why: &str) -> bool {
    match way {
        // A game over before its first move (a terminal opening) has no legal move at all.
        0 => why.contains(") is illegal in ") || why.contains(") after the game ended"),
        1 => why.contains("contradicted"),
        2 => why.contains("MAC"),
        3 => why.contains("MAC") || why.contains("not awaited") || why.contains("not of the task's"),
        4 => why.contains("bytes"),
        _ => why.contains("control characters"),
    }
}

#[test]
fn a_thousand_forged_answers_are_refused_and_a_thousand_valid_ones_accepted() {
    let mut rng = StdRng::seed_from_u64(91);
    let key = secret('k');
    let spec = spec();
    let tasks: Vec<GamesTask> = (0..1000).map(|i| task(i, &mut rng)).collect();
    let awaited: HashMap<String, GamesTask> = tasks.iter().map(|t| (format!("u{}", t.unit), t.clone())).collect();
    let judge = Judge { secret: &key, run: RUN, spec: &spec, awaited: &awaited, tb: None };
    let mut endings: HashMap<String, usize> = HashMap::new();
    let mut valid = Vec::new();
    for t in &tasks {
        let answer = play(&spec, t, t.unit);
        for g in &answer.games {
            let ending = g.result.reason.split([':', ',']).next().unwrap().to_string();
            *endings.entry(ending).or_default() += 1;
        }
        let id = format!("u{}", t.unit);
        let body = serde_json::to_string(&answer).unwrap();
        let mac = key.sign(Purpose::Answer, RUN, &id, body.as_bytes());
        let accepted = judge.accept(&id, &body, Some(&mac));
        assert!(accepted.is_ok(), "valid answer to {id} refused: {}\n{body}", accepted.unwrap_err());
        valid.push(answer);
    }
    // The valid games end in many ways, so the replay's rules and adjudications are exercised.
    for ending in ["mates", "resigns (adjudication)", "Maximum moves reached", "makes an illegal move", "Draw by"] {
        assert!(endings.keys().any(|e| e.contains(ending)), "no game ended with {ending:?}: {endings:?}");
    }
    let mut refused = [0usize; WAYS.len()];
    for i in 0..1000 {
        let way = i % WAYS.len();
        let t = &tasks[i];
        let id = format!("u{}", t.unit);
        let (task_id, body, mac) = forge(way, &id, t, &valid[i], &key, &mut rng);
        match judge.accept(&task_id, &body, mac.as_deref()) {
            Ok(_) => panic!("a forged answer ({}) to {id} was accepted:\n{body}", WAYS[way]),
            Err(why) => {
                assert!(named(way, &why), "{}: refused for another reason: {why}", WAYS[way]);
                refused[way] += 1;
            }
        }
    }
    assert_eq!(refused.iter().sum::<usize>(), 1000, "{refused:?}");
    eprintln!("valid endings: {endings:?}\nrefused by way: {:?}", WAYS.iter().zip(refused).collect::<Vec<_>>());
}

#[test]
fn a_thousand_forged_specs_are_refused_and_a_thousand_valid_ones_read() {
    let mut rng = StdRng::seed_from_u64(92);
    let key = secret('k');
    let base = spec();
    let (mut served, mut refused) = (0, 0);
    for i in 0..2000u64 {
        let run = format!("match-{i:016x}");
        let mut s = base.clone();
        s.engines[1].limits.nodes = Some(rng.random_range(1..100_000));
        let json = spec_json("games", &s);
        let mac = key.sign(Purpose::Spec, &run, "", json.as_bytes());
        if i % 2 == 0 {
            check_spec(&key, &run, json.as_bytes(), Some(&mac)).unwrap();
            served += 1;
            continue;
        }
        // Missing, another run's, another secret's, over an altered spec, a task's, cut short.
        let (text, mac) = match rng.random_range(0..6) {
            0 => (json.clone(), None),
            1 => (json.clone(), Some(key.sign(Purpose::Spec, "match-00000000000000ff", "", json.as_bytes()))),
            2 => (json.clone(), Some(secret('x').sign(Purpose::Spec, &run, "", json.as_bytes()))),
            3 => (json.replacen("\"depth\":1", "\"depth\":2", 1), Some(mac)),
            4 => (json.clone(), Some(key.sign(Purpose::Task, &run, "", json.as_bytes()))),
            _ => (json.clone(), Some(mac[..rng.random_range(0..64)].to_string())),
        };
        let why = check_spec(&key, &run, text.as_bytes(), mac.as_deref()).expect_err("a forged spec was read");
        assert!(why.contains("spec is refused") && why.contains("MAC"), "{why}");
        refused += 1;
    }
    assert_eq!((served, refused), (1000, 1000));
}

/// A forged answer to `task`: every game a mate in no moves, with a score line in its reason.
fn mate_in_zero(task: &GamesTask) -> String {
    let games: Vec<GameRecord> = task
        .games
        .iter()
        .map(|&(w, b)| GameRecord {
            white: ["a", "b"][w].into(),
            black: ["a", "b"][b].into(),
            white_index: w,
            black_index: b,
            round: task.round,
            game_number: 0,
            opening_index: task.opening_index,
            start_fen: task.opening.fen.clone(),
            opening_san: vec![],
            opening_uci: vec![],
            moves: vec![],
            result: GameResult::new(
                if w == 0 { GameOutcome::WhiteWins } else { GameOutcome::BlackWins },
                Termination::Normal,
                "a mates\nScore of a vs b: 99 - 0 - 0",
            ),
            final_fen: String::new(),
            white_tc: "-".into(),
            black_tc: "-".into(),
            started_at: 0,
            duration_ms: 0,
            warnings: Vec::new(),
        })
        .collect();
    serde_json::to_string(&GamesAnswer { games, signatures: BTreeMap::new() }).unwrap()
}

/// `(Result tag, movetext)` of each game of a PGN file, sorted (units finish in any order).
fn pgn_games(path: &std::path::Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out: Vec<(String, String)> = text
        .split("[Event ")
        .skip(1)
        .map(|g| {
            let result = g.lines().find(|l| l.starts_with("[Result ")).unwrap_or_default().to_string();
            let moves: String = g.lines().filter(|l| !l.starts_with('[')).collect::<Vec<_>>().join(" ");
            (result, moves.trim().to_string())
        })
        .collect();
    out.sort();
    out
}

#[test]
#[ignore = "needs /usr/bin/redis-server"]
fn a_forger_writing_into_a_live_run_changes_nothing() {
    let dir = scratch("forgery", "live");
    let redis = Redis::start();
    let mut con = redis::Client::open(redis.url.as_str()).unwrap().get_connection().unwrap();
    let engine = engine_binary();
    let engines = dir.join("engines.toml");
    std::fs::write(&engines, format!("[engines.evochess]\ncmd = {engine:?}\n")).unwrap();

    // 30 runs whose specs a worker would serve but for their MACs: none, or another secret's.
    let signature = tuner::broker::signature::bench_signature(&engine, &[], None);
    let mut forged_spec = spec();
    forged_spec.signatures = BTreeMap::from([("evochess".to_string(), signature)]);
    let forged_json = spec_json("games", &forged_spec);
    let forged_runs: Vec<String> = (0..30).map(|i| format!("match-f0{i:014x}")).collect();
    let other = secret('x');
    for (i, run) in forged_runs.iter().enumerate() {
        let key = |what: &str| format!("evochess:run:{run}:{what}");
        let _: () = con.set(key("spec"), &forged_json).unwrap();
        if i % 2 == 1 {
            let _: () = con.set(key("spec_mac"), other.sign(Purpose::Spec, run, "", forged_json.as_bytes())).unwrap();
        }
        for (k, group) in [(key("tasks"), "workers"), (key("results"), "coordinator")] {
            let _: () =
                redis::cmd("XGROUP").arg("CREATE").arg(k).arg(group).arg("0").arg("MKSTREAM").query(&mut con).unwrap();
        }
        let body = serde_json::to_string(&task(0, &mut StdRng::seed_from_u64(1))).unwrap();
        let mac = other.sign(Purpose::Task, run, "u0", body.as_bytes());
        let _: String =
            con.xadd(key("tasks"), "*", &[("task", "u0"), ("body", body.as_str()), ("mac", mac.as_str())]).unwrap();
        let _: () = con.sadd("evochess:runs", run).unwrap();
    }

    let log = std::fs::File::create(dir.join("worker.log")).unwrap();
    let mut worker = Command::new(TUNER)
        .args(["worker", "--broker", &redis.url, "--secret", redis_server::secret(), "--engines"])
        .arg(&engines)
        .args(["--name", "w", "--visibility", "2"])
        .env("RUST_LOG", "info")
        .env("TMPDIR", &dir)
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();

    // The forger: for every task the coordinator publishes, a mate in no moves, unsigned and
    // signed with another secret, written before the worker can answer.
    let done = Arc::new(AtomicBool::new(false));
    let forger = {
        let (url, done, forged_runs) = (redis.url.clone(), Arc::clone(&done), forged_runs.clone());
        thread::spawn(move || {
            let mut con = redis::Client::open(url.as_str()).unwrap().get_connection().unwrap();
            let other = secret('x');
            let mut forged: HashSet<(String, String)> = HashSet::new();
            while !done.load(Ordering::Relaxed) {
                let runs: Vec<String> = con.smembers("evochess:runs").unwrap();
                for run in runs.iter().filter(|r| !forged_runs.contains(r)) {
                    let tasks: redis::streams::StreamRangeReply =
                        con.xrange_all(format!("evochess:run:{run}:tasks")).unwrap();
                    for e in tasks.ids {
                        let (Some(id), Some(body)) = (e.get::<String>("task"), e.get::<String>("body")) else {
                            continue;
                        };
                        if !forged.insert((run.clone(), id.clone())) {
                            continue;
                        }
                        let fake = mate_in_zero(&serde_json::from_str(&body).unwrap());
                        let results = format!("evochess:run:{run}:results");
                        let _: String = con
                            .xadd(
                                &results,
                                "*",
                                &[("task", id.as_str()), ("worker", "forger"), ("body", fake.as_str())],
                            )
                            .unwrap();
                        let mac = other.sign(Purpose::Answer, run, &id, fake.as_bytes());
                        let fields = [
                            ("task", id.as_str()),
                            ("worker", "forger"),
                            ("body", fake.as_str()),
                            ("mac", mac.as_str()),
                        ];
                        let _: String = con.xadd(&results, "*", &fields).unwrap();
                    }
                }
                thread::sleep(Duration::from_millis(5));
            }
            forged.len()
        })
    };

    let cmd = format!("cmd={}", engine.display());
    let match_args = |pgn: &std::path::Path| -> Vec<String> {
        let mut a: Vec<String> =
            ["match", "-engine", "name=a", &cmd, "-engine", "name=b", &cmd].map(String::from).to_vec();
        a.extend(["-each", "nodes=50", "-games", "6", "-maxmoves", "15", "-srand", "3", "-pgnout"].map(String::from));
        a.extend([pgn.display().to_string(), "min".into()]);
        a
    };
    let mut args = match_args(&dir.join("games.pgn"));
    args.extend(["-broker", &redis.url, "-broker-secret", redis_server::secret()].map(String::from));
    let started = Instant::now();
    let coordinator = Command::new(TUNER).args(&args).env("RUST_LOG", "warn").output().unwrap();
    done.store(true, Ordering::Relaxed);
    let forged_tasks = forger.join().unwrap();
    let err = text(&coordinator.stderr);
    assert!(coordinator.status.success(), "{err}");
    assert!(started.elapsed() < Duration::from_secs(120));
    let _ = worker.kill();
    let _ = worker.wait();
    let worker_log = std::fs::read_to_string(dir.join("worker.log")).unwrap();

    // Every forged answer was refused, by task and reason, on one line.
    assert!(forged_tasks >= 3, "the forger saw {forged_tasks} tasks");
    for why in ["it has no MAC", "its MAC does not verify"] {
        assert!(err.contains("answer of worker forger to task u") && err.contains(why), "{why}: {err}");
    }
    assert!(!err.contains("\nScore of a vs b: 99"), "{err}");
    // The games are the match's own, as played here without a broker.
    let local = dir.join("local.pgn");
    let out = Command::new(TUNER).args(match_args(&local)).env("RUST_LOG", "warn").output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let remote = pgn_games(&dir.join("games.pgn"));
    assert_eq!(remote.len(), 6);
    assert_eq!(remote, pgn_games(&local));
    assert!(!std::fs::read_to_string(dir.join("games.pgn")).unwrap().contains("99 - 0"));

    // No forged run was served: the worker refused each (once or more), answered none.
    for run in &forged_runs {
        let results: redis::streams::StreamRangeReply = con.xrange_all(format!("evochess:run:{run}:results")).unwrap();
        assert!(!results.ids.is_empty(), "{run}: no refusal");
        assert!(results.ids.iter().all(|e| e.map.contains_key("refused") && !e.map.contains_key("body")), "{run}");
        assert!(worker_log.contains(&format!("run {run}: not served")), "{run}: {worker_log}");
    }
    assert!(worker_log.contains("its spec is refused: it has no MAC"), "{worker_log}");
    assert!(worker_log.contains("its spec is refused: its MAC does not verify"), "{worker_log}");
    assert!(!worker_log.contains("panicked"), "{worker_log}");
}
