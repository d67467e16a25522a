//! Mentor-assisted evolution (David et al.'s earlier work, cited in §III): a UCI engine scores
//! every position once (cached), and an organism's fitness is minus its mean error against the
//! mentor: the absolute difference between its evaluation (static, or its quiescence score with
//! the default `[fitness] search = "qsearch"`) and the mentor's score, or with
//! `loss = "winprob"` the squared difference of the two scores' winning chances (Texel's loss
//! with the mentor's score as the target), where a pawn in a level position weighs more than a
//! pawn on top of a won one.
//!
//! With `target = "result"` there is no engine: each position's label is the game's result for
//! the side to move (won, drawn, lost as +cap, 0, -cap, i.e. winning chances of about 1, 1/2
//! and 0), so the winning-chance loss is Texel's tuning on game results.

use std::path::{Path, PathBuf};

use arena::{
    engine::{
        transport::Timeouts,
        uci::{Go, Score, UciClient},
    },
    files::write_atomic,
};
use evochess::params::{EvalParams, ParamSection};
use serde::{Deserialize, Serialize};
use shakmaty::Chess;

use super::{
    EvolveError,
    fitness::{FitnessSearch, Scorer},
    positions::{GmPosition, PositionSet},
};
use crate::{ga::par_map, hash::fnv1a};

/// The `[mentor]` table of evolve.toml (or `--mentor CMD`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MentorConfig {
    /// Where the labels come from: the engine's scores or the games' results.
    pub target: MentorTarget,
    /// Engine command line, split on whitespace: program then arguments (`target = "engine"`).
    pub command: String,
    /// Search depth per position (used when `nodes` is not set).
    pub depth: u32,
    /// Node limit per position instead of a depth.
    pub nodes: Option<u64>,
    /// Scores (mentor's and organism's) are clamped to ±cap centipawns; mates count as ±cap.
    pub cap: i32,
    /// Engine processes labelling in parallel; 0 = the fitness thread count.
    pub processes: usize,
    /// How an organism's score is compared with the mentor's.
    pub loss: MentorLoss,
    /// Centipawns that turn a score into winning chances with `loss = "winprob"`:
    /// p = 1 / (1 + 10^(-score / scale)), so `scale` cp ahead is about a 91 % chance.
    pub winprob_scale: f64,
    /// Compare k × the organism's score with the mentor's, k fitted per organism and set
    /// (Texel's K): the mentor's centipawns need not be ours (Stockfish 15.1 reports a pawn
    /// as about 50 of our centipawns, which drags every piece value towards the fixed pawn),
    /// so only the ratios of the organism's values are measured and its unit stays the pawn.
    pub fit_scale: bool,
    /// Ridge prior: the fitness is lowered by `l2` × the mean of ((value − centre) / 100)² over
    /// the evaluation parameters whose names start with one of `l2_keys` (`l2_centre` says
    /// what the centre is). From random values, a term the positions hardly constrain (a
    /// piece-square offset that cancels between the two sides) keeps its random start; the
    /// prior pulls it to the centre unless the data pays for it. 0 = off.
    pub l2: f64,
    /// Name prefixes of the parameters under the prior.
    pub l2_keys: Vec<String>,
    /// Where the prior pulls: `zero`, or `init`, the `[init]` file's values (a trust region:
    /// a refinement of a known evaluation moves a term only as far as the data pays for).
    pub l2_centre: PriorCentre,
}

/// `[mentor] l2_centre`: the values the ridge prior pulls towards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PriorCentre {
    #[default]
    Zero,
    Init,
}

impl Default for MentorConfig {
    fn default() -> Self {
        Self {
            target: MentorTarget::Engine,
            command: String::new(),
            depth: 10,
            nodes: None,
            cap: 1500,
            processes: 0,
            loss: MentorLoss::Abs,
            winprob_scale: 400.0,
            fit_scale: false,
            l2: 0.0,
            l2_keys: vec!["pst_".into()],
            l2_centre: PriorCentre::Zero,
        }
    }
}

/// `[mentor] target`: what an organism's score is compared with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MentorTarget {
    /// The mentor engine's score of the position.
    #[default]
    Engine,
    /// The game's result for the side to move (Texel's target); needs `loss = "winprob"`.
    Result,
}

