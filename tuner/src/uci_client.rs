//! The engine side of a game: a UCI client over a [`Transport`].
//!
//! Like cutechess's `uciengine`: `uci`/`uciok` at start, `isready`/`readyok` as the ping after
//! `setoption` and `ucinewgame`, `position … moves …` then `go …`, and `quit` then kill at the end.
//! Every wait has a deadline, so a silent, crashed or babbling engine never blocks the runner:
//! the caller gets a [`UciError`] and decides (the runner restarts the engine).
//!
//! The transport is a seam (STYLE §12): [`ProcessTransport`] runs a real engine process (spawned
//! directly, never through a shell), [`ScriptTransport`] answers from an in-memory closure so the
//! game, clock and adjudication logic is tested without processes.

use std::{
    collections::VecDeque,
    io::{self, BufRead, BufReader, Read, Write},
    path::Path,
    process::{Child, ChildStdin, Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use thiserror::Error;

/// Longest line kept from an engine; a longer one is split (an engine spewing bytes without a
/// newline must not grow the runner's memory without bound).
const MAX_LINE: u64 = 64 * 1024;

/// Something the engine printed, parsed (Carp/Rustic style: parse into an enum, act in one match).
#[derive(Clone, Debug, PartialEq)]
pub enum EngineLine {
    Id {
        key: String,
        value: String,
    },
    UciOk,
    ReadyOk,
    Option(OptionDecl),
    Info(Info),
    BestMove {
        mv: String,
        ponder: Option<String>,
    },
    /// Anything else, kept for logs (`copyprotection`, garbage, …).
    Other(String),
}

/// An `option name … type …` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    pub name: String,
    pub kind: String,
    pub default: Option<String>,
}

/// A score as the engine reports it, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Score {
    Cp(i32),
    /// Mate in N moves; negative when the engine is being mated.
    Mate(i32),
}

impl Score {
    /// Centipawns for adjudication thresholds: mates map beyond any material score.
    pub fn to_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }

    /// Score as cutechess writes it in PGN comments: `+0.31`, `+M5`, `-M2`.
    pub fn pgn(self) -> String {
        match self {
            Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(n) if n >= 0 => format!("+M{n}"),
            Score::Mate(n) => format!("-M{}", -n),
        }
    }
}

/// The fields of an `info` line the runner uses.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    pub depth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    /// `lowerbound`/`upperbound` scores are not exact; the runner ignores them for adjudication.
    pub bound: bool,
    pub nodes: Option<u64>,
    pub time_ms: Option<u64>,
    /// First move of the principal variation (the rest is not kept: parsing stays cheap).
    pub pv_first: Option<String>,
    pub string: Option<String>,
}

impl EngineLine {
    /// Parses one line of engine output. Never fails: unknown input is [`EngineLine::Other`].
    pub fn parse(line: &str) -> EngineLine {
        let mut tokens = line.split_whitespace();
        let Some(first) = tokens.next() else { return EngineLine::Other(String::new()) };
        match first {
            "uciok" => EngineLine::UciOk,
            "readyok" => EngineLine::ReadyOk,
            "id" => match tokens.next() {
                Some(key) => EngineLine::Id { key: key.to_string(), value: tokens.collect::<Vec<_>>().join(" ") },
                None => EngineLine::Other(line.to_string()),
            },
            "bestmove" => match tokens.next() {
                Some(mv) => {
                    let ponder = match (tokens.next(), tokens.next()) {
                        (Some("ponder"), Some(p)) => Some(p.to_string()),
                        _ => None,
                    };
                    EngineLine::BestMove { mv: mv.to_string(), ponder }
                }
                None => EngineLine::Other(line.to_string()),
            },
            "option" => parse_option(line).map_or_else(|| EngineLine::Other(line.to_string()), EngineLine::Option),
            "info" => EngineLine::Info(parse_info(tokens)),
            _ => EngineLine::Other(line.to_string()),
        }
    }
}

