//! Traced evaluation: each evaluation parameter's coefficient in a position, for gradient
//! tuning over millions of positions without calling [`super::evaluate`] in the loop.
//!
//! Mechanism: **base evaluation plus per-parameter deltas** (Ethereal's tuner, done without
//! hand-written trace code). [`Tracer::trace`] evaluates the position's [`Breakdown`] once with
//! the parameters, then once more per linear parameter with that parameter raised by
//! [`BUMP`], and reads the change in the *untapered* parts of the breakdown: the packed
//! middlegame and endgame sums `s`, and the flat part (king shelter plus tempo). Every term is
//! `coefficient × parameter` in those parts, so the changes are exact integers: `BUMP × c_mg`,
//! `BUMP × c_eg`, and `BUMP × c_flat` where the shelter's `/ 12` makes `c_flat` a twelfth
//! (`BUMP` = 12 keeps it an integer: a [`Coef::flat12`]). The tapering, `phase / 24` and
//! `eg_scale / 100`, is left to the consumer ([`Trace::white_eval`]). Because the coefficients
//! come from `declare_params!`'s `ParamSection::get`/`set_unchecked` and the real
//! `breakdown()`, a new term is traced as soon as it is declared and evaluated; the evaluation's
//! hot path is untouched.
//!
//! Three economies keep a trace near 60 evaluations instead of 600: the per-square terms'
//! coefficients are read off the board (a piece count per square), the other parameters that
//! move the piece-square profiles (found by bumping each once, at [`Tracer::new`]) are traced
//! through the piece-square sum alone, and the rest two per evaluation (the second raised
//! [`PAIR_RADIX`] times as far, the two changes read back as the low and high digits).
//!
//! **King danger** (as Ethereal's tuner traces its king safety): per side, `−max(u, 0)² /
//! ks_mg_divisor` in the middlegame and `−max(u, 0) / ks_eg_divisor` in the endgame, where the
//! attack units `u = Σ c_j · w_j` are linear in the thirteen weights of
//! [`king::DANGER_WEIGHTS`] with integer coefficients `c_j` (attackers by kind, zone attacks,
//! square counts, safe checks, −1 without an enemy queen, +1 for the adjustment), and counted
//! only behind a gate that reads no weight (enough attackers). A bump of a weight would read a
//! change of `u²`, not of `u`, so the base evaluation ([`super::breakdown_traced`]) hands over
//! the gate and the coefficients themselves ([`king::DangerInputs`]): [`Trace::danger`]. The
//! danger at the traced parameters is taken out of the constants, and the consumer recomputes
//! it for any weights ([`Trace::white_eval`], the tuner's gradient).
//!
//! **Complexity** (Ethereal 12's, as its tuner traces it): `v = sign(eg) · max(c, −|eg|)` is
//! added to the endgame sum `eg` (every other term, the danger's endgame part included), where
//! `c = Σ f_k · w_k` is linear in the four weights of [`complexity::WEIGHTS`] with the
//! position's features `f_k` (pawns, pawns on both flanks, a pawn ending, 1). The sign and the
//! clamp make a bump read the wrong thing (a clamped position reads 0), so the breakdown keeps
//! `v` apart from `s` ([`Breakdown::complexity`]): the bumps read the other terms' coefficients
//! without it, the constants leave it out, the trace records the features
//! ([`Trace::complexity`]) and the consumer recomputes `v` for any weights from the traced
//! endgame sum ([`Trace::white_eval`], the tuner's gradient).
//!
//! Still **held fixed** at their traced values ([`is_linear`] is the one place that says which;
//! their contribution is part of the trace's constant): the two danger divisors (the danger is
//! `1 / divisor`, and Ethereal's tuner holds its divisors too: the weights carry the scale), the
//! danger's attacker product (`ks_attacker_product`: it decides what the attacker weights'
//! coefficients are, and they are recorded at its traced value) and every `scale_*` (the endgame
//! scale chooses its case by the sign of the endgame sum; the endgame scale in percent is
//! recorded per position at the traced parameters and kept fixed).
//!
//! Rounding: the engine truncates the shelter (`/ 12`, per side), the danger (`u² / Dmg` and
//! `u / Deg`, per side), the scaled endgame (`/ 100`) and the tapered sum (`/ 24`);
//! [`Trace::white_eval`] does not. At the traced parameters the two differ by less than 3.5
//! centipawns: the scaled endgame and the tapered sum lose less than 1 each, and the danger's
//! truncations (each in `[0, 1)`, white's less black's in `(−1, 1)` per phase) less than 1.5
//! after the tapering (`phase/24 + eg_scale/100 · (24 − phase)/24 ≤ 1.5`, the scales being at
//! most 150 %); the shelter is exact there (the constant holds it as the engine rounded it). At
//! any other parameters of the fitted kind (linear, danger and complexity weights) the shelter's
//! two truncations add less than 2: the bound is [`ROUNDING_BOUND`] (5.5), as long as the
//! endgame scale's case is the same (a test checks both on 100k random-playout positions, also
//! after random perturbations of the fitted parameters). The complexity adds no rounding of its
//! own (integers in the engine), and it keeps the bound: for a fixed sign of the endgame sum
//! `e`, `e + sign(e) · max(c, −|e|)` moves by at most as much as `e` does (it is
//! `sign(e) · max(|e| + c, 0)`), so the danger's endgame error (< 1) passes through it no
//! larger. The one exception is a sign that differs: only where the engine's endgame sum is
//! exactly 0 and the untruncated one is not (the danger's truncation), with `c > 0` the traced
//! term is `±c` where the engine's is 0; the test counts those and leaves them out.

