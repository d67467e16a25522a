//! The shard format: compact game records, after Stockfish's binpack (a start position, then
//! one small move code and one small score delta per ply) but simpler, each in a block with its
//! own checksum, behind a header that names the run the shard belongs to.
//!
//! A shard (format 2) is a header, one block per game in game index order, and an end block:
//!
//! ```text
//! header  "EVDG" · version (1 byte, 2) · filter flags (1 byte) · score cap (varint, 0 = none) ·
//!         run id (8 bytes) · params fingerprint (8 bytes) · shard number (varint) ·
//!         first game index (varint) · CRC-32 of the header's bytes before it (4 bytes)
//! block   length n ≥ 1 (varint) · record (n bytes) · check (4 bytes)
//! end     0 (1 byte) · games (varint) · CRC-32 of every byte of the file before it (4 bytes)
//! record  game index (varint) · start position (~28 bytes, below) · result (1 byte:
//!         0 = 0-1, 1 = ½-½, 2 = 1-0) · plies n (varint) · n move codes · n score codes
//!         (varint each)
//! ```
//!
//! Integers of fixed width are little-endian. A block's check is the CRC-32 of the run id's 8
//! bytes then the block's length and record: it finds every error of up to 32 bits in a row, and
//! a block moved in from another run's shard. The records of a shard are the games
//! `first game`, `first game + 1`, … without a gap; the end block (written when the shard is
//! closed) makes a shard cut at a block boundary an error too. The run id is a hash of the
//! settings that fix the run's games (datagen.json's `run_id`), the params fingerprint the hash
//! of its parameters' TOML (datagen.json's `params`).
//!
//! Readers also refuse what no writer makes: a score beyond ±[`MATE_SCORE`], a halfmove clock
//! above 100, more plies than a game under the 50-move rule can have, a game index out of its
//! place, an unknown filter flag. Every error names the file and the byte offset.
//!
//! Format 1 (before issue 91) had the header's first four fields only and bare records, no
//! blocks and no end block. Its shards (the committed data sets under `data/`) are still read,
//! with a warning, because regenerating them takes days of CPU: damage to them goes unnoticed
//! unless it makes a record implausible, and they carry no run id (texel takes a shard's
//! directory for its run).
//!
//! A move code is the move's index in shakmaty's legal move list of its position, in
//! `ceil(log2(legal moves))` bits (none for a forced move), the codes of a game packed
//! least significant bit first and padded to a whole byte: about 6 bits a move.
//!
//! Scores are the search's, in centipawns from the side to move's view; a mate in `m` moves is
//! stored as `MATE_SCORE − m`, being mated in `m` as `−(MATE_SCORE − m)`. Consecutive scores of
//! one game nearly cancel (the side to move alternates), so ply `i` stores
//! `zigzag(score[i] + score[i − 1])` (`score[−1] = 0`) as a LEB128 varint: one byte while the
//! evaluation moves by less than 64 cp. With ~28 bytes of start position and 6 of block per game,
//! a game of n plies costs about 36 + 2n bytes (measured at 5,000 nodes: 1.1 bytes a score).
//!
//! Start position: the occupied squares (u64), then one nibble per occupied
//! square in ascending square order (role 1..=6 minus 1, plus 6 for black; low nibble first),
//! then a byte of side to move (bit 0: black) and castling rights (bits 1..=4: h1, a1, h8, a8
//! rooks), the legal en passant square (1 byte, 255 = none), the halfmove clock and the fullmove
//! number (varints).
//!
//! Every ply of a record is a searched move; filtering happens when reading: the shard's filter
//! flags say which positions its readers skip ([`Filter`]), so one record holds the whole game
//! (a filtered ply still needs its move to reach the next position).

use std::{num::NonZeroU32, path::Path};

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Move, Piece, Position, Role, Setup, Square,
};
use thiserror::Error;

use arena::outcome::GameOutcome;

