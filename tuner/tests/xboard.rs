//! xboard (CECP) engines in the match runner: the `fake-xboard` test binary negotiates features in
//! the ways real engines do (protocol 2 with `done=1`, a slow `done=0`, none at all), speaks SAN
//! or coordinates, with or without `usermove` and `ping`, and misbehaves on request; every game must
//! end with the right result and reason. Real engines (Debian's phalanx and sjeng) play a short
//! match through the `tuner` binary with `--ignored`.

mod common;

use std::{fs, path::Path, process::Command};

use arena::{
    adjudicate::{MaxMovesResult, MaxMovesRule},
    engine::{client::Protocol, spec::EngineSpec},
    game::GameRecord,
    openings::OpeningsConfig,
    outcome::{GameOutcome, Termination},
    results::{MatchResults, Standings},
    runner::{MatchConfig, MatchObserver, Tournament, play_match},
    tc::SearchLimits,
};
use common::{TUNER, engine_binary, repo, scratch};

const XBOARD: &str = env!("CARGO_BIN_EXE_fake-xboard");
const UCI: &str = env!("CARGO_BIN_EXE_fake-engine");

fn depth1() -> SearchLimits {
    SearchLimits { depth: Some(1), ..SearchLimits::default() }
}

fn xboard(name: &str, args: &[&str]) -> EngineSpec {
    let mut spec = EngineSpec::new(name, XBOARD).with_args(args).with_limits(depth1());
    spec.proto = Protocol::Xboard;
    spec
}

fn uci(name: &str) -> EngineSpec {
    EngineSpec::new(name, UCI).with_limits(depth1())
}

/// `pairs` colour-swapped pairs of short, bounded games.
fn base(engines: Vec<EngineSpec>, pairs: u32) -> MatchConfig {
    let mut cfg = MatchConfig::new(engines, Tournament::Match);
    cfg.rounds = pairs;
    cfg.concurrency = 2;
    cfg.adjudication.maxmoves = Some(MaxMovesRule { moves: 30, result: MaxMovesResult::Draw });
    cfg.start_timeout_ms = 2_000;
    cfg.ping_timeout_ms = 2_000;
    cfg.quit_timeout_ms = 200;
    cfg.stall_timeout_ms = 2_000;
    cfg
}

#[derive(Default)]
struct Collect(Vec<GameRecord>);

impl MatchObserver for Collect {
    fn on_game(&mut self, g: &GameRecord, _: &Standings) {
        self.0.push(g.clone());
    }
}

fn run(cfg: &MatchConfig) -> (MatchResults, Vec<GameRecord>) {
    let mut c = Collect::default();
    let r = play_match(cfg, &mut c).unwrap();
    assert_eq!(r.games_played as usize, c.0.len());
    (r, c.0)
}

fn run_err(cfg: &MatchConfig) -> String {
    play_match(cfg, &mut Collect::default()).unwrap_err().to_string()
}

/// Every game ended by the rules or the move limit, and nobody forfeited.
fn assert_clean(r: &MatchResults, games: &[GameRecord]) {
    for g in games {
        assert!(matches!(g.result.termination, Termination::Normal | Termination::Adjudication), "{:?}", g.result);
        assert!(g.moves.len() >= 2, "{:?}", g.result);
    }
    assert!(r.totals.iter().all(|t| t.forfeits == 0), "{:?}", r.totals);
}

/// Games where `bad` (engine index 1) lost with `termination` and a reason containing `reason`,
/// after making at least `min_moves` moves in each game (so it was restarted where needed).
fn check_losses(games: &[GameRecord], termination: Termination, reason: &str, min_moves: usize) {
    assert!(!games.is_empty());
    for g in games {
        let bad_is_white = g.white_index == 1;
        let want = if bad_is_white { GameOutcome::BlackWins } else { GameOutcome::WhiteWins };
        assert_eq!((g.result.outcome, g.result.termination), (want, termination), "{:?}", g.result);
        let side = if bad_is_white { "White" } else { "Black" };
        assert!(g.result.reason.starts_with(side) && g.result.reason.contains(reason), "{:?}", g.result);
        assert!(g.moves.len() / 2 >= min_moves, "game {} had only {} moves", g.game_number, g.moves.len());
    }
}

