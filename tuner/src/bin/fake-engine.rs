//! A misbehaving UCI engine for the runner's tests: it plays seeded random legal moves and,
//! on request, crashes, stalls, sends illegal moves, prints garbage or oversteps its time.
//!
//! ```text
//! fake-engine [--seed N] [--crash-after N] [--stall-after N] [--illegal-after N]
//!             [--invalid-after N] [--slow-after N --slow-ms MS] [--garbage] [--no-uciok]
//!             [--no-score] [--score CP] [--params-option [--refuse-params]] [--log FILE]
//!             [--ignore-nodes] [--none-after N] [--report-nodes N]
//! ```
//! "after N" counts `go` commands since the process started, so a restarted engine behaves
//! again for N moves. `--log` appends every command received (to check what the runner sent).
//! Engines that do not support `go nodes`: `--ignore-nodes` searches such a `go` until `stop`
//! (as toga2 does), `--none-after N` answers `bestmove (none)` (as Glaurung does), and
//! `--report-nodes N` claims N nodes in its `info` lines.

use std::{
    io::{self, BufRead, Write},
    process, thread,
    time::Duration,
};

use shakmaty::{CastlingMode, Chess, Position, fen::Fen, uci::UciMove};

#[derive(Default)]
struct Behaviour {
    seed: u64,
    crash_after: Option<u64>,
    stall_after: Option<u64>,
    illegal_after: Option<u64>,
    invalid_after: Option<u64>,
    slow_after: Option<u64>,
    slow_ms: u64,
    garbage: bool,
    no_uciok: bool,
    no_score: bool,
    params_option: bool,
    /// Answer `setoption name ParamsFile` with `info string error ...`, as an engine does with
    /// a parameter file it cannot load.
    refuse_params: bool,
    score: i32,
    log: Option<String>,
    ignore_nodes: bool,
    none_after: Option<u64>,
    report_nodes: u64,
}

fn parse_args() -> Behaviour {
    let mut b = Behaviour { slow_ms: 1000, report_nodes: 1, ..Behaviour::default() };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let val = |i: usize| args.get(i + 1).cloned().unwrap_or_else(|| die(&format!("{} needs a value", args[i])));
        let num = |i: usize| val(i).parse::<u64>().unwrap_or_else(|_| die(&format!("{}: bad number", args[i])));
        match args[i].as_str() {
            "--seed" => b.seed = num(i),
            "--crash-after" => b.crash_after = Some(num(i)),
            "--stall-after" => b.stall_after = Some(num(i)),
            "--illegal-after" => b.illegal_after = Some(num(i)),
            "--invalid-after" => b.invalid_after = Some(num(i)),
            "--slow-after" => b.slow_after = Some(num(i)),
            "--slow-ms" => b.slow_ms = num(i),
            "--score" => b.score = val(i).parse().unwrap_or_else(|_| die("--score: bad number")),
            "--log" => b.log = Some(val(i)),
            "--none-after" => b.none_after = Some(num(i)),
            "--report-nodes" => b.report_nodes = num(i),
            "--garbage" | "--no-uciok" | "--no-score" | "--params-option" | "--refuse-params" | "--ignore-nodes" => {
                match args[i].as_str() {
                    "--garbage" => b.garbage = true,
                    "--ignore-nodes" => b.ignore_nodes = true,
                    "--refuse-params" => b.refuse_params = true,
                    "--no-uciok" => b.no_uciok = true,
                    "--params-option" => b.params_option = true,
                    _ => b.no_score = true,
                }
                i += 1;
                continue;
            }
            other => die(&format!("unknown argument {other}")),
        }
        i += 2;
    }
    b
}

fn die(msg: &str) -> ! {
    eprintln!("fake-engine: {msg}");
    process::exit(2)
}

fn parse_position(cmd: &str) -> Option<Chess> {
    let rest = cmd.strip_prefix("position")?.trim();
    let (setup, moves) = match rest.split_once("moves") {
        Some((s, m)) => (s.trim(), m.split_whitespace().collect::<Vec<_>>()),
        None => (rest, Vec::new()),
    };
    let mut pos = if setup == "startpos" {
        Chess::default()
    } else {
        let fen: Fen = setup.strip_prefix("fen")?.trim().parse().ok()?;
        fen.into_position(CastlingMode::Standard).ok()?
    };
    for m in moves {
        let mv = m.parse::<UciMove>().ok()?.to_move(&pos).ok()?;
        pos.play_unchecked(mv);
    }
    Some(pos)
}

