//! Every optimiser on one objective with a known answer: the [`SyntheticTexel`] loss of six
//! weights in `[0, 200]` labelled by [`TRUTH`], each optimiser from the middle of the box
//! ([`start`]) with the same budget of evaluations. This is the pluggability check of the
//! optimisers (the same [`optimise`] loop, the same objective, one setting each) and their
//! comparison where the answer is known; `bench/compare_optimisers.sh` compares them on real
//! objectives, where it is not.
//!
//! Each optimiser has a stated tolerance ([`Setup::tolerance`]): the largest distance of its
//! answer from the truth, in the weights' units, that [`compare`]'s test accepts for
//! [`BUDGET`] evaluations.

use super::{
    OptimiseError, Optimiser, Outcome,
    cmaes::{CmaEs, default_lambda},
    config::GaConfig,
    es::{Es, EsSettings},
    ga::Ga,
    local::LocalSearch,
    optimise,
    spsa::{Spsa, SpsaSettings},
    synthetic::SyntheticTexel,
};
use crate::genome::{
    Genome,
    encoding::{Layout, NumericGene},
    operators::{Crossover, Mutation, Selection},
    random_genome,
};

/// The weights that label the positions.
pub const TRUTH: [f64; 6] = [20.0, 45.0, 80.0, 110.0, 150.0, 185.0];
/// Synthetic positions of the objective.
pub const POSITIONS: usize = 400;
/// Evaluations each optimiser may spend.
pub const BUDGET: usize = 20_000;

/// The objective all optimisers are run on.
pub fn objective() -> SyntheticTexel {
    SyntheticTexel::new(TRUTH.to_vec(), POSITIONS, 1)
}

/// Six real genes in `[0, 200]`.
pub fn layout() -> Layout {
    Layout::Numeric(vec![NumericGene { min: 0.0, max: 200.0, step: None }; TRUTH.len()])
}

/// The middle of the box, where the single-point optimisers start.
pub fn start() -> Genome {
    Genome::Numbers(vec![100.0; TRUTH.len()])
}

/// One optimiser of the comparison with its settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setup {
    /// Population 50, tournament of 3, arithmetic crossover at 0.9, Gaussian mutation of 2% of
    /// the range per gene at 0.2, elitism of 2; a random first population.
    Ga,
    /// Hansen's population for six genes (9), initial step a third of the range, from [`start`].
    Cmaes,
    /// OpenBench's gains over `BUDGET / 2` pairs, `c_end` 1% of the range, `r_end` 1000, from
    /// [`start`].
    Spsa,
    /// First step a quarter of the range, from [`start`].
    Local,
    /// Eight mirrored pairs, `c_m` = 1, steps of 5% of the range (the genes' `c_end`), CSA
    /// down to 10⁻⁹ of that, from [`start`].
    Es,
}

impl Setup {
    pub const ALL: [Setup; 5] = [Setup::Ga, Setup::Cmaes, Setup::Spsa, Setup::Local, Setup::Es];

