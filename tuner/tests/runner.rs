//! The match runner against real processes: the `fake-engine` test binary misbehaves on
//! request (crash, stall, illegal move, garbage, time overrun, no uciok), and every game must
//! get the right result and reason while the match carries on.

use std::{
    fs,
    io::BufReader,
    ops::ControlFlow,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    thread,
};

use arena::{
    adjudicate::{MaxMovesResult, MaxMovesRule},
    engine::spec::EngineSpec,
    game::GameRecord,
    openings::OpeningsConfig,
    outcome::{GameOutcome, Termination},
    results::Standings,
    runner::{
        Context, Executor, MatchConfig, MatchObserver, RunnerError, Schedule, SharedExecutor, Tournament, UnitDone,
        UnitPlayer, play_match,
    },
    stats::{Sprt, SprtDecision},
    tc::SearchLimits,
};
use crossbeam_channel::Sender;
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scratch(name: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let d = std::env::temp_dir().join(format!(
        "tuner-test-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn depth1() -> SearchLimits {
    SearchLimits { depth: Some(1), ..SearchLimits::default() }
}

fn fake(name: &str, args: &[&str]) -> EngineSpec {
    EngineSpec::new(name, FAKE).with_args(args).with_limits(depth1())
}

/// Short, bounded games between random movers.
fn base(engines: Vec<EngineSpec>, pairs: u32) -> MatchConfig {
    let mut cfg = MatchConfig::new(engines, Tournament::Match);
    cfg.rounds = pairs;
    cfg.concurrency = 2;
    cfg.adjudication.maxmoves = Some(MaxMovesRule { moves: 30, result: MaxMovesResult::Draw });
    cfg.start_timeout_ms = 2_000;
    cfg.ping_timeout_ms = 2_000;
    cfg.quit_timeout_ms = 200;
    cfg
}

#[derive(Default)]
struct Collect(Vec<GameRecord>);

impl MatchObserver for Collect {
    fn on_game(&mut self, g: &GameRecord, _: &Standings) {
        self.0.push(g.clone());
    }
}

fn run(cfg: &MatchConfig) -> (arena::results::MatchResults, Vec<GameRecord>) {
    let mut c = Collect::default();
    let r = play_match(cfg, &mut c).unwrap();
    assert_eq!(r.games_played as usize, c.0.len());
    (r, c.0)
}

/// Games where `bad` (engine index 1) misbehaved: result, termination, reason; and `bad` must
/// have played at least `min_moves` moves in every game, proving it was restarted.
fn check_forfeits(games: &[GameRecord], termination: Termination, reason: &str, min_moves: usize) {
    assert!(!games.is_empty());
    for g in games {
        let bad_is_white = g.white_index == 1;
        let want = if bad_is_white { GameOutcome::BlackWins } else { GameOutcome::WhiteWins };
        assert_eq!(g.result.outcome, want, "{:?}", g.result);
        assert_eq!(g.result.termination, termination, "{:?}", g.result);
        let side = if bad_is_white { "White" } else { "Black" };
        assert!(g.result.reason.starts_with(side) && g.result.reason.contains(reason), "{:?}", g.result);
        let bad_moves = g.moves.len() / 2;
        assert!(bad_moves >= min_moves, "game {} had only {} moves", g.game_number, g.moves.len());
    }
}

#[test]
fn crashing_engine_loses_and_is_restarted() {
    let cfg = base(vec![fake("good", &[]), fake("crasher", &["--crash-after", "3"])], 3);
    let (r, games) = run(&cfg);
    assert_eq!(games.len(), 6);
    check_forfeits(&games, Termination::Disconnect, "disconnects", 3);
    assert_eq!(r.totals[1].forfeits, 6);
}

#[test]
fn stalled_engine_loses_and_is_restarted() {
    let mut cfg = base(vec![fake("good", &[]), fake("staller", &["--stall-after", "2"])], 2);
    cfg.stall_timeout_ms = 300;
    let (_, games) = run(&cfg);
    assert_eq!(games.len(), 4);
    check_forfeits(&games, Termination::Stall, "stalls", 2);
}

#[test]
fn illegal_and_invalid_moves_lose() {
    // The cheat stays healthy (cutechess does not restart it either): restart=on makes it
    // behave for 4 moves in every game.
    let mut cheat = fake("cheat", &["--illegal-after", "4"]);
    cheat.restart = true;
    let cfg = base(vec![fake("good", &[]), cheat], 2);
    let (_, games) = run(&cfg);
    check_forfeits(&games, Termination::IllegalMove, "makes an illegal move: a1a1", 4);
    let mut junk = fake("junk", &["--invalid-after", "1"]);
    junk.restart = true;
    let cfg = base(vec![fake("good", &[]), junk], 1);
    let (_, games) = run(&cfg);
    check_forfeits(&games, Termination::IllegalMove, "sends an invalid move: xyzzy", 1);
}

#[test]
fn time_forfeit_with_a_clock() {
    let clock = SearchLimits { clock: Some("0.5+0.05".parse().unwrap()), margin_ms: 50, ..SearchLimits::default() };
    let good = fake("good", &[]).with_limits(clock.clone());
    let mut slow = fake("slow", &["--slow-after", "3", "--slow-ms", "900"]).with_limits(clock);
    slow.restart = true; // a healthy-but-slow engine is otherwise reused and flags at once
    let cfg = base(vec![good, slow], 1);
    let (r, games) = run(&cfg);
    check_forfeits(&games, Termination::TimeForfeit, "loses on time", 3);
    assert_eq!(r.totals[1].time_forfeits, 2);
    assert_eq!(r.totals[0].time_forfeits, 0);
}

#[test]
fn garbage_output_is_ignored_and_games_finish() {
    let cfg = base(vec![fake("a", &["--garbage", "--seed", "1"]), fake("b", &["--garbage", "--seed", "2"])], 2);
    let (r, games) = run(&cfg);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert!(matches!(g.result.termination, Termination::Normal | Termination::Adjudication), "{:?}", g.result);
    }
    assert_eq!(r.totals[0].forfeits + r.totals[1].forfeits, 0);
}

#[test]
fn bad_input_is_reported_before_any_game() {
    let err = |cfg: MatchConfig| play_match(&cfg, &mut Collect::default()).unwrap_err().to_string();
    let mut cfg = base(vec![fake("good", &[]), fake("mute", &["--no-uciok"])], 1);
    cfg.start_timeout_ms = 300;
    let e = err(cfg);
    assert!(e.contains("`mute`") && e.contains("uciok"), "{e}");
    let e = err(base(vec![fake("good", &[]), fake("opt", &[]).with_option("Bogus Option", "1")], 1));
    assert!(e.contains("no option `Bogus Option`") && e.contains("Move Overhead"), "{e}");
    let e = err(base(vec![fake("good", &[]), EngineSpec::new("ghost", "/no/such/engine").with_limits(depth1())], 1));
    assert!(e.contains("command `/no/such/engine` not found"), "{e}");
    let mut cfg = base(vec![fake("a", &[]), fake("b", &[])], 1);
    cfg.openings = Some(OpeningsConfig::parse(&["file=/no/such/openings.epd"]).unwrap());
    assert!(err(cfg).contains("/no/such/openings.epd"));
    let e = err(base(vec![fake("a", &[]), fake("b", &[]).with_params("/no/such/params.toml")], 1));
    assert!(e.contains("params file"), "{e}");
}

#[test]
fn options_with_spaces_and_protocol_order() {
    let dir = scratch("proto");
    let log = dir.join("engine.log");
    let l = log.to_str().unwrap();
    let clock = SearchLimits { clock: Some("40/10+0.1".parse().unwrap()), ..SearchLimits::default() };
    let a = fake("a", &["--log", l])
        .with_option("Move Overhead", "30")
        .with_option("book file", "/tmp/with space/book.bin")
        .with_limits(clock.clone());
    let b = fake("b", &[]).with_limits(clock);
    let mut cfg = base(vec![a, b], 1);
    cfg.adjudication.maxmoves = Some(MaxMovesRule { moves: 3, result: MaxMovesResult::Draw });
    run(&cfg);
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.contains("setoption name Move Overhead value 30\n"), "{text}");
    assert!(text.contains("setoption name Book File value /tmp/with space/book.bin\n"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let newgame = lines.iter().position(|l| *l == "ucinewgame").unwrap();
    assert_eq!(lines[newgame + 1], "isready");
    let go = lines.iter().position(|l| l.starts_with("go ")).unwrap();
    assert!(lines[go - 1].starts_with("position startpos"), "{}", lines[go - 1]);
    assert!(lines[go].starts_with("go wtime 10000 btime 10000 winc 100 binc 100 movestogo 40"), "{}", lines[go]);
    assert_eq!(lines.last(), Some(&"quit"));
}

/// Replays each PGN game with pgn-reader and shakmaty; returns (tags, plies, result token).
struct Check;
type Tags = Vec<(String, String)>;
impl Visitor for Check {
    type Tags = Tags;
    type Movetext = (Tags, Chess, usize, Option<String>);
    type Output = Result<(Tags, usize), String>;
    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Tags> {
        ControlFlow::Continue(Vec::new())
    }
    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        tags.push((String::from_utf8_lossy(name).into(), value.decode_utf8_lossy().into()));
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let pos = match tags.iter().find(|(k, _)| k == "FEN") {
            Some((_, f)) => f.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap(),
            None => Chess::default(),
        };
        ControlFlow::Continue((tags, pos, 0, None))
    }
    fn san(&mut self, (_, pos, n, err): &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                *n += 1;
            }
            Err(e) => *err = Some(format!("illegal {san}: {e}")),
        }
        ControlFlow::Continue(())
    }
    fn outcome(&mut self, (tags, ..): &mut Self::Movetext, o: pgn_reader::Outcome) -> ControlFlow<Self::Output> {
        tags.push(("_outcome".into(), o.to_string()));
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, (tags, _, n, err): Self::Movetext) -> Self::Output {
        match err {
            Some(e) => Err(e),
            None => Ok((tags, n)),
        }
    }
}

