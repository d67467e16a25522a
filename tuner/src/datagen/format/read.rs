//! The reader: a shard checked whole when opened (header, blocks, end block), then its records
//! decoded, and checked for plausibility, as they are read.

use std::{num::NonZeroU32, path::Path};

use shakmaty::{Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup, Square};

use super::{
    FLAG_BITS, Filter, FormatError, GameRecord, LEGACY_VERSION, MAGIC, MATE_SCORE, MAX_HALFMOVES, MAX_PLIES, Origin,
    Sample, VERSION,
    check::{CRC_START, block_check, crc32},
    code_bits,
    codes::{BitReader, Cursor, unzigzag},
};
use arena::outcome::GameOutcome;

/// A checked block: where its record starts and ends, and its check.
type Block = (usize, usize, u32);

/// How a shard's records are laid out.
enum Layout {
    /// Format 2: the blocks' record ranges and checks, all verified when the shard was read.
    Blocks { origin: Origin, blocks: Vec<Block>, end: usize },
    /// Format 1: bare records from the header to the end of the file.
    Legacy,
}

/// A shard read into memory (shards are a few hundred kB) and checked: header, blocks and end
/// block (format 2); records are decoded, and checked for plausibility, as they are read.
pub struct Shard {
    pub path: String,
    pub filter: Filter,
    bytes: Vec<u8>,
    body: usize,
    layout: Layout,
}

/// One game of a shard with where it lies.
#[derive(Clone, Debug)]
pub struct Record {
    pub game: GameRecord,
    /// Byte offset of the game's block (format 1: of its record).
    pub offset: usize,
    /// Byte offset just past it.
    pub end: usize,
    /// The block's check (format 1: the CRC-32 of the record), to tell copies of a game from
    /// different games under one index.
    pub digest: u32,
}

impl Shard {
    pub fn open(path: &Path) -> Result<Shard, FormatError> {
        let name = path.display().to_string();
        let bytes = evochess::input::read_capped(path, evochess::input::MAX_DATA_BYTES)
            .map_err(|e| FormatError::Io { path: name.clone(), source: std::io::Error::other(e.reason()) })?;
        Shard::from_bytes(name, bytes)
    }

    /// A shard from its bytes; `path` names it in errors. A format-1 shard is read with a
    /// warning (see the module docs).
    pub fn from_bytes(path: String, bytes: Vec<u8>) -> Result<Shard, FormatError> {
        let corrupt = |offset: usize, reason: String| FormatError::Corrupt { path: path.clone(), offset, reason };
        if bytes.len() < 6 || &bytes[..4] != MAGIC {
            return Err(corrupt(0, "not a datagen shard (no EVDG header)".into()));
        }
        let version = bytes[4];
        if version != VERSION && version != LEGACY_VERSION {
            return Err(corrupt(
                4,
                format!("shard format version {version}; this tuner reads versions {LEGACY_VERSION} and {VERSION}"),
            ));
        }
        let flags = bytes[5];
        if flags & !FLAG_BITS != 0 {
            return Err(corrupt(5, format!("filter flags {flags:#04x}: unknown bits set")));
        }
        let mut r = Cursor { bytes: &bytes, at: 6 };
        let cap = r.varint().map_err(|reason| corrupt(r.at, reason))?;
        let max_score = match cap {
            0 => None,
            c => Some(u32::try_from(c - 1).map_err(|_| corrupt(6, format!("score cap {} out of range", c - 1)))?),
        };
        let filter = Filter { keep_in_check: flags & 1 != 0, keep_tactical: flags & 2 != 0, max_score };
        let layout = if version == LEGACY_VERSION {
            log::warn!(
                "{path}: shard format {LEGACY_VERSION} has no checksums, so damage to it may go unnoticed; \
                 read as it is (a `tuner datagen` run writes checked format-{VERSION} shards)"
            );
            Layout::Legacy
        } else {
            let fields = (|| -> Result<(u64, u64, u64, u64), String> {
                Ok((r.fixed64()?, r.fixed64()?, r.varint()?, r.varint()?))
            })();
            let (run_id, params, shard, first_game) = fields.map_err(|reason| corrupt(r.at, reason))?;
            let at = r.at;
            let check = r.fixed32().map_err(|reason| corrupt(at, reason))?;
            if crc32(CRC_START, &bytes[..at]) != check {
                return Err(corrupt(at, "header checksum mismatch: the header is damaged".into()));
            }
            let shard = u32::try_from(shard).map_err(|_| corrupt(at, format!("shard number {shard} out of range")))?;
            let origin = Origin { run_id, params, shard, first_game };
            let (blocks, end) =
                scan_blocks(&bytes, r.at, run_id).map_err(|(offset, reason)| corrupt(offset, reason))?;
            Layout::Blocks { origin, blocks, end }
        };
        let body = r.at;
        Ok(Shard { path, filter, bytes, body, layout })
    }

    /// The run, parameters and place of the shard; `None` for a format-1 shard.
    pub fn origin(&self) -> Option<Origin> {
        match &self.layout {
            Layout::Blocks { origin, .. } => Some(*origin),
            Layout::Legacy => None,
        }
    }

