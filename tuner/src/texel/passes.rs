//! The passes of a fit over labelled positions, resumable. The local search
//! ([`super::tuning`]) and the gradient fit ([`super::fit`]) are not ask/tell optimisers: a
//! descent's pass measures the loss after every move it tries, an epoch follows the gradient.
//! So they are [`Fit`]s, run pass after pass by [`run_passes`] in the shared run directory's
//! checkpoint ([`Driver`]'s: fingerprint, history, the fit's state after the last pass), saved
//! after every pass; deterministic, so a killed fit resumed ends as an uninterrupted one.

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::config::TexelError;
use crate::ga::driver::Driver;

/// One pass in the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassRecord {
    pub pass: usize,
    pub train_mse: f64,
    pub validation_mse: f64,
    /// Genes moved in this pass.
    pub changed: usize,
    /// Losses computed in this pass.
    pub trials: usize,
    pub seconds: f64,
    /// The values after this pass.
    pub values: Vec<i32>,
}

/// A fit: its state before the first pass, and one pass.
pub(super) trait Fit {
    /// What a pass leaves for the next (checkpointed).
    type State: Clone + Serialize + DeserializeOwned;

    fn first(&self) -> Self::State;
    /// Pass `index` (0 = the first) from `state`; `history` holds the passes before.
    fn pass(
        &self,
        index: usize,
        state: Self::State,
        history: &[PassRecord],
    ) -> Result<(Self::State, PassRecord), TexelError>;
    /// Checks a state read from a checkpoint (one value per gene).
    fn check(&self, state: &Self::State) -> Result<(), String>;
    /// Rewrites the fit's reports from the history.
    fn report(&self, history: &[PassRecord]) -> Result<(), TexelError>;
}

/// Runs `fit` to `driver.generations` passes (at least one), continuing from the checkpoint when
/// `resume` and one exists. Returns the history.
pub(super) fn run_passes<F: Fit>(driver: &Driver<'_>, fit: &F, resume: bool) -> Result<Vec<PassRecord>, TexelError> {
    let (mut state, mut history) = match driver.resumed(resume, |s| fit.check(s))? {
        Some(c) => (c.state, c.history),
        None => (fit.first(), Vec::new()),
    };
    let resumed = !history.is_empty();
    let mut passed = false;
    while history.is_empty() || history.len() < driver.generations {
        let index = history.len();
        driver.tick(index);
        let (next, record) = fit.pass(index, state, &history)?;
        state = next;
        history.push(record);
        driver.checkpoint(&state, index, &history)?;
        fit.report(&history)?;
        passed = true;
    }
    driver.tick(history.len());
    if resumed && !passed {
        // A fit resumed with nothing left to do: its reports are rewritten, so one finished
        // before a crash (or by an older build) has them.
        fit.report(&history)?;
    }
    Ok(history)
}
