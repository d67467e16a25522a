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
//!   (depth, nodes, time) and stops one that would not (`infinite`, `ponder`, no limits). It
//!   also stops, at once, a search or job whose starter has died (the engine was re-parented:
//!   a killed GUI or tuner), which nobody would read and which could run for hours.
//! * Lines longer than [`MAX_LINE`] bytes are discarded with an error.
//! * `bench` and `perft` run on a thread of their own, like a search: `isready` is answered while
//!   they run, and `stop`, `quit` or any state-changing command ends them (`info string` says so).
//!   End of input lets them finish.
//! * A `go` with a bad token is answered with the error and then searches with the limits that
//!   were valid (depth 1 if none bound it), so a GUI always gets its `bestmove`.
//! * With `OwnBook` on and a `BookFile` loaded, a `go` whose position is in the book is answered
//!   at once (`info string book move ...`, then `bestmove`); see [`Engine::book_move`].

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
    time::Duration,
};

use crossbeam_channel::{Receiver, Sender};
use shakmaty::{Chess, Move, Position};

use self::{
    command::{GoCommand, UciCommand},
    options::{OptionId, OptionValue},
    out::{BestMoveLine, BoardDiagram, EvalLine, Id, InfoLine, InfoString, Out, UciMoveText},
};
use crate::{
    engine::Engine,
    limits::Limits,
    params::{Params, RemovedKey, removed_key_notes},
    search::{
        report::{BestMove, SearchInfo, SearchListener},
        thread::SEARCH_STACK_BYTES,
    },
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

/// Runs the UCI loop on `input` until `quit` or end of input, printing to `out`. With `tune`,
/// `uci` lists every parameter as a spin option (see [`options`]).
pub fn run(engine: Engine, input: impl BufRead + Send + 'static, out: Out, tune: bool) {
    let (tx, rx) = crossbeam_channel::unbounded();
    let reader = thread::Builder::new().name("uci-input".into()).spawn(move || read_lines(input, tx));
    if let Err(e) = reader {
        log::error!("cannot start the input thread: {e}");
        return;
    }
    let mut session = Session::new(engine, out);
    session.show_tunables = tune;
    session.parent = parent_pid();
    session.serve(rx);
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
        // Marked before the line goes out: a GUI that has read `bestmove` may send the next
        // command at once, and the search thread can be preempted between the two steps.
        self.done.store(true, Ordering::Release);
        self.out.line(BestMoveLine(best));
    }
}

/// A `bench` or `perft` running beside the loop; its thread reads `stop` as it goes.
struct Job {
    what: &'static str,
    stop: Arc<AtomicBool>,
    handle: thread::JoinHandle<()>,
}

impl Job {
    fn spawn(what: &'static str, work: impl FnOnce(&AtomicBool) + Send + 'static) -> std::io::Result<Job> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        // Bench searches recurse as deep as a real search, so it gets the search thread's stack.
        let handle =
            thread::Builder::new().name(what.into()).stack_size(SEARCH_STACK_BYTES).spawn(move || work(&flag))?;
        Ok(Job { what, stop, handle })
    }

    /// Stops the job (unless `finish` is true, which lets it run to its end) and waits for it.
    fn end(self, out: &Out, finish: bool) {
        if !finish && !self.handle.is_finished() {
            self.stop.store(true, Ordering::Release);
            out.line(InfoString(&format!("{} stopped", self.what)));
        }
        if self.handle.join().is_err() {
            out.error(format_args!("{} failed", self.what));
        }
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
    /// A running `bench` or `perft`.
    job: Option<Job>,
    /// Tuning mode: `uci` lists the parameters too.
    show_tunables: bool,
    /// The process that started the engine, where [`run`] can tell.
    parent: Option<u32>,
}

/// This process's parent (it changes when the parent dies and the engine is re-parented).
fn parent_pid() -> Option<u32> {
    #[cfg(unix)]
    return Some(std::os::unix::process::parent_id());
    #[cfg(not(unix))]
    return None;
}

/// Whether the loop goes on after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

