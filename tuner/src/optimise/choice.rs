//! The `[optimiser]` table of the generation commands (`evolve`, `search-evolve`, the paper's
//! `coevolve`): which [`Optimiser`](super::Optimiser) proposes each generation, tagged by
//! `kind`, with that optimiser's own settings beside the tag.
//!
//! ```toml
//! [optimiser]
//! kind = "cmaes"   # "ga" (the default: `[ga]`'s operators), "cmaes", "spsa" or "local"
//! sigma = 0.05
//! ```
//!
//! Older configs chose the optimiser inside `[ga]` (`optimiser = "cmaes"`, `cmaes_sigma`,
//! `[ga.spsa]`, `local_step`); [`lift_legacy`] moves those keys to `[optimiser]` before a config
//! is read, and [`super::config::legacy_ga_json`] writes the `[ga]` settings as those tuners
//! serialised them, so the fingerprints of their runs, and with them their checkpoints, still
//! hold.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::spsa::SpsaSettings;

/// Hansen's usual start: a third of the range.
pub const DEFAULT_CMAES_SIGMA: f64 = 0.3;

/// The local search's first step: a tenth of every range.
pub const DEFAULT_LOCAL_STEP: f64 = 0.1;

/// Which optimiser breeds a generation from the last (`[optimiser] kind`), with its settings;
/// each is a [`super::Optimiser`], built by [`crate::ga::driver::Driver::evolve`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum OptimiserConfig {
    /// The operators of `[ga]`, `population` organisms a generation.
    Ga {},
    /// CMA-ES, `[ga] population` points a generation.
    Cmaes {
        /// The initial step size, as a fraction of every gene's range.
        #[serde(default = "default_sigma")]
        sigma: f64,
    },
    /// SPSA from one start point: the pair θ ± c_k·Δ a generation (one iteration).
    Spsa(SpsaSettings),
    /// Coordinate local search from one start point: the incumbent and one coordinate a step up
    /// and down a generation.
    Local {
        /// The first step, as a fraction of every gene's range.
        #[serde(default = "default_step")]
        step: f64,
    },
}

fn default_sigma() -> f64 {
    DEFAULT_CMAES_SIGMA
}

fn default_step() -> f64 {
    DEFAULT_LOCAL_STEP
}

impl Default for OptimiserConfig {
    fn default() -> Self {
        OptimiserConfig::Ga {}
    }
}

impl OptimiserConfig {
    /// The `kind` in the config and the name in logs and errors.
    pub fn name(&self) -> &'static str {
        match self {
            OptimiserConfig::Ga {} => "ga",
            OptimiserConfig::Cmaes { .. } => "cmaes",
            OptimiserConfig::Spsa(_) => "spsa",
            OptimiserConfig::Local { .. } => "local",
        }
    }

    pub fn is_ga(&self) -> bool {
        matches!(self, OptimiserConfig::Ga {})
    }

    /// Whether the optimiser starts from one point and never uses the GA's operators.
    pub fn from_one_point(&self) -> bool {
        matches!(self, OptimiserConfig::Spsa(_) | OptimiserConfig::Local { .. })
    }

    /// Candidates evaluated a generation: `population` (the GA's and CMA-ES's), SPSA's pair, or
    /// the local search's incumbent and its two neighbours.
    pub fn candidates(&self, population: usize) -> usize {
        match self {
            OptimiserConfig::Ga {} | OptimiserConfig::Cmaes { .. } => population,
            OptimiserConfig::Spsa(_) => 2,
            OptimiserConfig::Local { .. } => 3,
        }
    }

    /// Checks the settings, and that the optimiser can search a space whose encoding is
    /// `numeric` or not (described as `have`).
    pub fn validate(&self, numeric: bool, have: &'static str) -> Result<(), ChoiceError> {
        let invalid = |key, reason| Err(ChoiceError { key, reason });
        match *self {
            OptimiserConfig::Ga {} => Ok(()),
            OptimiserConfig::Cmaes { sigma } if !(sigma > 0.0 && sigma <= 1.0) => {
                invalid("sigma", format!("{sigma} must be in (0, 1]"))
            }
            OptimiserConfig::Cmaes { .. } => Ok(()),
            OptimiserConfig::Spsa(_) if !numeric => {
                invalid("kind", format!("`spsa` needs a numeric genome but the search space encoding is {have}"))
            }
            OptimiserConfig::Spsa(settings) => settings.validate().or_else(|e| invalid(e.key, e.reason)),
            OptimiserConfig::Local { step } if !(step > 0.0 && step <= 1.0) => {
                invalid("step", format!("{step} must be in (0, 1]"))
            }
            OptimiserConfig::Local { .. } => Ok(()),
        }
    }
}

