//! Search spaces: which engine parameters a GA evolves, and how they are encoded.
//!
//! A space file (TOML, under `configs/spaces/`) names an encoding for the whole chromosome, optional
//! fixed parameter values, and an ordered list of genes. Each gene drives one or more
//! [`Params`] keys tied together (David et al.'s single KNIGHT_VALUE sets both `knight_mg` and
//! `knight_eg`), over `[min, max]`:
//!
//! ```toml
//! encoding = "gray"            # gray | binary (bit fields) | integer | real (one number per gene)
//! others = "default"           # "zero": evaluation parameters not listed here are set to 0;
//!                              # "evolve": each becomes a gene over its declared range;
//!                              # "hand-set": they keep params/hand-set.toml's values
//!
//! hold = ["eval.ks_adjustment"]  # never genes: they keep the start's value (the seed file's
//!                              # own, else the defaults), and `others` leaves them alone
//!
//! [fixed]                      # applied to the defaults before any gene
//! pawn_mg = 100
//!
//! [[gene]]
//! name = "knight_value"
//! keys = ["eval.knight_mg", "eval.knight_eg"]   # default: [name]
//! min = 100
//! max = 2000
//! bits = 11                    # gray/binary: field width; integer: `step` (default 1)
//! ```
//!
//! Every key is checked against the parameter declaration ([`Params::find`]); errors name the
//! gene and key. Gene order is chromosome order, which matters to one/two-point crossover.
//!
//! ```
//! use tuner::space::SearchSpace;
//! let space = SearchSpace::parse("encoding = \"gray\"\n[[gene]]\nname = \"queen_mg\"\nmin = 400\nmax = 2447\nbits = 11\n").unwrap();
//! let genome = space.genome_of(&space.base());
//! assert_eq!(space.apply(&genome, &space.base()).eval.queen_mg, evochess::Params::default().eval.queen_mg);
//! ```

use std::{collections::HashSet, path::Path};

use evochess::params::{ParamId, ParamSpec, Params};
use serde::Deserialize;
use thiserror::Error;

use crate::genome::{
    Genome,
    encoding::{BinaryGene, BitCoding, Layout, NumericGene},
};

/// The hand-set evaluation, compiled in so that `others = "hand-set"` needs no path.
const HAND_SET_TOML: &str = include_str!("../../params/hand-set.toml");

/// The defaults with `params/hand-set.toml` applied.
pub fn hand_set() -> Params {
    Params::default().with_toml(HAND_SET_TOML).expect("params/hand-set.toml is checked by the space tests")
}

/// How the whole chromosome is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    Gray,
    Binary,
    Integer,
    Real,
}

impl Encoding {
    pub fn is_binary(self) -> bool {
        matches!(self, Encoding::Gray | Encoding::Binary)
    }
}

/// Why a search-space file was rejected.
#[derive(Debug, Error, PartialEq)]
pub enum SpaceError {
    #[error("cannot read search space {path}: {reason}")]
    Io { path: String, reason: String },
    #[error("search space: {0}")]
    Syntax(String),
    #[error("search space gene `{gene}`: unknown parameter `{key}`")]
    UnknownKey { gene: String, key: String },
    #[error(
        "search space gene `{gene}`: range [{min}, {max}] exceeds parameter `{key}`'s declared range [{kmin}, {kmax}]"
    )]
    OutOfRange { gene: String, key: String, min: i64, max: i64, kmin: i32, kmax: i32 },
    #[error("search space gene `{gene}`: {reason}")]
    Invalid { gene: String, reason: String },
    #[error("search space: parameter `{key}` appears twice (genes/fixed `{first}` and `{second}`)")]
    DuplicateKey { key: String, first: String, second: String },
    #[error("search space [fixed]: {0}")]
    Fixed(String),
    #[error("search space `hold`: {0}")]
    Hold(String),
    /// A content error of the space file at `path`.
    #[error("{path}: {source}")]
    InFile { path: String, source: Box<SpaceError> },
}