use shakmaty::{Chess, Position};

use super::{
    Breakdown, EvalParams, breakdown, breakdown_traced, complexity, king,
    psqt::{Profiles, PsqtSource, square_index},
};
use crate::params::{ParamSection, ParamSpec};

/// The raise applied to each parameter: a multiple of the shelter's divisor 12, so the flat
/// part's change is an exact integer.
pub const BUMP: i32 = 12;

/// `|white_eval - evaluate|` stays below this (see the module docs).
pub const ROUNDING_BOUND: f64 = 5.5;

/// Whether a parameter is traced (the others are held fixed at their traced values): those
/// that enter the evaluation linearly, the king danger's weights ([`is_danger_weight`]),
/// linear in its attack units, and the complexity's ([`is_complexity_weight`]), linear in the
/// complexity before its clamp. Not the danger's divisors and attacker product (every other
/// `ks_*`) nor the endgame scale factors (`scale_*`). The trace test fails if a parameter called
/// linear here is not.
pub fn is_linear(spec: &ParamSpec) -> bool {
    if spec.name.starts_with("ks_") {
        return is_danger_weight(spec);
    }
    !spec.name.starts_with("scale_")
}

/// Whether a parameter is one of the king danger's weights ([`king::DANGER_WEIGHTS`]): traced
/// through [`Trace::danger`], not by a bump.
pub fn is_danger_weight(spec: &ParamSpec) -> bool {
    king::DANGER_WEIGHTS.contains(&spec.name)
}

/// Whether a parameter is one of the complexity's weights ([`complexity::WEIGHTS`]): traced
/// through [`Trace::complexity`], not by a bump.
pub fn is_complexity_weight(spec: &ParamSpec) -> bool {
    complexity::WEIGHTS.contains(&spec.name)
}

/// The indices (into [`EvalParams::specs`]) of [`complexity::WEIGHTS`], in its order.
pub fn complexity_params() -> [usize; complexity::TERMS] {
    let specs = EvalParams::specs();
    complexity::WEIGHTS.map(|name| {
        // Constant names of declared parameters: a test checks each is found.
        specs.iter().position(|s| s.name == name).expect("every complexity::WEIGHTS name is declared")
    })
}

/// The complexity's change to an endgame sum `eg` (white's view) with complexity `c`,
/// `sign(eg) · max(c, −|eg|)`, without the engine's integers.
#[inline]
pub fn complexity_change(eg: f64, c: f64) -> f64 {
    if eg == 0.0 { 0.0 } else { eg.signum() * c.max(-eg.abs()) }
}

/// The indices (into [`EvalParams::specs`]) of [`king::DANGER_WEIGHTS`], in its order.
pub fn danger_params() -> [usize; king::DANGER_TERMS] {
    let specs = EvalParams::specs();
    king::DANGER_WEIGHTS.map(|name| {
        // Constant names of declared parameters: a test checks each is found.
        specs.iter().position(|s| s.name == name).expect("every king::DANGER_WEIGHTS name is declared")
    })
}

/// One side's king danger, `(middlegame, endgame)` (<= 0), from its attack units and the two
/// divisors, without the engine's truncations.
#[inline]
pub fn danger(units: f64, mg_divisor: f64, eg_divisor: f64) -> (f64, f64) {
    if units <= 0.0 { (0.0, 0.0) } else { (-units * units / mg_divisor, -units / eg_divisor) }
}

/// The danger divisors of `p` as the engine uses them (at least 1).
pub fn danger_divisors(p: &EvalParams) -> (f64, f64) {
    (f64::from(p.ks_mg_divisor.max(1)), f64::from(p.ks_eg_divisor.max(1)))
}

