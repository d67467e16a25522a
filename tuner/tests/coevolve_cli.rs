//! `tuner coevolve` as a user runs it: real `evochess` processes, node-limited games, files on
//! disk, kill -9 and `--resume`.

mod common;

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use common::{
    assert_fails_with, engine_binary, games_in, kill_9_when, manifest, repo, scratch, text, tuner_err, tuner_ok,
};
use evochess::params::Params;

/// `n` parameter files that differ in their piece values, as `tuner evolve` would leave them.
fn population(dir: &Path, n: usize) -> PathBuf {
    let pop = dir.join("evolved");
    std::fs::create_dir_all(&pop).unwrap();
    for i in 0..n {
        let mut p = Params::default();
        p.eval.knight_mg = 250 + 40 * i as i32;
        p.eval.knight_eg = p.eval.knight_mg;
        p.eval.rook_mg = 600 - 30 * i as i32;
        std::fs::write(pop.join(format!("run-{}.toml", i + 1)), p.to_toml()).unwrap();
    }
    pop
}

/// A config for fast node-limited games.
fn config(dir: &Path, organisms: usize, generations: usize, nodes: u64) -> PathBuf {
    let pop = population(dir, organisms);
    // No `output`: the best organism must land under out_dir (`out/coevolved.toml`).
    let cfg = dir.join("coevolve.toml");
    std::fs::write(
        &cfg,
        format!(
            "population_dir = {pop:?}\nspace = {:?}\nengine = {:?}\nnodes = {nodes}\ntc = \"60+1\"\nconcurrency = 1\n\
             openings = {:?}\nopenings_per_pair = 1\nmaxmoves = \"60\"\nresign = \"movecount=3 score=600\"\n\
             out_dir = {:?}\n[ga]\ngenerations = {generations}\n",
            manifest().join("../configs/spaces/evolve-paper.toml"),
            engine_binary(),
            manifest().join("../openings/gnuchess-8ply.epd"),
            dir.join("out"),
        ),
    )
    .unwrap();
    cfg
}

#[test]
fn coevolution_plays_round_robins_and_writes_the_best() {
    let dir = scratch("coevolve", "basic");
    let cfg = config(&dir, 3, 2, 300);
    let out = tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap()]);
    assert!(text(&out.stdout).contains("best of the last"), "{}", text(&out.stdout));
    let shown = std::path::absolute(dir.join("out/coevolved.toml")).unwrap();
    assert!(text(&out.stdout).contains(&format!("evochess --params {}", shown.display())), "{}", text(&out.stdout));
    let best = Params::load(dir.join("out/coevolved.toml")).unwrap();
    // The evaluation chromosome keeps the space's fixed pawn value and tied keys.
    assert_eq!(best.eval.pawn_mg, 100);
    assert_eq!(best.eval.knight_mg, best.eval.knight_eg);
    for g in 0..2 {
        let gdir = dir.join(format!("out/gen-{g:03}"));
        // 3 organisms: 3 encounters x 2 games (one opening, both colours).
        assert_eq!(games_in(&gdir.join("games.pgn")), 6, "generation {g}");
        let cross = std::fs::read_to_string(gdir.join("crosstable.csv")).unwrap();
        assert_eq!(cross.lines().count(), 4, "{cross}");
        // Every organism's row sums its points against the others: 6 games, 6 points in all.
        let total: f64 = cross.lines().skip(1).map(|l| l.split(',').nth(5).unwrap().parse::<f64>().unwrap()).sum();
        assert_eq!(total, 6.0, "{cross}");
        for i in 0..3 {
            Params::load(gdir.join(format!("g{g}o{i}.toml"))).unwrap();
        }
    }
    let csv = std::fs::read_to_string(dir.join("out/generations.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    // The noise check: generation 1's carried-over best has a rank in 1..=3, generation 0 none.
    let lines: Vec<&str> = csv.lines().collect();
    let at = lines[0].split(',').position(|h| h == "elite_rank").unwrap_or_else(|| panic!("no elite_rank: {csv}"));
    let rank = |line: &str| line.split(',').nth(at).unwrap().to_string();
    assert_eq!(rank(lines[1]), "");
    assert!(matches!(rank(lines[2]).as_str(), "1" | "2" | "3"), "{csv}");
    assert!(text(&out.stdout).contains("fitness noise check"), "{}", text(&out.stdout));
    assert!(std::fs::read_to_string(dir.join("out/coevolution.svg")).unwrap().contains("<svg"));
    // Without --resume an existing run is not overwritten; with it the finished run is reported again.
    let err = tuner_err(&["coevolve", "--config", cfg.to_str().unwrap()]);
    assert!(err.contains("--resume"), "{err}");
    tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap(), "--resume"]);
    assert_eq!(games_in(&dir.join("out/gen-001/games.pgn")), 6, "no game replayed");
}

/// `--resume-or-start`, what bench/coevolve_*.sh run: a new run in an empty directory, the
/// run there continued (its finished generations kept) when one exists.
#[test]
fn resume_or_start_starts_a_run_then_continues_it() {
    let dir = scratch("coevolve", "resume-or-start");
    let cfg = config(&dir, 3, 1, 300);
    let c = cfg.to_str().unwrap();
    tuner_ok(&["coevolve", "--config", c, "--resume-or-start"]);
    let first = std::fs::read(dir.join("out/gen-000/games.pgn")).unwrap();
    assert!(!dir.join("out/gen-001").exists());
    tuner_ok(&["coevolve", "--config", c, "--generations", "2", "--resume-or-start"]);
    assert_eq!(std::fs::read(dir.join("out/gen-000/games.pgn")).unwrap(), first, "generation 0 replayed");
    assert_eq!(games_in(&dir.join("out/gen-001/games.pgn")), 6);
    assert_fails_with(&["coevolve", "--config", c, "--resume-or-start", "--resume"], "--resume");
}

