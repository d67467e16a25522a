//! The population: generation 0 from parameter files, mutants of them or random genomes, the
//! seed each later organism takes its values outside the space from, and how far apart the
//! organisms are.

use std::path::PathBuf;

use evochess::params::Params;

use super::{Coevolution, CoevolveError, CoevolveGeneration, OrganismResult, parameter_files};
use crate::{
    ga::{Genome, generation_rng, operators::elite_indices, random_genome},
    space::SearchSpace,
};

/// Salts the mutants' RNG apart from breeding's `generation_rng(seed, 0, g)`.
const MUTANT_SALT: u64 = 0x6d75_7461_6e74_7321;

/// The first generation.
#[derive(Clone, Debug)]
pub struct Initial {
    pub genomes: Vec<Genome>,
    /// Where each organism came from: its file name, or `random`.
    pub origins: Vec<String>,
    /// Each organism's values outside the space: its seed file's (with the space's `[fixed]`
    /// values), or the space's base for random organisms. Organisms bred later take theirs
    /// by [`lineage`].
    pub bases: Vec<Params>,
}

/// Loads the first generation from parameter files: each file as the space's organism
/// ([`SearchSpace::seed`]), logging how many of its values the space changed.
pub fn load_population(files: &[PathBuf], space: &SearchSpace) -> Result<Initial, CoevolveError> {
    let mut initial = Initial { genomes: Vec::new(), origins: Vec::new(), bases: Vec::new() };
    for f in files {
        let p = Params::load(f).map_err(|e| CoevolveError::params(f, e))?;
        let name = f.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        log::info!("generation 0, organism {}: {}", initial.genomes.len(), space.projection_note(&name, &p));
        let (genome, base) = space.seed(&p);
        initial.genomes.push(genome);
        initial.bases.push(base);
        initial.origins.push(name);
    }
    Ok(initial)
}

/// Which of generation 0's organisms lends its values outside the space to each organism of
/// `generation`: an elite keeps the one of the organism it copies (breeding puts the elites in
/// the first slots, best first), a child the one of its slot's first organism, so that every
/// seed file's values outside the space stay in the population. `history` holds the records of
/// the generations before (fitness decides the elites, as in breeding).
pub fn lineage(size: usize, elitism: usize, generation: usize, history: &[CoevolveGeneration]) -> Vec<usize> {
    let mut from: Vec<usize> = (0..size).collect();
    for previous in history.iter().filter(|h| h.generation < generation) {
        let fitness: Vec<f64> = previous.organisms.iter().map(OrganismResult::fitness).collect();
        let elites = elite_indices(&fitness, elitism.min(fitness.len()));
        from = (0..size).map(|i| elites.get(i).map_or(i, |&e| from.get(e).copied().unwrap_or(e))).collect();
    }
    from
}

/// How far apart a population's organisms are: the mean, over every two organisms, of the
/// share of genes whose values differ (0: every organism the same, as in a collapsed
/// population; 1: no gene shared).
pub fn diversity(pop: &[Genome], layout: &crate::ga::encoding::Layout) -> f64 {
    let units: Vec<Vec<f64>> = pop.iter().map(|g| layout.unit_of(g)).collect();
    let genes = layout.gene_count().max(1) as f64;
    let (mut sum, mut pairs) = (0.0, 0usize);
    for i in 0..units.len() {
        for j in i + 1..units.len() {
            sum += units[i].iter().zip(&units[j]).filter(|(a, b)| a != b).count() as f64 / genes;
            pairs += 1;
        }
    }
    if pairs == 0 { 0.0 } else { sum / pairs as f64 }
}

