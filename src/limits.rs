//! What a `go` command asks for. Built by the UCI layer (see [`crate::uci::command::GoCommand`]),
//! consumed by the time manager and search.

use std::time::Duration;

use shakmaty::Move;

/// Search limits of one `go`. Times are in milliseconds as UCI sends them; negative clock
/// values (a GUI that overstepped) are kept as sent and clamped by the time manager.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    /// `go ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the root to these moves; empty means all. The UCI loop resolves `go searchmoves`
    /// against the position (and reports bad entries); the search ignores any move that is not
    /// legal at the root, and repeats.
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(depth: u32) -> Self {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    pub fn nodes(nodes: u64) -> Self {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    pub fn movetime(time: Duration) -> Self {
        Limits { movetime: Some(time.as_millis() as u64), ..Limits::default() }
    }

    /// True when nothing bounds the search except `stop` (infinite, ponder, or no limit at all).
    pub fn is_unbounded(&self) -> bool {
        self.wtime.is_none()
            && self.btime.is_none()
            && self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
    }
}
