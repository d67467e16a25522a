//! Bradley–Terry ratings: maximum-likelihood Elo of N players from an unbalanced set of pairwise
//! results (a racing schedule, a partial round robin), where a score percentage misleads: a
//! player that met only the strong scores less than an equal one that met the weak.
//!
//! Model: P(i beats j) = 1 / (1 + 10^((R_j − R_i)/400)). A draw counts as half a win and half a
//! loss (the score likelihood Π p^s·(1 − p)^(n − s), as Ordo and BayesElo without its draw
//! parameter): with two players the fit is the logistic Elo of the score, the convention of every
//! other Elo figure here. Davidson's draw model is not used.
//!
//! Fit: Newton's method on the log-likelihood in natural units (θ = R·ln 10/400), from θ = 0, with
//! the step halved while it would lower the likelihood. The log-likelihood is concave, so the fit
//! converges in a handful of iterations for the tens of players of a coevolution (Hunter 2004's
//! MM algorithm reaches the same point, linearly rather than quadratically).
//!
//! Prior: `prior_draws` virtual draws of each player against a virtual opponent rated at the
//! field's centre (0). A player with only wins or only losses, or a group of players never
//! matched against the rest both ways, has no finite maximum-likelihood rating; the virtual draws
//! give every player a finite one, pulled toward the centre by what the drawn games weigh beside
//! its real ones (one draw against 40 games: a few Elo). With `prior_draws = 0` such input is an
//! error that names the player.
//!
//! Anchor and errors: the ratings are shifted to mean 0, and each one's standard error is that of
//! its difference from the field's mean, from the observed information I (the negative Hessian at
//! the optimum): the diagonal of C·I⁻¹·C, with C the centring matrix (without the prior, I's
//! pseudo-inverse, centred already). The binomial information ignores that draws make a game's
//! score vary less, so with draws the errors are somewhat too wide, never too narrow.

use thiserror::Error;

use super::Wdl;

/// θ per Elo point.
const NATURAL: f64 = std::f64::consts::LN_10 / 400.0;
const MAX_ITERATIONS: usize = 200;
/// Largest change of any θ (natural units, about 2e-8 Elo) at which the fit has converged.
const TOLERANCE: f64 = 1e-10;

/// The fitted ratings, in the players' order.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Elo of each player; their mean is 0.
    pub elo: Vec<f64>,
    /// Standard error (one sigma, Elo) of each rating's difference from the field's mean.
    pub error: Vec<f64>,
    /// Newton iterations the fit took.
    pub iterations: usize,
}

/// Why results could not be rated.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum RatingsError {
    #[error("a result names player {index}, but there are {players} players (0 to {})", players.saturating_sub(1))]
    UnknownPlayer { index: usize, players: usize },
    #[error("a result pairs player {0} with itself")]
    SelfPlay(usize),
    #[error("prior_draws = {0}: it must be a finite number, at least 0")]
    Prior(f64),
    #[error("no finite maximum-likelihood ratings without a prior: {0}")]
    Infinite(String),
    #[error("the Bradley-Terry fit did not converge in {0} iterations")]
    NoConvergence(usize),
}

/// Each pair's games and points (`points[i][j]`: i's points against j), symmetric in games.
struct Table {
    games: Vec<Vec<f64>>,
    points: Vec<Vec<f64>>,
}

