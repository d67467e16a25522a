//! The gradient fit ([`super::gradient`]) as a [`Fit`]: one epoch a pass over the
//! training positions traced once at the start, each epoch's values measured on the validation
//! set with the engine's own evaluation.

use std::time::Instant;

use evochess::{
    eval::trace::is_linear,
    params::{EvalParams, ParamSection},
};
use rand::{SeedableRng, rngs::StdRng, seq::SliceRandom};

use super::{
    config::TexelError,
    gradient::{GradientConfig, GradientState, Optimizer, epoch, fitted_theta},
    labelled::{Labelled, mse_against},
    passes::{Fit, PassRecord},
    traces::{GeneOf, TraceSet},
    tuning::Tuning,
};
use crate::space::SearchSpace;

/// A fit over traced training positions.
pub(super) struct Gradient<'a> {
    pub(super) tuning: &'a Tuning<'a>,
    pub(super) cfg: GradientConfig,
    pub(super) optimizer: Optimizer,
    pub(super) train: TraceSet,
    /// The space's gene index of each fitted gene (the others are held).
    pub(super) fitted: Vec<usize>,
    pub(super) seed: u64,
    /// The traced training loss at the start against the fit's target, the figure each epoch's
    /// training MSE compares with (the run's start line measures the results instead).
    pub(super) start_loss: f64,
}

impl Gradient<'_> {
    /// Each fitted gene's declared range.
    fn bounds(&self) -> Vec<(i32, i32)> {
        self.fitted.iter().map(|&g| (self.tuning.space.genes[g].min, self.tuning.space.genes[g].max)).collect()
    }

    /// The gene values of the whole space: fitted ones rounded and clamped, the rest at the start.
    pub fn values(&self, theta: &[f64]) -> Vec<i32> {
        let mut values = self.tuning.start_values();
        for (&g, &t) in self.fitted.iter().zip(theta) {
            let gene = &self.tuning.space.genes[g];
            values[g] = (t.round() as i32).clamp(gene.min, gene.max);
        }
        values
    }

    fn start_theta(&self) -> Vec<f64> {
        fitted_theta(&self.tuning.start_values(), &self.fitted)
    }
}

impl Fit for Gradient<'_> {
    type State = GradientState;

    fn first(&self) -> GradientState {
        GradientState::new(self.start_theta(), self.tuning.start.1)
    }

    fn pass(
        &self,
        g: usize,
        mut s: GradientState,
        history: &[PassRecord],
    ) -> Result<(GradientState, PassRecord), TexelError> {
        let t = Instant::now();
        let before = self.values(&s.theta);
        let n = self.train.len();
        let (mut sse, mut trials) = (0.0, 0);
        if !s.stopped {
            let (start, bounds) = (self.start_theta(), self.bounds());
            (sse, trials) = epoch(
                &self.train,
                &mut s,
                self.tuning.k,
                &self.cfg,
                self.optimizer,
                (&start, &bounds),
                (self.seed, g),
                self.tuning.threads,
            );
        }
        let values = self.values(&s.theta);
        let train_mse =
            if trials > 0 { sse / n as f64 } else { history.last().map_or(self.start_loss, |r| r.train_mse) };
        // After the early stop the values no longer move: the epochs left only carry the record.
        let was_stopped = s.stopped;
        let validation_mse = match history.last() {
            Some(last) if was_stopped => last.validation_mse,
            _ => mse_against(
                &self.tuning.validation,
                &self.tuning.params(&values),
                self.tuning.k,
                self.tuning.threads,
                self.tuning.cfg.validation_lambda(),
            ),
        };
        if !s.stopped {
            if validation_mse < s.best_validation {
                (s.best_validation, s.stale) = (validation_mse, 0);
            } else {
                s.stale += 1;
                s.stopped = s.stale >= self.cfg.patience;
            }
        }
        let record = PassRecord {
            pass: g + 1,
            train_mse,
            validation_mse,
            changed: values.iter().zip(&before).filter(|(a, b)| a != b).count(),
            trials,
            seconds: t.elapsed().as_secs_f64(),
            values,
        };
        log::log!(
            if was_stopped { log::Level::Debug } else { log::Level::Info },
            "epoch {}: training MSE {:.6}, validation MSE {:.6}, {} genes changed, {} steps ({:.1}s){}",
            g + 1,
            record.train_mse,
            record.validation_mse,
            record.changed,
            trials,
            record.seconds,
            if s.stopped { ", stopped (no better validation MSE)" } else { "" }
        );
        Ok((s, record))
    }

    fn check(&self, s: &GradientState) -> Result<(), String> {
        let n = self.fitted.len();
        if s.theta.len() != n || s.m.len() != n || s.v.len() != n {
            return Err(format!("{} values for the {n} fitted genes", s.theta.len()));
        }
        Ok(())
    }

    fn report(&self, history: &[PassRecord]) -> Result<(), TexelError> {
        self.tuning.write_reports(history, self.start_loss)
    }
}

/// The gradient fit of `tuning`'s space: its linear genes, over the training positions
/// (shuffled by the seed, so that mini-batches mix games) traced at the starting values.
pub(super) fn gradient_fit<'a>(tuning: &'a Tuning<'a>, optimizer: Optimizer) -> Result<Gradient<'a>, TexelError> {
    let (gene_of, fitted) = linear_genes(&tuning.space);
    log::info!(
        "texel: {} of {} genes fitted by {optimizer:?}; the others (non-linear or search) held at their start",
        fitted.len(),
        tuning.space.genes.len()
    );
    let mut order: Vec<usize> = (0..tuning.train.len()).collect();
    order.shuffle(&mut StdRng::seed_from_u64(tuning.cfg.seed));
    let positions: Vec<Labelled> = order.iter().map(|&i| tuning.train[i].clone()).collect();
    let cfg = tuning.cfg.gradient.clone().unwrap_or_default();
    let t = Instant::now();
    let values = tuning.start_values();
    let start = tuning.params(&values);
    let mut train = TraceSet::build(&positions, &start.eval, &gene_of, fitted.len(), tuning.threads)?;
    train.set_targets(tuning.k, cfg.lambda);
    log::info!(
        "texel: traced {} positions in {:.1}s: {} coefficients, {:.0} bytes per position",
        train.len(),
        t.elapsed().as_secs_f64(),
        train.entries.len(),
        train.bytes() as f64 / train.len() as f64
    );
    let start_theta = fitted_theta(&values, &fitted);
    let start_loss =
        train.loss_grad(&start_theta, tuning.k, 0..train.len(), false, tuning.threads).0 / train.len() as f64;
    log::info!(
        "texel: start: training MSE {start_loss:.6} against the fit's target (lambda {}: lambda·result + (1 − lambda)·sigmoid(K·score))",
        cfg.lambda
    );
    Ok(Gradient { tuning, cfg, optimizer, train, fitted, seed: tuning.cfg.seed, start_loss })
}

/// The space's genes whose keys are all linear evaluation parameters (the gradient fits
/// these), as each evaluation parameter's fitted-gene index and each fitted gene's space index.
pub(super) fn linear_genes(space: &SearchSpace) -> (GeneOf, Vec<usize>) {
    let specs = EvalParams::specs();
    let mut gene_of = vec![None; specs.len()];
    let mut fitted = Vec::new();
    for (g, gene) in space.genes.iter().enumerate() {
        if gene.keys.iter().all(|id| id.0 < specs.len() && is_linear(&specs[id.0])) {
            for id in &gene.keys {
                gene_of[id.0] = Some(fitted.len());
            }
            fitted.push(g);
        }
    }
    (gene_of, fitted)
}
