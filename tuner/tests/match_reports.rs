//! What cutechess and fastchess users look for in `tuner match` (issue 91 item 10): the SPRT
//! line's model, reports of tiny or one-sided samples without NaN, a warning naming an engine
//! that ignores `go nodes`, the timeouts in the help, and `-recover`. Played by the fake engine
//! (`src/bin/fake-engine.rs`), whose flags mimic the misbehaving engines.

mod common;

use std::fs;

use common::{repo, scratch, text, tuner};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

/// Runs `tuner` with `line` (split on spaces) in `dir`, expecting success: (stdout, stderr).
fn run_ok(line: &str) -> (String, String) {
    let args: Vec<&str> = line.split_whitespace().collect();
    let out = tuner(&args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{line}\n{stdout}\n{stderr}");
    assert!(stdout.trim_end().ends_with("Finished match"), "{stdout}");
    (stdout, stderr)
}

fn book() -> String {
    repo().join("openings/gnuchess-8ply.epd").display().to_string()
}

/// Every SPRT line names what its bounds are in: cutechess's syntax, fastchess's, and an
/// explicit `model=`, in both output formats.
#[test]
fn sprt_lines_name_the_model_and_the_bounds() {
    let base = format!(
        "match -engine name=a cmd={FAKE} arg=--seed arg=1 -engine name=b cmd={FAKE} arg=--seed arg=2 -each depth=1 \
         -games 2 -rounds 3 -maxmoves 12 -srand 1 -openings file={} -sprt elo0=0 elo1=5",
        book()
    );
    let last = |stdout: &str, prefix: &str| -> String {
        let found = stdout.lines().rev().find(|l| l.starts_with(prefix));
        found.unwrap_or_else(|| panic!("no `{prefix}` line: {stdout}")).to_string()
    };
    let (stdout, _) = run_ok(&base);
    let line = last(&stdout, "SPRT: llr ");
    assert!(line.ends_with("lbound -2.94, ubound 2.94 [0, 5] BayesElo (cutechess)"), "{line}");
    for (model, unit) in [("normalized", "normalized Elo"), ("logistic", "logistic Elo"), ("bayesian", "BayesElo")] {
        let (stdout, _) = run_ok(&format!("{base} model={model}"));
        let line = last(&stdout, "SPRT: llr ");
        assert!(line.ends_with(&format!("lbound -2.94, ubound 2.94 [0, 5] {unit}")), "{line}");
        let (stdout, _) = run_ok(&format!("{base} model={model} -output format=fastchess"));
        let line = last(&stdout, "LLR: ");
        assert!(line.ends_with(&format!("(-2.94, 2.94) [0.00, 5.00] {unit}")), "{line}");
    }
}

/// Whether `text` has the word NaN, in any case.
fn has_nan(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric()).any(|w| w.eq_ignore_ascii_case("nan"))
}

/// One game, two games, games all won: the reports say +inf with no margin, never NaN.
#[test]
fn tiny_and_one_sided_matches_print_no_nan() {
    // b plays an illegal move at its first turn: a wins every game.
    let engines =
        format!("-engine name=a cmd={FAKE} -engine name=b cmd={FAKE} arg=--illegal-after arg=0 -each depth=1");
    for (games, extra) in [
        (1, "-games 1 -rounds 1"),
        (2, "-games 2 -rounds 1"),
        (2, "-games 2 -rounds 1 -output format=fastchess"),
        (4, "-games 2 -rounds 2 -ratinginterval 2 -sprt elo0=0 elo1=5 model=normalized"),
    ] {
        let (stdout, stderr) = run_ok(&format!("match {engines} {extra}"));
        assert!(!has_nan(&stdout), "{extra}: {stdout}");
        assert!(!has_nan(&stderr), "{extra}: {stderr}");
        if extra.contains("fastchess") {
            assert!(stdout.contains(&format!("Games: {games}, Wins: {games}, Losses: 0, Draws: 0")), "{stdout}");
            assert!(stdout.contains("Elo: +inf (every game won), nElo: +inf (every game won)"), "{stdout}");
        } else {
            assert!(stdout.contains(&format!("Score of a vs b: {games} - 0 - 0")), "{extra}: {stdout}");
            assert!(stdout.contains("Elo difference: +inf (every game won), LOS: "), "{extra}: {stdout}");
        }
        // The ranking table: +inf with no margin, and -inf for the side that lost everything.
        let row = |name: &str| -> Vec<String> {
            let found = stdout.lines().find(|l| l.split_whitespace().nth(1) == Some(name) && l.contains('%'));
            found
                .unwrap_or_else(|| panic!("no row for {name}: {stdout}"))
                .split_whitespace()
                .map(String::from)
                .collect()
        };
        assert_eq!(row("a")[2..4], ["+inf", "-"], "{stdout}");
        assert_eq!(row("b")[2..4], ["-inf", "-"], "{stdout}");
    }
}

/// The `warning:` lines of stderr that name `engine`.
fn warnings_about<'a>(stderr: &'a str, engine: &str) -> Vec<&'a str> {
    stderr.lines().filter(|l| l.starts_with(&format!("warning: {engine} "))).collect()
}