/// One parameter's coefficients in one position, white's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coef {
    /// Index into [`EvalParams::specs`].
    pub param: u16,
    /// Coefficient in the middlegame sum.
    pub mg: i32,
    /// Coefficient in the endgame sum (before the endgame scale).
    pub eg: i32,
    /// Twelve times the coefficient in the flat (untapered) part.
    pub flat12: i32,
}

/// A position's evaluation as constants plus [`Coef`]s plus the king danger plus the
/// complexity, white's view: `mg = const_mg + Σ c.mg·p + D_mg`,
/// `eg = const_eg + Σ c.eg·p + D_eg`, `eg' = eg + `[`complexity_change`]`(eg, Σ f_k·w_k)`,
/// `flat = (const_flat12 + Σ c.flat12·p) / 12`,
/// `eval = (mg·phase + eg'·eg_scale/100·(24 − phase)) / 24 + flat`, where `D` is black's
/// [`danger`] less white's, each of its side's units `Σ danger[side][j] · w_j` over
/// [`king::DANGER_WEIGHTS`], and `f` the features [`Trace::complexity`] of the weights `w` of
/// [`complexity::WEIGHTS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    pub coefs: Vec<Coef>,
    /// Everything but the coefficients' terms, the king danger and the complexity.
    pub const_mg: i64,
    pub const_eg: i64,
    pub const_flat12: i64,
    pub phase: i32,
    pub eg_scale: i32,
    /// Per side (`Color as usize`: black 0, white 1), where its king danger is counted, its
    /// attack units' coefficients in [`king::DANGER_WEIGHTS`]; `None` where it is not.
    pub danger: [Option<[i32; king::DANGER_TERMS]>; 2],
    /// The complexity's features, the coefficients of [`complexity::WEIGHTS`] (pawns, pawns on
    /// both flanks, a pawn ending, 1).
    pub complexity: [i32; complexity::TERMS],
}

impl Trace {
    /// The traced evaluation under `p`, white's view, without the engine's truncations.
    pub fn white_eval(&self, p: &EvalParams) -> f64 {
        let (mg, eg, flat12) = self.sums(p);
        let eg = eg + complexity_change(eg, self.complexity_white(p));
        taper(mg, eg, self.phase, self.eg_scale) + flat12 / 12.0
    }

    /// The middlegame and endgame sums under `p` before the complexity (the king danger in
    /// them), and twelve times the flat part, without the engine's truncations.
    pub fn sums(&self, p: &EvalParams) -> (f64, f64, f64) {
        let (mut mg, mut eg, mut flat12) = (self.const_mg, self.const_eg, self.const_flat12);
        for c in &self.coefs {
            let v = i64::from(p.get(usize::from(c.param)));
            mg += i64::from(c.mg) * v;
            eg += i64::from(c.eg) * v;
            flat12 += i64::from(c.flat12) * v;
        }
        let (d_mg, d_eg) = self.danger_white(p);
        (mg as f64 + d_mg, eg as f64 + d_eg, flat12 as f64)
    }

    /// The complexity under `p` before its sign and clamp, `Σ f_k · w_k`.
    pub fn complexity_white(&self, p: &EvalParams) -> f64 {
        let weights = complexity::weights(p);
        self.complexity.iter().zip(weights).map(|(&f, w)| f64::from(f) * f64::from(w)).sum()
    }

    /// The king danger under `p`, white's view (black's less white's), `(middlegame, endgame)`.
    pub fn danger_white(&self, p: &EvalParams) -> (f64, f64) {
        let (weights, (dmg, deg)) = (king::danger_weights(p), danger_divisors(p));
        let (mut mg, mut eg) = (0.0, 0.0);
        for (side, sign) in [(1, 1.0), (0, -1.0)] {
            if let Some(c) = &self.danger[side] {
                let (m, e) = danger(f64::from(king::danger_units(c, &weights)), dmg, deg);
                mg += sign * m;
                eg += sign * e;
            }
        }
        (mg, eg)
    }
}

/// The engine's tapering without its truncations.
#[inline]
pub fn taper(mg: f64, eg: f64, phase: i32, eg_scale: i32) -> f64 {
    (mg * f64::from(phase) + eg * f64::from(eg_scale) / 100.0 * f64::from(24 - phase)) / 24.0
}

