//! A separable (μ/μ_w, λ) evolution strategy with mirrored sampling, as an [`Optimiser`] over
//! integer (or real) parameters given as SPSA lines ([`SpsaParam`]: value, min, max, `c_end`),
//! for `tuner coevolve`'s default method (issue 89).
//!
//! The search works in units of each gene's `c_end` (its SPSA step, the engine's own idea of a
//! step worth measuring), so one step size serves genes of any range. The mean `m` is real
//! valued, in parameter units, and starts at the start file. An ask draws `pairs` directions
//! `z ~ N(0, I)` and proposes the mirrored candidates `m ± σ_g · c_end · z` (σ_g the step of
//! the gene's group), each rounded to an integer and clamped to its range: mirroring halves the
//! noise of the mean's move, since a direction and its opposite differ only by the sign of the
//! linear term. A tell ranks the candidates (ties share the weights of their ranks), gives the
//! best μ = λ/2 log-weights `w_i ∝ ln(μ + ½) − ln i`, and moves
//! `m ← m + c_m · Σ w_i · σ ∘ c_end ∘ z_i` (the sampled, not the rounded, steps, so the move is
//! unbiased by rounding). `c_m` below 1 damps the random walk that noisy ranks give the mean;
//! it may fall over the run (`c_m_end`), as SPSA's gains do.
//!
//! Step sizes adapt per group by cumulative step-size adaptation (CSA), not the 1/5th rule:
//! the rule needs each mutant's success against its parent, but the mutants are played against
//! a fixed anchor, never against the mean, and under noisy ranks a success rate drifts to ½, far
//! above ⅕, so the rule would grow σ without end. CSA compares the length of the group's
//! evolution path (the smoothed sum of selected steps) with its length under random selection:
//! consistent moves lengthen it and grow σ_g, moves that cancel shorten it and shrink σ_g, and
//! pure noise leaves σ_g where it is. With mirrored pairs the steps of random selection are not
//! N(0, I/μ_eff) (a pair both selected cancels), so the path is normalised by the variance that
//! random selection of the told weights gives ([`random_selection_variance`]), which keeps pure
//! noise neutral. σ_g stays in `[sigma_min, sigma_max]`, the range calibrated in Elo.
//!
//! The ask draws from the generation's RNG, so the state ([`EsState`]) holds no RNG: a run that
//! restores a checkpoint's state, tells and asks proposes what an uninterrupted run would.

use evochess::params::spsa::matches;
use rand::{Rng, rngs::StdRng};
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{OptimiseError, Optimiser, check_told};
use crate::{
    genome::{
        Genome,
        encoding::{Layout, NumericGene},
    },
    spsa::SpsaParam,
};

/// The group of genes that match no configured group.
pub const OTHER: &str = "other";

/// Why an evolution strategy cannot be set up.
#[derive(Debug, Error, PartialEq)]
pub enum EsError {
    #[error("es: no genes to evolve")]
    NoGenes,
    #[error("es: {0}")]
    Setting(String),
    #[error("es: gene `{name}`: {reason}")]
    Gene { name: String, reason: String },
    #[error("es group `{group}`: pattern `{pattern}` matches no gene (a typo would silently evolve less)")]
    NoMatch { group: String, pattern: String },
    #[error("es: gene `{gene}` matches both group `{first}` and group `{second}`")]
    Overlap { gene: String, first: String, second: String },
    #[error("es: group `{0}` is declared twice")]
    Duplicate(String),
}

/// A configured group: the genes whose names match any of `patterns` (name prefixes or globs,
/// as `--only` takes them) share one step size, starting at `sigma` (else the settings').
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupSpec {
    pub name: String,
    pub patterns: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
}

/// The genes' groups: names in declaration order ([`OTHER`] last, when some gene falls in it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Groups {
    pub names: Vec<String>,
    /// The group index of each gene.
    pub of_gene: Vec<usize>,
    /// Each group's initial step, when its spec gives one.
    pub sigma: Vec<Option<f64>>,
}

