//! What `tuner texel` reads from its config file ([`TexelConfig`], with the `[gradient]` table
//! of [`super::gradient`]) and what the tune can fail with ([`TexelError`]).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{
    gradient::{GradientConfig, Optimizer, ValidateOn},
    traces::TraceError,
};
use crate::{
    evolve::positions::{PositionsConfig, PositionsError, Sample},
    ga::error::RunError,
};

/// Everything `tuner texel` reads from its config file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TexelConfig {
    /// Games with results (`.pgn` or `.pgn.xz`): any PGN, or `tuner match`'s own.
    pub pgn: Vec<PathBuf>,
    /// `tuner datagen`'s self-play shards instead of `pgn` (exactly one of the two): each a
    /// shard file or a directory whose `shard-*.bin` files are read in name order (see
    /// [`super::selfplay`]). Left out of the serialised config when empty, so PGN runs keep
    /// their checkpoints' fingerprints.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub data: Vec<PathBuf>,
    /// The parameters tuned: a search-space file (genes with keys, `min`, `max` and optional
    /// `step`, the smallest move; the encoding is ignored). Default: the whole evaluation,
    /// `configs/spaces/texel-full.toml` (built into the binary, so it works from any directory).
    pub space: PathBuf,
    /// Parameter file the tuning starts from (default: the space's base).
    pub params: Option<PathBuf>,
    /// Position sampling; `train` and `test` are the training and validation set sizes. Keys
    /// left out take texel's defaults (`sample = "any"`), not evolve's.
    #[serde(deserialize_with = "texel_positions")]
    pub positions: PositionsConfig,
    /// Passes over every gene (the run's "generations").
    pub passes: usize,
    /// A gene's first step as a share of its range, `(max − min) / step_divisor` (at least its
    /// `step`).
    pub step_divisor: i32,
    /// Scale of the winning chance; fitted on the training set when absent.
    pub k: Option<f64>,
    /// Threads for the loss (0 = all cores).
    pub threads: usize,
    pub seed: u64,
    pub out_dir: PathBuf,
    /// `local` (the search above), `adam` or `adagrad` (gradient over traced positions:
    /// [`super::gradient`]). Left out of the serialised config when `local`, so local runs keep
    /// their checkpoints' fingerprints.
    #[serde(skip_serializing_if = "is_local")]
    pub optimizer: Optimizer,
    /// The gradient optimisers' settings (`[gradient]`; defaults when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gradient: Option<GradientConfig>,
    /// Read the shards of several datagen runs, and a game found twice once (see
    /// [`super::selfplay`]); without it such data is refused. Not serialised: it decides whether
    /// a run starts, not what it computes.
    #[serde(skip_serializing)]
    pub allow_mixed: bool,
}

/// A `[positions]` table laid over texel's own defaults: [`PositionsConfig`]'s are evolve's
/// (`sample = "winner"`), which texel refuses.
fn texel_positions<'de, D: serde::Deserializer<'de>>(d: D) -> Result<PositionsConfig, D::Error> {
    use serde::de::Error as _;
    let given = toml::Table::deserialize(d)?;
    let mut table = toml::Table::try_from(TexelConfig::default().positions).map_err(D::Error::custom)?;
    table.extend(given);
    table.try_into().map_err(D::Error::custom)
}

fn is_local(o: &Optimizer) -> bool {
    *o == Optimizer::Local
}

/// The search space a config that names none tunes.
const DEFAULT_SPACE: &str = "configs/spaces/texel-full.toml";

impl Default for TexelConfig {
    fn default() -> Self {
        TexelConfig {
            pgn: Vec::new(),
            data: Vec::new(),
            space: PathBuf::from(DEFAULT_SPACE),
            params: None,
            positions: PositionsConfig {
                train: 150_000,
                test: 30_000,
                positions_per_game: 10,
                min_ply: 16,
                sample: Sample::Any,
                ..PositionsConfig::default()
            },
            passes: 40,
            step_divisor: 64,
            k: None,
            threads: 0,
            seed: 1,
            out_dir: PathBuf::from("runs/texel"),
            optimizer: Optimizer::Local,
            gradient: None,
            allow_mixed: false,
        }
    }
}

