//! Elo estimates from game results.
//!
//! Trinomial (W/D/L) formulas as in cutechess `projects/lib/src/elo.cpp`: score
//! μ = (W + D/2)/N, per-game standard deviation σ = sqrt(Σ pᵢ(xᵢ − μ)²), standard error σ/√N, the
//! 95% interval μ ± 1.96·σ/√N mapped through Elo(s) = −400·log10(1/s − 1) and reported as half its
//! width; LOS = ½(1 + erf((W − L)/√(2(W + L)))).
//!
//! Pentanomial formulas as in fastchess `app/src/matchmaking/elo/elo_pentanomial.cpp`: each game
//! pair (same opening, colours swapped) scores 0, ¼, ½, ¾ or 1 per game; μ and the variance are
//! taken over pairs, so the error is σ_pair/√N_pairs, and LOS = Φ((μ − ½)/(σ_pair/√N_pairs)).
//! Pairs are correlated through their shared opening, which the trinomial model ignores and
//! overestimates the error for (Van den Bergh, "Pentanomial" notes, fishtest).
//!
//! [`FastchessElo`] is what fastchess's report prints (`elo_wdl.cpp`, `elo_pentanomial.cpp`):
//! the same Elo and interval, normalized Elo nElo = (μ − ½)/σ · 800/ln 10 (σ per game; per pair
//! σ_pair·√2) with its interval mapped the same way, and LOS = Φ((μ − ½)/(σ/√N)) over games or
//! pairs. Its formulas are applied as written, so degenerate samples (no losses, no variance)
//! give the infinities and NaNs fastchess prints.

use serde::{Deserialize, Serialize};

use super::{erf, phi};

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference for an expected score `s` in (0, 1); ±∞ at the ends.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// An Elo estimate as the reports print it, `12.34 +/- 5.67` with `decimals` decimals. The
/// formulas give a sample of wins only an infinite Elo whose margin is ∞ − ∞ = NaN (cutechess and
/// fastchess print `inf +/- nan`); here it is `+inf (every game won)` with no margin, `-inf
/// (every game lost)` for losses only, `n/a` when there is no estimate, and a margin whose
/// interval reaches a score of 0 or 1 is `inf`. Never NaN.
pub fn elo_text(elo: f64, error: f64, decimals: usize) -> String {
    // −400·log10(1) is −0, which would print as `-0.00`.
    let elo = elo + 0.0;
    if elo.is_nan() {
        "n/a".to_string()
    } else if elo == f64::INFINITY {
        "+inf (every game won)".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf (every game lost)".to_string()
    } else if error.is_nan() {
        format!("{elo:.decimals$} +/- n/a")
    } else {
        format!("{elo:.decimals$} +/- {error:.decimals$}")
    }
}

/// Expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Wins, draws and losses from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Game-pair counts from one side's point of view: LL, LD, DD, WL, WD, WW.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penta {
    pub ll: u64,
    pub ld: u64,
    pub dd: u64,
    pub wl: u64,
    pub wd: u64,
    pub ww: u64,
}

/// An Elo estimate with its 95% error margin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    pub elo: f64,
    /// Half the width of the 95% confidence interval, in Elo.
    pub error: f64,
    /// Likelihood of superiority, in [0, 1].
    pub los: f64,
    /// Mean score per game.
    pub score: f64,
}

/// fastchess's estimates, computed as its `EloWDL`/`EloPentanomial` do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastchessElo {
    pub elo: f64,
    pub error: f64,
    pub nelo: f64,
    pub nelo_error: f64,
    /// Likelihood of superiority, in [0, 1].
    pub los: f64,
}

impl FastchessElo {
    /// From class counts over `scores`. nElo's σ is √(`var_factor`·variance of a unit): 2 for
    /// pairs, whose per-game score varies half as much as two lone games', 1 for games.
    fn of(counts: &[u64], scores: &[f64], var_factor: f64) -> FastchessElo {
        let n: f64 = counts.iter().sum::<u64>() as f64;
        let p: Vec<f64> = counts.iter().map(|&c| c as f64 / n).collect();
        let (mu, var) = mean_variance(&p, scores);
        let var_per_unit = var / n;
        let (upper, lower) = (mu + Z95 * var_per_unit.sqrt(), mu - Z95 * var_per_unit.sqrt());
        // Not elo_from_score: fastchess's bare formula, NaN outside [0, 1].
        let elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
        let nelo = |s: f64| (s - 0.5) / (var_factor * var).sqrt() * (800.0 / std::f64::consts::LN_10);
        FastchessElo {
            elo: elo(mu),
            error: (elo(upper) - elo(lower)) / 2.0,
            nelo: nelo(mu),
            nelo_error: (nelo(upper) - nelo(lower)) / 2.0,
            los: (1.0 - erf(-(mu - 0.5) / (2.0 * var_per_unit).sqrt())) / 2.0,
        }
    }
}

