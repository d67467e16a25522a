//! The datagen run: worker threads play games by index, the calling thread writes them to the
//! open shard in index order, and a progress file makes the run resumable.
//!
//! Durability, in the order the writer does it: append a game's record to
//! `shard-K.bin.part` (synced), then replace `progress.json` atomically with the number of the
//! next game and the part's length. A run killed anywhere resumes from `progress.json`: the part
//! is cut back to the recorded length (a half-written or unrecorded record goes) and the games
//! from the recorded index on are played again, deterministically the same. A part holding
//! `shard_positions` kept positions is synced and renamed to `shard-K.bin`, then the progress
//! names shard K + 1; a kill between the two is recognised on resume (shard K closed, its part
//! gone, its length the recorded one).
//!
//! Nothing read back is trusted: a resume checks every closed shard (format, run id, parameters,
//! shard number, game indices, every block's checksum and the end block) and that they hold the
//! games before the open part without a gap, and refuses a run whose shard is missing, cut short,
//! damaged or another run's, naming the file and the byte, instead of carrying on without its
//! games.

use std::{
    collections::BTreeMap,
    fs::{self, File, OpenOptions},
    io::{self, Write},
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Instant,
};

use evochess::{
    params::{ParamId, Params},
    search::Searcher,
    uci::options::MAX_HASH_MB,
};
use rand::{SeedableRng, rngs::StdRng};
use serde::{Deserialize, Serialize};
use shakmaty::Chess;
use shakmaty_syzygy::Tablebase;
use thiserror::Error;

use super::{
    format::{self, Filter, FormatError, Origin, Shard},
    play::{PlaySettings, play_game},
};
use arena::{
    files::write_atomic,
    openings::{OpeningBook, OpeningsConfig, OpeningsError},
};

use crate::{
    ga::run_dir::{RunDir, RunDirError, Start},
    hash::{fnv1a, mix64},
};

/// The default opening book, built into the binary (see [`arena::openings::builtin`]).
pub const DEFAULT_BOOK: &str = "openings/gnuchess-8ply.epd";
/// Stack of each worker thread: the search keeps a move picker per ply on the stack (the
/// engine's own search thread gets the same).
const WORKER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games in all (a resumed run may raise it).
    pub games: u64,
    pub seed: u64,
    pub play: PlaySettings,
    /// Worker threads (the output does not depend on it).
    pub concurrency: usize,
    /// Kept positions at which a shard is closed.
    pub shard_positions: u64,
    /// Transposition table of each worker's searcher, MiB.
    pub hash_mb: usize,
    pub filter: Filter,
    /// Opening book file; `None`: the built-in [`DEFAULT_BOOK`].
    pub openings: Option<PathBuf>,
    pub params: Params,
    /// Syzygy tables for adjudication.
    pub syzygy: Option<PathBuf>,
    pub out: PathBuf,
    pub start: Start,
}

#[derive(Debug, Error)]
pub enum DatagenError {
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
    #[error(transparent)]
    RunDir(#[from] RunDirError),
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    #[error("{0}")]
    Config(String),
    #[error("game {index}: {reason}")]
    Game { index: u64, reason: String },
    #[error("{path}: {reason}; the run cannot resume from it (pass --force to start over)")]
    Damaged { path: String, reason: String },
    #[error("{0}; the run cannot resume from it: restore the file, or pass --force to start over")]
    Shard(FormatError),
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> DatagenError + '_ {
    move |source| DatagenError::Io { path: path.display().to_string(), source }
}

/// A file of the run read back on resume, through [`evochess::input`].
fn read_back(path: &Path) -> Result<Vec<u8>, DatagenError> {
    evochess::input::read_capped(path, evochess::input::MAX_DATA_BYTES)
        .map_err(|e| io_err(path)(io::Error::other(e.reason())))
}

/// What fixes a run's games: a resumed run must match it key for key (`games` and
/// `concurrency` may change).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Identity {
    format_version: u8,
    /// Hash of this identity (with `run_id` empty) when the run started: the run id every shard's
    /// header carries. Absent (empty) in runs of format 1.
    #[serde(default)]
    run_id: String,
    seed: u64,
    nodes: u64,
    random_plies: usize,
    /// Absent in runs made before the start filter existed (they had none).
    #[serde(default)]
    max_start_score: Option<u32>,
    shard_positions: u64,
    hash_mb: usize,
    keep_in_check: bool,
    keep_tactical: bool,
    max_score: Option<u32>,
    openings: String,
    /// FNV-1a of the parameters' TOML when the run started. Parameters added to the engine
    /// later change it, so a run with its own `params.toml` is checked against that file
    /// instead (see [`same_params`]); runs from before that file have only this.
    params: String,
    adjudication: arena::adjudicate::AdjudicationConfig,
}

