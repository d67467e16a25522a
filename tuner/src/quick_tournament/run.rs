//! The `tuner quick` run: Belmonte's GA ([`Belmonte`]) asked and told by the shared [`Driver`]
//! on this module's problem, the generation's ranking.
//!
//! Per generation `g` (files under `<out>/gen-NNN/`):
//! 1. every individual's parameters go to `<out>/params/<id>-<name>.toml`;
//! 2. a quick tournament ranks the population; each comparison is an engine-process match
//!    played by [`runner::play_match`]: one game with the pivot as black, or a colour-swapped pair
//!    ([`super::Comparison`]), capped at the current max moves with Belmonte's material rule;
//!    each finished comparison is appended to `games.journal` (the runner's [`Journal`], fsynced)
//!    and its games to `games.pgn`;
//! 3. each member's fitness is its place in the ranking; the generation, the optimiser's state
//!    of its ask (who its members are) and the history go to `<out>/checkpoint.json` (atomic
//!    replace), and the survivor policy builds generation `g + 1` from the ranking.
//!
//! On `--resume` the next generation is bred again from the checkpoint; its journal's games are
//! answered from the journal, and since pivots are a pure function of `(seed, generation,
//! subset)` the tournament walks the same tree and plays only the missing games.

use std::{
    cell::RefCell,
    cmp::Ordering,
    collections::HashMap,
    fs::{File, OpenOptions},
    io::Write,
    path::{Path, PathBuf},
    sync::{
        Mutex,
        atomic::{AtomicBool, Ordering as AtomicOrdering},
    },
    time::Instant,
};

use arena::{
    adjudicate::{MaxMovesResult, MaxMovesRule},
    engine::spec::EngineSpec,
    files::write_atomic,
    game::GameRecord,
    openings::OpeningsConfig,
    outcome::GameOutcome,
    pgn_out::game_to_pgn,
    results::{GameSummary, Journal, Standings, UnitEntry},
    runner::{self, MatchConfig, MatchObserver, Tournament},
};
use shakmaty::Color;

pub use super::record::{GenerationRecord, Individual};
use super::{
    Evaluation, QuickConfig, QuickError, RankingMode,
    belmonte::{self, Belmonte},
    mapping::{base_params, piece_params},
    report,
    tournament::quick_tournament,
};
use crate::{
    ga::{
        driver::{Batch, Driver, Finished, Problem},
        report::GenerationStats,
        run_dir::{Start, open_game_run},
    },
    genome::Genome,
    hash::mix64,
    optimise::{AfterTell, Label},
    progress::{Plan, Progress},
};

/// Engine name of the reference player in games and PGN.
pub const REFERENCE: &str = "reference";

/// Members ranked by [`Individual::reference_score`], worst first; ties go to the longer record
/// (a better estimate), then to the lower id.
pub fn reference_order(pop: &[Individual]) -> Vec<usize> {
    by_points(pop, &vec![0.0; pop.len()])
}

/// Members ranked by `points` (this generation's round robin), worst first; ties as in
/// [`reference_order`].
pub fn by_points(pop: &[Individual], points: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..pop.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&pop[a], &pop[b]);
        points[a]
            .total_cmp(&points[b])
            .then(x.reference_score().total_cmp(&y.reference_score()))
            .then(x.games.cmp(&y.games))
            .then(y.id.cmp(&x.id))
    });
    order
}

/// A generation as it plays: its members with their life records, and its games' max-move cap.
#[derive(Clone, Debug)]
struct Players {
    cap: u32,
    population: Vec<Individual>,
}

/// The finished run.
#[derive(Clone, Debug)]
pub struct QuickOutcome {
    pub history: Vec<GenerationRecord>,
    /// The last generation's best individuals, best first.
    pub elite: Vec<Individual>,
    /// `<out>/best.toml`: the best individual's engine parameters (none if no generation ran).
    pub best_file: Option<PathBuf>,
}

/// Everything that must match for `--resume` (not the generation cap, threads or output).
fn fingerprint(cfg: &QuickConfig) -> String {
    let c = QuickConfig { generations: 0, concurrency: 0, out_dir: PathBuf::new(), ..cfg.clone() };
    crate::ga::checkpoint::fingerprint(&[serde_json::to_string(&c).expect("config serialises")])
}

