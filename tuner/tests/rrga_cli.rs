//! `tuner roundrobin-ga` end to end with the real engine: cross tables, reports, verification,
//! kill -9 and `--resume`.

use std::{
    collections::HashSet,
    fs,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    thread,
    time::{Duration, Instant},
};

use evochess::params::Params;

const TUNER: &str = env!("CARGO_BIN_EXE_tuner");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

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
    let dir = std::env::temp_dir().join(format!("evochess-rrga-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn config(dir: &Path, engine: &Path, out: &str) -> PathBuf {
    let path = dir.join(format!("{out}.toml"));
    let text = format!(
        "engine = \"{}\"\nspace = \"{}\"\nseed = 3\npopulation = 4\ngenerations = 2\ndepth = 1\nmax_moves = 30\n\
         concurrency = 2\nout_dir = \"{}\"\n[engine_options]\nHash = \"1\"\n\
         [verify]\ngames = 4\nopenings = \"{}\"\nrandom_individual = 2\n",
        engine.display(),
        repo().join("params/aksenov-space.toml").display(),
        dir.join(out).display(),
        repo().join("openings/gnuchess-8ply.epd").display(),
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

fn journal_units(path: &Path) -> Vec<u64> {
    let Ok(t) = fs::read_to_string(path) else { return Vec::new() };
    t.split_inclusive('\n')
        .skip(1)
        .filter(|l| l.ends_with('\n'))
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| v["unit"].as_u64().unwrap())
        .collect()
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = scratch("bad");
    let cfg = dir.join("bad.toml");
    fs::write(&cfg, "[verify]\ngame = 3\n").unwrap();
    let out = tuner(&["roundrobin-ga", "--config", cfg.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("game"), "{}", text(&out.stderr));
    let space = repo().join("params/aksenov-space.toml");
    fs::write(&cfg, format!("space = \"{}\"\n[reference]\nqueen = 1200\n", space.display())).unwrap();
    let out = tuner(&["roundrobin-ga", "--config", cfg.to_str().unwrap(), "--verify-games", "0"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("queen = 1200"), "{}", text(&out.stderr));
    fs::write(&cfg, "space = \"/no/such/space.toml\"\n").unwrap();
    let out = tuner(&["roundrobin-ga", "--config", cfg.to_str().unwrap(), "--verify-games", "0"]);
    assert!(text(&out.stderr).contains("/no/such/space.toml"), "{}", text(&out.stderr));
    fs::write(&cfg, format!("space = \"{}\"\n", space.display())).unwrap();
    let out = tuner(&[
        "roundrobin-ga",
        "--config",
        cfg.to_str().unwrap(),
        "--engine",
        "/no/such/evochess",
        "--verify-games",
        "0",
    ]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("/no/such/evochess"), "{}", text(&out.stderr));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generations_reports_verification_and_resume_after_kill_9() {
    let Some(engine) = engine() else { return };
    let dir = scratch("run");
    let cfg_a = config(&dir, &engine, "a");
    let out = tuner(&["roundrobin-ga", "--config", cfg_a.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("ROUND 2"), "{stdout}");
    assert!(stdout.contains("best vs random2") && stdout.contains("best vs material"), "{stdout}");
    let a = dir.join("a");
    for f in ["crosstables.txt", "reference.csv", "reference.svg", "averages.csv", "averages.svg", "verification.txt"] {
        assert!(a.join(f).is_file(), "{f} missing");
    }
    // Table 6 layout: 3 players and const, 2 games per pair, 12 games, points sum to 12.
    let csv = fs::read_to_string(a.join("gen-001/crosstable.csv")).unwrap();
    assert!(csv.starts_with("round,player,1,2,3,const,points,place\n"), "{csv}");
    let points: f64 = csv.lines().skip(1).map(|l| l.split(',').nth(6).unwrap().parse::<f64>().unwrap()).sum();
    assert_eq!(points, 12.0);
    assert_eq!(journal_units(&a.join("gen-000/games.journal")).len(), 12);
    assert_eq!(fs::read_to_string(a.join("reference.csv")).unwrap().lines().count(), 3);
    // The best player's file is a complete, valid engine parameter file of Aksenov's terms only.
    let best = Params::load(a.join("best.toml")).unwrap();
    assert_eq!(best.eval.tempo, 0);
    assert!((800..=1000).contains(&best.eval.queen_mg) && best.eval.queen_mg == best.eval.queen_eg);
    assert_eq!(journal_units(&a.join("verify/material.journal")).len(), 2, "4 games = 2 colour-swapped pairs");

    // Killed during generation 0, then resumed: same tables, no game played twice.
    let cfg_b = config(&dir, &engine, "b");
    let b = dir.join("b");
    let journal = b.join("gen-000/games.journal");
    let mut child = Command::new(TUNER)
        .args(["roundrobin-ga", "--config", cfg_b.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while journal_units(&journal).len() < 3 {
        assert!(t0.elapsed() < Duration::from_secs(60), "no games journaled");
        thread::sleep(Duration::from_millis(5));
    }
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(running, "the run ended before the kill");
    let out = tuner(&["roundrobin-ga", "--config", cfg_b.to_str().unwrap(), "--resume"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for j in ["gen-000/games.journal", "gen-001/games.journal", "verify/random2.journal", "verify/material.journal"] {
        let units = journal_units(&b.join(j));
        let unique: HashSet<u64> = units.iter().copied().collect();
        assert_eq!(unique.len(), units.len(), "{j}: a finished game was played again");
    }
    for f in ["crosstables.txt", "best.toml", "averages.csv", "verification.txt"] {
        assert_eq!(fs::read_to_string(b.join(f)).unwrap(), fs::read_to_string(a.join(f)).unwrap(), "{f} differs");
    }
    fs::remove_dir_all(&dir).unwrap();
}
