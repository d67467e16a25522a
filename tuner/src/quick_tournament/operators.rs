//! Belmonte 2013 §II-C..E: parent selection, crossover, mutation and the survivor policy, as
//! pure functions of a ranked population and an RNG.
//!
//! * Parent selection: a candidate drawn uniformly is accepted with probability `rank / N`
//!   (rank 0 = worst), the bottom 20% never; so a parent's chance is proportional to its rank
//!   among the top 80%. 2..4 parents are drawn with replacement per offspring.
//! * Crossover: per allele, a random parent's value with probability 2/3, otherwise the parents'
//!   mean ([`crate::ga::operators::multi_parent_mean`]).
//! * Mutation: each allele gets N(0, 400) noise with probability 0.4, clamped into [800, 17000]
//!   ([`crate::ga::operators::gaussian`]); both configurable ([`MutationStep`]).
//! * Survivors: the top 20% stay, the bottom 20% are replaced by random newcomers; each of the
//!   middle 60% stays unchanged (20%), becomes a mutant of a random non-bottom individual (40%)
//!   or an offspring (40%). "20%" of N is `round(0.2 N)` (2 of 12).

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::ga::{encoding::NumericGene, operators};

/// Alleles: pawn, knight, bishop, rook, queen.
pub const PIECES: [&str; 5] = ["pawn", "knight", "bishop", "rook", "queen"];
/// Allele range (not normalised; Belmonte §II-A).
pub const VALUE_MIN: i32 = 800;
pub const VALUE_MAX: i32 = 17000;
/// Mutation: per-allele probability and noise standard deviation (§II-D2).
pub const MUTATION_RATE: f64 = 0.4;
pub const MUTATION_SIGMA: f64 = 400.0;

/// The mutation operator's settings (`[mutation]` in configs/quick/default.toml); the paper's by default.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MutationStep {
    /// Probability that an allele is mutated.
    pub rate: f64,
    /// Standard deviation of the noise, in raw allele units (the range is [800, 17000]).
    pub sigma: f64,
    /// Factor applied to `sigma` once per generation (1 = the paper's constant step): a large
    /// early step explores, a shrinking one lets the ratios settle instead of wandering.
    #[serde(skip_serializing_if = "is_one")]
    pub sigma_decay: f64,
    /// The shrinking step never goes below this.
    #[serde(skip_serializing_if = "is_zero")]
    pub sigma_min: f64,
}

// The paper's values are left out of the serialised form, so run fingerprints written before
// the step could shrink still match.
fn is_one(x: &f64) -> bool {
    *x == 1.0
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl Default for MutationStep {
    fn default() -> Self {
        MutationStep { rate: MUTATION_RATE, sigma: MUTATION_SIGMA, sigma_decay: 1.0, sigma_min: 0.0 }
    }
}

impl MutationStep {
    /// The step that makes generation `generation` (0 = the random one).
    pub fn at(self, generation: usize) -> MutationStep {
        let shrunk = self.sigma * self.sigma_decay.powi(generation.min(i32::MAX as usize) as i32);
        MutationStep { sigma: shrunk.max(self.sigma_min.min(self.sigma)), ..self }
    }
}

/// The five piece values of one individual.
pub type Values = [i32; 5];

/// The allele domain as a GA-library gene.
pub fn gene() -> NumericGene {
    NumericGene { min: f64::from(VALUE_MIN), max: f64::from(VALUE_MAX), step: Some(1.0) }
}

/// Uniformly random alleles.
pub fn random_values(rng: &mut impl Rng) -> Values {
    let g = gene();
    std::array::from_fn(|_| operators::random_gene(&g, rng) as i32)
}

/// Size of the top and of the bottom tier: `round(0.2 N)`.
pub fn tier(n: usize) -> usize {
    (n as f64 * 0.2).round() as usize
}

/// One parent's rank (0 = worst) by Belmonte's acceptance rule.
///
/// # Panics
/// If `n < 2` (no rank has a positive probability).
pub fn select_parent(n: usize, rng: &mut impl Rng) -> usize {
    assert!(n >= 2, "parent selection needs at least 2 individuals");
    let excluded = tier(n);
    loop {
        let c = rng.random_range(0..n);
        if c >= excluded && rng.random_bool(c as f64 / n as f64) {
            return c;
        }
    }
}

/// Offspring of 2..4 parents chosen by [`select_parent`] from `ranked` (worst first); returns
/// the child and its parents' ranks.
pub fn offspring(ranked: &[Values], rng: &mut impl Rng) -> (Values, Vec<usize>) {
    let k = rng.random_range(2..=4);
    let parents: Vec<usize> = (0..k).map(|_| select_parent(ranked.len(), rng)).collect();
    (crossover(&parents.iter().map(|&p| ranked[p]).collect::<Vec<_>>(), rng), parents)
}

/// Belmonte's per-allele crossover of any number of parents.
pub fn crossover(parents: &[Values], rng: &mut impl Rng) -> Values {
    let as_f64: Vec<Vec<f64>> = parents.iter().map(|p| p.iter().map(|&v| f64::from(v)).collect()).collect();
    let refs: Vec<&[f64]> = as_f64.iter().map(Vec::as_slice).collect();
    let child = operators::multi_parent_mean(&refs, &[gene(); 5], rng);
    std::array::from_fn(|i| child[i] as i32)
}

/// A mutated copy: each allele gets N(0, sigma) with probability `rate`, clamped into range.
pub fn mutate(values: &Values, step: MutationStep, rng: &mut impl Rng) -> Values {
    let mut x: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
    let g = gene();
    // The library's sigma is a share of the gene's range.
    operators::gaussian(&mut x, &[g; 5], step.rate, step.sigma / (g.max - g.min), rng);
    std::array::from_fn(|i| x[i] as i32)
}

/// What becomes of the individual at one rank.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fate {
    /// Top 20%: kept (elitism).
    Elite,
    /// Middle 60%, 20% chance: kept unchanged.
    Kept,
    /// Middle 60%, 40% chance: replaced by a mutant of the individual at rank `of`.
    Mutant { of: usize },
    /// Middle 60%, 40% chance: replaced by an offspring of these ranks.
    Offspring { parents: Vec<usize> },
    /// Bottom 20%: replaced by a random newcomer.
    Fresh,
}

