//! CMA-ES (Hansen's covariance matrix adaptation evolution strategy, as in his `purecma`
//! tutorial code) over a box: every coordinate lies in `[0, 1]`, the genes' ranges scaled.
//!
//! Ask/tell: [`Cmaes::ask`] draws a generation from the current mean, step size and covariance
//! with the RNG it is given (the driver's per-generation RNG, so a resumed run draws the same
//! points); [`Cmaes::tell`] takes the points with their fitness (higher is better, as
//! everywhere in the tuner) and updates the distribution. A sample outside the box is clamped
//! onto it and the clamped point is what is evaluated and learned from. The whole state
//! serialises, so a checkpoint holds it. The covariance is decomposed (Householder and QL,
//! O(n³)) lazily as in Hansen's `purecma`: again only once the covariance has learnt enough since
//! the last decomposition (every generation or few for tens of parameters, about every 22nd for
//! the whole evaluation's 1,071 genes).
//!
//! [`CmaEs`] runs the strategy as an [`Optimiser`](super::Optimiser) over a search space's
//! genomes.

mod optimiser;

use std::borrow::Cow;

use rand::Rng;
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

pub use self::optimiser::{CmaEs, CmaesState};

/// The strategy's state after a generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cmaes {
    pub mean: Vec<f64>,
    pub sigma: f64,
    /// Covariance matrix, row by row.
    pub cov: Vec<Vec<f64>>,
    /// Evolution paths of the covariance and of the step size.
    pub path_c: Vec<f64>,
    pub path_s: Vec<f64>,
    /// Generations told so far.
    pub generations: usize,
    pub lambda: usize,
    /// The eigendecomposition `ask` and `tell` use (absent in checkpoints written before it
    /// was kept: computed from `cov` then).
    #[serde(default)]
    pub decomposition: Option<Decomposition>,
}

/// `cov = vectors · diag(values) · vectorsᵀ` as it was after `generation` generations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decomposition {
    pub values: Vec<f64>,
    /// Eigenvectors as columns: `vectors[i][k]` is component `i` of vector `k`.
    pub vectors: Vec<Vec<f64>>,
    pub generation: usize,
}

/// Hansen's default population size for dimension `n`: 4 + ⌊3 ln n⌋.
pub fn default_lambda(n: usize) -> usize {
    4 + (3.0 * (n.max(1) as f64).ln()).floor() as usize
}

/// The learning rates, fixed by the dimension and population size.
struct Rates {
    weights: Vec<f64>,
    mueff: f64,
    cc: f64,
    cs: f64,
    c1: f64,
    cmu: f64,
    damps: f64,
    chi_n: f64,
    /// Generations between decompositions (`purecma`'s `lazy_gap_evals` over λ): the
    /// covariance moves by about c1 + cmu a generation.
    lazy_gap: f64,
}

impl Rates {
    fn new(n: usize, lambda: usize) -> Rates {
        let nf = n as f64;
        let mu = lambda / 2;
        let raw: Vec<f64> = (1..=mu).map(|i| (mu as f64 + 0.5).ln() - (i as f64).ln()).collect();
        let sum: f64 = raw.iter().sum();
        let weights: Vec<f64> = raw.iter().map(|w| w / sum).collect();
        let mueff = 1.0 / weights.iter().map(|w| w * w).sum::<f64>();
        let cc = (4.0 + mueff / nf) / (nf + 4.0 + 2.0 * mueff / nf);
        let cs = (mueff + 2.0) / (nf + mueff + 5.0);
        let c1 = 2.0 / ((nf + 1.3).powi(2) + mueff);
        let cmu = (1.0 - c1).min(2.0 * (mueff - 2.0 + 1.0 / mueff) / ((nf + 2.0).powi(2) + mueff));
        let damps = 1.0 + 2.0 * (((mueff - 1.0) / (nf + 1.0)).sqrt() - 1.0).max(0.0) + cs;
        let chi_n = nf.sqrt() * (1.0 - 1.0 / (4.0 * nf) + 1.0 / (21.0 * nf * nf));
        let lazy_gap = 0.5 / (nf * (c1 + cmu));
        Rates { weights, mueff, cc, cs, c1, cmu, damps, chi_n, lazy_gap }
    }
}