fn parse_option(line: &str) -> Option<OptionDecl> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let name_at = tokens.iter().position(|t| *t == "name")?;
    let type_at = tokens.iter().position(|t| *t == "type")?;
    if type_at <= name_at + 1 {
        return None;
    }
    let name = tokens[name_at + 1..type_at].join(" ");
    let kind = tokens.get(type_at + 1)?.to_string();
    let default = tokens.iter().position(|t| *t == "default").map(|d| {
        let end = tokens[d + 1..]
            .iter()
            .position(|t| matches!(*t, "min" | "max" | "var"))
            .map_or(tokens.len(), |e| d + 1 + e);
        tokens[d + 1..end].join(" ")
    });
    Some(OptionDecl { name, kind, default })
}

fn parse_info<'a>(mut tokens: impl Iterator<Item = &'a str>) -> Info {
    let mut info = Info::default();
    while let Some(t) = tokens.next() {
        match t {
            "depth" => info.depth = tokens.next().and_then(|v| v.parse().ok()),
            "multipv" => info.multipv = tokens.next().and_then(|v| v.parse().ok()),
            "nodes" => info.nodes = tokens.next().and_then(|v| v.parse().ok()),
            "time" => info.time_ms = tokens.next().and_then(|v| v.parse().ok()),
            "score" => {
                info.score = match (tokens.next(), tokens.next().and_then(|v| v.parse::<i32>().ok())) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                }
            }
            "lowerbound" | "upperbound" => info.bound = true,
            "pv" => {
                info.pv_first = tokens.next().map(str::to_string);
                break; // the PV runs to the end of the line
            }
            "string" => {
                info.string = Some(tokens.by_ref().collect::<Vec<_>>().join(" "));
            }
            _ => {}
        }
    }
    info
}

/// How an engine's lines reach the client and commands reach the engine.
pub trait Transport: Send {
    /// Writes one command line.
    fn send(&mut self, line: &str) -> io::Result<()>;
    /// The engine's output in batches of lines (all complete lines available at once, so a
    /// burst of `info` lines costs one wake-up); disconnected once the engine is gone.
    fn lines(&self) -> &Receiver<Vec<String>>;
    /// Waits up to `grace` for the engine to exit on its own, then kills it.
    fn shutdown(&mut self, grace: Duration);
}

/// A real engine process.
pub struct ProcessTransport {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Vec<String>>,
}

impl ProcessTransport {
    /// Spawns `cmd args…` in `dir` with piped stdin/stdout. Not through a shell: arguments and
    /// paths with spaces arrive as given.
    pub fn spawn(cmd: &Path, args: &[String], dir: Option<&Path>, label: &str) -> io::Result<ProcessTransport> {
        let mut command = Command::new(cmd);
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(d) = dir {
            command.current_dir(d);
        }
        let mut child = command.spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = unbounded();
        let name = label.to_string();
        thread::Builder::new().name(format!("{label}-stdout")).spawn(move || read_lines(stdout, &tx, &name))?;
        let name = label.to_string();
        thread::Builder::new().name(format!("{label}-stderr")).spawn(move || {
            let mut r = BufReader::new(stderr);
            let mut buf = Vec::new();
            // Drained so a chatty engine never blocks on a full pipe; kept for debugging only.
            while matches!((&mut r).take(MAX_LINE).read_until(b'\n', &mut buf), Ok(n) if n > 0) {
                log::debug!("{name} stderr: {}", String::from_utf8_lossy(&buf).trim_end());
                buf.clear();
            }
        })?;
        Ok(ProcessTransport { child, stdin, rx })
    }
}

fn read_lines(stdout: impl Read, tx: &Sender<Vec<String>>, name: &str) {
    let mut r = BufReader::with_capacity(64 * 1024, stdout);
    let mut buf = Vec::new();
    loop {
        let mut batch = Vec::new();
        // One blocking read, then every further line already buffered.
        loop {
            buf.clear();
            match (&mut r).take(MAX_LINE).read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(batch);
                    return;
                }
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']).to_string();
                    log::trace!("{name} > {line}");
                    batch.push(line);
                }
            }
            if !r.buffer().contains(&b'\n') {
                break;
            }
        }
        if tx.send(batch).is_err() {
            return;
        }
    }
}

