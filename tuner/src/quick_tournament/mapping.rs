//! From Belmonte's unnormalised piece values (800..17000) to the engine's centipawn parameters.
//!
//! Only ratios matter to play, so the genome is scaled by one factor `s` (centipawns per unit):
//! `s = 100 / pawn` (pawn = 100 cp, the scale every other evaluation term is written in),
//! moved to the nearest factor that fits every piece into its declared parameter range (pawn
//! [50, 200], knight/bishop [100, 2000], rook [200, 3000], queen [400, 5000], the intersection of
//! the `_mg` and `_eg` ranges). The ratios are then exact up to rounding. Only when no single
//! factor fits (e.g. a queen worth less than 2 pawns, below 400/200) does the factor become the
//! largest that keeps every piece under its maximum, and the pieces then under their minimum are
//! raised to it: the factor stays continuous in the genome and the other ratios stay exact. (It
//! was `100 / pawn`, so a queen allele just under 2 pawns played as 4 pawns while one just over 2
//! played as 2: the search was rewarded for leaving the playable region, where the alleles drift.)
//!
//! [`playable`] is the genome that plays as it reads: the values the engine gets, in genome units.
//! Both `_mg` and `_eg` keys get the same value; every other parameter keeps its default, or,
//! with `evaluation = "material"`, every other evaluation term is 0.
//!
//! ```
//! use tuner::quick_tournament::{Evaluation, mapping::piece_params};
//! let p = piece_params(&[2000, 6000, 6200, 10000, 17000], Evaluation::Engine);
//! assert_eq!((p.eval.pawn_mg, p.eval.knight_mg, p.eval.rook_eg), (100, 300, 500));
//! assert_ne!(p.eval.bishop_mobility, 0);
//! let m = piece_params(&[2000, 6000, 6200, 10000, 17000], Evaluation::Material);
//! assert_eq!((m.eval.knight_mg, m.eval.bishop_mobility, &m.search), (300, 0, &p.search));
//! ```

use evochess::params::{ParamId, Params};

use super::Evaluation;
use super::operators::{PIECES, Values};

/// Each piece's `(mg, eg)` keys and the range both allow.
fn keys() -> [(ParamId, ParamId, i32, i32); 5] {
    PIECES.map(|p| {
        let (mg, smg) = Params::find(&format!("{p}_mg")).expect("material keys are declared");
        let (eg, seg) = Params::find(&format!("{p}_eg")).expect("material keys are declared");
        (mg, eg, smg.min.max(seg.min), smg.max.min(seg.max))
    })
}

/// The centipawn values the engine gets for `values` (see the module docs).
pub fn centipawns(values: &Values) -> [i32; 5] {
    let k = keys();
    let v: [f64; 5] = values.map(|x| f64::from(x.max(1)));
    // Feasible scale factors: every piece inside its range.
    let lo = (0..5).map(|i| f64::from(k[i].2) / v[i]).fold(f64::NEG_INFINITY, f64::max);
    let hi = (0..5).map(|i| f64::from(k[i].3) / v[i]).fold(f64::INFINITY, f64::min);
    let want = 100.0 / v[0];
    let s = if lo <= hi { want.clamp(lo, hi) } else { hi };
    std::array::from_fn(|i| ((v[i] * s).round() as i32).clamp(k[i].2, k[i].3))
}

/// The genome repaired to what it plays: the engine's values ([`centipawns`]) over the pawn,
/// times the pawn allele, within the allele range. Outside the playable ratios (a queen under 2
/// pawns, ...) every allele value plays the same, so nothing selects it and it drifts; repaired,
/// the genome and the reported ratios are the engine's. Idempotent up to rounding.
pub fn playable(values: &Values) -> Values {
    let cp = centipawns(values);
    let pawn = f64::from(values[0]);
    std::array::from_fn(|i| {
        let v = (pawn * f64::from(cp[i]) / f64::from(cp[0])).round() as i32;
        v.clamp(super::operators::VALUE_MIN, super::operators::VALUE_MAX)
    })
}

