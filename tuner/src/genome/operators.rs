//! Selection, crossover and mutation: pure functions of their inputs and a seeded RNG.
//!
//! Operators cover David et al. (fitness-proportional selection, uniform crossover, bit-flip
//! mutation on Gray-coded strings; rank-based selection for coevolution), Aksenov §5.3
//! (two-point crossover blended arithmetically, Fig. 17; random-reset mutation) and Belmonte
//! (rank-based choice of 2..4 parents, per-allele multi-parent crossover with a 1/3 chance of
//! the parents' mean; Gaussian mutation).

use rand::{Rng, seq::index};
use rand_distr::{Distribution, Normal};
use serde::{Deserialize, Serialize};

use super::encoding::NumericGene;

/// How parents are drawn from a scored population.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Selection {
    /// Fitness-proportional (roulette wheel). Negative fitnesses are shifted so the worst
    /// organism gets weight 0; an all-equal population is drawn uniformly.
    Roulette,
    /// Linear ranking: the worst has weight `2 - pressure`, the best `pressure`
    /// (`pressure` in [1, 2]; 2 makes the chance proportional to rank). Ties share their rank.
    Rank {
        #[serde(default = "default_pressure")]
        pressure: f64,
    },
    /// The fittest of `size` organisms drawn uniformly with replacement.
    Tournament { size: usize },
}

fn default_pressure() -> f64 {
    2.0
}

/// A selection operator prepared for one population's fitness values.
#[derive(Clone, Debug)]
pub enum Selector {
    /// Cumulative weights for inverse-CDF sampling (roulette and rank).
    Wheel(Vec<f64>),
    Tournament {
        fitness: Vec<f64>,
        size: usize,
    },
}

impl Selection {
    /// Prepares the operator for a population whose fitness is `fitness` (non-empty).
    pub fn prepare(&self, fitness: &[f64]) -> Selector {
        assert!(!fitness.is_empty(), "selection from an empty population");
        match *self {
            Selection::Roulette => {
                let min = fitness.iter().copied().fold(f64::INFINITY, f64::min);
                let shift = if min < 0.0 { -min } else { 0.0 };
                Selector::Wheel(cumulative(fitness.iter().map(|f| f + shift)))
            }
            Selection::Rank { pressure } => {
                let ranks = average_ranks(fitness);
                let n = fitness.len() as f64;
                let weights = ranks.iter().map(|&r| {
                    if n < 2.0 { 1.0 } else { (2.0 - pressure) / n + 2.0 * r * (pressure - 1.0) / (n * (n - 1.0)) }
                });
                Selector::Wheel(cumulative(weights))
            }
            Selection::Tournament { size } => Selector::Tournament { fitness: fitness.to_vec(), size: size.max(1) },
        }
    }
}

impl Selector {
    /// Index of one selected organism.
    pub fn pick(&self, rng: &mut impl Rng) -> usize {
        match self {
            Selector::Wheel(cum) => {
                let total = *cum.last().expect("non-empty");
                if total <= 0.0 || !total.is_finite() {
                    return rng.random_range(0..cum.len());
                }
                let x = rng.random::<f64>() * total;
                // First index whose cumulative weight exceeds x; zero-weight organisms are never hit.
                cum.partition_point(|&c| c <= x).min(cum.len() - 1)
            }
            Selector::Tournament { fitness, size } => {
                let mut best = rng.random_range(0..fitness.len());
                for _ in 1..*size {
                    let i = rng.random_range(0..fitness.len());
                    if fitness[i] > fitness[best] {
                        best = i;
                    }
                }
                best
            }
        }
    }
}

fn cumulative(weights: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut sum = 0.0;
    weights
        .map(|w| {
            sum += if w.is_finite() && w > 0.0 { w } else { 0.0 };
            sum
        })
        .collect()
}

