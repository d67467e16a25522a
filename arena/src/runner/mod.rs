//! Plays matches, gauntlets and round robins of UCI and xboard engines with a pool of worker
//! threads.
//!
//! # Library API (what `tuner evolve` and other commands call)
//!
//! ```no_run
//! use arena::{engine::spec::EngineSpec, runner::{self, MatchConfig, Tournament}, tc::SearchLimits};
//!
//! let limits = SearchLimits { nodes: Some(2000), ..SearchLimits::default() };
//! let a = EngineSpec::new("base", "target/release/evochess").with_limits(limits.clone());
//! let b = EngineSpec::new("cand", "target/release/evochess").with_params("cand.toml").with_limits(limits);
//! let mut cfg = MatchConfig::new(vec![a, b], Tournament::Match);
//! cfg.rounds = 10; // 10 colour-swapped game pairs
//! cfg.concurrency = 2;
//! let results = runner::play_match(&cfg, &mut runner::NoObserver).unwrap();
//! let (points, games) = results.score_of(1, 0).unwrap();
//! ```
//!
//! * [`play_match`] validates the configuration (engine paths, TCs, params files, openings,
//!   tablebases), starts each engine once to check its handshake (`uciok`, or xboard's features),
//!   its option names and that it can play the book's start positions — so bad input is reported
//!   before any game — then plays every unit and returns [`MatchResults`].
//! * [`round_robin`] is the GA's helper: every engine against every other, returning the results
//!   whose [`MatchResults::score_of`] gives per-pair scores.
//! * A [`MatchObserver`] sees each finished game with the running [`Standings`] (the CLI uses it
//!   for the progress bar and rating lines).
//!
//! # Scheduling
//!
//! The match is cut into *units*: with `repeat` (the default) a unit is a pair of games on one
//! opening with colours swapped, otherwise a single game. Unit `u` always gets the same opening
//! and colours, so a resumed match is the same match. `concurrency` workers take units in order
//! from a shared counter; each unit is computed from its index, so no schedule is held in memory
//! however many rounds are asked for. Each worker keeps its engine processes between games and
//! restarts any that crashed, stalled or asked for `restart=on`. Results come back over a channel
//! to this thread, which alone writes PGN/EPD/journal, so files are never interleaved. Those files
//! are held under an exclusive advisory lock ([`crate::files::open_exclusive`]): a second
//! process given the same output is refused before it changes anything.
//!
//! # Executors
//!
//! Who plays the units is the [`Executor`] in [`MatchConfig::executor`]: [`LocalThreads`] (the
//! workers above) unless the caller hands in another. The tuner's broker registers one that
//! publishes the units to remote workers; this module knows only the trait, so the arena never
//! depends on what plays its games or why they are played.

use std::{
    collections::{HashMap, HashSet},
    fmt,
    fs::File,
    io::{self, Seek, Write},
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    thread,
    time::{Duration, Instant},
};

use crossbeam_channel::{Sender, unbounded};
use serde::{Deserialize, Serialize};
use shakmaty::Chess;
use shakmaty_syzygy::Tablebase;
use thiserror::Error;

use crate::{
    adjudicate::{AdjudicationConfig, load_tablebase},
    engine::{
        client::EngineClient,
        spec::{EngineSpec, SpecError},
        transport::{EngineError, Timeouts},
    },
    game::{GameRecord, GameSetup, SearchWarning, play_game},
    openings::{Opening, OpeningBook, OpeningsConfig, OpeningsError},
    outcome::{GameOutcome, GameResult, Termination},
    pgn_out::{PgnFormat, game_to_pgn_as},
    results::{GameSummary, Journal, JournalError, MatchResults, Standings, UnitEntry},
    stats::{Sprt, SprtDecision},
    tc::SearchLimits,
};

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tournament {
    /// Exactly two engines.
    Match,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

/// Everything that defines a match. Serialised (minus output paths) as the resume fingerprint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub tournament: Tournament,
    /// Gauntlet seeds: the first `seeds` engines each play all the others (cutechess and
    /// fastchess `-seeds`); 0 counts as 1. Left out of the fingerprint at 0 or 1, so journals of
    /// earlier gauntlets still resume.
    #[serde(default, skip_serializing_if = "seeds_are_default")]
    pub seeds: usize,
    /// A round robin of only these encounters, as (first, second) engine indices, in this
    /// order (a racing round: each organism against a few others); empty: every pair. Left out
    /// of the fingerprint when empty, so journals of earlier round robins still resume.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<(usize, usize)>,
    /// Rounds; in each round every pairing plays `games` games.
    pub rounds: u32,
    pub games: u32,
    /// Play each opening twice with colours swapped (game pairs). Requires even `games`.
    pub repeat: bool,
    /// With `repeat`, play both games of a pair with the same colours (fastchess `-noswap`).
    /// Left out of the fingerprint when false, so journals of earlier runs still resume.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub noswap: bool,
    /// The second engine of each pairing takes White first (fastchess `-reverse`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reverse: bool,
    /// Pause before each game after a worker's first (fastchess `-wait`, milliseconds).
    #[serde(skip)]
    pub wait_ms: u64,
    #[serde(skip)]
    pub concurrency: usize,
    pub openings: Option<OpeningsConfig>,
    /// Seed for opening order and Polyglot walks (`-srand`).
    pub seed: u64,
    pub adjudication: AdjudicationConfig,
    pub sprt: Option<Sprt>,
    /// Milliseconds an untimed (`nodes=`/`depth=`) search may take before it counts as a stall.
    pub stall_timeout_ms: u64,
    pub start_timeout_ms: u64,
    pub ping_timeout_ms: u64,
    pub quit_timeout_ms: u64,
    pub event: String,
    /// PGN `Site` tag (`-site`); `?` when unknown, as the PGN standard asks.
    #[serde(skip)]
    pub site: String,
    /// CPUs the local workers are pinned to, worker `i` to `cpus[i % len]` (fastchess
    /// `-use-affinity`); the engines a worker starts inherit its CPU. Empty: not pinned.
    #[serde(skip)]
    pub affinity: Vec<usize>,
    #[serde(skip)]
    pub pgn_out: Option<PathBuf>,
    /// Notation and comments of `pgn_out`.
    #[serde(skip)]
    pub pgn_format: PgnFormat,
    #[serde(skip)]
    pub epd_out: Option<PathBuf>,
    /// A fresh run keeps what `pgn_out`/`epd_out` already hold instead of truncating them
    /// (fastchess `append=true`).
    #[serde(skip)]
    pub append_outputs: bool,
    /// Resume journal; written after every unit.
    #[serde(skip)]
    pub state: Option<PathBuf>,
    /// Continue the match recorded in `state`.
    #[serde(skip)]
    pub resume: bool,
    /// Results JSON written at the end (and after every unit, so the GA can poll it).
    #[serde(skip)]
    pub results_out: Option<PathBuf>,
    /// Who plays the units; `None`: [`LocalThreads`] (e.g. the tuner's `--broker` sets one that
    /// plays them on remote workers).
    #[serde(skip)]
    pub executor: Option<SharedExecutor>,
}