/// `progress.json`: games before `next_game` are written, in closed shards or in the first
/// `part_bytes` bytes of the open part `shard`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Progress {
    next_game: u64,
    shard: u32,
    part_bytes: u64,
    part_games: u64,
    part_positions: u64,
    positions: u64,
    plies: u64,
    nodes: u64,
}

impl Progress {
    /// Counts game `d`, just appended to the open part.
    fn count(&mut self, d: &Done) {
        self.next_game += 1;
        self.part_bytes += d.bytes.len() as u64;
        self.part_games += 1;
        self.part_positions += d.kept;
        self.positions += d.kept;
        self.plies += d.plies;
        self.nodes += d.nodes;
    }
}

/// What a run did, for its summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub games: u64,
    pub new_games: u64,
    /// Kept positions in all the run's shards.
    pub positions: u64,
    pub new_positions: u64,
    pub plies: u64,
    pub new_nodes: u64,
    pub shards: u32,
    pub bytes: u64,
    pub seconds: f64,
}

impl Summary {
    /// The closing lines: totals, then this invocation's speed.
    pub fn text(&self, out: &Path) -> String {
        let per_s = |x: u64| if self.seconds > 0.0 { x as f64 / self.seconds } else { 0.0 };
        format!(
            "datagen: {} games, {} positions kept of {} plies, {} shards ({} bytes: {:.2} a kept position, \
             {:.2} a ply) in {}\n\
             this run: {} games, {} positions, {} nodes, {:.0} nodes/s, {:.1} positions/s, wall {:.1} s\n",
            self.games,
            self.positions,
            self.plies,
            self.shards,
            self.bytes,
            self.bytes as f64 / self.positions.max(1) as f64,
            self.bytes as f64 / self.plies.max(1) as f64,
            out.display(),
            self.new_games,
            self.new_positions,
            self.new_nodes,
            per_s(self.new_nodes),
            per_s(self.new_positions),
            self.seconds,
        )
    }
}

/// `shard-K.bin` in `dir`.
pub fn shard_path(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("shard-{k:05}.bin"))
}

fn part_path(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("shard-{k:05}.bin.part"))
}

/// The closed shards of `dir`, in order.
pub fn shards_in(dir: &Path) -> Result<Vec<PathBuf>, DatagenError> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io_err(dir))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("shard-") && n.ends_with(".bin"))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// The game index's generator: derived from the run's seed and the index alone.
fn game_rng(seed: u64, index: u64) -> StdRng {
    StdRng::seed_from_u64(mix64(seed ^ mix64(index.wrapping_add(0x5EED))))
}

/// The book of a config: its file, or the built-in one; random order drawn from the seed.
fn load_book(cfg: &DatagenConfig) -> Result<(OpeningBook, String), DatagenError> {
    let file = cfg.openings.clone().unwrap_or_else(|| PathBuf::from(DEFAULT_BOOK));
    let oc = OpeningsConfig::parse(&[format!("file={}", file.display()), "order=random".into()])?;
    Ok((OpeningBook::load(&oc, cfg.seed)?, file.display().to_string()))
}

fn identity(cfg: &DatagenConfig, book: String) -> Identity {
    Identity {
        format_version: format::VERSION,
        run_id: String::new(),
        seed: cfg.seed,
        nodes: cfg.play.nodes,
        random_plies: cfg.play.random_plies,
        max_start_score: cfg.play.max_start_score,
        shard_positions: cfg.shard_positions,
        hash_mb: cfg.hash_mb,
        keep_in_check: cfg.filter.keep_in_check,
        keep_tactical: cfg.filter.keep_tactical,
        max_score: cfg.filter.max_score,
        openings: book,
        params: format!("{:016x}", fnv1a(&cfg.params.to_toml())),
        adjudication: cfg.play.adjudication.clone(),
    }
}

