//! Parameter files through the binary: `--params`, the `ParamsFile` option and the per-parameter
//! spin options. Bad files are refused with a message naming the key.

mod common;

use std::time::Duration;

use common::{REPLY, Session, eval_cp, run_bin, temp_file};
use evochess::{
    Params,
    eval::evaluate,
    params::{DEFAULT_TOML, FORMAT_KEY, PARAMS_FORMAT, ParamId, ParamSpec},
};
use shakmaty::{CastlingMode, Chess, fen::Fen};

const TIMEOUT: Duration = Duration::from_secs(30);

/// A lopsided position, so material and piece weights all show in the evaluation.
const FEN: &str = "r3k3/pp3ppp/2n5/8/3P4/2N2N2/PP1Q1PPP/R3K2R w KQq - 0 1";

fn position() -> Chess {
    FEN.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

/// A parameter that moves the evaluation of [`FEN`] when set to its maximum, with that value.
fn sensitive_param() -> (&'static ParamSpec, Params) {
    let base = evaluate(&position(), &Params::default().eval);
    Params::specs()
        .find_map(|spec| {
            let mut p = Params::default();
            p.set_by_name(spec.name, i64::from(spec.max)).unwrap();
            (evaluate(&position(), &p.eval) != base).then_some((spec, p))
        })
        .expect("some parameter changes the evaluation")
}

#[test]
fn default_toml_round_trips_through_params_flag() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/params/default.toml");
    let out = run_bin(&["--params", path, "params", "--dump"], "", TIMEOUT);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), Params::default().to_toml());
    assert!(DEFAULT_TOML.ends_with(&Params::default().values_toml()), "only a comment precedes the values");

    // And the UCI loop starts with it.
    let mut s = Session::start_with(&["--params", path]);
    s.send("uci");
    s.expect_line("uciok", REPLY);
    s.send("position startpos");
    s.send("go depth 2");
    s.read_until_bestmove(REPLY);
    assert!(s.quit().success());
}

#[test]
fn partial_file_overrides_its_key_everywhere() {
    let spec = Params::specs().next().unwrap();
    let value = spec.min;
    let file = temp_file("partial.toml", &format!("[{}]\n{} = {value}\n", spec.section, spec.name));
    let file = file.to_str().unwrap();
    let out = run_bin(&["--params", file, "params", "--dump"], "", TIMEOUT);
    let dump = String::from_utf8(out.stdout).unwrap();
    assert!(dump.contains(&format!("\n{} = {value}\n", spec.name)), "{dump}");
    // UCI (in tuning mode) announces the loaded value as the option default.
    let out = run_bin(&["--params", file, "--tune"], "uci\nquit\n", TIMEOUT);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains(&format!("option name {} type spin default {value} min", spec.name)), "{text}");
}

