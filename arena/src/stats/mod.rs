//! Match statistics: Elo with 95% confidence interval, LOS, draw ratio, pentanomial counts
//! ([`elo`]), the sequential probability ratio test ([`sprt`]) and Bradley–Terry ratings of many
//! players from unbalanced pairwise results ([`bradley_terry`]).

pub mod bradley_terry;
pub mod elo;
pub mod sprt;

pub use elo::{EloEstimate, Penta, Wdl};
pub use sprt::{Sprt, SprtDecision, SprtError, SprtModel};

/// The error function, |error| < 1.2e-7 everywhere (Numerical Recipes in C, 2nd ed., §6.2,
/// `erfcc`: Chebyshev fit of erfc). Rust's std has no `erf`.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// Standard normal CDF.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// The standard normal quantile: x with Φ(x) = `p`, for `p` in (0, 1) (to Φ's accuracy, by
/// bisection over ±10); NaN outside.
pub fn phi_inverse(p: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) {
        return f64::NAN;
    }
    let (mut lo, mut hi) = (-10.0, 10.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if phi(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_reference_values() {
        // Reference values: Abramowitz & Stegun, Table 7.1.
        for (x, want) in [(0.0, 0.0), (0.5, 0.520_499_877_8), (1.0, 0.842_700_792_9), (2.0, 0.995_322_265_0)] {
            assert!((erf(x) - want).abs() < 2e-7, "erf({x})");
            assert!((erf(-x) + want).abs() < 2e-7, "erf(-{x})");
        }
        assert!((phi(1.959_963_984_540_054) - 0.975).abs() < 1e-7);
        assert!((phi_inverse(0.975) - 1.959_963_984_540_054).abs() < 1e-6);
        assert!(phi_inverse(0.5).abs() < 1e-6 && (phi_inverse(0.1) + phi_inverse(0.9)).abs() < 1e-6);
        assert!(phi_inverse(0.0).is_nan() && phi_inverse(1.0).is_nan() && phi_inverse(f64::NAN).is_nan());
    }
}
