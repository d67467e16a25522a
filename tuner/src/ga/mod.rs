//! The shared genetic-algorithm library used by every evolution command.
//!
//! A [`Genome`] is a bit string (binary or Gray-coded fields) or a vector of numbers; its
//! [`Layout`] comes from a search space ([`crate::space`]). One generation step is
//! [`breed`]: elitism, then selection → crossover → mutation until the population is full.
//! Everything is a pure function of its inputs and an RNG; [`generation_rng`] derives each
//! generation's RNG from `(seed, run, generation)`, so a resumed run is bit-identical without
//! serialising RNG state, and [`par_map`] evaluates fitness in parallel with results in input
//! order, whatever the thread count.
//!
//! A command is built from these parts: [`run_dir::RunDir`] locks its output and applies the one
//! start policy (`--resume`, `--force`); [`driver::Driver`] runs its generations (checkpoint
//! after each, resume, fingerprint, per-generation RNG, reports through [`crate::csv`],
//! [`report`] and [`crate::chart`]); [`error::RunError`] is what they can all fail with. All five
//! commands run on the driver: `evolve` (GM-move matching or a mentor), `search-evolve` (node
//! totals on a suite) and `coevolve` (round robins of engine processes) as a
//! [`driver::Problem`] bred by [`breed`]; `quick` (Belmonte's tournaments and survivor policy)
//! and `roundrobin-ga` (Aksenov's reference player and operators) as [`driver::Generations`]
//! with their own variation. See [`driver`] for how a new fitness or optimiser plugs in.
//!
//! ```
//! use rand::SeedableRng;
//! use tuner::ga::{GaConfig, Genome, breed, encoding::{BinaryGene, BitCoding, Layout}, random_genome};
//! let layout = Layout::Bits { coding: BitCoding::Gray, genes: vec![BinaryGene { min: 0, max: 63, bits: 6 }; 4] };
//! let mut rng = rand::rngs::StdRng::seed_from_u64(7);
//! let pop: Vec<Genome> = (0..10).map(|_| random_genome(&layout, &mut rng)).collect();
//! let fitness: Vec<f64> = (0..10).map(|i| i as f64).collect();
//! let cfg = GaConfig { population: 10, ..GaConfig::default() };
//! let next = breed(&pop, &fitness, &cfg, &layout, &mut rng).unwrap();
//! assert_eq!(next.len(), 10);
//! assert_eq!(next[0], pop[9]); // elitism keeps the best unchanged
//! ```

pub mod checkpoint;
pub mod cmaes;
pub mod driver;
pub mod encoding;
pub mod error;
pub mod operators;
pub mod report;
pub mod run_dir;

use std::{
    sync::atomic::{AtomicUsize, Ordering},
    thread,
};

use rand::{Rng, SeedableRng, rngs::StdRng};
use serde::{Deserialize, Deserializer, Serialize};
use thiserror::Error;

use crate::{hash::mix64, optimise::spsa::SpsaSettings};

use self::{
    encoding::Layout,
    operators::{Crossover, Mutation, Selection},
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

/// GA settings shared by every evolution command (the `[ga]` table of their config files).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GaConfig {
    pub population: usize,
    pub generations: usize,
    /// Organisms copied unchanged into the next generation, best first.
    pub elitism: usize,
    pub selection: Selection,
    pub crossover: Crossover,
    /// Chance that a selected pair (or group) is recombined rather than copied.
    pub crossover_rate: f64,
    pub mutation: Mutation,
    /// Per bit (binary genomes) or per gene (numeric genomes).
    pub mutation_rate: f64,
    /// `"ga"`: the operators above. `"cmaes"`: CMA-ES over the genes' ranges ([`cmaes`]),
    /// `population` points a generation; selection, crossover, mutation and elitism unused.
    /// `"spsa"` (numeric spaces) and `"local"`: SPSA ([`crate::optimise::spsa`]) and the
    /// coordinate local search ([`crate::optimise::local`]) from the first organism of the
    /// initial draw; `population` and the operators unused.
    /// Absent from serialised GA settings when `"ga"`, so existing runs keep their fingerprint.
    #[serde(skip_serializing_if = "OptimiserKind::is_ga")]
    pub optimiser: OptimiserKind,
    /// CMA-ES's initial step size, as a fraction of every gene's range.
    #[serde(skip_serializing_if = "is_default_sigma")]
    pub cmaes_sigma: f64,
    /// SPSA's gains (`optimiser = "spsa"`, the `[ga.spsa]` table). Absent from serialised
    /// settings at their defaults, as the keys below, so existing runs keep their fingerprint.
    #[serde(skip_serializing_if = "is_default_spsa")]
    pub spsa: SpsaSettings,
    /// The local search's first step (`optimiser = "local"`), as a fraction of every gene's range.
    #[serde(skip_serializing_if = "is_default_local_step")]
    pub local_step: f64,
    /// Diversity (`[ga.immigrants]`): newcomers that replace the last children of every bred
    /// generation, so a small population does not collapse onto one organism. None by default
    /// (the papers'); absent from serialised settings then, so existing runs keep their
    /// fingerprint.
    #[serde(skip_serializing_if = "Immigrants::is_none")]
    pub immigrants: Immigrants,
}

