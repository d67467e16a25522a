//! Issue 91, item 7: the tuner from another directory. Each test runs the real binaries from an
//! empty temporary directory, named by absolute path, with nothing from the repository there:
//! every shipped config is found by path and by name, a bare `cmd=evochess` finds the engine
//! beside the tuner, the pipeline's built-in config finds its book and its data, `promote`
//! finds a default without `--default`, and texel's `pgn` is found in `$EVOCHESS_DATA`.

mod common;

use std::{
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    thread,
    time::{Duration, Instant},
};

use common::{TUNER, engine_binary, fixture, repo, text};

/// `tuner` and `evochess` side by side in `<tmp>/bin` (hard links, or copies), and an empty
/// working directory `<tmp>/work`, outside any checkout.
fn bare_install(name: &str) -> (PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("evochess-anywhere-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (bin, work) = (root.join("bin"), root.join("work"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    for (from, to) in [(PathBuf::from(TUNER), bin.join("tuner")), (engine_binary(), bin.join("evochess"))] {
        if std::fs::hard_link(&from, &to).is_err() {
            std::fs::copy(&from, &to).unwrap();
        }
    }
    (bin.join("tuner"), work)
}

/// A PATH without this build's binaries: a bare name must be found beside the tuner, not here.
const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Runs `tuner args` in `work` with `env`, killing it after `limit` (`None` then: it was still
/// running); its output otherwise.
fn run_in(tuner: &Path, work: &Path, args: &[&str], env: &[(&str, &Path)], limit: Duration) -> Option<Output> {
    let mut cmd = Command::new(tuner);
    cmd.args(args).current_dir(work).env("PATH", PATH).env("RUST_LOG", "warn");
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("tuner starts");
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        thread::sleep(Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

/// The shipped configs of each command: `(command, name)`, read from the repository's configs/.
fn shipped_configs() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(repo().join("configs")).unwrap().flatten() {
        let command = dir.file_name().to_string_lossy().into_owned();
        if !dir.path().is_dir() || command == "spaces" {
            continue;
        }
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".toml") {
                out.push((command.clone(), stem.to_string()));
            }
        }
    }
    out.sort();
    out
}

/// Arguments that make `tuner <command> --config C` stop at its first input once the config is
/// read: an engine or a games file that does not exist, named `/nonexistent/...`.
fn failing_input(command: &str) -> &'static [&'static str] {
    match command {
        "evolve" => &["--pgn", "/nonexistent/games.pgn"],
        "texel" => &["--pgn", "/nonexistent/games.pgn"],
        "search-evolve" => &["--params", "/nonexistent/params.toml"],
        _ => &["--engine", "/nonexistent/evochess"],
    }
}

