//! The UCI front end: a stdin reader thread feeds lines through a channel to one dispatch loop
//! that drives the [`Engine`]. Searches run on the engine's own thread and print through a
//! listener, so `isready`, `stop` and `ponderhit` are answered while the engine thinks.
//!
//! Behaviour worth knowing (also in the README):
//! * Bad input never ends the loop: it is answered with `info string error: ...` naming the bad
//!   token, move, option or value, and the state is left unchanged. Blank lines are ignored.
//! * A command that changes engine state (`position`, `go`, `setoption`, `ucinewgame`, `bench`)
//!   while a search is running first stops that search (its `bestmove` is printed), then runs:
//!   `go` during a search is "stop, then go".
//! * `quit` stops the search and exits. End of input waits for a search that will end by itself
//!   (depth, nodes, time) and stops one that would not (`infinite`, `ponder`, no limits).
//! * Lines longer than [`MAX_LINE`] bytes are discarded with an error.

pub mod command;
pub mod options;
pub mod out;

use std::{
    fmt,
    io::{BufRead, Read},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    thread,
};

use crossbeam_channel::{Receiver, Sender};
use shakmaty::{Chess, Move, Position};

use self::{
    command::UciCommand,
    options::{OptionId, OptionValue},
    out::{BestMoveLine, BoardDiagram, EvalLine, Id, InfoLine, InfoString, Out, UciMoveText},
};
use crate::{
    engine::{BestMove, Engine, SearchInfo, SearchListener},
    limits::Limits,
    params::Params,
};

/// Longest accepted input line (1 MiB is ~200 000 moves of `position ... moves`).
pub const MAX_LINE: usize = 1 << 20;

/// What the reader thread passes on.
#[derive(Debug, PartialEq, Eq)]
enum Input {
    Line(String),
    /// A line over [`MAX_LINE`] bytes, skipped; its length.
    TooLong(usize),
}

