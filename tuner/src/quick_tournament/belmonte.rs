//! Belmonte's GA as an [`Optimiser`]: generation 0 is random members with random names; each
//! later ask breeds the members told, ranked by their fitness (their place in the tournament's
//! ranking, worst first), by the survivor policy ([`survivors`]). Members keep their id and
//! name while they survive, so the optimiser labels its candidates ([`Optimiser::labels`]):
//! the tournament plays them under those names and keeps their life records by id.

use rand::{Rng, rngs::StdRng};
use serde::{Deserialize, Serialize};

use super::{
    QuickConfig,
    mapping::playable,
    names::unique_name,
    operators::{Fate, MutationStep, Values, gene, random_values, survivors},
    record::Individual,
};
use crate::{
    genome::{Genome, encoding::Layout},
    optimise::{Label, OptimiseError, Optimiser, check_told},
};

/// The five alleles' search space.
pub fn layout() -> Layout {
    Layout::Numeric(vec![gene(); 5])
}

pub fn genome(values: &Values) -> Genome {
    Genome::Numbers(values.iter().map(|&v| f64::from(v)).collect())
}

/// The values of a genome of [`layout`] (whole numbers in the allele range).
pub fn values(genome: &Genome) -> Option<Values> {
    let numbers = genome.numbers()?;
    let values: Vec<i32> = numbers.iter().map(|&x| x as i32).collect();
    values.try_into().ok()
}

/// What a checkpoint keeps of an ask: the generation it made and who its members are (their
/// values are the checkpoint's population). (No field is named as one of the checkpoint's
/// own, `generation` say: the driver flattens this beside them.)
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Members {
    pub asked_generation: usize,
    /// Highest id given so far.
    pub next_id: u64,
    pub members: Vec<Label>,
}

/// Belmonte's GA over `cfg.population` members.
pub struct Belmonte<'a> {
    cfg: &'a QuickConfig,
    state: Members,
    /// The members told, ranked worst first: the parents of the next ask.
    ranked: Option<Vec<Individual>>,
}

impl<'a> Belmonte<'a> {
    pub fn new(cfg: &'a QuickConfig) -> Belmonte<'a> {
        Belmonte { cfg, state: Members::default(), ranked: None }
    }
}

impl Optimiser for Belmonte<'_> {
    type State = Members;

    fn name(&self) -> &'static str {
        "quick"
    }

    fn ask(&mut self, rng: &mut StdRng) -> Result<Vec<Genome>, OptimiseError> {
        let cfg = self.cfg;
        let (generation, next_id, population) = match &self.ranked {
            None => {
                let mut next_id = 0;
                let population = initial_members(cfg, &mut next_id, rng);
                (0, next_id, population)
            }
            Some(ranked) => {
                let g = self.state.asked_generation + 1;
                let before = self.state.next_id;
                let mut next_id = before;
                let mut population = next_generation(ranked, cfg.mutation.at(g), &mut next_id, rng);
                // Only the newcomers: survivors keep their genome exactly.
                for ind in population.iter_mut().filter(|i| i.id > before) {
                    ind.values = shape(cfg, ind.values);
                }
                (g, next_id, population)
            }
        };
        let members =
            population.iter().map(|i| Label { id: i.id, name: i.name.clone(), origin: i.origin.clone() }).collect();
        self.state = Members { asked_generation: generation, next_id, members };
        Ok(population.iter().map(|i| genome(&i.values)).collect())
    }

    fn tell(&mut self, candidates: &[Genome], fitness: &[f64]) -> Result<(), OptimiseError> {
        check_told(self.name(), candidates.len(), fitness)?;
        check_told(self.name(), self.state.members.len(), fitness)?;
        let mut order: Vec<usize> = (0..fitness.len()).collect();
        order.sort_by(|&a, &b| fitness[a].total_cmp(&fitness[b]).then(a.cmp(&b)));
        let ranked = order
            .into_iter()
            .map(|i| {
                let values = values(&candidates[i]).ok_or_else(|| OptimiseError::Unsuited {
                    optimiser: "quick",
                    reason: format!("candidate {i} is not five piece values"),
                })?;
                let Label { id, name, origin } = self.state.members[i].clone();
                Ok(Individual { id, name, values, origin, points: 0.0, games: 0 })
            })
            .collect::<Result<_, OptimiseError>>()?;
        self.ranked = Some(ranked);
        Ok(())
    }

    fn state(&self) -> Members {
        self.state.clone()
    }

    fn restore(&mut self, state: Members) {
        self.state = state;
    }

    fn check(&self, state: &Members, candidates: &[Genome]) -> Result<(), String> {
        let n = self.cfg.population;
        if candidates.len() != n || state.members.len() != n {
            return Err(format!("inconsistent checkpoint (not {n} individuals)"));
        }
        Ok(())
    }

    fn labels(&self) -> Vec<Label> {
        self.state.members.clone()
    }
}

/// A new genome as the config asks: the pawn's allele fixed (`pawn_allele`), then repaired to
/// what it plays (`repair`). Without either, the paper's genome unchanged.
pub fn shape(cfg: &QuickConfig, mut values: Values) -> Values {
    if let Some(p) = cfg.pawn_allele {
        values[0] = p;
    }
    if cfg.repair { playable(&values) } else { values }
}

fn new_individual(
    values: Values,
    origin: String,
    next_id: &mut u64,
    taken: &[String],
    rng: &mut impl Rng,
) -> Individual {
    let name = unique_name(taken.iter().map(String::as_str), rng);
    *next_id += 1;
    Individual { id: *next_id, name, values, origin, points: 0.0, games: 0 }
}

