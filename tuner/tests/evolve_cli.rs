//! `tuner evolve` as a user runs it: the real binary, files on disk, kill -9 and --resume.

mod common;

use std::{
    path::{Path, PathBuf},
    time::Duration,
};

use common::{assert_fails_with, engine_binary, fixture, kill_9_on_log, manifest, scratch, text, tuner_err, tuner_ok};
use evochess::params::Params;

const PIECE_SPACE: &str = include_str!("data/piece-space.toml");

/// Writes a config for a small run into `dir` and returns its path.
fn small_config(dir: &Path, population: usize, generations: usize, train: usize, test: usize) -> PathBuf {
    small_config_in(dir, PIECE_SPACE, population, generations, train, test)
}

/// [`small_config`] over the search space `space` (its text). The `[ga]` table comes last, so
/// keys appended to the file are GA keys.
fn small_config_in(
    dir: &Path,
    space_text: &str,
    population: usize,
    generations: usize,
    train: usize,
    test: usize,
) -> PathBuf {
    let space = dir.join("space.toml");
    std::fs::write(&space, space_text).unwrap();
    let cfg = dir.join("evolve.toml");
    std::fs::write(
        &cfg,
        format!(
            "space = {space:?}\nseed = 3\nout_dir = {:?}\nevolved_dir = {:?}\n[positions]\ntrain = {train}\ntest = {test}\n\
             [ga]\npopulation = {population}\ngenerations = {generations}\n",
            dir.join("out"),
            dir.join("evolved")
        ),
    )
    .unwrap();
    cfg
}

#[test]
fn evolve_writes_engine_parameter_files_and_reports() {
    let dir = scratch("evolve", "basic");
    let cfg = small_config(&dir, 8, 5, 3, 2);
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let (cfg_s, pgn_s) = (cfg.to_str().unwrap(), pgn.to_str().unwrap());
    let out = tuner_ok(&["evolve", "--pgn", pgn_s, "--config", cfg_s, "--runs", "2"]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("run 1: train") && stdout.contains("run 2: train"), "{stdout}");
    // It ends by naming the best run's file and how to load it.
    let named = stdout.lines().find_map(|l| l.strip_prefix("best parameters (highest training fitness): ")).unwrap();
    assert!(stdout.contains(&format!("evochess --params {named}")) && stdout.contains("ParamsFile"), "{stdout}");
    Params::load(named).unwrap();
    for run in 1..=2 {
        let file = dir.join(format!("evolved/run-{run}.toml"));
        let params = Params::load(&file).unwrap();
        assert_eq!(params.eval.pawn_mg, 100);
        assert_eq!(params.eval.knight_mg, params.eval.knight_eg, "tied keys");
        let csv = std::fs::read_to_string(dir.join(format!("out/run-{run}/generations.csv"))).unwrap();
        assert_eq!(csv.lines().count(), 6, "{csv}");
        let best: Vec<f64> = csv.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect();
        assert!(best.windows(2).all(|w| w[1] >= w[0]), "{best:?}");
        assert!(std::fs::read_to_string(dir.join(format!("out/run-{run}/fitness.svg"))).unwrap().contains("<svg"));
    }
    assert!(dir.join("out/positions.json").exists());
    // Running again without --resume refuses to overwrite; with --resume it reports the same result.
    let first = std::fs::read_to_string(dir.join("evolved/run-1.toml")).unwrap();
    let err = tuner_err(&["evolve", "--pgn", pgn_s, "--config", cfg_s]);
    assert!(err.contains("--resume"), "{err}");
    tuner_ok(&["evolve", "--pgn", pgn_s, "--config", cfg_s, "--resume"]);
    assert_eq!(std::fs::read_to_string(dir.join("evolved/run-1.toml")).unwrap(), first);
}

