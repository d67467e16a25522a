//! One engine of a game, whatever protocol it speaks: [`EngineClient`] wraps a UCI or an xboard
//! client behind the few calls the game loop and the runner make (new game, think, end game,
//! quit), so every command that plays games takes either kind from the same
//! [`crate::engine::spec::EngineSpec`].

use std::{str::FromStr, time::Duration};

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, uci::UciMove};

use crate::{
    engine::{
        reply::{BadMove, Reply},
        transport::EngineError,
        uci::{Go, UciClient},
        xboard::{self, XboardClient},
    },
    tc::SearchLimits,
};

/// The protocol an engine speaks (cutechess's `proto=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    #[default]
    Uci,
    /// CECP, version 2 (or 1).
    Xboard,
}

impl Protocol {
    pub fn is_uci(&self) -> bool {
        *self == Protocol::Uci
    }
}

impl FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s {
            "uci" => Ok(Protocol::Uci),
            "xboard" => Ok(Protocol::Xboard),
            _ => Err("expected uci or xboard".into()),
        }
    }
}

/// A running engine.
pub enum EngineClient {
    Uci(UciClient),
    Xboard(XboardClient),
}

impl EngineClient {
    pub fn label(&self) -> &str {
        match self {
            EngineClient::Uci(c) => c.label(),
            EngineClient::Xboard(c) => c.label(),
        }
    }

    /// False once the engine crashed, stalled or fell out of step.
    pub fn is_healthy(&self) -> bool {
        match self {
            EngineClient::Uci(c) => c.is_healthy(),
            EngineClient::Xboard(c) => c.is_healthy(),
        }
    }

    /// Whether the process may play another game: healthy, and (xboard) it did not ask for a
    /// fresh process per game with `reuse=0`.
    pub fn reusable(&self) -> bool {
        match self {
            EngineClient::Uci(c) => c.is_healthy(),
            EngineClient::Xboard(c) => c.reusable(),
        }
    }

    /// Whether games may start from a FEN position (xboard engines need `setboard`).
    pub fn plays_from_fen(&self) -> bool {
        match self {
            EngineClient::Uci(_) => true,
            EngineClient::Xboard(c) => c.features.setboard,
        }
    }

    /// Prepares a game from `start` (the position before the opening moves) under `limits`.
    pub fn new_game(&mut self, start: &Chess, limits: &SearchLimits) -> Result<(), EngineError> {
        match self {
            EngineClient::Uci(c) => c.new_game(),
            EngineClient::Xboard(c) => c.new_game(start, limits),
        }
    }

    /// The engine's turn after `moves` (UCI, standard castling) from `fen` (`None`: the standard
    /// start), with the limits and clocks of `go`; waits up to `deadline`.
    pub fn think(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        go: &Go,
        deadline: Duration,
    ) -> Result<Reply, EngineError> {
        match self {
            EngineClient::Uci(c) => {
                c.position(fen, moves)?;
                let found = c.go(go, deadline)?;
                Ok(Reply::Move { found, claims_draw: false })
            }
            EngineClient::Xboard(c) => c.think(moves, go, deadline),
        }
    }

    /// The move an engine's text names in `pos`, in the notations its protocol allows: UCI
    /// coordinates for UCI, coordinates or SAN for xboard.
    pub fn parse_move(&self, pos: &Chess, text: &str) -> Result<Move, BadMove> {
        match self {
            EngineClient::Uci(_) => {
                let uci = text.parse::<UciMove>().map_err(|_| BadMove::Invalid)?;
                uci.to_move(pos).map_err(|_| BadMove::Illegal)
            }
            EngineClient::Xboard(_) => xboard::parse_move(pos, text),
        }
    }

    /// Tells the engine the game is over (`result` for xboard; UCI has no such command).
    pub fn end_game(&mut self, result: &str, reason: &str) {
        if let EngineClient::Xboard(c) = self {
            c.end_game(result, reason);
        }
    }

    /// `quit`, then kill if the engine does not exit within the quit timeout.
    pub fn quit(self) {
        match self {
            EngineClient::Uci(c) => c.quit(),
            EngineClient::Xboard(c) => c.quit(),
        }
    }
}
