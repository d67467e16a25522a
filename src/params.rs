//! Every tunable of the engine, declared exactly once.
//!
//! A section (`EvalParams`, `SearchParams`) is declared with [`declare_params!`]: one line per
//! parameter giving its doc, default, minimum and maximum. From that single declaration come
//!
//! * the serde struct with its `Default` (TOML save, embedding in tuner configs),
//! * the validating TOML loader ([`Params::merge_toml`]): a partial file overrides only its keys;
//!   an unknown key, a wrong type or an out-of-range value is an error naming it,
//! * the UCI spin options (one per parameter, named by its key: `setoption name knight_mg value 320`),
//! * the tuner's parameter space ([`Params::specs`]) and the SPSA export ([`Params::spsa_lines`]).
//!
//! A parameter added after files were written declares `since N was V`: the file format
//! ([`PARAMS_FORMAT`]) that introduced it and the value that plays as the engine did before it.
//! A file that says `format = M` at its top, with M older than N, gets V for such a key it does
//! not set, so a file written before a feature existed keeps playing as it did; a file without
//! `format` (a partial override) takes the defaults for every key it leaves out.
//!
//! A parameter removed after files were written (a failed patch leaves: its SPRT is kept in
//! BENCHMARKS.md, not a switch that is off) is declared in the section's `removed` block with the
//! value at which its feature was off. A file that still names it loads, with a note
//! ([`RemovedKey`], logged as a warning), and plays as the engine now does, which is as at that
//! off value; a file that set it to another value is told clearly that the feature is gone.
//!
//! All parameters are integers (centipawns, plies, quarter plies, 0/1 switches), which is what
//! UCI spin options, Gray-coded genomes and SPSA all want.
//!
//! ```
//! use evochess::params::Params;
//! let mut p = Params::default();
//! p.merge_toml("[eval]\nknight_mg = 333\n").unwrap();
//! assert_eq!(p.eval.knight_mg, 333);
//! let err = p.merge_toml("[eval]\nknight_mg = 99999\n").unwrap_err();
//! assert!(err.to_string().contains("eval.knight_mg"));
//! assert_eq!(p.eval.knight_mg, 333); // a failed load changes nothing
//! ```

pub mod default_file;
pub mod spsa;

use std::{fmt::Write as _, io::Read, path::Path};

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use crate::{eval::params::EvalParams, search::params::SearchParams};

/// The compiled-in defaults, identical to `params/default.toml` (a test checks they agree).
pub const DEFAULT_TOML: &str = include_str!("../params/default.toml");

/// One parameter's declaration: what the tuner, UCI and SPSA need to know about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// Section in the TOML file: `eval` or `search`.
    pub section: &'static str,
    /// Key within the section; also the UCI option name (keys are unique across sections).
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// Declared SPSA `c_end`; `None`: [`spsa::c_end`]'s rule.
    pub spsa_step: Option<f64>,
    /// Declared SPSA `r_end`; `None`: [`spsa::DEFAULT_R_END`].
    pub spsa_r_end: Option<f64>,
    /// One-line description, from the declaration's doc comment.
    pub doc: &'static str,
    /// The file format that added the parameter, for those added after format 1.
    pub since: Option<Introduced>,
}

/// When a parameter was added, and the value it stands for in files written before that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Introduced {
    /// The first [`PARAMS_FORMAT`] that declares the parameter.
    pub format: u32,
    /// The value that plays as the engine did before the parameter existed (its feature off).
    pub before: i32,
}

/// A parameter that was declared once and removed since: a feature whose SPRT failed (or never
/// passed) leaves the code, its record stays in BENCHMARKS.md. Declared in the `removed` block of
/// its section's [`declare_params!`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Removed {
    /// Section in the TOML file.
    pub section: &'static str,
    /// The key it had (no declared parameter may take it again).
    pub name: &'static str,
    /// The value at which its feature was off: how the engine now plays. `None` for a key that
    /// only tuned a removed feature (every value of it plays as the engine now does).
    pub off: Option<i32>,
    /// Why it went and where its record is, from the declaration's doc comment.
    pub why: &'static str,
}

impl Removed {
    /// `section.name`.
    pub fn key(&self) -> String {
        format!("{}.{}", self.section, self.name)
    }
}

/// A key of a loaded file that names a [`Removed`] parameter, with the value the file gave it:
/// the file loaded without it, and this is the note to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemovedKey {
    pub removed: &'static Removed,
    pub value: i64,
}

impl RemovedKey {
    /// Whether the file asked for the removed feature (a value other than its off value): the
    /// engine no longer plays as the file meant.
    pub fn asks_for_it(&self) -> bool {
        self.removed.off.is_some_and(|off| i64::from(off) != self.value)
    }
}

impl std::fmt::Display for RemovedKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = self.removed;
        let (key, why) = (r.key(), r.why);
        match r.off {
            Some(off) if self.asks_for_it() => write!(
                f,
                "`{key}` = {} asks for a feature that was removed ({why}; {RECORD}); the engine plays without it, as at {off}",
                self.value
            ),
            Some(off) => {
                write!(f, "`{key}` was removed ({why}; {RECORD}); ignored: its off value {off} is how the engine plays")
            }
            None => write!(f, "`{key}` was removed ({why}; {RECORD}); ignored"),
        }
    }
}

