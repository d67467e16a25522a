//! SPSA as fishtest and OpenBench run it: every iteration perturbs all parameters at once by
//! `±c_k` (one random sign each), plays the `+` engine against the `−` engine, and moves every
//! parameter by `R_k · c_k · (wins − losses) · sign`.
//!
//! A tune is stated by its end, per parameter: `c_end` (the last perturbation) and `r_end` (the
//! last `a_k / c_k²`). With `N` iterations, `A = a_ratio · N`:
//! `c = c_end · N^γ`, `a = r_end · c_end² · (A + N)^α`, and at iteration `k` (from 1)
//! `c_k = c / k^γ`, `a_k = a / (A + k)^α`, `R_k = a_k / c_k²`. Defaults α = 0.602, γ = 0.101,
//! `a_ratio` = 0.1. Integer parameters are played at stochastically rounded values, as in
//! OpenBench, so a fractional θ still shows in games on average.

pub mod run;

use rand::Rng;
use serde::{Deserialize, Serialize};

/// One tuned parameter and its current value θ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaParam {
    pub name: String,
    pub value: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
    /// Played as integers (stochastically rounded).
    pub integer: bool,
}

/// A line of OpenBench's SPSA input that cannot be read.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("SPSA line {line}: {reason} (expected `name, int|float, value, min, max, c_end, r_end`)")]
pub struct SpsaLineError {
    pub line: usize,
    pub reason: String,
}

/// Reads OpenBench's SPSA input (what `evochess params --spsa` prints): one parameter per line,
/// `name, int|float, value, min, max, c_end, r_end`; blank lines and `#` comments are skipped.
pub fn parse_lines(text: &str) -> Result<Vec<SpsaParam>, SpsaLineError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |reason: String| SpsaLineError { line: i + 1, reason };
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        if fields.len() != 7 {
            return Err(bad(format!("{} fields", fields.len())));
        }
        let integer = match fields[1] {
            "int" => true,
            "float" => false,
            other => return Err(bad(format!("type `{other}` is neither int nor float"))),
        };
        let num = |k: usize, what: &str| {
            fields[k]
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(format!("{what} `{}` is not a number", fields[k])))
        };
        let (value, min, max, c_end, r_end) =
            (num(2, "value")?, num(3, "min")?, num(4, "max")?, num(5, "c_end")?, num(6, "r_end")?);
        if !(min <= value && value <= max) {
            return Err(bad(format!("value {value} is outside [{min}, {max}]")));
        }
        if c_end <= 0.0 || r_end <= 0.0 {
            return Err(bad("c_end and r_end must be positive".into()));
        }
        out.push(SpsaParam { name: fields[0].to_string(), value, min, max, c_end, r_end, integer });
    }
    Ok(out)
}

/// The gain schedule shared by all parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// Planned iterations `N` (game pairs).
    pub iterations: u64,
    pub a_ratio: f64,
    pub alpha: f64,
    pub gamma: f64,
}

impl Schedule {
    /// OpenBench's defaults for `iterations` game pairs.
    pub fn new(iterations: u64) -> Schedule {
        Schedule { iterations, a_ratio: 0.1, alpha: 0.602, gamma: 0.101 }
    }

    /// `(c_k, R_k)` of `p` at iteration `k` (1-based).
    pub fn gains(&self, p: &SpsaParam, k: u64) -> (f64, f64) {
        let n = self.iterations as f64;
        let big_a = self.a_ratio * n;
        let c = p.c_end * n.powf(self.gamma);
        let a = p.r_end * p.c_end * p.c_end * (big_a + n).powf(self.alpha);
        let c_k = c / (k.max(1) as f64).powf(self.gamma);
        let a_k = a / (big_a + k.max(1) as f64).powf(self.alpha);
        (c_k, a_k / (c_k * c_k))
    }
}

/// One iteration's two engines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Perturbation {
    /// The iteration (1-based) whose gains were used.
    pub iteration: u64,
    /// `+1` or `−1` per parameter.
    pub signs: Vec<f64>,
    pub c: Vec<f64>,
    pub r: Vec<f64>,
    /// Values the `+` and `−` engines play (clamped, integers rounded).
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// A tune's state: the values and the iterations done.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spsa {
    pub params: Vec<SpsaParam>,
    pub schedule: Schedule,
    /// Iterations whose result has been applied.
    pub done: u64,
}

impl Spsa {
    pub fn new(params: Vec<SpsaParam>, schedule: Schedule) -> Spsa {
        Spsa { params, schedule, done: 0 }
    }

    /// The next iteration's engines, from `rng`.
    pub fn perturb(&self, rng: &mut impl Rng) -> Perturbation {
        let k = self.done + 1;
        let mut out = Perturbation { iteration: k, signs: vec![], c: vec![], r: vec![], plus: vec![], minus: vec![] };
        for p in &self.params {
            let (c, r) = self.schedule.gains(p, k);
            let sign = if rng.random::<bool>() { 1.0 } else { -1.0 };
            let mut played = |x: f64| {
                let x = x.clamp(p.min, p.max);
                if p.integer {
                    // Stochastic rounding: up with probability equal to the fraction.
                    let floor = x.floor();
                    if rng.random::<f64>() < x - floor { floor + 1.0 } else { floor }
                } else {
                    x
                }
            };
            let plus = played(p.value + c * sign);
            let minus = played(p.value - c * sign);
            out.signs.push(sign);
            out.c.push(c);
            out.r.push(r);
            out.plus.push(plus);
            out.minus.push(minus);
        }
        out
    }

