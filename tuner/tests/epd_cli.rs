//! `tuner epd` against the real engine process: bm/am solve counts, STS points, held-out suites.

mod common;

use common::{assert_fails_with, engine_binary, scratch, text, tuner_ok};

/// Mates in one, a position with a move to avoid, and an STS-style record.
const SUITE: &str = r#"
# mates in one
6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "mate.1";
r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - bm Ra1#; id "mate.2";
4k3/8/8/5p2/8/8/8/3QK3 w - - am Qg4; id "avoid.1";
"#;

const STS: &str = r#"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "sts.1"; c0 "Ra8#=10, Ra7=3, h3=1";"#;

#[test]
fn engine_process_solves_suites_and_scores_sts_points() {
    let dir = scratch("epd", "basic");
    let suite = dir.join("mates.epd");
    let sts = dir.join("sts.epd");
    std::fs::write(&suite, SUITE).unwrap();
    std::fs::write(&sts, STS).unwrap();
    let json = dir.join("out.json");
    let engine = engine_binary();
    let out = tuner_ok(&[
        "epd",
        "--engine",
        engine.to_str().unwrap(),
        "option.Hash=8",
        "--suite",
        suite.to_str().unwrap(),
        "--held",
        sts.to_str().unwrap(),
        "--nodes",
        "3000",
        "--concurrency",
        "2",
        "--json",
        json.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("evochess: mates.epd: solved 3/3"), "{stdout}");
    assert!(stdout.contains("evochess: sts.epd (held out): solved 1/1, 10/10 STS points"), "{stdout}");
    assert!(stdout.contains("evochess: solved 4/4"), "{stdout}");
    assert!(stdout.contains("mate.2") && stdout.contains("a8a1"), "{stdout}");
    let doc: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["positions"].as_array().unwrap().len(), 4);
    assert_eq!(doc["summary"][1]["held"], true);
}

#[test]
fn bad_input_names_what_was_wrong() {
    let dir = scratch("epd", "bad");
    let bad = dir.join("bad.epd");
    std::fs::write(&bad, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Qh5; id \"x\";\n").unwrap();
    let engine = engine_binary();
    let e = engine.to_str().unwrap();
    assert_fails_with(&["epd", "--engine", e, "--suite", bad.to_str().unwrap(), "--nodes", "100"], "Qh5");
    assert_fails_with(&["epd", "--engine", e, "--suite", "/no/such.epd", "--nodes", "100"], "/no/such.epd");
    assert_fails_with(&["epd", "--engine", e, "--suite", bad.to_str().unwrap()], "--movetime");
    let good = dir.join("good.epd");
    std::fs::write(&good, SUITE).unwrap();
    assert_fails_with(
        &["epd", "--engine", "/no/such/engine", "--suite", good.to_str().unwrap(), "--nodes", "9"],
        "/no/such/engine",
    );
}
