//! Engine facade: everything a front end (UCI loop, tests, bench, tuner) needs, with no I/O.
//!
//! `go` is non-blocking: the search runs on its own thread and reports through a
//! [`SearchListener`]; `stop`, `ponderhit` and `wait` control it. Every setter that changes
//! search state waits for a running search to finish first.
//!
//! With a book loaded and `own_book` on, `go` may answer from the book instead (see
//! [`Engine::book_move`]): the listener gets an `on_string` and the `on_bestmove` before `go`
//! returns, and no search runs.
//!
//! The facade depends on the search, never the reverse: what a search reports (info lines,
//! best move, the listener trait) lives in [`crate::search::report`].
//!
//! CONTRACT (shared by the search and UCI work): signatures below are fixed; bodies are filled by
//! the search implementation.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    thread::JoinHandle,
};

use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen, uci::UciMove};
use thiserror::Error;

use crate::{
    book::{self, Book},
    limits::Limits,
    params::Params,
    search::{
        Searcher,
        report::{BestMove, SearchListener},
        thread::SEARCH_STACK_BYTES,
    },
    zobrist::hash,
};

/// Why an engine request was refused. The engine state is unchanged when one is returned.
#[derive(Debug, Error)]
pub enum EngineError {
    #[error("invalid FEN `{fen}`: {reason}")]
    InvalidFen { fen: String, reason: String },
    #[error("illegal move `{mv}` in position `{fen}`")]
    IllegalMove { mv: String, fen: String },
    #[error("invalid move `{mv}`: {reason}")]
    InvalidMove { mv: String, reason: String },
    #[error("cannot load Syzygy tables from `{path}`: {reason}")]
    Syzygy { path: String, reason: String },
    #[error(transparent)]
    Params(#[from] crate::params::ParamError),
    #[error("{0}; keeping the {kept} MiB table", kept = .1)]
    Hash(crate::tt::TtAllocError, usize),
    #[error("{0}; keeping the previous book")]
    Book(#[from] crate::book::BookError),
}

/// A move `go` plays from the book, with its weight and the total weight of the position's
/// playable book moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookChoice {
    pub mv: Move,
    pub weight: u16,
    pub total: u64,
}

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Default Move Overhead in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;

/// Front-end independent engine state: position, parameters, hash table, options.
///
/// While a search runs, the [`Searcher`] (table, histories, tablebases) lives on the search
/// thread and comes back when it ends; that is why setters touching it wait for the search.
/// Call [`Engine::stop`] first when the running search is infinite or pondering.
pub struct Engine {
    params: Params,
    pos: Chess,
    /// Zobrist keys of the game positions before `pos` (for repetition detection).
    history: Vec<u64>,
    searcher: Option<Box<Searcher>>,
    handle: Option<JoinHandle<Box<Searcher>>>,
    stop: Arc<AtomicBool>,
    ponder: Arc<AtomicBool>,
    threads: usize,
    book: Option<Book>,
    own_book: bool,
    /// `ucinewgame`s so far: varies the book choices from game to game, reproducibly.
    games: u64,
}

impl Engine {
    /// Default parameters, 16 MiB hash, start position.
    pub fn new() -> Engine {
        let params = Params::default();
        let mut searcher = Box::new(Searcher::new(params.clone(), DEFAULT_HASH_MB));
        searcher.set_move_overhead_ms(DEFAULT_MOVE_OVERHEAD_MS);
        Engine {
            params,
            pos: Chess::default(),
            history: Vec::new(),
            searcher: Some(searcher),
            handle: None,
            stop: Arc::new(AtomicBool::new(false)),
            ponder: Arc::new(AtomicBool::new(false)),
            threads: 1,
            book: None,
            own_book: false,
            games: 0,
        }
    }

    pub fn params(&self) -> &Params {
        &self.params
    }

    /// The idle searcher (waits for a running search to hand it back).
    fn searcher(&mut self) -> &mut Searcher {
        self.wait();
        self.searcher.as_mut().expect("searcher is home after wait")
    }

    /// Replaces all parameters (waits for a running search).
    pub fn set_params(&mut self, params: Params) {
        self.searcher().set_params(params.clone());
        self.params = params;
    }

    /// Resizes the transposition table to `mb` MiB (clears it).
    ///
    /// # Errors
    /// [`EngineError::Hash`] when the memory cannot be had; the old table is kept.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), EngineError> {
        let searcher = self.searcher();
        searcher.set_hash_mb(mb.max(1)).map_err(|e| EngineError::Hash(e, searcher.hash_mb()))
    }

    pub fn clear_hash(&mut self) {
        self.searcher().clear_hash();
    }

    /// Search threads (Lazy SMP): the main search thread plus `threads - 1` helpers, at least 1.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        let threads = self.threads;
        self.searcher().set_threads(threads);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn set_move_overhead_ms(&mut self, ms: u64) {
        self.searcher().set_move_overhead_ms(ms);
    }

