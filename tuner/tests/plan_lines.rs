//! Issue 91 item 8: every long command's first stdout line is its plan (what, from what, the
//! budget, an ETA), and `tuner spsa --iterations/--nodes/--tc` override the config. Tiny
//! budgets over the real binaries.

mod common;

use std::path::{Path, PathBuf};

use common::{engine_binary, fixture, games_in, manifest, repo, scratch, text, tuner, tuner_ok};
use evochess::params::Params;

/// The first line of the command's stdout, which must have succeeded.
fn first_line(args: &[&str]) -> String {
    let out = tuner_ok(args);
    text(&out.stdout).lines().next().unwrap_or_default().to_string()
}

fn assert_plan(line: &str, command: &str, needles: &[&str]) {
    assert!(line.starts_with(&format!("{command}: ")), "not {command}'s plan line: {line}");
    assert!(line.contains("ETA "), "no ETA: {line}");
    for n in needles {
        assert!(line.contains(n), "`{n}` missing from: {line}");
    }
}

/// An SPSA config of 5 iterations at 400 nodes into `dir/out`.
fn spsa_config(dir: &Path) -> PathBuf {
    let lines = dir.join("params.txt");
    std::fs::write(&lines, "knight_mg, int, 320, 200, 450, 20, 0.01\n").unwrap();
    let cfg = dir.join("spsa.toml");
    std::fs::write(
        &cfg,
        format!(
            "params = {lines:?}\nengine = {:?}\niterations = 5\npairs = 1\nnodes = 400\nseed = 4\nopenings = {:?}\n\
             out_dir = {:?}\n",
            engine_binary(),
            repo().join("openings/gnuchess-8ply.epd"),
            dir.join("out"),
        ),
    )
    .unwrap();
    cfg
}

fn iteration_games(out: &Path) -> Vec<usize> {
    let mut games = Vec::new();
    for i in 1.. {
        let pgn = out.join(format!("iter-{i:05}/games.pgn"));
        if !pgn.is_file() {
            return games;
        }
        games.push(games_in(&pgn));
    }
    unreachable!()
}

#[test]
fn spsa_flags_override_the_config_and_the_plan_says_so() {
    let dir = scratch("plan", "spsa-nodes");
    let cfg = spsa_config(&dir);
    let line = first_line(&["spsa", "--config", cfg.to_str().unwrap(), "--iterations", "2", "--nodes", "150"]);
    assert_plan(
        &line,
        "spsa",
        &["tunes 1 parameters (knight_mg)", "2 iterations of 1 game pairs, 4 games at 150 nodes a move"],
    );
    assert_eq!(iteration_games(&dir.join("out")), [2, 2], "two iterations of a game pair");
    let pgn = std::fs::read_to_string(dir.join("out/iter-00001/games.pgn")).unwrap();
    assert!(!pgn.contains("[TimeControl \"1+0.01\"]"), "{pgn}");

    // --tc alone replaces the config's node limit with a clock.
    let dir = scratch("plan", "spsa-tc");
    let cfg = spsa_config(&dir);
    let line = first_line(&["spsa", "--config", cfg.to_str().unwrap(), "--iterations", "1", "--tc", "1+0.01"]);
    assert_plan(&line, "spsa", &["1 iterations of 1 game pairs, 2 games at tc 1+0.01, 1 at once"]);
    assert!(!line.contains("nodes a move"), "--tc alone drops the config's node limit: {line}");
    assert_eq!(iteration_games(&dir.join("out")), [2]);
    let pgn = std::fs::read_to_string(dir.join("out/iter-00001/games.pgn")).unwrap();
    assert!(pgn.contains("[TimeControl \"1+0.01\"]"), "{pgn}");

    let e = common::tuner_err(&["spsa", "--config", cfg.to_str().unwrap(), "--tc", "1+x", "--force"]);
    assert!(e.contains("--tc"), "{e}");
}

