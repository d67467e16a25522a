//! SPSA ([`crate::spsa::Spsa`], OpenBench's gains) as an [`Optimiser`] over a numeric layout:
//! every ask is the pair θ + c_k·Δ, θ − c_k·Δ; the tell moves θ by `R_k · c_k · (f₊ − f₋) · Δ`,
//! the `tuner spsa` update with the fitness difference in place of a game pair's wins − losses
//! (for the difference of an objective, `R_k · c_k²` is the step along the gradient estimate,
//! as in Spall's `a_k`). Integer genes are proposed stochastically rounded, as OpenBench plays them.

use rand::rngs::StdRng;
use serde::{Deserialize, Serialize};

use super::{OptimiseError, Optimiser, check_told, numeric_genes};
use crate::{
    genome::{Genome, encoding::Layout},
    spsa::{Perturbation, Schedule, Spsa as Tune, SpsaParam},
};

/// The tune and the perturbation of the last ask: everything the next `tell` and `ask` read
/// (θ, the iterations done, which fix the gains, and the signs and gains of the pair asked).
/// The ask draws from the generation's RNG, so no RNG state is kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaState {
    pub tune: Tune,
    pub perturbation: Option<Perturbation>,
}

/// The gains of a tune over a layout, relative to each gene's range (the `[optimiser]` table
/// of the evolution commands with `kind = "spsa"`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpsaSettings {
    /// Planned iterations `N` (pairs of candidates).
    pub iterations: u64,
    /// The last perturbation, as a fraction of each gene's range.
    pub c_end: f64,
    /// The last `R_k = a_k / c_k²` (the same for every gene: `R` does not change when a gene's
    /// range is scaled, so equal fitness differences move every gene by the same share of its
    /// range). A step is `R_k · c_k · (f₊ − f₋)`, so `r_end` is chosen for the objective's
    /// fitness units: `r_end · c_end · |f₊ − f₋|` is the last step's share of the range.
    pub r_end: f64,
}

impl Default for SpsaSettings {
    fn default() -> Self {
        SpsaSettings { iterations: 1000, c_end: 0.02, r_end: 0.002 }
    }
}

impl SpsaSettings {
    /// Why the gains cannot work: the key, and what is wrong with its value.
    pub fn validate(&self) -> Result<(), SettingError> {
        let bad = |key, reason| Err(SettingError { key, reason });
        if self.iterations == 0 {
            return bad("iterations", "must be at least 1".into());
        }
        if !(self.c_end > 0.0 && self.c_end <= 1.0) {
            return bad("c_end", format!("{} must be in (0, 1] (a fraction of each range)", self.c_end));
        }
        if !(self.r_end > 0.0 && self.r_end.is_finite()) {
            return bad("r_end", format!("{} must be positive", self.r_end));
        }
        Ok(())
    }
}

/// A setting that cannot work: its key and why.
#[derive(Clone, Debug, PartialEq)]
pub struct SettingError {
    pub key: &'static str,
    pub reason: String,
}

/// SPSA from a start genome over a numeric layout.
pub struct Spsa {
    layout: Layout,
    state: SpsaState,
}

impl Spsa {
    /// A tune starting at `start`; a gene's `c_end` is `settings.c_end` of its range.
    ///
    /// # Errors
    /// When the layout is binary or `start` does not fit it.
    pub fn new(layout: Layout, start: &Genome, settings: SpsaSettings) -> Result<Spsa, OptimiseError> {
        let genes = numeric_genes("spsa", &layout)?;
        let unsuited = |reason: String| OptimiseError::Unsuited { optimiser: "spsa", reason };
        let Genome::Numbers(values) = start else {
            return Err(unsuited("the start point is not a numeric genome".into()));
        };
        if values.len() != genes.len() {
            return Err(unsuited(format!("a start point of {} genes for {}", values.len(), genes.len())));
        }
        settings.validate().map_err(|e| unsuited(format!("{}: {}", e.key, e.reason)))?;
        let params = genes
            .iter()
            .zip(values)
            .enumerate()
            .map(|(i, (g, &value))| {
                let range = (g.max - g.min).max(f64::MIN_POSITIVE);
                SpsaParam {
                    name: format!("gene{i}"),
                    value: g.repair(value),
                    min: g.min,
                    max: g.max,
                    c_end: settings.c_end * range,
                    r_end: settings.r_end,
                    integer: g.step.is_some(),
                }
            })
            .collect();
        Spsa::of(layout, Tune::new(params, Schedule::new(settings.iterations)))
    }

    /// The tune `tune`, one parameter a gene of `layout` (`tuner spsa`'s, with each line's own
    /// gains). A gene's step would round θ, which moves by fractions: integer parameters are
    /// the tune's, rounded stochastically where they are played.
    ///
    /// # Errors
    /// When the layout is binary or has another number of genes.
    pub fn of(layout: Layout, tune: Tune) -> Result<Spsa, OptimiseError> {
        let genes = numeric_genes("spsa", &layout)?;
        if genes.len() != tune.params.len() {
            let reason = format!("a tune of {} parameters for {} genes", tune.params.len(), genes.len());
            return Err(OptimiseError::Unsuited { optimiser: "spsa", reason });
        }
        Ok(Spsa { layout, state: SpsaState { tune, perturbation: None } })
    }

    fn genome(&self, values: &[f64]) -> Genome {
        let genes = numeric_genes("spsa", &self.layout).unwrap_or(&[]);
        Genome::Numbers(genes.iter().zip(values).map(|(g, &v)| g.repair(v)).collect())
    }
}

impl Optimiser for Spsa {
    type State = SpsaState;

    fn name(&self) -> &'static str {
        "spsa"
    }

    fn ask(&mut self, rng: &mut StdRng) -> Result<Vec<Genome>, OptimiseError> {
        let p = self.state.tune.perturb(rng);
        let pair = vec![self.genome(&p.plus), self.genome(&p.minus)];
        self.state.perturbation = Some(p);
        Ok(pair)
    }

    fn tell(&mut self, candidates: &[Genome], fitness: &[f64]) -> Result<(), OptimiseError> {
        check_told(self.name(), candidates.len(), fitness)?;
        check_told(self.name(), 2, fitness)?;
        let Some(p) = self.state.perturbation.take() else {
            return Err(OptimiseError::Told { optimiser: "spsa", asked: 0, told: fitness.len() });
        };
        self.state.tune.update(&p, fitness[0] - fitness[1]);
        Ok(())
    }

    fn state(&self) -> SpsaState {
        self.state.clone()
    }

    fn restore(&mut self, state: SpsaState) {
        self.state = state;
    }

    fn check(&self, state: &SpsaState, candidates: &[Genome]) -> Result<(), String> {
        let names = |t: &Tune| t.params.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
        if names(&state.tune) != names(&self.state.tune) {
            return Err("tuned parameters differ from the config's".into());
        }
        if candidates.len() != 2 || state.perturbation.is_none() {
            return Err("inconsistent checkpoint (not an SPSA pair of this search space)".into());
        }
        Ok(())
    }

    fn recommend(&self) -> Option<Genome> {
        let theta: Vec<f64> = self.state.tune.params.iter().map(|p| p.value).collect();
        Some(self.genome(&theta))
    }
}