    /// Applies an iteration's result: `score` = wins − losses of the `+` engine.
    pub fn update(&mut self, p: &Perturbation, score: f64) {
        for (i, param) in self.params.iter_mut().enumerate() {
            let step = p.r[i] * p.c[i] * score * p.signs[i];
            param.value = (param.value + step).clamp(param.min, param.max);
        }
        self.done += 1;
    }
}

#[cfg(test)]
mod tests {
    use rand::{SeedableRng, rngs::StdRng};

    use super::*;

    fn param(integer: bool) -> SpsaParam {
        SpsaParam { name: "x".into(), value: 100.0, min: 0.0, max: 200.0, c_end: 10.0, r_end: 0.002, integer }
    }

    #[test]
    fn gains_follow_openbench_formulas() {
        // Expected values computed independently from OpenBench's formulas with N = 1000:
        // c = 10·1000^0.101, a = 0.002·10²·(100 + 1000)^0.602.
        let s = Schedule::new(1000);
        let (c1, r1) = s.gains(&param(false), 1);
        assert!((c1 - 20.09092812608728).abs() < 1e-9, "{c1}");
        assert!((r1 - 0.0020861566909309405).abs() < 1e-15, "{r1}");
        // At the last iteration the gains are the stated end values.
        let (c_end, r_end) = s.gains(&param(false), 1000);
        assert!((c_end - 10.0).abs() < 1e-9 && (r_end - 0.002).abs() < 1e-12, "{c_end} {r_end}");
    }

    #[test]
    fn one_iteration_moves_theta_by_r_c_score_sign() {
        let mut spsa = Spsa::new(vec![param(false)], Schedule::new(1000));
        let mut rng = StdRng::seed_from_u64(3);
        let p = spsa.perturb(&mut rng);
        let sign = p.signs[0];
        assert!((p.plus[0] - (100.0 + 20.09092812608728 * sign)).abs() < 1e-9);
        assert!((p.minus[0] - (100.0 - 20.09092812608728 * sign)).abs() < 1e-9);
        // The + engine won a pair 2-0: θ moves towards it by R_1·c_1·2 = 0.0838...
        spsa.update(&p, 2.0);
        assert!((spsa.params[0].value - (100.0 + 0.0838256482745 * sign)).abs() < 1e-9, "{}", spsa.params[0].value);
        assert_eq!(spsa.done, 1);
        // The same seed gives the same perturbation (a resumed tune replays nothing differently).
        let again = Spsa::new(vec![param(false)], Schedule::new(1000)).perturb(&mut StdRng::seed_from_u64(3));
        assert_eq!(again, p);
    }

    #[test]
    fn integer_parameters_are_rounded_stochastically_and_clamped() {
        let spsa = Spsa::new(vec![SpsaParam { value: 199.0, ..param(true) }], Schedule::new(1000));
        let mut rng = StdRng::seed_from_u64(1);
        let mut sum = 0.0;
        for _ in 0..2000 {
            let p = spsa.perturb(&mut rng);
            assert!(p.plus[0].fract() == 0.0 && p.minus[0].fract() == 0.0);
            assert!(p.plus[0] <= 200.0 && p.minus[0] <= 200.0);
            sum += if p.signs[0] > 0.0 { p.minus[0] } else { p.plus[0] };
        }
        // The side below θ plays 199 − 20.09 = 178.91 on average.
        let mean = sum / 2000.0;
        assert!((mean - 178.909).abs() < 0.05, "{mean}");
    }

    #[test]
    fn openbench_input_lines_are_read_and_bad_ones_named() {
        let text = "# from evochess params --spsa\npawn_mg, int, 100, 50, 200, 7.50, 0.002\n\nlmr_base, float, 0.75, 0, 2, 0.1, 0.002\n";
        let params = parse_lines(text).unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!(
            params[0],
            SpsaParam {
                name: "pawn_mg".into(),
                value: 100.0,
                min: 50.0,
                max: 200.0,
                c_end: 7.5,
                r_end: 0.002,
                integer: true
            }
        );
        assert!(!params[1].integer);
        let e = parse_lines("a, int, 1, 0, 9, 1, 0.002\nb, int, 10, 0, 9, 1, 0.002\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().contains("outside [0, 9]"), "{e}");
        assert!(parse_lines("a, int, 1, 0, 9, x, 0.002").unwrap_err().to_string().contains("c_end `x`"));
        assert!(parse_lines("a, bool, 1, 0, 9, 1, 0.002").unwrap_err().to_string().contains("bool"));
        assert!(parse_lines("a, int, 1, 0, 9").unwrap_err().to_string().contains("5 fields"));
        // The engine's own export reads back whole.
        let export = evochess::params::Params::default().spsa_lines().join("\n");
        assert_eq!(parse_lines(&export).unwrap().len(), evochess::params::Params::specs().count());
    }
}
