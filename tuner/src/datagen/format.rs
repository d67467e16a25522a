//! The shard format: compact game records, after Stockfish's binpack (a start position, then
//! one small move code and one small score delta per ply) but simpler.
//!
//! A shard is a header followed by game records, in game index order:
//!
//! ```text
//! header  "EVDG" · version (1 byte, 1) · filter flags (1 byte) · score cap (varint, 0 = none)
//! record  game index (varint) · start position (~28 bytes, below) · result (1 byte:
//!         0 = 0-1, 1 = ½-½, 2 = 1-0) · plies n (varint) · n move codes · n score codes
//!         (varint each)
//! ```
//!
//! A move code is the move's index in shakmaty's legal move list of its position, in
//! `ceil(log2(legal moves))` bits (none for a forced move), the codes of a game packed
//! least significant bit first and padded to a whole byte: about 6 bits a move.
//!
//! Scores are the search's, in centipawns from the side to move's view; a mate in `m` moves is
//! stored as `MATE_SCORE − m`, being mated in `m` as `−(MATE_SCORE − m)`. Consecutive scores of
//! one game nearly cancel (the side to move alternates), so ply `i` stores
//! `zigzag(score[i] + score[i − 1])` (`score[−1] = 0`) as a LEB128 varint: one byte while the
//! evaluation moves by less than 64 cp. With ~28 bytes of start position per game, a game of
//! n plies costs about 30 + 2n bytes (measured at 5,000 nodes: 1.1 bytes a score).
//!
//! Start position: the occupied squares (u64, little-endian), then one nibble per occupied
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
/// The format version this tuner writes and reads.
pub const VERSION: u8 = 1;
/// The stored magnitude of a mate score (see the module docs).
pub const MATE_SCORE: i32 = 32_000;

/// Why a shard could not be read; each names the file and the byte offset.
#[derive(Debug, Error)]
pub enum FormatError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}: not a datagen shard (no EVDG header)")]
    NotAShard { path: String },
    #[error("{path}: shard format version {found}, this tuner reads version {VERSION}")]
    Version { path: String, found: u8 },
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

/// The shard header for `filter`.
pub fn header(filter: &Filter) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.push(VERSION);
    h.push(filter.flags());
    put_varint(&mut h, u64::from(filter.max_score.map_or(0, |m| m + 1)));
    h
}

/// A shard read into memory (shards are a few hundred kB).
pub struct Shard {
    pub path: String,
    pub filter: Filter,
    bytes: Vec<u8>,
    body: usize,
}

impl Shard {
    pub fn open(path: &Path) -> Result<Shard, FormatError> {
        let name = path.display().to_string();
        let bytes = evochess::input::read_capped(path, evochess::input::MAX_DATA_BYTES)
            .map_err(|e| FormatError::Io { path: name.clone(), source: std::io::Error::other(e.reason()) })?;
        Shard::from_bytes(name, bytes)
    }

    /// A shard from its bytes; `path` names it in errors.
    pub fn from_bytes(path: String, bytes: Vec<u8>) -> Result<Shard, FormatError> {
        if bytes.len() < 6 || &bytes[..4] != MAGIC {
            return Err(FormatError::NotAShard { path });
        }
        if bytes[4] != VERSION {
            return Err(FormatError::Version { path, found: bytes[4] });
        }
        let flags = bytes[5];
        let mut r = Cursor { bytes: &bytes, at: 6 };
        let cap = r.varint().map_err(|reason| FormatError::Corrupt { path: path.clone(), offset: r.at, reason })?;
        let max_score = match cap {
            0 => None,
            c => Some(u32::try_from(c - 1).map_err(|_| FormatError::Corrupt {
                path: path.clone(),
                offset: 6,
                reason: format!("score cap {} out of range", c - 1),
            })?),
        };
        let filter = Filter { keep_in_check: flags & 1 != 0, keep_tactical: flags & 2 != 0, max_score };
        let body = r.at;
        Ok(Shard { path, filter, bytes, body })
    }

    /// The shard's games in order, each with its end offset (bytes into the shard); the
    /// iterator ends at the first error.
    pub fn records(&self) -> Records<'_> {
        Records { shard: self, at: self.body, failed: false }
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
                Ok((g, _)) => g.positions(&filter).into_iter().filter(|(_, k)| *k).map(|(s, _)| Ok(s)).collect(),
                Err(e) => vec![Err(e)],
            }
        })
    }
}

/// Iterator over a shard's game records.
pub struct Records<'a> {
    shard: &'a Shard,
    at: usize,
    failed: bool,
}

impl Iterator for Records<'_> {
    type Item = Result<(GameRecord, usize), FormatError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.at >= self.shard.bytes.len() {
            return None;
        }
        let mut c = Cursor { bytes: &self.shard.bytes, at: self.at };
        match decode_record(&mut c) {
            Ok(g) => {
                self.at = c.at;
                Some(Ok((g, c.at)))
            }
            Err(reason) => {
                self.failed = true;
                Some(Err(FormatError::Corrupt { path: self.shard.path.clone(), offset: c.at, reason }))
            }
        }
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
    for mv in moves {
        let d = i32::try_from(unzigzag(c.varint()?)).map_err(|_| format!("game {index}: score out of range"))?;
        let score = d.wrapping_sub(prev);
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
    let halfmoves = u32::try_from(c.varint()?).map_err(|_| "halfmove clock out of range")?;
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

    /// Random games with random scores: encode then decode gives the same records, and a cut
    /// anywhere in the last record is an error, never a shorter game.
    #[test]
    fn records_round_trip_losslessly() {
        let mut rng = StdRng::seed_from_u64(7);
        let mut bytes = header(&Filter::default());
        let mut games = Vec::new();
        for index in 0..30 {
            let start = Chess::default();
            let mut pos = start.clone();
            let mut plies = Vec::new();
            let mut score = 0i32;
            while plies.len() < 200 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.random_range(0..legal.len())];
                score = if rng.random_bool(0.05) {
                    rng.random_range(-MATE_SCORE..=MATE_SCORE)
                } else {
                    -score + rng.random_range(-80..80)
                };
                plies.push((mv, score));
                pos.play_unchecked(mv);
            }
            let outcome = [GameOutcome::WhiteWins, GameOutcome::Draw, GameOutcome::BlackWins][index % 3];
            let g = GameRecord { index: index as u64 * 1000, start, plies, outcome };
            g.encode(&mut bytes);
            games.push(g);
        }
        let shard = Shard::from_bytes("mem".into(), bytes.clone()).unwrap();
        let back: Vec<GameRecord> = shard.records().map(|r| r.unwrap().0).collect();
        assert_eq!(back, games);
        let last_start = shard.records().nth(28).unwrap().unwrap().1;
        for cut in [bytes.len() - 1, last_start + 3, last_start + 40] {
            let s = Shard::from_bytes("cut.bin".into(), bytes[..cut].to_vec()).unwrap();
            let r: Vec<_> = s.records().collect();
            assert_eq!(r.len(), 30);
            let e = r[29].as_ref().unwrap_err().to_string();
            assert!(e.starts_with("cut.bin, byte "), "{e}");
        }
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
            let mut bytes = header(&filter);
            g.encode(&mut bytes);
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
        assert_eq!(e, "x.bin: not a datagen shard (no EVDG header)");
        let e = Shard::from_bytes("y.bin".into(), b"EVDG\x09\x00\x00".to_vec()).err().unwrap().to_string();
        assert!(e.contains("version 9"), "{e}");
    }
}