/// `--score` on a hand-made fixture: the quiescence fitness sees that Qxd5 loses the queen to
/// exd5 and matches Qxb4; the static one prefers the rook. Both take the free queen.
#[test]
fn score_prints_matches_per_file_with_the_configured_search() {
    let dir = scratch("evolve", "score");
    let pgn = manifest().join("tests/data/score_fixture.pgn");
    let default = manifest().join("../params/default.toml");
    let (pgn_s, default_s) = (pgn.to_str().unwrap(), default.to_str().unwrap());
    let out = tuner_ok(&["evolve", "--score", default_s, "--score", default_s, "--pgn", pgn_s]);
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout,
        format!("{default_s}: matched 2 of 2 (100.0%; train 1 of 1, test 1 of 1)\n").repeat(2),
        "{stdout}"
    );
    let out = tuner_ok(&["evolve", "--score", default_s, "--pgn", pgn_s, "--fitness-search", "static"]);
    assert_eq!(text(&out.stdout), format!("{default_s}: matched 1 of 2 (50.0%; train 0 of 1, test 1 of 1)\n"));
    // The config's [fitness] table decides when no flag is given.
    let cfg = dir.join("static.toml");
    std::fs::write(&cfg, "[fitness]\nsearch = \"static\"\n").unwrap();
    let out = tuner_ok(&["evolve", "--score", default_s, "--pgn", pgn_s, "--config", cfg.to_str().unwrap()]);
    assert_eq!(text(&out.stdout), format!("{default_s}: matched 1 of 2 (50.0%; train 0 of 1, test 1 of 1)\n"));
    // A file that does not load is named before any work.
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[eval]\nknight_mg = 5\n").unwrap();
    let err = tuner_err(&["evolve", "--score", bad.to_str().unwrap(), "--pgn", pgn_s]);
    assert!(err.contains("bad.toml") && err.contains("knight_mg"), "{err}");
    assert_fails_with(&["evolve", "--score", "/no/such.toml", "--pgn", pgn_s], "/no/such.toml");
}

#[test]
fn an_existing_result_file_is_only_replaced_with_force() {
    let dir = scratch("evolve", "force");
    let cfg = small_config(&dir, 6, 2, 3, 2);
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let (cfg_s, pgn_s) = (cfg.to_str().unwrap(), pgn.to_str().unwrap());
    std::fs::create_dir_all(dir.join("evolved")).unwrap();
    std::fs::write(dir.join("evolved/run-1.toml"), "# a committed result\n").unwrap();
    let err = tuner_err(&["evolve", "--pgn", pgn_s, "--config", cfg_s]);
    assert!(err.contains("run-1.toml") && err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.join("evolved/run-1.toml")).unwrap(), "# a committed result\n");
    assert!(!dir.join("out/run-1/checkpoint.json").exists(), "refused before any work");
    // --resume-or-start would start a new run over it: refused the same way.
    let err = tuner_err(&["evolve", "--pgn", pgn_s, "--config", cfg_s, "--resume-or-start"]);
    assert!(err.contains("run-1.toml") && err.contains("--force"), "{err}");
    tuner_ok(&["evolve", "--pgn", pgn_s, "--config", cfg_s, "--force"]);
    Params::load(dir.join("evolved/run-1.toml")).unwrap();
    // Once the run has its checkpoint, --resume-or-start continues it (here: it is finished).
    let finished = std::fs::read_to_string(dir.join("evolved/run-1.toml")).unwrap();
    tuner_ok(&["evolve", "--pgn", pgn_s, "--config", cfg_s, "--resume-or-start"]);
    assert_eq!(std::fs::read_to_string(dir.join("evolved/run-1.toml")).unwrap(), finished);
}

#[test]
fn results_go_under_the_output_directory_by_default() {
    let dir = scratch("evolve", "default-dir");
    let space = dir.join("space.toml");
    std::fs::write(&space, PIECE_SPACE).unwrap();
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let out = dir.join("runs");
    tuner_ok(&[
        "evolve",
        "--pgn",
        pgn.to_str().unwrap(),
        "--space",
        space.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--population",
        "4",
        "--generations",
        "2",
    ]);
    Params::load(out.join("evolved/run-1.toml")).unwrap();
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = scratch("evolve", "bad");
    let cfg = small_config(&dir, 8, 2, 3, 2);
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let (cfg_s, pgn_s) = (cfg.to_str().unwrap(), pgn.to_str().unwrap());
    assert_fails_with(&["evolve", "--pgn", "/no/such.pgn", "--config", cfg_s], "/no/such.pgn");
    assert_fails_with(&["evolve", "--pgn", pgn_s, "--config", "/no/such.toml"], "/no/such.toml");
    std::fs::write(dir.join("space.toml"), PIECE_SPACE.replace("\"rook_eg\"", "\"rook_endgame\"")).unwrap();
    assert_fails_with(&["evolve", "--pgn", pgn_s, "--config", cfg_s], "rook_endgame");
    std::fs::write(dir.join("space.toml"), PIECE_SPACE).unwrap();
    let mut text_cfg = std::fs::read_to_string(&cfg).unwrap();
    text_cfg.push_str("mutation = { kind = \"gaussian\" }\n");
    std::fs::write(&cfg, text_cfg).unwrap();
    assert_fails_with(&["evolve", "--pgn", pgn_s, "--config", cfg_s], "ga.mutation");
}

