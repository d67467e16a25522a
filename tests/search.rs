//! Search behaviour through the Engine facade and the in-process Searcher API:
//! reproducibility, mates and stalemates, limits, pondering, tablebases.

use std::{
    sync::{Arc, Mutex, atomic::AtomicBool},
    time::{Duration, Instant},
};

use evochess::data::{fixture, shared_data};
use evochess::{
    Engine,
    limits::Limits,
    measure::nodes_to_solve::solve_nodes,
    params::Params,
    search::{
        Searcher,
        report::{BestMove, ScoreReport, SearchInfo, SearchListener},
    },
};
use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen, uci::UciMove};

#[derive(Default)]
struct Log {
    infos: Vec<SearchInfo>,
    best: Vec<BestMove>,
}

#[derive(Clone, Default)]
struct Collector(Arc<Mutex<Log>>);

impl SearchListener for Collector {
    fn on_info(&mut self, info: &SearchInfo) {
        self.0.lock().unwrap().infos.push(info.clone());
    }
    fn on_bestmove(&mut self, best: &BestMove) {
        self.0.lock().unwrap().best.push(best.clone());
    }
}

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

fn uci(p: &Chess, s: &str) -> Move {
    s.parse::<UciMove>().unwrap().to_move(p).unwrap()
}

/// Runs one blocking search through the engine and returns what the listener saw.
fn go(engine: &mut Engine, limits: Limits) -> Log {
    let c = Collector::default();
    engine.go(limits, Box::new(c.clone()));
    engine.wait();
    std::mem::take(&mut *c.0.lock().unwrap())
}

fn check_pvs_legal(root: &Chess, log: &Log) {
    for info in &log.infos {
        let mut p = root.clone();
        for &m in &info.pv {
            assert!(p.is_legal(m), "illegal pv move {m:?} in {:?}", info.pv);
            p.play_unchecked(m);
        }
    }
}

#[test]
fn same_node_search_after_new_game_is_identical() {
    let mut e = Engine::new();
    let mut runs = Vec::new();
    for _ in 0..2 {
        e.new_game();
        e.set_position(None, &["e2e4", "c7c5", "g1f3"]).unwrap();
        let log = go(&mut e, Limits::nodes(30_000));
        assert_eq!(log.best.len(), 1);
        let last = log.infos.last().unwrap().clone();
        runs.push((last.nodes, last.pv.clone(), log.best[0].clone(), log.infos.len()));
        check_pvs_legal(e.position(), &log);
    }
    assert_eq!(runs[0], runs[1]);
    assert!(runs[0].0 <= 30_000);
}

