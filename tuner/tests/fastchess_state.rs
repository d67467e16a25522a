//! fastchess's `-config file=NAME [discard=true]`, `-autosaveinterval N` and `-show-latency`
//! through the `tuner` binary (issue 48, item 9): a match started with `-config` and killed
//! (SIGKILL) resumes from `tuner match -config file=NAME` alone, from any directory, playing
//! each game pair once; the saved standings guard the journal; `discard=true` starts afresh;
//! `-show-latency` logs each move's latency and sums it up per engine.

mod common;

use std::{
    fs,
    path::Path,
    process::{Command, Output, Stdio},
    thread,
    time::{Duration, Instant},
};

use common::{TUNER, assert_each_unit_once, games_in, journal_units, repo, scratch, text};

const UCI: &str = env!("CARGO_BIN_EXE_fake-engine");

/// Runs `tuner ARGS` in `dir` with `RUST_LOG=level`.
fn run_in(dir: &Path, level: &str, args: &[String]) -> Output {
    Command::new(TUNER).args(args).current_dir(dir).env("RUST_LOG", level).output().unwrap()
}

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

fn saved(path: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(path).unwrap_or_default()).unwrap_or(serde_json::Value::Null)
}

/// Games the saved match counted at its last save (0 before the file is there).
fn saved_games(path: &Path) -> u64 {
    saved(path)["games_played"].as_u64().unwrap_or(0)
}

