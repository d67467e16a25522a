//! The command-line tools, run as a user would.

mod common;

use std::time::Duration;

use common::run_bin;
use evochess::{Params, params::DEFAULT_TOML};

const TIMEOUT: Duration = Duration::from_secs(120);

fn stdout_of(args: &[&str]) -> String {
    let out = run_bin(args, "", TIMEOUT);
    assert!(out.status.success(), "evochess {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn perft_startpos_depth_3() {
    let text = stdout_of(&["perft", "3"]);
    assert_eq!(text.lines().last(), Some("Nodes searched: 8902"), "{text}");
    let divide: Vec<&str> = text.lines().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).collect();
    assert_eq!(divide.len(), 20);
    assert!(divide.contains(&"e2e4: 600"), "{divide:?}");
    let sum: u64 = divide.iter().map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 8902);
}

#[test]
fn perft_from_fen() {
    // "Kiwipete": castling, en passant and promotions at depth 2 (2039 nodes).
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let text = stdout_of(&["perft", "2", fen]);
    assert_eq!(text.lines().last(), Some("Nodes searched: 2039"));
    assert!(text.contains("e1g1: "), "castling printed as e1g1: {text}");
    // The FEN may also come as separate words.
    let words: Vec<&str> = fen.split(' ').collect();
    let mut args = vec!["perft", "2"];
    args.extend(&words);
    assert_eq!(stdout_of(&args).lines().last(), Some("Nodes searched: 2039"));
}

#[test]
fn perft_with_bad_fen_fails_cleanly() {
    let out = run_bin(&["perft", "2", "not", "a", "fen"], "", TIMEOUT);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a fen"));
    let out = run_bin(&["perft", "two"], "", TIMEOUT);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn params_spsa_and_dump() {
    let text = stdout_of(&["params", "--spsa"]);
    assert_eq!(text.lines().count(), Params::count());
    for (line, spec) in text.lines().zip(Params::specs()) {
        assert!(
            line.starts_with(&format!("{}, int, {}, {}, {}, ", spec.name, spec.default, spec.min, spec.max)),
            "{line}"
        );
    }
    assert_eq!(stdout_of(&["params", "--dump"]), DEFAULT_TOML);
    let out = run_bin(&["params"], "", TIMEOUT);
    assert_eq!(out.status.code(), Some(2), "params needs --spsa or --dump");
}

#[test]
fn bench_prints_openbench_line() {
    let text = stdout_of(&["bench", "3"]);
    let last = text.lines().last().unwrap_or("");
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 4, "`{last}`");
    assert!(words[0].parse::<u64>().unwrap() > 0, "`{last}`");
    assert_eq!(words[1], "nodes");
    assert!(!words[2].is_empty() && words[2].bytes().all(|b| b.is_ascii_digit()), "`{last}`");
    assert_eq!(words[3], "nps");
    // The node count is the bench signature: the same twice.
    let again = stdout_of(&["bench", "3"]);
    assert_eq!(again.lines().last().unwrap().split(' ').next(), Some(words[0]));
}

#[test]
fn no_subcommand_speaks_uci() {
    let out = run_bin(&[], "uci\nisready\nquit\n", TIMEOUT);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l == "uciok"), "{text}");
    assert!(text.lines().any(|l| l == "readyok"), "{text}");
}

#[test]
fn help_describes_the_subcommands() {
    let text = stdout_of(&["--help"]);
    for word in ["perft", "params", "bench", "--params"] {
        assert!(text.contains(word), "`{word}` missing from --help:\n{text}");
    }
}
