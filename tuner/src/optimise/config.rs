//! The `[ga]` table of the evolution commands: the GA's population and operators, which
//! optimiser breeds the generations ([`OptimiserKind`]) and that optimiser's settings, checked
//! against a search space's layout ([`GaConfig::validate`], failing with a [`GaError`]).

use rand::Rng;
use serde::{Deserialize, Deserializer, Serialize};
use thiserror::Error;

use super::spsa::SpsaSettings;
use crate::genome::{
    Genome,
    encoding::Layout,
    mutant,
    operators::{Crossover, Mutation, Selection},
    random_genome,
};

/// GA settings shared by every evolution command (the `[ga]` table of their config files).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GaConfig {
    pub population: usize,
    pub generations: usize,
    /// Organisms copied unchanged into the next generation, best first.
    pub elitism: usize,
    pub selection: Selection,
    pub crossover: Crossover,
    /// Chance that a selected pair (or group) is recombined rather than copied.
    pub crossover_rate: f64,
    pub mutation: Mutation,
    /// Per bit (binary genomes) or per gene (numeric genomes).
    pub mutation_rate: f64,
    /// `"ga"`: the operators above. `"cmaes"`: CMA-ES over the genes' ranges ([`super::cmaes`]),
    /// `population` points a generation; selection, crossover, mutation and elitism unused.
    /// `"spsa"` (numeric spaces) and `"local"`: SPSA ([`super::spsa`]) and the
    /// coordinate local search ([`super::local`]) from the first organism of the
    /// initial draw; `population` and the operators unused.
    /// Absent from serialised GA settings when `"ga"`, so existing runs keep their fingerprint.
    #[serde(skip_serializing_if = "OptimiserKind::is_ga")]
    pub optimiser: OptimiserKind,
    /// CMA-ES's initial step size, as a fraction of every gene's range.
    #[serde(skip_serializing_if = "is_default_sigma")]
    pub cmaes_sigma: f64,
    /// SPSA's gains (`optimiser = "spsa"`, the `[ga.spsa]` table). Absent from serialised
    /// settings at their defaults, as the keys below, so existing runs keep their fingerprint.
    #[serde(skip_serializing_if = "is_default_spsa")]
    pub spsa: SpsaSettings,
    /// The local search's first step (`optimiser = "local"`), as a fraction of every gene's range.
    #[serde(skip_serializing_if = "is_default_local_step")]
    pub local_step: f64,
    /// Diversity (`[ga.immigrants]`): newcomers that replace the last children of every bred
    /// generation, so a small population does not collapse onto one organism. None by default
    /// (the papers'); absent from serialised settings then, so existing runs keep their
    /// fingerprint.
    #[serde(skip_serializing_if = "Immigrants::is_none")]
    pub immigrants: Immigrants,
}

/// `[ga.immigrants]`: `count` newcomers a generation, in place of the last children (never of
/// the elites).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Immigrants {
    pub count: usize,
    pub kind: ImmigrantKind,
    /// `mutant`: the standard deviation of each gene's move, as a fraction of its range.
    pub sigma: f64,
}

/// What an immigrant is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImmigrantKind {
    /// A generation-0 organism (drawn uniformly) with every gene moved by N(0, sigma × range):
    /// new values near the given files, for a population seeded from files.
    #[default]
    Mutant,
    /// A random genome of the space.
    Random,
}

impl Default for Immigrants {
    fn default() -> Self {
        Immigrants { count: 0, kind: ImmigrantKind::Mutant, sigma: 0.05 }
    }
}

impl Immigrants {
    pub fn is_none(&self) -> bool {
        *self == Immigrants::default()
    }

    /// Replaces the last `count` genomes of `bred` with immigrants: mutants of `initial()`'s
    /// genomes or random ones (`initial` is called only for mutants).
    pub fn arrive(
        &self,
        bred: &mut [Genome],
        layout: &Layout,
        initial: impl FnOnce() -> Vec<Genome>,
        rng: &mut impl Rng,
    ) {
        if self.count == 0 {
            return;
        }
        let from = bred.len().saturating_sub(self.count);
        let seeds = match self.kind {
            ImmigrantKind::Mutant => initial(),
            ImmigrantKind::Random => Vec::new(),
        };
        for slot in &mut bred[from..] {
            *slot = match seeds.len() {
                0 => random_genome(layout, rng),
                n => mutant(&seeds[rng.random_range(0..n)], layout, self.sigma, rng),
            };
        }
    }
}