impl MatchConfig {
    /// Defaults: one round of one game pair per pairing, start position, no adjudication.
    pub fn new(engines: Vec<EngineSpec>, tournament: Tournament) -> MatchConfig {
        MatchConfig {
            engines,
            tournament,
            seeds: 0,
            pairs: Vec::new(),
            rounds: 1,
            games: 2,
            repeat: true,
            noswap: false,
            reverse: false,
            wait_ms: 0,
            concurrency: 1,
            openings: None,
            seed: 0,
            adjudication: AdjudicationConfig::default(),
            sprt: None,
            stall_timeout_ms: 60_000,
            start_timeout_ms: 15_000,
            ping_timeout_ms: 15_000,
            quit_timeout_ms: 2_000,
            event: "evochess tuner match".into(),
            site: "?".into(),
            affinity: Vec::new(),
            pgn_out: None,
            pgn_format: PgnFormat::default(),
            epd_out: None,
            append_outputs: false,
            state: None,
            resume: false,
            results_out: None,
            executor: None,
        }
    }

    /// The encounters, as (first, second) engine indices.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        match self.tournament {
            Tournament::Match => vec![(0, 1)],
            Tournament::Gauntlet => {
                let seeds = self.seeds.clamp(1, n.max(1));
                (0..seeds).flat_map(|s| (seeds..n).map(move |i| (s, i))).collect()
            }
            Tournament::RoundRobin if !self.pairs.is_empty() => self.pairs.clone(),
            Tournament::RoundRobin => (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect(),
        }
    }

    fn games_per_unit(&self) -> u32 {
        if self.repeat { 2 } else { 1 }
    }

    pub fn planned_games(&self) -> u64 {
        self.pairings().len() as u64 * u64::from(self.rounds) * u64::from(self.games)
    }

    pub fn timeouts(&self) -> Timeouts {
        Timeouts {
            start: Duration::from_millis(self.start_timeout_ms),
            ping: Duration::from_millis(self.ping_timeout_ms),
            quit: Duration::from_millis(self.quit_timeout_ms),
        }
    }

    /// Units (game pairs, or single games) of one encounter in one round.
    fn units_per_encounter(&self) -> u64 {
        u64::from(self.games / self.games_per_unit())
    }

    /// How many units the match has: rounds × pairings × units per encounter.
    pub fn unit_count(&self) -> u64 {
        u64::from(self.rounds) * self.pairings().len() as u64 * self.units_per_encounter()
    }

    /// Unit `id` of the schedule, computed from its index so that no schedule is ever held in
    /// memory (`-rounds 4000000000 -sprt ...` must not allocate billions of units). The order is
    /// round, then pairing, then unit within the encounter.
    pub fn unit(&self, id: u64, pairings: &[(usize, usize)]) -> Unit {
        let upe = self.units_per_encounter();
        let k = id % upe;
        let e = (id / upe) % pairings.len() as u64;
        let round = (id / upe / pairings.len() as u64) as u32;
        let (a, b) = pairings[e as usize];
        let (a, b) = if self.reverse { (b, a) } else { (a, b) };
        // Every encounter of a round uses the same openings (fair across opponents).
        let opening_index = u64::from(round) * upe + k;
        let games = if self.repeat {
            vec![(a, b), if self.noswap { (a, b) } else { (b, a) }]
        } else if (opening_index + e).is_multiple_of(2) {
            vec![(a, b)]
        } else {
            vec![(b, a)]
        };
        Unit { id, round, opening_index, games }
    }

    /// All units in play order (tests; the runner computes them one at a time).
    #[cfg(test)]
    fn units(&self) -> Vec<Unit> {
        let pairings = self.pairings();
        (0..self.unit_count()).map(|i| self.unit(i, &pairings)).collect()
    }

    /// The configuration part that must match for `--resume`.
    pub fn fingerprint(&self) -> String {
        serde_json::to_string(self).expect("config serializes")
    }

    /// Whether a journal recorded under `old` (a fingerprint) is this match, perhaps with
    /// another number of rounds: a unit's pairing, opening and colours depend on its index
    /// alone, so a match resumed with more rounds (an SPRT that reached its cap undecided, a
    /// gauntlet made longer) continues the same schedule.
    pub fn continues(&self, old: &str) -> bool {
        if old == self.fingerprint() {
            return true;
        }
        let without_rounds = |text: &str| {
            let mut v: serde_json::Value = serde_json::from_str(text).ok()?;
            v.as_object_mut()?.remove("rounds")?;
            Some(v)
        };
        matches!((without_rounds(old), without_rounds(&self.fingerprint())), (Some(a), Some(b)) if a == b)
    }
}

fn seeds_are_default(seeds: &usize) -> bool {
    *seeds <= 1
}

