//! The genetic algorithm: one generation step is [`breed`] (elitism, then selection →
//! crossover → mutation until the population is full, as `[ga]` configures them), and [`Ga`]
//! runs it as an [`Optimiser`]: the first ask draws the initial population, every later one
//! breeds the last told population.
//!
//! ```
//! use rand::SeedableRng;
//! use tuner::genome::{Genome, encoding::{BinaryGene, BitCoding, Layout}, random_genome};
//! use tuner::optimise::{config::GaConfig, ga::breed};
//! let layout = Layout::Bits { coding: BitCoding::Gray, genes: vec![BinaryGene { min: 0, max: 63, bits: 6 }; 4] };
//! let mut rng = rand::rngs::StdRng::seed_from_u64(7);
//! let pop: Vec<Genome> = (0..10).map(|_| random_genome(&layout, &mut rng)).collect();
//! let fitness: Vec<f64> = (0..10).map(|i| i as f64).collect();
//! let cfg = GaConfig { population: 10, ..GaConfig::default() };
//! let next = breed(&pop, &fitness, &cfg, &layout, &mut rng).unwrap();
//! assert_eq!(next.len(), 10);
//! assert_eq!(next[0], pop[9]); // elitism keeps the best unchanged
//! ```

use rand::{Rng, SeedableRng, rngs::StdRng};
use serde::{Deserialize, Serialize};

use super::{
    OptimiseError, Optimiser, check_told,
    choice::OptimiserConfig,
    config::{GaConfig, GaError, invalid},
};
use crate::genome::{Genome, encoding::Layout, mutate, operators, recombine};

/// The next generation: the `elitism` best unchanged, then children of selected parents,
/// recombined with probability `crossover_rate` and mutated, until `cfg.population` organisms.
///
/// # Errors
/// When `cfg` does not suit `layout` or a genome does not fit the layout.
pub fn breed(
    pop: &[Genome],
    fitness: &[f64],
    cfg: &GaConfig,
    layout: &Layout,
    rng: &mut impl Rng,
) -> Result<Vec<Genome>, GaError> {
    cfg.validate(&OptimiserConfig::Ga {}, layout)?;
    if pop.is_empty() || pop.len() != fitness.len() {
        return Err(invalid("population", format!("{} genomes but {} fitness values", pop.len(), fitness.len())));
    }
    if let Some(i) = pop.iter().position(|g| !g.fits(layout)) {
        return Err(invalid("population", format!("genome {i} does not fit the search space")));
    }
    let mut next: Vec<Genome> =
        operators::elite_indices(fitness, cfg.elitism.min(pop.len())).into_iter().map(|i| pop[i].clone()).collect();
    let selector = cfg.selection.prepare(fitness);
    while next.len() < cfg.population {
        let parents: Vec<&Genome> = (0..cfg.crossover.parents()).map(|_| &pop[selector.pick(rng)]).collect();
        let children = if rng.random_bool(cfg.crossover_rate) {
            recombine(&parents, &cfg.crossover, layout, rng)
        } else {
            parents.iter().take(2).map(|&g| g.clone()).collect()
        };
        for mut child in children {
            if next.len() == cfg.population {
                break;
            }
            mutate(&mut child, &cfg.mutation, cfg.mutation_rate, layout, rng);
            next.push(child);
        }
    }
    Ok(next)
}

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
