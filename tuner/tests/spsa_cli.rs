//! `tuner spsa` end to end: real evochess processes at a node limit, values and reports after
//! every iteration, and a run killed mid-tune that resumes to the uninterrupted result.

mod common;

use std::{path::Path, time::Duration};

use common::{engine_binary, kill_9_when, repo, scratch, tuner_err, tuner_ok};
use evochess::params::Params;

/// A 5-iteration tune of two piece values into `dir`; returns the config path.
fn config(dir: &Path) -> std::path::PathBuf {
    let lines = dir.join("params.txt");
    std::fs::write(
        &lines,
        "# two piece values\nknight_mg, int, 320, 200, 450, 20, 0.01\nbishop_mg, int, 330, 200, 450, 20, 0.01\n",
    )
    .unwrap();
    let cfg = dir.join("spsa.toml");
    std::fs::write(
        &cfg,
        format!(
            "params = {lines:?}\nengine = {engine:?}\niterations = 5\npairs = 1\nnodes = 400\nseed = 4\n\
             openings = {book:?}\nout_dir = {out:?}\n",
            engine = engine_binary(),
            book = repo().join("openings/gnuchess-8ply.epd"),
            out = dir.join("out"),
        ),
    )
    .unwrap();
    cfg
}

#[test]
fn spsa_tunes_reports_and_resumes_after_kill_9() {
    let whole = scratch("spsa", "whole");
    let cfg = config(&whole);
    let out = tuner_ok(&["spsa", "--config", cfg.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("knight_mg, int, ") && stdout.contains("evochess --params"), "{stdout}");
    let csv = std::fs::read_to_string(whole.join("out/values.csv")).unwrap();
    assert_eq!(csv.lines().next(), Some("iteration,score,knight_mg,bishop_mg"));
    assert_eq!(csv.lines().count(), 6, "{csv}");
    assert!(whole.join("out/values.svg").is_file() && whole.join("out/iter-00005/games.pgn").is_file());
    let tuned = Params::load(whole.join("out/tuned.toml")).unwrap();
    let knight = tuned.get(Params::find("knight_mg").unwrap().0);
    assert!((200..=450).contains(&knight), "{knight}");

    // Killed once the third iteration has a finished game pair, then resumed.
    let cut = scratch("spsa", "killed");
    let cfg = config(&cut);
    let journal = cut.join("out/iter-00003/games.state.jsonl");
    let args = ["spsa", "--config", cfg.to_str().unwrap()];
    kill_9_when(&args, Duration::from_secs(120), "iteration 3's game pair", || {
        std::fs::read_to_string(&journal).is_ok_and(|t| t.lines().count() >= 2)
    });
    let e = tuner_err(&["spsa", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("--resume"), "a second start without --resume is refused: {e}");
    tuner_ok(&["spsa", "--config", cfg.to_str().unwrap(), "--resume"]);
    let resumed = std::fs::read_to_string(cut.join("out/values.csv")).unwrap();
    assert_eq!(resumed, csv, "the resumed tune ends where the uninterrupted one did");
}

#[test]
fn bad_spsa_input_is_named() {
    let dir = scratch("spsa", "bad");
    let cfg = config(&dir);
    std::fs::write(
        dir.join("params.txt"),
        "knight_mg, int, 320, 200, 450, 20, 0.01\nqueen, int, 900, 0, 800, 20, 0.01\n",
    )
    .unwrap();
    let e = tuner_err(&["spsa", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("params.txt") && e.contains("line 2") && e.contains("outside"), "{e}");
    std::fs::write(dir.join("params.txt"), "knight_mgg, int, 320, 200, 450, 20, 0.01\n").unwrap();
    let e = tuner_err(&["spsa", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("knight_mgg"), "{e}");
    std::fs::write(dir.join("params.txt"), "knight_mg, int, 320, 0, 99999, 20, 0.01\n").unwrap();
    let e = tuner_err(&["spsa", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("knight_mg") && e.contains("outside the engine's range"), "{e}");
}