/// Why a match could not run.
#[derive(Debug, Error)]
pub enum RunnerError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Journal(#[from] JournalError),
    #[error("{0}")]
    Config(String),
    /// The executor's own failure (e.g. the broker's connection), as it put it.
    #[error(transparent)]
    Executor(Box<dyn std::error::Error + Send + Sync>),
    #[error("output file `{path}`: {source}")]
    Output { path: String, source: io::Error },
    /// On resume, an output holds less than the journal says was written: games would be lost.
    #[error(
        "--resume: output file `{path}` {found} but the state file records {recorded} bytes written; restore the \
         file, or start the match afresh without --resume"
    )]
    OutputShort { path: String, found: String, recorded: u64 },
}

/// Receives progress; all methods but [`MatchObserver::on_warning`] default to doing nothing.
pub trait MatchObserver {
    /// Before the first game: games planned in all, and already done (resume).
    fn on_start(&mut self, _planned: u64, _done: u64, _standings: &Standings) {}
    fn on_game(&mut self, _game: &GameRecord, _standings: &Standings) {}
    /// An engine misbehaving under its limits, the first time this engine does it this way in
    /// this run (`game` is the game's number); logged as a warning unless overridden.
    fn on_warning(&mut self, warning: &SearchWarning, game: u64) {
        log::warn!("{warning} (game {game}; not repeated for this engine)");
    }
    fn on_finish(&mut self, _results: &MatchResults) {}
}

/// An observer that ignores everything.
pub struct NoObserver;
impl MatchObserver for NoObserver {}

/// A unit of the schedule: a game, or a pair of games on one opening.
#[derive(Clone, Debug)]
pub struct Unit {
    pub id: u64,
    pub round: u32,
    pub opening_index: u64,
    /// (white, black) engine indices of each game.
    pub games: Vec<(usize, usize)>,
}

/// A played unit, as an executor hands it back to the runner's loop.
pub struct UnitDone {
    pub unit: Unit,
    pub games: Vec<GameRecord>,
}

/// Shared, read-only match context for workers.
pub struct Context {
    /// The match, validated.
    pub cfg: MatchConfig,
    pub book: OpeningBook,
    tb: Option<Arc<Tablebase<Chess>>>,
    /// Set when the match ends early (SPRT decision, a failed output): executors stop taking units,
    /// and games under way end as aborted. Shared, so that whoever plays units for someone else
    /// ([`UnitPlayer::with_stop`]) can stop them from another thread.
    pub stop: Arc<AtomicBool>,
}

impl Context {
    /// The match's adjudication tablebases, loaded once (an executor replays games with them).
    pub fn tablebase(&self) -> Option<&Arc<Tablebase<Chess>>> {
        self.tb.as_ref()
    }
}

/// The same match run again without `--resume` over its own unfinished journal: an error, so
/// that a forgotten `-resume` does not replace the journal and replay its games. A journal of
/// another match (other settings), a finished one (every unit, or an SPRT decision) or a
/// damaged one is replaced, as cutechess starts a new match.
fn refuse_to_restart_unfinished(
    cfg: &MatchConfig,
    path: &Path,
    names: &[String],
    pairings: &[(usize, usize)],
) -> Result<(), RunnerError> {
    // Exactly this match: one with other rounds (or any other setting) starts afresh without
    // -resume, as cutechess does; -resume extends it.
    let Ok((_, entries)) = Journal::open(path, &cfg.fingerprint(), true) else {
        return Ok(());
    };
    let mut old = Standings::new(names, pairings);
    for e in &entries {
        old.add_unit(&e.games);
    }
    let decided =
        cfg.sprt.as_ref().and_then(|s| old.sprt_status(s)).is_some_and(|st| st.decision != SprtDecision::Continue);
    if entries.is_empty() || entries.len() as u64 >= cfg.unit_count() || decided {
        return Ok(());
    }
    Err(RunnerError::Config(format!(
        "state file {} holds this match unfinished ({} of {} games): run it again with -resume to go on, \
         or remove the file to start over",
        path.display(),
        old.games,
        cfg.planned_games()
    )))
}

/// Every engine against every other (the GA's fitness tournament): `base` supplies everything
/// but the engines and the tournament type.
pub fn round_robin(
    engines: Vec<EngineSpec>,
    base: &MatchConfig,
    observer: &mut dyn MatchObserver,
) -> Result<MatchResults, RunnerError> {
    let cfg = MatchConfig { engines, tournament: Tournament::RoundRobin, ..base.clone() };
    play_match(&cfg, observer)
}