#[test]
fn mate_in_one_is_reported_as_mate_1() {
    let mut e = Engine::new();
    e.set_position(Some("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), &[]).unwrap();
    let log = go(&mut e, Limits::depth(4));
    let last = log.infos.last().unwrap();
    assert_eq!(last.score, ScoreReport::Mate(1));
    assert_eq!(log.best[0].best, Some(uci(e.position(), "d1d8")));
    check_pvs_legal(e.position(), &log);
}

/// With `qsearch_checks_use`, the main search's leaves try quiet checks: at depth 1 Black sees
/// that grabbing the a2 pawn allows Rd8 mate (a quiet check in White's quiescence) and keeps
/// the back rank covered; without it the depth-1 search takes the pawn.
#[test]
fn quiescence_checks_see_a_back_rank_mate_at_the_horizon() {
    const FEN: &str = "6k1/5ppp/8/8/1n6/8/P4PPP/3R2K1 b - - 0 1";
    let mut e = Engine::new();
    let grab = uci(&pos(FEN), "b4a2");
    for (checks, takes) in [(0, true), (1, false)] {
        e.set_params(Params::default().with_toml(&format!("[search]\nqsearch_checks_use = {checks}\n")).unwrap());
        e.new_game();
        e.set_position(Some(FEN), &[]).unwrap();
        let log = go(&mut e, Limits::depth(1));
        let best = log.best[0].best.expect("a legal move");
        assert_eq!(best == grab, takes, "qsearch_checks_use = {checks}: {best:?}");
        // Not a mate score either way: Black has defences (h6, Kf8, Nc6, ...).
        assert!(matches!(log.infos.last().unwrap().score, ScoreReport::Cp(_)), "{:?}", log.infos.last());
    }
}

#[test]
fn mated_side_reports_negative_mate() {
    // Black to move is mated next move whatever it does.
    let mut e = Engine::new();
    e.set_position(Some("6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1"), &[]).unwrap();
    let log = go(&mut e, Limits::depth(5));
    assert!(matches!(log.infos.last().unwrap().score, ScoreReport::Cp(_) | ScoreReport::Mate(_)));
    e.set_position(Some("k7/8/1K6/8/8/8/8/7R b - - 0 1"), &[]).unwrap();
    let log = go(&mut e, Limits::depth(6));
    assert_eq!(log.infos.last().unwrap().score, ScoreReport::Mate(-1));
}

#[test]
fn stalemate_and_checkmate_have_no_best_move() {
    let mut e = Engine::new();
    for (fen, score) in
        [("7k/8/6QK/8/8/8/8/8 b - - 0 1", ScoreReport::Cp(0)), ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", ScoreReport::Mate(0))]
    {
        e.set_position(Some(fen), &[]).unwrap();
        let log = go(&mut e, Limits::depth(3));
        assert_eq!(log.best, vec![BestMove { best: None, ponder: None }], "{fen}");
        assert_eq!(log.infos.last().unwrap().score, score, "{fen}");
    }
}

#[test]
fn single_legal_move_at_depth_one_still_reports() {
    let mut e = Engine::new();
    // White king in check from the rook with one escape.
    e.set_position(Some("8/8/8/8/8/5k2/8/r5K1 w - - 0 1"), &[]).unwrap();
    assert_eq!(e.position().legal_moves().len(), 1);
    let log = go(&mut e, Limits::depth(1));
    assert!(!log.infos.is_empty());
    assert_eq!(log.best.len(), 1);
    assert_eq!(log.best[0].best, Some(e.position().legal_moves()[0]));
}

#[test]
fn repetition_in_game_history_is_a_draw() {
    // After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 the start position with Black to move occurs again.
    let mut e = Engine::new();
    e.set_position(None, &["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]).unwrap();
    let log = go(&mut e, Limits::depth(6));
    assert!(log.best[0].best.is_some());
    // The search must see that ...Ng8 repeats: its line scores exactly 0 when chosen.
    let last = log.infos.last().unwrap();
    if last.pv.first() == Some(&uci(e.position(), "f6g8")) {
        assert!(matches!(last.score, ScoreReport::Cp(-1..=1)), "{:?}", last.score);
    }
}

#[test]
fn a_position_seen_once_before_the_root_is_not_yet_a_draw() {
    // White has a queen for nothing. After Kb1 Kg8 Ka1, Black's Kh8 would bring back the start
    // position for the second time only: the game goes on, so Black must not score it as a draw.
    let mut e = Engine::new();
    e.set_position(Some("7k/8/8/8/8/Q7/8/K7 w - - 0 1"), &["a1b1", "h8g8", "b1a1"]).unwrap();
    let log = go(&mut e, Limits::depth(6));
    let last = log.infos.last().unwrap();
    let lost =
        matches!(last.score, ScoreReport::Cp(s) if s < -500) || matches!(last.score, ScoreReport::Mate(m) if m < 0);
    assert!(lost, "{:?} {:?}", last.score, last.pv);

    // One more round trip makes Kh8 the third occurrence: now it is a draw, and Black takes it.
    e.set_position(Some("7k/8/8/8/8/Q7/8/K7 w - - 0 1"), &["a1b1", "h8g8", "b1a1", "g8h8", "a1b1", "h8g8", "b1a1"])
        .unwrap();
    let log = go(&mut e, Limits::depth(6));
    let last = log.infos.last().unwrap();
    assert_eq!(log.best[0].best, Some(uci(e.position(), "g8h8")));
    assert!(matches!(last.score, ScoreReport::Cp(-1..=1)), "{:?}", last.score);
}

#[test]
fn mate_on_the_hundredth_half_move_beats_the_fifty_move_rule() {
    // Qb8 is mate and is the 100th half-move without a capture or pawn move: mate comes first.
    let mut e = Engine::new();
    e.set_position(Some("7k/8/6K1/8/8/8/8/1Q6 w - - 99 150"), &[]).unwrap();
    let log = go(&mut e, Limits::depth(4));
    assert_eq!(log.best[0].best, Some(uci(e.position(), "b1b8")));
    assert_eq!(log.infos.last().unwrap().score, ScoreReport::Mate(1));
    // Any other move draws by the rule, whatever the material.
    e.set_position(Some("7k/8/6K1/8/8/8/8/1Q6 w - - 99 150"), &[]).unwrap();
    let only_qb2 = vec![uci(e.position(), "b1b2")];
    let log = go(&mut e, Limits { depth: Some(4), searchmoves: only_qb2, ..Limits::default() });
    assert!(matches!(log.infos.last().unwrap().score, ScoreReport::Cp(-1..=1)));
}

#[test]
fn clock_limits_are_respected() {
    let mut e = Engine::new();
    e.set_position(None, &["d2d4"]).unwrap();
    // Black's clock only, 300 ms left: must answer well within it.
    let start = Instant::now();
    let log = go(&mut e, Limits { btime: Some(300), ..Limits::default() });
    assert!(start.elapsed() < Duration::from_millis(300), "{:?}", start.elapsed());
    assert!(log.best[0].best.is_some());
    // Negative time: still a move, at once.
    let start = Instant::now();
    let log = go(&mut e, Limits { btime: Some(-50), wtime: Some(1000), ..Limits::default() });
    assert!(start.elapsed() < Duration::from_millis(200));
    assert!(log.best[0].best.is_some());
    let start = Instant::now();
    go(&mut e, Limits::movetime(Duration::from_millis(150)));
    let t = start.elapsed();
    // The upper bound only has to tell "stopped near 150 ms" from "ignored the limit" (an
    // unbounded search): a debug build at load 10 on two cores once took 483 ms.
    assert!(t >= Duration::from_millis(100) && t < Duration::from_millis(1000), "{t:?}");
}

#[test]
fn infinite_and_ponder_wait_for_stop_or_ponderhit() {
    let mut e = Engine::new();
    let c = Collector::default();
    e.go(Limits { infinite: true, depth: Some(2), ..Limits::default() }, Box::new(c.clone()));
    std::thread::sleep(Duration::from_millis(100));
    assert!(e.is_searching());
    assert!(c.0.lock().unwrap().best.is_empty(), "no bestmove before stop in infinite mode");
    e.stop();
    e.wait();
    assert_eq!(c.0.lock().unwrap().best.len(), 1);

    let c = Collector::default();
    e.go(Limits { ponder: true, wtime: Some(500), btime: Some(500), ..Limits::default() }, Box::new(c.clone()));
    std::thread::sleep(Duration::from_millis(100));
    assert!(c.0.lock().unwrap().best.is_empty(), "no bestmove while pondering");
    e.ponderhit();
    let start = Instant::now();
    e.wait();
    assert!(start.elapsed() < Duration::from_millis(500));
    assert_eq!(c.0.lock().unwrap().best.len(), 1);
}

#[test]
fn searchmoves_and_multipv() {
    let mut e = Engine::new();
    e.set_multipv(3);
    let log = go(&mut e, Limits::depth(5));
    let last_depth = log.infos.last().unwrap().depth;
    let lines: Vec<_> = log.infos.iter().filter(|i| i.depth == last_depth).map(|i| i.multipv).collect();
    assert_eq!(lines, vec![1, 2, 3]);
    e.set_multipv(1);
    let only_a3 = vec![uci(e.position(), "a2a3")];
    let log = go(&mut e, Limits { depth: Some(4), searchmoves: only_a3, ..Limits::default() });
    assert_eq!(log.best[0].best, Some(uci(e.position(), "a2a3")));
}

#[test]
fn bad_positions_are_rejected_and_keep_the_old_one() {
    let mut e = Engine::new();
    e.set_position(None, &["e2e4"]).unwrap();
    let before = e.position().clone();
    assert!(e.set_position(Some("not a fen"), &[]).is_err());
    let err = e.set_position(None, &["e2e5"]).unwrap_err();
    assert!(err.to_string().contains("e2e5"), "{err}");
    assert!(e.set_position(None, &["zz"]).unwrap_err().to_string().contains("zz"));
    assert_eq!(e.position(), &before);
}

#[test]
fn solve_nodes_is_deterministic_and_finds_tactics() {
    // WAC.001: Qg6 mates in 2. The budget follows the evaluation: under 100,000 nodes with the
    // mentor-refined defaults once move-count pruning spared quiet checks (340,000 before);
    // about 190,000 in a UCI search with the self-play evaluation promoted on 2026-11-28.
    let p = pos("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    let target = uci(&p, "g3g6");
    let params = Params::default();
    let budget = 400_000;
    let a = solve_nodes(&p, &params, &[target], &[], budget);
    let b = solve_nodes(&p, &params, &[target], &[], budget);
    assert_eq!(a, b);
    assert!(a.solved_at.is_some(), "{a:?}");
    assert!(a.cost(budget) <= a.nodes);
    // Easy capture of a hanging queen is solved almost at once.
    let p = pos("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    let r = solve_nodes(&p, &params, &[uci(&p, "d2d5")], &[], 100_000);
    assert!(r.solved_at.is_some_and(|n| n < 5_000), "{r:?}");
    // Avoid-move form: anything but giving the rook away.
    let r = solve_nodes(&p, &params, &[], &[uci(&p, "d2d1")], 10_000);
    assert!(r.solved_at.is_some());
}

/// The correction history (`corr_*_weight`): on, the search still finds the
/// tactic through complete iterations and searches another tree; after a second search has
/// learnt more, `ucinewgame` forgets it all (the first tree again, node for node).
#[test]
fn correction_history_keeps_the_search_sound_and_is_forgotten_by_a_new_game() {
    const FEN: &str = "2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1";
    let target = uci(&pos(FEN), "h4h7");
    let depth = 12;
    let search = |e: &mut Engine| {
        e.set_position(Some(FEN), &[]).unwrap();
        let log = go(e, Limits::depth(depth));
        assert_eq!(log.best[0].best, Some(target));
        assert_eq!(log.infos.iter().map(|i| i.depth).collect::<Vec<_>>(), (1..=depth).collect::<Vec<_>>());
        check_pvs_legal(e.position(), &log);
        log.infos.last().unwrap().nodes
    };
    let mut off = Engine::new();
    off.set_params(Params::default().with_toml("[search]\ncorr_pawn_weight = 0\ncorr_non_pawn_weight = 0\n").unwrap());
    let base = search(&mut off);
    let mut on = Engine::new();
    on.set_params(
        Params::default().with_toml("[search]\ncorr_pawn_weight = 420\ncorr_non_pawn_weight = 460\n").unwrap(),
    );
    let first = search(&mut on);
    assert_ne!(first, base);
    on.set_position(Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"), &[]).unwrap();
    go(&mut on, Limits::depth(10));
    on.new_game();
    assert_eq!(search(&mut on), first);
}

#[test]
fn synchronous_searcher_reports_one_bestmove() {
    let mut s = Searcher::new(Params::default(), 4);
    let stop = AtomicBool::new(false);
    let mut c = Collector::default();
    let best = s.search(&Chess::default(), &[], &Limits::depth(4), &stop, &mut c);
    let log = c.0.lock().unwrap();
    assert_eq!(log.best, vec![best.clone()]);
    assert!(best.best.is_some() && best.ponder.is_some());
    assert_eq!(log.infos.iter().map(|i| i.depth).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
}

#[test]
fn syzygy_wins_are_reported() {
    // The fixture holds KQvK, KRvK and KNvK.
    let dir = fixture("syzygy");
    let mut e = Engine::new();
    let files = e.set_syzygy_path(dir.to_str().unwrap()).unwrap();
    assert_eq!(files, 6);
    for fen in ["8/8/8/4k3/8/8/8/3QK3 w - - 0 1", "8/8/8/3k4/8/8/8/R3K3 w - - 0 1", "8/8/4k3/8/8/8/3K4/7R b - - 0 1"] {
        e.set_position(Some(fen), &[]).unwrap();
        let log = go(&mut e, Limits::depth(8));
        let last = log.infos.last().unwrap();
        assert!(last.tbhits > 0, "{fen}: no tbhits");
        let white_to_move = e.position().turn().is_white();
        match last.score {
            ScoreReport::Cp(cp) if white_to_move => assert!(cp >= 10_000, "{fen}: {cp}"),
            ScoreReport::Cp(cp) => assert!(cp <= -10_000, "{fen}: {cp}"),
            ScoreReport::Mate(n) => assert_eq!(n > 0, white_to_move, "{fen}: mate {n}"),
        }
        check_pvs_legal(e.position(), &log);
    }
    assert!(e.set_syzygy_path("/no/such/dir").is_err());
    assert_eq!(e.set_syzygy_path("<empty>").unwrap(), 0);
}

/// Lazy SMP through the engine: with helpers the move is still legal, the PVs too, MultiPV
/// lines are complete, tablebases are used, a node limit is reached before stopping (the count
/// includes the helpers), and `stop` ends an infinite search.
#[test]
fn helper_threads_keep_every_search_feature() {
    let mut e = Engine::new();
    e.set_threads(3);
    assert_eq!(e.threads(), 3);
    e.set_position(None, &["e2e4", "e7e5"]).unwrap();
    let log = go(&mut e, Limits::depth(7));
    assert_eq!(log.best.len(), 1);
    assert!(log.best[0].best.is_some_and(|m| e.position().is_legal(m)));
    assert_eq!(log.infos.last().unwrap().depth, 7);
    check_pvs_legal(e.position(), &log);

    e.set_multipv(3);
    let log = go(&mut e, Limits::depth(5));
    let last_depth = log.infos.last().unwrap().depth;
    let lines: Vec<_> = log.infos.iter().filter(|i| i.depth == last_depth).map(|i| i.multipv).collect();
    assert_eq!(lines, vec![1, 2, 3]);
    check_pvs_legal(e.position(), &log);
    e.set_multipv(1);

    // The main thread stops when all threads together reached the budget.
    let mut searcher = Searcher::new(Params::default(), 4);
    searcher.set_threads(3);
    let best =
        searcher.search(e.position(), &[], &Limits::nodes(50_000), &AtomicBool::new(false), &mut Collector::default());
    assert!(best.best.is_some_and(|m| e.position().is_legal(m)));
    assert!(searcher.last_nodes() >= 50_000, "{}", searcher.last_nodes());

    let c = Collector::default();
    e.go(Limits { infinite: true, ..Limits::default() }, Box::new(c.clone()));
    std::thread::sleep(Duration::from_millis(100));
    assert!(c.0.lock().unwrap().best.is_empty(), "no bestmove before stop in infinite mode");
    e.stop();
    e.wait();
    assert_eq!(c.0.lock().unwrap().best.len(), 1);

    e.set_syzygy_path(fixture("syzygy").to_str().unwrap()).unwrap();
    e.set_position(Some("8/8/8/4k3/8/8/8/3QK3 w - - 0 1"), &[]).unwrap();
    let log = go(&mut e, Limits::depth(8));
    let last = log.infos.last().unwrap();
    assert!(last.tbhits > 0);
    assert!(
        matches!(last.score, ScoreReport::Cp(cp) if cp >= 10_000)
            || matches!(last.score, ScoreReport::Mate(n) if n > 0)
    );
    check_pvs_legal(e.position(), &log);
}

/// Back at one thread the search is exactly what a fresh single-threaded engine does: helper
/// state never leaks into the main thread's search.
#[test]
fn one_thread_after_helpers_is_deterministic() {
    let run = |e: &mut Engine| {
        e.new_game();
        e.set_position(None, &["d2d4", "g8f6"]).unwrap();
        let log = go(e, Limits::nodes(40_000));
        let last = log.infos.last().unwrap().clone();
        (last.nodes, last.pv, log.best[0].clone())
    };
    let fresh = run(&mut Engine::new());
    let mut e = Engine::new();
    e.set_threads(2);
    let _ = run(&mut e);
    e.set_threads(1);
    assert_eq!(run(&mut e), fresh);
}

/// All 35 tables of the data set load, and a 4-piece ending is probed and scored as a win.
#[test]
#[ignore = "needs ../shared/data"]
fn syzygy_full_set_is_probed() {
    let dir = shared_data("syzygy").unwrap_or_else(|e| panic!("{e}"));
    let mut e = Engine::new();
    assert_eq!(e.set_syzygy_path(dir.to_str().unwrap()).unwrap(), 70);
    let fen = "8/8/8/4k3/8/8/8/KBN5 w - - 0 1";
    e.set_position(Some(fen), &[]).unwrap();
    let log = go(&mut e, Limits::depth(6));
    let last = log.infos.last().unwrap();
    assert!(last.tbhits > 0, "{fen}: no tbhits");
    match last.score {
        ScoreReport::Cp(cp) => assert!(cp >= 10_000, "{fen}: {cp}"),
        ScoreReport::Mate(n) => assert!(n > 0, "{fen}: mate {n}"),
    }
    check_pvs_legal(e.position(), &log);
}

/// Run by hand, never in CI (`.ci/run` skips `manual::`): benchmarks and debugging aids.
mod manual {
    use super::*;

    /// Tactical strength on Win At Chess (300 positions). Not part of CI (5 minutes at 1 s):
    /// `WAC_MS=1000 cargo test --release --test search wac -- --ignored --nocapture`
    /// (`WAC_STEP=n` searches every n-th position only).
    #[test]
    #[ignore = "benchmark; needs ../shared/data"]
    fn wac_suite() {
        let path = shared_data("tests/wac.epd").unwrap_or_else(|e| panic!("{e}"));
        let text = std::fs::read_to_string(path).unwrap();
        let entries = evochess::measure::epd_suite::parse_epd(&text).unwrap();
        let ms: u64 = std::env::var("WAC_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
        let step: usize = std::env::var("WAC_STEP").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
        let sample: Vec<_> = entries.into_iter().step_by(step).collect();
        let limits = Limits::movetime(Duration::from_millis(ms));
        let mut failed = Vec::new();
        let results = evochess::measure::epd_suite::solve_epd_suite(&sample, &Params::default(), &limits, 64, |r| {
            if !r.solved {
                failed.push(format!("{} ({:?})", r.id, r.best.map(|m| m.to_string())));
            }
        });
        let solved = results.iter().filter(|r| r.solved).count();
        let nodes: u64 = results.iter().map(|r| r.nodes).sum();
        println!("WAC: {solved}/{} solved at {ms} ms, {nodes} nodes", results.len());
        println!("failed: {}", failed.join(", "));
    }

    /// Prints the info lines of one search (a debugging aid):
    /// `FEN='...' MS=2000 cargo test --test search analyse -- --ignored --nocapture`
    #[test]
    #[ignore = "debugging aid"]
    fn analyse() {
        let fen = std::env::var("FEN")
            .unwrap_or_else(|_| Fen::from_position(&Chess::default(), shakmaty::EnPassantMode::Legal).to_string());
        let ms: u64 = std::env::var("MS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
        let mut e = Engine::new();
        if let Ok(overlay) = std::env::var("PARAMS") {
            e.set_params(Params::default().with_toml(&overlay.replace(';', "\n")).unwrap());
        }
        e.set_position(Some(&fen), &[]).unwrap();
        let log = go(&mut e, Limits::movetime(Duration::from_millis(ms)));
        for i in &log.infos {
            let pv: Vec<String> = i.pv.iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect();
            println!(
                "depth {} sel {} {:?} nodes {} nps {} {}",
                i.depth,
                i.seldepth,
                i.score,
                i.nodes,
                i.nps,
                pv.join(" ")
            );
        }
        println!("bestmove {:?}", log.best[0].best.map(|m| m.to_string()));
    }

    /// Self-play at 1 s + 0.01 s per side with the engine's default Move Overhead: no flag falls.
    /// Timing-sensitive, so not part of CI:
    /// `cargo test --release --test search fast_time_control -- --ignored --nocapture`
    #[test]
    #[ignore = "timing-sensitive; run in release"]
    fn fast_time_control_never_flags() {
        let mut e = Engine::new();
        e.new_game();
        let mut moves: Vec<String> = Vec::new();
        let (mut wtime, mut btime, inc) = (1000i64, 1000i64, 10i64);
        let mut min_left = i64::MAX;
        for _ in 0..160 {
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            e.set_position(None, &refs).unwrap();
            if e.position().is_game_over() {
                break;
            }
            let white = e.position().turn().is_white();
            let limits = Limits {
                wtime: Some(wtime),
                btime: Some(btime),
                winc: Some(inc),
                binc: Some(inc),
                ..Limits::default()
            };
            let start = Instant::now();
            let log = go(&mut e, limits);
            let used = start.elapsed().as_millis() as i64;
            if std::env::var_os("TC_TRACE").is_some() {
                println!(
                    "ply {} clock {} used {used} depth {}",
                    moves.len(),
                    if white { wtime } else { btime },
                    log.infos.last().map_or(0, |i| i.depth)
                );
            }
            let clock = if white { &mut wtime } else { &mut btime };
            *clock -= used;
            assert!(*clock > 0, "flag fell at ply {}: {used} ms used", moves.len());
            min_left = min_left.min(*clock);
            *clock += inc;
            let m = log.best[0].best.unwrap();
            moves.push(m.to_uci(CastlingMode::Standard).to_string());
        }
        println!("{} plies, least time left {min_left} ms, final {wtime}/{btime}", moves.len());
    }
}
