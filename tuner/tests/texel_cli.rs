//! `tuner texel` end to end on the repository's sample of grandmaster games: the whole
//! evaluation tuned for a few passes, reports after every pass, bad input named, and a run killed
//! mid-tune that resumes to the uninterrupted result.

mod common;

use std::{path::Path, time::Duration};

use common::{TUNER, fixture, kill_9_when, repo, scratch, tuner_err, tuner_ok};
use evochess::params::Params;

/// A 6-pass tune of the whole evaluation into `dir`, with its own copy of the space
/// (`dir/space.toml`); returns the config path.
fn config(dir: &Path) -> std::path::PathBuf {
    let cfg = dir.join("texel.toml");
    let space = dir.join("space.toml");
    std::fs::copy(repo().join("configs/spaces/texel-full.toml"), &space).unwrap();
    std::fs::write(
        &cfg,
        format!(
            "pgn = [{pgn:?}]\nspace = {space:?}\npasses = 6\nthreads = 2\nout_dir = {out:?}\n\
             [positions]\ntrain = 800\ntest = 200\npositions_per_game = 10\nmin_ply = 16\nsample = \"any\"\n",
            pgn = fixture("gm-sample.pgn.xz"),
            space = space,
            out = dir.join("out"),
        ),
    )
    .unwrap();
    cfg
}

/// passes.csv without its `seconds` column (the only cell a resumed run may change).
fn passes_without_time(out: &Path) -> String {
    let csv = std::fs::read_to_string(out.join("passes.csv")).unwrap();
    csv.lines().map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n").collect()
}

#[test]
fn texel_tunes_reports_and_resumes_after_kill_9() {
    let whole = scratch("texel", "whole");
    let cfg = config(&whole);
    let out = tuner_ok(&["texel", "--config", cfg.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("tuned pass") && stdout.contains("evochess --params"), "{stdout}");
    let csv = passes_without_time(&whole.join("out"));
    let rows: Vec<Vec<f64>> = csv.lines().skip(1).map(|l| l.split(',').map(|c| c.parse().unwrap()).collect()).collect();
    assert_eq!(csv.lines().next(), Some("pass,train_mse,validation_mse,changed,trials"));
    assert_eq!(rows.len(), 7, "pass 0 (the start) and 6 passes: {csv}");
    assert!(rows[1][1] < rows[0][1], "the first pass lowers the training loss: {csv}");
    assert!(rows.windows(2).all(|w| w[1][1] <= w[0][1]), "the training loss never rises: {csv}");
    assert!(whole.join("out/loss.svg").is_file());
    // tuned.toml holds the pass with the lowest validation loss, or the start if none beat it.
    let best = (0..rows.len()).min_by(|&a, &b| rows[a][2].total_cmp(&rows[b][2])).unwrap();
    assert!(stdout.contains(&format!("tuned pass {best:<3}")), "pass {best} is the best on validation: {stdout}");
    let tuned = Params::load(whole.join("out/tuned.toml")).unwrap();
    assert_eq!(tuned == Params::default(), best == 0, "{stdout}");

    // Killed once the second pass is reported, then resumed.
    let cut = scratch("texel", "killed");
    let cfg = config(&cut);
    let passes = cut.join("out/passes.csv");
    let args = ["texel", "--config", cfg.to_str().unwrap()];
    kill_9_when(&args, Duration::from_secs(300), "pass 2", || {
        std::fs::read_to_string(&passes).is_ok_and(|t| t.lines().count() >= 4)
    });
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("--resume"), "a second start without --resume is refused: {e}");
    // The run's fingerprint holds what the space decides, not its text: a changed value is
    // refused, a comment added in between is not.
    let space = cut.join("space.toml");
    let text = std::fs::read_to_string(&space).unwrap();
    assert!(text.contains("pawn_mg = 100\n"));
    std::fs::write(&space, text.replace("pawn_mg = 100\n", "pawn_mg = 101\n")).unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap(), "--resume"]);
    assert!(e.contains("different settings"), "a changed space is refused: {e}");
    std::fs::write(&space, format!("# a comment added after the run started\n{text}")).unwrap();
    tuner_ok(&["texel", "--config", cfg.to_str().unwrap(), "--resume"]);
    assert_eq!(passes_without_time(&cut.join("out")), csv, "the resumed tune ends where the uninterrupted one did");
    assert_eq!(
        std::fs::read_to_string(cut.join("out/tuned.toml")).unwrap(),
        std::fs::read_to_string(whole.join("out/tuned.toml")).unwrap()
    );
}