impl Transport for ProcessTransport {
    fn send(&mut self, line: &str) -> io::Result<()> {
        let stdin = self.stdin.as_mut().ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    fn lines(&self) -> &Receiver<Vec<String>> {
        &self.rx
    }

    fn shutdown(&mut self, grace: Duration) {
        self.stdin = None; // EOF on stdin: most engines exit on it too.
        let end = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < end => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ProcessTransport {
    fn drop(&mut self) {
        // Never leave a zombie or a runaway engine behind.
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// What a scripted engine does after a command.
pub enum ScriptReply {
    Lines(Vec<String>),
    /// The engine "crashes": its output closes.
    Crash,
}

/// An in-memory engine: a closure answers each command synchronously.
pub struct ScriptTransport {
    script: Box<dyn FnMut(&str) -> ScriptReply + Send>,
    tx: Option<Sender<Vec<String>>>,
    rx: Receiver<Vec<String>>,
}

impl ScriptTransport {
    pub fn new(script: impl FnMut(&str) -> ScriptReply + Send + 'static) -> ScriptTransport {
        let (tx, rx) = unbounded();
        ScriptTransport { script: Box::new(script), tx: Some(tx), rx }
    }
}

impl Transport for ScriptTransport {
    fn send(&mut self, line: &str) -> io::Result<()> {
        let Some(tx) = &self.tx else { return Err(io::Error::new(io::ErrorKind::BrokenPipe, "engine gone")) };
        match (self.script)(line) {
            ScriptReply::Lines(lines) => {
                let _ = tx.send(lines);
            }
            ScriptReply::Crash => self.tx = None,
        }
        Ok(())
    }

    fn lines(&self) -> &Receiver<Vec<String>> {
        &self.rx
    }

    fn shutdown(&mut self, _grace: Duration) {
        self.tx = None;
    }
}

/// Why talking to an engine failed. Each names the engine.
#[derive(Debug, Error)]
pub enum UciError {
    #[error("engine `{engine}`: cannot start `{cmd}`: {source}")]
    Spawn { engine: String, cmd: String, source: io::Error },
    #[error("engine `{engine}` did not answer `{what}` within {after:?}")]
    Timeout { engine: String, what: &'static str, after: Duration },
    #[error("engine `{engine}` disconnected (exited or crashed) while waiting for `{what}`")]
    Disconnected { engine: String, what: &'static str },
    #[error("engine `{engine}` has no option `{option}` (it declares: {declared})")]
    UnknownOption { engine: String, option: String, declared: String },
}

/// What a finished search returned.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub bestmove: String,
    pub ponder: Option<String>,
    pub elapsed: Duration,
    /// Last exact score of the main line, from the engine's point of view.
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// Time limits for protocol round trips.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// `uci` → `uciok` (cutechess: 15 s for start-up).
    pub start: Duration,
    /// `isready` → `readyok`.
    pub ping: Duration,
    /// `quit` → process exit, before the kill.
    pub quit: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts { start: Duration::from_secs(15), ping: Duration::from_secs(15), quit: Duration::from_secs(2) }
    }
}

/// `go` parameters as sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

impl Go {
    /// The `go …` command line.
    pub fn command(&self) -> String {
        let mut s = String::from("go");
        let fields: [(&str, Option<u64>); 8] = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("movetime", self.movetime),
            ("nodes", self.nodes),
            ("depth", self.depth.map(u64::from)),
        ];
        for (k, v) in fields {
            if let Some(v) = v {
                s.push_str(&format!(" {k} {v}"));
            }
        }
        if s == "go" {
            s.push_str(" infinite");
        }
        s
    }
}

/// A UCI engine after `uciok`.
pub struct UciClient {
    label: String,
    transport: Box<dyn Transport>,
    timeouts: Timeouts,
    /// `id name`, if the engine sent one.
    pub id_name: Option<String>,
    pub options: Vec<OptionDecl>,
    /// False once the engine crashed or failed to answer: it must be restarted before reuse.
    healthy: bool,
    /// Lines received but not yet consumed.
    pending: VecDeque<String>,
}

impl UciClient {
    /// Spawns `cmd` and completes the `uci` handshake.
    pub fn spawn(
        label: &str,
        cmd: &Path,
        args: &[String],
        dir: Option<&Path>,
        timeouts: Timeouts,
    ) -> Result<UciClient, UciError> {
        let t = ProcessTransport::spawn(cmd, args, dir, label).map_err(|source| UciError::Spawn {
            engine: label.to_string(),
            cmd: cmd.display().to_string(),
            source,
        })?;
        UciClient::start(label, Box::new(t), timeouts)
    }

    /// Sends `uci` and waits for `uciok`, collecting the id and option declarations.
    pub fn start(label: &str, transport: Box<dyn Transport>, timeouts: Timeouts) -> Result<UciClient, UciError> {
        let mut c = UciClient {
            label: label.to_string(),
            transport,
            timeouts,
            id_name: None,
            options: Vec::new(),
            healthy: true,
            pending: VecDeque::new(),
        };
        c.send("uci", "uciok")?;
        let deadline = Instant::now() + timeouts.start;
        loop {
            match c.next_line(deadline, "uciok")? {
                EngineLine::UciOk => break,
                EngineLine::Id { key, value } if key == "name" => c.id_name = Some(value),
                EngineLine::Option(o) => c.options.push(o),
                _ => {}
            }
        }
        Ok(c)
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn is_healthy(&self) -> bool {
        self.healthy
    }

    fn send(&mut self, line: &str, what: &'static str) -> Result<(), UciError> {
        log::trace!("{} < {line}", self.label);
        self.transport.send(line).map_err(|_| {
            self.healthy = false;
            UciError::Disconnected { engine: self.label.clone(), what }
        })
    }

    fn next_line(&mut self, deadline: Instant, what: &'static str) -> Result<EngineLine, UciError> {
        loop {
            if let Some(line) = self.pending.pop_front() {
                return Ok(EngineLine::parse(&line));
            }
            self.fill(deadline, what)?;
        }
    }

    fn fill(&mut self, deadline: Instant, what: &'static str) -> Result<(), UciError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.transport.lines().recv_timeout(left) {
            Ok(lines) => {
                self.pending.extend(lines);
                Ok(())
            }
            Err(RecvTimeoutError::Timeout) => {
                self.healthy = false;
                Err(UciError::Timeout { engine: self.label.clone(), what, after: left })
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.healthy = false;
                Err(UciError::Disconnected { engine: self.label.clone(), what })
            }
        }
    }

    /// Finds a declared option, case-insensitively (UCI option names are).
    pub fn find_option(&self, name: &str) -> Option<&OptionDecl> {
        self.options.iter().find(|o| o.name.eq_ignore_ascii_case(name.trim()))
    }

    /// `setoption name N value V` for a declared option; names and values may contain spaces.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        let Some(decl) = self.find_option(name) else {
            return Err(UciError::UnknownOption {
                engine: self.label.clone(),
                option: name.to_string(),
                declared: self.options.iter().map(|o| o.name.as_str()).collect::<Vec<_>>().join(", "),
            });
        };
        let line = if decl.kind == "button" {
            format!("setoption name {}", decl.name)
        } else {
            format!("setoption name {} value {value}", decl.name)
        };
        self.send(&line, "setoption")
    }

    /// `isready` → `readyok`, discarding whatever comes before (a stale `bestmove` after `stop`).
    pub fn ping(&mut self) -> Result<(), UciError> {
        self.send("isready", "readyok")?;
        let deadline = Instant::now() + self.timeouts.ping;
        while self.next_line(deadline, "readyok")? != EngineLine::ReadyOk {}
        Ok(())
    }

    /// `ucinewgame` then the `isready` sync (cutechess and STYLE pitfall: sync before `go`).
    pub fn new_game(&mut self) -> Result<(), UciError> {
        self.send("ucinewgame", "ucinewgame")?;
        self.ping()
    }

    /// `position startpos|fen F [moves …]`.
    pub fn position(&mut self, fen: Option<&str>, moves: &[String]) -> Result<(), UciError> {
        let mut line = match fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            line.push_str(" moves");
            for m in moves {
                line.push(' ');
                line.push_str(m);
            }
        }
        self.send(&line, "position")
    }

    /// Sends `go` and waits until `bestmove` or `deadline` after sending. On a timeout the engine
    /// is told to `stop` and given a short grace to answer so the next game starts clean; if it
    /// does not, it is marked unhealthy (restart).
    pub fn go(&mut self, go: &Go, deadline: Duration) -> Result<SearchResult, UciError> {
        let start = Instant::now();
        self.send(&go.command(), "bestmove")?;
        let end = start + deadline;
        let mut score = None;
        let mut depth = None;
        let mut nodes = None;
        loop {
            match self.next_line(end, "bestmove") {
                Ok(EngineLine::BestMove { mv, ponder }) => {
                    return Ok(SearchResult { bestmove: mv, ponder, elapsed: start.elapsed(), score, depth, nodes });
                }
                Ok(EngineLine::Info(info)) => {
                    if info.multipv.unwrap_or(1) == 1 {
                        if let Some(s) = info.score
                            && !info.bound
                        {
                            score = Some(s);
                            depth = info.depth.or(depth);
                        }
                        nodes = info.nodes.or(nodes);
                    }
                }
                Ok(other) => log::debug!("{}: ignoring `{other:?}` while searching", self.label),
                Err(e @ UciError::Timeout { .. }) => {
                    self.healthy = true; // give it a chance to answer `stop`
                    let _ = self.send("stop", "bestmove");
                    let grace = Instant::now() + self.timeouts.ping.min(Duration::from_secs(1));
                    loop {
                        match self.next_line(grace, "bestmove") {
                            Ok(EngineLine::BestMove { .. }) => break,
                            Ok(_) => {}
                            Err(_) => {
                                self.healthy = false;
                                break;
                            }
                        }
                    }
                    return Err(e);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// `quit`, then kill if the engine does not exit within the quit timeout.
    pub fn quit(mut self) {
        let _ = self.transport.send("quit");
        self.transport.shutdown(self.timeouts.quit);
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        self.transport.shutdown(Duration::ZERO);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_engine_lines() {
        assert_eq!(EngineLine::parse("uciok"), EngineLine::UciOk);
        assert_eq!(EngineLine::parse("  readyok  "), EngineLine::ReadyOk);
        assert_eq!(
            EngineLine::parse("id name Stockfish 16"),
            EngineLine::Id { key: "name".into(), value: "Stockfish 16".into() }
        );
        assert_eq!(
            EngineLine::parse("bestmove e2e4 ponder e7e5"),
            EngineLine::BestMove { mv: "e2e4".into(), ponder: Some("e7e5".into()) }
        );
        assert_eq!(EngineLine::parse("bestmove a7a8q"), EngineLine::BestMove { mv: "a7a8q".into(), ponder: None });
        assert_eq!(EngineLine::parse("bestmove"), EngineLine::Other("bestmove".into()));
        assert_eq!(EngineLine::parse("#!garbage ~~"), EngineLine::Other("#!garbage ~~".into()));
        let EngineLine::Option(o) = EngineLine::parse("option name Move Overhead type spin default 10 min 0 max 5000")
        else {
            panic!()
        };
        assert_eq!(o, OptionDecl { name: "Move Overhead".into(), kind: "spin".into(), default: Some("10".into()) });
        let EngineLine::Option(o) = EngineLine::parse("option name SyzygyPath type string default <empty>") else {
            panic!()
        };
        assert_eq!(o.default.as_deref(), Some("<empty>"));
        let EngineLine::Info(i) = EngineLine::parse(
            "info depth 12 seldepth 18 multipv 1 score cp -35 nodes 12345 nps 1 time 40 pv e2e4 e7e5",
        ) else {
            panic!()
        };
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.score, Some(Score::Cp(-35)));
        assert_eq!(i.nodes, Some(12345));
        assert_eq!(i.pv_first.as_deref(), Some("e2e4"));
        assert!(!i.bound);
        let EngineLine::Info(i) = EngineLine::parse("info depth 3 score mate -2 lowerbound") else { panic!() };
        assert_eq!(i.score, Some(Score::Mate(-2)));
        assert!(i.bound);
    }

    #[test]
    fn score_conversions() {
        assert_eq!(Score::Cp(31).pgn(), "+0.31");
        assert_eq!(Score::Cp(-150).pgn(), "-1.50");
        assert_eq!(Score::Mate(5).pgn(), "+M5");
        assert_eq!(Score::Mate(-2).pgn(), "-M2");
        assert!(Score::Mate(3).to_cp() > Score::Mate(4).to_cp());
        assert!(Score::Mate(-3).to_cp() < -50_000);
    }

    #[test]
    fn go_command_forms() {
        let g = Go { wtime: Some(1000), btime: Some(900), winc: Some(10), binc: Some(10), ..Go::default() };
        assert_eq!(g.command(), "go wtime 1000 btime 900 winc 10 binc 10");
        assert_eq!(Go { nodes: Some(2000), ..Go::default() }.command(), "go nodes 2000");
        assert_eq!(Go { movetime: Some(50), depth: Some(3), ..Go::default() }.command(), "go movetime 50 depth 3");
        assert_eq!(Go::default().command(), "go infinite");
    }

    fn scripted(stall_on_go: bool) -> UciClient {
        let t = ScriptTransport::new(move |cmd| {
            let out: Vec<&str> = match cmd.split_whitespace().next() {
                Some("uci") => vec!["id name Scripted", "option name Move Overhead type spin default 10", "uciok"],
                Some("isready") => vec!["readyok"],
                Some("go") if stall_on_go => vec![],
                Some("go") => vec!["info depth 1 score cp 12", "garbage", "bestmove e2e4"],
                Some("quit") => return ScriptReply::Crash,
                _ => vec![],
            };
            ScriptReply::Lines(out.into_iter().map(String::from).collect())
        });
        let to = Timeouts { start: Duration::from_millis(200), ping: Duration::from_millis(200), quit: Duration::ZERO };
        UciClient::start("s", Box::new(t), to).unwrap()
    }

    #[test]
    fn handshake_options_and_search() {
        let mut c = scripted(false);
        assert_eq!(c.id_name.as_deref(), Some("Scripted"));
        c.set_option("move overhead", "20").unwrap();
        let e = c.set_option("Hash", "16").unwrap_err();
        assert!(e.to_string().contains("no option `Hash`") && e.to_string().contains("Move Overhead"), "{e}");
        c.new_game().unwrap();
        c.position(None, &["e2e4".to_string()]).unwrap();
        let r = c.go(&Go { depth: Some(1), ..Go::default() }, Duration::from_secs(1)).unwrap();
        assert_eq!(r.bestmove, "e2e4");
        assert_eq!(r.score, Some(Score::Cp(12)));
        c.quit();
    }

    #[test]
    fn stall_times_out_and_marks_unhealthy() {
        let mut c = scripted(true);
        let e = c.go(&Go::default(), Duration::from_millis(30)).unwrap_err();
        assert!(matches!(e, UciError::Timeout { what: "bestmove", .. }), "{e}");
        assert!(!c.is_healthy());
    }
}