/// An `[optimiser]` setting that cannot work, or a kind that cannot search the space.
#[derive(Clone, Debug, Error, PartialEq)]
#[error("optimiser.{key}: {reason}")]
pub struct ChoiceError {
    pub key: &'static str,
    pub reason: String,
}

/// The keys of `[ga]` that chose and set the optimiser before `[optimiser]`.
const LEGACY_KEYS: [&str; 4] = ["optimiser", "cmaes_sigma", "spsa", "local_step"];

/// Moves an older config's optimiser keys out of `[ga]` into an `[optimiser]` table:
/// `optimiser = K` becomes `kind = K`, and the chosen optimiser's settings come along
/// (`cmaes_sigma` as `sigma`, `[ga.spsa]`'s keys as they are, `local_step` as `step`). The
/// settings of an optimiser not chosen never changed a run; they are dropped with a warning.
/// Whether anything moved.
///
/// # Errors
/// When the config has both forms, naming the key of each.
pub fn lift_legacy(config: &mut toml::Table) -> Result<bool, String> {
    let Some(toml::Value::Table(ga)) = config.get_mut("ga") else {
        return Ok(false);
    };
    let Some(first) = LEGACY_KEYS.iter().find(|k| ga.contains_key(**k)) else {
        return Ok(false);
    };
    if config.contains_key("optimiser") {
        return Err(format!(
            "ga.{first} and [optimiser] both set the optimiser: keep [optimiser] (kind = ...) and remove ga.{first}"
        ));
    }
    let Some(toml::Value::Table(ga)) = config.get_mut("ga") else {
        unreachable!("[ga] is a table: it was matched above")
    };
    let kind = ga.remove("optimiser").unwrap_or_else(|| toml::Value::String("ga".into()));
    let mut lifted = toml::Table::new();
    let chosen = kind.as_str().unwrap_or_default().to_string();
    lifted.insert("kind".into(), kind);
    for (key, owner, new_key) in [("cmaes_sigma", "cmaes", "sigma"), ("local_step", "local", "step")] {
        match ga.remove(key) {
            Some(value) if chosen == owner => _ = lifted.insert(new_key.into(), value),
            Some(_) => log::warn!("ga.{key} is {owner}'s setting and the optimiser is \"{chosen}\": ignored"),
            None => {}
        }
    }
    match ga.remove("spsa") {
        Some(toml::Value::Table(spsa)) if chosen == "spsa" => lifted.extend(spsa),
        // Not a table: `[optimiser]`'s read names the key (none of SPSA's is `spsa`).
        Some(other) if chosen == "spsa" => _ = lifted.insert("spsa".into(), other),
        Some(_) => log::warn!("[ga.spsa] is spsa's setting and the optimiser is \"{chosen}\": ignored"),
        None => {}
    }
    config.insert("optimiser".into(), toml::Value::Table(lifted));
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn optimiser_of(text: &str) -> Result<(OptimiserConfig, toml::Table), String> {
        let mut table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
        lift_legacy(&mut table)?;
        let optimiser = match table.remove("optimiser") {
            Some(v) => v.try_into().map_err(|e: toml::de::Error| e.to_string())?,
            None => OptimiserConfig::default(),
        };
        Ok((optimiser, table))
    }

    #[test]
    fn the_old_and_the_new_form_choose_the_same_optimiser() {
        let pairs = [
            ("[ga]\npopulation = 5\n", "[ga]\npopulation = 5\n"),
            ("[ga]\noptimiser = \"ga\"\n", "[ga]\n[optimiser]\nkind = \"ga\"\n"),
            (
                "[ga]\noptimiser = \"cmaes\"\ncmaes_sigma = 0.05\n",
                "[ga]\n[optimiser]\nkind = \"cmaes\"\nsigma = 0.05\n",
            ),
            ("[ga]\noptimiser = \"cmaes\"\n", "[ga]\n[optimiser]\nkind = \"cmaes\"\n"),
            (
                "[ga]\noptimiser = \"spsa\"\n[ga.spsa]\niterations = 17500\nr_end = 0.000001\n",
                "[ga]\n[optimiser]\nkind = \"spsa\"\niterations = 17500\nr_end = 0.000001\n",
            ),
            ("[ga]\noptimiser = \"local\"\nlocal_step = 0.2\n", "[ga]\n[optimiser]\nkind = \"local\"\nstep = 0.2\n"),
        ];
        for (old, new) in pairs {
            let (a, rest_a) = optimiser_of(old).unwrap();
            let (b, rest_b) = optimiser_of(new).unwrap();
            assert_eq!(a, b, "{old} / {new}");
            assert_eq!(rest_a, rest_b, "{old} / {new}");
        }
        let (spsa, _) = optimiser_of("[optimiser]\nkind = \"spsa\"\nc_end = 0.05\n").unwrap();
        assert_eq!(spsa, OptimiserConfig::Spsa(SpsaSettings { c_end: 0.05, ..SpsaSettings::default() }));
        assert_eq!(optimiser_of("").unwrap().0, OptimiserConfig::Ga {});
    }

    #[test]
    fn unknown_kinds_and_misplaced_keys_are_named() {
        let err = |text: &str| optimiser_of(text).unwrap_err();
        let e = err("[optimiser]\nkind = \"cma\"\n");
        assert!(e.contains("unknown variant `cma`") && e.contains("`cmaes`"), "{e}");
        let e = err("[optimiser]\nsigma = 0.2\n");
        assert!(e.contains("missing field `kind`"), "{e}");
        // Another optimiser's setting, or the GA's, is not this one's.
        for (text, key) in [
            ("[optimiser]\nkind = \"cmaes\"\nstep = 0.2\n", "step"),
            ("[optimiser]\nkind = \"ga\"\nsigma = 0.2\n", "sigma"),
            ("[optimiser]\nkind = \"local\"\npopulation = 4\n", "population"),
            ("[optimiser]\nkind = \"spsa\"\nsigma = 0.2\n", "sigma"),
        ] {
            let e = err(text);
            assert!(e.contains(&format!("unknown field `{key}`")), "{text}: {e}");
        }
        let e = err("[ga]\noptimiser = \"cmaes\"\n[optimiser]\nkind = \"cmaes\"\n");
        assert!(e.contains("ga.optimiser and [optimiser] both"), "{e}");
        let e = err("[ga]\ncmaes_sigma = 0.2\n[optimiser]\nkind = \"cmaes\"\n");
        assert!(e.contains("ga.cmaes_sigma and [optimiser] both"), "{e}");
    }

    #[test]
    fn a_loose_setting_of_another_optimiser_is_dropped() {
        let (optimiser, rest) = optimiser_of("[ga]\ncmaes_sigma = 0.2\nlocal_step = 0.5\npopulation = 4\n").unwrap();
        assert_eq!(optimiser, OptimiserConfig::Ga {});
        assert_eq!(rest["ga"].as_table().unwrap().keys().collect::<Vec<_>>(), ["population"]);
    }

    #[test]
    fn settings_are_checked_naming_the_key() {
        let have = "binary (gray/binary)";
        let e = |o: OptimiserConfig, numeric| o.validate(numeric, have).unwrap_err().to_string();
        assert_eq!(e(OptimiserConfig::Cmaes { sigma: 0.0 }, true), "optimiser.sigma: 0 must be in (0, 1]");
        assert_eq!(e(OptimiserConfig::Local { step: 1.5 }, true), "optimiser.step: 1.5 must be in (0, 1]");
        let spsa = SpsaSettings::default();
        assert_eq!(
            e(OptimiserConfig::Spsa(spsa), false),
            "optimiser.kind: `spsa` needs a numeric genome but the search space encoding is binary (gray/binary)"
        );
        let zero = OptimiserConfig::Spsa(SpsaSettings { c_end: 0.0, ..spsa });
        assert_eq!(e(zero, true), "optimiser.c_end: 0 must be in (0, 1] (a fraction of each range)");
        assert!(OptimiserConfig::Local { step: 0.2 }.validate(false, have).is_ok());
    }
}
