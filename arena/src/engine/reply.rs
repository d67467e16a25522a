//! What an engine's turn comes to, in words both clients use: [`crate::engine::client`] wraps
//! the clients, and the xboard client answers in these terms too.

use crate::engine::uci::SearchResult;

/// What an engine did with its turn.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A move (still to be checked by the game). `claims_draw`: an xboard engine claimed a draw
    /// just before it, which the move must bring about.
    Move {
        found: SearchResult,
        claims_draw: bool,
    },
    Resign,
    /// A claim of its own win while the game is undecided (the whole line, for the record).
    FalseClaim(String),
}

/// Why an engine's move text could not be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadMove {
    /// Not a move in any notation the protocol allows.
    Invalid,
    /// A well-formed move that is not legal in the position.
    Illegal,
}
