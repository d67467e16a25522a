//! `tuner pipeline` end to end at toy scale: evolve x2 -> coevolve -> search-evolve ->
//! verification, and the report with every section of the paper's §V.

mod common;

use std::process::Command;

use common::{TUNER, engine_binary, fixture, manifest, repo, scratch};
use evochess::params::Params;

/// Runs `tuner pipeline CFG` from the repository with the built engine, warnings only.
fn pipeline(cfg: &std::path::Path) -> std::process::Output {
    Command::new(TUNER)
        .args(["pipeline", cfg.to_str().unwrap(), "--engine", engine_binary().to_str().unwrap()])
        .current_dir(repo())
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

#[test]
fn toy_pipeline_runs_every_stage_and_renders_the_report() {
    let dir = scratch("pipeline", "toy");
    let wac = fixture("wac.epd");
    let cfg = dir.join("pipeline.toml");
    std::fs::write(
        &cfg,
        format!(
            r#"out_dir = {out:?}
concurrency = 2
pgn = [{pgn:?}]
[evolve]
config = {evolve_cfg:?}
runs = 2
[evolve.positions]
train = 3
test = 2
[evolve.ga]
population = 6
generations = 2
[coevolve]
config = {coevolve_cfg:?}
nodes = 300
tc = "60+1"
openings_per_pair = 1
maxmoves = "60"
[coevolve.ga]
generations = 2
[search_evolve]
config = {search_evolve_cfg:?}
suites = [{wac:?}]
held = [{wac:?}]
max_positions = 4
node_cap = 1500
[search_evolve.ga]
population = 4
generations = 2
[verify]
suites = [{wac:?}]
epd_max_positions = 3
epd_nodes = 1000
games = 2
nodes = 300
maxmoves = "60"
opponents = [{{ name = "ghost", cmd = "/no/such/engine" }}]
"#,
            out = dir.join("out"),
            pgn = manifest().join("tests/data/evolve_small.pgn"),
            evolve_cfg = repo().join("configs/evolve/default.toml"),
            coevolve_cfg = repo().join("configs/coevolve/paper.toml"),
            search_evolve_cfg = repo().join("configs/search-evolve/default.toml"),
        ),
    )
    .unwrap();
    let out = pipeline(&cfg);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let o = dir.join("out");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let star = std::path::absolute(o.join("params/evol-star.toml")).unwrap();
    assert!(stdout.contains(&format!("evochess --params {}", star.display())), "{stdout}");
    for f in [
        "evolved/run-1.toml",
        "evolved/run-2.toml",
        "params/coevolved.toml",
        "params/evol-star.toml",
        "params/evol0.toml",
    ] {
        Params::load(o.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    // EVOL0 = the best evolve-only evaluation with EVOL*'s search section.
    let (star, zero) =
        (Params::load(o.join("params/evol-star.toml")).unwrap(), Params::load(o.join("params/evol0.toml")).unwrap());
    assert_eq!(star.search, zero.search);
    let report = std::fs::read_to_string(o.join("report.md")).unwrap();
    for needle in [
        "## V-A. Evolution from grandmaster games (Fig. 2)",
        "## Evolved evaluation parameters (Fig. 3)",
        "| knight_value |",
        "## V-B. Coevolution",
        "## V-C. Evolution of search parameters (Fig. 4)",
        "### Learned search values (Table II)",
        "| futility_margin_3 |",
        "## Suite solve counts (Tables III and VII)",
        "| EVOL* |",
        "| EVOL0 |",
        "## Matches (Tables IV–VI)",
        "| EVOL* - EVOL0 |",
        "| EVOL* - default |",
        "Skipped: ghost",
    ] {
        assert!(report.contains(needle), "report lacks `{needle}`:\n{report}");
    }
    // One row per evolve run, from the runs' results: training and test counts with shares.
    let row = report.lines().find(|l| l.starts_with("| 1 | ")).unwrap_or_default();
    assert_eq!(row.matches("%)").count(), 2, "evolve run 1's row: {row}\n{report}");
    for svg in ["fig2-evolution-run1.svg", "coevolution.svg", "fig4-search-nodes.svg"] {
        assert!(std::fs::read_to_string(o.join(svg)).unwrap().contains("<svg"), "{svg}");
        assert!(report.contains(&format!("]({svg})")), "{svg} not linked");
    }
    // Each match's two games are in its PGN.
    assert_eq!(
        std::fs::read_to_string(o.join("matches/evol-star-vs-evol0.pgn")).unwrap().matches("[Event ").count(),
        2
    );
}

/// A bad value in a late stage stops the pipeline before the first stage does any work: a
/// clock that does not parse, an optimiser coevolve cannot run, or the evolution strategy's
/// config (tuner coevolve's default) where the pipeline runs the paper's round robin.
#[test]
fn a_bad_later_stage_fails_before_evolution_starts() {
    let cases = [
        ("clock", "paper", "tc = \"5+x\"\n", "`5+x`"),
        ("optimiser", "paper", "[coevolve.ga]\noptimiser = \"spsa\"\n", "GA or CMA-ES"),
        ("es", "default", "", "method = \"es\", but the pipeline coevolves"),
    ];
    for (name, coevolve_config, coevolve, expected) in cases {
        let dir = scratch("pipeline", &format!("bad-late-stage-{name}"));
        let cfg = dir.join("pipeline.toml");
        std::fs::write(
            &cfg,
            format!(
                "out_dir = {out:?}\npgn = [{pgn:?}]\n[evolve]\nconfig = {evolve_cfg:?}\n\
                 [coevolve]\nconfig = {coevolve_cfg:?}\n{coevolve}[verify]\nopponents = []\n",
                out = dir.join("out"),
                pgn = manifest().join("tests/data/evolve_small.pgn"),
                evolve_cfg = repo().join("configs/evolve/default.toml"),
                coevolve_cfg = repo().join(format!("configs/coevolve/{coevolve_config}.toml")),
            ),
        )
        .unwrap();
        let out = pipeline(&cfg);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(stderr.contains("[coevolve]") && stderr.contains(expected), "{name}: {stderr}");
        assert!(!dir.join("out/evolve").exists(), "{name}: no evolve run was started");
    }
}
