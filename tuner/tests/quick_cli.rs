//! `tuner quick` end to end with the real engine: outputs, errors, kill -9 and `--resume`.

mod common;

use std::{
    fs,
    io::Write,
    path::{Path, PathBuf},
    time::Duration,
};

use common::{
    assert_each_unit_once, engine_binary, journal_units, kill_9_when, scratch, text, tuner, tuner_err, tuner_logging,
    tuner_ok,
};

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
    let dir = scratch("quick", "bad");
    let cfg = dir.join("bad.toml");
    fs::write(&cfg, "populaton = 12\n").unwrap();
    let err = tuner_err(&["quick", "--config", cfg.to_str().unwrap()]);
    assert!(err.contains("populaton"), "{err}");
    let err = tuner_err(&["quick", "--engine", "/no/such/evochess", "--out", dir.join("o").to_str().unwrap()]);
    assert!(err.contains("/no/such/evochess"), "{err}");
    let out = tuner(&["quick", "--population", "3"]);
    assert!(text(&out.stderr).contains("population"), "{}", text(&out.stderr));
    let e = engine_binary();
    let none = dir.join("none");
    let err = tuner_err(&["quick", "--engine", e.to_str().unwrap(), "--out", none.to_str().unwrap(), "--resume"]);
    assert!(err.contains("no checkpoint"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn kill_9_then_resume_replays_no_game_and_matches_an_uninterrupted_run() {
    let engine = engine_binary();
    let dir = scratch("quick", "resume");

    // Uninterrupted reference run.
    let cfg_a = config(&dir, &engine, "a");
    let out = tuner_ok(&["quick", "--config", cfg_a.to_str().unwrap()]);
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
    // It ends by naming the best individual's parameter file and how to load it.
    let best = std::path::absolute(a.join("best.toml")).unwrap();
    assert!(stdout.contains(&format!("evochess --params {}", best.display())), "{stdout}");
    evochess::Params::load(&best).unwrap();

    // Same run, killed with SIGKILL after a few games of generation 0, then resumed.
    let cfg_b = config(&dir, &engine, "b");
    let b = dir.join("b");
    let journal = b.join("gen-000/games.journal");
    let args = ["quick", "--config", cfg_b.to_str().unwrap()];
    kill_9_when(&args, Duration::from_secs(60), "2 journaled games", || journal_units(&journal).len() >= 2);
    let before = journal_units(&journal).len();
    // A game cut short by the kill: torn PGN text past the last journaled game.
    let pgn0 = b.join("gen-000/games.pgn");
    fs::OpenOptions::new().append(true).open(&pgn0).unwrap().write_all(b"[Event \"torn").unwrap();
    // The replay note is logged at info level.
    let out = tuner_logging("info", &["quick", "--config", cfg_b.to_str().unwrap(), "--resume"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains(&format!("generation 0: {before} games replayed")), "{}", text(&out.stderr));
    for g in 0..2 {
        assert_each_unit_once(&b.join(format!("gen-{g:03}/games.journal")));
        // Every journaled game is in the PGN exactly once, and no torn text is left.
        let pgn = fs::read_to_string(b.join(format!("gen-{g:03}/games.pgn"))).unwrap();
        assert_eq!(pgn.matches("[Event ").count(), journal_units(&b.join(format!("gen-{g:03}/games.journal"))).len());
        assert!(!pgn.contains("torn"), "generation {g}: torn text kept");
    }
    assert_eq!(results_csv(&b), csv, "resumed run differs from the uninterrupted one");
    assert_eq!(
        fs::read_to_string(b.join("individuals.csv")).unwrap(),
        fs::read_to_string(a.join("individuals.csv")).unwrap()
    );
    // A different setting is refused on resume.
    let err = tuner_err(&["quick", "--config", cfg_b.to_str().unwrap(), "--resume", "--nodes", "500"]);
    assert!(err.contains("different settings"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

/// A second run on the same output directory is refused while the first holds it.
#[test]
fn a_second_run_on_the_same_out_dir_is_refused() {
    let engine = engine_binary();
    let dir = scratch("quick", "lock");
    let cfg = config(&dir, &engine, "a");
    let cfg_s = cfg.to_str().unwrap();
    let mut first = std::process::Command::new(common::TUNER)
        .args(["quick", "--config", cfg_s, "--generations", "50"])
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let journal = dir.join("a/gen-000/games.journal");
    let start = std::time::Instant::now();
    while journal_units(&journal).is_empty() {
        assert!(first.try_wait().unwrap().is_none(), "the first run ended early");
        assert!(start.elapsed() < Duration::from_secs(60), "no game within a minute");
        std::thread::sleep(Duration::from_millis(5));
    }
    let err = tuner_err(&["quick", "--config", cfg_s]);
    let _ = first.kill();
    first.wait().unwrap();
    assert!(
        err.contains("in use by another running tuner") && err.contains(&dir.join("a").display().to_string()),
        "{err}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// `comparison = "colour-pair"`: every comparison is two games from one start with colours
/// swapped, journaled as one unit; the report counts comparisons and games apart.
#[test]
fn colour_pairs_play_both_colours_per_comparison() {
    let engine = engine_binary();
    let dir = scratch("quick", "pairs");
    let cfg = config(&dir, &engine, "p");
    let mut text_cfg = fs::read_to_string(&cfg).unwrap();
    text_cfg = text_cfg.replace("generations = 2\n", "generations = 1\ncomparison = \"colour-pair\"\n");
    fs::write(&cfg, text_cfg).unwrap();
    tuner_ok(&["quick", "--config", cfg.to_str().unwrap()]);
    let out = dir.join("p");
    let pgn = fs::read_to_string(out.join("gen-000/games.pgn")).unwrap();
    let journal: Vec<serde_json::Value> = fs::read_to_string(out.join("gen-000/games.journal"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(journal.len() >= 5, "{} comparisons for 6 players", journal.len());
    for unit in &journal {
        let games = unit["games"].as_array().unwrap();
        assert_eq!(games.len(), 2, "{unit}");
        assert_eq!(
            (games[0]["white"].clone(), games[0]["black"].clone()),
            (games[1]["black"].clone(), games[1]["white"].clone())
        );
    }
    assert_eq!(pgn.matches("[Event ").count(), 2 * journal.len());
    let csv = fs::read_to_string(out.join("generations.csv")).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(
        (row[1].parse::<usize>().unwrap(), row[4].parse::<usize>().unwrap()),
        (journal.len(), 2 * journal.len())
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// `anchor = true`: the reference joins every round robin as a non-breeding member, so a
/// generation of N members plays (N+1)N/2 pairings, the reference in N of them, and it never
/// appears among the ranked individuals.
#[test]
fn the_anchor_plays_every_member_and_never_breeds() {
    let engine = engine_binary();
    let dir = scratch("quick", "anchor");
    let cfg = config(&dir, &engine, "a");
    let mut text_cfg = fs::read_to_string(&cfg).unwrap();
    text_cfg = text_cfg.replace("generations = 2\n", "generations = 2\nranking = \"round-robin\"\nanchor = true\n");
    fs::write(&cfg, text_cfg).unwrap();
    tuner_ok(&["quick", "--config", cfg.to_str().unwrap()]);
    let out = dir.join("a");
    for g in 0..2 {
        let pgn = fs::read_to_string(out.join(format!("gen-{g:03}/games.pgn"))).unwrap();
        assert_eq!(pgn.matches("[Event ").count(), 7 * 6, "generation {g}: 21 pairings of 2 games");
        let by_reference = pgn.matches("[White \"reference\"]").count() + pgn.matches("[Black \"reference\"]").count();
        assert_eq!(by_reference, 2 * 6, "generation {g}: one pair against each of the 6 members");
    }
    let individuals = fs::read_to_string(out.join("individuals.csv")).unwrap();
    assert!(!individuals.contains("reference"), "{individuals}");
    fs::remove_dir_all(&dir).unwrap();
}