/// Traces positions under one parameter set.
#[derive(Clone, Debug)]
pub struct Tracer {
    params: EvalParams,
    /// Linear parameters that feed the piece-square profiles: traced through the piece-square
    /// sum alone (a few adds per piece instead of a whole evaluation).
    profile: Vec<usize>,
    /// Per-square terms (one square entry, one phase each): their coefficient is read off the
    /// board, +1 per white piece on the square, −1 per black one (from black's side).
    /// `[role][square index][mg = 0, eg = 1]` → parameter index.
    square: Box<[[[Option<usize>; 2]; 32]; 6]>,
    /// The other linear parameters, traced two per evaluation (see [`PAIR_RADIX`]).
    other: Vec<usize>,
}

/// The second parameter of a pair is raised by `BUMP × PAIR_RADIX`, so one evaluation gives
/// both changes `BUMP × (c₁ + PAIR_RADIX × c₂)`; exact while every coefficient stays below
/// `PAIR_RADIX / 2` in size (counts of squares, pieces and rank weights: a few hundred at most)
/// and the raised sums stay within `i32`.
pub const PAIR_RADIX: i32 = 1 << 12;

impl Tracer {
    pub fn new(params: &EvalParams) -> Tracer {
        let base = Profiles::new(params);
        let (mut profile, mut other) = (Vec::new(), Vec::new());
        let mut square = Box::new([[[None; 2]; 32]; 6]);
        for (i, spec) in EvalParams::specs().iter().enumerate() {
            // The danger and complexity weights are traced through their own coefficients.
            if !is_linear(spec) || is_danger_weight(spec) || is_complexity_weight(spec) {
                continue;
            }
            let mut p = params.clone();
            p.set_unchecked(i, p.get(i) + BUMP);
            let bumped = Profiles::new(&p);
            if bumped == base {
                other.push(i);
            } else if let Some((role, index, mg)) = base.single_square_change(&bumped) {
                square[role][index][usize::from(!mg)] = Some(i);
            } else {
                profile.push(i);
            }
        }
        Tracer { params: params.clone(), profile, square, other }
    }

    pub fn params(&self) -> &EvalParams {
        &self.params
    }

    /// Indices (into [`EvalParams::specs`]) of the traced parameters, ascending (the danger and
    /// complexity weights among them).
    pub fn linear(&self) -> Vec<usize> {
        let squares = self.square.iter().flatten().flatten().flatten().copied();
        let mut all: Vec<usize> = self
            .profile
            .iter()
            .chain(&self.other)
            .copied()
            .chain(squares)
            .chain(danger_params())
            .chain(complexity_params())
            .collect();
        all.sort_unstable();
        all
    }

    /// The position's trace.
    pub fn trace(&self, pos: &Chess) -> Trace {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        {
            if std::arch::is_x86_feature_detected!("popcnt") {
                // SAFETY: the running CPU supports POPCNT, checked just above.
                return unsafe { self.trace_popcnt(pos) };
            }
        }
        self.trace_with(pos)
    }

    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    #[target_feature(enable = "popcnt")]
    fn trace_popcnt(&self, pos: &Chess) -> Trace {
        self.trace_with(pos)
    }

