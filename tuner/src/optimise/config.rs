//! The `[ga]` table of the evolution commands: the population, the generations and the GA's
//! operators, checked with the chosen optimiser ([`super::choice`]) against a search space's
//! layout ([`GaConfig::validate`], failing with a [`GaError`]).

use rand::Rng;
use serde::{Deserialize, Deserializer, Serialize};
use thiserror::Error;

use super::{
    choice::{ChoiceError, DEFAULT_CMAES_SIGMA, DEFAULT_LOCAL_STEP, OptimiserConfig},
    spsa::SpsaSettings,
};
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
    /// The `[optimiser]` table's settings, or its kind for this space.
    #[error(transparent)]
    Optimiser(#[from] ChoiceError),
}

pub(super) fn invalid(key: &'static str, reason: impl Into<String>) -> GaError {
    GaError::Invalid { key, reason: reason.into() }
}

impl GaConfig {
    /// Checks ranges and that `optimiser` and every operator it uses suit the layout's encoding
    /// (in this order, so a config with several faults is told the first).
    pub fn validate(&self, optimiser: &OptimiserConfig, layout: &Layout) -> Result<(), GaError> {
        self.validate_sizes()?;
        self.validate_immigrants(optimiser)?;
        self.validate_operators()?;
        let numeric = matches!(layout, Layout::Numeric(_));
        let have = if numeric { "numeric (integer/real)" } else { "binary (gray/binary)" };
        optimiser.validate(numeric, have)?;
        // The one-point optimisers use none of the operators, so their fit to the space is not
        // checked (a GA config switched to `"local"` runs as it is).
        if optimiser.from_one_point() {
            return Ok(());
        }
        self.validate_encoding(numeric, have)
    }

    /// The population and the generations.
    fn validate_sizes(&self) -> Result<(), GaError> {
        if self.population < 2 {
            return Err(invalid("population", format!("must be at least 2, got {}", self.population)));
        }
        if self.generations == 0 {
            return Err(invalid("generations", "must be at least 1"));
        }
        Ok(())
    }