impl MentorConfig {
    /// Checks that the table describes a usable mentor; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        match self.target {
            MentorTarget::Engine if self.command.trim().is_empty() => Err("mentor.command is empty".into()),
            MentorTarget::Result if self.loss != MentorLoss::Winprob => Err(
                "mentor.target = \"result\" needs mentor.loss = \"winprob\": a result is a winning chance, not centipawns"
                    .into(),
            ),
            _ if !(self.l2.is_finite() && self.l2 >= 0.0) => {
                Err(format!("mentor.l2 must be a number >= 0 (got {})", self.l2))
            }
            _ => {
                if self.l2 > 0.0
                    && let Some(k) = self.l2_keys.iter().find(|k| !EvalParams::specs().iter().any(|s| s.name.starts_with(k.as_str())))
                {
                    return Err(format!("mentor.l2_keys: no evaluation parameter starts with `{k}`"));
                }
                Ok(())
            }
        }
    }
}

/// The ridge prior of [`MentorConfig::l2`] over the parameters that `l2_keys` names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prior {
    weight: f64,
    /// The parameters under the prior, each with the value it is pulled towards.
    terms: Vec<(usize, i32)>,
}

impl Prior {
    /// The prior of `cfg`; `init` is the `[init]` file's evaluation, the centre when
    /// `l2_centre = "init"` (an error names the missing table).
    pub fn of(cfg: &MentorConfig, init: Option<&EvalParams>) -> Result<Self, String> {
        if cfg.l2 <= 0.0 {
            return Ok(Self::default());
        }
        let centre = match (cfg.l2_centre, init) {
            (PriorCentre::Zero, _) => None,
            (PriorCentre::Init, Some(p)) => Some(p),
            (PriorCentre::Init, None) => {
                return Err("mentor.l2_centre = \"init\" needs an [init] file (or --init FILE)".into());
            }
        };
        let terms = EvalParams::specs()
            .iter()
            .enumerate()
            .filter(|(_, s)| cfg.l2_keys.iter().any(|k| s.name.starts_with(k.as_str())))
            .map(|(i, _)| (i, centre.map_or(0, |p| p.get(i))))
            .collect();
        Ok(Self { weight: cfg.l2, terms })
    }

    /// What the prior takes off the fitness of `params`.
    pub fn penalty(&self, params: &EvalParams) -> f64 {
        if self.terms.is_empty() {
            return 0.0;
        }
        let sum: f64 = self.terms.iter().map(|&(i, c)| (f64::from(params.get(i) - c) / 100.0).powi(2)).sum();
        self.weight * sum / self.terms.len() as f64
    }

    /// Its part of a run's fingerprint: empty when off, so runs without it keep theirs (and a
    /// prior centred on zero keeps the key it had before centres existed).
    pub fn key(&self) -> String {
        if self.terms.is_empty() {
            return String::new();
        }
        let indices: Vec<usize> = self.terms.iter().map(|&(i, _)| i).collect();
        let mut key = format!(" l2={}/{indices:?}", self.weight);
        if self.terms.iter().any(|&(_, c)| c != 0) {
            let centre: Vec<i32> = self.terms.iter().map(|&(_, c)| c).collect();
            key.push_str(&format!(" centre={centre:?}"));
        }
        key
    }
}

/// `[mentor] loss`: the error of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MentorLoss {
    /// |organism − mentor| in clamped centipawns.
    #[default]
    Abs,
    /// (p(organism) − p(mentor))², p the winning chance of a score.
    Winprob,
}

/// How the fitness compares scores: [`MentorConfig`]'s `cap`, `loss`, `winprob_scale` and
/// `fit_scale`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorMeasure {
    pub cap: i32,
    pub loss: MentorLoss,
    pub winprob_scale: f64,
    pub fit_scale: bool,
}

/// Range of the fitted scale k: a factor of 4 either way covers any engine's centipawns.
const SCALE_RANGE: (f64, f64) = (0.25, 4.0);

impl ErrorMeasure {
    pub fn of(cfg: &MentorConfig) -> Self {
        Self { cap: cfg.cap, loss: cfg.loss, winprob_scale: cfg.winprob_scale, fit_scale: cfg.fit_scale }
    }

    /// The error of an organism's score `value` against the mentor's `target` (clamped).
    pub fn error(&self, value: i32, target: i32) -> f64 {
        self.error_against(f64::from(value), self.target_value(target))
    }

    /// What a mentor score is compared in: centipawns, or its winning chance.
    fn target_value(&self, target: i32) -> f64 {
        match self.loss {
            MentorLoss::Abs => f64::from(target),
            MentorLoss::Winprob => self.winprob(f64::from(target)),
        }
    }

