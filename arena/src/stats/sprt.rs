//! Sequential probability ratio test, with fastchess's three models
//! (`app/src/matchmaking/sprt/sprt.cpp`): `normalized` (fastchess's default), `logistic` and
//! `bayesian`.
//!
//! H0: Elo = elo0, H1: Elo = elo1. For each hypothesis the result distribution closest (in
//! likelihood) to the empirical one p̂ that satisfies it is found, and
//! LLR = N · Σ p̂ᵢ (ln p1ᵢ − ln p0ᵢ), over games (trinomial: scores 0, ½, 1) or game pairs
//! (pentanomial: 0, ¼, ½, ¾, 1). Empty classes count as 1e-3 (fastchess's and fishtest's
//! regularisation), so the estimates stay defined early in a match. Bounds (Wald):
//! ln(β/(1−α)) and ln((1−β)/α). The models differ in what "Elo = e" constrains
//! (M. Van den Bergh, "Comments on Normalized Elo",
//! <https://www.cantate.be/Fishtest/normalized_elo_practical.pdf>):
//!
//! * `logistic`: the mean score is s = 1/(1 + 10^(−e/400)). The MLE is
//!   pᵢ = p̂ᵢ/(1 + θ(aᵢ − s)), θ solving Σ p̂ᵢ(aᵢ − s)/(1 + θ(aᵢ − s)) = 0 (proposition 1.1).
//! * `normalized` (fishtest's normalized Elo): (μ − ½)/σ = t with t = e/(800/ln 10) per game,
//!   √2·e/(800/ln 10) per pair (σ of a pair's per-game score). The MLE is the fixed point of
//!   pᵢ = p̂ᵢ/(1 + θφᵢ), φᵢ = aᵢ − ½ − ½tσ(1 + ((aᵢ − μ)/σ)²) with μ, σ of the previous p, θ
//!   solving Σ p̂ᵢφᵢ/(1 + θφᵢ) = 0 (section 4.1), started from the uniform distribution and
//!   iterated at most 10 times or until no probability moves by 1e-9 (fishtest's `MLE_t_value`);
//!   see [`mle_t`] for bounds far from the sample.
//! * `bayesian` (BayesElo, cutechess and older OpenBench): e is BayesElo; with the sample's
//!   drawelo = 200·log10((1 − L)/L · (1 − W)/W), s = P(win) + ½P(draw) for
//!   P(win) = 1/(1 + 10^((drawelo − e)/400)), P(loss) = 1/(1 + 10^((drawelo + e)/400)), then
//!   the logistic MLE. Trinomial only, and 0 until both a win and a loss are in.
//! * `cutechess` (cutechess-cli 1.3's `Sprt::status`, `projects/lib/src/sprt.cpp`): BayesElo
//!   bounds read as cutechess reads them. Every class gets half a game (a Jeffreys prior), the
//!   sample's BayesElo and drawelo are estimated, the bounds are divided by the scale
//!   4x/(1 + x)², x = 10^(−drawelo/400), and the LLR is Σ nᵢ ln(p1ᵢ/p0ᵢ) over the win, loss and
//!   draw probabilities that the BayesElo model gives under H0 and H1 (no MLE). Trinomial only;
//!   what `tuner match` uses for cutechess's `-sprt elo0= elo1=` without fastchess's `model=`.

use std::{fmt, str::FromStr};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::elo::{Penta, Wdl, mean_variance, score_from_elo};

/// 800/ln 10: Elo per unit of normalized t (the slope of the logistic curve at ½, doubled).
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// How elo0 and elo1 are read (fastchess's `-sprt model=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtModel {
    Normalized,
    Logistic,
    Bayesian,
    /// cutechess-cli's BayesElo SPRT (see the module docs); not a fastchess model.
    Cutechess,
}

impl SprtModel {
    /// Sprt's serde default: configurations written before models existed meant logistic.
    pub(crate) fn legacy() -> SprtModel {
        SprtModel::Logistic
    }

