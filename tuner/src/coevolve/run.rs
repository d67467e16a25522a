//! The run: a configured coevolution, the driver's loop from its first generation (or its
//! checkpoint) to the output file, the organisms' files and the progress shown meanwhile.

use std::{
    io,
    path::{Path, PathBuf},
};

use arena::{
    engine::spec::EngineSpec,
    files::write_atomic,
    runner::{MatchConfig, MatchObserver},
    tc::SearchLimits,
};
use evochess::params::Params;

use super::{
    CoevolveConfig, CoevolveError, CoevolveGeneration, Initial,
    champion::{self, FirstChampion},
    gen_dir, generations_csv, lineage,
    objective::RoundRobin,
    racing::Scheme,
    reference::Pool,
    render_svg,
};
use crate::{
    ga::{
        Genome,
        driver::Driver,
        run_dir::{RunDir, Start},
    },
    progress::{Plan, Progress},
    space::SearchSpace,
};

/// The end of a coevolution.
#[derive(Clone, Debug)]
pub struct CoevolveOutcome {
    pub best: Genome,
    pub params: Params,
    pub history: Vec<CoevolveGeneration>,
    /// Parameter file of the generation-0 round-robin winner (the best evolve-only organism).
    pub initial_best: PathBuf,
    pub output: PathBuf,
    /// With the gate: the first champion (the output's values unless a challenger passed).
    pub first_champion: Option<FirstChampion>,
}

/// Moves the run's progress bar a game at a time (the games a match replays from its journal
/// are skipped: done, but not timed); logs a line per finished game at debug level, and one per
/// 10% of the match at info.
pub(super) struct GenObserver {
    generation: usize,
    planned: u64,
    next_report: u64,
    bar: Progress,
    /// Whether to log every 10% (not for racing rounds, which log a line each).
    progress_lines: bool,
}

impl GenObserver {
    pub(super) fn new(generation: usize, bar: &Progress) -> GenObserver {
        GenObserver { generation, planned: 0, next_report: 0, bar: bar.clone(), progress_lines: true }
    }

    pub(super) fn quiet(generation: usize, bar: &Progress) -> GenObserver {
        GenObserver { progress_lines: false, ..GenObserver::new(generation, bar) }
    }
}

impl MatchObserver for GenObserver {
    fn on_start(&mut self, planned: u64, done: u64, _: &arena::results::Standings) {
        self.planned = planned;
        if done > 0 {
            self.bar.suspend(|| {
                log::info!("generation {}: resuming, {done} of {planned} games already played", self.generation)
            });
        }
        self.bar.skip(done);
        self.next_report = done + planned.div_ceil(10).max(1);
    }

    fn on_game(&mut self, g: &arena::game::GameRecord, s: &arena::results::Standings) {
        self.bar.inc(1);
        log::debug!("{} vs {}: {} {{{}}}", g.white, g.black, g.result.outcome.pgn(), g.result.reason);
        if self.progress_lines && s.games >= self.next_report {
            self.bar.suspend(|| log::info!("generation {}: {}/{} games", self.generation, s.games, self.planned));
            self.next_report = s.games + self.planned.div_ceil(10).max(1);
        }
    }
}

/// A generation's organisms as the runner plays them: engine `i` is organism `i`, named
/// `names[i]` (`g<G>o<I>`, its file), from `origins[i]`.
pub struct Field {
    pub engines: Vec<EngineSpec>,
    pub names: Vec<String>,
    pub origins: Vec<String>,
}

/// A configured coevolution.
pub struct Coevolution {
    pub cfg: CoevolveConfig,
    pub space: SearchSpace,
    space_text: String,
    pub(super) base: MatchConfig,
    pub(super) limits: SearchLimits,
    pub(super) engine: PathBuf,
    /// With `fresh_openings`: the permutation every match draws its openings from.
    pub(super) fresh: Option<crate::optimise::ledger::Ledger>,
}

impl Coevolution {
    /// Validates the configuration and reads the search space.
    pub fn new(mut cfg: CoevolveConfig) -> Result<Self, CoevolveError> {
        if cfg.output.as_os_str().is_empty() {
            cfg.output = cfg.out_dir.join("coevolved.toml");
        }
        let (space, space_text) = match &cfg.space {
            Some(path) => {
                let text = crate::embedded_files::read_text(path).map_err(|e| CoevolveError::io(path, e))?;
                let space = SearchSpace::parse(&text).map_err(|e| e.in_file(path))?;
                (space, text)
            }
            None => {
                let space = SearchSpace::whole_evaluation();
                let text = space.canonical();
                (space, text)
            }
        };
        cfg.validate(space.layout())?;
        let base = cfg.match_base()?;
        let limits = cfg.limits()?;
        let engine = cfg.engine_path();
        if !engine.is_file() {
            return Err(CoevolveError::Config(format!("engine {} not found", engine.display())));
        }
        let mut co = Coevolution { cfg, space, space_text, base, limits, engine, fresh: None };
        co.fresh = co.fresh_ledger()?;
        co.check_pool()?;
        Ok(co)
    }