impl Groups {
    /// Groups the genes named `genes` by `specs`.
    ///
    /// # Errors
    /// A group declared twice, a pattern that matches no gene, a gene in two groups.
    pub fn assign(genes: &[&str], specs: &[GroupSpec]) -> Result<Groups, EsError> {
        for (i, s) in specs.iter().enumerate() {
            if specs[..i].iter().any(|t| t.name == s.name) {
                return Err(EsError::Duplicate(s.name.clone()));
            }
            if let Some(p) = s.patterns.iter().find(|p| !genes.iter().any(|g| matches(p, g))) {
                return Err(EsError::NoMatch { group: s.name.clone(), pattern: p.clone() });
            }
        }
        let mut names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
        let mut sigma: Vec<Option<f64>> = specs.iter().map(|s| s.sigma).collect();
        let mut of_gene = Vec::with_capacity(genes.len());
        for gene in genes {
            let hits: Vec<usize> =
                (0..specs.len()).filter(|&k| specs[k].patterns.iter().any(|p| matches(p, gene))).collect();
            let group = match hits[..] {
                [] => match names.iter().position(|n| n == OTHER) {
                    Some(k) => k,
                    None => {
                        names.push(OTHER.to_string());
                        sigma.push(None);
                        names.len() - 1
                    }
                },
                [k] => k,
                [a, b, ..] => {
                    let (first, second) = (specs[a].name.clone(), specs[b].name.clone());
                    return Err(EsError::Overlap { gene: (*gene).to_string(), first, second });
                }
            };
            of_gene.push(group);
        }
        Ok(Groups { names, of_gene, sigma })
    }

    /// The genes of each group.
    pub fn members(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); self.names.len()];
        for (i, &g) in self.of_gene.iter().enumerate() {
            out[g].push(i);
        }
        out
    }
}

/// The strategy's settings (`[es]` of the coevolve config).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EsSettings {
    /// Mirrored pairs per generation: λ = 2 · pairs candidates, μ = pairs of them weighted.
    pub pairs: usize,
    /// The mean's learning rate `c_m`.
    pub c_m: f64,
    /// The initial step of a group without its own, in units of each gene's `c_end`.
    pub sigma: f64,
    /// The bounds of every group's step, in units of `c_end`.
    pub sigma_min: f64,
    pub sigma_max: f64,
    /// Adapt the steps by CSA; off, they stay at their initial values.
    pub adapt: bool,
    /// When given, `c_m` falls geometrically to this over the first `generations` tells
    /// and stays there: a constant rate leaves the mean in a random walk whose spread grows
    /// with `c_m` (noisy ranks move it as much as true ones), so the end wants a small rate
    /// and the start a large one, as SPSA's decaying gains have it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub c_m_end: Option<f64>,
    /// The planned generations of the decay.
    pub generations: u64,
}

impl Default for EsSettings {
    /// The best measured on the synthetic game objective ([`super::recovery`]: 70 genes, a
    /// `c_end` step in every gene costing 10 Elo, 60,000 games): steps of 4 `c_end` (mutants
    /// ~160 Elo below the mean), `c_m` = 0.05. `c_m` = 1 drove the mean 25 to 110 Elo below
    /// its start, and steps of 1 `c_end` (10-Elo mutants) gained under 5 Elo: the games
    /// cannot see so small a difference.
    fn default() -> Self {
        EsSettings {
            pairs: 16,
            c_m: 0.05,
            sigma: 4.0,
            sigma_min: 3.0,
            sigma_max: 5.0,
            adapt: true,
            c_m_end: None,
            generations: 0,
        }
    }
}

impl EsSettings {
    /// `c_m` at tell `told` (from 0).
    pub fn learning_rate(&self, told: u64) -> f64 {
        match self.c_m_end {
            Some(end) if self.generations > 1 => {
                let t = told.min(self.generations - 1) as f64 / (self.generations - 1) as f64;
                self.c_m * (end / self.c_m).powf(t)
            }
            Some(end) => end,
            None => self.c_m,
        }
    }

