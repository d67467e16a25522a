//! Polyglot opening books (`.bin`): the engine's `OwnBook`/`BookFile` and the tuner's book walks.
//!
//! A book is a sorted array of 16-byte big-endian entries: key (u64), move (u16), weight (u16),
//! learn (u32, unused). The key is the Polyglot Zobrist key, which is exactly shakmaty's
//! `Zobrist64` with `EnPassantMode::Legal` ([`crate::zobrist::hash`]). A move packs to-square
//! (bits 0-5), from-square (6-11) and promotion (12-14: none, n, b, r, q); castling is written
//! king-takes-own-rook (`e1h1`).
//!
//! Books are read whole into memory ([`MAX_BOOK_BYTES`] at most; Debian's gnuchess book is
//! 2.8 MB) and validated once, so lookups are a binary search. Entries whose move is not legal
//! in the position (a key collision or a broken book) are skipped.
//!
//! [`pick`] makes a weighted choice from a number the caller derives deterministically
//! ([`choice_seed`]), so the same inputs always give the same book move.

use std::{io::Read, path::Path};

use shakmaty::{CastlingMode, Chess, Move, Role, Square, uci::UciMove};
use thiserror::Error;

/// Largest book file read: books are held in memory, 16 bytes per entry.
pub const MAX_BOOK_BYTES: u64 = 256 << 20;

/// Size of one entry on disk.
const ENTRY_BYTES: usize = 16;

/// Why a book file was refused. Each variant names the file.
#[derive(Debug, Error)]
pub enum BookError {
    #[error("book file {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("book file {path} is not a regular file")]
    NotAFile { path: String },
    #[error("book file {path} is over the {limit}-byte limit")]
    TooLarge { path: String, limit: u64 },
    #[error("book file {path}: {source}")]
    Format {
        path: String,
        #[source]
        source: FormatError,
    },
}

/// Why bytes are not a Polyglot book.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum FormatError {
    #[error("not a Polyglot book (size {0} bytes is not a multiple of 16)")]
    Size(usize),
    #[error("not a Polyglot book (entry {index} is out of key order)")]
    Unsorted { index: usize },
    #[error("the book has no entries")]
    Empty,
}

/// One book entry (the learn field is not kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    /// Polyglot move encoding; see [`decode_move`].
    pub raw_move: u16,
    pub weight: u16,
}

impl Entry {
    /// The 16 bytes of this entry in a book file (learn = 0).
    pub fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut b = [0; ENTRY_BYTES];
        b[0..8].copy_from_slice(&self.key.to_be_bytes());
        b[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        b[10..12].copy_from_slice(&self.weight.to_be_bytes());
        b
    }
}

/// A validated Polyglot book held in memory.
#[derive(Clone, Debug)]
pub struct Book {
    entries: Vec<Entry>,
}

impl Book {
    /// Reads and validates a book file. Only regular files up to [`MAX_BOOK_BYTES`] are read.
    ///
    /// # Errors
    /// [`BookError`] naming the file: unreadable, not a regular file, too large, or not a
    /// Polyglot book (size not a multiple of 16, keys out of order, no entries).
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let path = path.as_ref();
        let shown = || path.display().to_string();
        let io = |e: std::io::Error| BookError::Io { path: shown(), reason: e.to_string() };
        // stat before open: opening a FIFO for reading blocks until a writer comes.
        let meta = std::fs::metadata(path).map_err(io)?;
        if !meta.is_file() {
            return Err(BookError::NotAFile { path: shown() });
        }
        if meta.len() > MAX_BOOK_BYTES {
            return Err(BookError::TooLarge { path: shown(), limit: MAX_BOOK_BYTES });
        }
        // Without blocking (a FIFO swapped in, or a procfs file such as `/proc/kmsg`, would hang),
        // and again only a regular file.
        let file = crate::input::open_regular(path).map_err(|e| match e {
            crate::input::InputError::NotAFile { .. } => BookError::NotAFile { path: shown() },
            other => BookError::Io { path: shown(), reason: other.reason() },
        })?;
        let mut bytes = Vec::new();
        file.take(MAX_BOOK_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 > MAX_BOOK_BYTES {
            return Err(BookError::TooLarge { path: shown(), limit: MAX_BOOK_BYTES });
        }
        Book::from_bytes(&bytes).map_err(|source| BookError::Format { path: shown(), source })
    }

