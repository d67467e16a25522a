//! Engine facade: everything a front end (UCI loop, tests, bench, tuner) needs, with no I/O.
//!
//! `go` is non-blocking: the search runs on its own thread and reports through a
//! [`SearchListener`]; `stop`, `ponderhit` and `wait` control it. Every setter that changes
//! search state waits for a running search to finish first.
//!
//! CONTRACT (shared by the search and UCI work): signatures below are fixed; bodies are filled by
//! the search implementation.

use shakmaty::{Chess, Move};
use thiserror::Error;

use crate::{limits::Limits, params::Params};

/// Score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreReport {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in N moves (negative: being mated).
    Mate(i32),
}

/// Whether a reported score is exact or a bound from a failed aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of the PV line (MultiPV).
    pub multipv: u32,
    pub score: ScoreReport,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    pub tbhits: u64,
    pub time_ms: u64,
    /// Legal from the searched position, move after move.
    pub pv: Vec<Move>,
}

/// The final answer of a search. `best == None` means no legal move (`bestmove 0000`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
}

/// Receives search output; called from the search thread.
pub trait SearchListener: Send {
    fn on_info(&mut self, info: &SearchInfo);
    /// Free-form diagnostics (`info string ...`).
    fn on_string(&mut self, _text: &str) {}
    fn on_bestmove(&mut self, best: &BestMove);
}

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
}

/// Front-end independent engine state: position, parameters, hash table, options.
pub struct Engine {
    _private: (),
}

impl Engine {
    /// Default parameters, 16 MiB hash, start position.
    pub fn new() -> Engine {
        todo!()
    }

    pub fn params(&self) -> &Params {
        todo!()
    }

    /// Replaces all parameters (waits for a running search).
    pub fn set_params(&mut self, _params: Params) {
        todo!()
    }

    /// Resizes the transposition table to `mb` MiB (clears it).
    pub fn set_hash_mb(&mut self, _mb: usize) {
        todo!()
    }

    pub fn clear_hash(&mut self) {
        todo!()
    }

    pub fn set_threads(&mut self, _threads: usize) {
        todo!()
    }

    pub fn set_move_overhead_ms(&mut self, _ms: u64) {
        todo!()
    }

    pub fn set_multipv(&mut self, _lines: u32) {
        todo!()
    }

    /// Loads Syzygy tables from a path list (`:`-separated; `<empty>` or "" disables).
    /// Returns the number of table files found.
    pub fn set_syzygy_path(&mut self, _path: &str) -> Result<usize, EngineError> {
        todo!()
    }

    pub fn set_syzygy_probe_depth(&mut self, _depth: u32) {
        todo!()
    }

    /// `ucinewgame`: clears hash, history and killers.
    pub fn new_game(&mut self) {
        todo!()
    }

    /// `position [fen F | startpos] moves ...`. `fen == None` is the start position.
    /// On error the previous position is kept.
    pub fn set_position(&mut self, _fen: Option<&str>, _moves: &[&str]) -> Result<(), EngineError> {
        todo!()
    }

    pub fn position(&self) -> &Chess {
        todo!()
    }

    /// Starts searching the current position and returns at once.
    pub fn go(&mut self, _limits: Limits, _listener: Box<dyn SearchListener>) {
        todo!()
    }

    /// Asks a running search to stop; it still reports `on_bestmove`.
    pub fn stop(&self) {
        todo!()
    }

    /// The opponent played the ponder move: switch the pondering search to normal time control.
    pub fn ponderhit(&self) {
        todo!()
    }

    pub fn is_searching(&self) -> bool {
        todo!()
    }

    /// Blocks until the running search (if any) has reported its best move.
    pub fn wait(&mut self) {
        todo!()
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}
