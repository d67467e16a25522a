//! `tuner coevolve`: by default the evolution strategy over the engine's search parameters
//! (issue 89, [`crate::coevolve::es`]); `--config paper`: the paper's single-population
//! coevolution of evolved organisms (David et al. §III-C).

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::{
    cli::{RunArgs, set_given},
    coevolve::{
        Coevolution, CoevolveConfig,
        champion::{self, Verdict},
        es::{EsCoevolution, EsCoevolveConfig},
    },
};

/// Evolve the engine's search parameters in games against a champion (an evolution strategy
/// with an SPRT gate), or coevolve evaluation functions by the paper's round robins.
///
/// Without --config: the evolution strategy of configs/coevolve/default.toml, over the 63 live
/// search values of params/default.toml at 10,000 nodes a move, 60,000 games (about 9 hours on 2
/// cores). `--config paper`: David et al.'s round robin (configs/coevolve/paper.toml); a config
/// is named by path or by its name under configs/coevolve/.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CoevolveArgs {
    /// Directory of parameter files forming the first generation (e.g. params/evolved).
    #[arg(long, value_name = "DIR", conflicts_with = "random")]
    pub population_dir: Option<PathBuf>,
    /// Start from N random organisms instead of a directory.
    #[arg(long, value_name = "N")]
    pub random: Option<usize>,
    /// Time control per game, cutechess notation (default 5+0.05).
    #[arg(long)]
    pub tc: Option<String>,
    /// Node limit per move; alone (no clock) unless --tc is also given.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Games played at once (0 = all cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Opening book (.epd or .pgn).
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// The evochess binary (default: next to tuner).
    #[arg(long, value_name = "PATH")]
    pub engine: Option<PathBuf>,
    /// The output parameter file (the champion; the paper's: the best organism).
    #[arg(long, value_name = "FILE.toml")]
    pub output: Option<PathBuf>,
    /// Evolution strategy: the start file (default: the engine's defaults).
    #[arg(long, value_name = "FILE.toml")]
    pub start: Option<PathBuf>,
    /// Evolution strategy: the run's game budget, racing and gates together.
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Evolution strategy: sets a config key, dotted for a table's (`--set es.pairs=4
    /// --set gate.count=1`); the value is TOML (a bare word is a string). Repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    #[command(flatten)]
    pub run: RunArgs,
}

impl CoevolveArgs {
    /// The method the config (or, without one, the flags) selects.
    pub fn method(&self) -> anyhow::Result<Method> {
        let Some(path) = &self.run.config else {
            return Ok(if self.population_dir.is_some() || self.random.is_some() { Method::Paper } else { Method::Es });
        };
        let path = crate::paths::config_path("coevolve", path)?;
        let text = crate::embedded_files::read_text(&path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let table: toml::Table = toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let method = match table.get("method") {
            None => paper_keys(&table).map_or(Method::Es, |_| Method::Paper),
            Some(toml::Value::String(m)) if m == "es" => Method::Es,
            Some(toml::Value::String(m)) if m == "paper" => Method::Paper,
            Some(other) => bail!("{}: method = {other}: \"es\" (the default) or \"paper\"", path.display()),
        };
        if method == Method::Es && (self.population_dir.is_some() || self.random.is_some()) {
            bail!(
                "--population-dir and --random are the paper's method; {} is the evolution strategy's",
                path.display()
            );
        }
        if method == Method::Paper && (self.start.is_some() || self.games.is_some()) {
            bail!("--start and --games are the evolution strategy's; {} is the paper's method", path.display());
        }
        Ok(method)
    }

    /// The evolution strategy's config with the command-line overrides applied.
    pub fn es_config(&self) -> anyhow::Result<EsCoevolveConfig> {
        let mut cfg = match &self.run.config {
            Some(p) => EsCoevolveConfig::load(&crate::paths::config_path("coevolve", p)?)?,
            None => EsCoevolveConfig::default(),
        };
        super::override_budget(self.nodes, self.tc.as_deref(), &mut cfg.nodes, &mut cfg.tc)?;
        set_given!(self; concurrency => cfg.concurrency, openings => cfg.openings, output => cfg.output);
        set_given!(self; games => cfg.games);
        set_given!(self.run; seed => cfg.seed, out => cfg.out_dir);
        if let Some(e) = &self.engine {
            cfg.engine = Some(e.clone());
        }
        if let Some(s) = &self.start {
            cfg.start = Some(s.clone());
        }
        if !self.set.is_empty() {
            cfg = with_settings(&cfg, &self.set)?;
        }
        cfg.broker = self.run.broker.config()?;
        Ok(cfg)
    }

    /// The paper's config file (or defaults) with the command-line overrides applied.
    pub fn config(&self) -> anyhow::Result<CoevolveConfig> {
        let mut cfg = match &self.run.config {
            Some(p) => CoevolveConfig::load(&crate::paths::config_path("coevolve", p)?)?,
            None => CoevolveConfig::default(),
        };
        if let Some(d) = &self.population_dir {
            cfg.population_dir = Some(d.clone());
        }
        if let Some(n) = self.random {
            if n < 2 {
                bail!("--random needs at least 2 organisms");
            }
            cfg.population_dir = None;
            cfg.ga.population = n;
        }
        if let Some(n) = self.nodes {
            cfg.nodes = Some(n);
            if self.tc.is_none() {
                cfg.tc = None;
            }
        }
        if let Some(tc) = &self.tc {
            cfg.tc = if tc == "none" { None } else { Some(tc.parse().map_err(anyhow::Error::msg).context("--tc")?) };
        }
        set_given!(self; concurrency => cfg.concurrency, openings => cfg.openings, output => cfg.output);
        set_given!(self.run; generations => cfg.ga.generations, seed => cfg.seed, out => cfg.out_dir);
        if let Some(e) = &self.engine {
            cfg.engine = Some(e.clone());
        }
        cfg.broker = self.run.broker.config()?;
        Ok(cfg)
    }
}

/// Reads the inputs that [`Coevolution::new`] only names, the openings book and the engine
/// binary, so that a bad one fails the command before `--force` discards the old run (its
/// checkpoint and journals); the config, the space and the population are read before that
/// already.
fn check_inputs(co: &Coevolution) -> anyhow::Result<()> {
    if let Some(book) = &co.cfg.match_base()?.openings {
        arena::openings::OpeningBook::load(book, co.cfg.seed)?;
    }
    let engine = co.cfg.engine_path();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(&engine).with_context(|| format!("engine {}", engine.display()))?;
        if meta.permissions().mode() & 0o111 == 0 {
            bail!("engine {}: not an executable file", engine.display());
        }
    }
    Ok(())
}

