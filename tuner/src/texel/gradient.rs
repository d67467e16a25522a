//! Gradient Texel (`optimizer = "adam"` or `"adagrad"`): Ethereal's tuner on our traces (run on
//! the driver by [`super::fit`]).
//!
//! The training positions are traced once ([`super::traces`]) at the starting parameters; every
//! epoch then runs over the compact traces only, never calling the evaluation: mini-batches
//! (`batch_size` positions, 0 = the whole set) in an order drawn per epoch from the run's seed,
//! each one optimiser step on the mean squared error of `sigmoid(K·E)` plus a ridge prior
//! `ridge · Σ ((θ − θ₀) / 100)²` toward the start. Values are clamped to the declared ranges
//! after each step. The king danger's thirteen weights are fitted too, through their exact
//! quadratic (Ethereal's tuner does the same for its king safety), and the complexity's four
//! through its sign and clamp (as Ethereal's tuner does its complexity): see [`super::traces`].
//! Genes with a non-linear key (the danger's two divisors, `ks_mg_divisor` and `ks_eg_divisor`,
//! which the weights' scale makes redundant; `scale_*`, which acts through the endgame sum's
//! sign: see `evochess::eval::trace`) or a search key are held at their starting values.
//!
//! Each epoch's record holds the rounded values and their *validation* MSE measured with the
//! engine's real `evaluate()` against the game results, so it compares with the local search's
//! passes (or, with `validate_on = "target"`, against the fit's own target on the validation
//! games: with `lambda` 0 a held-out check of the same loss, far less noisy than results that a
//! whole game's positions share); the training MSE is the traced loss against the fit's target λ·result +
//! (1 − λ)·sigmoid(K·score), averaged over the epoch's batches (before each step), and pass 0's
//! training figure is that loss at the start, so the training column compares with itself. An epoch's
//! validation MSE that has not beaten the best for `patience` epochs stops the fit; the best
//! epoch's values are `tuned.toml`. The state (values, moments, step count) is checkpointed
//! after every epoch, so `--resume` continues exactly where a killed run stopped.

use rand::{SeedableRng, rngs::StdRng, seq::SliceRandom};
use serde::{Deserialize, Serialize};

use super::traces::TraceSet;

/// The gradient optimisers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Optimizer {
    /// The local search of [`super::tuning`] (one step per gene, halving).
    #[default]
    Local,
    /// Adam (β₁ 0.9, β₂ 0.999).
    Adam,
    /// AdaGrad (Ethereal's tuner).
    Adagrad,
}

/// `[gradient]` settings of `tuner texel`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GradientConfig {
    /// Step size in centipawns (Adam's steps are about this size per parameter).
    pub learning_rate: f64,
    /// Positions per step; 0 = the whole training set (full batch).
    pub batch_size: usize,
    /// Weight of the game result in the target, against the data's score (1 = result only;
    /// positions without a score always use the result).
    pub lambda: f64,
    /// Ridge prior toward the starting values: added loss per (100 cp)² of each gene's move.
    pub ridge: f64,
    /// Epochs without a better validation MSE before the fit stops.
    pub patience: usize,
    /// What the validation MSE (the early stop and the epoch written) measures against.
    #[serde(skip_serializing_if = "ValidateOn::is_results")]
    pub validate_on: ValidateOn,
}

/// The validation set's labels for `[gradient] validate_on`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValidateOn {
    /// The game results, which the local search's passes also measure.
    #[default]
    Results,
    /// The fit's own target (`lambda`'s blend of result and score): far less noisy than the
    /// results where `lambda` is small, since a game's positions share one result.
    Target,
}

impl ValidateOn {
    /// Left out of the serialised config, so that the fingerprints of older runs hold.
    fn is_results(&self) -> bool {
        *self == ValidateOn::Results
    }

    /// What the validation MSE is measured against, for logs and the closing line.
    pub fn against(self) -> &'static str {
        match self {
            ValidateOn::Results => "the results",
            ValidateOn::Target => "the fit's target",
        }
    }
}

impl Default for GradientConfig {
    fn default() -> Self {
        GradientConfig {
            learning_rate: 1.0,
            batch_size: 16384,
            lambda: 1.0,
            ridge: 0.0,
            patience: 5,
            validate_on: ValidateOn::Results,
        }
    }
}

impl GradientConfig {
    pub fn validate(&self) -> Result<(), String> {
        if !(self.learning_rate.is_finite() && self.learning_rate > 0.0) {
            return Err(format!("gradient.learning_rate must be positive, not {}", self.learning_rate));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(format!("gradient.lambda must be in [0, 1], not {}", self.lambda));
        }
        if !(self.ridge.is_finite() && self.ridge >= 0.0) {
            return Err(format!("gradient.ridge must be 0 or more, not {}", self.ridge));
        }
        if self.patience == 0 {
            return Err("gradient.patience must be at least 1".into());
        }
        Ok(())
    }
}

