//! Transposition table, shared by the threads of a search without locks.
//!
//! Contract (after Stockfish `tt.h` and Carp `tt.rs`):
//!
//! * The size is set in MiB; the table holds `size / 64` buckets of [`BUCKET_ENTRIES`] entries,
//!   one bucket per 64-byte cache line. A position maps to one bucket by the high bits of its
//!   64-bit Zobrist key (multiply-shift, so any bucket count works) and is identified inside the
//!   bucket by the low 32 bits, so two positions collide only if they share both.
//! * Collisions are therefore possible, if rare: every move read back is checked for legality
//!   by the caller before it is played ([`decode_move`] plus `is_legal`).
//! * Entry layout: a 32-bit key word and a 64-bit data word, each an atomic:
//!
//!   ```text
//!   key word:  key32 ^ fold(data)          fold(d) = low32(d) ^ high32(d)
//!   data word: move16 | score16 << 16 | eval16 << 32 | depth8 << 48 | gen5:pv1:bound2 << 56
//!   bucket:    [key word; 5] | pad 4 | [data word; 5]      (64 bytes)
//!   ```
//!
//!   `move16` = from (6 bits) | to (6 bits) << 6 | promotion role (3 bits) << 12, castling
//!   encoded king-to-rook; 0 is "no move". An all-zero entry is empty (bound 0).
//! * Threads (Lazy SMP): every thread probes and stores through `&self`. Words are read and
//!   written with relaxed atomic loads and stores, so there is no data race and no lock. Two
//!   threads writing one entry at once can leave the key word of one and the data word of the
//!   other: the key word is stored XOR-folded with its own data ("lockless hashing", Hyatt and
//!   Mann), so such a torn entry fails the key check of both positions (unless the two data
//!   words fold alike, which is as likely as a key collision). The replacement decision may read
//!   an entry that changes under it; the worst outcome is a less useful slot being replaced.
//! * Aging: [`TranspositionTable::new_search`] bumps a 5-bit generation. Replacement prefers the
//!   same key, then the entry with the lowest `depth - 8 * age`, so stale deep entries from
//!   earlier searches give way.
//! * Mate and TB scores are stored relative to the storing node ([`crate::score::to_tt`]).
//! * `new_search`, `clear` and `resize` take `&mut self`: they run between searches, when no
//!   thread holds the table.
//! * Allocation is fallible ([`TranspositionTable::try_new`], [`TranspositionTable::resize`]):
//!   a size the system refuses is an error and the old table stays. Fresh memory comes zeroed
//!   from the allocator (`calloc`, i.e. untouched pages for large tables), not written up front.

use std::{
    alloc::Layout,
    sync::atomic::{AtomicU32, AtomicU64, Ordering},
};

use shakmaty::{Chess, Move, Position, Role, Square};
use thiserror::Error;

/// Entries per bucket (5 × 12 bytes fit a 64-byte line).
pub const BUCKET_ENTRIES: usize = 5;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TtBound {
    None = 0,
    /// The score is an upper bound (fail low).
    Upper = 1,
    /// The score is a lower bound (fail high).
    Lower = 2,
    Exact = 3,
}

impl TtBound {
    fn from_bits(b: u8) -> TtBound {
        match b & 3 {
            1 => TtBound::Upper,
            2 => TtBound::Lower,
            3 => TtBound::Exact,
            _ => TtBound::None,
        }
    }
}

/// One entry as read from (or about to be written to) a bucket.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Entry {
    key: u32,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    gen_bound: u8,
}

impl Entry {
    #[inline]
    fn data(self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.gen_bound) << 56
    }

    #[inline]
    fn from_words(key_word: u32, data: u64) -> Entry {
        Entry {
            key: key_word ^ fold(data),
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            gen_bound: (data >> 56) as u8,
        }
    }

    #[inline]
    fn is_used(self) -> bool {
        self.gen_bound & 3 != 0
    }
}

/// The 32 bits of a data word that its key word is XORed with.
#[inline]
fn fold(data: u64) -> u32 {
    (data as u32) ^ ((data >> 32) as u32)
}

#[derive(Default)]
#[repr(C, align(64))]
struct Bucket {
    keys: [AtomicU32; BUCKET_ENTRIES],
    data: [AtomicU64; BUCKET_ENTRIES],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

impl Bucket {
    #[inline]
    fn load(&self, i: usize) -> Entry {
        // Data first, then key: any interleaving with a writer is caught by the key check.
        let data = self.data[i].load(Ordering::Relaxed);
        Entry::from_words(self.keys[i].load(Ordering::Relaxed), data)
    }

