//! The `tuner roundrobin-ga` loop and the final verification matches.
//!
//! Generation `g` (files under `<out>/gen-NNN/`): parameter files `1.toml..9.toml` and
//! `const.toml`; the round robin through [`runner::round_robin`] with its resume journal
//! `games.journal` (one game per unit, so every finished game is durable), `games.pgn` and
//! `results.json`; then `crosstable.txt`/`.csv`. The generation's players and the history go
//! to `<out>/checkpoint.json` (the shared [`Driver`]'s, atomic replace). `--resume` breeds the
//! next generation again from it (the same RNG) and the runner replays nothing its journal
//! holds. Verification matches have journals too.

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    path::{Path, PathBuf},
};

use arena::{
    adjudicate::{MaxMovesResult, MaxMovesRule, ResignRule},
    engine::spec::EngineSpec,
    files::write_atomic,
    openings::OpeningsConfig,
    results::{MatchResults, UnitEntry},
    runner::{self, MatchConfig, NoObserver, Tournament},
    tc::SearchLimits,
};
use evochess::params::Params;
use serde::{Deserialize, Serialize};

pub use super::record::GenerationRecord;
use super::{
    RoundRobinGaConfig, RoundRobinGaError,
    breed::{Aksenov, Breeding, random_players},
    report,
    table::CrossTable,
};
use crate::{
    ga::{
        Genome,
        driver::{Batch, Driver, Problem},
        encoding::Layout,
        generation_rng,
        report::GenerationStats,
        run_dir::{Start, open_game_run},
    },
    optimise::AfterTell,
    progress::{Plan, Progress},
    space::SearchSpace,
};

/// Label of the reference player.
pub const REFERENCE: &str = "const";

/// One verification match's result from the best player's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verification {
    pub opponent: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Points of the best player and of the opponent ("12-8" in the thesis).
    pub points: f64,
    pub opponent_points: f64,
}

/// What the run produced.
#[derive(Clone, Debug)]
pub struct RoundRobinGaOutcome {
    pub history: Vec<GenerationRecord>,
    /// The last generation's best player, as a complete engine parameter set.
    pub best: Params,
    pub params_file: PathBuf,
    pub verifications: Vec<Verification>,
}

/// The space's genes as a numeric layout, checked to be Table 3's shape of integer genes.
fn numeric_genes(space: &SearchSpace) -> Result<Vec<crate::ga::encoding::NumericGene>, RoundRobinGaError> {
    match space.layout() {
        Layout::Numeric(g) if !space.encoding.is_binary() => Ok(g.clone()),
        _ => Err(RoundRobinGaError::Config("the search space must use encoding = \"integer\"".into())),
    }
}

/// The reference player: configured values, mid-range (rounded half up) for the rest.
pub fn reference_genome(space: &SearchSpace, reference: &BTreeMap<String, i32>) -> Result<Vec<f64>, RoundRobinGaError> {
    for name in reference.keys() {
        if !space.genes.iter().any(|g| &g.name == name) {
            return Err(RoundRobinGaError::Config(format!("reference: `{name}` is not a gene of the search space")));
        }
    }
    space
        .genes
        .iter()
        .map(|g| {
            let v = match reference.get(&g.name) {
                Some(&v) if v < g.min || v > g.max => {
                    return Err(RoundRobinGaError::Config(format!(
                        "reference: {} = {v} is outside the gene's range [{}, {}]",
                        g.name, g.min, g.max
                    )));
                }
                Some(&v) => v,
                None => (g.min + g.max + 1).div_euclid(2),
            };
            Ok(f64::from(v))
        })
        .collect()
}

/// The material-only opponent of §6.3: the same piece values, every other gene 0.
pub fn material_only(space: &SearchSpace, genome: &[f64]) -> Vec<f64> {
    const MATERIAL: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];
    space
        .genes
        .iter()
        .zip(genome)
        .map(|(g, &v)| {
            let material = g.keys.iter().all(|&k| {
                let key = Params::spec(k).key();
                MATERIAL.iter().any(|m| key.ends_with(&format!("{m}_mg")) || key.ends_with(&format!("{m}_eg")))
            });
            if material { v } else { f64::from(g.min.max(0)) }
        })
        .collect()
}

