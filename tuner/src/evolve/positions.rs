//! Training positions from GM games, as in David et al. §III-B: one random position per
//! decisive game, taken only where the side to move went on to win, with the move played.
//! Other samples for mentor sets: `sample = "any"` (either side to move, drawn games too),
//! `quiet = true` (no check and no capture that wins material at once) and `random_plies`
//! (positions pushed off the game by random moves, so the set holds the lost material that GM
//! games lack). BENCHMARKS.md has how an evaluation fitted on each played.
//!
//! Games without a result, drawn games, games with illegal SAN, a bad `[FEN]` or a
//! non-standard `[Variant]` are skipped and counted, never fatal. `.xz` files are decompressed
//! in-process ([`arena::xz`]).
//! The extracted set is cached as JSON so reruns start instantly.

use std::{
    io::{self, Read},
    ops::ControlFlow,
    path::{Path, PathBuf},
};

use pgn_reader::{Outcome, RawTag, Reader, SanPlus, Visitor};
use rand::{Rng, SeedableRng, rngs::StdRng, seq::SliceRandom};
use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Move, Position, fen::Fen, uci::UciMove};
use thiserror::Error;

use crate::hash::{fnv1a, fnv1a_bytes, mix64};

/// One training example as stored: the position (FEN), the move played (UCI) and how the game
/// ended for the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GmPosition {
    pub fen: String,
    pub uci: String,
    /// The game's result for the side to move: 1 won, 0 drawn, -1 lost. `None` in caches
    /// written before results were kept, and for positions walked off the game by random moves
    /// (the game's result says nothing about them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<i8>,
}

impl GmPosition {
    /// The position and move, checked for legality.
    pub fn parse(&self) -> Result<(Chess, Move), String> {
        let fen: Fen = self.fen.parse().map_err(|e| format!("bad FEN `{}`: {e}", self.fen))?;
        let pos: Chess =
            fen.into_position(CastlingMode::Standard).map_err(|e| format!("bad position `{}`: {e}", self.fen))?;
        let uci: UciMove = self.uci.parse().map_err(|e| format!("bad move `{}`: {e}", self.uci))?;
        let m = uci.to_move(&pos).map_err(|e| format!("illegal move `{}` in `{}`: {e}", self.uci, self.fen))?;
        Ok((pos, m))
    }
}

/// What extraction kept and skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtractStats {
    /// Games read (up to the point where enough positions were found).
    pub games: usize,
    /// Decisive games that gave a position.
    pub used: usize,
    pub draws: usize,
    /// `*` or no result at all.
    pub no_result: usize,
    pub illegal_san: usize,
    /// `[Variant]` other than standard, or a `[FEN]` that is not a legal standard-chess setup.
    pub unsupported: usize,
    /// Decisive games where the winner had no move at or after `min_ply`.
    pub too_short: usize,
}

/// Extraction settings (the `[positions]` table of evolve.toml).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PositionsConfig {
    pub train: usize,
    pub test: usize,
    /// Seeds the per-game position choice and the train/test shuffle (not the GA).
    pub seed: u64,
    /// Earliest ply (0 = the initial position) a position may be taken from; skips the
    /// opening-book part of the games.
    pub min_ply: usize,
    /// Positions taken from each decisive game (distinct, at random; the paper: 1). A game's
    /// positions all go to the same side of the train/test split.
    pub positions_per_game: usize,
    /// Which positions of a game may be taken (the paper: the winner's, in decisive games).
    pub sample: Sample,
    /// Only positions without check and without a capture or promotion that wins material at
    /// once (static exchange evaluation above zero).
    pub quiet: bool,
    /// Mentor sets only: from a `random_share` of the positions taken, this many random legal
    /// moves are played, and the stored move is a random one too (not a GM move). GMs rarely
    /// leave a piece hanging or play on a piece down, so an evaluation fitted on their positions
    /// alone learns that material matters little; a search meets such positions all the time.
    pub random_plies: usize,
    /// Share of the positions that get `random_plies` (0..=1).
    pub random_share: f64,
    /// Cache file; default `<out_dir>/positions.json`.
    pub cache: Option<PathBuf>,
}