/// The optimiser's state after an epoch (checkpointed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradientState {
    /// Each fitted gene's value (unrounded).
    pub theta: Vec<f64>,
    /// First moments (Adam) and second moments or squared-gradient sums (Adam, AdaGrad).
    pub m: Vec<f64>,
    pub v: Vec<f64>,
    pub steps: u64,
    pub best_validation: f64,
    /// Epochs since the best validation MSE.
    pub stale: usize,
    pub stopped: bool,
}

/// The fitted genes' entries of the space's gene `values`, as the optimiser's parameter vector.
pub(super) fn fitted_theta(values: &[i32], fitted: &[usize]) -> Vec<f64> {
    fitted.iter().map(|&g| f64::from(values[g])).collect()
}

/// One epoch over `train` from `s`: returns the summed squared error of the batches (each
/// before its step) and the number of steps. The batch order comes from `seed` and `epoch`.
#[allow(clippy::too_many_arguments)]
pub fn epoch(
    train: &TraceSet,
    s: &mut GradientState,
    k: f64,
    cfg: &GradientConfig,
    optimizer: Optimizer,
    (start, bounds): (&[f64], &[(i32, i32)]),
    (seed, epoch): (u64, usize),
    threads: usize,
) -> (f64, usize) {
    let n = train.len();
    let batch = if cfg.batch_size == 0 { n } else { cfg.batch_size.min(n) }.max(1);
    let mut batches: Vec<usize> = (0..n.div_ceil(batch)).collect();
    // The epoch's own order: a resumed run draws the same.
    batches.shuffle(&mut StdRng::seed_from_u64(seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
    let (mut sse, mut steps) = (0.0, 0);
    for b in batches {
        let range = b * batch..((b + 1) * batch).min(n);
        let len = range.len() as f64;
        let (batch_sse, mut grad) = train.loss_grad(&s.theta, k, range, true, threads);
        grad.iter_mut().for_each(|x| *x /= len);
        sse += batch_sse;
        steps += 1;
        step(optimizer, cfg, s, &grad, start, bounds);
    }
    (sse, steps)
}

/// One optimiser step from the gradient `grad` of the mean loss (the prior's is added here),
/// clamped to `bounds`.
pub fn step(
    optimizer: Optimizer,
    cfg: &GradientConfig,
    s: &mut GradientState,
    grad: &[f64],
    start: &[f64],
    bounds: &[(i32, i32)],
) {
    s.steps += 1;
    let lr = cfg.learning_rate;
    for i in 0..s.theta.len() {
        let g = grad[i] + cfg.ridge * 2.0 * (s.theta[i] - start[i]) / 1e4;
        let delta = match optimizer {
            Optimizer::Adam => {
                const B1: f64 = 0.9;
                const B2: f64 = 0.999;
                s.m[i] = B1 * s.m[i] + (1.0 - B1) * g;
                s.v[i] = B2 * s.v[i] + (1.0 - B2) * g * g;
                let m_hat = s.m[i] / (1.0 - B1.powi(s.steps as i32));
                let v_hat = s.v[i] / (1.0 - B2.powi(s.steps as i32));
                lr * m_hat / (v_hat.sqrt() + 1e-12)
            }
            Optimizer::Adagrad | Optimizer::Local => {
                s.v[i] += g * g;
                lr * g / (s.v[i].sqrt() + 1e-12)
            }
        };
        s.theta[i] = (s.theta[i] - delta).clamp(f64::from(bounds[i].0), f64::from(bounds[i].1));
    }
}

impl GradientState {
    /// The state before the first epoch.
    pub fn new(theta: Vec<f64>, best_validation: f64) -> GradientState {
        let n = theta.len();
        GradientState { theta, m: vec![0.0; n], v: vec![0.0; n], steps: 0, best_validation, stale: 0, stopped: false }
    }
}

#[cfg(test)]
mod tests {
    use evochess::params::{EvalParams, ParamSection};
    use rand::Rng;
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::texel::{labelled::Labelled, traces::tests::all_linear, win_chance};

    /// Positions from seeded random playouts.
    fn playouts(n: usize, seed: u64) -> Vec<Labelled> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Chess::default();
            for _ in 0..rng.random_range(10..120) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
                if rng.random_bool(0.3) {
                    out.push(Labelled { pos: pos.clone(), result: 0.5, score: None });
                }
            }
        }
        out.truncate(n);
        out
    }

    /// Labels made from a known parameter vector: the fit reproduces its evaluations (not its
    /// values: material and piece-square offsets, for one, trade against each other).
    #[test]
    fn synthetic_recovery_reproduces_the_predicted_evaluations() {
        let base = EvalParams::default();
        let (gene_of, linear) = all_linear();
        let mut set = TraceSet::build(&playouts(4000, 7), &base, &gene_of, linear.len(), 2).unwrap();
        let bounds: Vec<(i32, i32)> =
            linear.iter().map(|&i| (EvalParams::specs()[i].min, EvalParams::specs()[i].max)).collect();
        let start: Vec<f64> = linear.iter().map(|&i| f64::from(base.get(i))).collect();
        let mut rng = StdRng::seed_from_u64(11);
        let truth: Vec<f64> = start
            .iter()
            .zip(&bounds)
            .map(|(&v, &(lo, hi))| (v + f64::from(rng.random_range(-25..=25))).clamp(f64::from(lo), f64::from(hi)))
            .collect();
        let k = 1.0;
        let wanted = set.evals(&truth);
        for (r, &e) in set.records.iter_mut().zip(&wanted) {
            r.target = win_chance(k, e) as f32;
        }
        // Measured where the labels carry signal: far from equality the win chance saturates, so
        // the loss barely sees a lopsided position's evaluation (random playouts have many, and
        // the imbalance terms move them most).
        let informative: Vec<usize> = (0..wanted.len()).filter(|&i| wanted[i].abs() <= 400.0).collect();
        assert!(informative.len() > wanted.len() / 4, "{} of {} positions", informative.len(), wanted.len());
        let gap = |theta: &[f64]| {
            let e = set.evals(theta);
            informative.iter().map(|&i| (e[i] - wanted[i]).abs()).sum::<f64>() / informative.len() as f64
        };
        let before = gap(&start);
        let cfg = GradientConfig { learning_rate: 0.5, batch_size: 1000, ..GradientConfig::default() };
        let mut s = GradientState::new(start.clone(), f64::INFINITY);
        let first = set.loss_grad(&start, k, 0..set.len(), false, 2).0;
        for e in 0..300 {
            epoch(&set, &mut s, k, &cfg, Optimizer::Adam, (&start, &bounds), (3, e), 2);
        }
        // A constant step leaves each of the ~1,200 genes jittering by about its size: finish
        // with a tenth of it, as the real fits do (step 0.05).
        let fine = GradientConfig { learning_rate: 0.05, ..cfg };
        for e in 300..400 {
            epoch(&set, &mut s, k, &fine, Optimizer::Adam, (&start, &bounds), (3, e), 2);
        }
        let after = gap(&s.theta);
        let last = set.loss_grad(&s.theta, k, 0..set.len(), false, 2).0;
        eprintln!(
            "mean |E - E*| where |E*| <= 400 cp ({} positions): {before:.2} cp before, {after:.2} cp after; SSE {first:.4} -> {last:.6}",
            informative.len()
        );
        assert!(before > 20.0, "the truth differs from the start: {before}");
        assert!(after < 0.1 * before && after < 5.0, "{before} -> {after}");
        // AdaGrad gets there too, more slowly.
        let mut s = GradientState::new(start.clone(), f64::INFINITY);
        let cfg = GradientConfig { learning_rate: 5.0, ..cfg };
        for e in 0..300 {
            epoch(&set, &mut s, k, &cfg, Optimizer::Adagrad, (&start, &bounds), (3, e), 2);
        }
        assert!(gap(&s.theta) < 0.5 * before, "AdaGrad: {before} -> {}", gap(&s.theta));
    }

    #[test]
    fn the_ridge_prior_holds_values_at_the_start() {
        let base = EvalParams::default();
        let (gene_of, linear) = all_linear();
        let mut set = TraceSet::build(&playouts(500, 5), &base, &gene_of, linear.len(), 1).unwrap();
        for r in &mut set.records {
            r.target = 1.0; // white always wins: every white term wants to grow
        }
        let bounds: Vec<(i32, i32)> =
            linear.iter().map(|&i| (EvalParams::specs()[i].min, EvalParams::specs()[i].max)).collect();
        let start: Vec<f64> = linear.iter().map(|&i| f64::from(base.get(i))).collect();
        let moved = |ridge: f64| {
            let cfg = GradientConfig { ridge, batch_size: 0, ..GradientConfig::default() };
            let mut s = GradientState::new(start.clone(), f64::INFINITY);
            for e in 0..100 {
                epoch(&set, &mut s, 1.0, &cfg, Optimizer::Adam, (&start, &bounds), (1, e), 1);
            }
            s.theta.iter().zip(&start).map(|(a, b)| (a - b).powi(2)).sum::<f64>().sqrt()
        };
        let (free, held) = (moved(0.0), moved(100.0));
        assert!(held < 0.5 * free, "ridge 100 moved {held}, none {free}");
    }

    #[test]
    fn bad_settings_name_the_key() {
        assert!(GradientConfig::default().validate().is_ok());
        let bad = |c: GradientConfig| c.validate().unwrap_err();
        assert!(bad(GradientConfig { learning_rate: 0.0, ..Default::default() }).contains("learning_rate"));
        assert!(bad(GradientConfig { lambda: 1.5, ..Default::default() }).contains("lambda"));
        assert!(bad(GradientConfig { ridge: -1.0, ..Default::default() }).contains("ridge"));
        assert!(bad(GradientConfig { patience: 0, ..Default::default() }).contains("patience"));
    }
}
