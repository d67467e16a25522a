//! The genetic algorithm as an [`Optimiser`]: the first ask draws the initial population, every
//! later one breeds the last told population with [`breed`] (elitism, selection, crossover,
//! mutation as `[ga]` configures them).

use rand::{Rng, SeedableRng, rngs::StdRng};
use serde::{Deserialize, Serialize};

use super::{OptimiseError, Optimiser, check_told};
use crate::ga::{GaConfig, Genome, breed, encoding::Layout};

/// The GA keeps nothing of its own between an ask and its tell: the population it breeds from is
/// the candidates told, which a checkpoint holds anyway. (Empty, so a GA checkpoint is the
/// population and its fitness alone, as it always was.)
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GaState {}

/// The GA over one layout; `initial` draws generation 0.
pub struct Ga<I> {
    cfg: GaConfig,
    layout: Layout,
    initial: I,
    /// The last told population and its fitness: the parents of the next ask.
    told: Option<(Vec<Genome>, Vec<f64>)>,
}

impl<I: Fn(&mut StdRng) -> Vec<Genome>> Ga<I> {
    /// The settings are checked against the layout by every breeding ask (the first ask draws
    /// with `initial` and needs none of them).
    pub fn new(cfg: GaConfig, layout: Layout, initial: I) -> Self {
        Ga { cfg, layout, initial, told: None }
    }
}

impl<I: Fn(&mut StdRng) -> Vec<Genome>> Optimiser for Ga<I> {
    type State = GaState;

    fn name(&self) -> &'static str {
        "ga"
    }

    fn ask(&mut self, rng: &mut StdRng) -> Result<Vec<Genome>, OptimiseError> {
        match &self.told {
            None => Ok((self.initial)(rng)),
            Some((pop, fitness)) => {
                let mut bred = breed(pop, fitness, &self.cfg, &self.layout, rng)?;
                // Generation 0 again, from an RNG of this ask's own, for the mutants: the same
                // draw on a resume.
                if self.cfg.immigrants.count > 0 {
                    let mut draw = StdRng::seed_from_u64(rng.random());
                    self.cfg.immigrants.arrive(&mut bred, &self.layout, || (self.initial)(&mut draw), rng);
                }
                Ok(bred)
            }
        }
    }

    fn tell(&mut self, candidates: &[Genome], fitness: &[f64]) -> Result<(), OptimiseError> {
        check_told(self.name(), candidates.len(), fitness)?;
        self.told = Some((candidates.to_vec(), fitness.to_vec()));
        Ok(())
    }

    fn state(&self) -> GaState {
        GaState {}
    }

    fn restore(&mut self, _: GaState) {}
}