/// The gradient fit (Adam, two positions a step so that epochs take long enough to be killed; a
/// learning rate small enough that 800 positions' noise does not swamp the descent).
fn adam_config(dir: &Path) -> std::path::PathBuf {
    let cfg = config(dir);
    let text = std::fs::read_to_string(&cfg).unwrap().replace("passes = 6\n", "passes = 40\noptimizer = \"adam\"\n");
    std::fs::write(
        &cfg,
        format!("{text}[gradient]\nlearning_rate = 0.1\nbatch_size = 2\nlambda = 1.0\nridge = 1.0\npatience = 1000\n"),
    )
    .unwrap();
    cfg
}

#[test]
fn adam_texel_lowers_the_loss_and_resumes_after_kill_9() {
    let whole = scratch("texel", "adam-whole");
    let cfg = adam_config(&whole);
    let out = tuner_ok(&["texel", "--config", cfg.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let csv = passes_without_time(&whole.join("out"));
    let rows: Vec<Vec<f64>> = csv.lines().skip(1).map(|l| l.split(',').map(|c| c.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 41, "the start and 40 epochs: {csv}");
    assert!(rows[1][4] > 300.0 && rows.iter().skip(1).all(|r| r[4] == rows[1][4]), "a step per 2 positions: {csv}");
    assert!(rows[40][1] < rows[0][1] - 0.003, "the training loss falls: {csv}");
    let tuned = Params::load(whole.join("out/tuned.toml")).unwrap();
    let best = (0..rows.len()).min_by(|&a, &b| rows[a][2].total_cmp(&rows[b][2])).unwrap();
    assert!(stdout.contains(&format!("tuned pass {best:<3}")), "{stdout}");
    assert_eq!(tuned == Params::default(), best == 0, "{stdout}");
    // Held genes stay: the king-danger divisor is non-linear.
    assert_eq!(tuned.eval.ks_mg_divisor, Params::default().eval.ks_mg_divisor);

    let cut = scratch("texel", "adam-killed");
    let cfg = adam_config(&cut);
    let passes = cut.join("out/passes.csv");
    let args = ["texel", "--config", cfg.to_str().unwrap()];
    kill_9_when(&args, Duration::from_secs(300), "epoch 3", || {
        std::fs::read_to_string(&passes).is_ok_and(|t| t.lines().count() >= 5)
    });
    let text = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(&cfg, text.replace("ridge = 1.0", "ridge = 2.0")).unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap(), "--resume"]);
    assert!(e.contains("different settings"), "changed gradient settings are refused: {e}");
    std::fs::write(&cfg, text).unwrap();
    tuner_ok(&["texel", "--config", cfg.to_str().unwrap(), "--resume"]);
    assert_eq!(passes_without_time(&cut.join("out")), csv, "the resumed fit ends where the uninterrupted one did");
    assert_eq!(
        std::fs::read_to_string(cut.join("out/tuned.toml")).unwrap(),
        std::fs::read_to_string(whole.join("out/tuned.toml")).unwrap()
    );
}

#[test]
fn bad_texel_input_is_named() {
    let dir = scratch("texel", "bad");
    let cfg = config(&dir);
    let text = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(&cfg, text.replace("sample = \"any\"", "sample = \"winner\"")).unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("positions.sample"), "{e}");
    std::fs::write(&cfg, text.replace("passes = 6", "passes = 6\nstep = 3")).unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("step"), "an unknown key is named: {e}");
    std::fs::write(&cfg, format!("{text}[gradient]\nlambda = 2.0\n")).unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("optimizer"), "[gradient] without a gradient optimiser: {e}");
    let adam = text.replace("passes = 6\n", "passes = 6\noptimizer = \"adam\"\n");
    std::fs::write(&cfg, format!("{adam}[gradient]\nlambda = 2.0\n")).unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("gradient.lambda"), "{e}");
    std::fs::write(&cfg, text.replace("passes = 6\n", "passes = 6\noptimizer = \"sgd\"\n")).unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap()]);
    assert!(e.contains("sgd") || e.contains("optimizer"), "{e}");
    std::fs::write(&cfg, &text).unwrap();
    let space = dir.join("space.toml");
    std::fs::write(&space, "encoding = \"integer\"\n[[gene]]\nname = \"knight_mgx\"\nmin = 1\nmax = 9\n").unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap(), "--space", space.to_str().unwrap()]);
    assert!(e.contains("knight_mgx"), "{e}");
}

