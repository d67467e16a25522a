//! `tuner texel`: Texel's tuning of a search space's parameters on the shared [`Driver`], one
//! pass of the local search a "generation".
//!
//! Positions are sampled from games with results (`[positions]`, either side to move, drawn
//! games too), resolved to quiet ones by the engine's qsearch ([`super::quiet`]) and split by
//! game into training and validation sets. `K` is fitted once on the training set with the
//! starting parameters, then each pass tries every gene one step up and one step down and keeps
//! a move that lowers the training MSE of sigmoid(K · static evaluation); a gene that moves
//! neither way halves its step, down to the gene's `step` (default 1). The evaluation is not
//! linear in its parameters (tapering, piece-square tables, mobility tables), so the local
//! search measures the loss itself instead of a gradient through term coefficients.
//!
//! With `data = [...]` instead of `pgn` the positions are `tuner datagen`'s self-play shards
//! ([`super::selfplay`]): each with the game's result and the search's score, kept as they are
//! (the shard's filter already dropped checks and tactical best moves), checked whole (one run's
//! shards, each game once, unless `allow_mixed`), split by game under `[positions] seed` and capped at `[positions] train`/`test`; the other `[positions]`
//! keys are PGN sampling settings and do not apply. Paths are relative to the working
//! directory, as `pgn`'s are.
//!
//! With `optimizer = "adam"` or `"adagrad"` the passes are epochs of a gradient fit instead
//! ([`super::gradient`]): the positions are traced once (`evochess::eval::trace`: each linear
//! parameter's exact coefficient, the tapering applied here) and the loop never evaluates.
//!
//! After every pass `<out>/checkpoint.json` holds the values and steps, `<out>/passes.csv` and
//! `<out>/loss.svg` both sets' MSE per pass, and `<out>/tuned.toml` the values of the pass with
//! the lowest validation MSE as a complete parameter file.

use std::{
    path::{Path, PathBuf},
    time::Instant,
};

use arena::files::write_atomic;
use evochess::{
    eval::{Evaluator, trace::is_linear},
    params::{EvalParams, ParamSection, Params},
};
use plotters::style::RGBColor;
use rand::{SeedableRng, rngs::StdRng, seq::SliceRandom};
use serde::{Deserialize, Serialize};
use shakmaty::{CastlingMode, Chess, fen::Fen};
use thiserror::Error;