    /// The error of `value` (centipawns, clamped here) against a [`Self::target_value`].
    fn error_against(&self, value: f64, target: f64) -> f64 {
        let cap = f64::from(self.cap);
        let value = value.clamp(-cap, cap);
        match self.loss {
            MentorLoss::Abs => (value - target).abs(),
            MentorLoss::Winprob => (self.winprob(value) - target).powi(2),
        }
    }

    fn winprob(&self, cp: f64) -> f64 {
        1.0 / (1.0 + 10f64.powf(-cp / self.winprob_scale))
    }

    /// Mean error of `values` (the organism's scores) against `targets` and the scale it was
    /// measured at: 1, or with `fit_scale` the k in [1/4, 4] that minimises the mean error of
    /// k × value (golden-section search on log k; the error is unimodal in k in practice).
    pub fn fit(&self, values: &[i32], targets: impl IntoIterator<Item = i32>) -> (f64, f64) {
        if values.is_empty() {
            return (0.0, 1.0);
        }
        // The targets do not depend on k: converted once, not on each of the ~42 evaluations.
        let targets: Vec<f64> = targets.into_iter().map(|t| self.target_value(t)).collect();
        let mean_at = |k: f64| {
            values.iter().zip(&targets).map(|(&v, &t)| self.error_against(k * f64::from(v), t)).sum::<f64>()
                / values.len() as f64
        };
        if !self.fit_scale {
            return (mean_at(1.0), 1.0);
        }
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        let (mut lo, mut hi) = (SCALE_RANGE.0.ln(), SCALE_RANGE.1.ln());
        let mut a = hi - ratio * (hi - lo);
        let mut b = lo + ratio * (hi - lo);
        let (mut fa, mut fb) = (mean_at(a.exp()), mean_at(b.exp()));
        // 40 steps shrink the interval by 0.618^40: k is exact to far below a centipawn.
        for _ in 0..40 {
            if fa <= fb {
                hi = b;
                b = a;
                fb = fa;
                a = hi - ratio * (hi - lo);
                fa = mean_at(a.exp());
            } else {
                lo = a;
                a = b;
                fa = fb;
                b = lo + ratio * (hi - lo);
                fb = mean_at(b.exp());
            }
        }
        let k = ((lo + hi) / 2.0).exp();
        (mean_at(k), k)
    }

    /// Column name of the metric in generations.csv.
    pub fn metric_name(&self) -> &'static str {
        match self.loss {
            MentorLoss::Abs => "mean_abs_error",
            MentorLoss::Winprob => "winprob_mse",
        }
    }

    /// Axis label of the metric.
    pub fn metric_label(&self) -> String {
        match self.loss {
            MentorLoss::Abs => "mean |evaluation - mentor| (cp)".into(),
            MentorLoss::Winprob => format!("mean squared winning-chance error (scale {} cp)", self.winprob_scale),
        }
    }
}

/// Mentor scores for the train and test sets, side-to-move relative, clamped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Labels {
    pub key: String,
    pub train: Vec<i32>,
    pub test: Vec<i32>,
}

fn labels_key(set: &PositionSet, cfg: &MentorConfig) -> String {
    let desc = match cfg.target {
        MentorTarget::Engine => format!("{} {} {} {:?} {}", set.key, cfg.command, cfg.depth, cfg.nodes, cfg.cap),
        MentorTarget::Result => format!("{} results {}", set.key, cfg.cap),
    };
    format!("{:016x}", fnv1a(&desc))
}

/// Cached labels when `cache` holds them for these positions and this mentor, else labels
/// computed by running the mentor, then saved.
pub fn load_or_label(
    set: &PositionSet,
    cfg: &MentorConfig,
    cache: &Path,
    processes: usize,
) -> Result<Labels, EvolveError> {
    let key = labels_key(set, cfg);
    if cfg.target == MentorTarget::Result {
        // Read from the positions: nothing to compute, so no cache to read or write.
        return Ok(Labels {
            key,
            train: result_labels(&set.train, cfg.cap)?,
            test: result_labels(&set.test, cfg.cap)?,
        });
    }
    if let Ok(text) = evochess::input::read_text(cache, evochess::input::MAX_DATA_BYTES)
        && let Ok(labels) = serde_json::from_str::<Labels>(&text)
        && labels.key == key
    {
        log::info!("mentor: {} + {} scores from cache {}", labels.train.len(), labels.test.len(), cache.display());
        return Ok(labels);
    }
    let started = std::time::Instant::now();
    let labels = Labels { key, train: label(&set.train, cfg, processes)?, test: label(&set.test, cfg, processes)? };
    log::info!(
        "mentor: scored {} positions in {:.1}s",
        labels.train.len() + labels.test.len(),
        started.elapsed().as_secs_f64()
    );
    let json = serde_json::to_string(&labels).expect("labels serialise");
    write_atomic(cache, json.as_bytes()).map_err(|e| EvolveError::io(cache, e))?;
    Ok(labels)
}

