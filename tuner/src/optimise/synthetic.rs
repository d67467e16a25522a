//! Objectives with a known answer, for checking and comparing optimisers without games or data.
//!
//! [`SyntheticTexel`] is a Texel loss whose labels are made from a known parameter vector: each
//! synthetic position has a few evaluation features (say piece-count differences, each −1, 0
//! or 1), its label is the expected score `σ(w*·x)` of the true weights `w*`, and a candidate's
//! fitness is minus the mean squared error of `σ(w·x)` against the labels. The loss is zero at
//! `w*` and only there (the features have full rank), so an optimiser's answer can be measured
//! by its distance from `w*`.

use rand::{Rng, SeedableRng, rngs::StdRng};

use super::{Objective, OptimiseError};
use crate::genome::Genome;

/// Texel's expected score of a centipawn score, `1 / (1 + 10^(−K·s/400))`, with K = 1.
pub fn sigmoid(score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-score / 400.0))
}

/// A Texel loss over synthetic positions labelled by `truth`.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticTexel {
    pub truth: Vec<f64>,
    /// Each position's features, one per weight.
    pub features: Vec<Vec<f64>>,
    pub labels: Vec<f64>,
}

impl SyntheticTexel {
    /// `positions` positions drawn from `seed`, each feature −1, 0 or 1 (0 half the time).
    pub fn new(truth: Vec<f64>, positions: usize, seed: u64) -> SyntheticTexel {
        let mut rng = StdRng::seed_from_u64(seed);
        let features: Vec<Vec<f64>> = (0..positions)
            .map(|_| {
                (0..truth.len())
                    .map(|_| match rng.random_range(0..4) {
                        0 => -1.0,
                        1 => 1.0,
                        _ => 0.0,
                    })
                    .collect()
            })
            .collect();
        let labels = features.iter().map(|x| sigmoid(dot(&truth, x))).collect();
        SyntheticTexel { truth, features, labels }
    }

    /// The mean squared error of the weights `w`.
    pub fn loss(&self, w: &[f64]) -> f64 {
        let sum: f64 = self.features.iter().zip(&self.labels).map(|(x, y)| (y - sigmoid(dot(w, x))).powi(2)).sum();
        sum / self.features.len().max(1) as f64
    }

    /// The largest distance of a genome's weights from the truth.
    pub fn error(&self, genome: &Genome) -> f64 {
        match genome {
            Genome::Numbers(w) => w.iter().zip(&self.truth).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max),
            Genome::Bits(_) => f64::INFINITY,
        }
    }
}

fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

impl Objective for SyntheticTexel {
    type Error = OptimiseError;

    fn evaluate(&self, batch: &[Genome]) -> Result<Vec<f64>, OptimiseError> {
        batch
            .iter()
            .map(|g| match g {
                Genome::Numbers(w) if w.len() == self.truth.len() => Ok(-self.loss(w)),
                _ => Err(OptimiseError::Unsuited {
                    optimiser: "synthetic texel objective",
                    reason: format!("candidates must be {} numbers", self.truth.len()),
                }),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loss_is_zero_at_the_truth_only() {
        let t = SyntheticTexel::new(vec![20.0, 90.0, 150.0], 200, 1);
        assert_eq!(t.loss(&t.truth), 0.0);
        assert!(t.loss(&[21.0, 90.0, 150.0]) > 0.0);
        assert_eq!(t.evaluate(&[Genome::Numbers(t.truth.clone())]).unwrap(), vec![-0.0]);
        let e = t.evaluate(&[Genome::Numbers(vec![1.0])]).unwrap_err().to_string();
        assert!(e.contains("3 numbers"), "{e}");
        assert_eq!(t, SyntheticTexel::new(vec![20.0, 90.0, 150.0], 200, 1), "the seed fixes the positions");
    }
}
