//! Traced positions held compactly for gradient Texel ([`super::gradient`]).
//!
//! Each position is one [`Record`] (28 bytes: its constants, phase, endgame scale, complexity
//! features, target and where its entries and danger sides start) plus one 4-byte [`Entry`] per non-zero (gene,
//! channel) coefficient: a `u16` column `gene << 2 | channel` (channel 0 middlegame, 1 endgame,
//! 2 flat in twelfths) and an `i16` coefficient. The engine's [`Tracer`] gives the coefficients
//! per parameter; parameters outside the tuned genes (held fixed) are folded into the constants
//! at their starting values, and the keys of one gene are summed. A position's evaluation,
//! white's view:
//!
//! `E = (phase·mg + eg_scale/100·(24 − phase)·eg) / 24 + flat12 / 12`, with
//! `mg = const_mg + Σ coef·θ[gene] + D_mg` over its channel-0 entries, and so on.
//!
//! The king danger `D` (the engine's `king::danger`, see `evochess::eval::trace`) is kept apart:
//! each side whose danger is counted (a quarter of the positions or so) has a 32-byte
//! [`SideDanger`] in a side vector, its attack units `u = constant + Σ coef_j·θ[gene of weight
//! j]` over the thirteen danger weights (a weight that is no gene folds into the constant at its
//! starting value). It adds `σ·max(u, 0)²/Dmg` to `mg` and `σ·max(u, 0)/Deg` to `eg`, `σ` = −1
//! for white's king and +1 for black's, the divisors held at the traced parameters'. Its
//! gradient is exact: `∂mg/∂θ = σ·2u·coef/Dmg` and `∂eg/∂θ = σ·coef/Deg` while `u > 0`, else 0.
//!
//! The complexity (Ethereal 12's, see `evochess::eval::trace`) comes last: with `eg` the
//! endgame sum above (the danger's part in it) and `c = Σ f_k·w_k` over its four weights (a
//! weight that is no gene held at its starting value), `eg' = eg + sign(eg)·max(c, −|eg|)`.
//! Its features `f` (pawns 0 to 16, pawns on both flanks, a pawn ending, and the constant 1)
//! pack into one byte of the record ([`Record::complexity`]; the record had two bytes of
//! padding, so a position costs no more). Its gradient is Ethereal's tuner's, exact off the
//! kinks: where `c ≥ −|eg|`, `∂eg'/∂w_k = sign(eg)·f_k` and every other endgame term keeps its
//! own; where the clamp holds (`c < −|eg|`), `eg' = 0` nearby and every endgame-side gradient
//! of the position (its linear endgame coefficients, the danger's endgame part, the complexity
//! weights) is 0.
//!
//! [`TraceSet::loss_grad`] computes the mean squared error of `sigmoid(K·E)` against the targets
//! over a range of positions, and its gradient per gene, in fixed chunks of [`CHUNK`] positions
//! summed in order: the result does not depend on the number of threads.

use std::ops::Range;

use evochess::{
    eval::{
        complexity,
        king::DANGER_TERMS,
        trace::{Tracer, complexity_change, complexity_params, danger, danger_divisors, danger_params},
    },
    params::EvalParams,
};
use shakmaty::Position;

use super::labelled::Labelled;
use crate::ga::par_map;

/// Positions per parallel work item (fixed, for thread-count independent sums).
pub const CHUNK: usize = 8192;

/// One coefficient: column `gene << 2 | channel`, value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub col: u16,
    pub coef: i16,
}

/// One side's king danger in one position: its attack units are
/// `constant + Σ coefs[j]·θ[gene of danger weight j]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideDanger {
    /// The danger weights that are no gene, at their starting values.
    pub constant: i32,
    /// The coefficient of each danger weight that is a gene (0 for the others).
    pub coefs: [i16; DANGER_TERMS],
    /// White's king (its danger counts against white), else black's.
    pub white: bool,
}

