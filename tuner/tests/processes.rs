//! The tuner's processes as a user meets them (issue 48, items 6 and 8): no engine outlives a
//! tuner killed with SIGKILL; a damaged journal line stops a resume, naming file and line; and
//! every command starts from an empty directory holding nothing but the two binaries (engine
//! defaults next to the tuner, config paths relative to the config file).

mod common;

use std::{
    io::Read,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    thread,
    time::{Duration, Instant},
};

use common::{TUNER, assert_fails_with, engine_binary, games_in, repo, scratch, text, tuner_ok};

/// Whether `pid` runs (a zombie, waiting for whoever adopted it to reap it, has ended).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses.
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

/// The running children of `pid` with the executable each runs.
fn children(pid: u32) -> Vec<(u32, PathBuf)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(child) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else { continue };
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(1) == Some(&pid.to_string().as_str()) && alive(child) {
            let exe = std::fs::read_link(format!("/proc/{child}/exe")).unwrap_or_default();
            out.push((child, exe));
        }
    }
    out
}

/// Polls `ready` every 20 ms; false once `limit` passed without it.
fn within(limit: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    loop {
        if ready() {
            return true;
        }
        if started.elapsed() >= limit {
            return false;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// Starts the tuner, waits until `engines` children of it run `program`, kills the tuner with
/// SIGKILL and asserts that every one of them has ended within 5 s.
fn killed_tuner_leaves_no_engine(args: &[String], program: &Path, engines: usize) {
    let mut tuner =
        Command::new(TUNER).args(args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("tuner starts");
    let pid = tuner.id();
    let of_program = || children(pid).into_iter().filter(|(_, exe)| exe == program).map(|(p, _)| p).collect::<Vec<_>>();
    let started = within(Duration::from_secs(60), || of_program().len() >= engines);
    let running = of_program();
    // Searching (or waiting for an answer) for a moment first.
    thread::sleep(Duration::from_millis(500));
    tuner.kill().unwrap();
    tuner.wait().unwrap();
    let gone = within(Duration::from_secs(5), || running.iter().all(|&p| !alive(p)));
    let left: Vec<u32> = running.iter().copied().filter(|&p| alive(p)).collect();
    for p in &left {
        let _ = Command::new("kill").args(["-9", &p.to_string()]).status();
    }
    assert!(started, "the tuner never ran {engines} `{}` process(es)", program.display());
    assert!(gone, "still running 5 s after the tuner was killed: {left:?}");
}

#[test]
fn a_match_killed_with_sigkill_leaves_no_engine_searching() {
    let engine = engine_binary();
    let cmd = format!("cmd={}", engine.display());
    let args: Vec<String> = ["match", "-engine", "name=a", &cmd, "-engine", "name=b", &cmd, "-each", "depth=30"]
        .iter()
        .map(|s| s.to_string())
        .chain(["-games", "2", "-concurrency", "1"].map(String::from))
        .collect();
    killed_tuner_leaves_no_engine(&args, &engine.canonicalize().unwrap(), 2);
}

/// An engine that ignores its input and would live for 1000 s: only the kernel's parent-death
/// signal ends it with the tuner.
#[test]
fn a_match_killed_with_sigkill_leaves_no_engine_that_ignores_its_input() {
    let sleep = Path::new("/bin/sleep").canonicalize().unwrap();
    let args: Vec<String> = ["match", "-engine", "name=a", "cmd=/bin/sleep", "arg=1000", "-engine", "name=b"]
        .iter()
        .map(|s| s.to_string())
        .chain(["cmd=/bin/sleep", "arg=1000", "-each", "depth=1", "-games", "2", "-concurrency", "2"].map(String::from))
        .collect();
    // The first engine's handshake is awaited before the second starts.
    killed_tuner_leaves_no_engine(&args, &sleep, 1);
}

#[test]
fn a_damaged_journal_line_stops_a_resume_naming_file_and_line() {
    let dir = scratch("processes", "journal");
    let engine = engine_binary();
    let state = dir.join("state.jsonl");
    let cmd = format!("cmd={}", engine.display());
    let state_arg = state.display().to_string();
    let mut args = vec!["match", "-engine", "name=a", &cmd, "-engine", "name=b", &cmd, "-each", "nodes=200"];
    args.extend(["-games", "4", "-maxmoves", "20", "-state", &state_arg]);
    tuner_ok(&args);
    let journal = std::fs::read_to_string(&state).unwrap();
    let mut lines: Vec<&str> = journal.lines().collect();
    assert!(lines.len() >= 3, "a header and at least two units: {journal}");
    lines[1] = "{\"unit\": 0, \"games\": [oops";
    std::fs::write(&state, lines.join("\n") + "\n").unwrap();
    let before = std::fs::read(&state).unwrap();
    args.push("-resume");
    assert_fails_with(&args, &format!("state file `{}`: line 2", state.display()));
    assert_eq!(std::fs::read(&state).unwrap(), before, "the refused resume changed the journal");
}

/// An empty directory with nothing but copies of the two binaries in `bin/` and an empty working
/// directory `work/`; returns (tuner, engine, work). Under cargo's target directory, so that the
/// copies can be hard links.
fn bare_install(name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bare-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (bin, work) = (root.join("bin"), root.join("work"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let place = |from: &Path, to: &Path| {
        if std::fs::hard_link(from, to).is_err() {
            std::fs::copy(from, to).unwrap();
        }
    };
    let (tuner, engine) = (bin.join("tuner"), bin.join("evochess"));
    place(Path::new(TUNER), &tuner);
    place(&engine_binary(), &engine);
    (tuner, engine, work)
}

/// Runs `tuner args` in `work` until it succeeds, or until `started` holds for the running
/// process (then it is killed); fails the test, with its log, if it fails or never gets there.
fn starts(tuner: &Path, work: &Path, args: &[&str], started: impl Fn(&mut Child) -> bool) {
    let log = work.join(format!("{}.log", args[0]));
    let mut child = Command::new(tuner)
        .args(args)
        .current_dir(work)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("tuner starts");
    let deadline = Instant::now() + Duration::from_secs(240);
    let ok = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.success();
        }
        if started(&mut child) {
            let _ = child.kill();
            let _ = child.wait();
            break true;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        thread::sleep(Duration::from_millis(20));
    };
    let mut logged = String::new();
    std::fs::File::open(&log).unwrap().read_to_string(&mut logged).unwrap();
    assert!(ok, "tuner {args:?} in an empty directory: {logged}");
    assert!(!logged.contains("panicked"), "{logged}");
}

/// Whether the tuner runs `engine` (the evochess next to it) as a child: the command has read
/// its config and found its engine, and plays.
fn runs(engine: &Path) -> impl Fn(&mut Child) -> bool {
    let engine = engine.canonicalize().unwrap();
    move |child: &mut Child| children(child.id()).iter().any(|(_, exe)| *exe == engine)
}

#[test]
fn every_command_starts_from_an_empty_directory_with_only_the_two_binaries() {
    let (tuner, engine, work) = bare_install("commands");
    let cmd = format!("cmd={}", engine.display());
    // Runner commands, without -openings: the built-in book.
    for sub in ["match", "gauntlet"] {
        let pgn = format!("{sub}.pgn");
        let args = ["-engine", "name=a", &cmd, "-engine", "name=b", &cmd, "-each", "nodes=100", "-games", "2"];
        let mut all = vec![sub];
        all.extend(args);
        all.extend(["-maxmoves", "10", "-pgnout", &pgn]);
        starts(&tuner, &work, &all, |_| false);
        assert_eq!(games_in(&work.join(&pgn)), 2, "{sub}");
    }
    // Commands whose engine defaults to the one next to the tuner: they start once it plays.
    starts(&tuner, &work, &["quick", "--generations", "1", "--out", "quick-out"], runs(&engine));
    starts(&tuner, &work, &["roundrobin-ga", "--generations", "1", "--out", "rrga-out"], runs(&engine));
    let spsa = repo().join("configs/spsa/search.toml").canonicalize().unwrap();
    starts(&tuner, &work, &["spsa", "--config", spsa.to_str().unwrap()], runs(&engine));
    assert!(work.join("runs/spsa").is_dir(), "spsa writes under the working directory");
    let _ = std::fs::remove_dir_all(work.parent().unwrap());
}

/// Whether `pid` has a file open whose path contains `needle`.
fn has_open(pid: u32, needle: &str) -> bool {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return false };
    fds.flatten().any(|fd| std::fs::read_link(fd.path()).is_ok_and(|p| p.to_string_lossy().contains(needle)))
}

#[test]
#[ignore = "needs ../shared/data"]
fn texel_starts_from_an_empty_directory_with_its_shipped_config() {
    // The shipped config names the GM games under ../shared/data relative to itself.
    common::shared_data("games/gm2600_classical.pgn.xz");
    let (tuner, _, work) = bare_install("texel");
    let texel = repo().join("configs/texel/default.toml").canonicalize().unwrap();
    let args = ["texel", "--config", texel.to_str().unwrap(), "--generations", "1"];
    // Started once it reads the games (space and base read, the output directory taken): the
    // file is open while it is read, or the log says what it read (a read of a cached file can
    // fall between two polls).
    let log = work.join("texel.log");
    let read = |child: &mut Child| {
        has_open(child.id(), "gm2600_") || std::fs::read_to_string(&log).is_ok_and(|l| l.contains("positions:"))
    };
    starts(&tuner, &work, &args, read);
    assert!(work.join("runs/texel").is_dir(), "texel writes under the working directory");
    let _ = std::fs::remove_dir_all(work.parent().unwrap());
}

#[test]
fn an_spsa_config_names_its_files_relative_to_itself() {
    let dir = scratch("processes", "spsa-relative");
    std::fs::create_dir_all(dir.join("conf/lines")).unwrap();
    std::fs::write(dir.join("conf/lines/x.txt"), "no such parameter, int, 1, 0, 2, 1, 0.002\n").unwrap();
    std::fs::write(dir.join("conf/spsa.toml"), "params = \"lines/x.txt\"\nnodes = 1000\n").unwrap();
    let config = dir.join("conf/spsa.toml");
    let out =
        Command::new(TUNER).args(["spsa", "--config", config.to_str().unwrap()]).current_dir(&dir).output().unwrap();
    let err = text(&out.stderr);
    // Found (next to the config, not in the working directory) and then refused for its text.
    assert!(!out.status.success() && err.contains("is not an engine parameter"), "{err}");
}

/// Every command that reads a config with paths (evolve, search-evolve, coevolve, quick,
/// roundrobin-ga, pipeline) finds the files it names relative to the config file, run from
/// another working directory: the engine, spaces, suites, books and parameter files below
/// `conf/` are reached only that way, and the outputs land in the working directory.
#[test]
fn every_config_names_its_files_relative_to_itself() {
    let (tuner, _, work) = bare_install("relative");
    let conf = work.parent().unwrap().join("conf");
    for sub in ["engine", "spaces", "suites", "pop", "stages"] {
        std::fs::create_dir_all(conf.join(sub)).unwrap();
    }
    // The engine the configs name: a link of its own, so that running it shows which was used
    // (the tuner's default is the one beside it in bin/).
    let engine = conf.join("engine/evochess");
    std::fs::hard_link(engine_binary(), &engine)
        .or_else(|_| std::fs::copy(engine_binary(), &engine).map(|_| ()))
        .unwrap();
    let copy = |from: PathBuf, to: &str| {
        std::fs::copy(&from, conf.join(to)).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    };
    copy(repo().join("tuner/tests/data/piece-space.toml"), "spaces/piece.toml");
    copy(repo().join("configs/spaces/roundrobin-ga-aksenov.toml"), "spaces/rrga.toml");
    copy(repo().join("configs/spaces/search-evolve-paper.toml"), "spaces/search.toml");
    copy(repo().join("openings/gnuchess-8ply.epd"), "book.epd");
    copy(repo().join("tests/data/wac.epd"), "suites/wac.epd");
    copy(repo().join("tuner/tests/data/evolve_small.pgn"), "games.pgn");
    std::fs::write(conf.join("init.toml"), evochess::params::Params::default().to_toml()).unwrap();
    for i in 1..=2 {
        let mut p = evochess::params::Params::default();
        p.eval.knight_mg += 10 * i;
        std::fs::write(conf.join(format!("pop/run-{i}.toml")), p.to_toml()).unwrap();
    }
    let write = |name: &str, text: &str| {
        let path = conf.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };

    let evolve = write(
        "evolve.toml",
        "space = \"spaces/piece.toml\"\nout_dir = \"evolve-out\"\n[positions]\ntrain = 3\ntest = 2\n\
         [ga]\npopulation = 4\ngenerations = 1\n[init]\nfile = \"init.toml\"\nmutation_rate = 0.0\n",
    );
    let pgn = conf.join("games.pgn").display().to_string();
    starts(&tuner, &work, &["evolve", "--pgn", &pgn, "--config", &evolve], |_| false);
    assert!(work.join("evolve-out/evolved/run-1.toml").is_file(), "evolve writes under the working directory");

    let search = write(
        "search-evolve.toml",
        "space = \"spaces/search.toml\"\nparams = \"init.toml\"\nsuites = [\"suites/wac.epd\"]\n\
         held = [\"suites/wac.epd\"]\nmax_positions = 2\nnode_cap = 1000\nout_dir = \"se-out\"\n\
         output = \"se.toml\"\n[ga]\npopulation = 4\ngenerations = 1\n",
    );
    starts(&tuner, &work, &["search-evolve", "--config", &search], |_| false);
    assert!(work.join("se.toml").is_file());

    // The game-playing commands: started once they run the engine the config names.
    let coevolve = write(
        "coevolve.toml",
        "engine = \"engine/evochess\"\npopulation_dir = \"pop\"\nopenings = \"book.epd\"\nnodes = 100\n\
         concurrency = 1\nopenings_per_pair = 1\nmaxmoves = \"20\"\nout_dir = \"co-out\"\n[ga]\ngenerations = 1\n",
    );
    starts(&tuner, &work, &["coevolve", "--config", &coevolve], runs(&engine));
    let quick = write(
        "quick.toml",
        "engine = \"engine/evochess\"\nopenings = \"book.epd\"\npopulation = 5\ngenerations = 1\nnodes = 100\n\
         max_moves = 10\nout_dir = \"quick-out\"\n",
    );
    starts(&tuner, &work, &["quick", "--config", &quick], runs(&engine));
    let rrga = write(
        "rrga.toml",
        "engine = \"engine/evochess\"\nspace = \"spaces/rrga.toml\"\nopenings = \"book.epd\"\npopulation = 3\n\
         generations = 1\ndepth = 1\nmax_moves = 10\nout_dir = \"rrga-out\"\n[verify]\ngames = 0\nopenings = \"book.epd\"\n",
    );
    starts(&tuner, &work, &["roundrobin-ga", "--config", &rrga], runs(&engine));
    for out in ["co-out", "quick-out", "rrga-out"] {
        assert!(work.join(out).is_dir(), "{out} is under the working directory");
    }

    // The pipeline names its stage file relative to itself, and the stage file its space
    // relative to itself: the space's unknown key shows both were found.
    std::fs::write(
        conf.join("spaces/bad.toml"),
        "encoding = \"gray\"\n[[gene]]\nname = \"g\"\nkeys = [\"zz_relative\"]\nmin = 0\nmax = 1\nbits = 1\n",
    )
    .unwrap();
    std::fs::write(
        conf.join("stages/evolve.toml"),
        "space = \"../spaces/bad.toml\"\n[ga]\npopulation = 4\ngenerations = 1\n",
    )
    .unwrap();
    let pipeline = write(
        "pipeline.toml",
        "out_dir = \"pipeline-out\"\npgn = [\"games.pgn\"]\n[evolve]\nconfig = \"stages/evolve.toml\"\n\
         [verify]\nsuites = [\"suites/wac.epd\"]\nopenings = \"book.epd\"\nopponents = []\n",
    );
    let out = Command::new(&tuner).args(["pipeline", &pipeline]).current_dir(&work).output().unwrap();
    let err = text(&out.stderr);
    assert!(!out.status.success() && err.contains("zz_relative"), "{err}");
    let _ = std::fs::remove_dir_all(work.parent().unwrap());
}
