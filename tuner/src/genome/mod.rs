//! Genomes and their variation, what every optimiser proposes and every evolution command
//! evaluates.
//!
//! A [`Genome`] is a bit string (binary or Gray-coded fields) or a vector of numbers; its
//! [`Layout`] comes from a search space ([`crate::space`]) and says how its genes decode
//! ([`encoding`]). The variation operators ([`operators`]: selection, crossover, mutation) and
//! their application to genomes ([`recombine`], [`mutate`]) are pure functions of their inputs
//! and an RNG. This module depends on no optimiser and no command: the optimisers
//! ([`crate::optimise`]) and the generation driver ([`crate::ga`]) build on it.

pub mod encoding;
pub mod operators;

use rand::Rng;
use serde::{Deserialize, Serialize};

use self::{
    encoding::Layout,
    operators::{Crossover, Mutation},
};

/// One organism's chromosome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Genome {
    /// Concatenated bit fields, written as a `0`/`1` string in checkpoints.
    Bits(#[serde(with = "bitstring")] Vec<bool>),
    /// One number per gene.
    Numbers(Vec<f64>),
}

impl Genome {
    pub fn len(&self) -> usize {
        match self {
            Genome::Bits(b) => b.len(),
            Genome::Numbers(x) => x.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The values of a numeric genome; `None` for bit strings.
    pub fn numbers(&self) -> Option<&[f64]> {
        match self {
            Genome::Numbers(x) => Some(x),
            Genome::Bits(_) => None,
        }
    }

    /// An exact, hashable identity (numbers by their bit patterns), for fitness memoisation.
    pub fn key(&self) -> Vec<u64> {
        match self {
            Genome::Bits(b) => b.chunks(64).map(encoding::bits_to_code).chain([b.len() as u64]).collect(),
            Genome::Numbers(x) => x.iter().map(|v| v.to_bits()).collect(),
        }
    }

    /// Whether the genome has the shape `layout` describes.
    pub fn fits(&self, layout: &Layout) -> bool {
        matches!((self, layout), (Genome::Bits(_), Layout::Bits { .. }) | (Genome::Numbers(_), Layout::Numeric(_)))
            && self.len() == layout.len()
    }
}

mod bitstring {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(bits: &[bool], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&bits.iter().map(|&b| if b { '1' } else { '0' }).collect::<String>())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<bool>, D::Error> {
        let s = String::deserialize(d)?;
        s.chars()
            .map(|c| match c {
                '0' => Ok(false),
                '1' => Ok(true),
                other => Err(D::Error::custom(format!("bit string holds `{other}`"))),
            })
            .collect()
    }
}

/// A uniformly random genome of the layout (random bits, or uniform gene values).
pub fn random_genome(layout: &Layout, rng: &mut impl Rng) -> Genome {
    match layout {
        Layout::Bits { .. } => Genome::Bits((0..layout.len()).map(|_| rng.random_bool(0.5)).collect()),
        Layout::Numeric(genes) => Genome::Numbers(genes.iter().map(|g| operators::random_gene(g, rng)).collect()),
    }
}

/// `seed` with every gene moved by N(0, `sigma` × its range), clamped into the range (a binary
/// gene takes its nearest codable value, an integer gene its nearest step).
pub fn mutant(seed: &Genome, layout: &Layout, sigma: f64, rng: &mut impl Rng) -> Genome {
    let normal = rand_distr::Normal::new(0.0, sigma).expect("sigma is positive and finite");
    let moved: Vec<f64> =
        layout.unit_of(seed).iter().map(|x| x + rand_distr::Distribution::sample(&normal, rng)).collect();
    layout.genome_at(&moved)
}

fn pair<T>((x, y): (T, T)) -> Vec<T> {
    vec![x, y]
}

/// Applies the crossover to parents of one layout: two children, or one for multi-parent.
pub fn recombine(parents: &[&Genome], op: &Crossover, layout: &Layout, rng: &mut impl Rng) -> Vec<Genome> {
    let bits: Option<Vec<&[bool]>> =
        parents.iter().map(|g| if let Genome::Bits(b) = g { Some(b.as_slice()) } else { None }).collect();
    let nums: Option<Vec<&[f64]>> =
        parents.iter().map(|g| if let Genome::Numbers(x) = g { Some(x.as_slice()) } else { None }).collect();
    let genes = match layout {
        Layout::Numeric(genes) => genes.as_slice(),
        Layout::Bits { .. } => &[],
    };
    match (op, bits, nums) {
        (Crossover::MultiParent { .. }, Some(b), _) => vec![Genome::Bits(operators::multi_parent(&b, rng))],
        (Crossover::MultiParent { .. }, _, Some(x)) => {
            vec![Genome::Numbers(operators::multi_parent_mean(&x, genes, rng))]
        }
        (Crossover::Uniform, Some(b), _) => {
            pair(operators::uniform(b[0], b[1], rng)).into_iter().map(Genome::Bits).collect()
        }
        (Crossover::OnePoint, Some(b), _) => {
            pair(operators::one_point(b[0], b[1], rng)).into_iter().map(Genome::Bits).collect()
        }
        (Crossover::TwoPoint, Some(b), _) => {
            pair(operators::two_point(b[0], b[1], rng)).into_iter().map(Genome::Bits).collect()
        }
        (Crossover::Uniform, _, Some(x)) => {
            pair(operators::uniform(x[0], x[1], rng)).into_iter().map(Genome::Numbers).collect()
        }
        (Crossover::OnePoint, _, Some(x)) => {
            pair(operators::one_point(x[0], x[1], rng)).into_iter().map(Genome::Numbers).collect()
        }
        (Crossover::TwoPoint, _, Some(x)) => {
            pair(operators::two_point(x[0], x[1], rng)).into_iter().map(Genome::Numbers).collect()
        }
        (Crossover::Arithmetic, _, Some(x)) => {
            pair(operators::arithmetic(x[0], x[1], genes, rng)).into_iter().map(Genome::Numbers).collect()
        }
        (Crossover::AksenovArithmetic, _, Some(x)) => {
            pair(operators::aksenov_arithmetic(x[0], x[1], genes, rng)).into_iter().map(Genome::Numbers).collect()
        }
        // Validated away: arithmetic on bits, or parents of mixed kinds. Copy the parents.
        _ => parents.iter().take(2).map(|&g| g.clone()).collect(),
    }
}

/// Mutates one genome in place.
pub fn mutate(genome: &mut Genome, op: &Mutation, rate: f64, layout: &Layout, rng: &mut impl Rng) {
    match (genome, op, layout) {
        (Genome::Bits(b), Mutation::BitFlip, _) => {
            operators::bit_flip(b, rate, rng);
        }
        (Genome::Numbers(x), Mutation::Gaussian { sigma }, Layout::Numeric(genes)) => {
            operators::gaussian(x, genes, rate, *sigma, rng);
        }
        (Genome::Numbers(x), Mutation::RandomReset, Layout::Numeric(genes)) => {
            operators::random_reset(x, genes, rate, rng);
        }
        _ => {}
    }
}