/// Reads the generation number from a checkpoint file, if it is there.
fn checkpoint_generation(path: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("generation")?.as_u64()
}

#[test]
fn kill_9_then_resume_gives_the_uninterrupted_result() {
    kill_9_then_resume("kill", PIECE_SPACE, 30, "");
}

#[test]
fn cmaes_killed_and_resumed_gives_the_uninterrupted_result() {
    kill_9_then_resume("kill-cmaes", PIECE_SPACE, 30, "optimiser = \"cmaes\"\ncmaes_sigma = 0.2\n");
}

/// SPSA and the local search evaluate two and three candidates a generation: more generations,
/// so that the run is still going when it is killed.
#[test]
fn spsa_killed_and_resumed_gives_the_uninterrupted_result() {
    let spsa = "optimiser = \"spsa\"\nspsa = { iterations = 80, c_end = 0.05, r_end = 0.001 }\n";
    kill_9_then_resume("kill-spsa", &integer_space(), 80, spsa);
}

/// Once converged, the local search's generations cost almost nothing (its candidates' fitness is
/// remembered): enough of them that the log left to write outlasts the pipe.
#[test]
fn local_search_killed_and_resumed_gives_the_uninterrupted_result() {
    kill_9_then_resume("kill-local", PIECE_SPACE, 2000, "optimiser = \"local\"\nlocal_step = 0.2\n");
}

/// A run over `space` with `extra_ga` appended to its `[ga]` table, killed with SIGKILL once it
/// logs its third generation and resumed, ends with the uninterrupted run's parameter file and table.
fn kill_9_then_resume(name: &str, space: &str, generations: usize, extra_ga: &str) {
    let games = fixture("gm-sample.pgn.xz");
    let pgn = games.to_str().unwrap();
    let dir = scratch("evolve", name);
    let cfg = small_config_in(&dir, space, 16, generations, 80, 20);
    let text = std::fs::read_to_string(&cfg).unwrap() + extra_ga;
    std::fs::write(&cfg, text).unwrap();
    let cfg_s = cfg.to_str().unwrap();
    let reference_dir = dir.join("reference");
    let reference_out = reference_dir.join("out");
    let reference_evolved = reference_dir.join("evolved");
    tuner_ok(&[
        "evolve",
        "--pgn",
        pgn,
        "--config",
        cfg_s,
        "--out",
        reference_out.to_str().unwrap(),
        "--evolved-dir",
        reference_evolved.to_str().unwrap(),
    ]);
    // Share the extracted positions so the killed run starts fitness work at once.
    std::fs::create_dir_all(dir.join("out")).unwrap();
    std::fs::copy(reference_out.join("positions.json"), dir.join("out/positions.json")).unwrap();

    let checkpoint = dir.join("out/run-1/checkpoint.json");
    let args = ["evolve", "--pgn", pgn, "--config", cfg_s, "--threads", "1"];
    kill_9_on_log(&args, Duration::from_secs(120), "generation 3", |line| line.contains("run 1 gen 3:"));
    let killed_at = checkpoint_generation(&checkpoint).expect("a checkpoint before generation 3 ended");
    assert!(killed_at + 1 < generations as u64, "killed after the last generation ({killed_at})");
    assert!(!dir.join("evolved/run-1.toml").exists());
    tuner_ok(&["evolve", "--pgn", pgn, "--config", cfg_s, "--resume"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("evolved/run-1.toml")).unwrap(),
        std::fs::read_to_string(reference_evolved.join("run-1.toml")).unwrap(),
        "killed after generation {killed_at} and resumed"
    );
    // The per-generation table matches too, apart from the wall-time column.
    let table = |p: PathBuf| -> Vec<String> {
        std::fs::read_to_string(p).unwrap().lines().map(|l| l.rsplit_once(',').unwrap().0.to_string()).collect()
    };
    assert_eq!(table(dir.join("out/run-1/generations.csv")), table(reference_out.join("run-1/generations.csv")));
}

/// Run 1's best error per generation, from the `best_<metric>` column of its generations.csv,
/// checked never to rise (elitism keeps the smallest error).
fn best_errors(dir: &Path, metric: &str) -> Vec<f64> {
    let csv = std::fs::read_to_string(dir.join("out/run-1/generations.csv")).unwrap();
    assert!(csv.starts_with(&format!("generation,best_{metric},")), "{csv}");
    let best: Vec<f64> = csv.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect();
    assert!(best.windows(2).all(|w| w[1] <= w[0]), "elitism keeps the smallest error: {best:?}");
    best
}