/// Validates `cfg`, checks every engine starts, then plays the match.
pub fn play_match(cfg: &MatchConfig, observer: &mut dyn MatchObserver) -> Result<MatchResults, RunnerError> {
    let t0 = Instant::now();
    let cpu0 = cpu_times();
    let mut cfg = cfg.clone();
    validate(&mut cfg)?;
    let book = match &cfg.openings {
        Some(o) => OpeningBook::load(o, cfg.seed)?,
        None => OpeningBook::Startpos,
    };
    let tb = match &cfg.adjudication.tb_path {
        Some(p) => Some(load_tablebase(p).map_err(RunnerError::Config)?),
        None => None,
    };
    // Start every engine once: a missing uciok or a bad option name is an error before any game,
    // and so is a book of FEN positions for an xboard engine without `setboard`.
    for spec in &cfg.engines {
        let c = spec.start(cfg.timeouts())?;
        let fen_book = book.has_fen_starts();
        let plays_from_fen = c.plays_from_fen();
        c.quit();
        if fen_book && !plays_from_fen {
            return Err(RunnerError::Config(format!(
                "engine `{}` has no xboard `setboard`, so it can play only openings from the standard start \
                 position; the opening book has FEN start positions (use a PGN book or a Polyglot book)",
                spec.name
            )));
        }
    }

    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let pairings = cfg.pairings();
    let mut standings = Standings::new(&names, &pairings);

    // Nothing an earlier run left is cut before every input and output has been checked: the
    // journal of a resumed match is only read here (its torn last line dropped), the results
    // path is tried, then the outputs are opened, and only then a fresh run replaces the journal.
    let mut done = HashSet::new();
    let mut journal = None;
    let mut pgn_len = None;
    let mut epd_len = None;
    match &cfg.state {
        Some(path) if cfg.resume => {
            let (j, entries) = Journal::open_accepting(path, &cfg.fingerprint(), true, |old| cfg.continues(old))?;
            if let Some(e) = entries.iter().find(|e| e.unit >= cfg.unit_count()) {
                return Err(RunnerError::Config(format!(
                    "state file {} holds unit {} but this match has only {} units: resume with at least as \
                     many rounds (games) as were played",
                    path.display(),
                    e.unit,
                    cfg.unit_count()
                )));
            }
            for e in &entries {
                standings.add_unit(&e.games);
                done.insert(e.unit);
                pgn_len = e.pgn_len.or(pgn_len);
                epd_len = e.epd_len.or(epd_len);
            }
            journal = Some(j);
        }
        None if cfg.resume => return Err(RunnerError::Config("--resume needs a state file".into())),
        Some(path) if path.exists() => refuse_to_restart_unfinished(&cfg, path, &names, &pairings)?,
        _ => {}
    }
    let resumed = standings.games;
    let mut stopped_early = false;
    if let Some(s) = &cfg.sprt
        && let Some(st) = standings.sprt_status(s)
        && st.decision != SprtDecision::Continue
    {
        stopped_early = true;
    }
    // Results are rewritten after every unit: find out now, not after hours of games, that the
    // path cannot be written.
    if let Some(path) = &cfg.results_out {
        let err = |source| RunnerError::Output { path: path.display().to_string(), source };
        // As cutechess does with its outputs: a directory that does not exist is a mistyped
        // path, not one to create.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
            let source = std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("directory {} does not exist", dir.display()),
            );
            return Err(err(source));
        }
        crate::files::probe_atomic(path).map_err(err)?;
    }
    let resume = cfg.resume;
    let mut pgn = open_output(cfg.pgn_out.as_ref(), resume, pgn_len, cfg.append_outputs)?;
    let mut epd = open_output(cfg.epd_out.as_ref(), resume, epd_len, cfg.append_outputs)?;
    if let Some(path) = &cfg.state
        && !resume
    {
        journal = Some(Journal::open(path, &cfg.fingerprint(), false)?.0);
    }
    if let Some(path) = &cfg.results_out {
        build_results(&cfg, &standings, stopped_early, resumed, t0, cpu0)
            .write_json(path)
            .map_err(|source| RunnerError::Output { path: path.display().to_string(), source })?;
    }

    let stop = Arc::new(AtomicBool::new(stopped_early));
    let ctx = Arc::new(Context { cfg: cfg.clone(), book, tb, stop });
    observer.on_start(cfg.planned_games(), standings.games, &standings);

    let schedule = Arc::new(Schedule { pairings, next: AtomicU64::new(0), count: cfg.unit_count(), done });
    let (res_tx, res_rx) = unbounded::<UnitDone>();
    let workers = match &cfg.executor {
        Some(executor) => executor.0.start(&ctx, &schedule, &res_tx),
        None => LocalThreads.start(&ctx, &schedule, &res_tx),
    };
    drop(res_tx);

    let mut game_number = standings.games;
    let mut failure = None;
    // (engine, kind) already warned about: a misbehaving engine is reported once, not per game.
    let mut warned: HashSet<(String, &'static str)> = HashSet::new();
    for mut d in res_rx.iter() {
        if stopped_early || d.games.iter().any(|g| g.result.termination == Termination::Aborted) {
            continue; // after the SPRT decision, or stopped mid-unit: not counted
        }
        let mut pgn_text = String::new();
        let mut epd_text = String::new();
        for g in &mut d.games {
            game_number += 1;
            g.game_number = game_number;
            pgn_text.push_str(&game_to_pgn_as(g, &cfg.event, &cfg.site, cfg.pgn_format));
            epd_text.push_str(&g.final_fen);
            epd_text.push('\n');
        }
        let write = |out: &mut Option<(PathBuf, File)>, text: &str| -> Result<Option<u64>, RunnerError> {
            match out {
                Some((path, f)) => {
                    let err = |source| RunnerError::Output { path: path.display().to_string(), source };
                    f.write_all(text.as_bytes()).and_then(|()| f.sync_data()).map_err(err)?;
                    Ok(Some(f.metadata().map_err(err)?.len()))
                }
                None => Ok(None),
            }
        };
        let written = write(&mut pgn, &pgn_text).and_then(|p| Ok((p, write(&mut epd, &epd_text)?)));
        let (p_len, e_len) = match written {
            Ok(l) => l,
            Err(e) => {
                failure = Some(e);
                ctx.stop.store(true, Ordering::Relaxed);
                break;
            }
        };
        let summaries: Vec<GameSummary> = d.games.iter().map(GameSummary::of).collect();
        if let Some(j) = &mut journal
            && let Err(e) =
                j.append(&UnitEntry { unit: d.unit.id, games: summaries.clone(), pgn_len: p_len, epd_len: e_len })
        {
            failure = Some(e.into());
            ctx.stop.store(true, Ordering::Relaxed);
            break;
        }
        standings.add_unit(&summaries);
        for g in &d.games {
            observer.on_game(g, &standings);
            for w in &g.warnings {
                if warned.insert((w.engine.clone(), w.kind.key())) {
                    observer.on_warning(w, g.game_number);
                }
            }
        }
        if let Some(path) = &cfg.results_out
            && let Err(source) = build_results(&cfg, &standings, false, resumed, t0, cpu0).write_json(path)
        {
            failure = Some(RunnerError::Output { path: path.display().to_string(), source });
            ctx.stop.store(true, Ordering::Relaxed);
            break;
        }
        if let Some(s) = &cfg.sprt
            && standings.sprt_status(s).is_some_and(|st| st.decision != SprtDecision::Continue)
        {
            stopped_early = true;
            ctx.stop.store(true, Ordering::Relaxed);
        }
    }
    ctx.stop.store(true, Ordering::Relaxed);
    drop(res_rx);
    let mut panicked = 0;
    for w in workers {
        match w.join() {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failure = failure.or(Some(e)),
            Err(_) => panicked += 1,
        }
    }
    if let Some(e) = failure {
        return Err(e);
    }
    if panicked > 0 {
        // Finished pairs are in the journal; `--resume` replays only the lost ones.
        return Err(RunnerError::Config(format!("{panicked} worker thread(s) failed; the match is incomplete")));
    }
    let results = build_results(&cfg, &standings, stopped_early, resumed, t0, cpu0);
    if let Some(path) = &cfg.results_out {
        results.write_json(path).map_err(|source| RunnerError::Output { path: path.display().to_string(), source })?;
    }
    observer.on_finish(&results);
    Ok(results)
}