impl Cmaes {
    /// A strategy centred on `mean` (coordinates in `[0, 1]`) with step size `sigma` and
    /// `lambda` points per generation (at least 2).
    pub fn new(mean: Vec<f64>, sigma: f64, lambda: usize) -> Cmaes {
        let n = mean.len();
        let identity: Vec<Vec<f64>> =
            (0..n).map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
        let decomposition = Decomposition { values: vec![1.0; n], vectors: identity.clone(), generation: 0 };
        Cmaes {
            mean: mean.into_iter().map(|x| x.clamp(0.0, 1.0)).collect(),
            sigma,
            cov: identity,
            path_c: vec![0.0; n],
            path_s: vec![0.0; n],
            generations: 0,
            lambda: lambda.max(2),
            decomposition: Some(decomposition),
        }
    }

    /// The current decomposition: the kept one, or (from an older checkpoint) `cov`'s.
    fn eigensystem(&self) -> Cow<'_, Decomposition> {
        match &self.decomposition {
            Some(d) => Cow::Borrowed(d),
            None => {
                let (values, vectors) = eigen(&self.cov);
                Cow::Owned(Decomposition { values, vectors, generation: self.generations })
            }
        }
    }

    /// `lambda` points drawn from N(mean, sigma² C), clamped onto the box.
    pub fn ask(&self, rng: &mut impl Rng) -> Vec<Vec<f64>> {
        let n = self.mean.len();
        let eigensystem = self.eigensystem();
        let (values, vectors) = (&eigensystem.values, &eigensystem.vectors);
        let scale: Vec<f64> = values.iter().map(|v| v.max(0.0).sqrt()).collect();
        (0..self.lambda)
            .map(|_| {
                let z: Vec<f64> = (0..n).map(|_| rng.sample::<f64, _>(StandardNormal)).collect();
                (0..n)
                    .map(|i| {
                        let y: f64 = (0..n).map(|k| vectors[i][k] * scale[k] * z[k]).sum();
                        (self.mean[i] + self.sigma * y).clamp(0.0, 1.0)
                    })
                    .collect()
            })
            .collect()
    }

    /// Updates the distribution from a generation's points and their fitness (higher is better).
    pub fn tell(&mut self, points: &[Vec<f64>], fitness: &[f64]) {
        let n = self.mean.len();
        let r = Rates::new(n, points.len());
        let mut order: Vec<usize> = (0..points.len()).collect();
        // Best first; ties keep the lower index, so the update is deterministic.
        order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
        let best: Vec<&Vec<f64>> = order.iter().take(r.weights.len()).map(|&i| &points[i]).collect();
        let old = self.mean.clone();
        self.mean = (0..n).map(|i| r.weights.iter().zip(&best).map(|(w, x)| w * x[i]).sum()).collect();
        let step: Vec<f64> = (0..n).map(|i| (self.mean[i] - old[i]) / self.sigma).collect();
        // C^(-1/2) · step, through C = B D² Bᵀ (the decomposition the points were drawn with).
        let eigensystem = self.eigensystem();
        let (values, vectors) = (&eigensystem.values, &eigensystem.vectors);
        let inv_sqrt: Vec<f64> = values.iter().map(|v| 1.0 / v.max(1e-300).sqrt()).collect();
        let projected: Vec<f64> = (0..n).map(|k| (0..n).map(|i| vectors[i][k] * step[i]).sum::<f64>()).collect();
        let whitened: Vec<f64> =
            (0..n).map(|i| (0..n).map(|k| vectors[i][k] * inv_sqrt[k] * projected[k]).sum()).collect();
        let ks = (r.cs * (2.0 - r.cs) * r.mueff).sqrt();
        for (p, w) in self.path_s.iter_mut().zip(&whitened) {
            *p = (1.0 - r.cs) * *p + ks * w;
        }
        self.generations += 1;
        let ps_norm = self.path_s.iter().map(|p| p * p).sum::<f64>().sqrt();
        let decay = 1.0 - (1.0 - r.cs).powi(2 * self.generations as i32);
        let hsig = ps_norm / decay.sqrt() / r.chi_n < 1.4 + 2.0 / (n as f64 + 1.0);
        let hsig = if hsig { 1.0 } else { 0.0 };
        let kc = (r.cc * (2.0 - r.cc) * r.mueff).sqrt();
        for (p, s) in self.path_c.iter_mut().zip(&step) {
            *p = (1.0 - r.cc) * *p + hsig * kc * s;
        }
        let c1a = r.c1 * (1.0 - (1.0 - hsig * hsig) * r.cc * (2.0 - r.cc));
        let steps: Vec<Vec<f64>> =
            best.iter().map(|x| (0..n).map(|i| (x[i] - old[i]) / self.sigma).collect()).collect();
        for i in 0..n {
            for j in 0..n {
                let rank_mu: f64 = r.weights.iter().zip(&steps).map(|(w, y)| w * y[i] * y[j]).sum();
                self.cov[i][j] =
                    (1.0 - c1a - r.cmu) * self.cov[i][j] + r.c1 * self.path_c[i] * self.path_c[j] + r.cmu * rank_mu;
            }
        }
        self.sigma *= ((r.cs / r.damps) * (ps_norm / r.chi_n - 1.0)).min(1.0).exp();
        let due = self.decomposition.as_ref().is_none_or(|d| (self.generations - d.generation) as f64 > r.lazy_gap);
        if due {
            let (values, vectors) = eigen(&self.cov);
            self.decomposition = Some(Decomposition { values, vectors, generation: self.generations });
        }
    }
}

