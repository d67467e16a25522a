//! `tuner datagen` over the real binary: the same shard bytes whatever `--concurrency`, a run
//! killed with SIGKILL that resumes to the uninterrupted bytes, exported lines that are legal
//! positions, and bad input named.

mod common;

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
    time::Duration,
};

use common::{TUNER, assert_fails_with, kill_9_when, scratch, text, tuner, tuner_err, tuner_ok};
use tuner::datagen::{
    Filter, Shard,
    format::{Origin, encode_shard},
};

/// 20 games at 300 nodes, shards closed at 400 positions (several shards and a short last one).
fn args(out: &Path, concurrency: usize) -> Vec<String> {
    [
        "datagen",
        "--games",
        "20",
        "--nodes",
        "300",
        "--seed",
        "7",
        "--shard-positions",
        "400",
        "--concurrency",
        &concurrency.to_string(),
        "--out",
        out.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

/// Runs the tuner in `dir` (no repository files there: the book must be the built-in one).
fn tuner_in(dir: &Path, args: &[String]) -> Output {
    let out = Command::new(TUNER).args(args).current_dir(dir).env("RUST_LOG", "warn").output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    out
}

/// `(name, bytes)` of every file in `dir` but the lock and the run's JSON.
fn shard_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with("shard-"))
        .map(|p| (p.file_name().unwrap().to_str().unwrap().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    v.sort();
    v
}

/// Game indices of a run's shards, in file order.
fn game_indices(dir: &Path) -> Vec<u64> {
    shard_files(dir)
        .iter()
        .flat_map(|(name, bytes)| {
            let s = Shard::from_bytes(name.clone(), bytes.clone()).unwrap();
            s.records().map(|r| r.unwrap().game.index).collect::<Vec<_>>()
        })
        .collect()
}

fn next_game(dir: &Path) -> u64 {
    std::fs::read_to_string(dir.join("progress.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["next_game"].as_u64())
        .unwrap_or(0)
}

#[test]
fn the_shards_are_the_same_bytes_whatever_the_concurrency() {
    let base = scratch("datagen", "concurrency");
    let (one, three) = (base.join("one"), base.join("three"));
    let out = tuner_in(&base, &args(&one, 1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("datagen: 20 games") && stdout.contains("nodes/s"), "{stdout}");
    tuner_in(&base, &args(&three, 3));
    let (a, b) = (shard_files(&one), shard_files(&three));
    assert!(a.len() >= 2, "several shards: {:?}", a.iter().map(|f| &f.0).collect::<Vec<_>>());
    assert!(a.iter().all(|(n, _)| n.ends_with(".bin")), "no part is left");
    assert_eq!(a, b, "concurrency 1 and 3 wrote different shards");
    assert_eq!(game_indices(&one), (0..20).collect::<Vec<_>>());
    // Each shard but the last holds at least 400 kept positions, and about 2 bytes each.
    let shards: Vec<Shard> = a.iter().map(|(n, b)| Shard::from_bytes(n.clone(), b.clone()).unwrap()).collect();
    let kept: Vec<usize> = shards.iter().map(|s| s.samples().count()).collect();
    assert!(kept[..kept.len() - 1].iter().all(|&k| k >= 400), "{kept:?}");
    let bytes: usize = a.iter().map(|(_, b)| b.len()).sum();
    let all: usize = shards.iter().map(|s| s.samples_with(Filter::ALL).count()).sum();
    assert!(bytes < 4 * all, "{bytes} bytes for {all} positions");
}

#[test]
fn a_run_killed_with_sigkill_resumes_to_the_uninterrupted_bytes() {
    let base = scratch("datagen", "kill");
    let (whole, cut) = (base.join("whole"), base.join("cut"));
    let mut long = args(&whole, 1);
    long[2] = "40".into();
    tuner_ok(&long.iter().map(String::as_str).collect::<Vec<_>>());
    let mut killed = args(&cut, 2);
    killed[2] = "40".into();
    let killed_args: Vec<&str> = killed.iter().map(String::as_str).collect();
    kill_9_when(&killed_args, Duration::from_secs(120), "3 games written", || next_game(&cut) >= 3);
    let at_kill = next_game(&cut);
    assert!(at_kill < 40, "killed before the end");
    // Without --resume the run is refused, naming the way on.
    assert_fails_with(&killed_args, "--resume");
    let mut resumed = killed_args.clone();
    resumed.push("--resume");
    let out = tuner_ok(&resumed);
    assert!(text(&out.stdout).contains("datagen: 40 games"), "{}", text(&out.stdout));
    assert_eq!(shard_files(&cut), shard_files(&whole), "killed at game {at_kill} and resumed");
    assert_eq!(game_indices(&cut), (0..40).collect::<Vec<_>>(), "each game once, in order");
    // Resuming a finished run writes nothing new.
    tuner_ok(&resumed);
    assert_eq!(shard_files(&cut), shard_files(&whole));
}

/// The arguments of a one-worker run of `games` games into `out` with `--resume-or-start`.
fn resume_or_start(out: &Path, games: &str) -> Vec<String> {
    let mut a = args(out, 1);
    a[2] = games.into();
    a.push("--resume-or-start".into());
    a
}

/// `--resume-or-start` (for scripts that rerun a command until it is done): a new run where
/// there is none, the run there continued where there is one.
#[test]
fn resume_or_start_starts_a_run_then_continues_it() {
    let base = scratch("datagen", "resume-or-start");
    let out = base.join("run");
    let run = |games: &str| resume_or_start(&out, games);
    tuner_in(&base, &run("3"));
    assert_eq!(game_indices(&out), (0..3).collect::<Vec<_>>());
    let out_text = text(&tuner_in(&base, &run("5")).stdout);
    assert!(out_text.contains("datagen: 5 games"), "{out_text}");
    assert_eq!(game_indices(&out), (0..5).collect::<Vec<_>>(), "the first 3 games kept, 2 more played");
    let mut both = run("5");
    both.push("--force".into());
    assert_fails_with(&both.iter().map(String::as_str).collect::<Vec<_>>(), "--force");
}

/// A run keeps its parameters in its own `params.toml`, which names their format: an engine
/// that gained parameters since (at the values that play as before) resumes it, though the hash
/// of its TOML changed; a changed value is refused, naming the key.
#[test]
fn a_run_resumes_on_an_engine_with_more_parameters_but_not_with_other_values() {
    let base = scratch("datagen", "params");
    let out = base.join("run");
    let run = |games: &str| resume_or_start(&out, games);
    tuner_in(&base, &run("3"));
    // As an older tuner would have left it: a hash over fewer keys, and a file without the
    // parameter added last.
    let identity = out.join("datagen.json");
    let json = std::fs::read_to_string(&identity).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["params"] = "0123456789abcdef".into();
    std::fs::write(&identity, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    // Its shards' headers carry the same hash.
    for (name, bytes) in shard_files(&out) {
        let shard = Shard::from_bytes(name.clone(), bytes).unwrap();
        let origin = Origin { params: 0x0123_4567_89ab_cdef, ..shard.origin().unwrap() };
        let games: Vec<_> = shard.records().map(|r| r.unwrap().game).collect();
        std::fs::write(out.join(name), encode_shard(&shard.filter, &origin, &games)).unwrap();
    }
    let params = out.join("params.toml");
    let toml = std::fs::read_to_string(&params).unwrap();
    assert!(toml.contains("\nin_check_pruning_use = 1\n"), "{toml}");
    std::fs::write(&params, toml.replace("\nin_check_pruning_use = 1\n", "\n")).unwrap();
    let out_text = text(&tuner_in(&base, &run("5")).stdout);
    assert!(out_text.contains("datagen: 5 games"), "{out_text}");
    assert_eq!(game_indices(&out), (0..5).collect::<Vec<_>>());
    // Other values are another engine.
    let other = base.join("other.toml");
    std::fs::write(&other, "[search]\nlmr_base = 80\n").unwrap();
    let mut changed = run("6");
    changed.extend(["--params".to_string(), other.to_str().unwrap().to_string()]);
    let changed: Vec<&str> = changed.iter().map(String::as_str).collect();
    assert_fails_with(&changed, "search.lmr_base = 75, not 80");
    assert_eq!(game_indices(&out), (0..5).collect::<Vec<_>>(), "nothing written");
}

/// The narrowest window of a kill: a full part recorded in progress.json but not yet renamed to
/// its closed name. Built by hand from an uninterrupted run's first shard.
#[test]
fn a_full_part_killed_before_its_rename_is_closed_on_resume() {
    let base = scratch("datagen", "rename");
    let (whole, cut) = (base.join("whole"), base.join("cut"));
    let run = args(&whole, 1);
    tuner_ok(&run.iter().map(String::as_str).collect::<Vec<_>>());
    std::fs::create_dir_all(&cut).unwrap();
    std::fs::copy(whole.join("datagen.json"), cut.join("datagen.json")).unwrap();
    let closed = std::fs::read(whole.join("shard-00000.bin")).unwrap();
    let shard = Shard::from_bytes("shard-00000.bin".into(), closed.clone()).unwrap();
    // The part as it was before the close appended the end block.
    let bytes = &closed[..shard.records_end()];
    std::fs::write(cut.join("shard-00000.bin.part"), bytes).unwrap();
    let games: Vec<_> = shard.records().map(|r| r.unwrap().game).collect();
    let kept = shard.samples().count() as u64;
    let plies: usize = games.iter().map(|g| g.plies.len()).sum();
    assert!(kept >= 400, "shard 0 is full: {kept}");
    let progress = serde_json::json!({
        "next_game": games.len(), "shard": 0, "part_bytes": bytes.len(), "part_games": games.len(),
        "part_positions": kept, "positions": kept, "plies": plies, "nodes": 0,
    });
    std::fs::write(cut.join("progress.json"), progress.to_string()).unwrap();
    let mut resumed = args(&cut, 2);
    resumed.push("--resume".into());
    tuner_ok(&resumed.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(shard_files(&cut), shard_files(&whole));
}

#[test]
fn export_prints_legal_positions_with_score_and_result() {
    let base = scratch("datagen", "export");
    let out = base.join("run");
    tuner_ok(&args(&out, 2).iter().map(String::as_str).collect::<Vec<_>>());
    let files: Vec<PathBuf> = shard_files(&out).iter().map(|(n, _)| out.join(n)).collect();
    let mut export = vec!["datagen".to_string(), "export".into()];
    export.extend(files.iter().map(|f| f.display().to_string()));
    let run = |extra: &[&str]| {
        let mut a: Vec<&str> = export.iter().map(String::as_str).collect();
        a.extend_from_slice(extra);
        text(&tuner_ok(&a).stdout)
    };
    let (kept, all) = (run(&[]), run(&["--all"]));
    let shards: Vec<Shard> = files.iter().map(|f| Shard::open(f).unwrap()).collect();
    assert_eq!(kept.lines().count(), shards.iter().map(|s| s.samples().count()).sum::<usize>());
    assert_eq!(all.lines().count(), shards.iter().map(|s| s.samples_with(Filter::ALL).count()).sum::<usize>());
    assert!(kept.lines().count() < all.lines().count());
    let mut results = std::collections::HashSet::new();
    for line in kept.lines() {
        let f: Vec<&str> = line.split(" | ").collect();
        assert_eq!(f.len(), 3, "{line}");
        let pos = arena::openings::parse_fen(f[0]).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(!shakmaty::Position::is_check(&pos), "the default filter skips checks: {line}");
        f[1].parse::<i32>().unwrap();
        assert!(["1.0", "0.5", "0.0"].contains(&f[2]), "{line}");
        results.insert(f[2].to_string());
    }
    assert!(results.len() >= 2, "20 games have more than one result: {results:?}");
    // The first line is the first game's first kept position, as the reader API yields it.
    let first = shards[0].samples().next().unwrap().unwrap();
    assert!(kept.starts_with(&format!(
        "{} | {} | ",
        shakmaty::fen::Fen::from_position(&first.pos, shakmaty::EnPassantMode::Legal),
        first.score
    )));
}

#[test]
fn bad_input_is_named() {
    let base = scratch("datagen", "bad");
    let out = base.join("run");
    let o = out.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut a = vec!["datagen", "--games", "2", "--out", o];
        if !extra.contains(&"--nodes") {
            a.extend(["--nodes", "100"]);
        }
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let fails =
        |a: Vec<String>, needle: &str| assert_fails_with(&a.iter().map(String::as_str).collect::<Vec<_>>(), needle);
    fails(run(&["--nodes", "0"]), "--nodes must be at least 1");
    fails(run(&["--concurrency", "0"]), "--concurrency must be at least 1");
    fails(run(&["--openings", "/no/such/book.epd"]), "/no/such/book.epd");
    let bad_book = base.join("bad.epd");
    std::fs::write(&bad_book, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen\n").unwrap();
    fails(run(&["--openings", bad_book.to_str().unwrap()]), "line 2");
    fails(run(&["--draw", "movecount=x"]), "--draw `movecount=x`");
    fails(run(&["--resign", "score=100"]), "--resign");
    fails(run(&["--syzygy", base.to_str().unwrap()]), "contains no table files");
    fails(run(&["--resume"]), "no run to resume");
    tuner_ok(&run(&[]).iter().map(String::as_str).collect::<Vec<_>>());
    fails(run(&[]), "--force");
    fails(run(&["--resume", "--nodes", "200"]), "nodes = 100, not 200");
    tuner_ok(&run(&["--force", "--nodes", "200"]).iter().map(String::as_str).collect::<Vec<_>>());

    let junk = base.join("junk.bin");
    std::fs::write(&junk, b"hello world").unwrap();
    assert_fails_with(&["datagen", "export", junk.to_str().unwrap()], "junk.bin, byte 0: not a datagen shard");
    let shard = out.join("shard-00000.bin");
    let bytes = std::fs::read(&shard).unwrap();
    let cut = base.join("cut.bin");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    assert_fails_with(&["datagen", "export", cut.to_str().unwrap()], "cut.bin, byte ");
    assert_fails_with(&["datagen", "export", "/no/such/shard.bin"], "/no/such/shard.bin");
}

/// `(name, bytes)` of every file of `dir`, sorted.
fn all_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| (p.file_name().unwrap().to_str().unwrap().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn a_bad_hash_or_games_0_is_named_and_force_keeps_the_shards_until_the_inputs_are_good() {
    let base = scratch("datagen", "force-inputs");
    let out = base.join("run");
    let o = out.to_str().unwrap();
    let run = |extra: &[&'static str]| {
        let mut a = vec!["datagen", "--out", o];
        if !extra.contains(&"--nodes") {
            a.extend(["--nodes", "100"]);
        }
        a.extend_from_slice(extra);
        a
    };
    // Before: a panic in the TT's allocation (rc 134), after the run's files were written.
    let fresh = base.join("fresh");
    let fresh_run = ["datagen", "--games", "2", "--nodes", "100", "--out", fresh.to_str().unwrap()];
    for (hash, needle) in [("99999999", "--hash 99999999"), ("0", "--hash 0")] {
        let err = common::tuner_err(&[&fresh_run[..], &["--hash", hash]].concat());
        assert!(err.contains(needle) && err.contains("65536"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!fresh.join("progress.json").exists(), "--hash {hash}: a run was started");
    }
    tuner_ok(&run(&["--games", "2"]));
    let before = all_files(&out);
    assert!(before.iter().any(|(n, _)| n == "shard-00000.bin"), "{before:?}");
    // Before: `--games 0 --force` deleted every shard and reported success.
    for (extra, needle) in [
        (vec!["--games", "0", "--force"], "--games 0"),
        (vec!["--games", "0"], "--games 0"),
        (vec!["--games", "2", "--hash", "99999999", "--force"], "--hash 99999999"),
        (vec!["--games", "2", "--openings", "/no/such/book.epd", "--force"], "/no/such/book.epd"),
        (vec!["--games", "2", "--nodes", "0", "--force"], "--nodes must be at least 1"),
        (vec!["--games", "2", "--params", "/no/such/params.toml", "--force"], "/no/such/params.toml"),
    ] {
        let args = run(&extra);
        assert_fails_with(&args, needle);
        assert!(all_files(&out) == before, "{args:?} changed {o}");
    }
    // With good inputs --force starts over.
    tuner_ok(&run(&["--games", "1", "--force"]));
    assert!(all_files(&out) != before);
}

/// 30 single bits flipped across a finished shard (header, blocks, end block): `datagen export`
/// and `texel` refuse every copy, naming the file and the byte. Before: 24 of 30 were exported
/// as other positions or scores.
#[test]
fn every_flipped_bit_of_a_shard_is_refused_by_export_and_texel() {
    let base = scratch("datagen", "bitflip");
    let out = base.join("run");
    let mut a = args(&out, 2);
    a[2] = "6".into();
    tuner_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let bytes = std::fs::read(out.join("shard-00000.bin")).unwrap();
    let bits = bytes.len() * 8;
    let flipped = base.join("flipped.bin");
    let mut silent = Vec::new();
    for i in 0..30 {
        // Spread over the file, the first bytes (the header) included.
        let bit = if i < 5 { i * 13 + 3 } else { (i * bits) / 30 + (i * 7) % 8 };
        let mut b = bytes.clone();
        b[bit / 8] ^= 1 << (bit % 8);
        std::fs::write(&flipped, &b).unwrap();
        let f = flipped.to_str().unwrap();
        let export = tuner(&["datagen", "export", "--all", f]);
        let err = text(&export.stderr);
        if export.status.success() || !err.contains("flipped.bin, byte ") {
            silent.push((bit, "export", err));
        }
        let o = base.join(format!("texel{i}"));
        let fit = tuner(&["texel", "--data", f, "--generations", "1", "--threads", "1", "--out", o.to_str().unwrap()]);
        let err = text(&fit.stderr);
        if fit.status.success() || !err.contains("flipped.bin, byte ") {
            silent.push((bit, "texel", err));
        }
    }
    assert!(silent.is_empty(), "{} of 60 reads not refused with file and byte: {silent:?}", silent.len());
}

/// A copy of the finished run `from` in `to`.
fn copy_run(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).unwrap();
    for (name, bytes) in all_files(from) {
        std::fs::write(to.join(name), bytes).unwrap();
    }
}

/// Something done to a copy of a run's directory.
type Damage<'a> = Box<dyn Fn(&Path) + 'a>;

/// `--resume` checks the closed shards: one deleted, cut short (at a block boundary too) or taken
/// from another run is refused, naming the file, whether the run has games left or not. Before,
/// each resumed to "success" with the shard's positions gone.
#[test]
fn resume_refuses_a_run_whose_closed_shard_is_gone_cut_or_foreign() {
    let base = scratch("datagen", "resume-check");
    let (run, other, copy) = (base.join("run"), base.join("other"), base.join("copy"));
    tuner_ok(&args(&run, 2).iter().map(String::as_str).collect::<Vec<_>>());
    let mut o = args(&other, 2);
    o[6] = "8".into();
    tuner_ok(&o.iter().map(String::as_str).collect::<Vec<_>>());
    let first = std::fs::read(run.join("shard-00000.bin")).unwrap();
    let records_end = Shard::from_bytes("s".into(), first.clone()).unwrap().records_end();
    let foreign = std::fs::read(other.join("shard-00000.bin")).unwrap();
    let damages: [(&str, Damage, &str); 5] = [
        ("deleted", Box::new(|d: &Path| std::fs::remove_file(d.join("shard-00000.bin")).unwrap()), "missing"),
        (
            "cut",
            Box::new(|d: &Path| std::fs::write(d.join("shard-00000.bin"), &first[..first.len() / 2]).unwrap()),
            "byte ",
        ),
        (
            "cut at its end block",
            Box::new(|d: &Path| std::fs::write(d.join("shard-00000.bin"), &first[..records_end]).unwrap()),
            "no end block",
        ),
        (
            "another run's",
            Box::new(|d: &Path| std::fs::write(d.join("shard-00000.bin"), &foreign).unwrap()),
            "a shard of run",
        ),
        (
            "a stray",
            Box::new(|d: &Path| std::fs::write(d.join("shard-00099.bin"), &foreign).unwrap()),
            "not a shard of this run",
        ),
    ];
    for (what, damage, needle) in &damages {
        for games in ["20", "24"] {
            copy_run(&run, &copy);
            damage(&copy);
            let mut a = args(&copy, 1);
            a[2] = games.into();
            a.push("--resume".into());
            let e = tuner_err(&a.iter().map(String::as_str).collect::<Vec<_>>());
            assert!(
                e.contains("shard-000") && e.contains(needle) && e.contains("cannot resume"),
                "{what}, --games {games}: {e}"
            );
        }
    }
    // The intact copy resumes, and its next games continue the run.
    copy_run(&run, &copy);
    let mut a = args(&copy, 1);
    a[2] = "24".into();
    a.push("--resume".into());
    tuner_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(game_indices(&copy), (0..24).collect::<Vec<_>>());
}

/// A run directory of format 1 (before checksums) is not continued, naming what to do; its
/// shards stay readable (with a warning).
#[test]
fn a_format_1_run_is_not_resumed_but_its_shards_are_read() {
    let data = common::repo().join("data/selfplay2");
    let shard = data.join("shard-00000.bin");
    let out = tuner(&["datagen", "export", shard.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("shard format 1 has no checksums"), "{}", text(&out.stderr));
    assert!(text(&out.stdout).lines().count() > 200_000);
    let base = scratch("datagen", "format1");
    let copy = base.join("run");
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["datagen.json", "progress.json"] {
        std::fs::copy(data.join(f), copy.join(f)).unwrap();
    }
    let mut a = args(&copy, 1);
    a.push("--resume".into());
    let e = tuner_err(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(e.contains("shard format 1") && e.contains("cannot continue"), "{e}");
}