    /// Parses the bytes of a book file.
    ///
    /// # Errors
    /// [`FormatError`] when the size is not a multiple of 16, keys are out of order (lookups
    /// binary-search them) or there are no entries.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, FormatError> {
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(FormatError::Size(bytes.len()));
        }
        let entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_BYTES)
            .map(|c| Entry {
                key: u64::from_be_bytes(c[0..8].try_into().expect("8 bytes")),
                raw_move: u16::from_be_bytes([c[8], c[9]]),
                weight: u16::from_be_bytes([c[10], c[11]]),
            })
            .collect();
        if entries.is_empty() {
            return Err(FormatError::Empty);
        }
        if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
            return Err(FormatError::Unsorted { index: i + 1 });
        }
        Ok(Book { entries })
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always false: an empty book is refused when read.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every entry for `key`, in file order.
    pub fn entries(&self, key: u64) -> &[Entry] {
        let first = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[first..].partition_point(|e| e.key == key);
        &self.entries[first..first + len]
    }

    /// The legal book moves of `pos` with their weights, in file order. Entries that decode to
    /// no legal move are skipped (logged at debug level).
    pub fn moves(&self, pos: &Chess) -> Vec<(Move, u16)> {
        let key = crate::zobrist::hash(pos);
        self.entries(key)
            .iter()
            .filter_map(|e| match decode_move(pos, e.raw_move) {
                Some(m) => Some((m, e.weight)),
                None => {
                    log::debug!("book entry {:#06x} for key {key:016x} is not a legal move; skipped", e.raw_move);
                    None
                }
            })
            .collect()
    }
}

/// Decodes a Polyglot move into a legal move of `pos`, or `None` when it is not one.
/// Castling arrives as king-takes-own-rook (`e1h1`), which `UciMove::to_move` reads as castling.
pub fn decode_move(pos: &Chess, raw: u16) -> Option<Move> {
    let to = Square::new(u32::from(raw & 0x3f));
    let from = Square::new(u32::from((raw >> 6) & 0x3f));
    let promotion = match (raw >> 12) & 0x7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    UciMove::Normal { from, to, promotion }.to_move(pos).ok()
}

/// The Polyglot encoding of a move (castling as king-takes-own-rook), the inverse of
/// [`decode_move`]. `None` for moves Polyglot cannot write (drops, king promotions).
pub fn encode_move(m: Move) -> Option<u16> {
    // Chess960 notation is exactly Polyglot's: the king "captures" its rook.
    let UciMove::Normal { from, to, promotion } = m.to_uci(CastlingMode::Chess960) else { return None };
    let promo = match promotion {
        None => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        Some(_) => return None,
    };
    Some((promo << 12) | (u16::from(from) << 6) | u16::from(to))
}

/// The number a book choice is drawn from: a mix of the position key, the game ply and the
/// game number, so a position gets the same move at the same point of the same game on every
/// run, yet successive games (or a transposition at another ply) may vary.
pub fn choice_seed(key: u64, ply: u32, game: u64) -> u64 {
    splitmix64(key ^ splitmix64(u64::from(ply) ^ splitmix64(game)))
}