#[test]
fn every_shipped_config_is_found_by_path_and_by_name_from_an_empty_directory() {
    let (tuner, work) = bare_install("configs");
    let configs = shipped_configs();
    assert!(configs.len() > 40, "{configs:?}");
    let mut failures = Vec::new();
    for (command, name) in &configs {
        let path = format!("configs/{command}/{name}.toml");
        for given in [path.as_str(), name.as_str()] {
            let mut args = vec![command.as_str()];
            if command == "pipeline" {
                args.push(given);
            } else {
                args.extend(["--config", given]);
            }
            args.extend(failing_input(command));
            let Some(out) = run_in(&tuner, &work, &args, &[], Duration::from_secs(60)) else {
                failures.push(format!("{args:?}: still running after 60 s"));
                continue;
            };
            let stderr = text(&out.stderr);
            // Read, then stopped by the missing input, or by a file of the repository the config
            // names (a parameter file, the comparison's SPSA lines); never by the config itself.
            let next = ["/nonexistent/", "file params/", "compare-out/"].iter().any(|n| stderr.contains(n));
            let read = !out.status.success()
                && next
                && !stderr.contains("no shipped config")
                && !stderr.contains(&format!("{path}: No such file"))
                && !stderr.contains("panicked");
            if !read {
                failures.push(format!("{args:?}: {stderr}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} failed:\n{}", failures.len(), 2 * configs.len(), failures.join("\n"));
    // A name that is no shipped config says which are.
    let out = run_in(&tuner, &work, &["quick", "--config", "anchord"], &[], Duration::from_secs(60)).unwrap();
    let stderr = text(&out.stderr);
    assert!(!out.status.success() && stderr.contains("shipped: anchored, default"), "{stderr}");
}

/// Starts `tuner args` in `work` with `env`, its log (info) in `work/<args[0]>.log`, until the
/// log shows `needle` (then it is killed) or it exits; the log, and whether it exited with success.
/// Fails the test when neither comes within `limit`.
fn run_until(
    tuner: &Path,
    work: &Path,
    args: &[&str],
    env: &[(&str, &Path)],
    needle: &str,
    limit: Duration,
) -> (String, bool) {
    let log = work.join(format!("{}.log", args[0]));
    let mut cmd = Command::new(tuner);
    cmd.args(args).current_dir(work).env("PATH", PATH).env("RUST_LOG", "info");
    cmd.stdout(Stdio::null()).stderr(std::fs::File::create(&log).unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("tuner starts");
    let started = Instant::now();
    loop {
        let logged = std::fs::read_to_string(&log).unwrap_or_default();
        if let Some(status) = child.try_wait().unwrap() {
            return (std::fs::read_to_string(&log).unwrap(), status.success());
        }
        if logged.contains(needle) {
            let _ = child.kill();
            let _ = child.wait();
            return (logged, true);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("tuner {args:?}: no `{needle}` within {limit:?}:\n{logged}");
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// A data set as `$EVOCHESS_DATA` holds it, with the shipped configs' files made from the
/// repository's fixtures: `games/gm2600_{classical,fast}.pgn.xz` (the GM sample, xz-packed),
/// `tests/wac.epd`, `tests/bk.epd`.
fn small_data_set(root: &Path) -> PathBuf {
    let data = root.join("data");
    std::fs::create_dir_all(data.join("games")).unwrap();
    std::fs::create_dir_all(data.join("tests")).unwrap();
    for name in ["gm2600_classical", "gm2600_fast"] {
        std::fs::copy(fixture("gm-sample.pgn.xz"), data.join(format!("games/{name}.pgn.xz"))).unwrap();
    }
    for suite in ["wac.epd", "bk.epd"] {
        std::fs::copy(fixture(suite), data.join("tests").join(suite)).unwrap();
    }
    data
}

#[test]
fn a_bare_engine_name_finds_the_engine_beside_the_tuner() {
    let (tuner, work) = bare_install("engine");
    let args = ["match", "-engine", "cmd=evochess", "name=a", "-engine", "cmd=evochess", "name=b"];
    let mut args = args.to_vec();
    args.extend(["-each", "nodes=200", "-games", "2", "-maxmoves", "20"]);
    let out = run_in(&tuner, &work, &args, &[], Duration::from_secs(120)).expect("two short games end");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Score of a vs b"), "{}", text(&out.stdout));
    let suite = fixture("wac.epd");
    let args = ["epd", "--engine", "evochess", "--suite", suite.to_str().unwrap(), "--nodes", "200"];
    let out = run_in(&tuner, &work, &args, &[], Duration::from_secs(120)).expect("the suite ends");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("evochess"), "{}", text(&out.stdout));
    // A name that is nowhere is reported with both places it was looked for.
    let args = ["epd", "--engine", "no-such-engine", "--suite", suite.to_str().unwrap(), "--nodes", "200"];
    let out = run_in(&tuner, &work, &args, &[], Duration::from_secs(60)).unwrap();
    let beside = tuner.with_file_name("no-such-engine");
    let stderr = text(&out.stderr);
    assert!(stderr.contains(&format!("not found in PATH or at {}", beside.display())), "{stderr}");
}

#[test]
fn the_pipelines_built_in_config_finds_its_book_and_its_data() {
    let (tuner, work) = bare_install("pipeline");
    let data = small_data_set(work.parent().unwrap());
    // Its checks passed (book, engine, stages' configs and spaces, all built in), it reads the
    // games the config names as ../shared/data/... from $EVOCHESS_DATA.
    let (log, _) = run_until(
        &tuner,
        &work,
        &["pipeline", "smoke"],
        &[("EVOCHESS_DATA", &data)],
        "positions:",
        Duration::from_secs(120),
    );
    assert!(log.contains(" games ("), "{log}");
    assert!(work.join("runs/pipeline/smoke/evolve.toml").is_file(), "{log}");
}

#[test]
fn texel_reads_its_pgn_from_evochess_data() {
    let (tuner, work) = bare_install("texel");
    let data = small_data_set(work.parent().unwrap());
    let args = ["texel", "--config", "default", "--generations", "1"];
    let (log, ok) =
        run_until(&tuner, &work, &args, &[("EVOCHESS_DATA", &data)], "positions:", Duration::from_secs(120));
    assert!(ok && log.contains(" games ("), "{log}");
}

#[test]
fn promote_finds_a_default_without_default() {
    let candidate = repo().join("params/hand-set.toml");
    let candidate = candidate.to_str().unwrap();
    let args = ["promote", "--candidate", candidate, "--nodes", "100", "--max-games", "2", "--dry-run"];
    // The tuner of a checkout: that checkout's default file.
    let work = common::scratch("anywhere", "promote-checkout");
    let out = run_in(Path::new(TUNER), &work, &args, &[], Duration::from_secs(120)).expect("two games end");
    let stderr = text(&out.stderr);
    let default = Path::new(TUNER).ancestors().nth(3).unwrap().join("params/default.toml");
    assert!(stderr.contains(&format!("the current default is {}", default.display())), "{stderr}");
    assert_eq!(out.status.code(), Some(4), "no decision in two games: {stderr}");
    // A tuner outside any checkout: the defaults built into it, which can be tested...
    let (tuner, work) = bare_install("promote");
    let out = run_in(&tuner, &work, &args, &[], Duration::from_secs(120)).expect("two games end");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("the one built into this tuner"), "{stderr}");
    assert_eq!(out.status.code(), Some(4), "no decision in two games: {stderr}");
    assert!(text(&out.stdout).contains("the built-in default is untouched"), "{}", text(&out.stdout));
    // ...but not replaced: refused before the first game.
    let work = work.with_file_name("work-replace");
    std::fs::create_dir_all(&work).unwrap();
    let out = run_in(&tuner, &work, &args[..args.len() - 1], &[], Duration::from_secs(60)).unwrap();
    let stderr = text(&out.stderr);
    assert!(!out.status.success() && stderr.contains("give --default"), "{stderr}");
    assert!(!work.join("runs").exists(), "nothing played or written");
}
