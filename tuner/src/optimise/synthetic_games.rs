//! A synthetic game objective with a known answer, for trusting a game-playing tuner before it
//! spends real games (the project's rule: a method is trusted only after it recovers a known
//! answer).
//!
//! [`Landscape`] gives every parameter vector a true Elo against the start,
//! `−Σ ((x_i − x*_i) / s_i)²` shifted so that the start is 0, with a hidden optimum `x*`. Its
//! scales are set from each gene's `c_end` so that a mutant one `c_end` from its parent in every
//! gene (`z ~ N(0, I)`) costs `mutant_cost` Elo on average, the calibration issue 89 asks of
//! real mutants; the optimum is placed in a seeded random direction, inside the ranges, so that
//! the start is `gap` Elo below it. [`GameModel`] plays game pairs from that Elo with draws
//! (the expected score logistic in Elo) and unbalanced openings (each opening favours White by its own
//! seeded margin, as UHO books do), so a pair's two games are correlated as real ones are.
//! [`SEARCH_GENES`] are 70 of the engine's numeric search parameters as `evochess params
//! --spsa` printed them (a snapshot, so that the known answer does not move with the engine).

use rand::{Rng, SeedableRng, rngs::StdRng};
use rand_distr::StandardNormal;
use serde::{Deserialize, Serialize};

use super::{es::GroupSpec, halving::Record};
use crate::{hash::mix64, spsa::SpsaParam};

