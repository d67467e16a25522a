//! Texel's tuning measure: a score `s` (centipawns, from the side whose result is given) stands
//! for a winning chance `1 / (1 + 10^(−K·s/400))`, and an evaluation is as good as the mean
//! squared error of those chances against the games' results (1, ½, 0). `K` is fitted first,
//! once, for the evaluation being tuned.
//!
//! `tuner texel` ([`run`], configured by [`config`]) minimises that error ([`labelled`]) over a
//! search space's parameters on quiet positions ([`quiet`]) from games with results, or on
//! self-play positions ([`selfplay`]), split into training and validation sets ([`sets`]), by
//! local search ([`tuning`]) or by a gradient fit ([`gradient`], run by [`fit`]) over compact
//! traces of the positions ([`traces`]), pass after pass ([`passes`]). The dependencies go one way: [`run`] uses the others,
//! and none of them uses [`run`].

pub mod config;
pub mod fit;
pub mod gradient;
pub mod labelled;
pub mod passes;
pub mod quiet;
pub mod run;
pub mod selfplay;
pub mod sets;
pub mod traces;
pub mod tuning;

/// The winning chance of `score` centipawns under scale `k`.
pub fn win_chance(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

/// Mean squared error of `(score, result)` samples under scale `k`.
pub fn loss(k: f64, samples: &[(f64, f64)]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.iter().map(|&(s, r)| (r - win_chance(k, s)).powi(2)).sum::<f64>() / samples.len() as f64
}

/// The `k` in `[lo, hi]` with the least [`loss`], by golden-section search to `tol` (the loss is
/// unimodal in `k` for any sample set with both wins and losses).
pub fn fit_k(samples: &[(f64, f64)], lo: f64, hi: f64, tol: f64) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (loss(c, samples), loss(d, samples));
    while b - a > tol {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - phi * (b - a);
            fc = loss(c, samples);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + phi * (b - a);
            fd = loss(d, samples);
        }
    }
    (a + b) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loss_of_a_hand_made_fixture() {
        // A draw at 0, a win at +400, a loss at −400: K = 1 gives chances ½, 10/11, 1/11.
        let samples = [(0.0, 0.5), (400.0, 1.0), (-400.0, 0.0)];
        let expected = 2.0 * (1.0f64 / 11.0).powi(2) / 3.0;
        assert!((loss(1.0, &samples) - expected).abs() < 1e-15, "{}", loss(1.0, &samples));
        assert!((win_chance(1.0, 400.0) - 10.0 / 11.0).abs() < 1e-15);
    }

    #[test]
    fn k_is_recovered_from_results_drawn_at_a_known_scale() {
        // Results equal to the chances at K = 1.3 (as the average of many games would be).
        let samples: Vec<(f64, f64)> =
            (-20..=20).map(|i| f64::from(i) * 40.0).map(|s| (s, win_chance(1.3, s))).collect();
        let k = fit_k(&samples, 0.1, 5.0, 1e-7);
        assert!((k - 1.3).abs() < 1e-5, "{k}");
        // With noisy 0/½/1 results the fit still lands near the truth.
        let games: Vec<(f64, f64)> = (0..4000)
            .map(|i| {
                let s = f64::from(i % 41 - 20) * 40.0;
                let u = (f64::from(i) * 0.618_033_988_75).fract();
                (s, if u < win_chance(1.3, s) { 1.0 } else { 0.0 })
            })
            .collect();
        let k = fit_k(&games, 0.1, 5.0, 1e-6);
        assert!((k - 1.3).abs() < 0.15, "{k}");
    }
}