/// `space` is the space's canonical form, or for the legacy fingerprint the file's raw text.
fn fingerprint(cfg: &RoundRobinGaConfig, space: &str) -> String {
    let c = RoundRobinGaConfig {
        generations: 0,
        concurrency: 0,
        out_dir: PathBuf::new(),
        params_out: None,
        verify: Default::default(),
        ..cfg.clone()
    };
    crate::ga::checkpoint::fingerprint(&[&serde_json::to_string(&c).expect("config serialises"), space])
}

fn journal_entries(path: &Path) -> Result<Vec<UnitEntry>, RoundRobinGaError> {
    arena::results::journal_units(path).map_err(|e| RoundRobinGaError::io(path, e))
}

struct Ctx<'a> {
    cfg: &'a RoundRobinGaConfig,
    space: &'a SearchSpace,
    engine: PathBuf,
}

impl Ctx<'_> {
    fn spec(&self, name: &str, genome: &[f64], path: &Path) -> Result<EngineSpec, RoundRobinGaError> {
        let params = self.space.apply(&Genome::Numbers(genome.to_vec()), &self.space.base());
        write_atomic(path, params.to_toml().as_bytes()).map_err(|e| RoundRobinGaError::io(path, e))?;
        let limits = SearchLimits { depth: Some(self.cfg.depth), ..SearchLimits::default() };
        let mut spec = EngineSpec::new(name, &self.engine).with_limits(limits).with_params(path);
        for (k, v) in &self.cfg.engine_options {
            spec = spec.with_option(k, v);
        }
        Ok(spec)
    }

    fn base_match(&self, dir: &Path, stem: &str, resume: bool) -> MatchConfig {
        let mut m = MatchConfig::new(Vec::new(), Tournament::RoundRobin);
        m.executor = crate::broker::games::on_workers(self.cfg.broker.clone());
        m.adjudication.resign =
            Some(ResignRule { movecount: self.cfg.resign_movecount, score: self.cfg.resign_score, twosided: false });
        m.adjudication.maxmoves = self.cfg.max_moves.map(|moves| MaxMovesRule { moves, result: MaxMovesResult::Draw });
        m.concurrency = self.cfg.concurrency.max(1);
        m.seed = self.cfg.seed;
        let state = dir.join(format!("{stem}.journal"));
        m.resume = resume && state.exists();
        m.state = Some(state);
        m.pgn_out = Some(dir.join(format!("{stem}.pgn")));
        m.results_out = Some(dir.join(format!("{stem}.json")));
        m
    }
}

/// The round robin of the evolving players with the reference player as the driver's
/// [`Problem`]: a player's score is its points, its fitness their share of the most it could
/// take (points / (games_per_pair (N - 1))).
struct Tournaments<'a> {
    ctx: Ctx<'a>,
    reference: Vec<f64>,
}

impl Tournaments<'_> {
    fn dir(&self, g: usize) -> PathBuf {
        self.ctx.cfg.out_dir.join(format!("gen-{g:03}"))
    }

    /// Generation `g`'s cross table, from its journal.
    fn table(&self, g: usize) -> Result<CrossTable, RoundRobinGaError> {
        let cfg = self.ctx.cfg;
        let mut table = CrossTable::new(labels(cfg.population)).with_games_per_colour(cfg.games_per_pair as usize / 2);
        for e in journal_entries(&self.dir(g).join("games.journal"))? {
            for s in e.games {
                table.add(s.white, s.black, s.points(s.white));
            }
        }
        Ok(table)
    }
}

/// The players' labels in games and tables: `1..N-1`, then the reference.
fn labels(population: usize) -> Vec<String> {
    (1..population).map(|i| i.to_string()).chain([REFERENCE.to_string()]).collect()
}

/// A player's values, which the optimiser proposes as numeric genomes.
fn values(genome: &Genome) -> Result<&[f64], RoundRobinGaError> {
    genome.numbers().ok_or_else(|| RoundRobinGaError::Config("a player is not a numeric genome".into()))
}