/// 70 numeric search parameters of the engine (`name, int, value, min, max, c_end, r_end`).
pub const SEARCH_GENES: &str = "\
null_move_reduction, int, 3, 0, 7, 1.00, 0.002
null_move_adaptivity_depth, int, 6, 0, 7, 1.00, 0.002
futility_depth, int, 3, 0, 3, 0.75, 0.002
futility_margin_1, int, 112, 0, 1023, 10.23, 0.002
futility_margin_2, int, 227, 0, 1023, 11.35, 0.002
futility_margin_3, int, 400, 0, 1023, 20.00, 0.002
check_extension, int, 4, 0, 4, 1.00, 0.002
one_reply_extension, int, 4, 0, 4, 1.00, 0.002
recapture_extension, int, 2, 0, 4, 1.00, 0.002
passed_pawn_extension, int, 3, 0, 4, 1.00, 0.002
mate_threat_extension, int, 2, 0, 4, 1.00, 0.002
null_move_depth_divisor, int, 5, 0, 16, 1.00, 0.002
null_move_eval_divisor, int, 200, 0, 1000, 10.00, 0.002
null_move_min_depth, int, 2, 1, 8, 1.00, 0.002
null_move_static_margin, int, 20, 0, 100, 1.00, 0.002
null_move_eval_reduction_max, int, 3, 0, 7, 1.00, 0.002
lmr_base, int, 75, 0, 300, 3.75, 0.002
lmr_divisor, int, 225, 100, 600, 11.25, 0.002
lmr_min_depth, int, 3, 1, 8, 1.00, 0.002
lmr_min_move, int, 3, 1, 16, 1.00, 0.002
lmr_history_divisor, int, 2048, 256, 16384, 161.28, 0.002
aspiration_delta, int, 20, 5, 200, 1.95, 0.002
aspiration_growth_percent, int, 60, 10, 300, 3.00, 0.002
aspiration_min_depth, int, 5, 1, 16, 1.00, 0.002
delta_margin, int, 200, 0, 1000, 10.00, 0.002
qsearch_see_threshold, int, 1, -300, 300, 6.00, 0.002
qsearch_see_futility_margin, int, 100, 0, 500, 5.00, 0.002
qsearch_quiet_evasions, int, 0, 0, 8, 1.00, 0.002
rfp_depth, int, 8, 0, 12, 1.00, 0.002
rfp_margin, int, 75, 20, 300, 3.75, 0.002
rfp_improving_margin, int, 60, 0, 300, 3.00, 0.002
lmp_depth, int, 8, 0, 16, 1.00, 0.002
lmp_base, int, 3, 0, 20, 1.00, 0.002
see_depth, int, 8, 0, 16, 1.00, 0.002
see_quiet_margin, int, 60, 0, 300, 3.00, 0.002
see_capture_margin, int, 25, 0, 300, 3.00, 0.002
see_quiet_check_depth, int, 5, 0, 16, 1.00, 0.002
see_quiet_check_extra_margin, int, 0, 0, 300, 3.00, 0.002
iir_min_depth, int, 4, 0, 16, 1.00, 0.002
history_bonus_mul, int, 300, 0, 1024, 15.00, 0.002
history_bonus_sub, int, 250, 0, 1024, 12.50, 0.002
history_bonus_max, int, 2400, 128, 16384, 162.56, 0.002
history_futility_depth, int, 8, 0, 16, 1.00, 0.002
history_futility_margin, int, 65, 0, 300, 3.25, 0.002
history_futility_limit, int, 12000, -16384, 49152, 655.36, 0.002
history_futility_limit_improving, int, 6000, -16384, 49152, 655.36, 0.002
history_prune_depth, int, 3, 0, 8, 1.00, 0.002
countermove_prune_limit, int, 0, -16384, 16384, 327.68, 0.002
countermove_prune_limit_improving, int, -1000, -16384, 16384, 327.68, 0.002
followup_prune_limit, int, -2000, -16384, 16384, 327.68, 0.002
followup_prune_limit_improving, int, -4000, -16384, 16384, 327.68, 0.002
probcut_margin, int, 100, 0, 500, 5.00, 0.002
singular_min_depth, int, 6, 0, 16, 1.00, 0.002
singular_tt_depth_margin, int, 3, 0, 8, 1.00, 0.002
singular_margin, int, 2, 0, 20, 1.00, 0.002
singular_double_margin, int, 20, 0, 200, 2.00, 0.002
singular_double_max, int, 6, 0, 16, 1.00, 0.002
singular_negative_extension, int, 4, 0, 8, 1.00, 0.002
lmr_tt_noisy, int, 4, 0, 8, 1.00, 0.002
lmr_deeper_margin, int, 64, 0, 500, 5.00, 0.002
lmr_deeper_per_ply, int, 11, 0, 100, 1.00, 0.002
corr_pawn_weight, int, 420, 0, 1024, 21.00, 0.002
corr_non_pawn_weight, int, 460, 0, 1024, 23.00, 0.002
lmr_tt_pv, int, 4, 0, 16, 1.00, 0.002
threat_escape_bonus, int, 8192, 0, 32768, 409.60, 0.002
capture_history_weight, int, 32, 0, 4096, 40.96, 0.002
lmr_cut_node, int, 4, 0, 12, 1.00, 0.002
capture_futility_margin, int, 65, 0, 1000, 10.00, 0.002
capture_futility_per_ply, int, 60, 0, 500, 5.00, 0.002
singular_cut_node_extension, int, 0, 0, 8, 1.00, 0.002
";

/// Groups of [`SEARCH_GENES`] for a per-group step size, as a coevolve config would give them.
pub const SEARCH_GROUPS: [(&str, &[&str]); 5] = [
    (
        "pruning",
        &["futility_*", "rfp_*", "lmp_*", "see_*", "probcut_*", "capture_futility_*", "delta_margin", "qsearch_*"],
    ),
    ("lmr", &["lmr_*"]),
    ("null_move", &["null_move_*"]),
    ("extensions", &["*_extension", "singular_*"]),
    ("history", &["history_*", "countermove_*", "followup_*", "capture_history_*", "threat_*"]),
];

/// [`SEARCH_GROUPS`] as the ES takes them.
pub fn search_groups() -> Vec<GroupSpec> {
    SEARCH_GROUPS
        .iter()
        .map(|(name, patterns)| GroupSpec {
            name: (*name).to_string(),
            patterns: patterns.iter().map(|p| (*p).to_string()).collect(),
            sigma: None,
        })
        .collect()
}