fn validate(cfg: &mut MatchConfig) -> Result<(), RunnerError> {
    let n = cfg.engines.len();
    match cfg.tournament {
        Tournament::Match if n != 2 => {
            return Err(RunnerError::Config(format!("a match needs exactly 2 engines, got {n}")));
        }
        Tournament::Gauntlet | Tournament::RoundRobin if n < 2 => {
            return Err(RunnerError::Config(format!("a tournament needs at least 2 engines, got {n}")));
        }
        Tournament::Gauntlet if cfg.seeds >= n => {
            return Err(RunnerError::Config(format!(
                "-seeds {}: a gauntlet of {n} engines needs fewer seeds than engines, so that someone plays them",
                cfg.seeds
            )));
        }
        _ => {}
    }
    let mut names = HashSet::new();
    for e in &mut cfg.engines {
        if !names.insert(e.name.clone()) {
            return Err(SpecError::DuplicateName(e.name.clone()).into());
        }
        e.validate()?;
    }
    if !cfg.pairs.is_empty() {
        if cfg.tournament != Tournament::RoundRobin {
            return Err(RunnerError::Config("a list of encounters (pairs) is for a round robin only".into()));
        }
        let mut seen = HashSet::new();
        for &(a, b) in &cfg.pairs {
            if a >= n || b >= n || a == b {
                return Err(RunnerError::Config(format!(
                    "encounter ({a}, {b}): an encounter is two different engines of 0 to {}",
                    n - 1
                )));
            }
            if !seen.insert((a.min(b), a.max(b))) {
                return Err(RunnerError::Config(format!("encounter ({a}, {b}) is listed twice")));
            }
        }
    }
    if cfg.rounds == 0 || cfg.games == 0 {
        return Err(RunnerError::Config("rounds and games must be positive".into()));
    }
    if cfg.repeat && !cfg.games.is_multiple_of(2) {
        return Err(RunnerError::Config(format!(
            "games ({}) must be even when openings are repeated with colours swapped",
            cfg.games
        )));
    }
    if cfg.sprt.is_some() && cfg.pairings().len() != 1 {
        return Err(RunnerError::Config("SPRT needs a match between exactly two engines".into()));
    }
    // The default book is built in (`openings::builtin`): a run outside the repository needs no file.
    if let Some(o) = &cfg.openings
        && !o.file.is_file()
        && crate::openings::builtin::builtin(&o.file).is_none()
    {
        return Err(OpeningsError::Io {
            path: o.file.display().to_string(),
            source: match o.file.exists() {
                true => io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"),
                false => io::Error::new(io::ErrorKind::NotFound, "no such file"),
            },
        }
        .into());
    }
    if cfg.resume && cfg.state.is_none() {
        return Err(RunnerError::Config("--resume needs a state file".into()));
    }
    Ok(())
}

/// Opens an output for appending: on resume cut back to the journal's recorded length (`keep`);
/// otherwise emptied, unless `append` keeps what is there.
fn open_output(
    path: Option<&PathBuf>,
    resume: bool,
    keep: Option<u64>,
    append: bool,
) -> Result<Option<(PathBuf, File)>, RunnerError> {
    let Some(path) = path else { return Ok(None) };
    let err = |source| RunnerError::Output { path: path.display().to_string(), source };
    let short =
        |found: String, recorded| RunnerError::OutputShort { path: path.display().to_string(), found, recorded };
    if resume
        && let Some(recorded) = keep.filter(|&k| k > 0)
        && !path.exists()
    {
        return Err(short("is missing".into(), recorded));
    }
    // Locked first: a second process on the same file is refused before it cuts anything.
    let mut f = crate::files::open_exclusive(path).map_err(err)?;
    if resume && let Some(recorded) = keep {
        let len = f.metadata().map_err(err)?.len();
        if len < recorded {
            return Err(short(format!("has {len} bytes"), recorded));
        }
    }
    // With `append` and nothing recorded yet, what is there predates the run: keep it.
    match (resume, keep, append) {
        (true, Some(len), _) => f.set_len(len).map_err(err)?,
        (_, _, true) => {}
        (_, _, false) => f.set_len(0).map_err(err)?,
    }
    f.seek(io::SeekFrom::End(0)).map_err(err)?;
    Ok(Some((path.clone(), f)))
}

/// `resumed`: the games the journal held when this run started.
fn build_results(
    cfg: &MatchConfig,
    s: &Standings,
    stopped_early: bool,
    resumed: u64,
    t0: Instant,
    cpu0: (f64, f64),
) -> MatchResults {
    let cpu = cpu_times();
    MatchResults {
        engines: s.names().to_vec(),
        games_planned: cfg.planned_games(),
        games_played: s.games,
        pairs: s.pair_stats(),
        totals: s.totals().to_vec(),
        terminations: s.terminations().clone(),
        sprt: cfg.sprt.as_ref().and_then(|sp| s.sprt_status(sp)),
        stopped_early,
        games_resumed: resumed,
        wall_seconds: t0.elapsed().as_secs_f64(),
        runner_cpu_seconds: cpu.0 - cpu0.0,
        engines_cpu_seconds: cpu.1 - cpu0.1,
    }
}