impl Session {
    fn new(engine: Engine, out: Out) -> Session {
        let mut s = Session { engine, out, search: None, ponder: false, job: None, show_tunables: false, parent: None };
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
        // `quit` stops at once; end of input lets a self-terminating search (or job) finish,
        // unless the engine's starter dies meanwhile.
        let unbounded = self.search.as_ref().is_some_and(|(l, _)| is_open_ended(l));
        let orphaned = !explicit_quit && !unbounded && self.orphaned_while_busy();
        if explicit_quit || unbounded || orphaned {
            self.engine.stop();
        }
        if let Some(job) = self.job.take() {
            job.end(&self.out, !(explicit_quit || orphaned));
        }
        self.engine.wait();
    }

    /// After end of input: waits while a search or job ends by itself and says whether the
    /// engine's starter died meanwhile. The reader sees end of input as the dying parent closes
    /// its files, a moment before the engine is re-parented, so the parent is watched, not read once.
    fn orphaned_while_busy(&self) -> bool {
        let Some(parent) = self.parent else { return false };
        loop {
            let busy = self.engine.is_searching() || self.job.as_ref().is_some_and(|j| !j.handle.is_finished());
            if !busy {
                return false;
            }
            if parent_pid() != Some(parent) {
                log::info!("the process that started the engine (pid {parent}) has ended: stopping");
                return true;
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Parses and executes one line. Errors are reported, never propagated.
    fn handle_line(&mut self, line: &str) -> Flow {
        match line.parse::<UciCommand>() {
            Ok(cmd) => {
                log::debug!("<< {cmd}");
                self.execute(cmd)
            }
            Err(command::ParseCommandError::Empty) => Flow::Continue,
            Err(command::ParseCommandError::Go { error, go }) => {
                self.out.error(format_args!("{error}; searching with the valid limits"));
                self.execute(UciCommand::Go(*go))
            }
            Err(e) => {
                self.out.error(e);
                Flow::Continue
            }
        }
    }

    /// Stops a running search (or bench/perft) before a state-changing command and waits for its
    /// `bestmove`.
    fn settle(&mut self, what: &str) {
        if let Some(job) = self.job.take() {
            job.end(&self.out, false);
        }
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
                for decl in options::listed(self.engine.params(), self.show_tunables) {
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
            UciCommand::Go(go) => {
                self.settle("go");
                self.go(go);
            }
            UciCommand::Stop => {
                if let Some(job) = self.job.take() {
                    job.end(&self.out, false);
                }
                self.engine.stop();
            }
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
                let (depth, params, out) =
                    (depth.unwrap_or(crate::bench::DEFAULT_DEPTH), self.engine.params().clone(), self.out.clone());
                self.start_job("bench", move |stop| {
                    if let Some(result) = crate::bench::run_until(depth, &params, 1, stop) {
                        out.line(result);
                    }
                });
            }
            UciCommand::Perft { depth } => {
                self.settle("perft");
                let (pos, out) = (self.engine.position().clone(), self.out.clone());
                self.start_job("perft", move |stop| perft_streamed(&pos, depth, stop, &out));
            }
        }
        Flow::Continue
    }

    fn start_job(&mut self, what: &'static str, work: impl FnOnce(&AtomicBool) + Send + 'static) {
        match Job::spawn(what, work) {
            Ok(job) => self.job = Some(job),
            Err(e) => self.out.error(format_args!("cannot start {what}: {e}")),
        }
    }

    fn go(&mut self, go: GoCommand) {
        // Bad moves are dropped (with an error) and the rest searched: a GUI waits for `bestmove`.
        let GoCommand { mut limits, searchmoves } = go;
        let (legal, errors) = resolve_searchmoves(self.engine.position(), &searchmoves);
        for e in &errors {
            self.out.error(e);
        }
        limits.searchmoves = legal;
        if !errors.is_empty() {
            command::bound_after_error(&mut limits);
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
            OptionId::Hash => self.engine.set_hash_mb(int(&value) as usize)?,
            OptionId::Threads => self.engine.set_threads(int(&value) as usize),
            OptionId::MoveOverhead => self.engine.set_move_overhead_ms(int(&value) as u64),
            OptionId::ClearHash => self.engine.clear_hash(),
            OptionId::MultiPv => self.engine.set_multipv(int(&value) as u32),
            OptionId::Ponder => self.ponder = value == OptionValue::Bool(true),
            OptionId::ShowTunables => self.show_tunables = value == OptionValue::Bool(true),
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
                // The removed parameters the file names are noted to the GUI, which does not
                // see the log.
                let (params, removed) = if path.is_empty() {
                    (Params::default(), Vec::new())
                } else {
                    Params::default().with_file_noted(&path)?
                };
                self.engine.set_params(params);
                if !path.is_empty() {
                    for note in removed_key_notes(&removed) {
                        self.out.line(InfoString(&format!("{path}: {note}")));
                    }
                    self.out.line(InfoString(&format!("loaded parameters from {path}")));
                }
            }
            OptionId::OwnBook => self.engine.set_own_book(value == OptionValue::Bool(true)),
            OptionId::BookFile => {
                let OptionValue::Text(path) = value else { unreachable!("string options parse to Text") };
                let n = self.engine.set_book_file(&path)?;
                if !path.is_empty() {
                    self.out.line(InfoString(&format!("loaded book {path} ({n} entries)")));
                }
            }
            OptionId::Param(id) => {
                let mut params = self.engine.params().clone();
                params.set(id, int(&value))?;
                self.engine.set_params(params);
            }
            OptionId::Removed(removed) => {
                // Nothing to set: an error when the value asks for the removed feature, a note
                // otherwise (a GUI re-sending a saved off value has done nothing wrong).
                let key = RemovedKey { removed, value: int(&value) };
                if key.asks_for_it() {
                    return Err(key.to_string().into());
                }
                self.out.line(InfoString(&key.to_string()));
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

/// Resolves `go searchmoves` against `pos`: the legal moves, and an error for each other entry.
fn resolve_searchmoves(pos: &Chess, moves: &[String]) -> (Vec<Move>, Vec<String>) {
    let mut legal = Vec::new();
    let mut errors = Vec::new();
    for m in moves {
        match m.parse::<shakmaty::uci::UciMove>() {
            Err(e) => errors.push(format!("searchmoves: invalid move `{}`: {e}; ignored", command::quote(m))),
            Ok(uci) => match uci.to_move(pos) {
                Ok(mv) => legal.push(mv),
                Err(_) => errors.push(format!("searchmoves: illegal move `{m}` in this position; ignored")),
            },
        }
    }
    (legal, errors)
}

/// `perft` in the loop: one line per root move as it is counted, then the total; stops early
/// (printing no total) when `stop` is set.
fn perft_streamed(pos: &Chess, depth: u32, stop: &AtomicBool, out: &Out) {
    if depth == 0 {
        out.line(PerftDivide { moves: Vec::new(), total: 1 });
        return;
    }
    let mut total = 0;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let Some(n) = crate::perft::perft_until(&child, depth - 1, stop) else { return };
        out.line(format_args!("{}: {n}", UciMoveText(m)));
        total += n;
    }
    out.line(format_args!("\nNodes searched: {total}"));
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
    fn searchmoves_are_resolved() {
        let pos = Chess::default();
        let mv = |s: &str| s.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
        let (legal, errors) = resolve_searchmoves(&pos, &["e2e4".into(), "g1f3".into()]);
        assert_eq!((legal, errors.len()), (vec![mv("e2e4"), mv("g1f3")], 0));
        let (legal, errors) = resolve_searchmoves(&pos, &["e2e5".into(), "d2d4".into(), "zz".into()]);
        assert_eq!(legal, vec![mv("d2d4")]);
        assert!(errors[0].contains("e2e5") && errors[1].contains("zz"), "{errors:?}");
    }

    #[test]
    fn perft_in_the_loop_streams_and_stops() {
        let buf = Arc::new(std::sync::Mutex::new(Vec::new()));
        struct Sink(Arc<std::sync::Mutex<Vec<u8>>>);
        impl std::io::Write for Sink {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let out = Out::new(Sink(buf.clone()));
        perft_streamed(&Chess::default(), 3, &AtomicBool::new(false), &out);
        let text = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
        assert_eq!(text.trim_end(), perft_divide(&Chess::default(), 3).to_string());
        buf.lock().unwrap().clear();
        perft_streamed(&Chess::default(), 9, &AtomicBool::new(true), &out);
        assert!(buf.lock().unwrap().is_empty());
    }
}