#[test]
fn mentor_mode_scores_positions_once_and_minimises_the_error() {
    let dir = scratch("evolve", "mentor");
    let cfg = small_config(&dir, 8, 4, 3, 2);
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let (cfg_s, pgn_s) = (cfg.to_str().unwrap(), pgn.to_str().unwrap());
    let mentor = format!("{} --score 40", env!("CARGO_BIN_EXE_fake-engine"));
    tuner_ok(&["evolve", "--pgn", pgn_s, "--config", cfg_s, "--mentor", &mentor, "--mentor-depth", "2"]);
    let labels: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/mentor-labels.json")).unwrap()).unwrap();
    assert_eq!(labels["train"], serde_json::json!([40, 40, 40]));
    assert_eq!(labels["test"], serde_json::json!([40, 40]));
    best_errors(&dir, "mean_abs_error");
    Params::load(dir.join("evolved/run-1.toml")).unwrap();
    // A mentor that cannot start is a clear error.
    let _ = std::fs::remove_dir_all(dir.join("out"));
    let err = tuner_err(&["evolve", "--pgn", pgn_s, "--config", cfg_s, "--mentor", "/no/such/engine", "--force"]);
    assert!(err.contains("/no/such/engine"), "{err}");
}

/// `loss = "winprob"` minimises the winning-chance error (its own CSV column), and `--score`
/// with a mentor adds each file's error against the mentor to the line.
#[test]
fn mentor_winprob_loss_and_score_with_a_mentor() {
    let dir = scratch("evolve", "mentor-winprob");
    let cfg = small_config(&dir, 8, 4, 3, 2);
    let mentor = format!("{} --score 40", env!("CARGO_BIN_EXE_fake-engine"));
    let mut config = std::fs::read_to_string(&cfg).unwrap();
    config.push_str(&format!("[mentor]\ncommand = {mentor:?}\ndepth = 2\nloss = \"winprob\"\n"));
    std::fs::write(&cfg, config).unwrap();
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let (cfg_s, pgn_s) = (cfg.to_str().unwrap(), pgn.to_str().unwrap());
    tuner_ok(&["evolve", "--pgn", pgn_s, "--config", cfg_s]);
    let best = best_errors(&dir, "winprob_mse");
    assert!(best.iter().all(|e| (0.0..=1.0).contains(e)), "{best:?}");

    let default = manifest().join("../params/default.toml");
    let out = tuner_ok(&["evolve", "--score", default.to_str().unwrap(), "--pgn", pgn_s, "--config", cfg_s]);
    let line = text(&out.stdout);
    let error: f64 = line
        .split("mentor winprob_mse ")
        .nth(1)
        .unwrap_or_else(|| panic!("no mentor error in `{line}`"))
        .trim()
        .parse()
        .unwrap();
    assert!(line.contains("matched ") && (0.0..1.0).contains(&error), "{line}");
    // The absolute loss reports centipawns under its own name.
    let abs = std::fs::read_to_string(&cfg).unwrap().replace("\"winprob\"", "\"abs\"");
    std::fs::write(&cfg, abs).unwrap();
    let out = tuner_ok(&["evolve", "--score", default.to_str().unwrap(), "--pgn", pgn_s, "--config", cfg_s]);
    assert!(text(&out.stdout).contains("mentor mean_abs_error "), "{}", text(&out.stdout));
    // A fitted scale is reported with the error; positions walked off the games have no GM
    // move to match, so only the mentor's error is given.
    let fitted = std::fs::read_to_string(&cfg).unwrap().replace("[mentor]\n", "[mentor]\nfit_scale = true\n");
    std::fs::write(&cfg, fitted.replace("[positions]\n", "[positions]\nrandom_plies = 1\n")).unwrap();
    let out = tuner_ok(&["evolve", "--score", default.to_str().unwrap(), "--pgn", pgn_s, "--config", cfg_s]);
    let line = text(&out.stdout);
    assert!(line.contains(" at scale ") && !line.contains("matched"), "{line}");
}

/// Positions walked off the games by random moves carry no GM move: without a mentor the
/// config is refused, naming the key.
#[test]
fn random_plies_need_a_mentor() {
    let dir = scratch("evolve", "random-plies");
    let cfg = small_config(&dir, 8, 2, 3, 2);
    let config = std::fs::read_to_string(&cfg).unwrap().replace("[positions]\n", "[positions]\nrandom_plies = 1\n");
    std::fs::write(&cfg, config).unwrap();
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    assert_fails_with(&["evolve", "--pgn", pgn.to_str().unwrap(), "--config", cfg.to_str().unwrap()], "random_plies");
}