/// (own, reaped children) CPU seconds from `/proc/self/stat` (utime+stime, cutime+cstime;
/// clock ticks of 1/100 s, Linux's USER_HZ). Zero where unavailable.
pub fn cpu_times() -> (f64, f64) {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return (0.0, 0.0) };
    // Fields after the parenthesised command name; utime is field 14 overall.
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else { return (0.0, 0.0) };
    let f: Vec<f64> = rest.split_whitespace().map(|x| x.parse().unwrap_or(0.0)).collect();
    if f.len() < 15 {
        return (0.0, 0.0);
    }
    ((f[11] + f[12]) / 100.0, (f[13] + f[14]) / 100.0)
}

/// Plays the units of a match: the runner hands it the shared context, the schedule and the
/// channel its loop reads, and alone writes the outputs, whatever the executor. Implemented
/// here by [`LocalThreads`], and from outside the arena by anything else that can play a unit
/// (the tuner's broker, on remote workers).
pub trait Executor: fmt::Debug + Send + Sync {
    /// Starts the threads that take units from `schedule` until it runs dry or `ctx.stop` is
    /// set, sending each finished unit to `results`. The runner joins them after its loop;
    /// an `Err` ends the match with that error.
    fn start(
        &self,
        ctx: &Arc<Context>,
        schedule: &Arc<Schedule>,
        results: &Sender<UnitDone>,
    ) -> Vec<thread::JoinHandle<Result<(), RunnerError>>>;
}

/// The default executor: `concurrency` threads on this machine (no more than there are units
/// to play), each keeping its engine processes between games.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalThreads;

impl Executor for LocalThreads {
    fn start(
        &self,
        ctx: &Arc<Context>,
        schedule: &Arc<Schedule>,
        results: &Sender<UnitDone>,
    ) -> Vec<thread::JoinHandle<Result<(), RunnerError>>> {
        (0..(ctx.cfg.concurrency.max(1) as u64).min(schedule.pending().max(1)))
            .map(|i| {
                let ctx = Arc::clone(ctx);
                let schedule = Arc::clone(schedule);
                let tx = results.clone();
                thread::Builder::new()
                    .name(format!("worker-{i}"))
                    .spawn(move || {
                        if let Some(&cpu) = ctx.cfg.affinity.get(i as usize % ctx.cfg.affinity.len().max(1)) {
                            pin_to_cpu(cpu);
                        }
                        worker(&ctx, &schedule, &tx);
                        Ok(())
                    })
                    .expect("spawn")
            })
            .collect()
    }
}