/// A small self-play shard directory from the real `tuner datagen` (20 games at 300 nodes).
fn selfplay_shards(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("selfplay");
    let d = data.to_str().unwrap();
    tuner_ok(&["datagen", "--games", "40", "--nodes", "300", "--seed", "3", "--shard-positions", "100000", "--out", d]);
    data
}

/// An Adam fit over `data` (λ = 0.5: the shards carry scores) into `dir/out`.
fn selfplay_config(dir: &Path, data: &Path) -> std::path::PathBuf {
    let cfg = dir.join("selfplay.toml");
    let space = dir.join("space.toml");
    std::fs::copy(repo().join("configs/spaces/texel-full.toml"), &space).unwrap();
    std::fs::write(
        &cfg,
        format!(
            "data = [{data:?}]\nspace = {space:?}\npasses = 4\nthreads = 2\nout_dir = {out:?}\noptimizer = \"adam\"\n\
             [gradient]\nlearning_rate = 0.5\nbatch_size = 64\nlambda = 0.5\n\
             [positions]\ntrain = 1000\ntest = 300\nseed = 1\n",
            out = dir.join("out"),
        ),
    )
    .unwrap();
    cfg
}

#[test]
fn adam_texel_trains_on_datagen_shards() {
    let dir = scratch("texel", "selfplay");
    let data = selfplay_shards(&dir);
    let cfg = selfplay_config(&dir, &data);
    let out = tuner_ok(&["texel", "--config", cfg.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let k_line = stdout.lines().find(|l| l.starts_with("K ")).unwrap_or_else(|| panic!("{stdout}"));
    let k: f64 = k_line[2..].split(';').next().unwrap().trim().parse().unwrap();
    assert!(k > 0.05 && k < 10.0, "{stdout}");
    // Both sets are non-empty and the validation set is capped at `test`.
    let counts: Vec<usize> = k_line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    assert_eq!(counts.len(), 2, "{k_line}");
    assert!(counts[0] > 300 && counts[0] <= 1000 && counts[1] > 0 && counts[1] <= 300, "{k_line}");
    assert!(stdout.contains("validation MSE"), "{stdout}");
    let csv = passes_without_time(&dir.join("out"));
    let rows: Vec<Vec<f64>> = csv.lines().skip(1).map(|l| l.split(',').map(|c| c.parse().unwrap()).collect()).collect();
    assert_eq!(rows.len(), 5, "the start and 4 epochs: {csv}");
    assert!(rows.iter().all(|r| r[2].is_finite() && r[2] > 0.0 && r[2] < 0.5), "{csv}");
    Params::load(dir.join("out/tuned.toml")).unwrap();

    // Bad inputs: both sources, a file that is not a shard, a directory without shards.
    let text = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(&cfg, format!("pgn = [{:?}]\n{text}", fixture("gm-sample.pgn.xz"))).unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap(), "--out", dir.join("o2").to_str().unwrap()]);
    assert!(e.contains("pgn and data"), "{e}");
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, "not a shard\n").unwrap();
    std::fs::write(&cfg, text.replace(&format!("{data:?}"), &format!("{junk:?}"))).unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap(), "--out", dir.join("o3").to_str().unwrap()]);
    assert!(e.contains("data") && e.contains("junk.bin") && e.contains("not a datagen shard"), "{e}");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(&cfg, text.replace(&format!("{data:?}"), &format!("{empty:?}"))).unwrap();
    let e = tuner_err(&["texel", "--config", cfg.to_str().unwrap(), "--out", dir.join("o4").to_str().unwrap()]);
    assert!(e.contains("data") && e.contains("no shard-*.bin"), "{e}");
}