/// The first bytes of every shard.
pub const MAGIC: &[u8; 4] = b"EVDG";
/// The format version this tuner writes. 2 and [`LEGACY_VERSION`] differ in two bits, so no
/// single flipped bit turns one into the other.
pub const VERSION: u8 = 2;
/// The format before checksums, still read (see the module docs).
pub const LEGACY_VERSION: u8 = 1;
/// The stored magnitude of a mate score (see the module docs).
pub const MATE_SCORE: i32 = 32_000;
/// The most plies of a game: the 50-move rule ends any game within 100 plies of its last
/// capture or pawn move, and there are at most 30 captures and 96 pawn moves.
pub const MAX_PLIES: usize = 101 * (30 + 96 + 1);
/// The halfmove clock of a start that is not already drawn by the 50-move rule.
const MAX_HALFMOVES: u32 = 100;
/// Filter flag bits a writer sets (see [`Filter::flags`]).
const FLAG_BITS: u8 = 0b11;

/// Why a shard could not be read; each names the file and, for its content, the byte offset.
#[derive(Debug, Error)]
pub enum FormatError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}, byte {offset}: {reason}")]
    Corrupt { path: String, offset: usize, reason: String },
}

/// Which positions a shard's readers keep. The default skips positions in check and those whose
/// best move is a capture or a promotion (their score is the outcome of a tactic the static
/// evaluation cannot see), and keeps every score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub keep_in_check: bool,
    pub keep_tactical: bool,
    /// Skip positions whose |score| is above this (centipawns); `None` keeps all.
    pub max_score: Option<u32>,
}

impl Filter {
    /// Keeps every position.
    pub const ALL: Filter = Filter { keep_in_check: true, keep_tactical: true, max_score: None };

    /// Whether the position `pos`, where `mv` was played with `score`, is kept.
    pub fn keeps(&self, pos: &Chess, mv: Move, score: i32) -> bool {
        (self.keep_in_check || !pos.is_check())
            && (self.keep_tactical || !(mv.is_capture() || mv.is_promotion()))
            && self.max_score.is_none_or(|m| score.unsigned_abs() <= m)
    }

    fn flags(&self) -> u8 {
        u8::from(self.keep_in_check) | (u8::from(self.keep_tactical) << 1)
    }
}

/// One game: its start position (after the opening and the random plies), each searched move
/// with its score, and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub index: u64,
    pub start: Chess,
    /// `(move, score)`, score from the side to move's view (see the module docs).
    pub plies: Vec<(Move, i32)>,
    pub outcome: GameOutcome,
}

/// One position of a game, as the readers yield it.
#[derive(Clone, Debug)]
pub struct Sample {
    pub pos: Chess,
    /// The move the search chose.
    pub mv: Move,
    /// The search's score, centipawns from the side to move's view.
    pub score: i32,
    /// The game's result from white's view: 1.0, 0.5 or 0.0.
    pub result: f32,
}

impl GameRecord {
    /// The result from white's view: 1.0, 0.5 or 0.0.
    pub fn white_result(&self) -> f32 {
        self.outcome.score_for(Color::White) as f32
    }

    /// Every position of the game with its move and score, in order, and whether `filter`
    /// keeps it.
    pub fn positions(&self, filter: &Filter) -> Vec<(Sample, bool)> {
        let result = self.white_result();
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.plies.len());
        for &(mv, score) in &self.plies {
            let keep = filter.keeps(&pos, mv, score);
            let next = {
                let mut p = pos.clone();
                p.play_unchecked(mv);
                p
            };
            out.push((Sample { pos, mv, score, result }, keep));
            pos = next;
        }
        out
    }

    /// Appends the record's encoding to `out`.
    ///
    /// # Panics
    ///
    /// If a move is not legal in its position (the generator only records legal moves).
    pub fn encode(&self, out: &mut Vec<u8>) {
        put_varint(out, self.index);
        encode_position(&self.start, out);
        out.push(match self.outcome {
            GameOutcome::BlackWins => 0,
            GameOutcome::Draw => 1,
            GameOutcome::WhiteWins => 2,
        });
        put_varint(out, self.plies.len() as u64);
        let mut pos = self.start.clone();
        let mut bits = BitWriter::default();
        for &(mv, _) in &self.plies {
            let legal = pos.legal_moves();
            let i = legal.iter().position(|&m| m == mv).expect("recorded moves are legal");
            bits.put(i as u32, code_bits(legal.len()));
            pos.play_unchecked(mv);
        }
        out.extend_from_slice(&bits.finish());
        let mut prev = 0i32;
        for &(_, score) in &self.plies {
            put_varint(out, zigzag(score.wrapping_add(prev)));
            prev = score;
        }
    }
}

