//! What Texel fits, a position labelled with its game's result (and perhaps a score), and the
//! mean squared error of the evaluation's winning chances against those labels.

use evochess::{eval::Evaluator, params::Params};
use shakmaty::Chess;

use super::win_chance;
use crate::ga::par_map;

/// A labelled position: what Texel fits. `result` is the game's result for the side to move
/// (1, ½, 0); `score` an optional score of the position in centipawns, side to move's view
/// (a search's or a mentor's), which the gradient fit blends into its target by `lambda`.
/// Today's source is [`super::sets::quiet_positions`] (PGN games, no score); a reader of
/// self-play data feeds the same struct.
#[derive(Clone, Debug)]
pub struct Labelled {
    pub pos: Chess,
    pub result: f64,
    pub score: Option<f64>,
}

/// Fixed chunks, so that the sum's order, and with it every loss to the last bit, does not
/// depend on the thread count.
const LOSS_CHUNK: usize = 512;

/// Static evaluations of `set` under `params`, as `(score, result)` samples.
pub(super) fn samples(set: &[Labelled], params: &Params, threads: usize) -> Vec<(f64, f64)> {
    let chunks: Vec<&[Labelled]> = set.chunks(LOSS_CHUNK).collect();
    par_map(&chunks, threads, |chunk| {
        let eval = Evaluator::new(&params.eval);
        chunk.iter().map(|l| (f64::from(eval.evaluate(&l.pos)), l.result)).collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Mean squared error of sigmoid(K · static evaluation) against the game results over `set`
/// under `params`.
pub fn mse(set: &[Labelled], params: &Params, k: f64, threads: usize) -> f64 {
    mse_against(set, params, k, threads, 1.0)
}

/// Mean squared error of sigmoid(K · static evaluation) over `set` under `params` against the
/// gradient fit's target `lambda · result + (1 − lambda) · sigmoid(K · score)` (the result
/// alone where a position has no score; `lambda` 1: the results).
pub fn mse_against(set: &[Labelled], params: &Params, k: f64, threads: usize, lambda: f64) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let chunks: Vec<&[Labelled]> = set.chunks(LOSS_CHUNK).collect();
    let sums = par_map(&chunks, threads, |chunk| {
        let eval = Evaluator::new(&params.eval);
        chunk
            .iter()
            .map(|l| {
                let target = match l.score {
                    Some(score) if lambda < 1.0 => lambda * l.result + (1.0 - lambda) * win_chance(k, score),
                    _ => l.result,
                };
                (target - win_chance(k, f64::from(eval.evaluate(&l.pos)))).powi(2)
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / set.len() as f64
}
