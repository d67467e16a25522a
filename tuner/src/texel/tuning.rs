//! The tune's data and settings ([`Tuning`]) and its local search as a [`Fit`]:
//! each pass tries every gene one step up and one step down and keeps a move that lowers the
//! training MSE; a gene that moves neither way halves its step. [`Tuning::write_reports`]
//! writes what both the local search and the gradient fit ([`super::fit`]) report.

use std::time::Instant;

use arena::files::write_atomic;
use evochess::params::Params;
use plotters::style::RGBColor;
use serde::{Deserialize, Serialize};

use super::{
    config::{TexelConfig, TexelError},
    labelled::{Labelled, mse},
    passes::{Fit, PassRecord},
};
use crate::{
    chart::{Series, render_lines_svg},
    csv::Csv,
    space::SearchSpace,
};

/// The local search's state after a pass (checkpointed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Descent {
    /// Each gene's value.
    pub values: Vec<i32>,
    /// Each gene's current step.
    pub steps: Vec<i32>,
    /// A pass at the smallest steps moved nothing: later passes would repeat it.
    pub converged: bool,
}

pub(super) struct Tuning<'a> {
    pub(super) cfg: &'a TexelConfig,
    pub(super) space: SearchSpace,
    pub(super) base: Params,
    pub(super) train: Vec<Labelled>,
    pub(super) validation: Vec<Labelled>,
    pub(super) k: f64,
    pub(super) threads: usize,
    /// The starting values' training and validation MSE (pass 0 of the reports).
    pub(super) start: (f64, f64),
}

impl Tuning<'_> {
    pub(super) fn params(&self, values: &[i32]) -> Params {
        let mut p = self.base.clone();
        for (gene, &v) in self.space.genes.iter().zip(values) {
            for &id in &gene.keys {
                p.set(id, i64::from(v)).expect("gene ranges are validated against the declaration");
            }
        }
        p
    }

    fn min_step(&self, gene: usize) -> i32 {
        self.space.genes[gene].step.unwrap_or(1).max(1)
    }

    pub(super) fn start_values(&self) -> Vec<i32> {
        self.space.genes.iter().map(|g| self.base.get(g.keys[0]).clamp(g.min, g.max)).collect()
    }

    /// `passes.csv`, `loss.svg` and `tuned.toml` (the best validation pass) from the history.
    /// `start_train` is pass 0's training figure: the MSE against the results for the local
    /// search, the traced loss against the fit's target for a gradient fit.
    pub(super) fn write_reports(&self, history: &[PassRecord], start_train: f64) -> Result<(), TexelError> {
        let out = &self.cfg.out_dir;
        let start = PassRecord {
            pass: 0,
            train_mse: start_train,
            validation_mse: self.start.1,
            changed: 0,
            trials: 1,
            seconds: 0.0,
            values: self.start_values(),
        };
        let rows: Vec<&PassRecord> = std::iter::once(&start).chain(history).collect();
        let csv = Csv::new()
            .column("pass", |r: &&PassRecord| r.pass.to_string())
            .column("train_mse", |r| format!("{:.8}", r.train_mse))
            .column("validation_mse", |r| format!("{:.8}", r.validation_mse))
            .column("changed", |r| r.changed.to_string())
            .column("trials", |r| r.trials.to_string())
            .column("seconds", |r| format!("{:.1}", r.seconds));
        let path = out.join("passes.csv");
        write_atomic(&path, csv.write(rows.iter().copied()).as_bytes()).map_err(|e| TexelError::io(&path, e))?;
        let series = [
            Series::new("training", RGBColor(31, 119, 180), rows.iter().map(|r| (r.pass, r.train_mse)).collect()),
            Series::new("validation", RGBColor(214, 39, 40), rows.iter().map(|r| (r.pass, r.validation_mse)).collect()),
        ];
        let label = format!("mean squared error (K = {:.4})", self.k);
        let path = out.join("loss.svg");
        let svg = render_lines_svg("Texel tuning", "pass", &label, &series).map_err(|e| TexelError::io(&path, e))?;
        write_atomic(&path, svg.as_bytes()).map_err(|e| TexelError::io(&path, e))?;
        let values = self.best(history).map_or(&start.values, |r| &r.values);
        let path = out.join("tuned.toml");
        write_atomic(&path, self.params(values).to_toml().as_bytes()).map_err(|e| TexelError::io(&path, e))
    }

    /// The record with the lowest validation MSE, if any pass beat the start.
    pub(super) fn best<'r>(&self, history: &'r [PassRecord]) -> Option<&'r PassRecord> {
        history
            .iter()
            .filter(|r| r.validation_mse < self.start.1)
            .min_by(|a, b| a.validation_mse.total_cmp(&b.validation_mse).then(a.pass.cmp(&b.pass)))
    }
}

impl Fit for Tuning<'_> {
    type State = Descent;

    fn first(&self) -> Descent {
        let steps = self
            .space
            .genes
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let min = self.min_step(i);
                // A multiple of the smallest step, so halving reaches it exactly.
                ((g.max - g.min) / self.cfg.step_divisor / min).max(1) * min
            })
            .collect();
        Descent { values: self.start_values(), steps, converged: false }
    }

    fn pass(&self, g: usize, mut d: Descent, _: &[PassRecord]) -> Result<(Descent, PassRecord), TexelError> {
        let t = Instant::now();
        let mut best = mse(&self.train, &self.params(&d.values), self.k, self.threads);
        let (mut changed, mut trials) = (0, 1);
        if !d.converged {
            for (i, gene) in self.space.genes.iter().enumerate() {
                let step = d.steps[i];
                let mut moved = false;
                for v in [d.values[i] + step, d.values[i] - step] {
                    if v < gene.min || v > gene.max {
                        continue;
                    }
                    let mut values = d.values.clone();
                    values[i] = v;
                    let loss = mse(&self.train, &self.params(&values), self.k, self.threads);
                    trials += 1;
                    if loss < best {
                        (best, d.values, moved) = (loss, values, true);
                        break;
                    }
                }
                if moved {
                    changed += 1;
                } else {
                    let min = self.min_step(i);
                    d.steps[i] = (step / 2 / min).max(1) * min;
                }
            }
            d.converged = changed == 0 && d.steps.iter().enumerate().all(|(i, &s)| s == self.min_step(i));
        }
        let validation_mse = mse(&self.validation, &self.params(&d.values), self.k, self.threads);
        let record = PassRecord {
            pass: g + 1,
            train_mse: best,
            validation_mse,
            changed,
            trials,
            seconds: t.elapsed().as_secs_f64(),
            values: d.values.clone(),
        };
        log::info!(
            "pass {}: training MSE {:.6}, validation MSE {:.6}, {changed} of {} genes moved ({:.1}s){}",
            g + 1,
            best,
            validation_mse,
            self.space.genes.len(),
            record.seconds,
            if d.converged { ", converged" } else { "" }
        );
        Ok((d, record))
    }

    fn check(&self, d: &Descent) -> Result<(), String> {
        let n = self.space.genes.len();
        if d.values.len() != n || d.steps.len() != n {
            return Err(format!("{} values for the space's {n} genes", d.values.len()));
        }
        Ok(())
    }

    fn report(&self, history: &[PassRecord]) -> Result<(), TexelError> {
        self.write_reports(history, self.start.0)
    }
}