#[test]
fn bad_params_files_exit_2_naming_the_key() {
    let spec = Params::specs().next().unwrap();
    let key = spec.key();
    let cases = [
        ("unknown.toml", format!("[{}]\nno_such_term = 3\n", spec.section), format!("{}.no_such_term", spec.section)),
        ("type.toml", format!("[{}]\n{} = \"lots\"\n", spec.section, spec.name), key.clone()),
        ("range.toml", format!("[{}]\n{} = {}\n", spec.section, spec.name, i64::from(spec.max) + 1), key.clone()),
        ("section.toml", "[engine]\nhash = 3\n".to_string(), "engine".to_string()),
        ("syntax.toml", "[eval\n".to_string(), "TOML syntax error at line 1".to_string()),
    ];
    for (name, contents, culprit) in cases {
        let file = temp_file(name, &contents);
        for args in
            [vec!["--params", file.to_str().unwrap()], vec!["--params", file.to_str().unwrap(), "params", "--dump"]]
        {
            let out = run_bin(&args, "uci\nquit\n", TIMEOUT);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
            assert!(stderr.contains(&culprit), "{name}: `{culprit}` not in {stderr}");
            assert!(
                out.stdout.is_empty(),
                "{name}: stdout must stay clean: {:?}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
    }
    let out = run_bin(&["--params", "/no/such/params.toml", "params", "--dump"], "", TIMEOUT);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/params.toml"));
}

/// An unknown key (or section) in a parameter file is refused, over UCI and on the command
/// line, with the file, the key and the key's line; the engine keeps what it had.
#[test]
fn unknown_keys_are_refused_naming_file_key_and_line() {
    let spec = Params::specs().next().unwrap();
    let key_file = temp_file(
        "unknown-key.toml",
        &format!("# tuned\n[{s}]\n{n} = {v}\n\nno_such_term = 3\n", s = spec.section, n = spec.name, v = spec.default),
    );
    let section_file = temp_file("unknown-section.toml", "[eval]\n\n[engine]\nhash = 3\n");
    let key = format!("{}.no_such_term", spec.section);
    let cases = [
        (&key_file, format!(", line 5: unknown parameter `{key}`")),
        (&section_file, ", line 3: unknown section `engine`".into()),
    ];
    let mut s = Session::start();
    s.send(&format!("position fen {FEN}"));
    let before = eval_cp(&mut s);
    for (file, expected) in &cases {
        let e = s.expect_error(&format!("setoption name ParamsFile value {}", file.display()));
        assert!(e.contains(&format!("{}{expected}", file.display())), "{e}");
        assert_eq!(eval_cp(&mut s), before);
        let out = run_bin(&["--params", file.to_str().unwrap(), "params", "--dump"], "", TIMEOUT);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("--params: {}{expected}", file.display())), "{stderr}");
        assert!(out.stdout.is_empty());
    }
    assert!(s.quit().success());
}

#[test]
fn params_file_option_loads_and_keeps_previous_on_error() {
    let (spec, changed) = sensitive_param();
    let expected = evaluate(&position(), &changed.eval);
    let default = evaluate(&position(), &Params::default().eval);

    let mut s = Session::start();
    s.send(&format!("position fen {FEN}"));
    assert_eq!(eval_cp(&mut s), default);

    let good = temp_file("good.toml", &format!("[{}]\n{} = {}\n", spec.section, spec.name, spec.max));
    s.send(&format!("setoption name ParamsFile value {}", good.display()));
    let lines = s.sync();
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    assert_eq!(eval_cp(&mut s), expected);

    let bad = temp_file("bad.toml", &format!("[{}]\n{} = {}\n", spec.section, spec.name, i64::from(spec.min) - 1));
    let e = s.expect_error(&format!("setoption name paramsfile value {}", bad.display()));
    assert!(e.contains(&spec.key()), "{e}");
    assert_eq!(eval_cp(&mut s), expected, "a refused file must keep the previous parameters");

    assert!(s.expect_error("setoption name ParamsFile value /no/such/file.toml").contains("/no/such/file.toml"));
    assert_eq!(eval_cp(&mut s), expected);

    // Empty: back to the compiled-in defaults.
    s.send("setoption name ParamsFile value <empty>");
    s.sync_quiet();
    assert_eq!(eval_cp(&mut s), default);
}