    fn is_legacy(&self) -> bool {
        *self == SprtModel::Logistic
    }
}

impl SprtModel {
    /// What the bounds are measured in, as the SPRT lines print it after `[elo0, elo1]`.
    pub fn unit(&self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized Elo",
            SprtModel::Logistic => "logistic Elo",
            SprtModel::Bayesian => "BayesElo",
            SprtModel::Cutechess => "BayesElo (cutechess)",
        }
    }
}

impl fmt::Display for SprtModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
            SprtModel::Bayesian => "bayesian",
            SprtModel::Cutechess => "cutechess",
        })
    }
}

impl FromStr for SprtModel {
    type Err = SprtError;
    fn from_str(s: &str) -> Result<SprtModel, SprtError> {
        match s.to_ascii_lowercase().as_str() {
            "normalized" => Ok(SprtModel::Normalized),
            "logistic" => Ok(SprtModel::Logistic),
            "bayesian" => Ok(SprtModel::Bayesian),
            "cutechess" => Ok(SprtModel::Cutechess),
            _ => Err(SprtError::Model(s.to_string())),
        }
    }
}

/// Bad SPRT parameters.
#[derive(Debug, Error, PartialEq)]
pub enum SprtError {
    #[error("SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})")]
    Bounds { elo0: f64, elo1: f64 },
    #[error("SPRT: need 0 < alpha, beta < 1 and alpha + beta < 1 (got {alpha}, {beta})")]
    Risks { alpha: f64, beta: f64 },
    #[error("SPRT: unknown model `{0}` (expected normalized, logistic, bayesian or cutechess)")]
    Model(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Left out of serialised configurations when logistic, so match fingerprints written
    /// before models existed (all logistic) still match.
    #[serde(default = "SprtModel::legacy", skip_serializing_if = "SprtModel::is_legacy")]
    pub model: SprtModel,
    /// Trinomial LLR even when game pairs are known (fastchess with `-report penta=false`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trinomial: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtDecision {
    Continue,
    /// LLR fell below the lower bound: H0 (elo0) accepted.
    AcceptH0,
    /// LLR rose above the upper bound: H1 (elo1) accepted.
    AcceptH1,
}

impl Sprt {
    /// A logistic-Elo test; validates the parameters (elo0 < elo1, 0 < α, β and α + β < 1).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(SprtError::Bounds { elo0, elo1 });
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 && alpha + beta < 1.0) {
            return Err(SprtError::Risks { alpha, beta });
        }
        Ok(Sprt { elo0, elo1, alpha, beta, model: SprtModel::Logistic, trinomial: false })
    }

    pub fn with_model(self, model: SprtModel) -> Sprt {
        Sprt { model, ..self }
    }

    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// Whether [`Sprt::llr`] counts game pairs when there are any: not with `trinomial`, and
    /// never for BayesElo, which has no pentanomial form (fastchess turns pentanomial reports
    /// off for it; cutechess never counts pairs).
    pub fn pentanomial(&self) -> bool {
        !self.trinomial && !matches!(self.model, SprtModel::Bayesian | SprtModel::Cutechess)
    }

    /// The test's LLR: over game pairs when [`Sprt::pentanomial`] and pairs exist, else over games.
    pub fn llr(&self, wdl: &Wdl, penta: &Penta) -> f64 {
        if self.pentanomial() && penta.pairs() > 0 { self.llr_penta(penta) } else { self.llr_wdl(wdl) }
    }

    /// LLR from game results (trinomial model).
    pub fn llr_wdl(&self, r: &Wdl) -> f64 {
        if r.games() == 0 {
            return 0.0;
        }
        let counts = [r.losses, r.draws, r.wins];
        let scores = [0.0, 0.5, 1.0];
        match self.model {
            SprtModel::Normalized => llr_normalized(&counts, &scores, self.elo0 / NELO_PER_T, self.elo1 / NELO_PER_T),
            SprtModel::Logistic => llr_logistic(&counts, &scores, score_from_elo(self.elo0), score_from_elo(self.elo1)),
            SprtModel::Bayesian => {
                // drawelo is infinite without a win or a loss; fastchess reports 0 until then.
                if r.wins == 0 || r.losses == 0 {
                    return 0.0;
                }
                let (p, _) = regularized(&counts);
                let drawelo = 200.0 * ((1.0 - p[0]) / p[0] * (1.0 - p[2]) / p[2]).log10();
                let (s0, s1) = (bayeselo_score(self.elo0, drawelo), bayeselo_score(self.elo1, drawelo));
                llr_logistic(&counts, &scores, s0, s1)
            }
            SprtModel::Cutechess => llr_cutechess(r, self.elo0, self.elo1),
        }
    }

    /// LLR from game-pair results (pentanomial model). BayesElo has no pentanomial form: for
    /// it this is the logistic LLR, as in fastchess, and [`Sprt::llr`] never asks for it.
    pub fn llr_penta(&self, p: &Penta) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let counts = p.buckets();
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        match self.model {
            SprtModel::Normalized => {
                let t = |e: f64| std::f64::consts::SQRT_2 * e / NELO_PER_T;
                llr_normalized(&counts, &scores, t(self.elo0), t(self.elo1))
            }
            SprtModel::Logistic | SprtModel::Bayesian | SprtModel::Cutechess => {
                llr_logistic(&counts, &scores, score_from_elo(self.elo0), score_from_elo(self.elo1))
            }
        }
    }

    pub fn decision(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Expected score of a BayesElo difference `elo` at draw Elo `drawelo`.
fn bayeselo_score(elo: f64, drawelo: f64) -> f64 {
    let win = 1.0 / (1.0 + 10f64.powf((drawelo - elo) / 400.0));
    let loss = 1.0 / (1.0 + 10f64.powf((drawelo + elo) / 400.0));
    win + 0.5 * (1.0 - win - loss)
}

/// cutechess-cli's LLR (`Sprt::status` in its `sprt.cpp`), step for step.
fn llr_cutechess(r: &Wdl, elo0: f64, elo1: f64) -> f64 {
    // Half a game in each class: a Dirichlet(½, ½, ½) prior, so nothing below is ever 0.
    let (w, l, d) = (r.wins as f64 + 0.5, r.losses as f64 + 0.5, r.draws as f64 + 0.5);
    let n = w + l + d;
    let (pw, pl) = (w / n, l / n);
    let drawelo = 200.0 * ((1.0 - pl) / pl * (1.0 - pw) / pw).log10();
    let x = 10f64.powf(-drawelo / 400.0);
    let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
    // Win, loss and draw probabilities of a BayesElo difference at the sample's drawelo.
    let probs = |elo: f64| {
        let win = 1.0 / (1.0 + 10f64.powf((drawelo - elo) / 400.0));
        let loss = 1.0 / (1.0 + 10f64.powf((drawelo + elo) / 400.0));
        (win, loss, 1.0 - win - loss)
    };
    let (p0, p1) = (probs(elo0 / scale), probs(elo1 / scale));
    w * (p1.0 / p0.0).ln() + l * (p1.1 / p0.1).ln() + d * (p1.2 / p0.2).ln()
}

/// Class frequencies with empty classes counted as 1e-3, and their total.
fn regularized(counts: &[u64]) -> (Vec<f64>, f64) {
    let reg: Vec<f64> = counts.iter().map(|&c| if c == 0 { 1e-3 } else { c as f64 }).collect();
    let total: f64 = reg.iter().sum();
    (reg.iter().map(|c| c / total).collect(), total)
}

/// N · Σ p̂ᵢ (ln p1ᵢ − ln p0ᵢ) for the MLEs p0, p1 that `fit` gives under H0 and H1.
fn llr_by(counts: &[u64], fit: impl Fn(&[f64], f64) -> Vec<f64>, h0: f64, h1: f64) -> f64 {
    let (probs, total) = regularized(counts);
    let (p0, p1) = (fit(&probs, h0), fit(&probs, h1));
    total * probs.iter().zip(p0.iter().zip(&p1)).map(|(p, (a, b))| p * (b.ln() - a.ln())).sum::<f64>()
}

fn llr_logistic(counts: &[u64], scores: &[f64], s0: f64, s1: f64) -> f64 {
    llr_by(counts, |p, s| mle(p, scores, s), s0, s1)
}

fn llr_normalized(counts: &[u64], scores: &[f64], t0: f64, t1: f64) -> f64 {
    llr_by(counts, |p, t| mle_t(p, scores, 0.5, t), t0, t1)
}

/// θ solving Σ pᵢφᵢ/(1 + θφᵢ) = 0 on the interval where every 1 + θφᵢ > 0, by bisection; the
/// sum falls from +∞ to −∞ there. Needs φ of both signs.
fn secular_root(probs: &[f64], phi: &[f64]) -> f64 {
    let f = |theta: f64| -> f64 { probs.iter().zip(phi).map(|(p, x)| p * x / (1.0 + theta * x)).sum() };
    let lo_phi = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_phi = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (mut lo, mut hi) = (-1.0 / hi_phi, -1.0 / lo_phi);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The distribution with mean `s` closest (in likelihood) to `probs` over `scores`.
pub fn mle(probs: &[f64], scores: &[f64], s: f64) -> Vec<f64> {
    let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
    let theta = secular_root(probs, &phi);
    probs.iter().zip(&phi).map(|(p, x)| p / (1.0 + theta * x)).collect()
}

/// The distribution with (μ − `mu_ref`)/σ = `t` closest (in likelihood) to `probs` over
/// `scores`: fishtest's `MLE_t_value`, a fixed point iterated from the uniform distribution.
/// For bounds far from the sample (nElo in the hundreds) that single jump can leave the
/// equation for θ without a root, where fastchess's answer is undefined; t is then walked up
/// from 0 in 64 steps, each started from the last step's solution.
pub fn mle_t(probs: &[f64], scores: &[f64], mu_ref: f64, t: f64) -> Vec<f64> {
    let uniform = vec![1.0 / scores.len() as f64; scores.len()];
    if let Some(p) = mle_t_from(probs, scores, mu_ref, t, &uniform) {
        return p;
    }
    const STEPS: u32 = 64;
    let mut p = uniform;
    for k in 1..=STEPS {
        match mle_t_from(probs, scores, mu_ref, t * f64::from(k) / f64::from(STEPS), &p) {
            Some(next) => p = next,
            // Not seen in testing; the constraint reached so far is the best there is.
            None => break,
        }
    }
    p
}

/// The fixed-point iteration from `start`: at most 10 steps, until no probability moves by
/// 1e-9 (fishtest's limits). `None` when a step's φ does not change sign (no θ exists).
fn mle_t_from(probs: &[f64], scores: &[f64], mu_ref: f64, t: f64, start: &[f64]) -> Option<Vec<f64>> {
    let mut p = start.to_vec();
    for _ in 0..10 {
        let (mu, var) = mean_variance(&p, scores);
        let sigma = var.sqrt();
        let phi: Vec<f64> =
            scores.iter().map(|a| a - mu_ref - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2))).collect();
        if !(phi.iter().any(|&x| x < 0.0) && phi.iter().any(|&x| x > 0.0)) {
            return None;
        }
        let theta = secular_root(probs, &phi);
        let next: Vec<f64> = probs.iter().zip(&phi).map(|(q, x)| q / (1.0 + theta * x)).collect();
        if !next.iter().all(|x| x.is_finite() && *x > 0.0) {
            return None;
        }
        let moved = next.iter().zip(&p).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        p = next;
        if moved < 1e-9 {
            break;
        }
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_walds() {
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        assert!((s.lower() + 2.944_438_979).abs() < 1e-9);
        assert!((s.upper() - 2.944_438_979).abs() < 1e-9);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_err());
        assert_eq!(s.decision(3.0), SprtDecision::AcceptH1);
        assert_eq!(s.decision(-3.0), SprtDecision::AcceptH0);
        assert_eq!(s.decision(0.0), SprtDecision::Continue);
    }

    /// Trinomial check against the closed form: with three scores the MLE equation is a
    /// quadratic in θ, solved here independently of the bisection.
    #[test]
    fn trinomial_llr_matches_closed_form() {
        let (w, d, l) = (120.0, 200.0, 80.0);
        let n = w + d + l;
        let p = [l / n, d / n, w / n];
        let a = [0.0, 0.5, 1.0];
        let closed = |s: f64| {
            let dd: Vec<f64> = a.iter().map(|x| x - s).collect();
            // Σ pᵢdᵢ Π_{j≠i}(1 + θdⱼ) = 0 → Aθ² + Bθ + C = 0
            let (mut qa, mut qb, mut qc) = (0.0, 0.0, 0.0);
            for i in 0..3 {
                let (j, k) = ((i + 1) % 3, (i + 2) % 3);
                qc += p[i] * dd[i];
                qb += p[i] * dd[i] * (dd[j] + dd[k]);
                qa += p[i] * dd[i] * dd[j] * dd[k];
            }
            let (lo, hi) = (-1.0 / dd[2], -1.0 / dd[0]);
            let theta = if qa.abs() < 1e-12 {
                -qc / qb // s = ½: the middle score contributes nothing, the equation is linear
            } else {
                let disc = (qb * qb - 4.0 * qa * qc).sqrt();
                [(-qb + disc) / (2.0 * qa), (-qb - disc) / (2.0 * qa)].into_iter().find(|t| *t > lo && *t < hi).unwrap()
            };
            p.iter().zip(&dd).map(|(p, d)| p / (1.0 + theta * d)).collect::<Vec<_>>()
        };
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(10.0));
        let (p0, p1) = (closed(s0), closed(s1));
        let want: f64 = n * (0..3).map(|i| p[i] * (p1[i].ln() - p0[i].ln())).sum::<f64>();
        let got = sprt.llr_wdl(&Wdl { wins: 120, draws: 200, losses: 80 });
        assert!((got - want).abs() < 1e-9, "{got} vs {want}");
        // Hand-computed (python3, same closed form): 1.97617.
        assert!((got - 1.97617).abs() < 1e-4, "{got}");
    }

    /// Pentanomial LLR against a value computed by hand (python3: θ by a 10⁶-step grid search
    /// on the MLE equation), and against the usual normal approximation
    /// LLR ≈ N(s1 − s0)(2μ − s0 − s1)/(2σ²) (Van den Bergh, "GSPRT approximation").
    #[test]
    fn pentanomial_llr_against_hand_computed() {
        let p = Penta { ll: 5, ld: 40, dd: 90, wl: 20, wd: 60, ww: 15 };
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let got = sprt.llr_penta(&p);
        assert!((got - 1.36990).abs() < 1e-4, "{got}");
        let n = p.pairs() as f64;
        let est = p.elo().unwrap();
        let var: f64 = p
            .buckets()
            .iter()
            .zip([0.0, 0.25, 0.5, 0.75, 1.0])
            .map(|(&c, s)| c as f64 / n * (s - est.score).powi(2))
            .sum();
        let (s0, s1) = (score_from_elo(0.0), score_from_elo(5.0));
        let approx = n * (s1 - s0) * (2.0 * est.score - s0 - s1) / (2.0 * var);
        assert!((got - approx).abs() < 0.05, "{got} vs {approx}");
        // No results at all: nothing is known.
        assert_eq!(sprt.llr_penta(&Penta::default()), 0.0);
    }

    /// Reference values from python3 (tuner/tests/data/sprt_reference.py, written from the
    /// formulas in the module docs): roots by bisection to the last bit, the normalized fixed
    /// point iterated to 1e-13 rather than stopped after 10 steps, along t walked up from 0.
    #[test]
    fn normalized_llr_against_reference() {
        let wdl = Wdl { wins: 120, draws: 200, losses: 80 };
        let tri = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap().with_model(SprtModel::Normalized);
        assert!((tri.llr_wdl(&wdl) - 1.463_242).abs() < 1e-5, "{}", tri.llr_wdl(&wdl));
        let p = Penta { ll: 5, ld: 40, dd: 90, wl: 20, wd: 60, ww: 15 };
        let penta = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().with_model(SprtModel::Normalized);
        assert!((penta.llr_penta(&p) - 0.878_026).abs() < 1e-5, "{}", penta.llr_penta(&p));
        let below = Sprt::new(-3.0, 1.0, 0.05, 0.05).unwrap().with_model(SprtModel::Normalized);
        assert!((below.llr_penta(&p) - 0.754_668).abs() < 1e-5, "{}", below.llr_penta(&p));
        // Empty classes are regularised, not dropped.
        let sparse = Penta { dd: 4, wl: 3, wd: 3, ww: 1, ..Penta::default() };
        assert!((penta.llr_penta(&sparse) - 0.104_673).abs() < 1e-5, "{}", penta.llr_penta(&sparse));
        // Bounds far beyond the sample, where one jump from the uniform distribution finds no
        // θ: still a finite LLR on the right side (the 4 billion rounds CLI test needs it to stop).
        let all_won = Penta { ww: 4090, ..Penta::default() };
        let far = Sprt::new(0.0, 400.0, 0.05, 0.05).unwrap().with_model(SprtModel::Normalized);
        assert!((far.llr_penta(&all_won) / 2_520.779_594 - 1.0).abs() < 1e-3, "{}", far.llr_penta(&all_won));
        let lost = Wdl { wins: 2, draws: 30, losses: 400 };
        let far = Sprt::new(-300.0, 0.0, 0.05, 0.05).unwrap().with_model(SprtModel::Normalized);
        assert!((far.llr_wdl(&lost) / -205.273_474 - 1.0).abs() < 1e-3, "{}", far.llr_wdl(&lost));
        // Van den Bergh's GSPRT approximation N/2·ln((1 + (t̂ − t0)²)/(1 + (t̂ − t1)²)) is close.
        let n = p.pairs() as f64;
        let est = p.elo().unwrap();
        let var: f64 = p
            .buckets()
            .iter()
            .zip([0.0, 0.25, 0.5, 0.75, 1.0])
            .map(|(&c, a)| c as f64 / n * (a - est.score).powi(2))
            .sum();
        let t_hat = (est.score - 0.5) / var.sqrt();
        let t1 = std::f64::consts::SQRT_2 * 5.0 / NELO_PER_T;
        let approx = n / 2.0 * ((1.0 + t_hat * t_hat) / (1.0 + (t_hat - t1).powi(2))).ln();
        assert!((penta.llr_penta(&p) - approx).abs() < 0.03, "{approx}");
    }

    /// BayesElo: reference values from the same python3 script; no LLR without a win and a loss.
    #[test]
    fn bayesian_llr_against_reference() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap().with_model(SprtModel::Bayesian);
        let wdl = Wdl { wins: 120, draws: 200, losses: 80 };
        assert!((s.llr_wdl(&wdl) - 1.531_265).abs() < 1e-5, "{}", s.llr_wdl(&wdl));
        let even = Sprt::new(-5.0, 5.0, 0.05, 0.05).unwrap().with_model(SprtModel::Bayesian);
        let drawish = Wdl { wins: 300, draws: 1000, losses: 310 };
        assert!((even.llr_wdl(&drawish) + 0.466_491).abs() < 1e-5, "{}", even.llr_wdl(&drawish));
        assert_eq!(s.llr_wdl(&Wdl { wins: 10, draws: 5, losses: 0 }), 0.0);
        // Pairs are not used for it: `llr` is the trinomial LLR even when pairs are known.
        let p = Penta { ll: 5, ld: 40, dd: 90, wl: 20, wd: 60, ww: 15 };
        assert!(!s.pentanomial());
        assert_eq!(s.llr(&wdl, &p), s.llr_wdl(&wdl));
    }

    /// cutechess-cli 1.3: values from a python3 transcription of its `Sprt::status`; the
    /// half-game prior gives an LLR from the first games on, even with no loss.
    #[test]
    fn cutechess_llr_against_reference() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap().with_model(SprtModel::Cutechess);
        for (wdl, want) in
            [(Wdl { wins: 120, draws: 200, losses: 80 }, 1.995_534), (Wdl { wins: 10, draws: 5, losses: 0 }, 0.744_341)]
        {
            assert!((s.llr_wdl(&wdl) - want).abs() < 1e-5, "{wdl:?}: {}", s.llr_wdl(&wdl));
        }
        let even = Sprt::new(-5.0, 5.0, 0.05, 0.05).unwrap().with_model(SprtModel::Cutechess);
        let drawish = Wdl { wins: 300, draws: 1000, losses: 310 };
        assert!((even.llr_wdl(&drawish) + 0.759_173).abs() < 1e-5, "{}", even.llr_wdl(&drawish));
        // Not fastchess's bayesian model, and never over pairs.
        let bayes = s.with_model(SprtModel::Bayesian);
        assert!(
            (s.llr_wdl(&Wdl { wins: 120, draws: 200, losses: 80 })
                - bayes.llr_wdl(&Wdl { wins: 120, draws: 200, losses: 80 }))
            .abs()
                > 0.1
        );
        assert!(!s.pentanomial());
        assert_eq!("cutechess".parse::<SprtModel>(), Ok(SprtModel::Cutechess));
    }

    #[test]
    fn llr_picks_pairs_unless_told_otherwise() {
        let wdl = Wdl { wins: 120, draws: 200, losses: 80 };
        let p = Penta { ll: 5, ld: 40, dd: 90, wl: 20, wd: 60, ww: 15 };
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().with_model(SprtModel::Normalized);
        assert_eq!(s.llr(&wdl, &p), s.llr_penta(&p));
        assert_eq!(s.llr(&wdl, &Penta::default()), s.llr_wdl(&wdl));
        let tri = Sprt { trinomial: true, ..s };
        assert_eq!(tri.llr(&wdl, &p), tri.llr_wdl(&wdl));
        assert_ne!(s.llr_penta(&p), s.llr_wdl(&wdl));
    }

    #[test]
    fn models_parse_and_stay_out_of_old_fingerprints() {
        assert_eq!("Normalized".parse::<SprtModel>(), Ok(SprtModel::Normalized));
        assert_eq!("bayesian".parse::<SprtModel>(), Ok(SprtModel::Bayesian));
        assert_eq!("trinomial".parse::<SprtModel>(), Err(SprtError::Model("trinomial".into())));
        let logistic = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let json = serde_json::to_string(&logistic).unwrap();
        assert_eq!(json, r#"{"elo0":0.0,"elo1":5.0,"alpha":0.05,"beta":0.05}"#);
        assert_eq!(serde_json::from_str::<Sprt>(&json).unwrap(), logistic);
        let normalized = logistic.with_model(SprtModel::Normalized);
        let json = serde_json::to_string(&normalized).unwrap();
        assert!(json.contains(r#""model":"Normalized""#), "{json}");
        assert_eq!(serde_json::from_str::<Sprt>(&json).unwrap(), normalized);
    }
}