/// Eigenvalues (ascending) and eigenvectors (as columns: `vectors[i][k]` is component `i` of
/// vector `k`) of a symmetric matrix: Householder reduction to tridiagonal form, then the QL
/// algorithm with implicit shifts (EISPACK's tred2/tql2, as in JAMA). About 4n³ flops, a few
/// seconds at n = 1,071 where cyclic Jacobi took more than three minutes. The transformations
/// are kept transposed (`w[k]` is vector `k`), so every inner loop runs along a row.
pub fn eigen(m: &[Vec<f64>]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = m.len();
    if n == 0 {
        return (Vec::new(), Vec::new());
    }
    // `w` is the transpose of JAMA's V; the input is symmetric, so it starts as `m` itself.
    let mut w: Vec<Vec<f64>> = m.to_vec();
    let mut d = vec![0.0; n];
    let mut e = vec![0.0; n];
    tridiagonalise(&mut w, &mut d, &mut e);
    diagonalise(&mut w, &mut d, &mut e);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| d[a].total_cmp(&d[b]));
    let values = order.iter().map(|&k| d[k]).collect();
    let vectors = (0..n).map(|i| order.iter().map(|&k| w[k][i]).collect()).collect();
    (values, vectors)
}

/// Householder reduction (tred2): on return `d` is the diagonal, `e[1..]` the subdiagonal and
/// `w` the accumulated orthogonal transformation, transposed.
fn tridiagonalise(w: &mut [Vec<f64>], d: &mut [f64], e: &mut [f64]) {
    let n = d.len();
    for (j, x) in d.iter_mut().enumerate() {
        *x = w[j][n - 1];
    }
    for i in (1..n).rev() {
        let scale: f64 = d[..i].iter().map(|x| x.abs()).sum();
        let mut h = 0.0;
        if scale == 0.0 {
            e[i] = d[i - 1];
            for j in 0..i {
                d[j] = w[j][i - 1];
                w[j][i] = 0.0;
                w[i][j] = 0.0;
            }
        } else {
            for x in &mut d[..i] {
                *x /= scale;
                h += *x * *x;
            }
            let f = d[i - 1];
            let g = if f > 0.0 { -h.sqrt() } else { h.sqrt() };
            e[i] = scale * g;
            h -= f * g;
            d[i - 1] = f - g;
            e[..i].fill(0.0);
            for j in 0..i {
                let f = d[j];
                w[i][j] = f;
                let row = &w[j];
                let mut g = e[j] + row[j] * f;
                for k in j + 1..i {
                    g += row[k] * d[k];
                    e[k] += row[k] * f;
                }
                e[j] = g;
            }
            let mut f = 0.0;
            for j in 0..i {
                e[j] /= h;
                f += e[j] * d[j];
            }
            let hh = f / (h + h);
            for j in 0..i {
                e[j] -= hh * d[j];
            }
            for j in 0..i {
                let (f, g) = (d[j], e[j]);
                let row = &mut w[j];
                for k in j..i {
                    row[k] -= f * e[k] + g * d[k];
                }
                d[j] = row[i - 1];
                row[i] = 0.0;
            }
        }
        d[i] = h;
    }
    // Accumulate the transformations.
    for i in 0..n - 1 {
        w[i][n - 1] = w[i][i];
        w[i][i] = 1.0;
        let h = d[i + 1];
        if h != 0.0 {
            for k in 0..=i {
                d[k] = w[i + 1][k] / h;
            }
            for j in 0..=i {
                let g: f64 = (0..=i).map(|k| w[i + 1][k] * w[j][k]).sum();
                let row = &mut w[j];
                for k in 0..=i {
                    row[k] -= g * d[k];
                }
            }
        }
        w[i + 1][..=i].fill(0.0);
    }
    for j in 0..n {
        d[j] = w[j][n - 1];
        w[j][n - 1] = 0.0;
    }
    w[n - 1][n - 1] = 1.0;
    e[0] = 0.0;
}