/// Which optimiser breeds a generation from the last (`[ga] optimiser`): each is a
/// [`super::Optimiser`], chosen by [`crate::ga::driver::Driver::evolve`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimiserKind {
    /// The operators of `[ga]`, `population` organisms a generation.
    #[default]
    Ga,
    /// CMA-ES, `population` points a generation.
    Cmaes,
    /// SPSA from one start point: the pair θ ± c_k·Δ a generation (one iteration).
    Spsa,
    /// Coordinate local search from one start point: the incumbent and one coordinate a step up
    /// and down a generation.
    Local,
}

impl OptimiserKind {
    pub fn is_ga(&self) -> bool {
        *self == OptimiserKind::Ga
    }

    /// The name in the config and in errors.
    pub fn name(self) -> &'static str {
        match self {
            OptimiserKind::Ga => "ga",
            OptimiserKind::Cmaes => "cmaes",
            OptimiserKind::Spsa => "spsa",
            OptimiserKind::Local => "local",
        }
    }

    /// Whether the optimiser starts from one point and never uses the GA's operators.
    pub fn from_one_point(self) -> bool {
        matches!(self, OptimiserKind::Spsa | OptimiserKind::Local)
    }
}

/// Hansen's usual start: a third of the range.
pub const DEFAULT_CMAES_SIGMA: f64 = 0.3;

/// The local search's first step: a tenth of every range.
pub const DEFAULT_LOCAL_STEP: f64 = 0.1;

fn is_default_sigma(sigma: &f64) -> bool {
    *sigma == DEFAULT_CMAES_SIGMA
}

fn is_default_spsa(spsa: &SpsaSettings) -> bool {
    *spsa == SpsaSettings::default()
}

fn is_default_local_step(step: &f64) -> bool {
    *step == DEFAULT_LOCAL_STEP
}

impl Default for GaConfig {
    /// David et al. §III-B: population 100, 200 generations, fitness-proportional selection,
    /// uniform crossover at 0.75, mutation 0.005 per bit, elitism of one.
    fn default() -> Self {
        Self {
            population: 100,
            generations: 200,
            elitism: 1,
            selection: Selection::Roulette,
            crossover: Crossover::Uniform,
            crossover_rate: 0.75,
            mutation: Mutation::BitFlip,
            mutation_rate: 0.005,
            optimiser: OptimiserKind::Ga,
            cmaes_sigma: DEFAULT_CMAES_SIGMA,
            spsa: SpsaSettings::default(),
            local_step: DEFAULT_LOCAL_STEP,
            immigrants: Immigrants::default(),
        }
    }
}

/// Reads a `[ga]` table over `defaults`, so a partial table keeps the command's own defaults.
pub fn overlay_defaults<'de, D: Deserializer<'de>>(d: D, defaults: GaConfig) -> Result<GaConfig, D::Error> {
    use serde::de::Error;
    let user = toml::Table::deserialize(d)?;
    let mut table = match toml::Value::try_from(defaults).map_err(D::Error::custom)? {
        toml::Value::Table(t) => t,
        _ => return Err(D::Error::custom("GA defaults are not a table")),
    };
    table.extend(user);
    toml::Value::Table(table).try_into().map_err(D::Error::custom)
}

