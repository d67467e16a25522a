//! Chromosome encodings: how a genome's genes map to integer parameter values.
//!
//! * Binary genes (`gray` or plain `binary`): each gene is a fixed-width bit field, most
//!   significant bit first; its code `0..2^bits` maps linearly onto `[min, max]` (exactly when
//!   `max - min + 1 == 2^bits`, as in David et al.'s 6-bit fields holding 0..63).
//! * Numeric genes (`integer` or `real`): each gene is one `f64` kept inside `[min, max]`;
//!   integer genes are snapped to `min + k * step`, real genes are rounded only when decoded.
//!
//! ```
//! use tuner::genome::encoding::{gray_decode, gray_encode};
//! assert_eq!(gray_encode(5), 0b111);
//! assert_eq!(gray_decode(gray_encode(1234)), 1234);
//! ```

use serde::{Deserialize, Serialize};

/// How a binary gene's bits spell its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BitCoding {
    /// Reflected binary Gray code: neighbouring values differ in one bit, so a single bit flip
    /// is often a small step (David et al. §III-B).
    Gray,
    /// Plain positional binary.
    Binary,
}

/// Reflected binary Gray code of `n`.
pub fn gray_encode(n: u64) -> u64 {
    n ^ (n >> 1)
}

/// Inverse of [`gray_encode`]: prefix XOR of the bits from the top.
pub fn gray_decode(mut g: u64) -> u64 {
    let mut shift = 1;
    while shift < 64 {
        g ^= g >> shift;
        shift <<= 1;
    }
    g
}

/// The `bits`-wide field `code`, most significant bit first.
pub fn code_to_bits(code: u64, bits: u32) -> Vec<bool> {
    (0..bits).rev().map(|i| (code >> i) & 1 == 1).collect()
}

/// Reads a field written by [`code_to_bits`].
pub fn bits_to_code(bits: &[bool]) -> u64 {
    bits.iter().fold(0, |acc, &b| (acc << 1) | u64::from(b))
}

/// One fixed-width binary gene mapping `0..2^bits` onto `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BinaryGene {
    pub min: i32,
    pub max: i32,
    pub bits: u32,
}

impl BinaryGene {
    /// Largest code the field can hold.
    pub fn max_code(&self) -> u64 {
        (1u64 << self.bits) - 1
    }

    /// Value of a (plain, already Gray-decoded) code: linear from min (code 0) to max (all ones).
    pub fn value(&self, code: u64) -> i32 {
        let span = i64::from(self.max) - i64::from(self.min);
        let top = self.max_code() as i64;
        // Integer rounding keeps decoding exact and platform-independent.
        let offset = (i64::try_from(code).unwrap_or(i64::MAX).min(top) * span * 2 + top) / (2 * top);
        (i64::from(self.min) + offset) as i32
    }

    /// The code whose value is nearest to `value` (clamped into range; lowest code on ties).
    pub fn code_of(&self, value: i32) -> u64 {
        let v = value.clamp(self.min, self.max);
        let span = i64::from(self.max) - i64::from(self.min);
        let top = self.max_code() as i64;
        if span == 0 {
            return 0;
        }
        // Start from the proportional guess and look at its neighbours for the nearest value.
        let guess = ((i64::from(v) - i64::from(self.min)) * top + span / 2) / span;
        let mut best = (u64::MAX, i64::MAX);
        for c in (guess - 1).max(0)..=(guess + 1).min(top) {
            let d = (i64::from(self.value(c as u64)) - i64::from(v)).abs();
            if d < best.1 {
                best = (c as u64, d);
            }
        }
        best.0
    }

    /// Decodes this gene's bit field.
    pub fn decode(&self, field: &[bool], coding: BitCoding) -> i32 {
        let raw = bits_to_code(field);
        let code = match coding {
            BitCoding::Gray => gray_decode(raw),
            BitCoding::Binary => raw,
        };
        self.value(code)
    }

    /// The bit field whose value is nearest to `value`.
    pub fn encode(&self, value: i32, coding: BitCoding) -> Vec<bool> {
        let code = self.code_of(value);
        let raw = match coding {
            BitCoding::Gray => gray_encode(code),
            BitCoding::Binary => code,
        };
        code_to_bits(raw, self.bits)
    }
}

/// One numeric gene: a value in `[min, max]`, integral in steps of `step` or real (`step: None`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NumericGene {
    pub min: f64,
    pub max: f64,
    pub step: Option<f64>,
}

impl NumericGene {
    /// Brings a value produced by an operator back into the gene's domain: clamped, and snapped
    /// to the nearest `min + k * step` for integer genes.
    pub fn repair(&self, x: f64) -> f64 {
        let x = if x.is_nan() { self.min } else { x.clamp(self.min, self.max) };
        match self.step {
            Some(step) => {
                let k = ((x - self.min) / step).round();
                let snapped = self.min + k * step;
                if snapped > self.max { snapped - step } else { snapped }
            }
            None => x,
        }
    }

    /// The integer parameter value this gene stands for.
    pub fn value(&self, x: f64) -> i32 {
        self.repair(x).round() as i32
    }

    /// Number of distinct values, or `None` for real genes.
    pub fn levels(&self) -> Option<u64> {
        self.step.map(|s| ((self.max - self.min) / s).floor() as u64 + 1)
    }
}

/// The shape of every genome of one search space; operators are checked against it.
#[derive(Clone, Debug, PartialEq)]
pub enum Layout {
    /// A bit string made of consecutive fields, one per gene.
    Bits { coding: BitCoding, genes: Vec<BinaryGene> },
    /// One number per gene.
    Numeric(Vec<NumericGene>),
}