    #[inline]
    fn save(&self, i: usize, e: Entry) {
        let data = e.data();
        self.data[i].store(data, Ordering::Relaxed);
        self.keys[i].store(e.key ^ fold(data), Ordering::Relaxed);
    }
}

/// A probe hit: the stored data (score still node-relative).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Packed move (see [`decode_move`]); 0 = none.
    pub mv: u16,
    pub score: i32,
    pub eval: i32,
    /// Depth in plies.
    pub depth: i32,
    pub bound: TtBound,
    /// The entry was stored by a PV node (such entries are kept longer). The search no longer
    /// reads it: the TT-PV mark that did (Stockfish's `ttPv`) failed its SPRTs and was removed.
    pub pv: bool,
}

/// The system refused the memory for a table of the requested size.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("cannot allocate a {mb} MiB hash table")]
pub struct TtAllocError {
    pub mb: usize,
}

/// `count` zeroed buckets, or `None` when the allocation fails.
fn zeroed_buckets(count: usize) -> Option<Vec<Bucket>> {
    let layout = Layout::array::<Bucket>(count).ok().filter(|l| l.size() > 0)?;
    // SAFETY: the layout has a non-zero size (checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<Bucket>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with the layout of `[Bucket; count]`, and
    // all-zero bytes are a valid `Bucket` (atomic integers only; equal to `Bucket::default()`).
    Some(unsafe { Vec::from_raw_parts(ptr, count, count) })
}

/// The transposition table.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

const GEN_MASK: u8 = 0xf8;
const GEN_STEP: u8 = 8;
const PV_BIT: u8 = 4;

