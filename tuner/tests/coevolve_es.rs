//! `tuner coevolve`'s default method, the evolution strategy (issue 89), as a user runs it:
//! real `evochess` processes at a node limit, files on disk, kill -9 and `--resume`.

mod common;

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
    process::Command,
    time::Duration,
};

use common::{kill_9_when, manifest, repo, scratch, text, tuner_ok};
use evochess::params::Params;

/// The flags of a tiny run: 4 candidates (2 mirrored pairs) a generation, 2 generations, one
/// gate of at most 20 games, the built-in book of 200 openings with 10 held back.
fn tiny(generations: usize, nodes: u64) -> Vec<String> {
    let book = manifest().join("../openings/gnuchess-8ply.epd");
    [
        "--openings",
        book.to_str().unwrap(),
        "--nodes",
        &nodes.to_string(),
        "--generations",
        &generations.to_string(),
        "--concurrency",
        "2",
        "--set",
        "es.pairs=2",
        "--set",
        "gate.count=1",
        "--set",
        "gate.max_games=20",
        "--set",
        "confirmation_openings=10",
    ]
    .iter()
    .map(|s| (*s).to_string())
    .collect()
}

fn run_in(dir: &Path, args: &[String]) -> String {
    let out = Command::new(common::TUNER)
        .arg("coevolve")
        .args(args)
        .current_dir(dir)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}{stdout}", text(&out.stderr));
    stdout
}

/// A parameter file's values, its comments left out.
fn values(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines().filter(|l| !l.starts_with('#')).collect::<Vec<_>>().join("\n")
}

/// Every game of the run's PGNs as (start FEN, White's values, Black's values): the player's
/// file is found from its name (`g<G>c<I>` a candidate, `g<G>-mean` a gate's mean, else a
/// champion).
fn games(out: &Path) -> Vec<(String, String, String)> {
    let file_of = |name: &str| -> PathBuf {
        if let Some(g) = name.strip_suffix("-mean").and_then(|g| g.strip_prefix('g')) {
            return out.join(format!("gen-{:03}/mean.toml", g.parse::<usize>().unwrap()));
        }
        match name.strip_prefix('g').and_then(|r| r.split_once('c')) {
            Some((g, _)) => out.join(format!("gen-{:03}/{name}.toml", g.parse::<usize>().unwrap())),
            None => out.join(format!("champions/{name}.toml")),
        }
    };
    let mut all = Vec::new();
    let mut dirs: Vec<PathBuf> =
        std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for dir in dirs {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "pgn") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let mut tags: BTreeMap<String, String> = BTreeMap::new();
            for line in text.lines().chain(["[Event \"end\"]"]) {
                if line.starts_with("[Event ") && !tags.is_empty() {
                    let tag = |k: &str| tags.get(k).cloned().unwrap_or_default();
                    all.push((tag("FEN"), values(&file_of(&tag("White"))), values(&file_of(&tag("Black")))));
                    tags.clear();
                }
                if let Some((key, value)) = line.strip_prefix('[').and_then(|l| l.split_once(" \"")) {
                    tags.insert(key.to_string(), value.trim_end_matches("\"]").to_string());
                }
            }
        }
    }
    all
}

/// Issue 89, acceptance 5: from an empty directory with no config, the run starts at the
/// engine's defaults (params/default.toml's values), says so in its plan line, lists its
/// outputs, and plays no game twice: no (opening, colours, players, budget) repeats.
#[test]
fn without_a_config_it_starts_at_the_defaults_and_never_repeats_a_game() {
    let dir = scratch("coevolve-es", "empty");
    let stdout = run_in(&dir, &tiny(2, 300));
    let plan = stdout.lines().next().unwrap();
    assert!(plan.starts_with("coevolve (evolution strategy): 63 genes"), "{plan}");
    assert!(plan.contains("from the engine's defaults (params/default.toml)") && plan.contains("300 nodes"), "{plan}");
    assert!(plan.contains("2 generations, 1 gate") && plan.contains("up to 52 games"), "{plan}");
    let out = dir.join("runs/coevolve");
    let start = Params::load(out.join("champions/start.toml")).unwrap();
    assert!(start == Params::load(repo().join("params/default.toml")).unwrap(), "the start is params/default.toml");
    let listed: Vec<&str> = stdout.lines().skip_while(|l| *l != "output files:").skip(1).map(str::trim).collect();
    for file in ["champion.toml", "mean.toml", "generations.csv", "checkpoint.json", "champions/start.toml"] {
        let path = Path::new("runs/coevolve").join(file);
        assert!(listed.contains(&path.to_str().unwrap()), "{file} not listed: {stdout}");
    }
    assert!(listed.iter().any(|l| l.contains("gen-000 ... gen-001 (2 generation directories")), "{stdout}");
    assert!(stdout.contains("start=1 --srand 1 --games 20"), "the confirmation slice: {stdout}");

    let games = games(&out);
    // 2 generations of 4 candidates: 8 games in round 1 and 8 in round 2, then the gate.
    let csv = std::fs::read_to_string(out.join("generations.csv")).unwrap();
    let gate_games: usize = csv.lines().nth(2).unwrap().split(',').nth(14).unwrap().parse().unwrap();
    assert_eq!(games.len(), 32 + gate_games, "{csv}");
    let distinct: BTreeSet<_> = games.iter().collect();
    assert_eq!(distinct.len(), games.len(), "a game was played twice");
    // Every opening of racing and gate is a fresh one, never one held for confirmation.
    let openings: BTreeSet<&String> = games.iter().map(|g| &g.0).collect();
    assert_eq!(openings.len(), 2 * 3 + gate_games / 2, "{openings:?}");
}