fn log_lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
}

/// A line that is a bare coordinate move (`e2e4`, `a7a8q`).
fn is_coordinate(s: &str) -> bool {
    let b = s.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_lowercase()
        && b[3].is_ascii_digit()
}

#[test]
fn protocol_two_with_usermove_and_ping() {
    let dir = scratch("xboard", "proto2");
    let log = dir.join("engine.log");
    let clock = SearchLimits { clock: Some("40/10+0.1".parse().unwrap()), ..SearchLimits::default() };
    let x = xboard("x", &["--usermove", "--log", log.to_str().unwrap()]).with_limits(clock.clone());
    let mut cfg = base(vec![x, uci("u").with_limits(clock)], 1);
    cfg.adjudication.maxmoves = Some(MaxMovesRule { moves: 4, result: MaxMovesResult::Draw });
    let (r, games) = run(&cfg);
    assert_eq!(games.len(), 2);
    assert_clean(&r, &games);
    let lines = log_lines(&log);
    assert_eq!(lines[..2], ["xboard", "protover 2"]);
    for want in ["accepted usermove", "accepted ping", "accepted myname", "rejected bogus", "accepted done"] {
        assert!(lines.iter().any(|l| l == want), "no `{want}` in {lines:?}");
    }
    // The first game (x is White): set-up, sync, then the clocks in centiseconds and `go`.
    let new = lines.iter().position(|l| l == "new").unwrap();
    assert_eq!(lines[new + 1..new + 5], ["level 40 0:10 0.1", "post", "easy", "force"]);
    assert!(lines[new + 5].starts_with("ping "), "{}", lines[new + 5]);
    assert_eq!(lines[new + 6..new + 9], ["time 1000", "otim 1000", "go"]);
    // Later turns: the clocks, then the opponent's move as a usermove; never a bare move.
    let first_usermove = lines.iter().position(|l| l.starts_with("usermove ")).unwrap();
    assert!(lines[first_usermove - 2].starts_with("time ") && lines[first_usermove - 1].starts_with("otim "));
    assert!(!lines.iter().any(|l| is_coordinate(l)), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("result 1/2-1/2 {")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("quit"));
}

#[test]
fn protocol_one_engine_gets_bare_moves_and_no_ping() {
    let dir = scratch("xboard", "proto1");
    let log = dir.join("engine.log");
    let x = xboard("x", &["--no-features", "--log", log.to_str().unwrap()]);
    let mut cfg = base(vec![uci("u"), x], 1);
    // The 2 s protocol-1 wait is capped by the start timeout.
    cfg.start_timeout_ms = 300;
    let (r, games) = run(&cfg);
    assert_eq!(games.len(), 2);
    assert_clean(&r, &games);
    let lines = log_lines(&log);
    assert!(!lines.iter().any(|l| l.starts_with("ping") || l.starts_with("usermove") || l.starts_with("accepted")));
    assert!(lines.iter().any(|l| l == "sd 1"), "{lines:?}");
    assert!(lines.iter().filter(|l| is_coordinate(l)).count() >= 10, "{lines:?}");
}

#[test]
fn done_zero_extends_the_feature_wait() {
    let dir = scratch("xboard", "done0");
    let log = dir.join("engine.log");
    // Features come 2.5 s after `done=0`, past the 2 s protocol-1 wait: a client that stopped
    // waiting there would send bare moves, which this `usermove` engine does not understand.
    let x = xboard("x", &["--done0-ms", "2500", "--usermove", "--log", log.to_str().unwrap()]);
    let mut cfg = base(vec![uci("u"), x], 1);
    cfg.concurrency = 1;
    cfg.start_timeout_ms = 5_000;
    cfg.adjudication.maxmoves = Some(MaxMovesRule { moves: 3, result: MaxMovesResult::Draw });
    let (r, games) = run(&cfg);
    assert_clean(&r, &games);
    let lines = log_lines(&log);
    assert!(lines.iter().any(|l| l.starts_with("usermove ")), "{lines:?}");
    // Both `done=0` and `done=1` are accepted, at each of the two starts.
    assert_eq!(lines.iter().filter(|l| *l == "accepted done").count(), 4, "{lines:?}");
}