impl Problem for Tournaments<'_> {
    /// A player's points.
    type Score = f64;
    type Record = GenerationRecord;
    type Error = RoundRobinGaError;

    fn evaluate(&self, batch: Batch<'_, f64, GenerationRecord>) -> Result<Vec<f64>, RoundRobinGaError> {
        let (cfg, ctx, g) = (self.ctx.cfg, &self.ctx, batch.generation);
        let dir = self.dir(g);
        std::fs::create_dir_all(&dir).map_err(|e| RoundRobinGaError::io(&dir, e))?;
        let labels = labels(cfg.population);
        let mut engines = Vec::new();
        for (label, genome) in labels.iter().zip(batch.population) {
            engines.push(ctx.spec(label, values(genome)?, &dir.join(format!("{label}.toml")))?);
        }
        engines.push(ctx.spec(REFERENCE, &self.reference, &dir.join(format!("{REFERENCE}.toml")))?);
        let mut base = ctx.base_match(&dir, "games", batch.resume);
        base.games = cfg.games_per_pair;
        base.repeat = false; // one game per unit: every finished game is journaled on its own
        base.event = format!("evochess roundrobin-ga generation {g}");
        if let Some(o) = &cfg.openings {
            base.openings = Some(openings(o, "random")?);
        }
        runner::round_robin(engines, &base, &mut NoObserver).map_err(|source| RoundRobinGaError::Match {
            what: format!("generation {g} round robin"),
            source: Box::new(source),
        })?;
        let mut points = self.table(g)?.points();
        points.truncate(cfg.population - 1);
        Ok(points)
    }

    fn fitness(&self, points: &f64) -> f64 {
        let cfg = self.ctx.cfg;
        points / (f64::from(cfg.games_per_pair) * (cfg.population - 1) as f64)
    }

    fn metric(&self, points: &f64) -> f64 {
        *points
    }

    /// Never reused: a player's points depend on the others of its generation.
    fn restore(&self, _: f64, metric: f64) -> (f64, bool) {
        (metric, false)
    }

    /// The verification after the run is the held-out measure.
    fn test(&self, _: &Genome) -> f64 {
        f64::NAN
    }

    fn record(
        &self,
        pop: &[Genome],
        _: &[f64],
        _: usize,
        stats: GenerationStats,
        _: &AfterTell,
    ) -> Result<GenerationRecord, RoundRobinGaError> {
        let g = stats.generation;
        let players = pop.iter().map(|x| Ok(values(x)?.iter().map(|&v| v.round() as i32).collect()));
        let record = GenerationRecord {
            generation: g,
            players: players.collect::<Result<_, RoundRobinGaError>>()?,
            table: self.table(g)?,
            seconds: stats.seconds,
        };
        for (name, text) in [("crosstable.txt", record.table.text(g + 1)), ("crosstable.csv", record.table.csv(g + 1))]
        {
            let p = self.dir(g).join(name);
            write_atomic(&p, text.as_bytes()).map_err(|e| RoundRobinGaError::io(&p, e))?;
        }
        let (lo, hi) = record.reference_place();
        log::info!(
            "generation {g}: {} games, reference place {}, best player {} with {} points",
            record.table.games(),
            super::table::place_text((lo, hi)),
            record.best() + 1,
            record.points()[record.best()]
        );
        Ok(record)
    }

    fn report(&self, history: &[GenerationRecord]) -> Result<(), RoundRobinGaError> {
        let out = &self.ctx.cfg.out_dir;
        report::write_all(out, self.ctx.space, history).map_err(|e| RoundRobinGaError::io(out, e))
    }
}