/// One weighted choice among `moves` using `seed`: each move with probability weight / total.
/// Moves of weight 0 are never chosen (Polyglot's "do not play"); `None` when the total is 0.
pub fn pick(moves: &[(Move, u16)], seed: u64) -> Option<(Move, u16)> {
    let total: u64 = moves.iter().map(|&(_, w)| u64::from(w)).sum();
    if total == 0 {
        return None;
    }
    // Multiply-shift maps the seed onto 0..total without the modulo's bias.
    let mut r = ((u128::from(seed) * u128::from(total)) >> 64) as u64;
    moves.iter().copied().find(|&(_, w)| {
        let hit = r < u64::from(w);
        r = r.saturating_sub(u64::from(w));
        hit
    })
}

/// Sum of the weights of `moves`.
pub fn total_weight(moves: &[(Move, u16)]) -> u64 {
    moves.iter().map(|&(_, w)| u64::from(w)).sum()
}

/// SplitMix64's output function: a cheap, well-mixed 64-bit hash.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use shakmaty::{Position, fen::Fen};

    use super::*;
    use crate::zobrist::hash;

    fn play(moves: &[&str]) -> Chess {
        let mut pos = Chess::default();
        for s in moves {
            let m = s.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(m);
        }
        pos
    }

    fn uci(m: Move) -> String {
        m.to_uci(CastlingMode::Standard).to_string()
    }

    fn raw(from: u16, to: u16) -> u16 {
        (from << 6) | to
    }

    /// Start position: e4 (10), d4 (5), Nf3 (0, never played) and an illegal e2e5 of large
    /// weight; after 1.e4: e5, c5; after 1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5: only O-O, as e1h1.
    fn tiny_book() -> Vec<u8> {
        let italian = play(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"]);
        let mut entries = [
            Entry { key: hash(&Chess::default()), raw_move: raw(12, 28), weight: 10 },
            Entry { key: hash(&Chess::default()), raw_move: raw(11, 27), weight: 5 },
            Entry { key: hash(&Chess::default()), raw_move: raw(6, 21), weight: 0 },
            Entry { key: hash(&Chess::default()), raw_move: raw(12, 36), weight: 1000 },
            Entry { key: hash(&play(&["e2e4"])), raw_move: raw(52, 36), weight: 3 },
            Entry { key: hash(&play(&["e2e4"])), raw_move: raw(50, 34), weight: 2 },
            Entry { key: hash(&italian), raw_move: raw(4, 7), weight: 1 },
        ];
        entries.sort_by_key(|e| e.key);
        entries.iter().flat_map(|e| e.to_bytes()).collect()
    }

    #[test]
    fn keys_are_polyglot_keys() {
        // Reference values from the Polyglot specification.
        assert_eq!(hash(&Chess::default()), 0x463b96181691fc9c);
        assert_eq!(hash(&play(&["e2e4"])), 0x823c9b50fd114196);
        assert_eq!(hash(&play(&["e2e4", "d7d5"])), 0x0756b94461c50fb0);
        // En passant counts only when a capture is possible.
        assert_eq!(hash(&play(&["e2e4", "d7d5", "e4e5", "f7f5"])), 0x22a48b5a8e47ff78);
    }

    #[test]
    fn lookup_finds_legal_entries_and_skips_illegal_ones() {
        let book = Book::from_bytes(&tiny_book()).unwrap();
        assert_eq!(book.len(), 7);
        assert_eq!(book.entries(hash(&Chess::default())).len(), 4);
        let start: Vec<(String, u16)> = book.moves(&Chess::default()).into_iter().map(|(m, w)| (uci(m), w)).collect();
        assert_eq!(start, [("e2e4".into(), 10), ("d2d4".into(), 5), ("g1f3".into(), 0)]);
        let e4: Vec<String> = book.moves(&play(&["e2e4"])).into_iter().map(|(m, _)| uci(m)).collect();
        assert_eq!(e4, ["e7e5", "c7c5"]);
        let italian = play(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5"]);
        let castle: Vec<String> = book.moves(&italian).into_iter().map(|(m, _)| uci(m)).collect();
        assert_eq!(castle, ["e1g1"]);
        assert!(book.moves(&play(&["d2d4"])).is_empty());
        assert!(book.entries(0).is_empty() && book.entries(u64::MAX).is_empty());
    }

    #[test]
    fn malformed_books_are_refused() {
        let bytes = tiny_book();
        assert_eq!(Book::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err(), FormatError::Size(111));
        assert_eq!(Book::from_bytes(&[]).unwrap_err(), FormatError::Empty);
        // The last (largest) key moved to the front.
        let mut unsorted = bytes[bytes.len() - 16..].to_vec();
        unsorted.extend_from_slice(&bytes[..bytes.len() - 16]);
        assert_eq!(Book::from_bytes(&unsorted).unwrap_err(), FormatError::Unsorted { index: 1 });
    }

    #[test]
    fn open_checks_the_file() {
        let dir = std::env::temp_dir().join(format!("evochess-book-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("tiny.bin");
        std::fs::write(&good, tiny_book()).unwrap();
        assert_eq!(Book::open(&good).unwrap().len(), 7);
        let odd = dir.join("odd.bin");
        std::fs::write(&odd, b"0123456789abcde").unwrap();
        let e = Book::open(&odd).unwrap_err().to_string();
        assert!(e.contains("odd.bin") && e.contains("not a Polyglot book"), "{e}");
        let e = Book::open(&dir).unwrap_err().to_string();
        assert!(e.contains("is not a regular file"), "{e}");
        let e = Book::open(dir.join("missing.bin")).unwrap_err().to_string();
        assert!(e.contains("missing.bin"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn moves_round_trip_through_the_encoding() {
        let pos: Chess = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        // Castling both ways, promotions to every piece, with and without capture.
        for m in pos.legal_moves() {
            assert_eq!(decode_move(&pos, encode_move(m).unwrap()), Some(m), "{}", uci(m));
        }
        assert_eq!(encode_move(decode_move(&pos, raw(4, 7)).unwrap()), Some(raw(4, 7)));
        assert_eq!(uci(decode_move(&pos, raw(4, 0)).unwrap()), "e1c1");
        assert_eq!(uci(decode_move(&pos, (4 << 12) | raw(49, 56)).unwrap()), "b7a8q");
        assert_eq!(uci(decode_move(&pos, (1 << 12) | raw(49, 57)).unwrap()), "b7b8n");
        assert_eq!(decode_move(&pos, raw(12, 28)), None); // e2e4: no pawn there
        assert_eq!(decode_move(&pos, (5 << 12) | raw(49, 57)), None); // no such promotion
        assert_eq!(decode_move(&pos, (4 << 12) | raw(4, 5)), None); // a king cannot promote
    }

    #[test]
    fn picks_follow_the_weights_and_are_deterministic() {
        let book = Book::from_bytes(&tiny_book()).unwrap();
        let moves = book.moves(&Chess::default());
        assert_eq!(total_weight(&moves), 15);
        let mut counts = std::collections::HashMap::new();
        for i in 0..3000 {
            let seed = choice_seed(hash(&Chess::default()), 0, i);
            let (m, w) = pick(&moves, seed).unwrap();
            assert_eq!(pick(&moves, seed), Some((m, w)));
            *counts.entry(uci(m)).or_insert(0) += 1;
        }
        // e4 : d4 is 10 : 5; Nf3 has weight 0.
        assert_eq!(counts.len(), 2, "{counts:?}");
        let e4 = counts["e2e4"];
        assert!((1850..2150).contains(&e4), "{counts:?}");
        assert_ne!(choice_seed(1, 0, 0), choice_seed(1, 1, 0));
        assert_ne!(choice_seed(1, 0, 0), choice_seed(1, 0, 1));
        assert_eq!(pick(&moves[2..], 7), None); // only weight 0 left
        assert_eq!(pick(&[], 7), None);
        // The extreme seeds stay in range.
        assert_eq!(uci(pick(&moves, 0).unwrap().0), "e2e4");
        assert_eq!(uci(pick(&moves, u64::MAX).unwrap().0), "d2d4");
    }
}
