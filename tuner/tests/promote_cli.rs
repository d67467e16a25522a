//! `tuner promote` end to end: real evochess processes at a node limit play the SPRT; a clearly
//! stronger candidate becomes the default (file, header and declarations), a clearly weaker one
//! leaves every file byte-identical, and bad input is refused before any game. Each test works
//! on a copy of the repository's default file and declarations in a scratch directory.

mod common;

use std::path::{Path, PathBuf};

use common::{engine_binary, repo, scratch, text, tuner};
use evochess::params::{
    Params,
    default_file::{self, DECLARATIONS, rewrite_declaration},
};

/// A repository-shaped tree under `dir` whose defaults are `params`: the default file (with a
/// header of `lineage`) and the declarations agree, as in the repository.
fn tree(dir: &Path, params: &Params, lineage: &str) -> PathBuf {
    for (section, rel) in DECLARATIONS {
        let source = std::fs::read_to_string(repo().join(rel)).unwrap();
        let text = match section {
            "eval" => rewrite_declaration(&source, &params.eval),
            _ => rewrite_declaration(&source, &params.search),
        }
        .unwrap();
        std::fs::create_dir_all(dir.join(rel).parent().unwrap()).unwrap();
        std::fs::write(dir.join(rel), text).unwrap();
    }
    let default = dir.join("params/default.toml");
    std::fs::create_dir_all(default.parent().unwrap()).unwrap();
    std::fs::write(&default, default_file::file_text(&default_file::header(&[lineage.into()]), params)).unwrap();
    default
}

/// The defaults with every piece at the bottom of its range: far weaker (the queen alone at
/// 400 is only about 130 Elo weaker at these nodes, too close for a quick SPRT).
fn weak() -> Params {
    let low = "[eval]\nknight_mg = 100\nknight_eg = 100\nbishop_mg = 100\nbishop_eg = 100\n\
               rook_mg = 200\nrook_eg = 200\nqueen_mg = 400\nqueen_eg = 400\n";
    Params::default().with_toml(low).unwrap()
}

fn snapshot(dir: &Path) -> Vec<Vec<u8>> {
    let mut files = vec![std::fs::read(dir.join("params/default.toml")).unwrap()];
    files.extend(DECLARATIONS.iter().map(|(_, rel)| std::fs::read(dir.join(rel)).unwrap()));
    files
}

/// `tuner promote` with node-limited games and a small cap, in `dir`.
fn promote(dir: &Path, candidate: &Path, default: &Path, extra: &[&str]) -> std::process::Output {
    let engine = engine_binary();
    let games = dir.join("games");
    let mut args = vec![
        "promote",
        "--candidate",
        candidate.to_str().unwrap(),
        "--default",
        default.to_str().unwrap(),
        "--engine",
        engine.to_str().unwrap(),
        "--nodes",
        "1500",
        "--concurrency",
        "2",
        "--games-dir",
        games.to_str().unwrap(),
    ];
    if !extra.contains(&"--max-games") {
        args.extend(["--max-games", "300"]);
    }
    args.extend_from_slice(extra);
    tuner(&args)
}

