//! The engine and the process that started it: fed by a pipe from a live process, a search that
//! ends by itself runs to its end after end of input (`echo "go depth 5" | evochess`); once its
//! starter dies (a GUI or tuner killed with SIGKILL), it stops searching and exits.

use std::{
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

const BIN: &str = env!("CARGO_BIN_EXE_evochess");

/// Whether `pid` runs (a zombie, waiting for whoever adopted it to reap it, has ended).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

#[test]
fn a_search_stops_when_the_engines_starter_dies() {
    // sh starts the engine with a finished pipe as stdin (end of input at once) and a search
    // that would take hours, prints the engine's pid, then waits.
    let script = r#"printf 'position startpos\ngo depth 60\n' | "$0" >/dev/null & echo $!; exec sleep 600"#;
    let mut sh = Command::new("sh")
        .args(["-c", script, BIN])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sh starts");
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(sh.stdout.take().unwrap()), &mut line).unwrap();
    let engine: u32 = line.trim().parse().expect("the engine's pid");
    // Its starter lives: the search goes on after end of input.
    thread::sleep(Duration::from_millis(1500));
    let searching = alive(engine);
    sh.kill().unwrap(); // SIGKILL: the engine is re-parented
    sh.wait().unwrap();
    let killed = Instant::now();
    while alive(engine) && killed.elapsed() < Duration::from_secs(5) {
        thread::sleep(Duration::from_millis(20));
    }
    let stopped = !alive(engine);
    if !stopped {
        let _ = Command::new("kill").args(["-9", &engine.to_string()]).status();
    }
    assert!(searching, "a bounded search runs on after end of input while its starter lives");
    assert!(stopped, "the engine searched on for 5 s after its starter died");
}