/// An engine that searches `go nodes` until stopped (toga2): each game it plays is lost as
/// stalled after -stalltimeout, and one warning says which engine, which limit and why.
#[test]
fn an_engine_ignoring_go_nodes_is_named_once_and_loses_as_stalled() {
    let (stdout, stderr) = run_ok(&format!(
        "match -engine name=toga cmd={FAKE} arg=--ignore-nodes -engine name=good cmd={FAKE} -each nodes=1000 \
         -games 2 -rounds 2 -stalltimeout 0.3 -openings file={} -srand 1",
        book()
    ));
    let warned = warnings_about(&stderr, "toga");
    assert_eq!(warned.len(), 1, "one warning for four games: {stderr}");
    assert!(
        warned[0].starts_with(
            "warning: toga does not obey `go nodes 1000`: no bestmove within 0.3 s (-stalltimeout), so it lost the game \
             as stalled (game 1;"
        ),
        "{}",
        warned[0]
    );
    assert!(warnings_about(&stderr, "good").is_empty(), "{stderr}");
    let finished: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Finished game ")).collect();
    assert_eq!(finished.len(), 4, "{stdout}");
    for l in &finished {
        assert!(l.ends_with("'s connection stalls (no bestmove)}"), "the loss says why: {l}");
    }
    assert!(stdout.contains("Score of toga vs good: 0 - 4 - 0"), "{stdout}");
    assert!(stdout.contains("Terminations: stalled connection 4"), "{stdout}");
    assert!(stdout.contains("toga: 0.0/4 points, 4 forfeits"), "{stdout}");
}

/// An engine answering `go nodes` with `bestmove (none)` (Glaurung) and one claiming far more
/// nodes than asked: each named once, with the limit and what it did.
#[test]
fn null_moves_and_node_overshoots_are_named() {
    let (stdout, stderr) = run_ok(&format!(
        "roundrobin -engine name=glaurung cmd={FAKE} arg=--none-after arg=0 -engine name=greedy cmd={FAKE} \
         arg=--report-nodes arg=500000 -engine name=good cmd={FAKE} -each nodes=1000 -games 2 -rounds 1 \
         -maxmoves 20 -openings file={} -srand 1",
        book()
    ));
    let null = warnings_about(&stderr, "glaurung");
    assert_eq!(null.len(), 1, "{stderr}");
    assert!(
        null[0].starts_with(
            "warning: glaurung answered `bestmove (none)` to `go nodes 1000` in a position with legal moves, so it \
             lost the game (engines that cannot search `go nodes` answer so) (game "
        ),
        "{}",
        null[0]
    );
    let greedy = warnings_about(&stderr, "greedy");
    assert_eq!(greedy.len(), 1, "{stderr}");
    assert!(
        greedy[0]
            .starts_with("warning: greedy does not obey `go nodes 1000`: it reported searching 500000 nodes (game "),
        "{}",
        greedy[0]
    );
    assert!(warnings_about(&stderr, "good").is_empty(), "{stderr}");
    for l in stdout.lines().filter(|l| l.starts_with("Finished game ") && l.contains("glaurung")) {
        assert!(l.ends_with(" sends an invalid move: (none)}"), "{l}");
    }
    assert!(stdout.contains("glaurung: 0.0/4 points, 4 forfeits"), "{stdout}");
}

/// `-stalltimeout`, `-starttimeout`, `-ratinginterval`, `-recover` and the worker's
/// `--idle-exit` and `--name` are explained in the help and on the commands' pages.
#[test]
fn timeouts_and_worker_options_are_documented() {
    let help = |args: &[&str]| {
        let out = tuner(args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let matches = help(&["match", "--help"]);
    for needle in [
        "--stalltimeout <SECONDS>",
        "loses the game as stalled",
        "--starttimeout <SECONDS>",
        "`isready` with `readyok`",
        "--ratinginterval <N>",
        "0: only the final report",
        "--recover",
        "is restarted for its next game",
    ] {
        assert!(matches.contains(needle), "`tuner match --help` lacks `{needle}`:\n{matches}");
    }
    let worker = help(&["worker", "--help"]);
    for needle in ["--idle-exit <SECONDS>", "Exit (status 0) after", "--name <NAME>", "NAME-0, NAME-1"] {
        assert!(worker.contains(needle), "`tuner worker --help` lacks `{needle}`:\n{worker}");
    }
    let page = |name: &str| fs::read_to_string(repo().join("docs/commands").join(name)).unwrap();
    let match_md = page("match.md");
    for needle in ["`-stalltimeout SECONDS`", "`-starttimeout SECONDS`", "`-ratinginterval N`", "`-recover`"] {
        assert!(match_md.contains(needle), "docs/commands/match.md lacks {needle}");
    }
    let worker_md = page("worker.md");
    for needle in ["`--idle-exit SECONDS`", "`--name NAME`"] {
        assert!(worker_md.contains(needle), "docs/commands/worker.md lacks {needle}");
    }
}

/// cutechess's `-recover` is what the runner always does: a crashed engine loses its game, is
/// restarted, and the match goes on; with or without the flag the same games are played.
#[test]
fn recover_restarts_a_crashed_engine_and_the_match_goes_on() {
    let dir = scratch("reports", "recover");
    let run = |extra: &str, pgn: &str| -> String {
        let pgn = dir.join(pgn);
        let (stdout, _) = run_ok(&format!(
            "match -engine name=crashy cmd={FAKE} arg=--crash-after arg=3 -engine name=steady cmd={FAKE} -each depth=1 \
             -games 2 -rounds 3 -maxmoves 30 -openings file={} -srand 7 -pgnout {} {extra}",
            book(),
            pgn.display()
        ));
        assert_eq!(common::games_in(&pgn), 6, "every game played: {stdout}");
        let finished: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Finished game ")).collect();
        assert_eq!(finished.len(), 6, "{stdout}");
        assert!(finished.iter().any(|l| l.ends_with(" disconnects}")), "a crash loses the game: {stdout}");
        // Each game's result, in order, without the timing.
        fs::read_to_string(&pgn).unwrap().lines().filter(|l| l.starts_with("[Result ")).collect::<Vec<_>>().join("\n")
    };
    let with = run("-recover", "with.pgn");
    assert_eq!(run("", "without.pgn"), with);
    fs::remove_dir_all(&dir).unwrap();
}