/// One position's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Record {
    /// Index of its first entry; its last is before the next record's `start`.
    pub start: u32,
    /// Index of its first [`SideDanger`] (none, one or two, up to the next record's).
    pub danger: u32,
    pub const_mg: i32,
    pub const_eg: i32,
    pub const_flat12: i32,
    /// The label the loss fits, white's view (a winning chance in [0, 1]).
    pub target: f32,
    pub phase: u8,
    pub eg_scale: u8,
    /// The complexity's features ([`pack_complexity`]): the pawns in bits 0 to 4, pawns on both
    /// flanks in bit 5, a pawn ending in bit 6 (the constant feature is always 1).
    pub complexity: u8,
}

/// Packs the complexity's features (pawns, both flanks, pawn ending, constant) into a byte.
pub fn pack_complexity(f: [i32; complexity::TERMS]) -> Result<u8, TraceError> {
    match f {
        [pawns @ 0..=31, flanks @ 0..=1, ending @ 0..=1, 1] => {
            Ok(pawns as u8 | (flanks as u8) << 5 | (ending as u8) << 6)
        }
        _ => Err(TraceError::ComplexityFeatures(f)),
    }
}

/// The complexity's features of [`pack_complexity`]'s byte.
#[inline]
pub fn unpack_complexity(packed: u8) -> [f64; complexity::TERMS] {
    [f64::from(packed & 31), f64::from(packed >> 5 & 1), f64::from(packed >> 6 & 1), 1.0]
}

/// Why positions could not be traced compactly.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TraceError {
    #[error("{0} genes: compact traces address at most 16383")]
    TooManyGenes(usize),
    #[error("a coefficient of {value} (parameter {param}) does not fit in 16 bits")]
    CoefficientTooLarge { param: String, value: i64 },
    #[error("a constant of {0} does not fit in 32 bits")]
    ConstantTooLarge(i64),
    #[error("over 4 billion coefficients: trace fewer positions")]
    TooManyEntries,
    #[error("complexity features {0:?} do not fit in a byte (pawns 0-31, two flags, the constant 1)")]
    ComplexityFeatures([i32; complexity::TERMS]),
}

/// How the danger weights enter a [`TraceSet`]: each one's gene, and the divisors.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DangerGenes {
    /// The gene of each danger weight (`king::DANGER_WEIGHTS` order), if it is one.
    pub genes: [Option<u16>; DANGER_TERMS],
    /// `ks_mg_divisor` and `ks_eg_divisor` at the traced parameters (held fixed).
    pub mg_divisor: f64,
    pub eg_divisor: f64,
}

/// How the complexity's weights enter a [`TraceSet`]: each one's gene, or its held value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ComplexityGenes {
    /// The gene of each complexity weight (`complexity::WEIGHTS` order), if it is one.
    pub genes: [Option<u16>; complexity::TERMS],
    /// Each weight at the traced parameters (used where it is no gene).
    pub held: [f64; complexity::TERMS],
}

/// What [`TraceSet::eval`] gives for one position.
struct Evaluated {
    /// The evaluation, white's view.
    value: f64,
    /// The weight of each channel's sum in the value; the endgame's is 0 where the
    /// complexity's clamp holds (the endgame half is 0 nearby whatever its terms).
    weights: [f64; 4],
    /// `∂eg'/∂c`: the endgame sum's sign where the clamp does not hold, else 0.
    complexity_sign: f64,
    /// The attack units of each danger side ([`TraceSet::danger_of`]'s order; at most the two
    /// kings), so that the gradient does not recompute them.
    units: [f64; 2],
}

/// Traced positions and their labels.
#[derive(Clone, Debug, Default)]
pub struct TraceSet {
    pub records: Vec<Record>,
    pub entries: Vec<Entry>,
    /// The king danger of the sides where it is counted, by [`Record::danger`].
    pub danger: Vec<SideDanger>,
    /// `(result, score)` per record, white's view, kept to recompute targets (`NaN`: no score).
    labels: Vec<(f32, f32)>,
    pub genes: usize,
    pub danger_genes: DangerGenes,
    pub complexity_genes: ComplexityGenes,
}