impl Coevolution {
    /// The first generation: from `population_dir` or random.
    pub fn initial_population(&self) -> Result<Initial, CoevolveError> {
        if !self.cfg.organisms.is_empty() {
            if self.cfg.organisms.len() < 2 {
                return Err(CoevolveError::Config("[[organisms]] needs at least 2 organisms".into()));
            }
            let files: Vec<PathBuf> = self.cfg.organisms.iter().map(|o| o.file.clone()).collect();
            return load_population(&files, &self.space);
        }
        match &self.cfg.population_dir {
            Some(dir) => {
                if !dir.is_dir() {
                    let what = if dir.exists() { "is not a directory" } else { "no such directory" };
                    return Err(CoevolveError::Config(format!(
                        "population directory {}: {what}; give the first generation's parameter files (*.toml) \
                         with --population-dir DIR, or start from random organisms with --random N",
                        dir.display()
                    )));
                }
                let files = parameter_files(dir)?;
                if files.is_empty() || files.len() + self.cfg.mutants < 2 {
                    return Err(CoevolveError::Config(format!(
                        "population_dir {} holds {} parameter file(s); coevolution needs at least 2 organisms \
                         (files, or one file and `mutants = N` of it)",
                        dir.display(),
                        files.len()
                    )));
                }
                let mut initial = load_population(&files, &self.space)?;
                self.add_mutants(&mut initial);
                Ok(initial)
            }
            None => {
                let mut rng = generation_rng(self.cfg.seed, 0, 0);
                let n = self.cfg.ga.population;
                let genomes: Vec<Genome> = (0..n).map(|_| random_genome(self.space.layout(), &mut rng)).collect();
                Ok(Initial { genomes, origins: vec!["random".to_string(); n], bases: vec![self.space.base(); n] })
            }
        }
    }

    /// Appends `mutants` mutants of the seed files (in turn) to generation 0, from an RNG of
    /// their own, so the same on every resume.
    fn add_mutants(&self, initial: &mut Initial) {
        let seeds = initial.genomes.len();
        let mut rng = generation_rng(self.cfg.seed ^ MUTANT_SALT, 0, 0);
        for k in 0..self.cfg.mutants {
            let of = k % seeds;
            let genome = crate::ga::mutant(&initial.genomes[of], self.space.layout(), self.cfg.mutant_sigma, &mut rng);
            initial.genomes.push(genome);
            initial.origins.push(format!("mutant of {}", initial.origins[of]));
            initial.bases.push(initial.bases[of].clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coevolve::report::tests::{generation, organism};

    #[test]
    fn elites_keep_their_seed_s_values_and_children_their_slot_s() {
        let generation =
            |g: usize, points: Vec<f64>| generation(g, points.into_iter().map(|p| organism("", p)).collect());
        assert_eq!(lineage(4, 1, 0, &[]), vec![0, 1, 2, 3]);
        // Generation 0: organism 2 wins, so generation 1's elite (slot 0) is seed 2.
        let history = vec![generation(0, vec![1.0, 0.0, 3.0, 2.0]), generation(1, vec![0.0, 1.0, 2.0, 2.0])];
        assert_eq!(lineage(4, 1, 1, &history), vec![2, 1, 2, 3]);
        // Generation 1: slot 2 wins (a tie goes to the lower slot), itself a child of seed 2's
        // slot; with two elites the second is slot 3.
        assert_eq!(lineage(4, 1, 2, &history), vec![2, 1, 2, 3]);
        assert_eq!(lineage(4, 2, 2, &history), vec![2, 3, 2, 3]);
        let history = vec![generation(0, vec![1.0, 0.0, 3.0, 2.0]), generation(1, vec![0.0, 3.0, 2.0, 2.0])];
        assert_eq!(lineage(4, 1, 2, &history), vec![1, 1, 2, 3]);
    }

    #[test]
    fn diversity_is_the_mean_share_of_genes_two_organisms_differ_in() {
        use crate::ga::encoding::{Layout, NumericGene};
        let layout = Layout::Numeric(vec![NumericGene { min: 0.0, max: 10.0, step: Some(1.0) }; 4]);
        let g = |x: [f64; 4]| Genome::Numbers(x.to_vec());
        assert_eq!(diversity(&[g([1.0; 4]), g([1.0; 4]), g([1.0; 4])], &layout), 0.0);
        assert_eq!(diversity(&[g([1.0; 4]), g([2.0; 4])], &layout), 1.0);
        // Pairs differ in 1, 2 and 1 of 4 genes.
        let d = diversity(&[g([1.0, 1.0, 1.0, 1.0]), g([2.0, 1.0, 1.0, 1.0]), g([2.0, 3.0, 1.0, 1.0])], &layout);
        assert!((d - (0.25 + 0.5 + 0.25) / 3.0).abs() < 1e-12, "{d}");
        assert_eq!(diversity(&[g([1.0; 4])], &layout), 0.0);
    }
}