fn read_pgn(path: &Path) -> Vec<(Tags, usize)> {
    let mut reader = Reader::new(BufReader::new(fs::File::open(path).unwrap()));
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut Check).unwrap() {
        out.push(g.unwrap());
    }
    out
}

fn tag<'a>(t: &'a Tags, k: &str) -> &'a str {
    t.iter().find(|(n, _)| n == k).map_or("", |(_, v)| v.as_str())
}

#[test]
fn pgn_parses_back_and_pairs_share_openings() {
    let dir = scratch("pgn");
    let pgn = dir.join("out.pgn");
    let mut cfg = base(vec![fake("a", &["--seed", "5"]), fake("b", &["--seed", "6", "--crash-after", "20"])], 4);
    cfg.openings = Some(
        OpeningsConfig::parse(&[
            &format!("file={}", repo().join("openings/gnuchess-8ply.epd").display()),
            "order=random",
        ])
        .unwrap(),
    );
    cfg.seed = 7;
    cfg.pgn_out = Some(pgn.clone());
    cfg.epd_out = Some(dir.join("out.epd"));
    let (_, games) = run(&cfg);
    let parsed = read_pgn(&pgn);
    assert_eq!(parsed.len(), 8);
    assert_eq!(fs::read_to_string(dir.join("out.epd")).unwrap().lines().count(), 8);
    for ((tags, plies), g) in parsed.iter().zip(&games) {
        assert_eq!(tag(tags, "Result"), g.result.outcome.pgn());
        assert_eq!(tag(tags, "_outcome"), g.result.outcome.pgn());
        assert_eq!(tag(tags, "Termination"), g.result.termination.pgn());
        assert_eq!(tag(tags, "PlyCount"), plies.to_string());
        assert_eq!(*plies, g.moves.len());
        assert_eq!(tag(tags, "SetUp"), "1");
    }
    let mut fens = std::collections::HashSet::new();
    for pair in parsed.chunks(2) {
        let (a, b) = (&pair[0].0, &pair[1].0);
        assert_eq!(tag(a, "FEN"), tag(b, "FEN"), "a colour-swapped pair must share its opening");
        assert_eq!((tag(a, "White"), tag(a, "Black")), (tag(b, "Black"), tag(b, "White")));
        assert!(fens.insert(tag(a, "FEN").to_string()), "each pair gets a new opening");
    }
}

