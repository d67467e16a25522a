//! Aksenov's genetic operators: Fig. 17 on Table 5, roulette, pairing, random reset.

use std::collections::BTreeMap;

use rand::{SeedableRng, rngs::StdRng};
use tuner::{
    ga::encoding::{Layout, NumericGene},
    round_robin_ga::{
        RoundRobinGaConfig,
        breed::{crossover_pair, next_population},
        run::{material_only, reference_genome},
    },
    space::SearchSpace,
};

fn space() -> SearchSpace {
    SearchSpace::load(concat!(env!("CARGO_MANIFEST_DIR"), "/../configs/spaces/roundrobin-ga-aksenov.toml")).unwrap()
}

fn genes(s: &SearchSpace) -> Vec<NumericGene> {
    match s.layout() {
        Layout::Numeric(g) => g.clone(),
        other => panic!("{other:?}"),
    }
}

fn row(v: [i32; 26]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(x)).collect()
}

#[test]
fn fig17_on_table5_gives_table5_offspring_exactly() {
    let s = space();
    assert_eq!(s.genes.len(), 26);
    let p1 =
        row([861, 468, 310, 292, 112, 4, 34, 38, 1, 28, 15, 23, 27, 10, 17, 1, 31, 24, 26, 16, 15, 14, 8, 0, 26, 6]);
    let p2 = row([888, 527, 366, 299, 92, 27, 2, 3, 7, 29, 5, 22, 27, 18, 12, 3, 24, 31, 8, 17, 5, 11, 13, 2, 10, 8]);
    let o1 =
        row([867, 481, 322, 294, 108, 9, 27, 30, 6, 29, 7, 22, 27, 12, 16, 1, 29, 26, 22, 16, 13, 13, 9, 0, 23, 6]);
    let o2 =
        row([882, 514, 354, 297, 96, 22, 9, 11, 2, 28, 13, 23, 27, 16, 13, 3, 26, 29, 12, 17, 7, 12, 12, 2, 13, 8]);
    // Crossover points "after 8 and before 13" (1-based): genes 9..=12, i.e. 8..12 0-based.
    let (y1, y2) = crossover_pair(&p1, &p2, &genes(&s), 0.783197, 8, 12);
    assert_eq!(y1, o1);
    assert_eq!(y2, o2);
    // The thesis's worked example: queen 866.853681 → 867, 882.146319 → 882.
    assert_eq!((y1[0], y2[0]), (867.0, 882.0));
}

#[test]
fn roulette_copies_parents_in_proportion_to_fitness() {
    let g = genes(&space());
    let pop: Vec<Vec<f64>> =
        (0..9).map(|i| g.iter().map(|x| x.min + (i as f64).min(x.max - x.min)).collect()).collect();
    let fitness = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.0];
    let total: f64 = fitness.iter().sum();
    let mut count = [0usize; 9];
    let runs = 20_000;
    for seed in 0..runs {
        let (next, log) = next_population(&pop, &fitness, &g, 0.0, 0.0, &mut StdRng::seed_from_u64(seed));
        assert!(log.pairs.is_empty() && log.mutations == 0);
        for (slot, &i) in log.selected.iter().enumerate() {
            assert_eq!(next[slot], pop[i]);
            count[i] += 1;
        }
    }
    for (i, &c) in count.iter().enumerate() {
        let got = c as f64 / (runs as f64 * 9.0);
        assert!((got - fitness[i] / total).abs() < 0.004, "{i}: {got}");
    }
    assert_eq!(count[8], 0, "zero fitness is never drawn");
}

#[test]
fn crossover_pool_pairs_and_averages() {
    let g = genes(&space());
    let pop: Vec<Vec<f64>> =
        (0..9).map(|i| g.iter().map(|x| if i % 2 == 0 { x.min } else { x.max }).collect()).collect();
    let fitness = [1.0; 9];
    let mut pairs = 0usize;
    for seed in 0..2000 {
        let (next, log) = next_population(&pop, &fitness, &g, 0.5, 0.0, &mut StdRng::seed_from_u64(seed));
        let (lo, hi) = log.cuts;
        assert!(lo < hi && hi <= 26);
        let mut slots = std::collections::HashSet::new();
        for &(i, j, a) in &log.pairs {
            assert!(slots.insert(i) && slots.insert(j), "slot in two pairs");
            assert!((0.0..1.0).contains(&a));
        }
        pairs += log.pairs.len();
        // Averaging effect: every value stays within the gene's range (between the parents).
        for x in &next {
            for (v, gene) in x.iter().zip(&g) {
                assert!(*v >= gene.min && *v <= gene.max && v.fract() == 0.0);
            }
        }
    }
    // p_c = 0.5 of 9 organisms: 4.5 in the pool on average, ~2.25 pairs.
    let mean = pairs as f64 / 2000.0;
    assert!((mean - 2.25).abs() < 0.15, "{mean} pairs per generation");
}

#[test]
fn random_reset_rate() {
    let g = genes(&space());
    let pop: Vec<Vec<f64>> = vec![g.iter().map(|x| x.min).collect(); 9];
    let mut resets = 0;
    for seed in 0..2000 {
        resets += next_population(&pop, &[1.0; 9], &g, 0.0, 0.01, &mut StdRng::seed_from_u64(seed)).1.mutations;
    }
    let rate = resets as f64 / (2000.0 * 9.0 * 26.0);
    assert!((rate - 0.01).abs() < 0.002, "{rate}");
}

#[test]
fn reference_and_material_only_players() {
    let s = space();
    let r = reference_genome(&s, &RoundRobinGaConfig::default().reference).unwrap();
    assert_eq!(&r[..5], &[900.0, 500.0, 340.0, 330.0, 100.0]);
    // Appendix A's `const` column.
    let appendix_a =
        [900, 500, 340, 330, 100, 20, 20, 25, 15, 15, 10, 15, 20, 15, 15, 3, 20, 20, 15, 15, 15, 7, 10, 10, 15, 15];
    assert_eq!(r, appendix_a.map(f64::from).to_vec());
    // Unlisted genes take the middle of their range (rounded half up).
    let only_queen: BTreeMap<String, i32> = [("queen".to_string(), 850)].into_iter().collect();
    let mid = reference_genome(&s, &only_queen).unwrap();
    assert_eq!((mid[0], mid[1], mid[5], mid[15], mid[22]), (850.0, 490.0, 20.0, 3.0, 10.0));
    let params = s.apply(&tuner::ga::Genome::Numbers(r.clone()), &s.base());
    assert_eq!((params.eval.queen_mg, params.eval.queen_eg, params.eval.pawn_eg), (900, 900, 100));
    // Everything outside the 26 genes is zero (Aksenov's evaluation only).
    assert_eq!(params.eval.tempo, 0);
    let m = material_only(&s, &r);
    assert_eq!(&m[..5], &r[..5]);
    assert!(m[5..].iter().all(|&v| v == 0.0));
    let bad: BTreeMap<String, i32> = [("queen".to_string(), 1200)].into_iter().collect();
    assert!(reference_genome(&s, &bad).unwrap_err().to_string().contains("queen"));
    let bad: BTreeMap<String, i32> = [("king".to_string(), 1)].into_iter().collect();
    assert!(reference_genome(&s, &bad).unwrap_err().to_string().contains("king"));
}