use super::{
    fit_k,
    gradient::{Gradient, GradientConfig, GradientState, Optimizer, ValidateOn, epoch, fitted_theta},
    quiet::Resolver,
    selfplay::selfplay_positions,
    traces::{GeneOf, TraceError, TraceSet},
    win_chance,
};
use crate::{
    chart::{Series, render_lines_svg},
    csv::Csv,
    evolve::positions::{GmPosition, PositionsConfig, PositionsError, Sample, load_or_extract},
    ga::{
        driver::{Driver, Finished, Generations},
        error::RunError,
        par_map,
        run_dir::{RunDir, Start},
        threads,
    },
    progress::{Plan, Progress},
    space::SearchSpace,
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

    fn validate(&self) -> Result<(), TexelError> {
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

/// A labelled position: what Texel fits. `result` is the game's result for the side to move
/// (1, ½, 0); `score` an optional score of the position in centipawns, side to move's view
/// (a search's or a mentor's), which the gradient fit blends into its target by `lambda`.
/// Today's source is [`quiet_positions`] (PGN games, no score); a reader of self-play data
/// feeds the same struct.
#[derive(Clone, Debug)]
pub struct Labelled {
    pub pos: Chess,
    pub result: f64,
    pub score: Option<f64>,
}

/// The quiet positions of `positions` (see [`super::quiet`]) with results, resolved under
/// `params` over `threads`; positions dropped on the way are counted in the second value.
pub fn quiet_positions(
    positions: &[GmPosition],
    params: &Params,
    threads: usize,
) -> Result<(Vec<Labelled>, usize), TexelError> {
    let parsed: Vec<(Chess, i8)> = positions
        .iter()
        .map(|p| {
            let outcome = p.outcome.ok_or_else(|| TexelError::Config(format!("position `{}` has no result", p.fen)))?;
            let fen: Fen = p.fen.parse().map_err(|e| TexelError::Config(format!("bad FEN `{}`: {e}", p.fen)))?;
            let pos = fen
                .into_position(CastlingMode::Standard)
                .map_err(|e| TexelError::Config(format!("bad position `{}`: {e}", p.fen)))?;
            Ok((pos, outcome))
        })
        .collect::<Result<_, TexelError>>()?;
    let chunks: Vec<&[(Chess, i8)]> = parsed.chunks(256).collect();
    let resolved: Vec<Option<Labelled>> = par_map(&chunks, threads, |chunk| {
        let mut resolver = Resolver::new(params);
        chunk
            .iter()
            .map(|(pos, outcome)| {
                let (quiet, plies) = resolver.resolve(pos)?;
                // The result is the side to move's: it changes hands with every ply played.
                let outcome = if plies % 2 == 0 { *outcome } else { -outcome };
                Some(Labelled { pos: quiet, result: (f64::from(outcome) + 1.0) / 2.0, score: None })
            })
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    let dropped = resolved.iter().filter(|r| r.is_none()).count();
    Ok((resolved.into_iter().flatten().collect(), dropped))
}

/// Fixed chunks, so that the sum's order, and with it every loss to the last bit, does not
/// depend on the thread count.
const LOSS_CHUNK: usize = 512;

/// Static evaluations of `set` under `params`, as `(score, result)` samples.
fn samples(set: &[Labelled], params: &Params, threads: usize) -> Vec<(f64, f64)> {
    let chunks: Vec<&[Labelled]> = set.chunks(LOSS_CHUNK).collect();
    par_map(&chunks, threads, |chunk| {
        let eval = Evaluator::new(&params.eval);
        chunk.iter().map(|l| (f64::from(eval.evaluate(&l.pos)), l.result)).collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Mean squared error of sigmoid(K · static evaluation) against the game results over `set`
/// under `params`.
pub fn mse(set: &[Labelled], params: &Params, k: f64, threads: usize) -> f64 {
    mse_against(set, params, k, threads, 1.0)
}

/// Mean squared error of sigmoid(K · static evaluation) over `set` under `params` against the
/// gradient fit's target `lambda · result + (1 − lambda) · sigmoid(K · score)` (the result
/// alone where a position has no score; `lambda` 1: the results).
pub fn mse_against(set: &[Labelled], params: &Params, k: f64, threads: usize, lambda: f64) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let chunks: Vec<&[Labelled]> = set.chunks(LOSS_CHUNK).collect();
    let sums = par_map(&chunks, threads, |chunk| {
        let eval = Evaluator::new(&params.eval);
        chunk
            .iter()
            .map(|l| {
                let target = match l.score {
                    Some(score) if lambda < 1.0 => lambda * l.result + (1.0 - lambda) * win_chance(k, score),
                    _ => l.result,
                };
                (target - win_chance(k, f64::from(eval.evaluate(&l.pos)))).powi(2)
            })
            .sum::<f64>()
    });
    sums.iter().sum::<f64>() / set.len() as f64
}

/// The local search's state after a pass (checkpointed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Descent {
    /// Each gene's value.
    pub values: Vec<i32>,
    /// Each gene's current step.
    pub steps: Vec<i32>,
    /// A pass at the smallest steps moved nothing: later passes would repeat it.
    pub converged: bool,
}

/// One pass in the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassRecord {
    pub pass: usize,
    pub train_mse: f64,
    pub validation_mse: f64,
    /// Genes moved in this pass.
    pub changed: usize,
    /// Losses computed in this pass.
    pub trials: usize,
    pub seconds: f64,
    /// The values after this pass.
    pub values: Vec<i32>,
}

pub(super) struct Tuning<'a> {
    pub(super) cfg: &'a TexelConfig,
    pub(super) space: SearchSpace,
    base: Params,
    train: Vec<Labelled>,
    pub(super) validation: Vec<Labelled>,
    pub(super) k: f64,
    pub(super) threads: usize,
    /// The starting values' training and validation MSE (pass 0 of the reports).
    pub(super) start: (f64, f64),
}

impl Tuning<'_> {
    pub(super) fn params(&self, values: &[i32]) -> Params {
        let mut p = self.base.clone();
        for (gene, &v) in self.space.genes.iter().zip(values) {
            for &id in &gene.keys {
                p.set(id, i64::from(v)).expect("gene ranges are validated against the declaration");
            }
        }
        p
    }

    fn min_step(&self, gene: usize) -> i32 {
        self.space.genes[gene].step.unwrap_or(1).max(1)
    }

    pub(super) fn start_values(&self) -> Vec<i32> {
        self.space.genes.iter().map(|g| self.base.get(g.keys[0]).clamp(g.min, g.max)).collect()
    }

    /// `passes.csv`, `loss.svg` and `tuned.toml` (the best validation pass) from the history.
    /// `start_train` is pass 0's training figure: the MSE against the results for the local
    /// search, the traced loss against the fit's target for a gradient fit.
    pub(super) fn write_reports(&self, history: &[PassRecord], start_train: f64) -> Result<(), TexelError> {
        let out = &self.cfg.out_dir;
        let start = PassRecord {
            pass: 0,
            train_mse: start_train,
            validation_mse: self.start.1,
            changed: 0,
            trials: 1,
            seconds: 0.0,
            values: self.start_values(),
        };
        let rows: Vec<&PassRecord> = std::iter::once(&start).chain(history).collect();
        let csv = Csv::new()
            .column("pass", |r: &&PassRecord| r.pass.to_string())
            .column("train_mse", |r| format!("{:.8}", r.train_mse))
            .column("validation_mse", |r| format!("{:.8}", r.validation_mse))
            .column("changed", |r| r.changed.to_string())
            .column("trials", |r| r.trials.to_string())
            .column("seconds", |r| format!("{:.1}", r.seconds));
        let path = out.join("passes.csv");
        write_atomic(&path, csv.write(rows.iter().copied()).as_bytes()).map_err(|e| TexelError::io(&path, e))?;
        let series = [
            Series::new("training", RGBColor(31, 119, 180), rows.iter().map(|r| (r.pass, r.train_mse)).collect()),
            Series::new("validation", RGBColor(214, 39, 40), rows.iter().map(|r| (r.pass, r.validation_mse)).collect()),
        ];
        let label = format!("mean squared error (K = {:.4})", self.k);
        let path = out.join("loss.svg");
        let svg = render_lines_svg("Texel tuning", "pass", &label, &series).map_err(|e| TexelError::io(&path, e))?;
        write_atomic(&path, svg.as_bytes()).map_err(|e| TexelError::io(&path, e))?;
        let values = self.best(history).map_or(&start.values, |r| &r.values);
        let path = out.join("tuned.toml");
        write_atomic(&path, self.params(values).to_toml().as_bytes()).map_err(|e| TexelError::io(&path, e))
    }

    /// The record with the lowest validation MSE, if any pass beat the start.
    fn best<'r>(&self, history: &'r [PassRecord]) -> Option<&'r PassRecord> {
        history
            .iter()
            .filter(|r| r.validation_mse < self.start.1)
            .min_by(|a, b| a.validation_mse.total_cmp(&b.validation_mse).then(a.pass.cmp(&b.pass)))
    }
}