#[test]
fn game_commands_print_their_plan_first() {
    let engine = engine_binary();
    let engine_s = engine.to_str().unwrap();

    let dir = scratch("plan", "quick");
    let cfg = dir.join("quick.toml");
    std::fs::write(
        &cfg,
        format!(
            "engine = {engine:?}\npopulation = 5\ngenerations = 1\nconcurrency = 2\nnodes = 150\nmax_moves = 20\n\
             out_dir = {:?}\n",
            dir.join("out")
        ),
    )
    .unwrap();
    let line = first_line(&["quick", "--config", cfg.to_str().unwrap()]);
    assert_plan(&line, "quick", &["5 random members", "1 generations of about", "150 nodes a move", "2 at once"]);

    let dir = scratch("plan", "rrga");
    let cfg = dir.join("rrga.toml");
    std::fs::write(
        &cfg,
        format!(
            "engine = {engine:?}\nspace = {:?}\npopulation = 3\ngenerations = 1\ndepth = 1\nmax_moves = 20\n\
             games_per_pair = 2\nconcurrency = 2\nout_dir = {:?}\n[verify]\ngames = 0\n",
            repo().join("configs/spaces/roundrobin-ga-aksenov.toml"),
            dir.join("out")
        ),
    )
    .unwrap();
    let line = first_line(&["roundrobin-ga", "--config", cfg.to_str().unwrap()]);
    assert_plan(&line, "roundrobin-ga", &["3 players", "1 generations of a 6-game round robin", "6 games at depth 1"]);

    // The paper's coevolution: 3 organisms, one round robin of 3 pairs × 2 games.
    let dir = scratch("plan", "coevolve");
    let pop = dir.join("evolved");
    std::fs::create_dir_all(&pop).unwrap();
    for i in 0..3 {
        let mut p = Params::default();
        p.eval.knight_mg = 250 + 40 * i;
        std::fs::write(pop.join(format!("run-{}.toml", i + 1)), p.to_toml()).unwrap();
    }
    let cfg = dir.join("coevolve.toml");
    std::fs::write(
        &cfg,
        format!(
            "population_dir = {pop:?}\nspace = {:?}\nengine = {engine:?}\nnodes = 150\nconcurrency = 2\nopenings = {:?}\n\
             openings_per_pair = 1\nmaxmoves = \"40\"\nout_dir = {:?}\n[ga]\ngenerations = 1\n",
            manifest().join("../configs/spaces/evolve-paper.toml"),
            manifest().join("../openings/gnuchess-8ply.epd"),
            dir.join("out"),
        ),
    )
    .unwrap();
    let line = first_line(&["coevolve", "--config", cfg.to_str().unwrap()]);
    assert_plan(
        &line,
        "coevolve (the paper's method)",
        &["3 organisms from", "1 generations, 6 games", "150 nodes a move"],
    );

    let dir = scratch("plan", "datagen");
    let out = dir.join("out");
    let line =
        first_line(&["datagen", "--games", "2", "--nodes", "100", "--seed", "3", "--out", out.to_str().unwrap()]);
    assert_plan(&line, "datagen", &["2 self-play games at 100 nodes a move"]);

    let dir = scratch("plan", "promote");
    let (default, candidate) = (dir.join("default.toml"), dir.join("candidate.toml"));
    std::fs::write(&default, Params::default().to_toml()).unwrap();
    std::fs::write(&candidate, "[eval]\nknight_mg = 200\n").unwrap();
    let out = tuner(&[
        "promote",
        "--candidate",
        candidate.to_str().unwrap(),
        "--default",
        default.to_str().unwrap(),
        "--out",
        dir.join("promoted.toml").to_str().unwrap(),
        "--engine",
        engine_s,
        "--nodes",
        "150",
        "--max-games",
        "2",
        "--games-dir",
        dir.join("games").to_str().unwrap(),
    ]);
    let line = text(&out.stdout).lines().next().unwrap_or_default().to_string();
    assert_plan(&line, "promote", &["candidate.toml against", "up to 2 games at 150 nodes a move"]);

    // A match of many games says its plan first; a short one starts with its games.
    let engine_arg = format!("cmd={engine_s}");
    let book = format!("file={}", repo().join("openings/gnuchess-8ply.epd").display());
    let mut args = vec!["match", "--engine", &engine_arg, "name=a", "--engine", &engine_arg, "name=b"];
    args.extend(["--each", "nodes=20", "--openings", &book, "order=random", "--maxmoves", "4"]);
    args.extend(["--concurrency", "2", "--srand", "5"]);
    let line = first_line(&[&args[..], &["--games", "100"]].concat());
    assert_plan(&line, "match", &["100 games of a, b at 20 nodes a move, 2 at once"]);
    let line = first_line(&[&args[..], &["--games", "2"]].concat());
    assert!(!line.starts_with("match: "), "{line}");
}

#[test]
fn position_commands_print_their_plan_first() {
    let dir = scratch("plan", "texel");
    let cfg = dir.join("texel.toml");
    std::fs::write(
        &cfg,
        format!(
            "pgn = [{:?}]\nspace = {:?}\npasses = 1\nthreads = 2\nout_dir = {:?}\n\
             [positions]\ntrain = 200\ntest = 50\npositions_per_game = 10\nmin_ply = 16\nsample = \"any\"\n",
            fixture("gm-sample.pgn.xz"),
            repo().join("configs/spaces/texel-full.toml"),
            dir.join("out"),
        ),
    )
    .unwrap();
    let line = first_line(&["texel", "--config", cfg.to_str().unwrap()]);
    assert_plan(&line, "texel", &["gm-sample.pgn", "1 passes, 2 threads"]);

    let dir = scratch("plan", "search-evolve");
    let eval = dir.join("eval.toml");
    std::fs::write(&eval, Params::default().to_toml()).unwrap();
    let line = first_line(&[
        "search-evolve",
        "--config",
        manifest().join("../configs/search-evolve/default.toml").to_str().unwrap(),
        "--params",
        eval.to_str().unwrap(),
        "--suite",
        fixture("wac.epd").to_str().unwrap(),
        "--held",
        fixture("bk.epd").to_str().unwrap(),
        "--max-positions",
        "4",
        "--node-cap",
        "500",
        "--population",
        "4",
        "--generations",
        "1",
        "--out",
        dir.join("out").to_str().unwrap(),
        "--output",
        dir.join("evolved.toml").to_str().unwrap(),
    ]);
    assert_plan(&line, "search-evolve", &["4 training", "cap 500 nodes", "1 generations"]);

    let dir = scratch("plan", "evolve");
    let cfg = dir.join("evolve.toml");
    std::fs::write(
        &cfg,
        format!(
            "space = {:?}\nseed = 3\nout_dir = {:?}\nevolved_dir = {:?}\n[positions]\ntrain = 20\ntest = 10\n\
             [ga]\npopulation = 4\ngenerations = 2\n",
            repo().join("configs/spaces/evolve-paper.toml"),
            dir.join("out"),
            dir.join("evolved")
        ),
    )
    .unwrap();
    let pgn = manifest().join("tests/data/evolve_small.pgn");
    let line =
        first_line(&["evolve", "--pgn", pgn.to_str().unwrap(), "--config", cfg.to_str().unwrap(), "--runs", "1"]);
    assert_plan(&line, "evolve", &["1 runs of 2 generations of 4 organisms", "evolve_small.pgn"]);
}
