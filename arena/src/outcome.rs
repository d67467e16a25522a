//! How a game ended: the result, its PGN `Termination`, the reason. Both the game loop and
//! the adjudicator say it, so it sits below both.

use serde::{Deserialize, Serialize};
use shakmaty::Color;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameOutcome {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameOutcome {
    pub fn win_for(c: Color) -> GameOutcome {
        match c {
            Color::White => GameOutcome::WhiteWins,
            Color::Black => GameOutcome::BlackWins,
        }
    }

    pub fn winner(self) -> Option<Color> {
        match self {
            GameOutcome::WhiteWins => Some(Color::White),
            GameOutcome::BlackWins => Some(Color::Black),
            GameOutcome::Draw => None,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameOutcome::WhiteWins => "1-0",
            GameOutcome::BlackWins => "0-1",
            GameOutcome::Draw => "1/2-1/2",
        }
    }

    /// Points for `c`: 1, ½ or 0.
    pub fn score_for(self, c: Color) -> f64 {
        match self.winner() {
            None => 0.5,
            Some(w) if w == c => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// How a game ended, as in the PGN `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Termination {
    /// Mate, stalemate, repetition, 50 moves, insufficient material.
    Normal,
    Adjudication,
    TimeForfeit,
    IllegalMove,
    /// The engine exited or closed its output.
    Disconnect,
    /// No answer within the stall timeout (untimed search) or to `isready`.
    Stall,
    /// The match was stopped (SPRT decision, interrupt) while the game ran; not counted.
    Aborted,
}

impl Termination {
    /// The PGN `Termination` tag value (cutechess spelling).
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Disconnect => "abandoned",
            Termination::Stall => "stalled connection",
            Termination::Aborted => "unterminated",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    pub outcome: GameOutcome,
    pub termination: Termination,
    /// Human-readable reason, e.g. `White makes an illegal move: e2e5`.
    pub reason: String,
}

impl GameResult {
    pub fn new(outcome: GameOutcome, termination: Termination, reason: &str) -> GameResult {
        GameResult { outcome, termination, reason: reason.to_string() }
    }

    /// `side` lost because of `termination`.
    pub fn loss(side: Color, termination: Termination, reason: String) -> GameResult {
        GameResult { outcome: GameOutcome::win_for(!side), termination, reason }
    }
}