impl Generations for Tuning<'_> {
    type State = Descent;
    type Record = PassRecord;
    type Error = TexelError;

    fn initial(&self, _: &mut StdRng) -> Result<Descent, TexelError> {
        let steps = self
            .space
            .genes
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let min = self.min_step(i);
                // A multiple of the smallest step, so halving reaches it exactly.
                ((g.max - g.min) / self.cfg.step_divisor / min).max(1) * min
            })
            .collect();
        Ok(Descent { values: self.start_values(), steps, converged: false })
    }

    fn evaluate(
        &self,
        g: usize,
        mut d: Descent,
        _: &[PassRecord],
        _: bool,
    ) -> Result<(Descent, PassRecord), TexelError> {
        let t = Instant::now();
        let mut best = mse(&self.train, &self.params(&d.values), self.k, self.threads);
        let (mut changed, mut trials) = (0, 1);
        if !d.converged {
            for (i, gene) in self.space.genes.iter().enumerate() {
                let step = d.steps[i];
                let mut moved = false;
                for v in [d.values[i] + step, d.values[i] - step] {
                    if v < gene.min || v > gene.max {
                        continue;
                    }
                    let mut values = d.values.clone();
                    values[i] = v;
                    let loss = mse(&self.train, &self.params(&values), self.k, self.threads);
                    trials += 1;
                    if loss < best {
                        (best, d.values, moved) = (loss, values, true);
                        break;
                    }
                }
                if moved {
                    changed += 1;
                } else {
                    let min = self.min_step(i);
                    d.steps[i] = (step / 2 / min).max(1) * min;
                }
            }
            d.converged = changed == 0 && d.steps.iter().enumerate().all(|(i, &s)| s == self.min_step(i));
        }
        let validation_mse = mse(&self.validation, &self.params(&d.values), self.k, self.threads);
        let record = PassRecord {
            pass: g + 1,
            train_mse: best,
            validation_mse,
            changed,
            trials,
            seconds: t.elapsed().as_secs_f64(),
            values: d.values.clone(),
        };
        log::info!(
            "pass {}: training MSE {:.6}, validation MSE {:.6}, {changed} of {} genes moved ({:.1}s){}",
            g + 1,
            best,
            validation_mse,
            self.space.genes.len(),
            record.seconds,
            if d.converged { ", converged" } else { "" }
        );
        Ok((d, record))
    }

    fn breed(&self, _: usize, d: &Descent, _: &[PassRecord], _: &mut StdRng) -> Result<Descent, TexelError> {
        Ok(d.clone())
    }

    fn check(&self, d: &Descent) -> Result<(), String> {
        let n = self.space.genes.len();
        if d.values.len() != n || d.steps.len() != n {
            return Err(format!("{} values for the space's {n} genes", d.values.len()));
        }
        Ok(())
    }

    fn report(&self, history: &[PassRecord]) -> Result<(), TexelError> {
        self.write_reports(history, self.start.0)
    }
}