/// `target = "result"`: Texel's tuning on the games' results, no engine needed. Positions of
/// both sides and drawn games give labels of every kind; the run minimises the winning-chance
/// error, `--score` reports it, and the centipawn loss is refused, naming the key.
#[test]
fn game_results_as_the_target() {
    let dir = scratch("evolve", "results");
    let cfg = small_config(&dir, 8, 4, 6, 3);
    let mut config = std::fs::read_to_string(&cfg).unwrap().replace("[positions]\n", "[positions]\nsample = \"any\"\n");
    config.push_str("[mentor]\ntarget = \"result\"\nloss = \"winprob\"\n");
    std::fs::write(&cfg, &config).unwrap();
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let (cfg_s, pgn_s) = (cfg.to_str().unwrap(), pgn.to_str().unwrap());
    tuner_ok(&["evolve", "--pgn", pgn_s, "--config", cfg_s]);
    let best = best_errors(&dir, "winprob_mse");
    assert!(best.iter().all(|e| (0.0..=1.0).contains(e)), "{best:?}");
    let set: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/positions.json")).unwrap()).unwrap();
    let outcomes: Vec<i64> = ["train", "test"]
        .iter()
        .flat_map(|s| set[s].as_array().unwrap().iter().map(|p| p["outcome"].as_i64().unwrap()))
        .collect();
    assert!(outcomes.contains(&1) && outcomes.contains(&-1), "{outcomes:?}");

    let default = manifest().join("../params/default.toml");
    let out = tuner_ok(&["evolve", "--score", default.to_str().unwrap(), "--pgn", pgn_s, "--config", cfg_s]);
    assert!(text(&out.stdout).contains("mentor winprob_mse "), "{}", text(&out.stdout));
    std::fs::write(&cfg, config.replace("\"winprob\"", "\"abs\"")).unwrap();
    assert_fails_with(&["evolve", "--pgn", pgn_s, "--config", cfg_s, "--force"], "mentor.loss");
}

/// Mentor mode with Debian's Stockfish: real scores differ between positions (the mate-in-one
/// position saturates at the cap), are cached, and the run reduces the error.
#[test]
#[ignore = "needs /usr/games/stockfish (Debian package stockfish)"]
fn mentor_mode_with_real_stockfish() {
    let stockfish = Path::new("/usr/games/stockfish");
    assert!(stockfish.is_file(), "{} is missing: apt-get install stockfish", stockfish.display());
    let dir = scratch("evolve", "stockfish");
    let cfg = small_config(&dir, 8, 4, 3, 2);
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let (cfg_s, pgn_s) = (cfg.to_str().unwrap(), pgn.to_str().unwrap());
    let args = ["evolve", "--pgn", pgn_s, "--config", cfg_s, "--mentor", "/usr/games/stockfish", "--mentor-depth", "6"];
    tuner_ok(&args);
    let labels: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/mentor-labels.json")).unwrap()).unwrap();
    let scores: Vec<i64> = labels["train"]
        .as_array()
        .unwrap()
        .iter()
        .chain(labels["test"].as_array().unwrap())
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(scores.len(), 5);
    assert!(scores.iter().any(|&s| s != scores[0]), "real scores differ: {scores:?}");
    assert!(scores.iter().all(|s| s.abs() <= 1500), "clamped to the cap: {scores:?}");
    let csv = std::fs::read_to_string(dir.join("out/run-1/generations.csv")).unwrap();
    let best: Vec<f64> = csv.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse().unwrap()).collect();
    assert!(best.windows(2).all(|w| w[1] <= w[0]), "{best:?}");
    // A second run reads the cached labels instead of asking the engine again.
    let labels_file = dir.join("out/mentor-labels.json");
    let labelled_at = std::fs::metadata(&labels_file).unwrap().modified().unwrap();
    let _ = std::fs::remove_dir_all(dir.join("out/run-1"));
    let mut again = args.to_vec();
    again.push("--force");
    tuner_ok(&again);
    assert_eq!(std::fs::metadata(&labels_file).unwrap().modified().unwrap(), labelled_at);
    Params::load(dir.join("evolved/run-1.toml")).unwrap();
}