impl TranspositionTable {
    /// A cleared table of `mb` MiB (at least one bucket).
    ///
    /// # Panics
    /// When the memory cannot be allocated; see [`TranspositionTable::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A cleared table of `mb` MiB (at least one bucket).
    ///
    /// # Errors
    /// [`TtAllocError`] when the system refuses the memory.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TtAllocError> {
        let bytes = mb.max(1).checked_mul(1024 * 1024).ok_or(TtAllocError { mb })?;
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let buckets = zeroed_buckets(count).ok_or(TtAllocError { mb })?;
        Ok(TranspositionTable { buckets, generation: 0 })
    }

    /// A cleared table of `count` buckets (at least one): small tables that are cleared often,
    /// such as the tuner's per-position quiescence probes.
    pub fn with_buckets(count: usize) -> TranspositionTable {
        TranspositionTable { buckets: (0..count.max(1)).map(|_| Bucket::default()).collect(), generation: 0 }
    }

    /// Size in MiB (as requested, rounded down to whole buckets).
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Re-allocates to `mb` MiB; the content is lost.
    ///
    /// # Errors
    /// [`TtAllocError`] when the memory cannot be had; the current table is kept as it was.
    pub fn resize(&mut self, mb: usize) -> Result<(), TtAllocError> {
        *self = TranspositionTable::try_new(mb)?;
        Ok(())
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
        self.generation = 0;
    }

    /// Starts a new search: entries from earlier searches age.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(GEN_STEP);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Hints the CPU to fetch the bucket of `key` (used right after making a move).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            // SAFETY: the pointer is in bounds of `buckets`; prefetch never faults anyway.
            let p = self.buckets.as_ptr().add(self.index(key)) as *const i8;
            std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let key32 = key as u32;
        let bucket = &self.buckets[self.index(key)];
        (0..BUCKET_ENTRIES).map(|i| bucket.load(i)).find(|e| e.key == key32 && e.is_used()).map(|e| TtHit {
            mv: e.mv,
            score: i32::from(e.score),
            eval: i32::from(e.eval),
            depth: i32::from(e.depth),
            bound: TtBound::from_bits(e.gen_bound),
            pv: e.gen_bound & PV_BIT != 0,
        })
    }

    /// Stores a result. `score` must already be node-relative; `mv == 0` keeps a stored move
    /// of the same position; `pv` marks a PV node's result (kept longer, and read back as
    /// [`TtHit::pv`]).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(&self, key: u64, mv: u16, score: i32, eval: i32, depth: i32, bound: TtBound, pv: bool) {
        let key32 = key as u32;
        let generation = self.generation;
        let bucket = &self.buckets[self.index(key)];
        let mut slot = 0;
        let mut old = Entry::default();
        let mut worst = i32::MAX;
        for i in 0..BUCKET_ENTRIES {
            let e = bucket.load(i);
            if e.key == key32 || !e.is_used() {
                slot = i;
                old = e;
                break;
            }
            let age = i32::from(generation.wrapping_sub(e.gen_bound & GEN_MASK) / GEN_STEP);
            let value = i32::from(e.depth) - 8 * age;
            if value < worst {
                worst = value;
                slot = i;
                old = e;
            }
        }
        let same = old.key == key32 && old.is_used();
        // Keep a deeper same-position result unless the new one is exact or the old one is stale.
        if same
            && bound != TtBound::Exact
            && i32::from(old.depth) > depth + 2 + i32::from(pv) * 2
            && old.gen_bound & GEN_MASK == generation
        {
            if old.mv == 0 && mv != 0 {
                bucket.save(slot, Entry { mv, ..old });
            }
            return;
        }
        let keep_move = same && mv == 0;
        bucket.save(
            slot,
            Entry {
                key: key32,
                mv: if keep_move { old.mv } else { mv },
                score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
                depth: depth.clamp(0, 255) as u8,
                gen_bound: generation | if pv { PV_BIT } else { 0 } | bound as u8,
            },
        );
    }

    /// Permille of entries written during the current search, sampled from the first 1000.
    pub fn hashfull(&self) -> u32 {
        let mut used: u32 = 0;
        let mut seen = 0;
        'outer: for b in &self.buckets {
            for i in 0..BUCKET_ENTRIES {
                if seen == 1000 {
                    break 'outer;
                }
                seen += 1;
                let e = b.load(i);
                if e.is_used() && e.gen_bound & GEN_MASK == self.generation {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

/// Packs a move into 16 bits (castling as king-to-rook). `None` packs to 0.
#[inline]
pub fn encode_move(m: Option<Move>) -> u16 {
    let Some(m) = m else { return 0 };
    let (from, to) = match m {
        Move::Castle { king, rook } => (king, rook),
        Move::Put { to, .. } => (to, to),
        _ => (m.from().unwrap_or(Square::A1), m.to()),
    };
    (from as u16) | ((to as u16) << 6) | (m.promotion().map_or(0, |r| r as u16) << 12)
}

/// Reconstructs a packed move in `pos`. The result is a well-formed move for the pieces on the
/// board but NOT necessarily legal: check it with `pos.is_legal(m)` before use.
#[inline]
pub fn decode_move(pos: &Chess, packed: u16) -> Option<Move> {
    if packed == 0 {
        return None;
    }
    let from = Square::new(u32::from(packed & 63));
    let to = Square::new(u32::from((packed >> 6) & 63));
    let promotion = match (packed >> 12) & 7 {
        2 => Some(Role::Knight),
        3 => Some(Role::Bishop),
        4 => Some(Role::Rook),
        5 => Some(Role::Queen),
        _ => None,
    };
    let board = pos.board();
    let us = board.by_color(pos.turn());
    if !us.contains(from) {
        return None;
    }
    let role = board.role_at(from)?;
    if role == Role::King && us.contains(to) && board.rooks().contains(to) {
        return Some(Move::Castle { king: from, rook: to });
    }
    if us.contains(to) {
        return None;
    }
    if role == Role::Pawn && from.file() != to.file() && !board.occupied().contains(to) {
        return Some(Move::EnPassant { from, to });
    }
    Some(Move::Normal { role, from, capture: board.role_at(to), to, promotion })
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    #[test]
    fn every_legal_move_round_trips() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            for m in pos.legal_moves() {
                assert_eq!(decode_move(&pos, encode_move(Some(m))), Some(m), "{fen} {m:?}");
            }
        }
    }

    #[test]
    fn store_probe_and_aging() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.size_mb(), 1);
        let key = 0x1234_5678_9abc_def0;
        assert!(tt.probe(key).is_none());
        tt.store(key, 77, 50, 20, 6, TtBound::Lower, false);
        let hit = tt.probe(key).unwrap();
        assert_eq!((hit.mv, hit.score, hit.eval, hit.depth, hit.bound, hit.pv), (77, 50, 20, 6, TtBound::Lower, false));
        tt.store(key, 77, 50, 20, 7, TtBound::Exact, true);
        let hit = tt.probe(key).unwrap();
        assert_eq!((hit.depth, hit.bound, hit.pv), (7, TtBound::Exact, true));
        // A shallower non-exact store keeps the deeper entry (but fills a missing move).
        tt.store(key, 0, -5, 20, 1, TtBound::Upper, false);
        assert_eq!(tt.probe(key).unwrap().depth, 7);
        assert!(tt.hashfull() > 0 || tt.buckets.len() * BUCKET_ENTRIES > 1000);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert!(tt.probe(key).is_none());
    }

    #[test]
    fn impossible_sizes_are_errors_and_keep_the_old_table() {
        let mut tt = TranspositionTable::new(2);
        tt.store(42, 7, 1, 1, 3, TtBound::Exact, false);
        // Overflows usize bytes, then exceeds any address space.
        assert_eq!(tt.resize(usize::MAX).unwrap_err(), TtAllocError { mb: usize::MAX });
        assert_eq!(tt.resize(usize::MAX >> 21).unwrap_err().mb, usize::MAX >> 21);
        assert_eq!(tt.size_mb(), 2);
        assert_eq!(tt.probe(42).unwrap().mv, 7);
        tt.resize(3).unwrap();
        assert_eq!(tt.size_mb(), 3);
        assert!(tt.probe(42).is_none(), "a resized table starts empty");
    }

    #[test]
    fn zeroed_memory_is_an_empty_table() {
        let tt = TranspositionTable::try_new(1).unwrap();
        assert!(tt.buckets.iter().all(|b| (0..BUCKET_ENTRIES).all(|i| b.load(i) == Entry::default())));
        assert!(tt.probe(0).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn entries_round_trip_through_the_packed_words() {
        let e = Entry { key: 0xdead_beef, mv: 0x7abc, score: -32000, eval: 1234, depth: 200, gen_bound: 0xfb };
        let b = Bucket::default();
        b.save(3, e);
        assert_eq!(b.load(3), e);
        assert_eq!(b.load(2), Entry::default());
    }

    /// The key word of one write with the data word of another (two threads storing into one
    /// slot at once) is rejected by the probe of either position.
    #[test]
    fn a_torn_entry_fails_the_key_check() {
        let mut tt = TranspositionTable::with_buckets(1);
        let (a, b) = (0x0000_0000_1111_1111u64, 0x0000_0000_2222_2222u64);
        tt.store(a, 11, 100, 10, 5, TtBound::Exact, false);
        let key_word_a = tt.buckets[0].keys[0].load(Ordering::Relaxed);
        tt.clear();
        tt.store(b, 22, -100, -10, 7, TtBound::Lower, false);
        assert_eq!(tt.probe(b).unwrap().mv, 22);
        // Now the slot holds a's key word and b's data word.
        tt.buckets[0].keys[0].store(key_word_a, Ordering::Relaxed);
        assert!(tt.probe(a).is_none());
        assert!(tt.probe(b).is_none());
    }

    /// What a thread stores for `key`: every field is derived from the key, so a hit whose
    /// fields do not match its key is a torn or foreign entry.
    fn payload(key: u64) -> (u16, i32, i32, i32) {
        let mv = (key >> 40) as u16 | 1;
        let score = i32::from((key >> 8) as i16);
        let eval = i32::from((key >> 24) as i16);
        (mv, score, eval, (key % 64) as i32)
    }

    /// Several threads store and probe at once into a small table (so that they fight over the
    /// same buckets): every hit is one some thread stored for exactly that key, never a mix.
    #[test]
    fn threads_store_and_probe_concurrently() {
        const THREADS: u64 = 4;
        const KEYS: u64 = 20_000;
        let tt = TranspositionTable::with_buckets(64);
        let key = |thread: u64, i: u64| {
            // splitmix64 of (thread, i): spread over all buckets and all 32-bit key words.
            let mut z = (thread << 32 | i).wrapping_add(0x9e37_79b9_7f4a_7c15);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let hits: u64 = std::thread::scope(|s| {
            let workers: Vec<_> = (0..THREADS)
                .map(|t| {
                    let tt = &tt;
                    s.spawn(move || {
                        let mut hits = 0;
                        for round in 0..3 {
                            for i in 0..KEYS {
                                let k = key(t, i);
                                let (mv, score, eval, depth) = payload(k);
                                tt.store(k, mv, score, eval, depth, TtBound::Exact, round == 0);
                                // Probe another thread's key as well as our own.
                                for probe_key in [k, key((t + 1) % THREADS, i)] {
                                    if let Some(h) = tt.probe(probe_key) {
                                        let (mv, score, eval, depth) = payload(probe_key);
                                        assert_eq!((h.mv, h.score, h.eval, h.depth), (mv, score, eval, depth));
                                        assert_eq!(h.bound, TtBound::Exact);
                                        hits += 1;
                                    }
                                }
                            }
                        }
                        hits
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        assert!(hits > 0);
        // Each thread's last store is still there unless someone replaced it since.
        let own = (0..THREADS).filter(|&t| tt.probe(key(t, KEYS - 1)).is_some()).count();
        assert!(own > 0);
    }
}
