//! GA operators: distributions checked with fixed seeds, exact examples from the papers, and
//! the invariants breeding must keep (elitism, determinism).

use rand::{SeedableRng, rngs::StdRng};
use tuner::ga::{
    GaConfig, GaError, Genome, OptimiserConfig, breed,
    encoding::{BinaryGene, BitCoding, Layout, NumericGene},
    generation_rng,
    operators::{self, Crossover, Mutation, Selection},
    par_map, random_genome,
};

const DRAWS: usize = 200_000;

fn frequencies(selection: &Selection, fitness: &[f64], seed: u64) -> Vec<f64> {
    let sel = selection.prepare(fitness);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut counts = vec![0usize; fitness.len()];
    for _ in 0..DRAWS {
        counts[sel.pick(&mut rng)] += 1;
    }
    counts.into_iter().map(|c| c as f64 / DRAWS as f64).collect()
}

fn assert_close(got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= tol, "index {i}: got {g:.4}, want {w:.4} (all: {got:.4?})");
    }
}

#[test]
fn roulette_is_fitness_proportional() {
    let f = frequencies(&Selection::Roulette, &[1.0, 2.0, 3.0, 4.0], 1);
    assert_close(&f, &[0.1, 0.2, 0.3, 0.4], 0.005);
    // Zero fitness is never drawn; negative fitness is shifted so the worst gets weight 0.
    let f = frequencies(&Selection::Roulette, &[0.0, 5.0, 0.0, 15.0], 2);
    assert_close(&f, &[0.0, 0.25, 0.0, 0.75], 0.005);
    let f = frequencies(&Selection::Roulette, &[-30.0, -20.0, -10.0], 3);
    assert_close(&f, &[0.0, 1.0 / 3.0, 2.0 / 3.0], 0.005);
    // All equal: uniform.
    let f = frequencies(&Selection::Roulette, &[0.0; 4], 4);
    assert_close(&f, &[0.25; 4], 0.005);
}

#[test]
fn rank_selection_uses_ranks_not_values() {
    // Pressure 2: chance proportional to rank (worst 0). Values are irrelevant beyond order.
    let f = frequencies(&Selection::Rank { pressure: 2.0 }, &[1e9, -5.0, 3.0], 5);
    assert_close(&f, &[2.0 / 3.0, 0.0, 1.0 / 3.0], 0.005);
    // Pressure 1: uniform.
    let f = frequencies(&Selection::Rank { pressure: 1.0 }, &[1.0, 2.0, 3.0, 4.0], 6);
    assert_close(&f, &[0.25; 4], 0.005);
    // Ties share their rank: ranks 0, 1.5, 1.5, 3 -> weights 0, 1.5, 1.5, 3 (of 6).
    let f = frequencies(&Selection::Rank { pressure: 2.0 }, &[1.0, 2.0, 2.0, 3.0], 7);
    assert_close(&f, &[0.0, 0.25, 0.25, 0.5], 0.005);
}

#[test]
fn tournament_of_two_favours_the_better() {
    // With replacement, P(winner has rank i of 4) = (2i + 1) / 16.
    let f = frequencies(&Selection::Tournament { size: 2 }, &[10.0, 20.0, 30.0, 40.0], 8);
    assert_close(&f, &[1.0 / 16.0, 3.0 / 16.0, 5.0 / 16.0, 7.0 / 16.0], 0.005);
    let f = frequencies(&Selection::Tournament { size: 1 }, &[10.0, 20.0, 30.0, 40.0], 9);
    assert_close(&f, &[0.25; 4], 0.005);
}

#[test]
fn uniform_crossover_swaps_half_the_loci_and_keeps_material() {
    let a: Vec<u32> = (0..1000).collect();
    let b: Vec<u32> = (1000..2000).collect();
    let mut rng = StdRng::seed_from_u64(10);
    let (x, y) = operators::uniform(&a, &b, &mut rng);
    let swapped = (0..1000).filter(|&i| x[i] == b[i]).count();
    assert!((450..=550).contains(&swapped), "{swapped} loci swapped");
    for i in 0..1000 {
        // Each locus holds one value of each parent, split between the children.
        assert!((x[i] == a[i] && y[i] == b[i]) || (x[i] == b[i] && y[i] == a[i]));
    }
}