/// Mean and variance of a score distribution: probability `p[i]` of score `scores[i]`.
pub(crate) fn mean_variance(p: &[f64], scores: &[f64]) -> (f64, f64) {
    let mu: f64 = p.iter().zip(scores).map(|(p, s)| p * s).sum();
    let var: f64 = p.iter().zip(scores).map(|(p, s)| p * (s - mu).powi(2)).sum();
    (mu, var)
}

fn interval_half_width(mu: f64, stderr: f64) -> f64 {
    (elo_from_score(mu + Z95 * stderr) - elo_from_score(mu - Z95 * stderr)) / 2.0
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The same results from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games() as f64
    }

    /// fastchess's estimates over games (`EloWDL`). NaN without games.
    pub fn fastchess(&self) -> FastchessElo {
        FastchessElo::of(&[self.losses, self.draws, self.wins], &[0.0, 0.5, 1.0], 1.0)
    }

    /// Trinomial estimate (cutechess). `None` without games.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.games() as f64;
        if n == 0.0 {
            return None;
        }
        let (w, d, l) = (self.wins as f64 / n, self.draws as f64 / n, self.losses as f64 / n);
        let mu = w + d / 2.0;
        let var = w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2);
        let stderr = var.sqrt() / n.sqrt();
        let decisive = (self.wins + self.losses) as f64;
        let los = if decisive == 0.0 {
            0.5
        } else {
            0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
        };
        Some(EloEstimate { elo: elo_from_score(mu), error: interval_half_width(mu, stderr), los, score: mu })
    }
}