/// Reads lines until EOF (or a read error), dropping `tx` at the end so the loop sees EOF.
fn read_lines(mut input: impl BufRead, tx: Sender<Input>) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = (&mut input).take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buf);
        let msg = match read {
            Ok(0) => break,
            Ok(n) if n > MAX_LINE && buf.last() != Some(&b'\n') => {
                let mut skipped = n;
                // Skip to the end of the line in bounded chunks, never holding it whole.
                loop {
                    buf.clear();
                    match (&mut input).take(1 << 16).read_until(b'\n', &mut buf) {
                        Ok(0) => break,
                        Ok(k) => {
                            skipped += k;
                            if buf.last() == Some(&b'\n') {
                                break;
                            }
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
                Input::TooLong(skipped)
            }
            Ok(_) => Input::Line(String::from_utf8_lossy(&buf).into_owned()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::error!("cannot read input: {e}");
                break;
            }
        };
        if tx.send(msg).is_err() {
            break; // the loop has quit
        }
    }
}

/// Runs the UCI loop on `input` until `quit` or end of input, printing to `out`.
pub fn run(engine: Engine, input: impl BufRead + Send + 'static, out: Out) {
    let (tx, rx) = crossbeam_channel::unbounded();
    let reader = thread::Builder::new().name("uci-input".into()).spawn(move || read_lines(input, tx));
    if let Err(e) = reader {
        log::error!("cannot start the input thread: {e}");
        return;
    }
    Session::new(engine, out).serve(rx);
}

/// Prints search output; remembers whether the best move has been sent, so the loop can tell a
/// search it would interrupt from one that is only winding down.
struct UciListener {
    out: Out,
    done: Arc<AtomicBool>,
}

impl SearchListener for UciListener {
    fn on_info(&mut self, info: &SearchInfo) {
        self.out.line(InfoLine(info));
    }

    fn on_string(&mut self, text: &str) {
        self.out.line(InfoString(text));
    }

    fn on_bestmove(&mut self, best: &BestMove) {
        self.out.line(BestMoveLine(best));
        self.done.store(true, Ordering::Release);
    }
}

/// Loop state beyond the engine's.
struct Session {
    engine: Engine,
    out: Out,
    /// Limits of the last `go` and its "best move sent" flag.
    search: Option<(Limits, Arc<AtomicBool>)>,
    /// The `Ponder` option: only announced and stored (pondering is driven by `go ponder`).
    ponder: bool,
}

/// Whether the loop goes on after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

impl Session {
    fn new(engine: Engine, out: Out) -> Session {
        let mut s = Session { engine, out, search: None, ponder: false };
        // Make the engine agree with the announced option defaults (Hash and Move Overhead
        // share the engine's constants).
        s.engine.set_syzygy_probe_depth(options::DEFAULT_SYZYGY_PROBE_DEPTH as u32);
        s
    }

    fn serve(mut self, rx: Receiver<Input>) {
        let mut explicit_quit = false;
        for input in rx {
            match input {
                Input::TooLong(n) => self.out.error(format_args!("input line of {n} bytes ignored (limit {MAX_LINE})")),
                Input::Line(line) => {
                    if self.handle_line(&line) == Flow::Quit {
                        explicit_quit = true;
                        break;
                    }
                }
            }
        }
        // `quit` stops at once; end of input lets a self-terminating search finish.
        let unbounded = self.search.as_ref().is_some_and(|(l, _)| is_open_ended(l));
        if explicit_quit || unbounded {
            self.engine.stop();
        }
        self.engine.wait();
    }

    /// Parses and executes one line. Errors are reported, never propagated.
    fn handle_line(&mut self, line: &str) -> Flow {
        match line.parse::<UciCommand>() {
            Ok(cmd) => {
                log::debug!("<< {cmd}");
                self.execute(cmd)
            }
            Err(command::ParseCommandError::Empty) => Flow::Continue,
            Err(e) => {
                self.out.error(e);
                Flow::Continue
            }
        }
    }

    /// Stops a running search before a state-changing command and waits for its `bestmove`.
    fn settle(&mut self, what: &str) {
        if !self.engine.is_searching() {
            return;
        }
        let interrupting = self.search.as_ref().is_some_and(|(_, done)| !done.load(Ordering::Acquire));
        if interrupting {
            self.out.line(InfoString(&format!("warning: `{what}` while searching: stopping the search first")));
        }
        self.engine.stop();
        self.engine.wait();
    }

    fn execute(&mut self, cmd: UciCommand) -> Flow {
        match cmd {
            UciCommand::Uci => {
                self.out.line(Id);
                for decl in options::declarations_with(self.engine.params()) {
                    self.out.line(decl);
                }
                self.out.line("uciok");
            }
            UciCommand::Debug(on) => log::debug!("debug {}", if on { "on" } else { "off" }),
            UciCommand::IsReady => self.out.line("readyok"),
            UciCommand::SetOption { name, value } => {
                self.settle("setoption");
                if let Err(e) = self.set_option(&name, value.as_deref()) {
                    self.out.error(e);
                }
            }
            UciCommand::UciNewGame => {
                self.settle("ucinewgame");
                self.engine.new_game();
            }
            UciCommand::Position { fen, moves } => {
                self.settle("position");
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                if let Err(e) = self.engine.set_position(fen.as_deref(), &moves) {
                    self.out.error(e);
                }
            }
            UciCommand::Go(limits) => {
                self.settle("go");
                self.go(limits);
            }
            UciCommand::Stop => self.engine.stop(),
            UciCommand::PonderHit => {
                if let Some((limits, _)) = &mut self.search {
                    limits.ponder = false;
                }
                self.engine.ponderhit();
            }
            UciCommand::Quit => return Flow::Quit,
            UciCommand::Display => self.out.line(BoardDiagram(self.engine.position())),
            UciCommand::Eval => {
                let pos = self.engine.position();
                let cp = crate::eval::evaluate(pos, &self.engine.params().eval);
                self.out.line(EvalLine { turn: pos.turn(), cp });
            }
            UciCommand::Bench { depth } => {
                // Not state-changing, but a search beside it would distort the speed figure.
                self.settle("bench");
                let result = crate::bench::run(depth.unwrap_or(crate::bench::DEFAULT_DEPTH), self.engine.params());
                self.out.line(result);
            }
            UciCommand::Perft { depth } => self.out.line(perft_divide(self.engine.position(), depth)),
        }
        Flow::Continue
    }

    fn go(&mut self, limits: Limits) {
        if let Err(e) = check_searchmoves(self.engine.position(), &limits.searchmoves) {
            self.out.error(e);
            return;
        }
        let done = Arc::new(AtomicBool::new(false));
        self.search = Some((limits.clone(), done.clone()));
        self.engine.go(limits, Box::new(UciListener { out: self.out.clone(), done }));
    }

    /// Applies a validated option to the engine. On error nothing changes.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), Box<dyn std::error::Error>> {
        let (decl, value) = options::parse_setting(name, value)?;
        let int = |v: &OptionValue| match v {
            OptionValue::Int(n) => *n,
            _ => unreachable!("spin options parse to Int"),
        };
        match decl.id {
            OptionId::Hash => self.engine.set_hash_mb(int(&value) as usize),
            OptionId::Threads => self.engine.set_threads(int(&value) as usize),
            OptionId::MoveOverhead => self.engine.set_move_overhead_ms(int(&value) as u64),
            OptionId::ClearHash => self.engine.clear_hash(),
            OptionId::MultiPv => self.engine.set_multipv(int(&value) as u32),
            OptionId::Ponder => self.ponder = value == OptionValue::Bool(true),
            OptionId::SyzygyProbeDepth => self.engine.set_syzygy_probe_depth(int(&value) as u32),
            OptionId::SyzygyPath => {
                let OptionValue::Text(path) = value else { unreachable!("string options parse to Text") };
                let n = self.engine.set_syzygy_path(&path)?;
                if !path.is_empty() {
                    self.out.line(InfoString(&format!("found {n} Syzygy table files in {path}")));
                }
            }
            OptionId::ParamsFile => {
                let OptionValue::Text(path) = value else { unreachable!("string options parse to Text") };
                // Empty means "no file": back to the compiled-in defaults.
                let params = if path.is_empty() { Params::default() } else { Params::load(&path)? };
                self.engine.set_params(params);
                if !path.is_empty() {
                    self.out.line(InfoString(&format!("loaded parameters from {path}")));
                }
            }
            OptionId::Param(id) => {
                let mut params = self.engine.params().clone();
                params.set(id, int(&value))?;
                self.engine.set_params(params);
            }
        }
        log::debug!("option {} set", decl.name);
        Ok(())
    }
}