/// `identity` with its run id: the hash of the rest.
fn with_run_id(mut identity: Identity) -> Identity {
    identity.run_id.clear();
    let text = serde_json::to_string(&identity).expect("plain data serializes");
    identity.run_id = format!("{:016x}", fnv1a(&text));
    identity
}

/// The run id and parameter hash of `identity` (read from `file`), as shard headers hold them.
fn header_keys(identity: &Identity, file: &Path) -> Result<(u64, u64), DatagenError> {
    let hex = |key: &str, v: &str| {
        u64::from_str_radix(v, 16).map_err(|_| DatagenError::Damaged {
            path: file.display().to_string(),
            reason: format!("{key} `{v}` is not 16 hexadecimal digits"),
        })
    };
    Ok((hex("run_id", &identity.run_id)?, hex("params", &identity.params)?))
}

/// Checks the closed shards of the run in `dir` (run id and parameter hash `keys`) against
/// `progress`: shards 0 to `progress.shard − 1` all there, each whole and the run's, holding
/// games 0 to the open part's first one without a gap; and no closed shard beyond them.
fn check_closed_shards(dir: &Path, progress: &Progress, keys: (u64, u64)) -> Result<(), DatagenError> {
    let mut next = 0u64;
    for k in 0..progress.shard {
        let path = shard_path(dir, k);
        let name = path.display().to_string();
        let wrong = |offset: usize, reason: String| {
            DatagenError::Shard(FormatError::Corrupt { path: name.clone(), offset, reason })
        };
        if !path.exists() {
            return Err(DatagenError::Damaged {
                path: name,
                reason: format!("missing: progress.json records {} closed shards", progress.shard),
            });
        }
        let shard = Shard::open(&path).map_err(DatagenError::Shard)?;
        let Some(origin) = shard.origin() else {
            return Err(wrong(
                4,
                format!("shard format {}, not this run's {}", format::LEGACY_VERSION, format::VERSION),
            ));
        };
        if (origin.run_id, origin.params) != keys {
            return Err(wrong(
                0,
                format!(
                    "a shard of run {:016x} (parameters {:016x}), not of this run {:016x} (parameters {:016x})",
                    origin.run_id, origin.params, keys.0, keys.1
                ),
            ));
        }
        if origin.shard != k || origin.first_game != next {
            return Err(wrong(
                0,
                format!(
                    "shard {} from game {}, where shard {k} from game {next} belongs",
                    origin.shard, origin.first_game
                ),
            ));
        }
        next += shard.games().map_err(DatagenError::Shard)?;
    }
    let open_first = progress.next_game - progress.part_games;
    if next != open_first {
        let last = shard_path(dir, progress.shard.saturating_sub(1));
        return Err(DatagenError::Damaged {
            path: last.display().to_string(),
            reason: format!(
                "the closed shards hold games 0 to {next}, but progress.json has the open part start at game {open_first}"
            ),
        });
    }
    if let Some(stray) = shards_in(dir)?.into_iter().find(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix("shard-")?.strip_suffix(".bin")?.parse::<u32>().ok())
            .is_none_or(|k| k >= progress.shard)
    }) {
        return Err(DatagenError::Damaged {
            path: stray.display().to_string(),
            reason: format!("not a shard of this run (progress.json records {} closed shards)", progress.shard),
        });
    }
    Ok(())
}

/// Checks that `given` plays as the run's own parameter file `file`, which names its format: a
/// parameter the engine gained since plays there as the engine did before it, so only a real
/// change of a value (or a parameter now switched on) is refused, naming the first key.
fn same_params(file: &Path, given: &Params) -> Result<(), DatagenError> {
    let found = Params::load(file)
        .map_err(|e| DatagenError::Damaged { path: file.display().to_string(), reason: e.to_string() })?;
    let differs = Params::specs().enumerate().find(|&(i, _)| found.get(ParamId(i)) != given.get(ParamId(i)));
    match differs {
        None => Ok(()),
        Some((i, spec)) => Err(DatagenError::Config(format!(
            "{}: the run plays {} = {}, not {}; resume it with `--params {}` or pass --force",
            file.display(),
            spec.key(),
            found.get(ParamId(i)),
            given.get(ParamId(i)),
            file.display()
        ))),
    }
}