/// How a game between two engines `d` Elo apart ends.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameModel {
    /// The share of draws between equals. A game whose expected score is `E = L(d)` (logistic
    /// Elo) is drawn with probability `draws · 2·min(E, 1 − E)` and won with `E − P(draw)/2`,
    /// so the expected score stays exactly `E` and Elo keep their meaning.
    pub draws: f64,
    /// The mean and spread of the openings' margin for White, in Elo.
    pub white_margin: f64,
    pub margin_sd: f64,
}

impl Default for GameModel {
    /// Half the games drawn at equal strength, White +90 Elo from a typical opening.
    fn default() -> Self {
        GameModel { draws: 0.5, white_margin: 90.0, margin_sd: 50.0 }
    }
}

/// The logistic expected score of an Elo difference.
pub fn logistic(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl GameModel {
    /// White's points in one game where White is `d` Elo stronger (the opening included).
    pub fn game(&self, d: f64, rng: &mut impl Rng) -> f64 {
        let e = logistic(d);
        let draw = self.draws * 2.0 * e.min(1.0 - e);
        let u: f64 = rng.random();
        if u < e - draw / 2.0 {
            1.0
        } else if u < e + draw / 2.0 {
            0.5
        } else {
            0.0
        }
    }

    /// Opening `opening`'s margin for White: the same for every game on it in a run of `seed`.
    pub fn margin(&self, seed: u64, opening: u64) -> f64 {
        let mut rng = StdRng::seed_from_u64(mix64(seed ^ mix64(opening)));
        self.white_margin + self.margin_sd * rng.sample::<f64, _>(StandardNormal)
    }

    /// A game pair on an opening with White's `margin`: the candidate, `d` Elo stronger than
    /// its opponent, plays White then Black.
    pub fn pair(&self, d: f64, margin: f64, rng: &mut impl Rng) -> Record {
        let white = self.game(d + margin, rng);
        let black = 1.0 - self.game(margin - d, rng);
        Record::pair(white, black)
    }
}

/// A quadratic Elo landscape over integer genes with a hidden optimum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Landscape {
    pub genes: Vec<SpsaParam>,
    pub optimum: Vec<f64>,
    /// Each gene's Elo scale `s_i`: a distance of `s_i` costs 1 Elo.
    pub scale: Vec<f64>,
    /// The unshifted value at the start, so that [`Landscape::elo`] of the start is 0.
    offset: f64,
}

impl Landscape {
    /// A landscape whose `c_end`-sized mutants cost `mutant_cost` Elo and whose start (the
    /// genes' values) is `gap` Elo below the optimum, placed in a direction drawn from `seed`.
    pub fn new(genes: Vec<SpsaParam>, mutant_cost: f64, gap: f64, seed: u64) -> Landscape {
        let n = genes.len() as f64;
        let scale: Vec<f64> = genes.iter().map(|g| g.c_end * (n / mutant_cost).sqrt()).collect();
        let mut rng = StdRng::seed_from_u64(seed);
        let dir: Vec<f64> = genes.iter().map(|_| rng.sample::<f64, _>(StandardNormal)).collect();
        let at = |k: f64| -> Vec<f64> {
            genes.iter().zip(&dir).zip(&scale).map(|((g, d), s)| (g.value + k * d * s).clamp(g.min, g.max)).collect()
        };
        let cost =
            |x: &[f64]| -> f64 { genes.iter().zip(x).zip(&scale).map(|((g, x), s)| ((g.value - x) / s).powi(2)).sum() };
        // The ranges clip the optimum, so the step along `dir` that makes the gap is found by
        // bisection (the cost grows with the step).
        let (mut lo, mut hi) = (0.0, 1.0);
        while cost(&at(hi)) < gap && hi < 1e6 {
            hi *= 2.0;
        }
        for _ in 0..100 {
            let mid = (lo + hi) / 2.0;
            if cost(&at(mid)) < gap { lo = mid } else { hi = mid }
        }
        let optimum = at(hi);
        let mut l = Landscape { genes, optimum, scale, offset: 0.0 };
        let start: Vec<f64> = l.genes.iter().map(|g| g.value).collect();
        l.offset = l.raw(&start);
        l
    }

