//! Opening suites: EPD and PGN files (pgn-reader), also xz-compressed (`.epd.xz`, `.pgn.xz`,
//! decoded in-process by lzma-rs), and Polyglot `.bin` books.
//!
//! An [`OpeningBook`] maps an opening index to an [`Opening`] deterministically, so a resumed match
//! replays the same openings: EPD/PGN lists are read in file order (`order=sequential`) or in a
//! permutation drawn from the seed (`order=random`); a Polyglot book yields, for index `i`, a
//! weighted random walk of `plies` book moves seeded by `(seed, i)`. The runner plays each opening
//! twice with colours swapped.

pub mod builtin;

use std::{
    fmt, fs,
    io::{self, BufRead},
    ops::ControlFlow,
    path::{Path, PathBuf},
    str::FromStr,
};

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use rand::{Rng, SeedableRng, rngs::StdRng, seq::SliceRandom};
use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, fen::Fen, uci::UciMove};
use thiserror::Error;

use crate::xz;

/// Polyglot books are read by the engine library, which also plays from them (`OwnBook`).
pub use evochess::book::Book as PolyglotBook;

/// Standard starting position FEN.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why an opening file could not be used. Each names the file (and line or game).
#[derive(Debug, Error)]
pub enum OpeningsError {
    #[error("openings file `{path}`: {source}")]
    Io { path: String, source: io::Error },
    #[error("openings file `{path}`, {place}: {reason}")]
    Parse { path: String, place: String, reason: String },
    #[error("openings file `{0}` contains no openings")]
    Empty(String),
    #[error(
        "openings file `{0}`: unknown format (use format=epd|pgn|polyglot or a .epd/.pgn/.bin name, \
         .epd.xz/.pgn.xz for xz-compressed books)"
    )]
    UnknownFormat(String),
    #[error("openings file `{path}`: not a valid xz file: {reason}")]
    Xz { path: String, reason: String },
    #[error("openings option: {0}")]
    BadOption(String),
    #[error(transparent)]
    Book(#[from] evochess::book::BookError),
}

/// A start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    /// `None` is the standard start position.
    pub fen: Option<String>,
    /// UCI moves, standard castling notation (`e1g1`).
    pub moves: Vec<String>,
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening { fen: None, moves: Vec::new() }
    }

    /// The start position (before the opening moves).
    pub fn start_position(&self) -> Result<Chess, String> {
        match &self.fen {
            None => Ok(Chess::default()),
            Some(f) => parse_fen(f),
        }
    }

    /// The start position and the opening moves, checked for legality.
    pub fn replay(&self) -> Result<(Chess, Vec<Move>), String> {
        let mut pos = self.start_position()?;
        let mut moves = Vec::with_capacity(self.moves.len());
        for s in &self.moves {
            let m = s
                .parse::<UciMove>()
                .map_err(|e| format!("bad move `{s}`: {e}"))?
                .to_move(&pos)
                .map_err(|e| format!("illegal move `{s}`: {e}"))?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        Ok((self.start_position()?, moves))
    }
}

/// Parses a FEN (4 to 6 fields) into a legal standard-chess position.
pub fn parse_fen(text: &str) -> Result<Chess, String> {
    let fen: Fen = text.trim().parse().map_err(|e| format!("invalid FEN `{text}`: {e}"))?;
    fen.into_position(CastlingMode::Standard).map_err(|e| format!("illegal position `{text}`: {e}"))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BookFormat {
    Epd,
    Pgn,
    Polyglot,
}

impl FromStr for BookFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "epd" => Ok(BookFormat::Epd),
            "pgn" => Ok(BookFormat::Pgn),
            "polyglot" | "bin" => Ok(BookFormat::Polyglot),
            _ => Err(format!("unknown format `{s}` (expected epd, pgn or polyglot)")),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    #[default]
    Sequential,
    Random,
}

/// `-openings file=F [format=epd|pgn|polyglot] [order=random|sequential] [plies=N] [start=N]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningsConfig {
    pub file: PathBuf,
    pub format: BookFormat,
    pub order: Order,
    /// Truncate PGN lines to this many plies; the walk length for Polyglot books (default 8).
    pub plies: Option<usize>,
    /// 1-based index of the first opening used (cutechess `start=`).
    pub start: usize,
}

