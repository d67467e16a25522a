//! Shared helpers for the binary-level tests: a scripted UCI session over pipes with timeouts
//! (so a hung engine fails the test instead of hanging CI).

#![allow(dead_code)] // each test crate uses a different subset

use std::{
    io::{BufRead, BufReader, Read, Write},
    path::PathBuf,
    process::{Child, ChildStdin, Command, Output, Stdio},
    sync::{Arc, Mutex},
    thread,
    time::{Duration, Instant},
};

use crossbeam_channel::{Receiver, RecvTimeoutError};

pub const BIN: &str = env!("CARGO_BIN_EXE_evochess");

/// Generous timeout for one reply; searches in the tests are small.
pub const REPLY: Duration = Duration::from_secs(20);

/// Runs the binary to completion with `args` and optional stdin; fails the test after `timeout`.
pub fn run_bin(args: &[&str], stdin: &str, timeout: Duration) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn evochess");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_string();
    let writer = thread::spawn(move || {
        let _ = input.write_all(stdin.as_bytes());
    });
    // Drain both pipes while waiting: output larger than a pipe's buffer would otherwise block
    // the child before it can exit.
    let drain = |mut r: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "evochess {args:?} did not exit within {timeout:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&stdout.join().unwrap()),
                String::from_utf8_lossy(&stderr.join().unwrap())
            );
        }
        thread::sleep(Duration::from_millis(10));
    };
    writer.join().unwrap();
    Output { status, stdout: stdout.join().unwrap(), stderr: stderr.join().unwrap() }
}

/// A running engine spoken to over pipes. Every line it prints is kept so failures can show the
/// whole transcript.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    transcript: Vec<String>,
    stderr: Arc<Mutex<String>>,
}

impl Session {
    pub fn start() -> Session {
        Session::start_with(&[])
    }

    pub fn start_with(args: &[&str]) -> Session {
        let mut cmd = Command::new(BIN);
        cmd.args(args);
        Session::spawn(cmd)
    }