    /// The byte offset of the end block (format 1: the file's length): what an open part held
    /// before the shard was closed.
    pub fn records_end(&self) -> usize {
        match &self.layout {
            Layout::Blocks { end, .. } => *end,
            Layout::Legacy => self.bytes.len(),
        }
    }

    /// The number of games (format 2, from the block count; format 1 decodes them).
    pub fn games(&self) -> Result<u64, FormatError> {
        match &self.layout {
            Layout::Blocks { blocks, .. } => Ok(blocks.len() as u64),
            Layout::Legacy => self.records().try_fold(0, |n, r| r.map(|_| n + 1)),
        }
    }

    /// The shard's games in order; the iterator ends at the first error.
    pub fn records(&self) -> Records<'_> {
        Records { shard: self, at: self.body, next: 0, previous: None, failed: false }
    }

    /// Every game of the shard, or its first error: for readers that must refuse a damaged
    /// shard before they use any of it.
    pub fn all_records(&self) -> Result<Vec<Record>, FormatError> {
        self.records().collect()
    }

    /// The positions the shard's filter keeps, with their score and result (the reader API
    /// the Texel fit uses).
    pub fn samples(&self) -> impl Iterator<Item = Result<Sample, FormatError>> + '_ {
        self.samples_with(self.filter)
    }

    /// The positions `filter` keeps ([`Filter::ALL`]: every position).
    pub fn samples_with(&self, filter: Filter) -> impl Iterator<Item = Result<Sample, FormatError>> + '_ {
        self.records().flat_map(move |r| -> Vec<Result<Sample, FormatError>> {
            match r {
                Ok(r) => r.game.positions(&filter).into_iter().filter(|(_, k)| *k).map(|(s, _)| Ok(s)).collect(),
                Err(e) => vec![Err(e)],
            }
        })
    }
}

/// The blocks of a format-2 shard from `at`, each checked, up to and including the end block:
/// their record ranges and checks, and the end block's offset; or the first error's offset.
fn scan_blocks(bytes: &[u8], mut at: usize, run_id: u64) -> Result<(Vec<Block>, usize), (usize, String)> {
    let mut blocks = Vec::new();
    loop {
        let start = at;
        if start >= bytes.len() {
            return Err((start, format!("no end block after {} games: the shard is cut short", blocks.len())));
        }
        let mut c = Cursor { bytes, at };
        let len = c.varint().map_err(|reason| (start, reason))?;
        if len == 0 {
            let games = c.varint().map_err(|reason| (start, reason))?;
            let check_at = c.at;
            let check = c.fixed32().map_err(|_| (start, "end block cut short".to_string()))?;
            if crc32(CRC_START, &bytes[..check_at]) != check {
                return Err((start, "end block checksum mismatch: the shard is damaged".into()));
            }
            if games != blocks.len() as u64 {
                return Err((start, format!("the end block counts {games} games, the shard holds {}", blocks.len())));
            }
            if c.at != bytes.len() {
                return Err((c.at, format!("{} bytes after the end block", bytes.len() - c.at)));
            }
            return Ok((blocks, start));
        }
        let record = c.at;
        let end = usize::try_from(len).ok().and_then(|n| record.checked_add(n)).filter(|&e| e + 4 <= bytes.len());
        let Some(end) = end else {
            return Err((start, format!("a block of {len} bytes runs past the end of the file: cut short or damaged")));
        };
        c.at = end;
        let check = c.fixed32().map_err(|reason| (end, reason))?;
        if block_check(run_id, &bytes[start..end]) != check {
            return Err((start, format!("checksum mismatch in game block {} ({len} bytes): damaged", blocks.len())));
        }
        blocks.push((record, end, check));
        at = c.at;
    }
}

/// Iterator over a shard's game records.
pub struct Records<'a> {
    shard: &'a Shard,
    /// Format 1: where the next record starts.
    at: usize,
    /// Format 2: the next block.
    next: usize,
    previous: Option<u64>,
    failed: bool,
}

impl Records<'_> {
    fn read(&mut self) -> Option<Result<Record, (usize, String)>> {
        let bytes = &self.shard.bytes;
        let (offset, mut c, digest, expected) = match &self.shard.layout {
            Layout::Blocks { origin, blocks, .. } => {
                let &(start, end, check) = blocks.get(self.next)?;
                let offset = if self.next == 0 { self.shard.body } else { blocks[self.next - 1].1 + 4 };
                let expected = origin.first_game + self.next as u64;
                self.next += 1;
                (offset, Cursor { bytes: &bytes[..end], at: start }, Some(check), Some(expected))
            }
            Layout::Legacy => {
                if self.at >= bytes.len() {
                    return None;
                }
                (self.at, Cursor { bytes, at: self.at }, None, self.previous.map(|p| p + 1))
            }
        };
        let game = match decode_record(&mut c) {
            Ok(g) => g,
            Err(reason) => return Some(Err((c.at, reason))),
        };
        if let Some(want) = expected.filter(|&w| w != game.index) {
            let reason =
                format!("game index {} where game {want} belongs: duplicated, missing or reordered", game.index);
            return Some(Err((offset, reason)));
        }
        if digest.is_some() && c.at != c.bytes.len() {
            return Some(Err((c.at, format!("game {}: {} bytes after its record", game.index, c.bytes.len() - c.at))));
        }
        self.at = c.at;
        self.previous = Some(game.index);
        let end = if digest.is_some() { c.at + 4 } else { c.at };
        let digest = digest.unwrap_or_else(|| crc32(CRC_START, &bytes[offset..c.at]));
        Some(Ok(Record { game, offset, end, digest }))
    }
}