/// splitmix64: a tiny deterministic generator, enough to pick moves.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `info` and `bestmove` lines of the `gos`-th search, from `pos`.
fn answer(out: &mut impl Write, b: &Behaviour, pos: &Chess, gos: u64) {
    let hit = |n: Option<u64>| n.is_some_and(|n| gos > n);
    let moves = pos.legal_moves();
    let mv = if hit(b.illegal_after) {
        // A syntactically fine move that is not legal here.
        "a1a1".to_string()
    } else if hit(b.invalid_after) {
        "xyzzy".to_string()
    } else if hit(b.none_after) {
        "(none)".to_string()
    } else if moves.is_empty() {
        "0000".to_string()
    } else {
        let r = mix(b.seed ^ mix(gos) ^ u64::from(pos.fullmoves().get()));
        moves[(r % moves.len() as u64) as usize].to_uci(CastlingMode::Standard).to_string()
    };
    if !b.no_score {
        let _ = writeln!(out, "info depth 1 score cp {} nodes {} time 0 pv {mv}", b.score, b.report_nodes);
    }
    let _ = writeln!(out, "bestmove {mv}");
}

fn main() {
    let b = parse_args();
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut log = b.log.as_ref().map(|p| {
        std::fs::OpenOptions::new().create(true).append(true).open(p).unwrap_or_else(|e| die(&format!("{p}: {e}")))
    });
    let mut pos = Chess::default();
    let mut gos = 0u64;
    let mut searching = false;
    let mut line = String::new();
    loop {
        line.clear();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let cmd = line.trim();
        if let Some(f) = &mut log {
            let _ = writeln!(f, "{cmd}");
        }
        let word = cmd.split_whitespace().next().unwrap_or("");
        match word {
            "uci" => {
                let _ = writeln!(out, "id name FakeEngine");
                let _ = writeln!(out, "id author evochess tests");
                let _ = writeln!(out, "option name Hash type spin default 16 min 1 max 1024");
                let _ = writeln!(out, "option name Move Overhead type spin default 10 min 0 max 5000");
                let _ = writeln!(out, "option name Book File type string default <empty>");
                if b.params_option {
                    let _ = writeln!(out, "option name ParamsFile type string default <empty>");
                }
                if !b.no_uciok {
                    let _ = writeln!(out, "uciok");
                }
            }
            "isready" => {
                let _ = writeln!(out, "readyok");
            }
            "position" => match parse_position(cmd) {
                Some(p) => pos = p,
                None => die(&format!("bad position command: {cmd}")),
            },
            "go" => {
                gos += 1;
                let hit = |n: Option<u64>| n.is_some_and(|n| gos > n);
                if hit(b.crash_after) {
                    let _ = out.flush();
                    process::abort();
                }
                if hit(b.stall_after) {
                    // Hang for good: never read or answer again.
                    loop {
                        thread::sleep(Duration::from_secs(3600));
                    }
                }
                if hit(b.slow_after) {
                    thread::sleep(Duration::from_millis(b.slow_ms));
                }
                if b.garbage {
                    let _ = writeln!(out, "\u{1b}[31m!!garbage!! \u{fffd} bestmov e2e4 {{}}");
                    let _ = writeln!(out, "info depth x score cp banana pv");
                    let _ = writeln!(out);
                }
                if b.ignore_nodes && cmd.split_whitespace().any(|t| t == "nodes") {
                    // Searches on as if told `go infinite`; answers only `stop`.
                    searching = true;
                } else {
                    answer(&mut out, &b, &pos, gos);
                }
            }
            "stop" if searching => {
                searching = false;
                answer(&mut out, &b, &pos, gos);
            }
            "quit" => return,
            "setoption" if b.refuse_params && cmd.contains("name ParamsFile") => {
                let _ = writeln!(out, "info string error: ParamsFile: unknown parameter `search.from_a_newer_build`");
            }
            _ => {} // ucinewgame, setoption, stop: nothing to do
        }
        let _ = out.flush();
    }
}