/// Ratings of `players` players from `results`, each `(a, b, wdl)` with `wdl` a's wins, draws and
/// losses against b (a pair may appear more than once; its results add up), with `prior_draws`
/// virtual draws per player against the field's centre (see the module docs; 1 is a good
/// default, 0 the plain maximum likelihood).
pub fn fit(players: usize, results: &[(usize, usize, Wdl)], prior_draws: f64) -> Result<Ratings, RatingsError> {
    if !(prior_draws.is_finite() && prior_draws >= 0.0) {
        return Err(RatingsError::Prior(prior_draws));
    }
    let n = players;
    let mut t = Table { games: vec![vec![0.0; n]; n], points: vec![vec![0.0; n]; n] };
    for &(a, b, wdl) in results {
        if let Some(&index) = [a, b].iter().find(|&&i| i >= n) {
            return Err(RatingsError::UnknownPlayer { index, players: n });
        }
        if a == b {
            return Err(RatingsError::SelfPlay(a));
        }
        let games = wdl.games() as f64;
        let points = wdl.wins as f64 + wdl.draws as f64 / 2.0;
        t.games[a][b] += games;
        t.games[b][a] += games;
        t.points[a][b] += points;
        t.points[b][a] += games - points;
    }
    if n == 0 {
        return Ok(Ratings { elo: Vec::new(), error: Vec::new(), iterations: 0 });
    }
    if prior_draws == 0.0 {
        check_finite(&t)?;
    }
    let mut theta = vec![0.0; n];
    let mut ll = log_likelihood(&t, &theta, prior_draws);
    let mut iterations = 0;
    loop {
        if iterations == MAX_ITERATIONS {
            return Err(RatingsError::NoConvergence(MAX_ITERATIONS));
        }
        iterations += 1;
        let (gradient, info) = derivatives(&t, &theta, prior_draws);
        let system = gauge(info, prior_draws);
        let inverse = invert(system).ok_or_else(singular)?;
        let step: Vec<f64> = inverse.iter().map(|row| row.iter().zip(&gradient).map(|(a, g)| a * g).sum()).collect();
        // Halve the step while it lowers the likelihood (never, near the optimum); a step that
        // no halving helps means the optimum is reached to rounding.
        let mut scale = 1.0;
        let mut moved = None;
        for _ in 0..60 {
            let trial: Vec<f64> = theta.iter().zip(&step).map(|(x, d)| x + scale * d).collect();
            let l = log_likelihood(&t, &trial, prior_draws);
            if l >= ll - 1e-12 * (1.0 + ll.abs()) {
                moved = Some(step.iter().map(|d| (scale * d).abs()).fold(0.0, f64::max));
                theta = trial;
                ll = l;
                break;
            }
            scale /= 2.0;
        }
        match moved {
            Some(m) if m >= TOLERANCE => {}
            _ => break,
        }
    }
    let (_, info) = derivatives(&t, &theta, prior_draws);
    let inverse = invert(gauge(info, prior_draws)).ok_or_else(singular)?;
    let covariance: Vec<Vec<f64>> = if prior_draws == 0.0 {
        // (I + J/n)⁻¹ − J/n is I's pseudo-inverse: I's null space is the common shift.
        let shift = 1.0 / n as f64;
        inverse.iter().map(|row| row.iter().map(|v| v - shift).collect()).collect()
    } else {
        centred(&inverse)
    };
    let mean = theta.iter().sum::<f64>() / n as f64;
    Ok(Ratings {
        elo: theta.iter().map(|x| (x - mean) / NATURAL).collect(),
        error: (0..n).map(|i| covariance[i][i].max(0.0).sqrt() / NATURAL).collect(),
        iterations,
    })
}

fn singular() -> RatingsError {
    RatingsError::Infinite("the information matrix is singular".into())
}

/// P(x beats y) for θ difference `d`.
fn sigmoid(d: f64) -> f64 {
    1.0 / (1.0 + (-d).exp())
}

/// ln σ(d), without overflow for large |d|.
fn ln_sigmoid(d: f64) -> f64 {
    if d >= 0.0 { -(-d).exp().ln_1p() } else { d - d.exp().ln_1p() }
}

fn log_likelihood(t: &Table, theta: &[f64], prior: f64) -> f64 {
    let n = theta.len();
    let mut ll = 0.0;
    for i in 0..n {
        for j in 0..n {
            if t.points[i][j] > 0.0 {
                ll += t.points[i][j] * ln_sigmoid(theta[i] - theta[j]);
            }
        }
        ll += prior * 0.5 * (ln_sigmoid(theta[i]) + ln_sigmoid(-theta[i]));
    }
    ll
}

