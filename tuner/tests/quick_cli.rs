//! `tuner quick` end to end with the real engine: outputs, errors, kill -9 and `--resume`.

use std::{
    collections::HashSet,
    fs,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    thread,
    time::{Duration, Instant},
};

const TUNER: &str = env!("CARGO_BIN_EXE_tuner");

/// The evochess binary next to this test's target directory (built by `cargo build --workspace`).
fn engine() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let p = exe.parent()?.parent()?.join("evochess");
    if p.is_file() {
        Some(p)
    } else {
        eprintln!("skipping: {} not built (run cargo build --workspace)", p.display());
        None
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("evochess-quick-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn config(dir: &Path, engine: &Path, out: &str) -> PathBuf {
    let path = dir.join(format!("{out}.toml"));
    let text = format!(
        "engine = \"{}\"\nseed = 7\npopulation = 6\ngenerations = 2\nconcurrency = 2\nnodes = 400\nmax_moves = 25\n\
         out_dir = \"{}\"\n[dynamic_cap]\nfactor = 1.2\nmin = 10\nmax = 25\n[engine_options]\nHash = \"1\"\n",
        engine.display(),
        dir.join(out).display()
    );
    fs::write(&path, text).unwrap();
    path
}

fn tuner(args: &[&str]) -> Output {
    Command::new(TUNER).args(args).output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Unit ids of a runner journal, every line (duplicates kept).
fn journal_units(path: &Path) -> Vec<u64> {
    let Ok(t) = fs::read_to_string(path) else { return Vec::new() };
    t.split_inclusive('\n')
        .skip(1)
        .filter(|l| l.ends_with('\n'))
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| v["unit"].as_u64().unwrap())
        .collect()
}

/// generations.csv without the wall-time column.
fn results_csv(out: &Path) -> String {
    fs::read_to_string(out.join("generations.csv"))
        .unwrap()
        .lines()
        .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
        .collect()
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = scratch("bad");
    let cfg = dir.join("bad.toml");
    fs::write(&cfg, "populaton = 12\n").unwrap();
    let out = tuner(&["quick", "--config", cfg.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("populaton"), "{}", text(&out.stderr));
    let out = tuner(&["quick", "--engine", "/no/such/evochess", "--out", dir.join("o").to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("/no/such/evochess"), "{}", text(&out.stderr));
    let out = tuner(&["quick", "--population", "3"]);
    assert!(text(&out.stderr).contains("population"), "{}", text(&out.stderr));
    if let Some(e) = engine() {
        let out =
            tuner(&["quick", "--engine", e.to_str().unwrap(), "--out", dir.join("none").to_str().unwrap(), "--resume"]);
        assert!(!out.status.success());
        assert!(text(&out.stderr).contains("no checkpoint"), "{}", text(&out.stderr));
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn kill_9_then_resume_replays_no_game_and_matches_an_uninterrupted_run() {
    let Some(engine) = engine() else { return };
    let dir = scratch("resume");

    // Uninterrupted reference run.
    let cfg_a = config(&dir, &engine, "a");
    let out = tuner(&["quick", "--config", cfg_a.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a = dir.join("a");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("elite #1") && stdout.contains("paper, best individual"), "{stdout}");
    for f in ["generations.csv", "individuals.csv", "values.svg", "normalised.svg", "games.svg", "summary.txt"] {
        assert!(a.join(f).is_file(), "{f} missing");
    }
    let csv = results_csv(&a);
    assert_eq!(csv.lines().count(), 3, "{csv}");
    // Every game of a generation is journaled once, and the count is what the CSV reports.
    for g in 0..2 {
        let units = journal_units(&a.join(format!("gen-{g:03}/games.journal")));
        let row: Vec<&str> = csv.lines().nth(g + 1).unwrap().split(',').collect();
        assert_eq!(units.len().to_string(), row[1], "generation {g}");
        assert!(units.len() >= 5 && units.len() <= 15, "{} games for 6 players", units.len());
        let pgn = fs::read_to_string(a.join(format!("gen-{g:03}/games.pgn"))).unwrap();
        assert_eq!(pgn.matches("[Event ").count(), units.len());
    }
    assert!(fs::read_dir(a.join("params")).unwrap().count() >= 6);

    // Same run, killed with SIGKILL after a few games of generation 0, then resumed.
    let cfg_b = config(&dir, &engine, "b");
    let b = dir.join("b");
    let journal = b.join("gen-000/games.journal");
    let mut child = Command::new(TUNER)
        .args(["quick", "--config", cfg_b.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while journal_units(&journal).len() < 2 {
        assert!(t0.elapsed() < Duration::from_secs(60), "no games journaled");
        thread::sleep(Duration::from_millis(5));
    }
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(running, "the run ended before the kill");
    let before = journal_units(&journal).len();
    let out = tuner(&["quick", "--config", cfg_b.to_str().unwrap(), "--resume"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains(&format!("generation 0: {before} games replayed")), "{}", text(&out.stderr));
    for g in 0..2 {
        let units = journal_units(&b.join(format!("gen-{g:03}/games.journal")));
        let unique: HashSet<u64> = units.iter().copied().collect();
        assert_eq!(unique.len(), units.len(), "a finished game was played again in generation {g}");
    }
    assert_eq!(results_csv(&b), csv, "resumed run differs from the uninterrupted one");
    assert_eq!(
        fs::read_to_string(b.join("individuals.csv")).unwrap(),
        fs::read_to_string(a.join("individuals.csv")).unwrap()
    );
    // A different setting is refused on resume.
    let out = tuner(&["quick", "--config", cfg_b.to_str().unwrap(), "--resume", "--nodes", "500"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("different settings"), "{}", text(&out.stderr));
    fs::remove_dir_all(&dir).unwrap();
}