/// The first key where `found` (the run on disk) and `given` differ.
fn first_difference(found: &Identity, given: &Identity) -> Option<(String, String, String)> {
    let (a, b) = (serde_json::to_value(found).ok()?, serde_json::to_value(given).ok()?);
    let (a, b) = (a.as_object()?, b.as_object()?);
    a.iter().find(|(k, v)| b.get(*k) != Some(v)).map(|(k, v)| (k.clone(), v.to_string(), b[k].to_string()))
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, DatagenError> {
    serde_json::from_slice(&read_back(path)?)
        .map_err(|e| DatagenError::Damaged { path: path.display().to_string(), reason: format!("unreadable: {e}") })
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), DatagenError> {
    let text = serde_json::to_string_pretty(value).expect("plain data serializes");
    write_atomic(path, format!("{text}\n").as_bytes()).map_err(io_err(path))
}

/// The open shard: its file, positioned at its end.
struct Part {
    file: File,
    path: PathBuf,
}

impl Part {
    /// Opens part `progress.shard`, cut back to `progress.part_bytes` (a new one gets the
    /// header).
    fn open(dir: &Path, progress: &Progress, run: &RunHeader) -> Result<Part, DatagenError> {
        let path = part_path(dir, progress.shard);
        let header = run.header(progress);
        let header = header.as_slice();
        let mut file = OpenOptions::new().create(true).append(true).read(true).open(&path).map_err(io_err(&path))?;
        if progress.part_bytes == 0 {
            file.set_len(0).map_err(io_err(&path))?;
            file.write_all(header).map_err(io_err(&path))?;
        } else {
            let len = file.metadata().map_err(io_err(&path))?.len();
            if len < progress.part_bytes {
                let reason = format!("{len} bytes, shorter than the {} progress.json recorded", progress.part_bytes);
                return Err(DatagenError::Damaged { path: path.display().to_string(), reason });
            }
            if read_back(&path)?.get(..header.len()) != Some(header) {
                let reason = "its header does not match this run's settings and progress".to_string();
                return Err(DatagenError::Damaged { path: path.display().to_string(), reason });
            }
            file.set_len(progress.part_bytes).map_err(io_err(&path))?;
        }
        Ok(Part { file, path })
    }

    fn append(&mut self, bytes: &[u8]) -> Result<(), DatagenError> {
        self.file.write_all(bytes).map_err(io_err(&self.path))
    }

    fn sync(&self) -> Result<(), DatagenError> {
        self.file.sync_data().map_err(io_err(&self.path))
    }
}

/// What the header of each of a run's shards holds.
struct RunHeader {
    filter: Filter,
    run_id: u64,
    params: u64,
}

impl RunHeader {
    /// The header of the open part `progress.shard`.
    fn header(&self, progress: &Progress) -> Vec<u8> {
        let first_game = progress.next_game - progress.part_games;
        let origin = Origin { run_id: self.run_id, params: self.params, shard: progress.shard, first_game };
        format::header(&self.filter, &origin)
    }
}

/// A played game as the writer receives it.
struct Done {
    index: u64,
    bytes: Vec<u8>,
    kept: u64,
    plies: u64,
    nodes: u64,
}

/// One searcher for each of `cfg.concurrency` threads, each with its `cfg.hash_mb` MiB table.
///
/// # Errors
/// A `hash_mb` outside the engine's `Hash` option (1 to [`MAX_HASH_MB`]), or one the system
/// cannot allocate, named.
fn searchers(cfg: &DatagenConfig) -> Result<Vec<Searcher>, DatagenError> {
    let most = MAX_HASH_MB as usize;
    if !(1..=most).contains(&cfg.hash_mb) {
        return Err(DatagenError::Config(format!(
            "--hash {}: the engine's Hash option takes 1 to {most} MiB",
            cfg.hash_mb
        )));
    }
    (0..cfg.concurrency.max(1))
        .map(|_| {
            let mut s = Searcher::new(cfg.params.clone(), 1);
            s.set_hash_mb(cfg.hash_mb).map_err(|e| {
                DatagenError::Config(format!("--hash {}: {e} ({} searchers)", cfg.hash_mb, cfg.concurrency.max(1)))
            })?;
            Ok(s)
        })
        .collect()
}

/// Runs (or resumes) a datagen run; returns its summary.
///
/// # Errors
///
/// Bad settings or files (named), a run in `out` that differs from `cfg` (the first differing
/// key named), or an I/O failure; games already written stay resumable.
pub fn run(cfg: &DatagenConfig) -> Result<Summary, DatagenError> {
    check_settings(cfg)?;
    let t0 = Instant::now();
    // Every input is read, and every searcher's table allocated, before `--force` removes the
    // old run's files: a run that cannot start leaves them as they were.
    let (book, book_name) = load_book(cfg)?;
    let tablebase: Option<Arc<Tablebase<Chess>>> = match &cfg.syzygy {
        Some(dir) => Some(arena::adjudicate::load_tablebase(dir).map_err(DatagenError::Config)?),
        None => None,
    };
    let mut searchers = searchers(cfg)?;
    let (progress_file, identity_file) = (cfg.out.join("progress.json"), cfg.out.join("datagen.json"));
    let params_file = cfg.out.join("params.toml");
    let held = RunDir::open(&cfg.out, &[progress_file.clone(), identity_file.clone(), params_file.clone()], cfg.start)?;
    let leftovers = fs::read_dir(&cfg.out)
        .map_err(io_err(&cfg.out))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("shard-")));
    let given = with_run_id(identity(cfg, book_name));
    let (mut progress, run_keys) = if held.resumes() {
        resume(cfg, given, &identity_file, &params_file, &progress_file)?
    } else {
        start_fresh(cfg, &given, leftovers, &identity_file, &params_file)?
    };
    let run = RunHeader { filter: cfg.filter, run_id: run_keys.0, params: run_keys.1 };
    let mut part = reopen_part(cfg, &held.dir, &mut progress, &run, &progress_file)?;

    let first = progress.next_game;
    let (mut new_positions, mut new_nodes) = (0u64, 0u64);
    let each = crate::progress::nodes_game_seconds(cfg.play.nodes, crate::progress::measured_nps().unwrap_or(0.0))
        .map(|s| s / cfg.concurrency.max(1) as f64);
    let bar = crate::progress::Progress::new(cfg.games, "games", each);
    bar.skip_to(first.min(cfg.games));
    let players = Players { cfg, book: &book, tablebase: &tablebase, run_id: run.run_id, next: AtomicU64::new(first) };
    let abort = AtomicBool::new(false);
    let (tx, rx) = crossbeam_channel::unbounded::<Result<Done, DatagenError>>();
    let result = std::thread::scope(|scope| -> Result<Part, DatagenError> {
        for w in 0..cfg.concurrency.max(1) {
            let (tx, players, abort) = (tx.clone(), &players, &abort);
            let mut searcher = searchers.pop().expect("one searcher a thread");
            let spawned = std::thread::Builder::new()
                .name(format!("datagen {w}"))
                .stack_size(WORKER_STACK_BYTES)
                .spawn_scoped(scope, move || players.play(&mut searcher, abort, &tx));
            if let Err(source) = spawned {
                abort.store(true, Ordering::Relaxed);
                return Err(DatagenError::Io { path: "worker thread".into(), source });
            }
        }
        drop(tx);
        let stop = |e| {
            abort.store(true, Ordering::Relaxed);
            e
        };
        // Games come in any order; they are written in index order.
        let mut pending: BTreeMap<u64, Done> = BTreeMap::new();
        for msg in rx.iter() {
            let done = msg.map_err(stop)?;
            pending.insert(done.index, done);
            let mut wrote = false;
            while let Some(d) = pending.remove(&progress.next_game) {
                part.append(&d.bytes).map_err(stop)?;
                progress.count(&d);
                (new_positions, new_nodes) = (new_positions + d.kept, new_nodes + d.nodes);
                wrote = true;
                if progress.part_positions >= cfg.shard_positions {
                    part = close_part(&held.dir, part, &mut progress, &run, &progress_file).map_err(stop)?;
                }
            }
            if wrote {
                part.sync().map_err(stop)?;
                write_json(&progress_file, &progress).map_err(stop)?;
                bar.set_position(progress.next_game);
                bar.set_message(format!("{} positions", progress.positions));
            }
        }
        Ok(part)
    });
    bar.finish_and_clear();
    let part = result?;
    // Every game is written: close the last, short shard, and leave no empty part behind.
    let part =
        if progress.part_games > 0 { close_part(&held.dir, part, &mut progress, &run, &progress_file)? } else { part };
    drop(part);
    progress.part_bytes = 0;
    write_json(&progress_file, &progress)?;
    let p = part_path(&held.dir, progress.shard);
    fs::remove_file(&p).map_err(io_err(&p))?;
    summary(&held.dir, &progress, first, (new_positions, new_nodes), t0)
}