#[test]
fn bad_configuration_is_a_clear_error() {
    let dir = scratch("coevolve", "bad");
    let cfg = config(&dir, 3, 2, 300);
    let c = cfg.to_str().unwrap();
    assert_fails_with(&["coevolve", "--config", "/no/such.toml"], "/no/such.toml");
    assert_fails_with(&["coevolve", "--config", c, "--population-dir", "/no/such/dir"], "/no/such/dir");
    assert_fails_with(&["coevolve", "--config", c, "--tc", "5+x"], "5+x");
    assert_fails_with(&["coevolve", "--config", c, "--engine", "/no/such/engine"], "/no/such/engine");
    // The one-point optimisers evolve and search-evolve run have no population to coevolve:
    // refused before the population is read.
    let good = std::fs::read_to_string(&cfg).unwrap();
    for optimiser in ["local", "spsa"] {
        let expected = format!("optimiser.kind = \"{optimiser}\": coevolve runs the GA or CMA-ES");
        // The `[optimiser]` table, and the older `[ga] optimiser` key.
        for keys in [format!("[optimiser]\nkind = \"{optimiser}\"\n"), format!("optimiser = \"{optimiser}\"\n")] {
            std::fs::write(&cfg, format!("{good}{keys}")).unwrap();
            assert_fails_with(&["coevolve", "--config", c, "--population-dir", "/no/such/dir"], &expected);
        }
    }
    std::fs::write(&cfg, good).unwrap();
    std::fs::write(dir.join("evolved/run-2.toml"), "[eval]\nknight_mgg = 3\n").unwrap();
    assert_fails_with(&["coevolve", "--config", c], "knight_mgg");
}

/// Journal lines after the header: (unit id, PGN length after it).
fn journal(path: &Path) -> Vec<(u64, u64)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .map(|v| (v["unit"].as_u64().unwrap(), v["pgn_len"].as_u64().unwrap()))
        .collect()
}