impl OpeningsConfig {
    /// Parses the `key=value` tokens of `-openings`.
    pub fn parse<S: AsRef<str>>(tokens: &[S]) -> Result<OpeningsConfig, OpeningsError> {
        let mut file = None;
        let mut format = None;
        let mut order = Order::Sequential;
        let mut plies = None;
        let mut start = 1;
        for t in tokens {
            let t = t.as_ref();
            let (k, v) =
                t.split_once('=').ok_or_else(|| OpeningsError::BadOption(format!("`{t}` is not key=value")))?;
            let num = |v: &str| {
                v.parse::<usize>().map_err(|_| OpeningsError::BadOption(format!("`{k}={v}`: expected a number")))
            };
            match k {
                "file" => file = Some(PathBuf::from(v)),
                "format" => format = Some(v.parse().map_err(OpeningsError::BadOption)?),
                "order" => {
                    order = match v {
                        "random" => Order::Random,
                        "sequential" => Order::Sequential,
                        _ => {
                            return Err(OpeningsError::BadOption(format!(
                                "order `{v}` (expected random or sequential)"
                            )));
                        }
                    }
                }
                "plies" => plies = Some(num(v)?),
                "start" => start = num(v)?.max(1),
                "policy" => {} // cutechess compatibility: game pairs always share an opening here.
                _ => return Err(OpeningsError::BadOption(format!("unknown key `{k}`"))),
            }
        }
        let file = file.ok_or_else(|| OpeningsError::BadOption("missing file=".into()))?;
        // `book.epd.xz` is an xz-compressed `book.epd`.
        let inner = if xz::is_xz(&file) { file.file_stem().map(Path::new) } else { Some(file.as_path()) };
        let format = match format {
            Some(f) => f,
            None => match inner.and_then(Path::extension).and_then(|e| e.to_str()) {
                Some("epd") => BookFormat::Epd,
                Some("pgn") => BookFormat::Pgn,
                Some("bin") if !xz::is_xz(&file) => BookFormat::Polyglot,
                _ => return Err(OpeningsError::UnknownFormat(file.display().to_string())),
            },
        };
        if format == BookFormat::Polyglot && xz::is_xz(&file) {
            return Err(OpeningsError::UnknownFormat(file.display().to_string()));
        }
        Ok(OpeningsConfig { file, format, order, plies, start })
    }
}

/// Openings by index, deterministic for a seed.
pub enum OpeningBook {
    /// No book: every game from the start position.
    Startpos,
    List {
        openings: Vec<Opening>,
        order: Vec<usize>,
        start: usize,
    },
    Polyglot {
        book: PolyglotBook,
        plies: usize,
        seed: u64,
        start: usize,
    },
}

impl OpeningBook {
    pub fn load(cfg: &OpeningsConfig, seed: u64) -> Result<OpeningBook, OpeningsError> {
        let path = cfg.file.display().to_string();
        let start = cfg.start - 1;
        let mut openings = match cfg.format {
            BookFormat::Polyglot => {
                // An empty book is refused by `open`.
                let book = PolyglotBook::open(&cfg.file)?;
                return Ok(OpeningBook::Polyglot { book, plies: cfg.plies.unwrap_or(8), seed, start });
            }
            BookFormat::Epd => read_epd(&cfg.file)?,
            BookFormat::Pgn => read_pgn(&cfg.file)?,
        };
        if let Some(p) = cfg.plies {
            for o in &mut openings {
                o.moves.truncate(p);
            }
        }
        if openings.is_empty() {
            return Err(OpeningsError::Empty(path));
        }
        let mut order: Vec<usize> = (0..openings.len()).collect();
        if cfg.order == Order::Random {
            order.shuffle(&mut StdRng::seed_from_u64(seed));
        }
        Ok(OpeningBook::List { openings, order, start })
    }