#[test]
fn a_clearly_stronger_candidate_is_promoted_with_its_lineage() {
    let dir = scratch("promote", "stronger");
    let default = tree(&dir, &weak(), "the weak pieces of this test");
    let candidate = dir.join("candidate.toml");
    std::fs::write(&candidate, Params::default().to_toml()).unwrap();
    let before = snapshot(&dir);

    // --dry-run plays and reports, and writes nothing.
    let out = promote(&dir, &candidate, &default, &["--dry-run", "--lineage", "a dry run"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("H1 accepted") && stdout.contains("nothing written"), "{stdout}");
    assert_eq!(snapshot(&dir), before, "--dry-run wrote nothing");

    std::fs::remove_dir_all(dir.join("games")).unwrap();
    let out = promote(&dir, &candidate, &default, &["--lineage", "by hand, for the test", "--lineage", "second line"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("the candidate is promoted"), "{stdout}");

    // The declarations now hold the candidate's values, which here are the repository's own.
    for (_, rel) in DECLARATIONS {
        let promoted = std::fs::read_to_string(dir.join(rel)).unwrap();
        assert!(promoted == std::fs::read_to_string(repo().join(rel)).unwrap(), "{rel} holds the candidate's values");
    }
    // The default file is the generated file under the new header.
    let file = std::fs::read_to_string(&default).unwrap();
    let (header, _) = default_file::split_header(&file);
    assert_eq!(file, default_file::file_text(header, &Params::default()), "the values are the candidate's");
    assert!(header.starts_with(default_file::PREAMBLE), "{header}");
    for needle in [
        "# Candidate: ",
        "# Lineage: by hand, for the test\n# Lineage: second line\n",
        "# Games: 1500 nodes a move, book openings/gnuchess-8ply.epd, seed 1, concurrency 2",
        "# SPRT normalized elo0=0 elo1=10 alpha=0.05 beta=0.05: LLR 2.9",
        "Ptnml(0-2) [",
        "; Elo ",
        "# Bench: ",
        "# Command: ",
        "# The default it replaced:\n#   the weak pieces of this test\n",
    ] {
        assert!(header.contains(needle), "header lacks `{needle}`:\n{header}");
    }
    // The bench signature quoted is the promoted values' own.
    let bench = std::process::Command::new(engine_binary()).args(["bench"]).output().unwrap();
    let nodes = text(&bench.stdout).lines().last().unwrap().split(' ').next().unwrap().to_string();
    assert!(header.contains(&format!("# Bench: {nodes} (these values)")), "{nodes}:\n{header}");
    // The SPRT's last line, as the command printed it, is the header's.
    let sprt = stdout.lines().find(|l| l.starts_with("SPRT normalized")).unwrap();
    assert!(header.contains(&format!("# {sprt}\n")), "{sprt}\n{header}");
    // W-L-D, as the `Score of` line above it (cutechess's W - L - D) counts them.
    let score = stdout.lines().find(|l| l.starts_with("Score of candidate vs default: ")).unwrap();
    let wld: Vec<&str> = score.split(": ").nth(1).unwrap().split_whitespace().collect();
    assert!(sprt.contains(&format!(": W {} L {} D {};", wld[0], wld[2], wld[4])), "{score}\n{sprt}");
}

#[test]
fn a_clearly_weaker_candidate_is_rejected_and_nothing_changes() {
    let dir = scratch("promote", "weaker");
    let default = tree(&dir, &Params::default(), "the repository's defaults");
    let candidate = dir.join("candidate.toml");
    // A queen and the rooks valued as minor pieces: H0 well inside the test's game cap.
    std::fs::write(&candidate, "[eval]\nqueen_mg = 400\nqueen_eg = 400\nrook_mg = 250\nrook_eg = 250\n").unwrap();
    let before = snapshot(&dir);
    let out = promote(&dir, &candidate, &default, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}\n{}", text(&out.stderr));
    assert!(stdout.contains("H0 accepted: the candidate is rejected") && stdout.contains("is untouched"), "{stdout}");
    assert_eq!(snapshot(&dir), before, "the default and the declarations are byte-identical");

    // --out does not change that: nothing is written on H0.
    std::fs::remove_dir_all(dir.join("games")).unwrap();
    let out_file = dir.join("promoted.toml");
    let out = promote(&dir, &candidate, &default, &["--out", out_file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(!out_file.exists());
}

#[test]
fn bad_input_is_named_before_any_game() {
    let dir = scratch("promote", "bad");
    let default = tree(&dir, &Params::default(), "defaults");
    let before = snapshot(&dir);
    let fails = |candidate_text: &str, extra: &[&str], needles: &[&str]| {
        let candidate = dir.join("candidate.toml");
        std::fs::write(&candidate, candidate_text).unwrap();
        let out = promote(&dir, &candidate, &default, extra);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        for n in needles {
            assert!(err.contains(n), "stderr lacks `{n}`: {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
        assert!(!dir.join("games/games.pgn").exists(), "no game was played");
    };
    fails("[eval]\nqueen_mgg = 900\n", &[], &["candidate.toml", "eval.queen_mgg"]);
    fails("[eval]\nqueen_mg = 99999\n", &[], &["candidate.toml", "eval.queen_mg", "out of range"]);
    // The default's own value: nothing differs.
    let same = format!("[eval]\nqueen_mg = {}\n", Params::default().eval.queen_mg);
    fails(&same, &[], &["candidate.toml", "nothing to test"]);
    fails("[eval]\nqueen_mg = 950\n", &["--max-games", "7"], &["--max-games 7"]);
    fails("[eval]\nqueen_mg = 950\n", &["--sprt", "elo0=5", "elo1=0"], &["elo0 (5) must be less than elo1 (0)"]);
    // Declarations that are not beside the default: found out before the games.
    let lone = dir.join("lone/params/default.toml");
    std::fs::create_dir_all(lone.parent().unwrap()).unwrap();
    std::fs::copy(&default, &lone).unwrap();
    let candidate = dir.join("candidate.toml");
    std::fs::write(&candidate, "[eval]\nqueen_mg = 950\n").unwrap();
    let out = promote(&dir, &candidate, &lone, &[]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("src/eval/params.rs") && err.contains("--out"), "{err}");
    assert_eq!(snapshot(&dir), before);
}
