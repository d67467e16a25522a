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
//!
//! [`Aksenov`] is this GA as the driver's [`Optimiser`]: its first ask draws the players at
//! random, every later one breeds the last told.

use rand::{Rng, rngs::StdRng, seq::index};
use serde::{Deserialize, Serialize};

use crate::{
    ga::{
        Genome,
        encoding::NumericGene,
        operators::{Selection, aksenov_blend, random_gene, random_reset},
    },
    optimise::{OptimiseError, Optimiser, check_told},
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

/// How the next population is bred: the thesis uses roulette selection without elitism.
#[derive(Clone, Debug, PartialEq)]
pub struct Breeding {
    pub selection: Selection,
    pub crossover_rate: f64,
    pub mutation_rate: f64,
    /// The best `elitism` organisms (by fitness, lowest index on ties) are copied unchanged over
    /// the first slots of the next population.
    pub elitism: usize,
}

/// The next evolving population (same size as `pop`) by the thesis's operators.
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
    let thesis = Breeding { selection: Selection::Roulette, crossover_rate, mutation_rate, elitism: 0 };
    next_population_with(pop, fitness, genes, &thesis, rng)
}

/// The next evolving population with any selection and elitism (see [`Breeding`]).
///
/// # Panics
/// If `pop` is empty, `fitness` has another length, or `elitism` exceeds the population.
pub fn next_population_with(
    pop: &[Vec<f64>],
    fitness: &[f64],
    genes: &[NumericGene],
    b: &Breeding,
    rng: &mut impl Rng,
) -> (Vec<Vec<f64>>, BreedLog) {
    assert!(!pop.is_empty() && pop.len() == fitness.len(), "population and fitness differ");
    assert!(b.elitism <= pop.len(), "more elites than organisms");
    let (crossover_rate, mutation_rate) = (b.crossover_rate, b.mutation_rate);
    let n = pop.len();
    let wheel = b.selection.prepare(fitness);
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
    let mut best: Vec<usize> = (0..n).collect();
    best.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
    for (slot, &e) in best.iter().take(b.elitism).enumerate() {
        next[slot] = pop[e].clone();
    }
    (next, BreedLog { selected, pairs, cuts, mutations })
}

/// `n` players with every gene drawn uniformly from its range: generation 0.
pub fn random_players(genes: &[NumericGene], n: usize, rng: &mut impl Rng) -> Vec<Vec<f64>> {
    (0..n).map(|_| genes.iter().map(|g| random_gene(g, &mut *rng)).collect()).collect()
}

/// Aksenov's GA over `players` evolving players as an [`Optimiser`].
pub struct Aksenov {
    genes: Vec<NumericGene>,
    players: usize,
    breeding: Breeding,
    /// The last told players and their fitness: the parents of the next ask.
    told: Option<(Vec<Vec<f64>>, Vec<f64>)>,
}

impl Aksenov {
    pub fn new(genes: Vec<NumericGene>, players: usize, breeding: Breeding) -> Aksenov {
        Aksenov { genes, players, breeding, told: None }
    }
}

/// Aksenov's GA keeps nothing between an ask and its tell: it breeds from the players told,
/// which a checkpoint holds anyway.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AksenovState {}

impl Optimiser for Aksenov {
    type State = AksenovState;

    fn name(&self) -> &'static str {
        "roundrobin-ga"
    }

    fn ask(&mut self, rng: &mut StdRng) -> Result<Vec<Genome>, OptimiseError> {
        let players = match &self.told {
            None => random_players(&self.genes, self.players, rng),
            Some((pop, fitness)) => {
                let (next, blog) = next_population_with(pop, fitness, &self.genes, &self.breeding, rng);
                log::debug!("breeding: {blog:?}");
                next
            }
        };
        Ok(players.into_iter().map(Genome::Numbers).collect())
    }

    fn tell(&mut self, candidates: &[Genome], fitness: &[f64]) -> Result<(), OptimiseError> {
        check_told(self.name(), candidates.len(), fitness)?;
        let players = candidates
            .iter()
            .map(|g| {
                g.numbers().map(<[f64]>::to_vec).ok_or_else(|| OptimiseError::Unsuited {
                    optimiser: "roundrobin-ga",
                    reason: "told a binary genome; its players are numeric".into(),
                })
            })
            .collect::<Result<_, _>>()?;
        self.told = Some((players, fitness.to_vec()));
        Ok(())
    }

    fn state(&self) -> AksenovState {
        AksenovState {}
    }

    fn restore(&mut self, _: AksenovState) {}

    fn check(&self, _: &AksenovState, candidates: &[Genome]) -> Result<(), String> {
        if candidates.len() != self.players {
            return Err(format!("inconsistent checkpoint (not {} evolving players)", self.players));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rand::{SeedableRng, rngs::StdRng};

    use super::*;

    #[test]
    fn elites_survive_unchanged_and_the_thesis_has_none() {
        let g = vec![NumericGene { min: 0.0, max: 100.0, step: Some(1.0) }; 3];
        let pop: Vec<Vec<f64>> = (0..6).map(|i| vec![f64::from(i) * 10.0; 3]).collect();
        let fitness = [0.1, 0.9, 0.3, 0.9, 0.5, 0.2];
        let b = Breeding {
            selection: Selection::Tournament { size: 2 },
            crossover_rate: 1.0,
            mutation_rate: 1.0,
            elitism: 2,
        };
        for seed in 0..20 {
            let (next, _) = next_population_with(&pop, &fitness, &g, &b, &mut StdRng::seed_from_u64(seed));
            // The two best (tied at 0.9: organisms 1 and 3) land in slots 0 and 1.
            assert_eq!((&next[0], &next[1]), (&pop[1], &pop[3]), "seed {seed}");
        }
        // Everything mutated, no elitism: organism 1 survives intact only by chance.
        let b = Breeding { elitism: 0, ..b };
        let kept = (0..20)
            .filter(|&s| next_population_with(&pop, &fitness, &g, &b, &mut StdRng::seed_from_u64(s)).0[0] == pop[1])
            .count();
        assert!(kept < 5, "{kept}");
    }
}
