//! Sequential probability ratio test on the logistic Elo scale, as in fishtest and fastchess
//! (`app/src/matchmaking/sprt/sprt.cpp`, model `logistic`).
//!
//! H0: Elo = elo0, H1: Elo = elo1, with expected scores sⱼ = 1/(1 + 10^(−eloⱼ/400)). For each
//! hypothesis the result distribution closest to the empirical one p̂ with mean sⱼ is the maximum
//! likelihood estimate pᵢ = p̂ᵢ/(1 + θ(aᵢ − sⱼ)), θ solving Σ p̂ᵢ(aᵢ − sⱼ)/(1 + θ(aᵢ − sⱼ)) = 0
//! (M. Van den Bergh, "Comments on Normalized Elo", proposition 1.1,
//! <https://www.cantate.be/Fishtest/normalized_elo_practical.pdf>). Then
//! LLR = N · Σ p̂ᵢ (ln p1ᵢ − ln p0ᵢ), over games (trinomial: scores 0, ½, 1) or game pairs
//! (pentanomial: 0, ¼, ½, ¾, 1). Empty classes count as 1e-3 (fastchess's regularisation), so
//! the MLE stays defined early in a match. Bounds (Wald): ln(β/(1−α)) and ln((1−β)/α).

use serde::{Deserialize, Serialize};

use super::elo::{Penta, Wdl, score_from_elo};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
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
    /// Validates the parameters (elo0 < elo1, 0 < α, β and α + β < 1).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(format!("SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})"));
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 && alpha + beta < 1.0) {
            return Err(format!("SPRT: need 0 < alpha, beta < 1 and alpha + beta < 1 (got {alpha}, {beta})"));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// LLR from game results (trinomial model).
    pub fn llr_wdl(&self, r: &Wdl) -> f64 {
        if r.games() == 0 {
            return 0.0;
        }
        self.llr(&[r.losses, r.draws, r.wins], &[0.0, 0.5, 1.0])
    }

    /// LLR from game-pair results (pentanomial model).
    pub fn llr_penta(&self, p: &Penta) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        self.llr(&p.buckets(), &[0.0, 0.25, 0.5, 0.75, 1.0])
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

    fn llr(&self, counts: &[u64], scores: &[f64]) -> f64 {
        let reg: Vec<f64> = counts.iter().map(|&c| if c == 0 { 1e-3 } else { c as f64 }).collect();
        let total: f64 = reg.iter().sum();
        let probs: Vec<f64> = reg.iter().map(|c| c / total).collect();
        let p0 = mle(&probs, scores, score_from_elo(self.elo0));
        let p1 = mle(&probs, scores, score_from_elo(self.elo1));
        total * probs.iter().zip(p0.iter().zip(&p1)).map(|(p, (a, b))| p * (b.ln() - a.ln())).sum::<f64>()
    }
}

/// The distribution with mean `s` closest (in likelihood) to `probs` over `scores`.
pub fn mle(probs: &[f64], scores: &[f64], s: f64) -> Vec<f64> {
    let f = |theta: f64| -> f64 { probs.iter().zip(scores).map(|(p, a)| p * (a - s) / (1.0 + theta * (a - s))).sum() };
    // f decreases in θ on (−1/(a_max − s), −1/(a_min − s)), where every 1 + θ(aᵢ − s) > 0.
    let a_min = scores.iter().copied().fold(f64::INFINITY, f64::min);
    let a_max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (mut lo, mut hi) = (-1.0 / (a_max - s), -1.0 / (a_min - s));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    probs.iter().zip(scores).map(|(p, a)| p / (1.0 + theta * (a - s))).collect()
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
}