impl Iterator for Records<'_> {
    type Item = Result<Record, FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let read = self.read()?;
        Some(read.map_err(|(offset, reason)| {
            self.failed = true;
            FormatError::Corrupt { path: self.shard.path.clone(), offset, reason }
        }))
    }
}

fn decode_record(c: &mut Cursor<'_>) -> Result<GameRecord, String> {
    let index = c.varint()?;
    let start = decode_position(c)?;
    let outcome = match c.byte()? {
        0 => GameOutcome::BlackWins,
        1 => GameOutcome::Draw,
        2 => GameOutcome::WhiteWins,
        b => return Err(format!("game {index}: result code {b} (expected 0, 1 or 2)")),
    };
    let n = usize::try_from(c.varint()?).map_err(|_| "ply count out of range")?;
    if n > MAX_PLIES {
        return Err(format!("game {index}: {n} plies, more than a game can have ({MAX_PLIES})"));
    }
    if n > c.bytes.len() - c.at.min(c.bytes.len()) {
        return Err(format!("game {index}: {n} plies, more than the bytes left"));
    }
    let mut moves = Vec::with_capacity(n);
    let mut pos = start.clone();
    let mut bits = BitReader { acc: 0, held: 0 };
    for ply in 0..n {
        let legal = pos.legal_moves();
        let i = bits.get(c, code_bits(legal.len()))? as usize;
        let mv = *legal.get(i).ok_or_else(|| {
            format!("game {index}, ply {ply}: move code {i} but the position has {} legal moves", legal.len())
        })?;
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    let mut plies = Vec::with_capacity(n);
    let mut prev = 0i32;
    for (ply, mv) in moves.into_iter().enumerate() {
        let code = unzigzag(c.varint()?);
        let d = i32::try_from(code).map_err(|_| format!("game {index}, ply {ply}: score code {code} out of range"))?;
        // Wrapping, as the writer adds: a score out of range reads back as the one written.
        let score = d.wrapping_sub(prev);
        if score.unsigned_abs() > MATE_SCORE.unsigned_abs() {
            return Err(format!("game {index}, ply {ply}: score {score} beyond ±{MATE_SCORE}"));
        }
        plies.push((mv, score));
        prev = score;
    }
    Ok(GameRecord { index, start, plies, outcome })
}

pub(super) fn decode_position(c: &mut Cursor<'_>) -> Result<Chess, String> {
    let mut occ = [0u8; 8];
    for b in &mut occ {
        *b = c.byte()?;
    }
    let occupied = Bitboard(u64::from_le_bytes(occ));
    let squares: Vec<Square> = occupied.into_iter().collect();
    let mut board = Board::empty();
    let mut code = 0u8;
    for (i, &sq) in squares.iter().enumerate() {
        let nibble = if i % 2 == 0 {
            code = c.byte()?;
            code & 0x0f
        } else {
            code >> 4
        };
        if nibble >= 12 {
            return Err(format!("piece code {nibble} on {sq}"));
        }
        let role = Role::ALL[usize::from(nibble % 6)];
        let color = if nibble >= 6 { Color::Black } else { Color::White };
        board.set_piece_at(sq, Piece { color, role });
    }
    let flags = c.byte()?;
    let mut castling_rights = Bitboard::EMPTY;
    for (bit, sq) in [Square::H1, Square::A1, Square::H8, Square::A8].into_iter().enumerate() {
        if flags & (2 << bit) != 0 {
            castling_rights.add(sq);
        }
    }
    let ep = c.byte()?;
    let ep_square = match ep {
        255 => None,
        s if s < 64 => Some(Square::new(u32::from(s))),
        s => return Err(format!("en passant code {s}")),
    };
    let halfmoves =
        u32::try_from(c.varint()?).ok().filter(|&h| h <= MAX_HALFMOVES).ok_or("halfmove clock out of range")?;
    let fullmoves = u32::try_from(c.varint()?).ok().and_then(NonZeroU32::new).ok_or("fullmove number out of range")?;
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = if flags & 1 != 0 { Color::Black } else { Color::White };
    setup.castling_rights = castling_rights;
    setup.ep_square = ep_square;
    setup.halfmoves = halfmoves;
    setup.fullmoves = fullmoves;
    Chess::from_setup(setup, CastlingMode::Standard).map_err(|e| format!("illegal start position: {e}"))
}