/// What every player starts from: the engine's defaults, with every evaluation term but the
/// ten piece values set to 0 for [`Evaluation::Material`]. The reference player without a file
/// is this with the default piece values.
pub fn base_params(evaluation: Evaluation) -> Params {
    let mut p = Params::default();
    if evaluation == Evaluation::Material {
        let material: Vec<ParamId> = keys().iter().flat_map(|&(mg, eg, _, _)| [mg, eg]).collect();
        p.zero_eval_except(|id| material.contains(&id));
    }
    p
}

/// [`base_params`] with the five piece values set from `values`.
pub fn piece_params(values: &Values, evaluation: Evaluation) -> Params {
    let mut p = base_params(evaluation);
    for ((mg, eg, _, _), cp) in keys().into_iter().zip(centipawns(values)) {
        // In range by construction (clamped to both keys' declared ranges).
        p.set(mg, cp.into()).expect("material value in range");
        p.set(eg, cp.into()).expect("material value in range");
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_kept_when_they_fit() {
        assert_eq!(centipawns(&[1000, 3834, 3781, 5525, 7343]), [100, 383, 378, 553, 734]);
        // Knight worth 21 pawns: the pawn drops below 100 so that the knight fits under 2000.
        assert_eq!(centipawns(&[800, 17000, 2000, 3000, 6000]), [94, 2000, 235, 353, 706]);
        // No single factor fits (a knight of 21 pawns but a queen of one): the largest factor
        // under every maximum, then the small pieces raised to their minimum.
        assert_eq!(centipawns(&[800, 17000, 800, 800, 800]), [94, 2000, 100, 200, 400]);
        assert_eq!(centipawns(&[17000, 800, 800, 800, 800]), [200, 100, 100, 200, 400]);
        for v in [[800; 5], [17000; 5], [9000, 800, 17000, 4000, 12000]] {
            let p = piece_params(&v, Evaluation::Engine);
            assert!(Params::default().with_toml(&p.to_toml()).is_ok(), "{v:?}");
        }
    }

    #[test]
    fn material_evaluation_keeps_only_the_piece_values() {
        let engine = base_params(Evaluation::Engine);
        assert_eq!(engine, Params::default());
        let material = base_params(Evaluation::Material);
        assert_eq!(material.search, engine.search);
        let mut kept = Vec::new();
        for (i, spec) in Params::specs().enumerate().filter(|(_, s)| s.section == "eval") {
            let v = material.get(ParamId(i));
            if v == engine.get(ParamId(i)) && v != 0.clamp(spec.min, spec.max) {
                kept.push(spec.name);
            } else {
                assert_eq!(v, 0.clamp(spec.min, spec.max), "{}", spec.name);
            }
        }
        kept.sort_unstable();
        let mut want: Vec<String> = PIECES.iter().flat_map(|p| [format!("{p}_eg"), format!("{p}_mg")]).collect();
        want.sort_unstable();
        assert_eq!(kept, want);
    }

    #[test]
    fn the_factor_is_continuous_where_the_ratios_stop_fitting() {
        // Queen / pawn = 2 is the last ratio that fits (400 / 200); just under it the queen used to
        // jump to 4 pawns.
        assert_eq!(centipawns(&[1000, 3000, 3000, 5000, 2000]), [200, 600, 600, 1000, 400]);
        assert_eq!(centipawns(&[1000, 3000, 3000, 5000, 1990]), [200, 600, 600, 1000, 400]);
        assert_eq!(centipawns(&[1000, 3000, 3000, 5000, 1000]), [200, 600, 600, 1000, 400]);
    }

    #[test]
    fn playable_genomes_read_as_they_play() {
        let sane = [1000, 3000, 3000, 5000, 9000];
        assert_eq!(playable(&sane), sane);
        // A queen of 0.5 pawns plays as 2 pawns, and now reads so; the other ratios are kept.
        let r = playable(&[2000, 6000, 6000, 10000, 1000]);
        assert_eq!(r, [2000, 6000, 6000, 10000, 4000]);
        assert_eq!(playable(&r), r, "idempotent");
        for v in [[800, 17000, 800, 800, 800], [17000, 800, 800, 800, 800], [9000, 800, 17000, 4000, 12000]] {
            let r = playable(&v);
            let again = playable(&r);
            for i in 0..5 {
                assert!((again[i] - r[i]).abs() <= 20, "{v:?}: {r:?} -> {again:?}");
            }
        }
    }
}