/// Pins the calling thread to `cpu`; processes it starts afterwards inherit the mask (Linux
/// `sched_setaffinity` on thread id 0). A CPU that cannot be used is logged, not fatal: the
/// games are the same, only less isolated.
#[cfg(target_os = "linux")]
fn pin_to_cpu(cpu: usize) {
    // SAFETY: `set` is a plain bit set owned by this frame; CPU_SET checks nothing but is given
    // an index below CPU_SETSIZE, and sched_setaffinity only reads the set.
    let ok = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if cpu >= libc::CPU_SETSIZE as usize {
            false
        } else {
            libc::CPU_SET(cpu, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
        }
    };
    if !ok {
        log::warn!("-use-affinity: cannot pin a worker to CPU {cpu}: {}", io::Error::last_os_error());
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_to_cpu(cpu: usize) {
    log::warn!("-use-affinity: pinning to CPU {cpu} is only supported on Linux");
}

/// An executor a [`MatchConfig`] can hold: shared, cloned with the config, and equal
/// only to itself (two configs are the same match only when the same executor plays them).
#[derive(Clone, Debug)]
pub struct SharedExecutor(pub Arc<dyn Executor>);

impl SharedExecutor {
    pub fn new(executor: impl Executor + 'static) -> SharedExecutor {
        SharedExecutor(Arc::new(executor))
    }
}

impl PartialEq for SharedExecutor {
    fn eq(&self, other: &SharedExecutor) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// The units still to play, handed out in schedule order one at a time.
pub struct Schedule {
    pub pairings: Vec<(usize, usize)>,
    /// Index of the next unit to hand out.
    next: AtomicU64,
    /// Units in the whole match.
    pub count: u64,
    /// Units the journal already holds.
    pub done: HashSet<u64>,
}

impl Schedule {
    /// Units not yet played when the match (re)started.
    pub fn pending(&self) -> u64 {
        self.count.saturating_sub(self.done.len() as u64)
    }

    /// The next unit not yet played, or `None` at the end of the match or once `stop` is set.
    pub fn take(&self, cfg: &MatchConfig, stop: &AtomicBool) -> Option<Unit> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let id = self.next.fetch_add(1, Ordering::Relaxed);
            if id >= self.count {
                return None;
            }
            if !self.done.contains(&id) {
                return Some(cfg.unit(id, &self.pairings));
            }
        }
    }
}

fn worker(ctx: &Context, schedule: &Schedule, results: &Sender<UnitDone>) {
    let mut engines: HashMap<usize, EngineClient> = HashMap::new();
    let mut played_any = false;
    while let Some(unit) = schedule.take(&ctx.cfg, &ctx.stop) {
        let opening = ctx.book.get(unit.opening_index);
        let records = play_unit(ctx, &mut engines, &unit, &opening, &mut played_any);
        if results.send(UnitDone { unit, games: records }).is_err() {
            break;
        }
    }
    for (_, c) in engines {
        c.quit();
    }
}

/// Plays the games of `unit` from `opening` with the engines in `engines` (started as needed,
/// kept for the next unit when reusable). Stops after an aborted game.
fn play_unit(
    ctx: &Context,
    engines: &mut HashMap<usize, EngineClient>,
    unit: &Unit,
    opening: &Opening,
    played_any: &mut bool,
) -> Vec<GameRecord> {
    let cfg = &ctx.cfg;
    // Keep only this unit's engines running (a gauntlet worker would otherwise hold them all).
    let needed: HashSet<usize> = unit.games.iter().flat_map(|&(w, b)| [w, b]).collect();
    let idle: Vec<usize> = engines.keys().copied().filter(|k| !needed.contains(k)).collect();
    for k in idle {
        if let Some(c) = engines.remove(&k) {
            c.quit();
        }
    }
    let mut records = Vec::new();
    for &(w, b) in &unit.games {
        if cfg.wait_ms > 0 && *played_any {
            thread::sleep(Duration::from_millis(cfg.wait_ms));
        }
        *played_any = true;
        let mut record = match (ensure(ctx, engines, w), ensure(ctx, engines, b)) {
            (Ok(()), Ok(())) => {
                let (mut wc, mut bc) = (engines.remove(&w).expect("started"), engines.remove(&b).expect("started"));
                let setup = GameSetup {
                    white_name: &cfg.engines[w].name,
                    black_name: &cfg.engines[b].name,
                    white_limits: &cfg.engines[w].limits,
                    black_limits: &cfg.engines[b].limits,
                    opening,
                    adjudication: &cfg.adjudication,
                    tablebase: ctx.tb.clone(),
                    stall_timeout: Duration::from_millis(cfg.stall_timeout_ms),
                    stop: Some(&*ctx.stop),
                };
                let r = play_game(&mut wc, &mut bc, &setup);
                for (i, c) in [(w, wc), (b, bc)] {
                    // Crashed or stalled engines, restart=on and xboard's reuse=0 get a fresh
                    // process next game.
                    if c.reusable() && !cfg.engines[i].restart {
                        engines.insert(i, c);
                    } else {
                        c.quit();
                    }
                }
                r
            }
            (w_res, b_res) => forfeit_record(cfg, opening, w, b, w_res.err(), b_res.err()),
        };
        record.white_index = w;
        record.black_index = b;
        record.round = unit.round;
        record.opening_index = unit.opening_index;
        let aborted = record.result.termination == Termination::Aborted;
        records.push(record);
        if aborted {
            break;
        }
    }
    records
}

/// Plays units that come from elsewhere (a `tuner worker`'s tasks) with the runner's own game
/// loop; the engines stay up from one unit to the next.
pub struct UnitPlayer {
    ctx: Context,
    engines: HashMap<usize, EngineClient>,
    played_any: bool,
}

impl UnitPlayer {
    /// Checks `cfg`'s engines (commands, params files) and loads its tablebases.
    pub fn new(cfg: MatchConfig) -> Result<UnitPlayer, RunnerError> {
        UnitPlayer::with_stop(cfg, Arc::new(AtomicBool::new(false)))
    }

    /// As [`UnitPlayer::new`], with a flag that, once set (from any thread), ends the game under
    /// way as aborted at its next move and every later one at once: a worker's way to drop the
    /// tasks of a run that was cancelled.
    pub fn with_stop(mut cfg: MatchConfig, stop: Arc<AtomicBool>) -> Result<UnitPlayer, RunnerError> {
        cfg.tournament = Tournament::RoundRobin;
        validate(&mut cfg)?;
        let tb = match &cfg.adjudication.tb_path {
            Some(p) => Some(load_tablebase(p).map_err(RunnerError::Config)?),
            None => None,
        };
        let ctx = Context { cfg, book: OpeningBook::Startpos, tb, stop };
        Ok(UnitPlayer { ctx, engines: HashMap::new(), played_any: false })
    }

    /// The games of `unit` from `opening`, in order.
    pub fn play(&mut self, unit: &Unit, opening: &Opening) -> Vec<GameRecord> {
        play_unit(&self.ctx, &mut self.engines, unit, opening, &mut self.played_any)
    }
}

impl Drop for UnitPlayer {
    fn drop(&mut self) {
        for (_, c) in self.engines.drain() {
            c.quit();
        }
    }
}

/// Starts engine `i` if it is not running.
fn ensure(ctx: &Context, engines: &mut HashMap<usize, EngineClient>, i: usize) -> Result<(), EngineError> {
    if let std::collections::hash_map::Entry::Vacant(e) = engines.entry(i) {
        let c = ctx.cfg.engines[i].start(ctx.cfg.timeouts())?;
        e.insert(c);
    }
    Ok(())
}

/// A game that could not start because an engine failed to (re)start: that side loses.
fn forfeit_record(
    cfg: &MatchConfig,
    opening: &Opening,
    w: usize,
    b: usize,
    w_err: Option<EngineError>,
    b_err: Option<EngineError>,
) -> GameRecord {
    let result = match (&w_err, &b_err) {
        (Some(_), Some(_)) => {
            GameResult::new(GameOutcome::Draw, Termination::Disconnect, "both engines failed to start")
        }
        (Some(e), None) => {
            GameResult::loss(shakmaty::Color::White, Termination::Disconnect, format!("White failed to start: {e}"))
        }
        (None, Some(e)) => {
            GameResult::loss(shakmaty::Color::Black, Termination::Disconnect, format!("Black failed to start: {e}"))
        }
        (None, None) => unreachable!("called only when a start failed"),
    };
    log::warn!("{}", result.reason);
    let limits = |i: usize| -> &SearchLimits { &cfg.engines[i].limits };
    GameRecord {
        white: cfg.engines[w].name.clone(),
        black: cfg.engines[b].name.clone(),
        white_index: w,
        black_index: b,
        round: 0,
        game_number: 0,
        opening_index: 0,
        start_fen: opening.fen.clone(),
        opening_san: Vec::new(),
        opening_uci: Vec::new(),
        moves: Vec::new(),
        result,
        final_fen: opening.fen.clone().unwrap_or_else(|| crate::openings::START_FEN.to_string()),
        white_tc: limits(w).pgn_tag(),
        black_tc: limits(b).pgn_tag(),
        started_at: 0,
        duration_ms: 0,
        warnings: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> EngineSpec {
        EngineSpec::new(name, "sh").with_limits(SearchLimits { depth: Some(1), ..SearchLimits::default() })
    }

    #[test]
    fn pairings_and_units() {
        let mut cfg = MatchConfig::new(vec![spec("a"), spec("b"), spec("c")], Tournament::Gauntlet);
        assert_eq!(cfg.pairings(), vec![(0, 1), (0, 2)]);
        // Seeds: each of the first N plays all the others, never another seed.
        cfg.engines.push(spec("d"));
        cfg.seeds = 2;
        assert_eq!(cfg.pairings(), vec![(0, 2), (0, 3), (1, 2), (1, 3)]);
        cfg.seeds = 0;
        assert!(!cfg.fingerprint().contains("seeds"));
        cfg.engines.pop();
        cfg.tournament = Tournament::RoundRobin;
        assert_eq!(cfg.pairings(), vec![(0, 1), (0, 2), (1, 2)]);
        cfg.rounds = 2;
        cfg.games = 4;
        let units = cfg.units();
        assert_eq!(units.len(), 2 * 3 * 2);
        assert_eq!(cfg.planned_games(), 24);
        // Colour-swapped pairs share the opening; encounters of a round share openings.
        assert_eq!(units[0].games, vec![(0, 1), (1, 0)]);
        assert_eq!(units.iter().filter(|u| u.opening_index == 0).count(), 3);
        assert_eq!(units.iter().map(|u| u.opening_index).max(), Some(3));
        cfg.repeat = false;
        cfg.tournament = Tournament::Match;
        cfg.engines.truncate(2);
        let units = cfg.units();
        assert_eq!(units.len(), 8);
        assert_eq!(units[0].games, vec![(0, 1)]);
        assert_eq!(units[1].games, vec![(1, 0)]);
    }

    #[test]
    fn the_schedule_is_computed_per_unit_however_long_the_match() {
        let mut cfg = MatchConfig::new(vec![spec("a"), spec("b"), spec("c")], Tournament::RoundRobin);
        cfg.rounds = 3;
        cfg.games = 4;
        let pairings = cfg.pairings();
        let all = cfg.units();
        assert_eq!(all.len() as u64, cfg.unit_count());
        for (i, u) in all.iter().enumerate() {
            let v = cfg.unit(i as u64, &pairings);
            assert_eq!((u.id, u.round, u.opening_index, &u.games), (v.id, v.round, v.opening_index, &v.games));
        }
        // Four billion rounds: counted and indexed, never listed.
        cfg.rounds = 4_000_000_000;
        assert_eq!(cfg.unit_count(), 4_000_000_000 * 3 * 2);
        let last = cfg.unit(cfg.unit_count() - 1, &pairings);
        assert_eq!((last.round, last.games.clone()), (3_999_999_999, vec![(1, 2), (2, 1)]));
        assert_eq!(cfg.planned_games(), 4_000_000_000 * 3 * 4);
    }

    #[test]
    fn a_round_robin_of_listed_encounters() {
        let mut cfg = MatchConfig::new(vec![spec("a"), spec("b"), spec("c"), spec("d")], Tournament::RoundRobin);
        let fingerprint = cfg.fingerprint();
        assert!(!fingerprint.contains("pairs"), "{fingerprint}");
        cfg.pairs = vec![(2, 0), (1, 3)];
        assert_eq!(cfg.pairings(), vec![(2, 0), (1, 3)]);
        assert_eq!(cfg.planned_games(), 4);
        assert_eq!(cfg.units()[1].games, vec![(1, 3), (3, 1)]);
        assert_ne!(cfg.fingerprint(), fingerprint);
        validate(&mut cfg).unwrap();
        for (pairs, needle) in [
            (vec![(0, 4)], "encounter (0, 4)"),
            (vec![(1, 1)], "encounter (1, 1)"),
            (vec![(0, 1), (1, 0)], "(1, 0) is listed twice"),
        ] {
            cfg.pairs = pairs;
            let e = validate(&mut cfg).unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
        cfg.pairs = vec![(0, 1)];
        cfg.tournament = Tournament::Gauntlet;
        assert!(validate(&mut cfg).unwrap_err().to_string().contains("round robin only"));
    }

    #[test]
    fn noswap_and_reverse_colours() {
        let mut cfg = MatchConfig::new(vec![spec("a"), spec("b")], Tournament::Match);
        let fingerprint = cfg.fingerprint();
        cfg.noswap = true;
        assert_eq!(cfg.units()[0].games, vec![(0, 1), (0, 1)]);
        cfg.reverse = true;
        assert_eq!(cfg.units()[0].games, vec![(1, 0), (1, 0)]);
        cfg.noswap = false;
        assert_eq!(cfg.units()[0].games, vec![(1, 0), (0, 1)]);
        assert_ne!(cfg.fingerprint(), fingerprint);
        // Off, the new keys leave the fingerprint as earlier versions wrote it (journals resume).
        cfg.reverse = false;
        assert_eq!(cfg.fingerprint(), fingerprint);
        assert!(!fingerprint.contains("noswap") && !fingerprint.contains("reverse"));
    }

    #[test]
    fn config_errors_are_clear() {
        let mut cfg = MatchConfig::new(vec![spec("a")], Tournament::Match);
        assert!(validate(&mut cfg).unwrap_err().to_string().contains("exactly 2 engines"));
        let mut cfg = MatchConfig::new(vec![spec("a"), spec("a")], Tournament::Match);
        assert!(validate(&mut cfg).unwrap_err().to_string().contains("used twice"));
        let mut cfg = MatchConfig::new(vec![spec("a"), spec("b")], Tournament::Match);
        cfg.games = 3;
        assert!(validate(&mut cfg).unwrap_err().to_string().contains("must be even"));
        cfg.games = 2;
        cfg.openings = Some(OpeningsConfig::parse(&["file=/no/such/book.epd"]).unwrap());
        let e = validate(&mut cfg).unwrap_err().to_string();
        assert!(e.contains("/no/such/book.epd"), "{e}");
        // The built-in book by its relative name, with no file there (unit tests run in arena/).
        cfg.openings = Some(OpeningsConfig::parse(&["file=openings/gnuchess-8ply.epd"]).unwrap());
        assert!(!std::path::Path::new("openings/gnuchess-8ply.epd").exists());
        validate(&mut cfg).unwrap();
    }

    #[test]
    fn cpu_times_are_readable() {
        let (own, _) = cpu_times();
        assert!(own >= 0.0);
    }
}