#[test]
fn kill_9_mid_generation_then_resume_neither_replays_nor_loses_games() {
    let dir = scratch("coevolve", "kill");
    let cfg = config(&dir, 4, 2, 2000);
    // 4 organisms: 6 encounters of one game pair per generation.
    let state = dir.join("out/gen-000/games.state.jsonl");
    let args = ["coevolve", "--config", cfg.to_str().unwrap()];
    kill_9_when(&args, Duration::from_secs(60), "2 finished game pairs", || journal(&state).len() >= 2);
    let before = journal(&state);
    assert!(before.len() < 6, "killed after the whole generation");
    let pgn = dir.join("out/gen-000/games.pgn");
    let kept = std::fs::read(&pgn).unwrap();
    let recorded = before.last().unwrap().1 as usize;
    assert!(kept.len() >= recorded);

    tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap(), "--resume"]);
    let after = journal(&state);
    // The pairs finished before the kill are kept as they were, and each pair appears once.
    assert_eq!(&after[..before.len()], &before[..]);
    let mut units: Vec<u64> = after.iter().map(|u| u.0).collect();
    units.sort_unstable();
    assert_eq!(units, (0..6).collect::<Vec<_>>());
    let full = std::fs::read(&pgn).unwrap();
    assert_eq!(&full[..recorded], &kept[..recorded], "games finished before the kill were rewritten");
    assert_eq!(games_in(&pgn), 12);
    assert_eq!(games_in(&dir.join("out/gen-001/games.pgn")), 12);
    let csv = std::fs::read_to_string(dir.join("out/generations.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    Params::load(dir.join("out/coevolved.toml")).unwrap();
}

/// Issue 45, acceptance 0: under the default config (no `space`: the whole declared
/// evaluation) every generation-0 organism file is its seed file, value for value, and the log
/// says the space changed nothing.
#[test]
fn generation_0_holds_the_seed_files_value_for_value() {
    let dir = scratch("coevolve", "seeds");
    let pop = dir.join("seeds");
    std::fs::create_dir_all(&pop).unwrap();
    let repo = manifest().join("..");
    let seeds = [
        "params/default.toml",
        "params/hand-set.toml",
        "params/evolved/evol-star.toml",
        "params/evolved/run-1.toml",
        "params/evolved/compare/cmaes.toml",
    ];
    // Natural name order decides the organisms' order: number the copies.
    for (i, s) in seeds.iter().enumerate() {
        std::fs::copy(
            repo.join(s),
            pop.join(format!("{}-{}", i + 1, Path::new(s).file_name().unwrap().to_str().unwrap())),
        )
        .unwrap();
    }
    let out = dir.join("out");
    let run = common::tuner_logging(
        "info",
        &[
            "coevolve",
            "--population-dir",
            pop.to_str().unwrap(),
            "--nodes",
            "200",
            "--generations",
            "1",
            "--concurrency",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let log = text(&run.stderr);
    assert!(run.status.success(), "{log}");
    assert_eq!(log.matches("(0 values changed)").count(), seeds.len(), "{log}");
    for (i, s) in seeds.iter().enumerate() {
        let seed = Params::load(repo.join(s)).unwrap();
        let organism = Params::load(out.join(format!("gen-000/g0o{i}.toml"))).unwrap();
        assert!(organism == seed, "gen-000/g0o{i}.toml differs from {s}");
    }
    // The seeds differ, so the check above can fail.
    assert_ne!(Params::load(repo.join(seeds[0])).unwrap(), Params::load(repo.join(seeds[4])).unwrap());
}

/// Issue 45, acceptance 4: a newcomer's first run, from an empty directory with nothing but the
/// built binaries (the built-in book, the default config), lists every file it wrote.
#[test]
fn a_random_run_from_an_empty_directory_lists_its_outputs() {
    let dir = scratch("coevolve", "newcomer");
    let run = std::process::Command::new(common::TUNER)
        .args(["coevolve", "--random", "6", "--generations", "2", "--nodes", "2000"])
        .current_dir(&dir)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{}{stdout}", text(&run.stderr));
    let listed: Vec<&str> = stdout
        .lines()
        .skip_while(|l| *l != "output files:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(str::trim)
        .collect();
    let out = Path::new("runs/coevolve");
    for file in ["coevolved.toml", "generations.csv", "coevolution.svg", "checkpoint.json"] {
        assert!(listed.contains(&out.join(file).to_str().unwrap()), "{file} not listed: {stdout}");
    }
    for g in 0..2 {
        for file in ["games.pgn", "results.json", "crosstable.csv"] {
            let path = out.join(format!("gen-{g:03}/{file}"));
            assert!(listed.contains(&path.to_str().unwrap()), "{} not listed: {stdout}", path.display());
        }
        let organisms = format!("runs/coevolve/gen-{g:03}/g{g}o0.toml ... g{g}o5.toml (6 organisms)");
        assert!(listed.contains(&organisms.as_str()), "{stdout}");
    }
    // Generation 1's champion met generation 0's in the reference games the chart shows.
    assert!(listed.contains(&"runs/coevolve/gen-001/reference.pgn"), "{stdout}");
    assert_eq!(games_in(&dir.join("runs/coevolve/gen-001/reference.pgn")), 8);
    assert!(stdout.contains("vs generation 0's champion"), "{stdout}");
    // Every listed file exists, and nothing was written outside runs/coevolve.
    for line in &listed {
        let path = line.split(" ... ").next().unwrap();
        assert!(dir.join(path).is_file(), "{path} listed but absent");
    }
    let entries = |d: &Path| -> Vec<_> { std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect() };
    assert_eq!(entries(&dir), vec![std::ffi::OsString::from("runs")]);
    assert_eq!(entries(&dir.join("runs")), vec![std::ffi::OsString::from("coevolve")]);
    Params::load(dir.join("runs/coevolve/coevolved.toml")).unwrap();
}

#[test]
fn a_missing_population_directory_says_how_to_start() {
    let dir = scratch("coevolve", "nopop");
    // `--config paper` reads params/evolved/pipeline-evol-star/evolved (the paper's ten runs).
    let run = std::process::Command::new(common::TUNER)
        .args(["coevolve", "--config", "paper", "--nodes", "100"])
        .current_dir(&dir)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap();
    let err = text(&run.stderr);
    assert!(!run.status.success());
    for needle in ["params/evolved", "no such directory", "--random N", "--population-dir DIR"] {
        assert!(err.contains(needle), "stderr lacks `{needle}`: {err}");
    }
}

/// A parameter file far weaker than the default: piece values upside down (a pawn worth two
/// knights, a queen barely a rook and a half), so it gives pieces away.
fn broken(path: &Path, knight: i32) -> PathBuf {
    let mut p = Params::default();
    (p.eval.pawn_mg, p.eval.pawn_eg) = (200, 250);
    (p.eval.knight_mg, p.eval.knight_eg) = (knight, knight);
    (p.eval.bishop_mg, p.eval.bishop_eg) = (100, 100);
    (p.eval.rook_mg, p.eval.rook_eg) = (200, 200);
    (p.eval.queen_mg, p.eval.queen_eg) = (400, 400);
    std::fs::write(path, p.to_toml()).unwrap();
    path.to_path_buf()
}

/// A config of fast node-limited games over the population `seeds` (copied, in this order), the
/// whole evaluation as the space (so organisms are their files value for value), no reference
/// games: `top` adds top-level keys, `tables` tables after `[ga]`.
fn seeded_config(dir: &Path, seeds: &[PathBuf], generations: usize, top: &str, tables: &str) -> PathBuf {
    let pop = dir.join("seeds");
    std::fs::create_dir_all(&pop).unwrap();
    for (i, s) in seeds.iter().enumerate() {
        std::fs::copy(s, pop.join(format!("{}-{}", i + 1, s.file_name().unwrap().to_str().unwrap()))).unwrap();
    }
    let cfg = dir.join("coevolve.toml");
    std::fs::write(
        &cfg,
        format!(
            "population_dir = {pop:?}\nengine = {:?}\nnodes = 500\ntc = \"60+1\"\nconcurrency = 1\n\
             openings = {:?}\nmaxmoves = \"80\"\nresign = \"movecount=3 score=600\"\nreference_games = 0\n\
             out_dir = {:?}\n{top}[ga]\ngenerations = {generations}\n{tables}",
            engine_binary(),
            manifest().join("../openings/gnuchess-8ply.epd"),
            dir.join("out"),
        ),
    )
    .unwrap();
    cfg
}

/// A config for the SPRT gate's tests: a gate with wide bounds and a small cap (a crushed side
/// is decided in about six game pairs).
fn gate_config(dir: &Path, seeds: &[PathBuf], start: &Path, generations: usize) -> PathBuf {
    let gate = format!(
        "[champion]\ngate = \"sprt\"\nstart = {start:?}\nelo0 = 0\nelo1 = 100\nalpha = 0.1\nbeta = 0.1\nmax_games = 40\n"
    );
    seeded_config(dir, seeds, generations, "openings_per_pair = 1\n", &gate)
}

/// The challenges the run printed (`generation G: ...` lines of the champion chain).
fn chain(stdout: &str) -> Vec<String> {
    stdout.lines().filter(|l| l.starts_with("  generation ")).map(|l| l.trim().to_string()).collect()
}

/// Issue 45, the SPRT-gated champion: a population that cannot beat the start never replaces
/// it, so the output is the start file value for value.
#[test]
fn with_the_gate_a_weaker_population_leaves_the_start_as_the_output() {
    let dir = scratch("coevolve", "gate-keeps");
    let seeds = [broken(&dir.join("broken.toml"), 100), broken(&dir.join("broken-b.toml"), 150)];
    let start = repo().join("params/default.toml");
    let cfg = gate_config(&dir, &seeds, &start, 1);
    let out = tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    let lines = chain(&stdout);
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(lines[0].starts_with("generation 0: g0o"), "{stdout}");
    assert!(
        lines[0].contains(" vs start: rejected") && lines[0].contains("SPRT normalized elo0=0 elo1=100"),
        "{stdout}"
    );
    assert!(stdout.contains("no challenger passed the gate"), "{stdout}");
    let output = Params::load(dir.join("out/coevolved.toml")).unwrap();
    assert!(output == Params::load(&start).unwrap(), "the output is not params/default.toml value for value");
    // The test's games are the runner's, journaled and listed in champions.csv.
    let games = games_in(&dir.join("out/gen-000/champion.pgn"));
    assert!((2..=40).contains(&games), "{games} games");
    let csv = std::fs::read_to_string(dir.join("out/champions.csv")).unwrap();
    let row = csv.lines().nth(1).unwrap();
    assert!(row.contains(",start,") && row.contains(&format!(",{games},\"SPRT normalized")), "{csv}");
}

/// Issue 45, the SPRT-gated champion: a clearly stronger challenger (params/default.toml
/// against a start that gives pieces away) passes and becomes the output.
#[test]
fn with_the_gate_a_stronger_challenger_becomes_the_output() {
    let dir = scratch("coevolve", "gate-promotes");
    let start = broken(&dir.join("start.toml"), 100);
    let seeds = [repo().join("params/default.toml"), broken(&dir.join("broken-b.toml"), 150)];
    let cfg = gate_config(&dir, &seeds, &start, 1);
    let out = tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    let lines = chain(&stdout);
    // Organism 0 is params/default.toml: it wins the round robin (a tie goes to it too).
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(lines[0].starts_with("generation 0: g0o0 vs start: promoted (H1); SPRT"), "{stdout}");
    assert!(stdout.contains("champion: g0o0 of generation 0, which passed the gate"), "{stdout}");
    let output = Params::load(dir.join("out/coevolved.toml")).unwrap();
    assert!(output == Params::load(repo().join("params/default.toml")).unwrap(), "the output is not the challenger");
    assert!(output != Params::load(&start).unwrap());
    let header = std::fs::read_to_string(dir.join("out/coevolved.toml")).unwrap();
    assert!(header.contains("# generation 0: g0o0 vs start: promoted (H1); SPRT normalized"), "{header}");
    // The start the challenger met is a file of the run.
    assert!(Params::load(dir.join("out/champion-start.toml")).unwrap() == Params::load(&start).unwrap());
}

/// Issue 45, the SPRT-gated champion: a run killed mid-test continues the test from its journal,
/// and one killed after the test does not play it again.
#[test]
fn with_the_gate_kill_9_and_resume_replay_no_test() {
    let dir = scratch("coevolve", "gate-kill");
    let start = broken(&dir.join("start.toml"), 100);
    let seeds = [
        repo().join("params/default.toml"),
        broken(&dir.join("broken-b.toml"), 150),
        broken(&dir.join("broken-c.toml"), 200),
    ];
    let cfg = gate_config(&dir, &seeds, &start, 2);
    let args = ["coevolve", "--config", cfg.to_str().unwrap()];
    let resume = ["coevolve", "--config", cfg.to_str().unwrap(), "--resume"];
    let test = dir.join("out/gen-000/champion.state.jsonl");
    let pgn = dir.join("out/gen-000/champion.pgn");
    // Killed in generation 0's test, after its first game pair.
    kill_9_when(&args, Duration::from_secs(120), "a game pair of the champion test", || !journal(&test).is_empty());
    let before = journal(&test);
    // Resumed, then killed in generation 1: generation 0, its test included, is checkpointed.
    let checkpoint = dir.join("out/checkpoint.json");
    kill_9_when(&resume, Duration::from_secs(120), "generation 0's checkpoint", || checkpoint.is_file());
    let finished = journal(&test);
    assert_eq!(&finished[..before.len()], &before[..], "the pairs played before the kill were changed");
    assert!(finished.len() > before.len(), "the test was over before the first kill");
    common::assert_each_unit_once(&test);
    let (kept_journal, kept_pgn) = (std::fs::read(&test).unwrap(), std::fs::read(&pgn).unwrap());
    assert_eq!(games_in(&pgn), 2 * finished.len());

    let out = tuner_ok(&resume);
    let stdout = text(&out.stdout);
    assert_eq!(std::fs::read(&test).unwrap(), kept_journal, "generation 0's finished test was played again");
    assert_eq!(std::fs::read(&pgn).unwrap(), kept_pgn);
    let lines = chain(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("generation 0: g0o0 vs start: promoted (H1)"), "{stdout}");
    assert!(lines[1].starts_with("generation 1: g1o") && lines[1].contains(" vs g0o0: "), "{stdout}");
    assert!(lines[0].contains(&format!("games {}:", 2 * finished.len())), "{stdout}");
    let output = Params::load(dir.join("out/coevolved.toml")).unwrap();
    // The champion is g0o0, or generation 1's best if it passed its own test.
    let name = stdout.lines().find_map(|l| l.strip_prefix("champion: ")).and_then(|l| l.split(' ').next());
    let file = match name {
        Some(n @ ("g0o0" | "g1o0" | "g1o1" | "g1o2")) => format!("out/gen-00{}/{n}.toml", &n[1..2]),
        other => panic!("champion {other:?}\n{stdout}"),
    };
    assert!(output == Params::load(dir.join(&file)).unwrap(), "the output is not {file}");
}

/// The SPRT-gated champion across machines: a run is carried on from its small files alone
/// (`checkpoint.json`, `generations.csv`, `champions.csv`), without its `gen-NNN` directories;
/// the champion's file and generation 0's are rewritten from the config and the checkpoint.
#[test]
fn with_the_gate_the_checkpoint_alone_resumes_the_run() {
    let dir = scratch("coevolve", "gate-checkpoint");
    let start = broken(&dir.join("start.toml"), 100);
    let seeds = [repo().join("params/default.toml"), broken(&dir.join("broken-b.toml"), 150)];
    let cfg = gate_config(&dir, &seeds, &start, 1);
    let c = cfg.to_str().unwrap();
    tuner_ok(&["coevolve", "--config", c]);
    let out = dir.join("out");
    for entry in std::fs::read_dir(&out).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap();
        if path.is_dir() {
            std::fs::remove_dir_all(&path).unwrap();
        } else if !["checkpoint.json", "generations.csv", "champions.csv"].contains(&name) {
            std::fs::remove_file(&path).unwrap();
        }
    }
    let run = common::tuner_logging("info", &["coevolve", "--config", c, "--generations", "2", "--resume-or-start"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    let lines = chain(&stdout);
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("generation 0: g0o0 vs start: promoted (H1)"), "{stdout}");
    assert!(lines[1].starts_with("generation 1: g1o") && lines[1].contains(" vs g0o0: "), "{stdout}");
    let stderr = text(&run.stderr);
    assert!(stderr.contains("rewriting generation 0's missing organism files"), "{stderr}");
    // The champion g0o0 is params/default.toml value for value, the seed it was.
    let default = Params::load(repo().join("params/default.toml")).unwrap();
    assert!(Params::load(out.join("gen-000/g0o0.toml")).unwrap() == default);
    let name = stdout.lines().find_map(|l| l.strip_prefix("champion: ")).and_then(|l| l.split(' ').next());
    if name == Some("g0o0") {
        assert!(Params::load(out.join("coevolved.toml")).unwrap() == default, "the output is not the champion");
    }
}

/// A racing config (issue 45): `racing_games` games a generation.
fn racing_config(dir: &Path, seeds: &[PathBuf], generations: usize, racing_games: u64) -> PathBuf {
    let top = format!("selection = \"racing\"\nracing_games = {racing_games}\n");
    seeded_config(dir, seeds, generations, &top, "")
}

/// params/default.toml and three files that give pieces away.
fn racing_seeds(dir: &Path) -> Vec<PathBuf> {
    vec![
        repo().join("params/default.toml"),
        broken(&dir.join("broken-a.toml"), 100),
        broken(&dir.join("broken-b.toml"), 150),
        broken(&dir.join("broken-c.toml"), 200),
    ]
}

/// The cells of a CSV line.
fn cells(line: &str) -> Vec<&str> {
    line.split(',').collect()
}

/// Issue 45, `selection = "racing"`: rounds of game pairs within the budget, Bradley–Terry
/// ratings as fitness, the cross table and generations.csv reporting them.
#[test]
fn racing_rates_the_organisms_within_its_game_budget() {
    let dir = scratch("coevolve", "racing");
    let cfg = racing_config(&dir, &racing_seeds(&dir), 2, 24);
    let out = tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("racing rating") && stdout.contains("racing: "), "{stdout}");
    let csv = std::fs::read_to_string(dir.join("out/generations.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    let header = cells(lines[0]);
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no {name}: {csv}"));
    for g in 0..2 {
        let row = cells(lines[g + 1]);
        let gdir = dir.join(format!("out/gen-{g:03}"));
        // Every round's games are in its PGN and journal, and they add up to the generation's
        // games, within the budget.
        let rounds: usize = row[column("race_rounds")].parse().unwrap();
        assert!(rounds >= 1, "{csv}");
        let mut games = 0;
        for r in 1..=rounds {
            let journal = gdir.join(format!("race-{r:02}.state.jsonl"));
            common::assert_each_unit_once(&journal);
            let pgn = games_in(&gdir.join(format!("race-{r:02}.pgn")));
            assert_eq!(pgn, 2 * common::journal_units(&journal).len(), "round {r}");
            games += pgn;
        }
        assert!(!gdir.join(format!("race-{:02}.pgn", rounds + 1)).exists());
        assert_eq!(row[column("games")], games.to_string(), "{csv}");
        assert!((6..=24).contains(&games), "{games} games");
        assert!(matches!(row[column("race_end")], "separated" | "budget"), "{csv}");
        // The cross table: points/games per pair, ratings of mean 0, the best rated highest.
        let cross = std::fs::read_to_string(gdir.join("crosstable.csv")).unwrap();
        let rows: Vec<Vec<&str>> = cross.lines().map(cells).collect();
        assert_eq!(rows.len(), 5, "{cross}");
        let rating_at = rows[0].iter().position(|h| *h == "rating").unwrap();
        assert_eq!(rows[0][rating_at + 1..], ["rating_se", "dropped_after"], "{cross}");
        let ratings: Vec<f64> = rows[1..].iter().map(|r| r[rating_at].parse().unwrap()).collect();
        assert!(ratings.iter().sum::<f64>().abs() < 0.5, "{cross}");
        let best = row[column("best")];
        let top = (0..4).max_by(|&a, &b| ratings[a].total_cmp(&ratings[b]).then(b.cmp(&a))).unwrap();
        assert_eq!(rows[top + 1][0], best, "{cross}");
        assert_eq!(row[column("best_rating")], rows[top + 1][rating_at], "{csv}\n{cross}");
        let mut pair_games = 0;
        for r in &rows[1..] {
            for cell in &r[2..6] {
                if let Some((_, n)) = cell.split_once('/') {
                    pair_games += n.parse::<usize>().unwrap();
                }
            }
        }
        assert_eq!(pair_games, 2 * games, "each game counted once from either side: {cross}");
    }
    // Generation 0: params/default.toml (g0o0) against files that give pieces away is rated best.
    assert_eq!(cells(lines[1])[column("best")], "g0o0", "{csv}");
    let output = Params::load(dir.join("out/coevolved.toml")).unwrap();
    let best = cells(lines[2])[column("best")].to_string();
    assert!(output == Params::load(dir.join(format!("out/gen-001/{best}.toml"))).unwrap());
}

/// Issue 45, racing's resume: a run killed mid-round and again in its second generation, each
/// time resumed, keeps every finished game pair, plays none twice, and ends as the same run
/// uninterrupted (node-limited games are reproducible, and a round's encounters follow from the
/// seed and the games before).
#[test]
fn racing_killed_and_resumed_ends_as_the_uninterrupted_run() {
    let dir = scratch("coevolve", "racing-kill");
    let cfg = racing_config(&dir, &racing_seeds(&dir), 2, 24);
    let args = ["coevolve", "--config", cfg.to_str().unwrap()];
    let resume = ["coevolve", "--config", cfg.to_str().unwrap(), "--resume"];
    let first = dir.join("out/gen-000/race-01.state.jsonl");
    kill_9_when(&args, Duration::from_secs(120), "2 game pairs of the first round", || journal(&first).len() >= 2);
    let before = journal(&first);
    let checkpoint = dir.join("out/checkpoint.json");
    kill_9_when(&resume, Duration::from_secs(180), "generation 0's checkpoint", || checkpoint.is_file());
    let after = journal(&first);
    assert_eq!(&after[..before.len()], &before[..], "the pairs played before the kill were changed");
    tuner_ok(&resume);
    let clean = assert_ends_as_uninterrupted(&dir, "racing-clean", 2, |d| racing_config(d, &racing_seeds(d), 2, 24));
    for g in 0..2 {
        let gdir = dir.join(format!("out/gen-{g:03}"));
        let cdir = clean.join(format!("out/gen-{g:03}"));
        for r in 1.. {
            let journal = gdir.join(format!("race-{r:02}.state.jsonl"));
            if !journal.exists() {
                assert!(!cdir.join(format!("race-{r:02}.state.jsonl")).exists(), "generation {g}: round {r}");
                break;
            }
            common::assert_each_unit_once(&journal);
            let mut units = common::journal_units(&journal);
            units.sort_unstable();
            let mut clean_units = common::journal_units(&cdir.join(format!("race-{r:02}.state.jsonl")));
            clean_units.sort_unstable();
            assert_eq!(units, clean_units, "generation {g}, round {r}");
            assert_eq!(games_in(&gdir.join(format!("race-{r:02}.pgn"))), 2 * units.len());
        }
    }
}

/// Runs `config` uninterrupted in scratch `clean_name` and asserts that the killed and resumed run
/// in `dir` ended the same: each of its `generations` cross tables and the output file. Returns
/// the clean run's directory.
fn assert_ends_as_uninterrupted(
    dir: &Path,
    clean_name: &str,
    generations: usize,
    config: impl Fn(&Path) -> PathBuf,
) -> PathBuf {
    let clean = scratch("coevolve", clean_name);
    tuner_ok(&["coevolve", "--config", config(&clean).to_str().unwrap()]);
    for g in 0..generations {
        let table = |root: &Path| root.join(format!("out/gen-{g:03}/crosstable.csv"));
        let cross = std::fs::read_to_string(table(dir)).unwrap();
        assert_eq!(cross, std::fs::read_to_string(table(&clean)).unwrap(), "generation {g}");
    }
    assert!(
        Params::load(dir.join("out/coevolved.toml")).unwrap()
            == Params::load(clean.join("out/coevolved.toml")).unwrap()
    );
    clean
}

/// Issue 45: a bad `selection`, an odd or too small racing budget are errors naming the key.
#[test]
fn bad_racing_configuration_is_a_clear_error() {
    let dir = scratch("coevolve", "racing-bad");
    let seeds = racing_seeds(&dir);
    for (edit, needle) in [
        (("selection = \"racing\"", "selection = \"racin\""), "selection = \"racin\""),
        (("racing_games = 24", "racing_games = 7"), "racing_games = 7"),
        (("racing_games = 24", "racing_games = 4"), "racing_games = 4: 4 organisms need at least 6"),
        (("racing_games = 24", "racing_games = 24\nracing_confidence = 1.5"), "racing_confidence = 1.5"),
    ] {
        let cfg = racing_config(&dir, &seeds, 1, 24);
        let text = std::fs::read_to_string(&cfg).unwrap().replace(edit.0, edit.1);
        std::fs::write(&cfg, text).unwrap();
        assert_fails_with(&["coevolve", "--config", cfg.to_str().unwrap()], needle);
    }
    assert!(!dir.join("out/gen-000/race-01.pgn").exists(), "no game was played");
}

/// A reference-selection config (issue 45): `pool` is the `[pool]` table's body; `tables` any
/// table after `[ga]` (immigrants).
fn reference_config(dir: &Path, seeds: &[PathBuf], generations: usize, pool: &str, tables: &str) -> PathBuf {
    seeded_config(dir, seeds, generations, "selection = \"reference\"\n", &format!("{tables}[pool]\n{pool}"))
}

/// Issue 45, `selection = "reference"` with its default pool (the run's start, the population's
/// first file) and one immigrant a generation: every organism plays the same games against the
/// pool, fitness is those points (the mean score is not 50% by construction), the cross table
/// has a column per pool member, and the immigrant and the population's diversity are reported.
#[test]
fn reference_selection_scores_every_organism_against_the_same_pool() {
    let dir = scratch("coevolve", "reference");
    let cfg = reference_config(&dir, &racing_seeds(&dir), 2, "games = 4\n", "[ga.immigrants]\ncount = 1\n");
    let out = tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("pool-start.toml"), "the output listing names the pool's file: {stdout}");
    // The default pool is the start, the population's first file, value for value.
    assert!(
        Params::load(dir.join("out/pool-start.toml")).unwrap()
            == Params::load(repo().join("params/default.toml")).unwrap()
    );
    let csv = std::fs::read_to_string(dir.join("out/generations.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    let header = cells(lines[0]);
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no {name}: {csv}"));
    for g in 0..2 {
        let gdir = dir.join(format!("out/gen-{g:03}"));
        common::assert_each_unit_once(&gdir.join("pool.state.jsonl"));
        assert_eq!(games_in(&gdir.join("pool.pgn")), 16, "4 organisms x 1 member x 4 games");
        assert_eq!(cells(lines[g + 1])[column("games")], "16", "{csv}");
        assert!(!gdir.join("games.pgn").exists(), "no round robin");
        let cross = std::fs::read_to_string(gdir.join("crosstable.csv")).unwrap();
        let rows: Vec<Vec<&str>> = cross.lines().map(cells).collect();
        assert_eq!(rows[0][..5], ["organism", "origin", "start", "points", "games"], "{cross}");
        for r in &rows[1..] {
            let (points, games) = r[2].split_once('/').unwrap();
            assert_eq!((points, games), (r[3], "4"), "{cross}");
        }
        let best = cells(lines[g + 1])[column("best")];
        let top =
            rows[1..].iter().max_by(|a, b| a[3].parse::<f64>().unwrap().total_cmp(&b[3].parse().unwrap())).unwrap();
        assert_eq!(top[3], rows[1..].iter().find(|r| r[0] == best).unwrap()[3], "{cross}");
        let diversity: f64 = cells(lines[g + 1])[column("diversity")].parse().unwrap();
        assert!(diversity > 0.0 && diversity <= 1.0, "{csv}");
        if g == 1 {
            assert_eq!(rows[4][1], "\"immigrant\"", "the last slot is the immigrant: {cross}");
        }
    }
    // params/default.toml against itself scores about half; files that give pieces away less.
    assert_eq!(cells(lines[1])[column("best")], "g0o0", "{csv}");
    assert!(cells(lines[1])[column("mean_score")].parse::<f64>().unwrap() < 0.45, "{csv}");
}

/// Issue 45: a pool of a parameter file (relative to the config) and another engine, each with a
/// column; the engine plays under the coevolution's limits.
#[test]
fn a_reference_pool_holds_files_and_engines() {
    let dir = scratch("coevolve", "reference-pool");
    std::fs::copy(repo().join("params/hand-set.toml"), dir.join("hand-set.toml")).unwrap();
    let seeds = &racing_seeds(&dir)[..3];
    let pool = format!(
        "files = [\"hand-set.toml\"]\nengines = [\"cmd={} name=plain\"]\ngames = 2\n",
        engine_binary().display()
    );
    let cfg = reference_config(&dir, seeds, 1, &pool, "");
    tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap()]);
    assert!(!dir.join("out/pool-start.toml").exists());
    assert_eq!(games_in(&dir.join("out/gen-000/pool.pgn")), 12, "3 organisms x 2 members x 2 games");
    let cross = std::fs::read_to_string(dir.join("out/gen-000/crosstable.csv")).unwrap();
    assert!(cross.starts_with("organism,origin,hand-set,plain,points,games,"), "{cross}");
    for row in cross.lines().skip(1) {
        let c = cells(row);
        assert!(c[2].ends_with("/2") && c[3].ends_with("/2") && c[5] == "4", "{cross}");
    }
}

/// Issue 45, reference selection's resume: killed mid-gauntlet and resumed, the run keeps every
/// finished game pair, plays none twice and ends as the same run uninterrupted.
#[test]
fn reference_selection_killed_and_resumed_ends_as_the_uninterrupted_run() {
    let run = |dir: &Path| reference_config(dir, &racing_seeds(dir), 2, "games = 4\n", "");
    let dir = scratch("coevolve", "reference-kill");
    let cfg = run(&dir);
    let args = ["coevolve", "--config", cfg.to_str().unwrap()];
    let resume = ["coevolve", "--config", cfg.to_str().unwrap(), "--resume"];
    let first = dir.join("out/gen-000/pool.state.jsonl");
    kill_9_when(&args, Duration::from_secs(120), "3 game pairs of generation 0", || journal(&first).len() >= 3);
    let before = journal(&first);
    tuner_ok(&resume);
    assert_eq!(&journal(&first)[..before.len()], &before[..], "the pairs played before the kill were changed");
    assert_ends_as_uninterrupted(&dir, "reference-clean", 2, run);
    for g in 0..2 {
        let gdir = dir.join(format!("out/gen-{g:03}"));
        common::assert_each_unit_once(&gdir.join("pool.state.jsonl"));
        assert_eq!(games_in(&gdir.join("pool.pgn")), 16);
    }
}

/// Issue 45: a pool without reference selection, odd pool games, a bad engine string or a
/// missing file, and immigrants that would replace elites are errors naming what was wrong.
#[test]
fn bad_reference_or_immigrant_configuration_is_a_clear_error() {
    let dir = scratch("coevolve", "reference-bad");
    let seeds = racing_seeds(&dir);
    for (pool, tables, needle) in [
        ("games = 3\n", "", "pool.games = 3"),
        ("engines = [\"name=x\"]\n", "", "pool.engines[0] = \"name=x\""),
        ("engines = [\"cmd=/no/such/engine\"]\n", "", "pool.engines[0]"),
        ("files = [\"missing.toml\"]\n", "", "missing.toml"),
        ("games = 2\n", "[ga.immigrants]\ncount = 4\n", "immigrants"),
        ("games = 2\n", "[ga.immigrants]\ncount = 1\nsigma = 0\n", "sigma 0"),
        ("games = 2\n", "[ga.immigrants]\ncount = 1\nkind = \"alien\"\n", "alien"),
    ] {
        let cfg = reference_config(&dir, &seeds, 1, pool, tables);
        assert_fails_with(&["coevolve", "--config", cfg.to_str().unwrap()], needle);
    }
    let cfg = reference_config(&dir, &seeds, 1, "games = 2\n", "");
    let text = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(&cfg, text.replace("selection = \"reference\"", "selection = \"round-robin\"")).unwrap();
    assert_fails_with(
        &["coevolve", "--config", cfg.to_str().unwrap()],
        "[pool] is the opponents of selection = \"reference\"",
    );
    std::fs::write(&cfg, text.replace("selection = \"reference\"", "selection = \"referenc\"")).unwrap();
    assert_fails_with(&["coevolve", "--config", cfg.to_str().unwrap()], "\"reference\"");
    assert!(!dir.join("out/gen-000/pool.pgn").exists(), "no game was played");
}

/// Issue 45, acceptance 2's population: one file and `mutants` of it, each gene moved by 5% of
/// its range, the same on every run with the seed.
#[test]
fn mutants_of_one_file_fill_generation_0() {
    let run = |name: &str| {
        let dir = scratch("coevolve", name);
        let cfg =
            seeded_config(&dir, &[repo().join("params/default.toml")], 1, "mutants = 3\nopenings_per_pair = 1\n", "");
        tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap()]);
        let organisms: Vec<Params> =
            (0..4).map(|i| Params::load(dir.join(format!("out/gen-000/g0o{i}.toml"))).unwrap()).collect();
        let cross = std::fs::read_to_string(dir.join("out/gen-000/crosstable.csv")).unwrap();
        (organisms, cross)
    };
    let (organisms, cross) = run("mutants");
    let start = Params::load(repo().join("params/default.toml")).unwrap();
    assert!(organisms[0] == start, "the file itself is organism 0");
    assert_eq!(cross.matches("\"mutant of 1-default.toml\"").count(), 3, "{cross}");
    let ids: Vec<_> = (0..evochess::params::Params::count()).map(evochess::params::ParamId).collect();
    for (i, m) in organisms.iter().enumerate().skip(1) {
        let moved = ids.iter().filter(|&&id| m.get(id) != start.get(id)).count();
        assert!(moved * 2 > ids.len(), "mutant {i} moves most values ({moved} of {})", ids.len());
        assert!(*m != organisms[1 + i % 3], "mutants differ from one another");
    }
    assert!(organisms == run("mutants-again").0, "the seed decides the mutants");
    let dir = scratch("coevolve", "mutants-bad");
    let cfg = seeded_config(&dir, &[repo().join("params/default.toml")], 1, "mutant_sigma = 0\nmutants = 2\n", "");
    assert_fails_with(&["coevolve", "--config", cfg.to_str().unwrap()], "mutant_sigma = 0");
    let cfg = seeded_config(&dir, &[repo().join("params/default.toml")], 1, "", "");
    assert_fails_with(&["coevolve", "--config", cfg.to_str().unwrap()], "`mutants = N`");
}

/// Issue 45's ladder: a fixed population whose organisms carry node limits of their own (files
/// relative to the config), ranked once; more nodes, more points.
#[test]
fn a_fixed_population_carries_its_own_node_limits() {
    let dir = scratch("coevolve", "ladder");
    std::fs::copy(repo().join("params/default.toml"), dir.join("default.toml")).unwrap();
    let ladder = [100u64, 400, 1600];
    let organisms: String =
        ladder.iter().map(|n| format!("[[organisms]]\nfile = \"default.toml\"\nnodes = {n}\n")).collect();
    let cfg = dir.join("coevolve.toml");
    std::fs::write(
        &cfg,
        format!(
            "engine = {:?}\nnodes = 500\nconcurrency = 2\nopenings = {:?}\nopenings_per_pair = 2\nmaxmoves = \"100\"\n\
             resign = \"movecount=3 score=600\"\nreference_games = 0\nout_dir = {:?}\n[ga]\ngenerations = 1\n{organisms}",
            engine_binary(),
            manifest().join("../openings/gnuchess-8ply.epd"),
            dir.join("out"),
        ),
    )
    .unwrap();
    let out = tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap()]);
    let _ = out;
    let cross = std::fs::read_to_string(dir.join("out/gen-000/crosstable.csv")).unwrap();
    let points: Vec<f64> = cross.lines().skip(1).map(|l| cells(l)[5].parse().unwrap()).collect();
    assert!(points[0] < points[1] && points[1] < points[2], "the ladder's order: {cross}");
    // Ranked once, with positive limits.
    let text = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(&cfg, text.replace("generations = 1", "generations = 2")).unwrap();
    assert_fails_with(&["coevolve", "--config", cfg.to_str().unwrap(), "--force"], "generations must be 1, not 2");
    std::fs::write(&cfg, text.replace("nodes = 400", "nodes = 0")).unwrap();
    assert_fails_with(&["coevolve", "--config", cfg.to_str().unwrap(), "--force"], "organisms[1].nodes");
}