/// Where the records of the removed parameters are.
const RECORD: &str = "BENCHMARKS.md, \"Failed switches removed\"";

/// The notes to show for the removed keys of one file: one line for each key that asked for its
/// feature, and one line listing the others (a full file of an older format names them all).
pub fn removed_key_notes(keys: &[RemovedKey]) -> Vec<String> {
    let mut notes: Vec<String> = keys.iter().filter(|k| k.asks_for_it()).map(ToString::to_string).collect();
    let ignored: Vec<String> = keys.iter().filter(|k| !k.asks_for_it()).map(|k| k.removed.key()).collect();
    match ignored.as_slice() {
        [] => {}
        [_] => notes.extend(keys.iter().filter(|k| !k.asks_for_it()).map(ToString::to_string)),
        _ => notes.push(format!(
            "{} removed parameters ignored, each at its off value, which is how the engine plays (failed SPRTs: \
             {RECORD}): {}",
            ignored.len(),
            ignored.join(", ")
        )),
    }
    notes
}

/// The revision of the declared parameter set, written at the top of every parameter file
/// (`format = N`). Bump it whenever parameters are added, and declare each added one with
/// `since <new format> was <value before>`. Format 2 added the per-square (`psq_*`) and
/// mobility-table (`mob_*`) terms and the singular-extension refinements, format 3 the king
/// shelter and storm tables (`king_shelter_*`, `king_storm_*`), format 4 more terms after
/// Ethereal 12: pawn structure tables (`pawn_connected_*`, `pawn_candidate_*`,
/// `pawn_backward_*`) and minor and queen terms (`knight_behind_pawn_*`, `bishop_behind_pawn_*`,
/// `knight_siberia_*`, `bishop_long_diagonal_*`, `queen_relative_pin_*`), king area defenders
/// and file distance to the pawns (`king_defenders_*`, `king_pawn_file_proximity_*`), passed
/// pawn tables (`passed_rank_*`, `passed_friendly_distance_*`, `passed_enemy_distance_*`,
/// `passed_safe_promotion_path_*`), space (`space_*`) and closedness (`closedness_*`); format 5
/// the material imbalance (`imbalance_*`), phase-split tables beside single-valued terms and
/// more threats (listed in src/eval/params.rs); format 6 the time manager's trend factors on the
/// soft limit (`tm_trend_min_depth`, `tm_node_*`, `tm_score_*`, `tm_stability_*`); format 7 the
/// re-search depth adjustment of late move reductions (`lmr_research_adjust_use`,
/// `lmr_deeper_*`) and the prior-countermove bonus (`prior_countermove_bonus_use`); format 8
/// turned on Ethereal's history pruning (`history_futility_depth` 8, `history_prune_depth` 3:
/// older files keep them off); format 9 spends more of the clock early (`tm_moves_to_go` 30 →
/// 20, `tm_increment_percent` 50 → 75: older files keep the old budget); format 10 Ethereal 12's
/// other endgame scale cases (`scale_ocb_knights`, `scale_ocb_rooks`, `scale_lone_queen`,
/// `scale_large_pawn_advantage`: older files keep them at 100 %); format 11 Ethereal 12's
/// complexity term (`complexity_*`: older files keep it at 0); format 12 Ethereal 12's
/// quiescence (`qsearch_see_threshold` 0 → 1, `qsearch_see_futility_margin` 0 → 100) and
/// move-loop pruning for a side with only pawns (`pawn_only_pruning_use` 0 → 1) and SEE pruning
/// of quiet checks (`see_prune_quiet_checks_use` 0 → 1): older files keep the search as it was;
/// format 13 caps the SEE pruning of quiet checks at depth 5 (`see_quiet_check_depth` 16 → 5);
/// format 14 searches quiet checks at the first quiescence ply (`qsearch_checks_use` 0 → 1);
/// format 15 corrects the static evaluation by the correction history (`corr_pawn_weight`,
/// `corr_non_pawn_weight` 0 → 420, 460); format 16 keeps the butterfly history apart for moves
/// from and to attacked squares (`threat_history_use` 0 → 1) and orders quiet moves by the
/// attacks of lesser pieces they escape or walk into (`threat_escape_bonus` 0 → 8192); format 17
/// starts singular extensions two plies shallower (`singular_min_depth` 8 → 6); format 18 prunes
/// quiet evasions in check by move count, continuation history and SEE (`in_check_pruning_use`
/// 0 → 1); format 19 Stockfish 11's evaluation terms that ours lacked (`threat_by_safe_pawn_*`,
/// `threat_knight_on_queen_*`, `threat_slider_on_queen_*`, `rook_on_queen_file_*`,
/// `king_protector_*`, `knight_reachable_outpost_*`, `bishop_reachable_outpost_*`,
/// `trapped_rook_*`, `pawnless_flank_*`, `passed_file_*`, `pawn_weak_unopposed_*`: 0 by default,
/// for a fit to set; older files keep them at 0); format 20 the king danger's attacker product
/// (`ks_attacker_product`, 0 by default: older files keep the plain sum of weights); format 21
/// Stockfish 11's king flank attacks (`king_flank_attack_*`, `ks_flank_attacks`, 0 by default;
/// removed after their SPRT failed, the format stays so that the files that name them load).
/// Removing a parameter does not bump it: a file of any format that names a removed key loads
/// with a note ([`Removed`]).
pub const PARAMS_FORMAT: u32 = 21;