    fn raw(&self, x: &[f64]) -> f64 {
        -x.iter().zip(&self.optimum).zip(&self.scale).map(|((x, o), s)| ((x - o) / s).powi(2)).sum::<f64>()
    }

    /// The true Elo of `x` against the start.
    pub fn elo(&self, x: &[f64]) -> f64 {
        self.raw(x) - self.offset
    }

    /// The true Elo of the optimum against the start: the most a tuner can gain.
    pub fn headroom(&self) -> f64 {
        self.elo(&self.optimum.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spsa::parse_lines;

    #[test]
    fn the_landscape_has_its_gap_and_its_mutant_cost() {
        let genes = parse_lines(SEARCH_GENES).unwrap();
        assert_eq!(genes.len(), 70);
        let l = Landscape::new(genes.clone(), 10.0, 30.0, 3);
        assert!((l.headroom() - 30.0).abs() < 1e-6, "{}", l.headroom());
        let start: Vec<f64> = genes.iter().map(|g| g.value).collect();
        assert_eq!(l.elo(&start), 0.0);
        assert!(l.optimum.iter().zip(&genes).all(|(o, g)| (g.min..=g.max).contains(o)));
        // Mutants one c_end around the optimum cost 10 Elo on average.
        let mut rng = StdRng::seed_from_u64(1);
        let trials = 4000;
        let mut cost = 0.0;
        for _ in 0..trials {
            let x: Vec<f64> =
                l.optimum.iter().zip(&genes).map(|(o, g)| o + g.c_end * rng.sample::<f64, _>(StandardNormal)).collect();
            cost += l.headroom() - l.elo(&x);
        }
        let cost = cost / f64::from(trials);
        assert!((cost - 10.0).abs() < 0.3, "{cost}");
        assert_ne!(l.optimum, Landscape::new(genes, 10.0, 30.0, 4).optimum, "the seed places the optimum");
    }

    #[test]
    fn games_follow_the_logistic_model_with_draws_and_pairs_share_their_opening() {
        let m = GameModel::default();
        let mut rng = StdRng::seed_from_u64(2);
        let (mut even, mut ahead) = (Record::default(), Record::default());
        for opening in 0..20_000 {
            even.add(&m.pair(0.0, m.margin(7, opening), &mut rng));
            ahead.add(&m.pair(50.0, m.margin(7, opening), &mut rng));
        }
        assert!((even.score() - 0.5).abs() < 0.01, "{}", even.score());
        // Half of the games between equals drawn on a balanced opening, fewer on White's +90:
        // 0.5 · 2 · (1 − L(90)) = 0.373.
        let draws = even.wdl.draw_ratio();
        assert!((draws - 0.373).abs() < 0.03, "{draws}");
        // 50 Elo stronger scores (L(140) + 1 − L(40))/2 = 0.568 on a +90 opening: 47.6 Elo.
        let elo = ahead.penta.elo().unwrap().elo;
        assert!((elo - 47.6).abs() < 6.0, "{elo}");
        // White's margin makes split pairs (a win with White, a loss with Black) common.
        assert!(even.penta.wl > even.penta.ww, "{:?}", even.penta);
        assert_eq!(m.margin(7, 3), m.margin(7, 3));
        assert_ne!(m.margin(7, 3), m.margin(8, 3));
        let mut r = Record::pair(1.0, 0.5);
        r.add(&Record::pair(0.0, 0.0));
        assert_eq!((r.games(), r.score(), r.penta.wd, r.penta.ll), (4, 0.375, 1, 1));
        assert_eq!(Record::default().score(), 0.5);
    }
}
