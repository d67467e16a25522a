//! `tuner texel`: Texel's tuning of a search space's parameters, pass after pass in the shared
//! [`Driver`]'s checkpoint ([`super::passes`]).
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
//!
//! This module runs the parts: [`super::config`] (the config, the errors), [`super::sets`] (the
//! positions), [`super::labelled`] (the loss), [`super::tuning`] (the local search, the
//! reports) and [`super::fit`] (the gradient fit).

use std::{path::PathBuf, time::Instant};

use evochess::params::Params;

pub use super::config::{TexelConfig, TexelError};
use super::{
    fit::{gradient_fit, linear_genes},
    fit_k,
    gradient::{GradientState, Optimizer, ValidateOn, epoch},
    labelled::{mse, mse_against, samples},
    passes::run_passes,
    sets::load_sets,
    traces::TraceSet,
    tuning::Tuning,
};
use crate::{
    ga::{
        driver::Driver,
        error::RunError,
        run_dir::{RunDir, Start},
        threads,
    },
    progress::{Plan, Progress},
    space::SearchSpace,
};

/// The config's space and starting parameters.
fn space_and_base(cfg: &TexelConfig) -> Result<(SearchSpace, String, Params), TexelError> {
    let space_text = crate::embedded_files::read_text(&cfg.space).map_err(|e| TexelError::io(&cfg.space, e))?;
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
        Optimizer::Local => (run_passes(&driver, &tuning, start.resumes())?, start_loss.0),
        optimizer => {
            let gradient = gradient_fit(&tuning, optimizer)?;
            (run_passes(&driver, &gradient, start.resumes())?, gradient.start_loss)
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