/// The gradient fit of `tuning`'s space: its linear genes, over the training positions
/// (shuffled by the seed, so that mini-batches mix games) traced at the starting values.
fn gradient_fit<'a>(tuning: &'a Tuning<'a>, optimizer: Optimizer) -> Result<Gradient<'a>, TexelError> {
    let (gene_of, fitted) = linear_genes(&tuning.space);
    log::info!(
        "texel: {} of {} genes fitted by {optimizer:?}; the others (non-linear or search) held at their start",
        fitted.len(),
        tuning.space.genes.len()
    );
    let mut order: Vec<usize> = (0..tuning.train.len()).collect();
    order.shuffle(&mut StdRng::seed_from_u64(tuning.cfg.seed));
    let positions: Vec<Labelled> = order.iter().map(|&i| tuning.train[i].clone()).collect();
    let cfg = tuning.cfg.gradient.clone().unwrap_or_default();
    let t = Instant::now();
    let values = tuning.start_values();
    let start = tuning.params(&values);
    let mut train = TraceSet::build(&positions, &start.eval, &gene_of, fitted.len(), tuning.threads)?;
    train.set_targets(tuning.k, cfg.lambda);
    log::info!(
        "texel: traced {} positions in {:.1}s: {} coefficients, {:.0} bytes per position",
        train.len(),
        t.elapsed().as_secs_f64(),
        train.entries.len(),
        train.bytes() as f64 / train.len() as f64
    );
    let start_theta = fitted_theta(&values, &fitted);
    let start_loss =
        train.loss_grad(&start_theta, tuning.k, 0..train.len(), false, tuning.threads).0 / train.len() as f64;
    log::info!(
        "texel: start: training MSE {start_loss:.6} against the fit's target (lambda {}: lambda·result + (1 − lambda)·sigmoid(K·score))",
        cfg.lambda
    );
    Ok(Gradient { tuning, cfg, optimizer, train, fitted, seed: tuning.cfg.seed, start_loss })
}