/// Default cache file for the mentor's labels.
pub fn default_cache(out_dir: &Path) -> PathBuf {
    out_dir.join("mentor-labels.json")
}

/// Scores `positions` with `processes` engine instances, each taking a contiguous slice (the
/// result does not depend on the split when the mentor searches deterministically).
pub fn label(positions: &[GmPosition], cfg: &MentorConfig, processes: usize) -> Result<Vec<i32>, EvolveError> {
    let mut words = cfg.command.split_whitespace();
    let program = words.next().ok_or_else(|| EvolveError::Mentor("empty mentor command".into()))?;
    let args: Vec<String> = words.map(str::to_string).collect();
    if positions.is_empty() {
        return Ok(Vec::new());
    }
    let chunks: Vec<&[GmPosition]> = positions.chunks(positions.len().div_ceil(processes.max(1))).collect();
    let go = Go { depth: if cfg.nodes.is_none() { Some(cfg.depth) } else { None }, nodes: cfg.nodes, ..Go::default() };
    let parts = par_map(&chunks, chunks.len(), |chunk| -> Result<Vec<i32>, EvolveError> {
        let mentor_err = |e: arena::engine::transport::EngineError| EvolveError::Mentor(e.to_string());
        let mut engine =
            UciClient::spawn("mentor", Path::new(program), &args, None, Timeouts::default()).map_err(mentor_err)?;
        engine.new_game().map_err(mentor_err)?;
        let mut out = Vec::with_capacity(chunk.len());
        for p in *chunk {
            engine.position(Some(&p.fen), &[]).map_err(mentor_err)?;
            let result = engine.go(&go, std::time::Duration::from_secs(300)).map_err(mentor_err)?;
            let score =
                result.score.ok_or_else(|| EvolveError::Mentor(format!("no score for position `{}`", p.fen)))?;
            out.push(clamp_score(score, cfg.cap));
        }
        engine.quit();
        Ok(out)
    });
    let mut all = Vec::with_capacity(positions.len());
    for part in parts {
        all.extend(part?);
    }
    Ok(all)
}

/// The games' results as labels: +cap won, 0 drawn, -cap lost (side to move's view).
pub fn result_labels(positions: &[GmPosition], cap: i32) -> Result<Vec<i32>, EvolveError> {
    positions
        .iter()
        .map(|p| match p.outcome {
            Some(o) => Ok(i32::from(o.signum()) * cap),
            None => Err(EvolveError::Mentor(format!(
                "position `{}` has no game result (walked off the game by positions.random_plies, or a position \
                 cache written by an older tuner: delete it)",
                p.fen
            ))),
        })
        .collect()
}

/// A UCI score (side to move's view) as clamped centipawns; mates are ±cap.
pub fn clamp_score(score: Score, cap: i32) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-cap, cap),
        Score::Mate(n) if n > 0 => cap,
        Score::Mate(_) => -cap,
    }
}

/// The organism's scores of `positions`: its static evaluation, or with `qsearch` its
/// quiescence score (captures resolved, as the mentor's search resolves them).
fn values(positions: &[(Chess, i32)], params: &EvalParams, search: FitnessSearch) -> Vec<i32> {
    let mut scorer = Scorer::new(params, search);
    positions.iter().map(|(pos, _)| scorer.value(pos)).collect()
}

/// Mean error ([`ErrorMeasure::fit`]) of the organism's scores over `positions`, and the
/// scale it was measured at.
pub fn mean_error(
    positions: &[(Chess, i32)],
    params: &EvalParams,
    measure: &ErrorMeasure,
    search: FitnessSearch,
) -> (f64, f64) {
    measure.fit(&values(positions, params, search), positions.iter().map(|(_, t)| *t))
}