/// The top-level key of a parameter file that names its format.
pub const FORMAT_KEY: &str = "format";

impl ParamSpec {
    /// `section.name`, the form used in error messages and search-space files.
    pub fn key(&self) -> String {
        format!("{}.{}", self.section, self.name)
    }
}

/// Why a parameter file or value was rejected. Each variant names the offending key or line,
/// and none quotes the file's text (which may be any file a user points `ParamsFile` at).
#[derive(Debug, Error, PartialEq)]
pub enum ParamError {
    #[error("TOML syntax error at line {line}, column {column}: {message}")]
    Syntax { line: usize, column: usize, message: String },
    #[error("unknown section `{0}` (expected `eval` or `search`)")]
    UnknownSection(String),
    #[error("`format = {found}` is not a parameter file format this engine reads (1 to {newest})")]
    UnknownFormat { found: i64, newest: u32 },
    #[error("section `{0}` must be a table")]
    SectionNotTable(String),
    #[error("unknown parameter `{0}`")]
    UnknownKey(String),
    #[error("parameter `{key}` must be an integer, found {found}")]
    WrongType { key: String, found: String },
    #[error("parameter `{key}` = {value} is out of range [{min}, {max}]")]
    OutOfRange { key: String, value: i64, min: i32, max: i32 },
    #[error("cannot read parameter file {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("parameter file {path} is not a regular file")]
    NotAFile { path: String },
    #[error("parameter file {path} is over the {limit}-byte limit")]
    TooLarge { path: String, limit: u64 },
    /// A content error of the file at `path`, with the line of the key (or section) it names
    /// where the file has one.
    #[error("{path}{}: {source}", at_line(.line))]
    InFile { path: String, line: Option<usize>, source: Box<ParamError> },
}

/// `, line N` for an error's location, or nothing.
fn at_line(line: &Option<usize>) -> String {
    line.map(|l| format!(", line {l}")).unwrap_or_default()
}

impl ParamError {
    /// The section, and key within it, that a content error names (`eval`, `knight_mg`).
    fn culprit(&self) -> Option<(&str, Option<&str>)> {
        match self {
            ParamError::UnknownSection(s) | ParamError::SectionNotTable(s) => Some((s.as_str(), None)),
            ParamError::UnknownFormat { .. } => Some((FORMAT_KEY, None)),
            ParamError::WrongType { key, .. } if key == FORMAT_KEY => Some((FORMAT_KEY, None)),
            ParamError::UnknownKey(k)
            | ParamError::WrongType { key: k, .. }
            | ParamError::OutOfRange { key: k, .. } => k.split_once('.').map(|(s, k)| (s, Some(k))),
            _ => None,
        }
    }
}

/// The line of `text` that sets `section` (`key` within it, when given), from toml's spans;
/// `None` where it cannot say (a key shortened for its message is not found).
fn line_of_key(text: &str, section: &str, key: Option<&str>) -> Option<usize> {
    let doc = toml::de::DeTable::parse(text).ok()?;
    let (name, value) = doc.get_ref().iter().find(|(k, _)| &**k.get_ref() == section)?;
    let at = match (key, value.get_ref()) {
        (Some(key), toml::de::DeValue::Table(entries)) => entries.iter().find(|(k, _)| &**k.get_ref() == key)?.0.span(),
        _ => name.span(),
    };
    Some(line_at(text, at.start))
}

/// The `format` a parameter file names, if it names one.
fn file_format(table: &toml::Table) -> Result<Option<u32>, ParamError> {
    match table.get(FORMAT_KEY) {
        None => Ok(None),
        Some(toml::Value::Integer(n)) => match u32::try_from(*n) {
            Ok(format) if (1..=PARAMS_FORMAT).contains(&format) => Ok(Some(format)),
            _ => Err(ParamError::UnknownFormat { found: *n, newest: PARAMS_FORMAT }),
        },
        Some(other) => {
            Err(ParamError::WrongType { key: FORMAT_KEY.to_string(), found: format!("a {}", other.type_str()) })
        }
    }
}

/// The 1-based line of byte offset `at` of `text`.
fn line_at(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// Largest parameter file read (the full default file is about 20 KB).
pub const MAX_PARAMS_FILE_BYTES: u64 = 1 << 20;

/// Longest key quoted back in an error.
const MAX_QUOTED_KEY: usize = 60;

/// `key`, on one line (its control characters escaped: a quoted key may hold a newline) and
/// shortened, for an error message.
fn quote_key(key: &str) -> String {
    let key = crate::one_line(key);
    match key.char_indices().nth(MAX_QUOTED_KEY) {
        None => key.to_string(),
        Some((i, _)) => format!("{}... ({} bytes)", &key[..i], key.len()),
    }
}

/// A TOML error as line, column and message; toml's own `Display` quotes the offending line.
fn syntax_error(text: &str, e: &toml::de::Error) -> ParamError {
    let at = e.span().map_or(0, |s| s.start.min(text.len()));
    let before = &text.as_bytes()[..at];
    let line = line_at(text, at);
    let column = at - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1) + 1;
    ParamError::Syntax { line, column, message: e.message().trim_end().to_string() }
}

