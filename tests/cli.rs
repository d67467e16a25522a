//! The command-line tools, run as a user would.

mod common;

use std::time::Duration;

use common::run_bin;
use evochess::{
    Params,
    params::{DEFAULT_TOML, PARAMS_FORMAT},
};

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
    // The dump is params/default.toml's values, each key with its doc and range above it.
    let dump = stdout_of(&["params", "--dump"]);
    assert!(dump.starts_with(&format!("format = {PARAMS_FORMAT}\n")), "{dump}");
    assert_eq!(dump, Params::default().to_toml());
    let values: String = dump.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
    assert!(DEFAULT_TOML.ends_with(&values), "{values}");
    // One comment a key (and one on the format line).
    assert_eq!(dump.lines().filter(|l| l.starts_with("# ")).count(), Params::count() + 1);
    // Without a flag: the subcommand's help (its two choices), not an error.
    let out = run_bin(&["params"], "", TIMEOUT);
    assert_eq!(out.status.code(), Some(2), "params needs --spsa or --dump");
    let help = String::from_utf8_lossy(&out.stderr);
    assert!(help.contains("Usage:") && help.contains("--spsa") && help.contains("--dump"), "{help}");
    assert!(!help.contains("error"), "{help}");
}

/// `params --spsa --only`: a group of parameters by name patterns, bounded in size, with the
/// steps of the value rule, over the values `--params` loaded.
#[test]
fn params_spsa_only_selects_a_bounded_group() {
    let file = common::temp_file("spsa-only.toml", "[eval]\nknight_mg = 400\n");
    let text =
        stdout_of(&["--params", file.to_str().unwrap(), "params", "--spsa", "--only", "knight_mg,pst_rook_rank_8_*"]);
    assert_eq!(
        text,
        // The rook terms keep the defaults (whatever the last promotion made them).
        format!(
            "knight_mg, int, 400, 100, 2000, 20.00, 0.002\n\
             pst_rook_rank_8_mg, int, {}, -150, 150, 3.00, 0.002\n\
             pst_rook_rank_8_eg, int, {}, -150, 150, 3.00, 0.002\n",
            Params::default().eval.pst_rook_rank_8_mg,
            Params::default().eval.pst_rook_rank_8_eg
        )
    );
    let refused = |args: &[&str], needle: &str| {
        let out = run_bin(args, "", TIMEOUT);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(needle) && !err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    };
    refused(&["params", "--spsa", "--only", "eval.*"], "parameters, more than 150: fishtest and OpenBench tune");
    // The whole search section (issue 89's SPSA yardstick) fits under the default maximum.
    let search = Params::specs().filter(|s| s.section == "search").count();
    assert!(search > 90, "{search}");
    assert_eq!(stdout_of(&["params", "--spsa", "--only", "search.*"]).lines().count(), search);
    refused(&["params", "--spsa", "--only", "pst_queen_*", "--max-params", "10"], "more than 10");
    refused(&["params", "--spsa", "--only", "knight_mg,qeen_mg"], "no parameter matches `qeen_mg`");
    assert_eq!(stdout_of(&["params", "--spsa", "--only", "pst_queen_*", "--max-params", "24"]).lines().count(), 24);
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

#[test]
fn epd_suite_reports_solved_positions() {
    let suite = common::temp_file(
        "mates.epd",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate.1\";\n\
         # a comment line\n\
         r3k3/1P6/8/8/8/8/8/4K3 w - - bm bxa8=Q+; id \"promo\";\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - am Ra8#; id \"avoid\";\n",
    );
    let text = stdout_of(&["epd", suite.to_str().unwrap(), "--depth", "4"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("mate.1: a1a8 solved"), "{text}");
    assert!(lines[1].starts_with("promo: b7a8q solved"), "{text}");
    assert!(lines[2].starts_with("avoid: a1a8 FAILED"), "{text}");
    assert_eq!(lines[3], "solved 2/3 positions");

    // A node budget instead of a clock: the same tree whatever the machine's load, so two runs
    // report the same moves and node counts, and no position searches far past the budget.
    let by_nodes = |text: &str| -> Vec<(String, u64)> {
        text.lines()
            .filter(|l| l.contains(" nodes, "))
            .map(|l| {
                let (head, rest) = l.split_once(" (").unwrap();
                (head.to_string(), rest.split(' ').next().unwrap().parse().unwrap())
            })
            .collect()
    };
    let first = stdout_of(&["epd", suite.to_str().unwrap(), "--nodes", "20000"]);
    let second = stdout_of(&["epd", suite.to_str().unwrap(), "--nodes", "20000"]);
    let searched = by_nodes(&first);
    assert_eq!(searched, by_nodes(&second), "{first}\n{second}");
    assert_eq!(searched.len(), 3, "{first}");
    assert!(searched.iter().all(|(_, n)| *n <= 20000 + 4096), "{first}");
    assert!(first.ends_with("solved 2/3 positions\n"), "{first}");
    let both = run_bin(&["epd", suite.to_str().unwrap(), "--nodes", "100", "--depth", "3"], "", TIMEOUT);
    assert!(!both.status.success(), "--nodes with --depth must be refused");

    let bad =
        common::temp_file("bad.epd", "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;\n8/8/8/8/8/8/8/K1k5 w - - bm Qh5;\n");
    let out = run_bin(&["epd", bad.to_str().unwrap()], "", TIMEOUT);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2") && err.contains("Qh5"), "{err}");
}

#[test]
fn bench_oneply_reports_speed() {
    let text = stdout_of(&["bench-oneply", "--millis", "50"]);
    let last = text.lines().last().unwrap_or("");
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 8, "`{last}`");
    assert!(words[0].parse::<f64>().unwrap() > 0.0, "`{last}`");
    assert_eq!((words[1], words[3], words[4], words[7]), ("positions/s", "evals/s", "(1-ply)", "(raw)"));
}

/// `evochess params --spsa | head -1`: output to a pipe nobody reads is not a panic, and errors
/// print their cause chain once, without a backtrace, even with RUST_BACKTRACE set.
#[test]
fn closed_stdout_and_errors_end_quietly() {
    for args in [&["params", "--spsa"][..], &["params", "--dump"], &["perft", "2"], &["bench", "1"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader); // every write now fails with EPIPE
        let out = std::process::Command::new(common::BIN)
            .args(args)
            .env("RUST_BACKTRACE", "1")
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && stderr.is_empty(), "{args:?}: {:?} {stderr}", out.status);
    }
    let out = std::process::Command::new(common::BIN)
        .args(["epd", "/no/such/suite.epd"])
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stderr.trim_end(), "error: cannot read /no/such/suite.epd: No such file or directory (os error 2)");
}