/// Which coevolution a command runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The evolution strategy (the default).
    Es,
    /// David et al.'s round robin of evolved organisms.
    Paper,
}

/// `cfg` with each `KEY=VALUE` of `--set` applied, checked as the config file's keys are.
fn with_settings(cfg: &EsCoevolveConfig, settings: &[String]) -> anyhow::Result<EsCoevolveConfig> {
    let mut table = toml::Table::try_from(cfg).context("the config as TOML")?;
    for setting in settings {
        let Some((key, text)) = setting.split_once('=') else { bail!("--set {setting}: expected KEY=VALUE") };
        let value = format!("v = {text}")
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(text.to_string()));
        let mut at = &mut table;
        let mut parts: Vec<&str> = key.trim().split('.').collect();
        let last = parts.pop().filter(|k| !k.is_empty()).with_context(|| format!("--set {setting}: no key"))?;
        for part in parts {
            at = match at.entry(part).or_insert_with(|| toml::Value::Table(toml::Table::new())) {
                toml::Value::Table(t) => t,
                _ => bail!("--set {setting}: `{part}` is not a table"),
            };
        }
        at.insert(last.to_string(), value);
    }
    toml::Value::Table(table).try_into().map_err(|e| anyhow::anyhow!("--set: {e}"))
}

/// The first key of `table` that only the paper's method has: a config from before the
/// evolution strategy was the default, which keeps its meaning.
fn paper_keys(table: &toml::Table) -> Option<&str> {
    const PAPER: [&str; 15] = [
        "population_dir",
        "fresh_openings",
        "organisms",
        "mutants",
        "mutant_sigma",
        "space",
        "openings_per_pair",
        "selection",
        "racing_games",
        "racing_confidence",
        "pool",
        "reference_games",
        "ga",
        "optimiser",
        "champion",
    ];
    PAPER.into_iter().find(|k| table.contains_key(*k))
}

pub fn run(args: CoevolveArgs) -> anyhow::Result<()> {
    match args.method()? {
        Method::Es => run_es(&args),
        Method::Paper => run_paper(args),
    }
}

fn run_es(args: &CoevolveArgs) -> anyhow::Result<()> {
    let cfg = args.es_config()?;
    let co = EsCoevolution::new(cfg, args.run.generations)?;
    println!("{}", co.plan());
    let outcome = co.run(args.run.start())?;
    let games: u64 = outcome.history.iter().map(|h| h.games + h.gate.as_ref().map_or(0, |g| g.games)).sum();
    println!("coevolve: {} generations, {games} games", outcome.history.len());
    let gates: Vec<_> = outcome.history.iter().filter_map(|h| h.gate.as_ref().map(|g| (h.generation, g))).collect();
    if gates.is_empty() {
        println!("no gate: the output is the start; the ES's mean is {}", outcome.mean.display());
    }
    for (generation, g) in gates {
        let verdict = match g.verdict {
            Verdict::Promoted => "promoted",
            Verdict::Rejected => "rejected",
            Verdict::Capped => "undecided at the cap, not promoted",
            Verdict::Skipped => "skipped",
        };
        println!(
            "  gate {} after generation {generation}: {} vs {}: {verdict}; {}",
            g.index + 1,
            g.challenger,
            g.champion,
            g.line
        );
    }
    println!("champion: {} -> {}", outcome.champion.name, outcome.output.display());
    println!("the ES's last mean (ungated): {}", outcome.mean.display());
    if let Some(slice) = crate::coevolve::es::confirmation_slice(&co) {
        print_confirmation(&co.cfg.book()?.file, co.cfg.seed, slice);
    }
    println!("output files:");
    println!("  {}", outcome.output.display());
    for line in crate::coevolve::es::output_listing(&co.cfg.out_dir)? {
        if Path::new(&line) != outcome.output {
            println!("  {line}");
        }
    }
    Ok(())
}