/// Which gene (if any) each evaluation parameter belongs to.
pub type GeneOf = Vec<Option<usize>>;

impl TraceSet {
    /// Traces `positions` under `params` over `threads`; `gene_of[i]` names the gene of
    /// evaluation parameter `i` (every gene's parameters must be linear).
    pub fn build(
        positions: &[Labelled],
        params: &EvalParams,
        gene_of: &GeneOf,
        genes: usize,
        threads: usize,
    ) -> Result<TraceSet, TraceError> {
        if genes > 0x3fff {
            return Err(TraceError::TooManyGenes(genes));
        }
        let tracer = Tracer::new(params);
        let (mg_divisor, eg_divisor) = danger_divisors(params);
        // Genes fit in 14 bits (checked above).
        let danger_genes =
            DangerGenes { genes: danger_params().map(|i| gene_of[i].map(|g| g as u16)), mg_divisor, eg_divisor };
        let complexity_genes = ComplexityGenes {
            genes: complexity_params().map(|i| gene_of[i].map(|g| g as u16)),
            held: complexity::weights(params).map(f64::from),
        };
        let chunks: Vec<&[Labelled]> = positions.chunks(1024).collect();
        let parts = par_map(&chunks, threads, |chunk| {
            let mut set = TraceSet { genes, danger_genes, complexity_genes, ..TraceSet::default() };
            for l in *chunk {
                set.push(&tracer, l, gene_of)?;
            }
            Ok::<_, TraceError>(set)
        });
        let mut set = TraceSet { genes, danger_genes, complexity_genes, ..TraceSet::default() };
        for part in parts {
            set.append(part?)?;
        }
        set.entries.shrink_to_fit();
        set.danger.shrink_to_fit();
        Ok(set)
    }

    fn push(&mut self, tracer: &Tracer, l: &Labelled, gene_of: &GeneOf) -> Result<(), TraceError> {
        let t = tracer.trace(&l.pos);
        let params = tracer.params();
        let (mut mg, mut eg, mut flat12) = (t.const_mg, t.const_eg, t.const_flat12);
        let start = self.entries.len();
        let danger_start = self.danger.len();
        let weights = evochess::eval::king::danger_weights(params);
        for (side, white) in [(1, true), (0, false)] {
            let Some(c) = &t.danger[side] else { continue };
            let (mut constant, mut coefs) = (0i64, [0i16; DANGER_TERMS]);
            for j in 0..DANGER_TERMS {
                if self.danger_genes.genes[j].is_some() {
                    let name = || evochess::eval::king::DANGER_WEIGHTS[j].to_string();
                    coefs[j] = i16::try_from(c[j])
                        .map_err(|_| TraceError::CoefficientTooLarge { param: name(), value: i64::from(c[j]) })?;
                } else {
                    constant += i64::from(c[j]) * i64::from(weights[j]);
                }
            }
            let constant = i32::try_from(constant).map_err(|_| TraceError::ConstantTooLarge(constant))?;
            self.danger.push(SideDanger { constant, coefs, white });
        }
        for c in &t.coefs {
            let i = usize::from(c.param);
            let Some(gene) = gene_of[i] else {
                let v = i64::from(evochess::params::ParamSection::get(params, i));
                mg += i64::from(c.mg) * v;
                eg += i64::from(c.eg) * v;
                flat12 += i64::from(c.flat12) * v;
                continue;
            };
            for (channel, value) in [c.mg, c.eg, c.flat12].into_iter().enumerate() {
                if value == 0 {
                    continue;
                }
                let col = (gene << 2 | channel) as u16;
                // Keys of one gene share a column.
                let value = match self.entries[start..].iter().position(|e| e.col == col) {
                    Some(at) => {
                        let sum = i64::from(self.entries[start + at].coef) + i64::from(value);
                        self.entries.remove(start + at);
                        sum
                    }
                    None => i64::from(value),
                };
                let name = || <EvalParams as evochess::params::ParamSection>::specs()[i].name.to_string();
                let coef =
                    i16::try_from(value).map_err(|_| TraceError::CoefficientTooLarge { param: name(), value })?;
                if coef != 0 {
                    self.entries.push(Entry { col, coef });
                }
            }
        }
        let fit = |v: i64| i32::try_from(v).map_err(|_| TraceError::ConstantTooLarge(v));
        let white = l.pos.turn().is_white();
        let result = if white { l.result } else { 1.0 - l.result };
        let score = l.score.map_or(f64::NAN, |s| if white { s } else { -s });
        self.records.push(Record {
            start: u32::try_from(start).map_err(|_| TraceError::TooManyEntries)?,
            danger: u32::try_from(danger_start).map_err(|_| TraceError::TooManyEntries)?,
            const_mg: fit(mg)?,
            const_eg: fit(eg)?,
            const_flat12: fit(flat12)?,
            target: result as f32,
            phase: t.phase as u8,
            eg_scale: t.eg_scale as u8,
            complexity: pack_complexity(t.complexity)?,
        });
        self.labels.push((result as f32, score as f32));
        Ok(())
    }