#[test]
fn sprt_stops_the_match() {
    let mut cfg = base(vec![fake("good", &[]), fake("cheat", &["--illegal-after", "0"])], 200);
    cfg.sprt = Some(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap());
    let (r, _) = run(&cfg);
    assert!(r.stopped_early);
    let s = r.sprt.unwrap();
    assert_eq!(s.decision, SprtDecision::AcceptH1);
    assert!(s.llr >= s.upper);
    // Every pair is WW, so (hand-computed with the MLE of sprt.rs, python3) each adds
    // 0.028374 to the LLR: the bound ln(0.95/0.05) = 2.944439 is crossed at pair 104.
    assert_eq!(r.games_played, 208);
}

#[test]
fn gauntlet_and_round_robin_score_every_pair() {
    let engines = vec![fake("a", &["--seed", "1"]), fake("b", &["--seed", "2"]), fake("c", &["--seed", "3"])];
    let mut cfg = base(engines.clone(), 1);
    cfg.tournament = Tournament::Gauntlet;
    let (r, games) = run(&cfg);
    assert_eq!(games.len(), 4);
    assert!(r.score_of(1, 2).is_none());
    let (p, n) = r.score_of(0, 1).unwrap();
    assert_eq!(n, 2);
    assert!((0.0..=2.0).contains(&p));
    let r = arena::runner::round_robin(engines, &base(vec![], 1), &mut arena::runner::NoObserver).unwrap();
    assert_eq!(r.games_played, 6);
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        let (pab, n) = r.score_of(a, b).unwrap();
        let (pba, _) = r.score_of(b, a).unwrap();
        assert_eq!((n, pab + pba), (2, 2.0));
    }
    let total: f64 = r.totals.iter().map(|t| t.points).sum();
    assert_eq!(total, 6.0);
}

