//! Optimisers as ask/tell over objectives, as nevergrad and pymoo have them: an [`Optimiser`]
//! proposes candidates ([`Optimiser::ask`]) and learns their fitness ([`Optimiser::tell`]); an
//! [`Objective`] scores a batch of candidates. Neither knows the other, so any optimiser runs on
//! any objective whose candidates it can propose: the GA ([`ga`]), CMA-ES ([`cmaes`]), SPSA
//! ([`spsa`]) and a coordinate local search ([`local`]) all propose [`Genome`]s of a search
//! space's [`Layout`].
//!
//! The candidates are scored as one batch because some objectives are relative (SPSA's `+`
//! engine plays its `−` engine; a round robin ranks its players). Fitness is higher-is-better,
//! as everywhere in the tuner. What an optimiser keeps between an ask and the tell of its
//! candidates is its [`Optimiser::State`]: a checkpoint holds it beside the candidates and their
//! fitness, so a killed run resumes by [`Optimiser::restore`], `tell`, `ask` with the
//! generation's RNG ([`generation_rng`]) and proposes what an uninterrupted run would.
//! [`crate::ga::driver`] runs the evolution commands' generations this way, with whichever of
//! the four a config's `[optimiser] kind` names ([`choice`]); [`optimise`] is the plain loop (no checkpoint)
//! that [`compare`] uses to run every optimiser on one synthetic objective with a known answer.
//!
//! The dependencies go one way: this module builds on the genomes ([`crate::genome`]) and never
//! names the driver ([`crate::ga`]), which builds on it.

pub mod choice;
pub mod cmaes;
pub mod compare;
pub mod config;
pub mod es;
pub mod ga;
pub mod halving;
pub mod ledger;
pub mod local;
pub mod recovery;
pub mod spsa;
pub mod synthetic;
pub mod synthetic_games;

use rand::{SeedableRng, rngs::StdRng};
use serde::{Deserialize, Serialize, de::DeserializeOwned};
use thiserror::Error;

use crate::{
    genome::{
        Genome,
        encoding::{Layout, NumericGene},
        operators::elite_indices,
    },
    hash::mix64,
};

/// What an optimiser, or the loop that runs one, can fail with.
#[derive(Debug, Error, PartialEq)]
pub enum OptimiseError {
    /// `tell` was given another number of fitness values than it asked candidates.
    #[error("{optimiser}: told {told} fitness values for {asked} candidates")]
    Told { optimiser: &'static str, asked: usize, told: usize },
    /// The optimiser cannot work in this search space (SPSA on bit strings, say).
    #[error("{optimiser}: {reason}")]
    Unsuited { optimiser: &'static str, reason: String },
    /// The GA's settings do not suit the space.
    #[error(transparent)]
    Ga(#[from] config::GaError),
}

/// Proposes candidates and learns from their fitness.
pub trait Optimiser {
    /// What is kept from an ask to the tell of its candidates (checkpointed with them).
    type State: Clone + Serialize + DeserializeOwned;

    /// The name in logs and errors.
    fn name(&self) -> &'static str;
    /// The next candidates, drawn from `rng` (the generation's own RNG, so a resumed run draws
    /// the same).
    fn ask(&mut self, rng: &mut StdRng) -> Result<Vec<Genome>, OptimiseError>;
    /// The fitness of the last ask's candidates, in their order (higher is better).
    fn tell(&mut self, candidates: &[Genome], fitness: &[f64]) -> Result<(), OptimiseError>;
    /// The state after the last ask.
    fn state(&self) -> Self::State;
    /// Takes up a state from a checkpoint, as after the ask that made it.
    fn restore(&mut self, state: Self::State);
    /// Checks a checkpoint's state against the candidates stored with it.
    fn check(&self, _state: &Self::State, _candidates: &[Genome]) -> Result<(), String> {
        Ok(())
    }
    /// The optimiser's own estimate of the optimum (CMA-ES's mean, SPSA's θ, the local search's
    /// incumbent), when it keeps one apart from the candidates it proposes.
    fn recommend(&self) -> Option<Genome> {
        None
    }
    /// The centre of the search distribution as the optimiser holds it, unrounded (the ES's
    /// mean), when it reports one.
    fn centre(&self) -> Option<Vec<f64>> {
        None
    }
    /// The optimiser's step sizes after its last tell (the ES's, one per gene group), for the
    /// record of a generation; empty when it adapts none.
    fn steps(&self) -> Vec<f64> {
        Vec::new()
    }
    /// Who the last ask's candidates are, in order, for an optimiser that keeps individuals
    /// across generations (Belmonte's named members); empty when its candidates are only points.
    fn labels(&self) -> Vec<Label> {
        Vec::new()
    }
}

/// Who a candidate is, for a problem whose players carry an identity: an id unique over the
/// run, the name its games show, and how it entered its generation (`elite`, `mutant of X` ...).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Label {
    pub id: u64,
    pub name: String,
    pub origin: String,
}

/// What a told optimiser says of itself, for the record of the generation it was told.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AfterTell {
    /// [`Optimiser::recommend`].
    pub recommend: Option<Genome>,
    /// [`Optimiser::centre`].
    pub centre: Option<Vec<f64>>,
    /// [`Optimiser::steps`].
    pub steps: Vec<f64>,
}

impl AfterTell {
    pub fn of<O: Optimiser + ?Sized>(optimiser: &O) -> AfterTell {
        AfterTell { recommend: optimiser.recommend(), centre: optimiser.centre(), steps: optimiser.steps() }
    }
}

/// Scores candidates.
pub trait Objective {
    type Error: From<OptimiseError>;