/// The run's plan line: the players, the round robins and the verification, and their budget;
/// with the estimate of a generation's seconds.
fn plan(cfg: &RoundRobinGaConfig, genes: usize, engine: &Path) -> (Plan, Option<f64>) {
    let n = cfg.population as u64;
    let per_generation = n * (n - 1) / 2 * u64::from(cfg.games_per_pair);
    let verification =
        if cfg.verify.games > 0 { (2 + cfg.verify.fresh_random as u64) * u64::from(cfg.verify.games) } else { 0 };
    let games = per_generation * cfg.generations as u64 + verification;
    let limits = SearchLimits { depth: Some(cfg.depth), ..SearchLimits::default() };
    let at_once = cfg.concurrency.max(1);
    let game = crate::progress::game_seconds(&limits);
    let plan = Plan::new("roundrobin-ga")
        .part(format!(
            "evolves {genes} evaluation parameters of {} ({} players, the reference among them)",
            cfg.space.display(),
            cfg.population
        ))
        .part(format!(
            "{} generations of a {per_generation}-game round robin and {verification} verification games, {games} games \
             at depth {}, {at_once} at once",
            cfg.generations, cfg.depth
        ))
        .part(format!("engine {}; out {}", engine.display(), cfg.out_dir.display()))
        .eta(crate::progress::total_seconds(games, game, at_once), at_once, "games");
    (plan, crate::progress::total_seconds(per_generation, game, at_once))
}

/// Runs (or resumes) the GA, writes the best player's parameters and plays the verification.
/// `announce` is given the plan once the inputs are checked, before any game.
///
/// # Errors
/// Bad config or space, missing engine, unreadable checkpoint, a match the runner refused, I/O.
pub fn run(
    cfg: &RoundRobinGaConfig,
    start: Start,
    announce: impl FnOnce(&Plan),
) -> Result<RoundRobinGaOutcome, RoundRobinGaError> {
    cfg.validate()?;
    let space_text = crate::embedded_files::read_text(&cfg.space).map_err(|e| RoundRobinGaError::io(&cfg.space, e))?;
    let space = SearchSpace::parse(&space_text).map_err(|e| e.in_file(&cfg.space))?;
    let genes = numeric_genes(&space)?;
    let reference = reference_genome(&space, &cfg.reference)?;
    let mut probe =
        EngineSpec::new("engine", cfg.engine_path()).with_limits(SearchLimits { depth: Some(1), ..Default::default() });
    probe.validate().map_err(|e| RoundRobinGaError::Config(e.to_string()))?;
    let (plan, each) = plan(cfg, genes.len(), &probe.cmd);
    announce(&plan);
    let ctx = Ctx { cfg, space: &space, engine: probe.cmd.clone() };
    let (_held, checkpoint) = open_game_run(&cfg.out_dir, start)?;
    let (fingerprint, legacy) = (fingerprint(cfg, &space.canonical()), fingerprint(cfg, &space_text));
    let mismatch = "different settings (only generations, concurrency, out_dir, params_out and [verify] may change)";
    let bar = Progress::new(cfg.generations as u64, "generations", each);
    let driver = Driver::single(cfg.generations, cfg.seed, &fingerprint, checkpoint, mismatch)
        .accepting_legacy(&legacy)
        .with_progress(&bar);
    let resume = start.resumes();
    let breeding = Breeding {
        selection: cfg.selection.clone(),
        crossover_rate: cfg.crossover_rate,
        mutation_rate: cfg.mutation_rate,
        elitism: cfg.elitism,
    };
    let aksenov = Aksenov::new(genes.clone(), cfg.population - 1, breeding);
    let tournaments = Tournaments { ctx, reference };
    let finished = driver.optimise(aksenov, &Layout::Numeric(genes.clone()), &tournaments, resume);
    bar.finish_and_clear();
    let history = finished?.history;
    let ctx = tournaments.ctx;

    let last = history.last().expect("at least one generation");
    let best_genome: Vec<f64> = last.players[last.best()].iter().map(|&v| f64::from(v)).collect();
    let best = space.apply(&Genome::Numbers(best_genome.clone()), &space.base());
    let params_file = cfg.params_out.clone().unwrap_or_else(|| cfg.out_dir.join("best.toml"));
    write_atomic(&params_file, best.to_toml().as_bytes()).map_err(|e| RoundRobinGaError::io(&params_file, e))?;

    let mut verifications = Vec::new();
    if cfg.verify.games > 0 {
        let dir = cfg.out_dir.join("verify");
        std::fs::create_dir_all(&dir).map_err(|e| RoundRobinGaError::io(&dir, e))?;
        // Generation 0's players, drawn again from its RNG (the optimiser's first ask).
        let initial = random_players(&genes, cfg.population - 1, &mut generation_rng(cfg.seed, 0, 0));
        let random = initial[cfg.verify.random_individual - 1].clone();
        let mut opponents = vec![
            (format!("random{}", cfg.verify.random_individual), random),
            ("material".to_string(), material_only(&space, &best_genome)),
        ];
        // Stream 1: apart from the initial population's (stream 0) and the breeding's.
        let mut rng = generation_rng(cfg.seed, 1, 0);
        for (i, fresh) in random_players(&genes, cfg.verify.fresh_random, &mut rng).into_iter().enumerate() {
            opponents.push((format!("fresh{}", i + 1), fresh));
        }
        for (name, genome) in opponents {
            let a = ctx.spec("best", &best_genome, &dir.join("best.toml"))?;
            let b = ctx.spec(&name, &genome, &dir.join(format!("{name}.toml")))?;
            let mut m = ctx.base_match(&dir, &name, resume);
            m.engines = vec![a, b];
            m.tournament = Tournament::Match;
            m.games = cfg.verify.games;
            m.repeat = true;
            m.event = format!("evochess roundrobin-ga verification: best vs {name}");
            if let Some(o) = &cfg.verify.openings {
                m.openings = Some(openings(o, "sequential")?);
            }
            let r = runner::play_match(&m, &mut NoObserver).map_err(|source| RoundRobinGaError::Match {
                what: format!("verification best vs {name}"),
                source: Box::new(source),
            })?;
            verifications.push(verification(&name, &r));
        }
        let text = verification_text(&verifications);
        let p = cfg.out_dir.join("verification.txt");
        write_atomic(&p, text.as_bytes()).map_err(|e| RoundRobinGaError::io(&p, e))?;
    }
    Ok(RoundRobinGaOutcome { history, best, params_file, verifications })
}