    /// The engine under an address-space limit of `kib` KiB (`ulimit -v`), so that large
    /// allocations fail on any machine.
    pub fn start_with_memory_limit(kib: u64) -> Session {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", &format!("ulimit -v {kib} && exec \"$0\""), BIN]);
        Session::spawn(cmd)
    }

    fn spawn(mut cmd: Command) -> Session {
        let mut child =
            cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn evochess");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = crossbeam_channel::unbounded();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().unwrap();
        let sink = stderr.clone();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let stdin = child.stdin.take();
        Session { child, stdin, lines: rx, transcript: Vec::new(), stderr }
    }

    pub fn send(&mut self, line: &str) {
        let shown =
            if line.len() > 120 { format!("{}... ({} bytes)", &line[..120], line.len()) } else { line.to_string() };
        self.transcript.push(format!(">> {shown}"));
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| {
                let t = self.dump();
                panic!("cannot write `{shown}` to the engine: {e}\n{t}")
            });
    }

    /// Closes the engine's stdin (EOF).
    pub fn close_stdin(&mut self) {
        self.transcript.push(">> <EOF>".into());
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout` (or when the engine closed stdout).
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(format!("<< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Every line up to and including the first that starts with `prefix`.
    pub fn lines_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                None => self.fail(&format!("no line starting with `{prefix}` within {timeout:?}")),
            }
        }
    }

    /// The first line starting with `prefix` (earlier lines are skipped but kept in the transcript).
    pub fn expect_line(&mut self, prefix: &str, timeout: Duration) -> String {
        self.lines_until(prefix, timeout).pop().unwrap()
    }

    /// Sends `isready` and returns everything printed before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.lines_until("readyok", REPLY);
        lines.pop();
        lines
    }

    /// Sends `isready` and fails if anything but `readyok` came back (e.g. an error).
    pub fn sync_quiet(&mut self) {
        let lines = self.sync();
        if !lines.is_empty() {
            self.fail(&format!("unexpected output {lines:?}"));
        }
    }

    /// Sends `line` and returns the single `info string error:` reply, checking the engine is
    /// still responsive afterwards.
    pub fn expect_error(&mut self, line: &str) -> String {
        self.send(line);
        let lines = self.sync();
        let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error:")).collect();
        if errors.len() != 1 {
            self.fail(&format!("expected one error for `{}`, got {lines:?}", &line[..line.len().min(80)]));
        }
        errors[0].clone()
    }

    /// The `info` lines and the final `bestmove` line of the running search.
    pub fn read_until_bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let mut lines = self.lines_until("bestmove", timeout);
        let best = lines.pop().unwrap();
        (lines.into_iter().filter(|l| l.starts_with("info")).collect(), best)
    }

    /// Asserts that nothing starting with `prefix` arrives within `wait`.
    pub fn expect_silence(&mut self, prefix: &str, wait: Duration) {
        let deadline = Instant::now() + wait;
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            if line.starts_with(prefix) {
                self.fail(&format!("unexpected `{line}`"));
            }
        }
    }

    /// The `Fen:` line of `d` (reads the whole reply, which ends with `Checkers:`).
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.lines_until("Checkers:", REPLY);
        match lines.iter().find_map(|l| l.strip_prefix("Fen: ")) {
            Some(fen) => fen.to_string(),
            None => self.fail("`d` printed no `Fen:` line"),
        }
    }

    /// Sends `quit` and waits for the process to exit; returns its exit status.
    pub fn quit(mut self) -> std::process::ExitStatus {
        self.send("quit");
        self.wait_exit(REPLY)
    }

    /// Waits for the process to exit by itself.
    pub fn wait_exit(&mut self, timeout: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                self.fail(&format!("engine did not exit within {timeout:?}"));
            }
            thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn dump(&self) -> String {
        format!("--- transcript ---\n{}\n--- stderr ---\n{}", self.transcript.join("\n"), self.stderr.lock().unwrap())
    }

    pub fn fail(&mut self, msg: &str) -> ! {
        let _ = self.child.kill();
        panic!("{msg}\n{}", self.dump())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Never leave engine processes behind, even when a test panics.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Parsed fields of an `info ... score ...` line.
#[derive(Debug, Default)]
pub struct Info {
    pub depth: Option<u32>,
    pub multipv: Option<u32>,
    pub cp: Option<i32>,
    pub mate: Option<i32>,
    pub nodes: Option<u64>,
    pub tbhits: Option<u64>,
    pub pv: Vec<String>,
}

/// Parses the fields the tests look at; `None` for lines that are not search info.
pub fn parse_info(line: &str) -> Option<Info> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    if toks.first() != Some(&"info") || toks.get(1) == Some(&"string") {
        return None;
    }
    let mut info = Info::default();
    let mut i = 1;
    while i < toks.len() {
        let next = toks.get(i + 1).copied().unwrap_or("");
        match toks[i] {
            "depth" => info.depth = next.parse().ok(),
            "multipv" => info.multipv = next.parse().ok(),
            "nodes" => info.nodes = next.parse().ok(),
            "tbhits" => info.tbhits = next.parse().ok(),
            "score" => {
                let value = toks.get(i + 2).and_then(|v| v.parse().ok());
                match next {
                    "cp" => info.cp = value,
                    "mate" => info.mate = value,
                    _ => return None,
                }
                i += 1;
            }
            "pv" => {
                info.pv = toks[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    Some(info)
}

/// The move of a `bestmove` line.
pub fn best_of(line: &str) -> &str {
    line.split_whitespace().nth(1).unwrap_or("")
}

/// Writes `contents` to a fresh file under Cargo's per-target temp dir and returns its path.
pub fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("evochess-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// The side-to-move centipawns of an `eval` reply.
pub fn eval_cp(s: &mut Session) -> i32 {
    s.send("eval");
    let line = s.expect_line("Static evaluation: ", REPLY);
    line["Static evaluation: ".len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| s.fail(&format!("cannot parse `{line}`")))
}
