//! The connection to an engine process, whatever its protocol: a [`Transport`] carries lines,
//! [`Conn`] adds the queue of received lines, deadlines and the health flag that both the UCI and
//! the xboard client use.
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
        let mut child = spawn_tied(command)?;
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

/// Spawns `command` so that the child cannot outlive this process: on Linux it gets SIGKILL
/// when the tuner dies, even by `kill -9` (`PR_SET_PDEATHSIG`). The signal follows the death of
/// the spawning *thread*, not the process, so every child is spawned by one thread that lives as
/// long as the process; engines started from short-lived game threads would otherwise be killed
/// when their thread ends.
pub fn spawn_tied(command: Command) -> io::Result<Child> {
    #[cfg(target_os = "linux")]
    {
        tied::spawn(command)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let mut command = command;
        command.spawn()
    }
}

#[cfg(target_os = "linux")]
mod tied {
    use std::{
        io,
        os::unix::process::CommandExt,
        process::{Child, Command},
        sync::OnceLock,
        thread,
    };

    use crossbeam_channel::{Sender, bounded, unbounded};

    type Request = (Command, Sender<io::Result<Child>>);

    /// The spawning thread's queue; `None` if that thread could not be started.
    static SPAWNER: OnceLock<Option<Sender<Request>>> = OnceLock::new();

    pub fn spawn(mut command: Command) -> io::Result<Child> {
        let parent = std::process::id();
        // The child is forked by the spawner thread, so it would inherit that thread's CPU set:
        // it gets the caller's instead (`-use-affinity` pins a game's thread, and its engines
        // must follow).
        // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity writes at most its size.
        let caller_cpus = unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            (libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) == 0).then_some(set)
        };
        // SAFETY: between fork and exec the closure only makes async-signal-safe calls (prctl,
        // sched_setaffinity, getppid) and allocates nothing.
        unsafe {
            command.pre_exec(move || {
                if let Some(set) = &caller_cpus {
                    // Best effort: a CPU set the child cannot take leaves it where it is.
                    libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), set);
                }
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // This process died between fork and prctl: no signal will ever come.
                if libc::getppid() as u32 != parent {
                    return Err(io::Error::from_raw_os_error(libc::ESRCH));
                }
                Ok(())
            });
        }
        let spawner = SPAWNER.get_or_init(|| {
            let (tx, rx) = unbounded::<Request>();
            let started = thread::Builder::new().name("spawner".into()).spawn(move || {
                for (mut command, reply) in rx {
                    let _ = reply.send(command.spawn());
                }
            });
            started.map_err(|e| log::warn!("no spawner thread ({e}): engines are tied to their game threads")).ok()?;
            Some(tx)
        });
        let Some(spawner) = spawner else { return command.spawn() };
        let (reply, answer) = bounded(1);
        let gone = || io::Error::other("the spawner thread has ended");
        spawner.send((command, reply)).map_err(|_| gone())?;
        answer.recv().map_err(|_| gone())?
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
pub enum EngineError {
    #[error("engine `{engine}`: cannot start `{cmd}`: {source}")]
    Spawn { engine: String, cmd: String, source: io::Error },
    #[error("engine `{engine}` did not answer `{what}` within {after:?}")]
    Timeout { engine: String, what: &'static str, after: Duration },
    #[error("engine `{engine}` disconnected (exited or crashed) while waiting for `{what}`")]
    Disconnected { engine: String, what: &'static str },
    #[error("engine `{engine}` has no option `{option}` (it declares: {})", evochess::one_line(.declared))]
    UnknownOption { engine: String, option: String, declared: String },
    /// An xboard engine answered one of our legal moves with `Illegal move`.
    #[error("engine `{engine}` rejects a legal move: `{}`", evochess::one_line(.line))]
    Rejected { engine: String, line: String },
    /// A UCI engine answered a setting with `info string error ...`.
    #[error("engine `{engine}` refused its settings: {}", evochess::one_line(.message))]
    Refused { engine: String, message: String },
    #[error("engine `{engine}` cannot {what}")]
    Unsupported { engine: String, what: String },
    /// The game handed the client a move it cannot follow (a bug on our side, not the engine's).
    #[error("engine `{engine}`: the client is out of step with the game ({detail})")]
    OutOfStep { engine: String, detail: String },
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

/// One live engine: its transport, the lines received but not yet consumed, and whether it is
/// still fit to use. A timeout or a closed pipe marks it unhealthy: the caller restarts it.
pub struct Conn {
    label: String,
    transport: Box<dyn Transport>,
    pending: VecDeque<String>,
    healthy: bool,
}

impl Conn {
    pub fn new(label: &str, transport: Box<dyn Transport>) -> Conn {
        Conn { label: label.to_string(), transport, pending: VecDeque::new(), healthy: true }
    }

    /// Spawns `cmd` as a [`ProcessTransport`].
    pub fn spawn(label: &str, cmd: &Path, args: &[String], dir: Option<&Path>) -> Result<Conn, EngineError> {
        let t = ProcessTransport::spawn(cmd, args, dir, label).map_err(|source| EngineError::Spawn {
            engine: label.to_string(),
            cmd: cmd.display().to_string(),
            source,
        })?;
        Ok(Conn::new(label, Box::new(t)))
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn is_healthy(&self) -> bool {
        self.healthy
    }

    pub fn set_healthy(&mut self, healthy: bool) {
        self.healthy = healthy;
    }

    /// Sends one line; `what` names the answer awaited, for the error.
    pub fn send(&mut self, line: &str, what: &'static str) -> Result<(), EngineError> {
        log::trace!("{} < {line}", self.label);
        self.transport.send(line).map_err(|_| {
            self.healthy = false;
            EngineError::Disconnected { engine: self.label.clone(), what }
        })
    }

    /// The next line, waiting until `deadline`; a timeout is an error and marks the engine
    /// unhealthy.
    pub fn next_line(&mut self, deadline: Instant, what: &'static str) -> Result<String, EngineError> {
        let after = deadline.saturating_duration_since(Instant::now());
        match self.line_until(deadline, what)? {
            Some(line) => Ok(line),
            None => {
                self.healthy = false;
                Err(EngineError::Timeout { engine: self.label.clone(), what, after })
            }
        }
    }

    /// The next line, or `None` once `deadline` passes (for waits whose end is not a failure).
    pub fn line_until(&mut self, deadline: Instant, what: &'static str) -> Result<Option<String>, EngineError> {
        loop {
            if let Some(line) = self.pending.pop_front() {
                return Ok(Some(line));
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.transport.lines().recv_timeout(left) {
                Ok(lines) => self.pending.extend(lines),
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => {
                    self.healthy = false;
                    return Err(EngineError::Disconnected { engine: self.label.clone(), what });
                }
            }
        }
    }

    /// Every line already received, without waiting.
    pub fn drain(&mut self) -> Vec<String> {
        while let Ok(lines) = self.transport.lines().try_recv() {
            self.pending.extend(lines);
        }
        self.pending.drain(..).collect()
    }

    /// Sends `quit_line`, then kills the engine if it has not exited within `grace`.
    pub fn quit(mut self, quit_line: &str, grace: Duration) {
        let _ = self.transport.send(quit_line);
        self.transport.shutdown(grace);
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.transport.shutdown(Duration::ZERO);
    }
}