/// The settings no run can start with, named.
fn check_settings(cfg: &DatagenConfig) -> Result<(), DatagenError> {
    if cfg.play.nodes == 0 {
        return Err(DatagenError::Config("--nodes must be at least 1".into()));
    }
    if cfg.shard_positions == 0 {
        return Err(DatagenError::Config("--shard-positions must be at least 1".into()));
    }
    // A run of no games would only discard what `out` holds (with --force) and report success.
    if cfg.games == 0 {
        return Err(DatagenError::Config("--games 0: a run plays at least 1 game".into()));
    }
    Ok(())
}

/// The progress and shard header keys of the run in `cfg.out` being resumed, once its identity
/// file shows it is the run `given` describes (the first differing key named otherwise).
fn resume(
    cfg: &DatagenConfig,
    mut given: Identity,
    identity_file: &Path,
    params_file: &Path,
    progress_file: &Path,
) -> Result<(Progress, (u64, u64)), DatagenError> {
    let mut found: Identity = read_json(identity_file)?;
    if found.format_version != given.format_version {
        return Err(DatagenError::Config(format!(
            "{}: the run there writes shard format {}; this tuner writes format {} (checked shards) and \
             cannot continue it: its closed shards stay readable; start a new run (another --out, or --force)",
            cfg.out.display(),
            found.format_version,
            given.format_version
        )));
    }
    let keys = header_keys(&found, identity_file)?;
    // The run id is the one the run started with (its parameters' hash may differ, below).
    given.run_id.clone_from(&found.run_id);
    if params_file.exists() {
        same_params(params_file, &cfg.params)?;
        // The run's parameters are the same: their hash may differ by parameters added since.
        found.params.clone_from(&given.params);
    }
    if let Some((key, was, now)) = first_difference(&found, &given) {
        return Err(DatagenError::Config(format!(
            "{}: the run there has {key} = {was}, not {now}; resume it with its own settings or pass --force",
            cfg.out.display()
        )));
    }
    Ok((read_json(progress_file)?, keys))
}