#[test]
fn san_and_protocol_one_move_forms() {
    let dir = scratch("xboard", "san");
    let log = dir.join("san.log");
    let san = xboard("san", &["--san", "--usermove", "--log", log.to_str().unwrap()]);
    let old = xboard("old", &["--old-moves", "--offer-draw", "--seed", "3"]);
    let mut cfg = base(vec![uci("u"), san, old], 1);
    cfg.tournament = Tournament::Gauntlet;
    let (r, games) = run(&cfg);
    assert_eq!(games.len(), 4);
    assert_clean(&r, &games);
    let lines = log_lines(&log);
    let sent: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix("usermove ")).collect();
    assert!(sent.len() >= 10, "{lines:?}");
    assert!(sent.iter().all(|m| !is_coordinate(m)), "coordinates sent to a SAN engine: {sent:?}");
}

#[test]
fn an_illegal_move_loses() {
    let mut cheat = xboard("cheat", &["--illegal-after", "3"]);
    cheat.restart = true;
    let (_, games) = run(&base(vec![uci("good"), cheat], 1));
    check_losses(&games, Termination::IllegalMove, "makes an illegal move: a1a1", 3);
}

#[test]
fn rejecting_a_legal_move_loses_and_restarts_the_engine() {
    let (_, games) = run(&base(vec![uci("good"), xboard("confused", &["--reject-after", "2"])], 2));
    assert_eq!(games.len(), 4);
    check_losses(&games, Termination::IllegalMove, "rejects a legal move: Illegal move: ", 2);
}

#[test]
fn a_crash_loses_and_restarts_the_engine() {
    let (r, games) = run(&base(vec![uci("good"), xboard("crasher", &["--crash-after", "3"])], 2));
    check_losses(&games, Termination::Disconnect, "disconnects", 3);
    assert_eq!(r.totals[1].forfeits, 4);
}

#[test]
fn a_stall_loses() {
    let mut cfg = base(vec![uci("good"), xboard("staller", &["--stall-after", "2"])], 1);
    cfg.stall_timeout_ms = 300;
    let (_, games) = run(&cfg);
    check_losses(&games, Termination::Stall, "stalls", 2);
}

#[test]
fn time_forfeit_with_a_clock() {
    let dir = scratch("xboard", "time");
    let log = dir.join("slow.log");
    let clock = SearchLimits { clock: Some("0.5+0.05".parse().unwrap()), margin_ms: 50, ..SearchLimits::default() };
    let mut slow = xboard("slow", &["--slow-after", "3", "--slow-ms", "900", "--log", log.to_str().unwrap()])
        .with_limits(clock.clone());
    slow.restart = true;
    let (r, games) = run(&base(vec![uci("good").with_limits(clock), slow], 1));
    check_losses(&games, Termination::TimeForfeit, "loses on time", 3);
    assert_eq!((r.totals[0].time_forfeits, r.totals[1].time_forfeits), (0, 2));
    // Out of time, the engine was told to move now.
    assert!(log_lines(&log).iter().any(|l| l == "?"));
}

#[test]
fn resignations_and_false_claims() {
    // Each stays healthy and would misbehave at once in its next game: restart=on.
    let restarted = |name, args| EngineSpec { restart: true, ..xboard(name, args) };
    let (r, games) = run(&base(vec![uci("good"), restarted("resigner", &["--resign-after", "3"])], 1));
    check_losses(&games, Termination::Normal, "resigns", 3);
    assert_eq!(r.totals[1].forfeits, 0);
    let (_, games) = run(&base(vec![uci("good"), restarted("boaster", &["--claim-win-after", "2"])], 1));
    check_losses(&games, Termination::Adjudication, "makes a false claim: ", 2);
    let (_, games) = run(&base(vec![uci("good"), restarted("drawish", &["--claim-draw-after", "2"])], 1));
    check_losses(&games, Termination::Adjudication, "makes a false draw claim", 2);
}