/// Issue 89, acceptance 5: a gated run whose candidates are all far worse than the start
/// returns the start file value for value.
#[test]
fn far_worse_candidates_leave_the_start_as_the_champion() {
    let dir = scratch("coevolve-es", "far-worse");
    // Steps of 5 c_end with c_end half each range: every candidate sits at the ends.
    let genes = dir.join("genes.txt");
    std::fs::write(
        &genes,
        "null_move_reduction, int, 3, 0, 7, 3.5, 0.002\nlmr_base, int, 75, 0, 300, 150, 0.002\n\
         futility_margin_1, int, 112, 0, 1023, 500, 0.002\nrfp_margin, int, 75, 20, 300, 140, 0.002\n",
    )
    .unwrap();
    let start = repo().join("params/default.toml");
    let mut args = tiny(2, 1000);
    for s in ["es.c_m=1.0", "es.sigma=5.0", "es.sigma_max=5.0", "groups=[]", "gate.max_games=40"] {
        args.extend(["--set".to_string(), s.to_string()]);
    }
    args.extend(["--set".into(), format!("genes={:?}", genes.display().to_string())]);
    args.extend(["--start".into(), start.display().to_string()]);
    let stdout = run_in(&dir, &args);
    assert!(stdout.contains("champion: start ->"), "{stdout}");
    let champion = Params::load(dir.join("runs/coevolve/champion.toml")).unwrap();
    assert!(champion == Params::load(&start).unwrap(), "the output is not the start value for value");
    let mean = Params::load(dir.join("runs/coevolve/mean.toml")).unwrap();
    assert!(mean != champion, "the mean moved (the gate had something to refuse)");
}

/// Issue 89, acceptance 5: killed with SIGKILL in its second generation and resumed, a run ends
/// as the uninterrupted run does (node-limited games are deterministic), file for file.
#[test]
fn kill_9_then_resume_ends_as_the_uninterrupted_run() {
    let whole = scratch("coevolve-es", "whole");
    run_in(&whole, &tiny(2, 300));
    let dir = scratch("coevolve-es", "killed");
    let out = dir.join("out");
    let mut args: Vec<String> = vec!["coevolve".into()];
    args.extend(tiny(2, 300));
    args.extend(["--out".into(), out.display().to_string()]);
    let journal = out.join("gen-001/race-01.state.jsonl");
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    kill_9_when(&refs, Duration::from_secs(120), "a game pair of generation 1", || {
        std::fs::read_to_string(&journal).is_ok_and(|t| t.lines().count() >= 1)
    });
    assert!(!out.join("champion.toml").exists(), "killed after the end");
    let mut resume = refs.clone();
    resume.push("--resume");
    tuner_ok(&resume);
    let a = whole.join("runs/coevolve");
    for file in ["champion.toml", "mean.toml", "gen-000/mean.toml", "generations.csv"] {
        let (x, y) = (std::fs::read_to_string(a.join(file)).unwrap(), std::fs::read_to_string(out.join(file)).unwrap());
        // Everything but the seconds each generation took.
        let strip =
            |t: &str| t.lines().map(|l| l.rsplit_once(',').map_or(l, |(head, _)| head).to_string()).collect::<Vec<_>>();
        assert_eq!(strip(&x), strip(&y), "{file} differs from the uninterrupted run's");
    }
}

/// `gate.nodes`: the gate plays at its own node limit, the race at the run's.
#[test]
fn the_gate_plays_at_its_own_node_budget() {
    let dir = scratch("coevolve-es", "gate-nodes");
    // c_m = 1: the mean moves a whole step, so the gate after generation 1 is played (a mean
    // that rounds to the champion's values is skipped).
    let mut args = tiny(2, 300);
    for s in ["gate.nodes=700", "es.c_m=1.0"] {
        args.extend(["--set".to_string(), s.to_string()]);
    }
    let stdout = run_in(&dir, &args);
    let plan = stdout.lines().next().unwrap();
    assert!(plan.contains("1 gate at 700 nodes (SPRT alpha"), "{plan}");
    let gen_dir = dir.join("runs/coevolve/gen-001");
    let header = |file: &str| {
        let text = std::fs::read_to_string(gen_dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        text.lines().next().unwrap().to_string()
    };
    let (race, gate) = (header("race-01.state.jsonl"), header("gate.state.jsonl"));
    assert_eq!(race.matches("\\\"nodes\\\":300").count(), 5, "{race}");
    assert_eq!(gate.matches("\\\"nodes\\\":700").count(), 2, "{gate}");
    assert!(!gate.contains("\\\"nodes\\\":300"), "{gate}");
}