/// The space's genes whose keys are all linear evaluation parameters (the gradient fits
/// these), as each evaluation parameter's fitted-gene index and each fitted gene's space index.
fn linear_genes(space: &SearchSpace) -> (GeneOf, Vec<usize>) {
    let specs = EvalParams::specs();
    let mut gene_of = vec![None; specs.len()];
    let mut fitted = Vec::new();
    for (g, gene) in space.genes.iter().enumerate() {
        if gene.keys.iter().all(|id| id.0 < specs.len() && is_linear(&specs[id.0])) {
            for id in &gene.keys {
                gene_of[id.0] = Some(fitted.len());
            }
            fitted.push(g);
        }
    }
    (gene_of, fitted)
}

/// The config's space and starting parameters.
fn space_and_base(cfg: &TexelConfig) -> Result<(SearchSpace, String, Params), TexelError> {
    let space_text = crate::builtin::read_text(&cfg.space).map_err(|e| TexelError::io(&cfg.space, e))?;
    let space = SearchSpace::parse(&space_text).map_err(|e| RunError::from(e.in_file(&cfg.space)))?;
    if space.genes.is_empty() {
        return Err(TexelError::Config(format!("{} names no parameter to tune", cfg.space.display())));
    }
    let base = match &cfg.params {
        Some(p) => space.with_fixed(&Params::load(p).map_err(|e| TexelError::params(p, e))?),
        None => space.base(),
    };
    Ok((space, space_text, base))
}

/// `tuner texel --bench-epoch N`: the config's training positions traced, repeated to `n`
/// positions, and one epoch of the gradient fit (the config's `[gradient]` settings) timed.
/// Returns the report's lines.
pub fn bench_epoch(cfg: &TexelConfig, n: usize) -> Result<Vec<String>, TexelError> {
    cfg.validate()?;
    if n == 0 {
        return Err(TexelError::Config("--bench-epoch: name at least 1 position".into()));
    }
    let (space, _, base) = space_and_base(cfg)?;
    let threads = threads(cfg.threads);
    let ((train, _), _, _) = load_sets(cfg, &base, threads)?;
    let (gene_of, fitted) = linear_genes(&space);
    let t = Instant::now();
    let traced = TraceSet::build(&train, &base.eval, &gene_of, fitted.len(), threads)?;
    let trace_seconds = t.elapsed().as_secs_f64();
    if traced.is_empty() {
        return Err(TexelError::Config("no quiet training positions to trace".into()));
    }
    let start: Vec<f64> = fitted.iter().map(|&g| f64::from(base.get(space.genes[g].keys[0]))).collect();
    let k = fit_k(&traced.samples(&start), 0.05, 10.0, 1e-6);
    let mut big = traced.tiled(n.div_ceil(traced.len()))?;
    big.set_targets(k, 1.0);
    let bounds: Vec<(i32, i32)> = fitted.iter().map(|&g| (space.genes[g].min, space.genes[g].max)).collect();
    let gcfg = cfg.gradient.clone().unwrap_or_default();
    let optimizer = if cfg.optimizer == Optimizer::Local { Optimizer::Adam } else { cfg.optimizer };
    let mut state = GradientState::new(start.clone(), f64::INFINITY);
    let t = Instant::now();
    let (sse, steps) = epoch(&big, &mut state, k, &gcfg, optimizer, (&start, &bounds), (cfg.seed, 0), threads);
    let epoch_seconds = t.elapsed().as_secs_f64();
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.split_whitespace().nth(1).unwrap_or("?").to_string())
        })
        .unwrap_or_else(|| "?".into());
    Ok(vec![
        format!(
            "traced {} distinct positions in {trace_seconds:.1}s ({:.0} us each, {threads} threads), {} fitted genes",
            traced.len(),
            trace_seconds * 1e6 / traced.len() as f64,
            fitted.len()
        ),
        format!(
            "held {} positions ({} copies): {} coefficients, {:.1} per position; {:.0} MB, {:.0} bytes per position",
            big.len(),
            n.div_ceil(traced.len()),
            big.entries.len(),
            big.entries.len() as f64 / big.len() as f64,
            big.bytes() as f64 / 1e6,
            big.bytes() as f64 / big.len() as f64
        ),
        format!(
            "one {optimizer:?} epoch (batch {}): {steps} steps in {epoch_seconds:.2}s on {threads} threads; training MSE {:.6}; K {k:.4}",
            gcfg.batch_size,
            sse / big.len() as f64
        ),
        format!("peak resident memory {peak} kB"),
    ])
}