/// A parameter section declared by [`declare_params!`].
pub trait ParamSection: Default + Clone {
    /// The TOML table name.
    const SECTION: &'static str;
    /// Declarations in declaration order.
    fn specs() -> &'static [ParamSpec];
    /// The parameters the section declared once and removed since ([`Removed`]).
    fn removed() -> &'static [Removed];
    /// Value of the parameter at `index` in [`Self::specs`].
    fn get(&self, index: usize) -> i32;
    /// Sets the parameter at `index`; the caller has checked the range.
    fn set_unchecked(&mut self, index: usize, value: i32);
}

/// Declares a parameter section once. Each line: `/// doc` then `name: default, [min, max];`,
/// optionally with its SPSA settings before the `;`: `, step C` (`c_end`) and `, r_end R`
/// (without them [`spsa::c_end`] and [`spsa::r_end`] derive them from the value), and last, for
/// a parameter added after format 1, `, since N was V` (see [`Introduced`]).
///
/// After the struct, an optional `removed { ... }` block lists the parameters removed since
/// (see [`Removed`]): `/// why` then `name = OFF;` (the value at which its feature was off) or
/// `name;` (a key that only tuned a removed feature).
#[macro_export]
macro_rules! declare_params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident in $section:literal {
            $( $(#[doc = $doc:literal])+ $field:ident : $default:expr, [$min:expr, $max:expr]
               $(, step $step:expr)? $(, r_end $r_end:expr)? $(, since $since:literal was $before:expr)?; )*
        }
        $( removed {
            $( $(#[doc = $rdoc:literal])+ $rfield:ident $(= $roff:expr)?; )*
        } )?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct $name {
            $( $(#[doc = $doc])+ pub $field: i32, )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $( $field: $default, )* }
            }
        }

        impl $crate::params::ParamSection for $name {
            const SECTION: &'static str = $section;

            fn specs() -> &'static [$crate::params::ParamSpec] {
                const SPECS: &[$crate::params::ParamSpec] = &[ $(
                    $crate::params::ParamSpec {
                        section: $section,
                        name: stringify!($field),
                        default: $default,
                        min: $min,
                        max: $max,
                        spsa_step: $crate::params::declared(&[$($step as f64)?]),
                        spsa_r_end: $crate::params::declared(&[$($r_end as f64)?]),
                        doc: $crate::params::trim_doc(concat!($($doc),+)),
                        since: $crate::params::introduced(&[$($crate::params::Introduced { format: $since, before: $before })?]),
                    },
                )* ];
                SPECS
            }

            fn removed() -> &'static [$crate::params::Removed] {
                const REMOVED: &[$crate::params::Removed] = &[ $($(
                    $crate::params::Removed {
                        section: $section,
                        name: stringify!($rfield),
                        off: $crate::params::off_value(&[$($roff)?]),
                        why: $crate::params::trim_doc(concat!($($rdoc),+)),
                    },
                )*)? ];
                REMOVED
            }

            #[allow(unused_assignments)]
            fn get(&self, index: usize) -> i32 {
                let mut i = 0;
                $( if i == index { return self.$field; } i += 1; )*
                panic!("parameter index {index} out of bounds for section {}", $section)
            }

            #[allow(unused_assignments)]
            fn set_unchecked(&mut self, index: usize, value: i32) {
                let mut i = 0;
                $( if i == index { self.$field = value; return; } i += 1; )*
                panic!("parameter index {index} out of bounds for section {}", $section)
            }
        }
    };
}

/// An optional part of a declaration line: the value given, if one was (usable in consts).
pub const fn declared(given: &[f64]) -> Option<f64> {
    match given {
        [x] => Some(*x),
        _ => None,
    }
}

/// The optional `since` part of a declaration line (usable in consts).
pub const fn introduced(given: &[Introduced]) -> Option<Introduced> {
    match given {
        [x] => Some(*x),
        _ => None,
    }
}

/// The optional off value of a `removed` line (usable in consts).
pub const fn off_value(given: &[i32]) -> Option<i32> {
    match given {
        [x] => Some(*x),
        _ => None,
    }
}

/// Strips the leading space rustdoc leaves on `/// doc` lines (usable in consts).
pub const fn trim_doc(s: &'static str) -> &'static str {
    match s.as_bytes() {
        [b' ', rest @ ..] => match std::str::from_utf8(rest) {
            Ok(t) => t,
            Err(_) => s,
        },
        _ => s,
    }
}

/// All engine parameters: the evaluation and the search sections.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    pub eval: EvalParams,
    pub search: SearchParams,
}

/// Addresses one parameter inside [`Params`] (index into [`Params::specs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParamId(pub usize);