/// `[ga.immigrants]`: `count` newcomers a generation, in place of the last children (never of
/// the elites).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Immigrants {
    pub count: usize,
    pub kind: ImmigrantKind,
    /// `mutant`: the standard deviation of each gene's move, as a fraction of its range.
    pub sigma: f64,
}

/// What an immigrant is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImmigrantKind {
    /// A generation-0 organism (drawn uniformly) with every gene moved by N(0, sigma × range):
    /// new values near the given files, for a population seeded from files.
    #[default]
    Mutant,
    /// A random genome of the space.
    Random,
}

/// `seed` with every gene moved by N(0, `sigma` × its range), clamped into the range (a binary
/// gene takes its nearest codable value, an integer gene its nearest step).
pub fn mutant(seed: &Genome, layout: &Layout, sigma: f64, rng: &mut impl Rng) -> Genome {
    let normal = rand_distr::Normal::new(0.0, sigma).expect("sigma is positive and finite");
    let moved: Vec<f64> =
        layout.unit_of(seed).iter().map(|x| x + rand_distr::Distribution::sample(&normal, rng)).collect();
    layout.genome_at(&moved)
}

impl Default for Immigrants {
    fn default() -> Self {
        Immigrants { count: 0, kind: ImmigrantKind::Mutant, sigma: 0.05 }
    }
}

impl Immigrants {
    pub fn is_none(&self) -> bool {
        *self == Immigrants::default()
    }

    /// Replaces the last `count` genomes of `bred` with immigrants: mutants of `initial()`'s
    /// genomes or random ones (`initial` is called only for mutants).
    pub fn arrive(
        &self,
        bred: &mut [Genome],
        layout: &Layout,
        initial: impl FnOnce() -> Vec<Genome>,
        rng: &mut impl Rng,
    ) {
        if self.count == 0 {
            return;
        }
        let from = bred.len().saturating_sub(self.count);
        let seeds = match self.kind {
            ImmigrantKind::Mutant => initial(),
            ImmigrantKind::Random => Vec::new(),
        };
        for slot in &mut bred[from..] {
            *slot = match seeds.len() {
                0 => random_genome(layout, rng),
                n => mutant(&seeds[rng.random_range(0..n)], layout, self.sigma, rng),
            };
        }
    }
}

/// Which optimiser breeds a generation from the last (`[ga] optimiser`): each is a
/// [`crate::optimise::Optimiser`], chosen by [`driver::Driver::evolve`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OptimiserKind {
    /// The operators of `[ga]`, `population` organisms a generation.
    #[default]
    Ga,
    /// CMA-ES, `population` points a generation.
    Cmaes,
    /// SPSA from one start point: the pair θ ± c_k·Δ a generation (one iteration).
    Spsa,
    /// Coordinate local search from one start point: the incumbent and one coordinate a step up
    /// and down a generation.
    Local,
}

impl OptimiserKind {
    pub fn is_ga(&self) -> bool {
        *self == OptimiserKind::Ga
    }

    /// The name in the config and in errors.
    pub fn name(self) -> &'static str {
        match self {
            OptimiserKind::Ga => "ga",
            OptimiserKind::Cmaes => "cmaes",
            OptimiserKind::Spsa => "spsa",
            OptimiserKind::Local => "local",
        }
    }

    /// Whether the optimiser starts from one point and never uses the GA's operators.
    pub fn from_one_point(self) -> bool {
        matches!(self, OptimiserKind::Spsa | OptimiserKind::Local)
    }
}

/// Hansen's usual start: a third of the range.
pub const DEFAULT_CMAES_SIGMA: f64 = 0.3;

/// The local search's first step: a tenth of every range.
pub const DEFAULT_LOCAL_STEP: f64 = 0.1;

fn is_default_sigma(sigma: &f64) -> bool {
    *sigma == DEFAULT_CMAES_SIGMA
}

fn is_default_spsa(spsa: &SpsaSettings) -> bool {
    *spsa == SpsaSettings::default()
}

fn is_default_local_step(step: &f64) -> bool {
    *step == DEFAULT_LOCAL_STEP
}

