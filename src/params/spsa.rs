//! SPSA settings of each parameter and the selection of a group to tune.
//!
//! OpenBench and fishtest state a tune per parameter by its end: `c_end`, the last perturbation,
//! and `r_end`, the last learning rate (`a_k / c_k²`). A parameter's declaration may give both
//! (`name: default, [min, max], step C, r_end R;` in [`declare_params!`](crate::declare_params));
//! without them:
//!
//! * `c_end = min(max(|value| / 20, range / 100, 1), range / 4)`. Five percent of the value is
//!   the convention of OpenBench users' tuning helpers (a pawn of 100 cp moves by 5, a queen
//!   of 939 by 47): large enough that the `+` and `−` engines differ by a few Elo, which is what
//!   the games can see, and small enough that the tune stays near a good value. A term whose
//!   value is 0 or tiny would get no perturbation at all, so the step is at least a hundredth of
//!   the declared range (the span the term plausibly takes: 3 cp for a square-table term of
//!   [−150, 150]) and at least 1 unit (integers are played stochastically rounded, so a smaller
//!   step plays the same engine on both sides most of the time). A quarter of the range at most
//!   keeps both sides inside small ranges (0/1 switches, plies).
//! * `r_end = 0.002`, OpenBench's usual value.
//!
//! The old rule, a twentieth of the range, gave the knight 95 cp: each iteration then compared
//! engines 190 cp apart, far from any value worth playing.
//!
//! One SPSA iteration costs one game pair whatever the number of parameters, but each
//! parameter's share of the signal shrinks as more move at once: fishtest and OpenBench tune
//! 50–150 together over 100k–400k games. [`select`] picks a group by name patterns and refuses
//! one larger than a stated maximum ([`DEFAULT_MAX_PARAMS`]), so that a stray pattern does not
//! tune the whole evaluation unasked.

use thiserror::Error;

use super::{ParamId, ParamSpec, Params};

/// OpenBench's usual end learning rate.
pub const DEFAULT_R_END: f64 = 0.002;

/// Most parameters tuned at once unless the user raises it: the largest tunes fishtest and
/// OpenBench run (about 150 parameters at once).
pub const DEFAULT_MAX_PARAMS: usize = 150;

/// `c_end` of `spec` at `value`: the declared step, else the rule of the module docs.
pub fn c_end(spec: &ParamSpec, value: i32) -> f64 {
    if let Some(step) = spec.spsa_step {
        return step;
    }
    let range = f64::from(spec.max - spec.min);
    (f64::from(value).abs() / 20.0).max(range / 100.0).max(1.0).min(range / 4.0)
}

/// `r_end` of `spec`: the declared one, else [`DEFAULT_R_END`].
pub fn r_end(spec: &ParamSpec) -> f64 {
    spec.spsa_r_end.unwrap_or(DEFAULT_R_END)
}

/// OpenBench's SPSA input line of `spec` at `value`: `name, int, value, min, max, c_end, r_end`.
pub fn line(spec: &ParamSpec, value: i32) -> String {
    format!("{}, int, {value}, {}, {}, {:.2}, {}", spec.name, spec.min, spec.max, c_end(spec, value), r_end(spec))
}

/// Why a selection of parameters was refused.
#[derive(Debug, Error, PartialEq)]
pub enum SelectError {
    #[error("no parameter matches `{0}` (patterns are name prefixes or globs with * and ?, e.g. `pst_knight_*`)")]
    NoMatch(String),
    #[error("an empty pattern in `{0}`")]
    Empty(String),
    #[error(
        "`{patterns}` selects {count} parameters, more than {max}: fishtest and OpenBench tune at most \
         about 150 at once, over 100k-400k games (README, SPSA budget); tune a smaller group, or raise \
         the maximum if you mean it"
    )]
    TooMany { patterns: String, count: usize, max: usize },
}

/// Whether `name` matches `pattern`: a glob (`*` any run, `?` one character) when it has a
/// wildcard, else a prefix; ASCII case is ignored, as in UCI option names.
pub fn matches(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.to_ascii_lowercase(), name.to_ascii_lowercase());
    if !p.contains(['*', '?']) {
        return n.starts_with(&p);
    }
    glob(p.as_bytes(), n.as_bytes())
}

