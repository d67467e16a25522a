//! Scripted UCI sessions against the real binary: protocol compliance, special positions and
//! bad input. Every wait has a timeout, so a hung engine fails instead of hanging CI.

mod common;

use std::time::{Duration, Instant};

use common::{REPLY, Session, best_of, parse_info};
use evochess::Params;
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

fn legal_moves(fen: &str) -> Vec<String> {
    let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    pos.legal_moves().iter().map(|m| m.to_uci(CastlingMode::Standard).to_string()).collect()
}

fn is_legal_from(fen: &str, mv: &str) -> bool {
    legal_moves(fen).iter().any(|m| m == mv)
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Searches `position` with `go`, returning the info lines and the best move.
/// Sends a bad `go`; returns its one error line and the best move of the search that follows.
fn bad_go(s: &mut Session, go: &str) -> (String, String) {
    s.send(go);
    let lines = s.lines_until("bestmove", REPLY);
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error:")).collect();
    assert_eq!(errors.len(), 1, "{go}: {lines:?}");
    (errors[0].clone(), best_of(lines.last().unwrap()).to_string())
}

fn search(s: &mut Session, position: &str, go: &str) -> (Vec<String>, String) {
    s.send(position);
    s.send(go);
    let (infos, best) = s.read_until_bestmove(REPLY);
    (infos, best_of(&best).to_string())
}

#[test]
fn handshake_lists_id_and_the_engine_options() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.lines_until("uciok", REPLY);
    assert!(lines.iter().any(|l| l.starts_with("id name evochess ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")), "{lines:?}");
    for expected in [
        "option name Hash type spin default 16 min 1 max",
        "option name Threads type spin default 1 min 1 max",
        "option name Move Overhead type spin default",
        "option name Clear Hash type button",
        "option name MultiPV type spin default 1 min 1 max",
        "option name Ponder type check default false",
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default",
        "option name ParamsFile type string default <empty>",
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(expected)), "missing `{expected}` in {lines:?}");
    }
    assert!(lines.contains(&"option name ShowTunables type check default false".to_string()), "{lines:?}");
    // Only the engine options: parameters are listed in tuning mode only.
    let options = lines.iter().filter(|l| l.starts_with("option ")).count();
    assert_eq!(options, 12, "{lines:?}");
    // ... but set in any mode.
    let spec = Params::specs().next().unwrap();
    s.send(&format!("setoption name {} value {}", spec.name, spec.max));
    s.sync_quiet();
    // Turned on by the option, the next `uci` lists them.
    s.send("setoption name ShowTunables value true");
    s.send("uci");
    let tuning = s.lines_until("uciok", REPLY);
    assert!(tuning.contains(&"option name ShowTunables type check default true".to_string()), "{tuning:?}");
    assert_eq!(tuning.iter().filter(|l| l.starts_with("option ")).count(), 12 + Params::specs().count());
    let line = format!("option name {} type spin default {} min {} max {}", spec.name, spec.max, spec.min, spec.max);
    assert!(tuning.contains(&line), "missing `{line}` (the current value is the default)");
    s.sync_quiet();
    assert!(s.quit().success());
}

#[test]
fn tune_flag_lists_every_parameter() {
    let mut s = Session::start_with(&["--tune"]);
    s.send("uci");
    let lines = s.lines_until("uciok", REPLY);
    for spec in Params::specs() {
        let line =
            format!("option name {} type spin default {} min {} max {}", spec.name, spec.default, spec.min, spec.max);
        assert!(lines.contains(&line), "missing `{line}`");
    }
    s.sync_quiet();
    assert!(s.quit().success());
}