#[test]
fn point_crossovers_exchange_contiguous_segments() {
    let a = vec![false; 20];
    let b = vec![true; 20];
    let mut rng = StdRng::seed_from_u64(11);
    let mut cut_counts = [0usize; 20];
    for _ in 0..20_000 {
        let (x, y) = operators::one_point(&a, &b, &mut rng);
        let cut = x.iter().position(|&v| v).expect("a tail from b");
        assert!(x[cut..].iter().all(|&v| v) && x[..cut].iter().all(|&v| !v));
        assert!(y.iter().zip(&x).all(|(p, q)| p != q));
        cut_counts[cut] += 1;
    }
    // Cuts are uniform over 1..20.
    assert_eq!(cut_counts[0], 0);
    for (c, &n) in cut_counts.iter().enumerate().skip(1) {
        assert!((900..=1200).contains(&n), "cut {c} drawn {n} times");
    }
    for _ in 0..2000 {
        let (x, _) = operators::two_point(&a, &b, &mut rng);
        // Exactly one run of `true`s (the exchanged middle segment), possibly empty.
        let edges = x.windows(2).filter(|w| w[0] != w[1]).count();
        assert!(edges <= 1 || (edges == 2 && !x[0]), "{x:?}");
    }
}

#[test]
fn aksenov_crossover_reproduces_table_5() {
    // Aksenov 2004, Table 5: parents, a = 0.783197, cuts after gene 8 and before gene 13.
    let p1 = [861, 468, 310, 292, 112, 4, 34, 38, 1, 28, 15, 23, 27, 10, 17, 1, 31, 24, 26, 16, 15, 14, 8, 0, 26, 6];
    let p2 = [888, 527, 366, 299, 92, 27, 2, 3, 7, 29, 5, 22, 27, 18, 12, 3, 24, 31, 8, 17, 5, 11, 13, 2, 10, 8];
    let o1 = [867, 481, 322, 294, 108, 9, 27, 30, 6, 29, 7, 22, 27, 12, 16, 1, 29, 26, 22, 16, 13, 13, 9, 0, 23, 6];
    let o2 = [882, 514, 354, 297, 96, 22, 9, 11, 2, 28, 13, 23, 27, 16, 13, 3, 26, 29, 12, 17, 7, 12, 12, 2, 13, 8];
    let f = |v: &[i32]| v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>();
    let genes = vec![NumericGene { min: 0.0, max: 2000.0, step: Some(1.0) }; 26];
    let (y1, y2) = operators::aksenov_blend(&f(&p1), &f(&p2), &genes, 0.783197, 8, 12);
    assert_eq!(y1, f(&o1));
    assert_eq!(y2, f(&o2));
}

#[test]
fn arithmetic_children_lie_between_parents() {
    let genes = vec![NumericGene { min: -100.0, max: 100.0, step: None }; 50];
    let mut rng = StdRng::seed_from_u64(12);
    let a: Vec<f64> = (0..50).map(|i| f64::from(i) - 50.0).collect();
    let b: Vec<f64> = (0..50).map(|i| 40.0 - f64::from(i)).collect();
    for _ in 0..100 {
        for (x, y) in
            [operators::arithmetic(&a, &b, &genes, &mut rng), operators::aksenov_arithmetic(&a, &b, &genes, &mut rng)]
        {
            for i in 0..50 {
                let (lo, hi) = (a[i].min(b[i]), a[i].max(b[i]));
                assert!(x[i] >= lo - 1e-9 && x[i] <= hi + 1e-9);
                assert!((x[i] + y[i] - a[i] - b[i]).abs() < 1e-9, "blend keeps the pair's sum");
            }
        }
    }
}