/// A GA configuration that cannot work with the given search space.
#[derive(Debug, Error, PartialEq)]
pub enum GaError {
    #[error("ga.{key}: {reason}")]
    Invalid { key: &'static str, reason: String },
    #[error("ga.{key}: `{operator}` needs a {needs} genome but the search space encoding is {have}")]
    Incompatible { key: &'static str, operator: String, needs: &'static str, have: &'static str },
}

pub(super) fn invalid(key: &'static str, reason: impl Into<String>) -> GaError {
    GaError::Invalid { key, reason: reason.into() }
}

impl GaConfig {
    /// Candidates evaluated a generation: `population`, SPSA's pair, or the local search's
    /// incumbent and its two neighbours.
    pub fn candidates(&self) -> usize {
        match self.optimiser {
            OptimiserKind::Ga | OptimiserKind::Cmaes => self.population,
            OptimiserKind::Spsa => 2,
            OptimiserKind::Local => 3,
        }
    }

    /// Checks ranges and that every operator suits the layout's encoding (in this order, so a
    /// config with several faults is told the first as before).
    pub fn validate(&self, layout: &Layout) -> Result<(), GaError> {
        self.validate_sizes()?;
        self.validate_immigrants()?;
        self.validate_operators()?;
        let numeric = matches!(layout, Layout::Numeric(_));
        let have = if numeric { "numeric (integer/real)" } else { "binary (gray/binary)" };
        // The one-point optimisers use none of the operators, so their fit to the space is not
        // checked (a GA config switched to `"local"` runs as it is).
        match self.optimiser {
            OptimiserKind::Spsa if !numeric => {
                return Err(GaError::Incompatible {
                    key: "optimiser",
                    operator: "spsa".into(),
                    needs: "numeric",
                    have,
                });
            }
            OptimiserKind::Spsa => return self.spsa.validate().map_err(|reason| invalid("spsa", reason)),
            OptimiserKind::Local if !(self.local_step > 0.0 && self.local_step <= 1.0) => {
                return Err(invalid("local_step", format!("{} must be in (0, 1]", self.local_step)));
            }
            OptimiserKind::Local => return Ok(()),
            OptimiserKind::Ga | OptimiserKind::Cmaes => {}
        }
        self.validate_encoding(numeric, have)
    }

    /// The population, the generations and CMA-ES's step.
    fn validate_sizes(&self) -> Result<(), GaError> {
        if self.population < 2 {
            return Err(invalid("population", format!("must be at least 2, got {}", self.population)));
        }
        if self.generations == 0 {
            return Err(invalid("generations", "must be at least 1"));
        }
        if !(self.cmaes_sigma > 0.0 && self.cmaes_sigma <= 1.0) {
            return Err(invalid("cmaes_sigma", format!("{} must be in (0, 1]", self.cmaes_sigma)));
        }
        Ok(())
    }

    /// `[ga.immigrants]`: a GA's only, and never in place of the elites.
    fn validate_immigrants(&self) -> Result<(), GaError> {
        let im = &self.immigrants;
        if im.count > 0 && !self.optimiser.is_ga() {
            return Err(invalid(
                "immigrants",
                format!(
                    "immigrants are bred into a GA's generations; optimiser \"{}\" has none",
                    self.optimiser.name()
                ),
            ));
        }
        if im.count > 0 && im.count + self.elitism > self.population {
            return Err(invalid(
                "immigrants",
                format!(
                    "count {} and elitism {} exceed the population {}: immigrants replace children, never elites",
                    im.count, self.elitism, self.population
                ),
            ));
        }
        if !(im.sigma > 0.0 && im.sigma.is_finite()) {
            return Err(invalid(
                "immigrants",
                format!("sigma {} must be positive (a fraction of each range)", im.sigma),
            ));
        }
        Ok(())
    }

    /// Elitism, the rates, and the selection's and crossover's own parameters, whatever the space.
    fn validate_operators(&self) -> Result<(), GaError> {
        if self.elitism >= self.population {
            return Err(invalid(
                "elitism",
                format!("{} must be below the population {}", self.elitism, self.population),
            ));
        }
        for (key, rate) in [("crossover_rate", self.crossover_rate), ("mutation_rate", self.mutation_rate)] {
            if !(0.0..=1.0).contains(&rate) {
                return Err(invalid(key, format!("{rate} is not a probability in [0, 1]")));
            }
        }
        match self.selection {
            Selection::Rank { pressure } if !(1.0..=2.0).contains(&pressure) => {
                return Err(invalid("selection", format!("rank pressure {pressure} is outside [1, 2]")));
            }
            Selection::Tournament { size } if size == 0 || size > self.population => {
                return Err(invalid("selection", format!("tournament size {size} must be in 1..={}", self.population)));
            }
            _ => {}
        }
        if let Crossover::MultiParent { parents } = self.crossover
            && parents < 2
        {
            return Err(invalid("crossover", format!("multi-parent needs at least 2 parents, got {parents}")));
        }
        Ok(())
    }

    /// That the crossover and the mutation suit the space's encoding (`numeric`, described as
    /// `have`), for the optimisers that use them.
    fn validate_encoding(&self, numeric: bool, have: &'static str) -> Result<(), GaError> {
        if self.crossover.numeric_only() && !numeric {
            return Err(GaError::Incompatible {
                key: "crossover",
                operator: format!("{:?}", self.crossover),
                needs: "numeric",
                have,
            });
        }
        let mutation_numeric = !matches!(self.mutation, Mutation::BitFlip);
        if mutation_numeric != numeric {
            return Err(GaError::Incompatible {
                key: "mutation",
                operator: format!("{:?}", self.mutation),
                needs: if mutation_numeric { "numeric" } else { "binary" },
                have,
            });
        }
        if let Mutation::Gaussian { sigma } = self.mutation
            && !(sigma > 0.0 && sigma.is_finite())
        {
            return Err(invalid("mutation", format!("gaussian sigma must be positive, got {sigma}")));
        }
        Ok(())
    }
}