/// [`mean_error`] with the scores computed over `threads`.
pub fn mean_error_par(
    positions: &[(Chess, i32)],
    params: &EvalParams,
    measure: &ErrorMeasure,
    search: FitnessSearch,
    threads: usize,
) -> (f64, f64) {
    let chunks: Vec<&[(Chess, i32)]> = positions.chunks(positions.len().div_ceil(threads.max(1) * 4).max(1)).collect();
    let values: Vec<i32> = par_map(&chunks, threads, |c| values(c, params, search)).into_iter().flatten().collect();
    measure.fit(&values, positions.iter().map(|(_, t)| *t))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game results become ±cap and 0, which the winning-chance loss reads as about 1, 0 and
    /// 1/2; a position without a result is an error naming it.
    #[test]
    fn results_label_wins_draws_and_losses() {
        let at = |outcome| GmPosition { fen: "8/8/8/8/8/8/8/K6k w - - 0 1".into(), uci: "a1a2".into(), outcome };
        let labels = result_labels(&[at(Some(1)), at(Some(0)), at(Some(-1))], 1500).unwrap();
        assert_eq!(labels, vec![1500, 0, -1500]);
        let m = ErrorMeasure { cap: 1500, loss: MentorLoss::Winprob, winprob_scale: 400.0, fit_scale: false };
        assert!(m.error(5000, 1500) < 1e-12 && (m.error(0, -1500) - 0.25).abs() < 1e-3);
        let err = result_labels(&[at(Some(1)), at(None)], 1500).unwrap_err().to_string();
        assert!(err.contains("8/8/8/8/8/8/8/K6k w - - 0 1") && err.contains("no game result"), "{err}");
        let bad = MentorConfig { target: MentorTarget::Result, ..MentorConfig::default() };
        assert!(bad.validate().unwrap_err().contains("mentor.loss"));
        assert!(MentorConfig { loss: MentorLoss::Winprob, ..bad }.validate().is_ok());
        assert!(MentorConfig::default().validate().unwrap_err().contains("mentor.command"));
    }

    /// The prior is the weighted mean squared pawn of the named parameters' distance from the
    /// centre (zero or the [init] values), nothing when off, and a prefix that names no parameter (or a negative weight) is refused by name.
    #[test]
    fn the_ridge_prior_weighs_the_named_parameters_only() {
        let cfg = |l2: f64, keys: &[&str]| MentorConfig {
            command: "stockfish".into(),
            l2,
            l2_keys: keys.iter().map(|k| k.to_string()).collect(),
            ..MentorConfig::default()
        };
        let prior = |c: &MentorConfig| Prior::of(c, None).unwrap();
        let mut params = EvalParams::default();
        assert_eq!(prior(&cfg(0.0, &["pst_"])).penalty(&params), 0.0);
        assert_eq!(prior(&cfg(0.0, &["pst_"])).key(), "");
        let on = cfg(0.5, &["knight_mg", "bishop_mg"]);
        assert!(on.validate().is_ok());
        params.knight_mg = 300;
        params.bishop_mg = 100;
        // 0.5 × ((3² + 1²) / 2) = 2.5; the queen is not under the prior.
        assert!((prior(&on).penalty(&params) - 2.5).abs() < 1e-12);
        params.queen_mg = 2000;
        assert!((prior(&on).penalty(&params) - 2.5).abs() < 1e-12);
        assert!(prior(&on).key().contains("l2=0.5") && !prior(&on).key().contains("centre"));
        // Centred on the [init] file: only the distance from it costs, 0.5 × ((0² + 2²) / 2) = 1.
        let around = MentorConfig { l2_centre: PriorCentre::Init, ..on.clone() };
        let start = EvalParams { knight_mg: 300, bishop_mg: 300, ..EvalParams::default() };
        let centred = Prior::of(&around, Some(&start)).unwrap();
        assert!((centred.penalty(&params) - 1.0).abs() < 1e-12);
        assert_eq!(centred.penalty(&start), 0.0);
        assert!(centred.key().contains("centre=[300, 300]"), "{}", centred.key());
        let err = Prior::of(&around, None).unwrap_err();
        assert!(err.contains("l2_centre") && err.contains("[init]"), "{err}");
        let err = cfg(0.5, &["pst_", "no_such_"]).validate().unwrap_err();
        assert!(err.contains("l2_keys") && err.contains("no_such_"), "{err}");
        assert!(cfg(-1.0, &["pst_"]).validate().unwrap_err().contains("mentor.l2"));
        // Off, an unknown prefix costs nothing and is not an error.
        assert!(cfg(0.0, &["no_such_"]).validate().is_ok());
    }

    #[test]
    fn scores_are_clamped_and_mates_saturate() {
        assert_eq!(clamp_score(Score::Cp(35), 1500), 35);
        assert_eq!(clamp_score(Score::Cp(-9000), 1500), -1500);
        assert_eq!(clamp_score(Score::Mate(3), 1500), 1500);
        assert_eq!(clamp_score(Score::Mate(-1), 1500), -1500);
    }

    #[test]
    fn error_is_the_mean_absolute_difference() {
        let pos = Chess::default();
        let p = EvalParams::default();
        let e = evochess::eval::Evaluator::new(&p).evaluate(&pos);
        let labelled = vec![(pos.clone(), e + 10), (pos.clone(), e - 30), (pos, e)];
        let abs = ErrorMeasure::of(&MentorConfig::default());
        assert_eq!(mean_error(&labelled, &p, &abs, FitnessSearch::Static), (40.0 / 3.0, 1.0));
        assert_eq!(mean_error_par(&labelled, &p, &abs, FitnessSearch::Static, 2), (40.0 / 3.0, 1.0));
        // The start position is quiet: its quiescence score is the static evaluation.
        assert_eq!(mean_error(&labelled, &p, &abs, FitnessSearch::Qsearch), (40.0 / 3.0, 1.0));
    }

    #[test]
    fn quiescence_error_resolves_a_hanging_queen() {
        // White to move takes the queen and is a pawn up: the quiescence score says so, the
        // static one sees black a queen up, so only the quiescence error is small against a
        // mentor who also sees the capture.
        let pos: Chess = "4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let p = EvalParams::default();
        let labelled = vec![(pos, 150)];
        let abs = ErrorMeasure::of(&MentorConfig::default());
        let (q, _) = mean_error(&labelled, &p, &abs, FitnessSearch::Qsearch);
        let (s, _) = mean_error(&labelled, &p, &abs, FitnessSearch::Static);
        assert!(q < 150.0 && s > 900.0, "qsearch error {q}, static error {s}");
    }

    /// Winning chances: 0 cp is an even game, `scale` cp ahead 10:1, and the same 100 cp
    /// error costs more in a level position than on top of a won one (unlike `abs`).
    #[test]
    fn winprob_loss_weighs_level_positions_more() {
        let m = ErrorMeasure { cap: 1500, loss: MentorLoss::Winprob, winprob_scale: 400.0, fit_scale: false };
        assert_eq!(m.error(0, 0), 0.0);
        assert!((m.winprob(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((m.winprob(-400.0) - 1.0 / 11.0).abs() < 1e-12);
        let level = m.error(100, 0);
        let won = m.error(900, 800);
        assert!(level > 4.0 * won, "level {level}, won {won}");
        // The organism's score is clamped like the mentor's.
        assert_eq!(m.error(5000, 1500), 0.0);
        let abs = ErrorMeasure { loss: MentorLoss::Abs, ..m };
        assert_eq!(abs.error(100, 0), abs.error(900, 800));
    }

    /// A mentor whose centipawns are half ours: with `fit_scale` the organism that matches it
    /// up to that factor has no error at k = 1/2, while without it the error is large and an
    /// organism with every value halved would win.
    #[test]
    fn fitted_scale_measures_ratios_not_units() {
        let values = [-600, -200, 0, 100, 300, 900];
        let mentor: Vec<i32> = values.iter().map(|v| v / 2).collect();
        for loss in [MentorLoss::Abs, MentorLoss::Winprob] {
            let fixed = ErrorMeasure { cap: 1500, loss, winprob_scale: 400.0, fit_scale: false };
            let (err, k) = fixed.fit(&values, mentor.iter().copied());
            assert!(err > 0.0 && k == 1.0, "{loss:?}: unfitted error {err}");
            let fitted = ErrorMeasure { fit_scale: true, ..fixed };
            let (err, k) = fitted.fit(&values, mentor.iter().copied());
            assert!(err < 1e-6 && (k - 0.5).abs() < 1e-3, "{loss:?}: error {err} at k {k}");
            // Halving the organism's values does not help once the scale is fitted.
            let halved: Vec<i32> = values.iter().map(|v| v / 2).collect();
            let (err_halved, k_halved) = fitted.fit(&halved, mentor.iter().copied());
            assert!(err_halved < 1e-6 && (k_halved - 1.0).abs() < 1e-3);
        }
    }
}
