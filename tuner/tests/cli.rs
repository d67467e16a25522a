//! The `tuner` binary as users run it: cutechess-style options, clear errors, kill -9 and
//! `--resume`, and a short game between real Debian engines (`--ignored`; `.ci/run` installs them).

mod common;

use std::{collections::HashMap, fs, path::Path, process::Command, time::Duration};

use common::{TUNER, games_in, kill_9_when, repo, scratch, tuner};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

#[test]
fn bad_input_gives_a_clear_error_and_nonzero_exit() {
    let fake = format!("cmd={FAKE}");
    let cases: &[(&[&str], &str)] = &[
        (&["match", "-engine", &fake, "tc=40/x", "-engine", &fake, "depth=1"], "malformed time control `40/x`"),
        (&["match", "-engine", "cmd=/no/engine", "depth=1", "-engine", &fake, "depth=1"], "`/no/engine` not found"),
        (
            &["match", "-engine", &fake, "depth=1", "-engine", &fake, "depth=1", "name=b", "option.NoSuch=1"],
            "no option `NoSuch`",
        ),
        (
            &[
                "match",
                "-engine",
                &fake,
                "depth=1",
                "-engine",
                &fake,
                "name=b",
                "depth=1",
                "-openings",
                "file=/no/book.epd",
            ],
            "/no/book.epd",
        ),
        (
            &[
                "match",
                "-engine",
                &fake,
                "depth=1",
                "arg=--no-uciok",
                "-engine",
                &fake,
                "name=b",
                "depth=1",
                "-starttimeout",
                "0.3",
            ],
            "did not answer `uciok`",
        ),
        (
            &["match", "-engine", &fake, "depth=1", "-engine", &fake, "name=b", "depth=1", "-sprt", "elo0=5", "elo1=0"],
            "elo0",
        ),
        (
            &["match", "-engine", &fake, "depth=1", "-engine", &fake, "name=b", "depth=1", "-draw", "movecount=x"],
            "movecount=x",
        ),
    ];
    for (args, want) in cases {
        let out = tuner(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(want), "{args:?}: stderr was {err}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("Finished game"), "games were played: {args:?}");
    }
}

/// An unknown single-dash option is reported as typed (`-foo`, not the `--foo` it would be
/// rewritten to), with clap's usage-error status, before anything runs.
#[test]
fn unknown_single_dash_option_is_named_as_typed() {
    let fake = format!("cmd={FAKE}");
    for (args, typed) in [
        (&["match", "-foo"][..], "-foo"),
        (&["gauntlet", "-engine", &fake, "depth=1", "-engine", &fake, "name=b", "-concurency", "2"], "-concurency"),
    ] {
        let out = tuner(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(&format!("unknown option `{typed}`")) && !err.contains(&format!("-{typed}")), "{err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // A double-dash one is clap's to report, also as typed.
    let out = tuner(&["match", "--foo"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'--foo'"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A finished (or capped, undecided) match resumed with more rounds plays only the new games, on
/// the schedule an uninterrupted longer match has: the first games stay byte for byte, the whole
/// PGN equals the longer match's. Fewer rounds than were played, or another setting, is refused.
#[test]
fn resume_with_more_rounds_extends_the_same_match() {
    let dir = scratch("cli", "extend");
    let fake = format!("cmd={FAKE}");
    let book = format!("file={}", repo().join("openings/gnuchess-8ply.epd").display());
    let args = [
        "match",
        "-engine",
        "name=a",
        &fake,
        "-engine",
        "name=b",
        &fake,
        "arg=--seed",
        "arg=4",
        "-each",
        "depth=1",
        "-maxmoves",
        "12",
        "-openings",
        &book,
        "order=random",
        "-srand",
        "11",
        "-games",
        "2",
        "-quiet",
    ];
    let run = |pgn: &Path, rounds: &str, extra: &[&str]| {
        let pgn = pgn.to_str().unwrap().to_string();
        tuner(&[&args[..], &["-rounds", rounds, "-pgnout", &pgn], extra].concat())
    };
    let (short, long) = (dir.join("short.pgn"), dir.join("long.pgn"));
    let out = run(&short, "2", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\n4 games in"), "{}", String::from_utf8_lossy(&out.stdout));
    let first = fs::read(&short).unwrap();
    let out = run(&short, "3", &["--resume"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The summary's rate counts only the games this run played.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("6 games (4 resumed, 2 in this run) in"), "{stdout}");
    let extended = fs::read(&short).unwrap();
    assert_eq!(&extended[..first.len()], &first[..], "the games already played changed");
    assert!(run(&long, "3", &[]).status.success());
    // The same schedule: each game's round, colours and opening (the fake engine's moves depend
    // on how many games its process has played, so they differ after a restart).
    let games = |bytes: &[u8]| -> Vec<String> {
        let keep = ["[Round ", "[White ", "[Black ", "[FEN "];
        String::from_utf8_lossy(bytes)
            .lines()
            .filter(|l| keep.iter().any(|k| l.starts_with(k)))
            .map(String::from)
            .collect()
    };
    assert_eq!(games(&extended), games(&fs::read(&long).unwrap()), "the extended match differs from the longer one");
    let out = run(&short, "2", &["--resume"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("resume with at least as many rounds"), "{err}");
    let pgn = short.to_str().unwrap();
    let longer_games: Vec<&str> = args.iter().map(|&a| if a == "12" { "14" } else { a }).collect();
    let other = tuner(&[&longer_games[..], &["-rounds", "4", "-pgnout", pgn, "--resume"]].concat());
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(!other.status.success() && err.contains("different match configuration"), "{err}");
    assert_eq!(fs::read(&short).unwrap(), extended, "a refused resume changed the PGN");
    fs::remove_dir_all(&dir).unwrap();
}

/// Acceptance 3: kill -9 during a 40-game match, then --resume: exactly 40 games, none twice.
#[test]
fn kill_minus_nine_then_resume_gives_exactly_40_games() {
    let dir = scratch("cli", "resume");
    let pgn = dir.join("out.pgn");
    let book = format!("file={}", repo().join("openings/gnuchess-8ply.epd").display());
    let fake = format!("cmd={FAKE}");
    let pgn_s = pgn.to_str().unwrap().to_string();
    let mut args: Vec<&str> = vec![
        "match",
        "-engine",
        "name=a",
        &fake,
        "arg=--slow-after",
        "arg=0",
        "arg=--slow-ms",
        "arg=4",
        "-engine",
        "name=b",
        &fake,
        "arg=--seed",
        "arg=9",
        "-each",
        "depth=1",
        "-openings",
        &book,
        "order=random",
        "-srand",
        "3",
        "-games",
        "2",
        "-rounds",
        "20",
        "-concurrency",
        "2",
        "-maxmoves",
        "20",
        "-pgnout",
        &pgn_s,
        "-quiet",
    ];
    kill_9_when(&args, Duration::from_secs(60), "10 games", || games_in(&pgn) >= 10);
    let at_kill = games_in(&pgn);
    assert!(at_kill < 40, "the kill came too late ({at_kill} games)");
    args.push("--resume");
    let out = tuner(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Resuming:"), "{stdout}");
    // The journal held the games finished before the kill; this run played the rest.
    let resumed = stdout
        .split("40 games (")
        .nth(1)
        .and_then(|t| t.split(" resumed, ").next())
        .and_then(|n| n.parse::<u64>().ok());
    assert!(resumed.is_some_and(|n| n > 0 && stdout.contains(&format!("{} in this run) in", 40 - n))), "{stdout}");

    let text = fs::read_to_string(&pgn).unwrap();
    assert_eq!(games_in(&pgn), 40);
    // Every opening (FEN) is played exactly twice, once with each engine as White.
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    for game in text.split("[Event ").skip(1) {
        let tag = |k: &str| {
            let start = game.find(&format!("[{k} \"")).unwrap() + k.len() + 3;
            game[start..].split('"').next().unwrap().to_string()
        };
        *seen.entry((tag("FEN"), tag("White"))).or_default() += 1;
        assert!(game.contains("[Termination "), "{game}");
    }
    assert_eq!(seen.len(), 40, "duplicated games");
    assert!(seen.values().all(|&n| n == 1));
    let fens: std::collections::HashSet<&String> = seen.keys().map(|(f, _)| f).collect();
    assert_eq!(fens.len(), 20);
}

/// A rating report every `-ratinginterval` games, each count once, and the last one only in the
/// final summary (standings grow by game pairs, so a count can be seen by two games).
#[test]
fn rating_report_once_per_interval_and_once_at_the_end() {
    let fake = format!("cmd={FAKE}");
    let out = tuner(&[
        "match",
        "-engine",
        "name=a",
        &fake,
        "-engine",
        "name=b",
        &fake,
        "arg=--seed",
        "arg=5",
        "-each",
        "depth=1",
        "-games",
        "2",
        "-rounds",
        "6",
        "-concurrency",
        "2",
        "-maxmoves",
        "10",
        "-ratinginterval",
        "4",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Reports after 4 and 8 games, then the summary after 12.
    assert_eq!(stdout.matches("Score of a vs b").count(), 3, "{stdout}");
    assert!(stdout.contains("12 games in"), "{stdout}");
}

/// Real engines over real pipes (Debian's packages; `.ci/run` installs them).
#[test]
#[ignore = "needs /usr/games/stockfish and /usr/games/glaurung"]
fn real_engines_short_match_with_syzygy_adjudication() {
    let (sf, gl) = ("/usr/games/stockfish", "/usr/games/glaurung");
    for e in [sf, gl] {
        assert!(Path::new(e).exists(), "{e} not installed (Debian packages stockfish, glaurung)");
    }
    let dir = scratch("cli", "real");
    let results = dir.join("r.json");
    let mut args = vec![
        "match".to_string(),
        "-engine".into(),
        "name=sf".into(),
        format!("cmd={sf}"),
        "option.Hash=16".into(),
        "option.Threads=1".into(),
        "nodes=3000".into(),
        "-engine".into(),
        "name=glaurung".into(),
        format!("cmd={gl}"),
        "depth=3".into(),
        "-openings".into(),
        format!("file={}", repo().join("openings/gnuchess-8ply.epd").display()),
        "-maxmoves".into(),
        "60".into(),
        "-games".into(),
        "2".into(),
        "-results".into(),
        results.display().to_string(),
    ];
    args.extend(["-tb".into(), evochess::data::fixture("syzygy").display().to_string()]);
    let out = Command::new(TUNER).args(&args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("Score of sf vs glaurung"), "{stdout}");
    let json: serde_json::Value = serde_json::from_str(&fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(json["games_played"], 2);
    assert_eq!(json["totals"][0]["forfeits"], 0);
    assert_eq!(json["totals"][1]["forfeits"], 0);
}

/// Errors print their cause chain once, with no backtrace even when RUST_BACKTRACE asks for one.
#[test]
fn errors_print_the_cause_chain_once_without_backtrace() {
    for (args, expected) in [
        (
            &["coevolve", "--config", "/no/such/c.toml"][..],
            "error: /no/such/c.toml: No such file or directory (os error 2)",
        ),
        (
            &["pipeline", "/no/such/p.toml"],
            "error: cannot read /no/such/p.toml: No such file or directory (os error 2)",
        ),
    ] {
        let out = Command::new(TUNER).args(args).env("RUST_BACKTRACE", "1").output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).trim_end(), expected, "{args:?}");
    }
}

/// A fastchess-style command line: `file=` keys for -pgnout/-epdout (not files named `file=X`),
/// `notation=`, `append=`, and `-variant standard`.
#[test]
fn fastchess_output_keys_and_variant() {
    let dir = scratch("cli", "fastchess");
    let (pgn, epd) = (dir.join("games.pgn"), dir.join("final.epd"));
    fs::write(&pgn, "[Event \"earlier\"]\n\n1-0\n\n").unwrap();
    let fake = format!("cmd={FAKE}");
    let run = |notation: &str, append: &str, variant: &str| {
        Command::new(TUNER)
            .current_dir(&dir)
            .env("RUST_LOG", "warn")
            .args(["match", "-engine", "name=a", &fake, "-engine", "name=b", &fake, "arg=--seed", "arg=3"])
            .args(["-each", "depth=1", "-games", "2", "-maxmoves", "10", "-variant", variant])
            .args(["-pgnout", &format!("file={}", pgn.display()), notation, append, "nodes=true"])
            .args(["-epdout", &format!("file={}", epd.display())])
            .output()
            .unwrap()
    };
    let out = run("notation=uci", "append=true", "standard");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.join(format!("file={}", pgn.display())).exists() && fs::read_dir(&dir).unwrap().count() == 3);
    let text = fs::read_to_string(&pgn).unwrap();
    assert!(text.starts_with("[Event \"earlier\"]"), "append=true keeps what was there: {text}");
    assert_eq!(games_in(&pgn), 3, "{text}");
    // UCI notation: the first move of each game is a coordinate move.
    let first_moves: Vec<&str> = text.lines().filter(|l| l.starts_with("1. ")).collect();
    assert!(first_moves.len() == 2 && first_moves.iter().all(|l| l.as_bytes()[4].is_ascii_digit()), "{text}");
    assert_eq!(fs::read_to_string(&epd).unwrap().lines().count(), 2);

    // append=false starts the file afresh; lan notation.
    let out = run("notation=lan", "append=false", "Standard");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(games_in(&pgn), 2);
    let text = fs::read_to_string(&pgn).unwrap();
    for line in text.lines().filter(|l| l.starts_with("1. ")) {
        let first = line.split_whitespace().nth(1).unwrap();
        assert!(first.len() >= 5 && first[first.len() - 3..].starts_with(['-', 'x']), "not LAN: {line}");
    }

    for (bad, needle) in [
        (run("notation=fan", "append=true", "standard"), "notation `fan`"),
        (run("notation=san", "append=maybe", "standard"), "append=maybe"),
        (run("notation=san", "append=true", "chess960"), "-variant chess960"),
    ] {
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(!bad.status.success() && err.contains(needle), "{needle}: {err}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// The command line OpenBench's worker builds (Client/worker.py, `build_cutechess_command`:
/// basic, concurrency, adjudication, two engines, book and pgnout settings) runs unchanged; only
/// the engines, book and paths are ours.
#[test]
fn openbench_worker_command_line_runs_unchanged() {
    let dir = scratch("cli", "openbench");
    for d in ["Engines", "Books", "PGNs"] {
        fs::create_dir_all(dir.join(d)).unwrap();
    }
    for name in ["dev", "base"] {
        fs::copy(common::engine_binary(), dir.join("Engines").join(name)).unwrap();
    }
    let book: String = fs::read_to_string(repo().join("openings/gnuchess-8ply.epd"))
        .unwrap()
        .lines()
        .take(40)
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(dir.join("Books/book.epd"), book).unwrap();
    let tb = evochess::data::fixture("syzygy");
    let command = format!(
        "-repeat -recover -variant standard -concurrency 2 -games 4  -resign movecount=3 score=400 \
         -draw movenumber=40 movecount=8 score=10 -tb {tb} -tbpieces 3 \
         -engine dir=Engines/ cmd=./dev proto=uci tc=inf nodes=1500 option.Threads=1 option.Hash=16 \
         option.SyzygyPath={tb} name=evochess-dev \
         -engine dir=Engines/ cmd=./base proto=uci tc=inf nodes=1500 option.Threads=1 option.Hash=16 \
         name=evochess-base \
         -openings file=Books/book.epd format=epd order=random start=3 -srand 42 -pgnout PGNs/1.2.3.0.pgn",
        tb = tb.display()
    );
    let out = Command::new(TUNER)
        .arg("match")
        .args(command.split_whitespace()) // as the worker's Popen(command.split())
        .current_dir(&dir)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    // The lines OpenBench parses: `Finished game N (A vs B): RESULT {reason}`.
    let finished: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Finished game ")).collect();
    assert_eq!(finished.len(), 4, "{stdout}");
    for l in &finished {
        let tokens: Vec<&str> = l.split_whitespace().collect();
        assert!(tokens[2].parse::<u32>().is_ok() && ["1-0", "0-1", "1/2-1/2"].contains(&tokens[6]), "{l}");
        assert!(l.split(':').nth(1).is_some(), "{l}");
    }
    assert_eq!(games_in(&dir.join("PGNs/1.2.3.0.pgn")), 4);
    fs::remove_dir_all(&dir).unwrap();
}

/// fastchess's colour, report, output and tablebase flags: -repeat, -noswap, -reverse, -wait,
/// -report penta=false, -output format=fastchess, -tbignore50.
#[test]
fn fastchess_pairing_and_report_flags() {
    let dir = scratch("cli", "pairing");
    let pgn = dir.join("g.pgn");
    let fake = format!("cmd={FAKE}");
    let run = |extra: &[&str]| {
        let mut args = vec!["match", "-engine", "name=a", &fake, "-engine", "name=b", &fake, "-each", "depth=1"];
        args.extend(["-maxmoves", "6", "-games", "2", "-rounds", "2"]);
        args.extend(extra);
        tuner(&args)
    };
    let tb = evochess::data::fixture("syzygy");
    let out = run(&[
        "-repeat",
        "-noswap",
        "-reverse",
        "-wait",
        "5",
        "-report",
        "penta=false",
        "-tb",
        tb.to_str().unwrap(),
        "-tbignore50",
        "-pgnout",
        pgn.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!stdout.contains("Ptnml") && stdout.contains("Score of a vs b"), "{stdout}");
    let whites: Vec<String> =
        fs::read_to_string(&pgn).unwrap().lines().filter(|l| l.starts_with("[White ")).map(String::from).collect();
    assert_eq!(whites, vec!["[White \"b\"]"; 4], "reverse and noswap: b has White in every game");
    // Without them, pairs swap colours and a takes White first; the pentanomial line is shown.
    // (A rerun appends to its PGN: start this one afresh.)
    fs::remove_file(&pgn).unwrap();
    let pgn_s = pgn.to_str().unwrap();
    let out = run(&["-repeat", "2", "-pgnout", pgn_s, "-output", "format=fastchess", "-sprt", "elo0=0", "elo1=10"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Ptnml(0-2)"), "{stdout}");
    // fastchess's SPRT line, and the closing line both cutechess and fastchess print.
    let llr = stdout.lines().find(|l| l.starts_with("LLR: ")).expect("an LLR line");
    assert!(llr.ends_with("(-2.94, 2.94) [0.00, 10.00] normalized Elo"), "{llr}");
    assert_eq!(stdout.lines().last(), Some("Finished match"), "{stdout}");
    let whites: Vec<String> =
        fs::read_to_string(&pgn).unwrap().lines().filter(|l| l.starts_with("[White ")).map(String::from).collect();
    assert_eq!(whites, ["[White \"a\"]", "[White \"b\"]", "[White \"a\"]", "[White \"b\"]"]);
    for (bad, needle) in [(run(&["-repeat", "3"]), "-repeat 3"), (run(&["-report", "elo=true"]), "elo=true")] {
        let err = String::from_utf8_lossy(&bad.stderr);
        assert!(!bad.status.success() && err.contains(needle), "{needle}: {err}");
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// Searches `text` for `pattern`, a regular expression of the subset the parsers below use:
/// literal characters, `\`-escaped literals and capture groups `([class]+)` (one character class
/// of single characters and ranges, repeated). Returns the groups of the first match.
fn re_search(pattern: &str, text: &str) -> Option<Vec<String>> {
    enum Tok {
        Lit(char),
        Group(Vec<(char, char)>),
    }
    let mut toks = Vec::new();
    let mut it = pattern.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\\' => toks.push(Tok::Lit(it.next().expect("escaped character"))),
            '(' => {
                assert_eq!(it.next(), Some('['), "groups are ([class]+)");
                let mut class = Vec::new();
                while let Some(c) = it.next().filter(|&c| c != ']') {
                    if it.peek() == Some(&'-') && {
                        let mut ahead = it.clone();
                        ahead.next();
                        ahead.peek().is_some_and(|&n| n != ']')
                    } {
                        it.next();
                        class.push((c, it.next().unwrap()));
                    } else {
                        class.push((c, c));
                    }
                }
                assert_eq!((it.next(), it.next()), (Some('+'), Some(')')), "groups are ([class]+)");
                toks.push(Tok::Group(class));
            }
            _ => toks.push(Tok::Lit(c)),
        }
    }
    // Backtracking match of toks[i..] at text[j..], collecting the groups.
    fn at(toks: &[Tok], s: &[char], j: usize, groups: &mut Vec<String>) -> bool {
        match toks.first() {
            None => true,
            Some(Tok::Lit(c)) => s.get(j) == Some(c) && at(&toks[1..], s, j + 1, groups),
            Some(Tok::Group(class)) => {
                let n = s[j..].iter().take_while(|c| class.iter().any(|(a, b)| (a..=b).contains(c))).count();
                (1..=n).rev().any(|k| {
                    groups.push(s[j..j + k].iter().collect());
                    let ok = at(&toks[1..], s, j + k, groups);
                    if !ok {
                        groups.pop();
                    }
                    ok
                })
            }
        }
    }
    let chars: Vec<char> = text.chars().collect();
    (0..=chars.len()).find_map(|j| {
        let mut groups = Vec::new();
        at(&toks, &chars, j, &mut groups).then_some(groups)
    })
}

/// fishtest's worker reads fastchess's block with these two regexes (official-stockfish/fishtest
/// `worker/games.py`, `parse_fastchess_output`: `pattern_WLD`, `pattern_ptnml`) and waits for
/// `Finished match`; OpenBench's (`Client/worker.py`, `run_and_parse_runner` and
/// `MatchRunner.update_results`) takes `Finished game` lines apart by whitespace and `:`.
const FISHTEST_WLD: &str = r"Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), Draws: ([0-9]+), Points: ([0-9.]+) \(";
const FISHTEST_PTNML: &str = r"Ptnml\(0-2\): \[([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+)\]";

#[test]
fn the_regex_subset_matches_like_python_re() {
    let line = "Games: 680, Wins: 248, Losses: 266, Draws: 166, Points: 331.0 (48.68 %)";
    assert_eq!(re_search(FISHTEST_WLD, line).unwrap(), ["680", "248", "266", "166", "331.0"]);
    let line = "x Ptnml(0-2): [43, 61, 144, 55, 37], WL/DD Ratio: 4.76";
    assert_eq!(re_search(FISHTEST_PTNML, line).unwrap(), ["43", "61", "144", "55", "37"]);
    assert_eq!(re_search(FISHTEST_PTNML, "Ptnml(0-2): [43, 61, 144, 55]"), None);
    assert_eq!(re_search(FISHTEST_WLD, "Games: 6, Wins: 2, Losses: 2, Draws: 2, Points: 3.0"), None);
    assert_eq!(re_search(r"a([0-9.]+)\.x", "a1.5.x").unwrap(), ["1.5"]);
}

/// `-output format=fastchess`: every rating report is fastchess's block, shaped as
/// output_fastchess.hpp prints it, readable by fishtest's and OpenBench's parsers; the header
/// shows the engines' Threads/Hash as they declared them (the fake engine has no Threads).
#[test]
fn fastchess_blocks_read_by_fishtest_and_openbench() {
    let fake = format!("cmd={FAKE}");
    let book = format!("file={}", repo().join("openings/gnuchess-8ply.epd").display());
    let run = |extra: &[&str]| {
        let mut args = vec!["match", "-engine", "name=a", &fake, "arg=--seed", "arg=5", "-engine", "name=b", &fake];
        args.extend(["option.Hash=32", "-each", "depth=1", "-maxmoves", "12", "-openings", &book]);
        args.extend(["-games", "2", "-rounds", "6", "-ratinginterval", "4", "-output", "format=fastchess"]);
        args.extend(extra);
        let out = tuner(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let stdout = run(&["-sprt", "elo0=0", "elo1=5"]);
    let lines: Vec<&str> = stdout.lines().collect();
    let rule = "-".repeat(50);
    let starts: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("Results of ")).collect();
    assert_eq!(starts.len(), 3, "after games 4 and 8, and at the end: {stdout}");
    for &i in &starts {
        assert_eq!(lines[i - 1], rule);
        assert_eq!(lines[i], "Results of a vs b (1 plies, NULL, 16MB - 32MB, gnuchess-8ply.epd):");
        let block = &lines[i..i + 7];
        let prefixes = ["Results of ", "Elo: ", "LOS: ", "Games: ", "Ptnml(0-2): ", "LLR: ", "----------"];
        for (l, p) in block.iter().zip(prefixes) {
            assert!(l.starts_with(p), "{l:?} should start with {p:?}: {stdout}");
        }
        // `E +/- M` as fastchess prints it, except where fastchess prints NaN: `+inf (every game
        // won)` has no margin and a 0/0 (nElo or LOS of draws only) is `n/a`.
        let estimate = |t: &str| {
            t == "n/a" || t.ends_with("inf (every game won)") || t.ends_with("inf (every game lost)") || {
                let g = re_search(r"([-0-9.inf]+) \+/- ([-0-9.inf]+)", t);
                g.is_some_and(|g| t == format!("{} +/- {}", g[0], g[1]) && g.iter().all(|v| v.parse::<f64>().is_ok()))
            }
        };
        let (elo, nelo) = block[1].strip_prefix("Elo: ").and_then(|r| r.split_once(", nElo: ")).expect(block[1]);
        assert!(estimate(elo) && estimate(nelo), "{}", block[1]);
        assert!(
            (block[2].starts_with("LOS: n/a, ") || block[2].contains(" %, DrawRatio: "))
                && block[2].contains(" %, PairsRatio: "),
            "{}",
            block[2]
        );
        let wld = re_search(FISHTEST_WLD, block[3]).expect("fishtest's pattern_WLD");
        let ptnml = re_search(FISHTEST_PTNML, block[4]).expect("fishtest's pattern_ptnml");
        let n = |v: &str| v.parse::<u64>().unwrap();
        // fishtest's own checks on what it parsed.
        let games = n(&wld[0]);
        assert_eq!(games, n(&wld[1]) + n(&wld[2]) + n(&wld[3]));
        assert_eq!(games, 2 * ptnml.iter().map(|v| n(v)).sum::<u64>());
        assert!(block[4].contains("], WL/DD Ratio: "), "{}", block[4]);
        let llr = re_search(r"LLR: ([-0-9.]+) \(([-0-9.]+)%\) \(-2.94, 2.94\) \[0.00, 5.00\]", block[5]);
        assert!(llr.is_some_and(|g| g[0].parse::<f64>().is_ok() && g[1].parse::<f64>().is_ok()), "{}", block[5]);
    }
    let totals = re_search(FISHTEST_WLD, lines[starts[2] + 3]).unwrap();
    assert_eq!(totals[0], "12");
    // OpenBench: `Finished game N (A vs B): RESULT {reason}`.
    let finished: Vec<&str> = lines.iter().copied().filter(|l| l.contains("Finished game")).collect();
    assert_eq!(finished.len(), 12, "{stdout}");
    for l in finished {
        let tokens: Vec<&str> = l.split_whitespace().collect();
        assert!(tokens[2].parse::<u32>().is_ok() && ["1-0", "0-1", "1/2-1/2"].contains(&tokens[6]), "{l}");
        assert!(l.split(':').nth(1).is_some(), "{l}");
    }
    assert_eq!(lines.last(), Some(&"Finished match"));

    // Without pentanomial reports: figures over games, no PairsRatio and no Ptnml line.
    let stdout = run(&["-report", "penta=false"]);
    let los: Vec<&str> = stdout.lines().filter(|l| l.starts_with("LOS: ")).collect();
    assert_eq!(los.len(), 3, "{stdout}");
    assert!(
        los.iter().all(|l| (re_search(r"LOS: ([-0-9.inf]+) %, DrawRatio: ([0-9.]+) %", l).is_some()
            || l.starts_with("LOS: n/a, DrawRatio: "))
            && !l.contains("PairsRatio")),
        "{stdout}"
    );
    assert!(!stdout.contains("Ptnml") && !stdout.contains("LLR"), "{stdout}");
    assert!(re_search(FISHTEST_WLD, &stdout).is_some(), "{stdout}");
}

/// `-rounds 4000000000 -sprt ...`: the schedule is computed unit by unit, so the match runs under
/// a 4 GiB address-space limit (a listed schedule would need over 100 GB) and stops at the SPRT
/// decision.
#[test]
fn four_billion_rounds_with_sprt_run_in_little_memory() {
    let engine = common::engine_binary();
    let script = format!(
        "ulimit -v 4194304 && exec {TUNER} match -engine name=evo cmd={} nodes=300 \
         -engine name=fake cmd={FAKE} arg=--seed arg=1 depth=1 -maxmoves 80 -concurrency 2 \
         -rounds 4000000000 -sprt elo0=0 elo1=400 -quiet",
        engine.display()
    );
    let out = Command::new("sh").args(["-c", &script]).env("RUST_LOG", "warn").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("H1 was accepted") && stdout.contains("stopped early by SPRT"), "{stdout}");
}

/// An unwritable `-results` path is an error before the first game, not after hundreds.
#[test]
fn unwritable_results_path_fails_before_any_game() {
    let fake = format!("cmd={FAKE}");
    let out = tuner(&[
        "match",
        "-engine",
        "name=a",
        &fake,
        "-engine",
        "name=b",
        &fake,
        "-each",
        "depth=1",
        "-games",
        "2",
        "-results",
        "/no/such/dir/r.json",
    ]);
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!out.status.success() && stderr.contains("/no/such/dir/r.json"), "{stderr}");
    assert!(!stdout.contains("Finished game"), "games were played: {stdout}");
}

/// Two tuners on one output: the second is refused (advisory lock) before it touches the files,
/// and the first finishes with every game in its PGN and journal.
#[test]
fn a_second_tuner_on_the_same_output_is_refused() {
    let dir = scratch("cli", "lock");
    let pgn = dir.join("games.pgn");
    let fake = format!("cmd={FAKE}");
    let pgn_s = pgn.to_str().unwrap().to_string();
    let args = [
        "match",
        "-engine",
        "name=a",
        &fake,
        "arg=--seed",
        "arg=2",
        "-engine",
        "name=b",
        &fake,
        "-each",
        "depth=1",
        "-maxmoves",
        "20",
        "-games",
        "2",
        "-rounds",
        "150",
        // 10 ms between games: the first match runs for seconds after its first game.
        "-wait",
        "10",
        "-pgnout",
        &pgn_s,
        "-quiet",
    ];
    let mut first = Command::new(TUNER)
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while games_in(&pgn) == 0 {
        assert!(first.try_wait().unwrap().is_none(), "the first match ended before the test could start a second");
        assert!(start.elapsed() < Duration::from_secs(60), "no game within a minute");
        std::thread::sleep(Duration::from_millis(5));
    }
    let second = tuner(&args);
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success() && err.contains("in use by another running tuner"), "{err}");
    assert!(err.contains(&pgn_s), "{err}");
    assert!(first.wait().unwrap().success());
    assert_eq!(games_in(&pgn), 300, "the first match's games are all there");
    fs::remove_dir_all(&dir).unwrap();
}

/// Without -srand a random opening order gets a fresh seed, printed so the run can be repeated;
/// --resume without -srand continues with the journal's seed.
#[test]
fn without_srand_a_fresh_seed_is_printed_and_resume_keeps_it() {
    let dir = scratch("cli", "seed");
    let fake = format!("cmd={FAKE}");
    let book = format!("file={}", repo().join("openings/gnuchess-8ply.epd").display());
    let run = |pgn: &str, extra: &[&str]| {
        let pgn = dir.join(pgn).display().to_string();
        let mut args = vec!["match", "-engine", "name=a", &fake, "-engine", "name=b", &fake, "-each", "depth=1"];
        args.extend([
            "-maxmoves",
            "4",
            "-games",
            "2",
            "-rounds",
            "3",
            "-openings",
            &book,
            "order=random",
            "-pgnout",
            &pgn,
        ]);
        args.extend(extra);
        let out = tuner(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let fens: Vec<String> =
            fs::read_to_string(&pgn).unwrap().lines().filter(|l| l.starts_with("[FEN ")).map(String::from).collect();
        (String::from_utf8_lossy(&out.stdout).into_owned(), fens)
    };
    let seed_of = |stdout: &str| -> u64 {
        let line = stdout.lines().find(|l| l.starts_with("Random seed: ")).unwrap_or_else(|| panic!("{stdout}"));
        line["Random seed: ".len()..].split(' ').next().unwrap().parse().unwrap()
    };
    let (out1, fens1) = run("1.pgn", &[]);
    let (out2, _) = run("2.pgn", &[]);
    assert_eq!(fens1.len(), 6);
    let seed = seed_of(&out1);
    assert_ne!(seed, seed_of(&out2), "two runs drew the same seed");
    // The printed seed repeats the first run's openings.
    let (out3, fens3) = run("3.pgn", &["-srand", &seed.to_string()]);
    assert!(!out3.contains("Random seed"), "{out3}");
    assert_eq!(fens3, fens1);
    // Resuming the finished first run without -srand finds its seed: nothing is replayed.
    let (out4, fens4) = run("1.pgn", &["--resume"]);
    assert!(out4.contains("Resuming: 6 of 6 games already played"), "{out4}");
    assert_eq!(fens4, fens1);
    fs::remove_dir_all(&dir).unwrap();
}

/// fastchess's `-log file= level=`: the engines' UCI traffic lands in the file at level=trace.
#[test]
fn log_file_records_engine_traffic() {
    let dir = scratch("cli", "log");
    let log = dir.join("match.log");
    let fake = format!("cmd={FAKE}");
    let file = format!("file={}", log.display());
    let args = ["match", "-engine", "name=a", &fake, "-engine", "name=b", &fake, "-each", "depth=1", "-maxmoves", "4"];
    let out = Command::new(TUNER).args(args).args(["-log", &file, "level=trace", "engine=true"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = fs::read_to_string(&log).unwrap();
    assert!(text.contains("a < uci\n") && text.contains("a > uciok"), "{text}");
    assert!(text.contains("> bestmove"), "{text}");
    let bad = Command::new(TUNER).args(args).args(["-log", &file, "level=loud"]).output().unwrap();
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(!bad.status.success() && err.contains("level `loud`"), "{err}");
    fs::remove_dir_all(&dir).unwrap();
}

/// --resume checks the PGN against the journal: a truncated or missing PGN is an error naming
/// the file, never a silent loss of the games it held.
#[test]
fn resume_refuses_a_truncated_or_missing_pgn() {
    let dir = scratch("cli", "short");
    let pgn = dir.join("g.pgn");
    let fake = format!("cmd={FAKE}");
    let pgn_s = pgn.to_str().unwrap().to_string();
    let args = ["match", "-engine", "name=a", &fake, "-engine", "name=b", &fake, "-each", "depth=1", "-maxmoves", "6"];
    let out = tuner(&[&args[..], &["-games", "2", "-rounds", "2", "-pgnout", &pgn_s]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(games_in(&pgn), 4);
    let full = fs::metadata(&pgn).unwrap().len();
    let resume = || tuner(&[&args[..], &["-games", "2", "-rounds", "2", "-pgnout", &pgn_s, "--resume"]].concat());
    // Intact: nothing to do, nothing lost.
    assert!(resume().status.success());
    assert_eq!(fs::metadata(&pgn).unwrap().len(), full);
    fs::OpenOptions::new().write(true).open(&pgn).unwrap().set_len(full / 2).unwrap();
    let err = String::from_utf8_lossy(&resume().stderr).into_owned();
    assert!(err.contains(&pgn_s) && err.contains(&format!("has {} bytes", full / 2)), "{err}");
    assert_eq!(fs::metadata(&pgn).unwrap().len(), full / 2, "the refused resume changed the file");
    fs::remove_file(&pgn).unwrap();
    let err = String::from_utf8_lossy(&resume().stderr).into_owned();
    assert!(err.contains(&pgn_s) && err.contains("is missing"), "{err}");
    assert!(!pgn.exists());
    fs::remove_dir_all(&dir).unwrap();
}