/// A fresh start (or --force): the shards `leftovers` of another run removed (with --force,
/// else refused), the run's identity and parameters written; its first progress and header keys.
fn start_fresh(
    cfg: &DatagenConfig,
    given: &Identity,
    leftovers: impl Iterator<Item = PathBuf>,
    identity_file: &Path,
    params_file: &Path,
) -> Result<(Progress, (u64, u64)), DatagenError> {
    // Shards beside no progress file are another run's.
    for p in leftovers {
        if cfg.start == Start::Force {
            fs::remove_file(&p).map_err(io_err(&p))?;
        } else {
            return Err(DatagenError::Config(format!(
                "{} already holds shards ({}); pass --force to replace them or choose another --out",
                cfg.out.display(),
                p.display()
            )));
        }
    }
    write_json(identity_file, given)?;
    write_atomic(params_file, cfg.params.to_toml().as_bytes()).map_err(io_err(params_file))?;
    Ok((Progress::default(), header_keys(given, identity_file)?))
}

/// The open part of the run in `dir` at `progress`, after its closed shards are checked; a run
/// killed around a shard's closing is first brought to where it would have been.
fn reopen_part(
    cfg: &DatagenConfig,
    dir: &Path,
    progress: &mut Progress,
    run: &RunHeader,
    progress_file: &Path,
) -> Result<Part, DatagenError> {
    // Killed between renaming a full part and recording the next shard: the part is gone and
    // its closed shard is there (checked with the others below).
    if progress.part_bytes > 0 && shard_path(dir, progress.shard).exists() && !part_path(dir, progress.shard).exists() {
        progress.shard += 1;
        (progress.part_bytes, progress.part_games, progress.part_positions) = (0, 0, 0);
    }
    check_closed_shards(dir, progress, (run.run_id, run.params))?;
    let mut part = Part::open(dir, progress, run)?;
    if progress.part_bytes == 0 {
        progress.part_bytes = run.header(progress).len() as u64;
    }
    if progress.part_positions >= cfg.shard_positions {
        // Killed after recording a full part and before renaming it: close it as the run would
        // have, or the next games would go into it and the shards would differ.
        part = close_part(dir, part, progress, run, progress_file)?;
    }
    write_json(progress_file, progress)?;
    Ok(part)
}

