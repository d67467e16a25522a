//! CMA-ES ([`Cmaes`]) as an [`Optimiser`] over a layout's unit box
//! ([`Layout::genome_at`]): the first ask starts the strategy at the mean of an initial draw
//! (the evolution commands' initial population, or one start point), every ask samples the
//! distribution, every tell updates it from the sampled points (not the genomes, which may be
//! rounded onto integer steps or bit fields).

use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use super::Cmaes;
use crate::{
    genome::{Genome, encoding::Layout},
    optimise::{OptimiseError, Optimiser, check_told},
};

/// The points of the last ask and the distribution they were drawn from (told nothing of them
/// yet). Field names and order are those of the evolution commands' CMA-ES checkpoints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CmaesState {
    pub points: Vec<Vec<f64>>,
    pub cma: Cmaes,
}

/// CMA-ES with `lambda` points a generation and initial step `sigma` (a fraction of every
/// gene's range).
pub struct CmaEs<I> {
    layout: Layout,
    sigma: f64,
    lambda: usize,
    /// Draws the genomes whose mean point is the first mean.
    initial: I,
    state: Option<CmaesState>,
}

impl<I: Fn(&mut StdRng) -> Vec<Genome>> CmaEs<I> {
    pub fn new(layout: Layout, sigma: f64, lambda: usize, initial: I) -> Self {
        CmaEs { layout, sigma, lambda, initial, state: None }
    }
}

impl<I: Fn(&mut StdRng) -> Vec<Genome>> Optimiser for CmaEs<I> {
    type State = Option<CmaesState>;

    fn name(&self) -> &'static str {
        "cmaes"
    }

    fn ask(&mut self, rng: &mut StdRng) -> Result<Vec<Genome>, OptimiseError> {
        let cma = match self.state.take() {
            Some(s) => s.cma,
            None => {
                let start: Vec<Vec<f64>> = (self.initial)(rng).iter().map(|g| self.layout.unit_of(g)).collect();
                let n = self.layout.gene_count();
                let mean =
                    (0..n).map(|i| start.iter().map(|x| x[i]).sum::<f64>() / start.len().max(1) as f64).collect();
                Cmaes::new(mean, self.sigma, self.lambda)
            }
        };
        let points = cma.ask(rng);
        let genomes = points.iter().map(|x| self.layout.genome_at(x)).collect();
        self.state = Some(CmaesState { points, cma });
        Ok(genomes)
    }

    fn tell(&mut self, candidates: &[Genome], fitness: &[f64]) -> Result<(), OptimiseError> {
        check_told(self.name(), candidates.len(), fitness)?;
        let Some(state) = self.state.as_mut() else {
            return Err(OptimiseError::Told { optimiser: "cmaes", asked: 0, told: fitness.len() });
        };
        check_told("cmaes", state.points.len(), fitness)?;
        state.cma.tell(&state.points, fitness);
        Ok(())
    }

    fn state(&self) -> Option<CmaesState> {
        self.state.clone()
    }

    fn restore(&mut self, state: Option<CmaesState>) {
        self.state = state;
    }

    fn check(&self, state: &Option<CmaesState>, candidates: &[Genome]) -> Result<(), String> {
        match state {
            Some(s) if s.points.len() == candidates.len() => Ok(()),
            Some(_) => Err("inconsistent checkpoint (points and genomes differ in number)".into()),
            None => Err("inconsistent checkpoint (no CMA-ES state)".into()),
        }
    }

    fn recommend(&self) -> Option<Genome> {
        self.state.as_ref().map(|s| self.layout.genome_at(&s.cma.mean))
    }
}