/// The QL algorithm with implicit shifts (tql2) on the tridiagonal `d`, `e`, rotating `w`'s rows.
fn diagonalise(w: &mut [Vec<f64>], d: &mut [f64], e: &mut [f64]) {
    // A covariance that is not finite cannot converge: give up after this many sweeps per value
    // instead of looping for ever (the result is then as garbage as its input).
    const MAX_ITERATIONS: usize = 100;
    let n = d.len();
    for i in 1..n {
        e[i - 1] = e[i];
    }
    e[n - 1] = 0.0;
    let (mut f, mut tst1) = (0.0f64, 0.0f64);
    let eps = f64::EPSILON;
    for l in 0..n {
        tst1 = tst1.max(d[l].abs() + e[l].abs());
        let mut m = l;
        while m < n - 1 && e[m].abs() > eps * tst1 {
            m += 1;
        }
        if m > l {
            for _ in 0..MAX_ITERATIONS {
                let g = d[l];
                let p = (d[l + 1] - g) / (2.0 * e[l]);
                let r = if p < 0.0 { -p.hypot(1.0) } else { p.hypot(1.0) };
                d[l] = e[l] / (p + r);
                d[l + 1] = e[l] * (p + r);
                let dl1 = d[l + 1];
                let h = g - d[l];
                for x in &mut d[l + 2..] {
                    *x -= h;
                }
                f += h;
                let mut p = d[m];
                let (mut c, mut c2, mut c3) = (1.0, 1.0, 1.0);
                let el1 = e[l + 1];
                let (mut s, mut s2) = (0.0, 0.0);
                for i in (l..m).rev() {
                    c3 = c2;
                    c2 = c;
                    s2 = s;
                    let g = c * e[i];
                    let h = c * p;
                    let r = p.hypot(e[i]);
                    e[i + 1] = s * r;
                    s = e[i] / r;
                    c = p / r;
                    p = c * d[i] - s * g;
                    d[i + 1] = h + s * (c * g + s * d[i]);
                    let (lower, upper) = w.split_at_mut(i + 1);
                    for (a, b) in lower[i].iter_mut().zip(upper[0].iter_mut()) {
                        let h = *b;
                        *b = s * *a + c * h;
                        *a = c * *a - s * h;
                    }
                }
                let p = -s * s2 * c3 * el1 * e[l] / dl1;
                e[l] = s * p;
                d[l] = c * p;
                if e[l].abs() <= eps * tst1 {
                    break;
                }
            }
        }
        d[l] += f;
        e[l] = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;

    /// Cyclic Jacobi rotations: slow (O(n³) a sweep, several sweeps) but simple enough to
    /// trust, the reference the fast solver is checked against.
    fn jacobi(m: &[Vec<f64>]) -> Vec<f64> {
        let n = m.len();
        let mut a: Vec<Vec<f64>> = m.to_vec();
        for _sweep in 0..100 {
            let off: f64 = (0..n)
                .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
                .map(|(i, j)| a[i][j].powi(2))
                .sum();
            if off <= 1e-30 * (0..n).map(|i| a[i][i].powi(2)).sum::<f64>().max(1e-300) {
                break;
            }
            for p in 0..n {
                for q in p + 1..n {
                    if a[p][q].abs() < 1e-300 {
                        continue;
                    }
                    let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                    let t =
                        if theta == 0.0 { 1.0 } else { theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt()) };
                    let c = 1.0 / (t * t + 1.0).sqrt();
                    let s = t * c;
                    for row in a.iter_mut() {
                        let (akp, akq) = (row[p], row[q]);
                        row[p] = c * akp - s * akq;
                        row[q] = s * akp + c * akq;
                    }
                    let (row_p, row_q) = (a[p].clone(), a[q].clone());
                    for (k, (apk, aqk)) in row_p.iter().zip(&row_q).enumerate() {
                        a[p][k] = c * apk - s * aqk;
                        a[q][k] = s * apk + c * aqk;
                    }
                }
            }
        }
        let mut values: Vec<f64> = (0..n).map(|i| a[i][i]).collect();
        values.sort_by(f64::total_cmp);
        values
    }

    /// `vectors · diag(values) · vectorsᵀ` equals `m` and `vectors` is orthonormal.
    fn assert_decomposes(m: &[Vec<f64>], values: &[f64], vectors: &[Vec<f64>], tolerance: f64) {
        let n = m.len();
        for i in 0..n {
            for j in 0..n {
                let back: f64 = (0..n).map(|k| vectors[i][k] * values[k] * vectors[j][k]).sum();
                assert!((back - m[i][j]).abs() < tolerance, "({i},{j}): {back} vs {}", m[i][j]);
                let dot: f64 = (0..n).map(|k| vectors[k][i] * vectors[k][j]).sum();
                let unit = if i == j { 1.0 } else { 0.0 };
                assert!((dot - unit).abs() < tolerance, "vectors {i}·{j} = {dot}");
            }
        }
    }

    #[test]
    fn eigen_decomposes_small_and_degenerate_matrices() {
        let m = vec![vec![4.0, 1.0, 0.5], vec![1.0, 3.0, 0.2], vec![0.5, 0.2, 2.0]];
        let (values, vectors) = eigen(&m);
        assert_decomposes(&m, &values, &vectors, 1e-12);
        assert!((values.iter().sum::<f64>() - 9.0).abs() < 1e-12, "the trace is kept");
        assert!(values.windows(2).all(|v| v[0] <= v[1]), "ascending: {values:?}");
        // Repeated eigenvalues, a diagonal, a 1×1, a zero matrix and an empty one.
        let identity: Vec<Vec<f64>> = (0..5).map(|i| (0..5).map(|j| f64::from(u8::from(i == j))).collect()).collect();
        let (values, vectors) = eigen(&identity);
        assert_eq!(values, vec![1.0; 5]);
        assert_decomposes(&identity, &values, &vectors, 1e-15);
        let diagonal = vec![vec![3.0, 0.0, 0.0], vec![0.0, -1.0, 0.0], vec![0.0, 0.0, 2.0]];
        let (values, vectors) = eigen(&diagonal);
        assert_eq!(values, vec![-1.0, 2.0, 3.0]);
        assert_decomposes(&diagonal, &values, &vectors, 1e-15);
        assert_eq!(eigen(&[vec![7.0]]), (vec![7.0], vec![vec![1.0]]));
        let zero = vec![vec![0.0; 4]; 4];
        let (values, vectors) = eigen(&zero);
        assert_eq!(values, vec![0.0; 4]);
        assert_decomposes(&zero, &values, &vectors, 1e-15);
        assert_eq!(eigen(&[]), (Vec::new(), Vec::new()));
    }

    /// On random covariance-like matrices (a spread of eigenvalues over six orders of
    /// magnitude, as CMA-ES builds late in a run) the eigenvalues match Jacobi's.
    #[test]
    fn eigen_matches_jacobi_on_random_covariances() {
        for n in [2, 7, 40] {
            let m = random_covariance(n, 47 + n as u64);
            let (values, vectors) = eigen(&m);
            assert_decomposes(&m, &values, &vectors, 1e-10);
            for (fast, reference) in values.iter().zip(jacobi(&m)) {
                assert!((fast - reference).abs() < 1e-10 * reference.abs().max(1.0), "n {n}: {fast} vs {reference}");
            }
        }
    }

    /// A random covariance of dimension `n` whose eigenvalues spread over six orders of magnitude.
    fn random_covariance(n: usize, seed: u64) -> Vec<Vec<f64>> {
        let mut rng = StdRng::seed_from_u64(seed);
        let basis: Vec<Vec<f64>> =
            (0..n).map(|_| (0..n).map(|_| rng.sample::<f64, _>(StandardNormal)).collect()).collect();
        let scales: Vec<f64> = (0..n).map(|k| 10f64.powf(-6.0 * k as f64 / n as f64)).collect();
        let mut m = vec![vec![0.0; n]; n];
        for (k, &scale) in scales.iter().enumerate() {
            for i in 0..n {
                let bik = basis[i][k] * scale;
                for j in 0..n {
                    m[i][j] += bik * basis[j][k];
                }
            }
        }
        m
    }

    /// A covariance that has gone non-finite returns (garbage) instead of looping for ever.
    #[test]
    fn eigen_terminates_on_a_non_finite_matrix() {
        let m = vec![vec![1.0, f64::NAN, 0.0], vec![f64::NAN, 1.0, 0.5], vec![0.0, 0.5, f64::INFINITY]];
        assert_eq!(eigen(&m).0.len(), 3);
    }

    /// Runs `generations` of CMA-ES maximising `f` in `n` dimensions; the best point seen.
    fn optimise(n: usize, generations: usize, seed: u64, f: impl Fn(&[f64]) -> f64) -> (Vec<f64>, f64) {
        let mut cma = Cmaes::new(vec![0.5; n], 0.3, default_lambda(n));
        let mut best = (Vec::new(), f64::NEG_INFINITY);
        for g in 0..generations {
            let mut rng = StdRng::seed_from_u64(seed ^ g as u64);
            let points = cma.ask(&mut rng);
            let fitness: Vec<f64> = points.iter().map(|x| f(x)).collect();
            for (x, &v) in points.iter().zip(&fitness) {
                if v > best.1 {
                    best = (x.clone(), v);
                }
            }
            cma.tell(&points, &fitness);
        }
        best
    }

    #[test]
    fn converges_on_a_shifted_sphere_inside_the_box() {
        let target = [0.2, 0.7, 0.35, 0.9, 0.1, 0.55, 0.4, 0.8];
        let sphere = |x: &[f64]| -x.iter().zip(&target).map(|(a, b)| (a - b).powi(2)).sum::<f64>();
        let (x, v) = optimise(8, 300, 1, sphere);
        assert!(v > -1e-12, "f = {v} at {x:?}");
        let (x2, v2) = optimise(8, 300, 1, sphere);
        assert_eq!((x, v), (x2, v2), "the same seeds give the same run");
    }

    #[test]
    fn finds_the_optimum_on_the_boundary_and_the_rosenbrock_valley() {
        // A linear slope: the optimum is the corner (1, 1, 1, 1), reached by clamping.
        let (x, _) = optimise(4, 100, 2, |x| x.iter().sum());
        assert!(x.iter().all(|&c| c > 0.999), "{x:?}");
        // Rosenbrock in [-2, 2]⁴ mapped onto the box; its optimum (1, 1, 1, 1) is at 0.75.
        let rosenbrock = |x: &[f64]| {
            let y: Vec<f64> = x.iter().map(|c| 4.0 * c - 2.0).collect();
            -(0..3).map(|i| 100.0 * (y[i + 1] - y[i] * y[i]).powi(2) + (1.0 - y[i]).powi(2)).sum::<f64>()
        };
        let (x, v) = optimise(4, 800, 3, rosenbrock);
        assert!(v > -1e-8, "f = {v} at {x:?}");
        assert!(x.iter().all(|&c| (c - 0.75).abs() < 1e-3), "{x:?}");
    }

    /// The decomposition is refreshed once the covariance has moved enough: every generation or
    /// two for a few parameters, every ~22nd for the whole evaluation; the kept one is exact
    /// for the covariance of its generation.
    #[test]
    fn the_decomposition_is_refreshed_lazily() {
        let gap = |n: usize, lambda: usize| Rates::new(n, lambda).lazy_gap;
        assert!(gap(8, default_lambda(8)) < 2.0, "{}", gap(8, default_lambda(8)));
        assert!(gap(34, default_lambda(34)) < 4.0, "{}", gap(34, default_lambda(34)));
        assert!((15.0..25.0).contains(&gap(1071, 50)), "{}", gap(1071, 50));
        let mut cma = Cmaes::new(vec![0.5; 8], 0.3, default_lambda(8));
        let mut refreshed = 0;
        for g in 0..12 {
            let points = cma.ask(&mut StdRng::seed_from_u64(g));
            let fitness: Vec<f64> = points.iter().map(|x| -x.iter().map(|c| (c - 0.3).powi(2)).sum::<f64>()).collect();
            cma.tell(&points, &fitness);
            let d = cma.decomposition.clone().unwrap();
            assert!((cma.generations - d.generation) as f64 <= gap(8, default_lambda(8)));
            if d.generation == cma.generations {
                refreshed += 1;
                assert_eq!((d.values, d.vectors), eigen(&cma.cov));
            }
        }
        assert!((4..12).contains(&refreshed), "{refreshed} refreshes in 12 generations");
    }

    #[test]
    fn the_state_survives_a_checkpoint() {
        let mut cma = Cmaes::new(vec![0.5; 3], 0.3, 7);
        let mut rng = StdRng::seed_from_u64(9);
        let points = cma.ask(&mut rng);
        let fitness: Vec<f64> = points.iter().map(|x| -x[0]).collect();
        cma.tell(&points, &fitness);
        let back: Cmaes = serde_json::from_str(&serde_json::to_string(&cma).unwrap()).unwrap();
        assert_eq!(back, cma);
        let mut a = StdRng::seed_from_u64(10);
        let mut b = StdRng::seed_from_u64(10);
        assert_eq!(back.ask(&mut a), cma.ask(&mut b));
    }

    /// Run by hand, never in CI (`.ci/run` skips `manual::`): the decomposition's cost at the
    /// whole evaluation's size, `cargo test --release -p tuner --lib cmaes::tests::manual --
    /// --ignored --nocapture` (`EIGEN_N` sets the dimension, default 1,071).
    mod manual {
        use std::time::Instant;

        use super::*;

        #[test]
        #[ignore = "benchmark; run in release"]
        fn eigen_speed() {
            let n = std::env::var("EIGEN_N").ok().and_then(|n| n.parse().ok()).unwrap_or(1071);
            let m = random_covariance(n, 1);
            let start = Instant::now();
            let (values, vectors) = eigen(&m);
            let fast = start.elapsed();
            assert_decomposes(&m, &values, &vectors, 1e-9);
            println!("n {n}: Householder + QL {:.3} s", fast.as_secs_f64());
            if n <= 400 {
                let start = Instant::now();
                jacobi(&m);
                println!("n {n}: Jacobi {:.3} s", start.elapsed().as_secs_f64());
            }
        }
    }
}