/// What the player threads share: the settings, the openings and tablebases, the run's id, and
/// the index of the next game to play.
struct Players<'a> {
    cfg: &'a DatagenConfig,
    book: &'a OpeningBook,
    tablebase: &'a Option<Arc<Tablebase<Chess>>>,
    run_id: u64,
    next: AtomicU64,
}

impl Players<'_> {
    /// A player thread: plays the next game not taken, each as its block and counts, until the
    /// games run out, the run is aborted, or the writer has gone.
    fn play(
        &self,
        searcher: &mut Searcher,
        abort: &AtomicBool,
        tx: &crossbeam_channel::Sender<Result<Done, DatagenError>>,
    ) {
        let cfg = self.cfg;
        loop {
            let index = self.next.fetch_add(1, Ordering::Relaxed);
            if index >= cfg.games || abort.load(Ordering::Relaxed) {
                break;
            }
            let opening = self.book.get(index);
            let played =
                play_game(searcher, &cfg.play, self.tablebase.clone(), &opening, index, &mut game_rng(cfg.seed, index));
            let msg = played.map_err(|reason| DatagenError::Game { index, reason }).map(|g| {
                let mut bytes = Vec::with_capacity(64 + 4 * g.record.plies.len());
                format::put_block(&g.record, self.run_id, &mut bytes);
                let all = g.record.positions(&cfg.filter);
                let kept = all.iter().filter(|(_, k)| *k).count() as u64;
                Done { index, bytes, kept, plies: all.len() as u64, nodes: g.nodes }
            });
            if tx.send(msg).is_err() {
                break;
            }
        }
    }
}

/// The summary of a run whose games are all in its shards in `dir`: this invocation played
/// from game `first` on, and `new` (positions, nodes) of them.
fn summary(dir: &Path, progress: &Progress, first: u64, new: (u64, u64), t0: Instant) -> Result<Summary, DatagenError> {
    let shards = shards_in(dir)?;
    let mut bytes = 0;
    for s in &shards {
        bytes += fs::metadata(s).map_err(io_err(s))?.len();
    }
    Ok(Summary {
        games: progress.next_game,
        new_games: progress.next_game - first,
        positions: progress.positions,
        new_positions: new.0,
        plies: progress.plies,
        new_nodes: new.1,
        shards: shards.len() as u32,
        bytes,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// Syncs the part and records its full length, appends the end block (not recorded: a kill
/// before the rename cuts it off on resume, which closes the part again), renames it to its
/// closed name, then records the next shard and opens its part: a kill between the rename and
/// that record is recognised by [`Part::open`].
fn close_part(
    dir: &Path,
    mut part: Part,
    progress: &mut Progress,
    run: &RunHeader,
    progress_file: &Path,
) -> Result<Part, DatagenError> {
    part.sync()?;
    write_json(progress_file, progress)?;
    let bytes = read_back(&part.path)?;
    part.append(&format::end_block(&bytes, progress.part_games))?;
    part.sync()?;
    let closed = shard_path(dir, progress.shard);
    fs::rename(&part.path, &closed).map_err(io_err(&closed))?;
    drop(part);
    log::info!("closed {} ({} games, {} positions)", closed.display(), progress.part_games, progress.part_positions);
    progress.shard += 1;
    (progress.part_bytes, progress.part_games, progress.part_positions) = (0, 0, 0);
    let part = Part::open(dir, progress, run)?;
    progress.part_bytes = run.header(progress).len() as u64;
    write_json(progress_file, progress)?;
    Ok(part)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_generators_depend_on_seed_and_index_only() {
        use rand::Rng;
        let draw = |s, i| game_rng(s, i).random::<u64>();
        assert_eq!(draw(1, 7), draw(1, 7));
        assert_ne!(draw(1, 7), draw(1, 8));
        assert_ne!(draw(1, 7), draw(2, 7));
    }
}
