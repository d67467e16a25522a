//! Belmonte's selection, crossover, mutation and 20/60/20 survivor policy, over many seeded draws.

use rand::{SeedableRng, rngs::StdRng};
use tuner::quick_tournament::{
    belmonte::next_generation,
    operators::{Fate, MutationStep, Values, crossover, mutate, select_parent, survivors, tier},
    run::Individual,
};

fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

fn ranked(n: usize) -> Vec<Values> {
    (0..n).map(|i| [1000 + 10 * i as i32, 3000 + 100 * i as i32, 3100, 5000 + 7 * i as i32, 9000]).collect()
}

#[test]
fn parent_probability_is_rank_over_n_without_the_bottom_fifth() {
    let n = 12;
    let draws = 300_000;
    let mut count = vec![0usize; n];
    let mut r = rng(1);
    for _ in 0..draws {
        count[select_parent(n, &mut r)] += 1;
    }
    let eligible: usize = (tier(n)..n).sum(); // ranks 2..=11 → 65
    for (rank, &c) in count.iter().enumerate() {
        let want = if rank < tier(n) { 0.0 } else { rank as f64 / eligible as f64 };
        let got = c as f64 / draws as f64;
        assert!((got - want).abs() < 0.004, "rank {rank}: {got} vs {want}");
    }
    assert_eq!(count[0] + count[1], 0);
}

#[test]
fn survivor_proportions_are_20_60_20_and_20_40_40() {
    let n = 12;
    let pop = ranked(n);
    let (mut kept, mut mutant, mut offspring, mut middle) = (0, 0, 0, 0);
    let mut mutant_sources = vec![0usize; n];
    let mut parent_counts = [0usize; 5];
    let plans = 20_000;
    for seed in 0..plans {
        let plan = survivors(&pop, MutationStep::default(), &mut rng(seed));
        assert_eq!(plan.len(), n);
        for (rank, (fate, values)) in plan.iter().enumerate() {
            if rank < 2 {
                assert_eq!(*fate, Fate::Fresh);
                assert!(values.iter().all(|v| (800..=17000).contains(v)));
            } else if rank >= n - 2 {
                assert_eq!(*fate, Fate::Elite);
                assert_eq!(*values, pop[rank]);
            } else {
                middle += 1;
                match fate {
                    Fate::Kept => {
                        kept += 1;
                        assert_eq!(*values, pop[rank]);
                    }
                    Fate::Mutant { of } => {
                        mutant += 1;
                        mutant_sources[*of] += 1;
                    }
                    Fate::Offspring { parents } => {
                        offspring += 1;
                        parent_counts[parents.len()] += 1;
                        assert!(parents.iter().all(|&p| p >= 2), "bottom 20% bred: {parents:?}");
                    }
                    other => panic!("middle rank {rank} got {other:?}"),
                }
            }
        }
    }
    let share = |c: usize| c as f64 / middle as f64;
    assert!((share(kept) - 0.2).abs() < 0.01, "kept {}", share(kept));
    assert!((share(mutant) - 0.4).abs() < 0.01, "mutant {}", share(mutant));
    assert!((share(offspring) - 0.4).abs() < 0.01, "offspring {}", share(offspring));
    // Offspring ≈ 24% of the population (Belmonte §II-C): 0.6 × 0.4.
    let off_pop = offspring as f64 / (plans as f64 * n as f64);
    assert!((off_pop - 8.0 * 0.4 / 12.0).abs() < 0.01, "{off_pop}");
    // Mutants come uniformly from the top 80%.
    assert_eq!(mutant_sources[0] + mutant_sources[1], 0);
    for &c in &mutant_sources[2..] {
        let f = c as f64 / mutant as f64;
        assert!((f - 0.1).abs() < 0.01, "{mutant_sources:?}");
    }
    // 2, 3 or 4 parents, equally likely.
    for &c in &parent_counts[2..] {
        assert!((c as f64 / offspring as f64 - 1.0 / 3.0).abs() < 0.015, "{parent_counts:?}");
    }
}

#[test]
fn mutation_rate_and_sigma() {
    let base: Values = [8000, 8000, 8000, 8000, 8000];
    let mut r = rng(4);
    let (mut changed, mut total, mut sq) = (0usize, 0usize, 0.0);
    for _ in 0..20_000 {
        let m = mutate(&base, MutationStep::default(), &mut r);
        for v in m {
            total += 1;
            if v != 8000 {
                changed += 1;
                sq += f64::from(v - 8000).powi(2);
            }
        }
    }
    let rate = changed as f64 / total as f64;
    let sd = (sq / changed as f64).sqrt();
    assert!((rate - 0.4).abs() < 0.01, "rate {rate}");
    assert!((sd - 400.0).abs() < 10.0, "sd {sd}");
    // A configured step: rate 1, sigma 1,200.
    let step = MutationStep { rate: 1.0, sigma: 1200.0, ..MutationStep::default() };
    let (mut moved, mut sq) = (0usize, 0.0);
    for _ in 0..20_000 {
        for v in mutate(&base, step, &mut r) {
            moved += usize::from(v != 8000);
            sq += f64::from(v - 8000).powi(2);
        }
    }
    let sd = (sq / 100_000.0).sqrt();
    assert!(moved > 99_800, "every allele moves: {moved}");
    assert!((sd - 1200.0).abs() < 25.0, "sd {sd}");
    // Clamped into range at the edges.
    let edge = mutate(&[800, 17000, 800, 17000, 800], MutationStep::default(), &mut rng(5));
    assert!(edge.iter().all(|v| (800..=17000).contains(v)));
}

#[test]
fn crossover_takes_a_parent_allele_two_thirds_of_the_time() {
    let parents: Vec<Values> =
        vec![[1000, 2000, 3000, 4000, 5000], [1300, 2600, 3900, 5200, 6500], [1900, 3800, 5700, 7600, 9500]];
    let mut r = rng(6);
    let (mut mean, mut total) = (0usize, 0usize);
    for _ in 0..30_000 {
        let c = crossover(&parents, &mut r);
        for (i, v) in c.iter().enumerate() {
            total += 1;
            let m = (parents.iter().map(|p| f64::from(p[i])).sum::<f64>() / 3.0).round() as i32;
            if *v == m {
                mean += 1;
            } else {
                assert!(parents.iter().any(|p| p[i] == *v));
            }
        }
    }
    assert!((mean as f64 / total as f64 - 1.0 / 3.0).abs() < 0.01);
}

#[test]
fn next_generation_keeps_elites_and_names_newcomers() {
    let n = 12;
    let pop: Vec<Individual> = ranked(n)
        .into_iter()
        .enumerate()
        .map(|(i, values)| Individual {
            id: i as u64 + 1,
            name: format!("Old{i}"),
            values,
            origin: "random".into(),
            points: 0.0,
            games: 0,
        })
        .collect();
    let mut next_id = n as u64;
    let next = next_generation(&pop, MutationStep::default(), &mut next_id, &mut rng(9));
    assert_eq!(next.len(), n);
    let names: std::collections::HashSet<&str> = next.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(names.len(), n, "names must be unique");
    assert_eq!((next[10].id, next[11].id), (11, 12));
    assert_eq!(next[11].origin, "elite");
    assert!(next[0].id > n as u64 && next[1].id > n as u64);
    for ind in &next {
        assert_eq!(ind.id > n as u64, ind.origin != "elite" && ind.origin != "kept", "{ind:?}");
    }
}