    pub fn name(self) -> &'static str {
        match self {
            Setup::Ga => "ga",
            Setup::Cmaes => "cmaes",
            Setup::Spsa => "spsa",
            Setup::Local => "local",
            Setup::Es => "es",
        }
    }

    /// The largest distance from [`TRUTH`] accepted of the answer after [`BUDGET`] evaluations
    /// (a few times what each reached at seed 1: GA 0.011, CMA-ES and local search below
    /// 10⁻¹², SPSA 0.041, the ES 2.8·10⁻⁹).
    pub fn tolerance(self) -> f64 {
        match self {
            Setup::Ga => 0.1,
            Setup::Cmaes => 0.001,
            Setup::Spsa => 0.25,
            Setup::Local => 0.001,
            Setup::Es => 1e-6,
        }
    }

    /// Runs the optimiser on [`objective`] for `budget` evaluations.
    ///
    /// # Errors
    /// When an optimiser refuses its settings (a bug: they are fixed here).
    pub fn run(self, budget: usize, seed: u64) -> Result<Outcome, OptimiseError> {
        let (f, layout) = (objective(), layout());
        fn go(mut o: impl Optimiser, f: &SyntheticTexel, budget: usize, seed: u64) -> Result<Outcome, OptimiseError> {
            optimise(&mut o, f, budget, seed)
        }
        match self {
            Setup::Ga => {
                let cfg = GaConfig {
                    population: 50,
                    generations: budget.div_ceil(50),
                    elitism: 2,
                    selection: Selection::Tournament { size: 3 },
                    crossover: Crossover::Arithmetic,
                    crossover_rate: 0.9,
                    mutation: Mutation::Gaussian { sigma: 0.02 },
                    mutation_rate: 0.2,
                    ..GaConfig::default()
                };
                let draw = layout.clone();
                let initial = move |rng: &mut _| (0..50).map(|_| random_genome(&draw, rng)).collect();
                go(Ga::new(cfg, layout, initial), &f, budget, seed)
            }
            Setup::Cmaes => {
                let lambda = default_lambda(TRUTH.len());
                go(CmaEs::new(layout, 0.3, lambda, |_: &mut _| vec![start()]), &f, budget, seed)
            }
            Setup::Spsa => {
                let settings = SpsaSettings { iterations: (budget / 2).max(1) as u64, c_end: 0.01, r_end: 1000.0 };
                go(Spsa::new(layout, &start(), settings)?, &f, budget, seed)
            }
            Setup::Local => go(LocalSearch::new(layout, &start(), 0.25), &f, budget, seed),
            Setup::Es => {
                let Genome::Numbers(values) = start() else { unreachable!("start() is numeric") };
                let genes = values
                    .iter()
                    .enumerate()
                    .map(|(i, &value)| crate::spsa::SpsaParam {
                        name: format!("w{i}"),
                        value,
                        min: 0.0,
                        max: 200.0,
                        c_end: 10.0,
                        r_end: 0.002,
                        integer: false,
                    })
                    .collect();
                let settings = EsSettings {
                    pairs: 8,
                    c_m: 1.0,
                    sigma: 1.0,
                    sigma_min: 1e-9,
                    sigma_max: 10.0,
                    ..EsSettings::default()
                };
                let es = Es::new(genes, &[], settings)
                    .map_err(|e| OptimiseError::Unsuited { optimiser: "es", reason: e.to_string() })?;
                go(es, &f, budget, seed)
            }
        }
    }
}

/// One optimiser's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub setup: Setup,
    pub outcome: Outcome,
    /// The answer's largest distance from [`TRUTH`], and its loss.
    pub error: f64,
    pub loss: f64,
}

/// Every optimiser for `budget` evaluations.
///
/// # Errors
/// As [`Setup::run`].
pub fn compare(budget: usize, seed: u64) -> Result<Vec<Row>, OptimiseError> {
    let f = objective();
    Setup::ALL
        .iter()
        .map(|&setup| {
            let outcome = setup.run(budget, seed)?;
            let error = f.error(&outcome.answer);
            let loss = match &outcome.answer {
                Genome::Numbers(w) => f.loss(w),
                Genome::Bits(_) => f64::INFINITY,
            };
            Ok(Row { setup, outcome, error, loss })
        })
        .collect()
}

/// The rows as a Markdown table.
pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| optimiser | evaluations | generations | answer | max error | tolerance | loss |\n|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let answer = match &r.outcome.answer {
            Genome::Numbers(w) => w.iter().map(|v| format!("{v:.2}")).collect::<Vec<_>>().join(", "),
            Genome::Bits(b) => format!("{} bits", b.len()),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {answer} | {:.2e} | {} | {:.2e} |\n",
            r.setup.name(),
            r.outcome.evaluations,
            r.outcome.generations,
            r.error,
            r.setup.tolerance(),
            r.loss
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_optimiser_recovers_the_known_weights_within_its_tolerance() {
        let rows = compare(BUDGET, 1).unwrap();
        eprintln!("{}", table(&rows));
        for r in &rows {
            assert!(r.outcome.evaluations >= BUDGET && r.outcome.evaluations < BUDGET + 60, "{:?}", r.outcome);
            assert!(
                r.error <= r.setup.tolerance(),
                "{}: answer {:?} is {} from the truth (tolerance {})",
                r.setup.name(),
                r.outcome.answer,
                r.error,
                r.setup.tolerance()
            );
        }
        // Deterministic: the same seed gives the same answers.
        assert_eq!(compare(BUDGET, 1).unwrap(), rows);
    }
}
