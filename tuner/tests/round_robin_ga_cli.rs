//! `tuner roundrobin-ga` end to end with the real engine: cross tables, reports, verification,
//! kill -9 and `--resume`.

mod common;

use std::{
    fs,
    path::{Path, PathBuf},
    time::Duration,
};

use common::{
    assert_each_unit_once, engine_binary, journal_units, kill_9_when, repo, scratch, text, tuner, tuner_err, tuner_ok,
};
use evochess::params::Params;

fn config(dir: &Path, engine: &Path, out: &str) -> PathBuf {
    let path = dir.join(format!("{out}.toml"));
    let text = format!(
        "engine = \"{}\"\nspace = \"{}\"\nseed = 3\npopulation = 4\ngenerations = 2\ndepth = 1\nmax_moves = 30\n\
         concurrency = 2\nout_dir = \"{}\"\n[engine_options]\nHash = \"1\"\n\
         [verify]\ngames = 4\nopenings = \"{}\"\nrandom_individual = 2\n",
        engine.display(),
        repo().join("configs/spaces/roundrobin-ga-aksenov.toml").display(),
        dir.join(out).display(),
        repo().join("openings/gnuchess-8ply.epd").display(),
    );
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = scratch("rrga", "bad");
    let cfg = dir.join("bad.toml");
    fs::write(&cfg, "[verify]\ngame = 3\n").unwrap();
    let err = tuner_err(&["roundrobin-ga", "--config", cfg.to_str().unwrap()]);
    assert!(err.contains("game"), "{err}");
    let space = repo().join("configs/spaces/roundrobin-ga-aksenov.toml");
    fs::write(&cfg, format!("space = \"{}\"\n[reference]\nqueen = 1200\n", space.display())).unwrap();
    let err = tuner_err(&["roundrobin-ga", "--config", cfg.to_str().unwrap(), "--verify-games", "0"]);
    assert!(err.contains("queen = 1200"), "{err}");
    fs::write(&cfg, "space = \"/no/such/space.toml\"\n").unwrap();
    let out = tuner(&["roundrobin-ga", "--config", cfg.to_str().unwrap(), "--verify-games", "0"]);
    assert!(text(&out.stderr).contains("/no/such/space.toml"), "{}", text(&out.stderr));
    fs::write(&cfg, format!("space = \"{}\"\n", space.display())).unwrap();
    let err = tuner_err(&[
        "roundrobin-ga",
        "--config",
        cfg.to_str().unwrap(),
        "--engine",
        "/no/such/evochess",
        "--verify-games",
        "0",
    ]);
    assert!(err.contains("/no/such/evochess"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generations_reports_verification_and_resume_after_kill_9() {
    let engine = engine_binary();
    let dir = scratch("rrga", "run");
    let cfg_a = config(&dir, &engine, "a");
    let out = tuner_ok(&["roundrobin-ga", "--config", cfg_a.to_str().unwrap()]);
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
    let shown = std::path::absolute(a.join("best.toml")).unwrap();
    assert!(stdout.contains(&format!("setoption name ParamsFile value {}", shown.display())), "{stdout}");
    assert_eq!(best.eval.tempo, 0);
    assert!((800..=1000).contains(&best.eval.queen_mg) && best.eval.queen_mg == best.eval.queen_eg);
    assert_eq!(journal_units(&a.join("verify/material.journal")).len(), 2, "4 games = 2 colour-swapped pairs");

    // Killed during generation 0, then resumed: same tables, no game played twice.
    let cfg_b = config(&dir, &engine, "b");
    let b = dir.join("b");
    let journal = b.join("gen-000/games.journal");
    let args = ["roundrobin-ga", "--config", cfg_b.to_str().unwrap()];
    kill_9_when(&args, Duration::from_secs(60), "3 journaled games", || journal_units(&journal).len() >= 3);
    tuner_ok(&["roundrobin-ga", "--config", cfg_b.to_str().unwrap(), "--resume"]);
    for j in ["gen-000/games.journal", "gen-001/games.journal", "verify/random2.journal", "verify/material.journal"] {
        assert_each_unit_once(&b.join(j));
    }
    for f in ["crosstables.txt", "best.toml", "averages.csv", "verification.txt"] {
        assert_eq!(fs::read_to_string(b.join(f)).unwrap(), fs::read_to_string(a.join(f)).unwrap(), "{f} differs");
    }
    fs::remove_dir_all(&dir).unwrap();
}