    pub fn set_multipv(&mut self, lines: u32) {
        self.searcher().set_multipv(lines);
    }

    /// Loads Syzygy tables from a path list (`:`-separated; `<empty>` or "" disables).
    /// Returns the number of table files found.
    pub fn set_syzygy_path(&mut self, path: &str) -> Result<usize, EngineError> {
        self.searcher()
            .tablebases_mut()
            .load(path)
            .map_err(|e| EngineError::Syzygy { path: path.to_string(), reason: e.to_string() })
    }

    pub fn set_syzygy_probe_depth(&mut self, depth: u32) {
        self.searcher().tablebases_mut().probe_depth = depth.min(i32::MAX as u32) as i32;
    }

    /// Loads the Polyglot book `go` plays from when [`Engine::set_own_book`] is on; "" unloads
    /// it. Returns the number of entries (0 when unloaded).
    ///
    /// # Errors
    /// [`EngineError::Book`] naming the file and the problem; the previous book is kept.
    pub fn set_book_file(&mut self, path: &str) -> Result<usize, EngineError> {
        self.book = if path.is_empty() { None } else { Some(Book::open(path)?) };
        Ok(self.book.as_ref().map_or(0, Book::len))
    }

    /// `OwnBook`: whether `go` plays book moves.
    pub fn set_own_book(&mut self, on: bool) {
        self.own_book = on;
    }

    /// The move `go` with `limits` would play from the book now, if any.
    ///
    /// Only searches that end by themselves are answered from the book: `infinite`, `ponder`
    /// and a `go` without limits wait for `stop`, and `mate` asks for a proof. `searchmoves`
    /// restricts the book moves too. The weighted choice is drawn from the position key, the
    /// game ply and the number of `ucinewgame`s so far ([`book::choice_seed`]), so a session
    /// replays identically.
    pub fn book_move(&self, limits: &Limits) -> Option<BookChoice> {
        let book = self.book.as_ref().filter(|_| self.own_book)?;
        if limits.infinite || limits.ponder || limits.is_unbounded() || limits.mate.is_some() {
            return None;
        }
        let mut moves = book.moves(&self.pos);
        if !limits.searchmoves.is_empty() {
            moves.retain(|(m, _)| limits.searchmoves.contains(m));
        }
        let ply = 2 * (self.pos.fullmoves().get() - 1) + u32::from(self.pos.turn().is_black());
        let (mv, weight) = book::pick(&moves, book::choice_seed(hash(&self.pos), ply, self.games))?;
        Some(BookChoice { mv, weight, total: book::total_weight(&moves) })
    }

    /// `ucinewgame`: clears hash, history and killers.
    pub fn new_game(&mut self) {
        self.searcher().clear();
        self.games += 1;
    }