#[test]
fn multi_parent_draws_each_parent_equally() {
    let parents: Vec<Vec<f64>> = (0..3).map(|p| vec![f64::from(p) * 10.0; 30_000]).collect();
    let refs: Vec<&[f64]> = parents.iter().map(|p| p.as_slice()).collect();
    let mut rng = StdRng::seed_from_u64(13);
    let child = operators::multi_parent(&refs, &mut rng);
    let share = |v: f64| child.iter().filter(|&&x| x == v).count() as f64 / child.len() as f64;
    assert_close(&[share(0.0), share(10.0), share(20.0)], &[1.0 / 3.0; 3], 0.01);
    // Belmonte's variant: a third of the loci become the mean (10 here, also parent 1's value).
    let genes = vec![NumericGene { min: 0.0, max: 20.0, step: Some(1.0) }; 30_000];
    let child = operators::multi_parent_mean(&refs, &genes, &mut rng);
    let share = |v: f64| child.iter().filter(|&&x| x == v).count() as f64 / child.len() as f64;
    assert_close(&[share(0.0), share(10.0), share(20.0)], &[2.0 / 9.0, 5.0 / 9.0, 2.0 / 9.0], 0.01);
}

#[test]
fn bit_flip_rate_matches() {
    let mut rng = StdRng::seed_from_u64(14);
    let mut bits = vec![false; 200_000];
    let flipped = operators::bit_flip(&mut bits, 0.005, &mut rng);
    assert_eq!(flipped, bits.iter().filter(|&&b| b).count());
    // Expected 1000, sd about 31.
    assert!((900..=1100).contains(&flipped), "{flipped}");
}

#[test]
fn gaussian_mutation_has_the_requested_spread() {
    let genes = vec![NumericGene { min: -1000.0, max: 1000.0, step: None }; 50_000];
    let mut x = vec![0.0; 50_000];
    let mut rng = StdRng::seed_from_u64(15);
    let changed = operators::gaussian(&mut x, &genes, 1.0, 0.01, &mut rng);
    assert_eq!(changed, 50_000);
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    let sd = (x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / x.len() as f64).sqrt();
    assert!(mean.abs() < 0.5, "mean {mean}");
    assert!((sd - 20.0).abs() < 0.5, "sd {sd}");
    // Integer genes stay on their grid and in range.
    let genes = vec![NumericGene { min: 0.0, max: 10.0, step: Some(2.0) }; 1000];
    let mut x = vec![10.0; 1000];
    operators::gaussian(&mut x, &genes, 1.0, 0.5, &mut rng);
    assert!(x.iter().all(|&v| (0.0..=10.0).contains(&v) && v % 2.0 == 0.0));
}

#[test]
fn random_reset_is_uniform_over_levels() {
    let genes = vec![NumericGene { min: 3.0, max: 12.0, step: Some(3.0) }; 40_000];
    let mut x = vec![3.0; 40_000];
    let mut rng = StdRng::seed_from_u64(16);
    let changed = operators::random_reset(&mut x, &genes, 0.5, &mut rng);
    assert!((19_000..=21_000).contains(&changed), "{changed}");
    let mut x = vec![3.0; 40_000];
    operators::random_reset(&mut x, &genes, 1.0, &mut rng);
    let share = |v: f64| x.iter().filter(|&&y| y == v).count() as f64 / x.len() as f64;
    assert_close(&[share(3.0), share(6.0), share(9.0), share(12.0)], &[0.25; 4], 0.01);
}

fn bits_layout() -> Layout {
    Layout::Bits { coding: BitCoding::Gray, genes: vec![BinaryGene { min: 0, max: 63, bits: 6 }; 8] }
}

#[test]
fn elitism_keeps_the_best_unchanged() {
    let layout = bits_layout();
    for seed in 0..50 {
        let mut rng = generation_rng(seed, 0, 0);
        let pop: Vec<Genome> = (0..20).map(|_| random_genome(&layout, &mut rng)).collect();
        let fitness: Vec<f64> = (0..20).map(|i| ((i * 7 + seed as usize) % 20) as f64).collect();
        let cfg = GaConfig { population: 20, elitism: 2, mutation_rate: 0.5, ..GaConfig::default() };
        let next = breed(&pop, &fitness, &cfg, &layout, &mut rng).unwrap();
        let order = operators::elite_indices(&fitness, 2);
        assert_eq!(fitness[order[0]], 19.0);
        assert_eq!(next[0], pop[order[0]]);
        assert_eq!(next[1], pop[order[1]]);
        assert_eq!(next.len(), 20);
    }
}