impl SpaceError {
    /// This content error, naming the file it was found in.
    pub fn in_file(self, path: &Path) -> SpaceError {
        SpaceError::InFile { path: path.display().to_string(), source: Box::new(self) }
    }
}

/// What happens to evaluation parameters that are neither genes nor `[fixed]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Others {
    /// Keep the engine defaults.
    #[default]
    Default,
    /// Keep the hand-set evaluation (`params/hand-set.toml`, the defaults before the tuner's
    /// refinement replaced them): a run that evolves a few terms inside it, such as EVOL*'s
    /// pipeline, means the same thing whatever the defaults become.
    #[serde(rename = "hand-set")]
    HandSet,
    /// Set to 0 (or the value nearest 0 in the declared range), so that only the space's terms
    /// act: David et al.'s program has just its 35 parameters.
    Zero,
    /// Every evaluation parameter not listed becomes a gene of its own over its declared
    /// range, appended in declaration order: the whole evaluation evolves, and the space
    /// follows the declaration when parameters are added.
    Evolve,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpace {
    encoding: Encoding,
    #[serde(default)]
    others: Others,
    #[serde(default)]
    hold: Vec<String>,
    #[serde(default)]
    fixed: toml::Table,
    #[serde(default, rename = "gene")]
    genes: Vec<RawGene>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGene {
    name: String,
    keys: Option<Vec<String>>,
    min: i64,
    max: i64,
    bits: Option<u32>,
    step: Option<i64>,
}

/// One gene: a value in `[min, max]` written to every key in `keys`.
#[derive(Clone, Debug, PartialEq)]
pub struct Gene {
    pub name: String,
    pub keys: Vec<ParamId>,
    pub min: i32,
    pub max: i32,
    /// Field width (binary encodings).
    pub bits: Option<u32>,
    /// Value spacing (integer encoding).
    pub step: Option<i32>,
}

/// A validated search space.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSpace {
    pub encoding: Encoding,
    pub others: Others,
    pub genes: Vec<Gene>,
    pub fixed: Vec<(ParamId, i32)>,
    /// Parameters kept at the start's value: neither genes nor fixed, and untouched by `others`
    /// (a fit of "every term but these" that cannot drift from the file it starts from).
    pub held: Vec<ParamId>,
    layout: Layout,
}

/// Largest space file read (the full space of every parameter is about 100 KB).
pub const MAX_SPACE_BYTES: u64 = 4 << 20;

/// A key or gene name of a space file as an error quotes it: on one line.
fn shown(text: &str) -> String {
    evochess::one_line(text).into_owned()
}

/// The parameters claimed so far, each with who claimed it (a gene's name, `fixed` or `hold`):
/// a parameter claimed twice is an error naming both.
#[derive(Default)]
struct Claims(Vec<(ParamId, String)>);

impl Claims {
    fn claim(&mut self, id: ParamId, who: &str) -> Result<(), SpaceError> {
        if let Some((_, first)) = self.0.iter().find(|(k, _)| *k == id) {
            return Err(SpaceError::DuplicateKey {
                key: Params::spec(id).key(),
                first: shown(first),
                second: shown(who),
            });
        }
        self.0.push((id, who.to_string()));
        Ok(())
    }

    fn has(&self, id: ParamId) -> bool {
        self.0.iter().any(|(k, _)| *k == id)
    }
}

/// The `[fixed]` table: known parameters with integer values in their declared ranges.
fn parse_fixed(table: &toml::Table, claims: &mut Claims) -> Result<Vec<(ParamId, i32)>, SpaceError> {
    let mut fixed = Vec::new();
    for (key, value) in table {
        let (id, spec) =
            Params::find(key).ok_or_else(|| SpaceError::Fixed(format!("unknown parameter `{}`", shown(key))))?;
        let v = value.as_integer().ok_or_else(|| SpaceError::Fixed(format!("`{key}` must be an integer")))?;
        if v < i64::from(spec.min) || v > i64::from(spec.max) {
            return Err(SpaceError::Fixed(format!("`{key}` = {v} is out of range [{}, {}]", spec.min, spec.max)));
        }
        claims.claim(id, "fixed")?;
        fixed.push((id, v as i32));
    }
    Ok(fixed)
}