/// `/dev/zero` would fill memory and a FIFO would block forever: both are refused at once.
#[test]
fn epd_refuses_what_is_not_a_regular_file() {
    let fifo = common::temp_file("fifo-marker", "").with_file_name("suite.fifo");
    let _ = std::fs::remove_file(&fifo);
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    for path in ["/dev/zero", fifo.to_str().unwrap()] {
        let out = run_bin(&["epd", path], "", TIMEOUT);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{path}: {stderr}");
        assert!(stderr.contains(path) && stderr.contains("not a regular file"), "{stderr}");
    }
    std::fs::remove_file(&fifo).unwrap();
}

/// OpenBench builds an engine with `make EXE=name` in the repository.
#[test]
#[ignore = "needs make; a release build takes minutes"]
fn make_exe_builds_the_engine() {
    // The target directory this test was built in (CARGO_TARGET_TMPDIR is `<target>/tmp`), so
    // the release build is shared with other runs.
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let exe = tmp.join("evochess-openbench");
    let _ = std::fs::remove_file(&exe);
    let status = std::process::Command::new("make")
        .arg(format!("EXE={}", exe.display()))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", tmp.parent().unwrap())
        .status()
        .expect("make runs (Debian package make)");
    assert!(status.success());
    let out = std::process::Command::new(&exe).arg("bench").arg("2").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.lines().last().is_some_and(|l| l.ends_with(" nps")), "{text}");
}
