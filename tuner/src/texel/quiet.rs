//! Quiet positions for Texel tuning. A position's static evaluation says little where a capture
//! is pending, so each sampled position is replaced by the end of its quiescence line: while the
//! engine's qsearch scores the position above its static evaluation, the capture or promotion
//! whose reply scores best is played. Positions in check on the way are dropped (the
//! qsearch's evasions are not a line of captures), as are lines longer than [`MAX_PLIES`].

use evochess::{eval::Evaluator, measure::quiescence_probe::QuiescenceProbe, params::Params, zobrist::hash};
use shakmaty::{Chess, Move, Position};

/// Longest capture line followed before the position is dropped.
pub const MAX_PLIES: usize = 16;

/// Follows qsearch lines under one parameter set (one per thread: the probe is reused).
pub struct Resolver {
    eval: Evaluator,
    probe: QuiescenceProbe,
}

impl Resolver {
    pub fn new(params: &Params) -> Resolver {
        Resolver { eval: Evaluator::new(&params.eval), probe: QuiescenceProbe::new(&params.search) }
    }

    fn qsearch(&mut self, pos: &Chess) -> i32 {
        self.probe.score(&self.eval, pos, hash(pos))
    }

    /// The quiet end of `pos`'s quiescence line and the plies played to reach it, or `None`
    /// when the line meets a check, a position without moves or runs past [`MAX_PLIES`].
    pub fn resolve(&mut self, pos: &Chess) -> Option<(Chess, usize)> {
        let mut pos = pos.clone();
        for plies in 0..=MAX_PLIES {
            if pos.is_check() || pos.legal_moves().is_empty() {
                return None;
            }
            let stand_pat = self.eval.evaluate(&pos);
            if self.qsearch(&pos) <= stand_pat {
                return Some((pos, plies));
            }
            let noisy: Vec<Move> =
                pos.legal_moves().into_iter().filter(|m| m.is_capture() || m.is_promotion()).collect();
            let mut best: Option<(i32, Move)> = None;
            for m in noisy {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let score = -self.qsearch(&child);
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, m));
                }
            }
            // The qsearch's gain came through a line this replay cannot follow (pruning that
            // differs at the root): keep the sample out rather than label a noisy position.
            let (score, m) = best?;
            if score <= stand_pat {
                return None;
            }
            pos.play_unchecked(m);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn a_quiet_position_stays_and_a_hanging_piece_is_taken() {
        let mut r = Resolver::new(&Params::default());
        let start = Chess::default();
        assert_eq!(r.resolve(&start), Some((start.clone(), 0)));
        // White to move can take the undefended queen on d5 with the knight on c3.
        let hanging = position("4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1");
        let (quiet, plies) = r.resolve(&hanging).expect("resolves");
        assert_eq!(plies, 1);
        assert_eq!(
            Fen::from_position(&quiet, shakmaty::EnPassantMode::Legal).to_string(),
            "4k3/8/8/3N4/8/8/8/4K3 b - - 0 1"
        );
        // In check: dropped.
        assert_eq!(r.resolve(&position("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")), None);
    }
}