impl Penta {
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.dd + self.wl + self.wd + self.ww
    }

    /// Adds a pair given this side's points in its two games.
    pub fn add_pair(&mut self, a: f64, b: f64) {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let class = |p: f64| {
            if p > 0.75 {
                2
            } else if p < 0.25 {
                0
            } else {
                1
            }
        };
        match (class(lo), class(hi)) {
            (0, 0) => self.ll += 1,
            (0, 1) => self.ld += 1,
            (1, 1) => self.dd += 1,
            (0, 2) => self.wl += 1,
            (1, 2) => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    pub fn flipped(&self) -> Penta {
        Penta { ll: self.ww, ld: self.wd, dd: self.dd, wl: self.wl, wd: self.ld, ww: self.ll }
    }

    /// Counts per pair score 0, ¼, ½, ¾, 1 (per game).
    pub fn buckets(&self) -> [u64; 5] {
        [self.ll, self.ld, self.dd + self.wl, self.wd, self.ww]
    }

    /// fastchess's estimates over game pairs (`EloPentanomial`). NaN without pairs.
    pub fn fastchess(&self) -> FastchessElo {
        FastchessElo::of(&self.buckets(), &[0.0, 0.25, 0.5, 0.75, 1.0], 2.0)
    }

    /// Pentanomial estimate (fastchess). `None` without pairs.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let p: Vec<f64> = self.buckets().iter().map(|&c| c as f64 / n).collect();
        let (mu, var) = mean_variance(&p, &scores);
        let stderr = (var / n).sqrt();
        let los = if stderr == 0.0 {
            if mu > 0.5 {
                1.0
            } else if mu < 0.5 {
                0.0
            } else {
                0.5
            }
        } else {
            phi((mu - 0.5) / stderr)
        };
        Some(EloEstimate { elo: elo_from_score(mu), error: interval_half_width(mu, stderr), los, score: mu })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Expected values computed by hand from the formulas in the module docs
    /// (python3: math.log10, math.erf, statistics.NormalDist().cdf), not from this code.
    #[test]
    fn trinomial_against_hand_computed() {
        let r = Wdl { wins: 60, draws: 20, losses: 20 }.elo().unwrap();
        // μ = 0.7; Elo = −400·log10(1/0.7 − 1) = 147.1907
        assert!(close(r.score, 0.7, 1e-12));
        assert!(close(r.elo, 147.1907, 1e-3), "{}", r.elo);
        // σ² = .6·.09 + .2·.04 + .2·.49 = .16, σ/√N = .04, interval .7 ± .078398 → ±66.0134 Elo
        assert!(close(r.error, 66.0134, 1e-3), "{}", r.error);
        // LOS = ½(1 + erf(40/√160)) = 0.9999961
        assert!(close(r.los, 0.999_996_1, 1e-6), "{}", r.los);
        let even = Wdl { wins: 10, draws: 30, losses: 10 }.elo().unwrap();
        assert!(close(even.elo, 0.0, 1e-12) && close(even.los, 0.5, 1e-6));
        assert!(close(Wdl { wins: 10, draws: 30, losses: 10 }.draw_ratio(), 0.6, 1e-12));
        assert_eq!(Wdl { wins: 3, draws: 0, losses: 0 }.elo().unwrap().elo, f64::INFINITY);
        assert!(Wdl::default().elo().is_none());
    }

    #[test]
    fn pentanomial_against_hand_computed() {
        // LL=2, LD=8, DD=20, WL=10, WD=12, WW=4 (56 pairs)
        let p = Penta { ll: 2, ld: 8, dd: 20, wl: 10, wd: 12, ww: 4 };
        assert_eq!(p.buckets(), [2, 8, 30, 12, 4]);
        let r = p.elo().unwrap();
        // μ = (8·.25 + 30·.5 + 12·.75 + 4)/56 = 30/56 = 0.535714; Elo = 24.8592
        assert!(close(r.score, 30.0 / 56.0, 1e-12));
        assert!(close(r.elo, 24.8592, 1e-3), "{}", r.elo);
        // var = Σ pᵢ(sᵢ − μ)² = 0.0478316; stderr = √(var/56) = 0.0292256
        // interval [.478433, .592995] → Elo [−14.9955, 65.3808] → ±40.1882
        assert!(close(r.error, 40.1882, 1e-3), "{}", r.error);
        // LOS = Φ(0.035714/0.029226) = Φ(1.222020) = 0.889150
        assert!(close(r.los, 0.889_150, 1e-5), "{}", r.los);
        assert_eq!(p.flipped().flipped(), p);
    }

    #[test]
    fn elo_text_never_prints_nan() {
        assert_eq!(elo_text(12.345, 6.789, 2), "12.35 +/- 6.79");
        assert_eq!(elo_text(-3.0, 1.25, 1), "-3.0 +/- 1.2");
        // One game, won: the estimate the formulas give is inf +/- NaN.
        let won = Wdl { wins: 1, draws: 0, losses: 0 }.elo().unwrap();
        assert!(won.error.is_nan());
        assert_eq!(elo_text(won.elo, won.error, 2), "+inf (every game won)");
        let lost = Wdl { wins: 0, draws: 0, losses: 2 }.elo().unwrap();
        assert_eq!(elo_text(lost.elo, lost.error, 2), "-inf (every game lost)");
        // A win and a draw: the interval reaches a score of 1, so the margin is unbounded.
        let e = Wdl { wins: 1, draws: 1, losses: 0 }.elo().unwrap();
        assert_eq!(elo_text(e.elo, e.error, 2), "190.85 +/- inf");
        let f = Penta { ww: 2, ..Penta::default() }.fastchess();
        assert_eq!(elo_text(f.elo, f.error, 2), "+inf (every game won)");
        assert_eq!(elo_text(f64::NAN, f64::NAN, 2), "n/a");
        assert_eq!(elo_text(1.0, f64::NAN, 2), "1.00 +/- n/a");
    }

    #[test]
    fn pair_classification() {
        let mut p = Penta::default();
        p.add_pair(1.0, 0.0);
        p.add_pair(0.5, 0.5);
        p.add_pair(0.5, 1.0);
        p.add_pair(0.0, 0.0);
        p.add_pair(0.0, 0.5);
        p.add_pair(1.0, 1.0);
        assert_eq!(p, Penta { ll: 1, ld: 1, dd: 1, wl: 1, wd: 1, ww: 1 });
    }
}