struct Capture(Vec<GameRecord>);
impl MatchObserver for Capture {
    fn on_game(&mut self, g: &GameRecord, _: &Standings) {
        self.0.push(g.clone());
    }
}

/// How `other` fared against the pivot over one comparison's games: the higher score wins;
/// an even pair goes to the side whose win was shorter (it won more clearly); otherwise
/// `Equal`, which counts for the pivot.
pub fn comparison_order(other: usize, games: &[GameSummary]) -> Ordering {
    let colour = |s: &GameSummary| if s.white == other { Color::White } else { Color::Black };
    let score: f64 = games.iter().map(|s| s.outcome.score_for(colour(s))).sum();
    let half = games.len() as f64 / 2.0;
    if score != half {
        return score.partial_cmp(&half).expect("finite scores");
    }
    // Shortest win of `other` (true) or of the pivot (false).
    let shortest_win = |by_other: bool| {
        games.iter().filter(|s| s.outcome.winner().is_some_and(|c| (c == colour(s)) == by_other)).map(|s| s.plies).min()
    };
    match (shortest_win(true), shortest_win(false)) {
        (Some(mine), Some(theirs)) => theirs.cmp(&mine),
        _ => Ordering::Equal,
    }
}

/// The generation's ranking as the driver's problem: it plays the members the optimiser
/// ([`Belmonte`]) labels under their names, each with the life record its id carries in the last
/// generation's ranking, and a member's fitness is its place in this generation's ranking (0 =
/// the worst).
struct Tournaments<'a> {
    cfg: &'a QuickConfig,
    engine: PathBuf,
    /// The generation played and when it began, until the driver asks for its record.
    played: RefCell<Option<(GenerationRecord, Instant)>>,
}

impl Tournaments<'_> {
    /// The batch's members, with their life records and the cap the last generation's game
    /// lengths set.
    fn players(&self, batch: &Batch<'_, f64, GenerationRecord>) -> Result<Players, QuickError> {
        let cfg = self.cfg;
        if batch.labels.len() != batch.population.len() {
            return Err(QuickError::Config(format!(
                "{} members named for {} genomes",
                batch.labels.len(),
                batch.population.len()
            )));
        }
        let last = batch.history.last();
        let cap = match (last, &cfg.dynamic_cap) {
            (Some(last), Some(dynamic)) => dynamic.next(last.mean_moves),
            _ => cfg.max_moves,
        };
        let population = batch
            .population
            .iter()
            .zip(batch.labels)
            .map(|(genome, label)| {
                let values = belmonte::values(genome)
                    .ok_or_else(|| QuickError::Config(format!("member {} is not five piece values", label.name)))?;
                let life = last.and_then(|l| l.ranked.iter().find(|m| m.id == label.id));
                let Label { id, name, origin } = label.clone();
                let (points, games) = life.map_or((0.0, 0), |m| (m.points, m.games));
                Ok(Individual { id, name, values, origin, points, games })
            })
            .collect::<Result<_, QuickError>>()?;
        Ok(Players { cap, population })
    }
}

impl Problem for Tournaments<'_> {
    type Score = f64;
    type Record = GenerationRecord;
    type Error = QuickError;

    fn evaluate(&self, batch: Batch<'_, f64, GenerationRecord>) -> Result<Vec<f64>, QuickError> {
        let started = Instant::now();
        let players = self.players(&batch)?;
        let record = play_generation(self.cfg, &self.engine, batch.generation, &players, batch.resume)?;
        let place: HashMap<u64, usize> = record.ranked.iter().enumerate().map(|(i, m)| (m.id, i)).collect();
        let fitness = players
            .population
            .iter()
            .map(|m| {
                let missing = || QuickError::Config(format!("member {} is missing from the ranking", m.name));
                place.get(&m.id).map(|&i| i as f64).ok_or_else(missing)
            })
            .collect::<Result<_, _>>()?;
        *self.played.borrow_mut() = Some((record, started));
        Ok(fitness)
    }

    fn fitness(&self, place: &f64) -> f64 {
        *place
    }

    fn metric(&self, place: &f64) -> f64 {
        *place
    }

    /// Never reused: every generation ranks all of its members again.
    fn restore(&self, fitness: f64, _: f64) -> (f64, bool) {
        (fitness, false)
    }

    /// Nothing is held back.
    fn test(&self, _: &Genome) -> f64 {
        f64::NAN
    }

    fn record(
        &self,
        _: &[Genome],
        _: &[f64],
        _: usize,
        _: GenerationStats,
        _: &AfterTell,
    ) -> Result<GenerationRecord, QuickError> {
        let (record, started) = self
            .played
            .borrow_mut()
            .take()
            .ok_or_else(|| QuickError::Config("the optimiser was told a generation that was not played".into()))?;
        log::info!("{}", report::generation_line(&record));
        Ok(GenerationRecord { seconds: started.elapsed().as_secs_f64(), ..record })
    }

    fn report(&self, history: &[GenerationRecord]) -> Result<(), QuickError> {
        report::write_all(&self.cfg.out_dir, history).map_err(|e| QuickError::io(&self.cfg.out_dir, e))
    }
}

