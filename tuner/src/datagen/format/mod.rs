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
//!
//! The parts: `write` makes headers, blocks and end blocks, `read` checks a shard and decodes
//! its records, `codes` holds the varints and move codes both use, `check` the CRC-32.

mod check;
mod codes;
mod read;
mod write;

pub use read::{Record, Records, Shard};
pub use write::{encode_position, encode_shard, end_block, header, put_block};

use shakmaty::{Chess, Color, Move, Position};
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

/// Bits of a move code in a position with `legal` legal moves.
fn code_bits(legal: usize) -> u32 {
    usize::BITS - legal.saturating_sub(1).leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::{codes::Cursor, read::decode_position, *};
    use arena::openings::parse_fen;
    use rand::{Rng, SeedableRng, rngs::StdRng};

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