/// Iterative glob match with one backtrack point (the last `*`), linear in practice.
fn glob(p: &[u8], n: &[u8]) -> bool {
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && (p[pi] == b'?' || p[pi] == n[ni]) {
            (pi, ni) = (pi + 1, ni + 1);
        } else if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ni));
            pi += 1;
        } else if let Some((sp, sn)) = star {
            (pi, ni) = (sp + 1, sn + 1);
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

/// The parameters whose name (`knight_mg`) or key (`eval.knight_mg`) matches one of the
/// comma-separated `patterns`, in declaration order, each once.
///
/// # Errors
/// A pattern that matches nothing (a typo would otherwise silently tune less), an empty one, or
/// more than `max` parameters in all.
pub fn select(patterns: &str, max: usize) -> Result<Vec<ParamId>, SelectError> {
    let list: Vec<&str> = patterns.split(',').map(str::trim).collect();
    if list.iter().any(|p| p.is_empty()) {
        return Err(SelectError::Empty(patterns.to_string()));
    }
    let hit = |p: &str, s: &ParamSpec| matches(p, s.name) || matches(p, &s.key());
    if let Some(p) = list.iter().find(|p| !Params::specs().any(|s| hit(p, s))) {
        return Err(SelectError::NoMatch((*p).to_string()));
    }
    let ids: Vec<ParamId> =
        Params::specs().enumerate().filter(|(_, s)| list.iter().any(|p| hit(p, s))).map(|(i, _)| ParamId(i)).collect();
    if ids.len() > max {
        return Err(SelectError::TooMany { patterns: patterns.to_string(), count: ids.len(), max });
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> &'static ParamSpec {
        Params::find(name).unwrap().1
    }

    #[test]
    fn the_step_rule_on_parameters_of_every_kind() {
        // Five percent of the value.
        assert_eq!(c_end(spec("pawn_mg"), 100), 5.0);
        assert_eq!(c_end(spec("queen_mg"), 939), 46.95);
        // The knight (16 cp by the value) gets a hundredth of its wide [100, 2000] range: 19 cp,
        // not the old rule's 95.
        assert_eq!(c_end(spec("knight_mg"), 321), 19.0);
        // A square-table term near 0: a hundredth of its [-150, 150] range.
        assert_eq!(c_end(spec("pst_knight_rank_3_mg"), 0), 3.0);
        assert_eq!(c_end(spec("pst_pawn_file_a_mg"), -21), 3.0);
        // A small term: at least one unit.
        assert_eq!(c_end(spec("tempo"), 10), 1.0);
        // A 0/1 switch: a quarter of its range.
        assert_eq!(c_end(spec("null_move_use"), 1), 0.25);
        // The value matters, not the declared default (a tune from another start).
        assert_eq!(c_end(spec("knight_mg"), 1200), 60.0);
        assert_eq!(r_end(spec("knight_mg")), 0.002);
    }

    crate::declare_params! {
        /// A section declaring its own steps.
        pub struct Stepped in "stepped" {
            /// Declared step and rate
            both: 100, [0, 1000], step 7.5, r_end 0.004;
            /// Declared step only
            step_only: 100, [0, 1000], step 3;
            /// The rule
            plain: 100, [0, 1000];
        }
    }

    #[test]
    fn a_declared_step_and_rate_win_over_the_rule() {
        use crate::params::ParamSection;
        let [both, step_only, plain] = Stepped::specs() else { panic!("three parameters") };
        assert_eq!((c_end(both, 100), r_end(both)), (7.5, 0.004));
        assert_eq!((c_end(step_only, 100), r_end(step_only)), (3.0, DEFAULT_R_END));
        assert_eq!((c_end(plain, 100), r_end(plain)), (10.0, DEFAULT_R_END));
        assert_eq!(line(both, 120), "both, int, 120, 0, 1000, 7.50, 0.004");
    }

    #[test]
    fn patterns_are_prefixes_or_globs() {
        assert!(matches("knight_mg", "knight_mg"));
        assert!(matches("knight", "knight_mobility_high"));
        assert!(!matches("knight", "pst_knight_file_a_mg"));
        assert!(matches("pst_knight_*_mg", "pst_knight_file_a_mg"));
        assert!(!matches("pst_knight_*_mg", "pst_knight_file_a_eg"));
        assert!(matches("*_?g", "pawn_eg"));
        assert!(matches("EVAL.Queen*", "eval.queen_mg"));
        assert!(!matches("*x", "pawn_mg"));
    }

    #[test]
    fn groups_are_selected_in_declaration_order_and_bounded() {
        let names = |ids: &[ParamId]| ids.iter().map(|&i| Params::spec(i).name).collect::<Vec<_>>();
        let ids = select("queen_mg, knight_mg, knight_mg", 20).unwrap();
        assert_eq!(names(&ids), ["knight_mg", "queen_mg"]);
        let ids = select("pst_rook_rank_*_eg", 20).unwrap();
        assert_eq!(ids.len(), 8);
        assert!(names(&ids).iter().all(|n| n.starts_with("pst_rook_rank_") && n.ends_with("_eg")));
        assert_eq!(select("search.lmr_min", 20).map(|i| names(&i)).unwrap(), ["lmr_min_depth", "lmr_min_move"]);
        assert_eq!(select("knight_mg,kinght_eg", 20), Err(SelectError::NoMatch("kinght_eg".into())));
        assert_eq!(select("knight_mg,", 20), Err(SelectError::Empty("knight_mg,".into())));
        let e = select("pst_*", 20).unwrap_err();
        assert!(matches!(e, SelectError::TooMany { count, max: 20, .. } if count > 100), "{e}");
        assert!(e.to_string().contains("more than 20"), "{e}");
        assert_eq!(
            select("pst_*", 1000).unwrap().len(),
            Params::specs().filter(|s| s.name.starts_with("pst_")).count()
        );
    }
}
