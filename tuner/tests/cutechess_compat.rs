//! cutechess-cli's and fastchess's own command lines through the `tuner` binary, each read with
//! its tool's meaning (issue 48, item 9): their manuals' examples with the `-engine` definitions
//! adapted (our test engines for theirs, and a node limit where the real engine would think on
//! the clock) and, where a test says so, `-maxmoves` to keep random movers' games short or
//! outputs added to check the result; `-tournament`, `-seeds`, `-site`, `-debug`, `-bookmode`, `-use-affinity`,
//! `-force-concurrency`, the SPRT model of each syntax, the rating interval, the no-book warning,
//! the nearest-option hint and the ranked standings table that ends every run.

mod common;

use std::{fs, path::Path, process::Command};

use common::{TUNER, engine_binary, repo, scratch};

const UCI: &str = env!("CARGO_BIN_EXE_fake-engine");
const XBOARD: &str = env!("CARGO_BIN_EXE_fake-xboard");

/// Runs `tuner ARGS` in `dir` with warnings on stderr; fails the test unless it succeeds.
fn run_ok(dir: &Path, args: &[String]) -> (String, String) {
    let out = Command::new(TUNER).args(args).current_dir(dir).env("RUST_LOG", "warn").output().unwrap();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(out.status.success(), "{args:?}\n{stdout}\n{stderr}");
    (stdout, stderr)
}

/// A command line written as in a manual: whitespace-separated words.
fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

fn finished_games(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("Finished game ")).collect()
}

/// The ranked standings table at the end of `stdout`, just before `Finished match`: its rows
/// as (rank, name, games), after checking the header and that ranks count up from 1.
fn standings(stdout: &str) -> Vec<(usize, String, u64)> {
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.last(), Some(&"Finished match"), "{stdout}");
    let header = lines.iter().rposition(|l| l.starts_with("Rank ")).unwrap_or_else(|| panic!("no table: {stdout}"));
    let cols: Vec<&str> = lines[header].split_whitespace().collect();
    assert_eq!(cols, ["Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"], "{stdout}");
    let rows: Vec<(usize, String, u64)> = lines[header + 1..lines.len() - 1]
        .iter()
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(c.len(), 7, "{l}");
            (c[0].parse().unwrap(), c[1].to_string(), c[4].parse().unwrap())
        })
        .collect();
    assert_eq!(rows.iter().map(|r| r.0).collect::<Vec<_>>(), (1..=rows.len()).collect::<Vec<_>>(), "{stdout}");
    rows
}

fn pgn_tags(pgn: &Path, tag: &str) -> Vec<String> {
    let prefix = format!("[{tag} \"");
    fs::read_to_string(pgn)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix).map(|v| v.trim_end_matches("\"]").to_string()))
        .collect()
}

/// cutechess-cli(6), EXAMPLES, first: "Play ten games between two Sloppy engines with a time
/// control of 40 moves in 60 seconds" (`cmd=sloppy` is our xboard test engine). cutechess plays
/// one game an encounter, sides alternating by round, and accepts two engines of one name.
#[test]
fn cutechess_manual_ten_games_between_two_sloppies() {
    let dir = scratch("compat", "sloppy");
    let line = format!("match -engine cmd={XBOARD} -engine cmd={XBOARD} -each proto=xboard tc=40/60 -rounds 10");
    let mut args = words(&line);
    args.extend(words("-pgnout games.pgn"));
    let (stdout, _) = run_ok(&dir, &args);
    assert_eq!(finished_games(&stdout).len(), 10, "{stdout}");
    let whites = pgn_tags(&dir.join("games.pgn"), "White");
    let expected: Vec<&str> = (0..10).map(|i| if i % 2 == 0 { "fake-xboard" } else { "fake-xboard-2" }).collect();
    assert_eq!(whites, expected);
    let table = standings(&stdout);
    assert_eq!(table.len(), 2);
    assert!(table.iter().all(|(_, _, games)| *games == 10), "{stdout}");
    fs::remove_dir_all(&dir).unwrap();
}