impl Default for GaConfig {
    /// David et al. §III-B: population 100, 200 generations, fitness-proportional selection,
    /// uniform crossover at 0.75, mutation 0.005 per bit, elitism of one.
    fn default() -> Self {
        Self {
            population: 100,
            generations: 200,
            elitism: 1,
            selection: Selection::Roulette,
            crossover: Crossover::Uniform,
            crossover_rate: 0.75,
            mutation: Mutation::BitFlip,
            mutation_rate: 0.005,
            optimiser: OptimiserKind::Ga,
            cmaes_sigma: DEFAULT_CMAES_SIGMA,
            spsa: SpsaSettings::default(),
            local_step: DEFAULT_LOCAL_STEP,
            immigrants: Immigrants::default(),
        }
    }
}

/// Reads a `[ga]` table over `defaults`, so a partial table keeps the command's own defaults.
pub fn overlay_defaults<'de, D: Deserializer<'de>>(d: D, defaults: GaConfig) -> Result<GaConfig, D::Error> {
    use serde::de::Error;
    let user = toml::Table::deserialize(d)?;
    let mut table = match toml::Value::try_from(defaults).map_err(D::Error::custom)? {
        toml::Value::Table(t) => t,
        _ => return Err(D::Error::custom("GA defaults are not a table")),
    };
    table.extend(user);
    toml::Value::Table(table).try_into().map_err(D::Error::custom)
}