/// Rank of each fitness value, 0 = worst, ties sharing the mean of their ranks.
pub fn average_ranks(fitness: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| fitness[a].total_cmp(&fitness[b]));
    let mut ranks = vec![0.0; fitness.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && fitness[order[j + 1]] == fitness[order[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0;
        for &k in &order[i..=j] {
            ranks[k] = mean;
        }
        i = j + 1;
    }
    ranks
}

/// Indices of the `n` fittest organisms, best first (ties: lower index first).
pub fn elite_indices(fitness: &[f64], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
    order.truncate(n);
    order
}

/// How two (or more) parents are recombined.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Crossover {
    /// Every locus is swapped between the two children with probability 1/2.
    Uniform,
    /// Tails after one random cut are exchanged.
    OnePoint,
    /// The segment between two random cuts is exchanged.
    TwoPoint,
    /// Numeric genomes: `y1 = a x1 + (1-a) x2`, `y2 = (1-a) x1 + a x2`, one random `a` per pair.
    Arithmetic,
    /// Numeric genomes, Aksenov Fig. 17: two cuts; the coefficient `a` and `1-a` swap roles in
    /// the middle segment, so each child blends towards a different parent there.
    AksenovArithmetic,
    /// `parents` parents (Belmonte used 2..4) give one child: each locus is copied from a random
    /// parent, or (numeric genomes, probability 1/3) set to the parents' mean.
    MultiParent { parents: usize },
}

impl Crossover {
    /// Parents one crossover consumes.
    pub fn parents(&self) -> usize {
        match self {
            Crossover::MultiParent { parents } => *parents,
            _ => 2,
        }
    }

    /// True when the operator only makes sense on numeric genomes.
    pub fn numeric_only(&self) -> bool {
        matches!(self, Crossover::Arithmetic | Crossover::AksenovArithmetic)
    }
}

/// Uniform crossover: each locus swapped with probability 1/2.
pub fn uniform<T: Clone>(a: &[T], b: &[T], rng: &mut impl Rng) -> (Vec<T>, Vec<T>) {
    let mut x = a.to_vec();
    let mut y = b.to_vec();
    for i in 0..x.len().min(y.len()) {
        if rng.random_bool(0.5) {
            std::mem::swap(&mut x[i], &mut y[i]);
        }
    }
    (x, y)
}

/// One-point crossover with the cut in `1..len` (both children mix both parents when len > 1).
pub fn one_point<T: Clone>(a: &[T], b: &[T], rng: &mut impl Rng) -> (Vec<T>, Vec<T>) {
    let len = a.len().min(b.len());
    if len < 2 {
        return (a.to_vec(), b.to_vec());
    }
    let cut = rng.random_range(1..len);
    swap_segment(a, b, cut, len)
}

/// Two-point crossover: two distinct cuts drawn from `0..=len`; the segment between them is exchanged.
pub fn two_point<T: Clone>(a: &[T], b: &[T], rng: &mut impl Rng) -> (Vec<T>, Vec<T>) {
    let (lo, hi) = two_cuts(a.len().min(b.len()), rng);
    swap_segment(a, b, lo, hi)
}

fn two_cuts(len: usize, rng: &mut impl Rng) -> (usize, usize) {
    if len == 0 {
        return (0, 0);
    }
    let cuts = index::sample(rng, len + 1, 2);
    let (p, q) = (cuts.index(0), cuts.index(1));
    (p.min(q), p.max(q))
}

fn swap_segment<T: Clone>(a: &[T], b: &[T], lo: usize, hi: usize) -> (Vec<T>, Vec<T>) {
    let mut x = a.to_vec();
    let mut y = b.to_vec();
    x[lo..hi].clone_from_slice(&b[lo..hi]);
    y[lo..hi].clone_from_slice(&a[lo..hi]);
    (x, y)
}

/// Whole arithmetic crossover with a random coefficient `a` in [0, 1]; children are repaired
/// into each gene's domain (integer genes rounded to their step).
pub fn arithmetic(a: &[f64], b: &[f64], genes: &[NumericGene], rng: &mut impl Rng) -> (Vec<f64>, Vec<f64>) {
    let alpha = rng.random::<f64>();
    blend(a, b, genes, |_| alpha)
}

/// Aksenov's crossover (Fig. 17): arithmetic with coefficient `a` outside two random cuts and
/// `1 - a` between them.
pub fn aksenov_arithmetic(a: &[f64], b: &[f64], genes: &[NumericGene], rng: &mut impl Rng) -> (Vec<f64>, Vec<f64>) {
    let alpha = rng.random::<f64>();
    let (lo, hi) = two_cuts(a.len().min(b.len()), rng);
    aksenov_blend(a, b, genes, alpha, lo, hi)
}