    /// `[ga.immigrants]`: a GA's only, and never in place of the elites.
    fn validate_immigrants(&self, optimiser: &OptimiserConfig) -> Result<(), GaError> {
        let im = &self.immigrants;
        if im.count > 0 && !optimiser.is_ga() {
            return Err(invalid(
                "immigrants",
                format!("immigrants are bred into a GA's generations; optimiser \"{}\" has none", optimiser.name()),
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

/// `[ga]` and the optimiser as tuners before `[optimiser]` ([`super::choice`]) serialised their `[ga]` settings
/// (the optimiser's keys among the GA's, each left out at its default): the form run
/// fingerprints hash, so runs begun then still resume.
pub fn legacy_ga_json(ga: &GaConfig, optimiser: &OptimiserConfig) -> String {
    let (mut cmaes_sigma, mut spsa, mut local_step) =
        (DEFAULT_CMAES_SIGMA, SpsaSettings::default(), DEFAULT_LOCAL_STEP);
    match *optimiser {
        OptimiserConfig::Ga {} => {}
        OptimiserConfig::Cmaes { sigma } => cmaes_sigma = sigma,
        OptimiserConfig::Spsa(settings) => spsa = settings,
        OptimiserConfig::Local { step } => local_step = step,
    }
    let legacy = LegacyGa {
        population: ga.population,
        generations: ga.generations,
        elitism: ga.elitism,
        selection: &ga.selection,
        crossover: &ga.crossover,
        crossover_rate: ga.crossover_rate,
        mutation: &ga.mutation,
        mutation_rate: ga.mutation_rate,
        optimiser: Some(optimiser.name()).filter(|n| *n != "ga"),
        cmaes_sigma,
        spsa,
        local_step,
        immigrants: &ga.immigrants,
    };
    serde_json::to_string(&legacy).expect("GA settings serialise")
}

/// The `[ga]` table as it was serialised, field for field in its order.
#[derive(Serialize)]
struct LegacyGa<'a> {
    population: usize,
    generations: usize,
    elitism: usize,
    selection: &'a Selection,
    crossover: &'a Crossover,
    crossover_rate: f64,
    mutation: &'a Mutation,
    mutation_rate: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    optimiser: Option<&'static str>,
    #[serde(skip_serializing_if = "is_default_sigma")]
    cmaes_sigma: f64,
    #[serde(skip_serializing_if = "is_default_spsa")]
    spsa: SpsaSettings,
    #[serde(skip_serializing_if = "is_default_local_step")]
    local_step: f64,
    #[serde(skip_serializing_if = "is_no_immigrants")]
    immigrants: &'a Immigrants,
}

fn is_default_sigma(sigma: &f64) -> bool {
    *sigma == DEFAULT_CMAES_SIGMA
}

fn is_default_spsa(spsa: &SpsaSettings) -> bool {
    *spsa == SpsaSettings::default()
}

fn is_default_local_step(step: &f64) -> bool {
    *step == DEFAULT_LOCAL_STEP
}

fn is_no_immigrants(immigrants: &&Immigrants) -> bool {
    immigrants.is_none()
}

/// A command config's serialised form (`config_json`, with `[ga]` serialised as `ga` is now)
/// with its `ga` value rewritten in the older form ([`legacy_ga_json`]), for the fingerprints
/// of commands that hash their whole config. The substitution is textual because serde_json
/// here keeps no key order in its values, and the order is what the fingerprint hashes.
pub fn with_legacy_ga(config_json: &str, ga: &GaConfig, optimiser: &OptimiserConfig) -> String {
    let current = format!("\"ga\":{}", serde_json::to_string(ga).expect("GA settings serialise"));
    let legacy = format!("\"ga\":{}", legacy_ga_json(ga, optimiser));
    assert_eq!(config_json.matches(&current).count(), 1, "one `ga` entry in {config_json}");
    config_json.replacen(&current, &legacy, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `serde_json::to_string` of the `[ga]` settings before `[optimiser]`, as the tuner of
    /// commit ec6e98d wrote them: the fingerprints of older runs hash these bytes.
    #[test]
    fn the_legacy_form_is_what_older_tuners_serialised() {
        let head = r#"{"population":100,"generations":200,"elitism":1,"selection":{"kind":"roulette"},"crossover":{"kind":"uniform"},"crossover_rate":0.75,"mutation":{"kind":"bit-flip"},"mutation_rate":0.005"#;
        let ga = GaConfig::default();
        let cases = [
            (OptimiserConfig::Ga {}, "}"),
            (OptimiserConfig::Cmaes { sigma: DEFAULT_CMAES_SIGMA }, r#","optimiser":"cmaes"}"#),
            (OptimiserConfig::Cmaes { sigma: 0.05 }, r#","optimiser":"cmaes","cmaes_sigma":0.05}"#),
            (
                OptimiserConfig::Spsa(SpsaSettings { iterations: 17500, c_end: 0.02, r_end: 1e-6 }),
                r#","optimiser":"spsa","spsa":{"iterations":17500,"c_end":0.02,"r_end":1e-6}}"#,
            ),
        ];
        for (optimiser, tail) in cases {
            assert_eq!(legacy_ga_json(&ga, &optimiser), format!("{head}{tail}"));
        }
        let immigrants = GaConfig { immigrants: Immigrants { count: 2, ..Immigrants::default() }, ..ga.clone() };
        assert_eq!(
            legacy_ga_json(&immigrants, &OptimiserConfig::Local { step: 0.2 }),
            format!(
                r#"{head},"optimiser":"local","local_step":0.2,"immigrants":{{"count":2,"kind":"mutant","sigma":0.05}}}}"#
            )
        );
        // The GA's own form is the legacy one when the optimiser is the GA.
        assert_eq!(serde_json::to_string(&ga).unwrap(), legacy_ga_json(&ga, &OptimiserConfig::Ga {}));
    }
}