impl Params {
    /// Every parameter's declaration: the eval section first, then search.
    pub fn specs() -> impl Iterator<Item = &'static ParamSpec> {
        EvalParams::specs().iter().chain(SearchParams::specs())
    }

    /// Number of parameters in all sections.
    pub fn count() -> usize {
        EvalParams::specs().len() + SearchParams::specs().len()
    }

    /// Finds a parameter by `name`, `section.name`, case-insensitively (UCI option names are).
    pub fn find(name: &str) -> Option<(ParamId, &'static ParamSpec)> {
        let name = name.trim();
        Self::specs()
            .enumerate()
            .find(|(_, s)| s.name.eq_ignore_ascii_case(name) || s.key().eq_ignore_ascii_case(name))
            .map(|(i, s)| (ParamId(i), s))
    }

    pub fn spec(id: ParamId) -> &'static ParamSpec {
        Self::specs().nth(id.0).expect("valid ParamId")
    }

    pub fn get(&self, id: ParamId) -> i32 {
        let n = EvalParams::specs().len();
        if id.0 < n { self.eval.get(id.0) } else { self.search.get(id.0 - n) }
    }

    /// Sets one parameter after checking its range; on error nothing changes.
    pub fn set(&mut self, id: ParamId, value: i64) -> Result<(), ParamError> {
        let spec = Self::spec(id);
        if value < i64::from(spec.min) || value > i64::from(spec.max) {
            return Err(ParamError::OutOfRange { key: spec.key(), value, min: spec.min, max: spec.max });
        }
        let n = EvalParams::specs().len();
        let v = value as i32;
        if id.0 < n {
            self.eval.set_unchecked(id.0, v)
        } else {
            self.search.set_unchecked(id.0 - n, v)
        }
        Ok(())
    }

    /// Sets every evaluation parameter for which `keep` is false to 0, or to the nearest value
    /// its range allows (a divisor's minimum): an evaluation made of the kept terms only, with
    /// the search section untouched.
    pub fn zero_eval_except(&mut self, keep: impl Fn(ParamId) -> bool) {
        for (i, spec) in Self::specs().enumerate() {
            if spec.section == "eval" && !keep(ParamId(i)) {
                self.set(ParamId(i), i64::from(0.clamp(spec.min, spec.max))).expect("clamped into range");
            }
        }
    }

    /// Sets a parameter by name (`knight_mg` or `eval.knight_mg`).
    pub fn set_by_name(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let (id, _) = Self::find(name).ok_or_else(|| ParamError::UnknownKey(quote_key(name)))?;
        self.set(id, value)
    }

    /// Every removed parameter ([`Removed`]): the eval section's, then the search section's.
    pub fn removed() -> impl Iterator<Item = &'static Removed> {
        EvalParams::removed().iter().chain(SearchParams::removed())
    }

    /// Finds a removed parameter by `name` or `section.name`, case-insensitively.
    pub fn find_removed(name: &str) -> Option<&'static Removed> {
        let name = name.trim();
        Self::removed().find(|r| r.name.eq_ignore_ascii_case(name) || r.key().eq_ignore_ascii_case(name))
    }

    /// Parses a TOML document and returns a copy of `self` with its keys applied. A key that
    /// names a removed parameter is logged as a warning ([`Params::with_toml_noted`]).
    pub fn with_toml(&self, text: &str) -> Result<Params, ParamError> {
        let (params, removed) = self.with_toml_noted(text)?;
        for note in removed_key_notes(&removed) {
            log::warn!("params: {note}");
        }
        Ok(params)
    }

    /// [`Params::with_toml`], returning the keys of removed parameters the document named
    /// instead of logging them: they load without effect (the engine plays as at their off
    /// values), whatever integer they hold; any other unknown key is an error.
    pub fn with_toml_noted(&self, text: &str) -> Result<(Params, Vec<RemovedKey>), ParamError> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| syntax_error(text, &e))?;
        let mut out = self.clone();
        let mut removed = Vec::new();
        // A file of an older format: the parameters added since stand at their old values
        // unless the file sets them below.
        if let Some(format) = file_format(&table)? {
            for (i, spec) in Self::specs().enumerate() {
                if let Some(since) = spec.since
                    && since.format > format
                {
                    out.set(ParamId(i), i64::from(since.before))?;
                }
            }
        }
        for (section, value) in &table {
            if section == FORMAT_KEY {
                continue;
            }
            let toml::Value::Table(entries) = value else {
                return Err(if section == "eval" || section == "search" {
                    ParamError::SectionNotTable(section.clone())
                } else {
                    ParamError::UnknownSection(quote_key(section))
                });
            };
            if section != EvalParams::SECTION && section != SearchParams::SECTION {
                return Err(ParamError::UnknownSection(quote_key(section)));
            }
            for (key, value) in entries {
                let full = format!("{section}.{key}");
                let found = Self::find(&full);
                let gone = if found.is_none() { Self::find_removed(&full) } else { None };
                if found.is_none() && gone.is_none() {
                    return Err(ParamError::UnknownKey(quote_key(&full)));
                }
                let number = match value {
                    toml::Value::Integer(n) => *n,
                    toml::Value::Boolean(b) => i64::from(*b),
                    // The type only: the value is file text.
                    other => return Err(ParamError::WrongType { key: full, found: format!("a {}", other.type_str()) }),
                };
                match (found, gone) {
                    (Some((id, _)), _) => out.set(id, number)?,
                    (None, Some(r)) => removed.push(RemovedKey { removed: r, value: number }),
                    (None, None) => unreachable!("refused above"),
                }
            }
        }
        Ok((out, removed))
    }

    /// Applies a (possibly partial) TOML document; on any error `self` is left unchanged.
    pub fn merge_toml(&mut self, text: &str) -> Result<(), ParamError> {
        *self = self.with_toml(text)?;
        Ok(())
    }

    /// Defaults overridden by the file at `path`.
    ///
    /// # Errors
    /// Besides the content errors of [`Params::with_toml`]: [`ParamError::NotAFile`] for anything
    /// but a regular file (a FIFO would block, `/dev/zero` would never end) and
    /// [`ParamError::TooLarge`] past [`MAX_PARAMS_FILE_BYTES`].
    pub fn load(path: impl AsRef<Path>) -> Result<Params, ParamError> {
        Params::default().with_file(path)
    }

    /// A copy of `self` overridden by the file at `path`; errors as [`Params::load`]. The
    /// removed parameters the file names are logged as warnings naming the file.
    pub fn with_file(&self, path: impl AsRef<Path>) -> Result<Params, ParamError> {
        let path = path.as_ref();
        let (params, removed) = self.with_file_noted(path)?;
        for note in removed_key_notes(&removed) {
            log::warn!("params: {}: {note}", path.display());
        }
        Ok(params)
    }

    /// [`Params::with_file`], returning the removed parameters the file names instead of
    /// logging them (see [`Params::with_toml_noted`]).
    pub fn with_file_noted(&self, path: impl AsRef<Path>) -> Result<(Params, Vec<RemovedKey>), ParamError> {
        let path = path.as_ref();
        let shown = || path.display().to_string();
        let io = |e: std::io::Error| ParamError::Io { path: shown(), reason: e.to_string() };
        // Regular files only, opened without blocking (a FIFO, or `/proc/kmsg`, would hang).
        let file = crate::input::open_regular(path).map_err(|e| match e {
            crate::input::InputError::NotAFile { .. } => ParamError::NotAFile { path: shown() },
            other => ParamError::Io { path: shown(), reason: other.reason() },
        })?;
        let mut bytes = Vec::new();
        file.take(MAX_PARAMS_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
        if bytes.len() as u64 > MAX_PARAMS_FILE_BYTES {
            return Err(ParamError::TooLarge { path: shown(), limit: MAX_PARAMS_FILE_BYTES });
        }
        let text = String::from_utf8(bytes).map_err(|e| ParamError::Io {
            path: shown(),
            reason: format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        })?;
        self.with_toml_noted(&text).map_err(|e| {
            let line = e.culprit().and_then(|(section, key)| line_of_key(&text, section, key));
            ParamError::InFile { path: shown(), line, source: Box::new(e) }
        })
    }

    /// The full parameter file: every key with its doc and range as a comment.
    pub fn to_toml(&self) -> String {
        self.write_toml(true)
    }

    /// Every key and value, without comments: what run fingerprints hash, so that editing a
    /// parameter's doc line does not orphan the tuner's checkpoints.
    pub fn values_toml(&self) -> String {
        self.write_toml(false)
    }

    fn write_toml(&self, docs: bool) -> String {
        let mut out = format!("{FORMAT_KEY} = {PARAMS_FORMAT}\n");
        if docs {
            out.push_str("# (the parameter set's revision: a later engine plays the keys it adds as before them)\n");
        }
        let mut section = "";
        for (i, spec) in Self::specs().enumerate() {
            if spec.section != section {
                section = spec.section;
                if !out.is_empty() {
                    out.push('\n');
                }
                let _ = writeln!(out, "[{section}]");
            }
            if docs {
                let _ = writeln!(out, "# {} [{}, {}]", spec.doc, spec.min, spec.max);
            }
            let _ = writeln!(out, "{} = {}", spec.name, self.get(ParamId(i)));
        }
        out
    }

    /// OpenBench/fishtest SPSA input, one line per parameter:
    /// `name, int, value, min, max, c_end, r_end` ([`spsa`] gives c_end and r_end).
    pub fn spsa_lines(&self) -> Vec<String> {
        Self::specs().enumerate().map(|(i, s)| spsa::line(s, self.get(ParamId(i)))).collect()
    }

    /// The SPSA lines of `ids` only (a group chosen by [`spsa::select`]).
    pub fn spsa_lines_of(&self, ids: &[ParamId]) -> Vec<String> {
        ids.iter().map(|&id| spsa::line(Self::spec(id), self.get(id))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `params/default.toml` is generated from the declaration below its own header (the
    /// defaults' lineage, kept); regenerate it with
    /// `UPDATE_DEFAULT_TOML=1 cargo test -p evochess --lib default_toml`.
    #[test]
    fn default_toml_matches_declaration() {
        let (header, _) = default_file::split_header(DEFAULT_TOML);
        assert!(header.starts_with(default_file::PREAMBLE), "params/default.toml lost its header:\n{header}");
        let generated = default_file::file_text(header, &Params::default());
        if std::env::var_os("UPDATE_DEFAULT_TOML").is_some() {
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/params/default.toml"), &generated).unwrap();
            return;
        }
        assert_eq!(Params::default().with_toml(DEFAULT_TOML).unwrap(), Params::default());
        assert_eq!(DEFAULT_TOML, generated, "params/default.toml is stale; regenerate it");
    }

    #[test]
    fn names_are_unique_and_defaults_in_range() {
        let mut seen = std::collections::HashSet::new();
        for s in Params::specs() {
            assert!(seen.insert(s.name.to_ascii_lowercase()), "duplicate parameter name {}", s.name);
            assert!(s.min <= s.default && s.default <= s.max, "{} default out of range", s.key());
            assert!(!s.doc.is_empty(), "{} has no doc", s.key());
        }
        assert_eq!(seen.len(), Params::count());
    }

    #[test]
    fn bad_files_name_the_culprit() {
        let p = Params::default();
        let e = p.with_toml("[eval]\nno_such_term = 3\n").unwrap_err();
        assert_eq!(e, ParamError::UnknownKey("eval.no_such_term".into()));
        let e = p.with_toml("[eval]\nknight_mg = \"lots\"\n").unwrap_err();
        assert!(matches!(&e, ParamError::WrongType { key, .. } if key == "eval.knight_mg"), "{e}");
        let e = p.with_toml("[search]\nnull_move_use = 5\n").unwrap_err();
        assert_eq!(e, ParamError::OutOfRange { key: "search.null_move_use".into(), value: 5, min: 0, max: 1 });
        assert!(matches!(p.with_toml("[engine]\nx = 1\n"), Err(ParamError::UnknownSection(_))));
        assert!(matches!(p.with_toml("[eval\n"), Err(ParamError::Syntax { line: 1, .. })));
    }

    /// Failed patches leave (issue 92 item 7): a file that names a removed parameter still
    /// loads, the key without effect, and says so; an unknown key that was never declared is
    /// still an error naming it.
    #[test]
    fn a_file_naming_a_removed_parameter_loads_with_a_note() {
        let razor = Params::find_removed("razor_depth").expect("razoring was removed");
        assert_eq!((razor.section, razor.off), ("search", Some(0)));
        assert_eq!(Params::find_removed("SEARCH.RAZOR_DEPTH"), Some(razor));
        assert_eq!(Params::find_removed("eval.razor_depth"), None, "in its own section only");
        assert!(Params::find("razor_depth").is_none(), "no longer declared");
        let base = Params::default();
        // At its off value, beside a key that is declared: the declared key applies.
        let text = "format = 17\n[search]\nrazor_depth = 0\nrazor_margin = 450\nlmr_base = 80\n";
        let (p, removed) = base.with_toml_noted(text).unwrap();
        assert_eq!(p.search.lmr_base, 80);
        assert_eq!(p, base.with_toml("format = 17\n[search]\nlmr_base = 80\n").unwrap());
        assert_eq!(base.with_toml(text).unwrap(), p, "the logging form loads the same");
        let keys: Vec<_> = removed.iter().map(|k| (k.removed.name, k.value, k.asks_for_it())).collect();
        assert_eq!(keys, [("razor_depth", 0, false), ("razor_margin", 450, false)]);
        let notes = removed_key_notes(&removed);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("search.razor_depth, search.razor_margin"), "{notes:?}");
        assert!(notes[0].contains("BENCHMARKS.md"), "{notes:?}");
        let one = removed[0].to_string();
        assert!(one.contains("`search.razor_depth` was removed (razoring, SPRT"), "{one}");
        assert!(one.contains("its off value 0"), "{one}");
        // At another value: it still loads, as the engine now plays, and the note says the
        // feature the file asked for is gone.
        let (p, removed) = base.with_toml_noted("[search]\nrazor_depth = 3\n").unwrap();
        assert_eq!(p, base);
        assert!(removed[0].asks_for_it());
        let notes = removed_key_notes(&removed);
        assert!(notes[0].contains("`search.razor_depth` = 3 asks for a feature that was removed"), "{notes:?}");
        assert!(notes[0].contains("as at 0"), "{notes:?}");
        // Its value must still be a number; a key never declared is still refused by name.
        let e = base.with_toml("[search]\nrazor_depth = \"on\"\n").unwrap_err();
        assert!(matches!(&e, ParamError::WrongType { key, .. } if key == "search.razor_depth"), "{e}");
        let e = base.with_toml("[search]\nrazor_dept = 0\n").unwrap_err();
        assert_eq!(e, ParamError::UnknownKey("search.razor_dept".into()));
        assert_eq!(
            base.with_toml("[eval]\nrazor_depth = 0\n").unwrap_err(),
            ParamError::UnknownKey("eval.razor_depth".into())
        );
    }

    /// A removed name is never declared again, each is listed once, and each has its reason.
    #[test]
    fn removed_parameters_are_declared_nowhere_else() {
        let mut seen = std::collections::HashSet::new();
        for r in Params::removed() {
            assert!(seen.insert(r.name.to_ascii_lowercase()), "{} removed twice", r.key());
            assert!(Params::find(r.name).is_none(), "{} is removed and declared", r.key());
            assert!(!r.why.is_empty(), "{} gives no reason", r.key());
        }
    }

    #[test]
    fn file_errors_give_the_line_of_the_key() {
        let text = "[eval]\nknight_mg = 300\n\n[search]\nno_such = 1\n";
        assert_eq!(line_of_key(text, "search", Some("no_such")), Some(5));
        assert_eq!(line_of_key(text, "search", None), Some(4));
        assert_eq!(line_of_key(text, "search", Some("absent")), None);
        assert_eq!(line_of_key("\neval.knight_mg = 1\n", "eval", Some("knight_mg")), Some(2));
        let e = Params::default().with_toml(text).unwrap_err();
        assert_eq!(e.culprit(), Some(("search", Some("no_such"))));
    }

    #[test]
    fn values_toml_is_the_file_without_comments() {
        let p = Params::default();
        let values = p.values_toml();
        assert!(!values.contains('#'));
        let stripped: String = p.to_toml().lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
        assert_eq!(values, stripped);
        assert_eq!(p.with_toml(&values).unwrap(), p);
    }

    #[test]
    fn a_file_of_an_older_format_plays_the_keys_added_since_as_before_them() {
        let added: Vec<_> = Params::specs().enumerate().filter(|(_, s)| s.since.is_some()).collect();
        assert!(added.len() >= 504, "format 2 added the psq_, mob_ and singular refinement keys");
        for (_, s) in &added {
            let since = s.since.unwrap();
            assert!((2..=PARAMS_FORMAT).contains(&since.format), "{}: {since:?}", s.key());
            assert!((s.min..=s.max).contains(&since.before), "{}: {since:?} out of range", s.key());
        }
        let base = Params::default();
        let old = base.with_toml("format = 1\n[eval]\nknight_mg = 333\npsq_knight_d4_mg = 7\n").unwrap();
        assert_eq!(old.eval.knight_mg, 333);
        assert_eq!(old.eval.psq_knight_d4_mg, 7, "a key the file sets wins");
        assert_eq!((old.eval.psq_knight_d5_mg, old.eval.mob_queen_0_eg), (0, 0));
        assert_eq!(
            (old.search.singular_double_max, old.search.singular_negative_extension, old.search.lmr_tt_noisy),
            (0, 0, 0)
        );
        assert_eq!(old.search.null_move_reduction, base.search.null_move_reduction, "format-1 keys keep the base");
        // Format 5 (before the time manager's trend factors): each factor plays at 100 %.
        let f5 = base.with_toml("format = 5\n").unwrap().search;
        assert_eq!(
            (f5.tm_node_weight_percent, f5.tm_node_base_percent, f5.tm_score_low_percent, f5.tm_score_high_percent),
            (0, 100, 100, 100)
        );
        assert_eq!((f5.tm_stability_base_percent, f5.tm_stability_step_percent), (100, 0));
        assert_eq!(f5.singular_double_max, base.search.singular_double_max, "format-2 keys keep the base");
        // Format 6 (before the re-search depth adjustment and the prior-countermove bonus): off.
        let f6 = base.with_toml("format = 6\n").unwrap().search;
        assert_eq!((f6.lmr_research_adjust_use, f6.prior_countermove_bonus_use), (0, 0));
        assert_eq!(f6.lmr_deeper_margin, base.search.lmr_deeper_margin, "the margins keep the base");
        // Both format-7 switches are on by default (their SPRT passed).
        assert_eq!((base.search.lmr_research_adjust_use, base.search.prior_countermove_bonus_use), (1, 1));
        // Format 7 (before history pruning was turned on): off.
        let f7 = base.with_toml("format = 7\n").unwrap().search;
        assert_eq!((f7.history_futility_depth, f7.history_prune_depth), (0, 0));
        assert_eq!((base.search.history_futility_depth, base.search.history_prune_depth), (8, 3));
        assert_eq!(f7.lmr_research_adjust_use, 1, "format-7 keys keep the base");
        // The current format, and a partial file without one, leave the added keys alone.
        for text in [format!("{FORMAT_KEY} = {PARAMS_FORMAT}\n"), String::new()] {
            assert_eq!(base.with_toml(&text).unwrap(), base, "{text:?}");
        }
        assert_eq!(base.with_toml(&base.to_toml()).unwrap(), base);
        assert!(base.to_toml().starts_with(&format!("{FORMAT_KEY} = {PARAMS_FORMAT}\n")));
    }

    #[test]
    fn a_format_this_engine_does_not_know_is_refused_with_its_line() {
        let p = Params::default();
        for n in [0, i64::from(PARAMS_FORMAT) + 1, -1, 1 << 40] {
            let e = p.with_toml(&format!("format = {n}\n[eval]\nknight_mg = 300\n")).unwrap_err();
            assert_eq!(e, ParamError::UnknownFormat { found: n, newest: PARAMS_FORMAT });
            assert!(e.to_string().contains(&format!("format = {n}")), "{e}");
        }
        let text = "# old\nformat = \"one\"\n[eval]\n";
        let e = p.with_toml(text).unwrap_err();
        assert!(matches!(&e, ParamError::WrongType { key, .. } if key == "format"), "{e}");
        assert_eq!(e.culprit().and_then(|(s, k)| line_of_key(text, s, k)), Some(2));
    }

    #[test]
    fn partial_file_overrides_only_its_keys() {
        let p = Params::default().with_toml("[eval]\nqueen_mg = 1000\n").unwrap();
        assert_eq!(p.eval.queen_mg, 1000);
        assert_eq!(p.eval.queen_eg, EvalParams::default().queen_eg);
        assert_eq!(p.search, SearchParams::default());
    }

    #[test]
    fn spsa_lines_have_openbench_shape() {
        let p = Params::default();
        let lines = p.spsa_lines();
        assert_eq!(lines.len(), Params::count());
        for line in &lines {
            let fields: Vec<&str> = line.split(", ").collect();
            assert_eq!(fields.len(), 7, "{line}");
            assert_eq!(fields[1], "int");
            assert!(fields[5].parse::<f64>().unwrap() > 0.0 && fields[6] == "0.002", "{line}");
        }
        let (id, _) = Params::find("knight_mg").unwrap();
        assert_eq!(lines[id.0], format!("knight_mg, int, {}, 100, 2000, 19.00, 0.002", p.eval.knight_mg));
        let group = p.spsa_lines_of(&spsa::select("pawn_mg,null_move_use", 20).unwrap());
        assert_eq!(group, ["pawn_mg, int, 100, 50, 200, 5.00, 0.002", "null_move_use, int, 1, 0, 1, 0.25, 0.002"]);
    }
}