#[test]
fn evolved_parameter_file_loads_in_the_engine_and_plays_legal_moves() {
    use arena::engine::{
        transport::Timeouts,
        uci::{Go, UciClient},
    };
    use shakmaty::{CastlingMode, Chess, Position, uci::UciMove};

    let dir = scratch("evolve", "engine");
    let cfg = small_config(&dir, 6, 3, 3, 2);
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    tuner_ok(&["evolve", "--pgn", pgn.to_str().unwrap(), "--config", cfg.to_str().unwrap()]);
    let params = dir.join("evolved/run-1.toml");
    let args = vec!["--params".to_string(), params.to_str().unwrap().to_string()];
    let mut engine = UciClient::spawn("evolved", &engine_binary(), &args, None, Timeouts::default()).unwrap();
    engine.new_game().unwrap();
    let mut pos = Chess::default();
    let mut moves: Vec<String> = Vec::new();
    while moves.len() < 40 && !pos.is_game_over() {
        engine.position(None, &moves).unwrap();
        let result = engine.go(&Go { depth: Some(2), ..Go::default() }, Duration::from_secs(30)).unwrap();
        let m = result.bestmove.parse::<UciMove>().unwrap().to_move(&pos);
        let m = m.unwrap_or_else(|e| panic!("illegal move {} after {moves:?}: {e}", result.bestmove));
        moves.push(m.to_uci(CastlingMode::Standard).to_string());
        pos.play_unchecked(m);
    }
    assert!(moves.len() >= 10, "{moves:?}");
    engine.quit();
}