    /// Identifies everything that determines the run except the generation count (so a
    /// finished run can be extended with `--resume --generations N`). `space` is the space's
    /// canonical form, or for the legacy fingerprint the file's raw text.
    fn fingerprint(
        &self,
        initial: &Initial,
        first: Option<&FirstChampion>,
        pool: Option<&Pool>,
        space: &str,
    ) -> String {
        let mut cfg = self.cfg.clone();
        cfg.ga.generations = 0;
        cfg.concurrency = 0;
        cfg.output = PathBuf::new();
        let genomes = serde_json::to_string(&initial.genomes).expect("genomes serialise");
        let json = serde_json::to_string(&cfg).expect("config serialises");
        let json = crate::optimise::config::with_legacy_ga(&json, &cfg.ga, &cfg.optimiser);
        let mut parts = vec![json, space.to_string(), genomes];
        // The seed files' values outside the space, where they are not the space's base: runs
        // from before seed files kept them had the base there, and keep their fingerprint.
        let base = self.space.base();
        if initial.bases.iter().any(|b| *b != base) {
            parts.push(initial.bases.iter().map(Params::values_toml).collect::<Vec<_>>().join("\n"));
        }
        // The gate's first champion: its values decide every test.
        if let Some(first) = first {
            parts.push(format!("champion start\n{}", first.params.values_toml()));
        }
        // The pool's files: their values decide every organism's fitness.
        if let Some(pool) = pool {
            parts.push(format!("pool\n{}", pool.params.iter().map(Params::values_toml).collect::<Vec<_>>().join("\n")));
        }
        crate::ga::checkpoint::fingerprint(&parts)
    }

    /// Organism `i`'s limits per move: its own in a fixed population, else the run's.
    fn organism_limits(&self, i: usize) -> SearchLimits {
        let mut limits = self.limits.clone();
        if let Some(o) = self.cfg.organisms.get(i) {
            if let Some(n) = o.nodes {
                limits.nodes = Some(n);
            }
            if let Some(tc) = &o.tc {
                limits.clock = Some(*tc.value());
            }
        }
        limits
    }

    /// The run's plan line: the organisms, their selection, the games and their budget.
    fn plan(&self, population: usize, planned: u64, eta: Option<f64>) -> Plan {
        let cfg = &self.cfg;
        let from = match &cfg.population_dir {
            Some(d) => format!("the parameter files of {}", d.display()),
            None => "random genomes".to_string(),
        };
        let space = cfg.space.as_ref().map_or_else(|| "the whole evaluation".to_string(), |p| p.display().to_string());
        let gate = if cfg.champion.is_off() { "" } else { " and the champion's SPRT tests" };
        let at_once = crate::ga::threads(cfg.concurrency);
        Plan::new("coevolve (the paper's method)")
            .part(format!(
                "{population} organisms from {from} over {space}, selected by {}",
                String::from(cfg.selection)
            ))
            .part(format!(
                "{} generations, {planned} games{gate} at {}, {at_once} at once",
                cfg.ga.generations,
                crate::progress::limits_text(&self.limits)
            ))
            .part(self.openings_text(population))
            .part(format!("engine {}; out {}", self.engine.display(), cfg.out_dir.display()))
            .eta(eta, at_once, "games")
    }

    /// Games of one generation's round robin of `size` organisms.
    pub fn round_robin_games(&self, size: usize) -> u64 {
        (size * size.saturating_sub(1) / 2) as u64 * 2 * u64::from(self.cfg.openings_per_pair)
    }

    /// Most games of one generation of `size` organisms under the configured selection.
    pub fn generation_games(&self, size: usize) -> u64 {
        match self.cfg.selection {
            Scheme::RoundRobin => self.round_robin_games(size),
            Scheme::Racing => self.racing_budget(size),
            Scheme::Reference => self.pool_generation_games(size, self.pool_members()),
        }
    }

    /// Openings one generation's ranking plays, for `fresh_openings`: the round robin's
    /// `openings_per_pair` (every encounter on the same ones), one a racing round (a round plays
    /// at least one game pair, so at most budget / 2 rounds), the pool's games / 2.
    pub(super) fn ranking_openings(&self, size: usize) -> usize {
        let openings = match self.cfg.selection {
            Scheme::RoundRobin => u64::from(self.cfg.openings_per_pair),
            Scheme::Racing => self.racing_budget(size) / 2,
            Scheme::Reference => u64::from(self.pool_games() / 2),
        };
        usize::try_from(openings).unwrap_or(usize::MAX)
    }