/// Every file under `dir` (relative path, bytes), sorted.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push((p.strip_prefix(root).unwrap().to_path_buf(), std::fs::read(&p).unwrap()));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

#[test]
fn force_with_a_bad_input_leaves_the_old_run_untouched() {
    let dir = scratch("coevolve", "force-inputs");
    let cfg = config(&dir, 2, 1, 100);
    let c = cfg.to_str().unwrap();
    tuner_ok(&["coevolve", "--config", c]);
    let out = dir.join("out");
    let before = snapshot(&out);
    let names: Vec<String> = before.iter().map(|(p, _)| p.display().to_string()).collect();
    assert!(names.contains(&"checkpoint.json".to_string()), "{names:?}");
    assert!(names.contains(&"gen-000/games.state.jsonl".to_string()), "{names:?}");
    let garbage = dir.join("garbage.epd");
    std::fs::write(&garbage, "not a fen\n").unwrap();
    let no_space = dir.join("no-space.toml");
    let text = std::fs::read_to_string(&cfg).unwrap();
    let space = manifest().join("../configs/spaces/evolve-paper.toml");
    std::fs::write(&no_space, text.replace(&format!("{space:?}"), "\"/no/such/space.toml\"")).unwrap();
    let books = dir.join("books");
    std::fs::create_dir_all(&books).unwrap();
    let books = format!("{}/book.epd", books.display());
    std::fs::create_dir_all(&books).unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        // Before: checkpoint.json and the journal went, then the book failed to open.
        (vec!["--config", c, "--openings", "/no/such/book.epd"], "/no/such/book.epd"),
        (vec!["--config", c, "--openings", garbage.to_str().unwrap()], "garbage.epd"),
        (vec!["--config", c, "--openings", &books], "book.epd"),
        (vec!["--config", c, "--engine", "/no/such/engine"], "/no/such/engine"),
        (vec!["--config", c, "--engine", garbage.to_str().unwrap()], "not an executable file"),
        (vec!["--config", "/no/such/config.toml"], "/no/such/config.toml"),
        (vec!["--config", no_space.to_str().unwrap()], "/no/such/space.toml"),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = [&["coevolve"][..], &args, &["--force"]].concat();
        assert_fails_with(&args, needle);
        assert!(snapshot(&out) == before, "{args:?} changed {}", out.display());
    }
    // A good --force still starts over.
    tuner_ok(&["coevolve", "--config", c, "--force", "--seed", "9"]);
    assert!(snapshot(&out) != before);
}

