//! `tuner coevolve`: single-population coevolution of evolved organisms (David et al. §III-C).

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};

use crate::{
    cli::{RunArgs, set_given},
    coevolve::{Coevolution, CoevolveConfig, champion},
};

/// Coevolve evaluation functions by round robins between evochess processes.
///
/// Without --config the settings are the paper's, as configs/coevolve/default.toml lists them.
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
    /// The best organism's parameter file.
    #[arg(long, value_name = "FILE.toml")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub run: RunArgs,
}

impl CoevolveArgs {
    /// The config file (or defaults) with the command-line overrides applied.
    pub fn config(&self) -> anyhow::Result<CoevolveConfig> {
        let mut cfg = match &self.run.config {
            Some(p) => CoevolveConfig::load(p)?,
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

pub fn run(args: CoevolveArgs) -> anyhow::Result<()> {
    let cfg = args.config()?;
    let co = Coevolution::new(cfg)?;
    check_inputs(&co)?;
    let outcome = co.run(args.run.start())?;
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