/// The deterministic core of [`aksenov_arithmetic`]: coefficient `alpha` outside `lo..hi`,
/// `1 - alpha` inside; results rounded half up onto integer genes (Aksenov's Table 5).
pub fn aksenov_blend(
    a: &[f64],
    b: &[f64],
    genes: &[NumericGene],
    alpha: f64,
    lo: usize,
    hi: usize,
) -> (Vec<f64>, Vec<f64>) {
    blend(a, b, genes, |i| if (lo..hi).contains(&i) { 1.0 - alpha } else { alpha })
}

fn blend(a: &[f64], b: &[f64], genes: &[NumericGene], coef: impl Fn(usize) -> f64) -> (Vec<f64>, Vec<f64>) {
    a.iter()
        .zip(b)
        .zip(genes)
        .enumerate()
        .map(|(i, ((&x1, &x2), g))| {
            let c = coef(i);
            (g.repair(c * x1 + (1.0 - c) * x2), g.repair((1.0 - c) * x1 + c * x2))
        })
        .unzip()
}

/// Multi-parent crossover on any genome: each locus comes from a uniformly chosen parent.
pub fn multi_parent<T: Clone>(parents: &[&[T]], rng: &mut impl Rng) -> Vec<T> {
    let len = parents.iter().map(|p| p.len()).min().unwrap_or(0);
    (0..len).map(|i| parents[rng.random_range(0..parents.len())][i].clone()).collect()
}

/// Belmonte's multi-parent crossover for numeric genomes: each locus comes from a random parent
/// with probability 2/3, otherwise it is the parents' mean (repaired into the gene's domain).
pub fn multi_parent_mean(parents: &[&[f64]], genes: &[NumericGene], rng: &mut impl Rng) -> Vec<f64> {
    genes
        .iter()
        .enumerate()
        .map(|(i, g)| {
            if rng.random_bool(1.0 / 3.0) {
                g.repair(parents.iter().map(|p| p[i]).sum::<f64>() / parents.len() as f64)
            } else {
                parents[rng.random_range(0..parents.len())][i]
            }
        })
        .collect()
}

/// How a child is perturbed. The per-locus rate is `GaConfig::mutation_rate`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Mutation {
    /// Binary genomes: each bit flips with the mutation rate.
    BitFlip,
    /// Numeric genomes: each gene gets N(0, sigma * (max - min)) added with the mutation rate.
    Gaussian {
        #[serde(default = "default_sigma")]
        sigma: f64,
    },
    /// Numeric genomes: each gene is redrawn uniformly from its domain with the mutation rate.
    RandomReset,
}

fn default_sigma() -> f64 {
    0.1
}

/// Flips each bit with probability `rate`; returns the number flipped.
pub fn bit_flip(bits: &mut [bool], rate: f64, rng: &mut impl Rng) -> usize {
    let mut flipped = 0;
    for b in bits {
        if rng.random_bool(rate) {
            *b = !*b;
            flipped += 1;
        }
    }
    flipped
}

/// Adds Gaussian noise of standard deviation `sigma * (max - min)` to each gene with probability `rate`.
pub fn gaussian(x: &mut [f64], genes: &[NumericGene], rate: f64, sigma: f64, rng: &mut impl Rng) -> usize {
    let mut changed = 0;
    for (v, g) in x.iter_mut().zip(genes) {
        if rng.random_bool(rate) {
            let sd = sigma * (g.max - g.min);
            let noise = Normal::new(0.0, sd.max(f64::MIN_POSITIVE)).map(|n| n.sample(rng)).unwrap_or(0.0);
            *v = g.repair(*v + noise);
            changed += 1;
        }
    }
    changed
}

/// Redraws each gene uniformly from its domain with probability `rate`.
pub fn random_reset(x: &mut [f64], genes: &[NumericGene], rate: f64, rng: &mut impl Rng) -> usize {
    let mut changed = 0;
    for (v, g) in x.iter_mut().zip(genes) {
        if rng.random_bool(rate) {
            *v = random_gene(g, rng);
            changed += 1;
        }
    }
    changed
}

/// A uniformly random value of the gene's domain (each step level equally likely).
pub fn random_gene(g: &NumericGene, rng: &mut impl Rng) -> f64 {
    match (g.levels(), g.step) {
        (Some(levels), Some(step)) => g.repair(g.min + rng.random_range(0..levels) as f64 * step),
        _ => {
            if g.max > g.min {
                rng.random_range(g.min..=g.max)
            } else {
                g.min
            }
        }
    }
}
