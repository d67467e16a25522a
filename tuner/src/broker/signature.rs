//! Build signatures: what a coordinator and its workers compare before a worker's games count.
//!
//! An engine's signature is its bench node count (`CMD bench`, as OpenBench and fishtest check
//! builds): evochess prints `N nodes M nps`, Stockfish `Nodes searched : N`. An engine that has
//! no bench command is known by a hash of its executable instead. The in-process fitness of
//! `evolve` is signed by evochess's bench run inside the tuner.

use std::{
    io::Read,
    path::Path,
    process::{Command, Stdio},
    time::{Duration, Instant},
};

/// The signature key (the program name) of the tuner's in-process evaluation and search, the
/// program of every in-process task kind.
pub const PROGRAM: &str = "evochess-library";

/// How long a bench may take before the engine counts as having none.
const BENCH_TIMEOUT: Duration = Duration::from_secs(120);

/// `bench N` from the engine's bench output, else `file FNV-HASH` of the executable.
pub fn bench_signature(cmd: &Path, args: &[String], dir: Option<&Path>) -> String {
    match run_bench(cmd, args, dir).as_deref().and_then(bench_nodes) {
        Some(nodes) => format!("bench {nodes}"),
        None => match std::fs::read(cmd) {
            Ok(bytes) => format!("file {:016x}", crate::hash::fnv1a_bytes(&bytes)),
            Err(e) => format!("unreadable ({e})"),
        },
    }
}

/// The signature of the evaluation and search this tuner is built with (its in-process fitness).
pub fn library_signature() -> String {
    let nodes = evochess::bench::run(evochess::bench::DEFAULT_DEPTH, &evochess::params::Params::default()).nodes;
    format!("bench {nodes}")
}

/// [`library_signature`], computed once per process (a bench takes seconds).
pub fn library_signature_cached() -> String {
    static SIGNATURE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SIGNATURE.get_or_init(library_signature).clone()
}

/// The signatures map of an in-process fitness's tasks and answers: the tuner's own build.
pub fn library_signatures() -> std::collections::BTreeMap<String, String> {
    std::collections::BTreeMap::from([(PROGRAM.to_string(), library_signature_cached())])
}

/// The bench output (stdout and stderr), or `None` when the engine failed or hung.
pub fn run_bench(cmd: &Path, args: &[String], dir: Option<&Path>) -> Option<String> {
    let mut command = Command::new(cmd);
    command.args(args).arg("bench").stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(d) = dir {
        command.current_dir(d);
    }
    let mut child = arena::engine::transport::spawn_tied(command).ok()?;
    let mut out = child.stdout.take()?;
    let mut err = child.stderr.take()?;
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = out.read_to_string(&mut text);
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < BENCH_TIMEOUT => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut text = reader.join().ok()?;
    text.push('\n');
    text.push_str(&err_reader.join().ok()?);
    Some(text)
}

/// The node count of a bench output: the last `N nodes` (evochess, Ethereal) or
/// `Nodes searched : N` (Stockfish). Never a speed, which changes from run to run.
pub fn bench_nodes(output: &str) -> Option<u64> {
    output.lines().rev().find_map(|line| {
        let lower = line.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("nodes searched") {
            return rest.trim_start_matches([' ', ':']).split_whitespace().next()?.parse().ok();
        }
        let words: Vec<&str> = lower.split_whitespace().collect();
        words.windows(2).rev().find(|w| w[1] == "nodes").and_then(|w| w[0].parse().ok())
    })
}

/// The speed of a bench output: the last `N nps` (evochess, Ethereal) or `Nodes/second : N`
/// (Stockfish): for an estimate of a run's time, never a signature.
pub fn bench_nps(output: &str) -> Option<f64> {
    output.lines().rev().find_map(|line| {
        let lower = line.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("nodes/second") {
            return rest.trim_start_matches([' ', ':']).split_whitespace().next()?.parse().ok();
        }
        let words: Vec<&str> = lower.split_whitespace().collect();
        words.windows(2).rev().find(|w| w[1] == "nps").and_then(|w| w[0].parse().ok())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_outputs_of_known_engines() {
        assert_eq!(bench_nodes("info depth 1\n4977478 nodes 1386231 nps\n"), Some(4977478));
        let sf = "Total time (ms) : 1234\nNodes searched  : 2099719\nNodes/second    : 1701555\n";
        assert_eq!(bench_nodes(sf), Some(2099719));
        assert_eq!(bench_nps(sf), Some(1701555.0));
        assert_eq!(bench_nps("info depth 1\n4977478 nodes 1386231 nps\n"), Some(1386231.0));
        assert_eq!(bench_nps("4977478 nodes\n"), None);
        assert_eq!(bench_nodes("OVERALL:      1234 ms    2505000 nodes    2030000 nps\n"), Some(2505000));
        assert_eq!(bench_nodes("no bench here\n"), None);
    }

    #[test]
    fn an_engine_without_bench_is_known_by_its_file() {
        let sig = bench_signature(Path::new("/bin/true"), &[], None);
        assert!(sig.starts_with("file "), "{sig}");
        assert_eq!(sig, bench_signature(Path::new("/bin/true"), &[], None));
    }
}