    fn append(&mut self, other: TraceSet) -> Result<(), TraceError> {
        let (offset, danger_offset) = (self.entries.len(), self.danger.len());
        if offset + other.entries.len() > u32::MAX as usize || danger_offset + other.danger.len() > u32::MAX as usize {
            return Err(TraceError::TooManyEntries);
        }
        self.records.extend(other.records.into_iter().map(|r| Record {
            start: r.start + offset as u32,
            danger: r.danger + danger_offset as u32,
            ..r
        }));
        self.entries.extend(other.entries);
        self.danger.extend(other.danger);
        self.labels.extend(other.labels);
        Ok(())
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The complexity before its sign and clamp, `Σ f_k·w_k`, under `theta`.
    #[inline]
    fn complexity(&self, features: &[f64; complexity::TERMS], theta: &[f64]) -> f64 {
        let ComplexityGenes { genes, held } = &self.complexity_genes;
        let weight = |k: usize| genes[k].map_or(held[k], |g| theta[usize::from(g)]);
        features.iter().enumerate().map(|(k, f)| f * weight(k)).sum()
    }

    /// Bytes held (records, entries, danger sides, labels).
    pub fn bytes(&self) -> usize {
        self.records.capacity() * size_of::<Record>()
            + self.entries.capacity() * size_of::<Entry>()
            + self.danger.capacity() * size_of::<SideDanger>()
            + self.labels.capacity() * size_of::<(f32, f32)>()
    }

    fn entries_of(&self, i: usize) -> &[Entry] {
        let start = self.records[i].start as usize;
        let end = self.records.get(i + 1).map_or(self.entries.len(), |r| r.start as usize);
        &self.entries[start..end]
    }

    fn danger_of(&self, i: usize) -> &[SideDanger] {
        let start = self.records[i].danger as usize;
        let end = self.records.get(i + 1).map_or(self.danger.len(), |r| r.danger as usize);
        &self.danger[start..end]
    }

    /// A side's attack units under `theta`.
    #[inline]
    fn units(&self, d: &SideDanger, theta: &[f64]) -> f64 {
        let mut u = f64::from(d.constant);
        for (c, g) in d.coefs.iter().zip(&self.danger_genes.genes) {
            if let Some(g) = g {
                u += f64::from(*c) * theta[usize::from(*g)];
            }
        }
        u
    }

    /// The traced evaluation of position `i` under gene values `theta`, and what its gradient
    /// needs.
    #[inline]
    fn eval(&self, i: usize, theta: &[f64]) -> Evaluated {
        let r = &self.records[i];
        let phase = f64::from(r.phase);
        let w = [phase / 24.0, f64::from(r.eg_scale) / 100.0 * (24.0 - phase) / 24.0, 1.0 / 12.0, 0.0];
        let mut acc = [f64::from(r.const_mg), f64::from(r.const_eg), f64::from(r.const_flat12), 0.0];
        for e in self.entries_of(i) {
            acc[usize::from(e.col & 3)] += f64::from(e.coef) * theta[usize::from(e.col >> 2)];
        }
        let DangerGenes { mg_divisor, eg_divisor, .. } = self.danger_genes;
        let mut units = [0.0; 2];
        debug_assert!(self.danger_of(i).len() <= units.len(), "a position has two kings");
        for (d, u) in self.danger_of(i).iter().zip(&mut units) {
            *u = self.units(d, theta);
            // The side's own danger (<= 0) counts against white when it is white's king.
            let (mg, eg) = danger(*u, mg_divisor, eg_divisor);
            let sign = if d.white { 1.0 } else { -1.0 };
            acc[0] += sign * mg;
            acc[1] += sign * eg;
        }
        let eg = acc[1];
        let c = self.complexity(&unpack_complexity(r.complexity), theta);
        acc[1] = eg + complexity_change(eg, c);
        let value = w[0] * acc[0] + w[1] * acc[1] + w[2] * acc[2];
        if c >= -eg.abs() {
            let complexity_sign = if eg == 0.0 { 0.0 } else { eg.signum() };
            Evaluated { value, weights: w, complexity_sign, units }
        } else {
            Evaluated { value, weights: [w[0], 0.0, w[2], w[3]], complexity_sign: 0.0, units }
        }
    }

    /// Evaluations (white's view) of every position under `theta`.
    pub fn evals(&self, theta: &[f64]) -> Vec<f64> {
        (0..self.len()).map(|i| self.eval(i, theta).value).collect()
    }

    /// `(evaluation, white's result)` of every position under `theta`: [`super::fit_k`]'s samples.
    pub fn samples(&self, theta: &[f64]) -> Vec<(f64, f64)> {
        (0..self.len()).map(|i| (self.eval(i, theta).value, f64::from(self.labels[i].0))).collect()
    }

    /// Sets each target to `lambda·result + (1 − lambda)·sigmoid(K·score)`, or to the result
    /// where the position has no score.
    pub fn set_targets(&mut self, k: f64, lambda: f64) {
        for (r, &(result, score)) in self.records.iter_mut().zip(&self.labels) {
            r.target = if score.is_nan() {
                result
            } else {
                (lambda * f64::from(result) + (1.0 - lambda) * super::win_chance(k, f64::from(score))) as f32
            };
        }
    }

    /// Sum of squared errors over `range` under `theta`, and (with `grad`) its gradient per
    /// gene. Deterministic for any `threads`.
    pub fn loss_grad(&self, theta: &[f64], k: f64, range: Range<usize>, grad: bool, threads: usize) -> (f64, Vec<f64>) {
        let starts: Vec<usize> = range.clone().step_by(CHUNK).collect();
        let cols = self.genes * 4;
        let slope = k * std::f64::consts::LN_10 / 400.0;
        let parts = par_map(&starts, threads, |&from| {
            let mut sse = 0.0;
            let mut g = if grad { vec![0.0; cols] } else { Vec::new() };
            for i in from..(from + CHUNK).min(range.end) {
                let Evaluated { value: e, weights: w, complexity_sign, units } = self.eval(i, theta);
                let s = 1.0 / (1.0 + (-slope * e).exp());
                let err = s - f64::from(self.records[i].target);
                sse += err * err;
                if grad {
                    let d = 2.0 * err * s * (1.0 - s) * slope;
                    let dw = w.map(|w| d * w);
                    for en in self.entries_of(i) {
                        g[usize::from(en.col)] += f64::from(en.coef) * dw[usize::from(en.col & 3)];
                    }
                    // d/du of σ·(w_mg·u²/Dmg + w_eg·u/Deg), booked to the genes' middlegame
                    // columns (they are summed per gene).
                    let DangerGenes { genes, mg_divisor, eg_divisor } = &self.danger_genes;
                    for (dn, &u) in self.danger_of(i).iter().zip(&units) {
                        if u > 0.0 {
                            let sign = if dn.white { -1.0 } else { 1.0 };
                            let du = sign * (dw[0] * 2.0 * u / mg_divisor + dw[1] / eg_divisor);
                            for (c, gene) in dn.coefs.iter().zip(genes) {
                                if let Some(gene) = gene {
                                    g[usize::from(*gene) << 2] += f64::from(*c) * du;
                                }
                            }
                        }
                    }
                    // sign(eg)·f_k per complexity weight, booked to the endgame columns.
                    if complexity_sign != 0.0 {
                        let features = unpack_complexity(self.records[i].complexity);
                        for (f, gene) in features.iter().zip(&self.complexity_genes.genes) {
                            if let Some(gene) = gene {
                                g[usize::from(*gene) << 2 | 1] += f * complexity_sign * dw[1];
                            }
                        }
                    }
                }
            }
            (sse, g)
        });
        let mut sse = 0.0;
        let mut gene = vec![0.0; if grad { self.genes } else { 0 }];
        for (s, g) in parts {
            sse += s;
            for (c, v) in g.iter().enumerate() {
                gene[c >> 2] += v;
            }
        }
        (sse, gene)
    }

    /// Reorders the positions by `order` (a permutation of `0..len`).
    pub fn permute(&self, order: &[usize]) -> TraceSet {
        let mut out = TraceSet {
            genes: self.genes,
            danger_genes: self.danger_genes,
            complexity_genes: self.complexity_genes,
            ..TraceSet::default()
        };
        out.records.reserve(order.len());
        out.entries.reserve(self.entries.len());
        out.danger.reserve(self.danger.len());
        for &i in order {
            out.records.push(Record {
                start: out.entries.len() as u32,
                danger: out.danger.len() as u32,
                ..self.records[i]
            });
            out.entries.extend_from_slice(self.entries_of(i));
            out.danger.extend_from_slice(self.danger_of(i));
            out.labels.push(self.labels[i]);
        }
        out
    }

    /// `copies` copies of this set one after another (for benchmarks at a given size).
    pub fn tiled(&self, copies: usize) -> Result<TraceSet, TraceError> {
        let mut out = TraceSet {
            genes: self.genes,
            danger_genes: self.danger_genes,
            complexity_genes: self.complexity_genes,
            ..TraceSet::default()
        };
        out.records.reserve(self.len() * copies);
        out.entries.reserve(self.entries.len() * copies);
        out.danger.reserve(self.danger.len() * copies);
        out.labels.reserve(self.len() * copies);
        for _ in 0..copies {
            out.append(self.clone())?;
        }
        Ok(out)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use evochess::params::{ParamSection, Params};
    use shakmaty::{CastlingMode, Chess, fen::Fen};

    use super::*;

    pub(crate) fn fixture() -> Vec<Labelled> {
        [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 1.0),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0.5),
            ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 0.0),
            ("4k3/5p2/3b4/8/4P3/3B1P2/8/4K3 b - - 0 1", 0.5),
            // King attacks on both sides (the danger counted for both kings).
            ("r1b2rk1/ppp2ppp/2n5/3qN3/3P4/2PB4/P4PPP/R2QR1K1 b - - 0 1", 1.0),
            ("3r2k1/5ppp/8/6Q1/8/6q1/5PPP/3R2K1 w - - 0 1", 0.0),
            ("r4rk1/ppp2ppp/3b4/3q4/3Q4/3B4/PPP2PPP/R4RK1 w - - 0 1", 0.5),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0.5),
            // Endings for the complexity: pawns on both flanks without pieces, white a pawn up
            // (with Ethereal's weights positive: it adds); few pawns, a piece each, close to
            // level (with Ethereal's weights it clamps the endgame half to 0).
            ("4k3/pp4pp/8/8/8/8/PPP3PP/4K3 w - - 0 1", 1.0),
            ("4k1r1/5pp1/8/8/8/8/4PP2/3RK3 b - - 0 1", 0.5),
        ]
        .iter()
        .map(|(fen, result)| {
            let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            Labelled { pos, result: *result, score: None }
        })
        .collect()
    }

    /// Every traced evaluation parameter (the danger weights among them) its own gene.
    pub(crate) fn all_linear() -> (GeneOf, Vec<usize>) {
        let linear = Tracer::new(&EvalParams::default()).linear();
        let mut gene_of = vec![None; EvalParams::specs().len()];
        for (g, &i) in linear.iter().enumerate() {
            gene_of[i] = Some(g);
        }
        (gene_of, linear)
    }

    /// Each gene's gradient of the loss over `set` at `theta`, checked against the central
    /// difference; how many are not 0.
    fn check_gradient(set: &TraceSet, theta: &[f64]) -> (Vec<f64>, usize) {
        let k = 1.2;
        let (_, grad) = set.loss_grad(theta, k, 0..set.len(), true, 2);
        let mut checked = 0;
        for (g, &analytic) in grad.iter().enumerate() {
            let h = 1e-3;
            let mut up = theta.to_vec();
            up[g] += h;
            let mut down = theta.to_vec();
            down[g] -= h;
            let numeric = (set.loss_grad(&up, k, 0..set.len(), false, 1).0
                - set.loss_grad(&down, k, 0..set.len(), false, 1).0)
                / (2.0 * h);
            assert!((analytic - numeric).abs() <= 1e-7 + 1e-5 * numeric.abs(), "gene {g}: {analytic} vs {numeric}");
            checked += usize::from(analytic != 0.0);
        }
        (grad, checked)
    }

    #[test]
    fn gradient_equals_finite_differences() {
        let p = Params::default().eval;
        let (gene_of, linear) = all_linear();
        let set = TraceSet::build(&fixture(), &p, &gene_of, linear.len(), 2).unwrap();
        let genes = complexity_params().map(|i| gene_of[i].expect("a complexity weight is a gene"));
        // The complexity's weights start at 0 (the defaults are a fit's since 8588fa7), so that
        // the clamp's two sides are checked below from a known state.
        let mut theta: Vec<f64> = linear.iter().map(|&i| f64::from(p.get(i))).collect();
        for &g in &genes {
            theta[g] = 0.0;
        }
        let (grad, checked) = check_gradient(&set, &theta);
        assert!(checked > 50, "only {checked} genes have a gradient on the fixture");
        // The danger weights are genes, and those the fixture's attacks use move the loss.
        assert!(set.danger.iter().any(|d| d.white) && set.danger.iter().any(|d| !d.white), "{:?}", set.danger);
        let danger: Vec<(&str, f64)> = danger_params()
            .iter()
            .zip(evochess::eval::king::DANGER_WEIGHTS)
            .map(|(&i, name)| (name, grad[gene_of[i].expect("a danger weight is a gene")]))
            .collect();
        for name in ["ks_weight_queen", "ks_attack_value", "ks_weak_squares", "ks_adjustment"] {
            assert!(danger.iter().any(|&(n, g)| n == name && g != 0.0), "{name}: {danger:?}");
        }
        assert!(danger.iter().filter(|(_, g)| *g != 0.0).count() >= 8, "{danger:?}");
        // The complexity's weights are genes too. At 0 nothing clamps; with Ethereal's weights
        // the clamp holds in some positions (their endgame side has no gradient) and not in
        // others, and every weight moves the loss.
        // (A position without an endgame half has a channel weight of 0 too.)
        let has_endgame = |i: usize| set.records[i].phase < 24 && set.records[i].eg_scale > 0;
        let clamped =
            |theta: &[f64]| (0..set.len()).filter(|&i| has_endgame(i) && set.eval(i, theta).weights[1] == 0.0).count();
        assert_eq!(clamped(&theta), 0);
        let mut ethereal = theta.clone();
        for (&g, w) in genes.iter().zip([8.0, 82.0, 76.0, -157.0]) {
            ethereal[g] = w;
        }
        let moved = (0..set.len()).filter(|&i| set.eval(i, &ethereal).complexity_sign != 0.0).count();
        assert!(clamped(&ethereal) >= 1 && moved >= 2, "{} clamped, {moved} moved", clamped(&ethereal));
        let (grad, checked) = check_gradient(&set, &ethereal);
        assert!(checked > 50, "only {checked} genes have a gradient with Ethereal's complexity");
        assert!(genes.iter().all(|&g| grad[g] != 0.0), "{:?}", genes.map(|g| grad[g]));
    }

    #[test]
    fn complexity_features_pack_into_a_byte() {
        for f in [[0, 0, 0, 1], [16, 1, 1, 1], [31, 0, 1, 1], [7, 1, 0, 1]] {
            let unpacked = unpack_complexity(pack_complexity(f).unwrap());
            assert_eq!(unpacked, f.map(f64::from));
        }
        for f in [[32, 0, 0, 1], [-1, 0, 0, 1], [3, 2, 0, 1], [3, 0, 0, 0]] {
            assert_eq!(pack_complexity(f), Err(TraceError::ComplexityFeatures(f)));
        }
        assert_eq!(size_of::<Record>(), 28);
    }

    #[test]
    fn held_parameters_fold_into_constants_and_threads_do_not_change_sums() {
        let p = Params::default().eval;
        let positions = fixture();
        let (gene_of, linear) = all_linear();
        let all = TraceSet::build(&positions, &p, &gene_of, linear.len(), 1).unwrap();
        // Only the material genes tuned: the rest is constant, the evaluations are the same.
        let mut material = vec![None; gene_of.len()];
        for (i, gene) in material.iter_mut().enumerate().take(10) {
            *gene = Some(i);
        }
        let few = TraceSet::build(&positions, &p, &material, 10, 3).unwrap();
        let theta_all: Vec<f64> = linear.iter().map(|&i| f64::from(p.get(i))).collect();
        let theta_few: Vec<f64> = (0..10).map(|i| f64::from(p.get(i))).collect();
        let tracer = Tracer::new(&p);
        for ((a, b), l) in all.evals(&theta_all).iter().zip(few.evals(&theta_few)).zip(&positions) {
            assert!((a - b).abs() < 1e-9, "{a} vs {b}");
            // And both are the engine's traced evaluation, king danger included.
            let traced = tracer.trace(&l.pos).white_eval(&p);
            assert!((a - traced).abs() < 1e-9, "{a} vs {traced}");
        }
        assert!(!all.danger.is_empty() && all.danger.len() == few.danger.len());
        // The complexity's weights held (not genes) count at their traced values: with
        // Ethereal's, the two sets still agree, with each other and with the engine's trace.
        let mut ethereal = p.clone();
        for (i, w) in complexity_params().into_iter().zip([8, 82, 76, -157]) {
            ethereal.set_unchecked(i, w);
        }
        let all = TraceSet::build(&positions, &ethereal, &gene_of, linear.len(), 1).unwrap();
        let few = TraceSet::build(&positions, &ethereal, &material, 10, 3).unwrap();
        let theta_all: Vec<f64> = linear.iter().map(|&i| f64::from(ethereal.get(i))).collect();
        let tracer = Tracer::new(&ethereal);
        for ((a, b), l) in all.evals(&theta_all).iter().zip(few.evals(&theta_few)).zip(&positions) {
            let traced = tracer.trace(&l.pos).white_eval(&ethereal);
            assert!((a - b).abs() < 1e-9 && (a - traced).abs() < 1e-9, "{a} vs {b} vs {traced}");
        }
        // Held at 0 instead, they would give other evaluations.
        assert_ne!(few.evals(&theta_few), TraceSet::build(&positions, &p, &material, 10, 1).unwrap().evals(&theta_few));
        let tiled = all.tiled(3000).unwrap();
        let one = tiled.loss_grad(&theta_all, 1.0, 0..tiled.len(), true, 1);
        let four = tiled.loss_grad(&theta_all, 1.0, 0..tiled.len(), true, 4);
        assert_eq!(one.0.to_bits(), four.0.to_bits());
        assert!(one.1.iter().zip(&four.1).all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}
