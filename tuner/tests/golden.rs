//! Golden outputs of the five evolution commands: a small seeded run of each, its result files
//! compared with the snapshot in `tests/data/golden/<command>.txt`. They pin the commands'
//! behaviour across refactorings (the GA core must give byte-identical results to the commands it
//! replaced). Wall times, dates and the scratch path are masked; everything else must match.
//!
//! The game-playing commands depend on the engine's play: an engine change that alters its moves
//! (a new bench signature) changes their games. Then regenerate with `UPDATE_GOLDEN=1 cargo test
//! -p tuner --test golden` and say so in the commit.

mod common;

use std::{
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
};

use common::{engine_binary, fixture, manifest, repo, scratch, tuner_ok};
use evochess::params::Params;

/// The files under `dir` (in the test's scratch directory `root`) that hold a finished run's
/// results, masked and in path order.
fn snapshot(root: &Path, dir: &Path) -> String {
    let mut files = Vec::new();
    collect(dir, &mut files);
    files.sort();
    let mut out = String::new();
    for path in files {
        let rel = path.strip_prefix(dir).unwrap().display().to_string();
        let Some(body) = masked(&path, root) else { continue };
        writeln!(out, "== {rel}").unwrap();
        out.push_str(&body);
        if !body.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// A result file's content with what legitimately varies masked; `None` for files that are not
/// results (checkpoints, journals, locks, caches, charts, configs written by the test).
fn masked(path: &Path, root: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let skip = name.starts_with('.')
        || name.starts_with("checkpoint")
        || name.starts_with("state")
        || name.contains("journal")
        || name.ends_with(".jsonl")
        || name.ends_with(".tmp")
        || name.ends_with(".cfg.toml")
        || matches!(ext, "svg" | "log" | "bin" | "cache" | "xz");
    if skip {
        return None;
    }
    let text = fs::read_to_string(path).ok()?;
    let text = text.replace(&root.display().to_string(), "<dir>").replace(&repo().display().to_string(), "<repo>");
    let body = match ext {
        "csv" => without_seconds(&text),
        "pgn" => games(&text),
        "json" => without_json_seconds(&text),
        _ => text,
    };
    // Large files (whole parameter files) by size and hash, so the snapshot stays readable.
    Some(if body.len() > 4096 { format!("{} bytes, fnv1a {:016x}\n", body.len(), fnv1a(&body)) } else { body })
}

/// FNV-1a, 64 bits: stable across Rust releases, unlike std's hashers.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A CSV without its wall-time columns (named `seconds` or ending in `_seconds`).
fn without_seconds(csv: &str) -> String {
    let mut lines = csv.lines();
    let Some(header) = lines.next() else { return String::new() };
    let cols: Vec<&str> = header.split(',').collect();
    let keep: Vec<bool> = cols.iter().map(|c| !(*c == "seconds" || c.ends_with("_seconds"))).collect();
    let row = |l: &str| -> String {
        l.split(',').zip(&keep).filter(|(_, k)| **k).map(|(c, _)| c).collect::<Vec<_>>().join(",") + "\n"
    };
    std::iter::once(header).chain(lines).map(row).collect()
}

/// JSON with numbers under keys that hold wall time replaced by 0.
fn without_json_seconds(text: &str) -> String {
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(text) else { return text.to_string() };
    fn walk(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k == "seconds" || k.ends_with("_seconds") || k == "elapsed" {
                        *x = serde_json::Value::from(0);
                    } else {
                        walk(x);
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut v);
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

/// One line per game: players, start, result and moves (clock comments and dates masked), sorted:
/// games played at once are written in the order they end.
fn games(pgn: &str) -> String {
    let mut out = String::new();
    let mut tags = Vec::new();
    let mut moves = String::new();
    // Comments span lines.
    let mut depth = 0;
    let flush = |tags: &mut Vec<String>, moves: &mut String, out: &mut String| {
        if !tags.is_empty() || !moves.trim().is_empty() {
            writeln!(out, "{} | {}", tags.join(" "), moves.split_whitespace().collect::<Vec<_>>().join(" ")).unwrap();
        }
        tags.clear();
        moves.clear();
    };
    for line in pgn.lines() {
        if let Some(tag) = line.strip_prefix('[') {
            if !moves.trim().is_empty() {
                flush(&mut tags, &mut moves, &mut out);
            }
            let key = tag.split_whitespace().next().unwrap_or("");
            if matches!(key, "White" | "Black" | "Result" | "FEN" | "Termination") {
                tags.push(line.to_string());
            }
        } else {
            for c in line.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ if depth == 0 => moves.push(c),
                    _ => {}
                }
            }
            moves.push(' ');
        }
    }
    flush(&mut tags, &mut moves, &mut out);
    let mut lines: Vec<&str> = out.lines().collect();
    lines.sort_unstable();
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// Compares with (or, under `UPDATE_GOLDEN=1`, writes) `tests/data/golden/<name>.txt`.
fn check(name: &str, got: &str) {
    let path = manifest().join(format!("tests/data/golden/{name}.txt"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, got).unwrap();
        return;
    }
    let want = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if got != want {
        let diff = want
            .lines()
            .zip(got.lines())
            .enumerate()
            .find(|(_, (w, g))| w != g)
            .map(|(i, (w, g))| format!("first difference at line {}:\n  golden: {w}\n  now:    {g}", i + 1))
            .unwrap_or_else(|| {
                format!("lengths differ: golden {} lines, now {}", want.lines().count(), got.lines().count())
            });
        panic!(
            "{name}: results differ from {}\n{diff}\n(if an engine change altered play on purpose, regenerate with \
             UPDATE_GOLDEN=1 cargo test -p tuner --test golden)",
            path.display()
        );
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn evolve_results_are_unchanged() {
    let dir = scratch("golden", "evolve");
    let space = dir.join("space.cfg.toml");
    fs::write(&space, include_str!("data/piece-space.toml")).unwrap();
    let cfg = dir.join("evolve.cfg.toml");
    fs::write(
        &cfg,
        format!(
            "space = {space:?}\nseed = 5\nout_dir = {:?}\nevolved_dir = {:?}\n[positions]\ntrain = 3\ntest = 2\n\
             [ga]\npopulation = 8\ngenerations = 4\n",
            dir.join("out"),
            dir.join("evolved")
        ),
    )
    .unwrap();
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    tuner_ok(&["evolve", "--pgn", s(&pgn), "--config", s(&cfg), "--runs", "2"]);
    check("evolve", &snapshot(&dir, &dir));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn coevolve_results_are_unchanged() {
    let dir = scratch("golden", "coevolve");
    let pop = dir.join("population");
    fs::create_dir_all(&pop).unwrap();
    for i in 0..3 {
        let mut p = Params::default();
        p.eval.knight_mg = 260 + 50 * i;
        p.eval.rook_mg = 600 - 40 * i;
        fs::write(pop.join(format!("run-{}.cfg.toml", i + 1)), p.to_toml()).unwrap();
    }
    let cfg = dir.join("coevolve.cfg.toml");
    fs::write(
        &cfg,
        format!(
            "population_dir = {pop:?}\nspace = {:?}\nengine = {:?}\nnodes = 300\ntc = \"60+1\"\nconcurrency = 2\n\
             openings = {:?}\nopenings_per_pair = 1\nmaxmoves = \"40\"\nresign = \"movecount=3 score=600\"\n\
             seed = 11\nout_dir = {:?}\n[ga]\ngenerations = 2\n",
            repo().join("configs/spaces/evolve-paper.toml"),
            engine_binary(),
            repo().join("openings/gnuchess-8ply.epd"),
            dir.join("out"),
        ),
    )
    .unwrap();
    tuner_ok(&["coevolve", "--config", s(&cfg)]);
    check("coevolve", &snapshot(&dir, &dir.join("out")));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn search_evolve_results_are_unchanged() {
    let dir = scratch("golden", "search-evolve");
    let mut p = Params::default();
    p.eval.knight_mg = 333;
    let eval = dir.join("eval.cfg.toml");
    fs::write(&eval, p.to_toml()).unwrap();
    let out = dir.join("out");
    let output = out.join("evolved.toml");
    let cfg = repo().join("configs/search-evolve/default.toml");
    let wac = fixture("wac.epd");
    let bk = fixture("bk.epd");
    tuner_ok(&[
        "search-evolve",
        "--config",
        s(&cfg),
        "--params",
        s(&eval),
        "--suite",
        s(&wac),
        "--held",
        s(&bk),
        "--max-positions",
        "8",
        "--node-cap",
        "2000",
        "--population",
        "4",
        "--generations",
        "2",
        "--seed",
        "9",
        "--out",
        s(&out),
        "--output",
        s(&output),
    ]);
    check("search-evolve", &snapshot(&dir, &out));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn quick_results_are_unchanged() {
    let dir = scratch("golden", "quick");
    let cfg = dir.join("quick.cfg.toml");
    fs::write(
        &cfg,
        format!(
            "engine = {:?}\nseed = 7\npopulation = 6\ngenerations = 2\nconcurrency = 2\nnodes = 300\nmax_moves = 25\n\
             out_dir = {:?}\n[dynamic_cap]\nfactor = 1.2\nmin = 10\nmax = 25\n[engine_options]\nHash = \"1\"\n",
            engine_binary(),
            dir.join("out"),
        ),
    )
    .unwrap();
    tuner_ok(&["quick", "--config", s(&cfg)]);
    check("quick", &snapshot(&dir, &dir.join("out")));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn roundrobin_ga_results_are_unchanged() {
    let dir = scratch("golden", "rrga");
    let cfg = dir.join("rrga.cfg.toml");
    fs::write(
        &cfg,
        format!(
            "engine = {:?}\nspace = {:?}\nseed = 3\npopulation = 4\ngenerations = 2\ndepth = 1\nmax_moves = 30\n\
             concurrency = 2\nout_dir = {:?}\n[engine_options]\nHash = \"1\"\n\
             [verify]\ngames = 4\nopenings = {:?}\nrandom_individual = 2\n",
            engine_binary(),
            repo().join("configs/spaces/roundrobin-ga-aksenov.toml"),
            dir.join("out"),
            repo().join("openings/gnuchess-8ply.epd"),
        ),
    )
    .unwrap();
    tuner_ok(&["roundrobin-ga", "--config", s(&cfg)]);
    check("roundrobin-ga", &snapshot(&dir, &dir.join("out")));
    fs::remove_dir_all(&dir).unwrap();
}
