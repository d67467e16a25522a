//! A new optimiser in about thirty lines: a (1+λ) hill climber with a 1/5th-success step rule,
//! plugged into the tuner's ask/tell core ([`Optimiser`]) and run by the same loop as the
//! shipped optimisers ([`optimise`]) on the synthetic Texel objective whose answer is known
//! ([`compare::objective`]: six weights in [0, 200] that label 400 synthetic positions).
//!
//! `cargo run -p tuner --example hill_climber` prints its answer, its distance from the truth
//! and CMA-ES's on the same budget, and fails if the climber misses the truth by more than 1.
//! To use it in a command, give it a name beside the others in the driver's optimiser choice.

use rand::rngs::StdRng;
use rand_distr::{Distribution, Normal};
use tuner::{
    ga::Genome,
    optimise::{OptimiseError, Optimiser, check_told, compare, optimise},
};

/// The best point so far; each ask proposes `lambda` Gaussian steps around it.
struct HillClimber {
    best: Vec<f64>,
    best_fitness: f64,
    sigma: f64,
    lambda: usize,
}

impl Optimiser for HillClimber {
    /// Everything it knows: a checkpoint holds it, so a resumed run proposes the same.
    type State = (Vec<f64>, f64, f64);

    fn name(&self) -> &'static str {
        "hill climber"
    }

    fn ask(&mut self, rng: &mut StdRng) -> Result<Vec<Genome>, OptimiseError> {
        let step = Normal::new(0.0, self.sigma).expect("a finite step");
        let mut around = |x: &f64| (x + step.sample(rng)).clamp(0.0, 200.0);
        Ok((0..self.lambda).map(|_| Genome::Numbers(self.best.iter().map(&mut around).collect())).collect())
    }

    fn tell(&mut self, candidates: &[Genome], fitness: &[f64]) -> Result<(), OptimiseError> {
        check_told(self.name(), candidates.len(), fitness)?;
        let better = fitness.iter().filter(|&&f| f > self.best_fitness).count();
        for (candidate, &f) in candidates.iter().zip(fitness) {
            if let Genome::Numbers(x) = candidate
                && f > self.best_fitness
            {
                (self.best, self.best_fitness) = (x.clone(), f);
            }
        }
        // Rechenberg's rule: widen while more than a fifth of the steps succeed, else narrow.
        self.sigma *= if better * 5 > candidates.len() { 1.5 } else { 0.85 };
        Ok(())
    }

    fn state(&self) -> Self::State {
        (self.best.clone(), self.best_fitness, self.sigma)
    }

    fn restore(&mut self, (best, best_fitness, sigma): Self::State) {
        (self.best, self.best_fitness, self.sigma) = (best, best_fitness, sigma);
    }

    fn recommend(&self) -> Option<Genome> {
        Some(Genome::Numbers(self.best.clone()))
    }
}

fn main() -> anyhow::Result<()> {
    let objective = compare::objective();
    let Genome::Numbers(start) = compare::start() else { unreachable!("a numeric start") };
    let mut climber = HillClimber { best: start, best_fitness: f64::NEG_INFINITY, sigma: 25.0, lambda: 8 };
    let outcome = optimise(&mut climber, &objective, compare::BUDGET, 1)?;
    let error = objective.error(&outcome.answer);
    println!("truth:        {:?}", compare::TRUTH);
    println!("hill climber: {:?}", outcome.answer);
    println!(
        "largest error {error:.3} after {} evaluations ({} generations)",
        outcome.evaluations, outcome.generations
    );
    let cmaes = compare::Setup::Cmaes.run(compare::BUDGET, 1)?;
    println!("cmaes:        largest error {:.3} on the same budget", objective.error(&cmaes.answer));
    anyhow::ensure!(error < 1.0, "the hill climber missed the truth by {error:.3}");
    Ok(())
}