impl Layout {
    /// Genome length: bits for binary layouts, genes for numeric ones.
    pub fn len(&self) -> usize {
        match self {
            Layout::Bits { genes, .. } => genes.iter().map(|g| g.bits as usize).sum(),
            Layout::Numeric(genes) => genes.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of genes (parameters) encoded.
    pub fn gene_count(&self) -> usize {
        match self {
            Layout::Bits { genes, .. } => genes.len(),
            Layout::Numeric(genes) => genes.len(),
        }
    }

    /// The genome at `unit` (one coordinate in `[0, 1]` per gene, scaled onto the gene's range;
    /// a binary gene takes its nearest codable value, an integer gene its nearest step), for
    /// optimisers that work in a continuous box such as CMA-ES.
    pub fn genome_at(&self, unit: &[f64]) -> super::Genome {
        let scale = |x: f64, min: f64, max: f64| min + x.clamp(0.0, 1.0) * (max - min);
        match self {
            Layout::Bits { coding, genes } => super::Genome::Bits(
                genes
                    .iter()
                    .zip(unit)
                    .flat_map(|(g, &x)| g.encode(scale(x, f64::from(g.min), f64::from(g.max)).round() as i32, *coding))
                    .collect(),
            ),
            Layout::Numeric(genes) => {
                super::Genome::Numbers(genes.iter().zip(unit).map(|(g, &x)| g.repair(scale(x, g.min, g.max))).collect())
            }
        }
    }

    /// Where `genome` lies in the unit box of [`Layout::genome_at`].
    pub fn unit_of(&self, genome: &super::Genome) -> Vec<f64> {
        let unit = |v: f64, min: f64, max: f64| if max > min { ((v - min) / (max - min)).clamp(0.0, 1.0) } else { 0.5 };
        match (self, genome) {
            (Layout::Bits { coding, genes }, super::Genome::Bits(bits)) => {
                let mut at = 0;
                genes
                    .iter()
                    .map(|g| {
                        let v = g.decode(&bits[at..at + g.bits as usize], *coding);
                        at += g.bits as usize;
                        unit(f64::from(v), f64::from(g.min), f64::from(g.max))
                    })
                    .collect()
            }
            (Layout::Numeric(genes), super::Genome::Numbers(x)) => {
                genes.iter().zip(x).map(|(g, &v)| unit(v, g.min, g.max)).collect()
            }
            _ => vec![0.5; self.gene_count()],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unit_box_maps_onto_genomes_and_back() {
        let bits =
            Layout::Bits { coding: BitCoding::Gray, genes: vec![BinaryGene { min: -100, max: 100, bits: 6 }; 3] };
        let g = bits.genome_at(&[0.0, 0.5, 1.0]);
        assert!(g.fits(&bits));
        let back = bits.unit_of(&g);
        assert_eq!((back[0], back[2]), (0.0, 1.0));
        assert!((back[1] - 0.5).abs() < 0.02, "{back:?}");
        assert_eq!(bits.genome_at(&back), g, "a genome's own point maps back onto it");
        let numbers = Layout::Numeric(vec![NumericGene { min: 0.0, max: 10.0, step: Some(1.0) }; 2]);
        assert_eq!(numbers.genome_at(&[0.26, 2.0]), super::super::Genome::Numbers(vec![3.0, 10.0]));
        assert_eq!(numbers.unit_of(&super::super::Genome::Numbers(vec![3.0, 10.0])), vec![0.3, 1.0]);
    }

    #[test]
    fn gray_neighbours_differ_in_one_bit() {
        for n in 0..4096u64 {
            assert_eq!((gray_encode(n) ^ gray_encode(n + 1)).count_ones(), 1);
            assert_eq!(gray_decode(gray_encode(n)), n);
        }
        assert_eq!(gray_decode(gray_encode(u64::MAX)), u64::MAX);
    }

    #[test]
    fn exact_field_maps_codes_to_values() {
        let g = BinaryGene { min: 0, max: 63, bits: 6 };
        for v in 0..=63 {
            assert_eq!(g.code_of(v), v as u64);
            assert_eq!(g.decode(&g.encode(v, BitCoding::Gray), BitCoding::Gray), v);
            assert_eq!(g.decode(&g.encode(v, BitCoding::Binary), BitCoding::Binary), v);
        }
    }

    #[test]
    fn wide_range_field_is_monotone_and_hits_both_ends() {
        let g = BinaryGene { min: 400, max: 5000, bits: 11 };
        assert_eq!(g.value(0), 400);
        assert_eq!(g.value(2047), 5000);
        let mut last = i32::MIN;
        for c in 0..=2047 {
            let v = g.value(c);
            assert!(v >= last);
            last = v;
            // Encoding a decodable value finds a code with the same value.
            assert_eq!(g.value(g.code_of(v)), v);
        }
        assert_eq!(g.value(g.code_of(99_999)), 5000);
    }

    #[test]
    fn numeric_repair_clamps_and_snaps() {
        let g = NumericGene { min: 10.0, max: 20.0, step: Some(3.0) };
        assert_eq!(g.repair(11.4), 10.0);
        assert_eq!(g.repair(11.6), 13.0);
        assert_eq!(g.repair(25.0), 19.0);
        assert_eq!(g.repair(f64::NAN), 10.0);
        assert_eq!(g.levels(), Some(4));
        let r = NumericGene { min: -1.0, max: 1.0, step: None };
        assert_eq!(r.repair(0.123), 0.123);
        assert_eq!(r.value(0.6), 1);
    }
}