/// Generation 0: random individuals with random names.
fn initial_members(cfg: &QuickConfig, next_id: &mut u64, rng: &mut impl Rng) -> Vec<Individual> {
    let mut population: Vec<Individual> = Vec::new();
    for _ in 0..cfg.population {
        let taken: Vec<String> = population.iter().map(|i| i.name.clone()).collect();
        let values = shape(cfg, random_values(rng));
        population.push(new_individual(values, "random".into(), next_id, &taken, rng));
    }
    population
}

/// Builds the next generation from a ranking (worst first) by Belmonte's survivor policy.
pub fn next_generation(
    ranked: &[Individual],
    step: MutationStep,
    next_id: &mut u64,
    rng: &mut impl Rng,
) -> Vec<Individual> {
    let values: Vec<Values> = ranked.iter().map(|i| i.values).collect();
    let plan = survivors(&values, step, rng);
    let mut taken: Vec<String> = ranked.iter().map(|i| i.name.clone()).collect();
    let mut out = Vec::with_capacity(ranked.len());
    for (rank, (fate, v)) in plan.into_iter().enumerate() {
        let ind = match fate {
            Fate::Elite => Individual { origin: "elite".into(), ..ranked[rank].clone() },
            Fate::Kept => Individual { origin: "kept".into(), ..ranked[rank].clone() },
            Fate::Mutant { of } => new_individual(v, format!("mutant of {}", ranked[of].name), next_id, &taken, rng),
            Fate::Offspring { parents } => {
                let names: Vec<&str> = parents.iter().map(|&p| ranked[p].name.as_str()).collect();
                new_individual(v, format!("offspring of {}", names.join("+")), next_id, &taken, rng)
            }
            Fate::Fresh => new_individual(v, "random".into(), next_id, &taken, rng),
        };
        taken.push(ind.name.clone());
        out.push(ind);
    }
    out
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    fn member(id: u64, points: f64, games: u32) -> Individual {
        Individual { id, name: format!("m{id}"), values: [1000; 5], origin: "random".into(), points, games }
    }

    #[test]
    fn survivors_carry_their_record_and_newcomers_start_empty() {
        let ranked: Vec<Individual> = (1..=10).map(|i| member(i, i as f64, 10)).collect();
        let mut next_id = 10;
        let mut rng = StdRng::seed_from_u64(7);
        let next = next_generation(&ranked, MutationStep::default(), &mut next_id, &mut rng);
        for (old, new) in ranked.iter().zip(&next) {
            if new.id == old.id {
                assert_eq!((new.points, new.games), (old.points, old.games));
            } else {
                assert!(new.id > 10 && new.points == 0.0 && new.games == 0, "{new:?}");
            }
        }
        assert!(next[8..].iter().zip(&ranked[8..]).all(|(n, o)| n.id == o.id), "the top two are elites");
    }

    /// The optimiser alone, without a tournament: its labels name the members it asked for, a
    /// survivor keeps its id, name and genome into the next ask, and a newcomer gets a fresh id.
    #[test]
    fn labels_follow_the_members_across_ask_and_tell() {
        let cfg = QuickConfig::default();
        let mut quick = Belmonte::new(&cfg);
        let mut rng = StdRng::seed_from_u64(11);
        let first = quick.ask(&mut rng).unwrap();
        let labels = quick.labels();
        assert_eq!((first.len(), labels.len()), (cfg.population, cfg.population));
        let ids: std::collections::BTreeSet<u64> = labels.iter().map(|l| l.id).collect();
        assert_eq!(ids.len(), cfg.population, "ids are unique: {labels:?}");
        let before = quick.state().next_id;

        // The last member is the best, the first the worst.
        let fitness: Vec<f64> = (0..first.len()).map(|i| i as f64).collect();
        assert!(quick.tell(&first, &fitness[1..]).is_err(), "a fitness for every candidate");
        quick.tell(&first, &fitness).unwrap();
        let second = quick.ask(&mut rng).unwrap();
        assert_eq!(quick.state().asked_generation, 1);
        let (mut kept, mut new) = (0, 0);
        for (label, genome) in quick.labels().iter().zip(&second) {
            match labels.iter().position(|l| l.id == label.id) {
                Some(i) => {
                    kept += 1;
                    assert_eq!((&label.name, genome), (&labels[i].name, &first[i]), "survivor {}", label.id);
                }
                None => {
                    new += 1;
                    assert!(label.id > before, "newcomer {} after id {before}", label.id);
                }
            }
        }
        assert!(kept > 0 && new > 0, "{kept} survivors, {new} newcomers");
        let best = labels.last().unwrap().id;
        assert!(quick.labels().iter().any(|l| l.id == best), "the best member survives");

        // A checkpoint's state gives the same labels back.
        let mut resumed = Belmonte::new(&cfg);
        resumed.restore(quick.state());
        assert_eq!(resumed.labels(), quick.labels());
        assert!(resumed.check(&resumed.state(), &second).is_ok());
        assert!(resumed.check(&resumed.state(), &second[1..]).is_err());
    }

    #[test]
    fn a_fixed_pawn_allele_leaves_the_other_four_to_evolve() {
        let paper = QuickConfig::default();
        assert_eq!(shape(&paper, [4000, 900, 12000, 5000, 16000]), [4000, 900, 12000, 5000, 16000]);
        let fixed = QuickConfig { pawn_allele: Some(1500), ..QuickConfig::default() };
        assert_eq!(shape(&fixed, [4000, 4500, 4400, 7500, 13500]), [1500, 4500, 4400, 7500, 13500]);
        // With repair the ratios are then made playable around the fixed pawn.
        let both = QuickConfig { repair: true, ..fixed };
        let v = shape(&both, [9000, 900, 900, 900, 900]);
        assert_eq!(v[0], 1500);
        assert_eq!(playable(&v), v);
    }
}