/// Games a generation plays: the quick tournament's expected count (quick-sort's comparisons),
/// the reference's gauntlet or the round robin, anchor included.
fn generation_games(cfg: &QuickConfig) -> f64 {
    let n = cfg.population;
    let pairing = 2.0 * f64::from(cfg.pairs);
    match cfg.ranking {
        RankingMode::QuickTournament => super::tournament::expected_games(n) * cfg.comparison.games(cfg.pairs) as f64,
        RankingMode::Reference => n as f64 * pairing,
        RankingMode::RoundRobin => {
            let players = n + usize::from(cfg.anchor);
            (players * (players - 1) / 2) as f64 * pairing
        }
    }
}

/// The run's plan line: the population, its ranking, the games and their budget.
fn plan(cfg: &QuickConfig, engine: &Path) -> (Plan, Option<f64>) {
    let ranking = match cfg.ranking {
        RankingMode::QuickTournament => "a quick tournament",
        RankingMode::Reference => "games against the reference",
        RankingMode::RoundRobin if cfg.anchor => "a round robin with the reference as anchor",
        RankingMode::RoundRobin => "a round robin",
    };
    let evaluation = if cfg.evaluation == Evaluation::Material { "material only" } else { "the engine's evaluation" };
    let per_generation = generation_games(cfg);
    let games = (per_generation * cfg.generations as f64).round() as u64;
    let limits = cfg.limits();
    let at_once = cfg.concurrency.max(1);
    let total = crate::progress::total_seconds(games, crate::progress::game_seconds(&limits), at_once);
    let plan = Plan::new("quick")
        .part(format!(
            "evolves the five piece values of {} random members (playing {evaluation}), ranked by {ranking}",
            cfg.population
        ))
        .part(format!(
            "{} generations of about {per_generation:.0} games, about {games} games at {}, at most {} moves, {at_once} at once",
            cfg.generations,
            crate::progress::limits_text(&limits),
            cfg.max_moves
        ))
        .part(format!("engine {}; out {}", engine.display(), cfg.out_dir.display()))
        .eta(total, at_once, "games");
    (plan, total.map(|t| t / cfg.generations as f64))
}