#[test]
fn breeding_is_deterministic_per_generation_seed() {
    let layout = bits_layout();
    let mut rng = generation_rng(1, 2, 0);
    let pop: Vec<Genome> = (0..30).map(|_| random_genome(&layout, &mut rng)).collect();
    let fitness: Vec<f64> = (0..30).map(|i| f64::from(i * i)).collect();
    let cfg = GaConfig { population: 30, ..GaConfig::default() };
    let a = breed(&pop, &fitness, &cfg, &layout, &mut generation_rng(1, 2, 3)).unwrap();
    let b = breed(&pop, &fitness, &cfg, &layout, &mut generation_rng(1, 2, 3)).unwrap();
    let c = breed(&pop, &fitness, &cfg, &layout, &mut generation_rng(1, 2, 4)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn every_operator_combination_breeds_valid_genomes() {
    let numeric = Layout::Numeric(vec![NumericGene { min: -5.0, max: 60.0, step: Some(5.0) }; 10]);
    let crossovers = [
        Crossover::Uniform,
        Crossover::OnePoint,
        Crossover::TwoPoint,
        Crossover::Arithmetic,
        Crossover::AksenovArithmetic,
        Crossover::MultiParent { parents: 3 },
    ];
    let selections = [Selection::Roulette, Selection::Rank { pressure: 1.5 }, Selection::Tournament { size: 3 }];
    for (layout, mutations) in [
        (bits_layout(), vec![Mutation::BitFlip]),
        (numeric, vec![Mutation::Gaussian { sigma: 0.2 }, Mutation::RandomReset]),
    ] {
        for crossover in &crossovers {
            for mutation in &mutations {
                for selection in &selections {
                    let cfg = GaConfig {
                        population: 12,
                        selection: selection.clone(),
                        crossover: crossover.clone(),
                        mutation: mutation.clone(),
                        mutation_rate: 0.2,
                        ..GaConfig::default()
                    };
                    if crossover.numeric_only() && matches!(layout, Layout::Bits { .. }) {
                        assert!(matches!(
                            cfg.validate(&OptimiserConfig::default(), &layout),
                            Err(GaError::Incompatible { key: "crossover", .. })
                        ));
                        continue;
                    }
                    let mut rng = generation_rng(9, 0, 0);
                    let pop: Vec<Genome> = (0..12).map(|_| random_genome(&layout, &mut rng)).collect();
                    let next = breed(&pop, &[1.0; 12], &cfg, &layout, &mut rng).unwrap();
                    assert_eq!(next.len(), 12);
                    for g in &next {
                        assert!(g.fits(&layout));
                        if let (Genome::Numbers(x), Layout::Numeric(genes)) = (g, &layout) {
                            assert!(x.iter().zip(genes).all(|(&v, g)| g.repair(v) == v), "{x:?}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn invalid_configs_name_the_key() {
    let layout = bits_layout();
    let bad = |cfg: GaConfig| cfg.validate(&OptimiserConfig::default(), &layout).unwrap_err().to_string();
    assert!(bad(GaConfig { elitism: 100, ..GaConfig::default() }).contains("ga.elitism"));
    assert!(bad(GaConfig { mutation_rate: 1.5, ..GaConfig::default() }).contains("ga.mutation_rate"));
    assert!(bad(GaConfig { mutation: Mutation::RandomReset, ..GaConfig::default() }).contains("ga.mutation"));
    assert!(
        bad(GaConfig { selection: Selection::Rank { pressure: 3.0 }, ..GaConfig::default() }).contains("ga.selection")
    );
    assert!(
        bad(GaConfig { crossover: Crossover::MultiParent { parents: 1 }, ..GaConfig::default() })
            .contains("ga.crossover")
    );
}

#[test]
fn genomes_survive_json() {
    let layout = bits_layout();
    let g = random_genome(&layout, &mut generation_rng(3, 0, 0));
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.starts_with("{\"bits\":\""), "{json}");
    assert_eq!(serde_json::from_str::<Genome>(&json).unwrap(), g);
    let n = Genome::Numbers(vec![0.1, 1.0 / 3.0, -7.25]);
    assert_eq!(serde_json::from_str::<Genome>(&serde_json::to_string(&n).unwrap()).unwrap(), n);
    assert!(serde_json::from_str::<Genome>("{\"bits\":\"01x\"}").is_err());
}

#[test]
fn par_map_order_does_not_depend_on_threads() {
    let items: Vec<u64> = (0..1000).collect();
    let one = par_map(&items, 1, |&x| tuner::hash::mix64(x));
    let four = par_map(&items, 4, |&x| tuner::hash::mix64(x));
    assert_eq!(one, four);
    assert_eq!(one[7], tuner::hash::mix64(7));
}

/// Issue 45's diversity: immigrants take the last slots; a mutant immigrant moves every gene of
/// a generation-0 organism by about `sigma` of its range, a random one is anywhere.
#[test]
fn immigrants_replace_the_last_children_with_mutants_or_random_genomes() {
    use tuner::ga::{ImmigrantKind, Immigrants};
    let layout = Layout::Numeric(vec![NumericGene { min: 0.0, max: 1000.0, step: None }; 200]);
    let seed = Genome::Numbers(vec![500.0; 200]);
    let mut rng = StdRng::seed_from_u64(11);
    let bred: Vec<Genome> = (0..6).map(|_| random_genome(&layout, &mut rng)).collect();
    let mutants = Immigrants { count: 2, kind: ImmigrantKind::Mutant, sigma: 0.05 };
    let mut next = bred.clone();
    mutants.arrive(&mut next, &layout, || vec![seed.clone()], &mut rng);
    assert_eq!(next[..4], bred[..4], "the elites and the first children stay");
    for g in &next[4..] {
        let Genome::Numbers(x) = g else { panic!("numeric") };
        let sd = (x.iter().map(|v| (v - 500.0).powi(2)).sum::<f64>() / x.len() as f64).sqrt();
        assert!((40.0..60.0).contains(&sd), "a mutant moves each gene by N(0, 50): sd {sd}");
    }
    assert_ne!(next[4], next[5]);
    let random = Immigrants { count: 1, kind: ImmigrantKind::Random, sigma: 0.05 };
    let mut next = bred.clone();
    random.arrive(&mut next, &layout, || panic!("a random immigrant needs no generation 0"), &mut rng);
    let Genome::Numbers(x) = &next[5] else { panic!("numeric") };
    assert!(x.iter().any(|&v| !(300.0..700.0).contains(&v)), "a random genome is spread over the range");
    assert_eq!(next[..5], bred[..5]);
    // None by default: nothing changes.
    let mut same = bred.clone();
    Immigrants::default().arrive(&mut same, &layout, || panic!("not called"), &mut rng);
    assert_eq!(same, bred);
}

/// Immigrants through breeding: the same seed breeds the same generation, and they are checked
/// against the population and the optimiser.
#[test]
fn immigrants_are_validated_against_the_population_and_the_optimiser() {
    use tuner::ga::{DEFAULT_CMAES_SIGMA, Immigrants};
    let layout = Layout::Bits { coding: BitCoding::Gray, genes: vec![BinaryGene { min: -50, max: 50, bits: 7 }; 10] };
    let with = |count: usize| GaConfig {
        population: 10,
        elitism: 2,
        immigrants: Immigrants { count, ..Immigrants::default() },
        ..GaConfig::default()
    };
    let ga = OptimiserConfig::default();
    assert!(with(8).validate(&ga, &layout).is_ok());
    let e = with(9).validate(&ga, &layout).unwrap_err().to_string();
    assert!(e.contains("immigrants") && e.contains("elitism 2"), "{e}");
    let cmaes = OptimiserConfig::Cmaes { sigma: DEFAULT_CMAES_SIGMA };
    assert!(with(1).validate(&cmaes, &layout).unwrap_err().to_string().contains("\"cmaes\""));
    let toml = "[ga]\npopulation = 10\n[ga.immigrants]\ncount = 3\nkind = \"random\"\n";
    #[derive(serde::Deserialize)]
    struct Wrap {
        ga: GaConfig,
    }
    let w: Wrap = toml::from_str(toml).unwrap();
    assert_eq!((w.ga.immigrants.count, w.ga.immigrants.sigma), (3, 0.05));
    // Absent from the serialised settings when none, so older runs keep their fingerprint.
    assert!(!serde_json::to_string(&GaConfig::default()).unwrap().contains("immigrants"));
}