/// From a directory with no `configs/` beside it, the defaults (config, search space) come from
/// the binary and the engine from beside the tuner.
#[test]
fn runs_from_any_directory_with_the_built_in_defaults() {
    let dir = scratch("evolve", "anywhere");
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let out = std::process::Command::new(common::TUNER)
        .current_dir(&dir)
        .args(["evolve", "--pgn", pgn.to_str().unwrap(), "--population", "4", "--generations", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let params = Params::load(dir.join("runs/evolve/evolved/run-1.toml")).unwrap();
    assert_eq!(params.eval.pawn_mg, 100, "David's space, built in: the pawn is fixed at 100");
    let out = std::process::Command::new(common::TUNER)
        .current_dir(&dir)
        .args(["evolve", "--pgn", pgn.to_str().unwrap(), "--score", "runs/evolve/evolved/run-1.toml"])
        .args(["--config", "configs/evolve/default.toml", "--space", "./configs/spaces/evolve-full-gray.toml"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("matched"), "{}", text(&out.stdout));
}

/// `--init FILE` starts from that file: with unmutated copies the whole first generation is its
/// genome, so the result keeps its values (to the gene's resolution) and, outside the space,
/// the file's own values; a checkpoint written from random values is not resumed as if it were
/// seeded.
#[test]
fn init_starts_every_run_from_a_parameter_file() {
    let dir = scratch("evolve", "init");
    let cfg = small_config(&dir, 6, 1, 3, 2);
    let mut config = std::fs::read_to_string(&cfg).unwrap();
    let seed_file = dir.join("seed.toml");
    std::fs::write(
        &seed_file,
        "[eval]\nknight_mg = 777\nknight_eg = 777\nqueen_mg = 1500\nqueen_eg = 1500\npst_pawn_file_a_eg = 33\n\
         [search]\nlmr_base = 77\n",
    )
    .unwrap();
    config.push_str(&format!("[init]\nfile = {seed_file:?}\nmutation_rate = 0.0\n"));
    std::fs::write(&cfg, config).unwrap();
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let (cfg_s, pgn_s) = (cfg.to_str().unwrap(), pgn.to_str().unwrap());
    tuner_ok(&["evolve", "--pgn", pgn_s, "--config", cfg_s]);
    let evolved = Params::load(dir.join("evolved/run-1.toml")).unwrap();
    // 11 bits over 100..=2000: one step is under a centipawn.
    assert!((evolved.eval.knight_mg - 777).abs() <= 1, "knight {}", evolved.eval.knight_mg);
    assert!((evolved.eval.queen_mg - 1500).abs() <= 1, "queen {}", evolved.eval.queen_mg);
    // Outside the space: the seed's values, not the defaults (3 and 75).
    assert_eq!((evolved.eval.pst_pawn_file_a_eg, evolved.search.lmr_base), (33, 77));
    // Same output directory, random start: another run, refused.
    let random = std::fs::read_to_string(&cfg).unwrap().split("[init]").next().unwrap().to_string();
    std::fs::write(&cfg, random).unwrap();
    let err = tuner_err(&["evolve", "--pgn", pgn_s, "--config", cfg_s, "--resume", "--generations", "2"]);
    assert!(err.contains("different config"), "{err}");
    // A missing file is named.
    let err = tuner_err(&["evolve", "--pgn", pgn_s, "--config", cfg_s, "--init", "/no/such/seed.toml", "--force"]);
    assert!(err.contains("/no/such/seed.toml"), "{err}");
}

/// `kind = "cmaes"` runs the same command with CMA-ES: it writes the parameter file and
/// reports, and a run stopped after 3 generations and resumed to 6 ends where a direct run does,
/// also when the run was begun with the older `[ga] optimiser = "cmaes"`.
#[test]
fn cmaes_optimiser_evolves_and_resumes_like_the_ga() {
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let run = |name: &str, generations: usize, resume: bool| {
        let dir = scratch("evolve", name);
        let cfg = small_config(&dir, 8, generations, 3, 2);
        let text = std::fs::read_to_string(&cfg).unwrap() + "optimiser = \"cmaes\"\ncmaes_sigma = 0.2\n";
        std::fs::write(&cfg, text).unwrap();
        let mut args = vec!["evolve", "--pgn", pgn.to_str().unwrap(), "--config", cfg.to_str().unwrap()];
        if resume {
            args.push("--resume");
        }
        tuner_ok(&args);
        dir
    };
    let direct = run("cmaes-direct", 6, false);
    let csv = std::fs::read_to_string(direct.join("out/run-1/generations.csv")).unwrap();
    assert_eq!(csv.lines().count(), 7, "{csv}");
    let stopped = run("cmaes-resumed", 3, false);
    // Resumed from the `[ga] optimiser` form's run with the `[optimiser]` table: the same run.
    let cfg = small_config(&stopped, 8, 6, 3, 2);
    let text = std::fs::read_to_string(&cfg).unwrap() + "[optimiser]\nkind = \"cmaes\"\nsigma = 0.2\n";
    std::fs::write(&cfg, text).unwrap();
    tuner_ok(&["evolve", "--pgn", pgn.to_str().unwrap(), "--config", cfg.to_str().unwrap(), "--resume"]);
    let a = Params::load(direct.join("evolved/run-1.toml")).unwrap();
    let b = Params::load(stopped.join("evolved/run-1.toml")).unwrap();
    assert_eq!(a.values_toml(), b.values_toml());
    let e =
        tuner_err(&["evolve", "--pgn", pgn.to_str().unwrap(), "--config", cfg.to_str().unwrap(), "--generations", "7"]);
    assert!(e.contains("--resume"), "{e}");
}

/// The test space's four piece values as integer genes (numeric, as SPSA needs).
fn integer_space() -> String {
    PIECE_SPACE.replace("encoding = \"gray\"", "encoding = \"integer\"").replace("bits = 11", "")
}

/// Appends `keys` to the config (its `[ga]` table, which comes last).
fn append_ga(cfg: &Path, keys: &str) {
    let text = std::fs::read_to_string(cfg).unwrap() + keys;
    std::fs::write(cfg, text).unwrap();
}

/// `[optimiser] kind = "ga" | "cmaes" | "spsa" | "local"` each optimise the GM-move fitness of the same
/// config: the parameter file, the table of every generation, and a checkpoint holding each
/// optimiser's own candidates and state.
#[test]
fn every_optimiser_runs_the_move_matching_fitness_end_to_end() {
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    for (optimiser, candidates, state) in
        [("ga", 8, None), ("cmaes", 8, Some("cma")), ("spsa", 2, Some("tune")), ("local", 3, Some("incumbent"))]
    {
        let dir = scratch("evolve", &format!("each-{optimiser}"));
        let cfg = small_config_in(&dir, &integer_space(), 8, 4, 3, 2);
        // Gaussian mutation, so that the GA too runs on integer genes.
        append_ga(
            &cfg,
            &format!("mutation = {{ kind = \"gaussian\", sigma = 0.05 }}\n[optimiser]\nkind = \"{optimiser}\"\n"),
        );
        tuner_ok(&["evolve", "--pgn", pgn.to_str().unwrap(), "--config", cfg.to_str().unwrap()]);
        let params = Params::load(dir.join("evolved/run-1.toml")).unwrap();
        assert_eq!(params.eval.pawn_mg, 100, "{optimiser}");
        assert_eq!(params.eval.knight_mg, params.eval.knight_eg, "{optimiser}: tied keys");
        let csv = std::fs::read_to_string(dir.join("out/run-1/generations.csv")).unwrap();
        assert_eq!(csv.lines().count(), 5, "{optimiser}: {csv}");
        let checkpoint: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("out/run-1/checkpoint.json")).unwrap()).unwrap();
        assert_eq!(checkpoint["population"].as_array().unwrap().len(), candidates, "{optimiser}: {checkpoint}");
        for key in ["cma", "tune", "incumbent"] {
            assert_eq!(checkpoint.get(key).is_some(), state == Some(key), "{optimiser}: `{key}` in {checkpoint}");
        }
        if optimiser == "spsa" {
            // Generation 3's pair is asked after three iterations were told.
            assert_eq!(checkpoint["tune"]["done"], 3, "{checkpoint}");
        }
    }
}

/// SPSA and the local search, stopped after 3 generations and extended to 6 with --resume, end
/// where a direct run of 6 does (the SPSA gains follow `iterations`, not `generations`).
#[test]
fn spsa_and_local_search_resume_like_the_ga() {
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let spsa = "[optimiser]\nkind = \"spsa\"\niterations = 6\nc_end = 0.05\nr_end = 0.05\n";
    for (name, keys) in [("spsa", spsa), ("local", "[optimiser]\nkind = \"local\"\nstep = 0.2\n")] {
        let run = |dir: &Path, generations: usize, resume: bool| {
            let cfg = small_config_in(dir, &integer_space(), 8, generations, 3, 2);
            append_ga(&cfg, keys);
            let mut args = vec!["evolve", "--pgn", pgn.to_str().unwrap(), "--config", cfg.to_str().unwrap()];
            if resume {
                args.push("--resume");
            }
            tuner_ok(&args);
        };
        let direct = scratch("evolve", &format!("{name}-direct"));
        run(&direct, 6, false);
        let stopped = scratch("evolve", &format!("{name}-resumed"));
        run(&stopped, 3, false);
        run(&stopped, 6, true);
        let file = |dir: &Path| std::fs::read_to_string(dir.join("evolved/run-1.toml")).unwrap();
        assert_eq!(file(&stopped), file(&direct), "{name}");
        let table = |dir: &Path| -> Vec<String> {
            let csv = std::fs::read_to_string(dir.join("out/run-1/generations.csv")).unwrap();
            csv.lines().map(|l| l.rsplit_once(',').unwrap().0.to_string()).collect()
        };
        assert_eq!(table(&stopped), table(&direct), "{name}");
        assert_eq!(table(&direct).len(), 7, "{name}");
    }
}

/// What SPSA and the local search cannot run is refused before any work, naming the key.
#[test]
fn one_point_optimisers_refuse_bad_settings() {
    let dir = scratch("evolve", "one-point-bad");
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let (pgn_s, cfg) = (pgn.to_str().unwrap(), dir.join("evolve.toml"));
    let cfg_s = cfg.to_str().unwrap();
    let with = |space: &str, keys: &str| {
        small_config_in(&dir, space, 8, 2, 3, 2);
        append_ga(&cfg, keys);
    };
    with(PIECE_SPACE, "[optimiser]\nkind = \"spsa\"\n");
    let fails = |expected: &str| assert_fails_with(&["evolve", "--pgn", pgn_s, "--config", cfg_s], expected);
    fails("optimiser.kind: `spsa` needs a numeric genome");
    with(&integer_space(), "[optimiser]\nkind = \"spsa\"\nc_end = 0.0\n");
    fails("optimiser.c_end: 0 must be in (0, 1]");
    with(&integer_space(), "[optimiser]\nkind = \"spsa\"\nc_ends = 0.1\n");
    fails("c_ends");
    with(PIECE_SPACE, "[optimiser]\nkind = \"local\"\nstep = 1.5\n");
    fails("optimiser.step: 1.5 must be in (0, 1]");
    with(PIECE_SPACE, "[optimiser]\nkind = \"newton\"\n");
    fails("newton");
    // Another optimiser's setting is not this one's.
    with(PIECE_SPACE, "[optimiser]\nkind = \"local\"\nsigma = 0.2\n");
    fails("unknown field `sigma`");
    // The older form is read as the table, and refused as it is.
    with(PIECE_SPACE, "optimiser = \"local\"\nlocal_step = 1.5\n");
    fails("optimiser.step: 1.5 must be in (0, 1]");
    with(&integer_space(), "optimiser = \"spsa\"\nspsa = { c_ends = 0.1 }\n");
    fails("c_ends");
    with(PIECE_SPACE, "optimiser = \"newton\"\n");
    fails("newton");
    // Both forms at once: which to keep is not guessed.
    with(PIECE_SPACE, "optimiser = \"local\"\n[optimiser]\nkind = \"local\"\n");
    fails("ga.optimiser and [optimiser] both set the optimiser");
    // Refused before the positions were read (they are cached on the way).
    assert!(!dir.join("out/positions.json").exists());
}
