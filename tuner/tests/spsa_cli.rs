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

/// Issue 89: with `held_back`, iteration `i` plays the openings of one permutation from
/// `held_back + i · pairs + 1`, so no opening is played twice and the held-back slice never.
#[test]
fn held_back_openings_are_never_played_and_none_twice() {
    let dir = scratch("spsa", "held-back");
    let cfg = config(&dir);
    let text = std::fs::read_to_string(&cfg).unwrap() + "held_back = 191\npairs = 2\n";
    let text = text.replace("pairs = 1\n", "");
    std::fs::write(&cfg, text).unwrap();
    let e = tuner_err(&["spsa", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("held_back = 191") && e.contains("need 201 openings"), "{e}");
    let text = std::fs::read_to_string(&cfg).unwrap().replace("held_back = 191", "held_back = 180");
    std::fs::write(&cfg, text).unwrap();
    tuner_ok(&["spsa", "--config", cfg.to_str().unwrap()]);
    let fens = |pgn: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(pgn).unwrap();
        text.lines().filter(|l| l.starts_with("[FEN ")).map(str::to_string).collect()
    };
    let mut all = Vec::new();
    for i in 1..=5 {
        let played = fens(&dir.join(format!("out/iter-{i:05}/games.pgn")));
        assert_eq!(played.len(), 4, "two pairs an iteration");
        assert_eq!(played[0], played[1], "a pair shares its opening");
        all.extend([played[0].clone(), played[2].clone()]);
    }
    let distinct: std::collections::BTreeSet<&String> = all.iter().collect();
    assert_eq!(distinct.len(), 10, "an opening played twice: {all:?}");
    // The permutation's positions 181..=190 are these ten, in order: what `tuner match
    // --openings ... order=random start=181 --srand 4` plays.
    let book = repo().join("openings/gnuchess-8ply.epd");
    let m = dir.join("m");
    std::fs::create_dir_all(&m).unwrap();
    let engine = format!("cmd={}", engine_binary().display());
    let (file, pgn) = (format!("file={}", book.display()), m.join("g.pgn"));
    let engines = ["match", "--engine", &engine, "name=a", "--engine", &engine, "name=b", "--each", "nodes=50"];
    let rest = ["--openings", &file, "order=random", "start=181", "--srand", "4", "--games", "20", "--pgnout"];
    tuner_ok(&[&engines[..], &rest[..], &[pgn.to_str().unwrap()]].concat());
    let expected: Vec<String> = fens(&m.join("g.pgn")).chunks(2).map(|c| c[0].clone()).collect();
    assert_eq!(all, expected);
}