#[test]
fn fen_openings_need_setboard_move_openings_do_not() {
    let dir = scratch("xboard", "books");
    let epd =
        OpeningsConfig::parse(&[&format!("file={}", repo().join("openings/gnuchess-8ply.epd").display())]).unwrap();
    let pgn_path = dir.join("book.pgn");
    fs::write(&pgn_path, "[Event \"?\"]\n\n1. e4 c5 2. Nf3 d6 *\n").unwrap();
    let pgn = OpeningsConfig::parse(&[&format!("file={}", pgn_path.display())]).unwrap();

    let mut cfg = base(vec![uci("u"), xboard("old", &["--no-setboard"])], 1);
    cfg.openings = Some(epd.clone());
    let e = run_err(&cfg);
    assert!(e.contains("`old`") && e.contains("setboard"), "{e}");

    let log = dir.join("moves.log");
    let mut cfg = base(vec![uci("u"), xboard("old", &["--no-setboard", "--log", log.to_str().unwrap()])], 1);
    cfg.openings = Some(pgn);
    let (r, games) = run(&cfg);
    assert_clean(&r, &games);
    let lines = log_lines(&log);
    let force = lines.iter().position(|l| l == "force").unwrap();
    // `old` is Black in the first game: after the sync it hears the opening in force mode.
    assert!(lines[force + 1].starts_with("ping "), "{lines:?}");
    assert_eq!(lines[force + 2..force + 6], ["e2e4", "c7c5", "g1f3", "d7d6"], "{lines:?}");

    let log = dir.join("setboard.log");
    let mut cfg = base(vec![uci("u"), xboard("new", &["--log", log.to_str().unwrap()])], 1);
    cfg.openings = Some(epd);
    let (r, games) = run(&cfg);
    assert_clean(&r, &games);
    let fen = games[0].start_fen.clone().unwrap();
    assert!(log_lines(&log).iter().any(|l| *l == format!("setboard {fen}")));
}

#[test]
fn options_reuse_and_spec_errors() {
    let dir = scratch("xboard", "options");
    let log = dir.join("engine.log");
    let x = xboard("x", &["--option", "--reuse0", "--log", log.to_str().unwrap()])
        .with_option("skill level", "5")
        .with_option("Ponder", "true");
    let mut cfg = base(vec![uci("u"), x], 1);
    cfg.concurrency = 1;
    let (r, games) = run(&cfg);
    assert_clean(&r, &games);
    let lines = log_lines(&log);
    assert!(lines.iter().any(|l| l == "option Skill Level=5") && lines.iter().any(|l| l == "option Ponder=1"));
    // reuse=0: a fresh process for each of the two games, after the check at the start.
    assert_eq!(lines.iter().filter(|l| *l == "protover 2").count(), 3);

    let e = run_err(&base(vec![uci("u"), xboard("x", &["--option"]).with_option("Hash", "16")], 1));
    assert!(e.contains("no option `Hash`") && e.contains("Skill Level, Ponder"), "{e}");
    let limited = |l: SearchLimits| xboard("x", &[]).with_limits(l);
    let e = run_err(&base(vec![uci("u"), limited(SearchLimits { nodes: Some(100), ..SearchLimits::default() })], 1));
    assert!(e.contains("speaks xboard") && e.contains("node limit"), "{e}");
    let e =
        run_err(&base(vec![uci("u"), limited(SearchLimits { movetime_ms: Some(500), ..SearchLimits::default() })], 1));
    assert!(e.contains("whole seconds"), "{e}");
    let params = dir.join("p.toml");
    fs::write(&params, evochess::Params::default().to_toml()).unwrap();
    let e = run_err(&base(vec![uci("u"), xboard("x", &[]).with_params(&params)], 1));
    assert!(e.contains("parameter file"), "{e}");
    let e = EngineSpec::parse::<&str>(&[], &["cmd=x", "proto=winboard"]).unwrap_err().to_string();
    assert!(e.contains("`proto`") && e.contains("uci or xboard"), "{e}");
}