#[test]
fn a_match_saved_with_config_resumes_from_the_file_alone_after_kill_9() {
    let dir = scratch("fcstate", "resume");
    fs::copy(repo().join("openings/gnuchess-8ply.epd"), dir.join("book.epd")).unwrap();
    // Relative paths, resolved in `dir`: the resume runs from elsewhere. The slow engine makes
    // a game last long enough to be killed in the middle of the match.
    let line = format!(
        "match -engine cmd={UCI} name=a arg=--seed arg=1 arg=--slow-after arg=0 arg=--slow-ms arg=15 \
         -engine cmd={UCI} name=b arg=--seed arg=2 -openings file=book.epd order=random -each nodes=10 \
         -rounds 12 -maxmoves 15 -srand 3 -pgnout games.pgn -config file=m.json -autosaveinterval 4"
    );
    let (m, journal, pgn) = (dir.join("m.json"), dir.join("games.pgn.state.jsonl"), dir.join("games.pgn"));
    let mut child = Command::new(TUNER)
        .args(words(&line))
        .current_dir(&dir)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while saved_games(&m) < 4 {
        assert!(child.try_wait().unwrap().is_none(), "the match ended before it could be killed");
        assert!(started.elapsed() < Duration::from_secs(300), "no save of 4 games within 300 s");
        thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let at_kill = saved(&m);
    assert_eq!(at_kill["finished"], false);
    assert_eq!(at_kill["games_planned"], 24, "fastchess's dialect: 12 rounds of 2 games");
    assert_eq!(at_kill["subcommand"], "match");
    let saved_args: Vec<&str> = at_kill["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert!(!saved_args.contains(&"--config") && saved_args.contains(&"--autosaveinterval"), "{saved_args:?}");
    let saved_count = at_kill["games_played"].as_u64().unwrap();
    assert_eq!(saved_count % 4, 0, "saved at multiples of -autosaveinterval");
    assert!(journal_units(&journal).len() * 2 >= saved_count as usize, "the journal has every saved pair");
    assert!(journal_units(&journal).len() < 12, "killed in the middle");

    // The same command line again would replace the journal: refused, naming the way to resume.
    let out = run_in(&dir, "warn", &words(&line));
    let e = text(&out.stderr);
    assert!(!out.status.success(), "{e}");
    assert!(e.contains("holds an unfinished match") && e.contains("-config file="), "{e}");

    // A journal cut below the last save is refused rather than resumed short.
    let elsewhere = dir.join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let whole = fs::read(&journal).unwrap();
    let header = whole.iter().position(|&b| b == b'\n').unwrap() + 1;
    fs::write(&journal, &whole[..header]).unwrap();
    let resume = vec!["match".to_string(), "-config".into(), format!("file={}", m.display())];
    let out = run_in(&elsewhere, "warn", &resume);
    let e = text(&out.stderr);
    assert!(!out.status.success(), "{e}");
    assert!(e.contains(&format!("its last save counted {saved_count} games")) && e.contains("holds 0"), "{e}");
    fs::write(&journal, &whole).unwrap();

    // `-config file=m.json` alone, from another directory: the rest of the match, once.
    let out = run_in(&elsewhere, "warn", &resume);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("Resuming: ") && stdout.contains(" of 24 games already played"), "{stdout}");
    assert!(stdout.ends_with("Finished match\n"), "{stdout}");
    assert_eq!(games_in(&pgn), 24);
    assert_eq!(journal_units(&journal).len(), 12);
    assert_each_unit_once(&journal);
    let end = saved(&m);
    assert_eq!((end["finished"].as_bool(), end["games_played"].as_u64()), (Some(true), Some(24)));
    assert_eq!(end["args"], at_kill["args"], "the saved command line is kept");
    assert_eq!(end["stats"][0]["games"], 24);
    assert!(!elsewhere.join("games.pgn").exists(), "paths stay relative to where the match started");

    // discard=true: this command line, afresh, in place of the saved match.
    let fresh = line
        .replace("-rounds 12", "-rounds 1")
        .replace("games.pgn", "fresh.pgn")
        .replace("-config file=m.json", "-config file=m.json discard=true");
    let out = run_in(&dir, "warn", &words(&fresh));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let end = saved(&m);
    assert_eq!((end["finished"].as_bool(), end["games_played"].as_u64()), (Some(true), Some(2)));
    assert!(end["args"].as_array().unwrap().iter().any(|a| a == "fresh.pgn"), "{end}");
    assert_eq!(games_in(&dir.join("fresh.pgn")), 2);
    assert_eq!(games_in(&pgn), 24, "the earlier match's games are untouched");
    fs::remove_dir_all(&dir).unwrap();
}

/// Without -pgnout or -state the saved match keeps its journal beside the file; a file that is
/// not a saved match is neither read as one nor overwritten.
#[test]
fn config_without_outputs_journals_beside_the_file_and_leaves_foreign_files_alone() {
    let dir = scratch("fcstate", "journal");
    let line = format!(
        "match -engine cmd={UCI} name=a -engine cmd={UCI} name=b arg=--seed arg=5 -each depth=1 -rounds 2 -maxmoves 6 \
         -config outname=run.json -autosaveinterval 0"
    );
    let out = run_in(&dir, "warn", &words(&line));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(journal_units(&dir.join("run.json.state.jsonl")).len(), 2);
    let end = saved(&dir.join("run.json"));
    assert_eq!((end["finished"].as_bool(), end["games_played"].as_u64()), (Some(true), Some(4)));
    // A finished match's file may be reused by the same command line.
    assert!(run_in(&dir, "warn", &words(&line)).status.success());

    fs::write(dir.join("config.json"), "{\"engines\": []}").unwrap();
    let foreign = line.replace("outname=run.json", "file=config.json");
    let out = run_in(&dir, "warn", &words(&foreign));
    let e = text(&out.stderr);
    assert!(!out.status.success() && e.contains("not a match saved by `tuner` -config"), "{e}");
    assert!(e.contains("not overwritten"), "{e}");
    let out = run_in(&dir, "warn", &words("match -config file=config.json"));
    assert!(!out.status.success() && text(&out.stderr).contains("not a match saved by `tuner`"));
    assert_eq!(fs::read_to_string(dir.join("config.json")).unwrap(), "{\"engines\": []}");
    let out = run_in(&dir, "warn", &words("match -config file=missing.json"));
    let e = text(&out.stderr);
    assert!(!out.status.success() && e.contains("-config file=") && e.contains("missing.json"), "{e}");
    fs::remove_dir_all(&dir).unwrap();
}

/// `-show-latency`: a line per move with the measured and the reported time, and a summary per
/// engine. The slow engine sleeps 30 ms a move and reports `time 0`, so each of its latencies
/// is at least 30 ms.
#[test]
fn show_latency_logs_each_move_and_sums_up_each_engine() {
    let dir = scratch("fcstate", "latency");
    let line = format!(
        "match -engine cmd={UCI} name=slow arg=--slow-after arg=0 arg=--slow-ms arg=30 -engine cmd={UCI} name=quick \
         -each nodes=10 -games 2 -maxmoves 5"
    );
    let out = run_in(&dir, "info", &words(&(line.clone() + " -show-latency")));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    let latencies = |engine: &str| -> Vec<i64> {
        let marker = format!("engine {engine} latency: ");
        stderr
            .lines()
            .filter_map(|l| l.split_once(&marker))
            .map(|(_, rest)| {
                assert!(rest.contains("(elapsed: ") && rest.ends_with(", reported: 0)"), "{rest}");
                rest.split_once("ms").unwrap().0.parse().unwrap()
            })
            .collect()
    };
    let (slow, quick) = (latencies("slow"), latencies("quick"));
    assert!(!slow.is_empty() && !quick.is_empty(), "{stderr}");
    assert!(slow.iter().all(|&ms| ms >= 30), "{slow:?}");
    let summary = |engine: &str| {
        stdout.lines().find(|l| l.starts_with(&format!("Latency of {engine}: "))).unwrap_or_else(|| panic!("{stdout}"))
    };
    assert!(summary("slow").ends_with(&format!(" over {} moves", slow.len())), "{stdout}");
    assert!(summary("quick").ends_with(&format!(" over {} moves", quick.len())), "{stdout}");
    let min: i64 = summary("slow").split_once("min ").unwrap().1.split_once(" ms").unwrap().0.parse().unwrap();
    assert_eq!(min, *slow.iter().min().unwrap());
    // Without the option: neither.
    let out = run_in(&dir, "info", &words(&line));
    assert!(out.status.success());
    assert!(!text(&out.stderr).contains("latency: ") && !text(&out.stdout).contains("Latency of "));
    fs::remove_dir_all(&dir).unwrap();
}