    /// Why the settings cannot work, naming the key.
    pub fn validate(&self) -> Result<(), EsError> {
        let bad = |s: String| Err(EsError::Setting(s));
        if self.pairs == 0 {
            return bad("pairs must be at least 1".into());
        }
        if !(self.c_m > 0.0 && self.c_m <= 1.0) {
            return bad(format!("c_m = {} must be in (0, 1]", self.c_m));
        }
        if let Some(end) = self.c_m_end {
            if !(end > 0.0 && end <= self.c_m) {
                return bad(format!("c_m_end = {end} must be in (0, c_m = {}]", self.c_m));
            }
            if self.generations == 0 {
                return bad("c_m_end needs the planned generations (generations >= 1)".into());
            }
        }
        if !(self.sigma_min > 0.0 && self.sigma_min <= self.sigma_max && self.sigma_max.is_finite()) {
            return bad(format!("need 0 < sigma_min ({}) <= sigma_max ({})", self.sigma_min, self.sigma_max));
        }
        if !(self.sigma_min..=self.sigma_max).contains(&self.sigma) {
            return bad(format!("sigma = {} is outside [sigma_min, sigma_max]", self.sigma));
        }
        Ok(())
    }
}

/// What is kept between generations and from an ask to its tell. (No field is named as one of
/// a checkpoint's own: the driver flattens this beside the population and its `fitness`.)
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EsState {
    /// The mean, in parameter units.
    pub mean: Vec<f64>,
    /// Each group's step, in units of `c_end`.
    pub sigma: Vec<f64>,
    /// The evolution path of every gene (CSA), in its group's normalised coordinates.
    pub path: Vec<f64>,
    /// Generations told.
    pub told: u64,
    /// The directions `z` of the last ask, one per mirrored pair; `None` once told.
    pub directions: Option<Vec<Vec<f64>>>,
}

/// The separable (μ/μ_w, λ)-ES.
#[derive(Clone, Debug)]
pub struct Es {
    genes: Vec<SpsaParam>,
    groups: Groups,
    settings: EsSettings,
    /// The log-weights of ranks 1..=μ, summing to 1.
    weights: Vec<f64>,
    state: EsState,
}

/// The log-weights of ranks 1..=μ, `ln(μ + ½) − ln i`, normalised to sum 1.
pub fn log_weights(mu: usize) -> Vec<f64> {
    let raw: Vec<f64> = (1..=mu).map(|i| (mu as f64 + 0.5).ln() - (i as f64).ln()).collect();
    let sum: f64 = raw.iter().sum();
    raw.iter().map(|w| w / sum).collect()
}

/// Each candidate's weight: candidates ranked by `fitness` (higher first), rank `r` given
/// `rank_weights[r]` (0 beyond them), and candidates of equal fitness the mean of their ranks'
/// weights, so that no order of the candidates breaks a tie.
pub fn candidate_weights(fitness: &[f64], rank_weights: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]));
    let mut out = vec![0.0; fitness.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && fitness[order[end]].total_cmp(&fitness[order[start]]).is_eq() {
            end += 1;
        }
        let share = (start..end).map(|r| rank_weights.get(r).copied().unwrap_or(0.0)).sum::<f64>();
        for &i in &order[start..end] {
            out[i] = share / (end - start) as f64;
        }
        start = end;
    }
    out
}

/// The variance per coordinate of `Σ w_i z_i` when the weights `w` (summing to 1) fall on the
/// λ mirrored candidates at random: `Σ w² − (1 − Σ w²)/(λ − 1)`. A pair both selected cancels,
/// which the second term counts; it is what CSA must normalise by for noise to leave σ alone.
pub fn random_selection_variance(weights: &[f64]) -> f64 {
    let lambda = weights.len() as f64;
    let w2: f64 = weights.iter().map(|w| w * w).sum();
    if lambda < 2.0 { w2 } else { w2 - (1.0 - w2) / (lambda - 1.0) }
}

/// E‖N(0, I_n)‖.
fn chi(n: usize) -> f64 {
    let n = n as f64;
    n.sqrt() * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n))
}