/// A removed parameter (a failed patch, issue 92 item 7) named by `--params`, `ParamsFile` or
/// `setoption`: the file loads and plays as the engine now does, with a note on stderr or as an
/// `info string`; a value that asks for the removed feature is said to, over UCI as an error.
#[test]
fn removed_parameters_load_with_a_note_everywhere() {
    let removed = Params::find_removed("razor_depth").expect("razoring was removed");
    // The current format: an older one plays the keys added since at their old values.
    let text = format!("format = {PARAMS_FORMAT}\n[search]\nrazor_depth = 2\nrazor_margin = 450\n");
    let file = temp_file("removed.toml", &text);
    let file = file.to_str().unwrap();
    let out = run_bin(&["--params", file, "params", "--dump"], "", TIMEOUT);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), Params::default().to_toml(), "plays as the defaults");
    assert!(
        stderr.contains(&format!("{file}: `search.razor_depth` = 2 asks for a feature that was removed")),
        "{stderr}"
    );
    assert!(stderr.contains("`search.razor_margin` was removed"), "{stderr}");
    assert!(stderr.contains(removed.why), "{stderr}");

    let mut s = Session::start();
    s.send(&format!("setoption name ParamsFile value {file}"));
    let lines = s.sync();
    assert!(lines.iter().all(|l| !l.contains("error")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info string") && l.contains("`search.razor_depth` = 2 asks")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains(&format!("loaded parameters from {file}"))), "{lines:?}");
    // `setoption`: the off value (or any value of a key that only tuned the feature) is noted,
    // another value is an error; neither changes anything, and a bad number is still refused.
    s.send("setoption name razor_depth value 0");
    let lines = s.sync();
    assert!(
        matches!(lines.as_slice(), [l] if l.starts_with("info string `search.razor_depth` was removed")),
        "{lines:?}"
    );
    s.send("setoption name Razor_Margin value 7");
    let lines = s.sync();
    assert!(
        matches!(lines.as_slice(), [l] if l.starts_with("info string `search.razor_margin` was removed")),
        "{lines:?}"
    );
    let e = s.expect_error("setoption name razor_depth value 3");
    assert!(e.contains("`search.razor_depth` = 3 asks for a feature that was removed"), "{e}");
    assert!(s.expect_error("setoption name razor_depth value x").contains("not an integer"));
    assert!(s.expect_error("setoption name razor_dept value 0").contains("unknown option"));
    s.send("position startpos");
    s.send("go depth 3");
    s.read_until_bestmove(REPLY);
    assert!(s.quit().success());
}

/// Device files, FIFOs and huge files are refused at once, and errors never quote the file.
#[test]
fn params_file_is_a_bounded_regular_file_and_errors_never_echo_it() {
    let dir = temp_file("fifo-dir-marker", "").parent().unwrap().to_path_buf();
    let fifo = dir.join("params.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let secret = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n";
    let passwd_like = temp_file("passwd", secret);
    let big = temp_file("big.toml", &format!("# {}\n", "x".repeat(2 << 20)));
    let mut s = Session::start();
    let start = std::time::Instant::now();
    for (path, expected) in [
        (fifo.to_str().unwrap(), "not a regular file"),
        ("/dev/zero", "not a regular file"),
        ("/dev/urandom", "not a regular file"),
        (big.to_str().unwrap(), "over the 1048576-byte limit"),
        (passwd_like.to_str().unwrap(), "TOML syntax error at line 1"),
    ] {
        let e = s.expect_error(&format!("setoption name ParamsFile value {path}"));
        assert!(e.contains(path) && e.contains(expected), "{path}: {e}");
        assert!(!e.contains("root") && !e.contains("daemon"), "the file's text is echoed: {e}");
    }
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    // A value of the wrong type is named by its type, not quoted.
    let spec = Params::specs().next().unwrap();
    let typed = temp_file("typed.toml", &format!("[{}]\n{} = \"hunter2\"\n", spec.section, spec.name));
    let e = s.expect_error(&format!("setoption name ParamsFile value {}", typed.display()));
    assert!(e.contains(&spec.key()) && e.contains("a string") && !e.contains("hunter2"), "{e}");
    // The same through --params.
    let out = run_bin(&["--params", "/dev/zero", "params", "--dump"], "", TIMEOUT);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    let out = run_bin(&["--params", passwd_like.to_str().unwrap(), "params", "--dump"], "", TIMEOUT);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.code() == Some(2) && !stderr.contains("root"), "{stderr}");
    assert!(s.quit().success());
    std::fs::remove_file(&fifo).unwrap();
}

/// procfs files report size 0 and some block on read (`/proc/kmsg`): the engine answers at once
/// (permission denied, or a read that would block) instead of hanging.
#[test]
fn params_and_book_files_in_procfs_never_hang_the_engine() {
    let mut s = Session::start();
    let start = std::time::Instant::now();
    for option in ["ParamsFile", "BookFile"] {
        let e = s.expect_error(&format!("setoption name {option} value /proc/kmsg"));
        assert!(e.contains("/proc/kmsg"), "{e}");
    }
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    assert!(s.quit().success());
}

#[test]
fn setoption_of_a_parameter_changes_eval() {
    let (spec, changed) = sensitive_param();
    let mut s = Session::start();
    s.send(&format!("position fen {FEN}"));
    let before = eval_cp(&mut s);
    assert_eq!(before, evaluate(&position(), &Params::default().eval));
    s.send(&format!("setoption name {} value {}", spec.name.to_uppercase(), spec.max));
    s.sync_quiet();
    assert_eq!(eval_cp(&mut s), evaluate(&position(), &changed.eval));
    // Black to move sees the negated score of the mirrored question.
    s.send(&format!("position fen {}", FEN.replace(" w ", " b ")));
    let black = eval_cp(&mut s);
    let pos: Chess = FEN.replace(" w ", " b ").parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    assert_eq!(black, evaluate(&pos, &changed.eval));
}

/// Every committed evolved file (params/evolved, recursively) loads, stays in range and is not
/// just the defaults: a broken or stale result must fail here, not in a user's GUI. The one the
/// default evaluation was last promoted from must equal it, and an early one the 2026-11-27
/// default's (the search defaults have moved on since, proven by SPRT: BENCHMARKS.md).
#[test]
fn committed_evolved_files_load_and_differ_from_the_defaults() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    toml_files(&root.join("params/evolved"), &mut files);
    assert!(!files.is_empty());
    let before_promotion = Params::load(root.join("params/default-2026-11-27.toml")).unwrap();
    for f in files {
        let p = Params::load(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        if f.ends_with("evolved/texel-selfplay5-product.toml") {
            // Promoted in session 95 (the king danger's attacker product, every term refitted).
            assert_eq!(p.eval, Params::default().eval, "the default evaluation is {}'s", f.display());
        } else if f.ends_with("full-mentor-refine.toml") {
            assert_eq!(p.eval, before_promotion.eval, "the 2026-11-27 default evaluation is {}'s", f.display());
        } else {
            assert_ne!(p, Params::default(), "{} holds only the defaults", f.display());
        }
    }
}

fn toml_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            toml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
}