#[test]
fn position_startpos_and_fen_with_moves() {
    let mut s = Session::start();
    assert_eq!(s.fen(), START);
    s.send("position startpos moves e2e4 e7e5 g1f3");
    assert_eq!(s.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    s.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4 e8d7");
    assert_eq!(s.fen(), "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2");
    // Without a move list, and back to the start position.
    s.send("position startpos");
    assert_eq!(s.fen(), START);
    s.sync_quiet();
}

#[test]
fn go_depth_reports_well_formed_info() {
    let mut s = Session::start();
    s.send("uci");
    s.expect_line("uciok", REPLY);
    s.send("isready");
    s.expect_line("readyok", REPLY);
    s.send("position startpos moves e2e4");
    s.send("go depth 4");
    let (infos, best) = s.read_until_bestmove(REPLY);
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert!(is_legal_from(after_e4, best_of(&best)), "{best}");
    let parsed: Vec<_> = infos.iter().filter_map(|l| parse_info(l)).collect();
    let last = parsed.last().unwrap_or_else(|| s.fail("no info line with a score"));
    assert_eq!(last.depth, Some(4), "{infos:?}");
    assert!(last.cp.is_some() || last.mate.is_some());
    assert!(last.nodes.unwrap() > 0);
    assert_eq!(last.pv.first().map(String::as_str), Some(best_of(&best)), "bestmove is the PV's first move");
    for line in infos.iter().filter(|l| l.contains(" score ")) {
        for key in
            [" depth ", " seldepth ", " multipv ", " nodes ", " nps ", " hashfull ", " tbhits ", " time ", " pv "]
        {
            assert!(line.contains(key), "`{key}` missing from `{line}`");
        }
    }
    // `bestmove X ponder Y`: Y must be legal after X.
    if let Some(ponder) = best.split_whitespace().nth(3) {
        let mut pos: Chess = after_e4.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let m = best_of(&best).parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
        assert!(ponder.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).is_ok(), "{best}");
    }
}

#[test]
fn go_nodes_movetime_and_one_sided_clock() {
    let mut s = Session::start();
    let (_, best) = search(&mut s, "position startpos", "go nodes 3000");
    assert!(is_legal_from(START, &best), "{best}");

    let t = Instant::now();
    let (_, best) = search(&mut s, "position startpos", "go movetime 300");
    let took = t.elapsed();
    assert!(is_legal_from(START, &best));
    assert!(took >= Duration::from_millis(150), "movetime 300 answered after {took:?}");
    assert!(took < Duration::from_secs(5), "movetime 300 answered after {took:?}");

    // Only our clock given (fastchess compliance check).
    let (_, best) = search(&mut s, "position startpos", "go wtime 1000");
    assert!(is_legal_from(START, &best));
    let (_, best) = search(&mut s, "position startpos moves e2e4", "go btime 500 binc 10");
    assert!(is_legal_from("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", &best));
    // A GUI that overstepped sends a negative clock: still a move, quickly.
    let (_, best) = search(&mut s, "position startpos", "go wtime -50 btime 1000");
    assert!(is_legal_from(START, &best));
    s.sync_quiet();
}

#[test]
fn infinite_search_waits_for_stop_and_answers_isready() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    s.expect_silence("bestmove", Duration::from_millis(500));
    s.send("isready");
    s.expect_line("readyok", Duration::from_secs(2));
    s.expect_silence("bestmove", Duration::from_millis(200));
    s.send("stop");
    let (_, best) = s.read_until_bestmove(Duration::from_secs(5));
    assert!(is_legal_from(START, best_of(&best)), "{best}");
    s.sync_quiet();

    // Even with nothing to search (stalemate) an infinite search answers only after `stop`.
    s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    s.send("go infinite");
    s.expect_silence("bestmove", Duration::from_millis(300));
    s.send("stop");
    let (_, best) = s.read_until_bestmove(Duration::from_secs(5));
    assert_eq!(best, "bestmove 0000");
}

#[test]
fn ponder_then_ponderhit() {
    let mut s = Session::start();
    s.send("setoption name Ponder value true");
    s.sync_quiet();
    s.send("position startpos moves e2e4");
    s.send("go ponder wtime 2000 btime 2000");
    // While pondering no bestmove may appear, however long it takes.
    s.expect_silence("bestmove", Duration::from_millis(400));
    s.send("ponderhit");
    let (_, best) = s.read_until_bestmove(Duration::from_secs(5));
    assert!(is_legal_from("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", best_of(&best)), "{best}");

    // Ponder miss: the GUI stops the pondering search and starts a new one.
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder wtime 2000 btime 2000");
    s.expect_silence("bestmove", Duration::from_millis(200));
    s.send("stop");
    s.read_until_bestmove(Duration::from_secs(5));
    let (_, best) = search(&mut s, "position startpos moves e2e4 c7c5", "go wtime 500 btime 500");
    assert!(is_legal_from("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", &best));
}

#[test]
fn setoption_names_with_spaces_and_any_case() {
    let mut s = Session::start();
    for cmd in [
        "setoption name Move Overhead value 50",
        "setoption name move overhead value 0",
        "setoption name Clear Hash",
        "setoption name Hash value 32",
        "setoption name hash value 1",
        "setoption name Threads value 1",
        "setoption name SyzygyProbeDepth value 4",
        "setoption name MultiPV value 1",
        "setoption name Ponder value false",
    ] {
        s.send(cmd);
        s.sync_quiet();
    }
    let (_, best) = search(&mut s, "position startpos", "go depth 3");
    assert!(is_legal_from(START, &best));
}