    /// `position [fen F | startpos] moves ...`. `fen == None` is the start position.
    /// On error the previous position is kept.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), EngineError> {
        let mut pos = match fen {
            None => Chess::default(),
            Some(text) => {
                let text = text.trim();
                let invalid = |reason: String| EngineError::InvalidFen { fen: text.to_string(), reason };
                let parsed: Fen = text.parse().map_err(|e: shakmaty::fen::ParseFenError| invalid(e.to_string()))?;
                parsed.into_position(CastlingMode::Standard).map_err(|e| invalid(e.to_string()))?
            }
        };
        let mut history = Vec::with_capacity(moves.len());
        for &mv in moves {
            let uci: UciMove = mv.parse().map_err(|e: shakmaty::uci::ParseUciMoveError| EngineError::InvalidMove {
                mv: mv.to_string(),
                reason: e.to_string(),
            })?;
            let m = uci.to_move(&pos).map_err(|_| EngineError::IllegalMove {
                mv: mv.to_string(),
                fen: Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string(),
            })?;
            history.push(hash(&pos));
            pos.play_unchecked(m);
        }
        self.pos = pos;
        self.history = history;
        Ok(())
    }

    pub fn position(&self) -> &Chess {
        &self.pos
    }

    /// Starts searching the current position and returns at once. A search still running is
    /// stopped first (it reports its own best move). A book move ([`Engine::book_move`]) is
    /// reported at once instead of searching.
    pub fn go(&mut self, limits: Limits, mut listener: Box<dyn SearchListener>) {
        if self.handle.is_some() {
            self.stop();
            self.wait();
        }
        if let Some(choice) = self.book_move(&limits) {
            let text = choice.mv.to_uci(CastlingMode::Standard);
            listener.on_string(&format!("book move {text} weight {} of {}", choice.weight, choice.total));
            listener.on_bestmove(&BestMove { best: Some(choice.mv), ponder: None });
            return;
        }
        let mut searcher = self.searcher.take().expect("searcher is home when idle");
        self.stop.store(false, Ordering::Release);
        self.ponder.store(limits.ponder, Ordering::Release);
        let stop = Arc::clone(&self.stop);
        let ponder = Arc::clone(&self.ponder);
        let pos = self.pos.clone();
        let history = self.history.clone();
        let spawned =
            std::thread::Builder::new().name("search".into()).stack_size(SEARCH_STACK_BYTES).spawn(move || {
                searcher.search_with_ponder(&pos, &history, &limits, &stop, Some(&ponder), &mut *listener);
                searcher
            });
        match spawned {
            Ok(handle) => self.handle = Some(handle),
            Err(e) => panic!("cannot start the search thread: {e}"),
        }
    }

    /// Asks a running search to stop; it still reports `on_bestmove`.
    pub fn stop(&self) {
        self.ponder.store(false, Ordering::Release);
        self.stop.store(true, Ordering::Release);
    }

    /// The opponent played the ponder move: switch the pondering search to normal time control.
    pub fn ponderhit(&self) {
        self.ponder.store(false, Ordering::Release);
    }

    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Blocks until the running search (if any) has reported its best move.
    pub fn wait(&mut self) {
        if let Some(handle) = self.handle.take() {
            match handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                // The search thread panicked: keep the engine usable with a fresh searcher.
                Err(_) => {
                    let mut s = Box::new(Searcher::new(self.params.clone(), DEFAULT_HASH_MB));
                    s.set_move_overhead_ms(DEFAULT_MOVE_OVERHEAD_MS);
                    s.set_threads(self.threads);
                    self.searcher = Some(s);
                }
            }
        }
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{Entry, encode_move};

    /// A move of the start position, from UCI notation.
    fn start_move(uci: &str) -> Move {
        uci.parse::<UciMove>().unwrap().to_move(&Chess::default()).unwrap()
    }

    /// A book with e2e4 (weight 3) and d2d4 (1) for the start position.
    fn engine_with_book() -> Engine {
        let key = hash(&Chess::default());
        let entry = |m: &str, weight| Entry { key, raw_move: encode_move(start_move(m)).unwrap(), weight };
        let bytes: Vec<u8> = [entry("e2e4", 3), entry("d2d4", 1)].iter().flat_map(|e| e.to_bytes()).collect();
        // One file per call: tests run in parallel.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = CALLS.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("evochess-engine-book-{}-{n}.bin", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let mut engine = Engine::new();
        assert_eq!(engine.set_book_file(path.to_str().unwrap()).unwrap(), 2);
        std::fs::remove_file(&path).unwrap();
        engine
    }

    fn played(choice: Option<BookChoice>) -> Option<String> {
        choice.map(|c| c.mv.to_uci(CastlingMode::Standard).to_string())
    }

    #[test]
    fn book_moves_need_own_book_and_a_self_ending_search() {
        let mut engine = engine_with_book();
        assert_eq!(engine.book_move(&Limits::depth(5)), None); // OwnBook is off
        engine.set_own_book(true);
        let choice = engine.book_move(&Limits::nodes(1000)).unwrap();
        assert_eq!(choice.total, 4);
        assert!(matches!(played(Some(choice)).as_deref(), Some("e2e4" | "d2d4")));
        // Searches a GUI has to stop, and mate searches, are not answered from the book.
        for limits in [
            Limits { infinite: true, ..Limits::default() },
            Limits { ponder: true, wtime: Some(1000), btime: Some(1000), ..Limits::default() },
            Limits::default(),
            Limits { mate: Some(2), ..Limits::default() },
        ] {
            assert_eq!(engine.book_move(&limits), None, "{limits:?}");
        }
        let only =
            |moves: &[&str]| Limits { searchmoves: moves.iter().map(|s| start_move(s)).collect(), ..Limits::depth(3) };
        assert_eq!(played(engine.book_move(&only(&["d2d4"]))).as_deref(), Some("d2d4"));
        assert_eq!(engine.book_move(&only(&["c2c4"])), None);
        engine.set_position(None, &["e2e4"]).unwrap();
        assert_eq!(engine.book_move(&Limits::depth(3)), None); // out of book
    }

    #[test]
    fn book_choices_are_reproducible_and_vary_between_games() {
        let games = |engine: &mut Engine| -> Vec<String> {
            engine.set_own_book(true);
            (0..16)
                .map(|_| {
                    engine.new_game();
                    played(engine.book_move(&Limits::depth(1))).unwrap()
                })
                .collect()
        };
        let first = games(&mut engine_with_book());
        assert_eq!(first, games(&mut engine_with_book()));
        assert!(first.iter().any(|m| m == "e2e4") && first.iter().any(|m| m == "d2d4"), "{first:?}");
    }

    #[test]
    fn a_bad_book_file_keeps_the_previous_book() {
        let mut engine = engine_with_book();
        engine.set_own_book(true);
        let e = engine.set_book_file("/no/such/book.bin").unwrap_err().to_string();
        assert!(e.contains("/no/such/book.bin") && e.contains("keeping the previous book"), "{e}");
        assert!(engine.book_move(&Limits::depth(1)).is_some());
        assert_eq!(engine.set_book_file("").unwrap(), 0);
        assert_eq!(engine.book_move(&Limits::depth(1)), None);
    }
}
