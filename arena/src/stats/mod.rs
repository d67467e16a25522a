//! Match statistics: Elo with 95% confidence interval, LOS, draw ratio, pentanomial counts
//! ([`elo`]) and the sequential probability ratio test ([`sprt`]).

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
    }
}