    #[inline(always)]
    fn trace_with(&self, pos: &Chess) -> Trace {
        // Built once: the paired parameters do not move the piece-square tables (that is how
        // they were sorted), and a profile parameter moves only the file and rank terms.
        let profiles = Profiles::new(&self.params);
        let eval = |p: &EvalParams| -> Breakdown { breakdown(pos, p, &profiles) };
        // With the king danger's inputs: the bumps below do not move them (no linear parameter
        // enters the danger). The bumps read `s`, before the complexity (which depends on the
        // endgame sum's sign), and the complexity's features read no parameter.
        let base = breakdown_traced(pos, &self.params, &profiles);
        let flat = |b: &Breakdown| b.shelter + b.tempo;
        let mut p = self.params.clone();
        // (param, Δmg, Δeg, Δflat) for a raise of BUMP × scale.
        let mut deltas: Vec<(usize, i32, i32, i32)> = Vec::new();
        let psqt = profiles.score(pos.board());
        for &i in &self.profile {
            let v = p.get(i);
            p.set_unchecked(i, v + BUMP);
            let d = profiles.with_file_and_rank_of(&p).score(pos.board()) - psqt;
            p.set_unchecked(i, v);
            deltas.push((i, d.mg(), d.eg(), 0));
        }
        // Square terms: a piece's count on its (mirrored, relative) square, signed by colour.
        let mut counts = [[0i32; 32]; 6];
        let board = pos.board();
        for (role_index, role) in shakmaty::Role::ALL.into_iter().enumerate() {
            for (color, sign) in [(shakmaty::Color::White, 1), (shakmaty::Color::Black, -1)] {
                for sq in board.by_role(role) & board.by_color(color) {
                    counts[role_index][square_index(color, sq)] += sign;
                }
            }
        }
        for (role_index, row) in counts.iter().enumerate() {
            for (index, &n) in row.iter().enumerate() {
                if n == 0 {
                    continue;
                }
                let [mg, eg] = self.square[role_index][index];
                if let Some(i) = mg {
                    deltas.push((i, n * BUMP, 0, 0));
                }
                if let Some(i) = eg {
                    deltas.push((i, 0, n * BUMP, 0));
                }
            }
        }
        for pair in self.other.chunks(2) {
            let saved: Vec<i32> = pair.iter().map(|&i| p.get(i)).collect();
            for (k, &i) in pair.iter().enumerate() {
                p.set_unchecked(i, saved[k] + BUMP * PAIR_RADIX.pow(k as u32));
            }
            let b = eval(&p);
            for (k, &i) in pair.iter().enumerate() {
                p.set_unchecked(i, saved[k]);
            }
            let d = (b.s.mg() - base.s.mg(), b.s.eg() - base.s.eg(), flat(&b) - flat(&base));
            if pair.len() == 1 {
                deltas.push((pair[0], d.0, d.1, d.2));
            } else {
                // The tapered sums moved by BUMP × (c₁ + R·c₂); the flat part by (12c₁ + R·12c₂)
                // (BUMP = 12 cancels its / 12).
                let ((mg1, mg2), (eg1, eg2), (fl1, fl2)) = (split(d.0 / BUMP), split(d.1 / BUMP), split(d.2));
                deltas.push((pair[0], mg1 * BUMP, eg1 * BUMP, fl1));
                deltas.push((pair[1], mg2 * BUMP, eg2 * BUMP, fl2));
            }
        }
        deltas.sort_unstable_by_key(|d| d.0);
        // The danger as the engine computed it (truncated) leaves the constants: the consumer
        // adds it back for its own weights.
        let weights = king::danger_weights(&self.params);
        let danger = base.danger.map(|d| d.map(|d| d.coefficients()));
        let mut danger_white = super::S::ZERO;
        for (side, (d, c)) in base.danger.iter().zip(&danger).enumerate() {
            if let (Some(d), Some(c)) = (d, c) {
                let units = king::danger_units(c, &weights);
                debug_assert_eq!(units, d.units(&self.params), "the coefficients give the engine's units");
                let score = king::danger_score(units, &self.params);
                danger_white += if side == shakmaty::Color::White as usize { score } else { -score };
            }
        }
        let mut const_mg = i64::from(base.s.mg()) - i64::from(danger_white.mg());
        // `s` is the sum before the complexity: it stays out of the constants.
        let mut const_eg = i64::from(base.s.eg()) - i64::from(danger_white.eg());
        let mut const_flat12 = 12 * i64::from(flat(&base));
        let mut coefs = Vec::new();
        for (i, mg, eg, fl) in deltas {
            let c = Coef { param: i as u16, mg: mg / BUMP, eg: eg / BUMP, flat12: fl * 12 / BUMP };
            if c.mg != 0 || c.eg != 0 || c.flat12 != 0 {
                let v = i64::from(self.params.get(i));
                const_mg -= i64::from(c.mg) * v;
                const_eg -= i64::from(c.eg) * v;
                const_flat12 -= i64::from(c.flat12) * v;
                coefs.push(c);
            }
        }
        Trace {
            coefs,
            const_mg,
            const_eg,
            const_flat12,
            phase: base.phase,
            eg_scale: base.eg_scale,
            danger,
            complexity: base.complexity_features,
        }
    }
}