/// The gradient and the observed information (negative Hessian) at `theta`.
fn derivatives(t: &Table, theta: &[f64], prior: f64) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = theta.len();
    let mut gradient = vec![0.0; n];
    let mut info = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i == j || t.games[i][j] == 0.0 {
                continue;
            }
            let p = sigmoid(theta[i] - theta[j]);
            gradient[i] += t.points[i][j] - t.games[i][j] * p;
            let w = t.games[i][j] * p * (1.0 - p);
            info[i][i] += w;
            info[i][j] -= w;
        }
        let p = sigmoid(theta[i]);
        gradient[i] += prior * (0.5 - p);
        info[i][i] += prior * p * (1.0 - p);
    }
    (gradient, info)
}

/// Without the prior the likelihood ignores a common shift of every rating, and I is singular
/// along it: I + J/n is invertible and, on gradients summing to 0 (as they do then), gives the
/// Newton step that keeps the ratings' mean.
fn gauge(mut info: Vec<Vec<f64>>, prior: f64) -> Vec<Vec<f64>> {
    if prior == 0.0 {
        let shift = 1.0 / info.len() as f64;
        info.iter_mut().flatten().for_each(|v| *v += shift);
    }
    info
}

/// C·A·C with C = Id − J/n: the covariance of differences from the mean.
fn centred(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len() as f64;
    let rows: Vec<f64> = a.iter().map(|r| r.iter().sum::<f64>() / n).collect();
    let cols: Vec<f64> = (0..a.len()).map(|j| a.iter().map(|r| r[j]).sum::<f64>() / n).collect();
    let all = rows.iter().sum::<f64>() / n;
    a.iter()
        .enumerate()
        .map(|(i, r)| r.iter().enumerate().map(|(j, v)| v - rows[i] - cols[j] + all).collect())
        .collect()
}

/// Gauss–Jordan inverse with partial pivoting; `None` when singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inv: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
    let scale = a.iter().flatten().fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[p][c].abs() <= 1e-13 * scale {
            return None;
        }
        a.swap(c, p);
        inv.swap(c, p);
        let d = a[c][c];
        a[c].iter_mut().for_each(|v| *v /= d);
        inv[c].iter_mut().for_each(|v| *v /= d);
        for r in 0..n {
            if r != c && a[r][c] != 0.0 {
                let f = a[r][c];
                for k in 0..n {
                    a[r][k] -= f * a[c][k];
                    inv[r][k] -= f * inv[c][k];
                }
            }
        }
    }
    Some(inv)
}