/// Runs (or resumes) `tuner quick`; reports are rewritten after every generation. `announce`
/// is given the plan once the inputs are checked, before any game.
///
/// # Errors
/// Bad config, missing engine, unreadable checkpoint, a game the runner could not play, I/O.
pub fn run(cfg: &QuickConfig, start: Start, announce: impl FnOnce(&Plan)) -> Result<QuickOutcome, QuickError> {
    cfg.validate()?;
    let mut probe = EngineSpec::new("engine", cfg.engine_path()).with_limits(cfg.limits());
    probe.validate().map_err(|e| QuickError::Config(e.to_string()))?;
    let (plan, each) = plan(cfg, &probe.cmd);
    announce(&plan);
    let (_held, checkpoint) = open_game_run(&cfg.out_dir, start)?;
    let fingerprint = fingerprint(cfg);
    let mismatch = "different settings (only generations, concurrency and out_dir may change)";
    let bar = Progress::new(cfg.generations as u64, "generations", each);
    let driver = Driver::single(cfg.generations, cfg.seed, &fingerprint, checkpoint, mismatch).with_progress(&bar);
    let tournaments = Tournaments { cfg, engine: probe.cmd.clone(), played: RefCell::new(None) };
    let finished = driver.optimise(Belmonte::new(cfg), &belmonte::layout(), &tournaments, start.resumes());
    bar.finish_and_clear();
    let Finished { history, .. } = finished?;
    let elite: Vec<Individual> =
        history.last().map(|h| h.ranked.iter().rev().take(2).cloned().collect()).unwrap_or_default();
    let best_file = match elite.first() {
        Some(best) => {
            let path = cfg.out_dir.join("best.toml");
            let text = format!(
                "# quick: {} (id {})\n{}",
                best.name,
                best.id,
                piece_params(&best.values, cfg.evaluation).to_toml()
            );
            write_atomic(&path, text.as_bytes()).map_err(|e| QuickError::io(&path, e))?;
            Some(path)
        }
        None => None,
    };
    Ok(QuickOutcome { history, elite, best_file })
}

fn params_path(cfg: &QuickConfig, ind: &Individual) -> PathBuf {
    cfg.out_dir.join("params").join(format!("{}-{}.toml", ind.id, ind.name))
}

fn engine_spec(cfg: &QuickConfig, engine: &Path, name: &str, params: Option<PathBuf>) -> EngineSpec {
    let mut spec = EngineSpec::new(name, engine).with_limits(cfg.limits());
    if let Some(p) = params {
        spec = spec.with_params(p);
    }
    for (k, v) in &cfg.engine_options {
        spec = spec.with_option(k, v);
    }
    spec
}

/// The reference player's parameter file. With `evaluation = "material"` it plays in the same
/// material-only evaluation as the members: its file's values (or the default piece values)
/// over [`base_params`], written next to the members' files.
fn reference_params(cfg: &QuickConfig) -> Result<Option<PathBuf>, QuickError> {
    if cfg.evaluation == Evaluation::Engine {
        return Ok(cfg.reference.clone());
    }
    let base = base_params(cfg.evaluation);
    let params = match &cfg.reference {
        Some(r) => base.with_file(r).map_err(|e| QuickError::Config(format!("reference: {e}")))?,
        None => base,
    };
    let path = cfg.out_dir.join("params").join("reference.toml");
    write_atomic(&path, params.to_toml().as_bytes()).map_err(|e| QuickError::io(&path, e))?;
    Ok(Some(path))
}

/// Plays (or replays from its journal) one generation and ranks it.
fn play_generation(
    cfg: &QuickConfig,
    engine: &Path,
    g: usize,
    state: &Players,
    resume: bool,
) -> Result<GenerationRecord, QuickError> {
    let dir = cfg.out_dir.join(format!("gen-{g:03}"));
    std::fs::create_dir_all(&dir).map_err(|e| QuickError::io(&dir, e))?;
    let specs: Vec<EngineSpec> = state
        .population
        .iter()
        .map(|ind| {
            let path = params_path(cfg, ind);
            write_atomic(&path, piece_params(&ind.values, cfg.evaluation).to_toml().as_bytes())
                .map_err(|e| QuickError::io(&path, e))?;
            Ok(engine_spec(cfg, engine, &ind.name, Some(path)))
        })
        .collect::<Result<_, QuickError>>()?;
    let (ranked, comparisons, games) = match cfg.ranking {
        RankingMode::QuickTournament => play_quick_tournament(cfg, g, state, &dir, &specs, resume)?,
        RankingMode::Reference | RankingMode::RoundRobin => play_runner(cfg, engine, g, state, &dir, specs, resume)?,
    };
    let count = |o: GameOutcome| games.iter().filter(|s| s.outcome == o).count();
    let capped = games.iter().filter(|s| s.plies >= 2 * state.cap).count();
    let mean_moves = games.iter().map(|s| f64::from(s.plies) / 2.0).sum::<f64>() / games.len().max(1) as f64;
    Ok(GenerationRecord {
        generation: g,
        cap: state.cap,
        comparisons,
        games: games.len(),
        draws: count(GameOutcome::Draw),
        white_wins: count(GameOutcome::WhiteWins),
        black_wins: count(GameOutcome::BlackWins),
        capped,
        mean_moves,
        ranked,
        seconds: 0.0,
    })
}