    /// The fitness of each candidate of the batch, in order (higher is better).
    fn evaluate(&self, batch: &[Genome]) -> Result<Vec<f64>, Self::Error>;
}

/// The RNG of one generation of one run: a pure function of its coordinates, so resuming from
/// a checkpoint needs no RNG state.
pub fn generation_rng(seed: u64, run: u64, generation: u64) -> StdRng {
    StdRng::seed_from_u64(mix64(mix64(mix64(seed) ^ run) ^ generation))
}

/// Checks that `tell` got one fitness value per candidate asked.
pub fn check_told(optimiser: &'static str, asked: usize, fitness: &[f64]) -> Result<(), OptimiseError> {
    if fitness.len() == asked { Ok(()) } else { Err(OptimiseError::Told { optimiser, asked, told: fitness.len() }) }
}

/// The end of [`optimise`].
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The fittest candidate evaluated, and its fitness.
    pub best: Genome,
    pub best_fitness: f64,
    /// The optimiser's answer: its [`Optimiser::recommend`], else `best`.
    pub answer: Genome,
    pub evaluations: usize,
    pub generations: usize,
}

/// Runs `optimiser` on `objective` until `budget` candidates have been evaluated (the last
/// generation is completed, so a little over). Generation `g` draws from
/// [`generation_rng`]`(seed, 0, g)`, as the evolution commands' driver does.
///
/// # Errors
/// What the optimiser or the objective fails with.
pub fn optimise<O: Optimiser, F: Objective>(
    optimiser: &mut O,
    objective: &F,
    budget: usize,
    seed: u64,
) -> Result<Outcome, F::Error> {
    let mut best: Option<(Genome, f64)> = None;
    let (mut evaluations, mut generations) = (0, 0);
    while evaluations < budget.max(1) {
        let candidates = optimiser.ask(&mut generation_rng(seed, 0, generations as u64))?;
        if candidates.is_empty() {
            let reason = "proposed no candidates".to_string();
            return Err(OptimiseError::Unsuited { optimiser: optimiser.name(), reason }.into());
        }
        let fitness = objective.evaluate(&candidates)?;
        check_told(optimiser.name(), candidates.len(), &fitness)?;
        if let Some(&i) = elite_indices(&fitness, 1).first()
            && best.as_ref().is_none_or(|(_, f)| fitness[i] > *f)
        {
            best = Some((candidates[i].clone(), fitness[i]));
        }
        optimiser.tell(&candidates, &fitness)?;
        evaluations += candidates.len();
        generations += 1;
    }
    let (best, best_fitness) = best.expect("at least one generation evaluated");
    let answer = optimiser.recommend().unwrap_or_else(|| best.clone());
    Ok(Outcome { best, best_fitness, answer, evaluations, generations })
}

/// The numeric genes of `layout`, or why `optimiser` cannot use it.
pub fn numeric_genes<'a>(optimiser: &'static str, layout: &'a Layout) -> Result<&'a [NumericGene], OptimiseError> {
    match layout {
        Layout::Numeric(genes) => Ok(genes),
        Layout::Bits { .. } => Err(OptimiseError::Unsuited {
            optimiser,
            reason: "needs a numeric (integer/real) search space, not a binary one".into(),
        }),
    }
}