fn openings(file: &Path, order: &str) -> Result<OpeningsConfig, RoundRobinGaError> {
    OpeningsConfig::parse(&[format!("file={}", file.display()), format!("order={order}")])
        .map_err(|e| RoundRobinGaError::Config(e.to_string()))
}

fn verification(name: &str, r: &MatchResults) -> Verification {
    let t = &r.totals[0];
    let (points, games) = r.score_of(0, 1).unwrap_or((0.0, 0));
    Verification {
        opponent: name.to_string(),
        games,
        wins: t.wdl.wins,
        draws: t.wdl.draws,
        losses: t.wdl.losses,
        points,
        opponent_points: games as f64 - points,
    }
}

/// The §6.3 summary beside the thesis's 20-game results.
pub fn verification_text(v: &[Verification]) -> String {
    let paper = ["thesis (20 games): 12-8, 4 draws", "thesis (20 games): 13-7, 4 draws"];
    let mut out = String::from("verification (best player of the last generation, games from both colours)\n");
    let pct = |points: f64, games: u64| if games > 0 { 100.0 * points / games as f64 } else { f64::NAN };
    for (i, x) in v.iter().enumerate() {
        let _ = writeln!(
            out,
            "best vs {:<10} {}-{} in {} games (+{} ={} -{}), score {:.1}%   {}",
            x.opponent,
            x.points,
            x.opponent_points,
            x.games,
            x.wins,
            x.draws,
            x.losses,
            pct(x.points, x.games),
            paper.get(i).copied().unwrap_or("")
        );
    }
    let fresh: Vec<&Verification> = v.iter().skip(paper.len()).collect();
    if !fresh.is_empty() {
        let (points, games) = fresh.iter().fold((0.0, 0), |(p, g), x| (p + x.points, g + x.games));
        let _ = writeln!(
            out,
            "best vs {} fresh random individuals: {points}/{games}, score {:.1}%",
            fresh.len(),
            pct(points, games)
        );
    }
    out
}