fn openings(cfg: &QuickConfig) -> Result<Option<OpeningsConfig>, QuickError> {
    cfg.openings
        .as_ref()
        .map(|f| {
            OpeningsConfig::parse(&[format!("file={}", f.display()), "order=random".into()])
                .map_err(|e| QuickError::Config(e.to_string()))
        })
        .transpose()
}

/// `ranking = "reference"` (a gauntlet, the reference as engine 0 against every member) or
/// `"round-robin"`, played by the runner in one match (its journal makes `--resume` replay
/// nothing; engine processes are reused across games); then every member's life record grows
/// by this generation's games and the population is ordered.
fn play_runner(
    cfg: &QuickConfig,
    engine: &Path,
    g: usize,
    state: &Players,
    dir: &Path,
    specs: Vec<EngineSpec>,
    resume: bool,
) -> Result<(Vec<Individual>, usize, Vec<GameSummary>), QuickError> {
    let gauntlet = cfg.ranking == RankingMode::Reference;
    // The reference plays as engine 0: against every member (gauntlet) or as the round robin's
    // non-breeding anchor. Index of member 0 among the match's engines:
    let with_reference = gauntlet || cfg.anchor;
    let first = usize::from(with_reference);
    let mut engines = Vec::new();
    if with_reference {
        engines.push(engine_spec(cfg, engine, REFERENCE, reference_params(cfg)?));
    }
    engines.extend(specs);
    let tournament = if gauntlet { Tournament::Gauntlet } else { Tournament::RoundRobin };
    let mut m = MatchConfig::new(engines, tournament);
    m.executor = crate::broker::games::on_workers(cfg.broker.clone());
    m.games = 2 * cfg.pairs;
    m.repeat = true;
    m.concurrency = cfg.concurrency.max(1);
    m.adjudication.maxmoves = Some(MaxMovesRule { moves: state.cap, result: MaxMovesResult::Material });
    m.openings = openings(cfg)?;
    m.seed = mix64(cfg.seed ^ mix64(g as u64));
    m.event = format!("evochess quick generation {g}");
    let journal = dir.join("games.journal");
    m.resume = resume && journal.exists();
    m.state = Some(journal.clone());
    m.pgn_out = Some(dir.join("games.pgn"));
    let results = runner::play_match(&m, &mut arena::runner::NoObserver).map_err(|source| QuickError::Game {
        white: if gauntlet { REFERENCE.into() } else { "round robin".into() },
        black: "the population".into(),
        source: Box::new(source),
    })?;
    if cfg.anchor {
        let t = &results.totals[0];
        log::info!("generation {g}: the anchor scored {} of {} games", t.points, t.games);
    }
    let mut pop = state.population.clone();
    let mut now = vec![0.0; pop.len()];
    for (i, ind) in pop.iter_mut().enumerate() {
        let t = &results.totals[i + first];
        now[i] = t.points;
        ind.points += t.points;
        ind.games += t.games as u32;
    }
    let games: Vec<GameSummary> = arena::results::journal_units(&journal)
        .map_err(|e| QuickError::io(&journal, e))?
        .into_iter()
        .flat_map(|u| u.games)
        .collect();
    let order = if gauntlet { reference_order(&pop) } else { by_points(&pop, &now) };
    let ranked = order.into_iter().map(|i| pop[i].clone()).collect();
    Ok((ranked, results.pairs.len(), games))
}