impl Es {
    /// A strategy from `genes` (their values are the start), grouped by `groups`.
    ///
    /// # Errors
    /// No genes, settings that cannot work, a gene whose range or `c_end` cannot, a group's
    /// error ([`Groups::assign`]).
    pub fn new(genes: Vec<SpsaParam>, specs: &[GroupSpec], settings: EsSettings) -> Result<Es, EsError> {
        if genes.is_empty() {
            return Err(EsError::NoGenes);
        }
        settings.validate()?;
        for g in &genes {
            let bad = |reason: String| Err(EsError::Gene { name: g.name.clone(), reason });
            if !(g.min <= g.value && g.value <= g.max) {
                return bad(format!("value {} is outside [{}, {}]", g.value, g.min, g.max));
            }
            if !(g.c_end > 0.0 && g.c_end.is_finite()) {
                return bad(format!("c_end {} must be positive", g.c_end));
            }
        }
        let names: Vec<&str> = genes.iter().map(|g| g.name.as_str()).collect();
        let groups = Groups::assign(&names, specs)?;
        let mut sigma = Vec::with_capacity(groups.names.len());
        for (name, s) in groups.names.iter().zip(&groups.sigma) {
            let s = s.unwrap_or(settings.sigma);
            if !(settings.sigma_min..=settings.sigma_max).contains(&s) {
                return Err(EsError::Setting(format!("group `{name}`: sigma = {s} is outside [sigma_min, sigma_max]")));
            }
            sigma.push(s);
        }
        let state = EsState {
            mean: genes.iter().map(|g| g.value).collect(),
            sigma,
            path: vec![0.0; genes.len()],
            told: 0,
            directions: None,
        };
        let weights = log_weights(settings.pairs);
        Ok(Es { genes, groups, settings, weights, state })
    }

    pub fn groups(&self) -> &Groups {
        &self.groups
    }

    pub fn genes(&self) -> &[SpsaParam] {
        &self.genes
    }

    pub fn settings(&self) -> &EsSettings {
        &self.settings
    }

    /// The genes as a numeric layout (integers in steps of 1).
    pub fn layout(&self) -> Layout {
        let gene = |g: &SpsaParam| NumericGene { min: g.min, max: g.max, step: g.integer.then_some(1.0) };
        Layout::Numeric(self.genes.iter().map(gene).collect())
    }

    /// μ_eff of the rank weights.
    pub fn mu_eff(&self) -> f64 {
        1.0 / self.weights.iter().map(|w| w * w).sum::<f64>()
    }

    /// The values played for the point `x`: clamped, integers rounded.
    fn played(&self, x: &[f64]) -> Genome {
        let value = |(g, &v): (&SpsaParam, &f64)| {
            let v = v.clamp(g.min, g.max);
            if g.integer { v.round().clamp(g.min.ceil(), g.max.floor()) } else { v }
        };
        Genome::Numbers(self.genes.iter().zip(x).map(value).collect())
    }

    /// The step of gene `i` per unit of `z`, in parameter units.
    fn scale(&self, i: usize) -> f64 {
        self.state.sigma[self.groups.of_gene[i]] * self.genes[i].c_end
    }

    /// CSA's rate and damping for a group of `n` genes (Hansen's defaults in `n` dimensions).
    fn csa_rates(&self, n: usize) -> (f64, f64) {
        let (mu_eff, n) = (self.mu_eff(), n as f64);
        let cs = (mu_eff + 2.0) / (n + mu_eff + 5.0);
        let ds = 1.0 + 2.0 * (((mu_eff - 1.0) / (n + 1.0)).sqrt() - 1.0).max(0.0) + cs;
        (cs, ds)
    }

    /// Moves every group's path by `y` (= Σ w_i z_i) and its step by the path's length.
    fn adapt(&mut self, y: &[f64], variance: f64) {
        if variance <= 1e-12 {
            // Every candidate tied: the tell carries no selection, so nothing to adapt to.
            return;
        }
        for (g, members) in self.groups.members().into_iter().enumerate() {
            if members.is_empty() {
                continue;
            }
            let (cs, ds) = self.csa_rates(members.len());
            let gain = (cs * (2.0 - cs) / variance).sqrt();
            let mut norm2 = 0.0;
            for &i in &members {
                let p = (1.0 - cs) * self.state.path[i] + gain * y[i];
                self.state.path[i] = p;
                norm2 += p * p;
            }
            if self.settings.adapt {
                let s = self.state.sigma[g] * ((cs / ds) * (norm2.sqrt() / chi(members.len()) - 1.0)).exp();
                self.state.sigma[g] = s.clamp(self.settings.sigma_min, self.settings.sigma_max);
            }
        }
    }
}