/// `[positions] sample`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sample {
    /// Decisive games, the eventual winner to move (David et al.).
    #[default]
    Winner,
    /// Every finished game, drawn ones too, either side to move.
    Any,
}

impl Default for PositionsConfig {
    fn default() -> Self {
        Self {
            train: 5000,
            test: 5000,
            seed: 1,
            min_ply: 0,
            positions_per_game: 1,
            sample: Sample::Winner,
            quiet: false,
            random_plies: 0,
            random_share: 1.0,
            cache: None,
        }
    }
}

/// The train and test sets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionSet {
    /// Identifies the inputs and settings the set was extracted from (see [`cache_key`]).
    pub key: String,
    pub stats: ExtractStats,
    pub train: Vec<GmPosition>,
    pub test: Vec<GmPosition>,
}

#[derive(Debug, Error)]
pub enum PositionsError {
    #[error("cannot read {path}: {source}")]
    Io { path: String, source: io::Error },
    #[error("{path}: not a valid xz file: {reason}")]
    Xz { path: String, reason: String },
    #[error("no usable positions in {0} (see the skip counts in the log)")]
    Empty(String),
    #[error("{0}")]
    Config(String),
    #[error("position cache {path}: {reason}")]
    Cache { path: String, reason: String },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Skip {
    Draw,
    NoResult,
    IllegalSan,
    Unsupported,
}

#[derive(Default)]
struct Tags {
    result: Option<Option<Color>>,
    result_tag_seen: bool,
    fen: Option<Vec<u8>>,
    unsupported: bool,
}

struct Movetext {
    pos: Chess,
    ply: usize,
    tag_result: Option<Option<Color>>,
    text_result: Option<Option<Color>>,
    candidates: Vec<(Chess, Move)>,
}

/// Collects, for one game, every position the sample allows: where the eventual winner was
/// to move, or with [`Sample::Any`] every position of a finished game.
struct GamePositions {
    min_ply: usize,
    sample: Sample,
    quiet: bool,
}

/// No check, and no capture or promotion of the side to move that wins material by SEE.
fn is_quiet(pos: &Chess) -> bool {
    if pos.is_check() {
        return false;
    }
    let mut noisy = shakmaty::MoveList::new();
    evochess::movepick::gen_noisy(pos, &mut noisy);
    !noisy.iter().any(|&m| evochess::see::see_ge(pos, m, 1))
}

/// `Some(Some(winner))`, `Some(None)` for a draw, `None` for unknown (`*` or garbage).
fn parse_result(value: &[u8]) -> Option<Option<Color>> {
    match value {
        b"1-0" => Some(Some(Color::White)),
        b"0-1" => Some(Some(Color::Black)),
        b"1/2-1/2" => Some(None),
        _ => None,
    }
}

impl Visitor for GamePositions {
    type Tags = Tags;
    type Movetext = Movetext;
    /// The candidates and the game's winner (`None`: drawn).
    type Output = Result<(Vec<(Chess, Move)>, Option<Color>), Skip>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        match name {
            b"Result" => {
                tags.result_tag_seen = true;
                tags.result = parse_result(value.as_bytes());
            }
            b"FEN" => tags.fen = Some(value.as_bytes().to_vec()),
            b"Variant" => {
                let v = value.decode_utf8_lossy().to_ascii_lowercase();
                if !matches!(v.trim(), "" | "standard" | "chess" | "normal" | "from position") {
                    tags.unsupported = true;
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Movetext> {
        if tags.unsupported {
            return ControlFlow::Break(Err(Skip::Unsupported));
        }
        // A result tag decides early: no need to replay draws and unfinished games.
        match tags.result {
            Some(None) if self.sample == Sample::Winner => return ControlFlow::Break(Err(Skip::Draw)),
            None if tags.result_tag_seen => return ControlFlow::Break(Err(Skip::NoResult)),
            _ => {}
        }
        let pos = match tags.fen {
            Some(fen) => match Fen::from_ascii(&fen).ok().and_then(|f| f.into_position(CastlingMode::Standard).ok()) {
                Some(p) => p,
                None => return ControlFlow::Break(Err(Skip::Unsupported)),
            },
            None => Chess::default(),
        };
        ControlFlow::Continue(Movetext {
            pos,
            ply: 0,
            tag_result: tags.result,
            text_result: None,
            candidates: Vec::new(),
        })
    }

    fn san(&mut self, mt: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let Ok(m) = san_plus.san.to_move(&mt.pos) else {
            return ControlFlow::Break(Err(Skip::IllegalSan));
        };
        // The result is only known from the tag here; without one, keep every position and
        // filter at the end with the movetext result.
        let keep = match mt.tag_result {
            Some(Some(winner)) if self.sample == Sample::Winner => winner == mt.pos.turn(),
            _ => true,
        };
        if keep && mt.ply >= self.min_ply && (!self.quiet || is_quiet(&mt.pos)) {
            mt.candidates.push((mt.pos.clone(), m));
        }
        mt.pos.play_unchecked(m);
        mt.ply += 1;
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, mt: &mut Movetext, outcome: Outcome) -> ControlFlow<Self::Output> {
        mt.text_result = Some(match outcome {
            Outcome::Known(KnownOutcome::Decisive { winner }) => Some(winner),
            Outcome::Known(KnownOutcome::Draw) => None,
            Outcome::Unknown => return ControlFlow::Continue(()),
        });
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Movetext) -> Self::Output {
        let winner = match mt.tag_result.or(mt.text_result) {
            Some(winner) if self.sample == Sample::Any => return Ok((mt.candidates, winner)),
            Some(Some(w)) => w,
            Some(None) => return Err(Skip::Draw),
            None => return Err(Skip::NoResult),
        };
        Ok((mt.candidates.into_iter().filter(|(p, _)| p.turn() == winner).collect(), Some(winner)))
    }
}

/// Each input file's bytes, read once: they feed both the cache key and the games.
fn read_inputs(paths: &[PathBuf]) -> Result<Vec<(&Path, Vec<u8>)>, PositionsError> {
    paths
        .iter()
        .map(|p| {
            let bytes = evochess::input::read_capped(p, evochess::input::MAX_DATA_BYTES).map_err(|e| {
                PositionsError::Io { path: p.display().to_string(), source: io::Error::other(e.reason()) }
            })?;
            Ok((p.as_path(), bytes))
        })
        .collect()
}

/// A PGN file's text, decompressed first when it is a `.xz` file.
fn open_games<'a>(path: &Path, bytes: &'a [u8]) -> Result<Box<dyn Read + 'a>, PositionsError> {
    if !arena::xz::is_xz(path) {
        return Ok(Box::new(bytes));
    }
    let data = arena::xz::decompress(&mut &bytes[..])
        .map_err(|reason| PositionsError::Xz { path: path.display().to_string(), reason })?;
    Ok(Box::new(io::Cursor::new(data)))
}

/// Reads games from `paths` in order until `train + test` positions are found, picks
/// `positions_per_game` random positions per game among those the sample allows (seeded per
/// game index), then shuffles the games and splits them, so that no game feeds both sets. If the
/// files hold fewer positions, the split keeps the train:test ratio. The set's key is
/// [`cache_key`]'s.
pub fn extract(paths: &[PathBuf], cfg: &PositionsConfig) -> Result<PositionSet, PositionsError> {
    let files = read_inputs(paths)?;
    extract_from(&files, cfg, key_of(&files, cfg))
}

fn extract_from(files: &[(&Path, Vec<u8>)], cfg: &PositionsConfig, key: String) -> Result<PositionSet, PositionsError> {
    if cfg.positions_per_game == 0 {
        return Err(PositionsError::Config("positions.positions_per_game must be at least 1".into()));
    }
    if !(0.0..=1.0).contains(&cfg.random_share) {
        return Err(PositionsError::Config(format!(
            "positions.random_share must be between 0 and 1, not {}",
            cfg.random_share
        )));
    }
    let wanted = cfg.train + cfg.test;
    let mut stats = ExtractStats::default();
    // Positions by game, and their total.
    let mut found: Vec<Vec<GmPosition>> = Vec::new();
    let mut count = 0;
    let mut visitor = GamePositions { min_ply: cfg.min_ply, sample: cfg.sample, quiet: cfg.quiet };
    for (path, bytes) in files {
        if count >= wanted {
            break;
        }
        let mut reader = Reader::new(open_games(path, bytes)?);
        loop {
            if count >= wanted {
                break;
            }
            let game = reader
                .read_game(&mut visitor)
                .map_err(|source| PositionsError::Io { path: path.display().to_string(), source })?;
            let Some(game) = game else { break };
            let index = stats.games as u64;
            stats.games += 1;
            match game {
                Ok((candidates, _)) if candidates.is_empty() => stats.too_short += 1,
                Ok((candidates, winner)) => {
                    let mut rng = StdRng::seed_from_u64(mix64(mix64(cfg.seed) ^ index));
                    let picks: Vec<usize> = if cfg.positions_per_game == 1 {
                        vec![rng.random_range(0..candidates.len())]
                    } else {
                        let k = cfg.positions_per_game.min(candidates.len());
                        let mut picks = rand::seq::index::sample(&mut rng, candidates.len(), k).into_vec();
                        picks.sort_unstable();
                        picks
                    };
                    let game: Vec<GmPosition> = picks
                        .into_iter()
                        .map(|i| {
                            let (pos, m) = &candidates[i];
                            let walked = cfg.random_plies > 0 && rng.random_bool(cfg.random_share);
                            let (pos, m) = if walked {
                                random_walk(pos, m, cfg.random_plies, &mut rng)
                            } else {
                                (pos.clone(), *m)
                            };
                            let outcome = match winner {
                                _ if walked => None,
                                Some(w) if w == pos.turn() => Some(1),
                                Some(_) => Some(-1),
                                None => Some(0),
                            };
                            GmPosition {
                                fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
                                uci: m.to_uci(CastlingMode::Standard).to_string(),
                                outcome,
                            }
                        })
                        .collect();
                    count += game.len();
                    found.push(game);
                    stats.used += 1;
                }
                Err(Skip::Draw) => stats.draws += 1,
                Err(Skip::NoResult) => stats.no_result += 1,
                Err(Skip::IllegalSan) => stats.illegal_san += 1,
                Err(Skip::Unsupported) => stats.unsupported += 1,
            }
        }
    }
    if found.is_empty() {
        let names: Vec<String> = files.iter().map(|(p, _)| p.display().to_string()).collect();
        return Err(PositionsError::Empty(names.join(", ")));
    }
    found.shuffle(&mut StdRng::seed_from_u64(mix64(cfg.seed ^ 0x5eed)));
    let train_len = if count >= wanted {
        cfg.train
    } else {
        log::warn!("only {count} positions found, {wanted} wanted; splitting {}:{}", cfg.train, cfg.test);
        (count * cfg.train).div_ceil(wanted.max(1)).min(count)
    };
    // Whole games go to train until it is full; the rest of the game that fills it is dropped
    // rather than leaked into the test set.
    let mut games = found.into_iter();
    let mut train = Vec::with_capacity(train_len);
    while train.len() < train_len {
        let Some(game) = games.next() else { break };
        let room = train_len - train.len();
        train.extend(game.into_iter().take(room));
    }
    let test: Vec<GmPosition> = games.flatten().take(cfg.test).collect();
    Ok(PositionSet { key, stats, train, test })
}

/// `plies` random legal moves from `pos`, then a random legal move of the position reached.
/// The walk stops early where the next position would have no legal move (mate, stalemate), so
/// the position reached always has one (`gm_move` is only the answer for a `pos` without any).
fn random_walk(pos: &Chess, gm_move: &Move, plies: usize, rng: &mut StdRng) -> (Chess, Move) {
    let mut pos = pos.clone();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        let m = &moves[rng.random_range(0..moves.len())];
        let next = pos.clone().play(*m).expect("legal move");
        if next.legal_moves().is_empty() {
            break;
        }
        pos = next;
    }
    let moves = pos.legal_moves();
    match moves.len() {
        0 => (pos, *gm_move),
        n => {
            let m = moves[rng.random_range(0..n)];
            (pos, m)
        }
    }
}

/// Identifies the extraction inputs: each file's size and content hash, and the settings. Not
/// the path or the modification time: a data directory that is copied or re-synced between
/// sessions must keep its caches and, through the run fingerprint, its checkpoints resumable.
pub fn cache_key(paths: &[PathBuf], cfg: &PositionsConfig) -> Result<String, PositionsError> {
    Ok(key_of(&read_inputs(paths)?, cfg))
}

fn key_of(files: &[(&Path, Vec<u8>)], cfg: &PositionsConfig) -> String {
    let mut desc = format!("v2 train={} test={} seed={} min_ply={}", cfg.train, cfg.test, cfg.seed, cfg.min_ply);
    // Only a non-default value changes the key, so existing caches stay valid.
    if cfg.positions_per_game != 1 {
        desc.push_str(&format!(" per_game={}", cfg.positions_per_game));
    }
    if cfg.sample != Sample::Winner {
        desc.push_str(&format!(" sample={:?}", cfg.sample));
    }
    if cfg.quiet {
        desc.push_str(" quiet");
    }
    if cfg.random_plies > 0 {
        desc.push_str(&format!(" random_plies={} share={}", cfg.random_plies, cfg.random_share));
    }
    for (_, bytes) in files {
        desc.push_str(&format!(" {}:{:016x}", bytes.len(), fnv1a_bytes(bytes)));
    }
    format!("{:016x}", fnv1a(&desc))
}

/// The cached set when `cache` holds one with the same key, else a fresh extraction, saved there.
pub fn load_or_extract(paths: &[PathBuf], cfg: &PositionsConfig, cache: &Path) -> Result<PositionSet, PositionsError> {
    let files = read_inputs(paths)?;
    let key = key_of(&files, cfg);
    if let Ok(text) = evochess::input::read_text(cache, evochess::input::MAX_DATA_BYTES) {
        match serde_json::from_str::<PositionSet>(&text) {
            Ok(set) if set.key == key => {
                log::info!(
                    "positions: {} train + {} test from cache {}",
                    set.train.len(),
                    set.test.len(),
                    cache.display()
                );
                return Ok(set);
            }
            Ok(_) => log::info!("positions: cache {} is for other inputs; extracting again", cache.display()),
            Err(e) => log::warn!("positions: ignoring unreadable cache {}: {e}", cache.display()),
        }
    }
    let set = extract_from(&files, cfg, key)?;
    let s = &set.stats;
    log::info!(
        "positions: {} train + {} test from {} games ({} used; skipped {} draws, {} without result, {} illegal SAN, {} unsupported, {} too short)",
        set.train.len(),
        set.test.len(),
        s.games,
        s.used,
        s.draws,
        s.no_result,
        s.illegal_san,
        s.unsupported,
        s.too_short
    );
    let json = serde_json::to_string(&set).expect("position sets serialise");
    arena::files::write_atomic(cache, json.as_bytes())
        .map_err(|e| PositionsError::Cache { path: cache.display().to_string(), reason: e.to_string() })?;
    Ok(set)
}