/// What a finished (or extended) tune reports.
#[derive(Clone, Debug)]
pub struct TexelOutcome {
    pub k: f64,
    pub train: usize,
    pub validation: usize,
    /// Training and validation MSE at the start and of the pass written to `tuned.toml`.
    pub start: (f64, f64),
    pub tuned: (f64, f64),
    /// The pass whose values are in `tuned.toml` (0: none beat the start on validation).
    pub tuned_pass: usize,
    pub tuned_file: PathBuf,
}

/// The training and validation positions of `cfg` (from `pgn`, resolved to quiet ones under
/// `base`, or from `data`'s shards as they are), the count of positions dropped in each, and a
/// key identifying the inputs.
type Sets = ((Vec<Labelled>, usize), (Vec<Labelled>, usize), String);

fn load_sets(cfg: &TexelConfig, base: &Params, threads: usize) -> Result<Sets, TexelError> {
    if !cfg.data.is_empty() {
        let (train, validation, key) = selfplay_positions(
            &cfg.data,
            cfg.positions.train,
            cfg.positions.test,
            cfg.positions.seed,
            cfg.allow_mixed,
        )?;
        return Ok(((train, 0), (validation, 0), key));
    }
    std::fs::create_dir_all(&cfg.out_dir).map_err(|e| TexelError::io(&cfg.out_dir, e))?;
    // `../shared/data/...` (the shipped configs' games) is found in $EVOCHESS_DATA too.
    let pgn: Vec<PathBuf> = cfg.pgn.iter().map(|p| crate::paths::resolve_data_path(p)).collect();
    let set = load_or_extract(&pgn, &cfg.positions, &cfg.out_dir.join("positions.json"))?;
    let train = quiet_positions(&set.train, base, threads)?;
    let validation = quiet_positions(&set.test, base, threads)?;
    Ok((train, validation, set.key))
}

/// The tune's plan line: the parameters, the data, the optimiser and the passes. A pass's time
/// depends on the positions, which are read after it: the bar estimates it.
fn plan(cfg: &TexelConfig, genes: usize) -> Plan {
    let files = |list: &[PathBuf]| match list {
        [one] => one.display().to_string(),
        [first, ..] => format!("{} files ({}, ...)", list.len(), first.display()),
        [] => "none".to_string(),
    };
    let data = if cfg.data.is_empty() {
        format!("quiet positions of the games of {}", files(&cfg.pgn))
    } else {
        format!("the self-play positions of {}", files(&cfg.data))
    };
    let from = cfg.params.as_ref().map_or_else(|| "the space's base".to_string(), |p| p.display().to_string());
    let optimizer = match cfg.optimizer {
        Optimizer::Local => "the local search",
        Optimizer::Adam => "Adam",
        Optimizer::Adagrad => "AdaGrad",
    };
    let threads = threads(cfg.threads);
    Plan::new("texel")
        .part(format!("tunes {genes} parameters of {} from {from} by {optimizer}", cfg.space.display()))
        .part(format!("data: {data}"))
        .part(format!("{} passes, {threads} threads; out {}", cfg.passes, cfg.out_dir.display()))
        .eta(None, threads, "passes")
}