    /// Number of distinct openings (`None` for a Polyglot book, which is walked on demand).
    pub fn len(&self) -> Option<usize> {
        match self {
            OpeningBook::Startpos => Some(1),
            OpeningBook::List { openings, .. } => Some(openings.len()),
            OpeningBook::Polyglot { .. } => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// Whether some opening starts from a FEN position rather than the standard start (an xboard
    /// engine needs `setboard` for those). A Polyglot walk always starts from the standard start.
    pub fn has_fen_starts(&self) -> bool {
        match self {
            OpeningBook::List { openings, .. } => openings.iter().any(|o| o.fen.is_some()),
            OpeningBook::Startpos | OpeningBook::Polyglot { .. } => false,
        }
    }

    /// The opening for game pair `index` (wraps around a list).
    pub fn get(&self, index: u64) -> Opening {
        match self {
            OpeningBook::Startpos => Opening::startpos(),
            OpeningBook::List { openings, order, start } => {
                let i = (*start as u64 + index) % openings.len() as u64;
                openings[order[i as usize]].clone()
            }
            OpeningBook::Polyglot { book, plies, seed, start } => {
                let mut rng = StdRng::seed_from_u64(seed ^ (*start as u64 + index).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                random_line(book, &mut rng, *plies)
            }
        }
    }
}

/// The text of a book file, decompressed in-process when it ends in `.xz`. The file is read
/// through [`evochess::input`] (a regular file, at most
/// [`MAX_DATA_BYTES`](evochess::input::MAX_DATA_BYTES)), and the decompressed size is capped too.
fn open_text(path: &Path) -> Result<Box<dyn BufRead>, OpeningsError> {
    let p = path.display().to_string();
    if let Err(source) = fs::metadata(path) {
        return match builtin::builtin(path) {
            // The default book is built in, for runs outside the repository.
            Some(text) if source.kind() == io::ErrorKind::NotFound => Ok(Box::new(io::Cursor::new(text.as_bytes()))),
            _ => Err(OpeningsError::Io { path: p, source }),
        };
    }
    let bytes = evochess::input::read_capped(path, evochess::input::MAX_DATA_BYTES)
        .map_err(|e| OpeningsError::Io { path: p.clone(), source: io::Error::other(e.reason()) })?;
    if !xz::is_xz(path) {
        return Ok(Box::new(io::Cursor::new(bytes)));
    }
    let data = xz::decompress(&mut &bytes[..]).map_err(|reason| OpeningsError::Xz { path: p, reason })?;
    Ok(Box::new(io::Cursor::new(data)))
}

/// Reads an EPD file (or `.epd.xz`): 4 FEN fields, optionally the move counters or
/// `hmvc`/`fmvn` operations.
pub fn read_epd(path: &Path) -> Result<Vec<Opening>, OpeningsError> {
    let p = path.display().to_string();
    let f = open_text(path)?;
    let mut out = Vec::new();
    for (n, line) in f.lines().enumerate() {
        let line = line.map_err(|source| OpeningsError::Io { path: p.clone(), source })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fen = epd_to_fen(line).map_err(|reason| OpeningsError::Parse {
            path: p.clone(),
            place: format!("line {}", n + 1),
            reason,
        })?;
        let fen = if fen == START_FEN { None } else { Some(fen) };
        out.push(Opening { fen, moves: Vec::new() });
    }
    Ok(out)
}

/// The full FEN of an EPD line, checked to be a legal position.
pub fn epd_to_fen(line: &str) -> Result<String, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!("expected at least 4 FEN fields in `{line}`"));
    }
    let mut half = "0".to_string();
    let mut full = "1".to_string();
    let rest = &fields[4..];
    if rest.len() >= 2 && rest[0].parse::<u32>().is_ok() && rest[1].trim_end_matches(';').parse::<u32>().is_ok() {
        half = rest[0].to_string();
        full = rest[1].trim_end_matches(';').to_string();
    } else {
        let ops = rest.join(" ");
        for op in ops.split(';') {
            let mut it = op.split_whitespace();
            match (it.next(), it.next()) {
                (Some("hmvc"), Some(v)) if v.parse::<u32>().is_ok() => half = v.to_string(),
                (Some("fmvn"), Some(v)) if v.parse::<u32>().is_ok() => full = v.to_string(),
                _ => {}
            }
        }
    }
    let fen = format!("{} {} {} {} {half} {full}", fields[0], fields[1], fields[2], fields[3]);
    let pos = parse_fen(&fen)?;
    Ok(Fen::from_position(&pos, EnPassantMode::Legal).to_string())
}

struct OpeningVisitor;

