//! `tuner search-evolve` as a user runs it: Table I evolved on a few WAC positions in-process.

mod common;

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

use common::{TUNER, fixture, manifest, scratch, text};
use evochess::params::Params;

/// A small run: 12 WAC positions, 8 held-out BK positions, 3000-node cap, 4 organisms.
fn args(dir: &Path, eval: &Path, generations: usize, extra: &[&str]) -> Output {
    args_with(&manifest().join("../configs/search-evolve/default.toml"), dir, eval, generations, extra)
}

/// [`args`] with the config file `cfg`.
fn args_with(cfg: &Path, dir: &Path, eval: &Path, generations: usize, extra: &[&str]) -> Output {
    let gens = generations.to_string();
    let mut a = vec![
        "search-evolve",
        "--params",
        eval.to_str().unwrap(),
        "--suite",
        fixture("wac.epd").to_str().unwrap().to_owned().leak(),
        "--held",
        fixture("bk.epd").to_str().unwrap().to_owned().leak(),
        "--max-positions",
        "12",
        "--node-cap",
        "3000",
        "--population",
        "4",
        "--generations",
        gens.as_str(),
        "--out",
        dir.join("out").to_str().unwrap().to_owned().leak(),
        "--output",
        dir.join("evolved.toml").to_str().unwrap().to_owned().leak(),
    ];
    a.extend_from_slice(extra);
    let space = manifest().join("../configs/spaces/search-evolve-paper.toml");
    // Run from another directory: the config names its space relative to itself.
    Command::new(TUNER)
        .args(&a)
        .args(["--config", cfg.to_str().unwrap()])
        .current_dir(space.parent().unwrap().parent().unwrap())
        .env("RUST_LOG", "warn")
        .output()
        .expect("tuner runs")
}

fn eval_file(dir: &Path) -> PathBuf {
    let mut p = Params::default();
    p.eval.knight_mg = 333;
    let path = dir.join("eval.toml");
    std::fs::write(&path, p.to_toml()).unwrap();
    path
}

#[test]
fn search_evolution_lowers_node_counts_and_keeps_the_evaluation() {
    let dir = scratch("search-evolve", "basic");
    let eval = eval_file(&dir);
    let out = args(&dir, &eval, 3, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("initial random best") && stdout.contains("params/default.toml search"), "{stdout}");
    assert!(stdout.contains("best parameters: /") && stdout.contains("evochess --params /"), "{stdout}");
    let evolved = Params::load(dir.join("evolved.toml")).unwrap();
    assert_eq!(evolved.eval, Params::load(&eval).unwrap().eval, "evaluation stays fixed");
    let csv = std::fs::read_to_string(dir.join("out/generations.csv")).unwrap();
    assert!(csv.starts_with("generation,best_nodes,mean_nodes,test_nodes_of_best"), "{csv}");
    let best: Vec<u64> = csv.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(best.len(), 3);
    assert!(best.windows(2).all(|w| w[1] <= w[0]), "elitism keeps the lowest count: {best:?}");
    assert!(best.iter().all(|&b| b > 0 && b <= 12 * 3000), "{best:?}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/summary.json")).unwrap()).unwrap();
    assert_eq!(summary["final_best"][0]["nodes"].as_u64(), best.last().copied());
    assert_eq!(summary["final_best"][1]["positions"], 24);
    assert_eq!(summary["values"].as_array().unwrap().len(), 18);
    assert!(std::fs::read_to_string(dir.join("out/nodes.svg")).unwrap().contains("<svg"));
}

#[test]
fn resumed_run_ends_where_an_uninterrupted_one_does() {
    let dir = scratch("search-evolve", "resume");
    let eval = eval_file(&dir);
    let straight = scratch("search-evolve", "straight");
    let reference = args(&straight, &eval, 3, &[]);
    assert!(reference.status.success(), "{}", text(&reference.stderr));
    // Two generations, then extended to three from the checkpoint.
    let first = args(&dir, &eval, 2, &[]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let refused = args(&dir, &eval, 3, &[]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("--resume"), "{}", text(&refused.stderr));
    let resumed = args(&dir, &eval, 3, &["--resume"]);
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    let strip = |p: PathBuf| {
        std::fs::read_to_string(p).unwrap().replace(straight.to_str().unwrap(), "").replace(dir.to_str().unwrap(), "")
    };
    assert_eq!(strip(dir.join("evolved.toml")), strip(straight.join("evolved.toml")));
    // A different seed is a different experiment: resuming it is refused.
    let other = args(&dir, &eval, 4, &["--resume", "--seed", "7"]);
    assert!(!other.status.success());
    assert!(text(&other.stderr).contains("different config"), "{}", text(&other.stderr));
}

/// `[optimiser] kind = "local"` runs the same command with the coordinate local search (which suits
/// Table I's Gray code): the incumbent and one gene a step up and down a generation, so the best
/// node count never rises, and the evaluation stays fixed.
#[test]
fn the_local_search_lowers_node_counts_through_the_same_command() {
    let dir = scratch("search-evolve", "local");
    let eval = eval_file(&dir);
    let space = manifest().join("../configs/spaces/search-evolve-paper.toml");
    let cfg = dir.join("local.toml");
    std::fs::write(&cfg, format!("space = {space:?}\n[optimiser]\nkind = \"local\"\nstep = 0.25\n")).unwrap();
    let out = args_with(&cfg, &dir, &eval, 4, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let evolved = Params::load(dir.join("evolved.toml")).unwrap();
    assert_eq!(evolved.eval, Params::load(&eval).unwrap().eval, "evaluation stays fixed");
    let csv = std::fs::read_to_string(dir.join("out/generations.csv")).unwrap();
    let best: Vec<u64> = csv.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(best.len(), 4, "{csv}");
    assert!(best.windows(2).all(|w| w[1] <= w[0]), "the incumbent is asked every generation: {best:?}");
    let checkpoint: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/checkpoint.json")).unwrap()).unwrap();
    assert_eq!(checkpoint["population"].as_array().unwrap().len(), 3, "{checkpoint}");
    assert_eq!(checkpoint["coordinate"], 3, "one gene a generation: {checkpoint}");
}