#[test]
fn params_file_goes_through_the_params_file_option() {
    let dir = scratch("params");
    let params = dir.join("cand.toml");
    fs::write(&params, evochess::Params::default().to_toml()).unwrap();
    let log = dir.join("engine.log");
    let a = fake("a", &["--params-option", "--log", log.to_str().unwrap()]).with_params(&params);
    let mut cfg = base(vec![a, fake("b", &[])], 1);
    cfg.adjudication.maxmoves = Some(MaxMovesRule { moves: 2, result: MaxMovesResult::Draw });
    run(&cfg);
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.contains(&format!("setoption name ParamsFile value {}\n", params.display())), "{text}");
    // An engine that cannot load the file (another build's parameters) stops the match with its
    // message, instead of playing on with its defaults as if it were the tuned engine.
    let refusing = fake("a", &["--params-option", "--refuse-params"]).with_params(&params);
    let e = play_match(&base(vec![refusing, fake("b", &[])], 1), &mut Collect::default()).unwrap_err().to_string();
    assert!(e.contains("refused its settings") && e.contains("from_a_newer_build"), "{e}");
    // An engine without the ParamsFile option gets one option per key, which must exist.
    let b = fake("b", &[]).with_params(&params);
    let e = play_match(&base(vec![fake("a", &[]), b], 1), &mut Collect::default()).unwrap_err().to_string();
    let name = e.split("no option `").nth(1).and_then(|r| r.split('`').next()).unwrap_or("");
    assert!(evochess::Params::find(name).is_some(), "{e}");
    // A params file with an out-of-range value is refused before any engine starts.
    fs::write(&params, "[search]\nnull_move_use = 7\n").unwrap();
    let b = fake("b", &[]).with_params(&params);
    let e = play_match(&base(vec![fake("a", &[]), b], 1), &mut Collect::default()).unwrap_err().to_string();
    assert!(e.contains("null_move_use") && e.contains("out of range"), "{e}");
}

/// An executor from outside the arena, as the broker's is: one thread plays every unit with a
/// `UnitPlayer`, the way a remote worker does, and records the units it was given; or fails at
/// once with `fail`, as a broker that cannot be reached does.
#[derive(Debug)]
struct OneThread {
    units: Arc<Mutex<Vec<u64>>>,
    fail: Option<&'static str>,
}

impl Executor for OneThread {
    fn start(
        &self,
        ctx: &Arc<Context>,
        schedule: &Arc<Schedule>,
        results: &Sender<UnitDone>,
    ) -> Vec<thread::JoinHandle<Result<(), RunnerError>>> {
        let (ctx, schedule, tx) = (Arc::clone(ctx), Arc::clone(schedule), results.clone());
        let (units, fail) = (Arc::clone(&self.units), self.fail);
        vec![thread::spawn(move || {
            if let Some(why) = fail {
                return Err(RunnerError::Executor(why.into()));
            }
            let mut player = UnitPlayer::new(ctx.cfg.clone())?;
            while let Some(unit) = schedule.take(&ctx.cfg, &ctx.stop) {
                units.lock().unwrap().push(unit.id);
                let games = player.play(&unit, &ctx.book.get(unit.opening_index));
                if tx.send(UnitDone { unit, games }).is_err() {
                    break;
                }
            }
            Ok(())
        })]
    }
}

#[test]
fn an_injected_executor_plays_the_units_and_the_runner_writes_them() {
    let dir = scratch("executor");
    let mut cfg = base(vec![fake("a", &[]), fake("b", &[])], 3);
    cfg.state = Some(dir.join("state.json"));
    cfg.pgn_out = Some(dir.join("games.pgn"));
    let units = Arc::new(Mutex::new(Vec::new()));
    cfg.executor = Some(SharedExecutor::new(OneThread { units: Arc::clone(&units), fail: None }));
    let (r, games) = run(&cfg);
    assert_eq!(*units.lock().unwrap(), vec![0, 1, 2], "every unit once, in schedule order");
    assert_eq!(r.games_played, 6);
    assert_eq!(games.iter().map(|g| g.game_number).collect::<Vec<_>>(), (1..=6).collect::<Vec<_>>());
    assert_eq!(games.iter().map(|g| (g.white_index, g.black_index)).filter(|&p| p == (1, 0)).count(), 3);
    let pgn = fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 6, "the runner's loop writes what the executor played");
    // The executor's own failure ends the match with its message, as it put it.
    let failing = OneThread { units: Arc::default(), fail: Some("broker unreachable") };
    let mut cfg = base(vec![fake("a", &[]), fake("b", &[])], 1);
    cfg.executor = Some(SharedExecutor::new(failing));
    let e = play_match(&cfg, &mut Collect::default()).unwrap_err().to_string();
    assert_eq!(e, "broker unreachable");
}
