//! One start policy for the five evolution commands, checked on the real binary: a second run
//! into the same output without `--resume` is refused, `--resume` with nothing to resume is
//! refused, a second tuner on a directory in use is refused by its lock, and `--force` starts over.

mod common;

use std::{
    fs::{self, File},
    path::{Path, PathBuf},
};

use common::{engine_binary, fixture, manifest, repo, scratch, tuner_err, tuner_ok};

/// Checks the policy for a command whose run into `out` is `args(out)`; `lock` is the file a
/// running tuner holds (relative to `out`).
fn check_policy(name: &str, args: impl Fn(&Path) -> Vec<String>, lock: &str) {
    let dir = scratch("policy", name);
    let out = dir.join("out");
    let run = |extra: &[&str], out: &Path| -> Vec<String> {
        let mut a = args(out);
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };

    // --resume with nothing there.
    let a = run(&["--resume"], &dir.join("empty"));
    let err = tuner_err(&refs(&a));
    assert!(err.contains("no run to resume") && !err.contains("panicked"), "{name}: {err}");

    // A run, then the same command again.
    let a = run(&[], &out);
    tuner_ok(&refs(&a));
    let err = tuner_err(&refs(&a));
    assert!(
        err.contains("already holds a run") && err.contains("--resume") && err.contains("--force"),
        "{name}: {err}"
    );

    // Another tuner holding the directory (the lock a running one takes).
    let held = File::options().read(true).write(true).create(true).truncate(false).open(out.join(lock)).unwrap();
    held.try_lock().unwrap();
    let a = run(&["--force"], &out);
    let err = tuner_err(&refs(&a));
    assert!(err.contains("another running tuner"), "{name}: {err}");
    drop(held);

    // --force starts over.
    tuner_ok(&refs(&a));
    fs::remove_dir_all(&dir).unwrap();
}

fn refs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

fn s(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

fn write(path: PathBuf, text: String) -> PathBuf {
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn evolve_follows_the_start_policy() {
    let dir = scratch("policy", "evolve-cfg");
    let space = write(dir.join("space.toml"), include_str!("data/piece-space.toml").into());
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    check_policy(
        "evolve",
        |out| {
            let cfg = write(
                dir.join("evolve.toml"),
                format!(
                    "space = {space:?}\nout_dir = {out:?}\n[positions]\ntrain = 3\ntest = 2\n[ga]\npopulation = 4\ngenerations = 2\n"
                ),
            );
            ["evolve", "--pgn", &s(&pgn), "--config", &s(&cfg)].map(String::from).to_vec()
        },
        "run-1/.tuner.lock",
    );
}

#[test]
fn search_evolve_follows_the_start_policy() {
    check_policy(
        "search-evolve",
        |out| {
            [
                "search-evolve",
                "--config",
                &s(&repo().join("configs/search-evolve/default.toml")),
                "--params",
                &s(&repo().join("params/default.toml")),
                "--suite",
                &s(&fixture("wac.epd")),
                "--held",
                &s(&fixture("bk.epd")),
                "--max-positions",
                "4",
                "--node-cap",
                "1000",
                "--population",
                "4",
                "--generations",
                "1",
                "--out",
                &s(out),
                "--output",
                &s(&out.join("evolved.toml")),
            ]
            .map(String::from)
            .to_vec()
        },
        ".tuner.lock",
    );
}

#[test]
fn coevolve_follows_the_start_policy() {
    let dir = scratch("policy", "coevolve-cfg");
    let pop = dir.join("population");
    fs::create_dir_all(&pop).unwrap();
    for i in 0..3 {
        let mut p = evochess::params::Params::default();
        p.eval.knight_mg = 260 + 50 * i;
        fs::write(pop.join(format!("run-{}.toml", i + 1)), p.to_toml()).unwrap();
    }
    check_policy(
        "coevolve",
        |out| {
            let cfg = write(
                dir.join("coevolve.toml"),
                format!(
                    "population_dir = {:?}\nspace = {:?}\nengine = {:?}\nnodes = 200\ntc = \"60+1\"\nconcurrency = 2\n\
                     maxmoves = \"20\"\nopenings = {:?}\nout_dir = {out:?}\n[ga]\ngenerations = 1\n",
                    pop,
                    repo().join("configs/spaces/evolve-paper.toml"),
                    engine_binary(),
                    repo().join("openings/gnuchess-8ply.epd"),
                ),
            );
            ["coevolve", "--config", &s(&cfg)].map(String::from).to_vec()
        },
        ".tuner.lock",
    );
}

#[test]
fn quick_follows_the_start_policy() {
    let dir = scratch("policy", "quick-cfg");
    check_policy(
        "quick",
        |out| {
            let cfg = write(
                dir.join("quick.toml"),
                format!(
                    "engine = {:?}\npopulation = 5\ngenerations = 1\nconcurrency = 2\nnodes = 200\nmax_moves = 15\n\
                     out_dir = {out:?}\n",
                    engine_binary()
                ),
            );
            ["quick", "--config", &s(&cfg)].map(String::from).to_vec()
        },
        ".tuner.lock",
    );
}

#[test]
fn roundrobin_ga_follows_the_start_policy() {
    let dir = scratch("policy", "rrga-cfg");
    check_policy(
        "roundrobin-ga",
        |out| {
            let cfg = write(
                dir.join("rrga.toml"),
                format!(
                    "engine = {:?}\nspace = {:?}\npopulation = 3\ngenerations = 1\ndepth = 1\nmax_moves = 15\n\
                     concurrency = 2\nout_dir = {out:?}\n[verify]\ngames = 0\n",
                    engine_binary(),
                    repo().join("configs/spaces/roundrobin-ga-aksenov.toml"),
                ),
            );
            ["roundrobin-ga", "--config", &s(&cfg)].map(String::from).to_vec()
        },
        ".tuner.lock",
    );
}