/// Where a format-2 shard comes from: its run, the run's parameters, its place in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Hash of the settings that fix the run's games (datagen.json's `run_id`).
    pub run_id: u64,
    /// Hash of the parameters' TOML when the run started (datagen.json's `params`).
    pub params: u64,
    /// K of `shard-K.bin`.
    pub shard: u32,
    /// The index of the shard's first game; the others follow one by one.
    pub first_game: u64,
}

/// The header of a shard of `origin` read through `filter`.
pub fn header(filter: &Filter, origin: &Origin) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.push(VERSION);
    h.push(filter.flags());
    put_varint(&mut h, u64::from(filter.max_score.map_or(0, |m| m + 1)));
    h.extend_from_slice(&origin.run_id.to_le_bytes());
    h.extend_from_slice(&origin.params.to_le_bytes());
    put_varint(&mut h, u64::from(origin.shard));
    put_varint(&mut h, origin.first_game);
    let check = crc32(CRC_START, &h);
    h.extend_from_slice(&check.to_le_bytes());
    h
}

/// Appends `record` as a block of a shard of run `run_id`.
pub fn put_block(record: &GameRecord, run_id: u64, out: &mut Vec<u8>) {
    let mut payload = Vec::with_capacity(64 + 2 * record.plies.len());
    record.encode(&mut payload);
    let start = out.len();
    put_varint(out, payload.len() as u64);
    out.extend_from_slice(&payload);
    let check = block_check(run_id, &out[start..]);
    out.extend_from_slice(&check.to_le_bytes());
}

/// The end block of a shard whose bytes so far are `shard` and which holds `games` games.
pub fn end_block(shard: &[u8], games: u64) -> Vec<u8> {
    let mut end = vec![0];
    put_varint(&mut end, games);
    let check = crc32(crc32(CRC_START, shard), &end);
    end.extend_from_slice(&check.to_le_bytes());
    end
}

/// A whole closed shard of `games` (which must follow one by one from `origin.first_game`).
pub fn encode_shard(filter: &Filter, origin: &Origin, games: &[GameRecord]) -> Vec<u8> {
    let mut bytes = header(filter, origin);
    for g in games {
        put_block(g, origin.run_id, &mut bytes);
    }
    let end = end_block(&bytes, games.len() as u64);
    bytes.extend_from_slice(&end);
    bytes
}

/// The check of a block (its length and record): CRC-32 over the run id, then the block.
fn block_check(run_id: u64, block: &[u8]) -> u32 {
    crc32(crc32(CRC_START, &run_id.to_le_bytes()), block)
}

/// CRC-32 (IEEE 802.3, reflected; the zlib one) continued from the state `crc`.
fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!crc, |c, &b| CRC_TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8))
}

/// The CRC-32 of no bytes.
const CRC_START: u32 = 0;