/// A newcomer's first tune: no config and no space, from a directory that is not the
/// repository. The default space (the whole evaluation) is built into the binary.
#[test]
fn texel_tunes_the_whole_evaluation_without_a_config_from_any_directory() {
    let dir = scratch("texel", "newcomer");
    let pgn = fixture("gm-sample.pgn.xz");
    let out = std::process::Command::new(TUNER)
        .current_dir(&dir)
        .env("RUST_LOG", "warn")
        .args(["texel", "--pgn", pgn.to_str().unwrap(), "--generations", "1", "--threads", "2", "--out", "out"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("tuned pass") && dir.join("out/passes.csv").is_file(), "{stdout}");
    // The built-in space: the whole evaluation but the pawn's middlegame value, the unit.
    let tuned = Params::load(dir.join("out/tuned.toml")).unwrap();
    assert_eq!(tuned.eval.pawn_mg, 100);
}

/// Texel reads one run's shards, each game once: a shard of another run (beside the run, or
/// copied into its directory) or a shard read twice is refused, naming `--allow-mixed`; with it
/// the fit reads every run and each game once, and says that it mixes. Before, all of these were
/// mixed silently.
#[test]
fn texel_refuses_foreign_or_duplicated_shards_unless_allowed_to_mix() {
    let dir = scratch("texel", "mixed");
    // 20 games: the split sends each game to validation with probability 300/1300, so a handful
    // of games can leave it empty (6 did, once the engine's parameters changed the games' hashes).
    let datagen = |seed: &str, name: &str| {
        let d = dir.join(name);
        tuner_ok(&["datagen", "--games", "20", "--nodes", "300", "--seed", seed, "--out", d.to_str().unwrap()]);
        d
    };
    let (a, b) = (datagen("3", "a"), datagen("4", "b"));
    let cfg = selfplay_config(&dir, &a);
    let cfg = cfg.to_str().unwrap();
    let mut outs = 0;
    let mut fit = |data: &[&Path], extra: &[&str]| {
        outs += 1;
        let out = dir.join(format!("out{outs}"));
        let mut args = vec!["texel", "--config", cfg, "--generations", "1", "--out", out.to_str().unwrap()];
        for d in data {
            args.extend(["--data", d.to_str().unwrap()]);
        }
        args.extend_from_slice(extra);
        common::tuner(&args)
    };
    let a_shard = a.join("shard-00000.bin");
    let copied = dir.join("a-with-b");
    std::fs::create_dir_all(&copied).unwrap();
    std::fs::copy(&a_shard, copied.join("shard-00000.bin")).unwrap();
    std::fs::copy(b.join("shard-00000.bin"), copied.join("shard-00001.bin")).unwrap();
    for (data, needle) in [
        (vec![a.as_path(), b.as_path()], "a fit reads one run's shards"),
        (vec![a.as_path(), a_shard.as_path()], "(a shard read twice, or a copy)"),
        (vec![copied.as_path()], "a fit reads one run's shards"),
    ] {
        let out = fit(&data, &[]);
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && e.contains(needle) && e.contains("--allow-mixed"), "{data:?}: {e}");
    }
    let one = fit(&[a.as_path()], &[]);
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    assert!(!String::from_utf8_lossy(&one.stderr).contains("mixing"));
    let mixed = fit(&[a.as_path(), b.as_path(), a_shard.as_path()], &["--allow-mixed"]);
    let e = String::from_utf8_lossy(&mixed.stderr);
    assert!(mixed.status.success(), "{e}");
    assert!(e.contains("mixing the shards of 2 runs") && e.contains("20 duplicated games read once"), "{e}");
}
