//! The README's recipes, run as a user pastes them (issue 91 acceptance 2, issue 90 item 3). Each
//! `sh` block of README.md's "Recipes" section runs under bash in an empty temporary directory
//! outside the checkout, with `target/release/tuner` and `target/release/evochess` standing for
//! this build's binaries (named by path only, no PATH entry) and its budgets shrunk by the
//! substitutions in [`RECIPES`]. Each substitution must still match the README, so a recipe that
//! changes fails here until its entry does. Every tuner call is recorded: each must succeed (or
//! end as documented), and each long command's first stdout line must be its plan.

mod common;

use std::{
    net::TcpListener,
    os::unix::process::CommandExt,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

use common::{TUNER, engine_binary, repo};

/// A recipe: its README heading and the substitutions that shrink its budgets.
struct Recipe {
    heading: &'static str,
    shrink: &'static [(&'static str, &'static str)],
}

/// Every recipe of the README with a command block, in its order.
const RECIPES: &[Recipe] = &[
    Recipe {
        heading: "Play a gauntlet against the Debian engines",
        // Glaurung cannot search `go nodes`: a short clock instead.
        shrink: &[("tc=10+0.1", "tc=1+0.02"), ("--games 20", "--games 2")],
    },
    Recipe {
        heading: "Evolve the search in games (`tuner coevolve`)",
        shrink: &[
            // The default run keeps its config; only the budget is cut to one generation.
            ("coevolve                      #", "coevolve --nodes 200 --generations 1 --set gate.max_games=20 #"),
            (
                "--nodes 2000 --generations 3 --set gate.max_games=200",
                "--nodes 200 --generations 1 --set gate.max_games=20",
            ),
        ],
    },
    Recipe {
        heading: "The tuning loop: datagen → texel → promote",
        shrink: &[
            // Fewer games would leave texel's validation set (a share of the games) empty.
            ("--games 50 --nodes 5000", "--games 50 --nodes 300"),
            ("--generations 20", "--generations 2"),
            ("--nodes 10000 --concurrency 2", "--nodes 500 --concurrency 2"),
            ("--max-games 400", "--max-games 4"),
        ],
    },
    Recipe {
        heading: "Tune a group by SPSA (`tuner spsa`)",
        shrink: &[("iterations = 50", "iterations = 2"), ("nodes = 5000", "nodes = 300")],
    },
    Recipe { heading: "Spread games over machines (`tuner worker`)", shrink: &[] },
];

/// The `sh` blocks of each `###` section under "## Recipes", by heading.
fn readme_recipes() -> Vec<(String, Vec<String>)> {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let mut recipes: Vec<(String, Vec<String>)> = Vec::new();
    let (mut in_recipes, mut block): (bool, Option<String>) = (false, None);
    for line in readme.lines() {
        if let Some(b) = block.as_mut() {
            if line.trim_start().starts_with("```") {
                let b = block.take().unwrap();
                recipes.last_mut().expect("a block under a heading").1.push(b);
            } else {
                b.push_str(line);
                b.push('\n');
            }
        } else if let Some(h) = line.strip_prefix("## ") {
            in_recipes = h == "Recipes";
        } else if let Some(h) = line.strip_prefix("### ").filter(|_| in_recipes) {
            recipes.push((h.to_string(), Vec::new()));
        } else if in_recipes && line.trim_start() == "```sh" {
            block = Some(String::new());
        }
    }
    recipes.retain(|(_, blocks)| !blocks.is_empty());
    recipes
}

/// The recipe's script with its budgets shrunk and the binaries replaced; panics, naming the
/// substitution, when the README no longer has the text it replaces.
fn script(heading: &str, bin: &Path, install: &Path) -> String {
    let recipe = RECIPES.iter().find(|r| r.heading == heading).expect("a recipe of RECIPES");
    let (_, blocks) = readme_recipes().into_iter().find(|(h, _)| h == heading).expect("the README has the recipe");
    let mut script = blocks.join("\n");
    for (from, to) in recipe.shrink {
        assert!(script.contains(from), "the recipe \"{heading}\" no longer has `{from}`: update RECIPES\n{script}");
        script = script.replace(from, to);
    }
    script
        .replace("target/release/tuner", &bin.join("tuner").display().to_string())
        .replace("target/release/evochess", &install.join("evochess").display().to_string())
}

/// How the script ended, and what it printed.
struct Ran {
    success: bool,
    stdout: String,
    stderr: String,
}

/// One recorded call of the tuner: its arguments, exit status, stdout and stderr.
#[derive(Debug)]
struct Call {
    args: String,
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

/// A user's machine in a temporary directory: the binaries side by side in `install/`, a
/// recording `bin/tuner` in front of them, an empty working directory `work/` and a `home/`.
struct Machine {
    root: PathBuf,
    install: PathBuf,
    bin: PathBuf,
    work: PathBuf,
    calls: PathBuf,
}

impl Machine {
    fn new(name: &str) -> Machine {
        let root = std::env::temp_dir().join(format!("evochess-recipes-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let m = Machine {
            install: root.join("install"),
            bin: root.join("bin"),
            work: root.join("work"),
            calls: root.join("calls"),
            root,
        };
        for d in [&m.install, &m.bin, &m.work, &m.calls, &m.root.join("home")] {
            std::fs::create_dir_all(d).unwrap();
        }
        for (from, to) in
            [(PathBuf::from(TUNER), m.install.join("tuner")), (engine_binary(), m.install.join("evochess"))]
        {
            if std::fs::hard_link(&from, &to).is_err() {
                std::fs::copy(&from, &to).unwrap();
            }
        }
        // Records each call (stdout, stderr, status), then passes its output on unchanged.
        let wrapper = format!(
            "#!/bin/bash\nlog=\"{calls}/$(date +%s%N)-$$\"\nprintf '%s\\n' \"$*\" > \"$log.args\"\n\
             \"{real}\" \"$@\" > \"$log.out\" 2> \"$log.err\"; rc=$?\necho $rc > \"$log.rc\"\n\
             cat \"$log.out\"; cat \"$log.err\" >&2\nexit $rc\n",
            calls = m.calls.display(),
            real = m.install.join("tuner").display()
        );
        let tuner = m.bin.join("tuner");
        std::fs::write(&tuner, wrapper).unwrap();
        std::fs::set_permissions(&tuner, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        m
    }

    /// Runs the recipes in order in `work/` (one bash, `set -e`), then stops whatever they left
    /// running in the background (their process group). The script's output goes to files, which
    /// background processes may keep open: pipes would never close while they run.
    fn run(&self, headings: &[&str], edit: impl Fn(String) -> String) -> (Ran, Vec<Call>) {
        let script: Vec<String> = headings.iter().map(|h| edit(script(h, &self.bin, &self.install))).collect();
        let script = format!("set -e\n{}", script.join("\n"));
        std::fs::write(self.root.join("script.sh"), &script).unwrap();
        let mut child = Command::new("bash")
            .arg(self.root.join("script.sh"))
            .current_dir(&self.work)
            .env("HOME", self.root.join("home"))
            .env("PATH", "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin:/usr/games")
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(self.root.join("script.out")).unwrap())
            .stderr(std::fs::File::create(self.root.join("script.err")).unwrap())
            .process_group(0)
            .spawn()
            .expect("bash starts");
        let group = child.id();
        let status = child.wait().unwrap();
        let _ = Command::new("kill").args(["-KILL", "--", &format!("-{group}")]).stderr(Stdio::null()).status();
        let read = |name: &str| std::fs::read_to_string(self.root.join(name)).unwrap_or_default();
        (Ran { success: status.success(), stdout: read("script.out"), stderr: read("script.err") }, self.calls())
    }

    fn calls(&self) -> Vec<Call> {
        let mut stems: Vec<PathBuf> = std::fs::read_dir(&self.calls)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "args"))
            .map(|p| p.with_extension(""))
            .collect();
        stems.sort();
        let read = |stem: &Path, ext: &str| std::fs::read_to_string(stem.with_extension(ext)).unwrap_or_default();
        stems
            .iter()
            .map(|s| Call {
                args: read(s, "args").trim_end().to_string(),
                status: read(s, "rc").trim().parse().ok(),
                stdout: read(s, "out"),
                stderr: read(s, "err"),
            })
            .collect()
    }
}

/// The long commands, whose first stdout line is their plan; `datagen export` is not one, nor a
/// gauntlet of fewer than 100 games (it starts with its games, as cutechess-cli's do).
fn long_command(args: &str) -> Option<&str> {
    let command = args.split_whitespace().next()?;
    let long = ["coevolve", "datagen", "texel", "promote", "spsa"].contains(&command);
    (long && !args.starts_with("datagen export")).then_some(command)
}

/// Whether a call ended as its command documents: success, or `promote`'s H0 (3), no decision
/// (4) or "nothing to test".
fn ended_as_documented(call: &Call) -> bool {
    match (call.args.split_whitespace().next(), call.status) {
        (_, Some(0)) => true,
        (Some("promote"), Some(3 | 4)) => true,
        (Some("promote"), Some(1)) => call.stderr.contains("nothing to test"),
        _ => false,
    }
}

/// Runs the recipes and checks every call; the calls, for more checks.
fn check_recipes(name: &str, headings: &[&str], edit: impl Fn(String) -> String) -> Vec<Call> {
    let machine = Machine::new(name);
    let (out, calls) = machine.run(headings, edit);
    let shown = || format!("stdout:\n{}\nstderr:\n{}\ncalls: {calls:#?}", out.stdout, out.stderr);
    assert!(!calls.is_empty(), "no tuner call: {}", shown());
    for call in &calls {
        // A call still running when the script ended (a background worker) has no status.
        if call.status.is_none() && call.args.starts_with("worker") {
            continue;
        }
        assert!(ended_as_documented(call), "`tuner {}` failed: {}", call.args, shown());
        let documented_stop = call.status != Some(0) && !matches!(call.status, Some(3 | 4));
        if let Some(command) = long_command(&call.args).filter(|_| !documented_stop) {
            let first = call.stdout.lines().next().unwrap_or_default();
            // `coevolve (evolution strategy): ...` names its method before the colon.
            let named = first.starts_with(&format!("{command}: ")) || first.starts_with(&format!("{command} ("));
            assert!(
                named && first.contains("ETA "),
                "the first line of `tuner {}` is not its plan: {first:?}",
                call.args
            );
        }
    }
    let last_ended_early = calls.last().is_some_and(|c| c.status != Some(0) && ended_as_documented(c));
    assert!(out.success || last_ended_early, "the script failed: {}", shown());
    let _ = std::fs::remove_dir_all(&machine.root);
    calls
}

fn commands(calls: &[Call]) -> Vec<&str> {
    calls.iter().map(|c| c.args.split_whitespace().next().unwrap_or_default()).collect()
}

#[test]
fn every_readme_recipe_is_run_by_this_test() {
    let readme: Vec<String> = readme_recipes().into_iter().map(|(h, _)| h).collect();
    let known: Vec<&str> = RECIPES.iter().map(|r| r.heading).collect();
    assert_eq!(readme, known, "README.md's recipes with commands and this test's RECIPES differ");
}

#[test]
fn the_tuning_loop_recipe_runs_from_an_empty_directory() {
    let calls = check_recipes("loop", &["The tuning loop: datagen → texel → promote"], |s| s);
    assert_eq!(commands(&calls), ["datagen", "datagen", "texel", "promote"]);
    // `datagen export` prints `FEN | score | result` lines.
    let first = calls[1].stdout.lines().next().unwrap_or_default();
    assert_eq!(first.split(" | ").count(), 3, "not a position of the export: {first}");
}

#[test]
fn the_spsa_recipe_runs_from_an_empty_directory() {
    let calls = check_recipes("spsa", &["Tune a group by SPSA (`tuner spsa`)"], |s| s);
    assert_eq!(commands(&calls), ["spsa"]);
    assert!(calls[0].stdout.contains("2 iterations of 1 game pairs"), "{}", calls[0].stdout);
}

#[test]
#[ignore = "needs /usr/games/glaurung"]
fn the_gauntlet_recipe_runs_from_an_empty_directory() {
    let calls = check_recipes("gauntlet", &["Play a gauntlet against the Debian engines"], |s| s);
    assert_eq!(commands(&calls), ["gauntlet"]);
}

#[test]
#[ignore = "needs ../shared/data"]
fn the_coevolve_recipe_runs_from_an_empty_directory() {
    let calls = check_recipes("coevolve", &["Evolve the search in games (`tuner coevolve`)"], |s| s);
    assert_eq!(commands(&calls), ["coevolve", "coevolve"]);
}

#[test]
#[ignore = "needs redis-server and openssl"]
fn the_worker_recipe_runs_from_an_empty_directory() {
    // The worker recipe tunes the SPSA recipe's config; its server gets a free port of its own.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port().to_string();
    let recipes = ["Tune a group by SPSA (`tuner spsa`)", "Spread games over machines (`tuner worker`)"];
    let calls = check_recipes("worker", &recipes, |s| s.replace("6379", &port));
    // The worker starts in the background, so its wrapper may record it after the next call.
    let mut ran = commands(&calls);
    ran.sort_unstable();
    assert_eq!(ran, ["spsa", "spsa", "worker"]);
    let brokered =
        calls.iter().filter(|c| c.args.starts_with("spsa") && c.args.contains("--broker redis://127.0.0.1:"));
    assert_eq!(brokered.count(), 1, "{calls:#?}");
}