/// Runs (or continues, as `start` says) the tune. `announce` is given the plan once the space
/// is read, before the positions.
pub fn run(cfg: &TexelConfig, start: Start, announce: impl FnOnce(&Plan)) -> Result<TexelOutcome, TexelError> {
    cfg.validate()?;
    let (space, space_text, base) = space_and_base(cfg)?;
    announce(&plan(cfg, space.genes.len()));
    let checkpoint = cfg.out_dir.join("checkpoint.json");
    let _held = RunDir::open(&cfg.out_dir, std::slice::from_ref(&checkpoint), start)?;
    let threads = threads(cfg.threads);

    let t = Instant::now();
    let ((train, dropped_train), (validation, dropped_validation), set_key) = load_sets(cfg, &base, threads)?;
    log::info!(
        "texel: {} training and {} validation {} ({} and {} dropped: check or no quiet end) in {:.1}s",
        train.len(),
        validation.len(),
        if cfg.data.is_empty() { "quiet positions" } else { "self-play positions, as stored" },
        dropped_train,
        dropped_validation,
        t.elapsed().as_secs_f64()
    );
    if train.is_empty() || validation.is_empty() {
        let why = if cfg.data.is_empty() {
            "no quiet positions left in the training or validation set"
        } else {
            "data: no positions in the training or validation set (games go to validation with \
             probability positions.test / (positions.train + positions.test))"
        };
        return Err(TexelError::Config(why.into()));
    }
    let k = match cfg.k {
        Some(k) => k,
        None => fit_k(&samples(&train, &base, threads), 0.05, 10.0, 1e-6),
    };
    let validation_lambda = cfg.validation_lambda();
    let start_loss = (mse(&train, &base, k, threads), mse_against(&validation, &base, k, threads, validation_lambda));
    log::info!(
        "texel: K = {k:.4}; start: training MSE {:.6}{}, validation MSE {:.6}{}; {} genes",
        start_loss.0,
        // Both against the results unless validate_on = "target"; say so when they differ.
        if validation_lambda < 1.0 { format!(" (against {})", ValidateOn::Results.against()) } else { String::new() },
        start_loss.1,
        if validation_lambda < 1.0 { format!(" (against {})", ValidateOn::Target.against()) } else { String::new() },
        space.genes.len()
    );
    let fixed = TexelConfig { threads: 0, passes: 0, out_dir: PathBuf::new(), ..cfg.clone() };
    let fingerprint_with = |space: &str| {
        crate::ga::checkpoint::fingerprint(&[
            &serde_json::to_string(&fixed).expect("config serialises"),
            space,
            &base.values_toml(),
            &set_key,
        ])
    };
    let (fingerprint, legacy) = (fingerprint_with(&space.canonical()), fingerprint_with(&space_text));
    let mismatch = "different settings (only passes, threads and out_dir may change)";
    let bar = Progress::new(cfg.passes as u64, "passes", None);
    let driver = Driver::single(cfg.passes, cfg.seed, &fingerprint, checkpoint, mismatch)
        .accepting_legacy(&legacy)
        .with_progress(&bar);
    let tuning = Tuning { cfg, space, base, train, validation, k, threads, start: start_loss };
    // The training figures compare with the start's on the same target: the results for the
    // local search, the fit's blended target for a gradient fit.
    let (history, start_train) = match cfg.optimizer {
        Optimizer::Local => (driver.run(&tuning, start.resumes())?.history, start_loss.0),
        optimizer => {
            let gradient = gradient_fit(&tuning, optimizer)?;
            let Finished { history, .. } = driver.run(&gradient, start.resumes())?;
            (history, gradient.start_loss)
        }
    };
    bar.finish_and_clear();
    let start_loss = (start_train, start_loss.1);
    let best = tuning.best(&history);
    Ok(TexelOutcome {
        k,
        train: tuning.train.len(),
        validation: tuning.validation.len(),
        start: start_loss,
        tuned: best.map_or(start_loss, |r| (r.train_mse, r.validation_mse)),
        tuned_pass: best.map_or(0, |r| r.pass),
        tuned_file: cfg.out_dir.join("tuned.toml"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