/// Plays (or replays from the journal) one generation's quick tournament.
fn play_quick_tournament(
    cfg: &QuickConfig,
    g: usize,
    state: &Players,
    dir: &Path,
    specs: &[EngineSpec],
    resume: bool,
) -> Result<(Vec<Individual>, usize, Vec<GameSummary>), QuickError> {
    let pop = &state.population;
    let n = pop.len();

    let journal_path = dir.join("games.journal");
    let pgn_path = dir.join("games.pgn");
    let fp = serde_json::to_string(&(fingerprint(cfg), g, state.cap, pop)).expect("serialises");
    let (journal, pgn, known) = open_games(&journal_path, &pgn_path, &fp, resume)?;
    let replayed = known.len();
    let comparisons = Comparisons {
        cfg,
        g,
        pop,
        specs,
        maxmoves: MaxMovesRule { moves: state.cap, result: MaxMovesResult::Material },
        openings: openings(cfg)?,
        per_comparison: cfg.comparison.games(cfg.pairs),
        event: format!("evochess quick generation {g}"),
        pgn_path,
        shared: Mutex::new((journal, pgn, known.clone())),
    };
    let failed = AtomicBool::new(false);
    let failure: Mutex<Option<QuickError>> = Mutex::new(None);

    // `compare(pivot, other)`: how `other` did; `other` has white in the first (or only) game.
    let compare = |pivot: usize, other: usize| -> Ordering {
        let unit = (other * n + pivot) as u64;
        if let Some(games) = known.get(&unit) {
            return comparison_order(other, games);
        }
        if failed.load(AtomicOrdering::Relaxed) {
            return Ordering::Equal;
        }
        match comparisons.play(other, pivot).and_then(|records| comparisons.record(unit, (other, pivot), &records)) {
            Ok(order) => order,
            Err(e) => {
                // The first failure is the run's error; the comparisons still running end
                // as draws without playing.
                failed.store(true, AtomicOrdering::Relaxed);
                failure.lock().expect("lock").get_or_insert(e);
                Ordering::Equal
            }
        }
    };
    let tseed = mix64(cfg.seed ^ 0x7175_6963_6b00 ^ mix64(g as u64));
    let ranking = quick_tournament(n, tseed, cfg.concurrency, compare);
    if let Some(e) = failure.into_inner().expect("lock") {
        return Err(e);
    }
    let (_, _, seen) = comparisons.shared.into_inner().expect("lock");
    if replayed > 0 {
        log::info!("generation {g}: {replayed} games replayed from {}", journal_path.display());
    }
    let games: Vec<GameSummary> = seen.into_values().flatten().collect();
    debug_assert_eq!(games.len(), ranking.games * comparisons.per_comparison);
    Ok((ranking.order.iter().map(|&i| pop[i].clone()).collect(), ranking.games, games))
}

/// The games of each comparison played, by unit (`other · n + pivot`).
type Played = HashMap<u64, Vec<GameSummary>>;

/// A quick tournament's journal and PGN file, opened to continue: the games the journal holds
/// (which a resume replays), by unit, and the PGN cut back to the last of them (emptied when
/// nothing is replayed).
fn open_games(
    journal_path: &Path,
    pgn_path: &Path,
    fp: &str,
    resume: bool,
) -> Result<(Journal, File, Played), QuickError> {
    let (journal, done) = Journal::open(journal_path, fp, resume && journal_path.exists())?;
    let done_pgn_len = done.iter().filter_map(|e| e.pgn_len).max();
    let known: Played = done.into_iter().map(|e| (e.unit, e.games)).collect();
    let replayed = known.len();
    // PGN length after the last journaled game: text past it is a game cut short by a kill (or
    // written but never journaled) and goes; less than it means games were lost.
    let recorded = done_pgn_len;
    let pgn = OpenOptions::new().create(true).append(true).open(pgn_path).map_err(|e| QuickError::io(pgn_path, e))?;
    let len = pgn.metadata().map_err(|e| QuickError::io(pgn_path, e))?.len();
    match recorded {
        _ if replayed == 0 => pgn.set_len(0).map_err(|e| QuickError::io(pgn_path, e))?,
        Some(r) if len < r => {
            return Err(QuickError::Config(format!(
                "--resume: {} has {len} bytes but its journal records {r}; restore it or start afresh",
                pgn_path.display()
            )));
        }
        Some(r) => pgn.set_len(r).map_err(|e| QuickError::io(pgn_path, e))?,
        None => {}
    }
    Ok((journal, pgn, known))
}

/// One generation's comparisons of a quick tournament, run from the tournament's threads: each
/// is a match of its own, recorded (PGN, then journal) as soon as it ends.
struct Comparisons<'a> {
    cfg: &'a QuickConfig,
    g: usize,
    pop: &'a [Individual],
    specs: &'a [EngineSpec],
    maxmoves: MaxMovesRule,
    openings: Option<OpeningsConfig>,
    /// Games a comparison plays.
    per_comparison: usize,
    event: String,
    pgn_path: PathBuf,
    /// The journal, the PGN file and every comparison's games so far, by unit.
    shared: Mutex<(Journal, File, Played)>,
}