/// A GA configuration that cannot work with the given search space.
#[derive(Debug, Error, PartialEq)]
pub enum GaError {
    #[error("ga.{key}: {reason}")]
    Invalid { key: &'static str, reason: String },
    #[error("ga.{key}: `{operator}` needs a {needs} genome but the search space encoding is {have}")]
    Incompatible { key: &'static str, operator: String, needs: &'static str, have: &'static str },
}

fn invalid(key: &'static str, reason: impl Into<String>) -> GaError {
    GaError::Invalid { key, reason: reason.into() }
}

impl GaConfig {
    /// Candidates evaluated a generation: `population`, SPSA's pair, or the local search's
    /// incumbent and its two neighbours.
    pub fn candidates(&self) -> usize {
        match self.optimiser {
            OptimiserKind::Ga | OptimiserKind::Cmaes => self.population,
            OptimiserKind::Spsa => 2,
            OptimiserKind::Local => 3,
        }
    }

    /// Checks ranges and that every operator suits the layout's encoding.
    pub fn validate(&self, layout: &Layout) -> Result<(), GaError> {
        if self.population < 2 {
            return Err(invalid("population", format!("must be at least 2, got {}", self.population)));
        }
        if self.generations == 0 {
            return Err(invalid("generations", "must be at least 1"));
        }
        if !(self.cmaes_sigma > 0.0 && self.cmaes_sigma <= 1.0) {
            return Err(invalid("cmaes_sigma", format!("{} must be in (0, 1]", self.cmaes_sigma)));
        }
        let im = &self.immigrants;
        if im.count > 0 && !self.optimiser.is_ga() {
            return Err(invalid(
                "immigrants",
                format!(
                    "immigrants are bred into a GA's generations; optimiser \"{}\" has none",
                    self.optimiser.name()
                ),
            ));
        }
        if im.count > 0 && im.count + self.elitism > self.population {
            return Err(invalid(
                "immigrants",
                format!(
                    "count {} and elitism {} exceed the population {}: immigrants replace children, never elites",
                    im.count, self.elitism, self.population
                ),
            ));
        }
        if !(im.sigma > 0.0 && im.sigma.is_finite()) {
            return Err(invalid(
                "immigrants",
                format!("sigma {} must be positive (a fraction of each range)", im.sigma),
            ));
        }
        if self.elitism >= self.population {
            return Err(invalid(
                "elitism",
                format!("{} must be below the population {}", self.elitism, self.population),
            ));
        }
        for (key, rate) in [("crossover_rate", self.crossover_rate), ("mutation_rate", self.mutation_rate)] {
            if !(0.0..=1.0).contains(&rate) {
                return Err(invalid(key, format!("{rate} is not a probability in [0, 1]")));
            }
        }
        match self.selection {
            Selection::Rank { pressure } if !(1.0..=2.0).contains(&pressure) => {
                return Err(invalid("selection", format!("rank pressure {pressure} is outside [1, 2]")));
            }
            Selection::Tournament { size } if size == 0 || size > self.population => {
                return Err(invalid("selection", format!("tournament size {size} must be in 1..={}", self.population)));
            }
            _ => {}
        }
        if let Crossover::MultiParent { parents } = self.crossover
            && parents < 2
        {
            return Err(invalid("crossover", format!("multi-parent needs at least 2 parents, got {parents}")));
        }
        let numeric = matches!(layout, Layout::Numeric(_));
        let have = if numeric { "numeric (integer/real)" } else { "binary (gray/binary)" };
        // The one-point optimisers use none of the operators, so their fit to the space is not
        // checked (a GA config switched to `"local"` runs as it is).
        match self.optimiser {
            OptimiserKind::Spsa if !numeric => {
                return Err(GaError::Incompatible {
                    key: "optimiser",
                    operator: "spsa".into(),
                    needs: "numeric",
                    have,
                });
            }
            OptimiserKind::Spsa => return self.spsa.validate().map_err(|reason| invalid("spsa", reason)),
            OptimiserKind::Local if !(self.local_step > 0.0 && self.local_step <= 1.0) => {
                return Err(invalid("local_step", format!("{} must be in (0, 1]", self.local_step)));
            }
            OptimiserKind::Local => return Ok(()),
            OptimiserKind::Ga | OptimiserKind::Cmaes => {}
        }
        if self.crossover.numeric_only() && !numeric {
            return Err(GaError::Incompatible {
                key: "crossover",
                operator: format!("{:?}", self.crossover),
                needs: "numeric",
                have,
            });
        }
        let mutation_numeric = !matches!(self.mutation, Mutation::BitFlip);
        if mutation_numeric != numeric {
            return Err(GaError::Incompatible {
                key: "mutation",
                operator: format!("{:?}", self.mutation),
                needs: if mutation_numeric { "numeric" } else { "binary" },
                have,
            });
        }
        if let Mutation::Gaussian { sigma } = self.mutation
            && !(sigma > 0.0 && sigma.is_finite())
        {
            return Err(invalid("mutation", format!("gaussian sigma must be positive, got {sigma}")));
        }
        Ok(())
    }
}

/// A uniformly random genome of the layout (random bits, or uniform gene values).
pub fn random_genome(layout: &Layout, rng: &mut impl Rng) -> Genome {
    match layout {
        Layout::Bits { .. } => Genome::Bits((0..layout.len()).map(|_| rng.random_bool(0.5)).collect()),
        Layout::Numeric(genes) => Genome::Numbers(genes.iter().map(|g| operators::random_gene(g, rng)).collect()),
    }
}

/// The next generation: the `elitism` best unchanged, then children of selected parents,
/// recombined with probability `crossover_rate` and mutated, until `cfg.population` organisms.
///
/// # Errors
/// When `cfg` does not suit `layout` or a genome does not fit the layout.
pub fn breed(
    pop: &[Genome],
    fitness: &[f64],
    cfg: &GaConfig,
    layout: &Layout,
    rng: &mut impl Rng,
) -> Result<Vec<Genome>, GaError> {
    cfg.validate(layout)?;
    if pop.is_empty() || pop.len() != fitness.len() {
        return Err(invalid("population", format!("{} genomes but {} fitness values", pop.len(), fitness.len())));
    }
    if let Some(i) = pop.iter().position(|g| !g.fits(layout)) {
        return Err(invalid("population", format!("genome {i} does not fit the search space")));
    }
    let mut next: Vec<Genome> =
        operators::elite_indices(fitness, cfg.elitism.min(pop.len())).into_iter().map(|i| pop[i].clone()).collect();
    let selector = cfg.selection.prepare(fitness);
    while next.len() < cfg.population {
        let parents: Vec<&Genome> = (0..cfg.crossover.parents()).map(|_| &pop[selector.pick(rng)]).collect();
        let children = if rng.random_bool(cfg.crossover_rate) {
            recombine(&parents, &cfg.crossover, layout, rng)
        } else {
            parents.iter().take(2).map(|&g| g.clone()).collect()
        };
        for mut child in children {
            if next.len() == cfg.population {
                break;
            }
            mutate(&mut child, &cfg.mutation, cfg.mutation_rate, layout, rng);
            next.push(child);
        }
    }
    Ok(next)
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

/// The RNG of one generation of one run: a pure function of its coordinates, so resuming from
/// a checkpoint needs no RNG state.
pub fn generation_rng(seed: u64, run: u64, generation: u64) -> StdRng {
    StdRng::seed_from_u64(mix64(mix64(mix64(seed) ^ run) ^ generation))
}

/// Parallel map over `items` with `threads` scoped workers taking items one at a time; the
/// result is in input order, so it does not depend on the thread count.
pub fn par_map<T: Sync, R: Send>(items: &[T], threads: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    let parts: Vec<Vec<(usize, R)>> = thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= items.len() {
                            break done;
                        }
                        done.push((i, f(&items[i])));
                    }
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().expect("fitness worker panicked")).collect()
    });
    for (i, r) in parts.into_iter().flatten() {
        out[i] = Some(r);
    }
    out.into_iter().map(|r| r.expect("every item evaluated")).collect()
}

/// Worker threads to use: `requested`, or every available core when 0.
pub fn threads(requested: usize) -> usize {
    if requested > 0 { requested } else { thread::available_parallelism().map_or(1, |n| n.get()) }
}