/// `x = lo + PAIR_RADIX × hi` with `|lo| < PAIR_RADIX / 2`.
fn split(x: i32) -> (i32, i32) {
    let mut lo = x.rem_euclid(PAIR_RADIX);
    if lo >= PAIR_RADIX / 2 {
        lo -= PAIR_RADIX;
    }
    (lo, (x - lo) / PAIR_RADIX)
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position};

    use super::*;
    use crate::eval::evaluate;

    fn splitmix(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `n` positions from random playouts (seeded): every position of each game up to a random
    /// length, captures preferred half the time so that material comes off and endgames appear.
    fn playout_positions(n: usize, seed: u64) -> Vec<Chess> {
        let mut rng = seed;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            let mut pos = Chess::default();
            let length = 20 + splitmix(&mut rng) % 180;
            for _ in 0..length {
                let moves = pos.legal_moves();
                if moves.is_empty() || out.len() == n {
                    break;
                }
                let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
                let r = splitmix(&mut rng);
                let m = if !captures.is_empty() && r & 1 == 0 {
                    *captures[(r >> 1) as usize % captures.len()]
                } else {
                    moves[(r >> 1) as usize % moves.len()]
                };
                pos.play_unchecked(m);
                out.push(pos.clone());
            }
        }
        out
    }

    fn white(pos: &Chess, p: &EvalParams) -> i32 {
        let e = evaluate(pos, p);
        if pos.turn().is_white() { e } else { -e }
    }

    /// Every linear parameter moved by up to ±`spread` (clamped to its range), seeded.
    fn perturbed(base: &EvalParams, spread: i32, seed: u64) -> EvalParams {
        let mut rng = seed;
        let mut p = base.clone();
        for (i, s) in EvalParams::specs().iter().enumerate() {
            if is_linear(s) {
                let d = (splitmix(&mut rng) % (2 * spread as u64 + 1)) as i32 - spread;
                p.set_unchecked(i, (p.get(i) + d).clamp(s.min, s.max));
            }
        }
        p
    }

    /// `base` with Ethereal 12's complexity weights (S(0, 8), S(0, 82), S(0, 76), S(0, −157)).
    fn ethereal_complexity(base: &EvalParams) -> EvalParams {
        let mut p = base.clone();
        for (i, w) in complexity_params().into_iter().zip([8, 82, 76, -157]) {
            p.set_unchecked(i, w);
        }
        p
    }

    /// Whether the traced endgame sum before the complexity has the engine's sign (it has but
    /// where the engine's is exactly 0 and the danger's truncation is not: see the module docs).
    fn same_sign(t: &Trace, p: &EvalParams, b: &Breakdown) -> bool {
        let traced = t.sums(p).1;
        (traced > 0.0) == (b.s.eg() > 0) && (traced < 0.0) == (b.s.eg() < 0)
    }

    /// Whether the engine's complexity clamps the endgame sum to 0.
    fn clamped(b: &Breakdown) -> bool {
        b.s.eg() != 0 && b.s.eg() + b.complexity == 0
    }

    #[test]
    fn traced_eval_equals_evaluate_on_100k_positions_and_after_perturbations() {
        let base = EvalParams::default();
        let positions = playout_positions(100_000, 44);
        let tracer = Tracer::new(&base);
        let traces: Vec<Trace> = std::thread::scope(|s| {
            let handles: Vec<_> = positions
                .chunks(25_000)
                .map(|c| s.spawn(|| c.iter().map(|p| tracer.trace(p)).collect::<Vec<_>>()))
                .collect();
            handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        let mut worst = 0f64;
        for (pos, t) in positions.iter().zip(&traces) {
            let diff = (t.white_eval(&base) - f64::from(white(pos, &base))).abs();
            worst = worst.max(diff);
            // Below 3.5 here (the module docs derive it): the scaled endgame and the tapered sum
            // lose less than 1 each, the danger's truncations less than 1.5.
            assert!(
                diff < 3.5,
                "{diff} at the traced parameters: {}",
                shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
        }
        eprintln!("at the traced parameters: worst |traced - evaluate| = {worst:.3}");
        let endgames = traces.iter().filter(|t| t.phase < 12).count();
        assert!(endgames > 10_000, "the playouts reach endgames: {endgames}");
        let gated = traces.iter().filter(|t| t.danger.iter().any(Option::is_some)).count();
        assert!(gated > 10_000, "the playouts attack kings: {gated}");
        // Other parameters (the danger weights among them, and the complexity's from Ethereal's
        // values): the coefficients, not a stored residual, carry the change.
        let ethereal = ethereal_complexity(&base);
        for (round, spread) in [(1u64, 5), (2, 20), (3, 60)] {
            let p = perturbed(&ethereal, spread, round);
            let (mut worst, mut scale_changed, mut danger) = (0f64, 0usize, 0usize);
            let (mut sign_differs, mut clamps, mut complexity) = (0usize, 0usize, 0usize);
            for (pos, t) in positions.iter().zip(&traces) {
                let b = breakdown(pos, &p, &Profiles::new(&p));
                // A scale that multiplies an endgame half of 0 changes nothing.
                if b.eg_scale != t.eg_scale && b.s.eg() + b.complexity != 0 {
                    scale_changed += 1;
                    continue;
                }
                if !same_sign(t, &p, &b) {
                    sign_differs += 1;
                    continue;
                }
                let diff = (t.white_eval(&p) - f64::from(white(pos, &p))).abs();
                worst = worst.max(diff);
                danger += usize::from(t.danger_white(&p) != (0.0, 0.0));
                clamps += usize::from(clamped(&b));
                complexity += usize::from(b.complexity != 0 && !clamped(&b));
                assert!(
                    diff < ROUNDING_BOUND,
                    "{diff} after a ±{spread} perturbation: {}",
                    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                );
            }
            eprintln!(
                "±{spread}: worst {worst:.3}, {danger} positions with a king danger, {clamps} with the complexity clamped, {complexity} moved by it unclamped, {scale_changed} changed endgame scale and {sign_differs} an endgame sum of 0 the danger's truncation made (skipped)"
            );
            assert!(scale_changed < positions.len() / 100, "{scale_changed}");
            assert!(sign_differs < positions.len() / 1000, "{sign_differs}");
            assert!(danger > 5_000, "the perturbed weights count king danger: {danger}");
            assert!(clamps > 1_000 && complexity > 10_000, "{clamps} clamped, {complexity} not");
        }
    }

    /// With the king danger's attacker product on (`ks_attacker_product` 1, format 20) the trace
    /// still gives the evaluation: the attacker weights' coefficients are the attackers times
    /// their number, and the danger counts in many playout positions.
    #[test]
    fn the_attacker_product_is_traced() {
        let p = EvalParams { ks_attacker_product: 1, ..EvalParams::default() };
        let positions = playout_positions(6_000, 20);
        let tracer = Tracer::new(&p);
        let (mut worst, mut danger) = (0f64, 0usize);
        for pos in &positions {
            let t = tracer.trace(pos);
            let diff = (t.white_eval(&p) - f64::from(white(pos, &p))).abs();
            worst = worst.max(diff);
            danger += usize::from(t.danger_white(&p) != (0.0, 0.0));
            let fen = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
            assert!(diff < 3.5, "{diff} with the attacker product: {fen}");
        }
        eprintln!("attacker product: worst {worst:.3}, {danger} positions with a king danger");
        assert!(danger > 300, "the danger counts: {danger}");
    }

    /// The terms of format 19 (Stockfish 11's) at random values, every other parameter at its
    /// default: their coefficients do not depend on their values (the trace at 0 and at the
    /// random values agree on them), the trace at the random values gives the evaluation there,
    /// and the trace at 0 gives it too through the coefficients; each term has coefficients in
    /// the playouts.
    #[test]
    fn stockfish_11_terms_are_traced_at_random_values() {
        let base = EvalParams::default();
        let new: Vec<usize> = EvalParams::specs()
            .iter()
            .enumerate()
            .filter(|(_, s)| s.since.is_some_and(|since| since.format == 19))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(new.len(), 22);
        let positions = playout_positions(6_000, 19);
        let at_zero = Tracer::new(&base);
        let zero: Vec<Trace> = std::thread::scope(|s| {
            let handles: Vec<_> = positions
                .chunks(3_000)
                .map(|c| s.spawn(|| c.iter().map(|p| at_zero.trace(p)).collect::<Vec<_>>()))
                .collect();
            handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        let new_coefs = |t: &Trace| -> Vec<Coef> {
            t.coefs.iter().copied().filter(|c| new.contains(&usize::from(c.param))).collect()
        };
        let mut fired = vec![0usize; new.len()];
        for t in &zero {
            for c in new_coefs(t) {
                fired[new.iter().position(|&i| i == usize::from(c.param)).unwrap()] += 1;
            }
        }
        let names: Vec<&str> = new.iter().map(|&i| EvalParams::specs()[i].name).collect();
        eprintln!("positions with a coefficient: {:?}", names.iter().zip(&fired).collect::<Vec<_>>());
        assert!(fired.iter().all(|&n| n >= 20), "{:?}", names.iter().zip(&fired).collect::<Vec<_>>());
        let mut rng = 1919;
        for round in 0..2 {
            let mut p = base.clone();
            for &i in &new {
                p.set_unchecked(i, (splitmix(&mut rng) % 301) as i32 - 150);
            }
            let at_p = Tracer::new(&p);
            let (mut worst_at_p, mut worst_at_zero, mut skipped) = (0f64, 0f64, 0usize);
            for (pos, t0) in positions.iter().zip(&zero) {
                let t = at_p.trace(pos);
                assert_eq!(new_coefs(&t), new_coefs(t0), "round {round}");
                let fen = || shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string();
                let diff = (t.white_eval(&p) - f64::from(white(pos, &p))).abs();
                worst_at_p = worst_at_p.max(diff);
                assert!(diff < 3.5, "{diff} at the traced values, round {round}: {}", fen());
                let b = breakdown(pos, &p, &Profiles::new(&p));
                if (b.eg_scale != t0.eg_scale && b.s.eg() + b.complexity != 0) || !same_sign(t0, &p, &b) {
                    skipped += 1;
                    continue;
                }
                let diff = (t0.white_eval(&p) - f64::from(white(pos, &p))).abs();
                worst_at_zero = worst_at_zero.max(diff);
                assert!(diff < ROUNDING_BOUND, "{diff} from the trace at 0, round {round}: {}", fen());
            }
            eprintln!(
                "round {round}: worst {worst_at_p:.3} traced at the values, {worst_at_zero:.3} traced at 0 ({skipped} skipped: another endgame scale or sign)"
            );
            assert!(skipped < positions.len() / 20, "{skipped}");
        }
    }

    #[test]
    fn the_complexity_clamp_at_the_traced_parameters_keeps_the_coefficients() {
        let base = EvalParams::default();
        let ethereal = ethereal_complexity(&base);
        let positions = playout_positions(3_000, 7);
        let (at_base, at_ethereal) = (Tracer::new(&base), Tracer::new(&ethereal));
        let mut clamps = 0;
        for pos in &positions {
            let (t, u) = (at_base.trace(pos), at_ethereal.trace(pos));
            // The same trace but the endgame scale (chosen by the sign of the endgame sum after
            // the complexity, 0 where it clamps).
            assert_eq!(Trace { eg_scale: t.eg_scale, ..u.clone() }, t);
            let b = breakdown(pos, &ethereal, &Profiles::new(&ethereal));
            clamps += usize::from(clamped(&b));
            if same_sign(&u, &ethereal, &b) {
                let diff = (u.white_eval(&ethereal) - f64::from(white(pos, &ethereal))).abs();
                assert!(diff < 3.5, "{diff} at the traced parameters");
            }
        }
        assert!(clamps > 10, "Ethereal's weights clamp some endgames: {clamps}");
    }

    #[test]
    fn held_fixed_parameters_are_the_non_linear_ones() {
        let held: Vec<&str> = EvalParams::specs().iter().filter(|s| !is_linear(s)).map(|s| s.name).collect();
        assert!(held.iter().all(|n| n.starts_with("scale_") || n.starts_with("ks_")), "{held:?}");
        assert!(held.contains(&"scale_opposite_bishops") && held.contains(&"scale_pawnless_minor_ahead"), "{held:?}");
        let held_ks: Vec<&str> = held.iter().copied().filter(|n| n.starts_with("ks_")).collect();
        assert_eq!(held_ks, ["ks_mg_divisor", "ks_eg_divisor", "ks_attacker_product"]);
        // The danger weights are traced, in the engine's order.
        let base = EvalParams::default();
        let tracer = Tracer::new(&base);
        let complexity = complexity_params();
        assert!(complexity.iter().all(|i| tracer.linear().contains(i)));
        assert!(complexity.iter().all(|&i| is_complexity_weight(&EvalParams::specs()[i])));
        let indices = danger_params();
        assert!(indices.iter().all(|i| tracer.linear().contains(i) && is_danger_weight(&EvalParams::specs()[*i])));
        let p = perturbed(&base, 20, 9);
        assert_eq!(indices.map(|i| p.get(i)), king::danger_weights(&p));
        // A king attack in progress: the danger is quadratic in its weights (so no bump traces
        // them), its attack units linear (the trace's coefficients give them).
        let pos = super::super::tests::pos("r1b2rk1/ppp2ppp/2n5/3qN3/3P4/2PB4/P4PPP/R2QR1K1 b - - 0 1");
        let danger = |p: &EvalParams| breakdown(&pos, p, &Profiles::new(p)).s.mg();
        let (i, _) = EvalParams::specs().iter().enumerate().find(|(_, s)| s.name == "ks_attack_value").unwrap();
        let mut up = base.clone();
        up.set_unchecked(i, base.get(i) + 40);
        let mut up2 = base.clone();
        up2.set_unchecked(i, base.get(i) + 80);
        assert_ne!(danger(&up2) - danger(&up), danger(&up) - danger(&base), "ks_attack_value acts linearly here");
        let t = tracer.trace(&pos);
        let j = king::DANGER_WEIGHTS.iter().position(|&n| n == "ks_attack_value").unwrap();
        assert!(t.danger.iter().flatten().any(|c| c[j] > 0), "{:?}", t.danger);
        for p in [&base, &up, &up2] {
            let diff = (t.white_eval(p) - f64::from(white(&pos, p))).abs();
            assert!(diff < ROUNDING_BOUND, "{diff}");
        }
    }
}