impl Comparisons<'_> {
    /// The games of `other` (white in the first) against `pivot`: all of them, or why not.
    fn play(&self, other: usize, pivot: usize) -> Result<Vec<GameRecord>, QuickError> {
        let (cfg, pop, per_comparison) = (self.cfg, self.pop, self.per_comparison);
        let mut m = MatchConfig::new(vec![self.specs[other].clone(), self.specs[pivot].clone()], Tournament::Match);
        m.executor = crate::broker::games::on_workers(cfg.broker.clone());
        // A pair repeats its opening with colours swapped.
        m.games = per_comparison as u32;
        m.repeat = per_comparison >= 2;
        m.adjudication.maxmoves = Some(self.maxmoves);
        m.openings = self.openings.clone();
        m.seed = mix64(cfg.seed ^ mix64(self.g as u64) ^ mix64(pop[other].id << 32 | pop[pivot].id));
        m.event = self.event.clone();
        let mut cap = Capture(Vec::new());
        match runner::play_match(&m, &mut cap) {
            Ok(_) if cap.0.len() == per_comparison => Ok(cap.0),
            Err(source) => Err(QuickError::Game {
                white: pop[other].name.clone(),
                black: pop[pivot].name.clone(),
                source: Box::new(source),
            }),
            Ok(_) => Err(QuickError::Config(format!(
                "{} vs {}: {} of {per_comparison} games were played",
                pop[other].name,
                pop[pivot].name,
                cap.0.len()
            ))),
        }
    }

    /// Records the games of comparison `unit` (engine 0 `other`, engine 1 `pivot`) and says how
    /// `other` did.
    fn record(
        &self,
        unit: u64,
        (other, pivot): (usize, usize),
        records: &[GameRecord],
    ) -> Result<Ordering, QuickError> {
        let summaries: Vec<GameSummary> = records
            .iter()
            .map(|rec| {
                let mut s = GameSummary::of(rec);
                let side = |i: usize| if i == 0 { other } else { pivot };
                (s.white, s.black) = (side(rec.white_index), side(rec.black_index));
                s
            })
            .collect();
        let mut guard = self.shared.lock().expect("lock");
        let (journal, pgn, seen) = &mut *guard;
        // PGN first, then the journal with the PGN's length: a kill between the two leaves text
        // that the next --resume cuts off, and a full disk stops the run instead of losing games.
        let text: String = records.iter().map(|rec| game_to_pgn(rec, &self.event, "?")).collect();
        let meta = pgn
            .write_all(text.as_bytes())
            .and_then(|()| pgn.sync_data())
            .and_then(|()| pgn.metadata())
            .map_err(|e| QuickError::io(&self.pgn_path, e))?;
        let entry = UnitEntry { unit, games: summaries.clone(), pgn_len: Some(meta.len()), epd_len: None };
        journal.append(&entry).map_err(QuickError::from)?;
        for rec in records {
            log::debug!("gen {}: {} vs {}: {}", self.g, rec.white, rec.black, rec.result.outcome.pgn());
        }
        let order = comparison_order(other, &summaries);
        seen.insert(unit, summaries);
        Ok(order)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::outcome::Termination;

    fn game(white: usize, black: usize, outcome: GameOutcome, plies: u32) -> GameSummary {
        GameSummary { white, black, outcome, termination: Termination::Normal, reason: String::new(), plies }
    }

    fn member(id: u64, points: f64, games: u32) -> Individual {
        Individual { id, name: format!("m{id}"), values: [1000; 5], origin: "random".into(), points, games }
    }

    #[test]
    fn a_material_reference_plays_in_the_members_evaluation() {
        let dir = std::env::temp_dir().join(format!("evochess-quick-reference-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("params")).unwrap();
        let engine = QuickConfig { out_dir: dir.clone(), ..QuickConfig::default() };
        assert_eq!(reference_params(&engine).unwrap(), None, "the engine's defaults, no file");
        let material = QuickConfig { evaluation: Evaluation::Material, ..engine };
        let path = reference_params(&material).unwrap().unwrap();
        assert_eq!(evochess::params::Params::load(&path).unwrap(), base_params(Evaluation::Material));
        // A reference file's values go over the material-only base; its other keys stay 0.
        let file = dir.join("ref.toml");
        std::fs::write(&file, "[eval]\nknight_mg = 400\n").unwrap();
        let path =
            reference_params(&QuickConfig { reference: Some(file.clone()), ..material.clone() }).unwrap().unwrap();
        let p = evochess::params::Params::load(&path).unwrap();
        assert_eq!((p.eval.knight_mg, p.eval.bishop_mobility), (400, 0));
        std::fs::write(&file, "[eval]\nknight_mg = 1\n").unwrap();
        let e = reference_params(&QuickConfig { reference: Some(file), ..material }).unwrap_err().to_string();
        assert!(e.contains("ref.toml") && e.contains("knight_mg"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reference_ranking_weighs_long_records_over_one_lucky_pair() {
        let pop = [
            member(1, 2.0, 2),   // one pair, 2-0: (2+1)/4 = 0.75
            member(2, 30.0, 40), // twenty pairs at 75 %: 31/42 = 0.738
            member(3, 0.0, 2),   // 1/4 = 0.25
            member(4, 10.0, 20), // 11/22 = 0.5
            member(5, 1.0, 2),   // 2/4 = 0.5, shorter record than 4
            member(6, 0.0, 0),   // unplayed: 0.5, the shortest record
        ];
        let order: Vec<u64> = reference_order(&pop).iter().map(|&i| pop[i].id).collect();
        assert_eq!(order, vec![3, 6, 5, 4, 2, 1]);
        // A newcomer's perfect first pair no longer beats a survivor's 90 % over 40 games.
        let pop = [member(1, 4.0, 4), member(2, 36.0, 40)];
        assert_eq!(reference_order(&pop), vec![0, 1]);
    }

    #[test]
    fn round_robin_ranks_by_points_then_by_record() {
        let pop = [member(1, 9.0, 10), member(2, 1.0, 10), member(3, 5.0, 10), member(4, 0.0, 0)];
        // Points decide; 2 and 4 tie on 3 points and 4's empty record (0.5) beats 2's 1/10.
        assert_eq!(by_points(&pop, &[5.0, 3.0, 7.0, 3.0]), vec![1, 3, 0, 2]);
    }

    #[test]
    fn a_comparison_is_decided_by_score_then_by_the_shorter_win() {
        use GameOutcome::*;
        // One game: `other` (3) has white.
        assert_eq!(comparison_order(3, &[game(3, 7, WhiteWins, 80)]), Ordering::Greater);
        assert_eq!(comparison_order(3, &[game(3, 7, BlackWins, 80)]), Ordering::Less);
        assert_eq!(comparison_order(3, &[game(3, 7, Draw, 80)]), Ordering::Equal);
        // A pair: 1.5 - 0.5 either way.
        assert_eq!(comparison_order(3, &[game(3, 7, WhiteWins, 80), game(7, 3, Draw, 90)]), Ordering::Greater);
        assert_eq!(comparison_order(3, &[game(3, 7, Draw, 80), game(7, 3, WhiteWins, 90)]), Ordering::Less);
        // Each won with white: the quicker win decides.
        assert_eq!(comparison_order(3, &[game(3, 7, WhiteWins, 40), game(7, 3, WhiteWins, 90)]), Ordering::Greater);
        assert_eq!(comparison_order(3, &[game(3, 7, WhiteWins, 90), game(7, 3, WhiteWins, 40)]), Ordering::Less);
        assert_eq!(comparison_order(3, &[game(3, 7, WhiteWins, 60), game(7, 3, WhiteWins, 60)]), Ordering::Equal);
        // Each won with black.
        assert_eq!(comparison_order(3, &[game(3, 7, BlackWins, 90), game(7, 3, BlackWins, 30)]), Ordering::Greater);
        // Two draws.
        assert_eq!(comparison_order(3, &[game(3, 7, Draw, 90), game(7, 3, Draw, 30)]), Ordering::Equal);
    }
}
