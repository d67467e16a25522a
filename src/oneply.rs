//! The 1-ply search of David et al. §III-B, used in-process by `tuner evolve`:
//! play every legal move, evaluate the child statically, keep the best.

use shakmaty::{Chess, Move, Position};

use crate::eval::{EvalParams, evaluate};

/// Score of a child that is checkmate (beats any static evaluation).
const MATE: i32 = 1_000_000;

/// The move a 1-ply search chooses, or `None` without legal moves. Mate is preferred, stalemate
/// scores 0, ties keep the first move in generation order so results are deterministic.
pub fn best_move(pos: &Chess, params: &EvalParams) -> Option<Move> {
    let mut best: Option<(i32, Move)> = None;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let score = if child.is_checkmate() {
            MATE
        } else if child.is_stalemate() {
            0
        } else {
            -evaluate(&child, params)
        };
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, m));
        }
    }
    best.map(|(_, m)| m)
}