/// The `tuner match` flags of the confirmation slice `(start, count)` a run held back.
fn print_confirmation(book: &Path, seed: u64, (start, count): (usize, usize)) {
    println!(
        "openings the run never played, for the confirmation match: --openings file={} order=random start={start} \
         --srand {seed} --games {} (and no more)",
        book.display(),
        2 * count
    );
}

fn run_paper(args: CoevolveArgs) -> anyhow::Result<()> {
    let cfg = args.config()?;
    let co = Coevolution::new(cfg)?;
    check_inputs(&co)?;
    let outcome = co.run(args.run.start(), |plan| println!("{plan}"))?;
    let last = outcome.history.last().expect("at least one generation");
    let b = &last.organisms[last.best];
    let rating =
        b.rating.as_ref().map_or(String::new(), |r| format!(", racing rating {:+.1} +/- {:.1} Elo", r.elo, r.error));
    let best = format!(
        "coevolution: {} generations; best of the last: {} with {:.1}/{} points ({:.1}%){rating}",
        outcome.history.len(),
        last.best_name,
        b.points,
        b.games,
        100.0 * last.best_score(),
    );
    match &outcome.first_champion {
        None => println!("{best} -> {}", outcome.output.display()),
        Some(first) => {
            println!("{best}");
            println!("champion chain (SPRT gate), from the start {}:", first.source);
            for line in champion::chain_lines(&outcome.history) {
                println!("  {line}");
            }
            match champion::current(&outcome.history) {
                Some((g, name)) => {
                    println!(
                        "champion: {name} of generation {g}, which passed the gate -> {}",
                        outcome.output.display()
                    )
                }
                None => println!(
                    "champion: the start ({}), no challenger passed the gate -> {}",
                    first.source,
                    outcome.output.display()
                ),
            }
        }
    }
    println!("best evolve-only organism (generation 0 winner): {}", outcome.initial_best.display());
    if let Some((mean, n)) = crate::coevolve::elite_rank_stability(&outcome.history) {
        let size = last.organisms.len();
        println!(
            "fitness noise check: the previous generation's best ranked {mean:.2} of {size} on average over {n} generations \
             ({:.2} if the round robin were noise)",
            (size as f64 + 1.0) / 2.0
        );
    }
    let out_dir = &co.cfg.out_dir;
    let races: Vec<_> = outcome.history.iter().filter_map(|g| g.race.as_ref().map(|r| (g, r))).collect();
    if let Some((_, race)) = races.first() {
        let games: u64 = races.iter().map(|(g, _)| g.games).sum();
        let separated = races.iter().filter(|(_, r)| r.end == crate::coevolve::racing::RaceEnd::Separated).count();
        println!(
            "racing: {games} games in {} generations ({:.0} a generation, budget {}); the elite separated in {separated} \
             of them; ratings (1 s.e.) in {}",
            races.len(),
            games as f64 / races.len() as f64,
            race.budget,
            crate::coevolve::gen_dir(out_dir, last.generation).join("crosstable.csv").display()
        );
    }
    if let Some((g, r)) = outcome.history.iter().rev().find_map(|g| g.reference.as_ref().map(|r| (g.generation, r))) {
        let elo = r.elo.map_or_else(|| "-".into(), |e| format!("{:+.1} +/- {:.1} Elo", e.elo, e.error));
        println!(
            "champion of generation {g} vs generation 0's champion {}: {:.1}/{} ({elo}); chart: {}",
            r.reference,
            r.points,
            r.games,
            out_dir.join("coevolution.svg").display()
        );
    }
    if let Some(slice) = co.confirmation_slice() {
        print_confirmation(&co.cfg.openings, co.cfg.seed, slice);
    }
    println!("output files:");
    println!("  {}", outcome.output.display());
    for line in crate::coevolve::output_listing(out_dir)? {
        if Path::new(&line) != outcome.output {
            println!("  {line}");
        }
    }
    print!("{}", super::best_file_text("best parameters", &outcome.output));
    Ok(())
}