    /// A race's budget must let every organism play in the first round.
    fn check_racing_budget(&self, size: usize) -> Result<(), CoevolveError> {
        let least = 2 * size.saturating_sub(1) as u64;
        if self.cfg.selection == Scheme::Racing && self.racing_budget(size) < least {
            return Err(CoevolveError::Config(format!(
                "racing_games = {}: {size} organisms need at least {least} games a generation (a game pair for each \
                 neighbour in the first round)",
                self.cfg.racing_games
            )));
        }
        Ok(())
    }

    /// Runs (or continues, as `start` says) the coevolution and writes the output file.
    /// `announce` is given the plan once the first generation is read, before any game.
    pub fn run(&self, start: Start, announce: impl FnOnce(&Plan)) -> Result<CoevolveOutcome, CoevolveError> {
        let out = &self.cfg.out_dir;
        let checkpoint = out.join("checkpoint.json");
        // A run killed in its first generation has a journal of games but no checkpoint yet.
        let state = [
            checkpoint.clone(),
            gen_dir(out, 0).join("games.state.jsonl"),
            gen_dir(out, 0).join("race-01.state.jsonl"),
            gen_dir(out, 0).join("pool.state.jsonl"),
        ];
        let layout = self.space.layout();
        // `--force` discards the old run only once the new one's population has been read.
        let (_held, (initial, ga, first, pool)) = RunDir::open_checked(out, &state, start, || {
            let initial = self.initial_population()?;
            let first = self.first_champion()?;
            let pool = self.pool()?;
            if !self.cfg.organisms.is_empty() && self.cfg.ga.generations > 1 {
                return Err(CoevolveError::Config(format!(
                    "[[organisms]] with limits of their own is ranked once: generations must be 1, not {}",
                    self.cfg.ga.generations
                )));
            }
            // The population size follows the initial population (ten evolve runs → ten organisms).
            let mut ga = self.cfg.ga.clone();
            ga.population = initial.genomes.len();
            ga.elitism = ga.elitism.min(ga.population - 1);
            ga.validate(&self.cfg.optimiser, layout)?;
            self.check_racing_budget(ga.population)?;
            self.check_fresh_openings(ga.population, ga.generations)?;
            Ok::<_, CoevolveError>((initial, ga, first, pool))
        })?;
        if let Some(pool) = &pool {
            self.write_pool(pool)?;
        }
        let fingerprint = self.fingerprint(&initial, first.as_ref(), pool.as_ref(), &self.space.canonical());
        let legacy = self.fingerprint(&initial, first.as_ref(), pool.as_ref(), &self.space_text);
        let mismatch = "a different config, search space or initial population";
        let driver =
            Driver::single(ga.generations, self.cfg.seed, &fingerprint, checkpoint, mismatch).accepting_legacy(&legacy);
        let generations = ga.generations as u64;
        let planned = generations * self.generation_games(ga.population)
            + generations.saturating_sub(1) * u64::from(self.cfg.reference_games);
        let at_once = crate::ga::threads(self.cfg.concurrency);
        let game = crate::progress::game_seconds(&self.limits);
        announce(&self.plan(ga.population, planned, crate::progress::total_seconds(planned, game, at_once)));
        let bar = Progress::new(planned, "games", crate::progress::total_seconds(1, game, at_once));
        let problem = RoundRobin {
            coevolution: self,
            initial: &initial,
            first: first.as_ref(),
            pool: pool.as_ref(),
            elitism: ga.elitism,
            generations,
            planned,
            bar,
        };
        let finished =
            driver.evolve(&ga, &self.cfg.optimiser, layout, &problem, start.resumes(), |_| initial.genomes.clone())?;
        // A finished run resumed from its checkpoint alone evaluates nothing, yet its output
        // reads the champion's file and its report generation 0's best.
        problem.restore_files(&finished.history)?;
        problem.bar.finish_and_clear();
        drop(problem); // it borrows `first`, which the output takes
        let last = finished.history.last().expect("a generation was played");
        let from = lineage(ga.population, ga.elitism, last.generation, &finished.history);
        let base = &initial.bases[from[last.best]];
        self.finish(&finished.state.population, base, last, &finished.history, first)
    }