/// The survivor plan for a population ranked worst first: one [`Fate`] per rank, and the values
/// each rank holds next generation.
pub fn survivors(ranked: &[Values], step: MutationStep, rng: &mut impl Rng) -> Vec<(Fate, Values)> {
    let n = ranked.len();
    let t = tier(n);
    (0..n)
        .map(|rank| {
            if rank < t {
                (Fate::Fresh, random_values(rng))
            } else if rank >= n - t {
                (Fate::Elite, ranked[rank])
            } else {
                let r: f64 = rng.random();
                if r < 0.2 {
                    (Fate::Kept, ranked[rank])
                } else if r < 0.6 {
                    let of = rng.random_range(t..n);
                    (Fate::Mutant { of }, mutate(&ranked[of], step, rng))
                } else {
                    let (child, parents) = offspring(ranked, rng);
                    (Fate::Offspring { parents }, child)
                }
            }
        })
        .collect()
}

/// `values` over the pawn's value.
pub fn normalised(values: &[f64; 5]) -> [f64; 5] {
    std::array::from_fn(|i| if values[0] > 0.0 { values[i] / values[0] } else { f64::NAN })
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn tiers_and_paper_crossover_mean() {
        assert_eq!((tier(12), tier(10), tier(15), tier(16)), (2, 2, 3, 3));
        // Fig. 2.2: the queen allele as the mean of 15000, 15736 and 3273 is 11336.
        let mut rng = rand::rngs::StdRng::seed_from_u64(0);
        let parents =
            [[3000, 9000, 8000, 4000, 15000], [1860, 2079, 15692, 15416, 15736], [6110, 12034, 9677, 1608, 3273]];
        let mut seen_mean = false;
        for _ in 0..200 {
            let c = crossover(&parents, &mut rng);
            for (i, v) in c.iter().enumerate() {
                let mean = (parents.iter().map(|p| f64::from(p[i])).sum::<f64>() / 3.0).round() as i32;
                assert!(parents.iter().any(|p| p[i] == *v) || *v == mean, "allele {i} = {v}");
            }
            seen_mean |= c[4] == 11336;
        }
        assert!(seen_mean);
    }

    #[test]
    fn the_mutation_step_shrinks_per_generation_down_to_its_floor() {
        let paper = MutationStep::default();
        assert_eq!(paper.at(0), paper);
        assert_eq!(paper.at(49).sigma, 400.0);
        let shrinking = MutationStep { sigma: 1200.0, sigma_decay: 0.5, sigma_min: 200.0, ..paper };
        let sigmas: Vec<f64> = (0..5).map(|g| shrinking.at(g).sigma).collect();
        assert_eq!(sigmas, [1200.0, 600.0, 300.0, 200.0, 200.0]);
        assert_eq!(shrinking.at(3).rate, paper.rate);
        // A floor above the starting step does not raise it.
        assert_eq!(MutationStep { sigma_min: 5000.0, ..shrinking }.at(1).sigma, 1200.0);
        // The paper's values keep the serialised form (and so old run fingerprints) unchanged.
        assert_eq!(serde_json::to_string(&paper).unwrap(), r#"{"rate":0.4,"sigma":400.0}"#);
    }
}