/// cutechess-cli(6), EXAMPLES, second: "a single game between Atak and Glaurung" with 40 moves
/// in 1:30 plus 1 s. Atak is our xboard engine in its own `dir=`; Glaurung is evochess, given
/// `nodes=` so that the test does not think for minutes on that clock.
#[test]
fn cutechess_manual_single_game_atak_glaurung() {
    let dir = scratch("compat", "atak");
    let atak_dir = Path::new(XBOARD).parent().unwrap().display().to_string();
    let engine = engine_binary();
    let line = format!(
        "match -engine name=Atak cmd=./fake-xboard dir={atak_dir} proto=xboard -engine cmd={} proto=uci \
         option.Threads=1 nodes=300 -each tc=40/1:30+1",
        engine.display()
    );
    let (stdout, _) = run_ok(&dir, &words(&line));
    let games = finished_games(&stdout);
    assert_eq!(games.len(), 1, "{stdout}");
    assert!(games[0].starts_with("Finished game 1 (Atak vs evochess): "), "{stdout}");
    let names: Vec<String> = standings(&stdout).into_iter().map(|r| r.1).collect();
    // evochess against random moves: it ranks first.
    assert_eq!(names, ["evochess", "Atak"], "{stdout}");
    fs::remove_dir_all(&dir).unwrap();
}

/// cutechess-cli(6), EXAMPLES, third: a round robin of four engines, "two games per encounter
/// ... 10 times the minimum amount of rounds (3) ... the total number of games 120". `conf=NAME`
/// (an engines.json entry) becomes `name=NAME cmd=...`; the engines' own Polyglot `book=` is not
/// supported here and is left out. No -tournament: cutechess's default is a round robin.
#[test]
fn cutechess_manual_round_robin_of_four() {
    let dir = scratch("compat", "rr");
    let engines: String = ["Fruit", "Crafty", "Stockfish", "Sloppy"]
        .iter()
        .enumerate()
        .map(|(i, n)| format!("-engine name={n} cmd={UCI} arg=--seed arg={i} "))
        .collect();
    let line = format!("match {engines}-each tc=4 -games 2 -rounds 10 -repeat -maxmoves 40");
    let (stdout, _) = run_ok(&dir, &words(&line));
    assert_eq!(finished_games(&stdout).len(), 120, "{stdout}");
    let table = standings(&stdout);
    let mut names: Vec<&str> = table.iter().map(|r| r.1.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["Crafty", "Fruit", "Sloppy", "Stockfish"]);
    assert!(table.iter().all(|r| r.2 == 60), "each plays 3 opponents x 2 games x 10 rounds: {stdout}");
    fs::remove_dir_all(&dir).unwrap();
}

/// fastchess(1), EXAMPLES, first: a match on random openings of book.epd, 200 rounds with
/// `-repeat` at concurrency 4. Read as fastchess reads it, that is 200 rounds of 2 games; as
/// cutechess reads the same words (nothing in them is fastchess's alone), 200 games in 100
/// colour-swapped pairs. Engines: ours, each with a seed; book: the repository's.
#[test]
fn fastchess_manual_match_example() {
    let dir = scratch("compat", "fastchess-match");
    fs::copy(repo().join("openings/gnuchess-8ply.epd"), dir.join("book.epd")).unwrap();
    let line = format!(
        "match -engine cmd={UCI} name=Engine1 arg=--seed arg=1 -engine cmd={UCI} name=Engine2 arg=--seed arg=2 \
         -openings file=book.epd format=epd order=random -each tc=60+0.6 option.Hash=64 -rounds 200 -repeat \
         -concurrency 4"
    );
    // Added: short games of the random movers, and a PGN to check the pairs.
    let mut args = words(&line);
    args.extend(words("-maxmoves 30 -srand 7 -pgnout games.pgn"));
    let (stdout, stderr) = run_ok(&dir, &args);
    assert_eq!(finished_games(&stdout).len(), 200, "{stdout}");
    let cpus = std::thread::available_parallelism().unwrap().get();
    assert_eq!(stderr.contains("-concurrency 4 exceeds"), cpus < 4, "{stderr}");
    // Colour-swapped pairs on one opening each.
    let fens = pgn_tags(&dir.join("games.pgn"), "FEN");
    assert_eq!(fens.len(), 200);
    assert!(fens.chunks(2).all(|p| p[0] == p[1]));
    assert_eq!(standings(&stdout).len(), 2);
    // With fastchess's output (its dialect), the same words are fastchess's 200 rounds of 2.
    let mut args = words(&line.replace("-rounds 200", "-rounds 20"));
    args.extend(words("-maxmoves 30 -output format=fastchess -force-concurrency"));
    let (stdout, stderr) = run_ok(&dir, &args);
    assert_eq!(finished_games(&stdout).len(), 40, "{stdout}");
    assert!(!stderr.contains("exceeds"), "-force-concurrency silences the warning: {stderr}");
    fs::remove_dir_all(&dir).unwrap();
}