    /// Writes generation `g`'s organism files (organism `i` keeps the values outside the space
    /// of `bases[i]`): the engines that play them.
    pub(super) fn write_organisms(
        &self,
        g: usize,
        pop: &[Genome],
        origins: &[String],
        bases: &[&Params],
    ) -> Result<Field, CoevolveError> {
        let dir = gen_dir(&self.cfg.out_dir, g);
        std::fs::create_dir_all(&dir).map_err(|e| CoevolveError::io(&dir, e))?;
        let mut engines = Vec::new();
        let mut names = Vec::new();
        for (i, genome) in pop.iter().enumerate() {
            let name = format!("g{g}o{i}");
            let path = dir.join(format!("{name}.toml"));
            self.write_organism(&path, g, i, &origins[i], genome, bases[i])?;
            engines.push(EngineSpec::new(&name, &self.engine).with_params(&path).with_limits(self.organism_limits(i)));
            names.push(name);
        }
        Ok(Field { engines, names, origins: origins.to_vec() })
    }

    /// Writes organism `i` of generation `g` (from `origin`) to `path`: `genome` over the values
    /// outside the space of `base`.
    pub(super) fn write_organism(
        &self,
        path: &Path,
        g: usize,
        i: usize,
        origin: &str,
        genome: &Genome,
        base: &Params,
    ) -> Result<(), CoevolveError> {
        let params = self.space.apply(genome, base);
        let text = format!("# coevolution generation {g}, organism {i} ({origin})\n{}", params.to_toml());
        write_atomic(path, text.as_bytes()).map_err(|e| CoevolveError::io(path, e))
    }

    pub(super) fn write_reports(&self, history: &[CoevolveGeneration]) -> Result<(), CoevolveError> {
        let csv = self.cfg.out_dir.join("generations.csv");
        write_atomic(&csv, generations_csv(history).as_bytes()).map_err(|e| CoevolveError::io(&csv, e))?;
        let svg = self.cfg.out_dir.join("coevolution.svg");
        let text = render_svg(history).map_err(|e| CoevolveError::io(&svg, io::Error::other(e)))?;
        write_atomic(&svg, text.as_bytes()).map_err(|e| CoevolveError::io(&svg, e))?;
        if !self.cfg.champion.is_off() {
            let csv = self.cfg.out_dir.join("champions.csv");
            write_atomic(&csv, champion::champions_csv(history).as_bytes()).map_err(|e| CoevolveError::io(&csv, e))?;
        }
        Ok(())
    }

    fn finish(
        &self,
        pop: &[Genome],
        base: &Params,
        last: &CoevolveGeneration,
        history: &[CoevolveGeneration],
        first_champion: Option<FirstChampion>,
    ) -> Result<CoevolveOutcome, CoevolveError> {
        let (best, params, header) = match &first_champion {
            Some(first) => {
                let (params, header) = self.champion_output(first, history)?;
                (self.space.seed(&params).0, params, header)
            }
            None => {
                let best = pop[last.best].clone();
                let params = self.space.apply(&best, base);
                let header = self.best_header(&best, pop.len(), last);
                (best, params, header)
            }
        };
        let text = format!("{header}{}", params.to_toml());
        if let Some(parent) = self.cfg.output.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| CoevolveError::io(parent, e))?;
        }
        write_atomic(&self.cfg.output, text.as_bytes()).map_err(|e| CoevolveError::io(&self.cfg.output, e))?;
        let first = &history[0];
        let initial_best = gen_dir(&self.cfg.out_dir, 0).join(format!("{}.toml", first.best_name));
        Ok(CoevolveOutcome {
            best,
            params,
            history: history.to_vec(),
            initial_best,
            output: self.cfg.output.clone(),
            first_champion,
        })
    }

    /// The header of the paper's output, the last generation's best organism `best`.
    fn best_header(&self, best: &Genome, size: usize, last: &CoevolveGeneration) -> String {
        let o = &last.organisms[last.best];
        let elo = o.elo.map_or_else(|| "-".into(), |e| format!("{:+.1} +/- {:.1}", e.elo, e.error));
        let elo = match &o.rating {
            Some(r) => format!("{elo}; racing rating {:+.1} +/- {:.1} (1 s.e.)", r.elo, r.error),
            None => elo,
        };
        let genes = if self.cfg.space.is_some() {
            format!("# Genes: {}\n", self.space.describe(best))
        } else {
            "# Space: the whole declared evaluation (every value below is a gene).\n".to_string()
        };
        format!(
            "# Coevolved by `tuner coevolve` (David et al. 2014 III-C): best of generation {} of {size} organisms,\n\
             # {:.1}/{} points ({:.1}%), Elo vs the field {elo}.\n{genes}\n",
            last.generation,
            o.points,
            o.games,
            100.0 * last.best_score(),
        )
    }
}