impl Visitor for OpeningVisitor {
    type Tags = Result<Option<String>, String>;
    type Movetext = (Opening, Chess, Option<String>);
    type Output = Result<Opening, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Ok(None))
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            let text = value.decode_utf8_lossy().to_string();
            *tags = parse_fen(&text).map(|pos| Some(Fen::from_position(&pos, EnPassantMode::Legal).to_string()));
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let fen = match tags {
            Ok(f) => f.filter(|f| f != START_FEN),
            Err(e) => return ControlFlow::Break(Err(e)),
        };
        let pos = match &fen {
            Some(f) => match parse_fen(f) {
                Ok(p) => p,
                Err(e) => return ControlFlow::Break(Err(e)),
            },
            None => Chess::default(),
        };
        ControlFlow::Continue((Opening { fen, moves: Vec::new() }, pos, None))
    }

    fn begin_variation(&mut self, _: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn san(&mut self, (line, pos, err): &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if err.is_some() {
            return ControlFlow::Continue(());
        }
        // pgn-reader does not check legality; we do.
        match san_plus.san.to_move(pos) {
            Ok(m) => {
                line.moves.push(m.to_uci(CastlingMode::Standard).to_string());
                pos.play_unchecked(m);
            }
            Err(e) => *err = Some(format!("illegal move {san_plus} after {} plies: {e}", line.moves.len())),
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, (line, _, err): Self::Movetext) -> Self::Output {
        match err {
            Some(e) => Err(e),
            None => Ok(line),
        }
    }
}

/// Reads every game of a PGN file (or `.pgn.xz`) as an opening (main line only).
pub fn read_pgn(path: &Path) -> Result<Vec<Opening>, OpeningsError> {
    let p = path.display().to_string();
    let mut reader = Reader::new(open_text(path)?);
    let mut out = Vec::new();
    let mut n = 0;
    while let Some(game) =
        reader.read_game(&mut OpeningVisitor).map_err(|source| OpeningsError::Io { path: p.clone(), source })?
    {
        n += 1;
        match game {
            Ok(o) => out.push(o),
            Err(reason) => return Err(OpeningsError::Parse { path: p, place: format!("game {n}"), reason }),
        }
    }
    Ok(out)
}

/// A weighted random walk of up to `plies` book moves from the start position (uniform among
/// the book moves where all weights are 0).
pub fn random_line(book: &PolyglotBook, rng: &mut impl Rng, plies: usize) -> Opening {
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let cands = book.moves(&pos);
        let total: u64 = cands.iter().map(|(_, w)| u64::from(*w)).sum();
        let pick = if total > 0 {
            let mut r = rng.random_range(0..total);
            cands.iter().find(|(_, w)| {
                let hit = r < u64::from(*w);
                r = r.saturating_sub(u64::from(*w));
                hit
            })
        } else if !cands.is_empty() {
            cands.get(rng.random_range(0..cands.len()))
        } else {
            None
        };
        let Some((m, _)) = pick else { break };
        moves.push(m.to_uci(CastlingMode::Standard).to_string());
        pos.play_unchecked(*m);
    }
    Opening { fen: None, moves }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen.as_deref().unwrap_or("startpos"))?;
        if !self.moves.is_empty() {
            write!(f, " moves {}", self.moves.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines() {
        assert_eq!(
            epd_to_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id \"x\";").unwrap(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(epd_to_fen("8/8/8/8/8/8/k7/2K5 w - - 5 40").unwrap(), "8/8/8/8/8/8/k7/2K5 w - - 5 40");
        assert_eq!(epd_to_fen("8/8/8/8/8/8/k7/2K5 w - - hmvc 7; fmvn 9;").unwrap(), "8/8/8/8/8/8/k7/2K5 w - - 7 9");
        assert!(epd_to_fen("8/8/8 w - -").unwrap_err().contains("invalid FEN"));
        assert!(epd_to_fen("8/8").unwrap_err().contains("4 FEN fields"));
    }

    #[test]
    fn config_tokens() {
        let c = OpeningsConfig::parse(&["file=a.pgn", "order=random", "plies=6"]).unwrap();
        assert_eq!((c.format, c.order, c.plies), (BookFormat::Pgn, Order::Random, Some(6)));
        assert!(OpeningsConfig::parse(&["file=a.txt"]).is_err());
        assert!(OpeningsConfig::parse(&["file=a.epd", "order=shuffled"]).is_err());
        assert!(OpeningsConfig::parse(&["order=random"]).unwrap_err().to_string().contains("missing file="));
    }
}