const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

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

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("truncated record")?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("varint longer than 64 bits".into())
    }

    fn fixed64(&mut self) -> Result<u64, String> {
        let mut b = [0u8; 8];
        for x in &mut b {
            *x = self.byte()?;
        }
        Ok(u64::from_le_bytes(b))
    }

    fn fixed32(&mut self) -> Result<u32, String> {
        let mut b = [0u8; 4];
        for x in &mut b {
            *x = self.byte()?;
        }
        Ok(u32::from_le_bytes(b))
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

/// Appends the compact encoding of `pos` (see the module docs).
pub fn encode_position(pos: &Chess, out: &mut Vec<u8>) {
    let board = pos.board();
    let occupied = board.occupied();
    out.extend_from_slice(&occupied.0.to_le_bytes());
    let mut nibbles = occupied.into_iter().map(|sq| {
        let p = board.piece_at(sq).expect("occupied");
        (p.role as u8 - 1) + if p.color == Color::Black { 6 } else { 0 }
    });
    while let Some(lo) = nibbles.next() {
        out.push(lo | (nibbles.next().unwrap_or(0) << 4));
    }
    let rights = pos.castles().castling_rights();
    let mut flags = u8::from(pos.turn() == Color::Black);
    for (bit, sq) in [Square::H1, Square::A1, Square::H8, Square::A8].into_iter().enumerate() {
        if rights.contains(sq) {
            flags |= 2 << bit;
        }
    }
    out.push(flags);
    out.push(pos.ep_square(EnPassantMode::Legal).map_or(255, |s| s as u8));
    put_varint(out, u64::from(pos.halfmoves()));
    put_varint(out, u64::from(pos.fullmoves().get()));
}

fn decode_position(c: &mut Cursor<'_>) -> Result<Chess, String> {
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

/// Bits of a move code in a position with `legal` legal moves.
fn code_bits(legal: usize) -> u32 {
    usize::BITS - legal.saturating_sub(1).leading_zeros()
}

/// Packs codes least significant bit first.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    acc: u32,
    held: u32,
}

impl BitWriter {
    fn put(&mut self, value: u32, bits: u32) {
        self.acc |= value << self.held;
        self.held += bits;
        while self.held >= 8 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.held -= 8;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.held > 0 {
            self.bytes.push(self.acc as u8);
        }
        self.bytes
    }
}

/// Reads [`BitWriter`]'s codes from a cursor; the padding of the last byte is dropped with it.
struct BitReader {
    acc: u32,
    held: u32,
}

impl BitReader {
    fn get(&mut self, c: &mut Cursor<'_>, bits: u32) -> Result<u32, String> {
        while self.held < bits {
            self.acc |= u32::from(c.byte()?) << self.held;
            self.held += 8;
        }
        let v = self.acc & ((1u32 << bits) - 1);
        self.acc >>= bits;
        self.held -= bits;
        Ok(v)
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i32) -> u64 {
    u64::from(((v << 1) ^ (v >> 31)) as u32)
}

fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::openings::parse_fen;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    #[test]
    fn varints_and_zigzag_round_trip() {
        for v in [0i32, 1, -1, 63, -64, 64, 1000, -31_999, 32_000, i32::MAX, i32::MIN] {
            let mut b = Vec::new();
            put_varint(&mut b, zigzag(v));
            let mut c = Cursor { bytes: &b, at: 0 };
            assert_eq!(unzigzag(c.varint().unwrap()), i64::from(v));
            assert_eq!(c.at, b.len());
            assert_eq!(b.len() == 1, (-64..64).contains(&v), "{v}");
        }
    }

    #[test]
    fn move_codes_take_the_bits_of_the_legal_move_count() {
        assert_eq!([1, 2, 3, 4, 5, 32, 33, 218].map(code_bits), [0, 1, 2, 2, 3, 5, 6, 8]);
        let mut w = BitWriter::default();
        let codes = [(0, 0), (1, 1), (5, 3), (200, 8), (0, 0), (31, 5), (2, 2)];
        for (v, b) in codes {
            w.put(v, b);
        }
        let bytes = w.finish();
        assert_eq!(bytes.len(), 3, "19 bits in 3 bytes");
        let (mut c, mut r) = (Cursor { bytes: &bytes, at: 0 }, BitReader { acc: 0, held: 0 });
        for (v, b) in codes {
            assert_eq!(r.get(&mut c, b).unwrap(), v);
        }
        assert_eq!(c.at, 3);
    }

    #[test]
    fn positions_round_trip_with_castling_en_passant_and_counters() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w Kq d6 0 20",
            "4k3/8/8/8/8/8/8/4K2R b K - 37 140",
            "8/8/8/8/8/8/6k1/4K3 w - - 0 1",
        ] {
            let pos = parse_fen(fen).unwrap();
            let mut b = Vec::new();
            encode_position(&pos, &mut b);
            let mut c = Cursor { bytes: &b, at: 0 };
            assert_eq!(decode_position(&mut c).unwrap(), pos, "{fen}");
            assert_eq!(c.at, b.len());
        }
    }

    const ORIGIN: Origin = Origin { run_id: 0x1234_5678_9abc_def0, params: 42, shard: 3, first_game: 1000 };

    /// Random games with random scores, indices from `first`.
    fn random_games(seed: u64, count: u64, first: u64, max_plies: usize) -> Vec<GameRecord> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..count)
            .map(|i| {
                let start = Chess::default();
                let mut pos = start.clone();
                let mut plies = Vec::new();
                let mut score = 0i32;
                while plies.len() < max_plies {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let mv = legal[rng.random_range(0..legal.len())];
                    score = if rng.random_bool(0.05) {
                        rng.random_range(-MATE_SCORE..=MATE_SCORE)
                    } else {
                        (-score + rng.random_range(-80..80)).clamp(-MATE_SCORE, MATE_SCORE)
                    };
                    plies.push((mv, score));
                    pos.play_unchecked(mv);
                }
                let outcome = [GameOutcome::WhiteWins, GameOutcome::Draw, GameOutcome::BlackWins][i as usize % 3];
                GameRecord { index: first + i, start, plies, outcome }
            })
            .collect()
    }

    fn read(bytes: &[u8]) -> Result<Vec<Record>, FormatError> {
        Shard::from_bytes("s.bin".into(), bytes.to_vec())?.all_records()
    }

    /// Encode then decode gives the same records, and a cut anywhere (at a block boundary too)
    /// is an error naming the file and a byte, never a shorter shard.
    #[test]
    fn records_round_trip_losslessly() {
        let games = random_games(7, 30, ORIGIN.first_game, 200);
        let bytes = encode_shard(&Filter::default(), &ORIGIN, &games);
        let shard = Shard::from_bytes("mem".into(), bytes.clone()).unwrap();
        assert_eq!(shard.origin(), Some(ORIGIN));
        assert_eq!(shard.games().unwrap(), 30);
        let records = shard.all_records().unwrap();
        assert_eq!(records.iter().map(|r| r.game.clone()).collect::<Vec<_>>(), games);
        assert_eq!(records[29].end, shard.records_end());
        for cut in [bytes.len() - 1, shard.records_end(), records[28].end, records[29].offset + 3, 40] {
            let e = Shard::from_bytes("cut.bin".into(), bytes[..cut].to_vec()).err().unwrap().to_string();
            assert!(e.starts_with("cut.bin, byte "), "{cut}: {e}");
        }
    }

    /// Every single-bit flip of a shard, header, blocks and end block alike, is refused with
    /// the file and a byte offset: CRC-32 finds every error of up to 32 bits in a row.
    #[test]
    fn every_flipped_bit_is_refused() {
        let bytes = encode_shard(&Filter::default(), &ORIGIN, &random_games(3, 3, ORIGIN.first_game, 12));
        read(&bytes).unwrap();
        for bit in 0..bytes.len() * 8 {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            let e = read(&b).err().unwrap_or_else(|| panic!("bit {bit} of {} flipped unnoticed", bytes.len() * 8));
            assert!(e.to_string().starts_with("s.bin, byte "), "bit {bit}: {e}");
        }
    }

    /// A block moved in from another run's shard fails its check (the run id seeds it).
    #[test]
    fn a_block_of_another_run_is_refused() {
        let games = random_games(5, 2, 0, 10);
        let origin = Origin { first_game: 0, ..ORIGIN };
        let ours = encode_shard(&Filter::default(), &origin, &games);
        let theirs = encode_shard(&Filter::default(), &Origin { run_id: 99, ..origin }, &games);
        let h = header(&Filter::default(), &origin).len();
        let mut spliced = ours[..h].to_vec();
        spliced.extend_from_slice(&theirs[h..]);
        let e = read(&spliced).err().unwrap().to_string();
        assert!(e.contains(&format!("byte {h}: checksum mismatch")), "{e}");
    }

    /// Records no writer makes are refused, naming the byte, though their checks are right.
    #[test]
    fn implausible_records_are_refused() {
        let mut games = random_games(11, 3, ORIGIN.first_game, 6);
        games[1].plies[2].1 = i32::MIN;
        let e = read(&encode_shard(&Filter::default(), &ORIGIN, &games)).err().unwrap().to_string();
        assert!(e.contains("game 1001, ply 2: score -2147483648 beyond ±32000"), "{e}");
        let mut games = random_games(11, 3, ORIGIN.first_game, 6);
        games[2].index = games[1].index;
        let bytes = encode_shard(&Filter::default(), &ORIGIN, &games);
        let second_end =
            Shard::from_bytes("s.bin".into(), bytes.clone()).unwrap().records().nth(1).unwrap().unwrap().end;
        let e = read(&bytes).err().unwrap().to_string();
        assert!(e.contains(&format!("byte {second_end}: game index 1001 where game 1002 belongs")), "{e}");
        let mut games = random_games(11, 1, ORIGIN.first_game, 6);
        games[0].start = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 150 80").unwrap();
        let e = read(&encode_shard(&Filter::default(), &ORIGIN, &games)).err().unwrap().to_string();
        assert!(e.contains("halfmove clock out of range"), "{e}");
    }

    /// Format 1 (bare records, no checks) is still read; its game indices must still follow one
    /// by one.
    #[test]
    fn format_1_shards_are_read() {
        let games = random_games(13, 4, 0, 20);
        let legacy = |games: &[GameRecord]| {
            let mut b = vec![b'E', b'V', b'D', b'G', LEGACY_VERSION, Filter::default().flags(), 0];
            for g in games {
                g.encode(&mut b);
            }
            b
        };
        let shard = Shard::from_bytes("old.bin".into(), legacy(&games)).unwrap();
        assert_eq!(shard.origin(), None);
        let back: Vec<GameRecord> = shard.all_records().unwrap().into_iter().map(|r| r.game).collect();
        assert_eq!(back, games);
        let mut twice = games.clone();
        twice[3].index = 2;
        let e = read(&legacy(&twice)).err().unwrap().to_string();
        assert!(e.contains("game index 2 where game 3 belongs"), "{e}");
    }

    #[test]
    fn the_filter_is_stored_in_the_header_and_applied_by_readers() {
        // 1. e4 d5 2. exd5 (a capture) Qxd5 (a capture) 3. Nc3: two of five positions tactical.
        let start = Chess::default();
        let mut pos = start.clone();
        let mut plies = Vec::new();
        for (uci, score) in [("e2e4", 30), ("d7d5", -20), ("e4d5", 40), ("d8d5", -30), ("b1c3", 5000)] {
            let mv = uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
            plies.push((mv, score));
            pos.play_unchecked(mv);
        }
        let g = GameRecord { index: 0, start, plies, outcome: GameOutcome::Draw };
        for (filter, kept) in
            [(Filter::default(), 3), (Filter::ALL, 5), (Filter { max_score: Some(1000), ..Filter::default() }, 2)]
        {
            let bytes = encode_shard(&filter, &Origin { first_game: 0, ..ORIGIN }, std::slice::from_ref(&g));
            let s = Shard::from_bytes("f".into(), bytes).unwrap();
            assert_eq!(s.filter, filter);
            let samples: Vec<Sample> = s.samples().map(Result::unwrap).collect();
            assert_eq!(samples.len(), kept, "{filter:?}");
            assert!(samples.iter().all(|x| x.result == 0.5));
        }
    }

    #[test]
    fn bad_headers_are_named() {
        let e = Shard::from_bytes("x.bin".into(), b"PK\x03\x04zzzz".to_vec()).err().unwrap().to_string();
        assert_eq!(e, "x.bin, byte 0: not a datagen shard (no EVDG header)");
        let e = Shard::from_bytes("y.bin".into(), b"EVDG\x09\x00\x00".to_vec()).err().unwrap().to_string();
        assert!(e.contains("byte 4") && e.contains("version 9"), "{e}");
    }
}