impl Optimiser for Es {
    type State = EsState;

    fn name(&self) -> &'static str {
        "es"
    }

    fn ask(&mut self, rng: &mut StdRng) -> Result<Vec<Genome>, OptimiseError> {
        let n = self.genes.len();
        let directions: Vec<Vec<f64>> =
            (0..self.settings.pairs).map(|_| (0..n).map(|_| rng.sample::<f64, _>(StandardNormal)).collect()).collect();
        let mut out = Vec::with_capacity(2 * directions.len());
        for z in &directions {
            for sign in [1.0, -1.0] {
                let x: Vec<f64> = (0..n).map(|i| self.state.mean[i] + sign * self.scale(i) * z[i]).collect();
                out.push(self.played(&x));
            }
        }
        self.state.directions = Some(directions);
        Ok(out)
    }

    fn tell(&mut self, candidates: &[Genome], fitness: &[f64]) -> Result<(), OptimiseError> {
        check_told(self.name(), candidates.len(), fitness)?;
        let Some(directions) = self.state.directions.take() else {
            return Err(OptimiseError::Told { optimiser: "es", asked: 0, told: fitness.len() });
        };
        if let Err(e) = check_told("es", 2 * directions.len(), fitness) {
            self.state.directions = Some(directions);
            return Err(e);
        }
        let w = candidate_weights(fitness, &self.weights);
        let c_m = self.settings.learning_rate(self.state.told);
        let n = self.genes.len();
        // Σ_i w_i z_i, the pair's candidates being +z and −z.
        let mut y = vec![0.0; n];
        for (k, z) in directions.iter().enumerate() {
            let d = w[2 * k] - w[2 * k + 1];
            for (yi, zi) in y.iter_mut().zip(z) {
                *yi += d * zi;
            }
        }
        for (i, &yi) in y.iter().enumerate() {
            let g = &self.genes[i];
            let m = self.state.mean[i] + c_m * self.scale(i) * yi;
            self.state.mean[i] = m.clamp(g.min, g.max);
        }
        self.adapt(&y, random_selection_variance(&w));
        self.state.told += 1;
        Ok(())
    }

    fn state(&self) -> EsState {
        self.state.clone()
    }

    fn restore(&mut self, state: EsState) {
        self.state = state;
    }

    fn check(&self, state: &EsState, candidates: &[Genome]) -> Result<(), String> {
        let n = self.genes.len();
        let shapes = state.mean.len() == n && state.path.len() == n && state.sigma.len() == self.groups.names.len();
        match &state.directions {
            Some(d) if shapes && 2 * d.len() == candidates.len() && d.iter().all(|z| z.len() == n) => Ok(()),
            _ => Err("inconsistent checkpoint (not an ES generation of this search space)".into()),
        }
    }

    /// The rounded mean.
    fn recommend(&self) -> Option<Genome> {
        Some(self.played(&self.state.mean))
    }

    fn centre(&self) -> Option<Vec<f64>> {
        Some(self.state.mean.clone())
    }

    /// Each group's step, in units of `c_end`.
    fn steps(&self) -> Vec<f64> {
        self.state.sigma.clone()
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::{optimise::generation_rng, spsa::parse_lines};

    fn genes() -> Vec<SpsaParam> {
        parse_lines(
            "futility_margin_1, int, 112, 0, 1023, 10.23, 0.002\n\
             futility_margin_2, int, 227, 0, 1023, 11.35, 0.002\n\
             rfp_margin, int, 75, 20, 300, 3.75, 0.002\n\
             lmr_base, int, 75, 0, 300, 3.75, 0.002\n\
             lmr_min_depth, int, 3, 1, 8, 1.00, 0.002\n\
             aspiration_delta, int, 20, 5, 200, 1.95, 0.002\n",
        )
        .unwrap()
    }

    /// Steps of one `c_end` and the full learning rate, so that moves are easy to check.
    fn unit() -> EsSettings {
        EsSettings { c_m: 1.0, sigma: 1.0, sigma_min: 0.05, sigma_max: 20.0, ..EsSettings::default() }
    }

    fn spec(name: &str, patterns: &[&str]) -> GroupSpec {
        GroupSpec { name: name.into(), patterns: patterns.iter().map(|p| (*p).to_string()).collect(), sigma: None }
    }

    #[test]
    fn genes_fall_in_their_group_or_in_other_and_bad_groups_are_named() {
        let names = ["futility_margin_1", "rfp_margin", "lmr_base", "aspiration_delta"];
        let g = Groups::assign(&names, &[spec("pruning", &["futility_*", "rfp_*"]), spec("lmr", &["lmr_"])]).unwrap();
        assert_eq!(g.names, ["pruning", "lmr", OTHER]);
        assert_eq!(g.of_gene, [0, 0, 1, 2]);
        assert_eq!(g.members(), vec![vec![0, 1], vec![2], vec![3]]);
        // No `other` when every gene is in a group.
        assert_eq!(Groups::assign(&names[..2], &[spec("p", &["*"])]).unwrap().names, ["p"]);
        let e = Groups::assign(&names, &[spec("p", &["futilty_*"])]).unwrap_err();
        assert_eq!(e, EsError::NoMatch { group: "p".into(), pattern: "futilty_*".into() });
        let e = Groups::assign(&names, &[spec("a", &["rfp"]), spec("b", &["*margin"])]).unwrap_err();
        assert!(e.to_string().contains("`rfp_margin` matches both group `a` and group `b`"), "{e}");
        let e = Groups::assign(&names, &[spec("a", &["rfp"]), spec("a", &["lmr"])]).unwrap_err();
        assert_eq!(e, EsError::Duplicate("a".into()));
    }

    #[test]
    fn weights_are_logarithmic_and_ties_share_their_ranks() {
        let w = log_weights(4);
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(w.windows(2).all(|p| p[0] > p[1] && p[1] > 0.0), "{w:?}");
        assert!((w[0] / w[3] - 4.5f64.ln() / (4.5f64.ln() - 4f64.ln())).abs() < 1e-9);
        let r = log_weights(2);
        let c = candidate_weights(&[0.2, 0.9, 0.5, 0.1], &r);
        assert_eq!(c, vec![0.0, r[0], r[1], 0.0]);
        // Candidates 0 and 2 tie for the second and third ranks: each gets half of rank 2's
        // weight (rank 3 has none), whatever their order.
        let c = candidate_weights(&[0.5, 0.9, 0.5, 0.1], &r);
        assert_eq!(c, vec![r[1] / 2.0, r[0], r[1] / 2.0, 0.0]);
        let all = candidate_weights(&[0.5; 4], &r);
        assert!(all.iter().all(|&x| (x - 0.25).abs() < 1e-12), "{all:?}");
        // Every weight on one of four candidates; one weight split evenly makes no selection.
        assert!((random_selection_variance(&[1.0, 0.0, 0.0, 0.0]) - 1.0).abs() < 1e-12);
        assert!(random_selection_variance(&[0.25; 4]).abs() < 1e-12);
    }

    #[test]
    fn random_selection_variance_is_that_of_random_ranks_over_mirrored_pairs() {
        // Monte Carlo of Σ w_i z_i with ranks independent of the directions.
        let es = Es::new(genes(), &[], EsSettings { pairs: 8, ..EsSettings::default() }).unwrap();
        let mut rng = StdRng::seed_from_u64(5);
        let (mut sum2, trials) = (0.0, 40_000);
        for _ in 0..trials {
            let fitness: Vec<f64> = (0..16).map(|_| rng.random::<f64>()).collect();
            let w = candidate_weights(&fitness, &es.weights);
            let y: f64 = (0..8).map(|k| (w[2 * k] - w[2 * k + 1]) * rng.sample::<f64, _>(StandardNormal)).sum();
            sum2 += y * y;
        }
        let w = candidate_weights(&(0..16).map(f64::from).collect::<Vec<_>>(), &es.weights);
        let (v, naive) = (random_selection_variance(&w), 1.0 / es.mu_eff());
        let measured = sum2 / f64::from(trials);
        assert!((measured / v - 1.0).abs() < 0.03, "measured {measured}, predicted {v}");
        assert!(v < 0.85 * naive, "mirroring lowers the variance below 1/μ_eff = {naive}: {v}");
    }

    #[test]
    fn candidates_are_mirrored_rounded_and_clamped_and_the_mean_moves_to_the_winners() {
        let mut es = Es::new(genes(), &[spec("pruning", &["futility_*", "rfp_*"])], unit()).unwrap();
        let mut rng = StdRng::seed_from_u64(1);
        let c = es.ask(&mut rng).unwrap();
        assert_eq!(c.len(), 32);
        let z = es.state.directions.clone().unwrap();
        for (k, pair) in c.chunks(2).enumerate() {
            let (Genome::Numbers(plus), Genome::Numbers(minus)) = (&pair[0], &pair[1]) else { panic!() };
            for (i, g) in genes().iter().enumerate() {
                assert!(plus[i].fract() == 0.0 && (g.min..=g.max).contains(&plus[i]), "{plus:?}");
                let want = (g.value + g.c_end * z[k][i]).round().clamp(g.min, g.max);
                assert_eq!(plus[i], want);
                assert_eq!(minus[i], (g.value - g.c_end * z[k][i]).round().clamp(g.min, g.max));
            }
        }
        // Fitness = how far the first gene went up: the mean of that gene moves up by the
        // weighted mean of the best half's steps (c_m = 1), the others follow their draws.
        let fitness: Vec<f64> = c.iter().map(|g| if let Genome::Numbers(x) = g { x[0] } else { 0.0 }).collect();
        es.tell(&c, &fitness).unwrap();
        let up = es.state.mean[0] - 112.0;
        let best: f64 = (0..16).map(|k| z[k][0].abs()).fold(0.0, f64::max);
        assert!(up > 0.5 * 10.23 && up <= best * 10.23, "{up}");
        assert_eq!(es.state.told, 1);
        assert!(es.tell(&c, &fitness).is_err(), "a second tell without an ask");
        let Some(Genome::Numbers(r)) = es.recommend() else { panic!() };
        assert!(r.iter().all(|v| v.fract() == 0.0));
        assert_eq!(r[0], es.state.mean[0].round());
    }

    /// Runs `generations` of a noiseless fitness, restoring from JSON at `restart`.
    fn run(es: &mut Es, generations: u64, restart: Option<u64>, f: impl Fn(&[f64]) -> f64) -> Vec<Vec<Genome>> {
        let mut asked = Vec::new();
        for g in 0..generations {
            let c = es.ask(&mut generation_rng(9, 0, g)).unwrap();
            if restart == Some(g) {
                let json = serde_json::to_string(&es.state()).unwrap();
                let mut fresh = Es::new(genes(), &[], *es.settings()).unwrap();
                let state = serde_json::from_str(&json).unwrap();
                fresh.check(&state, &c).unwrap();
                fresh.restore(state);
                *es = fresh;
            }
            let fit: Vec<f64> = c.iter().map(|x| if let Genome::Numbers(x) = x { f(x) } else { 0.0 }).collect();
            es.tell(&c, &fit).unwrap();
            asked.push(c);
        }
        asked
    }

    #[test]
    fn a_restored_checkpoint_proposes_what_an_uninterrupted_run_would() {
        let f = |x: &[f64]| -((x[0] - 300.0) / 50.0).powi(2) - ((x[2] - 120.0) / 20.0).powi(2);
        let mut a = Es::new(genes(), &[], unit()).unwrap();
        let mut b = a.clone();
        let whole = run(&mut a, 12, None, f);
        let resumed = run(&mut b, 12, Some(5), f);
        assert_eq!(whole, resumed);
        assert_eq!(a.state(), b.state());
        let wrong = EsState { directions: Some(vec![vec![0.0; 6]; 3]), ..a.state() };
        assert!(a.check(&wrong, &whole[0]).is_err());
    }

    #[test]
    fn steps_grow_on_a_slope_and_stay_put_under_noise() {
        {
            let settings = unit();
            // A slope along every gene: consistent moves lengthen the path.
            let mut es = Es::new(genes(), &[], settings).unwrap();
            run(&mut es, 15, None, |x| x.iter().sum());
            assert!(es.state.sigma[0] > 2.0, "{:?}", es.state.sigma);
            // Fitness independent of the candidates: the log-step wanders without drift.
            let mut logs = Vec::new();
            for seed in 0..200u64 {
                let mut es = Es::new(genes(), &[], settings).unwrap();
                let mut rng = StdRng::seed_from_u64(seed);
                for g in 0..30 {
                    let c = es.ask(&mut generation_rng(seed, 1, g)).unwrap();
                    let fit: Vec<f64> = c.iter().map(|_| rng.random::<f64>()).collect();
                    es.tell(&c, &fit).unwrap();
                }
                logs.push(es.state.sigma[0].ln());
            }
            let mean = logs.iter().sum::<f64>() / logs.len() as f64;
            assert!(mean.abs() < 0.25, "mean log σ after 30 noise generations: {mean}");
        }
    }

    #[test]
    fn at_a_sharp_optimum_the_step_shrinks() {
        // Real genes, so that rounding does not flatten the optimum at the start.
        let real: Vec<SpsaParam> = genes().into_iter().map(|g| SpsaParam { integer: false, ..g }).collect();
        let start: Vec<f64> = real.iter().map(|g| g.value).collect();
        let sphere =
            |x: &[f64]| -x.iter().zip(&start).zip(&real).map(|((a, b), g)| ((a - b) / g.c_end).powi(2)).sum::<f64>();
        let mut es = Es::new(real.clone(), &[], unit()).unwrap();
        run(&mut es, 40, None, sphere);
        assert!(es.state.sigma[0] < 0.5, "{:?}", es.state.sigma);
    }

    #[test]
    fn the_learning_rate_falls_geometrically_to_its_end() {
        let s = EsSettings { c_m: 0.2, c_m_end: Some(0.02), generations: 11, ..EsSettings::default() };
        s.validate().unwrap();
        let rates: Vec<f64> = [0, 5, 10, 50].iter().map(|&k| s.learning_rate(k)).collect();
        assert!((rates[0] - 0.2).abs() < 1e-12 && (rates[2] - 0.02).abs() < 1e-12 && rates[3] == rates[2]);
        assert!((rates[1] - 0.2 * 0.1f64.sqrt()).abs() < 1e-12, "{rates:?}");
        assert_eq!(EsSettings::default().learning_rate(7), 0.05);
        assert!(EsSettings { c_m_end: Some(0.3), ..s }.validate().unwrap_err().to_string().contains("c_m_end"));
        assert!(EsSettings { generations: 0, ..s }.validate().unwrap_err().to_string().contains("generations"));
        // The rate is what moves the mean: half the rate, half the move.
        let moved = |c_m: f64| {
            let mut es = Es::new(genes(), &[], EsSettings { c_m, ..unit() }).unwrap();
            let c = es.ask(&mut generation_rng(3, 0, 0)).unwrap();
            let fit: Vec<f64> = c.iter().map(|g| if let Genome::Numbers(x) = g { x[0] } else { 0.0 }).collect();
            es.tell(&c, &fit).unwrap();
            es.state.mean[0] - 112.0
        };
        assert!((moved(0.5) - moved(1.0) / 2.0).abs() < 1e-9);
    }

    #[test]
    fn bad_settings_and_genes_are_refused() {
        let e = Es::new(vec![], &[], EsSettings::default()).unwrap_err();
        assert_eq!(e, EsError::NoGenes);
        let e = Es::new(genes(), &[], EsSettings { c_m: 0.0, ..EsSettings::default() }).unwrap_err();
        assert!(e.to_string().contains("c_m"), "{e}");
        let e = Es::new(genes(), &[], EsSettings { sigma: 9.0, ..EsSettings::default() }).unwrap_err();
        assert!(e.to_string().contains("sigma = 9"), "{e}");
        let mut bad = genes();
        bad[1].c_end = 0.0;
        assert!(Es::new(bad, &[], EsSettings::default()).unwrap_err().to_string().contains("futility_margin_2"));
        let groups = [GroupSpec { sigma: Some(2.0), ..spec("p", &["rfp"]) }];
        assert!(Es::new(genes(), &groups, EsSettings::default()).unwrap_err().to_string().contains("group `p`"));
        let es = Es::new(genes(), &groups, unit()).unwrap();
        assert_eq!(es.state.sigma, [2.0, 1.0]);
    }
}