/// Through the `tuner` binary: an option the xboard engine does not declare, a value outside its
/// declaration, or one the engine answers with `Error` stops the match before any game, naming
/// the engine and the option, as a UCI engine's option errors do.
#[test]
fn xboard_option_errors_stop_the_match_naming_engine_and_option() {
    let dir = scratch("xboard", "option-errors");
    let pgn = dir.join("games.pgn");
    let run = |extra: &[&str], option: &str| {
        let out = Command::new(TUNER)
            .args(["match", "-engine", "name=u", &format!("cmd={UCI}"), "-engine", "name=xb"])
            .args([format!("cmd={XBOARD}"), "proto=xboard".into(), "arg=--option".into()])
            .args(extra.iter().map(|a| format!("arg={a}")))
            .arg(option)
            .args(["-each", "depth=1", "-games", "2", "-maxmoves", "20", "-pgnout", pgn.to_str().unwrap()])
            .env("RUST_LOG", "warn")
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    for (extra, option, expected) in [
        (&[][..], "option.Hash=16", "no option `Hash` (it declares: Skill Level, Ponder)"),
        (&[], "option.Skill Level=99", "option `Skill Level` = `99`: outside the declared range 0 to 20"),
        (&[], "option.Ponder=maybe", "option `Ponder` = `maybe`: not true or false"),
        (&["--refuse-options"], "option.Skill Level=5", "Error (bad value): option Skill Level=5"),
    ] {
        let (code, err) = run(extra, option);
        assert_eq!(code, Some(1), "{option}: {err}");
        assert!(err.contains("engine `xb`") && err.contains(expected), "{option}: {err}");
        assert!(!pgn.exists(), "{option}: no game is played");
    }
    let (code, err) = run(&[], "option.Skill Level=5");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(common::games_in(&pgn), 2);
}

/// A two-game match of evochess against a Debian xboard engine through the `tuner` binary: both
/// games are played to an end without a forfeit.
fn real_match(opponent: &str) {
    assert!(Path::new(opponent).exists(), "{opponent} not installed (Debian package)");
    let name = Path::new(opponent).file_name().unwrap().to_str().unwrap();
    let dir = scratch("xboard", name);
    let results = dir.join("r.json");
    let args = [
        "match".to_string(),
        "-engine".into(),
        "name=evochess".into(),
        format!("cmd={}", engine_binary().display()),
        // A node limit for the (debug-built) evochess and a wide margin for the opponent's
        // clock: a loaded machine must not decide these games on time.
        "nodes=20000".into(),
        "-engine".into(),
        format!("name={name}"),
        format!("cmd={opponent}"),
        "proto=xboard".into(),
        "tc=3+0.05".into(),
        "timemargin=1000".into(),
        "-openings".into(),
        format!("file={}", repo().join("openings/gnuchess-8ply.epd").display()),
        "-maxmoves".into(),
        "50".into(),
        "-games".into(),
        "2".into(),
        "-pgnout".into(),
        dir.join("games.pgn").display().to_string(),
        "-results".into(),
        results.display().to_string(),
    ];
    let out = Command::new(TUNER).args(&args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(&format!("Score of evochess vs {name}")), "{stdout}");
    let json: serde_json::Value = serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(json["games_played"], 2);
    assert_eq!(json["totals"][0]["forfeits"], 0, "{json}");
    assert_eq!(json["totals"][1]["forfeits"], 0, "{json}");
}

#[test]
#[ignore = "needs /usr/games/phalanx"]
fn real_phalanx_plays_a_short_match() {
    real_match("/usr/games/phalanx");
}

#[test]
#[ignore = "needs /usr/games/sjeng"]
fn real_sjeng_plays_a_short_match() {
    real_match("/usr/games/sjeng");
}
