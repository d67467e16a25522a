//! Aksenov 2004 §5.3-5.4 and §6.1: one generation step of the evolving players (the reference
//! player never breeds).
//!
//! 1. Roulette wheel (Fig. 20): N-1 draws, each organism with probability `f_i / Σf`.
//! 2. Crossover (Michalewicz's scheme, which Fig. 20 comes from): each drawn organism joins the
//!    mating pool with probability `p_c`; an odd pool gains or loses one organism (coin flip);
//!    consecutive pool members are paired. Each pair is replaced by the two offspring of Fig. 17:
//!    arithmetic crossover with one coefficient `a` per pair, `a` outside the two crossover
//!    points and `1 - a` between them, rounded half up. The points are drawn once per
//!    generation ("chosen randomly for every new generation", §5.3.1).
//! 3. Mutation: every gene is redrawn uniformly from its range with probability `p_m`
//!    (random reset, §5.3.2).

use rand::{Rng, seq::index};
use serde::{Deserialize, Serialize};

use crate::ga::{
    encoding::NumericGene,
    operators::{Selection, aksenov_blend, random_reset},
};

/// What a generation step did (for the log).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BreedLog {
    /// Roulette picks: index of the parent each new slot was copied from.
    pub selected: Vec<usize>,
    /// Crossover pairs (slot indices) and their coefficient `a`.
    pub pairs: Vec<(usize, usize, f64)>,
    /// The generation's crossover points: genes `lo..hi` get `1 - a`.
    pub cuts: (usize, usize),
    /// Genes reset by mutation.
    pub mutations: usize,
}

/// Fig. 17 for one pair with coefficient `a` and middle segment `lo..hi` (0-based, `hi`
/// exclusive): `y1 = a x1 + (1-a) x2` outside, `(1-a) x1 + a x2` inside; `y2` the mirror.
pub fn crossover_pair(
    x1: &[f64],
    x2: &[f64],
    genes: &[NumericGene],
    a: f64,
    lo: usize,
    hi: usize,
) -> (Vec<f64>, Vec<f64>) {
    aksenov_blend(x1, x2, genes, a, lo, hi)
}

/// Two distinct crossover points in `0..=len`, as a segment `lo..hi`.
pub fn crossover_points(len: usize, rng: &mut impl Rng) -> (usize, usize) {
    if len == 0 {
        return (0, 0);
    }
    let c = index::sample(rng, len + 1, 2);
    (c.index(0).min(c.index(1)), c.index(0).max(c.index(1)))
}

/// The next evolving population (same size as `pop`) from its fitness values.
///
/// # Panics
/// If `pop` is empty or `fitness` has another length.
pub fn next_population(
    pop: &[Vec<f64>],
    fitness: &[f64],
    genes: &[NumericGene],
    crossover_rate: f64,
    mutation_rate: f64,
    rng: &mut impl Rng,
) -> (Vec<Vec<f64>>, BreedLog) {
    assert!(!pop.is_empty() && pop.len() == fitness.len(), "population and fitness differ");
    let n = pop.len();
    let wheel = Selection::Roulette.prepare(fitness);
    let selected: Vec<usize> = (0..n).map(|_| wheel.pick(rng)).collect();
    let mut next: Vec<Vec<f64>> = selected.iter().map(|&i| pop[i].clone()).collect();

    let mut pool: Vec<usize> = (0..n).filter(|_| rng.random_bool(crossover_rate)).collect();
    if pool.len() % 2 == 1 {
        let outside: Vec<usize> = (0..n).filter(|i| !pool.contains(i)).collect();
        if !outside.is_empty() && rng.random_bool(0.5) {
            let extra = outside[rng.random_range(0..outside.len())];
            let at = pool.partition_point(|&p| p < extra);
            pool.insert(at, extra);
        } else {
            pool.remove(rng.random_range(0..pool.len()));
        }
    }
    let cuts = crossover_points(genes.len(), rng);
    let mut pairs = Vec::new();
    for pair in pool.chunks_exact(2) {
        let (i, j) = (pair[0], pair[1]);
        let a: f64 = rng.random();
        let (y1, y2) = crossover_pair(&next[i], &next[j], genes, a, cuts.0, cuts.1);
        next[i] = y1;
        next[j] = y2;
        pairs.push((i, j, a));
    }
    let mutations = next.iter_mut().map(|x| random_reset(x, genes, mutation_rate, rng)).sum();
    (next, BreedLog { selected, pairs, cuts, mutations })
}