/// The `hold` list: known parameters.
fn parse_held(keys: &[String], claims: &mut Claims) -> Result<Vec<ParamId>, SpaceError> {
    let mut held = Vec::new();
    for key in keys {
        let (id, _) =
            Params::find(key).ok_or_else(|| SpaceError::Hold(format!("unknown parameter `{}`", shown(key))))?;
        claims.claim(id, "hold")?;
        held.push(id);
    }
    Ok(held)
}

/// One `[[gene]]`: its range, its keys (known, unclaimed, declared wide enough) and the fields
/// its encoding takes.
fn parse_gene(g: &RawGene, encoding: Encoding, claims: &mut Claims) -> Result<Gene, SpaceError> {
    let bad = |reason: String| SpaceError::Invalid { gene: shown(&g.name), reason };
    if g.min > g.max {
        return Err(bad(format!("min {} is above max {}", g.min, g.max)));
    }
    let key_names = g.keys.clone().unwrap_or_else(|| vec![g.name.clone()]);
    if key_names.is_empty() {
        return Err(bad("`keys` is empty".into()));
    }
    let mut keys = Vec::new();
    for k in &key_names {
        let (id, spec): (ParamId, &ParamSpec) =
            Params::find(k).ok_or_else(|| SpaceError::UnknownKey { gene: shown(&g.name), key: shown(k) })?;
        if g.min < i64::from(spec.min) || g.max > i64::from(spec.max) {
            return Err(SpaceError::OutOfRange {
                gene: shown(&g.name),
                key: spec.key(),
                min: g.min,
                max: g.max,
                kmin: spec.min,
                kmax: spec.max,
            });
        }
        claims.claim(id, &g.name)?;
        keys.push(id);
    }
    check_encoding_fields(g, encoding).map_err(bad)?;
    Ok(Gene {
        name: g.name.clone(),
        keys,
        min: g.min as i32,
        max: g.max as i32,
        bits: g.bits,
        step: if encoding == Encoding::Integer { Some(g.step.unwrap_or(1) as i32) } else { None },
    })
}

/// Why a gene's `bits` and `step` do not suit the encoding: binary genes need `bits`, integer
/// genes may have a `step`, real genes take neither.
fn check_encoding_fields(g: &RawGene, encoding: Encoding) -> Result<(), String> {
    match encoding {
        Encoding::Gray | Encoding::Binary => {
            let bits = g.bits.ok_or_else(|| format!("`bits` is required with {encoding:?} encoding"))?;
            if !(1..=32).contains(&bits) {
                return Err(format!("bits = {bits} must be in 1..=32"));
            }
            if g.step.is_some() {
                return Err("`step` applies to the integer encoding only; binary genes use `bits`".into());
            }
        }
        Encoding::Integer => {
            if g.bits.is_some() {
                return Err("`bits` applies to gray/binary encodings only".into());
            }
            if g.step.is_some_and(|s| s < 1) {
                return Err("`step` must be at least 1".into());
            }
        }
        Encoding::Real => {
            if g.bits.is_some() || g.step.is_some() {
                return Err("real genes take only min and max".into());
            }
        }
    }
    Ok(())
}

/// `others = "evolve"`: a gene over its declared range for every evaluation parameter nothing
/// claimed, in declaration order.
fn unclaimed_genes(encoding: Encoding, claims: &Claims) -> Vec<Gene> {
    let mut genes = Vec::new();
    for (i, spec) in Params::specs().enumerate() {
        let id = ParamId(i);
        if spec.section != "eval" || claims.has(id) {
            continue;
        }
        let span = u64::try_from(i64::from(spec.max) - i64::from(spec.min)).expect("min <= max");
        let binary = encoding.is_binary();
        genes.push(Gene {
            name: spec.name.to_string(),
            keys: vec![id],
            min: spec.min,
            max: spec.max,
            // Enough bits for every value of the range (one value needs one bit).
            bits: binary.then(|| (u64::BITS - span.leading_zeros()).max(1)),
            step: (encoding == Encoding::Integer).then_some(1),
        });
    }
    genes
}