/// fastchess(1), EXAMPLES, second: an SPRT with Fishtest's adjudication and `-pgnout
/// notation=san nodes=true file=./games/sprt.pgn` (fastchess syntax: normalized bounds). The
/// engines are evochess at 400 nodes against a random mover, and `-rounds 100000` becomes
/// `-rounds 3`: elo0=0 elo1=2 separates no two engines in a test's time (even a sample of wins
/// only moves a [0, 2] LLR by hundredths a game), so the test checks the model the line selects
/// on three pairs, against the same run with `model=cutechess`.
#[test]
fn fastchess_manual_sprt_example_uses_normalized_bounds() {
    let dir = scratch("compat", "fastchess-sprt");
    fs::create_dir_all(dir.join("games")).unwrap();
    fs::copy(repo().join("openings/gnuchess-8ply.epd"), dir.join("UHO_Lichess_4852_v1.epd")).unwrap();
    let engine = engine_binary();
    let line = format!(
        "match -engine cmd={} name=Engine1 option.Threads=1 nodes=400 -engine cmd={UCI} name=Engine2 \
         -openings file=UHO_Lichess_4852_v1.epd format=epd order=random -each tc=300+5 -resign movecount=3 \
         score=600 -draw movenumber=34 movecount=8 score=20 -sprt elo0=0 elo1=2 alpha=0.05 beta=0.05 -rounds 100000 \
         -concurrency 3 -pgnout notation=san nodes=true file=./games/sprt.pgn",
        engine.display()
    )
    .replace("-rounds 100000", "-rounds 3");
    let llr = |stdout: &str| -> f64 {
        let l = stdout.lines().rev().find(|l| l.starts_with("SPRT: llr ")).unwrap_or_else(|| panic!("{stdout}"));
        assert!(l.contains("lbound -2.94, ubound 2.94 [0, 2]"), "{l}");
        l.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    let (stdout, _) = run_ok(&dir, &words(&line));
    assert_eq!(finished_games(&stdout).len(), 6, "3 rounds of fastchess's 2 games: {stdout}");
    let normalized = llr(&stdout);
    assert!(normalized > 0.0, "evochess outscores a random mover: {stdout}");
    let names: Vec<String> = standings(&stdout).into_iter().map(|r| r.1).collect();
    assert_eq!(names, ["Engine1", "Engine2"]);
    assert_eq!(common::games_in(&dir.join("games/sprt.pgn")), 6);
    let cutechess =
        line.replace("beta=0.05", "beta=0.05 model=cutechess").replace("./games/sprt.pgn", "./games/cutechess.pgn");
    let (stdout, _) = run_ok(&dir, &words(&cutechess));
    let bayes = llr(&stdout);
    assert!(bayes > 0.0 && (bayes - normalized).abs() > 1e-3, "the same games under two models: {stdout}");
    fs::remove_dir_all(&dir).unwrap();
}

/// The same `-sprt elo0=0 elo1=10` means cutechess's BayesElo test in cutechess's syntax and
/// fastchess's normalized test in fastchess's: on the same games the two LLRs differ, and
/// `model=` says which one whatever the syntax.
#[test]
fn sprt_model_follows_the_syntax() {
    let dir = scratch("compat", "sprt-model");
    let llr = |extra: &str| -> String {
        let line = format!(
            "match -engine name=a cmd={UCI} arg=--seed arg=1 -engine name=b cmd={UCI} arg=--seed arg=2 -each depth=1 \
             -games 2 -rounds 6 -maxmoves 12 -srand 1 -openings file={} -sprt elo0=0 elo1=10 {extra}",
            repo().join("openings/gnuchess-8ply.epd").display()
        );
        let (stdout, _) = run_ok(&dir, &words(&line));
        let l = stdout.lines().rev().find(|l| l.starts_with("SPRT: llr ")).unwrap_or_else(|| panic!("{stdout}"));
        l.split_whitespace().nth(2).unwrap().to_string()
    };
    let cutechess = llr("");
    let fastchess = llr("-pgnout file=g1.pgn");
    assert_ne!(cutechess, fastchess);
    assert_eq!(llr("model=cutechess -pgnout file=g2.pgn"), cutechess);
    assert_eq!(llr("model=normalized"), fastchess);
    fs::remove_dir_all(&dir).unwrap();
}

/// `-tournament gauntlet -seeds 2` (cutechess and fastchess): the first two engines each play
/// the other two, never each other; `-site` fills the PGN's Site tag; `-debug` logs the engines'
/// traffic to stderr (stdout stays the match's); `-bookmode` is accepted.
#[test]
fn gauntlet_with_seeds_site_and_debug() {
    let dir = scratch("compat", "gauntlet");
    let engines: String = ["s1", "s2", "x", "y"]
        .iter()
        .map(|n| format!("-engine name={n} cmd={UCI} arg=--seed arg={} ", n.len()))
        .collect();
    let line = format!(
        "match -tournament gauntlet -seeds 2 {engines}-each depth=1 -games 2 -maxmoves 6 -site Lab \
         -bookmode disk -debug -pgnout g.pgn"
    );
    let (stdout, stderr) = run_ok(&dir, &words(&line));
    assert_eq!(finished_games(&stdout).len(), 8, "{stdout}");
    let pgn = dir.join("g.pgn");
    assert_eq!(pgn_tags(&pgn, "Site"), vec!["Lab"; 8]);
    let (whites, blacks) = (pgn_tags(&pgn, "White"), pgn_tags(&pgn, "Black"));
    for (w, b) in whites.iter().zip(&blacks) {
        let seed = |n: &str| n.starts_with('s');
        assert!(seed(w) != seed(b), "{w} vs {b}: a gauntlet game is a seed against a non-seed");
    }
    assert!(stderr.contains("< uci") && stderr.contains("> bestmove"), "{stderr}");
    assert!(!stdout.contains("bestmove"), "{stdout}");
    let table = standings(&stdout);
    let games = |n: &str| table.iter().find(|r| r.1 == n).unwrap().2;
    assert_eq!((games("s1"), games("s2"), games("x"), games("y")), (4, 4, 4, 4), "{stdout}");
    fs::remove_dir_all(&dir).unwrap();
}

/// `-use-affinity 0`: the engines a worker starts run pinned to CPU 0 (Linux).
#[cfg(target_os = "linux")]
#[test]
fn use_affinity_pins_the_engines() {
    let dir = scratch("compat", "affinity");
    // A UCI engine that records the CPUs it may run on, then plays as the fake engine does.
    let script = dir.join("engine.sh");
    fs::write(
        &script,
        format!("#!/bin/sh\ngrep Cpus_allowed_list /proc/self/status >> {}/cpus\nexec {UCI}\n", dir.display()),
    )
    .unwrap();
    Command::new("chmod").arg("+x").arg(&script).status().unwrap();
    let line = format!(
        "match -engine name=a cmd={0} -engine name=b cmd={0} -each depth=1 -maxmoves 4 -use-affinity 0",
        script.display()
    );
    run_ok(&dir, &words(&line));
    let cpus = fs::read_to_string(dir.join("cpus")).unwrap();
    let lines: Vec<&str> = cpus.lines().collect();
    // The runner's check of each engine before the match runs unpinned; the games' engines not.
    assert!(lines.len() >= 4, "{cpus}");
    assert!(lines[2..].iter().all(|l| l.split_whitespace().nth(1) == Some("0")), "{cpus}");
    fs::remove_dir_all(&dir).unwrap();
}

/// `-ratinginterval 2`: each report follows the game that completes its count.
#[test]
fn rating_report_follows_the_game_that_completes_the_interval() {
    let dir = scratch("compat", "interval");
    let line = format!(
        "match -engine name=a cmd={UCI} -engine name=b cmd={UCI} arg=--seed arg=4 -each depth=1 -games 2 -rounds 3 \
         -maxmoves 6 -ratinginterval 2"
    );
    let (stdout, _) = run_ok(&dir, &words(&line));
    let lines: Vec<&str> = stdout.lines().collect();
    let score_lines: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("Score of a vs b")).collect();
    assert_eq!(score_lines.len(), 3, "after 2 and 4 games, then the summary: {stdout}");
    for (i, n) in score_lines[..2].iter().zip([2, 4]) {
        assert!(lines[i - 1].starts_with(&format!("Finished game {n} ")), "{stdout}");
        assert!(lines[*i].ends_with(&format!("] {n}")), "{}", lines[*i]);
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// Engines that search by nodes or depth from no book play the same game again and again: the
/// runner says so; with a book (or a clock) it does not.
#[test]
fn node_limited_games_without_a_book_get_a_warning() {
    let dir = scratch("compat", "nobook");
    let base = format!("match -engine name=a cmd={UCI} -engine name=b cmd={UCI} -each nodes=100 -rounds 4 -maxmoves 4");
    let (_, stderr) = run_ok(&dir, &words(&base));
    assert!(stderr.contains("there is no -openings") && stderr.contains("same games"), "{stderr}");
    let book = format!(" -openings file={}", repo().join("openings/gnuchess-8ply.epd").display());
    let (_, stderr) = run_ok(&dir, &words(&(base.clone() + &book)));
    assert!(!stderr.contains("no -openings"), "{stderr}");
    fs::remove_dir_all(&dir).unwrap();
}

/// Every option in this file's scope is known (no clap error); a slip gets the nearest option;
/// bad values name the option.
#[test]
fn unknown_and_unsupported_options_get_a_sentence() {
    let fake = format!("cmd={UCI}");
    let err = |args: &[String]| {
        let out = Command::new(TUNER).args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        let e = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(e.starts_with("error: ") && !e.contains("Usage:") && !e.contains("panicked"), "{e}");
        e
    };
    let base = ["match", "-engine", "name=a", &fake, "-engine", "name=b", &fake];
    let with = |extra: &[&'static str]| -> Vec<String> { base.iter().chain(extra).map(|s| s.to_string()).collect() };
    for (extra, needle) in [
        (&["-use-afinity"][..], "unknown option `-use-afinity` for `tuner match`; did you mean `-use-affinity`?"),
        (&["-force-concurency"], "did you mean `-force-concurrency`?"),
        (&["-tournement", "gauntlet"], "did you mean `-tournament`?"),
        (&["-config", "colour=red"], "-config: unknown setting `colour=red`"),
        (&["-config", "stats=false"], "-config stats=false: a resumed match always counts the games of its journal"),
        (&["-tournament", "knockout"], "-tournament knockout: only gauntlet and round-robin"),
        (&["-bookmode", "tape"], "-bookmode `tape`: expected ram or disk"),
        (&["-debug", "some"], "-debug `some`: the only argument is `all`"),
        (&["-use-affinity", "0,x"], "-use-affinity `0,x`: `x` is not a CPU number"),
        (&["-seeds", "2"], "-seeds 2: seeds are for gauntlets"),
    ] {
        let e = err(&with(extra));
        assert!(e.contains(needle), "{extra:?}: {e}");
    }
    let e = err(&words(&format!("gauntlet -engine name=a {fake} -engine name=b {fake} -seeds 2 -each depth=1")));
    assert!(e.contains("-seeds 2: a gauntlet of 2 engines needs fewer seeds than engines"), "{e}");
}
