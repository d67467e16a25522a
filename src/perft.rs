//! Perft: count leaf nodes of the legal move tree, by shakmaty's generator and through our
//! [`MovePicker`] (Viridithas `movepicker_perft`). Both must agree: the picker has to yield
//! every legal move exactly once, whatever TT move, killers and countermove it is handed.

use std::sync::atomic::{AtomicBool, Ordering};

use shakmaty::{Chess, Move, Position};

use crate::{
    movepick::MovePicker,
    search::history::{History, PieceTo},
};

/// Leaf count at `depth` via shakmaty (bulk-counted at the last ply).
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    shakmaty::perft(pos, depth)
}

/// Like [`perft`], but gives up soon after `stop` is set (`None`): the flag is read at every
/// node more than three plies from the leaves, so a `perft 9` typed into the UCI loop ends within
/// a few milliseconds of `stop` or `quit`.
pub fn perft_until(pos: &Chess, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= 3 {
        return Some(shakmaty::perft(pos, depth));
    }
    let mut nodes = 0;
    for m in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += perft_until(&child, depth - 1, stop)?;
    }
    Some(nodes)
}

/// Leaf count at `depth` with every node's moves drawn from a main-search [`MovePicker`].
///
/// To exercise every stage, each node gets the last legal move as its "TT move", the first two
/// moves tried at the previous sibling subtree as "killers" (often illegal here, so they must be
/// filtered) and the parent's move as the countermove.
pub fn movepicker_perft(pos: &Chess, depth: u32) -> u64 {
    let hist = History::new();
    let mut killers = [None; 2];
    picker_perft(pos, depth, &hist, &mut killers, None)
}

fn picker_perft(pos: &Chess, depth: u32, hist: &History, killers: &mut [Option<Move>; 2], parent: Option<Move>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let tt = pos.legal_moves().last().copied();
    let prev = parent.map(|m| PieceTo::new(!pos.turn(), m));
    let mut mp = MovePicker::new(pos.is_check(), tt, *killers, parent, prev, None, shakmaty::Bitboard::EMPTY);
    let mut child_killers = [None; 2];
    let mut nodes = 0;
    let mut tried = 0;
    while let Some(m) = mp.next(pos, hist) {
        if tried < 2 {
            killers[tried] = Some(m);
        }
        tried += 1;
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += picker_perft(&child, depth - 1, hist, &mut child_killers, Some(m));
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let pos = Chess::default();
        assert_eq!(perft(&pos, 3), 8902);
        assert_eq!(movepicker_perft(&pos, 3), 8902);
        assert_eq!(perft_until(&pos, 5, &AtomicBool::new(false)), Some(4_865_609));
        assert_eq!(perft_until(&pos, 9, &AtomicBool::new(true)), None);
    }
}