/// The chromosome shape of validated genes under `encoding`.
fn layout_of(encoding: Encoding, genes: &[Gene]) -> Layout {
    match encoding {
        Encoding::Gray | Encoding::Binary => Layout::Bits {
            coding: if encoding == Encoding::Gray { BitCoding::Gray } else { BitCoding::Binary },
            genes: genes
                .iter()
                .map(|g| BinaryGene { min: g.min, max: g.max, bits: g.bits.expect("validated") })
                .collect(),
        },
        Encoding::Integer | Encoding::Real => Layout::Numeric(
            genes
                .iter()
                .map(|g| NumericGene { min: f64::from(g.min), max: f64::from(g.max), step: g.step.map(f64::from) })
                .collect(),
        ),
    }
}

impl SearchSpace {
    /// Reads and validates a space file.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, SpaceError> {
        let path = path.as_ref();
        // A regular file of bounded size only: `/dev/zero` or a FIFO must not hang or fill memory.
        let text = evochess::input::read_text(path, MAX_SPACE_BYTES).map_err(|e| SpaceError::Io {
            path: path.display().to_string(),
            reason: e.to_string().replace(&format!("`{}`: ", path.display()), ""),
        })?;
        Self::parse(&text).map_err(|e| e.in_file(path))
    }

    /// Parses and validates a space document. Each parameter may be claimed once, by `[fixed]`,
    /// `hold` or a gene, checked in that order (so a file with several faults is told the first).
    pub fn parse(text: &str) -> Result<Self, SpaceError> {
        let raw: RawSpace = toml::from_str(text).map_err(|e| SpaceError::Syntax(e.to_string()))?;
        let mut claims = Claims::default();
        let fixed = parse_fixed(&raw.fixed, &mut claims)?;
        let held = parse_held(&raw.hold, &mut claims)?;
        let mut names = HashSet::new();
        let mut genes = Vec::new();
        for g in raw.genes {
            if !names.insert(g.name.clone()) {
                return Err(SpaceError::Invalid { gene: shown(&g.name), reason: "gene name used twice".into() });
            }
            genes.push(parse_gene(&g, raw.encoding, &mut claims)?);
        }
        if raw.others == Others::Evolve {
            genes.extend(unclaimed_genes(raw.encoding, &claims));
        }
        if genes.is_empty() {
            return Err(SpaceError::Syntax("no [[gene]] entries".into()));
        }
        let layout = layout_of(raw.encoding, &genes);
        Ok(Self { encoding: raw.encoding, others: raw.others, genes, fixed, held, layout })
    }

    /// The chromosome shape of this space.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// What every organism starts from: engine defaults (with the hand-set evaluation if
    /// `others = "hand-set"`; the search section stays the default), evaluation parameters that are
    /// neither genes, held nor fixed zeroed if `others = "zero"`, then the `[fixed]` values.
    pub fn base(&self) -> Params {
        let mut p = Params::default();
        if self.others == Others::HandSet {
            p.eval = hand_set().eval;
        }
        if self.others == Others::Zero {
            let listed: HashSet<ParamId> = self
                .genes
                .iter()
                .flat_map(|g| g.keys.iter().copied())
                .chain(self.fixed.iter().map(|f| f.0))
                .chain(self.held.iter().copied())
                .collect();
            p.zero_eval_except(|id| listed.contains(&id));
        }
        self.with_fixed(&p)
    }

    /// The whole declared evaluation, one gray-coded gene per parameter over its declared
    /// range with just enough bits for it (so every value is encodable), nothing fixed: the
    /// space in which any parameter file is an organism value for value. Built from the
    /// declaration, so it follows it when parameters are added.
    pub fn whole_evaluation() -> SearchSpace {
        Self::parse("encoding = \"gray\"\nothers = \"evolve\"\n").expect("the declaration makes a valid space")
    }

    /// A parameter file as an organism of this space: the genome nearest to it, and the base
    /// that keeps its values outside the space (the file's own, with only `[fixed]` applied;
    /// `others` describes random organisms, never a given file, so nothing of it is zeroed).
    pub fn seed(&self, params: &Params) -> (Genome, Params) {
        (self.genome_of(params), self.with_fixed(params))
    }

    /// The declared parameters whose value [`seed`](Self::seed) changes, in declaration order:
    /// values out of a gene's range or off its grid, tied keys that differed (an endgame value
    /// set to its middlegame twin), and `[fixed]` values.
    pub fn projection_changes(&self, params: &Params) -> Vec<ParamId> {
        let (genome, base) = self.seed(params);
        let projected = self.apply(&genome, &base);
        (0..Params::count()).map(ParamId).filter(|&id| projected.get(id) != params.get(id)).collect()
    }

    /// A log line for [`projection_changes`](Self::projection_changes): how many values the
    /// space changed in the file `name`, and the first few of them.
    pub fn projection_note(&self, name: &str, params: &Params) -> String {
        let changed = self.projection_changes(params);
        if changed.is_empty() {
            return format!("{name}: the search space holds it value for value (0 values changed)");
        }
        let (genome, base) = self.seed(params);
        let projected = self.apply(&genome, &base);
        let shown: Vec<String> = changed
            .iter()
            .take(5)
            .map(|&id| format!("{} {} -> {}", Params::spec(id).key(), params.get(id), projected.get(id)))
            .collect();
        let more =
            if changed.len() > shown.len() { format!(", {} more", changed.len() - shown.len()) } else { String::new() };
        format!(
            "{name}: the search space changed {} of {} values ({}{more})",
            changed.len(),
            Params::count(),
            shown.join(", ")
        )
    }

    /// `params` with the `[fixed]` values applied.
    pub fn with_fixed(&self, params: &Params) -> Params {
        let mut p = params.clone();
        for &(id, v) in &self.fixed {
            p.set(id, i64::from(v)).expect("fixed values are validated");
        }
        p
    }

    /// Each gene's decoded parameter value, in gene order.
    ///
    /// # Panics
    /// If the genome does not fit this space's layout (genomes come from this space).
    pub fn values(&self, genome: &Genome) -> Vec<i32> {
        assert!(genome.fits(&self.layout), "genome does not fit the search space");
        match (&self.layout, genome) {
            (Layout::Bits { coding, genes }, Genome::Bits(bits)) => {
                let mut at = 0;
                genes
                    .iter()
                    .map(|g| {
                        let field = &bits[at..at + g.bits as usize];
                        at += g.bits as usize;
                        g.decode(field, *coding)
                    })
                    .collect()
            }
            (Layout::Numeric(genes), Genome::Numbers(x)) => genes.iter().zip(x).map(|(g, &v)| g.value(v)).collect(),
            _ => unreachable!("checked by fits"),
        }
    }

    /// `base` with every gene's keys set to the genome's values.
    pub fn apply(&self, genome: &Genome, base: &Params) -> Params {
        let mut p = base.clone();
        for (gene, value) in self.genes.iter().zip(self.values(genome)) {
            for &id in &gene.keys {
                p.set(id, i64::from(value)).expect("gene ranges are validated against the declaration");
            }
        }
        p
    }

    /// The genome nearest to `params` (each gene read from its first key, clamped into range).
    pub fn genome_of(&self, params: &Params) -> Genome {
        let values = self.genes.iter().map(|g| params.get(g.keys[0]).clamp(g.min, g.max));
        match &self.layout {
            Layout::Bits { coding, genes } => {
                Genome::Bits(values.zip(genes).flat_map(|(v, g)| g.encode(v, *coding)).collect())
            }
            Layout::Numeric(genes) => Genome::Numbers(values.zip(genes).map(|(v, g)| g.repair(f64::from(v))).collect()),
        }
    }

    /// What the space decides, without the file's comments or layout: encoding, fixed values,
    /// then each gene in chromosome order with its keys, range and width. Run fingerprints
    /// hash this, so that correcting a comment in a space file does not stop a run resuming.
    pub fn canonical(&self) -> String {
        let mut out = format!("encoding={:?} others={:?}\n", self.encoding, self.others);
        for &(id, v) in &self.fixed {
            out += &format!("fixed {}={v}\n", Params::spec(id).key());
        }
        // Written only when present, so that spaces without `hold` keep their fingerprints.
        for &id in &self.held {
            out += &format!("hold {}\n", Params::spec(id).key());
        }
        for g in &self.genes {
            let keys: Vec<String> = g.keys.iter().map(|&id| Params::spec(id).key()).collect();
            out += &format!(
                "gene {} keys={} min={} max={} bits={:?} step={:?}\n",
                g.name,
                keys.join(","),
                g.min,
                g.max,
                g.bits,
                g.step
            );
        }
        out
    }

    /// `name = value` for every gene, for logs.
    pub fn describe(&self, genome: &Genome) -> String {
        self.genes.iter().zip(self.values(genome)).map(|(g, v)| format!("{}={v}", g.name)).collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default and hand-set evaluations: they differ in most values.
    fn two_evaluations() -> [Params; 2] {
        [Params::default(), hand_set()]
    }

    #[test]
    fn the_whole_evaluation_holds_any_evaluation_value_for_value() {
        let whole = SearchSpace::whole_evaluation();
        let eval_params = Params::specs().filter(|s| s.section == "eval").count();
        assert_eq!(whole.genes.len(), eval_params);
        assert!(whole.fixed.is_empty());
        for p in two_evaluations() {
            assert_eq!(whole.projection_changes(&p), Vec::new());
            let (genome, base) = whole.seed(&p);
            assert_eq!(whole.apply(&genome, &base), p);
            // From any other base too: every evaluation value is a gene.
            let mut other = Params::default();
            other.zero_eval_except(|_| false);
            assert_eq!(whole.apply(&genome, &other).eval, p.eval);
        }
        // Every value of a range is encodable, the extremes included.
        let (id, spec) = Params::find("pst_pawn_file_a_mg").unwrap();
        for v in [spec.min, spec.min + 1, -1, 0, 1, spec.max - 1, spec.max] {
            let mut p = Params::default();
            p.set(id, i64::from(v)).unwrap();
            assert_eq!(whole.projection_changes(&p), Vec::new(), "{v}");
        }
        assert!(whole.projection_note("x.toml", &hand_set()).ends_with("(0 values changed)"));
    }

    #[test]
    fn a_smaller_space_keeps_each_seed_s_values_outside_it() {
        // `others = "zero"` zeroes random organisms' other terms, never a given file's.
        let space = SearchSpace::parse(&format!("others = \"zero\"\n{TWO_PIECES}")).unwrap();
        let (pst, _) = Params::find("pst_pawn_file_a_eg").unwrap();
        for mut p in two_evaluations() {
            p.eval.knight_eg = p.eval.knight_mg + 7;
            p.eval.queen_mg = 450;
            p.search.lmr_base = 77;
            let (genome, base) = space.seed(&p);
            let q = space.apply(&genome, &base);
            assert_eq!(q.get(pst), p.get(pst));
            assert_ne!(p.get(pst), 0, "a value the zeroing would change");
            assert_eq!(q.search, p.search, "the search section is the file's");
            assert_eq!(q.eval.queen_mg, 450);
            // What the space decides: the tied knight values and the fixed pawn values.
            let mut expected: Vec<ParamId> = vec![Params::find("knight_eg").unwrap().0];
            for key in ["pawn_mg", "pawn_eg"] {
                let (id, _) = Params::find(key).unwrap();
                if p.get(id) != 100 {
                    expected.push(id);
                }
            }
            expected.sort_by_key(|id| id.0);
            assert_eq!(space.projection_changes(&p), expected);
            let note = space.projection_note("seed.toml", &p);
            assert!(note.starts_with(&format!("seed.toml: the search space changed {} of ", expected.len())), "{note}");
            assert!(note.contains(&format!("eval.knight_eg {} -> {}", p.eval.knight_eg, p.eval.knight_mg)), "{note}");
        }
    }

    #[test]
    fn held_keys_are_never_genes_and_keep_the_start_s_value() {
        let space = SearchSpace::parse(
            "encoding = \"integer\"\nothers = \"evolve\"\nhold = [\"ks_adjustment\", \"eval.queen_mg\"]\n",
        )
        .unwrap();
        let eval_params = Params::specs().filter(|s| s.section == "eval").count();
        assert_eq!(space.genes.len(), eval_params - 2, "every evaluation term but the two held");
        assert!(space.genes.iter().all(|g| g.name != "ks_adjustment" && g.name != "queen_mg"));
        let mut file = Params::default();
        file.eval.ks_adjustment += 3;
        file.eval.queen_mg += 5;
        let (genome, base) = space.seed(&file);
        let mut moved = space.genome_of(&Params::default());
        if let Genome::Numbers(x) = &mut moved {
            x.iter_mut().for_each(|v| *v += 1.0);
        }
        for g in [genome, moved] {
            let q = space.apply(&g, &base);
            assert_eq!((q.eval.ks_adjustment, q.eval.queen_mg), (file.eval.ks_adjustment, file.eval.queen_mg));
        }
        assert_eq!(space.projection_changes(&file), Vec::new());
        assert!(space.canonical().contains("hold eval.ks_adjustment\nhold eval.queen_mg\n"), "{}", space.canonical());
        assert!(
            !SearchSpace::parse(TWO_PIECES).unwrap().canonical().contains("hold"),
            "absent: fingerprints unchanged"
        );

        // `others = "zero"` leaves a held term at its default.
        let zero = SearchSpace::parse(&format!("others = \"zero\"\nhold = [\"ks_adjustment\"]\n{TWO_PIECES}")).unwrap();
        assert_eq!(zero.base().eval.ks_adjustment, Params::default().eval.ks_adjustment);
        assert_ne!(Params::default().eval.ks_adjustment, 0, "a value the zeroing would change");

        let e = SearchSpace::parse(&format!("hold = [\"knight_mg\"]\n{TWO_PIECES}")).unwrap_err();
        assert!(matches!(e, SpaceError::DuplicateKey { ref key, .. } if key == "eval.knight_mg"), "{e}");
        let e = SearchSpace::parse(&format!("hold = [\"pawn_mg\"]\n{TWO_PIECES}")).unwrap_err();
        assert!(e.to_string().contains("pawn_mg") && e.to_string().contains("hold"), "{e}");
        let e = SearchSpace::parse(&format!("hold = [\"no_such_term\"]\n{TWO_PIECES}")).unwrap_err();
        assert_eq!(e.to_string(), "search space `hold`: unknown parameter `no_such_term`");
    }

    #[test]
    fn a_space_path_that_is_not_a_regular_file_is_refused_at_once() {
        let e = SearchSpace::load("/dev/zero").unwrap_err().to_string();
        assert!(e.contains("/dev/zero") && e.contains("not a regular file"), "{e}");
    }

    const TWO_PIECES: &str = r#"
encoding = "gray"
[fixed]
pawn_mg = 100
pawn_eg = 100
[[gene]]
name = "knight_value"
keys = ["eval.knight_mg", "knight_eg"]
min = 100
max = 2000
bits = 11
[[gene]]
name = "queen_mg"
min = 400
max = 463
bits = 6
"#;

    #[test]
    fn canonical_form_ignores_comments_and_layout_but_not_what_the_space_decides() {
        let canonical = |text: &str| SearchSpace::parse(text).unwrap().canonical();
        let base = canonical(TWO_PIECES);
        let commented = format!("# a note\n{}", TWO_PIECES.replace("min = 400", "min   =   400 # queen floor"));
        assert_eq!(canonical(&commented), base);
        assert!(base.contains("gene knight_value keys=eval.knight_mg,eval.knight_eg min=100 max=2000"), "{base}");
        assert_ne!(canonical(&TWO_PIECES.replace("max = 463", "max = 464")), base);
        assert_ne!(canonical(&TWO_PIECES.replace("pawn_eg = 100", "pawn_eg = 101")), base);
        // Gene order is chromosome order.
        let (head, genes) = TWO_PIECES.split_once("[[gene]]").unwrap();
        let (knight, queen) = genes.split_once("[[gene]]").unwrap();
        assert_ne!(canonical(&format!("{head}[[gene]]{queen}[[gene]]{knight}")), base);
    }

    #[test]
    fn tied_keys_get_the_same_value() {
        let s = SearchSpace::parse(TWO_PIECES).unwrap();
        assert_eq!(s.layout().len(), 17);
        let mut p = s.base();
        p.eval.knight_mg = 777;
        p.eval.queen_mg = 450;
        let g = s.genome_of(&p);
        let q = s.apply(&g, &s.base());
        assert_eq!(q.eval.knight_mg, q.eval.knight_eg);
        assert!((q.eval.knight_mg - 777).abs() <= 1, "{}", q.eval.knight_mg);
        assert_eq!(q.eval.queen_mg, 450);
        assert_eq!(q.eval.pawn_eg, 100);
        assert_eq!(s.describe(&g), format!("knight_value={} queen_mg=450", q.eval.knight_mg));
    }

    #[test]
    fn errors_name_gene_and_key() {
        let e = SearchSpace::parse(&TWO_PIECES.replace("knight_eg\"", "knight_xx\"")).unwrap_err();
        assert_eq!(e, SpaceError::UnknownKey { gene: "knight_value".into(), key: "knight_xx".into() });
        let e = SearchSpace::parse(&TWO_PIECES.replace("max = 2000", "max = 2100")).unwrap_err();
        assert!(e.to_string().contains("eval.knight_mg") && e.to_string().contains("knight_value"), "{e}");
        let e = SearchSpace::parse(&TWO_PIECES.replace("bits = 6", "")).unwrap_err();
        assert!(e.to_string().contains("queen_mg") && e.to_string().contains("bits"), "{e}");
        let e = SearchSpace::parse(&TWO_PIECES.replace("name = \"queen_mg\"", "name = \"q\"\nkeys = [\"knight_mg\"]"))
            .unwrap_err();
        assert!(matches!(e, SpaceError::DuplicateKey { ref key, .. } if key == "eval.knight_mg"), "{e}");
        let e = SearchSpace::parse(&TWO_PIECES.replace("pawn_eg = 100", "pawn_eg = 1")).unwrap_err();
        assert!(e.to_string().contains("pawn_eg"), "{e}");
        let e = SearchSpace::parse(&TWO_PIECES.replace("bits = 11", "bits = 11\nwidth = 3")).unwrap_err();
        assert!(e.to_string().contains("width"), "{e}");
    }

    #[test]
    fn integer_and_real_spaces_round_trip() {
        let text =
            TWO_PIECES.replace("\"gray\"", "\"integer\"").replace("bits = 11", "step = 5").replace("bits = 6", "");
        let s = SearchSpace::parse(&text).unwrap();
        let mut p = s.base();
        p.eval.knight_mg = 333;
        let q = s.apply(&s.genome_of(&p), &s.base());
        assert_eq!(q.eval.knight_mg, 335);
        let zero = SearchSpace::parse(&format!("others = \"zero\"\n{TWO_PIECES}")).unwrap();
        let b = zero.base();
        assert_eq!((b.eval.bishop_mg, b.eval.pawn_mg), (100, 100), "clamped to the declared minimum; fixed kept");
        assert_eq!(b.search, Params::default().search, "only evaluation parameters are zeroed");
        let hand = SearchSpace::parse(&format!("others = \"hand-set\"\n{TWO_PIECES}")).unwrap().base();
        assert_eq!(hand.eval.rook_mg, 480, "params/hand-set.toml's value, not the tuned default");
        assert_ne!(hand.eval, Params::default().eval);
        assert_eq!(hand.search, Params::default().search);
        let real = TWO_PIECES.replace("\"gray\"", "\"real\"").replace("bits = 11", "").replace("bits = 6", "");
        let s = SearchSpace::parse(&real).unwrap();
        assert_eq!(s.apply(&s.genome_of(&p), &s.base()).eval.knight_mg, 333);
    }
}