/// A committed parameter file is a fixed point (a measured strength, a reference, a seed): it
/// names its format, so the keys a later engine adds play in it as they did when it was written,
/// not as the later defaults. The files written before the per-square and mobility-table terms
/// and the singular refinements therefore play without them.
#[test]
fn committed_parameter_files_name_their_format_and_play_as_written() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    toml_files(&root.join("params"), &mut files);
    assert!(files.len() > 30);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let table: toml::Table = text.parse().unwrap();
        assert!(table.contains_key(FORMAT_KEY), "{} does not name its format", f.display());
        let p = Params::load(f).unwrap();
        // Every key added after the file's format that the file leaves out plays at its old
        // value (for format 1: psq_*, mob_* and the singular refinements at 0).
        let format = table[FORMAT_KEY].as_integer().unwrap();
        for (i, spec) in Params::specs().enumerate() {
            let set_by_file = table.get(spec.section).and_then(|s| s.get(spec.name)).is_some();
            if let Some(since) = spec.since
                && i64::from(since.format) > format
                && !set_by_file
            {
                assert_eq!(p.get(ParamId(i)), since.before, "{}: {}", f.display(), spec.key());
            }
        }
    }
    let hand_set = Params::load(root.join("params/hand-set.toml")).unwrap();
    let p = Params::default();
    assert_ne!(evaluate(&position(), &hand_set.eval), evaluate(&position(), &p.eval));
    assert_eq!(hand_set.search.lmr_tt_noisy, 0);
    assert_eq!(Params::load(root.join("params/default.toml")).unwrap(), p);
}