#[test]
fn multipv_two_reports_two_lines() {
    let mut s = Session::start();
    s.send("setoption name MultiPV value 2");
    s.sync_quiet();
    let (infos, best) = search(&mut s, "position startpos", "go depth 4");
    let at_depth: Vec<_> = infos.iter().filter_map(|l| parse_info(l)).filter(|i| i.depth == Some(4)).collect();
    let first = at_depth.iter().rfind(|i| i.multipv == Some(1)).unwrap_or_else(|| s.fail("no multipv 1"));
    let second = at_depth.iter().rfind(|i| i.multipv == Some(2)).unwrap_or_else(|| s.fail("no multipv 2"));
    assert_ne!(first.pv.first(), second.pv.first(), "the two lines start with different moves");
    assert_eq!(first.pv.first().map(String::as_str), Some(best.as_str()));
    // Scores are ordered best first.
    if let (Some(a), Some(b)) = (first.cp, second.cp) {
        assert!(a >= b, "multipv 1 {a} < multipv 2 {b}");
    }
}

#[test]
fn capture_promotion_is_found_and_printed() {
    let mut s = Session::start();
    // bxa8=Q+ wins the rook with check; b8=Q loses the queen to Rxb8.
    let (_, best) = search(&mut s, "position fen r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "go depth 5");
    assert_eq!(best, "b7a8q");
    // Under-promotion input is understood too.
    s.send("position fen r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1 moves b7a8n");
    assert_eq!(s.fen(), "N3k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn en_passant_in_position_moves() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4 a7a6 e4e5 d7d5");
    // The ep square is shown because the capture is legal.
    assert_eq!(s.fen(), "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    s.send("position startpos moves e2e4 a7a6 e4e5 d7d5 e5d6");
    assert_eq!(s.fen(), "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    s.sync_quiet();
}

#[test]
fn castling_is_accepted_and_printed_as_king_move() {
    let mut s = Session::start();
    let before = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    s.send(&format!("position fen {before} moves e1g1"));
    assert_eq!(s.fen(), "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4");
    // Restricted to castling, the engine must print it the standard way.
    let (infos, best) = search(&mut s, &format!("position fen {before}"), "go depth 3 searchmoves e1g1");
    assert_eq!(best, "e1g1");
    assert!(infos.iter().all(|l| !l.contains("e1h1")), "{infos:?}");
    // Black castles long in its PV or move list the same way.
    let (_, best) = search(&mut s, "position fen r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "go depth 2 searchmoves e8c8");
    assert_eq!(best, "e8c8");
}

#[test]
fn no_legal_move_gives_bestmove_0000() {
    let mut s = Session::start();
    for fen in [
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", // stalemate
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", // checkmate
    ] {
        assert!(legal_moves(fen).is_empty());
        let (_, best) = search(&mut s, &format!("position fen {fen}"), "go depth 5");
        assert_eq!(best, "0000", "{fen}");
        let (_, best) = search(&mut s, &format!("position fen {fen}"), "go wtime 1000 btime 1000");
        assert_eq!(best, "0000", "{fen}");
    }
}

#[test]
fn single_legal_move_is_played() {
    let fen = "k7/8/1K6/8/8/8/8/7R b - - 0 1";
    assert_eq!(legal_moves(fen), vec!["a8b8".to_string()]);
    let mut s = Session::start();
    let (_, best) = search(&mut s, &format!("position fen {fen}"), "go wtime 10000 btime 10000");
    assert_eq!(best, "a8b8");
}

#[test]
fn mate_in_one_reports_mate_score() {
    let mut s = Session::start();
    let (infos, best) = search(&mut s, "position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "go depth 4");
    assert_eq!(best, "a1a8");
    let last = infos.iter().filter_map(|l| parse_info(l)).next_back().unwrap();
    assert_eq!(last.mate, Some(1), "{infos:?}");
    // From the losing side: every move (here the only one, Kg8) allows Ra8#, so `mate -1`.
    // (Depth 6: null-move pruning at the mating side hides the mate from shallower searches.)
    let (infos, _) = search(&mut s, "position fen 7k/R7/6K1/8/8/8/8/8 b - - 0 1", "go depth 6");
    let last = infos.iter().filter_map(|l| parse_info(l)).next_back().unwrap();
    assert_eq!(last.mate, Some(-1), "{infos:?}");
}

#[test]
fn bad_input_is_reported_and_the_engine_carries_on() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    let after_e4 = s.fen();

    // Unknown commands and garbage.
    assert!(s.expect_error("foo bar").contains("foo"));
    assert!(s.expect_error("\u{1}\u{7f} ☃").contains("error"));
    // Blank lines are ignored silently.
    s.send("");
    s.send("   ");
    s.sync_quiet();

    // Malformed FEN and bad moves keep the previous position.
    let e = s.expect_error("position fen rnbqkbnr/pppppppp/8/8/8 w KQkq - 0 1");
    assert!(e.contains("FEN") || e.contains("fen"), "{e}");
    let e = s.expect_error("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    assert!(e.contains("8/8/8/8/8/8/8/8"), "{e}");
    assert!(s.expect_error("position startpos moves e2e4 e7e5 e1e3").contains("e1e3"));
    assert!(s.expect_error("position startpos moves e2e4 zz9").contains("zz9"));
    assert!(s.expect_error("position startpos moves e2e4 e2e4").contains("e2e4"));
    assert!(s.expect_error("position").contains("startpos"));
    assert!(s.expect_error("position sideways").contains("sideways"));
    assert_eq!(s.fen(), after_e4);

    // Options: unknown, wrong type, out of range.
    assert!(s.expect_error("setoption name No Such Option value 3").contains("No Such Option"));
    let e = s.expect_error("setoption name Hash value lots");
    assert!(e.contains("Hash") && e.contains("lots"), "{e}");
    let e = s.expect_error("setoption name Hash value 0");
    assert!(e.contains("Hash") && e.contains('0'), "{e}");
    let e = s.expect_error("setoption name Move Overhead value 99999999999999999999");
    assert!(e.contains("Move Overhead"), "{e}");
    assert!(s.expect_error("setoption name Ponder value maybe").contains("maybe"));
    assert!(s.expect_error("setoption name MultiPV").contains("MultiPV"));
    assert!(s.expect_error("setoption value 3").contains("expected `name`"));
    let spec = Params::specs().next().unwrap();
    let e = s.expect_error(&format!("setoption name {} value {}", spec.name, i64::from(spec.max) + 1));
    assert!(e.contains(spec.name), "{e}");

    // `go` with garbage: the error, then a search with what was valid, so `bestmove` comes.
    for (line, token) in
        [("go depth deep", "deep"), ("go fast", "fast"), ("go movetime", "movetime"), ("go searchmoves a1a8", "a1a8")]
    {
        let (error, best) = bad_go(&mut s, line);
        assert!(error.contains(token), "{line}: {error}");
        assert!(is_legal_from(&after_e4, &best), "{line}: {best}");
    }

    // A 1 MB line, then one over the line limit.
    let huge = "x".repeat(1_000_000);
    let e = s.expect_error(&huge);
    assert!(e.len() < 300, "the error quotes the whole line: {} bytes", e.len());
    let e = s.expect_error(&format!("position fen {}", "x".repeat(500_000)));
    assert!(e.len() < 1000, "the error quotes the whole FEN: {} bytes", e.len());
    let huger = format!("position startpos moves {}", "e2e4 ".repeat(400_000));
    assert!(s.expect_error(&huger).contains("bytes"));

    // Everything still works.
    assert_eq!(s.fen(), after_e4);
    let (_, best) = search(&mut s, "position startpos", "go depth 2");
    assert!(is_legal_from(START, &best));
    assert!(s.quit().success());
}

#[test]
fn go_while_searching_stops_then_goes() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    s.expect_silence("bestmove", Duration::from_millis(200));
    s.send("go depth 2");
    // First the interrupted search's answer, then the new one's.
    let (_, first) = s.read_until_bestmove(REPLY);
    let (_, second) = s.read_until_bestmove(REPLY);
    assert!(is_legal_from(START, best_of(&first)) && is_legal_from(START, best_of(&second)));
    // `position` during a search behaves the same way.
    s.send("go infinite");
    s.expect_silence("bestmove", Duration::from_millis(100));
    s.send("position startpos moves d2d4");
    s.read_until_bestmove(REPLY);
    assert_eq!(s.fen(), "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
}

#[test]
fn quit_and_eof_end_the_process() {
    // `quit` during an infinite search.
    let mut s = Session::start();
    s.send("go infinite");
    s.send("quit");
    assert!(s.wait_exit(Duration::from_secs(5)).success());

    // EOF after a bounded search lets it finish and print its move.
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go depth 3");
    s.close_stdin();
    let (_, best) = s.read_until_bestmove(REPLY);
    assert!(is_legal_from(START, best_of(&best)));
    assert!(s.wait_exit(REPLY).success());

    // EOF during an infinite search stops it.
    let mut s = Session::start();
    s.send("go infinite");
    s.close_stdin();
    s.read_until_bestmove(Duration::from_secs(5));
    assert!(s.wait_exit(Duration::from_secs(5)).success());
}

#[test]
fn same_node_budget_after_ucinewgame_is_reproducible() {
    let mut s = Session::start();
    let mut finals = Vec::new();
    for _ in 0..2 {
        s.send("ucinewgame");
        s.send("position startpos moves e2e4 c7c5 g1f3");
        s.send("go nodes 20000");
        let (infos, best) = s.read_until_bestmove(REPLY);
        let nodes = infos.iter().filter_map(|l| parse_info(l)).filter_map(|i| i.nodes).next_back();
        finals.push((nodes, best));
    }
    assert!(finals[0].0.is_some(), "no info with nodes: {finals:?}");
    assert_eq!(finals[0], finals[1]);
}

#[test]
fn syzygy_tables_are_probed() {
    let dir = evochess::data::fixture("syzygy");
    let mut s = Session::start();
    s.send(&format!("setoption name SyzygyPath value {}", dir.display()));
    let lines = s.sync();
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    let (infos, best) = search(&mut s, "position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1", "go depth 6");
    assert!(is_legal_from("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", &best));
    let hits = infos.iter().filter_map(|l| parse_info(l)).filter_map(|i| i.tbhits).max();
    assert!(hits.unwrap_or(0) > 0, "no tbhits: {infos:?}");

    // A bad path is an error and keeps the engine usable.
    assert!(s.expect_error("setoption name SyzygyPath value /no/such/dir").contains("/no/such/dir"));
    s.send("setoption name SyzygyPath value <empty>");
    s.sync_quiet();
}

#[test]
fn bad_go_tokens_still_end_in_a_bestmove_with_the_valid_limits() {
    let mut s = Session::start();
    s.send("position startpos");
    let (error, best) = bad_go(&mut s, "go depth 3 nodes lots");
    assert!(error.contains("lots") && error.contains("searching with the valid limits"), "{error}");
    assert!(is_legal_from(START, &best));
    // The valid depth was used: the last info line is depth 3.
    s.send("go depth 3 nodes lots");
    let (infos, _) = s.read_until_bestmove(REPLY);
    let depth = infos.iter().filter_map(|l| parse_info(l)).filter_map(|i| i.depth).max();
    assert_eq!(depth, Some(3), "{infos:?}");
    // One illegal move of several in searchmoves: the others are searched.
    let (error, best) = bad_go(&mut s, "go depth 2 searchmoves e2e5 g1f3");
    assert!(error.contains("e2e5"), "{error}");
    assert_eq!(best, "g1f3");
    s.sync_quiet();
}

#[test]
fn go_mate_0_returns_at_once() {
    let mut s = Session::start();
    s.send("position startpos");
    let start = std::time::Instant::now();
    s.send("go mate 0");
    let (_, best) = s.read_until_bestmove(REPLY);
    assert!(start.elapsed() < Duration::from_secs(2), "{:?}", start.elapsed());
    assert!(is_legal_from(START, best_of(&best)));
    s.sync_quiet();
}

/// Hash sizes the system refuses are errors; the engine lives on with its old table.
#[test]
fn hash_too_big_is_an_error_and_the_old_table_stays() {
    // Without a limit: 64 GiB is refused on most machines and lazily mapped on the others; either
    // way the engine answers and keeps working.
    let mut s = Session::start();
    s.send("setoption name Hash value 65536");
    let lines = s.sync();
    assert!(lines.iter().all(|l| l.contains("cannot allocate a 65536 MiB hash table")), "{lines:?}");
    let (_, best) = search(&mut s, "position startpos", "go depth 4");
    assert!(is_legal_from(START, &best));
    assert!(s.quit().success());

    // Under a 1 GiB address-space limit the refusal is certain.
    let mut s = Session::start_with_memory_limit(1 << 20);
    s.send("setoption name Hash value 64");
    s.sync_quiet();
    let e = s.expect_error("setoption name Hash value 65536");
    assert!(e.contains("cannot allocate a 65536 MiB hash table; keeping the 64 MiB table"), "{e}");
    let e = s.expect_error("setoption name Hash value 4096");
    assert!(e.contains("keeping the 64 MiB table"), "{e}");
    let (_, best) = search(&mut s, "position startpos", "go depth 6");
    assert!(is_legal_from(START, &best));
    assert!(s.quit().success());
}

/// `perft 9` and `bench 30` take hours; the loop must still answer and end on `stop` or `quit`.
#[test]
fn long_perft_and_bench_do_not_block_the_loop() {
    for (command, ender) in [("perft 9", "stop"), ("bench 30", "stop"), ("perft 9", "quit"), ("bench 30", "quit")] {
        let mut s = Session::start();
        s.send(command);
        let start = std::time::Instant::now();
        s.sync();
        assert!(start.elapsed() < Duration::from_secs(2), "{command}: isready took {:?}", start.elapsed());
        s.send(ender);
        if ender == "quit" {
            assert!(s.wait_exit(Duration::from_secs(5)).success(), "{command} then quit");
        } else {
            let lines = s.sync();
            assert!(lines.iter().any(|l| l.contains("stopped")), "{command}: {lines:?}");
            assert!(lines.iter().all(|l| !l.starts_with("Nodes searched") && !l.contains(" nps")), "{lines:?}");
            // The loop is usable afterwards, and a short perft still completes.
            s.send("perft 2");
            assert_eq!(s.expect_line("Nodes searched", REPLY), "Nodes searched: 400");
            // Stockfish's spelling, which perft-diffing tools send, counts the same tree.
            s.send("go perft 3");
            assert_eq!(s.expect_line("Nodes searched", REPLY), "Nodes searched: 8902");
            assert!(s.quit().success());
        }
    }
}

/// Lazy SMP over the protocol: `Threads 2` is accepted, a depth search answers one legal move
/// (with the node counts of both threads), `isready` and `stop` are answered during an infinite
/// two-thread search, and out-of-range thread counts are refused naming the option.
#[test]
fn two_threads_search_stop_and_reject_bad_counts() {
    let mut s = Session::start();
    s.send("setoption name Threads value 2");
    s.sync_quiet();
    let (infos, best) = search(&mut s, "position startpos moves e2e4", "go depth 8");
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert!(is_legal_from(after_e4, &best), "{best}");
    let parsed: Vec<_> = infos.iter().filter_map(|l| parse_info(l)).collect();
    assert_eq!(parsed.last().and_then(|i| i.depth), Some(8), "{infos:?}");
    assert_eq!(parsed.last().unwrap().pv.first(), Some(&best));
    let nodes: Vec<u64> = parsed.iter().filter_map(|i| i.nodes).collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "node counts only grow: {nodes:?}");
    // Exactly one bestmove: nothing else arrives before `readyok`.
    let rest = s.sync();
    assert!(rest.iter().all(|l| !l.starts_with("bestmove")), "{rest:?}");

    s.send("position startpos");
    s.send("go infinite");
    s.expect_silence("bestmove", Duration::from_millis(300));
    s.send("isready");
    s.expect_line("readyok", Duration::from_secs(5));
    s.send("stop");
    let (_, best) = s.read_until_bestmove(Duration::from_secs(5));
    assert!(is_legal_from(START, best_of(&best)), "{best}");
    s.sync_quiet();

    for bad in ["0", "300", "-1"] {
        let e = s.expect_error(&format!("setoption name Threads value {bad}"));
        assert!(e.contains("Threads") && e.contains(bad), "{e}");
    }
    // Still two threads and working; back to one.
    let (_, best) = search(&mut s, "position startpos", "go nodes 20000");
    assert!(is_legal_from(START, &best), "{best}");
    s.send("setoption name threads value 1");
    s.sync_quiet();
    let (_, best) = search(&mut s, "position startpos", "go depth 4");
    assert!(is_legal_from(START, &best), "{best}");
    assert!(s.quit().success());
}

/// Pondering with helpers: no bestmove before `ponderhit`, then one, as with one thread.
#[test]
fn ponder_with_two_threads() {
    let mut s = Session::start();
    s.send("setoption name Ponder value true");
    s.send("setoption name Threads value 2");
    s.sync_quiet();
    s.send("position startpos moves e2e4");
    s.send("go ponder wtime 2000 btime 2000");
    s.expect_silence("bestmove", Duration::from_millis(400));
    s.send("ponderhit");
    let (_, best) = s.read_until_bestmove(Duration::from_secs(5));
    assert!(is_legal_from("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", best_of(&best)), "{best}");
    s.sync_quiet();
}