/// Every game of a run's PGNs under `out`, per file: (file, start FEN, White, Black).
fn games_by_file(out: &Path) -> Vec<(PathBuf, String, String, String)> {
    let mut all = Vec::new();
    let mut files = Vec::new();
    for dir in std::fs::read_dir(out).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()) {
        files.extend(
            std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "pgn")),
        );
    }
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for game in text.split("[Event ").skip(1) {
            let tag = |key: &str| {
                game.lines()
                    .find_map(|l| l.strip_prefix(&format!("[{key} \"")))
                    .map(|v| v.trim_end_matches("\"]").to_string())
                    .unwrap_or_else(|| panic!("{}: a game without {key}", file.display()))
            };
            all.push((file.clone(), tag("FEN"), tag("White"), tag("Black")));
        }
    }
    all
}

/// Issue 89 item 2 for the paper's method: with `fresh_openings` a run of racing, reference
/// games and the gate plays every match on openings no other match of the run played, never
/// one held back for confirmation, so no (opening, colours, players, budget) repeats; and it
/// says which openings the confirmation match may use.
#[test]
fn with_fresh_openings_no_game_is_played_twice() {
    let dir = scratch("coevolve", "fresh");
    let start = broken(&dir.join("start.toml"), 100);
    let cfg = seeded_config(
        &dir,
        &racing_seeds(&dir),
        2,
        "selection = \"racing\"\nracing_games = 24\nfresh_openings = true\nconfirmation_openings = 20\n",
        &format!(
            "[champion]\ngate = \"sprt\"\nstart = {start:?}\nelo0 = 0\nelo1 = 100\nalpha = 0.1\nbeta = 0.1\n\
             max_games = 40\n"
        ),
    );
    // seeded_config turns the reference games off; two a generation here.
    let text_cfg = std::fs::read_to_string(&cfg).unwrap().replace("reference_games = 0", "reference_games = 4");
    std::fs::write(&cfg, text_cfg).unwrap();
    let out = tuner_ok(&["coevolve", "--config", cfg.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    let plan = stdout.lines().next().unwrap();
    assert!(
        plan.contains(
            "(200 openings, seed 1), never played twice: the first 20 held back for confirmation, then 34 a \
                       generation"
        ),
        "{plan}"
    );
    assert!(stdout.contains("order=random start=1 --srand 1 --games 40 (and no more)"), "{stdout}");

    let games = games_by_file(&dir.join("out"));
    let files: std::collections::BTreeSet<&PathBuf> = games.iter().map(|g| &g.0).collect();
    let names: Vec<String> =
        files.iter().map(|f| f.strip_prefix(dir.join("out")).unwrap().display().to_string()).collect();
    for expected in ["gen-000/race-01.pgn", "gen-000/champion.pgn", "gen-001/race-01.pgn", "gen-001/reference.pgn"] {
        assert!(names.iter().any(|n| n == expected), "no {expected}: {names:?}");
    }
    let distinct: std::collections::BTreeSet<_> = games.iter().map(|g| (&g.1, &g.2, &g.3)).collect();
    assert_eq!(distinct.len(), games.len(), "a game was played twice");
    // Each opening belongs to one match (a round's encounters share theirs).
    let mut owner: std::collections::BTreeMap<&String, &PathBuf> = std::collections::BTreeMap::new();
    for (file, fen, ..) in &games {
        let first = owner.entry(fen).or_insert(file);
        assert_eq!(*first, file, "opening {fen} played in two matches");
    }
    // None of the 20 held back: the first 20 of the seed-1 permutation the runner deals.
    let book = arena::openings::OpeningsConfig::parse(&[
        format!("file={}", manifest().join("../openings/gnuchess-8ply.epd").display()),
        "order=random".into(),
    ])
    .unwrap();
    let book = arena::openings::OpeningBook::load(&book, 1).unwrap();
    // The position's fields, without the move counters an EPD line lacks.
    let position = |fen: &str| fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    for i in 0..20 {
        let held = position(&book.get(i).fen.expect("an EPD book's openings are positions"));
        assert!(!owner.keys().any(|f| position(f) == held), "held-back opening {held} was played");
    }
}

/// Issue 89 item 2: a book too small for the run's fresh openings, and confirmation openings
/// without them, are refused before any game, naming the numbers.
#[test]
fn fresh_openings_refuse_a_book_too_small() {
    let dir = scratch("coevolve", "fresh-small");
    let cfg = seeded_config(
        &dir,
        &racing_seeds(&dir),
        2,
        "selection = \"racing\"\nracing_games = 24\nfresh_openings = true\nconfirmation_openings = 190\n",
        "",
    );
    assert_fails_with(
        &["coevolve", "--config", cfg.to_str().unwrap()],
        "has 200 openings; 2 generations of 12 each (12 ranking, 0 reference, 0 champion test) need 24 beside the 190 \
         held for confirmation",
    );
    assert!(!dir.join("out/gen-000").exists(), "a game directory was made");
    let cfg = seeded_config(&dir, &racing_seeds(&dir), 2, "confirmation_openings = 20\n", "");
    assert_fails_with(
        &["coevolve", "--config", cfg.to_str().unwrap()],
        "confirmation_openings = 20: openings are held back only from fresh_openings' permutation",
    );
}
