//! Issue 48, items 3, 4, 5 and 7, through the real binaries: input files that are not regular
//! files (`/dev/zero`, a FIFO) are refused at once naming the file; an engine that refuses an
//! option stops `tuner match` before any game; a rerun appends to its PGN and a run that fails at
//! start cuts nothing; `--force` reads the new run's inputs before discarding the old run; errors
//! name the missing key, the file and the gene, and never print raw control bytes.

mod common;

use std::{
    io::Read,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use common::{TUNER, engine_binary, games_in, manifest, repo, scratch, text, tuner_err};

/// Long enough for a loaded machine to start the binary; a FIFO read blocks forever.
const LIMIT: Duration = Duration::from_secs(60);

/// Runs the tuner, failing the test if it has not ended within [`LIMIT`] (it hangs) or if it
/// succeeds; returns its stderr.
fn fails_in_time(args: &[&str]) -> String {
    let mut child = Command::new(TUNER)
        .args(args)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tuner starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > LIMIT {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?} still running after {LIMIT:?}");
        }
        thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(!status.success(), "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn fifo(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    assert!(Command::new("mkfifo").arg(&path).status().unwrap().success(), "mkfifo {}", path.display());
    path
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn inputs_that_are_not_regular_files_are_refused_at_once() {
    let dir = scratch("io", "not-files");
    let engine = format!("cmd={}", engine_binary().display());
    let book = repo().join("openings/gnuchess-8ply.epd");
    let games = manifest().join("tests/data/evolve_small.pgn");
    for bad in [PathBuf::from("/dev/zero"), fifo(&dir, "fifo")] {
        let b = s(&bad);
        let spsa = dir.join("spsa.toml");
        std::fs::write(
            &spsa,
            format!("params = {b:?}\nnodes = 100\nopenings = {book:?}\nout_dir = {:?}\n", dir.join("spsa")),
        )
        .unwrap();
        let texel = dir.join("texel.toml");
        // Paths in a texel config are relative to the config file: the repository's space by its full path.
        let space = repo().join("configs/spaces/evolve-paper.toml");
        std::fs::write(&texel, format!("pgn = [{b:?}]\nspace = {space:?}\nout_dir = {:?}\n", dir.join("texel")))
            .unwrap();
        let two = ["match", "-engine", "name=a", &engine, "-engine", "name=b", &engine, "-each", "nodes=10"];
        let openings = format!("file={b}");
        let cases: Vec<Vec<&str>> = vec![
            vec!["spsa", "--config", b],
            vec!["spsa", "--config", s(&spsa)],
            vec!["quick", "--config", b],
            vec!["texel", "--config", s(&texel)],
            vec!["evolve", "--pgn", b, "--out", s(&dir), "--generations", "1"],
            vec!["evolve", "--pgn", s(&games), "--space", b, "--out", s(&dir), "--generations", "1"],
            vec!["evolve", "--pgn", s(&games), "--config", b],
            vec!["search-evolve", "--config", b],
            vec!["coevolve", "--config", b],
            vec!["pipeline", b],
            [&two[..], &["-openings", &openings, "format=epd"]].concat(),
            [&two[..], &["-state", b, "-resume"]].concat(),
        ];
        for args in cases {
            let err = fails_in_time(&args);
            assert!(err.contains(b) && err.contains("not a regular file"), "{args:?}: {err}");
        }
    }
}

/// `tuner match` between two evochess processes, the first given `option`.
fn match_with_option(dir: &Path, option: &str) -> (bool, String) {
    let engine = format!("cmd={}", engine_binary().display());
    let pgn = dir.join("games.pgn");
    let out = Command::new(TUNER)
        .args(["match", "-engine", "name=tuned", &engine, option, "-engine", "name=base", &engine])
        .args(["-each", "nodes=50", "-games", "2", "-maxmoves", "10", "-srand", "1", "-pgnout", s(&pgn)])
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    (out.status.success(), text(&out.stderr))
}

#[test]
fn an_option_the_engine_refuses_stops_the_match_before_any_game() {
    let dir = scratch("io", "options");
    for (option, value) in [("ParamsFile", "/nonexistent.toml"), ("Hash", "999999")] {
        let (ok, err) = match_with_option(&dir, &format!("option.{option}={value}"));
        assert!(!ok, "option.{option}={value} was accepted: {err}");
        assert!(err.contains("`tuned`") && err.contains(option) && err.contains(value), "{err}");
        assert_eq!(games_in(&dir.join("games.pgn")), 0, "{err}");
    }
    // An option the engine does not declare.
    let (ok, err) = match_with_option(&dir, "option.NoSuchOption=1");
    assert!(!ok && err.contains("NoSuchOption"), "{err}");
    // The check passes what the engine accepts.
    let (ok, err) = match_with_option(&dir, "option.Hash=8");
    assert!(ok, "{err}");
    assert_eq!(games_in(&dir.join("games.pgn")), 2);
}

/// A 2-game match of evochess against itself into `pgn`, plus `extra` arguments.
fn small_match(pgn: &Path, extra: &[&str]) -> std::process::Output {
    let engine = format!("cmd={}", engine_binary().display());
    Command::new(TUNER)
        .args(["match", "-engine", "name=a", &engine, "-engine", "name=b", &engine, "-each", "nodes=50", "-games", "2"])
        .args(["-maxmoves", "10", "-srand", "5", "-pgnout", s(pgn)])
        .args(extra)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

#[test]
fn a_rerun_appends_to_its_pgn_and_a_failed_start_cuts_nothing() {
    let dir = scratch("io", "append");
    let pgn = dir.join("games.pgn");
    let journal = dir.join("games.pgn.state.jsonl");
    let ok = |out: std::process::Output| assert!(out.status.success(), "{}", text(&out.stderr));
    ok(small_match(&pgn, &[]));
    assert_eq!(games_in(&pgn), 2);
    // Run again without -resume: the earlier games stay (cutechess and fastchess append).
    ok(small_match(&pgn, &[]));
    assert_eq!(games_in(&pgn), 4);
    // append=false (fastchess's key) asks for a fresh file.
    ok(small_match(&pgn, &["-pgnout", &format!("file={}", s(&pgn)), "append=false"]));
    assert_eq!(games_in(&pgn), 2);

    // A results file that cannot be written fails the start before the PGN or journal is cut.
    let (pgn_before, journal_before) = (std::fs::read(&pgn).unwrap(), std::fs::read(&journal).unwrap());
    for results in ["/proc/evochess-results.json", "/nonexistent-dir/r.json"] {
        let out = small_match(&pgn, &["-pgnout", &format!("file={}", s(&pgn)), "append=false", "-results", results]);
        assert!(!out.status.success() && text(&out.stderr).contains(results), "{}", text(&out.stderr));
        assert_eq!(std::fs::read(&pgn).unwrap(), pgn_before, "{results}: the PGN was cut");
        assert_eq!(std::fs::read(&journal).unwrap(), journal_before, "{results}: the journal was cut");
    }
}

#[test]
fn the_same_match_run_again_without_resume_keeps_its_unfinished_journal() {
    let dir = scratch("io", "unfinished");
    let pgn = dir.join("games.pgn");
    let journal = dir.join("games.pgn.state.jsonl");
    let four = ["-rounds", "2"];
    let out = small_match(&pgn, &four);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&pgn), 4);
    // As a kill leaves it: the last unit not journaled (its games stay in the PGN until a resume
    // cuts them back to the journal's length).
    let lines: Vec<String> = std::fs::read_to_string(&journal).unwrap().lines().map(String::from).collect();
    assert!(lines.len() >= 3, "a header and at least two units: {lines:?}");
    std::fs::write(&journal, lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    let (pgn_before, journal_before) = (std::fs::read(&pgn).unwrap(), std::fs::read(&journal).unwrap());

    // The same command without -resume: refused, nothing cut.
    let out = small_match(&pgn, &four);
    let err = text(&out.stderr);
    assert!(!out.status.success() && err.contains("unfinished") && err.contains("-resume"), "{err}");
    assert!(err.contains(s(&journal)), "{err}");
    assert_eq!(std::fs::read(&pgn).unwrap(), pgn_before, "the PGN was touched");
    assert_eq!(std::fs::read(&journal).unwrap(), journal_before, "the journal was touched");

    // -resume finishes it: four games, the last unit played once.
    let out = small_match(&pgn, &[&four[..], &["-resume"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&pgn), 4);
    // Another match at the same path (other settings) starts afresh, as cutechess does.
    let out = small_match(&pgn, &["-rounds", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(games_in(&pgn), 10);
}

#[test]
fn force_reads_the_new_runs_inputs_before_discarding_the_old_run() {
    let dir = scratch("io", "force");
    // evolve: a run with a checkpoint, then --force with PGN input that cannot be read.
    let checkpoint = dir.join("evolve/run-1/checkpoint.json");
    std::fs::create_dir_all(checkpoint.parent().unwrap()).unwrap();
    std::fs::write(&checkpoint, "{}").unwrap();
    let out = dir.join("evolve");
    let err = tuner_err(&["evolve", "--pgn", "/nonexistent.pgn", "--out", s(&out), "--force", "--generations", "1"]);
    assert!(err.contains("/nonexistent.pgn"), "{err}");
    assert!(checkpoint.exists(), "--force discarded the run before its input failed");

    // coevolve: a checkpoint, then --force with a population directory of one file.
    let co = dir.join("coevolve");
    std::fs::create_dir_all(co.join("pop")).unwrap();
    std::fs::write(co.join("checkpoint.json"), "{}").unwrap();
    std::fs::write(co.join("pop/a.toml"), "[eval]\n").unwrap();
    let cfg = co.join("coevolve.toml");
    std::fs::write(&cfg, format!("population_dir = {:?}\nout_dir = {:?}\n", co.join("pop"), co)).unwrap();
    let err = tuner_err(&["coevolve", "--config", s(&cfg), "--force"]);
    assert!(err.contains("population_dir"), "{err}");
    assert!(co.join("checkpoint.json").exists(), "--force discarded the run before its config failed");
}

#[test]
fn errors_name_keys_and_files_and_never_print_control_bytes() {
    let dir = scratch("io", "messages");
    // spsa without `params`.
    let cfg = dir.join("spsa.toml");
    std::fs::write(&cfg, "nodes = 100\n").unwrap();
    let err = tuner_err(&["spsa", "--config", s(&cfg)]);
    assert!(err.contains("missing key `params`"), "{err}");

    // A space whose gene has min > max: the file and the gene.
    let space = dir.join("bad-space.toml");
    std::fs::write(&space, "encoding = \"integer\"\n[[gene]]\nname = \"knight_mg\"\nmin = 500\nmax = 400\n").unwrap();
    let cfg = dir.join("coevolve.toml");
    std::fs::write(&cfg, format!("space = {space:?}\nout_dir = {:?}\n", dir.join("co"))).unwrap();
    let err = tuner_err(&["coevolve", "--config", s(&cfg)]);
    assert!(err.contains("bad-space.toml") && err.contains("knight_mg"), "{err}");

    // NUL and ESC bytes in a config and a parameter file come back escaped, if at all.
    let raw = dir.join("raw.toml");
    std::fs::write(&raw, "\u{1b}[2J\u{0} = 1\n[\u{1b}]\n").unwrap();
    let engine_err = Command::new(engine_binary()).args(["--params", s(&raw), "params", "--dump"]).output().unwrap();
    for (what, bytes) in [
        ("tuner spsa", tuner_err(&["spsa", "--config", s(&raw)]).into_bytes()),
        ("tuner quick", tuner_err(&["quick", "--config", s(&raw)]).into_bytes()),
        ("evochess --params", engine_err.stderr),
    ] {
        assert!(!bytes.is_empty(), "{what}: no error");
        assert!(!bytes.contains(&0x1b) && !bytes.contains(&0), "{what}: raw bytes in {:?}", text(&bytes));
    }
}

#[test]
fn a_newline_in_a_parameter_files_key_never_starts_a_line_of_its_own() {
    let dir = scratch("io", "newline-keys");
    // Escaped in TOML, real newlines and a carriage return once read.
    let params = dir.join("params.toml");
    std::fs::write(&params, "\"eval.x\\nforged line\" = 1\n").unwrap();
    let params_key = dir.join("params-key.toml");
    std::fs::write(&params_key, "[eval]\n\"x\\r\\nforged line\" = 1\n").unwrap();
    let space = dir.join("space.toml");
    std::fs::write(&space, "encoding = \"integer\"\nhold = [\"eval.x\\nforged line\"]\n").unwrap();
    let cfg = dir.join("coevolve.toml");
    std::fs::write(&cfg, format!("space = {space:?}\nout_dir = {:?}\n", dir.join("co"))).unwrap();
    let engine = |file: &Path| {
        let out = Command::new(engine_binary()).args(["--params", s(file), "params", "--dump"]).output().unwrap();
        assert!(!out.status.success());
        text(&out.stderr)
    };
    let out = dir.join("datagen");
    for (what, err) in [
        ("evochess --params (section)", engine(&params)),
        ("evochess --params (key)", engine(&params_key)),
        ("tuner datagen --params", tuner_err(&["datagen", "--games", "1", "--out", s(&out), "--params", s(&params)])),
        ("tuner coevolve space", tuner_err(&["coevolve", "--config", s(&cfg)])),
    ] {
        // Before: the key's newline broke the message, `forged line` starting a line of its own.
        assert!(err.contains("\\nforged line"), "{what}: {err}");
        assert!(!err.lines().any(|l| l.starts_with("forged line")), "{what}: {err}");
    }
}