#[derive(Debug, Error)]
pub enum TexelError {
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("texel config: {0}")]
    Config(String),
    #[error(transparent)]
    Positions(#[from] PositionsError),
    #[error("texel traces: {0}")]
    Trace(#[from] TraceError),
}

crate::command_error!(TexelError);

impl crate::paths::ConfigPaths for TexelConfig {
    fn input_paths() -> Vec<String> {
        crate::paths::keys(&["pgn", "data", "space", "params"])
    }
}

impl TexelConfig {
    /// Reads a config; its relative input paths (`pgn`, `data`, `space`, `params`) are relative
    /// to the file, `out_dir` and `positions.cache` to the working directory.
    pub fn load(path: &Path) -> Result<Self, TexelError> {
        crate::paths::load_config(path).map_err(|e| e.into_command(TexelError::io, TexelError::Config))
    }

    pub(super) fn validate(&self) -> Result<(), TexelError> {
        let bad = |why: String| Err(TexelError::Config(why));
        match (self.pgn.is_empty(), self.data.is_empty()) {
            (true, true) => {
                return bad("pgn or data: name PGN files of games with results (pgn) or datagen shards (data)".into());
            }
            (false, false) => return bad("pgn and data: give exactly one of the two position sources".into()),
            _ => {}
        }
        if self.space.as_os_str().is_empty() {
            return bad("space: name the search-space file of the parameters to tune".into());
        }
        // The sampling keys apply to PGN games only; shards are read as they are.
        let pgn = self.data.is_empty();
        if pgn && self.positions.sample != Sample::Any {
            return bad("positions.sample must be \"any\": Texel's loss needs losses and draws too".into());
        }
        if pgn && self.positions.random_plies > 0 {
            return bad("positions.random_plies must be 0: a walked-off position has no game result".into());
        }
        if self.positions.train == 0 || self.positions.test == 0 {
            return bad("positions.train and positions.test (the validation set) must be at least 1".into());
        }
        if self.passes == 0 || self.step_divisor < 1 {
            return bad("passes and step_divisor must be at least 1".into());
        }
        if self.k.is_some_and(|k| !(k.is_finite() && k > 0.0)) {
            return bad(format!("k must be a positive number, not {}", self.k.unwrap_or_default()));
        }
        if self.gradient.is_some() && self.optimizer == Optimizer::Local {
            return bad("[gradient] settings need optimizer = \"adam\" or \"adagrad\"".into());
        }
        if let Some(g) = &self.gradient {
            g.validate().map_err(TexelError::Config)?;
        }
        Ok(())
    }

    /// The `lambda` of the validation MSE: the fit's own where `[gradient] validate_on =
    /// "target"`, else 1 (the game results).
    pub(super) fn validation_lambda(&self) -> f64 {
        match &self.gradient {
            Some(g) if g.validate_on == ValidateOn::Target => g.lambda,
            _ => 1.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use evochess::{eval::Evaluator, params::Params};
    use shakmaty::Chess;

    use super::*;
    use crate::{
        space::SearchSpace,
        texel::{
            labelled::{Labelled, mse, mse_against},
            win_chance,
        },
    };

    #[test]
    fn bad_configs_name_what_is_wrong() {
        let ok = TexelConfig { pgn: vec!["g.pgn".into()], space: "s.toml".into(), ..TexelConfig::default() };
        assert!(ok.validate().is_ok());
        let err = |c: TexelConfig| c.validate().unwrap_err().to_string();
        assert!(err(TexelConfig { pgn: vec![], ..ok.clone() }).contains("pgn or data"));
        let shards = TexelConfig { pgn: vec![], data: vec!["data/selfplay".into()], ..ok.clone() };
        assert!(shards.validate().is_ok());
        assert!(err(TexelConfig { data: vec!["d".into()], ..ok.clone() }).contains("pgn and data"));
        let mut winner = ok.clone();
        winner.positions.sample = Sample::Winner;
        assert!(err(winner).contains("positions.sample"));
        assert!(err(TexelConfig { k: Some(-1.0), ..ok.clone() }).contains("k must be"));
        assert!(err(TexelConfig { passes: 0, ..ok }).contains("passes"));
    }

    #[test]
    fn positions_keys_left_out_take_texels_defaults() {
        let cfg: TexelConfig =
            toml::from_str("pgn = [\"g.pgn\"]\nspace = \"s.toml\"\n[positions]\ntrain = 7\n").unwrap();
        assert_eq!(cfg.positions.sample, Sample::Any);
        assert_eq!((cfg.positions.train, cfg.positions.test), (7, TexelConfig::default().positions.test));
        cfg.validate().unwrap();
        let e = toml::from_str::<TexelConfig>("[positions]\nsampel = \"any\"\n").unwrap_err().to_string();
        assert!(e.contains("sampel") && e.contains("positions"), "{e}");
    }

    /// `validate_on = "target"` measures the validation set against the fit's blend of result and
    /// score; left out, the results, and the serialised config (the run's fingerprint) is as
    /// before the key existed.
    #[test]
    fn the_validation_target_follows_validate_on() {
        let params = Params::default();
        let pos = Chess::default();
        let eval = f64::from(Evaluator::new(&params.eval).evaluate(&pos));
        let set = [Labelled { pos, result: 1.0, score: Some(150.0) }];
        let k = 1.2;
        let against = |target: f64| (target - win_chance(k, eval)).powi(2);
        assert_eq!(mse(&set, &params, k, 1), against(1.0));
        assert_eq!(mse_against(&set, &params, k, 1, 1.0), against(1.0));
        assert!((mse_against(&set, &params, k, 1, 0.0) - against(win_chance(k, 150.0))).abs() < 1e-15);
        let half = 0.5 + 0.5 * win_chance(k, 150.0);
        assert!((mse_against(&set, &params, k, 1, 0.5) - against(half)).abs() < 1e-15);
        let unscored = [Labelled { score: None, ..set[0].clone() }];
        assert_eq!(mse_against(&unscored, &params, k, 1, 0.0), against(1.0));

        let config = |gradient: &str| {
            let text = format!(
                "data = [\"d\"]\nspace = \"s.toml\"\noptimizer = \"adam\"\n[gradient]\nlambda = 0.25\n{gradient}"
            );
            toml::from_str::<TexelConfig>(&text).unwrap()
        };
        let plain = config("");
        assert_eq!(plain.validation_lambda(), 1.0);
        assert!(!serde_json::to_string(&plain).unwrap().contains("validate_on"));
        let target = config("validate_on = \"target\"\n");
        target.validate().unwrap();
        assert_eq!(target.validation_lambda(), 0.25);
        let e = toml::from_str::<TexelConfig>("[gradient]\nvalidate_on = \"scores\"\n").unwrap_err().to_string();
        assert!(e.contains("scores") && e.contains("validate_on"), "{e}");
    }

    #[test]
    fn the_shipped_config_is_valid() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let cfg = TexelConfig::load(&root.join("configs/texel/default.toml")).unwrap();
        cfg.validate().unwrap();
        let space = SearchSpace::load(root.join(&cfg.space)).unwrap();
        assert!(space.genes.len() > 200, "the whole evaluation: {}", space.genes.len());
        for name in [
            "gradient",
            "selfplay",
            "selfplay-from-material",
            "selfplay3",
            "selfplay3-target",
            "selfplay4",
            "selfplay4-full",
            "selfplay4-complexity",
        ] {
            let cfg = TexelConfig::load(&root.join(format!("configs/texel/{name}.toml"))).unwrap();
            cfg.validate().unwrap();
            // Several data sets are several datagen runs: refused unless the config mixes them.
            let runs = cfg.data.iter().filter(|d| d.is_dir()).count()
                + cfg
                    .data
                    .iter()
                    .filter(|d| d.is_file())
                    .map(|f| f.parent())
                    .collect::<std::collections::BTreeSet<_>>()
                    .len();
            assert_eq!(cfg.allow_mixed, runs > 1, "{name}: {:?}", cfg.data);
            SearchSpace::load(root.join(&cfg.space)).unwrap();
        }
    }
}