/// Searches that end only on `stop` (or `ponderhit` then time).
fn is_open_ended(limits: &Limits) -> bool {
    limits.infinite || limits.ponder || limits.is_unbounded()
}

/// `go searchmoves` must name legal moves; reject the `go` rather than search something else.
fn check_searchmoves(pos: &Chess, moves: &[String]) -> Result<(), String> {
    for m in moves {
        let uci: shakmaty::uci::UciMove =
            m.parse().map_err(|e| format!("searchmoves: invalid move `{}`: {e}", command::quote(m)))?;
        uci.to_move(pos).map_err(|_| format!("searchmoves: illegal move `{m}` in this position"))?;
    }
    Ok(())
}

/// `perft` output: nodes below each root move, then the total.
pub struct PerftDivide {
    pub moves: Vec<(Move, u64)>,
    pub total: u64,
}

/// Counts the leaves `depth` plies below `pos`, split by root move.
pub fn perft_divide(pos: &Chess, depth: u32) -> PerftDivide {
    if depth == 0 {
        return PerftDivide { moves: Vec::new(), total: 1 };
    }
    let moves: Vec<(Move, u64)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, shakmaty::perft(&child, depth - 1))
        })
        .collect();
    let total = moves.iter().map(|&(_, n)| n).sum();
    PerftDivide { moves, total }
}

impl fmt::Display for PerftDivide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &(m, n) in &self.moves {
            writeln!(f, "{}: {n}", UciMoveText(m))?;
        }
        writeln!(f)?;
        write!(f, "Nodes searched: {}", self.total)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    fn read_all(input: &[u8]) -> Vec<Input> {
        let (tx, rx) = crossbeam_channel::unbounded();
        read_lines(Cursor::new(input.to_vec()), tx);
        rx.into_iter().collect()
    }

    #[test]
    fn reader_splits_lines_and_survives_junk() {
        let got = read_all(b"uci\r\nisready\n\n\xff\xfe bad utf8\nlast without newline");
        assert_eq!(
            got,
            vec![
                Input::Line("uci\r\n".into()),
                Input::Line("isready\n".into()),
                Input::Line("\n".into()),
                Input::Line("\u{fffd}\u{fffd} bad utf8\n".into()),
                Input::Line("last without newline".into()),
            ]
        );
    }

    #[test]
    fn reader_skips_overlong_lines() {
        let mut input = vec![b'x'; MAX_LINE + 5000];
        input.extend_from_slice(b"\nisready\n");
        let got = read_all(&input);
        assert_eq!(got, vec![Input::TooLong(MAX_LINE + 5001), Input::Line("isready\n".into())]);
        // A line of exactly the limit is still read.
        let mut input = vec![b'y'; MAX_LINE - 1];
        input.push(b'\n');
        assert!(matches!(read_all(&input).as_slice(), [Input::Line(l)] if l.len() == MAX_LINE));
    }

    #[test]
    fn perft_divide_counts() {
        let d = perft_divide(&Chess::default(), 3);
        assert_eq!(d.total, 8902);
        assert_eq!(d.moves.len(), 20);
        let text = d.to_string();
        assert!(text.contains("e2e4: 600"), "{text}");
        assert!(text.ends_with("Nodes searched: 8902"));
        assert_eq!(perft_divide(&Chess::default(), 0).total, 1);
    }

    #[test]
    fn searchmoves_are_checked() {
        let pos = Chess::default();
        assert!(check_searchmoves(&pos, &["e2e4".into(), "g1f3".into()]).is_ok());
        assert!(check_searchmoves(&pos, &["e2e5".into()]).unwrap_err().contains("e2e5"));
        assert!(check_searchmoves(&pos, &["zz".into()]).unwrap_err().contains("zz"));
    }
}
