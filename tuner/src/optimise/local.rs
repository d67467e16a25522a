//! Coordinate local search as an [`Optimiser`], the Texel tuner's method made generic: from an
//! incumbent in the layout's unit box, each ask is the incumbent and one coordinate a step up
//! and a step down; the better of the two replaces the incumbent when it is fitter than the
//! incumbent is this time; a whole pass over the coordinates without a move halves the step.
//! It draws nothing from the RNG.
//!
//! The incumbent is asked again every time so that the fittest of a generation is never worse
//! than the incumbent (a driver reporting each generation's best reports the search's answer,
//! and one that memoises the last generation's scores does not evaluate it again), and so that
//! a noisy objective compares the neighbours with a fresh measure of the incumbent.

use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use super::{OptimiseError, Optimiser, check_told};
use crate::genome::{Genome, encoding::Layout};

/// The search's position after an ask. (No field is named as one of a checkpoint's own, since
/// the driver flattens this beside the population and its `fitness`.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LocalState {
    /// The incumbent, in the unit box.
    pub incumbent: Vec<f64>,
    /// The step, as a share of every gene's range.
    pub step: f64,
    /// The coordinate tried by the last ask, and whether this pass has moved.
    pub coordinate: usize,
    pub moved: bool,
    /// The points asked, in the unit box: the incumbent, then the step up and down.
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
        let state = LocalState { incumbent, step, coordinate: 0, moved: false, asked: Vec::new() };
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
        s.asked = vec![s.incumbent.clone()];
        // An empty layout has no coordinate to try.
        if let Some(&x) = s.incumbent.get(s.coordinate) {
            for d in [s.step, -s.step] {
                let mut point = s.incumbent.clone();
                point[s.coordinate] = (x + d).clamp(0.0, 1.0);
                s.asked.push(point);
            }
        }
        Ok(s.asked.iter().map(|x| self.layout.genome_at(x)).collect())
    }

    fn tell(&mut self, candidates: &[Genome], fitness: &[f64]) -> Result<(), OptimiseError> {
        check_told(self.name(), candidates.len(), fitness)?;
        let s = &mut self.state;
        check_told("local", s.asked.len(), fitness)?;
        if fitness.len() < 3 {
            return Ok(());
        }
        // The better of the two; the step up on a tie, so the search is deterministic.
        let best = if fitness[2] > fitness[1] { 2 } else { 1 };
        if fitness[best] > fitness[0] {
            s.incumbent = s.asked[best].clone();
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
        let n = self.layout.gene_count();
        if state.incumbent.len() != n || state.asked.len() != candidates.len() || state.coordinate >= n.max(1) {
            return Err("inconsistent checkpoint (not a local search of this search space)".into());
        }
        Ok(())
    }

    fn recommend(&self) -> Option<Genome> {
        Some(self.layout.genome_at(&self.state.incumbent))
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::genome::encoding::NumericGene;

    #[test]
    fn each_ask_is_the_incumbent_and_one_coordinate_up_and_down() {
        let layout = Layout::Numeric(vec![NumericGene { min: 0.0, max: 10.0, step: Some(1.0) }; 2]);
        let mut search = LocalSearch::new(layout, &Genome::Numbers(vec![5.0, 5.0]), 0.1);
        let mut rng = StdRng::seed_from_u64(1);
        let asked = search.ask(&mut rng).unwrap();
        assert_eq!(
            asked,
            [vec![5.0, 5.0], vec![6.0, 5.0], vec![4.0, 5.0]].map(Genome::Numbers).to_vec(),
            "coordinate 0 first"
        );
        // The step down is fitter than the incumbent: it becomes the incumbent.
        search.tell(&asked, &[1.0, 0.0, 2.0]).unwrap();
        assert_eq!(search.recommend(), Some(Genome::Numbers(vec![4.0, 5.0])));
        let asked = search.ask(&mut rng).unwrap();
        assert_eq!(asked[0], Genome::Numbers(vec![4.0, 5.0]));
        assert_eq!(asked[1], Genome::Numbers(vec![4.0, 6.0]));
        // Neither neighbour beats the incumbent: it stays; the pass moved, so the step stays.
        search.tell(&asked, &[3.0, 3.0, 2.0]).unwrap();
        assert_eq!(search.state().step, 0.1);
        assert_eq!(search.recommend(), Some(Genome::Numbers(vec![4.0, 5.0])));
        // A pass without a move halves the step.
        for _ in 0..2 {
            let asked = search.ask(&mut rng).unwrap();
            search.tell(&asked, &[3.0, 1.0, 1.0]).unwrap();
        }
        assert_eq!(search.state().step, 0.05);
        assert_eq!(search.state().coordinate, 0);
        // Told the wrong number of values, it says so.
        let asked = search.ask(&mut rng).unwrap();
        assert!(search.tell(&asked, &[1.0]).is_err());
    }
}
