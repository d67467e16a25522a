//! Coordinate local search as an [`Optimiser`], the Texel tuner's method made generic: from an
//! incumbent in the layout's unit box, each ask tries one coordinate a step up and a step down;
//! the better of the two replaces the incumbent when it is fitter; a whole pass over the
//! coordinates without a move halves the step. It draws nothing from the RNG.

use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use super::{OptimiseError, Optimiser, check_told};
use crate::ga::{Genome, encoding::Layout};

/// The search's position after an ask.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocalState {
    /// The incumbent, in the unit box, and its fitness (`None` until its first tell).
    pub incumbent: Vec<f64>,
    pub fitness: Option<f64>,
    /// The step, as a share of every gene's range.
    pub step: f64,
    /// The coordinate tried by the last ask, and whether this pass has moved.
    pub coordinate: usize,
    pub moved: bool,
    /// The points asked, in the unit box.
    pub asked: Vec<Vec<f64>>,
}

/// Local search from `start` with a first step of `step` of every range.
pub struct LocalSearch {
    layout: Layout,
    state: LocalState,
}

impl LocalSearch {
    pub fn new(layout: Layout, start: &Genome, step: f64) -> LocalSearch {
        let incumbent = layout.unit_of(start);
        let state = LocalState { incumbent, fitness: None, step, coordinate: 0, moved: false, asked: Vec::new() };
        LocalSearch { layout, state }
    }
}

impl Optimiser for LocalSearch {
    type State = LocalState;

    fn name(&self) -> &'static str {
        "local"
    }

    fn ask(&mut self, _: &mut StdRng) -> Result<Vec<Genome>, OptimiseError> {
        let s = &mut self.state;
        s.asked = if s.fitness.is_none() || s.incumbent.is_empty() {
            vec![s.incumbent.clone()]
        } else {
            let i = s.coordinate;
            [s.step, -s.step]
                .iter()
                .map(|d| {
                    let mut x = s.incumbent.clone();
                    x[i] = (x[i] + d).clamp(0.0, 1.0);
                    x
                })
                .collect()
        };
        Ok(s.asked.iter().map(|x| self.layout.genome_at(x)).collect())
    }

    fn tell(&mut self, candidates: &[Genome], fitness: &[f64]) -> Result<(), OptimiseError> {
        check_told(self.name(), candidates.len(), fitness)?;
        let s = &mut self.state;
        check_told("local", s.asked.len(), fitness)?;
        let Some(current) = s.fitness else {
            s.fitness = fitness.first().copied();
            return Ok(());
        };
        if fitness.len() < 2 {
            // No coordinate to move (an empty layout).
            return Ok(());
        }
        // The better of the two; the step up on a tie, so the search is deterministic.
        let best = if fitness[1] > fitness[0] { 1 } else { 0 };
        if fitness[best] > current {
            s.incumbent = s.asked[best].clone();
            s.fitness = Some(fitness[best]);
            s.moved = true;
        }
        s.coordinate += 1;
        if s.coordinate == s.incumbent.len() {
            s.coordinate = 0;
            if !s.moved {
                s.step /= 2.0;
            }
            s.moved = false;
        }
        Ok(())
    }

    fn state(&self) -> LocalState {
        self.state.clone()
    }

    fn restore(&mut self, state: LocalState) {
        self.state = state;
    }

    fn check(&self, state: &LocalState, candidates: &[Genome]) -> Result<(), String> {
        if state.incumbent.len() != self.layout.gene_count() || state.asked.len() != candidates.len() {
            return Err("inconsistent checkpoint (not a local search of this search space)".into());
        }
        Ok(())
    }

    fn recommend(&self) -> Option<Genome> {
        Some(self.layout.genome_at(&self.state.incumbent))
    }
}
