//! Syzygy endgame tablebases: WDL probes inside the search, DTZ at the root.
//!
//! * In search only WDL tables are used, through `probe_wdl_after_zeroing`, which is exact only
//!   right after a capture or pawn move: we probe only when the halfmove clock is 0, no castling
//!   rights remain and few enough pieces are left.
//! * At the root, DTZ (`best_move`) picks a move that keeps the tablebase result and makes
//!   progress under the 50-move rule; the search is then restricted to the moves that keep it.
//! * With no tables loaded every probe is skipped (`max_pieces() == 0`).

use std::sync::Arc;

use shakmaty::{Chess, Move, Position};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};

/// Why a tablebase path could not be loaded.
#[derive(Debug, thiserror::Error)]
#[error("cannot read Syzygy directory `{dir}`: {reason}")]
pub struct TbError {
    pub dir: String,
    pub reason: String,
}

/// Loaded tables (shared, read-only) plus the probing policy.
#[derive(Clone, Default)]
pub struct Tablebases {
    tb: Option<Arc<Tablebase<Chess>>>,
    max_pieces: usize,
    /// Minimum remaining depth (plies) for in-search probes.
    pub probe_depth: i32,
}

/// Outcome of the root DTZ probe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootTb {
    /// WDL of the root for the side to move. It comes from DTZ and the halfmove clock, so where
    /// DTZ is rounded it may be `MaybeWin` or `MaybeLoss`.
    pub wdl: AmbiguousWdl,
    /// The moves the search may choose from (all keep the root's result).
    pub moves: Vec<Move>,
}

impl Tablebases {
    /// Loads every table found in `path`, a `:`-separated directory list (`;` on Windows).
    /// An empty path or `<empty>` unloads the tables. Returns the number of files found.
    pub fn load(&mut self, path: &str) -> Result<usize, TbError> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" {
            self.tb = None;
            self.max_pieces = 0;
            return Ok(0);
        }
        let sep = if cfg!(windows) { ';' } else { ':' };
        let mut tb = Tablebase::new();
        let mut files = 0;
        for dir in path.split(sep).map(str::trim).filter(|d| !d.is_empty()) {
            files += tb.add_directory(dir).map_err(|e| TbError { dir: dir.to_string(), reason: e.to_string() })?;
        }
        self.max_pieces = tb.max_pieces();
        self.tb = (files > 0).then(|| Arc::new(tb));
        Ok(files)
    }

    /// Largest piece count (kings included) the loaded tables cover; 0 when none are loaded.
    pub fn max_pieces(&self) -> usize {
        if self.tb.is_some() { self.max_pieces } else { 0 }
    }

    /// Is `pos` small enough to be in the tables at all (ignoring the halfmove clock)?
    #[inline]
    pub fn covers(&self, pos: &Chess) -> bool {
        self.tb.is_some() && pos.castles().is_empty() && pos.board().occupied().count() <= self.max_pieces
    }

    /// WDL of `pos` for the side to move, only where it is exact: right after a zeroing move.
    #[inline]
    pub fn probe_wdl(&self, pos: &Chess) -> Option<Wdl> {
        if pos.halfmoves() != 0 || !self.covers(pos) {
            return None;
        }
        self.tb.as_ref()?.probe_wdl_after_zeroing(pos).ok()
    }

    /// Root probe: the WDL of the root and the moves that preserve it. For a win or a loss only
    /// the DTZ-best move is kept (it makes progress, or resists longest); for a draw every
    /// drawing move is kept. `None` when the root is not in the tables.
    pub fn probe_root(&self, pos: &Chess) -> Option<RootTb> {
        if !self.covers(pos) {
            return None;
        }
        let tb = self.tb.as_ref()?;
        let wdl = tb.probe_wdl(pos).ok()?;
        if wdl != AmbiguousWdl::Draw {
            let (best, _) = tb.best_move(pos).ok()??;
            return Some(RootTb { wdl, moves: vec![best] });
        }
        let mut moves = Vec::new();
        for m in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let child_wdl = if child.is_checkmate() { AmbiguousWdl::Loss } else { tb.probe_wdl(&child).ok()? };
            // Keeps the draw: the opponent wins nothing, not even a cursed or maybe-win.
            if child_wdl <= AmbiguousWdl::Draw {
                moves.push(m);
            }
        }
        (!moves.is_empty()).then_some(RootTb { wdl, moves })
    }
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("loaded", &self.tb.is_some())
            .field("max_pieces", &self.max_pieces)
            .field("probe_depth", &self.probe_depth)
            .finish()
    }
}