/// Without a prior, finite ratings exist exactly when every player can be reached from every
/// other by a chain of "scored against" (Hunter 2004, Assumption 1); otherwise names a player
/// that breaks it.
fn check_finite(t: &Table) -> Result<(), RatingsError> {
    let n = t.games.len();
    for i in 0..n {
        let games: f64 = t.games[i].iter().sum();
        let points: f64 = t.points[i].iter().sum();
        let what = if games == 0.0 {
            "played no game"
        } else if points == 0.0 {
            "lost every game"
        } else if points == games {
            "won every game"
        } else {
            continue;
        };
        return Err(RatingsError::Infinite(format!("player {i} {what}")));
    }
    // From player 0 along "scored against" edges, then against them.
    for forward in [true, false] {
        let mut seen = vec![false; n];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            let unseen: Vec<usize> = (0..n)
                .filter(|&j| !seen[j] && if forward { t.points[i][j] > 0.0 } else { t.points[j][i] > 0.0 })
                .collect();
            for j in unseen {
                seen[j] = true;
                stack.push(j);
            }
        }
        if let Some(j) = seen.iter().position(|s| !s) {
            let (from, to) = if forward { (0, j) } else { (j, 0) };
            return Err(RatingsError::Infinite(format!(
                "no chain of players each scoring against the next leads from player {from} to player {to} (a group \
                 that never played the rest, or won or lost every game against it)"
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng, rngs::StdRng};

    use super::*;
    use crate::stats::elo::{elo_from_score, score_from_elo};

    fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl { wins, draws, losses }
    }

    #[test]
    fn two_players_get_the_logistic_elo_of_their_score() {
        let r = fit(2, &[(0, 1, wdl(30, 20, 10))], 0.0).unwrap();
        let s = 40.0 / 60.0;
        let diff = elo_from_score(s);
        assert!((r.elo[0] - r.elo[1] - diff).abs() < 1e-6, "{r:?}, expected {diff}");
        assert!((r.elo[0] + r.elo[1]).abs() < 1e-9, "anchored at mean 0: {r:?}");
        // Each rating is half the difference from the mean, so half its error:
        // sd(θ0 − θ1) = 1/√(n·p·(1 − p)).
        let se_diff = 1.0 / (60.0 * s * (1.0 - s)).sqrt() / NATURAL;
        for e in &r.error {
            assert!((e - se_diff / 2.0).abs() < 1e-6, "{r:?}, expected {}", se_diff / 2.0);
        }
        // The same results listed from the other side, and split over two entries.
        let flipped = fit(2, &[(1, 0, wdl(5, 10, 15)), (1, 0, wdl(5, 10, 15))], 0.0).unwrap();
        assert!((flipped.elo[0] - r.elo[0]).abs() < 1e-6, "{flipped:?}");
        // The prior pulls toward the centre a little, never past it.
        let pulled = fit(2, &[(0, 1, wdl(30, 20, 10))], 1.0).unwrap();
        assert!(pulled.elo[0] > 0.9 * r.elo[0] && pulled.elo[0] < r.elo[0], "{pulled:?}");
    }

    /// Games drawn with a seeded RNG from known ratings, 20% draws, every pair (a round
    /// robin) or only neighbours and a few long pairs (unbalanced, as racing leaves them).
    #[test]
    fn recovers_known_ratings_within_their_error() {
        // Within ±381 Elo of each other, so that a 20% draw rate leaves every score reachable.
        let truth = [-180.0, -100.0, -40.0, 0.0, 50.0, 110.0, 160.0];
        let n = truth.len();
        let mut rng = StdRng::seed_from_u64(45);
        let mut play = |a: usize, b: usize, games: u64| {
            let s = score_from_elo(truth[a] - truth[b]);
            let (win, draw) = (s - 0.1, 0.2);
            let mut w = Wdl::default();
            for _ in 0..games {
                let u: f64 = rng.random();
                w.add(if u < win {
                    1.0
                } else if u < win + draw {
                    0.5
                } else {
                    0.0
                });
            }
            (a, b, w)
        };
        let mut full = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                full.push(play(a, b, 200));
            }
        }
        let mut sparse: Vec<_> = (0..n - 1).map(|a| play(a, a + 1, 300)).collect();
        sparse.extend([play(0, 6, 100), play(1, 4, 100), play(2, 5, 100), play(3, 0, 100)]);
        for (what, results) in [("round robin", &full), ("unbalanced", &sparse)] {
            for prior in [0.0, 1.0] {
                let r = fit(n, results, prior).unwrap();
                assert!((r.elo.iter().sum::<f64>()).abs() < 1e-6, "{what}: mean 0: {r:?}");
                for (i, (elo, error)) in r.elo.iter().zip(&r.error).enumerate() {
                    assert!(
                        (elo - truth[i]).abs() < 3.0 * error,
                        "{what}, prior {prior}: player {i} rated {elo:.1} +/- {error:.1}, truly {}",
                        truth[i]
                    );
                    assert!(*error > 5.0 && *error < 80.0, "{what}: {r:?}");
                }
            }
        }
        // More games, smaller errors.
        let few = fit(n, &sparse[..n - 1], 1.0).unwrap();
        let many = fit(n, &sparse, 1.0).unwrap();
        assert!(few.error[0] > many.error[0], "{few:?} {many:?}");
    }

    #[test]
    fn only_wins_or_only_losses_need_the_prior() {
        let results = [(0, 1, wdl(4, 0, 0)), (1, 2, wdl(1, 2, 1)), (2, 0, wdl(0, 0, 4))];
        let e = fit(3, &results, 0.0).unwrap_err();
        assert_eq!(e, RatingsError::Infinite("player 0 won every game".into()));
        assert!(e.to_string().contains("without a prior"), "{e}");
        let e = fit(3, &[(0, 1, wdl(1, 0, 1)), (2, 1, wdl(0, 0, 2))], 0.0).unwrap_err();
        assert_eq!(e, RatingsError::Infinite("player 2 lost every game".into()));
        let r = fit(3, &results, 1.0).unwrap();
        assert!(r.elo.iter().chain(&r.error).all(|x| x.is_finite()), "{r:?}");
        assert!(r.elo[0] > r.elo[1] && r.elo[0] > r.elo[2], "{r:?}");
        assert!(r.elo[0] < 800.0, "the prior keeps two 4-0 wins from flying off: {r:?}");
    }

    #[test]
    fn disconnected_and_degenerate_input_does_not_panic() {
        // Two groups that never met: no common scale without the prior.
        let groups = [(0, 1, wdl(3, 1, 1)), (2, 3, wdl(1, 1, 3))];
        let e = fit(4, &groups, 0.0).unwrap_err().to_string();
        assert!(e.contains("player 0") && e.contains("player 2"), "{e}");
        let r = fit(4, &groups, 1.0).unwrap();
        assert!(r.elo[0] > r.elo[1] && r.elo[3] > r.elo[2], "{r:?}");
        assert!(r.error.iter().all(|e| e.is_finite() && *e > 0.0), "{r:?}");
        // A group that won every game against the rest, though each player has a loss.
        let dominated = [(0, 1, wdl(1, 0, 1)), (2, 3, wdl(1, 0, 1)), (0, 2, wdl(2, 0, 0)), (1, 3, wdl(2, 0, 0))];
        let e = fit(4, &dominated, 0.0).unwrap_err().to_string();
        assert!(e.contains("no chain"), "{e}");
        // A player without games is rated at the centre with a wide error.
        let r = fit(3, &[(0, 1, wdl(5, 5, 5))], 1.0).unwrap();
        assert!(r.elo.iter().all(|e| e.abs() < 1e-6), "{r:?}");
        assert!(r.error[2] > 200.0 && r.error[2] > r.error[0], "{r:?}");
        assert_eq!(
            fit(3, &[(0, 1, wdl(5, 5, 5))], 0.0).unwrap_err(),
            RatingsError::Infinite("player 2 played no game".into())
        );
        // No players, one player, no games, lopsided counts.
        assert_eq!(fit(0, &[], 0.0).unwrap().elo, Vec::<f64>::new());
        assert_eq!(fit(1, &[], 1.0).unwrap().elo, vec![0.0]);
        assert_eq!(fit(2, &[], 1.0).unwrap().elo, vec![0.0, 0.0]);
        let r = fit(2, &[(0, 1, wdl(1_000_000, 0, 1))], 0.0).unwrap();
        assert!(r.elo[0].is_finite() && r.elo[0] > 1000.0, "{r:?}");
        // Bad input is an error naming it.
        assert_eq!(
            fit(2, &[(0, 2, wdl(1, 0, 0))], 1.0).unwrap_err(),
            RatingsError::UnknownPlayer { index: 2, players: 2 }
        );
        assert_eq!(fit(2, &[(1, 1, wdl(1, 0, 0))], 1.0).unwrap_err(), RatingsError::SelfPlay(1));
        assert_eq!(fit(2, &[], -1.0).unwrap_err(), RatingsError::Prior(-1.0));
        assert!(matches!(fit(2, &[], f64::NAN).unwrap_err(), RatingsError::Prior(_)));
    }
}
